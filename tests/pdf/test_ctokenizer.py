"""The compiled build's C tokenizer against the reference, item for item.

``glyphweave.pdf._ctokenizer`` reads the content tokenizer's fast path with loops over the
bytes instead of the reference's regular expression; it must yield exactly what
:func:`glyphweave.pdf.tokenizer.operations` yields (operators, operands of the same types,
indices, fused records by identity) and say the same in ``dropped``, with and without
``fuse``. Checked on the edges of every pattern it mirrors (each cap, each lookahead), on
every prefix of a rich stream, on random bytes and tokens, on generated content, and on
every content stream of the shared PDFs. Skipped where the C module is not built (a pure
install: the tox envs of the compiled build run it).
"""

from __future__ import annotations

import os
import random
from pathlib import Path
from typing import Any

import pikepdf
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from glyphweave.pdf import lexer, tokenizer
from glyphweave.pdf.lexer import REPEAT_MAX
from glyphweave.pdf.operands import RawTJ

native = pytest.importorskip("glyphweave.pdf._ctokenizer", reason="the C tokenizer is not built (a pure install)")

SHARED = Path(os.environ.get("GLYPHWEAVE_SHARED") or Path(__file__).resolve().parents[2].parent / "shared")


def _value(operand: Any) -> Any:
    """An operand with its type spelled out at every depth (bytes, bytearray and RawTJ
    compare equal to each other)."""
    if isinstance(operand, list):
        return ["list", [_value(item) for item in operand]]
    if isinstance(operand, dict):
        return ["dict", {key: _value(item) for key, item in operand.items()}]
    return [type(operand).__name__, operand]


def _read(operations: Any, data: bytes, fuse: bool) -> tuple[list[Any], list[str]]:
    dropped: list[str] = []
    items = [(op if isinstance(op, bytes) else id(op), _value(operands), index)
             for op, operands, index in operations(data, fuse=fuse, dropped=dropped)]
    return items, dropped


def assert_same_tj(operand: Any) -> None:
    """The C reading of a TJ operand is the reference's, with the same types."""
    expected, found = lexer.read_tj(operand), native.read_tj(operand)
    assert found == expected, operand
    assert [type(item) for item in found[0]] == [type(item) for item in expected[0]]
    assert [type(number) for _, number in found[1] or ()] == [type(number) for _, number in expected[1] or ()]


def assert_same(data: bytes) -> None:
    for _op, operands, _index in tokenizer.operations(data, fuse=True):
        for operand in operands:
            if isinstance(operand, RawTJ):
                assert_same_tj(operand)
    for fuse in (False, True):
        expected = _read(tokenizer.operations, data, fuse)
        found = _read(native.operations, data, fuse)
        if found != expected:
            pairs = zip(expected[0], found[0], strict=False)  # the shorter list may be the difference
            first = next((k for k, (a, b) in enumerate(pairs) if a != b), min(len(expected[0]), len(found[0])))
            pytest.fail(f"fuse={fuse}, item {first} of {data[:200]!r}: reference "
                        f"{expected[0][first:first + 1]} {expected[1]}, C {found[0][first:first + 1]} {found[1]}")


# --------------------------------------------------------------------------- each pattern's edges

EDGES = [
    b"", b" ", b"\x00", b"%", b"% only a comment", b"%c\rBT%d\n ET", b"BT", b"BT ", b"q", b"Q",
    # Numbers and their operator: every spelling NUMBER takes, and ones it refuses.
    b"1 2 Td", b"-1 +2 Td", b".5 -.5 Td", b"1. 2. Td", b"1.2.3 4 Td", b"-- 1 Td", b"+ 1 Td", b"1-2 3 Td",
    b"1 2Td", b"1 2\x00Td", b"\x001 2 Td\x00", b"1 2 3", b"1 2 /N", b"1 2 [", b"12 TL T*", b"0 Tr'x'",
    b"1 2 3 4 5 6 cm", b"0 0 1 rg 1 0 0 RG 0.5 g", b"1 0 0 1 0 0 Tm 1e5 Tc",
    # Operators of every length and spelling.
    b"T* ET BDC EMC BMC d0 d1 sh Do BX EX", b"'", b"\"", b"Tj*", b"ab\xffcd", b"\x80\x81",
    # /F s Tf, with and without x y Td and a string after.
    b"/F1 9 Tf", b"/F1 9 Tf ", b"/F1 9 Tf 1 2 Td", b"/F1 9 Tf 1 2 Td (a) Tj", b"/F1 9 Tf 1 2 Td [(a)] TJ",
    b"/F1 9 Tf 1 2 Td <41> Tj", b"/F1 9 Tf 1 2", b"/F1 9 Tf 1 Td", b"/F1 9 Tf 1 2 TD (a) Tj",
    b"/F1 9Tf", b"/F1  9 Tf", b"/F1 9 Tfx", b"/F1 .9 Tf", b"/F1 9. Tf", b"/F1 9.1.2 Tf", b"/ 9 Tf", b"/F1",
    b"/F1 ", b"/F1 9", b"/A#20B 12 Tf", b"/F1 9 Tf 1 2 Td(a)Tj", b"/F1\x009\x00Tf\x001\x002\x00Td",
    b"/F1 9 Tf 1 2 Td (a) Tjx", b"/F1 9 Tf 1 2 Td [(a)]", b"/F1 9 Tf [(a)] TJ", b"/F1 9 Tf (a) Tj",
    # Shown strings: literal, hex, arrays; escapes, nesting, CRs, odd hex.
    b"(a) Tj", b"(a)Tj", b"(a) Tj(b)Tj", b"(a\\)b) Tj", b"(a(b)c) Tj", b"(a\rb) Tj", b"(a\\\rb) Tj",
    b"(a\\101) Tj", b"(a\\", b"(a\\) Tj", b"(a", b"(a) T", b"(a) Tjj", b"<41> Tj", b"<4 1> Tj", b"<414> Tj",
    b"<4G> Tj", b"<41", b"<<41>> Tj", b"[(a) -3 <41> 5.5 (b)] TJ", b"[(a)-3(b)]TJ", b"[] TJ", b"[ ] TJ",
    b"[(a) 1.2.3] TJ", b"[(a) /N] TJ", b"[(a) [(b)]] TJ", b"[(a)] TJx", b"[(a)] Tj", b"[(a\\)\\(b)] TJ",
    b"[(a", b"[(a)", b"[(a)]", b"[(a)] T", b"[-.5 (a) +.5] TJ", b"[<41 42> <4>] TJ",
    # Fusable operators then a string; a string after an operator that is not fusable.
    b"1 2 Td [(a)] TJ", b"1 2 Td (a) Tj", b"T* (a) Tj", b"BT [(a)] TJ", b"0 Tc 0 Tw (a) Tj", b"0 g (a) Tj",
    b"q (a) Tj Q", b"ET (a) Tj", b"12 TL T* [(x)]TJ", b"1 Tz [(a)] TJ",
    # Drawings stepped over, q ... Q blocks, glyph blocks.
    b"0 0 m 1 1 l S", b"0 0 10 10 re f BT ET", b"q 1 0 0 1 0 0 cm 0 0 m 1 1 l S Q BT ET",
    b"q 0 g 0 0 1 1 re f Q (a) Tj", b"q BT ET Q", b"q Q", b"qQ", b"q\nQ", b"q 1 0 0 1 0 0 cm Q",
    b"0 0 m %c\n 1 1 l S", b"f* B* b* W* n", b"1 2 fx", b"re re re", b"0 0 m\n%c\n1 1 l S BT ET",
    b"q 0 0 m %c\n Q BT", b"q 1 0 0 1 0 0 cm 1 0 0 rg 0 0 m f Q BT", b"q 0 0 m BT Q", b"q\x000 0 m Q BT",
    b"qx 0 0 m Q", b"q 0 0 m Qx BT", b"0 0 m q 0 0 m Q 1 1 l S BT", b"q 1 scn 1 SCN 1 sc 1 SC 1 g 1 G 1 k 1 K Q T*",
    b"q 0 0 m Q Q BT", b"q q 0 0 m Q Q BT", b"q(a)Tj Q", b"q 1 ri 2 i 1 j 1 J 1 M 1 w 0 0 m h W n Q BT",
    b"q 1 2 3 4 5 6 cm 1 d0 Q", b"1 1 l 2 2 l 3 3 c 4 4 v 5 5 y s F b B T*", b"0 0 m 1 1 l S Q BT",
    b"q 1 0 0 1 5 5 cm BT 1 0 0 1 0 0 Tm /F1 9 Tf 0 0 Td <41> Tj ET Q",
    b"q 1 0 0 1 5 5 cm BT 3 Tr 1 0 0 1 0 0 Tm /F1 9 Tf 0 0 Td (a) Tj ET Q",
    b"2 q 1 0 0 1 5 5 cm BT 1 0 0 1 0 0 Tm /F1 9 Tf 0 0 Td <41> Tj ET Q",
    # Glyph blocks near and far from the pattern: separators, Tr, strings, the end.
    *(b"q 1 0 0 1 5 5 cm BT %s 1 0 0 1 0 0 Tm /F1 9 Tf 0 0 Td %s Tj ET Q%s" % (tr, shown, after)
      for tr in (b"", b"3 Tr", b"3 Trx", b"3 Tr1", b"x Tr") for shown in (b"<41>", b"(a\\)b)", b"(a(b))", b"<4>")
      for after in (b"", b"(a)Tj", b"x", b" Q")),
    b"q\x001 0 0 1 5 5 cm\x00BT\x001 0 0 1 0 0 Tm/F1 9 Tf 0 0 Td<41>Tj\x00ET\x00Q",
    b"q 1 0 0 1 5 5 cmBT 1 0 0 1 0 0 Tm /F1 9 Tf 0 0 Td <41> Tj ET Q",
    b"q 1 0 0 1 5 5 cm BT 1 0 0 1 0 0 Tm / 9 Tf 0 0 Td <41> Tj ET Q",
    b"q 1 0 0 1 5 5 cm BT 1 0 0 1 0 0 Tm /F1 9 Tf 0 0 Td <41> TjET Q",
    b"q 1 0 0 1 5 5.5.5 cm BT 1 0 0 1 0 0 Tm /F1 9 Tf 0 0 Td <41> Tj ET Q",
    b"q 1 0 0 1 5 5 cm BT 1 0 0 1 0 0 Tm /F1 9 Tf 0 0 Td\n(a)\nTj\nET\nQ\n",
    # Inline images, general-path constructs.
    b"BI /W 1 /H 1 ID \x00\xff EI BT ET", b"BI /W 1 ID xx", b"/P <</MCID 3>> BDC EMC", b"<< /A [1 (x)] >> x",
    b"[1 2] 0 d", b"{ } ) ] >> 1 Td", b"true false null Tj",
]


@pytest.mark.parametrize("data", EDGES)
def test_each_edge_of_the_fast_path(data: bytes) -> None:
    assert_same(data)


def test_every_prefix_of_a_busy_stream() -> None:
    stream = b" ".join(EDGES[20:60]) + b"\nBT /F1 9 Tf 10 20 Td [(a)-3(b)]TJ 5 0 Td (x\\)y)Tj T*<4142>Tj ET"
    for end in range(len(stream) + 1):
        assert_same(stream[:end])


def test_every_prefix_of_glyph_blocks() -> None:
    block = b"q 1.03 0 0 1.46 187.2 644.36 cm BT 3 Tr 1 0 0 1 0 0 Tm /F10 17 Tf 0 0 Td <b9d8> Tj ET Q"
    stream = block + b"\n" + block.replace(b" 3 Tr", b"").replace(b"<b9d8>", b"(a\\(b)")
    for end in range(len(stream) + 1):
        assert_same(stream[:end])


@pytest.mark.parametrize("count", [REPEAT_MAX - 1, REPEAT_MAX, REPEAT_MAX + 1])
def test_the_caps_of_the_patterns(count: int) -> None:
    assert_same(b"[" + b"(a) " * count + b"] TJ")
    assert_same(b"[" + b"1 " * count + b"] TJ 1 2 Td")
    assert_same(b"(" + b"\\)" * count + b") Tj")
    assert_same(b"/F1 9 Tf 1 2 Td (" + b"\\n" * count + b") Tj")
    assert_same(b"q " + b"0 0 m " * count + b"Q (a) Tj")
    assert_same(b"0 0 m " * (count + 1) + b"BT ET")


@pytest.mark.parametrize("source", [
    b"", b" ", b"(a)", b"()", b"<>", b"< >", b"<41>", b"<4>", b"<414>", b"<4 1\x00 4\n2>", b"<aBcD>",
    b"(a) -250 (b)", b"-3(a)", b"(a)-3", b"1. -.5 +.5 -0 0.000001 1e", b"1" * 80, b"1" * 400 + b".5",
    b"(a\\)b) (c\\(d) (\\101\\n) (a\rb) (a\\\rb) (\\) ", b"(a)(b)<41>5(c)", b"(a(b))", b"[(a)]", b"/N",
    b"(unterminated", b"<unterminated", b"1.2.3", b"(\xff\x00)",
])
def test_tj_operands(source: bytes) -> None:
    assert_same_tj(RawTJ(source))


def assert_same_numbers(numbers: list[bytes]) -> None:
    """The C reading of TJ numbers gives the reference's doubles to the bit (the sign of a
    zero included, which ``==`` does not see)."""
    operand = RawTJ(b"(a)" + b" ".join(numbers) + b"(b)")
    expected, found = lexer.read_tj(operand), native.read_tj(operand)
    assert [number.hex() for _, number in found[1] or ()] == [number.hex() for _, number in expected[1] or ()]
    assert found == expected


@pytest.mark.parametrize("number", [
    b"0", b"-0", b"+0", b"-.0", b"0.", b"-0.", b".5", b"-.5", b"0.1", b"-250", b"1.25", b"0.3",
    b"999999999999999", b"9999999999999999", b"9007199254740993", b"0.00000000000001",
    b"0.0000000000000000000001", b"1.0000000000000000000001", b".1234567890123", b"123456789012345.",
    b"1" * 30, b"0." + b"0" * 21 + b"1", b"4.35", b"-1234.5678", b"0.7", b"-0.0000001",
])
def test_tj_numbers_at_the_edges_of_the_fast_path(number: bytes) -> None:
    assert_same_numbers([number])


@given(st.lists(st.from_regex(rb"\A[+-]?([0-9]{1,18}(\.[0-9]{0,24})?|\.[0-9]{1,24})\Z"), min_size=1, max_size=8))
def test_tj_numbers_are_read_to_the_bit(numbers: list[bytes]) -> None:
    assert_same_numbers(numbers)


def _float_or_error(convert: Any, token: Any) -> str:
    try:
        return convert(token).hex()
    except (TypeError, ValueError) as exc:
        return f"{type(exc).__name__}: {exc}"


@pytest.mark.parametrize("token", [
    b"0", b"-0", b"12", b"-3.5", b".5", b"1.", b"+7", b"9999999999999999", b"0." + b"0" * 22 + b"1",
    b"", b".", b"-", b"+-1", b"1.2.3", b" 1 ", b"1_0", b"1e3", b"inf", b"nan", b"0x10", b"\xff",
    RawTJ(b"5"), bytearray(b"5"), bytearray(b"(a)"), "/F1", "3", 4, 2.5, None, [b"1"],
])
def test_number_is_float_to_the_bit_and_to_the_error(token: Any) -> None:
    assert _float_or_error(native.number, token) == _float_or_error(float, token)


@given(st.one_of(st.from_regex(rb"\A[+-]?([0-9]{1,18}(\.[0-9]{0,24})?|\.[0-9]{1,24})\Z"), st.binary(max_size=12)))
def test_number_of_generated_tokens(token: bytes) -> None:
    assert _float_or_error(native.number, token) == _float_or_error(float, token)


def _matrix_or_none(read: Any, values: Any) -> Any:
    found = read(values)
    return None if found is None else [value.hex() for value in found]


_OPERANDS = st.one_of(st.from_regex(rb"\A[+-]?([0-9]{1,18}(\.[0-9]{0,24})?|\.[0-9]{1,24})\Z"), st.binary(max_size=6),
                      st.floats(allow_nan=True), st.integers(-10, 10), st.sampled_from(["/F1", "3", None]))


@given(st.lists(_OPERANDS, max_size=9))
def test_a_matrix_is_read_as_the_lexer_reads_it(values: list[Any]) -> None:
    # Six numbers or more (the last six taken), fewer, or one that is not a number: the
    # doubles to the bit, or None, alike.
    assert _matrix_or_none(native.read_matrix, values) == _matrix_or_none(lexer.read_matrix, values)


def test_a_matrix_of_a_cm_operator() -> None:
    assert native.read_matrix([b"1", b"0", b"0", b"1", b"72.5", b"-0"]) == (1.0, 0.0, 0.0, 1.0, 72.5, -0.0)
    assert native.read_matrix([b"2", b"1", b"0", b"0", b"1", b"0", b"0"]) == (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
    assert native.read_matrix([b"1", b"0", b"0", b"1", b"0"]) is None
    assert native.read_matrix([b"1", b"0", b"0", b"1", b"0", "/F1"]) is None


def test_tj_operands_read_by_the_general_path_go_to_the_reference() -> None:
    assert_same_tj([bytearray(b"a"), b"-250", bytearray(b""), b"x", bytearray(b"b")])
    assert_same_tj(b"(a) 5 (b)")  # plain bytes, not a RawTJ


def test_long_runs_of_numbers_with_no_operator() -> None:
    for tail in (b"[", b"/N", b"1.2.3", b"(a)", b"x"):
        assert_same(b"1 " * 300_000 + tail + b" 1 2 Td")
        assert_same(b"1 2 3.5" * 50_000 + tail + b"(a) Tj")


def test_over_long_operands() -> None:
    big = tokenizer.OPERAND_BYTES_MAX + 1
    assert_same(b"(" + b"a" * big + b") Tj 1 2 Td")
    assert_same(b"[(" + b"a" * big + b")] TJ")
    assert_same(b"<" + b"41" * big + b"> Tj")
    assert_same(b"1 2 Td (" + b"a" * big + b") Tj")
    assert_same(b"1 " * 40_000 + b"Td (a) Tj")
    assert_same(b"1 " * 40_000 + b"Td [(a)] TJ")


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_random_bytes(seed: int) -> None:
    rng = random.Random(seed)
    assert_same(bytes(rng.randrange(256) for _ in range(20_000)))


VOCABULARY = [b"(a)", b"(", b")", b"[", b"]", b"<<", b">>", b"<41>", b"<", b">", b"/N", b"/F1", b"1", b"-2.5",
              b".", b"Tj", b"TJ", b"Tf", b"Td", b"TD", b"T*", b"Tc", b"q", b"Q", b"cm", b"BT", b"ET", b"re", b"f",
              b"m", b"BI", b"ID", b"EI", b"%c\n", b"\\", b"{", b"}", b"'", b"\x00", b"Tr", b"Tm", b"(a\\)b)"]
SEPARATORS = [b" ", b"", b"\n", b"\r", b"\x00", b"  "]


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_random_tokens(seed: int) -> None:
    rng = random.Random(seed)
    tokens = [rng.choice(VOCABULARY) + rng.choice(SEPARATORS) for _ in range(20_000)]
    assert_same(b"".join(tokens))


@settings(max_examples=300, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.sampled_from(VOCABULARY), st.sampled_from(SEPARATORS)), max_size=40))
def test_generated_token_streams(tokens: list[tuple[bytes, bytes]]) -> None:
    assert_same(b"".join(token + gap for token, gap in tokens))


# --------------------------------------------------------------------------- real streams

def _shared_pdfs() -> list[Path]:
    return sorted(path for folder in ("corpus", "eval/corpus", "eval2/corpus", "bench/pdfs")
                  for path in (SHARED / folder).glob("*.pdf"))


@pytest.mark.skipif(not _shared_pdfs(), reason=f"shared PDFs not found at {SHARED}")
def test_every_content_stream_of_the_shared_pdfs() -> None:
    streams = 0
    for path in _shared_pdfs():
        try:
            pdf = pikepdf.open(path)
        except (pikepdf.PasswordError, pikepdf.PdfError):
            continue  # encrypted or damaged: its streams are read by the corpus tests
        with pdf:
            for stream in _content_streams(pdf):
                assert_same(stream)
                streams += 1
    assert streams > 1000


def _content_streams(pdf: pikepdf.Pdf) -> list[bytes]:
    found = []
    for page in pdf.pages:
        try:
            found.append(page.obj.Contents.read_bytes() if isinstance(page.obj.get("/Contents"), pikepdf.Stream)
                         else b"\n".join(part.read_bytes() for part in page.obj.get("/Contents", [])))
        except (pikepdf.PdfError, AttributeError, TypeError):
            continue
    for obj in pdf.objects:
        if isinstance(obj, pikepdf.Stream) and obj.get("/Subtype") == "/Form":
            try:
                found.append(obj.read_bytes())
            except pikepdf.PdfError:
                continue
    return found


_ESCAPE_BYTES = st.lists(st.sampled_from([b"\\", b"\r", b"\n", b"\r\n", b"0", b"7", b"8", b"1", b"n", b"r", b"t",
                                          b"b", b"f", b"(", b")", b"x", b"\x00", b"\xff", b" "]), max_size=24)


@given(_ESCAPE_BYTES)
def test_a_literal_string_is_unescaped_as_the_lexer_unescapes_it(parts):
    # Backslashes before every kind of byte, octal runs of one to four digits, raw and
    # escaped ends of line, a backslash at the very end.
    raw = b"".join(parts)
    assert native.unescape_literal(raw) == lexer.unescape_literal(raw)
    assert type(native.unescape_literal(raw)) is bytearray


@pytest.mark.parametrize("raw", [b"", b"\\", b"a\\", b"\\\r\nb", b"\\\r\rb", b"\\\n\\\n", b"\\0053\\53\\053x", b"\\777\\400",
                                 b"\\8\\9", b"\r\r\n\n", b"(\\(\\)\\\\)", b"\\q\\\xff", b"\\1\\12\\123\\1234"])
def test_literal_escapes_named_in_the_spec(raw):
    assert native.unescape_literal(raw) == lexer.unescape_literal(raw)


def test_escaped_strings_shown_read_as_the_reference_reads_them():
    data = (b"BT (a\\(b\\)c\\\\d\\101\\n) Tj [(x\\\r\ny) 120 (\\0511\r\nz)] TJ (\\q\\) Tj ET")
    assert list(native.operations(data, fuse=True)) == list(tokenizer.operations(data, fuse=True))
    assert list(native.operations(data)) == list(tokenizer.operations(data))
