"""CMaps (ISO 32000-1 §9.7.5-9.7.6) and ToUnicode CMaps (§9.10.3).

One parser serves both uses: a font's /Encoding CMap (codes → CIDs, through cidchar and
cidrange) and its /ToUnicode CMap (codes → text, through bfchar and bfrange). CMaps in
the wild are sloppy, so the parser is lenient wherever the intent is clear; it raises
:class:`CMapError` only when the data holds nothing CMap-like at all.

Choices where ISO 32000-1 is silent or real files disagree with it:

- Section counts (``12 beginbfchar``) are ignored; a section ends at its end operator, at
  any other ``begin…``/``end…`` operator, or at the end of the data (truncated streams).
- Precedence: single-code entries (bfchar, cidchar) win over ranges; a repeated entry and,
  where ranges overlap, the range defined last win; entries of this CMap win over a
  ``usecmap`` base (which also lends its codespace, and its /WMode when we set none). A
  ``usecmap`` cycle is cut where it closes. Notdef mappings are ignored.
- Ranges are integer intervals of the big-endian code value (``<0000> <FFFF>`` is 65,536
  codes), kept as sorted lists and answered by bisection: never expanded into a dict.
- bfrange with a string destination increments the last byte (§9.10.3). When that byte
  would pass 0xFF, we carry into the last code point instead of wrapping (``<00FF>`` + 1 is
  U+0100): wrapping would be wrong text, and carrying is what the producer meant.
- Destinations are UTF-16BE; surrogate pairs are combined; an unpaired surrogate becomes
  U+FFFD; an odd byte count is read with a leading zero byte (``<41>`` is "A"); an empty
  destination is no mapping; a name destination (``/space``) goes through the Adobe Glyph
  List rules.
- No codespace ranges at all (common in sloppy ToUnicode CMaps): the code width is the
  most common length of the mapping sources (ties: the shorter), else 2; the inferred
  ``(00…, FF…)`` range is what :attr:`CMap.codespace` shows.
"""

from __future__ import annotations

import codecs
import re
import sys
from array import array
from bisect import bisect_right
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from contextvars import ContextVar
from heapq import heappop, heappush
from itertools import islice, repeat
from operator import ge, itemgetter, le
from typing import Any

from glyphweave.pdf.lexer import (
    HEX_BODY,
    NUMBER,
    REGULAR,
    SKIP,
    TOKEN_END,
    WHITESPACE,
    decode_hex,
    decode_name,
    read_literal,
)

__all__ = ["CMap", "CMapError", "identity_cmap", "parse_cmap"]


class CMapError(ValueError):
    """The data is not a CMap at all (no CMap operator, section or definition in it)."""


# --------------------------------------------------------------------------- tokens


class _Name(str):
    """A PostScript name (``/Foo``), kept apart from strings and operators."""

    __slots__ = ()


# One token per match, after white-space and comments; its group's name says what it is.
# The last alternative eats one junk byte, so every match makes progress and the scan is
# linear.
_TOKEN = re.compile(
    SKIP
    + rb"(?:<(?P<hex>" + HEX_BODY + rb")>"
    + rb"|/(?P<name>" + REGULAR + rb"*)"
    + rb"|(?P<number>" + NUMBER + rb")" + TOKEN_END
    + rb"|(?P<word>" + REGULAR + rb"+)"  # an operator, or any other bare word
    + rb"|(?P<bracket><<|>>|[\[\]{}])"
    + rb"|(?P<literal>\()"  # a literal string, read by read_literal
    + rb"|(?P<junk>.))",
    re.S,
)

# A section body made only of hex strings, integers and whitespace takes the fast path.
_SIMPLE_BODY_BAD = re.compile(rb"[^0-9A-Fa-f<>" + WHITESPACE + rb"]")
_SIMPLE_TOKEN = re.compile(rb"<(?P<hex>" + HEX_BODY + rb")>|(?P<integer>\d+)")
# One entry of a plain cidrange body: <lo> <hi> cid. Adobe's predefined CMaps hold
# thousands; reading them as triples of numbers is what keeps a CMap's first use short.
_CIDRANGE_ENTRY = re.compile(rb"<([0-9A-Fa-f]*)>[" + WHITESPACE + rb"]*<([0-9A-Fa-f]*)>[" + WHITESPACE + rb"]*([0-9]+)")

_SECTIONS = {
    "begincodespacerange": "codespacerange",
    "beginbfchar": "bfchar",
    "beginbfrange": "bfrange",
    "begincidchar": "cidchar",
    "begincidrange": "cidrange",
    "beginnotdefchar": "notdefchar",
    "beginnotdefrange": "notdefrange",
}
_SECTION_END = {kind: ("end" + kind).encode() for kind in _SECTIONS.values()}


def _name(raw: bytes) -> _Name:
    return _Name(decode_name(raw))


def _number(raw: bytes) -> int | float:
    try:
        return int(raw)
    except ValueError:
        return float(raw)


# --------------------------------------------------------------------------- text

_LONE_SURROGATE = re.compile("[\ud800-\udfff]")
_utf16_strict = codecs.utf_16_be_decode  # skips the codec registry: twice as fast per call


def _utf16(raw: bytes, *, keep_surrogates: bool = False) -> str:
    """UTF-16BE destination → text; see the module docstring for the lenient cases."""
    try:
        return _utf16_strict(raw, "strict", True)[0]
    except UnicodeDecodeError:
        pass
    if len(raw) % 2:
        raw = b"\x00" + raw
    text = raw.decode("utf-16-be", "surrogatepass")
    return text if keep_surrogates else _LONE_SURROGATE.sub("\ufffd", text)


def _unit_chars(blob: bytes) -> str:
    """One char per UTF-16BE code unit of ``blob`` (each unit is its own destination)."""
    units = array("H", blob)
    if sys.byteorder == "little":
        units.byteswap()
    text = "".join(map(chr, units))
    return _LONE_SURROGATE.sub("\ufffd", text) if _LONE_SURROGATE.search(text) else text


def _glyph_name_text(name: str) -> str:
    from fontTools.agl import toUnicode  # lazy: the AGL costs ~10 ms to import

    try:
        return toUnicode(name)
    except Exception:  # malformed names (uniXXXX with junk) must not stop the parse
        return ""


def _dest_text(dst: Any, *, keep_surrogates: bool = False) -> str | None:
    if isinstance(dst, bytes):
        return _utf16(dst, keep_surrogates=keep_surrogates) or None
    if isinstance(dst, _Name):
        return _glyph_name_text(dst) or None
    return None


def _char(cp: int) -> str:
    return "\ufffd" if cp > 0x10FFFF or 0xD800 <= cp <= 0xDFFF else chr(cp)


# --------------------------------------------------------------------------- ranges

# A range payload is (kind, lo, value):
#   ("inc", lo, (prefix, first code point))  bfrange with a string destination
#   ("arr", lo, [text or None, ...])          bfrange with an array destination
#   ("cid", lo, first CID)                    cidrange
_Payload = tuple[str, int, Any]
_Raw = tuple[int, int, int, _Payload]  # (length, lo, hi, payload) in definition order


class _RangeTable:
    """Non-overlapping integer intervals for codes of one length, answered by bisection."""

    __slots__ = ("starts", "ends", "payloads")

    def __init__(self, los: list[int], his: list[int], payloads: list[_Payload]) -> None:
        # the ranges (los[i], his[i], payloads[i]) are in definition order; the last one wins
        # where they overlap
        if all(map(le, los, islice(los, 1, None))):  # sorted already (Adobe's CMaps are)
            order: Sequence[int] = range(len(los))
            starts, ends, values = los, his, payloads
        else:
            order = sorted(range(len(los)), key=los.__getitem__)
            starts = [los[i] for i in order]
            ends = [his[i] for i in order]
            values = [payloads[i] for i in order]
        if not any(map(ge, ends, islice(starts, 1, None))):
            self.starts, self.ends, self.payloads = starts, ends, values
            return
        self.starts, self.ends, self.payloads = [], [], []
        # sweep over boundaries with a heap of active ranges, newest on top
        points = sorted({p for lo, hi in zip(los, his, strict=True) for p in (lo, hi + 1)})
        heap: list[tuple[int, int]] = []
        k = 0
        for j, p in enumerate(points[:-1]):
            while k < len(order) and los[order[k]] == p:
                idx = order[k]
                heappush(heap, (-idx, his[idx]))
                k += 1
            while heap and heap[0][1] < p:
                heappop(heap)
            if not heap:
                continue
            winner = -heap[0][0]
            end = points[j + 1] - 1
            payload = payloads[winner]
            if self.payloads and self.payloads[-1] is payload and self.ends[-1] == p - 1:
                self.ends[-1] = end
            else:
                self.starts.append(p)
                self.ends.append(end)
                self.payloads.append(payload)

    @classmethod
    def of_columns(cls, starts: list[int], ends: list[int], payloads: list[_Payload]) -> _RangeTable:
        """A table of ranges sorted and apart already (another table's columns)."""
        table = cls.__new__(cls)
        table.starts, table.ends, table.payloads = starts, ends, payloads
        return table

    def find(self, value: int) -> _Payload | None:
        i = bisect_right(self.starts, value) - 1
        if i >= 0 and value <= self.ends[i]:
            return self.payloads[i]
        return None


_LENGTH, _LO, _HI, _PAYLOAD = itemgetter(0), itemgetter(1), itemgetter(2), itemgetter(3)
"""The fields of a raw range (length, lo, hi, payload), read by ``map`` at C speed."""


def _build_tables(raw: list[_Raw]) -> dict[int, _RangeTable]:
    """A table per code length of ``raw`` ranges, each read in columns at C speed. The usual
    CMap has one length; several are grouped first, each keeping the ranges' order."""
    lengths = set(map(_LENGTH, raw))
    by_len: dict[int, list[_Raw]] = {}
    if len(lengths) == 1:
        by_len[lengths.pop()] = raw
    else:
        for entry in raw:
            by_len.setdefault(entry[0], []).append(entry)
    return {length: _RangeTable(list(map(_LO, items)), list(map(_HI, items)), list(map(_PAYLOAD, items)))
            for length, items in by_len.items()}


# --------------------------------------------------------------------------- CMap

_MISS = object()
_BYTE = [bytes((b,)) for b in range(256)]
_RESOLVING: ContextVar[frozenset[str]] = ContextVar("glyphweave_cmap_resolving", default=frozenset())


class CMap:
    """A parsed CMap: splits shown strings into codes and maps codes to text or CIDs.

    Built by :func:`parse_cmap` or :func:`identity_cmap`; read-only afterwards (lookups
    are memoized per code, which is why answering costs nothing the second time).
    """

    name: str | None
    wmode: int
    codespace: list[tuple[bytes, bytes]]

    def __init__(
        self,
        *,
        name: str | None = None,
        wmode: int | None = None,
        codespace: Iterable[tuple[bytes, bytes]] = (),
        chars: dict[bytes, str] | None = None,
        cids: dict[bytes, int] | None = None,
        bf_ranges: list[_Raw] | None = None,
        cid_ranges: list[_Raw] | None = None,
        bases: Iterable[CMap] = (),
    ) -> None:
        self._bases = [b for b in bases if isinstance(b, CMap)][::-1]  # newest base first
        self.name = name
        if wmode is None:
            wmode = self._bases[0].wmode if self._bases else 0
        self.wmode = wmode
        self._chars = chars or {}
        self._cids = cids or {}
        self._bf_tables = _build_tables(bf_ranges or [])
        self._cid_tables = _build_tables(cid_ranges or [])
        self._ucache: dict[bytes, str | None] = {}
        self._ccache: dict[bytes, int | None] = {}

        spaces: list[tuple[bytes, bytes]] = []
        for base in reversed(self._bases):
            spaces.extend(base.codespace)
        spaces.extend(codespace)
        spaces = list(dict.fromkeys(spaces))  # drop duplicates, keep order
        if not spaces:
            n = self._inferred_width(bf_ranges or [], cid_ranges or [])
            spaces = [(b"\x00" * n, b"\xff" * n)]
        self.codespace = spaces
        self._prepare_split()

    # -- public API

    def parts(self) -> dict[str, Any]:
        """What this CMap is made of, as plain data (numbers, strings, bytes, lists, tuples
        and dicts: what :mod:`marshal` writes) from which :meth:`from_parts` makes it again
        without parsing: its ranges as built (sorted, overlaps resolved), its bases by name."""
        return {
            "name": self.name, "wmode": self.wmode, "codespace": self.codespace,
            "chars": self._chars, "cids": self._cids, "bases": [base.name for base in self._bases],
            "bf": {n: (t.starts, t.ends, t.payloads) for n, t in self._bf_tables.items()},
            "cid": {n: (t.starts, t.ends, t.payloads) for n, t in self._cid_tables.items()},
        }

    @classmethod
    def from_parts(cls, parts: dict[str, Any], usecmap: Callable[[str], CMap | None]) -> CMap:
        """The CMap of ``parts`` (:meth:`parts`), its bases from ``usecmap`` by name. Raises
        ValueError when a base is not found (the parts then need their CMap parsed again)."""
        cmap = cls.__new__(cls)
        bases = [usecmap(name) for name in parts["bases"]]
        if not all(isinstance(base, CMap) for base in bases):
            raise ValueError("a base CMap of the parts is not found")
        cmap._bases = bases  # type: ignore[assignment]
        cmap.name, cmap.wmode, cmap.codespace = parts["name"], parts["wmode"], parts["codespace"]
        cmap._chars, cmap._cids = parts["chars"], parts["cids"]
        cmap._bf_tables = {n: _RangeTable.of_columns(*columns) for n, columns in parts["bf"].items()}
        cmap._cid_tables = {n: _RangeTable.of_columns(*columns) for n, columns in parts["cid"].items()}
        cmap._ucache, cmap._ccache = {}, {}
        cmap._prepare_split()
        return cmap

    def split(self, data: bytes) -> list[bytes]:
        """Split a shown string into character codes by the codespace ranges (§9.7.6.2-3)."""
        if not isinstance(data, bytes):
            data = bytes(data)
        n = self._width
        if n == 1:
            return [_BYTE[b] for b in data]
        if n:
            return [data[i : i + n] for i in range(0, len(data), n)]
        out = []
        step = self._step
        i = 0
        end = len(data)
        while i < end:
            size = step[data[i]] or self._slow_length(data, i)
            out.append(data[i : i + size])
            i += size
        return out

    def to_unicode(self, code: bytes) -> str | None:
        """Text for a code from bfchar/bfrange (None if unmapped)."""
        hit = self._ucache.get(code, _MISS)
        if hit is _MISS:
            hit = self._ucache[code] = self._find_unicode(code)
        return hit  # type: ignore[return-value]

    def to_cid(self, code: bytes) -> int | None:
        """CID for a code from cidchar/cidrange (None if unmapped)."""
        hit = self._ccache.get(code, _MISS)
        if hit is _MISS:
            hit = self._ccache[code] = self._find_cid(code)
        return hit  # type: ignore[return-value]

    def code_lengths(self) -> set[int]:
        """Distinct code widths of the codespace ranges."""
        return set(self._lengths)

    def __repr__(self) -> str:
        return (
            f"<CMap {self.name or '(unnamed)'} wmode={self.wmode} codespace={len(self.codespace)}"
            f" bfchar={len(self._chars)} cidchar={len(self._cids)}>"
        )

    # -- lookups

    def _find_unicode(self, code: bytes) -> str | None:
        text = self._chars.get(code)
        if text is not None:
            return text
        table = self._bf_tables.get(len(code))
        if table is not None:
            value = int.from_bytes(code, "big")
            payload = table.find(value)
            if payload is not None:
                kind, lo, what = payload
                if kind == "inc":
                    prefix, first = what
                    return prefix + _char(first + value - lo)
                return what[value - lo] if value - lo < len(what) else None
        for base in self._bases:
            text = base.to_unicode(code)
            if text is not None:
                return text
        return None

    def _find_cid(self, code: bytes) -> int | None:
        cid = self._cids.get(code)
        if cid is not None:
            return cid
        table = self._cid_tables.get(len(code))
        if table is not None:
            value = int.from_bytes(code, "big")
            payload = table.find(value)
            if payload is not None:
                return payload[2] + value - payload[1]
        for base in self._bases:
            cid = base.to_cid(code)
            if cid is not None:
                return cid
        return None

    # -- codespace

    def _inferred_width(self, bf_ranges: list[_Raw], cid_ranges: list[_Raw]) -> int:
        counts: Counter[int] = Counter(map(len, self._chars))
        counts.update(map(len, self._cids))
        counts.update(r[0] for r in bf_ranges)
        counts.update(r[0] for r in cid_ranges)
        best = [(-c, n) for n, c in counts.items() if 1 <= n <= 4]
        return min(best)[1] if best else 2

    def _prepare_split(self) -> None:
        lengths = sorted({len(lo) for lo, _ in self.codespace})
        self._lengths = lengths
        self._by_len = {n: [(lo, hi) for lo, hi in self.codespace if len(lo) == n] for n in lengths}
        # One width: every code has that width, matched or not (§9.7.6.3), so slice.
        self._width = lengths[0] if len(lengths) == 1 else 0
        if self._width:
            return
        # Several widths: the first byte usually decides the width; 0 marks bytes that need
        # the full byte-by-byte test.
        step = bytearray(256)
        ones = self._by_len.get(1, [])
        for b in range(256):
            if any(lo[0] <= b <= hi[0] for lo, hi in ones):
                step[b] = 1
                continue
            widths = {n for n in lengths if n > 1 for lo, hi in self._by_len[n] if lo[0] <= b <= hi[0]}
            if len(widths) == 1:
                step[b] = widths.pop()
            elif not widths:
                step[b] = lengths[0]
        self._step = bytes(step)

    def _slow_length(self, data: bytes, i: int) -> int:
        """Width of the code at data[i]: first full match, shortest first; else the best partial match."""
        best = (0, 0)  # (bytes matched, -width)
        for n in self._lengths:
            chunk = data[i : i + n]
            for lo, hi in self._by_len[n]:
                k = 0
                for j, c in enumerate(chunk):
                    if not lo[j] <= c <= hi[j]:
                        break
                    k += 1
                if k == n:
                    return n
                best = max(best, (k, -n))
        return -best[1] if best[0] else self._lengths[0]


def identity_cmap(wmode: int = 0) -> CMap:
    """Identity-H (wmode 0) or Identity-V (wmode 1): 2-byte codes, CID = code value."""
    wmode = 1 if wmode else 0
    return CMap(
        name="Identity-V" if wmode else "Identity-H",
        wmode=wmode,
        codespace=[(b"\x00\x00", b"\xff\xff")],
        cid_ranges=[(2, 0, 0xFFFF, ("cid", 0, 0))],
    )


# --------------------------------------------------------------------------- parser

_Section = list[Any]


class _Builder:
    """Collects what the operators define; turns into a :class:`CMap` at the end."""

    def __init__(self, usecmap: Callable[[str], CMap | None] | None) -> None:
        self.usecmap = usecmap
        self.found = False
        self.name: str | None = None
        self.wmode: int | None = None
        self.codespace: list[tuple[bytes, bytes]] = []
        self.chars: dict[bytes, str] = {}
        self.cids: dict[bytes, int] = {}
        self.bf_ranges: list[_Raw] = []
        self.cid_ranges: list[_Raw] = []
        self.bases: list[CMap] = []

    def build(self) -> CMap:
        return CMap(
            name=self.name,
            wmode=self.wmode,
            codespace=self.codespace,
            chars=self.chars,
            cids=self.cids,
            bf_ranges=self.bf_ranges,
            cid_ranges=self.cid_ranges,
            bases=self.bases,
        )

    # -- plain operators

    def operator(self, op: str, stack: list[Any]) -> None:
        if op == "def" and len(stack) >= 2:
            key, value = stack[-2], stack[-1]
            if key == "CMapName" and isinstance(key, _Name):
                if isinstance(value, (str, bytes)):
                    self.name = value.decode("latin-1") if isinstance(value, bytes) else str(value)
                    self.found = True
            elif key == "WMode" and isinstance(key, _Name) and isinstance(value, (int, float)):
                self.wmode = 1 if int(value) == 1 else 0
                self.found = True
        elif op == "usecmap":
            self.found = True
            if stack and isinstance(stack[-1], (_Name, bytes)):
                name = stack[-1]
                self._use(name.decode("latin-1") if isinstance(name, bytes) else str(name))
        elif op in ("begincmap", "endcmap"):
            self.found = True

    def _use(self, name: str) -> None:
        active = _RESOLVING.get()
        if self.usecmap is None or name in active:  # unknown or cyclic: ignore
            return
        token = _RESOLVING.set(active | {name})
        try:
            base = self.usecmap(name)
        finally:
            _RESOLVING.reset(token)
        if isinstance(base, CMap):
            self.bases.append(base)

    # -- sections

    def section(self, kind: str, items: _Section) -> None:
        self.found = True
        getattr(self, "_" + kind)(items)

    def _codespacerange(self, items: _Section) -> None:
        for lo, hi in _groups(items, 2):
            if isinstance(lo, bytes) and isinstance(hi, bytes) and len(lo) == len(hi) and 1 <= len(lo) <= 4:
                self.codespace.append((lo, hi))

    def bfchar_hex(self, hexes: list[bytes]) -> None:
        """A bfchar body given as hex digits: plain 2-byte destinations decode in one call."""
        self.found = True
        srcs, dsts = hexes[0::2], hexes[1::2]
        if dsts and len(srcs) == len(dsts) and min(map(len, dsts)) == max(map(len, dsts)) == 4:
            try:
                blob = bytes.fromhex(b"".join(dsts).decode("ascii"))
            except ValueError:
                blob = b""
            if len(blob) == 2 * len(dsts):
                keys = _hex_many(srcs)
                if min(map(len, keys)):
                    self.chars.update(zip(keys, _unit_chars(blob), strict=True))
                    return
        self._bfchar(_hex_many(hexes))

    def _bfchar(self, items: _Section) -> None:
        chars = self.chars
        srcs, dsts = items[0::2], items[1::2]
        if len(srcs) == len(dsts) and dsts:
            # Bulk path: all plain 2-byte destinations decode in one call.
            try:
                b"".join(srcs)
                joined = b"".join(dsts)
            except TypeError:  # a name, number or array among them
                joined = b""
            if len(joined) == 2 * len(dsts) and min(map(len, dsts)) == 2 and min(map(len, srcs)):
                chars.update(zip(srcs, _unit_chars(joined), strict=True))
                return
        for src, dst in _groups(items, 2):
            if not isinstance(src, bytes) or not src:
                continue
            text = _dest_text(dst)
            if text:
                chars[src] = text

    def _bfrange(self, items: _Section) -> None:
        ranges = self.bf_ranges
        for lo_b, hi_b, dst in _groups(items, 3):
            if type(hi_b) is not bytes or len(lo_b) != len(hi_b) or not lo_b:
                continue
            lo, hi = int.from_bytes(lo_b, "big"), int.from_bytes(hi_b, "big")
            if lo > hi:
                continue
            payload: _Payload
            if isinstance(dst, list):
                payload = ("arr", lo, [_dest_text(d) for d in dst[: hi - lo + 1]])
            else:
                if type(dst) is bytes:
                    try:
                        text = _utf16_strict(dst, "strict", True)[0]
                    except UnicodeDecodeError:
                        text = _utf16(dst, keep_surrogates=True)
                else:
                    text = _dest_text(dst) or ""
                if not text:
                    continue
                prefix = text[:-1]
                if prefix and _LONE_SURROGATE.search(prefix):
                    prefix = _LONE_SURROGATE.sub("\ufffd", prefix)
                payload = ("inc", lo, (prefix, ord(text[-1])))
            ranges.append((len(lo_b), lo, hi, payload))

    def cidrange_ranges(self, ranges: list[_Raw] | None) -> bool:
        """A plain cidrange body's ranges (:func:`cidrange_body`): taken, unless None (not a
        body of plain triples: the general reading then decides)."""
        if ranges is None:
            return False
        self.cid_ranges.extend(ranges)
        self.found = True
        return True

    def _cidchar(self, items: _Section) -> None:
        cids = self.cids
        for src, dst in _groups(items, 2):
            if isinstance(src, bytes) and src and isinstance(dst, int) and dst >= 0:
                cids[src] = dst

    def _cidrange(self, items: _Section) -> None:
        for lo_b, hi_b, dst in _groups(items, 3):
            bounds = _bounds(lo_b, hi_b)
            if bounds is not None and isinstance(dst, int) and dst >= 0:
                length, lo, hi = bounds
                self.cid_ranges.append((length, lo, hi, ("cid", lo, dst)))

    def _notdefchar(self, items: _Section) -> None:
        """Notdef mappings only choose a fallback glyph; text extraction has no use for them."""

    _notdefrange = _notdefchar


def _groups(items: _Section, size: int) -> Iterable[tuple[Any, ...]]:
    """Consecutive groups that start with a string; resynchronize past stray tokens."""
    if not len(items) % size and all(type(x) is bytes for x in items[::size]):  # the common case
        return zip(*(items[k::size] for k in range(size)), strict=True)
    out = []
    i = 0
    n = len(items)
    while i + size <= n:
        if type(items[i]) is not bytes:
            i += 1
            continue
        out.append(tuple(items[i : i + size]))
        i += size
    return out


def _bounds(lo: Any, hi: Any) -> tuple[int, int, int] | None:
    if not (isinstance(lo, bytes) and isinstance(hi, bytes)) or len(lo) != len(hi) or not lo:
        return None
    a, b = int.from_bytes(lo, "big"), int.from_bytes(hi, "big")
    return (len(lo), a, b) if a <= b else None


def parse_cmap(data: bytes, *, usecmap: Callable[[str], CMap | None] | None = None) -> CMap:
    """Parse an embedded or predefined CMap (or a ToUnicode CMap) from its decoded bytes.

    ``usecmap`` resolves ``/Name usecmap`` to a base CMap (None when unknown: then it is
    ignored). Raises :class:`CMapError` only when nothing CMap-like is in ``data``.
    """
    if not isinstance(data, bytes):
        data = bytes(data)
    builder = _Builder(usecmap)
    _Parser(data, builder).run()
    if not builder.found:
        raise CMapError("no CMap operators or definitions found")
    return builder.build()


class _Parser:
    """The PostScript-like operand stack over one CMap's tokens; what the operators and
    sections define goes to a :class:`_Builder`."""

    __slots__ = ("data", "builder", "stack", "marks", "section")

    def __init__(self, data: bytes, builder: _Builder) -> None:
        self.data = data
        self.builder = builder
        self.stack: list[Any] = []
        self.marks: list[tuple[int, bytes]] = []  # open [ { << as (stack index, closer)
        self.section: str | None = None
        """The kind of the open section; its operands pile up on the stack."""

    def run(self) -> None:
        data = self.data
        pos = 0
        end = len(data)
        match = _TOKEN.match
        while pos < end:
            m = match(data, pos)
            if m is None:  # cannot happen (the junk alternative eats any byte); never loop
                break
            pos = m.end()
            kind = m.lastgroup
            if kind == "hex":
                self.stack.append(decode_hex(m[kind]))
            elif kind == "word":
                pos = self._word(m[kind].decode("latin-1"), pos)
            elif kind == "name":
                self.stack.append(_name(m[kind]))
            elif kind == "number":
                self.stack.append(_number(m[kind]))
            elif kind == "literal":
                text, pos = read_literal(data, pos)
                self.stack.append(bytes(text or b""))  # no limit given: never None
            elif kind == "bracket":
                self._bracket(m[kind])
            # junk: a stray byte, skipped
        if self.section is not None:  # truncated: keep what the open section collected
            self.builder.section(self.section, self.stack)

    def _word(self, op: str, pos: int) -> int:
        """Run an operator found at ``pos``; return where reading goes on (past a section
        read in bulk)."""
        builder = self.builder
        if self.section is not None:
            if not op.startswith(("begin", "end")):
                return pos  # stray words inside a section do not end it
            builder.section(self.section, self.stack)
            self.section = None
        kind = _SECTIONS.get(op)
        if kind is not None:
            self.stack, self.marks = [], []
            done = _fast_section(self.data, pos, kind, builder)
            if done:
                return done
            self.section = kind
            return pos
        if op == "findresource" and len(self.stack) >= 2 and self.stack[-1] == "CMap":
            self.stack.pop()  # `/Name /CMap findresource usecmap`: keep the name
            return pos
        builder.operator(op, self.stack)
        self.stack, self.marks = [], []
        return pos

    def _bracket(self, tok: bytes) -> None:
        """Open an array, procedure or dictionary, or close the innermost one open."""
        stack, marks = self.stack, self.marks
        closer = _CLOSERS.get(tok)
        if closer is not None:
            marks.append((len(stack), closer))
        elif marks and marks[-1][1] == tok:  # a stray closer is ignored
            i = marks.pop()[0]
            body = stack[i:]
            del stack[i:]
            if tok == b">>":
                stack.append({k: v for k, v in zip(body[0::2], body[1::2], strict=False) if isinstance(k, _Name)})
            else:
                stack.append(body)


_CLOSERS = {b"[": b"]", b"{": b"}", b"<<": b">>"}


def _fast_section(data: bytes, pos: int, kind: str, builder: _Builder) -> int:
    """Read a plain section body (hex strings, integers, whitespace) in bulk.

    Returns the offset after its end operator, or 0 when the body holds anything else
    (arrays, names, comments, literal strings): then the general tokenizer reads it.
    """
    end_op = _SECTION_END[kind]
    bad = _SIMPLE_BODY_BAD.search(data, pos)
    if bad is None:  # truncated inside the section: the body runs to the end
        stop = after = len(data)
    else:
        stop = bad.start() - 1  # every end operator starts with 'e', a hex digit
        if stop < pos or not data.startswith(end_op, stop):
            return 0
        after = stop + len(end_op)
    if kind in ("bfchar", "bfrange", "codespacerange"):
        # Only hex strings here: turning the brackets into spaces and splitting is the
        # fastest tokenizer there is; any bare word, NUL or split hex string changes the
        # counts, and then the general tokenizer reads the section.
        body = data[pos:stop]
        hexes = body.translate(_BRACKETS_TO_SPACE).split()
        if b"\x00" in body or not len(hexes) == body.count(b"<") == body.count(b">"):
            return 0
        if kind == "bfchar":
            builder.bfchar_hex(hexes)
        else:
            builder.section(kind, _hex_many(hexes))
    elif kind != "cidrange" or not builder.cidrange_ranges(_cidrange_body(data, pos, stop)):
        items = [decode_hex(hexs) if not integer else int(integer) for hexs, integer in _SIMPLE_TOKEN.findall(data, pos, stop)]
        builder.section(kind, items)
    return after


def cidrange_body(data: bytes, pos: int, stop: int) -> list[_Raw] | None:
    """The ranges of the cidrange body ``data[pos:stop]`` read as ``<lo> <hi> CID`` triples,
    (length, lo, hi, ("cid", lo, CID)) in order, a range whose bounds are reversed left out;
    None unless the triples are the whole body (as many ``<`` as two per triple) and every
    bound is whole bytes of one length. The reference of the compiled build's reading
    (:mod:`glyphweave.pdf._ccmap`)."""
    entries = _CIDRANGE_ENTRY.findall(data, pos, stop)
    if not entries or data.count(b"<", pos, stop) != 2 * len(entries):
        return None
    los, his, cids = zip(*entries, strict=True)
    widths = list(map(len, los))
    if widths != list(map(len, his)) or not all(w and not w % 2 for w in set(widths)):
        return None
    sixteen = repeat(16)
    return [(w // 2, lo, hi, ("cid", lo, cid))
            for w, lo, hi, cid in zip(widths, map(int, los, sixteen), map(int, his, sixteen), map(int, cids), strict=True)
            if lo <= hi]


def _cidrange_body(data: bytes, pos: int, stop: int) -> list[_Raw] | None:
    """:func:`cidrange_body`, read in C where the compiled build has it (which leaves numbers
    too long for C integers to the reference)."""
    if _native_cidrange_body is not None:
        found = _native_cidrange_body(data, pos, stop)
        if found is None or isinstance(found, list):
            return found
    return cidrange_body(data, pos, stop)  # no compiled build, or a number too long for it


_native_cidrange_body: Callable[[bytes, int, int], list[_Raw] | None | bool] | None
try:  # the compiled build
    from glyphweave.pdf._ccmap import cidrange_body as _native_cidrange_body
except ImportError:  # a pure install: the reference
    _native_cidrange_body = None


_BRACKETS_TO_SPACE = bytes.maketrans(b"<>", b"  ")


def _hex_many(hexes: list[bytes]) -> list[bytes]:
    """Decode many hex string bodies; in one call when they all have one even length."""
    if hexes:
        width = len(hexes[0])
        if width and not width % 2 and min(map(len, hexes)) == max(map(len, hexes)):
            joined = b"".join(hexes)
            try:
                blob = bytes.fromhex(joined.decode("ascii"))
            except ValueError:
                blob = b""
            if len(blob) * 2 == len(joined):
                step = width // 2
                return [blob[i : i + step] for i in range(0, len(blob), step)]
    return [decode_hex(h) for h in hexes]
