"""Markdown from an untagged page's geometry: headings from font sizes (and bold lines), lists
from their markers, tables from a consistent column grid (:mod:`.grid`), paragraphs from the
layout engine's blocks, all in the order the ``auto`` assembler reads the page."""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Sequence
from typing import Any

from glyphweave.layout import Line, PageGeometry, expand_ligatures, has_rtl
from glyphweave.plugin import PageContext

from .._shared import order_thresholds, rules_geometry
from ..geometric import geometric_choice
from .blocks import Cell, MdBlock
from .grid import BULLETS, MARKER, find_grids
from .inline import Style, Styles, decorate, decorated, one_line

__all__ = ["geometric_blocks"]

_BULLET = re.compile(rf"^[{BULLETS}](?:\s+|$)")
_NUMBERED = re.compile(r"^\(?(\d{1,3})[.)](?:\s+|$)")
_LETTERED = re.compile(r"^\(?(?:[a-zA-Z]|[ivxlcIVXLC]{1,6})[.)]\s+")
HEADING_LINES = 3
"""A heading is at most this many lines..."""
HEADING_CHARS = 200
"""... and this many characters."""
BOLD_HEADING_CHARS = 80
"""A bold line at the body size is a heading when it stands alone, at most this long, and does
not end a sentence."""


def geometric_blocks(o: Any, page: PageContext, indices: Sequence[int], styles: Styles) -> list[MdBlock]:
    """The page's glyphs ``indices`` as Markdown blocks (see the module docstring); ``o`` is
    the Markdown assembler (its options)."""
    if not len(indices):
        return []
    geometry = rules_geometry(o, page, indices)
    lines = geometry.lines
    if not lines:
        return []
    _text, order = geometric_choice(o, page, indices)
    rank = _ranks(order)
    entries: list[tuple[int, Any]] = []  # (rank, a table block or (parent line, piece))
    in_tables: set[int] = set()
    if o.tables:
        for grid in find_grids(lines, geometry.advance, min_rows=o.min_rows, min_width=o.min_width):
            rows = tuple(tuple(Cell(text=one_line(o, geometry.line_text(cell)), glyphs=tuple(cell.glyphs))
                               if cell is not None else Cell(text="", glyphs=()) for cell in row) for row in grid)
            block = MdBlock(kind="table", rows=rows)
            glyphs = block.reading_order()
            in_tables.update(glyphs)
            entries.append((min(map(rank, glyphs)), block))
    gap = order_thresholds(o, geometry)["gap"]
    texts = page.table.text
    for line in lines:
        marker: list[Line] = []
        for piece in (line.split(gap) if gap > 0 else [line]):
            kept = [g for g in piece.glyphs if g not in in_tables] if in_tables else piece.glyphs
            if not kept or (len(kept) < len(piece.glyphs) and all(not texts[g].strip() for g in kept)):
                continue  # in a table, but for the spaces that padded its cells
            if MARKER.fullmatch(piece.text.strip()) and piece is not line:
                marker.append(piece)  # a bullet set apart from its text goes with the text
                continue
            ranks = [r for r in map(rank, kept) if r >= 0]
            if ranks:
                entries.append((min(ranks), (line, [*marker, piece])))
            marker = []
        if marker:
            ranks = [r for piece in marker for r in map(rank, piece.glyphs) if r >= 0]
            if ranks:
                entries.append((min(ranks), (line, marker)))
    entries.sort(key=lambda entry: entry[0])
    return _Shaper(o, page, geometry, styles).blocks(_markers_joined([entry for _, entry in entries]))


def _markers_joined(entries: list[Any]) -> list[Any]:
    """The entries with a bullet or number that stands alone (a line of its own: set in
    another font or raised) put in front of the text read next, when that text is on its
    baseline to its right."""
    out: list[Any] = []
    for entry in entries:
        previous = out[-1] if out else None
        if (previous is not None and not isinstance(previous, MdBlock) and not isinstance(entry, MdBlock)
                and MARKER.fullmatch(" ".join(piece.text for piece in previous[1]).strip())):
            mark, line = previous[1][-1], entry[1][0]
            if abs(mark.across - line.across) <= 0.5 * max(mark.height, line.height) and line.start >= mark.end:
                out[-1] = (entry[0], [*previous[1], *entry[1]])
                continue
        out.append(entry)
    return out


def _starts_item(text: str) -> bool:
    """Whether ``text`` (a line's) starts with a list item's marker: a bullet, a number or a letter."""
    return bool(_BULLET.match(text) or _NUMBERED.match(text) or _LETTERED.match(text))


def _ranks(order: Sequence[int] | None) -> Any:
    if order is None:
        return int
    ranks: dict[int, int] = {}
    for position, g in enumerate(order):
        ranks.setdefault(g, position)
    return lambda g: ranks.get(g, -1)


class _Shaper:
    def __init__(self, o: Any, page: PageContext, geometry: PageGeometry, styles: Styles) -> None:
        self.o = o
        self.geometry = geometry
        self.styles = styles
        self.sizes = page.table.page_size
        self.block_of = {id(line): k for k, block in enumerate(geometry.blocks) for line in block.lines}
        self.links = page.links

    def blocks(self, entries: list[Any]) -> list[MdBlock]:
        # rows: consecutive pieces of one line of the rules; groups: consecutive rows of one block
        groups: list[Any] = []
        for entry in entries:
            if isinstance(entry, MdBlock):
                groups.append(entry)
                continue
            line, pieces = entry
            block = self.block_of.get(id(line), -1)
            if groups and isinstance(groups[-1], list) and groups[-1][0] == block:
                rows = groups[-1][1]
                if rows[-1][0] is line:
                    rows[-1][1].extend(pieces)
                else:
                    rows.append((line, list(pieces)))
            else:
                groups.append([block, [(line, list(pieces))]])
        body = self._body_size(entries)
        shaped: list[tuple[str, Any]] = []
        for group in groups:
            if isinstance(group, MdBlock):
                shaped.append(("table", group))
            else:
                shaped.extend(self._group(group[1], body))
        levels = sorted({size for kind, size in ((k, v[1]) for k, v in shaped if k == "heading-size")},
                        reverse=True)[:5]
        out: list[MdBlock] = []
        for kind, value in shaped:
            if kind == "heading-size":
                text, size, glyphs = value
                level = levels.index(size) + 1 if size in levels else len(levels)
                out.append(MdBlock(kind="heading", level=level, text=text, glyphs=glyphs))
            elif kind == "heading-bold":
                text, glyphs = value
                out.append(MdBlock(kind="heading", level=min(len(levels) + 1, 6), text=text, glyphs=glyphs))
            else:
                out.append(value)
        return out

    def _body_size(self, entries: list[Any]) -> float:
        weights: Counter[float] = Counter()
        for entry in entries:
            if not isinstance(entry, MdBlock):
                for piece in entry[1]:
                    weights[self._size(piece)] += len(piece.glyphs)
        return weights.most_common(1)[0][0] if weights else 0.0

    def _size(self, line: Line) -> float:
        """The line's font size on the page, to the half point (0 where it is not a number)."""
        size = float(self.sizes[line.glyphs[0]])
        return round(size * 2) / 2 if math.isfinite(size) else 0.0

    def _group(self, rows: list[tuple[Line, list[Line]]], body: float) -> list[tuple[str, Any]]:
        """One block of the rules' lines: a heading, list items or a paragraph."""
        texts = [" ".join(self.geometry.line_text(piece) for piece in pieces).strip() for _line, pieces in rows]
        glyphs = tuple(g for _line, pieces in rows for piece in pieces for g in piece.glyphs)
        if not any(texts):
            return []
        cut = self._bold_line(rows, texts)
        if cut is not None:
            # a short bold line among plain ones: a heading on its own line (a run-in head)
            first = tuple(g for piece in rows[cut][1] for g in piece.glyphs)
            return [*self._group(rows[:cut], body), ("heading-bold", (one_line(self.o, texts[cut]), first)),
                    *self._group(rows[cut + 1:], body)]
        if _starts_item(texts[0]):
            return self._items(rows, texts, body)
        cut = self._indented(rows)
        if cut:
            # paragraphs told apart by their first line's indent alone (TeX's, a book's)
            return [*self._group(rows[:cut], body), *self._group(rows[cut:], body)]
        size = max(self._size(pieces[0]) for _line, pieces in rows)
        raw = "\n".join(texts)
        if self.o.headings and body > 0 and len(rows) <= HEADING_LINES and len(raw) <= HEADING_CHARS:
            if size >= body * self.o.heading_ratio:
                return [("heading-size", (one_line(self.o, raw), size, glyphs))]
            bold, _italic = self.styles.of(glyphs)
            if (bold and len(rows) == 1 and len(raw) <= BOLD_HEADING_CHARS and size >= body * 0.95
                    and not raw.rstrip().endswith((".", ",", ";", ":")) and self.o.bold_headings):
                return [("heading-bold", (one_line(self.o, raw), glyphs))]
        return [("paragraph", MdBlock(kind="paragraph", text=self._styled(rows), glyphs=glyphs))]

    def _bold_line(self, rows: list[tuple[Line, list[Line]]], texts: list[str]) -> int | None:
        """The first row of a block of several that is wholly bold, short and not a sentence's
        end, between rows that are not bold: a heading set in the block; None if none."""
        if len(rows) < 2 or not self.o.bold_headings:
            return None
        bold = [self.styles.of([g for piece in pieces for g in piece.glyphs])[0] for _line, pieces in rows]
        for k, text in enumerate(texts):
            if (bold[k] and len(text) <= BOLD_HEADING_CHARS and not text.rstrip().endswith((".", ",", ";"))
                    and (k == 0 or not bold[k - 1]) and (k + 1 == len(rows) or not bold[k + 1])
                    and not (_BULLET.match(text) or _NUMBERED.match(text))):
                return k
        return None

    def _indented(self, rows: list[tuple[Line, list[Line]]]) -> int:
        """Where the second paragraph of a block starts when its paragraphs are told apart by
        an indented first line (the row starts at least an advance right of the rows around
        it, which start together): its position, or 0."""
        advance = self.geometry.advance
        if len(rows) < 3 or advance <= 0:
            return 0
        starts = [pieces[0].start for _line, pieces in rows]
        left = min(starts)
        for k in range(1, len(rows) - 1):
            if (starts[k] - left >= advance and starts[k] - left <= 6 * advance
                    and abs(starts[k - 1] - left) < 0.5 * advance and abs(starts[k + 1] - left) < 0.5 * advance):
                return k
        return 0

    def _items(self, rows: list[tuple[Line, list[Line]]], texts: list[str], body: float) -> list[tuple[str, Any]]:
        items: list[tuple[list[str], list[int]]] = []
        margin = rows[0][1][0].start + 0.5 * self.geometry.advance
        after: list[tuple[str, Any]] = []
        for k, ((_line, pieces), text) in enumerate(zip(rows, texts, strict=True)):
            glyphs = [g for piece in pieces for g in piece.glyphs]
            if not items or _starts_item(text):
                items.append(([text], glyphs))
            elif pieces[0].start > margin:  # a continuation, hanging under the item's text
                items[-1][0].append(text)
                items[-1][1].extend(glyphs)
            else:  # back at the markers' margin without a marker: the list has ended
                after = self._group(rows[k:], body)
                break
        out: list[tuple[str, Any]] = []
        for lines, glyphs in items:
            first = lines[0]
            marker = "-"
            number = _NUMBERED.match(first)
            bullet = _BULLET.match(first)
            if number:
                marker, first = f"{number.group(1)}.", first[number.end():]
            elif bullet:
                first = first[bullet.end():]
            text = one_line(self.o, "\n".join([first, *lines[1:]]))
            out.append(("item", MdBlock(kind="item", marker=marker, text=text, glyphs=tuple(glyphs))))
        return out + after

    def _styled(self, rows: list[tuple[Line, list[Line]]]) -> str:
        """The paragraph's text on one line, with emphasis where a run of words is bold or
        italic (the whole paragraph at once when all of it is), and links where words lie in a
        link annotation's rectangle."""
        pieces = [piece for _line, row in rows for piece in row]
        plain = "\n".join(" ".join(self.geometry.line_text(piece) for piece in row) for _line, row in rows)
        if any(has_rtl(piece.text) for piece in pieces) or not (self.o.emphasis or self.links):
            return one_line(self.o, plain)
        bold, italic = self.styles.of([g for piece in pieces for g in piece.glyphs]) if self.o.emphasis else (False, False)
        words = [(n, word) for n, (_line, row) in enumerate(rows) for piece in row for word in piece.words]
        targets = [self._link(word.glyphs) for _n, word in words]
        if not any(targets):
            if bold or italic:
                return decorate(one_line(self.o, plain), bold=bold, italic=italic)
            if not self.o.emphasis:
                return one_line(self.o, plain)
        return self._emphasised(words, targets)

    def _emphasised(self, words: list[tuple[int, Any]], targets: list[str | None]) -> str:
        """Words (with their row) on one line, runs of one style (bold, italic, link) decorated."""
        runs: list[tuple[Style, list[str]]] = []
        previous = -1
        for (row, word), target in zip(words, targets, strict=True):
            bold, italic = self.styles.of(word.glyphs) if self.o.emphasis else (False, False)
            style = (bold, italic, target)
            text = word.text if self.o.ligatures else expand_ligatures(word.text)
            sep = "" if previous < 0 else "\n" if row != previous else " "
            previous = row
            if runs and runs[-1][0] == style:
                runs[-1][1].append(sep + text)
            else:
                runs.append((style, [sep + text]))
        return one_line(self.o, decorated(runs))

    def _link(self, glyphs: list[int]) -> str | None:
        """The URI of the link whose rectangle holds the centre of ``glyphs``, or None."""
        if not self.links:
            return None
        x0, y0, x1, y1 = self.geometry.builder.box(sorted(glyphs))
        x, y = (x0 + x1) / 2, (y0 + y1) / 2
        for lx0, ly0, lx1, ly1, uri in self.links:
            if lx0 <= x <= lx1 and ly0 <= y <= ly1:
                return uri
        return None
