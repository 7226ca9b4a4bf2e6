"""The ``cid-collection`` decoder: Adobe CJK collections and Unicode CMaps."""

from __future__ import annotations

import pytest

from glyphweave.components.manager import create_plugin_manager
from glyphweave.core.fontinfo import FontInfo
from glyphweave.plugins.decoders import cid_collection
from glyphweave.plugins.decoders.cid_collection import CidCollectionDecoder
from glyphweave.tables import cjk


def _font(cmap: str | None, ordering: str | None = "Japan1", composite: bool = True) -> FontInfo:
    return FontInfo(
        key=(1, 0),
        base_font="Test",
        subtype="Type0" if composite else "TrueType",
        composite=composite,
        encoding_cmap_name=cmap,
        cid_system_info=("Adobe", ordering, 6) if ordering else None,
    )


@pytest.fixture
def dec() -> CidCollectionDecoder:
    return CidCollectionDecoder()


def test_registered_by_hook() -> None:
    pm = create_plugin_manager(load_entrypoints=False, plugins=[cid_collection])
    found = [c for group in pm.hook.glyphweave_register_decoders() for c in group]
    assert CidCollectionDecoder in found
    assert CidCollectionDecoder.NAME == "cid-collection"


def test_cid_route(dec: CidCollectionDecoder) -> None:
    font = _font("90ms-RKSJ-H")
    assert dec.decode(font, b"\x82\xa0", 843) == "あ"
    assert dec.decode(font, b"A", 264) == "A"
    assert dec.decode(font, b" ", 231) == " "  # Adobe says U+2002 EN SPACE
    assert dec.decode(_font("GBK-EUC-V", "GB1"), b"\xd6\xd0", 4559) == "中"
    assert dec.decode(_font("Identity-H", "Korea1"), b"\x00\x01", 1) == " "
    assert dec.decode(font, b"\x00\x00", 0) is None


def test_variation_selector_dropped(dec: CidCollectionDecoder) -> None:
    assert dec.decode(_font("Identity-H"), b"\x04\x6d", 1133) == "逢"


def test_not_ours(dec: CidCollectionDecoder) -> None:
    assert dec.decode(_font(None, None, composite=False), b"A", None) is None
    assert dec.decode(_font("Identity-H", "Identity"), b"\x03\x4b", 843) is None
    assert dec.decode(_font("Identity-H", "Japan1"), b"\x00\x01", None) is None


def test_unicode_cmap_code_route(dec: CidCollectionDecoder) -> None:
    # No usable CID (an unknown collection): the code of a Unicode CMap is the text.
    font = _font("UniJIS-UCS2-H", "Identity")
    assert dec.decode(font, "日".encode("utf-16-be"), 0) == "日"
    assert dec.decode(_font("UniGB-UTF16-H", None), "\U00020000".encode("utf-16-be"), None) == "\U00020000"
    assert dec.decode(_font("UniKS-UTF8-H", None), "한".encode(), None) == "한"
    assert dec.decode(_font("UniCNS-UTF32-V", None), "一".encode("utf-32-be"), None) == "一"
    assert dec.decode(font, b"\xd8\x00", 0) is None  # a lone surrogate
    assert dec.decode(font, b"\x00\x07", 0) is None  # a control character
    assert dec.decode(font, b"\xe0\x00", 0) is None  # Private Use Area: no answer


def test_kangxi_normalised(dec: CidCollectionDecoder) -> None:
    font = _font("UniJIS-UCS2-H", "Identity")
    assert dec.decode(font, b"\x2f\x00", 0) == "\u4e00"  # KANGXI RADICAL ONE → 一
    assert dec.decode(font, b"\xf9\x00", 0) == "\u8c48"  # compatibility ideograph → unified
    assert dec.decode(font, b"\xfe\x35", 0) == "\uff08"  # vertical parenthesis → （


def test_fallback_without_mirror(dec: CidCollectionDecoder, no_mirror: None) -> None:
    assert cjk.cjk_source() == "fallback"
    assert dec.decode(_font("90ms-RKSJ-H"), b"\x82\xa0", 843) is None
    assert dec.decode(_font("UniJIS-UCS2-H"), "あ".encode("utf-16-be"), None) == "あ"
