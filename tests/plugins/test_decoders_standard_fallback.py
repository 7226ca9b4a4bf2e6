"""The ``standard-fallback`` decoder: the implicit encoding of fonts that name none."""

from __future__ import annotations

import pytest

from glyphweave.core.errors import ProfileError
from glyphweave.core.fontinfo import FLAG_NONSYMBOLIC, FLAG_SYMBOLIC, FontInfo
from glyphweave.core.stages import Decoder
from glyphweave.plugins.decoders import standard_fallback
from glyphweave.plugins.decoders.standard_fallback import StandardFallbackDecoder


def font(**fields) -> FontInfo:
    fields.setdefault("base_font", "Helvetica")
    fields.setdefault("subtype", "Type1")
    return FontInfo(key=(1, 0), **fields)


def decode(info: FontInfo, code: bytes, **options) -> str | None:
    decoder = StandardFallbackDecoder(**StandardFallbackDecoder.validate_options(options))
    return decoder.decode(info, code, None)


@pytest.mark.parametrize("subtype", ["Type1", "MMType1", "Type3"])
def test_type1_and_type3_read_as_standard_encoding(subtype):
    info = font(subtype=subtype)
    assert decode(info, b"\x27") == "\u2019"  # quoteright
    assert decode(info, b"\x41") == "A"
    assert decode(info, b"\xae") == "\ufb01"  # fi
    assert decode(info, b"\x80") is None  # undefined in StandardEncoding


def test_nonsymbolic_truetype_reads_as_winansi():
    info = font(base_font="ArialMT", subtype="TrueType", flags=FLAG_NONSYMBOLIC)
    assert decode(info, b"\x27") == "'"
    assert decode(info, b"\x80") == "\u20ac"
    assert decode(info, b"\x93") == "\u201c"


def test_symbolic_truetype_reads_as_winansi_by_default():
    info = font(base_font="Calibri", subtype="TrueType", flags=FLAG_SYMBOLIC)
    assert decode(info, b"\x41") == "A"
    assert decode(info, b"\x41", symbolic_truetype=True) == "A"


def test_symbolic_truetype_option_off():
    info = font(base_font="Calibri", subtype="TrueType", flags=FLAG_SYMBOLIC)
    assert decode(info, b"\x41", symbolic_truetype=False) is None
    plain = font(base_font="Calibri", subtype="TrueType")
    assert decode(plain, b"\x41", symbolic_truetype=False) == "A"


def test_option_is_declared_and_validated():
    option = StandardFallbackDecoder.OPTIONS["symbolic_truetype"]
    assert option.default is True and option.type is bool and option.doc
    assert StandardFallbackDecoder().symbolic_truetype is True
    with pytest.raises(ProfileError):
        StandardFallbackDecoder.validate_options({"symbolic_truetype": "yes"})
    with pytest.raises(ProfileError):
        StandardFallbackDecoder.validate_options({"symbolic": True})


@pytest.mark.parametrize("subtype", ["Type1", "Type3"])
def test_symbolic_type1_and_type3_are_skipped(subtype):
    assert decode(font(base_font="MyPi", subtype=subtype, flags=FLAG_SYMBOLIC), b"\x41") is None


@pytest.mark.parametrize(
    ("name", "subtype"),
    [
        ("Symbol", "Type1"),
        ("SymbolMT", "TrueType"),
        ("StandardSymL", "Type1"),
        ("StandardSymbolsPS", "Type1"),
        ("ZapfDingbats", "Type1"),
        ("Dingbats", "Type1"),
        ("Wingdings-Regular", "TrueType"),
        ("Wingdings3", "TrueType"),
        ("Webdings", "TrueType"),
    ],
)
def test_symbol_families_stay_unresolved(name, subtype):
    # Even with the flags saying nonsymbolic, and with symbolic_truetype on.
    for flags in (0, FLAG_NONSYMBOLIC, FLAG_SYMBOLIC):
        info = font(base_font=name, subtype=subtype, flags=flags)
        assert decode(info, b"\x61", symbolic_truetype=True) is None


def test_composite_fonts_are_skipped():
    info = font(base_font="MS-Mincho", subtype="Type0", composite=True)
    assert decode(info, b"\x41") is None
    assert decode(info, b"\x00\x41") is None


def test_fonts_with_a_known_base_encoding_are_left_to_the_encoding_decoder():
    info = font(base_encoding="MacRomanEncoding")
    assert decode(info, b"\xad") is None  # undefined in PDF MacRoman; not Standard's guilsinglright
    assert decode(info, b"\x41") is None


def test_codes_in_differences_are_not_guessed():
    info = font(subtype="Type3", base_font="", differences={0x41: "g13"})
    assert decode(info, b"\x41") is None
    assert decode(info, b"\x42") == "B"


def test_unknown_subtype_gives_none():
    assert decode(font(subtype=""), b"\x41") is None


def test_multibyte_code_gives_none():
    assert decode(font(), b"\x00\x41") is None


def test_registration():
    assert StandardFallbackDecoder.NAME == "standard-fallback"
    assert issubclass(StandardFallbackDecoder, Decoder)
    assert standard_fallback.glyphweave_register_decoders() == [StandardFallbackDecoder]


def _full_verdict(outcomes: list[bool | None]) -> bool:
    """The shape check's verdict with every glyph looked at (up to CHECKED judged)."""
    judged = [o for o in outcomes if o is not None][:standard_fallback.CHECKED]
    return len(judged) < standard_fallback.MIN_CHECKED or 2 * sum(judged) >= len(judged)


@pytest.mark.parametrize(("outcomes", "looked_at"), [
    ([True] * 10, 5),                        # read right: decided after half of CHECKED agree
    ([False] * 10, 6),                       # more than half disagree: nothing can save it
    ([None, True, None, True, True, True, True, True], 7),
    ([False, True] * 5, 10),                 # undecided until the tenth
    ([True, True, False], None),             # too few to judge: every candidate looked at
])
def test_the_shape_check_stops_once_its_verdict_is_sure(monkeypatch, outcomes, looked_at):
    from glyphweave.glyphmap import fontshapes

    codes = [code for code in range(0x21, 0x100) if (standard_fallback.standard_text("StandardEncoding", code)
                                                     or "").isalnum()]
    answers = {code: (None if agrees is None else
                      standard_fallback.standard_text("StandardEncoding", code) if agrees else "#")
               for code, agrees in zip(codes, outcomes, strict=False)}
    asked = []

    def nearest_letter(info, code, cid):
        asked.append(code)
        return answers.get(code)

    monkeypatch.setattr(fontshapes, "nearest_letter", nearest_letter)
    info = font(embedded=True)
    assert standard_fallback._looks_right(info, "StandardEncoding") is _full_verdict(
        outcomes + [None] * (len(codes) - len(outcomes)))
    assert len(asked) == (len(codes) if looked_at is None else looked_at)
