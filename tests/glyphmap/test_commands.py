"""The registry's commands keep faith (issue 25): a registry that is not there is an alarm,
not an empty registry; ``registry validate`` takes no weak answer; every file ``sheet``,
``registry validate`` and ``repair`` write goes through :mod:`glyphweave.files`, so a link, a
FIFO, a device and the input itself survive; ``repair`` keeps a batch manifest true."""

from __future__ import annotations

import hashlib
import json
import os
import stat
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from glyphweave.batch.task import FileResult
from glyphweave.cli import main
from glyphweave.files import TEMP_PREFIX
from glyphweave.glyphmap.clean import repair
from glyphweave.glyphmap.keys import make_key
from glyphweave.glyphmap.outline import outline_hash
from glyphweave.glyphmap.registry import Entry, Registry, read_registry, write_registry
from glyphweave.testing.pdfs import helvetica, make_pdf, text_at, type3

ROOT = os.geteuid() == 0 if hasattr(os, "geteuid") else False
needs_root = pytest.mark.skipif(not ROOT, reason="making a device node needs root")

TICK = Entry(key="Wingdings/c:fc", status="validated", mapping="✓", source="person", family="Wingdings",
             code="fc", count=2, files=1)
OPEN = Entry(key="Type3/c:61", status="unresolved", family="Type3", code="61", count=1, files=1)


@pytest.fixture
def reg(tmp_path: Path) -> Path:
    path = tmp_path / "reg.tsv"
    write_registry(path, Registry({e.key: e for e in (TICK, OPEN)}))
    return path


def cli(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "glyphweave.cli", *argv], capture_output=True, text=True,
                          timeout=120, check=False)


def make_device(path: Path) -> None:
    os.mknod(path, stat.S_IFCHR | 0o666, os.stat("/dev/null").st_rdev)


def is_null_device(path: Path) -> bool:
    status = os.lstat(path)
    return stat.S_ISCHR(status.st_mode) and status.st_rdev == os.stat("/dev/null").st_rdev


def read_fifo_while(fifo: Path, action) -> tuple[object, bytes]:
    """Run ``action()`` while a thread reads ``fifo``; its result and what the reader got."""
    received: list[bytes] = []
    reader = threading.Thread(target=lambda: received.append(fifo.read_bytes()), daemon=True)
    reader.start()
    result = action()
    reader.join(timeout=30)
    assert not reader.is_alive()
    return result, received[0]


def leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.rglob("*") if p.name.startswith(TEMP_PREFIX) or p.name.endswith(".lock"))


# -- 1. a missing registry is an error, except for the scan that creates it --------------------


def test_sheet_of_a_missing_registry_exits_2_naming_it(tmp_path):
    done = cli("sheet", str(tmp_path / "nosuch.tsv"), "-o", str(tmp_path / "s.html"))
    assert done.returncode == 2
    assert done.stderr.splitlines() == [
        f"glyphweave: error: {tmp_path / 'nosuch.tsv'}: no such registry file (glyphweave scan creates one; "
        "check the path)"]
    assert list(tmp_path.iterdir()) == []  # no sheet, no lock, nothing


@pytest.mark.parametrize("argv", [
    ["registry", "list", "-r", "{reg}"],
    ["registry", "validate", "Type3/c:61", "✓", "-r", "{reg}"],
    ["registry", "accept", "--min-confidence", "0.5", "-r", "{reg}"],
    ["registry", "import", "{txt}", "-r", "{reg}"],
    ["repair", "{txt}", "-r", "{reg}"],
], ids=["list", "validate", "accept", "import", "repair"])
def test_every_command_that_reads_a_registry_refuses_a_missing_one(tmp_path, capsys, argv):
    text = tmp_path / "out.txt"
    text.write_text("tick \uf0fc\n", encoding="utf-8")
    missing = tmp_path / "nosuch.tsv"
    args = [a.format(reg=missing, txt=text) for a in argv]
    assert main(args) == 2
    err = capsys.readouterr().err
    assert f"{missing}: no such registry file" in err and len(err.splitlines()) == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.txt"]  # no registry, lock or backup made
    assert text.read_text(encoding="utf-8") == "tick \uf0fc\n"


def test_scan_still_creates_a_new_registry(tmp_path):
    content = b"\n".join([text_at("Tick:", 72, 700, font="F1"), text_at(b"a", 108, 700, font="F2")])
    pdf = tmp_path / "t.pdf"
    pdf.write_bytes(make_pdf(content, fonts={"F1": helvetica(widths=True),
                                             "F2": type3(widths=(50,), names=["tick1"])}))
    path = tmp_path / "new" / "reg.tsv"
    path.parent.mkdir()
    assert main(["scan", str(pdf), "-r", str(path), "-j", "1", "--progress", "off"]) == 0
    assert set(read_registry(path).entries) == {make_key("Type3", "61", outline_hash("M0 0L500 0L500 500L0 500Z"))}


# -- 2. validate refuses weak answers --------------------------------------------------------

WEAK = {
    "private use": ("\ue000", "U+E000 is a Private Use Area character"),
    "private use, last": ("x\uf8ff", "U+F8FF is a Private Use Area character"),
    "supplementary private use": ("\U000f0041", "U+F0041 is a Private Use Area character"),
    "plane 16 private use": ("\U0010fffd", "U+10FFFD is a Private Use Area character"),
    "replacement character": ("\ufffd", "U+FFFD, the replacement character"),
    "control": ("\x07", "U+0007 is a control character"),
    "C1 control": ("a\x85", "U+0085 is a control character"),
    "tab": ("a\tb", "U+0009 is a control character"),
    "newline": ("\n", "U+000A is a control character"),
    "carriage return": ("x\r", "U+000D is a control character"),
    "lone surrogate": ("\udcff", "U+DCFF is a lone surrogate"),
    "empty": ("", "a validated entry needs a character"),
}


@pytest.mark.parametrize("case", sorted(WEAK))
def test_validate_refuses_a_weak_answer_and_writes_nothing(reg, tmp_path, capsys, case):
    text, message = WEAK[case]
    before = reg.read_bytes()
    assert main(["registry", "validate", "Type3/c:61", text, "-r", str(reg)]) == 2
    captured = capsys.readouterr()
    assert message in captured.err and len(captured.err.splitlines()) == 1 and captured.out == ""
    assert reg.read_bytes() == before
    assert leftovers(tmp_path) == []


def test_validate_takes_a_good_answer(reg, capsys):
    assert main(["registry", "validate", "Type3/c:61", "✓\u0301", "-r", str(reg)]) == 0
    assert read_registry(reg).entries["Type3/c:61"].mapping == "✓\u0301"


# -- 5. the registry TSV -------------------------------------------------------------------


def test_validate_through_a_symlink_replaces_the_target_and_keeps_the_link(reg, tmp_path, capsys):
    link = tmp_path / "link.tsv"
    link.symlink_to(reg.name)
    reg.chmod(0o640)
    assert main(["registry", "validate", "Type3/c:61", "✓", "-r", str(link)]) == 0
    assert link.is_symlink() and os.readlink(link) == reg.name
    assert read_registry(reg).entries["Type3/c:61"].status == "validated"
    assert stat.S_IMODE(reg.stat().st_mode) == 0o640
    assert leftovers(tmp_path) == []


@pytest.mark.parametrize("kind", ["fifo", pytest.param("device", marks=needs_root)])
def test_a_registry_that_is_a_fifo_or_device_is_refused_and_survives(tmp_path, capsys, kind):
    path = tmp_path / "reg.tsv"
    if kind == "fifo":
        os.mkfifo(path)
    else:
        make_device(path)
    for argv in (["registry", "validate", "K/c:01", "x", "-r", str(path)], ["registry", "list", "-r", str(path)],
                 ["sheet", str(path), "-o", str(tmp_path / "s.html")]):
        assert main(argv) == 1  # at once: a FIFO is never opened for reading
        assert "cannot read (not a regular file" in capsys.readouterr().err
    assert stat.S_ISFIFO(os.lstat(path).st_mode) if kind == "fifo" else is_null_device(path)
    assert leftovers(tmp_path) == [] and not (tmp_path / "s.html").exists()


# -- 5. the sheet's HTML -------------------------------------------------------------------


def test_sheet_onto_its_own_registry_is_refused(reg, tmp_path):
    before = reg.read_bytes()
    alias = tmp_path / "alias.tsv"
    alias.symlink_to(reg)
    os.link(reg, tmp_path / "hard.tsv")
    for output in (reg, alias, tmp_path / "hard.tsv", tmp_path / "." / "reg.tsv"):
        done = cli("sheet", str(reg), "-o", str(output))
        assert done.returncode == 2
        assert "this is the input file" in done.stderr and len(done.stderr.splitlines()) == 1
    assert reg.read_bytes() == before and alias.is_symlink()
    assert leftovers(tmp_path) == []


def test_sheet_through_a_symlink_replaces_the_target(reg, tmp_path, capsys):
    target = tmp_path / "real.html"
    target.write_text("old", encoding="utf-8")
    link = tmp_path / "sheet.html"
    link.symlink_to(target)
    assert main(["sheet", str(reg), "-o", str(link)]) == 3  # one entry unresolved
    assert link.is_symlink()
    assert target.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")


def test_sheet_into_a_fifo_writes_through_it(reg, tmp_path, capsys):
    fifo = tmp_path / "sheet.html"
    os.mkfifo(fifo)
    status, received = read_fifo_while(fifo, lambda: main(["sheet", str(reg), "-o", str(fifo)]))
    assert status == 3 and received.startswith(b"<!DOCTYPE html>")
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)


@needs_root
def test_sheet_into_a_device_writes_in_place(reg, tmp_path, capsys):
    device = tmp_path / "null"
    make_device(device)
    assert main(["sheet", str(reg), "-o", str(device)]) == 3
    assert is_null_device(device)
    assert leftovers(tmp_path) == []


# -- 5. repaired files and their backups -----------------------------------------------------


def test_repair_through_a_symlink_rewrites_the_target_and_keeps_the_link(reg, tmp_path, capsys):
    target = tmp_path / "real.txt"
    target.write_bytes("tick \uf0fc\n".encode())
    target.chmod(0o640)
    link = tmp_path / "link.txt"
    link.symlink_to(target.name)
    assert main(["repair", str(link), "-r", str(reg)]) == 0
    assert link.is_symlink() and target.read_text(encoding="utf-8") == "tick ✓\n"
    assert stat.S_IMODE(target.stat().st_mode) == 0o640
    assert (tmp_path / "link.txt.bak").read_text(encoding="utf-8") == "tick \uf0fc\n"
    assert stat.S_IMODE((tmp_path / "link.txt.bak").stat().st_mode) == 0o640
    assert leftovers(tmp_path) == []


@pytest.mark.parametrize("kind", ["fifo", pytest.param("device", marks=needs_root)])
def test_repair_refuses_a_fifo_or_device_at_once(reg, tmp_path, capsys, kind):
    path = tmp_path / "out.txt"
    if kind == "fifo":
        os.mkfifo(path)
    else:
        make_device(path)
    assert main(["repair", str(path), "-r", str(reg)]) == 1  # reading a FIFO would wait for ever
    assert f"{path}: not a regular file" in capsys.readouterr().err
    assert stat.S_ISFIFO(os.lstat(path).st_mode) if kind == "fifo" else is_null_device(path)
    assert not (tmp_path / "out.txt.bak").exists()


def test_repair_never_rewrites_its_registry(tmp_path, capsys):
    path = tmp_path / "reg.tsv"
    write_registry(path, Registry({TICK.key: TICK, "X/c:01": Entry(key="X/c:01", status="unresolved",
                                                                   context="a \uf0fc b")}))
    before = path.read_bytes()
    assert main(["repair", str(path), "-r", str(path)]) == 1
    assert "it is an input of this command (the registry)" in capsys.readouterr().err
    assert path.read_bytes() == before and sorted(p.name for p in tmp_path.iterdir()) == ["reg.tsv"]


@pytest.mark.parametrize("kind", ["file", "symlink", "fifo", pytest.param("device", marks=needs_root)])
def test_a_backup_name_that_is_taken_is_never_touched(reg, tmp_path, capsys, kind):
    text = tmp_path / "t.txt"
    text.write_text("\uf0fc", encoding="utf-8")
    taken = tmp_path / "t.txt.bak"
    elsewhere = tmp_path / "elsewhere"
    elsewhere.write_text("keep me", encoding="utf-8")
    {"file": lambda: taken.write_text("older", encoding="utf-8"), "symlink": lambda: taken.symlink_to(elsewhere),
     "fifo": lambda: os.mkfifo(taken), "device": lambda: make_device(taken)}[kind]()
    assert main(["repair", str(text), "-r", str(reg)]) == 0
    assert text.read_text(encoding="utf-8") == "✓"
    assert (tmp_path / "t.txt.bak.1").read_text(encoding="utf-8") == "\uf0fc"
    assert elsewhere.read_text(encoding="utf-8") == "keep me"
    mode = os.lstat(taken).st_mode
    assert {"file": stat.S_ISREG, "symlink": stat.S_ISLNK, "fifo": stat.S_ISFIFO, "device": stat.S_ISCHR}[kind](mode)
    if kind == "file":
        assert taken.read_text(encoding="utf-8") == "older"


# -- 4. batch manifests stay true ------------------------------------------------------------


def sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


@pytest.fixture
def batch_folder(tmp_path: Path) -> Path:
    """A batch's output folder as ``glyphweave batch out ...`` leaves it (outputs named
    relative to where it ran), with outputs another tool wrote with U+F0FC stand-ins."""
    out = tmp_path / "out"
    (out / "sub").mkdir(parents=True)
    outputs = {
        "a.txt": "tick \uf0fc\n",
        "sub/b.pages.jsonl": json.dumps({"page": 1, "text": "tick \uf0fc"}, ensure_ascii=False) + "\n",
        "c.txt": "nothing to repair\n",
    }
    lines = []
    for name, text in outputs.items():
        (out / name).write_text(text, encoding="utf-8")
        lines.append(FileResult(file=f"pdfs/{name.split('.')[0]}.pdf", status="ok", pages=1,
                                output=f"out/{name}", sha256=sha(text.encode())).to_dict())
    lines.append(FileResult(file="pdfs/\uf0fc-odd name.pdf", status="failed", error="cannot open", exit_status=4)
                 .to_dict())
    text = "".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines) + "not json, kept\n"
    (out / "manifest.jsonl").write_text(text, encoding="utf-8")
    return out


def manifest_hashes(out: Path) -> dict[str, str | None]:
    found = {}
    for line in (out / "manifest.jsonl").read_text(encoding="utf-8").splitlines():
        if line.startswith("{"):
            entry = json.loads(line)
            found[entry["output"] or entry["file"]] = entry["sha256"]
    return found


def test_repair_updates_the_hashes_of_a_batch_manifest(batch_folder, reg, capsys):
    out = batch_folder
    before = (out / "manifest.jsonl").read_text(encoding="utf-8").splitlines(keepends=True)
    assert main(["repair", str(out), "-r", str(reg)]) == 0
    report = json.loads(capsys.readouterr().err.splitlines()[0])
    assert [os.path.basename(f["path"]) for f in report["changed"]] == ["a.txt", "b.pages.jsonl"]
    assert report["manifests"] == [{"path": str(out / "manifest.jsonl"), "updated": 2}]
    hashes = manifest_hashes(out)
    for name in ("a.txt", "sub/b.pages.jsonl", "c.txt"):
        assert hashes[f"out/{name}"] == sha((out / name).read_bytes()), name
    after = (out / "manifest.jsonl").read_text(encoding="utf-8").splitlines(keepends=True)
    assert [i for i, (old, new) in enumerate(zip(before, after, strict=True)) if old != new] == [0, 1]
    assert after[3:] == before[3:]  # the failed file's stand-in is a name, not text: left alone
    assert json.loads(after[0]) == {**json.loads(before[0]), "sha256": hashes["out/a.txt"]}  # field order kept
    assert list(json.loads(after[0])) == list(json.loads(before[0]))
    snapshot = {p: p.read_bytes() for p in out.rglob("*") if p.is_file()}
    assert main(["repair", str(out), "-r", str(reg)]) == 0  # a second run changes nothing
    assert {p: p.read_bytes() for p in out.rglob("*") if p.is_file()} == snapshot


def test_repair_of_one_output_updates_its_manifest_line(batch_folder, reg, capsys):
    report = repair([str(batch_folder / "sub" / "b.pages.jsonl")], read_registry(reg))
    assert [m.updated for m in report.manifests] == [1]
    assert manifest_hashes(batch_folder)["out/sub/b.pages.jsonl"] == sha(
        (batch_folder / "sub" / "b.pages.jsonl").read_bytes())
    assert manifest_hashes(batch_folder)["out/a.txt"] == sha("tick \uf0fc\n".encode())  # not repaired: kept


def test_a_dry_run_counts_the_manifest_lines_and_writes_nothing(batch_folder, reg):
    snapshot = {p: p.read_bytes() for p in batch_folder.rglob("*") if p.is_file()}
    report = repair([str(batch_folder)], read_registry(reg), dry_run=True)
    assert [(m.path, m.updated) for m in report.manifests] == [(str(batch_folder / "manifest.jsonl"), 2)]
    assert {p: p.read_bytes() for p in batch_folder.rglob("*") if p.is_file()} == snapshot


def test_a_manifest_line_of_other_content_is_left_alone(batch_folder, reg):
    (batch_folder / "a.txt").write_text("edited since: \uf0fc\n", encoding="utf-8")  # no longer the batch's output
    report = repair([str(batch_folder)], read_registry(reg))
    assert [m.updated for m in report.manifests] == [1]  # b only
    assert manifest_hashes(batch_folder)["out/a.txt"] == sha("tick \uf0fc\n".encode())


def test_a_manifest_named_on_its_own_is_not_repaired(batch_folder, reg, capsys):
    before = (batch_folder / "manifest.jsonl").read_bytes()
    assert main(["repair", str(batch_folder / "manifest.jsonl"), "-r", str(reg)]) == 1
    assert "a batch manifest, not extracted text" in capsys.readouterr().err
    assert (batch_folder / "manifest.jsonl").read_bytes() == before


def test_scan_refuses_a_registry_that_is_one_of_its_inputs(tmp_path, capsys):
    pdf = tmp_path / "t.pdf"
    pdf.write_bytes(make_pdf(text_at("Hello", 72, 700, font="F1"), fonts={"F1": helvetica(widths=True)}))
    listing = tmp_path / "list.txt"
    listing.write_text("t.pdf\n", encoding="utf-8")
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    for argv in ([str(pdf), "-r", str(pdf)], [f"@{listing}", "-r", str(listing)]):
        assert main(["scan", *argv, "-j", "1", "--progress", "off"]) == 2
        assert "this is the input file" in capsys.readouterr().err
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == before


def test_a_manifest_line_holding_a_line_separator_is_updated_whole(tmp_path, reg):
    out = tmp_path / "out"
    out.mkdir()
    (out / "a.txt").write_text("tick \uf0fc\n", encoding="utf-8")
    line = FileResult(file="pdfs/a\u2028b.pdf", status="ok", output="out/a.txt",
                      sha256=sha("tick \uf0fc\n".encode())).to_dict()
    (out / "manifest.jsonl").write_text(json.dumps(line, ensure_ascii=False) + "\n", encoding="utf-8")
    report = repair([str(out)], read_registry(reg))
    assert [m.updated for m in report.manifests] == [1]
    (written,) = (out / "manifest.jsonl").read_text(encoding="utf-8").split("\n")[:-1]
    assert json.loads(written) == {**line, "sha256": sha((out / "a.txt").read_bytes())}
