/// <reference types="node" />
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { conflicts, gameChoices, modifierEntry, modifierKey } from './Lobby';

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
    .filter((g) => g.id !== 'chess');
  it('offers the shipped games when GET /api/rules lists none (houserules serve)', () => {
    const offered = gameChoices({ games: [], layouts: [], presets: [], modifiers: [] }).map((g) => ({ id: g.id, name: g.name }));
    expect(offered.sort((a, b) => String(a.id).localeCompare(String(b.id)))).toEqual(shipped.sort((a, b) => String(a.id).localeCompare(String(b.id))));
    expect(offered.some((g) => g.id === 'grand')).toBe(true);
  });
  it("offers the server's list when it sends one, without a second standard chess", () => {
    const games = [{ id: 'chess', name: 'Chess' }, { id: 'grand', name: 'Grand chess' }];
    expect(gameChoices({ games, layouts: [], presets: [], modifiers: [] }).map((g) => g.id)).toEqual(['grand']);
  });
});
