"""What the geometric assemblers share (``reading``, ``columns``, ``auto``, ``structure``,
``layout``): the options of the reading rules and of the geometric order, the page
geometry those options ask for, the order's thresholds in user space, and order recovery
as a page reads in paint order. One statement of each, so the assemblers cannot drift.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from glyphweave.layout import Line, PageGeometry, geometric_rows, page_geometry, recover
from glyphweave.plugin import Option, PageContext

RULE_OPTIONS = {
    "word_gap": Option(
        default=0.15, minimum=0.0, maximum=100.0,
        doc="A gap wider than this many box heights (after tracking is taken out) is a word space.",
    ),
    "line_gap": Option(
        default=0.5, minimum=0.0, maximum=100.0,
        doc="A move across the writing direction larger than this many box heights is a new line.",
    ),
    "back_jump": Option(
        default=3.0, minimum=0.0, maximum=100.0,
        doc="A jump backwards along the writing direction larger than this many box heights is a new line.",
    ),
    "ligatures": Option(
        default=False,
        doc="Keep the Latin ligature forms U+FB00-FB06 (\"ﬁ\") instead of expanding them to their letters.",
    ),
}
"""The reading rules' options (rules: assembly): they decide the lines every assembler starts from."""

ORDER_OPTIONS = {
    "gap": Option(
        default=3.0, minimum=0.0, maximum=1000.0,
        doc="A gap along a line of at least this many typical glyph advances cuts it into pieces that may "
        "belong to different columns (0: lines are never cut).",
    ),
    "min_width": Option(
        default=12.0, minimum=0.0, maximum=10000.0,
        doc="A column must have a median piece length of at least this many typical advances on each side "
        "of its gutter: narrower pieces are table cells, read across.",
    ),
    "min_lines": Option(
        default=2, minimum=1, maximum=10000,
        doc="A column must have at least this many pieces on each side of its gutter.",
    ),
}
"""The geometric order's thresholds (in typical glyph advances), for columns and recovery."""

GEOMETRY_OPTIONS = {**RULE_OPTIONS, **ORDER_OPTIONS}


class RuleOptions:
    """The attributes :data:`RULE_OPTIONS` give a component, declared once for every
    assembler that takes them (a base class of the assembler, beside ``Assembler``)."""

    word_gap: float
    line_gap: float
    back_jump: float
    ligatures: bool


class GeometryOptions(RuleOptions):
    """The attributes :data:`GEOMETRY_OPTIONS` give a component."""

    gap: float
    min_width: float
    min_lines: int


def rules_geometry(component: RuleOptions, page: PageContext, indices: Sequence[int]) -> PageGeometry:
    """The page geometry of ``indices`` under ``component``'s reading-rule options."""
    return page_geometry(page, indices, word_gap=component.word_gap, line_gap=component.line_gap,
                         back_jump=component.back_jump, ligatures=component.ligatures)


def order_thresholds(component: GeometryOptions, geometry: PageGeometry) -> dict[str, Any]:
    """``component``'s order options as :func:`geometric_rows` and :func:`recover` take
    them: lengths in user space, from the page's typical advance."""
    advance = geometry.advance
    return {"gap": component.gap * advance, "min_width": component.min_width * advance,
            "min_lines": component.min_lines}


def ordered_rows(component: GeometryOptions, geometry: PageGeometry, lines: Sequence[Line],
                 gutters: list[tuple[float, float]] | None = None) -> list[list[Line]]:
    """``lines`` in geometric order under ``component``'s thresholds (the gutters found
    are appended to ``gutters`` when given)."""
    return geometric_rows(lines, gutters=gutters, **order_thresholds(component, geometry))


def recovered_text(component: GeometryOptions, page: PageContext, geometry: PageGeometry) -> str:
    """The page in paint order with order recovery: the regions paint order gets badly
    wrong read geometrically (noted as ``order`` in the page's statistics)."""
    page.check_time()  # the lines and their recovery cost more than the cheapest text
    recovered = recover(geometry.lines, **order_thresholds(component, geometry))
    if recovered.fixes:
        page.note("order", "recovered: " + ", ".join(f"{kind} {n}" for kind, n in sorted(recovered.fixes.items())))
        return geometry.text_of_rows(recovered.rows)
    return geometry.reading_text()
