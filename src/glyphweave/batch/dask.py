"""The jobs of a batch on a Dask distributed cluster (``glyphweave batch --dask ADDRESS``).

Needs the ``dask`` extra (``pip install glyphweave[dask]``), imported only here and only
when asked for. ``address`` is a scheduler's (``tcp://host:8786``), or ``"local"`` for a
:class:`distributed.LocalCluster` on this machine: one worker process per core, one
thread each (extraction is CPU-bound Python: threads would share one GIL), started for the
batch and closed after it. A remote cluster is never closed, only our client.

Every file is one task, :func:`~.task.run_job`, the very function the local pool runs, so
the outputs are byte-identical to the pool's. Results stream back in the order the files
finish, not the order they were given.

**Who writes the outputs.** By default the *workers* write them, atomically, through
``run_job``: an output never crosses the network, and the client holds no file's text.
This needs shared storage: every worker must see the inputs and the output folder at the
same paths as the client (paths are made absolute here, since a worker's working folder
is not the client's). With ``gather`` the workers write nothing: each sends its text back
(``FileResult.content``) and the client writes it, atomically
(:func:`~.task.write_atomically`), then drops it from the result it yields (a result
naming no output, from a job runner that writes no file, keeps its content). That is for
workers that can read the inputs but cannot write the output folder; it costs one
output's worth of network and client memory per file in flight.

**Failures.** A file that fails in extraction is a failed result from ``run_job`` itself,
as in the pool. A task that raises instead (its worker died or was restarted and Dask
gave up on it: ``KilledWorker``; its result cannot be unpickled; the scheduler went away
and the task was cancelled) becomes a failed result with a one-line reason, and the batch
goes on.

**Limits.** The per-page limits (``--page-seconds``, ``--max-page-mb``, ``--max-records-mb``) travel with the
options and apply on the workers. The pool's per-file limits (``--file-seconds``,
``--memory-mb``) do *not* apply under Dask: a task cannot be stopped from outside, and the
memory of a worker is the cluster's to set (``dask worker --memory-limit``; a
``LocalCluster`` shares the machine's memory among its workers). Past that limit the
worker's nanny restarts the worker; the scheduler retries its task on another worker up
to ``distributed.scheduler.allowed-failures`` times (3 by default), then the task fails
with ``KilledWorker`` and the file is reported as failed.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Iterator
from typing import Any

import attrs

from glyphweave.core.errors import GlyphweaveError
from glyphweave.exits import EXIT_ERROR

from .task import FileJob, FileResult, one_line, run_job, write_atomically

LOCAL = "local"
"""The address that asks for a cluster on this machine."""

_MISSING = "--dask needs the dask extra: pip install glyphweave[dask]"


def run_dask(jobs: list[FileJob], *, address: str, gather: bool,
             job_runner: Callable[[FileJob], FileResult] = run_job) -> Iterator[FileResult]:
    """Run ``jobs`` on the Dask cluster at ``address`` (or ``"local"``); yield each file's
    result as it finishes (see the module docstring).

    :param gather: the workers send each output back and it is written here.
    :param job_runner: what a worker runs per job (as :func:`~.pool.run_pool`'s); it must
        be importable on the workers or picklable by value (cloudpickle).
    """
    distributed = _import_distributed()
    with _connect(distributed, address) as client:
        futures = client.map(job_runner, [_portable(job, gather) for job in jobs], pure=False)
        pending: dict[Any, FileJob] = dict(zip(futures, jobs, strict=True))
        del futures
        for future in distributed.as_completed(list(pending)):
            job = pending.pop(future)
            try:
                result = future.result()
            except Exception as exc:  # KilledWorker, a cancelled task, an unpicklable result: the batch goes on
                result = _task_failed(job, exc)
            finally:
                future.release()
            yield _finish(job, result, gather)


def _import_distributed() -> Any:
    try:
        import distributed
    except ImportError:
        raise GlyphweaveError(_MISSING) from None
    return distributed


@contextlib.contextmanager
def _connect(distributed: Any, address: str) -> Iterator[Any]:
    """A client of the cluster at ``address`` (a new local cluster for ``"local"``);
    closes the client at the end, and the cluster only if it started it here."""
    cluster: Any = None
    try:
        if address == LOCAL:
            # ":0": the scheduler's HTTP server (dashboard, health) on a free port, never a clash with
            # another cluster's 8787.
            cluster = distributed.LocalCluster(n_workers=os.cpu_count() or 1, threads_per_worker=1,
                                               processes=True, dashboard_address=":0")
        client = distributed.Client(cluster if cluster is not None else address)
    except (OSError, TimeoutError, ValueError) as exc:
        if cluster is not None:
            cluster.close()
        where = "a local Dask cluster" if address == LOCAL else f"the Dask scheduler at {address}"
        raise GlyphweaveError(f"cannot reach {where}: {one_line(exc)}") from None
    try:
        yield client
    finally:
        try:
            client.close()
        finally:
            if cluster is not None:
                cluster.close()


def _portable(job: FileJob, gather: bool) -> FileJob:
    """``job`` as a worker must see it: absolute paths (a worker's working folder is not
    ours: the profile's file and the ``-p`` plugin files too), and ``gather`` set when the
    client writes the output."""
    opening = job.options.open
    profile = opening.profile
    if isinstance(profile, str) and _is_path(profile):
        profile = os.path.abspath(profile)
    plugins = tuple(os.path.abspath(name) if _is_path(name) else name for name in opening.plugins)
    options = attrs.evolve(job.options, open=attrs.evolve(opening, profile=profile, plugins=plugins))
    return attrs.evolve(job, source=os.path.abspath(job.source), output=os.path.abspath(job.output),
                        options=options, gather=gather)


def _is_path(name: str) -> bool:
    """Whether a profile or plugin names a file (a ``.toml`` or ``.py``, or with a separator)."""
    return name.endswith((".toml", ".py")) or os.sep in name or (os.altsep is not None and os.altsep in name)


def _finish(job: FileJob, result: FileResult, gather: bool) -> FileResult:
    """The worker's result in the caller's terms: the caller's paths, and with ``gather``
    the output written here and its text dropped. A result without an ``output`` keeps its
    content: its job runner writes no file (the glyph scan sends its findings back so)."""
    result = attrs.evolve(result, file=job.source, output=job.output if result.output is not None else None)
    if not gather or result.status != "ok" or result.output is None:
        return result
    try:
        write_atomically(job.output, result.content or "", inputs=(job.source,))
    except (OSError, GlyphweaveError) as exc:  # a folder, or the input itself, in the output's place
        return FileResult(file=job.source, status="failed", exit_status=EXIT_ERROR, seconds=result.seconds,
                          error=f"cannot write {job.output}: {one_line(exc)}")
    return attrs.evolve(result, content=None)


def _task_failed(job: FileJob, exc: BaseException) -> FileResult:
    name = type(exc).__name__
    if name == "KilledWorker":
        reason = "every Dask worker that ran this file died (KilledWorker: a crash or its memory limit)"
    elif "Cancelled" in name:
        reason = "the Dask task was cancelled (the scheduler or the client went away)"
    else:
        reason = f"the Dask task failed: {name}: {one_line(exc)}"
    return FileResult(file=job.source, status="failed", error=reason, exit_status=EXIT_ERROR)
