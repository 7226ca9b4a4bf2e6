"""Mutation-fuzz ``glyphweave extract`` over a folder of real PDFs.

    python tools/fuzz_corpus.py ../shared/corpus -n 1000 [--seed 1] [--jobs 2] [--keep DIR]

Each round takes a random file, mutates it (byte flips, truncation, a chunk deleted or
duplicated, numbers corrupted: the damage real files carry), runs the command line on it in a
fresh process with a time limit, and classifies the result:

* ``text``: exit 0; ``clean error``: a documented non-zero status with one ``glyphweave:
  error:`` line;
* ``TRACEBACK``, ``UNEXPECTED`` (our catch-all for our own bugs), ``HANG`` (past the time
  limit) and ``MEMORY`` (peak RSS past the limit) are failures, saved into ``--keep`` for the
  regression corpus. The exit status is 1 when any failure was found.

Deterministic for a seed. Nothing touches the network.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

NUMBER = re.compile(rb"-?\d+(?:\.\d+)?")
FAILURES = ("TRACEBACK", "UNEXPECTED", "HANG", "MEMORY")
UNEXPECTED_LINE = "glyphweave: error: unexpected "
"""How the command line's catch-all for its own bugs starts (cli.py)."""


def mutate(data: bytes, rng: random.Random) -> tuple[bytes, str]:
    """One mutation of ``data`` and its description."""
    kind = rng.choice(["flip", "truncate", "delete", "duplicate", "numbers"])
    n = len(data)
    if kind == "flip":
        out = bytearray(data)
        count = rng.randint(1, 20)
        for _ in range(count):
            out[rng.randrange(n)] = rng.randrange(256)
        return bytes(out), f"flip {count} bytes"
    if kind == "truncate":
        at = rng.randrange(n)
        return data[:at], f"truncate at {at}"
    start = rng.randrange(n)
    length = rng.randint(1, max(1, min(4096, n - start)))
    if kind == "delete":
        return data[:start] + data[start + length:], f"delete {length} bytes at {start}"
    if kind == "duplicate":
        return data[:start + length] + data[start:], f"duplicate {length} bytes at {start}"
    matches = list(NUMBER.finditer(data))
    if not matches:
        return data, "no numbers"
    out = bytearray(data)
    picked = rng.sample(matches, min(len(matches), rng.randint(1, 10)))
    for m in sorted(picked, key=lambda m: -m.start()):
        replacement = rng.choice([b"0", b"-1", b"99999999999", b"1e308", b"4294967295", b"-0.5", b"2147483648"])
        out[m.start():m.end()] = replacement
    return bytes(out), f"corrupt {len(picked)} numbers"


def run_one(exe: list[str], path: Path, timeout: float) -> tuple[str, float, int, str]:
    """(verdict, seconds, peak RSS in MB, last stderr line) of ``glyphweave extract path``
    (``exe`` prints the process's peak RSS as a last ``peak-kb`` line)."""
    started = time.monotonic()
    # The text goes to standard output, thrown away by the pipe: never ``-o /dev/null``, a
    # path the tool would have to treat as a device of the machine's.
    proc = subprocess.Popen([*exe, "extract", str(path)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            start_new_session=True)
    try:
        _, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)  # the launcher and the command it started
        proc.communicate()
        return "HANG", time.monotonic() - started, 0, ""
    seconds = time.monotonic() - started
    text = err.decode("utf-8", "replace")
    peak = 0
    lines = []
    for line in text.splitlines():
        if line.startswith("peak-kb "):
            peak = int(line.split()[1]) // 1024
        elif line.strip():
            lines.append(line)
    last = lines[-1] if lines else ""
    if "Traceback" in text:
        return "TRACEBACK", seconds, peak, last
    # Our catch-all's line only: a warning may quote qpdf's own words ("unexpected >").
    if last.startswith(UNEXPECTED_LINE):
        return "UNEXPECTED", seconds, peak, last
    if proc.returncode == 0:
        return "text", seconds, peak, last
    return "clean error", seconds, peak, last


def _peak_rss_wrapper() -> list[str]:
    """A command prefix that runs glyphweave and prints its peak RSS on stderr last.

    A small launcher starts the command and reads ``RUSAGE_CHILDREN``: a process's own
    ``ru_maxrss`` counts what it shared with the process it was forked from, and this one holds
    every mutated file (some 300 MB for 1,000), which every run's figure then reached."""
    command = "import sys; sys.argv[0] = 'glyphweave'; from glyphweave.cli import main; sys.exit(main())"
    code = ("import resource, subprocess, sys\n"
            f"status = subprocess.call([sys.executable, '-c', {command!r}, *sys.argv[1:]])\n"
            "print(f'peak-kb {resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss}', file=sys.stderr)\n"
            "sys.exit(status)\n")
    return [sys.executable, "-c", code]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpus", type=Path, help="folder of PDFs (searched recursively)")
    parser.add_argument("-n", type=int, default=300, help="mutations to run (default 300)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--timeout", type=float, default=30.0, help="seconds before a run is a hang")
    parser.add_argument("--max-mb", type=int, default=1024, help="peak RSS past which a run is a failure")
    parser.add_argument("--keep", type=Path, help="save each failing file here")
    args = parser.parse_args(argv)
    files = sorted(p for p in args.corpus.rglob("*.pdf") if p.is_file())
    if not files:
        parser.error(f"no PDF under {args.corpus}")
    rng = random.Random(args.seed)
    plan = []
    for i in range(args.n):
        source = rng.choice(files)
        plan.append((i, source, *mutate(source.read_bytes(), rng)))
    exe = _peak_rss_wrapper()
    work = Path(tempfile.mkdtemp(prefix="glyphweave-fuzz-"))
    counts: dict[str, int] = {}
    worst = (0.0, "")
    largest = (0, "")

    def one(item: tuple[int, Path, bytes, str]) -> tuple[int, Path, str, str, float, int, str]:
        i, source, data, how = item
        path = work / f"{i:05d}-{source.stem}.pdf"
        path.write_bytes(data)
        verdict, seconds, mb, last = run_one(exe, path, args.timeout)
        if mb > args.max_mb and verdict in ("text", "clean error"):
            verdict = "MEMORY"
        return i, path, how, verdict, seconds, mb, last

    try:
        with ThreadPoolExecutor(max_workers=args.jobs) as pool:
            for _i, path, how, verdict, seconds, mb, last in pool.map(one, plan):
                counts[verdict] = counts.get(verdict, 0) + 1
                if mb > largest[0]:
                    largest = (mb, f"{path.name} ({how})")
                if seconds > worst[0]:
                    worst = (seconds, f"{path.name} ({how})")
                if verdict in FAILURES:
                    print(f"{verdict}: {path.name} ({how}): {last}")
                    if args.keep:
                        args.keep.mkdir(parents=True, exist_ok=True)
                        shutil.copy(path, args.keep / path.name)
                path.unlink()
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print(f"{args.n} mutations of {len(files)} files (seed {args.seed}): "
          + ", ".join(f"{v} {counts.get(v, 0)}" for v in ("text", "clean error", *FAILURES)))
    print(f"slowest {worst[0]:.1f} s: {worst[1]}; largest peak RSS {largest[0]} MB: {largest[1]}")
    return 1 if any(counts.get(v) for v in FAILURES) else 0


if __name__ == "__main__":
    sys.exit(main())
