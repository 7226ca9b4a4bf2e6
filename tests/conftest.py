"""Shared test set-up: makes the synthetic-PDF helpers (``tests/pdfs.py``) importable as ``pdfs``."""

from __future__ import annotations

import sys
from pathlib import Path

_TESTS = str(Path(__file__).resolve().parent)
if _TESTS not in sys.path:
    sys.path.insert(0, _TESTS)


import pytest  # noqa: E402


@pytest.fixture
def no_mirror(monkeypatch, tmp_path):
    """The package as if built without ``glyphweave/tables/resources``: every table falls back."""
    from glyphweave import tables
    from glyphweave.pdf import predefined
    from glyphweave.tables import loader

    predefined.clear_caches()
    tables.clear_caches()
    monkeypatch.setattr(loader, "resource_root", lambda: tmp_path)
    yield
    monkeypatch.undo()
    predefined.clear_caches()
    tables.clear_caches()
