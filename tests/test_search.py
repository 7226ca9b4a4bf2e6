"""Page.search, Document.search and ``glyphweave grep``: matches across ligatures, line ends
and hyphenation, with quads of the page as shown; grep's output, counts and exit statuses,
and agreement with pdfgrep on the shared corpus."""

from __future__ import annotations

import collections
import io
import os
import shutil
import subprocess
from pathlib import Path

import pikepdf
import pytest

import glyphweave
from glyphweave.cli import main
from glyphweave.core.errors import UsageError
from glyphweave.testing.pdfs import helvetica, make_pdf, text_at, truetype

LIGATURE = "\ufb03"  # ﬃ, painted as one glyph
SHARED = Path(os.environ.get("GLYPHWEAVE_SHARED") or Path(__file__).resolve().parents[1].parent / "shared")
TRACEMONKEY = SHARED / "corpus" / "tex-two-column-tracemonkey.pdf"

PROSE = b"\n".join([
    text_at("The o~ce is e~cient and a well-", 72, 700, font="F2"),  # ~ is the ffi ligature
    text_at("known place for extrac-", 72, 686, font="F2"),
    text_at("tion of text at 42 Main Street", 72, 672, font="F2"),
    text_at("SHOUTED words", 72, 600, font="F2"),
])


def _pdf(tmp_path: Path, content: bytes = PROSE, *, rotate: int = 0, pages: int = 1, name: str = "prose") -> Path:
    fonts = {"F1": helvetica(encoding="WinAnsiEncoding"),
             "F2": truetype(mapping={**{c: chr(c) for c in range(32, 127)}, ord("~"): LIGATURE})}
    doc = pikepdf.open(io.BytesIO(make_pdf(content, fonts=fonts)))
    for _ in range(pages - 1):
        doc.pages.append(doc.pages[0])
    for page in doc.pages:
        page.obj.Rotate = rotate
    path = tmp_path / f"{name}.pdf"
    doc.save(path)
    return path


def test_a_word_painted_with_a_ligature_is_found(tmp_path: Path):
    with glyphweave.open(_pdf(tmp_path)) as doc:
        page = doc.pages[0]
        (office,) = page.search("office")
        words = {w.text: w for w in page.words()}
        assert office.text == "office" and office.glyphs == words["office"].glyphs  # o, ﬃ, c, e
        assert len(office.glyphs) == 4 and office.boxes == (words["office"].bbox,)
        assert [h.text for h in page.search(f"e{LIGATURE}cient")] == ["efficient"]  # typed as a ligature too


def test_a_word_hyphenated_at_a_line_end_is_found_whole(tmp_path: Path):
    with glyphweave.open(_pdf(tmp_path)) as doc:
        page = doc.pages[0]
        (hit,) = page.search("extraction")
        assert hit.text == "extraction"
        assert hit.lines == ("known place for extrac-", "tion of text at 42 Main Street")
        words = {w.text: w for w in page.words()}
        # one quad per line: the hyphen is not part of the match
        assert hit.boxes[1] == words["tion"].bbox
        assert hit.boxes[0][0] == words["extrac-"].x0 and hit.boxes[0][2] < words["extrac-"].x1
        (compound,) = page.search("well-known")
        assert compound.text == "well-known" and len(compound.quads) == 2
        assert len(page.search("extrac")) == 1  # found once, however many ways


def test_a_phrase_across_a_line_end_and_part_of_a_word(tmp_path: Path):
    with glyphweave.open(_pdf(tmp_path)) as doc:
        page = doc.pages[0]
        (phrase,) = page.search("place   for")
        assert phrase.text == "place for"
        (across,) = page.search("known place")
        assert across.lines == ("known place for extrac-",)
        (across_lines,) = page.search("well-known place")
        assert len(across_lines.quads) == 2
        (part,) = page.search("tex")
        assert part.text == "tex" and len(part.glyphs) == 3  # of "text": whole glyphs, not the word


def test_case_and_regular_expressions(tmp_path: Path):
    with glyphweave.open(_pdf(tmp_path)) as doc:
        page = doc.pages[0]
        assert [h.text for h in page.search("shouted")] == ["SHOUTED"]
        assert page.search("shouted", case=True) == []
        assert [h.text for h in page.search(r"\d+ Main", regex=True)] == ["42 Main"]
        assert [h.text for h in page.search(r"e\w*ent", regex=True)] == ["efficient"]
        for bad in ("", "   "):
            with pytest.raises(UsageError, match="empty"):
                page.search(bad)
        with pytest.raises(UsageError, match="regular expression"):
            page.search("(unclosed", regex=True)
        with pytest.raises(UsageError, match="empty string"):
            page.search("x*", regex=True)


@pytest.mark.parametrize("rotate", [0, 90, 180, 270])
def test_quads_are_measured_on_the_page_as_shown(tmp_path: Path, rotate: int):
    with glyphweave.open(_pdf(tmp_path, rotate=rotate)) as doc:
        page = doc.pages[0]
        (hit,) = page.search("Main")
        word = next(w for w in page.words() if w.text == "Main")
        assert hit.boxes[0] == pytest.approx(word.bbox)
        upper_left, upper_right, lower_left, _lower_right = hit.quads[0]
        # the quad follows the text: upper left to upper right is the way it reads
        expected = {0: (1, 0), 90: (0, 1), 180: (-1, 0), 270: (0, -1)}[rotate]
        dx, dy = upper_right[0] - upper_left[0], upper_right[1] - upper_left[1]
        assert (_sign(dx), _sign(dy)) == expected
        assert lower_left != upper_left


def _sign(value: float) -> int:
    return 0 if abs(value) < 1e-6 else 1 if value > 0 else -1


def test_a_document_is_searched_page_by_page(tmp_path: Path):
    with glyphweave.open(_pdf(tmp_path, pages=3)) as doc:
        assert [h.page for h in doc.search("office")] == [0, 1, 2]
        assert [h.page for h in doc.search("office", pages=[2, 0])] == [2, 0]
        assert list(doc.search("office", crop=(0, 200, 612, 792))) == []
        assert [h.text for h in doc.pages[0].crop((0, 0, 612, 150)).search("SHOUTED")] == []
        assert [h.text for h in doc.pages[0].crop((0, 150, 612, 250)).search("SHOUTED")] == ["SHOUTED"]
        with pytest.raises(UsageError):
            doc.search("(", regex=True)  # before any page is read


def _grep(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(["grep", *argv])
    out, err = capsys.readouterr()
    return status, out, err


def test_grep_prints_each_matching_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    pdf = str(_pdf(tmp_path, pages=2))
    status, out, _ = _grep(capsys, "-n", "ext", pdf)
    page = "known place for extrac-\ntion of text at 42 Main Street\n"
    assert (status, out) == (0, "".join(f"{n}:{line}\n" for n in (1, 2) for line in page.splitlines()))
    # a match over a line end prints both lines; two on one line print it once
    status, out, _ = _grep(capsys, "--pages", "1", "extraction|Main|o", pdf)
    assert out.splitlines() == ["The office is efficient and a well-", "known place for extrac-",
                                "known place for extrac- tion of text at 42 Main Street",
                                "tion of text at 42 Main Street", "SHOUTED words"]
    status, out, _ = _grep(capsys, "-c", "-i", "e(ffi|xtrac)", pdf)
    assert (status, out) == (0, "4\n")
    status, out, _ = _grep(capsys, "--page-count", "-F", "well-known", pdf)
    assert (status, out) == (0, "1:1\n2:1\n")
    status, out, _ = _grep(capsys, "-m", "1", "Street", pdf)
    assert out == "tion of text at 42 Main Street\n"


def test_grep_names_files_and_keeps_their_order(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    first = str(_pdf(tmp_path, name="first"))
    second = str(_pdf(tmp_path, text_at("nothing to see", 72, 700), name="second"))
    third = str(_pdf(tmp_path, pages=2, name="third"))
    status, out, _ = _grep(capsys, "-c", "-j", "2", "office", first, second, third)
    assert (status, out) == (0, f"{first}:1\n{second}:0\n{third}:2\n")
    status, out, _ = _grep(capsys, "--no-filename", "SHOUTED", first, third)
    assert out == "SHOUTED words\n" * 3
    status, out, _ = _grep(capsys, "-H", "SHOUTED", first)
    assert out == f"{first}:SHOUTED words\n"


def test_grep_exit_statuses(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    pdf = str(_pdf(tmp_path))
    assert _grep(capsys, "absent", pdf)[:2] == (1, "")
    assert _grep(capsys, "-q", "office", pdf)[:2] == (0, "")
    missing = str(tmp_path / "missing.pdf")
    status, out, err = _grep(capsys, "office", missing, pdf)
    assert status == 4 and out == f"{pdf}:The office is efficient and a well-\n" and "missing.pdf" in err
    broken = tmp_path / "broken.pdf"
    broken.write_bytes(b"this is not a PDF at all")
    status, out, err = _grep(capsys, "office", str(broken))
    assert status == 4 and "broken.pdf" in err
    assert main(["grep", "(", pdf]) == 2  # a bad pattern: a usage error, before any file


@pytest.mark.skipif(shutil.which("pdfgrep") is None, reason="pdfgrep is not installed")
@pytest.mark.skipif(not TRACEMONKEY.is_file(), reason="the shared corpus is not on this machine")
def test_grep_agrees_with_pdfgrep_and_finds_hyphenated_words(capsys: pytest.CaptureFixture[str]):
    def theirs(word: str) -> collections.Counter[int]:
        out = subprocess.run(["pdfgrep", "-p", "-i", word, str(TRACEMONKEY)], capture_output=True, text=True).stdout
        return collections.Counter({int(page): int(count) for page, count in (ln.split(":") for ln in out.split())})

    def ours(word: str) -> collections.Counter[int]:
        status, out, _ = _grep(capsys, "--page-count", "-i", word, str(TRACEMONKEY))
        return collections.Counter({int(page): int(count) for page, count in (ln.split(":") for ln in out.split())})

    for word in ("JavaScript", "trace", "loop", "first", "define", "file"):
        assert ours(word) == theirs(word), word
    # split at a line end: pdfgrep misses what a reader sees
    for word in ("alternative", "efficient", "compiler"):
        mine, peer = ours(word), theirs(word)
        assert sum(mine.values()) > sum(peer.values()) and not peer - mine, word
