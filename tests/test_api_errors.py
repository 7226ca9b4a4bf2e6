"""What the Python API raises, and when (issue 25): a closed document, a path that names no
file or no regular file, a password, and the errors ``glyphweave`` exports."""

from __future__ import annotations

import errno
import inspect
import io
import os
import pickle
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pikepdf
import pytest

import glyphweave
from glyphweave.core import errors
from glyphweave.core.errors import (
    DocumentClosedError,
    GlyphweaveError,
    NotARegularFileError,
    PasswordError,
    PDFNotFoundError,
    PDFOpenError,
)
from glyphweave.exits import EXIT_UNREADABLE, exit_status
from pdfs import Page, make_pdf

TWO_PAGES = make_pdf(b"BT /F1 10 Tf 100 700 Td (Hello world) Tj ET",
                     extra_pages=[Page(b"BT /F1 10 Tf 100 700 Td (Page two) Tj ET")])
DOCS = Path(__file__).resolve().parents[1] / "docs" / "usage.rst"


# --------------------------------------------------------------------------- a closed document


DOCUMENT_READS: dict[str, Callable[[Any], Any]] = {
    "text": lambda doc: doc.text(),
    "text of some pages": lambda doc: doc.text(pages=[1]),
    "pages": lambda doc: doc.pages,
    "iter": lambda doc: iter(doc),
    "iter_text": lambda doc: next(doc.iter_text()),
    "iter_assembled": lambda doc: next(doc.iter_assembled()),
    "iter_glyphs": lambda doc: next(doc.iter_glyphs()),
    "iter_glyphs raw": lambda doc: next(doc.iter_glyphs(raw=True)),
    "with": lambda doc: doc.__enter__(),
}

PAGE_READS: dict[str, Callable[[Any], Any]] = {
    "text": lambda page: page.text(),
    "text in a mode": lambda page: page.text(mode="layout"),
    "assembled": lambda page: page.assembled(),
    "glyphs": lambda page: page.glyphs(),
    "raw glyphs": lambda page: page.glyphs(raw=True),
    "table": lambda page: page.table,
    "visible_indices": lambda page: page.visible_indices(),
    "stats": lambda page: page.stats,
    "structure": lambda page: page.structure(),
    "context": lambda page: page.context(),
}


@pytest.mark.parametrize("read", DOCUMENT_READS.values(), ids=DOCUMENT_READS.keys())
def test_a_closed_document_refuses_to_be_read(read: Callable[[Any], Any]):
    doc = glyphweave.open(TWO_PAGES)
    doc.close()
    with pytest.raises(DocumentClosedError, match="^<bytes>: the document is closed$") as info:
        read(doc)
    assert isinstance(info.value, ValueError)  # as reading a closed file
    assert isinstance(info.value, GlyphweaveError)


def test_a_closed_document_writes_nothing_to_a_stream():
    doc = glyphweave.open(TWO_PAGES)
    doc.close()
    out = io.StringIO()
    with pytest.raises(DocumentClosedError):
        doc.write_text(out, bom=True)
    assert out.getvalue() == ""


@pytest.mark.parametrize("read", PAGE_READS.values(), ids=PAGE_READS.keys())
@pytest.mark.parametrize("extracted", [False, True], ids=["fresh", "extracted"])
def test_a_page_taken_before_close_refuses_to_be_read(read: Callable[[Any], Any], extracted: bool):
    with glyphweave.open(TWO_PAGES) as doc:
        page = doc.pages[1]
        if extracted:  # its table, text and statistics kept with it
            assert page.text().strip() == "Page two" and page.stats.glyphs == 8
    with pytest.raises(DocumentClosedError):
        read(page)
    assert page.number == 1 and page.mediabox == (0, 0, 612, 792)  # what it is, not what it reads


def test_a_page_list_taken_before_close_refuses_to_hand_out_pages():
    with glyphweave.open(TWO_PAGES) as doc:
        pages = doc.pages
    assert len(pages) == 2
    with pytest.raises(DocumentClosedError):
        pages[0]
    with pytest.raises(DocumentClosedError):
        list(pages)


def test_closing_stops_an_iteration_under_way():
    doc = glyphweave.open(TWO_PAGES)
    pages = doc.iter_text()
    first, text = next(pages)
    assert first.number == 0 and "Hello" in text
    doc.close()
    with pytest.raises(DocumentClosedError):
        next(pages)


def test_a_closed_document_keeps_what_it_knew():
    with glyphweave.open(TWO_PAGES) as doc:
        doc.text(pages=[0])
        stats, warnings, assembly = doc.stats, doc.warnings(), doc.assembly()
    assert doc.closed
    assert len(doc) == 2
    assert (doc.stats, doc.warnings(), doc.assembly()) == (stats, warnings, assembly)
    assert stats.pages == 1
    assert doc.component_warnings == []
    doc.close()  # a second close does nothing
    assert doc.closed


# --------------------------------------------------------------------------- paths


def test_a_missing_file_is_a_file_not_found_error(tmp_path: Path):
    path = tmp_path / "absent.pdf"
    with pytest.raises(FileNotFoundError) as info:
        glyphweave.open(path)
    exc = info.value
    assert isinstance(exc, PDFNotFoundError) and isinstance(exc, PDFOpenError)
    assert exc.errno == errno.ENOENT and exc.filename == str(path)
    assert str(exc) == f"{path}: no such file"
    assert exit_status(exc) == EXIT_UNREADABLE
    again = pickle.loads(pickle.dumps(exc))  # it crosses process boundaries (extract --jobs, batch)
    assert type(again) is PDFNotFoundError and str(again) == str(exc) and again.filename == str(path)


@pytest.fixture()
def pikepdf_never_reached(monkeypatch: pytest.MonkeyPatch) -> None:
    """A path refused must be refused before qpdf opens it: qpdf reads /dev/zero for ever
    and blocks on a FIFO. Failing loudly here keeps a regression from hanging the suite."""

    def reached(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError(f"pikepdf.open was called with {args[0]!r}")

    monkeypatch.setattr(pikepdf, "open", reached)


def special_files(tmp_path: Path) -> dict[str, str]:
    fifo = tmp_path / "fifo.pdf"
    os.mkfifo(fifo)
    link = tmp_path / "link-to-fifo.pdf"
    link.symlink_to(fifo)
    files = {"FIFO": str(fifo), "FIFO through a link": str(link)}
    if os.path.exists("/dev/zero"):
        files["character device"] = "/dev/zero"
    return files


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
@pytest.mark.usefixtures("pikepdf_never_reached")
def test_a_path_that_is_not_a_regular_file_is_refused_unread(tmp_path: Path):
    for what, path in special_files(tmp_path).items():
        kind = what.split(" through")[0]
        with pytest.raises(NotARegularFileError) as info:
            glyphweave.open(path)
        exc = info.value
        assert (exc.filename, exc.kind) == (path, kind)
        assert str(exc) == f"{path}: is a {kind}, not a regular file; read it and open the bytes instead"
        assert isinstance(exc, PDFOpenError) and exit_status(exc) == EXIT_UNREADABLE


@pytest.mark.usefixtures("pikepdf_never_reached")
def test_a_folder_is_refused_unread(tmp_path: Path):
    with pytest.raises(NotARegularFileError, match="is a directory, not a PDF") as info:
        glyphweave.open(tmp_path)
    assert info.value.kind == "directory" and exit_status(info.value) == EXIT_UNREADABLE


@pytest.mark.usefixtures("pikepdf_never_reached")
def test_a_path_through_a_file_is_a_clear_open_error(tmp_path: Path):
    plain = tmp_path / "plain.pdf"
    plain.write_bytes(b"%PDF")
    with pytest.raises(PDFOpenError, match=r"plain\.pdf/x\.pdf: cannot open \(Not a directory\)$") as info:
        glyphweave.open(plain / "x.pdf")
    assert not isinstance(info.value, FileNotFoundError)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_extract_refuses_a_device_or_fifo_at_once(tmp_path: Path):
    # A child process, so that a regression (reading /dev/zero for ever, waiting on the FIFO's
    # writer) is killed at the timeout instead of hanging the suite.
    for path in special_files(tmp_path).values():
        done = subprocess.run([sys.executable, "-m", "glyphweave.cli", "extract", path],
                              capture_output=True, text=True, timeout=120, check=False)
        assert done.returncode == EXIT_UNREADABLE, done.stderr
        assert done.stdout == ""
        lines = done.stderr.splitlines()
        assert len(lines) == 1 and "not a PDF file" in lines[0], done.stderr


# --------------------------------------------------------------------------- passwords


def encrypted() -> bytes:
    return make_pdf(b"BT /F1 10 Tf 100 700 Td (Secret) Tj ET",
                    encryption=pikepdf.Encryption(user="u", owner="o"))


@pytest.mark.parametrize(("password", "given", "message"), [
    (None, False, "<bytes>: encrypted; a password is needed"),
    ("", False, "<bytes>: encrypted; a password is needed"),
    ("nope", True, "<bytes>: wrong password"),
])
def test_a_password_error_says_what_is_wrong_and_names_no_option(password: str | None, given: bool,
                                                                  message: str):
    with pytest.raises(PasswordError) as info:
        glyphweave.open(encrypted(), password=password)
    assert str(info.value) == message  # no "--password": the library has no command line
    assert info.value.password_given is given
    again = pickle.loads(pickle.dumps(info.value))
    assert str(again) == message and again.password_given is given


# --------------------------------------------------------------------------- exports


def public_errors() -> dict[str, type[BaseException]]:
    return {name: cls for name, cls in inspect.getmembers(errors, inspect.isclass)
            if issubclass(cls, GlyphweaveError) and cls.__module__ == errors.__name__}


def test_every_error_is_exported_by_glyphweave():
    found = public_errors()
    assert {"GlyphweaveError", "PDFOpenError", "PasswordError", "PageError", "ProfileError", "PluginError",
            "ComponentError", "UsageError", "PDFNotFoundError", "NotARegularFileError",
            "DocumentClosedError"} <= found.keys()
    for name, cls in found.items():
        assert name in glyphweave.__all__, name
        assert getattr(glyphweave, name) is cls, name


def test_every_error_is_documented():
    text = DOCS.read_text(encoding="utf-8")
    for name in public_errors():
        assert f"``{name}``" in text, name


def test_the_errors_load_lazily():
    # "glyphweave --help" starts fast: importing the package loads none of its modules.
    code = ("import sys, glyphweave; loaded = [m for m in sys.modules if m.startswith('glyphweave.')]; "
            "assert not loaded, loaded; glyphweave.PDFNotFoundError; assert 'glyphweave.core.errors' in sys.modules; "
            "assert 'glyphweave.api' not in sys.modules")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
