"""Reopening a long document (``Document.reopen_pages``) on real files: composite fonts
with ToUnicode CMaps and embedded programs, a tagged Word file whose structure tree is
read once, a form full of fonts. Forced every few pages, it must give the text, the
statistics and the warnings of one opening (skipped when the shared bench is absent)."""

from __future__ import annotations

from pathlib import Path

import pytest
from shared_corpus import SHARED

import glyphweave
from glyphweave.api import Document

BENCH = SHARED / "bench" / "pdfs"
FILES = ["cjk_ctex_manual.pdf", "word_chelsea_pdta.pdf", "dense_irs_i1040nr.pdf"]

if not BENCH.is_dir():
    pytest.skip(f"shared bench not found at {SHARED}", allow_module_level=True)


def _extract(path: Path) -> tuple[list[str], list[str], dict[int, dict[str, str]], int]:
    openings = []
    with glyphweave.open(path, pause_gc=True) as doc:
        texts = []
        for _page, text in doc.iter_text(range(min(len(doc), 30))):
            texts.append(text)
            if not openings or openings[-1] is not doc._pdf:
                openings.append(doc._pdf)
        return texts, doc.warnings(), doc.assembly(), len(openings) - 1


@pytest.mark.parametrize("name", FILES)
def test_reopening_every_few_pages_changes_nothing(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    path = BENCH / name
    if not path.is_file():
        pytest.skip(f"{name} not in the bench")
    once = _extract(path)
    assert once[3] == 0
    monkeypatch.setattr(Document, "reopen_pages", 7)
    monkeypatch.setattr(Document, "reopen_share", 1e12)  # whatever opening costs
    again = _extract(path)
    assert again[3] == 4  # before pages 8, 15, 22 and 29
    assert again[:3] == once[:3]
