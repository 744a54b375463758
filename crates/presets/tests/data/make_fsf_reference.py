#!/usr/bin/env python3
"""Reference random playouts of the presets Fairy-Stockfish can model.

Writes fsf_reference.jsonl next to this script: one JSON object per playout,
replayed by `tests/fsf_differential.rs` through `houserules_presets::build`.

Provenance: every value comes from Fairy-Stockfish through pyffish 0.0.90
(GPL-3.0, a test-time tool only). The variant configurations below are the
Fairy-Stockfish models of our presets named in the notes of
../shared/data/variant-perft.tsv; before writing anything this script checks
that each configuration reproduces the small perft rows of that file for
its preset (so the models are the ones the tsv was computed with, or agree
with them on those rows). Moves are chosen with `random.Random` seeded per
preset and playout:

    /tmp/ffvenv/bin/python crates/presets/tests/data/make_fsf_reference.py
    /tmp/ffvenv/bin/python crates/presets/tests/data/make_fsf_reference.py --dump RULES PLAYOUT

Fields: as crates/definitions/tests/data/make_fsf_reference.py, with
`rules` (the --rules argument) instead of `game`, and these `end` values:

    "variant-end"        is_immediate_game_end (value: its result)
    "no-moves-in-check"  no legal move, a royal piece attacked (value: game_result)
    "no-moves"           no legal move otherwise (value: game_result)
    "fifty-move", "threefold", "insufficient-material", "ply-cap"  as there

`value` is from the side to move's view: negative lost, 0 draw, positive won.
"""

import csv
import json
import os
import random
import sys

import pyffish as sf

assert sf.version() == (0, 0, 90), f"expected pyffish 0.0.90, got {sf.version()}"

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "fsf_reference.jsonl")
TSV = os.path.join(HERE, "..", "..", "..", "..", "..", "shared", "data", "variant-perft.tsv")

# Fairy-Stockfish models of presets that have no built-in variant.
INI = """
[hr-dual-king:chess]
king = -
commoner = k
castling = false
extinctionValue = loss
extinctionPieceTypes = k
extinctionPieceCount = 1
extinctionPseudoRoyal = true
startFen = rnbkkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBKKBNR w - - 0 1

[hr-weak-dual-king:chess]
king = -
commoner = k
castling = false
extinctionValue = loss
extinctionPieceTypes = k
extinctionPieceCount = 0
extinctionPseudoRoyal = true
dupleCheck = true
startFen = rnbkkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBKKBNR w - - 0 1

[hr-capture-all:chess]
king = -
commoner = k
castlingKingPiece = k
extinctionValue = loss
extinctionPieceTypes = *
promotionPieceTypes = qrbn
stalemateValue = loss

[hr-extinction-pawn:chess]
extinctionValue = loss
extinctionPieceTypes = p

[hr-knightmate-rules:chess]
king = -
commoner = k
castlingKingPiece = k
extinctionValue = loss
extinctionPieceTypes = n
extinctionPseudoRoyal = true
startFen = rnbnkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBNKBNR w KQkq - 0 1

# Berolina pawns with sideways captures. Like the model the tsv rows were
# computed with, it also lets a sideways capture take en passant, which the
# spec forbids for berolina-pawns-2: the Rust test expects those
# differences.
[hr-berolina2:chess]
pawn = -
customPiece1 = p:mfFcfWcsWimfnA
pawnTypes = p
promotionPawnTypes = p
enPassantTypes = p
doubleStep = true
promotionPieceTypes = qrbn
"""

# (--rules argument, Fairy-Stockfish variant)
PRESETS = [
    ("suicide-chess", "antichess"),
    ("coregal", "coregal"),
    ("capture-all", "hr-capture-all"),
    ("berolina-pawns:scope=both", "berolina"),
    ("dual-king", "hr-dual-king"),
    ("weak-dual-king", "hr-weak-dual-king"),
    ("extinction-chess:target=pawn", "hr-extinction-pawn"),
    ("knightmate-rules", "hr-knightmate-rules"),
    ("berolina-pawns-2:scope=both", "hr-berolina2"),
]

POSITIONS_PER_PRESET = 4000
MAX_PLIES = 1000
# tsv rows up to this many nodes are re-counted to check each model.
CHECK_NODES = 20000


def digest(moves):
    h = 0x811C9DC5
    for b in " ".join(moves).encode():
        h ^= b
        h = (h * 0x01000193) & 0xFFFFFFFF
    return f"{h:08x}"


def chess960_start(n):
    """Start position number n (0-959) by Scharnagl's numbering."""
    rank = [None] * 8
    n, b1 = divmod(n, 4)
    rank[2 * b1 + 1] = "B"
    n, b2 = divmod(n, 4)
    rank[2 * b2] = "B"
    n, q = divmod(n, 6)
    free = [i for i in range(8) if rank[i] is None]
    rank[free[q]] = "Q"
    knights = [(0, 1), (0, 2), (0, 3), (0, 4), (1, 2), (1, 3), (1, 4), (2, 3), (2, 4), (3, 4)][n]
    free = [i for i in range(8) if rank[i] is None]
    for k in knights:
        rank[free[k]] = "N"
    free = [i for i in range(8) if rank[i] is None]
    for i, p in zip(free, "RKR"):
        rank[i] = p
    white = "".join(rank)
    files = "abcdefgh"
    rooks = [files[i] for i, p in enumerate(rank) if p == "R"]
    castling = rooks[1].upper() + rooks[0].upper() + rooks[1] + rooks[0]
    return f"{white.lower()}/pppppppp/8/8/8/8/PPPPPPPP/{white} w {castling} - 0 1"


def playout(rules, variant, index, dump=False):
    rng = random.Random(f"{rules}/{index}")
    start = sf.start_fen(variant)
    is960 = False
    # Fairy-Stockfish is asked about `base` + `since`: the position before
    # the last irreversible move and the moves from there (repetitions
    # cannot reach further back), which keeps a playout linear in time.
    base, since = start, []
    plies = []
    while True:
        legal = sorted(sf.legal_moves(variant, base, since, is960))
        fen = sf.get_fen(variant, base, since, is960)
        if dump:
            print(len(plies), fen, " ".join(legal))
        end, value = None, None
        immediate, ivalue = sf.is_immediate_game_end(variant, base, since, is960)
        if immediate:
            end, value = "variant-end", ivalue
        elif not legal:
            value = sf.game_result(variant, base, since, is960)
            in_check = bool(since) and sf.gives_check(variant, base, since, is960)
            end = "no-moves-in-check" if in_check else "no-moves"
        elif sf.is_optional_game_end(variant, base, since, is960)[0]:
            end = "fifty-move" if int(fen.split()[-2]) >= 100 else "threefold"
        elif sf.has_insufficient_material(variant, base, since, is960) == (True, True):
            end = "insufficient-material"
        elif len(plies) >= MAX_PLIES:
            end = "ply-cap"
        if end is not None:
            final = {"fen": fen, "count": len(legal), "digest": digest(legal), "end": end, "value": value}
            break
        m = rng.choice(legal)
        plies.append(f"{m} {len(legal)} {digest(legal)}")
        after = sf.get_fen(variant, base, since + [m], is960)
        if int(after.split()[-2]) == 0:
            base, since = fen, [m]
        else:
            since.append(m)
    return {
        "rules": rules,
        "variant": variant,
        "playout": index,
        "start": start,
        "plies": plies,
        "final": final,
    }


def perft(variant, fen, depth):
    moves = sf.legal_moves(variant, fen, [])
    if depth == 1:
        return len(moves)
    return sum(perft(variant, sf.get_fen(variant, fen, [m]), depth - 1) for m in moves)


def check_models():
    with open(TSV) as f:
        rows = list(csv.reader(f, delimiter="\t"))[1:]
    for rules, variant in PRESETS:
        checked = 0
        for row in rows:
            if row[0] == rules and int(row[4]) <= CHECK_NODES:
                got = perft(variant, row[2], int(row[3]))
                assert got == int(row[4]), f"{rules} as {variant}: perft {row[3]} of {row[2]} is {got}, tsv {row[4]}"
                checked += 1
        assert checked, f"{rules}: no tsv row small enough to check the model"
        print(f"{rules}: model {variant} matches {checked} tsv rows", file=sys.stderr)


def main():
    sf.load_variant_config(INI)
    if len(sys.argv) == 4 and sys.argv[1] == "--dump":
        variant = dict(PRESETS)[sys.argv[2]]
        print(json.dumps(playout(sys.argv[2], variant, int(sys.argv[3]), dump=True)["final"]))
        return
    # `--append RULES`: add one preset's playouts at the end of the file
    # (seeds are per preset, so this equals a full run when RULES is last).
    only = sys.argv[2] if len(sys.argv) == 3 and sys.argv[1] == "--append" else None
    check_models()
    with open(OUT, "a" if only else "w") as out:
        for rules, variant in PRESETS:
            if only is not None and rules != only:
                continue
            total, index, ends = 0, 0, {}
            while total < POSITIONS_PER_PRESET:
                p = playout(rules, variant, index)
                out.write(json.dumps(p, separators=(",", ":")) + "\n")
                total += len(p["plies"]) + 1
                ends[p["final"]["end"]] = ends.get(p["final"]["end"], 0) + 1
                index += 1
            print(f"{rules}: {index} playouts, {total} positions, {ends}", file=sys.stderr)


if __name__ == "__main__":
    main()
