"""What the geometric assemblers share (``reading``, ``columns``, ``auto``, ``structure``,
``layout``): the options of the reading rules and of the geometric order, the page
geometry those options ask for, the order's thresholds in user space, and order recovery
as a page reads in paint order. One statement of each, so the assemblers cannot drift.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import chain
from typing import Any

from glyphweave.layout import (
    Line,
    PageGeometry,
    WordList,
    dehyphenate,
    fold_math_letters,
    geometric_rows,
    page_geometry,
    read_bands,
    recover,
)
from glyphweave.layout.hyphens import MODES
from glyphweave.layout.mathletters import composed_negations
from glyphweave.plugin import Assembled, Option, PageContext

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
    "number_strings": Option(
        default=True,
        doc="Inside right-to-left text, keep a number painted as one string left to right (digits with "
        "- + / . , : between them, as XeTeX sets 800-2468) in the order painted; false: order it by the "
        "Unicode bidi algorithm alone, which reads that string after Arabic letters as 2468-800.",
    ),
    "math_letters": Option(
        default=False,
        doc="Keep the mathematical letters and digits U+1D400-1D7FF (\"𝑥\") instead of folding them to the "
        "plain letters and digits a reader types.",
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

PROSE_OPTIONS = {
    "dehyphenate": Option(
        default="auto", choices=MODES,
        doc="Words split at a line end: \"auto\" joins where the page's words, its hyphens or the word list "
        "say the joined word is the likelier (a real compound keeps its hyphen), \"all\" joins every "
        "line-end hyphen before a lower-case line, \"off\" joins none. A soft hyphen is never output.",
    ),
    "language": Option(
        default="en",
        doc="Language of the word list dehyphenation consults when the page says nothing (a wordfreq "
        "language code; \"\" or a language wordfreq lacks: the page's evidence alone).",
    ),
}
"""The options of prose text (rules: assembly): how the lines of a page's text are finished."""

GEOMETRY_OPTIONS = {**RULE_OPTIONS, **ORDER_OPTIONS, **PROSE_OPTIONS}


class RuleOptions:
    """The attributes :data:`RULE_OPTIONS` give a component, declared once for every
    assembler that takes them (a base class of the assembler, beside ``Assembler``)."""

    word_gap: float
    line_gap: float
    back_jump: float
    ligatures: bool
    number_strings: bool
    math_letters: bool


class GeometryOptions(RuleOptions):
    """The attributes :data:`GEOMETRY_OPTIONS` give a component."""

    gap: float
    min_width: float
    min_lines: int
    dehyphenate: str
    language: str


Read = tuple[str, "Sequence[int] | None"]
"""A page's text as read, before it is finished, and its glyphs in the order the text reads
them (None: paint order): what :attr:`Assembled.order` reports."""


def rows_order(rows: Sequence[Sequence[Line]]) -> list[int]:
    """The glyphs of ``rows`` (as :meth:`PageGeometry.text_of_rows` reads them) in that order."""
    return list(chain.from_iterable(line.glyphs for row in rows for line in row))


def finished_read(component: RuleOptions, read: Read) -> Assembled:
    """The page's text as read, finished (:func:`finished`), with its reading order."""
    text, order = read
    return Assembled(text=finished(component, text), order=order)


def finished(component: RuleOptions, text: str) -> str:
    """The page's ``text`` as ``component``'s options finish it: mathematical letters folded
    (unless kept), then, for a component with the prose options, dehyphenated (a component
    without them, such as the layout grid, only loses its soft hyphens)."""
    if not component.math_letters:
        text = fold_math_letters(text)
    text = composed_negations(text)
    mode = getattr(component, "dehyphenate", "off")
    return dehyphenate(text, mode, WordList(getattr(component, "language", "")) if mode == "auto" else None)


def rules_geometry(component: RuleOptions, page: PageContext, indices: Sequence[int]) -> PageGeometry:
    """The page geometry of ``indices`` under ``component``'s reading-rule options."""
    return page_geometry(page, indices, word_gap=component.word_gap, line_gap=component.line_gap,
                         back_jump=component.back_jump, ligatures=component.ligatures,
                         number_strings=component.number_strings)


def order_thresholds(component: GeometryOptions, geometry: PageGeometry) -> dict[str, Any]:
    """``component``'s order options as :func:`geometric_rows` and :func:`recover` take
    them: lengths in user space, from the page's typical advance."""
    advance = geometry.advance
    return {"gap": component.gap * advance, "min_width": component.min_width * advance,
            "min_lines": component.min_lines}


def plainly_in_order(component: GeometryOptions, geometry: PageGeometry) -> bool:
    """:meth:`PageGeometry.plain_order` at ``component``'s gap, with the page's lines built
    only when the answer needs them. The gap is in typical advances, which are measured on
    the lines; but with no gap every wide gap counts against the page, so a page plainly in
    order with none is so at any gap. Most pages of a book are: their lines were built for
    that one number (a twentieth of the book's time)."""
    return geometry.plain_order() or geometry.plain_order(order_thresholds(component, geometry)["gap"])


def ordered_rows(component: GeometryOptions, geometry: PageGeometry, lines: Sequence[Line],
                 gutters: list[tuple[float, float]] | None = None) -> list[list[Line]]:
    """``lines`` in geometric order under ``component``'s thresholds (the gutters found
    are appended to ``gutters`` when given), the page's bands top to bottom: the order reads
    the columns, and a page-wide line below them (a footer) must not stay among them. (Rows
    read with no gutter are in bands already: bands are looked for only after columns.)"""
    found: list[tuple[float, float]] = []
    rows = geometric_rows(lines, gutters=found, boxes=True, **order_thresholds(component, geometry))
    if gutters is not None:
        gutters.extend(found)
    return read_bands(rows)[0] if found else rows


def _annotation_lines(page: PageContext, lines: Sequence[Line]) -> set[int]:
    """The ids of ``lines`` painted by annotations alone (form field values, notes): the
    interpreter paints annotations after the page's content, so their paint order says
    nothing of where they are read. Empty, after one look at the last run, on a page
    without annotations."""
    runs = page.table.raw_runs()
    if not lines or not runs or runs[-1].annotation is None:
        return set()
    runs_of = lines[0].geometry  # the lines' own index of runs, shared by the page's lines
    return {id(line) for line in lines
            if all(runs_of.runs[runs_of.run_of(g)].annotation is not None for g in line.glyphs)}


def recovered_text(component: GeometryOptions, page: PageContext, geometry: PageGeometry) -> Read:
    """The page in paint order with order recovery: the regions paint order gets badly
    wrong read geometrically (noted as ``order`` in the page's statistics), and the order
    it was read in."""
    page.check_time()  # the lines and their recovery cost more than the cheapest text
    lines = geometry.lines
    recovered = recover(lines, **order_thresholds(component, geometry), late=_annotation_lines(page, lines))
    if recovered.fixes:
        page.note("order", "recovered: " + ", ".join(f"{kind} {n}" for kind, n in sorted(recovered.fixes.items())))
        return geometry.text_of_rows(recovered.rows), rows_order(recovered.rows)
    return geometry.reading_text(), None
