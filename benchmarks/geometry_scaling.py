"""How the assemblers scale with the number of glyphs on a page (the shared page geometry).

    python benchmarks/geometry_scaling.py [--sizes 1000,10000,100000] [--repeat N] [--only reading,...]
                                          [--shapes one-line,...]

Builds synthetic pages in memory (glyph tables, no PDF: the interpreter is not timed) and times
every installed assembler on each, printing a markdown table of microseconds per glyph and, per
assembler and page shape, the ratio of the per-glyph time on the largest page to that on the
smallest: near 1 for linear work, about 1.x for n log n, about largest / smallest (100 for
100k against 1k) for a quadratic walk. Figures to read, not a test: nothing is asserted.

Each measurement is the median of ``--repeat`` runs; every run gets a fresh page context, so
nothing the page geometry caches carries over from one run to the next. Page building is not
timed; the garbage collector is collected before each run and left on, as the library runs.
"""

from __future__ import annotations

import argparse
import gc
import random
import statistics
import sys
import time
from collections.abc import Callable

from glyphweave.components.catalog import Catalog
from glyphweave.core.glyphtable import GlyphTable
from glyphweave.core.stages import Assembler
from glyphweave.testing.factories import add_text, page_context

TEXT = "lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor "


def one_line(n: int) -> GlyphTable:
    """``n`` glyphs of running text on one baseline, one run."""
    table = GlyphTable()
    add_text(table, (TEXT * (n // len(TEXT) + 1))[:n], 0, 700, size=1.0)
    return table


def one_line_cells(n: int) -> GlyphTable:
    """``n`` glyphs on one baseline as cells of ten letters set 4 box heights apart: every gap
    is a wide gap (where lines split, gutters are looked for)."""
    table = GlyphTable()
    for k in range(n // 10):
        add_text(table, "abcdefghij", k * 9.0, 700, size=1.0)
    return table


def cell_rows(n: int) -> GlyphTable:
    """``n`` glyphs as four rows of ten-letter cells, each row one line that splits at every
    gap (the reading assembler's order recovery looks for interleaved columns in them)."""
    table = GlyphTable()
    for row in range(4):
        for k in range(n // 40):
            add_text(table, "abcdefghij", k * 9.0 + row * 0.37, 700 - 2 * row, size=1.0)
    return table


def short_lines(n: int, *, seed: int = 1) -> GlyphTable:
    """``n`` glyphs as lines of ten in two columns, the lines painted in random order."""
    table = GlyphTable()
    count = n // 10
    per_column = (count + 1) // 2
    placed = [(k // per_column, k % per_column) for k in range(count)]
    random.Random(seed).shuffle(placed)
    for column, row in placed:
        add_text(table, TEXT[(row * 7) % 60:(row * 7) % 60 + 10], 36 + column * 300, 780 - row * 1.2, size=1.0)
    return table


SHAPES: dict[str, Callable[[int], GlyphTable]] = {
    "one-line": one_line,
    "one-line-cells": one_line_cells,
    "cell-rows": cell_rows,
    "short-lines-shuffled": short_lines,
}


def assemblers(only: list[str]) -> dict[str, Assembler]:
    """The installed assemblers (those of ``only`` when given), with their default options."""
    catalog = Catalog.discover()
    installed = catalog.names("assembler")
    missing = [name for name in only if name not in installed]
    if missing:
        print(f"not installed, skipped: {', '.join(missing)}", file=sys.stderr)
    out = {}
    for name in only or installed:
        if name in installed:
            cls = catalog.get("assembler", name)
            instance = cls(**cls.validate_options({}))
            assert isinstance(instance, Assembler)
            out[name] = instance
    return out


def measure(assembler: Assembler, table: GlyphTable, repeat: int) -> float:
    """Median seconds of ``assembler`` on a fresh page context around ``table``."""
    times = []
    indices = range(len(table))
    for _ in range(repeat):
        page = page_context(table)
        gc.collect()
        started = time.perf_counter()
        assembler.assemble(page, indices)
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Per-glyph time of the assemblers on growing synthetic pages.")
    parser.add_argument("--sizes", default="1000,10000,100000", help="glyphs per page, comma-separated")
    parser.add_argument("--repeat", type=int, default=3, help="runs per (assembler, page); median taken")
    parser.add_argument("--only", default="", help="comma-separated assembler names (default: all installed)")
    parser.add_argument("--shapes", default=",".join(SHAPES), help=f"page shapes (of: {', '.join(SHAPES)})")
    args = parser.parse_args(argv)

    try:
        sizes = sorted({int(s) for s in args.sizes.split(",") if s.strip()})
    except ValueError:
        parser.error("--sizes takes whole numbers, e.g. 1000,10000")
    if not sizes or sizes[0] < 10:
        parser.error("--sizes: at least one size, each of 10 glyphs or more")
    if args.repeat < 1:
        parser.error("--repeat must be at least 1")
    shapes = [s.strip() for s in args.shapes.split(",") if s.strip()]
    unknown = [s for s in shapes if s not in SHAPES]
    if unknown:
        parser.error(f"unknown shape(s): {', '.join(unknown)} (known: {', '.join(SHAPES)})")
    chosen = assemblers([n.strip() for n in args.only.split(",") if n.strip()])
    if not chosen:
        print("no assembler to time.", file=sys.stderr)
        return 2

    rows = []
    for shape in shapes:
        for size in sizes:
            table = SHAPES[shape](size)
            glyphs = len(table)
            for name, assembler in chosen.items():
                seconds = measure(assembler, table, args.repeat)
                rows.append((shape, name, glyphs, seconds))
                print(f"{shape:<22} {name:<10} {glyphs:>8} glyphs  {seconds:8.4f} s", file=sys.stderr, flush=True)

    print(f"\n| shape | assembler | {' | '.join(f'{s:,} glyphs µs/glyph' for s in sizes)} | "
          f"ratio {sizes[-1]:,} / {sizes[0]:,} |")
    print("| --- | --- | " + " | ".join("---:" for _ in sizes) + " | ---: |")
    for shape in shapes:
        for name in chosen:
            per = [seconds / glyphs * 1e6 for s, n, glyphs, seconds in rows if s == shape and n == name]
            ratio = per[-1] / per[0] if per[0] > 0 else float("nan")
            print(f"| {shape} | {name} | " + " | ".join(f"{p:.2f}" for p in per) + f" | {ratio:.2f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
