"""Right-to-left scripts and ligatures: the text of a line as a reader would type it (rules: assembly).

A PDF paints glyphs in visual order, left to right on the page; Arabic comes in contextual
presentation forms (initial, medial, final, lam-alef ligatures) and Latin text in ligature
glyphs (``ﬁ``). A reader searches and copies logical text with base letters, so the assembler
undoes all three here: :func:`expand_ligatures`, :func:`normalize_arabic_forms` and
:func:`logical_order`, with :func:`has_rtl` as the cheap test that keeps ordinary lines on the
fast path. Pure Python and standard library only: core imports nothing else.

Why our own bidi level resolution rather than python-bidi: python-bidi 0.6 (LGPL, a compiled
wrapper of the Rust unicode-bidi crate) exposes only ``get_display`` and ``get_base_level``.
``get_display`` answers logical → visual on a string of characters; we need visual → logical
on a list of *glyphs*, where a glyph's text (a ligature's ToUnicode string) must never be
reversed inside, and it does not expose the embedding levels that would let us reorder glyphs
ourselves. The part of UAX #9 a single line needs (one paragraph, no explicit embeddings:
W1-W7, N1-N2, I1-I2, L1, L2, L4) is under two hundred lines here, and owning it lets us
resolve levels per glyph and in an approximately logical order (below), which a string API
cannot; core also stays free of compiled dependencies.

Visual → logical, and how it is approximated: the L2 reordering is an involution when every
unit carries its resolved level, so reordering the visual units by their levels gives the
logical order back. The levels themselves, though, are defined on logical text, which we do
not have. We resolve them on the best approximation at hand: the visual order for a
left-to-right paragraph, the reversed visual order for a right-to-left one; each is exactly
the logical order of the paragraph's own direction and differs only inside the embedded
runs of the other direction. The rules that look at order within such a run are the ones
that can answer differently from the typed text: W2 (a European number after Arabic letters
counts as Arabic), W5 (``%`` or ``$`` next to a number), and L1 (whitespace at the line's end).
Explicit embeddings and isolates (LRE ... PDF, LRI ... PDI) are not honoured: the former are
ignored as X9 removes them, the latter are neutrals; bracket pairs (N0) are resolved as plain
neutrals; unassigned code points count as L. Text extracted from PDFs rarely contains any of
these, and whatever it does contain is never lost, only possibly misplaced. Brackets are
mirrored back (L4) from a table of the common pairs, not the whole of BidiMirroring.txt.

Some visual lines have two logical readings, and no algorithm can tell which was typed: a
number between a Latin word and right-to-left text (``abc 123`` + Hebrew reads as Hebrew,
``123 abc`` or as Hebrew, ``abc 123``: we give the first), and a line with Latin at one end and
right-to-left text at the other (an LTR paragraph or an RTL one: see _paragraph_is_rtl, and
pass ``paragraph_rtl`` when the document says). Measured while writing this, on 20,000 random
mixed Hebrew/Arabic/Latin/digit/punctuation lines laid out by python-bidi with the paragraph
direction given: 91% came back exactly as typed, 8.5% as the other equally valid reading, and
0.5% (``%`` and ``$`` against numbers, W5) as neither.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Sequence

__all__ = ["expand_ligatures", "has_rtl", "logical_order", "normalize_arabic_forms"]

# --- ligatures -------------------------------------------------------------------------------

_LATIN_LIGATURES: dict[int, str] = {
    0xFB00: "ff",
    0xFB01: "fi",
    0xFB02: "fl",
    0xFB03: "ffi",
    0xFB04: "ffl",
    0xFB05: "st",  # LONG S T: the long s is a historical s, NFKC folds it the same way
    0xFB06: "st",
}
_LATIN_LIGATURE = re.compile("[\ufb00-\ufb06]")
_LIGATURE_SPELLINGS = tuple((chr(code), spelled) for code, spelled in _LATIN_LIGATURES.items())


def expand_ligatures(text: str) -> str:
    """Spell out the Latin ligatures U+FB00-FB06 (``ﬁ`` → ``fi``), so the text is searchable.

    Called on every line: ASCII text (an O(1) check on a CPython str) and text without a
    ligature (one regex scan) come back unchanged without being copied. The ligatures found
    are replaced one kind at a time: ``str.translate`` looks every character of a text
    beyond Latin-1 up in its table, 25 times slower on a page of a book (3% of its time).
    """
    if text.isascii() or not _LATIN_LIGATURE.search(text):
        return text
    for ligature, spelled in _LIGATURE_SPELLINGS:
        if ligature in text:
            text = text.replace(ligature, spelled)
    return text


def _block_class(blocks: Sequence[tuple[int, int]]) -> str:
    """A regex character class of the code point ranges ``blocks`` (compiled where needed,
    by :func:`_compiled`)."""
    return "".join(["[", *(f"{re.escape(chr(a))}-{re.escape(chr(b))}" for a, b in blocks), "]"])


@functools.cache
def _compiled(pattern: str) -> re.Pattern[str]:
    """``pattern`` compiled, once: for the classes only text beyond Latin-1 is searched with
    (each costs a run a tenth to half a millisecond to compile, paid only where needed)."""
    return re.compile(pattern)


# --- Arabic presentation forms ---------------------------------------------------------------

# Presentation forms A and B. U+FEFF is left out on purpose: it is the byte order mark / zero
# width no-break space, not Arabic, and whether to drop it is a cleaning decision for whoever
# owns invisible characters, not for this function, which never touches other characters.
_ARABIC_FORM_BLOCKS = ((0xFB50, 0xFDFF), (0xFE70, 0xFEFE))
_ARABIC_FORM = _block_class(_ARABIC_FORM_BLOCKS)
"""The presentation-form blocks as a character class (compiled on first need, see
:func:`_compiled`: a class beyond Latin-1 costs a tenth of a millisecond to compile, which a
run on text with no Arabic need not pay)."""


@functools.cache
def _arabic_forms() -> dict[int, str]:
    """Each presentation form → its NFKC base letters, without the space of isolated harakat."""
    table: dict[int, str] = {}
    for first, last in _ARABIC_FORM_BLOCKS:
        for code in range(first, last + 1):
            char = chr(code)
            base = unicodedata.normalize("NFKC", char)
            if base == char:
                continue  # unassigned, a noncharacter, or an ornament with no decomposition
            # U+FE70-FE7F and the isolated shadda ligatures decompose to SPACE + marks: the
            # space only carried the mark for display, the reader typed the mark alone.
            if base[0] == " " and len(base) > 1 and all(unicodedata.combining(c) for c in base[1:]):
                base = base[1:]
            table[code] = base
    return table


def normalize_arabic_forms(text: str) -> str:
    """Arabic presentation forms (U+FB50-FDFF, U+FE70-FEFE) → base letters, in logical order.

    Fonts and older producers map glyphs to the contextual forms (``ﺣ`` initial hah); a reader
    types and searches the base letter (``ح``). This is NFKC applied to those characters only
    (lam-alef ``ﻻ`` → lam, alef; an isolated haraka → the bare mark); every other character,
    U+FEFF included, is left as it is. Text without a form comes back unchanged, uncopied.
    """
    if text.isascii() or not _compiled(_ARABIC_FORM).search(text):
        return text
    return text.translate(_arabic_forms())


# --- right-to-left detection -----------------------------------------------------------------

# Every strong right-to-left character (bidi class R or AL) and every Arabic number (AN) lies
# in these blocks; a test checks that against the whole of unicodedata, so a Unicode upgrade
# that adds one elsewhere fails it.
_RTL_BLOCKS = ((0x0590, 0x08FF), (0x200F, 0x200F), (0xFB1D, 0xFDFF), (0xFE70, 0xFEFE),
               (0x10800, 0x10FFF), (0x1E800, 0x1EFFF))


@functools.cache
def _class_pattern(classes: frozenset[str]) -> re.Pattern[str]:
    """A regex character class of the code points in _RTL_BLOCKS with one of these bidi classes."""
    ranges: list[str] = []
    for first, last in _RTL_BLOCKS:
        start = None
        for code in range(first, last + 2):
            wanted = code <= last and unicodedata.bidirectional(chr(code)) in classes
            if wanted and start is None:
                start = code
            elif not wanted and start is not None:
                ranges.append(f"{re.escape(chr(start))}-{re.escape(chr(code - 1))}")
                start = None
    return re.compile(f"[{''.join(ranges)}]")


_SCRIPTED_BLOCKS = (*_RTL_BLOCKS, (0x0900, 0x0B7F), (0x210E, 0x210E), (0x1D400, 0x1D7FF))
"""The characters the script rules reorder or fold: right-to-left blocks (:func:`has_rtl`),
Devanagari to Oriya (:func:`~.indic.has_drawn_order`) and the mathematical letters
(:func:`~.mathletters.fold_math_letters`). (Not the Latin ligatures: TeX's pages are full of
them, and :func:`expand_ligatures` finds them faster on its own.)"""


@functools.cache
def _block_patterns(blocks: tuple[tuple[int, int], ...]) -> tuple[re.Pattern[str] | None, re.Pattern[str] | None]:
    """The classes of ``blocks``' ranges within the Basic Multilingual Plane and beyond it
    (None where there are none), compiled once: the first is one table look-up a character
    (half a millisecond to compile, which a run on ASCII text never pays), the second tested
    range by range."""
    plane = [(a, min(b, 0xFFFF)) for a, b in blocks if a <= 0xFFFF]
    beyond = [(max(a, 0x10000), b) for a, b in blocks if b > 0xFFFF]
    return (re.compile(_block_class(plane)) if plane else None, re.compile(_block_class(beyond)) if beyond else None)


def blocks_searched(text: str, blocks: tuple[tuple[int, int], ...]) -> bool:
    """Whether a character of ``text`` lies in one of ``blocks`` (first and last code
    point): the classes of :func:`_block_patterns` searched, the one beyond the Basic
    Multilingual Plane only in a text that has such a character (its UTF-16 form is then
    longer than two bytes a character, a copy cheaper than a scan). The reference of the
    compiled build's loop in C, which :func:`script_free` runs where it is built."""
    plane, beyond = _block_patterns(blocks)
    if plane is not None and plane.search(text) is not None:
        return True
    return (beyond is not None and len(text.encode("utf-16-le", "surrogatepass")) != 2 * len(text)
            and beyond.search(text) is not None)


try:  # the compiled build: the blocks looked for by a loop in C, the same answer
    from glyphweave.layout._ctext import any_in as _any_in
except ImportError:  # a pure install: the reference
    _any_in = blocks_searched


_LAST_FREE = [""]
"""The text :func:`script_free` last found free: the page's text is asked about again by
the next rule, the same string."""


def script_free(text: str) -> bool:
    """Whether ``text`` holds none of the characters the script rules reorder or fold
    (right-to-left letters, Indic scripts, mathematical letters), so that :func:`has_rtl`
    and :func:`~.indic.has_drawn_order` are false and :func:`~.mathletters.fold_math_letters`
    leaves it as it is.

    The rules scanned each page once each, over character classes with ranges beyond the
    Basic Multilingual Plane, which the regex engine tests range by range. Here one scan
    (:func:`blocks_searched`) looks for all their blocks at once: a third of the three scans in the
    pure build, a loop of comparisons in C in the compiled one. The answer for the text
    last found free is kept, by identity, for the next rule asking."""
    if text.isascii() or text is _LAST_FREE[0]:
        return True
    if _any_in(text, _SCRIPTED_BLOCKS):
        return False
    _LAST_FREE[0] = text
    return True


# The blocks themselves: a handful of ranges the regex engine checks far faster (about 15x on
# accented Latin) than the hundred-odd exact ones, so the exact pattern runs only on text that
# has something in these blocks.
_RTL_BLOCK = _block_class(_RTL_BLOCKS)
_RTL = frozenset({"R", "AL"})
# What makes a left-to-right line's order differ from its visual order at all: a right-to-left
# letter, or Arabic digits (class AN, which UAX #9 lays out right-to-left around neutrals:
# "١ ٢" displays as "٢ ١" even in a Latin line). Without any, every level is 0.
_NEEDS_BIDI = frozenset({"R", "AL", "AN"})


def has_rtl(text: str) -> bool:
    """Whether the text holds a strong right-to-left character (Hebrew, Arabic, Syriac, ...).

    Exactly the characters whose bidi class is R or AL (letters, presentation forms, RLM):
    what makes a line right-to-left. Arabic digits (class AN) and marks do not count.
    """
    if text.isascii() or not _compiled(_RTL_BLOCK).search(text):
        return False
    return _class_pattern(_RTL).search(text) is not None


# --- bidi: classes ---------------------------------------------------------------------------

_STRONG = frozenset({"L", "R", "AL"})
_NUMBER = frozenset({"EN", "AN"})
_NEUTRAL = frozenset({"B", "S", "WS", "ON"})

# X9 removes the explicit embeddings, which we do not honour, with BN; isolates are neutrals
# here; an unassigned code point ("") counts as L.
_CLASS_ALIASES = {"LRE": "BN", "RLE": "BN", "LRO": "BN", "RLO": "BN", "PDF": "BN",
                  "LRI": "ON", "RLI": "ON", "FSI": "ON", "PDI": "ON", "": "L"}


def _char_class(char: str) -> str:
    cls = unicodedata.bidirectional(char)
    return _CLASS_ALIASES.get(cls, cls)


def _unit_class(unit: str) -> str:
    """One bidi class for a glyph's text: its first strong character's, else a number's, else its first."""
    if len(unit) == 1:
        return _char_class(unit)
    classes = [_char_class(c) for c in unit]
    for wanted in (_STRONG, _NUMBER):
        for cls in classes:
            if cls in wanted:
                return cls
    return next((cls for cls in classes if cls != "BN"), "BN")


def _paragraph_is_rtl(classes: Sequence[str]) -> bool:
    """The paragraph direction of a line seen in visual order (P2-P3, inverted).

    P2 takes the first strong character in logical order. That character is the leftmost
    strong one of a left-to-right paragraph and the rightmost of a right-to-left one, so when
    both ends agree only one direction fits. When they disagree (``abc ...`` + Hebrew: either
    an LTR line ending in Hebrew or an RTL line ending in Latin) the direction with more strong
    characters wins, and a tie goes right-to-left: this function only runs on lines that hold
    right-to-left text.
    """
    strong = [cls for cls in classes if cls in _STRONG]
    if not strong:
        return False
    left_rtl, right_rtl = strong[0] != "L", strong[-1] != "L"
    if left_rtl == right_rtl:
        return left_rtl
    ltr = strong.count("L")
    return len(strong) - ltr >= ltr


# --- bidi: level resolution (UAX #9 W1-W7, N1-N2, I1-I2, L1 for one paragraph) ----------------

def _resolve_marks(types: list[str], sos: str) -> None:
    """W1 in place: a mark (NSM) takes the class of the character it sits on.

    One change for text that is only approximately logical: a mark after a neutral (or at the
    start) takes the class of the strong character after it, since in the order we resolve in,
    a mark of the other direction's run can precede its base.
    """
    for i, cls in enumerate(types):
        if cls != "NSM":
            continue
        before = types[i - 1] if i else None
        if before is None or before in _NEUTRAL:
            after = next((t for t in types[i + 1:] if t != "NSM"), None)
            if after is not None and after in _STRONG:
                types[i] = after
                continue
        types[i] = before if before is not None else sos


def _resolve_weak(types: list[str], sos: str) -> None:
    """W1-W7 in place; ``sos`` is the paragraph's embedding direction, "L" or "R"."""
    count = len(types)
    _resolve_marks(types, sos)
    last_strong = sos
    for i, cls in enumerate(types):  # W2, W3
        if cls in _STRONG:
            last_strong = cls
            if cls == "AL":
                types[i] = "R"
        elif cls == "EN" and last_strong == "AL":
            types[i] = "AN"
    for i in range(1, count - 1):  # W4
        before, cls, after = types[i - 1], types[i], types[i + 1]
        if before == after and ((cls == "ES" and before == "EN") or (cls == "CS" and before in _NUMBER)):
            types[i] = before
    i = 0
    while i < count:  # W5
        if types[i] != "ET":
            i += 1
            continue
        end = i
        while end < count and types[end] == "ET":
            end += 1
        if (i and types[i - 1] == "EN") or (end < count and types[end] == "EN"):
            types[i:end] = ["EN"] * (end - i)
        i = end
    last_strong = sos
    for i, cls in enumerate(types):  # W6, W7
        if cls in ("ES", "ET", "CS"):
            types[i] = "ON"
        elif cls in ("L", "R"):
            last_strong = cls
        elif cls == "EN" and last_strong == "L":
            types[i] = "L"


def _resolve_neutral(types: list[str], embedding: str) -> None:
    """N1-N2 in place: a run of neutrals takes the direction around it if both sides agree."""
    count = len(types)
    i = 0
    while i < count:
        if types[i] not in _NEUTRAL:
            i += 1
            continue
        end = i
        while end < count and types[end] in _NEUTRAL:
            end += 1
        before = types[i - 1] if i else embedding  # sos and eos are the paragraph's direction
        after = embedding if end == count else types[end]
        before, after = ("R" if t in _NUMBER else t for t in (before, after))
        types[i:end] = [before if before == after else embedding] * (end - i)
        i = end


def _resolve_levels(classes: Sequence[str], rtl: bool) -> list[int]:
    """The embedding level of each unit of a single paragraph with no explicit embeddings."""
    embedding = "R" if rtl else "L"
    base = 1 if rtl else 0
    kept = [i for i, cls in enumerate(classes) if cls != "BN"]  # X9
    types = [classes[i] for i in kept]
    _resolve_weak(types, embedding)
    _resolve_neutral(types, embedding)
    levels = [base] * len(classes)
    for i, cls in zip(kept, types, strict=True):  # I1, I2
        if cls == "L":
            levels[i] = base + (base & 1)
        elif cls == "R":
            levels[i] = base + 1 - (base & 1)
        else:  # AN, EN
            levels[i] = base + 2 - (base & 1)
    previous = base
    for i, cls in enumerate(classes):  # removed characters ride with the one before them
        if cls == "BN":
            levels[i] = previous
        previous = levels[i]
    trailing = True  # L1: separators, and whitespace before them or at the end of the line
    for i in range(len(classes) - 1, -1, -1):
        cls = classes[i]
        if cls in ("S", "B"):
            levels[i] = base
            trailing = True
        elif trailing and cls in ("WS", "BN"):
            levels[i] = base
        else:
            trailing = False
    return levels


# --- bidi: reordering ------------------------------------------------------------------------

# L4: the Bidi_Mirrored characters a right-to-left run paints with its partner's glyph. The
# common pairs only (unicodedata has the property, not the partner); a test checks that each
# one has the property.
_MIRROR_PAIRS = ("()", "<>", "[]", "{}", "\u00ab\u00bb", "\u2039\u203a", "\u2045\u2046", "\u207d\u207e",
                 "\u208d\u208e", "\u2208\u220b", "\u2264\u2265", "\u2266\u2267", "\u226a\u226b",
                 "\u2282\u2283", "\u2286\u2287", "\u228f\u2290", "\u2291\u2292", "\u2308\u2309",
                 "\u230a\u230b", "\u2329\u232a", "\u27e8\u27e9", "\u27e6\u27e7", "\u27ea\u27eb",
                 "\u3008\u3009", "\u300a\u300b", "\u300c\u300d", "\u300e\u300f", "\u3010\u3011",
                 "\u3014\u3015", "\u3016\u3017", "\u3018\u3019", "\u301a\u301b", "\ufe59\ufe5a",
                 "\ufe5b\ufe5c", "\ufe5d\ufe5e", "\ufe64\ufe65", "\uff08\uff09", "\uff1c\uff1e",
                 "\uff3b\uff3d", "\uff5b\uff5d", "\uff62\uff63")
_MIRROR: dict[int, str] = {}
for _pair in _MIRROR_PAIRS:
    _MIRROR[ord(_pair[0])], _MIRROR[ord(_pair[1])] = _pair[1], _pair[0]
del _pair


def _reorder(units: Sequence[str], levels: Sequence[int]) -> list[str]:
    """L2: reverse every run at level k or higher, from the highest level down to 1.

    Its own inverse when the levels travel with the units, which is what lets visual order
    be turned back into logical order with the same step.
    """
    pairs = list(zip(levels, units, strict=True))
    top = max(levels, default=0)
    for level in range(top, 0, -1):
        i, count = 0, len(pairs)
        while i < count:
            if pairs[i][0] < level:
                i += 1
                continue
            end = i
            while end < count and pairs[end][0] >= level:
                end += 1
            pairs[i:end] = pairs[i:end][::-1]
            i = end
    return [unit for _, unit in pairs]


def _logical_units(units: Sequence[str], rtl: bool | None) -> list[str]:
    """The reference path of :func:`logical_order`: every step, on any line."""
    units = [normalize_arabic_forms(unit) for unit in units]
    classes = [_unit_class(unit) for unit in units]
    if rtl is None:
        rtl = _paragraph_is_rtl(classes)
    # Resolve in the order closest to the logical one we can have (module docstring).
    levels = _resolve_levels(classes[::-1], rtl)[::-1] if rtl else _resolve_levels(classes, rtl)
    mirrored = [unit.translate(_MIRROR) if level & 1 else unit for unit, level in zip(units, levels, strict=True)]  # L4
    return _reorder(mirrored, levels)


def logical_order(units: Sequence[str], *, paragraph_rtl: bool | None = None) -> str:
    """One line's text in logical order (as typed) from its glyphs' texts in visual order.

    ``units`` are the texts of the line's glyphs left to right as painted, and the " " word
    spaces between them; a unit of several characters (a ligature) is already logical and is
    moved whole, never reversed inside. Right-to-left runs come back reversed, the numbers and
    Latin words inside them keep their own order, brackets in them are mirrored back, and
    Arabic presentation forms become base letters, following UAX #9 as the module docstring
    describes. ``paragraph_rtl`` overrides the paragraph direction when the caller knows it;
    by default it is guessed from the line (:func:`_paragraph_is_rtl`). A line with neither
    right-to-left letters nor Arabic digits comes back joined, untouched, at once.
    """
    text = "".join(units)
    if not paragraph_rtl and (text.isascii() or not _compiled(_RTL_BLOCK).search(text)
                           or not _class_pattern(_NEEDS_BIDI).search(text)):
        return text  # every level would be 0: nothing moves
    return "".join(_logical_units(units, paragraph_rtl))
