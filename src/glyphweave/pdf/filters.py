"""The standard stream filters (ISO 32000-1 §7.4), decoded as a chain of bounded generators.

qpdf decodes a whole stream into memory before handing any of it over, so a small stream
under ``[/ASCII85Decode /FlateDecode]``, an LZW bomb or a predictor behind a Flate bomb
reaches gigabytes before a budget can cut it. Here each filter is a generator that pulls
pieces from the one before it and gives back pieces of at most about ``PIECE`` bytes: the
reader stops pulling at its budget, so no stage ever decodes much more than was asked for.

Decoded bytes are those qpdf gives for the same stream (its quirks included: a RunLength
128 is skipped, not an end; a partial predictor row is padded with zeros; an ASCII85 group
that overflows keeps its low 32 bits), so text never changes with who decoded it. Where qpdf
refuses a stream (an unknown predictor, parameters of the wrong type) :class:`Undecodable`
is raised. Damaged data ends its stage with what decoded before the damage, and the damage
is appended to the caller's list, as qpdf would have given nothing at all.

The image filters (DCT, JPX, JBIG2, CCITT) and unknown ones are not decoded here:
:func:`decoder` answers None for a chain holding one, and the caller decides.
"""

from __future__ import annotations

import base64
import binascii
import sys
import zlib
from array import array
from collections.abc import Callable, Iterable, Iterator
from itertools import accumulate
from typing import Any

PIECE = 1 << 16
"""Encoded bytes fed to a stage at a time, and about the most one stage gives back at once."""

Chunks = Iterator[bytes]
Stage = Callable[[Iterable[bytes]], Chunks]

FLATE = ("/FlateDecode", "/Fl")
_NAMES = {
    "/FlateDecode": "flate", "/Fl": "flate",
    "/LZWDecode": "lzw", "/LZW": "lzw",
    "/ASCII85Decode": "a85", "/A85": "a85",
    "/ASCIIHexDecode": "ahx", "/AHx": "ahx",
    "/RunLengthDecode": "rl", "/RL": "rl",
    "/Crypt": "crypt",  # the raw data qpdf hands over is already decrypted
}
_WHITE = b" \t\n\r\x0c\x0b"
_A85_DIGITS = bytes(range(33, 118))
_HEX_DIGITS = b"0123456789abcdefABCDEF"
_BYTE = (255).__and__
_SINGLE = [bytes((i,)) for i in range(256)]


class Undecodable(ValueError):
    """A filter chain that neither this module nor qpdf decodes (bad /DecodeParms)."""


def decoder(names: list[str], parms: list[Any], limit: int, damage: list[str]) -> Stage | None:
    """The stage decoding the filters ``names`` (``/FlateDecode``, …, in order) with their
    decode parameters ``parms`` (a dict of Python values or None, one per filter), or None
    when a filter is not one of the standard non-image ones. ``limit`` is the most the
    caller will read (a predictor row longer than it is only read that far); damage found
    is appended to ``damage``. Raises :class:`Undecodable` for parameters qpdf refuses."""
    if any(name not in _NAMES for name in names):
        return None
    stages = [_stage(_NAMES[name], parm or {}, limit, damage) for name, parm in zip(names, parms, strict=True)]

    def decode(chunks: Iterable[bytes]) -> Chunks:
        out: Any = iter(chunks)
        for stage in stages:
            out = stage(out)
        return out

    return decode


def _stage(kind: str, parm: dict[str, Any], limit: int, damage: list[str]) -> Stage:
    if kind == "crypt":
        return lambda chunks: iter(chunks)
    if kind == "a85":
        return lambda chunks: _ascii85(chunks, damage)
    if kind == "ahx":
        return lambda chunks: _ascii_hex(chunks, damage)
    if kind == "rl":
        return _run_length
    predicted = _predictor(parm, limit)
    if kind == "lzw":
        early = _int(parm, "/EarlyChange", 1)
        if early not in (0, 1):
            raise Undecodable(f"/EarlyChange {early} is neither 0 nor 1")

        def first(chunks: Iterable[bytes]) -> Chunks:
            return _lzw(chunks, early, damage)
    else:
        def first(chunks: Iterable[bytes]) -> Chunks:
            return inflated(chunks, damage)
    if predicted is None:
        return first
    return lambda chunks: predicted(first(chunks))


def _int(parm: dict[str, Any], key: str, default: int) -> int:
    value = parm.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int):
        raise Undecodable(f"{key} is not an integer")
    return value


def _predictor(parm: dict[str, Any], limit: int) -> Stage | None:
    """The predictor stage a FlateDecode or LZWDecode filter's parameters ask for (None for
    none), checked as qpdf checks them."""
    predictor = _int(parm, "/Predictor", 1)
    columns = _int(parm, "/Columns", 1)
    colors = _int(parm, "/Colors", 1)
    bits = _int(parm, "/BitsPerComponent", 8)
    if predictor == 1:
        return None
    if predictor != 2 and not 10 <= predictor <= 15:
        raise Undecodable(f"/Predictor {predictor} is not a PDF predictor")
    if columns <= 0:
        raise Undecodable(f"/Columns {columns} is not positive")
    if colors < 1:
        raise Undecodable(f"/Colors {colors} is not positive")
    columns = min(columns, (1 << 31) - 1)
    if predictor == 2:
        if not 1 <= bits <= 64:
            raise Undecodable(f"/BitsPerComponent {bits} is not 1 to 64")
        return lambda chunks: _tiff(chunks, columns, colors, bits, limit)
    if bits not in (1, 2, 4, 8, 16):
        raise Undecodable(f"/BitsPerComponent {bits} is not 1, 2, 4, 8 or 16")
    row = (columns * colors * bits + 7) // 8
    pixel = (colors * bits + 7) // 8
    return lambda chunks: _png(chunks, row, pixel, limit)


# -- Flate ----------------------------------------------------------------------------


def inflated(chunks: Iterable[bytes], damage: list[str]) -> Chunks:
    """The pieces of the zlib data ``chunks`` inflated, none longer than ``PIECE``: the
    caller stops pulling at its budget, so no more is ever inflated than it asks for."""
    inflater = zlib.decompressobj()
    for chunk in chunks:
        data = chunk
        while data and not inflater.eof:
            before = inflater.copy()
            try:
                piece = inflater.decompress(data, PIECE)
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


def _before_damage(inflater: Any, data: bytes) -> Chunks:
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


# -- ASCII85 and ASCIIHex ---------------------------------------------------------------


def _ascii85(chunks: Iterable[bytes], damage: list[str]) -> Chunks:
    """ASCII85Decode: white-space skipped, ``z`` four zero bytes at a group's start, ``~>``
    the end; a final partial group of n digits gives n - 1 bytes."""
    carry = b""
    tilde = False  # a '~' was read: after white-space, its '>' comes next
    for chunk in chunks:
        if tilde:
            rest = chunk.lstrip(_WHITE)
            if not rest:
                continue
            if rest[:1] != b">":
                damage.append("broken end-of-data sequence in base 85 data")
                return
            break
        end = chunk.find(b"~")
        body = chunk if end < 0 else chunk[:end]
        text = carry + body.translate(None, _WHITE)
        bad = text.translate(None, _A85_DIGITS + b"z")
        if bad:
            good = text[:text.index(bad[:1])]
            yield _a85_groups(*_a85_split(good)[:1])
            damage.append("character out of range during base 85 decode")
            return
        whole, carry, broken = _a85_split(text)
        yield _a85_groups(whole)
        if broken:
            damage.append("unexpected z during base 85 decode")
            return
        if end >= 0:
            tilde = True
            rest = chunk[end + 1:].lstrip(_WHITE)
            if rest[:1] == b">":
                break
            if rest:
                damage.append("broken end-of-data sequence in base 85 data")
                return
    if carry:
        yield _a85_tail(carry)


def _a85_split(text: bytes) -> tuple[bytes, bytes, bool]:
    """``text`` as its whole groups (``z`` only at a group's start), the partial group left,
    and whether a ``z`` stood inside a group (the text stops before it)."""
    if b"z" in text:
        count = 0
        parts = text.split(b"z")
        for i, part in enumerate(parts[:-1]):
            count += len(part)
            if count % 5:
                good = b"z".join(parts[:i + 1])
                keep = len(good) - count % 5
                return good[:keep], b"", True
    digits = len(text) - text.count(b"z")
    cut = len(text) - digits % 5
    return text[:cut], text[cut:], False


def _a85_groups(text: bytes) -> bytes:
    """Whole groups (``z`` only at a group's start) decoded; a group above 2**32 - 1 keeps
    its low 32 bits, as qpdf does."""
    if not text:
        return b""
    expanded = text.replace(b"z", b"!!!!!")
    try:
        return base64.a85decode(expanded)
    except ValueError:  # an overflowing group: the slow way
        out = bytearray()
        for i in range(0, len(expanded), 5):
            out += _a85_value(expanded[i:i + 5]).to_bytes(4, "big")
        return bytes(out)


def _a85_value(group: bytes) -> int:
    value = 0
    for digit in group:
        value = value * 85 + digit - 33
    return value & 0xFFFFFFFF


def _a85_tail(carry: bytes) -> bytes:
    return _a85_value(carry + b"u" * (5 - len(carry))).to_bytes(4, "big")[:len(carry) - 1]


def _ascii_hex(chunks: Iterable[bytes], damage: list[str]) -> Chunks:
    """ASCIIHexDecode: white-space skipped, ``>`` the end, an odd last digit followed by 0."""
    carry = b""
    for chunk in chunks:
        end = chunk.find(b">")
        text = carry + (chunk if end < 0 else chunk[:end]).translate(None, _WHITE)
        bad = text.translate(None, _HEX_DIGITS)
        if bad:
            text = text[:text.index(bad[:1])]
            yield binascii.unhexlify(text[:len(text) - len(text) % 2])
            damage.append("character out of range during base Hex decode")
            return
        cut = len(text) - len(text) % 2
        yield binascii.unhexlify(text[:cut])
        carry = text[cut:]
        if end >= 0:
            break
    if carry:
        yield binascii.unhexlify(carry + b"0")


# -- RunLength and LZW ------------------------------------------------------------------


def _run_length(chunks: Iterable[bytes]) -> Chunks:
    """RunLengthDecode as qpdf reads it: a length byte 0-127 copies that many plus one
    bytes, 129-255 repeats the next byte 257 minus it times, 128 is skipped; a copy cut
    short by the end keeps what is there."""
    buf = b""
    out: list[bytes] = []
    size = 0
    for chunk in chunks:
        buf += chunk
        i, n = 0, len(buf)
        while i < n:
            length = buf[i]
            if length < 128:
                end = i + length + 2
                if end > n:
                    break
                piece = buf[i + 1:end]
                i = end
            elif length > 128:
                if i + 1 >= n:
                    break
                piece = buf[i + 1:i + 2] * (257 - length)
                i += 2
            else:
                i += 1
                continue
            out.append(piece)
            size += len(piece)
            if size >= PIECE:
                yield b"".join(out)
                out, size = [], 0
        buf = buf[i:]
    if buf and buf[0] < 128:
        out.append(buf[1:])
    if out:
        yield b"".join(out)


def _lzw(chunks: Iterable[bytes], early: int, damage: list[str]) -> Chunks:
    """LZWDecode (codes of 9 to 12 bits, 256 clears the table, 257 ends the data; the
    code length grows one code early when ``early`` is 1), with qpdf's checks."""
    table: list[bytes] = _SINGLE + [b"", b""]
    size = 9
    bits = count = 0
    last = 256
    out: list[bytes] = []
    produced = 0
    for chunk in chunks:
        for byte in chunk:
            bits = (bits << 8) | byte
            count += 8
            if count < size:
                continue
            count -= size
            code = bits >> count
            bits &= (1 << count) - 1
            if code == 256:
                del table[258:]
                size = 9
                last = 256
                continue
            if code == 257:
                if out:
                    yield b"".join(out)
                return
            following = len(table)
            if last != 256:
                if code < 256:
                    added = table[last] + _SINGLE[code]
                elif code < following:
                    added = table[last] + table[code][:1]
                elif code == following:
                    added = table[last] + table[last][:1]
                else:
                    damage.append("LZWDecoder: bad code received")
                    break
                if following == 4096:
                    damage.append("LZWDecoder: table full")
                    break
                table.append(added)
                if following + early in (511, 1023, 2047):
                    size += 1
            if code >= len(table):
                damage.append("LZWDecoder: table overflow")
                break
            piece = table[code]
            out.append(piece)
            produced += len(piece)
            last = code
            if produced >= PIECE:
                yield b"".join(out)
                out, produced = [], 0
        else:
            continue
        break
    if out:
        yield b"".join(out)


# -- predictors -------------------------------------------------------------------------


def _rows(chunks: Iterable[bytes], stride: int) -> Iterator[tuple[bytes, int]]:
    """``chunks`` as blocks of whole rows of ``stride`` bytes (and how many rows each
    holds), a final partial row padded with zeros as qpdf pads it."""
    buf = bytearray()
    for chunk in chunks:
        buf += chunk
        n = len(buf) // stride
        if n:
            block = bytes(buf[:n * stride])
            del buf[:n * stride]
            yield block, n
    if buf:
        buf += bytes(stride - len(buf))
        yield bytes(buf), 1


def _png(chunks: Iterable[bytes], row: int, pixel: int, limit: int) -> Chunks:
    """The PNG predictors (/Predictor 10-15): each row starts with its own filter type; an
    unknown type leaves the row as it is. A row longer than ``limit`` is read that far."""
    if row >= limit:  # the caller reads no further than the first row's start
        chunks, row = _first_row(chunks, limit + 1), limit
    stride = row + 1
    prev = bytes(row)
    high = int.from_bytes(b"\x80" * row, "big")
    low = int.from_bytes(b"\x7f" * row, "big")
    for block, n in _rows(chunks, stride):
        tags = block[0::stride]
        if tags.count(0) == n:  # None everywhere: drop the tags
            data = bytearray(block)
            del data[0::stride]
            yield bytes(data)
            prev = bytes(data[-row:])
            continue
        if row <= _NARROW and tags[0] in (1, 2) and tags.count(tags[0]) == n:
            data = bytearray(block)
            del data[0::stride]
            if tags[0] == 1:
                decoded = _by_columns(bytes(data), row, pixel)
            else:
                decoded = _up_by_columns(bytes(data), row, prev)
            yield decoded
            prev = decoded[-row:]
            continue
        out = []
        for r in range(n):
            start = r * stride
            prev = _png_row(tags[r], block[start + 1:start + stride], prev, pixel, high, low)
            out.append(prev)
        yield b"".join(out)


_NARROW = 64
"""Rows up to this many bytes are decoded a column at a time over a whole block of rows: a
Python step per row would make a bomb of one-byte rows take minutes."""


def _by_columns(data: bytes, row: int, step: int) -> bytes:
    """Rows of ``row`` bytes, each byte the sum of those ``step`` before it in its row (PNG
    Sub, TIFF at 8 bits): a column is the one ``step`` to its left plus its own, over every
    row at once (bytewise addition without carries on big integers)."""
    columns = [data[j::row] for j in range(row)]
    for j in range(step, row):
        columns[j] = _add(columns[j - step], columns[j])
    out = bytearray(len(data))
    for j in range(row):
        out[j::row] = columns[j]
    return bytes(out)


def _up_by_columns(data: bytes, row: int, prev: bytes) -> bytes:
    """Rows of PNG Up: each column a running sum down the rows from ``prev``'s byte."""
    out = bytearray(len(data))
    for j in range(row):
        out[j::row] = bytes(map(_BYTE, accumulate(data[j::row], initial=prev[j])))[1:]
    return bytes(out)


def _add(a: bytes, b: bytes) -> bytes:
    """``a`` and ``b`` (of one length) added byte by byte, modulo 256."""
    high = int.from_bytes(b"\x80" * len(a), "big")
    x, y = int.from_bytes(a, "big"), int.from_bytes(b, "big")
    return (((x & ~high) + (y & ~high)) ^ ((x ^ y) & high)).to_bytes(len(a), "big")


def _first_row(chunks: Iterable[bytes], size: int) -> Chunks:
    got = 0
    for chunk in chunks:
        chunk = chunk[:size - got]
        got += len(chunk)
        yield chunk
        if got >= size:
            return


def _png_row(tag: int, data: bytes, prev: bytes, pixel: int, high: int, low: int) -> bytes:
    if tag == 1:  # Sub: a running sum along each byte of the pixel
        out = bytearray(len(data))
        for c in range(min(pixel, len(data))):
            out[c::pixel] = bytes(map(_BYTE, accumulate(data[c::pixel])))
        return bytes(out)
    if tag == 2:  # Up: bytewise addition without carries, all bytes at once
        a = int.from_bytes(data, "big")
        b = int.from_bytes(prev, "big")
        return (((a & low) + (b & low)) ^ ((a ^ b) & high)).to_bytes(len(data), "big")
    if tag == 3:  # Average
        out = bytearray(data)
        for i in range(len(out)):
            left = out[i - pixel] if i >= pixel else 0
            out[i] = (out[i] + ((left + prev[i]) >> 1)) & 255
        return bytes(out)
    if tag == 4:  # Paeth
        out = bytearray(data)
        for i in range(len(out)):
            up = prev[i]
            if i >= pixel:
                left, corner = out[i - pixel], prev[i - pixel]
            else:
                left = corner = 0
            guess = left + up - corner
            pa, pb, pc = abs(guess - left), abs(guess - up), abs(guess - corner)
            out[i] = (out[i] + (left if pa <= pb and pa <= pc else up if pb <= pc else corner)) & 255
        return bytes(out)
    return data


def _tiff(chunks: Iterable[bytes], columns: int, colors: int, bits: int, limit: int) -> Chunks:
    """TIFF predictor 2: each sample is the difference from the same colour's sample to its
    left, within a row. A row longer than ``limit`` is read that far."""
    row = (columns * colors * bits + 7) // 8
    samples = columns * colors
    if row >= limit:  # the caller reads no further than the first row's start
        row, samples = limit, limit * 8 // bits
        chunks = _first_row(chunks, row)
    for block, n in _rows(chunks, row):
        if not block.strip(b"\x00"):  # zeros decode to zeros
            yield block
            continue
        if bits == 8 and row <= _NARROW:
            yield _by_columns(block, row, colors)
        elif bits == 8:
            yield b"".join(_tiff_bytes(block[r * row:(r + 1) * row], colors) for r in range(n))
        else:
            yield b"".join(_tiff_bits(block[r * row:(r + 1) * row], samples, colors, bits) for r in range(n))


def _tiff_bytes(data: bytes, colors: int) -> bytes:
    if colors == 1:
        return bytes(map(_BYTE, accumulate(data)))
    out = bytearray(len(data))
    for c in range(min(colors, len(data))):
        out[c::colors] = bytes(map(_BYTE, accumulate(data[c::colors])))
    return bytes(out)


def _tiff_bits(data: bytes, samples: int, colors: int, bits: int) -> bytes:
    """A row of ``samples`` samples of ``bits`` bits each (high bits first), the bits after
    the last sample left zero: 16-bit samples as whole arrays, others 64 samples at a time
    (shifting a whole row's integer per sample would be quadratic in the row)."""
    if bits == 16 and len(data) == 2 * samples:
        values = array("H", data)
        if sys.byteorder == "little":
            values.byteswap()
        out = array("H", bytes(len(data)))
        for c in range(min(colors, samples)):
            out[c::colors] = array("H", map((0xFFFF).__and__, accumulate(values[c::colors])))
        if sys.byteorder == "little":
            out.byteswap()
        return out.tobytes()
    mask = (1 << bits) - 1
    sums = [0] * min(colors, samples)
    step = 8 * bits  # bytes holding exactly 64 samples
    parts = []
    for first in range(0, len(data), step):
        segment = data[first:first + step]
        value = int.from_bytes(segment, "big")
        shift = len(segment) * 8
        result = 0
        for s in range(first // bits * 8, min(samples, (first + step) // bits * 8)):
            shift -= bits
            c = s % colors
            sums[c] = (sums[c] + (value >> shift)) & mask
            result |= sums[c] << shift
        parts.append(result.to_bytes(len(segment), "big"))
    return b"".join(parts)
