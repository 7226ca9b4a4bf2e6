"""Font loading: turns a font dictionary into what the interpreter and decoders need.

Each font object is loaded once per document, keyed by its object id and generation
(never by ``id()`` of a pikepdf wrapper, which is transient: see docs/design.rst).
What the interpreter needs per glyph is kept in plain lists and dicts so that a whole
string is measured and decoded with ``map`` at C speed.
"""

from __future__ import annotations

import functools
import logging
import math
import weakref
from collections.abc import Callable, Sequence
from typing import Any

import attrs
import pikepdf

from glyphweave.core.decoding import DecodeTable
from glyphweave.core.fontinfo import FontInfo, split_subset_prefix
from glyphweave.guard.limits import LIMIT, MB, LimitReached, Limits
from glyphweave.guard.report import WarningRecord
from glyphweave.pdf.cmap import CMap, identity_cmap, parse_cmap
from glyphweave.pdf.fontstate import DEFAULT_ASCENT, DEFAULT_DESCENT, DEFAULT_WIDTH, FontState
from glyphweave.pdf.lexer import decode_name
from glyphweave.pdf.streams import read_bounded
from glyphweave.pdf.widthmaps import RangeDict, ScaledWidths
from glyphweave.tables.sfnt import MAX_FONT_CODES, MAX_SUBTABLE_CODES, bounded_cmaps

log = logging.getLogger(__name__)

__all__ = ["DEFAULT_ASCENT", "DEFAULT_DESCENT", "DEFAULT_WIDTH", "FontLoader", "FontState", "ParsedPrograms",
           "ProgramMemo", "RangeDict", "ScaledWidths", "decoding_identity", "object_key"]

MAX_TYPE3_GLYPHS = 4096
"""Glyph procedures of a Type3 font that are read (a simple font paints 256 codes at most)."""


class ParsedPrograms:
    """What one document's decoders parsed from its fonts' programs, within a byte budget.

    A value a decoder keeps in ``FontInfo.memo`` with an ``estimated_bytes`` attribute (a
    parsed font program) is counted here, in order of last use. Past :attr:`budget`, the
    least recently used ones are taken out of their fonts' memos (the newest always stays):
    the decoder parses that program again on its next need, and memory holds the budget,
    not every program of the document.
    """

    __slots__ = ("__weakref__", "budget", "used", "_entries")

    def __init__(self, budget: int) -> None:
        self.budget = budget
        self.used = 0
        self._entries: dict[tuple[int, str], tuple[ProgramMemo, int]] = {}
        """(id of the memo, key) → (the memo, its estimated bytes), least recently used first."""

    def __len__(self) -> int:
        return len(self._entries)

    def kept(self, memo: ProgramMemo, key: str, size: int) -> None:
        self.dropped(memo, key)
        self._entries[(id(memo), key)] = (memo, size)
        self.used += size
        entries = self._entries
        while self.used > self.budget and len(entries) > 1:
            oldest = next(iter(entries))
            old_memo, old_size = entries.pop(oldest)
            self.used -= old_size
            dict.pop(old_memo, oldest[1], None)
            old_memo._tracked.discard(oldest[1])
            log.debug("parsed program %r dropped: %d bytes kept past the budget", oldest[1], self.used + old_size)

    def used_again(self, memo: ProgramMemo, key: str) -> None:
        entry = self._entries.pop((id(memo), key), None)
        if entry is not None:
            self._entries[(id(memo), key)] = entry

    def dropped(self, memo: ProgramMemo, key: str) -> None:
        entry = self._entries.pop((id(memo), key), None)
        if entry is not None:
            self.used -= entry[1]

    def forget(self, memo: Any) -> None:
        """A font is dropped from the loader: its programs no longer count."""
        if isinstance(memo, ProgramMemo):
            for key in list(memo):
                self.dropped(memo, key)


class ProgramMemo(dict):  # type: ignore[type-arg]
    """``FontInfo.memo`` of a font the loader loaded: a plain dictionary that reports the
    values it is given with an ``estimated_bytes`` (parsed programs) to the document's
    :class:`ParsedPrograms`, and their uses (``memo[key]``, ``memo.get(key)``). It holds
    that weakly: the budget holds the memos, and a cycle would keep a closed document's
    fonts until the cyclic collector runs.

    Only the keys holding a counted program (:attr:`_tracked`) are reported on use: the
    other values (a symbol decoder's family, looked up once per code and decoder) are read
    as from a plain dictionary, without a call into the budget."""

    __slots__ = ("_programs", "_tracked")

    def __init__(self, programs: ParsedPrograms) -> None:
        super().__init__()
        self._programs = weakref.ref(programs)
        self._tracked: set[str] = set()
        """The keys whose values the budget counts."""

    def __setitem__(self, key: str, value: Any) -> None:
        super().__setitem__(key, value)
        programs = self._programs()
        if programs is None:
            return
        size = getattr(value, "estimated_bytes", None)
        if isinstance(size, int) and not isinstance(size, bool):
            programs.kept(self, key, size)
            self._tracked.add(key)
        elif key in self._tracked:
            programs.dropped(self, key)
            self._tracked.discard(key)

    def __getitem__(self, key: str) -> Any:
        value = super().__getitem__(key)
        if key in self._tracked:
            programs = self._programs()
            if programs is not None:
                programs.used_again(self, key)
        return value

    def get(self, key: str, default: Any = None) -> Any:
        value = super().get(key, default)
        if key in self._tracked:
            programs = self._programs()
            if programs is not None:
                programs.used_again(self, key)
        return value

    def __delitem__(self, key: str) -> None:
        super().__delitem__(key)
        self._untrack(key)

    def pop(self, key: str, *default: Any) -> Any:
        self._untrack(key)
        return super().pop(key, *default)

    def _untrack(self, key: str) -> None:
        if key in self._tracked:
            self._tracked.discard(key)
            programs = self._programs()
            if programs is not None:
                programs.dropped(self, key)


def _num(value: Any, default: float = 0.0) -> float:
    try:
        return float(value)
    except (TypeError, ValueError):
        return default


def _name(value: Any) -> str | None:
    """A name object's text without the slash; names that are not UTF-8 (GBK font names
    are common) are read byte for byte as Latin-1 rather than failing."""
    if not isinstance(value, pikepdf.Name):
        return None
    try:
        return str(value)[1:]
    except UnicodeDecodeError:
        return decode_name(bytes(value.unparse())[1:])


def object_key(obj: Any) -> tuple[Any, ...]:
    """A stable identity for a PDF object within one document."""
    objgen = getattr(obj, "objgen", (0, 0))
    if objgen != (0, 0):
        return objgen
    # A direct object (rare for fonts): its identity is its content.
    try:
        return ("direct", hash(obj.unparse()))
    except Exception:
        return ("direct", id(obj))


def _limit_of(exc: BaseException) -> str | None:
    """The limit ``exc`` says was reached (a :class:`LimitReached`), or None."""
    return exc.limit if isinstance(exc, LimitReached) else None


class FontLoader:
    """Loads and caches fonts for one document.

    ``make_decode_table(info, to_cid)`` builds the per-font decode cache (the decoder
    chain lives in the pipeline, not here). Font objects that describe one font alike
    (:func:`decoding_identity`) share one: scanners' OCR layers and page-by-page producers
    write the same font again for every page, and each copy would ask the decoders again
    for every code it shows (see docs/design.rst, "Embedded fonts").

    At most :attr:`cache_size` fonts are kept, the least recently used dropped first (and
    read again if a page uses them again): a merged document can hold a thousand copies of
    its sources' fonts, each with its width and decoding caches, and memory must not grow
    with them. A font's warnings are reported once per document however often it is read.

    What the decoders parse from the fonts' programs is bounded by bytes as well
    (:attr:`program_budget`, :class:`ParsedPrograms`): one program can hold tens of
    megabytes (a full CJK font's glyph names and character map), and 256 of them would not fit.
    """

    cache_size = 256
    """Fonts kept at once. Past it, the older half is dropped in one go, with the measured
    strings (whose keys hold the dropped fonts)."""
    program_budget = 128 * MB
    """Estimated bytes of parsed font programs kept at once (``estimated_bytes`` of each):
    several full-size CJK programs, thousands of the subsets PDFs embed."""

    def __init__(self, make_decode_table: Callable[[FontInfo, Callable[[bytes], int | None] | None], DecodeTable],
                 limits: Limits | None = None, pdf: pikepdf.Pdf | None = None) -> None:
        self._make_decode_table = make_decode_table
        self.limits = limits if limits is not None else Limits()
        self.pdf = pdf
        """The open document the fonts come from. When set, a font's streams are read on
        first use by object number from whatever this is then: the document may be opened
        again (to let go of the objects the first opening parsed) and its fonts stay
        loaded. When None, each font holds its streams."""
        self._fonts: dict[tuple[Any, ...], FontState] = {}
        self._decodings: dict[tuple[Any, ...], tuple[weakref.ref[DecodeTable], tuple[Any, ...]]] = {}
        """:func:`decoding_identity` -> the decode cache of the fonts of that identity (held
        weakly: the fonts hold it) and the key of the first of them, whose info fills it."""
        self._cid_tables: weakref.WeakValueDictionary[int, DecodeTable] = weakref.WeakValueDictionary()
        """``id`` of a CMap -> its code -> CID cache (the table holds the CMap, so the id stays its)."""
        self.decoded_as: dict[tuple[Any, ...], tuple[Any, ...]] = {}
        """Font key -> the key of the font whose decode cache it shares (fonts that decode
        as an earlier one only): the decoder chain's records name that font."""
        self.programs = ParsedPrograms(self.program_budget)
        self._warned: set[tuple[Any, str]] = set()
        self.warnings: list[WarningRecord] = []
        self.measured: dict[Any, Any] = {}
        """The interpreter's cache of short strings already measured and decoded, keyed by
        font, operand and the text state that shapes it: words repeat (two shown strings
        in three on the benchmark corpus were seen before in the same document)."""

    def load(self, font: Any) -> FontState:
        key = object_key(font)
        fonts = self._fonts
        state = fonts.pop(key, None)  # taken out and put back: the dict is in order of use
        if state is None:
            try:
                state = self._load(font, key)
            except Exception as exc:  # a broken font must not stop the page
                self.warn(key, f"font {key}: {exc}", _limit_of(exc))
                log.debug("cannot read font %s: %s", key, exc)
                state = FontState(FontInfo(key=key, base_font="(broken)"))
                state.decode = self._decode_table(state)
            if len(fonts) >= self.cache_size:
                for old in list(fonts)[: len(fonts) // 2 + 1]:
                    self.programs.forget(fonts.pop(old).info.memo)
                    self.decoded_as.pop(old, None)
                self.measured.clear()
                self._decodings = {k: found for k, found in self._decodings.items() if found[0]() is not None}
        fonts[key] = state
        return state

    def warn(self, source: Any, message: str, limit: str | None = None) -> None:
        """Report ``message`` about the font ``source`` (its key) once per document: a font
        dropped from the cache and read again must not report its damage twice. With
        ``limit``, the warning is that limit's (a :class:`Limits` field)."""
        if (source, message) not in self._warned:
            self._warned.add((source, message))
            self.warnings.append(WarningRecord(kind="font" if limit is None else "limit", message=message,
                                               source=f"font {source}", limit=limit))

    def _decode_table(self, state: FontState, identity: tuple[Any, ...] | None = None) -> DecodeTable:
        """The decode cache of ``state``'s font: that of the fonts of the same ``identity``
        (:func:`decoding_identity`) while one of them holds it, else a new one. A dict look-up
        either way: a document of thousands of copies of one font must not scan its fonts."""
        found = self._decodings.get(identity) if identity is not None else None
        shared = found[0]() if found is not None else None
        if found is not None and shared is not None:
            self.decoded_as[state.info.key] = found[1]
            return shared
        table = self._make_decode_table(state.info, state.cmap.to_cid if state.cmap is not None else None)
        if identity is not None:
            self._decodings[identity] = (weakref.ref(table), state.info.key)
        return table

    def _cid_table(self, cmap: CMap) -> DecodeTable:
        """The code -> CID cache of ``cmap`` (0, the notdef CID, for unmapped codes), one for
        all the fonts that use it (a predefined CMap is parsed once per process)."""
        table = self._cid_tables.get(id(cmap))
        if table is None:
            to_cid = cmap.to_cid
            table = self._cid_tables[id(cmap)] = DecodeTable(lambda code: to_cid(code) or 0)  # type: ignore[arg-type,return-value]
        return table

    # -- loading ----------------------------------------------------------------------
    def _load(self, font: Any, key: tuple[Any, ...]) -> FontState:
        subtype = _name(font.get("/Subtype")) or ""
        raw_base = _name(font.get("/BaseFont")) or ""
        if subtype == "Type3" and not raw_base:
            raw_base = _name(font.get("/Name")) or "Type3"
        prefix, base = split_subset_prefix(raw_base)
        composite = subtype == "Type0"
        desc_font = None
        if composite:
            descendants = font.get("/DescendantFonts")
            if isinstance(descendants, pikepdf.Array) and len(descendants):
                desc_font = descendants[0]
        descriptor_owner = desc_font if desc_font is not None else font
        descriptor = descriptor_owner.get("/FontDescriptor")
        if not isinstance(descriptor, pikepdf.Dictionary):
            descriptor = None
        flags = int(_num(descriptor.get("/Flags"), 0)) if descriptor is not None else 0

        # What the info loads on demand comes from, for its decoding identity.
        sources: list[tuple[str, Any]] = []
        tounicode_stream = font.get("/ToUnicode")
        to_unicode_loader = None
        if isinstance(tounicode_stream, pikepdf.Stream):
            to_unicode_loader = self._cmap_loader(tounicode_stream, key, "ToUnicode")
            sources.append(("ToUnicode", tounicode_stream))

        font_file_kind, program = self._font_file(descriptor)
        font_file_loader = None
        if program is not None:
            font_file_loader = self._program_loader(program, key)
            sources.append(("program", program))
        encoding = font.get("/Encoding")
        if isinstance(encoding, pikepdf.Stream):
            sources.append(("CMap", encoding))
        info_kwargs: dict[str, Any] = dict(
            key=key,
            base_font=base,
            subset_prefix=prefix,
            subtype=subtype,
            composite=composite,
            flags=flags,
            embedded=font_file_loader is not None,
            font_file_kind=font_file_kind,
            to_unicode_loader=to_unicode_loader,
            font_file_loader=font_file_loader,
            memo=ProgramMemo(self.programs),
        )
        cmap: CMap | None = None
        if composite:
            cmap, cmap_name = self._encoding_cmap(encoding, tounicode_stream, key)
            info_kwargs["encoding_cmap_name"] = cmap_name
            info_kwargs["writing_mode"] = cmap.wmode
            if desc_font is not None:
                def part_loader(stream: Any, what: str) -> Callable[[], bytes | None]:
                    sources.append((what, stream))
                    return self._stream_loader(stream, what, key)

                info_kwargs.update(_descendant_info(desc_font, part_loader))
        else:
            base_enc, differences = self._simple_encoding(encoding)
            info_kwargs["base_encoding"] = base_enc
            info_kwargs["differences"] = differences
            if subtype == "Type3":
                info_kwargs.update(self._type3_glyphs(font, key))
        procedures = info_kwargs.pop("procedures", None)
        sources += info_kwargs.pop("glyph_sources", ())
        state = FontState(FontInfo(**info_kwargs))
        state.procedures = procedures
        if composite:
            assert cmap is not None  # _encoding_cmap always gives one
            _set_cmap(state, cmap, self._cid_table(cmap))
            self._composite_metrics(state, desc_font, descriptor)
        else:
            self._simple_metrics(state, font, descriptor, subtype)
        state.decode = self._decode_table(state, decoding_identity(state.info, sources))
        return state

    def _bytes(self, stream: Any, damaged: Callable[[str], None] | None = None) -> bytes:
        """A font's stream (program, CMap, CIDToGIDMap), decoded within the font stream limit;
        a larger one is an error (the caller treats the font part as unreadable). Damaged
        data gives what decoded before the damage, and what was found goes to ``damaged``."""
        limit = self.limits.font_stream_bytes
        data, cut, damage = read_bounded(stream, limit, limit="font_stream_mb")
        if damage is not None and damaged is not None:
            damaged(damage)
        if cut:
            raise LimitReached(f"{LIMIT}stream larger than the font stream limit of {self.limits.font_stream_mb:g} MB",
                               "font_stream_mb")
        return bytes(data)

    def _stream_loader(self, stream: Any, what: str, font_key: Any) -> Callable[[], bytes | None]:
        """Read a stream on first use; an unreadable or oversized one reads as None (with a
        warning when it was too large). The loader holds this one weakly: it is kept in the
        font's info, which this loader keeps, and a strong reference back would make every
        document's fonts a reference cycle, freed only by the cyclic collector."""
        owner = weakref.ref(self)
        find = self._finder(stream)

        def load() -> bytes | None:
            loader = owner()
            if loader is None:  # the document is gone
                return None
            try:
                return loader._bytes(find(loader), lambda damage: loader.warn(
                    font_key, f"font {font_key}: {what} damaged ({damage}): read up to the damage"))
            except LimitReached as exc:
                # A stream that cannot be read leaves the font without it: said, never silent.
                loader.warn(font_key, f"{what}: {exc}", exc.limit)
                return None
            except Exception as exc:
                loader.warn(font_key, f"font {font_key}: unreadable {what} ({exc})")
                return None

        return load

    def _finder(self, stream: Any) -> Callable[[FontLoader], Any]:
        """How a lazy loader gets ``stream`` back: by its object number from the loader's
        :attr:`pdf` (a font loaded before the document was opened again must not keep the
        first opening alive), or held as it is when there is no :attr:`pdf` to ask."""
        objgen = getattr(stream, "objgen", (0, 0))
        if self.pdf is None or objgen == (0, 0):
            return lambda loader: stream
        return lambda loader: loader._object(objgen)

    def _object(self, objgen: tuple[int, int]) -> Any:
        if self.pdf is None:
            raise ValueError("the document is not set")
        return self.pdf.get_object(objgen)

    def _cmap_loader(self, stream: Any, key: tuple[Any, ...], what: str) -> Callable[[], CMap | None]:
        owner = weakref.ref(self)  # as in _stream_loader
        find = self._finder(stream)

        def load() -> CMap | None:
            loader = owner()
            if loader is None:
                return None
            try:
                data = loader._bytes(find(loader), lambda damage: loader.warn(
                    key, f"font {key}: {what} CMap damaged ({damage}): read up to the damage"))
                return parse_cmap(data, usecmap=_predefined_cmap)
            except Exception as exc:
                loader.warn(key, f"font {key}: unreadable {what} CMap ({exc})", _limit_of(exc))
                return None

        return load

    def _type3_glyphs(self, font: Any, font_key: Any) -> dict[str, Any]:
        """A Type3 font's glyph procedures (the first :data:`MAX_TYPE3_GLYPHS` names), each
        read on first use as :meth:`_stream_loader` reads a stream and what it paints kept
        (:func:`~.charprocs.glyph_paint`: in em, through the /FontMatrix)."""
        found: dict[str, Any] = {}
        matrix = font.get("/FontMatrix")
        font_matrix = (0.001, 0.0, 0.0, 0.001, 0.0, 0.0)
        if isinstance(matrix, pikepdf.Array) and len(matrix) == 6:
            values = tuple(_num(v) for v in matrix)
            if all(map(math.isfinite, values)) and values[0] * values[3] - values[1] * values[2]:
                font_matrix = values  # type: ignore[assignment]
        procs = font.get("/CharProcs")
        if not isinstance(procs, pikepdf.Dictionary):
            return found
        loaders: dict[str, Callable[[], bytes | None]] = {}
        sources: list[tuple[str, Any]] = [("FontMatrix", font_matrix)]
        # In the dictionary's own (sorted) order: pikepdf's keys() is a set, whose order changes with
        # every process's string hashing, and the shape reader samples a font's glyphs in this order.
        for name in sorted(procs.keys())[:MAX_TYPE3_GLYPHS]:
            stream = procs.get(name)
            if isinstance(stream, pikepdf.Stream):
                loaders[name[1:]] = self._stream_loader(stream, f"glyph procedure {name}", font_key)
                sources.append((name[1:], stream))

        painted: dict[str, Any] = {}

        def charproc(name: str) -> Any:
            if name not in painted:
                from glyphweave.pdf.charprocs import glyph_paint

                load = loaders.get(name)
                data = load() if load is not None else None
                try:
                    painted[name] = glyph_paint(data, font_matrix) if data is not None else None
                except Exception as exc:  # a damaged procedure: no shape, never an error
                    log.debug("Type3 glyph %r of font %s unreadable: %r", name, font_key, exc)
                    painted[name] = None
            return painted[name]

        found["type3_glyphs"] = tuple(loaders)
        found["charproc"] = charproc
        found["procedures"] = (loaders, font_matrix)
        found["glyph_sources"] = sources
        return found

    @staticmethod
    def _font_file(descriptor: Any) -> tuple[str | None, Any]:
        """The kind of the embedded program (``FontFile``, ``FontFile2``, or the /Subtype of a
        ``FontFile3``) and its stream, or (None, None)."""
        if descriptor is None:
            return None, None
        for name in ("/FontFile", "/FontFile2", "/FontFile3"):
            stream = descriptor.get(name)
            if isinstance(stream, pikepdf.Stream):
                kind = name[1:]
                if name == "/FontFile3":
                    kind = _name(stream.get("/Subtype")) or kind
                return kind, stream
        return None, None

    def _program_loader(self, stream: Any, font_key: Any) -> Callable[[], bytes | None]:
        """The font program, read as :meth:`_stream_loader` reads it, with the character-map
        subtables that declare more codes than any real font takes out (one warning naming
        the limit): fontTools would expand them whatever their size
        (:func:`glyphweave.tables.sfnt.bounded_cmaps`). Other programs are returned as read."""
        read = self._stream_loader(stream, "font program", font_key)
        owner = weakref.ref(self)  # as in _stream_loader

        def load() -> bytes | None:
            data = read()
            if not data:
                return data
            data, dropped = bounded_cmaps(data)
            loader = owner()
            if dropped and loader is not None:
                loader.warn(font_key, (
                    f"font {font_key}: font program: {LIMIT}"
                    f"{'; '.join(item.describe() for item in dropped)}, past the character map limit of "
                    f"{MAX_SUBTABLE_CODES:,} codes a subtable and {MAX_FONT_CODES:,} a program: left unread"), "cmap_codes")
            return data

        return load

    def _encoding_cmap(self, encoding: Any, tounicode: Any, font_key: Any) -> tuple[CMap, str | None]:
        name = _name(encoding)
        if name is not None:
            cmap = _predefined_cmap(name)
            if cmap is not None:
                return cmap, name
            # A predefined CMap we do not carry: use the ToUnicode CMap's codespace for
            # splitting (same code structure), with CIDs unknown.
            fallback = None
            if isinstance(tounicode, pikepdf.Stream):
                try:
                    fallback = parse_cmap(self._bytes(tounicode))
                except Exception:
                    fallback = None
            cmap = fallback if fallback is not None and fallback.codespace else identity_cmap(0)
            if name.endswith("-V"):
                cmap = _with_wmode(cmap, 1)
            return cmap, name
        if isinstance(encoding, pikepdf.Stream):
            try:
                data = self._bytes(encoding, lambda damage: self.warn(
                    font_key, f"font {font_key}: embedded CMap damaged ({damage}): read up to the damage"))
                cmap = parse_cmap(data, usecmap=_predefined_cmap)
                wmode = encoding.get("/WMode")
                if wmode is not None and int(_num(wmode)) == 1:
                    cmap = _with_wmode(cmap, 1)
                return cmap, _name(encoding.get("/CMapName"))
            except Exception as exc:
                self.warn(font_key, f"unreadable embedded CMap ({exc})", _limit_of(exc))
        return identity_cmap(0), None

    @staticmethod
    def _simple_encoding(encoding: Any) -> tuple[str | None, dict[int, str]]:
        name = _name(encoding)
        if name is not None:
            return name, {}
        differences: dict[int, str] = {}
        base = None
        if isinstance(encoding, pikepdf.Dictionary):
            base = _name(encoding.get("/BaseEncoding"))
            diffs = encoding.get("/Differences")
            if isinstance(diffs, pikepdf.Array):
                code = 0
                for item in diffs:
                    if isinstance(item, pikepdf.Name):
                        if 0 <= code < 256:
                            differences[code] = _name(item) or ""
                        code += 1
                    else:
                        try:
                            code = int(item)
                        except (TypeError, ValueError):
                            continue
        return base, differences

    def _simple_metrics(self, state: FontState, font: Any, descriptor: Any, subtype: str) -> None:
        info = state.info
        scale = 0.001
        vscale = 0.001
        bbox = None
        if subtype == "Type3":
            matrix = font.get("/FontMatrix")
            if isinstance(matrix, pikepdf.Array) and len(matrix) == 6:
                m = [_num(v) for v in matrix]
                scale = m[0] or 0.001
                vscale = abs(m[3]) or abs(scale)
            fb = font.get("/FontBBox")
            if isinstance(fb, pikepdf.Array) and len(fb) == 4:
                bbox = [_num(v) for v in fb]
        missing = _num(descriptor.get("/MissingWidth"), 0.0) if descriptor is not None else 0.0
        widths_arr = font.get("/Widths")
        has_widths = isinstance(widths_arr, pikepdf.Array) and len(widths_arr) > 0
        # The standard font's metrics stand in only for missing /Widths or a missing descriptor:
        # reading them parses the font's section of the metrics table (a paper's nine fonts
        # of Times and Courier with both cost 2-3 ms for nothing).
        std = _std14(info.base_font) if subtype != "Type3" and (not has_widths or descriptor is None) else None
        if has_widths:
            first = int(_num(font.get("/FirstChar"), 0))
            default = missing * scale
            widths = [default] * 256
            for i, w in enumerate(widths_arr):
                code = first + i
                if 0 <= code < 256:
                    widths[code] = _num(w) * scale
            state.widths = widths
        elif std is not None:
            state.widths = _std14_widths(std, info)
        elif missing:
            state.widths = [missing * scale] * 256
        # ascent / descent
        asc = desc = None
        if descriptor is not None:
            asc = _num(descriptor.get("/Ascent"), 0.0) * vscale
            desc = _num(descriptor.get("/Descent"), 0.0) * vscale
            if bbox is None:
                fb = descriptor.get("/FontBBox")
                if isinstance(fb, pikepdf.Array) and len(fb) == 4:
                    bbox = [_num(v) for v in fb]
        elif std is not None:
            asc, desc = std.ascent / 1000, std.descent / 1000
        state.ascent, state.descent = _sane_extent(asc, desc, bbox, vscale)

    def _composite_metrics(self, state: FontState, desc_font: Any, descriptor: Any) -> None:
        dw = 1.0
        widths = RangeDict(dw)
        if desc_font is not None:
            dw = _num(desc_font.get("/DW"), 1000.0) / 1000
            widths = RangeDict(dw)
            _read_w(desc_font.get("/W"), widths, lambda vals: vals[0] / 1000, 1)
            if state.info.writing_mode == 1:
                dw2 = desc_font.get("/DW2")
                w1 = -1.0  # DW2's first entry (the origin's height) does not move the pen
                if isinstance(dw2, pikepdf.Array) and len(dw2) == 2:
                    w1 = _num(dw2[1], -1000) / 1000
                vwidths = RangeDict(w1)
                _read_w(desc_font.get("/W2"), vwidths, lambda vals: vals[0] / 1000, 3)
                state.vwidths = vwidths
        state.widths = widths
        asc = desc = None
        bbox = None
        if descriptor is not None:
            asc = _num(descriptor.get("/Ascent"), 0.0) / 1000
            desc = _num(descriptor.get("/Descent"), 0.0) / 1000
            fb = descriptor.get("/FontBBox")
            if isinstance(fb, pikepdf.Array) and len(fb) == 4:
                bbox = [_num(v) for v in fb]
        state.ascent, state.descent = _sane_extent(asc, desc, bbox, 0.001)
        if state.info.writing_mode == 1:
            # Vertical: the box spans half a width either side of the column.
            state.ascent, state.descent = 0.5, -0.5


def decoding_identity(info: FontInfo, sources: Sequence[tuple[str, Any]]) -> tuple[Any, ...] | None:
    """What the decoders can learn of a font, as a key two fonts have in common only when
    every decoder must answer alike for both (decoders are functions of the font's
    :class:`FontInfo` and the code): the info's public fields but its ``key`` and ``memo``,
    and where what it loads on demand comes from (``sources``, (what, stream or value)
    pairs: its ToUnicode, program, embedded CMap and CIDToGIDMap streams, a Type3 font's
    matrix and glyph procedures). A stream is named by its object number; None when one
    has none to name it by."""
    identity: list[Any] = []
    for name in _decoding_fields():
        value = getattr(info, name)
        identity.append(tuple(sorted(value.items())) if isinstance(value, dict) else value)
    for what, source in sources:
        if isinstance(source, pikepdf.Stream):
            source = source.objgen
            if source == (0, 0):
                return None
        identity.append((what, source))
    found = tuple(identity)
    try:
        hash(found)
    except TypeError:  # a field of a kind that cannot be compared this way: not shared
        return None
    return found


@functools.cache
def _decoding_fields() -> tuple[str, ...]:
    """The public fields of :class:`FontInfo` a decoder reads (all but ``key``, ``memo`` and
    ``charproc``, whose procedures :func:`decoding_identity` names by their streams)."""
    return tuple(field.name for field in attrs.fields(FontInfo)
                 if field.name not in ("key", "memo", "charproc") and not field.name.startswith("_"))


def _descendant_info(desc_font: Any, loader: Callable[[Any, str], Callable[[], bytes | None]]) -> dict[str, Any]:
    """What a Type0 font's descendant adds to its :class:`FontInfo`."""
    info: dict[str, Any] = {"descendant_subtype": _name(desc_font.get("/Subtype")) or ""}
    gid_map = desc_font.get("/CIDToGIDMap")
    if isinstance(gid_map, pikepdf.Stream):
        info["cid_to_gid_loader"] = loader(gid_map, "CIDToGIDMap")
    csi = desc_font.get("/CIDSystemInfo")
    if isinstance(csi, pikepdf.Dictionary):
        info["cid_system_info"] = (
            str(csi.get("/Registry", "")),
            str(csi.get("/Ordering", "")),
            int(_num(csi.get("/Supplement"), 0)),
        )
    return info


def _set_cmap(state: FontState, cmap: CMap, cids: DecodeTable) -> None:
    """Give a composite font its code → CID map and its cache ``cids``, and what the
    interpreter needs to split and space its strings."""
    state.cmap = cmap
    state.cids = cids
    lengths = cmap.code_lengths()
    state.space_single_byte = 1 in lengths
    state.code_width = next(iter(lengths)) if len(lengths) == 1 else 0


def _read_w(array: Any, target: RangeDict, pick: Callable[[list[float]], float], group: int) -> None:
    """Read a /W (group 1) or /W2 (group 3) array into ``target``.

    Entries may come in any order and overlap; the first entry in the file wins. Short
    ranges are expanded, long ones (4096 CIDs or more) stay ranges, so an entry that comes
    after a long range it overlaps must not beat it: each CID remembers the position of
    the entry that set it and yields to an earlier long range.
    """
    if not isinstance(array, pikepdf.Array):
        return
    items = list(array)
    i = 0
    n = len(items)
    explicit: dict[int, tuple[int, float]] = {}
    ranges: list[tuple[int, int, int, float]] = []  # (entry position, first, last, value)
    entry = 0
    while i + 1 < n:
        try:
            c = int(items[i])
        except (TypeError, ValueError):
            i += 1
            continue
        nxt = items[i + 1]
        entry += 1
        if isinstance(nxt, pikepdf.Array):
            vals = [_num(v) for v in nxt]
            for j in range(len(vals) // group):
                explicit.setdefault(c + j, (entry, pick(vals[j * group:(j + 1) * group])))
            i += 2
        else:
            last = int(_num(nxt))
            vals = [_num(v) for v in items[i + 2:i + 2 + group]]
            if len(vals) < group:
                break
            value = pick(vals)
            if last - c < 4096:
                for cid in range(c, last + 1):
                    explicit.setdefault(cid, (entry, value))
            else:
                ranges.append((entry, c, last, value))
            i += 2 + group
    for cid, (position, value) in explicit.items():
        for r_position, first, last, r_value in ranges:
            if r_position < position and first <= cid <= last:
                value = r_value
                break
        target[cid] = value
    target.ranges.extend((first, last, value) for _, first, last, value in ranges)


def _sane_extent(asc: float | None, desc: float | None, bbox: list[float] | None,
                 scale: float) -> tuple[float, float]:
    if not asc or asc <= 0:
        asc = bbox[3] * scale if bbox and bbox[3] * scale > 0 else DEFAULT_ASCENT
    if desc is None or desc >= 0 or desc == 0:
        desc = bbox[1] * scale if bbox and bbox[1] * scale < 0 else DEFAULT_DESCENT
    height = asc - desc
    if not 0.3 <= height <= 2.5:
        return DEFAULT_ASCENT, DEFAULT_DESCENT
    return asc, desc


def _with_wmode(cmap: CMap, wmode: int) -> CMap:
    cmap.wmode = wmode
    return cmap


def _predefined_cmap(name: str) -> CMap | None:
    """A predefined CMap by name (Identity, and Adobe's CMaps for the CJK collections).

    The CMaps are shared per process: never modify one (see :func:`_with_wmode`)."""
    from glyphweave.pdf.predefined import predefined_cmap

    return predefined_cmap(name)


def _std14(base_font: str) -> Any:
    from glyphweave.tables.std14 import canonical_std14_name, std14_metrics

    canonical = canonical_std14_name(base_font)
    return std14_metrics(canonical) if canonical else None


def _std14_widths(std: Any, info: FontInfo) -> list[float]:
    """Advances of a standard-14 font without /Widths: code → glyph name → AFM width."""
    from glyphweave.tables.encodings import base_encoding

    names: list[str | None]
    if info.base_encoding:
        try:
            names = list(base_encoding(info.base_encoding))
        except KeyError:
            names = [None] * 256
    elif std.builtin_encoding:
        names = [std.builtin_encoding.get(code) for code in range(256)]
    else:
        names = [None] * 256
    for code, glyph in info.differences.items():
        names[code] = glyph
    avg = DEFAULT_WIDTH
    return [std.widths.get(n, avg * 1000) / 1000 if n else avg for n in names]
