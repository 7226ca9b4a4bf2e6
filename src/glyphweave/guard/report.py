"""Warnings as records: what extraction survived, said so a program can act on it.

A damaged font, a failing plugin or a page cut short by a limit never stops extraction; each
leaves a :class:`WarningRecord`. Its ``kind`` is what a caller branches on (the command line
chooses its exit status from it, a batch counts by it), its ``message`` what a person reads,
worded as it always was, and ``str()`` the line the command line prints.
"""

from __future__ import annotations

from typing import Any

import attrs

KINDS = {
    "file": "the file as a whole: what qpdf repaired as it read it, what the page tree's walk skipped",
    "content": "a page's content: a stream or an operator that could not be read, skipped as viewers do",
    "font": "a font: a program, CMap or encoding that could not be read; its other sources answered",
    "structure": "the structure tree (tagged PDF): damaged parts skipped",
    "component": "a plugin's component failed or answered nonsense; extraction went on without it",
    "limit": "a resource limit (``limit`` names it) cut a page, a stream or the structure tree short",
}
"""Every kind of warning, and what it covers."""


def _known_kind(instance: Any, attribute: Any, value: str) -> None:
    if value not in KINDS:
        raise ValueError(f"unknown warning kind {value!r} (kinds: {', '.join(KINDS)})")


@attrs.frozen(kw_only=True)
class WarningRecord:
    """One warning. (Not named ``Warning``: that would hide Python's own class wherever it
    is imported.)"""

    kind: str = attrs.field(validator=_known_kind)
    """One of :data:`KINDS`."""
    message: str
    """What happened, as the command line words it, without the page."""
    page: int | None = None
    """The page it happened on, 1-based as a viewer counts; None for the file as a whole."""
    source: str = ""
    """What it is about when that is not the page's own content: a font (``font (12, 0)``),
    a component (its name), ``structure tree``, ``qpdf`` or ``page tree``. A warning with a
    source is given once per document, on the first page that met it."""
    limit: str | None = None
    """For ``kind == "limit"``: the :class:`~glyphweave.guard.limits.Limits` field reached
    (``page_content_mb``, ``page_seconds``, ...), or one of the fixed bounds of the reader
    (``operands``: the size of one operand; ``cmap_codes``: the codes of a font's character
    maps)."""

    def __str__(self) -> str:
        return self.message if self.page is None else f"page {self.page}: {self.message}"

    def on_page(self, number: int) -> WarningRecord:
        """This warning, said of page ``number`` (1-based)."""
        return attrs.evolve(self, page=number)

    def to_dict(self) -> dict[str, Any]:
        return attrs.asdict(self)
