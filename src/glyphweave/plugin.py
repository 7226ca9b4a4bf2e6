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

from glyphweave.components.markers import hookimpl
from glyphweave.core.clock import TimeLimitReached
from glyphweave.core.decoding import has_private_use, is_private_use, is_weak
from glyphweave.core.errors import ComponentError, GlyphweaveError, PluginError, ProfileError
from glyphweave.core.fontinfo import CodeToText, FontInfo, split_subset_prefix, strip_subset_prefix
from glyphweave.core.geometry import (
    WIDE_GAP,
    Block,
    Box,
    Line,
    PageGeometry,
    Rules,
    Walk,
    Word,
    build_blocks,
    direction_groups,
    finish_text,
    geometric_rows,
    is_cjk,
)
from glyphweave.core.geometry.recovery import Recovery, join_backwards, recover
from glyphweave.core.glyph import FontRef, Glyph
from glyphweave.core.glyphtable import GlyphTable
from glyphweave.core.runs import Run, RunFrame, RunGeometry, run_frame, run_page_size
from glyphweave.core.scripts import expand_ligatures, has_rtl, logical_order, normalize_arabic_forms
from glyphweave.core.stages import Assembled, Assembler, Component, Decoder, Filter, Option, PageContext
from glyphweave.core.structure import ContentKey, Coverage, PageStructure, StructItem, content_keys, coverage

__all__ = [
    "WIDE_GAP",
    "Assembled",
    "Assembler",
    "Block",
    "Box",
    "CodeToText",
    "Component",
    "ComponentError",
    "ContentKey",
    "Coverage",
    "Decoder",
    "Filter",
    "FontInfo",
    "FontRef",
    "Glyph",
    "GlyphTable",
    "GlyphweaveError",
    "Line",
    "Option",
    "PageContext",
    "PageGeometry",
    "PageStructure",
    "PluginError",
    "ProfileError",
    "Recovery",
    "Rules",
    "Run",
    "RunFrame",
    "RunGeometry",
    "StructItem",
    "TimeLimitReached",
    "Walk",
    "Word",
    "build_blocks",
    "content_keys",
    "coverage",
    "direction_groups",
    "expand_ligatures",
    "finish_text",
    "geometric_rows",
    "has_private_use",
    "has_rtl",
    "hookimpl",
    "is_cjk",
    "is_private_use",
    "is_weak",
    "join_backwards",
    "logical_order",
    "normalize_arabic_forms",
    "recover",
    "run_frame",
    "run_page_size",
    "split_subset_prefix",
    "strip_subset_prefix",
]
