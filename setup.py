"""The optional compiled build's one step that pyproject.toml cannot declare.

``pip install .`` builds the pure-Python package from pyproject.toml alone. With
``GLYPHWEAVE_MYPYC=1`` in the environment, the modules that
``glyphweave.accelerated.COMPILED`` lists are also compiled to C extensions by mypyc
(tools/build_backend.py has pip install mypy for the build; a C compiler must be there).
"""

import os
import runpy
import shutil

from setuptools import setup


def _compiled_extensions() -> list:
    if os.environ.get("GLYPHWEAVE_MYPYC") != "1":
        return []
    from mypyc.build import mypycify

    # Start from an empty build folder: an extension left there by an earlier build (of a
    # module since dropped from the list) would ship in this wheel and shadow its source.
    shutil.rmtree("build", ignore_errors=True)
    names = runpy.run_path(os.path.join("src", "glyphweave", "accelerated.py"))["COMPILED"]
    return mypycify([os.path.join("src", *name.split(".")) + ".py" for name in names], opt_level="3", group_name="glyphweave")


setup(ext_modules=_compiled_extensions())
