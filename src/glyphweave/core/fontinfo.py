"""What the core knows about one font, as plain values a decoder can read.

Built once per font object per document by the PDF engine (keyed by the object's
id/generation, never by ``id()`` of a pikepdf wrapper). Expensive parts (the ToUnicode
CMap, the embedded font program) are loaded lazily on first access.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

import attrs


class CodeToText(Protocol):
    """A parsed /ToUnicode CMap, as decoders see it."""

    def to_unicode(self, code: bytes) -> str | None:
        """The text the CMap gives ``code`` (a whole character code), or None."""


def split_subset_prefix(base_font: str) -> tuple[str, str]:
    """``ABCDEF+Times-Roman`` → (``ABCDEF``, ``Times-Roman``): a subset tag is six capital
    ASCII letters and a plus sign (ISO 32000-1 §9.6.4). Names without one: (``""``, name)."""
    tag = base_font[:6]
    if len(base_font) > 7 and base_font[6] == "+" and tag.isascii() and tag.isalpha() and tag.isupper():
        return tag, base_font[7:]
    return "", base_font


def strip_subset_prefix(base_font: str) -> str:
    """The font name without its subset tag (see :func:`split_subset_prefix`)."""
    return split_subset_prefix(base_font)[1]


_UNLOADED = object()

FLAG_SYMBOLIC = 1 << 2
FLAG_NONSYMBOLIC = 1 << 5


@attrs.define(kw_only=True, eq=False)
class FontInfo:
    """One font of a document.

    Decoders read the public fields; ``memo`` is a per-font scratch space where a
    decoder may cache what it derived (keyed by its own NAME).
    """

    key: tuple[Any, ...]
    """Identity within the document (object number and generation)."""
    base_font: str
    """/BaseFont without a subset prefix (``ABCDEF+``)."""
    subset_prefix: str = ""
    subtype: str = ""
    """/Subtype of the font dictionary: Type1, MMType1, TrueType, Type3 or Type0."""
    descendant_subtype: str = ""
    """For Type0: CIDFontType0 or CIDFontType2."""
    composite: bool = False
    writing_mode: int = 0
    flags: int = 0
    """/Flags of the font descriptor (0 when absent)."""
    base_encoding: str | None = None
    """Name of the /Encoding (or its /BaseEncoding): WinAnsiEncoding, MacRomanEncoding, ..."""
    differences: dict[int, str] = attrs.field(factory=dict)
    """/Differences: code → glyph name."""
    encoding_cmap_name: str | None = None
    """Composite fonts: name of the /Encoding CMap (Identity-H, UniJIS-UCS2-H, ...)."""
    cid_system_info: tuple[str, str, int] | None = None
    """Composite fonts: (Registry, Ordering, Supplement)."""
    embedded: bool = False
    font_file_kind: str | None = None
    """FontFile (Type1), FontFile2 (TrueType) or the /Subtype of FontFile3."""
    memo: dict[str, Any] = attrs.field(factory=dict)
    type3_glyphs: tuple[str, ...] = ()
    """Type3: the names of its glyph procedures (/CharProcs)."""
    charproc: Callable[[str], Any] | None = attrs.field(default=None, repr=False)
    """Type3: a procedure's name → what it paints, in em (``pdf.charprocs.Painted``), or None."""
    _to_unicode_loader: Callable[[], CodeToText | None] | None = attrs.field(default=None, alias="to_unicode_loader")
    _cid_to_gid_loader: Callable[[], bytes | None] | None = attrs.field(default=None, alias="cid_to_gid_loader")
    _font_file_loader: Callable[[], bytes | None] | None = attrs.field(default=None, alias="font_file_loader")
    _to_unicode: Any = attrs.field(default=_UNLOADED, init=False, repr=False)
    _font_file: Any = attrs.field(default=_UNLOADED, init=False, repr=False)
    _cid_to_gid: Any = attrs.field(default=_UNLOADED, init=False, repr=False)

    @property
    def symbolic(self) -> bool:
        """The descriptor says the font uses symbols outside the standard Latin set."""
        return bool(self.flags & FLAG_SYMBOLIC)

    @property
    def to_unicode(self) -> CodeToText | None:
        """The parsed /ToUnicode CMap, or None (a broken one is None with a warning)."""
        if self._to_unicode is _UNLOADED:
            self._to_unicode = self._to_unicode_loader() if self._to_unicode_loader else None
        return self._to_unicode

    def font_file(self) -> bytes | None:
        """The decoded embedded font program, or None when not embedded or unreadable."""
        if self._font_file is _UNLOADED:
            self._font_file = self._font_file_loader() if self._font_file_loader else None
        return self._font_file

    def cid_to_gid_map(self) -> bytes | None:
        """CIDFontType2: the /CIDToGIDMap stream (2 bytes big-endian per CID), or None
        when the map is /Identity or absent (then GID = CID)."""
        if self._cid_to_gid is _UNLOADED:
            self._cid_to_gid = self._cid_to_gid_loader() if self._cid_to_gid_loader else None
        return self._cid_to_gid
