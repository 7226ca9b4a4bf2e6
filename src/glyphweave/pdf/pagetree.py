"""The page tree walked by glyphweave itself, for files whose tree qpdf refuses (§7.7.3).

qpdf lists a document's pages by walking its page tree recursively and stops at the first
loop (a /Kids entry that leads back to an ancestor) with an error, and at a tree thousands
of levels deep; the whole file then failed to open, where pdftotext reads the text of every
page. This walk is iterative (any depth costs no stack), visits each node once (a loop or a
node listed twice is skipped with a warning, keeping the pages before and after it), and
pushes the attributes a page inherits from its ancestors (§7.7.3.4: /Resources, /MediaBox,
/CropBox, /Rotate) down onto each page, as qpdf does when it opens a file, so the rest of
glyphweave reads a page the same way whichever walk listed it.
"""

from __future__ import annotations

from typing import Any

import pikepdf

__all__ = ["INHERITABLE", "walk_page_tree"]

INHERITABLE = ("/Resources", "/MediaBox", "/CropBox", "/Rotate")
"""The page attributes a /Pages node passes down to the pages below it (§7.7.3.4)."""


def walk_page_tree(pdf: pikepdf.Pdf, warnings: list[str], max_nodes: int = 10_000_000) -> list[pikepdf.Dictionary]:
    """The page dictionaries of ``pdf`` in page order; what was skipped is said in
    ``warnings``. At most ``max_nodes`` nodes are visited (the tree cannot have more nodes
    than the file has objects, so this only bounds a file that lies about that)."""
    root = pdf.Root.get("/Pages")
    pages: list[pikepdf.Dictionary] = []
    seen: set[tuple[int, int]] = set()
    skipped = 0
    # Depth-first, children in order: a stack of (node, what it inherits), pushed in reverse.
    stack: list[tuple[Any, dict[str, Any]]] = [(root, {})]
    visited = 0
    while stack:
        node, inherited = stack.pop()
        visited += 1
        if visited > max_nodes:
            warnings.append(f"page tree: more than {max_nodes:,} nodes; the rest is not read")
            break
        if not isinstance(node, pikepdf.Dictionary):
            skipped += 1
            continue
        if node.is_indirect:
            key = node.objgen
            if key in seen:
                warnings.append(f"page tree: object {key[0]} {key[1]} R is reached twice (a loop); "
                                "read once")
                continue
            seen.add(key)
        kids = node.get("/Kids")
        if node.get("/Type") == pikepdf.Name.Page or not isinstance(kids, pikepdf.Array):
            _inherit(node, inherited)
            pages.append(node)
            continue
        passed = dict(inherited)
        for name in INHERITABLE:
            value = node.get(name)
            if value is not None:
                passed[name] = value
        stack.extend((kid, passed) for kid in reversed(list(kids)))
    if skipped:
        warnings.append(f"page tree: {skipped} entr{'y is' if skipped == 1 else 'ies are'} not a page "
                        "or a node (unreadable objects); skipped")
    return pages


def _inherit(page: pikepdf.Dictionary, inherited: dict[str, Any]) -> None:
    for name, value in inherited.items():
        if name not in page:
            page[name] = value
