import { describe, expect, it } from 'vitest';
import { ApiError } from '../protocol';
import { keepOwnerToken, notOwnerMessage, OWNER_TOKENS_KEY, ownerToken, saveOwned } from './ownerTokens';

/** A Storage stand-in (vitest runs in node: no localStorage). */
function memory(init: Record<string, string> = {}) {
  const m = new Map(Object.entries(init));
  return { getItem: (k: string) => m.get(k) ?? null, setItem: (k: string, v: string) => void m.set(k, v), m };
}

/**
 * A server's POST /api/modifiers as the server answers it (crates/server/src/http.rs): the first
 * save of an id is 201 with a token, a save with the owner's token 200, anything else on a saved
 * id 403 modifier.not-owner. `sent` records the token each call carried.
 */
function server() {
  const owners = new Map<string, string>();
  const sent: (string | undefined)[] = [];
  let n = 0;
  const save = async (d: unknown, token?: string) => {
    sent.push(token);
    const id = (d as { id: string }).id;
    const owner = owners.get(id);
    if (owner === undefined) {
      const t = `token-${++n}`;
      owners.set(id, t);
      return { id, ownerToken: t };
    }
    if (token === owner) return { id };
    throw new ApiError(403, `\`${id}\` is saved already …`);
  };
  return { save, sent, owners };
}

describe('saved modifiers are owned (session-14 trial: anyone could overwrite a rule)', () => {
  it('keeps the token of a first save and sends it with the next save of that id', async () => {
    const s = memory();
    const srv = server();
    expect(await saveOwned({ id: 'my_mine' }, srv.save, s)).toEqual({ saved: true, created: true });
    expect(ownerToken('my_mine', s)).toBe('token-1');
    expect(await saveOwned({ id: 'my_mine' }, srv.save, s)).toEqual({ saved: true, created: false });
    expect(srv.sent).toEqual([undefined, 'token-1']);
    // The token stays (a save again answers none).
    expect(ownerToken('my_mine', s)).toBe('token-1');
  });

  it('keeps one token per rule id', async () => {
    const s = memory();
    const srv = server();
    await saveOwned({ id: 'a' }, srv.save, s);
    await saveOwned({ id: 'b' }, srv.save, s);
    expect([ownerToken('a', s), ownerToken('b', s)]).toEqual(['token-1', 'token-2']);
    expect(JSON.parse(s.m.get(OWNER_TOKENS_KEY) ?? '')).toEqual({ a: 'token-1', b: 'token-2' });
  });

  it('says clearly that the id is someone else\'s on a 403, and keeps no token', async () => {
    const srv = server();
    await saveOwned({ id: 'taken' }, srv.save, memory()); // another browser saved it first
    const s = memory();
    const r = await saveOwned({ id: 'taken' }, srv.save, s);
    expect(r).toEqual({ saved: false, message: notOwnerMessage('taken') });
    expect(notOwnerMessage('taken')).toContain('another id');
    expect(ownerToken('taken', s)).toBeUndefined();
  });

  it('throws the other refusals as before (findings, rate limit)', async () => {
    const refuse = async () => {
      throw new ApiError(429, 'this address saved 10 modifiers in the last minute');
    };
    await expect(saveOwned({ id: 'x' }, refuse, memory())).rejects.toThrow('10 modifiers');
  });

  it('survives a storage that is broken, full or holds something else', async () => {
    expect(ownerToken('x', memory({ [OWNER_TOKENS_KEY]: 'not json' }))).toBeUndefined();
    expect(ownerToken('x', memory({ [OWNER_TOKENS_KEY]: '["x"]' }))).toBeUndefined();
    expect(ownerToken('x', memory({ [OWNER_TOKENS_KEY]: '{"x": 5}' }))).toBeUndefined();
    expect(ownerToken('x', undefined)).toBeUndefined();
    const full = { getItem: () => null, setItem: () => { throw new Error('QuotaExceededError'); } };
    expect(() => keepOwnerToken('x', 't', full)).not.toThrow();
    expect(await saveOwned({ id: 'x' }, server().save, full)).toEqual({ saved: true, created: true });
  });
});
