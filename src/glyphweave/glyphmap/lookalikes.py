"""Look-alike characters chosen by context (rules: the glyph registry): Ø/⌀/∅, µ/μ, Ω/Ω and the hyphen ‐.

A glyph that a person or a table maps to "a slashed circle" may be the Danish letter Ø
(U+00D8), the diameter sign ⌀ (U+2300) or the empty set ∅ (U+2205); which one it is shows
only in the text around it. These rules decide from that text, and only where the text
says so plainly: where no rule applies, the character is left as it is (a guess would be
worse than the look-alike, which at least shows what was printed).

The rules (``rule name``: what it decides):

* ``latin-word``: Ø, ⌀ or ∅ touching a Latin letter (``SØREN``, ``Ørsted``) is the letter
  Ø (Danish, Norwegian).
* ``diameter``: Ø, ⌀ or ∅ followed by a number and a length unit (``⌀ 6 mm``, ``Ø12,5mm``,
  ``∅ 1/2"``; units mm, cm, dm, m, km, µm, nm, inch, ``"``, ``″``) is the diameter sign ⌀. The
  bare ``in`` is not taken as a unit (``Ø 6 in the drawing``).
* ``empty-set``: Ø, ⌀ or ∅ alone between set braces (``{∅}``, ``{ Ø }``) or after ``=`` or
  ``≠`` and before the end of a clause (``A ∩ B = Ø.``) is the empty set ∅.
* ``micro-unit``: µ or μ not preceded by a letter and followed by a unit symbol (``5 µm``,
  ``10μF``, ``µs``, ``µmol/l``; m g s l L A V F W H C J N K S T Ω Hz mol Pa Wb eV Gy Sv Bq lm lx)
  is the micro sign µ U+00B5: the character keyboards type (AltGr+M), Latin-1 carries and
  search users look for. (NFKC folds it to μ; a corpus that wants that can normalize after.)
* ``greek-word``: µ or μ touching a Greek letter (``αμβ``) is the Greek letter μ U+03BC.
* ``ohm-sign``: the ohm sign Ω U+2126 is always the Greek capital Ω U+03A9. Unicode makes
  U+2126 canonically equivalent to U+03A9 (NFC replaces it) and discourages its use, so
  this needs no context and loses nothing.
* ``hyphen``: the hyphen ‐ U+2010 between two non-space characters (``e‐mail``, ``12‐34``)
  is the hyphen-minus ``-``, the same mark to a reader and the one search matches. At a
  line end or next to a space it stays.

Dashes are deliberately *not* rewritten: ``-`` between two numbers may be a range (an en
dash –), a subtraction, a date or a part number, and an en dash between two words may be a
compound (``Smith–Jones``); the text cannot tell them apart. The non-breaking hyphen
U+2011 stays (its no-break meaning would be lost).

Every rule reads the context with all look-alikes of one group folded to one character,
and changes a character only within its group, so the result does not depend on which
look-alike the text held and applying the rules twice changes nothing (idempotent).

This is a pure function of the text, not a pipeline stage: a filter returns the indices of
the glyphs it keeps and cannot change their text, a decoder answers for one character code
without its neighbours, and the rules need the assembled text (``⌀ 6 mm`` holds word
spaces that are gaps between glyphs, made by the assembler). They run where text is
finished: in :func:`glyphweave.glyphmap.clean.clean` and ``repair`` (``lookalikes=True``,
off by default), and as a helper a scan can use to propose a character from an entry's
context (:func:`choose_lookalike`).
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter

NAME = "lookalikes"

LATIN_CAPITAL_O_STROKE = "\u00d8"
DIAMETER = "\u2300"
EMPTY_SET = "\u2205"
MICRO = "\u00b5"
GREEK_MU = "\u03bc"
OHM_SIGN = "\u2126"
GREEK_OMEGA = "\u03a9"
HYPHEN = "\u2010"

_CIRCLES = LATIN_CAPITAL_O_STROKE + DIAMETER + EMPTY_SET
_MUS = MICRO + GREEK_MU
CANDIDATES = _CIRCLES + _MUS + OHM_SIGN + HYPHEN
"""The characters the rules may change."""

RULES = ("latin-word", "diameter", "empty-set", "micro-unit", "greek-word", "ohm-sign", "hyphen")

# The context is read with each group folded to one member, so a decision cannot change
# when a neighbour of the same or another group is rewritten.
_FOLD = str.maketrans({
    LATIN_CAPITAL_O_STROKE: EMPTY_SET, DIAMETER: EMPTY_SET,
    GREEK_MU: MICRO, OHM_SIGN: GREEK_OMEGA, HYPHEN: "-",
})
_CANDIDATE_RE = re.compile(f"[{CANDIDATES}]")
_WINDOW = 24
"""Characters of context read on each side (the longest rule needs about a dozen)."""

_SPACE = "[ \u00a0\u2009\u202f]?"
_NUMBER = r"\d+(?:[.,/]\d+)?"
_NOT_LETTER_AFTER = r"(?![^\W\d_])"
_DIAMETER_AFTER = re.compile(
    f"{_SPACE}{_NUMBER}{_SPACE}(?:(?:mm|cm|dm|km|nm|{MICRO}m|m|inch(?:es)?){_NOT_LETTER_AFTER}|[\"\u2033])")
_MICRO_UNIT_AFTER = re.compile(
    f"(?:Hz|mol|Pa|Wb|eV|Gy|Sv|Bq|lm|lx|[mgslLAVFWHCJNKST{GREEK_OMEGA}]){_NOT_LETTER_AFTER}")
_CLAUSE_END = re.compile(r"\s*(?:$|[.,;:)\]}$])")


def _is_latin_letter(ch: str) -> bool:
    if not ch or not ch.isalpha() or ch in _CIRCLES or ch in _MUS:
        return False
    return unicodedata.name(ch, "").startswith("LATIN")


def _is_greek_letter(ch: str) -> bool:
    if not ch or not ch.isalpha() or ch in _MUS:
        return False
    cp = ord(ch)
    return 0x0370 <= cp <= 0x03FF or 0x1F00 <= cp <= 0x1FFF or ch == OHM_SIGN


def _decide(before: str, ch: str, after: str) -> tuple[str, str | None]:
    """(the character, the rule that chose it or None) for ``ch`` between the folded
    contexts ``before`` and ``after``."""
    prev, nxt = before[-1:], after[:1]
    if ch in _CIRCLES:
        if _is_latin_letter(prev) or _is_latin_letter(nxt):
            return LATIN_CAPITAL_O_STROKE, "latin-word"
        if _DIAMETER_AFTER.match(after):
            return DIAMETER, "diameter"
        left = before.rstrip()
        if left.endswith("{") and after.lstrip().startswith("}"):
            return EMPTY_SET, "empty-set"
        if left.endswith(("=", "\u2260")) and _CLAUSE_END.match(after):
            return EMPTY_SET, "empty-set"
        return ch, None
    if ch in _MUS:
        if not (prev.isalpha() and prev != MICRO) and _MICRO_UNIT_AFTER.match(after):
            return MICRO, "micro-unit"
        if _is_greek_letter(prev) or _is_greek_letter(nxt):
            return GREEK_MU, "greek-word"
        return ch, None
    if ch == OHM_SIGN:
        return GREEK_OMEGA, "ohm-sign"
    if ch == HYPHEN:
        if prev and nxt and not prev.isspace() and not nxt.isspace():
            return "-", "hyphen"
        return ch, None
    return ch, None


def choose_lookalike(before: str, char: str, after: str) -> str:
    """The character ``char`` should be, given the text ``before`` and ``after`` it (see
    the module docstring); ``char`` itself when no rule decides or it is no look-alike."""
    if char not in CANDIDATES:
        return char
    return _decide(before[-_WINDOW:].translate(_FOLD), char, after[:_WINDOW].translate(_FOLD))[0]


def apply_lookalikes(text: str) -> tuple[str, Counter[str]]:
    """``text`` with every look-alike the rules decide replaced, and how many times each
    rule changed a character."""
    counts: Counter[str] = Counter()
    if not _CANDIDATE_RE.search(text):
        return text, counts
    folded = text.translate(_FOLD)
    out: list[str] = []
    last = 0
    for match in _CANDIDATE_RE.finditer(text):
        i = match.start()
        ch = text[i]
        new, rule = _decide(folded[max(0, i - _WINDOW):i], ch, folded[i + 1:i + 1 + _WINDOW])
        if new != ch and rule is not None:
            out.append(text[last:i])
            out.append(new)
            last = i + 1
            counts[rule] += 1
    if not counts:
        return text, counts
    out.append(text[last:])
    return "".join(out), counts


def normalize_lookalikes(text: str) -> str:
    """``text`` with the look-alike rules applied (idempotent)."""
    return apply_lookalikes(text)[0]
