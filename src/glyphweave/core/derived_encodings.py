"""Deprecated alias of :mod:`glyphweave.tables.derived_encodings` (moved there in 0.2)."""

from glyphweave.core._moved import forward

__getattr__ = forward(__name__, "glyphweave.tables.derived_encodings")
