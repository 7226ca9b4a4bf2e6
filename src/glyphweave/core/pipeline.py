"""A profile made runnable: decoder chain, filters and assembler applied to one page.

The pipeline is built once per document from a resolved profile; each page is
interpreted, filtered (each filter sees the indices the previous one kept) and
assembled. Statistics count what every filter dropped and what stayed unresolved.
"""

from __future__ import annotations

from bisect import bisect_left
from collections import Counter
from collections.abc import Mapping, Sequence
from itertools import chain
from operator import itemgetter
from types import MappingProxyType
from typing import Any, Protocol

import attrs

from glyphweave.core.clock import PageClock, TimeLimitReached
from glyphweave.core.decoding import DecoderChain
from glyphweave.core.errors import ComponentError, ProfileError
from glyphweave.core.glyphtable import GlyphTable
from glyphweave.core.limits import Limits
from glyphweave.core.stages import Assembled, Assembler, Filter, PageContext

_decoder_of = itemgetter(1)

UNRESOLVED_POLICIES: Mapping[str, str] = MappingProxyType({"space": " ", "replacement": "\ufffd", "drop": ""})
"""A profile's ``unresolved`` policy → the text an unresolved glyph shows."""


@attrs.frozen(kw_only=True)
class PageStats:
    """What happened to one page's glyphs."""

    page: int
    """0-based page index, as ``Page.number`` (1-based in :meth:`to_dict`)."""
    glyphs: int
    """Glyphs painted (the raw glyph list)."""
    visible: int
    """Glyphs left after the filters."""
    unresolved: int
    """Visible glyphs no decoder could map to Unicode."""
    dropped: dict[str, int] = attrs.field(factory=dict)
    """Glyphs dropped, by filter name (``dedup``, ``visible-box``, ...)."""
    decoded_by: dict[str, int] = attrs.field(factory=dict)
    """Visible glyphs by the decoder that answered."""
    untagged: int = 0
    """Visible glyphs outside any marked-content sequence with an MCID; on a page the
    structure assembler served, visible glyphs outside every structure element (artifacts
    not counted)."""
    warnings: tuple[str, ...] = ()
    assembly: dict[str, str] = attrs.field(factory=dict)
    """What the assembler said about the page (:meth:`PageContext.note`): ``assembler``
    (its name), ``served`` (the assembler whose order the text follows, for ``auto``),
    ``reason``, ``order`` (order recovery). Empty before the page's text is assembled."""

    def to_dict(self) -> dict[str, Any]:
        """The statistics as every output prints them (``--format jsonl``, the batch's
        ``pages`` format): plain JSON-ready data, with ``page`` 1-based, as the command line,
        the records beside them and the warnings (``page N: ...``) count pages."""
        return {**attrs.asdict(self), "page": self.page + 1}


@attrs.frozen(kw_only=True)
class DocumentStats:
    """Totals over the pages extracted so far."""

    pages: int = 0
    glyphs: int = 0
    visible: int = 0
    unresolved: int = 0
    dropped: dict[str, int] = attrs.field(factory=dict)
    decoded_by: dict[str, int] = attrs.field(factory=dict)
    untagged: int = 0
    warnings: int = 0
    served: dict[str, int] = attrs.field(factory=dict)
    """Pages by the assembler that served them (``assembly["served"]``, or the assembler)."""
    recovered: int = 0
    """Pages where order recovery reordered a region."""

    def add(self, page: PageStats) -> DocumentStats:
        dropped = Counter(self.dropped)
        dropped.update(page.dropped)
        decoded = Counter(self.decoded_by)
        decoded.update(page.decoded_by)
        served = Counter(self.served)
        by = page.assembly.get("served") or page.assembly.get("assembler")
        if by:
            served[by] += 1
        return DocumentStats(
            pages=self.pages + 1,
            glyphs=self.glyphs + page.glyphs,
            visible=self.visible + page.visible,
            unresolved=self.unresolved + page.unresolved,
            dropped=dict(dropped),
            decoded_by=dict(decoded),
            untagged=self.untagged + page.untagged,
            warnings=self.warnings + len(page.warnings),
            served=dict(served),
            recovered=self.recovered + ("order" in page.assembly),
        )

    def to_dict(self) -> dict[str, Any]:
        return attrs.asdict(self)


class ComponentOrigins(Protocol):
    """Where components come from (the registry's catalog), for messages that blame them."""

    def get(self, kind: str, name: str) -> type[Any]: ...

    def describe(self, kind: str, name: str) -> str:
        """``filter 'x' of plugin 'p' (dist 1.0)``."""
        ...

    def is_builtin(self, kind: str, name: str) -> bool:
        """True for a component shipped with glyphweave itself."""
        ...


class Pipeline:
    """Decoders, filters and an assembler chosen by a profile, ready to run.

    Every call into a component goes through here, so a failure names its culprit: an
    exception inside a filter or an assembler, or a result that breaks the stage's contract,
    becomes a :class:`ComponentError` naming the stage, component, plugin, distribution and
    page; a decoder's failure is reported by the decoder chain and counted as a warning.
    The contracts of third-party filters are checked in full (a list of the indices
    received, in order); glyphweave's own, which its tests pin, are trusted to spare the
    per-glyph check.
    """

    def __init__(self, resolved: Any, catalog: ComponentOrigins) -> None:
        self.profile = resolved.profile
        self.chain = DecoderChain(resolved.decoders, describe=catalog.describe)
        self.filters: tuple[Filter, ...] = tuple(resolved.filters)
        self.assembler: Assembler = resolved.assembler
        self._catalog = catalog
        self._assemblers: dict[str, Assembler] = {self.assembler.NAME: self.assembler}
        self.limits = Limits.from_mapping(getattr(self.profile, "limits", {}), f"profile {self.profile.name!r}")
        try:
            self.placeholder = UNRESOLVED_POLICIES[self.profile.unresolved]
        except KeyError:
            raise ProfileError(f"unknown unresolved policy {self.profile.unresolved!r}") from None

    def resource_sources(self) -> dict[str, str]:
        """Which source (mirror or fallback) serves each data table the components read."""
        sources: dict[str, str] = {}
        for component in (*self.chain.decoders, *self.filters, self.assembler):
            sources.update(component.resource_sources())
        return sources

    def assembler_for(self, mode: str | None) -> Assembler:
        """The profile's assembler, or another one by name (``--mode``)."""
        if mode is None:
            return self.assembler
        found = self._assemblers.get(mode)
        if found is None:
            cls = self._catalog.get("assembler", mode)
            options = cls.validate_options(self.profile.options.get(mode, {}))
            found = self._assemblers[mode] = cls(**options)
        return found

    def filter_page(self, ctx: PageContext) -> tuple[list[int], dict[str, int]]:
        """The indices of the glyphs every filter keeps, and how many each dropped.

        Past the page's time limit the remaining filters are skipped (a filter that raised
        :class:`TimeLimitReached` counts as skipped: its work is dropped), so the glyphs
        stay in paint order as the last filter to finish left them."""
        indices: list[int] = list(range(len(ctx.table)))
        dropped: dict[str, int] = {}
        clock = ctx.clock
        for position, flt in enumerate(self.filters):
            if clock.limited and clock.expired():
                _skipped(clock, self.filters[position:])
                break
            before = len(indices)
            try:
                kept = flt.apply(ctx, indices)
            except TimeLimitReached:
                _skipped(clock, self.filters[position:])
                break
            except Exception as exc:
                raise self._failure("filter", flt.NAME, ctx.number, f"failed: {type(exc).__name__}: {exc}") from exc
            problem = self._check_filter_result(flt.NAME, indices, kept)
            if problem:
                raise self._failure("filter", flt.NAME, ctx.number, problem)
            indices = kept
            dropped[flt.NAME] = before - len(indices)
        return indices, dropped

    def assemble(self, assembler: Assembler, ctx: PageContext, indices: Sequence[int]) -> str | Assembled:
        """The page's text (or :class:`Assembled` text and data) from ``assembler`` (the
        profile's, or one :meth:`assembler_for` gave); past the page's time limit, or when
        the assembler raises :class:`TimeLimitReached`, the cheapest text instead
        (:func:`paint_order_text`)."""
        clock = ctx.clock
        if clock.limited and clock.expired():
            return paint_order_text(assembler, ctx, indices)
        try:
            text = assembler.assemble(ctx, indices)
        except TimeLimitReached:
            return paint_order_text(assembler, ctx, indices)
        except Exception as exc:
            raise self._failure("assembler", assembler.NAME, ctx.number,
                                f"failed: {type(exc).__name__}: {exc}") from exc
        if type(text) is not str and not isinstance(text, Assembled):
            raise self._failure("assembler", assembler.NAME, ctx.number,
                                f"returned {type(text).__name__} {text!r:.40}, not str or Assembled")
        return text

    def _check_filter_result(self, name: str, received: list[int], kept: Any) -> str | None:
        """What is wrong with a filter's result, or None."""
        if type(kept) is not list:
            return f"returned {type(kept).__name__} {kept!r:.40}, not a list of glyph indices"
        if self._catalog.is_builtin("filter", name):
            return None
        position = 0
        for index in kept:
            if type(index) is not int:
                return f"returned {type(index).__name__} {index!r:.40} among the glyph indices"
            # The kept indices must appear in what was received, in the same order.
            while position < len(received) and received[position] != index:
                position += 1
            if position == len(received):
                return f"returned index {index}, which it did not receive or not in paint order"
            position += 1
        return None

    def _failure(self, kind: str, name: str, page: int, problem: str) -> ComponentError:
        blame = self._catalog.describe(kind, name)
        report = " (please report this with the file)" if self._catalog.is_builtin(kind, name) else ""
        return ComponentError(f"page {page + 1}: {blame} {problem}{report}")

    @staticmethod
    def page_stats(number: int, table: GlyphTable, visible: Sequence[int], dropped: dict[str, int],
                   warnings: Sequence[str], assembly: dict[str, str] | None = None) -> PageStats:
        counts, untagged = _count_visible(table, visible)
        if assembly and "untagged" in assembly:  # the structure assembler counted them
            untagged = int(assembly["untagged"])
        unresolved = counts.pop(None, 0)
        by = {name: n for name, n in counts.items() if name is not None}
        return PageStats(
            page=number,
            glyphs=len(table),
            visible=len(visible),
            unresolved=unresolved,
            dropped=dropped,
            decoded_by=by,
            untagged=untagged,
            warnings=tuple(warnings),
            assembly=dict(assembly or {}),
        )


def _skipped(clock: PageClock, filters: Sequence[Filter]) -> None:
    clock.cut(f"filters skipped, glyphs left in paint order: {', '.join(f.NAME for f in filters)}")


def paint_order_text(assembler: Assembler, ctx: PageContext, indices: Sequence[int]) -> str:
    """The page's text the cheapest way, for a page out of time: the glyphs in paint order,
    word spaces and line breaks from the default reading rules (the ``raw`` profile's text
    without order recovery). Linear in the glyphs, and never stopped: it is what the page
    falls back to."""
    ctx.clock.cut(f"text in paint order instead of by assembler {assembler.NAME!r}")
    ctx.note("served", "paint-order")
    ctx.note("reason", "page time limit")
    return ctx.geometry(indices).reading_text() if len(indices) else ""


def _count_visible(table: GlyphTable, visible: Sequence[int]) -> tuple[Counter[str | None], int]:
    """Decoder counts and untagged count over the visible glyphs, a run at a time.

    ``visible`` is sorted (the filter contract), so two bisections tell how much of each
    run survived; only runs cut by a filter are gathered glyph by glyph. The decoders are
    then counted in one pass over the whole page: ``Counter.update`` per run cost about
    1 µs of Python-level checks each, 0.18 s over the bench corpus.
    """
    if not visible:
        return Counter(), 0
    whole = len(visible) == len(table)
    untagged = 0
    pieces: list[Sequence[tuple[str, str | None]]] = []
    keep = pieces.append
    start = 0
    for run in table.raw_runs():
        decoded = run.decoded
        end = start + len(decoded)
        if whole:
            kept = end - start
        else:
            lo, hi = bisect_left(visible, start), bisect_left(visible, end)
            kept = hi - lo
        if kept == end - start:
            keep(decoded)
        elif kept:
            keep([decoded[i - start] for i in visible[lo:hi]])
        if run.mcid is None:
            untagged += kept
        start = end
    return Counter(map(_decoder_of, chain.from_iterable(pieces))), untagged
