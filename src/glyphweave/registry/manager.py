"""The plugin-manager factory.

Every call builds a fresh :class:`pluggy.PluginManager`: nothing is created at import
time, so a test (or a library embedding glyphweave) can build as many independent
managers as it likes, each with its own blocked names and extra plugins.

Loading order:

1. the hookspecs of :mod:`glyphweave.registry.hookspecs`;
2. ``set_blocked`` for every blocked entry-point name, *before* loading, so a blocked
   plugin is never imported (pytest's ``-p no:NAME``);
3. the ``glyphweave`` entry points of every installed distribution (built-in
   components ship through this same group), in one scan of the distributions;
4. the extra plugin objects, then the modules named by the caller (imported by name, for
   trying a plugin without installing it, like pytest's ``-p module``);
5. ``check_pending``: a ``@hookimpl`` for a hook glyphweave does not declare fails now,
   with the plugin's name and distribution, rather than being silently ignored.

Two environment variables do what the arguments do, for a deployment that cannot change
the command (read when a manager is built, never at import):

``GLYPHWEAVE_BLOCK_PLUGINS``
    Comma-separated entry-point names to block, added to ``blocked``.
``GLYPHWEAVE_LOAD_PLUGINS``
    Comma-separated names of the *third-party* entry points to load; the others are not
    imported. glyphweave's own components always load (block one by name to drop it). Set
    and empty, it loads no third-party plugin at all.
"""

from __future__ import annotations

import difflib
import importlib
import importlib.metadata
import os
import re
from collections.abc import Iterable, Mapping
from typing import Any

import pluggy

from glyphweave.core.errors import PluginError
from glyphweave.registry import hookspecs
from glyphweave.registry.markers import PROJECT_NAME

__all__ = ["GlyphweavePluginManager", "create_plugin_manager", "describe_plugin", "plugin_distribution"]

NOT_INSTALLED = "(not installed)"
"""Distribution label of a plugin registered directly rather than through an entry point."""


class GlyphweavePluginManager(pluggy.PluginManager):
    """pluggy's manager, remembering which distribution each entry-point plugin came from.

    glyphweave loads its entry points itself rather than through
    ``load_setuptools_entrypoints``: one scan of the installed distributions both checks
    for conflicting names and loads, where pluggy's loader would scan them all again.
    """

    def __init__(self) -> None:
        super().__init__(PROJECT_NAME)
        self.distributions: dict[str, str] = {}
        """Plugin name -> ``"name version"`` of the distribution whose entry point loaded it."""
        self.broken: dict[str, str] = {}
        """Plugin name -> why it could not be loaded (with ``skip_broken``)."""

    def load_failed(self, name: str, message: str, skip_broken: bool, exc: BaseException) -> None:
        """Record a plugin that failed to load (``skip_broken``), or raise :class:`PluginError`."""
        if not skip_broken:
            raise PluginError(message) from exc
        self.broken[name] = message


def create_plugin_manager(
    *,
    blocked: Iterable[str] = (),
    load_entrypoints: bool = True,
    plugins: Iterable[object] = (),
    modules: Iterable[str] = (),
    skip_broken: bool = False,
    environ: Mapping[str, str] | None = None,
) -> GlyphweavePluginManager:
    """Build a new plugin manager with glyphweave's hooks and plugins loaded.

    :param blocked: entry-point (or plugin) names never to load, like pytest's
        ``-p no:NAME``. Blocking a built-in such as ``dedup`` removes its components.
    :param load_entrypoints: load the ``glyphweave`` entry points of installed
        distributions (False gives a manager with only ``plugins``: handy in tests).
    :param plugins: extra plugin objects (modules, classes or instances with
        ``@hookimpl`` functions) registered after the entry points.
    :param modules: names of modules to import and register as plugins (not installed).
    :param skip_broken: a plugin that fails to import or register is left out and noted in
        ``pm.broken`` instead of failing the whole manager (``glyphweave plugins`` lists it).
    :param environ: where ``GLYPHWEAVE_BLOCK_PLUGINS`` and ``GLYPHWEAVE_LOAD_PLUGINS`` are
        read (default :data:`os.environ`; pass ``{}`` to ignore them).
    :raises PluginError: a plugin fails to import or register, two distributions
        declare the same entry-point name, or a plugin implements an undeclared hook.
    """
    env = os.environ if environ is None else environ
    pm = GlyphweavePluginManager()
    pm.add_hookspecs(hookspecs)
    for name in (*blocked, *_names(env.get("GLYPHWEAVE_BLOCK_PLUGINS"))):
        pm.set_blocked(name)
    if load_entrypoints:
        only = env.get("GLYPHWEAVE_LOAD_PLUGINS")
        _load_entrypoints(pm, None if only is None else set(_names(only)), skip_broken)
    for plugin in plugins:
        if _installed_already(pm, plugin):
            continue  # an installed plugin's module, passed again by its own tests
        try:
            pm.register(plugin)
        except Exception as exc:  # pluggy raises ValueError or PluginValidationError
            raise PluginError(f"cannot register plugin {plugin!r}: {_one_line(exc)}") from exc
    for module in modules:
        _load_module(pm, module, skip_broken)
    _check_pending(pm, skip_broken)
    return pm


def _installed_already(pm: GlyphweavePluginManager, plugin: object) -> bool:
    """True when ``plugin`` is a module an entry point loaded already (the same object, or
    the same module imported again from the plugin's checkout, as its own tests do)."""
    module = getattr(plugin, "__name__", None)
    for name in pm.distributions:
        loaded = pm.get_plugin(name)
        if loaded is plugin or (module is not None and getattr(loaded, "__name__", None) == module):
            return True
    return False


def _names(value: str | None) -> list[str]:
    return [name.strip() for name in (value or "").split(",") if name.strip()]


def _load_module(pm: GlyphweavePluginManager, module: str, skip_broken: bool) -> None:
    """Import ``module`` by name and register it under that name."""
    if pm.is_blocked(module):
        return
    try:
        plugin = importlib.import_module(module)
        pm.register(plugin, name=module)
    except Exception as exc:
        pm.load_failed(module, f"plugin module {module!r} could not be loaded: {_one_line(exc)}",
                       skip_broken, exc)

def plugin_distribution(pm: pluggy.PluginManager, plugin: object) -> str:
    """``"name version"`` of the distribution that provided ``plugin`` through an entry
    point, or ``"(not installed)"`` for a plugin registered directly."""
    name = pm.get_name(plugin)
    if isinstance(pm, GlyphweavePluginManager) and name is not None and name in pm.distributions:
        return pm.distributions[name]
    for loaded, dist in pm.list_plugin_distinfo():  # a manager that pluggy's loader filled
        if loaded is plugin:
            return _dist_label(dist)
    return NOT_INSTALLED


def describe_plugin(name: str, distribution: str) -> str:
    """``plugin 'x' (dist 1.0)``, or ``plugin 'x' (not installed)``: for messages."""
    where = distribution if distribution.startswith("(") else f"({distribution})"
    return f"plugin {name!r} {where}"


def _dist_label(dist: Any) -> str:
    """``"name version"`` of an importlib.metadata distribution (or pluggy's facade)."""
    metadata = dist.metadata
    return f"{metadata.get('Name') or '(unnamed)'} {metadata.get('Version') or '(no version)'}"


# -- entry points ---------------------------------------------------------------------


def _load_entrypoints(pm: GlyphweavePluginManager, only: set[str] | None, skip_broken: bool) -> None:
    """Load the declared entry points; with ``only``, the third-party ones it names and
    every built-in one."""
    for ep, label in _declared_entrypoints(pm):
        if pm.get_plugin(ep.name) is not None:
            continue  # registered already (pluggy's rule: the first one wins)
        if only is not None and ep.name not in only and label.split(" ")[0] != PROJECT_NAME:
            continue
        try:
            plugin = ep.load()
            pm.register(plugin, name=ep.name)
        except Exception as exc:
            message = f"plugin {ep.name!r} ({ep.value}) from {label} could not be loaded: {_one_line(exc)}"
            pm.load_failed(ep.name, message, skip_broken, exc)
            continue
        pm.distributions[ep.name] = label


def _declared_entrypoints(pm: pluggy.PluginManager) -> list[tuple[importlib.metadata.EntryPoint, str]]:
    """(entry point, "dist version") of the group, unblocked, in load order.

    Two *different* distributions declaring the same entry-point name is an error:
    pluggy would silently load whichever comes first on ``sys.path``. The same
    distribution found twice (a stale copy further down the path) is not: the first
    wins, as in :func:`importlib.metadata.entry_points`.
    """
    seen_dists: set[str] = set()
    owners: dict[str, str] = {}
    declared: list[tuple[importlib.metadata.EntryPoint, str]] = []
    for dist in importlib.metadata.distributions():
        # Only distributions declaring our group matter; reading a distribution's name
        # parses its whole METADATA file, so look at the (small) entry points first.
        ours = [ep for ep in dist.entry_points if ep.group == PROJECT_NAME and not pm.is_blocked(ep.name)]
        if not ours:
            continue
        label = _dist_label(dist)
        key = re.sub(r"[-_.]+", "-", label.rsplit(" ", 1)[0]).lower()
        if key in seen_dists:
            continue
        seen_dists.add(key)
        for ep in ours:
            if ep.name in owners:
                raise PluginError(
                    f"entry point {ep.name!r} in group {PROJECT_NAME!r} is declared by two "
                    f"distributions: {owners[ep.name]} and {label}; uninstall one or block "
                    f"the name"
                )
            owners[ep.name] = label
            declared.append((ep, label))
    return declared


# -- hook validation --------------------------------------------------------------------


def _check_pending(pm: pluggy.PluginManager, skip_broken: bool = False) -> None:
    """Fail on a plugin implementing an undeclared hook; with ``skip_broken``, leave each
    such plugin out (noted in ``pm.broken``) and check the rest."""
    while True:
        try:
            pm.check_pending()
            return
        except pluggy.PluginValidationError as exc:
            error = _pending_error(pm, exc)
            if not (skip_broken and isinstance(pm, GlyphweavePluginManager)):
                raise error from exc
            name = pm.get_name(exc.plugin) or repr(exc.plugin)
            pm.unregister(exc.plugin)
            pm.broken[name] = str(error)


def _pending_error(pm: pluggy.PluginManager, exc: pluggy.PluginValidationError) -> PluginError:
    plugin = exc.plugin
    name = pm.get_name(plugin) or repr(plugin)
    unknown = [caller.name for caller in (pm.get_hookcallers(plugin) or []) if not caller.has_spec()]
    declared = sorted(n for n in vars(hookspecs) if n.startswith(f"{PROJECT_NAME}_"))
    if not unknown:
        return PluginError(f"{describe_plugin(name, plugin_distribution(pm, plugin))}: {_one_line(exc)}")
    hint = difflib.get_close_matches(unknown[0], declared, n=1)
    suggestion = f"; did you mean {hint[0]!r}?" if hint else f" (hooks: {', '.join(declared)})"
    return PluginError(
        f"{describe_plugin(name, plugin_distribution(pm, plugin))} implements "
        f"{unknown[0]!r}, which is not a glyphweave hook{suggestion}"
    )


def _one_line(exc: BaseException) -> str:
    text = " ".join(str(exc).split())
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__
