"""One long document split across processes by pages (``glyphweave extract --jobs N``).

The output is byte-identical to ``--jobs 1``, text and JSON lines alike, and so are the
statistics and warnings ``--stats`` and ``--strict`` read. How:

* **Contiguous chunks handed out in order.** The selected pages (in the order ``--pages``
  gives them) are cut into chunks of consecutive pages: :data:`.jobs.CHUNK` at first, smaller
  towards the end (guided self-scheduling, down to :data:`.jobs.MIN_CHUNK`). Each worker process
  opens the document itself, by path, with the parent's profile, mode, limits, plugins and
  password, keeps it open, and asks for the next chunk when it has finished one: a book
  whose chapters cost more than its front matter keeps every core busy to the end, and the
  workers finish within a few pages of each other. Workers are forked where the platform
  allows, as in :mod:`.pool`, so they start without importing glyphweave again, and die
  with the parent however it dies (:mod:`.lifeline`).
* **Written strictly in page order, as it goes.** The parent keeps finished chunks until
  every chunk before them is written, then writes them: chunk ``k`` reaches the output
  as soon as chunks ``0..k`` are done, and memory holds a few chunks, not the document.
* **Once-per-document events are reported once, where one process would report them.**
  A document decodes each font once, reports each failing component once, and reports a
  damaged structure tree on the first page assembled after reading it; every worker starts
  fresh, so each would report these again on its own first page. These warnings name their
  source (the font, the component, the structure tree), and the parent keeps each one on its
  first page in output order only. Because every worker takes its chunks in output order, that first page is the one
  a single process would have reported it on. Page statistics are per page, so the
  document totals the parent sums from them equal one process's.
* **The document's content budget.** ``document_content_mb`` caps the decoded content of
  the whole document; a worker sees only its own pages' share. The parent adds up what the
  pages cost in output order, and from the first page where a single process could have
  run short of the budget (it then cuts pages a worker did not), it stops the workers and
  extracts the rest itself with exactly the budget left. With the default (1 GB) this
  never happens on real files.
* Where a worker cannot open the document by path (standard input, a pipe), or the split
  would give one process, extraction runs as it always did: ``--jobs 1`` is the one-process
  code path itself, untouched.

**The default, ``auto``** (:mod:`.jobs`). One process below :data:`.jobs.AUTO_MIN_PAGES` selected pages; from
there, one per core, but no more than there are chunks: a split costs each process a second
start and its own reading of fonts, tables and structure, which pays only on longer
documents (the measurements behind the threshold are in the design notes, "Splitting one
document across processes").
"""

from __future__ import annotations

import contextlib
import gc
import pickle
import signal
from collections.abc import Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any

import attrs

from glyphweave.core.errors import GlyphweaveError
from glyphweave.opening import OpenOptions

from .jobs import AHEAD, cut
from .lifeline import Lifeline, bind, lifeline

if TYPE_CHECKING:  # multiprocessing and the stages load when a split runs, not with every command
    from multiprocessing.connection import Connection

    from glyphweave.core.stages import Assembled

@attrs.frozen(kw_only=True)
class SplitOptions:
    """What a worker needs to open the document exactly as the parent did."""

    path: str
    """The document's file (a worker opens it itself)."""
    open: OpenOptions
    """What the parent opened it with, its limits as resolved (profile and command line)."""
    crop: tuple[float, float, float, float] | None = None
    """The box each page is cut to (:meth:`glyphweave.Page.crop`), or None."""


@attrs.frozen(kw_only=True)
class PageResult:
    """One page as a worker extracted it, with what the parent needs to merge it."""

    number: int
    """0-based index."""
    text: str
    data: Any
    stats: Any
    """The page's :class:`~glyphweave.stats.PageStats`."""
    spent: int = 0
    """Decoded content the page cost against the document's budget (bytes)."""
    blocks: Any = None
    """The page's words, lines and blocks (:meth:`glyphweave.Page.blocks`) when asked for."""


@attrs.frozen
class _Chunk:
    index: int
    pages: list[PageResult]
    error: BaseException | None = None
    """Raised after ``pages``, where one process would have raised it."""


class _Foreign(Exception):
    """An exception that could not cross the process boundary, as its name and message."""

    def __init__(self, name: str, message: str) -> None:
        super().__init__(name, message)
        self.name = name
        self.message = message

    def rebuilt(self) -> BaseException:
        return type(self.name, (Exception,), {})(self.message)


def _portable(exc: BaseException) -> BaseException:
    try:
        pickle.loads(pickle.dumps(exc))
    except Exception:
        return _Foreign(type(exc).__name__, str(exc))
    return exc


class _Reader:
    """One process's open copy of the document: extracts pages, with what each cost the
    document's content budget."""

    def __init__(self, options: SplitOptions, mode: str | None, want: str, spent: int = 0) -> None:
        from glyphweave.api import open_with

        self.doc = open_with(options.path, options.open)
        self.doc.charge_content(spent)
        self.mode = mode
        self.crop = options.crop
        self.want = want
        """What each page gives besides its text and statistics: ``text`` (nothing), ``data``
        (the assembler's data) or ``blocks`` (words, lines and blocks)."""

    def close(self) -> None:
        self.doc.close()

    def pages(self, numbers: Iterable[int]) -> Iterator[PageResult]:
        doc = self.doc
        left = doc.content_left
        if self.want == "blocks":
            for page, result, blocks in doc.iter_blocks(numbers, mode=self.mode, crop=self.crop):
                yield PageResult(number=page.number, text=result.text, data=None, blocks=blocks, stats=page.stats,
                                 spent=left - doc.content_left)
                left = doc.content_left
            return
        for page, result in doc.iter_assembled(numbers, mode=self.mode, crop=self.crop):
            yield PageResult(number=page.number, text=result.text, data=result.data if self.want == "data" else None,
                             stats=page.stats, spent=left - doc.content_left)
            left = doc.content_left


def _worker_main(conn: Connection, line: Lifeline, options: SplitOptions, mode: str | None,
                 want: str) -> None:
    """A worker's loop: a chunk in, its pages out, until the pipe closes (or the parent dies)."""
    bind(line)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent stops its workers itself
    gc.freeze()  # collections leave the objects inherited from the parent alone (no copy-on-write)
    reader: _Reader | None = None
    failed: BaseException | None = None
    try:
        reader = _Reader(options, mode, want)
    except Exception as exc:
        failed = _portable(exc)
    while True:
        try:
            request = conn.recv()
        except (EOFError, OSError):
            return
        if request is None:
            return
        index, numbers = request
        pages: list[PageResult] = []
        error = failed
        if reader is not None:
            try:
                for result in reader.pages(numbers):
                    pages.append(result)
                    # What outlives a page, out of the collector's reach, as ``extract`` does
                    # between the pages it writes (this process is ours too).
                    gc.freeze()
            except Exception as exc:
                error = _portable(exc)
        try:
            conn.send(_Chunk(index, pages, error))
        except (pickle.PicklingError, TypeError, AttributeError) as exc:
            conn.send(_unsendable(index, pages, exc))


def _unsendable(index: int, pages: list[PageResult], exc: Exception) -> _Chunk:
    """The pages before the first whose assembler data cannot be pickled, and an error there."""
    from glyphweave.core.errors import ComponentError

    for position, page in enumerate(pages):
        try:
            pickle.dumps(page)
        except Exception:
            return _Chunk(index, pages[:position], ComponentError(
                f"page {page.number + 1}: the assembler's data cannot be passed between processes "
                f"({type(exc).__name__}: {exc}); use --jobs 1"))
    return _Chunk(index, [], _Foreign(type(exc).__name__, str(exc)))


class _Worker:
    def __init__(self, ctx: Any, options: SplitOptions, mode: str | None, want: str) -> None:
        parent, child = ctx.Pipe()
        self.conn: Connection = parent
        self.process = ctx.Process(target=_worker_main, args=(child, lifeline(), options, mode, want),
                                   daemon=True)
        self.process.start()
        child.close()
        self.chunk: int | None = None

    def give(self, index: int, numbers: Sequence[int]) -> None:
        self.chunk = index
        self.conn.send((index, list(numbers)))

    def stop(self, *, now: bool = False) -> None:
        if not now:
            with contextlib.suppress(Exception):
                self.conn.send(None)
            self.process.join(2)
        if self.process.is_alive():
            with contextlib.suppress(Exception):
                self.process.kill()
            self.process.join(5)
        with contextlib.suppress(Exception):
            self.conn.close()


class _Merge:
    """The parent's side: pages in output order, recorded in the parent's document as its
    own :meth:`~glyphweave.api.Document.iter_assembled` would record them."""

    def __init__(self, doc: Any) -> None:
        self.doc = doc
        self.seen: set[tuple[str, str, str]] = set()

    def affordable(self) -> bool:
        """Whether the next page, from where the pages so far left the document's budget,
        cannot run into it: then a worker's page equals one process's."""
        return self.doc.content_left > self.doc.limits.page_content_bytes

    def add(self, result: PageResult) -> PageResult:
        """Record ``result`` in the parent's document, without the warnings of once-per-document
        events (those with a source: a font, a component, the structure tree) an earlier page
        gave already."""
        kept = []
        for warning in result.stats.warnings:
            if warning.source:
                key = (warning.kind, warning.source, warning.message)
                if key in self.seen:
                    continue
                self.seen.add(key)
            kept.append(warning)
        if len(kept) != len(result.stats.warnings):
            result = attrs.evolve(result, stats=attrs.evolve(result.stats, warnings=tuple(kept)))
        self.doc.record_page(result.stats)
        self.doc.charge_content(result.spent)
        return result


class PageSplit:
    """Extraction of one document's pages on several processes, iterated like a
    :class:`~glyphweave.api.Document` (:meth:`iter_text`, :meth:`iter_assembled`).

    The parent's ``doc`` receives the merged page statistics and component warnings, so
    its ``stats``, ``warnings()``, ``assembly()`` and ``component_warnings`` read as after
    one process's extraction. Use it as a context manager: leaving stops the workers."""

    def __init__(self, doc: Any, options: SplitOptions, *, jobs: int) -> None:
        self.doc = doc
        self.options = options
        self.jobs = jobs
        self._workers: list[_Worker] = []

    def __enter__(self) -> PageSplit:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        workers, self._workers = self._workers, []
        for worker in workers:
            worker.stop(now=worker.chunk is not None)

    def iter_text(self, pages: Iterable[int] | None = None, *, mode: str | None = None,
                  crop: tuple[float, float, float, float] | None = None) -> Iterator[tuple[PageResult, str]]:
        """Yield (page, text) for the selected pages, in the order given (``crop``: the
        split's own, given here too so a split and a document are iterated alike)."""
        self._same_crop(crop)
        for result in self._results(pages, mode, want="text"):
            yield result, result.text

    def iter_assembled(self, pages: Iterable[int] | None = None, *, mode: str | None = None,
                       crop: tuple[float, float, float, float] | None = None
                       ) -> Iterator[tuple[PageResult, Assembled]]:
        """Like :meth:`iter_text`, with the assembler's structured data beside the text."""
        from glyphweave.core.stages import Assembled

        self._same_crop(crop)

        for result in self._results(pages, mode, want="data"):
            yield result, Assembled(text=result.text, data=result.data)

    def iter_blocks(self, pages: Iterable[int] | None = None, *, mode: str | None = None,
                    crop: tuple[float, float, float, float] | None = None
                    ) -> Iterator[tuple[PageResult, Assembled, list[Any]]]:
        """Like :meth:`iter_assembled` (without the data), with each page's blocks."""
        from glyphweave.core.stages import Assembled

        self._same_crop(crop)
        for result in self._results(pages, mode, want="blocks"):
            yield result, Assembled(text=result.text), result.blocks

    def _same_crop(self, crop: tuple[float, float, float, float] | None) -> None:
        if crop != self.options.crop:
            raise ValueError("a page split cuts its pages to the box it was made with (the crop in its SplitOptions)")

    def _results(self, pages: Iterable[int] | None, mode: str | None, *, want: str) -> Iterator[PageResult]:
        numbers = list(range(len(self.doc)) if pages is None else pages)
        chunks = cut(numbers, self.jobs)
        merge = _Merge(self.doc)
        done = 0  # pages of ``numbers`` written
        for _index, chunk in self._chunks_in_order(chunks, mode, want):
            for result in chunk.pages:
                if not merge.affordable():
                    self.close()
                    yield from self._rest(numbers[done:], mode, want, merge)
                    return
                yield merge.add(result)
                done += 1
            if chunk.error is not None:
                error = chunk.error
                raise error.rebuilt() if isinstance(error, _Foreign) else error

    def _rest(self, numbers: list[int], mode: str | None, want: str, merge: _Merge) -> Iterator[PageResult]:
        """The pages from where the document's budget may run short, in this process, with
        the budget one process would have left there."""
        reader = _Reader(self.options, mode, want,
                         spent=self.doc.limits.document_content_bytes - self.doc.content_left)
        try:
            for result in reader.pages(numbers):
                yield merge.add(result)
        finally:
            reader.close()

    def _chunks_in_order(self, chunks: list[list[int]], mode: str | None, want: str
                         ) -> Iterator[tuple[int, _Chunk]]:
        """Run ``chunks`` on the workers; yield each as soon as every one before it is done."""
        from multiprocessing.connection import wait

        from .pool import _context

        ctx = _context()
        done: dict[int, _Chunk] = {}
        given = written = 0
        try:
            while written < len(chunks):
                while written in done:
                    yield written, done.pop(written)
                    written += 1
                if written == len(chunks):
                    break
                given = self._hand_out(ctx, chunks, given, written + self.jobs * AHEAD, mode, want)
                busy = [w for w in self._workers if w.chunk is not None]
                ready = wait([w.conn for w in busy] + [w.process.sentinel for w in busy])
                for worker in busy:
                    if worker.conn in ready:
                        try:
                            chunk: _Chunk = worker.conn.recv()
                        except (EOFError, OSError):
                            pass
                        else:
                            done[chunk.index] = chunk
                            worker.chunk = None
                            continue
                    if worker.conn in ready or worker.process.sentinel in ready:
                        self._died(worker, chunks)
        finally:
            self.close()

    def _hand_out(self, ctx: Any, chunks: list[list[int]], given: int, limit: int, mode: str | None,
                  want: str) -> int:
        """Give the next chunks (before ``limit``) to the idle workers, starting workers (up to
        ``jobs``) while chunks wait; the index of the next chunk to give."""
        while given < min(limit, len(chunks)):
            worker = next((w for w in self._workers if w.chunk is None), None)
            if worker is None:
                if len(self._workers) >= self.jobs:
                    break
                worker = _Worker(ctx, self.options, mode, want)
                self._workers.append(worker)
            worker.give(given, chunks[given])
            given += 1
        return given

    def _died(self, worker: _Worker, chunks: list[list[int]]) -> None:
        from .pool import _death

        assert worker.chunk is not None
        pages = chunks[worker.chunk]
        worker.process.join(1)
        raise GlyphweaveError(f"{self.doc.name}: a worker process died ({_death(worker.process.exitcode)}) "
                              f"extracting pages {pages[0] + 1}-{pages[-1] + 1}; --jobs 1 extracts in one process")
