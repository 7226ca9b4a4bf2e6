"""The one way a data table is read: from the mirror shipped in the package, or not at all.

Every table of :mod:`glyphweave.tables` lives in a folder of ``glyphweave/tables/resources``
(with a PROVENANCE file saying where its facts come from) and has a small built-in fallback
for a package built without that folder. Each table module asks this loader for its files
and falls back when the answer is None; it then reports its source as ``"mirror"`` or
``"fallback"`` (shown by ``glyphweave plugins`` and ``extract --stats``).

Reading takes the package's folder, or asks :mod:`importlib.resources` where there is none,
so the tables work from a wheel, a zip or a checkout alike; nothing here is executable data.
Importing this module does no work.
"""

from __future__ import annotations

import gzip
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from glyphweave.packagedata import package_folder

if TYPE_CHECKING:
    from importlib.resources.abc import Traversable

Source = Literal["mirror", "fallback"]
"""Which source serves a table in this process."""

PACKAGE = "glyphweave.tables"
FOLDER = "resources"


def resource_root() -> Traversable:
    """The folder holding every mirrored table (tests point this elsewhere to drop the mirror)."""
    return package_folder(PACKAGE, FOLDER)  # a plain path where installed as files


def _resource(parts: tuple[str, ...]) -> Traversable:
    resource = resource_root()
    for part in parts:
        resource = resource / part
    return resource


def has_mirror(table: str, marker: str = "PROVENANCE.tsv") -> bool:
    """True when the folder of ``table`` was shipped (its ``marker`` file is there)."""
    try:
        return _resource((table, marker)).is_file()
    except OSError:
        return False


def file_path(*parts: str) -> Path | None:
    """The mirrored file as a path of the file system, None when it is not there or not a
    file of its own (a package inside a zip archive): what a cache names its files after."""
    resource = _resource(parts)
    return resource if isinstance(resource, Path) and resource.is_file() else None


def read_bytes(*parts: str) -> bytes | None:
    """The bytes of a mirrored file, or None when it is not there. A ``.gz`` name is unpacked;
    a damaged gzip file reads as absent."""
    resource = _resource(parts)
    try:
        if not resource.is_file():
            return None
        data = resource.read_bytes()
        return gzip.decompress(data) if parts[-1].endswith(".gz") else data
    except (OSError, EOFError, gzip.BadGzipFile):
        return None


def read_text(*parts: str, encoding: str = "utf-8") -> str | None:
    """The text of a mirrored file, or None when it is not there."""
    data = read_bytes(*parts)
    return None if data is None else data.decode(encoding)
