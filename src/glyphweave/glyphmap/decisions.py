"""Decisions brought into a registry (rules: the glyph registry): the characters a person chose on the
contact sheet, or the validated entries of another registry, applied in one step by
``glyphweave registry import``.

A decisions file is what the sheet's "export" button writes: a plain TSV,

* a first line ``# glyphweave glyph decisions v1``, then the header ``key<TAB>mapping``,
  then one row per decision, escaped as the registry escapes (``\\\\``, ``\\t``, ``\\n``,
  ``\\r``); blank lines are skipped.

A registry file (any version the registry reads) can be imported as well: its validated
entries are the decisions, and an entry the target registry lacks is added whole, since
it carries its own drawing and context.

Import is all or nothing: every decision is checked first (the key must be one of the
registry's, unless it comes whole from another registry; the character must be one a person
may validate), and one bad row refuses the whole import, naming its file and line, with
nothing written.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Sequence
from pathlib import Path

import attrs

from .registry import (
    Entry,
    Registry,
    RegistryError,
    RegistryUsageError,
    check_mapping,
    parse_registry,
    unescape,
)

MAGIC = "# glyphweave glyph decisions v1"
COLUMNS = ("key", "mapping")


@attrs.frozen
class Decision:
    """A character chosen for one key, and where it was read (``file:line``)."""

    key: str
    mapping: str
    where: str
    entry: Entry | None = None
    """The whole entry, when the decision is another registry's validated entry."""


@attrs.frozen
class ImportReport:
    """What an import did (or would do, on a dry run)."""

    validated: list[Entry]
    """Entries that became validated or changed character, in key order."""
    added: list[Entry]
    """Entries of another registry the target lacked, added."""
    unchanged: int
    """Decisions the registry already held as they are."""


def read_decisions(path: str | os.PathLike[str]) -> list[Decision]:
    """The decisions in ``path``: a decisions file or a registry file (see the module docstring).

    :raises RegistryUsageError: the file does not exist.
    :raises RegistryError: it cannot be read, or is neither kind of file (the message names
        the file and line).
    """
    name = os.fspath(path)
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):  # a FIFO would be waited on for ever
            raise RegistryError(f"{name}: cannot read (not a regular file; decisions are a TSV file)")
        data = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise RegistryUsageError(f"{name}: no such decisions file") from None
    except OSError as exc:
        raise RegistryError(f"{name}: cannot read ({exc.strerror})") from None
    except UnicodeDecodeError as exc:
        raise RegistryError(f"{name}: not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    first = data.split("\n", 1)[0].strip()
    if first.startswith("# glyphweave glyph registry"):
        registry = parse_registry(data, name)
        return [Decision(e.key, e.mapping, f"{name} ({e.key})", e) for e in registry if e.status == "validated"]
    return parse_decisions(data, name)


def parse_decisions(data: str, name: str = "<decisions>") -> list[Decision]:
    lines = [line[:-1] if line.endswith("\r") else line for line in data.split("\n")]
    if lines[0].strip() != MAGIC:
        raise RegistryError(f"{name}:1: neither a decisions file (first line {MAGIC!r}) nor a glyph registry")
    if len(lines) < 2 or tuple(lines[1].split("\t")) != COLUMNS:
        raise RegistryError(f"{name}:2: the header must be the columns {', '.join(COLUMNS)} (tab-separated)")
    decisions: list[Decision] = []
    for number, line in enumerate(lines[2:], 3):
        if not line.strip():
            continue
        where = f"{name}:{number}"
        cells = line.split("\t")
        if len(cells) != len(COLUMNS):
            raise RegistryError(f"{where}: {len(cells)} columns, expected {len(COLUMNS)}")
        key, mapping = (unescape(cell, where) for cell in cells)
        decisions.append(Decision(key, mapping, where))
    return decisions


def apply_decisions(registry: Registry, decisions: Sequence[Decision]) -> ImportReport:
    """Apply ``decisions`` to ``registry`` in order (a later decision for a key wins), after
    checking them all.

    :raises RegistryUsageError: a decision names a key the registry lacks, or a character
        a person may not validate; the registry is then left as it was.
    """
    for decision in decisions:
        if decision.entry is None and decision.key not in registry.entries:
            raise RegistryUsageError(f"{decision.where}: no entry {decision.key!r} in the registry "
                                     "(is this the registry the sheet was drawn from?)")
        try:
            check_mapping(decision.mapping)
        except RegistryUsageError as exc:
            raise RegistryUsageError(f"{decision.where}: {exc}") from None
    validated: dict[str, Entry] = {}
    added: dict[str, Entry] = {}
    unchanged = 0
    for decision in decisions:
        old = registry.entries.get(decision.key)
        if old is None:
            assert decision.entry is not None  # checked above
            registry.entries[decision.key] = added[decision.key] = decision.entry
            continue
        if old.status == "validated" and old.mapping == decision.mapping:
            unchanged += 1
            continue
        if decision.entry is not None:
            new = attrs.evolve(old, mapping=decision.mapping, status="validated", source=decision.entry.source,
                               confidence=decision.entry.confidence)
        else:
            new = attrs.evolve(old, mapping=decision.mapping, status="validated", source="person", confidence=None)
        registry.entries[decision.key] = new
        (added if decision.key in added else validated)[decision.key] = new
    return ImportReport(validated=[validated[k] for k in sorted(validated)],
                        added=[added[k] for k in sorted(added)], unchanged=unchanged)
