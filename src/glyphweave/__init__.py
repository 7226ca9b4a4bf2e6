"""glyphweave: PDF text extraction that gets the text right, built from plugins.

    import glyphweave
    with glyphweave.open("paper.pdf") as doc:
        print(doc.text())

Public names are imported lazily so that ``glyphweave --help`` starts fast.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

__all__ = [
    "Document", "Glyph", "Metadata", "OpenOptions", "OutlineEntry", "Page", "Profile", "SearchHit", "Table", "TableCell", "TextBlock", "TextLine", "TextWord",
    "WarningRecord", "__version__",
    "clean", "hookimpl",
    "open", "open_with", "read_registry", "run_batch",
    # The errors (glyphweave.core.errors), every one a GlyphweaveError:
    "ComponentError", "DocumentClosedError", "GlyphweaveError", "NotARegularFileError", "PDFNotFoundError",
    "PDFOpenError", "PageError", "PasswordError", "PluginError", "ProfileError", "UsageError",
]

if TYPE_CHECKING:
    from glyphweave.api import Document, Metadata, OutlineEntry, Page, open_with
    from glyphweave.api import open_document as open
    from glyphweave.batch import run_batch
    from glyphweave.components.markers import hookimpl
    from glyphweave.components.profile import Profile
    from glyphweave.core.errors import (
        ComponentError,
        DocumentClosedError,
        GlyphweaveError,
        NotARegularFileError,
        PageError,
        PasswordError,
        PDFNotFoundError,
        PDFOpenError,
        PluginError,
        ProfileError,
        UsageError,
    )
    from glyphweave.core.glyph import Glyph
    from glyphweave.glyphmap.clean import clean
    from glyphweave.glyphmap.registry import read_registry
    from glyphweave.guard.report import WarningRecord
    from glyphweave.opening import OpenOptions
    from glyphweave.pagesearch import SearchHit
    from glyphweave.pagetables import Table, TableCell
    from glyphweave.pagewords import TextBlock, TextLine, TextWord

_LAZY = {
    "open": ("glyphweave.api", "open_document"),
    "open_with": ("glyphweave.api", "open_with"),
    "OpenOptions": ("glyphweave.opening", "OpenOptions"),
    "Document": ("glyphweave.api", "Document"),
    "Page": ("glyphweave.api", "Page"),
    "Metadata": ("glyphweave.pdf.metadata", "Metadata"),
    "OutlineEntry": ("glyphweave.pdf.outline", "OutlineEntry"),
    "Glyph": ("glyphweave.core.glyph", "Glyph"),
    "TextWord": ("glyphweave.pagewords", "TextWord"),
    "TextLine": ("glyphweave.pagewords", "TextLine"),
    "TextBlock": ("glyphweave.pagewords", "TextBlock"),
    "SearchHit": ("glyphweave.pagesearch", "SearchHit"),
    "Table": ("glyphweave.pagetables", "Table"),
    "TableCell": ("glyphweave.pagetables", "TableCell"),
    "WarningRecord": ("glyphweave.guard.report", "WarningRecord"),
    "Profile": ("glyphweave.components.profile", "Profile"),
    "hookimpl": ("glyphweave.components.markers", "hookimpl"),
    "run_batch": ("glyphweave.batch", "run_batch"),
    "clean": ("glyphweave.glyphmap.clean", "clean"),
    "read_registry": ("glyphweave.glyphmap.registry", "read_registry"),
    "GlyphweaveError": ("glyphweave.core.errors", "GlyphweaveError"),
    "PDFOpenError": ("glyphweave.core.errors", "PDFOpenError"),
    "PDFNotFoundError": ("glyphweave.core.errors", "PDFNotFoundError"),
    "NotARegularFileError": ("glyphweave.core.errors", "NotARegularFileError"),
    "PasswordError": ("glyphweave.core.errors", "PasswordError"),
    "DocumentClosedError": ("glyphweave.core.errors", "DocumentClosedError"),
    "PageError": ("glyphweave.core.errors", "PageError"),
    "ProfileError": ("glyphweave.core.errors", "ProfileError"),
    "PluginError": ("glyphweave.core.errors", "PluginError"),
    "ComponentError": ("glyphweave.core.errors", "ComponentError"),
    "UsageError": ("glyphweave.core.errors", "UsageError"),
}


def __getattr__(name: str) -> Any:
    try:
        module_name, attr = _LAZY[name]
    except KeyError:
        raise AttributeError(f"module 'glyphweave' has no attribute {name!r}") from None
    import importlib

    value = getattr(importlib.import_module(module_name), attr)
    globals()[name] = value
    return value
