"""The test kit itself: the builder's text matrix, the FontInfo factory, the one-call extract."""

from __future__ import annotations

import pytest

from glyphweave.core.errors import ComponentError
from glyphweave.plugin import Decoder, Filter
from glyphweave.testing import extract_text, font_info, make_plugin
from glyphweave.testing.pdfs import make_pdf, text_at


def test_text_at_places_and_scales_text():
    pdf = make_pdf(text_at("big", 100, 600, size=1, matrix=(24, 0, 0, 24)) + b"\n" + text_at("small", 100, 500))
    assert extract_text(pdf, separator="") == "big\nsmall\n"


def test_font_info_splits_the_subset_tag_and_stands_in_for_a_tounicode_cmap():
    info = font_info("ABCDEF+SymbolMT", subtype="TrueType", to_unicode={b"\x01": "\uf0b7"}, flags=4)
    assert (info.base_font, info.subset_prefix, info.subtype, info.symbolic) == ("SymbolMT", "ABCDEF", "TrueType", True)
    assert info.to_unicode is not None and info.to_unicode.to_unicode(b"\x01") == "\uf0b7"
    assert font_info().to_unicode is None and font_info().font_file() is None


def test_a_builtin_decoder_called_directly_with_the_factory():
    from glyphweave.plugins.decoders.symbol_fonts import SymbolDecoder

    info = font_info("ABCDEF+SymbolMT", subtype="TrueType", to_unicode={b"\x01": "\uf0b7"})
    assert SymbolDecoder().decode(info, b"\x01", None) == "\u2022"  # Word's U+F0B7 is the bullet


class Upper(Decoder):
    """Every code as its upper-case Latin-1 letter."""

    NAME = "upper"

    def decode(self, font, code, cid):  # type: ignore[no-untyped-def]
        return code.decode("latin-1").upper()


def test_extract_text_with_a_plugin_and_a_profile(tmp_path):
    profile = tmp_path / "up.toml"
    profile.write_text('[profile]\nextends = "default"\ndecoders = ["upper", "..."]\n')
    plugin = make_plugin(decoders=[Upper], name="upper")
    pdf = make_pdf(text_at("shout"))
    assert extract_text(pdf, plugins=[plugin], profile=str(profile)) == "SHOUT\n\f"


class Broken(Filter):
    """Always raises."""

    NAME = "broken"

    def apply(self, page, indices):  # type: ignore[no-untyped-def]
        raise RuntimeError("nope")


def test_extract_text_shows_a_failure_as_a_user_would(tmp_path):
    profile = tmp_path / "b.toml"
    profile.write_text('[profile]\nextends = "default"\nfilters = ["broken"]\n')
    with pytest.raises(ComponentError, match=r"^page 1: filter 'broken' of plugin 'kit' \(not installed\) failed"):
        extract_text(make_pdf(text_at("x")), plugins=[make_plugin(filters=[Broken], name="kit")], profile=str(profile))
