"""The compiled build: which modules mypyc compiles, and which of them run compiled.

A wheel built where a C compiler is found (``pip install .``; see the usage guide, "The
compiled build") holds the modules of :data:`COMPILED` as C extensions made by mypyc from
the very same sources; a pure install (no compiler, ``GLYPHWEAVE_PURE=1``, an editable
install) runs them as Python. The Python modules are the reference: a
test compares both builds' text on every shared PDF. This module imports nothing of
glyphweave, so the build reads :data:`COMPILED` from it before the package is installed.
"""

from __future__ import annotations

import importlib
import importlib.machinery

__all__ = ["COMPILED", "compiled_modules"]

COMPILED = (
    "glyphweave.pdf.lexer",
    "glyphweave.pdf.tokenizer",
    "glyphweave.pdf.interpreter",
    "glyphweave.core.runs",
    "glyphweave.layout.rules",
    "glyphweave.layout.glyphwalk",
    "glyphweave.layout.runwalk",
    "glyphweave.layout.walk",
    "glyphweave.layout.lines",
    "glyphweave.layout.blocks",
    "glyphweave.layout.order",
    "glyphweave.layout.recovery",
    "glyphweave.layout.page",
    "glyphweave.plugins.filters.overprint",
)
"""The modules a compiled build compiles: where a page's time goes, per shown string,
run and line (see the design notes, "Speed"): the content stream's reading and
interpretation, each run's geometry, the word-gap rules, the shared page geometry
(walks, lines, blocks, order), and the ``dedup`` filter's sweep (the filter itself holds a
hook implementation). Each must keep to what mypyc compiles: no subclass of a built-in
type, no ``attrs`` class, no hook implementation, no method aliased by assignment."""


def compiled_modules() -> list[str]:
    """The modules of :data:`COMPILED` that this install runs compiled (importing them)."""
    suffixes = tuple(importlib.machinery.EXTENSION_SUFFIXES)
    return [name for name in COMPILED
            if (getattr(importlib.import_module(name), "__file__", None) or "").endswith(suffixes)]
