"""Helpers for testing glyphweave components, for plugin authors and glyphweave's own tests.

``from glyphweave.testing import extract_text, font_info, add_text, page_context, text_of``; the
synthetic-PDF builder is :mod:`glyphweave.testing.pdfs`, and the pytest fixtures (loaded
automatically where glyphweave is installed) are in :mod:`glyphweave.testing.pytest_plugin`.
"""

from glyphweave.testing.extract import extract_text
from glyphweave.testing.factories import add_text, font_info, page_context, text_of
from glyphweave.testing.plugins import fake_entry_point_distribution, fresh_plugin_manager, make_plugin

__all__ = [
    "add_text",
    "extract_text",
    "fake_entry_point_distribution",
    "font_info",
    "fresh_plugin_manager",
    "make_plugin",
    "page_context",
    "text_of",
]
