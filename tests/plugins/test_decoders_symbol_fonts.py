"""The ``symbol``, ``zapfdingbats`` and ``wingdings`` decoders: symbol fonts chosen by name."""

from __future__ import annotations

import hashlib
import importlib.resources
import unicodedata
from pathlib import Path

import pytest

from glyphweave.core.fontinfo import FontInfo
from glyphweave.core.stages import Decoder
from glyphweave.plugins.decoders import symbol_fonts
from glyphweave.plugins.decoders.symbol_fonts import (
    SymbolDecoder,
    WingdingsDecoder,
    ZapfDingbatsDecoder,
    normalize_font_name,
    symbol_family,
    table_source,
)

EVAL_PDF = Path(__file__).resolve().parents[3] / "shared" / "eval" / "corpus" / "ps_symbols.pdf"


class FakeCMap:
    """Stands in for core.cmap.CMap: only ``to_unicode`` is used."""

    def __init__(self, mapping: dict[bytes, str]) -> None:
        self.mapping = mapping

    def to_unicode(self, code: bytes) -> str | None:
        return self.mapping.get(code)


def font(base_font: str, *, cmap: FakeCMap | None = None, composite: bool = False, **fields) -> FontInfo:
    fields.setdefault("subtype", "Type0" if composite else "Type1")
    return FontInfo(
        key=(1, 0),
        base_font=base_font,
        composite=composite,
        to_unicode_loader=(lambda: cmap) if cmap is not None else None,
        **fields,
    )


def symbol(info: FontInfo, code: bytes) -> str | None:
    return SymbolDecoder().decode(info, code, None)


def zapf(info: FontInfo, code: bytes) -> str | None:
    return ZapfDingbatsDecoder().decode(info, code, None)


def wing(info: FontInfo, code: bytes) -> str | None:
    return WingdingsDecoder().decode(info, code, None)


# ------------------------------------------------------------------------------------------ names


@pytest.mark.parametrize(
    ("name", "family"),
    [
        ("Symbol", "symbol"),
        ("SymbolMT", "symbol"),
        ("ABCDEF+SymbolMT", "symbol"),
        ("Symbol,Bold", "symbol"),
        ("Symbol-Regular", "symbol"),
        ("SymbolPS-BoldMT", "symbol"),
        ("StandardSymL", "symbol"),
        ("StandardSymbolsPS", "symbol"),
        ("ZapfDingbats", "zapfdingbats"),
        ("ZapfDingbatsITC", "zapfdingbats"),
        ("ITC Zapf Dingbats Medium", "zapfdingbats"),
        ("Dingbats", "zapfdingbats"),
        ("D050000L", "zapfdingbats"),
        ("Wingdings", "wingdings"),
        ("XYZABC+Wingdings-Regular", "wingdings"),
        ("Wingdings,Bold", "wingdings"),
        ("Webdings", "webdings"),
        ("Wingdings 2", None),
        ("Wingdings3", None),
        ("Symbola", None),
        ("ArialMT", None),
        ("Helvetica", None),
        ("Zapfino", None),
    ],
)
def test_family_by_name(name, family):
    assert symbol_family(name) == family


def test_normalize_font_name():
    assert normalize_font_name("ABCDEF+SymbolMT,Bold") == "symbol"
    assert normalize_font_name("Wingdings 2") == "wingdings2"
    assert normalize_font_name("StandardSymbolsPS") == "standardsymbols"


def test_never_by_code_alone():
    """A Latin font gets no answer, whatever the code or its ToUnicode value."""
    info = font("ArialMT", subtype="TrueType", cmap=FakeCMap({b"\xfb": "\uf0fb"}))
    for decoder in (SymbolDecoder(), ZapfDingbatsDecoder(), WingdingsDecoder()):
        assert decoder.decode(info, b"\xfb", None) is None
    # Each decoder answers for its own family only.
    assert zapf(font("Symbol"), b"\xbb") is None
    assert symbol(font("Wingdings", subtype="TrueType"), b"\x9f") is None


# ------------------------------------------------------------------------------------------ Symbol


@pytest.mark.parametrize(
    ("code", "text"),
    [
        (0xBB, "\u2248"),  # approxequal
        (0xC6, "\u2205"),  # emptyset
        (0xD3, "\u00a9"),  # copyrightserif
        (0xE3, "\u00a9"),  # copyrightsans
        (0xD2, "\u00ae"),  # registerserif
        (0xE2, "\u00ae"),  # registersans
        (0xD4, "\u2122"),  # trademarkserif
        (0xE4, "\u2122"),  # trademarksans
        (0xB7, "\u2022"),  # bullet
        (0x61, "\u03b1"),  # alpha
        (0x44, "\u0394"),  # Delta: the Greek letter, not INCREMENT
        (0x57, "\u03a9"),  # Omega: the Greek letter, not OHM SIGN
        (0xE6, "\u239b"),  # parenlefttp
        (0xEF, "\u23aa"),  # braceex
        (0xFE, "\u23ad"),  # bracerightbt
        (0xBE, "\u23af"),  # arrowhorizex
    ],
)
def test_symbol_builtin_encoding(code, text):
    assert symbol(font("Symbol"), bytes((code,))) == text


def test_symbol_pua_without_standard_char_stays_unresolved():
    assert symbol(font("Symbol"), b"\x60") is None  # radicalex: AGL U+F8E5, no standard char
    assert symbol(font("Symbol"), b"\x80") is None  # not encoded


def test_symbol_differences_first():
    info = font("ABCDEF+Symbol", differences={0x41: "copyrightsans", 0x42: "bullet", 0x43: "g13"})
    assert symbol(info, b"\x41") == "\u00a9"
    assert symbol(info, b"\x42") == "\u2022"
    assert symbol(info, b"\x43") is None


def test_word_pua_tounicode_for_symbolmt():
    """Word maps a SymbolMT subset's code 0x01 to U+F0B7: the low byte is the Symbol code."""
    info = font("ABCDEF+SymbolMT", subtype="TrueType", cmap=FakeCMap({b"\x01": "\uf0b7"}))
    assert symbol(info, b"\x01") == "\u2022"


def test_composite_symbol_font_uses_the_low_byte_of_its_tounicode():
    info = font("SymbolMT", composite=True, cmap=FakeCMap({b"\x00\x03": "\uf0b7", b"\x00\x04": "\ue000"}))
    assert symbol(info, b"\x00\x03") == "\u2022"
    assert symbol(info, b"\x00\x04") is None  # not U+F0xx
    assert symbol(font("SymbolMT", composite=True), b"\x00\x03") is None  # no ToUnicode


# ------------------------------------------------------------------------------------------ Dingbats


@pytest.mark.parametrize(
    ("code", "text"),
    [
        (0x33, "\u2713"),
        (0x34, "\u2714"),
        (0x37, "\u2717"),
        (0x38, "\u2718"),
        (0xD4, "\u2794"),
        (0x48, "\u2605"),
    ],
)
def test_zapfdingbats(code, text):
    assert zapf(font("ZapfDingbats"), bytes((code,))) == text


def test_zapfdingbats_differences_names():
    info = font("ABCDEF+Dingbats", differences={0x01: "a19", 0x02: "a160", 0x03: "space"})
    assert zapf(info, b"\x01") == "\u2713"
    assert zapf(info, b"\x02") == "\u2794"
    assert zapf(info, b"\x03") == " "


# ------------------------------------------------------------------------------------------ Wingdings


@pytest.mark.parametrize(
    ("code", "text"),
    [
        (0x9F, "\u2022"),  # bullet
        (0xA7, "\u25aa"),  # small black square (Word's bullet)
        (0x6C, "\u25cf"),
        (0x6E, "\u25a0"),
        (0xD8, "\u2b9a"),
        (0xFC, "\u2714"),  # check
        (0xFB, "\U0001f5f6"),  # a cross in Wingdings
        (0x81, "\u2460"),
        (0x8C, "\u2776"),
        (0xB7, "\U0001f550"),
    ],
)
def test_wingdings(code, text):
    assert wing(font("Wingdings", subtype="TrueType"), bytes((code,))) == text


def test_wingdings_pua_tounicode():
    info = font("ABCDEF+Wingdings", subtype="TrueType", cmap=FakeCMap({b"\x84": "\uf06e"}))
    assert wing(info, b"\x84") == "\u25a0"


def test_wingdings_differences_use_the_fonts_glyph_names():
    info = font(
        "AUXYXE+Wingdings",
        subtype="TrueType",
        differences={0x0C: "onesansinv", 0x0D: "checkbld", 0x0E: "uniF0A7", 0x0F: "bullet", 0x10: "g7"},
    )
    assert wing(info, b"\x0c") == "\u2776"
    assert wing(info, b"\x0d") == "\u2714"
    assert wing(info, b"\x0e") == "\u25aa"
    assert wing(info, b"\x0f") == "\u2022"
    assert wing(info, b"\x10") is None


def test_wingdings_unknown_codes_stay_unresolved():
    info = font("Wingdings", subtype="TrueType", cmap=FakeCMap({b"\x05": "\uf0ff"}))
    assert wing(info, b"\x05") is None  # 0xFF: the Windows logo, no Unicode character
    assert wing(font("Wingdings", subtype="TrueType"), b"\x7f") is None
    assert wing(font("Webdings", subtype="TrueType"), b"\x9f") is None  # no Webdings table


# ------------------------------------------------------------------------------------------ tables


def test_table_source_is_mirror():
    assert table_source() == "mirror"


def test_fallback_when_the_mirror_is_missing(monkeypatch):
    from glyphweave.tables import symbols

    monkeypatch.setattr(symbols, "_read", lambda name: None)
    symbols.clear_caches()
    try:
        assert table_source() == "fallback"
        assert symbol(font("Symbol"), b"\xe3") == "\u00a9"
        assert symbol(font("Symbol"), b"\xb7") == "\u2022"
        assert zapf(font("ZapfDingbats"), b"\x33") == "\u2713"
        assert wing(font("Wingdings", subtype="TrueType"), b"\xa7") == "\u25aa"
        assert wing(font("Wingdings", subtype="TrueType"), b"\x21") is None  # not in the fallback
    finally:
        symbols.clear_caches()  # the next call (monkeypatch undone) reads the mirror again


def test_fallback_without_std14_encodings(no_mirror):
    assert symbol(font("Symbol"), b"\xd4") == "\u2122"
    assert zapf(font("ZapfDingbats"), b"\x34") == "\u2714"


def _resource_dir():
    return importlib.resources.files("glyphweave.tables") / "resources" / "symbols"


def test_provenance_checksums_match():
    folder = _resource_dir()
    lines = [
        line
        for line in (folder / "PROVENANCE.tsv").read_text("utf-8").splitlines()
        if not line.startswith("#")
    ]
    header, rows = lines[0].split("\t"), [line.split("\t") for line in lines[1:]]
    assert header[:3] == ["file", "sha256", "bytes"]
    assert {row[0] for row in rows} == {"zapfdingbats.tsv", "symbol_overrides.tsv", "wingdings.tsv"}
    for name, sha, size, *_rest in rows:
        data = (folder / name).read_bytes()
        assert hashlib.sha256(data).hexdigest() == sha, name
        assert len(data) == int(size), name


def test_tables_hold_no_private_use_values():
    from glyphweave.tables.symbols import symbol_tables

    tables = symbol_tables()
    values = [*tables.symbol_overrides.values(), *tables.zapf_names.values(), *tables.wingdings.values()]
    assert values
    for text in values:
        assert not any(unicodedata.category(ch) == "Co" for ch in text), text
    assert len(tables.zapf_names) >= 200 and len(tables.wingdings) >= 220


def test_registered():
    classes = symbol_fonts.glyphweave_register_decoders()
    assert [cls.NAME for cls in classes] == ["symbol", "zapfdingbats", "wingdings"]
    assert all(issubclass(cls, Decoder) for cls in classes)


# ------------------------------------------------------------------------------------------ end to end

_PROFILE = """
[profile]
name = "symbols-test"
decoders = ["tounicode", "symbol", "zapfdingbats", "wingdings", "encoding", "standard-fallback"]
filters = ["visible-box", "dedup"]
assembler = "reading"
"""


@pytest.mark.skipif(not EVAL_PDF.is_file(), reason="shared eval corpus not present")
def test_ps_symbols_end_to_end():
    import glyphweave
    from glyphweave.components.catalog import Catalog
    from glyphweave.components.manager import create_plugin_manager
    from glyphweave.components.profile import Profile

    pm = create_plugin_manager()
    if "symbol" not in Catalog.from_plugin_manager(pm).names("decoder"):
        pm = create_plugin_manager(plugins=[symbol_fonts])  # not yet declared as an entry point
    profile = Profile.from_toml(_PROFILE, Catalog.from_plugin_manager(pm))
    with glyphweave.open(EVAL_PDF, profile=profile, plugin_manager=pm) as doc:
        text = doc.text()
    truth = EVAL_PDF.with_name("ps_symbols.truth.txt").read_text("utf-8")
    assert " ".join(text.split()) == " ".join(truth.split())
    assert not any(unicodedata.category(ch) == "Co" for ch in text)


def test_each_decoder_asks_a_fonts_family_once_for_its_codes_in_a_row(monkeypatch: pytest.MonkeyPatch):
    # The core asks about a font's codes one after another: the family is named once per
    # font, and a font met again after another is still answered as its own.
    asked: list[str] = []
    real = symbol_fonts.symbol_family

    def family(name: str):
        asked.append(name)
        return real(name)

    monkeypatch.setattr(symbol_fonts, "symbol_family", family)
    decoder = SymbolDecoder()
    symbol, times, dingbats = font("Symbol"), font("Times-Roman"), font("ZapfDingbats")
    answers = [decoder.decode(f, bytes([c]), None) for f in (symbol, times, symbol, dingbats, symbol)
               for c in (0x61, 0x62, 0x70)]
    assert answers == ["α", "β", "π", None, None, None, "α", "β", "π", None, None, None, "α", "β", "π"]
    assert asked == ["Symbol", "Times-Roman", "ZapfDingbats"]  # the rest from each font's memo
