"""The plugin-manager factory: fresh managers, blocking, entry points, hook checks."""

from __future__ import annotations

import importlib.metadata
import re
import sys
import textwrap
import uuid
import warnings

import pluggy
import pytest

from glyphweave.components import hookimpl
from glyphweave.components.manager import (
    NOT_INSTALLED,
    PluginWarning,
    create_plugin_manager,
    plugin_distribution,
)
from glyphweave.core.errors import PluginError
from glyphweave.core.stages import Decoder
from glyphweave.testing import fake_entry_point_distribution, fresh_plugin_manager, make_plugin

DECLARED_HOOKS = {
    "glyphweave_register_decoders",
    "glyphweave_register_filters",
    "glyphweave_register_assemblers",
    "glyphweave_register_profiles",
}


class LatinDecoder(Decoder):
    """Answers the code as Latin-1."""

    NAME = "latin"

    def decode(self, font, code, cid):
        return code.decode("latin-1")


@pytest.fixture
def plugin_module(tmp_path, monkeypatch):
    """Write an importable module (unique name) and forget it after the test."""
    monkeypatch.syspath_prepend(str(tmp_path))
    written: list[str] = []

    def write(source: str) -> str:
        name = f"gw_test_plugin_{uuid.uuid4().hex[:12]}"
        (tmp_path / f"{name}.py").write_text(textwrap.dedent(source), encoding="utf-8")
        written.append(name)
        return name

    yield write
    for name in written:
        sys.modules.pop(name, None)


GOOD_PLUGIN = """
    from glyphweave.core.stages import Decoder
    from glyphweave.components import hookimpl

    class OkDecoder(Decoder):
        '''Always answers "ok".'''
        NAME = "ok"
        def decode(self, font, code, cid):
            return "ok"

    @hookimpl
    def glyphweave_register_decoders():
        return [OkDecoder]
"""


def test_every_call_builds_a_new_manager():
    first = create_plugin_manager(load_entrypoints=False)
    second = create_plugin_manager(load_entrypoints=False)
    assert first is not second
    plugin = make_plugin(decoders=[LatinDecoder])
    first.register(plugin)
    assert first.is_registered(plugin)
    assert not second.is_registered(plugin)


def test_hookspecs_are_declared():
    pm = create_plugin_manager(load_entrypoints=False)
    assert pm.project_name == "glyphweave"
    for name in DECLARED_HOOKS:
        assert getattr(pm.hook, name).has_spec()


def test_extra_plugins_are_registered():
    plugin = make_plugin(decoders=[LatinDecoder], name="latin-plugin")
    pm = create_plugin_manager(load_entrypoints=False, plugins=[plugin])
    assert pm.get_plugin("latin-plugin") is plugin
    assert pm.hook.glyphweave_register_decoders() == [[LatinDecoder]]
    assert plugin_distribution(pm, plugin) == NOT_INSTALLED


def test_undeclared_hook_fails_fast_with_a_suggestion():
    class Typo:
        __name__ = "typo-plugin"

        @hookimpl
        def glyphweave_register_decoder(self):
            return []

    with pytest.raises(PluginError) as info:
        create_plugin_manager(load_entrypoints=False, plugins=[Typo()])
    message = str(info.value)
    assert "'typo-plugin'" in message
    assert "glyphweave_register_decoder'" in message
    assert "did you mean 'glyphweave_register_decoders'" in message
    assert "\n" not in message


def test_undeclared_optional_hook_is_allowed():
    class Optional:
        @hookimpl(optionalhook=True)
        def glyphweave_some_future_hook(self):
            return None

    create_plugin_manager(load_entrypoints=False, plugins=[Optional()])


def test_hookimpl_with_arguments_the_spec_lacks_is_a_plugin_error():
    class BadArgs:
        @hookimpl
        def glyphweave_register_decoders(self, config):
            return []

    with pytest.raises(PluginError, match="cannot register plugin"):
        create_plugin_manager(load_entrypoints=False, plugins=[BadArgs()])


def test_registering_the_same_plugin_twice_is_a_plugin_error():
    plugin = make_plugin(decoders=[LatinDecoder])
    with pytest.raises(PluginError, match="cannot register plugin"):
        create_plugin_manager(load_entrypoints=False, plugins=[plugin, plugin])


def test_entry_points_are_loaded_with_their_distribution(monkeypatch, plugin_module):
    module = plugin_module(GOOD_PLUGIN)
    fake_entry_point_distribution(monkeypatch, "glyphweave-ok", "1.2", {"ok": module}, hide_installed=True)
    pm = create_plugin_manager()
    plugin = pm.get_plugin("ok")
    assert plugin is sys.modules[module]
    assert plugin_distribution(pm, plugin) == "glyphweave-ok 1.2"
    assert pm.distributions == {"ok": "glyphweave-ok 1.2"}


def test_load_entrypoints_false_ignores_installed_plugins(monkeypatch, plugin_module):
    module = plugin_module(GOOD_PLUGIN)
    fake_entry_point_distribution(monkeypatch, "glyphweave-ok", "1.2", {"ok": module})
    pm = create_plugin_manager(load_entrypoints=False)
    assert pm.get_plugin("ok") is None
    assert pm.distributions == {}
    assert module not in sys.modules


def test_blocked_entry_point_is_never_imported(monkeypatch, plugin_module):
    module = plugin_module("raise RuntimeError('must not be imported')\n")
    fake_entry_point_distribution(
        monkeypatch, "glyphweave-boom", "1.0", {"boom": module}, hide_installed=True
    )
    pm = create_plugin_manager(blocked=["boom"])
    assert pm.is_blocked("boom")
    assert pm.get_plugin("boom") is None
    assert module not in sys.modules


def test_module_that_fails_to_import_names_entry_point_and_distribution(monkeypatch, plugin_module):
    good = plugin_module(GOOD_PLUGIN)
    bad = plugin_module("raise RuntimeError('broken\\non two lines')\n")
    fake_entry_point_distribution(monkeypatch, "glyphweave-ok", "1.2", {"ok": good}, hide_installed=True)
    fake_entry_point_distribution(monkeypatch, "glyphweave-boom", "3.0", {"boom": bad})
    with pytest.raises(PluginError) as info:
        create_plugin_manager()
    message = str(info.value)
    assert "'boom'" in message
    assert "glyphweave-boom 3.0" in message
    assert "RuntimeError: broken on two lines" in message
    assert "\n" not in message
    assert isinstance(info.value.__cause__, RuntimeError)


def test_missing_module_names_entry_point_and_distribution(monkeypatch):
    fake_entry_point_distribution(
        monkeypatch, "glyphweave-ghost", "0.3", {"ghost": "gw_no_such_module_anywhere"}, hide_installed=True
    )
    with pytest.raises(PluginError, match=r"'ghost'.*glyphweave-ghost 0\.3.*ModuleNotFoundError"):
        create_plugin_manager()


def test_two_distributions_declaring_one_entry_point_name(monkeypatch, plugin_module):
    first, second = plugin_module(GOOD_PLUGIN), plugin_module(GOOD_PLUGIN)
    # Installed in the "wrong" order: the distribution whose name sorts first still wins.
    fake_entry_point_distribution(monkeypatch, "glyphweave-b", "2.0", {"same": second}, hide_installed=True)
    fake_entry_point_distribution(monkeypatch, "glyphweave-a", "1.0", {"same": first})
    with pytest.warns(PluginWarning) as caught:
        pm = create_plugin_manager()
    message = ("entry point 'same' of plugin 'same' (glyphweave-b 2.0) left out: plugin 'same' (glyphweave-a 1.0) "
               "claims the same name (of two plugins, the one whose distribution name, then plugin name, sorts "
               "first wins); rename the entry point or uninstall one (--block same silences this but drops both)")
    assert [str(w.message) for w in caught] == [message]
    assert pm.get_plugin("same") is sys.modules[first] and second not in sys.modules
    assert pm.distributions == {"same": "glyphweave-a 1.0"} and pm.warnings == [message]
    assert [(r.what, r.distribution, r.kept_distribution) for r in pm.left_out] == [
        ("entry point", "glyphweave-b 2.0", "glyphweave-a 1.0")]
    # Blocking the contested name silences it (and drops both).
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        pm = create_plugin_manager(blocked=["same"])
    assert pm.get_plugin("same") is None


def test_a_third_party_entry_point_cannot_take_a_builtin_name(monkeypatch, plugin_module):
    module = plugin_module(GOOD_PLUGIN)
    fake = fake_entry_point_distribution(monkeypatch, "glyphweave-dedup", "0.1", {"dedup": module})
    listed = importlib.metadata.distributions  # put it first on the path, before glyphweave itself
    monkeypatch.setattr(importlib.metadata, "distributions",
                        lambda **kwargs: iter(sorted(listed(**kwargs), key=lambda dist: dist is not fake)))
    with pytest.warns(PluginWarning, match=r"^entry point 'dedup' of plugin 'dedup' \(glyphweave-dedup 0\.1\) "
                      r"left out: plugin 'dedup' \(glyphweave [^)]+\) claims the same name \(glyphweave's own"):
        pm = create_plugin_manager(environ={})
    assert pm.distributions["dedup"].startswith("glyphweave ") and module not in sys.modules


def test_same_distribution_found_twice_is_loaded_once(monkeypatch, plugin_module):
    module = plugin_module(GOOD_PLUGIN)
    fake_entry_point_distribution(monkeypatch, "glyphweave-ok", "1.2", {"ok": module}, hide_installed=True)
    fake_entry_point_distribution(monkeypatch, "glyphweave_OK", "1.1", {"ok": module})
    pm = create_plugin_manager()
    assert plugin_distribution(pm, pm.get_plugin("ok")) == "glyphweave-ok 1.2"


def test_fresh_plugin_manager_helper(monkeypatch, plugin_module):
    module = plugin_module(GOOD_PLUGIN)
    fake_entry_point_distribution(monkeypatch, "glyphweave-ok", "1.2", {"ok": module}, hide_installed=True)
    plugin = make_plugin(decoders=[LatinDecoder], name="mine")
    pm = fresh_plugin_manager(plugin)
    assert isinstance(pm, pluggy.PluginManager)
    assert pm.get_plugin("mine") is plugin and pm.get_plugin("ok") is None
    pm = fresh_plugin_manager(plugin, entrypoints=True)
    assert pm.get_plugin("ok") is not None
    pm = fresh_plugin_manager(entrypoints=True, blocked=["ok"])
    assert pm.get_plugin("ok") is None


def test_make_plugin_implements_only_what_it_is_given():
    plugin = make_plugin(decoders=[LatinDecoder], profiles={"p": "[profile]\n"})
    assert hasattr(plugin, "glyphweave_register_decoders")
    assert hasattr(plugin, "glyphweave_register_profiles")
    assert not hasattr(plugin, "glyphweave_register_filters")
    pm = fresh_plugin_manager(plugin)
    assert pm.hook.glyphweave_register_profiles() == [{"p": "[profile]\n"}]


# -- modules named by the caller (-p) ----------------------------------------------------------


def _forget(name):
    sys.modules.pop(name, None)


def test_a_module_can_be_given_as_a_file_path(tmp_path, monkeypatch):
    name = f"gw_file_plugin_{uuid.uuid4().hex[:12]}"
    (tmp_path / f"{name}.py").write_text(textwrap.dedent(GOOD_PLUGIN), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    try:
        for spec in (f"./{name}.py", str(tmp_path / f"{name}.py"), f"{name}.py"):
            pm = create_plugin_manager(load_entrypoints=False, modules=[spec])
            plugin = pm.get_plugin(name)
            assert plugin is sys.modules[name]
            assert pm.hook.glyphweave_register_decoders()[0][0].NAME == "ok"
        assert create_plugin_manager(load_entrypoints=False, modules=[f"./{name}.py"], blocked=[name]).get_plugin(
            name) is None
    finally:
        _forget(name)


def test_a_module_in_the_current_folder_is_found(tmp_path, monkeypatch):
    name = f"gw_cwd_plugin_{uuid.uuid4().hex[:12]}"
    (tmp_path / f"{name}.py").write_text(textwrap.dedent(GOOD_PLUGIN), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    path = list(sys.path)
    try:
        assert str(tmp_path) not in sys.path and "" not in sys.path  # else the plain import finds it
        pm = create_plugin_manager(load_entrypoints=False, modules=[name])
        assert pm.get_plugin(name) is sys.modules[name]
        assert sys.path == path  # the folder was on the path only for the import
    finally:
        _forget(name)


@pytest.mark.parametrize("source", [None, "raise RuntimeError('broken')\n", "import gw_no_such_dependency\n"])
def test_a_named_module_that_is_missing_or_fails_is_an_error_even_skipping_broken(tmp_path, monkeypatch, source):
    monkeypatch.chdir(tmp_path)
    name = f"gw_bad_plugin_{uuid.uuid4().hex[:12]}"
    if source is not None:
        (tmp_path / f"{name}.py").write_text(source, encoding="utf-8")
    try:
        for spec in (name, f"./{name}.py"):
            with pytest.raises(PluginError, match=rf"^plugin module '{re.escape(spec)}' could not be loaded: "):
                create_plugin_manager(load_entrypoints=False, modules=[spec], skip_broken=True)
    finally:
        _forget(name)


UNMARKED_PLUGIN = """
    from glyphweave.core.stages import Decoder

    class OkDecoder(Decoder):
        NAME = "ok"
        def decode(self, font, code, cid):
            return "ok"

    def glyphweave_register_decoders():
        return [OkDecoder]

    def glyphweave_register_profiles():
        return {}

    def helper():
        return None
"""


def test_hook_functions_without_the_marker_warn(monkeypatch, plugin_module):
    module = plugin_module(UNMARKED_PLUGIN)
    expected = (r"plugin '{name}' \({where}\): glyphweave_register_decoders\(\), glyphweave_register_profiles\(\) "
                r"lack the @hookimpl marker, so glyphweave ignores them; decorate each with @hookimpl "
                r"\(from glyphweave.plugin import hookimpl\)$")
    with pytest.warns(PluginWarning, match="^" + expected.format(name=module, where="not installed")):
        pm = create_plugin_manager(load_entrypoints=False, modules=[module])
    assert pm.hook.glyphweave_register_decoders() == []
    fake_entry_point_distribution(monkeypatch, "glyphweave-unmarked", "1.0", {"um": module}, hide_installed=True)
    with pytest.warns(PluginWarning, match="^" + expected.format(name="um", where="glyphweave-unmarked 1.0")):
        create_plugin_manager()


def test_builtin_plugins_have_no_unmarked_hook_functions():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        pm = create_plugin_manager(environ={})
    assert pm.warnings == []
