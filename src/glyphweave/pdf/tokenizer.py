"""A content-stream tokenizer: a compiled regex over qpdf-decoded bytes.

PERFORMANCE.md measured this shape 2.4-2.6x faster than ``pikepdf.parse_content_stream``,
whose cost is building one pikepdf object per operand. Operands stay cheap here:

* numbers stay ``bytes`` (``float(b"1.5")`` converts them only when an operator needs it),
* strings become ``bytearray`` (so they are told apart from numbers by type),
* names become ``str`` without the slash, arrays ``list``, dictionaries ``dict``.

:func:`operations` yields ``(operator, operands)`` with ``operator`` as ``bytes``. Inline
images (``BI ... ID <binary> EI``) are skipped as a whole; ``ID`` data never reaches the
token stream. Strings with deeply nested parentheses, which the regex does not cover, are
parsed by hand.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

_SPACE = rb"\x00\t\n\x0c\r "
"""PDF white-space (§7.2.2): NUL counts, vertical tab does not."""
_DELIMS = _SPACE + rb"/\[\]()<>{}%"
_NUM = rb"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?![\d.])"  # one parse per number
# The body of a literal string without nested parentheses, "unrolled" (runs of plain
# bytes, each escape followed by another run): one way to match any text, and a run is
# one step of the regex engine rather than one per byte.
_LIT_BODY = rb"[^\\()]*(?:\\.[^\\()]*)*"
_LIT = rb"\(" + _LIT_BODY + rb"\)"
_HEX_BODY = rb"[0-9A-Fa-f\x00\t\n\x0c\r ]*"
_HEX = rb"<" + _HEX_BODY + rb">"
# Unambiguous (one way to split any run), so a failed match cannot backtrack exponentially.
_SKIP = rb"(?:[\x00\t\n\x0c\r ]|%[^\r\n]*(?=[\r\n]|\Z))*"
_WS = rb"[\x00\t\n\x0c\r ]*"
# Operators with only numeric operands (or none) that cannot change where or what text is
# painted. Longest alternatives first.
_IGNORED = rb"re|rg|RG|ri|sc|SC|scn|SCN|f\*|B\*|b\*|W\*|[mlcvyhSsfFBbnWgGkKwjJMi]"
_W = rb"[\x00\t\n\x0c\r ]"
_OPCHARS = rb"[A-Za-z'\"][^" + _DELIMS + rb"]*"
_IGNORED_OPS = frozenset(
    [b"re", b"rg", b"RG", b"ri", b"sc", b"SC", b"scn", b"SCN", b"f*", b"B*", b"b*", b"W*"]
    + [bytes((c,)) for c in b"mlcvyhSsfFBbnWgGkKwjJMi"]
)
# Single tokens: a number, name, string (one level of nested parentheses), hex string,
# operator or delimiter.
_GENERAL_TOKENS = (
    rb"(?P<num>" + _NUM + rb")(?![^" + _DELIMS + rb"])"
    + rb"|/(?P<name>[^" + _DELIMS + rb"]*)"
    + rb"|\((?P<str>(?:[^\\()]|\\.|\((?:[^\\()]|\\.)*\))*)\)"
    + rb"|<(?P<hex>" + _HEX_BODY + rb")>"
    + rb"|(?P<op>[^" + _DELIMS + rb"]+)"
    + rb"|(?P<delim><<|>>|[\[\]{}()<>])"
)
_END = rb"(?![^" + _DELIMS + rb"])"
_TJ_BODY = rb"(?:" + _WS + rb"(?:" + _LIT + rb"|" + _HEX + rb"|" + _NUM + rb"))*"


def _then_show(tj: str, sj: str, hj: str) -> bytes:
    """An optional ``[..] TJ``, ``(..) Tj`` or ``<..> Tj`` straight after the operation
    before it."""
    return (
        rb"(?:" + _WS + rb"(?:\[(?P<" + tj.encode() + rb">" + _TJ_BODY + rb")" + _WS + rb"\]" + _WS + rb"TJ" + _END
        + rb"|\((?P<" + sj.encode() + rb">" + _LIT_BODY + rb")\)" + _WS + rb"Tj" + _END
        + rb"|<(?P<" + hj.encode() + rb">" + _HEX_BODY + rb")>" + _WS + rb"Tj" + _END + rb"))?"
    )


_TOKEN = re.compile(
    _SKIP
    + rb"(?:"
    # Numbers then an operator, read once: most operators of any page (Td, Tm, Tc, cm,
    # path construction...), and bare operators (BT, ET, T*, q, Q) with no numbers; and
    # the string shown right after it, if any (x y Td [..] TJ).
    + rb"(?P<nums>(?:[0-9.+\\-]+" + _W + rb"+)*)(?P<opx>" + _OPCHARS + rb")" + _then_show("xtj", "xsj", "xhj")
    # Whole operations in one match: [ (..) -120 <..> ] TJ, (..) Tj, <..> Tj, /F1 12 Tf (and the
    # x y Td and string that pdfTeX and dvipdfmx write after almost every Tf).
    + rb"|\[(?P<tj>" + _TJ_BODY + rb")" + _WS + rb"\]" + _WS + rb"TJ" + _END
    + rb"|\((?P<sj>" + _LIT_BODY + rb")\)" + _WS + rb"Tj" + _END
    + rb"|<(?P<hj>" + _HEX_BODY + rb")>" + _WS + rb"Tj" + _END
    + rb"|(?P<tf>/(?P<tfname>[^" + _DELIMS + rb"]+)" + _W + rb"+(?P<tfsize>" + _NUM + rb")" + _W + rb"+Tf" + _END
    + rb")(?:" + _WS + rb"(?P<tdx>" + _NUM + rb")" + _W + rb"+(?P<tdy>" + _NUM + rb")" + _W + rb"+Td" + _END
    + _then_show("ttj", "tsj", "thj") + rb")?"
    # General tokens:
    + rb"|" + _GENERAL_TOKENS
    + rb")",
    re.DOTALL,
)
FUSABLE = frozenset([b"Td", b"TD", b"Tm", b"T*", b"Tc", b"Tw", b"Tz", b"TL", b"Ts", b"Tr", b"BT"])
"""Operators with numeric operands (or none) that ``operations(fuse=True)`` reports together
with the string shown right after them, as ``op + b" TJ"`` or ``op + b" Tj"``."""
FUSED = {op + b" " + show: (op, show) for op in FUSABLE | {b"Tf Td"} for show in (b"TJ", b"Tj")}
FUSED[b"Tf Td"] = (b"Tf", b"Td")
"""Every fused operator ``operations(fuse=True)`` may yield -> the two parts it stands for
(``b"Tf Td TJ"`` is ``b"Tf Td"`` then ``b"TJ"``; ``b"Tf Td"`` is Tf then Td)."""
_FUSED_TJ = {op: op + b" TJ" for op in FUSABLE}
_FUSED_TJ_STR = {op: op + b" Tj" for op in FUSABLE}
# After an operator that cannot affect text: the rest of a drawing (more such operators
# with numeric operands, comments, and q ... Q blocks holding only those and cm, which Q
# undoes), skipped in one match, so a figure costs a few steps rather than one per
# operator. Operands are not parsed, only stepped over: any run of digits, signs, dots and
# white-space (what the operands of these operators are made of) before the operator.
# Every step ends at a letter or '%', so there is one way to split any input.
_IGNORED_RE = rb"(?:" + _IGNORED + rb")" + _END
_NUMBERISH = rb"[0-9.+\-\x00\t\n\x0c\r ]*"
_DRAWING = re.compile(
    rb"(?:" + _NUMBERISH + rb"(?:" + _IGNORED_RE + rb"|%[^\r\n]*"
    + rb"|q" + _W + rb"(?:" + _NUMBERISH + rb"(?:" + _IGNORED_RE + rb"|cm" + _END + rb"))*"
    + _NUMBERISH + rb"Q" + _END + rb"))*"
)
_GENERAL = re.compile(_SKIP + rb"(?:" + _GENERAL_TOKENS + rb")", re.DOTALL)
"""One token at a time (inside arrays and dictionaries)."""
# The numbers following a lone number (operands of a non-operator: an array, a bad
# stream): read in one go so the numbers-then-operator fast path never rescans them.
_MORE_NUMS = re.compile(rb"(?:[\x00\t\n\x0c\r ]+" + _NUM + rb"(?![^" + _DELIMS + rb"]))*")
_TJ_ITEM = re.compile(rb"\((" + _LIT_BODY + rb")\)|<(" + _HEX_BODY + rb")>|(" + _NUM + rb")", re.DOTALL)
_ESCAPES = {
    ord("n"): b"\n", ord("r"): b"\r", ord("t"): b"\t", ord("b"): b"\b", ord("f"): b"\f",
    ord("("): b"(", ord(")"): b")", ord("\\"): b"\\",
}
_ESCAPE = re.compile(rb"\\([0-7]{1,3}|\n|.)", re.DOTALL)
_NAME_ESCAPE = re.compile(rb"#([0-9A-Fa-f]{2})")
# End of inline image data: EI as its own token followed by whitespace/delimiter or EOF.
_INLINE_END = re.compile(rb"(?<=[\x00\t\n\x0c\r \x00])EI(?=[" + _DELIMS + rb"]|\Z)")


_OPWORD_OR_COMMENT = re.compile(rb"%[^\r\n]*|([A-Za-z][A-Za-z*]*)")
# Letters (and the '*' of f*, B*, b*, W*) to "a", everything else to a space.
_WORD_CHARS = bytes(0x61 if chr(i).isascii() and (chr(i).isalpha() or i == 0x2A) else 0x20 for i in range(256))


def _count_operators(skipped: bytes) -> int:
    """How many operators a skipped drawing holds (words in its comments are not).

    A drawing holds only numbers and operators, so its operators are its runs of letters:
    counted by one translate and split, with no object per operator."""
    if b"%" not in skipped:
        return len(skipped.translate(_WORD_CHARS).split())
    return sum(map(bool, _OPWORD_OR_COMMENT.findall(skipped)))


class ContentSyntaxError(ValueError):
    """The content stream cannot be tokenized past some point."""


def _unescape_match(m: re.Match[bytes]) -> bytes:
    s = m.group(1)
    first = s[0]
    if 0x30 <= first <= 0x37:
        return bytes((int(s, 8) & 0xFF,))
    if first in (0x0A, 0x0D):
        return b""  # line continuation
    return _ESCAPES.get(first, s)


def unescape_literal(raw: bytes) -> bytearray:
    """The bytes a literal string denotes (§7.3.4.2)."""
    if b"\r" in raw:
        # A raw end-of-line in a string is one LF; a backslash before it continues the
        # line. Escapes (\\r, \\015) are decoded after this, so they stay CR.
        raw = raw.replace(b"\r\n", b"\n").replace(b"\r", b"\n")
    if b"\\" in raw:
        raw = _ESCAPE.sub(_unescape_match, raw)
    return bytearray(raw)


def decode_hex(raw: bytes) -> bytearray:
    try:  # the usual case: an even number of digits, spaces (if any) between bytes
        return bytearray.fromhex(raw.decode("ascii"))
    except ValueError:
        pass
    digits = b"".join(raw.replace(b"\0", b" ").split())
    if len(digits) % 2:
        digits += b"0"
    return bytearray.fromhex(digits.decode("ascii"))


def hex_bytes(raw: bytes) -> bytes:
    """A hex string's bytes, as ``bytes`` (the TJ fast path needs no mutable copy)."""
    try:
        return bytes.fromhex(raw.decode("ascii"))
    except ValueError:
        return bytes(decode_hex(raw))


def decode_name(raw: bytes) -> str:
    if b"#" in raw:
        raw = _NAME_ESCAPE.sub(lambda m: bytes((int(m.group(1), 16),)), raw)
    return raw.decode("latin-1")


def _scan_literal(data: bytes, start: int) -> tuple[bytearray, int]:
    """Parse a literal string whose '(' is at ``start - 1``; return it and the end offset."""
    depth = 1
    i = start
    n = len(data)
    while i < n:
        ch = data[i]
        if ch == 0x5C:  # backslash
            i += 2
            continue
        if ch == 0x28:
            depth += 1
        elif ch == 0x29:
            depth -= 1
            if depth == 0:
                return unescape_literal(data[start:i]), i + 1
        i += 1
    # Unterminated: take the rest, as viewers do.
    return unescape_literal(data[start:]), n


def _skip_inline_image(data: bytes, pos: int) -> int:
    """Offset just after the EI that ends inline image data starting at ``pos``."""
    # One whitespace byte follows ID; the data follows it.
    m = _INLINE_END.search(data, pos + 1)
    while m is not None:
        end = m.end()
        # Accept this EI if what follows looks like content (or nothing): a binary image
        # may contain the bytes " EI " by chance.
        tail = data[end:end + 64]
        if not tail.strip() or _looks_like_content(tail):
            return end
        m = _INLINE_END.search(data, end)
    return len(data)


def _looks_like_content(tail: bytes) -> bool:
    try:
        text = tail.decode("ascii")
    except UnicodeDecodeError:
        # Binary garbage right after: not the real end unless it is mostly whitespace.
        return False
    return all(ch.isprintable() or ch.isspace() for ch in text)


def _literal(raw: bytes) -> bytearray:
    return bytearray(raw) if b"\\" not in raw and b"\r" not in raw else unescape_literal(raw)


class RawTJ(bytes):
    """A TJ operand straight from the fast path, not yet read: the array's source between
    the brackets. Equal sources denote equal operands, so the interpreter can recognise
    one it has measured before; :func:`tj_triples` reads it when it has not."""

    __slots__ = ()


def tj_triples(source: bytes) -> list[tuple[bytes, bytes, bytes]]:
    """The items of a :class:`RawTJ` as ``(literal, hex, number)`` triples of undecoded
    bytes, exactly one of them non-empty (an empty string is an empty literal)."""
    return _TJ_ITEM.findall(source)


def literal_bytes(raw: bytes) -> bytes:
    """A literal string's bytes (fast when there is nothing to unescape)."""
    return raw if b"\\" not in raw and b"\r" not in raw else bytes(unescape_literal(raw))


def _tj_items(raw: bytes) -> list[Any]:
    items: list[Any] = []
    for lit, hexs, num in _TJ_ITEM.findall(raw):
        if num:
            items.append(num)
        elif hexs:
            items.append(decode_hex(hexs))
        else:
            items.append(_literal(lit))
    return items


def _shown(kind: str, raw: bytes, raw_tj: bool) -> Any:
    """The operand of a show read by a fast path whose group ``kind`` ends in "tj" (a TJ
    array), "sj" (a literal string) or "hj" (a hex string)."""
    if kind[-2] == "t":
        return RawTJ(raw) if raw_tj else _tj_items(raw)
    return _literal(raw) if kind[-2] == "s" else decode_hex(raw)


def operations(
    data: bytes, *, raw_tj: bool = False, fuse: bool = False
) -> Iterator[tuple[bytes, list[Any], int]]:
    """Yield ``(operator, operands, index)`` for each operator that may matter to text.

    With ``raw_tj``, a TJ array read by the fast path arrives unread, as a :class:`RawTJ`
    (the interpreter reads it only if it has not measured the same operand before);
    otherwise as a list whose strings are ``bytearray`` like everywhere else.

    With ``fuse``, an operator of :data:`FUSABLE` and the ``TJ``/``Tj`` right after it
    come as one item (``b"Td TJ"``, operands concatenated, the string last), and so do
    ``/F s Tf x y Td`` (``b"Tf Td"``) and ``/F s Tf x y Td [..] TJ`` (``b"Tf Td TJ"``):
    pdfTeX and dvipdfmx write these triples for nearly every string, and one item costs
    a third of three. :data:`FUSED` maps each such name to its parts. ``index`` is the
    last part's.

    ``index`` counts every operator of the stream from 1, including the path and colour
    operators that are skipped without being yielded. Malformed input never raises:
    unbalanced delimiters are dropped and a truncated stream ends the iteration.
    """
    stack: list[Any] = []
    # Containers being built: each is (kind, list) with kind b"[" or b"<<".
    nest: list[tuple[bytes, list[Any]]] = []
    pos = 0
    n = len(data)
    count = 0
    match = _TOKEN.match
    count_ops = _count_operators
    drawing = _DRAWING.match
    while pos < n:
        m = match(data, pos)
        if m is None:
            return
        pos = m.end()
        kind = m.lastgroup
        if kind is None:
            return  # nothing but whitespace left
        if not nest:
            if kind == "opx" or kind == "xtj" or kind == "xsj" or kind == "xhj":
                op = m.group("opx")
                count += 1
                if kind != "opx" and not (fuse and op in FUSABLE):
                    pos = m.end("opx")  # the string is the next match's
                    kind = "opx"
                if op in _IGNORED_OPS:
                    stack.clear()
                    more = drawing(data, pos)
                    if more is not None and more.end() > pos:
                        count += count_ops(more.group())
                        pos = more.end()
                    continue
                nums = m.group("nums")
                if nums:
                    stack.extend((nums if b"\0" not in nums else nums.replace(b"\0", b" ")).split())
                if kind != "opx":
                    stack.append(_shown(kind, m.group(kind), raw_tj))
                    count += 1
                    yield (_FUSED_TJ if kind == "xtj" else _FUSED_TJ_STR)[op], stack, count
                    stack = []
                    continue
                if op == b"ID":
                    pos = _skip_inline_image(data, pos)
                    stack.clear()
                    yield b"EI", [], count
                    continue
                if op == b"q":
                    more = drawing(data, pos - 1)  # a drawing-only q ... Q block
                    if more is not None and more.end() > pos:
                        count += count_ops(more.group()) - 1
                        pos = more.end()
                        stack.clear()
                        continue
                yield op, stack, count
                stack = []
                continue
            if kind == "tj" or kind == "sj" or kind == "hj":
                stack.append(_shown(kind, m.group(kind), raw_tj))
                count += 1
                yield b"TJ" if kind == "tj" else b"Tj", stack, count
                stack = []
                continue
            if kind == "tf" or kind == "tdy" or kind == "ttj" or kind == "tsj" or kind == "thj":
                stack.append(decode_name(m.group("tfname")))
                stack.append(m.group("tfsize"))
                count += 1
                if kind == "tf" or not fuse:
                    pos = m.end("tf")
                    yield b"Tf", stack, count
                    stack = []
                    continue
                stack.append(m.group("tdx"))
                stack.append(m.group("tdy"))
                count += 1
                if kind == "tdy":
                    yield b"Tf Td", stack, count
                else:
                    stack.append(_shown(kind, m.group(kind), raw_tj))
                    count += 1
                    yield b"Tf Td TJ" if kind == "ttj" else b"Tf Td Tj", stack, count
                stack = []
                continue
        elif kind in _FAST_KINDS:
            # Inside an array or dictionary: re-read the same text token by token.
            pos = m.start()
            m = _GENERAL.match(data, pos)
            if m is None:
                return
            pos = m.end()
            kind = m.lastgroup
        target = nest[-1][1] if nest else stack
        if kind == "num":
            target.append(m.group(kind))
            more = _MORE_NUMS.match(data, pos)
            if more is not None and more.end() > pos:
                target.extend(more.group().replace(b"\0", b" ").split())
                pos = more.end()
        elif kind == "op":
            op = m.group(kind)
            if nest:
                # true/false/null inside containers are values, not operators.
                target.append(op)
                continue
            count += 1
            if op == b"ID":
                pos = _skip_inline_image(data, pos)
                stack.clear()
                yield b"EI", [], count
                continue
            yield op, stack, count
            stack = []
        elif kind == "str":
            target.append(unescape_literal(m.group(kind)))
        elif kind == "name":
            target.append(decode_name(m.group(kind)))
        elif kind == "hex":
            try:
                target.append(decode_hex(m.group(kind)))
            except ValueError:
                target.append(bytearray())
        elif kind is not None:
            d = m.group(kind)
            if d == b"[" or d == b"<<":
                nest.append((d, []))
            elif d == b"]" or d == b">>":
                if not nest:
                    continue
                opener, items = nest.pop()
                value: Any
                if opener == b"<<":
                    value = {}
                    it = iter(items)
                    for key in it:
                        if isinstance(key, str):
                            value[key] = next(it, None)
                else:
                    value = items
                (nest[-1][1] if nest else stack).append(value)
            elif d == b"(":
                s, pos = _scan_literal(data, pos)
                target.append(s)
            # stray '<', '{', '}', ')' are ignored


_FAST_KINDS = frozenset({"opx", "xtj", "xsj", "xhj", "tj", "sj", "hj", "tf", "tdy", "ttj", "tsj", "thj"})
