"""The catalog: every component and profile the loaded plugins provide, by name.

Built once from a plugin manager (:meth:`Catalog.from_plugin_manager`), validated as a
whole, then read-only. Each entry remembers which plugin and which distribution it came
from, so ``glyphweave plugins`` can answer "where does this come from?" and a warning
about two plugins claiming one name can name both packages.

Two plugins claiming one (kind, name) or one profile name do not stop the tool: one keeps
it (glyphweave's own first; of two third-party plugins, the distribution whose name sorts
first) and the other's is left out with one :class:`~glyphweave.components.manager.PluginWarning`
naming both distributions and the ``--block`` that silences it.
"""

from __future__ import annotations

import contextlib
import re
import warnings
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

import attrs
import pluggy

from glyphweave.components.distributions import declaring
from glyphweave.components.manager import (
    NOT_INSTALLED,
    GlyphweavePluginManager,
    LeftOut,
    PluginWarning,
    create_plugin_manager,
    describe_plugin,
    is_builtin,
    left_out_message,
    plugin_distribution,
    precedence,
)
from glyphweave.components.markers import PROJECT_NAME
from glyphweave.core.errors import PluginError, ProfileError
from glyphweave.core.stages import STAGE_KINDS, Component, Option

__all__ = ["Catalog", "ComponentInfo", "ProfileSource", "KIND_HOOKS", "NAME_PATTERN"]

KIND_HOOKS: dict[str, str] = {
    "decoder": "glyphweave_register_decoders",
    "filter": "glyphweave_register_filters",
    "assembler": "glyphweave_register_assemblers",
}
"""Stage kind → the registration hook that provides components of that kind."""

PROFILES_HOOK = "glyphweave_register_profiles"

NAME_PATTERN = re.compile(r"[a-z0-9][a-z0-9_-]*")
"""What a component or registered profile name must look like (whole string)."""

_STAGE_METHODS = {"decoder": "decode", "filter": "apply", "assembler": "assemble"}
_KIND_ORDER = {kind: i for i, kind in enumerate(STAGE_KINDS)}

BUILTIN_PLUGIN = "(built-in)"
"""Plugin label of the profiles shipped as files inside the glyphweave package."""


@attrs.frozen(kw_only=True)
class ComponentInfo:
    """One registered component and where it came from."""

    kind: str
    """``"decoder"``, ``"filter"`` or ``"assembler"``."""
    name: str
    """The component's ``NAME``, as a profile refers to it."""
    cls: type[Component]
    plugin: str
    """Name the plugin is registered under (its entry-point name for installed plugins)."""
    distribution: str
    """``"name version"`` of the installed distribution, or ``"(not installed)"``."""
    summary: str
    """First line of the class docstring."""

    def to_dict(self) -> dict[str, Any]:
        """A plain, JSON-friendly description of the component."""
        return {
            "kind": self.kind,
            "name": self.name,
            "class": f"{self.cls.__module__}.{self.cls.__qualname__}",
            "plugin": self.plugin,
            "distribution": self.distribution,
            "summary": self.summary,
            "options": {
                name: option.describe() for name, option in self.cls.OPTIONS.items()
            },
        }


@attrs.frozen(kw_only=True)
class ProfileSource:
    """The TOML text of a profile and where it came from (not yet parsed or validated)."""

    name: str
    text: str
    location: str
    """How error messages refer to it: a file path or ``profile 'x' of plugin 'y' (...)``."""
    plugin: str | None = None
    """Plugin that registered it; None for a profile read from a file."""
    distribution: str | None = None
    """``"name version"`` of the distribution that ships it; None for a file."""


@attrs.frozen
class Catalog:
    """Components by (kind, name) and profile sources by name."""

    _components: Mapping[tuple[str, str], ComponentInfo] = attrs.field(factory=dict)
    _profiles: Mapping[str, ProfileSource] = attrs.field(factory=dict)
    _left_out: tuple[LeftOut, ...] = ()

    # -- construction -----------------------------------------------------------------
    @classmethod
    def from_plugin_manager(cls, pm: pluggy.PluginManager, *, builtin_profiles: bool = True,
                            skip_broken: bool | None = None) -> Catalog:
        """Call the registration hooks of every plugin of ``pm`` and validate the result.

        Of two plugins claiming one (kind, name) or profile name, one keeps it (see
        :func:`~glyphweave.components.manager.precedence`) and the other's is left out: a
        :class:`~glyphweave.components.manager.PluginWarning`, recorded in ``pm.warnings``
        and ``pm.left_out`` (once per manager) and listed by :meth:`left_out`.

        :param builtin_profiles: include the profiles shipped in ``glyphweave/profiles``.
        :param skip_broken: (default: what ``pm`` was created with) a plugin whose
            registration hook fails or registers something that is not a proper component
            is unregistered from ``pm`` (a
            :class:`~glyphweave.components.manager.GlyphweavePluginManager`) and noted in
            ``pm.broken``, as an installed plugin that failed to import is; later catalogs
            of ``pm`` do not see it. A plugin the caller passed by name or object is not
            skipped: its error is raised.
        :raises PluginError: (without ``skip_broken``) a plugin registers something that is
            not a proper component, or its registration hook fails.
        """
        if skip_broken is None:
            skip_broken = getattr(pm, "skip_broken", False)
        while True:
            try:
                return cls._build(pm, builtin_profiles)
            except _BrokenPlugin as broken:
                name = pm.get_name(broken.plugin) or repr(broken.plugin)
                if not (skip_broken and isinstance(pm, GlyphweavePluginManager)) or name in pm.requested:
                    raise broken.error from broken.error.__cause__
                pm.unregister(broken.plugin)
                pm.broken[name] = str(broken.error)

    @classmethod
    def _build(cls, pm: pluggy.PluginManager, builtin_profiles: bool) -> Catalog:
        """:meth:`from_plugin_manager`, raising :class:`_BrokenPlugin` for a plugin at fault."""
        def origin(plugin: object) -> tuple[str, str]:
            return pm.get_name(plugin) or repr(plugin), plugin_distribution(pm, plugin)

        left_out: list[LeftOut] = []
        components: dict[tuple[str, str], ComponentInfo] = {}
        for kind, hook_name in KIND_HOOKS.items():
            for plugin, result in _call_each(pm, hook_name, origin):
                plugin_name, dist = origin(plugin)
                with _blaming(plugin):
                    infos = [_component_info(kind, component, plugin_name, dist)
                             for component in _as_list(result, hook_name, plugin_name, dist)]
                for info in infos:
                    _claim(components, (kind, info.name), info, _component_origin(info), kind, left_out)
        _one_stage_per_name(components, left_out)

        profiles: dict[str, ProfileSource] = dict(_builtin_profiles(pm)) if builtin_profiles else {}
        for plugin, result in _call_each(pm, PROFILES_HOOK, origin):
            plugin_name, dist = origin(plugin)
            with _blaming(plugin):
                sources = _profile_sources(result, plugin_name, dist)
            for source in sources:
                _claim(profiles, source.name, source, _profile_origin(source), "profile", left_out)
        for record in left_out:
            if isinstance(pm, GlyphweavePluginManager):
                pm.warn(record.message, record)
            else:
                warnings.warn(record.message, PluginWarning, stacklevel=2)
        return cls(components, profiles, tuple(left_out))

    @classmethod
    def discover(
        cls,
        *,
        blocked: Iterable[str] = (),
        load_entrypoints: bool = True,
        plugins: Iterable[object] = (),
    ) -> Catalog:
        """Shortcut: a fresh plugin manager (see
        :func:`~glyphweave.components.manager.create_plugin_manager`) turned into a catalog."""
        pm = create_plugin_manager(blocked=blocked, load_entrypoints=load_entrypoints, plugins=plugins)
        return cls.from_plugin_manager(pm)

    # -- components ---------------------------------------------------------------------
    def get(self, kind: str, name: str) -> type[Component]:
        """The class of component ``name`` of stage ``kind``.

        :raises ProfileError: no such component (the message lists the available ones).
        """
        return self.info(kind, name).cls

    def info(self, kind: str, name: str) -> ComponentInfo:
        """The catalog entry of component ``name`` of stage ``kind`` (see :meth:`get`)."""
        _check_kind(kind)
        try:
            return self._components[(kind, name)]
        except KeyError:
            pass
        available = self.names(kind)
        import difflib  # only for a name that is wrong

        hint = difflib.get_close_matches(name, available, n=1) if isinstance(name, str) else []
        suggestion = f"; did you mean {hint[0]!r}?" if hint else ""
        listed = ", ".join(available) if available else "none installed"
        raise ProfileError(f"unknown {kind} {name!r} (available: {listed}){suggestion}") from None

    def names(self, kind: str) -> list[str]:
        """Sorted names of the components of stage ``kind``."""
        _check_kind(kind)
        return sorted(name for k, name in self._components if k == kind)

    def components(self, kind: str | None = None) -> list[ComponentInfo]:
        """All components (or those of one kind), by stage order then name."""
        if kind is not None:
            _check_kind(kind)
        infos = [info for info in self._components.values() if kind is None or info.kind == kind]
        return sorted(infos, key=lambda info: (_KIND_ORDER[info.kind], info.name))

    def describe(self, kind: str, name: str) -> str:
        """``decoder 'x' of plugin 'p' (dist 1.0)``: who to blame for a component, in messages."""
        info = self._components.get((kind, name))
        if info is None:
            return f"{kind} {name!r}"
        return f"{kind} {name!r} of {describe_plugin(info.plugin, info.distribution)}"

    def is_builtin(self, kind: str, name: str) -> bool:
        """True for a component shipped with glyphweave itself (its own entry points)."""
        info = self._components.get((kind, name))
        return info is not None and info.distribution.split(" ")[0] == PROJECT_NAME

    def left_out(self) -> list[LeftOut]:
        """The components and profiles left out of this catalog because another plugin
        holds their name, or a component of another stage holds it (each was a :class:`~glyphweave.components.manager.PluginWarning`)."""
        return list(self._left_out)

    # -- profiles -----------------------------------------------------------------------
    def profile_sources(self) -> dict[str, ProfileSource]:
        """Built-in and plugin-registered profiles by name, sorted by name (a copy)."""
        return dict(sorted(self._profiles.items()))


# -- helpers ------------------------------------------------------------------------------


def _claim(table: dict[Any, Any], key: Any, entry: Any, origin: tuple[str, str], what: str,
           left_out: list[LeftOut]) -> None:
    """Put ``entry`` (of ``origin``: plugin, distribution) under ``key``, unless the entry
    there already wins the name (:func:`~glyphweave.components.manager.precedence`); the
    loser of the two goes into ``left_out``. Components and profiles share this rule."""
    held = table.get(key)
    if held is None:
        table[key] = entry
        return
    held_origin = _component_origin(held) if isinstance(held, ComponentInfo) else _profile_origin(held)
    if precedence(*origin) < precedence(*held_origin):
        table[key] = entry
        left_out.append(_left_out(what, entry.name, held_origin, origin))
    else:
        left_out.append(_left_out(what, entry.name, origin, held_origin))


def _one_stage_per_name(components: dict[tuple[str, str], ComponentInfo], left_out: list[LeftOut]) -> None:
    """Leave out all but one of the components of different stages that share a name: a
    profile sets options by name (``[options.NAME]``), so a decoder and a filter of one name
    would take each other's. The claimant :func:`~glyphweave.components.manager.precedence`
    prefers keeps it (of one plugin's, the earlier stage's)."""
    by_name: dict[str, list[ComponentInfo]] = {}
    for info in components.values():
        by_name.setdefault(info.name, []).append(info)
    stages = list(KIND_HOOKS)
    for name, claimants in by_name.items():
        if len(claimants) < 2:
            continue
        claimants.sort(key=lambda info: (precedence(*_component_origin(info)), stages.index(info.kind)))
        kept = claimants[0]
        for lost in claimants[1:]:
            del components[(lost.kind, name)]
            message = (f"{lost.kind} {name!r} of {describe_plugin(lost.plugin, lost.distribution)} left out: "
                       f"{kept.kind} {name!r} of {describe_plugin(kept.plugin, kept.distribution)} holds the "
                       f"name, and a profile's [options.{name}] could not tell the two apart; rename one, or "
                       f"--block {lost.plugin}")
            left_out.append(LeftOut(what=lost.kind, name=name, plugin=lost.plugin, distribution=lost.distribution,
                                    kept_plugin=kept.plugin, kept_distribution=kept.distribution, message=message))


def _component_origin(info: ComponentInfo) -> tuple[str, str]:
    """(plugin, distribution) of a registered component."""
    return info.plugin, info.distribution


def _left_out(what: str, name: str, lost: tuple[str, str], kept: tuple[str, str]) -> LeftOut:
    """The record and warning of ``what`` ``name`` of ``lost`` left out for ``kept``'s."""
    advice = f"rename it, or --block {lost[0]} to silence this"
    kept_label = (f"glyphweave's built-in profiles ({kept[1]})" if kept[0] == BUILTIN_PLUGIN
                  else describe_plugin(*kept))
    message = left_out_message(what, name, describe_plugin(*lost), kept_label, is_builtin(kept[1]), advice)
    return LeftOut(what=what, name=name, plugin=lost[0], distribution=lost[1], kept_plugin=kept[0],
                   kept_distribution=kept[1], message=message)


def _profile_origin(source: ProfileSource) -> tuple[str, str]:
    """(plugin, distribution) of a registered profile; glyphweave's for a built-in one
    (even run from a checkout that is not installed)."""
    if source.plugin == BUILTIN_PLUGIN:
        dist = source.distribution or ""
        return BUILTIN_PLUGIN, dist if is_builtin(dist) else PROJECT_NAME
    return source.plugin or "?", source.distribution or NOT_INSTALLED


def _check_kind(kind: str) -> None:
    if kind not in STAGE_KINDS:
        raise ValueError(f"unknown stage kind {kind!r} (kinds: {', '.join(STAGE_KINDS)})")


def _call_each(pm: pluggy.PluginManager, hook_name: str, origin: Any) -> list[tuple[object, Any]]:
    """Call every implementation of a registration hook separately, in registration
    order, so each result can be attributed to its plugin."""
    results = []
    for impl in getattr(pm.hook, hook_name).get_hookimpls():
        if impl.wrapper or impl.hookwrapper:
            continue  # wrappers observe calls; they register nothing
        try:
            result = impl.function()
        except Exception as exc:
            plugin_name, dist = origin(impl.plugin)
            text = " ".join(str(exc).split())
            error = PluginError(
                f"{describe_plugin(plugin_name, dist)} failed in {hook_name}: {type(exc).__name__}: {text}")
            error.__cause__ = exc
            raise _BrokenPlugin(impl.plugin, error) from exc
        results.append((impl.plugin, result))
    return results


class _BrokenPlugin(Exception):
    """A plugin's registrations are unusable: the plugin, and the error that says why."""

    def __init__(self, plugin: object, error: PluginError) -> None:
        super().__init__(str(error))
        self.plugin = plugin
        self.error = error


@contextlib.contextmanager
def _blaming(plugin: object) -> Iterator[None]:
    """A :class:`PluginError` raised in the block is ``plugin``'s fault."""
    try:
        yield
    except PluginError as error:
        raise _BrokenPlugin(plugin, error) from error


def _as_list(result: Any, hook_name: str, plugin: str, dist: str) -> list[Any]:
    if result is None:
        return []
    if isinstance(result, (str, bytes, Mapping)) or not isinstance(result, Iterable):
        raise PluginError(
            f"{describe_plugin(plugin, dist)}: {hook_name} must return a list of classes, "
            f"got {type(result).__name__}"
        )
    return list(result)


def _component_info(kind: str, component: Any, plugin: str, dist: str) -> ComponentInfo:
    base = STAGE_KINDS[kind]
    where = describe_plugin(plugin, dist)
    if not isinstance(component, type):
        raise PluginError(f"{where} registered {component!r} as a {kind}, but it is not a class")
    label = component.__qualname__
    if not issubclass(component, base):
        raise PluginError(
            f"{where} registered {label} as a {kind}, but it does not subclass "
            f"{base.__module__}.{base.__qualname__}"
        )
    name = getattr(component, "NAME", "")
    if not isinstance(name, str) or not NAME_PATTERN.fullmatch(name):
        raise PluginError(
            f"{where}: {kind} class {label} has an invalid NAME {name!r} (use lowercase letters, "
            f"digits, '-' and '_', starting with a letter or digit)"
        )
    method = _STAGE_METHODS[kind]
    if getattr(component, method) is getattr(base, method):
        raise PluginError(f"{where}: {kind} {name!r} ({label}) does not implement {method}()")
    options = component.OPTIONS
    if not isinstance(options, Mapping) or not all(
        isinstance(key, str) and isinstance(value, Option) for key, value in options.items()
    ):
        raise PluginError(
            f"{where}: {kind} {name!r} ({label}) OPTIONS must map option names to "
            f"glyphweave.core.stages.Option"
        )
    return ComponentInfo(
        kind=kind, name=name, cls=component, plugin=plugin, distribution=dist, summary=component.summary()
    )


def _profile_sources(result: Any, plugin: str, dist: str) -> list[ProfileSource]:
    where = describe_plugin(plugin, dist)
    if result is None:
        return []
    if not isinstance(result, Mapping):
        raise PluginError(
            f"{where}: {PROFILES_HOOK} must return a mapping of profile name to TOML text, "
            f"got {type(result).__name__}"
        )
    sources = []
    for name, text in result.items():
        if not isinstance(name, str) or not NAME_PATTERN.fullmatch(name):
            raise PluginError(
                f"{where} registered a profile with an invalid name {name!r} (use lowercase "
                f"letters, digits, '-' and '_')"
            )
        if not isinstance(text, str):
            raise PluginError(f"{where}: profile {name!r} must be TOML text, got {type(text).__name__}")
        sources.append(
            ProfileSource(
                name=name,
                text=text,
                location=f"profile {name!r} of {where}",
                plugin=plugin,
                distribution=dist,
            )
        )
    return sources


def _builtin_profiles(pm: pluggy.PluginManager) -> dict[str, ProfileSource]:
    """The ``*.toml`` files shipped in ``glyphweave/profiles`` (package data), labelled with
    glyphweave's distribution as ``pm`` loaded its built-in plugins (found again only when
    it loaded none)."""
    loaded = pm.distributions.values() if isinstance(pm, GlyphweavePluginManager) else ()
    dist = next((label for label in loaded if is_builtin(label)), None) or next(
        (label for label, _ in declaring(PROJECT_NAME) if is_builtin(label)), NOT_INSTALLED)
    from glyphweave.packagedata import package_folder

    folder = package_folder("glyphweave", "profiles")
    sources: dict[str, ProfileSource] = {}
    if not folder.is_dir():
        return sources
    for entry in sorted(folder.iterdir(), key=lambda item: item.name):
        if not entry.name.endswith(".toml") or not entry.is_file():
            continue
        name = entry.name[: -len(".toml")]
        sources[name] = ProfileSource(
            name=name,
            text=entry.read_text(encoding="utf-8"),
            location=f"built-in profile {name!r} (glyphweave/profiles/{entry.name})",
            plugin=BUILTIN_PLUGIN,
            distribution=dist,
        )
    return sources
