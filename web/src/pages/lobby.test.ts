/// <reference types="node" />
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { refusalText, type RuleEntry } from '../protocol';
import { chess960Layout, conflicts, formValues, gameChoices, inFile, isDiagnostic, modifierEntry, NOT_PLAYABLE_HERE, modifierKey, seedOf, timeoutOf } from './Lobby';

describe('rule conflicts in the lobby', () => {
  const rules = [
    { id: 'piece-hp', name: 'Hit points', incompatible: ['atomic'] },
    { id: 'atomic', name: 'Atomic' },
    { id: 'double-move', name: 'Double move', requires: ['piece-hp'] },
  ];
  it('explains incompatible pairs listed on either side, and missing requirements', () => {
    expect(conflicts(['atomic', 'piece-hp'], rules)).toEqual(['“Atomic” cannot be combined with “Hit points”.']);
    expect(conflicts(['double-move'], rules)).toEqual(['“Double move” needs “Hit points” too.']);
    expect(conflicts(['double-move', 'piece-hp'], rules)).toEqual([]);
  });
});

describe('saved modifiers in the lobby', () => {
  // GET /api/rules lists the built-in library, then the saved ones (docs/protocol.md); a template
  // saved unchanged keeps its built-in id.
  const entries = [
    { id: 'simple-mine', name: 'Simple Mine' },
    { id: 'simple-mine', name: 'Simple Mine', saved: true, descriptor: { id: 'simple-mine', parameters: [{ name: 'square', default: 'c6' }] } },
  ];
  it('keys a saved modifier apart from a built-in one of the same id', () => {
    expect(entries.map(modifierKey)).toEqual(['simple-mine', 'saved:simple-mine']);
  });
  it('sends a built-in id as is and a saved modifier inline', () => {
    expect(modifierEntry('simple-mine', entries)).toBe('simple-mine');
    expect(modifierEntry('saved:simple-mine', entries)).toEqual(entries[1].descriptor);
  });
});

describe('the Game select', () => {
  // The shipped definitions (crates/definitions/games/*.yaml) are the source of the fallback list:
  // every shipped game but standard chess is offered, under its own id and name.
  const dir = join(dirname(fileURLToPath(import.meta.url)), '../../../crates/definitions/games');
  const shipped = readdirSync(dir)
    .filter((f) => f.endsWith('.yaml'))
    .map((f) => {
      const text = readFileSync(join(dir, f), 'utf8');
      return { id: /^id: (.+)$/m.exec(text)?.[1].trim(), name: /^name: (.+)$/m.exec(text)?.[1].trim() };
    })
    // lichess's games built on FIDE chess (crates/presets/src/lichess.rs; the YAML ones are above),
    // named by their PGN `Variant` tag as the server names them.
    .concat(
      [...readFileSync(join(dir, '../../presets/src/lichess.rs'), 'utf8').matchAll(/id: "([^"]+)",[^}]*?pgn: "([^"]+)",\s*source: Source::(\w+)/g)]
        .filter((m) => m[3] !== 'Yaml')
        .map((m) => ({ id: m[1], name: m[2] })),
    )
    .filter((g) => g.id !== 'chess' && !NOT_PLAYABLE_HERE.has(String(g.id)));
  it('offers the shipped games when GET /api/rules lists none (houserules serve)', () => {
    const offered = gameChoices({ games: [], layouts: [], presets: [], modifiers: [] }).map((g) => ({ id: g.id, name: g.name }));
    expect(offered.sort((a, b) => String(a.id).localeCompare(String(b.id)))).toEqual(shipped.sort((a, b) => String(a.id).localeCompare(String(b.id))));
    expect(offered.some((g) => g.id === 'grand')).toBe(true);
    expect(offered.some((g) => g.id === 'horde' && g.name === 'Horde')).toBe(true);
  });
  it("offers the server's list when it sends one, without a second standard chess", () => {
    const games = [{ id: 'chess', name: 'Chess' }, { id: 'grand', name: 'Grand chess' }];
    expect(gameChoices({ games, layouts: [], presets: [], modifiers: [] }).map((g) => g.id)).toEqual(['grand']);
  });
  it('offers crazyhouse: the game page has pockets and drops (issue 26)', () => {
    const games = [{ id: 'crazyhouse', name: 'Crazyhouse' }, { id: 'grand', name: 'Grand chess' }];
    expect(gameChoices({ games, layouts: [], presets: [], modifiers: [] }).map((g) => g.id)).toEqual(['crazyhouse', 'grand']);
  });
});

// Regression (session-6 web trial): the conflict text dropped the server's reason.
describe('conflict reasons', () => {
  it("gives the server's reason for an incompatible pair (GET /api/rules incompatibleReasons)", () => {
    // crates/presets registry: pawns-move-backward × double-pawn-sprint, from the spec
    const why = 'a two-square move would be ambiguous with an unrestricted backward step (spec)';
    const rules: RuleEntry[] = [
      { id: 'pawns-move-backward', name: 'Pawns move backward', incompatible: ['double-pawn-sprint'], incompatibleReasons: { 'double-pawn-sprint': why } },
      { id: 'double-pawn-sprint', name: 'Double pawn sprint', incompatible: ['pawns-move-backward'], incompatibleReasons: { 'pawns-move-backward': why } },
    ];
    expect(conflicts(['double-pawn-sprint', 'pawns-move-backward'], rules)).toEqual([`“Double pawn sprint” cannot be combined with “Pawns move backward”: ${why}.`]);
  });
});

// Regression (session-6 web trial): `chess960` was refused without an index and the lobby could
// not give one. The server's layout syntax is `chess960:N`, N from 0 to 959 (presets crate).
describe('the Chess960 position', () => {
  it('takes an index from 0 to 959', () => {
    expect(chess960Layout('518')).toEqual({ layout: 'chess960:518', index: 518 });
    expect(chess960Layout(' 0 ')).toEqual({ layout: 'chess960:0', index: 0 });
    expect(chess960Layout('959')).toEqual({ layout: 'chess960:959', index: 959 });
  });
  it('draws a uniform index for "random" (floor(r × 960) for r in [0, 1))', () => {
    expect(chess960Layout('random', () => 0)).toEqual({ layout: 'chess960:0', index: 0 });
    expect(chess960Layout('Random', () => 0.5)).toEqual({ layout: 'chess960:480', index: 480 });
    expect(chess960Layout('random', () => 0.999999)).toEqual({ layout: 'chess960:959', index: 959 });
  });
  it('refuses what is not an index', () => {
    for (const bad of ['960', '-1', '5.5', 'x', '1e2']) expect(chess960Layout(bad)).toBeInstanceOf(Error);
  });
});

// Regression (session-6 web trial): lobby errors showed the raw HTTP answer.
describe('refusal texts', () => {
  it("shows the findings' paths and messages, not the raw answer", () => {
    const body = { findings: [{ code: 'request.invalid', path: '$.layout', message: 'layout `chess960`: give an index' }, { code: 'x', path: '$', message: 'whole request' }] };
    expect(refusalText(400, body, JSON.stringify(body))).toBe('$.layout: layout `chess960`: give an index\nwhole request');
  });
  it('shows an error message, or the status and a short non-JSON body', () => {
    expect(refusalText(404, { code: 'game.not-found', message: 'no game x' }, '')).toBe('no game x');
    expect(refusalText(502, undefined, 'Bad Gateway', 'Bad Gateway')).toBe('the server answered 502 Bad Gateway: Bad Gateway');
  });
});

// Regression (session-7 web trial): an empty seed field sent no seed, so the server's default 0 gave
// every random rule the same outcome in every game.
describe('seedOf', () => {
  it('draws a random u32 when the field is empty', () => {
    expect(seedOf('', () => 123456789)).toBe(123456789);
    expect(seedOf('  ', () => 4294967295)).toBe(4294967295);
  });
  it('takes a typed seed and refuses what is not a u32', () => {
    expect(seedOf('0', () => 5)).toBe(0);
    expect(seedOf(' 42 ', () => 5)).toBe(42);
    expect(seedOf('4294967296', () => 5)).toBeInstanceOf(Error);
    expect(seedOf('-1', () => 5)).toBeInstanceOf(Error);
    expect(seedOf('1.5', () => 5)).toBeInstanceOf(Error);
  });
  it('gives different seeds to two games from the real random source', () => {
    // two uniform u32 draws agree with probability 2^-32
    expect(seedOf('')).not.toBe(seedOf(''));
  });
});

describe('the form checks its own fields', () => {
  // Regression (session-14 trial): the browser refused seed −5, 1.5, 20 digits and a choice
  // timeout of 0 by itself, so the page said nothing and kept the previous game's panel. The
  // form now checks them (noValidate) and says which field is wrong.
  const f = (seed: string, timeoutSeconds = '60', timeoutMode = 'timeout-with-default') => formValues({ seed, timeoutMode, timeoutSeconds }, () => 42);
  it('refuses the seeds the trial typed, naming the field and the value', () => {
    for (const bad of ['-5', '1.5', '12345678901234567890', '4294967296', '1e3', 'abc']) {
      const r = f(bad);
      expect(r).toBeInstanceOf(Error);
      expect((r as Error).message).toMatch(/^the seed is a whole number from 0 to 4294967295, not “/);
    }
    expect(((f('12345678901234567890') as Error).message)).toContain('“12345678901234567890”');
  });
  it('refuses a choice timeout outside 1–3600 whole seconds, unless there is none', () => {
    for (const bad of ['0', '1.5', '', '3601', '-1']) expect(timeoutOf(bad)).toBeInstanceOf(Error);
    expect((timeoutOf('0') as Error).message).toBe('the choice timeout is a whole number of seconds from 1 to 3600, not “0”');
    expect(timeoutOf('1')).toBe(1);
    expect(timeoutOf(' 3600 ')).toBe(3600);
    expect(f('7', '0')).toBeInstanceOf(Error);
    expect(f('7', '0', 'no-timeout')).toEqual({ seed: 7, timeoutSeconds: null });
  });
  it('passes good values, an empty seed as a random one', () => {
    expect(f('0', '45')).toEqual({ seed: 0, timeoutSeconds: 45 });
    expect(f('4294967295')).toEqual({ seed: 4294967295, timeoutSeconds: 60 });
    expect(f('')).toEqual({ seed: 42, timeoutSeconds: 60 });
  });
});

// Trial 20: a bad YAML file's diagnostic (the CLI's lines, with the line, the column and a caret)
// was squashed onto one line in the lobby: a multi-line message is shown preformatted.
describe('isDiagnostic', () => {
  it('tells a multi-line diagnostic from a one-line message', () => {
    const yaml = 'error: unknown field `widht`\n  --> game.yaml:3:1\n   |\n 3 | widht: 8\n   | ^^^^^ did you mean `width`?\n';
    expect(isDiagnostic(yaml)).toBe(true);
    expect(isDiagnostic('unknown preset `x`')).toBe(false);
    expect(isDiagnostic('one line\n')).toBe(false);
  });
});

describe('inFile', () => {
  it('names the uploaded file where the diagnostic named the request field', () => {
    expect(inFile('the YAML game definition has problems:\n$.game:6:3: error[houserules::unknown-key]: unknown key `widht`', 'bad.yaml')).toBe(
      'the YAML game definition has problems:\nbad.yaml:6:3: error[houserules::unknown-key]: unknown key `widht`',
    );
    expect(inFile('$.game: `x` is not a shipped game id', 'a.yaml')).toBe('$.game: `x` is not a shipped game id');
  });
});
