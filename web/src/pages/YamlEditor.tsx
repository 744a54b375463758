/**
 * The YAML game editor: diagnostics at line and column as you type (POST /api/validate), and a
 * preview board of the start position whose legal moves show on click.
 */
import { useEffect, useMemo, useState } from 'preact/hooks';
import { Board } from '../board/Board';
import { boardShape } from '../chess';
import { api, type Finding, type PieceOut } from '../protocol';
import gardner from '../../../crates/definitions/games/gardner.yaml?raw';

const TYPES: Record<string, string> = { p: 'pawn', n: 'knight', b: 'bishop', r: 'rook', q: 'queen', k: 'king' };

/** Pieces from a FEN's letters (standard letters by name, others by their letter). */
export function piecesFromFen(fen: string): PieceOut[] {
  const { letters } = boardShape(fen);
  let id = 0;
  return [...letters.entries()].map(([square, ch]) => ({
    id: id++,
    square,
    type: TYPES[ch.toLowerCase()] ?? ch.toLowerCase(),
    color: ch === ch.toUpperCase() ? 'white' : 'black',
    attrs: {},
    baseAttrs: {},
  }));
}

/**
 * The starting sample: Gardner minichess as shipped (crates/definitions/games/gardner.yaml), a
 * valid game with a preview (session-6 web trial: the sample used `files`/`ranks` keys, which the
 * game format does not have, so it opened with diagnostics).
 */
export const SAMPLE = `# A game definition (docs/game-format.md): edit it; diagnostics and the preview follow.\n${gardner}`;
/** The earlier, invalid sample: a text still stored from it is replaced by the new one. */
const OLD_SAMPLE = `# A game definition (docs/game-format.md)
name: Mini
board: { files: 6, ranks: 6 }
`;

export function YamlEditor() {
  const [text, setText] = useState(() => {
    const stored = localStorage.getItem('houserules.yaml');
    return stored === null || stored === OLD_SAMPLE ? SAMPLE : stored;
  });
  const [findings, setFindings] = useState<Finding[]>([]);
  const [preview, setPreview] = useState<{ fen: string; legalMoves: string[] } | null>(null);
  /** The preview is of an earlier text: the current one has diagnostics. */
  const [stale, setStale] = useState(false);
  const [error, setError] = useState('');

  useEffect(() => {
    localStorage.setItem('houserules.yaml', text);
    const t = setTimeout(() => {
      api.validateYaml(text).then(
        (r) => {
          setFindings(r.findings);
          if (r.preview) setPreview(r.preview);
          setStale(!r.preview);
          setError('');
        },
        (e: Error) => setError(e.message),
      );
    }, 300);
    return () => clearTimeout(t);
  }, [text]);

  const pieces = useMemo(() => {
    try {
      return preview ? piecesFromFen(preview.fen) : [];
    } catch {
      return [];
    }
  }, [preview?.fen]);

  return (
    <main class="yaml-editor">
      <section>
        <h2>Game definition (YAML)</h2>
        <textarea aria-label="Game YAML" spellcheck={false} value={text} onInput={(e) => setText((e.target as HTMLTextAreaElement).value)} />
        {error && <p class="notice error">{error}</p>}
        <ul class="diagnostics" aria-live="polite">
          {findings.map((f) => (
            <li data-line={f.line}>
              {f.line !== undefined ? `line ${f.line}, column ${f.column ?? 1}: ` : f.path ? `${f.path}: ` : ''}
              {f.message} <code>{f.code}</code>
              {/* The server's hint ("did you mean `width`?"), beside its diagnostic. */}
              {f.help && <small class="help" data-help="true">{f.help}</small>}
            </li>
          ))}
          {!error && findings.length === 0 && <li class="ok">No diagnostics.</li>}
        </ul>
      </section>
      <section>
        <h2>Start position</h2>
        {preview && stale && <p class="notice warning">The definition has diagnostics: this is the last valid version.</p>}
        {preview ? (
          <Board fen={preview.fen} pieces={pieces} legalMoves={preview.legalMoves} movable={true} label="Preview of the start position" />
        ) : (
          <p>The preview appears when the definition is valid.</p>
        )}
      </section>
    </main>
  );
}
