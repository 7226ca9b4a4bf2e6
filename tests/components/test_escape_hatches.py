"""Blocking, loading only some plugins, trying an uninstalled module, surviving a broken plugin."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from glyphweave.cli import EXIT_WARNINGS, main
from glyphweave.components import Catalog
from glyphweave.components.manager import create_plugin_manager
from glyphweave.core.errors import PluginError
from glyphweave.testing import fake_entry_point_distribution
from pdfs import make_pdf

GOOD = '''
from glyphweave.plugin import Assembler, hookimpl

class Shout(Assembler):
    """Upper-cases the page text."""
    NAME = "shout"
    def assemble(self, page, indices):
        return "".join(page.table.text[i] for i in indices).upper()

@hookimpl
def glyphweave_register_assemblers():
    return [Shout]
'''

BROKEN = "raise ImportError('needs libfoo')\n"


@pytest.fixture
def plugins(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """Two installed (faked) plugin distributions, one good and one that fails to import."""
    (tmp_path / "gw_shout.py").write_text(textwrap.dedent(GOOD))
    (tmp_path / "gw_broken.py").write_text(BROKEN)
    monkeypatch.syspath_prepend(str(tmp_path))
    fake_entry_point_distribution(monkeypatch, "gw-shout", "1.0", {"shout": "gw_shout"})
    fake_entry_point_distribution(monkeypatch, "gw-broken", "2.0", {"broken": "gw_broken"})
    for name in ("GLYPHWEAVE_BLOCK_PLUGINS", "GLYPHWEAVE_LOAD_PLUGINS"):
        monkeypatch.delenv(name, raising=False)
    pdf = tmp_path / "hello.pdf"
    pdf.write_bytes(make_pdf(b"BT /F1 10 Tf 100 700 Td (Hello) Tj ET"))
    return pdf


def test_a_broken_plugin_fails_the_manager_by_default(plugins: Path) -> None:
    with pytest.raises(PluginError, match=r"plugin 'broken' \(gw_broken\) from gw-broken 2.0 could not be loaded: "
                                          r"ImportError: needs libfoo"):
        create_plugin_manager()


def test_skip_broken_keeps_the_others(plugins: Path) -> None:
    pm = create_plugin_manager(skip_broken=True)
    assert list(pm.broken) == ["broken"]
    assert "shout" in Catalog.from_plugin_manager(pm).names("assembler")


def test_block_argument_and_environment(plugins: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pm = create_plugin_manager(blocked=["broken"])
    assert pm.broken == {} and pm.get_plugin("shout") is not None
    monkeypatch.setenv("GLYPHWEAVE_BLOCK_PLUGINS", "broken, shout")
    pm = create_plugin_manager()
    assert pm.get_plugin("shout") is None and pm.get_plugin("reading") is not None
    assert create_plugin_manager(environ={}, skip_broken=True).get_plugin("shout") is not None


def test_load_only_named_third_party_plugins(plugins: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GLYPHWEAVE_LOAD_PLUGINS", "shout")
    pm = create_plugin_manager()  # the broken one is never imported
    assert pm.get_plugin("shout") is not None and pm.get_plugin("dedup") is not None
    monkeypatch.setenv("GLYPHWEAVE_LOAD_PLUGINS", "")
    pm = create_plugin_manager()
    assert pm.get_plugin("shout") is None and pm.get_plugin("reading") is not None


def test_a_module_by_name(plugins: Path) -> None:
    pm = create_plugin_manager(blocked=["broken", "shout"], modules=["gw_shout"])
    assert pm.get_plugin("gw_shout") is not None
    assert Catalog.from_plugin_manager(pm).info("assembler", "shout").plugin == "gw_shout"
    with pytest.raises(PluginError, match=r"plugin module 'no_such_module' could not be loaded: ModuleNotFoundError"):
        create_plugin_manager(modules=["no_such_module"], blocked=["broken"])


def test_cli_survives_a_broken_plugin_and_says_so(plugins: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["extract", str(plugins), "--mode", "shout"]) == 0
    out, err = capsys.readouterr()
    assert out.startswith("HELLO")
    assert err == ("glyphweave: warning: plugin 'broken' (gw_broken) from gw-broken 2.0 could not be loaded: "
                   "ImportError: needs libfoo; left out (--block it to silence this)\n")
    assert main(["extract", str(plugins), "--strict"]) == EXIT_WARNINGS
    capsys.readouterr()
    assert main(["extract", str(plugins), "--block", "broken", "--strict"]) == 0
    assert capsys.readouterr().err == ""


def test_cli_plugin_option_and_listing(plugins: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["plugins", "--block", "shout", "-p", "gw_shout"]) == 0
    out = capsys.readouterr().out
    assert "shout" in out and "(not installed)" in out
    assert "plugins that could not be loaded:\n  broken: plugin 'broken'" in out
