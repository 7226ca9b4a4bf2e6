"""Factories: a page's glyph table, a page context and a font, built by hand without a PDF."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from glyphweave.core.fontinfo import FontInfo, split_subset_prefix
from glyphweave.core.glyph import FontRef
from glyphweave.core.glyphtable import GlyphTable
from glyphweave.core.stages import Assembled, PageContext
from glyphweave.guard.clock import PageClock

TEST_FONT = FontRef(resource="/F1", base_font="Helvetica", subtype="Type1")


def add_text(
    table: GlyphTable,
    text: str,
    x: float,
    y: float,
    *,
    size: float = 10.0,
    advance: float | Sequence[float] = 0.5,
    char_spacing: float = 0.0,
    angle: float = 0.0,
    wmode: int = 0,
    rise: float = 0.0,
    font: FontRef = TEST_FONT,
    ascent: float = 0.75,
    descent: float = -0.25,
    mcid: int | None = None,
    tag: str | None = None,
    render: int = 0,
    token: int = 0,
    unresolved: Sequence[int] = (),
) -> GlyphTable:
    """Append ``text`` as one run starting at (x, y), one glyph per character.

    ``advance`` is each glyph's own advance in ems (one number, or one per character);
    ``char_spacing`` is Tc in user-space units; ``angle`` rotates the baseline
    (degrees, counter-clockwise). Writing mode 1 runs down from (x, y) with an advance
    of 1 em. Indices listed in ``unresolved`` decode to nothing.
    """
    n = len(text)
    widths = [advance] * n if isinstance(advance, (int, float)) else list(advance)
    if len(widths) != n:
        raise ValueError("one advance per character")
    if wmode == 0:
        own = [w * size for w in widths]
        lo, hi = descent * size, ascent * size
    else:
        own = [-size] * n
        lo, hi = -size / 2, size / 2
    starts, pens, pen = [], [], 0.0
    for w in own:
        starts.append(pen)
        pen += w + (char_spacing if wmode == 0 else -char_spacing)
        pens.append(pen)
    rad = math.radians(angle)
    cos, sin = math.cos(rad), math.sin(rad)
    table.add_run(
        font=table.font_index(font),
        size=size,
        matrix=(cos, sin, -sin, cos, x, y),
        rise=rise,
        wmode=wmode,
        codes=[ord(ch) & 0xFF for ch in text],
        cids=None,
        decoded=[("", None) if i in unresolved else (ch, "test") for i, ch in enumerate(text)],
        starts=starts,
        advances=own,
        pens=pens,
        lo=lo,
        hi=hi,
        render=render,
        mcid=mcid,
        tag=tag,
        actual_text=None,
        token=token,
    )
    return table


def text_of(result: str | Assembled) -> str:
    """The text of what an assembler returned, whichever form it took: a component test
    compares text, and a built-in assembler returns :class:`Assembled` (text and reading order)."""
    return result if isinstance(result, str) else result.text


def page_context(
    table: GlyphTable,
    *,
    mediabox: tuple[float, float, float, float] = (0.0, 0.0, 612.0, 792.0),
    cropbox: tuple[float, float, float, float] | None = None,
    number: int = 0,
    placeholder: str = " ",
    clock: PageClock | None = None,
) -> PageContext:
    """A page context around ``table`` (US Letter by default); ``clock`` gives the page a
    time limit (``PageClock(0.5, now=fake)`` with a fake ``now`` tests a component's
    :meth:`~PageContext.check_time` calls without waiting)."""
    return PageContext(
        number=number,
        mediabox=mediabox,
        cropbox=cropbox if cropbox is not None else mediabox,
        rotate=0,
        table=table,
        placeholder=placeholder,
        clock=clock if clock is not None else PageClock(None),
    )


def font_info(
    base_font: str = "Helvetica",
    *,
    subtype: str = "Type1",
    to_unicode: Mapping[bytes, str] | None = None,
    font_file: bytes | None = None,
    **fields: Any,
) -> FontInfo:
    """A :class:`FontInfo` for calling a decoder directly, without a PDF.

    ``base_font`` may carry a subset tag (``ABCDEF+Symbol``): it is split off as in a real
    document. ``to_unicode`` stands for a /ToUnicode CMap (whole codes → text); ``font_file``
    for the embedded program. Any other :class:`FontInfo` field can be given by keyword:
    ``font_info("MSung-Light", subtype="Type0", composite=True, cid_system_info=("Adobe",
    "CNS1", 4))``.
    """
    prefix, name = split_subset_prefix(base_font)
    cmap = _MappingCMap(dict(to_unicode)) if to_unicode is not None else None
    return FontInfo(
        key=("test", base_font),
        base_font=name,
        subset_prefix=prefix,
        subtype=subtype,
        to_unicode_loader=(lambda: cmap) if cmap is not None else None,
        font_file_loader=(lambda: font_file) if font_file is not None else None,
        embedded=font_file is not None,
        **fields,
    )


class _MappingCMap:
    """A ToUnicode CMap made of a dict (the :class:`~glyphweave.core.fontinfo.CodeToText` protocol)."""

    def __init__(self, mapping: dict[bytes, str]) -> None:
        self._mapping = mapping

    def to_unicode(self, code: bytes) -> str | None:
        return self._mapping.get(code)
