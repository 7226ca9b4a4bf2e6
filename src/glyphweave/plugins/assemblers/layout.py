"""``layout``: the page as a monospace character grid, the class of ``pdftotext -layout``
(rules: assembly).

Reading order flattens a page into lines of prose; some pages mean what they mean through
*where* things are: a form's labels and boxes, a table's columns, a two-column paper read
side by side, indented code. This assembler keeps the places: each run of words goes to
the grid column its position gives, rows follow the baselines top-down, and large vertical
gaps become blank lines, so columns, indentation and table cells survive as spaces.

It reads the shared page geometry (``glyphweave.layout.page_geometry``), so its words and
lines are the ones the reading assembler sees, under the same rules and options; it is
written on ``glyphweave.plugin`` and ``glyphweave.layout`` alone, as a third-party
assembler would be.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from glyphweave.layout import Line, PageGeometry, direction_groups, expand_ligatures, has_rtl
from glyphweave.layout.median import median
from glyphweave.plugin import Assembled, Assembler, Option, PageContext, hookimpl

from ._shared import RULE_OPTIONS, RuleOptions, finished_read, rows_order, rules_geometry

__all__ = ["LayoutAssembler", "glyphweave_register_assemblers"]

SAME_DIRECTION = 0.99
"""Cosine above which a direction group reads the way the displayed page is upright."""

JUSTIFIED = 1.5
"""On a line of prose, a gap up to this many times the line's median word space is a word
space, however wide (justified text stretches its spaces; a column gutter is wider)."""

PROSE_SPACE = 3.0
"""A line whose median word space is this many grid cells or more is not prose (a table row
of one-word cells): its wide gaps all start runs."""

# Characters that would break the grid: controls and what str.splitlines() treats as a line end.
_BREAKERS = {c: " " for c in [*range(0x00, 0x20), 0x7F, 0x85, 0x2028, 0x2029]}


class _Piece:
    """A run of words of one line, placed in a frame: where it is and what it says."""

    __slots__ = ("across", "height", "k", "size", "start", "text")

    def __init__(self, across: float, start: float, height: float, size: float, text: str) -> None:
        self.across = across
        self.start = start
        self.height = height
        """Box height (for vertical writing, the column width): how near a baseline shares the row."""
        self.size = size
        """Font size on the page: the unit of the distance to the next row."""
        self.text = text
        self.k: int | None = None
        """Its grid position, ``round((start - left) / cell)``; None past the row's width."""


class LayoutAssembler(Assembler, RuleOptions):
    """The page as a monospace grid: columns, indentation, tables and blank lines kept as spaces.

    * **Frame.** The lines are grouped by writing direction; the group with the most
      glyphs is the page's main frame (on a tie, the group that reads upright on the
      displayed page, ``/Rotate`` applied). A frame's columns run along its direction and
      its rows follow the reading progression (down the page for horizontal text), so a
      ``/Rotate 90`` page whose text runs up the paper, or an unrotated page printed
      sideways, comes out as it reads on screen. Text in other directions (a rotated
      label, a watermark) follows the main grid after a blank line, each direction group
      laid out the same way in its own frame, most glyphs first; it never interleaves
      with the main text.
    * **Vertical writing** (writing mode 1) is a direction group like any other: its
      direction points down the column and its progression leftwards, so it comes out
      *transposed*: each column of the page is one row of the output, the rightmost
      column first, read top-down along the row (which keeps the characters of a column
      together and searchable, where ``pdftotext -layout`` spreads them one per row).
    * **Grid.** A cell is ``cell_width`` points wide, or, when 0, the group's typical
      glyph advance: the median, weighted by glyph count, of the mean advance per glyph
      of the pieces its lines' wide gaps leave (the page geometry's ``advance`` measured
      without the gaps between table cells, which would otherwise widen it).
    * **Runs.** A line's words (as the reading rules cut them; painted spaces, such as
      groff's padding of table cells, are gaps like any other) are joined by single
      spaces into runs, cut at gaps of at least ``run_gap`` cells: a column gutter, a
      table cell boundary, a form's spacing. On a line of prose (median word space
      under :data:`PROSE_SPACE` cells) a gap up to :data:`JUSTIFIED` times the median is
      still a word space, so justified text does not sprout double spaces.
    * **Columns.** A run's grid position is ``round((start - left) / cell)``, ``left``
      being the leftmost text of the group (as in ``pdftotext -layout``, no empty
      margin; never left of the page's edge). Each grid position then gets an output
      column: the position itself, moved right as far as the runs before it in any row
      need (their text and one space) and as far as the positions left of it moved. So
      runs that start together stay in one column on every row, and order and spacing
      are kept, even where proportional text is longer in characters than its cells
      (a justified column of narrow letters pushes the next column right on *every*
      row, instead of breaking its alignment on the rows where it overflows).
    * **Rows.** Runs whose baselines are within half a box height (of the larger) share a
      row, rows sorted top-down. Between two rows, a baseline distance of ``n`` whole
      line steps (``blank_gap`` times the upper row's largest font size) leaves ``n - 1``
      blank lines, at most ``max_blank`` (``pdftotext -layout``'s rule with a step of one
      font size: single-spaced text, leading up to twice the size, has none; a paragraph
      separated by an empty line has one; double-spaced text has one between its lines).
    * **Degenerate geometry never raises nor blows up.** A row is at most ``max_width``
      columns wide: a run whose column lies past it is appended after a single space
      (the row grows only by its text). A line whose position is not finite (NaN or
      infinite matrix) is appended after the grid, one line each, in paint order; the
      cell falls back to the line heights (and then to one point) when advances are zero
      or not finite; blank lines are capped, so a glyph a mile below the page adds at
      most ``max_blank`` of them.
    * Text is the geometry's normalized line text: Latin ligatures expanded (unless
      ``ligatures``), mathematical letters folded (unless ``math_letters``), right-to-left
      runs in logical order; control characters become spaces. No line is joined to
      another (the grid keeps places): a soft hyphen at a line end shows as the hyphen the
      page draws, elsewhere it is dropped. Output: trailing spaces stripped per line, blank lines inside the page kept
      as layout, none leading or trailing; a non-empty page ends with "\\n".

    ``word_gap``, ``line_gap``, ``back_jump``, ``ligatures`` and ``math_letters`` are the reading rules'
    options (same meanings and defaults as the ``reading`` assembler's).
    """

    NAME = "layout"
    OPTIONS = {
        **RULE_OPTIONS,
        "cell_width": Option(
            default=0.0, minimum=0.0, maximum=10000.0,
            doc="Width of one grid column in points; 0: the typical glyph advance of the text.",
        ),
        "run_gap": Option(
            default=1.5, minimum=0.0, maximum=1000.0,
            doc="A gap between two words of at least this many grid cells starts a run placed at its own "
            "column (smaller gaps, and evenly stretched spaces of justified prose, are one space).",
        ),
        "blank_gap": Option(
            default=1.0, minimum=0.0, maximum=1000.0,
            doc="One line step in font sizes (of the upper row): a baseline distance of n whole steps between "
            "two rows leaves n - 1 blank lines (0: no blank lines).",
        ),
        "max_blank": Option(
            default=2, minimum=0, maximum=1000,
            doc="At most this many blank lines in a row.",
        ),
        "max_width": Option(
            default=1000, minimum=1, maximum=1_000_000,
            doc="Widest row in columns: a run placed past it is appended after a single space.",
        ),
    }

    cell_width: float
    run_gap: float
    blank_gap: float
    max_blank: int
    max_width: int

    def assemble(self, page: PageContext, indices: Sequence[int]) -> str | Assembled:
        if not len(indices):
            return ""
        geo = rules_geometry(self, page, indices)
        page.check_time()  # the walk is the cheapest text's too; what follows is layout's own
        placed: list[Line] = []
        unplaced: list[Line] = []
        for line in geo.lines:
            (placed if _finite(line.ux, line.uy, line.across, line.start, line.end) else unplaced).append(line)
        out: list[str] = []
        read: list[Line] = []  # the lines as the grid reads them: frame by frame, rows down, pieces along
        for group in _frames(direction_groups(placed), page.rotate):
            if out:
                out.append("")
            out.extend(self._grid(geo, group, page))
            read.extend(_grid_order(group))
        if unplaced:
            if out:
                out.append("")
            out.extend(_clean(geo.line_text(line)) for line in unplaced)
            read.extend(unplaced)
        return finished_read(self, (_finish(out), rows_order([read])))

    # -- one frame ---------------------------------------------------------------------
    def _grid(self, geo: PageGeometry, lines: list[Line], page: PageContext) -> list[str]:
        """The rows of text of ``lines`` (one direction group) in the frame of the first
        (the page's time checked every 256 lines)."""
        cropbox = page.cropbox
        ux, uy = lines[0].ux, lines[0].uy
        heights = [ln.height for ln in lines if _finite(ln.height) and ln.height > 0]
        typical_height = median(heights) if heights else 0.0
        cell = self._cell(lines, typical_height)
        split = self.run_gap * cell
        pieces: list[_Piece] = []
        stray: list[str] = []  # pieces whose place in this frame is not finite
        sizes = geo.table.page_size
        for n, line in enumerate(lines):
            if not n & 255:
                page.check_time()
            height = line.height if _finite(line.height) and line.height > 0 else typical_height
            size = sizes[line.glyphs[0]]
            if not (_finite(size) and size > 0):
                size = height
            across, _start = _place(line, ux, uy)
            for start, text in self._runs(geo, line, ux, uy, split, cell):
                text = _clean(text).rstrip()
                if not text:
                    continue
                if _finite(across, start):
                    pieces.append(_Piece(across, start, height, size, text))
                else:
                    stray.append(text)
        if not pieces:
            return stray
        left = min(p.start for p in pieces)
        edge = min(x * ux + y * uy for x in (cropbox[0], cropbox[2]) for y in (cropbox[1], cropbox[3]))
        if _finite(edge):
            left = max(left, edge)
        for piece in pieces:
            k = (piece.start - left) / cell
            piece.k = max(0, round(k)) if _finite(k) and k <= self.max_width else None
        page.check_time()
        rows = _rows(pieces)
        columns = self._columns(rows)
        out: list[str] = []
        previous: list[_Piece] | None = None
        for row in rows:
            if previous is not None:
                out.extend([""] * self._blanks(previous, row))
            out.append(self._render(row, columns))
            previous = row
        return out + stray

    def _runs(self, geo: PageGeometry, line: Line, ux: float, uy: float, split: float,
              cell: float) -> list[tuple[float, str]]:
        """The runs of ``line`` (where each starts along the frame, its text): its words,
        cut where the gap between two exceeds ``split``, joined by single spaces. Painted
        spaces (a producer padding table cells with space glyphs) are gaps like any other.
        A line with right-to-left script is cut at its wide gaps instead and each piece
        takes the geometry's logical-order text (words are in paint order)."""
        if has_rtl(line.text):
            return [(_place(part, ux, uy)[1], geo.line_text(part))
                    for part in (line.split(split) if split > 0 else [line])]
        same = line.ux == ux and line.uy == uy
        words = [(w.start, w.end, w.text) if same else (*_span(w.box, ux, uy), w.text) for w in line.words]
        words.sort(key=lambda w: w[0] if _finite(w[0]) else math.inf)
        split = self._justified(words, split, cell)
        runs: list[tuple[float, str]] = []
        texts: list[str] = []
        first = end = 0.0
        for w_start, w_end, text in words:
            if texts and w_start - end >= split:  # a word without a finite place joins the run
                runs.append((first, " ".join(texts)))
                texts = []
            if texts:
                end = max(end, w_end)
            else:
                first, end = w_start, w_end
            texts.append(text)
        if texts:
            runs.append((first, " ".join(texts)))
        if not self.ligatures:
            runs = [(start, expand_ligatures(text)) for start, text in runs]
        return runs

    @staticmethod
    def _justified(words: list[tuple[float, float, str]], split: float, cell: float) -> float:
        """The run gap of a line of ``words`` (start, end, text; sorted): ``split``, or for a
        justified line, whose word spaces are stretched evenly, up to :data:`JUSTIFIED` times
        its median word space (when that is under :data:`PROSE_SPACE` cells: a table row
        whose every gap is wide is not prose)."""
        gaps = [b[0] - a[1] for a, b in zip(words, words[1:], strict=False)]
        gaps = [g for g in gaps if _finite(g)]
        if len(gaps) < 2:
            return split
        typical = median(gaps)
        if 0 < typical < PROSE_SPACE * cell:
            return max(split, JUSTIFIED * typical)
        return split

    def _cell(self, lines: list[Line], typical_height: float) -> float:
        """The grid cell of a group in user space: the option, or the typical advance: the
        median, weighted by glyph count, of the mean advance per glyph of the pieces the
        lines' wide gaps leave (so a table row's cell gaps do not count as advance)."""
        if self.cell_width > 0:
            return self.cell_width
        means: list[tuple[float, int]] = []
        for line in lines:
            for part in line.split(0.0):
                n = len(part.glyphs)
                mean = (part.end - part.start) / n
                if _finite(mean) and mean > 0:
                    means.append((mean, n))
        if means:
            means.sort()
            half = sum(n for _m, n in means) / 2
            seen = 0
            for mean, n in means:
                seen += n
                if seen >= half:
                    return mean
        return typical_height / 2 if _finite(typical_height) and typical_height > 0 else 1.0

    def _blanks(self, above: list[_Piece], below: list[_Piece]) -> int:
        """Blank lines between two consecutive rows (see the class docstring)."""
        if self.blank_gap <= 0 or self.max_blank <= 0:
            return 0
        size = max(p.size for p in above)
        distance = above[0].across - below[0].across
        if not (_finite(size, distance) and size > 0):
            return 0
        steps = distance / (self.blank_gap * size)
        if not _finite(steps):
            return self.max_blank
        return max(0, min(self.max_blank, math.floor(steps) - 1))

    def _columns(self, rows: list[list[_Piece]]) -> dict[int, int]:
        """The output column of each grid position: the position itself, moved right as far
        as the runs before it in any row need (their text and one space) and as far as the
        positions before it moved, so runs that start together stay aligned and keep their
        order and spacing across the page even when text overflows its cells."""
        needs: dict[int, list[tuple[int, int]]] = {}  # k: (k of the run before, its length)
        for row in rows:
            before: _Piece | None = None
            for piece in row:
                if piece.k is None:
                    break
                if before is not None and before.k is not None and before.k < piece.k:
                    needs.setdefault(piece.k, []).append((before.k, len(before.text)))
                else:
                    needs.setdefault(piece.k, [])
                before = piece
        columns: dict[int, int] = {}
        shift = 0
        for k in sorted(needs):
            at = max([k + shift] + [columns[b] + n + 1 for b, n in needs[k]])
            columns[k] = at
            shift = at - k
        return columns

    def _render(self, row: list[_Piece], columns: dict[int, int]) -> str:
        """One row: each piece at its column, at least one space after the one before; a
        piece past ``max_width`` after a single space."""
        parts: list[str] = []
        width = 0
        for piece in row:
            at = columns.get(piece.k, 0) if piece.k is not None else width + 1
            if at > self.max_width:
                at = width + 1
            if width:
                at = max(at, width + 1)
            parts.append(" " * (at - width))
            parts.append(piece.text)
            width = at + len(piece.text)
        return "".join(parts)


def _grid_order(lines: list[Line]) -> list[Line]:
    """``lines`` (one direction group) in the order the grid reads them: rows down the frame
    of the first, then along each row (a line whose place is not finite last)."""
    ux, uy = lines[0].ux, lines[0].uy

    def key(line: Line) -> tuple[bool, float, float]:
        across, start = _place(line, ux, uy)
        if not _finite(across, start):
            return True, 0.0, 0.0
        height = line.height if _finite(line.height) and line.height > 0 else 1.0
        return False, -round(across / height), start  # baselines within about a line height share a row

    return sorted(lines, key=key)


def _finite(*values: float) -> bool:
    return all(math.isfinite(v) for v in values)


def _frames(groups: list[list[Line]], rotate: int) -> list[list[Line]]:
    """The direction groups, the main frame first: the most glyphs, and on a tie the group
    reading upright on the displayed page (``/Rotate``); then the others, most glyphs first."""
    if len(groups) < 2:
        return groups
    angle = math.radians(rotate % 360 if rotate in (0, 90, 180, 270) else 0)
    upright = (math.cos(angle), math.sin(angle))
    most = sum(len(ln.glyphs) for ln in groups[0])
    for k, group in enumerate(groups):
        if sum(len(ln.glyphs) for ln in group) < most:
            break
        if group[0].ux * upright[0] + group[0].uy * upright[1] > SAME_DIRECTION:
            return [group, *groups[:k], *groups[k + 1:]]
    return groups


def _place(line: Line, ux: float, uy: float) -> tuple[float, float]:
    """Where ``line`` lies in the frame of direction (ux, uy): its baseline across the frame
    (the normal (-uy, ux)) and where it starts along it."""
    if line.ux == ux and line.uy == uy:
        return line.across, line.start
    # a point of the baseline in user space (the line's own along/across), then projected
    px = line.start * line.ux - line.across * line.uy
    py = line.start * line.uy + line.across * line.ux
    return -px * uy + py * ux, _span(line.box, ux, uy)[0]


def _span(box: tuple[float, float, float, float], ux: float, uy: float) -> tuple[float, float]:
    """Where ``box`` starts and ends along the direction (ux, uy)."""
    x0, y0, x1, y1 = box
    proj = (x0 * ux + y0 * uy, x0 * ux + y1 * uy, x1 * ux + y0 * uy, x1 * ux + y1 * uy)
    return min(proj), max(proj)


def _rows(pieces: list[_Piece]) -> list[list[_Piece]]:
    """Pieces whose baselines lie within half a line height of the row's first piece (the
    larger of the two heights) share a row; rows top-down, pieces by start."""
    rows: list[list[_Piece]] = []
    for piece in sorted(pieces, key=lambda p: -p.across):
        if rows:
            first = rows[-1][0]
            if first.across - piece.across <= 0.5 * max(first.height, piece.height):
                rows[-1].append(piece)
                continue
        rows.append([piece])
    for row in rows:
        row.sort(key=lambda p: p.start)
    return rows


def _clean(text: str) -> str:
    return text.translate(_BREAKERS)


def _finish(lines: list[str]) -> str:
    """Trailing spaces stripped, leading and trailing blank lines dropped, blank lines inside
    kept; a non-empty page ends with a newline."""
    stripped = [line.rstrip() for line in lines]
    while stripped and not stripped[-1]:
        stripped.pop()
    first = 0
    while first < len(stripped) and not stripped[first]:
        first += 1
    return "\n".join(stripped[first:]) + "\n" if first < len(stripped) else ""


@hookimpl
def glyphweave_register_assemblers() -> list[type[Assembler]]:
    return [LayoutAssembler]
