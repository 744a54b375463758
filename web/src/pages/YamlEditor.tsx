/**
 * The YAML game editor: diagnostics at line and column as you type (POST /api/validate), and a
 * preview board of the start position whose legal moves show on click.
 */
import { useEffect, useMemo, useState } from 'preact/hooks';
import { Board } from '../board/Board';
import { boardShape } from '../chess';
import { api, type Finding, type PieceOut } from '../protocol';
import { SANDBOX_PLAYER, sandboxUrl } from './liveGames';
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
  /** The text the server last found valid (it answered a preview for it), to play it. */
  const [validText, setValidText] = useState<string | null>(null);
  const [starting, setStarting] = useState(false);
  const [playError, setPlayError] = useState('');

  useEffect(() => {
    localStorage.setItem('houserules.yaml', text);
    const t = setTimeout(() => {
      api.validateYaml(text).then(
        (r) => {
          setFindings(r.findings);
          if (r.preview) setPreview(r.preview);
          setStale(!r.preview);
          setValidText(r.preview && r.findings.length === 0 ? text : null);
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

  // "Play this game" (session-7 web trial: an edited game could not be played): a sandbox game
  // whose `game` is this YAML text, opened as both seats, as the modifier editor's "Try it".
  const canPlay = validText === text && !starting;
  const play = async () => {
    if (!canPlay) return;
    setStarting(true);
    setPlayError('');
    try {
      const g = await api.createGame({ game: text, choiceTimeout: { mode: 'no-timeout' }, white: SANDBOX_PLAYER, black: SANDBOX_PLAYER });
      location.assign(sandboxUrl(g, 'yaml'));
    } catch (e) {
      setPlayError(`Could not start the game: ${(e as Error).message}`);
      setStarting(false);
    }
  };

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
        <p class="actions">
          <button type="button" class="primary" data-play-yaml disabled={!canPlay} aria-busy={starting} onClick={play} title={canPlay ? 'A sandbox game of this definition: you play both sides' : 'Enabled when the definition is valid'}>
            {starting ? 'Starting…' : 'Play this game'}
          </button>
        </p>
        {playError && <p class="notice error" role="alert">{playError}</p>}
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
