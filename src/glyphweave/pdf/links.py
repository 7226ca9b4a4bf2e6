"""A page's links to URIs: each Link annotation (PDF §12.5.6.5) whose action opens a URI
(§12.6.4.8), with its rectangle, for writers that keep links (Markdown's ``[text](uri)``).

Links to a place in the document (a destination, a GoTo action) are left out: they have no
address outside it. Bounded: a page's first :data:`LINKS_MAX` annotations are looked at.
"""

from __future__ import annotations

from typing import Any

import pikepdf

from .annotations import _rect

__all__ = ["LINKS_MAX", "page_links"]

LINKS_MAX = 10_000
"""Annotations looked at per page (a book's index page may hold thousands of links)."""
URI_MAX = 2_000
"""Characters of a URI kept."""


def page_links(page_obj: Any) -> tuple[tuple[float, float, float, float, str], ...]:
    """The URI links of the page (``/Annots``): ``(x0, y0, x1, y1, uri)`` in user space, in
    the order of /Annots; () for a page without any, or whose /Annots is damaged."""
    try:
        annots = page_obj.get("/Annots")
    except Exception:
        return ()
    if not isinstance(annots, pikepdf.Array):
        return ()
    out = []
    for annot in list(annots)[:LINKS_MAX]:
        if not isinstance(annot, pikepdf.Dictionary) or annot.get("/Subtype") != pikepdf.Name.Link:
            continue
        action = annot.get("/A")
        if not isinstance(action, pikepdf.Dictionary) or action.get("/S") != pikepdf.Name.URI:
            continue
        uri = action.get("/URI")
        rect = _rect(annot.get("/Rect"))
        if not isinstance(uri, pikepdf.String) or rect is None:
            continue
        text = bytes(uri).decode("latin-1").strip()[:URI_MAX]
        if text:
            out.append((*rect, text))
    return tuple(out)
