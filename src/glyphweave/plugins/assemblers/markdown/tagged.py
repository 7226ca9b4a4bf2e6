"""Markdown from a tagged page's structure tree: the author's headings (H1-H6), paragraphs,
lists with their labels (L, LI, Lbl, LBody), tables with their header rows (Table, TR, TH,
TD, THead), figures' alternate descriptions and links, in the tree's order (as the
``structure`` assembler reads it: notes and floats after the body)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from glyphweave.layout import StructItem, has_rtl
from glyphweave.plugin import PageContext

from .._shared import rules_geometry
from ..structure import played_order, played_pieces
from .blocks import Cell, MdBlock
from .grid import BULLETS
from .inline import Style, Styles, decorated, one_line

__all__ = ["tagged_blocks"]

_HEADINGS = {"H1": 1, "H2": 2, "H3": 3, "H4": 4, "H5": 5, "H6": 6, "H": 1, "Title": 1}
_NUMBER_LABEL = re.compile(r"\(?(\d{1,9})[.)]?")
_BULLET_LABEL = re.compile(rf"[{BULLETS}—]")

Span = tuple[StructItem, int, int]
"""An item and where its glyphs are in the author's order (start, end)."""


def tagged_blocks(o: Any, page: PageContext, indices: Sequence[int],
                  styles: Styles) -> tuple[list[MdBlock], list[int]] | None:
    """The tagged content as blocks, and the glyphs left for the geometric path (untagged
    content; artifacts too unless ``artifacts`` is ``drop``); None (with the reason noted)
    when the page's structure is not usable."""
    played_glyphs = played_order(o, page, indices)
    if played_glyphs is None:
        return None
    order, starts, artifacts = played_glyphs
    played = set(order)
    dropped = set(artifacts) if o.artifacts == "drop" else set()
    rest = [g for g in indices if g not in played and g not in dropped]
    bounds = [pos for pos, _ in starts] + [len(order)]
    spans = [(item, bounds[k], bounds[k + 1]) for k, (_pos, item) in enumerate(starts)]
    return _Builder(o, page, order, played_pieces(o, page, order), styles).blocks(spans), rest


def _cells_of(row: int, found: dict[int, list[Span]], every: dict[int, tuple[int, ...]]) -> list[int]:
    """The cells of ``row`` in the tree's order: every one the tree has (empty ones too, so
    that the columns stay in place), then any met only in the content."""
    cells = list(every.get(row, ()))
    known = set(cells)
    return cells + [cell for cell in found if cell not in known]


class _Builder:
    def __init__(self, o: Any, page: PageContext, order: list[int], pieces: list[str], styles: Styles) -> None:
        self.o = o
        self.page = page
        self.order = order
        self.pieces = pieces
        self.styles = styles

    def blocks(self, spans: list[Span]) -> list[MdBlock]:
        groups: list[list[Span]] = []
        for span in spans:
            if groups and groups[-1][0][0].block == span[0].block:
                groups[-1].append(span)
            else:
                groups.append([span])
        out: list[MdBlock] = []
        k = 0
        while k < len(groups):
            table = groups[k][0][0].table
            if table is not None:
                end = k
                while end < len(groups) and groups[end][0][0].table == table:
                    end += 1
                out.extend(self._table(groups[k:end]))
                k = end
                continue
            out.extend(self._block(groups[k]))
            k += 1
        return out

    # -- one block ----------------------------------------------------------------------------
    def _block(self, group: list[Span]) -> list[MdBlock]:
        kind = group[0][0].block_kind
        out = [MdBlock(kind="image", text=" ".join(item.alt.split())) for item, _lo, _hi in group
               if item.alt is not None and item.alt.strip()]
        body = [span for span in group if span[0].alt is None]
        if not body:
            return out
        glyphs = tuple(g for _item, lo, hi in body for g in self.order[lo:hi])
        if kind in _HEADINGS:
            text = self._inline(body, emphasis=False)
            if text:
                out.append(MdBlock(kind="heading", level=_HEADINGS[kind], text=text, glyphs=glyphs))
            return out
        if kind == "LI":
            labels = [span for span in body if span[0].kind == "Lbl"]
            rest = [span for span in body if span[0].kind != "Lbl"]
            label = self._inline(labels, emphasis=False) if labels else ""
            text = self._inline(rest)
            marker = "-"
            number = _NUMBER_LABEL.fullmatch(label)
            if number:
                marker = f"{number.group(1)}."
            elif label and not _BULLET_LABEL.fullmatch(label):
                text = f"{label} {text}".strip()  # a) or (iv): kept as written
            depth = max(1, max(item.lists for item, _lo, _hi in body))
            out.append(MdBlock(kind="item", level=depth, marker=marker, text=text, glyphs=glyphs))
            return out
        text = self._inline(body)
        if text:
            out.append(MdBlock(kind="paragraph", text=text, glyphs=glyphs))
        return out

    def _table(self, groups: list[list[Span]]) -> list[MdBlock]:
        before: list[MdBlock] = []
        rows: dict[int, dict[int, list[Span]]] = {}
        header: dict[int, bool] = {}
        for group in groups:
            for span in group:
                item = span[0]
                if item.row is None or item.cell is None:  # a caption inside the table
                    before.extend(self._block([span]))
                    continue
                rows.setdefault(item.row, {}).setdefault(item.cell, []).append(span)
                header[item.row] = header.get(item.row, True) and item.header
        if not rows:
            return before
        ordered = list(rows.items())
        heads = [n for n, (row, _cells) in enumerate(ordered) if header.get(row)]
        if heads and heads[0] != 0:  # header rows the tree reads after others: put first
            ordered = [ordered[n] for n in heads] + [r for n, r in enumerate(ordered) if n not in heads]
        structure = self.page.structure
        every = structure.row_cells if structure is not None else {}
        table_rows = tuple(tuple(self._cell(cells.get(cell, [])) for cell in _cells_of(row, cells, every))
                           for row, cells in ordered)
        return [*before, MdBlock(kind="table", rows=table_rows)]

    def _cell(self, spans: list[Span]) -> Cell:
        # a header cell's bold is the header's look, not emphasis
        return Cell(text=self._inline(spans, emphasis=not any(span[0].header for span in spans)),
                    glyphs=tuple(g for _item, lo, hi in spans for g in self.order[lo:hi]))

    # -- inline text --------------------------------------------------------------------------
    def _inline(self, spans: Sequence[Span], *, emphasis: bool = True) -> str:
        """The spans' text on one line: runs of one style (bold, italic, link) decorated;
        right-to-left text read in logical order, without decoration."""
        emphasis = emphasis and self.o.emphasis
        runs: list[tuple[Style, list[str]]] = []
        for n, (item, lo, hi) in enumerate(spans):
            if item.text is not None:
                text = item.text
                first = self.pieces[lo] if lo < hi else ""
                sep = first[: len(first) - len(first.lstrip("\n "))]
            else:
                pieces = self.pieces[lo:hi]
                if not pieces:
                    continue
                bare = pieces[0].lstrip("\n ")
                sep = pieces[0][: len(pieces[0]) - len(bare)]
                text = bare + "".join(pieces[1:])
            if n == 0 or not runs:
                sep = ""
            bold, italic = self.styles.of(self.order[lo:hi]) if emphasis and item.text is None else (False, False)
            style = (bold, italic, item.link)
            if runs and runs[-1][0] == style:
                runs[-1][1].append(sep + text)
            else:
                runs.append((style, [sep + text]))
        raw = "".join("".join(parts) for _style, parts in runs)
        if has_rtl(raw):
            glyphs = sorted(g for item, lo, hi in spans if item.text is None for g in self.order[lo:hi])
            if glyphs:
                return one_line(self.o, rules_geometry(self.o, self.page, glyphs).reading_text())
        return one_line(self.o, decorated(runs))
