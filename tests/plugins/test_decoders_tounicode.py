"""The ``tounicode`` decoder."""

from __future__ import annotations

from glyphweave.core.fontinfo import FontInfo
from glyphweave.core.stages import Decoder
from glyphweave.plugins.decoders import tounicode
from glyphweave.plugins.decoders.tounicode import ToUnicodeDecoder


class FakeCMap:
    """Stands in for core.cmap.CMap: only ``to_unicode`` is used."""

    def __init__(self, mapping: dict[bytes, str]) -> None:
        self.mapping = mapping
        self.calls: list[bytes] = []

    def to_unicode(self, code: bytes) -> str | None:
        self.calls.append(code)
        return self.mapping.get(code)


class FakeFont:
    """The one FontInfo field this decoder reads."""

    def __init__(self, cmap: FakeCMap | None, composite: bool = False) -> None:
        self.to_unicode = cmap
        self.composite = composite


def font_with(cmap: FakeCMap | None, composite: bool = False) -> FontInfo:
    return FakeFont(cmap, composite)  # type: ignore[return-value]


def test_answers_from_the_cmap():
    cmap = FakeCMap({b"\x41": "A", b"\x00\x03": "\U0001f600", b"\x10": "ffi"})
    font = font_with(cmap)
    decoder = ToUnicodeDecoder()
    assert decoder.decode(font, b"\x41", None) == "A"
    assert decoder.decode(font, b"\x10", None) == "ffi"
    assert decoder.decode(font, b"\x00\x03", 3) == "\U0001f600"
    assert cmap.calls == [b"\x41", b"\x10", b"\x00\x03"]


def test_composite_codes_are_passed_whole():
    cmap = FakeCMap({b"\x00\x41": "\u6f22"})
    font = font_with(cmap, composite=True)
    assert ToUnicodeDecoder().decode(font, b"\x00\x41", 0x41) == "\u6f22"


def test_unmapped_code_gives_none():
    assert ToUnicodeDecoder().decode(font_with(FakeCMap({})), b"\x41", None) is None


def test_empty_mapping_gives_none():
    assert ToUnicodeDecoder().decode(font_with(FakeCMap({b"\x41": ""})), b"\x41", None) is None


def test_font_without_tounicode_gives_none():
    assert ToUnicodeDecoder().decode(font_with(None), b"\x41", None) is None


def test_with_a_real_fontinfo():
    cmap = FakeCMap({b"\x41": "A"})
    info = FontInfo(key=(1, 0), base_font="Helvetica", subtype="Type1", to_unicode_loader=lambda: cmap)
    assert ToUnicodeDecoder().decode(info, b"\x41", None) == "A"
    assert ToUnicodeDecoder().decode(FontInfo(key=(2, 0), base_font="Helvetica"), b"\x41", None) is None


def test_weak_answers_are_returned_as_they_are():
    # PUA answers are the core's to weigh, not this decoder's to drop.
    font = font_with(FakeCMap({b"\x41": "\uf041"}))
    assert ToUnicodeDecoder().decode(font, b"\x41", None) == "\uf041"


def test_registration():
    assert ToUnicodeDecoder.NAME == "tounicode"
    assert issubclass(ToUnicodeDecoder, Decoder)
    assert tounicode.glyphweave_register_decoders() == [ToUnicodeDecoder]
    assert ToUnicodeDecoder.summary()
