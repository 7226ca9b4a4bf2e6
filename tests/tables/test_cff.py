"""The CFF strings mirror (``tables/cff.py``): the specification's lists as fontTools holds
them, a fallback to fontTools without the mirror, provenance, and its generator."""

from __future__ import annotations

import hashlib

import pytest
from fontTools import cffLib
from generators import load_generator

from glyphweave.tables import cff, loader


@pytest.fixture
def fresh_cache():
    cff._load.cache_clear()
    yield
    cff._load.cache_clear()


def test_the_mirror_holds_the_specifications_lists(fresh_cache):
    assert cff.cff_strings_source() == "mirror"
    assert cff.standard_strings() == tuple(cffLib.cffStandardStrings)
    assert len(cff.standard_strings()) == cff.STANDARD_STRING_COUNT == 391
    assert cff.predefined_charset(0) == tuple(cffLib.cffISOAdobeStrings)
    assert cff.predefined_charset(1) == tuple(cffLib.cffIExpertStrings)
    assert cff.predefined_charset(2) == tuple(cffLib.cffExpertSubsetStrings)
    with pytest.raises(ValueError):
        cff.predefined_charset(3)


def test_without_the_mirror_fonttools_serves_the_same_lists(monkeypatch, fresh_cache, tmp_path):
    mirror = (cff.standard_strings(), cff.predefined_charset(1), cff.predefined_charset(2))
    cff._load.cache_clear()
    monkeypatch.setattr(loader, "resource_root", lambda: tmp_path)
    assert cff.cff_strings_source() == "fallback"
    assert (cff.standard_strings(), cff.predefined_charset(1), cff.predefined_charset(2)) == mirror


@pytest.mark.parametrize("text", [
    "",
    "# another format\n",
    "# glyphweave CFF strings, format 1.\n@standard 3\n.notdef\n",
    "# glyphweave CFF strings, format 1.\nspace\n",
])
def test_a_damaged_mirror_is_refused_with_its_name(text):
    with pytest.raises(ValueError, match="cff/strings.tsv"):
        cff._parse(text)


def test_provenance_matches_the_shipped_file():
    folder = loader.resource_root() / "cff"
    lines = [line for line in (folder / "PROVENANCE.tsv").read_text(encoding="utf-8").splitlines()
             if line and not line.startswith("#")]
    header = lines[0].split("\t")
    rows = [dict(zip(header, line.split("\t"), strict=True)) for line in lines[1:]]
    assert [row["file"] for row in rows] == ["strings.tsv"]
    data = (folder / "strings.tsv").read_bytes()
    assert hashlib.sha256(data).hexdigest() == rows[0]["sha256"] and len(data) == int(rows[0]["bytes"])
    assert {entry.name for entry in folder.iterdir() if entry.is_file()} == {"strings.tsv", "PROVENANCE.tsv"}


def test_the_generator_would_write_the_shipped_files():
    module = load_generator("make_cff_strings")
    folder = loader.resource_root() / "cff"
    rendered = module.render()
    # The fontTools version in the provenance is the one the files were made with.
    assert rendered["strings.tsv"] == (folder / "strings.tsv").read_bytes()
