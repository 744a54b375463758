#!/usr/bin/env python3
"""Proves the standard-chess mate positions of tests/mates.rs with
python-chess (an independent move generator), by exhaustive search:
the given first move forces mate in N, no other first move does, and no
mate in fewer moves exists. Run: python3 crates/search/tests/mates.py"""
import chess

POSITIONS = [
    # (fen, mate in N moves, the only first move that mates in N, SAN)
    ("r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4", 1, "Qxf7#"),
    ("r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1", 2, "Nf6+"),
    ("r1b1kb1r/pppp1ppp/5q2/4n3/3KP3/2N3PN/PPP4P/R1BQ1B1R b kq - 0 1", 3, "Bc5+"),
]


def mates_in(board, n):
    """Whether the side to move can force mate within n moves."""
    if n <= 0:
        return False
    for m in list(board.legal_moves):
        board.push(m)
        ok = board.is_checkmate() or (
            n > 1 and not board.is_game_over() and all_replies_lose(board, n - 1))
        board.pop()
        if ok:
            return True
    return False


def all_replies_lose(board, n):
    for r in list(board.legal_moves):
        board.push(r)
        ok = mates_in(board, n)
        board.pop()
        if not ok:
            return False
    return True


def winning_first_moves(board, n):
    out = []
    for m in list(board.legal_moves):
        board.push(m)
        ok = board.is_checkmate() or (
            n > 1 and not board.is_game_over() and all_replies_lose(board, n - 1))
        board.pop()
        if ok:
            out.append(board.san(m))
    return out


for fen, n, san in POSITIONS:
    b = chess.Board(fen)
    assert not mates_in(b, n - 1), (fen, "has a shorter mate")
    wins = winning_first_moves(b, n)
    assert wins == [san], (fen, wins)
    print("ok", n, san, fen)
