import { describe, expect, it } from 'vitest';
import { cancelledMoves, choiceTitle, errorText, eventRows, eventText, randomSeed, reasonText, stillWaitingFor, waitingText } from './words';

const names = { parry: 'Parry', mr_freeze: 'Mr. Freeze', bottomless_pit: 'Bottomless Pit' };

// Regressions (session-7 web trial): slugs and raw log fields on the game page.
describe('game-over reasons', () => {
  it('says the common reasons in words', () => {
    expect(reasonText('disconnect-during-choice')).toBe('the player left while their choice was pending');
    expect(reasonText('royal-loss')).toBe('the king was lost');
    expect(reasonText('checkmate')).toBe('by checkmate');
  });
  it('turns an unknown slug into words', () => {
    expect(reasonText('some-new-reason')).toBe('Some new reason');
  });
  it('names a preset\'s win by the preset\'s name, as the lobby and the rules panel do (session-14 trial)', () => {
    // crates/presets/src/registry.rs: `capture-to-win` is named "First Blood" (docs/presets.md);
    // its games end with the reason `first-capture` (crates/presets/src/rules.rs), which the
    // banner showed as "First capture".
    const names: Record<string, string> = { 'capture-to-win': 'First Blood', 'first-promotion-wins': 'First to Promote Wins' };
    expect(reasonText('first-capture', (id) => names[id])).toBe('First Blood: the first capture won');
    expect(reasonText('first-promotion', (id) => names[id])).toBe('First to Promote Wins: the first promotion won');
    // Before GET /api/rules answers: the preset's id in words, never the raw slug.
    expect(reasonText('first-capture')).toBe('Capture to win: the first capture won');
    expect(reasonText('king-exploded')).toBe('the king exploded');
    expect(reasonText('pawns-extinct')).toBe('the pawns are extinct');
  });
});

describe('error codes', () => {
  it('says claim.too-early in words', () => {
    expect(errorText('claim.too-early', 'claim.too-early')).not.toMatch(/claim\.too-early/);
  });
});

describe('choice prompts', () => {
  it('names the modifier the choice is for', () => {
    expect(choiceTitle('square', 'Bottomless Pit')).toBe('Bottomless Pit: choose a square');
    expect(choiceTitle('square', null)).toBe('Choose a square');
    // The spec's `column` and `row` choices read in chess's terms, file and rank (session-14 trial).
    expect(waitingText('white', 'column', 'Mr. Freeze')).toBe('Waiting for White to choose a file (Mr. Freeze)…');
    expect(waitingText('black', 'row', null)).toBe('Waiting for Black to choose a rank…');
    expect(choiceTitle('column', 'Mr. Freeze')).toBe('Mr. Freeze: choose a file');
    expect(choiceTitle('row', null)).toBe('Choose a rank');
  });
  // Session-7 trial: "Call the coin" read as a guess, but in manual mode (rulings B6) the players
  // report a real coin tossed at the table.
  it('asks for a real coin toss, not a call', () => {
    expect(choiceTitle('coin-flip', 'All on Red')).toBe('All on Red: toss a real coin and enter how it landed');
    expect(choiceTitle('coin-flip', null)).not.toMatch(/call|guess/i);
    expect(waitingText('black', 'coin-flip', null)).toBe('Waiting for Black to enter the result of a real coin toss…');
  });
});

describe('rule-event log', () => {
  it('writes attach, random-pick and choice as sentences without instance ids', () => {
    const attach = eventText({ event: 'attach', detail: { chooser: 'white', id: 'parry', instance: 1 } }, names);
    expect(attach).toBe('Parry is now in play (chosen by White).');
    expect(attach).not.toMatch(/instance|\b1\b/);
    expect(eventText({ event: 'random-pick', detail: { bind: 'spots', value: ['d1', 'e4'] } }, names)).toBe('Picked at random (spots): d1, e4.');
    expect(eventText({ event: 'choice', detail: { choiceId: 'c3', value: 'e', player: 'white', auto: null } }, names)).toBe('White chose e.');
    // A one-player choice is logged without its player: no "? chose" (session-7 re-trial).
    expect(eventText({ event: 'choice', detail: { choiceId: 'c2', value: 'e7', player: null, auto: null } }, names)).toBe('Chosen: e7.');
    expect(eventText({ event: 'choice', detail: { choiceId: 'c3', value: 'hidden', player: 'white' } }, names)).toBe('White has answered (hidden until both have).');
    // Regression (trial 18): a throw the timeout filled read "White has answered" though nobody did.
    expect(eventText({ event: 'choice', detail: { choiceId: 'c3', value: 'hidden', player: 'white', auto: 'timeout' } }, names)).toBe('White did not answer in time: the default was taken.');
    expect(eventText({ event: 'choice', detail: { choiceId: 'c3', value: 'rock', player: 'black', auto: 'timeout', answers: { black: 'rock', white: 'rock' } } }, names)).toBe('Answers: White rock, Black rock (Black did not answer in time: the default was taken).');
    expect(eventText({ event: 'detach', detail: { id: 'mr_freeze', instance: 2 } }, names)).toBe('Mr. Freeze has ended.');
  });
  // Trial 20 (regression): a draw of pieces read "[object Object], [object Object]", a rule's
  // one-letter variable was shown as "(s)", and a draft's pick as the modifier's id. The pieces are
  // the runtime's snapshots ({id, type, color, square}: crates/modifiers/src/runtime/mod.rs `snap`).
  it('writes drawn pieces, hides variable names and names drafted rules', () => {
    const pawns = [{ id: 12, type: 'pawn', color: 'white', square: 'e2' }, { id: 20, type: 'pawn', color: 'black', square: 'd7' }];
    expect(eventText({ event: 'random-pick', detail: { bind: 'pawns', value: pawns } }, names)).toBe('Picked at random (pawns): the white pawn on e2, the black pawn on d7.');
    expect(eventText({ event: 'random-pick', detail: { bind: 'a', value: pawns[0] } }, names)).toBe('Picked at random: the white pawn on e2.');
    expect(eventText({ event: 'random-pick', detail: { bind: 's', value: 'a5' } }, names)).toBe('Picked at random: a5.');
    expect(eventText({ event: 'choice', detail: { choiceId: 'c1', value: 'mr_freeze', player: null, auto: null } }, names)).toBe('Chosen: Mr. Freeze.');
  });
  it('hides moves (they are in the move list) and keeps unknown events readable', () => {
    expect(eventText({ event: 'move', detail: { uci: 'e2e4', color: 'white' } }, names)).toBeNull();
    expect(eventText({ event: 'new-thing', detail: { instance: 4, square: 'e4' } }, names)).toBe('New thing: square e4.');
  });
  it('finds the moves a parry cancelled: the entry after the move', () => {
    const log = [
      { event: 'move', detail: { uci: 'e2e4' } },
      { event: 'move', detail: { uci: 'd7d5' } },
      { event: 'move', detail: { uci: 'e4d5' } },
      { event: 'choice', detail: {} },
      { event: 'capture-cancelled', detail: { uci: 'e4d5' } },
      { event: 'move', detail: { uci: 'e8e7' } },
    ];
    expect([...cancelledMoves(log)]).toEqual([2]);
  });
});

describe('random seed', () => {
  it('is the u32 the random source gives', () => {
    expect(randomSeed((a) => a.fill(4294967295))).toBe(4294967295);
  });
});

// Issue 26 item 6: entries name their rule, say when they happened, and write cancelled captures
// in SAN. The log is the one `houserules serve` kept for {presets: [piece-hp], modifiers: [parry,
// minefield], seed: 7} after 1. e4 d5 2. exd5 (rps: White rock, Black paper: the defender wins,
// the capture is cancelled and the turn passes) Nc6 3. Nc3 (onto the mine on c3: Parry's two
// throws for a kill, a tie, and the knight is removed).
describe('eventRows', () => {
  const log = [
    { detail: { chooser: 'white', id: 'parry', instance: 1 }, event: 'attach' },
    { detail: { chooser: 'white', id: 'minefield', instance: 2 }, event: 'attach' },
    { detail: { bind: 'spots', value: ['a3', 'c3'] }, event: 'random-pick' },
    { detail: { color: 'white', uci: 'e2e4' }, event: 'move' },
    { detail: { color: 'black', uci: 'd7d5' }, event: 'move' },
    { detail: { color: 'white', uci: 'e4d5' }, event: 'move' },
    { detail: { auto: null, choiceId: 'c5', player: 'white', value: 'hidden' }, event: 'choice' },
    { detail: { answers: { black: 'paper', white: 'rock' }, auto: null, choiceId: 'c5', player: 'black', value: 'paper' }, event: 'choice' },
    { detail: { uci: 'e4d5' }, event: 'capture-cancelled' },
    { detail: { color: 'white' }, event: 'skip' },
    { detail: { color: 'black', uci: 'b8c6' }, event: 'move' },
    { detail: { color: 'white', uci: 'b1c3' }, event: 'move' },
    { detail: { bind: 'attack', value: 'scissors' }, event: 'random-pick' },
    { detail: { bind: 'defence', value: 'scissors' }, event: 'random-pick' },
    { detail: { id: 26, square: 'c3' }, event: 'removed' },
  ];
  const names = { parry: 'Parry', minefield: 'Minefield' };
  const sans = ['e4', 'd5', 'exd5', 'Nc6', 'Nc3'];
  const rows = eventRows(log, names, (i) => sans[i], { c5: 'parry' });

  it('names the rule of an activation, a choice and what follows the choice', () => {
    expect(rows.slice(0, 3).map((r) => [r.when, r.rule, r.sure])).toEqual([
      ['start', null, true],
      ['start', null, true],
      ['start', 'Minefield', true],
    ]);
    // Trial 20: a rule set in the lobby read "chosen by White".
    expect(rows[0].text).toBe('Parry is in play from the start (set when the game was created).');
    expect(rows[2].text).toBe('Picked at random (spots): a3, c3.');
    expect(rows.slice(3, 7).map((r) => [r.when, r.rule, r.text])).toEqual([
      ['2.', 'Parry', 'White has answered (hidden until both have).'],
      ['2.', 'Parry', 'Answers: White rock, Black paper.'],
      ['2.', 'Parry', 'The capture exd5 was cancelled: the pieces stay where they were.'],
      ['2.', 'Parry', 'White’s turn passes to Black.'],
    ]);
  });
  it('numbers moves from 10 in full and marks Black’s with "…"', () => {
    const long = [...Array.from({ length: 23 }, (_, i) => ({ event: 'move', detail: { uci: 'a1a2', color: i % 2 ? 'black' : 'white' } })), { event: 'removed', detail: { square: 'e4' } }];
    expect(eventRows(long, names, () => undefined).map((r) => r.when)).toEqual(['12.']);
    expect(eventRows(long.slice(1), names, () => undefined, {}, true).map((r) => r.when)).toEqual(['12.']);
    expect(eventRows(long.slice(2), names, () => undefined).map((r) => r.when)).toEqual(['11.']);
    expect(eventRows([...long.slice(0, 22), long[23]], names, () => undefined).map((r) => r.when)).toEqual(['11…']);
  });
  it('names every active rule, as unsure, when the log does not say which wrote an entry', () => {
    expect(rows.slice(7).map((r) => [r.when, r.rule, r.sure, r.text])).toEqual([
      ['3.', 'Parry / Minefield', false, 'Picked at random (attack): scissors.'],
      ['3.', 'Parry / Minefield', false, 'Picked at random (defence): scissors.'],
      ['3.', 'Parry / Minefield', false, 'The piece on c3 was removed.'],
    ]);
  });
  it('names the only active rule after a move', () => {
    const one = [log[1], log[2], log[3], { event: 'removed', detail: { square: 'a3' } }];
    expect(eventRows(one, names, () => 'e4').map((r) => [r.when, r.rule, r.sure])).toEqual([
      ['start', null, true],
      ['start', 'Minefield', true],
      ['1.', 'Minefield', true],
    ]);
  });
});

describe('eventRows with the rule in each entry (issue 26 item 6, session 18)', () => {
  const mf = { kind: 'modifier' as const, id: 'minefield', name: 'Minefield' };
  const fz = { kind: 'modifier' as const, id: 'mr_freeze', name: 'Mr. Freeze' };
  const hp = { kind: 'preset' as const, id: 'piece-hp', name: 'Hit Points' };
  const parry = { kind: 'modifier' as const, id: 'parry', name: 'Parry' };
  // The session-14 trial's game: Mr. Freeze and Minefield in play, and the mines' draw was shown
  // as "Mr. Freeze: Picked at random (spots)" (the page guessed the rule from the order).
  const log = [
    { event: 'attach', detail: { chooser: 'white', id: 'mr_freeze', instance: 1 }, rule: fz },
    { event: 'attach', detail: { chooser: 'white', id: 'minefield', instance: 2 }, rule: mf },
    { event: 'random-pick', detail: { bind: 'spots', value: ['a3', 'c3'] }, rule: mf },
    { event: 'move', detail: { color: 'white', uci: 'b1c3' } },
    { event: 'entered-marker', detail: { square: 'c3', kind: 'mine', marker: 5, id: 2, type: 'knight', color: 'white', cause: 'move' }, rule: mf },
    { event: 'removed', detail: { square: 'c3', id: 2, type: 'knight', color: 'white' }, rule: mf },
    { event: 'move', detail: { color: 'black', uci: 'd7d5' } },
    { event: 'skip', detail: { color: 'black' } },
  ];
  const names = { minefield: 'Minefield', mr_freeze: 'Mr. Freeze' };
  const rows = eventRows(log, names, () => undefined);

  it('takes each entry’s rule, certain, and no rule for an entry without one', () => {
    expect(rows.map((r) => [r.when, r.rule, r.sure, r.text])).toEqual([
      ['start', null, true, 'Mr. Freeze is in play from the start (set when the game was created).'],
      ['start', null, true, 'Minefield is in play from the start (set when the game was created).'],
      ['start', 'Minefield', true, 'Picked at random (spots): a3, c3.'],
      ['1.', 'Minefield', true, 'A white knight landed on the mine on c3.'],
      ['1.', 'Minefield', true, 'The white knight on c3 was removed.'],
      ['1…', null, true, 'Black’s turn passes to White.'],
    ]);
  });
  it('names a preset by the name in its entry', () => {
    const hit = [
      { event: 'move', detail: { color: 'white', uci: 'e4d5' } },
      { event: 'hp', detail: { id: 20, square: 'd6', type: 'pawn', color: 'black', hp: 1, was: 2 }, rule: hp },
      { event: 'pushed', detail: { id: 20, from: 'd5', to: 'd6', type: 'pawn', color: 'black' }, rule: hp },
    ];
    // Trial 20: the push comes first (the hit point's entry names the square it was pushed to).
    expect(eventRows(hit, {}, () => 'exd5').map((r) => [r.rule, r.text])).toEqual([
      ['Hit Points', 'The black pawn was pushed from d5 to d6.'],
      ['Hit Points', 'The black pawn on d6 lost a hit point: 1 left.'],
    ]);
  });
  it('says that a parried capture stood, in SAN', () => {
    const stood = [
      { event: 'move', detail: { color: 'white', uci: 'e4d5' } },
      { event: 'choice', detail: { answers: { black: 'scissors', white: 'rock' }, choiceId: 'c5', player: 'black', value: 'scissors' }, rule: parry },
      { event: 'capture-stands', detail: { uci: 'e4d5' }, rule: parry },
    ];
    expect(eventRows(stood, { parry: 'Parry' }, () => 'exd5').map((r) => [r.rule, r.text])).toEqual([
      ['Parry', 'Answers: White rock, Black scissors.'],
      ['Parry', 'The capture exd5 stands.'],
    ]);
  });
});

describe('eventText for hit points, markers and removals', () => {
  const t = (event: string, detail: Record<string, unknown>) => eventText({ event, detail }, {});
  it('writes the new entries in words', () => {
    expect(t('hp', { square: 'e1', type: 'king', color: 'white', hp: 2, was: 1 })).toBe('The white king on e1 regained a hit point: 2 now.');
    expect(t('hp', { square: 'e4', type: 'queen', color: 'black', hp: 1, was: 3 })).toBe('The black queen on e4 lost 2 hit points: 1 left.');
    expect(t('pushed-off', { square: 'h8', type: 'rook', color: 'black', hp: 1 })).toBe('The black rook on h8 survived the hit, but no square beside it was empty: it is off the board.');
    expect(t('removed', { square: 'd4', type: 'pawn', color: 'white', hp: 0 })).toBe('The white pawn on d4 lost its last hit point and was removed.');
    expect(t('removed', { square: 'd4' })).toBe('The piece on d4 was removed.');
    expect(t('entered-marker', { square: 'd5', kind: 'treasure-chest', type: 'pawn', color: 'black', cause: 'effect' })).toBe('A black pawn was put onto the treasure chest on d5.');
    expect(t('marker-expired', { kind: 'frozen-square', square: 'a4' })).toBe('The frozen square on a4 expired.');
  });
  // Regressions (trial 18): a mine's kill Parry saved read "The capture on h5 was prevented"; the
  // mine then vanished unlogged; spawn-marker wrote nothing.
  it('names the piece a cancelled kill saved, and markers placed and removed', () => {
    expect(t('kill-cancelled', { square: 'h5', type: 'knight', color: 'black', id: 7 })).toBe('The black knight on h5 was saved: the kill was cancelled.');
    expect(t('marker-removed', { kind: 'mine', square: 'h5', marker: 40, used: true })).toBe('The mine on h5 is used up.');
    expect(t('marker-removed', { kind: 'mine', square: 'h5', marker: 40 })).toBe('The mine on h5 is gone.');
    expect(t('marker-placed', { kind: 'frozen-square', square: 'a4', marker: 41 })).toBe('A frozen square was placed on a4.');
  });
});

// Trial 20: a rule set in the lobby (or carried into a rematch) read "chosen by White"; a rule a
// player drafted, or one attached after a move, keeps its chooser.
describe('rules set at creation', () => {
  it('says a rule in play before any move or pick was set when the game was created', () => {
    const rows = eventRows(
      [
        { event: 'attach', detail: { chooser: 'white', id: 'parry', instance: 1 } },
        { event: 'draft', detail: { player: 'black', card: 'minefield' } },
        { event: 'attach', detail: { chooser: 'black', id: 'minefield', instance: 2 } },
        { event: 'move', detail: { color: 'white', uci: 'e2e4' } },
        { event: 'attach', detail: { chooser: 'white', id: 'mr_freeze', instance: 3 } },
      ],
      { parry: 'Parry', minefield: 'Minefield', mr_freeze: 'Mr. Freeze' },
      () => undefined,
    );
    const attaches = rows.filter((r) => /in play/.test(r.text)).map((r) => r.text);
    expect(attaches).toEqual([
      'Parry is in play from the start (set when the game was created).',
      'Minefield is now in play (chosen by Black).',
      'Mr. Freeze is now in play (chosen by White).',
    ]);
  });
});

// Trial 20: "Waiting for both players" stayed after one had answered (spectators, the phone line).
describe('stillWaitingFor', () => {
  it('names the player who has not answered a choice for both', () => {
    const p = (collected: Record<string, unknown> | null) => ({ forPlayer: 'both', prompt: { forPlayer: 'both' }, collected });
    expect(stillWaitingFor(p(null))).toBe('both');
    expect(stillWaitingFor(p({}))).toBe('both');
    expect(stillWaitingFor(p({ white: 'hidden' }))).toBe('black');
    expect(stillWaitingFor(p({ black: 'hidden', white: null }))).toBe('white');
    expect(stillWaitingFor({ forPlayer: 'white', collected: null })).toBe('white');
    expect(waitingText(stillWaitingFor(p({ white: 'hidden' })), 'rps', 'Parry')).toBe('Waiting for Black to choose rock, paper or scissors (Parry)…');
  });
});

// Trial 20: an atomic explosion wrote no log entry (the server's `exploded`).
describe('explosions', () => {
  it('names the pieces an atomic capture blew up', () => {
    const e = { event: 'exploded', detail: { square: 'f7', removed: [{ id: 4, square: 'f7', type: 'queen', color: 'white' }, { id: 9, square: 'e8', type: 'king', color: 'black' }] }, rule: { kind: 'preset' as const, id: 'atomic', name: 'Atomic' } };
    expect(eventText(e, {})).toBe('The capture on f7 exploded: the white queen on f7, the black king on e8 are gone.');
    const rows = eventRows([{ event: 'move', detail: { color: 'white', uci: 'f3f7' } }, e], {}, () => 'Qxf7#');
    expect(rows.map((r) => [r.when, r.rule, r.text])).toEqual([['1.', 'Atomic', 'The capture on f7 exploded: the white queen on f7, the black king on e8 are gone.']]);
  });
});

// Trial 20 item 5: All on Red's coin at the start of Black's second turn read "2. All on Red: Coin
// flip: tails" (labelled with White's move, no side). The rule flips for the side to move at the
// start of each turn (crates/modifiers/library/all_on_red.json, `on-turn-start`, `forPlayer: turn`).
// Item 7: Mr. Freeze's eight "A frozen square was placed on …" lines at once.
describe('eventRows: the coming turn’s coin, grouped markers', () => {
  const red = { kind: 'modifier' as const, id: 'all_on_red', name: 'All on Red' };
  const fz = { kind: 'modifier' as const, id: 'mr_freeze', name: 'Mr. Freeze' };
  const names = { all_on_red: 'All on Red', mr_freeze: 'Mr. Freeze' };
  it('labels a coin after a move with the coming turn and names its side', () => {
    const log = [
      { event: 'move', detail: { color: 'white', uci: 'e2e4' } },
      { event: 'coin', detail: { bind: 'coin', value: 'heads' }, rule: red },
      { event: 'move', detail: { color: 'black', uci: 'e7e5' } },
      { event: 'coin', detail: { bind: 'coin', value: 'heads' }, rule: red },
      { event: 'move', detail: { color: 'white', uci: 'g1f3' } },
      { event: 'coin', detail: { bind: 'coin', value: 'tails' }, rule: red },
    ];
    expect(eventRows(log, names, () => undefined).map((r) => [r.when, r.rule, r.text])).toEqual([
      ['1…', 'All on Red', 'Black’s coin flip: heads.'],
      ['2.', 'All on Red', 'White’s coin flip: heads.'],
      ['2…', 'All on Red', 'Black’s coin flip: tails.'],
    ]);
  });
  it('after a turn passed (tails, king stuck), the coin is the next side’s', () => {
    const log = [
      { event: 'move', detail: { color: 'white', uci: 'e2e4' } },
      { event: 'coin', detail: { bind: 'coin', value: 'tails' }, rule: red },
      { event: 'skip', detail: { color: 'black' }, rule: red },
      { event: 'coin', detail: { bind: 'coin', value: 'heads' }, rule: red },
    ];
    expect(eventRows(log, names, () => undefined).map((r) => [r.when, r.text])).toEqual([
      ['1…', 'Black’s coin flip: tails.'],
      ['1…', 'Black’s turn passes to White.'],
      ['2.', 'White’s coin flip: heads.'],
    ]);
  });
  it('leaves a coin of a rule that came into play in that block as it was', () => {
    const log = [
      { event: 'move', detail: { color: 'white', uci: 'e2e4' } },
      { event: 'attach', detail: { id: 'all_on_red', chooser: 'white' }, rule: red },
      { event: 'coin', detail: { bind: 'coin', value: 'tails' }, rule: red },
    ];
    expect(eventRows(log, names, () => undefined).map((r) => [r.when, r.text]).at(-1)).toEqual(['1.', 'Coin flip: tails.']);
  });
  it('writes the markers one rule placed at once as one line', () => {
    const log = [
      { event: 'move', detail: { color: 'white', uci: 'e2e4' } },
      ...['c1', 'c2', 'c3'].map((square) => ({ event: 'marker-placed', detail: { kind: 'frozen-square', square }, rule: fz })),
      { event: 'move', detail: { color: 'black', uci: 'e7e5' } },
      { event: 'marker-placed', detail: { kind: 'frozen-square', square: 'd4' }, rule: fz },
    ];
    expect(eventRows(log, names, () => undefined).map((r) => [r.when, r.rule, r.text])).toEqual([
      ['1.', 'Mr. Freeze', 'Frozen squares were placed on c1, c2, c3.'],
      ['1…', 'Mr. Freeze', 'A frozen square was placed on d4.'],
    ]);
  });
});
