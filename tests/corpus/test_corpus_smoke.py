"""Smoke runs over the shared corpus and the known-text evaluation set (skipped when absent).

The shared folder sits beside the repository (``../shared``) or where ``GLYPHWEAVE_SHARED``
points. Every corpus file must open and extract through the CLI, or fail with exit 1 and one
error line (encrypted without a password, unopenable); never a traceback. Files longer than
five pages are extracted on pages 1-5 only, to keep the run short.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from pathlib import Path

import pikepdf
import pytest
from shared_corpus import SHARED, read_passwords

from glyphweave.cli import EXIT_PASSWORD, EXIT_UNREADABLE, main

CORPUS = SHARED / "corpus"
EVAL = SHARED / "eval" / "corpus"

if not CORPUS.is_dir() and not EVAL.is_dir():
    pytest.skip(f"shared corpus not found at {SHARED}", allow_module_level=True)

MAX_PAGES = 5
MIN_F1 = 0.9


PASSWORDS = read_passwords(CORPUS)
CORPUS_FILES = sorted(CORPUS.glob("*.pdf")) if CORPUS.is_dir() else []
EVAL_FILES = sorted(EVAL.glob("*.pdf")) if EVAL.is_dir() else []


def _page_count(path: Path, password: str = "") -> int | None:
    try:
        with pikepdf.open(path, password=password) as pdf:
            return len(pdf.pages)
    except Exception:
        return None


def _extract(capsys: pytest.CaptureFixture[str], path: Path, password: str | None = None) -> tuple[int, str, str]:
    argv = ["extract", str(path)]
    if password:
        argv += ["--password", password]
    count = _page_count(path, password or "")
    if count is not None and count > MAX_PAGES:
        argv += ["--pages", f"1-{MAX_PAGES}"]
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def _without_notes(err: str) -> str:
    """Standard error without ``glyphweave: note:`` lines (advice, such as the shapes
    profile's for glyphs of fonts with no mapping: no warning)."""
    return "".join(line for line in err.splitlines(keepends=True) if not line.startswith("glyphweave: note: "))


def _check_run(code: int, err: str) -> None:
    assert "Traceback" not in err
    if code == 0:  # done: at most the document's warnings, one line each, and notes
        assert all(line.startswith(("glyphweave: warning: ", "glyphweave: note: ")) for line in err.splitlines()), err
        return
    assert code in (EXIT_UNREADABLE, EXIT_PASSWORD), err  # cannot open, or a password is needed
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("glyphweave: error:"), err
    assert "unexpected" not in lines[0], lines[0]  # the CLI's catch-all for our own bugs


@pytest.mark.skipif(not CORPUS_FILES, reason="no shared corpus")
@pytest.mark.parametrize("path", CORPUS_FILES, ids=[p.name for p in CORPUS_FILES])
def test_corpus_file_extracts_or_fails_cleanly(capsys: pytest.CaptureFixture[str], path: Path):
    code, _, err = _extract(capsys, path)
    _check_run(code, err)
    if path.name in PASSWORDS and PASSWORDS[path.name][0]:
        assert code == EXIT_PASSWORD and "password" in err


def test_readme_password_table_was_read():
    if not (CORPUS / "README.md").is_file():
        pytest.skip("no corpus README")
    assert PASSWORDS.get("encrypted-aes256-r6-usersecret.pdf") == ("usersecret", "ownersecret")
    assert PASSWORDS.get("encrypted-aes128-copy-protected-macos.pdf") == ("", None)


PASSWORD_CASES = [
    (name, password, kind)
    for name, (user, owner) in sorted(PASSWORDS.items())
    for password, kind in ((user, "user"), (owner, "owner"))
    if password and (CORPUS / name).is_file()
]


@pytest.mark.parametrize(("name", "password", "kind"), PASSWORD_CASES,
                         ids=[f"{n}-{k}" for n, _, k in PASSWORD_CASES])
def test_encrypted_file_with_known_password(capsys: pytest.CaptureFixture[str], name: str, password: str,
                                            kind: str):
    code, _, err = _extract(capsys, CORPUS / name, password)
    assert (code, _without_notes(err)) == (0, "")


def test_empty_user_password_files_open_without_one(capsys: pytest.CaptureFixture[str]):
    names = [n for n, (user, _) in sorted(PASSWORDS.items()) if not user and (CORPUS / n).is_file()]
    if not names:
        pytest.skip("no such files")
    for name in names:
        code, _, err = _extract(capsys, CORPUS / name)
        assert (code, _without_notes(err)) == (0, ""), name


# --------------------------------------------------------------------------- known-text set

_TOKEN = re.compile(r"\w+|[^\w\s]")


def tokens(text: str) -> Counter[str]:
    return Counter(_TOKEN.findall(unicodedata.normalize("NFC", text)))


def token_f1(got: str, truth: str) -> float:
    g, t = tokens(got), tokens(truth)
    common = sum((g & t).values())
    if not common:
        return 0.0
    precision, recall = common / sum(g.values()), common / sum(t.values())
    return 2 * precision * recall / (precision + recall)


def test_token_f1_helper():
    assert token_f1("a b, c", "a b, c") == 1.0
    assert token_f1("a b", "c d") == 0.0
    assert token_f1("H2O x", "H2O y") == pytest.approx(0.5)


@pytest.mark.skipif(not EVAL_FILES, reason="no shared eval set")
@pytest.mark.parametrize("path", EVAL_FILES, ids=[p.name for p in EVAL_FILES])
def test_eval_token_f1(capsys: pytest.CaptureFixture[str], path: Path):
    truth = path.with_name(path.stem + ".truth.txt")
    if not truth.is_file():
        pytest.skip(f"no truth for {path.name}")
    code = main(["extract", str(path)])
    out, err = capsys.readouterr()
    assert (code, err) == (0, "")
    f1 = token_f1(out, truth.read_text(encoding="utf-8"))
    assert f1 >= MIN_F1, f"{path.name}: token F1 {f1:.3f} < {MIN_F1}"
