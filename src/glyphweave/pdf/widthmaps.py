"""The width tables of a loaded font that are dictionaries filled on demand: a composite
font's CID → advance map with its ranges kept as ranges (:class:`RangeDict`), and that map
scaled to one font size (:class:`ScaledWidths`).

Both subclass ``dict`` for ``__missing__``, which keeps them out of the compiled build (mypyc
compiles no subclass of a built-in type here): :mod:`glyphweave.pdf.fontstate`, compiled,
makes and holds them.
"""

from __future__ import annotations

from typing import Any


class RangeDict(dict):  # type: ignore[type-arg]
    """A CID → value map with big ranges kept as ranges, and a default; lookups are cached."""

    __slots__ = ("ranges", "default")

    def __init__(self, default: Any) -> None:
        super().__init__()
        self.ranges: list[tuple[int, int, Any]] = []
        self.default = default

    def __missing__(self, key: int) -> Any:
        value = self.default
        for lo, hi, v in self.ranges:
            if lo <= key <= hi:
                value = v
                break
        self[key] = value
        return value


class ScaledWidths(dict):  # type: ignore[type-arg]
    """CID → advance × scale, filled from a :class:`RangeDict` on first use.

    The compiled build's measuring (``pdf/_cmeasure.pyx``) does :meth:`__missing__`'s work
    itself, from :attr:`base` and :attr:`scale`: an OCR layer sets a new size for nearly
    every word (a thousand scales in the Tesseract file on the bench), and each new scale
    would cost a call into this class per code."""

    __slots__ = ("base", "scale")

    def __init__(self, base: Any, scale: float) -> None:
        super().__init__()
        self.base = base
        self.scale = scale

    def __missing__(self, cid: int) -> float:
        value = self.base[cid] * self.scale
        self[cid] = value
        return value
