"""The ``glyphweave`` command, run in-process: output, formats, files, and one-line errors."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pikepdf
import pytest

from glyphweave import api as document_module
from glyphweave.cli import EXIT_PASSWORD, EXIT_PLUGIN, EXIT_UNREADABLE, EXIT_USAGE, EXIT_WARNINGS, main
from glyphweave.core.errors import GlyphweaveError
from pdfs import Page, make_pdf

PAGE1 = b"BT /F1 10 Tf 100 700 Td (Hello world) Tj ET BT /F1 10 Tf 700 700 Td (off) Tj ET"
PAGE2 = b"BT /F1 10 Tf 100 700 Td (Page two) Tj ET"


@pytest.fixture()
def pdf(tmp_path: Path) -> Path:
    path = tmp_path / "two.pdf"
    path.write_bytes(make_pdf(PAGE1, extra_pages=[Page(PAGE2)]))
    return path


@pytest.fixture()
def secret(tmp_path: Path) -> Path:
    path = tmp_path / "secret.pdf"
    path.write_bytes(make_pdf(PAGE2, encryption=pikepdf.Encryption(user="u", owner="o")))
    return path


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """The exit status, standard output and error of the command, whether argparse ended it
    (a usage error it finds itself, ``SystemExit``) or :func:`main` returned."""
    try:
        code = main(list(argv))
    except SystemExit as exited:
        code = exited.code if isinstance(exited.code, int) else 1
    out, err = capsys.readouterr()
    return code, out, err


def one_error_line(err: str) -> str:
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("glyphweave: error:"), err
    assert "Traceback" not in err
    return lines[0]


def test_version_says_which_build_runs(capsys: pytest.CaptureFixture[str]):
    from glyphweave import __version__
    from glyphweave.accelerated import COMPILED, NATIVE, compiled_modules

    with pytest.raises(SystemExit) as exited:
        main(["--version"])
    assert exited.value.code == 0
    compiled = compiled_modules()
    native = sum(name in NATIVE for name in compiled)
    build = (f"compiled: {native} of {len(NATIVE)} C modules, {len(compiled) - native} of {len(COMPILED)} hot "
             "modules by mypyc" if compiled else "pure Python")
    assert capsys.readouterr().out == f"glyphweave {__version__} ({build})\n"


# --------------------------------------------------------------------------- the console script

def test_python_dash_m_runs_the_command(tmp_path: Path):
    pdf = tmp_path / "a.pdf"
    pdf.write_bytes(make_pdf(b"BT /F1 12 Tf 72 700 Td (Hello) Tj ET"))
    done = subprocess.run([sys.executable, "-m", "glyphweave", "extract", str(pdf)], capture_output=True,
                          text=True, timeout=120)
    assert (done.returncode, done.stdout, done.stderr) == (0, "Hello\n\f", "")
    shown = subprocess.run([sys.executable, "-m", "glyphweave", "--help"], capture_output=True, text=True,
                           timeout=120)
    assert shown.returncode == 0 and shown.stdout.startswith("usage: glyphweave ")



def _script(*argv: str, stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    """The command as a user runs it: a process of its own, through :func:`glyphweave.cli.run`."""
    return subprocess.run([sys.executable, "-m", "glyphweave.cli", *argv], capture_output=True, input=stdin,
                          timeout=120, check=False)


def test_script_writes_every_page_before_it_ends_without_teardown(pdf: Path, tmp_path: Path):
    # extract and glyphs end the process with os._exit: what they wrote must all be flushed.
    many = tmp_path / "many.pdf"
    many.write_bytes(make_pdf(PAGE1, extra_pages=[Page(b"BT /F1 10 Tf 100 700 Td (Page %d) Tj ET" % n)
                                                  for n in range(2, 400)]))
    done = _script("extract", str(many), "--jobs", "1")
    assert (done.returncode, done.stderr) == (0, b"")
    pages = done.stdout.decode().split("\f")
    assert pages[0] == "Hello world\n" and pages[-2] == "Page 399\n" and pages[-1] == ""
    assert len(pages) == 400
    glyphs = _script("glyphs", str(pdf))
    assert glyphs.returncode == 0
    assert [json.loads(line)["page"] for line in glyphs.stdout.splitlines()][-1] == 2


def test_script_reports_status_and_errors_as_main_does(pdf: Path, tmp_path: Path):
    bad = tmp_path / "bad.pdf"
    bad.write_bytes(b"not a pdf")
    done = _script("extract", str(bad))
    assert done.returncode == EXIT_UNREADABLE
    assert done.stdout == b"" and done.stderr.decode().startswith("glyphweave: error:")
    fontless = tmp_path / "fontless.pdf"
    fontless.write_bytes(make_pdf(b"BT 100 700 Td (no font) Tj ET"))
    warned = _script("extract", str(fontless), "--strict")  # the command returned: a quick exit
    assert warned.returncode == EXIT_WARNINGS and b"warning(s) (--strict)" in warned.stderr
    assert _script().returncode == 2  # no command: usage
    profiles = _script("profiles")  # not a quick-exit command: exits as usual
    assert profiles.returncode == 0 and b"default" in profiles.stdout


def test_script_output_to_a_file_is_complete(pdf: Path, tmp_path: Path):
    out = tmp_path / "out.txt"
    assert _script("extract", str(pdf), "-o", str(out)).returncode == 0
    assert out.read_text() == "Hello world\n\fPage two\n\f"


# --------------------------------------------------------------------------- extract


def test_extract_text(capsys: pytest.CaptureFixture[str], pdf: Path):
    code, out, err = run(capsys, "extract", str(pdf))
    assert (code, err) == (0, "")
    assert out == "Hello world\n\fPage two\n\f"


@pytest.mark.parametrize("command", ["extract", "glyphs"])
def test_the_console_script_closes_the_file_and_leaves_the_caches_to_the_exit(
        capsys: pytest.CaptureFixture[str], pdf: Path, monkeypatch: pytest.MonkeyPatch, command: str):
    # Its process ends with os._exit right after: freeing the measured strings one by one
    # would be work nobody sees. In a host's process (main) the caches are freed at close.
    from glyphweave import api
    from glyphweave.cli import _main

    closed: list[tuple[str, int]] = []
    close_file, close = api.Document._close_file, api.Document.close

    def recording_close_file(self: api.Document) -> None:
        close_file(self)
        closed.append(("file", len(self._fonts.measured)))

    def recording_close(self: api.Document) -> None:
        close(self)
        closed.append(("close", len(self._fonts.measured)))

    monkeypatch.setattr(api.Document, "_close_file", recording_close_file)
    monkeypatch.setattr(api.Document, "close", recording_close)
    kept: list[api.Document] = []
    try:
        assert _main([command, str(pdf)], owns_process=True, kept=kept) == (0, True)
    finally:
        import gc

        gc.unfreeze()
    assert len(closed) == 1 and closed[0][0] == "file" and closed[0][1] > 0  # closed, the cache kept
    assert len(kept) == 1 and kept[0].closed  # and the document, for the exit to drop
    closed.clear()
    assert main([command, str(pdf)]) == 0
    assert closed[-1] == ("close", 0)  # closed and freed
    capsys.readouterr()


@pytest.mark.parametrize("fmt", ["text", "jsonl"])
def test_the_console_script_freezes_what_outlives_each_page_and_main_does_not(
        capsys: pytest.CaptureFixture[str], pdf: Path, monkeypatch: pytest.MonkeyPatch, fmt: str):
    import gc

    frozen: list[int] = []
    real_freeze = gc.freeze

    def freeze() -> None:
        frozen.append(len(capsys.readouterr().out))  # written before the freeze that follows it
        real_freeze()

    monkeypatch.setattr(gc, "freeze", freeze)
    from glyphweave.cli import _main

    try:  # as the console script runs it: its process ends after the command
        assert _main(["extract", "--format", fmt, str(pdf)], owns_process=True) == (0, True)
    finally:
        gc.unfreeze()
    assert len(frozen) == 2 and all(frozen)  # after each page, once it was written
    frozen.clear()
    assert main(["extract", "--format", fmt, str(pdf)]) == 0  # in a host's process: nothing frozen
    assert frozen == []


def test_the_console_scripts_start_up_pause_of_the_collector_ends_where_the_command_starts(
        pdf: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]):
    # run() pauses the collector for start-up: extract gets it back once its document is open
    # (its pages pause it themselves), any other command before it runs.
    import gc

    from glyphweave import api, cli

    seen: list[bool] = []
    real_open_with = api.open_with

    def open_with(*args: Any, **kwargs: Any) -> Any:
        seen.append(gc.isenabled())
        return real_open_with(*args, **kwargs)

    monkeypatch.setattr(api, "open_with", open_with)
    listed: list[bool] = []
    monkeypatch.setattr(cli, "cmd_profiles", lambda args: listed.append(gc.isenabled()) or 0)
    was = gc.isenabled()
    try:
        gc.disable()
        assert cli._main(["extract", str(pdf)], owns_process=True, collecting=True) == (0, True)
        after_extract = gc.isenabled()
        gc.disable()
        cli._main(["profiles"], owns_process=True, collecting=True)
        after_profiles = gc.isenabled()
        gc.disable()
        assert cli._main(["extract", str(pdf)], owns_process=True, collecting=False) == (0, True)
        left_off = not gc.isenabled()  # a collector that was off before stays off
    finally:
        gc.unfreeze()
        (gc.enable if was else gc.disable)()
    assert seen == [False, False] and after_extract and after_profiles and left_off
    assert capsys.readouterr().out.count("Hello world") == 2


def test_the_console_script_runs_no_collection_between_the_pages_it_writes(
        pdf: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]):
    # Each page's survivors are frozen after it is written; a collector resumed before that
    # (writing the page out allocates) would walk them all first, once per page. It is off
    # while each page is written, and on again once the command is done.
    import gc

    from glyphweave import cli

    on_while_writing: list[bool] = []
    real_loop = cli._frozen_after_each

    def frozen_after_each(items: Any, freeze: bool) -> Any:
        for item in real_loop(items, freeze):
            on_while_writing.append(gc.isenabled())  # the command writes the page out next
            yield item

    monkeypatch.setattr(cli, "_frozen_after_each", frozen_after_each)
    was = gc.isenabled()
    try:
        gc.enable()
        assert cli._main(["extract", str(pdf)], owns_process=True) == (0, True)
        still_on = gc.isenabled()
    finally:
        gc.unfreeze()
        (gc.enable if was else gc.disable)()
    assert on_while_writing == [False, False] and still_on
    assert capsys.readouterr().out == "Hello world\n\fPage two\n\f"


class _Cycle:
    """An object in a reference cycle (it holds itself), as a parsed font program is."""

    def __init__(self) -> None:
        self.me = self


@pytest.mark.parametrize(("thaw_pages", "freed"), [(2, True), (1000, False)])
def test_the_console_script_thaws_what_it_froze_so_cyclic_garbage_is_freed(
        pdf: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], thaw_pages: int,
        freed: bool):
    # What a cache lets go of after it was frozen (a font the loader drops, with its program)
    # is freed by the thaw after every _THAW_PAGES pages; frozen for good, it would stay.
    import gc
    import weakref

    from glyphweave import cli

    monkeypatch.setattr(cli, "_THAW_PAGES", thaw_pages)
    real_freeze, dropped = gc.freeze, []

    def freeze() -> None:
        if not dropped:  # after the first page: a cycle outlives it, frozen, then let go of
            held = _Cycle()
            dropped.append(weakref.ref(held))
            real_freeze()
            del held
        real_freeze()

    monkeypatch.setattr(gc, "freeze", freeze)
    try:
        assert cli._main(["extract", str(pdf)], owns_process=True) == (0, True)
        assert (dropped[0]() is None) is freed
    finally:
        gc.unfreeze()
        gc.collect()
    assert capsys.readouterr().out == "Hello world\n\fPage two\n\f"


def test_extract_pages(capsys: pytest.CaptureFixture[str], pdf: Path):
    code, out, _ = run(capsys, "extract", str(pdf), "--pages", "2")
    assert (code, out) == (0, "Page two\n\f")
    code, out, _ = run(capsys, "extract", str(pdf), "--pages", "2,1", "--separator", "|")
    assert (code, out) == (0, "Page two\n|Hello world\n|")


def test_extract_pages_by_label(capsys: pytest.CaptureFixture[str], pdf: Path, tmp_path: Path):
    labelled = tmp_path / "labelled.pdf"
    with pikepdf.open(pdf) as doc:  # the pages labelled "iv" and "A-1"
        doc.Root.PageLabels = pikepdf.Dictionary(Nums=pikepdf.Array([
            0, pikepdf.Dictionary(S=pikepdf.Name.r, St=4), 1, pikepdf.Dictionary(P=pikepdf.String("A-"), S=pikepdf.Name.D)]))
        doc.save(labelled)
    code, out, _ = run(capsys, "extract", str(labelled), "--pages", "A-1,iv", "--separator", "|")
    assert (code, out) == (0, "Page two\n|Hello world\n|")
    code, out, _ = run(capsys, "extract", str(labelled), "--pages", "iv-A-1", "--separator", "|")
    assert (code, out) == (0, "Hello world\n|Page two\n|")
    code, out, err = run(capsys, "extract", str(labelled), "--pages", "v")
    assert (code, out) == (EXIT_USAGE, "") and "no page is labelled 'v'" in one_error_line(err)
    code, out, err = run(capsys, "extract", str(pdf), "--pages", "iv")
    assert (code, out) == (EXIT_USAGE, "") and "gives its pages no labels" in one_error_line(err)


def test_extract_profile_raw(capsys: pytest.CaptureFixture[str], pdf: Path):
    code, out, _ = run(capsys, "extract", str(pdf), "--pages", "1", "--profile", "raw")
    assert code == 0 and "off" in out


def test_extract_bom_and_stats(capsys: pytest.CaptureFixture[str], pdf: Path):
    code, out, err = run(capsys, "extract", str(pdf), "--bom", "--stats")
    assert code == 0
    assert out.startswith("\ufeffHello world")
    stats = json.loads(err)
    assert stats["pages"] == 2 and stats["glyphs"] == 22 and stats["visible"] == 19
    assert stats["dropped"]["visible-box"] == 3


def test_extract_jsonl(capsys: pytest.CaptureFixture[str], pdf: Path):
    code, out, _ = run(capsys, "extract", str(pdf), "--format", "jsonl")
    assert code == 0
    records = [json.loads(line) for line in out.splitlines()]
    assert [r["page"] for r in records] == [1, 2]
    assert records[0]["text"] == "Hello world\n"
    assert records[1]["text"] == "Page two\n"
    assert records[0]["stats"]["glyphs"] == 14 and records[0]["stats"]["visible"] == 11


def test_extract_stdin(capsys: pytest.CaptureFixture[str], pdf: Path, monkeypatch: pytest.MonkeyPatch):
    class Stdin:
        buffer = io.BytesIO(pdf.read_bytes())

    monkeypatch.setattr(sys, "stdin", Stdin())
    code, out, _ = run(capsys, "extract", "-", "--pages", "2")
    assert (code, out) == (0, "Page two\n\f")


def test_extract_to_file(capsys: pytest.CaptureFixture[str], pdf: Path, tmp_path: Path):
    target = tmp_path / "out" / "two.txt"
    target.parent.mkdir()
    code, out, err = run(capsys, "extract", str(pdf), "-o", str(target))
    assert (code, out, err) == (0, "", "")
    assert target.read_text(encoding="utf-8") == "Hello world\n\fPage two\n\f"
    assert sorted(p.name for p in target.parent.iterdir()) == ["two.txt"]  # no temp file left
    # replacing an existing file
    code, *_ = run(capsys, "extract", str(pdf), "--pages", "1", "-o", str(target))
    assert code == 0 and target.read_text(encoding="utf-8") == "Hello world\n\f"


@pytest.mark.skipif(os.name != "posix", reason="POSIX permissions")
def test_output_file_mode_follows_umask(capsys: pytest.CaptureFixture[str], pdf: Path, tmp_path: Path):
    umask = os.umask(0o022)
    try:
        target = tmp_path / "out.txt"
        assert main(["extract", str(pdf), "-o", str(target)]) == 0
        assert target.stat().st_mode & 0o777 == 0o644
    finally:
        os.umask(umask)


def _precious(tmp_path: Path) -> Path:
    target = tmp_path / "precious.txt"
    target.write_text("precious", encoding="utf-8")
    return target


def _assert_untouched(target: Path) -> None:
    assert target.read_text(encoding="utf-8") == "precious"
    assert sorted(p.name for p in target.parent.iterdir() if p.name.startswith(".glyphweave")) == []


def test_failing_run_leaves_existing_output_untouched(capsys: pytest.CaptureFixture[str], tmp_path: Path):
    bad = tmp_path / "bad.pdf"
    bad.write_bytes(b"this is not a PDF")
    target = _precious(tmp_path)
    code, _, err = run(capsys, "extract", str(bad), "-o", str(target))
    assert code == EXIT_UNREADABLE
    one_error_line(err)
    _assert_untouched(target)


@pytest.mark.parametrize("exc", [GlyphweaveError("page 2 is broken"), RuntimeError("boom")])
def test_failure_mid_write_leaves_existing_output_untouched(
    capsys: pytest.CaptureFixture[str], pdf: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    exc: Exception,
):
    original = document_module.Page.assembled

    def assembled(self, mode=None):  # type: ignore[no-untyped-def]
        if self.number == 1:
            raise exc
        return original(self, mode)

    monkeypatch.setattr(document_module.Page, "assembled", assembled)
    target = _precious(tmp_path)
    code, _, err = run(capsys, "extract", str(pdf), "-o", str(target))
    assert code == 1
    line = one_error_line(err)
    assert str(exc) in line
    _assert_untouched(target)


def test_interrupt_leaves_existing_output_untouched(
    capsys: pytest.CaptureFixture[str], pdf: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
):
    def assembled(self, mode=None):  # type: ignore[no-untyped-def]
        raise KeyboardInterrupt

    monkeypatch.setattr(document_module.Page, "assembled", assembled)
    target = _precious(tmp_path)
    code, _, err = run(capsys, "extract", str(pdf), "-o", str(target))
    assert code == 130
    assert len(err.splitlines()) == 1
    _assert_untouched(target)


# --------------------------------------------------------------------------- glyphs


def test_glyphs_raw(capsys: pytest.CaptureFixture[str], pdf: Path):
    code, out, _ = run(capsys, "glyphs", str(pdf), "--raw", "--pages", "1")
    assert code == 0
    records = [json.loads(line) for line in out.splitlines()]
    assert len(records) == 14
    assert "".join(r["text"] for r in records) == "Hello worldoff"
    first = records[0]
    assert first["page"] == 1
    assert first["origin"] == [100.0, 700.0] and first["glyph_end"] == [105.0, 700.0]
    assert first["code"] == "48" and first["font"]["base_font"] == "Helvetica"
    assert first["token_index"] >= 0 and first["paint_order"] == 0
    assert {"quad", "pen_end", "box_height", "writing_mode", "mcid", "decoded_by", "render_mode"} <= set(first)


def test_glyphs_visible_only_by_default(capsys: pytest.CaptureFixture[str], pdf: Path, tmp_path: Path):
    target = tmp_path / "glyphs.jsonl"
    code, out, _ = run(capsys, "glyphs", str(pdf), "-o", str(target))
    assert (code, out) == (0, "")
    records = [json.loads(line) for line in target.read_text(encoding="utf-8").splitlines()]
    assert "".join(r["text"] for r in records) == "Hello worldPage two"
    assert [r["page"] for r in records].count(2) == 8


# --------------------------------------------------------------------------- plugins, profiles


def test_plugins(capsys: pytest.CaptureFixture[str]):
    code, out, err = run(capsys, "plugins")
    assert (code, err) == (0, "")
    for name in ("tounicode", "encoding", "standard-fallback", "visible-box", "dedup", "reading"):
        lines = [line for line in out.splitlines() if line.split()[:1] == [name]]
        assert len(lines) == 1, name
        assert lines[0].split()[1] == "glyphweave"
    assert "tounicode -> symbol -> zapfdingbats -> wingdings -> cid-collection -> encoding -> embedded-font -> standard-fallback" in out
    assert "visible-box -> dedup" in out


def test_plugins_of_profile_raw(capsys: pytest.CaptureFixture[str]):
    code, out, _ = run(capsys, "plugins", "--profile", "raw")
    assert code == 0
    assert "profile 'raw'" in out


def test_plugins_of_an_unknown_profile_is_one_error_line(capsys: pytest.CaptureFixture[str]):
    code, out, err = run(capsys, "plugins", "--profile", "nope")
    assert code == EXIT_PLUGIN and out == ""
    assert len(err.strip().splitlines()) == 1 and "nope" in err


def test_profiles(capsys: pytest.CaptureFixture[str]):
    code, out, _ = run(capsys, "profiles")
    assert code == 0
    names = [line.split()[0] for line in out.splitlines() if line.strip()]
    assert "default" in names and "raw" in names


# --------------------------------------------------------------------------- errors


def test_no_command_is_usage(capsys: pytest.CaptureFixture[str]):
    code, out, err = run(capsys)
    assert code == 2 and out == "" and "usage" in err


def test_bad_file(capsys: pytest.CaptureFixture[str], tmp_path: Path):
    bad = tmp_path / "bad.pdf"
    bad.write_bytes(b"this is not a PDF")
    code, out, err = run(capsys, "extract", str(bad))
    assert (code, out) == (EXIT_UNREADABLE, "")
    assert str(bad) in one_error_line(err)


def test_missing_file(capsys: pytest.CaptureFixture[str], tmp_path: Path):
    code, _, err = run(capsys, "glyphs", str(tmp_path / "absent.pdf"))
    assert code == EXIT_UNREADABLE
    assert "no such file" in one_error_line(err)


def test_missing_password(capsys: pytest.CaptureFixture[str], secret: Path):
    code, out, err = run(capsys, "extract", str(secret))
    assert (code, out) == (EXIT_PASSWORD, "")
    assert "password" in one_error_line(err)


def test_wrong_password(capsys: pytest.CaptureFixture[str], secret: Path):
    code, _, err = run(capsys, "extract", str(secret), "--password", "nope")
    assert code == EXIT_PASSWORD
    assert "wrong password" in one_error_line(err)


def test_password(capsys: pytest.CaptureFixture[str], secret: Path):
    code, out, _ = run(capsys, "extract", str(secret), "--password", "u")
    assert (code, out) == (0, "Page two\n\f")


@pytest.mark.parametrize("pages", ["3", "2-5", "3-"])
def test_pages_past_the_end_are_a_usage_error(capsys: pytest.CaptureFixture[str], pdf: Path, pages: str):
    code, out, err = run(capsys, "extract", str(pdf), "--pages", pages)
    assert (code, out) == (EXIT_USAGE, "")
    assert "the document has 2 pages" in one_error_line(err)


@pytest.mark.parametrize(("pages", "says"), [
    ("0", "numbered from 1"), ("5-2", "reversed (write 2-5)"), ("2-1", "reversed (write 1-2)"),
    ("1-2-3", "not a page or a range"), ("", "no pages given"),
])
def test_malformed_pages_are_a_usage_error_before_the_file_is_read(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, pages: str, says: str):
    code, out, err = run(capsys, "extract", str(tmp_path / "not-even-there.pdf"), "--pages", pages)
    assert (code, out) == (EXIT_USAGE, "")
    assert says in err and "Traceback" not in err


def test_unknown_profile(capsys: pytest.CaptureFixture[str], pdf: Path):
    code, _, err = run(capsys, "extract", str(pdf), "--profile", "no-such-profile")
    assert code == EXIT_PLUGIN
    one_error_line(err)


def test_output_directory_missing(capsys: pytest.CaptureFixture[str], pdf: Path, tmp_path: Path):
    code, _, err = run(capsys, "extract", str(pdf), "-o", str(tmp_path / "nope" / "out.txt"))
    assert code == 1
    one_error_line(err)


def test_output_is_a_directory(capsys: pytest.CaptureFixture[str], pdf: Path, tmp_path: Path):
    target = tmp_path / "dir"
    target.mkdir()
    code, _, err = run(capsys, "extract", str(pdf), "-o", str(target))
    assert code == EXIT_USAGE
    one_error_line(err)
    assert target.is_dir() and list(target.iterdir()) == []
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".glyphweave")] == []


def test_output_error_names_the_output_path(capsys: pytest.CaptureFixture[str], pdf: Path, tmp_path: Path):
    target = tmp_path / "dir"
    target.mkdir()
    code, _, err = run(capsys, "extract", str(pdf), "-o", str(target))
    assert code == EXIT_USAGE
    line = one_error_line(err)
    assert ".glyphweave-" not in line and str(target) in line


def test_stats_and_plugins_say_which_data_source_served(capsys, tmp_path):
    from glyphweave.cli import main

    assert main(["plugins"]) == 0
    out = capsys.readouterr().out
    assert "data tables" in out and "std14-metrics" in out and "mirror" in out and "cff-strings" in out
    sample = Path(__file__).resolve().parents[1] / "examples" / "sample.pdf"
    assert main(["extract", "--stats", str(sample), "-o", str(tmp_path / "out.txt")]) == 0
    report = json.loads(capsys.readouterr().err.strip().splitlines()[-1])
    assert report["sources"]["std14-metrics"] in ("mirror", "fallback")
    assert report["sources"]["cff-strings"] == "mirror"
    assert report["decoded_by"] and report["pages"] == 2


def test_plugins_lists_options_with_types_and_defaults(capsys: pytest.CaptureFixture[str]):
    code, out, _ = run(capsys, "plugins")
    assert code == 0
    assert "plugin 'symbol-fonts'" in out  # the entry-point name behind the symbol decoder
    assert "    word_gap = 0.15  (float" in out
    assert "auto.word_gap = 0.15  (default)" in out


def test_plugins_json(capsys: pytest.CaptureFixture[str], tmp_path: Path):
    profile = tmp_path / "wide.toml"
    profile.write_text('[profile]\nextends = "default"\n[options.auto]\nword_gap = 0.3\n')
    code, out, _ = run(capsys, "plugins", "--format", "json", "--profile", str(profile))
    assert code == 0
    data = json.loads(out)
    reading = next(c for c in data["components"] if c["name"] == "reading")
    assert reading["options"]["word_gap"]["type"] == "float"
    assert data["profile"]["options"] == {"auto": {"word_gap": 0.3}}
    assert data["resolved"]["assembler"]["options"]["word_gap"] == 0.3
    assert data["resolved"]["assembler"]["options"]["line_gap"] == 0.5
    assert data["broken_plugins"] == {} and data["data_tables"]["base-encodings"] == "mirror"
