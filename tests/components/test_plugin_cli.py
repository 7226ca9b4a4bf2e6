"""The command line with troublesome plugins: a name two plugins claim, ``-p`` files and modules."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from test_escape_hatches import GOOD  # an assembler plugin's source

import glyphweave
from glyphweave.cli import EXIT_PLUGIN, main
from glyphweave.components.manager import PluginWarning
from glyphweave.testing import fake_entry_point_distribution
from pdfs import Page, make_pdf

HELLO = make_pdf(b"BT /F1 10 Tf 100 700 Td (Hello) Tj ET")

USURPER = '''
from glyphweave.plugin import Filter, hookimpl

class Dedup(Filter):
    """Drops every glyph (it must never replace the built-in dedup)."""
    NAME = "dedup"
    def apply(self, page, indices):
        return []

@hookimpl
def glyphweave_register_filters():
    return [Dedup]
'''

WARNING = ("glyphweave: warning: filter 'dedup' of plugin 'usurper' (glyphweave-usurper 1.0) left out: plugin "
           "'dedup' (glyphweave {version}) claims the same name (glyphweave's own always wins); rename it, or "
           "--block usurper to silence this\n")


@pytest.fixture
def usurper(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """An installed (fake) distribution whose plugin registers a filter named like the built-in
    ``dedup``; and a PDF."""
    module = f"gw_usurper_{uuid.uuid4().hex[:12]}"
    (tmp_path / f"{module}.py").write_text(USURPER, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    fake_entry_point_distribution(monkeypatch, "glyphweave-usurper", "1.0", {"usurper": module})
    pdf = tmp_path / "hello.pdf"
    pdf.write_bytes(HELLO)
    yield pdf
    sys.modules.pop(module, None)


def _warning() -> str:
    return WARNING.format(version=glyphweave.__version__)


def test_a_clashing_plugin_does_not_stop_extract(usurper: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["extract", str(usurper)]) == 0
    out, err = capsys.readouterr()
    assert out == "Hello\n\f"  # the built-in dedup ran, not the usurper's (which drops everything)
    assert err == _warning()  # once, though the command builds its catalog twice
    assert main(["extract", str(usurper), "--block", "usurper"]) == 0
    assert capsys.readouterr().err == ""
    assert main(["extract", str(usurper), "--strict"]) == 3  # a warning like any other
    capsys.readouterr()


def test_plugins_lists_what_was_left_out(usurper: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["plugins"]) == 0
    out, err = capsys.readouterr()
    assert err == _warning()
    listed = out.split("\nleft out, their name taken by another plugin:\n", 1)[1]
    assert listed.startswith("  " + _warning().removeprefix("glyphweave: warning: "))
    assert main(["plugins", "--format", "json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert [(r["what"], r["name"], r["plugin"], r["distribution"], r["kept_plugin"]) for r in report["left_out"]] == [
        ("filter", "dedup", "usurper", "glyphweave-usurper 1.0", "dedup")]
    assert report["plugin_warnings"] == [_warning().removeprefix("glyphweave: warning: ").rstrip("\n")]
    dedup = [c for c in report["components"] if c["kind"] == "filter" and c["name"] == "dedup"]
    assert [c["distribution"].split()[0] for c in dedup] == ["glyphweave"]


def test_a_library_caller_gets_the_builtin_and_a_python_warning(usurper: Path) -> None:
    with pytest.warns(PluginWarning, match=r"^filter 'dedup' of plugin 'usurper' .*--block usurper"), \
            glyphweave.open(usurper) as doc:
        assert doc.text() == "Hello\n\f"


@pytest.fixture
def in_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """A plugin module (its name) and a PDF in the current folder, which is not on sys.path."""
    module = f"gw_shout_{uuid.uuid4().hex[:12]}"
    (tmp_path / f"{module}.py").write_text(GOOD, encoding="utf-8")
    (tmp_path / "hello.pdf").write_bytes(HELLO)
    monkeypatch.chdir(tmp_path)
    assert str(tmp_path) not in sys.path and "" not in sys.path
    yield module
    sys.modules.pop(module, None)


def test_dash_p_takes_a_file_path(in_folder: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["extract", "hello.pdf", "-p", f"./{in_folder}.py", "--mode", "shout"]) == 0
    assert capsys.readouterr() == ("HELLO\f", "")


def test_dash_p_finds_a_module_in_the_current_folder(in_folder: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["extract", "hello.pdf", "-p", in_folder, "--mode", "shout"]) == 0
    assert capsys.readouterr() == ("HELLO\f", "")


@pytest.mark.parametrize("spec", ["gw_no_such_plugin_module", "./gw_no_such_plugin_file.py"])
def test_dash_p_missing_is_exit_6(in_folder: str, spec: str, capsys: pytest.CaptureFixture[str]) -> None:
    for command in (["extract", "hello.pdf"], ["plugins"]):
        assert main([*command, "-p", spec]) == EXIT_PLUGIN
        out, err = capsys.readouterr()
        assert out == ""
        assert err.startswith(f"glyphweave: error: plugin module {spec!r} could not be loaded: ")
        assert err.count("\n") == 1


def test_dash_p_failing_to_import_is_exit_6(in_folder: str, capsys: pytest.CaptureFixture[str]) -> None:
    Path("gw_failing_plugin.py").write_text("raise RuntimeError('half written')\n")
    try:
        assert main(["extract", "hello.pdf", "-p", "gw_failing_plugin.py"]) == EXIT_PLUGIN
    finally:
        sys.modules.pop("gw_failing_plugin", None)
    assert capsys.readouterr().err == ("glyphweave: error: plugin module 'gw_failing_plugin.py' could not be loaded: "
                                       "RuntimeError: half written\n")


def test_page_workers_do_not_repeat_the_warning(tmp_path: Path) -> None:
    """A real install (a dist-info folder on the path) and a real process: ``-j 2``'s forked
    workers build their own plugin managers, whose warnings the command reported already."""
    site = tmp_path / "site"
    info = site / "glyphweave_usurper-1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: glyphweave-usurper\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[glyphweave]\nusurper = gw_usurper_installed\n")
    (site / "gw_usurper_installed.py").write_text(USURPER, encoding="utf-8")
    pdf = tmp_path / "many.pdf"
    pdf.write_bytes(make_pdf(b"BT /F1 10 Tf 100 700 Td (Hello) Tj ET",
                             extra_pages=[Page(b"BT /F1 10 Tf 100 700 Td (World) Tj ET")] * 11))
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(site), os.environ.get("PYTHONPATH", "")])}
    done = subprocess.run([sys.executable, "-m", "glyphweave.cli", "extract", str(pdf), "-j", "2"],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "Hello\n\f" + "World\n\f" * 11
    assert done.stderr == _warning()


JUNK = '''
from glyphweave.plugin import hookimpl

@hookimpl
def glyphweave_register_filters():
    return ["not a class"]
'''


def test_a_plugin_registering_junk_is_left_out_but_not_when_asked_for(
        in_folder: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    Path("gw_junk_plugin.py").write_text(JUNK, encoding="utf-8")
    monkeypatch.syspath_prepend(str(Path.cwd()))
    fake_entry_point_distribution(monkeypatch, "glyphweave-junk", "1.0", {"junk": "gw_junk_plugin"})
    warning = ("glyphweave: warning: plugin 'junk' (glyphweave-junk 1.0) registered 'not a class' as a filter, but "
               "it is not a class; left out (--block it to silence this)\n")
    try:
        assert main(["plugins"]) == 0
        out, err = capsys.readouterr()
        assert err == warning
        assert "\nplugins that could not be loaded:\n  junk: plugin 'junk' (glyphweave-junk 1.0) registered" in out
        assert main(["extract", "hello.pdf"]) == 0
        assert capsys.readouterr() == ("Hello\n\f", warning)
        # Asked for by name, it fails the command.
        assert main(["extract", "hello.pdf", "--block", "junk", "-p", "./gw_junk_plugin.py"]) == EXIT_PLUGIN
        assert capsys.readouterr().err == ("glyphweave: error: plugin 'gw_junk_plugin' (not installed) registered "
                                           "'not a class' as a filter, but it is not a class\n")
    finally:
        sys.modules.pop("gw_junk_plugin", None)


def test_batch_says_a_clash_once_and_a_missing_module_fails_before_any_file(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "batch_usurper.py").write_text(USURPER, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    pdfs = tmp_path / "in"
    pdfs.mkdir()
    for name in ("a.pdf", "b.pdf"):
        (pdfs / name).write_bytes(HELLO)
    assert main(["batch", str(pdfs), "-o", str(tmp_path / "out"), "-p", "batch_usurper", "-j", "1",
                 "--progress", "off"]) == 0
    err = capsys.readouterr().err
    assert err.count("left out") == 1 and "PluginWarning" not in err, err
    assert (tmp_path / "out" / "a.txt").read_text() == "Hello\n\f"  # the built-in dedup ran
    assert main(["batch", str(pdfs), "-o", str(tmp_path / "out2"), "-p", "no_such_module_here"]) == EXIT_PLUGIN
    assert "no_such_module_here" in capsys.readouterr().err
    assert not (tmp_path / "out2").exists()
    sys.modules.pop("batch_usurper", None)
