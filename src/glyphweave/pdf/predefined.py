"""Predefined CMaps by name, parsed: Identity-H/V built in, Adobe's CJK CMaps from the tables.

The CMap text comes from :func:`glyphweave.tables.cjk.cmap_data`; without the mirror, a Unicode
CMap (``Uni*-UCS2-*``, ``-UTF16-``, ``-UTF8-``, ``-UTF32-``) is a built-in stand-in with its
codespace and no CIDs, so its codes still split and read as Unicode.
"""

from __future__ import annotations

import functools

from glyphweave.pdf.cmap import CMap, identity_cmap, parse_cmap
from glyphweave.tables import cjk


@functools.cache
def predefined_cmap(name: str) -> CMap | None:
    """The predefined CMap called ``name``, or None when we do not carry it.

    Parsed on first use and cached per process (treat the result as read-only); ``usecmap``
    is resolved through this function, so a -V CMap shares its -H base.
    """
    if name == "Identity-H":
        return identity_cmap(0)
    if name == "Identity-V":
        return identity_cmap(1)
    data = cjk.cmap_data(name)
    if data is None:
        if cjk.cjk_source() == "mirror":
            return None
        codespace = cjk.unicode_cmap_codespace(name)
        if codespace is None:
            return None
        spaces, wmode = codespace
        return CMap(name=name, wmode=wmode, codespace=spaces)
    try:
        return parse_cmap(data, usecmap=predefined_cmap)
    except ValueError:
        return None


def clear_caches() -> None:
    """Forget every parsed CMap and the CJK tables (tests that swap the mirror out use this)."""
    predefined_cmap.cache_clear()
    cjk.clear_caches()
