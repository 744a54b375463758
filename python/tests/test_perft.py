"""Board.perft against published node counts.

The start position's counts (20, 400, 8,902, 197,281) are the published ones (Chess Programming
Wiki, "Perft Results"; also line 1 of shared/data/perft/standard.epd). The suites of
../shared/data/perft (standard.epd, chess960.perft, and the lichess variants) are checked at every
listed depth whose count is at most HOUSERULES_PY_PERFT_MAX_NODES (default 1,000,000); they are
skipped, saying so, when ../shared is absent.
"""

import threading
import time

import pytest

import houserules
from conftest import env_int

MAX_NODES = env_int("HOUSERULES_PY_PERFT_MAX_NODES", 1_000_000)


def test_start_position_published_counts():
    b = houserules.Board()
    assert [b.perft(d) for d in range(1, 5)] == [20, 400, 8902, 197281]
    divide = b.divide(2)
    assert len(divide) == 20 and sum(divide.values()) == 400 and divide["e2e4"] == 20


def read_perft(path):
    """`id`/`epd`/`perft D N` records (the .perft format of shared/data/perft)."""
    out = []
    cur = None
    for line in path.read_text().splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        key, _, rest = line.partition(" ")
        if key == "id":
            cur = {"id": rest, "fen": None, "counts": {}}
            out.append(cur)
        elif key == "epd":
            cur["fen"] = rest
        elif key == "perft":
            d, n = rest.split()
            cur["counts"][int(d)] = int(n)
    return out


def read_epd(path):
    """`FEN ;D1 N ;D2 N ...` lines (standard.epd, fischer.epd)."""
    out = []
    for i, line in enumerate(path.read_text().splitlines()):
        if not line.strip():
            continue
        fen, *depths = [p.strip() for p in line.split(";")]
        counts = {int(d.split()[0][1:]): int(d.split()[1]) for d in depths}
        out.append({"id": f"line {i + 1}", "fen": fen, "counts": counts})
    return out


def check(records, make, minimum):
    assert len(records) >= minimum, f"suite truncated: {len(records)} records"
    checked = 0
    for r in records:
        b = make(r["fen"], "960" in r["id"])
        depths = sorted(r["counts"])
        for d in depths:
            n = r["counts"][d]
            if n > MAX_NODES and d != depths[0]:
                continue
            if n > 50 * MAX_NODES:
                continue
            assert b.perft(d) == n, f"{r['id']} {r['fen']} depth {d}"
            checked += 1
    assert checked >= len(records)


def test_standard_epd(shared):
    check(read_epd(shared / "perft" / "standard.epd"), lambda f, _: houserules.Board(fen=f), 128)


def test_chess960(shared):
    recs = read_perft(shared / "perft" / "chess960.perft")
    check(recs, lambda f, _: houserules.Board(fen=f, chess960=True), 960)


@pytest.mark.parametrize(
    "file,game,minimum",
    [
        ("crazyhouse.perft", "crazyhouse", 4),
        ("atomic.perft", "atomic", 7),
        ("3check.perft", "3check", 2),
        ("antichess.perft", "antichess", 3),
        ("horde.perft", "horde", 3),
        ("racingkings.perft", "racingkings", 3),
    ],
)
def test_variant_suites(shared, file, game, minimum):
    recs = read_perft(shared / "perft" / file)
    # The atomic960 records (`960` in their id) castle as Chess960: `kq` on a rook off
    # the corner is a Chess960 right.
    check(recs, lambda f, c960: houserules.Board(game=game, fen=f, chess960=c960), minimum)


def test_perft_releases_the_gil():
    # While one thread counts (depth 6 of the start position: 119,060,324 leaves, published), the main
    # thread keeps running Python code; with the GIL held it could not.
    b = houserules.Board()
    result = {}
    t = threading.Thread(target=lambda: result.setdefault("n", b.perft(6)))
    ticks = 0
    t.start()
    while t.is_alive():
        ticks += 1
        time.sleep(0.001)
    t.join()
    assert result["n"] == 119060324
    assert ticks > 3
