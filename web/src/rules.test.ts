import { describe, expect, it } from 'vitest';
import type { Rules } from './protocol';
import { choiceSeconds, choiceTimeoutText, draftedLines, firstSentence, gameName, inlineRuleNames, layoutText, rulesSummary, timeControl } from './rules';

// Entries as `GET /api/rules` answered them (houserules serve, main at 3f20f3a), cut to what the
// tests read. The descriptions are the server's; the panel must show them, not copies of its own.
const RULES: Rules = {
  games: [
    { id: 'chess', name: 'Chess', description: '8×8 board' },
    { id: 'capablanca', name: 'Capablanca chess', description: '10×8 board' },
  ],
  layouts: [{ id: 'standard' }, { id: 'chess960' }, { id: 'dual-classic' }],
  presets: [
    {
      id: 'piece-hp',
      name: 'Hit Points',
      description:
        'Pieces have hit points (kings 1, others 2): a capture takes one point and the captured piece, if it survives, is pushed to the first empty adjacent square (clockwise from north); at 0 it is removed. Check is a royal that could be killed (P6).',
    },
    { id: 'king-heals', name: 'Regenerating King', description: "With piece-hp: a king that ends its side's turn out of check regains one hit point, up to 3." },
    { id: 'berolina-pawns', name: 'Berolina Pawns', description: 'Berolina pawns for the chosen side(s): they move diagonally forward (two squares from their start rank) and capture straight ahead; en passant follows the diagonal double step (P27).' },
  ],
  modifiers: [
    {
      id: 'parry',
      name: 'Parry',
      description:
        'Every capture by a move (en passant excepted) is contested with rock-paper-scissors between both players: if the defender wins, the capture is cancelled and the turn passes. Every mutator kill rolls two random throws and the piece survives when the defender\'s throw wins.',
    },
    { id: 'mr_freeze', name: 'Mr. Freeze', description: 'The chooser names a file. While the rule lasts, every piece standing in that file, including pieces that arrive later, cannot move, cannot be captured or killed, and gives no check.' },
  ],
};

describe('firstSentence', () => {
  it('cuts at the first sentence end, keeping the parenthesis of a rule reference', () => {
    expect(firstSentence(RULES.presets[0].description!)).toBe(
      'Pieces have hit points (kings 1, others 2): a capture takes one point and the captured piece, if it survives, is pushed to the first empty adjacent square (clockwise from north); at 0 it is removed.',
    );
  });
  it('does not end a sentence at "Mr." or "e.g."', () => {
    expect(firstSentence('Like Mr. Freeze, e.g. a file. Then more.')).toBe('Like Mr. Freeze, e.g. a file.');
  });
  it('keeps a one-sentence text whole', () => {
    expect(firstSentence(RULES.presets[1].description!)).toBe(RULES.presets[1].description);
  });
});

describe('timeControl', () => {
  it('writes minutes + increment as players do', () => {
    expect(timeControl({ initialSeconds: 300, incrementSeconds: 2 })).toBe('5+2');
    expect(timeControl({ initialSeconds: 30, incrementSeconds: 0 })).toBe('½+0');
    expect(timeControl({ initialSeconds: 90, incrementSeconds: 1 })).toBe('1½+1');
    expect(timeControl({ initialSeconds: 100, incrementSeconds: 2 })).toBe('100 s+2');
  });
  it('is "untimed" without a clock', () => {
    expect(timeControl(undefined)).toBe('untimed');
    expect(timeControl(null)).toBe('untimed');
  });
});

describe('choiceTimeoutText', () => {
  it('is 60 s with the default when absent (docs/protocol.md § Rules of play)', () => {
    expect(choiceTimeoutText(undefined)).toBe('60 s to answer, then the first option is taken');
    expect(choiceTimeoutText({ mode: 'timeout-with-default', seconds: 5 })).toBe('5 s to answer, then the first option is taken');
  });
  it('says the game pauses in no-timeout mode', () => {
    expect(choiceTimeoutText({ mode: 'no-timeout' })).toMatch(/no time limit/);
  });
});

describe('layoutText and gameName', () => {
  it('names a Chess960 position, a layout id in words, a FEN start', () => {
    expect(layoutText('chess960:518', undefined, RULES)).toBe('Chess960 position 518');
    expect(layoutText('dual-classic', undefined, RULES)).toBe('Dual classic');
    expect(layoutText(undefined, '8/8/8/8/8/8/8/K6k w - - 0 1', RULES)).toBe('set-up position (FEN)');
    expect(layoutText('standard', undefined, RULES)).toBeNull();
  });
  it('names FIDE chess, a shipped game and a YAML game', () => {
    expect(gameName(undefined, RULES)).toBe('Chess');
    expect(gameName('capablanca', RULES)).toBe('Capablanca chess');
    expect(gameName('id: tiny\nname: Tiny chess\nboard: {width: 4}\n', RULES)).toBe('Tiny chess (custom game)');
  });
});

describe('rulesSummary', () => {
  it('lists every preset and modifier with the server description, clock, timeout and seed', () => {
    const r = rulesSummary(
      { presets: ['piece-hp', 'king-heals', 'berolina-pawns:scope=black'], modifiers: ['parry', 'mr_freeze:file=c;lifetime=6'], seed: 7, clock: { initialSeconds: 300, incrementSeconds: 2 }, choiceTimeout: { mode: 'no-timeout' } },
      RULES,
    );
    expect(r.game).toBe('Chess');
    expect(r.presets.map((p) => [p.name, p.options])).toEqual([
      ['Hit Points', ''],
      ['Regenerating King', ''],
      ['Berolina Pawns', 'scope black'],
    ]);
    expect(r.presets[0].full).toBe(RULES.presets[0].description);
    expect(r.modifiers.map((m) => [m.name, m.options, m.short])).toEqual([
      ['Parry', '', 'Every capture by a move (en passant excepted) is contested with rock-paper-scissors between both players: if the defender wins, the capture is cancelled and the turn passes.'],
      ['Mr. Freeze', 'file c, lifetime 6', 'The chooser names a file.'],
    ]);
    expect(r.timeControl).toBe('5+2');
    expect(r.choiceTimeout).toMatch(/no time limit/);
    expect(r.seed).toBe(7);
    expect(r.draft).toBe(false);
  });
  it('reads an inline descriptor by its own name and description, and a seed of 0 when absent (rulings F4)', () => {
    const r = rulesSummary({ modifiers: [{ id: 'my-rule', name: 'My Rule', description: 'Pawns sing. Loudly.' }, { descriptor: 'parry', lifetime: 4 }] }, RULES);
    expect(r.modifiers.map((m) => [m.id, m.name, m.short, m.options])).toEqual([
      ['my-rule', 'My Rule', 'Pawns sing.', ''],
      ['parry', 'Parry', 'Every capture by a move (en passant excepted) is contested with rock-paper-scissors between both players: if the defender wins, the capture is cancelled and the turn passes.', 'lifetime 4 plies'],
    ]);
    expect(r.seed).toBe(0);
    expect(r.timeControl).toBe('untimed');
  });
  it('reads ids as words while GET /api/rules has not answered', () => {
    const r = rulesSummary({ presets: ['piece-hp'], modifiers: ['mr_freeze'] }, null);
    expect(r.presets[0].name).toBe('Piece hp');
    expect(r.modifiers[0].name).toBe('Mr freeze');
    expect(r.modifiers[0].full).toBe('');
  });
});

describe('inlineRuleNames', () => {
  // Regression (session-14 trial): "In play now" named a rule made in the editor by its id. The
  // request's `modifiers` entries (docs/protocol.md): a library id with options, a descriptor
  // inline, or {descriptor, lifetime?, chooser?, params?}.
  it('names the inline descriptors by their own names, and nothing else', () => {
    const request = {
      modifiers: [
        'parry',
        'frozen-column:file=e',
        { version: 1, id: 'my-mine', name: 'My Mine', triggers: [] },
        { descriptor: { version: 1, id: 'hot-potato', name: ' Hot Potato ' }, lifetime: 6 },
        { descriptor: 'parry', chooser: 'white' },
        { version: 1, id: 'no-name' },
      ],
    };
    expect(inlineRuleNames(request)).toEqual({ 'my-mine': 'My Mine', 'hot-potato': 'Hot Potato' });
    expect(inlineRuleNames(undefined)).toEqual({});
    expect(inlineRuleNames({ modifiers: 'parry' })).toEqual({});
  });
});

describe('choiceSeconds', () => {
  // docs/protocol.md § Rules of play: `{"mode": "timeout-with-default", "seconds": 60}` is the
  // default; `no-timeout` waits for ever. A draft card's prompt carries no timeout (session-14
  // trial: no countdown), the game's rule gives it.
  it('reads the game’s choice timeout', () => {
    expect(choiceSeconds({ choiceTimeout: { mode: 'timeout-with-default', seconds: 45 } })).toBe(45);
    expect(choiceSeconds({ choiceTimeout: { mode: 'no-timeout' } })).toBeNull();
    expect(choiceSeconds({})).toBe(60);
    expect(choiceSeconds(undefined)).toBe(60);
  });
});

// Trial 20: while a drafted rule was in play the rules panel said "No presets or modifiers".
describe('draftedLines', () => {
  const rules = { games: [], layouts: [], presets: [], modifiers: [{ id: 'parry', name: 'Parry', description: 'Every capture is contested. More.' }] } as unknown as Rules;
  it('lists the active rules the request did not name, with who drafted them and the plies left', () => {
    const active = [
      { id: 'mr_freeze', chooser: 'black', lifetime: { kind: 'permanent' as const } },
      { id: 'parry', chooser: 'white', lifetime: { kind: 'moves' as const, expiresAtMove: 9 } },
    ];
    const lines = draftedLines(active, { draft: true, modifiers: ['mr_freeze'] }, rules, 6);
    expect(lines.map((l) => [l.kind, l.id, l.name, l.options, l.short])).toEqual([['modifier', 'parry', 'Parry', 'drafted by White, 3 plies left', 'Every capture is contested.']]);
    expect(draftedLines([], { draft: true }, rules, 0)).toEqual([]);
  });
});
