"""glyphweave new-plugin: the package it writes installs nothing by hand and passes its own tests."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from glyphweave.cli import EXIT_ERROR, main


@pytest.mark.parametrize("kind", ["decoder", "filter", "assembler"])
def test_the_new_package_passes_its_own_tests(kind: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["new-plugin", f"demo-{kind}", "--kind", kind, "-o", str(tmp_path)]) == 0
    folder = tmp_path / f"glyphweave-demo-{kind}"
    assert capsys.readouterr().out.startswith(f"wrote {folder}")
    module = f"glyphweave_demo_{kind}"
    assert sorted(p.name for p in folder.iterdir()) == sorted(
        ["README.md", "pyproject.toml", "tox.ini", f"{module}.py", f"test_{module}.py"])
    assert f'demo-{kind} = "{module}"' in (folder / "pyproject.toml").read_text()
    env = {**os.environ, "PYTHONPATH": str(folder), "PYTHONDONTWRITEBYTECODE": "1"}
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(folder)],
                          cwd=folder, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    assert " passed" in done.stdout


def test_bad_names_and_existing_folders_are_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["new-plugin", "Bad_Name", "-o", str(tmp_path)]) == EXIT_ERROR
    assert capsys.readouterr().err == ("glyphweave: error: plugin name 'Bad_Name': use lower-case letters, digits "
                                       "and hyphens, starting with a letter\n")
    assert main(["new-plugin", "twice", "-o", str(tmp_path)]) == 0
    (tmp_path / "glyphweave-twice" / "README.md").write_text("mine")
    assert main(["new-plugin", "twice", "-o", str(tmp_path)]) == EXIT_ERROR
    assert "exists already" in capsys.readouterr().err
    assert (tmp_path / "glyphweave-twice" / "README.md").read_text() == "mine"  # nothing overwritten
