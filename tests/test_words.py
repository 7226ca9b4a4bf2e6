"""Page.words, lines and blocks: the reading rules' words with boxes measured on the page as
shown (CropBox turned by /Rotate), in the order the assembler read the page; ``extract
--format words`` and ``--format hocr``."""

from __future__ import annotations

import io
import json
import shutil
import subprocess
import xml.dom.minidom
from collections.abc import Sequence
from pathlib import Path

import pikepdf
import pytest

import glyphweave
from glyphweave.cli import main
from glyphweave.core.errors import ComponentError
from glyphweave.pagecrop import shown_transform
from glyphweave.plugin import Assembled, Assembler, PageContext
from glyphweave.testing import fresh_plugin_manager, make_plugin
from glyphweave.testing.pdfs import helvetica, make_pdf, text_at, truetype

SOFT_HYPHEN = "\u00ad"
HELVETICA = {"H": 722, "e": 556, "l": 222, "o": 556, "w": 722, "r": 333, "d": 556}

# Two columns painted line by line across the page (left, right, left, right), a footer.
INTERLEAVED = b"\n".join([
    text_at("Left column first line", 72, 700), text_at("Right column first line", 330, 700),
    text_at("Left column second line", 72, 686), text_at("Right column second line", 330, 686),
])
LEFT, RIGHT = ["Left column first line", "Left column second line"], ["Right column first line",
                                                                     "Right column second line"]


def _pdf(tmp_path: Path, content: bytes, *, rotate: int = 0,
         cropbox: tuple[float, float, float, float] | None = None, pages: int = 1) -> Path:
    fonts = {"F1": helvetica(encoding="WinAnsiEncoding"),  # no /Widths: the AFM's
             "F2": truetype(mapping={**{c: chr(c) for c in range(32, 127)}, ord("~"): SOFT_HYPHEN})}
    doc = pikepdf.open(io.BytesIO(make_pdf(content, cropbox=cropbox, fonts=fonts)))
    for _ in range(pages - 1):
        doc.pages.append(doc.pages[0])
    for page in doc.pages:
        page.obj.Rotate = rotate
    path = tmp_path / f"words-{rotate}-{pages}.pdf"
    doc.save(path)
    return path


def _width(text: str, size: float = 12) -> float:
    return sum(HELVETICA[ch] for ch in text) * size / 1000


def _shown_box(page: glyphweave.Page, indices: Sequence[int]) -> tuple[float, float, float, float]:
    """The box, as shown, of the glyphs ``indices``: their quads' corners turned by hand."""
    to_shown = shown_transform(page.cropbox, page.rotate)
    records = {i: g for i, g in zip(page.visible_indices(), page.glyphs(), strict=True)}
    points = [to_shown(x, y) for i in indices for x, y in records[i].quad]
    xs, ys = zip(*points, strict=True)
    return min(xs), min(ys), max(xs), max(ys)


def test_words_have_their_glyphs_boxes(tmp_path: Path):
    with glyphweave.open(_pdf(tmp_path, text_at("Hello world", 72, 700))) as doc:
        page = doc.pages[0]
        hello, world = page.words()
        assert (hello.text, world.text) == ("Hello", "world")
        assert hello.x0 == pytest.approx(72) and hello.x1 == pytest.approx(72 + _width("Hello"))
        assert world.x1 == pytest.approx(72 + _width("Hello world".replace(" ", "")) + 278 * 12 / 1000)
        for word in (hello, world):
            assert word.bbox == pytest.approx(_shown_box(page, word.glyphs))
            assert (word.font, word.size, word.direction) == ("Helvetica", 12, "ltr")
        assert 792 - 700 - 12 < hello.top < 792 - 700 < hello.bottom < 792 - 700 + 4  # y from the top
        (line,) = page.lines()
        assert line.text == "Hello world" and line.words == (hello, world)
        assert line.bbox == (hello.x0, min(hello.top, world.top), world.x1, max(hello.bottom, world.bottom))


@pytest.mark.skipif(shutil.which("pdftotext") is None, reason="pdftotext (poppler-utils) is not installed")
def test_word_boxes_agree_with_pdftotext(tmp_path: Path):
    """pdftotext -bbox -cropbox measures words the same way: from the CropBox's top-left corner."""
    path = _pdf(tmp_path, INTERLEAVED, cropbox=(36, 36, 576, 756))
    html = subprocess.run(["pdftotext", "-bbox", "-cropbox", str(path), "-"], capture_output=True, text=True,
                          check=True).stdout
    theirs = {}
    for node in xml.dom.minidom.parseString(html).getElementsByTagName("word"):
        box = tuple(float(node.getAttribute(k)) for k in ("xMin", "yMin", "xMax", "yMax"))
        theirs[node.firstChild.data] = box
    with glyphweave.open(path) as doc:
        ours = {word.text: word.bbox for word in doc.pages[0].words()}
    assert set(ours) == set(theirs)
    for text, (x0, _top, x1, _bottom) in ours.items():
        assert (x0, x1) == pytest.approx(theirs[text][::2], abs=0.01)


@pytest.mark.parametrize(("rotate", "direction"), [(0, "ltr"), (90, "ttb"), (180, "rtl"), (270, "btt")])
def test_boxes_are_measured_on_the_page_as_shown(tmp_path: Path, rotate: int, direction: str):
    with glyphweave.open(_pdf(tmp_path, INTERLEAVED, rotate=rotate, cropbox=(20, 30, 600, 780))) as doc:
        page = doc.pages[0]
        words = page.words()
        assert [w.text for w in words][:2] == ["Left", "column"]
        for word in words:
            assert word.bbox == pytest.approx(_shown_box(page, word.glyphs))
            assert word.direction == direction
        left = words[0]
        x, y = shown_transform(page.cropbox, rotate)(72, 700)  # where "Left" starts on its baseline
        if rotate == 0:
            assert left.x0 == pytest.approx(x) and left.bottom > y > left.top
        elif rotate == 90:
            assert left.top == pytest.approx(y) and left.x0 < x < left.x1
        elif rotate == 180:
            assert left.x1 == pytest.approx(x)
        else:
            assert left.bottom == pytest.approx(y)


def test_words_follow_the_assemblers_order(tmp_path: Path):
    with glyphweave.open(_pdf(tmp_path, INTERLEAVED)) as doc:
        page = doc.pages[0]
        assert page.text("columns") == "\n".join([*LEFT, *RIGHT]) + "\n"
        assert [line.text for line in page.lines("columns")] == [*LEFT, *RIGHT]
        # the layout grid reads rows across the page: a row's pieces are one line of the rules
        assert [line.text for line in page.lines("layout")][:2] == [f"{LEFT[0]} {RIGHT[0]}", f"{LEFT[1]} {RIGHT[1]}"]
        assert " ".join(w.text for w in page.words("columns")) == page.text("columns").replace("\n", " ").strip()


def test_blocks_are_lines_that_sit_together(tmp_path: Path):
    content = b"\n".join([text_at("First para one", 72, 700), text_at("first para two", 72, 686),
                          text_at("Second para", 72, 600)])
    with glyphweave.open(_pdf(tmp_path, content)) as doc:
        blocks = doc.pages[0].blocks()
        assert [b.text for b in blocks] == ["First para one\nfirst para two", "Second para"]
        first = blocks[0]
        assert first.bbox == (min(ln.x0 for ln in first.lines), first.lines[0].top,
                              max(ln.x1 for ln in first.lines), first.lines[1].bottom)
        assert [w.text for w in first.words] == ["First", "para", "one", "first", "para", "two"]


def test_a_crop_has_the_words_in_its_box(tmp_path: Path):
    with glyphweave.open(_pdf(tmp_path, INTERLEAVED)) as doc:
        page = doc.pages[0]
        cropped = page.crop((0, 0, 306, 200))
        assert [w.text for w in cropped.words()] == " ".join(LEFT).split()
        whole = {w.glyphs: w.bbox for w in page.words()}
        assert all(whole[w.glyphs] == w.bbox for w in cropped.words())
        assert [ln.text for ln in cropped.lines()] == LEFT


class Backwards(Assembler):
    """Reads the glyphs from the last painted to the first (a test's assembler)."""

    NAME = "backwards-test"

    def assemble(self, page: PageContext, indices: Sequence[int]) -> Assembled:
        order = list(reversed(indices))
        return Assembled(text="".join(page.table.text[i] for i in order), order=order)


class Unreadable(Assembler):
    """Reports an order that names no glyph of the page."""

    NAME = "bad-order-test"

    def assemble(self, page: PageContext, indices: Sequence[int]) -> Assembled:
        return Assembled(text="x", order=[len(page.table) + 5])


def _with_test_assemblers(path: Path) -> glyphweave.Document:
    return glyphweave.open(path, plugin_manager=fresh_plugin_manager(
        make_plugin(name="order-test", assemblers=[Backwards, Unreadable]), entrypoints=True))


def test_a_plugins_order_decides_the_order_of_words(tmp_path: Path):
    with _with_test_assemblers(_pdf(tmp_path, INTERLEAVED)) as doc:
        page = doc.pages[0]
        # read backwards: the lines, and the words in each, come last painted first
        assert [line.text.split() for line in page.lines("backwards-test")] == [
            f"{LEFT[1]} {RIGHT[1]}".split()[::-1], f"{LEFT[0]} {RIGHT[0]}".split()[::-1]]
        with pytest.raises(ComponentError, match="no glyph index"):
            page.words("bad-order-test")


def test_words_without_an_order_are_in_paint_order(tmp_path: Path):
    content = b"\n".join([text_at("painted first", 72, 600), text_at("painted second", 72, 700)])
    with glyphweave.open(_pdf(tmp_path, content)) as doc:
        page = doc.pages[0]
        assert page.assembled("reading").order is None  # paint order: nothing to report
        assert [w.text for w in page.words("reading")] == ["painted", "first", "painted", "second"]
        assert [w.text for w in page.words("columns")] == ["painted", "second", "painted", "first"]


def test_a_soft_hyphen_shows_where_the_word_breaks(tmp_path: Path):
    content = text_at("extrac~tion and co~op", 72, 700, font="F2")
    with glyphweave.open(_pdf(tmp_path, content)) as doc:
        words = doc.pages[0].words()
        assert [w.text for w in words] == ["extraction", "and", "coop"]
        assert words[0].font == "TestSans"  # without its subset tag
    content = b"\n".join([text_at("extrac~", 72, 700, font="F2"), text_at("tion", 72, 686, font="F2")])
    with glyphweave.open(_pdf(tmp_path, content)) as doc:
        page = doc.pages[0]
        assert [w.text for w in page.words()] == ["extrac-", "tion"]  # words are not dehyphenated
        assert page.text() == "extraction\n"


def test_a_page_without_text_has_no_words(tmp_path: Path):
    with glyphweave.open(_pdf(tmp_path, b"0 0 m 10 10 l S")) as doc:
        page = doc.pages[0]
        assert page.words() == [] and page.lines() == [] and page.blocks() == []


def _cli(*argv: str) -> None:
    assert main(list(argv)) == 0


def test_format_words_writes_one_object_per_word(tmp_path: Path):
    path = _pdf(tmp_path, INTERLEAVED, pages=2)
    out = tmp_path / "words.jsonl"
    _cli("extract", "--format", "words", "--mode", "columns", str(path), "-o", str(out))
    records = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert [r["text"] for r in records if r["page"] == 1] == " ".join([*LEFT, *RIGHT]).split()
    assert {r["page"] for r in records} == {1, 2}
    first = records[0]
    assert set(first) == {"page", "block", "line", "text", "bbox", "font", "size", "direction"}
    assert first["bbox"][0] == 72 and first["font"] == "Helvetica" and first["size"] == 12
    with glyphweave.open(path) as doc:
        assert first["bbox"] == [round(v, 3) for v in doc.pages[0].words("columns")[0].bbox]
    split = tmp_path / "split.jsonl"
    _cli("extract", "--format", "words", "--mode", "columns", "--jobs", "2", str(path), "-o", str(split))
    assert split.read_bytes() == out.read_bytes()


def test_format_hocr_is_xhtml_with_word_boxes(tmp_path: Path):
    path = _pdf(tmp_path, INTERLEAVED, pages=2, rotate=90)
    out = tmp_path / "page.hocr"
    _cli("extract", "--format", "hocr", "--crop", "600,0,792,300", str(path), "-o", str(out))
    dom = xml.dom.minidom.parse(str(out))
    spans = {cls: [n for n in dom.getElementsByTagName("span") + dom.getElementsByTagName("div")
                   if n.getAttribute("class") == cls] for cls in ("ocr_page", "ocr_line", "ocrx_word")}
    assert len(spans["ocr_page"]) == 2
    assert spans["ocr_page"][0].getAttribute("title").endswith("bbox 0 0 792 612; ppageno 0; scan_res 72 72")
    with glyphweave.open(path) as doc:
        words = doc.pages[0].crop((600, 0, 792, 300)).words()
    page_words = [n for n in spans["ocrx_word"] if n.getAttribute("id").startswith("word_1_")]
    assert [n.firstChild.data for n in page_words] == [w.text for w in words]
    title = page_words[0].getAttribute("title")
    x0, top, x1, bottom = words[0].bbox
    assert title.startswith(f"bbox {int(x0)} {int(top)} ") and 'x_font "Helvetica"; x_fsize 12' in title
    assert all("textangle 270" in n.getAttribute("title") for n in spans["ocr_line"])


def test_hocr_writes_what_xml_cannot_hold_as_a_replacement_character():
    from glyphweave.hocr import HocrWriter
    from glyphweave.pagewords import TextBlock, TextLine, TextWord

    word = TextWord(text="a\x01<b>", x0=1, top=2, x1=3.5, bottom=4.2, font='Odd "Font"', size=9.6,
                    direction="rtl", glyphs=(0,))
    line = TextLine(text=word.text, x0=1, top=2, x1=3.5, bottom=4.2, direction="rtl", words=(word,))
    stream = io.StringIO()
    writer = HocrWriter(stream, "t\x02", "test")
    writer.page(0, (10, 10), [TextBlock(text=word.text, x0=1, top=2, x1=3.5, bottom=4.2, lines=(line,))])
    writer.close()
    writer.close()
    dom = xml.dom.minidom.parseString(stream.getvalue())
    (span,) = [n for n in dom.getElementsByTagName("span") if n.getAttribute("class") == "ocrx_word"]
    assert span.firstChild.data == "a\ufffd<b>"
    assert span.getAttribute("title") == 'bbox 1 2 4 5; x_font "Odd \\"Font\\""; x_fsize 10'
    assert [n.getAttribute("dir") for n in dom.getElementsByTagName("span")
            if n.getAttribute("class") == "ocr_line"] == ["rtl"]
