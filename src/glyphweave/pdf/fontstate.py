"""A loaded font as the interpreter reads it (:class:`FontState`): its :class:`FontInfo` for
the decoders, its metrics, its code → CID and decode caches, and its advances per size.

Compiled in the compiled build: the interpreter reads a dozen of these attributes for every
string it measures, each a generic attribute look-up (a call into the interpreter's slot
descriptors) while this class was interpreted; compiled, they are loads from the object.
:mod:`glyphweave.pdf.fonts` fills the state and re-exports the class.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from glyphweave.core.decoding import DecodeTable
from glyphweave.core.fontinfo import FontInfo
from glyphweave.pdf.cmap import CMap
from glyphweave.pdf.widthmaps import ScaledWidths

DEFAULT_ASCENT: Final = 0.75
DEFAULT_DESCENT: Final = -0.25
DEFAULT_WIDTH: Final = 0.5
"""Advance (in ems) of a glyph whose font gives no width at all (broken files)."""


_NOT_YET: Final = object()
"""A value not computed yet. Not the font itself: a font holding itself is a reference cycle,
freed only by the cyclic collector, which the console script keeps from what outlives a page
(``gc.freeze``), so each font the cache drops would stay in memory to the end."""


class FontState:
    """A loaded font: :class:`FontInfo` for decoders plus the interpreter's metrics.

    ``widths``: simple fonts, a 256-list of advances in text-space units per unit font
    size; composite fonts, a :class:`RangeDict` CID → advance. ``vwidths``: writing mode
    1, CID → vertical advance (negative: down). ``cmap``: composite fonts' code → CID map.
    """

    __slots__ = ("info", "simple", "widths", "vwidths", "ascent", "descent", "cmap",
                 "cids", "decode", "space_single_byte", "code_width", "may_split", "procedures", "known_codes",
                 "_scaled", "_split")

    def __init__(self, info: FontInfo) -> None:
        self.info = info
        self.simple = not info.composite
        self.widths: Any = [DEFAULT_WIDTH] * 256
        self.vwidths: Any = None
        self.ascent = DEFAULT_ASCENT
        self.descent = DEFAULT_DESCENT
        self.cmap: CMap | None = None
        self.cids: DecodeTable | None = None
        """Composite fonts: code → CID (0, the notdef CID, for unmapped codes), cached."""
        self.decode: DecodeTable | None = None
        self.space_single_byte = True
        self.code_width = 0
        """Composite fonts: the one code length of the CMap's codespace, 0 when mixed."""
        self.known_codes: Any = None
        """The measuring's :class:`~glyphweave.pdf.measure.KnownCodes`, made by the
        interpreter when it first measures a string in the font."""
        self._scaled: dict[float, Any] = {}
        self.may_split = info.subtype == "Type3" and self.simple
        """Whether :meth:`split_advances` may find split characters (a simple Type3 font)."""
        self.procedures: tuple[dict[str, Callable[[], bytes | None]], tuple[float, ...]] | None = None
        """Type3: the glyph procedures' loaders by name, and the /FontMatrix."""
        self._split: Any = _NOT_YET

    def split_advances(self) -> list[float | None] | None:
        """A Type3 font's split characters (:func:`~.charprocs.split_advances`), found on
        the first string that shows a glyph with no advance; None for any other font. Such
        a font's extent becomes its glyphs' ink (its /FontBBox is in units of its own)."""
        if self._split is _NOT_YET:
            self._split = None
            if self.may_split and self.procedures is not None:
                from glyphweave.pdf.charprocs import split_advances

                found = split_advances(self.info, self.widths, *self.procedures)
                if found is not None:
                    self._split, low, high = found
                    self.descent, self.ascent = min(low, 0.0), max(high, 0.0)
        return self._split  # type: ignore[no-any-return]

    def scaled_widths(self, scale: float) -> Any:
        """Advances multiplied by ``scale`` (font size × Tz, or the size in writing mode 1),
        cached: a document uses a handful of sizes per font, so measuring a string is one
        C-level ``map`` over its codes."""
        table = self._scaled.get(scale)
        if table is None:
            if len(self._scaled) > 64:
                self._scaled.clear()
            if self.simple:
                table = [w * scale for w in self.widths]
            else:
                base = self.widths if self.info.writing_mode == 0 else self.vwidths
                table = ScaledWidths(base, scale)
            self._scaled[scale] = table
        return table
