"""Deprecated alias of :mod:`glyphweave.tables.std14` (moved there in 0.2)."""

from glyphweave.core._moved import forward

__getattr__ = forward(__name__, "glyphweave.tables.std14")
