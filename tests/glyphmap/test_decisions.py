"""Decisions brought into a registry: the sheet's export file, or another registry's
validated entries, applied all or nothing by ``glyphweave registry import``."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from glyphweave.cli import main
from glyphweave.glyphmap.decisions import MAGIC, apply_decisions, parse_decisions, read_decisions
from glyphweave.glyphmap.registry import (
    Entry,
    Registry,
    RegistryError,
    RegistryUsageError,
    read_registry,
    write_registry,
)

HEADER = MAGIC + "\nkey\tmapping\n"


def make_registry() -> Registry:
    entries = [
        Entry(key="Cambria/o:aa", status="proposed", mapping="e", source="shape", confidence=0.7, family="Cambria",
              code="48", count=5281, files=1, em=2048, svg="M0 0L1 1Z"),
        Entry(key="Cambria/o:bb", status="unresolved", family="Cambria", code="2c", count=12, files=1),
        Entry(key="Symbol/c:b7", status="validated", mapping="•", source="person", family="Symbol", code="b7"),
    ]
    return Registry({e.key: e for e in entries})


def test_decisions_validate_entries_by_a_person() -> None:
    registry = make_registry()
    decisions = parse_decisions(HEADER + "Cambria/o:aa\te\nCambria/o:bb\tI\n\nSymbol/c:b7\t•\n", "d.tsv")
    report = apply_decisions(registry, decisions)
    assert [(e.key, e.mapping) for e in report.validated] == [("Cambria/o:aa", "e"), ("Cambria/o:bb", "I")]
    assert report.added == [] and report.unchanged == 1
    taken = registry.entries["Cambria/o:aa"]
    assert (taken.status, taken.source, taken.confidence, taken.count, taken.svg) == (
        "validated", "person", None, 5281, "M0 0L1 1Z")


def test_escapes_are_read_as_the_registry_writes_them() -> None:
    registry = Registry({"A\tB/c:01": Entry(key="A\tB/c:01", status="unresolved", family="A\tB", code="01")})
    apply_decisions(registry, parse_decisions(HEADER + "A\\tB/c:01\t\\\\\n"))
    assert registry.entries["A\tB/c:01"].mapping == "\\"


@pytest.mark.parametrize(("text", "message"), [
    ("Cambria/o:aa\te\nNope/o:00\tx\n", r"d\.tsv:4: no entry 'Nope/o:00' in the registry"),
    ("Cambria/o:aa\t\uf0b7\n", r"d\.tsv:3: cannot validate .* Private Use Area"),
    ("Cambria/o:aa\t\n", r"d\.tsv:3: a validated entry needs a character"),
])
def test_one_bad_decision_refuses_them_all(text: str, message: str) -> None:
    registry = make_registry()
    before = registry.text()
    with pytest.raises(RegistryUsageError, match=message):
        apply_decisions(registry, parse_decisions(HEADER + text, "d.tsv"))
    assert registry.text() == before


@pytest.mark.parametrize(("text", "message"), [
    ("", r"d\.tsv:1: neither a decisions file"),
    ("key\tmapping\nA/c:01\tx\n", r"d\.tsv:1: neither a decisions file"),
    (MAGIC + "\nkey\tchar\n", r"d\.tsv:2: the header must be the columns key, mapping"),
    (HEADER + "A/c:01\tx\ty\n", r"d\.tsv:3: 3 columns, expected 2"),
    (HEADER + "A/c:01\tx\\q\n", r"d\.tsv:3: bad escape"),
])
def test_bad_files_name_the_line(text: str, message: str) -> None:
    with pytest.raises(RegistryError, match=message):
        parse_decisions(text, "d.tsv")


def test_another_registry_brings_its_validated_entries(tmp_path: Path) -> None:
    other = Registry({
        "Cambria/o:bb": Entry(key="Cambria/o:bb", status="validated", mapping=",", source="shape", confidence=0.9,
                              family="Cambria", code="2c"),
        "Wingdings/o:cc": Entry(key="Wingdings/o:cc", status="validated", mapping="☛", source="person",
                                family="Wingdings", code="46", count=3, files=2, context="x ⟦?⟧", svg="M0 0Z"),
        "Wingdings/o:dd": Entry(key="Wingdings/o:dd", status="proposed", mapping="✓", source="shape",
                                confidence=0.2, family="Wingdings", code="fc"),
    })
    path = tmp_path / "theirs.tsv"
    write_registry(path, other)
    registry = make_registry()
    report = apply_decisions(registry, read_decisions(path))
    assert [e.key for e in report.validated] == ["Cambria/o:bb"] and [e.key for e in report.added] == ["Wingdings/o:cc"]
    assert registry.entries["Cambria/o:bb"].source == "shape"  # how it was validated travels with it
    assert registry.entries["Wingdings/o:cc"] == other.entries["Wingdings/o:cc"]
    assert "Wingdings/o:dd" not in registry.entries  # a proposal is no decision


def test_registry_import_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    reg = tmp_path / "reg.tsv"
    write_registry(reg, make_registry())
    decisions = tmp_path / "glyph-decisions.tsv"
    decisions.write_text(HEADER + "Cambria/o:bb\t,\n", encoding="utf-8")
    original = reg.read_bytes()
    assert main(["registry", "import", str(decisions), "-r", str(reg), "--dry-run"]) == 0
    assert reg.read_bytes() == original
    assert "would validate 1 entry, add 0; 0 already as decided" in capsys.readouterr().err
    assert main(["registry", "import", str(decisions), "-r", str(reg)]) == 0
    out, err = capsys.readouterr()
    assert (out, err) == ("Cambria/o:bb\t,\tvalidated\n", "glyphweave: validated 1 entry, added 0; 0 already as decided\n")
    assert read_registry(reg).entries["Cambria/o:bb"].mapping == ","
    assert main(["registry", "import", str(decisions), "-r", str(reg)]) == 0  # again: nothing to do
    assert "validated 0 entries, added 0; 1 already as decided" in capsys.readouterr().err


def test_registry_import_refuses_a_bad_file_and_writes_nothing(tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    reg = tmp_path / "reg.tsv"
    write_registry(reg, make_registry())
    original = reg.read_bytes()
    good, bad = tmp_path / "good.tsv", tmp_path / "bad.tsv"
    good.write_text(HEADER + "Cambria/o:bb\t,\n", encoding="utf-8")
    bad.write_text(HEADER + "Other/o:99\tx\n", encoding="utf-8")
    assert main(["registry", "import", str(good), str(bad), "-r", str(reg)]) == 2
    err = capsys.readouterr().err
    assert f"{bad}:3: no entry 'Other/o:99'" in err and "Traceback" not in err
    assert main(["registry", "import", str(tmp_path / "missing.tsv"), "-r", str(reg)]) == 2
    assert "no such decisions file" in capsys.readouterr().err
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    assert main(["registry", "import", str(fifo), "-r", str(reg)]) != 0  # refused, never waited on
    assert "not a regular file" in capsys.readouterr().err
    assert reg.read_bytes() == original
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.tsv", "fifo", "good.tsv", "reg.tsv"]
