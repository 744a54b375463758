import { describe, expect, it } from 'vitest';
import { nameProblem } from './names';

// Issue 26 (trial 20 item 8): a seat named after creation is checked as the server checks it
// (`request.bad-name`, crates/server/src/http.rs `seat_name`), before it is sent.
describe('nameProblem', () => {
  it('takes a plain name, trimmed, up to 100 characters', () => {
    expect(nameProblem('  Ann  ')).toBeNull();
    expect(nameProblem('x'.repeat(100))).toBeNull();
    expect(nameProblem('é'.repeat(100))).toBeNull();
  });
  it('refuses an empty name, a long one, control and bidi characters and engine:N', () => {
    expect(nameProblem('   ')).toMatch(/Type a name/);
    expect(nameProblem('x'.repeat(101))).toMatch(/100 characters/);
    expect(nameProblem('a\u0007b')).toMatch(/U\+0007/);
    expect(nameProblem('evil\u202Eeman')).toMatch(/U\+202E/);
    expect(nameProblem('engine:5')).toMatch(/computer/);
  });
});
