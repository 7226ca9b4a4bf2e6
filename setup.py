"""The compiled build's one step that pyproject.toml cannot declare.

The build backend (tools/build_backend.py) says in ``GLYPHWEAVE_COMPILE`` whether to build
the C extensions that ``glyphweave.accelerated`` lists: the modules written for C
(``NATIVE``, Cython sources beside their pure-Python reference) and the hot modules mypyc
compiles from their Python sources (``COMPILED``):
``required`` (``GLYPHWEAVE_MYPYC=1``: failing to is an error), ``optional`` (a C compiler is
there: failing to builds the pure-Python package, said in one line) or unset (pure).

The mypyc modules are linked into :data:`LIBRARIES` shared libraries, each module its own C
file (mypyc's ``multi_file``): a process loads two libraries instead of one per module (21
before, each a few tenths of a millisecond to load at start-up), and the two build at once on
a two-core machine. (One C file for all the modules compiled on one core took 90 s; one
library per module made mypyc's runtime compile once per module.)
"""

import os
import runpy
import shutil
import sys

from setuptools import setup
from setuptools.command.build_ext import build_ext


def _mode() -> str:
    return os.environ.get("GLYPHWEAVE_COMPILE", "")


def _fallback(what: str, exc: BaseException) -> None:
    print(f"glyphweave: {what} failed ({type(exc).__name__}: {exc}); building the pure-Python package",
          file=sys.stderr)


LIBRARIES = 2
"""Shared libraries the mypyc modules are linked into: as many as the cores of the machines
the build is sized for (setuptools builds extensions in parallel, and a library's C files one
after another)."""


def _libraries(paths: list) -> list:
    """The mypyc modules' ``paths`` in :data:`LIBRARIES` groups of about equal source size
    (the largest first, each to the smallest group so far), so that the libraries take about
    as long to build; with each group's library name (a top-level module, as mypyc names its libraries)."""
    groups: list = [[] for _ in range(LIBRARIES)]
    sizes = [0] * LIBRARIES
    for path in sorted(paths, key=lambda path: (-os.path.getsize(path), path)):
        smallest = sizes.index(min(sizes))
        groups[smallest].append(path)
        sizes[smallest] += os.path.getsize(path)
    return [(sorted(group), f"glyphweave_compiled{number}") for number, group in enumerate(groups, 1) if group]


def _compiled_extensions() -> list:
    if _mode() not in ("required", "optional"):
        return []
    # Start from an empty build folder: an extension left there by an earlier build (of a
    # module since dropped from the list) would ship in this wheel and shadow its source.
    shutil.rmtree("build", ignore_errors=True)
    lists = runpy.run_path(os.path.join("src", "glyphweave", "accelerated.py"))
    try:
        from Cython.Build import cythonize
        from mypyc.build import mypycify
        from setuptools import Extension

        native = cythonize([Extension(name, [os.path.join("src", *name.split(".")) + ".pyx"])
                            for name in lists["NATIVE"]], language_level=3, quiet=True,
                           build_dir=os.path.join("build", "cython"))
        paths = [os.path.join("src", *name.split(".")) + ".py" for name in lists["COMPILED"]]
        compiled = mypycify(paths, opt_level="3", multi_file=True, separate=_libraries(paths))
        for extension in compiled if os.name != "nt" else ():
            # mypyc's C files for several libraries each define the other libraries' export
            # tables (tentative definitions): -fcommon lets the linker merge them, as GCC did
            # by default before version 10 (MSVC merges them anyway).
            extension.extra_compile_args.append("-fcommon")
        return native + compiled
    except (Exception, SystemExit) as exc:
        if _mode() == "required":
            raise
        _fallback("translating to C", exc)
        return []


class OptionalBuildExt(build_ext):
    """Compiles the extensions, in parallel; where they are optional, a compiler error leaves
    none of them in the build (never some), so the package is the pure one."""

    def finalize_options(self) -> None:
        super().finalize_options()
        if self.parallel is None:
            self.parallel = max(1, min(os.cpu_count() or 1, 8))

    def run(self) -> None:
        try:
            super().run()
        except Exception as exc:
            if _mode() == "required":
                raise
            _fallback("compiling", exc)
            for path in self.get_outputs():
                if os.path.exists(path):
                    os.remove(path)
            self.extensions = []
            self.distribution.ext_modules = []


setup(ext_modules=_compiled_extensions(), cmdclass={"build_ext": OptionalBuildExt})
