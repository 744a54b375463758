/**
 * The visual modifier editor: palette (six categories), templates, parameter renderers (square,
 * piece, marker-kind, lifetime), the validator's findings beside their fields (POST /api/validate,
 * matched by JSON path), a JSON view that round-trips, save, and "try it" in a sandbox game.
 */
import { useEffect, useMemo, useState } from 'preact/hooks';
import type { JSX } from 'preact';
import { api, MARKER_PRIORITY, type Finding } from '../protocol';
import { MarkerIcon } from '../board/markers';
import { PieceGlyph, STANDARD_TYPES } from '../board/pieces';
import {
  blankDescriptor,
  BODY_KEYS,
  effectContext,
  fieldPaths,
  getAt,
  isPassiveCategory,
  libraryIdClash,
  newNode,
  notAllowedHere,
  ownerOf,
  parseDescriptorText,
  PALETTE,
  rendererFor,
  rendererForType,
  setAt,
  TEMPLATES,
  templateCopy,
  type Category,
  type Descriptor,
  type Json,
  type Node,
  type Path,
} from '../editor/model';
import { loadCustomModifiers, saveCustomModifier } from './customModifiers';
import { saveOwned } from '../editor/ownerTokens';
import { knownRuleIds } from '../editor/knownRules';
import { loadDraft, openKey, saveDraft, savedRules, type SavedRule } from '../editor/draft';
import { applyFix, describeRule, markerWarnings } from '../editor/explain';
import {
  jsonOnlyKeys,
  readFlag,
  readPieceFilter,
  readSquareFilter,
  withKey,
  writeFlag,
  writePieceFilter,
  writeSquareFilter,
  type SquareForm,
  type SquareMode,
} from '../editor/moveFilter';
import { SANDBOX_PLAYER, sandboxUrl } from './liveGames';
import { seedOf } from '../words';

/** The seed of the editor's last sandbox (Try it), kept in this browser. */
const LAST_SEED_KEY = 'houserules.editorTrySeed';
import { readPieces, refChoices, switchPieces, type PiecesMode } from '../editor/pieces';

const FILES8 = 'abcdefgh';

/** The square renderer: a clickable 8×8 grid and the value as text (a square name or a `$` reference). */
function SquarePicker({ value, onChange }: { value: string; onChange: (v: string) => void }) {
  return (
    <span class="square-field">
      <span class="square-picker" role="grid" aria-label="Pick a square">
        {[7, 6, 5, 4, 3, 2, 1, 0].map((r) =>
          [...FILES8].map((f, i) => {
            const sq = `${f}${r + 1}`;
            return (
              <button
                type="button"
                data-pick-square={sq}
                aria-label={sq}
                aria-pressed={value === sq}
                class={`${(i + r) % 2 ? 'light' : 'dark'}${value === sq ? ' on' : ''}`}
                onClick={() => onChange(sq)}
              />
            );
          }),
        )}
      </span>
      <input class="sq-text" aria-label="square or reference" value={value} onInput={(e) => onChange((e.target as HTMLInputElement).value)} />
    </span>
  );
}

function PiecePicker({ value, onChange }: { value: string; onChange: (v: string) => void }) {
  return (
    <div class="piece-picker" role="radiogroup" aria-label="Pick a piece type">
      {STANDARD_TYPES.map((t) => (
        <button type="button" role="radio" aria-checked={value === t} aria-label={t} data-pick-piece={t} class={value === t ? 'on' : ''} onClick={() => onChange(t)}>
          <svg viewBox="0 0 100 100" width="28" height="28" aria-hidden="true">
            <PieceGlyph type={t} color="white" letter={t[0]} />
          </svg>
        </button>
      ))}
    </div>
  );
}

function MarkerKindSelect({ value, onChange }: { value: string; onChange: (v: string) => void }) {
  return (
    <span class="marker-kind">
      <svg viewBox="0 0 100 100" width="20" height="20" aria-hidden="true">
        {MARKER_PRIORITY.includes(value as never) && <MarkerIcon kind={value as never} />}
      </svg>
      <select value={value} aria-label="Marker kind" onChange={(e) => onChange((e.target as HTMLSelectElement).value)}>
        {MARKER_PRIORITY.map((k) => (
          <option value={k}>{k}</option>
        ))}
      </select>
    </span>
  );
}

function LifetimeEditor({ value, onChange }: { value: Json; onChange: (v: Json) => void }) {
  const v = (value && typeof value === 'object' && !Array.isArray(value) ? value : { kind: 'permanent' }) as { kind?: Json; plies?: Json };
  return (
    <span class="lifetime">
      <select
        aria-label="Lifetime"
        value={String(v.kind)}
        onChange={(e) => {
          const k = (e.target as HTMLSelectElement).value;
          onChange(k === 'moves' ? { kind: 'moves', plies: typeof v.plies === 'number' ? v.plies : 4 } : { kind: k });
        }}
      >
        <option value="permanent">permanent</option>
        <option value="moves">for N plies</option>
        <option value="one-shot">one-shot</option>
      </select>
      {v.kind === 'moves' && (
        <input
          type="number"
          aria-label="plies"
          value={String(v.plies ?? '')}
          onInput={(e) => onChange({ kind: 'moves', plies: Number((e.target as HTMLInputElement).value) })}
        />
      )}
    </span>
  );
}

/** A JSON value typed as text; applied when it parses, its parse error shown otherwise. */
function JsonField({ value, onChange, label }: { value: unknown; onChange: (v: Json) => void; label: string }) {
  const text = JSON.stringify(value);
  const [draft, setDraft] = useState(text);
  const [err, setErr] = useState('');
  useEffect(() => setDraft(text), [text]);
  return (
    <span class="json-field">
      <input
        aria-label={label}
        value={draft}
        onInput={(e) => {
          const t = (e.target as HTMLInputElement).value;
          setDraft(t);
          try {
            onChange(JSON.parse(t));
            setErr('');
          } catch (x) {
            setErr((x as Error).message);
          }
        }}
      />
      {err && <small class="err">{err}</small>}
    </span>
  );
}

/** One side of a move (`from` or `to`) as a form: any square, listed squares, files, ranks, or squares with a marker. */
function SquareFilterForm({ label, value, onChange }: { label: string; value: Json | undefined; onChange: (v: Json | undefined) => void }) {
  const f = readSquareFilter(value);
  const [text, setText] = useState(f.text);
  useEffect(() => setText(f.text), [f.text]);
  const write = (next: SquareForm) => onChange(writeSquareFilter(next));
  return (
    <span class="sqf" data-square-filter={label}>
      <select
        aria-label={`${label}: which squares`}
        value={f.mode}
        disabled={f.mode === 'custom'}
        onChange={(e) => {
          const mode = (e.target as HTMLSelectElement).value as SquareMode;
          const t = mode === 'marker' ? 'frozen-square' : mode === 'squares' ? 'e4' : mode === 'file' ? 'a' : mode === 'rank' ? '1' : '';
          setText(t);
          write({ mode, text: t });
        }}
      >
        <option value="any">any square</option>
        <option value="squares">these squares</option>
        <option value="file">these files</option>
        <option value="rank">these ranks</option>
        <option value="marker">squares with a marker</option>
        {f.mode === 'custom' && <option value="custom">as in the JSON</option>}
      </select>
      {f.mode === 'marker' ? (
        <MarkerKindSelect value={f.text} onChange={(k) => write({ mode: 'marker', text: k })} />
      ) : f.mode === 'squares' || f.mode === 'file' || f.mode === 'rank' ? (
        <input
          aria-label={`${label}: ${f.mode === 'squares' ? 'squares' : f.mode === 'file' ? 'files' : 'ranks'} (separated by spaces)`}
          value={text}
          placeholder={f.mode === 'squares' ? 'e4 d5' : f.mode === 'file' ? 'a h' : '1 8'}
          onInput={(e) => {
            const t = (e.target as HTMLInputElement).value;
            setText(t);
            if (t.trim()) write({ mode: f.mode, text: t });
          }}
        />
      ) : null}
    </span>
  );
}

/** Colours a piece filter's `color` may name (a player: docs/modifiers.md § Values). */
const PIECE_COLOURS: [string, string][] = [
  ['', 'either colour'],
  ['white', 'White pieces'],
  ['black', 'Black pieces'],
  ['mover', 'the mover’s pieces'],
  ['opponent', 'the opponent’s pieces'],
];

/**
 * The `pieces` parameter as a form (session-14 trial: raw JSON): a reference to the event's or a
 * bound piece, or the pieces of some kinds and colour. Other filter keys stay in the JSON below.
 */
function PiecesField({ value, desc, path, onChange }: { value: Json; desc: Descriptor; path: Path; onChange: (v: Json) => void }) {
  const f = readPieces(value);
  const refs = refChoices(desc, f.ref);
  const setFilter = (types: string[], color: string) => {
    const old = value && typeof value === 'object' && !Array.isArray(value) ? value : {};
    const next: { [k: string]: Json } = { ...old };
    if (types.length) next.type = types;
    else delete next.type;
    if (color) next.color = color;
    else delete next.color;
    onChange(next);
  };
  return (
    <div class="pieces-field" data-pieces-field={path}>
      <select
        aria-label="pieces: which"
        value={f.mode}
        disabled={f.mode === 'custom'}
        onChange={(e) => onChange(switchPieces((e.target as HTMLSelectElement).value as PiecesMode))}
      >
        <option value="ref">one piece of the event</option>
        <option value="filter">every piece of these kinds</option>
        {f.mode === 'custom' && <option value="custom">as in the JSON</option>}
      </select>
      {f.mode === 'ref' && (
        <select aria-label="pieces: the piece" value={f.ref} onChange={(e) => onChange((e.target as HTMLSelectElement).value)}>
          {refs.map(([v, words]) => (
            <option value={v}>{v === words ? v : `${words} (${v})`}</option>
          ))}
        </select>
      )}
      {f.mode === 'filter' && (
        <>
          <span class="mf-types" role="group" aria-label="piece kinds (none ticked: any)">
            {STANDARD_TYPES.map((t) => (
              <label class="check">
                <input
                  type="checkbox"
                  data-pieces-type={t}
                  checked={f.types.includes(t)}
                  onChange={() => setFilter(f.types.includes(t) ? f.types.filter((x) => x !== t) : [...f.types, t], f.color)}
                />
                {t}
              </label>
            ))}
          </span>
          <select aria-label="pieces: colour" value={f.color} onChange={(e) => setFilter(f.types, (e.target as HTMLSelectElement).value)}>
            {PIECE_COLOURS.map(([v, l]) => (
              <option value={v}>{l}</option>
            ))}
            {f.color && !PIECE_COLOURS.some(([v]) => v === f.color) && <option value={f.color}>{f.color}</option>}
          </select>
          {f.other.length > 0 && <p class="help" data-json-only>Set in the JSON only: {f.other.join(', ')}.</p>}
        </>
      )}
      <details class="mf-json">
        <summary>JSON</summary>
        <JsonField value={value} label="pieces JSON" onChange={onChange} />
      </details>
    </div>
  );
}

const PLAYER_OPTIONS = [
  ['', 'either'],
  ['white', 'White'],
  ['black', 'Black'],
] as const;

/**
 * The move filter of `forbid-move` / `must-move-if-able` as a form (issue 26 problem 5: it was a raw
 * JSON field): the mover's side, the piece kinds and colour, from and to squares, captures and
 * castling. The JSON stays below (editable): keys the form does not offer are named and kept.
 */
function MoveFilterForm({ kind, value, path, onChange }: { kind: string; value: { [k: string]: Json }; path: Path; onChange: (v: { [k: string]: Json }) => void }) {
  const piece = readPieceFilter(value.piece);
  const set = (k: string, v: Json | undefined) => onChange(withKey(value, k, v));
  const setPiece = (types: string[], color: string) => set('piece', writePieceFilter(value.piece, types, color));
  const jsonOnly = jsonOnlyKeys(value);
  return (
    <div class="move-filter" data-move-filter={path}>
      <p class="help">{kind === 'forbid-move' ? 'Forbid the moves that match all of these:' : 'Make these moves compulsory when one is possible:'}</p>
      <div class="mf-row">
        <label class="key">side</label>
        <select aria-label="side" value={typeof value.side === 'string' ? value.side : ''} disabled={value.side !== undefined && typeof value.side !== 'string'} onChange={(e) => set('side', (e.target as HTMLSelectElement).value || undefined)}>
          {PLAYER_OPTIONS.map(([v, l]) => (
            <option value={v}>{v ? `${l} moves only` : 'either side'}</option>
          ))}
          {typeof value.side === 'string' && !['', 'white', 'black'].includes(value.side) && <option value={value.side}>{value.side}</option>}
        </select>
      </div>
      <div class="mf-row">
        <label class="key">pieces</label>
        <span class="mf-types" role="group" aria-label="piece kinds (none ticked: any)">
          {STANDARD_TYPES.map((t) => (
            <label class="check">
              <input
                type="checkbox"
                data-mf-type={t}
                checked={piece.types.includes(t)}
                onChange={() => setPiece(piece.types.includes(t) ? piece.types.filter((x) => x !== t) : [...piece.types, t], piece.color)}
              />
              {t}
            </label>
          ))}
        </span>
        <select aria-label="piece colour" value={piece.color} onChange={(e) => setPiece(piece.types, (e.target as HTMLSelectElement).value)}>
          {PLAYER_OPTIONS.map(([v, l]) => (
            <option value={v}>{v ? `${l} pieces` : 'either colour'}</option>
          ))}
          {piece.color && !['white', 'black'].includes(piece.color) && <option value={piece.color}>{piece.color}</option>}
        </select>
      </div>
      <div class="mf-row">
        <label class="key">from</label>
        <SquareFilterForm label="from" value={value.from} onChange={(v) => set('from', v)} />
      </div>
      <div class="mf-row">
        <label class="key">to</label>
        <SquareFilterForm label="to" value={value.to} onChange={(v) => set('to', v)} />
      </div>
      <div class="mf-row">
        <label class="key">captures</label>
        <select aria-label="captures" value={readFlag(value.capture)} onChange={(e) => set('capture', writeFlag((e.target as HTMLSelectElement).value))}>
          <option value="">captures and quiet moves</option>
          <option value="true">captures only</option>
          <option value="false">quiet moves only</option>
        </select>
        <label class="key">castling</label>
        <select aria-label="castling" value={readFlag(value.castling)} onChange={(e) => set('castling', writeFlag((e.target as HTMLSelectElement).value))}>
          <option value="">castling or not</option>
          <option value="true">castling only</option>
          <option value="false">not castling</option>
        </select>
      </div>
      {jsonOnly.length > 0 && (
        <p class="help" data-json-only>
          Set in the JSON only: {jsonOnly.join(', ')}.
        </p>
      )}
      <details class="mf-json">
        <summary>JSON</summary>
        <JsonField value={value} label={`${kind} JSON`} onChange={(v) => onChange(v && typeof v === 'object' && !Array.isArray(v) ? v : {})} />
      </details>
    </div>
  );
}

/** The draft kept in this browser (Try it → Back, a reload), else the first template. */
function initialDraft() {
  const d = loadDraft();
  return d ?? { descriptor: templateCopy(TEMPLATES[0]), view: 'visual' as const };
}

export function Editor() {
  const [first] = useState(initialDraft);
  const [desc, setDesc] = useState<Descriptor>(first.descriptor);
  const [view, setView] = useState<'visual' | 'json'>(first.view);
  const [jsonText, setJsonText] = useState(first.jsonText ?? (first.view === 'json' ? JSON.stringify(first.descriptor, null, 2) : ''));
  const [jsonError, setJsonError] = useState('');
  const [findings, setFindings] = useState<Finding[]>([]);
  const [validateError, setValidateError] = useState('');
  const [target, setTarget] = useState<Path>('$.triggers[0].effects');
  const [status, setStatus] = useState('');
  // At phone width the palette starts folded, so the descriptor is in view.
  const [wide] = useState(() => typeof matchMedia !== 'function' || matchMedia('(min-width: 761px)').matches);
  // The saved rules to reopen: the server's (`saved: true`) and this browser's.
  const [saved, setSaved] = useState<SavedRule[]>(() => savedRules([], loadCustomModifiers()));
  // The library's modifier ids, which Save cannot use (POST /api/modifiers: `modifier.id-taken`).
  const [libraryIds, setLibraryIds] = useState<string[]>([]);
  // The saved rules this browser saved or was given (editor/knownRules.ts), and the one an
  // `?open=saved:ID` address names.
  const refreshSaved = (extra: string[] = []) =>
    api.rules(knownRuleIds(extra)).then(
      (r) => {
        setLibraryIds(r.modifiers.filter((m) => !m.saved).map((m) => m.id));
        const list = savedRules(r.modifiers, loadCustomModifiers());
        setSaved(list);
        return list;
      },
      () => savedRules([], loadCustomModifiers()),
    );
  useEffect(() => {
    // `/editor?open=saved:ID` (the lobby's edit link) opens that rule; the address then becomes
    // plain `/editor`, so a reload keeps the edits rather than reopening the saved version.
    const want = openKey(location.search);
    refreshSaved(want?.startsWith('saved:') ? [want.slice(6)] : []).then((list) => {
      if (!want) return;
      const r = list.find((x) => x.key === want);
      if (r) {
        load(r.descriptor);
        setStatus(`Editing the saved rule “${r.name}”: Save writes it again under the id ${r.id}.`);
      } else setStatus(`No saved rule ${want.replace(/^\w+:/, '')} to open.`);
      history.replaceState(null, '', '/editor');
    });
  }, []);
  // Kept at each change, so Try it → Back and a reload find the rule as it was left (issue 26 problem 4).
  useEffect(() => saveDraft({ descriptor: desc, view, ...(view === 'json' ? { jsonText } : {}) }), [desc, view, jsonText]);

  useEffect(() => {
    const t = setTimeout(() => {
      api.validate(desc).then(
        (f) => {
          setFindings(f);
          setValidateError('');
        },
        (e: Error) => setValidateError(e.message),
      );
    }, 250);
    return () => clearTimeout(t);
  }, [desc]);

  const rendered = useMemo(() => fieldPaths(desc), [desc]);
  const idClash = useMemo(() => libraryIdClash(desc.id, libraryIds), [desc.id, libraryIds]);
  // The palette offers only what the list being added to may hold (session-14 trial: it offered
  // cancel-capture in on-move, which the validator then refused).
  const here = useMemo(() => effectContext(desc, target), [desc, target]);
  const warnings = useMemo(() => markerWarnings(desc), [desc]);
  const words = useMemo(() => describeRule(desc), [desc]);
  const owned = useMemo(() => {
    const m = new Map<Path, Finding[]>();
    for (const f of findings) {
      const o = ownerOf(f.path || '$', rendered);
      m.set(o, [...(m.get(o) ?? []), f]);
    }
    return m;
  }, [findings, rendered]);
  const findingsAt = (at: Path) => {
    const fs = owned.get(at);
    if (!fs?.length) return null;
    return (
      <ul class="findings" data-findings-for={at} role="alert">
        {fs.map((f) => (
          <li>
            {f.message} <code>{f.code}</code>
          </li>
        ))}
      </ul>
    );
  };
  const set = (path: Path, v: unknown) => setDesc((d) => setAt(d, path, v));

  const load = (d: Descriptor) => {
    setDesc(structuredClone(d));
    setTarget('$.triggers[0].effects');
    setView('visual');
  };

  const toJson = () => {
    setJsonText(JSON.stringify(desc, null, 2));
    setJsonError('');
    setView('json');
  };
  // The JSON view's text is the descriptor while that view is open: each edit that parses becomes
  // it (validated, saved, tried); a malformed one is reported at its line and column and the view
  // cannot be left, so no edit is lost (session-6 web trial).
  const editJson = (text: string) => {
    setJsonText(text);
    const r = parseDescriptorText(text);
    if ('error' in r) setJsonError(r.error);
    else {
      setJsonError('');
      setStatus('');
      setDesc(r.descriptor);
    }
  };
  const fromJson = () => {
    const r = parseDescriptorText(jsonText);
    if ('error' in r) {
      setJsonError(r.error);
      return;
    }
    setDesc(r.descriptor);
    setView('visual');
  };
  /** The descriptor being edited: the JSON text in the JSON view (null, with the error shown, when malformed). */
  const current = (): Descriptor | null => {
    if (view !== 'json') return desc;
    const r = parseDescriptorText(jsonText);
    if ('error' in r) {
      setJsonError(r.error);
      setStatus(`Not sent: the JSON has an error (${r.error}).`);
      return null;
    }
    return r.descriptor;
  };

  const add = (cat: Category, kind: string) => {
    const node = newNode(cat, kind);
    if (cat === 'Trigger') {
      const n = (desc.triggers ?? []).length;
      set(`$.triggers[${n}]`, node);
      setTarget(`$.triggers[${n}].effects`);
    } else if (isPassiveCategory(cat)) {
      set(`$.passive[${(desc.passive ?? []).length}]`, node);
    } else {
      const list = getAt(desc, target);
      if (!Array.isArray(list)) {
        setStatus('Add a trigger first: effects go into the list marked “adding here”.');
        return;
      }
      set(`${target}[${list.length}]`, node);
    }
    setStatus('');
  };

  const save = async () => {
    const d = current();
    if (!d) return;
    if (findings.length) {
      setStatus('Fix the findings before saving.');
      return;
    }
    try {
      const outcome = await saveOwned(d, api.saveModifier);
      if (!outcome.saved) {
        setStatus(outcome.message);
        return;
      }
      saveCustomModifier({ id: d.id, name: d.name, descriptor: d });
      setStatus(`Saved “${d.name}” to the library.`);
      void refreshSaved();
    } catch (e) {
      setStatus(`Not saved: the server refused it: ${(e as Error).message}`);
    }
  };

  // Try it's seed (session-17 finding: the sandbox had none, so the server drew one and a rule's
  // random outcome could not be played again): empty is a new random seed each time; the seed used
  // is shown in the sandbox's rules panel and kept here, so typing it back replays the draw.
  const [trySeed, setTrySeed] = useState('');
  const [lastSeed, setLastSeed] = useState<number | null>(() => {
    const v = Number(localStorage.getItem(LAST_SEED_KEY) ?? 'NaN');
    return Number.isInteger(v) && v >= 0 ? v : null;
  });
  const tryIt = async () => {
    const d = current();
    if (!d) return;
    const seed = seedOf(trySeed);
    if (seed instanceof Error) {
      setStatus(`Not started: ${seed.message}.`);
      return;
    }
    setLastSeed(seed);
    try {
      localStorage.setItem(LAST_SEED_KEY, String(seed));
    } catch {
      /* storage off: the seed is still in the sandbox's rules panel */
    }
    try {
      const g = await api.createGame({ modifiers: [d], seed, choiceTimeout: { mode: 'no-timeout' }, white: SANDBOX_PLAYER, black: SANDBOX_PLAYER });
      location.assign(sandboxUrl(g));
    } catch (e) {
      setStatus(`Could not start the sandbox: ${(e as Error).message}`);
    }
  };

  const param = (node: Node, path: Path, key: string, value: Json): JSX.Element => {
    const p = `${path}.params.${key}`;
    const r = rendererFor(node.kind, key, value);
    let field: JSX.Element;
    if ((BODY_KEYS as readonly string[]).includes(key) && Array.isArray(value)) {
      field = nodeList(value as unknown as Node[], p);
    } else if (r === 'square') field = <SquarePicker value={String(value)} onChange={(v) => set(p, v)} />;
    else if (r === 'piece') field = <PiecePicker value={String(value)} onChange={(v) => set(p, v)} />;
    else if (r === 'marker-kind') field = <MarkerKindSelect value={String(value)} onChange={(v) => set(p, v)} />;
    else if (r === 'lifetime') field = <LifetimeEditor value={value} onChange={(v) => set(p, v)} />;
    else if (key === 'pieces') field = <PiecesField value={value} desc={desc} path={p} onChange={(v) => set(p, v)} />;
    else field = <JsonField value={value} label={key} onChange={(v) => set(p, v)} />;
    return (
      <div class="param" data-path={p}>
        <label class="key">{key}</label>
        {field}
        {findingsAt(p)}
      </div>
    );
  };

  const nodeCard = (node: Node, path: Path) => (
    <div class="node" data-path={path} data-kind={node.kind}>
      <div class="node-head">
        <b>{node.kind}</b>
        <button type="button" class="small" aria-label={`remove ${node.kind}`} onClick={() => set(path, undefined)}>✕</button>
      </div>
      {findingsAt(path)}
      {findingsAt(`${path}.kind`)}
      {warnings
        .filter((w) => w.paths.includes(path))
        .map((w) => (
          <p class="findings warn" data-marker-warning-at={path}>
            Nothing in this rule reads {w.kind} markers: see the warning under Validator.
          </p>
        ))}
      {node.kind === 'forbid-move' || node.kind === 'must-move-if-able' ? (
        <>
          <MoveFilterForm kind={node.kind} path={path} value={node.params ?? {}} onChange={(v) => set(`${path}.params`, v)} />
          {Object.keys(node.params ?? {}).map((k) => findingsAt(`${path}.params.${k}`))}
        </>
      ) : (
        Object.entries(node.params ?? {}).map(([k, v]) => param(node, path, k, v))
      )}
      {node.effects && (
        <div class="param" data-path={`${path}.effects`}>
          <label class="key">effects</label>
          {nodeList(node.effects, `${path}.effects`)}
        </div>
      )}
    </div>
  );

  const nodeList = (nodes: Node[], path: Path): JSX.Element => (
    <div class={`node-list${target === path ? ' target' : ''}`}>
      {nodes.map((n, i) => (
        nodeCard(n, `${path}[${i}]`)
      ))}
      {!path.endsWith('triggers') && !path.endsWith('passive') && (
        <button type="button" class="small target-btn" onClick={() => setTarget(path)} aria-pressed={target === path}>
          {target === path ? 'adding here' : 'add here'}
        </button>
      )}
    </div>
  );

  return (
    <main class="editor">
      <div class="toolbar">
        <span>Templates:</span>
        {TEMPLATES.map((t) => (
          <button type="button" data-template={t.id} onClick={() => load(templateCopy(t))} title={`${t.description ?? ''} (opens a copy with an id of its own, ${t.id}-custom)`.trim()}>{t.name}</button>
        ))}
        <button type="button" onClick={() => load(blankDescriptor())}>New</button>
        <span class="spacer" />
        {view === 'visual' ? (
          <button type="button" onClick={toJson}>JSON view</button>
        ) : (
          <button type="button" onClick={fromJson}>Visual view</button>
        )}
        <button type="button" onClick={save}>Save</button>
        <label class="try-seed" for="try-seed" title="The seed of the rule's random outcomes in the sandbox: empty for a new random one each time; type a seed shown in a sandbox's rules panel to play the same draws again">
          Seed{' '}
          <input id="try-seed" data-try-seed type="text" inputMode="numeric" size={11} placeholder={lastSeed === null ? 'random' : `random (last ${lastSeed})`} value={trySeed} onInput={(e) => setTrySeed((e.target as HTMLInputElement).value)} />
        </label>
        {lastSeed !== null && trySeed.trim() !== String(lastSeed) && (
          <button type="button" data-reuse-seed onClick={() => setTrySeed(String(lastSeed))} title="Play the last sandbox's random outcomes again">
            Same seed
          </button>
        )}
        <button type="button" class="primary" onClick={tryIt}>Try it</button>
        {saved.length > 0 && (
          <label class="saved-rules">
            Saved rules:{' '}
            <select
              aria-label="Open a saved rule"
              data-saved-rules
              value=""
              onChange={(e) => {
                const r = saved.find((x) => x.key === (e.target as HTMLSelectElement).value);
                if (!r) return;
                load(r.descriptor);
                setStatus(`Editing the saved rule “${r.name}”: Save writes it again under the id ${r.id}.`);
              }}
            >
              <option value="">open…</option>
              {saved.map((r) => (
                <option value={r.key}>
                  {r.name} ({r.id}{r.where === 'browser' ? ', this browser only' : ''})
                </option>
              ))}
            </select>
          </label>
        )}
      </div>
      {status && <p class="notice info" role="status">{status}</p>}
      <div class="editor-body">
        <nav class="palette" aria-label="Palette">
          {here.trigger && (
            <p class="help palette-target" data-palette-target={here.trigger}>
              Adding to {here.trigger}
              {here.inIteration ? ', inside for-each' : ''}
              {here.inDraw ? ', inside a random draw' : ''}: what it cannot hold is greyed out.
            </p>
          )}
          {(Object.keys(PALETTE) as Category[]).map((cat) => (
            <details open={wide && (cat === 'Trigger' || cat === 'Imperative')} data-category={cat}>
              <summary>{cat}</summary>
              {PALETTE[cat].map((k) => {
                const why = notAllowedHere(cat, k, here);
                return (
                  <button type="button" class="small" data-palette={`${cat}:${k}`} disabled={!!why} title={why ?? undefined} onClick={() => add(cat, k)}>
                    {k}
                  </button>
                );
              })}
            </details>
          ))}
        </nav>
        {view === 'json' ? (
          <section class="json-view">
            <textarea aria-label="Descriptor JSON" aria-invalid={jsonError ? 'true' : undefined} aria-describedby="json-error" value={jsonText} onInput={(e) => editJson((e.target as HTMLTextAreaElement).value)} spellcheck={false} />
            {jsonError && <p id="json-error" class="notice error" data-json-error="true" role="alert">{jsonError}</p>}
          </section>
        ) : (
          <section class="tree">
            {findingsAt("$")}
            <div class="header-fields">
              {(['id', 'name', 'description'] as const).map((k) => (
                <div class="param" data-path={`$.${k}`}>
                  <label class="key" for={`f-${k}`}>{k}</label>
                  {k === 'description' ? (
                    // a sentence or two: shown whole, never cut at the field's edge
                    <textarea id={`f-${k}`} rows={2} value={String(desc[k] ?? '')} onInput={(e) => set(`$.${k}`, (e.target as HTMLTextAreaElement).value)} />
                  ) : (
                    <input id={`f-${k}`} value={String(desc[k] ?? '')} onInput={(e) => set(`$.${k}`, (e.target as HTMLInputElement).value)} />
                  )}
                  {findingsAt(`$.${k}`)}
                  {k === 'id' && idClash && (
                    <p class="findings warn" data-id-clash role="alert">
                      {idClash}{' '}
                      <button type="button" class="small" data-fix-id onClick={() => set('$.id', `${desc.id}-custom`.slice(0, 64))}>
                        Use {`${desc.id}-custom`.slice(0, 64)}
                      </button>
                    </p>
                  )}
                </div>
              ))}
            </div>
            <h3>Parameters</h3>
            {(desc.parameters ?? []).map((p, i) => {
              const path = `$.parameters[${i}]`;
              const r = rendererForType(p.type);
              const dv = p.default ?? null;
              const onChange = (v: Json) => set(`${path}.default`, v);
              return (
                <div class="param" data-path={`${path}.default`}>
                  <label class="key">
                    {p.name} <small>({p.type})</small>
                  </label>
                  {r === 'square' ? (
                    <SquarePicker value={String(dv)} onChange={onChange} />
                  ) : r === 'piece' ? (
                    <PiecePicker value={String(dv)} onChange={onChange} />
                  ) : r === 'marker-kind' ? (
                    <MarkerKindSelect value={String(dv)} onChange={onChange} />
                  ) : (
                    <JsonField value={dv} label={p.name} onChange={onChange} />
                  )}
                  {p.description && <small class="help">{p.description}</small>}
                  {findingsAt(path)}
                  {findingsAt(`${path}.default`)}
                </div>
              );
            })}
            <h3>Passive</h3>
            {nodeList(desc.passive ?? [], '$.passive')}
            <h3>Triggers</h3>
            {nodeList(desc.triggers ?? [], '$.triggers')}
          </section>
        )}
        <aside class="all-findings" aria-live="polite">
          <h3>Validator</h3>
          {view === 'json' && jsonError ? (
            <p class="notice error" data-valid="false">{jsonError}</p>
          ) : validateError ? (
            <p class="notice error">{validateError}</p>
          ) : findings.length === 0 ? (
            <p class="ok" data-valid="true">No findings: the descriptor is valid.{warnings.length || idClash ? ' But see the warning below.' : ''}</p>
          ) : (
            <ul>
              {findings.map((f) => (
                <li>
                  <code>{f.path}</code> {f.message}
                </li>
              ))}
            </ul>
          )}
          {idClash && (
            <div class="notice warning" data-id-clash-warning>
              <p>Its id is a library modifier’s: Save needs an id of its own (see the id field).</p>
            </div>
          )}
          {warnings.map((w) => (
            <div class="notice warning" data-marker-warning={w.kind} role="alert">
              <p>{w.message}</p>
              {w.fix && (
                <button type="button" class="small" data-fix-marker={w.kind} onClick={() => setDesc((d) => applyFix(d, w.fix!))}>
                  {w.fix.label}
                </button>
              )}
            </div>
          ))}
          <h3>What it does</h3>
          <ul class="rule-words" data-rule-words>
            {words.length ? words.map((l) => <li>{l}</li>) : <li>Nothing yet: add a trigger or a passive rule from the palette.</li>}
          </ul>
        </aside>
      </div>
    </main>
  );
}
