"""The compiled build's measuring of a simple font's shown string (``_cmeasure``) gives what
the reference (:func:`glyphweave.pdf.measure.measure_simple`) gives, to the bit.

Skipped where the C module is not built (a pure install); the ``mypyc`` tox environment
builds it, and compares both builds' text on every shared PDF besides.
"""

from __future__ import annotations

import itertools
import math
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from glyphweave.core.decoding import DecodeTable
from glyphweave.pdf import measure
from glyphweave.pdf.cmap import parse_cmap
from glyphweave.pdf.fonts import ScaledWidths

native = pytest.importorskip("glyphweave.pdf._cmeasure", reason="the C measuring is not built (a pure install)")


def _exact(value: Any) -> Any:
    """``value`` with every float spelled to the bit (a signed zero, a NaN), tuples kept apart
    from lists."""
    if isinstance(value, float):
        return ("float", value.hex())
    if isinstance(value, (tuple, list)):
        return (type(value).__name__, [_exact(item) for item in value])
    return (type(value).__name__, value)


def _table(asked: list[int]) -> DecodeTable:
    def resolve(code: Any) -> tuple[str, str | None]:
        asked.append(code)
        return (chr(0x41 + code % 26), "test") if code % 7 else ("", None)

    return DecodeTable(resolve)


def assert_same(widths: Any, strings: list[Any], adjustments: Any, hscale: float, th: float, tc: float, tw: float,
                wmode: int) -> None:
    """Both measure the operand alike, decode the same codes in the same order, and raise
    alike; the C module with the font's :class:`KnownCodes` and without. Each measures the
    operand, then again (every code known), then its bytes reversed in one string."""
    operands = [strings, strings, [b"".join(bytes(s) for s in strings)[::-1]]]
    results = []
    for implementation, known in ((measure.measure_simple, None), (native.measure_simple, None),
                                  (native.measure_simple, native.KnownCodes())):
        asked: list[int] = []
        table = _table(asked)
        found: list[Any] = []
        for operand in operands:
            arguments = (list(widths) if isinstance(widths, list) else widths, table, [type(s)(s) for s in operand],
                         adjustments, hscale, th, tc, tw, wmode)
            try:
                found.append(implementation(*arguments) if known is None else implementation(*arguments, known))
            except Exception as exc:  # noqa: BLE001 (compared, not swallowed)
                found.append(f"{type(exc).__name__}: {exc}")
        results.append((_exact(found), asked))
    assert results[1] == results[0]
    assert results[2] == results[0]


WIDTHS = [i * 0.37 - 5.0 for i in range(256)]


@pytest.mark.parametrize(("strings", "adjustments", "tc", "tw", "wmode"), [
    ([b"Hello world"], None, 0.0, 0.0, 0),
    ([b"Hello world"], None, 0.25, 1.5, 0),
    ([b"Hello world"], None, 0.25, 1.5, 1),
    ([b"He", b"llo", b" w"], [(2, -250.0), (5, 120.0), (0, 33.0), (7, 9.0), (99, 1.0)], 0.0, 0.0, 0),
    ([b"He", b"llo"], [(2, -250.0), (2, 250.0)], 0.1, 0.0, 0),  # two numbers after one glyph
    ([bytearray(b"a b")], None, -0.0, 0.0, 0),
    ([b""], [(0, 5.0)], 0.0, 0.0, 0),
    ([], [(0, 5.0)], 0.0, 0.0, 0),
    ([b"x"], None, 0.0, 0.0, 0),
    ([b"\x00\xff"], None, 0.0, 0.0, 0),
])
def test_operands(strings, adjustments, tc, tw, wmode):
    assert_same(WIDTHS, strings, adjustments, 10.0, 1.0, tc, tw, wmode)


def test_advances_the_c_module_does_not_read_go_to_the_reference():
    assert_same(WIDTHS[:100], [b"\x10\xf0"], None, 10.0, 1.0, 0.0, 0.0, 0)  # a code past the list: IndexError
    assert_same([1] * 256, [b"ab"], None, 10.0, 1.0, 0.0, 0.0, 0)  # ints, not floats
    assert_same(tuple(WIDTHS), [b"ab"], None, 10.0, 1.0, 0.0, 0.0, 0)  # not a list
    assert_same(WIDTHS, [memoryview(b"ab")], None, 10.0, 1.0, 0.0, 0.0, 0)  # neither bytes nor bytearray
    assert_same(WIDTHS, [b"ab"], [(-1, 5.0)], 10.0, 1.0, 0.0, 0.0, 0)  # a negative position
    assert_same(WIDTHS, [b"ab", 5], None, 10.0, 1.0, 0.0, 0.0, 0)  # TypeError from the join


_NUMBERS = st.one_of(
    st.sampled_from([0.0, -0.0, 1.0, -1.0, 0.5, 1e-300, 1e300, math.inf, -math.inf, math.nan]),
    st.floats(min_value=-1000, max_value=1000),
    st.floats(allow_nan=True, allow_infinity=True),
)
_WIDTH_LISTS = st.one_of(
    st.just(WIDTHS),
    st.lists(st.one_of(st.floats(min_value=-50, max_value=50), st.sampled_from([0.0, -0.0, 3.0])),
             min_size=256, max_size=256),
)


@settings(max_examples=400, deadline=None)
@given(widths=_WIDTH_LISTS,
       strings=st.lists(st.one_of(st.binary(max_size=12), st.binary(max_size=12).map(bytearray),
                                  st.sampled_from([b" ", b"a b", b"  "])), max_size=4),
       adjustments=st.one_of(st.none(), st.lists(st.tuples(st.integers(0, 30), _NUMBERS), max_size=5)),
       hscale=_NUMBERS, th=_NUMBERS, tc=_NUMBERS, tw=_NUMBERS, wmode=st.sampled_from([0, 1]))
def test_generated_operands_and_text_states(widths, strings, adjustments, hscale, th, tc, tw, wmode):
    assert_same(widths, strings, adjustments, hscale, th, tc, tw, wmode)


def _split(width: int) -> Any:
    """A CMap's split for codes of one ``width`` (what the C module cuts itself), or for
    ``width`` 0 a real CMap's of several widths (one byte below 0x81, two from there, as
    GBK-EUC's; 0xFF a byte no range starts: the CMap's slow path)."""
    if width:
        return lambda data: [data[i:i + width] for i in range(0, len(data), width)]
    return _SEVERAL_WIDTHS.split


_SEVERAL_WIDTHS = parse_cmap(b"2 begincodespacerange <00> <80> <8140> <FEFE> endcodespacerange")


def assert_same_composite(width: int, strings: list[Any], adjustments: Any, widths: Any, hscale: float, th: float,
                          tc: float, tw: float, wmode: int, space_single_byte: bool = True) -> None:
    """Both measure a composite font's operand alike, look up and decode the same codes in
    the same order, and raise alike: with the font's own scaled advances (a
    :class:`ScaledWidths`, which the C module multiplies out itself) and with any other
    table of advances; the C module with the font's :class:`KnownCodes` and without. Each
    measures the operand, then again (every code known), then its bytes reversed in one
    string (some codes known, some new)."""
    operands = [strings, strings, [b"".join(bytes(s) for s in strings)[::-1]]]
    for own_table in (True, False):
        results = []
        for implementation, known in ((measure.measure_composite, None), (native.measure_composite, None),
                                      (native.measure_composite, native.KnownCodes())):
            asked: list[Any] = []

            def to_cid(code: bytes, asked: list[Any] = asked) -> int:
                asked.append(("cid", code))
                return int.from_bytes(code, "big") % 40

            def base_width(cid: int, asked: list[Any] = asked) -> Any:
                asked.append(("width", cid))
                return widths[cid]

            cid_table = DecodeTable(to_cid)
            if own_table:
                scaled: Any = ScaledWidths(DecodeTable(base_width), hscale / 1000.0)
            else:
                scaled = DecodeTable(lambda cid: widths[cid] * hscale / 1000.0)
            table = DecodeTable(lambda code, asked=asked: (asked.append(("text", code)), ("x", "test"))[1])
            found: list[Any] = []
            for operand in operands:
                shown = [type(s)(s) for s in operand]
                arguments = (_split(width), width, cid_table, scaled, table, shown, adjustments, hscale, th, tc,
                             tw, wmode, space_single_byte)
                try:
                    found.append(implementation(*arguments) if known is None else implementation(*arguments, known))
                except Exception as exc:  # noqa: BLE001 (compared, not swallowed)
                    found.append(f"{type(exc).__name__}: {exc}")
            results.append((_exact(found), asked, _exact(sorted(scaled.items(), key=repr))))  # filled alike
        assert results[1] == results[0]
        assert results[2] == results[0]


def test_known_codes_keep_each_code_once_and_its_first_answers():
    known = native.KnownCodes()
    texts = itertools.count()
    table = DecodeTable(lambda code: (str(next(texts)), "test"))
    cid_table = DecodeTable(lambda code: len(code))
    codes = [bytes([a, b]) for a in range(0, 256, 3) for b in range(0, 256, 5)]  # 86 x 52: the table grows
    data = b"".join(codes)
    first = native.measure_composite(_split(2), 2, cid_table, [500.0] * 3, table, [data], None, 1.0, 1.0, 0.0,
                                     0.0, 0, False, known)
    assert len(known) == len(codes)
    again = native.measure_composite(_split(2), 2, cid_table, [500.0] * 3, table, [data[::-1]], None, 1.0, 1.0, 0.0,
                                     0.0, 0, False, known)
    assert len(known) == len(codes) + sum(code[::-1] not in set(codes) for code in codes)
    decoded = dict(zip(first[0], first[7], strict=True))
    assert all(decoded.get(code, text) == text for code, text in zip(again[0], again[7], strict=True))
    # A code met before is the very bytes object made the first time.
    made = {code: code for code in first[0]}
    assert all(code is made.get(code, code) for code in again[0])
    # Codes of one, two and three bytes are told apart, four-byte codes are never kept.
    short = native.KnownCodes()
    for width, data in ((1, b"A"), (2, b"\x00A"), (3, b"\x00\x00A"), (4, b"\x00\x00\x00A")):
        found = native.measure_composite(_split(width), width, DecodeTable(lambda code: len(code)), [1.0] * 5,
                                         DecodeTable(lambda code: (code.hex(), None)), [data], None, 1.0, 1.0, 0.0,
                                         0.0, 0, False, short)
        assert found[1] == (width,) and found[7] == ((data.hex(), None),)
    assert len(short) == 3
    # A simple font's: each code's decoding, the first answer kept.
    simple = native.KnownCodes()
    table = DecodeTable(lambda code: (str(next(texts)), "test"))
    first = native.measure_simple(WIDTHS, table, [b"abca"], None, 1.0, 1.0, 0.0, 0.0, 0, simple)
    assert len(simple) == 3 and first[6][0] is first[6][3]
    table.clear()  # a table that would now answer anew: the kept answers stand
    assert native.measure_simple(WIDTHS, table, [b"cab"], None, 1.0, 1.0, 0.0, 0.0, 0, simple)[6] == tuple(
        first[6][i] for i in (2, 0, 1))


CID_WIDTHS = [500.0 + 13.0 * i for i in range(40)]


@pytest.mark.parametrize(("width", "strings", "adjustments"), [
    (2, [b"\x00A\x00B\x00 "], None),
    (2, [b"\x00A\x00"], None),  # a code cut short at the end: the split keeps the byte
    (1, [b"a b c"], None),
    (1, [b"a", b"b c"], [(1, -120.0), (0, 5.0), (4, 300.0), (9, 1.0)]),
    (2, [b"\x00A", b"\x00B\x00C"], [(2, -250.0), (6, 80.0)]),
    (2, [b"\x00A\x00", b"B"], [(3, -250.0)]),  # a string ending inside a code: the reference's path
    (0, [b"\x00A\x00B"], None),  # several code widths: the CMap cuts the codes
    (0, [b"A\x81\x40B", b"\x82"], [(1, -250.0), (3, 40.0), (4, 1.0), (5, 9.0)]),  # a TJ number inside a code
    (0, [b"\xff\xff A"], [(0, 10.0)]),
    (2, [], [(0, 5.0)]),
    (2, [b""], None),
    (2, [bytearray(b"\x00A\x00B")], None),
])
def test_composite_operands(width, strings, adjustments):
    for tc, tw, wmode in ((0.0, 0.0, 0), (0.5, 2.0, 0), (0.0, 2.0, 1), (math.nan, -0.0, 0)):
        assert_same_composite(width, strings, adjustments, CID_WIDTHS, 12.0, 1.0, tc, tw, wmode)
        assert_same_composite(width, strings, adjustments, CID_WIDTHS, 12.0, 1.0, tc, tw, wmode, False)


def test_composite_advances_that_are_not_floats_are_placed_by_the_reference():
    assert_same_composite(2, [b"\x00A\x00B"], [(2, -100.0)], [500] * 40, 1000.0, 1.0, 0.0, 0.0, 0)
    assert_same_composite(2, [b"\x00A\x00B"], None, [500.0, 3, None] * 14, 1000.0, 1.0, 0.0, 0.0, 0)


@settings(max_examples=300, deadline=None)
@given(width=st.sampled_from([0, 1, 2, 3]),
       strings=st.lists(st.one_of(st.binary(max_size=9), st.sampled_from([b" ", b"\x00 ", b"  ", b"\x81\x40 "])),
                        max_size=4),
       adjustments=st.one_of(st.none(), st.lists(st.tuples(st.integers(0, 30), _NUMBERS), max_size=5)),
       widths=st.lists(st.one_of(st.floats(min_value=-50, max_value=1000), st.sampled_from([0.0, -0.0])),
                       min_size=40, max_size=40),
       hscale=_NUMBERS, th=_NUMBERS, tc=_NUMBERS, tw=_NUMBERS, wmode=st.sampled_from([0, 1]),
       space_single_byte=st.booleans())
def test_generated_composite_operands(width, strings, adjustments, widths, hscale, th, tc, tw, wmode,
                                      space_single_byte):
    assert_same_composite(width, strings, adjustments, widths, hscale, th, tc, tw, wmode, space_single_byte)
