"""The ``markdown`` assembler, Page.markdown/tables and ``extract --format markdown``: headings,
lists, tables, figures and links from a tagged page's tree; headings from sizes and bold,
lists from markers and tables from an aligned grid on an untagged page, and no table where
there is none."""

from __future__ import annotations

import csv
import io
import os
from pathlib import Path

import pikepdf
import pytest
from pikepdf import Array, Dictionary, Name

import glyphweave
from glyphweave.cli import main
from glyphweave.testing.pdfs import make_pdf, text_at, truetype
from test_structure import Tagged, artifact, mc

SHARED = Path(os.environ.get("GLYPHWEAVE_SHARED") or Path(__file__).resolve().parents[1].parent / "shared")

# Every font here: 600 units a glyph, so a string of n characters at 10 pt is 6n pt wide.
MAPPING = {**{c: chr(c) for c in range(32, 127)}, ord("~"): "\u2022"}  # ~ draws a bullet
FONTS = {"R": truetype(mapping=MAPPING, base_font="ABCDEF+TestSans"),
         "B": truetype(mapping=MAPPING, base_font="ABCDEF+TestSans-Bold"),
         "I": truetype(mapping=MAPPING, base_font="ABCDEF+TestSans-Italic")}


def at(text: str, x: float, y: float, font: str = "R", size: float = 10) -> bytes:
    return text_at(text, x, y, font=font, size=size)


UNTAGGED = b"\n".join([
    at("Quarterly report", 72, 740, size=24),
    at("Plain words then", 72, 700), at("slanted", 72 + 6 * len("Plain words then "), 700, font="I"),
    at("Methods", 72, 660, font="B"),
    at("We measured everything", 72, 630), at("twice over.", 72, 618),
    at("~ first point", 72, 580), at("~ second point", 72, 568),
    at("1. one", 72, 530), at("2. two", 72, 518),
    at("Name", 72, 470), at("Qty", 160, 470), at("Price", 250, 470),
    at("Apple", 72, 458), at("3", 160, 458), at("1.20", 250, 458),
    at("Pear", 72, 446), at("10", 160, 446), at("0.80", 250, 446),
])

UNTAGGED_MARKDOWN = """# Quarterly report

Plain words then *slanted*

## Methods

We measured everything twice over.

- first point
- second point
1. one
2. two

| Name | Qty | Price |
| --- | --- | --- |
| Apple | 3 | 1.20 |
| Pear | 10 | 0.80 |
"""


def _untagged(tmp_path: Path, content: bytes = UNTAGGED) -> Path:
    path = tmp_path / "untagged.pdf"
    path.write_bytes(make_pdf(content, fonts=FONTS))
    return path


def test_an_untagged_page_as_markdown(tmp_path: Path):
    with glyphweave.open(_untagged(tmp_path)) as doc:
        page = doc.pages[0]
        assert page.markdown() == UNTAGGED_MARKDOWN
        assert doc.markdown() == UNTAGGED_MARKDOWN
        assert page.stats.assembly["assembler"] == "markdown"


def test_an_untagged_table_is_data_with_boxes(tmp_path: Path):
    with glyphweave.open(_untagged(tmp_path)) as doc:
        page = doc.pages[0]
        (table,) = page.tables()
        assert table.to_list() == [["Name", "Qty", "Price"], ["Apple", "3", "1.20"], ["Pear", "10", "0.80"]]
        name = table.rows[0][0]
        assert name.x0 == pytest.approx(72) and name.x1 == pytest.approx(72 + 6 * 4)
        assert name.top < 792 - 470 < name.bottom  # y from the top of the page as shown
        assert table.bbox == (72, name.top, pytest.approx(250 + 6 * len("Price")), table.rows[-1][-1].bottom)
        assert page.tables("reading") == []  # an assembler without table data


def test_no_table_where_the_columns_do_not_line_up(tmp_path: Path):
    ragged = b"\n".join([at("Name", 72, 470), at("Qty", 160, 470), at("Price", 250, 470),
                         at("Apple", 72, 458), at("3", 200, 458), at("1.20", 330, 458),
                         at("Pear", 72, 446), at("10", 130, 446), at("0.80", 280, 446)])
    with glyphweave.open(_untagged(tmp_path, ragged)) as doc:
        assert "|" not in doc.pages[0].markdown() and doc.pages[0].tables() == []
    prose = b"\n".join(at(f"Left column line {n} of running prose text", 72, 700 - 12 * n) for n in range(4)) + \
        b"\n".join(at(f"Right column line {n} of running prose", 330, 700 - 12 * n) for n in range(4))
    with glyphweave.open(_untagged(tmp_path, prose)) as doc:
        assert "|" not in doc.pages[0].markdown()  # two columns of prose are not a table


def _tagged_report() -> bytes:
    content = b"".join([
        mc(0, "Report", 72, 740), mc(1, "Intro text", 72, 700),
        mc(2, "1.", 72, 660), mc(3, "First item", 96, 660), mc(4, "2.", 72, 646), mc(5, "Second item", 96, 646),
        mc(6, "Name", 72, 600), mc(7, "Qty", 200, 600), mc(8, "Apple", 72, 586), mc(9, "3", 200, 586),
        mc(10, "See", 72, 540), mc(11, "our site", 102, 540), artifact("Page 1", 300, 40),
    ])
    t = Tagged(content)
    annot = t.pdf.make_indirect(Dictionary(Type=Name.Annot, Subtype=Name.Link, Rect=Array([102, 536, 150, 550]),
                                           A=Dictionary(S=Name.URI, URI=pikepdf.String("https://example.com/a b"))))
    link = t.el("Link", 11, Dictionary(Type=Name.OBJR, Obj=annot))
    doc = t.el(
        "Document",
        t.el("H1", 0), t.el("P", 1),
        t.el("L", t.el("LI", t.el("Lbl", 2), t.el("LBody", 3)), t.el("LI", t.el("Lbl", 4), t.el("LBody", 5))),
        t.el("Table", t.el("TR", t.el("TH", 6), t.el("TH", 7)), t.el("TR", t.el("TD", 8), t.el("TD", 9))),
        t.el("Figure", Alt="A chart of sales"),
        t.el("P", t.el("Span", 10), link),
    )
    return t.save(doc)


def test_a_tagged_page_as_markdown_from_its_tree():
    with glyphweave.open(_tagged_report()) as doc:
        page = doc.pages[0]
        assert page.markdown() == (
            "# Report\n\nIntro text\n\n1. First item\n2. Second item\n\n| Name | Qty |\n| --- | --- |\n"
            "| Apple | 3 |\n\n![A chart of sales]()\n\nSee [our site](<https://example.com/a b>)\n")
        assert page.stats.assembly["served"] == "structure"
        (table,) = page.tables()
        assert table.to_list() == [["Name", "Qty"], ["Apple", "3"]]
        # the running footer (an artifact) is left out by default, kept when asked
        assert "Page 1" not in page.markdown()


def test_markdown_words_follow_its_reading_order(tmp_path: Path):
    with glyphweave.open(_untagged(tmp_path)) as doc:
        words = [w.text for w in doc.pages[0].words("markdown")]
        assert words[:4] == ["Quarterly", "report", "Plain", "words"]
        assert words[-9:] == ["Name", "Qty", "Price", "Apple", "3", "1.20", "Pear", "10", "0.80"]  # the table row by row


def test_format_markdown_on_the_command_line(tmp_path: Path):
    doc = pikepdf.open(io.BytesIO(make_pdf(UNTAGGED, fonts=FONTS)))
    doc.pages.append(doc.pages[0])
    path = tmp_path / "two.pdf"
    doc.save(path)
    out = tmp_path / "out.md"
    assert main(["extract", "--format", "markdown", str(path), "-o", str(out)]) == 0
    assert out.read_text(encoding="utf-8") == UNTAGGED_MARKDOWN + "\n" + UNTAGGED_MARKDOWN
    assert main(["extract", "--format", "markdown", "--mode", "reading", "--pages", "1", str(path),
                 "-o", str(out)]) == 0
    assert out.read_text(encoding="utf-8").startswith("Quarterly report\n")  # --mode names another assembler


def _manifest(name: str) -> list[dict[str, str]]:
    path = SHARED / name / "MANIFEST.tsv"
    if not path.is_file():
        return []
    with path.open(encoding="utf-8") as f:
        return list(csv.DictReader(f, delimiter="\t"))


@pytest.mark.skipif(not _manifest("eval2"), reason="the shared corpus is not on this machine")
@pytest.mark.parametrize("corpus", ["eval", "eval2"])
def test_no_invented_table_on_the_known_text_corpus(corpus: str):
    """A table in the Markdown only where the file has one (its manifest's hazards say so)."""
    for row in _manifest(corpus):
        with glyphweave.open(SHARED / corpus / row["file"]) as doc:
            markdown = doc.markdown()
        if "table" not in row["hazards"]:
            assert "| --- |" not in markdown, row["file"]


def test_an_empty_tagged_cell_keeps_the_columns_in_place():
    content = b"".join([mc(0, "Name", 72, 700), mc(1, "Note", 150, 700), mc(2, "Qty", 250, 700),
                        mc(3, "Apple", 72, 686), mc(4, "3", 250, 686)])
    t = Tagged(content)
    table = t.el("Table", t.el("TR", t.el("TH", 0), t.el("TH", 1), t.el("TH", 2)),
                 t.el("TR", t.el("TD", 3), t.el("TD"), t.el("TD", 4)))
    with glyphweave.open(t.save(t.el("Document", table))) as doc:
        page = doc.pages[0]
        assert page.markdown() == "| Name | Note | Qty |\n| --- | --- | --- |\n| Apple |  | 3 |\n"
        assert page.tables()[0].rows[1][1].bbox == (0.0, 0.0, 0.0, 0.0)  # a cell without glyphs has no box


def test_a_table_padded_with_spaces_and_with_an_empty_cell(tmp_path: Path):
    # groff's tbl pads its cells with space glyphs; a total row leaves a column empty
    rows = ["Item      Count     Price", "Apple     3         1.20", "Pear      10        0.80",
            "Plum      7         2.10"]
    content = b"\n".join([at(text, 72, 700 - 12 * n) for n, text in enumerate(rows)]
                         + [at("Total", 72, 652), at("4.10", 72 + 6 * 20, 652)])
    with glyphweave.open(_untagged(tmp_path, content)) as doc:
        (table,) = doc.pages[0].tables()
        assert table.to_list() == [["Item", "Count", "Price"], ["Apple", "3", "1.20"], ["Pear", "10", "0.80"],
                                   ["Plum", "7", "2.10"], ["Total", "", "4.10"]]
        # the table alone: no cell read twice as text
        assert doc.pages[0].markdown() == ("| Item | Count | Price |\n| --- | --- | --- |\n| Apple | 3 | 1.20 |\n"
                                           "| Pear | 10 | 0.80 |\n| Plum | 7 | 2.10 |\n| Total |  | 4.10 |\n")


def test_a_link_annotation_over_untagged_words_is_a_markdown_link(tmp_path: Path):
    content = b"\n".join([at("Read the full report online today.", 72, 700), at("Nothing here.", 72, 640)])
    doc = pikepdf.open(io.BytesIO(make_pdf(content, fonts=FONTS)))
    left = 72 + 6 * len("Read the ")
    annot = doc.make_indirect(Dictionary(
        Type=Name.Annot, Subtype=Name.Link, Rect=Array([left, 697, left + 6 * len("full report"), 709]),
        A=Dictionary(S=Name.URI, URI=pikepdf.String("https://example.org/report"))))
    internal = doc.make_indirect(Dictionary(Type=Name.Annot, Subtype=Name.Link, Rect=Array([72, 637, 150, 649]),
                                            Dest=Array([doc.pages[0].obj, Name.Fit])))
    doc.pages[0].obj.Annots = Array([annot, internal])
    path = tmp_path / "linked.pdf"
    doc.save(path)
    with glyphweave.open(path) as opened:
        assert opened.pages[0].markdown() == ("Read the [full report](https://example.org/report) online today.\n\n"
                                              "Nothing here.\n")  # a link inside the document is no URI
