"""Random playouts by Fairy-Stockfish, shared by the reference generators.

Used by crates/definitions/tests/data/make_fsf_reference.py (shipped games)
and crates/presets/tests/data/make_fsf_reference.py (presets). Both write
one JSON object per playout; the fields `plies` and `final` are built here
(see the generators' docstrings for their meaning). pyffish 0.0.90
(GPL-3.0) is a test-time tool only.
"""

import json
import sys

import pyffish as sf

assert sf.version() == (0, 0, 90), f"expected pyffish 0.0.90, got {sf.version()}"

MAX_PLIES = 1000


def digest(moves):
    """FNV-1a 32-bit hash of the moves joined by one space (8 hex digits)."""
    h = 0x811C9DC5
    for b in " ".join(moves).encode():
        h ^= b
        h = (h * 0x01000193) & 0xFFFFFFFF
    return f"{h:08x}"


def chess960_start(n):
    """Start position number n (0-959) by Scharnagl's numbering."""
    rank = [None] * 8
    n, b1 = divmod(n, 4)
    rank[2 * b1 + 1] = "B"
    n, b2 = divmod(n, 4)
    rank[2 * b2] = "B"
    n, q = divmod(n, 6)
    free = [i for i in range(8) if rank[i] is None]
    rank[free[q]] = "Q"
    knights = [(0, 1), (0, 2), (0, 3), (0, 4), (1, 2), (1, 3), (1, 4), (2, 3), (2, 4), (3, 4)][n]
    free = [i for i in range(8) if rank[i] is None]
    for k in knights:
        rank[free[k]] = "N"
    free = [i for i in range(8) if rank[i] is None]
    for i, p in zip(free, "RKR"):
        rank[i] = p
    white = "".join(rank)
    files = "abcdefgh"
    rooks = [files[i] for i, p in enumerate(rank) if p == "R"]
    castling = rooks[1].upper() + rooks[0].upper() + rooks[1] + rooks[0]
    return f"{white.lower()}/pppppppp/8/8/8/8/PPPPPPPP/{white} w {castling} - 0 1"


def play(variant, start, is960, rng, ends, dump=False):
    """Plays random legal moves (chosen by `rng`) from `start` until the
    game ends; returns (plies, final).

    `ends(base, since, legal)` names a rule-specific end of the position
    (`base` + the moves `since`) as (end, value), or (None, None); the
    common ends follow it: fifty-move, threefold, insufficient-material
    and ply-cap (MAX_PLIES).
    """
    # Fairy-Stockfish is asked about `base` + `since`: the position before
    # the last irreversible move and the moves from there (repetitions
    # cannot reach further back), which keeps a playout linear in time.
    base, since = start, []
    plies = []
    while True:
        legal = sorted(sf.legal_moves(variant, base, since, is960))
        fen = sf.get_fen(variant, base, since, is960)
        if dump:
            print(len(plies), fen, " ".join(legal))
        end, value = ends(base, since, legal)
        if end is not None:
            pass
        elif sf.is_optional_game_end(variant, base, since, is960)[0]:
            end = "fifty-move" if int(fen.split()[-2]) >= 100 else "threefold"
        elif sf.has_insufficient_material(variant, base, since, is960) == (True, True):
            end = "insufficient-material"
        elif len(plies) >= MAX_PLIES:
            end = "ply-cap"
        if end is not None:
            final = {"fen": fen, "count": len(legal), "digest": digest(legal), "end": end, "value": value}
            return plies, final
        m = rng.choice(legal)
        plies.append(f"{m} {len(legal)} {digest(legal)}")
        after = sf.get_fen(variant, base, since + [m], is960)
        if int(after.split()[-2]) == 0:
            base, since = fen, [m]
        else:
            since.append(m)


def in_check(variant, base, since, is960):
    """Whether the side to move is in check (false at the start position,
    as the generators have always judged it)."""
    return bool(since) and sf.gives_check(variant, base, since, is960)


def write_playouts(out, name, positions, make):
    """Writes playouts `make(0)`, `make(1)`, … as JSON lines to `out` until
    they hold `positions` positions; reports the ends on stderr."""
    total, index, ends = 0, 0, {}
    while total < positions:
        p = make(index)
        out.write(json.dumps(p, separators=(",", ":")) + "\n")
        total += len(p["plies"]) + 1
        ends[p["final"]["end"]] = ends.get(p["final"]["end"], 0) + 1
        index += 1
    print(f"{name}: {index} playouts, {total} positions, {ends}", file=sys.stderr)
