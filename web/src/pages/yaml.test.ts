import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SAMPLE } from './YamlEditor';

// Regression (session-6 web trial): the YAML editor's starting sample used `files`/`ranks` keys,
// which the game format (docs/game-format.md: `board: {width, height}`) does not have. The sample
// is now Gardner as shipped, which the real server's preview check (e2e.mjs `yaml editor`) loads.
describe('the YAML editor sample', () => {
  it('is the shipped Gardner definition, with width and height', () => {
    const gardner = readFileSync(new URL('../../../crates/definitions/games/gardner.yaml', import.meta.url), 'utf8');
    expect(SAMPLE.endsWith(gardner)).toBe(true);
    expect(SAMPLE).not.toMatch(/\b(files|ranks):/);
    expect(SAMPLE).toMatch(/width: 5/);
  });
});
