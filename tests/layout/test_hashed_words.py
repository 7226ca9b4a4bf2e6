"""The small word list as a hash table (glyphweave.layout.wordcache.HashedList) and the word
lists' look-ups in C (glyphweave.layout._cwords): the table answers as the dictionary, is
written once and mapped back, and the C look-ups give the references' answers, on damaged
tables too."""

from __future__ import annotations

import mmap
import zlib
from array import array
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from glyphweave.layout import wordcache
from glyphweave.layout.wordcache import HashedList, cached_hashed, hashed_index, packed_index, zipf

BUCKETS = [["the"], [], ["house", "maison", ""], ["häuser", "日本", "\ud800x"], ["rare", "house"]]
WORDS = st.text(alphabet=st.characters(min_codepoint=0, max_codepoint=0x10FFFF), max_size=8)


def table(buckets: list[list[str]]) -> dict[str, float]:
    out: dict[str, float] = {}
    for index, bucket in enumerate(buckets):
        out.update(dict.fromkeys(bucket, zipf(index)))
    return out


def _native() -> Any:
    return pytest.importorskip("glyphweave.layout._cwords", reason="the compiled build's look-ups")


def _reference(hashed: HashedList) -> HashedList:
    """The same table, looked up by the reference."""
    plain = HashedList(hashed._blob, hashed._slots, hashed._offsets, hashed._buckets, hashed._base)
    plain._native = None
    return plain


def test_the_table_answers_as_the_dictionary(source: Path):
    hashed = cached_hashed("test-xx", source, BUCKETS)
    assert hashed is not None
    expected = table(BUCKETS)
    asked = [*expected, "absent", "hous", "housez", "Häuser", "\ud801", "日"]
    for lookup in (hashed, _reference(hashed)):
        assert [lookup.get(word, -1.0) for word in asked] == [expected.get(word, -1.0) for word in asked]
        assert lookup.get("house") == zipf(4)  # met again in a later bucket: the last one counts
        assert lookup.count(asked) == len(expected)
        assert ("rare" in lookup, "absent" in lookup) == (True, False)
        assert lookup.lowest() == min(expected.values())


def test_written_once_then_mapped_back(source: Path):
    cached_hashed("test-xx", source, BUCKETS)
    [path] = (source.parent / "cache").iterdir()
    assert path.suffix == ".gwwh"
    read = cached_hashed("test-xx", source)  # no buckets: the file alone answers
    assert read is not None and read.size == len(table(BUCKETS))
    assert read.get("maison") == zipf(2) and read.get("x") == 0.0
    assert read._highest == 4 and read.lowest() == min(table(BUCKETS).values())  # from the header
    assert isinstance(read._blob, mmap.mmap)


@pytest.mark.parametrize("cut", [0, 3, 16, 40, -1])
def test_a_damaged_file_reads_as_missing_and_is_written_again(source: Path, cut: int):
    cached_hashed("test-xx", source, BUCKETS)
    [path] = (source.parent / "cache").iterdir()
    data = path.read_bytes()
    path.write_bytes(data[:cut] if cut >= 0 else data[:-1])
    assert cached_hashed("test-xx", source) is None
    again = cached_hashed("test-xx", source, BUCKETS)
    assert again is not None and again.get("the") == zipf(0)
    assert cached_hashed("test-xx", source) is not None


def test_a_table_with_another_slot_count_is_refused(source: Path):
    cached_hashed("test-xx", source, BUCKETS)
    [path] = (source.parent / "cache").iterdir()
    data = bytearray(path.read_bytes())
    data[12:16] = (24).to_bytes(4, "little")  # not a power of two
    path.write_bytes(bytes(data))
    assert cached_hashed("test-xx", source) is None


@settings(max_examples=200, deadline=None)
@given(st.lists(st.lists(WORDS, max_size=10), max_size=6), st.lists(WORDS, max_size=12))
def test_the_c_lookups_give_the_references_answers(buckets: list[list[str]], asked: list[str]):
    native = _native()
    blob, offsets, codes = wordcache._pack(buckets)
    slots = wordcache._hash_slots(blob, offsets)
    hashed = HashedList(blob, slots, offsets, codes)
    known = table(buckets)
    words = [*known, *asked]
    assert [hashed.index(word) for word in words] == [hashed_index(word, blob, slots, offsets, 0) for word in words]
    assert [hashed.get(word, -1.0) for word in words] == [known.get(word, -1.0) for word in words]
    assert hashed.count(words) == sum(word in known for word in words)
    for word in words:
        key = word.encode("utf-8", "surrogatepass")
        assert native.packed_index(key, blob, offsets, 0, len(codes)) == packed_index(key, blob, offsets, 0, len(codes))
        assert native.crc32(key) == zlib.crc32(key)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 40), min_size=1, max_size=16), st.lists(st.integers(0, 60), min_size=1, max_size=12),
       st.binary(max_size=40), st.lists(st.binary(max_size=5), max_size=8), st.integers(0, 8))
def test_damaged_tables_answer_as_the_reference_and_never_read_past_the_buffers(
        slots: list[int], offsets: list[int], blob: bytes, keys: list[bytes], base: int):
    # Slots naming no word, offsets out of order or past the end, a table with no empty slot:
    # wrong answers at worst, the reference's, and no read out of bounds.
    native = _native()
    size = 1
    while size < len(slots):
        size *= 2
    slot_array = array("I", slots + [slots[0]] * (size - len(slots)))  # full when slots[0] is not 0
    offset_array = array("I", offsets)
    lookup = native.HashedWords(blob, slot_array, offset_array, base)
    for key in keys:
        word = key.decode("latin-1")
        encoded = word.encode("utf-8", "surrogatepass")
        assert lookup.index(word) == hashed_index(word, blob, slot_array, offset_array, base)
        words = len(offsets) - 1
        assert native.packed_index(encoded, blob, offset_array, base, words) == \
            packed_index(encoded, blob, offset_array, base, words)


def test_the_c_table_refuses_what_it_cannot_probe():
    native = _native()
    with pytest.raises(ValueError):
        native.HashedWords(b"", array("I", [0, 0, 0]), array("I", [0]), 0)  # three slots
    with pytest.raises(ValueError):
        native.packed_index(b"a", b"", array("I", [0]), 0, 1)  # a word with no end offset
    lookup = native.HashedWords(b"", array("I", [0] * 4), array("I", [0]), 0)
    with pytest.raises(TypeError):
        lookup.count(["a", 3])


def test_a_cache_that_cannot_be_written_is_no_error(source: Path, monkeypatch: pytest.MonkeyPatch):
    blocker = source.parent / "a-file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("GLYPHWEAVE_CACHE_DIR", str(blocker / "cache"))
    hashed = cached_hashed("test-xx", source, BUCKETS)  # kept in memory, answered all the same
    assert hashed is not None and hashed.get("maison") == zipf(2) and hashed.count(["the", "x"]) == 1
    assert cached_hashed("test-xx", source) is None  # nothing was written to read back
    assert cached_hashed("test-xx", source.parent / "missing.msgpack.gz", BUCKETS) is None  # no source: no key
