"""The structure assembler on tagged PDFs (rules: assembly): the tree's order, blocks,
tables, lists, replacement texts, artifacts, the fallback with its reason, and the API.

The tagged files are built here with pikepdf (:class:`Tagged`): a content stream with
``/P <</MCID n>> BDC ... EMC`` and ``/Artifact BMC ... EMC``, a /StructTreeRoot with /K, a
/ParentTree and each page's /StructParents, and /MarkInfo /Marked true.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import pikepdf
import pytest
from pikepdf import Array, Dictionary, Name

import glyphweave
from glyphweave import api
from glyphweave.cli import main
from glyphweave.stats import PageStats
from glyphweave.testing.pdfs import Page, form, make_pdf


# --------------------------------------------------------------------------- building tagged files
def mc(mcid: int, text: str, x: float = 72, y: float = 700, tag: str = "P") -> bytes:
    """``text`` at (x, y) in marked content with ``mcid`` (12 pt, every glyph 6 pt wide)."""
    return f"/{tag} <</MCID {mcid}>> BDC BT /F1 12 Tf 1 0 0 1 {x:g} {y:g} Tm ({text}) Tj ET EMC\n".encode()


def artifact(text: str, x: float = 72, y: float = 700) -> bytes:
    return f"/Artifact BMC BT /F1 12 Tf 1 0 0 1 {x:g} {y:g} Tm ({text}) Tj ET EMC\n".encode()


def plain(text: str, x: float = 72, y: float = 700) -> bytes:
    """Text in no marked content at all."""
    return f"BT /F1 12 Tf 1 0 0 1 {x:g} {y:g} Tm ({text}) Tj ET\n".encode()


class Tagged:
    """A PDF (``make_pdf(content, ...)``, more pages from ``pages``) given a structure tree.

    ``el`` makes a structure element (indirect, /Pg the first page unless ``pg`` says
    otherwise or None), its kids MCIDs, MCR/OBJR dictionaries or other elements, whose /P
    it sets. ``save`` puts the top elements under the /StructTreeRoot and writes the file.
    """

    def __init__(self, content: bytes, *, pages: Sequence[bytes] = (), **kwargs: Any) -> None:
        data = make_pdf(content, extra_pages=[Page(p) for p in pages], **kwargs)
        self.pdf = pikepdf.open(io.BytesIO(data))
        self.root = self.pdf.make_indirect(Dictionary(Type=Name.StructTreeRoot))

    def page(self, index: int = 0) -> pikepdf.Dictionary:
        return self.pdf.pages[index].obj

    def el(self, s: str, *kids: Any, pg: int | None = 0, **entries: Any) -> pikepdf.Dictionary:
        elem = self.pdf.make_indirect(Dictionary(Type=Name.StructElem, S=Name("/" + s)))
        if pg is not None:
            elem.Pg = self.page(pg)
        for key, value in entries.items():
            elem["/" + key] = pikepdf.String(value) if isinstance(value, str) else value
        elem.K = Array([_adopt(kid, elem) for kid in kids])
        return elem

    def mcr(self, mcid: int, *, pg: int | None = None, stm: Any = None) -> pikepdf.Dictionary:
        ref = Dictionary(Type=Name.MCR, MCID=mcid)
        if pg is not None:
            ref.Pg = self.page(pg)
        if stm is not None:
            ref.Stm = stm
        return ref

    def save(self, *kids: Any, parent_tree: Mapping[int, Sequence[Any]] | None = None,
             struct_parents: Mapping[int, int] | None = None, role_map: Mapping[str, str] | None = None) -> bytes:
        """The file; every page has /StructParents = its index unless ``struct_parents``
        says which pages have which; the /ParentTree maps those keys as ``parent_tree`` says."""
        root = self.root
        root.K = Array([_adopt(kid, root) for kid in kids])
        if struct_parents is None:
            struct_parents = {i: i for i in range(len(self.pdf.pages))}
        for index, key in struct_parents.items():
            self.page(index).StructParents = key
        nums: list[Any] = []
        for key, elems in sorted((parent_tree or {}).items()):
            nums += [key, Array(list(elems))]
        root.ParentTree = self.pdf.make_indirect(Dictionary(Nums=Array(nums)))
        root.ParentTreeNextKey = len(self.pdf.pages)
        if role_map:
            root.RoleMap = Dictionary({"/" + k: Name("/" + v) for k, v in role_map.items()})
        self.pdf.Root.StructTreeRoot = root
        self.pdf.Root.MarkInfo = Dictionary(Marked=True)
        out = io.BytesIO()
        self.pdf.save(out)
        return out.getvalue()


def _adopt(kid: Any, parent: pikepdf.Dictionary) -> Any:
    if isinstance(kid, pikepdf.Dictionary) and "/S" in kid:
        kid.P = parent
    return kid


def tagged(content: bytes, build: Callable[[Tagged], Sequence[Any]], **kwargs: Any) -> bytes:
    """A one-page tagged file whose tree's top elements ``build`` makes."""
    doc = Tagged(content, **kwargs)
    return doc.save(*build(doc))


def extract(data: bytes, page: int = 0, mode: str | None = None, **kwargs: Any) -> tuple[str, PageStats]:
    with glyphweave.open(data, **kwargs) as doc:
        p = doc.pages[page]
        text = p.text(mode)
        return text, p.stats


def profile(tmp_path: Path, body: str) -> str:
    path = tmp_path / "profile.toml"
    path.write_text('[profile]\nextends = "default"\n' + body)
    return str(path)


# --------------------------------------------------------------------------- 1. the issue's example
# "World" (MCID 1) is painted before "Hello" (MCID 0); Hello stands left of World on one
# line; an untagged footer (no MCID) at the bottom.
HELLO_WORLD = mc(1, "World", 108, 700) + mc(0, "Hello", 72, 700) + plain("Footer", 72, 100)


def test_issue_example_spans_in_one_paragraph_read_on_one_line():
    data = tagged(HELLO_WORLD, lambda t: [t.el("Document", t.el("P", t.el("Span", 0), t.el("Span", 1)))])
    text, stats = extract(data)
    assert text == "Hello World\nFooter\n"
    assert stats.assembly["assembler"] == "auto"
    assert stats.assembly["served"] == "structure"
    assert stats.untagged == len("Footer")
    assert stats.assembly["untagged"] == str(len("Footer"))
    assert stats.warnings == ()


def test_issue_example_two_paragraphs_end_lines():
    data = tagged(HELLO_WORLD, lambda t: [t.el("Document", t.el("P", 0), t.el("P", 1))])
    text, stats = extract(data)
    assert text == "Hello\nWorld\nFooter\n"
    assert stats.assembly["served"] == "structure"
    assert stats.untagged == len("Footer")


def test_issue_example_in_structure_mode_and_cli(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    data = tagged(HELLO_WORLD, lambda t: [t.el("Document", t.el("P", 0), t.el("P", 1))])
    text, stats = extract(data, mode="structure")
    assert text == "Hello\nWorld\nFooter\n"
    assert stats.assembly["assembler"] == "structure" and stats.assembly["served"] == "structure"
    path = tmp_path / "hello.pdf"
    path.write_bytes(data)
    assert main(["extract", "--mode", "structure", str(path)]) == 0
    assert capsys.readouterr().out == "Hello\nWorld\nFooter\n\f"


def test_tree_order_wins_over_paint_and_geometry():
    # Painted top-down, the tree reads the lower line first.
    data = tagged(mc(0, "Upper", 72, 700) + mc(1, "Lower", 72, 680),
                  lambda t: [t.el("Document", t.el("P", 1), t.el("P", 0))])
    assert extract(data)[0] == "Lower\nUpper\n"


# --------------------------------------------------------------------------- 2. blocks, tables, lists, replacements
def test_block_elements_end_lines_even_on_one_baseline():
    content = mc(0, "Left", 72, 700) + mc(1, "Right", 300, 700)
    assert extract(tagged(content, lambda t: [t.el("Document", t.el("H1", 0), t.el("P", 1))]))[0] == "Left\nRight\n"
    # Inline elements in one block leave it to the reading rules.
    data = tagged(content, lambda t: [t.el("Document", t.el("P", t.el("Span", 0), t.el("Link", 1)))])
    assert extract(data)[0] == "Left Right\n"


def test_table_row_cells_share_a_line():
    # Cells painted column by column and on different baselines within a row.
    content = (mc(0, "Name", 72, 700) + mc(2, "Ann", 72, 680) + mc(1, "Age", 200, 703) + mc(3, "30", 200, 677)
               + mc(4, "Total", 72, 600))

    def build(t: Tagged) -> list[Any]:
        table = t.el("Table", t.el("TR", t.el("TH", 0), t.el("TH", 1)), t.el("TR", t.el("TD", 2), t.el("TD", 3)))
        return [t.el("Document", table, t.el("P", 4))]

    text, stats = extract(tagged(content, build))
    assert text == "Name Age\nAnn 30\nTotal\n"
    assert stats.assembly["served"] == "structure"


def test_table_cell_with_paragraphs_stays_in_its_row():
    # Two paragraphs stacked in the first cell: the row still reads as one line.
    content = mc(0, "A", 72, 700) + mc(1, "B", 72, 680) + mc(2, "C", 300, 700)

    def build(t: Tagged) -> list[Any]:
        return [t.el("Table", t.el("TR", t.el("TD", t.el("P", 0), t.el("P", 1)), t.el("TD", 2)))]

    assert extract(tagged(content, build))[0] == "A B C\n"


def test_list_label_and_body_share_a_line():
    content = mc(0, "1.", 72, 700) + mc(1, "First", 90, 700) + mc(2, "2.", 72, 680) + mc(3, "Second", 90, 680)

    def build(t: Tagged) -> list[Any]:
        items = [t.el("LI", t.el("Lbl", 0), t.el("LBody", 1)), t.el("LI", t.el("Lbl", 2), t.el("LBody", 3))]
        return [t.el("Document", t.el("L", *items))]

    assert extract(tagged(content, build))[0] == "1. First\n2. Second\n"


def test_actual_text_replaces_an_element_content():
    content = mc(0, "Intro", 72, 700) + mc(1, "xyz", 72, 680) + mc(2, "End", 72, 660)
    data = tagged(content, lambda t: [
        t.el("Document", t.el("P", 0), t.el("P", 1, ActualText="Replaced"), t.el("P", 2))])
    text, stats = extract(data)
    assert text == "Intro\nReplaced\nEnd\n"
    assert "xyz" not in text
    assert stats.assembly["served"] == "structure" and stats.untagged == 0


def test_actual_text_of_an_inline_element_keeps_the_word_space_before_it():
    content = mc(0, "Intro", 72, 700) + mc(1, "xyz", 120, 700) + mc(2, "tail", 160, 700)
    data = tagged(content, lambda t: [t.el("P", 0, t.el("Span", 1, ActualText="Replaced"), 2)])
    assert extract(data)[0] == "Intro Replaced tail\n"


def test_actual_text_over_nested_elements_replaces_all_of_them():
    content = mc(0, "a", 72, 700) + mc(1, "b", 90, 700) + mc(2, "After", 72, 680)
    data = tagged(content, lambda t: [
        t.el("Formula", t.el("Span", 0), t.el("Span", 1), ActualText="E=mc2"), t.el("P", 2)])
    assert extract(data)[0] == "E=mc2\nAfter\n"


FIGURE = mc(0, "Before", 72, 700) + mc(1, "After", 72, 600)


def _figure(t: Tagged) -> list[Any]:
    return [t.el("Document", t.el("P", 0), t.el("Figure", Alt="A cat"), t.el("P", 1))]


def test_figure_alt_left_out_by_default():
    data = tagged(FIGURE, _figure)
    assert extract(data)[0] == "Before\nAfter\n"
    assert extract(data, mode="structure")[0] == "Before\nAfter\n"


@pytest.mark.parametrize("body", [
    'assembler = "structure"\n[options.structure]\nalt = true\n',
    "[options.auto]\nalt = true\n",
])
def test_figure_alt_with_the_alt_option(tmp_path: Path, body: str):
    text, stats = extract(tagged(FIGURE, _figure), profile=profile(tmp_path, body))
    assert text == "Before\nA cat\nAfter\n"
    assert stats.assembly["served"] == "structure"


# --------------------------------------------------------------------------- 3. artifacts
# Painted first: a footer artifact at the bottom, a header artifact at the top.
ARTIFACTS = (artifact("Footer", 72, 50) + artifact("Header", 72, 760) + mc(0, "Body", 72, 700)
             + mc(1, "More", 72, 680))


def _body(t: Tagged) -> list[Any]:
    return [t.el("Document", t.el("P", 0), t.el("P", 1))]


@pytest.mark.parametrize(("mode", "expected"), [
    ("keep", "Header\nBody\nMore\nFooter\n"),
    ("append", "Body\nMore\nHeader\nFooter\n"),
    ("drop", "Body\nMore\n"),
])
def test_artifacts_option(tmp_path: Path, mode: str, expected: str):
    text, stats = extract(tagged(ARTIFACTS, _body), profile=profile(tmp_path, f'[options.auto]\nartifacts = "{mode}"\n'))
    assert text == expected
    assert stats.assembly["served"] == "structure"
    assert stats.assembly["untagged"] == "0"  # artifacts are not untagged content


def test_artifacts_kept_where_a_reader_sees_them_by_default():
    assert extract(tagged(ARTIFACTS, _body))[0] == "Header\nBody\nMore\nFooter\n"
    assert extract(tagged(ARTIFACTS, _body), mode="structure")[0] == "Header\nBody\nMore\nFooter\n"


def test_artifacts_do_not_count_against_coverage():
    # Far more artifact glyphs than tagged ones: still usable.
    content = artifact("A long running header of the document", 72, 760) + mc(0, "Hi", 72, 700)
    with glyphweave.open(tagged(content, lambda t: [t.el("P", 0)])) as doc:
        found = doc.pages[0].structure()
        assert found.usable and found.share == 1.0 and found.artifacts > found.referenced


# --------------------------------------------------------------------------- 3b. notes
# A paragraph whose footnote is tagged right after its mark (as typst tags it) and painted
# at the foot of the page.
FOOTNOTE = (mc(0, "The date is set", 72, 700) + mc(1, "1", 162, 705) + mc(3, "and the hall is booked.", 72, 686)
            + mc(2, "1 The abbey confirmed it.", 72, 80))


def _footnote(t: Tagged, kind: str = "Note") -> list[Any]:
    return [t.el("Document", t.el("P", 0, t.el("Lbl", 1), t.el(kind, 2), 3), t.el("P", 4))]


@pytest.mark.parametrize("kind", ["Note", "FENote"])
def test_a_footnote_tagged_at_its_mark_is_read_after_the_body(kind: str):
    content = FOOTNOTE + mc(4, "A second paragraph.", 72, 660)
    text, stats = extract(tagged(content, lambda t: _footnote(t, kind)))
    assert text == "The date is set1\nand the hall is booked.\nA second paragraph.\n1 The abbey confirmed it.\n"
    assert stats.assembly["notes"] == "1 note(s) at the foot of the page read after the body"


def test_a_note_nested_in_paragraphs_moves_whole():
    content = FOOTNOTE + mc(4, "A second paragraph.", 72, 660) + mc(5, "Its second line.", 72, 66)
    data = tagged(content, lambda t: [t.el("Document", t.el("P", 0, t.el("Lbl", 1),
                                                              t.el("Note", t.el("P", 2), t.el("P", 5)), 3),
                                            t.el("P", 4))])
    assert extract(data)[0].splitlines()[-2:] == ["1 The abbey confirmed it.", "Its second line."]


def test_a_note_beside_the_text_keeps_its_place():
    # A margin note, level with the text after it: the tree's order stands.
    content = (mc(0, "The date is set", 72, 700) + mc(1, "1", 162, 705) + mc(2, "margin note", 400, 690)
               + mc(3, "and the hall is booked.", 72, 686) + mc(4, "A second paragraph.", 72, 660))
    text, stats = extract(tagged(content, _footnote))
    assert text.splitlines()[1] == "margin note"
    assert "notes" not in stats.assembly


# --------------------------------------------------------------------------- 3c. floats
# Two columns of two four-line paragraphs each; a pull quote tagged after the first paragraph
# (where its source put it) and set at the foot of the page, across both columns.
def _paragraph(first_mcid: int, x: float, y: float) -> bytes:
    return b"".join(mc(first_mcid + k, f"Line {k + 1} of a paragraph.", x, y - 14 * k) for k in range(4))


COLUMNS = _paragraph(0, 72, 700) + _paragraph(4, 72, 640) + _paragraph(8, 320, 700) + _paragraph(12, 320, 640)
QUOTE = mc(16, "A pull quote set across both of the columns", 100, 100)


def _columns_tree(t: Tagged, quote_after: int | None = 0) -> list[Any]:
    paragraphs = [t.el("P", *range(first, first + 4)) for first in (0, 4, 8, 12)]
    if quote_after is not None:
        paragraphs.insert(quote_after + 1, t.el("P", 16))
    return [t.el("Document", *paragraphs)]


def test_a_float_at_the_foot_across_the_columns_is_read_after_them(tmp_path):
    data = tagged(COLUMNS + QUOTE, _columns_tree)
    text, stats = extract(data)
    assert text.splitlines()[-1] == "A pull quote set across both of the columns"
    assert stats.assembly["floats"] == "1 float(s) at the foot of the page read after the body"
    kept, _ = extract(data, profile=profile(tmp_path, "[options.auto]\nfloats = false\n"))
    assert kept.splitlines()[4] == "A pull quote set across both of the columns"


def test_the_foot_of_one_column_keeps_its_place():
    # the left column runs lower than the right one: its last lines are below all that follows
    # them, but beside none of it
    content = COLUMNS + mc(16, "Left three.", 72, 100)
    text, stats = extract(tagged(content, lambda t: _columns_tree(t, quote_after=1)))
    assert text.splitlines()[8] == "Left three."
    assert "floats" not in stats.assembly


def test_a_float_where_the_column_does_not_go_on_keeps_its_place():
    # what the tree reads after the quote is not right below what it reads before it (the
    # right column's top): the page's last lines, then a figure's labels, not a float
    text, stats = extract(tagged(COLUMNS + QUOTE, lambda t: _columns_tree(t, quote_after=1)))
    assert text.splitlines()[8] == "A pull quote set across both of the columns"
    assert "floats" not in stats.assembly


# --------------------------------------------------------------------------- 4. fallback, with its reason
def _untagged() -> bytes:
    return make_pdf(plain("Plain", 72, 700) + plain("Text", 72, 680))


def _page_not_in_tree() -> bytes:
    # The tree knows page 1 only; page 2 has marked content but no /StructParents.
    doc = Tagged(mc(0, "One", 72, 700), pages=[mc(0, "Two", 72, 700) + mc(1, "Lines", 72, 680)])
    return doc.save(doc.el("P", 0), struct_parents={0: 0})


def _never_referenced() -> bytes:
    return tagged(mc(5, "Orphan", 72, 700) + mc(6, "Text", 72, 680), lambda t: [t.el("P", 0)])


def _low_coverage() -> bytes:
    return tagged(mc(0, "Hi", 72, 700) + plain("A much longer untagged paragraph", 72, 680),
                  lambda t: [t.el("P", 0)])


FALLBACKS = {
    "untagged": (_untagged, -1, "no structure tree", "Plain\nText\n"),
    "page not in tree": (_page_not_in_tree, 1, "no usable structure: the page is not in the structure tree",
                         "Two\nLines\n"),
    "never referenced": (_never_referenced, 0, "no usable structure: marked content that the tree never references",
                         "Orphan\nText\n"),
    "low coverage": (_low_coverage, 0, "no usable structure: the tree covers 6% of the page's glyphs (below 50%)",
                     "Hi\nA much longer untagged paragraph\n"),
}


@pytest.mark.parametrize("case", FALLBACKS)
@pytest.mark.parametrize("mode", [None, "structure"])
def test_fallback_says_why(case: str, mode: str | None):
    build, page, reason, expected = FALLBACKS[case]
    text, stats = extract(build(), page=page, mode=mode)
    assert text == expected
    assert stats.assembly["assembler"] == (mode or "auto")
    assert stats.assembly["served"] != "structure"
    assert stats.assembly["reason"].startswith(reason + "; ")  # then the geometric reason
    assert "untagged" not in stats.assembly  # the structure did not count a tail
    assert stats.warnings == ()


def test_fallback_for_low_coverage_reports_the_share():
    stats = extract(_low_coverage())[1]
    assert float(stats.assembly["coverage"]) == pytest.approx(2 / 34, abs=1e-3)
    assert "covers" in stats.assembly["reason"]


def test_coverage_option_lowers_the_bar(tmp_path: Path):
    text, stats = extract(_low_coverage(), profile=profile(tmp_path, "[options.auto]\ncoverage = 0.05\n"))
    assert stats.assembly["served"] == "structure"
    assert text == "Hi\nA much longer untagged paragraph\n"
    assert stats.untagged == len("A much longer untagged paragraph")


def test_structure_can_be_switched_off_in_auto(tmp_path: Path):
    data = tagged(mc(0, "Upper", 72, 700) + mc(1, "Lower", 72, 680), lambda t: [t.el("P", 1), t.el("P", 0)])
    text, stats = extract(data, profile=profile(tmp_path, "[options.auto]\nstructure = false\n"))
    assert text == "Upper\nLower\n"
    assert stats.assembly["served"] != "structure"


@pytest.mark.parametrize("case", FALLBACKS)
def test_fallback_exits_zero_on_the_command_line(case: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    build, page, _, expected = FALLBACKS[case]
    path = tmp_path / "file.pdf"
    path.write_bytes(build())
    pages = str(page + 1) if page >= 0 else "1"
    assert main(["extract", "--pages", pages, "--strict", str(path)]) == 0
    assert capsys.readouterr().out == expected + "\f"
    assert main(["extract", "--mode", "structure", "--pages", pages, str(path)]) == 0
    assert capsys.readouterr().out == expected + "\f"


# --------------------------------------------------------------------------- 5. finding the content
def test_pg_inherited_from_an_ancestor():
    doc = Tagged(mc(0, "First", 72, 700), pages=[mc(1, "Beta", 72, 700) + mc(0, "Alpha", 72, 680)])
    data = doc.save(doc.el("P", 0), doc.el("Sect", doc.el("P", 0, pg=None), doc.el("P", 1, pg=None), pg=1))
    assert extract(data, page=0)[0] == "First\n"
    text, stats = extract(data, page=1)
    assert text == "Alpha\nBeta\n"
    assert stats.assembly["served"] == "structure"


def test_page_from_the_parent_tree_where_no_element_has_pg():
    doc = Tagged(mc(1, "Beta", 72, 700) + mc(0, "Alpha", 72, 680))
    p0, p1 = doc.el("P", 0, pg=None), doc.el("P", 1, pg=None)
    data = doc.save(doc.el("Document", p0, p1, pg=None), parent_tree={0: [p0, p1]})
    text, stats = extract(data)
    assert text == "Alpha\nBeta\n"
    assert stats.assembly["served"] == "structure"


def test_marked_content_reference_with_its_own_pg():
    # An element of page 1 whose MCR names page 2; both pages use MCID 0.
    doc = Tagged(mc(0, "First", 72, 700) + mc(1, "Extra", 72, 680), pages=[mc(0, "Second", 72, 700)])
    data = doc.save(doc.el("Document", doc.el("P", 0), doc.el("P", doc.mcr(0, pg=1)), doc.el("P", 1)))
    assert extract(data, page=0)[0] == "First\nExtra\n"
    text, stats = extract(data, page=1)
    assert text == "Second\n"
    assert stats.assembly["served"] == "structure"


def test_object_references_are_skipped():
    doc = Tagged(mc(0, "Link", 72, 700) + mc(1, "text", 110, 700))
    annot = doc.pdf.make_indirect(Dictionary(Type=Name.Annot, Subtype=Name.Link, Rect=Array([72, 700, 100, 712])))
    objr = Dictionary(Type=Name.OBJR, Obj=annot, Pg=doc.page())
    data = doc.save(doc.el("P", doc.el("Link", objr, 0, objr), 1))
    text, stats = extract(data)
    assert text == "Link text\n"
    assert stats.assembly["served"] == "structure" and stats.warnings == ()


def test_role_map_resolves_custom_types():
    content = mc(0, "One", 72, 700) + mc(1, "Two", 110, 700)

    def build(t: Tagged) -> list[Any]:
        return [t.el("Document", t.el("Para", 0), t.el("Para", 1))]

    doc = Tagged(content)
    assert extract(doc.save(*build(doc), role_map={"Para": "P"}))[0] == "One\nTwo\n"
    doc = Tagged(content)  # a chain of roles
    assert extract(doc.save(*build(doc), role_map={"Para": "Body", "Body": "P"}))[0] == "One\nTwo\n"
    doc = Tagged(content)  # unmapped: not a block, so the two share a line
    assert extract(doc.save(*build(doc)))[0] == "One Two\n"


def test_marked_content_in_a_form_xobject_found_by_stm():
    # The page and the form both use MCID 0; the tree reads the form's (drawn lower) first.
    content = mc(0, "Page", 72, 700) + b"/Fm Do\n"
    doc = Tagged(content, xobjects={"Fm": form(mc(0, "Form", 72, 600))})
    fm = doc.page().Resources.XObject.Fm
    data = doc.save(doc.el("Document", doc.el("P", doc.mcr(0, stm=fm)), doc.el("P", 0)))
    text, stats = extract(data)
    assert text == "Form\nPage\n"
    assert stats.assembly["served"] == "structure" and stats.untagged == 0


def test_form_content_without_stm_reference_is_untagged():
    doc = Tagged(mc(0, "Page text", 72, 700) + b"/Fm Do\n", xobjects={"Fm": form(mc(0, "Form", 72, 600))})
    text, stats = extract(doc.save(doc.el("P", 0)))
    assert text == "Page text\nForm\n"
    assert stats.assembly["served"] == "structure"
    assert stats.untagged == len("Form")


def test_form_painted_inside_page_marked_content_belongs_to_it():
    content = b"/P <</MCID 1>> BDC /Fm Do EMC\n" + mc(0, "Page", 72, 700)
    data = tagged(content, lambda t: [t.el("P", 0), t.el("P", 1)], xobjects={"Fm": form(plain("Form", 72, 600))})
    text, stats = extract(data)
    assert text == "Page\nForm\n"
    assert stats.untagged == 0


# --------------------------------------------------------------------------- 6. the API
def test_page_structure_reports_coverage():
    data = tagged(HELLO_WORLD, lambda t: [t.el("Document", t.el("P", 0), t.el("P", 1))])
    with glyphweave.open(data) as doc:
        found = doc.pages[0].structure()
        assert found.usable
        assert found.share == pytest.approx(10 / 16)
        assert found.reason == "the tree covers 62% of the page's glyphs"
        assert (found.referenced, found.untagged, found.artifacts) == (10, 6, 0)
        strict = doc.pages[0].structure(minimum=0.9)
        assert not strict.usable and "below 90%" in strict.reason
    with glyphweave.open(_untagged()) as doc:
        found = doc.pages[0].structure()
        assert (found.usable, found.share, found.reason) == (False, 0.0, "no structure tree")


def test_tree_walked_once_per_document(monkeypatch: pytest.MonkeyPatch):
    calls: list[int] = []
    real = api.read_structure

    def counting(pdf: Any, limits: Any) -> Any:
        calls.append(1)
        return real(pdf, limits)

    monkeypatch.setattr(api, "read_structure", counting)
    doc = Tagged(mc(0, "Page 1", 72, 700), pages=[mc(0, f"Page {n}", 72, 700) for n in range(2, 6)])
    data = doc.save(*(doc.el("P", 0, pg=n) for n in range(5)))
    with glyphweave.open(data) as opened:
        texts = [page.text() for page in opened.pages]
        assert [page.structure().usable for page in opened.pages] == [True] * 5
        assert opened.text().count("Page") == 5
        assert opened.stats.served == {"structure": 5}
    assert texts == [f"Page {n}\n" for n in range(1, 6)]
    assert len(calls) == 1


def test_untagged_document_reads_no_tree_more_than_once(monkeypatch: pytest.MonkeyPatch):
    calls: list[int] = []
    real = api.read_structure
    monkeypatch.setattr(api, "read_structure", lambda pdf, limits: calls.append(1) or real(pdf, limits))
    with glyphweave.open(make_pdf(plain("A"), extra_pages=[Page(plain("B")), Page(plain("C"))])) as doc:
        assert doc.text() == "A\n\fB\n\fC\n\f"
    assert len(calls) == 1


def test_a_formula_inside_a_sentence_stays_in_its_line():
    # typst tags each inline formula as a Formula inside the paragraph: an illustration
    # element, inline by default (its placement), so no line ends around it.
    content = mc(0, "For a coin with", 72, 700) + mc(1, "p = 0.6,", 168, 700) + mc(2, "four tosses", 222, 700)
    data = tagged(content, lambda t: [t.el("Document", t.el("P", 0, t.el("Formula", 1), 2))])
    assert extract(data)[0] == "For a coin with p = 0.6, four tosses\n"
