"""Package data (the data tables, the built-in profiles): where a package's data folder is.

A package installed as files (a wheel, a checkout) has its data folders in its own folder,
taken here as plain paths: asking :mod:`importlib.resources` instead imports ``zipfile``
(its readers do), 2 ms of every run's start-up. A package loaded from elsewhere (a zip
archive) is asked through :mod:`importlib.resources`. Imports nothing of glyphweave.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from importlib.resources.abc import Traversable

__all__ = ["package_folder"]


def package_folder(package: str, name: str) -> Traversable:
    """The data folder ``name`` of ``package`` (an imported package), as a path where the
    package is installed as files, else as :mod:`importlib.resources` gives it."""
    where = getattr(sys.modules.get(package), "__file__", None)
    if where:
        folder = Path(where).parent / name  # inside a zip archive: no folder of the file system
        if folder.is_dir():
            return folder
    import importlib.resources

    return importlib.resources.files(package) / name
