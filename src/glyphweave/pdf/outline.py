"""A document's outline (bookmarks, ISO 32000-1 §12.3.3): titles, their levels, and the page
each one goes to.

An outline item goes to its page through ``/Dest`` or a GoTo action's ``/D`` (§12.6.4.2):
an explicit destination (an array whose first item is the page), or a name looked up in
the catalog's ``/Dests`` dictionary (PDF 1.1) or its ``/Names /Dests`` name tree (§7.9.6),
whose value is such an array or a dictionary holding one under ``/D``. An item whose
target cannot be found (another file, a URI, a page that is not in the document) has no
page.

The outline is untrusted input: items are walked with a set of the objects already met (a
``/Next`` or ``/First`` loop ends the walk there), at most :data:`ENTRIES_MAX` items and
:data:`DEPTH_MAX` levels are read, and a title is cut at :data:`TITLE_MAX` characters.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs
import pikepdf

from glyphweave.pdf.interpreter import _text_string

__all__ = ["OutlineEntry", "read_outline"]

ENTRIES_MAX = 100_000
"""Outline items read at most (a book's table of contents has hundreds)."""
DEPTH_MAX = 64
"""Levels read at most."""
TITLE_MAX = 1_000
"""Characters kept of a title."""
_LOOKUPS_MAX = 64
"""Named destinations followed in a chain at most (a name whose value names another...)."""

Warn = Callable[[str], None]


@attrs.frozen
class OutlineEntry:
    """One bookmark."""

    title: str
    level: int
    """1 for the outline's top items, 2 for their children, and so on."""
    page: int | None
    """The page it goes to, 0-based as :attr:`glyphweave.Page.number`; None when it goes
    nowhere in this document."""


def read_outline(pdf: pikepdf.Pdf, warn: Warn) -> list[OutlineEntry]:
    """``pdf``'s outline items in reading order (each item, then its children). Never
    raises on a malformed outline: what cannot be read is left out, and said through
    ``warn`` once."""
    try:
        root = pdf.Root.get("/Outlines")
    except pikepdf.PdfError:
        return []
    if not isinstance(root, pikepdf.Dictionary):
        return []
    reader = _Reader(pdf, warn)
    reader.walk(root.get("/First"), 1)
    return reader.entries


class _Reader:
    def __init__(self, pdf: pikepdf.Pdf, warn: Warn) -> None:
        self.pdf = pdf
        self.warn = warn
        self.entries: list[OutlineEntry] = []
        self.seen: set[tuple[int, int]] = set()
        self._pages: dict[tuple[int, int], int] | None = None
        self._warned = False

    def _say(self, message: str) -> None:
        if not self._warned:
            self._warned = True
            self.warn(message)

    def walk(self, first: Any, level: int) -> None:
        """Read ``first`` and its siblings at ``level``, each followed by its children (an
        explicit stack: a deep outline never reaches Python's recursion limit)."""
        stack: list[tuple[Any, int]] = [(first, level)]
        while stack:
            item, depth = stack.pop()
            if not isinstance(item, pikepdf.Dictionary):
                continue
            if item.is_indirect:
                if item.objgen in self.seen:
                    self._say("outline items form a loop; the outline is read up to it")
                    continue
                self.seen.add(item.objgen)
            if len(self.entries) >= ENTRIES_MAX:
                self._say(f"outline longer than {ENTRIES_MAX:,} items; the rest is not read")
                return
            self.entries.append(OutlineEntry(title=_title(item.get("/Title")), level=depth, page=self._page(item)))
            # The next sibling is read after this item's children: pushed first.
            stack.append((item.get("/Next"), depth))
            if depth < DEPTH_MAX:
                stack.append((item.get("/First"), depth + 1))
            elif item.get("/First") is not None:
                self._say(f"outline deeper than {DEPTH_MAX} levels; deeper items are not read")

    def _page(self, item: pikepdf.Dictionary) -> int | None:
        target = item.get("/Dest")
        if target is None:
            action = item.get("/A")
            if isinstance(action, pikepdf.Dictionary) and action.get("/S") == pikepdf.Name.GoTo:
                target = action.get("/D")
        try:
            return self._destination_page(target)
        except (pikepdf.PdfError, ValueError, TypeError, KeyError, RecursionError):
            return None

    def _destination_page(self, target: Any) -> int | None:
        for _ in range(_LOOKUPS_MAX):
            if isinstance(target, pikepdf.Dictionary):  # a named destination's value: {/D [...]}
                target = target.get("/D")
            elif isinstance(target, pikepdf.Name):
                dests = self.pdf.Root.get("/Dests")
                target = dests.get(target) if isinstance(dests, pikepdf.Dictionary) else None
            elif isinstance(target, pikepdf.String):
                target = self._named(bytes(target))
            elif isinstance(target, pikepdf.Array):
                return self._array_page(target)
            else:
                return None
        return None

    def _named(self, name: bytes) -> Any:
        names = self.pdf.Root.get("/Names")
        tree = names.get("/Dests") if isinstance(names, pikepdf.Dictionary) else None
        if not isinstance(tree, pikepdf.Dictionary):
            return None
        found = pikepdf.NameTree(tree).get(name.decode("latin-1"))
        return found

    def _array_page(self, dest: pikepdf.Array) -> int | None:
        if len(dest) == 0:
            return None
        page = dest[0]
        if isinstance(page, pikepdf.Dictionary) and page.is_indirect:
            return self.pages().get(page.objgen)
        if isinstance(page, int) and 0 <= int(page) < len(self.pdf.pages):
            return int(page)  # a page number where a reference belongs: some producers write one
        return None

    def pages(self) -> dict[tuple[int, int], int]:
        """Each page object's index, built on the first destination."""
        if self._pages is None:
            self._pages = {page.obj.objgen: i for i, page in enumerate(self.pdf.pages)}
        return self._pages


def _title(value: Any) -> str:
    return " ".join((_text_string(value) or "").replace("\x00", "").split())[:TITLE_MAX]
