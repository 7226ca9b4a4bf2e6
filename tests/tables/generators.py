"""A data generator of ``tools/`` loaded as a module, for the tests that check the shipped
tables are what it writes (skipped where ``tools/`` is absent: an installed package)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

TOOLS = Path(__file__).resolve().parents[2] / "tools"


def load_generator(name: str) -> ModuleType:
    """``tools/<name>.py`` as a module."""
    path = TOOLS / f"{name}.py"
    if not path.is_file():
        pytest.skip("tools/ not present (installed package)")
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    # Run as a script, a generator finds its sibling modules (tools/provenance.py) on
    # sys.path; loaded from here it needs the folder added while it imports them.
    sys.path.insert(0, str(path.parent))
    try:
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(path.parent))
    return module
