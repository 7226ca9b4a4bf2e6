"""Run a command as the hostile-input bounds are stated: in a process capped at 4 GB of
address space, its peak resident memory and time measured, its output in files.

The command runs as the grandchild of this process: a tiny wrapper (a fresh Python, nothing
imported but the standard library) starts it with the cap, waits for it and reads
``RUSAGE_CHILDREN``, which then holds that one command's peak alone. Measured from this
process, the figure would be the largest of every child this process ever waited for.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import attrs

CAP_BYTES = 4 << 30
"""The address-space cap every hostile case runs under."""

WARNING = "glyphweave: warning: "
"""How the command line starts a warning line on standard error."""

_WRAPPER = """
import json, resource, subprocess, sys, time
cap, timeout, out, err, *command = sys.argv[1:]
def limit():
    resource.setrlimit(resource.RLIMIT_AS, (int(cap), int(cap)))
started = time.monotonic()
with open(out, "wb") as stdout, open(err, "wb") as stderr:
    try:
        status = subprocess.run(command, preexec_fn=limit, stdout=stdout, stderr=stderr,
                                timeout=float(timeout)).returncode
    except subprocess.TimeoutExpired:
        status = None
print(json.dumps({"status": status, "seconds": time.monotonic() - started,
                  "peak_kb": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss}))
"""


@attrs.frozen(kw_only=True)
class Run:
    """What one capped command did: ``status`` None when it was killed at the timeout."""

    status: int | None
    seconds: float
    peak_mb: float
    out: str
    err: str

    @property
    def warnings(self) -> list[str]:
        """The command line's warning lines on standard error."""
        return [line for line in self.err.splitlines() if line.startswith(WARNING)]


def run_capped(command: list[str], folder: Path, *, timeout: float = 180.0, cap: int = CAP_BYTES) -> Run:
    """``command`` run under ``cap`` bytes of address space, killed after ``timeout`` seconds (a
    guard against a hang, not a bound), its standard output and error kept in ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    out, err = folder / "stdout.txt", folder / "stderr.txt"
    done = subprocess.run([sys.executable, "-c", _WRAPPER, str(cap), str(timeout), str(out), str(err), *command],
                          capture_output=True, text=True, timeout=timeout + 60)
    if done.returncode != 0:
        raise RuntimeError(f"the measuring wrapper failed: {done.stderr.strip()}")
    measured = json.loads(done.stdout)
    return Run(status=measured["status"], seconds=measured["seconds"], peak_mb=measured["peak_kb"] / 1024,
               out=out.read_text("utf-8", "replace"), err=err.read_text("utf-8", "replace"))


def glyphweave_extract(pdf: Path, *args: str) -> list[str]:
    """The command ``glyphweave extract PDF ARGS``, text on standard output, run by this Python
    through the console script's entry (which sets the process up as the installed command does)."""
    return [sys.executable, "-c", "from glyphweave.cli import run; run()", "extract", str(pdf), *args]
