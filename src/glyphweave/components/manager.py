"""The plugin-manager factory.

Every call builds a fresh :class:`pluggy.PluginManager`: nothing is created at import
time, so a test (or a library embedding glyphweave) can build as many independent
managers as it likes, each with its own blocked names and extra plugins.

Loading order:

1. the hookspecs of :mod:`glyphweave.components.hookspecs`;
2. ``set_blocked`` for every blocked entry-point name, *before* loading, so a blocked
   plugin is never imported (pytest's ``-p no:NAME``);
3. the ``glyphweave`` entry points of every installed distribution (built-in
   components ship through this same group), in one scan of the distributions;
4. the extra plugin objects, then the modules named by the caller (imported by name, or
   loaded from a ``.py`` file, for trying a plugin without installing it, like pytest's
   ``-p module``); a module name not found on the path is looked for in the current
   folder too. A named module that is missing or fails to import is always an error: the
   caller asked for it;
5. ``check_pending``: a ``@hookimpl`` for a hook glyphweave does not declare fails now,
   with the plugin's name and distribution, rather than being silently ignored.

A plugin with ``glyphweave_*`` functions that lack the ``@hookimpl`` marker registers
nothing through them: pluggy ignores unmarked functions. That is a warning (one per
plugin, naming the functions), not silence.

Two distributions declaring the same entry-point name do not stop the tool: glyphweave's
own entry point wins over a third-party one, and of two third-party ones the distribution
whose name sorts first wins; the other is left out with one warning (see
:attr:`GlyphweavePluginManager.warnings`). The catalog does the same for component and
profile names (:meth:`~glyphweave.components.catalog.Catalog.from_plugin_manager`).

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

import importlib
import importlib.util
import os
import re
import sys
import types
import warnings
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import attrs
import pluggy

from glyphweave.components import hookspecs
from glyphweave.components.distributions import declaring, metadata_label
from glyphweave.components.markers import PROJECT_NAME
from glyphweave.core.errors import PluginError

__all__ = [
    "GlyphweavePluginManager",
    "LeftOut",
    "PluginWarning",
    "create_plugin_manager",
    "describe_plugin",
    "plugin_distribution",
]

NOT_INSTALLED = "(not installed)"
"""Distribution label of a plugin registered directly rather than through an entry point."""


class PluginWarning(UserWarning):
    """Something about the installed plugins that glyphweave worked around: a name two
    distributions claim (one was left out), ``glyphweave_*`` functions without
    ``@hookimpl``. The tool keeps working; the message says what to change."""


@attrs.frozen(kw_only=True)
class LeftOut:
    """A plugin's entry point, component or profile left out because another one holds
    its name, and the one that was kept."""

    what: str
    """``"entry point"``, ``"decoder"``, ``"filter"``, ``"assembler"`` or ``"profile"``."""
    name: str
    plugin: str
    """The plugin (entry-point name) whose ``what`` was left out."""
    distribution: str
    kept_plugin: str
    kept_distribution: str
    message: str
    """The one-line warning, naming both distributions and how to silence it."""

    def to_dict(self) -> dict[str, str]:
        """A plain, JSON-friendly description (``glyphweave plugins --format json``)."""
        return attrs.asdict(self)


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
        self.skip_broken = False
        """Whether a broken plugin is left out rather than an error: at loading, and (by
        default) in the catalogs built from this manager."""
        self.requested: set[str] = set()
        """Names of the plugins the caller passed (``plugins``, ``modules``), not found
        installed: their failures are errors even with ``skip_broken``."""
        self.left_out: list[LeftOut] = []
        """Entry points, components and profiles left out because their name is taken."""
        self.warnings: list[str] = []
        """Every warning about the plugins, once each, in the order met (also issued as a
        :class:`PluginWarning`): names left out, unmarked hook functions."""

    def warn(self, message: str, left_out: LeftOut | None = None) -> None:
        """Record ``message`` (and what was left out) and issue it as a
        :class:`PluginWarning`, the first time only: building several catalogs from one
        manager does not repeat it."""
        if message in self.warnings:
            return
        self.warnings.append(message)
        if left_out is not None:
            self.left_out.append(left_out)
        warnings.warn(message, PluginWarning, stacklevel=2)

    def load_failed(self, name: str, message: str, skip_broken: bool, exc: BaseException) -> None:
        """Record a plugin that failed to load (``skip_broken``), or raise :class:`PluginError`."""
        if not skip_broken:
            raise PluginError(message) from exc
        self.broken[name] = message

    def parse_hookimpl_opts(self, plugin: Any, name: str) -> Any:
        """pluggy's answer, reached quickly for what cannot be a hook implementation.

        pluggy asks this of every name in ``dir(plugin)``; a plugin module holds mostly what
        it imports (classes, modules, helper functions), and pluggy's careful lookup
        (``inspect.getattr_static``) of each cost 1.5 ms of every document opened. In a
        module, only a function, a bound method, a static or a class method can be a hook
        implementation (pluggy 1.7 looks at nothing else; 1.3 at routines, and a builtin
        cannot carry the marker), and a plain function's options are the dictionary the
        hookimpl marker put in its attributes, if any (what every pluggy version reads):
        answered here; bound, static and class methods go to pluggy."""
        if type(plugin) is types.ModuleType:
            value = plugin.__dict__.get(name, _ABSENT)
            if type(value) is types.FunctionType:
                options = value.__dict__.get(_IMPL_MARKER)
                return options if isinstance(options, dict) else None
            if value is not _ABSENT and not isinstance(value, _MAY_BE_HOOKS):
                return None
        return super().parse_hookimpl_opts(plugin, name)


_ABSENT = object()
_IMPL_MARKER = f"{PROJECT_NAME}_impl"
"""The attribute pluggy's hookimpl marker sets on a function (``HookimplMarker(PROJECT_NAME)``)."""
_MAY_BE_HOOKS = (types.MethodType, staticmethod, classmethod)


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
    :param skip_broken: an installed plugin that fails to import or register (or, in a
        catalog built from the manager, registers something unusable) is left out and noted
        in ``pm.broken`` instead of failing the whole manager (``glyphweave plugins`` lists
        it). One of ``modules`` is asked for by name: its failure always
        raises.
    :param environ: where ``GLYPHWEAVE_BLOCK_PLUGINS`` and ``GLYPHWEAVE_LOAD_PLUGINS`` are
        read (default :data:`os.environ`; pass ``{}`` to ignore them).
    :raises PluginError: a plugin fails to import or register (an installed one only
        without ``skip_broken``; one of ``modules`` always), or a plugin implements an
        undeclared hook.

    Two distributions declaring one entry-point name, and ``glyphweave_*`` functions
    without ``@hookimpl``, are warnings (:class:`PluginWarning`, recorded in
    ``pm.warnings``), never errors.
    """
    env = os.environ if environ is None else environ
    pm = GlyphweavePluginManager()
    pm.skip_broken = skip_broken
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
        pm.requested.add(pm.get_name(plugin) or repr(plugin))
        _check_unmarked(pm, plugin)
    for module in modules:
        _load_module(pm, module)
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


def _load_module(pm: GlyphweavePluginManager, spec: str) -> None:
    """Import the module ``spec`` names (a module name, or the path of a ``.py`` file) and
    register it under its module name. The caller asked for it by name, so failing is an
    error whatever ``skip_broken`` says."""
    path = _module_path(spec)
    name = path.stem if path is not None else spec
    if pm.is_blocked(name) or pm.is_blocked(spec):
        return
    try:
        plugin = _import_file(name, path) if path is not None else _import_name(spec)
    except Exception as exc:
        raise PluginError(f"plugin module {spec!r} could not be loaded: {_one_line(exc)}") from exc
    try:
        pm.register(plugin, name=name)
    except Exception as exc:
        raise PluginError(f"plugin module {spec!r} could not be registered: {_one_line(exc)}") from exc
    pm.requested.add(name)
    _check_unmarked(pm, plugin)


def _module_path(spec: str) -> Path | None:
    """The file ``spec`` names when it is a path (ends in ``.py`` or holds a separator),
    else None (a module name)."""
    if spec.endswith(".py") or os.sep in spec or (os.altsep is not None and os.altsep in spec):
        return Path(spec)
    return None


def _import_file(name: str, path: Path) -> Any:
    """The module in the file ``path``, imported as ``name`` (reused when that module is
    imported already from the same file)."""
    if not path.is_file():
        raise FileNotFoundError(f"no such file: {path}")
    loaded = sys.modules.get(name)
    loaded_file = getattr(loaded, "__file__", None)
    if loaded is not None and loaded_file is not None and os.path.samefile(loaded_file, path):
        return loaded
    if loaded is not None:
        raise ImportError(f"a module named {name!r} is imported already from {loaded_file or 'elsewhere'}; "
                          f"rename the file")
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot import {path} (not a Python file)")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # as an import would: pickling and dataclasses look it up
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[name]
        raise
    return module


def _import_name(name: str) -> Any:
    """``importlib.import_module(name)``, looking in the current folder too when the module
    is not found on the path (the console script's path does not hold the current folder,
    unlike ``python -m``)."""
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as exc:
        top = name.partition(".")[0]
        cwd = os.getcwd()
        if exc.name != top or cwd in sys.path:
            raise
        if not (Path(cwd, f"{top}.py").is_file() or Path(cwd, top).is_dir()):
            raise
    sys.path.insert(0, cwd)
    try:
        return importlib.import_module(name)
    finally:
        sys.path.remove(cwd)


def _check_unmarked(pm: GlyphweavePluginManager, plugin: object) -> None:
    """Warn about ``glyphweave_*`` functions of ``plugin`` that lack ``@hookimpl``: pluggy
    ignores them, so the plugin would silently register nothing through them."""
    prefix = f"{PROJECT_NAME}_"
    unmarked = sorted(  # (the names first: getting every member of a module cost 0.3 ms a plugin)
        attr for attr in dir(plugin)
        if attr.startswith(prefix) and callable(getattr(plugin, attr, None))
        and pm.parse_hookimpl_opts(plugin, attr) is None
    )
    if not unmarked:
        return
    name = pm.get_name(plugin) or repr(plugin)
    functions = ", ".join(f"{attr}()" for attr in unmarked)
    pm.warn(f"{describe_plugin(name, plugin_distribution(pm, plugin))}: {functions} "
            f"{'lacks' if len(unmarked) == 1 else 'lack'} the @hookimpl marker, so glyphweave ignores "
            f"{'it' if len(unmarked) == 1 else 'them'}; decorate each with @hookimpl "
            f"(from glyphweave.plugin import hookimpl)")


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
    return metadata_label(dist.metadata)


# -- entry points ---------------------------------------------------------------------


def _load_entrypoints(pm: GlyphweavePluginManager, only: set[str] | None, skip_broken: bool) -> None:
    """Load the declared entry points; with ``only``, the third-party ones it names and
    every built-in one."""
    declared, left_out = _declared_entrypoints(pm)
    for record in left_out:
        pm.warn(record.message, record)
    for ep, label in declared:
        if pm.get_plugin(ep.name) is not None:
            continue  # registered already (pluggy's rule: the first one wins)
        if only is not None and ep.name not in only and not is_builtin(label):
            continue
        try:
            plugin = ep.load()
            pm.register(plugin, name=ep.name)
        except Exception as exc:
            message = f"plugin {ep.name!r} ({ep.value}) from {label} could not be loaded: {_one_line(exc)}"
            pm.load_failed(ep.name, message, skip_broken, exc)
            continue
        pm.distributions[ep.name] = label
        _check_unmarked(pm, plugin)


def is_builtin(label: str) -> bool:
    """True for the ``"name version"`` label of glyphweave's own distribution."""
    return label.split(" ")[0] == PROJECT_NAME


def precedence(plugin: str, distribution: str) -> tuple[int, str, str]:
    """Sort key of the claimants of one name: the lowest keeps it. glyphweave's own
    components first; then by distribution name, then plugin name, so the choice does not
    depend on the order of ``sys.path`` or of installation."""
    dist_name = distribution.rsplit(" ", 1)[0] if not distribution.startswith("(") else distribution
    return (0 if is_builtin(distribution) else 1, re.sub(r"[-_.]+", "-", dist_name).lower(), plugin)


def left_out_message(what: str, name: str, loser: str, kept: str, kept_builtin: bool, advice: str) -> str:
    """One line: ``what`` ``name`` of ``loser`` (a plugin, described) was left out, which
    one keeps the name and why, and ``advice`` (how to silence it)."""
    why = ("glyphweave's own always wins" if kept_builtin
           else "of two plugins, the one whose distribution name, then plugin name, sorts first wins")
    return f"{what} {name!r} of {loser} left out: {kept} claims the same name ({why}); {advice}"


def _declared_entrypoints(
    pm: pluggy.PluginManager,
) -> tuple[list[tuple[Any, str]], list[LeftOut]]:
    """(entry point, "dist version") of the group, unblocked, in load order; and the entry
    points left out because another distribution declares the same name.

    Of two *different* distributions declaring the same entry-point name, the one of
    :func:`precedence` is kept (pluggy would silently load whichever comes first on
    ``sys.path``). The same distribution found twice (a stale copy further down the path)
    is not a conflict: the first wins, as in :func:`importlib.metadata.entry_points`.
    """
    seen_dists: set[str] = set()
    owners: dict[str, int] = {}
    declared: list[tuple[Any, str]] = []
    left_out: list[LeftOut] = []
    for label, entry_points in declaring(PROJECT_NAME):
        ours = [ep for ep in entry_points if not pm.is_blocked(ep.name)]
        if not ours:
            continue
        key = re.sub(r"[-_.]+", "-", label.rsplit(" ", 1)[0]).lower()
        if key in seen_dists:
            continue
        seen_dists.add(key)
        for ep in ours:
            index = owners.get(ep.name)
            if index is None:
                owners[ep.name] = len(declared)
                declared.append((ep, label))
                continue
            kept = declared[index][1]
            if precedence(ep.name, label) < precedence(ep.name, kept):
                declared[index], (ep, label), kept = (ep, label), declared[index], label
            advice = f"rename the entry point or uninstall one (--block {ep.name} silences this but drops both)"
            message = left_out_message("entry point", ep.name, describe_plugin(ep.name, label),
                                       describe_plugin(ep.name, kept), is_builtin(kept), advice)
            left_out.append(LeftOut(what="entry point", name=ep.name, plugin=ep.name, distribution=label,
                                    kept_plugin=ep.name, kept_distribution=kept, message=message))
    return declared, left_out


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
    import difflib  # only for a name that is wrong

    hint = difflib.get_close_matches(unknown[0], declared, n=1)
    suggestion = f"; did you mean {hint[0]!r}?" if hint else f" (hooks: {', '.join(declared)})"
    return PluginError(
        f"{describe_plugin(name, plugin_distribution(pm, plugin))} implements "
        f"{unknown[0]!r}, which is not a glyphweave hook{suggestion}"
    )


def _one_line(exc: BaseException) -> str:
    text = " ".join(str(exc).split())
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__
