"""Base encodings (ISO 32000-1 Annex D) and the glyph-name rules."""

from __future__ import annotations

import codecs
import subprocess
import sys

import pikepdf  # noqa: F401  (registers the 'pdfdoc' codec)
import pytest
from fontTools.encodings.MacRoman import MacRoman
from fontTools.encodings.StandardEncoding import StandardEncoding
from hypothesis import given, settings
from hypothesis import strategies as st

from glyphweave.tables.encodings import (
    BASE_ENCODING_NAMES,
    base_encoding,
    glyph_name_to_unicode,
    is_symbol_family,
    standard_text,
)

WINANSI_UNUSED = (0x7F, 0x81, 0x8D, 0x8F, 0x90, 0x9D)
MAC_OS_ONLY = {
    "notequal", "infinity", "lessequal", "greaterequal", "partialdiff", "summation", "product",
    "pi", "integral", "Omega", "radical", "approxequal", "Delta", "lozenge", "apple",
}  # fmt: skip


@pytest.mark.parametrize("name", BASE_ENCODING_NAMES)
def test_every_table_has_256_entries_and_ascii_letters(name):
    table = base_encoding(name)
    assert len(table) == 256
    assert all(glyph is None for glyph in table[:0x18])
    if name != "MacExpertEncoding":
        assert table[0x41] == "A" and table[0x7A] == "z" and table[0x20] == "space"


def test_unknown_encoding_is_a_key_error():
    with pytest.raises(KeyError):
        base_encoding("Identity-H")
    with pytest.raises(KeyError):
        base_encoding("/WinAnsiEncoding")
    with pytest.raises(KeyError):
        standard_text("SymbolEncoding", 0x41)


@pytest.mark.parametrize(
    ("encoding", "code", "text"),
    [
        ("StandardEncoding", 0x27, "\u2019"),  # quoteright
        ("StandardEncoding", 0x60, "\u2018"),  # quoteleft
        ("StandardEncoding", 0xAE, "\ufb01"),  # fi
        ("StandardEncoding", 0xE1, "\u00c6"),  # AE
        ("StandardEncoding", 0x80, None),
        ("WinAnsiEncoding", 0x27, "'"),
        ("WinAnsiEncoding", 0x80, "\u20ac"),  # Euro
        ("WinAnsiEncoding", 0x93, "\u201c"),  # quotedblleft
        ("WinAnsiEncoding", 0x8E, "\u017d"),  # Zcaron
        ("WinAnsiEncoding", 0xA0, " "),  # Annex D: space, not NBSP
        ("WinAnsiEncoding", 0xAD, "-"),  # Annex D: hyphen, not soft hyphen
        ("WinAnsiEncoding", 0xE9, "\u00e9"),
        ("WinAnsiEncoding", 0x1F, None),
        ("MacRomanEncoding", 0xA5, "\u2022"),  # bullet
        ("MacRomanEncoding", 0x80, "\u00c4"),  # Adieresis
        ("MacRomanEncoding", 0xCA, " "),
        ("MacRomanEncoding", 0xDB, "\u00a4"),  # currency, not Euro
        ("MacRomanEncoding", 0xAD, None),  # notequal: Mac OS only
        ("MacRomanEncoding", 0xF0, None),  # apple: Mac OS only
        ("PDFDocEncoding", 0x18, "\u02d8"),  # breve
        ("PDFDocEncoding", 0x1F, "\u02dc"),  # tilde
        ("PDFDocEncoding", 0x8A, "\u2212"),  # minus
        ("PDFDocEncoding", 0x93, "\ufb01"),  # fi
        ("PDFDocEncoding", 0xA0, "\u20ac"),  # Euro
        ("PDFDocEncoding", 0x9F, None),
        ("PDFDocEncoding", 0xAD, None),
        ("MacExpertEncoding", 0x56, "\ufb00"),  # ff
        ("MacExpertEncoding", 0x48, "\u00bd"),  # onehalf
        ("MacExpertEncoding", 0xDB, "\u00b2"),  # twosuperior
        ("MacExpertEncoding", 0x2C, ","),
    ],
)
def test_spot_checks(encoding, code, text):
    assert standard_text(encoding, code) == text


def test_macexpert_names():
    table = base_encoding("MacExpertEncoding")
    assert table[0x21] == "exclamsmall"
    assert table[0x61] == "Asmall"
    assert table[0xFA] == "Dotaccentsmall"
    assert table[0xFF] is None


def test_winansi_unused_codes_are_bullets():
    table = base_encoding("WinAnsiEncoding")
    assert [table[code] for code in WINANSI_UNUSED] == ["bullet"] * 6
    assert table[0x95] == "bullet"


def test_codes_outside_a_byte_give_none():
    assert standard_text("WinAnsiEncoding", 256) is None
    assert standard_text("WinAnsiEncoding", -1) is None


def test_standard_matches_fonttools():
    expected = tuple(None if name == ".notdef" else name for name in StandardEncoding)
    assert base_encoding("StandardEncoding") == expected


def test_winansi_matches_cp1252_except_annex_d_rules():
    for code in range(0x20, 256):
        if code in (0xA0, 0xAD, *WINANSI_UNUSED):
            continue
        assert standard_text("WinAnsiEncoding", code) == bytes([code]).decode("cp1252"), hex(code)


def test_macroman_is_the_pdf_variant_of_fonttools_mac_os_roman():
    table = base_encoding("MacRomanEncoding")
    for code in range(0x20, 0x7F):
        assert table[code] == MacRoman[code]
    for code in range(0x80, 256):
        if code == 0xCA:
            assert (MacRoman[code], table[code]) == ("nbspace", "space")
        elif MacRoman[code] in MAC_OS_ONLY:
            assert table[code] is None
        else:
            assert table[code] == MacRoman[code], hex(code)
    assert sum(1 for code in range(0x80, 256) if table[code] is None) == len(MAC_OS_ONLY)


def test_pdfdoc_matches_pikepdf_codec():
    codecs.lookup("pdfdoc")
    for code in range(0x18, 256):
        try:
            char = bytes([code]).decode("pdfdoc")
        except UnicodeDecodeError:
            assert standard_text("PDFDocEncoding", code) is None, hex(code)
            continue
        if char.isprintable():
            assert standard_text("PDFDocEncoding", code) == char, hex(code)


@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("space", " "),
        ("A", "A"),
        ("quoteright", "\u2019"),
        ("uni00410042", "AB"),
        ("uni0041", "A"),
        ("u1F600", "\U0001f600"),
        ("u0041", "A"),
        ("f_f_i", "ffi"),
        ("T_h", "Th"),
        ("a.sc", "a"),
        ("Zcaron.sc", "\u017d"),
        ("uni00410042.sc", "AB"),
        ("nbspace", "\u00a0"),
    ],
)
def test_glyph_names_follow_the_agl(name, text):
    assert glyph_name_to_unicode(name) == text


@pytest.mark.parametrize(
    "name",
    [".notdef", "", "g13", "a1", "C0032", "cid12", "uni00e9", "uniD800", "u110000", "uni004", ".sc"],
)
def test_unknown_glyph_names_give_none(name):
    assert glyph_name_to_unicode(name) is None


@pytest.mark.parametrize(
    "name",
    [
        "Symbol", "SymbolMT", "Symbol,Bold", "StandardSymL", "StandardSymbolsPS", "ZapfDingbats",
        "ITC Zapf Dingbats", "Dingbats", "Wingdings", "Wingdings-Regular", "WINGDINGS2",
        "Webdings", "ABCDEF+SymbolMT",
    ],
)  # fmt: skip
def test_symbol_families_by_name(name):
    assert is_symbol_family(name)


@pytest.mark.parametrize("name", ["Helvetica", "Times-Roman", "ArialMT", "MS-Mincho", "ABCDEF+Calibri"])
def test_latin_fonts_are_not_symbol_families(name):
    assert not is_symbol_family(name)


def test_derived_tables_equal_the_shipped_ones():
    # The fallback is the generator's own derivation, so it must agree with the mirror.
    from glyphweave.tables.derived_encodings import derived_tables

    for name, table in derived_tables().items():
        assert tuple(table) == base_encoding(name), name


def test_missing_table_falls_back_to_the_derived_encodings(monkeypatch):
    from glyphweave.tables import encodings

    encodings._load_tables.cache_clear()
    monkeypatch.setattr(encodings, "_RESOURCE", ("encodings", "no-such-file.tsv"))
    try:
        assert encodings.encodings_source() == "fallback"
        assert encodings.standard_text("WinAnsiEncoding", 0x80) == "\u20ac"
        assert encodings.base_encoding("MacExpertEncoding") == (None,) * 256
    finally:
        monkeypatch.undo()
        encodings._load_tables.cache_clear()
    assert encodings.encodings_source() == "mirror"


def test_the_shipped_text_of_each_code_is_the_agl_reading_of_its_name():
    # base_encoding_text.tsv spares loading the AGL; it must say what the AGL says.
    from glyphweave.tables import encodings

    shipped = encodings._shipped_texts()
    assert shipped is not None
    for name in encodings.BASE_ENCODING_NAMES:
        via_agl = tuple(None if glyph is None else encodings.glyph_name_to_unicode(glyph)
                        for glyph in base_encoding(name))
        assert shipped[name] == via_agl, name


def _names_to_compare() -> list[str]:
    """Every name of the AGL, alone, with a suffix and in ligatures, and the forms its rules
    read by their shape (uni, u), valid and not."""
    from fontTools.agl import LEGACY_AGL2UV

    names = sorted(LEGACY_AGL2UV)
    pairs = zip(names[::11], names[5::11], strict=False)  # the second list is the shorter
    made = [*names, *(name + ".sc" for name in names[::7]), *(a + "_" + b for a, b in pairs)]
    made += ["uni0041", "uni00410042", "uni004", "uni00e9", "uniD800", "uniD7FF", "uniE000", "uniFFFF", "uni0041D800",
             "uni00410042.alt", "u0041", "u1F600", "u10FFFF", "u110000", "uD800", "u041", "u0000041", "u00e9",
             "uni", "u", "", ".", "_", "a_", "_a", "a__b", ".notdef", "g13", "C0032", "cid12", "a.b.c", "f_f_i.liga",
             "uni0041_u1F600_A", "Uni0041", "UNI0041", "u+0041", "uni0041 ", " uni0041", "aé", "uni０٠٤١"]
    return made


def test_the_shipped_glyph_list_reads_every_name_as_fonttools_does():
    # glyph_list.tsv.gz spares importing fontTools.agl (7 ms); glyph_name_to_unicode reads
    # it by the AGL rules, and must give fontTools' toUnicode's answers.
    from fontTools.agl import toUnicode

    from glyphweave.tables import encodings

    assert encodings._glyph_list() is not None
    for name in _names_to_compare():
        assert encodings.glyph_name_to_unicode(name) == (toUnicode(name) or None), name


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="uniUNIabcdefABCDEF0123456789._xyzZ", max_size=16))
def test_generated_glyph_names_read_as_fonttools_reads_them(name: str) -> None:
    from fontTools.agl import toUnicode

    assert glyph_name_to_unicode(name) == (toUnicode(name) or None)


def test_without_the_shipped_glyph_list_fonttools_answers(monkeypatch):
    from glyphweave.tables import encodings

    encodings.clear_caches()
    monkeypatch.setattr(encodings, "_GLYPH_LIST_RESOURCE", ("encodings", "no-such-file.tsv.gz"))
    try:
        assert encodings._glyph_list() is None
        assert encodings.glyph_name_to_unicode("f_f_i.liga") == "ffi"
        assert encodings.glyph_name_to_unicode("g13") is None
    finally:
        monkeypatch.undo()
        encodings.clear_caches()


def test_reading_a_glyph_name_imports_no_agl_parser():
    code = ("import sys; from glyphweave.tables.encodings import glyph_name_to_unicode as read; "
            "assert read('ff') == '\\ufb00' and read('uni20AC.alt') == '\\u20ac'; "
            "assert 'fontTools.agl' not in sys.modules, 'fontTools.agl was imported'")
    subprocess.run([sys.executable, "-c", code], check=True)


def test_a_uni_name_ending_in_a_line_feed_is_not_a_uni_name():
    # The one place the rules part from fontTools: its pattern ends in "$", which also
    # matches before a final line feed (a PDF name can hold one, as #0A). The AGL
    # specification wants hex digits to the end of the component.
    assert glyph_name_to_unicode("uni0041\n") is None
    assert glyph_name_to_unicode("u1F600\n") is None


@pytest.mark.parametrize("damage", [b"", b"# only a comment\n", b"ff\tFB00\nbroken line\n", b"ff\tFB00\textra\n"])
def test_a_damaged_glyph_list_leaves_the_answers_to_fonttools(damage, monkeypatch):
    from glyphweave.tables import encodings, loader

    real = loader.read_text
    monkeypatch.setattr(loader, "read_text",
                        lambda *parts, **kw: damage.decode("ascii") if parts[-1] == "glyph_list.tsv.gz" else real(*parts, **kw))
    encodings.clear_caches()
    try:
        assert encodings._glyph_list() is None
        assert encodings.glyph_name_to_unicode("ff") == "\ufb00"
    finally:
        monkeypatch.undo()
        encodings.clear_caches()
