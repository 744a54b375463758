#!/usr/bin/env python3
"""Reference random playouts of the shipped games, played by Fairy-Stockfish.

Writes fsf_reference.jsonl next to this script: one JSON object per playout,
which the Rust test `tests/fsf_differential.rs` replays through houserules.

Provenance: every value comes from Fairy-Stockfish through its Python
binding pyffish (GPL-3.0; used here as a test-time tool only, nothing of it
is linked into houserules). Moves are chosen with Python's `random.Random`
seeded per game and playout, so the file is reproducible:

    python3 -m venv /tmp/ffvenv && /tmp/ffvenv/bin/pip install pyffish==0.0.90
    /tmp/ffvenv/bin/python crates/definitions/tests/data/make_fsf_reference.py

Debug one playout (prints every ply with Fairy-Stockfish's FEN and its
sorted legal moves):

    /tmp/ffvenv/bin/python crates/definitions/tests/data/make_fsf_reference.py --dump GAME PLAYOUT

Fields of a line:

  game      shipped game id (houserules)
  variant   the Fairy-Stockfish variant played (see GAMES)
  chess960  whether Fairy-Stockfish played in Chess960 mode
  playout   0-based index within the game (its seed is f"{game}/{playout}")
  start     start FEN, in Fairy-Stockfish's notation
  plies     one entry per position before a move: "MOVE COUNT DIGEST", where
            MOVE is the UCI move played from it, COUNT the number of legal
            moves and DIGEST the FNV-1a 32-bit hash (8 lower-case hex digits)
            of the legal moves, sorted as byte strings, joined by one space
  final     the position where the playout stopped:
            fen      Fairy-Stockfish's FEN of it
            count, digest  its legal moves, as above
            end      why the playout stopped, the first that applies:
                     "checkmate"   no legal move, in check, game_result < 0
                     "stalemate"   no legal move, not in check (value: game_result)
                     "fifty-move"  is_optional_game_end with halfmove clock >= 100
                     "threefold"   is_optional_game_end otherwise (repetition)
                     "insufficient-material"  has_insufficient_material is
                                   true for both sides
                     "ply-cap"     MAX_PLIES reached, game goes on
            value    game_result (side to move's view: -32000 lost, 0 draw)
                     for checkmate and stalemate, else null

Every intermediate position was none of these (not terminal, no claim, not
insufficient for both sides), so the replay also checks that houserules
does not end the game early.

Notation conventions of Fairy-Stockfish (UCI): castling is king to its
destination square (e1g1; Capablanca f1i1), in Chess960 mode king takes
rook (e1h1); promotions append the piece letter in lower case (e7e8q);
ranks 10 and up are written with two digits (a9a10). Grand chess writes a
non-promoting move to ranks 8-9 without a letter.
"""

import json
import os
import random
import sys

import pyffish as sf

assert sf.version() == (0, 0, 90), f"expected pyffish 0.0.90, got {sf.version()}"

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "fsf_reference.jsonl")

# Colorbound Clobberers: not built into Fairy-Stockfish; this configuration
# matches crates/definitions/games/clobberers.yaml (see tests/perft.rs).
CLOBBERERS_INI = """
[clobberers:chess]
knight = -
bishop = -
rook = -
queen = -
customPiece1 = d:BD
customPiece2 = w:WA
customPiece3 = a:FAD
customPiece4 = c:BN
startFen = dwackawd/pppppppp/8/8/8/8/PPPPPPPP/DWACKAWD w KQkq - 0 1
promotionPieceTypes = dwac
castlingRookPiece = d
"""

# (houserules game id, Fairy-Stockfish variant, Chess960 mode)
GAMES = [
    ("chess", "chess", False),
    ("chess960", "chess", True),
    ("capablanca", "capablanca", False),
    ("gardner", "gardner", False),
    ("los-alamos", "losalamos", False),
    ("berolina", "berolina", False),
    ("grand", "grand", False),
    ("knightmate-classic", "knightmate", False),
    ("clobberers", "clobberers", False),
]

# Positions recorded per game (playouts are added until this many).
POSITIONS_PER_GAME = 5000
MAX_PLIES = 1000


def digest(moves):
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


def start_fen(game, variant, rng):
    if game == "chess960":
        return chess960_start(rng.randrange(960))
    return sf.start_fen(variant)


def playout(game, variant, is960, index, dump=False):
    rng = random.Random(f"{game}/{index}")
    start = start_fen(game, variant, rng)
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
        end, value = None, None
        if not legal:
            value = sf.game_result(variant, base, since, is960)
            in_check = bool(since) and sf.gives_check(variant, base, since, is960)
            end = "checkmate" if in_check and value < 0 else "stalemate"
        elif sf.is_optional_game_end(variant, base, since, is960)[0]:
            end = "fifty-move" if int(fen.split()[-2]) >= 100 else "threefold"
        elif sf.has_insufficient_material(variant, base, since, is960) == (True, True):
            end = "insufficient-material"
        elif len(plies) >= MAX_PLIES:
            end = "ply-cap"
        if end is not None:
            final = {"fen": fen, "count": len(legal), "digest": digest(legal), "end": end, "value": value}
            break
        m = rng.choice(legal)
        plies.append(f"{m} {len(legal)} {digest(legal)}")
        after = sf.get_fen(variant, base, since + [m], is960)
        if int(after.split()[-2]) == 0:
            base, since = fen, [m]
        else:
            since.append(m)
    return {
        "game": game,
        "variant": variant,
        "chess960": is960,
        "playout": index,
        "start": start,
        "plies": plies,
        "final": final,
    }


def main():
    sf.load_variant_config(CLOBBERERS_INI)
    if len(sys.argv) == 4 and sys.argv[1] == "--dump":
        game = sys.argv[2]
        for g, v, is960 in GAMES:
            if g == game:
                print(json.dumps(playout(g, v, is960, int(sys.argv[3]), dump=True)["final"]))
                return
        sys.exit(f"unknown game {game}")
    with open(OUT, "w") as out:
        for game, variant, is960 in GAMES:
            total, index, ends = 0, 0, {}
            while total < POSITIONS_PER_GAME:
                p = playout(game, variant, is960, index)
                out.write(json.dumps(p, separators=(",", ":")) + "\n")
                total += len(p["plies"]) + 1
                ends[p["final"]["end"]] = ends.get(p["final"]["end"], 0) + 1
                index += 1
            print(f"{game}: {index} playouts, {total} positions, {ends}", file=sys.stderr)


if __name__ == "__main__":
    main()
