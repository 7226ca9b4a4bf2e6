"""What a batch may write over in its output folder: only what a batch wrote there.

The output folder of a batch is often a folder of the user's (``batch DIR -o DIR``, a
reused ``out/``), so before any file is extracted the folder is read: a file is a batch's
when the manifest lists it as an output (by path, or by content: its sha256, for a manifest
written from another working folder), or is the manifest itself, or a temporary file a
killed run left. Anything else is the user's. The runner refuses a folder holding such
files unless told (``--resume``, ``--force``), and even then never writes over one: the
PDF whose output would replace it is reported instead (:func:`blocked`).
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterable, Iterator
from typing import Any

from glyphweave.core.errors import UsageError

from .names import TEMP_PREFIX

_SHOWN = 3  # foreign files named in the refusal


def identity(path: str) -> tuple[int, int] | None:
    """The file ``path`` names, by device and inode (None: no such file)."""
    try:
        status = os.stat(path)
    except (OSError, ValueError):
        return None
    return status.st_dev, status.st_ino


def _key(path: str) -> str:
    return os.path.normcase(os.path.abspath(path))


class OutputFolder:
    """The files of an output folder and which of them a batch wrote, per its manifest."""

    def __init__(self, outdir: str, manifest: str, entries: Iterable[dict[str, Any]]) -> None:
        self.outdir = outdir
        self.manifest = manifest
        outputs = [entry.get("output") for entry in entries]
        self._ours = {_key(output) for output in outputs if isinstance(output, str)}
        self._hashes = {entry.get("sha256") for entry in entries if isinstance(entry.get("sha256"), str)}
        self._checked: dict[str, bool] = {}

    def ours(self, path: str) -> bool:
        """Whether ``path`` (an existing file) is one a batch wrote."""
        key = _key(path)
        if key in self._ours or key == _key(self.manifest) or os.path.basename(path).startswith(TEMP_PREFIX):
            return True
        if key not in self._checked:
            # Only a plain file is read: a FIFO would block, a link is the user's.
            plain = os.path.isfile(path) and not os.path.islink(path)
            self._checked[key] = bool(self._hashes) and plain and file_sha256(path) in self._hashes
        return self._checked[key]

    def foreign(self) -> Iterator[str]:
        """The files (and links, and other entries that are not folders) under the folder
        that no batch wrote, in sorted order."""
        if not os.path.isdir(self.outdir):
            return
        for root, dirs, files in os.walk(self.outdir):
            dirs.sort()
            for name in sorted(files):
                path = os.path.join(root, name)
                if not self.ours(path):
                    yield path

    def refuse_foreign(self) -> None:
        """:raises UsageError: the folder holds files no batch wrote (naming a few)."""
        found: list[str] = []
        for path in self.foreign():
            found.append(path)
            if len(found) > _SHOWN:
                break
        if found:
            shown = ", ".join(found[:_SHOWN]) + (", ..." if len(found) > _SHOWN else "")
            raise UsageError(f"{self.outdir}: holds files that are not outputs of a batch ({shown}); "
                             "give an empty or new folder, --resume to finish a batch there, or --force to "
                             "write there anyway (no existing file is ever replaced)")

    def blocked(self, output: str) -> bool:
        """Whether writing ``output`` would replace something no batch wrote."""
        return os.path.lexists(output) and not (os.path.isfile(output) and self.ours(output))


def file_sha256(path: str) -> str | None:
    """The sha256 of the file ``path`` (read a block at a time), None when it cannot be read."""
    digest = hashlib.sha256()
    try:
        with open(path, "rb") as stream:
            for block in iter(lambda: stream.read(1 << 20), b""):
                digest.update(block)
    except OSError:
        return None
    return digest.hexdigest()
