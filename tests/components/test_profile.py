"""Profiles: loading (names, files, extends), validation at the boundary, instantiation."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import attrs
import pytest

from glyphweave.components import Catalog, Profile, ResolvedPipeline, available_profiles, load_profile
from glyphweave.core.errors import PluginError, ProfileError
from glyphweave.core.pipeline import Pipeline
from glyphweave.core.stages import Assembler, Decoder, Filter, Option
from glyphweave.testing import fresh_plugin_manager, make_plugin


def _component(base, name, method, options=None, doc=None):
    def stage_method(self, *args):
        return list(args[-1]) if base is Filter else None

    return type(
        f"StandIn_{name.replace('-', '_')}",
        (base,),
        {"NAME": name, "OPTIONS": options or {}, method: stage_method, "__doc__": doc or f"Stand-in {name}."},
    )


DEDUP_OPTIONS = {
    "along": Option(default=0.1, doc="tolerance along the baseline, × size"),
    "across": Option(default=0.2, doc="tolerance across the baseline, × size"),
}
COLUMNS_OPTIONS = {"k": Option(default=3, doc="column gap, × median advance")}


class Exploding(Assembler):
    """Cannot be constructed."""

    NAME = "exploding"

    def __init__(self, **options):
        raise RuntimeError("no can do")

    def assemble(self, page, indices):
        return ""


BUILTIN_DECODERS = ("tounicode", "symbol", "zapfdingbats", "wingdings", "cid-collection", "encoding", "embedded-font", "standard-fallback")
"""The built-in profiles' decoders, in their order."""
OPT_IN_DECODERS = ("glyph-map", "shape")
"""Built-in decoders only some built-in profiles select (``registry``: glyph-map after tounicode;
``shapes``: shape after standard-fallback)."""


def stand_in_plugin():
    """Components under the built-in names, so profiles resolve without the real ones."""
    return make_plugin(
        name="stand-ins",
        decoders=[_component(Decoder, n, "decode") for n in BUILTIN_DECODERS + OPT_IN_DECODERS],
        filters=[
            _component(Filter, "visible-box", "apply"),
            _component(Filter, "dedup", "apply", DEDUP_OPTIONS),
        ],
        assemblers=[
            _component(Assembler, "reading", "assemble"),
            _component(Assembler, "auto", "assemble"),
            _component(Assembler, "columns", "assemble", COLUMNS_OPTIONS),
            Exploding,
        ],
    )


def make_catalog(profiles=None) -> Catalog:
    plugins = [stand_in_plugin()]
    if profiles:
        plugins.append(make_plugin(profiles=profiles, name="profiles"))
    return Catalog.from_plugin_manager(fresh_plugin_manager(*plugins))


@pytest.fixture
def catalog() -> Catalog:
    return make_catalog()


@pytest.fixture
def write(tmp_path):
    def write(text: str, name: str = "custom.toml") -> Path:
        path = tmp_path / name
        path.write_text(textwrap.dedent(text), encoding="utf-8")
        return path

    return write


# -- built-in profiles --------------------------------------------------------------------------


def test_builtin_default_profile(catalog):
    profile = load_profile("default", catalog)
    assert profile.name == "default"
    assert profile.decoders == BUILTIN_DECODERS
    assert profile.filters == ("visible-box", "dedup")
    assert profile.assembler == "auto"
    assert profile.unresolved == "space" and profile.placeholder == " "
    assert profile.options == {}
    assert "built-in profile 'default'" in profile.source
    assert profile.description


def test_builtin_raw_profile(catalog):
    profile = load_profile("raw", catalog)
    assert profile.decoders == BUILTIN_DECODERS
    assert profile.filters == ()
    assert profile.assembler == "reading"
    assert "off-page" in profile.description and "duplicate" in profile.description


def test_builtin_registry_profile_puts_glyph_map_after_tounicode(catalog):
    profile = load_profile("registry", catalog)
    assert profile.decoders == ("tounicode", "glyph-map", *BUILTIN_DECODERS[1:])
    assert profile.filters == load_profile("default", catalog).filters
    assert profile.options == {}  # no registry file: a profile of one's own sets it


def test_builtin_shapes_profile_puts_shape_last(catalog):
    profile = load_profile("shapes", catalog)
    assert profile.decoders == (*BUILTIN_DECODERS, "shape")
    assert profile.filters == load_profile("default", catalog).filters
    assert profile.assembler == load_profile("default", catalog).assembler


def test_every_builtin_profile_loads(catalog):
    for name, source in catalog.profile_sources().items():
        assert load_profile(name, catalog).name == name, source.location


# -- files ------------------------------------------------------------------------------------------


def test_profile_file_by_path(catalog, write):
    path = write(
        """
        [profile]
        description = "mine"
        unresolved = "replacement"
        decoders = ["encoding", "tounicode"]
        filters = ["dedup"]
        assembler = "columns"

        [options.dedup]
        along = 1          # an int is accepted for a float option

        [options.columns]
        k = 4
        """
    )
    for spec in (path, str(path)):
        profile = load_profile(spec, catalog)
        assert profile.name == "custom"  # the file's stem
        assert profile.decoders == ("encoding", "tounicode")
        assert profile.filters == ("dedup",)
        assert profile.assembler == "columns"
        assert profile.placeholder == "\ufffd"
        assert profile.options == {"dedup": {"along": 1.0}, "columns": {"k": 4}}
        assert isinstance(profile.options["dedup"]["along"], float)
        assert profile.source == str(path)


def test_name_in_file_wins_over_stem(catalog, write):
    path = write('[profile]\nname = "fancy"\nextends = "default"\n')
    assert load_profile(path, catalog).name == "fancy"


def test_file_without_toml_suffix_is_a_path_when_it_exists(catalog, write):
    path = write('[profile]\nextends = "raw"\n', name="my-profile.conf")
    assert load_profile(str(path), catalog).filters == ()


def test_registered_name_wins_over_a_stray_file(catalog, tmp_path, monkeypatch):
    (tmp_path / "raw").write_text("not toml at all [", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert load_profile("raw", catalog).source.startswith("built-in")
    with pytest.raises(ProfileError, match="invalid TOML"):
        load_profile("./raw", catalog)


def test_missing_file(catalog, tmp_path):
    with pytest.raises(ProfileError, match="profile file not found: .*nope.toml"):
        load_profile(str(tmp_path / "nope.toml"), catalog)


def test_directory_is_not_a_profile(catalog, tmp_path):
    folder = tmp_path / "dir.toml"
    folder.mkdir()
    with pytest.raises(ProfileError, match="cannot read profile file"):
        load_profile(folder, catalog)


def test_unknown_profile_name_lists_the_available_ones(catalog):
    with pytest.raises(ProfileError) as info:
        load_profile("fastest", catalog)
    assert str(info.value) == (
        "unknown profile 'fastest' (available: default, raw, reading, registry, shapes; or give the path of a .toml file)"
    )


def test_not_utf8(catalog, tmp_path):
    path = tmp_path / "latin1.toml"
    path.write_bytes(b'[profile]\ndescription = "caf\xe9"\n')
    with pytest.raises(ProfileError, match=r"latin1.toml: not UTF-8"):
        load_profile(path, catalog)


# -- TOML and shape errors ------------------------------------------------------------------------


def test_toml_syntax_error_names_file_and_line(catalog, write):
    path = write('[profile]\ndecoders = ["tounicode"]\nassembler = \n')
    with pytest.raises(ProfileError) as info:
        load_profile(path, catalog)
    message = str(info.value)
    assert message.startswith(f"{path}: line 3, column")
    assert "invalid TOML" in message and "\n" not in message


def test_toml_error_at_end_of_file_names_the_last_line(catalog, write):
    path = write('[profile]\ndecoders = ["tounicode"')
    with pytest.raises(ProfileError) as info:
        load_profile(path, catalog)
    assert str(info.value).startswith(f"{path}: line 2, column 24: invalid TOML: ")
    assert str(info.value).endswith("(at end of file)")


def test_toml_syntax_error_in_a_registered_profile_names_the_plugin():
    catalog = make_catalog({"broken": "[profile\n"})
    with pytest.raises(ProfileError, match=r"profile 'broken' of plugin 'profiles' .*line 1"):
        load_profile("broken", catalog)


def test_unknown_top_level_key(catalog, write):
    path = write('[profile]\nextends = "default"\n[pipeline]\nx = 1\n')
    with pytest.raises(ProfileError, match=rf"^{path}: unknown top-level key 'pipeline'"):
        load_profile(path, catalog)


def test_unknown_profile_key(catalog, write):
    path = write('[profile]\nextends = "default"\ndecoder = ["tounicode"]\n')
    with pytest.raises(ProfileError, match=rf"^{path}: unknown key 'decoder' in \[profile\]"):
        load_profile(path, catalog)


def test_missing_profile_table(catalog, write):
    path = write("[options.dedup]\nalong = 0.2\n")
    with pytest.raises(ProfileError, match=r"missing \[profile\] table"):
        load_profile(path, catalog)


@pytest.mark.parametrize(
    "line, fragment",
    [
        ('decoders = "tounicode"', "decoders must be a list of component names"),
        ("decoders = [1, 2]", "decoders must be a list of component names"),
        ('filters = [""]', "filters must be a list of component names"),
        ("assembler = 3", "assembler must be a non-empty string"),
        ('assembler = ""', "assembler must be a non-empty string"),
        ("description = false", "description must be a non-empty string"),
        ('unresolved = "question-mark"', "unresolved must be one of 'space', 'replacement', 'drop'"),
    ],
)
def test_wrongly_typed_profile_values(catalog, write, line, fragment):
    path = write(f'[profile]\nextends = "default"\n{line}\n')
    with pytest.raises(ProfileError, match=str(path)) as info:
        load_profile(path, catalog)
    assert fragment in str(info.value)


def test_options_must_be_tables(catalog, write):
    path = write('options = 3\n[profile]\nextends = "default"\n')
    with pytest.raises(ProfileError, match=r"options must be tables"):
        load_profile(path, catalog)
    path = write('[profile]\nextends = "default"\n[options]\ndedup = 3\n')
    with pytest.raises(ProfileError, match=r"options.dedup must be a table"):
        load_profile(path, catalog)


def test_profile_without_decoders_or_assembler(catalog, write):
    path = write('[profile]\nassembler = "reading"\n')
    with pytest.raises(ProfileError, match="needs decoders"):
        load_profile(path, catalog)
    path = write('[profile]\ndecoders = ["tounicode"]\n')
    with pytest.raises(ProfileError, match="needs assembler"):
        load_profile(path, catalog)
    path = write('[profile]\nextends = "default"\ndecoders = []\n')
    with pytest.raises(ProfileError, match="selects no decoder"):
        load_profile(path, catalog)


# -- components and options ---------------------------------------------------------------------


def test_unknown_component_lists_available(catalog, write):
    path = write('[profile]\ndecoders = ["tounicode", "ocr"]\nassembler = "reading"\n')
    with pytest.raises(ProfileError) as info:
        load_profile(path, catalog)
    assert str(info.value) == (
        f"{path}: unknown decoder 'ocr' (available: {', '.join(sorted(BUILTIN_DECODERS + OPT_IN_DECODERS))})"
    )


def test_unknown_assembler_suggests(catalog, write):
    path = write('[profile]\nextends = "default"\nassembler = "readin"\n')
    with pytest.raises(ProfileError, match=r"unknown assembler 'readin' .*did you mean 'reading'"):
        load_profile(path, catalog)


def test_same_decoder_twice(catalog, write):
    path = write('[profile]\ndecoders = ["tounicode", "encoding", "tounicode"]\nassembler = "reading"\n')
    with pytest.raises(ProfileError, match=rf"^{path}: decoder 'tounicode' is listed twice"):
        load_profile(path, catalog)


def test_same_filter_twice(catalog, write):
    path = write('[profile]\nextends = "default"\nfilters = ["dedup", "dedup"]\n')
    with pytest.raises(ProfileError, match="filter 'dedup' is listed twice"):
        load_profile(path, catalog)


def test_options_for_an_unselected_component(catalog, write):
    path = write('[profile]\nextends = "raw"\n[options.dedup]\nalong = 0.3\n')
    with pytest.raises(ProfileError) as info:
        load_profile(path, catalog)
    message = str(info.value)
    assert message.startswith(f"{path}: [options.dedup] is for a component this profile does not select")


def test_options_for_an_assembler_the_profile_does_not_use(catalog, write):
    # --mode may switch to it, so its options are accepted (and validated) anyway.
    path = write('[profile]\nextends = "default"\n[options.columns]\nk = 4\n')
    profile = load_profile(path, catalog)
    assert profile.assembler == "auto"
    assert profile.options == {"columns": {"k": 4}}
    assert Pipeline(profile.instantiate(catalog), catalog).assembler_for("columns").k == 4
    path = write('[profile]\nextends = "default"\n[options.columns]\nk = "four"\n')
    with pytest.raises(ProfileError, match=r"\[options.columns\] option 'k' of 'columns' must be int"):
        load_profile(path, catalog)


def test_options_for_an_unknown_component(catalog, write):
    path = write('[profile]\nextends = "default"\n[options.nonesuch]\nx = 1\n')
    with pytest.raises(
        ProfileError, match=r"\[options.nonesuch\] is for a component this profile does not select"
    ):
        load_profile(path, catalog)


def test_unknown_option(catalog, write):
    path = write('[profile]\nextends = "default"\n[options.dedup]\nalong = 0.1\nsideways = 2\n')
    with pytest.raises(ProfileError) as info:
        load_profile(path, catalog)
    assert str(info.value) == (
        f"{path}: [options.dedup] filter 'dedup' has no option 'sideways' (options: across, along)"
    )


def test_option_of_the_wrong_type(catalog, write):
    path = write('[profile]\nextends = "default"\n[options.dedup]\nalong = "far"\n')
    with pytest.raises(
        ProfileError, match=rf"^{path}: \[options.dedup\] option 'along' of 'dedup' must be float"
    ):
        load_profile(path, catalog)


def test_component_validate_options_value_error_becomes_profile_error(write):
    class Picky(Filter):
        """Rejects odd values."""

        NAME = "picky"
        OPTIONS = {"n": Option(default=2, doc="an even number")}

        @classmethod
        def validate_options(cls, options):
            validated = super().validate_options(options)
            if validated["n"] % 2:
                raise ValueError("n must be even")
            return validated

        def apply(self, page, indices):
            return list(indices)

    catalog = Catalog.from_plugin_manager(
        fresh_plugin_manager(stand_in_plugin(), make_plugin(filters=[Picky]))
    )
    path = write('[profile]\nextends = "raw"\nfilters = ["picky"]\n[options.picky]\nn = 3\n')
    with pytest.raises(ProfileError, match=r"\[options.picky\] ValueError: n must be even"):
        load_profile(path, catalog)


# -- extends ------------------------------------------------------------------------------------------


def test_extends_replaces_lists_and_merges_options(write):
    catalog = make_catalog(
        {"tuned": '[profile]\nextends = "default"\n[options.dedup]\nalong = 0.5\nacross = 0.4\n'}
    )
    tuned = load_profile("tuned", catalog)
    assert tuned.extends == "default"
    assert tuned.filters == ("visible-box", "dedup")
    assert tuned.options == {"dedup": {"along": 0.5, "across": 0.4}}

    path = write(
        """
        [profile]
        extends = "tuned"
        filters = ["dedup"]
        unresolved = "drop"
        [options.dedup]
        across = 0.9
        """
    )
    child = load_profile(path, catalog)
    assert child.decoders == tuned.decoders
    assert child.filters == ("dedup",)
    assert child.unresolved == "drop" and child.placeholder == ""
    assert child.options == {"dedup": {"along": 0.5, "across": 0.9}}


def test_inherited_options_for_a_dropped_component_are_dropped(write):
    catalog = make_catalog({"tuned": '[profile]\nextends = "default"\n[options.dedup]\nalong = 0.5\n'})
    path = write('[profile]\nextends = "tuned"\nfilters = ["visible-box"]\n')
    profile = load_profile(path, catalog)
    assert profile.filters == ("visible-box",)
    assert profile.options == {}


def test_inherited_assembler_options_are_kept(write):
    catalog = make_catalog({"wide": '[profile]\nextends = "default"\n[options.columns]\nk = 6\n'})
    path = write('[profile]\nextends = "wide"\nfilters = []\n')
    assert load_profile(path, catalog).options == {"columns": {"k": 6}}


def test_extends_unknown_profile(catalog, write):
    path = write('[profile]\nextends = "defualt"\n')
    with pytest.raises(
        ProfileError, match=rf"^{path}: extends unknown profile 'defualt' \(available: default, raw, reading, registry, shapes\)"
    ):
        load_profile(path, catalog)


def test_extends_cycle():
    catalog = make_catalog(
        {
            "a": '[profile]\nextends = "b"\n',
            "b": '[profile]\nextends = "c"\n',
            "c": '[profile]\nextends = "a"\n',
            "me": '[profile]\nextends = "me"\n',
        }
    )
    with pytest.raises(ProfileError, match=r"in a cycle: a -> b -> c -> a"):
        load_profile("a", catalog)
    with pytest.raises(ProfileError, match=r"in a cycle: me -> me"):
        load_profile("me", catalog)


def test_file_named_like_a_builtin_may_extend_it(catalog, write):
    path = write('[profile]\nextends = "default"\nassembler = "columns"\n', name="default.toml")
    profile = load_profile(path, catalog)
    assert (profile.name, profile.assembler) == ("default", "columns")


def test_registered_profile_name_must_match_its_key():
    catalog = make_catalog({"mine": '[profile]\nname = "yours"\nextends = "default"\n'})
    with pytest.raises(ProfileError, match=r"name is 'yours', but it is registered as 'mine'"):
        load_profile("mine", catalog)


def test_broken_base_is_reported_at_its_own_location(write):
    catalog = make_catalog({"bad-base": '[profile]\nextends = "default"\nfilters = ["nope"]\n'})
    path = write('[profile]\nextends = "bad-base"\n')
    with pytest.raises(
        ProfileError, match=r"^profile 'bad-base' of plugin 'profiles' .*unknown filter 'nope'"
    ):
        load_profile(path, catalog)


def test_blocked_component_makes_builtin_profile_fail_clearly():
    reduced = make_plugin(
        decoders=[_component(Decoder, n, "decode") for n in BUILTIN_DECODERS],
        filters=[_component(Filter, "visible-box", "apply")],
        assemblers=[_component(Assembler, "reading", "assemble")],
    )
    catalog = Catalog.from_plugin_manager(fresh_plugin_manager(reduced))
    with pytest.raises(
        ProfileError, match=r"built-in profile 'default'.*unknown filter 'dedup' \(available: visible-box\)"
    ):
        load_profile("default", catalog)
    assert load_profile("raw", catalog).filters == ()


# -- instantiation ---------------------------------------------------------------------------------


def test_instantiate_builds_components_with_their_options(catalog, write):
    path = write('[profile]\nextends = "default"\n[options.dedup]\nalong = 0.25\n')
    profile = load_profile(path, catalog)
    pipeline = profile.instantiate(catalog)
    assert isinstance(pipeline, ResolvedPipeline)
    assert pipeline.profile is profile
    assert [type(d).NAME for d in pipeline.decoders] == list(BUILTIN_DECODERS)
    assert all(isinstance(d, Decoder) for d in pipeline.decoders)
    visible_box, dedup = pipeline.filters
    assert isinstance(dedup, catalog.get("filter", "dedup"))
    assert (dedup.along, dedup.across) == (0.25, 0.2)
    assert isinstance(pipeline.assembler, Assembler) and type(pipeline.assembler).NAME == "auto"
    assert pipeline.placeholder == " "
    data = pipeline.to_dict()
    assert data["filters"][1] == {
        "name": "dedup",
        "class": f"{type(dedup).__module__}.{type(dedup).__qualname__}",
        "options": {"along": 0.25, "across": 0.2},
    }
    json.dumps(data)


def test_instantiate_gives_fresh_instances(catalog):
    profile = load_profile("default", catalog)
    first, second = profile.instantiate(catalog), profile.instantiate(catalog)
    assert first.assembler is not second.assembler


def test_constructor_failure_is_a_plugin_error(catalog):
    profile = attrs.evolve(load_profile("default", catalog), assembler="exploding")
    with pytest.raises(
        PluginError, match=r"assembler 'exploding' of plugin 'stand-ins' .*RuntimeError: no can do"
    ):
        profile.instantiate(catalog)


def test_mode_switches_to_another_assembler_with_the_profiles_options(catalog, write):
    path = write('[profile]\nextends = "default"\nassembler = "columns"\n[options.columns]\nk = 5\n')
    pipeline = Pipeline(load_profile(path, catalog).instantiate(catalog), catalog)
    assert pipeline.assembler_for(None) is pipeline.assembler
    assert type(pipeline.assembler_for("reading")).NAME == "reading"
    assert pipeline.assembler_for("columns") is pipeline.assembler
    assert pipeline.assembler.k == 5  # the profile's [options.columns] apply
    with pytest.raises(
        ProfileError, match=r"unknown assembler 'tabular' \(available: auto, columns, exploding, reading\)"
    ):
        pipeline.assembler_for("tabular")


def test_profile_to_dict(catalog, write):
    path = write('[profile]\nextends = "default"\n[options.dedup]\nalong = 0.25\n')
    data = load_profile(path, catalog).to_dict()
    assert data == {
        "name": "custom",
        "description": "",
        "source": str(path),
        "extends": "default",
        "unresolved": "space",
        "annotations": True,
        "decoders": list(BUILTIN_DECODERS),
        "filters": ["visible-box", "dedup"],
        "assembler": "auto",
        "options": {"dedup": {"along": 0.25}},
        "limits": {},
    }
    json.dumps(data)


def test_annotations_are_a_profile_key_inherited_and_checked(catalog, write):
    base = write('[profile]\nextends = "default"\nannotations = false\n', name="base.toml")
    child = write('[profile]\nextends = "base.toml"\n')
    assert load_profile(base, catalog).annotations is False
    assert load_profile(child, catalog).annotations is False
    with pytest.raises(ProfileError, match="annotations must be true or false"):
        load_profile(write('[profile]\nextends = "default"\nannotations = "no"\n'), catalog)


def test_profile_from_toml(catalog):
    profile = Profile.from_toml('[profile]\nextends = "raw"\n', catalog, name="inline")
    assert (profile.name, profile.filters, profile.source) == ("inline", (), "<string>")


# -- the record itself -----------------------------------------------------------------------------


def test_profile_is_frozen_and_hashable(catalog):
    profile = load_profile("default", catalog)
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        profile.assembler = "columns"
    with pytest.raises(TypeError):
        profile.options["dedup"] = {}
    assert hash(profile) == hash(load_profile("default", catalog))
    assert profile == load_profile("default", catalog)


def test_profile_built_in_code_is_validated():
    Profile(name="p", decoders=["a"], assembler="x")
    with pytest.raises(ProfileError, match="decoder 'a' is listed twice"):
        Profile(name="p", decoders=["a", "a"], assembler="x")
    with pytest.raises(ProfileError, match="selects no decoder"):
        Profile(name="p", decoders=[], assembler="x")
    with pytest.raises(ProfileError, match="unresolved must be one of"):
        Profile(name="p", decoders=["a"], assembler="x", unresolved="nothing")


def test_available_profiles_lists_descriptions_and_unusable_ones():
    catalog = make_catalog({"broken": '[profile]\nextends = "default"\nassembler = "gone"\n'})
    listing = available_profiles(catalog)
    assert list(listing) == ["broken", "default", "raw", "reading", "registry", "shapes"]
    assert listing["raw"] == load_profile("raw", catalog).description
    assert listing["broken"].startswith("(unusable: ") and "unknown assembler 'gone'" in listing["broken"]


def test_a_path_option_is_taken_from_the_folder_of_the_file_that_writes_it(tmp_path):
    options = {"table": Option(default="", doc="a file", path=True), "label": Option(default="", doc="a name")}
    catalog = Catalog.from_plugin_manager(fresh_plugin_manager(
        stand_in_plugin(), make_plugin(name="files", filters=[_component(Filter, "with-file", "apply", options)])))
    (tmp_path / "base").mkdir()
    (tmp_path / "base" / "base.toml").write_text(
        '[profile]\nextends = "default"\nfilters = ["with-file"]\n'
        '[options.with-file]\ntable = "t.tsv"\nlabel = "l.tsv"\n', encoding="utf-8")
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "mine.toml").write_text('[profile]\nextends = "../base/base.toml"\n', encoding="utf-8")
    (tmp_path / "mine" / "own.toml").write_text(
        '[profile]\nextends = "../base/base.toml"\n[options.with-file]\ntable = "sub/own.tsv"\n', encoding="utf-8")
    (tmp_path / "mine" / "none.toml").write_text(
        '[profile]\nextends = "../base/base.toml"\n[options.with-file]\ntable = ""\n', encoding="utf-8")

    def chosen(name: str) -> dict:
        return dict(load_profile(tmp_path / "mine" / name, catalog).options["with-file"])

    # the base's path stays the base's; a plain string option is left as written
    assert chosen("mine.toml") == {"table": str(tmp_path / "base" / "t.tsv"), "label": "l.tsv"}
    assert chosen("own.toml")["table"] == str(tmp_path / "mine" / "sub" / "own.tsv")
    assert chosen("none.toml")["table"] == ""  # empty means "none", not the folder
