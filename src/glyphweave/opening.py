"""How to open a document: one record of the choices, and the plugin manager they give.

:class:`OpenOptions` holds what every front end decides before a PDF is opened (the
password, the profile, the limits, the plugins to add and to block, whether to pause the
collector); :func:`glyphweave.api.open_with` opens a document with it. The command line,
a batch's workers, the page workers of ``extract --jobs`` and the registry scan all open
through this one record, so a worker opens a file exactly as its parent would have: the
record pickles (plugins are named, not held), and crosses to a process or a Dask worker.
"""

from __future__ import annotations

import sys
import types
import warnings
from collections.abc import Iterable, Mapping
from typing import Any

import attrs

from glyphweave.components.catalog import Catalog
from glyphweave.components.manager import GlyphweavePluginManager, PluginWarning, create_plugin_manager
from glyphweave.core.errors import PluginError
from glyphweave.guard.limits import Limits

__all__ = ["OpenOptions", "ignore_plugin_warnings", "plugin_manager", "plugin_problems"]


def _plugin_names(values: Iterable[str | types.ModuleType]) -> tuple[str, ...]:
    """Modules as the names they are imported by: a module object does not pickle, and a
    worker imports the module again by its name (or finds it imported, when forked)."""
    if isinstance(values, (str, types.ModuleType)):
        values = (values,)
    names = []
    for value in values:
        if isinstance(value, types.ModuleType):
            if sys.modules.get(value.__name__) is not value:
                raise PluginError(f"plugin module {value.__name__!r} cannot be imported by its name (it is not "
                                  "in sys.modules); import it, or give its name or the path of its file")
            names.append(value.__name__)
        elif isinstance(value, str) and value:
            names.append(value)
        else:
            raise PluginError(f"a plugin is a module, a module name or the path of a .py file, not {value!r}")
    return tuple(names)


def _names(values: Iterable[str]) -> tuple[str, ...]:
    return (values,) if isinstance(values, str) else tuple(values)


def _limits(value: Limits | Mapping[str, Any] | None) -> Limits | dict[str, Any] | None:
    """A mapping copied (the caller's dict may change later); checked against the known limits
    when a document opens, merged over the profile's."""
    return dict(value) if value is not None and not isinstance(value, Limits) else value


@attrs.frozen(kw_only=True)
class OpenOptions:
    """What a document is opened with (:func:`glyphweave.open` takes the same names).

    The record pickles when its profile does (a name, a path or a
    :class:`~glyphweave.components.profile.Profile`), so it is what goes to worker processes.
    """

    password: str | None = attrs.field(default=None, repr=False)
    """The user or owner password of an encrypted file (never shown by ``repr``)."""
    profile: Any = "default"
    """A profile name, the path of a TOML file, or a :class:`~glyphweave.components.profile.Profile`."""
    limits: Limits | dict[str, Any] | None = attrs.field(default=None, converter=_limits)
    """The resource limits: all of them (:class:`~glyphweave.guard.limits.Limits`), some of them over
    the profile's (``{"page_content_mb": 16}``), or None for the profile's."""
    plugins: tuple[str, ...] = attrs.field(default=(), converter=_plugin_names)
    """Modules loaded as plugins without being installed, as ``-p`` loads them: module objects or
    names (``"mypkg.plugin"``), or paths of ``.py`` files; kept as names."""
    block: tuple[str, ...] = attrs.field(default=(), converter=_names)
    """Entry-point names not to load (``--block``; a blocked plugin is never imported)."""
    annotations: bool | None = None
    """Whether the text annotations and form fields show on screen is page text (the
    profile's ``annotations``, true by default, when None; ``--no-annotations`` gives False)."""
    pause_gc: bool = False
    """Switch the cyclic garbage collector off while each page is extracted: faster, and safe
    only where no other thread of the process relies on the collector (see :func:`glyphweave.open`)."""
    skip_broken: bool = False
    """An installed plugin that cannot be loaded, or whose names another plugin holds, is left
    out quietly instead of failing the opening: what a command gives its workers once it has
    told its user about its plugins (:func:`plugin_problems`). A module of ``plugins`` that
    cannot be loaded is an error either way."""


def plugin_manager(options: OpenOptions) -> GlyphweavePluginManager:
    """The plugin manager ``options`` ask for: the installed plugins minus ``block``, plus the
    ``plugins`` modules (:func:`~glyphweave.components.manager.create_plugin_manager`).

    :raises PluginError: a module of ``plugins`` cannot be loaded, or (without
        ``skip_broken``) an installed plugin cannot.
    """
    with warnings.catch_warnings():
        if options.skip_broken:
            warnings.simplefilter("ignore", PluginWarning)  # recorded on the manager, told by the command
        pm = create_plugin_manager(blocked=options.block, modules=options.plugins, skip_broken=options.skip_broken)
        if options.skip_broken:
            # Names two plugins claim are recorded on pm, once; a plugin whose registrations are
            # unusable is unregistered and noted in pm.broken, so the catalogs built later work.
            Catalog.from_plugin_manager(pm)
    return pm


def plugin_problems(pm: GlyphweavePluginManager) -> list[str]:
    """One line for each plugin a manager built with ``skip_broken`` left out or warned about:
    what a command prints once, before its own output (never as Python warnings, which each
    worker process would repeat)."""
    lines = [f"{message}; left out (--block it to silence this)" for message in pm.broken.values()]
    return [*lines, *pm.warnings]


def ignore_plugin_warnings() -> None:
    """Ignore :class:`~glyphweave.components.manager.PluginWarning` from now on (in the
    current :func:`warnings.catch_warnings` block, if any): for a command that has printed
    its plugins' problems once, whose later managers would repeat them."""
    warnings.filterwarnings("ignore", category=PluginWarning)
