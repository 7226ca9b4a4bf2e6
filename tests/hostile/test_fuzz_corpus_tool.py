"""tools/fuzz_corpus.py classifies a run by the command line's own lines: a warning that quotes
qpdf's words ("unexpected >") is text, only the catch-all's error line is UNEXPECTED."""

from __future__ import annotations

import importlib.util
import sys
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
