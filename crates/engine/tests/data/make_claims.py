#!/usr/bin/env python3
"""Writes claims.jsonl: draw claims judged by python-chess (1.11), for
crates/engine/tests/claims.rs.

Each line: {"fen": start FEN, "moves": [UCI...], "now": [claims of the final
position], "after": {UCI: [claims by announcing that move]}, "any3": bool,
"any50": bool}.

- "now": python-chess `is_repetition(3)` (threefold-repetition) and
  `is_fifty_moves()` (fifty-move-rule) on the final position: FIDE 9.2.2 and
  9.3.2, the claims without a move.
- "after": for every legal move, the same two tests after pushing it (FIDE
  9.2.1 and 9.3.1, a claim made by announcing the move); only moves with a
  claim are listed.
- "any3"/"any50": `can_claim_threefold_repetition()` and
  `can_claim_fifty_moves()`, which python-chess defines as "now, or after
  some legal move" (the union of the two above).

Positions come from seeded random playouts biased toward reversible moves
and toward undoing the side's own last move (a shuffle), so that repetitions
and long quiet stretches occur. Run: python3 make_claims.py > claims.jsonl
"""
import json
import random

import chess

STARTS = [
    chess.STARTING_FEN,
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/8/4k3/8/8/3K4/8/R7 w - - 90 80",
    "8/2k5/8/8/8/8/5K2/6QR b - - 96 70",
    "r3k3/8/8/8/8/8/8/4K2R w Kq - 97 60",
    "8/8/3k4/2n5/8/8/2N1K3/8 w - - 99 90",
    "8/5k2/8/8/3pP3/8/8/4K3 b - e3 40 50",
]


def claims(board):
    out = []
    if board.is_repetition(3):
        out.append("threefold-repetition")
    if board.is_fifty_moves():
        out.append("fifty-move-rule")
    return out


def playout(rng, fen):
    board = chess.Board(fen)
    plies = rng.randrange(0, 40)
    for _ in range(plies):
        if board.is_game_over(claim_draw=False):
            break
        legal = list(board.legal_moves)
        undo = None
        if len(board.move_stack) >= 2:
            back = board.move_stack[-2]
            undo = chess.Move(back.to_square, back.from_square)
        if undo in legal and rng.random() < 0.7:
            mv = undo
        else:
            quiet = [m for m in legal if not board.is_zeroing(m)]
            pool = quiet if quiet and rng.random() < 0.9 else legal
            mv = rng.choice(pool)
        board.push(mv)
    return board


def main():
    rng = random.Random(20261201)
    seen = 0
    while seen < 300:
        fen = rng.choice(STARTS)
        board = playout(rng, fen)
        if board.is_game_over(claim_draw=False):
            continue
        after = {}
        for m in board.legal_moves:
            board.push(m)
            c = claims(board)
            board.pop()
            if c:
                after[m.uci()] = c
        row = {
            "fen": fen,
            "moves": [m.uci() for m in board.move_stack],
            "now": claims(board),
            "after": dict(sorted(after.items())),
            "any3": board.can_claim_threefold_repetition(),
            "any50": board.can_claim_fifty_moves(),
        }
        print(json.dumps(row))
        seen += 1


if __name__ == "__main__":
    main()
