import { describe, expect, it } from 'vitest';
import { fieldPaths, getAt, newNode, ownerOf, PALETTE, parseDescriptorText, parsePath, rendererFor, setAt, TEMPLATES } from './model';

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
