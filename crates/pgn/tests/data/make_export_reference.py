#!/usr/bin/env python3
"""What python-chess reads from PGN files: tags, mainline and variation
moves (UCI), comments and NAGs, as one digest per game.

Two uses:

- Without arguments, it reads the shared PGN test files
  (../shared/data/pgn) and writes export_reference.tsv next to this
  script: what python-chess reads from the *input* files
  (with `SetUp "1"` added before a `FEN` tag that has none, see
  `with_setup`). The Rust test
  tests/export_roundtrip.rs rewrites every game with the export writer,
  reads its output back and compares it with this file.
- With `--dump DIR`, it prints the same JSON lines for the files under DIR
  (the Rust test's rewritten files) to standard output, so that
  python-chess itself reads our output back (the Rust test runs this
  when python3 with python-chess 1.11.2 is available, and says loudly
  when it is not).

Each line: FILE TAB GAME TAB ERRORS (python-chess's move errors) TAB
PLIES (mainline) TAB DIGEST, where DIGEST is the 64-bit FNV-1a hash (16
hex digits) of the game's canonical text (`canonical` below: one `H name
value` line per header in python-chess's order, then the movetext: `C
comment` before a line's first move, `M uci nags`, `c comment`, `(` and `)`
around variations; comments with whitespace runs collapsed). The Rust test
builds the same text from what it reads back; the files are too large to
commit whole (7 MB).

Regenerate (from the repository root):

    pip install chess==1.11.2
    python3 crates/pgn/tests/data/make_export_reference.py
"""

import os
import sys

import chess
import chess.pgn

assert chess.__version__ == "1.11.2", f"expected python-chess 1.11.2, got {chess.__version__}"

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", "..", ".."))


def norm(text):
    return " ".join(text.split())


def fnv1a64(data):
    h = 0xCBF29CE484222325
    for b in data:
        h ^= b
        h = (h * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return h


def canonical_line(line, out):
    if line["comment"]:
        out.append("C " + line["comment"])
    for m in line["moves"]:
        out.append("M " + m["uci"] + " " + ",".join(str(n) for n in m["nags"]))
        if m["comment"]:
            out.append("c " + m["comment"])
        for v in m["variations"]:
            out.append("(")
            canonical_line(v, out)
            out.append(")")


def canonical(headers, line):
    out = ["H " + k + " " + v for k, v in headers]
    canonical_line(line, out)
    return "\n".join(out) + "\n"


def line_of(first_nodes, starting_comment):
    """The line starting with the node first_nodes[0], following main children."""
    moves = []
    node = first_nodes
    while node is not None:
        moves.append(
            {
                "uci": node.uci() if node.move else "0000",
                "nags": sorted(node.nags),
                "comment": norm(node.comment),
                "variations": [line_of(v, v.starting_comment) for v in node.parent.variations[1:]]
                if node.parent.variations and node.parent.variations[0] is node
                else [],
            }
        )
        node = node.variations[0] if node.variations else None
    return {"comment": norm(starting_comment), "moves": moves}


def open_pgn(path):
    """The file's text as the houserules reader decodes it: each line as
    UTF-8, or, when it is not UTF-8, as ISO 8859-1 (the PGN Standard's
    character set, 2.1). python-chess reads whatever text it is given, so
    the reference uses the same decoding (immortal-games.pgn has Latin-1
    lines)."""
    import io

    with open(path, "rb") as raw:
        data = raw.read()
    lines = []
    for line in data.split(b"\n"):
        try:
            lines.append(line.decode("utf-8"))
        except UnicodeDecodeError:
            lines.append(line.decode("latin-1"))
    text = "\n".join(lines)
    if text.startswith("\ufeff"):
        text = text[1:]
    return io.StringIO(text)


def with_setup(headers):
    """The headers export format must give back: PGN Standard 9.7.1 pairs a
    `FEN` tag with `SetUp "1"`, so a game that has `FEN` and no `SetUp`
    reads back with `SetUp 1` just before `FEN` (where python-chess's
    `Game.setup` puts it). Every other header is unchanged."""
    names = [k for k, _ in headers]
    if "FEN" in names and "SetUp" not in names:
        i = names.index("FEN")
        headers = headers[:i] + [["SetUp", "1"]] + headers[i:]
    return headers


def dump(data, out, expected=False):
    files = []
    for dirpath, _dirs, names in os.walk(data):
        for name in names:
            if name.endswith(".pgn"):
                files.append(os.path.relpath(os.path.join(dirpath, name), data).replace(os.sep, "/"))
    files.sort()
    total = 0
    for rel in files:
        with open_pgn(os.path.join(data, rel)) as handle:
            index = 0
            while True:
                game = chess.pgn.read_game(handle)
                if game is None:
                    break
                index += 1
                first = game.variations[0] if game.variations else None
                line = line_of(first, "") if first is not None else {"comment": "", "moves": []}
                line["comment"] = norm(game.comment)
                headers = [[k, v] for k, v in game.headers.items()]
                if expected:
                    headers = with_setup(headers)
                text = canonical(headers, line)
                digest = fnv1a64(text.encode("utf-8"))
                out.write(f"{rel}\t{index}\t{len(game.errors)}\t{len(line['moves'])}\t{digest:016x}\n")
        total += index
    return total, len(files)


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--dump":
        dump(sys.argv[2], sys.stdout)
        return
    data = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "..", "shared", "data", "pgn")
    out_path = os.path.join(HERE, "export_reference.tsv")
    with open(out_path, "w", encoding="utf-8", newline="\n") as out:
        total, n = dump(os.path.abspath(data), out, expected=True)
    print(f"{total} games from {n} files -> {out_path}")


if __name__ == "__main__":
    main()
