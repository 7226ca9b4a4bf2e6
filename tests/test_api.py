"""The Python API: opening, passwords, pages, text, statistics."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import attrs
import pikepdf
import pytest

import glyphweave
from glyphweave import api as document_module
from glyphweave.api import parse_page_ranges
from glyphweave.core.errors import GlyphweaveError, PageError, PasswordError, PDFOpenError, UsageError
from pdfs import Page, helvetica, make_pdf, type0_identity

HELLO = b"BT /F1 10 Tf 100 700 Td (Hello world) Tj ET"
TWO_PAGES = make_pdf(HELLO, extra_pages=[Page(b"BT /F1 10 Tf 100 700 Td (Page two) Tj ET")])


def encrypted() -> bytes:
    return make_pdf(b"BT /F1 10 Tf 100 700 Td (Secret) Tj ET",
                    encryption=pikepdf.Encryption(user="u", owner="o"))


# --------------------------------------------------------------------------- opening


def test_open_bytes():
    with glyphweave.open(make_pdf(HELLO)) as doc:
        assert len(doc) == 1
        assert doc.pages[0].text().strip() == "Hello world"


def test_open_bytearray():
    with glyphweave.open(bytearray(make_pdf(HELLO))) as doc:
        assert doc.pages[0].text().strip() == "Hello world"


@pytest.mark.parametrize("as_str", [True, False])
def test_open_path(tmp_path: Path, as_str: bool):
    path = tmp_path / "hello.pdf"
    path.write_bytes(make_pdf(HELLO))
    with glyphweave.open(str(path) if as_str else path) as doc:
        assert doc.pages[0].text().strip() == "Hello world"
        assert str(path) in doc.name


def test_open_stream(tmp_path: Path):
    with glyphweave.open(io.BytesIO(make_pdf(HELLO))) as doc:
        assert doc.pages[0].text().strip() == "Hello world"
    path = tmp_path / "hello.pdf"
    path.write_bytes(make_pdf(HELLO))
    with path.open("rb") as stream, glyphweave.open(stream) as doc:
        assert doc.pages[0].text().strip() == "Hello world"


def test_open_with_user_and_owner_password():
    data = encrypted()
    for password in ("u", "o"):
        with glyphweave.open(data, password=password) as doc:
            assert doc.pages[0].text().strip() == "Secret"


def test_missing_password_is_a_clear_error():
    with pytest.raises(PasswordError, match="password") as info:
        glyphweave.open(encrypted())
    assert "\n" not in str(info.value)


def test_wrong_password_is_a_clear_error():
    with pytest.raises(PasswordError, match="wrong password") as info:
        glyphweave.open(encrypted(), password="nope")
    assert "\n" not in str(info.value)
    assert isinstance(info.value, PDFOpenError)  # a password error is an open error
    assert glyphweave.PasswordError is PasswordError


@pytest.mark.parametrize("data", [b"not a pdf", b"", b"%PDF-1.4\n" + b"\x00" * 100, b"<html></html>"])
def test_not_a_pdf(data: bytes):
    with pytest.raises(PDFOpenError) as info:
        glyphweave.open(data)
    assert not isinstance(info.value, PasswordError)
    assert "\n" not in str(info.value)


def test_missing_file_and_directory(tmp_path: Path):
    with pytest.raises(PDFOpenError, match="no such file"):
        glyphweave.open(tmp_path / "absent.pdf")
    with pytest.raises(PDFOpenError, match="directory"):
        glyphweave.open(tmp_path)


def test_truncated_file_opens_or_fails_cleanly():
    data = make_pdf(HELLO)
    for cut in (len(data) // 4, len(data) // 2, len(data) - 30):
        try:
            with glyphweave.open(data[:cut]) as doc:
                for page in doc:
                    page.text()
        except GlyphweaveError:
            pass


def test_unknown_profile():
    with pytest.raises(GlyphweaveError):
        glyphweave.open(make_pdf(HELLO), profile="no-such-profile")


# --------------------------------------------------------------------------- page ranges


@pytest.mark.parametrize(
    ("spec", "count", "expected"),
    [
        ("1-3,7,10-", 12, [0, 1, 2, 6, 9, 10, 11]),
        ("2", 3, [1]),
        ("-2", 5, [0, 1]),
        ("4-", 5, [3, 4]),
        (" 2 , 4 ", 5, [1, 3]),
        ("3,1", 5, [2, 0]),  # the order given
        ("1-1", 1, [0]),
    ],
)
def test_parse_page_ranges(spec: str, count: int, expected: list[int]):
    assert parse_page_ranges(spec, count) == expected


@pytest.mark.parametrize("spec", ["0", "6", "5-3", "a", "1-b", "2-7", "1--2", "", " , "])
def test_parse_page_ranges_errors(spec: str):
    with pytest.raises(UsageError) as info:
        parse_page_ranges(spec, 5)
    assert "\n" not in str(info.value)


# --------------------------------------------------------------------------- pages and text


def test_pages_sequence():
    with glyphweave.open(TWO_PAGES) as doc:
        assert len(doc.pages) == 2
        assert doc.pages[-1].number == 1
        assert [p.number for p in doc.pages[0:2]] == [0, 1]
        assert [p.number for p in doc] == [0, 1]
        assert [p.number for p in doc.pages] == [0, 1]
        assert [p.number for p in reversed(doc.pages)] == [1, 0]
        with pytest.raises(PageError):
            doc.pages[2]
        with pytest.raises(IndexError):
            doc.pages[2]
        with pytest.raises(PageError):
            doc.pages[-3]


def test_pages_are_interpreted_lazily(monkeypatch: pytest.MonkeyPatch):
    # Each page makes one interpreter and runs it once: count them being made (a subclass
    # would not do, as a compiled class cannot be subclassed).
    runs: list[int] = []
    original = document_module.PageInterpreter

    def counting(*args: Any, **kwargs: Any) -> Any:
        runs.append(1)
        return original(*args, **kwargs)

    monkeypatch.setattr(document_module, "PageInterpreter", counting)
    with glyphweave.open(TWO_PAGES) as doc:
        first, second = doc.pages[0], doc.pages[1]
        assert runs == []
        assert second.text().strip() == "Page two"
        assert len(runs) == 1
        second.glyphs()
        second.glyphs(raw=True)
        assert second.stats.glyphs == 8
        assert len(runs) == 1  # kept with the page
        assert first.number == 0


def test_reprs_show_the_numbering_of_the_attributes(tmp_path: Path):
    path = tmp_path / "two.pdf"
    path.write_bytes(TWO_PAGES)
    doc = glyphweave.open(path)
    page = doc.pages[1]
    assert page.number == 1
    assert repr(page) == f"<Page number=1 of {str(path)!r}>"
    assert repr(doc) == f"<Document {str(path)!r} pages=2>"
    doc.close()
    assert repr(doc) == f"<Document {str(path)!r} pages=2 closed>"
    assert repr(page) == f"<Page number=1 of {str(path)!r}>"


def test_doc_text_separators():
    with glyphweave.open(TWO_PAGES) as doc:
        text = doc.text()
        assert text.split("\f") == ["Hello world\n", "Page two\n", ""]
        assert doc.text(separator="\n--\n").split("\n--\n")[:2] == ["Hello world\n", "Page two\n"]
        assert doc.text(pages=[1]) == "Page two\n\f"
        assert doc.text(pages=[1, 0]).index("Page two") < doc.text(pages=[1, 0]).index("Hello")


def test_write_text_with_bom():
    out = io.StringIO()
    with glyphweave.open(TWO_PAGES) as doc:
        stats = doc.write_text(out, bom=True)
    value = out.getvalue()
    assert value.startswith("\ufeffHello world")
    assert value.count("\ufeff") == 1
    assert value.endswith("Page two\n\f")
    assert stats.pages == 2 and stats.glyphs == 19


def test_write_text_without_bom_and_page_selection():
    out = io.StringIO()
    with glyphweave.open(TWO_PAGES) as doc:
        doc.write_text(out, pages=[1], separator="|")
    assert out.getvalue() == "Page two\n|"


# --------------------------------------------------------------------------- statistics


STATS_PAGE = (
    b"BT /F1 10 Tf 100 700 Td (ab) Tj ET"          # visible
    b" BT /F1 10 Tf 700 700 Td (zz) Tj ET"         # outside the MediaBox
    b" BT /F1 10 Tf 100 600 Td (d) Tj ET"
    b" BT /F1 10 Tf 100 600 Td (d) Tj ET"          # overprinted: a duplicate
    b" BT /F2 10 Tf 100 500 Td <0001> Tj ET"       # no ToUnicode, not embedded: unresolved
)


def stats_pdf() -> bytes:
    return make_pdf(STATS_PAGE, fonts={"F1": helvetica(widths=True), "F2": type0_identity()})


def test_page_stats():
    with glyphweave.open(stats_pdf()) as doc:
        page = doc.pages[0]
        stats = page.stats
        assert stats.page == 0
        assert stats.glyphs == 7 == len(page.glyphs(raw=True))
        assert stats.dropped == {"visible-box": 2, "dedup": 1}
        assert stats.visible == 4 == len(page.glyphs())
        assert stats.unresolved == 1
        assert stats.decoded_by == {"standard-fallback": 3}
        assert stats.untagged == 4
        unresolved = [g for g in page.glyphs() if g.unresolved]
        assert len(unresolved) == 1 and unresolved[0].text == "" and unresolved[0].decoded_by is None
        assert stats.to_dict()["dropped"] == {"visible-box": 2, "dedup": 1}


def test_stats_to_dict_numbers_pages_as_the_outputs_do():
    # The attribute is 0-based like Page.number; the dict every output prints is 1-based,
    # like the "page" beside it in JSON lines and the "page N:" of the warnings.
    with glyphweave.open(TWO_PAGES) as doc:
        stats = doc.pages[1].stats
        assert stats.page == 1 == doc.pages[1].number
        as_dict = stats.to_dict()
    assert as_dict["page"] == 2
    assert {key: value for key, value in as_dict.items() if key not in ("page", "warnings")} == {
        key: value for key, value in attrs.asdict(stats).items() if key not in ("page", "warnings")}
    assert as_dict["warnings"] == [warning.message for warning in stats.warnings]


def test_one_page_numbering_in_jsonl_and_the_batch_pages_format(tmp_path: Path,
                                                                 capsys: pytest.CaptureFixture[str]):
    from glyphweave.batch import ExtractOptions, FileJob, run_job
    from glyphweave.cli import main

    path = tmp_path / "two.pdf"
    path.write_bytes(TWO_PAGES)
    assert main(["extract", str(path), "--format", "jsonl"]) == 0
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [(r["page"], r["stats"]["page"]) for r in records] == [(1, 1), (2, 2)]
    job = FileJob(source=str(path), output=str(tmp_path / "two.pages.jsonl"),
                  options=ExtractOptions(format="pages"), gather=True)
    result = run_job(job)
    assert result.status == "ok", result.error
    records = [json.loads(line) for line in (result.content or "").splitlines()]
    assert [(r["page"], r["stats"]["page"]) for r in records] == [(1, 1), (2, 2)]


def test_decoded_by_tounicode():
    from pdfs import truetype

    data = make_pdf(b"BT /F1 10 Tf 100 700 Td (AB) Tj ET", fonts={"F1": truetype(mapping={65: "x", 66: "y"})})
    with glyphweave.open(data) as doc:
        assert doc.pages[0].stats.decoded_by == {"tounicode": 2}
        assert doc.pages[0].text().strip() == "xy"


def test_document_stats_add_up():
    data = make_pdf(STATS_PAGE, fonts={"F1": helvetica(widths=True), "F2": type0_identity()},
                    extra_pages=[Page(b"BT /F1 10 Tf 100 700 Td (Page two) Tj ET")])
    with glyphweave.open(data) as doc:
        assert doc.stats.pages == 0
        doc.text()
        stats = doc.stats
        doc.text()  # extracting again counts no page twice
        assert doc.stats == stats
        assert doc.write_text(io.StringIO(), pages=[1]).pages == 1
        assert doc.stats == stats
    assert (stats.pages, stats.glyphs, stats.visible, stats.unresolved) == (2, 15, 12, 1)
    assert stats.dropped == {"visible-box": 2, "dedup": 1}
    assert stats.decoded_by == {"standard-fallback": 11}


def test_warnings_are_counted():
    data = make_pdf(b"BT /F9 10 Tf (a) Tj ET")
    with glyphweave.open(data) as doc:
        assert doc.pages[0].stats.warnings
        doc.text()
        assert doc.stats.warnings >= 1


# --------------------------------------------------------------------------- boxes and profiles


def test_cropbox_inherited_from_the_page_tree():
    content = b"BT /F1 10 Tf 100 100 Td (in) Tj 0 500 Td (out) Tj ET"
    with glyphweave.open(make_pdf(content, tree_cropbox=(0, 0, 300, 300))) as doc:
        page = doc.pages[0]
        assert page.cropbox == (0, 0, 300, 300)
        assert page.mediabox == (0, 0, 612, 792)
        assert page.text().strip() == "in"
        assert page.stats.dropped["visible-box"] == 3


def test_resources_inherited_from_the_page_tree():
    with glyphweave.open(make_pdf(HELLO, tree_resources=True, tree_cropbox=(0, 0, 612, 792))) as doc:
        assert doc.pages[0].text().strip() == "Hello world"


def test_boxes_are_normalised_and_cropbox_defaults_to_mediabox():
    with glyphweave.open(make_pdf(HELLO, mediabox=(612, 792, 0, 0))) as doc:
        page = doc.pages[0]
        assert page.mediabox == (0, 0, 612, 792)
        assert page.cropbox == page.mediabox


def test_raw_profile_keeps_out_of_box_text():
    content = b"BT /F1 10 Tf 100 700 Td (in) Tj ET BT /F1 10 Tf 700 700 Td (out) Tj ET"
    with glyphweave.open(make_pdf(content)) as doc:
        assert "out" not in doc.pages[0].text()
        assert len(doc.pages[0].glyphs()) == 2
        assert len(doc.pages[0].glyphs(raw=True)) == 5
    with glyphweave.open(make_pdf(content), profile="raw") as doc:
        text = doc.pages[0].text()
        assert "in" in text and "out" in text
        assert doc.pages[0].stats.dropped == {}
        assert len(doc.pages[0].glyphs()) == 5


def test_raw_profile_keeps_duplicates():
    content = b"BT /F1 10 Tf 100 700 Td (d) Tj ET BT /F1 10 Tf 100 700 Td (d) Tj ET"
    with glyphweave.open(make_pdf(content)) as doc:
        assert doc.pages[0].text().strip() == "d"
    with glyphweave.open(make_pdf(content), profile="raw") as doc:
        assert len(doc.pages[0].glyphs()) == 2


def test_a_document_is_freed_without_the_cyclic_gc():
    # Pages, interpreters and glyph tables are freed as soon as they are dropped: a
    # reference cycle would keep a whole document (fonts, caches) until the GC runs.
    import gc
    import weakref

    was_enabled = gc.isenabled()
    gc.disable()
    try:
        doc = glyphweave.open(TWO_PAGES)
        doc.text()
        page = doc.pages[0]
        page.glyphs()
        tables = [weakref.ref(page.table)]
        del page
        alive = weakref.ref(doc)
        doc.close()
        del doc
        assert alive() is None
        assert tables[0]() is None
    finally:
        if was_enabled:
            gc.enable()


# -- the garbage collector --------------------------------------------------------------------


class _RecordingAssembler:
    """Wraps the profile's assembler and notes whether the GC ran while it assembled."""

    def __init__(self, inner):
        self.inner = inner
        self.NAME = inner.NAME
        self.seen: list[bool] = []

    def assemble(self, page, indices):
        import gc

        self.seen.append(gc.isenabled())
        return self.inner.assemble(page, indices)


def _gc_states(**options) -> tuple[list[bool], bool]:
    import gc

    with glyphweave.open(TWO_PAGES, **options) as doc:
        recorder = _RecordingAssembler(doc.pipeline.assembler)
        doc.pipeline.assembler = recorder
        text = doc.text()
        assert "Hello world" in text and "Page two" in text
    return recorder.seen, gc.isenabled()


def test_the_library_leaves_the_garbage_collector_alone_by_default():
    # A threaded caller must not find the process-wide collector switched off behind its back.
    assert _gc_states() == ([True, True], True)


def test_pause_gc_pauses_the_collector_per_page_and_restores_it():
    assert _gc_states(pause_gc=True) == ([False, False], True)


def test_pause_gc_resumes_the_collector_between_pages_not_within_them():
    import gc

    states: list[bool] = []
    with glyphweave.open(TWO_PAGES, pause_gc=True) as doc:
        for _page, _text in doc.iter_text():
            states.append(gc.isenabled())  # the consumer's turn: the page is done
            with doc._collector_paused():  # a nested pause (a stage inside the page's)
                with doc._collector_paused():
                    pass
                assert not gc.isenabled()
            assert gc.isenabled()
    assert states == [True, True]


def test_a_page_extracted_with_pause_gc_still_answers_for_its_glyphs_and_stats():
    # The iterators drop a page's glyph table once its text is taken, so the collector
    # resumes without it: asked again, the page interprets again, to the same glyphs,
    # without reporting its warnings twice.
    with glyphweave.open(TWO_PAGES) as doc:
        expected = [(page.glyphs(), page.stats) for page in doc.pages]
    with glyphweave.open(TWO_PAGES, pause_gc=True) as doc:
        pages = [page for page, _text in doc.iter_text()]
        assert all(page._table is None for page in pages)
        left = doc._budget.document_left
        again = [(page.glyphs(), page.stats) for page in pages]
        assert doc.stats.pages == 2
        assert doc._budget.document_left == left  # the content was paid for the first time
    assert [g for g, _ in again] == [g for g, _ in expected]
    assert [s.warnings for _, s in again] == [s.warnings for _, s in expected]
    assert [s.glyphs for _, s in again] == [s.glyphs for _, s in expected]


def test_pause_gc_leaves_a_collector_the_caller_disabled_disabled():
    import gc

    gc.disable()
    try:
        seen, enabled_after = _gc_states(pause_gc=True)
    finally:
        gc.enable()
    assert seen == [False, False] and enabled_after is False
