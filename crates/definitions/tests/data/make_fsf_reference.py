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

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "..", "scripts"))
import fsf_playout as fp  # noqa: E402  (shared with the presets generator)
import pyffish as sf  # noqa: E402

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


def start_fen(game, variant, rng):
    if game == "chess960":
        return fp.chess960_start(rng.randrange(960))
    return sf.start_fen(variant)


def playout(game, variant, is960, index, dump=False):
    rng = random.Random(f"{game}/{index}")
    start = start_fen(game, variant, rng)

    def ends(base, since, legal):
        if legal:
            return None, None
        value = sf.game_result(variant, base, since, is960)
        mate = fp.in_check(variant, base, since, is960) and value < 0
        return ("checkmate" if mate else "stalemate"), value

    plies, final = fp.play(variant, start, is960, rng, ends, dump)
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
            fp.write_playouts(out, game, POSITIONS_PER_GAME, lambda i: playout(game, variant, is960, i))

if __name__ == "__main__":
    main()
