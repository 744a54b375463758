#!/usr/bin/env python3
"""Reference replay of the shared PGN test files with python-chess.

Writes reference.jsonl next to this script: one JSON object per game, in
file order, with the facts the Rust tests compare against:

  file       path relative to the PGN data directory (e.g. "python-chess/uci-moves.pgn")
  game       1-based index of the game in that file
  variant    python-chess's name for the rules of the board it replayed on
             ("chess" for standard and Chess960)
  chess960   whether python-chess played the game as Chess960
  plies      mainline half-moves python-chess played (up to the first error)
  final_fen  board.fen() after those plies (en passant square only when a
             legal en passant capture exists; X-FEN castling for Chess960)
  status     outcome of the final position without claims: checkmate,
             stalemate, insufficient-material, seventy-five-move-rule,
             fivefold-repetition or ongoing
  error      null, or {"ply": 1-based ply of the first bad mainline move,
             "move": its text, "message": python-chess's message}

Regenerate (from the repository root, python-chess pinned):

    pip install chess==1.11.2
    python3 crates/pgn/tests/data/make_reference.py ../shared/data/pgn

The data directory defaults to ../shared/data/pgn relative to the
repository root. Files are decoded as UTF-8 with invalid bytes replaced
(one file has stray non-UTF-8 bytes inside comments; no move is affected).
"""

import json
import os
import sys

import chess
import chess.pgn

assert chess.__version__ == "1.11.2", f"expected python-chess 1.11.2, got {chess.__version__}"

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", "..", ".."))


class Builder(chess.pgn.GameBuilder):
    """GameBuilder that remembers the first error met on the mainline."""

    def begin_game(self):
        super().begin_game()
        self.last_token = None
        self.first_error = None

    def begin_parse_san(self, board, san):
        self.last_token = san
        return super().begin_parse_san(board, san)

    def handle_error(self, error):
        on_mainline = len(self.variation_stack) == 1
        if self.first_error is None and on_mainline:
            node = self.variation_stack[-1]
            self.first_error = {
                "ply": node.ply() - self.game.ply() + 1,
                "move": self.last_token,
                "message": str(error),
            }
        self.game.errors.append(error)

    def result(self):
        self.game.first_mainline_error = self.first_error
        return self.game


def status(board):
    outcome = board.outcome(claim_draw=False)
    if outcome is None:
        return "ongoing"
    return {
        chess.Termination.CHECKMATE: "checkmate",
        chess.Termination.STALEMATE: "stalemate",
        chess.Termination.INSUFFICIENT_MATERIAL: "insufficient-material",
        chess.Termination.SEVENTYFIVE_MOVES: "seventy-five-move-rule",
        chess.Termination.FIVEFOLD_REPETITION: "fivefold-repetition",
    }.get(outcome.termination, outcome.termination.name.lower())


def main():
    data = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "..", "shared", "data", "pgn")
    data = os.path.abspath(data)
    files = []
    for dirpath, _dirs, names in os.walk(data):
        for name in names:
            if name.endswith(".pgn"):
                files.append(os.path.relpath(os.path.join(dirpath, name), data).replace(os.sep, "/"))
    files.sort()
    out_path = os.path.join(HERE, "reference.jsonl")
    total = 0
    with open(out_path, "w", encoding="utf-8", newline="\n") as out:
        for rel in files:
            with open(os.path.join(data, rel), encoding="utf-8", errors="replace") as handle:
                index = 0
                while True:
                    game = chess.pgn.read_game(handle, Visitor=Builder)
                    if game is None:
                        break
                    index += 1
                    board = game.end().board()
                    row = {
                        "file": rel,
                        "game": index,
                        "variant": board.uci_variant,
                        "chess960": board.chess960,
                        "plies": len(list(game.mainline_moves())),
                        "final_fen": board.fen(),
                        "status": status(board),
                        "error": game.first_mainline_error,
                    }
                    out.write(json.dumps(row, sort_keys=False) + "\n")
            total += index
    print(f"{total} games from {len(files)} files -> {out_path}")


if __name__ == "__main__":
    main()
