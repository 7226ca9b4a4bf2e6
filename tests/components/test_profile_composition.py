"""Composable profiles: extends a file, stage lists relative to the base, Profiles built in code."""

from __future__ import annotations

import pytest
from test_profile import BUILTIN_DECODERS, catalog, write  # noqa: F401  (fixtures)

from glyphweave.components import Profile, load_profile
from glyphweave.core.errors import ProfileError


def test_extends_a_file_relative_to_the_extending_one(catalog, write):  # noqa: F811
    write('[profile]\nextends = "default"\nfilters = ["dedup"]\n[options.dedup]\nalong = 0.3\n', "base.toml")
    path = write('[profile]\nextends = "base.toml"\n[options.dedup]\nacross = 0.4\n')
    profile = load_profile(path, catalog)
    assert profile.filters == ("dedup",)
    assert profile.options == {"dedup": {"along": 0.3, "across": 0.4}}
    assert profile.extends == "base.toml"


def test_extending_files_in_a_cycle_is_an_error(catalog, write):  # noqa: F811
    write('[profile]\nextends = "b.toml"\n', "a.toml")
    write('[profile]\nextends = "a.toml"\n', "b.toml")
    with pytest.raises(ProfileError, match=r"profiles extend each other in a cycle: a -> b -> a"):
        load_profile(write('[profile]\nextends = "b.toml"\n', "a.toml"), catalog)


def test_extends_a_missing_file(catalog, write):  # noqa: F811
    with pytest.raises(ProfileError, match=r"profile file not found: .*nope\.toml"):
        load_profile(write('[profile]\nextends = "nope.toml"\n'), catalog)


def test_the_base_list_placeholder(catalog, write):  # noqa: F811
    path = write('[profile]\nextends = "default"\ndecoders = ["columns-dec", "..."]\n')
    with pytest.raises(ProfileError, match="unknown decoder 'columns-dec'"):
        load_profile(path, catalog)
    path = write('[profile]\nextends = "raw"\nfilters = ["...", "dedup"]\ndecoders = ["...", "tounicode"]\n')
    with pytest.raises(ProfileError, match="decoder 'tounicode' is listed twice"):
        load_profile(path, catalog)
    path = write('[profile]\nextends = "raw"\nfilters = ["...", "dedup"]\n')
    assert load_profile(path, catalog).filters == ("dedup",)


def test_the_placeholder_needs_a_base(catalog, write):  # noqa: F811
    path = write('[profile]\ndecoders = ["...", "encoding"]\nassembler = "reading"\n')
    with pytest.raises(ProfileError, match=r'"\.\.\." stands for the list of the profile this one extends'):
        load_profile(path, catalog)


def test_edits_of_the_base_list(catalog, write):  # noqa: F811
    path = write('''
        [profile]
        extends = "default"
        [profile.decoders]
        remove = ["standard-fallback", "wingdings", "embedded-font"]
        after = { tounicode = ["embedded-font"] }
        [profile.filters]
        remove = ["dedup"]
        prepend = ["dedup"]
    ''')
    profile = load_profile(path, catalog)
    assert profile.decoders == ("tounicode", "embedded-font", "symbol", "zapfdingbats", "cid-collection", "encoding")
    assert profile.filters == ("dedup", "visible-box")


def test_an_edit_never_hides_a_duplicate(catalog, write):  # noqa: F811
    path = write('[profile]\nextends = "default"\n[profile.decoders]\nbefore = { encoding = ["zapfdingbats"] }\n')
    with pytest.raises(ProfileError, match="decoder 'zapfdingbats' is listed twice"):
        load_profile(path, catalog)


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ('[profile.decoders]\nremove = ["nope"]\n', r"decoders\.remove: 'nope' is not in the base's list"),
        ('[profile.decoders]\nbefore = { nope = ["encoding"] }\n', r"decoders\.before: 'nope' is not in the list"),
        ('[profile.decoders]\ninsert = ["x"]\n', r"unknown edit 'insert' \(allowed: prepend, append, before, after"),
        ('[profile.decoders]\nappend = "encoding"\n', r"decoders\.append must be a list of names, got 'encoding'"),
        ('[profile.decoders]\nafter = ["encoding"]\n', r"decoders\.after must be a table of component name = \[names\]"),
    ],
)
def test_bad_edits_name_the_culprit(catalog, write, body, message):  # noqa: F811
    with pytest.raises(ProfileError, match=message):
        load_profile(write('[profile]\nextends = "default"\n' + body), catalog)


def test_edits_need_a_base(catalog, write):  # noqa: F811
    path = write('[profile]\nassembler = "reading"\n[profile.decoders]\nappend = ["encoding"]\n')
    with pytest.raises(ProfileError, match="edits the base's list, but the profile extends none"):
        load_profile(path, catalog)


# -- a Profile built in code ------------------------------------------------------------------------


def test_a_string_is_not_a_list_of_decoders():
    with pytest.raises(ProfileError, match=r"a stage list must be a list of component names, got 'encoding'"):
        Profile(name="p", decoders="encoding", assembler="reading")  # type: ignore[arg-type]
    with pytest.raises(ProfileError, match=r"must hold non-empty component names"):
        Profile(name="p", decoders=["encoding", 3], assembler="reading")  # type: ignore[list-item]


def test_checked_validates_like_a_file(catalog):  # noqa: F811
    ok = Profile(name="p", decoders=["encoding"], filters=["dedup"], assembler="reading",
                 options={"dedup": {"along": 1}})
    assert ok.checked(catalog).options == {"dedup": {"along": 1.0}}
    typo = Profile(name="p", decoders=["encoding"], assembler="reading", options={"dedpu": {"along": 1}})
    with pytest.raises(ProfileError, match=r"profile 'p': \[options\.dedpu\] is for a component this profile "
                                           "does not select"):
        typo.checked(catalog)
    unknown = Profile(name="p", decoders=["encodng"], assembler="reading")
    with pytest.raises(ProfileError, match=r"profile 'p': unknown decoder 'encodng'.*did you mean 'encoding'"):
        unknown.checked(catalog)
    bad_value = Profile(name="p", decoders=["encoding"], filters=["dedup"], assembler="reading",
                        options={"dedup": {"along": "far"}})
    with pytest.raises(ProfileError, match=r"option 'along' of 'dedup' must be float, got 'far'"):
        bad_value.checked(catalog)
