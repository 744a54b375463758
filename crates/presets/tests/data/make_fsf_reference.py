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

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "..", "scripts"))
import fsf_playout as fp  # noqa: E402  (shared with the definitions generator)
import pyffish as sf  # noqa: E402

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
# tsv rows up to this many nodes are re-counted to check each model.
CHECK_NODES = 20000


def playout(rules, variant, index, dump=False):
    rng = random.Random(f"{rules}/{index}")
    start = sf.start_fen(variant)
    is960 = False

    def ends(base, since, legal):
        immediate, ivalue = sf.is_immediate_game_end(variant, base, since, is960)
        if immediate:
            return "variant-end", ivalue
        if legal:
            return None, None
        value = sf.game_result(variant, base, since, is960)
        check = fp.in_check(variant, base, since, is960)
        return ("no-moves-in-check" if check else "no-moves"), value

    plies, final = fp.play(variant, start, is960, rng, ends, dump)
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
            fp.write_playouts(out, rules, POSITIONS_PER_PRESET, lambda i: playout(rules, variant, i))

if __name__ == "__main__":
    main()
