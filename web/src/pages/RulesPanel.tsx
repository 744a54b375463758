/**
 * The rules of the game on the game page, for players and spectators (issue 26 item 1): the game
 * and layout, every preset and modifier with the first sentence of its description (the whole
 * text on hover, or a tap on the line), the time control, the choice-timeout mode and the seed.
 */
import type { RuleLine, RulesSummary } from '../rules';

function Rule({ r }: { r: RuleLine }) {
  const head = (
    <>
      <span class={`tag ${r.kind}`}>{r.kind === 'preset' ? 'Preset' : 'Modifier'}</span> <b class="rule-name">{r.name}</b>
      {r.options && <span class="opt"> ({r.options})</span>}
      {r.short && <span class="short">{r.short}</span>}
    </>
  );
  return (
    <li data-rule-kind={r.kind} data-rule-id={r.id}>
      {r.full ? (
        <details>
          <summary title={r.full}>{head}</summary>
          <p class="full">{r.full}</p>
        </details>
      ) : (
        <div class="line">{head}</div>
      )}
    </li>
  );
}

/** `drafted`: the rules a draft put in play now ([`draftedLines`]), listed with the others. */
export function RulesPanel({ summary, drafted = [] }: { summary: RulesSummary; drafted?: RuleLine[] }) {
  const rules = [...summary.presets, ...summary.modifiers, ...drafted];
  const choices = summary.modifiers.length > 0 || summary.draft;
  return (
    <section class="rules-panel" aria-label="The rules of this game" data-rules-panel>
      <h3 data-game-name>
        {summary.game}
        {summary.layout && <span class="layout"> · {summary.layout}</span>}
      </h3>
      <dl class="facts">
        <div>
          <dt>Clock</dt>
          <dd data-time-control={summary.timeControl}>{summary.timeControl}</dd>
        </div>
        {choices && (
          <div>
            <dt>Choices</dt>
            <dd data-choice-timeout>{summary.choiceTimeout}</dd>
          </div>
        )}
        {summary.coinFlips && (
          <div>
            <dt>Coins</dt>
            <dd>{summary.coinFlips}</dd>
          </div>
        )}
        {/* The seed only matters to random rules (trial 18: shown for games without modifiers). */}
        {(summary.modifiers.length > 0 || summary.draft) && (
          <div>
            <dt>Seed</dt>
            <dd data-game-seed={summary.seed}>{summary.seed}</dd>
          </div>
        )}
      </dl>
      {summary.draft && <p class="draft">Draft mode: a rule card is drafted before every third ply.</p>}
      {rules.length > 0 ? (
        <ul class="rule-list">
          {rules.map((r) => (
            <Rule r={r} key={`${r.kind}:${r.id}`} />
          ))}
        </ul>
      ) : (
        <p class="plain">{summary.draft ? 'No rule drafted yet: the game’s own rules until a card is drafted.' : 'No presets or modifiers: the game’s own rules.'}</p>
      )}
    </section>
  );
}
