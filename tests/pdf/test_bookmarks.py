"""Outlines (glyphweave.pdf.outline): titles, levels and pages, through every kind of
destination, and loops, depth and size bounded."""

from __future__ import annotations

from pathlib import Path

import pikepdf
import pytest

import glyphweave
from glyphweave.pdf import outline as outline_module
from glyphweave.pdf.outline import OutlineEntry, read_outline


def _book(pages: int = 4) -> pikepdf.Pdf:
    pdf = pikepdf.new()
    for _ in range(pages):
        pdf.add_blank_page()
    return pdf


def _items(pdf: pikepdf.Pdf, specs: list[dict[str, object]]) -> list[pikepdf.Dictionary]:
    """Indirect outline items, chained as siblings (/Next), under a new /Outlines root."""
    items = [pdf.make_indirect(pikepdf.Dictionary(spec)) for spec in specs]
    for a, b in zip(items, items[1:], strict=False):
        a.Next = b
    pdf.Root.Outlines = pdf.make_indirect(pikepdf.Dictionary(Type=pikepdf.Name.Outlines, First=items[0]))
    return items


def _read(pdf: pikepdf.Pdf) -> tuple[list[OutlineEntry], list[str]]:
    said: list[str] = []
    return read_outline(pdf, said.append), said


def test_every_kind_of_destination():
    pdf = _book()
    page = [p.obj for p in pdf.pages]
    pdf.Root.Dests = pikepdf.Dictionary(old=pikepdf.Array([page[1], pikepdf.Name.Fit]))
    tree = pikepdf.NameTree.new(pdf)
    tree["intro"] = pikepdf.Array([page[2], pikepdf.Name.XYZ, 0, 700, 0])
    tree["wrapped"] = pikepdf.Dictionary(D=pikepdf.Array([page[3], pikepdf.Name.Fit]))
    pdf.Root.Names = pikepdf.Dictionary(Dests=tree.obj)
    _items(pdf, [
        {"/Title": pikepdf.String("Explicit"), "/Dest": pikepdf.Array([page[0], pikepdf.Name.Fit])},
        {"/Title": pikepdf.String("Named (1.1)"), "/Dest": pikepdf.Name("/old")},
        {"/Title": pikepdf.String("Name tree"), "/Dest": pikepdf.String("intro")},
        {"/Title": pikepdf.String("GoTo"), "/A": pikepdf.Dictionary(S=pikepdf.Name.GoTo, D=pikepdf.String("wrapped"))},
        {"/Title": pikepdf.String("A web page"),
         "/A": pikepdf.Dictionary(S=pikepdf.Name.URI, URI=pikepdf.String("https://example.org"))},
        {"/Title": pikepdf.String("Unknown name"), "/Dest": pikepdf.String("nowhere")},
        {"/Title": pikepdf.String("A page number"), "/Dest": pikepdf.Array([2, pikepdf.Name.Fit])},
        {"/Title": pikepdf.String("Null page"), "/Dest": pikepdf.Array([None, pikepdf.Name.Fit])},
    ])
    entries, said = _read(pdf)
    assert [(e.title, e.page) for e in entries] == [
        ("Explicit", 0), ("Named (1.1)", 1), ("Name tree", 2), ("GoTo", 3), ("A web page", None),
        ("Unknown name", None), ("A page number", 2), ("Null page", None)]
    assert {e.level for e in entries} == {1} and said == []


def test_levels_follow_the_tree_in_reading_order():
    pdf = _book()
    page = pdf.pages[0].obj
    top = _items(pdf, [{"/Title": pikepdf.String("1 Chapter")}, {"/Title": pikepdf.String("2 Chapter")}])
    children = [pdf.make_indirect(pikepdf.Dictionary(Title=pikepdf.String(t), Dest=pikepdf.Array([page])))
                for t in ("1.1", "1.2")]
    children[0].Next = children[1]
    grandchild = pdf.make_indirect(pikepdf.Dictionary(Title=pikepdf.String("1.1.1")))
    children[0].First = grandchild
    top[0].First = children[0]
    entries, _ = _read(pdf)
    assert [(e.title, e.level) for e in entries] == [
        ("1 Chapter", 1), ("1.1", 2), ("1.1.1", 3), ("1.2", 2), ("2 Chapter", 1)]


def test_a_loop_ends_the_walk_with_a_warning():
    pdf = _book()
    items = _items(pdf, [{"/Title": pikepdf.String("a")}, {"/Title": pikepdf.String("b")}])
    items[1].Next = items[0]  # b -> a -> b ...
    items[0].First = items[0]  # and a is its own child
    entries, said = _read(pdf)
    assert [e.title for e in entries] == ["a", "b"]
    assert len(said) == 1 and "loop" in said[0]


def test_depth_and_size_are_bounded(monkeypatch: pytest.MonkeyPatch):
    pdf = _book(1)
    chain = [pdf.make_indirect(pikepdf.Dictionary(Title=pikepdf.String(str(i)))) for i in range(10)]
    for parent, child in zip(chain, chain[1:], strict=False):
        parent.First = child
    pdf.Root.Outlines = pdf.make_indirect(pikepdf.Dictionary(First=chain[0]))
    monkeypatch.setattr(outline_module, "DEPTH_MAX", 4)
    entries, said = _read(pdf)
    assert [e.level for e in entries] == [1, 2, 3, 4] and "deeper than 4" in said[0]
    monkeypatch.setattr(outline_module, "DEPTH_MAX", 64)
    monkeypatch.setattr(outline_module, "ENTRIES_MAX", 3)
    entries, said = _read(pdf)
    assert len(entries) == 3 and "longer than 3" in said[0]


def test_titles_are_cleaned_and_odd_items_skipped():
    pdf = _book(1)
    _items(pdf, [{"/Title": pikepdf.String("  Two\nlines\x00 ")}, {"/Title": 7}])
    pdf.Root.Outlines.First.Next.Next = pikepdf.Array([1])  # not an item: the walk ends
    entries, said = _read(pdf)
    assert [e.title for e in entries] == ["Two lines", ""] and said == []


def test_no_outline():
    assert _read(_book(1)) == ([], [])


def test_the_document_gives_its_outline_and_labels(tmp_path: Path):
    pdf = _book(5)
    _items(pdf, [{"/Title": pikepdf.String("Start"), "/Dest": pikepdf.Array([pdf.pages[2].obj])}])
    pdf.Root.PageLabels = pikepdf.Dictionary(Nums=pikepdf.Array([
        0, pikepdf.Dictionary(S=pikepdf.Name.r), 2, pikepdf.Dictionary(S=pikepdf.Name.D),
        4, pikepdf.Dictionary(P=pikepdf.String("A-"), S=pikepdf.Name.D, St=7)]))
    path = tmp_path / "book.pdf"
    pdf.save(path)
    with glyphweave.open(path) as doc:
        assert doc.outline == [OutlineEntry(title="Start", level=1, page=2)]
        assert doc.page_labels == ["i", "ii", "1", "2", "A-7"]
        assert [page.label for page in doc.pages] == ["i", "ii", "1", "2", "A-7"]
    plain = tmp_path / "plain.pdf"
    _book(2).save(plain)
    with glyphweave.open(plain) as doc:
        assert doc.outline == [] and doc.page_labels is None and doc.pages[1].label is None
