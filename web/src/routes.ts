/**
 * Which page a path (without the game routes, `parseGameLocation`'s) shows: `/` the lobby,
 * `/editor…` the modifier editor, `/yaml…` the game editor, anything else a not-found page
 * (session-14 trial: `/nosuchpage/abc` and `/games/` silently showed the lobby).
 */
export type PageKind = 'lobby' | 'editor' | 'yaml' | 'not-found';

export function pageKind(path: string): PageKind {
  if (path === '/' || path === '' || path === '/index.html') return 'lobby';
  if (path === '/editor' || path.startsWith('/editor/')) return 'editor';
  if (path === '/yaml' || path.startsWith('/yaml/')) return 'yaml';
  return 'not-found';
}
