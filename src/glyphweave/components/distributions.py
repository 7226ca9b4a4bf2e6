"""The installed distributions that declare entry points of one group, and those entry points.

:mod:`importlib.metadata` answers this, but importing it costs about 30 ms (it imports the
``email`` package, to parse whole metadata files of which a label needs two lines): a sixth
of a one-page extraction, paid by every run of the command. The metadata this needs is
plain files, read here directly, in the order :func:`importlib.metadata.distributions`
finds them: a distribution is a ``*.dist-info`` or ``*.egg-info`` folder in a directory on
``sys.path`` (directories in path order, folders in listing order, grouped by normalized
name); its ``entry_points.txt`` (INI) declares the entry points, and the header of its
``METADATA`` (or ``PKG-INFO``) names it and its version.

Where :mod:`importlib.metadata` is imported already, :func:`declaring` asks it: that costs
nothing more, and honours what the process did to it (a test's patched
``distributions``, as :mod:`glyphweave.testing` does). So it does where distributions could
be found some other way (a zip archive or an egg on ``sys.path``, or a meta-path finder
other than the standard one that lists distributions). A test compares both answers on the
test environment and on made-up site folders.
"""

from __future__ import annotations

import functools
import importlib
import os
import re
import sys
from collections.abc import Iterator
from typing import Any

__all__ = ["EntryPoint", "declaring"]

_ENTRY_POINT_VALUE = re.compile(r"(?P<module>[\w.]+)\s*(:\s*(?P<attr>[\w.]+)\s*)?((?P<extras>\[.*\])\s*)?$")
"""An entry point's value: ``module``, ``module:attr.attr``, perhaps ``[extras]`` (the
pattern of :class:`importlib.metadata.EntryPoint`)."""


class EntryPoint:
    """One declared entry point: what :class:`importlib.metadata.EntryPoint` holds that a
    plugin manager reads (``name``, ``value``, ``group``, :meth:`load`)."""

    __slots__ = ("group", "name", "value")

    def __init__(self, name: str, value: str, group: str) -> None:
        self.name = name
        self.value = value
        self.group = group

    def load(self) -> Any:
        """The object the value names: its module imported, then each attribute looked up."""
        match = _ENTRY_POINT_VALUE.match(self.value)
        if match is None:
            raise ValueError(f"entry point {self.name!r}: {self.value!r} is not 'module' or 'module:attribute'")
        module = importlib.import_module(match.group("module"))
        return functools.reduce(getattr, filter(None, (match.group("attr") or "").split(".")), module)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, EntryPoint):
            return NotImplemented
        return (self.name, self.value, self.group) == (other.name, other.value, other.group)

    def __hash__(self) -> int:
        return hash((self.name, self.value, self.group))

    def __repr__(self) -> str:
        return f"EntryPoint(name={self.name!r}, value={self.value!r}, group={self.group!r})"


def declaring(group: str) -> list[tuple[str, list[Any]]]:
    """``("Name version", entry points of group)`` of each distribution that declares some,
    in the order :func:`importlib.metadata.distributions` yields them (the same distribution
    found twice, further down the path, comes twice: the caller keeps the first)."""
    if "importlib.metadata" in sys.modules or not _plain_paths():
        return _by_importlib(group)
    return _from_files(group)


def _from_files(group: str) -> list[tuple[str, list[Any]]]:
    found: list[tuple[str, list[Any]]] = []
    for entry in sys.path:
        try:
            stamp = os.stat(entry or ".").st_mtime_ns
        except OSError:
            continue
        found.extend((label, list(entry_points)) for label, entry_points in _declared_in(entry, stamp, group))
    return found


@functools.lru_cache(maxsize=64)
def _declared_in(entry: str, stamp: int, group: str) -> tuple[tuple[str, tuple[Any, ...]], ...]:
    """What the distributions in the directory ``entry`` declare for ``group``, read once per
    state of that directory (``stamp``: its modification time, which installing or removing a
    distribution changes), as importlib.metadata caches its listing of a directory: every
    document opened asks, and reading each distribution's files again cost 1-2 ms."""
    found = []
    for folder in _info_folders(entry):
        entry_points = _read_entry_points(os.path.join(folder, "entry_points.txt"), group)
        if entry_points:
            found.append((_label(folder), tuple(entry_points)))
    return tuple(found)


def label(name: str | None, version: str | None) -> str:
    """A distribution as messages and the plugin listing name it: ``"name version"``, with
    placeholders for what its metadata leaves out."""
    return f"{name or '(unnamed)'} {version or '(no version)'}"


def metadata_label(metadata: Any) -> str:
    """:func:`label` of an importlib.metadata distribution's ``metadata`` (or pluggy's facade's)."""
    return label(metadata.get("Name"), metadata.get("Version"))


def _plain_paths() -> bool:
    """Whether every distribution the import system can list is a folder in a directory of
    ``sys.path``: no archive or egg on the path, and no finder of its own listing any."""
    from importlib.machinery import PathFinder

    for finder in sys.meta_path:
        if getattr(finder, "find_distributions", None) is not None and finder is not PathFinder:
            return False
    for entry in sys.path:
        if entry and (os.path.isfile(entry) or os.path.basename(entry).lower().endswith(".egg")):
            return False
    return True


def _info_folders(entry: str) -> Iterator[str]:
    """The ``*.dist-info`` and ``*.egg-info`` folders of the directory ``entry`` of ``sys.path``."""
    try:
        children = os.listdir(entry or ".")
    except OSError:
        return
    groups: dict[str, list[str]] = {}
    for child in children:
        low = child.lower()
        if low.endswith((".dist-info", ".egg-info")):
            name = low.rpartition(".")[0].partition("-")[0]
            groups.setdefault(re.sub(r"[-_.]+", "-", name).lower().replace("-", "_"), []).append(child)
    for children_of_name in groups.values():
        for child in children_of_name:
            folder = os.path.join(entry, child)
            if os.path.isdir(folder):
                yield folder


def _read_entry_points(path: str, group: str) -> list[Any]:
    """The entry points of ``group`` in an ``entry_points.txt`` (none if it is missing)."""
    try:
        with open(path, encoding="utf-8") as file:
            text = file.read()
    except (OSError, UnicodeDecodeError):
        return []
    found: list[Any] = []
    section = None
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("[") and line.endswith("]"):
            section = line.strip("[]")
            continue
        name, equals, value = line.partition("=")
        if section == group and equals:  # (importlib.metadata fails on a line with no "=")
            found.append(EntryPoint(name.strip(), value.strip(), group))
    return found


def _label(folder: str) -> str:
    """``"Name version"`` from the header of the folder's ``METADATA`` (``PKG-INFO`` for an
    egg-info), with the placeholders :mod:`importlib.metadata` leaves empty."""
    fields: dict[str, str] = {}
    for name in ("METADATA", "PKG-INFO"):  # the first that exists and is not empty
        read = False
        try:
            with open(os.path.join(folder, name), encoding="utf-8") as file:
                for line in file:
                    read = True
                    if not line.strip():
                        break  # the header ends at the first empty line
                    key, colon, value = line.partition(":")
                    key = key.strip().lower()
                    if colon and key in ("name", "version") and key not in fields:
                        fields[key] = value.strip()
        except (OSError, UnicodeDecodeError):
            continue
        if read:
            break
    return label(fields.get("name"), fields.get("version"))


def _by_importlib(group: str) -> list[tuple[str, list[Any]]]:
    import importlib.metadata

    found: list[tuple[str, list[Any]]] = []
    for dist in importlib.metadata.distributions():
        # Only distributions declaring the group matter; reading a distribution's name
        # parses its whole METADATA file, so look at the (small) entry points first.
        entry_points = [ep for ep in dist.entry_points if ep.group == group]
        if entry_points:
            try:
                named = metadata_label(dist.metadata)
            except Exception:  # the importlib_metadata backport's finder raises where there is none
                named = label(None, None)
            found.append((named, entry_points))
    return found
