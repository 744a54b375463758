import { describe, expect, it } from 'vitest';
import { knownRuleIds, MAX_ASKED, rememberSharedRule, ruleFromUrl, sharedRules, shareUrl, SHARED_RULES_KEY } from './knownRules';
import { OWNER_TOKENS_KEY } from './ownerTokens';

function store(init: Record<string, string> = {}) {
  const m = new Map(Object.entries(init));
  return { getItem: (k: string) => m.get(k) ?? null, setItem: (k: string, v: string) => void m.set(k, v), m };
}

describe('the saved rules a browser asks for (session 18: every saved rule was in every lobby)', () => {
  it('asks for its own (owner tokens, the editor’s list), then the shared ones, each once', () => {
    const s = store({
      [OWNER_TOKENS_KEY]: JSON.stringify({ my_mine: 't1', my_pit: 't2' }),
      'houserules.customModifiers': JSON.stringify([{ id: 'my_pit', name: 'Pit', descriptor: {} }, { id: 'local_only', name: 'L', descriptor: {} }]),
      [SHARED_RULES_KEY]: JSON.stringify(['friends_rule']),
    });
    expect(knownRuleIds(['linked', 'my_mine'], s)).toEqual(['my_mine', 'my_pit', 'local_only', 'friends_rule', 'linked']);
  });
  it('asks for nothing in a fresh browser, and survives broken storage', () => {
    expect(knownRuleIds([], store())).toEqual([]);
    expect(knownRuleIds([], store({ [OWNER_TOKENS_KEY]: '{', [SHARED_RULES_KEY]: '"x"' }))).toEqual([]);
  });
  it('remembers a shared rule once, the newest last, and at most the server’s limit', () => {
    const s = store();
    rememberSharedRule('a', s);
    rememberSharedRule('b', s);
    rememberSharedRule('a', s);
    expect(sharedRules(s)).toEqual(['b', 'a']);
    for (let i = 0; i < MAX_ASKED + 5; i++) rememberSharedRule(`r${i}`, s);
    expect(sharedRules(s)).toHaveLength(MAX_ASKED);
    expect(sharedRules(s).at(-1)).toBe(`r${MAX_ASKED + 4}`);
  });
  it('leaves out an id with a comma (the query’s separator)', () => {
    expect(knownRuleIds(['a,b', 'c'], store())).toEqual(['c']);
  });
  it('reads and writes the share link', () => {
    expect(ruleFromUrl('?rule=my_mine')).toBe('my_mine');
    expect(ruleFromUrl('?rule=')).toBeNull();
    expect(ruleFromUrl('')).toBeNull();
    expect(shareUrl('http://h:1', 'a b')).toBe('http://h:1/?rule=a%20b');
    expect(ruleFromUrl(new URL(shareUrl('http://h:1', 'a b')).search)).toBe('a b');
  });
});
