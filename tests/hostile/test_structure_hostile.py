"""Hostile structure trees: cycles, lies, depth, size and wrong types end with text, never
an exception, and with a warning where the tree was cut (``structure tree: ...`` in the
statistics of the page the structure served). Sizes are kept so the whole file runs in a
few seconds; a quadratic walk would not.
"""

from __future__ import annotations

import io
from typing import Any

import pikepdf
import pytest
from pikepdf import Array, Dictionary, Name

import glyphweave
from glyphweave.guard.limits import LIMIT
from glyphweave.stats import PageStats
from test_structure import Tagged, extract, mc, plain

TWO_LINES = mc(0, "One", 72, 700) + mc(1, "Two", 72, 680)


def structure_warnings(stats: PageStats) -> list[str]:
    return [w.message for w in stats.warnings if w.source == "structure tree"]


def served_with_warning(stats: PageStats, words: str) -> None:
    assert stats.assembly["served"] == "structure"
    assert any(words in w for w in structure_warnings(stats)), stats.warnings


# --------------------------------------------------------------------------- cycles
def test_element_whose_k_contains_itself_and_its_parent():
    doc = Tagged(TWO_LINES)
    p = doc.el("P", 0)
    top = doc.el("Document", p, doc.el("P", 1))
    p.K.append(p)
    p.K.append(top)
    text, stats = extract(doc.save(top))
    assert text == "One\nTwo\n"
    served_with_warning(stats, "refers to an element twice")


def test_kids_array_that_contains_itself():
    # An indirect /K array holding itself: arrays are not elements, so only the array's
    # own identity can cut the loop.
    doc = Tagged(TWO_LINES)
    kids = doc.pdf.make_indirect(Array([0]))
    kids.append(kids)
    p = doc.el("P")
    p.K = kids
    text, stats = extract(doc.save(doc.el("Document", p, doc.el("P", 1))))
    assert text == "One\nTwo\n"
    served_with_warning(stats, "an array of kids twice")


def test_kids_array_cycle_under_actual_text():
    doc = Tagged(TWO_LINES)
    kids = doc.pdf.make_indirect(Array([0]))
    kids.append(kids)
    p = doc.el("P", ActualText="Said")
    p.K = kids
    text, stats = extract(doc.save(doc.el("Document", p, doc.el("P", 1))))
    assert text == "Said\nTwo\n"
    assert stats.assembly["served"] == "structure"


def test_element_cycle_under_actual_text():
    doc = Tagged(TWO_LINES)
    inner = doc.el("Span", 0)
    outer = doc.el("P", inner, ActualText="Said")
    inner.K.append(outer)
    inner.K.append(inner)
    text, stats = extract(doc.save(doc.el("Document", outer, doc.el("P", 1))))
    assert text == "Said\nTwo\n"
    assert stats.assembly["served"] == "structure"


def test_role_map_loop():
    doc = Tagged(TWO_LINES)
    data = doc.save(doc.el("Para", 0), doc.el("Para", 1), role_map={"Para": "Body", "Body": "Para"})
    text, stats = extract(data)
    assert text == "One\nTwo\n"  # never resolves to a block: the reading rules break the line
    assert stats.assembly["served"] == "structure"


# --------------------------------------------------------------------------- bad references
def test_pg_pointing_to_a_page_not_in_the_document():
    doc = Tagged(TWO_LINES)
    stray = doc.pdf.make_indirect(Dictionary(Type=Name.Page, MediaBox=Array([0, 0, 612, 792])))
    stray_mcr = Dictionary(Type=Name.MCR, MCID=1, Pg=stray)
    data = doc.save(doc.el("Document", doc.el("P", 0), doc.el("P", 1), doc.el("P", 0, pg=None, Pg=stray),
                           doc.el("P", stray_mcr)))
    text, stats = extract(data)
    assert text == "One\nTwo\n"
    served_with_warning(stats, "a page that is not in the document")


def test_mcid_referenced_twice_is_played_once():
    doc = Tagged(TWO_LINES)
    data = doc.save(doc.el("Document", doc.el("P", 0), doc.el("P", 1), doc.el("P", 0), doc.el("P", doc.mcr(1))))
    text, stats = extract(data)
    assert text == "One\nTwo\n"
    assert stats.assembly["served"] == "structure" and stats.untagged == 0


def test_mcid_missing_from_the_content():
    doc = Tagged(TWO_LINES)
    data = doc.save(doc.el("Document", doc.el("P", 7), doc.el("P", 0), doc.el("P", doc.mcr(99)), doc.el("P", 1)))
    text, stats = extract(data)
    assert text == "One\nTwo\n"
    assert stats.assembly["served"] == "structure"


def test_mcr_without_an_mcid():
    doc = Tagged(TWO_LINES)
    bad = Dictionary(Type=Name.MCR, MCID=pikepdf.String("zero"))
    text, stats = extract(doc.save(doc.el("P", bad, 0), doc.el("P", 1)))
    assert text == "One\nTwo\n"
    served_with_warning(stats, "without an MCID")


def test_parent_tree_pointing_to_the_wrong_elements():
    # No element has /Pg: the /ParentTree is the only link, and it names elements that are
    # not in the tree, values of the wrong types, and keys no page has.
    doc = Tagged(mc(1, "Beta", 72, 700) + mc(0, "Alpha", 72, 680))
    p0, p1 = doc.el("P", 0, pg=None), doc.el("P", 1, pg=None)
    other = doc.pdf.make_indirect(Dictionary(Type=Name.StructElem, S=Name.P))
    data = doc.save(doc.el("Document", p0, p1, pg=None),
                    parent_tree={0: [other, 5, pikepdf.String("x"), None], 3: [p0, p1], 9: [p1]})
    text, stats = extract(data)
    assert text == "Beta\nAlpha\n"  # falls back: the tree's content has no page
    assert stats.assembly["served"] != "structure"
    assert stats.assembly["reason"].startswith("no usable structure")


def test_parent_tree_swapped_and_cyclic_kids():
    doc = Tagged(mc(1, "Beta", 72, 700) + mc(0, "Alpha", 72, 680))
    p0, p1 = doc.el("P", 0, pg=None), doc.el("P", 1, pg=None)
    data = doc.save(doc.el("Document", p0, p1, pg=None), parent_tree={0: [p1, p0]})
    pdf = pikepdf.open(io.BytesIO(data))
    tree = pdf.Root.StructTreeRoot.ParentTree
    leaf = pdf.make_indirect(Dictionary(Nums=tree.Nums, Limits=Array([0, 0])))
    del tree["/Nums"]
    tree.Kids = Array([leaf, tree])
    leaf.Kids = Array([tree, "junk", 3])  # a leaf that also claims kids, back to the root
    out = io.BytesIO()
    pdf.save(out)
    text, stats = extract(out.getvalue())
    assert text == "Alpha\nBeta\n"  # the page is the same whichever element the tree names
    assert stats.assembly["served"] == "structure"


# --------------------------------------------------------------------------- size and depth
def test_tree_ten_thousand_levels_deep():
    doc = Tagged(mc(0, "Shallow text here", 72, 700) + mc(1, "Deep", 72, 680))
    node = doc.el("Span", 1)
    for _ in range(10_000):
        node = doc.el("Div", node)
    text, stats = extract(doc.save(doc.el("Document", doc.el("P", 0), node)))
    assert text == "Shallow text here\nDeep\n"  # the deep content comes as the untagged tail
    served_with_warning(stats, f"{LIMIT}structure tree nested deeper than 128")
    assert stats.untagged == len("Deep")


def test_deep_tree_under_a_lower_depth_limit():
    doc = Tagged(TWO_LINES)
    node = doc.el("P", 1)
    for _ in range(20):
        node = doc.el("Div", node)
    data = doc.save(doc.el("P", 0), node)
    text, stats = extract(data)
    assert text == "One\nTwo\n" and not structure_warnings(stats)
    text, stats = extract(data, limits={"structure_depth": 10})
    assert text == "One\nTwo\n"
    served_with_warning(stats, "nested deeper than 10")


def test_a_tree_limit_is_said_when_the_tree_read_is_not_used():
    # Two of three paragraphs lie below the depth limit: the tree covers too little of the
    # page for auto to follow it, and its limit is said all the same (it is why).
    doc = Tagged(mc(0, "One", 72, 700) + mc(1, "Two", 72, 680) + mc(2, "Three", 72, 660))
    deep = [doc.el("P", 1), doc.el("P", 2)]
    for _ in range(20):
        deep = [doc.el("Div", node) for node in deep]
    text, stats = extract(doc.save(doc.el("P", 0), *deep), limits={"structure_depth": 10})
    assert text == "One\nTwo\nThree\n"
    assert stats.assembly["served"] != "structure"
    assert any("nested deeper than 10" in w for w in structure_warnings(stats)), stats.warnings


@pytest.fixture(scope="module")
def huge_tree() -> bytes:
    """200,000 direct Span elements (each naming an MCID the page lacks) between the
    page's two paragraphs."""
    doc = Tagged(mc(0, "Body text", 72, 700) + mc(1, "More", 72, 680))
    spans = Array([Dictionary(S=Name.Span, K=7) for _ in range(200_000)])
    div = doc.el("Div")
    div.K = spans
    return doc.save(doc.el("Document", doc.el("P", 0), div, doc.el("P", 1)))


def test_tree_with_200000_elements(huge_tree: bytes):
    text, stats = extract(huge_tree)
    assert text == "Body text\nMore\n"
    assert stats.assembly["served"] == "structure"
    assert not structure_warnings(stats)


def test_tree_with_200000_elements_under_an_element_limit(huge_tree: bytes):
    text, stats = extract(huge_tree, limits={"structure_elements": 1000})
    assert text == "Body text\nMore\n"  # the paragraph past the limit comes as the untagged tail
    served_with_warning(stats, f"{LIMIT}structure tree larger than 1000 elements")
    assert stats.untagged == len("More")


# --------------------------------------------------------------------------- wrong types
def test_kids_of_wrong_types():
    doc = Tagged(TWO_LINES)
    p = doc.el("P", 0)
    p.K.extend([pikepdf.String("junk"), 1.5, None, True, Name.Foo, Array([None, 1.25, Array([])]),
                Dictionary(), doc.pdf.make_stream(b"stream")])
    top = doc.el("Document", p, pikepdf.String("s"), -3, doc.el("P", 1))
    top.S = 42  # a type that is not a name
    text, stats = extract(doc.save(top))
    assert text == "One\nTwo\n"
    assert stats.assembly["served"] == "structure"


@pytest.mark.parametrize("k", [pikepdf.String("x"), 3.5, None, Name.P, Dictionary(S=Name.P)])
def test_root_kids_of_wrong_types(k: Any):
    doc = Tagged(TWO_LINES)
    data = doc.save()
    pdf = pikepdf.open(io.BytesIO(data))
    if k is None:
        del pdf.Root.StructTreeRoot["/K"]
    else:
        pdf.Root.StructTreeRoot.K = k
    pdf.Root.StructTreeRoot.ParentTree = pikepdf.String("not a tree")
    pdf.Root.StructTreeRoot.RoleMap = Array([1, 2])
    out = io.BytesIO()
    pdf.save(out)
    text, stats = extract(out.getvalue())
    assert text == "One\nTwo\n"
    assert stats.assembly["served"] != "structure"


@pytest.mark.parametrize("root", [pikepdf.String("x"), Array([1]), 7])
def test_struct_tree_root_of_a_wrong_type(root: Any):
    pdf = pikepdf.open(io.BytesIO(Tagged(TWO_LINES).save()))
    pdf.Root.StructTreeRoot = root
    out = io.BytesIO()
    pdf.save(out)
    with glyphweave.open(out.getvalue()) as doc:
        page = doc.pages[0]
        assert page.text() == "One\nTwo\n"
        assert page.stats.assembly["reason"].startswith("no structure tree")
        assert not page.structure().usable


def test_actual_text_and_alt_of_wrong_types():
    doc = Tagged(TWO_LINES + plain("x", 72, 600))
    data = doc.save(doc.el("P", 0, ActualText=5), doc.el("Figure", Alt=Array([1])), doc.el("P", 1))
    text, stats = extract(data)
    assert text.startswith("One\nTwo\n")
    assert stats.assembly["served"] == "structure"
