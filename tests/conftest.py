"""Shared test set-up: makes the synthetic-PDF helpers (``tests/pdfs.py``) importable as ``pdfs``."""

from __future__ import annotations

import sys
from pathlib import Path

_TESTS = str(Path(__file__).resolve().parent)
if _TESTS not in sys.path:
    sys.path.insert(0, _TESTS)
