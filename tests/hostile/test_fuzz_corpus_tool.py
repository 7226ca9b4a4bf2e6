"""tools/fuzz_corpus.py classifies a run by the command line's own lines: a warning that quotes
qpdf's words ("unexpected >") is text, only the catch-all's error line is UNEXPECTED."""

from __future__ import annotations

import importlib.util
import sys
import time
from pathlib import Path

import pytest

TOOL = Path(__file__).resolve().parents[2] / "tools" / "fuzz_corpus.py"


@pytest.fixture(scope="module")
def fuzz():
    spec = importlib.util.spec_from_file_location("fuzz_corpus", TOOL)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _saying(line: str, status: int) -> list[str]:
    """A stand-in for the command: prints ``line`` on standard error and exits ``status``."""
    return [sys.executable, "-c", f"import sys; print({line!r}, file=sys.stderr); sys.exit({status})"]


@pytest.mark.parametrize(("line", "status", "verdict"), [
    ("glyphweave: warning: qpdf: object stream 4 (object 733 0, offset 41607): unexpected > (2 times)", 0, "text"),
    ("glyphweave: error: unexpected KeyError: '/Foo' (a bug: please report it)", 1, "UNEXPECTED"),
    ("glyphweave: error: not a PDF file", 4, "clean error"),
], ids=["qpdf-warning", "catch-all", "clean-error"])
def test_a_run_is_classified_by_the_command_lines_own_lines(fuzz, tmp_path: Path, line: str, status: int,
                                                             verdict: str):
    assert fuzz.run_one(_saying(line, status), tmp_path / "x.pdf", 30)[0] == verdict


def test_the_peak_is_the_commands_own_not_the_fuzzers(fuzz, tmp_path: Path):
    # The fuzzer holds every mutated file: a command forked from it counted those pages as its own.
    from glyphweave.testing.pdfs import make_pdf

    pdf = tmp_path / "small.pdf"
    pdf.write_bytes(make_pdf(b"BT /F1 12 Tf 72 700 Td (Hello) Tj ET"))
    held = b"x" * (400 << 20)
    verdict, _seconds, peak_mb, _last = fuzz.run_one(fuzz._peak_rss_wrapper(), pdf, 120)
    assert verdict == "text" and len(held) == 400 << 20
    assert 0 < peak_mb < 200, f"peak RSS {peak_mb} MB"


def test_a_hang_kills_the_command_too(fuzz, tmp_path: Path):
    marker = tmp_path / "survived"
    command = f"import pathlib, time; time.sleep(3); pathlib.Path({str(marker)!r}).touch()"
    launcher = f"import subprocess, sys; subprocess.call([sys.executable, '-c', {command!r}])"
    assert fuzz.run_one([sys.executable, "-c", launcher], tmp_path / "x.pdf", 0.5)[0] == "HANG"
    time.sleep(4)  # past the moment the command would have touched the marker
    assert not marker.exists()
