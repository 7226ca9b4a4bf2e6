"""``glyphweave scan``, ``sheet``, ``registry validate`` and ``repair`` end to end, on synthetic
PDFs: a Type3 glyph no table reads, Word's Symbol font behind U+F0xx codes, one embedded
TrueType glyph in two subsets under different codes; and on the shared corpus when present."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from test_outline import _ring, _square, simple_font, truetype_program

from glyphweave.api import open_with
from glyphweave.cli import main
from glyphweave.glyphmap.keys import make_key
from glyphweave.glyphmap.outline import outline_hash
from glyphweave.glyphmap.registry import COLUMNS, MAGIC, read_registry
from glyphweave.glyphmap.scan import MARK, scan, scan_file
from glyphweave.opening import OpenOptions
from glyphweave.testing.extract import extract_text
from glyphweave.testing.pdfs import Page, helvetica, make_pdf, text_at, truetype, type3

CORPUS = Path("/work/shared/corpus")
# type3_pdf's glyph procedure paints a square half an em wide: the key is that drawing's.
TYPE3_KEY = make_key("Type3", "61", outline_hash("M0 0L500 0L500 500L0 500Z"))
SYMBOL_KEY = "Symbol/c:b7"


# -- the documents ---------------------------------------------------------------------------


def type3_pdf() -> bytes:
    """"Tick: X done", X a Type3 glyph named ``tick1`` (no ToUnicode, not an AGL name):
    no decoder reads it (as in tests/plugins/test_decoder_glyph_map.py)."""
    content = b"\n".join([
        text_at("Tick:", 72, 700, font="F1"),
        text_at(b"a", 108, 700, font="F2"),
        text_at("done", 120, 700, font="F1"),
    ])
    return make_pdf(content, fonts={"F1": helvetica(widths=True), "F2": type3(widths=(50,), names=["tick1"])})


def symbol_pdf() -> bytes:
    """Word's way with Symbol: a SymbolMT subset whose ToUnicode maps its codes to U+F0xx
    (weak); the symbol decoder reads code 0xB7 as a bullet, and 0x20 as a space."""
    content = b"\n".join([
        text_at("Item", 72, 700, font="F1"),
        text_at(b"\xb7 \xb7", 108, 700, font="S"),
        text_at("one", 140, 700, font="F1"),
    ])
    fonts = {"F1": helvetica(widths=True),
             "S": truetype(base_font="ABCDEF+SymbolMT", mapping={0xB7: "\uf0b7", 0x20: "\uf020"})}
    return make_pdf(content, fonts=fonts)


def _star(pen) -> None:
    pen.moveTo((100, 0))
    pen.lineTo((350, 700))
    pen.lineTo((600, 0))
    pen.lineTo((0, 450))
    pen.lineTo((700, 450))
    pen.closePath()


STAR = "M100 0L350 700L600 0L0 450L700 450Z"


def star_pdf(subset: int) -> bytes:
    """An embedded symbolic TrueType subset (a (3,0) cmap, no glyph names, no ToUnicode) whose
    star glyph has code 0x05 in subset 0 and 0x09 in subset 1 (glyph numbers differ too):
    no table reads it, and its outline is the same."""
    if subset == 0:
        program = truetype_program({"g1": _star, "g2": _square}, {0xF005: "g1", 0xF006: "g2"},
                                   symbol=True, names=False)
        codes, base = b"\x05", "AAAAAA+Starry-Bold"
    else:
        program = truetype_program({"h1": _ring, "h2": _star}, {0xF009: "h2"}, symbol=True, names=False)
        codes, base = b"\x09 \x09", "BBBBBB+Starry,Italic"
    content = b"\n".join([
        text_at("Star:", 72, 700, font="F1"),
        text_at(codes, 108, 700, font="F2"),
        text_at("here", 160, 700, font="F1"),
    ])
    return make_pdf(content, fonts={"F1": helvetica(widths=True), "F2": simple_font(program, base_font=base)})


DAMAGED = b"%PDF-1.4\n1 0 obj << /Type /Catalog\n" + bytes(range(256)) * 4


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("corpus")
    (folder / "sub").mkdir()
    (folder / "type3.pdf").write_bytes(type3_pdf())
    (folder / "symbol.pdf").write_bytes(symbol_pdf())
    (folder / "star0.pdf").write_bytes(star_pdf(0))
    (folder / "sub" / "star1.pdf").write_bytes(star_pdf(1))
    return folder


def star_key(registry) -> str:
    (key,) = [k for k in registry.entries if k.startswith("Starry/")]
    return key


def run(*argv: str) -> int:
    return main([*argv])


def cli(*argv: str, **kwargs) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "glyphweave.cli", *argv], capture_output=True, text=True,
                          timeout=300, check=False, **kwargs)


# -- what a scan records ---------------------------------------------------------------------


def test_the_documents_are_what_the_tests_assume():
    assert extract_text(type3_pdf()) == "Tick: done\n\f"  # the Type3 glyph: a placeholder
    assert extract_text(symbol_pdf()) == "Item • • one\n\f"
    assert "\ufffd" not in extract_text(star_pdf(0)) and "Star:" in extract_text(star_pdf(1))


def test_scan_records_unresolved_and_recovered_glyphs(corpus, tmp_path):
    seen = []
    report = scan([str(corpus)], str(tmp_path / "reg.tsv"), jobs=1, progress=seen.append)
    assert report.files == 4 and report.failed == [] and len(seen) == 4
    reg = read_registry(tmp_path / "reg.tsv")
    assert reg.entries == report.registry.entries
    key = star_key(reg)
    assert set(reg.entries) == {TYPE3_KEY, SYMBOL_KEY, key}

    t3 = reg.entries[TYPE3_KEY]
    assert (t3.status, t3.mapping, t3.source, t3.family, t3.code) == ("unresolved", "", "", "Type3", "61")
    # A Type3 glyph is drawn from its procedure (a filled square here, in thousandths of an em);
    # its key stays its code.
    assert (t3.count, t3.files, t3.svg) == (1, 1, "M0 0L500 0L500 500L0 500Z")
    assert MARK in t3.context and t3.context.startswith("Tick: ⟦?⟧") and "done" in t3.context

    sym = reg.entries[SYMBOL_KEY]
    assert (sym.status, sym.mapping, sym.source, sym.family) == ("proposed", "•", "symbol", "Symbol")
    assert (sym.count, sym.files) == (2, 1) and sym.svg == ""  # not embedded: no outline
    assert sym.context.startswith("Item ⟦?⟧") and MARK in sym.context
    # The space Word also put at U+F020, recovered as a space by the symbol decoder: never recorded.
    assert "Symbol/c:20" not in reg.entries

    star = reg.entries[key]
    assert key.startswith("Starry/o:") and len(key) == len("Starry/o:") + 16  # one key for both subsets
    assert (star.status, star.count, star.files) == ("unresolved", 3, 2)
    assert star.family == "Starry" and star.svg == STAR
    assert star.code == "05"  # the first file in path order (star0.pdf before sub/star1.pdf)
    assert star.context.startswith("Star: ⟦?⟧")
    assert report.keys == 3


def test_a_font_written_again_for_each_page_is_recorded_on_every_page(tmp_path):
    # Two copies of Word's Symbol font (one ToUnicode stream) decode alike and share one
    # decoding: the glyphs the second copy paints are recovered all the same.
    import pikepdf

    first: list[pikepdf.Object] = []

    def symbol(pdf: pikepdf.Pdf) -> pikepdf.Object:
        if not first:
            first.append(truetype(base_font="ABCDEF+SymbolMT", mapping={0xB7: "\uf0b7", 0x20: "\uf020"})(pdf))
            return first[0]
        return pdf.make_indirect(pikepdf.Dictionary(dict(first[0].items())))

    content = text_at(b"\xb7 \xb7", 108, 700, font="S")
    path = tmp_path / "pages.pdf"
    path.write_bytes(make_pdf(content, fonts={"S": symbol}, extra_pages=[Page(content, fonts={"S": symbol})]))
    with open_with(str(path), OpenOptions()) as doc:
        assert len({doc.pages[i].table.font_infos[0].key for i in (0, 1)}) == 2  # two fonts
    groups = scan_file(str(path))
    assert set(groups) == {SYMBOL_KEY} and groups[SYMBOL_KEY]["count"] == 4


def test_the_context_keeps_the_space_after_the_glyph(corpus, tmp_path):
    scan([str(corpus / "type3.pdf")], str(tmp_path / "reg.tsv"), jobs=1)
    assert read_registry(tmp_path / "reg.tsv").entries[TYPE3_KEY].context == "Tick: ⟦?⟧ done"


def test_cli_scan_twice_gives_byte_identical_files(corpus, tmp_path, capsys):
    path = tmp_path / "reg.tsv"
    assert run("scan", str(corpus), "-r", str(path), "-j", "1") == 0
    first = path.read_bytes()
    assert first.decode("utf-8").splitlines()[:2] == [MAGIC, "\t".join(COLUMNS)]
    summary = json.loads(capsys.readouterr().err.strip().splitlines()[-1])["summary"]
    assert summary == {"files": 4, "failed": 0, "keys_seen": 3, "warnings": 0, "registry": str(path),
                       "unresolved": 2, "proposed": 1, "validated": 0}
    assert run("scan", str(corpus), "-r", str(path), "-j", "1") == 0
    assert path.read_bytes() == first
    assert not os.path.exists(f"{path}.lock")


def test_one_and_two_workers_give_the_same_registry(corpus, tmp_path):
    assert run("scan", str(corpus), "-r", str(tmp_path / "one.tsv"), "-j", "1") == 0
    assert run("scan", str(corpus), "-r", str(tmp_path / "two.tsv"), "-j", "2") == 0
    assert (tmp_path / "one.tsv").read_bytes() == (tmp_path / "two.tsv").read_bytes()


def test_a_rescan_keeps_validated_entries(corpus, tmp_path):
    path = tmp_path / "reg.tsv"
    scan([str(corpus)], str(path), jobs=1)
    assert run("registry", "validate", TYPE3_KEY, "✓", "-r", str(path)) == 0
    assert run("registry", "validate", SYMBOL_KEY, "·", "-r", str(path)) == 0  # overrides the proposal
    validated = path.read_bytes()
    scan([str(corpus)], str(path), jobs=1)
    assert path.read_bytes() == validated
    reg = read_registry(path)
    assert (reg.entries[SYMBOL_KEY].mapping, reg.entries[SYMBOL_KEY].source) == ("·", "person")


def test_a_damaged_file_is_reported_and_the_registry_still_written(corpus, tmp_path, capsys):
    folder = tmp_path / "in"
    shutil.copytree(corpus, folder)
    (folder / "damaged.pdf").write_bytes(DAMAGED)
    path = tmp_path / "reg.tsv"
    assert run("scan", str(folder), "-r", str(path), "-j", "1") == 1
    err = capsys.readouterr().err
    (line,) = [ln for ln in err.splitlines() if "damaged.pdf" in ln]
    assert line.startswith(f"glyphweave: {folder / 'damaged.pdf'}: ")
    assert json.loads(err.strip().splitlines()[-1])["summary"]["failed"] == 1
    assert set(read_registry(path).entries) == {TYPE3_KEY, SYMBOL_KEY, star_key(read_registry(path))}


def test_two_concurrent_scans_into_one_registry_lose_nothing(corpus, tmp_path):
    one, two = tmp_path / "one", tmp_path / "two"
    one.mkdir()
    two.mkdir()
    shutil.copy(corpus / "type3.pdf", one)
    shutil.copy(corpus / "symbol.pdf", one)
    shutil.copy(corpus / "star0.pdf", two)
    shutil.copy(corpus / "sub" / "star1.pdf", two)
    expected = set()
    for folder in (one, two):
        scan([str(folder)], str(tmp_path / f"{folder.name}.tsv"), jobs=1)
        expected |= set(read_registry(tmp_path / f"{folder.name}.tsv").entries)
    assert len(expected) == 3
    for round_ in range(3):
        path = tmp_path / f"shared{round_}.tsv"
        argv = [sys.executable, "-m", "glyphweave.cli", "scan", "-r", str(path), "-j", "1"]
        processes = [subprocess.Popen([*argv, str(folder)], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
                     for folder in (one, two)]
        for process in processes:
            _, err = process.communicate(timeout=300)
            assert process.returncode == 0, err.decode()
        assert set(read_registry(path).entries) == expected
        assert not os.path.exists(f"{path}.lock")


# -- the sheet and validation ----------------------------------------------------------------


def test_sheet_exits_3_until_every_key_is_validated(corpus, tmp_path, capsys):
    path = tmp_path / "reg.tsv"
    scan([str(corpus)], str(path), jobs=1)
    sheet = tmp_path / "s.html"
    assert run("sheet", str(path), "-o", str(sheet)) == 3
    assert "2 unresolved entries" in capsys.readouterr().err
    page = sheet.read_text(encoding="utf-8")
    assert page.count('<article class="card status-unresolved"') == 2
    assert f'<path d="{STAR}"/>' in page
    for entry in read_registry(path).unresolved():
        assert run("registry", "validate", entry.key, "★", "-r", str(path)) == 0
    out = capsys.readouterr().out
    assert out.splitlines() == [f"{star_key(read_registry(path))}\t★\tvalidated", f"{TYPE3_KEY}\t★\tvalidated"]
    assert run("sheet", str(path), "-o", str(sheet)) == 0
    page = sheet.read_text(encoding="utf-8")
    assert '<article class="card status-unresolved"' not in page
    assert page.count('<article class="card status-validated"') == 2
    assert run("registry", "list", "-r", str(path), "--status", "validated") == 0
    assert len(capsys.readouterr().out.splitlines()) == 2


def test_validate_an_unknown_key_is_one_clean_line(corpus, tmp_path):
    path = tmp_path / "reg.tsv"
    scan([str(corpus)], str(path), jobs=1)
    before = path.read_bytes()
    done = cli("registry", "validate", "Nope/c:00", "x", "-r", str(path))
    assert done.returncode == 2  # a request the registry cannot carry out as given
    assert done.stderr.splitlines() == ["glyphweave: error: no entry 'Nope/c:00' in the registry"]
    assert done.stdout == "" and path.read_bytes() == before
    assert not os.path.exists(f"{path}.lock")


def test_sheet_of_a_bad_registry_names_the_line(tmp_path):
    bad = tmp_path / "bad.tsv"
    bad.write_text("hello\n", encoding="utf-8")
    done = cli("sheet", str(bad), "-o", str(tmp_path / "s.html"))
    assert done.returncode == 1 and len(done.stderr.splitlines()) == 1
    assert "bad.tsv:1: not a glyphweave glyph registry" in done.stderr
    assert not (tmp_path / "s.html").exists()


# -- done means: one mapping validated by hand changes extraction; repair ---------------------


def test_one_mapping_validated_by_hand_changes_the_extraction(corpus, tmp_path):
    path = tmp_path / "reg.tsv"
    assert run("scan", str(corpus), "-r", str(path), "-j", "1") == 0
    profile = tmp_path / "mine.toml"
    profile.write_text(f'[profile]\nextends = "registry"\n\n[options.glyph-map]\nregistry = "{path}"\n',
                       encoding="utf-8")
    pdf = corpus / "type3.pdf"
    before = extract_text(pdf, profile=str(profile))
    assert before == extract_text(pdf) == "Tick: done\n\f"
    assert run("registry", "validate", TYPE3_KEY, "✓", "-r", str(path)) == 0
    assert extract_text(pdf, profile=str(profile)) == "Tick: ✓ done\n\f"
    # the outline key: one validation answers for the star in both subsets, under both codes
    assert run("registry", "validate", star_key(read_registry(path)), "★", "-r", str(path)) == 0
    assert "Star: ★" in extract_text(corpus / "star0.pdf", profile=str(profile))
    assert "★ ★" in extract_text(corpus / "sub" / "star1.pdf", profile=str(profile))
    assert "★" not in extract_text(corpus / "star0.pdf")  # the default profile has no registry
    # a rescan of extraction through the registry: the validated glyphs are no longer unresolved,
    # and the registry keeps them as validated
    scan([str(corpus)], str(path), jobs=1, options=OpenOptions(profile=str(profile)))
    assert read_registry(path).unresolved() == []
    assert {e.status for e in read_registry(path)} == {"validated", "proposed"}


def test_repair_applies_a_validated_symbol_entry_to_extracted_text(corpus, tmp_path, capsys):
    path = tmp_path / "reg.tsv"
    scan([str(corpus)], str(path), jobs=1)
    out = tmp_path / "out"
    out.mkdir()
    text = "Item \uf0b7 one, item \uf0b7 two\n"  # what an older extractor left
    (out / "doc.txt").write_text(text, encoding="utf-8")
    (out / "other.txt").write_text("nothing to do\n", encoding="utf-8")

    # a proposed entry is not applied
    assert run("repair", str(out), "-r", str(path)) == 0
    assert json.loads(capsys.readouterr().err)["changed"] == []
    assert (out / "doc.txt").read_text(encoding="utf-8") == text

    assert run("registry", "validate", SYMBOL_KEY, "•", "-r", str(path)) == 0
    assert run("repair", str(out), "-r", str(path), "--dry-run") == 0
    report = json.loads(capsys.readouterr().err)
    assert report["dry_run"] is True and report["replacements"] == 2 and report["keys"] == {SYMBOL_KEY: 2}
    assert (out / "doc.txt").read_text(encoding="utf-8") == text
    assert sorted(os.listdir(out)) == ["doc.txt", "other.txt"]  # a dry run writes nothing

    assert run("repair", str(out), "-r", str(path)) == 0
    report = json.loads(capsys.readouterr().err)
    (changed,) = report["changed"]
    assert changed["path"] == str(out / "doc.txt") and changed["replacements"] == 2
    assert changed["keys"] == {SYMBOL_KEY: 2} and changed["backup"] == str(out / "doc.txt.bak")
    assert (out / "doc.txt").read_text(encoding="utf-8") == "Item • one, item • two\n"
    assert (out / "doc.txt.bak").read_text(encoding="utf-8") == text

    assert run("repair", str(out), "-r", str(path)) == 0  # a second run: no change
    report = json.loads(capsys.readouterr().err)
    assert report["changed"] == [] and report["replacements"] == 0
    assert sorted(os.listdir(out)) == ["doc.txt", "doc.txt.bak", "other.txt"]


# -- the shared corpus -----------------------------------------------------------------------

REAL = ["dupchars-french-medical-wingdings.pdf", "symbol-pua-word2016.pdf", "wingdings-pua-battery-datasheet.pdf",
        "wingdings-truetype-differences-ghostscript.pdf", "type3-custom-names-notounicode.pdf",
        "symbol-notounicode-miktex-french.pdf"]


@pytest.mark.skipif(not CORPUS.is_dir(), reason="the shared corpus (/work/shared/corpus) is not present")
def test_real_files_scan_twice_byte_identical_and_draw_a_sheet(tmp_path):
    files = [str(CORPUS / name) for name in REAL if (CORPUS / name).is_file()]
    if not files:
        pytest.skip("none of the chosen corpus files is present")
    path = tmp_path / "reg.tsv"
    assert run("scan", *files, "-r", str(path), "-j", "2") == 0
    first = path.read_bytes()
    assert run("scan", *files, "-r", str(path), "-j", "1") == 0
    assert path.read_bytes() == first
    reg = read_registry(path)
    assert len(reg) > 0
    assert all(MARK in e.context for e in reg if e.context)
    sheet = tmp_path / "sheet.html"
    status = run("sheet", str(path), "-o", str(sheet))
    assert status == (3 if reg.unresolved() else 0)
    page = sheet.read_text(encoding="utf-8")
    assert page.count("<article ") == len(reg)
    assert "<path d=" in page  # some glyphs are drawn from their outlines


def test_a_renumbered_symbol_subset_records_what_other_tools_print(tmp_path, capsys):
    """Word's SymbolMT subsets paint code 0x01 and map it to U+F0B7 in /ToUnicode: other tools
    print U+F0B7, which the code 0x01 does not predict. The scan records it as the entry's
    stand-in, and repair replaces it once the entry is validated."""
    pdf = tmp_path / "word.pdf"
    pdf.write_bytes(make_pdf(
        b"\n".join([text_at("Item", 72, 700, font="F1"), text_at(b"\x01", 100, 700, font="S"),
                    text_at("one", 110, 700, font="F1")]),
        fonts={"F1": helvetica(widths=True),
               "S": truetype(base_font="ABCDEF+SymbolMT", mapping={0x01: "\uf0b7"}, first_char=1, widths=[500])}))
    path = tmp_path / "reg.tsv"
    scan([str(pdf)], str(path), jobs=1)
    (entry,) = [e for e in read_registry(path) if e.code == "01"]
    assert (entry.mapping, entry.standin) == ("•", "\uf0b7")
    out = tmp_path / "out"
    out.mkdir()
    (out / "doc.txt").write_text("Item \uf0b7 one\n", encoding="utf-8")
    assert run("registry", "validate", entry.key, "•", "-r", str(path)) == 0
    assert run("repair", str(out), "-r", str(path)) == 0
    capsys.readouterr()
    assert (out / "doc.txt").read_text(encoding="utf-8") == "Item • one\n"


def test_a_glyph_the_scan_cannot_draw_says_why(tmp_path):
    """The registry's ``undrawn`` column: code 0x01 of the Type3 font has no glyph procedure
    (the sheet says so instead of a bare "no outline"); the drawn glyph has no reason."""
    from glyphweave.glyphmap.sheet import render_sheet

    pdf = tmp_path / "t.pdf"
    pdf.write_bytes(make_pdf(b"\n".join([text_at("Tick:", 72, 700, font="F1"), text_at(b"a\x01", 108, 700, font="F2")]),
                             fonts={"F1": helvetica(widths=True), "F2": type3(widths=(50,), names=["tick1"])}))
    report = scan([str(pdf)], str(tmp_path / "reg.tsv"), jobs=1)
    by_code = {e.code: e for e in report.registry}
    assert (by_code["61"].key, by_code["61"].undrawn) == (TYPE3_KEY, "")
    assert (by_code["01"].key, by_code["01"].undrawn, by_code["01"].svg) == ("Type3/c:01", "no such glyph", "")
    assert "(the font has no glyph for the code)" in render_sheet(read_registry(tmp_path / "reg.tsv"))
