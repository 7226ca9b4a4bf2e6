"""The compiled build: which C extensions it holds, and which of them this install runs.

A wheel built where a C compiler is found (``pip install .``; see the usage guide, "The
compiled build") holds two kinds: the modules of :data:`NATIVE`, written for C (Cython
sources that do in plain loops what a pure-Python module of the package does with regular
expressions), and the modules of :data:`COMPILED`, made by mypyc from the very same Python
sources. A pure install (no compiler, ``GLYPHWEAVE_PURE=1``, an editable install) has
neither, and runs the Python modules. Those are the reference: tests compare both builds'
output on every shared PDF. This module imports nothing of glyphweave, so the build reads
its lists before the package is installed.
"""

from __future__ import annotations

import importlib
import importlib.machinery
import importlib.util

__all__ = ["COMPILED", "NATIVE", "compiled_modules", "describe_build"]

COMPILED = (
    "glyphweave.pdf.lexer",
    "glyphweave.pdf.tokenizer",
    "glyphweave.pdf.interpreter",
    "glyphweave.pdf.measure",
    "glyphweave.pdf.fontstate",
    "glyphweave.core.runs",
    "glyphweave.layout.rules",
    "glyphweave.layout.glyphwalk",
    "glyphweave.layout.runwalk",
    "glyphweave.layout.walk",
    "glyphweave.layout.lines",
    "glyphweave.layout.blocks",
    "glyphweave.layout.order",
    "glyphweave.layout.recovery",
    "glyphweave.layout.bands",
    "glyphweave.layout.page",
    "glyphweave.plugins.filters.shadows",
    "glyphweave.plugins.filters.boxes",
    "glyphweave.plugins.assemblers.structure_order",
    "glyphweave.stats.counting",
)
"""The modules a compiled build compiles: where a page's time goes, per shown string,
run and line (see the design notes, "Speed"): the content stream's reading and
interpretation with the loaded fonts' state it reads, each run's geometry, the word-gap rules, the shared page geometry
(walks, lines, blocks, order, bands), the ``dedup`` filter's shadow test and the ``visible-box``
filter's test of each run, and the ``structure`` assembler's reading of a tagged page (the
filters and the assembler themselves hold hook implementations). Each must keep to what mypyc compiles: no subclass of a built-in
type, no ``attrs`` class, no hook implementation, no method aliased by assignment."""


NATIVE = ("glyphweave.pdf._ctokenizer", "glyphweave.pdf._cmeasure", "glyphweave.glyphmap._cshapes",
          "glyphweave.layout._ctext", "glyphweave.layout._cwords", "glyphweave.pdf._ccmap",
          "glyphweave.plugins.filters._coverprint", "glyphweave.core._cruns")
"""The modules written for C (each a ``.pyx`` beside the pure module it stands in for, whose
importer falls back to that module where it is not built): the content tokenizer's fast
path, :mod:`glyphweave.pdf.tokenizer` scanned byte by byte; the measuring of a shown
string, :mod:`glyphweave.pdf.measure` worked out in C doubles; the shape references
with the matcher's search, :mod:`glyphweave.glyphmap.shapes` over C arrays; and two scans
of a page's text, its words for dehyphenation (:mod:`glyphweave.layout.hyphens`) and its
characters of the script rules' blocks (:mod:`glyphweave.layout.scripts`), as loops; and the
word lists' look-ups (:mod:`glyphweave.layout.wordcache`), in the cache files as they lie;
a CMap's cidrange sections (:mod:`glyphweave.pdf.cmap`), read in one pass; the ``dedup``
filter's sweep over a page's runs (:mod:`glyphweave.plugins.filters.overprint`), over C structs;
and each run's geometry and frame (:mod:`glyphweave.core.runs`), records filled in place."""


def compiled_modules() -> list[str]:
    """The modules of :data:`COMPILED` that this install runs compiled, then those of
    :data:`NATIVE` it has (importing them)."""
    suffixes = tuple(importlib.machinery.EXTENSION_SUFFIXES)
    compiled = [name for name in COMPILED
                if (getattr(importlib.import_module(name), "__file__", None) or "").endswith(suffixes)]
    return compiled + [name for name in NATIVE if importlib.util.find_spec(name) is not None]


def describe_build() -> str:
    """Which build this install runs, as ``glyphweave --version`` says it."""
    compiled = compiled_modules()
    if not compiled:
        return "pure Python"
    native = sum(name in NATIVE for name in compiled)
    return (f"compiled: {native} of {len(NATIVE)} C modules, {len(compiled) - native} of {len(COMPILED)} hot "
            "modules by mypyc")
