"""How close to pdftotext a pikepdf + Python extractor could get, file by file.

    python benchmarks/floor.py [--pdfs DIR] [--repeat N] [--python PYTHON ...] [--startup-pdf FILE]
                               [--timeout S] [--json FILE]

Issue 13 asks for no bench file above 2.0x pdftotext. Whether that is reachable for a file depends on
what the file costs before any text logic runs, so this prints, per file and as ratios to pdftotext's
per-document time:

* ``decode``: opening the file with pikepdf and decoding every content stream a page paints (its
  /Contents and the form XObjects it reaches), as qpdf hands them over;
* ``tokens``: that, plus one pass of a single compiled regular expression over every token of those
  streams (``findall``: the tokens become bytes objects, no Python code runs per token). No tokenizer
  written in Python over ``re`` does less;
* ``tokenizer``: decode, plus glyphweave's own tokenizer (``operations(data, fuse=True)``) consumed: the one
  the interpreter runs (the C tokenizer in a compiled build, the reference in a pure one);
* ``interpret``: ``glyphweave.open`` and every page's glyph table (``page.table``): the tokenizer and the
  interpreter, fonts loaded and strings measured and decoded, with no filter or assembler run;
* ``glyphweave``: the whole extraction in the worker (``open`` + ``text()``, with the collector off, as
  the command line all but turns it off), imports excluded.

Each file runs in one fresh worker process per repeat (through ``run.py``'s launcher); the worker takes
the best of three rounds of each figure, and the figure reported is the median over the repeats.
pdftotext is timed as ``run.py --per-document`` times it: its whole process on the file minus its whole
process on the start-up PDF (medians over the repeats, after one run on each not counted), at least 1 ms.

Read it as: a file whose ``tokens`` ratio is already near 1 cannot reach 2.0x with a tokenizer written in
Python, whatever the interpreter does; one whose ``tokenizer`` ratio is near the target needs the
interpretation and assembly to cost almost nothing, and ``glyphweave`` less ``interpret`` is what the
filters and the assembler cost. The figures run whichever glyphweave the Python
running this imports (the pure checkout, or the compiled build when installed); ``--python`` adds
another interpreter with its own install (a virtual environment holding the compiled wheel, say), run
in the same rounds with the order of the interpreters rotating, so the builds are compared within one
run. Nothing is asserted and nothing touches the network.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path

from run import DEFAULT_PDFS, DEFAULT_STARTUP_PDF, measure, no_pdf_folder, outcome, run_child

_WORKER = r'''
import gc, json, re, sys, time

import pikepdf

import glyphweave
from glyphweave.pdf.interpreter import operations  # what the interpreter runs: the C tokenizer where built

# One token of a content stream: a number, a name, a literal string (one level of nesting), a hex
# string, an operator or keyword, a delimiter or a comment.
TOKEN = re.compile(
    rb"[\x00\t\n\x0c\r ]*(?:[0-9.+\-]+|/[^\x00\t\n\x0c\r ()<>\[\]{}/%]*"
    rb"|\((?:[^\\()]|\\.|\((?:[^\\()]|\\.)*\))*\)|<[0-9A-Fa-f\x00\t\n\x0c\r ]*>"
    rb"|[^\x00\t\n\x0c\r ()<>\[\]{}/%]+|<<|>>|[\[\]{}()<>]|%[^\r\n]*)",
    re.S,
)


def painted_streams(pdf):
    """The decoded bytes of every page's contents and of the form XObjects pages reach."""
    out, seen = [], set()

    def forms(resources, depth):
        if depth > 8 or not isinstance(resources, pikepdf.Dictionary):
            return
        xobjects = resources.get("/XObject")
        if not isinstance(xobjects, pikepdf.Dictionary):
            return
        for _, xobj in xobjects.items():
            if not isinstance(xobj, pikepdf.Stream) or xobj.get("/Subtype") != pikepdf.Name.Form:
                continue
            key = xobj.objgen
            if key != (0, 0) and key in seen:
                continue
            seen.add(key)
            try:
                out.append(xobj.read_bytes())
            except pikepdf.PdfError:
                continue
            forms(xobj.get("/Resources"), depth + 1)

    for page in pdf.pages:
        contents = page.obj.get("/Contents")
        parts = [contents] if isinstance(contents, pikepdf.Stream) else list(contents or [])
        try:
            out.append(b"\n".join(part.read_bytes() for part in parts if isinstance(part, pikepdf.Stream)))
        except pikepdf.PdfError:
            pass
        forms(page.obj.get("/Resources"), 0)
    return out


def decode(path):
    with pikepdf.open(path) as pdf:
        return painted_streams(pdf)


def tokens(path):
    return sum(len(TOKEN.findall(data)) for data in decode(path))


def tokenizer(path):
    count = 0
    for data in decode(path):
        for _ in operations(data, fuse=True):
            count += 1
    return count


def interpret(path):
    with glyphweave.open(path) as doc:
        return sum(len(page.table) for page in doc.pages)


def extract(path):
    with glyphweave.open(path) as doc:
        return len(doc.text())


path = sys.argv[1]
gc.disable()
result = {}
for name, step in (("decode", decode), ("tokens", tokens), ("tokenizer", tokenizer), ("interpret", interpret),
                   ("glyphweave", extract)):
    step(path)  # first use (lazy imports, tables) is not what this compares
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        step(path)
        best = min(best, time.perf_counter() - start)
    result[name] = best
result["tokens_count"] = tokens(path)
print(json.dumps(result))
'''

STEPS = ("decode", "tokens", "tokenizer", "interpret", "glyphweave")


def _pdftotext(pdf: Path, timeout: float) -> float | None:
    """pdftotext's whole-process seconds on ``pdf``, as run.py times it (None if it failed)."""
    result = measure("pdftotext", pdf, "", timeout)
    return result["seconds"] if result["status"] == "ok" else None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pdfs", type=Path, default=DEFAULT_PDFS)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--startup-pdf", type=Path, default=DEFAULT_STARTUP_PDF)
    parser.add_argument("--timeout", type=float, default=300.0)
    parser.add_argument("--python", action="append", default=[], metavar="PYTHON",
                        help="also run the worker on this interpreter (another install: the compiled "
                             "build, another revision), interleaved with this one; may be repeated")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    if not args.pdfs.is_dir():
        return no_pdf_folder(args.pdfs)
    files = sorted(args.pdfs.glob("*.pdf"))
    if not files:
        return no_pdf_folder(args.pdfs)
    pythons = [sys.executable, *args.python]

    # steps[python][file][step]: one figure per repeat
    steps = {py: {f.name: {s: [] for s in STEPS} for f in files} for py in pythons}
    token_counts: dict[str, int] = {}
    whole: dict[str, list[float]] = {f.name: [] for f in files}
    startup: list[float] = []
    failures: dict[tuple[str, str], str] = {}
    # One run not counted on each file first: it reads pdftotext's libraries and the file from disk.
    for pdf in [args.startup_pdf, *files]:
        _pdftotext(pdf, args.timeout)
    for repeat in range(args.repeat):
        for number, pdf in enumerate(files):
            if number == repeat % len(files):  # the start-up PDF's slot moves from repeat to repeat
                wall = _pdftotext(args.startup_pdf, args.timeout)
                if wall is not None:
                    startup.append(wall)
            # The interpreters take turns going first, so drift spreads over all of them.
            shift = (repeat + number) % len(pythons)
            for py in pythons[shift:] + pythons[:shift]:
                child = run_child([py, "-c", _WORKER, str(pdf)], args.timeout)
                result = outcome(child)
                if result["status"] != "ok":
                    failures[py, pdf.name] = result.get("message", result["status"])
                    continue
                report = json.loads(child["stdout"])
                for step in STEPS:
                    steps[py][pdf.name][step].append(report[step])
                token_counts[pdf.name] = report["tokens_count"]
            wall = _pdftotext(pdf, args.timeout)
            if wall is not None:
                whole[pdf.name].append(wall)
    if not startup:
        print("pdftotext did not run (is poppler-utils installed?)", file=sys.stderr)
        return 2

    base = statistics.median(startup)
    print(f"pdftotext start-up {base:.3f} s; each step as seconds and as a ratio to pdftotext's per-document time")
    results: dict[str, dict] = {}
    for py in pythons:
        rows = []
        for pdf in files:
            if (py, pdf.name) in failures or not whole[pdf.name] or not steps[py][pdf.name]["glyphweave"]:
                continue
            per_document = max(statistics.median(whole[pdf.name]) - base, 0.001)
            medians = {step: statistics.median(values) for step, values in steps[py][pdf.name].items()}
            rows.append((pdf.name, token_counts[pdf.name], per_document, medians))
        print(f"\n{py}\n")
        _print(rows)
        results[py] = {name: {"tokens": count, "pdftotext": doc, **medians} for name, count, doc, medians in rows}
    for (py, name), message in failures.items():
        print(f"- {name} ({py}): failed ({message})")
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps({
            "pdftotext_startup": base,
            "pythons": results,
            "failures": [{"python": py, "file": name, "message": message} for (py, name), message in failures.items()],
        }, indent=1))
    return 0


def _print(rows: list[tuple[str, int, float, dict[str, float]]]) -> None:
    print("| file | tokens | pdftotext s | " + " | ".join(f"{s} s | ratio" for s in STEPS) + " |")
    print("|---|---:|---:|" + "---:|---:|" * len(STEPS))
    totals = {step: 0.0 for step in STEPS}
    base_total = 0.0
    for name, count, doc, medians in rows:
        base_total += doc
        cells = []
        for step in STEPS:
            totals[step] += medians[step]
            cells.append(f"{medians[step]:.3f} | {medians[step] / doc:.2f}")
        print(f"| {name} | {count:,} | {doc:.3f} | " + " | ".join(cells) + " |")
    if rows:
        cells = [f"{totals[s]:.3f} | **{totals[s] / base_total:.2f}**" for s in STEPS]
        print(f"| **total** | | {base_total:.3f} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    sys.exit(main())
