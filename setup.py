"""The compiled build's one step that pyproject.toml cannot declare.

The build backend (tools/build_backend.py) says in ``GLYPHWEAVE_COMPILE`` whether to build
the C extensions that ``glyphweave.accelerated`` lists: the modules written for C
(``NATIVE``, Cython sources beside their pure-Python reference) and the hot modules mypyc
compiles from their Python sources (``COMPILED``):
``required`` (``GLYPHWEAVE_MYPYC=1``: failing to is an error), ``optional`` (a C compiler is
there: failing to builds the pure-Python package, said in one line) or unset (pure).

Each module gets its own C file (mypyc's ``separate``), compiled in parallel: one C file for
all of them (a ``group_name``) compiled on one core took 90 s on a two-core machine, this
takes under 40 s, and extraction is as fast.
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
        return native + mypycify([os.path.join("src", *name.split(".")) + ".py" for name in lists["COMPILED"]],
                                 opt_level="3", separate=True)
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
