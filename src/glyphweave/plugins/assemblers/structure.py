"""``structure``: tagged PDFs read in the author's order, from the structure tree (rules: assembly).

In a tagged PDF the reading order is the structure tree's, whatever order the producer
painted in (Chrome, Word and LibreOffice each paint headers, sidebars, table cells or
footnotes in an order of their own). The page's content arrives from the engine as
``page.structure``: marked-content references in the author's order, each with the block,
table row and cell around it. This assembler:

* plays the visible glyphs of each reference in that order, with word spaces and line
  breaks from the shared reading rules, and a line end wherever the block changes (P, H1,
  LI, TD, Caption, ...; a list item's label and body share a line);
* keeps the cells of a table row on one line, separated by a space (the reading
  assembler separates them so too, and a search for a row's words finds them together);
* replaces an element's content with its /ActualText, and adds a figure's /Alt as a line
  of its own when ``alt`` is on (off by default: it describes an image, it is not text
  on the page);
* handles artifacts (/Artifact marked content: running headers, footers, page numbers)
  by ``artifacts``: ``keep`` (the default) puts those above the tagged content before it
  and the rest after it, as a reader sees them; ``append`` puts them all after the
  content; ``drop`` leaves them out (an index that wants no repeated headers);
* reads a note (a Note or FENote element: a footnote) that lies wholly below the text the
  tree reads after it after the page's body, as a reader does: producers tag a footnote
  where its mark is, which puts it mid-sentence;
* reads a float where it sits (``floats``, on by default): blocks the tree reads mid-body
  that lie wholly below everything it reads after them, across two of those blocks side by
  side (a pull quote set at the page's foot, below the columns), come after the body;
* appends the glyphs outside every structure element in geometric order and counts them
  (``untagged`` in the page's statistics): never dropped silently.

When the structure is not usable (no tree, the page not in it, marked content the tree
never references, or coverage below ``coverage`` of the page's glyphs) it says why
(``reason`` in the page's statistics) and reads the page as ``auto`` would without a tree.
A content reference met twice is played once.
"""

from __future__ import annotations

from collections.abc import Sequence

from glyphweave.plugin import Assembled, Assembler, Option, PageContext, hookimpl

from ._shared import GEOMETRY_OPTIONS, GeometryOptions, finished_read
from .geometric import geometric_choice
from .structure_order import play_structure, played_order, played_pieces

__all__ = ["STRUCTURE_OPTIONS", "StructureAssembler", "StructureOptions", "play_structure", "played_order",
           "played_pieces"]

STRUCTURE_OPTIONS = {
    "coverage": Option(
        default=0.5, minimum=0.0, maximum=1.0,
        doc="The structure is used only where it covers at least this share of the page's glyphs "
        "(artifacts left out); below it the page is read geometrically.",
    ),
    "artifacts": Option(
        default="keep", choices=("keep", "append", "drop"),
        doc="Artifacts (running headers, footers, page numbers): keep them where a reader sees them "
        "(above the content first, the rest after it), append them after the content, or drop them.",
    ),
    "alt": Option(
        default=False,
        doc="Add a figure's /Alt description as a line of its own.",
    ),
    "floats": Option(
        default=True,
        doc="Read a float where it sits: blocks the tree reads mid-body that lie below all the text it reads "
        "after them, across two of its columns (a pull quote set at the page's foot), come after the body.",
    ),
}


class StructureOptions(GeometryOptions):
    """The attributes :data:`STRUCTURE_OPTIONS` (and the geometry options its fallback
    reads) give a component: what :func:`play_structure` reads."""

    coverage: float
    artifacts: str
    alt: bool
    floats: bool


class StructureAssembler(Assembler, StructureOptions):
    """Tagged PDFs in the author's order (the structure tree), geometric order elsewhere."""

    NAME = "structure"
    OPTIONS = {**GEOMETRY_OPTIONS, **STRUCTURE_OPTIONS}

    def assemble(self, page: PageContext, indices: Sequence[int]) -> Assembled:
        page.note("assembler", self.NAME)
        read = play_structure(self, page, indices)
        if read is None:
            read = geometric_choice(self, page, indices)  # the fallback: auto's geometric choice
        return finished_read(self, read)


@hookimpl
def glyphweave_register_assemblers() -> list[type[Assembler]]:
    return [StructureAssembler]
