#!/usr/bin/env python3
"""Reference replay of the antichess PGN games with python-chess.

reference.jsonl (make_reference.py) already holds their plies and final
FEN; this small file adds what the Rust test compares beyond that, for the
games whose Variant tag python-chess maps to antichess: whether the final
position is over, who won (python-chess's AntichessBoard outcome), and the
number of legal moves in it.

Regenerate (from the repository root, python-chess pinned):

    pip install chess==1.11.2
    python3 crates/pgn/tests/data/make_antichess_reference.py ../shared/data/pgn
"""

import json
import os
import sys

import chess
import chess.pgn
import chess.variant

assert chess.__version__ == "1.11.2", f"expected python-chess 1.11.2, got {chess.__version__}"

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", "..", ".."))
FILES = ["python-chess/antichess-programfox.pgn"]


def main():
    data = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "..", "shared", "data", "pgn")
    out_path = os.path.join(HERE, "antichess_reference.jsonl")
    with open(out_path, "w", encoding="utf-8", newline="\n") as out:
        for rel in FILES:
            with open(os.path.join(data, rel), encoding="utf-8") as handle:
                index = 0
                while True:
                    game = chess.pgn.read_game(handle)
                    if game is None:
                        break
                    index += 1
                    board = game.end().board()
                    assert isinstance(board, chess.variant.AntichessBoard), rel
                    outcome = board.outcome(claim_draw=False)
                    winner = None
                    if outcome is not None and outcome.winner is not None:
                        winner = "white" if outcome.winner else "black"
                    row = {
                        "file": rel,
                        "game": index,
                        "plies": len(list(game.mainline_moves())),
                        "final_fen": board.fen(),
                        "over": outcome is not None,
                        "winner": winner,
                        "legal_moves": board.legal_moves.count(),
                    }
                    out.write(json.dumps(row) + "\n")
    print(f"-> {out_path}")


if __name__ == "__main__":
    main()
