"""Everything a plugin author imports, in one place.

    from glyphweave.plugin import Decoder, FontInfo, hookimpl

    class Rot13(Decoder):
        NAME = "rot13"
        ...

    @hookimpl
    def glyphweave_register_decoders():
        return [Rot13]

The names here are the plugin contract: the stage base classes and their records, the hook
marker, and the small shared rules a component should apply the same way the built-ins do
(what counts as a weak answer, how a subset tag is stripped, where a run's glyphs lie). The
built-in components import from here too; see ``docs/plugins.rst``.
"""

from __future__ import annotations

from glyphweave.core.decoding import has_private_use, is_private_use, is_weak
from glyphweave.core.errors import ComponentError, GlyphweaveError, PluginError, ProfileError
from glyphweave.core.fontinfo import CodeToText, FontInfo, split_subset_prefix, strip_subset_prefix
from glyphweave.core.glyph import FontRef, Glyph
from glyphweave.core.glyphtable import GlyphTable, Run, RunFrame, RunGeometry, run_frame, run_page_size
from glyphweave.core.stages import Assembled, Assembler, Component, Decoder, Filter, Option, PageContext
from glyphweave.registry.markers import hookimpl

__all__ = [
    "Assembled", "Assembler", "CodeToText", "Component", "ComponentError", "Decoder", "Filter", "FontInfo", "FontRef", "Glyph",
    "GlyphTable", "GlyphweaveError", "Option", "PageContext", "PluginError", "ProfileError", "Run", "RunFrame",
    "RunGeometry", "has_private_use", "hookimpl", "is_private_use", "is_weak", "run_frame", "run_page_size",
    "split_subset_prefix", "strip_subset_prefix",
]
