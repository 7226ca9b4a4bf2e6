"""glyphweave's build backend: setuptools, asking for mypy when the compiled build is wanted.

``GLYPHWEAVE_MYPYC=1 pip wheel .`` builds a wheel whose hottest modules are compiled by
mypyc (setup.py does the compiling). PEP 517 lets a backend name build requirements per
build, and that is all this adds to setuptools: mypy, and the packages the compiled modules
import, so that mypyc compiles against the types the package is checked with. A pure build
asks for nothing more than setuptools does.

An editable install is never compiled: the extension would shadow its source, and edits to
the source would silently not run.
"""

from __future__ import annotations

import os

from setuptools import build_meta as _setuptools
from setuptools.build_meta import *  # noqa: F403 (the backend's other hooks, unchanged)

COMPILED_BUILD_REQUIRES = ["mypy>=2.3", "pikepdf>=8.0", "fonttools>=4.40", "attrs>=23.1", "pluggy>=1.3"]


def _compiled() -> bool:
    return os.environ.get("GLYPHWEAVE_MYPYC") == "1"


def get_requires_for_build_wheel(config_settings=None):  # noqa: ANN001, ANN201 (PEP 517's signature)
    if not _compiled():
        return _setuptools.get_requires_for_build_wheel(config_settings)
    # setuptools runs setup.py to list its requirements, before mypy is installed: run it
    # as for a pure build (the requirements do not depend on the extensions), then add mypy's.
    os.environ.pop("GLYPHWEAVE_MYPYC")
    try:
        return [*_setuptools.get_requires_for_build_wheel(config_settings), *COMPILED_BUILD_REQUIRES]
    finally:
        os.environ["GLYPHWEAVE_MYPYC"] = "1"


def _refuse_editable() -> None:
    if _compiled():
        raise SystemExit("GLYPHWEAVE_MYPYC=1 builds wheels only: an editable install would run the compiled "
                         "modules, not the sources being edited. Unset it, or build a wheel.")


def get_requires_for_build_editable(config_settings=None):  # noqa: ANN001, ANN201
    _refuse_editable()
    return _setuptools.get_requires_for_build_editable(config_settings)


def build_editable(wheel_directory, config_settings=None, metadata_directory=None):  # noqa: ANN001, ANN201
    _refuse_editable()
    return _setuptools.build_editable(wheel_directory, config_settings, metadata_directory)
