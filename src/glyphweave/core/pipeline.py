"""A profile made runnable: decoder chain, filters and assembler applied to one page.

The pipeline is built once per document from a resolved profile; each page is
interpreted, filtered (each filter sees the indices the previous one kept) and
assembled. What every filter dropped is counted here; the page's statistics are built
from it (:mod:`glyphweave.stats`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from types import MappingProxyType
from typing import Any, Protocol

from glyphweave.core.decoding import DecoderChain
from glyphweave.core.errors import ComponentError, ProfileError
from glyphweave.core.stages import Assembled, Assembler, Filter, PageContext
from glyphweave.guard.clock import PageClock, TimeLimitReached
from glyphweave.guard.limits import Limits

UNRESOLVED_POLICIES: Mapping[str, str] = MappingProxyType({"space": " ", "replacement": "\ufffd", "drop": ""})
"""A profile's ``unresolved`` policy → the text an unresolved glyph shows."""


class ComponentOrigins(Protocol):
    """Where components come from (the registry's catalog), for messages that blame them."""

    def get(self, kind: str, name: str) -> type[Any]: ...

    def describe(self, kind: str, name: str) -> str:
        """``filter 'x' of plugin 'p' (dist 1.0)``."""
        ...

    def is_builtin(self, kind: str, name: str) -> bool:
        """True for a component shipped with glyphweave itself."""
        ...


def read_limits(values: Any, where: str) -> Limits:
    """:meth:`Limits.from_mapping`, its error a :class:`ProfileError` naming ``where``."""
    try:
        return Limits.from_mapping(values)
    except ValueError as exc:
        raise ProfileError(f"{where}: {exc}") from None


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

    def __init__(self, resolved: Any, catalog: ComponentOrigins, *,
                 paint_order: Callable[[PageContext, Sequence[int]], str] | None = None) -> None:
        self.profile = resolved.profile
        self._paint_order = paint_order or _plain_paint_order
        """The text of a page out of time (:meth:`assemble`): the API passes the layout's
        reading rules in paint order (:func:`glyphweave.layout.paint_order_text`); core alone
        can only join the runs."""
        self.chain = DecoderChain(resolved.decoders, describe=catalog.describe)
        self.filters: tuple[Filter, ...] = tuple(resolved.filters)
        self.assembler: Assembler = resolved.assembler
        self._catalog = catalog
        self._assemblers: dict[str, Assembler] = {self.assembler.NAME: self.assembler}
        self.limits = read_limits(getattr(self.profile, "limits", {}), f"profile {self.profile.name!r}")
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
        (:meth:`_fallback`)."""
        clock = ctx.clock
        if clock.limited and clock.expired():
            return self._fallback(assembler, ctx, indices)
        try:
            text = assembler.assemble(ctx, indices)
        except TimeLimitReached:
            return self._fallback(assembler, ctx, indices)
        except Exception as exc:
            raise self._failure("assembler", assembler.NAME, ctx.number,
                                f"failed: {type(exc).__name__}: {exc}") from exc
        if type(text) is not str and not isinstance(text, Assembled):
            raise self._failure("assembler", assembler.NAME, ctx.number,
                                f"returned {type(text).__name__} {text!r:.40}, not str or Assembled")
        if isinstance(text, Assembled) and text.order is not None:
            problem = self._check_order(assembler.NAME, len(ctx.table), text.order)
            if problem:
                raise self._failure("assembler", assembler.NAME, ctx.number, problem)
        return text

    def _fallback(self, assembler: Assembler, ctx: PageContext, indices: Sequence[int]) -> str:
        """The page's text the cheapest way, for a page out of time: the glyphs in paint
        order (``paint_order``). Linear in the glyphs, and never stopped: it is what the page
        falls back to."""
        ctx.clock.cut(f"text in paint order instead of by assembler {assembler.NAME!r}")
        ctx.note("served", "paint-order")
        ctx.note("reason", "page time limit")
        return self._paint_order(ctx, indices) if len(indices) else ""

    def _check_order(self, name: str, count: int, order: Any) -> str | None:
        """What is wrong with an assembler's reading order (:attr:`Assembled.order`), or None."""
        if self._catalog.is_builtin("assembler", name):
            return None
        if not isinstance(order, (list, tuple, range)):
            return f"returned an order of type {type(order).__name__}, not a list of glyph indices"
        for index in order:
            if type(index) is not int or not 0 <= index < count:
                return f"returned {index!r:.40} in its order, which is no glyph index of the page"
        return None

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


def _skipped(clock: PageClock, filters: Sequence[Filter]) -> None:
    clock.cut(f"filters skipped, glyphs left in paint order: {', '.join(f.NAME for f in filters)}")


def _plain_paint_order(ctx: PageContext, indices: Sequence[int]) -> str:
    """The visible glyphs' text in paint order, a line per run: the fallback of a pipeline
    built without the layout's (core knows no word-gap or line-break rule)."""
    wanted = set(indices)
    lines = []
    start = 0
    for run in ctx.table.raw_runs():
        end = start + len(run.decoded)
        text = "".join(run.decoded[i - start][0] for i in range(start, end) if i in wanted)
        if text:
            lines.append(text)
        start = end
    return "".join(line + "\n" for line in lines)
