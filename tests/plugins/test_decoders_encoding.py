"""The ``encoding`` decoder: /Differences over a base encoding."""

from __future__ import annotations

import pytest

from glyphweave.core.fontinfo import FLAG_NONSYMBOLIC, FLAG_SYMBOLIC, FontInfo
from glyphweave.core.stages import Decoder
from glyphweave.plugins.decoders import encoding
from glyphweave.plugins.decoders.encoding import EncodingDecoder


def font(**fields) -> FontInfo:
    fields.setdefault("base_font", "Helvetica")
    fields.setdefault("subtype", "Type1")
    return FontInfo(key=(1, 0), **fields)


def decode(info: FontInfo, code: bytes) -> str | None:
    return EncodingDecoder().decode(info, code, None)


@pytest.mark.parametrize(
    ("base", "code", "text"),
    [
        ("WinAnsiEncoding", b"\x80", "\u20ac"),
        ("WinAnsiEncoding", b"\x93", "\u201c"),
        ("StandardEncoding", b"\x27", "\u2019"),
        ("MacRomanEncoding", b"\xa5", "\u2022"),
        ("PDFDocEncoding", b"\x18", "\u02d8"),
        ("MacExpertEncoding", b"\x56", "\ufb00"),
    ],
)
def test_base_encodings(base, code, text):
    assert decode(font(base_encoding=base), code) == text


def test_differences_override_the_base_encoding():
    info = font(
        base_encoding="WinAnsiEncoding", differences={0x41: "Euro", 0x80: "uni00410042", 0x42: "f_f_i"}
    )
    assert decode(info, b"\x41") == "\u20ac"
    assert decode(info, b"\x80") == "AB"
    assert decode(info, b"\x42") == "ffi"
    assert decode(info, b"\x43") == "C"  # not in /Differences: the base encoding


def test_differences_follow_the_agl_rules():
    info = font(differences={1: "a.sc", 2: "u1F600", 3: "space", 4: "uni00e9"})
    assert decode(info, b"\x01") == "a"
    assert decode(info, b"\x02") == "\U0001f600"
    assert decode(info, b"\x03") == " "
    assert decode(info, b"\x04") is None  # lowercase hex is not an AGL uni name


def test_unknown_difference_name_does_not_fall_back_to_the_base():
    info = font(base_encoding="WinAnsiEncoding", differences={0x41: "g13"})
    assert decode(info, b"\x41") is None


def test_type3_names_resolve_only_through_the_agl():
    info = font(
        subtype="Type3", base_font="", differences={0x41: "a1", 0x42: "C0032", 0x43: "B", 0x44: ".notdef"}
    )
    assert decode(info, b"\x41") is None
    assert decode(info, b"\x42") is None
    assert decode(info, b"\x43") == "B"
    assert decode(info, b"\x44") is None


def test_differences_without_base_encoding_leave_other_codes_alone():
    info = font(differences={0x41: "Aring"})
    assert decode(info, b"\x41") == "\u00c5"
    assert decode(info, b"\x42") is None


def test_no_encoding_at_all_gives_none():
    assert decode(font(), b"\x41") is None


def test_unknown_base_encoding_gives_none():
    assert decode(font(base_encoding="Identity-H"), b"\x41") is None


def test_symbolic_font_without_base_encoding_is_skipped():
    info = font(base_font="MyPi", flags=FLAG_SYMBOLIC)
    assert decode(info, b"\x41") is None


def test_symbolic_font_with_a_base_encoding_uses_it():
    info = font(base_font="Calibri", subtype="TrueType", flags=FLAG_SYMBOLIC, base_encoding="WinAnsiEncoding")
    assert decode(info, b"\x41") == "A"


@pytest.mark.parametrize("name", ["Symbol", "SymbolMT", "ZapfDingbats", "Wingdings-Regular", "Webdings"])
def test_symbol_families_ignore_a_latin_base_encoding(name):
    info = font(
        base_font=name, flags=FLAG_SYMBOLIC, base_encoding="WinAnsiEncoding", differences={0x20: "space"}
    )
    assert decode(info, b"\x61") is None
    assert decode(info, b"\x20") == " "  # explicit names still apply


def test_nonsymbolic_flag_is_ordinary():
    assert decode(font(flags=FLAG_NONSYMBOLIC, base_encoding="WinAnsiEncoding"), b"\xe9") == "\u00e9"


def test_composite_fonts_are_skipped():
    info = font(subtype="Type0", composite=True, base_encoding="WinAnsiEncoding", differences={0x41: "A"})
    assert decode(info, b"\x41") is None
    assert decode(info, b"\x00\x41") is None


def test_multibyte_code_in_a_simple_font_gives_none():
    assert decode(font(base_encoding="WinAnsiEncoding"), b"\x00\x41") is None
    assert decode(font(base_encoding="WinAnsiEncoding"), b"") is None


def test_registration():
    assert EncodingDecoder.NAME == "encoding"
    assert issubclass(EncodingDecoder, Decoder)
    assert encoding.glyphweave_register_decoders() == [EncodingDecoder]
