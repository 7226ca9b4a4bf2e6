"""A page's glyphs as compact runs, expanded into columns on demand.

The interpreter records one *run* per shown string (a ``Tj`` operand, one string of a
``TJ`` array, ...): the matrix that maps text space to user space at the start of the
string, the per-glyph pen offsets along the writing axis, and the decoded text. That is
all the per-glyph work the hot path does: building a record per glyph would cost more
than interpreting the whole page.

The run records and what is computed from one run alone (its *frame*: base point and three
directions in user space from its matrix and writing mode; its geometry; the origins in a
box) live in :mod:`glyphweave.core.runs`: the writing mode is decided in one place.

Stages read *columns*: parallel lists indexed by paint order (``table.ox[i]`` is the x of
glyph ``i``'s origin). Filters pass around lists of glyph indices, not copies. A stage
that can decide a whole run at once reads :meth:`GlyphTable.runs` (bounds and direction
per run) and needs no columns. The public :class:`~glyphweave.core.glyph.Glyph` record
is built only when asked for.

Every column, by group (a group is built on first use of any of its columns). Lengths are
in page user space: PDF points (1/72 inch) unless the page sets /UserUnit, measured from the
MediaBox's origin at the bottom left, y up.

* text: ``text`` (the decoded text, "" when unresolved), ``decoded_by`` (the decoder that
  answered, None when unresolved).
* geometry: ``ox oy ex ey px py dx dy lox loy hix hiy height``, as below.
* marks: ``mcid`` (the marked-content id the glyph was painted in, None outside one).
* meta: ``code`` (int for simple fonts, bytes for composite ones), ``cid``, ``font`` (an
  index into :attr:`GlyphTable.fonts`), ``size`` (the ``Tf`` operand, in text-space units:
  *not* the size on the page), ``page_size`` (the size on the page in points: ``Tf`` times
  the scale of the text matrix and CTM across the baseline, so text at ``1 Tf`` drawn 24
  times larger by its matrix has page size 24), ``wmode`` (0 horizontal, 1 vertical),
  ``render`` (the ``Tr`` mode: 3 is invisible), ``tag`` and ``actual_text`` (of the marked
  content), ``token`` (the index of the operator in its content stream), ``annotation``
  (the :class:`~glyphweave.core.glyph.AnnotationRef` of the annotation that painted the
  glyph, None for the page's own content), ``fill`` and ``stroke`` (the colours it was
  painted in, RGB from 0 to 1, None where the colour space has no plain conversion).

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
from bisect import bisect_right
from collections.abc import Sequence
from operator import attrgetter
from typing import Any

import attrs

from glyphweave.core.glyph import FontRef, Glyph
from glyphweave.core.runs import (
    Run,
    RunFrame,
    RunGeometry,
    origins_within,
    points_along,
    run_axes,
    run_frame,
    run_page_size,
)

try:  # the compiled build: the same records, worked out in C
    from glyphweave.core._cruns import runs_geometry
except ImportError:  # a pure install: the reference
    from glyphweave.core.runs import runs_geometry

__all__ = ["GlyphTable", "Run", "RunFrame", "RunGeometry", "run_frame", "run_page_size"]

_CODES = attrgetter("codes")


@attrs.define(slots=True)
class GlyphTable:
    """The glyphs of one page in paint order; columns are built on first access."""

    fonts: list[FontRef] = attrs.field(factory=list)
    _runs: list[Run] = attrs.field(factory=list)
    _count: int = 0
    _cols: dict[str, list[Any]] | None = None
    _run_geometry: list[RunGeometry] | None = None
    _frames: list[RunFrame] | None = None
    font_infos: dict[int, Any] = attrs.field(factory=dict)
    """Font index -> the :class:`~glyphweave.core.fontinfo.FontInfo` the interpreter read it
    as (what a decoder saw): for tools that go back to the font of a glyph, such as the
    glyph registry's scan, which draws glyphs from the font program."""
    mcid_streams: dict[int, Any] = attrs.field(factory=dict)
    """Run index -> the form XObject (its object number and generation) whose content
    stream the run's MCID belongs to, for the runs whose marked content was opened inside
    a form; every other MCID belongs to the page's content (PDF §14.7.5.1: a structure
    element reaches such content through a marked-content reference with /Stm)."""

    # -- building (interpreter side) -------------------------------------------------
    def font_index(self, ref: FontRef) -> int:
        """Index of ``ref`` in :attr:`fonts`, appending it on first use."""
        fonts = self.fonts
        if ref in fonts:
            return fonts.index(ref)
        # Not list.index's ValueError: its message formats the record's repr, which cost
        # more than the page's other font bookkeeping together (once per font and page).
        fonts.append(ref)
        return len(fonts) - 1

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
        extent: tuple[float, float, float] | None = None,
        annotation: Any = None,
        fill: tuple[float, float, float] | None = None,
        stroke: tuple[float, float, float] | None = None,
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
        self.append(Run(
            font=font, size=size, matrix=matrix, rise=rise, wmode=wmode, codes=codes, cids=cids, decoded=decoded,
            starts=starts, advances=advances, pens=pens, lo=lo, hi=hi, render=render, mcid=mcid, tag=tag,
            actual_text=actual_text, token=token, extent=extent, annotation=annotation, fill=fill, stroke=stroke,
        ))

    def append(self, run: Run) -> None:
        """Record a run built by the caller: :meth:`add_run` without the keywords. An empty
        run is ignored."""
        self.extend((run,))

    def extend(self, runs: Sequence[Run]) -> None:
        """Record many runs built by the caller at once, as the interpreter hands over a
        page's runs when the page ends (a call per shown string cost it about 2% of its
        time). Empty runs are ignored."""
        codes = list(map(_CODES, runs))
        if not all(codes):
            runs = [run for run in runs if run.codes]
            codes = list(filter(None, codes))
        if runs:
            self._runs.extend(runs)
            self._count += sum(map(len, codes))
            self._cols = None
            self._run_geometry = None
            self._frames = None

    def __len__(self) -> int:
        return self._count

    # -- columns (stage side) -----------------------------------------------------------
    def columns(self) -> dict[str, list[Any]]:
        """All columns (see the module docstring for their meaning)."""
        for group in _GROUPS:
            self._group(group)
        assert self._cols is not None
        return self._cols

    def _group(self, group: str) -> dict[str, list[Any]]:
        cols = self._cols
        if cols is None:
            cols = self._cols = {}
        if _GROUPS[group][0] not in cols:
            cols.update(_EXPANDERS[group](self._runs))
        return cols

    def __getattr__(self, name: str) -> list[Any]:
        # Only for names that are not attributes (table.ox): columns, a group at a time, built on first use.
        group = _COLUMN_GROUP.get(name)
        if group is None:
            raise AttributeError(f"GlyphTable has no column {name!r}")
        return self._group(group)[name]

    def raw_runs(self) -> list[Run]:
        """The runs as recorded, in paint order (run k: glyphs ``runs()[k].start`` to ``.end``); not to modify."""
        return self._runs

    def runs(self) -> list[RunGeometry]:
        """Per-run geometry, computed without per-glyph work (cached): a run is a straight string of
        glyphs, so whole-run decisions (inside a box, far from every other run) spare most per-glyph tests."""
        if self._run_geometry is None:
            self._run_geometry, self._frames = runs_geometry(self._runs)
        return self._run_geometry

    def frames(self) -> list[RunFrame]:
        """Each run's :func:`run_frame`, in paint order (cached with :meth:`runs`, which
        computes them anyway): for a stage that walks every run, no call per run."""
        if self._frames is None:
            self._run_geometry, self._frames = runs_geometry(self._runs)
        return self._frames

    def origins_within(self, k: int, box: tuple[float, float, float, float]) -> list[int]:
        """:func:`~glyphweave.core.runs.origins_within` of run ``k``."""
        return origins_within(self._runs[k], box)

    def run_centres(self, k: int) -> tuple[list[float], list[float]]:
        """The centres of run ``k``'s glyph boxes (x list, y list), from the run alone."""
        run = self._runs[k]
        bx, by, ax, ay, nx, ny, _ux, _uy = run_axes(run)
        mid = (run.lo + run.hi) / 2
        offsets = [s + w / 2 for s, w in zip(run.starts, run.advances, strict=True)]
        return points_along(bx + nx * mid, by + ny * mid, ax, ay, offsets)

    def sparse_columns(self, indices: Sequence[int], names: Sequence[str]) -> dict[str, Any]:
        """Columns ``names`` for just ``indices``, each indexable by glyph index.

        For a stage that needs a few glyphs' values: it spares expanding whole column
        groups. Supports text, decoded_by, ox, oy, dx, dy and height; when the columns are
        already built they are returned as they are. A few glyphs get mappings from glyph
        index to value; a large share of the page (a quarter or more) gets whole columns,
        lists of every glyph's value, with the same values: a mapping costs about 70 bytes
        per entry and column, a list 8 (a page of copies stacked on one spot names every
        glyph).
        """
        cols = self._cols
        if cols is not None and all(name in cols for name in names):
            return {name: cols[name] for name in names}
        if len(indices) * 4 >= self._count:
            return self._dense_columns(names)
        out: dict[str, dict[int, Any]] = {name: {} for name in names}
        geometry = self.runs()
        firsts = [g.start for g in geometry]
        for i in indices:
            k = bisect_right(firsts, i) - 1
            run, geo = self._runs[k], geometry[k]
            j = i - geo.start
            bx, by, ax, ay, _nx, _ny, _ux, _uy = run_axes(run)
            (x,), (y,) = points_along(bx, by, ax, ay, (run.starts[j],))
            text, decoded_by = run.decoded[j]
            values = {
                "text": text, "decoded_by": decoded_by, "ox": x, "oy": y,
                "dx": geo.dx, "dy": geo.dy, "height": geo.height,
            }
            for name in names:
                out[name][i] = values[name]
        return out

    def _dense_columns(self, names: Sequence[str]) -> dict[str, list[Any]]:
        """:meth:`sparse_columns` for every glyph: the values it gives, as lists built a run
        at a time (a run's direction and height repeat one number)."""
        out: dict[str, list[Any]] = {name: [] for name in names}
        text, decoded_by, ox, oy = (out.get(name) for name in ("text", "decoded_by", "ox", "oy"))
        repeated = [(out[name], attrgetter(name)) for name in ("dx", "dy", "height") if name in out]
        geometry = self.runs()
        for run, geo in zip(self._runs, geometry, strict=True):
            n = geo.end - geo.start
            if text is not None:
                text += [t for t, _ in run.decoded]
            if decoded_by is not None:
                decoded_by += [by for _, by in run.decoded]
            if ox is not None or oy is not None:
                bx, by, ax, ay, _nx, _ny, _ux, _uy = run_axes(run)
                xs, ys = points_along(bx, by, ax, ay, run.starts)
                if ox is not None:
                    ox += xs
                if oy is not None:
                    oy += ys
            for column, value in repeated:
                column += [value(geo)] * n
        return out

    def unresolved(self, i: int) -> bool:
        return self.decoded_by[i] is None

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
            page_size=c["page_size"][i],
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
            annotation=c["annotation"][i],
            fill_color=c["fill"][i],
            stroke_color=c["stroke"][i],
        )

    def glyphs(self, indices: Sequence[int] | None = None) -> list[Glyph]:
        return [self.glyph(i) for i in (range(self._count) if indices is None else indices)]


_GROUPS: dict[str, tuple[str, ...]] = {
    "text": ("text", "decoded_by"),
    "geometry": ("ox", "oy", "ex", "ey", "px", "py", "dx", "dy", "lox", "loy", "hix", "hiy", "height"),
    "marks": ("mcid",),
    "meta": ("code", "cid", "font", "size", "page_size", "wmode", "render", "tag", "actual_text", "token",
             "annotation", "fill", "stroke"),
}
_COLUMN_GROUP = {name: group for group, names in _GROUPS.items() for name in names}


def _expand_text(runs: list[Run]) -> dict[str, list[Any]]:
    text: list[str] = []
    decoded_by: list[str | None] = []
    for run in runs:
        decoded = run.decoded
        text.extend([t for t, _ in decoded])
        decoded_by.extend([by for _, by in decoded])
    return {"text": text, "decoded_by": decoded_by}


def _expand_geometry(runs: list[Run]) -> dict[str, list[Any]]:
    cols: dict[str, list[Any]] = {name: [] for name in _GROUPS["geometry"]}
    ox, oy, ex, ey, px, py = cols["ox"], cols["oy"], cols["ex"], cols["ey"], cols["px"], cols["py"]
    dxs, dys, loxs, loys, hixs, hiys, heights = (
        cols["dx"], cols["dy"], cols["lox"], cols["loy"], cols["hix"], cols["hiy"], cols["height"])
    hypot = math.hypot
    for run in runs:
        bx, by, ax, ay, nx, ny, ux, uy = run_axes(run)
        starts, lo, hi = run.starts, run.lo, run.hi
        n = len(starts)
        norm = hypot(ux, uy) or 1.0
        lox, loy, hix, hiy = nx * lo, ny * lo, nx * hi, ny * hi
        if n == 1:
            # A third of all runs hold one glyph: one call to place its three points and
            # appends cost less than three calls and thirteen one-element extends.
            s = starts[0]
            (x0, x1, x2), (y0, y1, y2) = points_along(bx, by, ax, ay, (s, s + run.advances[0], run.pens[0]))
            ox.append(x0)
            ex.append(x1)
            px.append(x2)
            oy.append(y0)
            ey.append(y1)
            py.append(y2)
            dxs.append(ux / norm)
            dys.append(uy / norm)
            loxs.append(lox)
            loys.append(loy)
            hixs.append(hix)
            hiys.append(hiy)
            heights.append(hypot(hix - lox, hiy - loy))
            continue
        xs, ys = points_along(bx, by, ax, ay, starts)
        ox += xs
        oy += ys
        xs, ys = points_along(bx, by, ax, ay, [s + w for s, w in zip(starts, run.advances, strict=True)])
        ex += xs
        ey += ys
        xs, ys = points_along(bx, by, ax, ay, run.pens)
        px += xs
        py += ys
        dxs += [ux / norm] * n
        dys += [uy / norm] * n
        loxs += [lox] * n
        loys += [loy] * n
        hixs += [hix] * n
        hiys += [hiy] * n
        heights += [hypot(hix - lox, hiy - loy)] * n
    return cols


def _expand_marks(runs: list[Run]) -> dict[str, list[Any]]:
    mcid: list[int | None] = []
    for run in runs:
        mcid.extend([run.mcid] * len(run.codes))
    return {"mcid": mcid}


def _expand_meta(runs: list[Run]) -> dict[str, list[Any]]:
    cols: dict[str, list[Any]] = {name: [] for name in _GROUPS["meta"]}
    code, cid, font, size, page_size, wmode, render, tag, actual_text, token, annotation, fill, stroke = (
        cols[name] for name in _GROUPS["meta"])
    for run in runs:
        codes, cids = run.codes, run.cids
        n = len(codes)
        code.extend(codes)
        cid.extend(cids if cids is not None else [None] * n)
        font.extend([run.font] * n)
        size.extend([run.size] * n)
        page_size.extend([run_page_size(run)] * n)
        wmode.extend([run.wmode] * n)
        render.extend([run.render] * n)
        tag.extend([run.tag] * n)
        actual_text.extend([run.actual_text] * n)
        token.extend([run.token] * n)
        annotation.extend([run.annotation] * n)
        fill.extend([run.fill] * n)
        stroke.extend([run.stroke] * n)
    return cols


_EXPANDERS = {
    "text": _expand_text,
    "geometry": _expand_geometry,
    "marks": _expand_marks,
    "meta": _expand_meta,
}
