"""PDF's lexical conventions (ISO 32000-1 §7.2-7.3), shared by the content tokenizer and
the CMap parser.

Content streams and CMaps are written in the same token syntax, so one module holds it:
the character classes and token patterns (as regex fragments, for the scanners that
compile them into their own token regexes) and the readers of token bodies (literal
strings, hex strings, names, TJ arrays). Each reader exists once, so the two parsers
cannot drift apart on an escape or a stray byte.

Here and in the tokenizer, bytes are searched for one byte by its value (``0x5C in raw``,
not ``b"\\" in raw``): given a ``bytes`` needle, ``in`` first tries it as an integer and
formats a ``TypeError`` message before it searches, 95 ns against 13 ns on Python 3.11 and
180 ns on 3.12 and 3.13, for tests made on nearly every operator.
"""

from __future__ import annotations

import re
from typing import Any

WHITESPACE = rb"\x00\t\n\x0c\r "
"""PDF white-space (§7.2.2) as the inside of a character class: NUL counts, vertical
tab does not."""
DELIMITERS = rb"()<>\[\]{}/%"
"""The delimiter characters (§7.2.2), as the inside of a character class."""

WS_CHAR = rb"[" + WHITESPACE + rb"]"
WS = WS_CHAR + rb"*"
REGULAR = rb"[^" + WHITESPACE + DELIMITERS + rb"]"
"""A regular character: anything but white-space and delimiters."""
TOKEN_END = rb"(?!" + REGULAR + rb")"
"""Where a name, number or keyword ends: not before another regular character."""
SKIP = WS + rb"(?:%[^\r\n]*(?=[\r\n]|\Z)" + WS + rb")*"
"""White-space and comments before a token. One way to split any run, so a match that
fails after it cannot backtrack exponentially; and white-space is one repeat of a character
class, which the regex engine steps over without remembering a state per byte (a group
repeated per byte cost over 100 bytes of memory per byte of white-space)."""
NUMBER = rb"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?![\d.])"
"""An integer or real (§7.3.3); the lookahead makes each number parse one way only."""
REPEAT_MAX = 4096
"""The most times a pattern's group may repeat in one match. The regex engine keeps a
backtracking state for every repetition of a group (about 400 bytes), which it frees only
when the match ends: a TJ array of a million items cost 2 GB before the match failed, a
million drawing operators 700 MB. Capped, one match costs at most about 2 MB; what is longer
is read on by the next match, or token by token by the tokenizer's general path (a string
with more escapes by :func:`read_literal`), to the same result."""
GROUP_REPEAT = b"{0,%d}" % REPEAT_MAX
"""The quantifier of a repeated group in the token patterns: up to :data:`REPEAT_MAX` times."""

LITERAL_BODY = rb"[^\\()]*(?:\\.[^\\()]*)" + GROUP_REPEAT
"""The inside of a literal string without nested parentheses, "unrolled" (runs of plain
bytes, each escape followed by another run): a run is one step of the regex engine,
not one per byte. Strings with nested parentheses, or more escapes than
:data:`REPEAT_MAX`, are read by :func:`read_literal`."""
HEX_BODY = rb"[0-9A-Fa-f" + WHITESPACE + rb"]*"
"""The inside of a hex string (§7.3.4.3)."""
TJ_BODY = rb"(?:" + WS + rb"(?:\(" + LITERAL_BODY + rb"\)|<" + HEX_BODY + rb">|" + NUMBER + rb"))" + GROUP_REPEAT
"""The inside of a TJ array that :func:`read_tj` reads: strings and numbers only (at most
:data:`REPEAT_MAX` of them; a longer array is read by the general path)."""

_TJ_ITEM = re.compile(rb"\((" + LITERAL_BODY + rb")\)|<(" + HEX_BODY + rb")>|(" + NUMBER + rb")", re.DOTALL)
_ESCAPES = {
    ord("n"): b"\n", ord("r"): b"\r", ord("t"): b"\t", ord("b"): b"\b", ord("f"): b"\f",
    ord("("): b"(", ord(")"): b")", ord("\\"): b"\\",
}
_ESCAPE = re.compile(rb"\\([0-7]{1,3}|\n|.)", re.DOTALL)
_LITERAL_SPECIAL = re.compile(rb"[()\\]")
_NAME_ESCAPE = re.compile(rb"#([0-9A-Fa-f]{2})")


def _unescape(m: re.Match[bytes]) -> bytes:
    s = m.group(1)
    first = s[0]
    if 0x30 <= first <= 0x37:
        return bytes((int(s, 8) & 0xFF,))  # high-order overflow is ignored
    if first in (0x0A, 0x0D):
        return b""  # a backslash before an end-of-line continues the line
    return _ESCAPES.get(first, s)  # an unknown escape is the character itself


def unescape_literal(raw: bytes) -> bytearray:
    """The bytes a literal string's inside denotes (§7.3.4.2), as a ``bytearray``: the
    content tokenizer tells strings from numbers (``bytes``) by type."""
    if 0x0D in raw:  # a CR
        # A raw end-of-line in a string is one LF; a backslash before it continues the
        # line. Escapes (\\r, \\015) are decoded after this, so they stay CR.
        raw = raw.replace(b"\r\n", b"\n").replace(b"\r", b"\n")
    if 0x5C in raw:  # a backslash
        raw = _ESCAPE.sub(_unescape, raw)
    return bytearray(raw)


def read_literal(data: bytes, start: int, limit: int | None = None) -> tuple[bytearray | None, int]:
    """Read a literal string whose ``(`` is at ``start - 1``, balancing parentheses at any
    depth; return its bytes and the offset after its ``)``. An unterminated string takes
    the rest of the data, as viewers do. A string of more than ``limit`` bytes (as written)
    is not decoded: None, and the offset after it."""
    depth = 1
    pos = start
    search = _LITERAL_SPECIAL.search
    while True:
        m = search(data, pos)
        if m is None:
            if limit is not None and len(data) - start > limit:
                return None, len(data)
            return unescape_literal(data[start:]), len(data)
        i = m.start()
        c = data[i]
        if c == 0x5C:  # backslash: the next byte is escaped, whatever it is
            pos = i + 2
            continue
        pos = i + 1
        if c == 0x28:
            depth += 1
        else:
            depth -= 1
            if depth == 0:
                if limit is not None and i - start > limit:
                    return None, pos
                return unescape_literal(data[start:i]), pos


def decode_hex(raw: bytes) -> bytes:
    """The bytes of a hex string's inside (§7.3.4.3): white-space is ignored and an odd
    last digit is followed by an assumed 0."""
    try:  # the usual case: an even number of digits, spaces (if any) between bytes
        return bytes.fromhex(raw.decode("ascii"))
    except ValueError:
        pass
    digits = b"".join(raw.replace(b"\0", b" ").split())
    if len(digits) % 2:
        digits += b"0"
    return bytes.fromhex(digits.decode("ascii"))


def decode_name(raw: bytes) -> str:
    """A name's text without the slash (§7.3.5): ``#xx`` escapes decoded, bytes read as
    Latin-1 so that a name that is not UTF-8 still reads, byte for byte."""
    if 0x23 in raw:  # "#"
        raw = _NAME_ESCAPE.sub(lambda m: bytes((int(m.group(1), 16),)), raw)
    return raw.decode("latin-1")


def read_matrix(values: list[Any]) -> tuple[float, float, float, float, float, float] | None:
    """The last six of ``values`` (the operands of ``cm`` or ``Tm``, or a form's ``/Matrix``)
    as a matrix, each as ``float`` reads it (a numeric operand is its bytes); None when
    there are fewer than six or one is not a number. (Indexed one by one, not
    ``tuple(map(float, values[-6:]))``: compiled, that slice, map and tuple cost four times
    the numbers themselves, and an OCR layer has a ``cm`` and a ``Tm`` per word or glyph.)"""
    n = len(values)
    if n < 6:
        return None
    try:
        return (float(values[n - 6]), float(values[n - 5]), float(values[n - 4]),
                float(values[n - 3]), float(values[n - 2]), float(values[n - 1]))
    except (TypeError, ValueError):
        return None


def read_tj(operand: bytes | list[Any]) -> tuple[list[Any], list[tuple[int, float]] | None]:
    """The strings a TJ operand shows and its numbers, as ``(bytes shown before it,
    number)``; None when there are no numbers. Empty strings are left out.

    The operand is the source between the brackets (the content tokenizer's fast path
    hands it over unread, and most operands are never read: they were measured before),
    or the values of an array the tokenizer read token by token (strings as
    ``bytearray``; numbers as their bytes; anything else is skipped).
    """
    if isinstance(operand, list):
        return _tj_values(operand)
    strings: list[Any] = []
    adjustments: list[tuple[int, float]] = []
    count = 0  # bytes shown so far
    # Most arrays hold no escape: their literal strings are the bytes they denote.
    plain = 0x5C not in operand and 0x0D not in operand  # no backslash, no CR
    for lit, hexs, num in _TJ_ITEM.findall(operand):
        if num:
            adjustments.append((count, float(num)))
        elif hexs:
            data = decode_hex(hexs)
            if data:
                strings.append(data)
                count += len(data)
        elif lit:
            if not plain and (0x5C in lit or 0x0D in lit):
                lit = bytes(unescape_literal(lit))
                if not lit:
                    continue
            strings.append(lit)
            count += len(lit)
    return strings, adjustments or None


def _tj_values(items: list[Any]) -> tuple[list[Any], list[tuple[int, float]] | None]:
    strings: list[Any] = []
    adjustments: list[tuple[int, float]] = []
    count = 0
    for item in items:
        if isinstance(item, bytearray):
            if item:
                strings.append(item)
                count += len(item)
            continue
        try:
            adjustments.append((count, float(item)))
        except (TypeError, ValueError):
            continue
    return strings, adjustments or None
