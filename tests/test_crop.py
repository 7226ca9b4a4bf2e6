"""Page.crop and --crop: a box in points from the top-left of the page as shown (CropBox
turned by /Rotate) keeps the glyphs whose centre lies inside, and gives the same text as
those glyphs cropped by hand."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pikepdf
import pytest

import glyphweave
from glyphweave.cli import main
from glyphweave.core.errors import UsageError
from glyphweave.pagecrop import shown_transform
from glyphweave.testing import text_of
from glyphweave.testing.pdfs import make_pdf, text_at

# Two columns of two lines on a letter page; the right column's lines start at x = 330.
COLUMNS = b"\n".join([
    text_at("Left one", 72, 700), text_at("Left two", 72, 686),
    text_at("Right one", 330, 700), text_at("Right two", 330, 686),
    text_at("Footer", 72, 60),
])
LEFT = (0, 0, 306, 200)  # the top-left quarter, as shown: y from the top


def _pdf(tmp_path: Path, rotate: int = 0, cropbox: tuple[float, float, float, float] | None = None,
         pages: int = 1) -> Path:
    doc = pikepdf.open(io.BytesIO(make_pdf(COLUMNS, cropbox=cropbox)))
    for _ in range(pages - 1):
        doc.pages.append(doc.pages[0])
    for page in doc.pages:
        page.obj.Rotate = rotate
    path = tmp_path / f"columns-{rotate}.pdf"
    doc.save(path)
    return path


@pytest.mark.parametrize(("rotate", "corners"), [
    # (user-space point) -> (as shown), for the CropBox (10, 20, 110, 220): 100 wide, 200 high
    (0, {(10, 220): (0, 0), (110, 20): (100, 200), (110, 220): (100, 0)}),
    (90, {(10, 20): (0, 0), (110, 220): (200, 100), (10, 220): (200, 0)}),
    (180, {(110, 20): (0, 0), (10, 220): (100, 200), (10, 20): (100, 0)}),
    (270, {(110, 220): (0, 0), (10, 20): (200, 100), (110, 20): (200, 0)}),
])
def test_the_page_as_shown(rotate: int, corners: dict[tuple[float, float], tuple[float, float]]):
    to_shown = shown_transform((10, 20, 110, 220), rotate)
    for user, shown in corners.items():
        assert to_shown(*user) == shown


def test_a_crop_keeps_the_glyphs_in_the_box(tmp_path: Path):
    with glyphweave.open(_pdf(tmp_path)) as doc:
        page = doc.pages[0]
        assert page.crop(LEFT).text() == "Left one\nLeft two\n"
        assert page.crop((306, 0, 612, 200)).text() == "Right one\nRight two\n"
        assert page.crop((0, 700, 612, 792)).text() == "Footer\n"
        assert page.crop((0, 300, 612, 600)).text() == ""
        assert "".join(g.text for g in page.crop(LEFT).glyphs()) == "Left oneLeft two"


def test_a_crop_is_the_glyphs_cropped_by_hand(tmp_path: Path):
    with glyphweave.open(_pdf(tmp_path, rotate=90)) as doc:
        page = doc.pages[0]
        to_shown = shown_transform(page.cropbox, page.rotate)
        box = (560, 0, 792, 306)  # as shown, the page is 792 wide: the left column's lines, now at the top right
        x0, top, x1, bottom = box
        by_hand = []
        for i, glyph in zip(page.visible_indices(), page.glyphs(), strict=True):
            xs, ys = zip(*glyph.quad, strict=True)
            x, y = to_shown(sum(xs) / 4, sum(ys) / 4)
            if x0 <= x <= x1 and top <= y <= bottom:
                by_hand.append(i)
        cropped = page.crop(box)
        assert cropped.glyph_indices() == by_hand and by_hand
        assert cropped.text() == text_of(page._assemble(None, by_hand)) == "Left one\nLeft two\n"


def test_a_crop_of_a_crop_and_the_cropbox_origin(tmp_path: Path):
    with glyphweave.open(_pdf(tmp_path, cropbox=(50, 50, 562, 742))) as doc:
        page = doc.pages[0]  # the CropBox's top-left corner (50, 742) is the origin
        assert page.crop((0, 0, 256, 150)).text() == "Left one\nLeft two\n"
        assert page.crop((0, 0, 612, 150)).crop((0, 0, 256, 500)).text() == "Left one\nLeft two\n"


@pytest.mark.parametrize("box", [(0, 0, 0, 10), (10, 0, 5, 10), (0, 10, 10, 5), (0, 0, float("nan"), 1), (1, 2, 3), "abcd"])
def test_a_bad_box_is_a_usage_error(tmp_path: Path, box):
    with glyphweave.open(_pdf(tmp_path)) as doc, pytest.raises(UsageError):
        doc.pages[0].crop(box)


def test_the_command_line_crops_alike(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    path = _pdf(tmp_path, pages=3)
    out = tmp_path / "out.txt"
    assert main(["extract", str(path), "--crop", "0,0,306,200", "-o", str(out), "--jobs", "1"]) == 0
    assert out.read_text(encoding="utf-8") == "Left one\nLeft two\n\f" * 3
    split = tmp_path / "split.txt"  # the page-parallel path cuts its pages in its workers
    assert main(["extract", str(path), "--crop", "0,0,306,200", "-o", str(split), "--jobs", "2"]) == 0
    assert split.read_text(encoding="utf-8") == out.read_text(encoding="utf-8")
    capsys.readouterr()
    assert main(["glyphs", str(path), "--pages", "1", "--crop", "306,0,612,200"]) == 0
    texts = [json.loads(line)["text"] for line in capsys.readouterr().out.splitlines()]
    assert "".join(texts) == "Right oneRight two"
    with glyphweave.open(path) as doc:
        assert doc.text(crop=LEFT) == out.read_text(encoding="utf-8")


@pytest.mark.parametrize("crop", ["1,2,3", "0,0,x,1", "5,0,1,1", "0,0,inf,1"])
def test_a_bad_crop_on_the_command_line_is_a_usage_error(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                          crop: str):
    with pytest.raises(SystemExit) as exit_:
        main(["extract", str(_pdf(tmp_path)), "--crop", crop])
    assert exit_.value.code == 2
    assert "--crop" in capsys.readouterr().err


def test_a_batch_crops_each_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    path = _pdf(tmp_path)
    out = tmp_path / "out"
    assert main(["batch", str(path), "-o", str(out), "-j", "1", "--crop", "306,0,612,200", "--progress", "off"]) == 0
    [written] = out.glob("*.txt")
    assert written.read_text(encoding="utf-8") == "Right one\nRight two\n\f"
