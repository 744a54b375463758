/**
 * The saved rules this browser asks the server for (GET /api/rules?saved=…). The server lists a
 * saved rule only when asked by id (session 18; the session-14 trial found every visitor's saved
 * rules in every lobby): a browser knows the rules it saved — it holds their owner tokens, and the
 * editor's own list — and those it was given a link to (`/?rule=ID`, remembered here).
 */
import { OWNER_TOKENS_KEY } from './ownerTokens';

/** The localStorage key of the rule ids this browser was given by a link: a JSON list. */
export const SHARED_RULES_KEY = 'houserules.sharedRules';
const CUSTOM_KEY = 'houserules.customModifiers';
/** The most ids one request asks for (the server's limit, `MAX_SAVED_ASKED`). */
export const MAX_ASKED = 200;

type Store = Pick<Storage, 'getItem' | 'setItem'>;

function read(storage: Store | undefined, key: string): unknown {
  try {
    return JSON.parse(storage?.getItem(key) ?? 'null') as unknown;
  } catch {
    return null;
  }
}

/** The ids of the rules this browser was given a link to, oldest first. */
export function sharedRules(storage: Store | undefined = globalThis.localStorage): string[] {
  const v = read(storage, SHARED_RULES_KEY);
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string' && x.length > 0) : [];
}

/** Remembers a rule given by a link (once; the newest last). */
export function rememberSharedRule(id: string, storage: Store | undefined = globalThis.localStorage): void {
  const t = id.trim();
  if (!t) return;
  try {
    storage?.setItem(SHARED_RULES_KEY, JSON.stringify([...sharedRules(storage).filter((x) => x !== t), t].slice(-MAX_ASKED)));
  } catch {
    /* storage full or off: the rule is listed for this visit only */
  }
}

/**
 * The saved-rule ids to ask for: this browser's own (owner tokens, then the editor's list), then
 * the shared ones and `extra` (a link being opened), each once; at most MAX_ASKED, the newest kept.
 */
export function knownRuleIds(extra: string[] = [], storage: Store | undefined = globalThis.localStorage): string[] {
  const tokens = read(storage, OWNER_TOKENS_KEY);
  const own = tokens && typeof tokens === 'object' && !Array.isArray(tokens) ? Object.keys(tokens) : [];
  const custom = read(storage, CUSTOM_KEY);
  const local = Array.isArray(custom) ? custom.map((m) => (m && typeof m === 'object' ? (m as { id?: unknown }).id : null)).filter((x): x is string => typeof x === 'string') : [];
  const out: string[] = [];
  // Commas separate the ids in the query: an id holding one cannot be asked for (the validator's ids have none).
  for (const id of [...own, ...local, ...sharedRules(storage), ...extra]) if (id && !id.includes(',') && !out.includes(id)) out.push(id);
  return out.slice(-MAX_ASKED);
}

/** The rule a lobby address shares (`/?rule=ID`), or null. */
export function ruleFromUrl(search: string): string | null {
  const r = new URLSearchParams(search).get('rule');
  return r && r.trim() ? r.trim() : null;
}

/** The lobby address that shares saved rule `id`. */
export const shareUrl = (origin: string, id: string) => `${origin}/?rule=${encodeURIComponent(id)}`;
