"""What the pipeline did to a page's glyphs, as the API reports it: each page's statistics
(:class:`PageStats`: glyphs painted, kept, unresolved, dropped by each filter, decoded by
each decoder, how the page was assembled) and their totals over a document
(:class:`DocumentStats`), counted from the glyph table once the page is extracted.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

import attrs

from glyphweave.core.decoding import is_weak
from glyphweave.core.glyphtable import GlyphTable
from glyphweave.guard.report import WarningRecord
from glyphweave.stats.counting import kept_decoder_counts, unresolved_by_font


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
    unresolved_outlined: int = 0
    """Of the unresolved glyphs, those whose font embeds outlines (a program, or Type3 glyph
    procedures) and has no /ToUnicode: the ``shapes`` profile can read them by their shapes."""
    untagged: int = 0
    """Visible glyphs outside any marked-content sequence with an MCID; on a page the
    structure assembler served, visible glyphs outside every structure element (artifacts
    not counted)."""
    warnings: tuple[WarningRecord, ...] = ()
    """What the page's extraction survived (:meth:`~glyphweave.api.Document.warnings` has
    them all, the file's first)."""
    assembly: dict[str, str] = attrs.field(factory=dict)
    """What the assembler said about the page (:meth:`PageContext.note`): ``assembler``
    (its name), ``served`` (the assembler whose order the text follows, for ``auto``),
    ``reason``, ``order`` (order recovery). Empty before the page's text is assembled."""

    def to_dict(self) -> dict[str, Any]:
        """The statistics as every output prints them (``--format jsonl``, the batch's
        ``pages`` format): plain JSON-ready data, with ``page`` 1-based, as the command line,
        the records beside them and the warnings (``page N: ...``) count pages. Warnings are
        their messages: the page is the record's own."""
        return {**attrs.asdict(self, recurse=False), "page": self.page + 1,
                "warnings": [warning.message for warning in self.warnings],
                "dropped": dict(self.dropped), "decoded_by": dict(self.decoded_by), "assembly": dict(self.assembly)}


@attrs.frozen(kw_only=True)
class DocumentStats:
    """Totals over the pages extracted so far."""

    pages: int = 0
    glyphs: int = 0
    visible: int = 0
    unresolved: int = 0
    unresolved_outlined: int = 0
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
            unresolved_outlined=self.unresolved_outlined + page.unresolved_outlined,
            dropped=dict(dropped),
            decoded_by=dict(decoded),
            untagged=self.untagged + page.untagged,
            warnings=self.warnings + len(page.warnings),
            served=dict(served),
            recovered=self.recovered + ("order" in page.assembly),
        )

    def to_dict(self) -> dict[str, Any]:
        return attrs.asdict(self)


def page_stats(number: int, table: GlyphTable, visible: Sequence[int], dropped: dict[str, int],
               warnings: Sequence[WarningRecord], assembly: dict[str, str] | None = None) -> PageStats:
    """The statistics of page ``number`` once its glyphs ``visible`` (of ``table``) are known."""
    visible = visible if type(visible) is list else list(visible)
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
        unresolved_outlined=_outlined(table, visible) if unresolved else 0,
        dropped=dropped,
        decoded_by=by,
        untagged=untagged,
        warnings=tuple(warnings),
        assembly=dict(assembly or {}),
    )


def _outlined(table: GlyphTable, visible: list[int]) -> int:
    """Unresolved visible glyphs whose font embeds an outline program (or is a Type3 font
    with glyph procedures) and has no /ToUnicode: the glyphs the ``shape`` decoder reads."""
    infos = table.font_infos
    count = 0
    for index, unresolved in unresolved_by_font(table.raw_runs(), visible).items():
        info = infos.get(index)
        if info is not None and not _map_reads(info) and (
                bool(info.type3_glyphs) if info.subtype == "Type3"
                else bool(info.embedded) and info.font_file_kind is not None):
            count += unresolved
    return count


def _map_reads(info: Any) -> bool:
    """Whether a font's /ToUnicode reads any of its codes (as the ``shape`` decoder decides)."""
    tounicode = info.to_unicode
    if tounicode is None:
        return False
    if info.composite:
        return True
    return any((text := tounicode.to_unicode(bytes((code,)))) and not is_weak(text) for code in range(256))


def _count_visible(table: GlyphTable, visible: list[int]) -> tuple[dict[str | None, int], int]:
    """Decoder counts and untagged count over the visible glyphs (``visible`` increasing:
    the filter contract), counted a run at a time in compiled code
    (:func:`~glyphweave.stats.counting.kept_decoder_counts`)."""
    if not visible:
        return {}, 0
    return kept_decoder_counts(table.raw_runs(), visible)
