"""Which decoder answers are weak (rules: decoders): the quick test of a whole answer must
say what the test of each character says."""

from __future__ import annotations

import sys

from hypothesis import given
from hypothesis import strategies as st

from glyphweave.core.decoding import is_weak, is_weak_code_point
from glyphweave.plugins.decoders.cid_collection import _clean


def _weak_by_character(text: str) -> bool:
    return any(is_weak_code_point(ord(ch)) for ch in text)


def test_every_code_point_alone_is_judged_as_its_character():
    for cp in range(sys.maxunicode + 1):
        if 0xD800 <= cp <= 0xDFFF:
            continue
        ch = chr(cp)
        assert is_weak(ch) == is_weak_code_point(cp), hex(cp)
        assert is_weak("a" + ch + "\u4e2d") == is_weak_code_point(cp), hex(cp)


@given(st.text())
def test_any_text_is_weak_exactly_when_a_character_is(text):
    assert is_weak(text) == _weak_by_character(text)


def test_the_empty_answer_is_not_weak():
    assert not is_weak("")


@given(st.text(st.characters(blacklist_categories=("Cs",)), max_size=4))
def test_a_cjk_answer_with_a_control_character_is_no_answer(text):
    controls = any(ord(ch) < 0x20 or 0x7F <= ord(ch) < 0xA0 for ch in text)
    cleaned = _clean(text)
    if controls:
        assert cleaned is None
    elif cleaned is not None:
        assert not any(ord(ch) < 0x20 or 0x7F <= ord(ch) < 0xA0 for ch in cleaned)
