/**
 * Marker icons: one distinct drawing and tint per kind (modifier-dsl-decisions § Marker Collision
 * Priority; `ward` from modifier-rulings D1), and the legend listing them in priority order.
 */
import { MARKER_PRIORITY, type MarkerKind } from '../protocol';

export const MARKER_STYLE: Record<MarkerKind, { tint: string; label: string }> = {
  'portal-end': { tint: '#8e44ad', label: 'Portal end' },
  'frozen-square': { tint: '#5dade2', label: 'Frozen square' },
  mine: { tint: '#c0392b', label: 'Mine' },
  pit: { tint: '#5d4037', label: 'Pit' },
  'death-square': { tint: '#212121', label: 'Death square' },
  tornado: { tint: '#7f8c8d', label: 'Tornado' },
  treasure: { tint: '#d4ac0d', label: 'Treasure' },
  blocked: { tint: '#e67e22', label: 'Blocked' },
  ward: { tint: '#27ae60', label: 'Ward' },
};

/** The icon of a marker kind in a 100×100 box. */
export function MarkerIcon({ kind }: { kind: MarkerKind }) {
  const c = MARKER_STYLE[kind]?.tint ?? '#000';
  switch (kind) {
    case 'portal-end':
      return (
        <g fill="none" stroke={c} stroke-width="9">
          <ellipse cx="50" cy="50" rx="36" ry="40" />
          <ellipse cx="50" cy="50" rx="18" ry="22" />
        </g>
      );
    case 'frozen-square':
      return (
        <g stroke={c} stroke-width="8" stroke-linecap="round">
          <path d="M50 10v80M15 30l70 40M15 70l70-40M40 14l10 10 10-10M40 86l10-10 10 10" fill="none" />
        </g>
      );
    case 'mine':
      return (
        <g fill={c} stroke={c}>
          <circle cx="50" cy="54" r="24" />
          <path d="M50 14v16M50 78v12M14 54h12M74 54h12M24 28l10 10M76 28l-10 10M24 80l10-10M76 80l-10-10" stroke-width="8" stroke-linecap="round" />
        </g>
      );
    case 'pit':
      return (
        <g>
          <ellipse cx="50" cy="56" rx="40" ry="26" fill={c} />
          <ellipse cx="50" cy="60" rx="26" ry="14" fill="#000" />
        </g>
      );
    case 'death-square':
      return (
        <g fill={c}>
          <path d="M50 10c-22 0-34 14-34 32 0 12 6 20 14 24v16h40V66c8-4 14-12 14-24 0-18-12-32-34-32z" />
          <circle cx="37" cy="44" r="9" fill="#fff" />
          <circle cx="63" cy="44" r="9" fill="#fff" />
          <path d="M42 74v10M50 74v10M58 74v10" stroke="#fff" stroke-width="4" />
        </g>
      );
    case 'tornado':
      return (
        <path d="M12 16h76M20 32h60M28 48h44M36 64h28M44 80h12" stroke={c} stroke-width="10" stroke-linecap="round" fill="none" />
      );
    case 'treasure':
      return (
        <g stroke="#6e4b00" stroke-width="5" stroke-linejoin="round">
          <path d="M14 44c0-16 14-24 36-24s36 8 36 24z" fill={c} />
          <rect x="14" y="44" width="72" height="38" fill={c} />
          <rect x="42" y="40" width="16" height="18" fill="#6e4b00" />
        </g>
      );
    case 'blocked':
      return (
        <g fill="none" stroke={c} stroke-width="11">
          <circle cx="50" cy="50" r="36" />
          <path d="M25 25l50 50" />
        </g>
      );
    case 'ward':
      return <path d="M50 8l36 14v26c0 22-16 38-36 46-20-8-36-24-36-46V22z" fill={c} stroke="#145a32" stroke-width="5" />;
  }
}

/**
 * The kinds the legend lists: those present on the board, in collision priority order (session-6
 * web trial: it listed all nine kinds whatever the board held).
 */
export function legendKinds(present: Iterable<string>): MarkerKind[] {
  const have = new Set(present);
  return MARKER_PRIORITY.filter((k) => have.has(k));
}

/** The legend: the marker kinds on the board with their icons, in collision priority order (first fires first); nothing when there are none. */
export function MarkerLegend({ present }: { present: Iterable<string> }) {
  const kinds = legendKinds(present);
  if (!kinds.length) return null;
  return (
    <ol class="legend" aria-label="Marker legend, in collision priority order">
      {kinds.map((k) => (
        <li key={k} data-legend={k}>
          <svg viewBox="0 0 100 100" width="18" height="18" aria-hidden="true">
            <MarkerIcon kind={k} />
          </svg>
          <span>{MARKER_STYLE[k].label}</span>
        </li>
      ))}
    </ol>
  );
}
