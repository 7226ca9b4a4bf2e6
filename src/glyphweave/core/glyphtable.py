"""A page's glyphs as compact runs, expanded into columns on demand.

The interpreter records one *run* per shown string (a ``Tj`` operand, one string of a
``TJ`` array, ...): the matrix that maps text space to user space at the start of the
string, the per-glyph pen offsets along the writing axis, and the decoded text. That is
all the per-glyph work the hot path does (PERFORMANCE.md: a record per glyph costs more
than the whole interpreter).

Stages read *columns*: parallel lists indexed by paint order (``table.ox[i]`` is the x of
glyph ``i``'s origin). Filters pass around lists of glyph indices, not copies. The public
:class:`~glyphweave.core.glyph.Glyph` record is built only when asked for.

Geometry conventions (all in page user space):

* ``ox, oy``: origin (baseline start, after rise); ``ex, ey``: end of the glyph's own
  advance (×Tz, without Tc/Tw); ``px, py``: pen end (the full displacement).
* ``dx, dy``: unit vector of the writing direction (right along the baseline in writing
  mode 0, down the column in writing mode 1).
* ``lox, loy`` and ``hix, hiy``: vectors from the baseline to the descent and ascent lines
  (writing mode 1: to the left and right edges of the column), so the quad is
  ``origin+lo, end+lo, end+hi, origin+hi``; ``height`` is ``|hi - lo|``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import attrs

from glyphweave.core.glyph import FontRef, Glyph

# One run: see GlyphTable.add_run for the meaning of each field.
_Run = tuple[Any, ...]


@attrs.define(slots=True)
class GlyphTable:
    """The glyphs of one page in paint order; columns are built on first access."""

    fonts: list[FontRef] = attrs.field(factory=list)
    _runs: list[_Run] = attrs.field(factory=list)
    _count: int = 0
    _cols: dict[str, list[Any]] | None = None

    # -- building (interpreter side) -------------------------------------------------
    def font_index(self, ref: FontRef) -> int:
        """Index of ``ref`` in :attr:`fonts`, appending it on first use."""
        try:
            return self.fonts.index(ref)
        except ValueError:
            self.fonts.append(ref)
            return len(self.fonts) - 1

    def add_run(
        self,
        *,
        font: int,
        size: float,
        matrix: tuple[float, float, float, float, float, float],
        rise: float,
        wmode: int,
        codes: Sequence[Any],
        cids: Sequence[int] | None,
        decoded: Sequence[tuple[str, str | None]],
        starts: Sequence[float],
        advances: Sequence[float],
        pens: Sequence[float],
        lo: float,
        hi: float,
        render: int,
        mcid: int | None,
        tag: str | None,
        actual_text: str | None,
        token: int,
    ) -> None:
        """Record one shown string.

        ``matrix`` maps text space to user space at the start of the string (Tm × CTM).
        ``starts[i]`` is glyph i's pen offset along the writing axis in text space
        (x for writing mode 0, y for writing mode 1), ``advances[i]`` its own advance
        (signed, along the same axis) and ``pens[i]`` the offset after its full
        displacement. ``lo``/``hi`` are the descent/ascent (writing mode 1: left/right
        half-width) offsets across the axis, in text space. ``codes`` are ints for
        simple fonts, bytes for composite fonts; ``decoded[i]`` is (text, decoder name
        or None when unresolved).
        """
        n = len(codes)
        if not n:
            return
        self._runs.append(
            (font, size, matrix, rise, wmode, codes, cids, decoded, starts, advances, pens,
             lo, hi, render, mcid, tag, actual_text, token)
        )
        self._count += n
        self._cols = None

    def extend(self, other: GlyphTable) -> None:
        """Append another table's runs (fonts are re-indexed)."""
        remap = [self.font_index(ref) for ref in other.fonts]
        for run in other._runs:
            self._runs.append((remap[run[0]],) + run[1:])
        self._count += other._count
        self._cols = None

    def __len__(self) -> int:
        return self._count

    # -- columns (stage side) -----------------------------------------------------------
    def columns(self) -> dict[str, list[Any]]:
        """All columns, built once (see the module docstring for their meaning)."""
        if self._cols is None:
            self._cols = _expand(self._runs)
        return self._cols

    def __getattr__(self, name: str) -> list[Any]:
        # Only reached for names that are not attributes: column access (table.ox).
        if name.startswith("_"):
            raise AttributeError(name)
        cols = self.columns()
        try:
            return cols[name]
        except KeyError:
            raise AttributeError(f"GlyphTable has no column {name!r}") from None

    def unresolved(self, i: int) -> bool:
        return self.columns()["decoded_by"][i] is None

    def glyph(self, i: int) -> Glyph:
        """The public record of glyph ``i``."""
        c = self.columns()
        ox, oy, ex, ey = c["ox"][i], c["oy"][i], c["ex"][i], c["ey"][i]
        lox, loy, hix, hiy = c["lox"][i], c["loy"][i], c["hix"][i], c["hiy"][i]
        code = c["code"][i]
        if isinstance(code, int):
            code = bytes((code,))
        return Glyph(
            text=c["text"][i],
            unresolved=c["decoded_by"][i] is None,
            code=code,
            cid=c["cid"][i],
            font=self.fonts[c["font"][i]],
            font_size=c["size"][i],
            origin=(ox, oy),
            glyph_end=(ex, ey),
            pen_end=(c["px"][i], c["py"][i]),
            quad=((ox + lox, oy + loy), (ex + lox, ey + loy), (ex + hix, ey + hiy), (ox + hix, oy + hiy)),
            box_height=c["height"][i],
            writing_mode=c["wmode"][i],
            mcid=c["mcid"][i],
            tag=c["tag"][i],
            actual_text=c["actual_text"][i],
            token_index=c["token"][i],
            paint_order=i,
            render_mode=c["render"][i],
            decoded_by=c["decoded_by"][i],
        )

    def glyphs(self, indices: Sequence[int] | None = None) -> list[Glyph]:
        return [self.glyph(i) for i in (range(self._count) if indices is None else indices)]


COLUMN_NAMES = (
    "text", "decoded_by", "code", "cid", "font", "size", "wmode",
    "ox", "oy", "ex", "ey", "px", "py", "dx", "dy", "lox", "loy", "hix", "hiy", "height",
    "render", "mcid", "tag", "actual_text", "token",
)


def _expand(runs: list[_Run]) -> dict[str, list[Any]]:
    cols: dict[str, list[Any]] = {name: [] for name in COLUMN_NAMES}
    text, decoded_by = cols["text"], cols["decoded_by"]
    ox, oy, ex, ey, px, py = cols["ox"], cols["oy"], cols["ex"], cols["ey"], cols["px"], cols["py"]
    for (font, size, (a, b, c, d, e, f), rise, wmode, codes, cids, decoded, starts, advances, pens,
         lo, hi, render, mcid, tag, actual_text, token) in runs:
        n = len(codes)
        text.extend([t for t, _ in decoded])
        decoded_by.extend([by for _, by in decoded])
        cols["code"].extend(codes)
        cols["cid"].extend(cids if cids is not None else [None] * n)
        if wmode == 0:
            # text-space point (s, rise) -> user space
            bx, by_ = e + c * rise, f + d * rise
            ox.extend([bx + a * s for s in starts])
            oy.extend([by_ + b * s for s in starts])
            ends = [s + w for s, w in zip(starts, advances)]
            ex.extend([bx + a * s for s in ends])
            ey.extend([by_ + b * s for s in ends])
            px.extend([bx + a * s for s in pens])
            py.extend([by_ + b * s for s in pens])
            ax, ay = a, b            # writing axis in user space
            nx, ny = c, d            # across axis
        else:
            # text-space point (0, s): vertical pen moves along text y (down for negative s)
            bx, by_ = e, f
            ox.extend([bx + c * s for s in starts])
            oy.extend([by_ + d * s for s in starts])
            ends = [s + w for s, w in zip(starts, advances)]
            ex.extend([bx + c * s for s in ends])
            ey.extend([by_ + d * s for s in ends])
            px.extend([bx + c * s for s in pens])
            py.extend([by_ + d * s for s in pens])
            ax, ay = -c, -d          # reading goes down the column
            nx, ny = a, b
        norm = math.hypot(ax, ay) or 1.0
        cols["dx"].extend([ax / norm] * n)
        cols["dy"].extend([ay / norm] * n)
        lox, loy, hix, hiy = nx * lo, ny * lo, nx * hi, ny * hi
        cols["lox"].extend([lox] * n)
        cols["loy"].extend([loy] * n)
        cols["hix"].extend([hix] * n)
        cols["hiy"].extend([hiy] * n)
        cols["height"].extend([math.hypot(hix - lox, hiy - loy)] * n)
        cols["font"].extend([font] * n)
        cols["size"].extend([size] * n)
        cols["wmode"].extend([wmode] * n)
        cols["render"].extend([render] * n)
        cols["mcid"].extend([mcid] * n)
        cols["tag"].extend([tag] * n)
        cols["actual_text"].extend([actual_text] * n)
        cols["token"].extend([token] * n)
    return cols
