"""Dehyphenation rules (glyphweave.layout.hyphens) on page texts made by hand."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from glyphweave.layout import WordList, dehyphenate
from glyphweave.layout.hyphens import MARGIN, _frequencies

# A word list by hand (Zipf values), so the rules are tested without wordfreq's data.
ZIPF = {"twenty": 4.7, "four": 5.5, "twentyfour": 1.5, "be": 6.8, "side": 5.5, "beside": 4.2, "hand": 5.4,
        "held": 5.2, "handheld": 3.4, "carbon": 4.6, "arc": 4.2, "re": 5.2, "stored": 4.2, "restored": 4.1,
        "well": 6.0, "known": 5.4, "wellknown": 1.6, "municipal": 4.0, "nicipal": 0.0, "the": 7.7, "counted": 3.9,
        "birds": 4.5, "fact": 5.2, "sat": 4.6, "was": 6.9, "today": 5.6, "lamp": 4.1, "park": 5.0}


def words(word: str) -> float:
    return ZIPF.get(word, 0.0)


@pytest.mark.parametrize(("text", "expected"), [
    ("the mu-\nnicipal park\n", "the municipal\npark\n"),
    ("counted twenty-\nfour birds\n", "counted twenty-four\nbirds\n"),
    ("a well-\nknown fact\n", "a well-known\nfact\n"),
    ("sat be-\nside it\n", "sat beside\nit\n"),
    ("was re\u2010\nstored today\n", "was restored\ntoday\n"),
    ("a hand-\nheld lamp\n", "a hand-held\nlamp\n"),
    ("the carbon-\narc lamp\n", "the carbon-arc\nlamp\n"),
])
def test_word_list_decides_when_the_page_is_silent(text, expected):
    assert dehyphenate(text, "auto", words) == expected


def test_word_list_of_another_language_is_not_asked():
    # Ge + burt: two English words, but the page is not English: its split words join
    text = "die Ge-\nburt des neuen Kindes war gestern\n"
    assert dehyphenate(text, "auto", lambda w: {"ge": 3.8, "burt": 3.4, "des": 4.0}.get(w, 0.0)) == (
        "die Geburt\ndes neuen Kindes war gestern\n")


def test_soft_hyphen_joins_at_a_line_end_and_is_never_output():
    text = "two pieces by contem\u00ad\nporary composers and sun\u00adflowers\n"
    assert dehyphenate(text, "auto", words) == "two pieces by contemporary\ncomposers and sunflowers\n"
    assert dehyphenate(text, "all", None) == "two pieces by contemporary\ncomposers and sunflowers\n"
    # off: no line is joined; the line-end soft hyphen shows as the hyphen the page draws
    assert dehyphenate(text, "off", words) == "two pieces by contem-\nporary composers and sunflowers\n"


def test_upper_case_or_digit_line_start_never_joins():
    text = "the Smith-\nJones report, pages 10-\n12 and a x-\n- y\n"
    assert dehyphenate(text, "all", words) == text


def test_the_pages_words_come_first():
    # the word list says keep (both parts are words, the joined word unknown), the page says join
    text = "the carbonarc glows. A carbon-\narc lamp\n"
    assert dehyphenate(text, "auto", words) == "the carbonarc glows. A carbonarc\nlamp\n"
    # and the other way round: the page writes the compound within a line
    text = "the be-side and the be-side. We sat be-\nside it\n"
    assert dehyphenate(text, "auto", words).endswith("We sat be-side\nit\n")


def test_the_pages_hyphen_characters():
    # the words use '-', the producer's breaks U+2010: every U+2010 break joins, a '-' break stays
    text = "the self-heating mast, twenty\u2010\nfour hours and a carbon-\narc lamp\n"
    assert dehyphenate(text, "auto", None) == "the self-heating mast, twentyfour\nhours and a carbon-arc\nlamp\n"


def test_modes():
    text = "counted twenty-\nfour birds\n"
    assert dehyphenate(text, "all", words) == "counted twentyfour\nbirds\n"
    assert dehyphenate(text, "off", words) == text


def test_a_line_of_one_word_continues():
    text = "a ve\u00ad\nry\u00ad\nlong word\n"
    assert dehyphenate(text, "auto", words) == "a verylong\nword\n"


def test_no_word_list_joins_what_the_page_does_not_contradict():
    assert dehyphenate("the mu-\nnicipal park\n", "auto", None) == "the municipal\npark\n"


def test_margin_is_on_the_zipf_scale():
    assert 0 < MARGIN < 3


def test_word_list_without_data_is_empty():
    missing = WordList("")
    assert missing("house") == 0.0
    assert not missing.available()


def test_wordfreq_list_when_installed():
    pytest.importorskip("wordfreq")
    english = WordList("en")
    assert english("because") > 5.0 > english("twentyfour")
    assert WordList("xx-no-such")("house") == 0.0


def test_the_data_file_read_directly_gives_wordfreqs_own_frequencies():
    # The list is read from wordfreq's file without importing wordfreq (half a second):
    # it must give what wordfreq's own functions give. Icelandic: a small list, quick to compare.
    pytest.importorskip("wordfreq")
    from glyphweave.layout.hyphens import _frequencies_from_api, _read_pack

    assert _read_pack("is") is not None
    direct, by_api = _frequencies.__wrapped__("is"), _frequencies_from_api("is")
    assert direct and by_api
    if isinstance(direct, dict):
        assert direct == by_api
    else:  # the compiled build's hash table (a language with a small list only)
        assert direct.size == len(by_api)
        assert all(direct.get(word, -1.0) == value for word, value in by_api.items())


@pytest.mark.parametrize(("head", "tail"), [
    ("mu", "nicipal"), ("twenty", "four"), ("carbon", "arc"), ("re", "stored"), ("pre", "computed"),
    ("hyper", "parameters"), ("law", "breakers"), ("non", "decomposable"), ("pilatus", "aircraft"),
    ("entail", "ment"), ("glaci", "ologist"), ("sun", "flowers"), ("con", "temporary"),
])
def test_the_frequent_words_first_give_the_full_lists_verdict(head, tail):
    # The small list answers first and the large one only where rarer words could change the
    # verdict: the verdicts are the large list's, always.
    pytest.importorskip("wordfreq")
    from glyphweave.layout.hyphens import _joins

    english = WordList("en")
    assert 2.5 < english.floor <= 3.5
    assert _joins(head, "-", tail, None, english) == _joins(head, "-", tail, None, lambda w: english(w))


def _line_by_line(text: str, mode: str, frequency) -> str:
    """The walk over every line that :func:`dehyphenate` replaced (it visits only the lines
    that end in a hyphen): kept here as the oracle the faster walk is held to."""
    from glyphweave.layout import hyphens

    if hyphens.SOFT_HYPHEN not in text and ("-\n" not in text and "\u2010\n" not in text or mode == "off"):
        return text
    lines = text.split("\n")
    evidence = hyphens._Evidence(text) if mode == "auto" else None
    if evidence is not None and frequency is not None:
        frequency = hyphens._Fitting(frequency, evidence)
    out: list[str] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        while mode != "off" and line.endswith(hyphens._BREAK_ENDS) and i + 1 < len(lines) and lines[i + 1].strip():
            nxt = lines[i + 1]
            verdict = (True if line.endswith(hyphens.SOFT_HYPHEN)
                       else hyphens._candidate(line, nxt, mode, evidence, frequency))
            if verdict is None:
                break
            line, rest = hyphens._join(line[:-1] if verdict else line, nxt)
            if rest:
                lines[i + 1] = rest
                break
            del lines[i + 1]
        if line.endswith(hyphens.SOFT_HYPHEN):
            line = line[:-1] + "-"
        out.append(line.replace(hyphens.SOFT_HYPHEN, ""))
        i += 1
    return "\n".join(out)


_PIECES = ["co-", "op-", "er", "ation", "twenty-", "four", "re\u2010", "stored", "mu\u00ad", "nicipal",
           "Ge-", "burt", "-", "\u2010", "\u00ad", " ", "  ", "word", "x-ray", "The", "and", "1-", "2"]


@settings(max_examples=400, deadline=None)
@given(lines=st.lists(st.lists(st.sampled_from(_PIECES), max_size=5).map("".join), min_size=1, max_size=14),
       mode=st.sampled_from(["auto", "all", "off"]), with_list=st.booleans())
def test_the_walk_over_hyphenated_lines_is_the_walk_over_every_line(lines, mode, with_list):
    # Lines that end in hyphens one after another, lines that are one word (taken whole into
    # the line before), blank ones, soft hyphens inside and at the end.
    text = "\n".join(lines)
    frequency = WordList("en") if with_list else None
    assert dehyphenate(text, mode, frequency) == _line_by_line(text, mode, frequency)
