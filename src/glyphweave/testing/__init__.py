"""Opt-in helpers for testing glyphweave components (for plugin authors too).

``from glyphweave.testing import add_text, page_context, fresh_plugin_manager``.
"""

from glyphweave.testing.factories import add_text, page_context
from glyphweave.testing.plugins import fake_entry_point_distribution, fresh_plugin_manager, make_plugin

__all__ = [
    "add_text",
    "fake_entry_point_distribution",
    "fresh_plugin_manager",
    "make_plugin",
    "page_context",
]
