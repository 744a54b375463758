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
  fieldPaths,
  getAt,
  isPassiveCategory,
  newNode,
  ownerOf,
  parseDescriptorText,
  PALETTE,
  rendererFor,
  rendererForType,
  setAt,
  TEMPLATES,
  type Category,
  type Descriptor,
  type Json,
  type Node,
  type Path,
} from '../editor/model';
import { saveCustomModifier } from './customModifiers';
import { SANDBOX_PLAYER, sandboxUrl } from './liveGames';

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

export function Editor() {
  const [desc, setDesc] = useState<Descriptor>(() => structuredClone(TEMPLATES[0]));
  const [view, setView] = useState<'visual' | 'json'>('visual');
  const [jsonText, setJsonText] = useState('');
  const [jsonError, setJsonError] = useState('');
  const [findings, setFindings] = useState<Finding[]>([]);
  const [validateError, setValidateError] = useState('');
  const [target, setTarget] = useState<Path>('$.triggers[0].effects');
  const [status, setStatus] = useState('');
  // At phone width the palette starts folded, so the descriptor is in view.
  const [wide] = useState(() => typeof matchMedia !== 'function' || matchMedia('(min-width: 761px)').matches);

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
      await api.saveModifier(d);
      saveCustomModifier({ id: d.id, name: d.name, descriptor: d });
      setStatus(`Saved “${d.name}” to the library.`);
    } catch (e) {
      setStatus(`Not saved: the server refused it: ${(e as Error).message}`);
    }
  };

  const tryIt = async () => {
    const d = current();
    if (!d) return;
    try {
      const g = await api.createGame({ modifiers: [d], choiceTimeout: { mode: 'no-timeout' }, white: SANDBOX_PLAYER, black: SANDBOX_PLAYER });
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
      {Object.entries(node.params ?? {}).map(([k, v]) => param(node, path, k, v))}
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
          <button type="button" data-template={t.id} onClick={() => load(t)} title={t.description}>{t.name}</button>
        ))}
        <button type="button" onClick={() => load(blankDescriptor())}>New</button>
        <span class="spacer" />
        {view === 'visual' ? (
          <button type="button" onClick={toJson}>JSON view</button>
        ) : (
          <button type="button" onClick={fromJson}>Visual view</button>
        )}
        <button type="button" onClick={save}>Save</button>
        <button type="button" class="primary" onClick={tryIt}>Try it</button>
      </div>
      {status && <p class="notice info" role="status">{status}</p>}
      <div class="editor-body">
        <nav class="palette" aria-label="Palette">
          {(Object.keys(PALETTE) as Category[]).map((cat) => (
            <details open={wide && (cat === 'Trigger' || cat === 'Imperative')} data-category={cat}>
              <summary>{cat}</summary>
              {PALETTE[cat].map((k) => (
                <button type="button" class="small" data-palette={`${cat}:${k}`} onClick={() => add(cat, k)}>{k}</button>
              ))}
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
            <p class="ok" data-valid="true">No findings: the descriptor is valid.</p>
          ) : (
            <ul>
              {findings.map((f) => (
                <li>
                  <code>{f.path}</code> {f.message}
                </li>
              ))}
            </ul>
          )}
        </aside>
      </div>
    </main>
  );
}
