"""The exit-status table of docs/usage.rst is what the command does: each documented status is
driven by the cases that should give it, and the table, the constants and ``--help`` agree."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pikepdf
import pytest

from glyphweave.cli import (
    EXIT_ERROR,
    EXIT_LIMIT,
    EXIT_PASSWORD,
    EXIT_PLUGIN,
    EXIT_UNREADABLE,
    EXIT_USAGE,
    EXIT_WARNINGS,
    main,
)
from pdfs import Page, make_pdf

DOCS = Path(__file__).resolve().parent.parent / "docs" / "usage.rst"

STATUSES = {0: "done", EXIT_ERROR: "any other error", EXIT_USAGE: "the command line is wrong",
            EXIT_WARNINGS: "--strict", EXIT_UNREADABLE: "cannot be opened", EXIT_PASSWORD: "password",
            EXIT_PLUGIN: "plugin", EXIT_LIMIT: "resource limit"}


def _documented() -> dict[int, str]:
    """Status -> its row in the docs' table (continuation lines joined)."""
    text = DOCS.read_text(encoding="utf-8")
    table = text[text.index("status meaning"):]
    table = table[table.index("\n====") + 1:]
    table = table[table.index("\n") + 1: table.index("\n====")]
    rows: dict[int, str] = {}
    last = None
    for line in table.splitlines():
        found = re.match(r"(\d+)\s+(.*)", line)
        if found:
            last = int(found[1])
            rows[last] = found[2]
        elif last is not None:
            rows[last] += " " + line.strip()
    return rows


@pytest.mark.skipif(not DOCS.is_file(), reason="the docs are not beside the tests")
def test_the_table_documents_every_status_and_only_those() -> None:
    rows = _documented()
    assert sorted(rows) == sorted(STATUSES)
    for status, words in STATUSES.items():
        assert words in rows[status].replace("``", ""), (status, rows[status])


def test_help_lists_the_same_statuses(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--help"])
    epilog = capsys.readouterr().out.split("exit status:")[1]
    assert sorted(int(n) for n in re.findall(r"(\d+) [a-z-]", epilog)) == sorted(STATUSES)


# --------------------------------------------------------------------------- each case, driven


def _pdf(folder: Path) -> Path:
    path = folder / "two.pdf"
    if not path.exists():
        path.write_bytes(make_pdf(b"BT /F1 10 Tf 100 700 Td (Hello) Tj ET",
                                  extra_pages=[Page(b"BT /F1 10 Tf 100 700 Td (Two) Tj ET")]))
    return path


def _file(folder: Path, name: str, content: bytes) -> Path:
    path = folder / name
    path.write_bytes(content)
    return path


def _user_folder(folder: Path) -> Path:
    """A folder holding a file of the user's, which no batch wrote."""
    mine = folder / "mine"
    mine.mkdir(exist_ok=True)
    (mine / "notes.txt").write_text("mine")
    return mine


def _bomb(folder: Path) -> Path:
    from hostile.files import deflate_bomb

    return _file(folder, "bomb.pdf", deflate_bomb(20))


Case = Callable[[Path], list[str]]

CASES: dict[str, tuple[int, Case]] = {
    "done": (0, lambda d: ["extract", str(_pdf(d))]),
    "done with warnings, not strict": (0, lambda d: ["extract", str(_file(d, "fontless.pdf", make_pdf(
        b"BT 100 700 Td (no font) Tj ET")))]),
    "output folder missing": (EXIT_ERROR, lambda d: ["extract", str(_pdf(d)), "-o", str(d / "no" / "out.txt")]),
    "unknown option": (EXIT_USAGE, lambda d: ["extract", str(_pdf(d)), "--no-such-option"]),
    "page 0": (EXIT_USAGE, lambda d: ["extract", str(_pdf(d)), "--pages", "0"]),
    "reversed pages": (EXIT_USAGE, lambda d: ["extract", str(_pdf(d)), "--pages", "5-2"]),
    "pages not numbers": (EXIT_USAGE, lambda d: ["extract", str(_pdf(d)), "--pages", "abc"]),
    "empty pages": (EXIT_USAGE, lambda d: ["extract", str(_pdf(d)), "--pages", ""]),
    "page past the end": (EXIT_USAGE, lambda d: ["extract", str(_pdf(d)), "--pages", "3"]),
    "negative limit": (EXIT_USAGE, lambda d: ["extract", str(_pdf(d)), "--max-page-mb", "-1"]),
    "unknown mode": (EXIT_USAGE, lambda d: ["extract", str(_pdf(d)), "--mode", "nosuch"]),
    "unknown encoding": (EXIT_USAGE, lambda d: ["extract", str(_pdf(d)), "--encoding", "nosuch"]),
    "output is the input": (EXIT_USAGE, lambda d: ["extract", str(_pdf(d)), "-o", str(_pdf(d))]),
    "output is a folder": (EXIT_USAGE, lambda d: ["glyphs", str(_pdf(d)), "-o", str(d)]),
    "strict with a warning": (EXIT_WARNINGS, lambda d: ["extract", "--strict", str(_file(
        d, "fontless.pdf", make_pdf(b"BT 100 700 Td (no font) Tj ET")))]),
    "missing file": (EXIT_UNREADABLE, lambda d: ["extract", str(d / "missing.pdf")]),
    "a device, not a file": (EXIT_UNREADABLE, lambda d: ["extract", "/dev/zero"]),
    "a folder, not a file": (EXIT_UNREADABLE, lambda d: ["extract", str(d)]),
    "not a PDF": (EXIT_UNREADABLE, lambda d: ["extract", str(_file(d, "bad.pdf", b"not a pdf"))]),
    "truncated": (EXIT_UNREADABLE, lambda d: ["extract", str(_file(d, "cut.pdf", _pdf(d).read_bytes()[:40]))]),
    "password missing": (EXIT_PASSWORD, lambda d: ["extract", str(_file(d, "secret.pdf", make_pdf(
        b"", encryption=pikepdf.Encryption(user="u", owner="o"))))]),
    "password wrong": (EXIT_PASSWORD, lambda d: ["extract", "--password", "x", str(_file(d, "secret.pdf", make_pdf(
        b"", encryption=pikepdf.Encryption(user="u", owner="o"))))]),
    "unknown profile": (EXIT_PLUGIN, lambda d: ["extract", str(_pdf(d)), "--profile", "nosuch"]),
    "plugin module missing": (EXIT_PLUGIN, lambda d: ["extract", str(_pdf(d)), "-p", "no_such_plugin_module"]),
    "batch: reversed pages": (EXIT_USAGE, lambda d: ["batch", str(_pdf(d)), "-o", str(d / "out"), "--pages", "5-2"]),
    "batch: memory limit too small": (EXIT_USAGE, lambda d: ["batch", str(_pdf(d)), "-o", str(d / "out"),
                                                             "--memory-mb", "10"]),
    "batch: a folder of the user's files": (EXIT_USAGE, lambda d: ["batch", str(_pdf(d)), "-o", str(_user_folder(d))]),
    "batch: plugin module missing": (EXIT_PLUGIN, lambda d: ["batch", str(_pdf(d)), "-o", str(d / "out"),
                                                             "-p", "no_such_plugin_module"]),
    "strict with a limit": (EXIT_LIMIT, lambda d: ["extract", "--strict", "--max-page-mb", "2", str(_bomb(d))]),
}


@pytest.mark.parametrize("case", CASES)
def test_each_case_exits_with_its_documented_status(
        case: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    expected, argv = CASES[case]
    try:
        status = main(argv(tmp_path))
    except SystemExit as exited:  # argparse's own refusals
        status = exited.code if isinstance(exited.code, int) else EXIT_ERROR
    err = capsys.readouterr().err
    assert status == expected, err
    assert "Traceback" not in err and "unexpected" not in err
    if expected:
        assert "error" in err or "warning" in err


STDIN_CASES: dict[str, tuple[int, bytes, list[str]]] = {
    "standard input empty": (EXIT_UNREADABLE, b"", []),
    "standard input past its limit": (EXIT_UNREADABLE, b"%PDF-" + b"0" * (1 << 20), ["--max-input-mb", "1"]),
}


@pytest.mark.parametrize("case", STDIN_CASES)
def test_each_standard_input_case_exits_with_its_documented_status(case: str) -> None:
    expected, data, options = STDIN_CASES[case]
    done = subprocess.run([sys.executable, "-m", "glyphweave.cli", "extract", "-", *options], input=data,
                          capture_output=True, timeout=120, check=False, env=dict(os.environ))
    assert done.returncode == expected, done.stderr
    assert done.stderr.count(b"\n") == 1 and b"Traceback" not in done.stderr
