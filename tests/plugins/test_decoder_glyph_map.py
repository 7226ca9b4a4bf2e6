"""The ``glyph-map`` decoder: characters validated in the glyph registry change the extraction."""

from __future__ import annotations

import io
import os

import pytest
from fontTools.fontBuilder import FontBuilder
from fontTools.pens.ttGlyphPen import TTGlyphPen
from fontTools.ttLib.tables._c_m_a_p import CmapSubtable

from glyphweave.components import Catalog, Profile, load_profile
from glyphweave.components.manager import create_plugin_manager
from glyphweave.core.errors import ProfileError
from glyphweave.core.fontinfo import FLAG_SYMBOLIC, FontInfo
from glyphweave.glyphmap import registry as registry_module
from glyphweave.glyphmap.keys import make_key
from glyphweave.glyphmap.outline import outline_hash
from glyphweave.glyphmap.registry import (
    Entry,
    Registry,
    read_registry,
    update_registry,
    write_registry,
)
from glyphweave.glyphmap.scan import merge_groups, scan_file
from glyphweave.plugins.decoders.glyph_map import GlyphMapDecoder, load_validated
from glyphweave.testing.extract import extract_text
from glyphweave.testing.pdfs import helvetica, make_pdf, text_at, truetype, type3

# -- a document with a glyph no table reads ----------------------------------------------------


def custom_glyph_pdf() -> bytes:
    """"Tick: X done", where X is a Type3 glyph named ``tick1`` (no ToUnicode; not an AGL name):
    no decoder reads it."""
    content = b"\n".join([
        text_at("Tick:", 72, 700, font="F1"),
        text_at(b"a", 108, 700, font="F2"),
        text_at("done", 120, 700, font="F1"),
    ])
    return make_pdf(content, fonts={"F1": helvetica(widths=True),
                                    "F2": type3(widths=(50,), names=["tick1"])})


# The glyph procedure paints a square half an em wide: the key is that drawing's, in thousandths of an em.
TYPE3_KEY = make_key("Type3", "61", outline_hash("M0 0L500 0L500 500L0 500Z"))


def profile_file(tmp_path, registry_path) -> str:
    path = tmp_path / "mine.toml"
    path.write_text(f'[profile]\nextends = "registry"\n[options.glyph-map]\nregistry = "{registry_path}"\n',
                    encoding="utf-8")
    return str(path)


def test_one_mapping_validated_by_hand_changes_the_extraction(tmp_path):
    pdf = tmp_path / "doc.pdf"
    pdf.write_bytes(custom_glyph_pdf())
    registry = tmp_path / "glyphweave-registry.tsv"
    # The scan finds the unresolved glyph; nobody has validated it yet.
    update_registry(registry, merge_groups([(str(pdf), scan_file(str(pdf)))]))
    (entry,) = read_registry(registry)
    assert entry.status == "unresolved" and entry.key == TYPE3_KEY
    profile = profile_file(tmp_path, registry)
    before = extract_text(str(pdf), profile=profile)
    assert before == extract_text(str(pdf)) == "Tick: done\n\f"  # the glyph: a placeholder space

    # A proposed character is only a suggestion: nothing changes.
    reg = read_registry(registry)
    reg.entries[entry.key].mapping, reg.entries[entry.key].status = "✓", "proposed"
    write_registry(registry, reg)
    assert extract_text(str(pdf), profile=profile) == before

    # Validated by hand (as `glyphweave registry validate KEY ✓` does): the text changes.
    reg.validate(entry.key, "✓")
    write_registry(registry, reg)
    after = extract_text(str(pdf), profile=profile)
    assert after == "Tick: ✓ done\n\f"
    assert extract_text(str(pdf), profile="registry") == before  # no registry set: as default


def test_validated_entries_go_ahead_of_the_built_in_tables_but_after_tounicode(tmp_path):
    content = b"\n".join([text_at(b"l", 72, 700, font="W"), text_at(b"A", 100, 700, font="T")])
    fonts = {
        # Word's way: Wingdings with a ToUnicode to U+F06C (weak), read by the wingdings table.
        "W": truetype(base_font="ABCDEF+Wingdings-Regular", mapping={0x6C: "\uf06c"}),
        # A font whose own ToUnicode says "A": the document's word stands.
        "T": truetype(base_font="Foo", mapping={0x41: "A"}),
    }
    pdf = make_pdf(content, fonts=fonts)
    assert extract_text(pdf) == "\u25cf A\n\f"  # the wingdings table's black circle
    registry = tmp_path / "r.tsv"
    write_registry(registry, Registry({
        "Wingdings/c:6c": Entry(key="Wingdings/c:6c", status="validated", mapping="•", code="6c"),
        "Foo/c:41": Entry(key="Foo/c:41", status="validated", mapping="Z", code="41"),
    }))
    assert extract_text(pdf, profile=profile_file(tmp_path, registry)) == "• A\n\f"


# -- the decoder on its own ----------------------------------------------------------------------


def small_truetype(shapes: dict[int, int]) -> bytes:
    """A symbolic TrueType font: code → a triangle of the given width, one glyph per code
    (glyph names say nothing), reached through a (3,0) cmap at U+F000 + code."""
    glyphs = [".notdef"] + [f"g{i}" for i in range(len(shapes))]
    fb = FontBuilder(1000, isTTF=True)
    fb.setupGlyphOrder(glyphs)
    outlines = {}
    for name, width in zip(glyphs, [10, *shapes.values()], strict=True):
        pen = TTGlyphPen(None)
        pen.moveTo((0, 0))
        pen.lineTo((0, 100))
        pen.lineTo((width, 0))
        pen.closePath()
        outlines[name] = pen.glyph()
    fb.setupGlyf(outlines)
    fb.setupHorizontalMetrics({name: (500, 0) for name in glyphs})
    fb.setupHorizontalHeader(ascent=800, descent=-200)
    fb.setupCharacterMap({})
    table = CmapSubtable.newSubtable(4)
    table.platformID, table.platEncID, table.language = 3, 0, 0
    table.cmap = {0xF000 + code: f"g{i}" for i, code in enumerate(shapes)}
    fb.font["cmap"].tables = [table]
    fb.setupMaxp()
    fb.setupPost(keepGlyphNames=False)
    out = io.BytesIO()
    fb.save(out)
    return out.getvalue()


def embedded(data: bytes, base_font: str) -> FontInfo:
    return FontInfo(key=(1, 0), base_font=base_font, subtype="TrueType", embedded=True, flags=FLAG_SYMBOLIC,
                    font_file_kind="FontFile2", font_file_loader=lambda: data)


def write(path, *entries: Entry) -> str:
    write_registry(path, Registry({e.key: e for e in entries}))
    return str(path)


def test_an_outline_key_answers_for_the_glyph_in_any_subset_under_any_code(tmp_path):
    draw_glyph = pytest.importorskip("glyphweave.glyphmap.outline").draw_glyph
    one = embedded(small_truetype({0x41: 300, 0x42: 600}), "Dings-Regular")
    other = embedded(small_truetype({0x21: 600}), "Dings-Bold")  # another subset: the same glyph at 0x21
    drawing = draw_glyph(one, b"B", None)
    assert drawing is not None
    path = write(tmp_path / "r.tsv", Entry(key=f"Dings/o:{drawing.hash}", status="validated", mapping="☛", code="42"))
    decoder = GlyphMapDecoder(registry=path)
    assert decoder.decode(one, b"B", None) == "☛"
    assert decoder.decode(other, b"!", None) == "☛"
    assert decoder.decode(one, b"A", None) is None  # another drawing
    # A code key does not answer for a glyph the font draws (the scan keyed it by outline).
    path = write(tmp_path / "c.tsv", Entry(key="Dings/c:42", status="validated", mapping="x", code="42"))
    assert GlyphMapDecoder(registry=path).decode(embedded(small_truetype({0x42: 600}), "Dings"), b"B", None) is None


def test_without_the_outline_module_the_code_key_answers(tmp_path, monkeypatch):
    import builtins

    real_import = builtins.__import__

    def no_outline(name, *args, **kwargs):
        if name == "glyphweave.glyphmap.outline":
            raise ImportError(name)
        return real_import(name, *args, **kwargs)

    info = embedded(small_truetype({0x42: 600}), "Dings")
    path = write(tmp_path / "c.tsv", Entry(key="Dings/c:42", status="validated", mapping="x", code="42"))
    monkeypatch.setattr(builtins, "__import__", no_outline)
    assert GlyphMapDecoder(registry=path).decode(info, b"B", None) == "x"


def test_only_validated_entries_answer_and_other_families_are_not_looked_at(tmp_path):
    path = write(tmp_path / "r.tsv",
                 Entry(key="Type3/c:61", status="validated", mapping="✓", code="61"),
                 Entry(key="Type3/c:62", status="proposed", mapping="✗", code="62"),
                 Entry(key="Type3/c:63", status="unresolved", code="63"))
    decoder = GlyphMapDecoder(registry=path)
    info = FontInfo(key=(1, 0), base_font="Type3", subtype="Type3")
    assert [decoder.decode(info, c, None) for c in (b"a", b"b", b"c")] == ["✓", None, None]
    other = FontInfo(key=(2, 0), base_font="ABCDEF+Other", subtype="Type3")
    assert decoder.decode(other, b"a", None) is None
    assert decoder.validated.families == frozenset({"Type3"})


def test_no_registry_answers_nothing():
    decoder = GlyphMapDecoder()
    assert decoder.registry == ""
    assert decoder.decode(FontInfo(key=(1, 0), base_font="Type3"), b"a", None) is None


def test_the_file_is_read_once_per_process_until_it_changes(tmp_path, monkeypatch):
    path = write(tmp_path / "r.tsv", Entry(key="F/c:61", status="validated", mapping="1", code="61"))
    reads = []
    real = registry_module.read_registry  # (the decoder imports it where a registry is set)
    monkeypatch.setattr(registry_module, "read_registry", lambda p: reads.append(p) or real(p))
    first = load_validated(path)
    assert load_validated(path) is first and GlyphMapDecoder(registry=path).validated is first
    assert len(reads) == 1
    write(tmp_path / "r.tsv", Entry(key="F/c:61", status="validated", mapping="22", code="61"))
    stat = os.stat(path)
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000))
    assert load_validated(path).mappings == {"F/c:61": "22"} and len(reads) == 2


def test_a_bad_registry_path_is_a_profile_error_naming_the_file(tmp_path):
    with pytest.raises(ProfileError, match=r"registry file .*missing\.tsv: not found"):
        GlyphMapDecoder(registry=str(tmp_path / "missing.tsv"))
    with pytest.raises(ProfileError, match="not a file"):
        GlyphMapDecoder(registry=str(tmp_path))
    bad = tmp_path / "bad.tsv"
    good = Registry({"F/c:61": Entry(key="F/c:61", status="validated", mapping="1", code="61")}).text()
    bad.write_text(good + "F/c:62\tvalidated\t\t\t\t\t62\t\t0\t0\t\t\t\t\n", encoding="utf-8")
    with pytest.raises(ProfileError, match=r"bad\.tsv:4: a validated entry without a mapping"):
        GlyphMapDecoder(registry=str(bad))
    not_registry = tmp_path / "notes.tsv"
    not_registry.write_text("hello\n", encoding="utf-8")
    with pytest.raises(ProfileError, match=r"notes\.tsv:1: not a glyphweave glyph registry"):
        extract_text(custom_glyph_pdf(), profile=profile_file(tmp_path, not_registry))


def test_a_registry_broken_after_loading_changes_nothing_at_decode_time(tmp_path):
    path = tmp_path / "r.tsv"
    write(path, Entry(key="Type3/c:61", status="validated", mapping="✓", code="61"))
    decoder = GlyphMapDecoder(registry=str(path))
    path.write_text("garbage", encoding="utf-8")
    assert decoder.decode(FontInfo(key=(1, 0), base_font="Type3", subtype="Type3"), b"a", None) == "✓"


# -- a registry path in a profile is relative to the profile file ----------------------------


def builtin_catalog() -> Catalog:
    return Catalog.from_plugin_manager(create_plugin_manager())


def test_a_relative_registry_path_is_taken_from_the_profile_files_folder(tmp_path, monkeypatch):
    pdf = tmp_path / "doc.pdf"
    pdf.write_bytes(custom_glyph_pdf())
    project = tmp_path / "project"
    project.mkdir()
    write(project / "reg.tsv", Entry(key=TYPE3_KEY, status="validated", mapping="✓", code="61"))
    profile = project / "mine.toml"
    profile.write_text('[profile]\nextends = "registry"\n[options.glyph-map]\nregistry = "reg.tsv"\n',
                       encoding="utf-8")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)  # no reg.tsv here: only the profile's folder has one
    assert extract_text(pdf, profile=str(profile)) == "Tick: ✓ done\n\f"
    monkeypatch.chdir(tmp_path)
    assert extract_text(pdf, profile=os.path.join("project", "mine.toml")) == "Tick: ✓ done\n\f"


def test_a_base_profile_keeps_its_own_folder_for_its_registry(tmp_path, monkeypatch):
    shared = tmp_path / "shared"
    shared.mkdir()
    write(shared / "reg.tsv", Entry(key=TYPE3_KEY, status="validated", mapping="✓", code="61"))
    (shared / "base.toml").write_text('[profile]\nextends = "registry"\n[options.glyph-map]\nregistry = "reg.tsv"\n',
                                      encoding="utf-8")
    mine = tmp_path / "team"
    mine.mkdir()
    (mine / "mine.toml").write_text('[profile]\nextends = "../shared/base.toml"\n', encoding="utf-8")
    monkeypatch.chdir(mine)
    catalog = builtin_catalog()
    profile = load_profile(mine / "mine.toml", catalog)
    assert profile.options["glyph-map"]["registry"] == str(shared / "reg.tsv")
    assert extract_text(custom_glyph_pdf(), profile=str(mine / "mine.toml")) == "Tick: ✓ done\n\f"
    # a missing file is named by the path the profile's folder gives it
    (mine / "other.toml").write_text('[profile]\nextends = "registry"\n[options.glyph-map]\nregistry = "no.tsv"\n',
                                     encoding="utf-8")
    with pytest.raises(ProfileError, match=f"registry file {os.path.join(str(mine), 'no.tsv')}: not found"):
        extract_text(custom_glyph_pdf(), profile=str(mine / "other.toml"))


def test_profile_text_that_is_no_file_keeps_the_path_as_written(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    text = '[profile]\nextends = "registry"\n[options.glyph-map]\nregistry = "reg.tsv"\n'
    profile = Profile.from_toml(text, builtin_catalog())
    assert profile.options["glyph-map"]["registry"] == "reg.tsv"  # the working directory's
    absolute = str(tmp_path / "abs.tsv")
    (tmp_path / "p.toml").write_text(text.replace('"reg.tsv"', f'"{absolute}"'), encoding="utf-8")
    assert load_profile(tmp_path / "p.toml", builtin_catalog()).options["glyph-map"]["registry"] \
        == absolute
