"""glyphweave.files: what each kind of output path gets, and that nothing is destroyed."""

from __future__ import annotations

import os
import stat
import threading
from pathlib import Path

import pytest

from glyphweave.core.errors import UsageError
from glyphweave.files import TEMP_PREFIX, replacing, write_bytes, write_text


def _leftovers(folder: Path) -> list[str]:
    return [p.name for p in folder.iterdir() if p.name.startswith(TEMP_PREFIX)]


def test_a_new_file_gets_the_mode_open_would_give_and_the_umask_is_untouched(tmp_path: Path) -> None:
    old = os.umask(0o027)
    try:
        write_text(tmp_path / "new.txt", "hello")
        assert os.umask(0o027) == 0o027  # nobody changed it behind our back
    finally:
        os.umask(old)
    assert (tmp_path / "new.txt").read_text() == "hello"
    assert stat.S_IMODE((tmp_path / "new.txt").stat().st_mode) == 0o640


def test_a_regular_file_is_replaced_keeping_its_permissions(tmp_path: Path) -> None:
    out = tmp_path / "out.txt"
    out.write_text("old")
    out.chmod(0o600)
    write_text(out, "new")
    assert out.read_text() == "new"
    assert stat.S_IMODE(out.stat().st_mode) == 0o600
    assert _leftovers(tmp_path) == []


def test_a_failed_write_leaves_the_old_file_and_no_temporary(tmp_path: Path) -> None:
    out = tmp_path / "out.txt"
    out.write_text("precious")
    with pytest.raises(RuntimeError), replacing(out) as stream:
        stream.write("half")
        raise RuntimeError("the extraction failed")
    assert out.read_text() == "precious"
    assert _leftovers(tmp_path) == []


def test_a_symlink_stays_a_link_and_its_target_is_replaced(tmp_path: Path) -> None:
    target = tmp_path / "real.txt"
    target.write_text("old")
    target.chmod(0o640)
    link = tmp_path / "link.txt"
    link.symlink_to(target)
    write_text(link, "new")
    assert link.is_symlink()
    assert target.read_text() == "new"
    assert stat.S_IMODE(target.stat().st_mode) == 0o640


def test_a_dangling_symlink_creates_its_target(tmp_path: Path) -> None:
    link = tmp_path / "link.txt"
    link.symlink_to(tmp_path / "missing.txt")
    write_text(link, "made")
    assert link.is_symlink()
    assert (tmp_path / "missing.txt").read_text() == "made"


def test_a_fifo_is_written_in_place(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    received: list[bytes] = []
    reader = threading.Thread(target=lambda: received.append(fifo.read_bytes()), daemon=True)
    reader.start()
    write_text(fifo, "through the pipe")
    reader.join(timeout=10)
    assert received == [b"through the pipe"]
    assert stat.S_ISFIFO(fifo.stat().st_mode)  # still a FIFO, not a regular file in its place


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="making a device node needs root")
def test_a_character_device_is_written_in_place(tmp_path: Path) -> None:
    null = os.stat("/dev/null")
    device = tmp_path / "null"
    os.mknod(device, stat.S_IFCHR | 0o666, null.st_rdev)
    write_text(device, "into the void")
    after = device.stat()
    assert stat.S_ISCHR(after.st_mode) and after.st_rdev == null.st_rdev
    assert _leftovers(tmp_path) == []


def test_the_input_file_is_refused_by_any_name(tmp_path: Path) -> None:
    pdf = tmp_path / "in.pdf"
    pdf.write_bytes(b"%PDF-1.4 precious")
    (tmp_path / "alias.pdf").symlink_to(pdf)
    os.link(pdf, tmp_path / "hard.pdf")
    for name in (pdf, tmp_path / "alias.pdf", tmp_path / "hard.pdf", tmp_path / "." / "in.pdf"):
        with pytest.raises(UsageError, match="input file"):
            write_text(name, "text", inputs=[pdf])
    assert pdf.read_bytes() == b"%PDF-1.4 precious"


def test_a_folder_is_refused(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match="folder"):
        write_bytes(tmp_path, b"x")


def test_a_missing_folder_names_the_folder_not_a_temporary(tmp_path: Path) -> None:
    with pytest.raises(OSError) as caught:
        write_text(tmp_path / "nowhere" / "out.txt", "x")
    assert caught.value.filename == str(tmp_path / "nowhere")
