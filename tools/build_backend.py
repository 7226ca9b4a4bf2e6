"""glyphweave's build backend: setuptools, asking for Cython and mypy when the compiled build is made.

``pip install .`` builds a wheel whose hottest modules are compiled by mypyc when a C compiler
is there (setup.py does the compiling), and the pure-Python package when not, or when
``GLYPHWEAVE_PURE=1`` asks for it. ``GLYPHWEAVE_MYPYC=1`` requires the compiled build: a
missing compiler, or a module mypyc cannot compile, is then an error rather than a fallback
(the compiled build's tox envs set it). PEP 517 lets a backend name build requirements per
build, and that is all this adds to setuptools: Cython (for the modules written for C), mypy,
and the packages the compiled modules import, so that mypyc compiles against the types the
package is checked with. A pure build
asks for nothing more than setuptools does.

An editable install is never compiled: the extension would shadow its source, and edits to
the source would silently not run.
"""

from __future__ import annotations

import os
import shlex
import shutil
import sys
import sysconfig

from setuptools import build_meta as _setuptools
from setuptools.build_meta import *  # noqa: F403 (the backend's other hooks, unchanged)

COMPILED_BUILD_REQUIRES = ["Cython>=3.0", "mypy>=2.3", "pikepdf>=8.0", "fonttools>=4.40", "attrs>=23.1", "pluggy>=1.3"]

COMPILE = "GLYPHWEAVE_COMPILE"
"""What the backend tells setup.py (same process): ``required``, ``optional`` or unset (pure)."""


def c_compiler() -> str | None:
    """The C compiler setuptools would call (``$CC``, else the one Python was built with),
    when it is on the PATH."""
    command = os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc"
    words = shlex.split(command)
    return shutil.which(words[0]) if words else None


def build_kind(say: bool = True) -> str:
    """``required`` (GLYPHWEAVE_MYPYC=1), ``pure`` (GLYPHWEAVE_PURE=1, or no C compiler:
    said on standard error when ``say``) or ``optional`` (compiled, and pure if compiling fails)."""
    if os.environ.get("GLYPHWEAVE_MYPYC") == "1":
        return "required"
    if os.environ.get("GLYPHWEAVE_PURE") == "1":
        return "pure"
    if c_compiler() is None:
        if say:
            print("glyphweave: no C compiler found: building the pure-Python package (the compiled one extracts "
                  "about a quarter faster; on Debian, apt-get install gcc)", file=sys.stderr)
        return "pure"
    return "optional"


def get_requires_for_build_wheel(config_settings=None):  # noqa: ANN001, ANN201 (PEP 517's signature)
    # setuptools runs setup.py to list its requirements, before mypy is installed: run it as
    # for a pure build (the requirements do not depend on the extensions), then add mypy's.
    # (The missing compiler is said once, by build_wheel: pip runs each hook in a process of its own.)
    kind = build_kind(say=False)
    os.environ.pop(COMPILE, None)
    requires = _setuptools.get_requires_for_build_wheel(config_settings)
    return requires if kind == "pure" else [*requires, *COMPILED_BUILD_REQUIRES]


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):  # noqa: ANN001, ANN201
    kind = build_kind()
    if kind == "pure":
        os.environ.pop(COMPILE, None)
    else:
        os.environ[COMPILE] = kind
    try:
        return _setuptools.build_wheel(wheel_directory, config_settings, metadata_directory)
    finally:
        os.environ.pop(COMPILE, None)


def _refuse_editable() -> None:
    if os.environ.get("GLYPHWEAVE_MYPYC") == "1":
        raise SystemExit("GLYPHWEAVE_MYPYC=1 builds wheels only: an editable install would run the compiled "
                         "modules, not the sources being edited. Unset it, or build a wheel.")
    os.environ.pop(COMPILE, None)


def get_requires_for_build_editable(config_settings=None):  # noqa: ANN001, ANN201
    _refuse_editable()
    return _setuptools.get_requires_for_build_editable(config_settings)


def build_editable(wheel_directory, config_settings=None, metadata_directory=None):  # noqa: ANN001, ANN201
    _refuse_editable()
    return _setuptools.build_editable(wheel_directory, config_settings, metadata_directory)
