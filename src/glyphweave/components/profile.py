"""Profiles: which components run, in which order, with which options.

A profile is a small TOML document::

    [profile]
    name = "default"              # optional in files (defaults to the file's stem)
    description = "..."
    extends = "default"           # optional: start from another built-in or registered profile
    unresolved = "space"          # "space" | "replacement" (U+FFFD) | "drop"
    annotations = true            # what annotations and form fields show on screen is text
    decoders = ["tounicode", "encoding", "standard-fallback"]
    filters = ["visible-box", "dedup"]
    assembler = "reading"

    [options.dedup]               # options of one selected component, by its NAME
    along = 0.1

Everything a user can get wrong is checked here, once, when the profile is loaded (the
boundary): unknown keys, unknown components, duplicated decoders or filters, options
for a decoder or filter the profile does not select, option types (through the
component's ``validate_options``). Each message names the file (or registered profile)
at fault. Options for an assembler are accepted even when the profile uses another
one: ``--mode`` may switch to it (the pipeline's ``assembler_for`` builds it with them).

With ``extends``, the keys a profile sets replace the base's (lists are replaced, not
appended); ``[options.X]`` tables are merged key by key. Options the base gives to a
decoder or filter the extending profile no longer selects are dropped.

Relative paths are taken from the folder of the profile file that writes them: an
``extends = "base.toml"``, and every option a component declares a path
(``Option(path=True)``, such as ``glyph-map``'s ``registry``). A base keeps its own
folder: its paths are made absolute before an extending profile merges them. Profile text
that is no file (``Profile.from_toml``, a plugin's profile) keeps them as written, relative
to the working directory.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from types import MappingProxyType
from typing import Any

import attrs

from glyphweave.components.catalog import Catalog, ProfileSource
from glyphweave.components.manager import describe_plugin
from glyphweave.core.errors import GlyphweaveError, PluginError, ProfileError
from glyphweave.core.pipeline import UNRESOLVED_POLICIES, read_limits
from glyphweave.core.stages import Assembler, Component, Decoder, Filter

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on 3.10 only
    import tomli as tomllib

__all__ = ["UNRESOLVED_POLICIES", "Profile", "ResolvedPipeline", "available_profiles", "load_profile"]


_TOP_KEYS = ("profile", "options", "limits")
_PROFILE_KEYS = ("name", "description", "extends", "unresolved", "annotations", "decoders", "filters", "assembler")


def _freeze_options(value: Mapping[str, Mapping[str, Any]]) -> Mapping[str, Mapping[str, Any]]:
    return MappingProxyType({name: MappingProxyType(dict(opts)) for name, opts in value.items()})


def _names_tuple(value: Any) -> tuple[str, ...]:
    """A stage list as a tuple of names; a lone string is refused rather than split into letters."""
    if isinstance(value, str) or not isinstance(value, (list, tuple)):
        raise ProfileError(f"a stage list must be a list of component names, got {value!r}")
    if not all(isinstance(item, str) and item for item in value):
        raise ProfileError(f"a stage list must hold non-empty component names, got {list(value)!r}")
    return tuple(value)


def _check_unique(instance: Profile, attribute: attrs.Attribute, value: tuple[str, ...]) -> None:
    seen: set[str] = set()
    for name in value:
        if name in seen:
            kind = attribute.name[:-1]  # "decoders" -> "decoder"
            raise ProfileError(f"{kind} {name!r} is listed twice in {attribute.name}")
        seen.add(name)


@attrs.frozen(kw_only=True)
class Profile:
    """A validated pipeline description: component names in order, plus their options.

    ``options`` holds only the options the profile sets (coerced to each option's type);
    the other options take the component's defaults when it is instantiated.
    """

    name: str
    description: str = ""
    decoders: tuple[str, ...] = attrs.field(converter=_names_tuple, validator=_check_unique)
    filters: tuple[str, ...] = attrs.field(default=(), converter=_names_tuple, validator=_check_unique)
    assembler: str
    unresolved: str = "space"
    annotations: bool = True
    """Whether the text annotations and form fields show on screen is the page's text."""
    options: Mapping[str, Mapping[str, Any]] = attrs.field(
        factory=dict, converter=_freeze_options, hash=False
    )
    limits: Mapping[str, Any] = attrs.field(factory=dict, converter=lambda v: MappingProxyType(dict(v)), hash=False)
    """The ``[limits]`` the profile sets (see :class:`~glyphweave.guard.limits.Limits`); the
    others keep their defaults."""
    source: str = "<code>"
    """Where the profile came from: a file path or a registered profile's description."""
    extends: str | None = None
    """Name of the profile this one starts from, if any."""

    def __attrs_post_init__(self) -> None:
        if not isinstance(self.assembler, str):
            raise ProfileError(f"{self.source}: assembler must be a component name, got {self.assembler!r}")
        if not self.decoders:
            raise ProfileError(f"{self.source}: profile {self.name!r} selects no decoder")
        if not self.assembler:
            raise ProfileError(f"{self.source}: profile {self.name!r} selects no assembler")
        if not isinstance(self.annotations, bool):
            raise ProfileError(f"{self.source}: annotations must be True or False, got {self.annotations!r}")
        if self.unresolved not in UNRESOLVED_POLICIES:
            raise ProfileError(
                f"{self.source}: unresolved must be one of {', '.join(map(repr, UNRESOLVED_POLICIES))}, "
                f"got {self.unresolved!r}"
            )

    # -- reading ---------------------------------------------------------------------------
    @classmethod
    def from_toml(
        cls, text: str, catalog: Catalog, *, location: str = "<string>", name: str = "custom"
    ) -> Profile:
        """Parse and validate profile TOML ``text``; ``location`` names it in errors and
        ``name`` is used when the text has no ``[profile] name``."""
        source = ProfileSource(name=name, text=text, location=location)
        return _resolve(source, catalog, chain=(), registered=False)

    @property
    def placeholder(self) -> str:
        """Text shown for an unresolved glyph under this profile's ``unresolved`` policy."""
        return UNRESOLVED_POLICIES[self.unresolved]

    def checked(self, catalog: Catalog) -> Profile:
        """This profile, validated against ``catalog`` exactly as a TOML file is: every
        component exists, options are only for selected components (or any assembler) and
        are valid. For a :class:`Profile` built in code; loading a file does this already.

        :raises ProfileError: naming the profile and the culprit.
        """
        where = self.source if self.source != "<code>" else f"profile {self.name!r}"
        chosen: tuple[tuple[str, list[str]], ...] = (
            ("decoder", list(self.decoders)), ("filter", list(self.filters)), ("assembler", [self.assembler]))
        _check_selection(chosen, catalog, where)
        for component, given in self.options.items():
            if not isinstance(given, Mapping):
                raise ProfileError(f"{where}: options for {component!r} must be a mapping, got {given!r}")
        options = _merge_options(self.options, None, chosen, catalog, where)
        read_limits(self.limits, f"{where}: limits")
        return attrs.evolve(self, options=options)

    # -- running -----------------------------------------------------------------------------
    def instantiate(self, catalog: Catalog) -> ResolvedPipeline:
        """Construct every selected component with its validated options.

        :raises ProfileError: a component is unknown or an option is invalid.
        :raises PluginError: a component's constructor fails.
        """
        decoders = tuple(self._build(catalog, "decoder", name) for name in self.decoders)
        filters = tuple(self._build(catalog, "filter", name) for name in self.filters)
        assembler = self._build(catalog, "assembler", self.assembler)
        return ResolvedPipeline(profile=self, decoders=decoders, filters=filters, assembler=assembler)

    def to_dict(self) -> dict[str, Any]:
        """Plain data for display (``glyphweave profiles``, ``plugins --profile``)."""
        return {
            "name": self.name,
            "description": self.description,
            "source": self.source,
            "extends": self.extends,
            "unresolved": self.unresolved,
            "annotations": self.annotations,
            "decoders": list(self.decoders),
            "filters": list(self.filters),
            "assembler": self.assembler,
            "options": {name: dict(opts) for name, opts in self.options.items()},
            "limits": dict(self.limits),
        }

    # -- internals --------------------------------------------------------------------------
    def _build(self, catalog: Catalog, kind: str, name: str) -> Any:
        info = catalog.info(kind, name)
        options = _validate_options(info.cls, self.options.get(name, {}), self.source)
        try:
            return info.cls(**options)
        except GlyphweaveError:
            raise
        except Exception as exc:
            text = " ".join(str(exc).split())
            raise PluginError(
                f"{kind} {name!r} of {describe_plugin(info.plugin, info.distribution)} could not be "
                f"created: {type(exc).__name__}: {text}"
            ) from exc


@attrs.frozen(kw_only=True)
class ResolvedPipeline:
    """A profile's components, constructed and ready to run."""

    decoders: tuple[Decoder, ...]
    filters: tuple[Filter, ...]
    assembler: Assembler
    profile: Profile

    @property
    def placeholder(self) -> str:
        return self.profile.placeholder

    def to_dict(self) -> dict[str, Any]:
        """The resolved order with every option's effective value (defaults included)."""

        def describe(component: Component) -> dict[str, Any]:
            cls = type(component)
            return {
                "name": cls.NAME,
                "class": f"{cls.__module__}.{cls.__qualname__}",
                "options": {key: getattr(component, key, None) for key in cls.OPTIONS},
            }

        return {
            "profile": self.profile.name,
            "unresolved": self.profile.unresolved,
            "decoders": [describe(d) for d in self.decoders],
            "filters": [describe(f) for f in self.filters],
            "assembler": describe(self.assembler),
        }


# -- loading --------------------------------------------------------------------------------


def load_profile(spec: str | os.PathLike[str], catalog: Catalog) -> Profile:
    """Load a profile by name (built-in or registered by a plugin) or from a TOML file.

    ``spec`` is a path when it is a :class:`os.PathLike`, ends with ``.toml``, or names
    an existing file; a bare name of a known profile always means that profile.

    :raises ProfileError: unknown profile, unreadable file, invalid TOML, or any
        validation error (the message names the file or profile).
    """
    sources = catalog.profile_sources()
    text = os.fspath(spec)
    is_bare_name = not isinstance(spec, os.PathLike) and text in sources and os.sep not in text
    if not is_bare_name and (isinstance(spec, os.PathLike) or text.endswith(".toml") or os.path.isfile(text)):
        return _resolve(_read_file(Path(text)), catalog, chain=(), registered=False)
    if text not in sources:
        listed = ", ".join(sources) or "none"
        raise ProfileError(
            f"unknown profile {text!r} (available: {listed}; or give the path of a .toml file)"
        )
    return _resolve(sources[text], catalog, chain=(), registered=True)


def available_profiles(catalog: Catalog) -> dict[str, str]:
    """Every built-in and registered profile name → its description, sorted by name.

    A profile that does not load (it names a blocked component, say) is still listed,
    with the reason as its description.
    """
    listing: dict[str, str] = {}
    for name in catalog.profile_sources():
        try:
            listing[name] = load_profile(name, catalog).description
        except ProfileError as exc:
            listing[name] = f"(unusable: {exc})"
    return listing


def _read_file(path: Path) -> ProfileSource:
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise ProfileError(f"profile file not found: {path}") from None
    except OSError as exc:
        raise ProfileError(f"cannot read profile file {path}: {exc.strerror or exc}") from None
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ProfileError(f"{path}: not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    return ProfileSource(name=path.stem, text=text, location=str(path))


@attrs.frozen(kw_only=True)
class _Layer:
    """What one TOML document says, checked for shape but not yet against the catalog."""

    table: Mapping[str, Any]
    options: Mapping[str, Mapping[str, Any]]
    limits: Mapping[str, Any]


def _parse(source: ProfileSource) -> _Layer:
    where = source.location
    try:
        data = tomllib.loads(source.text)
    except tomllib.TOMLDecodeError as exc:
        raise ProfileError(_toml_error(where, exc, source.text)) from None
    for key in data:
        if key not in _TOP_KEYS:
            raise ProfileError(
                f"{where}: unknown top-level key {key!r} (allowed: [profile], [options.NAME], [limits])")
    table = data.get("profile")
    if not isinstance(table, dict):
        raise ProfileError(f"{where}: missing [profile] table")
    for key, value in table.items():
        if key not in _PROFILE_KEYS:
            raise ProfileError(
                f"{where}: unknown key {key!r} in [profile] (allowed: {', '.join(_PROFILE_KEYS)})"
            )
        if key in ("decoders", "filters"):
            _check_stage_value(key, value, where)
        elif key == "annotations":
            if not isinstance(value, bool):
                raise ProfileError(f"{where}: [profile] annotations must be true or false, got {value!r}")
        elif not isinstance(value, str) or (key in ("assembler", "extends", "name") and not value):
            raise ProfileError(f"{where}: [profile] {key} must be a non-empty string, got {value!r}")
    options = data.get("options", {})
    if not isinstance(options, dict):
        raise ProfileError(f"{where}: options must be tables: [options.NAME]")
    for name, value in options.items():
        if not isinstance(value, dict):
            raise ProfileError(f"{where}: options.{name} must be a table ([options.{name}]), got {value!r}")
    limits = data.get("limits", {})
    if not isinstance(limits, dict):
        raise ProfileError(f"{where}: limits must be a table ([limits]), got {limits!r}")
    read_limits(limits, f"{where}: [limits]")  # checked here, merged with the base's later
    return _Layer(table=table, options=options, limits=limits)


def _check_stage_value(key: str, value: Any, where: str) -> None:
    """The shape of ``[profile] decoders``/``filters``: a list of names, or a table of edits."""
    def names(v: Any) -> bool:
        return isinstance(v, list) and all(isinstance(item, str) and item for item in v)

    if isinstance(value, dict):
        for edit, given in value.items():
            if edit not in _EDITS:
                raise ProfileError(f"{where}: [profile] {key}: unknown edit {edit!r} (allowed: {', '.join(_EDITS)})")
            ok = (isinstance(given, dict) and all(names(v) for v in given.values())) if edit in (
                "before", "after") else names(given)
            if not ok:
                shape = "a table of component name = [names]" if edit in ("before", "after") else "a list of names"
                raise ProfileError(f"{where}: [profile] {key}.{edit} must be {shape}, got {given!r}")
    elif not names(value):
        raise ProfileError(
            f"{where}: [profile] {key} must be a list of component names (or a table of edits), got {value!r}"
        )


def _toml_error(where: str, exc: Exception, text: str) -> str:
    """``file: line L, column C: invalid TOML: what`` (one line) from a decode error."""
    message = str(exc)
    line, column = getattr(exc, "lineno", None), getattr(exc, "colno", None)
    match = re.search(r"\s*\(at line (\d+), column (\d+)\)\s*$", message)
    if match:
        message = message[: match.start()]
        line, column = line or int(match.group(1)), column or int(match.group(2))
    elif message.endswith("(at end of document)"):
        message = message[: -len("(at end of document)")].rstrip() + " (at end of file)"
        lines = text.splitlines() or [""]
        line, column = line or len(lines), column or len(lines[-1]) + 1
    else:
        message = getattr(exc, "msg", None) or message
    if line is None:
        return f"{where}: invalid TOML: {message}"
    return f"{where}: line {line}, column {column}: invalid TOML: {message}"


def _resolve(
    source: ProfileSource,
    catalog: Catalog,
    *,
    chain: tuple[tuple[str, str], ...],
    registered: bool,
) -> Profile:
    """Parse ``source``, resolve its ``extends`` chain and validate the result."""
    where = source.location
    layer = _parse(source)
    table = layer.table

    name = table.get("name")
    if registered and name is not None and name != source.name:
        raise ProfileError(f"{where}: [profile] name is {name!r}, but it is registered as {source.name!r}")
    name = name or source.name
    key = f"name:{source.name}" if registered else f"file:{os.path.abspath(where)}"
    chain = (*chain, (key, name))
    extends = table.get("extends")
    base = _resolve_base(extends, catalog, chain, where) if extends is not None else None

    decoders = _stage_list(table, "decoders", base.decoders if base else None, where)
    filters = _stage_list(table, "filters", base.filters if base else None, where) or []
    assembler = table.get("assembler", base.assembler if base else None)
    unresolved = table.get("unresolved", base.unresolved if base else "space")
    annotations = table.get("annotations", base.annotations if base else True)
    if decoders is None:
        raise ProfileError(f'{where}: [profile] needs decoders = [...] (or extends = "<profile>")')
    if assembler is None:
        raise ProfileError(f'{where}: [profile] needs assembler = "..." (or extends = "<profile>")')

    chosen: tuple[tuple[str, list[str]], ...] = (
        ("decoder", decoders), ("filter", filters), ("assembler", [assembler]))
    _check_selection(chosen, catalog, where)
    folder = os.path.dirname(os.path.abspath(where)) if os.path.isfile(where) else None
    return Profile(
        name=name,
        description=table.get("description", ""),
        decoders=tuple(decoders),
        filters=tuple(filters),
        assembler=assembler,
        unresolved=_check_policy(unresolved, where),
        annotations=annotations,
        options=_merge_options(layer.options, base, chosen, catalog, where, folder=folder),
        limits={**(base.limits if base else {}), **layer.limits},
        source=where,
        extends=extends,
    )


def _resolve_base(extends: str, catalog: Catalog, chain: tuple[tuple[str, str], ...], where: str) -> Profile:
    """The profile ``extends`` names, resolved (a cycle is an error): a registered name, or a
    ``.toml`` file (a relative path is taken from the extending file's folder)."""
    if extends.endswith(".toml") or "/" in extends or os.sep in extends:
        path = Path(extends)
        if not path.is_absolute() and os.path.isfile(where):
            path = Path(where).parent / path
        if f"file:{os.path.abspath(path)}" in {k for k, _ in chain}:
            names = " -> ".join([shown for _, shown in chain] + [path.stem])
            raise ProfileError(f"{where}: profiles extend each other in a cycle: {names}")
        return _resolve(_read_file(path), catalog, chain=chain, registered=False)
    if f"name:{extends}" in {k for k, _ in chain}:
        names = " -> ".join([shown for _, shown in chain] + [extends])
        raise ProfileError(f"{where}: profiles extend each other in a cycle: {names}")
    sources = catalog.profile_sources()
    if extends not in sources:
        raise ProfileError(
            f"{where}: extends unknown profile {extends!r} (available: {', '.join(sources) or 'none'})"
        )
    return _resolve(sources[extends], catalog, chain=chain, registered=True)


BASE_LIST = "..."
"""In a stage list, stands for the list of the profile it extends."""
_EDITS = ("prepend", "append", "before", "after", "remove")


def _stage_list(table: Mapping[str, Any], key: str, base: Sequence[str] | None, where: str) -> list[str] | None:
    """A stage list from ``[profile] key``: a list (``"..."`` in it stands for the base's list),
    or a table of edits of the base's list: ``prepend``/``append`` (lists), ``before``/``after``
    (tables name → list, inserted next to that component) and ``remove`` (a list)."""
    value = table.get(key)
    if value is None:
        return None if base is None else list(base)
    if isinstance(value, list):
        if BASE_LIST not in value:
            return list(value)
        if base is None or value.count(BASE_LIST) > 1:
            raise ProfileError(f'{where}: [profile] {key}: "..." stands for the list of the profile this one '
                               "extends, once" + ("" if base is not None else '; this one extends none'))
        at = value.index(BASE_LIST)
        return [*value[:at], *base, *value[at + 1:]]
    if base is None:
        raise ProfileError(f"{where}: [profile] {key} edits the base's list, but the profile extends none")
    result = list(base)
    for name in value.get("remove", []):
        if name not in result:
            raise ProfileError(f"{where}: [profile] {key}.remove: {name!r} is not in the base's list {result}")
        result.remove(name)
    for edit, anchor_key in (("before", 0), ("after", 1)):
        for anchor, names in value.get(edit, {}).items():
            if anchor not in result:
                raise ProfileError(f"{where}: [profile] {key}.{edit}: {anchor!r} is not in the list {result}")
            at = result.index(anchor) + anchor_key
            result[at:at] = names
    return [*value.get("prepend", []), *result, *value.get("append", [])]


def _check_selection(chosen: tuple[tuple[str, list[str]], ...], catalog: Catalog, where: str) -> None:
    """Every selected name exists in the catalog and is listed once, checked in profile order."""
    for kind, members in chosen:
        seen: set[str] = set()
        for component in members:
            if component in seen:
                raise ProfileError(f"{where}: {kind} {component!r} is listed twice")
            seen.add(component)
            try:
                catalog.info(kind, component)
            except ProfileError as exc:
                raise ProfileError(f"{where}: {exc}") from None


def _merge_options(
    given: Mapping[str, Mapping[str, Any]],
    base: Profile | None,
    chosen: tuple[tuple[str, list[str]], ...],
    catalog: Catalog,
    where: str,
    *,
    folder: str | None = None,
) -> dict[str, dict[str, Any]]:
    """The base's options overlaid with this profile's, key by key, each validated.

    Options may configure a selected component, or any assembler (``--mode`` can switch to
    it); options for a decoder or filter the profile does not run are a mistake (a typo, or a
    component removed from the list). The base's options for components this profile no
    longer selects are dropped. ``folder`` is that of the profile file giving ``given``: a
    relative path option (``Option(path=True)``) among them is taken from it.
    """
    selected: dict[str, list[str]] = {}
    for kind, members in chosen:
        for component in members:
            selected.setdefault(component, []).append(kind)
    assemblers = set(catalog.names("assembler"))

    def configurable(component: str) -> bool:
        return component in selected or component in assemblers

    for component in given:
        if not configurable(component):
            raise ProfileError(
                f"{where}: [options.{component}] is for a component this profile does not select "
                f"(selected: {', '.join(selected)}; options are also accepted for any assembler)"
            )

    merged: dict[str, dict[str, Any]] = {}
    if base is not None:
        merged = {c: dict(opts) for c, opts in base.options.items() if configurable(c)}
    for component, opts in given.items():
        kinds = selected.get(component, ["assembler"])
        merged.setdefault(component, {}).update(
            _paths_from(folder, [catalog.get(kind, component) for kind in kinds], opts) if folder else opts)

    options: dict[str, dict[str, Any]] = {}
    for component, values in merged.items():
        for kind in selected.get(component, ["assembler"]):
            cls = catalog.get(kind, component)
            validated = _validate_options(cls, values, where)
            options[component] = {option: validated[option] for option in values}
    return options


def _paths_from(folder: str, classes: Sequence[type[Component]], options: Mapping[str, Any]) -> dict[str, Any]:
    """``options`` with each relative path option (``Option(path=True)`` in any of
    ``classes``) joined to ``folder``; an empty value means "none" and stays empty."""
    out = dict(options)
    for name, value in options.items():
        is_path = any(getattr(cls.OPTIONS.get(name), "path", False) for cls in classes)
        if is_path and isinstance(value, str) and value and not os.path.isabs(value):
            out[name] = os.path.normpath(os.path.join(folder, value))
    return out


def _check_policy(value: str, where: str) -> str:
    if value not in UNRESOLVED_POLICIES:
        raise ProfileError(
            f"{where}: [profile] unresolved must be one of "
            f"{', '.join(map(repr, UNRESOLVED_POLICIES))}, got {value!r}"
        )
    return value


def _validate_options(cls: type[Component], given: Mapping[str, Any], where: str) -> dict[str, Any]:
    try:
        return cls.validate_options(given)
    except ProfileError as exc:
        raise ProfileError(f"{where}: [options.{cls.NAME}] {exc}") from None
    except (ValueError, TypeError) as exc:
        raise ProfileError(f"{where}: [options.{cls.NAME}] {type(exc).__name__}: {exc}") from None
