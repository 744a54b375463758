#!/usr/bin/env python3
"""Reference legal-move lists by python-chess for tests/pychess_differential.rs.

Random playouts (seeded, so the file is reproducible) from the standard
start, Chess960 start positions (castling rights on rooks off the corners),
positions with kings on the back ranks and en passant captures pinned
along ranks and diagonals, and standard positions whose castling rights
name no corner rook (python-chess drops them: `clean_castling_rights`).
For every position the file holds a digest of python-chess's legal moves
in UCI and SAN, so the Rust test compares without Python.

Output (text):

    # comment lines
    P <0|1> <FEN>          a playout: 1 = Chess960 mode, then its start FEN
    <digest> <uci>         one line per position: the digest, then the move
                           python-chess played from it (`-` after the last)

The digest is FNV-1a 64-bit (16 hex digits) of the lines `UCI SAN`, sorted
as byte strings and joined by `\\n`; UCI castling is king-takes-rook in
Chess960 mode (`board.uci`), king-to-destination otherwise.

Usage:
    python3 make_pychess_reference.py [POSITIONS [SEED]] > pychess_reference.txt
    python3 make_pychess_reference.py --moves FEN [--chess960]
        (python-chess's `UCI SAN` lines for one position, to compare by
        hand with `houserules moves --fen FEN [--game chess960]`)

Made with python-chess 1.11.2 (GPL-3.0; a test-time tool only, nothing of
it is shipped).
"""

import random
import sys

import chess

PLY_CAP = 100

# Positions with en passant pins, kings on back ranks and unusual castling
# rights (standard mode unless marked 960).
FIXED = [
    # Kiwipete (chessprogramming.org perft position 2).
    (False, "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"),
    # Perft position 3: en passant captures pinned along the 5th rank.
    (False, "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"),
    # Perft position 4 and its mirror.
    (False, "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1"),
    (False, "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1"),
    # Perft position 5.
    (False, "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8"),
    # En passant pinned on the rank (king c5, rook h5) and on a diagonal.
    (False, "4k3/8/8/2KPp2r/8/8/8/8 w - e6 0 2"),
    (False, "8/8/8/8/k2Pp2Q/8/8/3K4 b - d3 0 1"),
    (False, "8/8/8/1b6/2pP4/8/8/5K1k b - d3 0 1"),
    (False, "4k3/8/8/8/3pP3/8/8/3KR2q b - e3 0 1"),
    # Issue 11: castling with the enemy king on the back rank.
    (False, "8/8/8/8/8/8/8/k3K2R w K - 0 1"),
    (False, "r3k2K/8/8/8/8/8/8/8 b q - 0 1"),
    (False, "r3k2r/8/8/8/8/8/8/1K2R3 b kq - 0 1"),
    (False, "1k6/8/8/8/8/8/8/R3K2R w KQ - 0 1"),
    # Standard mode: rights without their corner rook are dropped.
    (False, "4k3/8/8/8/8/8/8/4KR2 w K - 0 1"),
    (False, "r3k3/8/8/8/8/8/8/4KR2 w Qq - 0 1"),
    (False, "rn2k1r1/8/8/8/8/8/8/R1K4R w KQkq - 0 1"),
    # Chess960 mode: the same boards, rights on any rook.
    (True, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 4 1"),
    (True, "1r2k1r1/8/8/8/8/8/8/1R2K1R1 w KQkq - 0 1"),
    (True, "5rk1/8/8/8/8/8/8/5RK1 w KQkq - 0 1"),
    (True, "rk5r/8/8/8/8/8/8/RK5R w KQkq - 0 1"),
    (True, "r5kr/8/8/8/8/8/8/1R4KR b KQkq - 0 1"),
]


def digest(lines):
    h = 0xCBF29CE484222325
    for b in "\n".join(lines).encode():
        h ^= b
        h = (h * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return f"{h:016x}"


def move_lines(board):
    return sorted(f"{board.uci(m)} {board.san(m)}" for m in board.legal_moves)


def playout(out, rng, chess960, fen, budget):
    board = chess.Board(fen, chess960=chess960)
    out.append(f"P {int(chess960)} {fen}")
    n = 0
    while True:
        moves = list(board.legal_moves)
        n += 1
        if not moves or n >= budget or board.ply() >= PLY_CAP or board.is_insufficient_material():
            out.append(f"{digest(move_lines(board))} -")
            return n
        # Prefer captures, castling and en passant now and then, so the
        # special moves are met often.
        special = [m for m in moves if board.is_castling(m) or board.is_en_passant(m) or m.promotion]
        m = rng.choice(special) if special and rng.random() < 0.5 else rng.choice(moves)
        out.append(f"{digest(move_lines(board))} {board.uci(m)}")
        board.push(m)


def main():
    args = sys.argv[1:]
    if args and args[0] == "--moves":
        board = chess.Board(args[1], chess960="--chess960" in args)
        print("\n".join(move_lines(board)))
        return
    total = int(args[0]) if args else 20000
    seed = int(args[1]) if len(args) > 1 else 11
    rng = random.Random(seed)
    out = [
        f"# python-chess {chess.__version__} legal moves, seed {seed}, {total} positions;",
        "# made by make_pychess_reference.py (see its docstring for the format)",
    ]
    count = 0
    i = 0
    while count < total:
        kind = i % 4
        i += 1
        if kind == 0:
            chess960, fen = FIXED[(i // 4) % len(FIXED)]
        elif kind == 1:
            chess960, fen = True, chess.Board.from_chess960_pos(rng.randrange(960)).fen()
        elif kind == 2:
            chess960, fen = False, chess.STARTING_FEN
        else:
            # Chess960 start positions in Shredder-FEN (file letters).
            b = chess.Board.from_chess960_pos(rng.randrange(960))
            chess960, fen = True, b.fen(shredder=True)
        count += playout(out, rng, chess960, fen, total - count)
    print("\n".join(out))


if __name__ == "__main__":
    main()
