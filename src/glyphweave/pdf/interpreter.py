"""The content interpreter (ISO 32000-1 §8, §9): content streams → a page's glyph runs.

It tracks exactly the state that decides where text lands: the CTM, the text state
(font, size, Tc, Tw, Tz, TL, Tr, Ts), the text and line matrices, marked content, and
form XObjects (painted at ``Do`` with /Matrix × CTM, resources inherited when absent,
cycles detected). Everything else (paths, colours, images) costs one dictionary miss.

Per shown string it does per-string work only: the operand is measured and decoded at once
(:mod:`glyphweave.pdf.measure`, in C in the compiled build), an equal operand in the same
font and text state is measured once per document, and the string is recorded as one run in
a :class:`~glyphweave.core.glyphtable.GlyphTable`.
"""

from __future__ import annotations

import contextlib
import logging
import math
import time
from collections.abc import Callable, Iterator, Sequence
from functools import partial
from itertools import accumulate
from typing import Any, Final, NamedTuple

import attrs
import pikepdf

from glyphweave.core.decoding import is_weak
from glyphweave.core.glyph import AnnotationRef, FontRef
from glyphweave.core.glyphtable import GlyphTable
from glyphweave.core.runs import Run
from glyphweave.guard.clock import PageClock
from glyphweave.guard.limits import (
    FORM_BYTES,
    GLYPH_BYTES,
    LIMIT,
    MB,
    RUN_BYTES,
    STRING_BYTES,
    Budget,
    LimitReached,
    Limits,
)
from glyphweave.guard.report import WarningRecord
from glyphweave.pdf.annotations import Appearance, FieldText, FormDefaults, page_annotations
from glyphweave.pdf.clusters import covered_by_clusters
from glyphweave.pdf.colours import BLACK, COMPONENTS, RGB, components, to_rgb
from glyphweave.pdf.fonts import FontLoader, object_key
from glyphweave.pdf.fontstate import FontState
from glyphweave.pdf.streams import ReadStopped, read_bounded
from glyphweave.pdf.tokenizer import (
    FUSIONS,
    GLYPH_BLOCK,
    GLYPH_BLOCK_TR,
    OPERAND_BYTES_MAX,
    OPERAND_ITEMS_MAX,
    UNENDED_IMAGE,
    Fused,
    RawTJ,
)

try:  # the compiled build's tokenizer: the same items, TJ readings, numbers and matrices, scanned in C
    from glyphweave.pdf._ctokenizer import number, operations, read_matrix, read_tj
except ImportError:  # a pure install: the reference
    from glyphweave.pdf.lexer import read_matrix, read_tj
    from glyphweave.pdf.tokenizer import operations

    number = float  # type: ignore[assignment]  # numeric operands are bytes: float() reads them
try:  # the compiled build's measuring of shown strings: the same numbers, worked out in C doubles
    from glyphweave.pdf._cmeasure import KnownCodes, measure_composite, measure_simple
except ImportError:  # a pure install: the reference
    from glyphweave.pdf.measure import KnownCodes, measure_composite, measure_simple  # type: ignore[assignment]

log = logging.getLogger(__name__)

Matrix = tuple[float, float, float, float, float, float]
IDENTITY: Matrix = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
_NO_MARK: tuple[None, None, None, int, None] = (None, None, None, 0, None)
# The constants below are Final: compiled, each is a constant of the module's C code, not a
# look-up in its dictionary at each use. (Not the tuples above: made Final, mypyc's static
# for IDENTITY was never set, and its first use raised NameError.)
_COLOURS_KEPT: Final = 1024
"""Distinct colours a page remembers converted (a drawing of a million colours is converted
string by string past it)."""
_MEASURED_LIMIT: Final = 8192
"""Operands a document remembers measured (FontLoader.measured) before it starts afresh."""
_MEASURED_LONGEST: Final = 48
"""Longest operand (bytes of its source) worth remembering: long ones (whole lines) seldom
repeat, and would cost memory for nothing."""
ACTUAL_TEXT: Final = "actualtext"
"""``decoded_by`` of glyphs whose text comes from an /ActualText span."""
FIELD_VALUE: Final = "field-value"
"""``decoded_by`` of glyphs laid out from a form field's value (no appearance painted them)."""


OPERAND_ERRORS: Final = (ValueError, TypeError, IndexError, KeyError, AttributeError, ArithmeticError)
"""What bad operands make an operator's handler raise (a missing operand, a name where a
number belongs, a number too large to be an integer): the operator is skipped with a
warning, as viewers skip it, and the page goes on."""

_CHECK_EVERY: Final = 2000
"""Glyphs between two looks at the clock, when a page has a time limit."""
_MOST_PER_GLYPH: Final = RUN_BYTES + STRING_BYTES + GLYPH_BYTES
"""The most a glyph can add to a page's records (one glyph shown alone, measured afresh):
the record limit is looked at again when the glyphs since the last look may have reached it."""


class _OutOfTime(Exception):  # noqa: N818 (not an error: the page ends)
    """The page's time ran out: the page ends, and the clock says so (one warning a page).
    (A limit the page hits otherwise raises :class:`LimitReached`, defined where it is not
    compiled: a compiled class may not derive from an interpreted one.)"""


def multiply(m1: Matrix, m2: Matrix) -> Matrix:
    """m1 × m2 in PDF's row-vector convention (apply m1 first)."""
    a1, b1, c1, d1, e1, f1 = m1
    a2, b2, c2, d2, e2, f2 = m2
    return (
        a1 * a2 + b1 * c2,
        a1 * b2 + b1 * d2,
        c1 * a2 + d1 * c2,
        c1 * b2 + d1 * d2,
        e1 * a2 + f1 * c2 + e2,
        e1 * b2 + f1 * d2 + f2,
    )


def _is_identity(m: Matrix) -> bool:
    """Whether ``m`` is the identity matrix, compared by value: compiled, a matrix is six
    doubles, and ``m is IDENTITY`` boxed both into new tuples to compare them (never the same)."""
    a, b, c, d, e, f = m
    return a == 1.0 and b == 0.0 and c == 0.0 and d == 1.0 and e == 0.0 and f == 0.0


def _same_signs(m1: Matrix, m2: Matrix) -> bool:
    """Whether two equal matrices are equal to the bit: -0.0 equals 0.0, and a run's
    matrix must keep the sign its content gave. Only a zero can differ, so the signs of
    the zeros of ``m1`` are compared (``m1 == m2`` is the caller's to check first)."""
    a1, b1, c1, d1, e1, f1 = m1
    a2, b2, c2, d2, e2, f2 = m2
    return (_same_sign(a1, a2) and _same_sign(b1, b2) and _same_sign(c1, c2) and _same_sign(d1, d2)
            and _same_sign(e1, e2) and _same_sign(f1, f2))


def _same_sign(x: float, y: float) -> bool:
    return x != 0.0 or math.copysign(1.0, x) == math.copysign(1.0, y)


def _text_string(value: Any) -> str | None:
    """A PDF text string (UTF-16BE with BOM, UTF-8 with BOM, or PDFDocEncoding)."""
    if isinstance(value, pikepdf.String):
        return str(value)
    if isinstance(value, (bytes, bytearray)):
        raw = bytes(value)
        if raw.startswith(b"\xfe\xff"):
            return raw[2:].decode("utf-16-be", errors="replace")
        if raw.startswith(b"\xef\xbb\xbf"):
            return raw[3:].decode("utf-8", errors="replace")
        try:
            return raw.decode("pdfdoc")
        except (LookupError, UnicodeDecodeError):
            return raw.decode("latin-1")
    return None


Handler = Callable[[list[Any], "_Resources"], None]
"""What the interpreter runs for an operator (or a fused item): operands, resources."""


class Measured(NamedTuple):
    """One operand measured and decoded in one font and text state (see
    :meth:`PageInterpreter._measure`). The sequences are tuples: every run that shows an
    equal operand shares them."""

    codes: tuple[Any, ...]
    cids: tuple[int, ...] | None
    advances: tuple[float, ...]
    """Each glyph's own advance (×Tz, without Tc, Tw or TJ numbers), in text space."""
    starts: tuple[float, ...]
    pens: tuple[float, ...]
    extent: tuple[float, float, float] | None
    end: float
    """Where the pen stands after the operand: how far it moves the text matrix."""
    decoded: Sequence[tuple[str, str | None]]
    lo: float
    hi: float
    """The font's descent and ascent at the size shown (text space): every run that shows
    the operand shares the two numbers instead of computing a pair of its own."""


_make_run: Final = partial(tuple.__new__, Run)
"""Builds a :class:`Run` from a tuple in ``Run._fields`` order, a sixth of the cost of
keywords per shown string (0.12 µs against 0.77 µs for 19 fields; ``Run._make``, which
also checks the length, 0.24 µs). The one tuple built for it is made of local names spelt
like the fields, and a test checks their number and order."""
_make_measured: Final = partial(tuple.__new__, Measured)
"""Likewise for :class:`Measured` (one per operand measured), without ``_make``'s length
check: ``tuple.__new__`` called from C costs 0.12 µs, the class's ``__new__`` 0.2 µs."""


class _Resources:
    """Lazy, cached lookups into one /Resources dictionary."""

    __slots__ = ("obj", "fonts", "xobjects", "properties", "spaces")

    def __init__(self, obj: Any) -> None:
        self.obj = obj if isinstance(obj, pikepdf.Dictionary) else None
        self.fonts: dict[str, tuple[Any, int]] = {}  # name -> (font state, table index)
        self.xobjects: dict[str, Any] = {}
        self.properties: dict[str, Any] = {}
        self.spaces: dict[str, int] = {}  # colour space name -> components (_space)

    def lookup(self, category: str, name: str) -> Any:
        if self.obj is None:
            return None
        group = self.obj.get(category)
        if not isinstance(group, pikepdf.Dictionary):
            return None
        return group.get("/" + name)


class _Saved:
    """The graphics state ``q`` saves (and a form painted saves around itself), as
    :meth:`PageInterpreter._restore` sets it back. A class rather than a tuple: compiled,
    its numbers and matrix stay C doubles, where a tuple boxed a float for each of them and
    a tuple for the matrix at every ``q`` (an OCR layer saves the state around every glyph)."""

    __slots__ = ("ctm", "fill", "fill_n", "font", "font_idx", "fs", "stroke", "stroke_n", "tc", "th", "tl", "tr",
                 "ts", "tw")

    def __init__(self, ctm: Matrix, font: FontState | None, font_idx: int, fs: float, tc: float, tw: float,
                 th: float, tl: float, tr: int, ts: float, fill: RGB | list[Any] | None,
                 stroke: RGB | list[Any] | None, fill_n: int, stroke_n: int) -> None:
        self.ctm = ctm
        self.font = font
        self.font_idx = font_idx
        self.fs = fs
        self.tc = tc
        self.tw = tw
        self.th = th
        self.tl = tl
        self.tr = tr
        self.ts = ts
        self.fill = fill
        self.stroke = stroke
        self.fill_n = fill_n
        self.stroke_n = stroke_n


class PageInterpreter:
    """Interprets one page (and the forms it paints) into a :class:`GlyphTable`."""

    def __init__(self, fonts: FontLoader, limits: Limits | None = None, budget: Budget | None = None,
                 clock: PageClock | None = None) -> None:
        self.font_loader = fonts
        self.limits = limits if limits is not None else Limits()
        self.clock = clock if clock is not None else PageClock(self.limits.page_seconds)
        """The page's time (``page_seconds``), shared with its filters and assembler: what
        running out cuts here is recorded in it, not in :attr:`warnings`."""
        self.budget = budget if budget is not None else Budget(self.limits)
        """Decoded bytes left, for the page and the document (shared by a document's pages)."""
        self.table = GlyphTable()
        self._runs: list[Run] = []
        """The page's runs so far, handed to :attr:`table` in one call when the page ends."""
        self._first_run = 0
        """Runs the table held before this page (their indices come first)."""
        self.warnings: list[WarningRecord] = []
        self._deadline: float | None = None
        self._max_glyphs = self.limits.glyphs_per_page
        self._max_records = self.limits.page_records_bytes
        self._glyphs = 0
        self._fresh = 0
        """Operands measured afresh on this page (each costs STRING_BYTES)."""
        self._forms = 0
        """Form XObjects painted on this page."""
        self._next_check = 0
        self._budget_said: tuple[int, int] | None = None
        """Where the page's warning about the content budget is, and how many more streams it counts."""
        self._overflow = [0, 0]
        """``q`` and marked-content openings ignored past the nesting limit (their closings
        are ignored too, so the state stays balanced)."""
        self._resource_cache: dict[Any, _Resources] = {}
        self._font_index: dict[tuple[str, Any], int] = {}
        self._active_forms: list[Any] = []
        self._handler_tables: tuple[dict[bytes, Handler], dict[Fused, Handler]] | None = None
        self._widths: tuple[FontState, float, Any] | None = None
        """The font, scale and scaled advances of the last operand measured (:meth:`_scaled_widths`)."""
        self.annotation: AnnotationRef | None = None
        """The annotation being painted (every run recorded meanwhile carries it), None for
        the page's own content."""
        self._rgb: dict[tuple[Any, ...], RGB | None] = {}
        """Colours converted on this page, by their ``[n, *operands]``: a page sets the same
        few again and again (``0 g`` before every string, in many a producer's output)."""
        self._reset_state()

    def _reset_state(self) -> None:
        self.ctm: Matrix = IDENTITY
        self.font: FontState | None = None
        self.font_idx = -1
        self.fs = 0.0
        self.tc = 0.0
        self.tw = 0.0
        self.th = 1.0
        self.tl = 0.0
        self.tr = 0
        self.ts = 0.0
        self.tm: Matrix = IDENTITY
        self.tlm: Matrix = IDENTITY
        self.fill: RGB | list[Any] | None = BLACK
        """The fill colour as RGB, or, until a string is shown in it, the operator's
        operands behind their space's component count (``[n, *operands]``): drawings set
        colours far more often than text is shown in them, so they are converted on use."""
        self.stroke: RGB | list[Any] | None = BLACK
        self.fill_n = 1
        """Components of the fill colour space (1, 3 or 4; 0: one with no plain conversion)."""
        self.stroke_n = 1
        self.gstack: list[_Saved] = []
        # (tag, MCID, ActualText, ActualText span id): innermost last; MCID and
        # ActualText are inherited from enclosing sequences.
        # (tag, mcid, ActualText, span id, the form XObject whose stream the MCID belongs to:
        # None for the page's own content, which is where almost every MCID lives)
        self.mc_stack: list[tuple[str | None, int | None, str | None, int, Any]] = []
        self._spans_shown: set[int] = set()
        self._span_ids = 0
        self.token = 0
        self.in_form = False
        self.gs_floor = 0
        """q/Q and BMC/EMC depths a form's content may not unwind past."""
        self.mc_floor = 0

    # -- entry points ---------------------------------------------------------------------
    def run_page(self, page_obj: Any, resources: Any, annotations: FormDefaults | None = None) -> GlyphTable:
        """Interpret a page into :attr:`table`. A limit reached ends the page early with a
        warning (see :class:`~glyphweave.guard.limits.Limits`), keeping what was found.
        With ``annotations`` (the document's form defaults), what the page's annotations show
        is painted after its content, as a viewer paints it."""
        self._deadline = self.clock.deadline()
        self._glyphs = len(self.table)
        self._fresh = self._forms = 0
        self._schedule(self._glyphs)
        self.budget.start_page(self.limits)
        self._budget_said = None
        data = self._page_content(page_obj)
        self._handler_tables = self._handlers()
        self._first_run = len(self.table.raw_runs())
        first_glyph = self._glyphs
        try:
            page_res = self._resources(resources)
            self._run(data, page_res)
            if annotations is not None and "/Annots" in page_obj:
                self._paint_annotations(page_obj, annotations, page_res)
        except _OutOfTime:
            self.clock.cut(f"content cut short after {self._glyphs - first_glyph:,} glyphs")
        except LimitReached as reached:  # the glyph or the record limit: the page ends here
            self.warnings.append(reached.warning())
        finally:
            # The handlers are bound to this interpreter: kept past the page, they would make
            # it (and the glyph table it holds) a reference cycle, freed only by the GC.
            self._handler_tables = None
            self.table.extend(self._runs)
            self._runs = []
        return self.table

    def _page_content(self, page_obj: Any) -> bytes:
        contents = page_obj.get("/Contents")
        streams = contents if isinstance(contents, pikepdf.Array) else [contents]
        parts = []
        for stream in streams:
            if not isinstance(stream, pikepdf.Stream):
                continue
            data = self._read_stream(stream, "page content")
            if data is None:
                continue
            parts.append(data)
            if self.budget.left <= 0:
                break
        # Streams of one page are one content stream split at token boundaries.
        return b"\n".join(parts)

    def _read_stream(self, stream: pikepdf.Stream, what: str) -> bytes | None:
        """A content stream decoded within the page's and the document's budget (None when
        unreadable); a cut one keeps what fits, with a warning."""
        left = self.budget.left
        if left <= 0:
            self._budget_reached(f"{what} skipped")
            return None
        try:
            data, cut, damage = read_bounded(stream, left, self._out_of_time if self._deadline is not None else None,
                                             limit=self._budget_name()[1])
        except ReadStopped as stopped:
            data, cut, damage = stopped.data, False, None
            self.clock.cut(f"{what} decoded only to {len(data) / MB:.1f} MB")
        except LimitReached as exc:
            self._warn(f"{what} unreadable: {exc}", exc.limit)
            return None
        except Exception as exc:
            self._warn(f"{what} unreadable: {exc}")
            return None
        if damage is not None:
            self._warn(f"{what} damaged ({damage}): read up to the damage")
        self.budget.spend(len(data))
        if cut:
            self._budget_reached(f"{what} cut after {len(data) // MB} MB")
        return data

    def _budget_reached(self, what: str) -> None:
        """Say once per page that the content budget was reached, counting the streams
        skipped or cut after the first (a form painted fifty times past the budget is one
        warning, not fifty)."""
        said = self._budget_said
        if said is None:
            self._budget_said = (len(self.warnings), 0)
            name, limit = self._budget_name()
            self._warn(f"{LIMIT}{what}: {name} reached", limit)
            return
        index, more = self._budget_said = (said[0], said[1] + 1)
        if index < len(self.warnings):
            said_first = self.warnings[index]
            first = said_first.message.split(" (and ", 1)[0]
            self.warnings[index] = attrs.evolve(
                said_first, message=f"{first} (and {more:,} more stream{'s' if more > 1 else ''} skipped or cut)")

    def _out_of_time(self) -> bool:
        return self._deadline is not None and time.monotonic() > self._deadline

    def _timed(self, ops: Iterator[Any]) -> Iterator[Any]:
        """``ops``, ending the page once its time is up (the clock is read every 4096
        operations: a page of path operators paints no glyph to count by)."""
        deadline = self._deadline
        assert deadline is not None
        for n, item in enumerate(ops, 1):
            if not n & 4095 and time.monotonic() > deadline:
                raise _OutOfTime
            yield item

    def _budget_name(self) -> tuple[str, str]:
        """The content limit reached, as a person reads it and as :class:`Limits` names it."""
        if self.budget.document_left <= self.budget.page_left:
            return f"the document content limit of {self.limits.document_content_mb:g} MB", "document_content_mb"
        return f"the page content limit of {self.limits.page_content_mb:g} MB", "page_content_mb"

    def _resources(self, obj: Any) -> _Resources:
        """``obj``'s resources, kept per indirect object; a direct dictionary (Word writes
        each page's so) is read afresh, without first serializing it for a key as
        :func:`object_key` would."""
        key = obj.objgen if isinstance(obj, pikepdf.Object) else (0, 0)
        if key == (0, 0):
            return _Resources(obj)
        cached = self._resource_cache.get(key)
        if cached is None:
            cached = self._resource_cache[key] = _Resources(obj)
        return cached

    # -- the loop -----------------------------------------------------------------------
    def _run(self, data: bytes, res: _Resources) -> None:
        tables = self._handler_tables  # built once per page, not per form painted
        operators, fused = tables if tables is not None else self._handlers()
        counting = not self.in_form
        dropped: list[str] = []
        ops: Iterator[Any] = operations(data, fuse=True, dropped=dropped)
        if self._deadline is not None:
            ops = self._timed(ops)
        for op, args, index in ops:
            if counting:
                self.token = index
            # Real operators, then the tokenizer's fused items (records, never operators).
            handler = operators.get(op) or fused.get(op)  # type: ignore[arg-type]
            if handler is not None:
                try:
                    handler(args, res)
                except OPERAND_ERRORS as exc:
                    # Bad operands for one operator: skip it, as viewers do.
                    self._warn(f"operator {op.decode('latin-1') if isinstance(op, bytes) else op}: {exc}")
        if UNENDED_IMAGE in dropped:
            self._warn(UNENDED_IMAGE)
            dropped = [item for item in dropped if item != UNENDED_IMAGE]
        if dropped:
            more = f" and {len(dropped) - 1:,} more" if len(dropped) > 1 else ""
            self._warn(f"{LIMIT}operand too large to keep left out: {dropped[0]}{more} (the operand limits are "
                       f"{OPERAND_ITEMS_MAX:,} items and {OPERAND_BYTES_MAX // MB} MB)", "operands")

    def _warn(self, message: str, limit: str | None = None) -> None:
        """Record a warning about the page's content, or, with ``limit``, about the limit
        (a :class:`Limits` field, or ``operands``: the tokenizer's fixed bounds) that cut it."""
        if len(self.warnings) < 100:
            kind = "content" if limit is None else "limit"
            self.warnings.append(WarningRecord(kind=kind, message=message, limit=limit))

    def _handlers(self) -> tuple[dict[bytes, Handler], dict[Fused, Handler]]:
        """The handlers of the operators, and of the tokenizer's fused items."""
        operators: dict[bytes, Handler] = {
            b"q": self._op_q, b"Q": self._op_Q, b"cm": self._op_cm,
            b"BT": self._op_BT, b"ET": self._op_ET,
            b"Tf": self._op_Tf, b"Tc": self._op_Tc, b"Tw": self._op_Tw, b"Tz": self._op_Tz,
            b"TL": self._op_TL, b"Ts": self._op_Ts, b"Tr": self._op_Tr,
            b"Td": self._op_Td, b"TD": self._op_TD, b"Tm": self._op_Tm, b"T*": self._op_Tstar,
            b"Tj": self._op_Tj, b"TJ": self._op_TJ, b"'": self._op_quote, b'"': self._op_dquote,
            b"Do": self._op_Do,
            b"g": self._colour(False, 1), b"rg": self._colour(False, 3), b"k": self._colour(False, 4),
            b"G": self._colour(True, 1), b"RG": self._colour(True, 3), b"K": self._colour(True, 4),
            b"sc": self._colour(False, None), b"scn": self._colour(False, None),
            b"SC": self._colour(True, None), b"SCN": self._colour(True, None),
            b"cs": self._op_cs, b"CS": self._op_CS,
            b"BDC": self._op_BDC, b"BMC": self._op_BMC, b"EMC": self._op_EMC,
        }
        # The three items pdfTeX and dvipdfmx write for nearly every string have handlers
        # of their own (no operand lists sliced); the rest, an operation and then a shown
        # string, run the two parts' handlers through _then_show.
        fused: dict[Fused, Handler] = {
            FUSIONS[b"Td", b"TJ"]: self._op_Td_TJ,
            FUSIONS[b"Tf", b"Td"]: self._op_Tf_Td,
            FUSIONS[b"Tf", b"Td", b"TJ"]: self._op_Tf_Td_TJ,
            GLYPH_BLOCK: self._op_glyph_block,
            GLYPH_BLOCK_TR: self._op_glyph_block_tr,
        }
        for record in FUSIONS.values():
            if record not in fused:
                *before, show = record.operators
                first = operators[before[0]] if len(before) == 1 else fused[FUSIONS[tuple(before)]]
                fused[record] = self._then_show(first, operators[show])
        return operators, fused

    def _then_show(self, first: Handler, show: Handler) -> Handler:
        """A handler for an operation and the string shown right after it, read as one
        item (the string is the last operand). A failure of the first is reported and
        does not stop the show."""

        def handler(args: list[Any], res: _Resources) -> None:
            try:
                first(args[:-1], res)
            except OPERAND_ERRORS as exc:
                self._warn(f"operator before a shown string: {exc}")
            show(args[-1:], res)

        return handler

    # -- graphics state -------------------------------------------------------------------
    def _snapshot(self) -> _Saved:
        return _Saved(self.ctm, self.font, self.font_idx, self.fs, self.tc, self.tw, self.th,
                      self.tl, self.tr, self.ts, self.fill, self.stroke, self.fill_n, self.stroke_n)

    def _restore(self, saved: _Saved) -> None:
        self.ctm, self.font, self.font_idx = saved.ctm, saved.font, saved.font_idx
        self.fs, self.tc, self.tw, self.th, self.tl, self.tr, self.ts = (
            saved.fs, saved.tc, saved.tw, saved.th, saved.tl, saved.tr, saved.ts)
        self.fill, self.stroke, self.fill_n, self.stroke_n = saved.fill, saved.stroke, saved.fill_n, saved.stroke_n

    def _check_limits(self, glyphs: int) -> None:
        """Past the glyph limit, the record limit or the time limit, end the page; else
        schedule the next check."""
        if glyphs > self._max_glyphs:
            raise LimitReached(f"{LIMIT}page cut after {glyphs:,} glyphs: the limit is "
                                   f"{self._max_glyphs:,} per page", "glyphs_per_page")
        self._check_records(glyphs)
        if self._deadline is not None and time.monotonic() > self._deadline:
            raise _OutOfTime
        self._schedule(glyphs)

    def _schedule(self, glyphs: int) -> None:
        """The glyph count at which the limits are looked at next: when the records may
        have reached their limit, or after a few thousand glyphs when the page is timed."""
        left = self._max_records - self._records(glyphs)
        at = min(self._max_glyphs, glyphs + left // _MOST_PER_GLYPH)
        self._next_check = at if self._deadline is None else min(at, glyphs + _CHECK_EVERY)

    def _records(self, glyphs: int) -> int:
        """What the page's records cost so far, in bytes (see Limits.page_records_mb)."""
        return (len(self._runs) * RUN_BYTES + self._fresh * STRING_BYTES + glyphs * GLYPH_BYTES
                + self._forms * FORM_BYTES)

    def _check_records(self, glyphs: int) -> None:
        if self._records(glyphs) > self._max_records:
            raise LimitReached(
                f"{LIMIT}page cut after {len(self._runs):,} strings, {glyphs:,} glyphs and {self._forms:,} form "
                f"paintings: past the record limit (page_records_mb) of {self.limits.page_records_mb:g} MB per page",
                "page_records_mb")

    def _op_q(self, args: list[Any], res: _Resources) -> None:
        if len(self.gstack) >= self.limits.nesting:
            self._too_deep(0, "q")
            return
        self.gstack.append(self._snapshot())

    def _op_Q(self, args: list[Any], res: _Resources) -> None:
        if self._overflow[0]:
            self._overflow[0] -= 1
            return
        # A form (or the page) may only restore what it saved itself.
        if len(self.gstack) > self.gs_floor:
            self._restore(self.gstack.pop())

    def _too_deep(self, which: int, operator: str) -> None:
        if not self._overflow[which]:
            self._warn(f"{LIMIT}{operator} nested deeper than {self.limits.nesting}; deeper levels ignored", "nesting")
        self._overflow[which] += 1

    # -- colour (what the glyph table records of it: pdf/colours.py) --------------------------
    def _colour(self, stroke: bool, n: int | None) -> Handler:
        """The handler of a colour operator: ``g``, ``rg``, ``k`` (and their stroke forms)
        set a device colour of ``n`` components, ``sc``/``scn`` (``n`` None) one in the
        current space. The operands are kept as they are, behind their component count,
        and converted only when text is shown in them (see :attr:`fill`)."""

        def handler(args: list[Any], res: _Resources) -> None:
            if stroke:
                if n is not None:
                    self.stroke_n = n
                self.stroke = [self.stroke_n, *args]
            else:
                if n is not None:
                    self.fill_n = n
                self.fill = [self.fill_n, *args]

        return handler

    def _converted(self, colour: list[Any]) -> RGB | None:
        """The RGB of a colour kept as ``[n, *operands]`` (see :attr:`fill`)."""
        key = tuple(colour)
        try:
            return self._rgb[key]
        except KeyError:
            pass
        except TypeError:  # an operand that cannot be a key (never a number or a name)
            return to_rgb(colour[1:], colour[0])
        rgb = to_rgb(colour[1:], colour[0])
        if len(self._rgb) < _COLOURS_KEPT:
            self._rgb[key] = rgb
        return rgb

    def _op_cs(self, args: list[Any], res: _Resources) -> None:
        # A new space starts at its initial colour: black in the spaces converted here.
        self.fill_n = self._space(args, res)
        self.fill = BLACK if self.fill_n else None

    def _op_CS(self, args: list[Any], res: _Resources) -> None:
        self.stroke_n = self._space(args, res)
        self.stroke = BLACK if self.stroke_n else None

    def _space(self, args: list[Any], res: _Resources) -> int:
        """Components of the colour space ``cs``/``CS`` names (a device space, or one in the
        resources' /ColorSpace), 0 when it has no plain conversion."""
        name = args[0] if args else None
        if not isinstance(name, str):
            return 0
        n = res.spaces.get(name)
        if n is None:
            key = name.lstrip("/")
            n = COMPONENTS.get("/" + key)
            if n is None:
                n = components(res.lookup("/ColorSpace", key))
            if len(res.spaces) < _COLOURS_KEPT:  # a stream naming ever new spaces keeps no more
                res.spaces[name] = n
        return n

    def _op_cm(self, args: list[Any], res: _Resources) -> None:
        m = read_matrix(args)
        if m is not None:
            self.ctm = multiply(m, self.ctm)

    # -- text state -----------------------------------------------------------------------
    def _op_BT(self, args: list[Any], res: _Resources) -> None:
        self.tm = self.tlm = IDENTITY

    def _op_ET(self, args: list[Any], res: _Resources) -> None:
        pass

    def _op_Tf(self, args: list[Any], res: _Resources) -> None:
        if len(args) < 2 or not isinstance(args[-2], str):
            raise ValueError("Tf needs a font name and a size")
        self._set_font(args[-2], args[-1], res)

    def _set_font(self, name: str, size: Any, res: _Resources) -> None:
        self.fs = number(size)
        # Pages switch fonts constantly: each resource name is resolved, loaded and given
        # its table index once per resource dictionary and page.
        loaded = res.fonts.get(name)
        if loaded is None:
            loaded = res.fonts[name] = self._load_font(name, res)
        self.font, self.font_idx = loaded

    def _load_font(self, name: str, res: _Resources) -> tuple[FontState | None, int]:
        font_obj = res.lookup("/Font", name)
        if font_obj is None:
            self._warn(f"font /{name} not in resources")
            return None, -1
        state = self.font_loader.load(font_obj)
        key = (name, state.info.key)
        idx = self._font_index.get(key)
        if idx is None:
            info = state.info
            idx = self.table.font_index(FontRef(
                resource="/" + name, base_font=info.base_font,
                subset_prefix=info.subset_prefix, subtype=info.subtype))
            self.table.font_infos.setdefault(idx, info)
            self._font_index[key] = idx
        return state, idx

    def _op_Tc(self, args: list[Any], res: _Resources) -> None:
        self.tc = number(args[-1])

    def _op_Tw(self, args: list[Any], res: _Resources) -> None:
        self.tw = number(args[-1])

    def _op_Tz(self, args: list[Any], res: _Resources) -> None:
        self.th = number(args[-1]) / 100.0

    def _op_TL(self, args: list[Any], res: _Resources) -> None:
        self.tl = number(args[-1])

    def _op_Ts(self, args: list[Any], res: _Resources) -> None:
        self.ts = number(args[-1])

    def _op_Tr(self, args: list[Any], res: _Resources) -> None:
        self.tr = int(number(args[-1]))

    def _op_Td(self, args: list[Any], res: _Resources) -> None:
        tx, ty = number(args[-2]), number(args[-1])
        a, b, c, d, e, f = self.tlm
        self.tlm = self.tm = (a, b, c, d, tx * a + ty * c + e, tx * b + ty * d + f)

    def _op_Td_TJ(self, args: list[Any], res: _Resources) -> None:
        tx, ty = number(args[-3]), number(args[-2])
        a, b, c, d, e, f = self.tlm
        self.tlm = self.tm = (a, b, c, d, tx * a + ty * c + e, tx * b + ty * d + f)
        self._op_TJ(args, res)  # reads the last operand only

    def _op_Tf_Td(self, args: list[Any], res: _Resources) -> None:
        self._set_font(args[-4], args[-3], res)
        self._op_Td(args, res)  # reads the last two operands only

    def _op_Tf_Td_TJ(self, args: list[Any], res: _Resources) -> None:
        self._set_font(args[-5], args[-4], res)
        self._op_Td_TJ(args, res)

    def _op_glyph_block(self, args: list[Any], res: _Resources) -> None:
        """``q cm BT Tm Tf Td Tj ET Q``, an OCR layer's glyph (see
        :data:`~glyphweave.pdf.tokenizer.GLYPH_BLOCK`)."""
        self._glyph_block(args, res, False)

    def _op_glyph_block_tr(self, args: list[Any], res: _Resources) -> None:
        """The same with ``Tr`` after ``BT``."""
        self._glyph_block(args, res, True)

    def _glyph_block(self, args: list[Any], res: _Resources, tr: bool) -> None:
        """A glyph block as its operators would run one by one. The tokenizer read its
        operands as numbers and a name, so only ``Tr`` (a number too large for an integer)
        and the shown string can fail: each failure is reported as its operator's, and the
        state is restored after it all the same. The operands are counted from the end:
        the string, Td's two, Tf's two, Tm's six, Tr's one if ``tr``, then cm's six."""
        cm = -18 if tr else -17
        self._op_q(args, res)
        self._op_cm(args[cm:cm + 6], res)
        self.tm = self.tlm = IDENTITY  # BT
        if tr:
            try:
                self._op_Tr(args[-12:-11], res)
            except OPERAND_ERRORS as exc:  # a number too large for an integer
                self._warn(f"operator Tr: {exc}")
        self._op_Tm(args[-11:-5], res)
        self._set_font(args[-5], args[-4], res)
        self._op_Td(args[-3:-1], res)
        if not self.in_form:
            self.token -= 2  # the item's index is its Q's; the string is shown by its Tj
        try:
            self._op_Tj(args, res)
        except OPERAND_ERRORS as exc:
            self._warn(f"operator Tj: {exc}")
        self._op_Q(args, res)

    def _op_TD(self, args: list[Any], res: _Resources) -> None:
        self.tl = -number(args[-1])
        self._op_Td(args, res)

    def _op_Tm(self, args: list[Any], res: _Resources) -> None:
        m = read_matrix(args)
        if m is not None:
            # A Tm that repeats the line matrix (text painted again and again on one spot)
            # keeps the tuple the runs already share: 232 bytes less per run recorded (pure build;
            # compiled, the matrices are unboxed and each run boxes its own).
            self.tlm = self.tm = self.tlm if m == self.tlm and _same_signs(m, self.tlm) else m

    def _op_Tstar(self, args: list[Any], res: _Resources) -> None:
        a, b, c, d, e, f = self.tlm
        ty = -self.tl
        self.tlm = self.tm = (a, b, c, d, ty * c + e, ty * d + f)

    # -- showing text ---------------------------------------------------------------------
    def _op_Tj(self, args: list[Any], res: _Resources) -> None:
        if args and isinstance(args[-1], bytearray):
            data = args[-1]
            self._show((False, bytes(data)) if len(data) <= _MEASURED_LONGEST else None, [data], None)

    def _op_TJ(self, args: list[Any], res: _Resources) -> None:
        if not args:
            return
        operand = args[-1]
        if isinstance(operand, RawTJ):
            self._show((True, operand) if len(operand) <= _MEASURED_LONGEST else None, operand, None)
        elif isinstance(operand, list):
            self._show(None, *read_tj(operand))

    def _op_quote(self, args: list[Any], res: _Resources) -> None:
        self._op_Tstar(args, res)
        self._op_Tj(args, res)

    def _op_dquote(self, args: list[Any], res: _Resources) -> None:
        if len(args) >= 3:
            self.tw = number(args[-3])
            self.tc = number(args[-2])
        self._op_Tstar(args, res)
        self._op_Tj(args, res)

    def _show(self, key: Any, strings: Any, adjustments: list[tuple[int, float]] | None) -> None:
        """Paint a Tj/TJ operand as one run: its ``strings`` (with TJ numbers as
        ``adjustments``), or a :class:`RawTJ`, read only if it must be measured.

        A short string is measured and decoded once per font and text state: ``key`` names
        the operand (a flag and its bytes), and the document's
        :attr:`FontLoader.measured` cache gives back what an equal operand gave before.
        Words repeat, so most strings on the benchmark corpus skip the measuring. Callers
        pass None as ``key`` for an operand not worth remembering (longer than
        ``_MEASURED_LONGEST`` bytes, or not from a fast path): it is measured uncached.
        """
        state = self.font
        if state is None:
            # A TJ source holds a string exactly when it holds a "(" or a "<".
            if strings and (not isinstance(strings, RawTJ) or 0x28 in strings or 0x3C in strings):
                self._warn("text shown with no font set")
            return
        full = None if key is None else (state, key, self.fs, self.th, self.tc, self.tw)
        cache = self.font_loader.measured
        measured: Measured | None = None if full is None else cache.get(full)
        if measured is None:
            if isinstance(strings, RawTJ):
                strings, adjustments = read_tj(strings)
            measured = self._measure(state, strings, adjustments)
            self._fresh += 1
            if full is not None:
                if len(cache) >= _MEASURED_LIMIT:
                    cache.clear()
                cache[full] = measured
        # Unpacked by position (half the cost of eight attribute reads, per shown string);
        # the names are Measured._fields in order, which a test checks.
        codes, cids, advances, starts, pens, extent, end, decoded, lo, hi = measured
        wmode = state.info.writing_mode
        if codes:
            mark = self.mc_stack[-1] if self.mc_stack else _NO_MARK
            tag, mcid, actual_text, _span, owner = mark
            if actual_text is not None:
                decoded = self._actual_text(mark, len(codes))
            runs = self._runs
            if owner is not None:
                self.table.mcid_streams[self._first_run + len(runs)] = owner
            font, size, rise, render = self.font_idx, self.fs, self.ts, self.tr
            ctm = self.ctm
            matrix = self.tm if _is_identity(ctm) else multiply(self.tm, ctm)
            token = -1 if self.in_form else self.token
            annotation, fill, stroke = self.annotation, self.fill, self.stroke
            if type(fill) is list:
                fill = self.fill = self._converted(fill)
            if type(stroke) is list:
                stroke = self.stroke = self._converted(stroke)
            runs.append(_make_run((
                font, size, matrix, rise, wmode, codes, cids, decoded, starts, advances, pens, lo, hi,
                render, mcid, tag, actual_text, token, extent, annotation, fill, stroke,
            )))
            # The limits are checked every few thousand glyphs, not every string: one add and
            # one comparison per shown string.
            glyphs = self._glyphs + len(codes)
            self._glyphs = glyphs
            if glyphs > self._next_check:
                self._check_limits(glyphs)
        if end:
            a, b, c, d, e, f = self.tm
            if wmode == 0:
                self.tm = (a, b, c, d, e + a * end, f + b * end)
            else:
                self.tm = (a, b, c, d, e + c * end, f + d * end)

    def _measure(self, state: FontState, strings: list[Any], adjustments: list[tuple[int, float]] | None) -> Measured:
        """Measure and decode the strings of one operand in the current text state
        (:mod:`glyphweave.pdf.measure`, in C in the compiled build): a simple font's by
        :func:`measure_simple`, a composite font's by :func:`measure_composite`. The whole
        operand is measured and decoded at once."""
        fs, th, tc, tw = self.fs, self.th, self.tc, self.tw
        wmode = state.info.writing_mode
        hscale = fs * th if wmode == 0 else fs
        table: Any = state.decode
        cids: tuple[int, ...] | None = None
        widths = self._scaled_widths(state, hscale)
        known = state.known_codes
        if known is None:
            known = state.known_codes = KnownCodes()
        if state.simple:
            codes, advances, starts, pens, extent, end, decoded = measure_simple(
                widths, table, strings, adjustments, hscale, th, tc, tw, wmode, known)
        else:
            assert state.cmap is not None and state.cids is not None  # composite fonts always have both
            codes, cids, advances, starts, pens, extent, end, decoded = measure_composite(
                state.cmap.split, state.code_width, state.cids, widths, table, strings, adjustments, hscale, th, tc,
                tw, wmode, state.space_single_byte, known)
        if codes:
            if table.several:  # a font whose producer may map clusters (pdf/clusters.py)
                decoded = covered_by_clusters(decoded)
            if state.may_split and wmode == 0 and 0.0 in advances and state.split_advances() is not None:
                codes, advances, starts, pens, decoded = _joined(
                    state.split_advances(), codes, advances, starts, pens, decoded, hscale)  # type: ignore[arg-type]
                extent = None
        lo, hi = state.descent * fs, state.ascent * fs
        return _make_measured((codes, cids, advances, starts, pens, extent, end, decoded, lo, hi))

    def _scaled_widths(self, state: FontState, hscale: float) -> Any:
        """``state.scaled_widths(hscale)``, the last answer kept: strings measured one after
        another are nearly always in one font and size, and the font's own cache is a
        dictionary look-up (a call into interpreted code in the pure build). Equal scales
        give equal tables, so the answer is the font's own."""
        last = self._widths
        if last is not None and last[0] is state and last[1] == hscale:
            return last[2]
        widths = state.scaled_widths(hscale)
        self._widths = (state, hscale, widths)
        return widths

    # -- marked content -------------------------------------------------------------------
    def _op_BMC(self, args: list[Any], res: _Resources) -> None:
        if len(self.mc_stack) >= self.limits.nesting:
            self._too_deep(1, "marked content")
            return
        tag = args[-1] if args and isinstance(args[-1], str) else None
        outer = self.mc_stack[-1] if self.mc_stack else _NO_MARK
        self.mc_stack.append((tag, outer[1], outer[2], outer[3], outer[4]))

    def _op_BDC(self, args: list[Any], res: _Resources) -> None:
        if len(self.mc_stack) >= self.limits.nesting:
            self._too_deep(1, "marked content")
            return
        tag = args[0] if args and isinstance(args[0], str) else None
        props: Any = args[1] if len(args) > 1 else None
        outer = self.mc_stack[-1] if self.mc_stack else _NO_MARK
        mcid, actual, span, owner = outer[1], outer[2], outer[3], outer[4]
        here = self._active_forms[-1] if self._active_forms else None
        if isinstance(props, str):
            cached = res.properties.get(props)
            if cached is None:
                cached = res.lookup("/Properties", props)
                res.properties[props] = cached
            props = cached
        if isinstance(props, dict):
            if "MCID" in props:
                with contextlib.suppress(TypeError, ValueError):
                    mcid, owner = int(props["MCID"]), here
            if "ActualText" in props:
                actual, span = self._new_span(_text_string(props["ActualText"]), actual, span)
        elif isinstance(props, pikepdf.Dictionary):
            value = props.get("/MCID")
            if value is not None:
                with contextlib.suppress(TypeError, ValueError):
                    mcid, owner = int(value), here
            at = props.get("/ActualText")
            if at is not None:
                actual, span = self._new_span(_text_string(at), actual, span)
        self.mc_stack.append((tag, mcid, actual, span, owner))

    def _new_span(self, text: str | None, outer: str | None, outer_span: int) -> tuple[str | None, int]:
        """Open an ActualText span; text that says nothing (only U+FFFD, private-use or
        control characters, as iText writes for dot leaders) is ignored, keeping the glyphs."""
        if text is None or (text and all(map(is_weak, text))):
            return outer, outer_span
        self._span_ids += 1
        return text, self._span_ids

    def _actual_text(self, mc: tuple[Any, ...], n: int) -> list[tuple[str, str | None]]:
        """Decodings for n glyphs inside an ActualText span (§14.9.4): the span's text
        replaces all its glyphs, so the first glyph shown carries it and the rest carry
        nothing."""
        decoded: list[tuple[str, str | None]] = [("", ACTUAL_TEXT)] * n
        if mc[3] not in self._spans_shown:
            self._spans_shown.add(mc[3])
            decoded[0] = (mc[2], ACTUAL_TEXT)
        return decoded

    def _op_EMC(self, args: list[Any], res: _Resources) -> None:
        if self._overflow[1]:
            self._overflow[1] -= 1
            return
        if len(self.mc_stack) > self.mc_floor:
            self.mc_stack.pop()

    # -- XObjects -------------------------------------------------------------------------
    def _op_Do(self, args: list[Any], res: _Resources) -> None:
        if not args or not isinstance(args[-1], str):
            return
        name = args[-1]
        xobj = res.xobjects.get(name)
        if xobj is None:
            xobj = res.lookup("/XObject", name)
            res.xobjects[name] = xobj if xobj is not None else False
        if not isinstance(xobj, pikepdf.Stream) or xobj.get("/Subtype") != pikepdf.Name.Form:
            return
        self._paint_form(xobj, f"form XObject /{name}", res)

    def _paint_form(self, xobj: pikepdf.Stream, what: str, res: _Resources) -> None:
        """Paint a form XObject at the current CTM (× its /Matrix), with its own resources or
        else ``res``; a form that paints itself, or nests past ``form_depth``, is skipped."""
        key = object_key(xobj)
        if key in self._active_forms:
            self._warn(f"{what} paints itself (cycle); skipped")
            return
        if len(self._active_forms) >= self.limits.form_depth:
            self._warn(f"{LIMIT}form XObjects nested deeper than {self.limits.form_depth}; {what} skipped",
                       "form_depth")
            return
        if self._deadline is not None and time.monotonic() > self._deadline:
            raise _OutOfTime
        self._forms += 1
        self._check_records(self._glyphs)
        data = self._read_stream(xobj, what)
        if data is None:
            return
        matrix = read_matrix(list(xobj.get("/Matrix", []))) or IDENTITY
        form_res_obj = xobj.get("/Resources")
        form_res = self._resources(form_res_obj) if isinstance(form_res_obj, pikepdf.Dictionary) else res
        saved = self._snapshot()
        saved_text = (self.tm, self.tlm, len(self.gstack), len(self.mc_stack), self.in_form,
                      self.gs_floor, self.mc_floor)
        self.ctm = multiply(matrix, self.ctm)
        self.in_form = True
        self.gs_floor, self.mc_floor = len(self.gstack), len(self.mc_stack)
        self._active_forms.append(key)
        try:
            self._run(data, form_res)
        finally:
            self._active_forms.pop()
            self._restore(saved)
            self.tm, self.tlm, depth, mc_depth, self.in_form, self.gs_floor, self.mc_floor = saved_text
            del self.gstack[depth:]
            del self.mc_stack[mc_depth:]

    # -- annotations ----------------------------------------------------------------------
    def _paint_annotations(self, page_obj: Any, defaults: FormDefaults, page_res: _Resources) -> None:
        """Paint what the page's annotations show on screen over its content (see
        :mod:`glyphweave.pdf.annotations`): appearance streams as forms, field values as runs.
        Each painting counts against the page's limits as the content's forms and strings do."""
        self._reset_state()
        fallback = self._resources(defaults.resources) if defaults.resources is not None else page_res
        try:
            for count, item in enumerate(page_annotations(page_obj, defaults, self._warn), 1):
                if not count & 255 and self._deadline is not None and time.monotonic() > self._deadline:
                    raise _OutOfTime
                self.annotation = item.ref
                self._reset_state()
                if isinstance(item, Appearance):
                    self.ctm = item.matrix
                    self._paint_form(item.stream, f"{item.label} appearance", fallback)
                else:
                    self._field_text(item)
        except (pikepdf.PdfError, ValueError, TypeError, RecursionError) as exc:
            self._warn(f"annotations unreadable: {exc}; the rest skipped")
        finally:
            self.annotation = None

    def _field_text(self, item: FieldText) -> None:
        """A field value's lines as runs, decoded by construction (``decoded_by`` is
        ``field-value``): the text is the value itself, never re-encoded through a font."""
        idx = self.table.font_index(FontRef(resource=item.font, base_font=item.base_font, subtype="Type1"))
        size, lo, hi = item.size, item.descent, item.ascent
        for line in item.lines:
            text = line.text
            codes: tuple[Any, ...] = (tuple(map(ord, text)) if max(text) <= "\xff"
                                      else tuple(c.encode("utf-16-be") for c in text))
            advances = line.advances
            positions = tuple(accumulate(advances, initial=0.0))
            starts, pens = positions[:-1], positions[1:]
            self._runs.append(Run(
                font=idx, size=size, matrix=(1.0, 0.0, 0.0, 1.0, line.x, line.y), rise=0.0, wmode=0,
                codes=codes, cids=None, decoded=tuple((c, FIELD_VALUE) for c in text), starts=starts,
                advances=advances, pens=pens, lo=lo, hi=hi, render=0, mcid=None, tag=None, actual_text=None,
                token=-1, extent=None, annotation=item.ref, fill=item.fill, stroke=None))
            self._fresh += 1
            glyphs = self._glyphs + len(codes)
            self._glyphs = glyphs
            if glyphs > self._next_check:
                self._check_limits(glyphs)


def _joined(split: list[float | None], codes: tuple[int, ...], advances: tuple[float, ...],
            starts: tuple[float, ...], pens: tuple[float, ...], decoded: Sequence[tuple[str, str | None]],
            hscale: float) -> tuple[Any, Any, Any, Any, Any]:
    """A string of a font that splits each character in two (:meth:`FontState.split_advances`):
    the glyphs that paint nothing and only carry the advance are left out (they are no text;
    the pen still moves by them), and a painting glyph with no advance is boxed by its ink,
    so the gap to the next letter is what a reader sees (a word space is in the carrier's
    advance)."""
    keep: list[int] = []
    widths: list[float] = []
    for i, code in enumerate(codes):
        kind = split[code]
        if kind is None:
            keep.append(i)
            widths.append(advances[i])
        elif kind >= 0:
            keep.append(i)
            widths.append(max(advances[i], kind * hscale))
    return (tuple(codes[i] for i in keep), tuple(widths), tuple(starts[i] for i in keep),
            tuple(max(pens[i], starts[i] + width) for i, width in zip(keep, widths, strict=True)),
            tuple(decoded[i] for i in keep))


def resolve_inherited(page_obj: Any, key: str, inherited: dict[tuple[Any, str], Any] | None = None) -> Any:
    """A page attribute, inherited through the page tree (§7.7.3.4).

    ``inherited``, when given, keeps what each parent node gives (by its object number and
    generation, and ``key``) for the pages after the first: a book's pages share a few
    parents, and each walk up to the root costs a few pikepdf calls per node (the pdfTeX and
    CJK manuals, whose pages name one of their four attributes, walked four levels for
    each of the other three). It must hold the objects of one opening of the file only."""
    if not isinstance(page_obj, pikepdf.Dictionary):
        return None
    value = page_obj.get(key)
    if value is not None:
        return value
    parent = page_obj.get("/Parent")
    if inherited is None or not isinstance(parent, pikepdf.Dictionary):
        return _walk_up(parent, key, 1)
    objgen = parent.objgen
    if objgen == (0, 0):  # a direct parent (damaged): nothing names it for the next page
        return _walk_up(parent, key, 1)
    found = (objgen, key)
    if found in inherited:
        return inherited[found]
    value = inherited[found] = _walk_up(parent, key, 1)
    return value


def _walk_up(node: Any, key: str, seen: int) -> Any:
    """``key`` of ``node`` or the nearest of its ancestors that has it, ``seen`` nodes
    having been looked at below it (64 in all at most: a loop of /Parent ends)."""
    while isinstance(node, pikepdf.Dictionary) and seen < 64:
        value = node.get(key)
        if value is not None:
            return value
        node = node.get("/Parent")
        seen += 1
    return None
