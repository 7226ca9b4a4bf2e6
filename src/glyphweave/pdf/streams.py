"""Reading a content stream without trusting its size: decoding stops at a byte budget.

pikepdf (qpdf) decodes a whole stream into memory before handing it over, and a 1.5 MB
FlateDecode stream can inflate to gigabytes. Content streams are almost always FlateDecode or
unfiltered, so those are decoded here, a bounded amount at a time, with the standard zlib
module: one FlateDecode or a chain of them (a bomb inside a bomb), without a predictor.
Damaged compressed data keeps what inflated before the damage, as qpdf would, without
asking qpdf (which would inflate all of it first). Any other filter chain is left to qpdf
and cut to the budget afterwards.
"""

from __future__ import annotations

import re
import zlib
from typing import Any

import pikepdf

_FLATE = (pikepdf.Name.FlateDecode, pikepdf.Name("/Fl"))
_TOKEN_END = re.compile(rb"[\x00\t\n\x0c\r ]")


def read_bounded(stream: pikepdf.Stream, budget: int) -> tuple[bytes, bool, str | None]:
    """The decoded bytes of ``stream``, at most ``budget`` of them, whether it was cut, and
    what zlib found damaged (None when nothing was): the bytes are then those before the
    damage (all of them when only the checksum at the end is wrong).

    A cut falls after the last whitespace within the budget, so the tokenizer never sees half
    a token. Unreadable data raises what pikepdf raises.
    """
    filters = _filters(stream)
    damage: list[str] = []
    if not filters:
        data = stream.read_raw_bytes()
    elif all(f in _FLATE for f in filters) and not _predicted(stream):
        data = _inflate(stream.read_raw_bytes(), len(filters), budget + 1, damage)
    else:
        data = stream.read_bytes()
    found = damage[0] if damage else None
    if len(data) <= budget:
        return data, False, found
    return _cut(data, budget), True, found


def _filters(stream: pikepdf.Stream) -> list[Any]:
    value = stream.get("/Filter")
    if value is None:
        return []
    if isinstance(value, pikepdf.Array):
        return list(value)
    return [value]


def _predicted(stream: pikepdf.Stream) -> bool:
    """Whether any filter of ``stream`` has a predictor (a /Predictor above 1): the rows of
    a predicted stream are not the stream, so zlib alone cannot decode it."""
    params = stream.get("/DecodeParms")
    entries = list(params) if isinstance(params, pikepdf.Array) else [params]
    for entry in entries:
        if isinstance(entry, pikepdf.Dictionary):
            predictor = entry.get("/Predictor", 1)
            if not isinstance(predictor, int) or predictor > 1:
                return True
    return False


_PIECE = 1 << 16
"""Compressed bytes fed to zlib at a time, and the most one call may give back."""


def _inflate(raw: bytes, stages: int, limit: int, damage: list[str]) -> bytes:
    """At most ``limit`` bytes of ``raw`` inflated ``stages`` times (FlateDecode applied
    that many times), stopping at the first damage with what came before it (zlib's
    message is appended to ``damage``)."""
    chunks: Any = (raw[i:i + _PIECE] for i in range(0, len(raw), _PIECE))
    for _ in range(stages):
        chunks = _inflated(chunks, damage)
    parts: list[bytes] = []
    size = 0
    for chunk in chunks:
        parts.append(chunk)
        size += len(chunk)
        if size >= limit:
            parts[-1] = chunk[:len(chunk) - (size - limit)]
            break
    # Joined once (no copy at all for a stream inflated in one piece).
    return b"".join(parts)


def _inflated(chunks: Any, damage: list[str]) -> Any:
    """The pieces of the zlib data ``chunks`` inflated, none longer than ``_PIECE``: the
    caller stops pulling at its budget, so no more is ever inflated than it asks for."""
    inflater = zlib.decompressobj()
    for chunk in chunks:
        data = chunk
        while data and not inflater.eof:
            before = inflater.copy()
            try:
                piece = inflater.decompress(data, _PIECE)
            except zlib.error as exc:
                damage.append(str(exc))
                yield from _before_damage(before, data)
                return
            if piece:
                yield piece
            data = inflater.unconsumed_tail
        if inflater.eof:
            return
    rest = inflater.flush()
    if rest:
        yield rest
    damage.append("the compressed data ends early")


def _before_damage(inflater: Any, data: bytes) -> Any:
    """What ``inflater`` gives for ``data`` up to the byte where zlib finds it damaged: fed a
    byte at a time, so only the damaged byte's own output is lost (a bad checksum at the end
    of the stream loses nothing). Only a damaged piece is read this way."""
    for i in range(len(data)):
        try:
            piece = inflater.decompress(data[i:i + 1])  # a byte of input inflates to a few KB at most
        except zlib.error:
            return
        if piece:
            yield piece
        if inflater.eof:
            return


def _cut(data: bytes, budget: int) -> bytes:
    ends = [m.start() for m in _TOKEN_END.finditer(data, max(0, budget - 4096), budget)]
    return data[: ends[-1]] if ends else data[:budget]
