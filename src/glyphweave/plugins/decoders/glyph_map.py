"""``glyph-map``: the characters a person validated in the glyph registry (rules: decoders,
the glyph registry).

``glyphweave scan`` gathers the glyphs no table could read (or read only from a Private
Use code) into a registry file; a person validates an entry once (``glyphweave registry
validate KEY CHAR``, or by editing the TSV), and from then on this decoder answers that
character for every glyph with the entry's key, in every document.

The key is computed exactly as the scan computes it (:mod:`glyphweave.glyphmap.keys`):
the font's family (:func:`~glyphweave.glyphmap.keys.family_of`: subset tag, style and
vendor suffix dropped) and, when the embedded font program draws the glyph, the hash of its
outline (``FAMILY/o:HASH``: the same glyph in any subset, whatever its code there; a Type3
glyph's is what its glyph procedure paints), else the character code (``FAMILY/c:CODE``: fonts
not embedded, empty glyphs, unreadable programs and procedures).
Only ``validated`` entries answer: a ``proposed`` character is a suggestion a person has
not confirmed. The outline is drawn only for fonts whose family the registry names.

Using it is a profile choice: the built-in ``registry`` profile puts it right after
``tounicode``, ahead of every built-in table, and a profile of one's own sets the file::

    [profile]
    extends = "registry"

    [options.glyph-map]
    registry = "glyphweave-registry.tsv"

A relative path is taken from the folder of the profile file that sets it (the option is
declared ``Option(path=True)``; see :mod:`glyphweave.components.profile`), as ``extends`` is,
so the profile works from any working directory; a profile given as text, not as a file,
leaves it relative to the working directory. The file is read once per process
(and again only when its modification time or size changes). A path that is set but names
a missing, unreadable or malformed registry is a profile mistake: building the decoder
fails with a :class:`~glyphweave.plugin.ProfileError` naming the file (and the line). With
no path (the default) the decoder answers nothing. Decoding itself never raises.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Mapping
from typing import Any, ClassVar

import attrs

from glyphweave.glyphmap.keys import code_hex, family_of, make_key
from glyphweave.plugin import Decoder, FontInfo, Option, ProfileError, hookimpl, is_weak

_MEMO_KEY = "glyph-map:family"


@attrs.frozen
class ValidatedMap:
    """A registry's validated entries as the decoder reads them."""

    mappings: Mapping[str, str]
    """Key → the validated character(s)."""
    families: frozenset[str]
    """The families any validated entry names (a font of another family is not looked at)."""

    @classmethod
    def from_entries(cls, entries: Any) -> ValidatedMap:
        mappings = {e.key: e.mapping for e in entries if e.status == "validated" and e.mapping and not is_weak(e.mapping)}
        return cls(mappings=mappings, families=frozenset(key.rsplit("/", 1)[0] for key in mappings))


EMPTY = ValidatedMap(mappings={}, families=frozenset())

_cache: dict[str, tuple[tuple[int, int], ValidatedMap]] = {}
_cache_lock = threading.Lock()


def load_validated(path: str) -> ValidatedMap:
    """The validated entries of the registry file at ``path``, read once per process while
    the file's modification time and size stay the same.

    :raises ProfileError: the file is missing, unreadable or not a valid registry (the
        message names the file, and the line for a bad row).
    """
    where = "option 'registry' of decoder 'glyph-map'"
    full = os.path.abspath(path)
    try:
        stat = os.stat(full)
    except OSError as exc:
        reason = "not found" if isinstance(exc, FileNotFoundError) else (exc.strerror or str(exc))
        raise ProfileError(f"{where}: registry file {path}: {reason}") from None
    if not os.path.isfile(full):
        raise ProfileError(f"{where}: registry file {path}: not a file")
    stamp = (stat.st_mtime_ns, stat.st_size)
    with _cache_lock:
        cached = _cache.get(full)
    if cached is not None and cached[0] == stamp:
        return cached[1]
    from glyphweave.glyphmap.registry import RegistryError, read_registry  # only where a registry is set

    try:
        registry = read_registry(full)
    except RegistryError as exc:
        raise ProfileError(f"{where}: {exc}") from None
    validated = ValidatedMap.from_entries(registry.entries.values())
    with _cache_lock:
        _cache[full] = (stamp, validated)
    return validated


def _outline_hash(font: FontInfo, code: bytes, cid: int | None) -> str | None:
    """The hash of the glyph's outline, as the scan computes it; None without one (or
    without the outline module)."""
    try:
        from glyphweave.glyphmap.outline import draw_glyph
    except ImportError:
        return None
    try:
        drawing = draw_glyph(font, code, cid)
    except Exception:  # a broken font program: the code key, as the scan would use
        return None
    return getattr(drawing, "hash", None) or None


class GlyphMapDecoder(Decoder):
    """Characters validated by hand in a glyph registry file (option ``registry``).

    Looks the glyph up by the registry's key (font family and outline hash, or font family
    and code when the font has no outline) and answers the validated character; proposed
    and unresolved entries are ignored. Place it after ``tounicode`` and before the
    built-in tables (the ``registry`` profile does).
    """

    NAME = "glyph-map"
    OPTIONS: ClassVar[Mapping[str, Option]] = {
        "registry": Option(
            default="",
            path=True,
            doc=(
                "Path of the glyph registry TSV (glyphweave scan writes it; a relative path is taken "
                "from the folder of the profile file that sets it). Empty: no registry, the decoder "
                "answers nothing. A missing or malformed file is an error when the profile is loaded."
            ),
        ),
    }

    registry: str

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self._validated = load_validated(self.registry) if self.registry else EMPTY

    @property
    def validated(self) -> ValidatedMap:
        """The validated entries this decoder answers from."""
        return self._validated

    def decode(self, font: FontInfo, code: bytes, cid: int | None) -> str | None:
        validated = self._validated
        if not validated.mappings:
            return None
        family = font.memo.get(_MEMO_KEY)
        if family is None:
            family = font.memo[_MEMO_KEY] = family_of(font.base_font)
        if family not in validated.families:
            return None
        key = make_key(family, code_hex(code), _outline_hash(font, code, cid))
        return validated.mappings.get(key)


@hookimpl
def glyphweave_register_decoders() -> list[type[Decoder]]:
    return [GlyphMapDecoder]
