"""Resource limits: how much one page, and one document, may cost before extraction stops.

A hostile or broken file (a content stream that inflates to gigabytes, a hundred thousand
nested ``q``, a page of ten million glyphs) must not take the machine down. Past a limit the
page keeps the text found so far, a warning naming the limit and the page goes into the
statistics, and extraction goes on with the next page: nothing is raised.

The defaults are far above what real documents need (the largest page content in the
benchmark corpus decodes to about 1 MB, its largest page records 7.8 MB as counted below, and
the deepest ``q`` nesting is under 20), so they cost nothing on ordinary files. A profile sets
them in a ``[limits]`` table, the command line with ``--max-page-mb``, ``--max-records-mb`` and
``--page-seconds``.
"""

from __future__ import annotations

import math
from typing import Any

import attrs

from glyphweave.guard.report import WarningRecord

MB = 1 << 20

LIMIT = "limit reached: "
"""How every warning about a limit starts, for a person reading them (a program reads the
warning's ``kind``: :class:`~glyphweave.guard.report.WarningRecord`)."""


class LimitReached(Exception):  # noqa: N818 (a limit reached is not an error: extraction goes on)
    """A resource limit stopped a piece of work. ``limit`` names the :class:`Limits` field
    reached; whoever catches it keeps what was done and records :meth:`warning`."""

    def __init__(self, message: str, limit: str) -> None:
        super().__init__(message)
        self.limit = limit

    def __reduce__(self) -> tuple[Any, ...]:  # crosses to the parent of a split intact
        return (type(self), (str(self), self.limit))

    def warning(self, source: str = "") -> WarningRecord:
        """The warning that says this limit was reached."""
        return WarningRecord(kind="limit", message=str(self), limit=self.limit, source=source)

RUN_BYTES = 1_536
"""What one shown string costs the page, measured with tracemalloc: its run record, matrix
and token (472 bytes when each string has its own ``Tm``, 391 when strings follow each
other on a line), the geometry and frame the filters build for every run (713-735), and
dedup's sweep over the runs (its span and the pairs it keeps: up to about 300)."""
STRING_BYTES = 384
"""What a string measured afresh adds to its run (its measured record: the tuples of codes,
advances, positions and text; measured 353-371 bytes). A string equal to one measured
before in the same font and state shares that record and costs nothing here."""
GLYPH_BYTES = 200
"""What one glyph costs the page, counted for every glyph: its share of its string's tuples
when measured afresh (measured 65 bytes), and the lists the filters build per glyph (the
indices kept, and dedup's columns when it looks at the whole page: up to about 130)."""
FORM_BYTES = 1_024
"""What one painting of a form XObject is counted: about what it holds while it runs (the
state saved around it, its tokenizer, its resources looked up). A painting keeps none of it
once done, but a page that paints a form a million times (forms painting forms, ten times
each, nine deep) spends the time of it all the same, and records what each painting shows."""


def _positive(instance: Any, attribute: attrs.Attribute, value: Any) -> None:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or math.isnan(value) or value <= 0:
        raise ValueError(f"limit {attribute.name!r} must be a positive number, got {value!r}")


def _positive_or_none(instance: Any, attribute: attrs.Attribute, value: Any) -> None:
    if value is not None:
        _positive(instance, attribute, value)


@attrs.frozen(kw_only=True)
class Limits:
    """What one page and one document may cost. Every field is a hard cap with a warning."""

    page_content_mb: float = attrs.field(default=64, validator=_positive)
    """Decoded content of a page, its form XObjects included (MB)."""
    document_content_mb: float = attrs.field(default=1024, validator=_positive)
    """Decoded content over the whole document (MB): pages past it are left empty."""
    page_seconds: float | None = attrs.field(default=None, validator=_positive_or_none)
    """Time for one page (s): reading and interpreting its content, its filters and its
    assembler, on one clock (:class:`~glyphweave.guard.clock.PageClock`); None: no limit."""
    glyphs_per_page: int = attrs.field(default=5_000_000, validator=_positive)
    """Glyphs recorded on one page."""
    page_records_mb: float = attrs.field(default=320, validator=_positive)
    """What the records of one page, and what the filters build from them, may cost (MB),
    counted as :data:`RUN_BYTES` per shown string, :data:`STRING_BYTES` per string measured
    afresh, :data:`GLYPH_BYTES` per glyph and :data:`FORM_BYTES` per form painted: past it
    the page keeps what it recorded so far."""
    nesting: int = attrs.field(default=1_000, validator=_positive)
    """Depth of ``q`` and of marked content (``BMC``/``BDC``) on one page."""
    form_depth: int = attrs.field(default=32, validator=_positive)
    """Form XObjects painted inside each other."""
    structure_elements: int = attrs.field(default=2_000_000, validator=_positive)
    """Structure elements and content references walked in a document's structure tree:
    past it the rest of the tree is ignored, with a warning (its content is untagged)."""
    structure_depth: int = attrs.field(default=128, validator=_positive)
    """Nesting of the structure tree: deeper elements are skipped, with a warning."""
    font_stream_mb: float = attrs.field(default=64, validator=_positive)
    """One stream of a font (its program, a CMap, a CIDToGIDMap), decoded (MB): a larger one
    is left unread, with a warning, and the font's other sources answer."""

    @property
    def page_content_bytes(self) -> int:
        return int(self.page_content_mb * MB)

    @property
    def page_records_bytes(self) -> int:
        return int(self.page_records_mb * MB)

    @property
    def font_stream_bytes(self) -> int:
        return int(self.font_stream_mb * MB)

    @property
    def document_content_bytes(self) -> int:
        return int(self.document_content_mb * MB)

    @classmethod
    def from_mapping(cls, values: Any) -> Limits:
        """Limits from a mapping of some of them (a profile's ``[limits]`` table); an unknown
        key or a bad value is a ValueError naming it (:func:`glyphweave.core.pipeline.read_limits`
        says it as the profile's error)."""
        known = [field.name for field in attrs.fields(cls)]
        for key in values:
            if key not in known:
                raise ValueError(f"unknown limit {key!r} (limits: {', '.join(known)})")
        try:
            return cls(**dict(values))
        except TypeError as exc:
            raise ValueError(str(exc)) from None

    def to_dict(self) -> dict[str, Any]:
        return attrs.asdict(self)


class Budget:
    """Decoded bytes still allowed: for the page being read, and for the document."""

    __slots__ = ("document_left", "page_left")

    def __init__(self, limits: Limits) -> None:
        self.document_left = limits.document_content_bytes
        self.page_left = 0

    def start_page(self, limits: Limits) -> None:
        self.page_left = limits.page_content_bytes

    @property
    def left(self) -> int:
        return min(self.page_left, self.document_left)

    def spend(self, n: int) -> None:
        self.page_left -= n
        self.document_left -= n
