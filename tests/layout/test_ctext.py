"""The compiled build's work on a page's text (``_ctext``) answers as the references do: the
words dehyphenation reads (the pattern's matches), on every kind of character the pattern's
class and its hyphens tell apart, whether the text holds a character of the script rules'
blocks, the list of the glyphs' texts the run walk writes into, and whether a run's
advances hold a zero.

Skipped where the C module is not built (a pure install); the ``mypyc`` tox environment
builds it, and compares both builds' text on every shared PDF besides.
"""

from __future__ import annotations

import sys
import unicodedata
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from glyphweave.core.runs import Run
from glyphweave.layout import hyphens, runwalk, scripts

native = pytest.importorskip("glyphweave.layout._ctext", reason="the C text scans are not built (a pure install)")

# Letters of several scripts, digits that are and are not decimal, marks, "_", both hyphens,
# the soft hyphen, white-space, punctuation, astral letters and digits, ideographs.
_SAMPLES = ("aZé\u00df\u0130\u01c5\u0391\u03c9\u0416\u05d0\u0627\u0915\u093f\u0e01\u4e2d\u3042\uac00"
            "09\u00b2\u00bd\u0663\u0966\u2167\u2460\uff10_-\u2010\u00ad\u2011 \n\t.,'\u2019\u0301\u200d"
            "\U0001d400\U0001d7ce\U00010400\U00020000\U0001f600")


def test_the_class_matches_the_pattern_on_every_code_point():
    # One character at a time: a word is a letter, and only a letter.
    for ch in map(chr, range(sys.maxunicode + 1)):
        if 0xD800 <= ord(ch) <= 0xDFFF:
            continue
        assert native.words(ch) == hyphens._WORD.findall(ch), (hex(ord(ch)), unicodedata.name(ch, "?"))


@pytest.mark.parametrize("text", [
    "", "a", "-a", "a-", "a-b", "a--b", "a-\u2010b", "a\u2010b-c", "well-known, so-so.", "re-\nenter",
    "x- y", "a-1b", "1a-b2", "a_b", "A\u0301B", "\u00e9t\u00e9-\u00e9l\u00e8ve", "\u4e2d\u6587-\u4e2d",
    "\U0001d400\U0001d401-x", "a\u00adb", "-" * 5 + "a" + "-" * 5,
])
def test_cases(text):
    assert native.words(text) == hyphens._WORD.findall(text)


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet=st.sampled_from(_SAMPLES), max_size=60))
def test_generated_text(text):
    assert native.words(text) == hyphens._WORD.findall(text)


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=40))
def test_any_text(text):
    assert native.words(text) == hyphens._WORD.findall(text)


def test_dehyphenation_reads_the_page_with_it():
    assert hyphens._page_words is native.words


_BLOCKS = [
    scripts._SCRIPTED_BLOCKS,
    scripts._RTL_BLOCKS,
    ((0xFB00, 0xFB06),),
    ((0x41, 0x41), (0x2010, 0x2010)),  # blocks within Latin-1 and within the plane
    ((0xFFF0, 0x10010),),  # a block across the plane's end
    ((0x1F600, 0x1F64F), (0x20000, 0x2A6DF)),  # beyond the plane only
    (),
]


@pytest.mark.parametrize("blocks", _BLOCKS)
def test_blocks_on_every_code_point(blocks):
    for code in range(0, sys.maxunicode + 1, 7):
        if 0xD800 <= code <= 0xDFFF:
            continue
        inside = any(a <= code <= b for a, b in blocks)
        for text in (chr(code), "ab\u00e9 " + chr(code)):  # alone, and after Latin-1 text
            assert native.any_in(text, blocks) is scripts.blocks_searched(text, blocks) is inside, (hex(code), blocks)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from(_SAMPLES + "\u05d0\u0627\u200f\ufb01\ufefe\U0001d7ff\U00010800"), max_size=30),
       st.sampled_from(_BLOCKS))
def test_generated_blocks(text, blocks):
    assert native.any_in(text, blocks) is scripts.blocks_searched(text, blocks)


def test_script_free_looks_with_it():
    assert scripts._any_in is native.any_in
    assert not scripts.script_free("caf\u00e9 \u05d0")
    assert scripts.script_free("caf\u00e9 \u2019")


_PAIRS = st.sampled_from([("a", "tounicode"), ("", None), ("", "tounicode"), ("fi", "encoding"), ("x", None),
                          ("\u4e2d", "cid-collection"), ("", "actualtext")])


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.lists(_PAIRS, max_size=6), st.booleans()), max_size=6))
def test_glyph_texts(runs):
    runs = [_run(tuple(pairs) if as_tuple else list(pairs)) for pairs, as_tuple in runs]
    expected = runwalk.glyph_texts(runs, "\ufffd")
    found = native.glyph_texts(runs, "\ufffd")
    assert found == expected and type(found) is list
    assert all(a is b for a, b in zip(found, expected, strict=True))  # the very strings, not copies


def _run(decoded: Any) -> Run:
    n = len(decoded) if isinstance(decoded, (list, tuple)) else 0
    return Run(0, 10.0, (1.0, 0.0, 0.0, 1.0, 0.0, 0.0), 0.0, 0, (65,) * n, None, decoded, (0.0,) * n, (5.0,) * n,
               (5.0,) * n, -2.0, 8.0, 0, None, None, None, 0)


def test_glyph_texts_of_a_malformed_run_raise_as_the_reference():
    for runs in ([_run(5)], [_run([()])], [_run([("a",)]), _run([("", None)])]):
        with pytest.raises((TypeError, IndexError, AttributeError)) as reference:
            runwalk.glyph_texts(runs, "?")
        with pytest.raises(reference.type):
            native.glyph_texts(runs, "?")


def test_the_walk_gathers_with_it():
    assert runwalk._glyph_texts is native.glyph_texts


@given(st.lists(st.one_of(st.floats(allow_nan=True), st.integers(-2, 2), st.booleans(), st.none()), max_size=8),
       st.sampled_from([tuple, list]))
def test_a_zero_advance_is_found_as_in_finds_it(values, kind):
    # Floats of every kind (both zeros, NaN, infinities), and what a plugin's run might hold.
    values = kind(values)
    assert native.any_zero(values) is runwalk.any_zero(values) is (0.0 in values)


def test_a_zero_advance_among_floats():
    assert native.any_zero((1.0, -0.0, 2.5)) and native.any_zero((0.0,)) and native.any_zero((3, 0))
    assert not native.any_zero(()) and not native.any_zero((1e-300, float("nan"), -1.0))
