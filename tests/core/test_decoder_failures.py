"""A failing decoder is one warning per (decoder, exception type), with a count, not one per code."""

from __future__ import annotations

from glyphweave.core.decoding import DecoderChain
from glyphweave.core.stages import Decoder
from glyphweave.guard.report import WarningRecord
from glyphweave.testing.factories import font_info


class Picky(Decoder):
    """Raises a different message for every code: the old key (decoder, message) listed each."""

    NAME = "picky"

    def decode(self, font, code, cid):  # type: ignore[no-untyped-def]
        if code == b"!":
            raise KeyError("bang")
        if code.isdigit():
            return 42
        raise ValueError(f"no glyph for {code!r} in {font.base_font}")


class Latin(Decoder):
    NAME = "latin"

    def decode(self, font, code, cid):  # type: ignore[no-untyped-def]
        return code.decode("latin-1")


def test_one_line_per_decoder_and_exception_type_with_a_count() -> None:
    chain = DecoderChain([Picky(), Latin()])
    f1, f2 = chain.table_for(font_info("F1")), chain.table_for(font_info("F2"))
    for code in b"ABCDEFGHIJ":
        assert f1[code] == (chr(code), "latin")  # the next decoder still answers
    first_page = chain.take_failures()
    assert [(w.kind, w.source, w.message) for w in first_page] == [
        ("component", "picky", "decoder 'picky' raised ValueError (first: font 'F1', code 0x41: no glyph for b'A' in F1)")]
    for code in b"KLMNO!12":
        f2[code]
    second_page = chain.take_failures()
    assert [w.message for w in second_page] == [
        "decoder 'picky' raised KeyError (first: font 'F2', code 0x21: 'bang')",
        "decoder 'picky' returned int instead of str or None (first: font 'F2', code 0x31: 42)",
    ]
    reported = [w.on_page(1) for w in first_page] + [w.on_page(2) for w in second_page]
    elsewhere = WarningRecord(kind="component", message="something another process reported", page=3, source="x")
    assert [str(chain.with_count(w)) for w in [*reported, elsewhere]] == [
        "page 1: decoder 'picky' raised ValueError 15 times (first: font 'F1', code 0x41: no glyph for b'A' in F1)",
        "page 2: decoder 'picky' raised KeyError (first: font 'F2', code 0x21: 'bang')",
        "page 2: decoder 'picky' returned int instead of str or None 2 times (first: font 'F2', code 0x31: 42)",
        "page 3: something another process reported",
    ]
    assert chain.take_failures() == []
