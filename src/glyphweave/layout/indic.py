"""Indic pre-base vowel signs: drawn before their consonant, typed after it (rules: assembly).

In Devanagari and its neighbours the vowel sign I (``ि`` U+093F) is typed after the consonant
cluster it belongs to and drawn to its left: ``दिन`` is typed द ि न and drawn ि द न. A PDF
whose glyphs map to characters one by one, in the order drawn (XeTeX, and every producer
that paints a shaper's glyph run in order), so reads ``िदन``, a string no one types.

:func:`typed_syllables` puts each such sign back after its cluster. Text alone cannot say
where it belongs: ``पित`` is a typed word (प + ि, then त), and also what ``पति`` (प, then
त + ि) looks like drawn. Geometry can: a sign drawn before its cluster has that cluster as
its neighbour on the right, while a sign already in typed order stands after its consonant
in the text and before it on the page. So a sign moves when the glyph after it in the line
is a consonant of its script *and* the first letter to its right on the page, with no word
gap between them. Only where positions say nothing (the two glyphs' centres coincide) does
the text decide, and then only where typed text can never have the sign: at the start of a
line or word, or after anything that is not a consonant (or nukta) of its script.

The cluster the sign moves past is a consonant, its nukta, and the chains of virama and
consonant that follow it (``स्थ``, ``क्य``), whether the font draws it as one glyph or several.
The signs are those of Unicode's Indic positional category *Left* in the scripts whose
clusters this describes: Devanagari (U+093F, U+094E), Bengali (U+09BF, U+09C7, U+09C8),
Gurmukhi (U+0A3F), Gujarati (U+0ABF) and Oriya (U+0B47). Bengali's two-part vowels then
compose as typed (``ে`` + ``া`` after the consonant is ``ো`` under NFC). Tamil, Malayalam and
Sinhala also draw signs on the left, but their clusters form differently (a visible virama
ends one); they are left as drawn. The reph (``र्`` drawn on top of the next consonant) is
not moved.

:func:`joined_vowels` then writes the vowels some fonts draw in two parts as the one
character a reader types. Devanagari's ``ो`` is ``ा`` with ``े``'s mark above it, and a
font may draw it so, each part its own glyph mapped to its own character: ``फूलाें``
where the word is ``फूलों``. Unicode has no canonical decomposition for these (NFC leaves
``ाे`` alone), and no typed text has two vowel signs in a row, so the pairs are joined in
either order: ``ा`` + ``ॅ ॆ े ै`` are ``ॉ ॊ ो ौ``, and ``अ`` + ``ा`` is ``आ`` (Unicode's
table of Devanagari sequences not to use).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence

__all__ = ["PREBASE_MATRAS", "has_drawn_order", "has_prebase_matra", "joined_vowels", "typed_syllables"]

PREBASE_MATRAS = frozenset("\u093f\u094e\u09bf\u09c7\u09c8\u0a3f\u0abf\u0b47")
"""The vowel signs drawn before their consonant cluster that :func:`typed_syllables` moves."""

_AA = "\u093e"
_TWO_PARTS = {
    _AA + "\u0945": "\u0949", _AA + "\u0946": "\u094a", _AA + "\u0947": "\u094b", _AA + "\u0948": "\u094c",
    "\u0905" + _AA: "\u0906",
}
"""Devanagari vowels drawn in two parts, by their parts in typed order, and the vowel."""
_TWO_PARTS.update({pair[1] + pair[0]: vowel for pair, vowel in list(_TWO_PARTS.items()) if pair[0] == _AA})


@functools.cache
def _patterns() -> tuple[re.Pattern[str], re.Pattern[str], re.Pattern[str], re.Pattern[str]]:
    """The pre-base vowel signs, the two-part vowels, either, and the letters of these scripts
    (Devanagari to Oriya), compiled on first need: most runs read no Indic text (and the
    pages that could hold some are found by :func:`~.scripts.script_free` first)."""
    prebase = "[" + "".join(sorted(PREBASE_MATRAS)) + "]"
    parts = "|".join(sorted(_TWO_PARTS))
    return re.compile(prebase), re.compile(parts), re.compile(prebase + "|" + parts), re.compile("[\u0900-\u0b7f]")


# Consonants of each script (its block is the code point >> 7), and its nukta and virama.
_CONSONANTS = (
    (0x0915, 0x0939), (0x0958, 0x095F), (0x0978, 0x097F),  # Devanagari
    (0x0995, 0x09B9), (0x09DC, 0x09DF), (0x09F0, 0x09F1),  # Bengali
    (0x0A15, 0x0A39), (0x0A59, 0x0A5E),  # Gurmukhi
    (0x0A95, 0x0AB9), (0x0AF9, 0x0AF9),  # Gujarati
    (0x0B15, 0x0B39), (0x0B5C, 0x0B5F), (0x0B71, 0x0B71),  # Oriya
)
_NUKTAS = frozenset("\u093c\u09bc\u0a3c\u0abc\u0b3c")
_VIRAMAS = frozenset("\u094d\u09cd\u0a4d\u0acd\u0b4d")


def has_prebase_matra(text: str) -> bool:
    """Whether ``text`` holds a vowel sign :func:`typed_syllables` may move (cheap on ASCII)."""
    return not text.isascii() and _patterns()[0].search(text) is not None


def has_drawn_order(text: str) -> bool:
    """Whether ``text`` holds what :func:`typed_syllables` or :func:`joined_vowels` changes
    (cheap on ASCII, and on text with no letter of these scripts: one character class)."""
    if text.isascii():
        return False
    _prebase, _parts, drawn, scripts = _patterns()
    return scripts.search(text) is not None and drawn.search(text) is not None


def joined_vowels(text: str) -> str:
    """``text`` with every Devanagari vowel drawn in two parts written as its one character
    (module docstring)."""
    parts = _patterns()[1]
    if text.isascii() or parts.search(text) is None:
        return text
    return parts.sub(lambda m: _TWO_PARTS[m.group()], text)


def _consonant(char: str, block: int) -> bool:
    code = ord(char)
    return code >> 7 == block and any(lo <= code <= hi for lo, hi in _CONSONANTS)


def _split(piece: str) -> tuple[str, str]:
    """A piece's separator (the walk's " " in front of it) and its glyph's text."""
    if not piece or piece.isspace():
        return "", piece
    bare = piece.lstrip(" \n")
    return piece[: len(piece) - len(bare)], bare


def typed_syllables(pieces: Sequence[str], centres: Sequence[float] | None) -> list[str]:
    """The pieces of a line (each glyph's text with its separator, in the line's order) with
    every pre-base vowel sign drawn before its cluster moved after it (module docstring).

    ``centres`` are the glyphs' centres along the line, parallel to ``pieces``; None when
    the glyphs have no positions (the text alone then decides).
    """
    seps, texts = zip(*map(_split, pieces), strict=True) if pieces else ((), ())
    out = list(texts)
    n = len(out)
    i = 0
    while i < n:
        text = out[i]
        if not text or text[0] not in PREBASE_MATRAS or i + 1 >= n:
            i += 1
            continue
        block = ord(text[0]) >> 7
        nxt = out[i + 1]
        if seps[i + 1] or not nxt or not _consonant(nxt[0], block):
            i += 1
            continue
        if not _drawn_before(i, i + 1, out, seps, centres, block):
            i += 1
            continue
        end = _cluster_end(i + 1, out, seps, block)
        out[i:end] = [*out[i + 1:end], text]
        i = end
    return [sep + text for sep, text in zip(seps, out, strict=True)]


def _drawn_before(i: int, j: int, texts: Sequence[str], seps: Sequence[str], centres: Sequence[float] | None,
                  block: int) -> bool:
    """Whether the sign ``texts[i]`` was drawn before the consonant ``texts[j]`` that follows
    it: its right neighbour on the page, or, where positions cannot tell, a sign standing
    where typed text never has one."""
    if centres is not None and centres[i] != centres[j]:
        left, right = centres[i], centres[j]
        if left > right:
            return False
        # no letter of the line between them on the page (marks sit on their letters)
        return not any(left < centres[k] < right and texts[k] and texts[k][0].isalnum()
                       for k in range(len(texts)) if k != i and k != j)
    if i == 0 or seps[i]:
        return True  # at the start of a line or a word
    before = texts[i - 1]
    return not before or not (_consonant(before[-1], block) or before[-1] in _NUKTAS)


def _cluster_end(j: int, texts: Sequence[str], seps: Sequence[str], block: int) -> int:
    """One past the last glyph of the consonant cluster that starts at ``texts[j]``: the
    glyphs of its nuktas, and of each virama and the consonant after it."""
    k = j + 1
    n = len(texts)
    while k < n and not seps[k] and texts[k]:
        first = texts[k][0]
        mark = first in _NUKTAS or first in _VIRAMAS
        if not (mark or (texts[k - 1][-1] in _VIRAMAS and _consonant(first, block))):
            break
        k += 1
    return k
