/**
 * The owner tokens of the rules this browser saved to the server's library. The server gives a
 * rule's token once, in the answer to the first save of its id (POST /api/modifiers → 201
 * `ownerToken`), and saving that id again needs it (`Authorization: Bearer TOKEN`; without it, or
 * with another, 403 `modifier.not-owner`: session-14 trial, anyone could overwrite anyone's rule).
 * They are kept in localStorage by rule id, so the editor can save its own rules again later.
 */
import { ApiError } from '../protocol';

/** The localStorage key of the tokens: a JSON object, rule id → token. */
export const OWNER_TOKENS_KEY = 'houserules.modifierOwnerTokens';

type Store = Pick<Storage, 'getItem' | 'setItem'>;

function tokens(storage: Store | undefined): Record<string, string> {
  try {
    const v = JSON.parse(storage?.getItem(OWNER_TOKENS_KEY) ?? '{}') as unknown;
    if (!v || typeof v !== 'object' || Array.isArray(v)) return {};
    return Object.fromEntries(Object.entries(v).filter((e): e is [string, string] => typeof e[1] === 'string'));
  } catch {
    return {};
  }
}

/** The token kept for rule `id`, if this browser saved it first. */
export function ownerToken(id: string, storage: Store | undefined = globalThis.localStorage): string | undefined {
  return tokens(storage)[id];
}

/** Keeps `token` for rule `id` (a full or disabled storage keeps nothing: the next save of the id is then refused). */
export function keepOwnerToken(id: string, token: string, storage: Store | undefined = globalThis.localStorage): void {
  try {
    storage?.setItem(OWNER_TOKENS_KEY, JSON.stringify({ ...tokens(storage), [id]: token }));
  } catch {
    /* storage full or off */
  }
}

/** What a save did: saved (a new rule, or this browser's rule again), or refused as someone else's. */
export type SaveOutcome = { saved: true; created: boolean } | { saved: false; message: string };

/** The editor's message when the server refuses a save because the id is another owner's. */
export function notOwnerMessage(id: string): string {
  return `Not saved: a rule with the id “${id}” is already in the server's library, saved by someone else (or from another browser). Only whoever saved it first can change it: give your rule another id and save again.`;
}

/**
 * Saves descriptor `d` with the token kept for its id (if any) and keeps the token a first save
 * gives. A 403 is answered as a refused outcome with a message saying what to do; any other
 * refusal (findings, a library id, the rate limit, a store failure) is thrown as before.
 */
export async function saveOwned(
  d: { id: string },
  save: (descriptor: unknown, ownerToken?: string) => Promise<{ id: string; ownerToken?: string }>,
  storage: Store | undefined = globalThis.localStorage,
): Promise<SaveOutcome> {
  try {
    const answer = await save(d, ownerToken(d.id, storage));
    if (typeof answer?.ownerToken === 'string') {
      keepOwnerToken(d.id, answer.ownerToken, storage);
      return { saved: true, created: true };
    }
    return { saved: true, created: false };
  } catch (e) {
    if (e instanceof ApiError && e.status === 403) return { saved: false, message: notOwnerMessage(d.id) };
    throw e;
  }
}
