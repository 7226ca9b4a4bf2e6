"""Fixtures the layout tests share."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture
def source(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A stand-in for one of wordfreq's data files (its size and time name a list's cache
    files), with the cache folder in ``tmp_path``."""
    monkeypatch.setenv("GLYPHWEAVE_CACHE_DIR", str(tmp_path / "cache"))
    path = tmp_path / "xx.msgpack.gz"
    path.write_bytes(b"stands for wordfreq's data file: its size and time name the cache")
    return path
