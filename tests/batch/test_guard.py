"""A batch never writes over a file it did not write: an output folder holding the user's
files is refused before any work (exit 2) unless ``--resume`` or ``--force``; even then, a
PDF whose output would replace such a file, or an input file, is reported, never written;
the manifest is appended to only when it is one, and stays a link when it is one.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from glyphweave.batch import MANIFEST, read_manifest, run_batch
from glyphweave.cli import main
from glyphweave.core.errors import UsageError
from glyphweave.testing.pdfs import make_pdf, text_at


def pdf(path: Path, words: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(make_pdf(text_at(words)))
    return path


def batch(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    code = main(["batch", "-j", "1", *argv])
    return code, capsys.readouterr().err


def summary(err: str) -> dict:
    return json.loads(err.strip().splitlines()[-1])["summary"]


def snapshot(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def test_a_folder_of_the_users_files_is_refused_before_any_work(capsys, tmp_path):
    source = pdf(tmp_path / "in" / "a.pdf", "alpha")
    out = tmp_path / "out"
    out.mkdir()
    (out / "thesis.docx").write_bytes(b"years of work")
    before = snapshot(out)
    code, err = batch(capsys, str(source), "-o", str(out))
    assert code == 2 and len(err.strip().splitlines()) == 1
    assert "thesis.docx" in err and "--force" in err and "--resume" in err
    assert snapshot(out) == before          # no manifest, no output


def test_batch_dir_into_itself_never_overwrites_the_users_text(capsys, tmp_path):
    folder = tmp_path / "papers"
    pdf(folder / "a.pdf", "alpha")
    pdf(folder / "b.pdf", "beta")
    (folder / "a.txt").write_text("my own notes on a", encoding="utf-8")
    code, err = batch(capsys, str(folder), "-o", str(folder))
    assert code == 2 and "a.txt" in err
    assert not (folder / "b.txt").exists() and not (folder / MANIFEST).exists()

    code, err = batch(capsys, str(folder), "-o", str(folder), "--force")
    assert code == 1
    assert (folder / "a.txt").read_text(encoding="utf-8") == "my own notes on a"
    assert "beta" in (folder / "b.txt").read_text(encoding="utf-8")
    lines = read_manifest(folder / MANIFEST)
    refused = lines[str(folder / "a.pdf")]
    assert refused["status"] == "failed" and "not overwritten" in refused["error"] and refused["exit_status"] == 2
    assert "a.txt" in err and "not overwritten" in err

    # The next run into the same folder: b.txt is a batch's (its manifest says so), a.txt still is not.
    code, err = batch(capsys, str(folder), "-o", str(folder), "--force")
    assert code == 1 and (folder / "a.txt").read_text(encoding="utf-8") == "my own notes on a"
    assert summary(err)["ok"] == 1


def test_a_pdf_whose_output_is_an_input_is_never_written(capsys, tmp_path):
    odd = tmp_path / "c.txt"                   # a PDF under a .txt name, given directly
    odd.write_bytes(make_pdf(text_at("odd one")))
    original = odd.read_bytes()
    for flag in ("--force", "--resume"):
        code, err = batch(capsys, str(odd), "-o", str(tmp_path), flag)
        assert code == 1, err
        assert odd.read_bytes() == original
        line = read_manifest(tmp_path / MANIFEST)[str(odd)]
        assert line["status"] == "failed" and "is an input file" in line["error"], flag


def test_rerunning_into_its_own_output_folder_needs_no_flag(capsys, tmp_path):
    source = pdf(tmp_path / "in" / "a.pdf", "alpha")
    out = tmp_path / "out"
    assert batch(capsys, str(source), "-o", str(out))[0] == 0
    code, err = batch(capsys, str(source), "-o", str(out))
    assert code == 0, err
    assert len((out / MANIFEST).read_text(encoding="utf-8").splitlines()) == 1


def test_outputs_are_recognised_by_content_from_another_working_folder(capsys, tmp_path, monkeypatch):
    source = pdf(tmp_path / "in" / "a.pdf", "alpha")
    (tmp_path / "first").mkdir()
    monkeypatch.chdir(tmp_path / "first")
    assert batch(capsys, str(source), "-o", "../out")[0] == 0   # the manifest says ../out/a.txt
    monkeypatch.chdir(tmp_path)
    code, err = batch(capsys, str(source), "-o", "out")
    assert code == 0, err


def test_resume_accepts_other_files_and_leaves_them_alone(capsys, tmp_path):
    source = pdf(tmp_path / "in" / "a.pdf", "alpha")
    out = tmp_path / "out"
    out.mkdir()
    (out / "README").write_text("keep me", encoding="utf-8")
    code, err = batch(capsys, str(source), "-o", str(out), "--resume")
    assert code == 0, err
    assert (out / "README").read_text(encoding="utf-8") == "keep me" and (out / "a.txt").is_file()


def test_a_manifest_that_is_not_one_is_refused(capsys, tmp_path):
    source = pdf(tmp_path / "in" / "a.pdf", "alpha")
    notes = tmp_path / "notes.txt"
    notes.write_text("shopping list\nmilk\n", encoding="utf-8")
    code, err = batch(capsys, str(source), "-o", str(tmp_path / "out"), "--manifest", str(notes))
    assert code == 2 and "not a batch manifest" in err
    assert notes.read_text(encoding="utf-8") == "shopping list\nmilk\n"
    assert not (tmp_path / "out" / "a.txt").exists()


def test_a_manifest_that_is_an_input_is_refused(capsys, tmp_path):
    source = pdf(tmp_path / "in" / "a.pdf", "alpha")
    original = source.read_bytes()
    code, err = batch(capsys, str(source), "-o", str(tmp_path / "out"), "--manifest", str(source))
    assert code == 2 and "input file" in err
    assert source.read_bytes() == original


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="needs symbolic links")
def test_a_manifest_link_stays_a_link_when_compacted(tmp_path):
    source = pdf(tmp_path / "in" / "a.pdf", "alpha")
    kept = tmp_path / "logs" / "batch.jsonl"
    kept.parent.mkdir()
    out = tmp_path / "out"
    out.mkdir()
    (out / MANIFEST).symlink_to(kept)
    list(run_batch([str(source)], str(out), jobs=1))
    list(run_batch([str(source)], str(out), jobs=1))   # a second line for a.pdf, then compacted
    assert (out / MANIFEST).is_symlink() and os.readlink(out / MANIFEST) == str(kept)
    assert len(kept.read_text(encoding="utf-8").splitlines()) == 1


def test_the_refusal_comes_before_anything_from_python_too(tmp_path):
    source = pdf(tmp_path / "in" / "a.pdf", "alpha")
    out = tmp_path / "out"
    out.mkdir()
    (out / "mine.txt").write_text("mine", encoding="utf-8")
    with pytest.raises(UsageError, match="mine.txt"):
        next(run_batch([str(source)], str(out)))
    assert sorted(p.name for p in out.iterdir()) == ["mine.txt"]
