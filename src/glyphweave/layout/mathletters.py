"""Mathematical letters (rules: assembly): the styled alphabets of U+1D400-U+1D7FF read as
the letters and digits a reader types.

unicode-math (XeLaTeX, LuaLaTeX) and typst map every math-italic ``x`` to U+1D465 MATHEMATICAL
ITALIC SMALL X in ToUnicode, so the text holds ``𝑥`` where a reader searches for ``x``.
The block's bold, italic, script, fraktur, double-struck, sans-serif and monospace letters,
Greek letters and digits fold to their plain characters (their Unicode compatibility
decomposition, as NFKC gives it); U+210E PLANCK CONSTANT ``ℎ`` folds too, because it is the
math italic ``h`` (the block leaves that code point unassigned and points to it). The other
letterlike symbols (``ℝ``, ``ℕ``, ``ℓ``) are symbols a reader types as such and stay.

:func:`composed_negations` writes a negated relation as its character: TeX's ``\not=`` draws
U+0338 COMBINING LONG SOLIDUS OVERLAY first, then the ``=`` it strikes through, at the same
place, so the text holds the overlay before its base (and, the two glyphs being painted one
after the other, often a space between), where a reader types ``≠``. An overlay before a
character it composes with under NFC (``= < > ≤ ≥ ∈ ⊂ ≡ ∼ ≈ ∣``...) becomes the composed
character; any other overlay stays.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from .scripts import script_free

_MATH = re.compile("[\U0001d400-\U0001d7ff\u210e]")
_OVERLAY = "\u0338"
_NEGATED = re.compile(_OVERLAY + " ?(.)")


def fold_math_letters(text: str) -> str:
    """``text`` with the mathematical alphanumeric symbols folded to plain letters and
    digits (the module docstring says which). Text without one comes back unchanged
    (:func:`~.scripts.script_free`: a page's text the script rules just found free of
    scripted characters is not scanned again)."""
    if script_free(text) or not _MATH.search(text):
        return text
    return _MATH.sub(_plain, text)


def _plain(match: re.Match[str]) -> str:
    return _fold(match.group())


@lru_cache(maxsize=2048)
def _fold(char: str) -> str:
    """The plain character of one math letter (itself when it has none: an unassigned code point)."""
    folded = unicodedata.normalize("NFKC", char)
    return folded if folded and folded != char else char


def composed_negations(text: str) -> str:
    """``text`` with each long solidus overlay drawn before the relation it negates written
    as the negated relation (module docstring). Text without one comes back unchanged."""
    if _OVERLAY not in text:
        return text
    return _NEGATED.sub(_negated, text)


def _negated(match: re.Match[str]) -> str:
    composed = unicodedata.normalize("NFC", match.group(1) + _OVERLAY)
    return composed if len(composed) == 1 else match.group()
