"""Batch manifests kept true when ``repair`` rewrites the outputs they describe.

``glyphweave batch`` records each output's SHA-256 in ``manifest.jsonl`` in its output
folder (one JSON object a line: ``output``, ``sha256`` among its fields), so that a later
reader can check an output is the one extracted. ``repair`` rewrites outputs in place;
without this module every file it fixed would then fail that check.

For each file repair rewrote, the manifests in its folder and every folder above it are
read, and a line is updated when it names the file and holds the hash of the bytes repair
replaced: its ``output`` path ends with the file's path below the manifest's folder (the
batch wrote it relative to wherever it ran, so only the tail can be compared) and its
``sha256`` is that of the old content. Lines that do not match, and lines that are not
JSON, are kept byte for byte. A manifest is rewritten once, through
:func:`glyphweave.files.write_text`, and only when a line changed.

A manifest written elsewhere (``batch --manifest FILE``) is not found: update it by
re-hashing, or keep it next to the outputs. Do not repair a folder a batch is still writing.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterable
from pathlib import PurePath

import attrs

from glyphweave.batch.names import MANIFEST
from glyphweave.core.errors import GlyphweaveError

__all__ = ["MANIFEST", "ManifestUpdate", "Rewritten", "json_lines", "sha256_of", "update_manifests"]


def sha256_of(data: bytes) -> str:
    """The digest a batch manifest records for an output of these bytes."""
    return hashlib.sha256(data).hexdigest()


@attrs.frozen
class Rewritten:
    """A file repair changed: where, and the digests of its old and new bytes."""

    path: str
    old_sha256: str
    new_sha256: str


@attrs.frozen(kw_only=True)
class ManifestUpdate:
    """What became of one manifest: how many of its lines got a new hash, or why it could
    not be rewritten (its lines then still hold the old hashes)."""

    path: str
    updated: int = 0
    error: str | None = None

    def to_dict(self) -> dict[str, object]:
        record: dict[str, object] = {"path": self.path, "updated": self.updated}
        if self.error is not None:
            record["error"] = self.error
        return record


def update_manifests(rewritten: Iterable[Rewritten], *, dry_run: bool = False) -> list[ManifestUpdate]:
    """Give the lines of the manifests above each rewritten file their new hash (see the
    module docstring); one update per manifest that names any of the files, in path order.
    ``dry_run`` counts the lines without writing."""
    by_manifest: dict[str, list[tuple[tuple[str, ...], Rewritten]]] = {}
    has_manifest: dict[str, bool] = {}  # folder -> whether it holds one (a folder's files share their parents)
    for change in rewritten:
        real = os.path.realpath(change.path)
        folder = os.path.dirname(real)
        while True:
            manifest = os.path.join(folder, MANIFEST)
            if folder not in has_manifest:
                has_manifest[folder] = os.path.isfile(manifest)
            if has_manifest[folder]:
                below = PurePath(os.path.relpath(real, folder)).parts
                by_manifest.setdefault(manifest, []).append((below, change))
            parent = os.path.dirname(folder)
            if parent == folder:
                break
            folder = parent
    updates = []
    for manifest, changes in sorted(by_manifest.items()):
        update = _update_one(manifest, changes, dry_run)
        if update.updated or update.error:
            updates.append(update)
    return updates


def json_lines(data: str) -> list[str]:
    """``data`` cut after each ``"\n"``, each line keeping its end. Not
    :meth:`str.splitlines`, which also cuts at U+2028, U+0085 and the like, characters a JSON
    line written with ``ensure_ascii=False`` may hold inside a string."""
    lines = [line + "\n" for line in data.split("\n")]
    lines[-1] = lines[-1][:-1]
    return lines if lines[-1] else lines[:-1]


def _update_one(manifest: str, changes: list[tuple[tuple[str, ...], Rewritten]], dry_run: bool) -> ManifestUpdate:
    from glyphweave.files import write_text

    try:
        with open(manifest, encoding="utf-8", newline="") as stream:
            lines = json_lines(stream.read())
    except (OSError, UnicodeDecodeError) as exc:
        reason = getattr(exc, "strerror", None) or str(exc)
        return ManifestUpdate(path=manifest, error=f"cannot read ({reason}): its hashes were not updated")
    by_hash: dict[str, list[tuple[tuple[str, ...], Rewritten]]] = {}
    for below, change in changes:
        by_hash.setdefault(change.old_sha256, []).append((below, change))
    updated = 0
    for number, line in enumerate(lines):
        body = line.rstrip("\r\n")
        try:
            entry = json.loads(body)
        except ValueError:
            continue
        if not isinstance(entry, dict) or not isinstance(entry.get("output"), str):
            continue
        digest = entry.get("sha256")
        for below, change in by_hash.get(digest, []) if isinstance(digest, str) else []:
            if PurePath(entry["output"]).parts[-len(below):] == below:
                entry["sha256"] = change.new_sha256
                lines[number] = json.dumps(entry, ensure_ascii=False) + line[len(body):]
                updated += 1
                break
    if updated and not dry_run:
        try:
            write_text(manifest, "".join(lines), durable=True)
        except (OSError, GlyphweaveError) as exc:
            reason = getattr(exc, "strerror", None) or str(exc)
            return ManifestUpdate(path=manifest, error=f"cannot write ({reason}): its hashes were not updated")
    return ManifestUpdate(path=manifest, updated=updated)
