"""The three stage kinds of the pipeline, as base classes a component subclasses.

    raw glyphs --decoders--> text per glyph --filters--> visible glyphs --assembler--> text

A component is a class with a unique ``NAME``, a docstring (shown by ``glyphweave
plugins``), an ``OPTIONS`` table and the one method of its stage. Plugins hand the class
to the registry through a ``glyphweave_register_*`` hook; a profile chooses components by
name and supplies options, which are validated before the component is constructed with
them as keyword arguments.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

import attrs

from glyphweave.core.glyphtable import GlyphTable

if TYPE_CHECKING:
    from glyphweave.core.fontinfo import FontInfo


@attrs.frozen(kw_only=True)
class Option:
    """One configurable option of a component: its type, default and meaning."""

    default: Any
    doc: str
    type: type = attrs.field(default=None)
    choices: tuple[Any, ...] | None = None

    def __attrs_post_init__(self) -> None:
        if self.type is None:
            object.__setattr__(self, "type", type(self.default))

    def coerce(self, component: str, name: str, value: Any) -> Any:
        """Validate ``value`` (from a profile) and return it in this option's type."""
        kind = self.type
        if kind is float and isinstance(value, int) and not isinstance(value, bool):
            value = float(value)
        if not isinstance(value, kind) or (kind is not bool and isinstance(value, bool)):
            from glyphweave.core.errors import ProfileError

            raise ProfileError(
                f"option {name!r} of {component!r} must be {kind.__name__}, got {value!r}"
            )
        if self.choices is not None and value not in self.choices:
            from glyphweave.core.errors import ProfileError

            raise ProfileError(
                f"option {name!r} of {component!r} must be one of {list(self.choices)}, got {value!r}"
            )
        return value


class Component:
    """Common base: a name, options, and a constructor taking validated options."""

    KIND: ClassVar[str] = ""
    NAME: ClassVar[str] = ""
    OPTIONS: ClassVar[Mapping[str, Option]] = {}

    def __init__(self, **options: Any) -> None:
        for name, option in self.OPTIONS.items():
            setattr(self, name, options.get(name, option.default))

    @classmethod
    def validate_options(cls, options: Mapping[str, Any]) -> dict[str, Any]:
        """Options from a profile, checked and completed with defaults."""
        from glyphweave.core.errors import ProfileError

        unknown = sorted(set(options) - set(cls.OPTIONS))
        if unknown:
            known = ", ".join(sorted(cls.OPTIONS)) or "none"
            raise ProfileError(f"{cls.KIND} {cls.NAME!r} has no option {unknown[0]!r} (options: {known})")
        return {
            name: option.coerce(cls.NAME, name, options[name]) if name in options else option.default
            for name, option in cls.OPTIONS.items()
        }

    @classmethod
    def resource_sources(cls) -> dict[str, str]:
        """Which source serves each data table this component reads: ``"mirror"`` (the
        files shipped in the package) or ``"fallback"`` (a small built-in table, when the
        mirror is missing). Components without tables return {}. May load the tables."""
        return {}

    @classmethod
    def summary(cls) -> str:
        doc = (cls.__doc__ or "").strip()
        return doc.splitlines()[0] if doc else ""


class Decoder(Component):
    """Maps one character code of one font to Unicode.

    Called at most once per (font, code) per document: the answer is cached by the core.
    Return the text, or None when this decoder has no answer. An answer in the Private
    Use Area, U+FFFD or a control character is *weak*: the core keeps asking the later
    decoders, and if none answers better the glyph is unresolved (never a silent PUA
    character in the text).
    """

    KIND = "decoder"

    def decode(self, font: FontInfo, code: bytes, cid: int | None) -> str | None:
        raise NotImplementedError


@attrs.frozen(kw_only=True)
class PageContext:
    """What a filter or assembler knows about the page it works on."""

    number: int
    """0-based page index."""
    mediabox: tuple[float, float, float, float]
    cropbox: tuple[float, float, float, float]
    rotate: int
    table: GlyphTable
    placeholder: str = " "
    """Text shown for an unresolved glyph (the profile's ``unresolved`` policy)."""


class Filter(Component):
    """Takes the indices of the glyphs still visible and returns those it keeps.

    The order of the returned indices must be the order received (paint order).
    """

    KIND = "filter"

    def apply(self, page: PageContext, indices: Sequence[int]) -> list[int]:
        raise NotImplementedError


class Assembler(Component):
    """Turns the visible glyphs of a page into text."""

    KIND = "assembler"

    def assemble(self, page: PageContext, indices: Sequence[int]) -> str:
        raise NotImplementedError


STAGE_KINDS: dict[str, type[Component]] = {
    "decoder": Decoder,
    "filter": Filter,
    "assembler": Assembler,
}
