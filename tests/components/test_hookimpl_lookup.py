"""The plugin manager's quick answer to "is this name a hook implementation?" is pluggy's.

``GlyphweavePluginManager.parse_hookimpl_opts`` answers at once for what a module holds (a
function's marker options, None for a class or a plain value); bound, static and class methods
go to pluggy. For every name of every plugin module glyphweave loads, and of a module
holding every kind of value, the answer must be the one pluggy's own method gives.
"""

from __future__ import annotations

import functools
import math
import sys
import types

import pluggy

from glyphweave.components.manager import GlyphweavePluginManager, create_plugin_manager
from glyphweave.components.markers import PROJECT_NAME, hookimpl


def _same_answers(module: types.ModuleType) -> None:
    ours = GlyphweavePluginManager()
    theirs = pluggy.PluginManager(PROJECT_NAME)
    for name in dir(module):
        assert ours.parse_hookimpl_opts(module, name) == theirs.parse_hookimpl_opts(module, name), name


def test_every_loaded_plugin_module() -> None:
    pm = create_plugin_manager()
    modules = [plugin for plugin in pm.get_plugins() if isinstance(plugin, types.ModuleType)]
    assert len(modules) >= 10
    for module in modules:
        _same_answers(module)


def test_a_module_of_every_kind_of_value() -> None:
    module = types.ModuleType("every_kind")

    @hookimpl
    def marked(page: object) -> None: ...

    @hookimpl(tryfirst=True)
    def marked_with_options(page: object) -> None: ...

    def unmarked(page: object) -> None: ...

    def false_marker(page: object) -> None: ...

    false_marker.glyphweave_impl = "not the marker's dictionary"  # type: ignore[attr-defined]

    class Holder:
        @hookimpl
        def method(self) -> None: ...

        @staticmethod
        @hookimpl
        def static() -> None: ...

        @classmethod
        @hookimpl
        def klass(cls) -> None: ...

    module.__dict__.update(
        marked=marked, marked_with_options=marked_with_options, unmarked=unmarked, false_marker=false_marker,
        Holder=Holder,
        bound=Holder().method, static=Holder.__dict__["static"], klass=Holder.__dict__["klass"],
        builtin=math.sqrt, partial=functools.partial(marked), number=3, text="x", nothing=None, module=sys,
        instance=Holder(), lambda_=lambda: None,
    )
    _same_answers(module)
    assert GlyphweavePluginManager().parse_hookimpl_opts(module, "marked_with_options")["tryfirst"]
