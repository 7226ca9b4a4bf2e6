"""Warnings are records: a program branches on ``kind`` and ``page``, never on the text."""

from __future__ import annotations

import argparse
import io
import pickle
import zlib

import pikepdf
import pytest

import glyphweave
from glyphweave.cli import EXIT_LIMIT, EXIT_WARNINGS, _finish
from glyphweave.guard.clock import TimeLimitReached
from glyphweave.guard.limits import LimitReached
from glyphweave.guard.report import KINDS, WarningRecord
from glyphweave.testing.pdfs import Page, make_pdf

TEXT = b"BT /F1 12 Tf 72 700 Td (kept) Tj ET "


def _damaged() -> bytes:
    """Page 1 names a font its resources lack; page 2 holds more content than 1 MB allows."""
    bomb = TEXT + b" " * (3 << 20)
    return make_pdf(b"BT /F9 12 Tf 72 700 Td (a) Tj ET " + TEXT, extra_pages=[Page(bomb)])


def test_document_warnings_are_records_with_kind_page_and_limit() -> None:
    with glyphweave.open(_damaged(), limits={"page_content_mb": 1}) as doc:
        doc.text()
        warnings = doc.warnings()
    assert all(isinstance(warning, WarningRecord) for warning in warnings)
    content, no_font, limit = warnings
    assert (content.kind, content.page, content.source, content.limit) == ("content", 1, "", None)
    assert str(content) == "page 1: font /F9 not in resources"
    assert (no_font.kind, str(no_font)) == ("content", "page 1: text shown with no font set")
    assert (limit.kind, limit.page, limit.limit) == ("limit", 2, "page_content_mb")
    assert str(limit).startswith("page 2: limit reached: page content cut after")
    assert limit.to_dict() == {"kind": "limit", "message": limit.message, "page": 2, "source": "",
                               "limit": "page_content_mb"}


def test_an_unknown_kind_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown warning kind 'oops'"):
        WarningRecord(kind="oops", message="x")
    assert set(KINDS) == {"file", "content", "font", "structure", "component", "limit"}


def test_a_limit_reached_keeps_its_limit_across_processes() -> None:
    for reached in (LimitReached("limit reached: too much", "page_records_mb"), TimeLimitReached()):
        again = pickle.loads(pickle.dumps(reached))
        assert (type(again), str(again), again.limit) == (type(reached), str(reached), reached.limit)
    assert TimeLimitReached().warning().limit == "page_seconds"


class _Reported:
    """A document that has given ``warnings``."""

    def __init__(self, *warnings: WarningRecord) -> None:
        self._warnings = list(warnings)
        self.component_warnings: list[WarningRecord] = []

    def warnings(self) -> list[WarningRecord]:
        return self._warnings

    def warning_count(self) -> int:
        return len(self._warnings)


@pytest.mark.parametrize(("kind", "status"), [("limit", EXIT_LIMIT), ("font", EXIT_WARNINGS)])
def test_strict_exit_status_comes_from_the_kind_not_the_words(kind: str, status: int, capsys) -> None:
    # Worded to mislead a test on the text: the kind alone decides.
    words = "nothing reached here" if kind == "limit" else "limit reached: a font's own words"
    args = argparse.Namespace(quiet=False, strict=True, broken_plugins=0)
    assert _finish(args, _Reported(WarningRecord(kind=kind, message=words, page=1))) == status
    assert f"glyphweave: warning: page 1: {words}" in capsys.readouterr().err


def test_jsonl_statistics_keep_warnings_as_their_messages() -> None:
    with glyphweave.open(_damaged(), limits={"page_content_mb": 1}) as doc:
        stats = doc.pages[0].stats.to_dict()
    assert stats["warnings"] == ["font /F9 not in resources", "text shown with no font set"]


def test_a_message_that_starts_with_page_still_gets_its_page() -> None:
    # "page content damaged ..." once lost its "page 1: " to a test of the message's first word.
    with pikepdf.open(io.BytesIO(make_pdf(TEXT))) as pdf:
        contents = pdf.pages[0].obj.Contents
        flate = bytearray(zlib.compress(contents.read_bytes()))
        flate[-1] ^= 0xFF  # a wrong checksum: the data is whole, its check fails
        contents.write(bytes(flate), filter=pikepdf.Name.FlateDecode)
        out = io.BytesIO()
        pdf.save(out)
    with glyphweave.open(out.getvalue()) as doc:
        assert "kept" in doc.text()
        (warning,) = doc.warnings()
    assert (warning.kind, warning.page) == ("content", 1)
    assert str(warning).startswith("page 1: page content damaged (")
