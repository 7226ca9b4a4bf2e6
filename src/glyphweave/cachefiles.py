"""Files a process leaves in the machine's cache folder so that the next one need not build
what it built: the word lists (:mod:`glyphweave.layout.wordcache`) and the parsed CJK CMaps
(:mod:`glyphweave.pdf.predefined`).

The folder is ``GLYPHWEAVE_CACHE_DIR`` when set, else ``$XDG_CACHE_HOME/glyphweave`` or
``~/.cache/glyphweave``. A file is named after what it was made from (its name, the source
file's size and time, and whatever else its kind adds), so a new install of the source writes
another and an old one is never read for it; the older files of a kind past the newest
:data:`KEEP` are deleted when a new one is written. A folder that cannot be written, or a file
that does not read back as its kind expects, is no error: the caller builds the thing in
memory, as without a cache. Files are written under a temporary name and renamed, so processes
starting together never read half a file. Nothing read from here is code: each kind reads
numbers, strings and bytes back and checks them.

Importing this module does no work, and it imports nothing of glyphweave.
"""

from __future__ import annotations

import contextlib
import mmap
import os
import re
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

__all__ = ["KEEP", "byte_order", "cache_dir", "cache_file", "kept", "mapped", "marshal_suffix", "prune",
           "read_marshalled", "write_atomically"]

KEEP = 4
"""Cache files kept per name and kind: a file is named by its source's size and time (and
marshal's version where it holds marshalled data), so each new install of a source (a new
virtual environment, a tox env made again) writes another, 4 MB for English's word list; the
newest few stay for the installs in use."""

_STAMP = r"-\d+-\d+(?:-py\d+m\d+)?"
"""What a cache file's name adds to its name: its source's size and time, and marshal's
version for marshalled data."""

_Kept = TypeVar("_Kept")


def cache_dir() -> Path:
    configured = os.environ.get("GLYPHWEAVE_CACHE_DIR")
    if configured:
        return Path(configured)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "glyphweave"


def cache_file(name: str, source: Path, suffix: str) -> Path | None:
    """The cache file ``name`` made from ``source``, named by the source's size and time (a
    new install of the source writes another); None when the source cannot be read."""
    try:
        stat = source.stat()
    except OSError:
        return None
    return cache_dir() / f"{name}-{stat.st_size}-{int(stat.st_mtime)}{suffix}"


def marshal_suffix(kind: str) -> str:
    """The end of the name of a cache file of ``kind`` holding :mod:`marshal`'s data: the
    interpreter's version and marshal's, whose format follows them, then ``kind``."""
    import marshal

    return f"-py{sys.version_info[0]}{sys.version_info[1]}m{marshal.version}{kind}"


def byte_order() -> bytes:
    """How a cache file says the byte order of the arrays it holds: this machine's."""
    return b"L" if sys.byteorder == "little" else b"B"


def mapped(path: Path, magic: bytes, head: int) -> mmap.mmap | None:
    """The cache file ``path`` mapped into memory, when it holds at least ``head`` bytes and
    starts with ``magic`` and this machine's byte order; None otherwise (missing, unreadable,
    empty, which cannot be mapped, or another format)."""
    try:
        with path.open("rb") as file:
            data = mmap.mmap(file.fileno(), 0, access=mmap.ACCESS_READ)
    except (OSError, ValueError):
        return None
    if len(data) < head or data[:len(magic)] != magic or data[len(magic):len(magic) + 1] != byte_order():
        return None
    return data


def kept(name: str, source: Path | None, suffix: str, read: Callable[[Path], _Kept | None],
         make: Callable[[], tuple[bytes | None, _Kept] | None] | None) -> _Kept | None:
    """What the cache file of kind ``suffix`` holds for ``source`` under ``name`` (``read``
    from it); when there is none and ``make`` is given, what ``make`` builds, its file
    (the bytes it gives with it) written for the next process and the kind's older files
    pruned. ``make`` gives None when it builds nothing, and None for the bytes when what it
    built is not to be kept. With no ``source`` to name a file after (a package inside a zip
    archive) nothing is read or written: what ``make`` builds is returned. None when neither
    works, or when ``source`` cannot be read."""
    path = None
    if source is not None:
        path = cache_file(name, source, suffix)
        if path is None:
            return None
        found = read(path)
        if found is not None:
            return found
    built = make() if make is not None else None
    if built is None:
        return None
    data, made = built
    if path is not None and data is not None:
        write_atomically(path, data)
        prune(path, name)
    return made


def read_marshalled(path: Path, magic: bytes) -> Any:
    """What the cache file ``path`` holds after ``magic``, read by :mod:`marshal` (numbers,
    strings, bytes and containers of them, never code), or None (missing, another format, or
    damaged). The caller checks that it is what its kind holds."""
    try:
        data = path.read_bytes()
    except OSError:
        return None
    if not data.startswith(magic):
        return None
    import marshal

    try:
        return marshal.loads(memoryview(data)[len(magic):])
    except (EOFError, ValueError, TypeError):
        return None


def prune(written: Path, name: str) -> None:
    """Delete the older files of ``name`` of the kind of ``written`` (just written), past the
    newest :data:`KEEP`. A file another process has mapped stays readable to it (the system
    frees it when unmapped); one that cannot be deleted is left."""
    same = re.escape(name) + _STAMP + re.escape(written.suffix)
    try:
        found = [(entry.stat().st_mtime, entry) for entry in written.parent.iterdir() if re.fullmatch(same, entry.name)]
    except OSError:
        return
    for _, old in sorted(found, key=lambda item: item[0], reverse=True)[KEEP:]:
        with contextlib.suppress(OSError):
            old.unlink()


def write_atomically(path: Path, data: bytes) -> None:
    """``data`` written to ``path`` under a temporary name and renamed; nothing when the
    folder cannot be written (the caller keeps what it built in memory)."""
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
