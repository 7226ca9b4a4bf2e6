"""glyphweave new-plugin: the package it writes installs nothing by hand and passes its own tests."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from glyphweave.cli import EXIT_ERROR, main
from glyphweave.testing import fake_entry_point_distribution


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


def _glyphweave_imports(source: str) -> set[tuple[str, str]]:
    """(module, name) of every ``from glyphweave... import name`` in ``source``."""
    import ast

    return {(node.module, alias.name) for node in ast.walk(ast.parse(source))
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("glyphweave")
            for alias in node.names}


@pytest.mark.parametrize("kind", ["decoder", "filter", "assembler"])
def test_the_new_package_uses_only_the_stable_contract(kind: str, tmp_path: Path) -> None:
    import glyphweave.plugin

    assert main(["new-plugin", f"demo-{kind}", "--kind", kind, "-o", str(tmp_path)]) == 0
    source = (tmp_path / f"glyphweave-demo-{kind}" / f"glyphweave_demo_{kind}.py").read_text()
    found = _glyphweave_imports(source)
    assert found and all(module == "glyphweave.plugin" and name in glyphweave.plugin.__all__
                         for module, name in found), found


def test_the_example_plugin_uses_only_the_stable_contract() -> None:
    import glyphweave.plugin

    source = (Path(__file__).parent / "example_plugin" / "glyphweave_rot13.py").read_text()
    found = _glyphweave_imports(source)
    assert found and all(module == "glyphweave.plugin" and name in glyphweave.plugin.__all__
                         for module, name in found), found


def test_bad_names_and_existing_folders_are_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["new-plugin", "Bad_Name", "-o", str(tmp_path)]) == EXIT_ERROR
    assert capsys.readouterr().err == ("glyphweave: error: plugin name 'Bad_Name': use lower-case letters, digits "
                                       "and hyphens, starting with a letter\n")
    assert main(["new-plugin", "twice", "-o", str(tmp_path)]) == 0
    (tmp_path / "glyphweave-twice" / "README.md").write_text("mine")
    assert main(["new-plugin", "twice", "-o", str(tmp_path)]) == EXIT_ERROR
    assert "exists already" in capsys.readouterr().err
    assert (tmp_path / "glyphweave-twice" / "README.md").read_text() == "mine"  # nothing overwritten


def test_a_name_an_installed_plugin_holds_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    from glyphweave import __version__

    # The package `new-plugin dedup --kind filter` wrote used to clash with the built-in dedup.
    assert main(["new-plugin", "dedup", "--kind", "filter", "-o", str(tmp_path)]) == EXIT_ERROR
    assert capsys.readouterr().err == (f"glyphweave: error: plugin name 'dedup': the entry point 'dedup' is taken by "
                                       f"glyphweave {__version__}; choose another name\n")
    assert not (tmp_path / "glyphweave-dedup").exists()
    # An installed plugin whose entry point "third" registers the decoder "fresh".
    (tmp_path / "gw_scaffold_third.py").write_text(
        "from glyphweave.plugin import Decoder, hookimpl\n\n"
        "class Fresh(Decoder):\n    NAME = 'fresh'\n    def decode(self, font, code, cid):\n        return None\n\n"
        "@hookimpl\ndef glyphweave_register_decoders():\n    return [Fresh]\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    fake_entry_point_distribution(monkeypatch, "glyphweave-third", "2.0", {"third": "gw_scaffold_third"})
    try:
        assert main(["new-plugin", "fresh", "--kind", "decoder", "-o", str(tmp_path)]) == EXIT_ERROR
        assert capsys.readouterr().err == ("glyphweave: error: plugin name 'fresh': the decoder 'fresh' of plugin "
                                           "'third' (glyphweave-third 2.0) has it already; choose another name\n")
        assert main(["new-plugin", "third", "--kind", "assembler", "-o", str(tmp_path)]) == EXIT_ERROR
        assert "the entry point 'third' is taken by glyphweave-third 2.0" in capsys.readouterr().err
        # The same name as a component of another kind, under a free entry-point name, is fine.
        assert main(["new-plugin", "fresh", "--kind", "filter", "-o", str(tmp_path)]) == 0
    finally:
        sys.modules.pop("gw_scaffold_third", None)
    assert sorted(p.name for p in tmp_path.iterdir() if p.is_dir()) == ["glyphweave-fresh"]
