"""houserules.Session: choices, randomness, replay, snapshot and refusals.

Expected values come from the modifier descriptors (crates/modifiers/library) and
docs/modifiers.md: `mr_freeze` asks the chooser (the side to move) for a file and forbids moves
from it; `coin-flip-restriction` flips a coin for the side to move at each turn's start and on
tails lets only the `allowed` type move (`coinFlips: manual` asks instead of drawing);
`minefield` puts two mines on random empty squares; a key given twice in one entry is refused
as `request.duplicate-parameter` with the entry's path.
"""

import json

import chess
import pytest

import houserules


def test_a_choice_on_attach_then_its_rule():
    s = houserules.Session({"modifiers": ["mr_freeze"]})
    c = s.pending_choice
    assert c["kind"] == "column" and c["for_player"] == "white"
    assert sorted(c["options"]) == list("abcdefgh")
    assert s.legal_moves == []  # nothing moves while a choice is pending
    with pytest.raises(houserules.RefusalError) as e:
        s.play("e2e4")
    assert e.value.code == "choice-pending"
    s.choose("e")
    assert s.pending_choice is None
    legal = s.legal_moves
    assert "e2e4" not in legal and "e2e3" not in legal  # the e-file is frozen
    assert "d2d4" in legal and len(legal) == 18  # 20 start moves less the e-pawn's two
    assert s.play("Nf3") == "g1f3"  # SAN in, UCI recorded
    state = s.state()
    assert state["sideToMove"] == "black"
    assert sorted(m["square"] for m in state["markers"]) == [f"e{r}" for r in range(1, 9)]


def test_manual_coin_flips_are_choices():
    s = houserules.Session(
        {"modifiers": ["coin-flip-restriction:allowed=pawn"], "coinFlips": "manual"}
    )
    # on-turn-start never fires at creation (rulings A6, docs/modifiers.md): White's first
    # turn has no flip and all 20 moves.
    assert s.pending_choice is None and len(s.legal_moves) == 20
    s.play("e2e4")
    c = s.pending_choice
    assert c["kind"] == "coin-flip" and c["for_player"] == "black"
    assert sorted(c["options"]) == ["heads", "tails"]
    s.choose("tails")
    # Tails: only pawns may move; python-chess lists Black's pawn moves after 1. e4.
    ref = chess.Board()
    ref.push_uci("e2e4")
    pawn_moves = sorted(m.uci() for m in ref.legal_moves if ref.piece_type_at(m.from_square) == chess.PAWN)
    assert sorted(s.legal_moves) == pawn_moves
    s.play("e7e5")
    ref.push_uci("e7e5")
    assert s.pending_choice["for_player"] == "white"
    s.choose("heads")
    # Heads: no restriction.
    assert sorted(s.legal_moves) == sorted(m.uci() for m in ref.legal_moves)


def play_some(s, plies):
    for _ in range(plies):
        if s.is_over:
            break
        c = s.pending_choice
        if c is not None:
            s.choose(c["options"][0])
            continue
        s.play(sorted(s.legal_moves)[len(s.legal_moves) // 2])


def test_randomness_replays_from_the_inputs():
    request = {"modifiers": ["minefield", "coin-flip-restriction"], "seed": 12345}
    s = houserules.Session(request)
    mines = [m["square"] for m in s.state()["markers"] if m["kind"] == "mine"]
    assert len(set(mines)) == 2
    assert all(sq[1] in "3456" for sq in mines)  # empty squares at the start
    assert s.state()["rngStream"] > 0
    play_some(s, 30)
    again = houserules.Session.replay(request, s.inputs)
    assert again.state_hash() == s.state_hash()
    assert again.state() == s.state()
    # The same inputs as JSON text, one by one.
    third = houserules.Session(json.dumps(request))
    for i in s.inputs:
        third.submit(json.dumps(i))
    assert third.state() == s.state()
    # Same seed, same mines; the snapshot resumes exactly.
    assert [m["square"] for m in houserules.Session(request).state()["markers"] if m["kind"] == "mine"] == mines
    snap = s.snapshot()
    r = houserules.Session.restore(snap)
    assert r.state() == s.state() and r.snapshot() == snap
    play_some(s, 6)
    play_some(r, 6)
    assert r.state() == s.state()


def test_snapshot_with_a_pending_choice():
    s = houserules.Session({"modifiers": ["mr_freeze"]})
    r = houserules.Session.restore(json.dumps(s.snapshot()))
    assert r.pending_choice["kind"] == "column"
    r.choose("a")
    assert "a2a4" not in r.legal_moves


def test_refusals_carry_code_and_path():
    with pytest.raises(houserules.RefusalError) as e:
        houserules.Session({"modifiers": ["mr_freeze", "minefield:lifetime=3;lifetime=4"]})
    assert isinstance(e.value, ValueError)
    assert e.value.code == "request.duplicate-parameter"
    assert e.value.path == "$.modifiers[1]"
    with pytest.raises(houserules.RefusalError) as e:
        houserules.Session({"seed": -1})
    assert e.value.code == "request.bad-seed"
    s = houserules.Session()
    with pytest.raises(houserules.RefusalError) as e:
        s.play("e2e5")
    assert e.value.code == "illegal-move"
    with pytest.raises(houserules.RefusalError) as e:
        s.choose("e")
    assert e.value.code == "no-pending-choice"


def test_presets_and_board_view():
    s = houserules.Session({"presets": ["piece-hp"]})
    s.play("e4")
    b = s.board()
    assert b.fen() == s.fen()
    assert "piece-hp" in b.rules
