"""Cluster texts: one glyph's text that stands for the glyphs drawn after it too (rules: decoders).

A /ToUnicode CMap maps single glyphs, but a producer that shapes text itself knows clusters:
the glyphs that together draw one piece of text. fpdf2 (and others that write a HarfBuzz
run straight into the PDF) gives the whole cluster's text to its *first glyph in drawing
order*. In Devanagari and its neighbours that is the vowel sign I, drawn left of the
consonants it follows in typed text: the sign's glyph maps to ``दि`` (द + ि), and the
consonant's glyph after it maps to ``द`` once more (when the producer gave it a code of its
own) or to nothing. Read glyph by glyph, ``दिल्ली`` becomes ``दिदल्ली``, or ``यात्रियों``
becomes ``यात्रि यों`` (the unresolved conjunct's placeholder).

:func:`covered_by_clusters` recognises the sign's glyph by its text, a consonant cluster
followed by a pre-base vowel sign, which typed order never gives one glyph: a glyph of the
sign alone maps to the sign alone. The glyphs after it in the same string that spell the
cluster again, or have no text, are the cluster's other glyphs: they keep their place on the
page and get an empty text, decoded by the sign's decoder, so nothing is read twice and no
placeholder stands inside a word. A glyph whose text is not the rest of the cluster ends it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from operator import itemgetter

__all__ = ["PREBASE_MATRAS", "covered_by_clusters", "is_cluster_text"]

PREBASE_MATRAS = frozenset("\u093f\u094e\u09bf\u09c7\u09c8\u0a3f\u0abf\u0b47")
"""The vowel signs drawn before the consonant cluster they follow in typed text (Unicode's
Indic positional category *Left*, in Devanagari, Bengali, Gurmukhi, Gujarati and Oriya): the
signs ``layout/indic.py`` moves, which the layers keep apart (a test holds them equal)."""

_PREBASE = re.compile("[" + "".join(sorted(PREBASE_MATRAS)) + "]")
_TEXT = itemgetter(0)

Decoded = tuple[str, "str | None"]
"""A glyph's text and the decoder that gave it (None: unresolved)."""


def is_cluster_text(text: str) -> bool:
    """Whether ``text``, one glyph's, is a whole cluster ending with a pre-base vowel sign
    (at least one letter before the sign): the mark of a producer that maps clusters."""
    return len(text) > 1 and text[-1] in PREBASE_MATRAS and text[0].isalpha() and text[0] not in PREBASE_MATRAS


def covered_by_clusters(decoded: Sequence[Decoded]) -> tuple[Decoded, ...]:
    """``decoded`` (one string's glyphs, in drawing order) with the glyphs that a cluster
    text before them already spells given an empty text (module docstring). A string
    without a pre-base sign comes back as it is, after one scan at C speed."""
    if _PREBASE.search("".join(map(_TEXT, decoded))) is None:
        return tuple(decoded)
    out = list(decoded)
    n = len(out)
    i = 0
    while i < n:
        text, by = out[i]
        i += 1
        if not is_cluster_text(text):
            continue
        cluster = text[:-1]
        spelled = ""
        j = i
        while j < n and spelled != cluster:
            part, part_by = out[j]
            if part_by is not None:
                if not part or not cluster.startswith(spelled + part):
                    break
                spelled += part
            out[j] = ("", by)
            j += 1
        i = j
    return tuple(out)
