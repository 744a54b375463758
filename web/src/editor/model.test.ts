import { describe, expect, it } from 'vitest';
import { effectContext, fieldPaths, getAt, libraryIdClash, newNode, notAllowedHere, ownerOf, PALETTE, parseDescriptorText, parsePath, rendererFor, setAt, TEMPLATES, templateCopy, type Descriptor } from './model';

describe('templates and palette', () => {
  it('are the spec’s six templates and six categories', () => {
    expect(TEMPLATES.map((t) => t.id)).toEqual(['simple-mine', 'vampire-on-capture', 'frozen-column', 'coin-flip-restriction', 'religious-bishop', 'no-mans-land']);
    expect(Object.keys(PALETTE).sort()).toEqual(['Imperative', 'Iteration', 'Mechanic', 'Restriction', 'State', 'Trigger']);
  });
  it('gives triggers an effects list', () => {
    expect(newNode('Trigger', 'on-capture')).toEqual({ kind: 'on-capture', effects: [] });
  });
});

describe('paths', () => {
  const d = TEMPLATES[0]; // simple-mine: on-rule-activated spawns a mine at $param.square
  it('reads and writes by JSON path', () => {
    expect(parsePath('$.triggers[0].effects[0].params.at')).toEqual(['triggers', 0, 'effects', 0, 'params', 'at']);
    expect(getAt(d, '$.triggers[0].effects[0].params.at')).toBe('$param.square');
    const e = setAt(d, '$.triggers[0].effects[0].params.at', 'z9');
    expect(getAt(e, '$.triggers[0].effects[0].params.at')).toBe('z9');
    expect(getAt(d, '$.triggers[0].effects[0].params.at')).toBe('$param.square'); // the original is untouched
    const f = setAt(d, '$.triggers[1]', undefined);
    expect((f.triggers ?? []).length).toBe(1);
  });
  it('puts a finding beside the deepest rendered field', () => {
    const rendered = fieldPaths(d);
    expect(ownerOf('$.triggers[0].effects[0].params.at', rendered)).toBe('$.triggers[0].effects[0].params.at');
    // a finding inside a lifetime object belongs to the lifetime field
    expect(ownerOf('$.triggers[0].effects[0].params.lifetime.kind', rendered)).toBe('$.triggers[0].effects[0].params.lifetime');
    // `[1` must not match `[10`
    expect(ownerOf('$.triggers[10]', ['$', '$.triggers[1]'])).toBe('$');
  });
  it('picks the spec’s renderers', () => {
    expect(rendererFor('spawn-marker', 'at', 'e4')).toBe('square');
    expect(rendererFor('spawn-marker', 'at', '$bind.sq')).toBe('square'); // the picker has a text box for references
    expect(rendererFor('spawn-marker', 'at', { squares: ['e4'] })).toBe('json');
    expect(rendererFor('spawn-marker', 'kind', 'mine')).toBe('marker-kind');
    expect(rendererFor('spawn-marker', 'lifetime', { kind: 'permanent' })).toBe('lifetime');
    expect(rendererFor('spawn-piece', 'type', 'queen')).toBe('piece');
  });
});

// Regression (session-6 web trial): the JSON view's validator said "valid" for malformed JSON, and
// Save/Try it used the last visual descriptor instead of the text.
describe('parseDescriptorText', () => {
  it('places a syntax error at its line and column', () => {
    // `"name" "x"` lacks its colon: the parser stops at the string after "name", line 3 column 10.
    const r = parseDescriptorText('{\n  "id": "a",\n  "name" "x"\n}');
    expect('error' in r && [r.line, r.column]).toEqual([3, 10]);
    expect('error' in r && r.error).toMatch(/^JSON syntax error at line 3, column 10: /);
  });
  it('places an unfinished text at its end', () => {
    const r = parseDescriptorText('{\n  "id": ');
    expect('error' in r && [r.line, r.column]).toEqual([2, 9]);
  });
  it('refuses a value that is not an object, and reads an object', () => {
    expect('error' in parseDescriptorText('[1]')).toBe(true);
    expect(parseDescriptorText('{"id": "x"}')).toEqual({ descriptor: { id: 'x' } });
  });
});

describe('a template opens as a copy of its own', () => {
  // Regression (session-14 trial): the template kept the library's id; the validator said valid
  // and Save was refused (POST /api/modifiers: `modifier.id-taken` for a library id).
  it('gets ID-custom and "(custom)" after its name, once', () => {
    const t = TEMPLATES[0];
    const c = templateCopy(t);
    expect(c.id).toBe('simple-mine-custom');
    expect(c.name).toBe('Simple Mine (custom)');
    expect(t.id).toBe('simple-mine'); // the template itself is untouched
    expect(templateCopy(c)).toEqual(c);
    expect({ ...c, id: t.id, name: t.name }).toEqual(t); // nothing else changes
  });
  it('says when an id is a library modifier’s', () => {
    expect(libraryIdClash('simple-mine', ['parry', 'simple-mine'])).toMatch(/^“simple-mine” is the id of a library modifier: Save would be refused\. .*“simple-mine-custom”/);
    expect(libraryIdClash('simple-mine-custom', ['parry', 'simple-mine'])).toBeNull();
  });
});

describe('the palette follows the trigger rules', () => {
  // docs/modifiers.md § Primitives and validate.rs: cancel-capture only in on-capture-attempt,
  // cancel-kill only in on-kill-attempt, skip-turn only in on-turn-start and on-rule-activated;
  // no choice in on-kill-attempt, inside with-probability/random-pick, or inside for-each.
  const d: Descriptor = {
    version: 1,
    id: 'x',
    name: 'x',
    triggers: [
      { kind: 'on-capture-attempt', effects: [{ kind: 'with-probability', params: { p: 0.5, then: [], else: [] } }] },
      { kind: 'on-move', effects: [{ kind: 'for-each', params: { over: { pieces: {} }, bind: 'it', do: [{ kind: 'conditional', params: { if: true, then: [] } }] } }] },
      { kind: 'on-kill-attempt', effects: [] },
      { kind: 'on-turn-start', effects: [{ kind: 'request-choice', params: { kind: 'piece', forPlayer: 'turn', bind: 'c', then: [] } }] },
    ],
  };
  const why = (target: string, kind: string) => notAllowedHere('Imperative', kind, effectContext(d, target));
  it('reads the trigger and the containers of the list added to', () => {
    expect(effectContext(d, '$.triggers[0].effects')).toEqual({ trigger: 'on-capture-attempt', inDraw: false, inIteration: false });
    expect(effectContext(d, '$.triggers[0].effects[0].params.else')).toEqual({ trigger: 'on-capture-attempt', inDraw: true, inIteration: false });
    expect(effectContext(d, '$.triggers[1].effects[0].params.do[0].params.then')).toEqual({ trigger: 'on-move', inDraw: false, inIteration: true });
    expect(effectContext(d, '$.passive')).toEqual({ trigger: null, inDraw: false, inIteration: false });
  });
  it('greys out what the trigger forbids, with the reason', () => {
    expect(why('$.triggers[0].effects', 'cancel-capture')).toBeNull();
    expect(why('$.triggers[1].effects', 'cancel-capture')).toBe('cancel-capture is allowed only in on-capture-attempt, not in on-move');
    expect(why('$.triggers[2].effects', 'cancel-kill')).toBeNull();
    expect(why('$.triggers[0].effects', 'cancel-kill')).toMatch(/only in on-kill-attempt/);
    expect(why('$.triggers[3].effects', 'skip-turn')).toBeNull();
    expect(why('$.triggers[1].effects', 'skip-turn')).toBe('skip-turn is allowed only in on-turn-start or on-rule-activated, not in on-move');
    expect(why('$.triggers[2].effects', 'request-choice')).toBe('request-choice is not allowed in on-kill-attempt');
    expect(why('$.triggers[0].effects[0].params.then', 'flip-coin')).toMatch(/inside with-probability or random-pick/);
    expect(why('$.triggers[1].effects[0].params.do[0].params.then', 'request-choice')).toBe('request-choice is not allowed inside for-each');
    // a choice inside a choice's body is fine (up to the depth limit)
    expect(why('$.triggers[3].effects[0].params.then', 'request-choice')).toBeNull();
    expect(why('$.triggers[1].effects', 'kill')).toBeNull();
    // triggers and passive primitives are not restricted by the target
    expect(notAllowedHere('Trigger', 'on-move', effectContext(d, '$.triggers[2].effects'))).toBeNull();
    expect(notAllowedHere('Restriction', 'forbid-move', effectContext(d, '$.triggers[2].effects'))).toBeNull();
  });
  it('offers every primitive kind the descriptor format has, move-piece included', () => {
    expect(PALETTE.Imperative).toContain('move-piece');
    expect(newNode('Imperative', 'move-piece')).toEqual({ kind: 'move-piece', params: { piece: '$event.piece', to: 'e4' } });
  });
});
