"""Old import paths of modules that left ``glyphweave.core`` in 0.2, kept working for now.

``glyphweave.core`` holds the records and the pipeline only; the PDF engine moved to
:mod:`glyphweave.pdf`, the data tables to :mod:`glyphweave.tables` and the API to
:mod:`glyphweave.api`. Each old module is a small alias whose import warns once with a
:class:`DeprecationWarning` naming the new home, and whose attributes are looked up there by
name on first use, so that ``core`` itself never imports the layers above it.
"""

from __future__ import annotations

import importlib
import warnings
from collections.abc import Callable
from typing import Any


def forward(old: str, *new: str) -> Callable[[str], Any]:
    """Warn that module ``old`` moved to ``new`` (one or more modules), and return the
    ``__getattr__`` that finds its attributes there."""
    warnings.warn(
        f"{old} moved to {' and '.join(new)} in glyphweave 0.2; import from there "
        "(the old path will be removed)",
        DeprecationWarning,
        stacklevel=3,
    )

    def __getattr__(name: str) -> Any:
        for target in new:
            module = importlib.import_module(target)
            if hasattr(module, name):
                return getattr(module, name)
        raise AttributeError(f"module {old!r} has no attribute {name!r}")

    return __getattr__
