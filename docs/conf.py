"""Sphinx configuration. Build with ``tox -e docs`` (warnings are errors)."""

from __future__ import annotations

import sys
from importlib import metadata
from pathlib import Path

# tox installs the wheel, and autodoc imports that. Building from a bare checkout still works.
try:
    import glyphweave  # noqa: F401
except ImportError:
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

project = "glyphweave"
author = "glyphweave developers"
copyright = "glyphweave developers"
try:
    release = metadata.version("glyphweave")
except metadata.PackageNotFoundError:
    release = "0+unknown"
version = ".".join(release.split(".")[:2])

sys.path.insert(0, str(Path(__file__).resolve().parent / "_ext"))
extensions = ["sphinx.ext.autodoc", "catalog_reference"]
autodoc_member_order = "bysource"
autodoc_typehints = "signature"

exclude_patterns = ["_build"]
html_theme = "alabaster"
html_theme_options = {"description": "PDF text extraction, built from plugins"}
