"""``auto``: per page, the assembler the geometry calls for (rules: assembly); the default profile's.

On each page the lines of the reading rules are put in geometric reading order
(``geometric_rows``, as the ``columns`` assembler does). The geometric order serves
(``columns``) where it differs from paint order and either found columns (a gutter
between two columns of text) or only moved whole lines (a stamp painted first and placed
last, lines painted out of order). Everywhere else the page is read as ``reading`` reads
it, with its order recovery: where the two orders differ only in how pieces of a
baseline are grouped (margin notes beside body text, table cells), paint order is the
safer guess. The page's statistics say which served and why
(``assembly``: ``served`` and ``reason``).

On a tagged page whose structure tree is usable (see the ``structure`` assembler), the
tree's order serves first; the statistics then say ``served: structure``, and otherwise
why the tree was not used before the geometric reason.
"""

from __future__ import annotations

from collections.abc import Sequence

from glyphweave.plugin import Assembled, Assembler, Option, PageContext, hookimpl

from ._shared import GEOMETRY_OPTIONS, finished_read
from .geometric import geometric_choice
from .structure import STRUCTURE_OPTIONS, StructureOptions, play_structure


class AutoAssembler(Assembler, StructureOptions):
    """Per page: the structure tree where usable, else geometric order where paint order
    contradicts it, else reading."""

    NAME = "auto"
    OPTIONS = {
        **GEOMETRY_OPTIONS,
        **STRUCTURE_OPTIONS,
        "structure": Option(
            default=True,
            doc="Read tagged pages in the structure tree's order where the tree is usable.",
        ),
        "recover": Option(
            default=True,
            doc="On pages served by reading: order recovery where paint order contradicts the geometry.",
        ),
    }

    structure: bool
    recover: bool

    def assemble(self, page: PageContext, indices: Sequence[int]) -> Assembled:
        page.note("assembler", self.NAME)
        if self.structure and len(indices):
            read = play_structure(self, page, indices)
            if read is not None:
                return finished_read(self, read)
        return finished_read(self, geometric_choice(self, page, indices))


@hookimpl
def glyphweave_register_assemblers() -> list[type[Assembler]]:
    return [AutoAssembler]
