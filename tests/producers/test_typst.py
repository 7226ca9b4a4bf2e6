"""typst's PDFs (tagged by default): justified, hyphenated text (typst writes U+00AD SOFT
HYPHEN where it breaks a word) and a footnote, which typst tags right after its mark."""

from __future__ import annotations

from pathlib import Path

import pytest

from .conftest import drawn, page_texts

typst = pytest.importorskip("typst")

FIRST = ("The parish council met in the community hall to consider the extraordinary "
         "recommendations of the transportation subcommittee concerning the unsatisfactory "
         "maintenance of the municipal footpaths")
SECOND = ("Councillors unanimously acknowledged the considerable responsibilities "
          "of the volunteers and their indispensable contributions")
NOTE = "The abbey has confirmed the date in writing."


def _minutes(path: Path) -> None:
    source = (
        '#set page(width: 11cm, height: 12cm, margin: 1.5cm)\n'
        '#set text(lang: "en", hyphenate: true, size: 11pt)\n'
        '#set par(justify: true)\n'
        f'{FIRST}.#footnote[{NOTE}] {SECOND}.\n'
    )
    src = path.with_suffix(".typ")
    src.write_text(source, encoding="utf-8")
    typst.compile(str(src), output=str(path))


def test_hyphenated_words_are_whole_and_the_footnote_follows_the_body(pdf_path: Path):
    _minutes(pdf_path)
    assert drawn(pdf_path, "\u00ad"), "the producer split no word at a line end here"
    [text] = page_texts(pdf_path)
    assert "\u00ad" not in text
    body = f"{FIRST}.1 {SECOND}."
    # typst's own footnote entry sets its number as a superscript glyph on the text's
    # baseline, right against the note: "1The abbey", as drawn.
    assert text.split() == [*body.split(), "1" + NOTE.split()[0], *NOTE.split()[1:]]
