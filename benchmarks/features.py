"""What words, Markdown and search cost beside plain text, and beside the peers' word boxes.

    python benchmarks/features.py [--pdfs DIR] [--pages N] [--repeat N]

For each PDF (the first ``--pages`` pages), in this one process: glyphweave's text
(``Document.text``), its words (``Document.iter_blocks``), its Markdown (``Document.markdown``)
and a search (``Document.search("the")``), each from a fresh opening, the minimum of ``--repeat``
runs; then the peers' word boxes where they are installed (``pdftotext -bbox``, PyMuPDF's
``get_text("words")``, pdfplumber's ``extract_words()``). Prints seconds, and each feature's time
as a multiple of glyphweave's text on the same file: compare ratios within one run (the machines
here are noisy).
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import glyphweave

DEFAULT_PDFS = Path(__file__).resolve().parents[2] / "shared" / "bench" / "pdfs"


def _best(run: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        run()
        times.append(time.perf_counter() - started)
    return min(times)


def _ours(path: Path, pages: range) -> dict[str, Callable[[], object]]:
    def opened(work: Callable[[glyphweave.Document], object]) -> Callable[[], object]:
        def run() -> object:
            with glyphweave.open(path, pause_gc=True) as doc:
                return work(doc)
        return run

    return {
        "text": opened(lambda doc: doc.text(pages)),
        "words": opened(lambda doc: [blocks for _page, _result, blocks in doc.iter_blocks(pages)]),
        "markdown": opened(lambda doc: doc.markdown(pages)),
        "search": opened(lambda doc: list(doc.search("the", pages))),
    }


def _peers(path: Path, count: int) -> dict[str, Callable[[], object]]:
    peers: dict[str, Callable[[], object]] = {}
    if shutil.which("pdftotext"):
        def poppler() -> object:
            with tempfile.TemporaryDirectory() as folder:
                out = Path(folder) / "words.html"
                subprocess.run(["pdftotext", "-bbox", "-f", "1", "-l", str(count), str(path), str(out)],
                               check=True, capture_output=True)
                return out.read_bytes()
        peers["pdftotext -bbox"] = poppler
    try:
        import pymupdf  # type: ignore[import-not-found]
    except ImportError:
        pass
    else:
        def mupdf() -> object:
            with pymupdf.open(path) as doc:
                return [doc[i].get_text("words") for i in range(min(count, len(doc)))]
        peers["PyMuPDF words"] = mupdf
    try:
        import pdfplumber  # type: ignore[import-not-found]
    except ImportError:
        pass
    else:
        def plumber() -> object:
            with pdfplumber.open(path) as doc:
                return [page.extract_words() for page in doc.pages[:count]]
        peers["pdfplumber words"] = plumber
    return peers


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pdfs", type=Path, default=DEFAULT_PDFS, help="folder of PDFs (default: ../shared/bench/pdfs)")
    parser.add_argument("--pages", type=int, default=30, help="pages of each file (default: 30)")
    parser.add_argument("--repeat", type=int, default=2, help="runs per measurement, the fastest kept (default: 2)")
    args = parser.parse_args(argv)
    files = sorted(args.pdfs.glob("*.pdf"))
    if not files:
        print(f"no PDFs in {args.pdfs}", file=sys.stderr)
        return 2
    columns = ["text", "words", "markdown", "search"]
    peer_names: list[str] = []
    rows = []
    for path in files:
        with glyphweave.open(path) as doc:
            pages = range(min(args.pages, len(doc)))
        timed = {name: _best(run, args.repeat) for name, run in _ours(path, pages).items()}
        for name, run in _peers(path, len(pages)).items():
            timed[name] = _best(run, args.repeat)
            if name not in peer_names:
                peer_names.append(name)
        rows.append((path.name, len(pages), timed))
    header = ["file", "pages", *columns, *peer_names]
    print("| " + " | ".join(header) + " |")
    print("|" + "|".join(["---"] * 2 + ["---:"] * (len(header) - 2)) + "|")
    for name, count, timed in rows:
        text = timed["text"]
        cells = [f"{text:.2f} s"] + [f"{timed[c] / text:.2f}×" if c in timed else "-" for c in header[3:]]
        print(f"| {name} | {count} | " + " | ".join(cells) + " |")
    print("\nText in seconds; every other column as a multiple of glyphweave's text time on the same file.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
