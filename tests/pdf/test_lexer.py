"""The shared lexical layer (ISO 32000-1 §7.2-7.3): token bodies read once for the content
tokenizer and the CMap parser alike."""

from __future__ import annotations

import re

import pytest

from glyphweave.pdf.lexer import (
    NUMBER,
    SKIP,
    TJ_BODY,
    decode_hex,
    decode_name,
    read_literal,
    read_tj,
    unescape_literal,
)

# --------------------------------------------------------------------------- names


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        (b"F1", "F1"),
        (b"A#20B", "A B"),
        (b"#41#42", "AB"),
        (b"#2f#2F", "//"),  # either case of hex digit
        (b"a#2", "a#2"),  # too short: kept as is
        (b"a#zz", "a#zz"),  # not hex: kept as is
        (b"##41", "#A"),
        (b"#e5#ae#8b#e4#bd#93", "\xe5\xae\x8b\xe4\xbd\x93"),  # not UTF-8 decoded: Latin-1, byte for byte
        (b"", ""),
    ],
)
def test_decode_name(raw: bytes, expected: str):
    assert decode_name(raw) == expected


# --------------------------------------------------------------------------- literal strings


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        (b"plain", b"plain"),
        (rb"a\nb\tc\bd\fe\rf", b"a\nb\tc\bd\fe\rf"),
        (rb"\(\)\\", b"()\\"),
        (rb"\0533\5x\101", b"+3\x05xA"),  # at most three octal digits
        (rb"\777", b"\xff"),  # high-order overflow ignored
        (rb"\q", b"q"),  # unknown escape: the character itself
        (b"a\\\nb", b"ab"),  # line continuation, LF, CRLF or CR
        (b"a\\\r\nb", b"ab"),
        (b"a\\\rb", b"ab"),
        (b"a\r\nb\rc", b"a\nb\nc"),  # an unescaped end-of-line is one LF
    ],
)
def test_unescape_literal(raw: bytes, expected: bytes):
    value = unescape_literal(raw)
    assert value == expected
    assert isinstance(value, bytearray)


@pytest.mark.parametrize(
    ("data", "expected", "rest"),
    [
        (b"(abc) Tj", b"abc", b" Tj"),
        (b"(a(b)c)", b"a(b)c", b""),
        (b"(a(b(c(d)e)f)g) x", b"a(b(c(d)e)f)g", b" x"),  # any depth
        (rb"(a\)b(c\(d)e) x", b"a)b(c(d)e", b" x"),  # escaped parentheses do not count
        (rb"(a\\)b)", b"a\\", b"b)"),  # an escaped backslash does not escape the ")"
        (b"(a(b", b"a(b", b""),  # unterminated: the rest
        (b"(ab\\", b"ab\\", b""),  # unterminated after a backslash: kept
    ],
)
def test_read_literal_balances_parentheses(data: bytes, expected: bytes, rest: bytes):
    value, end = read_literal(data, 1)
    assert value == expected
    assert data[end:] == rest


# --------------------------------------------------------------------------- hex strings


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        (b"4142", b"AB"),
        (b"41 42\n43\t44\r45\x0c46", b"ABCDEF"),
        (b"4 1\x004 2", b"AB"),  # white-space (NUL included) even inside a byte
        (b"901FA", b"\x90\x1f\xa0"),  # odd: a final 0 is assumed
        (b"aBcD", b"\xab\xcd"),
        (b"", b""),
    ],
)
def test_decode_hex(raw: bytes, expected: bytes):
    assert decode_hex(raw) == expected


# --------------------------------------------------------------------------- TJ arrays


def test_read_tj_source():
    strings, adjustments = read_tj(b" (ab) -120 <0043> 3.5 (d) ")
    assert strings == [b"ab", b"\x00C", b"d"]
    assert adjustments == [(2, -120.0), (4, 3.5)]  # (bytes shown before the number, number)


def test_read_tj_source_escapes_and_empty_strings():
    strings, adjustments = read_tj(rb"(a\(b) () <> 10 (\101\\)")
    assert strings == [b"a(b", b"A\\"]  # empty strings are left out
    assert adjustments == [(3, 10.0)]


def test_read_tj_without_numbers():
    assert read_tj(b"(a)<42>") == ([b"a", b"B"], None)
    assert read_tj(b"") == ([], None)
    assert read_tj(b"-250") == ([], [(0, -250.0)])


def test_read_tj_values_from_the_general_path():
    # Strings are bytearrays, numbers their bytes; other values are skipped.
    values = [bytearray(b"ab"), b"-120", "Name", [b"1"], bytearray(), b"true", bytearray(b"c")]
    assert read_tj(values) == ([bytearray(b"ab"), bytearray(b"c")], [(2, -120.0)])


def test_tj_body_matches_what_read_tj_reads():
    body = re.compile(TJ_BODY + rb"\s*\Z", re.DOTALL)
    assert body.match(rb" (a\)) -1 <41 42>.5(b)")
    assert not body.match(b"(a (nested)) 1")  # nested parentheses: the general path's
    assert not body.match(b"/Name 1")


# --------------------------------------------------------------------------- patterns


@pytest.mark.parametrize("text", [b"1", b"-2", b"+.5", b"3.", b"0.25"])
def test_numbers(text: bytes):
    assert re.fullmatch(NUMBER, text)


@pytest.mark.parametrize("text", [b"1.2.3", b"--1", b".", b"+"])
def test_not_numbers(text: bytes):
    assert not re.fullmatch(NUMBER, text)


def test_skip_takes_white_space_and_comments():
    data = b" \x00\t% a comment\r\n%another\n x"
    assert re.match(SKIP, data).end() == data.index(b"x")  # type: ignore[union-attr]
