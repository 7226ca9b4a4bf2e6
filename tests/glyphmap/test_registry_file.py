"""The glyph registry file: a sorted, escaped TSV; cumulative, idempotent merges that never
touch a validated entry; errors naming the file and line; a lock so two writers lose nothing."""

from __future__ import annotations

import multiprocessing
import os
import random
import stat
import time

import attrs
import pytest

from glyphweave.exits import EXIT_USAGE, exit_status
from glyphweave.glyphmap.registry import (
    COLUMNS,
    MAGIC,
    Entry,
    Registry,
    RegistryError,
    RegistryUsageError,
    locked,
    parse_registry,
    read_registry,
    update_registry,
    write_registry,
)

HEADER = MAGIC + "\n" + "\t".join(COLUMNS) + "\n"
ROW = "Wingdings/c:6c\tunresolved\t\t\t\tWingdings\t6c\t\t3\t1\tItem ⟦?⟧ one\t\t\t"  # a good row


def entry(key: str, status: str = "unresolved", mapping: str = "", **fields) -> Entry:
    family, _, rest = key.partition("/")
    code = rest[2:] if rest.startswith("c:") else "41"
    return Entry(key=key, status=status, mapping=mapping, family=family, code=code, **fields)


def registry(*entries: Entry) -> Registry:
    return Registry({e.key: e for e in entries})


SAMPLE = registry(
    entry("Wingdings/o:0123456789abcdef", count=12, files=3, context="Item ⟦?⟧ one", em=2048,
          svg="M0 0L500 0L500 700Z"),
    entry("Symbol/c:b7", "proposed", "•", source="symbol", count=4, files=2, context="a ⟦?⟧ b"),
    entry("Type3/c:61", "validated", "✓", source="person", count=1, files=1, context="Tick: ⟦?⟧ done"),
)


# -- the format ------------------------------------------------------------------------------


def test_round_trip():
    text = SAMPLE.text()
    parsed = parse_registry(text)
    assert parsed.entries == SAMPLE.entries
    assert parsed.text() == text
    lines = text.splitlines()
    assert lines[0] == MAGIC and lines[1] == "\t".join(COLUMNS)
    assert len(lines) == 2 + len(SAMPLE) and text.endswith("\n")


def test_file_round_trip(tmp_path):
    path = tmp_path / "reg.tsv"
    write_registry(path, SAMPLE)
    assert read_registry(path).entries == SAMPLE.entries
    assert path.read_bytes() == SAMPLE.text().encode("utf-8")


def test_a_missing_file_is_an_error_unless_the_caller_creates_it(tmp_path):
    missing = tmp_path / "missing.tsv"
    with pytest.raises(RegistryUsageError, match=r"missing\.tsv: no such registry file") as info:
        read_registry(missing)
    assert exit_status(info.value) == EXIT_USAGE
    assert read_registry(missing, missing_ok=True).entries == {}  # what the scan starts a new registry from
    update_registry(missing, [entry("New/c:01")])  # the scan may create it
    assert set(read_registry(missing).entries) == {"New/c:01"}


@pytest.mark.parametrize("kind", ["fifo", "device"])
def test_a_registry_that_is_no_regular_file_is_refused_without_waiting(tmp_path, kind):
    path = tmp_path / "reg.tsv"
    if kind == "fifo":
        os.mkfifo(path)
    elif os.geteuid() == 0:
        os.mknod(path, stat.S_IFCHR | 0o666, os.stat("/dev/null").st_rdev)
    else:
        pytest.skip("making a device node needs root")
    with pytest.raises(RegistryError, match=r"reg\.tsv: cannot read \(not a regular file"):
        read_registry(path)  # a FIFO would block this read for ever
    with pytest.raises(RegistryError, match="not a regular file"):
        update_registry(path, scanned())
    assert not stat.S_ISREG(os.lstat(path).st_mode)  # still what it was


def test_rows_are_sorted_and_byte_stable():
    entries = list(SAMPLE.entries.values())
    texts = set()
    for seed in range(5):
        random.Random(seed).shuffle(entries)
        texts.add(registry(*entries).text())
    (text,) = texts
    keys = [line.split("\t", 1)[0] for line in text.splitlines()[2:]]
    assert keys == sorted(keys) == ["Symbol/c:b7", "Type3/c:61", "Wingdings/o:0123456789abcdef"]


@pytest.mark.parametrize("context", ["a\tb", "line\nbreak", "back\\slash", "cr\rlf\r\n", "\\t literal", "\\"])
def test_text_fields_escape_tab_newline_and_backslash(context):
    reg = registry(entry("F/c:41", context=context, mapping="", source="x\ty"))
    text = reg.text()
    row = text.splitlines()[2]
    assert len(text.splitlines()) == 3 and len(row.split("\t")) == len(COLUMNS)
    assert parse_registry(text).entries["F/c:41"].context == context
    assert parse_registry(text).entries["F/c:41"].source == "x\ty"


def test_escapes_as_written():
    row = registry(entry("F/c:41", context="a\tb\nc\\d\re")).text().splitlines()[2]
    assert row.split("\t")[COLUMNS.index("context")] == "a\\tb\\nc\\\\d\\re"


@pytest.mark.parametrize("char", ["\x0c", "\x85", "\u2028"])
def test_other_line_breaks_in_a_field_round_trip(char):
    # A font name comes from the PDF: /BaseFont /Evil#85Font is a legal name.
    family = f"Evil{char}Font"
    reg = registry(Entry(key=f"{family}/c:01", status="unresolved", family=family, code="01"))
    assert parse_registry(reg.text()).entries == reg.entries


# -- merging ---------------------------------------------------------------------------------


def scanned() -> list[Entry]:
    """What a scan of some corpus found."""
    return [
        entry("Wingdings/o:0123456789abcdef", count=20, files=5, context="Other ⟦?⟧ text", svg="M1 1Z"),
        entry("Symbol/c:b7", "proposed", "∙", source="symbol", count=9, files=3, context="x ⟦?⟧ y"),
        entry("Type3/c:61", "proposed", "✗", source="rule", count=7, files=4, context="new ⟦?⟧ ctx"),
        entry("New/c:20", count=1, files=1, context="n ⟦?⟧"),
    ]


def test_merge_is_idempotent():
    once = SAMPLE.merge(scanned())
    twice = once.merge(scanned())
    assert twice.text() == once.text()
    assert Registry().merge(scanned()).merge(scanned()).text() == Registry().merge(scanned()).text()


def test_a_validated_entry_never_changes_on_merge():
    merged = SAMPLE.merge(scanned())
    before, after = SAMPLE.entries["Type3/c:61"], merged.entries["Type3/c:61"]
    assert (after.status, after.mapping, after.source) == ("validated", "✓", "person")
    assert (after.count, after.files) == (7, 4)  # the latest scan's counts
    assert after.context == before.context
    assert attrs.evolve(after, count=before.count, files=before.files) == before


def test_merge_updates_other_entries_and_keeps_their_drawing_and_context():
    merged = SAMPLE.merge(scanned())
    wing = merged.entries["Wingdings/o:0123456789abcdef"]
    assert (wing.count, wing.files) == (20, 5)
    assert wing.context == "Item ⟦?⟧ one" and wing.svg == "M0 0L500 0L500 700Z"  # the first kept
    sym = merged.entries["Symbol/c:b7"]
    assert (sym.status, sym.mapping, sym.count) == ("proposed", "∙", 9)  # a new proposal replaces the old
    assert "New/c:20" in merged.entries


def test_keys_the_scan_did_not_see_are_kept():
    merged = SAMPLE.merge([entry("New/c:20", count=1, files=1)])
    assert set(merged.entries) == {*SAMPLE.entries, "New/c:20"}
    for key, old in SAMPLE.entries.items():
        assert merged.entries[key] == old
    assert SAMPLE.merge([]).text() == SAMPLE.text()


def test_validate_by_hand():
    reg = registry(*SAMPLE.entries.values())
    done = reg.validate("Wingdings/o:0123456789abcdef", "☛")
    assert (done.status, done.mapping, done.source) == ("validated", "☛", "person")
    assert reg.unresolved() == []
    assert set(reg.validated()) == {"Wingdings/o:0123456789abcdef", "Type3/c:61"}
    with pytest.raises(RegistryError, match="no entry 'Nope/c:00'"):
        reg.validate("Nope/c:00", "x")
    with pytest.raises(RegistryError, match="needs a character"):
        reg.validate("Symbol/c:b7", "")
    for weak in ("\uf0b7", "\U00100000", "\ufffd", "\x00", "•\n"):
        with pytest.raises(RegistryUsageError, match="cannot validate"):
            reg.validate("Symbol/c:b7", weak)
    assert reg.entries["Symbol/c:b7"].status == "proposed"  # a refused answer changes nothing


# -- bad files -------------------------------------------------------------------------------

BAD_FILES = {
    "wrong magic": ("# some other file v1\n" + "\t".join(COLUMNS) + "\n" + ROW + "\n", 1,
                    "not a glyphweave glyph registry"),
    "empty": ("", 1, "not a glyphweave glyph registry"),
    "wrong header": (MAGIC + "\nkey\tstatus\tmapping\n" + ROW + "\n", 2, "the header must be the columns"),
    "wrong column count": (HEADER + ROW + "\n" + "Extra/c:01\tunresolved\t\n", 4, "3 columns, expected 14"),
    "bad status": (HEADER + ROW.replace("unresolved", "done") + "\n", 3, "status 'done' is not one of"),
    "validated without mapping": (HEADER + ROW.replace("unresolved", "validated") + "\n", 3,
                                  "a validated entry without a mapping"),
    "bad escape": (HEADER + ROW.replace("Item", "It\\qem") + "\n", 3, r"bad escape '\\q'"),
    "escape at the end": (HEADER + ROW + "\\\n", 3, "bad escape"),
    "duplicate key": (HEADER + ROW + "\n" + ROW + "\n", 4, "key 'Wingdings/c:6c' appears twice"),
    "non-integer count": (HEADER + ROW.replace("\t3\t1\t", "\tmany\t1\t") + "\n", 3,
                          "count, files and em must be whole numbers"),
    "non-integer files": (HEADER + ROW.replace("\t3\t1\t", "\t3\t1.5\t") + "\n", 3, "whole numbers"),
    "non-integer em": (HEADER + ROW.replace("one\t\t\t", "one\t\t2048.5\t") + "\n", 3, "whole numbers"),
    "negative em": (HEADER + ROW.replace("one\t\t\t", "one\t\t-1000\t") + "\n", 3, "is not a number of units per em"),
    "bad confidence": (HEADER + ROW.replace("unresolved\t\t\t\t", "proposed\tx\tshape\t1.5\t") + "\n", 3,
                       "confidence '1.5' is not a number from 0 to 1"),
    "bad reason": (HEADER + ROW.replace("one\t\t", "one\tlost\t") + "\n", 3, "undrawn 'lost' is not one of"),
}


def test_the_good_row_is_good():
    assert parse_registry(HEADER + ROW + "\n").entries["Wingdings/c:6c"].count == 3


@pytest.mark.parametrize("case", sorted(BAD_FILES))
def test_bad_files_name_the_file_and_line_and_are_left_untouched(tmp_path, case):
    text, line, message = BAD_FILES[case]
    path = tmp_path / "reg.tsv"
    path.write_text(text, encoding="utf-8")
    data = path.read_bytes()
    with pytest.raises(RegistryError, match=rf"reg\.tsv:{line}: .*{message}") as info:
        read_registry(path)
    assert str(path) in str(info.value)
    with pytest.raises(RegistryError, match=rf"reg\.tsv:{line}: "):
        update_registry(path, scanned())
    assert path.read_bytes() == data  # nothing of the file was lost
    assert not os.path.exists(f"{path}.lock")  # the lock was let go
    assert sorted(os.listdir(tmp_path)) == ["reg.tsv"]  # no temporary file left behind


def test_blank_lines_are_skipped_and_line_numbers_count_them():
    text = HEADER + "\n" + ROW + "\n\n" + "X/c:01\tunresolved\n"
    with pytest.raises(RegistryError, match=r"<registry>:6: 2 columns"):
        parse_registry(text)
    assert len(parse_registry(HEADER + "\n" + ROW + "\n\n")) == 1


def test_unreadable_file(tmp_path):
    with pytest.raises(RegistryError, match="cannot read"):
        read_registry(tmp_path)  # a folder


# -- writing and locking ---------------------------------------------------------------------


def test_update_is_cumulative_and_byte_stable(tmp_path):
    path = tmp_path / "reg.tsv"
    update_registry(path, scanned())
    first = path.read_bytes()
    update_registry(path, scanned())
    assert path.read_bytes() == first
    update_registry(path, [entry("Later/c:02", count=1, files=1)])
    assert set(read_registry(path).entries) == {e.key for e in scanned()} | {"Later/c:02"}


def _writer(path: str, worker: int, rounds: int) -> None:
    for n in range(rounds):
        key = f"W{worker}/c:{n:02x}"
        update_registry(path, [Entry(key=key, status="unresolved", family=f"W{worker}", code=f"{n:02x}",
                                     count=n + 1, files=1)])


def test_two_processes_writing_at_once_lose_nothing(tmp_path):
    path = str(tmp_path / "reg.tsv")
    context = multiprocessing.get_context("spawn")
    workers = [context.Process(target=_writer, args=(path, worker, 20)) for worker in (1, 2)]
    for process in workers:
        process.start()
    for process in workers:
        process.join(120)
        assert process.exitcode == 0
    reg = read_registry(path)
    assert set(reg.entries) == {f"W{w}/c:{n:02x}" for w in (1, 2) for n in range(20)}
    assert reg.entries["W2/c:13"].count == 20
    assert not os.path.exists(path + ".lock")


def test_the_lock_is_held_and_released(tmp_path):
    path = tmp_path / "reg.tsv"
    lock = tmp_path / "reg.tsv.lock"
    with locked(path):
        assert lock.read_text() == str(os.getpid())
    assert not lock.exists()
    with pytest.raises(ValueError), locked(path):
        raise ValueError
    assert not lock.exists()


def test_a_stale_lock_is_taken_over(tmp_path):
    path = tmp_path / "reg.tsv"
    lock = tmp_path / "reg.tsv.lock"
    lock.write_text("99999999")  # left by a killed scan
    old = time.time() - 7200
    os.utime(lock, (old, old))
    with locked(path, wait=30):  # a lock not taken over would time out, and raise
        assert lock.read_text() == str(os.getpid())
    assert not lock.exists()
    assert not list(tmp_path.glob("*.stale-*"))  # moved aside, then removed
    # update_registry (a stale age of an hour) takes over such a lock too
    lock.write_text("99999999")
    os.utime(lock, (old, old))
    update_registry(path, [entry("A/c:01")])
    assert set(read_registry(path).entries) == {"A/c:01"} and not lock.exists()


def test_a_fresh_lock_is_waited_for_then_reported(tmp_path):
    path = tmp_path / "reg.tsv"
    lock = tmp_path / "reg.tsv.lock"
    lock.write_text("1")
    started = time.monotonic()
    # Held by a live writer: the caller waits, and after ``wait`` seconds says who holds it.
    with pytest.raises(RegistryError, match="locked by another scan"), locked(path, wait=0.5):
        pass
    assert time.monotonic() - started >= 0.45
    assert lock.read_text() == "1"  # a fresh lock is never taken over


def test_version_2_files_are_read_with_no_em_and_written_as_the_current_version():
    v2 = ("# glyphweave glyph registry v2\n"
          "key\tstatus\tmapping\tsource\tconfidence\tfamily\tcode\tstandin\tcount\tfiles\tcontext\tsvg\n"
          "Cambria/o:ab\tproposed\te\tshape\t0.500\tCambria\t48\t\t9\t2\tth⟦?⟧ end\tM0 0L1 1Z\n")
    registry = parse_registry(v2)
    entry = registry.entries["Cambria/o:ab"]
    assert (entry.mapping, entry.confidence, entry.em, entry.svg) == ("e", 0.5, 0, "M0 0L1 1Z")
    assert registry.text().splitlines()[:2] == [MAGIC, "\t".join(COLUMNS)]
    assert parse_registry(registry.text()) == registry
    # a new scan of the same glyph gives the drawing its em; a scan without a drawing keeps both
    rescanned = registry.merge([attrs.evolve(entry, em=2048)])
    assert rescanned.entries["Cambria/o:ab"].em == 2048
    kept = rescanned.merge([attrs.evolve(entry, em=0, svg="")])
    assert (kept.entries["Cambria/o:ab"].em, kept.entries["Cambria/o:ab"].svg) == (2048, "M0 0L1 1Z")


def test_version_3_files_are_read_with_no_reason_for_a_missing_drawing():
    v3 = ("# glyphweave glyph registry v3\n"
          "key\tstatus\tmapping\tsource\tconfidence\tfamily\tcode\tstandin\tcount\tfiles\tcontext\tem\tsvg\n"
          "Arial/c:41\tunresolved\t\t\t\tArial\t41\t\t2\t1\tx⟦?⟧y\t\t\n")
    registry = parse_registry(v3)
    entry = registry.entries["Arial/c:41"]
    assert (entry.undrawn, entry.em, entry.svg) == ("", 0, "")
    assert registry.text().splitlines()[:2] == [MAGIC, "\t".join(COLUMNS)]
    # a new scan says why; a later scan that draws the glyph drops the reason
    told = registry.merge([attrs.evolve(entry, undrawn="not embedded")])
    assert told.entries["Arial/c:41"].undrawn == "not embedded"
    assert parse_registry(told.text()) == told
    drawn = told.merge([attrs.evolve(entry, svg="M0 0L1 1Z", em=1000)])
    assert drawn.entries["Arial/c:41"].undrawn == ""


def test_version_1_files_are_read_and_written_as_the_current_version(tmp_path):
    v1 = ("# glyphweave glyph registry v1\n"
          "key\tstatus\tmapping\tsource\tfamily\tcode\tcount\tfiles\tcontext\tsvg\n"
          "Wingdings/c:6c\tvalidated\t●\tperson\tWingdings\t6c\t3\t1\tItem ⟦?⟧ one\t\n")
    registry = parse_registry(v1)
    entry = registry.entries["Wingdings/c:6c"]
    assert (entry.mapping, entry.source, entry.confidence, entry.count) == ("●", "person", None, 3)
    assert registry.text().splitlines()[:2] == [MAGIC, "\t".join(COLUMNS)]
    assert parse_registry(registry.text()) == registry


def test_accept_validates_confident_shape_proposals_only():
    shape = dict(status="proposed", source="shape")
    reg = registry(
        entry("F/o:1", mapping="a", confidence=0.8, **shape),
        entry("F/o:2", mapping="b", confidence=0.2, **shape),
        entry("F/o:3", status="proposed", mapping="•", source="symbol"),  # a table's proposal: not a guess to accept
        entry("F/o:4", status="unresolved"),
        entry("F/o:5", mapping="\ue000", confidence=0.9, **shape),  # never a weak character
    )
    accepted = reg.accept(0.5)
    assert [e.key for e in accepted] == ["F/o:1"]
    assert reg.entries["F/o:1"].status == "validated" and reg.entries["F/o:1"].source == "shape"
    assert [e.status for e in reg] == ["validated", "proposed", "proposed", "unresolved", "proposed"]
    assert parse_registry(reg.text()).entries["F/o:1"].confidence == 0.8
