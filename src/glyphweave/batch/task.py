"""One file of a batch: extract it, write its output atomically, say what happened.

:func:`run_job` is the unit of work every backend runs (the local process pool, a Dask
worker, the caller's own loop): it takes a :class:`FileJob`, writes the output next to
its final name and renames it into place only when complete (a crash, a ``kill -9`` or a
failure never leaves a partial output under the final name), and returns a
:class:`FileResult`: never raises for a bad file.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import time
from collections.abc import Iterator
from typing import IO, Any

import attrs

from glyphweave.files import write_text
from glyphweave.opening import OpenOptions

from .names import FORMATS, SUFFIXES, TEMP_PREFIX  # noqa: F401 (FORMATS: this module's public name)
from .ranges import PageLabel, clamped_note, parse_ranges, select


def _batch_open() -> OpenOptions:
    return OpenOptions(pause_gc=True)


@attrs.frozen(kw_only=True)
class ExtractOptions:
    """What ``extract`` would be told: the same options for every file of a batch."""

    open: OpenOptions = attrs.field(factory=_batch_open)
    """What each file is opened with (password, profile, limits, plugins). By default the
    collector is paused while a page is extracted: a batch's workers are processes it owns."""
    mode: str | None = None
    pages: str | None = attrs.field(default=None)
    """Page ranges, 1-based (``1-3,7``), cut to each file's pages (:mod:`.ranges`); None: all.
    A malformed one raises :class:`~glyphweave.core.errors.UsageError` here, before any file."""
    format: str = attrs.field(default="text", validator=attrs.validators.in_(FORMATS))
    separator: str = "\f"
    crop: tuple[float, float, float, float] | None = attrs.field(default=None)
    """The box each page is cut to (:meth:`glyphweave.Page.crop`), or None: the whole page.
    One that is not four finite numbers in order raises :class:`~glyphweave.core.errors.UsageError` here."""

    @pages.validator
    def _check_pages(self, _attribute: Any, value: str | None) -> None:
        if value is not None:
            parse_ranges(value)

    @crop.validator
    def _check_crop(self, _attribute: Any, value: tuple[float, float, float, float] | None) -> None:
        if value is not None:
            from glyphweave.pagecrop import check_box

            check_box(value)


@attrs.frozen(kw_only=True)
class FileJob:
    """One input file and where its output goes."""

    source: str
    output: str
    options: ExtractOptions
    gather: bool = False
    """Return the output in the result instead of writing it (a Dask client that writes
    the outputs itself)."""


@attrs.frozen(kw_only=True)
class FileResult:
    """What happened to one file: one line of the batch manifest."""

    file: str
    status: str
    """``ok``, ``failed`` (see ``error``) or ``skipped`` (finished by an earlier run, with ``--resume``)."""
    error: str | None = None
    """One line: why the file failed."""
    exit_status: int = 0
    """The status ``glyphweave extract`` would have exited with for this file alone."""
    pages: int = 0
    glyphs: int = 0
    unresolved: int = 0
    warnings: int = 0
    seconds: float = 0.0
    output: str | None = None
    sha256: str | None = None
    """Of the output's bytes (what a rerun must reproduce)."""
    note: str | None = None
    """One line a user should read though the file succeeded: ``--pages`` cut to the file's pages."""
    content: str | None = attrs.field(default=None, repr=False)
    """The output itself, for a job with ``gather``; not in the manifest."""

    def to_dict(self) -> dict[str, Any]:
        data = attrs.asdict(self)
        data.pop("content")
        return data


def run_job(job: FileJob) -> FileResult:
    """Extract ``job.source`` into ``job.output`` (see the module docstring)."""
    started = time.perf_counter()
    try:
        content, stats, warnings, note = _extract(job)
        digest = hashlib.sha256(content.encode("utf-8", "surrogatepass")).hexdigest()
        if not job.gather:
            write_atomically(job.output, content, inputs=(job.source,))
    except Exception as exc:
        return failed(job.source, exc, started)
    return FileResult(
        file=job.source, status="ok", pages=stats.pages, glyphs=stats.glyphs, unresolved=stats.unresolved,
        warnings=warnings, seconds=round(time.perf_counter() - started, 4), output=job.output,
        sha256=digest, content=content if job.gather else None, note=note,
    )


def failed(source: str, exc: Exception, started: float) -> FileResult:
    """The result of a file whose work raised ``exc`` (started at ``started``, a
    :func:`time.perf_counter` reading): its one-line reason and the status ``extract`` would
    have exited with. A batch (or a search of many files) goes on after it."""
    from glyphweave.core.errors import GlyphweaveError
    from glyphweave.exits import EXIT_ERROR, exit_status

    if isinstance(exc, (GlyphweaveError, OSError, MemoryError, RecursionError)):
        error, status = one_line(exc), exit_status(exc)
    elif isinstance(exc, ImportError):  # a module missing, or no memory left to load it (under --memory-mb)
        error, status = cannot_load(exc), EXIT_ERROR
    else:  # a bug, or a plugin's: the file says why
        error, status = f"unexpected {type(exc).__name__}: {one_line(exc)}", EXIT_ERROR
    return FileResult(file=source, status="failed", error=error, exit_status=status,
                      seconds=round(time.perf_counter() - started, 4))


def selected_pages(doc: Any, spec: str | None) -> tuple[list[int] | None, str | None]:
    """The pages the page ranges ``spec`` (``--pages``, cut to the file's pages) select in
    ``doc``, and what the manifest says when they were cut; (None, None): every page."""
    if spec is None:
        return None, None
    ranges = parse_ranges(spec)
    labels = doc.page_labels if any(isinstance(r, PageLabel) for r in ranges) else None
    return select(ranges, len(doc), labels), clamped_note(spec, ranges, len(doc), labels)


CANNOT_LOAD = "cannot load the module "
"""How the error of a file whose extraction could not import a module starts."""


def cannot_load(exc: ImportError) -> str:
    """One line for a module that could not be imported (missing, or no memory to map it)."""
    return f"{CANNOT_LOAD}{exc.name or '?'}: {one_line(exc)}"[:500]


def one_line(exc: BaseException) -> str:
    text = " ".join(str(exc).split()) or type(exc).__name__
    return text[:500]


def _extract(job: FileJob) -> tuple[str, Any, int, str | None]:
    from glyphweave.api import open_with

    opts = job.options
    parts: list[str] = []
    with open_with(job.source, opts.open) as doc:
        pages, note = selected_pages(doc, opts.pages)
        if opts.format == "text":
            for _, text in doc.iter_text(pages, mode=opts.mode, crop=opts.crop):
                parts.append(text)
                parts.append(opts.separator)
        elif opts.format == "pages":
            for page, result in doc.iter_assembled(pages, mode=opts.mode, crop=opts.crop):
                record = {"page": page.number + 1, "text": result.text, "stats": page.stats.to_dict()}
                if result.data is not None:  # an assembler's structured data, as extract --format jsonl
                    record["data"] = result.data
                parts.append(json.dumps(record, ensure_ascii=False) + "\n")
        elif opts.format == "words":
            from glyphweave.pagewords import word_records

            for page, _result, blocks in doc.iter_blocks(pages, mode=opts.mode, crop=opts.crop):
                parts.extend(json.dumps(record, ensure_ascii=False) + "\n" for record in word_records(page.number, blocks))
        elif opts.format == "markdown":
            parts.append(doc.markdown(pages, mode=opts.mode or "markdown", crop=opts.crop))
        else:
            for page, glyphs in doc.iter_glyphs(pages, crop=opts.crop):
                parts.extend(json.dumps({"page": page.number + 1, **glyph.to_dict()}, ensure_ascii=False) + "\n"
                             for glyph in glyphs)
        return "".join(parts), doc.stats, doc.warning_count(), note


def write_atomically(path: str, content: str, *, inputs: tuple[str, ...] = ()) -> None:
    """Write ``content`` to ``path`` by :func:`glyphweave.files.replacing` (a regular file
    renamed into place once complete and flushed to disk; a link's target replaced; a
    device written in place; never one of ``inputs``), making its folder first."""
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    write_text(path, content, errors="surrogatepass", durable=True, inputs=inputs)


@contextlib.contextmanager
def appending(path: str) -> Iterator[IO[str]]:
    """A manifest opened for appending whole lines (each flushed as it is written)."""
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    with open(path, "a", encoding="utf-8") as stream:
        yield stream
