"""What a walk of a page's glyphs produces: every glyph's text with the separator the rules
put in front of it, and where the lines start.

Both walks (:mod:`.runwalk`, a run at a time, and :mod:`.glyphwalk`, glyph by glyph) give
the same :class:`Walk`; lines, words and the reading text are read off it. The walks and the
lines read a run's numbers through :func:`numbers_tuple`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from .rules import finish_text


class Walk(NamedTuple):
    """The separators of a page's glyphs, in paint order."""

    glyphs: Sequence[int]
    """The table indices the pieces belong to, in the order walked. The run walk lists
    every glyph up to the last one taken (a glyph not taken has the piece "")."""
    pieces: list[str]
    """The glyph's text (its placeholder when unresolved), with " " in front for a word
    space and "\\n" for a new line."""
    breaks: list[int]
    """The positions in :attr:`pieces` (increasing) where a new line starts: every line
    but the first."""
    wide: list[int]
    """The positions in :attr:`pieces` (increasing) of the glyphs after a wide gap
    (:data:`~.rules.WIDE_GAP`): where a line may split into pieces set apart."""
    wide_widths: Sequence[float] = ()
    """Each wide gap's width along the line (user space), parallel to :attr:`wide`."""

    def text(self) -> str:
        """The reading text: the pieces joined, lines finished (:func:`~.rules.finish_text`)."""
        return finish_text("".join(self.pieces))


def numbers_tuple(values: Sequence[float]) -> tuple[float, ...]:
    """A run's numbers (``starts``, ``advances``, ``pens``) as the tuple the interpreter
    records them in, that very object (another sequence, as a plugin may record, copied into
    one). For compiled loops: a local typed as a tuple is indexed directly, where a
    ``Sequence`` goes through the sequence protocol with its index boxed as an integer
    object, about three times the instructions per glyph."""
    return values if type(values) is tuple else tuple(values)
