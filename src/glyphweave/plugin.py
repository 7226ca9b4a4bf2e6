"""Everything a plugin author imports, in one place: the stable plugin contract.

    from glyphweave.plugin import Decoder, FontInfo, hookimpl

    class Rot13(Decoder):
        NAME = "rot13"
        ...

    @hookimpl
    def glyphweave_register_decoders():
        return [Rot13]

The names here are the plugin contract: the stage base classes and their records, the
errors, the hook marker, and the small shared rules a component should apply the same way
the built-ins do (what counts as a weak answer, how a subset tag is stripped, what a glyph
name means, where a run's glyphs lie). It changes as :data:`API_VERSION` says. The layout
engine an assembler may build on (lines, words, blocks, reading order) is the provisional
contract, :mod:`glyphweave.layout`. The built-in components import from these two modules
only; see ``docs/plugins.rst``.
"""

from __future__ import annotations

from glyphweave.components.markers import hookimpl
from glyphweave.core.decoding import has_private_use, is_private_use, is_weak
from glyphweave.core.errors import ComponentError, GlyphweaveError, PluginError, ProfileError
from glyphweave.core.fontinfo import CodeToText, FontInfo, strip_subset_prefix
from glyphweave.core.glyph import AnnotationRef, FontRef, Glyph
from glyphweave.core.glyphtable import GlyphTable
from glyphweave.core.runs import Run, RunFrame, RunGeometry, run_frame, run_page_size
from glyphweave.core.stages import Assembled, Assembler, Component, Decoder, Filter, Option, PageContext
from glyphweave.guard.clock import TimeLimitReached
from glyphweave.tables.encodings import glyph_name_to_unicode

API_VERSION = (1, 2)
"""The version of this contract, (major, minor): a minor step adds names, options or hooks
and keeps every plugin written for an earlier minor version working; a major step removes
or changes something a plugin may use. ``docs/plugins.rst``, "Versions of the contract".
1.1 added the ``annotation`` of runs, glyph records and columns (:class:`AnnotationRef`);
1.2 the reading ``order`` an assembler may report (:attr:`Assembled.order`)."""

__all__ = [
    "API_VERSION",
    "AnnotationRef",
    "Assembled",
    "Assembler",
    "CodeToText",
    "Component",
    "ComponentError",
    "Decoder",
    "Filter",
    "FontInfo",
    "FontRef",
    "Glyph",
    "GlyphTable",
    "GlyphweaveError",
    "Option",
    "PageContext",
    "PluginError",
    "ProfileError",
    "Run",
    "RunFrame",
    "RunGeometry",
    "TimeLimitReached",
    "glyph_name_to_unicode",
    "has_private_use",
    "hookimpl",
    "is_private_use",
    "is_weak",
    "run_frame",
    "run_page_size",
    "strip_subset_prefix",
]
