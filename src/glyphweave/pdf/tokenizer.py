"""A content-stream tokenizer: compiled regexes over qpdf-decoded bytes.

This shape was measured 2.4-2.6x faster than ``pikepdf.parse_content_stream``, whose cost
is building one pikepdf object per operand. Operands stay cheap here:

* numbers stay ``bytes`` (``float(b"1.5")`` converts them only when an operator needs it),
* strings become ``bytearray`` (so they are told apart from numbers by type),
* names become ``str`` without the slash, arrays ``list``, dictionaries ``dict``,
* a TJ array read by the fast path stays its source, a :class:`RawTJ`.

:func:`operations` yields ``(operator, operands, index)`` items. Two paths read the stream:

* the fast path (:func:`operations` itself) reads a whole operation per regex match:
  numbers and their operator, ``/F1 9 Tf`` with the ``x y Td`` after it, and a string
  shown by ``TJ``/``Tj``, on its own or right after one of those. Drawings (paths,
  colours) are stepped over in one match and never yielded.
* the general path (:func:`_general`) reads whatever else comes a token at a time:
  names, arrays and dictionaries, strings with deeply nested parentheses, stray bytes.

Inline images (``BI ... ID <binary> EI``) are skipped as a whole; ``ID`` data never
reaches the token stream.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from typing import Any

from glyphweave.pdf.lexer import (
    GROUP_REPEAT,
    HEX_BODY,
    LITERAL_BODY,
    NUMBER,
    REGULAR,
    SKIP,
    TJ_BODY,
    TOKEN_END,
    WHITESPACE,
    WS,
    WS_CHAR,
    decode_hex,
    decode_name,
    read_literal,
    unescape_literal,
)
from glyphweave.pdf.operands import RawTJ

__all__ = ["FUSABLE", "FUSIONS", "GLYPH_BLOCK", "GLYPH_BLOCK_TR", "ContentSyntaxError", "Fused", "RawTJ", "operations"]


class ContentSyntaxError(ValueError):
    """The content stream cannot be tokenized past some point."""


class Fused:
    """Several operations that the fast path read in one match and hands over as one item.

    pdfTeX and dvipdfmx write ``/F1 9 Tf x y Td [..] TJ`` (or ``x y Td [..] TJ``) for
    nearly every string, and one item costs the interpreter a third of three. The
    record says which real operators the item stands for, in order; their operands come
    concatenated, the shown string last. Each operator after the first takes a fixed
    number of operands from the end (a shown string one, ``Td`` two) and the first takes
    the rest: :meth:`split`. Records are constants compared by identity.
    """

    __slots__ = ("operators", "_counts")

    def __init__(self, *operators: bytes) -> None:
        self.operators = operators
        self._counts = tuple(_ARITY.get(op, 1) for op in operators[1:])

    def split(self, operands: list[Any]) -> list[tuple[bytes, list[Any]]]:
        """The operations this item stands for, each with its own operands."""
        parts: list[tuple[bytes, list[Any]]] = []
        end = len(operands)
        for op, count in zip(self.operators[:0:-1], self._counts[::-1], strict=True):
            parts.append((op, operands[end - count:end]))
            end -= count
        parts.append((self.operators[0], operands[:end]))
        return parts[::-1]

    def __str__(self) -> str:
        return " ".join(op.decode("latin-1") for op in self.operators)

    def __repr__(self) -> str:
        return f"Fused({self})"


_ARITY = {b"Td": 2, b"TD": 2, b"Tf": 2, b"Tm": 6, b"cm": 6, b"q": 0, b"Q": 0, b"BT": 0, b"ET": 0, b"T*": 0}
"""Operands of the operators a fused item may hold after its first (1 for the rest)."""

FUSABLE = frozenset([b"Td", b"TD", b"Tm", b"T*", b"Tc", b"Tw", b"Tz", b"TL", b"Ts", b"Tr", b"BT"])
"""Operators with numeric operands (or none) that ``operations(fuse=True)`` reports together
with the string shown right after them."""
_THEN_TJ = {op: Fused(op, b"TJ") for op in FUSABLE}
_THEN_TJ_STRING = {op: Fused(op, b"Tj") for op in FUSABLE}
_TF_TD = Fused(b"Tf", b"Td")
_TF_TD_TJ = Fused(b"Tf", b"Td", b"TJ")
_TF_TD_TJ_STRING = Fused(b"Tf", b"Td", b"Tj")
GLYPH_BLOCK = Fused(b"q", b"cm", b"BT", b"Tm", b"Tf", b"Td", b"Tj", b"ET", b"Q")
"""A whole text object that paints one string in a saved state: what OCR layers (Epson's
scanner software, some others) write for every glyph or word, as
``q a b c d e f cm BT 1 0 0 1 0 0 Tm /F 9 Tf 0 0 Td <..> Tj ET Q``."""
GLYPH_BLOCK_TR = Fused(b"q", b"cm", b"BT", b"Tr", b"Tm", b"Tf", b"Td", b"Tj", b"ET", b"Q")
"""The same with a rendering mode set after ``BT`` (``3 Tr``: invisible text over a scan)."""
FUSIONS: dict[tuple[bytes, ...], Fused] = {
    fused.operators: fused
    for fused in [*_THEN_TJ.values(), *_THEN_TJ_STRING.values(), _TF_TD, _TF_TD_TJ, _TF_TD_TJ_STRING,
                  GLYPH_BLOCK, GLYPH_BLOCK_TR]
}
"""Every :class:`Fused` record ``operations(fuse=True)`` may yield, by its operators."""

Item = tuple["bytes | Fused", list[Any], int]

# --------------------------------------------------------------------------- the fast path

# A string shown right after what the match read before it (or on its own): [..] TJ,
# (..) Tj or <..> Tj. Its group's name says which, and is the match's lastgroup.
_SHOW = (
    rb"(?:" + WS + rb"(?:\[(?P<tj>" + TJ_BODY + rb")" + WS + rb"\]" + WS + rb"TJ" + TOKEN_END
    + rb"|\((?P<lit>" + LITERAL_BODY + rb")\)" + WS + rb"Tj" + TOKEN_END
    + rb"|<(?P<hex>" + HEX_BODY + rb")>" + WS + rb"Tj" + TOKEN_END + rb"))?"
)
_FAST_SOURCE = (
    SKIP
    + rb"(?:"
    # Numbers then an operator, read once: most operators of any page (Td, Tm, Tc, cm,
    # path construction...), and bare operators (BT, ET, T*, q, Q) with no numbers.
    # (The operands as one run of number characters and white-space ending in white-space:
    # a repeat of a character class, which costs no memory per operand.)
    + rb"(?P<nums>(?:[0-9.+\-][0-9.+\-" + WHITESPACE + rb"]*" + WS_CHAR + rb")?)(?P<op>[A-Za-z'\"]" + REGULAR + rb"*)"
    # /F1 12 Tf, and the x y Td that pdfTeX and dvipdfmx write after almost every Tf.
    + rb"|(?P<tf>/(?P<font>" + REGULAR + rb"+)" + WS_CHAR + rb"+(?P<size>" + NUMBER + rb")" + WS_CHAR
    + rb"+Tf" + TOKEN_END + rb")(?:" + WS + rb"(?P<tx>" + NUMBER + rb")" + WS_CHAR + rb"+(?P<ty>"
    + NUMBER + rb")" + WS_CHAR + rb"+Td" + TOKEN_END + rb")?"
    # Nothing: a shown string on its own (or, when _SHOW fails too, no fast token at all).
    + rb"|(?=[\[(<])"
    + rb")" + _SHOW
)
_SHOWN_BY = {"tj": b"TJ", "lit": b"Tj", "hex": b"Tj"}
# A run of numbers (and white-space) where the fast path failed: it fails anywhere inside it
# too, since the numbers' alternative reads to the same end and needs the same operator there.
_NUMBERS_RUN_SOURCE = SKIP + rb"[0-9.+\-][0-9.+\-" + WHITESPACE + rb"]*"


def _failed_run_end(data: bytes, pos: int) -> int:
    """Where the run of numbers at ``pos`` (after white-space and comments) ends, where the
    fast path just failed; ``pos`` when none starts there."""
    m = _fast_path()[3].match(data, pos)
    return pos if m is None else m.end()

# A glyph block (GLYPH_BLOCK, GLYPH_BLOCK_TR) from its "q": white-space (no comments)
# between its tokens, a number or keyword always followed by some.
_SEP = WS_CHAR + WS
_BLOCK_SOURCE = (
    rb"q" + _SEP + rb"(?P<cm>(?:" + NUMBER + _SEP + rb"){6})cm" + _SEP + rb"BT" + _SEP
    + rb"(?:(?P<tr>" + NUMBER + rb")" + _SEP + rb"Tr" + _SEP + rb")?"
    + rb"(?P<tm>(?:" + NUMBER + _SEP + rb"){6})Tm" + WS
    + rb"/(?P<font>" + REGULAR + rb"+)" + _SEP + rb"(?P<size>" + NUMBER + rb")" + _SEP + rb"Tf" + _SEP
    + rb"(?P<tx>" + NUMBER + rb")" + _SEP + rb"(?P<ty>" + NUMBER + rb")" + _SEP + rb"Td" + WS
    + rb"(?:\((?P<lit>" + LITERAL_BODY + rb")\)|<(?P<hex>" + HEX_BODY + rb")>)" + WS + rb"Tj" + _SEP
    + rb"ET" + _SEP + rb"Q" + TOKEN_END
)

# Operators with only numeric operands (or none) that cannot change where, what or in which
# colour text is painted (the colour operators are read: the glyph table records colours).
# Longest alternatives first.
_IGNORED = rb"re|ri|f\*|B\*|b\*|W\*|[mlcvyhSsfFBbnWwjJMi]"
_IGNORED_OPS = frozenset(
    [b"re", b"ri", b"f*", b"B*", b"b*", b"W*"]
    + [bytes((c,)) for c in b"mlcvyhSsfFBbnWwjJMi"]
)
# After an operator that cannot affect text: the rest of a drawing (more such operators
# with numeric operands, comments, and q ... Q blocks holding only those, cm and colours,
# which Q undoes), skipped in one match, so a figure costs a few steps rather than one per
# operator. Operands are not parsed, only stepped over: any run of digits, signs, dots and
# white-space (what the operands of these operators are made of) before the operator.
# Every step ends at a letter or '%', so there is one way to split any input.
_IGNORED_RE = rb"(?:" + _IGNORED + rb")" + TOKEN_END
# Inside a q ... Q block of drawing, a colour set with numbers is undone by the Q too: a
# figure that colours each of its paths in its own saved state is still stepped over whole.
_IN_BLOCK_RE = rb"(?:" + _IGNORED + rb"|cm|scn|SCN|sc|SC|rg|RG|[gGkK])" + TOKEN_END
_NUMBERISH = rb"[0-9.+\-" + WHITESPACE + rb"]*"
# (Each repeat is capped, lexer.REPEAT_MAX: a longer drawing is stepped over by the next
# match, a longer q ... Q block is read operator by operator.)
_DRAWING_SOURCE = (
    rb"(?:" + _NUMBERISH + rb"(?:" + _IGNORED_RE + rb"|%[^\r\n]*"
    + rb"|q" + WS_CHAR + rb"(?:" + _NUMBERISH + _IN_BLOCK_RE + rb")" + GROUP_REPEAT
    + _NUMBERISH + rb"Q" + TOKEN_END + rb"))" + GROUP_REPEAT
)


@functools.cache
def _fast_path() -> tuple[re.Pattern[bytes], re.Pattern[bytes], re.Pattern[bytes], re.Pattern[bytes]]:
    """The fast path's patterns: a whole operation, a glyph block, a drawing, a run of numbers.
    Compiled on first use: where the compiled build's C tokenizer reads the streams they are
    never needed, and compiling them cost 2 ms of every start-up."""
    return (re.compile(_FAST_SOURCE, re.DOTALL), re.compile(_BLOCK_SOURCE, re.DOTALL), re.compile(_DRAWING_SOURCE),
            re.compile(_NUMBERS_RUN_SOURCE))


_OPWORD_OR_COMMENT = re.compile(rb"%[^\r\n]*|([A-Za-z][A-Za-z*]*)")
# Letters (and the '*' of f*, B*, b*, W*) to "a", everything else to a space.
_WORD_CHARS = bytes(0x61 if chr(i).isascii() and (chr(i).isalpha() or i == 0x2A) else 0x20 for i in range(256))
_DRAWING_OPS = _IGNORED_OPS | {b"q"}
# End of inline image data: EI as its own token after white-space.
_INLINE_END = re.compile(rb"(?<=" + WS_CHAR + rb")EI" + TOKEN_END)


_WHITE_BYTES = b"\x00\t\n\x0c\r "
"""PDF white-space (§7.2.3), as bytes."""


def _content_end(data: bytes) -> int:
    """Where the stream's content ends: before the white-space it ends with, which is never
    read (a match that fails at the end gives it back a byte at a time, trying each
    alternative again, which took 20 s on the 64 MB of spaces a bomb's cut leaves). Read
    from the last bytes; the whole stream is copied only when they are all white-space."""
    n = len(data)
    if not n or data[-1] not in _WHITE_BYTES:
        return n
    tail = data[-64:]
    kept = tail.rstrip(_WHITE_BYTES)
    return n - len(tail) + len(kept) if kept else len(data.rstrip(_WHITE_BYTES))


def _past_inline_image(data: bytes, pos: int, dropped: list[str]) -> int:
    """Where reading goes on after the inline image whose data starts at ``pos``; with no
    ``EI`` to end it, the rest of the stream is the image's, said in ``dropped``."""
    end = _skip_inline_image(data, pos)
    if end < 0:
        dropped.append(UNENDED_IMAGE)
        return len(data)
    return end


def operations(data: bytes, *, fuse: bool = False, dropped: list[str] | None = None) -> Iterator[Item]:
    """Yield ``(operator, operands, index)`` for each operator that may matter to text.

    This loop is the fast path; what it cannot read goes to :func:`_general`. With
    ``fuse``, an operator of :data:`FUSABLE` and the ``TJ``/``Tj`` right after it come as
    one item, and so do ``/F s Tf x y Td`` and ``/F s Tf x y Td [..] TJ``: the item's
    operator is then a :class:`Fused` record (one of :data:`FUSIONS`), never ``bytes``,
    and ``index`` is its last operator's.

    ``index`` counts every operator of the stream from 1, including the path and colour
    operators that are skipped without being yielded. Malformed input never raises:
    unbalanced delimiters are dropped and a truncated stream ends the iteration. An
    operand too large to keep (:data:`OPERAND_ITEMS_MAX`, :data:`OPERAND_BYTES_MAX`) is
    left out of its operation and described in ``dropped``, for the caller to warn of.
    """
    if dropped is None:
        dropped = []
    stack: list[Any] = []
    pos = 0
    n = _content_end(data)
    count = 0
    fast, glyph_block = _fast_path()[:2]
    match = fast.match
    while pos < n:
        m = match(data, pos)
        last = None if m is None else m.lastgroup
        if m is None or last is None:  # no whole operation here
            # Nor anywhere in the run of numbers this starts, if it does: the general path
            # reads on to its end (retrying the fast path after each of its steps rescanned
            # the whole run: a few MB of numbers with no operator took minutes).
            stop = _failed_run_end(data, pos)
            while True:
                pos, op = _general(data, pos, stack, dropped)
                if op is not None:  # never ID: a word that starts with a letter is the fast path's
                    count += 1
                    yield op, stack, count
                    stack = []
                if pos >= stop:
                    break
            continue
        pos = m.end()
        if last == "op" or last == "tf" or last == "ty":
            op = m[last] if last == "op" else None
        else:  # a string shown at the end of the match: alone or after an operation
            op = m["op"]
            if op is None and m["tf"] is None:
                stack.append(_shown(m, last, dropped))
                count += 1
                yield _SHOWN_BY[last], stack, count
                stack = []
                continue
            if op is not None:
                if fuse and op in FUSABLE:
                    yield _fused_show(m, op, last, stack, count + 2, dropped)
                    count += 2
                    stack = []
                    continue
                pos = m.end("op")  # the string is the next match's
        if op is None:  # /F s Tf, perhaps with x y Td and a shown string after it
            stack.append(decode_name(m["font"]))
            stack.append(m["size"])
            count += 1
            if fuse and last != "tf" and m["ty"] is not None:
                item = _font_then(m, last, stack, count, dropped)
                count = item[2]
                yield item
            else:
                pos = m.end("tf")  # a Td or string after it is the next match's
                yield b"Tf", stack, count
            stack = []
            continue
        count += 1
        if op in _DRAWING_OPS:
            if fuse and op == b"q" and not m["nums"]:
                block = glyph_block.match(data, m.start("op"))
                if block is not None:
                    item = _glyph_block(block, stack, count, dropped)
                    count = item[2]
                    pos = block.end()
                    stack = []
                    yield item
                    continue
            end, more = _skip_drawing(data, pos, op)
            if end:
                count += more
                pos = end
                stack.clear()
                continue
        nums = m["nums"]
        if nums:
            if len(nums) > _NUMBERS_BYTES_MAX:
                nums = _last_numbers(nums, dropped)
            stack.extend((nums if 0 not in nums else nums.replace(b"\0", b" ")).split())
        if op == b"ID":
            pos = _past_inline_image(data, pos, dropped)
            stack.clear()
            yield b"EI", [], count
            continue
        yield op, stack, count
        stack = []


def _skip_drawing(data: bytes, pos: int, op: bytes) -> tuple[int, int]:
    """Step over the drawing that ``op`` (read up to ``pos``) belongs to: return where it
    ends and how many operators it holds besides ``op``. A drawing operator is never
    yielded; a ``q`` is, (0, 0), unless it opens a drawing-only ``q ... Q`` block."""
    if op == b"q":
        more = _fast_path()[2].match(data, pos - 1)
        if more is not None and more.end() > pos:
            return more.end(), _count_operators(more.group()) - 1
        return 0, 0
    more = _fast_path()[2].match(data, pos)
    if more is not None and more.end() > pos:
        return more.end(), _count_operators(more.group())
    return pos, 0


_GAP = re.compile(WS_CHAR)
_NUMBERS_BYTES_MAX = 1 << 16
"""Numbers before one operator kept whole up to this many bytes (no operator takes more than
a few dozen); past it only the last ones are kept, as an operator takes its operands from
the end."""


def _last_numbers(nums: bytes, dropped: list[str]) -> bytes:
    """The end of an over-long run of numbers (whole numbers only), the rest said in
    ``dropped``."""
    tail = nums[-4096:]
    gap = _GAP.search(tail)  # the first number of the tail may be cut: start after it
    dropped.append(f"{len(nums) // 1024:,} KB of numbers before one operator")
    return tail[gap.end():] if gap is not None else b""


def _shown(m: re.Match[bytes], group: str, dropped: list[str]) -> Any:
    """The operand of the show whose body ``group`` of the fast match holds: an empty one,
    said in ``dropped``, past :data:`OPERAND_BYTES_MAX` (a string the fast path matches
    whole, with no escape in it, is as long as the stream allows)."""
    return show_operand(m[group], group, dropped)


def show_operand(raw: bytes, group: str, dropped: list[str]) -> Any:
    """The operand a shown string's body ``raw`` denotes, its kind named as the fast match's
    groups are (``tj``, ``lit``, ``hex``); :func:`_shown` says the rest. (The compiled
    scanner calls it for what it does not read itself.)"""
    if len(raw) > OPERAND_BYTES_MAX:
        dropped.append(_LONG_STRING if group != "tj" else f"a TJ array of more than {OPERAND_BYTES_MAX >> 20} MB")
        return RawTJ(b"") if group == "tj" else b""
    if group == "tj":
        return RawTJ(raw)
    return unescape_literal(raw) if group == "lit" else bytearray(decode_hex(raw))


def _fused_show(m: re.Match[bytes], op: bytes, show: str, stack: list[Any], index: int,
                dropped: list[str]) -> Item:
    """The item for an operator of :data:`FUSABLE` and the string shown right after it."""
    nums = m["nums"]
    if nums:
        stack.extend(_numbers(nums if len(nums) <= _NUMBERS_BYTES_MAX else _last_numbers(nums, dropped)))
    stack.append(_shown(m, show, dropped))
    return (_THEN_TJ if show == "tj" else _THEN_TJ_STRING)[op], stack, index


def _glyph_block(m: re.Match[bytes], stack: list[Any], index: int, dropped: list[str]) -> Item:
    """The item for a glyph block whose ``q`` has index ``index`` (operands before it, if
    any, are left on ``stack`` for its first operator, as in any fused item)."""
    for group in ("cm", "tr", "tm"):
        nums = m[group]
        if nums:
            stack.extend(_numbers(nums))
    stack.append(decode_name(m["font"]))
    stack.append(m["size"])
    stack.append(m["tx"])
    stack.append(m["ty"])
    stack.append(_shown(m, m.lastgroup or "", dropped))
    record = GLYPH_BLOCK if m["tr"] is None else GLYPH_BLOCK_TR
    return record, stack, index + len(record.operators) - 1


def _numbers(nums: bytes) -> list[bytes]:
    """The numbers of a run of numbers and white-space (NUL is white-space too). The fast
    loop of :func:`operations` does the same inline."""
    return (nums if 0 not in nums else nums.replace(b"\0", b" ")).split()  # 0: a NUL byte


def _font_then(m: re.Match[bytes], last: str, stack: list[Any], index: int, dropped: list[str]) -> Item:
    """The item for ``/F s Tf`` (index ``index``, operands on ``stack``) fused with the
    ``x y Td`` after it, and with the string shown after that if the match holds one."""
    stack.append(m["tx"])
    stack.append(m["ty"])
    if last == "ty":
        return _TF_TD, stack, index + 1
    stack.append(_shown(m, last, dropped))
    return (_TF_TD_TJ if last == "tj" else _TF_TD_TJ_STRING), stack, index + 2


# --------------------------------------------------------------------------- the general path

_GENERAL = re.compile(
    SKIP
    + rb"(?:(?P<num>" + NUMBER + rb")" + TOKEN_END
    + rb"|/(?P<name>" + REGULAR + rb"*)"
    # A literal string with at most one level of nested parentheses, unrolled as
    # LITERAL_BODY; deeper ones, and longer ones, are read by read_literal from the lone
    # "(" delimiter.
    + rb"|\((?P<str>[^\\()]*(?:(?:\\.|\(" + LITERAL_BODY + rb"\))[^\\()]*)" + GROUP_REPEAT + rb")\)"
    + rb"|<(?P<hex>" + HEX_BODY + rb")>"
    + rb"|(?P<op>" + REGULAR + rb"+)"
    + rb"|(?P<delim><<|>>|[\[\]{}()<>]))",
    re.DOTALL,
)
# The numbers following a lone number (operands of a non-operator: an array, a bad
# stream): read in one go so the numbers-then-operator fast path never rescans them.
_MORE_NUMS = re.compile(rb"(?:" + WS_CHAR + rb"+" + NUMBER + TOKEN_END + rb")" + GROUP_REPEAT)


OPERAND_ITEMS_MAX = 100_000
"""The most items one array or dictionary operand may hold (a TJ array of a real page holds
a few hundred). A larger one is read to its end, holding no more than this many items at a
time, and dropped: a 10 KB compressed page of five million numbers in brackets otherwise
costs hundreds of megabytes of operands."""
OPERAND_BYTES_MAX = 1 << 20
"""The most bytes one string operand may take, as written (1 MB): a longer one, such as an
unterminated string that runs to the end of the stream, is dropped undecoded."""

_LONG_STRING = f"a string of more than {OPERAND_BYTES_MAX >> 20} MB"


def _general(data: bytes, pos: int, stack: list[Any], dropped: list[str]) -> tuple[int, bytes | None]:
    """The general path: read one token at ``pos`` token by token, as the fast path
    cannot. An operand (a name, a run of numbers, a string, a whole array or dictionary)
    goes onto ``stack``; an operator is returned. Returns the offset after what was read
    (``len(data)`` at the end of the data). An operand past :data:`OPERAND_ITEMS_MAX` or
    :data:`OPERAND_BYTES_MAX` is left out, and said in ``dropped``."""
    nest: list[tuple[bytes, list[Any]]] = []  # containers being read: (opener, items)
    target = stack
    overflowing: set[int] = set()  # depths in nest of containers too large to keep
    while True:
        m = _GENERAL.match(data, pos)
        if m is None:
            return len(data), None
        pos = m.end()
        kind = m.lastgroup
        if kind == "num":
            target.append(m[kind])
            more = _MORE_NUMS.match(data, pos)
            if more is not None and more.end() > pos:
                target.extend(more.group().replace(b"\0", b" ").split())
                pos = more.end()
        elif kind == "op":
            if not nest:
                return pos, m[kind]
            target.append(m[kind])  # true, false and null inside containers are values
        elif kind == "str":
            raw = m[kind]
            if len(raw) > OPERAND_BYTES_MAX:
                dropped.append(_LONG_STRING)
            else:
                target.append(unescape_literal(raw))
        elif kind == "name":
            target.append(decode_name(m[kind]))
        elif kind == "hex":
            raw = m[kind]
            if len(raw) > 2 * OPERAND_BYTES_MAX:
                dropped.append(f"a hex {_LONG_STRING[2:]}")
            else:
                target.append(_hex_string(raw))
        else:
            d = m["delim"]
            if d == b"[" or d == b"<<":
                target = []
                nest.append((d, target))
            elif d == b"]" or d == b">>":
                if nest:  # a stray closer is dropped
                    opener, items = nest.pop()
                    target = nest[-1][1] if nest else stack
                    if len(nest) in overflowing:
                        overflowing.discard(len(nest))
                        kind_name = "a dictionary" if opener == b"<<" else "an array"
                        dropped.append(f"{kind_name} of more than {OPERAND_ITEMS_MAX:,} items")
                    else:
                        target.append(_dictionary(items) if opener == b"<<" else items)
            elif d == b"(":
                s, pos = read_literal(data, pos, OPERAND_BYTES_MAX)
                if s is None:
                    dropped.append(_LONG_STRING)
                else:
                    target.append(s)
            # stray '<', '{', '}', ')' are ignored
        if not nest:
            return pos, None
        if len(target) > OPERAND_ITEMS_MAX:  # kept no longer: read on to the container's end
            overflowing.add(len(nest) - 1)
            target.clear()


def _hex_string(raw: bytes) -> bytearray:
    try:
        return bytearray(decode_hex(raw))
    except ValueError:
        return bytearray()


def _dictionary(items: list[Any]) -> dict[str, Any]:
    """A dictionary from its items: keys are names; a value missing at the end is None."""
    value = {}
    it = iter(items)
    for key in it:
        if isinstance(key, str):
            value[key] = next(it, None)
    return value


def _count_operators(skipped: bytes) -> int:
    """How many operators a skipped drawing holds (words in its comments are not).

    A drawing holds only numbers and operators, so its operators are its runs of letters:
    counted by one translate and split, with no object per operator."""
    if 0x25 not in skipped:  # no "%": no comment
        return len(skipped.translate(_WORD_CHARS).split())
    return sum(map(bool, _OPWORD_OR_COMMENT.findall(skipped)))


UNENDED_IMAGE = "an inline image has no EI that ends it: the rest of the content stream was not read"
"""Said in ``dropped`` (:func:`operations`) when an inline image's data runs to the stream's end."""


def _skip_inline_image(data: bytes, pos: int) -> int:
    """Offset just after the EI that ends inline image data starting at ``pos``; -1 when no
    EI does (every candidate is followed by binary bytes, or there is none)."""
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
    return -1


def _looks_like_content(tail: bytes) -> bool:
    """Whether ``tail`` (the bytes after a candidate EI) reads as content: printable text,
    or printable text with an operator word up to a string's opening parenthesis, after
    which a string's bytes may be anything (Ghostscript's Type3 text, right after an image
    rule, shows binary codes: refusing that EI lost the rest of the page)."""
    head, paren, _ = tail.partition(b"(")
    try:
        text = (head if paren else tail).decode("ascii")
    except UnicodeDecodeError:
        # Binary garbage right after: not the real end unless it is mostly whitespace.
        return False
    if not all(ch.isprintable() or ch.isspace() for ch in text):
        return False
    return not paren or tail.isascii() or _OPERATOR_WORD.search(head) is not None


# An operator word that content may hold before a string: a text or state operator.
_OPERATOR_WORD = re.compile(rb"(?:^|[\s\]])(?:BT|ET|Tf|Tm|Td|TD|T\*|Tc|Tw|Tz|TL|Tr|Ts|q|Q|cm|gs|BDC|BMC|EMC)"
                            rb"(?=[\s/\[(<]|$)")
