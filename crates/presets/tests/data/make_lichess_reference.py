#!/usr/bin/env python3
"""Reference positions by python-chess for tests/lichess_differential.rs.

Seeded random playouts of lichess's variants, played by python-chess's
variant boards (`chess.variant`). For every position the file holds
python-chess's FEN, the game's result and a digest of its legal moves in
UCI and SAN, so the Rust test compares without Python.

Output (text, tab-separated):

    # comment lines
    P <variant> <FEN>                 a playout: the variant, its start FEN
    <digest> <result> <FEN> <uci>     one line per position: the digest, the
                                      result (`*`, `1-0`, `0-1`, `1/2-1/2`,
                                      python-chess's `Board.outcome()`
                                      without claims), the FEN, and the
                                      move python-chess played (`-` after
                                      the last)

The digest is FNV-1a 64-bit (16 hex digits) of the lines `UCI SAN`, sorted
as byte strings and joined by `\\n`. A pawn drop's SAN is written `P@e4`
as lichess writes it (python-chess writes `@e4`; it reads both).

Usage:
    python3 make_lichess_reference.py VARIANT [POSITIONS [SEED]] > out.txt
    python3 make_lichess_reference.py VARIANT --moves FEN
        (python-chess's `UCI SAN` lines for one position)

VARIANT is a python-chess variant name (crazyhouse, atomic, antichess,
kingofthehill, 3check, racingkings, horde). Made with python-chess 1.11.2
(GPL-3.0; a test-time tool only, nothing of it is shipped).
"""

import random
import sys

import chess
import chess.variant

PLY_CAP = 160

# Start positions besides the variant's own: the perft files' positions
# (scalachess, MIT) and a few more.
EXTRA = {
    "crazyhouse": [
        "2k5/8/8/8/8/8/8/4K3[QRBNPqrbnp] w - - 0 1",
        "2k5/8/8/8/8/8/8/4K3[Qn] w - - 0 1",
        "r1bqk2r/pppp1ppp/2n1p3/4P3/1b1Pn3/2NB1N2/PPP2PPP/R1BQK2R[] b KQkq - 0 1",
        "4k3/1Q~6/8/8/4b3/8/Kpp5/8[] b - - 0 1",
        "4k3/6P1/8/8/8/8/1p6/4K3[Nn] w - - 0 1",
    ],
    "horde": [
        "4k3/pp4q1/3P2p1/8/P3PP2/PPP2r2/PPP5/PPPP4 b - - 0 1",
        "k7/5p2/4p2P/3p2P1/2p2P2/1p2P2P/p2P2P1/2P2P2 w - - 0 1",
    ],
}


def board_of(variant, fen=None):
    cls = chess.variant.find_variant(variant)
    return cls(fen) if fen else cls()


def digest(lines):
    h = 0xCBF29CE484222325
    for b in "\n".join(lines).encode():
        h ^= b
        h = (h * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return f"{h:016x}"


def san(board, m):
    # python-chess writes a pawn drop `@e4`; lichess's PGN and houserules
    # write `P@e4` (python-chess reads both). The one notational mapping.
    s = board.san(m)
    return "P" + s if s.startswith("@") else s


def move_lines(board):
    return sorted(f"{board.uci(m)} {san(board, m)}" for m in board.legal_moves)


def result(board):
    o = board.outcome()
    return "*" if o is None else o.result()


def playout(out, rng, variant, fen, budget):
    board = board_of(variant, fen)
    out.append(f"P\t{variant}\t{board.fen()}")
    n = 0
    while True:
        moves = list(board.legal_moves)
        n += 1
        line = f"{digest(move_lines(board))}\t{result(board)}\t{board.fen()}"
        if not moves or n >= budget or board.ply() >= PLY_CAP or board.is_game_over():
            out.append(f"{line}\t-")
            return n
        # Prefer captures, drops, castling and promotions now and then, so
        # the special moves are met often.
        special = [m for m in moves if board.is_capture(m) or m.drop or m.promotion or board.is_castling(m)]
        m = rng.choice(special) if special and rng.random() < 0.4 else rng.choice(moves)
        out.append(f"{line}\t{board.uci(m)}")
        board.push(m)


def main():
    args = sys.argv[1:]
    variant = args[0]
    if len(args) > 1 and args[1] == "--moves":
        print("\n".join(move_lines(board_of(variant, args[2]))))
        return
    total = int(args[1]) if len(args) > 1 else 2000
    seed = int(args[2]) if len(args) > 2 else 25
    rng = random.Random(seed)
    out = [
        f"# python-chess {chess.__version__} {variant}, seed {seed}, {total} positions;",
        "# made by make_lichess_reference.py (see its docstring for the format)",
    ]
    starts = [None] + EXTRA.get(variant, [])
    count = 0
    i = 0
    while count < total:
        fen = starts[i % len(starts)]
        i += 1
        count += playout(out, rng, variant, fen, total - count)
    print("\n".join(out))


if __name__ == "__main__":
    main()
