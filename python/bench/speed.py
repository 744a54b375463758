"""Speed of houserules.Board against python-chess 1.11.2, in the same run (docs/performance.md).

Positions: POSITIONS (default 1,000) positions of seeded random games (python-chess plays them).
Measured per library, each position set up once outside the timing:

- legal moves per second: `list(board.legal_moves)` over every position, repeated, moves listed
  divided by the time;
- push/pop per second: every legal move of every position pushed and popped (moves listed before
  the timing), pairs divided by the time.

Run after `pip install .` (scripts/test-python makes target/python-venv):
    target/python-venv/bin/python python/bench/speed.py
"""

import os
import random
import time

import chess

import houserules

N = int(os.environ.get("POSITIONS", "1000"))
ROUNDS = int(os.environ.get("ROUNDS", "5"))


def positions():
    rng = random.Random(28)
    out = []
    while len(out) < N:
        b = chess.Board()
        for _ in range(rng.randrange(10, 120)):
            moves = list(b.legal_moves)
            if not moves:
                break
            b.push(rng.choice(moves))
            if b.is_game_over():
                break
        if not b.is_game_over():
            out.append(b.fen())
    return out


def bench_legal(boards):
    t = time.perf_counter()
    n = 0
    for _ in range(ROUNDS):
        for b in boards:
            n += len(list(b.legal_moves))
    return n / (time.perf_counter() - t)


def bench_push_pop(boards):
    work = [(b, list(b.legal_moves)) for b in boards]
    t = time.perf_counter()
    n = 0
    for _ in range(ROUNDS):
        for b, moves in work:
            for m in moves:
                b.push(m)
                b.pop()
            n += len(moves)
    return n / (time.perf_counter() - t)


def main():
    fens = positions()
    ref = [chess.Board(f) for f in fens]
    ours = [houserules.Board(fen=f) for f in fens]
    rows = []
    for name, fn in [("legal moves listed per second", bench_legal), ("push/pop pairs per second", bench_push_pop)]:
        a = fn(ref)
        b = fn(ours)
        rows.append((name, a, b))
    print(f"{N} positions of random games, {ROUNDS} rounds, python-chess {chess.__version__}")
    print("| measure | python-chess 1.11.2 | houserules | ratio |")
    print("| --- | --- | --- | --- |")
    for name, a, b in rows:
        print(f"| {name} | {a:,.0f} | {b:,.0f} | {b / a:.1f}× |")


if __name__ == "__main__":
    main()
