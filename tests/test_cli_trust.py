"""The command line never destroys what it is pointed at, and every failure says what to do.

Each output kind (``extract`` as text and JSON lines, ``glyphs``) against each kind of path
that must survive ``-o``: the input file itself, a symlink, a FIFO and, as root, a device.
Then the input side (standard input bounded and checked), the messages and statuses a user
meets, and what the fast exit must still do.
"""

from __future__ import annotations

import gc
import os
import stat
import subprocess
import sys
import threading
from pathlib import Path

import pikepdf
import pytest

from glyphweave.cli import EXIT_ERROR, EXIT_UNREADABLE, EXIT_USAGE, _warning_lines, main
from glyphweave.guard.report import WarningRecord
from pdfs import Page, helvetica, make_pdf

PAGE1 = b"BT /F1 10 Tf 100 700 Td (Hello world) Tj ET"
PAGE2 = b"BT /F1 10 Tf 100 700 Td (Page two) Tj ET"

OUTPUT_KINDS = {
    "text": ["extract"],
    "jsonl": ["extract", "--format", "jsonl"],
    "glyphs": ["glyphs"],
}


@pytest.fixture()
def pdf(tmp_path: Path) -> Path:
    path = tmp_path / "two.pdf"
    path.write_bytes(make_pdf(PAGE1, extra_pages=[Page(PAGE2)]))
    return path


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    try:
        code = main(list(argv))
    except SystemExit as exited:  # argparse's own usage errors
        code = exited.code if isinstance(exited.code, int) else 1
    out, err = capsys.readouterr()
    return code, out, err


def _script(*argv: str, stdin: bytes | None = None, env: dict[str, str] | None = None,
            **kwargs: object) -> subprocess.CompletedProcess[bytes]:
    """The console script as a user runs it, in a process of its own."""
    return subprocess.run([sys.executable, "-m", "glyphweave.cli", *argv], capture_output=True, input=stdin,
                          timeout=120, check=False, env={**os.environ, **(env or {})}, **kwargs)  # type: ignore[call-overload]


# --------------------------------------------------------------------------- what -o must not destroy


@pytest.mark.parametrize("kind", OUTPUT_KINDS)
def test_the_input_file_survives_o(capsys: pytest.CaptureFixture[str], pdf: Path, tmp_path: Path, kind: str):
    before = pdf.read_bytes()
    (tmp_path / "alias.pdf").symlink_to(pdf)
    for target in (pdf, tmp_path / "alias.pdf", tmp_path / "." / pdf.name):
        code, out, err = _run(capsys, *OUTPUT_KINDS[kind], str(pdf), "-o", str(target))
        assert code == EXIT_USAGE and out == ""
        assert "this is the input file" in err and "Traceback" not in err
    assert pdf.read_bytes() == before


@pytest.mark.parametrize("kind", OUTPUT_KINDS)
def test_a_symlink_survives_o_and_its_target_gets_the_output(
        capsys: pytest.CaptureFixture[str], pdf: Path, tmp_path: Path, kind: str):
    target = tmp_path / "real.out"
    target.write_text("old")
    target.chmod(0o640)
    link = tmp_path / "link.out"
    link.symlink_to(target)
    code, _, _ = _run(capsys, *OUTPUT_KINDS[kind], str(pdf), "-o", str(link))
    assert code == 0
    assert link.is_symlink() and os.readlink(link) == str(target)
    assert "Page two" in target.read_text() or '"page": 2' in target.read_text()
    assert stat.S_IMODE(target.stat().st_mode) == 0o640


@pytest.mark.parametrize("kind", OUTPUT_KINDS)
def test_a_fifo_survives_o_and_its_reader_gets_the_output(
        capsys: pytest.CaptureFixture[str], pdf: Path, tmp_path: Path, kind: str):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    received: list[bytes] = []
    reader = threading.Thread(target=lambda: received.append(fifo.read_bytes()), daemon=True)
    reader.start()
    code, _, _ = _run(capsys, *OUTPUT_KINDS[kind], str(pdf), "-o", str(fifo))
    reader.join(timeout=30)
    assert code == 0
    assert received and (b"Page two" in received[0] or b'"page": 2' in received[0])
    assert stat.S_ISFIFO(fifo.stat().st_mode)


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="making a device node needs root")
@pytest.mark.parametrize("kind", OUTPUT_KINDS)
def test_a_device_survives_o(capsys: pytest.CaptureFixture[str], pdf: Path, tmp_path: Path, kind: str):
    null = os.stat("/dev/null")
    device = tmp_path / "null"
    os.mknod(device, stat.S_IFCHR | 0o666, null.st_rdev)
    code, _, _ = _run(capsys, *OUTPUT_KINDS[kind], str(pdf), "-o", str(device))
    assert code == 0
    after = device.stat()
    assert stat.S_ISCHR(after.st_mode) and after.st_rdev == null.st_rdev
    assert sorted(p.name for p in tmp_path.iterdir()) == ["null", "two.pdf"]  # no temporary left either


def test_o_into_a_missing_folder_is_one_line_naming_the_folder(
        capsys: pytest.CaptureFixture[str], pdf: Path, tmp_path: Path):
    code, _, err = _run(capsys, "extract", str(pdf), "-o", str(tmp_path / "nowhere" / "out.txt"))
    assert code == EXIT_ERROR
    assert err.count("\n") == 1 and str(tmp_path / "nowhere") in err and ".glyphweave" not in err


# --------------------------------------------------------------------------- input


def test_standard_input_is_bounded(pdf: Path):
    done = _script("extract", "-", "--max-input-mb", "1", stdin=pdf.read_bytes() + b"\n%" * 600_000)
    assert done.returncode == EXIT_UNREADABLE
    assert done.stderr.decode().strip() == ("glyphweave: error: standard input holds more than 1 MB: give the "
                                           "file's path instead, or raise --max-input-mb")
    assert _script("extract", "-", "--max-input-mb", "2", stdin=pdf.read_bytes()).returncode == 0


def test_empty_standard_input_says_so_without_a_python_repr():
    done = _script("extract", "-", stdin=b"")
    assert done.returncode == EXIT_UNREADABLE
    assert done.stderr.decode().strip() == "glyphweave: error: standard input is empty: no PDF to read"


# --------------------------------------------------------------------------- messages and statuses


@pytest.mark.parametrize(("option", "value"), [("--max-page-mb", "-1"), ("--max-page-mb", "0"),
                                               ("--page-seconds", "nan"), ("--max-input-mb", "x")])
def test_a_limit_out_of_range_is_a_usage_error_naming_the_option(
        capsys: pytest.CaptureFixture[str], pdf: Path, option: str, value: str):
    code, _, err = _run(capsys, "extract", str(pdf), option, value)
    assert code == EXIT_USAGE
    assert f"argument {option}: '{value}' is not a number of" in err and "page_content_mb" not in err


def test_an_unknown_mode_is_a_usage_error(capsys: pytest.CaptureFixture[str], pdf: Path):
    code, _, err = _run(capsys, "extract", str(pdf), "--mode", "readng")
    assert code == EXIT_USAGE
    assert "unknown assembler 'readng'" in err and "did you mean 'reading'" in err


def test_output_is_utf8_whatever_the_locale_and_encoding_replaces_what_it_cannot_write(tmp_path: Path):
    path = tmp_path / "dash.pdf"
    # \x97 is an em dash in WinAnsiEncoding: not in Latin-1.
    path.write_bytes(make_pdf(b"BT /F1 10 Tf 100 700 Td (a \x97 b) Tj ET",
                              fonts={"F1": helvetica(encoding="WinAnsiEncoding")}))
    done = _script("extract", str(path), env={"PYTHONIOENCODING": "latin-1"})
    assert (done.returncode, done.stdout) == (0, "a \u2014 b\n\f".encode())
    done = _script("extract", str(path), "--encoding", "latin-1")
    assert (done.returncode, done.stdout, done.stderr) == (0, b"a ? b\n\f", b"")
    out = tmp_path / "out.txt"
    assert _script("extract", str(path), "--encoding", "utf-16", "-o", str(out)).returncode == 0
    assert out.read_text(encoding="utf-16") == "a \u2014 b\n\f"


def test_a_password_from_a_file_and_no_library_warning_on_a_plain_file(pdf: Path, tmp_path: Path):
    secret = tmp_path / "secret.pdf"
    secret.write_bytes(make_pdf(PAGE2, encryption=pikepdf.Encryption(user="u", owner="o")))
    word = tmp_path / "word"
    word.write_text("u\n")
    done = _script("extract", str(secret), "--password-file", str(word))
    assert (done.returncode, done.stdout) == (0, b"Page two\n\f")
    done = _script("extract", str(pdf), "--password", "unneeded")
    assert (done.returncode, done.stderr) == (0, b"")  # pikepdf's UserWarning does not leak
    done = _script("extract", str(secret), "--password-file", str(tmp_path / "missing"))
    assert done.returncode != 0 and b"cannot read the password" in done.stderr and b"Traceback" not in done.stderr


def test_a_closed_standard_output_ends_in_one_line(pdf: Path):
    done = _script("extract", str(pdf), stdout=None, preexec_fn=lambda: os.close(1))  # noqa: PLW1509
    assert done.returncode == EXIT_ERROR
    assert done.stderr.decode().strip() == (
        "glyphweave: error: standard output is closed: nothing can be written (give -o FILE)")


def test_document_warnings_are_printed_once_each_and_quiet_silences_them(
        capsys: pytest.CaptureFixture[str], tmp_path: Path):
    from hostile.files import deflate_bomb

    bomb = tmp_path / "bomb.pdf"
    bomb.write_bytes(deflate_bomb(20))
    code, out, err = _run(capsys, "extract", str(bomb), "--max-page-mb", "2")
    assert code == 0 and "Before the bomb" in out
    assert err == ("glyphweave: warning: page 1: limit reached: page content cut after 1 MB: the page content "
                   "limit of 2 MB reached\n")
    code, out, err = _run(capsys, "extract", str(bomb), "--max-page-mb", "2", "--quiet")
    assert (code, err) == (0, "")
    code, _, err = _run(capsys, "extract", str(bomb), "--max-page-mb", "2", "--quiet", "--strict")
    assert code == 7 and err == "glyphweave: 1 warning(s) (--strict)\n"


def _record(message: str, page: int | None = None, source: str = "", kind: str = "content") -> WarningRecord:
    return WarningRecord(kind=kind, message=message, page=page, source=source)


def test_the_same_warning_on_many_pages_is_one_line_naming_them():
    lines = _warning_lines([
        _record("font /F1: unreadable", 2), _record("font /F1: unreadable", 3), _record("font /F1: unreadable", 3),
        _record("plugin x failed"), _record("plugin x failed"), _record("limit reached: too deep", 9, kind="limit"),
    ])
    assert lines == ["font /F1: unreadable (pages 2, 3) (3 times)", "plugin x failed (2 times)",
                     "page 9: limit reached: too deep"]
    many = _warning_lines([_record("same", n) for n in range(1, 21)])
    assert many == ["same (pages 1, 2, 3, 4, 5, 6, 7, 8, ... (20 pages))"]


def test_the_same_warning_of_several_fonts_is_one_line_naming_the_first():
    limit = "font program: limit reached: cmap subtable (3,10) format 12 declares 16,777,216 codes"
    lines = _warning_lines([_record(f"font ({n}, 0): {limit}", 1, f"font ({n}, 0)", "limit") for n in range(5, 13)]
                           + [_record("font (5, 0): damaged", 2, "font (5, 0)", "font")] * 2)
    assert lines == [f"page 1: font (5, 0) and 7 more fonts: {limit}", "page 2: font (5, 0): damaged (2 times)"]


# --------------------------------------------------------------------------- the fast exit


def test_the_fast_exit_still_runs_exit_handlers(pdf: Path, tmp_path: Path):
    marker = tmp_path / "handler-ran"
    (tmp_path / "atexit_plugin.py").write_text(
        "import atexit, logging\n"
        f"atexit.register(lambda: open({str(marker)!r}, 'w').write('ran'))\n"
        f"handler = logging.FileHandler({str(tmp_path / 'log.txt')!r}, delay=True)\n"
        "logging.getLogger('plugin').addHandler(handler)\n"
        "logging.getLogger('plugin').warning('flushed at exit')\n")
    done = _script("extract", str(pdf), "-p", "atexit_plugin", env={"PYTHONPATH": str(tmp_path)})
    assert done.returncode == 0, done.stderr
    assert marker.read_text() == "ran"
    assert (tmp_path / "log.txt").read_text() == "flushed at exit\n"


def test_a_host_s_frozen_objects_stay_frozen(capsys: pytest.CaptureFixture[str], pdf: Path):
    gc.freeze()
    try:
        frozen = gc.get_freeze_count()
        assert frozen > 0
        assert main(["extract", str(pdf)]) == 0
        # gc.unfreeze() would empty the permanent generation; a few of its objects may die.
        assert gc.get_freeze_count() > frozen // 2
    finally:
        gc.unfreeze()
    capsys.readouterr()


def test_a_failing_decoder_is_one_warning_line_not_one_per_list(
        capsys: pytest.CaptureFixture[str], pdf: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    (tmp_path / "failing_decoder.py").write_text(
        "import glyphweave\n"
        "from glyphweave.plugin import Decoder\n"
        "class Failing(Decoder):\n"
        "    NAME = 'failing'\n"
        "    def decode(self, font, code, cid):\n"
        "        raise ValueError('kaput')\n"
        "@glyphweave.hookimpl\n"
        "def glyphweave_register_decoders():\n"
        "    return [Failing]\n")
    profile = tmp_path / "failing.toml"
    profile.write_text('[profile]\nname = "failing"\nextends = "default"\n'
                       'decoders = ["failing", "tounicode", "encoding", "standard-fallback"]\n')
    monkeypatch.syspath_prepend(str(tmp_path))
    code, out, err = _run(capsys, "extract", str(pdf), "-p", "failing_decoder", "--profile", str(profile))
    assert code == 0 and "Hello world" in out  # the next decoder answered
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("glyphweave: warning: ") and "kaput" in lines[0], err


def test_the_command_line_names_the_option_the_library_message_leaves_out(
        capsys: pytest.CaptureFixture[str], tmp_path: Path):
    secret = tmp_path / "secret.pdf"
    secret.write_bytes(make_pdf(PAGE2, encryption=pikepdf.Encryption(user="u", owner="o")))
    code, _, err = _run(capsys, "extract", str(secret))
    assert code == 5 and err.strip().endswith("(give it with --password or --password-file)")
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    code, _, err = _run(capsys, "extract", str(fifo))
    assert code == EXIT_UNREADABLE
    assert err == f"glyphweave: error: {fifo}: is a FIFO, not a PDF file (to read from it, give '-' and redirect it)\n"
