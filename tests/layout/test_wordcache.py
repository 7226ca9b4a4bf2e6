"""The word-list cache (glyphweave.layout.wordcache): the packed list answers as the
in-memory table does, is written once and read back, and a cache that cannot be written or
read is no error."""

from __future__ import annotations

import marshal
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from glyphweave import cachefiles
from glyphweave.layout import wordcache
from glyphweave.layout.wordcache import TABLE_MAGIC, cached_list, cached_table, zipf

BUCKETS = [["the"], [], ["house", "maison"], ["häuser", "日本"], ["rare", "house"]]


def table(buckets: list[list[str]]) -> dict[str, float]:
    out: dict[str, float] = {}
    for index, bucket in enumerate(buckets):
        out.update(dict.fromkeys(bucket, zipf(index)))
    return out


def test_the_packed_list_answers_as_the_table(source: Path):
    packed = cached_list("test-xx", source, BUCKETS)
    expected = table(BUCKETS)
    for word in ["the", "house", "maison", "häuser", "日本", "rare", "absent", "", "hous", "housez"]:
        assert packed.get(word) == expected.get(word, 0.0), word
    assert packed.get("house") == zipf(4)  # met again in a later bucket: the last one counts, as in the table


def test_the_packed_list_answers_again_as_the_first_time(source: Path, monkeypatch: pytest.MonkeyPatch):
    packed = cached_list("test-xx", source, BUCKETS)
    expected = table(BUCKETS)
    words = ["the", "absent", "house", "日本", "absent", "the", "rare", "hous"]
    for _round in range(3):  # the second and third rounds are answered from what the first found
        for word in words:
            assert packed.get(word) == expected.get(word, 0.0), word
            assert packed.get(word, -1.0) == expected.get(word, -1.0), word  # each caller's default
    searched: list[str] = []
    search = wordcache.PackedList._search

    def counting(self: wordcache.PackedList, word: str) -> float | None:
        searched.append(word)
        return search(self, word)

    monkeypatch.setattr(wordcache.PackedList, "_search", counting)
    for word in words:
        packed.get(word)
    assert searched == []  # every one of them was found (or not) before
    fresh = cached_list("test-xx", source, BUCKETS)
    monkeypatch.setattr(wordcache, "_REMEMBERED", 2)
    for word in ["the", "house", "the", "rare", "the"]:
        assert fresh.get(word) == expected.get(word, 0.0)
    assert searched == ["the", "house", "rare", "the"]  # bounded: full, it starts afresh
    assert len(fresh._found) <= 2


@settings(max_examples=300, deadline=None)
@given(st.lists(st.lists(st.text(alphabet=st.characters(min_codepoint=0, max_codepoint=0x10FFFF), max_size=6),
                         max_size=8), max_size=6))
def test_words_are_packed_in_the_order_of_their_utf8_bytes(buckets: list[list[str]]):
    # The packer sorts the words themselves (code point order) and relies on UTF-8 keeping
    # that order, lone surrogates included; the search compares bytes.
    blob, offsets, codes = wordcache._pack(buckets)
    last = {word: index for index, bucket in enumerate(buckets) for word in bucket}
    expected = sorted((word.encode("utf-8", "surrogatepass"), index) for word, index in last.items())
    assert [blob[offsets[i]:offsets[i + 1]] for i in range(len(codes))] == [encoded for encoded, _ in expected]
    assert list(codes) == [index for _, index in expected] and offsets[-1] == len(blob)
    packed = wordcache.PackedList(blob, offsets, codes)
    for word, index in last.items():
        assert packed.get(word) == zipf(index)


def test_written_once_and_read_back(source: Path):
    cached_list("test-xx", source, BUCKETS)
    files = list((source.parent / "cache").iterdir())
    assert len(files) == 1 and files[0].suffix == ".gwwf"
    again = cached_list("test-xx", source)  # no buckets: read from the cache alone
    assert again is not None and again.get("maison") == zipf(2)
    expected = table(BUCKETS)
    for word in ["the", "house", "maison", "häuser", "日本", "rare", "absent", "", "hous", "housez", "\udc80"]:
        assert again.get(word) == expected.get(word, 0.0), word


def test_the_cache_file_is_mapped_not_read(source: Path):
    # Mapping the 4 MB English list costs 0.05 ms; reading it cost 6-9 ms per process.
    import mmap

    cached_list("test-xx", source, BUCKETS)
    mapped = cached_list("test-xx", source)
    assert mapped is not None and isinstance(mapped._blob, mmap.mmap)


@pytest.mark.parametrize("damage", [b"", b"GWWF\x01", b"not a cache at all", None])
def test_a_damaged_cache_is_built_again(source: Path, damage: bytes | None):
    cached_list("test-xx", source, BUCKETS)
    [path] = (source.parent / "cache").iterdir()
    path.write_bytes(path.read_bytes()[:-3] if damage is None else damage)
    assert cached_list("test-xx", source) is None
    rebuilt = cached_list("test-xx", source, BUCKETS)
    assert rebuilt is not None and rebuilt.get("rare") == zipf(4)
    assert cached_list("test-xx", source) is not None  # written again, whole


def test_a_cache_that_cannot_be_written_is_no_error(source: Path, monkeypatch: pytest.MonkeyPatch):
    blocker = source.parent / "a-file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("GLYPHWEAVE_CACHE_DIR", str(blocker / "cache"))
    packed = cached_list("test-xx", source, BUCKETS)
    assert packed is not None and packed.get("the") == zipf(0)
    assert not (blocker / "cache").exists()


# --------------------------------------------------------------------------- the small list: a dictionary
class Builder:
    """Stands for reading wordfreq's file: counts its calls."""

    def __init__(self, table: dict[str, float] | None) -> None:
        self.table = table
        self.calls = 0

    def __call__(self) -> dict[str, float] | None:
        self.calls += 1
        return self.table


def test_the_table_is_built_once_then_read_from_the_cache(source: Path):
    build = Builder(table(BUCKETS))
    assert cached_table("test-xx", source, build) == table(BUCKETS)
    [path] = (source.parent / "cache").iterdir()
    assert path.suffix == ".gwwt" and path.read_bytes().startswith(TABLE_MAGIC)
    assert cached_table("test-xx", source, build) == table(BUCKETS)
    assert build.calls == 1


@pytest.mark.parametrize("damage", [
    b"", TABLE_MAGIC, b"not a cache at all", TABLE_MAGIC + b"\xff\x00",
    TABLE_MAGIC + marshal.dumps(["a", "list"]), TABLE_MAGIC + marshal.dumps({"word": "not a number"}),
    TABLE_MAGIC + marshal.dumps({1: 2.0}), None,
])
def test_a_damaged_table_is_built_again(source: Path, damage: bytes | None):
    build = Builder(table(BUCKETS))
    cached_table("test-xx", source, build)
    [path] = (source.parent / "cache").iterdir()
    path.write_bytes(path.read_bytes()[:-3] if damage is None else damage)
    assert cached_table("test-xx", source, build) == table(BUCKETS)
    assert build.calls == 2
    assert cached_table("test-xx", source, build) == table(BUCKETS)  # written again, whole
    assert build.calls == 2


def test_a_table_that_cannot_be_built_or_written_is_no_error(source: Path, monkeypatch: pytest.MonkeyPatch):
    assert cached_table("test-xx", source, Builder(None)) is None
    assert not (source.parent / "cache").exists()  # nothing to keep
    blocker = source.parent / "a-file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("GLYPHWEAVE_CACHE_DIR", str(blocker / "cache"))
    assert cached_table("test-xx", source, Builder(table(BUCKETS))) == table(BUCKETS)


def test_the_default_folder_follows_xdg(monkeypatch: pytest.MonkeyPatch, tmp_path: Path):
    monkeypatch.delenv("GLYPHWEAVE_CACHE_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert cachefiles.cache_dir() == tmp_path / "glyphweave"


@pytest.fixture
def fresh_lists(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    """glyphweave.layout.hyphens with no list read yet in this process, caching in ``tmp_path``."""
    pytest.importorskip("wordfreq")
    from glyphweave.layout import hyphens

    monkeypatch.setenv("GLYPHWEAVE_CACHE_DIR", str(tmp_path))
    hyphens._frequencies.cache_clear()
    try:
        yield hyphens
    finally:
        hyphens._frequencies.cache_clear()


def test_the_english_list_comes_from_the_cache_with_the_same_answers(fresh_lists: Any, tmp_path: Path):
    built = fresh_lists._frequencies("en")
    assert list(tmp_path.glob("wordfreq-large_en-*.gwwf"))
    fresh_lists._frequencies.cache_clear()
    read = fresh_lists._frequencies("en")
    pack = fresh_lists._read_pack("en")
    assert pack is not None
    expected = table(pack)
    for word in ["because", "municipal", "twentyfour", "glaciologist", "nicipal", "carbon", "arc"]:
        assert built.get(word, 0.0) == read.get(word, 0.0) == expected.get(word, 0.0), word


def test_the_small_english_list_comes_from_the_cache_with_the_same_answers(fresh_lists: Any, tmp_path: Path):
    built = fresh_lists._frequencies("en", "small")
    fresh_lists._frequencies.cache_clear()
    read = fresh_lists._frequencies("en", "small")
    pack = fresh_lists._read_pack("en", "small")
    assert pack is not None
    expected = table(pack)
    if not wordcache.hashed_native():  # the pure build: the dictionary itself
        assert list(tmp_path.glob("wordfreq-small_en-*.gwwt"))
        assert isinstance(read, dict) and read == built == expected
        return
    # The compiled build: a hash table looked up in C, with the dictionary's answers.
    assert list(tmp_path.glob("wordfreq-small_en-*.gwwh")) and not list(tmp_path.glob("*.gwwt"))
    assert isinstance(read, wordcache.HashedList) and isinstance(built, wordcache.HashedList)
    words = list(expected)
    assert [read.get(word, 0.0) for word in words] == [built.get(word, 0.0) for word in words] == \
        [expected[word] for word in words]
    others = ["", "Because", "becausee", "glaciologist", "日本語", "\ud800x", *(word + "s" for word in words[:2000])]
    assert [read.get(word, -1.0) for word in others] == [expected.get(word, -1.0) for word in others]
    assert read.count(words + others) == sum(word in expected for word in words + others)
    assert read.lowest() == min(expected.values())
    language = fresh_lists.WordList("en")
    assert language.floor == min(expected.values())
    assert language.count_frequent(others + words[:500]) == sum(word in expected for word in others + words[:500])


def test_older_cache_files_of_a_list_are_pruned_past_the_newest_few(source: Path):
    # Each install of wordfreq names its own cache file (its data file's size and time):
    # without pruning, every new environment would leave another 4 MB behind.
    import os

    folder = source.parent / "cache"
    folder.mkdir()
    for age in range(6):  # older installs' files of this list, and of another list
        for name in (f"test-xx-100-{age}.gwwf", f"other-xx-100-{age}.gwwf", f"test-xx-100-{age}-py311m4.gwwt"):
            (folder / name).write_bytes(b"an older install's cache")
            os.utime(folder / name, (1_000_000 + age, 1_000_000 + age))
    assert cached_list("test-xx", source, BUCKETS) is not None
    kept = sorted(path.name for path in folder.iterdir() if path.name.startswith("test-xx") and path.suffix == ".gwwf")
    assert len(kept) == cachefiles.KEEP
    assert "test-xx-100-5.gwwf" in kept and "test-xx-100-0.gwwf" not in kept  # the newest stay
    assert any(name not in {f"test-xx-100-{age}.gwwf" for age in range(6)} for name in kept)  # the one just written
    assert len(list(folder.glob("other-xx-*"))) == 6  # another list's files are not this list's business
    assert len(list(folder.glob("test-xx-*.gwwt"))) == 6  # nor are its tables
