"""The glyph registry file (rules: the glyph registry): every glyph no table could read, or read only from a
Private Use Area code, keyed so that one glyph met in many subsets is one entry, with its
drawing, its proposed character and whether a person validated it.

The file is a plain TSV, sorted by key, written atomically (:mod:`glyphweave.files`), so
that it diffs well and survives a crash:

* a first line ``# glyphweave glyph registry v4``, then a header line naming the columns
  (:data:`COLUMNS`), then one row per key (files of versions 1 to 3, which lack some
  columns, are read as well, the missing cells empty, and written as version 4);
* ``key`` is ``FAMILY/o:HASH`` when the glyph has an outline (its drawing identifies it
  across subsets, whatever code a subset gave it; a Type3 glyph's drawing is what its glyph
  procedure paints, so two unnamed Type3 fonts never share a key by sharing a code) and
  ``FAMILY/c:CODE`` when it has not;
* ``status`` is ``unresolved`` (no character yet), ``proposed`` (a character a table, a
  rule or the shape matcher suggests) or ``validated`` (set by a person, or accepted in
  bulk from confident proposals: never changed by a scan);
* ``confidence`` is the shape matcher's confidence in a proposal (0 to 1, three decimals;
  empty for a proposal of a table, which is not a guess);
* ``standin`` is what other tools print for the glyph when the font's /ToUnicode gives it a
  Private Use character (Word's SymbolMT subsets map code 0x01 to U+F0B7): ``repair``
  replaces it too (empty when the /ToUnicode says nothing of the kind);
* ``em`` is the number of ``svg``'s units in the font's em (its units per em; 1000 for a
  Type3 glyph, whose drawing is kept in thousandths of an em), so the sheet can draw
  glyphs at their size (empty when unknown: the drawing is then fitted to its card);
* ``undrawn`` says why a glyph has no drawing (:data:`UNDRAWN`: the font is not embedded,
  its program or the glyph procedure cannot be read, it has no such glyph, or the glyph
  paints nothing), empty when it has one;
* text fields escape backslash, tab and line ends (``\\\\``, ``\\t``, ``\\n``, ``\\r``).

Merging (:meth:`Registry.merge`) is cumulative and idempotent: counts and files are
those of the latest scan of the corpus for keys it saw (a scan of the same corpus twice
gives the same file byte for byte), keys it did not see are kept, and a validated entry
keeps its mapping and status whatever a scan proposes. Concurrent writers take a lock
file and merge with what is on disk at that moment, so no entry is lost.
"""

from __future__ import annotations

import contextlib
import errno
import math
import os
import stat
import time
from collections.abc import Iterable, Iterator
from pathlib import Path

import attrs

from glyphweave.core.decoding import is_weak_code_point
from glyphweave.core.errors import GlyphweaveError, UsageError

MAGIC = "# glyphweave glyph registry v4"
COLUMNS = ("key", "status", "mapping", "source", "confidence", "family", "code", "standin", "count", "files", "context",
           "undrawn", "em", "svg")
# The columns of each version the reader accepts, by first line.
_VERSIONS = {
    MAGIC: COLUMNS,
    "# glyphweave glyph registry v3": ("key", "status", "mapping", "source", "confidence", "family", "code", "standin",
                                       "count", "files", "context", "em", "svg"),
    "# glyphweave glyph registry v2": ("key", "status", "mapping", "source", "confidence", "family", "code", "standin",
                                       "count", "files", "context", "svg"),
    "# glyphweave glyph registry v1": ("key", "status", "mapping", "source", "family", "code", "count", "files",
                                       "context", "svg"),
}
STATUSES = ("unresolved", "proposed", "validated")
UNDRAWN = ("not embedded", "unreadable program", "no such glyph", "unreadable glyph", "draws nothing")
"""Why a glyph has no drawing (the ``undrawn`` column): the font embeds no program; its
program, or the Type3 font's glyph procedure, cannot be read; the program has no glyph for
the code (a Type3 font no procedure); the glyph cannot be drawn; it paints nothing."""

_ESCAPES = {"\\": "\\\\", "\t": "\\t", "\n": "\\n", "\r": "\\r"}
_UNESCAPES = {"\\": "\\", "t": "\t", "n": "\n", "r": "\r"}


class RegistryError(GlyphweaveError):
    """A registry file that cannot be read: the message names the file and line."""


class RegistryUsageError(RegistryError, UsageError):
    """A request the registry cannot carry out as given (exit status 2): a registry file
    that does not exist, a key it does not hold, a character a person may not validate.
    Nothing was written."""


def escape(text: str) -> str:
    return "".join(_ESCAPES.get(ch, ch) for ch in text)


def unescape(text: str, where: str) -> str:
    out: list[str] = []
    chars = iter(text)
    for ch in chars:
        if ch != "\\":
            out.append(ch)
            continue
        nxt = next(chars, None)
        if nxt is None or nxt not in _UNESCAPES:
            raise RegistryError(f"{where}: bad escape '\\{nxt or ''}'")
        out.append(_UNESCAPES[nxt])
    return "".join(out)


@attrs.define
class Entry:
    """One glyph of the registry."""

    key: str
    status: str = attrs.field(validator=attrs.validators.in_(STATUSES))
    mapping: str = ""
    """The character(s) the glyph stands for ("" while unresolved)."""
    source: str = ""
    """Who proposed the mapping: a decoder's name, a rule's, ``shape`` (the shape matcher),
    or ``person``."""
    confidence: float | None = None
    """The shape matcher's confidence in a ``shape`` proposal, 0 to 1; None otherwise."""
    family: str = ""
    code: str = ""
    """The character code (hex) of the first occurrence met."""
    standin: str = ""
    """The Private Use text the font's /ToUnicode gives the glyph (what other tools print), or ""."""
    count: int = 0
    files: int = 0
    context: str = ""
    """The text around one occurrence, the glyph shown as ``⟦?⟧``."""
    undrawn: str = ""
    """Why the glyph has no drawing (one of :data:`UNDRAWN`), "" when it has one or the scan
    that met it did not say."""
    em: int = 0
    """How many of ``svg``'s units make the font's em (0: unknown)."""
    svg: str = ""
    """An SVG path of the glyph's outline (font units, y up), "" when the font has none."""

    def row(self) -> str:
        confidence = "" if self.confidence is None else f"{self.confidence:.3f}"
        values = (self.key, self.status, self.mapping, self.source, confidence, self.family, self.code,
                  self.standin, str(self.count), str(self.files), self.context, self.undrawn,
                  str(self.em) if self.em else "", self.svg)
        return "\t".join(escape(v) for v in values)


@attrs.define
class Registry:
    """The entries of a registry file, by key."""

    entries: dict[str, Entry] = attrs.field(factory=dict)

    def __len__(self) -> int:
        return len(self.entries)

    def __iter__(self) -> Iterator[Entry]:
        return iter(self.entries[key] for key in sorted(self.entries))

    def validated(self) -> dict[str, Entry]:
        return {key: e for key, e in self.entries.items() if e.status == "validated"}

    def unresolved(self) -> list[Entry]:
        return [e for e in self if e.status == "unresolved"]

    def merge(self, scanned: Iterable[Entry]) -> Registry:
        """This registry updated with a scan's entries (see the module docstring)."""
        out = dict(self.entries)
        for new in scanned:
            old = out.get(new.key)
            if old is None:
                out[new.key] = new
                continue
            svg, em = _drawing(old, new)
            undrawn = "" if svg else new.undrawn or old.undrawn
            if old.status == "validated":
                out[new.key] = attrs.evolve(old, count=new.count, files=new.files, standin=old.standin or new.standin,
                                            context=old.context or new.context, svg=svg, em=em, undrawn=undrawn)
            else:
                out[new.key] = attrs.evolve(new, context=old.context or new.context, svg=svg, em=em,
                                            undrawn=undrawn)
        return Registry(out)

    def validate(self, key: str, mapping: str) -> Entry:
        """Set ``key``'s character by hand: the entry becomes ``validated``.

        :raises RegistryUsageError: no entry has ``key``, or ``mapping`` is no answer (see
            :func:`check_mapping`).
        """
        check_mapping(mapping)
        entry = self.entries.get(key)
        if entry is None:
            raise RegistryUsageError(f"no entry {key!r} in the registry")
        entry = attrs.evolve(entry, mapping=mapping, status="validated", source="person", confidence=None)
        self.entries[key] = entry
        return entry

    def accept(self, min_confidence: float) -> list[Entry]:
        """Validate in bulk every ``shape`` proposal whose confidence is at least
        ``min_confidence`` (the proposal's character, its source and confidence kept, so the
        file says how it was validated). The entries accepted, in key order."""
        accepted = []
        for entry in self:
            if (entry.status == "proposed" and entry.source == "shape" and entry.confidence is not None
                    and entry.confidence >= min_confidence and entry.mapping):
                try:
                    check_mapping(entry.mapping)
                except RegistryUsageError:
                    continue
                entry = attrs.evolve(entry, status="validated")
                self.entries[entry.key] = entry
                accepted.append(entry)
        return accepted

    def text(self) -> str:
        lines = [MAGIC, "\t".join(COLUMNS), *(entry.row() for entry in self)]
        return "\n".join(lines) + "\n"


def _drawing(old: Entry, new: Entry) -> tuple[str, int]:
    """The drawing a merged entry keeps: the newer scan's when it has one with its em (a
    registry written before the ``em`` column gains it), else the older one's."""
    if new.svg and (new.em or not old.svg):
        return new.svg, new.em
    return (old.svg, old.em) if old.svg else (new.svg, new.em)


def check_mapping(mapping: str) -> None:
    """Refuse a character a person may not validate: one that is itself no answer (a weak
    one, rules: decoders: a Private Use Area character, U+FFFD, a control character such
    as a tab or a line end), a lone surrogate (an argument that was not UTF-8), or nothing
    at all. The decoder and ``repair`` would ignore such an entry, so validating it would only hide the glyph.

    :raises RegistryUsageError: naming the first offending character.
    """
    if not mapping:
        raise RegistryUsageError("a validated entry needs a character (give the text the glyph stands for)")
    for ch in mapping:
        cp = ord(ch)
        if 0xD800 <= cp <= 0xDFFF:
            why = "a lone surrogate: the text given was not valid UTF-8"
        elif is_weak_code_point(cp):
            why = ("a Private Use Area character: it names no character, it is what the registry replaces"
                   if cp >= 0xE000 and cp != 0xFFFD else
                   "U+FFFD, the replacement character, says the character is unknown" if cp == 0xFFFD else
                   "a control character (tab, line end and the like) is no character of text")
        else:
            continue
        raise RegistryUsageError(f"cannot validate {mapping!r}: U+{cp:04X} is {why}; give the character(s) "
                                 "the glyph stands for")


def read_registry(path: str | os.PathLike[str], *, missing_ok: bool = False) -> Registry:
    """The registry in ``path``.

    A file that does not exist is an error (a registry named wrongly must not read as an
    empty one that has nothing unresolved); ``missing_ok`` gives an empty registry instead,
    for the scan that creates it. Anything but a regular file (a folder, a FIFO, a device)
    is refused before it is opened: reading a FIFO would wait for ever.

    :raises RegistryUsageError: the file does not exist (and ``missing_ok`` is false).
    :raises RegistryError: the file cannot be read, or is not a valid registry (the
        message names the file, and the line).
    """
    try:
        status = os.stat(path)
    except FileNotFoundError:
        if missing_ok:
            return Registry()
        raise RegistryUsageError(f"{os.fspath(path)}: no such registry file (glyphweave scan creates one; "
                                 "check the path)") from None
    except OSError as exc:
        raise RegistryError(f"{os.fspath(path)}: cannot read ({exc.strerror})") from None
    if not stat.S_ISREG(status.st_mode):
        kind = "a folder" if stat.S_ISDIR(status.st_mode) else "not a regular file"
        raise RegistryError(f"{os.fspath(path)}: cannot read ({kind}; a registry is a TSV file)")
    try:
        data = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise RegistryError(f"{os.fspath(path)}: cannot read ({exc.strerror})") from None
    except UnicodeDecodeError as exc:
        raise RegistryError(f"{os.fspath(path)}: not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    return parse_registry(data, str(path))


def parse_registry(data: str, name: str = "<registry>") -> Registry:
    # Rows end at "\n" only (a "\r" before it, from an editor, is dropped): str.splitlines()
    # would also cut a row at U+0085 or U+2028, which a font name from a PDF may hold.
    lines = [line[:-1] if line.endswith("\r") else line for line in data.split("\n")]
    columns = _VERSIONS.get(lines[0].strip()) if lines else None
    if columns is None:
        raise RegistryError(f"{name}:1: not a glyphweave glyph registry (the first line must be {MAGIC!r})")
    if len(lines) < 2 or tuple(lines[1].split("\t")) != columns:
        raise RegistryError(f"{name}:2: the header must be the columns {', '.join(columns)} (tab-separated)")
    entries: dict[str, Entry] = {}
    for number, line in enumerate(lines[2:], 3):
        if not line.strip():
            continue
        where = f"{name}:{number}"
        cells = line.split("\t")
        if len(cells) != len(columns):
            raise RegistryError(f"{where}: {len(cells)} columns, expected {len(columns)}")
        row = dict.fromkeys(COLUMNS, "")
        row.update(zip(columns, (unescape(cell, where) for cell in cells), strict=True))
        key, status, mapping, source, confidence_text, family, code, standin, count, files, context, undrawn, em, svg = (
            row[column] for column in COLUMNS)
        if status not in STATUSES:
            raise RegistryError(f"{where}: status {status!r} is not one of {', '.join(STATUSES)}")
        if status == "validated" and not mapping:
            raise RegistryError(f"{where}: a validated entry without a mapping")
        try:
            n_count, n_files, n_em = int(count), int(files), int(em or 0)
        except ValueError:
            raise RegistryError(f"{where}: count, files and em must be whole numbers") from None
        if not 0 <= n_em <= 1_000_000:
            raise RegistryError(f"{where}: em {n_em} is not a number of units per em")
        if key in entries:
            raise RegistryError(f"{where}: key {key!r} appears twice")
        if undrawn and undrawn not in UNDRAWN:
            raise RegistryError(f"{where}: undrawn {undrawn!r} is not one of {', '.join(UNDRAWN)}")
        confidence = _confidence(confidence_text, where)
        entries[key] = Entry(key=key, status=status, mapping=mapping, source=source, confidence=confidence,
                             family=family, code=code, standin=standin,
                             count=n_count, files=n_files, context=context, undrawn=undrawn, em=n_em, svg=svg)
    return Registry(entries)


def _confidence(text: str, where: str) -> float | None:
    if not text:
        return None
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not 0.0 <= value <= 1.0:
        raise RegistryError(f"{where}: confidence {text!r} is not a number from 0 to 1")
    return value


def write_registry(path: str | os.PathLike[str], registry: Registry) -> None:
    """Write ``registry`` to ``path`` by :func:`glyphweave.files.write_text`: a regular file
    replaced atomically and flushed to disk first (a crash never leaves a registry empty),
    a symbolic link's target replaced and the link kept."""
    from glyphweave.files import write_text

    write_text(path, registry.text(), durable=True)


@contextlib.contextmanager
def locked(path: str | os.PathLike[str], wait: float = 600.0, stale: float = 3600.0) -> Iterator[None]:
    """Hold ``path.lock`` (created exclusively) for a read-merge-write of the registry, so
    two scans writing at once merge one after the other instead of losing entries.

    A writer waits up to ``wait`` seconds. A lock older than ``stale`` seconds was left by
    a killed process (a merge takes seconds): it is moved aside under a name of the
    taker's own, so of several waiters only one takes it over, and then removed.
    """
    lock = f"{os.path.realpath(path)}.lock"  # one lock whatever name (a link, say) a writer used
    deadline = time.monotonic() + wait
    while True:
        try:
            fd = os.open(lock, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
            os.write(fd, str(os.getpid()).encode())
            os.close(fd)
            break
        except OSError as exc:
            if exc.errno != errno.EEXIST:
                raise RegistryError(f"{lock}: cannot lock the registry ({exc.strerror})") from None
        with contextlib.suppress(OSError):
            if time.time() - os.stat(lock).st_mtime > stale:
                aside = f"{lock}.stale-{os.getpid()}-{time.monotonic_ns()}"
                os.rename(lock, aside)  # only one waiter's rename finds the stale lock
                os.unlink(aside)
                continue
        if time.monotonic() > deadline:
            raise RegistryError(f"{lock}: the registry is locked by another scan (remove the lock if none runs)")
        time.sleep(0.05)
    try:
        yield
    finally:
        with contextlib.suppress(OSError):
            os.unlink(lock)


def update_registry(path: str | os.PathLike[str], scanned: Iterable[Entry]) -> Registry:
    """Merge ``scanned`` into the registry file at ``path`` under its lock (a new file
    when there is none yet: the scan creates the registry); the result."""
    scanned = list(scanned)
    with locked(path):
        merged = read_registry(path, missing_ok=True).merge(scanned)
        write_registry(path, merged)
    return merged
