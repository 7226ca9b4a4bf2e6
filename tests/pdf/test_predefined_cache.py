"""Predefined CMaps kept in the cache folder (glyphweave.pdf.predefined): what is read back
answers as the parsed CMap does, and a damaged or foreign file is parsed again, never used."""

from __future__ import annotations

import marshal
from pathlib import Path

import pytest

from glyphweave.pdf import predefined
from glyphweave.pdf.cmap import CMap, parse_cmap
from glyphweave.tables import cjk

pytestmark = pytest.mark.skipif(cjk.cjk_source() != "mirror" or cjk.cmap_path("GBK-EUC-H") is None,
                                reason="the CJK mirror is not installed as files")


def _state(cmap: CMap) -> dict[str, object]:
    return {**cmap.parts(), "split": (cmap._lengths, cmap._width, getattr(cmap, "_step", None))}


def _names() -> list[str]:
    folder = cjk.cmap_path("GBK-EUC-H").parent  # type: ignore[union-attr]
    return sorted(path.name[:-3] for path in folder.glob("*.gz"))


def test_every_mirrored_cmap_made_again_from_its_parts_is_the_parsed_one() -> None:
    for name in _names():
        parsed = parse_cmap(cjk.cmap_data(name), usecmap=predefined.predefined_cmap)  # type: ignore[arg-type]
        parts = marshal.loads(marshal.dumps(parsed.parts()))
        assert predefined._plain_parts(parts) == (not parts["bases"]), name
        again = CMap.from_parts(parts, predefined.predefined_cmap)
        assert _state(again) == _state(parsed), name
        codes = [bytes([a, b]) for a in (0x30, 0x81, 0xA1, 0xB0, 0xD7, 0xFE) for b in (0x40, 0x7E, 0xA1, 0xFE)]
        assert [again.to_cid(code) for code in codes] == [parsed.to_cid(code) for code in codes], name
        assert again.split(b"\x81\x40a\xa1\xa1") == parsed.split(b"\x81\x40a\xa1\xa1"), name


def test_a_cmap_parsed_once_is_read_back_by_the_next_process(cjk_cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    first = predefined.predefined_cmap("GBK-EUC-H")
    [path] = cjk_cache.iterdir()
    assert path.name.startswith("cmap-GBK-EUC-H-") and path.suffix == ".gwcm"
    predefined.clear_caches()  # as a new process: the parsing must not be asked
    monkeypatch.setattr(predefined, "parse_cmap", lambda *args, **kwargs: pytest.fail("parsed again"))
    second = predefined.predefined_cmap("GBK-EUC-H")
    assert second is not None and first is not None and second is not first
    assert _state(second) == _state(first)
    # A -V CMap takes its -H base by usecmap: parsed each time, never kept.
    monkeypatch.undo()
    vertical = predefined.predefined_cmap("GBK-EUC-V")
    assert vertical is not None and vertical.wmode == 1 and len(list(cjk_cache.iterdir())) == 1


@pytest.mark.parametrize("damage", ["cut", "magic", "foreign", "types"])
def test_a_damaged_or_foreign_file_is_parsed_again(cjk_cache: Path, damage: str) -> None:
    parsed = predefined.predefined_cmap("GBK-EUC-H")
    [path] = cjk_cache.iterdir()
    data = path.read_bytes()
    parts = marshal.loads(data[len(predefined.MAGIC):])
    if damage == "cut":
        path.write_bytes(data[: len(data) // 2])
    elif damage == "magic":
        path.write_bytes(b"GWCM\x00" + data[len(predefined.MAGIC):])
    elif damage == "foreign":
        path.write_bytes(predefined.MAGIC + marshal.dumps({"name": "x"}))
    else:
        parts["cid"][2][2][0] = ("cid", "0", 1)  # a code as a string
        path.write_bytes(predefined.MAGIC + marshal.dumps(parts))
    predefined.clear_caches()
    again = predefined.predefined_cmap("GBK-EUC-H")
    assert again is not None and parsed is not None and _state(again) == _state(parsed)
    assert predefined._read_kept(path) is not None  # written again whole


def test_an_unwritable_cache_folder_only_costs_the_parsing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocker = tmp_path / "file"
    blocker.write_bytes(b"")
    monkeypatch.setenv("GLYPHWEAVE_CACHE_DIR", str(blocker / "cache"))
    predefined.clear_caches()
    try:
        cmap = predefined.predefined_cmap("GBK-EUC-H")
        assert cmap is not None and cmap.to_cid(b"\x81\x40") is not None
    finally:
        predefined.clear_caches()
