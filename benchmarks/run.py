"""Time glyphweave against pdftotext and the Python peers on a folder of PDFs.

    python benchmarks/run.py [--pdfs DIR] [--repeat N] [--only name,...] [--per-file] [--timeout S]

Every (extractor, file) measurement runs in a fresh worker process, so peak memory is that extractor's
alone and no cache survives from one file to the next. In-process extractors (glyphweave, pypdfium2,
pymupdf, playa, pypdf, pdfminer) are timed inside the worker around "open + text of every page", imports
excluded. Command-line extractors (pdftotext, glyphweave-cli) are timed as whole subprocesses writing to
/dev/null, start-up included: glyphweave-cli against pdftotext is the apples-to-apples pair.

Runs are interleaved (for each repeat, for each file, every extractor in a rotating order) so drift on a
noisy machine hits all extractors alike; each (extractor, file) time is the median of the repeats. Only
installed extractors run; the others are listed as missing. Nothing here touches the network.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
DEFAULT_PDFS = HERE.parent.parent / "shared" / "bench" / "pdfs"

# --------------------------------------------------------------------------------------------------------
# In-process extractors. Each runner gets a path and returns (pages, characters); the worker times only
# the call. The import happens before the clock starts.


def _glyphweave(path: str, profile: str, pause_gc: bool = False) -> tuple[int, int]:
    import glyphweave

    chars = 0
    with glyphweave.open(path, profile=profile, pause_gc=pause_gc) as doc:
        pages = len(doc)
        for i in range(pages):
            chars += len(doc.pages[i].text())
    return pages, chars


def _glyphweave_pause_gc(path: str, profile: str) -> tuple[int, int]:
    """The library as the command line runs it: the cyclic GC paused per page (``pause_gc``)."""
    return _glyphweave(path, profile, pause_gc=True)


def _glyphweave_reading(path: str, profile: str) -> tuple[int, int]:
    """The ``reading`` profile (paint order on every page), the reference the default
    profile's ``auto`` assembler is measured against."""
    return _glyphweave(path, "reading")


def _pypdfium2(path: str, profile: str) -> tuple[int, int]:
    import pypdfium2 as pdfium

    pdf = pdfium.PdfDocument(path)
    chars = 0
    try:
        pages = len(pdf)
        for i in range(pages):
            page = pdf[i]
            textpage = page.get_textpage()
            chars += len(textpage.get_text_range())
            textpage.close()
            page.close()
    finally:
        pdf.close()
    return pages, chars


def _pymupdf(path: str, profile: str) -> tuple[int, int]:
    import pymupdf

    chars = 0
    with pymupdf.open(path) as doc:
        pages = doc.page_count
        for page in doc:
            chars += len(page.get_text())
    return pages, chars


def _playa(path: str, profile: str) -> tuple[int, int]:
    import playa

    chars = 0
    pages = 0
    with playa.open(path) as doc:
        for page in doc.pages:
            chars += len(page.extract_text())
            pages += 1
    return pages, chars


def _pypdf(path: str, profile: str) -> tuple[int, int]:
    from pypdf import PdfReader

    reader = PdfReader(path)
    chars = sum(len(page.extract_text()) for page in reader.pages)
    return len(reader.pages), chars


def _pdfminer(path: str, profile: str) -> tuple[int, int]:
    from pdfminer.high_level import extract_text

    text = extract_text(path)
    return text.count("\f"), len(text)


def _glyphweave_modules() -> tuple[str, ...]:
    """What ``glyphweave.open`` imports on first use (the package's top level is lazy): the
    core, the registry, every plugin module of the entry-point group, and the fontTools
    modules that reading fonts imports when a file first needs them (the AGL, TrueType and
    CFF parsers: 15, 22 and 43 ms). Importing them before the clock matches the peers,
    whose import pulls in their whole machinery."""
    from importlib.metadata import entry_points

    plugins = tuple(sorted({ep.value.split(":")[0] for ep in entry_points(group="glyphweave")}))
    return ("glyphweave", "pikepdf", "glyphweave.api", "glyphweave.registry.catalog",
            "glyphweave.registry.manager", "glyphweave.registry.profile", *plugins,
            "fontTools.agl", "fontTools.ttLib", "fontTools.cffLib", "gzip")


# name -> (module that must be importable, runner, modules to import before the clock starts)
IN_PROCESS: dict[str, tuple[str, Callable[[str, str], tuple[int, int]], tuple[str, ...]]] = {
    "glyphweave": ("glyphweave", _glyphweave, _glyphweave_modules()),
    "glyphweave-pause-gc": ("glyphweave", _glyphweave_pause_gc, _glyphweave_modules()),
    "glyphweave-reading": ("glyphweave", _glyphweave_reading, _glyphweave_modules()),
    "pymupdf": ("pymupdf", _pymupdf, ("pymupdf",)),
    "pypdfium2": ("pypdfium2", _pypdfium2, ("pypdfium2",)),
    "playa": ("playa", _playa, ("playa",)),
    "pypdf": ("pypdf", _pypdf, ("pypdf",)),
    "pdfminer": ("pdfminer", _pdfminer, ("pdfminer.high_level",)),
}
SUBPROCESS = ("pdftotext", "glyphweave-cli")
ALL = ("glyphweave", "glyphweave-pause-gc", "glyphweave-reading", "glyphweave-cli", "pdftotext", "pymupdf", "pypdfium2", "playa", "pypdf", "pdfminer")
BASELINE = "pdftotext"


def _glyphweave_cli() -> list[str] | None:
    """The glyphweave console script of this interpreter's environment, else the one on PATH."""
    exe = Path(sys.executable).parent / "glyphweave"
    if exe.is_file() and os.access(exe, os.X_OK):
        return [str(exe)]
    found = shutil.which("glyphweave")
    return [found] if found else None


def available(name: str) -> bool:
    if name == "pdftotext":
        return shutil.which("pdftotext") is not None
    if name == "glyphweave-cli":
        return _glyphweave_cli() is not None
    import importlib.util

    module = IN_PROCESS[name][0]
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):
        return False


def command(name: str, path: Path, profile: str) -> tuple[list[str], bool]:
    """The command line for one measurement, and whether the worker reports its own time."""
    if name == "pdftotext":
        return ["pdftotext", "-q", str(path), "-"], False
    if name == "glyphweave-cli":
        cli = _glyphweave_cli()
        assert cli is not None
        return [*cli, "extract", str(path), "--profile", profile], False
    return [
        sys.executable,
        str(Path(__file__).resolve()),
        "--worker",
        name,
        str(path),
        "--profile",
        profile,
    ], True


# --------------------------------------------------------------------------------------------------------
# Worker side.


def worker(name: str, path: str, profile: str) -> int:
    import gc
    import importlib

    _, runner, preload = IN_PROCESS[name]
    for module in preload:
        importlib.import_module(module)
    gc.collect()
    start = time.perf_counter()
    pages, chars = runner(path, profile)
    seconds = time.perf_counter() - start
    json.dump({"seconds": seconds, "pages": pages, "chars": chars}, sys.stdout)
    return 0


# --------------------------------------------------------------------------------------------------------
# Parent side.


def run_child(cmd: list[str], timeout: float, capture: bool = True) -> dict:
    """Run ``cmd`` and return wall time, exit code, peak RSS (MB) and its output (stdout, stderr).

    Without ``capture`` the child's standard output goes to /dev/null (the extracted text of a command-line
    extractor is not wanted, and writing it to a file would be timed too).

    The child is reaped with ``os.wait4`` so its resource usage is its own (not the maximum over all
    children so far, as ``RUSAGE_CHILDREN`` would give).
    """
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        proc = subprocess.Popen(
            cmd,
            stdin=subprocess.DEVNULL,
            stdout=out if capture else subprocess.DEVNULL,
            stderr=err,
            start_new_session=True,
        )
        reaped: dict = {}

        def reap() -> None:
            _, status, usage = os.wait4(proc.pid, 0)
            reaped.update(end=time.perf_counter(), status=status, usage=usage)

        thread = threading.Thread(target=reap, daemon=True)
        thread.start()
        thread.join(timeout)
        timed_out = thread.is_alive()
        if timed_out:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, 9)
            thread.join()
        proc.returncode = os.waitstatus_to_exitcode(reaped["status"])  # already reaped: keep Popen quiet
        maxrss = reaped["usage"].ru_maxrss
        # ru_maxrss is in bytes on macOS, KiB elsewhere.
        peak_mb = maxrss / 2**20 if sys.platform == "darwin" else maxrss / 1024
        out.seek(0)
        err.seek(0)
        return {
            "wall": reaped["end"] - start,
            "returncode": proc.returncode,
            "timeout": timed_out,
            "peak_mb": peak_mb,
            "stdout": out.read(),
            "stderr": err.read().decode("utf-8", "replace"),
        }


def measure(name: str, path: Path, profile: str, timeout: float) -> dict:
    cmd, self_timed = command(name, path, profile)
    child = run_child(cmd, timeout, capture=self_timed)
    if child["timeout"]:
        return {"status": "timeout", "peak_mb": child["peak_mb"]}
    if child["returncode"] != 0:
        lines = [line for line in child["stderr"].strip().splitlines() if line.strip()]
        return {
            "status": "error",
            "message": lines[-1] if lines else f"exit {child['returncode']}",
            "peak_mb": child["peak_mb"],
        }
    result = {"status": "ok", "peak_mb": child["peak_mb"], "seconds": child["wall"]}
    if self_timed:
        try:
            report = json.loads(child["stdout"])
        except ValueError:
            return {"status": "error", "message": "worker printed no result", "peak_mb": child["peak_mb"]}
        result.update(seconds=report["seconds"], chars=report["chars"], pages=report["pages"])
    return result


def page_count(path: Path) -> int | None:
    try:
        import pikepdf
    except ImportError:
        return None
    try:
        with pikepdf.open(path) as pdf:
            return len(pdf.pages)
    except Exception:
        return None


def fmt_seconds(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}"


def summarize(
    names: list[str], files: list[Path], results: dict, pages: dict[Path, int | None]
) -> list[dict]:
    """One row per extractor: medians per file, summed over the files it completed."""
    base_medians = {f: _median(results[BASELINE][f]) for f in files} if BASELINE in results else {}
    rows = []
    for name in names:
        medians = {f: _median(results[name][f]) for f in files}
        done = [f for f in files if medians[f] is not None]
        failed = {f: _failure(results[name][f]) for f in files if medians[f] is None}
        total = sum(medians[f] for f in done) if done else None
        common = [f for f in done if base_medians.get(f) is not None]
        ratio = None
        if common:
            base_total = sum(base_medians[f] for f in common)
            ratio = sum(medians[f] for f in common) / base_total if base_total else None
        npages = sum(pages[f] or 0 for f in done)
        peak = max((r.get("peak_mb", 0.0) for f in files for r in results[name][f]), default=0.0)
        rows.append(
            {
                "name": name,
                "total": total,
                "ratio": ratio,
                "ratio_files": len(common),
                "pages_per_s": npages / total if total and npages else None,
                "peak_mb": peak,
                "done": len(done),
                "failed": failed,
                "medians": medians,
            }
        )
    return rows


def _median(runs: list[dict]) -> float | None:
    times = [r["seconds"] for r in runs if r["status"] == "ok"]
    if not runs or len(times) < len(runs):
        return None
    return statistics.median(times)


def _failure(runs: list[dict]) -> str:
    for r in runs:
        if r["status"] == "timeout":
            return "timeout"
    for r in runs:
        if r["status"] == "error":
            return "error: " + r["message"]
    return "not run"


def print_tables(
    rows: list[dict],
    files: list[Path],
    pages: dict[Path, int | None],
    per_file: bool,
    repeat: int,
    timeout: float,
) -> None:
    nfiles = len(files)
    total_pages = sum(p or 0 for p in pages.values())
    print(
        f"\n{nfiles} files, {total_pages} pages; median of {repeat} interleaved run(s) per file; "
        f"timeout {timeout:g} s.\n"
    )
    print(f"| extractor | total s | vs {BASELINE} | pages/s | peak MB | files |")
    print("|---|---:|---:|---:|---:|---:|")
    for row in rows:
        ratio = "-" if row["ratio"] is None else f"{row['ratio']:.2f}"
        if row["ratio"] is not None and row["ratio_files"] < nfiles:
            ratio += f" ({row['ratio_files']} files)"
        pps = "-" if row["pages_per_s"] is None else f"{row['pages_per_s']:.0f}"
        print(
            f"| {row['name']} | {fmt_seconds(row['total'])} | {ratio} | {pps} | {row['peak_mb']:.0f} "
            f"| {row['done']}/{nfiles} |"
        )
    notes = [(row["name"], f.name, why) for row in rows for f, why in row["failed"].items()]
    if notes:
        print()
        for name, fname, why in notes:
            print(f"- {name} on {fname}: {why}")
    if per_file:
        names = [row["name"] for row in rows]
        print("\nSeconds per file (median):\n")
        print("| file | pages | " + " | ".join(names) + " |")
        print("|---|---:|" + "---:|" * len(names))
        by_name = {row["name"]: row for row in rows}
        for f in files:
            cells = []
            for name in names:
                value = by_name[name]["medians"][f]
                cells.append(
                    f"{value:.3f}" if value is not None else by_name[name]["failed"][f].split(":")[0]
                )
            print(f"| {f.name} | {pages[f] if pages[f] is not None else '?'} | " + " | ".join(cells) + " |")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="Time glyphweave against pdftotext and the installed Python peers (see benchmarks/README.md)."
    )
    parser.add_argument(
        "--pdfs", type=Path, default=DEFAULT_PDFS, help=f"folder of PDFs (default: {DEFAULT_PDFS})"
    )
    parser.add_argument(
        "--repeat", type=int, default=3, help="interleaved runs per (extractor, file); median taken"
    )
    parser.add_argument("--only", default="", help=f"comma-separated extractors (of: {', '.join(ALL)})")
    parser.add_argument("--per-file", action="store_true", help="also print seconds per file")
    parser.add_argument(
        "--timeout", type=float, default=300.0, help="seconds per (extractor, file); default 300"
    )
    parser.add_argument("--profile", default="default", help="glyphweave profile (default: default)")
    parser.add_argument("--json", type=Path, help="also write every measurement to this JSON file")
    parser.add_argument("--worker", nargs=2, metavar=("NAME", "PDF"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)

    if args.worker:
        return worker(args.worker[0], args.worker[1], args.profile)

    if args.repeat < 1:
        parser.error("--repeat must be at least 1")
    wanted = [n.strip() for n in args.only.split(",") if n.strip()] or list(ALL)
    unknown = [n for n in wanted if n not in ALL]
    if unknown:
        parser.error(f"unknown extractor(s): {', '.join(unknown)} (known: {', '.join(ALL)})")

    if not args.pdfs.is_dir():
        print(
            f"No PDF folder at {args.pdfs}.\nThe benchmark corpus lives in ../shared/bench/pdfs beside the "
            "repository; pass another folder with --pdfs DIR.",
            file=sys.stderr,
        )
        return 2
    files = sorted(p for p in args.pdfs.iterdir() if p.suffix.lower() == ".pdf" and p.is_file())
    if not files:
        print(f"No .pdf files in {args.pdfs}.", file=sys.stderr)
        return 2

    names = [n for n in wanted if available(n)]
    missing = [n for n in wanted if n not in names]
    if missing:
        print(f"not installed, skipped: {', '.join(missing)}", file=sys.stderr)
    if not names:
        print("none of the requested extractors is installed.", file=sys.stderr)
        return 2

    pages = {f: page_count(f) for f in files}
    results: dict[str, dict[Path, list[dict]]] = {n: {f: [] for f in files} for n in names}
    step = 0
    for rep in range(args.repeat):
        for fi, f in enumerate(files):
            shift = (rep + fi) % len(names)
            for name in names[shift:] + names[:shift]:
                step += 1
                r = measure(name, f, args.profile, args.timeout)
                results[name][f].append(r)
                if pages[f] is None and r.get("pages"):
                    pages[f] = r["pages"]
                shown = f"{r['seconds']:.3f} s" if r["status"] == "ok" else r["status"]
                print(
                    f"[{rep + 1}/{args.repeat}] {f.name:<40} {name:<15} {shown}", file=sys.stderr, flush=True
                )

    rows = summarize(names, files, results, pages)
    print_tables(rows, files, pages, args.per_file, args.repeat, args.timeout)
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        payload = {
            "python": sys.version.split()[0],
            "repeat": args.repeat,
            "files": {f.name: pages[f] for f in files},
            "runs": {n: {f.name: runs for f, runs in per.items()} for n, per in results.items()},
        }
        args.json.write_text(json.dumps(payload, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
