"""A pool of worker processes that survives its files: a file that hangs, eats memory or
kills its worker costs that file, not the batch.

``concurrent.futures`` cannot do this: a task cannot be stopped, and a worker that dies
breaks the whole executor. Here each worker is a process fed one job at a time through a
pipe. The parent waits on the pipes and on the workers themselves, and:

* past the per-file time limit it kills the worker, reports the file as failed, and
  starts a new worker;
* past the memory limit it does the same. Each worker also caps the growth of its own
  address space (``RLIMIT_AS``, at what it inherited plus the limit), so an allocation past
  the limit fails inside the file's extraction (reported as a memory error) before the
  machine swaps; the parent's check of the worker's resident memory catches what the cap
  does not;
* a worker that dies on its own (a crash in a C library, the kernel's OOM killer) is
  reported against its file and replaced;
* a worker dies with the parent, however the parent dies (:mod:`.lifeline`).

Workers are forked where the platform allows (no second import of glyphweave per worker)
and started lazily, so a batch of one file starts one worker.
"""

from __future__ import annotations

import contextlib
import importlib
import multiprocessing
import os
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from multiprocessing.connection import Connection, wait
from typing import Any

import attrs

from glyphweave.core.errors import UsageError

from .lifeline import Lifeline, bind, lifeline
from .task import CANNOT_LOAD, FileJob, FileResult, run_job

_POLL = 0.1  # seconds between checks of the running workers' clocks and memory

MIN_MEMORY_MB = 64
"""The smallest per-worker memory limit (``--memory-mb``): a worker holds about 36 MB once it
has loaded pikepdf, fontTools and the pipeline (measured on Linux, Python 3.11), so a smaller
limit would fail every file, each with its worker replaced."""

PRELOAD = ("glyphweave.api", "glyphweave.components.manager", "fontTools.ttLib", "fontTools.cffLib")
"""Modules a worker imports before it caps its address space (see :func:`_preload`)."""


def check_memory_limit(memory_mb: float | None) -> None:
    """Refuse a per-worker memory limit no file could be extracted within.

    :raises UsageError: naming :data:`MIN_MEMORY_MB`."""
    if memory_mb is not None and not memory_mb >= MIN_MEMORY_MB:
        raise UsageError(f"--memory-mb must be at least {MIN_MEMORY_MB} (a worker needs about 40 MB "
                         f"before its first file), got {memory_mb:g}")


def _context() -> Any:
    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("fork" if "fork" in methods else "spawn")


def _worker_main(conn: Connection, line: Lifeline, memory_mb: float | None,
                 job_runner: Callable[[FileJob], FileResult]) -> None:
    """A worker's loop: a job in, a result out, until the pipe closes (or the parent dies)."""
    bind(line)
    if memory_mb:
        _preload()
        with contextlib.suppress(ValueError, OSError, ImportError):
            import resource

            # Charge the worker for what it allocates, not for the address space it inherited
            # (a forked copy of a parent with threads or large libraries maps far more than it uses).
            cap = _address_space() + int(memory_mb * 1024 * 1024)
            _soft, hard = resource.getrlimit(resource.RLIMIT_AS)
            if hard == resource.RLIM_INFINITY or cap < hard:
                resource.setrlimit(resource.RLIMIT_AS, (cap, hard))
    while True:
        try:
            job = conn.recv()
        except (EOFError, OSError):
            return
        if job is None:
            return
        try:
            result = job_runner(job)
        except MemoryError:
            result = FileResult(file=job.source, status="failed", error=f"memory limit ({memory_mb:g} MB)",
                                exit_status=1)
        if memory_mb and result.error and result.error.startswith(CANNOT_LOAD):
            # Under the address-space cap, a library that cannot be mapped fails to import.
            result = attrs.evolve(result, error=f"memory limit ({memory_mb:g} MB) too small to load "
                                                f"{result.error.removeprefix(CANNOT_LOAD)}"[:500])
        conn.send(result)
        if result.status == "failed" and result.error and "memory" in result.error.lower():
            return  # a worker that ran out of memory may be fragmented: start a fresh one


def _preload() -> None:
    """Import what extracting a file imports, before the address-space cap: under the cap a
    shared library that cannot be mapped fails to import, which is no fault of the file."""
    for name in PRELOAD:
        with contextlib.suppress(ImportError):
            importlib.import_module(name)


def _address_space() -> int:
    """Bytes this process has mapped now (Linux /proc; 0 where unknown)."""
    try:
        with open("/proc/self/statm", "rb") as stream:
            return int(stream.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return 0


class _Worker:
    def __init__(self, ctx: Any, memory_mb: float | None, job_runner: Callable[[FileJob], FileResult]) -> None:
        parent, child = ctx.Pipe()
        self.conn: Connection = parent
        self.process = ctx.Process(target=_worker_main, args=(child, lifeline(), memory_mb, job_runner),
                                   daemon=True)
        self.process.start()
        child.close()
        self.job: FileJob | None = None
        self.started = 0.0

    def give(self, job: FileJob) -> None:
        self.job = job
        self.started = time.monotonic()
        self.conn.send(job)

    def rss_mb(self) -> float:
        """Resident memory of the worker (Linux /proc; 0 where unknown)."""
        try:
            with open(f"/proc/{self.process.pid}/statm", "rb") as stream:
                pages = int(stream.read().split()[1])
            return pages * os.sysconf("SC_PAGE_SIZE") / (1024 * 1024)
        except (OSError, ValueError, IndexError):
            return 0.0

    def kill(self) -> None:
        with contextlib.suppress(Exception):
            self.process.kill()
        self.process.join(5)
        with contextlib.suppress(Exception):
            self.conn.close()

    def stop(self) -> None:
        with contextlib.suppress(Exception):
            self.conn.send(None)
        self.process.join(2)
        if self.process.is_alive():
            self.kill()
        with contextlib.suppress(Exception):
            self.conn.close()


def run_pool(jobs: Iterable[FileJob], *, workers: int, time_limit: float | None = None,
             memory_mb: float | None = None,
             job_runner: Callable[[FileJob], FileResult] = run_job) -> Iterator[FileResult]:
    """Run ``jobs`` on ``workers`` processes; yield each file's result as it finishes."""
    ctx = _context()
    pending: deque[FileJob] = deque(jobs)
    idle: list[_Worker] = []
    busy: list[_Worker] = []
    try:
        while pending or busy:
            while pending and len(idle) + len(busy) < workers:
                idle.append(_Worker(ctx, memory_mb, job_runner))
            while pending and idle:
                worker = idle.pop()
                worker.give(pending.popleft())
                busy.append(worker)
            ready = wait([w.conn for w in busy] + [w.process.sentinel for w in busy], timeout=_POLL)
            now = time.monotonic()
            for worker in list(busy):
                job = worker.job
                assert job is not None
                if worker.conn in ready:
                    try:
                        result = worker.conn.recv()
                    except (EOFError, OSError):
                        result = None
                    if result is not None:
                        busy.remove(worker)
                        worker.job = None
                        if worker.process.is_alive() and not _exits_after(result):
                            idle.append(worker)
                        else:
                            worker.stop()
                        yield result
                        continue
                failure = None
                if not worker.process.is_alive():
                    code = worker.process.exitcode
                    failure = f"worker died ({_death(code)}) while extracting this file"
                elif time_limit is not None and now - worker.started > time_limit:
                    failure = f"time limit ({time_limit:g} s per file) reached; worker replaced"
                elif memory_mb is not None and worker.rss_mb() > memory_mb:
                    failure = f"memory limit ({memory_mb:g} MB) reached; worker replaced"
                if failure is not None:
                    busy.remove(worker)
                    worker.kill()
                    yield FileResult(file=job.source, status="failed", error=failure, exit_status=1,
                                     seconds=round(now - worker.started, 4))
    finally:
        for worker in idle + busy:
            worker.stop() if worker in idle else worker.kill()


def _exits_after(result: FileResult) -> bool:
    return result.status == "failed" and bool(result.error) and "memory" in (result.error or "").lower()


def _death(code: int | None) -> str:
    if code is None:
        return "unknown cause"
    if code < 0:
        return f"signal {-code}"
    return f"exit status {code}"
