"""Whole-process time of ``glyphweave extract --jobs 1`` against ``--jobs N`` on one long PDF.

    python benchmarks/parallel_extract.py [--pdf FILE] [--jobs 2] [--rounds 9] [--pages 1-60]

By default the PDF is the bench corpus's file with the most pages (``../shared/bench/pdfs``
beside the repository: the Free Culture book, 352 pages). Each round runs both commands,
in an order that alternates from round to round, output to /dev/null; the figure for each
is the median over the rounds, and the ratio is ``--jobs N`` / ``--jobs 1`` (lower is
faster; issue 11 asks for at most 0.65 with 2 jobs on a 2-core machine). Start-up is
included on both sides: this is what a user of the command waits.

``--pages`` times a selection instead of the whole file (for finding where splitting starts
to pay: ``--pages 1-32``, ``1-64``, ...). Run nothing else while timing. This is not a test.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
DEFAULT_PDFS = HERE.parent.parent / "shared" / "bench" / "pdfs"


def glyphweave() -> list[str]:
    """The glyphweave console script of this interpreter's environment, else the one on PATH."""
    exe = Path(sys.executable).parent / "glyphweave"
    if exe.is_file() and os.access(exe, os.X_OK):
        return [str(exe)]
    found = shutil.which("glyphweave")
    if found is None:
        sys.exit("glyphweave is not installed (pip install -e .)")
    return [found]


def longest(folder: Path) -> Path:
    """The PDF with the most pages in ``folder``."""
    import pikepdf

    best: tuple[int, Path] | None = None
    for path in sorted(folder.glob("*.pdf")):
        try:
            with pikepdf.open(path) as pdf:
                count = len(pdf.pages)
        except Exception:
            continue
        if best is None or count > best[0]:
            best = (count, path)
    if best is None:
        sys.exit(f"no readable PDF in {folder}")
    return best[1]


def run(cmd: list[str]) -> float:
    started = time.perf_counter()
    done = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, check=False)
    elapsed = time.perf_counter() - started
    if done.returncode != 0:
        sys.exit(f"{' '.join(cmd)} exited with {done.returncode}: {done.stderr.decode(errors='replace').strip()}")
    return elapsed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pdf", type=Path, help="the PDF (default: the longest in ../shared/bench/pdfs)")
    parser.add_argument("--jobs", type=int, default=2, help="processes to compare with one (default: 2)")
    parser.add_argument("--rounds", type=int, default=9, help="rounds, each running both (default: 9)")
    parser.add_argument("--pages", help="page ranges to extract (default: all)")
    args = parser.parse_args()
    pdf = args.pdf
    if pdf is None:
        if not DEFAULT_PDFS.is_dir():
            print(f"No PDF folder at {DEFAULT_PDFS}; give --pdf FILE.", file=sys.stderr)
            return 2
        pdf = longest(DEFAULT_PDFS)
    base = [*glyphweave(), "extract", str(pdf), *(["--pages", args.pages] if args.pages else [])]
    commands = {1: [*base, "--jobs", "1"], args.jobs: [*base, "--jobs", str(args.jobs)]}
    print(f"{pdf.name}{' pages ' + args.pages if args.pages else ''}: --jobs 1 against --jobs {args.jobs}, "
          f"{args.rounds} rounds, {os.cpu_count()} cores")
    run(commands[1])  # warm the file cache and the bytecode
    times: dict[int, list[float]] = {jobs: [] for jobs in commands}
    for round_ in range(args.rounds):
        order = list(commands) if round_ % 2 == 0 else list(reversed(commands))
        for jobs in order:
            times[jobs].append(run(commands[jobs]))
        print(f"  round {round_ + 1}: " + "  ".join(f"--jobs {j}: {times[j][-1]:.3f} s" for j in commands))
    one = statistics.median(times[1])
    many = statistics.median(times[args.jobs])
    print(f"median --jobs 1: {one:.3f} s   --jobs {args.jobs}: {many:.3f} s   ratio: {many / one:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
