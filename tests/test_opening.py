"""One way to open a document (glyphweave/opening.py, api.open_with): ``glyphweave.open``
loads modules as plugins as ``-p`` does, and the options record crosses to worker processes."""

from __future__ import annotations

import importlib
import pickle
import sys
import textwrap
import types
from collections.abc import Iterator
from pathlib import Path

import pytest

import glyphweave
from glyphweave.cli import main
from glyphweave.components.manager import create_plugin_manager
from glyphweave.core.errors import PluginError, ProfileError
from glyphweave.exits import EXIT_PLUGIN
from glyphweave.guard.limits import Limits
from glyphweave.opening import OpenOptions, plugin_manager
from glyphweave.testing.pdfs import make_pdf, text_at

PLUGIN = '''
from glyphweave.plugin import Assembled, Assembler, hookimpl


class Shout(Assembler):
    NAME = "shout"

    def assemble(self, page, indices):
        return Assembled(text="".join(page.table.text[i] for i in indices).upper())


@hookimpl
def glyphweave_register_assemblers():
    return [Shout]
'''


@pytest.fixture
def pdf(tmp_path: Path) -> Path:
    path = tmp_path / "hello.pdf"
    path.write_bytes(make_pdf(text_at("hello")))
    return path


@pytest.fixture
def plugin_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """``shout_plugin.py`` and the package ``shoutpkg.plugin``, importable, forgotten afterwards."""
    folder = tmp_path / "plugins"
    (folder / "shoutpkg").mkdir(parents=True)
    (folder / "shout_plugin.py").write_text(textwrap.dedent(PLUGIN), encoding="utf-8")
    (folder / "shoutpkg" / "__init__.py").write_text("", encoding="utf-8")
    (folder / "shoutpkg" / "plugin.py").write_text(textwrap.dedent(PLUGIN), encoding="utf-8")
    monkeypatch.syspath_prepend(str(folder))
    names = ("shout_plugin", "shoutpkg", "shoutpkg.plugin", "broken_one")
    yield folder
    for name in names:
        sys.modules.pop(name, None)


def test_a_module_object_is_loaded_as_a_plugin(pdf: Path, plugin_dir: Path) -> None:
    module = importlib.import_module("shout_plugin")
    with glyphweave.open(pdf, plugins=[module]) as doc:
        assert doc.text(mode="shout").startswith("HELLO")


def test_a_dotted_name_is_loaded_as_a_plugin(pdf: Path, plugin_dir: Path) -> None:
    with glyphweave.open(pdf, plugins=["shoutpkg.plugin"]) as doc:
        assert doc.text(mode="shout").startswith("HELLO")


def test_the_path_of_a_file_is_loaded_as_a_plugin(pdf: Path, plugin_dir: Path) -> None:
    with glyphweave.open(pdf, plugins=[str(plugin_dir / "shout_plugin.py")]) as doc:
        assert doc.text(mode="shout").startswith("HELLO")


def test_a_missing_module_is_a_plugin_error_naming_it(pdf: Path) -> None:
    with pytest.raises(PluginError, match="plugin module 'no_such_glyphweave_plugin' could not be loaded"):
        glyphweave.open(pdf, plugins=["no_such_glyphweave_plugin"])


def test_a_missing_module_on_the_command_line_is_one_line(pdf: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["extract", str(pdf), "-p", "no_such_glyphweave_plugin"]) == EXIT_PLUGIN
    err = capsys.readouterr().err
    assert err.startswith("glyphweave: error: plugin module 'no_such_glyphweave_plugin'")
    assert len(err.splitlines()) == 1 and "Traceback" not in err


def test_a_module_not_importable_by_its_name_is_refused() -> None:
    with pytest.raises(PluginError, match="cannot be imported by its name"):
        OpenOptions(plugins=[types.ModuleType("made_up_here")])


def test_anything_else_is_refused() -> None:
    with pytest.raises(PluginError, match="a plugin is a module"):
        OpenOptions(plugins=[42])  # type: ignore[list-item]


def test_a_blocked_module_is_not_loaded(pdf: Path, plugin_dir: Path) -> None:
    with glyphweave.open(pdf, plugins=["shout_plugin"], block=["shout_plugin"]) as doc, \
            pytest.raises(ProfileError, match="shout"):
        doc.text(mode="shout")
    assert "shout_plugin" not in sys.modules  # blocked before it is imported


def test_a_plugin_manager_still_works(pdf: Path, plugin_dir: Path) -> None:
    pm = create_plugin_manager(modules=["shout_plugin"])
    with glyphweave.open(pdf, plugin_manager=pm) as doc:
        assert doc.text(mode="shout").startswith("HELLO")


def test_open_with_takes_the_record(pdf: Path, plugin_dir: Path) -> None:
    options = OpenOptions(plugins=["shout_plugin"], limits={"page_content_mb": 8}, pause_gc=True)
    with glyphweave.open_with(pdf, options) as doc:
        assert doc.text(mode="shout").startswith("HELLO")
        assert doc.limits.page_content_mb == 8 and doc.pause_gc


def test_the_record_pickles_with_modules_kept_by_name(plugin_dir: Path) -> None:
    module = importlib.import_module("shoutpkg.plugin")
    options = OpenOptions(password="secret", profile="reading", limits={"page_seconds": 2.0}, plugins=[module],
                          block="dedup")
    assert options.plugins == ("shoutpkg.plugin",) and options.block == ("dedup",)
    assert pickle.loads(pickle.dumps(options)) == options
    resolved = OpenOptions(limits=Limits(page_seconds=3.0))
    assert pickle.loads(pickle.dumps(resolved)).limits == Limits(page_seconds=3.0)


def test_the_limits_mapping_is_a_copy() -> None:
    given = {"page_content_mb": 8}
    options = OpenOptions(limits=given)
    given["page_content_mb"] = 1
    assert options.limits == {"page_content_mb": 8}


def test_a_module_asked_for_fails_even_with_skip_broken(plugin_dir: Path) -> None:
    (plugin_dir / "broken_one.py").write_text("raise RuntimeError('broken on purpose')\n", encoding="utf-8")
    with pytest.raises(PluginError, match="broken_one"):  # asked for by name: an error either way
        plugin_manager(OpenOptions(plugins=["broken_one"], skip_broken=True))


def test_scan_opens_its_files_with_the_plugins_asked_for(pdf: Path, tmp_path: Path,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    registry = tmp_path / "registry.tsv"
    argv = ["scan", str(pdf), "-r", str(registry), "-j", "1", "--progress", "off"]
    assert main([*argv, "-p", "no_such_glyphweave_plugin"]) == EXIT_PLUGIN
    assert "no_such_glyphweave_plugin" in capsys.readouterr().err and not registry.exists()


def test_the_password_is_not_shown() -> None:
    assert "secret" not in repr(OpenOptions(password="secret"))


def test_a_dask_job_names_its_files_by_absolute_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from glyphweave.batch.dask import _portable
    from glyphweave.batch.task import ExtractOptions, FileJob

    monkeypatch.chdir(tmp_path)
    opening = OpenOptions(profile="mine.toml", plugins=["lab.plugin", "./local.py"])
    job = _portable(FileJob(source="a.pdf", output="a.txt", options=ExtractOptions(open=opening)), gather=False)
    assert job.options.open.profile == str(tmp_path / "mine.toml")
    assert job.options.open.plugins == ("lab.plugin", str(tmp_path / "local.py"))
