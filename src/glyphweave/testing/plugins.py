"""Helpers for testing plugins: fresh managers, throwaway plugins, fake entry points.

A plugin author's test usually looks like::

    from glyphweave.components import Catalog, load_profile
    from glyphweave.testing import fake_entry_point_distribution, fresh_plugin_manager

    def test_my_decoder_is_found(monkeypatch):
        fake_entry_point_distribution(monkeypatch, "glyphweave-mine", "1.0", {"mine": "glyphweave_mine"})
        catalog = Catalog.from_plugin_manager(fresh_plugin_manager(entrypoints=True))
        assert catalog.info("decoder", "mine").distribution == "glyphweave-mine 1.0"
"""

from __future__ import annotations

import importlib.metadata
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import pluggy

from glyphweave.components.manager import create_plugin_manager
from glyphweave.components.markers import PROJECT_NAME, hookimpl

__all__ = ["fake_entry_point_distribution", "fresh_plugin_manager", "make_plugin"]


def fresh_plugin_manager(
    *plugins: object, entrypoints: bool = False, blocked: Iterable[str] = ()
) -> pluggy.PluginManager:
    """A new plugin manager holding only ``plugins`` (and, with ``entrypoints=True``, the
    installed ``glyphweave`` entry points, minus ``blocked`` names)."""
    return create_plugin_manager(blocked=blocked, load_entrypoints=entrypoints, plugins=plugins)


class _Plugin:
    """A plugin object built by :func:`make_plugin`."""

    def __init__(self, name: str | None) -> None:
        if name is not None:
            self.__name__ = name  # pluggy's canonical name for the object

    def __repr__(self) -> str:
        return f"<test plugin {getattr(self, '__name__', hex(id(self)))}>"


def make_plugin(
    *,
    decoders: Sequence[Any] = (),
    filters: Sequence[Any] = (),
    assemblers: Sequence[Any] = (),
    profiles: Mapping[str, str] | None = None,
    name: str | None = None,
) -> object:
    """A plugin object whose registration hooks return the given components/profiles.

    Only the hooks for the non-empty arguments are implemented. ``name`` becomes the
    plugin's registered name (pluggy uses ``__name__`` when it has one).
    """
    plugin = _Plugin(name)
    registrations = {
        "glyphweave_register_decoders": list(decoders),
        "glyphweave_register_filters": list(filters),
        "glyphweave_register_assemblers": list(assemblers),
        "glyphweave_register_profiles": dict(profiles) if profiles else None,
    }
    for hook_name, value in registrations.items():
        if value:
            setattr(plugin, hook_name, hookimpl(_returning(hook_name, value)))
    return plugin


def _returning(hook_name: str, value: Any) -> Any:
    def implementation() -> Any:
        return value

    implementation.__name__ = hook_name
    return implementation


class _FakeDistribution(importlib.metadata.Distribution):
    """An installed distribution that exists only in memory: metadata and entry points."""

    def __init__(self, name: str, version: str, entry_points: Mapping[str, str], group: str) -> None:
        lines = [f"[{group}]"] + [f"{ep} = {target}" for ep, target in entry_points.items()]
        self._files = {
            "METADATA": f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n",
            "entry_points.txt": "\n".join(lines) + "\n",
        }

    def read_text(self, filename: str) -> str | None:
        return self._files.get(filename)

    def locate_file(self, path: Any) -> Path:
        return Path(str(path))

    def __repr__(self) -> str:
        return f"<fake distribution {self.metadata['Name']} {self.version}>"


def _normalize(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def fake_entry_point_distribution(
    monkeypatch: Any,
    dist_name: str,
    version: str,
    entry_points: Mapping[str, str],
    *,
    group: str = PROJECT_NAME,
    hide_installed: bool = False,
) -> importlib.metadata.Distribution:
    """Pretend a distribution declaring ``entry_points`` ({name: "module[:attr]"}) is
    installed, for the rest of the test.

    Patches :func:`importlib.metadata.distributions` (which pluggy's entry-point loader
    iterates) through ``monkeypatch``, so it is undone when the test ends. The modules
    must be importable: put their folder on the path with
    ``monkeypatch.syspath_prepend``. Calls stack: each adds one distribution after the
    earlier ones. ``hide_installed=True`` hides every distribution visible before the
    call (the real ones, and earlier fakes), so only this one is found.
    """
    fake = _FakeDistribution(dist_name, version, entry_points, group)
    previous = importlib.metadata.distributions

    def distributions(**kwargs: Any) -> Iterator[importlib.metadata.Distribution]:
        found = [] if hide_installed else list(previous(**kwargs))
        wanted = kwargs.get("name")
        if set(kwargs) <= {"name"} and (wanted is None or _normalize(wanted) == _normalize(dist_name)):
            found.append(fake)
        return iter(found)

    monkeypatch.setattr(importlib.metadata, "distributions", distributions)
    return fake
