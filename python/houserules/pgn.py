"""PGN files for houserules: streaming reading and writing.

>>> import io, houserules
>>> text = '[Event "Mate"]\\n[Result "0-1"]\\n\\n1. f3 e5 2. g4 Qh4# 0-1\\n'
>>> game = next(houserules.pgn.read_games(io.StringIO(text)))
>>> game.moves
['f3', 'e5', 'g4', 'Qh4#']
>>> game.end().outcome().termination
'checkmate'

Games are read one at a time (memory bounded by one game), from a path or
any file object with ``read()``. Each game's ``board()`` is its start
position under the rules its tags name (``Variant``: chess, Chess960,
lichess's variants and the shipped games; ``HouseRules``: preset house
rules; ``FEN``), and ``end()`` replays its mainline.
"""

from __future__ import annotations

import os
from typing import IO, Iterable, Iterator, Mapping, Optional, Union

from houserules._houserules import Board, PgnGame, PgnReader, write_board

__all__ = ["PgnGame", "PgnReader", "read_games", "write_game", "write"]


def read_games(source: Union[str, "os.PathLike[str]", IO[str], IO[bytes]]) -> Iterator[PgnGame]:
    """Yields the games of a PGN file (a path or a file object), one at a time.

    A malformed game is yielded with its ``error`` set (game number, line and
    column), and reading goes on with the next game.
    """
    return iter(PgnReader(source))


def write_game(
    board: Board,
    headers: Optional[Mapping[str, str]] = None,
    result: Optional[str] = None,
) -> str:
    """The PGN text of the game played on ``board`` (its ``move_stack``).

    The tags are the Seven Tag Roster, ``Variant`` and ``HouseRules`` for the
    board's rules, and ``SetUp``/``FEN`` when the board did not start at its
    rules' start position; ``headers`` adds or replaces tags; ``result``
    defaults to ``board.result()``.
    """
    return write_board(board, dict(headers) if headers is not None else None, result)


def write(games: Iterable[Union[Board, PgnGame]], file: IO[str]) -> int:
    """Writes games to a text file one at a time (boards as
    :func:`write_game` writes them, read games as read), separated by blank
    lines; returns how many were written."""
    n = 0
    for g in games:
        text = write_game(g) if isinstance(g, Board) else str(g)
        if n:
            file.write("\n")
        file.write(text)
        n += 1
    return n
