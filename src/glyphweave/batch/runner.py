"""Batch extraction: many files, all cores or a Dask cluster, a manifest, nothing lost.

:func:`plan` turns the inputs (files, folders walked recursively, ``@list`` files) into
jobs whose outputs mirror the inputs under the output folder; :func:`run_batch` runs them
and yields one :class:`~.task.FileResult` per file as it finishes, writing the manifest
as it goes (one line per file: :mod:`.manifest`). Outputs are written atomically, so after
a crash or a ``kill -9`` every output present is complete: ``resume`` skips the files that
have one, redoes the rest, and removes the partial files a killed run left. Nothing a batch
did not write is written over (:mod:`.guard`).
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

import attrs

from glyphweave.core.errors import UsageError
from glyphweave.exits import EXIT_USAGE
from glyphweave.files import check_not_input

from .guard import OutputFolder, file_sha256, identity
from .manifest import compact as compact_manifest
from .manifest import load as manifest_lines
from .manifest import repair as repair_manifest
from .names import MANIFEST, SUFFIXES, TEMP_PREFIX
from .task import ExtractOptions, FileJob, FileResult, appending


@attrs.frozen
class Plan:
    """The jobs of a batch, and the inputs that could not become one (with why)."""

    jobs: list[FileJob]
    problems: list[FileResult]


def plan(inputs: Sequence[str], outdir: str, options: ExtractOptions, *, gather: bool = False) -> Plan:
    """The jobs for ``inputs``: a PDF file's output is named after it in ``outdir``; a
    folder's PDFs (``*.pdf`` in any case, recursively, in sorted order) keep their path
    below the folder; ``@list.txt`` names one input per line (``#`` comments, blank lines
    skipped; relative paths are relative to the list). A file met twice (named twice, or
    named and in a folder given too) is one job, its first. An output that would be another
    job's output is reported, never written."""
    suffix = SUFFIXES[options.format]
    jobs: list[FileJob] = []
    problems: list[FileResult] = []
    claimed: dict[str, str] = {}
    seen: set[object] = set()
    for source, relative in _sources(inputs, problems):
        same = identity(source) or os.path.normcase(os.path.abspath(source))
        if same in seen:
            continue
        seen.add(same)
        output = os.path.join(outdir, relative.with_suffix("").as_posix() + suffix)
        key = os.path.normcase(os.path.abspath(output))
        if key in claimed:
            problems.append(FileResult(file=source, status="failed", exit_status=1,
                                       error=f"its output {output} is also {claimed[key]}'s; skipped"))
            continue
        claimed[key] = source
        jobs.append(FileJob(source=source, output=output, options=options, gather=gather))
    return Plan(jobs, problems)


def input_files(inputs: Sequence[str]) -> tuple[list[str], list[FileResult]]:
    """The PDF files ``inputs`` name, as :func:`plan` finds them (folders walked, ``@lists``
    read, a file met twice taken once), and a failed result for each input that names none:
    for a command that reads the files and writes no outputs (``glyphweave grep``)."""
    problems: list[FileResult] = []
    files: list[str] = []
    seen: set[object] = set()
    for source, _relative in _sources(inputs, problems):
        same = identity(source) or os.path.normcase(os.path.abspath(source))
        if same not in seen:
            seen.add(same)
            files.append(source)
    return files, problems


def _sources(inputs: Sequence[str], problems: list[FileResult]) -> Iterator[tuple[str, Path]]:
    for item in inputs:
        if item.startswith("@"):
            listing = Path(item[1:])
            try:
                lines = listing.read_text(encoding="utf-8").splitlines()
            except OSError as exc:
                problems.append(FileResult(file=item, status="failed", exit_status=1,
                                           error=f"cannot read the list ({exc.strerror})"))
                continue
            names = [ln.strip() for ln in lines if ln.strip() and not ln.strip().startswith("#")]
            yield from _sources([str(listing.parent / name) if not os.path.isabs(name) else name for name in names],
                                problems)
            continue
        path = Path(item)
        if path.is_dir():
            found = sorted(p for p in path.rglob("*") if p.is_file() and p.suffix.lower() == ".pdf")
            for pdf in found:
                yield str(pdf), pdf.relative_to(path)
        elif path.is_file():
            yield str(path), Path(path.name)
        else:
            problems.append(FileResult(file=item, status="failed", exit_status=4, error=_not_a_source(path)))


def clean_partials(outdir: str) -> int:
    """Remove the partial outputs a killed run left in ``outdir``; how many."""
    removed = 0
    if not os.path.isdir(outdir):
        return 0
    for root, _dirs, files in os.walk(outdir):
        for name in files:
            if name.startswith(TEMP_PREFIX):
                try:
                    os.unlink(os.path.join(root, name))
                    removed += 1
                except OSError:
                    pass
    return removed


def finished(jobs: Iterable[FileJob]) -> tuple[list[FileJob], list[FileResult]]:
    """Split ``jobs`` into those still to do and results for those whose output exists
    (complete, since outputs only appear complete)."""
    todo: list[FileJob] = []
    done: list[FileResult] = []
    for job in jobs:
        if os.path.isfile(job.output):
            done.append(FileResult(file=job.source, status="skipped", output=job.output,
                                   error=None))
        else:
            todo.append(job)
    return todo, done


def run_batch(inputs: Sequence[str], outdir: str, *, options: ExtractOptions | None = None, jobs: int | None = None,
              resume: bool = False, force: bool = False, time_limit: float | None = None,
              memory_mb: float | None = None, dask: str | None = None, gather: bool = False,
              manifest: str | None = None, planned: Callable[[int], None] | None = None) -> Iterator[FileResult]:
    """Extract every PDF of ``inputs`` into ``outdir``; yield each file's result as it
    finishes (the Python API of ``glyphweave batch``).

    A batch writes over nothing it did not write (:mod:`.guard`): an ``outdir`` holding files
    that are not a batch's outputs is refused, unless ``resume`` or ``force``; even then,
    and always for an input file, the PDF whose output would replace such a file is reported
    failed instead.

    :param jobs: worker processes (default: every core). Ignored with ``dask``.
    :param resume: skip files whose output already exists (finished by an earlier run).
    :param force: write into an ``outdir`` that holds other files (never over one of them).
    :param time_limit: seconds per file; past it the file fails and its worker is replaced.
    :param memory_mb: memory per worker (at least :data:`~.pool.MIN_MEMORY_MB`); past it the
        file fails and its worker is replaced.
    :param dask: a Dask scheduler address, or ``"local"`` for a cluster on this machine.
    :param gather: with ``dask``, send the outputs back and write them here instead of
        having the workers write them (for workers that cannot see ``outdir``).
    :param manifest: where to append the manifest (default ``outdir/manifest.jsonl``).
    :param planned: called once with the number of files, before any is extracted (a
        progress bar's total).
    :raises UsageError: on the first ``next()``, before anything is read or written: a
        limit out of its range, an ``outdir`` that is a file or holds other files, a
        ``manifest`` that is not one or is an input.
    """
    from .pool import check_memory_limit

    options = options or ExtractOptions()
    check_memory_limit(memory_mb)
    if os.path.exists(outdir) and not os.path.isdir(outdir):
        raise UsageError(f"{outdir}: exists and is not a folder")
    path = manifest or os.path.join(outdir, MANIFEST)
    batch = plan(inputs, outdir, options, gather=gather)
    check_not_input(path, [job.source for job in batch.jobs])
    folder = OutputFolder(outdir, path, manifest_lines(path))
    if not (resume or force):
        folder.refuse_foreign()
    os.makedirs(outdir, exist_ok=True)
    clean_partials(outdir)
    inputs_out, jobs_in = _not_inputs(batch.jobs)
    todo, done = finished(jobs_in) if resume else (jobs_in, [])
    todo, problems = _unblocked(todo, folder)
    problems[:0] = inputs_out
    if planned is not None:
        planned(len(batch.jobs) + len(batch.problems))
    repair_manifest(path)
    recorded = {entry["file"] for entry in manifest_lines(path) if entry.get("status") == "ok"} if done else set()
    try:
        with appending(path) as log:
            def record(result: FileResult) -> FileResult:
                log.write(json.dumps(result.to_dict(), ensure_ascii=False) + "\n")
                log.flush()
                return result

            for result in [*batch.problems, *problems]:
                yield record(result)
            for result in done:
                if result.file in recorded:
                    yield result  # already in the manifest of the run that finished it
                else:  # that run was killed between the output's rename and its manifest line
                    yield record(attrs.evolve(result, sha256=file_sha256(result.output) if result.output else None))
            for result in _execute(todo, jobs=jobs, time_limit=time_limit, memory_mb=memory_mb, dask=dask,
                                   gather=gather):
                yield record(result)
    finally:
        compact_manifest(path, inputs=[job.source for job in batch.jobs])


def _not_inputs(jobs: list[FileJob]) -> tuple[list[FileResult], list[FileJob]]:
    """A failed result for each job whose output is an input file (a PDF named ``c.txt``,
    given directly, would be written to ``OUTDIR/c.txt``: itself when ``OUTDIR`` is its
    folder), and the other jobs."""
    sources = {identity(job.source) for job in jobs} - {None}
    refused: list[FileResult] = []
    kept: list[FileJob] = []
    for job in jobs:
        if identity(job.output) in sources:
            refused.append(FileResult(file=job.source, status="failed", exit_status=EXIT_USAGE,
                                      error=f"its output {job.output} is an input file; skipped, not overwritten"))
        else:
            kept.append(job)
    return refused, kept


def _unblocked(todo: list[FileJob], folder: OutputFolder) -> tuple[list[FileJob], list[FileResult]]:
    """``todo`` without the jobs whose output would replace a file no batch wrote, and a
    failed result for each of those."""
    kept: list[FileJob] = []
    refused: list[FileResult] = []
    for job in todo:
        if folder.blocked(job.output):
            refused.append(FileResult(file=job.source, status="failed", exit_status=EXIT_USAGE,
                                      error=f"its output {job.output} exists and is not a batch's output; "
                                            "skipped, not overwritten"))
        else:
            kept.append(job)
    return kept, refused


def _execute(todo: list[FileJob], *, jobs: int | None, time_limit: float | None, memory_mb: float | None,
             dask: str | None, gather: bool) -> Iterator[FileResult]:
    if not todo:
        return
    if dask is not None:
        from .dask import run_dask

        yield from run_dask(todo, address=dask, gather=gather)
        return
    from .pool import run_pool

    workers = max(1, min(jobs or os.cpu_count() or 1, len(todo)))
    yield from run_pool(todo, workers=workers, time_limit=time_limit, memory_mb=memory_mb)


def summary(results: Iterable[FileResult]) -> dict[str, Any]:
    """Totals over a batch's results: files by status, pages, glyphs, unresolved, seconds."""
    totals: dict[str, Any] = {"files": 0, "ok": 0, "failed": 0, "skipped": 0, "pages": 0, "glyphs": 0,
                              "unresolved": 0, "seconds": 0.0}
    for result in results:
        totals["files"] += 1
        totals[result.status] = totals.get(result.status, 0) + 1
        totals["pages"] += result.pages
        totals["glyphs"] += result.glyphs
        totals["unresolved"] += result.unresolved
        totals["seconds"] += result.seconds
    totals["seconds"] = round(totals["seconds"], 3)
    return totals


def _not_a_source(path: Path) -> str:
    """Why ``path`` is neither a PDF file nor a folder of them: it names nothing, or something
    that is not a regular file (a device, a FIFO), which is never read (``/dev/zero`` never ends)."""
    import stat

    try:
        mode = path.stat().st_mode
    except OSError:
        return "no such file or folder"
    kinds = ((stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"), (stat.S_ISFIFO, "a FIFO"),
             (stat.S_ISSOCK, "a socket"))
    kind = next((name for test, name in kinds if test(mode)), "not a regular file")
    return f"is {kind}, not a PDF file; not read"
