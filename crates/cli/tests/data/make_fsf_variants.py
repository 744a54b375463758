#!/usr/bin/env python3
"""Fairy-Stockfish's variant names with their start positions, one
`NAME<TAB>START-FEN` a line, for the `pgn check` test that every shipped
game's Fairy-Stockfish name selects that game (the same start position).

Regenerate (from the repository root):

    pip install pyffish==0.0.90
    python3 crates/cli/tests/data/make_fsf_variants.py
"""

import os

import pyffish

HERE = os.path.dirname(os.path.abspath(__file__))

with open(os.path.join(HERE, "fsf_variants.txt"), "w", encoding="utf-8", newline="\n") as out:
    out.write(f"# pyffish {pyffish.version()} variants()\n")
    for name in sorted(pyffish.variants()):
        out.write(f"{name}\t{pyffish.start_fen(name)}\n")
