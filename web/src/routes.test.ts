import { describe, expect, it } from 'vitest';
import { pageKind } from './routes';

// Session-14 trial: unknown paths showed the lobby as if nothing were wrong.
describe('pageKind', () => {
  it('finds the app’s pages', () => {
    expect(['/', '/editor', '/yaml', '/editor/'].map(pageKind)).toEqual(['lobby', 'editor', 'yaml', 'editor']);
  });
  it('names anything else not found', () => {
    expect(['/nosuchpage/abc', '/games/', '/editors', '/lobby'].map(pageKind)).toEqual([
      'not-found',
      'not-found',
      'not-found',
      'not-found',
    ]);
  });
});
