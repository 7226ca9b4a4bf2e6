"""Reading a content or font stream without trusting its size: decoding stops at a byte budget.

pikepdf (qpdf) decodes a whole stream into memory before handing it over, and a 1.5 MB
FlateDecode stream can inflate to gigabytes. So every standard non-image filter (Flate, LZW,
ASCII85, ASCIIHex, RunLength, the PNG and TIFF predictors) is decoded here instead, as a
chain of generators in :mod:`glyphweave.pdf.filters` that is pulled only up to the budget.
Damaged data keeps what decoded before the damage, without asking qpdf (which would decode
all of it first, or give nothing). A stream under an image filter (DCT, JPX, JBIG2, CCITT)
or an unknown one is left to qpdf only when its encoded size is under 1/1024 of the budget
(so even a deflate-sized expansion stays near it); a larger one is refused with a limit
warning rather than decoded whole.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pikepdf

from glyphweave.guard.limits import LIMIT, LimitReached
from glyphweave.pdf.filters import FLATE, PIECE, Undecodable, decoder, inflated

_TOKEN_END = re.compile(rb"[\x00\t\n\x0c\r ]")

QPDF_SHARE = 1024
"""A stream qpdf must decode (an image or unknown filter) is handed to it only when its
encoded size is at most the budget divided by this: deflate, the strongest general
compression, expands about 1032 to 1."""


class StreamRefused(LimitReached):
    """A stream whose filters only qpdf decodes, too large to let it decode whole under the
    budget (``limit`` names the limit that set it)."""


class ReadStopped(Exception):  # noqa: N818 (not an error: the reader asked to stop)
    """The reader's ``stop`` said to stop (the page's time is up) before the stream was
    decoded: :attr:`data` holds what was decoded, cut after its last whole token."""

    def __init__(self, data: bytes) -> None:
        super().__init__(f"stopped after {len(data)} decoded bytes")
        self.data = data


def read_bounded(stream: pikepdf.Stream, budget: int, stop: Callable[[], bool] | None = None,
                 *, limit: str = "page_content_mb") -> tuple[bytes, bool, str | None]:
    """The decoded bytes of ``stream``, at most ``budget`` of them, whether it was cut, and
    what was found damaged (None when nothing was): the bytes are then those before the
    damage (all of them when only the checksum at the end of Flate data is wrong).

    A cut falls after the last whitespace within the budget, so the tokenizer never sees half
    a token. Unreadable data raises what pikepdf raises; filters and parameters qpdf refuses
    raise :class:`~glyphweave.pdf.filters.Undecodable`, and a large stream left to qpdf
    raises :class:`StreamRefused`, a :class:`~glyphweave.guard.limits.LimitReached` naming
    ``limit`` (the :class:`~glyphweave.guard.limits.Limits` field ``budget`` comes from).
    """
    filters = _filters(stream)
    damage: list[str] = []
    if not filters:
        data = stream.read_raw_bytes()
    elif all(f in FLATE for f in filters) and not _predicted(stream):
        # The common case, kept as direct as it ever was.
        data = _inflate(stream.read_raw_bytes(), len(filters), budget + 1, damage, stop)
    else:
        decode = decoder(filters, _parms(stream, len(filters)), budget + 1, damage)
        if decode is None:
            data = _by_qpdf(stream, filters, budget, limit)
        else:
            data = _collect(decode(_pieces(stream.read_raw_bytes())), budget + 1, stop)
    found = damage[0] if damage else None
    if len(data) <= budget:
        return data, False, found
    return _cut(data, budget), True, found


def _filters(stream: pikepdf.Stream) -> list[str]:
    value = stream.get("/Filter")
    if value is None:
        return []
    values = list(value) if isinstance(value, pikepdf.Array) else [value]
    if not all(isinstance(v, pikepdf.Name) for v in values):
        raise Undecodable("a /Filter entry is not a name")
    return [str(v) for v in values]


def _parms(stream: pikepdf.Stream, count: int) -> list[dict[str, Any] | None]:
    """Each filter's /DecodeParms, as qpdf pairs them: an array gives one per filter (and
    must have as many), a single dictionary serves a single filter; anything else is none."""
    value = stream.get("/DecodeParms")
    entries: list[Any]
    if isinstance(value, pikepdf.Array):
        if len(value) != count:
            raise Undecodable("/DecodeParms has not one entry per filter")
        entries = list(value)
    elif isinstance(value, pikepdf.Dictionary):
        if isinstance(stream.get("/Filter"), pikepdf.Array):
            raise Undecodable("/DecodeParms is one dictionary for an array of filters")
        entries = [value] * count
    else:
        entries = [None] * count
    return [{str(k): v for k, v in e.items()} if isinstance(e, pikepdf.Dictionary) else None for e in entries]


def _predicted(stream: pikepdf.Stream) -> bool:
    """Whether the stream has any /DecodeParms worth a look: the plain Flate path takes only
    streams without any (a predictor's rows are not the stream)."""
    params = stream.get("/DecodeParms")
    entries = list(params) if isinstance(params, pikepdf.Array) else [params]
    for entry in entries:
        if isinstance(entry, pikepdf.Dictionary):
            predictor = entry.get("/Predictor", 1)
            if not isinstance(predictor, int) or predictor > 1:
                return True
    return False


def _by_qpdf(stream: pikepdf.Stream, filters: list[str], budget: int, limit: str) -> bytes:
    raw = stream.read_raw_bytes()
    if len(raw) > budget // QPDF_SHARE:
        raise StreamRefused(
            f"{LIMIT}a stream of {len(raw)} encoded bytes under {' '.join(filters)} is not decoded: "
            f"only qpdf decodes it, whole, and only below {budget // QPDF_SHARE} bytes", limit)
    return stream.read_bytes()


def _pieces(raw: bytes) -> Any:
    return (raw[i:i + PIECE] for i in range(0, len(raw), PIECE))


def _inflate(raw: bytes, stages: int, limit: int, damage: list[str],
             stop: Callable[[], bool] | None = None) -> bytes:
    """At most ``limit`` bytes of ``raw`` inflated ``stages`` times (FlateDecode applied
    that many times), stopping at the first damage with what came before it (zlib's
    message is appended to ``damage``)."""
    chunks: Any = _pieces(raw)
    for _ in range(stages):
        chunks = inflated(chunks, damage)
    return _collect(chunks, limit, stop)


def _collect(chunks: Any, limit: int, stop: Callable[[], bool] | None = None) -> bytes:
    """The pieces ``chunks`` gives, pulled until there are ``limit`` bytes (no further), or
    until ``stop`` says so (:class:`ReadStopped`)."""
    parts: list[bytes] = []
    size = 0
    for chunk in chunks:
        if stop is not None and parts and stop():
            data = b"".join(parts)
            raise ReadStopped(_cut(data, len(data)))
        parts.append(chunk)
        size += len(chunk)
        if size >= limit:
            parts[-1] = chunk[:len(chunk) - (size - limit)]
            break
    # Joined once (no copy at all for a stream inflated in one piece).
    return b"".join(parts)


def _cut(data: bytes, budget: int) -> bytes:
    ends = [m.start() for m in _TOKEN_END.finditer(data, max(0, budget - 4096), budget)]
    return data[: ends[-1]] if ends else data[:budget]
