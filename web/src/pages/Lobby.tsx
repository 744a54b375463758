/**
 * The lobby: create a game from the server's rules (GET /api/rules), copy the invite links, join
 * an open challenge or watch a live game.
 */
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { api, ApiError, isLive, type CreatedGame, type CreateGameRequest, type Finding, type GameSummary, type RuleEntry, type Rules } from '../protocol';
import { loadCustomModifiers } from './customModifiers';
import { editUrl } from '../editor/draft';
import { knownRuleIds, rememberSharedRule, ruleFromUrl, shareUrl } from '../editor/knownRules';
import { OpponentChoice, withOpponent, type Opponent } from './Opponent';
import { randomSeed, seedOf } from '../words';
import { gameParts, playersLine, sameNameHint, watchable } from './liveGames';
import { timeControl } from '../rules';
import { loadName, nameProblem, saveName } from './names';
import { agoText, forgetGame, loadMyGames, markFinished, rememberSeat, seatLine, yourGames, type MySeat } from './myGames';

/**
 * The Layout select's entries besides its first, "Standard start" (value ''): the server's layouts
 * for the chosen game, less `standard`, which is that first entry again (trial 20 item 7: both
 * "Standard start" and "standard" were listed).
 */
export function layoutChoices(rules: Rules | null, game: string): RuleEntry[] {
  return (rules?.layouts ?? []).filter((l) => (!l.game || !game || l.game === game) && l.id !== 'standard');
}

/**
 * What the lobby does with a remembered seat once the server answered for its game: `gone` (404:
 * dropped from the list), `finished`, or `live`; `unknown` when the server could not be asked (the
 * entry stays as it was).
 */
export function seatCheck(answer: { ok: true; live: boolean } | { ok: false; status: number | null }): 'gone' | 'finished' | 'live' | 'unknown' {
  if (answer.ok) return answer.live ? 'live' : 'finished';
  return answer.status === 404 ? 'gone' : 'unknown';
}

export const TIME_CONTROLS: { label: string; clock: { initialSeconds: number; incrementSeconds: number } | null }[] = [
  { label: 'Untimed', clock: null },
  { label: '1+0 bullet', clock: { initialSeconds: 60, incrementSeconds: 0 } },
  { label: '3+2 blitz', clock: { initialSeconds: 180, incrementSeconds: 2 } },
  { label: '5+3 blitz', clock: { initialSeconds: 300, incrementSeconds: 3 } },
  { label: '10+5 rapid', clock: { initialSeconds: 600, incrementSeconds: 5 } },
  { label: '15+10 rapid', clock: { initialSeconds: 900, incrementSeconds: 10 } },
  { label: '30+20 classical', clock: { initialSeconds: 1800, incrementSeconds: 20 } },
];

/**
 * Why the chosen rules cannot be played together, from the server's rules: pairs marked
 * incompatible (either side) and rules that require one not chosen. One sentence each.
 */
export function conflicts(chosen: string[], entries: RuleEntry[]): string[] {
  const byId = new Map(entries.map((e) => [e.id, e]));
  const out: string[] = [];
  for (const id of chosen) {
    for (const r of byId.get(id)?.requires ?? []) {
      if (!chosen.includes(r)) out.push(`“${byId.get(id)?.name ?? id}” needs “${byId.get(r)?.name ?? r}” too.`);
    }
  }
  for (let i = 0; i < chosen.length; i++) {
    for (let j = i + 1; j < chosen.length; j++) {
      const a = byId.get(chosen[i]);
      const b = byId.get(chosen[j]);
      if (a?.incompatible?.includes(chosen[j]) || b?.incompatible?.includes(chosen[i])) {
        // The server's reason (GET /api/rules `incompatibleReasons`; session-6 web trial: dropped).
        const why = a?.incompatibleReasons?.[chosen[j]] ?? b?.incompatibleReasons?.[chosen[i]];
        out.push(`“${a?.name ?? chosen[i]}” cannot be combined with “${b?.name ?? chosen[j]}”${why ? `: ${why}` : ''}.`);
      }
    }
  }
  return out;
}

/**
 * The lobby's key of a modifier entry: the id for the built-in library, `saved:ID` for one saved
 * with POST /api/modifiers (it may reuse a built-in id, as a template saved unchanged does).
 */
export function modifierKey(m: RuleEntry): string {
  return m.saved ? `saved:${m.id}` : m.id;
}

/**
 * What the creation request carries for a chosen key: a built-in id as is, a saved modifier as its
 * descriptor inline (the session knows only the built-in library).
 */
export function modifierEntry(key: string, entries: RuleEntry[]): string | object {
  if (!key.startsWith('saved:')) return key;
  const d = entries.find((m) => m.saved && m.id === key.slice(6))?.descriptor;
  return d && typeof d === 'object' ? (d as object) : key.slice(6);
}

/**
 * The games the engine ships (crates/definitions/games/*.yaml: id and name; then lichess's games
 * built on FIDE chess, crates/presets/src/lichess.rs: id and PGN `Variant` name, as GET /api/rules
 * lists them), offered in the Game select when GET /api/rules lists none (houserules serve answers
 * `{presets, layouts, modifiers}`, docs/protocol.md). Every board takes modifiers, Capablanca 10×8
 * and Grand 10×10 included.
 */
export const SHIPPED_GAMES: RuleEntry[] = [
  { id: '3check', name: 'Three-check', description: 'FIDE chess; the third check given wins' },
  { id: 'berolina', name: 'Berolina chess', description: 'pawns move diagonally and capture straight ahead' },
  { id: 'capablanca', name: 'Capablanca chess', description: '10×8 with archbishop and chancellor' },
  { id: 'chess960', name: 'Chess960', description: 'Fischer random; the standard array unless a start position (FEN) is given' },
  { id: 'clobberers', name: 'Colorbound Clobberers', description: "Betza's colourbound fairy army on both sides" },
  { id: 'crazyhouse', name: 'Crazyhouse', description: 'captured pieces change sides and can be dropped back on the board' },
  { id: 'gardner', name: 'Gardner minichess', description: '5×5' },
  { id: 'grand', name: 'Grand chess', description: '10×10 with cardinal and marshal' },
  { id: 'knightmate-classic', name: 'Knightmate', description: 'the royal piece moves as a knight, manns replace the knights' },
  { id: 'los-alamos', name: 'Los Alamos chess', description: '6×6 without bishops' },
  { id: 'antichess', name: 'Antichess', description: 'captures are compulsory; a side without pieces or moves wins' },
  { id: 'kingofthehill', name: 'King of the Hill', description: 'FIDE chess; a king on a centre square wins' },
  { id: 'racingkings', name: 'Racing Kings', description: 'no checks; the first king on the eighth rank wins' },
  { id: 'atomic', name: 'Atomic', description: 'captures explode the pieces around them, pawns apart' },
  { id: 'horde', name: 'Horde', description: 'White has 36 pawns and no king, and loses when it has no pieces left' },
];

/**
 * Shipped games the page cannot play: none since the game page shows pockets and takes drops
 * (issue 26; crazyhouse was left out before). Kept for a game the board cannot show.
 */
export const NOT_PLAYABLE_HERE = new Set<string>();

/** The Game select's entries besides standard chess: the server's list, else the shipped games. */
export function gameChoices(rules: Rules | null): RuleEntry[] {
  // `chess` is the first option already ("Chess (standard)", no `game` sent).
  return (rules?.games?.length ? rules.games : SHIPPED_GAMES).filter((g) => g.id !== 'chess' && !NOT_PLAYABLE_HERE.has(g.id));
}

/**
 * The layout a Chess960 position choice stands for (presets crate: `chess960:N`, N from 0 to 959 in
 * Scharnagl's numbering): a whole number from 0 to 959, or `random` for a uniformly random index
 * (`rand` in [0, 1), Math.random in the page). The server refuses a bare `chess960`.
 */
export function chess960Layout(choice: string, rand: () => number = Math.random): { layout: string; index: number } | Error {
  const t = choice.trim().toLowerCase();
  const index = t === 'random' || t === '' ? Math.min(959, Math.floor(rand() * 960)) : /^\d{1,3}$/.test(t) ? Number(t) : NaN;
  if (!Number.isInteger(index) || index < 0 || index > 959) return new Error(`the Chess960 position is a number from 0 to 959 or “random”, not “${choice.trim()}”`);
  return { layout: `chess960:${index}`, index };
}

// The seed field's reading (words.ts: the editor's Try it reads its field the same way).
export { seedOf };

/**
 * The choice timeout typed in the lobby: a whole number of seconds from 1 to 3600 (session-14
 * trial: the browser refused 0 on its own, and the old "Game created" panel stayed as if the
 * new game had been made).
 */
export function timeoutOf(text: string): number | Error {
  const t = text.trim();
  if (!/^\d{1,4}$/.test(t) || Number(t) < 1 || Number(t) > 3600) return new Error(`the choice timeout is a whole number of seconds from 1 to 3600, not “${t.slice(0, 20)}”`);
  return Number(t);
}

/**
 * What the form would send, or why it cannot be sent (the first problem, one sentence). The form
 * checks its fields itself (`noValidate`): the browser's own refusal showed nothing on the page
 * and left the previous game's panel in place (session-14 trial: seed −5, 1.5, 20 digits; choice
 * timeout 0).
 */
export function formValues(f: { seed: string; timeoutMode: string; timeoutSeconds: string }, rand: () => number = randomSeed): { seed: number; timeoutSeconds: number | null } | Error {
  const seed = seedOf(f.seed, rand);
  if (seed instanceof Error) return seed;
  if (f.timeoutMode === 'no-timeout') return { seed, timeoutSeconds: null };
  const t = timeoutOf(f.timeoutSeconds);
  if (t instanceof Error) return t;
  return { seed, timeoutSeconds: t };
}

function Copy({ text, label }: { text: string; label: string }) {
  const [done, setDone] = useState(false);
  return (
    <button
      type="button"
      aria-label={`Copy ${label}`}
      onClick={() => {
        navigator.clipboard?.writeText(text).then(() => setDone(true), () => setDone(false));
      }}
    >
      {done ? 'Copied' : 'Copy'}
    </button>
  );
}

const absolute = (u: string) => new URL(u, location.origin).toString();


export function Lobby() {
  const [rules, setRules] = useState<Rules | null>(null);
  const [loadError, setLoadError] = useState('');
  const [game, setGame] = useState('');
  const [layout, setLayout] = useState('');
  // An uploaded definition; `error` when the browser could not read the file.
  const [gameYaml, setGameYaml] = useState<{ name: string; text: string; error?: string } | null>(null);
  const [presets, setPresets] = useState<string[]>([]);
  const [modifiers, setModifiers] = useState<string[]>([]);
  // A shared link's rule that this server does not hold (`/?rule=ID`).
  const [sharedMissing, setSharedMissing] = useState<string | null>(null);
  // The saved rule whose share link was just copied.
  const [copied, setCopied] = useState<string | null>(null);
  const [custom, setCustom] = useState<string[]>([]);
  const [draft, setDraft] = useState(false);
  const [tc, setTc] = useState(0);
  const [timeoutMode, setTimeoutMode] = useState<'timeout-with-default' | 'no-timeout'>('timeout-with-default');
  // As typed: checked on submit (timeoutOf), never silently turned into a number.
  const [timeoutSeconds, setTimeoutSeconds] = useState('60');
  const [colour, setColour] = useState<'white' | 'black' | 'random'>('white');
  // The player's name, remembered in this browser (issue 26: the PGN read `White "?"`).
  const [name, setName] = useState(loadName);
  const [opponent, setOpponent] = useState<Opponent>({ kind: 'friend' });
  const [fen, setFen] = useState('');
  const [seed, setSeed] = useState('');
  const [coinFlips, setCoinFlips] = useState<'auto' | 'manual'>('auto');
  const [chess960, setChess960] = useState('random');
  const [mode, setMode] = useState<'invite' | 'open'>('invite');
  const [created, setCreated] = useState<(CreatedGame & { chess960?: number; open?: boolean; seed?: number }) | null>(null);
  // A request in flight: Create game is disabled (session-7 web trial: a double click made two games).
  const [creating, setCreating] = useState(false);
  const createdRef = useRef<HTMLDivElement>(null);
  const errorRef = useRef<HTMLDivElement>(null);
  // The panel with the links, and a refusal, appear under the form's button: at 1280×800 they were
  // below the fold (session-7 and session-14 trials). Scrolled into view at once (a smooth scroll
  // could still be on its way when the reader looked), whole, and focused for screen readers.
  useEffect(() => {
    const el = createdRef.current;
    if (!el) return;
    el.scrollIntoView?.({ block: 'nearest' });
    el.focus?.({ preventScroll: true });
  }, [created?.id]);
  const [listError, setListError] = useState('');
  const [myColour, setMyColour] = useState<'white' | 'black'>('white');
  const [createError, setCreateError] = useState<{ message: string; findings: Finding[]; field?: string } | null>(null);
  useEffect(() => {
    errorRef.current?.scrollIntoView?.({ block: 'nearest' });
  }, [createError]);
  /** A refusal: the previous game's panel goes (it is not the answer to this submission). */
  const refuse = (message: string, findings: Finding[] = [], field?: string) => {
    setCreated(null);
    // An uploaded file's diagnostic names the file, not the request field it was sent in.
    const file = gameYaml?.name;
    setCreateError({ message, findings: file ? findings.map((f) => ({ ...f, message: inFile(f.message, file) })) : findings, field });
  };
  // The field a refusal is about, marked (it may be far above the message).
  const invalid = (field: string) => (createError?.field === field ? 'true' : undefined);
  const [open, setOpen] = useState<GameSummary[]>([]);
  const [live, setLive] = useState<GameSummary[]>([]);
  const customMods = useMemo(loadCustomModifiers, []);
  // "Your games" (trial 20 item 1): the seats this browser holds, checked against the server once.
  const [mine, setMine] = useState<MySeat[]>(loadMyGames);
  useEffect(() => {
    const ids = [...new Set(loadMyGames().map((x) => x.id))].slice(0, 30);
    for (const gid of ids) {
      api.getGame(gid).then(
        (g) => {
          if (seatCheck({ ok: true, live: isLive(g.session.status) && !g.result }) === 'finished') setMine(markFinished(gid));
        },
        (e: unknown) => {
          if (seatCheck({ ok: false, status: e instanceof ApiError ? e.status : null }) === 'gone') setMine(forgetGame(gid));
        },
      );
    }
  }, []);

  useEffect(() => {
    // The saved rules this browser saved or was given a link to (`/?rule=ID`, offered ticked);
    // the server lists no other visitor's (session 18).
    const shared = ruleFromUrl(location.search);
    if (shared) rememberSharedRule(shared);
    api.rules(knownRuleIds(shared ? [shared] : [])).then(
      (r) => {
        setRules(r);
        if (!shared) return;
        if (r.modifiers.some((m) => m.saved && m.id === shared)) setModifiers((ms) => (ms.includes(`saved:${shared}`) ? ms : [...ms, `saved:${shared}`]));
        else setSharedMissing(shared);
      },
      (e: Error) => setLoadError(e.message),
    );
    const refresh = () => {
      api.listGames('open').then(setOpen, () => {});
      api.listGames('live').then((gs) => setLive(gs.filter(watchable)), () => {});
    };
    refresh();
    const t = setInterval(refresh, 5000);
    return () => clearInterval(t);
  }, []);

  const layouts = layoutChoices(rules, game);
  const presetConflicts = conflicts(presets, rules?.presets ?? []);
  const toggle = (list: string[], set: (v: string[]) => void, id: string) =>
    set(list.includes(id) ? list.filter((x) => x !== id) : [...list, id]);

  const create = async (e: Event) => {
    e.preventDefault();
    if (creating) return;
    // Whatever this submission gives, the previous game's panel is not its answer.
    setCreated(null);
    setCreateError(null);
    const values = formValues({ seed, timeoutMode, timeoutSeconds });
    if (values instanceof Error) {
      refuse(`Not created: ${values.message}.`, [], seedOf(seed) instanceof Error ? 'seed' : 'choiceTimeoutSeconds');
      return;
    }
    if (gameYaml?.error) {
      refuse(`Not created: the game definition file ${gameYaml.name} could not be read (${gameYaml.error}).`);
      return;
    }
    const seedValue = values.seed;
    let c960: { layout: string; index: number } | null = null;
    if (layout === 'chess960') {
      const r = chess960Layout(chess960);
      if (r instanceof Error) {
        refuse(`Not created: ${r.message}.`, [], 'chess960');
        return;
      }
      c960 = r;
    }
    const mine: 'white' | 'black' = colour === 'random' ? (Math.random() < 0.5 ? 'white' : 'black') : colour;
    let req: CreateGameRequest = {
      presets,
      // A modifier saved with POST /api/modifiers is not in the session's library: it goes inline.
      modifiers: [...modifiers.map((key) => modifierEntry(key, rules?.modifiers ?? [])), ...custom.map((id) => customMods.find((m) => m.id === id)?.descriptor).filter((d): d is object => !!d)],
      draft,
      choiceTimeout: values.timeoutSeconds === null ? { mode: 'no-timeout' } : { mode: 'timeout-with-default', seconds: values.timeoutSeconds },
    };
    // An uploaded definition goes in `game` as YAML text (agree the field with the server at integration).
    if (gameYaml) req.game = gameYaml.text;
    else if (game) req.game = game;
    if (layout) req.layout = c960 ? c960.layout : layout;
    // An open challenge: only our seat gets a token; anyone in the lobby may take the other.
    if (mode === 'open' && opponent.kind !== 'computer') req.seat = mine;
    if (fen.trim()) req.fen = fen.trim();
    req.seed = seedValue;
    if (coinFlips === 'manual') req.coinFlips = 'manual';
    const clock = TIME_CONTROLS[tc]?.clock;
    if (clock) req.clock = clock;
    const me = name.trim();
    if (me) {
      req[mine] = me;
      saveName(me);
    }
    req = withOpponent(req, opponent, mine);
    setCreating(true);
    try {
      const g = await api.createGame(req);
      // Against the computer only the creator's seat exists, and an open challenge's creator
      // waits on the game page, which says the opponent has not joined yet (session-7 web trial:
      // the lobby said "Waiting for an opponent…" after the join): straight to the game page.
      const mySeat = g.seats[mine];
      // Remembered for "Your games", whether or not the creator opens it now.
      if (mySeat) {
        const otherSide = mine === 'white' ? 'black' : 'white';
        const foe = opponent.kind === 'computer' ? `engine:${opponent.level}` : (req[otherSide] as string | undefined) ?? null;
        setMine(rememberSeat({ id: g.id, seat: mine, token: mySeat.token, url: mySeat.url, opponent: foe, rules: [...gameParts({ id: g.id, status: '', game: typeof req.game === 'string' && !gameYaml ? req.game : gameYaml ? 'custom' : undefined, presets, modifiers: modifiers.map((k) => k.replace(/^saved:/, '')), layout: req.layout }, rules, SHIPPED_GAMES), timeControl(clock ?? null)].join(' · '), at: Date.now() }));
      }
      if ((opponent.kind === 'computer' || mode === 'open') && mySeat) {
        location.assign(mySeat.url);
        return;
      }
      // The seed only matters to random rules (modifiers, a draft): not shown for other games
      // (trial 18: the panel showed a seed for plain chess).
      const randomRules = modifiers.length > 0 || custom.length > 0 || !!draft;
      setCreated({ ...g, chess960: c960?.index, open: mode === 'open', seed: randomRules ? seedValue : undefined });
      setMyColour(mine);
      setCreating(false);
    } catch (err) {
      refuse((err as Error).message, err instanceof ApiError ? err.findings : []);
      setCreating(false);
    }
  };

  const join = async (id: string) => {
    setListError('');
    // The joiner's name names the seat taken (issue 26: a joiner was "Anonymous" for good); with
    // none, the game page asks for it.
    const me = name.trim();
    const problem = me ? nameProblem(me) : null;
    if (problem) {
      setListError(`Could not join: ${problem}`);
      return;
    }
    try {
      const j = await api.joinGame(id, me || undefined);
      if (me) saveName(me);
      location.assign(j.url);
    } catch (err) {
      setListError(`Could not join: ${(err as Error).message}`);
      // Someone else may have taken it: the list shows what is still open.
      api.listGames('open').then(setOpen, () => {});
    }
  };

  const other = myColour === 'white' ? 'black' : 'white';
  return (
    <main class="lobby">
      {/* First on a phone (one column): a player back for their game finds it without scrolling. */}
      <YourGames list={mine} />
      <section class="create">
        <h2>New game</h2>
        {loadError && <p class="notice error">Could not load the rules: {loadError}</p>}
        {sharedMissing && (
          <p class="notice error" data-shared-missing>
            The link names a saved rule “{sharedMissing.slice(0, 60)}” that this server does not hold.
          </p>
        )}
        <form onSubmit={create} noValidate>
          <label for="lobby-game">
            Game
            <select id="lobby-game" name="game" value={game} onChange={(e) => { setGame((e.target as HTMLSelectElement).value); setLayout(''); }}>
              <option value="">Chess (standard)</option>
              {gameChoices(rules).map((g) => (
                <option value={g.id} title={g.description}>{g.name ?? g.id}</option>
              ))}
            </select>
          </label>
          <label for="lobby-yaml">
            Or a game definition file (YAML)
            <input
              id="lobby-yaml"
              type="file"
              accept=".yaml,.yml,text/yaml"
              onChange={async (e) => {
                const f = (e.target as HTMLInputElement).files?.[0];
                if (!f) return setGameYaml(null);
                try {
                  setGameYaml({ name: f.name, text: await f.text() });
                } catch (x) {
                  setGameYaml({ name: f.name, text: '', error: (x as Error).message || 'unreadable' });
                }
              }}
            />
            {gameYaml && <small>Using {gameYaml.name} instead of the game above.</small>}
          </label>
          <label for="lobby-layout">
            Layout
            <select id="lobby-layout" name="layout" value={layout} onChange={(e) => setLayout((e.target as HTMLSelectElement).value)}>
              <option value="">Standard start</option>
              {layouts.map((l) => (
                <option value={l.id} title={l.description}>{l.name ?? l.id}</option>
              ))}
            </select>
          </label>
          {layout === 'chess960' && (
            <label for="lobby-chess960">
              Chess960 position (0–959, or “random”)
              <input id="lobby-chess960" name="chess960" aria-invalid={invalid('chess960')} value={chess960} list="chess960-choices" spellcheck={false} autocomplete="off" onInput={(e) => setChess960((e.target as HTMLInputElement).value)} />
              <datalist id="chess960-choices">
                <option value="random" />
                <option value="518">518: the standard array</option>
              </datalist>
            </label>
          )}
          <fieldset class="presets">
            <legend>House rules (presets)</legend>
            <div class="choices">
            {(rules?.presets ?? []).map((p) => {
              const bad = presets.includes(p.id) && presetConflicts.some((c) => c.includes(p.name ?? p.id));
              return (
                <label class={`check${bad ? ' bad' : ''}`} title={p.description}>
                  <input
                    type="checkbox"
                    data-preset={p.id}
                    disabled={p.implemented === false}
                    checked={presets.includes(p.id)}
                    onChange={() => toggle(presets, setPresets, p.id)}
                  />
                  <span>
                    <b>{p.name ?? p.id}</b>{' '}
                    {sameNameHint('preset', p.id, rules) && <em class="which">({sameNameHint('preset', p.id, rules)})</em>}{' '}
                    <small>
                      {p.description ?? p.category}
                      {p.implemented === false ? ` — not playable yet: ${p.needs ?? 'the engine lacks it'}` : ''}
                    </small>
                  </span>
                </label>
              );
            })}
            </div>
          </fieldset>
          {presetConflicts.length > 0 && (
            <div class="notice error" role="alert">
              {presetConflicts.map((c) => (
                <p>{c}</p>
              ))}
            </div>
          )}
          <fieldset class="modifiers">
            <legend>Modifiers</legend>
            <div class="choices">
            {(rules?.modifiers ?? []).map((m) => (
              <label class="check" title={m.description}>
                <input
                  type="checkbox"
                  data-modifier={m.id}
                  data-saved={m.saved ? 'true' : undefined}
                  checked={modifiers.includes(modifierKey(m))}
                  onChange={() => toggle(modifiers, setModifiers, modifierKey(m))}
                />
                <span>
                  <b>{m.name ?? m.id}</b>{' '}
                  {sameNameHint('modifier', m.id, rules) && <em class="which">({sameNameHint('modifier', m.id, rules)})</em>}{' '}
                  <small>{m.saved ? `saved in the library${m.description ? `: ${m.description}` : ''}` : m.description}</small>
                  {m.saved && (
                    <>
                      {' '}
                      <a href={editUrl(`saved:${m.id}`)} data-edit-saved={m.id} title="Open this rule in the modifier editor to change it">
                        edit
                      </a>{' '}
                      <a
                        href={shareUrl(location.origin, m.id)}
                        data-share-saved={m.id}
                        title="Copy a link that offers this rule in another visitor's lobby (saved rules are listed only for the browser that saved them and those given a link)"
                        onClick={(e) => {
                          e.preventDefault();
                          const url = shareUrl(location.origin, m.id);
                          void navigator.clipboard?.writeText(url).then(
                            () => setCopied(m.id),
                            () => prompt('Copy this link', url),
                          );
                        }}
                      >
                        {copied === m.id ? 'link copied' : 'share link'}
                      </a>
                    </>
                  )}
                </span>
              </label>
            ))}
            {/* Kept in this browser only: the ones the server's library does not hold (yet). */}
            {customMods.filter((m) => !(rules?.modifiers ?? []).some((r) => r.saved && r.id === m.id)).map((m) => (
              <label class="check">
                <input type="checkbox" checked={custom.includes(m.id)} onChange={() => toggle(custom, setCustom, m.id)} />
                <span>
                  <b>{m.name}</b> <small>custom, from the editor</small>{' '}
                  <a href={editUrl(`local:${m.id}`)} data-edit-local={m.id}>
                    edit
                  </a>
                </span>
              </label>
            ))}
            <label class="check">
              <input type="checkbox" checked={draft} onChange={() => setDraft(!draft)} />
              <span>
                <b>Draft mode</b> <small>rule cards dealt during the game</small>
              </span>
            </label>
            </div>
          </fieldset>
          <div class="row">
            <label for="lobby-time-control">
              Time control
              <select id="lobby-time-control" name="timeControl" value={tc} onChange={(e) => setTc(Number((e.target as HTMLSelectElement).value))}>
                {TIME_CONTROLS.map((t, i) => (
                  <option value={i}>{t.label}</option>
                ))}
              </select>
            </label>
            <label for="lobby-choice-timeout">
              Choice timeout
              <select id="lobby-choice-timeout" name="choiceTimeoutMode" value={timeoutMode} onChange={(e) => setTimeoutMode((e.target as HTMLSelectElement).value as typeof timeoutMode)}>
                <option value="timeout-with-default">first option after</option>
                <option value="no-timeout">no timeout (pause)</option>
              </select>
            </label>
            {timeoutMode === 'timeout-with-default' && (
              <label for="lobby-choice-seconds">
                seconds
                <input id="lobby-choice-seconds" name="choiceTimeoutSeconds" aria-invalid={invalid('choiceTimeoutSeconds')} type="number" min={1} max={3600} step={1} value={timeoutSeconds} onInput={(e) => setTimeoutSeconds((e.target as HTMLInputElement).value)} />
              </label>
            )}
            <label for="lobby-name">
              Your name
              <input id="lobby-name" name="playerName" value={name} maxLength={100} autocomplete="nickname" placeholder="shown to your opponent and in the PGN" onInput={(e) => setName((e.target as HTMLInputElement).value)} />
            </label>
            <label for="lobby-colour">
              Your colour
              <select id="lobby-colour" name="colour" value={colour} onChange={(e) => setColour((e.target as HTMLSelectElement).value as typeof colour)}>
                <option value="white">White</option>
                <option value="black">Black</option>
                <option value="random">Random</option>
              </select>
            </label>
          </div>
          <OpponentChoice value={opponent} onChange={setOpponent} />
          {opponent.kind !== 'computer' && (
          <fieldset class="mode">
            <legend>Invite</legend>
            <label class="check">
              <input type="radio" name="mode" value="invite" checked={mode === 'invite'} onChange={() => setMode('invite')} />
              <span><b>Invite a friend</b> <small>two links: one for you, one to send</small></span>
            </label>
            <label class="check">
              <input type="radio" name="mode" value="open" checked={mode === 'open'} onChange={() => setMode('open')} />
              <span><b>Open challenge</b> <small>anyone in the lobby may join</small></span>
            </label>
          </fieldset>
          )}
          <details class="advanced">
            <summary>Start position, seed and coin flips</summary>
            {/* Linked by id as well as wrapped (session-14 trial: no linked label). */}
            <label for="lobby-fen">
              Start position (FEN; empty: the game's own)
              <input id="lobby-fen" name="fen" value={fen} spellcheck={false} autocomplete="off" placeholder="rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1" onInput={(e) => setFen((e.target as HTMLInputElement).value)} />
            </label>
            <div class="row">
              <label for="lobby-seed">
                Seed (random rules; empty: a random seed)
                {/* Text, not a number field: the browser blanked or refused what it could not read (−5, 1.5, 20 digits); seedOf says why. */}
                <input id="lobby-seed" name="seed" aria-invalid={invalid('seed')} inputMode="numeric" autocomplete="off" spellcheck={false} value={seed} onInput={(e) => setSeed((e.target as HTMLInputElement).value)} />
              </label>
              <label for="lobby-coin-flips">
                Coin flips
                <select id="lobby-coin-flips" name="coinFlips" value={coinFlips} onChange={(e) => setCoinFlips((e.target as HTMLSelectElement).value as typeof coinFlips)}>
                  <option value="auto">drawn by the server</option>
                  <option value="manual">tossed at the table (players enter the result)</option>
                </select>
              </label>
            </div>
          </details>
          <button type="submit" class="primary" disabled={presetConflicts.length > 0 || creating} aria-busy={creating}>{creating ? 'Creating…' : 'Create game'}</button>
        </form>
        {createError && (
          <div class="notice error" role="alert" data-create-error ref={errorRef}>
            {/* The findings' paths and messages, not the raw answer (session-6 web trial). */}
            {createError.findings.length ? <p>The server refused the game:</p> : <Message text={createError.message} />}
            {createError.findings.length > 0 && (
              <ul>
                {createError.findings.map((f) => (
                  <li>
                    {f.path && f.path !== '$' && <code>{f.path}</code>} <Message text={f.message} inline />
                  </li>
                ))}
              </ul>
            )}
          </div>
        )}
        {created && (
          <div class="created" data-game={created.id} ref={createdRef} tabIndex={-1}>
            <h3>{created.open ? 'Open challenge created' : 'Game created'}</h3>
            {created.seed !== undefined && <p data-seed={created.seed}>Seed {created.seed} (the random rules’ draws follow from it)</p>}
            {created.chess960 !== undefined && <p data-chess960={created.chess960}>Chess960 position {created.chess960}{created.chess960 === 518 ? ' (the standard array)' : ''}</p>}
            <p>
              {created.seats[myColour] && <a class="primary" href={created.seats[myColour].url} data-seat-link={myColour}>Play as {myColour}</a>}
            </p>
            {created.open ? (
              <p>Waiting for an opponent: the game is in the lobby's open challenges until someone joins as {other}.</p>
            ) : (
              created.seats[other] && (
                <p>
                  Invite your opponent ({other}): <input readOnly value={absolute(created.seats[other].url)} data-invite={other} />
                  <Copy text={absolute(created.seats[other].url)} label={`${other} invite link`} />
                </p>
              )
            )}
            {created.seats[myColour] && (
              <p>
                Your link ({myColour}): <input readOnly value={absolute(created.seats[myColour].url)} data-invite={myColour} />
                <Copy text={absolute(created.seats[myColour].url)} label={`${myColour} link`} />
              </p>
            )}
            <p>
              Spectators: <input readOnly value={absolute(created.spectateUrl)} data-invite="spectator" />
              <Copy text={absolute(created.spectateUrl)} label="spectator link" />
            </p>
          </div>
        )}
      </section>
      <section class="lists">
        <h2>Open challenges</h2>
        {open.length > 0 && (
          <label for="join-name" class="join-name">
            Your name, for the game you join
            <input id="join-name" name="joinName" value={name} maxLength={100} autocomplete="nickname" placeholder="shown to your opponent and in the PGN" onInput={(e) => setName((e.target as HTMLInputElement).value)} />
          </label>
        )}
        {listError && <p class="notice error" role="alert">{listError}</p>}
        <GameList games={open} rules={rules} empty="No open challenges." action={(g) => <button type="button" data-join={g.id} onClick={() => join(g.id)}>Join{g.seat ? ` as ${g.seat === 'white' ? 'black' : 'white'}` : ''}</button>} />
        <h2>Live games</h2>
        <GameList games={live} rules={rules} empty="No live games." action={(g) => <a href={`/games/${encodeURIComponent(g.id)}`}>Watch</a>} />
      </section>
    </main>
  );
}

/**
 * A refusal's message: a multi-line one (a YAML game's diagnostic, as the CLI prints it, with the
 * file's line, its column and a caret under the spot) keeps its lines and spacing in a
 * preformatted block (trial 20: it was squashed onto one line, the caret far from its column).
 */
export function Message({ text, inline = false }: { text: string; inline?: boolean }) {
  if (isDiagnostic(text)) return <pre class="diagnostic" data-diagnostic>{text.replace(/\s+$/, '')}</pre>;
  return inline ? <>{text}</> : <p>{text}</p>;
}

/**
 * A YAML diagnostic of the request's `game` read as the uploaded file's: `$.game:6:3:` (the field
 * the text was sent in, with the line and column) becomes `bad.yaml:6:3:`.
 */
export function inFile(message: string, file: string): string {
  return message.replace(/\$\.game:(\d+:\d+)/g, (_, at: string) => `${file}:${at}`);
}

/** Whether a message is a multi-line diagnostic, shown as preformatted lines. */
export function isDiagnostic(text: string): boolean {
  return /\n/.test(text.trim());
}

/** "Your games": the seats this browser holds, unfinished first (Resume), then a few finished (View). */
function YourGames({ list }: { list: MySeat[] }) {
  const { unfinished, finished } = yourGames(list);
  if (!unfinished.length && !finished.length) return null;
  const now = Date.now();
  const row = (e: MySeat, done: boolean) => (
    <li data-my-game={e.id} data-my-seat={e.seat} data-my-finished={done ? '' : undefined}>
      <span>
        <b>{seatLine(e)}</b>
        {e.rules ? ` · ${e.rules}` : ''}
        {' · '}
        <small>{agoText(e.at, now)}</small>
      </span>
      <a href={e.url} data-resume={e.id}>{done ? 'View' : 'Resume'}</a>
    </li>
  );
  return (
    <section class="mine" aria-label="Your games">
      <h2>Your games</h2>
      {unfinished.length > 0 ? <ul class="games mine">{unfinished.map((e) => row(e, false))}</ul> : <p class="empty">No unfinished games.</p>}
      {finished.length > 0 && (
        <>
          <h3 class="finished-head">Finished</h3>
          <ul class="games mine finished">{finished.map((e) => row(e, true))}</ul>
        </>
      )}
    </section>
  );
}

function GameList({ games, rules, empty, action }: { games: GameSummary[]; rules: Rules | null; empty: string; action: (g: GameSummary) => preact.JSX.Element }) {
  if (!games.length) return <p class="empty">{empty}</p>;
  return (
    <ul class="games">
      {games.map((g) => (
        <li data-list-game={g.id}>
          <span>
            {gameParts(g, rules, SHIPPED_GAMES).map((p, i) => (i ? ` · ${p}` : <b>{p}</b>))}
            {' · '}
            {timeControl(g.clock)}
            {playersLine(g.white, g.black, g.status === 'open' ? g.seat : undefined) ? ` · ${playersLine(g.white, g.black, g.status === 'open' ? g.seat : undefined)}` : ''}
          </span>
          {action(g)}
        </li>
      ))}
    </ul>
  );
}
