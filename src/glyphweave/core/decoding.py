"""The decoder chain: asks decoders in profile order, once per (font, code) per document.

The first *confident* answer wins. An answer in the Private Use Area (U+E000-U+F8FF),
U+FFFD or a control character is weak (rules: decoders): MS Word, for one, writes ToUnicode
maps to U+F0xx for Symbol and Wingdings. A weak answer never reaches the text: when no
later decoder does better, the glyph is unresolved and counted (rules: decoders).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from typing import Any

import attrs

from glyphweave.core.fontinfo import FontInfo
from glyphweave.core.stages import Decoder
from glyphweave.guard.report import WarningRecord

log = logging.getLogger(__name__)

UNRESOLVED: tuple[str, None] = ("", None)


def is_private_use(cp: int) -> bool:
    """True for a Private Use Area code point: U+E000-U+F8FF or planes 15-16."""
    return 0xE000 <= cp <= 0xF8FF or cp >= 0xF0000


def has_private_use(text: str) -> bool:
    """True when ``text`` holds a Private Use Area character (see :func:`is_private_use`)."""
    return any(is_private_use(ord(ch)) for ch in text)


def is_weak_code_point(cp: int) -> bool:
    """True for a code point that cannot stand as a decoding: Private Use, U+FFFD, or a C0 or
    C1 control character."""
    return is_private_use(cp) or cp == 0xFFFD or cp < 0x20 or 0x7F <= cp < 0xA0


def is_weak(text: str) -> bool:
    """True when ``text`` cannot stand as a decoding on its own (rules: decoders): a character
    of it is weak (:func:`is_weak_code_point`); only U+FFFD of those is printable (Cc, Co, Cn)."""
    return "\ufffd" in text if text.isprintable() else any(is_weak_code_point(ord(ch)) for ch in text)


class DecodeTable(dict):  # type: ignore[type-arg]
    """code → (text, decoder name or None), filled on first use by the decoder chain."""

    __slots__ = ("__weakref__", "_resolve", "several")  # weak: the font loader shares tables

    def __init__(self, resolve: Callable[[Any], tuple[str, str | None]]) -> None:
        super().__init__()
        self._resolve = resolve
        self.several = False
        """Whether some code decoded so far maps to several characters, not all ASCII (a
        cluster; TeX's ``fi`` ligatures do not count): the interpreter then checks each
        string for clusters (pdf/clusters.py)."""

    def __missing__(self, code: Any) -> tuple[str, str | None]:
        value = self._resolve(code)
        self[code] = value
        if not self.several and type(value) is tuple and len(value[0]) > 1 and not value[0].isascii():
            # (fonts.py keeps CIDs in a table of this class too: their values are not tuples)
            self.several = True
        return value


class DecoderChain:
    """The profile's decoders, in order; builds each font's decode cache.

    A decoder that raises, or answers something other than a string or None, is skipped
    for that code (the next decoder is asked) and reported once per (decoder, exception
    type) (or type of the wrong answer): a line naming the decoder and where it came from
    (``describe``), the font, the code and the message of the first failure, collected by
    :meth:`take_failures` so the caller can count it as a warning of the page it hit. Later
    failures of the same kind are counted, not listed: :meth:`with_counts` adds the count
    to those lines (a decoder raising on every code of a font is one line, not one per code).
    """

    def __init__(self, decoders: Sequence[Decoder], describe: Callable[[str, str], str] | None = None) -> None:
        self.decoders = tuple(decoders)
        self._describe = describe or (lambda kind, name: f"{kind} {name!r}")
        self._failures: dict[tuple[str, str], _Failure] = {}
        """(decoder name, exception type or "returned T") -> the first failure and the count."""
        self._reported: dict[str, _Failure] = {}
        """Message handed out by :meth:`take_failures` -> its failure."""
        self._new: list[WarningRecord] = []
        self.recovered: dict[tuple[Any, bytes], str] = {}
        """(font key, code) -> the weak answer (a Private Use Area code, U+FFFD, a control)
        a later decoder replaced: the glyphs the registry's scan records as "recovered",
        since only a table stood between them and a PUA leak."""

    def take_failures(self) -> list[WarningRecord]:
        """Failure reports made since the last call, one per (decoder, exception type): warnings
        of kind ``component``, the decoder's name as their source."""
        new, self._new = self._new, []
        return new

    def with_count(self, warning: WarningRecord) -> WarningRecord:
        """``warning`` (a report of :meth:`take_failures`), saying how many times its failure
        happened so far when that is more than once: ``decoder 'x' raised ValueError 95 times
        (first: font 'F1', code 0x41: message)``. A warning this chain did not make (another
        process's, any other kind) is returned as it is."""
        failure = self._reported.get(warning.message) if warning.kind == "component" else None
        return warning if failure is None or failure.count == 1 else attrs.evolve(warning, message=failure.line())

    def table_for(self, info: FontInfo, to_cid: Callable[[bytes], int | None] | None = None) -> DecodeTable:
        """The decode cache of one font. Simple fonts (``info.composite`` false) are keyed by
        int codes; composite fonts by code bytes, with ``to_cid`` (the encoding CMap's lookup,
        None when the font has none) giving the CID decoders receive."""
        resolve_code = self._resolve

        if not info.composite:
            def resolve(code: Any) -> tuple[str, str | None]:
                return resolve_code(info, bytes((code,)), None)
        else:
            def resolve(code: Any) -> tuple[str, str | None]:
                cid = to_cid(code) if to_cid is not None else None
                return resolve_code(info, code, cid)

        return DecodeTable(resolve)

    def _resolve(self, info: FontInfo, code: bytes, cid: int | None) -> tuple[str, str | None]:
        weak: str | None = None
        for decoder in self.decoders:
            try:
                text = decoder.decode(info, code, cid)
            except Exception as exc:  # a broken plugin must not stop extraction
                self._failed(decoder, info, code, f"raised {type(exc).__name__}", " ".join(str(exc).split()))
                continue
            if text is None:
                continue
            if type(text) is not str:
                self._failed(decoder, info, code, f"returned {type(text).__name__} instead of str or None",
                             f"{text!r:.40}")
                continue
            if text and not is_weak(text):
                if weak is not None:
                    self.recovered[(info.key, code)] = weak
                return text, decoder.NAME
            if text and weak is None:
                weak = text
        return UNRESOLVED

    def _failed(self, decoder: Decoder, info: FontInfo, code: bytes, what: str, detail: str) -> None:
        key = (decoder.NAME, what)
        failure = self._failures.get(key)
        if failure is not None:
            failure.count += 1
            return
        failure = self._failures[key] = _Failure(
            who=self._describe("decoder", decoder.NAME), what=what,
            first=f"font {info.base_font!r}, code 0x{code.hex()}" + (f": {detail}" if detail else ""))
        line = failure.line()
        log.debug(line)
        self._reported[line] = failure
        self._new.append(WarningRecord(kind="component", message=line, source=decoder.NAME))


class _Failure:
    """One kind of failure of one decoder: the first one met, and how many there were."""

    __slots__ = ("who", "what", "first", "count")

    def __init__(self, who: str, what: str, first: str) -> None:
        self.who = who
        self.what = what
        self.first = first
        self.count = 1

    def line(self) -> str:
        times = "" if self.count == 1 else f" {self.count} times"
        return f"{self.who} {self.what}{times} (first: {self.first})"
