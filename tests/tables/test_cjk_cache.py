"""The CID tables kept in the cache folder (glyphweave.tables.cjk): read back, a table answers
every CID as the mirror's does; a damaged file is built again, never used."""

from __future__ import annotations

from pathlib import Path

import pytest

from glyphweave.tables import cjk, loader

pytestmark = pytest.mark.skipif(cjk.cjk_source() != "mirror" or loader.file_path("cjk", "PROVENANCE.tsv") is None,
                                reason="the CJK mirror is not installed as files")


def _lines(ordering: str) -> list[bytes]:
    """The table's lines as the mirror's file has them, its header left out."""
    data = loader.read_bytes("cjk", "cid2unicode", ordering + ".txt.gz")
    assert data is not None
    return [line for line in data.split(b"\n") if not line.startswith(b"#")]


@pytest.mark.parametrize("ordering", cjk.ORDERINGS)
def test_a_table_read_back_gives_every_line_of_the_mirror(cjk_cache: Path, ordering: str) -> None:
    built = cjk._cid_table(ordering)
    [path] = cjk_cache.iterdir()
    assert path.name.startswith(f"cid2unicode-{ordering}-") and path.suffix == ".gwct"
    cjk.clear_caches()
    read = cjk._read_table(path)
    assert read is not None and built is not None
    assert read[0] == built[0] and list(read[1]) == list(built[1])
    text, ends = read
    assert [text[ends[n] + n: ends[n + 1] + n] for n in range(len(ends) - 1)] == _lines(ordering)
    assert cjk.cid_to_unicode(ordering, 1) == " "


@pytest.mark.parametrize("damage", ["cut", "order", "ends", "count"])
def test_a_damaged_table_file_is_built_again(cjk_cache: Path, damage: str) -> None:
    expected = cjk.cid_to_unicode("GB1", 4000)
    [path] = cjk_cache.iterdir()
    data = bytearray(path.read_bytes())
    head = len(cjk.TABLE_MAGIC) + 5
    if damage == "cut":
        del data[-10:]
    elif damage == "order":
        data[len(cjk.TABLE_MAGIC)] = ord("B") if data[len(cjk.TABLE_MAGIC)] == ord("L") else ord("L")
    elif damage == "ends":
        data[head + 4 * 100: head + 4 * 101] = (10**6).to_bytes(4, "little")  # a line ending past the next
    else:
        data[len(cjk.TABLE_MAGIC) + 1: head] = (10**7).to_bytes(4, "little")
    path.write_bytes(bytes(data))
    assert cjk._read_table(path) is None
    cjk.clear_caches()
    assert cjk.cid_to_unicode("GB1", 4000) == expected
    assert cjk._read_table(path) is not None  # written again whole
