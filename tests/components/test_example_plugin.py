"""The hello-world plugin in tests/example_plugin, loaded through a faked installation.

``importlib.metadata.distributions`` is patched (glyphweave.testing's
``fake_entry_point_distribution``, the trick pluggy's own tests use) so pluggy finds a
``glyphweave-rot13 0.1`` distribution whose entry point imports ``glyphweave_rot13``
from tests/example_plugin: no pip install needed.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

from glyphweave.components import Catalog, load_profile
from glyphweave.components.manager import PluginWarning
from glyphweave.core.errors import ProfileError
from glyphweave.core.glyphtable import GlyphTable
from glyphweave.core.stages import Assembler, Decoder, Filter
from glyphweave.testing import add_text, fake_entry_point_distribution, make_plugin, page_context

if sys.version_info >= (3, 11):
    import tomllib
else:
    import tomli as tomllib

EXAMPLE = Path(__file__).resolve().parents[1] / "example_plugin"
MODULE = "glyphweave_rot13"

BUILTIN_MODULES = (
    "glyphweave.plugins.decoders.tounicode",
    "glyphweave.plugins.decoders.encoding",
    "glyphweave.plugins.decoders.standard_fallback",
    "glyphweave.plugins.decoders.cid_collection",
    "glyphweave.plugins.decoders.symbol_fonts",
    "glyphweave.plugins.decoders.embedded_font",
    "glyphweave.plugins.filters.visible_box",
    "glyphweave.plugins.filters.dedup",
    "glyphweave.plugins.assemblers.reading",
    "glyphweave.plugins.assemblers.columns",
    "glyphweave.plugins.assemblers.auto",
    "glyphweave.plugins.assemblers.layout",
)


def _stand_in(base, name, method):
    return type(f"StandIn_{name.replace('-', '_')}", (base,), {"NAME": name, method: lambda self, *a: None})


def stand_in_builtins():
    """Components under the built-in names: the rot13 profile extends "default"."""
    return make_plugin(
        name="stand-ins",
        decoders=[_stand_in(Decoder, n, "decode") for n in ("tounicode", "symbol", "zapfdingbats", "wingdings", "cid-collection", "encoding", "embedded-font", "standard-fallback")],
        filters=[_stand_in(Filter, n, "apply") for n in ("visible-box", "dedup")],
        assemblers=[_stand_in(Assembler, name, "assemble") for name in ("reading", "auto", "columns", "layout")],
    )


@pytest.fixture
def installed(monkeypatch):
    """glyphweave-rot13 0.1 appears installed (and nothing else is)."""
    monkeypatch.syspath_prepend(str(EXAMPLE))
    sys.modules.pop(MODULE, None)
    fake_entry_point_distribution(
        monkeypatch, "glyphweave-rot13", "0.1", {"rot13": MODULE}, hide_installed=True
    )
    yield
    sys.modules.pop(MODULE, None)


def discover(**kwargs) -> Catalog:
    return Catalog.discover(plugins=[stand_in_builtins()], **kwargs)


def test_package_is_one_module_and_one_entry_point():
    meta = tomllib.loads((EXAMPLE / "pyproject.toml").read_text(encoding="utf-8"))
    assert meta["project"]["name"] == "glyphweave-rot13"
    assert meta["project"]["entry-points"] == {"glyphweave": {"rot13": MODULE}}
    assert meta["tool"]["setuptools"]["py-modules"] == [MODULE]
    # One module ships; the only other Python file is the plugin's own tests.
    assert sorted(p.name for p in EXAMPLE.glob("*.py")) == [f"{MODULE}.py", f"test_{MODULE}.py"]
    assert (EXAMPLE / "README.md").is_file()


@pytest.mark.usefixtures("installed")
def test_catalog_lists_rot13_with_its_distribution():
    catalog = discover()
    [info] = [c for c in catalog.components() if c.plugin == "rot13"]
    assert (info.kind, info.name, info.distribution) == ("assembler", "rot13", "glyphweave-rot13 0.1")
    assert info.cls.__module__ == MODULE
    assert info.summary.startswith("Page text in paint order, rot13-encoded")
    source = catalog.profile_sources()["rot13"]
    assert (source.plugin, source.distribution) == ("rot13", "glyphweave-rot13 0.1")


@pytest.mark.usefixtures("installed")
def test_rot13_profile_resolves_and_changes_the_output():
    catalog = discover()
    profile = load_profile("rot13", catalog)
    default = load_profile("default", catalog)
    assert profile.extends == "default"
    assert profile.assembler == "rot13"
    assert (profile.decoders, profile.filters) == (default.decoders, default.filters)

    pipeline = profile.instantiate(catalog)
    table = add_text(GlyphTable(), "Hello, World", 72, 700, unresolved=[5])
    page = page_context(table, placeholder="?")
    assert pipeline.assembler.assemble(page, range(len(table))) == "Uryyb? Jbeyq"


@pytest.mark.usefixtures("installed")
def test_user_profile_can_select_the_plugin_assembler(tmp_path):
    path = tmp_path / "secret.toml"
    path.write_text('[profile]\nextends = "raw"\nassembler = "rot13"\n', encoding="utf-8")
    profile = load_profile(path, discover())
    assert (profile.filters, profile.assembler) == ((), "rot13")


@pytest.mark.usefixtures("installed")
def test_blocked_plugin_is_absent_and_never_imported():
    catalog = discover(blocked=["rot13"])
    assert "rot13" not in catalog.names("assembler")
    assert "rot13" not in catalog.profile_sources()
    assert MODULE not in sys.modules
    with pytest.raises(ProfileError, match="unknown profile 'rot13'"):
        load_profile("rot13", catalog)


@pytest.mark.usefixtures("installed")
def test_a_second_rot13_names_both_distributions(tmp_path, monkeypatch):
    (tmp_path / "rot13_clone.py").write_text(
        "from glyphweave_rot13 import Rot13Assembler\n"
        "from glyphweave.components import hookimpl\n\n"
        "@hookimpl\n"
        "def glyphweave_register_assemblers():\n"
        "    return [type('Clone', (Rot13Assembler,), {})]\n",
        encoding="utf-8",
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    fake_entry_point_distribution(monkeypatch, "rot13-clone", "9.9", {"clone": "rot13_clone"})
    try:
        with pytest.warns(PluginWarning) as caught:
            catalog = discover()
    finally:
        sys.modules.pop("rot13_clone", None)
    [message] = [str(w.message) for w in caught]
    # "glyphweave-rot13" sorts before "rot13-clone": it keeps the name, whatever the install order.
    assert message.startswith("assembler 'rot13' of plugin 'clone' (rot13-clone 9.9) left out: plugin 'rot13' "
                              "(glyphweave-rot13 0.1) claims the same name")
    assert message.endswith("--block clone to silence this")
    assert catalog.info("assembler", "rot13").distribution == "glyphweave-rot13 0.1"


@pytest.mark.skipif(
    any(importlib.util.find_spec(name) is None for name in BUILTIN_MODULES),
    reason="built-in component modules are not all written yet",
)
def test_with_the_real_builtins(monkeypatch):
    """Built-ins from glyphweave's own entry points, rot13 from its (fake) distribution."""
    monkeypatch.syspath_prepend(str(EXAMPLE))
    fake_entry_point_distribution(monkeypatch, "glyphweave-rot13", "0.1", {"rot13": MODULE})
    try:
        catalog = Catalog.discover()
        builtins = {c.name: c for c in catalog.components() if c.distribution.startswith("glyphweave ")}
        assert {"tounicode", "encoding", "standard-fallback", "visible-box", "dedup", "reading"} <= set(
            builtins
        )
        assert catalog.info("assembler", "rot13").distribution == "glyphweave-rot13 0.1"
        for name in ("default", "raw", "rot13"):
            pipeline = load_profile(name, catalog).instantiate(catalog)
            assert pipeline.decoders and pipeline.assembler
        table = add_text(GlyphTable(), "Hello", 72, 700)
        rot13 = load_profile("rot13", catalog).instantiate(catalog)
        assert rot13.assembler.assemble(page_context(table), range(len(table))) == "Uryyb"
    finally:
        sys.modules.pop(MODULE, None)
