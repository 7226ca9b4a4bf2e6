"""Plugin registry: hookspecs, markers, the plugin-manager factory, the catalog of
components and profiles. The only package that imports pluggy."""

from glyphweave.registry.catalog import Catalog, ComponentInfo, ProfileSource
from glyphweave.registry.manager import LeftOut, PluginWarning, create_plugin_manager
from glyphweave.registry.markers import PROJECT_NAME, hookimpl, hookspec
from glyphweave.registry.profile import Profile, ResolvedPipeline, available_profiles, load_profile

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
