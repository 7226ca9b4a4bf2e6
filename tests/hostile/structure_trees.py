"""A hostile structure tree (built on demand, never stored): far deeper than any reader walks."""

from __future__ import annotations

import io

import pikepdf
from pikepdf import Array, Dictionary, Name

from glyphweave.testing.pdfs import make_pdf


def deep_structure_tree(levels: int = 100_000) -> bytes:
    """A tagged page of two paragraphs (MCID 0 and 1): the first under the document element,
    the second at the bottom of ``levels`` nested /Div elements."""
    content = (b"/P <</MCID 0>> BDC BT /F1 12 Tf 1 0 0 1 72 700 Tm (Shallow text) Tj ET EMC\n"
               b"/P <</MCID 1>> BDC BT /F1 12 Tf 1 0 0 1 72 680 Tm (Deep text) Tj ET EMC\n")
    pdf = pikepdf.open(io.BytesIO(make_pdf(content)))
    page = pdf.pages[0].obj
    root = pdf.make_indirect(Dictionary(Type=Name.StructTreeRoot))

    def element(kind: str, kid: object) -> pikepdf.Dictionary:
        made = pdf.make_indirect(Dictionary(Type=Name.StructElem, S=Name("/" + kind), Pg=page, K=Array([kid])))
        if isinstance(kid, pikepdf.Dictionary):
            kid.P = made
        return made

    node = element("P", 1)
    for _ in range(levels):
        node = element("Div", node)
    top = pdf.make_indirect(Dictionary(Type=Name.StructElem, S=Name.Document, P=root,
                                       K=Array([element("P", 0), node])))
    for kid in top.K:
        kid.P = top
    root.K = Array([top])
    root.ParentTree = pdf.make_indirect(Dictionary(Nums=Array([])))
    root.ParentTreeNextKey = 1
    page.StructParents = 0
    pdf.Root.StructTreeRoot = root
    pdf.Root.MarkInfo = Dictionary(Marked=True)
    out = io.BytesIO()
    pdf.save(out)
    return out.getvalue()
