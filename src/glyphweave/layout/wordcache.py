"""A word list's frequencies kept on disk in a form that loads in milliseconds.

wordfreq's large English list is 321,000 words in a gzipped msgpack file: reading it and
hashing every word into a dictionary takes a quarter of a second, which a process
extracting one paper pays whole for its first split word. The first process to need a list
writes it, once per machine and wordfreq version, as one sorted file: the words' UTF-8
bytes end to end, their offsets, and each word's frequency bucket. Later processes read
the three parts into arrays (no object per word) and find a word by binary search, about
twenty comparisons: the load costs a few milliseconds and a look-up a few microseconds,
and the answers are the dictionary's.

The folder is ``GLYPHWEAVE_CACHE_DIR`` when set, else ``$XDG_CACHE_HOME/glyphweave`` or
``~/.cache/glyphweave``. A folder that cannot be written, or a file that does not read
back exactly (another byte order, a truncated write), is no error: the list is then
built in memory, as without a cache. Files are written under a temporary name and renamed,
so processes starting together never read half a file.

The small list (30,000 words) is asked for every word of a page, so it stays a dictionary;
reading it from wordfreq's file costs about 20 ms a process (inflating, unpacking, hashing),
which a process extracting one short document pays on its first split word. It is kept as
the dictionary itself in :mod:`marshal`'s format (:func:`cached_table`): read back in about
half the time, and never code, only strings and numbers (anything else is built again).
"""

from __future__ import annotations

import contextlib
import marshal
import math
import os
import sys
import tempfile
from array import array
from collections.abc import Callable, Iterable
from pathlib import Path

MAGIC = b"GWWF\x01"
"""The format's name and version (bump it when the layout below changes)."""
TABLE_MAGIC = b"GWWT\x01"
"""The small list's format (:func:`cached_table`), before the marshalled dictionary."""


class PackedList:
    """Zipf frequencies by word, from sorted arrays (see the module docstring)."""

    __slots__ = ("_blob", "_buckets", "_offsets", "size")

    def __init__(self, blob: bytes, offsets: array, buckets: array) -> None:
        self._blob = blob
        self._offsets = offsets
        self._buckets = buckets
        self.size = len(buckets)

    def get(self, word: str, default: float = 0.0) -> float:
        """``word``'s Zipf frequency, or ``default`` when the list lacks it."""
        key = word.encode("utf-8", "surrogatepass")
        blob, offsets = self._blob, self._offsets
        lo, hi = 0, self.size
        while lo < hi:
            mid = (lo + hi) // 2
            if blob[offsets[mid]:offsets[mid + 1]] < key:
                lo = mid + 1
            else:
                hi = mid
        if lo < self.size and blob[offsets[lo]:offsets[lo + 1]] == key:
            return zipf(self._buckets[lo])
        return default


def zipf(bucket: int) -> float:
    """The Zipf value of wordfreq's bucket ``bucket`` (its words occur 10 ** (-bucket / 100)
    times per word), computed as the in-memory table computes it, so both give equal floats."""
    return math.log10(10 ** (-bucket / 100)) + 9.0


def cache_dir() -> Path:
    configured = os.environ.get("GLYPHWEAVE_CACHE_DIR")
    if configured:
        return Path(configured)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "glyphweave"


def cached_list(name: str, source: Path, buckets: Iterable[list[str]] | None = None) -> PackedList | None:
    """The list kept for ``source`` (a wordfreq data file) under ``name``, read from the cache;
    written there first from ``buckets`` (the file's buckets, most frequent first) when it is
    missing and they are given. None when neither works."""
    try:
        stat = source.stat()
    except OSError:
        return None
    path = cache_dir() / f"{name}-{stat.st_size}-{int(stat.st_mtime)}.gwwf"
    found = _read(path)
    if found is not None or buckets is None:
        return found
    packed = _pack(buckets)
    _write(path, packed)
    return packed


def _pack(buckets: Iterable[list[str]]) -> PackedList:
    table: dict[str, int] = {}
    for index, bucket in enumerate(buckets):
        for word in bucket:
            table[word] = index  # as the in-memory table: a word met again keeps its last bucket
    entries = sorted((word.encode("utf-8", "surrogatepass"), index) for word, index in table.items())
    offsets = array("I", [0])
    codes = array("H")
    total = 0
    for encoded, index in entries:
        total += len(encoded)
        offsets.append(total)
        codes.append(min(index, 0xFFFF))
    return PackedList(b"".join(encoded for encoded, _ in entries), offsets, codes)


def _write(path: Path, packed: PackedList) -> None:
    header = MAGIC + (b"L" if sys.byteorder == "little" else b"B") + packed.size.to_bytes(4, "little")
    _write_bytes(path, b"".join((header, packed._offsets.tobytes(), packed._buckets.tobytes(), packed._blob)))


def _write_bytes(path: Path, data: bytes) -> None:
    """``data`` written to ``path`` under a temporary name and renamed; nothing when the
    folder cannot be written (the list stays in memory)."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=path.name, suffix=".part")
        try:
            with os.fdopen(handle, "wb") as file:
                file.write(data)
            os.replace(temporary, path)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(temporary)
            raise
    except OSError:
        return


def _read(path: Path) -> PackedList | None:
    try:
        data = path.read_bytes()
    except OSError:
        return None
    head = len(MAGIC) + 5
    if len(data) < head or not data.startswith(MAGIC):
        return None
    if data[len(MAGIC):len(MAGIC) + 1] != (b"L" if sys.byteorder == "little" else b"B"):
        return None
    n = int.from_bytes(data[len(MAGIC) + 1:head], "little")
    offsets = array("I")
    codes = array("H")
    end_offsets = head + offsets.itemsize * (n + 1)
    end_codes = end_offsets + codes.itemsize * n
    if len(data) < end_codes:
        return None
    offsets.frombytes(data[head:end_offsets])
    codes.frombytes(data[end_offsets:end_codes])
    blob = data[end_codes:]
    if offsets[0] != 0 or offsets[-1] != len(blob):
        return None
    return PackedList(blob, offsets, codes)


def cached_table(name: str, source: Path, build: Callable[[], dict[str, float] | None]) -> dict[str, float] | None:
    """The dictionary kept for ``source`` under ``name``, read from the cache; else
    ``build()``'s, written there for the next process. The file's name holds the source's
    size and time and the interpreter's version (marshal's format follows it)."""
    try:
        stat = source.stat()
    except OSError:
        return build()
    version = f"py{sys.version_info[0]}{sys.version_info[1]}m{marshal.version}"
    path = cache_dir() / f"{name}-{stat.st_size}-{int(stat.st_mtime)}-{version}.gwwt"
    found = _read_table(path)
    if found is not None:
        return found
    table = build()
    if table is not None:
        _write_bytes(path, TABLE_MAGIC + marshal.dumps(table))
    return table


def _read_table(path: Path) -> dict[str, float] | None:
    try:
        data = path.read_bytes()
    except OSError:
        return None
    if not data.startswith(TABLE_MAGIC):
        return None
    try:
        table = marshal.loads(memoryview(data)[len(TABLE_MAGIC):])
    except (EOFError, ValueError, TypeError):
        return None
    # Strings to floats, or nothing (the types are collected at C speed).
    if type(table) is not dict or not set(map(type, table)) <= {str} or not set(map(type, table.values())) <= {float}:
        return None
    return table
