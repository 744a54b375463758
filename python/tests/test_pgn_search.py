"""houserules.pgn (against python-chess's PGN reading) and houserules.search."""

import io
import threading
import time

import chess
import chess.pgn

import houserules

MATE = '[Event "Mate"]\n[Result "0-1"]\n\n1. f3 e5 2. g4 {blunder} Qh4# 0-1\n'


def test_read_from_text_and_replay():
    games = list(houserules.pgn.read_games(io.StringIO(MATE + "\n" + MATE)))
    assert len(games) == 2
    g = games[0]
    assert g.error is None
    assert g.headers["Event"] == "Mate" and g.result == "0-1"
    assert g.moves == ["f3", "e5", "g4", "Qh4#"]
    assert g.comments[2] == ["blunder"]
    end = g.end()
    ref = chess.pgn.read_game(io.StringIO(MATE)).end().board()
    assert end.fen() == ref.fen()
    assert end.outcome().termination == "checkmate" and end.result() == "0-1"


def test_malformed_game_is_reported_and_reading_goes_on():
    text = '[Event "Bad"\n\n1. e4 *\n\n' + MATE
    games = list(houserules.pgn.read_games(io.BytesIO(text.encode())))
    assert games[0].error is not None
    assert games[-1].moves == ["f3", "e5", "g4", "Qh4#"]


def test_write_reads_back_in_python_chess():
    b = houserules.Board()
    for san in ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6"]:
        b.push_san(san)
    text = houserules.pgn.write_game(b, {"White": "A", "Black": "B"})
    ref = chess.pgn.read_game(io.StringIO(text))
    assert ref.headers["White"] == "A"
    assert [m.uci() for m in ref.mainline_moves()] == [m.uci() for m in b.move_stack]
    back = next(houserules.pgn.read_games(io.StringIO(text)))
    assert back.end().fen() == b.fen()
    out = io.StringIO()
    assert houserules.pgn.write([b, back], out) == 2
    assert len(list(chess.pgn.read_game(io.StringIO(out.getvalue())).mainline_moves())) == 6


def test_rule_tags_round_trip():
    b = houserules.Board(rules=["suicide-chess"])
    b.push_san("e3")
    b.push_san("b5")
    b.push_san("Bxb5")
    text = houserules.pgn.write_game(b)
    back = next(houserules.pgn.read_games(io.StringIO(text)))
    assert back.end().fen() == b.fen()


def test_shared_pgn_files_agree_with_python_chess(shared):
    names = [
        "pgn-parser/32games.pgn",
        "pgn2tex/London1851.pgn",
        "python-chess/immortal-games.pgn",
        "python-chess/kasparov-deep-blue-1997.pgn",
        "scalachess/wcc2023-annotated.pgn",
    ]
    files = [shared / "pgn" / n for n in names]
    assert all(f.is_file() for f in files), files
    checked = 0
    for path in files:
        with open(path, encoding="utf-8", errors="replace") as f:
            refs = []
            for _ in range(20):
                r = chess.pgn.read_game(f)
                if r is None:
                    break
                refs.append(r)
        ours = []
        for g in houserules.pgn.read_games(str(path)):
            ours.append(g)
            if len(ours) == len(refs):
                break
        for r, g in zip(refs, ours):
            if r.errors or g.error or r.headers.get("Variant", "Standard") not in ("Standard", ""):
                continue
            if r.headers.get("FEN"):
                continue
            assert g.moves and len(g.moves) == len(list(r.mainline_moves())), path
            assert g.end().fen() == r.end().board().fen(), path
            checked += 1
    assert checked > 0


def test_search_finds_mate_in_one():
    b = houserules.Board()
    for san in ["e4", "e5", "Bc4", "Nc6", "Qh5", "Nf6"]:
        b.push_san(san)
    r = houserules.search(b, depth=3)
    ref = chess.Board(b.fen())
    ref.push_uci(r.move.uci())
    assert ref.is_checkmate()  # python-chess confirms: Qxf7#
    assert r.mate == 1 and r.score is None
    assert r.pv[0] == r.move.uci()


def test_search_releases_the_gil_and_takes_sessions():
    b = houserules.Board()
    out = {}
    t = threading.Thread(target=lambda: out.setdefault("r", houserules.search(b, movetime=0.5)))
    ticks = 0
    t.start()
    while t.is_alive():
        ticks += 1
        time.sleep(0.001)
    t.join()
    assert out["r"].move in b.legal_moves
    assert ticks > 50
    s = houserules.Session({"modifiers": ["mr_freeze"]})
    r = houserules.search(s, movetime=0.2)
    assert r.choice in s.pending_choice["options"]


def test_variant_tags_choose_the_rules(shared):
    # Crazyhouse, Antichess and Chess960 games from python-chess's own test data: the
    # Variant tag chooses the rules, and the final position agrees with python-chess's
    # variant boards (chess.variant, chosen by python-chess from the same tag).
    base = shared / "pgn" / "python-chess"
    for name, variant in [
        ("knightvuillaume-jannlee-zh-lichess.pgn", "Crazyhouse"),
        ("saturs-jannlee-zh-lichess.pgn", "Crazyhouse"),
        ("antichess-programfox.pgn", "Antichess"),
        ("cutechess-fischerrandom.pgn", "fischerandom"),
    ]:
        with open(base / name, encoding="utf-8") as f:
            ref = chess.pgn.read_game(f)
        game = next(houserules.pgn.read_games(base / name))
        assert game.headers["Variant"] == variant
        assert game.moves and len(game.moves) == len(list(ref.mainline_moves()))
        assert game.end().fen() == ref.end().board().fen(), name


def test_a_layout_start_is_written_with_its_fen():
    # A Chess960 layout's start is not what the Variant tag alone rebuilds: the writer
    # adds SetUp/FEN, and python-chess reads the game from that position (its own
    # numbering of the 960 positions gives the same board for position 3).
    b = houserules.Board(layout="chess960:3")
    b.push_san("e4")
    b.push_san("e5")
    text = houserules.pgn.write_game(b)
    ref = chess.pgn.read_game(io.StringIO(text))
    assert ref.headers["SetUp"] == "1"
    assert ref.board().board_fen() == chess.Board.from_chess960_pos(3).board_fen()
    assert ref.end().board().board_fen() == b.board_fen()
    back = next(houserules.pgn.read_games(io.StringIO(text)))
    assert back.end().fen() == b.fen()
