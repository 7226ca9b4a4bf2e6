"""A word list's frequencies kept on disk in a form that loads in milliseconds.

wordfreq's large English list is 321,000 words in a gzipped msgpack file: reading it and
hashing every word into a dictionary takes a quarter of a second, which a process
extracting one paper pays whole for its first split word. The first process to need a list
writes it, once per machine and wordfreq version, as one sorted file: the words' UTF-8
bytes end to end, their offsets, and each word's frequency bucket. Later processes map
the file into memory and read the three parts where they lie (no object per word, no copy)
and find a word by binary search, about twenty comparisons: the load costs a twentieth of a
millisecond and a look-up a few microseconds, and the answers are the dictionary's.

The files live in the machine's cache folder (:mod:`glyphweave.cachefiles`: where it is, how
files are named, written and pruned). A folder that cannot be written, or a file that does not
read back exactly (another byte order, a truncated write), is no error: the list is then built
in memory, as without a cache.

The small list (30,000 words) is asked for every word of a page. Reading it from wordfreq's
file costs about 20 ms a process (inflating, unpacking, hashing), which a process extracting
one short document pays on its first split word. The pure build keeps it as the dictionary
itself in :mod:`marshal`'s format (:func:`cached_table`): read back in about a quarter of
that, and never code, only strings and numbers (anything else is built again). The compiled
build keeps it as a hash table (:func:`cached_hashed`, :class:`HashedList`): the packed list's
parts and an array of slots, mapped like the large list and looked up in C
(:mod:`glyphweave.layout._cwords`), so that making the dictionary (5 ms) is not paid at all.
"""

from __future__ import annotations

import marshal
import math
import zlib
from array import array
from collections.abc import Callable, Iterable, Sequence
from functools import partial
from pathlib import Path
from typing import Any

from glyphweave.cachefiles import (
    byte_order,
    cache_file,
    kept,
    mapped,
    marshal_suffix,
    prune,
    read_marshalled,
    write_atomically,
)

MAGIC = b"GWWF\x01"
"""The format's name and version (bump it when the layout below changes)."""
TABLE_MAGIC = b"GWWT\x01"
"""The small list's format (:func:`cached_table`), before the marshalled dictionary."""
HASHED_MAGIC = b"GWWH\x01"
"""The small list's format in the compiled build (:func:`cached_hashed`): this, the byte order,
the highest bucket (2 bytes), the word and slot counts (4 bytes each; all three little-endian),
then the slots, the offsets, the buckets and the words' bytes, every array at a multiple of its
item size."""


class PackedList:
    """Zipf frequencies by word, from sorted arrays (see the module docstring).

    ``blob`` holds the words' UTF-8 bytes end to end from position ``base`` (a bytes
    object, or the cache file mapped into memory), ``offsets`` where each word starts
    relative to ``base`` (one more than the words), ``buckets`` each word's bucket."""

    __slots__ = ("_base", "_blob", "_buckets", "_found", "_offsets", "size")

    def __init__(self, blob: Any, offsets: Sequence[int], buckets: Sequence[int], base: int = 0) -> None:
        self._blob = blob
        self._offsets = offsets
        self._buckets = buckets
        self._base = base
        self.size = len(buckets)
        self._found: dict[str, float | None] = {}
        """The answers given so far (None: not in the list). A page whose language the
        frequent words do not cover asks the whole list about most of its words, and the
        pages of one document share most of theirs: a search costs some 8 microseconds
        (twenty slices of the file compared; a fraction of one in C), a repeated one a
        dictionary look-up."""

    def get(self, word: str, default: float = 0.0) -> float:
        """``word``'s Zipf frequency, or ``default`` when the list lacks it."""
        found = self._found.get(word, _UNSEEN)
        if found is _UNSEEN:
            found = self._search(word)
            if len(self._found) >= _REMEMBERED:
                self._found.clear()
            self._found[word] = found
        return default if found is None else found

    def _search(self, word: str) -> float | None:
        index = self.index(word)
        return None if index < 0 else zipf(self._buckets[index])

    def index(self, word: str) -> int:
        """``word``'s number among the sorted words, -1 when the list lacks it: a binary
        search, in C where the compiled build has it (:func:`packed_index`, the reference)."""
        key = word.encode("utf-8", "surrogatepass")
        if _packed_index is not None:
            return _packed_index(key, self._blob, self._offsets, self._base, self.size)
        return packed_index(key, self._blob, self._offsets, self._base, self.size)


def packed_index(key: bytes, blob: Any, offsets: Sequence[int], base: int, size: int) -> int:
    """Where ``key`` lies among the ``size`` sorted words of a packed list, -1 when it is not
    there (the reference of the compiled build's search)."""
    lo, hi = 0, size
    while lo < hi:
        mid = (lo + hi) // 2
        if blob[base + offsets[mid]:base + offsets[mid + 1]] < key:
            lo = mid + 1
        else:
            hi = mid
    if lo < size and blob[base + offsets[lo]:base + offsets[lo + 1]] == key:
        return lo
    return -1


class HashedList:
    """Zipf frequencies by word from a hash table kept in a cache file (:func:`cached_hashed`):
    the compiled build's form of the small list, which it consults for every word of a page
    with a candidate split word.

    Made from the packed list's three parts (the words sorted, their offsets, their buckets)
    and ``slots``: a power-of-two number of slots, each 0 (empty) or one more than the number
    of a word whose UTF-8 bytes' CRC-32 chose it or a slot before it (linear probing, at most
    half the slots full). Looked up in C (:class:`~._cwords.HashedWords`) where the build has
    it, else by :func:`hashed_index`, the reference."""

    __slots__ = ("_base", "_blob", "_buckets", "_highest", "_native", "_offsets", "_slots", "size")

    def __init__(self, blob: Any, slots: Sequence[int], offsets: Sequence[int], buckets: Sequence[int],
                 base: int = 0, highest: int | None = None) -> None:
        self._blob = blob
        self._slots = slots
        self._offsets = offsets
        self._buckets = buckets
        self._base = base
        self._highest = highest
        """The highest bucket (the file says it: finding it costs a look at every word)."""
        self.size = len(buckets)
        self._native = _HashedWords(blob, slots, offsets, base) if _HashedWords is not None else None

    def index(self, word: str) -> int:
        """``word``'s number in the list, -1 when the list lacks it."""
        if self._native is not None:
            return int(self._native.index(word))
        return hashed_index(word, self._blob, self._slots, self._offsets, self._base)

    def get(self, word: str, default: float = 0.0) -> float:
        """``word``'s Zipf frequency, or ``default`` when the list lacks it."""
        index = self.index(word)
        return default if index < 0 else zipf(self._buckets[index])

    def __contains__(self, word: str) -> bool:
        return self.index(word) >= 0

    def count(self, words: list[str]) -> int:
        """How many of ``words`` the list holds (in one loop in C)."""
        if self._native is not None:
            return int(self._native.count(words))
        return sum(hashed_index(word, self._blob, self._slots, self._offsets, self._base) >= 0 for word in words)

    def lowest(self) -> float:
        """The lowest Zipf value of the list's words (0.0 for an empty list), the minimum the
        dictionary's values give: the highest bucket's, Zipf values falling as buckets rise."""
        if not self.size:
            return 0.0
        return zipf(max(self._buckets) if self._highest is None else self._highest)


def hashed_index(word: str, blob: Any, slots: Sequence[int], offsets: Sequence[int], base: int) -> int:
    """``word``'s number in a :class:`HashedList`'s table, -1 when it is not there (the
    reference of the compiled build's look-up). A slot naming no word of the list (a damaged
    file) is passed over, and a table with no empty slot is probed once round, not forever."""
    key = word.encode("utf-8", "surrogatepass")
    mask = len(slots) - 1
    at = zlib.crc32(key) & mask
    words = len(offsets) - 1
    for _probe in range(len(slots)):
        entry = slots[at]
        if entry == 0:
            return -1
        index = entry - 1
        if index < words and blob[base + offsets[index]:base + offsets[index + 1]] == key:
            return index
        at = (at + 1) & mask
    return -1


_UNSEEN: Any = object()
_REMEMBERED = 5_000
"""The most answers a :class:`PackedList` keeps (under a megabyte; then it starts afresh): the
words a document's non-English pages ask about, not more, so that memory stays flat over a
long run."""


def zipf(bucket: int) -> float:
    """The Zipf value of wordfreq's bucket ``bucket`` (its words occur 10 ** (-bucket / 100)
    times per word), computed as the in-memory table computes it, so both give equal floats."""
    return math.log10(10 ** (-bucket / 100)) + 9.0


def cached_list(name: str, source: Path, buckets: Iterable[list[str]] | None = None) -> PackedList | None:
    """The list kept for ``source`` (a wordfreq data file) under ``name``, read from the cache;
    written there first from ``buckets`` (the file's buckets, most frequent first) when it is
    missing and they are given. None when neither works."""
    return kept(name, source, ".gwwf", _read, None if buckets is None else partial(_list_file, buckets))


def _pack(buckets: Iterable[list[str]]) -> tuple[bytes, array, array]:
    """The words' bytes end to end, their offsets and their buckets, sorted by word.

    Python orders strings by code point, and UTF-8 keeps that order in its bytes (lone
    surrogates too, written as ``surrogatepass`` writes them, between U+D7FF and U+E000), so
    the words are sorted as they are and encoded one at a time into the blob: a bytes object
    and a tuple per word, sorted at once, took 70 MB more at the peak for English's 321,000
    words, on top of whatever the process that builds the cache holds."""
    table: dict[str, int] = {}
    for index, bucket in enumerate(buckets):
        for word in bucket:
            table[word] = index  # as the in-memory table: a word met again keeps its last bucket
    offsets = array("I", [0])
    codes = array("H")
    blob = bytearray()
    for word in sorted(table):
        blob += word.encode("utf-8", "surrogatepass")
        offsets.append(len(blob))
        codes.append(min(table[word], 0xFFFF))
    return bytes(blob), offsets, codes


def _list_file(buckets: Iterable[list[str]]) -> tuple[bytes, PackedList]:
    """The cache file of the list of ``buckets`` (:func:`cached_list`), and the list."""
    blob, offsets, codes = _pack(buckets)
    header = MAGIC + byte_order() + len(codes).to_bytes(4, "little")
    return b"".join((header, offsets.tobytes(), codes.tobytes(), blob)), PackedList(blob, offsets, codes)


def _read(path: Path) -> PackedList | None:
    """The list in the cache file ``path``, mapped into memory rather than read: the file is
    4 MB for English, and reading it (the fresh memory it fills, then copying its parts
    into arrays) cost 6-9 ms of every process that dehyphenates, where mapping it costs
    0.05 ms and a look-up touches a few pages. Cache files are only ever replaced whole
    (written under another name, then renamed), so a mapped file never changes under a
    reader; one cut short by hand while a process reads it would end that process."""
    head = len(MAGIC) + 5
    data = mapped(path, MAGIC, head)
    if data is None:
        return None
    n = int.from_bytes(data[len(MAGIC) + 1:head], "little")
    end_offsets = head + _OFFSET_BYTES * (n + 1)
    end_codes = end_offsets + _BUCKET_BYTES * n
    if len(data) < end_codes:
        return None
    view = memoryview(data)
    offsets = view[head:end_offsets].cast("I")
    codes = view[end_offsets:end_codes].cast("H")
    if offsets[0] != 0 or offsets[-1] != len(data) - end_codes:
        return None
    return PackedList(data, offsets, codes, end_codes)


_OFFSET_BYTES = array("I").itemsize
_BUCKET_BYTES = array("H").itemsize


def cached_table(name: str, source: Path, build: Callable[[], dict[str, float] | None]) -> dict[str, float] | None:
    """The dictionary kept for ``source`` under ``name``, read from the cache; else
    ``build()``'s, written there for the next process. The file's name holds the source's
    size and time and the interpreter's version (marshal's format follows it)."""
    path = cache_file(name, source, marshal_suffix(".gwwt"))
    if path is None:
        return build()
    found = _read_table(path)
    if found is not None:
        return found
    table = build()
    if table is not None:
        write_atomically(path, TABLE_MAGIC + marshal.dumps(table))
        prune(path, name)
    return table


def _read_table(path: Path) -> dict[str, float] | None:
    table = read_marshalled(path, TABLE_MAGIC)
    # Strings to floats, or nothing (the types are collected at C speed).
    if type(table) is not dict or not set(map(type, table)) <= {str} or not set(map(type, table.values())) <= {float}:
        return None
    return table


def cached_hashed(name: str, source: Path, buckets: Iterable[list[str]] | None = None) -> HashedList | None:
    """The small list kept for ``source`` under ``name`` as a hash table (:class:`HashedList`),
    read from the cache; written there first from ``buckets`` when it is missing and they are
    given. None when neither works."""
    return kept(name, source, ".gwwh", _read_hashed, None if buckets is None else partial(_hashed_file, buckets))


def _hashed_file(buckets: Iterable[list[str]]) -> tuple[bytes, HashedList]:
    """The cache file of the hash table of ``buckets`` (:func:`cached_hashed`), and the table."""
    blob, offsets, codes = _pack(buckets)
    slots = _hash_slots(blob, offsets)
    highest = max(codes, default=0)
    header = (HASHED_MAGIC + byte_order() + highest.to_bytes(2, "little")
              + len(codes).to_bytes(4, "little") + len(slots).to_bytes(4, "little"))
    return (b"".join((header, slots.tobytes(), offsets.tobytes(), codes.tobytes(), blob)),
            HashedList(blob, slots, offsets, codes, highest=highest))


def _hash_slots(blob: bytes, offsets: Sequence[int]) -> array:
    """The slots of a table of the words ``blob`` holds at ``offsets`` (see :class:`HashedList`)."""
    words = len(offsets) - 1
    size = 16
    while size < 2 * words:
        size *= 2
    mask = size - 1
    slots = array("I", bytes(size * _OFFSET_BYTES))
    for index in range(words):
        at = zlib.crc32(blob[offsets[index]:offsets[index + 1]]) & mask
        while slots[at]:
            at = (at + 1) & mask
        slots[at] = index + 1
    return slots


_HASHED_HEAD = len(HASHED_MAGIC) + 3 + 8


def _read_hashed(path: Path) -> HashedList | None:
    """The table in the cache file ``path``, mapped into memory (see :func:`_read`); None when
    it is missing or not exactly what :func:`cached_hashed` writes."""
    head = _HASHED_HEAD
    data = mapped(path, HASHED_MAGIC, head)
    if data is None:
        return None
    highest = int.from_bytes(data[head - 10:head - 8], "little")
    words = int.from_bytes(data[head - 8:head - 4], "little")
    size = int.from_bytes(data[head - 4:head], "little")
    if size < 16 or size & (size - 1) or size < 2 * words:
        return None
    end_slots = head + _OFFSET_BYTES * size
    end_offsets = end_slots + _OFFSET_BYTES * (words + 1)
    end_codes = end_offsets + _BUCKET_BYTES * words
    if len(data) < end_codes:
        return None
    view = memoryview(data)
    slots = view[head:end_slots].cast("I")
    offsets = view[end_slots:end_offsets].cast("I")
    codes = view[end_offsets:end_codes].cast("H")
    if offsets[0] != 0 or offsets[-1] != len(data) - end_codes:
        return None
    return HashedList(data, slots, offsets, codes, end_codes, highest)


_HashedWords: Any
_packed_index: Callable[[bytes, Any, Sequence[int], int, int], int] | None
try:  # the compiled build: the same answers, from loops in C
    from glyphweave.layout._cwords import HashedWords as _HashedWords
    from glyphweave.layout._cwords import packed_index as _packed_index
except ImportError:  # a pure install: the references
    _HashedWords = None
    _packed_index = None


def hashed_native() -> bool:
    """Whether this build looks words up in C (then the small list is kept as a hash table,
    not a dictionary)."""
    return _HashedWords is not None
