/**
 * Plain words for the server's slugs (session-7 web trial: the page showed `royal-loss`,
 * `claim.too-early` and log lines like "attach chooser: white, id: parry, instance: 1").
 * Every function keeps a readable fallback for a slug it does not know.
 */
import type { LogEntry, PieceOut } from './protocol';

/** "mr_freeze" → "Mr freeze": a modifier without a name in GET /api/rules still reads as words. */
export function humanId(id: string): string {
  const t = id.replace(/[_-]+/g, ' ').trim();
  return t ? t[0].toUpperCase() + t.slice(1) : id;
}

/** A modifier's display name: the library's name, else its id as words. */
export function modifierName(id: string, names: Record<string, string>): string {
  return names[id] ?? humanId(id);
}

const REASONS: Record<string, string> = {
  checkmate: 'by checkmate',
  stalemate: 'by stalemate',
  'insufficient-material': 'by insufficient material',
  'threefold-repetition': 'by threefold repetition (claimed)',
  'fivefold-repetition': 'by fivefold repetition',
  'fifty-move-rule': 'by the fifty-move rule (claimed)',
  'seventy-five-move-rule': 'by the seventy-five-move rule',
  resignation: 'by resignation',
  resign: 'by resignation',
  agreement: 'by agreement',
  flag: 'on time',
  timeout: 'on time',
  'timeout-vs-insufficient-material': 'drawn: time ran out, but the opponent could not mate',
  abandonment: 'by abandonment: the opponent left and victory was claimed',
  'claim-victory': 'by abandonment: the opponent left and victory was claimed',
  'disconnect-during-choice': 'the player left while their choice was pending',
  'royal-loss': 'the king was lost',
  // Ends the presets give (crates/presets/src/rules.rs's module documentation, the lichess games).
  'king-of-the-hill': 'a king reached the centre',
  'racing-kings': 'a king reached the eighth rank',
  'king-exploded': 'the king exploded',
  horde: 'a side lost its last piece',
  'check-limit': 'the check limit was reached',
  'no-pieces-left': 'no pieces left',
  'no-legal-moves': 'no legal moves left',
  'all-pieces-captured': 'every piece was captured',
  'no-knights-left': 'no knights left',
  'no-kings-left': 'no kings left',
  'royal-destroyed': 'the royal piece was destroyed',
  'skip-loop': 'drawn: every turn was being skipped',
  'rps-winner': 'by rock, paper, scissors',
};

/**
 * The reasons that name the preset deciding the game, by its name (session-14 trial: a game of
 * "First Blood" ended "First capture"): reason → [preset id, what happened]
 * (crates/presets/src/rules.rs: `first-capture` is capture-to-win's, `first-promotion`
 * first-promotion-wins'; the locked result's own `capture-to-win` too).
 */
const PRESET_REASONS: Record<string, [string, string]> = {
  'first-capture': ['capture-to-win', 'the first capture won'],
  'capture-to-win': ['capture-to-win', 'the first capture won'],
  'first-promotion': ['first-promotion-wins', 'the first promotion won'],
  'first-promotion-wins': ['first-promotion-wins', 'the first promotion won'],
};

/**
 * The game-over banner's reason in words (an unknown slug as words too). `presetName`: a
 * preset's name by id (GET /api/rules), for the reasons that name their preset; its id as words
 * while unknown. `<kind>s-extinct` (extinction-chess) reads "the pawns are extinct".
 */
export function reasonText(reason: string, presetName: (id: string) => string | undefined = () => undefined): string {
  if (!reason) return '';
  const p = PRESET_REASONS[reason];
  if (p) return `${presetName(p[0]) ?? humanId(p[0])}: ${p[1]}`;
  const extinct = /^([a-z]+)-extinct$/.exec(reason);
  if (extinct) return `the ${extinct[1].replace(/_/g, ' ')} are extinct`;
  return REASONS[reason] ?? humanId(reason);
}

const ERRORS: Record<string, string> = {
  'claim.too-early': 'Your opponent has not been away long enough to claim victory yet.',
  'claim.opponent-present': 'Your opponent is connected: victory can only be claimed while they are away.',
  'draw.no-claim': 'No draw can be claimed now: that needs a threefold repetition or fifty moves without a capture or pawn move.',
  'draw.claim-incorrect': 'That draw claim is not correct in this position.',
  'draw.not-your-turn': 'A draw can only be claimed on your own turn.',
  'draw.already-offered': 'A draw offer is already standing.',
  'draw.no-offer': 'There is no draw offer to answer.',
  'move.not-your-turn': 'It is not your move.',
  'move.choice-pending': 'A choice must be made before the next move.',
  'move.bad-ply': 'The game had moved on: that move was for an earlier position.',
  'choice.not-yours': 'That choice is not yours to make.',
  'choice.already-answered': 'That choice was already answered.',
  'choice.none-pending': 'No choice is pending.',
  'choice.unknown-id': 'That choice is no longer pending.',
  'game.over': 'The game is over.',
  'seat.spectator': 'Spectators cannot act in the game.',
  'message.rate-limited': 'Too many messages: slow down a little.',
};

/**
 * An error notice: a known code in words, else the server's own message (its sentence says what
 * and where, e.g. "e2e5 is not legal"); the bare code only when the message is empty.
 */
export function errorText(code: string | undefined, message: string): string {
  if (code && ERRORS[code]) return ERRORS[code];
  const m = message.trim();
  if (m) return m;
  return code ? `The server refused the action (${code}).` : 'The server refused the action.';
}

const KIND_NOUN: Record<string, string> = {
  piece: 'a piece',
  square: 'a square',
  // The choice kinds `column` and `row` (the spec's names) in chess's words, as the rules'
  // descriptions and the board's letters say them (session-14 trial: "column" beside "file").
  column: 'a file',
  row: 'a rank',
  // Manual coin flips only (rulings B6): a real coin is tossed at the table and its result entered, not guessed.
  'coin-flip': 'enter the result of a real coin toss',
  rps: 'rock, paper or scissors',
  card: 'a rule card',
};

/** The choice panel's title: what to choose and, when known, for which modifier ("Bottomless Pit: choose a square"). */
export function choiceTitle(kind: string, modifier: string | null): string {
  const what = kind === 'card' ? 'Draft: choose a rule' : kind === 'rps' ? 'Rock, paper, scissors' : kind === 'coin-flip' ? 'Toss a real coin and enter how it landed' : `Choose ${KIND_NOUN[kind] ?? `(${kind})`}`;
  if (!modifier) return what;
  return `${modifier}: ${what[0].toLowerCase()}${what.slice(1)}`;
}

/** What the other player reads while a choice is pending: "Waiting for White to choose a file (Mr. Freeze)…". */
export function waitingText(forPlayer: string, kind: string, modifier: string | null): string {
  const who = forPlayer === 'white' ? 'White' : forPlayer === 'black' ? 'Black' : forPlayer === 'both' ? 'both players' : forPlayer;
  const what = kind === 'coin-flip' ? KIND_NOUN[kind] : `choose ${KIND_NOUN[kind] ?? kind}`;
  return `Waiting for ${who} to ${what}${modifier ? ` (${modifier})` : ''}…`;
}

/**
 * Whom a pending choice still waits for: `white`, `black`, or `both` while neither has answered a
 * choice for both (rps). Trial 20: "Waiting for both players" stayed after one had answered
 * (spectators, the phone's line under the board); the state's `collected` holds each answer given
 * ("hidden" until both are in).
 */
export function stillWaitingFor(p: { forPlayer?: unknown; prompt?: { forPlayer?: unknown } | null; collected?: Record<string, unknown> | null }): string {
  const who = String(p.prompt?.forPlayer ?? p.forPlayer ?? '');
  if (who !== 'both' || !p.collected) return who;
  const has = (c: string) => p.collected![c] !== undefined && p.collected![c] !== null;
  if (has('white') && !has('black')) return 'black';
  if (has('black') && !has('white')) return 'white';
  return who;
}

const side = (c: unknown) => (c === 'white' ? 'White' : c === 'black' ? 'Black' : String(c ?? '?'));

/** "a white knight" from an entry's `color` and `type` ("a piece" when they are missing). */
function pieceWords(d: Record<string, unknown>, article: 'a' | 'the' = 'the'): string {
  const ty = typeof d.type === 'string' ? d.type.replace(/[_-]+/g, ' ') : '';
  const co = d.color === 'white' || d.color === 'black' ? d.color : '';
  if (!ty && !co) return article === 'a' ? 'a piece' : 'the piece';
  return `${article} ${[co, ty || 'piece'].filter(Boolean).join(' ')}`;
}

/** A marker kind in words: "treasure-chest" → "treasure chest". */
const markerWords = (k: unknown) => String(k ?? 'marker').replace(/[_-]+/g, ' ');

/** The first letter in capitals. */
const cap = (t: string) => (t ? t[0].toUpperCase() + t.slice(1) : t);

/** "a hit point" / "2 hit points". */
const points = (n: number) => (n === 1 ? 'a hit point' : `${n} hit points`);
/**
 * One drawn or chosen value in words: a piece (the runtime's `{id, type, color, square}`) as "the
 * white pawn on e4", anything else as text (trial 20: picked pieces read "[object Object]").
 */
function valueWords(v: unknown): string {
  if (typeof v === 'object' && v !== null && !Array.isArray(v)) {
    const d = v as Record<string, unknown>;
    if (typeof d.square === 'string') return `${pieceWords(d)} on ${d.square}`;
    return JSON.stringify(v);
  }
  return String(v);
}
const list = (v: unknown) => (Array.isArray(v) ? v.map(valueWords).join(', ') : valueWords(v));
/**
 * The rule's name for a draw, when it is a word ("spots", "attack"); one- or two-letter variable
 * names ("s", "a", "w2") mean nothing to a player and are left out (trial 20).
 */
const bindWords = (b: unknown) => (typeof b === 'string' && /^[a-z][a-z_-]{2,}$/i.test(b) ? ` (${b.replace(/[_-]+/g, ' ')})` : '');

/**
 * One rule-event log entry as a sentence, or null for entries the reader does not need (`move`
 * is in the move list). Modifier ids become names; instance numbers and choice ids are hidden.
 */
export function eventText(e: LogEntry, names: Record<string, string>, moveSan?: string): string | null {
  const d = (typeof e.detail === 'object' && e.detail !== null ? e.detail : {}) as Record<string, unknown>;
  const name = (id: unknown) => modifierName(String(id ?? '?'), names);
  switch (e.event) {
    case 'move':
      return null;
    case 'attach':
      return `${name(d.id)} is now in play (chosen by ${side(d.chooser)}).`;
    case 'detach':
      return `${name(d.id)} has ended.`;
    case 'capture-cancelled':
      // In SAN when the move list has the move (issue 26 item 6: "e4d5" read as code).
      return `The capture ${moveSan ?? (d.uci ? String(d.uci) : '')}${moveSan || d.uci ? ' ' : ''}was cancelled: the pieces stay where they were.`;
    case 'capture-stands':
      // The attempt hooks (Parry's answers) let the capture stand: said, so the log does not end at
      // the answers (issue 26 item 6).
      return `The capture ${moveSan ?? (d.uci ? String(d.uci) : '')}${moveSan || d.uci ? ' ' : ''}stands.`;
    case 'kill-cancelled':
      // Not a capture: a rule's kill (a mine's, a custom rule's) a hook cancelled; the piece is named
      // when the entry carries it (trial 18: "The capture on h5 was prevented").
      return `${cap(pieceWords(d))} on ${String(d.square ?? '?')} was saved: the kill was cancelled.`;
    case 'skip':
      return `${side(d.color)}’s turn passes to ${d.color === 'white' ? 'Black' : d.color === 'black' ? 'White' : 'the other side'}.`;
    case 'choice': {
      // A slot the timeout filled (trial 18: it read "White has answered" though nobody did).
      // "time ran out" read as losing on time (trial 20 item 5): the answer was not given in time.
      if (d.value === 'hidden' && d.auto) return `${side(d.player)} did not answer in time: the default was taken.`;
      if (d.value === 'hidden') return `${side(d.player)} has answered (hidden until both have).`;
      // White's answer first, as everywhere on the page (the server's object is in key order).
      const answers = d.answers && typeof d.answers === 'object' ? Object.entries(d.answers as Record<string, unknown>).sort(([a], [b]) => (a === 'white' ? -1 : b === 'white' ? 1 : 0)) : [];
      if (answers.length) return `Answers: ${answers.map(([k, v]) => `${side(k)} ${String(v)}`).join(', ')}${d.auto && d.player ? ` (${side(d.player)} did not answer in time: the default was taken)` : ''}.`;
      const auto = d.auto ? ' (not answered in time: the default was taken)' : '';
      // A choice for one player is logged without its player (only an rps
      // answer for both names it): no "? chose" (session-7 re-trial).
      // A draft's pick is a modifier id: its name (trial 20: "Chosen: they_deserved_it").
      const value = typeof d.value === 'string' && names[d.value] ? names[d.value] : list(d.value);
      return d.player ? `${side(d.player)} chose ${value}${auto}.` : `Chosen: ${value}${auto}.`;
    }
    case 'random-pick':
      // The rule's own name for what is drawn ("attack", "spots"): says what the draw is for.
      return `Picked at random${bindWords(d.bind)}: ${list(d.value)}.`;
    case 'coin':
      return `Coin flip${Array.isArray(d.value) ? 's' : ''}: ${list(d.value)}.`;
    case 'chance':
      return `Chance${typeof d.p === 'number' ? ` (${Math.round(d.p * 100)} %)` : ''}: ${d.hit ? 'it happened' : 'it did not happen'}.`;
    case 'convert':
      return `The piece on ${String(d.square ?? '?')} became a ${side(d.color).toLowerCase()} ${String(d.type ?? 'piece')}.`;
    case 'spawn':
      return `A ${side(d.color).toLowerCase()} ${String(d.type ?? 'piece')} appeared on ${String(d.square ?? '?')}.`;
    case 'removed':
      if (d.hp === 0) return `${cap(pieceWords(d))} on ${String(d.square ?? '?')} lost its last hit point and was removed.`;
      return `${cap(pieceWords(d))} on ${String(d.square ?? '?')} was removed.`;
    case 'entered-marker': {
      const onto = d.cause === 'move' || d.cause === undefined ? 'landed on' : 'was put onto';
      return `${cap(pieceWords(d, 'a'))} ${onto} the ${markerWords(d.kind)} on ${String(d.square ?? '?')}.`;
    }
    case 'hp': {
      const hp = Number(d.hp);
      const was = Number(d.was);
      if (!Number.isFinite(hp) || !Number.isFinite(was)) return `${cap(pieceWords(d))} on ${String(d.square ?? '?')} has ${String(d.hp ?? '?')} hit points.`;
      if (hp < was) return `${cap(pieceWords(d))} on ${String(d.square ?? '?')} lost ${points(was - hp)}: ${hp} left.`;
      return `${cap(pieceWords(d))} on ${String(d.square ?? '?')} regained ${points(hp - was)}: ${hp} now.`;
    }
    case 'exploded': {
      // Atomic (trial 20: an explosion wrote no entry): the pieces it took besides the capture.
      const gone = Array.isArray(d.removed) ? d.removed.filter((x): x is Record<string, unknown> => typeof x === 'object' && x !== null) : [];
      const list = gone.map((x) => `${pieceWords(x)} on ${String(x.square ?? '?')}`).join(', ');
      return `The capture on ${String(d.square ?? '?')} exploded${list ? `: ${list} ${gone.length === 1 ? 'is' : 'are'} gone` : ''}.`;
    }
    case 'pushed':
      return `${cap(pieceWords(d))} was pushed from ${String(d.from ?? '?')} to ${String(d.to ?? '?')}.`;
    case 'pushed-off':
      return `${cap(pieceWords(d))} on ${String(d.square ?? '?')} survived the hit, but no square beside it was empty: it is off the board.`;
    case 'moved':
      return `A piece was moved from ${String(d.from ?? '?')} to ${String(d.to ?? '?')}.`;
    case 'stepped':
      return `A piece stepped from ${String(d.from ?? '?')} to ${String(d.to ?? '?')}.`;
    case 'swapped':
      return `The pieces on ${String(d.a ?? '?')} and ${String(d.b ?? '?')} swapped places.`;
    case 'marker-placed':
      return `A ${markerWords(d.kind)} was placed on ${String(d.square ?? '?')}.`;
    case 'marker-removed':
      // Trial 18: a mine used up vanished with no entry.
      return `The ${markerWords(d.kind)} on ${String(d.square ?? '?')} ${d.used ? 'is used up' : 'is gone'}.`;
    case 'marker-expired':
      return d.square ? `The ${markerWords(d.kind)} on ${String(d.square)} expired.` : `A ${markerWords(d.kind)} marker expired.`;
    case 'marker-limit':
      return 'No more markers can be placed (the board’s limit is reached).';
    case 'draft':
      return `${side(d.for)} drafts a rule: ${Array.isArray(d.cards) ? d.cards.map((c) => name((c as { id?: unknown }).id)).join(', ') : ''}.`;
    case 'error':
      return `A rule stopped early${d.modifier ? ` (${name(d.modifier)})` : ''}: ${String(d.code ?? 'error')}.`;
    default: {
      // An event this page does not know: its name and plain fields, without ids.
      const parts = Object.entries(d)
        .filter(([k, v]) => v !== null && v !== undefined && !/^(instance|choiceId|id|marker|source)$/.test(k))
        .map(([k, v]) => `${k} ${typeof v === 'object' ? JSON.stringify(v) : String(v)}`);
      return `${humanId(e.event)}${parts.length ? `: ${parts.join(', ')}` : ''}.`;
    }
  }
}

/** One line of the game page's event log (issue 26 item 6). */
export interface EventRow {
  /** The log index: a stable key. */
  key: number;
  /** When: "start" before the first move, else the move it followed ("12." White's, "12…" Black's). */
  when: string;
  /**
   * The rule the entry belongs to, by name; several names joined by " / " when the log does not
   * say which of the active rules wrote it; null for none (a turn passing, a draft) and for
   * entries whose text names it (attach, detach).
   */
  rule: string | null;
  /** Whether `rule` is certain (false: one of the rules named). */
  sure: boolean;
  text: string;
  /** Markers placed together, merged into this row (its squares, in order). */
  group?: { kind: string; squares: string[] };
}

/**
 * The event log's rows, oldest first, with the move each follows and the rule that wrote it.
 *
 * The server's entries name the rule that wrote them (`rule`, session 18; docs/protocol.md § The
 * rule log): when any entry of the log does, each row takes its entry's rule, and an entry without
 * one belongs to no rule. Older logs name none (only `attach`, `detach` and `error` say it), so
 * there the rule is derived: an entry after an `attach` and before the next move belongs to it
 * (its activation); a `choice` to the modifier of the prompt the page saw (`choiceRules`, choice id
 * to descriptor id, from `pendingChoice.descriptorId`), and the entries after it to the same
 * rule (the rest of its handler); an entry after a move to the only active modifier; otherwise the
 * active modifiers are all named as candidates (`sure` false). `sanOf(i)`: the SAN of the i-th
 * move (0-based), for cancelled captures. `firstBlack`: the first move was Black's.
 */
export function eventRows(
  log: LogEntry[],
  names: Record<string, string>,
  sanOf: (i: number) => string | undefined,
  choiceRules: Record<string, string> = {},
  firstBlack = false,
): EventRow[] {
  const rows: EventRow[] = [];
  const active: string[] = [];
  let moves = 0;
  // Whether a draft card or a choice came before (an attach after one was that pick's).
  let picked = false;
  // The rule whose handler is running, when known.
  let ctx: string | null = null;
  const named = log.some((e) => e.rule);
  // The entries' own rule names, by id (a preset's name is not in `names`).
  const own: Record<string, string> = {};
  for (const e of log) if (e.rule && !names[e.rule.id]) own[e.rule.id] = e.rule.name || humanId(e.rule.id);
  const allNames = { ...own, ...names };
  // The side that moved last, and the entries of the block since that move (for a coin flipped at
  // the start of the coming turn).
  let lastMover: string | null = null;
  let block: LogEntry[] = [];
  pushFirst(log).forEach(([e, key]) => {
    if (e.event === 'move') {
      const c = (e.detail as { color?: unknown } | null)?.color;
      lastMover = c === 'white' || c === 'black' ? c : (moves + (firstBlack ? 1 : 0)) % 2 === 0 ? 'white' : 'black';
      block = [];
    } else block.push(e);
    const d = (typeof e.detail === 'object' && e.detail !== null ? e.detail : {}) as Record<string, unknown>;
    const id = typeof d.id === 'string' ? d.id : null;
    let rule: string[];
    if (named) {
      if (e.event === 'move') {
        moves++;
        return;
      }
      rule = e.rule ? [e.rule.id] : [];
    } else switch (e.event) {
      case 'move':
        moves++;
        ctx = active.length === 1 ? active[0] : null;
        return;
      case 'attach':
        if (id && !active.includes(id)) active.push(id);
        ctx = id;
        rule = id ? [id] : [];
        break;
      case 'detach': {
        const i = id ? active.indexOf(id) : -1;
        if (i >= 0) active.splice(i, 1);
        rule = id ? [id] : [];
        break;
      }
      case 'error':
        rule = typeof d.modifier === 'string' ? [d.modifier] : ctx ? [ctx] : [];
        break;
      case 'draft':
        rule = [];
        break;
      case 'skip':
        // A turn passes by a rule (Parry's cancelled capture) or by a preset: no guessing.
        rule = ctx ? [ctx] : [];
        break;
      case 'choice': {
        const known = typeof d.choiceId === 'string' ? choiceRules[d.choiceId] : undefined;
        if (known) ctx = known;
        rule = ctx ? [ctx] : [...active];
        break;
      }
      default:
        rule = ctx ? [ctx] : [...active];
    }
    if (e.event === 'draft' || e.event === 'choice') picked = true;
    // A rule in play before any move or pick was set when the game was made (in the lobby, or by the
    // rematch of such a game): "chosen by White" read as if White had picked it (trial 20).
    const atCreation = e.event === 'attach' && moves === 0 && !picked;
    const text = atCreation ? `${modifierName(String(d.id ?? '?'), names)} is in play from the start (set when the game was created).` : eventText(e, names, (e.event === 'capture-cancelled' || e.event === 'capture-stands') && moves > 0 ? sanOf(moves - 1) : undefined);
    if (text === null) return;
    let k = moves - 1 + (firstBlack ? 1 : 0);
    let shown = text;
    // A coin after a move, not from a rule that came into play in that block, is the coming turn's
    // (All on Red flips for the side to move at the start of each turn): labelled with that turn and
    // naming the side (trial 20 item 5: "2. All on Red: Coin flip: tails" was Black's coin). The side
    // to move after the move, or after a turn passed (`skip`) in the block.
    // A `skip` of the coming side (its turn passed, not the mover's own) is labelled the same way.
    if ((e.event === 'coin' || e.event === 'skip') && moves > 0 && lastMover) {
      const ruleId = e.rule?.id;
      const attachedHere = e.event === 'coin' && block.some((x) => x.event === 'attach' && (!ruleId || (x.detail as { id?: unknown } | null)?.id === ruleId));
      let turn = lastMover === 'white' ? 'black' : 'white';
      let passed = 0;
      for (const x of block) {
        if (x === e) break;
        if (x.event === 'skip' && (x.detail as { color?: unknown } | null)?.color === turn) {
          turn = turn === 'white' ? 'black' : 'white';
          passed++;
        }
      }
      if (e.event === 'coin' && !attachedHere) {
        k += 1 + passed;
        shown = `${side(turn)}’s ${text.charAt(0).toLowerCase()}${text.slice(1)}`;
      } else if (e.event === 'skip' && d.color === turn) k += 1 + passed;
    }
    const when = moves === 0 ? 'start' : `${Math.floor(k / 2) + 1}${k % 2 === 0 ? '.' : '…'}`;
    // "Parry is now in play" names its rule already: no "Parry: " before it.
    const says = e.event === 'attach' || e.event === 'detach';
    const ruleName = rule.length && !says ? rule.map((r) => modifierName(r, allNames)).join(' / ') : null;
    // Many markers of one kind placed by one rule at once (Mr. Freeze's eight frozen squares): one
    // line listing the squares (trial 20 item 7).
    const prev = rows[rows.length - 1];
    const sq = (e.detail as { square?: unknown } | null)?.square;
    if (e.event === 'marker-placed' && typeof sq === 'string' && prev && prev.group && prev.group.kind === String((e.detail as { kind?: unknown }).kind) && prev.when === when && prev.rule === ruleName) {
      prev.group.squares.push(sq);
      prev.text = `${cap(markerPlural((e.detail as { kind?: unknown }).kind))} were placed on ${prev.group.squares.join(', ')}.`;
      return;
    }
    const row: EventRow = { key, when, rule: ruleName, sure: rule.length <= 1, text: shown };
    if (e.event === 'marker-placed' && typeof sq === 'string') row.group = { kind: String((e.detail as { kind?: unknown }).kind), squares: [sq] };
    rows.push(row);
  });
  return rows;
}

/** "frozen squares": the plural of a marker kind's words. */
function markerPlural(kind: unknown): string {
  const w = markerWords(kind);
  return /(s|x|ch|sh)$/.test(w) ? `${w}es` : w.endsWith('y') && !/[aeiou]y$/.test(w) ? `${w.slice(0, -1)}ies` : `${w}s`;
}

/**
 * The log with each entry's index, a capture's push told before the hit point it cost: the server
 * writes the target's `hp` (already on its new square) before its `pushed` (trial 20: "The black
 * pawn on d6 lost a hit point" came before the push that put it on d6).
 */
export function pushFirst(log: LogEntry[]): [LogEntry, number][] {
  const out: [LogEntry, number][] = log.map((e, i) => [e, i]);
  const idOf = (e: LogEntry) => (typeof e.detail === 'object' && e.detail !== null ? (e.detail as Record<string, unknown>).id : undefined);
  for (let i = 0; i + 1 < out.length; i++) {
    const [a, b] = [out[i][0], out[i + 1][0]];
    if (a.event === 'hp' && b.event === 'pushed' && idOf(a) !== undefined && idOf(a) === idOf(b)) {
      [out[i], out[i + 1]] = [out[i + 1], out[i]];
      i++;
    }
  }
  return out;
}

/**
 * Indexes (among the `move` entries) of moves whose capture was cancelled: the log's
 * `capture-cancelled` entry follows its move (parry). The move list marks them.
 */
export function cancelledMoves(log: LogEntry[]): Set<number> {
  const out = new Set<number>();
  let n = -1;
  for (const e of log) {
    if (e.event === 'move') n++;
    else if (e.event === 'capture-cancelled' && n >= 0) out.add(n);
  }
  return out;
}

/** A uniform seed for the random rules (a u32, as `seed` in POST /api/games). */
export function randomSeed(rand: (a: Uint32Array) => Uint32Array = (a) => crypto.getRandomValues(a)): number {
  return rand(new Uint32Array(1))[0];
}

/**
 * The seed a new game is created with: the typed whole number 0–2³²−1, or a uniform random u32
 * when the field is empty (session-7 web trial: every game sent none, so the server's default 0
 * gave every random rule the same outcome).
 */
export function seedOf(text: string, rand: () => number = randomSeed): number | Error {
  const t = text.trim();
  if (!t) return rand();
  if (!/^\d{1,10}$/.test(t) || Number(t) > 4294967295) return new Error(`the seed is a whole number from 0 to 4294967295, not “${t.slice(0, 20)}”`);
  return Number(t);
}

/** A piece choice's button label ("white knight f3"). */
export function pieceLabel(o: string, pieces: PieceOut[]): string {
  const p = pieces.find((x) => x.square === o || String(x.id) === o);
  return p ? `${p.color} ${p.type} ${p.square}` : o;
}

/** Cuts an echo of user input for a message (session-7 trial: a 5,000-character move ran off the screen). */
export function cut(s: string, n = 40): string {
  return s.length > n ? `${s.slice(0, n)}…` : s;
}
