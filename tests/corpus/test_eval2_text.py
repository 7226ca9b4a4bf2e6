"""Split words and math letters on the second known-text set (``eval2``: producers the
project is not developed against), skipped when the shared folder is absent."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from shared_corpus import SHARED

import glyphweave

EVAL2 = SHARED / "eval2" / "corpus"
MATH = re.compile("[\U0001d400-\U0001d7ff\u210e]")


def _text(name: str) -> str:
    path: Path = EVAL2 / f"{name}.pdf"
    if not path.is_file():
        pytest.skip(f"{path} not found (the shared corpus is absent)")
    with glyphweave.open(str(path)) as doc:
        return "".join(page.text() for page in doc.pages)


def _words(text: str) -> str:
    return " ".join(text.split())


@pytest.mark.parametrize(("name", "joined", "kept"), [
    # TeX draws '-' for its breaks and for the words' own hyphens
    ("xe_field_manual", ["surprisingly", "shoulder", "Helmets", "water"], []),
    # WeasyPrint writes U+2010 for its breaks, '-' for the words' own
    ("wp_station_report", ["figures", "considerably", "self-heating", "anemometer"],
     ["round-the-clock", "hand-held", "north-east", "cross-checked"]),
    ("wp_newsletter_3col", ["century", "projectionist"], ["carbon-arc"]),
    # typst writes U+00AD
    ("typst_minutes", ["contemporary"], []),
    ("typst_newsletter_3col", ["sunflowers", "September", "afternoon"], []),
])
def test_split_words_are_whole_and_compounds_keep_their_hyphen(name, joined, kept):
    text = _text(name)
    assert "\u00ad" not in text
    assert not re.search("\u2010\n[a-z]", text)  # every break of WeasyPrint's own is joined
    assert set(joined) <= set(re.findall(r"[\w-]+", text))
    # a compound broken after its hyphen keeps it (the line end stays where it was)
    assert set(kept) <= set(re.findall(r"[\w-]+", text.replace("-\n", "-")))


@pytest.mark.parametrize("name", ["xe_math_lecture", "typst_math_sheet"])
def test_math_letters_are_plain(name):
    text = _text(name)
    assert not MATH.search(text)


def test_math_reads_as_typed():
    words = _words(_text("xe_math_lecture"))
    assert "F = −kx" in words
    assert "N(t) = N0 ⋅ 2t" in words
