"""The Python API: open a PDF, walk its pages lazily, get text, glyphs and statistics.

This is the one module that joins the three layers below it: the registry (plugins and
profiles), the PDF engine (:mod:`glyphweave.pdf`) and the core pipeline.
"""

from __future__ import annotations

import contextlib
import errno
import gc
import io
import os
import re
import stat
import time
import types
import warnings
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import IO, TYPE_CHECKING, Any, TypeVar

import attrs
import pikepdf

from glyphweave.components.catalog import Catalog
from glyphweave.components.manager import PluginWarning, create_plugin_manager
from glyphweave.components.profile import Profile, load_profile
from glyphweave.core.errors import (
    DocumentClosedError,
    NotARegularFileError,
    PageError,
    PasswordError,
    PDFNotFoundError,
    PDFOpenError,
)
from glyphweave.core.glyph import Glyph
from glyphweave.core.glyphtable import GlyphTable
from glyphweave.core.pipeline import Pipeline, read_limits
from glyphweave.core.stages import Assembled, PageContext
from glyphweave.core.structure import PageStructure
from glyphweave.guard.clock import PageClock
from glyphweave.guard.limits import Budget, Limits
from glyphweave.guard.report import WarningRecord
from glyphweave.opening import OpenOptions
from glyphweave.opening import plugin_manager as make_plugin_manager
from glyphweave.pdf.annotations import FormDefaults
from glyphweave.pdf.fonts import FontLoader
from glyphweave.pdf.interpreter import PageInterpreter, resolve_inherited
from glyphweave.pdf.pagetree import walk_page_tree
from glyphweave.pdf.rescue import clamp_numbers, objects_nulled_by_numbers
from glyphweave.pdf.structure_tree import DocumentStructure, read_structure
from glyphweave.stats import DocumentStats, PageStats, page_stats
from glyphweave.tables.encodings import encodings_source
from glyphweave.tables.std14 import std14_source

if TYPE_CHECKING:
    from glyphweave.core.stages import Assembler
    from glyphweave.layout.coverage import Coverage
    from glyphweave.pagecrop import CroppedPage
    from glyphweave.pagesearch import SearchHit
    from glyphweave.pagetables import Table
    from glyphweave.pagewords import TextBlock, TextLine, TextWord
    from glyphweave.pdf.metadata import Metadata
    from glyphweave.pdf.outline import OutlineEntry

Source = str | os.PathLike[str] | bytes | IO[bytes]
T = TypeVar("T")
Box = tuple[float, float, float, float]
LETTER: Box = (0.0, 0.0, 612.0, 792.0)


def _box(value: Any) -> Box | None:
    try:
        x0, y0, x1, y1 = (float(v) for v in value)
    except (TypeError, ValueError):
        return None
    return (min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1))


def _open_pdf(source: Source, password: str | None) -> tuple[pikepdf.Pdf, str, list[str], list[str]]:
    if isinstance(source, (bytes, bytearray, memoryview)):
        target: Any = io.BytesIO(bytes(source))
        name = "<bytes>"
    elif isinstance(source, (str, os.PathLike)):
        target = os.fspath(source)
        name = target
        _check_regular_file(target)
    else:
        target = source
        name = getattr(source, "name", "<stream>")
    try:
        pdf, clamped, repairs = _pikepdf_open(target, password)
    except pikepdf.PasswordError:
        if password:
            raise PasswordError(f"{name}: wrong password", password_given=True) from None
        raise PasswordError(f"{name}: encrypted; a password is needed") from None
    except (pikepdf.PdfError, OSError, ValueError, RuntimeError) as exc:
        detail = _without_source(str(exc).splitlines()[0], name) if str(exc) else type(exc).__name__
        raise PDFOpenError(f"{name}: cannot open as PDF ({detail})") from None
    return pdf, name, clamped, repairs


_REPAIR_PLACE = re.compile(r"\(((?:object|offset|trailer|xref)[^)]*)\): ")
"""Where a qpdf warning says it repaired something: ``(object 12 0, offset 345): ``."""
_REPAIR_NUMBER = re.compile(r"\d+")
_STREAM_SOURCE = re.compile(r"stream <[^>]*>:? ?")
"""How qpdf names a PDF read from memory: pikepdf's repr of the stream, useless to a reader."""


def _without_source(text: str, name: str) -> str:
    """A qpdf message without the file name (or stream repr) it starts with."""
    if text.startswith(name):
        return text[len(name):].lstrip(" :")
    found = _STREAM_SOURCE.match(text)
    return text[found.end():] if found else text


def _pikepdf_open(target: Any, password: str | None) -> tuple[pikepdf.Pdf, list[str], list[str]]:
    """``target`` opened by pikepdf, what was clamped to open it, and what qpdf repaired as it
    opened it (qpdf hands its warnings over once: they are taken here). An object qpdf read as
    null for a number too large for it (a page, dropped with its text) is kept by opening a
    copy with the number clamped (:mod:`glyphweave.pdf.rescue`)."""
    pdf = _pikepdf_open_once(target, password)
    repairs = [str(warning) for warning in pdf.get_warnings()]
    nulled = objects_nulled_by_numbers(repairs)
    data = _source_bytes(target) if nulled else None
    if data is None:
        return pdf, [], repairs
    patched, notes = clamp_numbers(data, nulled)
    if not notes:
        return pdf, [], repairs
    try:
        again = _pikepdf_open_once(io.BytesIO(patched), password)
    except Exception:  # the copy is no better: keep the first opening and what qpdf said
        return pdf, [], repairs
    pdf.close()
    return again, notes, [str(warning) for warning in again.get_warnings()]


def _pikepdf_open_once(target: Any, password: str | None) -> pikepdf.Pdf:
    """``target`` opened by pikepdf, without qpdf's push of inherited attributes onto every
    page: that walks the whole page tree as the file opens (30 ms of the 175-page CJK manual's
    70), fails the whole file at a loop in the tree or one too deep for qpdf, and is not
    needed: a page's inherited attributes are read where they are used
    (:func:`~glyphweave.pdf.interpreter.resolve_inherited`), and a tree qpdf cannot list is
    walked by glyphweave (:meth:`Document._page_objects`). The pages are listed here all the
    same: qpdf parses each page object as it lists it, and what it repairs there (a number too
    large for it) must be among the warnings taken with the opening."""
    pdf = pikepdf.open(target, password=password or "", inherit_page_attributes=False)
    with contextlib.suppress(Exception):  # a tree qpdf cannot list: glyphweave walks it later
        len(pdf.pages)
    return pdf


_RESCUE_BYTES_MAX = 256 << 20
"""The largest file whose bytes are copied to clamp a number qpdf cannot read."""


def _source_bytes(target: Any) -> bytes | None:
    """The bytes of ``target`` (a path or an in-memory stream), or None when it is another
    kind of stream or larger than :data:`_RESCUE_BYTES_MAX`."""
    if isinstance(target, io.BytesIO):
        return target.getvalue()
    if not isinstance(target, str):
        return None
    try:
        with open(target, "rb") as file:
            data = file.read(_RESCUE_BYTES_MAX + 1)
    except OSError:
        return None
    return data if len(data) <= _RESCUE_BYTES_MAX else None


_FILE_KINDS = ((stat.S_ISDIR, "directory"), (stat.S_ISCHR, "character device"), (stat.S_ISBLK, "block device"),
               (stat.S_ISFIFO, "FIFO"), (stat.S_ISSOCK, "socket"))


def _check_regular_file(path: str) -> None:
    """Refuse a path that names no file or no regular file, before anything reads it: qpdf
    reads ``/dev/zero`` for ever and blocks on a FIFO until someone writes to it."""
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        raise PDFNotFoundError(errno.ENOENT, os.strerror(errno.ENOENT), path) from None
    except (OSError, ValueError) as exc:  # a path through a file, a loop of links, a NUL byte
        detail = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise PDFOpenError(f"{path}: cannot open ({detail})") from None
    if stat.S_ISREG(mode):
        return
    kind = next((kind for test, kind in _FILE_KINDS if test(mode)), "special file")
    if kind == "directory":
        raise NotARegularFileError(f"{path}: is a directory, not a PDF", filename=path, kind=kind)
    raise NotARegularFileError(f"{path}: is a {kind}, not a regular file; read it and open the "
                               "bytes instead", filename=path, kind=kind)


@attrs.frozen
class _Reopener:
    """How a document opens its source again (see :attr:`Document.reopen_pages`)."""

    open: Callable[[], pikepdf.Pdf]
    """A fresh opening of the same PDF (raises as the first opening would)."""
    unchanged: Callable[[], bool]
    """Whether the source still holds what the first opening read: asked before the document
    lets go of its current opening, which it keeps when the answer is no."""


def _reopener(source: Source, password: str | None) -> _Reopener | None:
    """How to open ``source`` again, or None: a file is opened again only while its size,
    modification time and inode are what they were before the first opening; bytes
    always (:func:`open_document` makes a bytearray bytes once, for every opening); a
    stream never (a second reading would share its position)."""
    if isinstance(source, bytes):
        return _Reopener(open=lambda: _pikepdf_open(io.BytesIO(source), password)[0], unchanged=lambda: True)
    if not isinstance(source, (str, os.PathLike)):
        return None
    path = os.fspath(source)
    try:
        seen = _identity(path)
    except OSError:
        return None

    def unchanged() -> bool:
        try:
            return _identity(path) == seen
        except OSError:
            return False

    return _Reopener(open=lambda: _pikepdf_open(path, password)[0], unchanged=unchanged)


def _identity(path: str) -> tuple[int, ...]:
    st = os.stat(path)
    return (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns)


class Page:
    """One page. Interpreting happens on first use and is kept with the page.

    Once its document is closed, everything that reads the page (its table, glyphs, text,
    statistics, structure) raises :class:`~glyphweave.core.errors.DocumentClosedError`;
    ``number``, the boxes and ``rotate`` stay readable."""

    def __init__(self, document: Document, number: int, obj: Any, pdf: pikepdf.Pdf | None = None) -> None:
        self.document = document
        self.number = number
        """0-based index."""
        self._obj: Any = obj
        """The page's dictionary; None once :meth:`_release` let go of it."""
        self._pdf: pikepdf.Pdf | None = pdf if pdf is not None else document._pdf
        """The opening ``obj`` belongs to, kept alive with the page: pikepdf destroys an
        opening's objects when it is freed, and the document may have opened the file
        again since (see :attr:`Document.reopen_pages`)."""
        self._table: GlyphTable | None = None
        self._warnings: list[WarningRecord] = []
        self._visible: list[int] | None = None
        self._dropped: dict[str, int] = {}
        self._assembly: dict[str, str] = {}
        self._stats: PageStats | None = None
        self._released = False
        self._clock = PageClock(document.limits.page_seconds)
        """The page's time (``page_seconds``): it runs while the page's stages run."""
        self._inherited = document._inherited if pdf is None or pdf is document._pdf else {}
        """What the parents of the pages of :attr:`_pdf` give (see ``resolve_inherited``):
        the document's for its current opening."""
        self.mediabox: Box = _box(resolve_inherited(obj, "/MediaBox", self._inherited)) or LETTER
        """The page's MediaBox (normalised x0, y0, x1, y1)."""
        self.cropbox: Box = _box(resolve_inherited(obj, "/CropBox", self._inherited)) or self.mediabox
        """The page's CropBox; the MediaBox when absent."""
        rotate = resolve_inherited(obj, "/Rotate", self._inherited)
        try:
            self.rotate = int(rotate) % 360 if rotate is not None else 0
        except (TypeError, ValueError):
            self.rotate = 0

    def __repr__(self) -> str:
        return f"<Page number={self.number} of {self.document.name!r}>"

    @property
    def label(self) -> str | None:
        """The page's label as the document numbers it (``iv``, ``A-3``), None when the
        document gives no labels (see :attr:`Document.page_labels`)."""
        labels = self.document.page_labels
        return labels[self.number] if labels is not None and self.number < len(labels) else None

    # -- glyphs -------------------------------------------------------------------------
    @property
    def table(self) -> GlyphTable:
        """The raw glyph table (every painted glyph, in paint order)."""
        self.document._check_open()
        if self._table is None:
            budget, fonts = self.document._budget, self.document._fonts
            left_before, pending = budget.document_left, len(fonts.warnings)
            # Read again after _release, the page is timed afresh: its clock holds the first
            # reading's time and what that cost the page.
            clock = PageClock(self._clock.seconds) if self._released else self._clock
            interpreter = PageInterpreter(fonts, self.document.limits, budget, clock)
            with self.document._collector_paused(), clock.running():
                try:
                    obj = self._page_object()
                    self._table = interpreter.run_page(obj, resolve_inherited(obj, "/Resources", self._inherited),
                                                       self.document._annotation_defaults())
                except RecursionError:
                    self._table = interpreter.table
                    interpreter.warnings.append(WarningRecord(kind="content",
                                                              message="content nested too deeply; page cut short"))
            if self._released:
                # Interpreted again after _release: its content was paid for and its warnings
                # and failures reported the first time; a second time would count them twice.
                self.document.pipeline.chain.take_failures()
                budget.document_left = left_before
                del fonts.warnings[pending:]
                return self._table
            number = self.number + 1
            failures = [failure.on_page(number) for failure in self.document.pipeline.chain.take_failures()]
            self._warnings = [warning.on_page(number) for warning in (*interpreter.warnings, *fonts.warnings)]
            self._warnings += failures
            fonts.warnings = []
            self.document._component_warnings.extend(failures)
        return self._table

    def context(self) -> PageContext:
        self.document._check_open()
        return PageContext(
            number=self.number,
            mediabox=self.mediabox,
            cropbox=self.cropbox,
            rotate=self.rotate,
            table=self.table,
            placeholder=self.document.pipeline.placeholder,
            structure_source=self._structure,
            links_source=self._links,
            clock=self._clock,
        )

    def _links(self) -> tuple[tuple[float, float, float, float, str], ...]:
        from glyphweave.pdf.links import page_links

        return page_links(self._page_object())

    def _structure(self) -> PageStructure | None:
        tree = self.document._structure()
        return None if tree is None else tree.page(self.number)

    def visible_indices(self) -> list[int]:
        """Indices (paint order) of the glyphs the profile's filters keep."""
        self.document._check_open()
        if self._visible is None:
            ctx = self.context()
            with self.document._collector_paused(), self._clock.running():
                self._visible, self._dropped = self.document.pipeline.filter_page(ctx)
        return self._visible

    def glyphs(self, raw: bool = False) -> list[Glyph]:
        """Glyph records: visible ones by default, every painted one with ``raw=True``."""
        table = self.table
        return table.glyphs() if raw else table.glyphs(self.visible_indices())

    # -- text ---------------------------------------------------------------------------
    def text(self, mode: str | None = None) -> str:
        """The page's text, assembled by the profile's assembler or the one named ``mode``."""
        result = self._assemble(mode)
        return result if isinstance(result, str) else result.text

    def assembled(self, mode: str | None = None) -> Assembled:
        """The page's text and the assembler's structured data (None for an assembler that
        returns only text)."""
        result = self._assemble(mode)
        return Assembled(text=result) if isinstance(result, str) else result

    def crop(self, box: Sequence[float]) -> CroppedPage:
        """The page limited to ``box``, ``(x0, top, x1, bottom)`` in points from the top-left
        corner of the page as shown (its CropBox turned by /Rotate), as pdfplumber's
        ``page.crop``: its text and glyphs come from the glyphs whose centre lies inside
        (:mod:`glyphweave.pagecrop`). Glyph records stay in PDF user space.

        :raises UsageError: ``box`` is not four finite numbers with x0 < x1 and top < bottom.
        """
        from glyphweave.pagecrop import CroppedPage

        return CroppedPage(self, box)

    def words(self, mode: str | None = None) -> list[TextWord]:
        """The page's words with their boxes, in the order the text of the profile's
        assembler (or the one named ``mode``) reads them, as pdfplumber's
        ``extract_words()`` and PyMuPDF's ``get_text("words")`` give them: boxes
        ``(x0, top, x1, bottom)`` in points from the top-left of the page as shown
        (:mod:`glyphweave.pagewords` says what a word is)."""
        return [word for block in self._blocks(mode) for line in block.lines for word in line.words]

    def lines(self, mode: str | None = None) -> list[TextLine]:
        """The page's lines (their words, text and box), in reading order (see :meth:`words`)."""
        return [line for block in self._blocks(mode) for line in block.lines]

    def blocks(self, mode: str | None = None) -> list[TextBlock]:
        """The page's blocks (paragraphs, cells, labels: their lines, text and box), in
        reading order (see :meth:`words`), as PyMuPDF's ``get_text("blocks")``."""
        return self._blocks(mode)

    def markdown(self, mode: str = "markdown") -> str:
        """The page as Markdown, from the ``markdown`` assembler (or the one named ``mode``):
        headings, lists, tables, emphasis and links from the structure tree of a tagged page,
        from font sizes, markers and aligned columns on an untagged one
        (:mod:`glyphweave.plugins.assemblers.markdown`)."""
        return self.text(mode)

    def tables(self, mode: str = "markdown") -> list[Table]:
        """The page's tables (rows of cells with text and boxes as shown), as the ``markdown``
        assembler (or the one named ``mode``) found them: pdfplumber's ``extract_tables()``
        and PyMuPDF's ``find_tables()``. An assembler that reports no tables gives []."""
        from glyphweave.pagetables import tables_of

        return tables_of(self.assembled(mode).data, self.cropbox, self.rotate)

    def search(self, query: str, *, case: bool = False, regex: bool = False, mode: str | None = None) -> list[SearchHit]:
        """Where ``query`` is on the page, as PyMuPDF's ``page.search_for``: each match with
        the text it matched and the quads of its glyphs (as shown), in reading order. Found
        across ligatures, line ends and words hyphenated at a line end
        (:mod:`glyphweave.pagesearch`); ``regex=True`` takes a Python regular expression.

        :raises UsageError: an empty query, or one that is not a valid regular expression."""
        from glyphweave.pagesearch import compile_query

        return self._search(compile_query(query, case=case, regex=regex), mode)

    def _search(self, pattern: re.Pattern[str], mode: str | None, indices: list[int] | None = None) -> list[SearchHit]:
        from glyphweave.pagesearch import search_blocks

        blocks = self._blocks(mode, indices)
        return search_blocks(self.number, blocks, self.table, self.cropbox, self.rotate, pattern)

    def _blocks(self, mode: str | None, indices: list[int] | None = None) -> list[TextBlock]:
        return self._read(mode, indices)[1]

    def _read(self, mode: str | None, indices: list[int] | None = None) -> tuple[Assembled, list[TextBlock]]:
        """The text of the glyphs ``indices`` (the visible ones when None) and their blocks,
        from one assembly."""
        from glyphweave.pagewords import read_blocks, rule_options

        result, ctx, assembler, indices = self._run_assembler(mode, indices)
        if isinstance(result, str):
            result = Assembled(text=result)
        with self.document._collector_paused(), self._clock.running():
            return result, read_blocks(ctx, indices, result.order, rule_options(assembler))

    def _assemble(self, mode: str | None, indices: list[int] | None = None) -> str | Assembled:
        return self._run_assembler(mode, indices)[0]

    def _run_assembler(self, mode: str | None,
                       indices: list[int] | None) -> tuple[str | Assembled, PageContext, Assembler, list[int]]:
        """Assemble the glyphs ``indices`` (the visible ones when None): the result, and the
        page context, assembler and glyphs it was made with."""
        self.document._check_open()
        assembler = self.document.pipeline.assembler_for(mode)
        ctx = self.context()
        # With pause_gc, one pause over all three stages: each resumption costs a collection
        # of the page's young objects.
        if indices is None:
            indices = self.visible_indices()
        with self.document._collector_paused(), self._clock.running():
            result = self.document.pipeline.assemble(assembler, ctx, indices)
        self._assembly = {"assembler": assembler.NAME, **ctx.notes}
        self._stats = None
        tree = self.document._structure_tree
        if tree is not None and tree.warnings and not self.document._structure_warned:
            # What was wrong with the tree, once per document, in the first page assembled once
            # it was read: whichever assembler served the page (auto may have read the tree and
            # found it unusable, which is when its limits matter most).
            self.document._structure_warned = True
            self._warnings = [*self._warnings, *(warning.on_page(self.number + 1) for warning in tree.warnings)]
        return result, ctx, assembler, indices

    def structure(self, minimum: float = 0.5) -> Coverage:
        """Whether the page is tagged usably: the share of its visible glyphs (artifacts
        left out) that the structure tree covers, and the reason it is or is not usable
        (the structure assembler's test, with ``minimum`` as its ``coverage`` option)."""
        from glyphweave.layout.coverage import content_keys, coverage  # the layout engine, when asked

        self.document._check_open()
        by_key, artifacts, loose = content_keys(self.table, self.visible_indices())
        return coverage(self._structure(), by_key, artifacts, loose, minimum)

    @property
    def stats(self) -> PageStats:
        """What happened to the page's glyphs (extracting it first if need be)."""
        self.document._check_open()
        if self._stats is None:
            indices = self.visible_indices()
            timed = self._clock.warning()
            warnings = self._warnings if timed is None else [*self._warnings, timed.on_page(self.number + 1)]
            self._stats = page_stats(self.number, self.table, indices, self._dropped, warnings, self._assembly)
        return self._stats

    def _release(self) -> None:
        """Drop the glyph table once the page's text and statistics are taken (the
        document's page iterators do, with ``pause_gc``): the page's objects are then freed
        before the collector resumes, which would otherwise scan them all. Asked for
        again, the table is interpreted again, to the same glyphs."""
        self._table = None
        self._released = True
        # Nor does the page hold its opening any more: a document's iterators hold the page
        # they yielded last while they open the file again, and the opening the page kept
        # alive would then be freed only after the next one was made (both at once at the
        # peak). Read again, the page takes its dictionary from the document's opening.
        self._obj = self._pdf = None
        self._inherited = {}

    def _page_object(self) -> Any:
        """The page's dictionary: the one it was made with, or once :meth:`_release` let go
        of it, the same page's in the document's current opening."""
        if self._obj is None:
            document = self.document
            self._obj, self._pdf = document._page_objects()[self.number], document._pdf
            self._inherited = document._inherited
        return self._obj


class PageList(Sequence[Page]):
    """The pages of a document, created on access (memory stays flat on long files)."""

    def __init__(self, document: Document) -> None:
        self._document = document
        self._pdf = document._pdf
        self._objs = document._page_objects()

    def __len__(self) -> int:
        return len(self._objs)

    def __iter__(self) -> Iterator[Page]:
        self._document._check_open()
        for index, obj in enumerate(self._objs):
            yield Page(self._document, index, obj, self._pdf)

    def __getitem__(self, index: Any) -> Any:
        self._document._check_open()
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        n = len(self)
        if not -n <= index < n:
            raise PageError(f"page index {index} out of range (document has {n} pages)")
        index %= n
        return Page(self._document, index, self._objs[index], self._pdf)


class Document:
    """An open PDF with a pipeline. Use :func:`glyphweave.open` to make one.

    Once closed (:meth:`close`, or the end of its ``with`` block), a document still answers
    for its ``name``, ``len()``, ``closed`` and what it extracted before (:attr:`stats`,
    :meth:`warnings`, :meth:`assembly`, :attr:`component_warnings`); everything that reads
    the PDF (:attr:`pages`, iterating, :meth:`text`, :meth:`write_text`, the ``iter_``
    methods, and every page taken from it before) raises
    :class:`~glyphweave.core.errors.DocumentClosedError`, as a closed file does."""

    reopen_pages = 250
    """Pages the document iterators extract at least before they open the PDF again, when
    the document knows how (``reopen``). qpdf keeps every object it has parsed until the
    PDF is closed, about 30 KB a page on the benchmark corpus, so a long document would
    grow without bound; a fresh opening starts empty, and the fonts read so far are kept
    (they find their streams by object number)."""
    reopen_share = 0.01
    """The largest share of the extraction time that opening the PDF again may take. qpdf
    reads the whole cross-reference table at each opening (55 ms for a file of 16,000
    objects), and the objects the next pages share (object streams, resources) are parsed
    again, so a document is reopened only once the pages since its last opening took at
    least ``1 / reopen_share`` times as long as opening it and counting its pages did."""

    def __init__(self, pdf: pikepdf.Pdf, pipeline: Pipeline, name: str = "<pdf>", *,
                 pause_gc: bool = False, limits: Limits | Mapping[str, Any] | None = None,
                 reopen: _Reopener | None = None,
                 annotations: bool | None = None) -> None:
        self._pdf = pdf
        self._walk_page_tree = False
        """List the pages by glyphweave's own walk of the tree (:mod:`glyphweave.pdf.pagetree`),
        not qpdf's: set once qpdf refuses the tree (a loop, great depth)."""
        self._file_warnings: dict[WarningRecord, None] = {}
        """What the page tree's walk skipped (ordered, each once): see :attr:`file_warnings`."""
        self._repairs: dict[str, list[str]] = {}
        """qpdf's repairs by kind (their text with digits as ``#``): the first one's text, then
        where each was made (``object 12 0, offset 345``), in the order met."""
        self._reopen = reopen
        """Opens the same PDF again (None when it has changed); None: never reopened."""
        self._since_open = 0
        self._opened_at = time.monotonic()
        self._open_seconds = 0.0
        """How long the last opening took (0 until the document has reopened it once: a
        caller that made ``pdf`` did not say)."""
        self.pipeline = pipeline
        self.name = name
        if limits is None or isinstance(limits, Limits):
            self.limits = limits if limits is not None else pipeline.limits
        else:
            self.limits = read_limits({**attrs.asdict(pipeline.limits), **limits}, "limits")
        """What a page and the document may cost (the profile's ``[limits]``, or ``limits=``)."""
        self._budget = Budget(self.limits)
        self.annotations: bool = pipeline.profile.annotations if annotations is None else annotations
        """Whether what annotations and form fields show on screen is page text (the profile's
        ``annotations`` unless ``annotations=`` says)."""
        self._form_defaults: FormDefaults | None = None
        self.pause_gc = pause_gc
        """Pause Python's cyclic garbage collector while a page is extracted (see :func:`open_document`)."""
        self._pause_depth = 0
        self._gc_was_enabled = True
        self._fonts = FontLoader(pipeline.chain.table_for, self.limits, pdf if reopen is not None else None)
        self._page_stats: dict[int, PageStats] = {}
        self._component_warnings: list[WarningRecord] = []
        self._structure_tree: DocumentStructure | None = None
        self._structure_read = False
        self._structure_warned = False
        self._page_objs: list[Any] | None = None
        self._inherited: dict[tuple[Any, str], Any] = {}
        """The page attributes each parent node of the open PDF gives (``resolve_inherited``):
        new with each opening, since it holds that opening's objects."""
        self._closed_count: int | None = None
        """The page count, kept by :meth:`close` (None while open, or when never counted)."""
        self._metadata: Metadata | None = None
        self._outline: list[OutlineEntry] | None = None
        self._labels: list[str] | None = None
        self._labels_read = False
        self.closed = False
        """True once :meth:`close` has run."""

    def __repr__(self) -> str:
        count = self._closed_count if self.closed else None if self._page_objs is None else len(self._page_objs)
        pages = "" if count is None else f" pages={count}"
        return f"<Document {self.name!r}{pages}{' closed' if self.closed else ''}>"

    def _annotation_defaults(self) -> FormDefaults | None:
        """What the interpreter paints annotations with (the /AcroForm's defaults, read once),
        or None when annotations are left out."""
        if not self.annotations:
            return None
        if self._form_defaults is None:
            self._form_defaults = FormDefaults.read(self._pdf)
        return self._form_defaults

    def _check_open(self) -> None:
        if self.closed:
            raise DocumentClosedError(f"{self.name}: the document is closed")

    def _file_warning(self, message: str) -> None:
        self._file_warnings[WarningRecord(kind="file", message=message)] = None

    # -- what the document says about itself ----------------------------------------------
    @property
    def metadata(self) -> Metadata:
        """Title, author, subject, keywords, creator, producer and dates (``created``,
        ``modified``, as :class:`~datetime.datetime`): the Info dictionary's values, then
        the XMP packet's where Info has none (:mod:`glyphweave.pdf.metadata`). What cannot be
        read is None and said in :attr:`file_warnings`."""
        self._check_open()
        if self._metadata is None:
            from glyphweave.pdf.metadata import read_metadata  # XML parsing: imported when asked

            self._metadata = read_metadata(self._pdf, self._file_warning)
        return self._metadata

    @property
    def outline(self) -> list[OutlineEntry]:
        """The bookmarks in reading order: each with its title, its level (1 at the top) and
        the 0-based number of the page it goes to (None when it goes nowhere in this file).
        Empty when the document has none (:mod:`glyphweave.pdf.outline`)."""
        self._check_open()
        if self._outline is None:
            from glyphweave.pdf.outline import read_outline

            self._outline = read_outline(self._pdf, self._file_warning)
        return self._outline

    @property
    def page_labels(self) -> list[str] | None:
        """Each page's label as the document numbers its pages (``i``, ``ii``, ``1``,
        ``A-1``: its /PageLabels), in page order; None when the document gives none (its
        pages are then numbered 1, 2, 3 as in :attr:`Page.number` + 1)."""
        self._check_open()
        if not self._labels_read:
            self._labels = self._read_labels()
            self._labels_read = True
        return self._labels

    def _read_labels(self) -> list[str] | None:
        try:
            labelled = "/PageLabels" in self._pdf.Root
        except pikepdf.PdfError:
            labelled = False
        if not labelled:
            return None
        try:
            labels = [str(page.label) for page in self._pdf.pages]
        except (pikepdf.PdfError, RuntimeError, ValueError, TypeError) as exc:
            self._file_warning(f"page labels unreadable ({type(exc).__name__}); pages are numbered 1, 2, 3")
            return None
        if len(labels) != len(self._page_objects()):  # pages qpdf could not list: no labels to trust
            return None
        return labels

    def _page_objects(self) -> list[Any]:
        """The page dictionaries of the open PDF, in page order, listed once per opening:
        pikepdf's page list walks qpdf's list of every page for each ``len()`` and each index
        (12 µs apiece on a 350-page file), which a page iterator paid twice per page."""
        if self._page_objs is not None:
            return self._page_objs
        objs: list[Any] | None = None
        if not self._walk_page_tree:
            try:
                objs = [page.obj for page in self._pdf.pages]
            except (pikepdf.PdfError, RuntimeError):  # a tree qpdf cannot list after all
                self._walk_page_tree = True
        if objs is None:
            found: list[str] = []
            objs = walk_page_tree(self._pdf, found)
            self._file_warnings.update(dict.fromkeys(
                WarningRecord(kind="file", message=message, source="page tree") for message in found))
        self._page_objs = objs
        return objs

    @property
    def file_warnings(self) -> list[WarningRecord]:
        """Warnings about the file as a whole rather than one page: numbers clamped to keep an
        object qpdf could not read (``file: ...``), what the page tree's walk skipped, then
        what qpdf repaired as it read the file (``qpdf: ...``: an object it could not parse
        and read as null, a damaged cross-reference table), one line per kind of repair with
        where it was first made and how often. A page lost to such a repair is said here,
        never lost in silence."""
        self._collect_library_warnings()
        repairs = []
        for what, *places in self._repairs.values():
            first = next((place for place in places if place), "")
            more = f" and {len(places) - 1} more" if len(places) > 1 else ""
            where = f" ({first}{more})" if first else f" ({len(places)} times)" if more else ""
            repairs.append(WarningRecord(kind="file", message=f"qpdf: {what}{where}", source="qpdf"))
        return [*self._file_warnings, *repairs]

    def _collect_library_warnings(self) -> None:
        """Take the repairs qpdf reported since the last call (it reports them as it reads
        objects, and hands each over once, so this runs before an opening is dropped or
        closed too)."""
        if self.closed:
            return
        try:
            reported = self._pdf.get_warnings()
        except Exception:  # a warning list qpdf cannot give is no reason to fail
            return
        self._take_library_warnings(map(str, reported))

    def _take_library_warnings(self, reported: Iterable[str]) -> None:
        for warning in reported:
            text = _without_source(warning.splitlines()[0], self.name) if warning else ""
            if len(text) > 240:  # a 400-digit number quoted whole says nothing more
                text = text[:237] + "..."
            place = _REPAIR_PLACE.match(text)
            what = text[place.end():] if place else text
            if what:  # an iText file repeats one quirk on every stream: one line, counted
                kind = _REPAIR_NUMBER.sub("#", what)
                self._repairs.setdefault(kind, [what]).append(place[1] if place else "")

    def _structure(self) -> DocumentStructure | None:
        """The structure tree, walked on first need and once per document."""
        if not self._structure_read:
            self._structure_read = True
            self._structure_tree = read_structure(self._pdf, self.limits)
        return self._structure_tree

    @property
    def component_warnings(self) -> list[WarningRecord]:
        """Failures of components that extraction survived (a decoder that raised or answered
        nonsense), each reported once per (decoder, exception type), with the page it was
        first met on and how many times it happened. Also counted in the page statistics'
        warnings."""
        return [self.pipeline.chain.with_count(warning) for warning in self._component_warnings]

    def _collector_paused(self) -> contextlib.AbstractContextManager[None]:
        """With ``pause_gc``, the collector off for the block; nested blocks (a page's stages
        inside the iterators' pause of the whole page) leave it to the outermost."""
        return _CollectorPause(self) if self.pause_gc else contextlib.nullcontext()

    def resource_sources(self) -> dict[str, str]:
        """Which source (``"mirror"`` or ``"fallback"``) serves each data table read here."""
        return resource_sources(self.pipeline)

    def __enter__(self) -> Document:
        self._check_open()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Close the PDF. Closing again does nothing."""
        if self.closed:
            return
        self._close_file()
        self._fonts.measured.clear()

    def _close_file(self) -> None:
        """:meth:`close` without freeing the document's caches now (they go with the
        document): what a process that ends right after does, since freeing the strings
        measured, one by one, cost a short document up to a twentieth of its time (the
        console script; see ``cli.run``)."""
        if self.closed:
            return
        self._collect_library_warnings()
        self.closed = True
        self._closed_count = None if self._page_objs is None else len(self._page_objs)
        self._page_objs = None
        self._pdf.close()

    @property
    def pages(self) -> PageList:
        """The pages, each created on access. (A new light view per call: a list held by
        the document would make the two a reference cycle, kept until the GC runs.)"""
        self._check_open()
        return PageList(self)

    def __len__(self) -> int:
        """The number of pages; still known once closed, if it was counted while open
        (:func:`open_document` counts them)."""
        if self.closed and self._closed_count is not None:
            return self._closed_count
        return len(self.pages)

    def __iter__(self) -> Iterator[Page]:
        return iter(self.pages)

    def warnings(self) -> list[WarningRecord]:
        """The warnings about the file (:attr:`file_warnings`), then those of the pages
        extracted so far, in page order: damaged parts skipped, limits reached, failing
        plugins (a decoder's failure says how often it happened, as in
        :attr:`component_warnings`). Each is a :class:`~glyphweave.guard.report.WarningRecord`:
        its ``kind`` says what it is about, ``page`` where, and ``str()`` gives the line the
        command line prints (``page 3: font (12, 0): ...``)."""
        with_count = self.pipeline.chain.with_count
        return [*self.file_warnings, *(with_count(warning) for _number, stats in sorted(self._page_stats.items())
                                       for warning in stats.warnings)]

    def warning_count(self) -> int:
        """How many warnings the document has given so far, as ``--strict`` counts them: the
        file's, and the pages' (a component that failed on pages with no other warning
        counts once per failure)."""
        return max(self.stats.warnings, len(self.component_warnings)) + len(self.file_warnings)

    @property
    def content_left(self) -> int:
        """Decoded content the document's budget (``document_content_mb``) still allows, in bytes."""
        return self._budget.document_left

    def charge_content(self, nbytes: int) -> None:
        """Count ``nbytes`` of decoded content against the document's budget, as if its pages
        had been read here: content another process read for this document (a page split)."""
        self._budget.document_left -= nbytes

    def record_page(self, stats: PageStats) -> None:
        """Record the statistics of a page extracted elsewhere (another process's opening of
        the same file, with the same profile), as :meth:`iter_assembled` records its own: they
        count in :attr:`stats`, :meth:`warnings` and :meth:`assembly`, and its failing
        components in :attr:`component_warnings`."""
        self._page_stats[stats.page] = stats
        self._component_warnings.extend(warning for warning in stats.warnings if warning.kind == "component")

    def assembly(self) -> dict[int, dict[str, str]]:
        """How each page extracted so far was assembled (1-based page number → the page's
        ``assembly`` statistics: the assembler, which one served, why)."""
        return {number + 1: stats.assembly for number, stats in sorted(self._page_stats.items())}

    @property
    def stats(self) -> DocumentStats:
        """Totals over the pages extracted so far through :meth:`text`, :meth:`write_text`
        or :meth:`iter_text`, each page counted once however often it was extracted."""
        return _total(self._page_stats.values())

    def iter_text(self, pages: Iterable[int] | None = None, *, mode: str | None = None,
                  crop: Sequence[float] | None = None) -> Iterator[tuple[Page, str]]:
        """Yield (page, text) for the selected pages (0-based indices, in the order given);
        with ``crop``, each page's text within that box (:meth:`Page.crop`)."""
        for page, result in self.iter_assembled(pages, mode=mode, crop=crop):
            yield page, result.text

    def iter_assembled(self, pages: Iterable[int] | None = None, *, mode: str | None = None,
                       crop: Sequence[float] | None = None) -> Iterator[tuple[Page, Assembled]]:
        """Like :meth:`iter_text`, with the assembler's structured data beside the text."""
        return self._extracted(pages, lambda page: page.assembled(mode) if crop is None
                               else page.crop(crop).assembled(mode))

    def _extracted(self, pages: Iterable[int] | None, read: Callable[[Page], T]) -> Iterator[tuple[Page, T]]:
        """(page, what ``read`` takes from it) for the selected pages, each page counted in
        :attr:`stats` and released as the ``iter_`` methods release them."""
        for page in self._selected(pages):
            # One pause over the whole page, ended once its glyph table is dropped: the
            # collector then resumes with none of the page's objects left to scan.
            with self._collector_paused():
                result = read(page)
                self._page_stats[page.number] = page.stats
                if self.pause_gc:
                    page._release()
            yield page, result

    def iter_blocks(self, pages: Iterable[int] | None = None, *, mode: str | None = None,
                    crop: Sequence[float] | None = None) -> Iterator[tuple[Page, Assembled, list[TextBlock]]]:
        """Like :meth:`iter_assembled`, with each page's blocks (their lines and words:
        :meth:`Page.blocks`) from the same assembly."""
        read = self._extracted(pages, lambda page: page._read(mode) if crop is None else page.crop(crop)._read(mode))
        return ((page, result, blocks) for page, (result, blocks) in read)

    def markdown(self, pages: Iterable[int] | None = None, *, mode: str = "markdown",
                 crop: Sequence[float] | None = None) -> str:
        """The selected pages as one Markdown document (see :meth:`Page.markdown`), pages
        separated by a blank line."""
        return "\n".join(text for _page, text in self.iter_text(pages, mode=mode, crop=crop) if text)

    def search(self, query: str, pages: Iterable[int] | None = None, *, case: bool = False, regex: bool = False,
               mode: str | None = None, crop: Sequence[float] | None = None) -> Iterator[SearchHit]:
        """Yield the matches of ``query`` on the selected pages, page by page, as
        :meth:`Page.search` finds them (``crop``: within that box on each page). The query is
        checked before the first page is read.

        :raises UsageError: an empty query, or one that is not a valid regular expression."""
        from glyphweave.pagesearch import compile_query

        pattern = compile_query(query, case=case, regex=regex)
        return self._search(pattern, pages, mode, crop)

    def _search(self, pattern: re.Pattern[str], pages: Iterable[int] | None, mode: str | None,
                crop: Sequence[float] | None) -> Iterator[SearchHit]:
        for _page, hits in self._extracted(pages, lambda page: page._search(pattern, mode) if crop is None
                                           else page.crop(crop)._search(pattern, mode)):
            yield from hits

    def iter_glyphs(self, pages: Iterable[int] | None = None, *, raw: bool = False,
                    crop: Sequence[float] | None = None) -> Iterator[tuple[Page, list[Glyph]]]:
        """Yield (page, glyph records) for the selected pages: the visible glyphs, counted in
        :attr:`stats` like :meth:`iter_text`, or every painted one with ``raw=True`` (no filter
        runs then, so nothing is counted)."""
        for page in self._selected(pages):
            glyphs = page.glyphs(raw=raw) if crop is None else page.crop(crop).glyphs(raw=raw)
            if not raw:
                self._page_stats[page.number] = page.stats
            yield page, glyphs

    def _selected(self, pages: Iterable[int] | None) -> Iterator[Page]:
        indices = range(len(self.pages)) if pages is None else pages
        for i in indices:
            if self._since_open >= self.reopen_pages and self._reopen is not None and (
                    (time.monotonic() - self._opened_at) * self.reopen_share >= self._open_seconds):
                self._open_again()
            self._since_open += 1
            yield self.pages[i]

    def _open_again(self) -> None:
        """Replace the open PDF by a fresh opening of the same file (see :attr:`reopen_pages`).

        The document lets go of its opening before it opens the file again, so that the
        next opening reuses the memory of the last one rather than adding to it: the peak of
        a long document is then that of one opening (104 MB rather than 110 at 1,000 pages
        of the bench). The opening is dropped, not closed: pages a caller still holds keep
        it alive and readable, and it is freed with the last of them. A file that changed
        since is not reopened, then or later, and its opening stays. What the document let
        go of cannot be taken back (pikepdf's ``Pdf`` takes no weak reference), so a file
        unchanged that still fails to open again (a race with whoever writes it, no memory
        or file handles left) ends the document: closed, with a :class:`PDFOpenError` that
        says why. Called by :meth:`_selected` only when ``_reopen`` is set."""
        assert self._reopen is not None
        self._since_open = 0
        if not self._reopen.unchanged():
            self._reopen = None
            return
        count = len(self._pdf.pages)
        self._collect_library_warnings()  # of the opening being dropped
        del self._pdf
        self._fonts.pdf = None
        self._page_objs = None
        self._inherited = {}  # the dropped opening's objects
        self._form_defaults = None  # its /DR belongs to the opening just dropped
        started = time.monotonic()
        try:
            pdf = self._reopen.open()
            problem = "" if len(pdf.pages) == count else f"it now has {len(pdf.pages)} pages, not {count}"
        except Exception as exc:
            problem = _without_source(str(exc).splitlines()[0], self.name) if str(exc) else type(exc).__name__
        if problem:
            self._reopen = None
            self.closed, self._closed_count = True, count
            raise PDFOpenError(f"{self.name}: cannot open the PDF again to read its next pages ({problem})")
        self._opened_at = time.monotonic()
        self._open_seconds = self._opened_at - started
        pdf.get_warnings()  # what qpdf repaired opening the same file again was said the first time
        self._pdf = self._fonts.pdf = pdf

    def text(self, pages: Iterable[int] | None = None, *, mode: str | None = None,
             separator: str = "\f", crop: Sequence[float] | None = None) -> str:
        """The text of the selected pages, each followed by ``separator``."""
        return "".join(text + separator for _, text in self.iter_text(pages, mode=mode, crop=crop))

    def write_text(self, stream: IO[str], pages: Iterable[int] | None = None, *,
                   mode: str | None = None, separator: str = "\f", bom: bool = False,
                   crop: Sequence[float] | None = None) -> DocumentStats:
        """Write page texts to a text stream as they are extracted; returns the totals over
        the pages written."""
        self._check_open()
        if bom:
            stream.write("\ufeff")
        written: dict[int, PageStats] = {}
        for page, text in self.iter_text(pages, mode=mode, crop=crop):
            stream.write(text)
            stream.write(separator)
            written[page.number] = self._page_stats[page.number]
        return _total(written.values())


def _total(pages: Iterable[PageStats]) -> DocumentStats:
    total = DocumentStats()
    for stats in pages:
        total = total.add(stats)
    return total


def parse_page_ranges(spec: str, count: int, *, clamp: bool = False, labels: list[str] | None = None) -> list[int]:
    """``"1-3,7,10-"`` (1-based, inclusive) or page labels (``"iv,ix-xii"``, looked up in
    ``labels``: :attr:`Document.page_labels`) → 0-based indices of a ``count``-page
    document (:mod:`glyphweave.pageranges`: ``clamp`` as pdftotext's ``-f``/``-l``).

    :raises UsageError: the specification is malformed.
    :raises PageError: (without ``clamp``) it reaches past the last page, or names a label
        the document does not have.
    """
    from glyphweave.pageranges import parse_page_spec, select_pages

    return select_pages(parse_page_spec(spec), count, clamp=clamp, labels=labels)


def open_document(source: Source, *, password: str | None = None, profile: Any = "default",
                  plugin_manager: Any = None, pause_gc: bool = False,
                  limits: Limits | Mapping[str, Any] | None = None,
                  plugins: Iterable[str | types.ModuleType] = (), block: Iterable[str] = (),
                  annotations: bool | None = None) -> Document:
    """Open a PDF (path, bytes or binary stream) with a profile (name, TOML path or Profile).

    ``pause_gc=True`` switches Python's cyclic garbage collector off while each page is
    interpreted, filtered and assembled (and back on after), which saves the collections the
    page's many short-lived containers would trigger. The switch is process-wide, so it is
    only safe where no other thread depends on the collector: the command line opts in, a
    library caller decides for itself.

    ``limits`` replaces the profile's resource limits (a :class:`~glyphweave.guard.limits.Limits`),
    or some of them (a mapping: ``{"page_content_mb": 64}``): past one, a page ends early with a
    warning instead of exhausting memory or time.

    ``annotations=False`` leaves out the text annotations and form fields show on screen
    (their appearance streams, and field values laid out where a widget has none); None keeps
    the profile's ``annotations`` (true in the built-in profiles).

    ``plugins`` are modules to use as plugins without installing them, as ``glyphweave -p``
    loads them: module objects, module names or paths of ``.py`` files. ``block`` names
    installed plugins (entry-point names) not to load. ``plugin_manager`` gives a manager built
    by the caller instead (:func:`~glyphweave.components.manager.create_plugin_manager`).
    The same choices as one record: :func:`open_with` and :class:`~glyphweave.opening.OpenOptions`.

    :raises PluginError: a module of ``plugins`` cannot be loaded, or an installed plugin cannot.
    """
    options = OpenOptions(password=password, profile=profile, limits=limits, plugins=plugins, block=block,
                          pause_gc=pause_gc, annotations=annotations)
    return open_with(source, options, plugin_manager=plugin_manager)


def open_with(source: Source, options: OpenOptions, *, plugin_manager: Any = None) -> Document:
    """Open a PDF with ``options``: how the command line, batch, ``extract --jobs`` and the
    registry scan open every document. ``plugin_manager``: one the caller built already from
    the same options (the command line's, whose problems it has reported), else a new one."""
    with warnings.catch_warnings():
        if options.skip_broken:  # the command reported them once (opening.plugin_problems)
            warnings.simplefilter("ignore", PluginWarning)
        pm = plugin_manager if plugin_manager is not None else make_plugin_manager(options)
        pipeline = build_pipeline(options.profile, pm)
    if isinstance(source, (bytearray, memoryview)):
        source = bytes(source)
    password = options.password
    reopen = _reopener(source, password)
    started = time.monotonic()
    pdf, name, clamped, repairs = _open_pdf(source, password)
    document = Document(pdf, pipeline, name, pause_gc=options.pause_gc, limits=options.limits, reopen=reopen,
                        annotations=options.annotations)
    document._file_warnings.update(dict.fromkeys(
        WarningRecord(kind="file", message=f"file: {note}", source="file") for note in clamped))
    document._take_library_warnings(repairs)
    with contextlib.suppress(Exception):  # a broken page tree fails where pages are asked for, as before
        len(document)  # qpdf reads the page tree once, here, to be timed with the opening
    document._open_seconds = time.monotonic() - started
    return document


def build_pipeline(profile: Any = "default", plugin_manager: Any = None) -> Pipeline:
    """The runnable pipeline of a profile (name, TOML path or :class:`Profile`), with the
    components of the installed plugins (or of ``plugin_manager``)."""
    pm = plugin_manager if plugin_manager is not None else create_plugin_manager()
    catalog = Catalog.from_plugin_manager(pm)
    prof = profile.checked(catalog) if isinstance(profile, Profile) else load_profile(profile, catalog)
    return Pipeline(prof.instantiate(catalog), catalog, paint_order=_paint_order_text)


def _paint_order_text(page: PageContext, indices: Sequence[int]) -> str:
    """The text of a page out of time (the layout engine's, loaded when a page needs it)."""
    from glyphweave.layout.page import paint_order_text

    return paint_order_text(page, indices)


def resource_sources(pipeline: Pipeline) -> dict[str, str]:
    """Which source serves each data table an extraction with ``pipeline`` reads: the PDF
    engine's own (Core-14 metrics, base encodings) and those of the pipeline's components."""
    sources = {"std14-metrics": std14_source(), "base-encodings": encodings_source()}
    sources.update(pipeline.resource_sources())
    return sources


class _CollectorPause:
    """The cyclic collector off from the outermost ``with`` of a document to its end."""

    __slots__ = ("document",)

    def __init__(self, document: Document) -> None:
        self.document = document

    def __enter__(self) -> None:
        doc = self.document
        if doc._pause_depth == 0:
            doc._gc_was_enabled = gc.isenabled()
            gc.disable()
        doc._pause_depth += 1

    def __exit__(self, *exc: object) -> None:
        doc = self.document
        doc._pause_depth -= 1
        if doc._pause_depth == 0 and doc._gc_was_enabled:
            gc.enable()
