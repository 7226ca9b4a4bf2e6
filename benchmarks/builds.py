"""The compiled build of a source tree, made in place for timing (``run.py``, ``revisions.py``).

A compiled wheel takes a minute to build and install; for timing, the same extensions are
built next to the sources of a copy (or a worktree) and run with ``PYTHONPATH`` pointing at
it: the modules its ``glyphweave.accelerated.COMPILED`` lists compiled by mypyc, those of
``NATIVE`` (if it has any) by Cython. Needs mypy, Cython and a C compiler.
"""

from __future__ import annotations

import importlib.util
import runpy
import shlex
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path


def can_compile() -> bool:
    """Whether mypy, Cython and a C compiler are here."""
    command = shlex.split(sysconfig.get_config_var("CC") or "cc")
    return (importlib.util.find_spec("mypyc") is not None and importlib.util.find_spec("Cython") is not None
            and bool(command) and shutil.which(command[0]) is not None)


def compiled_copy(src: Path, where: Path) -> Path:
    """A copy of the ``src`` folder ``src`` at ``where``/src, compiled in place; its path."""
    copy = where / "src"
    shutil.copytree(src, copy, ignore=shutil.ignore_patterns("__pycache__", "*.so", "*.c"))
    compile_in_place(copy, str(src.parent))
    return copy


def compile_in_place(src: Path, label: str) -> None:
    """Compile the hot modules of the ``src`` folder ``src`` next to their sources (what its
    compiled wheel holds); ``label`` names the tree in messages."""
    listing = src / "glyphweave" / "accelerated.py"
    if not listing.is_file():
        raise SystemExit(f"{label}: this revision has no compiled build")
    lists = runpy.run_path(str(listing))
    paths = [str(Path(*name.split(".")).with_suffix(".py")) for name in lists["COMPILED"]]
    native = [str(Path(*name.split(".")).with_suffix(".pyx")) for name in lists.get("NATIVE", ())]
    print(f"compiling {label} with mypyc{' and Cython' if native else ''}...", file=sys.stderr)
    steps = [[sys.executable, "-m", "mypyc", *paths]]
    if native:
        steps.append([sys.executable, "-m", "Cython.Build.Cythonize", "-i", "-3", "-q", *native])
    for step in steps:
        done = subprocess.run(step, cwd=src, capture_output=True, text=True)
        if done.returncode != 0:
            raise SystemExit(f"{label}: the compiled build failed (are mypy and Cython installed?)\n"
                             f"{done.stdout[-2000:]}{done.stderr[-2000:]}")
    shutil.rmtree(src / "build", ignore_errors=True)  # mypyc's and Cython's intermediate files
