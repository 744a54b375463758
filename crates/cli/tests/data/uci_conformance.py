#!/usr/bin/env python3
"""UCI conformance of `houserules uci`, driven by python-chess's
`chess.engine` (an independent UCI client that validates what the engine
says: option declarations, `bestmove` legality, `info` lines).

Usage: uci_conformance.py HOUSERULES_BINARY [FAIRY_STOCKFISH]

Run by crates/cli/tests/uci_python.rs. Exit status 0 when every check
passes, 1 on a failed check, 3 when python-chess is missing (the Rust
test turns that into a failure with instructions).

Each `bestmove` is checked against python-chess's move generator; the
variant games python-chess does not know (capablanca, gardner) are
checked against Fairy-Stockfish's `go perft 1` listing instead.
"""
import subprocess
import sys
import time

try:
    import chess
    import chess.engine
    import chess.variant
except ImportError:
    print("python-chess is missing: install it with `pip install chess==1.11.2` "
          "(PyPI package `chess`)", file=sys.stderr)
    sys.exit(3)

if len(sys.argv) < 2:
    print(__doc__, file=sys.stderr)
    sys.exit(2)
BINARY = sys.argv[1]
FAIRY = sys.argv[2] if len(sys.argv) > 2 else "/usr/games/fairy-stockfish"

CHECKS = 0


def ok(what):
    global CHECKS
    CHECKS += 1
    print("ok", what, flush=True)


def fail(what):
    print("FAIL", what, file=sys.stderr, flush=True)
    sys.exit(1)


def legal(board, result, what):
    """The engine's `bestmove` is a legal move of `board` (python-chess
    already refuses an illegal one with EngineError; this names the case)."""
    if result.move is None or result.move not in board.legal_moves:
        fail(f"{what}: bestmove {result.move} is not legal in {board.fen()}")


def engine():
    return chess.engine.SimpleEngine.popen_uci([BINARY, "uci"], timeout=30)


e = engine()
try:
    # 1. Handshake: `uci` answered with `id name` and the options, then
    # `uciok` (python-chess waits for it and parses every option line).
    if not e.id.get("name", "").startswith("houserules"):
        fail(f"id name: {e.id}")
    for name in ["UCI_Variant", "UCI_Chess960", "HouseRules", "GameFile", "Hash",
                 "Skill Level", "UCI_LimitStrength", "UCI_Elo"]:
        if name not in e.options:
            fail(f"option {name} not declared: {sorted(e.options)}")
    if e.options["UCI_Elo"].type != "spin" or e.options["UCI_LimitStrength"].type != "check":
        fail("UCI_Elo must be a spin, UCI_LimitStrength a check")
    if "antichess" not in e.options["UCI_Variant"].var or "capablanca" not in e.options["UCI_Variant"].var:
        fail(f"UCI_Variant vars: {e.options['UCI_Variant'].var}")
    ok("handshake: id name, options, uciok")

    # 2. isready -> readyok.
    e.ping()
    ok("isready")

    # 3. position startpos moves ... ; go depth N.
    board = chess.Board()
    for san in ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6"]:
        board.push_san(san)
    info = e.analyse(board, chess.engine.Limit(depth=4))
    if info.get("depth") != 4:
        fail(f"go depth 4 reported depth {info.get('depth')}")
    for key in ["score", "nodes", "nps", "pv", "time"]:
        if key not in info:
            fail(f"info line without {key}: {info}")
    pv_board = board.copy()
    for m in info["pv"]:
        if m not in pv_board.legal_moves:
            fail(f"pv move {m} is illegal after {pv_board.fen()}")
        pv_board.push(m)
    r = e.play(board, chess.engine.Limit(depth=4))
    legal(board, r, "startpos moves, depth 4")
    ok(f"position startpos moves ...; go depth 4 -> {board.san(r.move)} (pv {len(info['pv'])} legal moves)")

    # go searchmoves (python-chess's root_moves): the answer is among them.
    only = [chess.Move.from_uci("a2a3"), chess.Move.from_uci("h2h3")]
    r = e.play(board, chess.engine.Limit(depth=3), root_moves=only)
    if r.move not in only:
        fail(f"go searchmoves a2a3 h2h3 answered {r.move}")
    ok(f"go depth 3 searchmoves a2a3 h2h3 -> {r.move.uci()}")

    # 4. position fen ... ; go nodes.
    kiwipete = chess.Board("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
    r = e.play(kiwipete, chess.engine.Limit(nodes=20000))
    legal(kiwipete, r, "position fen kiwipete, go nodes")
    ok(f"position fen ...; go nodes 20000 -> {r.move.uci()}")

    # 5. go movetime: the answer comes near the time asked (generous upper
    # bound: the machine may be loaded).
    t = time.monotonic()
    r = e.play(board, chess.engine.Limit(time=0.3))
    took = time.monotonic() - t
    legal(board, r, "go movetime 300")
    if took > 3.0:
        fail(f"go movetime 300 took {took:.2f} s")
    ok(f"go movetime 300 -> {r.move.uci()} in {took:.2f} s")

    # 6. go wtime/btime/winc/binc: a short clock is respected.
    t = time.monotonic()
    r = e.play(board, chess.engine.Limit(white_clock=2.0, black_clock=2.0,
                                         white_inc=0.05, black_inc=0.05))
    took = time.monotonic() - t
    legal(board, r, "go wtime/btime/winc/binc")
    if took > 2.0:
        fail(f"go with 2 s on the clock took {took:.2f} s")
    ok(f"go wtime 2000 btime 2000 winc 50 binc 50 -> {r.move.uci()} in {took:.2f} s")

    # 7. go infinite, then stop: bestmove comes at once after stop.
    with e.analysis(board) as analysis:
        time.sleep(0.3)
        t = time.monotonic()
        analysis.stop()
        best = analysis.wait()
        took = time.monotonic() - t
    if best.move is None or best.move not in board.legal_moves:
        fail(f"stop: bestmove {best.move} is not legal")
    if took > 1.0:
        fail(f"stop answered after {took:.2f} s")
    ok(f"go infinite; stop -> bestmove {best.move.uci()} after {took * 1000:.0f} ms")

    # 8. Mate in 2 (white to move): Nf6+ gxf6 Bxf7#. Proved by exhaustive
    # search in crates/search/tests/mates.py (python-chess); Stockfish 15.1
    # `go depth 12` agrees: `score mate 2 ... pv d5f6 g7f6 c4f7`.
    mate2 = chess.Board("r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1")
    info = e.analyse(mate2, chess.engine.Limit(depth=6))
    if info["score"].relative != chess.engine.Mate(2):
        fail(f"mate in 2: score {info['score']}")
    if info["pv"][0] != chess.Move.from_uci("d5f6"):
        fail(f"mate in 2: first move {info['pv'][0]}")
    ok("mate in 2 found: score mate 2, pv starts d5f6")

    # 9. ucinewgame (python-chess sends it when the game object changes)
    # and a short game of engine against itself; every move legal.
    board = chess.Board()
    game = object()
    while not board.is_game_over() and board.ply() < 24:
        r = e.play(board, chess.engine.Limit(depth=3), game=game)
        legal(board, r, f"self-play ply {board.ply() + 1}")
        board.push(r.move)
    ok(f"ucinewgame; a {board.ply()}-ply game, every move legal")

    # 10. UCI_LimitStrength/UCI_Elo and Skill Level: accepted, and moves
    # stay legal at the weakest setting.
    e.configure({"UCI_LimitStrength": True, "UCI_Elo": e.options["UCI_Elo"].min})
    board = chess.Board()
    for _ in range(6):
        r = e.play(board, chess.engine.Limit(time=0.2), game=game)
        legal(board, r, "UCI_LimitStrength at the lowest UCI_Elo")
        board.push(r.move)
    e.configure({"UCI_LimitStrength": False, "Skill Level": 2})
    r = e.play(board, chess.engine.Limit(time=0.2), game=game)
    legal(board, r, "Skill Level 2")
    e.configure({"Skill Level": 8})
    ok("UCI_LimitStrength with UCI_Elo, Skill Level")

    # 11. UCI_Variant antichess (python-chess's AntichessBoard validates:
    # compulsory captures, no castling, king an ordinary piece). After
    # 1. e3 b5 White must capture: Bxb5 is the only legal move
    # (python-chess: AntichessBoard().legal_moves after e3 b5 is [f1b5]).
    board = chess.variant.AntichessBoard()
    board.push_uci("e2e3")
    board.push_uci("b7b5")
    if [m.uci() for m in board.legal_moves] != ["f1b5"]:
        fail("python-chess antichess reference changed")
    r = e.play(board, chess.engine.Limit(depth=3))
    if r.move != chess.Move.from_uci("f1b5"):
        fail(f"antichess forced capture: {r.move}")
    board = chess.variant.AntichessBoard()
    while not board.is_game_over() and board.ply() < 30:
        r = e.play(board, chess.engine.Limit(depth=2))
        legal(board, r, f"antichess ply {board.ply() + 1}")
        board.push(r.move)
    ok(f"UCI_Variant antichess: forced capture, a {board.ply()}-ply game legal")

    # 12. HouseRules (a preset list) on the standard board.
    e.configure({"HouseRules": "capture-to-win"})
    board = chess.Board("4k3/8/8/3p4/8/8/8/3RK3 w - - 0 1")
    # capture-to-win: the first capture wins, so Rxd5 (the only capture,
    # python-chess lists it) ends the game at once.
    r = e.play(board, chess.engine.Limit(depth=2))
    if r.move != chess.Move.from_uci("d1d5"):
        fail(f"HouseRules capture-to-win: {r.move}")
    e.configure({"HouseRules": ""})
    ok("HouseRules capture-to-win takes the winning capture")
finally:
    e.quit()


class Raw:
    """A raw UCI conversation, for engines and games python-chess lacks."""

    def __init__(self, argv):
        self.p = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  text=True, bufsize=1)

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def until(self, prefix, timeout=30):
        end = time.monotonic() + timeout
        lines = []
        while time.monotonic() < end:
            line = self.p.stdout.readline()
            if not line:
                fail(f"engine closed its output waiting for {prefix!r}: {lines[-5:]}")
            line = line.strip()
            lines.append(line)
            if line.startswith(prefix):
                return line, lines
        fail(f"no {prefix!r} within {timeout} s")

    def close(self):
        self.send("quit")
        self.p.wait(timeout=10)


def fairy_legal(fsf, variant, moves):
    """Fairy-Stockfish's legal moves (`go perft 1`) after `moves`."""
    fsf.send(f"setoption name UCI_Variant value {variant}")
    fsf.send("position startpos" + (" moves " + " ".join(moves) if moves else ""))
    fsf.send("go perft 1")
    _, lines = fsf.until("Nodes searched")
    return {line.split(":")[0] for line in lines if ": 1" in line}


# 13. Variants python-chess does not know: UCI_Variant capablanca and
# gardner, a short game each; every bestmove is in Fairy-Stockfish's list
# of legal moves for the same variant and moves.
import shutil
if shutil.which(FAIRY) is None:
    fail(f"Fairy-Stockfish not found at {FAIRY} (Debian package fairy-stockfish)")
fsf = Raw([FAIRY])
fsf.send("uci")
fsf.until("uciok")
ours = Raw([BINARY, "uci"])
ours.send("uci")
ours.until("uciok")
for variant, plies in [("capablanca", 12), ("gardner", 12)]:
    ours.send(f"setoption name UCI_Variant value {variant}")
    ours.send("ucinewgame")
    moves = []
    for _ in range(plies):
        allowed = fairy_legal(fsf, variant, moves)
        if not allowed:
            break
        ours.send("position startpos" + (" moves " + " ".join(moves) if moves else ""))
        ours.send("go depth 3")
        line, _ = ours.until("bestmove")
        mv = line.split()[1]
        if mv not in allowed:
            fail(f"{variant}: bestmove {mv} after {moves} not in Fairy-Stockfish's {sorted(allowed)}")
        moves.append(mv)
    ok(f"UCI_Variant {variant}: {len(moves)} moves, all legal for Fairy-Stockfish")
ours.close()
fsf.close()

print(f"all {CHECKS} checks passed")
