"""How ``glyphweave batch`` scales with its workers, and what each worker holds in memory.

    python benchmarks/batch_scaling.py [--corpus DIR] [--jobs 1,2] [--repeat N]

Times the whole command, ``glyphweave batch CORPUS -o TMP -j N`` (start-up, planning, the
pool, the manifest), for each N, in interleaved rounds (every round runs each N once, in an
order that rotates from round to round, so drift on a noisy machine spreads over all of
them), into a fresh output folder each time. Prints the median seconds per N and the ratio
of each to the first (the issue's target on this 2-core machine: ``-j 2`` at most 0.6 of
``-j 1``), and the ratio of the fastest runs (what other load on a shared machine disturbs least).

Peak memory per worker: while the command runs, its child processes (the pool's workers)
are found through ``/proc/*/stat`` and their ``VmHWM`` (peak resident set) is read from
``/proc/PID/status`` every 20 ms, with no ``--memory-mb`` (no limit, so no worker is
replaced). A worker lives from its first file to the end of the batch, so its last sample
is its peak over every file it extracted; the samples at each quarter of the run show
whether that peak was reached early and held (flat) or climbs file after file (a leak).
``getrusage(RUSAGE_CHILDREN).ru_maxrss`` after all runs is printed beside it: the largest
peak of any process of the runs (the command itself included), not per worker.

Linux only (``/proc``). Without the corpus (``../shared/bench`` beside the repository), it says so
and exits with status 0. Figures to read, not a test: nothing is asserted.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

DEFAULT_CORPUS = Path(__file__).resolve().parents[2] / "shared" / "bench"
SAMPLE = 0.02  # seconds between samples of the workers' memory


def children(pid: int) -> list[int]:
    """The processes whose parent is ``pid``."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as stream:
                stat = stream.read()
        except OSError:
            continue
        fields = stat[stat.rfind(b")") + 2:].split()  # the name may hold spaces and parentheses
        if int(fields[1]) == pid:
            found.append(int(entry))
    return found


def peak_mb(pid: int) -> float | None:
    try:
        with open(f"/proc/{pid}/status", encoding="ascii", errors="replace") as stream:
            for line in stream:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        return None
    return None


def run_once(corpus: Path, jobs: int) -> dict:
    """One timed run of the command: seconds, its summary, and each worker's peak samples."""
    with tempfile.TemporaryDirectory(prefix="gw-batch-bench-") as outdir:
        argv = [sys.executable, "-m", "glyphweave.cli", "batch", str(corpus), "-o", outdir, "-j", str(jobs),
                "--progress", "off"]
        started = time.perf_counter()
        process = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        samples: dict[int, list[tuple[float, float]]] = {}
        main_peak = 0.0
        while process.poll() is None:
            now = time.perf_counter() - started
            main_peak = max(main_peak, peak_mb(process.pid) or 0.0)
            for worker in children(process.pid):
                peak = peak_mb(worker)
                if peak is not None:
                    samples.setdefault(worker, []).append((now, peak))
            time.sleep(SAMPLE)
        seconds = time.perf_counter() - started
        stderr = process.stderr.read() if process.stderr else ""
    lines = stderr.strip().splitlines()
    try:
        totals = json.loads(lines[-1])["summary"]
    except (IndexError, ValueError, KeyError):
        raise SystemExit(f"glyphweave batch -j {jobs} gave no summary (status {process.returncode}):\n{stderr}") from None
    return {"seconds": seconds, "summary": totals, "workers": samples, "main_peak": main_peak}


def quarters(series: list[tuple[float, float]], seconds: float) -> list[float]:
    """The peak seen by 25, 50, 75 and 100 % of the run."""
    marks = []
    for fraction in (0.25, 0.5, 0.75, 1.0):
        seen = [peak for at, peak in series if at <= fraction * seconds]
        marks.append(max(seen) if seen else 0.0)
    return marks


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS,
                        help=f"folder of PDFs, walked recursively (default: {DEFAULT_CORPUS})")
    parser.add_argument("--jobs", default="1,2", help="worker counts to compare, the first is the base (default 1,2)")
    parser.add_argument("--repeat", type=int, default=3, help="interleaved rounds (default 3)")
    args = parser.parse_args(argv)
    if not args.corpus.is_dir():
        print(f"batch_scaling: skipped: no corpus at {args.corpus} (give one with --corpus)")
        return 0
    if not os.path.isdir("/proc/self"):
        print("batch_scaling: skipped: needs Linux /proc to read the workers' memory")
        return 0
    counts = [int(n) for n in args.jobs.split(",")]
    pdfs = sorted(p for p in args.corpus.rglob("*") if p.is_file() and p.suffix.lower() == ".pdf")
    print(f"corpus: {args.corpus} ({len(pdfs)} PDFs, {sum(p.stat().st_size for p in pdfs) / 1e6:.1f} MB); "
          f"{os.cpu_count()} cores; {args.repeat} interleaved rounds\n")

    runs: dict[int, list[dict]] = {n: [] for n in counts}
    for round_ in range(args.repeat):
        order = counts[round_ % len(counts):] + counts[:round_ % len(counts)]
        for n in order:
            result = run_once(args.corpus, n)
            runs[n].append(result)
            totals = result["summary"]
            print(f"  round {round_ + 1}, -j {n}: {result['seconds']:.2f} s "
                  f"({totals['ok']} ok, {totals['failed']} failed, {totals['pages']} pages)", flush=True)

    base = statistics.median(r["seconds"] for r in runs[counts[0]])
    base_min = min(r["seconds"] for r in runs[counts[0]])
    print(f"\n| workers | median s | runs s | median vs -j {counts[0]} | fastest vs fastest -j {counts[0]} |")
    print("| ---: | ---: | --- | ---: | ---: |")
    for n in counts:
        times = [r["seconds"] for r in runs[n]]
        median = statistics.median(times)
        print(f"| {n} | {median:.2f} | {', '.join(f'{t:.2f}' for t in times)} | {median / base:.2f} "
              f"| {min(times) / base_min:.2f} |")

    print("\nPeak RSS per worker (VmHWM, MB), last round; in brackets the peak seen by 25/50/75/100 % of the run:")
    for n in counts:
        last = runs[n][-1]
        for index, (pid, series) in enumerate(sorted(last["workers"].items()), 1):
            marks = quarters(series, last["seconds"])
            print(f"  -j {n} worker {index} (pid {pid}): {marks[-1]:.0f} MB  [{' / '.join(f'{m:.0f}' for m in marks)}]")
        print(f"  -j {n} the command itself: {last['main_peak']:.0f} MB")
    for n in counts:
        peaks = [max(s[-1][1] for s in r["workers"].values()) for r in runs[n] if r["workers"]]
        if peaks:
            print(f"  -j {n}: largest worker peak per round: {', '.join(f'{p:.0f}' for p in peaks)} MB")
    maxrss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024  # KB on Linux
    print(f"  getrusage(RUSAGE_CHILDREN).ru_maxrss over all runs (any one process): {maxrss:.0f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
