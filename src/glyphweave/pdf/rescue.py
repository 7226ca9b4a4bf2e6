"""Objects qpdf reads as null for a number too large for it, kept by clamping the number.

qpdf parses an integer into 64 bits; a longer one (a page whose ``/MediaBox`` holds a
400-digit number) is an error that makes it read the whole object as null, and a page
dictionary read as null is dropped from the page tree with its text, where pdftotext keeps
the page. The PDF format sets no bound on a number's digits, but says a reader may take
2³¹ − 1 as the largest integer (ISO 32000-2, annex C): such a number is clamped to that.

The clamp is made on a copy of the file's bytes, in place: the number is overwritten by the
clamped value and padded with spaces to its length, so every offset the cross-reference
table gives stays right and qpdf reads the copy as it read the original, less that error.
Only objects qpdf names, at the offsets it gives, are touched; an object inside a compressed
object stream is beyond reach (its bytes are not the file's) and stays null, as qpdf said.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

__all__ = ["CLAMPED", "clamp_numbers", "objects_nulled_by_numbers"]

CLAMPED = 2**31 - 1
"""The value an integer too large for qpdf becomes (its sign kept)."""

_NULLED = re.compile(r"\(object (\d+) (\d+), offset (\d+)\): treating object as null because of error during "
                     r"parsing: overflow/underflow converting")
_LONG_INTEGER = re.compile(rb"(?<![\d.+-])[+-]?\d{19,}(?![\d.])")
"""An integer of 19 digits or more: the longest a 64-bit integer can need, checked exactly below."""
_OBJECT_END = b"endobj"
_OBJECT_SPAN_MAX = 1 << 20
"""How far past its offset an object's end is looked for: a page dictionary takes a few
hundred bytes; a stream's data past ``stream`` is never read (see :func:`clamp_numbers`)."""


def objects_nulled_by_numbers(warnings: Iterable[str]) -> list[tuple[int, int, int]]:
    """``(object number, generation, offset)`` of each object qpdf's ``warnings`` say it read
    as null for a number it could not convert."""
    found = []
    for warning in warnings:
        match = _NULLED.search(warning)
        if match is not None:
            found.append((int(match[1]), int(match[2]), int(match[3])))
    return found


def clamp_numbers(data: bytes, objects: Iterable[tuple[int, int, int]]) -> tuple[bytes, list[str]]:
    """``data`` with the integers too large for 64 bits in ``objects`` (as
    :func:`objects_nulled_by_numbers` gives them) clamped to ±:data:`CLAMPED`, and one line
    per object saying what was clamped. The objects' dictionaries are read up to their
    ``endobj`` or their ``stream`` keyword, at most 1 MB past their offset."""
    patched = bytearray(data)
    notes = []
    for number, generation, offset in objects:
        window = data[offset:offset + _OBJECT_SPAN_MAX]
        end = min((found for found in (window.find(_OBJECT_END), window.find(b"stream")) if found >= 0),
                  default=len(window))
        clamped = []
        for match in _LONG_INTEGER.finditer(window, 0, end):
            text = match[0]
            if abs(int(text)) < 1 << 63:
                continue  # qpdf reads it
            value = b"%d" % (-CLAMPED if text.startswith(b"-") else CLAMPED)
            patched[offset + match.start():offset + match.end()] = value.ljust(len(text))
            clamped.append(len(text.lstrip(b"+-")))
        if clamped:
            digits = ", ".join(f"{n:,}" for n in clamped)
            notes.append(f"object {number} {generation}: {'a number' if len(clamped) == 1 else 'numbers'} of "
                         f"{digits} digits, too large to read, clamped to {CLAMPED:,} (the object was kept)")
    return bytes(patched), notes
