"""Reading a content stream without trusting its size: decoding stops at a byte budget.

pikepdf (qpdf) decodes a whole stream into memory before handing it over, and a 1.5 MB
FlateDecode stream can inflate to gigabytes. Content streams are almost always FlateDecode or
unfiltered, so those two are decoded here, a bounded amount at a time, with the standard
zlib module; any other filter chain is left to qpdf and cut to the budget afterwards.
"""

from __future__ import annotations

import re
import zlib
from typing import Any

import pikepdf

_FLATE = (pikepdf.Name.FlateDecode, pikepdf.Name("/Fl"))
_TOKEN_END = re.compile(rb"[\x00\t\n\x0c\r ]")


def read_bounded(stream: pikepdf.Stream, budget: int) -> tuple[bytes, bool]:
    """The decoded bytes of ``stream``, at most ``budget`` of them, and whether it was cut.

    A cut falls after the last whitespace within the budget, so the tokenizer never sees half
    a token. Unreadable data raises what pikepdf or zlib raise.
    """
    filters = _filters(stream)
    if not filters:
        data = stream.read_raw_bytes()
    elif len(filters) == 1 and filters[0] in _FLATE and not _has_params(stream):
        data = _inflate(stream, budget)
    else:
        data = stream.read_bytes()
    if len(data) <= budget:
        return data, False
    return _cut(data, budget), True


def _filters(stream: pikepdf.Stream) -> list[Any]:
    value = stream.get("/Filter")
    if value is None:
        return []
    if isinstance(value, pikepdf.Array):
        return list(value)
    return [value]


def _has_params(stream: pikepdf.Stream) -> bool:
    params = stream.get("/DecodeParms")
    if params is None:
        return False
    if isinstance(params, pikepdf.Array):
        return any(isinstance(p, pikepdf.Dictionary) and len(p) for p in params)
    return isinstance(params, pikepdf.Dictionary) and len(params) > 0


def _inflate(stream: pikepdf.Stream, budget: int) -> bytes:
    """At most ``budget + 1`` bytes of a FlateDecode stream (one more tells a cut)."""
    raw = stream.read_raw_bytes()
    inflater = zlib.decompressobj()
    try:
        return inflater.decompress(raw, budget + 1)
    except zlib.error:
        # Damaged data: qpdf recovers what it can, as viewers do; its output is no larger
        # than what inflated before the damage, so it is safe to ask for.
        return stream.read_bytes()


def _cut(data: bytes, budget: int) -> bytes:
    head = data[:budget]
    ends = [m.start() for m in _TOKEN_END.finditer(head, max(0, budget - 4096))]
    return head[: ends[-1]] if ends else head
