"""The batch manifest: one JSON line per file, appended as each file finishes.

Lines are appended (and flushed) one by one, so a ``kill -9`` loses at most the line being
written; :func:`load` drops that half line. A file extracted again (a rerun, or ``--resume``
redoing a file that failed) gets a new line; at the end of the run :func:`compact` rewrites
the manifest with one line per file, the last one, through :mod:`glyphweave.files` (atomic,
a link kept a link). A run killed before its end may leave two lines for a file until the
next run: :func:`read_manifest` reads a manifest so (the last line of a file wins).

A manifest is only ever appended to when it is one: a file of other content at its path is
refused (:class:`~glyphweave.core.errors.UsageError`) and left as it was.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from typing import Any

from glyphweave.core.errors import UsageError
from glyphweave.files import write_text

_KILLED_LINE = b'{"file": '  # how every line starts (FileResult.to_dict's first key)


def read_manifest(path: str | os.PathLike[str]) -> dict[str, dict[str, Any]]:
    """Each file's entry in the manifest at ``path``, by file, in the order the files first
    appear; the last line of a file wins. A half-written last line (a killed run's) is
    ignored.

    :raises UsageError: ``path`` holds something other than a manifest.
    :raises OSError: ``path`` cannot be read.
    """
    entries: dict[str, dict[str, Any]] = {}
    for entry in load(os.fspath(path)):
        entries[entry["file"]] = entry
    return entries


def load(path: str) -> list[dict[str, Any]]:
    """The manifest's lines, in order ([] when there is no file at ``path``).

    :raises UsageError: a folder, or a file whose complete lines are not manifest lines.
    """
    if os.path.isdir(path):
        raise UsageError(f"{path}: the manifest is a folder (give a file name with --manifest)")
    if os.path.exists(path) and not os.path.isfile(path):
        return []  # a device or a FIFO (--manifest /dev/null): written to, never read back
    try:
        with open(path, "rb") as stream:
            data = stream.read()
    except FileNotFoundError:
        return []
    lines = data.split(b"\n")
    last = lines.pop()  # b"" after a final newline, else a half-written line
    if last and not last.startswith(_KILLED_LINE):
        lines.append(last)  # not a line a batch was writing: judged below with the others
    entries: list[dict[str, Any]] = []
    for number, line in enumerate(lines, 1):
        entry = _entry(line)
        if entry is None:
            raise UsageError(f"{path}: line {number} is not a batch manifest line; refusing to append to this "
                             "file (give another output folder or --manifest)")
        entries.append(entry)
    return entries


def repair(path: str) -> None:
    """Drop the half line a killed run left at the end, so appending keeps JSON lines (only
    after :func:`load` accepted the file)."""
    try:
        with open(path, "rb+") as stream:
            data = stream.read()
            if data and not data.endswith(b"\n"):
                stream.seek(data.rfind(b"\n") + 1)
                stream.truncate()
    except OSError:
        pass


def compact(path: str, *, inputs: Iterable[str] = ()) -> bool:
    """Rewrite the manifest at ``path`` with one line per file (its last), when a file has
    more than one; whether it was rewritten. Never one of ``inputs``."""
    try:
        entries = load(path)
    except (OSError, UsageError):
        return False
    last = {entry["file"]: entry for entry in entries}
    if len(last) == len(entries):
        return False
    lines = "".join(json.dumps(entry, ensure_ascii=False) + "\n" for entry in last.values())
    write_text(path, lines, inputs=tuple(inputs), durable=True)
    return True


def _entry(line: bytes) -> dict[str, Any] | None:
    try:
        entry = json.loads(line)
    except ValueError:
        return None
    if not isinstance(entry, dict) or not isinstance(entry.get("file"), str) or "status" not in entry:
        return None
    return entry
