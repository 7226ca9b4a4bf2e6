"""The catalog: components and profiles by name, with their plugin and distribution."""

from __future__ import annotations

import json
import sys
import textwrap
import warnings

import pytest

from glyphweave.components import Catalog, ComponentInfo, hookimpl
from glyphweave.components.catalog import BUILTIN_PLUGIN
from glyphweave.components.manager import PluginWarning, create_plugin_manager
from glyphweave.core.errors import PluginError, ProfileError
from glyphweave.core.stages import Assembler, Decoder, Filter, Option
from glyphweave.testing import fake_entry_point_distribution, fresh_plugin_manager, make_plugin


class LatinDecoder(Decoder):
    """Answers the code as Latin-1.

    More text that is not part of the summary.
    """

    NAME = "latin"
    OPTIONS = {"strict": Option(default=False, doc="fail on odd bytes")}

    def decode(self, font, code, cid):
        return code.decode("latin-1")


class AsciiDecoder(Decoder):
    NAME = "ascii"

    def decode(self, font, code, cid):
        return None


class KeepAll(Filter):
    """Keeps every glyph."""

    NAME = "keep-all"

    def apply(self, page, indices):
        return list(indices)


class Concat(Assembler):
    """Joins glyph texts."""

    NAME = "concat"

    def assemble(self, page, indices):
        return "".join(page.table.text[i] for i in indices)


def catalog_of(*plugins, **kwargs) -> Catalog:
    return Catalog.from_plugin_manager(fresh_plugin_manager(*plugins), **kwargs)


def test_components_are_recorded_with_their_origin():
    catalog = catalog_of(
        make_plugin(
            decoders=[LatinDecoder, AsciiDecoder], filters=[KeepAll], assemblers=[Concat], name="demo"
        )
    )
    info = catalog.info("decoder", "latin")
    assert info == ComponentInfo(
        kind="decoder",
        name="latin",
        cls=LatinDecoder,
        plugin="demo",
        distribution="(not installed)",
        summary="Answers the code as Latin-1.",
    )
    assert catalog.get("filter", "keep-all") is KeepAll
    assert catalog.get("assembler", "concat") is Concat
    assert catalog.info("decoder", "ascii").summary == ""


def test_components_are_listed_by_stage_then_name():
    catalog = catalog_of(
        make_plugin(assemblers=[Concat]),
        make_plugin(decoders=[LatinDecoder, AsciiDecoder], filters=[KeepAll]),
    )
    assert [(c.kind, c.name) for c in catalog.components()] == [
        ("decoder", "ascii"),
        ("decoder", "latin"),
        ("filter", "keep-all"),
        ("assembler", "concat"),
    ]
    assert [c.name for c in catalog.components("decoder")] == ["ascii", "latin"]
    assert catalog.names("assembler") == ["concat"]
    assert catalog.components("filter")[0].cls is KeepAll


def test_unknown_component_lists_the_available_ones():
    catalog = catalog_of(make_plugin(decoders=[LatinDecoder, AsciiDecoder]))
    with pytest.raises(ProfileError) as info:
        catalog.get("decoder", "latn")
    assert str(info.value) == "unknown decoder 'latn' (available: ascii, latin); did you mean 'latin'?"
    with pytest.raises(ProfileError, match=r"unknown filter 'x' \(available: none installed\)"):
        catalog.get("filter", "x")


def test_unknown_kind_is_a_programming_error():
    with pytest.raises(ValueError, match="unknown stage kind"):
        catalog_of().components("decoders")


def test_component_info_to_dict_is_json_friendly():
    data = catalog_of(make_plugin(decoders=[LatinDecoder])).info("decoder", "latin").to_dict()
    assert data["class"].endswith("LatinDecoder")
    assert data["options"] == {"strict": {"default": False, "type": "bool", "doc": "fail on odd bytes",
                                          "minimum": None, "maximum": None, "choices": None}}
    json.dumps(data)


def test_one_name_in_two_stages_keeps_one_and_says_why():
    # A profile sets options by name ([options.latin]): a decoder and a filter sharing it
    # would take each other's options, so one of them is left out, with a warning.
    class LatinFilter(Filter):
        NAME = "latin"

        def apply(self, page, indices):
            return list(indices)

    with pytest.warns(PluginWarning) as caught:
        catalog = catalog_of(make_plugin(decoders=[LatinDecoder], filters=[LatinFilter], name="dual"))
    assert catalog.get("decoder", "latin") is LatinDecoder
    with pytest.raises(ProfileError):
        catalog.get("filter", "latin")
    [record] = catalog.left_out()
    assert (record.what, record.name, record.plugin) == ("filter", "latin", "dual")
    assert str(caught[0].message) == record.message
    assert record.message.startswith("filter 'latin' of plugin 'dual' ")
    assert "decoder 'latin' of plugin 'dual' " in record.message and "[options.latin]" in record.message


def test_hook_returning_none_registers_nothing():
    class Nothing:
        @hookimpl
        def glyphweave_register_decoders(self):
            return None

        @hookimpl
        def glyphweave_register_profiles(self):
            return None

    catalog = catalog_of(Nothing(), builtin_profiles=False)
    assert catalog.components() == [] and catalog.profile_sources() == {}


def test_wrappers_on_registration_hooks_are_ignored():
    class Wrapper:
        @hookimpl(wrapper=True)
        def glyphweave_register_decoders(self):
            return (yield)

    catalog = catalog_of(Wrapper(), make_plugin(decoders=[LatinDecoder]))
    assert catalog.names("decoder") == ["latin"]


# -- validation of what plugins register ------------------------------------------------


def test_not_a_class_is_rejected():
    with pytest.raises(PluginError, match=r"plugin 'bad' \(not installed\) registered .* not a class"):
        catalog_of(make_plugin(decoders=[LatinDecoder()], name="bad"))


def test_wrong_stage_base_is_rejected():
    with pytest.raises(PluginError) as info:
        catalog_of(make_plugin(decoders=[KeepAll], name="mixed-up"))
    message = str(info.value)
    assert "'mixed-up'" in message and "KeepAll" in message and "glyphweave.core.stages.Decoder" in message


@pytest.mark.parametrize("name", ["", "Upper", "-dash-first", "has space", "dot.ted", "trailing\n", 7, None])
def test_bad_component_name_is_rejected(name):
    bad = type("BadName", (Decoder,), {"NAME": name, "decode": lambda self, font, code, cid: None})
    with pytest.raises(PluginError) as info:
        catalog_of(make_plugin(decoders=[bad], name="badly-named"))
    assert "'badly-named'" in str(info.value) and "invalid NAME" in str(info.value)


def test_good_component_names_are_accepted():
    for name in ("a", "0x", "standard-fallback", "snake_case", "x-1_2"):
        cls = type("Good", (Decoder,), {"NAME": name, "decode": lambda self, font, code, cid: None})
        assert catalog_of(make_plugin(decoders=[cls])).get("decoder", name) is cls


def test_stage_method_must_be_implemented():
    class Lazy(Assembler):
        NAME = "lazy"

    with pytest.raises(PluginError, match=r"assembler 'lazy' \(.*Lazy\) does not implement assemble\(\)"):
        catalog_of(make_plugin(assemblers=[Lazy]))


def test_options_must_be_option_records():
    class Sloppy(Filter):
        NAME = "sloppy"
        OPTIONS = {"k": 3}

        def apply(self, page, indices):
            return list(indices)

    with pytest.raises(PluginError, match="OPTIONS must map option names"):
        catalog_of(make_plugin(filters=[Sloppy]))


@pytest.mark.parametrize("result", [LatinDecoder, "latin", {"latin": LatinDecoder}, 42])
def test_registration_hook_must_return_a_list(result):
    class Odd:
        __name__ = "odd"

        @hookimpl
        def glyphweave_register_decoders(self):
            return result

    with pytest.raises(PluginError, match="'odd'.*must return a list of classes"):
        catalog_of(Odd())


def test_registration_hook_that_raises_names_the_plugin():
    class Broken:
        __name__ = "broken"

        @hookimpl
        def glyphweave_register_filters(self):
            raise KeyError("oops")

    with pytest.raises(
        PluginError, match=r"plugin 'broken' .* failed in glyphweave_register_filters: KeyError"
    ):
        catalog_of(Broken())


def test_duplicate_component_names_leave_one_out_with_one_warning():
    other = type("OtherLatin", (Decoder,), {"NAME": "latin", "decode": lambda self, font, code, cid: None})
    # Registered in either order, plugin 'one' keeps the name (same distribution: by plugin name).
    for order in ([("one", LatinDecoder), ("two", other)], [("two", other), ("one", LatinDecoder)]):
        pm = fresh_plugin_manager(*(make_plugin(decoders=[cls], name=name) for name, cls in order))
        with pytest.warns(PluginWarning) as caught:
            catalog = Catalog.from_plugin_manager(pm)
        assert catalog.get("decoder", "latin") is LatinDecoder
        message = (
            "decoder 'latin' of plugin 'two' (not installed) left out: plugin 'one' (not installed) claims "
            "the same name (of two plugins, the one whose distribution name, then plugin name, sorts first "
            "wins); rename it, or --block two to silence this"
        )
        assert [str(w.message) for w in caught] == [message]
        assert [r.to_dict() for r in catalog.left_out()] == [{
            "what": "decoder", "name": "latin", "plugin": "two", "distribution": "(not installed)",
            "kept_plugin": "one", "kept_distribution": "(not installed)", "message": message}]
        assert pm.warnings == [message]
        # A second catalog of the same manager (the CLI builds two) does not warn again.
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            assert Catalog.from_plugin_manager(pm).get("decoder", "latin") is LatinDecoder
        assert pm.warnings == [message] and len(pm.left_out) == 1


def test_a_plugin_cannot_take_a_builtin_components_name():
    usurper = type("Dedup", (Filter,), {"NAME": "dedup", "apply": lambda self, page, indices: []})
    pm = create_plugin_manager(plugins=[make_plugin(filters=[usurper], name="usurper")], environ={})
    with pytest.warns(PluginWarning, match=r"^filter 'dedup' of plugin 'usurper' \(not installed\) left out: "
                      r"plugin 'dedup' \(glyphweave [^)]+\) claims the same name \(glyphweave's own always "
                      r"wins\); rename it, or --block usurper to silence this$"):
        catalog = Catalog.from_plugin_manager(pm)
    assert catalog.info("filter", "dedup").plugin == "dedup" and catalog.is_builtin("filter", "dedup")


@pytest.fixture
def two_distributions(tmp_path, monkeypatch):
    """Two installed (fake) distributions whose plugins both register decoder 'latin'."""
    source = textwrap.dedent(
        """
        from glyphweave.core.stages import Decoder
        from glyphweave.components import hookimpl

        class Latin(Decoder):
            NAME = "latin"
            def decode(self, font, code, cid):
                return None

        @hookimpl
        def glyphweave_register_decoders():
            return [Latin]
        """
    )
    for module in ("gw_catalog_dup_a", "gw_catalog_dup_b"):
        (tmp_path / f"{module}.py").write_text(source, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    fake_entry_point_distribution(
        monkeypatch, "glyphweave-a", "1.0", {"a": "gw_catalog_dup_a"}, hide_installed=True
    )
    fake_entry_point_distribution(monkeypatch, "glyphweave-b", "2.0", {"b": "gw_catalog_dup_b"})
    yield
    for module in ("gw_catalog_dup_a", "gw_catalog_dup_b"):
        sys.modules.pop(module, None)


@pytest.mark.usefixtures("two_distributions")
def test_duplicate_component_names_both_distributions():
    with pytest.warns(PluginWarning) as caught:
        catalog = Catalog.discover()
    assert [str(w.message) for w in caught] == [
        "decoder 'latin' of plugin 'b' (glyphweave-b 2.0) left out: plugin 'a' (glyphweave-a 1.0) claims the "
        "same name (of two plugins, the one whose distribution name, then plugin name, sorts first wins); "
        "rename it, or --block b to silence this"]
    assert catalog.info("decoder", "latin").distribution == "glyphweave-a 1.0"
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert Catalog.discover(blocked=["b"]).info("decoder", "latin").plugin == "a"  # --block b silences it


@pytest.mark.usefixtures("two_distributions")
def test_installed_component_records_its_distribution():
    catalog = Catalog.discover(blocked=["b"])
    info = catalog.info("decoder", "latin")
    assert (info.plugin, info.distribution) == ("a", "glyphweave-a 1.0")


# -- profiles --------------------------------------------------------------------------------


def test_builtin_profiles_are_sources():
    sources = catalog_of().profile_sources()
    assert {"default", "raw"} <= set(sources)
    default = sources["default"]
    assert default.plugin == BUILTIN_PLUGIN
    assert default.distribution.startswith(("glyphweave ", "(not installed)"))
    assert "[profile]" in default.text
    assert "default" in default.location
    assert catalog_of(builtin_profiles=False).profile_sources() == {}


def test_registered_profiles_are_sources():
    text = '[profile]\ndecoders = ["latin"]\nassembler = "concat"\n'
    catalog = catalog_of(make_plugin(profiles={"mine": text}, name="prof"))
    source = catalog.profile_sources()["mine"]
    assert (source.name, source.text, source.plugin, source.distribution) == (
        "mine",
        text,
        "prof",
        "(not installed)",
    )
    assert "'mine'" in source.location and "'prof'" in source.location
    assert list(catalog.profile_sources()) == sorted(catalog.profile_sources())


def test_duplicate_profile_names_leave_one_out():
    with pytest.warns(PluginWarning, match=r"^profile 'p' of plugin 'y' .* left out: plugin 'x' .*--block y"):
        catalog = catalog_of(make_plugin(profiles={"p": "# y"}, name="y"), make_plugin(profiles={"p": "# x"}, name="x"))
    assert catalog.profile_sources()["p"].text == "# x"


def test_plugin_cannot_replace_a_builtin_profile():
    with pytest.warns(PluginWarning, match=r"^profile 'default' of plugin 'usurper' \(not installed\) left out: "
                      r"glyphweave's built-in profiles \(glyphweave .*\) claims the same name \(glyphweave's own"):
        catalog = catalog_of(make_plugin(profiles={"default": ""}, name="usurper"))
    assert catalog.profile_sources()["default"].plugin == BUILTIN_PLUGIN


@pytest.mark.parametrize("profiles", [{"Bad Name": ""}, {"ok": b"bytes"}, ["not", "a", "mapping"]])
def test_bad_profile_registrations(profiles):
    class Odd:
        __name__ = "odd"

        @hookimpl
        def glyphweave_register_profiles(self):
            return profiles

    with pytest.raises(PluginError, match="'odd'"):
        catalog_of(Odd())


def test_discover_without_entry_points():
    catalog = Catalog.discover(load_entrypoints=False, plugins=[make_plugin(assemblers=[Concat])])
    assert catalog.names("assembler") == ["concat"]
    assert catalog.names("decoder") == []


def test_skip_broken_unregisters_a_plugin_with_unusable_registrations(monkeypatch, tmp_path):
    (tmp_path / "gw_catalog_junk.py").write_text(
        "from glyphweave.components import hookimpl\n\n"
        "@hookimpl\ndef glyphweave_register_filters():\n    return ['not a class']\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    fake_entry_point_distribution(monkeypatch, "glyphweave-junk", "1.0", {"junk": "gw_catalog_junk"})
    try:
        pm = create_plugin_manager(environ={})
        with pytest.raises(PluginError, match=r"^plugin 'junk' \(glyphweave-junk 1.0\) registered 'not a class'"):
            Catalog.from_plugin_manager(pm)
        catalog = Catalog.from_plugin_manager(pm, skip_broken=True)
        assert pm.get_plugin("junk") is None and "dedup" in catalog.names("filter")
        assert list(pm.broken) == ["junk"] and pm.broken["junk"].startswith("plugin 'junk' (glyphweave-junk 1.0)")
        assert Catalog.from_plugin_manager(pm).names("filter") == catalog.names("filter")  # gone for good
        # A manager created to skip broken plugins skips them in its catalogs too.
        pm = create_plugin_manager(environ={}, skip_broken=True)
        assert "dedup" in Catalog.from_plugin_manager(pm).names("filter") and list(pm.broken) == ["junk"]
    finally:
        sys.modules.pop("gw_catalog_junk", None)


def test_skip_broken_does_not_skip_a_plugin_the_caller_passed():
    def failing():
        raise RuntimeError("boom")

    plugin = make_plugin(decoders=[LatinDecoder], name="mine")
    plugin.glyphweave_register_decoders = hookimpl(failing)
    pm = fresh_plugin_manager(plugin)
    with pytest.raises(PluginError, match=r"^plugin 'mine' \(not installed\) failed in glyphweave_register_decoders"):
        Catalog.from_plugin_manager(pm, skip_broken=True)
