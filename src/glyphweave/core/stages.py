"""The three stage kinds of the pipeline, as base classes a component subclasses.

    raw glyphs --decoders--> text per glyph --filters--> visible glyphs --assembler--> text

A component is a class with a unique ``NAME``, a docstring (shown by ``glyphweave
plugins``), an ``OPTIONS`` table and the one method of its stage. Plugins hand the class
to the registry through a ``glyphweave_register_*`` hook; a profile chooses components by
name and supplies options, which are validated before the component is constructed with
them as keyword arguments.
"""

from __future__ import annotations

import builtins
import math
from collections.abc import Callable, Hashable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

import attrs

from glyphweave.core.glyphtable import GlyphTable
from glyphweave.guard.clock import PageClock

if TYPE_CHECKING:
    from glyphweave.core.fontinfo import FontInfo
    from glyphweave.core.structure import PageStructure

T = TypeVar("T")


@attrs.frozen(kw_only=True)
class Option:
    """One configurable option of a component: its type, default, meaning and limits.

    ``type`` is taken from the default unless given (it must be given when the default is
    None, which then means "not set" and is a value a profile may not write: TOML has no
    null). The default goes through the conversion a given value does (``Option(default=0,
    type=float)`` holds 0.0). Lists check each item against ``item_type`` and against
    ``choices``, ``minimum`` and ``maximum``. ``minimum`` and ``maximum`` bound a number
    (inclusive); ``choices`` lists the values allowed. A float option never accepts NaN.
    The option must be well formed and its default must satisfy the limits: a component
    that breaks its own rule fails when its class is defined (:meth:`definition_problem`,
    checked by :class:`Component`), with the component and the option named, not when a
    user trips over it. ``path`` marks a string option that names a file: a relative one
    written in a profile file is taken from that file's folder (as ``extends`` is), so a
    profile works from any working directory.
    """

    default: Any
    doc: str
    type: type = attrs.field(default=None)
    item_type: builtins.type | None = None
    """For a list option: the type of every item."""
    choices: tuple[Any, ...] | None = None
    minimum: float | None = None
    maximum: float | None = None
    path: bool = False
    """A file path: relative to the profile file that sets it (see above)."""

    def __attrs_post_init__(self) -> None:
        if self.type is None and self.default is not None:
            object.__setattr__(self, "type", type(self.default))
        if self.type is not None and self.default is not None:
            object.__setattr__(self, "default", self._convert(self.default))

    def definition_problem(self) -> tuple[builtins.type[Exception], str] | None:
        """What is wrong with the option itself, as (exception class, end of a sentence),
        or None: no type to check values against, a list without ``item_type``, a default
        that breaks the option's own rules."""
        if self.type is None:
            return TypeError, "has default None and no type=... (say what a profile may set)"
        if self.type in (list, tuple) and self.item_type is None:
            return TypeError, "is a list and needs item_type=... (the type of its items)"
        if self.path and self.type is not str:
            return TypeError, "has path=True, which is for a str option (a file's path)"
        if self.default is not None:
            problem = self.problem(self.default)
            if problem:
                return ValueError, f"has default {self.default!r}, which {problem}"
        return None

    def coerce(self, component: str, name: str, value: Any) -> Any:
        """Validate ``value`` (from a profile) and return it in this option's type."""
        from glyphweave.core.errors import ProfileError

        value = self._convert(value)
        problem = self.problem(value)
        if problem:
            raise ProfileError(f"option {name!r} of {component!r} {problem}")
        return value

    def _convert(self, value: Any) -> Any:
        if self.type is float and _is_int(value):
            return float(value)
        if self.type in (list, tuple) and isinstance(value, (list, tuple)):
            items = [float(v) if self.item_type is float and _is_int(v) else v for v in value]
            return self.type(items)
        return value

    def problem(self, value: Any) -> str | None:
        """Why ``value`` is not acceptable, as the end of a sentence, or None."""
        kind = self.type
        if not _of_type(value, kind):
            return f"must be {_type_name(kind, self.item_type)}, got {value!r}"
        if kind in (list, tuple):
            item = self.item_type
            assert item is not None
            for v in value:
                if not _of_type(v, item):
                    return f"must be {_type_name(kind, item)}, got item {v!r}"
            for v in value:
                rule = self._broken_rule(v)
                if rule:
                    return f"must have every item {rule}, got item {v!r}"
            return None
        rule = self._broken_rule(value)
        return f"must be {rule}, got {value!r}" if rule else None

    def _broken_rule(self, value: Any) -> str | None:
        """The rule a single value breaks (``at least 0.0``), or None."""
        if isinstance(value, float) and math.isnan(value):
            return "a number"
        if self.choices is not None and value not in self.choices:
            return f"one of {list(self.choices)}"
        if self.minimum is not None and value < self.minimum:
            return f"at least {self.minimum}"
        if self.maximum is not None and value > self.maximum:
            return f"at most {self.maximum}"
        return None

    def limits(self) -> str:
        """The limits in words (``>= 0.0, <= 0.99``; ``one of 'a', 'b'``), or ``""``."""
        parts = []
        if self.minimum is not None:
            parts.append(f">= {self.minimum}")
        if self.maximum is not None:
            parts.append(f"<= {self.maximum}")
        if self.choices is not None:
            parts.append("one of " + ", ".join(map(repr, self.choices)))
        return ", ".join(parts)

    def describe(self) -> dict[str, Any]:
        """A plain, JSON-friendly description (``glyphweave plugins``)."""
        return {
            "type": _type_name(self.type, self.item_type),
            "default": list(self.default) if isinstance(self.default, tuple) else self.default,
            "minimum": self.minimum,
            "maximum": self.maximum,
            "choices": list(self.choices) if self.choices is not None else None,
            "doc": self.doc,
        }


def _of_type(value: Any, kind: type) -> bool:
    """isinstance, except that a bool is not an int or a float here."""
    return isinstance(value, kind) and (kind is bool or not isinstance(value, bool))


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _type_name(kind: type, item: type | None) -> str:
    if kind in (list, tuple):
        return f"a list of {item.__name__ if item else 'values'}"
    return kind.__name__


class Component:
    """Common base: a name, options, and a constructor taking validated options."""

    KIND: ClassVar[str] = ""
    NAME: ClassVar[str] = ""
    OPTIONS: ClassVar[Mapping[str, Option]] = {}

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """Check the options a component declares, when its class is defined: a bad one is
        the component author's mistake, reported with the component and the option named."""
        super().__init_subclass__(**kwargs)
        options = cls.OPTIONS
        if not isinstance(options, Mapping):
            return  # the catalog says what OPTIONS must be, naming the plugin
        for name, option in options.items():
            problem = option.definition_problem() if isinstance(option, Option) else None
            if problem is not None:
                error, text = problem
                what = f"{cls.KIND} {cls.NAME!r}" if cls.NAME else cls.KIND or "component"
                raise error(f"{what} ({cls.__module__}.{cls.__qualname__}): option {name!r} {text}")

    def __init__(self, **options: Any) -> None:
        # Checked here too, so a component built directly in code gets the same errors as one
        # built from a profile (where the options arrive validated already).
        for name, value in self.validate_options(options).items():
            setattr(self, name, value)

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


LinkArea = tuple[float, float, float, float, str]
"""A link's rectangle (x0, y0, x1, y1, user space) and the URI it opens."""


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
    structure_source: Callable[[], PageStructure | None] | None = attrs.field(default=None, eq=False, repr=False)
    """Where :attr:`structure` comes from (the document's structure tree, read once per
    document and only when an assembler asks)."""
    links_source: Callable[[], tuple[LinkArea, ...]] | None = attrs.field(default=None, eq=False, repr=False)
    """Where :attr:`links` come from (the page's annotations, read on first ask)."""
    clock: PageClock = attrs.field(factory=lambda: PageClock(None), eq=False, repr=False)
    """The page's clock (``page_seconds``): read it through :meth:`time_left` and
    :meth:`check_time`."""
    _notes: dict[str, str] = attrs.field(factory=dict, init=False, eq=False, repr=False)
    _memo: dict[Hashable, Any] = attrs.field(factory=dict, init=False, eq=False, repr=False)

    @property
    def structure(self) -> PageStructure | None:
        """The page's logical structure (tagged PDF): its content in the author's order
        (:class:`~glyphweave.core.structure.PageStructure`), or None when the document has
        no structure tree."""
        source = self.structure_source
        return self.memo("glyphweave.core.structure", lambda: source() if source is not None else None)

    @property
    def links(self) -> tuple[LinkArea, ...]:
        """The page's links to URIs (Link annotations): ``(x0, y0, x1, y1, uri)`` each (API 1.2)."""
        source = self.links_source
        return self.memo("glyphweave.core.links", lambda: source() if source is not None else ())

    def memo(self, key: Hashable, build: Callable[[], T]) -> T:
        """The value kept on this page under ``key``, built by ``build()`` on first use.

        A cache for what several components compute from the same page: the first to ask
        builds it, every later one on this page gets the same object (the layout layer
        keeps its page geometry here: :func:`glyphweave.layout.page_geometry`). Start a
        key with your package's name, so that two plugins' keys cannot meet."""
        memo = self._memo
        if key not in memo:
            memo[key] = build()
        return memo[key]  # type: ignore[no-any-return]

    def time_left(self) -> float:
        """Seconds the page may still spend (``page_seconds`` covers its interpretation,
        filters and assembler together): 0.0 once it is up, ``math.inf`` with no limit. A
        component with a cheaper way to do its work may choose it when little is left."""
        return self.clock.time_left()

    def check_time(self) -> None:
        """Raise :class:`~glyphweave.guard.clock.TimeLimitReached` once the page's time is up,
        else nothing. Call it in a long loop (every few thousand glyphs or runs: it reads the
        clock) and let the exception through: the pipeline catches it and goes on the
        cheapest way (see the plugin guide). With no limit it costs one attribute test."""
        clock = self.clock
        if clock.seconds is not None:
            clock.check()

    def note(self, key: str, value: str) -> None:
        """Say something about how the page was assembled (which assembler served it and
        why, what order recovery did): it shows in the page's statistics (``assembly``)
        and with ``--stats``. A later note with the same key replaces the earlier one."""
        self._notes[key] = value

    @property
    def notes(self) -> dict[str, str]:
        """The notes made so far (see :meth:`note`)."""
        return dict(self._notes)


class Filter(Component):
    """Takes the indices of the glyphs still visible and returns those it keeps.

    The order of the returned indices must be the order received (paint order).
    """

    KIND = "filter"

    def apply(self, page: PageContext, indices: Sequence[int]) -> list[int]:
        raise NotImplementedError


@attrs.frozen(kw_only=True)
class Assembled:
    """What an assembler returns when it has more to say than text: the page's text (what
    text output shows) and structured data (lines, words with boxes, ...: any value the
    :mod:`json` module can write), which ``--format jsonl`` embeds as it is."""

    text: str = attrs.field(validator=attrs.validators.instance_of(str))
    data: Any = None
    order: Sequence[int] | None = None
    """The glyphs (table indices) in the order the text reads them: what the page's
    words, lines and blocks follow (:meth:`glyphweave.Page.words`). Glyphs left out are
    not read (a dropped artifact); None means paint order. An assembler that reorders the
    page should say so here (contract 1.2)."""


class Assembler(Component):
    """Turns the visible glyphs of a page into text, or into :class:`Assembled` text and data."""

    KIND = "assembler"

    def assemble(self, page: PageContext, indices: Sequence[int]) -> str | Assembled:
        raise NotImplementedError


STAGE_KINDS: dict[str, type[Component]] = {
    "decoder": Decoder,
    "filter": Filter,
    "assembler": Assembler,
}
