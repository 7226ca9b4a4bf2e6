"""Every hook glyphweave calls. A plugin implements any of them with ``@hookimpl``.

Registration hooks return component classes (subclasses of
:class:`glyphweave.plugin.Decoder`, ``Filter`` or ``Assembler``) with a unique
``NAME``. They never decide the pipeline order: a profile chooses components by name
and orders them (pluggy calls implementations last-registered-first, which is no basis
for an order a user can reason about). None of them takes a parameter: a hook
implementation is called with none. The versions in ``versionadded`` are those of the
plugin contract (:data:`glyphweave.plugin.API_VERSION`), not glyphweave's releases.
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

    This hook takes no parameters.

    :returns: subclasses of :class:`~glyphweave.plugin.Decoder`, each with a unique ``NAME``.

    .. versionadded:: 1.0
    """
    raise NotImplementedError  # a specification: plugins implement it


@hookspec
def glyphweave_register_filters() -> Sequence[type[Filter]]:
    """Return filter classes (glyph list → glyph list) this plugin provides.

    Called once per plugin manager; None is treated as empty.

    This hook takes no parameters.

    :returns: subclasses of :class:`~glyphweave.plugin.Filter`, each with a unique ``NAME``.

    .. versionadded:: 1.0
    """
    raise NotImplementedError  # a specification: plugins implement it


@hookspec
def glyphweave_register_assemblers() -> Sequence[type[Assembler]]:
    """Return assembler classes (glyph list → text) this plugin provides.

    Called once per plugin manager; None is treated as empty.

    This hook takes no parameters.

    :returns: subclasses of :class:`~glyphweave.plugin.Assembler`, each with a unique ``NAME``.

    .. versionadded:: 1.0
    """
    raise NotImplementedError  # a specification: plugins implement it


@hookspec
def glyphweave_register_profiles() -> Mapping[str, str]:
    """Return built-in profiles as ``{name: TOML text}``.

    Lets a plugin ship a ready-made pipeline (for example one that puts its own decoder
    first). Called once per plugin manager; None is treated as empty. Of two plugins
    registering the same profile name, one keeps it and the other's is left out with a
    warning (``docs/plugins.rst``, "When two plugins claim one name").

    This hook takes no parameters.

    :returns: ``{profile name: the profile's TOML text}``.

    .. versionadded:: 1.0
    """
    raise NotImplementedError  # a specification: plugins implement it
