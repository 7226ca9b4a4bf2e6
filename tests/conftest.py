"""Shared test set-up: makes the synthetic-PDF helpers (``tests/pdfs.py``) importable as ``pdfs``,
and keeps the cache folder (``glyphweave.cachefiles``) in a temporary folder of the session,
never in the user's own cache."""

from __future__ import annotations

import sys
from pathlib import Path

_TESTS = str(Path(__file__).resolve().parent)
if _TESTS not in sys.path:
    sys.path.insert(0, _TESTS)


import os  # noqa: E402
import shutil  # noqa: E402
import tempfile  # noqa: E402

import pytest  # noqa: E402


def pytest_configure(config: pytest.Config) -> None:
    if not os.environ.get("GLYPHWEAVE_CACHE_DIR"):
        folder = tempfile.mkdtemp(prefix="glyphweave-cache-")
        os.environ["GLYPHWEAVE_CACHE_DIR"] = folder  # child processes inherit it
        config.add_cleanup(lambda: shutil.rmtree(folder, ignore_errors=True))


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


@pytest.fixture
def cjk_cache(monkeypatch, tmp_path):
    """An empty cache folder of the test's own (``tmp_path / "cache"``), with the CMaps and CID
    tables this process parsed forgotten, before and after: what a new process meets."""
    from glyphweave.pdf import predefined

    folder = tmp_path / "cache"
    monkeypatch.setenv("GLYPHWEAVE_CACHE_DIR", str(folder))
    predefined.clear_caches()
    yield folder
    predefined.clear_caches()
