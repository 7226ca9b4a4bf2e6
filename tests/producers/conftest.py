"""Helpers for the tests that make their PDFs with real producers (fpdf2, matplotlib, typst,
WeasyPrint), installed by tox's ``producers`` env; elsewhere each module skips."""

from __future__ import annotations

from pathlib import Path

import pytest

import glyphweave


def page_texts(path: Path) -> list[str]:
    """Each page's text in the default profile, with its warnings checked: none expected."""
    with glyphweave.open(path) as doc:
        texts = [page.text() for page in doc.pages]
        assert doc.warnings() == [], [str(w) for w in doc.warnings()]
    return texts


def drawn(path: Path, char: str) -> int:
    """How many glyphs of the file read as ``char`` (a test's precondition: the producer
    did draw the hazard the test is about)."""
    with glyphweave.open(path) as doc:
        return sum(1 for page in doc.pages for glyph in page.glyphs(raw=True) if glyph.text == char)


@pytest.fixture
def pdf_path(tmp_path: Path) -> Path:
    return tmp_path / "made.pdf"
