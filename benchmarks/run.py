"""Time glyphweave against pdftotext and the Python peers on a folder of PDFs.

    python benchmarks/run.py [--pdfs DIR] [--repeat N] [--only name,...] [--per-file] [--timeout S]
                             [--per-document [--startup-pdf FILE]] [--json FILE]

Every (extractor, file) measurement runs in a fresh worker process, so peak memory is that extractor's
alone and no cache survives from one file to the next. Each is started by a small launcher process (see
``run_child``): Linux counts the peak RSS of the process a child was spawned from in the child's own, so
spawned from this runner every peak would be at least the runner's (about 70 MB). In-process extractors
(glyphweave, pypdfium2, pymupdf, playa, pypdf, pdfminer) are timed inside the worker around "open + text of
every page", imports excluded. Command-line extractors (pdftotext, glyphweave-cli) are timed as whole subprocesses writing to
/dev/null, start-up included: glyphweave-cli against pdftotext is the apples-to-apples pair. glyphweave-cli
runs with ``--jobs 1`` (one process, as pdftotext), so its figure is that of one worker. It runs the
installed build (compiled where ``pip install .`` found a C compiler); glyphweave-cli-pure runs the
checkout's sources the same way (``PYTHONPATH=src``), pure Python, so one run times both builds side by side.

``--per-document`` also times both command-line extractors on a tiny PDF (examples/sample.pdf, or
``--startup-pdf``), once per repeat at a position in the file order that moves from repeat to repeat; the
median of those runs is each tool's start-up. A file's per-document time is its whole-process median minus
that start-up (at least 0), the figure issue 13's targets are stated in: per-document total at most 1.5 x
pdftotext's, no file above 2.0 x, glyphweave's start-up at most 0.15 s.

Runs are interleaved (for each repeat, for each file, every extractor in a rotating order) so drift on a
noisy machine hits all extractors alike; each (extractor, file) time is the median of the repeats. Only
installed extractors run; the others are listed as missing. Nothing here touches the network.
"""

from __future__ import annotations

import argparse
import compileall
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
DEFAULT_PDFS = HERE.parent.parent / "shared" / "bench" / "pdfs"
DEFAULT_STARTUP_PDF = HERE.parent / "examples" / "sample.pdf"

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
    return ("glyphweave", "pikepdf", "glyphweave.api", "glyphweave.components.catalog",
            "glyphweave.components.manager", "glyphweave.components.profile", *plugins,
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
SUBPROCESS = ("pdftotext", "glyphweave-cli", "glyphweave-cli-pure", "glyphweave-cli-compiled")
ALL = ("glyphweave", "glyphweave-pause-gc", "glyphweave-reading", "glyphweave-cli", "glyphweave-cli-pure",
       "glyphweave-cli-compiled", "pdftotext", "pymupdf", "pypdfium2", "playa", "pypdf", "pdfminer")
SOURCES = HERE.parent / "src"
"""The checkout's sources: ``glyphweave-cli-pure`` runs them, pure Python whatever build is installed, so
that a compiled install and the pure modules are timed side by side in one run."""
BASELINE = "pdftotext"
CLI_PAIR = ("glyphweave-cli", "pdftotext")  # the per-document comparison: (glyphweave, baseline)
PURE_PAIR = ("glyphweave-cli-pure", "pdftotext")  # the same for the pure sources, when measured too
COMPILED_PAIR = ("glyphweave-cli-compiled", "pdftotext")  # and for the sources compiled, when measured
TARGETS = {"compiled": (1.0, 1.6), "pure": (2.0, None)}
"""Issue 31's targets for the per-document figures, by build: (total ratio, worst file ratio;
None: not judged)."""
TARGET_STARTUP_S = 0.12
COMPILED_SOURCES: list[Path] = []
"""Where ``glyphweave-cli-compiled`` runs from: the checkout's sources copied and compiled in
place (``builds.compiled_copy``) when it is measured, once per run."""


def glyphweave_cli() -> list[str] | None:
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
        return glyphweave_cli() is not None
    if name == "glyphweave-cli-pure":
        return (SOURCES / "glyphweave" / "__main__.py").is_file()
    if name == "glyphweave-cli-compiled":
        from builds import can_compile

        return (SOURCES / "glyphweave" / "__main__.py").is_file() and can_compile()
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
        cli = glyphweave_cli()
        assert cli is not None
        # One process: without --jobs 1, extract splits a long file across the cores.
        return [*cli, "extract", str(path), "--profile", profile, "--jobs", "1"], False
    if name in ("glyphweave-cli-pure", "glyphweave-cli-compiled"):
        sources = SOURCES if name == "glyphweave-cli-pure" else COMPILED_SOURCES[0]
        return ["env", f"PYTHONPATH={sources}", sys.executable, "-m", "glyphweave", "extract", str(path),
                "--profile", profile, "--jobs", "1"], False
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


# Each measured process is started by this launcher, a bare interpreter (``-I -S``, nothing imported
# beyond what start-up loads), which spawns the command in a process group of its own, kills that group
# after the timeout, reaps it with ``os.wait4`` and writes "seconds exit-code ru_maxrss timed-out" to the
# file named by its first argument. Linux gives an exec'd child a ru_maxrss of at least the peak RSS of
# the process it was spawned from, so spawned from the runner (pikepdf loaded, every page count taken),
# each figure would be at least the runner's own peak (about 70 MB); from the launcher the floor is its
# own few MB.
_LAUNCHER = """
import os, signal, sys, time
report, timeout, argv = sys.argv[1], float(sys.argv[2]), sys.argv[3:]
expired = []
def expire(signum, frame):
    expired.append(1)
    try:
        os.killpg(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
signal.signal(signal.SIGALRM, expire)
start = time.perf_counter()
pid = os.posix_spawnp(argv[0], argv, os.environ, setpgroup=0)
signal.setitimer(signal.ITIMER_REAL, timeout)
_, status, usage = os.wait4(pid, 0)
end = time.perf_counter()
signal.setitimer(signal.ITIMER_REAL, 0)
with open(report, "w") as out:
    out.write(f"{end - start!r} {os.waitstatus_to_exitcode(status)} {usage.ru_maxrss} {len(expired)}")
"""


def run_child(cmd: list[str], timeout: float, capture: bool = True) -> dict:
    """Run ``cmd`` and return wall time, exit code, peak RSS (MB) and its output (stdout, stderr).

    Without ``capture`` the child's standard output goes to /dev/null (the extracted text of a command-line
    extractor is not wanted, and writing it to a file would be timed too).

    The command runs under :data:`_LAUNCHER`, which times it from spawn to exit (the launcher's own
    start-up not included) and reaps it with ``os.wait4``, so its resource usage is its own (not the
    maximum over all children so far, as ``RUSAGE_CHILDREN`` would give) and its peak RSS is not floored
    at this process's. A run longer than ``timeout`` seconds is killed with its process group.
    """
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err, tempfile.TemporaryDirectory() as tmp:
        report = Path(tmp) / "report"
        proc = subprocess.Popen(
            [sys.executable, "-I", "-S", "-c", _LAUNCHER, str(report), repr(float(timeout)), *cmd],
            stdin=subprocess.DEVNULL,
            stdout=out if capture else subprocess.DEVNULL,
            stderr=err,
            start_new_session=True,
        )
        proc.wait()
        out.seek(0)
        err.seek(0)
        stderr = err.read().decode("utf-8", "replace")
        try:
            wall, returncode, maxrss, expired = report.read_text(encoding="ascii").split()
        except (OSError, ValueError):
            # The launcher itself failed (the command could not be started, or it was killed).
            return {
                "wall": 0.0,
                "returncode": proc.returncode or 1,
                "timeout": False,
                "peak_mb": 0.0,
                "stdout": b"",
                "stderr": stderr or f"launcher exit {proc.returncode}",
            }
        # ru_maxrss is in bytes on macOS, KiB elsewhere.
        peak_mb = int(maxrss) / 2**20 if sys.platform == "darwin" else int(maxrss) / 1024
        return {
            "wall": float(wall),
            "returncode": int(returncode),
            "timeout": expired != "0",
            "peak_mb": peak_mb,
            "stdout": out.read(),
            "stderr": stderr,
        }


def measure(name: str, path: Path, profile: str, timeout: float) -> dict:
    cmd, self_timed = command(name, path, profile)
    child = run_child(cmd, timeout, capture=self_timed)
    result = outcome(child)
    if result["status"] != "ok":
        return result
    if self_timed:
        try:
            report = json.loads(child["stdout"])
        except ValueError:
            return {"status": "error", "message": "worker printed no result", "peak_mb": child["peak_mb"]}
        result.update(seconds=report["seconds"], chars=report["chars"], pages=report["pages"])
    return result


def outcome(child: dict) -> dict:
    """What :func:`run_child` reports, as a measurement: ``status`` ok (with ``seconds``),
    timeout or error (with the last line the command wrote to stderr), and ``peak_mb``."""
    if child["timeout"]:
        return {"status": "timeout", "peak_mb": child["peak_mb"]}
    if child["returncode"] != 0:
        lines = [line for line in child["stderr"].strip().splitlines() if line.strip()]
        return {
            "status": "error",
            "message": lines[-1] if lines else f"exit {child['returncode']}",
            "peak_mb": child["peak_mb"],
        }
    return {"status": "ok", "peak_mb": child["peak_mb"], "seconds": child["wall"]}


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


def per_document(
    files: list[Path], results: dict, startup: dict[str, list[dict]], pages: dict[Path, int | None],
    pair: tuple[str, str] = CLI_PAIR, kind: str = "compiled",
) -> dict | None:
    """Per-document seconds of the command-line pair: each file's median whole-process time minus the
    tool's median start-up, floored at 0; their ratios, pages per second and peak RSS, and whether
    issue 31's targets for a ``kind`` build (``compiled`` or ``pure``) are met.

    None when a start-up run failed (there is nothing to subtract). Files either tool did not finish are
    listed under ``skipped``. A file whose pdftotext per-document time is 0 has no ratio; it counts
    against the per-file target when glyphweave's is not 0 too.
    """
    ours, base = pair
    start_ours, start_base = _median(startup[ours]), _median(startup[base])
    if start_ours is None or start_base is None:
        return None
    start = {ours: start_ours, base: start_base}
    rows: list[dict] = []
    skipped: dict[str, str] = {}
    for f in files:
        whole_ours, whole_base = _median(results[ours][f]), _median(results[base][f])
        if whole_ours is None or whole_base is None:
            skipped[f.name] = "; ".join(
                f"{name}: {_failure(results[name][f])}"
                for name, whole in ((ours, whole_ours), (base, whole_base))
                if whole is None
            )
            continue
        doc_ours = max(0.0, whole_ours - start_ours)
        doc_base = max(0.0, whole_base - start_base)
        rows.append(
            {
                "file": f.name,
                "pages": pages[f],
                ours: doc_ours,
                base: doc_base,
                "ratio": doc_ours / doc_base if doc_base > 0 else None,
                "pages_per_s": pages[f] / doc_ours if pages[f] and doc_ours > 0 else None,
                "peak_mb": max((r.get("peak_mb", 0.0) for r in results[ours][f]), default=0.0),
            }
        )
    total_ours = sum(r[ours] for r in rows)
    total_base = sum(r[base] for r in rows)
    total_ratio = total_ours / total_base if rows and total_base > 0 else None
    judged = [r for r in rows if r["ratio"] is not None]
    worst = max(judged, key=lambda r: r["ratio"]) if judged else None
    undefined = [r["file"] for r in rows if r["ratio"] is None and r[ours] > 0]
    total_limit, file_limit = TARGETS[kind]
    return {
        "build": kind,
        "startup_s": start,
        "files": rows,
        "skipped": skipped,
        "total": {ours: total_ours, base: total_base, "ratio": total_ratio},
        "worst": None if worst is None else {"file": worst["file"], "ratio": worst["ratio"]},
        "undefined_ratio": undefined,
        "targets": {
            "total_ratio": {
                "limit": total_limit,
                "value": total_ratio,
                "met": total_ratio is not None and total_ratio <= total_limit,
            },
            "worst_file_ratio": None if file_limit is None else {
                "limit": file_limit,
                "value": None if worst is None else worst["ratio"],
                "met": worst is not None and worst["ratio"] <= file_limit and not undefined,
            },
            "startup_s": {
                "limit": TARGET_STARTUP_S,
                "value": start_ours,
                "met": start_ours <= TARGET_STARTUP_S,
            },
        },
    }


def print_per_document(
    summary: dict | None, startup: dict[str, list[dict]], startup_pdf: Path, startup_pages: int | None,
    pair: tuple[str, str] = CLI_PAIR,
) -> None:
    ours, base = pair
    print(
        f"\nPer-document seconds (whole process minus the tool's start-up on {startup_pdf.name}, "
        f"{startup_pages if startup_pages is not None else '?'} page(s); median of the repeats):\n"
    )
    if summary is None:
        why = [f"{name}: {_failure(startup[name])}" for name in pair if _median(startup[name]) is None]
        print("No per-document figures: the start-up run failed (" + "; ".join(why) + ").")
        return
    print(f"| file | pages | {ours} | {base} | ratio | pages/s | peak MB |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for row in summary["files"]:
        ratio = "-" if row["ratio"] is None else f"{row['ratio']:.2f}"
        shown_pages = row["pages"] if row["pages"] is not None else "?"
        pps = "-" if row["pages_per_s"] is None else f"{row['pages_per_s']:.0f}"
        print(f"| {row['file']} | {shown_pages} | {row[ours]:.3f} | {row[base]:.3f} | {ratio} | {pps} "
              f"| {row['peak_mb']:.0f} |")
    total = summary["total"]
    total_ratio = "-" if total["ratio"] is None else f"{total['ratio']:.2f}"
    print(f"| **total** | | {total[ours]:.3f} | {total[base]:.3f} | {total_ratio} | | |")
    for fname, why in summary["skipped"].items():
        print(f"- {fname} left out: {why}")
    for fname in summary["undefined_ratio"]:
        print(f"- {fname}: {base}'s per-document time is 0 (all start-up), so no ratio; counted as over the target")
    start = summary["startup_s"]
    print(f"\nStart-up (median, s): {ours} {start[ours]:.3f}, {base} {start[base]:.3f}")
    worst = summary["worst"]
    targets = summary["targets"]

    def verdict(met: bool) -> str:
        return "met" if met else "NOT met"

    t = targets["total_ratio"]
    shown = "-" if t["value"] is None else f"{t['value']:.2f}"
    print(f"Target ({summary['build']} build) total per-document ratio <= {t['limit']:.1f}: {shown}, "
          f"{verdict(t['met'])}")
    t = targets["worst_file_ratio"]
    shown = "-" if worst is None else f"{worst['ratio']:.2f} ({worst['file']})"
    if t is not None:
        print(f"Target no file ratio above {t['limit']:.1f}: worst {shown}, {verdict(t['met'])}")
    else:
        print(f"Worst file: {shown} (no target for a {summary['build']} build)")
    t = targets["startup_s"]
    print(f"Target {ours} start-up <= {t['limit']:.2f} s: {t['value']:.3f} s, {verdict(t['met'])}")


def no_pdf_folder(folder: Path) -> int:
    """Say that the corpus is missing and where it should be; the exit status to return."""
    print(
        f"No PDF folder at {folder}.\nThe benchmark corpus lives in ../shared/bench/pdfs beside the "
        "repository; pass another folder with --pdfs DIR.",
        file=sys.stderr,
    )
    return 2


def _build() -> str:
    """Which build the installed glyphweave is, as ``glyphweave --version`` says it."""
    from glyphweave.accelerated import describe_build

    return describe_build()


def _compile_bytecode() -> None:
    """Write the package's bytecode before the command line is timed, as ``pip install``
    does: an editable checkout (or ``PYTHONDONTWRITEBYTECODE``) would otherwise make every
    process compile the sources it imports, which is not what a user's start-up costs."""
    import importlib.util

    spec = importlib.util.find_spec("glyphweave")
    for folder in (spec.submodule_search_locations or []) if spec is not None else []:
        compileall.compile_dir(folder, quiet=1)


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
    parser.add_argument(
        "--per-document",
        action="store_true",
        help="also time the command-line tools' start-up and print per-document seconds "
        "(whole process minus start-up) with issue 31's targets",
    )
    parser.add_argument(
        "--startup-pdf",
        type=Path,
        default=DEFAULT_STARTUP_PDF,
        help=f"the tiny PDF whose whole-process time is the start-up (default: {DEFAULT_STARTUP_PDF})",
    )
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
        return no_pdf_folder(args.pdfs)
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
    startup_pdf: Path | None = None
    if args.per_document:
        absent = [n for n in CLI_PAIR if n not in names]
        if absent:
            print(
                f"--per-document needs {' and '.join(CLI_PAIR)}; not measured here: {', '.join(absent)}.",
                file=sys.stderr,
            )
            return 2
        if not args.startup_pdf.is_file():
            print(f"No start-up PDF at {args.startup_pdf}; pass one with --startup-pdf FILE.", file=sys.stderr)
            return 2
        startup_pdf = args.startup_pdf

    if "glyphweave-cli" in names:
        _compile_bytecode()
    if "glyphweave-cli-pure" in names or "glyphweave-cli-compiled" in names:
        compileall.compile_dir(SOURCES / "glyphweave", quiet=1)
        print(f"glyphweave-cli runs the installed build ({_build()}); glyphweave-cli-pure and "
              f"glyphweave-cli-compiled the sources in {SOURCES}, pure and compiled", file=sys.stderr)
    with tempfile.TemporaryDirectory(prefix="glyphweave-bench-") as tmp:
        if "glyphweave-cli-compiled" in names:
            from builds import compiled_copy

            COMPILED_SOURCES[:] = [compiled_copy(SOURCES, Path(tmp))]
            compileall.compile_dir(COMPILED_SOURCES[0] / "glyphweave", quiet=1)
        results, startup, pages = _measure_all(names, files, startup_pdf, args)

    rows = summarize(names, files, results, pages)
    print_tables(rows, files, pages, args.per_file, args.repeat, args.timeout)
    summaries: dict[str, dict | None] = {}
    if startup_pdf is not None:
        for pair, key in ((CLI_PAIR, "per_document"), (PURE_PAIR, "per_document_pure"),
                          (COMPILED_PAIR, "per_document_compiled")):
            if pair[0] not in names:
                continue
            kind = "pure" if pair == PURE_PAIR or (pair == CLI_PAIR and _build() == "pure Python") else "compiled"
            summaries[key] = per_document(files, results, startup, pages, pair, kind)
            print_per_document(summaries[key], startup, startup_pdf, page_count(startup_pdf), pair)
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        payload = {
            "python": sys.version.split()[0],
            "repeat": args.repeat,
            "files": {f.name: pages[f] for f in files},
            "runs": {n: {f.name: runs for f, runs in per.items()} for n, per in results.items()},
        }
        if startup_pdf is not None:
            payload.update(startup_pdf=str(startup_pdf), startup_runs=startup, **summaries)
        args.json.write_text(json.dumps(payload, indent=1) + "\n", encoding="utf-8")
    return 0


def _measure_all(names: list[str], files: list[Path], startup_pdf: Path | None, args: argparse.Namespace,
                 ) -> tuple[dict[str, dict[Path, list[dict]]], dict[str, list[dict]], dict[Path, int | None]]:
    """Every (extractor, file) run, interleaved, and the command-line tools' start-up runs."""
    pages = {f: page_count(f) for f in files}
    results: dict[str, dict[Path, list[dict]]] = {n: {f: [] for f in files} for n in names}
    timed_startup = [*CLI_PAIR, *(n for n in (PURE_PAIR[0], COMPILED_PAIR[0]) if n in names)]
    startup: dict[str, list[dict]] = {n: [] for n in timed_startup}
    for rep in range(args.repeat):
        slots: list[Path | None] = list(files)
        if startup_pdf is not None:
            # None marks the start-up runs: once per repeat, at a place in the file order that moves.
            slots.insert(rep % (len(files) + 1), None)
        for fi, f in enumerate(slots):
            if f is None:
                assert startup_pdf is not None
                shift = (rep + fi) % len(timed_startup)
                for name in timed_startup[shift:] + timed_startup[:shift]:
                    r = measure(name, startup_pdf, args.profile, args.timeout)
                    startup[name].append(r)
                    shown = f"{r['seconds']:.3f} s" if r["status"] == "ok" else r["status"]
                    print(
                        f"[{rep + 1}/{args.repeat}] {'(start-up) ' + startup_pdf.name:<40} {name:<15} {shown}",
                        file=sys.stderr,
                        flush=True,
                    )
                continue
            shift = (rep + fi) % len(names)
            for name in names[shift:] + names[:shift]:
                r = measure(name, f, args.profile, args.timeout)
                results[name][f].append(r)
                if pages[f] is None and r.get("pages"):
                    pages[f] = r["pages"]
                shown = f"{r['seconds']:.3f} s" if r["status"] == "ok" else r["status"]
                print(
                    f"[{rep + 1}/{args.repeat}] {f.name:<40} {name:<15} {shown}", file=sys.stderr, flush=True
                )
    return results, startup, pages


if __name__ == "__main__":
    sys.exit(main())
