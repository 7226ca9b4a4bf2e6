"""``clean(text, registry)`` and ``repair``: the registry applied to extracted text."""

from __future__ import annotations

import json
import os

import pytest
from hypothesis import given
from hypothesis import strategies as st

from glyphweave.glyphmap import clean as clean_module
from glyphweave.glyphmap.clean import clean, repair, stand_ins, stand_ins_of
from glyphweave.glyphmap.registry import Entry, Registry


def registry(*entries: Entry) -> Registry:
    return Registry({e.key: e for e in entries})


def entry(key: str, code: str, mapping: str = "", status: str = "validated", family: str = "Wingdings") -> Entry:
    return Entry(key=key, status=status, mapping=mapping, family=family, code=code, source="person")


CHECK = entry("Wingdings/c:fc", "fc", "✓")
BULLET = entry("Wingdings/o:0123456789abcdef", "6c", "●")
PUA_CODE = entry("Custom/c:e001", "e001", "★", family="Custom")
PROPOSED = entry("Wingdings/c:6e", "6e", "■", status="proposed")
UNRESOLVED = entry("Wingdings/c:6f", "6f", "", status="unresolved")
REG = registry(CHECK, BULLET, PUA_CODE, PROPOSED, UNRESOLVED)


def test_stand_ins_of_codes():
    assert stand_ins_of("6c") == ["\uf06c"]
    assert stand_ins_of("e001") == ["\ue001"]
    assert stand_ins_of("0041") == []  # a two-byte code outside the PUA leaves no trace
    assert stand_ins_of("") == [] and stand_ins_of("zz") == []


def test_validated_entries_replace_their_stand_ins():
    text = "done \uf0fc item \uf06c one, star \ue001, proposed \uf06e, unresolved \uf06f, placeholder \ufffd"
    assert clean(text, REG) == "done ✓ item ● one, star ★, proposed \uf06e, unresolved \uf06f, placeholder \ufffd"


def registry_part(table: dict[int, str]) -> dict[int, str]:
    """A translation table without Adobe's Symbol code points (which every table holds)."""
    return {cp: text for cp, text in table.items() if chr(cp) not in clean_module.adobe_symbol_stand_ins()}


def test_the_translate_table_holds_validated_entries_only():
    subs = stand_ins(REG)
    assert registry_part(subs.table) == {0xF0FC: "✓", 0xF06C: "●", 0xE001: "★"}
    assert subs.keys["\uf06c"] == ("Wingdings/o:0123456789abcdef",)
    assert subs.ambiguous == {}


def test_the_table_is_built_once_per_registry_content():
    clean_module._stand_ins.cache_clear()
    clean("\uf0fc", REG)
    clean("\uf06c", REG)
    clean("x", registry(*REG.entries.values()))  # equal content: the same table
    assert clean_module._stand_ins.cache_info().misses == 1
    changed = registry(*REG.entries.values())
    changed.validate("Wingdings/c:6e", "▪")
    assert clean("\uf06e", changed) == "▪"  # a changed registry gets its own table
    assert clean_module._stand_ins.cache_info().misses == 2


def test_a_stand_in_two_entries_claim_differently_is_left_alone():
    both = registry(entry("Wingdings/c:6c", "6c", "●"), entry("Webdings/c:6c", "6c", "◆", family="Webdings"),
                    entry("Other/c:6c", "6c", "●", family="Other"), CHECK)
    assert clean("\uf06c \uf0fc", both) == "\uf06c ✓"
    assert stand_ins(both).ambiguous == {"\uf06c": ("Other/c:6c", "Webdings/c:6c", "Wingdings/c:6c")}
    agree = registry(entry("Wingdings/c:6c", "6c", "●"), entry("Other/c:6c", "6c", "●", family="Other"))
    assert clean("\uf06c", agree) == "●"
    assert stand_ins(agree).keys["\uf06c"] == ("Other/c:6c", "Wingdings/c:6c")


def test_a_weak_mapping_is_never_applied():
    weak = registry(entry("A/c:41", "41", "\uf0fc", family="A"), entry("B/c:42", "42", "\ufffd", family="B"))
    assert registry_part(stand_ins(weak).table) == {}
    assert clean("\uf041\uf042", weak) == "\uf041\uf042"


def test_adobe_symbol_code_points_are_read_with_no_entry():
    """pdftotext prints Adobe's Private Use code points for Symbol's sans ©, ® and ™ and its
    bracket pieces; they are replaced with no registry entry, and an entry claiming one wins."""
    text = "\uf8e9 1998 \uf8ea; \uf8ee a b \uf8f9 \uf8f0 c d \uf8fb"
    assert clean(text, Registry()) == "© 1998 ™; ⎡ a b ⎤ ⎣ c d ⎦"
    assert clean(clean(text, Registry()), Registry()) == clean(text, Registry())
    mine = registry(entry("Odd/c:e9", "f8e9", "★", family="Odd"))
    assert clean("\uf8e9 \uf8ea", mine) == "★ ™"


def test_clean_with_an_empty_registry_returns_the_text():
    text = "\uf06c text"
    assert clean(text, Registry()) is text


@given(st.text(alphabet=st.sampled_from(list("\uf0fc\uf06c\ue001\uf06e ab\ufffdØ6 m{}=μ‐")), max_size=30))
def test_clean_is_idempotent(text):
    for lookalikes in (False, True):
        once = clean(text, REG, lookalikes=lookalikes)
        assert clean(once, REG, lookalikes=lookalikes) == once


def test_lookalikes_are_opt_in():
    assert clean("Ø 6 mm \uf0fc", REG) == "Ø 6 mm ✓"
    assert clean("Ø 6 mm \uf0fc", REG, lookalikes=True) == "⌀ 6 mm ✓"


def test_a_validated_mapping_chosen_by_hand_goes_through_the_lookalike_rules():
    reg = registry(entry("Sym/c:c6", "c6", "Ø", family="Sym"))
    assert clean("bore \uf0c6 6 mm; S\uf0c6REN", reg, lookalikes=True) == "bore ⌀ 6 mm; SØREN"


# -- repair ---------------------------------------------------------------------------------


@pytest.fixture
def corpus(tmp_path):
    (tmp_path / "a.txt").write_text("list \uf06c one\n\uf06c two\r\nok \uf0fc\n", encoding="utf-8")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "b.txt").write_text("nothing to do\n", encoding="utf-8")
    records = [{"page": 1, "text": "tick \uf0fc"}, {"page": 2, "text": "plain"}]
    lines = [json.dumps(records[0], ensure_ascii=False), json.dumps(records[1]),
             json.dumps({"page": 3, "text": "quote \uf0fc"})]  # ASCII style: \u escapes
    (tmp_path / "sub" / "c.pages.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    (tmp_path / "sub" / "d.pdf").write_bytes(b"%PDF \xef\x81\xac")  # not a text file: not taken
    return tmp_path


def test_repair_rewrites_changed_files_after_a_backup(corpus):
    before = (corpus / "a.txt").read_bytes()
    report = repair([str(corpus)], REG)
    assert [os.path.relpath(f.path, corpus) for f in report.files] == ["a.txt", "sub/b.txt", "sub/c.pages.jsonl"]
    assert (corpus / "a.txt").read_bytes() == "list ● one\n● two\r\nok ✓\n".encode()  # line ends kept
    assert (corpus / "a.txt.bak").read_bytes() == before
    assert not (corpus / "sub" / "b.txt.bak").exists()
    changed = {os.path.relpath(f.path, corpus): f for f in report.changed}
    assert set(changed) == {"a.txt", "sub/c.pages.jsonl"}
    assert changed["a.txt"].replacements == 3
    assert changed["a.txt"].keys == {"Wingdings/c:fc": 1, "Wingdings/o:0123456789abcdef": 2}
    assert changed["a.txt"].backup == str(corpus / "a.txt.bak")
    assert report.replacements == 5
    assert report.keys == {"Wingdings/c:fc": 3, "Wingdings/o:0123456789abcdef": 2}
    assert report.failed == []
    summary = report.to_dict()
    assert summary["replacements"] == 5 and summary["files"] == 3 and len(summary["changed"]) == 2
    json.dumps(summary)


def test_repair_cleans_json_lines_value_by_value_in_their_style(corpus):
    repair([str(corpus)], REG)
    lines = (corpus / "sub" / "c.pages.jsonl").read_text(encoding="utf-8").splitlines()
    assert lines[0] == json.dumps({"page": 1, "text": "tick ✓"}, ensure_ascii=False)
    assert lines[1] == json.dumps({"page": 2, "text": "plain"})
    assert lines[2] == json.dumps({"page": 3, "text": "quote ✓"})  # still \u-escaped
    assert [json.loads(line)["text"] for line in lines] == ["tick ✓", "plain", "quote ✓"]


def test_a_replacement_that_json_must_escape_keeps_the_line_valid(tmp_path):
    path = tmp_path / "q.jsonl"
    path.write_text(json.dumps({"text": "say \uf022hi\uf022"}, ensure_ascii=False) + "\n", encoding="utf-8")
    repair([str(path)], registry(entry("Sym/c:22", "22", '"', family="Sym")))
    assert json.loads(path.read_text(encoding="utf-8")) == {"text": 'say "hi"'}


def test_a_second_repair_changes_nothing(corpus):
    first = repair([str(corpus)], REG)
    snapshot = {p: p.read_bytes() for p in corpus.rglob("*") if p.is_file()}
    second = repair([str(corpus)], REG)
    assert first.replacements == 5
    assert second.changed == [] and second.replacements == 0 and second.keys == {}
    assert {p: p.read_bytes() for p in corpus.rglob("*") if p.is_file()} == snapshot  # not even a backup


def test_dry_run_writes_nothing_and_reports_what_would_change(corpus):
    snapshot = {p: p.read_bytes() for p in corpus.rglob("*") if p.is_file()}
    report = repair([str(corpus)], REG, dry_run=True)
    assert {p: p.read_bytes() for p in corpus.rglob("*") if p.is_file()} == snapshot
    assert report.dry_run and report.replacements == 5 and len(report.changed) == 2
    assert all(f.backup is None for f in report.files)


def test_an_existing_backup_is_never_overwritten(tmp_path):
    path = tmp_path / "t.txt"
    (tmp_path / "t.txt.bak").write_text("older backup", encoding="utf-8")
    (tmp_path / "t.txt.bak.1").write_text("another", encoding="utf-8")
    path.write_text("\uf0fc", encoding="utf-8")
    report = repair([str(path)], REG)
    assert (tmp_path / "t.txt.bak").read_text(encoding="utf-8") == "older backup"
    assert (tmp_path / "t.txt.bak.1").read_text(encoding="utf-8") == "another"
    assert (tmp_path / "t.txt.bak.2").read_text(encoding="utf-8") == "\uf0fc"
    assert report.changed[0].backup == str(tmp_path / "t.txt.bak.2")
    path.write_text("\uf0fc again", encoding="utf-8")
    repair([str(path)], REG, backup_suffix=".orig")
    assert (tmp_path / "t.txt.orig").read_text(encoding="utf-8") == "\uf0fc again"


def test_bad_files_are_reported_and_the_others_repaired(tmp_path):
    (tmp_path / "latin1.txt").write_bytes(b"caf\xe9 \xef\x81\xbc")
    good = tmp_path / "good.txt"
    good.write_text("\uf0fc", encoding="utf-8")
    unreadable = tmp_path / "locked.txt"
    unreadable.write_text("\uf0fc", encoding="utf-8")
    unreadable.chmod(0)
    try:
        report = repair([str(tmp_path / "missing.txt"), str(tmp_path)], REG)
    finally:
        unreadable.chmod(0o644)
    errors = {os.path.basename(f.path): f.error for f in report.failed}
    assert errors["missing.txt"] == "no such file or folder"
    assert errors["latin1.txt"].startswith("not UTF-8 text (invalid continuation byte at byte 3)")
    if os.geteuid() != 0:  # root reads any file
        assert errors["locked.txt"].startswith("cannot read")
    assert good.read_text(encoding="utf-8") == "✓"
    assert (tmp_path / "latin1.txt").read_bytes() == b"caf\xe9 \xef\x81\xbc"
    assert {f["path"] for f in report.to_dict()["failed"]} >= {str(tmp_path / "missing.txt")}


def test_a_file_named_twice_is_repaired_once(tmp_path):
    path = tmp_path / "t.txt"
    path.write_text("\uf0fc", encoding="utf-8")
    report = repair([str(path), str(tmp_path), str(path)], REG)
    assert len(report.files) == 1 and report.replacements == 1
    assert not (tmp_path / "t.txt.bak.1").exists()


def test_repair_applies_lookalikes_when_asked(tmp_path):
    path = tmp_path / "t.txt"
    path.write_text("Ø 6 mm", encoding="utf-8")
    assert repair([str(path)], REG).changed == []
    report = repair([str(path)], REG, lookalikes=True)
    assert path.read_text(encoding="utf-8") == "⌀ 6 mm"
    assert report.keys == {"lookalike:diameter": 1}


def test_a_json_line_holding_a_line_separator_is_cleaned_as_one_value(tmp_path):
    # str.splitlines() would cut this line at U+2028 and clean its halves as text, putting a
    # bare '"' inside a JSON string
    path = tmp_path / "q.pages.jsonl"
    record = {"page": 1, "text": "say \uf022hi\uf022\u2028next \x85line"}
    path.write_text(json.dumps(record, ensure_ascii=False) + "\n", encoding="utf-8")
    report = repair([str(path)], registry(entry("Sym/c:22", "22", '"', family="Sym")))
    assert report.replacements == 2
    assert json.loads(path.read_text(encoding="utf-8")) == {"page": 1, "text": 'say "hi"\u2028next \x85line'}
