"""The content-stream tokenizer (ISO 32000-1 §7.2-7.3, §8.9.7): operands, strings, hostile input.

The tokenizer may leave out operators that cannot change text (paths, colours), and what it
yields after the operands may grow; these tests read only ``(operator, operands)`` of each
yielded item and use operators that matter to text. A TJ array the fast path hands over
unread (a ``RawTJ``) is compared by the values the general path reads from its source, so
every TJ case also pins the fast path against the general one.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from glyphweave.pdf.lexer import decode_hex, decode_name, unescape_literal
from glyphweave.pdf.tokenizer import (
    _IGNORED_OPS,
    FUSIONS,
    GLYPH_BLOCK,
    GLYPH_BLOCK_TR,
    UNENDED_IMAGE,
    Fused,
    RawTJ,
    _general,
    operations,
)


def read_values(args: list[Any]) -> list[Any]:
    """Operands with each RawTJ replaced by the array the general path reads from its source."""
    out = []
    for arg in args:
        if isinstance(arg, RawTJ):
            pos, op = _general(b"[" + arg + b"]", 0, stack := [], [])
            assert op is None and len(stack) == 1, (arg, stack)
            arg = stack[0]
        out.append(arg)
    return out


def ops(data: bytes) -> list[tuple[bytes, list[Any]]]:
    return [(op, read_values(args)) for op, args, _ in operations(data)]


def only(data: bytes) -> tuple[bytes, list[Any]]:
    result = ops(data)
    assert len(result) == 1, result
    return result[0]


# --------------------------------------------------------------------------- operators, numbers


def test_operators_and_numeric_operands():
    assert ops(b"BT 1 0 0 1 72 720 Tm 12 TL T* ET") == [
        (b"BT", []),
        (b"Tm", [b"1", b"0", b"0", b"1", b"72", b"720"]),
        (b"TL", [b"12"]),
        (b"T*", []),
        (b"ET", []),
    ]


def test_numbers_stay_bytes_in_every_spelling():
    op, args = only(b"-.5 +3 5. 0.0 -12 Td")
    assert op == b"Td"
    assert args == [b"-.5", b"+3", b"5.", b"0.0", b"-12"]
    assert [float(a) for a in args] == [-0.5, 3.0, 5.0, 0.0, -12.0]


def test_operators_without_whitespace_between_tokens():
    assert ops(b"/F1 12 Tf(a)Tj[(b)-20(c)]TJ") == [
        (b"Tf", ["F1", b"12"]),
        (b"Tj", [bytearray(b"a")]),
        (b"TJ", [[bytearray(b"b"), b"-20", bytearray(b"c")]]),
    ]


def test_quote_operators():
    assert ops(b"(a) ' 1 2 (b) \"") == [
        (b"'", [bytearray(b"a")]),
        (b'"', [b"1", b"2", bytearray(b"b")]),
    ]


def test_operands_are_fresh_per_operator():
    result = ops(b"1 Tc 2 Tw 3 Tz")
    assert result == [(b"Tc", [b"1"]), (b"Tw", [b"2"]), (b"Tz", [b"3"])]


def test_text_operators_survive_among_graphics_operators():
    data = b"q 1 0 0 1 0 0 cm 0 0 m 10 10 l S 1 0 0 rg 0 0 10 10 re f BT /F1 12 Tf (x) Tj ET Q"
    text_ops = [(op, args) for op, args in ops(data) if op in (b"q", b"cm", b"BT", b"Tf", b"Tj", b"ET", b"Q")]
    assert text_ops == [
        (b"q", []),
        (b"cm", [b"1", b"0", b"0", b"1", b"0", b"0"]),
        (b"BT", []),
        (b"Tf", ["F1", b"12"]),
        (b"Tj", [bytearray(b"x")]),
        (b"ET", []),
        (b"Q", []),
    ]


def test_operator_prefix_is_not_split():
    # "Tjx" is one (unknown) operator, not Tj followed by x.
    assert [op for op, _ in ops(b"(a) Tjx (b) Tj")] == [b"Tjx", b"Tj"]


# --------------------------------------------------------------------------- literal strings


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        (rb"(plain)", b"plain"),
        (rb"(a\nb\tc\bd\fe)", b"a\nb\tc\bd\fe"),
        (rb"(\(\)\\)", b"()\\"),
        (rb"(\053\53\0533)", b"+++3"),  # 3 digits at most: \0533 is '+' then '3'
        (rb"(\5x\101)", b"\x05xA"),
        (rb"(\q)", b"q"),  # unknown escape: the backslash is ignored
        (rb"(\777)", b"\xff"),  # high-order overflow ignored
        (b"(a\\\nb)", b"ab"),  # line continuation
        (b"(a\\\r\nb)", b"ab"),
        (b"(a\\\rb)", b"ab"),
        (b"(a\r\nb)", b"a\nb"),  # an unescaped end-of-line is a single LF
        (b"(a\rb)", b"a\nb"),
        (rb"(a(b)c)", b"a(b)c"),  # balanced parentheses need no escape
        (rb"(a(b(c(d)e)f)g)", b"a(b(c(d)e)f)g"),
        (rb"(a(b\)c)d)", b"a(b)c)d"),
        (b"(a%b)", b"a%b"),  # no comment inside a string
        (b"()", b""),
    ],
)
def test_literal_strings(raw: bytes, expected: bytes):
    assert only(raw + b" Tj") == (b"Tj", [bytearray(expected)])
    # the same string as a TJ element and as an operand of an unknown operator
    assert only(b"[" + raw + b"] TJ") == (b"TJ", [[bytearray(expected)]])
    assert only(b"/X " + raw + b" 1 foo") == (b"foo", ["X", bytearray(expected), b"1"])


@pytest.mark.parametrize("raw", [rb"(a\rb)", rb"(a\015b)", rb"(a\rb(c))"])
def test_escaped_carriage_return_is_kept(raw: bytes):
    # §7.3.4.2: only an *unescaped* end-of-line becomes LF; \r is a CR byte.
    expected = bytearray(raw[1:-1].replace(rb"\r", b"\r").replace(rb"\015", b"\r"))
    assert only(raw + b" Tj") == (b"Tj", [expected])
    assert only(b"[" + raw + b"] TJ") == (b"TJ", [[expected]])


def test_unescape_literal_helper():
    assert unescape_literal(rb"x\(y\)") == bytearray(b"x(y)")
    assert isinstance(unescape_literal(b"abc"), bytearray)


def test_strings_are_bytearrays_and_numbers_bytes():
    (_, args) = only(b"(1) 1 <31> foo")
    assert [type(a) for a in args] == [bytearray, bytes, bytearray]


# --------------------------------------------------------------------------- hex strings


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        (b"<41>", b"A"),
        (b"<4142>", b"AB"),
        (b"<901FA>", b"\x90\x1f\xa0"),  # odd length: a final 0 is assumed
        (b"<41 4\n2\t43>", b"ABC"),  # whitespace ignored
        (b"<aBcD>", b"\xab\xcd"),
        (b"<>", b""),
    ],
)
def test_hex_strings(raw: bytes, expected: bytes):
    assert only(raw + b" Tj") == (b"Tj", [bytearray(expected)])
    assert only(b"[" + raw + b" 10] TJ") == (b"TJ", [[bytearray(expected), b"10"]])


def test_decode_hex_helper():
    assert decode_hex(b"7") == bytearray(b"\x70")


# --------------------------------------------------------------------------- names


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        (b"/F1", "F1"),
        (b"/A#20B", "A B"),
        (b"/#41#42", "AB"),
        (b"/a#2", "a#2"),  # not a valid escape: kept as is
        (b"/Lime#20Green", "Lime Green"),
        (b"/", ""),
    ],
)
def test_names(raw: bytes, expected: str):
    assert only(raw + b" Do") == (b"Do", [expected])


def test_decode_name_helper():
    assert decode_name(b"paired#28#29parentheses") == "paired()parentheses"


def test_names_end_at_delimiters():
    assert only(b"/A/B(c)/D[1]foo") == (b"foo", ["A", "B", bytearray(b"c"), "D", [b"1"]])


# --------------------------------------------------------------------------- arrays, dictionaries


def test_arrays_and_dictionaries_nest():
    op, args = only(b"[1 [2 3] /N (s) <41>] /D << /K [1 2] /L << /M true >> >> BDC")
    assert op == b"BDC"
    assert args == [
        [b"1", [b"2", b"3"], "N", bytearray(b"s"), bytearray(b"A")],
        "D",
        {"K": [b"1", b"2"], "L": {"M": b"true"}},
    ]


def test_marked_content_dictionary():
    op, args = only(b"/Span <</MCID 3 /ActualText (fi) /Lang (en-US)>> BDC")
    assert op == b"BDC"
    assert args[0] == "Span"
    props = args[1]
    assert int(props["MCID"]) == 3
    assert props["ActualText"] == bytearray(b"fi")
    assert props["Lang"] == bytearray(b"en-US")


def test_keywords_inside_containers_are_values():
    assert only(b"[true false null] foo") == (b"foo", [[b"true", b"false", b"null"]])


def test_operation_lookalikes_inside_containers_are_plain_values():
    # What looks like "1 2 cm", "/F1 12 Tf" or "0 0 m" inside an array is data.
    assert only(b"[1 2 cm /F1 12 Tf 0 0 m] foo") == (
        b"foo", [[b"1", b"2", b"cm", "F1", b"12", b"Tf", b"0", b"0", b"m"]])


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        (b"[(a b) Tj] foo", [[bytearray(b"a b"), b"Tj"]]),
        (b"[[(b)] TJ] foo", [[[bytearray(b"b")], b"TJ"]]),
        (b"<< /A (a b) Tj >> foo", [{"A": bytearray(b"a b")}]),
    ],
)
def test_show_text_lookalikes_inside_containers(data: bytes, expected: list[Any]):
    assert only(data) == (b"foo", expected)


def test_tj_array_elements():
    op, args = only(b"[ (a) -120 <0042> 3.5 (c) ] TJ")
    assert op == b"TJ"
    assert args == [[bytearray(b"a"), b"-120", bytearray(b"\x00B"), b"3.5", bytearray(b"c")]]


def test_unbalanced_closers_are_dropped():
    assert ops(b"1 2 ] >> ) } { 3 Tc") == [(b"Tc", [b"1", b"2", b"3"])]


# --------------------------------------------------------------------------- comments


def test_comments_are_skipped():
    data = b"% header\n1 0 0 1 0 0 cm % trailing\n(a%b) Tj %end"
    assert ops(data) == [(b"cm", [b"1", b"0", b"0", b"1", b"0", b"0"]), (b"Tj", [bytearray(b"a%b")])]


def test_comment_ends_at_cr():
    assert ops(b"%c\r1 Tc") == [(b"Tc", [b"1"])]


def test_comment_inside_array():
    assert only(b"[1 % one\n 2] foo") == (b"foo", [[b"1", b"2"]])


# --------------------------------------------------------------------------- inline images


def test_inline_image_is_skipped():
    data = b"BI /W 2 /H 2 /BPC 8 /CS /G ID \x00\x01\x02\x03\nEI\n(after) Tj"
    result = ops(data)
    assert (b"Tj", [bytearray(b"after")]) in result
    assert result[-1] == (b"Tj", [bytearray(b"after")])
    assert all(op != b"ID" for op, _ in result)


def test_inline_image_data_containing_ei_bytes():
    binary = b"\xff\xfe BT (Z) Tj ET \x00EI \x81\x82\x83 EI\x90\x91 \x00EI\xfe"
    data = b"q BI /W 4 /H 4 /BPC 8 /CS /G ID " + binary + b"\nEI Q\nBT (after) Tj ET"
    result = ops(data)
    assert (b"Tj", [bytearray(b"Z")]) not in result
    assert [op for op, _ in result if op in (b"Q", b"BT", b"Tj", b"ET")] == [b"Q", b"BT", b"Tj", b"ET"]
    assert (b"Tj", [bytearray(b"after")]) in result


def test_inline_image_followed_by_a_binary_string():
    """Ghostscript's Type3 text shows binary codes right after an image (a rule): the EI is
    still the end, and the text after it is read (it was lost to the end of the page)."""
    data = (b"q 3945.6 0 0 -4.8 919.08 4456.68 cm\nBI\n/IM true\n/W 1\n/H 1\n/BPC 1\nID \x00\nEI Q\n"
            b"q 10 0 0 10 0 0 cm BT\n/A 1 Tf\n0.1 0 0 -0.1 92.3 437.3 Tm\n(\xb0\xb2\xb1=\xb3)Tj ET Q")
    result = ops(data)
    assert (b"Tj", [bytearray(b"\xb0\xb2\xb1=\xb3")]) in result
    # binary image data with " EI (" inside is still not taken for the end
    binary = b"\x81 EI (\xff\xfe\x00"
    result = ops(b"BI /W 8 /H 1 /BPC 8 /CS /G ID " + binary + b"\nEI\nBT (after) Tj ET")
    assert [args for op, args in result if op == b"Tj"] == [[bytearray(b"after")]]


def test_inline_image_abbreviated_keys_and_array_values():
    data = b"BI /W 1 /H 1 /BPC 1 /CS /G /D [1 0] /F /AHx ID ff>\nEI (x) Tj"
    assert ops(data)[-1] == (b"Tj", [bytearray(b"x")])


def test_inline_image_at_end_of_stream():
    result = ops(b"(a) Tj BI /W 1 /H 1 ID \x00\x00")
    assert result[0] == (b"Tj", [bytearray(b"a")])
    assert all(op != b"Tj" for op, _ in result[1:])


def test_an_inline_image_with_no_end_is_said():
    """No EI ends the image (or none is followed by content): the rest of the stream is
    lost, and ``dropped`` says so; an image that ends says nothing."""
    dropped: list[str] = []
    list(operations(b"(a) Tj BI /W 8 /H 1 ID \x81\x82 EI \xff\xfe (b) Tj", dropped=dropped))
    assert dropped == [UNENDED_IMAGE]
    dropped = []
    list(operations(b"BI /W 1 /H 1 ID \x00\nEI (b) Tj", dropped=dropped))
    assert dropped == []


# --------------------------------------------------------------------------- hostile input
# No timing asserts: each case would hang the run (not fail it) if the tokenizer backtracked
# exponentially or went quadratic on these sizes.


def test_trailing_whitespace():
    assert ops(b"BT ET" + b" " * 5000) == [(b"BT", []), (b"ET", [])]
    assert ops(b" " * 100_000) == []
    assert ops(b"\n\r\t\x0c " * 20_000 + b"1 Tc") == [(b"Tc", [b"1"])]


@pytest.mark.parametrize("data", [b"1\x002 Td", b"1 2\x00Td", b"\x001 2 Td\x00"])
def test_nul_is_whitespace(data: bytes):
    assert ops(data) == [(b"Td", [b"1", b"2"])]


def test_many_comments():
    assert ops(b"%%%% " * 200) == []
    assert ops(b"%%%% \n" * 200 + b"2 Tc " + b"%%%% " * 200) == [(b"Tc", [b"2"])]
    assert ops(b"%\r" * 50_000) == []


def test_long_non_tj_array():
    # An array of number pairs (a /Rect, a /BBox...) followed by a name, not TJ.
    data = b"[" + b"224.52 744.8369 " * 300 + b"]/Subtype"
    assert ops(data) == []
    data = b"[" + b"224.52 744.8369 " * 300 + b"]/Subtype foo"
    ((op, args),) = ops(data)
    assert op == b"foo"
    assert len(args[0]) == 600 and args[1] == "Subtype"
    data = b"[" + b"(a) -12 " * 5000 + b"] /X foo"
    ((op, args),) = ops(data)
    assert len(args[0]) == 10_000


def test_numbers_without_an_operator():
    assert ops(b" ".join(str(i).encode() for i in range(5000))) == []
    assert ops(b" ".join(str(i).encode() for i in range(50_000)) + b" Tc")[0][1][-1] == b"49999"


@pytest.mark.parametrize(
    "data",
    [
        b"BT (abc Tj",
        b"(" + b"a" * 100_000,
        b"(" * 5000,
        b"(" + b"\\)" * 50_000 + b" Tj",
        b"(" + b"\\" * 100_001,
        b"[1 2 3",
        b"[" * 5000,
        b"[" + b"(a) 1 " * 20_000,
        b"[(" + b"a\\(" * 20_000,
        b"<< /A 1",
        b"<<" * 5000,
        b"<" + b"41 " * 30_000,
        b"BI /W 1 ID " + b"\x00 EI \xff" * 20_000,
    ],
    ids=["string", "long-string", "nested-parens", "escaped-parens", "backslashes", "array",
         "nested-arrays", "tj-array", "tj-string", "dict", "nested-dicts", "hex", "inline-image"],
)
def test_unterminated_constructs_end_quietly(data: bytes):
    result = ops(data)
    # Nothing after the unterminated construct can be an operation.
    assert all(op in (b"BT", b"BI", b"EI") for op, _ in result)


def test_unterminated_string_does_not_eat_earlier_operations():
    assert ops(b"BT 1 Tc (abc Tj")[:2] == [(b"BT", []), (b"Tc", [b"1"])]


def test_long_runs_of_graphics_operators():
    result = ops(b"0 0 m 1 1 l " * 20_000 + b"(x) Tj")
    assert result[-1] == (b"Tj", [bytearray(b"x")])
    assert ops(b"1 " * 30_000 + b"re (y) Tj")[-1] == (b"Tj", [bytearray(b"y")])


def test_drawings_are_skipped_but_counted():
    data = b"q 1 0 0 1 5 5 cm 0 0 m 1.5 -2 l S Q % a comment, its words no operators\n 0 g 3 w 0 0 10 10 re f BT (x) Tj ET"
    # The colour operator is read (glyphs record their colour); the path around it is not.
    assert ops(data) == [(b"g", [b"0"]), (b"BT", []), (b"Tj", [bytearray(b"x")]), (b"ET", [])]
    # Every operator counts towards the index, skipped ones included.
    assert [index for _, _, index in operations(data)] == [7, 11, 12, 13]


def test_malformed_numbers_reach_the_operator():
    # The operator gets them as they are; converting them is its business (it may refuse).
    assert ops(b"1.2.3 0 Td -.5 +3 TD") == [(b"Td", [b"1.2.3", b"0"]), (b"TD", [b"-.5", b"+3"])]


@pytest.mark.parametrize("data", [b" " * 200_000 + b"[", b"1 " * 100_000 + b"[", b"1 " * 100_000 + b"q",
                                  b"q " * 50_000 + b"1", b"0 g " * 50_000 + b"1 1"])
def test_long_failing_prefixes(data: bytes):
    for op, args in ops(data):
        assert isinstance(op, bytes) and isinstance(args, list)


@pytest.mark.parametrize("tail", [b"[]", b"/N", b"x1", b"(a)"])
def test_a_run_of_numbers_with_no_operator_is_scanned_once(tail: bytes, monkeypatch: pytest.MonkeyPatch):
    # The fast path fails at its start and would fail anywhere inside it: retried after each
    # step of the general path (4,096 numbers), it rescanned the whole run each time, and a
    # few MB of numbers took minutes.
    from glyphweave.accelerated import compiled_modules
    from glyphweave.pdf import tokenizer

    if "glyphweave.pdf.tokenizer" in compiled_modules():
        pytest.skip("a compiled module's pattern cannot be counted")
    attempts = []
    fast, *others = tokenizer._fast_path()

    class Counting:
        def match(self, data: bytes, pos: int) -> Any:
            attempts.append(pos)
            return fast.match(data, pos)

    monkeypatch.setattr(tokenizer, "_fast_path", lambda: (Counting(), *others))
    data = b"1 " * 100_000 + tail + b" 1 2 Td"
    items = list(operations(data))
    assert items[-1][0] == b"Td" and len(attempts) < 10


@pytest.mark.parametrize("data", [b"/a" * 50_000, b"." * 100_000, b"+-" * 50_000, b"<<>>" * 20_000])
def test_degenerate_repetitions(data: bytes):
    for op, args in ops(data):
        assert isinstance(op, bytes) and isinstance(args, list)


@pytest.mark.parametrize("seed", [0, 1, 1234])
def test_random_bytes(seed: int):
    rng = random.Random(seed)
    data = bytes(rng.randrange(256) for _ in range(100_000))
    for op, args in ops(data):
        assert isinstance(op, bytes) and op
        assert isinstance(args, list)


def test_random_content_like_tokens():
    rng = random.Random(7)
    vocab = [b"(a)", b"(", b")", b"[", b"]", b"<<", b">>", b"<41>", b"<", b">", b"/N", b"1", b"-2.5",
             b"Tj", b"TJ", b"Tf", b"BI", b"ID", b"EI", b"%c\n", b"\\", b"{", b"}", b" ", b"\n"]
    data = b" ".join(rng.choice(vocab) for _ in range(50_000))
    for op, args in ops(data):
        assert isinstance(op, bytes) and isinstance(args, list)


# --------------------------------------------------------------------------- fused operations


def unfuse(data: bytes) -> list[tuple[bytes, list[Any], int]]:
    """operations(fuse=True), with every fused item split back into its parts."""
    out: list[tuple[bytes, list[Any], int]] = []
    for op, args, index in operations(data, fuse=True):
        if isinstance(op, Fused):
            parts = op.split(args)
            out.extend((part, operands, index - len(parts) + 1 + k) for k, (part, operands) in enumerate(parts))
        else:
            out.append((op, list(args), index))
    return out


def indexed(data: bytes) -> list[tuple[bytes, list[Any], int]]:
    return [(op, list(args), index) for op, args, index in operations(data)]


def general_only(data: bytes) -> list[tuple[bytes, list[Any], int]]:
    """What the general path alone reads: every operator, drawings included."""
    out: list[tuple[bytes, list[Any], int]] = []
    pos = count = 0
    stack: list[Any] = []
    while pos < len(data):
        pos, op = _general(data, pos, stack, [])
        if op is not None:
            count += 1
            out.append((op, stack, count))
            stack = []
    return out


FUSION_CASES = [
    b"BT /F1 9 Tf 10 20 Td [(a)-3(b)]TJ ET",
    b"BT /F1 9 Tf 10 20 Td (x) Tj /F2 8 Tf 5 5 Td 0 g [(c)]TJ ET",
    b"BT/F13 9 Tf 58.5 -216.2 Td[<00420047>-524<001e>]TJ /F7 9 Tf 66.1 0 Td[<0e43>]TJ ET",
    b"BT 1 0 0 1 72 700 Tm\n[(Hello)]TJ T*(world)Tj -0.2 Tc 0.5 Tw T*[(again)]TJ ET",
    b"q 1 0 0 1 5 5 cm BT 3 Tr [(x)] TJ 0 0 1 rg [(y)] TJ ET Q",  # colour then TJ: not fused
    b"BT /F1 9 Tf\n12 0 Td\n(a) Tj 1 2 3 Td [(b)] TJ ET",  # an extra operand stays with Td
    b"BT /F1 9 Tf 1 2 Td [(a) (nested (not) fast)] TJ ET",  # a TJ the fast path cannot read
    b"BI /W 1 /H 1 ID \x00[(x)]TJ EI BT 1 2 Td [(z)]TJ ET",  # ID is never fused
    b"q 2 0 0 1 5 5 cm BT 3 Tr 1 0 0 1 0 0 Tm /F11 9.00 Tf 0.00 0.00 Td <3c> Tj ET Q <0041 4>Tj",  # OCR layers
    b"BT /F1 9 Tf (a) Tj /F1 9 Tf [(b)] TJ /F2 7 Tf 1 2 Td <41> Tj ET",  # Tf then a string: not fused
    b"BT /F1 9 Tf 1 2 Td (a\\)b) Tj 0 -12 TD [(c\\(d) -250 <4 1>] TJ ET",  # escapes, hex with spaces
    # Glyph blocks: without Tr, with a literal, after stray operands, and near misses.
    b"q\n1.03 0.00 0.00 1.46 187.20 644.36 cm\nBT\n1 0 0 1 0 0 Tm\n/F10 17.00 Tf\n0 0 Td\n(a\\)) Tj\nET\nQ\n",
    b"/X q 1 0 0 1 5 5 cm BT 3 Tr 1 0 0 1 0 0 Tm /F1 9 Tf 0 0 Td <41> Tj ET Q",
    b"q 1 0 0 1 5 5 cm BT 3 Tr 1 0 0 1 0 0 Tm /F1 9 Tf 0 0 Td <41> Tj ET Q Q",
    b"q 1 0 0 1 5 5 cm BT 1 0 0 1 0 0 Tm /F1 9 Tf 0 0 Td <41> Tj ET Qx",  # Qx is another word
    b"q 1 0 0 1 5 5 cm BT 1 0 0 1 0 0 Tm /F1 9 Tf 0 0 Td [<41>] TJ ET Q",  # TJ: not a glyph block
    b"q 1 0 0 1 5 5 cm %c\nBT 1 0 0 1 0 0 Tm /F1 9 Tf 0 0 Td <41> Tj ET Q",  # a comment inside
    b"q 1 0 0 1 5 cm BT 1 0 0 1 0 0 Tm /F1 9 Tf 0 0 Td <41> Tj ET Q",  # five numbers for cm
]


@pytest.mark.parametrize("data", FUSION_CASES)
def test_fused_items_are_the_plain_operations_merged(data: bytes):
    assert unfuse(data) == indexed(data)


def test_fused_items_for_pdftex_and_dvipdfmx_lines():
    data = b"BT /F1 9 Tf 10 20 Td [(a)-3(b)]TJ 5 0 Td (x)Tj /F2 8 Tf 1 1 Td 0 g ET"
    names = [op for op, _, _ in operations(data, fuse=True)]
    assert names == [b"BT", FUSIONS[b"Tf", b"Td", b"TJ"], FUSIONS[b"Td", b"Tj"], FUSIONS[b"Tf", b"Td"], b"g", b"ET"]
    assert all(isinstance(name, Fused) for name in names[1:4])


def test_an_ocr_glyph_block_is_one_item():
    block = b"q 1.03 0 0 1.46 187.2 644.36 cm BT 3 Tr 1 0 0 1 0 0 Tm /F10 17 Tf 0 0 Td <b9d8> Tj ET Q"
    items = list(operations(block + b"\n" + block.replace(b" 3 Tr", b""), fuse=True))
    assert [(op, index) for op, _, index in items] == [(GLYPH_BLOCK_TR, 10), (GLYPH_BLOCK, 19)]
    assert items[0][1] == [b"1.03", b"0", b"0", b"1.46", b"187.2", b"644.36", b"3",
                           b"1", b"0", b"0", b"1", b"0", b"0", "F10", b"17", b"0", b"0", bytearray(b"\xb9\xd8")]
    assert [op for op, _, _ in operations(block)] == [b"q", b"cm", b"BT", b"Tr", b"Tm", b"Tf", b"Td", b"Tj",
                                                      b"ET", b"Q"]


def test_fused_records_split_their_operands():
    record = FUSIONS[b"Tf", b"Td", b"TJ"]
    assert record.split(["F1", b"9", b"1", b"2", RawTJ(b"(a)")]) == [
        (b"Tf", ["F1", b"9"]), (b"Td", [b"1", b"2"]), (b"TJ", [RawTJ(b"(a)")])]
    # The first operator takes whatever precedes the fixed parts.
    assert FUSIONS[b"Td", b"Tj"].split([b"1", b"2", b"3", bytearray(b"x")]) == [
        (b"Td", [b"1", b"2", b"3"]), (b"Tj", [bytearray(b"x")])]
    assert str(record) == "Tf Td TJ"


def test_no_fused_item_without_fuse():
    for data in FUSION_CASES:
        assert all(isinstance(op, bytes) for op, _, _ in operations(data))


DIFFERENTIAL_CASES = [case for case in FUSION_CASES if b"ID" not in case] + [
    b"/P <</MCID 3>> BDC BT /F1 9 Tf 1 0 0 1 72 700 Tm [(Hi) -120 <0041>] TJ ET EMC",
    b"BT /F1 9 Tf 72 700 Td [(a(b)c) 5] TJ (x) ' 1 2 (y) \" [] TJ [1 2] TJ ET",
    b"BT /A#20B 12 Tf 0 0 Td <41 42\n43> Tj (\\101\\n) Tj %comment\n [(z)] TJ ET",
]


@pytest.mark.parametrize("data", DIFFERENTIAL_CASES)
def test_fast_path_reads_what_the_general_path_reads(data: bytes):
    # The general path reads every operator; the fast path skips drawing operators (but
    # counts them) and hands TJ arrays over unread.
    fast = [(op, read_values(args), index) for op, args, index in unfuse(data)]
    general = [item for item in general_only(data) if item[0] not in _IGNORED_OPS]
    assert fast == general


# --------------------------------------------------------------------------- bounded operands and matches


def test_runs_longer_than_a_regex_repeat_read_the_same() -> None:
    from glyphweave.pdf.lexer import REPEAT_MAX

    many = REPEAT_MAX * 2 + 3
    # A TJ array, a string with many escapes, a drawing: past the cap of one match, the same
    # operations, operands and operator indices as a reading without the cap would give.
    ((op, args),) = ops(b"[" + b"(a) -1 " * many + b"] TJ")
    assert op == b"TJ" and len(args[0]) == 2 * many and args[0][-2:] == [bytearray(b"a"), b"-1"]
    ((op, args),) = ops(b"(" + b"\\(a" * many + b") Tj")
    assert op == b"Tj" and args == [bytearray(b"(a" * many)]
    data = b"0 0 m 1 1 l " * many + b"BT (x) Tj ET"
    assert [index for _, _, index in operations(data)] == [2 * many + 1, 2 * many + 2, 2 * many + 3]
    data = b"q " + b"0 0 m 1 1 l " * many + b"Q BT (x) Tj ET"
    assert [(op, index) for op, _, index in operations(data)][-3:] == [
        (b"BT", 2 * many + 3), (b"Tj", 2 * many + 4), (b"ET", 2 * many + 5)]


def test_an_operand_too_large_is_dropped_and_said_and_the_stream_goes_on() -> None:
    from glyphweave.pdf.tokenizer import OPERAND_BYTES_MAX, OPERAND_ITEMS_MAX

    dropped: list[str] = []
    data = (b"[" + b"1 " * (OPERAND_ITEMS_MAX + 10) + b"] 0 d /P <<" + b"/A 1 " * (OPERAND_ITEMS_MAX // 2 + 1)
            + b">> BDC (" + b"x" * (OPERAND_BYTES_MAX + 1) + b") /X foo [(ok)] TJ")
    result = [(op, args) for op, args, _ in operations(data, dropped=dropped)]
    assert result[0] == (b"d", [b"0"])  # the array left out, its operator kept
    assert result[1] == (b"BDC", ["P"])
    assert result[2] == (b"foo", ["X"])
    assert result[-1][0] == b"TJ"
    assert dropped == [f"an array of more than {OPERAND_ITEMS_MAX:,} items",
                       f"a dictionary of more than {OPERAND_ITEMS_MAX:,} items",
                       "a string of more than 1 MB"]


def test_an_unterminated_string_past_the_limit_is_dropped_undecoded() -> None:
    dropped: list[str] = []
    data = b"BT (a) Tj ET (" + b"\\(a" * 400_000
    assert [op for op, _, _ in operations(data, dropped=dropped)] == [b"BT", b"Tj", b"ET"]
    assert dropped == ["a string of more than 1 MB"]


def test_numbers_past_the_limit_before_one_operator_keep_the_last() -> None:
    dropped: list[str] = []
    data = b"1 " * 100_000 + b"7 8 Td"
    assert [(op, args[-2:]) for op, args, _ in operations(data, dropped=dropped)] == [(b"Td", [b"7", b"8"])]
    assert len(dropped) == 1 and "numbers before one operator" in dropped[0]


@pytest.mark.parametrize("show", [b"(%s) Tj", b"72 700 Td (%s) Tj", b"/F1 12 Tf 72 700 Td (%s) Tj",
                                  b"[(%s)] TJ", b"<%s> Tj"])
def test_a_shown_string_past_the_limit_on_the_fast_path_is_dropped_and_said(show: bytes) -> None:
    # A string with no escape matches the fast path whole, however long: it is held to the
    # same bound as the general path's, and the show itself, and what follows, still run.
    from glyphweave.pdf.tokenizer import OPERAND_BYTES_MAX

    body = (b"4" if show.startswith(b"<") else b"a") * (OPERAND_BYTES_MAX + 2)
    dropped: list[str] = []
    items = list(operations(b"BT " + show % body + b" (after) Tj ET", fuse=True, dropped=dropped))
    assert len(dropped) == 1 and "of more than 1 MB" in dropped[0]
    assert all(len(arg) < 1024 for _, args, _ in items for arg in args if isinstance(arg, (bytes, bytearray)))
    assert items[-2][1] == [b"after"] and items[-1][0] == b"ET"
