"""``clean(text, registry)`` and ``repair``: the registry applied to text already extracted
(rules: the glyph registry).

The glyph-map decoder applies validated entries while a PDF is read. Text extracted
before an entry was validated, or by another tool, can only be fixed where the glyph left
a trace that names it. That trace is the *stand-in*:

* An unresolved glyph shows as the profile's placeholder (a space, U+FFFD or nothing).
  A placeholder says nothing about which glyph it was, so it can **not** be mapped back.
* A glyph of a symbol font shows, in the output of older extractors, Word's own export
  and many other tools, as a Private Use Area character: the Microsoft symbol convention
  puts a font's one-byte code ``c`` at U+F000 + ``c`` (Wingdings code 0x6C shows as
  U+F06C). Such a character *is* mappable: for every validated entry whose code is one
  byte, U+F000 + code stands for that entry's character. An entry whose code is itself a
  Private Use code point (a two-byte code U+E000-U+F8FF, as a font built from a symbol cmap
  writes) stands in for itself too.

Only validated entries are applied (a proposed character is a suggestion, not a fact). A
stand-in claimed by two validated entries with different characters (Wingdings and
Webdings both at 0x6C, say) is ambiguous: the text does not say which font painted it, so
it is left alone and listed (:attr:`StandIns.ambiguous`). An entry whose character is
itself weak (Private Use, U+FFFD, a control character) is skipped. Every stand-in is a
Private Use character and no replacement contains one, so cleaning twice changes nothing.

* A glyph whose font's /ToUnicode gives it a Private Use character leaves that character
  in other tools' output, whatever its code: Word's SymbolMT subsets paint code 0x01 and
  map it to U+F0B7. The scan records it as the entry's ``standin``, and it stands for the
  entry's character too.

* Adobe's Symbol font has glyphs its glyph list gave Private Use code points, for want of
  standard characters then: the sans-serif ©, ® and ™ (U+F8E8-U+F8EA), the serif ones
  (U+F6D9-U+F6DB), and the pieces of tall brackets and braces (U+F8E5-U+F8FE). pdftotext
  and other tools print those code points. They stand for the characters the symbol tables
  give the glyphs (©, ®, ™, U+239B-U+23AD ...), in every text, with no registry entry:
  Adobe's list fixes them. A validated entry that claims one of them wins. They are
  counted under ``adobe-symbol:NAME``.

The look-alike rules (:mod:`.lookalikes`) run after the registry when asked
(``lookalikes=True``; off by default, they change characters no registry entry names).

The translation table is built once per registry content and cached (:func:`stand_ins`);
text with no Private Use character (and, with look-alikes, none of their candidates) is
returned as it is after one regular-expression scan, and otherwise each stand-in present is
replaced with one ``str.replace`` (about 0.06 s for 10 MB of text, where ``str.translate``,
which has a fast path for ASCII only, takes 0.4 s).
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import re
import shutil
import stat
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

import attrs

from glyphweave.core.decoding import is_weak
from glyphweave.core.errors import UsageError
from glyphweave.files import TEMP_PREFIX, check_not_input, write_bytes

from .lookalikes import apply_lookalikes
from .manifests import MANIFEST, ManifestUpdate, Rewritten, json_lines, sha256_of, update_manifests
from .registry import Registry

PUA_FIRST, PUA_LAST = 0xE000, 0xF8FF
MS_SYMBOL_BASE = 0xF000
"""The Microsoft symbol convention: a symbol font's one-byte code ``c`` at U+F000 + ``c``."""

TEXT_SUFFIXES = (".txt", ".jsonl")
"""What ``repair`` takes from a folder (files named on their own are taken whatever their name)."""

_PUA_RE = re.compile(f"[\\u{PUA_FIRST:04x}-\\u{PUA_LAST:04x}]")
_LOOKALIKE_KEY = "lookalike:"


# -- stand-ins ------------------------------------------------------------------------------


def stand_ins_of(code: str) -> list[str]:
    """The characters that stand for the glyph of code ``code`` (hex, as the registry
    writes it) in extracted text: U+F000 + code for a one-byte code, the code point itself
    for a code in the Private Use Area; none for any other code."""
    try:
        value = int(code, 16)
    except ValueError:
        return []
    found = []
    if len(code) == 2:
        found.append(chr(MS_SYMBOL_BASE + value))
    if PUA_FIRST <= value <= PUA_LAST:
        found.append(chr(value))
    return found


@attrs.frozen
class StandIns:
    """The translation a registry gives extracted text."""

    table: dict[int, str]
    """Stand-in code point → replacement, for :meth:`str.translate`."""
    keys: dict[str, tuple[str, ...]]
    """Stand-in character → the keys of the validated entries it stands for."""
    ambiguous: dict[str, tuple[str, ...]]
    """Stand-ins claimed by validated entries with different characters: left alone."""

    @functools.cached_property
    def pattern(self) -> re.Pattern[str] | None:
        """Matches any stand-in (None when there are none)."""
        if not self.table:
            return None
        return re.compile("[" + "".join(re.escape(chr(cp)) for cp in sorted(self.table)) + "]")


def stand_ins(registry: Registry) -> StandIns:
    """The stand-ins of ``registry``'s validated entries (see the module docstring),
    cached by the validated entries' content."""
    fingerprint = tuple((e.key, e.code, e.mapping, e.standin) for e in registry.entries.values()
                        if e.status == "validated")
    return _stand_ins(fingerprint)


@functools.lru_cache(maxsize=16)
def _stand_ins(validated: tuple[tuple[str, str, str, str], ...]) -> StandIns:
    claims: dict[str, dict[str, list[str]]] = {}
    for key, code, mapping, standin in sorted(validated):
        if not mapping or is_weak(mapping):
            continue
        recorded = [standin] if len(standin) == 1 and PUA_FIRST <= ord(standin) <= PUA_LAST else []
        for ch in dict.fromkeys([*stand_ins_of(code.strip().lower()), *recorded]):
            claims.setdefault(ch, {}).setdefault(mapping, []).append(key)
    table: dict[int, str] = {}
    keys: dict[str, tuple[str, ...]] = {}
    ambiguous: dict[str, tuple[str, ...]] = {}
    for ch, by_mapping in sorted(claims.items()):
        claimants = tuple(sorted(k for ks in by_mapping.values() for k in ks))
        if len(by_mapping) > 1:
            ambiguous[ch] = claimants
            continue
        (mapping,) = by_mapping
        table[ord(ch)] = mapping
        keys[ch] = claimants
    for ch, (name, text) in adobe_symbol_stand_ins().items():
        if ch not in claims:
            table[ord(ch)] = text
            keys[ch] = (f"{ADOBE_SYMBOL_KEY}{name}",)
    return StandIns(table=table, keys=keys, ambiguous=ambiguous)


ADOBE_SYMBOL_KEY = "adobe-symbol:"
"""How ``repair`` counts the replacements of Adobe's Symbol Private Use code points."""


@functools.cache
def adobe_symbol_stand_ins() -> dict[str, tuple[str, str]]:
    """Adobe's Private Use code points of Symbol glyphs (its glyph list, as fontTools keeps
    it) → (glyph name, the character the symbol tables give the glyph)."""
    from fontTools.agl import LEGACY_AGL2UV

    from glyphweave.tables.symbols import symbol_tables

    found: dict[str, tuple[str, str]] = {}
    for name, text in symbol_tables().symbol_overrides.items():
        if not text or is_weak(text):
            continue
        for point in LEGACY_AGL2UV.get(name, ()):
            if PUA_FIRST <= point <= PUA_LAST:
                found[chr(point)] = (name, text)
    return found


# -- clean ----------------------------------------------------------------------------------


def clean(text: str, registry: Registry, *, lookalikes: bool = False) -> str:
    """``text`` with every stand-in of ``registry``'s validated entries replaced by the
    entry's character, then (``lookalikes``) the look-alike rules applied. Idempotent:
    ``clean(clean(t, r), r) == clean(t, r)``."""
    return _clean_counted(text, stand_ins(registry), lookalikes)[0]


def _clean_counted(text: str, subs: StandIns, lookalikes: bool) -> tuple[str, Counter[str]]:
    """The cleaned text and how many replacements each key (``lookalike:RULE`` for the
    look-alike rules) made."""
    counts: Counter[str] = Counter()
    pattern = subs.pattern
    if pattern is not None and _PUA_RE.search(text):
        found = Counter(pattern.findall(text))
        if found:
            # One str.replace per stand-in present: the same result as str.translate (no
            # replacement holds a stand-in) and several times faster on non-ASCII text.
            for ch in found:
                text = text.replace(ch, subs.table[ord(ch)])
            for ch, n in found.items():
                for key in subs.keys[ch]:
                    counts[key] += n
    if lookalikes:
        text, rules = apply_lookalikes(text)
        for rule, n in rules.items():
            counts[_LOOKALIKE_KEY + rule] += n
    return text, counts


def _clean_json(value: Any, subs: StandIns, lookalikes: bool, counts: Counter[str]) -> Any:
    """A JSON value with every string in it (not the object keys) cleaned."""
    if isinstance(value, str):
        new, found = _clean_counted(value, subs, lookalikes)
        counts.update(found)
        return new
    if isinstance(value, list):
        return [_clean_json(v, subs, lookalikes, counts) for v in value]
    if isinstance(value, dict):
        return {k: _clean_json(v, subs, lookalikes, counts) for k, v in value.items()}
    return value


def _clean_jsonl(data: str, subs: StandIns, lookalikes: bool) -> tuple[str, Counter[str]]:
    """JSON lines cleaned value by value (a replacement such as ``"`` cannot break a line),
    each changed line written back in its style (``\\u`` escapes or not); a line that is
    not JSON is cleaned as text; unchanged lines keep their bytes."""
    counts: Counter[str] = Counter()
    out: list[str] = []
    for line in json_lines(data):
        body = line.rstrip("\r\n")
        try:
            value = json.loads(body) if body.strip() else None
        except ValueError:
            new, found = _clean_counted(body, subs, lookalikes)
            counts.update(found)
            out.append(new + line[len(body):])
            continue
        line_counts: Counter[str] = Counter()
        new_value = _clean_json(value, subs, lookalikes, line_counts)
        if not line_counts:
            out.append(line)
            continue
        counts.update(line_counts)
        out.append(json.dumps(new_value, ensure_ascii=body.isascii()) + line[len(body):])
    return "".join(out), counts


# -- repair ---------------------------------------------------------------------------------


@attrs.frozen(kw_only=True)
class FileRepair:
    """What ``repair`` did to one file."""

    path: str
    replacements: int = 0
    keys: dict[str, int] = attrs.field(factory=dict)
    """Key (``lookalike:RULE`` for a look-alike rule) → replacements it made."""
    backup: str | None = None
    """Where the original was saved (None when the file did not change, or in a dry run)."""
    error: str | None = None
    """Why the file could not be repaired (it is left as it was)."""

    @property
    def changed(self) -> bool:
        return self.replacements > 0 and self.error is None

    def to_dict(self) -> dict[str, Any]:
        record: dict[str, Any] = {"path": self.path, "replacements": self.replacements, "keys": dict(self.keys)}
        if self.backup is not None:
            record["backup"] = self.backup
        if self.error is not None:
            record["error"] = self.error
        return record


@attrs.frozen(kw_only=True)
class RepairReport:
    """What ``repair`` did: each file it read, in order, and the totals."""

    files: tuple[FileRepair, ...]
    dry_run: bool = False
    manifests: tuple[ManifestUpdate, ...] = ()
    """The batch manifests whose hashes were updated for the files rewritten (or, in a dry
    run, would be), and those that could not be (see :mod:`.manifests`)."""

    @property
    def changed(self) -> list[FileRepair]:
        return [f for f in self.files if f.changed]

    @property
    def failed(self) -> list[FileRepair]:
        return [f for f in self.files if f.error is not None]

    @property
    def failed_manifests(self) -> list[ManifestUpdate]:
        return [m for m in self.manifests if m.error is not None]

    @property
    def replacements(self) -> int:
        return sum(f.replacements for f in self.files if f.error is None)

    @property
    def keys(self) -> dict[str, int]:
        total: Counter[str] = Counter()
        for f in self.files:
            if f.error is None:
                total.update(f.keys)
        return dict(sorted(total.items()))

    def to_dict(self) -> dict[str, Any]:
        """The report as JSON-friendly values: the changed and failed files, and the totals."""
        return {
            "dry_run": self.dry_run,
            "files": len(self.files),
            "changed": [f.to_dict() for f in self.changed],
            "failed": [f.to_dict() for f in self.failed],
            "replacements": self.replacements,
            "keys": self.keys,
            "manifests": [m.to_dict() for m in self.manifests],
        }


def repair(paths: Sequence[str], registry: Registry, *, dry_run: bool = False, backup_suffix: str = ".bak",
           lookalikes: bool = False, inputs: Iterable[str | os.PathLike[str]] = ()) -> RepairReport:
    """Clean already extracted text files with ``registry`` (see :func:`clean`).

    ``paths`` are files (taken whatever their name) or folders (their ``*.txt`` and
    ``*.jsonl`` files, recursively, in sorted order; a batch's ``manifest.jsonl`` is not
    extracted text and is left out). Each file is read as UTF-8; a ``.jsonl`` file is
    cleaned value by value. Only a file that changes is written: first a copy of the
    original beside it (``NAME.bak``, or ``NAME.bak.1``, ``NAME.bak.2``, ... when a backup
    exists: one is never overwritten), then the cleaned text, atomically, both through
    :mod:`glyphweave.files` (a link's target is rewritten and the link kept). ``dry_run``
    writes nothing and reports what would change. A file that cannot be read, is not UTF-8,
    is not a regular file, is one of ``inputs`` (the registry file itself) or cannot be
    written is reported with the reason and left as it was; the others go on. Running it
    twice changes nothing the second time.

    A batch manifest above a rewritten file gets the new SHA-256 of that file (see
    :mod:`.manifests`), so the batch's record stays true.
    """
    subs = stand_ins(registry)
    inputs = tuple(inputs)
    results: list[FileRepair] = []
    rewritten: list[Rewritten] = []
    for path in _text_files(paths, results, inputs):
        try:
            raw = _read_bytes(path)
            data = _decode(raw)
        except ValueError as exc:
            results.append(FileRepair(path=path, error=str(exc)))
            continue
        if path.endswith(".jsonl"):
            new, counts = _clean_jsonl(data, subs, lookalikes)
        else:
            new, counts = _clean_counted(data, subs, lookalikes)
        if new == data:
            results.append(FileRepair(path=path))
            continue
        keys = dict(sorted(counts.items()))
        replacements = sum(counts.values())
        encoded = new.encode("utf-8")
        change = Rewritten(path=path, old_sha256=sha256_of(raw), new_sha256=sha256_of(encoded))
        if dry_run:
            results.append(FileRepair(path=path, replacements=replacements, keys=keys))
            rewritten.append(change)
            continue
        try:
            backup = _write_backup(path, raw, backup_suffix)
            write_bytes(path, encoded, inputs=inputs, durable=True)
        except (OSError, UsageError) as exc:
            reason = (exc.strerror or str(exc)) if isinstance(exc, OSError) else str(exc)
            results.append(FileRepair(path=path, error=f"cannot write ({reason})"))
            continue
        results.append(FileRepair(path=path, replacements=replacements, keys=keys, backup=backup))
        rewritten.append(change)
    manifests = update_manifests(rewritten, dry_run=dry_run)
    return RepairReport(files=tuple(results), dry_run=dry_run, manifests=tuple(manifests))


def _text_files(paths: Sequence[str], failures: list[FileRepair],
                inputs: tuple[str | os.PathLike[str], ...]) -> Iterator[str]:
    """The files to repair, each once. A path that does not exist, is not a regular file
    (a FIFO would block the read), is one of ``inputs`` or is a batch manifest is a failure
    when named on its own; a folder's walk passes over them."""
    seen: set[str] = set()

    def once(path: str) -> bool:
        real = os.path.realpath(path)
        if real in seen:
            return False
        seen.add(real)
        return True

    def refused(path: str) -> str | None:
        try:
            check_not_input(path, inputs)
        except UsageError:
            return "it is an input of this command (the registry); not repaired"
        if os.path.basename(path) == MANIFEST:
            return "a batch manifest, not extracted text; not repaired (repair updates its hashes itself)"
        return None

    for given in paths:
        path = os.fspath(given)
        if os.path.isdir(path):
            for folder, dirs, names in os.walk(path):
                dirs.sort()
                for name in sorted(names):
                    if name.endswith(TEXT_SUFFIXES) and not name.startswith(TEMP_PREFIX):
                        full = os.path.join(folder, name)
                        if os.path.isfile(full) and refused(full) is None and once(full):
                            yield full
            continue
        try:
            mode = os.stat(path).st_mode
        except FileNotFoundError:
            failures.append(FileRepair(path=path, error="no such file or folder"))
            continue
        except OSError as exc:
            failures.append(FileRepair(path=path, error=f"cannot read ({exc.strerror or exc})"))
            continue
        if not stat.S_ISREG(mode):
            failures.append(FileRepair(path=path, error="not a regular file (a FIFO, device or socket); not repaired"))
            continue
        reason = refused(path)
        if reason is not None:
            failures.append(FileRepair(path=path, error=reason))
        elif once(path):
            yield path


def _read_bytes(path: str) -> bytes:
    try:
        with open(path, "rb") as stream:
            return stream.read()
    except OSError as exc:
        raise ValueError(f"cannot read ({exc.strerror or exc})") from None


def _decode(data: bytes) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ValueError(f"not UTF-8 text ({exc.reason} at byte {exc.start})") from None


def _write_backup(path: str, original: bytes, suffix: str) -> str:
    """Save ``original`` (the bytes repair read from ``path``) as ``path + suffix`` (or
    ``.1``, ``.2``, ... after it when taken); the backup's name.

    The name is claimed by creating it exclusively, so an existing backup (or a link, FIFO
    or device of that name) is never touched; the content then replaces the empty claim
    through :func:`glyphweave.files.write_bytes`, and the original's mode and times are
    copied. A failure removes the claim.
    """
    base = path + suffix
    number = 0
    while True:
        backup = base if number == 0 else f"{base}.{number}"
        try:
            os.close(os.open(backup, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0), 0o600))
        except FileExistsError:
            number += 1
            continue
        try:
            write_bytes(backup, original, inputs=[path], durable=True)
            shutil.copystat(path, backup)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(backup)
            raise
        return backup
