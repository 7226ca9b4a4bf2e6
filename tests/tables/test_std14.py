"""Standard-14 font metrics: names, the shipped mirror, its provenance and the fallback."""

from __future__ import annotations

import hashlib
import importlib.resources
import sys
from pathlib import Path

import pytest
from generators import load_generator

from glyphweave.tables import loader, std14
from glyphweave.tables.std14 import STD14_NAMES, canonical_std14_name, std14_metrics, std14_source

REPO = Path(__file__).resolve().parents[2]


def _resource_dir():
    return importlib.resources.files("glyphweave.tables") / "resources" / "std14"


@pytest.fixture
def fresh_caches():
    std14._load_table.cache_clear()
    std14._fallback.cache_clear()
    yield
    std14._load_table.cache_clear()
    std14._fallback.cache_clear()


# ------------------------------------------------------------------------------------------- names


@pytest.mark.parametrize(
    ("base_font", "expected"),
    [
        # canonical names map to themselves
        *[(name, name) for name in STD14_NAMES],
        # Helvetica and Arial
        ("Arial", "Helvetica"),
        ("ArialMT", "Helvetica"),
        ("Arial,Bold", "Helvetica-Bold"),
        ("Arial,Italic", "Helvetica-Oblique"),
        ("Arial,BoldItalic", "Helvetica-BoldOblique"),
        ("Arial-BoldMT", "Helvetica-Bold"),
        ("Arial-ItalicMT", "Helvetica-Oblique"),
        ("Arial-BoldItalicMT", "Helvetica-BoldOblique"),
        ("ArialMT,Bold", "Helvetica-Bold"),
        ("Helvetica-Italic", "Helvetica-Oblique"),
        ("Helvetica,Bold", "Helvetica-Bold"),
        ("helvetica-boldoblique", "Helvetica-BoldOblique"),
        # Times
        ("Times", "Times-Roman"),
        ("TimesNewRoman", "Times-Roman"),
        ("TimesNewRomanPSMT", "Times-Roman"),
        ("TimesNewRomanPS-BoldMT", "Times-Bold"),
        ("TimesNewRomanPS-ItalicMT", "Times-Italic"),
        ("TimesNewRomanPS-BoldItalicMT", "Times-BoldItalic"),
        ("Times New Roman", "Times-Roman"),
        ("Times New Roman,Bold", "Times-Bold"),
        ("Times New Roman,BoldItalic", "Times-BoldItalic"),
        ("TimesNewRoman,Italic", "Times-Italic"),
        ("Times-Oblique", "Times-Italic"),
        ("Times-Roman,Bold", "Times-Bold"),
        # Courier
        ("CourierNew", "Courier"),
        ("CourierNewPSMT", "Courier"),
        ("CourierNewPS-BoldMT", "Courier-Bold"),
        ("CourierNewPS-ItalicMT", "Courier-Oblique"),
        ("CourierNewPS-BoldItalicMT", "Courier-BoldOblique"),
        ("Courier New,Bold", "Courier-Bold"),
        ("Courier-Italic", "Courier-Oblique"),
        ("Courier-BoldItalic", "Courier-BoldOblique"),
        # Symbol and dingbats
        ("SymbolMT", "Symbol"),
        ("symbol", "Symbol"),
        ("Symbol,Bold", "Symbol"),
        ("StandardSymbolsPS", "Symbol"),
        ("StandardSymL", "Symbol"),
        ("Dingbats", "ZapfDingbats"),
        ("ZapfDingbats", "ZapfDingbats"),
        ("D050000L", "ZapfDingbats"),
        # URW++ clones
        ("NimbusSans-Regular", "Helvetica"),
        ("NimbusSanL-BoldItal", "Helvetica-BoldOblique"),
        ("NimbusRomNo9L-Medi", "Times-Bold"),
        ("NimbusMonoPS-Italic", "Courier-Oblique"),
        # a subset prefix left on by mistake is tolerated
        ("ABCDEF+ArialMT", "Helvetica"),
    ],
)
def test_canonical_names(base_font, expected):
    assert canonical_std14_name(base_font) == expected


@pytest.mark.parametrize(
    "base_font",
    [
        "",
        "Helvetica-Narrow",
        "Helvetica-Condensed",
        "HelveticaNeue",
        "ArialNarrow",
        "Arial Narrow,Bold",
        "Arial-Black",
        "ArialUnicodeMS",
        "Arial-Light",
        "TimesTen-Roman",
        "Courier10PitchBT",
        "Calibri",
        "Wingdings",
        "SymbolNeu",
        "Verdana,Bold",
        "abcdef+ArialMT",
    ],
)
def test_other_names_are_none(base_font):
    assert canonical_std14_name(base_font) is None


# ---------------------------------------------------------------------------------------- metrics


def test_mirror_serves():
    assert std14_source() == "mirror"
    assert {std14_metrics(name).source for name in STD14_NAMES} == {"mirror"}


def test_helvetica_widths():
    m = std14_metrics("Helvetica")
    assert m.name == "Helvetica"
    assert m.widths["a"] == 556
    assert m.widths["space"] == 278
    assert m.width("space") == 278
    assert m.builtin_encoding[32] == "space"
    assert m.glyph_for_code(97) == "a"
    assert std14_metrics("Helvetica-Bold").widths["a"] == 556
    assert std14_metrics("Helvetica-Bold").widths["space"] == 278


def test_times_widths():
    assert std14_metrics("Times-Roman").widths["a"] == 444
    assert std14_metrics("Times-Roman").widths["space"] == 250
    assert std14_metrics("Times-Bold").widths["a"] == 500


def test_courier_is_fixed_pitch():
    for name in ("Courier", "Courier-Bold", "Courier-Oblique", "Courier-BoldOblique"):
        m = std14_metrics(name)
        assert m.is_fixed_pitch
        assert len(m.widths) > 300
        assert set(m.widths.values()) == {600}
        assert m.default_width == 600


def test_symbol_builtin_encoding():
    m = std14_metrics("Symbol")
    assert "alpha" in m.widths
    assert m.builtin_encoding[97] == "alpha"
    assert m.builtin_encoding[0x41] == "Alpha"
    assert m.widths["alpha"] == 631


def test_zapfdingbats_builtin_encoding():
    m = std14_metrics("ZapfDingbats")
    assert m.builtin_encoding[33] == "a1"
    assert m.widths["a1"] == 974
    assert m.builtin_encoding[32] == "space"


def test_text_fonts_use_standard_encoding():
    for name in STD14_NAMES[:12]:
        enc = std14_metrics(name).builtin_encoding
        assert enc[0x41] == "A"
        assert enc[0x27] == "quoteright"  # StandardEncoding, not WinAnsi
        assert enc[0xE1] == "AE"


@pytest.mark.parametrize("name", STD14_NAMES)
def test_vertical_metrics_sensible(name):
    m = std14_metrics(name)
    llx, lly, urx, ury = m.bbox
    assert llx < urx and lly < 0 < ury
    assert 500 <= m.ascent <= ury
    assert lly <= m.descent < 0
    assert 0 < m.cap_height <= m.ascent
    assert 400 <= m.default_width <= 800
    assert m.width("no-such-glyph") == m.default_width


def test_unknown_name_raises():
    with pytest.raises(KeyError):
        std14_metrics("Arial")


def test_metrics_are_cached_and_read_only():
    assert std14_metrics("Helvetica") is std14_metrics("Helvetica")
    with pytest.raises(TypeError):
        std14_metrics("Helvetica").widths["a"] = 1  # type: ignore[index]


def test_import_does_no_work():
    code = (
        "import glyphweave.tables.std14 as s; "
        "assert s._load_table.cache_info().currsize == 0; "
        "s.std14_metrics('Courier'); "
        "assert s._load_table.cache_info().currsize == 1; "
        "parsed = [name for name, font in s._load_table().items() if not isinstance(font, tuple)]; "
        "assert parsed == ['Courier'], parsed"  # the other thirteen are parsed when asked for
    )
    import subprocess

    subprocess.run([sys.executable, "-c", code], check=True)


# --------------------------------------------------------------------------------------- fallback


def test_fallback_when_mirror_missing(monkeypatch, fresh_caches):
    monkeypatch.setattr(std14, "_read_resource", lambda: None)
    assert std14_source() == "fallback"
    m = std14_metrics("Helvetica")
    assert m.source == "fallback"
    assert dict(m.widths) == {}
    assert dict(m.builtin_encoding) == {}
    assert m.width("a") == m.default_width == 543
    assert std14_metrics("Courier").width("a") == 600
    assert (m.ascent, m.descent) == (718, -207)


def test_fallback_when_resource_folder_missing(monkeypatch, fresh_caches, tmp_path):
    # Point the package lookup at an empty folder, as in a wheel built without resources.
    monkeypatch.setattr(loader, "resource_root", lambda: tmp_path)
    assert std14_metrics("Times-Roman").source == "fallback"


@pytest.mark.parametrize("name", STD14_NAMES)
def test_fallback_numbers_match_mirror(name, monkeypatch, fresh_caches):
    mirror = std14_metrics(name)
    monkeypatch.setattr(std14, "_read_resource", lambda: None)
    std14._load_table.cache_clear()
    fallback = std14_metrics(name)
    fields = (
        "ascent",
        "descent",
        "cap_height",
        "x_height",
        "bbox",
        "italic_angle",
        "is_fixed_pitch",
        "default_width",
    )
    assert {f: getattr(fallback, f) for f in fields} == {f: getattr(mirror, f) for f in fields}


# ------------------------------------------------------------------------------------- provenance


def _provenance_rows():
    text = (_resource_dir() / "PROVENANCE.tsv").read_text(encoding="utf-8")
    lines = [line for line in text.splitlines() if line and not line.startswith("#")]
    header = lines[0].split("\t")
    return [dict(zip(header, line.split("\t"), strict=True)) for line in lines[1:]]


def test_provenance_checksums_match_files():
    rows = _provenance_rows()
    assert {row["file"] for row in rows} >= {"metrics.tsv", "ADOBE-CORE14-AFM-README.txt"}
    for row in rows:
        data = (_resource_dir() / row["file"]).read_bytes()
        assert hashlib.sha256(data).hexdigest() == row["sha256"], row["file"]
        assert len(data) == int(row["bytes"]), row["file"]
        assert row["source_package"] and row["source_version"] and row["source_path"] and row["licence"]


def test_every_shipped_file_has_provenance():
    listed = {row["file"] for row in _provenance_rows()} | {"PROVENANCE.tsv"}
    shipped = {entry.name for entry in _resource_dir().iterdir() if entry.is_file()}
    assert shipped == listed


# -------------------------------------------------------------------------------------- generator


def _load_generator():
    return load_generator("make_std14_metrics")


MINI_AFM = b"""StartFontMetrics 4.1
Comment a made-up font
FontName Mini
FontBBox -10 -200 900 800
CapHeight 700
XHeight 500.0
Ascender 750
Descender -190
ItalicAngle -12.5
IsFixedPitch false
EncodingScheme AdobeStandardEncoding
StartCharMetrics 3
C 32 ; WX 250 ; N space ; B 0 0 0 0 ;
C 97 ; WX 512.5 ; N a ; B 10 0 500 500 ;
C -1 ; WX 600 ; N Euro ; B 0 0 600 700 ;
EndCharMetrics
StartKernData
EndKernData
EndFontMetrics
"""


def test_generator_round_trip_and_determinism():
    gen = _load_generator()
    fonts = {name: ("Mini.afm", MINI_AFM) for name in gen.STD14}
    first = gen.render_metrics(fonts, "a test", "not modified")
    assert first == gen.render_metrics(fonts, "a test", "not modified")
    assert tuple(gen.STD14) == STD14_NAMES
    table = std14._parse_table(first.decode("ascii"))
    m = table["Times-Italic"]
    assert dict(m.widths) == {"space": 250, "a": 512.5, "Euro": 600}
    assert dict(m.builtin_encoding) == {32: "space", 97: "a"}
    assert (m.ascent, m.descent, m.cap_height, m.x_height) == (750, -190, 700, 500)
    assert m.bbox == (-10, -200, 900, 800)
    assert m.italic_angle == -12.5
    assert m.is_fixed_pitch is False


def test_generator_rejects_broken_afm():
    gen = _load_generator()
    with pytest.raises(gen.AFMError):
        gen.parse_afm("StartFontMetrics 4.1\nFontBBox 0 0 1 1\nStartCharMetrics 1\nC 32 ; N space ;\n", "x")


def test_parser_rejects_unknown_format():
    with pytest.raises(ValueError):
        std14._parse_table("# something else\n")


def test_a_malformed_line_is_reported_with_its_line_number():
    text = std14._read_resource()
    lines = text.split("\n")
    broken = next(i for i, line in enumerate(lines) if line.startswith("@font\tSymbol")) + 3
    lines[broken] = "a glyph line with no tabs"
    table = std14._sections("\n".join(lines))  # split without parsing: only Symbol is broken
    assert std14._parse_section("Courier", *table["Courier"]).width("a") == 600
    with pytest.raises(ValueError, match=f"metrics.tsv:{broken + 1}: malformed line"):
        std14._parse_section("Symbol", *table["Symbol"])
