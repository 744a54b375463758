"""houserules: chess with house rules, from Python.

A python-chess-shaped :class:`Board` for any rule set the houserules engine
builds (FIDE chess, Chess960, the shipped games, YAML games, preset house
rules and layouts), a :class:`Session` for custom rule modifiers (choices,
markers, hit points, seeded randomness) over the creation request of
``docs/session-request.schema.json``, :mod:`houserules.pgn` for PGN files and
:func:`search` for the engine's best move. See docs/python.md.

>>> import houserules
>>> board = houserules.Board()
>>> board.push_san("e4")
Move.from_uci('e2e4')
>>> len(board.legal_moves)
20
"""

from houserules._houserules import (
    AmbiguousMoveError,
    Board,
    IllegalMoveError,
    InvalidMoveError,
    LegalMoves,
    Move,
    Outcome,
    RefusalError,
    SearchResult,
    Session,
    games,
    search,
)
from houserules import pgn

__all__ = [
    "AmbiguousMoveError",
    "Board",
    "IllegalMoveError",
    "InvalidMoveError",
    "LegalMoves",
    "Move",
    "Outcome",
    "RefusalError",
    "SearchResult",
    "Session",
    "games",
    "pgn",
    "search",
]

__version__ = "0.1.0"
