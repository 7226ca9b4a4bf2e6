"""Adobe's predefined CMaps and CID → Unicode tables (glyphweave.tables.cjk)."""

from __future__ import annotations

import hashlib
import importlib.resources

import pytest

from glyphweave.pdf.predefined import predefined_cmap
from glyphweave.tables.cjk import (
    canonical_cjk,
    cid_to_unicode,
    cjk_source,
    unicode_cmap_codec,
)


def _cids(name: str, data: bytes) -> list[tuple[bytes, int | None]]:
    cmap = predefined_cmap(name)
    assert cmap is not None
    return [(code, cmap.to_cid(code)) for code in cmap.split(data)]


def test_mirror_serves() -> None:
    assert cjk_source() == "mirror"


def test_unijis_ucs2_h_splits_two_byte_codes() -> None:
    assert _cids("UniJIS-UCS2-H", "日本a".encode("utf-16-be")) == [
        (b"\x65\xe5", 3284),
        (b"\x67\x2c", 3722),
        (b"\x00\x61", 66),
    ]
    assert predefined_cmap("UniJIS-UCS2-H").wmode == 0


def test_90ms_rksj_h_mixed_widths() -> None:
    # half-width 'A', hiragana あ (0x82A0), 日 (0x93FA)
    assert _cids("90ms-RKSJ-H", b"A\x82\xa0\x93\xfa") == [
        (b"A", 264),
        (b"\x82\xa0", 843),
        (b"\x93\xfa", 3284),
    ]
    assert [cid_to_unicode("Japan1", cid) for cid in (264, 843, 3284)] == ["A", "あ", "日"]


def test_gbk_euc_h() -> None:
    pairs = _cids("GBK-EUC-H", b"a\xd6\xd0\xb9\xfa")
    assert pairs == [(b"a", 878), (b"\xd6\xd0", 4559), (b"\xb9\xfa", 1875)]
    assert [cid_to_unicode("GB1", cid) for _, cid in pairs] == ["a", "中", "国"]


def test_uhc_korean() -> None:
    pairs = _cids("KSCms-UHC-H", b"a\xc7\xd1")
    assert [cid_to_unicode("Korea1", cid) for _, cid in pairs] == ["a", "한"]


def test_usecmap_chain_and_vertical() -> None:
    horizontal = predefined_cmap("90ms-RKSJ-H")
    vertical = predefined_cmap("90ms-RKSJ-V")  # `/90ms-RKSJ-H usecmap` plus vertical forms
    assert vertical.wmode == 1 and horizontal.wmode == 0
    assert horizontal.to_cid(b"\x81\x41") == 634  # 、
    assert vertical.to_cid(b"\x81\x41") == 7887  # its vertical form
    assert vertical.to_cid(b"\x82\xa0") == 843  # from the -H base
    assert vertical.split(b"A\x82\xa0") == [b"A", b"\x82\xa0"]  # the base's codespace
    assert cid_to_unicode("Japan1", 7887) == "、"
    uni_v = predefined_cmap("UniJIS-UCS2-V")
    assert uni_v.wmode == 1 and uni_v.to_cid(b"\x65\xe5") == 3284
    assert predefined_cmap("ETen-B5-V").wmode == 1


def test_identity_and_unknown() -> None:
    assert predefined_cmap("Identity-H").to_cid(b"\x12\x34") == 0x1234
    assert predefined_cmap("Identity-V").wmode == 1
    assert predefined_cmap("No-Such-CMap") is None
    assert predefined_cmap("../PROVENANCE.tsv") is None
    assert predefined_cmap("UniJIS-UCS2-H") is predefined_cmap("UniJIS-UCS2-H")  # cached


@pytest.mark.parametrize(
    ("ordering", "cid", "text"),
    [
        ("Japan1", 1, " "),
        ("Japan1", 34, "A"),
        ("Japan1", 843, "あ"),
        ("Japan1", 1200, "一"),
        ("Adobe-Japan1", 3284, "日"),
        ("GB1", 4559, "中"),
        ("CNS1", 595, "一"),
        ("Korea1", 1, " "),
    ],
)
def test_cid_to_unicode(ordering: str, cid: int, text: str) -> None:
    assert cid_to_unicode(ordering, cid) == text


def test_cid_to_unicode_misses() -> None:
    assert cid_to_unicode("Japan1", 0) is None  # .notdef
    assert cid_to_unicode("Japan1", 10**6) is None
    assert cid_to_unicode("Identity", 5) is None
    # Adobe-Japan1 maps a glyph variant to ideograph + variation selector; canonical_cjk drops it
    assert cid_to_unicode("Japan1", 1133) == "逢\U000e0100"
    assert canonical_cjk(cid_to_unicode("Japan1", 1133)) == "逢"


@pytest.mark.parametrize(
    ("raw", "clean"),
    [
        ("\u2f00", "\u4e00"),  # KANGXI RADICAL ONE → 一
        ("\u2f08", "\u4eba"),  # KANGXI RADICAL MAN → 人
        ("\u2e9f", "\u6bcd"),  # CJK radicals supplement with a decomposition
        ("\uf900", "\u8c48"),  # compatibility ideograph → unified
        ("\ufa11", "\ufa11"),  # a unified ideograph in the compatibility block stays
        ("\ufe10", "\uff0c"),  # vertical comma → fullwidth comma
        ("\ufe11", "\u3001"),
        ("\ufe35", "\uff08"),
        ("\ufe19", "\u2026"),  # one step: an ellipsis, not three dots
        ("\ufe45", "\ufe45"),  # sesame dot: no horizontal form
        ("\u2002", " "),
        ("\u3000", "\u3000"),  # the ideographic space stays
        ("A", "A"),
        ("\ufffd", None),
        ("\ue000", None),
        ("", None),
        (None, None),
    ],
)
def test_canonical_cjk(raw: str | None, clean: str | None) -> None:
    assert canonical_cjk(raw) == clean


def test_unicode_cmap_codec() -> None:
    assert unicode_cmap_codec("UniJIS-UCS2-H") == "utf-16-be"
    assert unicode_cmap_codec("UniJIS-UCS2-HW-V") == "utf-16-be"
    assert unicode_cmap_codec("UniGB-UTF16-V") == "utf-16-be"
    assert unicode_cmap_codec("UniKS-UTF8-H") == "utf-8"
    assert unicode_cmap_codec("UniJIS2004-UTF32-H") == "utf-32-be"
    assert unicode_cmap_codec("90ms-RKSJ-H") is None
    assert unicode_cmap_codec(None) is None


def test_fallback_without_mirror(no_mirror) -> None:
    assert cjk_source() == "fallback"
    assert predefined_cmap("90ms-RKSJ-H") is None
    assert cid_to_unicode("Japan1", 843) is None
    assert predefined_cmap("Identity-V").wmode == 1
    ucs2 = predefined_cmap("UniJIS-UCS2-V")
    assert ucs2.wmode == 1 and ucs2.split("日本".encode("utf-16-be")) == [b"\x65\xe5", b"\x67\x2c"]
    assert ucs2.to_cid(b"\x65\xe5") is None  # CIDs unknown without the mirror
    utf16 = predefined_cmap("UniGB-UTF16-H")
    assert utf16.split("a\U00020000".encode("utf-16-be")) == [b"\x00a", b"\xd8\x40\xdc\x00"]
    utf8 = predefined_cmap("UniKS-UTF8-H")
    assert utf8.split("a한".encode()) == [b"a", "한".encode()]
    assert predefined_cmap("UniCNS-UTF32-H").code_lengths() == {4}


def _mirror():
    return importlib.resources.files("glyphweave.tables") / "resources" / "cjk"


def test_provenance_checksums_match() -> None:
    folder = _mirror()
    lines = (folder / "PROVENANCE.tsv").read_text(encoding="utf-8").splitlines()
    rows = [line.split("\t") for line in lines if not line.startswith("#")]
    header, rows = rows[0], rows[1:]
    assert header == ["file", "sha256", "bytes", "source_package", "source_version", "source_path", "licence"]
    listed = set()
    for name, sha, size, package, version, path, licence in rows:
        data = (folder / name).read_bytes()
        assert hashlib.sha256(data).hexdigest() == sha, name
        assert len(data) == int(size), name
        assert package and version and path and licence
        listed.add(name)
    shipped = {f"{sub.name}/{f.name}" for sub in folder.iterdir() if sub.is_dir() for f in sub.iterdir()}
    shipped |= {f.name for f in folder.iterdir() if f.is_file() and f.name != "PROVENANCE.tsv"}
    assert shipped == listed
    assert {f"cid2unicode/{o}.txt.gz" for o in ("GB1", "CNS1", "Japan1", "Korea1")} <= listed
    assert {
        "cmap/UniJIS-UCS2-H.gz",
        "cmap/90ms-RKSJ-V.gz",
        "cmap/GBK-EUC-H.gz",
        "cmap/KSCms-UHC-H.gz",
    } <= listed


@pytest.mark.parametrize("ordering", ["GB1", "CNS1", "Japan1", "Korea1"])
def test_every_cid_reads_as_its_line_of_the_table(ordering: str) -> None:
    # The table is kept as one string and where its lines end, not a string per line: each
    # CID must still give its own line's text, and none past the last line.
    from glyphweave.tables import cjk, loader

    data = loader.read_bytes("cjk", "cid2unicode", ordering + ".txt.gz")  # unpacked
    assert data is not None
    lines = data.decode("ascii").split("\n")
    lines = lines[next(i for i, line in enumerate(lines) if not line.startswith("#")):]
    for cid, line in enumerate(lines):
        expected = "".join(chr(int(part, 16)) for part in line.split()) or None
        assert cjk.cid_to_unicode(ordering, cid) == expected, cid
    assert cjk.cid_to_unicode(ordering, len(lines)) is None
    assert cjk.cid_to_unicode(ordering, -1) is None
