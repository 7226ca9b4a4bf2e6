"""Character maps of an embedded TrueType/OpenType program, bounded before fontTools reads them.

fontTools expands a 'cmap' subtable into one dictionary entry per code it declares, whatever
the font's size: a 372-byte TrueType whose format 12 group runs over 0..0xFFFFFF cost 445 MB
and 15 s to read. :func:`bounded_cmaps` counts, from the raw bytes and without
fontTools, the codes each subtable of the 'cmap' (and 'DMAP', which has the same layout and
which fontTools reads to name glyphs) declares, and takes out of the table's directory the
subtables past :data:`MAX_SUBTABLE_CODES` or past :data:`MAX_FONT_CODES` for the whole
program, so fontTools never sees them. Everything else is left byte for byte as it was:
a program within the bounds (every real one) is returned unchanged.

The counts follow the OpenType 'cmap' chapter, format by format, and are what fontTools
would iterate over (a format 4 segment counts its whole range even where segments overlap;
a format 2 subheader counts once per high byte that uses it). Formats 0 and 6 are small
by construction; 8 and 10 are counted although fontTools leaves them unexpanded.

:func:`fonttools_log_to_debug` keeps fontTools' own log lines (about damage it recovered
from) off standard error while glyphweave parses a program.
"""

from __future__ import annotations

import contextlib
import logging
import struct
import threading
from collections.abc import Iterator

import attrs

__all__ = ["MAX_FONT_CODES", "MAX_SUBTABLE_CODES", "DroppedSubtable", "bounded_cmaps", "fonttools_log_to_debug"]

log = logging.getLogger(__name__)

MAX_SUBTABLE_CODES = 1 << 18
"""Codes one character-map subtable may declare: 262,144, above the 154,998 characters
Unicode 16.0 assigns, so only a subtable mapping unassigned ranges can be past it. fontTools
reads that many in about 0.1 s and 20 MB."""

MAX_FONT_CODES = 1 << 20
"""Codes all the character-map subtables of one program may declare together (four full
subtables): fontTools expands every Unicode subtable to name the glyphs of a font whose
'post' table has no names."""

_SFNT_VERSIONS = (b"\x00\x01\x00\x00", b"OTTO", b"true", b"typ1")
_CMAP_TAGS = (b"cmap", b"DMAP")


@attrs.frozen
class DroppedSubtable:
    """A subtable taken out: where it was and how many codes it declared."""

    table: str
    platform_id: int
    encoding_id: int
    format: int
    codes: int

    def describe(self) -> str:
        return (f"{self.table} subtable ({self.platform_id},{self.encoding_id}) format {self.format} "
                f"declares {self.codes:,} codes")


def bounded_cmaps(data: bytes, *, subtable_codes: int | None = None,
                  font_codes: int | None = None) -> tuple[bytes, list[DroppedSubtable]]:
    """``data`` with the character-map subtables past the bounds taken out of their table's
    directory, and what was taken out (``data`` itself when nothing was).

    A subtable is taken out when it declares more than ``subtable_codes`` codes, or when the
    subtables kept before it (in directory order, a subtable shared by several records
    counted once) leave less than its count of ``font_codes``. Its records go and the
    following ones move up; offsets, lengths and the subtables' bytes stay, so fontTools
    reads the rest as before. Data that is not an sfnt (or a collection's first font), or
    whose directory is damaged, is returned unchanged: fontTools judges it as before.
    The bounds default to :data:`MAX_SUBTABLE_CODES` and :data:`MAX_FONT_CODES`.
    """
    subtable_codes = MAX_SUBTABLE_CODES if subtable_codes is None else subtable_codes
    font_codes = MAX_FONT_CODES if font_codes is None else font_codes
    patched: bytearray | None = None
    dropped: list[DroppedSubtable] = []
    used = 0
    for tag, start, end in _cmap_tables(data):
        table = data[start:end]
        kept, removed, used = _judge(table, tag, used, subtable_codes, font_codes)
        if not removed:
            continue
        dropped.extend(removed)
        if patched is None:
            patched = bytearray(data)
        patched[start + 2 : start + 4] = struct.pack(">H", len(kept))
        patched[start + 4 : start + 4 + 8 * len(kept)] = b"".join(kept)
    return (bytes(patched) if patched is not None else data), dropped


def _cmap_tables(data: bytes) -> Iterator[tuple[str, int, int]]:
    """(tag, start, end) of the 'cmap' and 'DMAP' tables in the first font of ``data``."""
    base = 0
    if data[:4] == b"ttcf":
        if len(data) < 16:
            return
        base = struct.unpack(">L", data[12:16])[0]
    if data[base : base + 4] not in _SFNT_VERSIONS or len(data) < base + 12:
        return
    count = struct.unpack(">H", data[base + 4 : base + 6])[0]
    for index in range(count):
        record = data[base + 12 + 16 * index : base + 28 + 16 * index]
        if len(record) < 16:
            return
        tag, _checksum, offset, length = struct.unpack(">4sLLL", record)
        if tag in _CMAP_TAGS and offset + 4 <= len(data):
            yield tag.decode("ascii"), offset, min(offset + length, len(data))


def _judge(table: bytes, tag: str, used: int, subtable_codes: int,
           font_codes: int) -> tuple[list[bytes], list[DroppedSubtable], int]:
    """The encoding records of one table to keep, the subtables dropped, and the codes used."""
    if len(table) < 4:
        return [], [], used
    count = struct.unpack(">H", table[2:4])[0]
    kept: list[bytes] = []
    dropped: list[DroppedSubtable] = []
    verdicts: dict[int, bool] = {}  # subtable offset → kept
    for index in range(count):
        record = table[4 + 8 * index : 12 + 8 * index]
        if len(record) < 8:
            break  # a truncated directory: fontTools refuses the table as before
        platform_id, encoding_id, offset = struct.unpack(">HHL", record)
        keep = verdicts.get(offset)
        if keep is None:
            fmt, codes = _declared_codes(table, offset)
            keep = codes <= subtable_codes and used + codes <= font_codes
            if keep:
                used += codes
            else:
                dropped.append(DroppedSubtable(tag, platform_id, encoding_id, fmt, codes))
            verdicts[offset] = keep
        if keep:
            kept.append(record)
    if not dropped:
        return [], [], used
    # The records a truncated directory lacks stay out, as fontTools would have refused them.
    return kept, dropped, used


def _u16(data: bytes, pos: int) -> int:
    return struct.unpack(">H", data[pos : pos + 2])[0] if pos + 2 <= len(data) else 0


def _u32(data: bytes, pos: int) -> int:
    return struct.unpack(">L", data[pos : pos + 4])[0] if pos + 4 <= len(data) else 0


def _declared_codes(table: bytes, offset: int) -> tuple[int, int]:
    """(format, codes declared) of the subtable at ``offset``; 0 codes where it is too damaged
    for fontTools to read at all (fontTools then refuses it as before)."""
    if offset + 4 > len(table):
        return -1, 0
    fmt = _u16(table, offset)
    if fmt in (8, 10, 12, 13):
        end = min(len(table), offset + _u32(table, offset + 4))
    elif fmt in (14, 15):
        end = min(len(table), offset + _u32(table, offset + 2))
    else:
        end = min(len(table), offset + _u16(table, offset + 2))
    sub = table[offset:end]
    if fmt == 0:
        return fmt, 256
    if fmt == 2:
        return fmt, _format2_codes(sub)
    if fmt == 4:
        return fmt, _format4_codes(sub)
    if fmt == 6:
        return fmt, _u16(sub, 8)
    if fmt == 8:
        return fmt, _group_codes(sub, 12 + 8192, 16 + 8192)
    if fmt == 10:
        return fmt, _u32(sub, 16)
    if fmt in (12, 13):
        return fmt, _group_codes(sub, 12, 16)
    if fmt == 14:
        return fmt, _format14_codes(sub)
    return fmt, 0


def _group_codes(sub: bytes, count_at: int, first_at: int) -> int:
    """Formats 8, 12 and 13: the sum of the sequential map groups' ranges (those present)."""
    groups = min(_u32(sub, count_at), max(0, len(sub) - first_at) // 12)
    total = 0
    for start, end, _glyph in struct.iter_unpack(">LLL", sub[first_at : first_at + 12 * groups]):
        if end >= start:
            total += end - start + 1
    return total


def _format4_codes(sub: bytes) -> int:
    """Format 4: the sum of the segments' ranges (overlapping segments each count)."""
    segments = _u16(sub, 6) // 2
    ends_at, starts_at = 14, 16 + 2 * segments
    if starts_at + 2 * segments > len(sub):
        segments = max(0, min(segments, (len(sub) - 16) // 4))
        starts_at = 16 + 2 * segments
    total = 0
    for index in range(segments):
        start, end = _u16(sub, starts_at + 2 * index), _u16(sub, ends_at + 2 * index)
        if end >= start:
            total += end - start + 1
    return total


def _format2_codes(sub: bytes) -> int:
    """Format 2: per high byte, one code (subheader 0) or its subheader's entry count."""
    if len(sub) < 6 + 512:
        return 0
    total = 0
    for (key,) in struct.iter_unpack(">H", sub[6:518]):
        index = key // 8
        total += 1 if index == 0 else _u16(sub, 518 + 8 * index + 2)
    return total


def _format14_codes(sub: bytes) -> int:
    """Format 14: default UVS ranges (each 1 + additionalCount) and non-default mappings."""
    records = min(_u32(sub, 6), max(0, len(sub) - 10) // 11)
    total = 0
    for index in range(records):
        pos = 10 + 11 * index
        default_at, other_at = _u32(sub, pos + 3), _u32(sub, pos + 7)
        if default_at:
            ranges = min(_u32(sub, default_at), max(0, len(sub) - default_at - 4) // 4)
            total += sum(sub[default_at + 4 + 4 * r + 3] + 1 for r in range(ranges))
        if other_at:
            total += min(_u32(sub, other_at), max(0, len(sub) - other_at - 4) // 5)
    return total


# -- fontTools' log -------------------------------------------------------------------------------


class _ToDebug(logging.Handler):
    """Passes fontTools' records of one thread to glyphweave's debug log."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.thread = threading.get_ident()

    def emit(self, record: logging.LogRecord) -> None:
        if record.thread == self.thread:
            log.debug("fontTools (%s): %s", record.levelname.lower(), record.getMessage())


@contextlib.contextmanager
def fonttools_log_to_debug() -> Iterator[None]:
    """While parsing: fontTools' log lines go to glyphweave's debug log, not standard error.

    With no handler anywhere on its logger's path, Python's last-resort handler prints a
    library's WARNING lines to standard error. A handler on the 'fontTools' logger for the
    length of the block is one: nothing is printed by the last-resort handler, and nothing
    stays attached to fontTools afterwards (an application's own logging set-up, if any,
    still receives the records through the root logger as it always did).
    """
    logger = logging.getLogger("fontTools")
    handler = _ToDebug()
    logger.addHandler(handler)
    try:
        yield
    finally:
        logger.removeHandler(handler)
