/**
 * The player's name in this browser (the lobby remembers it) and the check of a name given after
 * creation, as the server makes it (docs/protocol.md § Player names).
 */

const NAME_KEY = 'houserules.playerName';

/** The name this browser last played under (localStorage), or ''. */
export function loadName(): string {
  try {
    return localStorage.getItem(NAME_KEY) ?? '';
  } catch {
    return '';
  }
}

/** Remembers the player's name in this browser (storage off or full: not remembered). */
export function saveName(name: string): void {
  try {
    localStorage.setItem(NAME_KEY, name.slice(0, 100));
  } catch {
    /* not remembered */
  }
}

/**
 * Why `name` cannot name a seat, as the server would refuse it (`request.bad-name`), or null: empty,
 * over 100 characters, a control or bidi character, or `engine:…` (the computer's seat).
 */
export function nameProblem(name: string): string | null {
  const n = name.trim();
  if (!n) return 'Type a name first.';
  if ([...n].length > 100) return 'A name has at most 100 characters.';
  // eslint-disable-next-line no-control-regex
  const bad = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/.exec(n);
  if (bad) return `A name has no control characters (U+${bad[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}).`;
  if (n.startsWith('engine:')) return 'A name cannot start with “engine:” (that names the computer).';
  return null;
}

