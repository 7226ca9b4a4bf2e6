"""Colours of painted text, as RGB (PDF 32000-1:2008 §8.6): what a glyph table records of
the fill and stroke colour each glyph was painted in.

Only what converts without a colour-management engine is converted: the device spaces
(gray, RGB, CMYK by the naive formula of §10.3.5, which is what viewers without a CMYK
profile show), and the CIE-based and ICC spaces by their number of components, read as the
device space with as many (an ICC profile's exact colours are not needed to tell white
text from black). A pattern, a separation, DeviceN, an indexed or a Lab space gives None:
"some colour, not said". That is enough to find white-on-white or coloured text, which is
what the record is for; a renderer needs more.
"""

from __future__ import annotations

from typing import Any

import pikepdf

RGB = tuple[float, float, float]

BLACK: RGB = (0.0, 0.0, 0.0)

COMPONENTS = {"/DeviceGray": 1, "/CalGray": 1, "/G": 1, "/DeviceRGB": 3, "/CalRGB": 3, "/RGB": 3,
              "/DeviceCMYK": 4, "/CMYK": 4}
"""Components of the spaces read as a device space (names and the abbreviations inline
images use); 0 for any other."""


def components(space: Any) -> int:
    """How many components ``space`` (a colour space name or array, resolved) is read with
    as a device space: 1, 3 or 4, or 0 when it has no plain conversion."""
    if isinstance(space, pikepdf.Name):
        return COMPONENTS.get(str(space), 0)
    if isinstance(space, pikepdf.Array) and len(space) >= 1:
        family = space[0]
        if not isinstance(family, pikepdf.Name):
            return 0
        name = str(family)
        if name in ("/CalGray", "/CalRGB"):
            return COMPONENTS[name]
        if name == "/ICCBased" and len(space) >= 2 and isinstance(space[1], pikepdf.Stream):
            n = space[1].get("/N")
            return int(n) if isinstance(n, int) and n in (1, 3, 4) else 0
        return 0
    return 0


def to_rgb(values: list[Any], n: int) -> RGB | None:
    """The RGB of ``values`` (the operands of a colour operator) in a space of ``n``
    components, each clamped to 0..1 (NaN reads as 0); None when they do not fit the space."""
    if n == 0 or len(values) != n:
        return None
    try:
        c = [min(1.0, max(0.0, float(v))) for v in values]
    except (TypeError, ValueError):
        return None
    if n == 1:
        return (c[0], c[0], c[0])
    if n == 3:
        return (c[0], c[1], c[2])
    k = c[3]
    return (1.0 - min(1.0, c[0] + k), 1.0 - min(1.0, c[1] + k), 1.0 - min(1.0, c[2] + k))
