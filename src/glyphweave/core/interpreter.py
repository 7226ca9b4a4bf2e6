"""Deprecated alias of :mod:`glyphweave.pdf.interpreter` (moved there in 0.2)."""

from glyphweave.core._moved import forward

__getattr__ = forward(__name__, "glyphweave.pdf.interpreter")
