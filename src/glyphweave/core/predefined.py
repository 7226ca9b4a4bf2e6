"""Deprecated alias of :mod:`glyphweave.tables.cjk` and :mod:`glyphweave.pdf.predefined` (moved there in 0.2)."""

from glyphweave.core._moved import forward

__getattr__ = forward(__name__, "glyphweave.tables.cjk", "glyphweave.pdf.predefined")
