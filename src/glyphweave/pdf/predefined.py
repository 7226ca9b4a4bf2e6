"""Predefined CMaps by name, parsed: Identity-H/V built in, Adobe's CJK CMaps from the tables.

The CMap text comes from :func:`glyphweave.tables.cjk.cmap_data`; without the mirror, a Unicode
CMap (``Uni*-UCS2-*``, ``-UTF16-``, ``-UTF8-``, ``-UTF32-``) is a built-in stand-in with its
codespace and no CIDs, so its codes still split and read as Unicode.

Parsing one costs a CJK document's process milliseconds before its first string is read
(GBK-EUC-H 5 ms, UniGB-UCS2-H 13 ms, UniJIS-UCS2-H 11 ms: the text inflated and parsed, the
ranges sorted), so a parsed CMap is kept in the machine's cache folder
(:mod:`glyphweave.cachefiles`) as the data :meth:`CMap.parts` gives, marshalled: read back
in a tenth of that, checked to hold only what a CMap holds. Only a CMap with no base is kept
(the -V ones take their -H base by ``usecmap`` and are small to parse).
"""

from __future__ import annotations

import functools
import marshal
from collections.abc import Callable
from functools import partial
from operator import itemgetter
from pathlib import Path
from typing import Any

from glyphweave.cachefiles import kept, marshal_suffix, read_marshalled
from glyphweave.pdf.cmap import CMap, identity_cmap, parse_cmap
from glyphweave.tables import cjk

_KIND, _FIRST, _VALUE = itemgetter(0), itemgetter(1), itemgetter(2)
"""A range payload's fields (kind, first code, value), read by ``map`` at C speed."""

MAGIC = b"GWCM\x01"
"""The format of a kept CMap's file (bump it when :meth:`CMap.parts` changes): this, then the
marshalled parts."""


@functools.cache
def predefined_cmap(name: str) -> CMap | None:
    """The predefined CMap called ``name``, or None when we do not carry it.

    Parsed on first use (or read from the cache folder) and kept per process (treat the
    result as read-only); ``usecmap`` is resolved through this function, so a -V CMap shares
    its -H base.
    """
    if name == "Identity-H":
        return identity_cmap(0)
    if name == "Identity-V":
        return identity_cmap(1)
    if cjk.cjk_source() != "mirror":
        codespace = cjk.unicode_cmap_codespace(name)
        if codespace is None:
            return None
        spaces, wmode = codespace
        return CMap(name=name, wmode=wmode, codespace=spaces)
    return kept("cmap-" + name, cjk.cmap_path(name), marshal_suffix(".gwcm"), _read_kept, partial(_parsed, name))


def clear_caches() -> None:
    """Forget every parsed CMap and the CJK tables (tests that swap the mirror out use this)."""
    predefined_cmap.cache_clear()
    cjk.clear_caches()


def _parsed(name: str) -> tuple[bytes | None, CMap] | None:
    """The mirrored CMap ``name`` parsed, and its cache file (None for a CMap with a base);
    None when it is not mirrored or not a CMap."""
    data = cjk.cmap_data(name)
    if data is None:
        return None
    try:
        cmap = parse_cmap(data, usecmap=predefined_cmap)
    except ValueError:
        return None
    parts = cmap.parts()
    return (None if parts["bases"] else MAGIC + marshal.dumps(parts)), cmap


def _read_kept(path: Path) -> CMap | None:
    """The CMap kept in ``path``, or None: no file, another format, or data that is not
    what :meth:`CMap.parts` gives (a damaged or foreign file is no error, only not used)."""
    parts = read_marshalled(path, MAGIC)
    return CMap.from_parts(parts, predefined_cmap) if _plain_parts(parts) else None


def _all(kinds: set[type], values: Any) -> bool:
    return set(map(type, values)) <= kinds


def _plain_parts(parts: Any) -> bool:
    """Whether ``parts`` holds what :meth:`CMap.parts` gives a CMap with no base, each value
    of the types it gives (checked at C speed, column by column)."""
    if type(parts) is not dict or set(parts) != {"name", "wmode", "codespace", "chars", "cids", "bases", "bf", "cid"}:
        return False
    if parts["bases"] != [] or type(parts["name"]) not in (str, type(None)) or parts["wmode"] not in (0, 1):
        return False
    codespace, chars, cids = parts["codespace"], parts["chars"], parts["cids"]
    if type(codespace) is not list or not _all({tuple}, codespace) or set(map(len, codespace)) - {2}:
        return False
    if not _all({bytes}, (end for pair in codespace for end in pair)):
        return False
    if type(chars) is not dict or not _all({bytes}, chars) or not _all({str}, chars.values()):
        return False
    if type(cids) is not dict or not _all({bytes}, cids) or not _all({int}, cids.values()):
        return False
    return _plain_tables(parts["cid"], _cid_payloads) and _plain_tables(parts["bf"], _bf_payloads)


def _plain_tables(tables: Any, payloads_plain: Callable[[list[Any]], bool]) -> bool:
    if type(tables) is not dict or not _all({int}, tables) or not _all({tuple}, tables.values()):
        return False
    for columns in tables.values():
        if len(columns) != 3 or not _all({list}, columns):
            return False
        starts, ends, payloads = columns
        if not (len(starts) == len(ends) == len(payloads)) or not _all({int}, starts) or not _all({int}, ends):
            return False
        if not _all({tuple}, payloads) or set(map(len, payloads)) - {3} or not payloads_plain(payloads):
            return False
    return True


def _cid_payloads(payloads: list[Any]) -> bool:
    """("cid", first code, its CID) each."""
    return set(map(_KIND, payloads)) <= {"cid"} and _all({int}, map(_FIRST, payloads)) and _all(
        {int}, map(_VALUE, payloads))


def _bf_payloads(payloads: list[Any]) -> bool:
    """("inc", first code, (prefix, first character's code point)) or ("arr", first code,
    each code's text or None) each."""
    for kind, first, what in payloads:
        if type(first) is not int:
            return False
        if kind == "inc":
            if type(what) is not tuple or len(what) != 2 or type(what[0]) is not str or type(what[1]) is not int:
                return False
        elif kind != "arr" or type(what) is not list or not _all({str, type(None)}, what):
            return False
    return True
