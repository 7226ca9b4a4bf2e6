"""The component machinery: hookspecs, markers, the plugin-manager factory, the catalog of
components and profiles. The only package that imports pluggy.

(Not the *glyph registry*, the file of glyphs people validate: that is :mod:`glyphweave.glyphmap`.)"""

from glyphweave.components.catalog import Catalog, ComponentInfo, ProfileSource
from glyphweave.components.manager import LeftOut, PluginWarning, create_plugin_manager
from glyphweave.components.markers import PROJECT_NAME, hookimpl, hookspec
from glyphweave.components.profile import Profile, ResolvedPipeline, available_profiles, load_profile

__all__ = [
    "PROJECT_NAME",
    "Catalog",
    "ComponentInfo",
    "LeftOut",
    "PluginWarning",
    "Profile",
    "ProfileSource",
    "ResolvedPipeline",
    "available_profiles",
    "create_plugin_manager",
    "hookimpl",
    "hookspec",
    "load_profile",
]
