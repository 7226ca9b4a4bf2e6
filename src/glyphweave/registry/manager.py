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
4. the extra plugin objects given by the caller;
5. ``check_pending``: a ``@hookimpl`` for a hook glyphweave does not declare fails now,
   with the plugin's name and distribution, rather than being silently ignored.
"""

from __future__ import annotations

import difflib
import importlib.metadata
import re
from collections.abc import Iterable
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


def create_plugin_manager(
    *,
    blocked: Iterable[str] = (),
    load_entrypoints: bool = True,
    plugins: Iterable[object] = (),
) -> GlyphweavePluginManager:
    """Build a new plugin manager with glyphweave's hooks and plugins loaded.

    :param blocked: entry-point (or plugin) names never to load, like pytest's
        ``-p no:NAME``. Blocking a built-in such as ``dedup`` removes its components.
    :param load_entrypoints: load the ``glyphweave`` entry points of installed
        distributions (False gives a manager with only ``plugins``: handy in tests).
    :param plugins: extra plugin objects (modules, classes or instances with
        ``@hookimpl`` functions) registered after the entry points.
    :raises PluginError: a plugin fails to import or register, two distributions
        declare the same entry-point name, or a plugin implements an undeclared hook.
    """
    pm = GlyphweavePluginManager()
    pm.add_hookspecs(hookspecs)
    for name in blocked:
        pm.set_blocked(name)
    if load_entrypoints:
        _load_entrypoints(pm)
    for plugin in plugins:
        try:
            pm.register(plugin)
        except Exception as exc:  # pluggy raises ValueError or PluginValidationError
            raise PluginError(f"cannot register plugin {plugin!r}: {_one_line(exc)}") from exc
    _check_pending(pm)
    return pm


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


def _load_entrypoints(pm: GlyphweavePluginManager) -> None:
    for ep, label in _declared_entrypoints(pm):
        if pm.get_plugin(ep.name) is not None:
            continue  # registered already (pluggy's rule: the first one wins)
        try:
            plugin = ep.load()
            pm.register(plugin, name=ep.name)
        except Exception as exc:
            raise PluginError(
                f"plugin {ep.name!r} ({ep.value}) from {label} could not be loaded: {_one_line(exc)}"
            ) from exc
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


def _check_pending(pm: pluggy.PluginManager) -> None:
    try:
        pm.check_pending()
    except pluggy.PluginValidationError as exc:
        plugin = exc.plugin
        name = pm.get_name(plugin) or repr(plugin)
        unknown = [caller.name for caller in (pm.get_hookcallers(plugin) or []) if not caller.has_spec()]
        declared = sorted(n for n in vars(hookspecs) if n.startswith(f"{PROJECT_NAME}_"))
        if not unknown:
            raise PluginError(
                f"{describe_plugin(name, plugin_distribution(pm, plugin))}: {_one_line(exc)}"
            ) from exc
        hint = difflib.get_close_matches(unknown[0], declared, n=1)
        suggestion = f"; did you mean {hint[0]!r}?" if hint else f" (hooks: {', '.join(declared)})"
        raise PluginError(
            f"{describe_plugin(name, plugin_distribution(pm, plugin))} implements "
            f"{unknown[0]!r}, which is not a glyphweave hook{suggestion}"
        ) from exc


def _one_line(exc: BaseException) -> str:
    text = " ".join(str(exc).split())
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__
