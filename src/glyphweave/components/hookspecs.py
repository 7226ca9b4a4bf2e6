"""Every hook glyphweave calls. A plugin implements any of them with ``@hookimpl``.

Registration hooks return component classes (subclasses of
:class:`glyphweave.core.stages.Decoder`, ``Filter`` or ``Assembler``) with a unique
``NAME``. They never decide the pipeline order: a profile chooses components by name
and orders them (pluggy calls implementations last-registered-first, which is no basis
for an order a user can reason about).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from glyphweave.components.markers import hookspec
from glyphweave.core.stages import Assembler, Decoder, Filter


@hookspec
def glyphweave_register_decoders() -> Sequence[type[Decoder]]:
    """Return decoder classes (code → Unicode) this plugin provides.

    Called once per plugin manager. Return an empty sequence (or do not implement the
    hook) to provide none; None is treated as empty.
    """
    raise NotImplementedError  # a specification: plugins implement it


@hookspec
def glyphweave_register_filters() -> Sequence[type[Filter]]:
    """Return filter classes (glyph list → glyph list) this plugin provides.

    Called once per plugin manager; None is treated as empty.
    """
    raise NotImplementedError  # a specification: plugins implement it


@hookspec
def glyphweave_register_assemblers() -> Sequence[type[Assembler]]:
    """Return assembler classes (glyph list → text) this plugin provides.

    Called once per plugin manager; None is treated as empty.
    """
    raise NotImplementedError  # a specification: plugins implement it


@hookspec
def glyphweave_register_profiles() -> Mapping[str, str]:
    """Return built-in profiles as ``{name: TOML text}``.

    Lets a plugin ship a ready-made pipeline (for example one that puts its own decoder
    first). Called once per plugin manager; None is treated as empty. Two plugins
    registering the same profile name is an error.
    """
    raise NotImplementedError  # a specification: plugins implement it
