"""``glyphweave batch`` and :func:`run_batch`: inputs, mirrored outputs, formats, the
manifest, failures that cost one file, and the pool's time, memory and crash limits.

Every PDF is built in the test. Nothing here asserts a duration: a limit shows as the
reason a file failed, and the other files still succeed.
"""

from __future__ import annotations

import functools
import hashlib
import json
import mmap
import multiprocessing
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pikepdf
import pytest

from glyphweave.batch import MANIFEST, ExtractOptions, FileJob, FileResult, run_batch, run_job, summary
from glyphweave.batch.pool import run_pool
from glyphweave.cli import main
from glyphweave.core.errors import UsageError
from glyphweave.exits import EXIT_PASSWORD, EXIT_UNREADABLE
from glyphweave.testing.pdfs import Page, make_pdf, text_at
from hostile.files import many_glyphs, nested_q

MANIFEST_FIELDS = {"file", "status", "error", "exit_status", "pages", "glyphs", "unresolved", "warnings",
                   "seconds", "output", "sha256", "note"}


def document(words: str, pages: int = 2) -> bytes:
    """A PDF of ``pages`` pages, each with two lines naming ``words`` and its page."""
    def content(number: int) -> bytes:
        return text_at(f"{words} page {number}") + b"\n" + text_at(f"second line of {words}", 72, 690)

    return make_pdf(content(1), extra_pages=[Page(content(n)) for n in range(2, pages + 1)])


def write(path: Path, data: bytes) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return path


def batch(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    """``glyphweave batch ARGV`` in-process (one worker unless ``-j`` says otherwise): status, stderr."""
    code = main(["batch", *(argv if "-j" in argv else ("-j", "1", *argv))])
    return code, capsys.readouterr().err


def manifest(outdir: Path) -> list[dict]:
    return [json.loads(line) for line in (outdir / MANIFEST).read_text(encoding="utf-8").splitlines()]


def by_name(lines: list[dict]) -> dict[str, dict]:
    return {Path(line["file"]).name: line for line in lines}


def summary_line(stderr: str) -> dict:
    return json.loads(stderr.strip().splitlines()[-1])["summary"]


def outputs(outdir: Path) -> set[str]:
    return {p.relative_to(outdir).as_posix() for p in outdir.rglob("*") if p.is_file() and p.name != MANIFEST}


@pytest.fixture()
def tree(tmp_path: Path) -> Path:
    """A folder of PDFs at several depths, a ``.PDF`` among them, and files that are no PDFs."""
    root = tmp_path / "in"
    write(root / "one.pdf", document("one"))
    write(root / "sub" / "two.PDF", document("two", pages=1))
    write(root / "sub" / "deep" / "three.pdf", document("three", pages=3))
    write(root / "sub" / "notes.txt", b"not a PDF")
    write(root / "sub" / "pdf", b"no suffix")
    return root


# -- inputs ------------------------------------------------------------------------------------
def test_a_folder_is_walked_recursively_and_mirrored(capsys, tree, tmp_path):
    out = tmp_path / "out"
    code, err = batch(capsys, str(tree), "-o", str(out))
    assert code == 0, err
    assert outputs(out) == {"one.txt", "sub/two.txt", "sub/deep/three.txt"}
    assert "three page 3" in (out / "sub" / "deep" / "three.txt").read_text(encoding="utf-8")
    assert {line["status"] for line in manifest(out)} == {"ok"}


def test_files_keep_their_name_at_the_top_of_the_output(capsys, tree, tmp_path):
    out = tmp_path / "out"
    code, err = batch(capsys, str(tree / "sub" / "deep" / "three.pdf"), str(tree / "sub" / "two.PDF"), "-o", str(out))
    assert code == 0, err
    assert outputs(out) == {"three.txt", "two.txt"}


def test_a_list_file_with_comments_and_relative_paths(capsys, tree, tmp_path):
    lists = tmp_path / "lists"
    lists.mkdir()
    listing = lists / "inputs.txt"
    listing.write_text(
        "# the corpus, relative to this list\n"
        "\n"
        "../in/one.pdf\n"
        "   # an indented comment\n"
        f"{tree / 'sub' / 'deep'}\n"          # an absolute folder
        "  ../in/sub/two.PDF  \n",             # blanks around a name
        encoding="utf-8")
    out = tmp_path / "out"
    code, err = batch(capsys, f"@{listing}", "-o", str(out))
    assert code == 0, err
    assert outputs(out) == {"one.txt", "three.txt", "two.txt"}
    assert len(manifest(out)) == 3


def test_missing_inputs_and_an_unreadable_list_are_reported(capsys, tree, tmp_path):
    out = tmp_path / "out"
    code, err = batch(capsys, str(tree / "one.pdf"), str(tmp_path / "nowhere.pdf"), f"@{tmp_path / 'nolist.txt'}",
                      "-o", str(out))
    assert code == 1
    lines = by_name(manifest(out))
    assert lines["one.pdf"]["status"] == "ok"
    assert lines["nowhere.pdf"]["status"] == "failed" and lines["nowhere.pdf"]["error"] == "no such file or folder"
    assert lines["nolist.txt"]["status"] == "failed" and "cannot read the list" in lines["nolist.txt"]["error"]
    assert summary_line(err)["failed"] == 2


def test_outputs_that_would_collide_are_reported_not_overwritten(capsys, tmp_path):
    first = write(tmp_path / "a" / "doc.pdf", document("first"))
    second = write(tmp_path / "b" / "doc.pdf", document("second"))
    write(tmp_path / "c" / "same.pdf", document("lower"))
    write(tmp_path / "c" / "same.PDF", document("upper"))
    out = tmp_path / "out"
    code, err = batch(capsys, str(first), str(second), str(tmp_path / "c"), "-o", str(out))
    assert code == 1
    assert "first page 1" in (out / "doc.txt").read_text(encoding="utf-8")
    lines = manifest(out)
    collisions = [line for line in lines if line["status"] == "failed"]
    assert sorted(line["file"] for line in collisions) == sorted([str(second), str(tmp_path / "c" / "same.pdf")])
    for line in collisions:
        assert "also" in line["error"] and line["output"] is None
    assert [line["file"] for line in lines if line["status"] == "ok"].count(str(first)) == 1
    assert outputs(out) == {"doc.txt", "same.txt"}


# -- formats: the same bytes as the single-file commands ------------------------------------------
@pytest.mark.parametrize(("fmt", "suffix", "command"), [
    ("text", ".txt", ["extract"]),
    ("pages", ".pages.jsonl", ["extract", "--format", "jsonl"]),
    ("glyphs", ".glyphs.jsonl", ["glyphs"]),
    ("words", ".words.jsonl", ["extract", "--format", "words"]),
    ("markdown", ".md", ["extract", "--format", "markdown"]),
])
def test_each_format_equals_the_single_file_command(capsys, tmp_path, fmt, suffix, command):
    folder = tmp_path / "in"
    write(folder / "plain.pdf", document("plain", pages=3))
    write(folder / "deep.pdf", nested_q(200))
    write(folder / "many.pdf", many_glyphs(3000))
    out = tmp_path / "out"
    code, err = batch(capsys, str(folder), "-o", str(out), "--format", fmt, "-j", "2")
    assert code == 0, err
    for name in ("plain", "deep", "many"):
        single = tmp_path / f"{name}.single"
        assert main([*command, str(folder / f"{name}.pdf"), "-o", str(single)]) == 0
        capsys.readouterr()
        produced = out / f"{name}{suffix}"
        assert produced.read_bytes() == single.read_bytes(), name
    assert outputs(out) == {f"{name}{suffix}" for name in ("plain", "deep", "many")}


def test_pages_and_mode_and_separator_are_passed_to_every_file(capsys, tmp_path):
    source = write(tmp_path / "in" / "three.pdf", document("x", pages=3))
    out = tmp_path / "out"
    code, err = batch(capsys, str(source), "-o", str(out), "--pages", "2-3", "--mode", "layout", "--separator", "|\n")
    assert code == 0, err
    single = tmp_path / "single.txt"
    assert main(["extract", str(source), "--pages", "2-3", "--mode", "layout", "--separator", "|\n",
                 "-o", str(single)]) == 0
    assert (out / "three.txt").read_bytes() == single.read_bytes()
    assert "page 1" not in single.read_text(encoding="utf-8")
    assert manifest(out)[0]["pages"] == 2


# -- the manifest, the summary, the exit status -------------------------------------------------
def test_manifest_records_every_file_with_a_hash_of_its_output(capsys, tree, tmp_path):
    out = tmp_path / "out"
    code, err = batch(capsys, str(tree), "-o", str(out), "-j", "2")
    assert code == 0, err
    lines = manifest(out)
    assert len(lines) == 3
    for line in lines:
        assert set(line) == MANIFEST_FIELDS
        assert line["status"] == "ok" and line["error"] is None and line["exit_status"] == 0
        output = Path(line["output"])
        assert line["sha256"] == hashlib.sha256(output.read_bytes()).hexdigest()
        assert line["glyphs"] > 0 and line["unresolved"] == 0 and line["seconds"] >= 0
    assert by_name(lines)["three.pdf"]["pages"] == 3
    assert by_name(lines)["three.pdf"]["output"] == str(out / "sub" / "deep" / "three.txt")
    totals = summary_line(err)
    assert totals["files"] == 3 and totals["ok"] == 3 and totals["failed"] == 0
    assert totals["pages"] == 6 and totals["glyphs"] == sum(line["glyphs"] for line in lines)


def test_a_failed_file_is_one_line_and_the_batch_goes_on(capsys, tmp_path):
    folder = tmp_path / "in"
    write(folder / "a.pdf", document("a"))
    write(folder / "b_locked.pdf", make_pdf(text_at("secret"), encryption=pikepdf.Encryption(user="pw", owner="o")))
    write(folder / "c_damaged.pdf", b"%PDF-1.4\n1 0 obj << /Type /Catalog\n" + bytes(range(256)) * 4)
    write(folder / "d_not_a_pdf.pdf", b"GIF89a, not a PDF")
    write(folder / "e.pdf", document("e"))
    out = tmp_path / "out"
    code, err = batch(capsys, str(folder), "-o", str(out))
    assert code == 1
    lines = by_name(manifest(out))
    assert len(lines) == 5
    assert lines["a.pdf"]["status"] == lines["e.pdf"]["status"] == "ok"
    locked = lines["b_locked.pdf"]
    assert locked["status"] == "failed" and locked["exit_status"] == EXIT_PASSWORD
    assert "password" in locked["error"] and "\n" not in locked["error"]
    assert locked["output"] is None and locked["sha256"] is None
    for name in ("c_damaged.pdf", "d_not_a_pdf.pdf"):
        assert lines[name]["status"] == "failed" and lines[name]["exit_status"] == EXIT_UNREADABLE, lines[name]
        assert lines[name]["error"] and "\n" not in lines[name]["error"]
    assert outputs(out) == {"a.txt", "e.txt"}
    assert not list(out.rglob(".glyphweave-part-*"))
    totals = summary_line(err)
    assert (totals["files"], totals["ok"], totals["failed"]) == (5, 2, 3)
    assert err.count("b_locked.pdf") >= 1


def test_password_and_password_file(capsys, tmp_path):
    locked = write(tmp_path / "in" / "locked.pdf",
                   make_pdf(text_at("the secret"), encryption=pikepdf.Encryption(user="pw", owner="o")))
    secret = tmp_path / "password.txt"
    secret.write_text("pw\n", encoding="utf-8")
    code, err = batch(capsys, str(locked), "-o", str(tmp_path / "out1"), "--password-file", str(secret))
    assert code == 0, err
    assert "the secret" in (tmp_path / "out1" / "locked.txt").read_text(encoding="utf-8")
    code, err = batch(capsys, str(locked), "-o", str(tmp_path / "out2"), "--password", "pw")
    assert code == 0, err
    code, err = batch(capsys, str(locked), "-o", str(tmp_path / "out3"), "--password-file", str(tmp_path / "none"))
    assert code == 1 and "cannot read the password" in err


@pytest.mark.parametrize("argv", [["--file-seconds", "0"], ["--memory-mb", "-1"],
                                  ["--memory-mb", "10"], ["--dask-gather"], ["--pages", "5-2"], ["--pages", "0"],
                                  ["--pages", "1-2-3"], ["--pages", ","]])
def test_bad_options_are_one_line_usage_errors_before_any_work(capsys, tree, tmp_path, argv):
    code, err = batch(capsys, str(tree), "-o", str(tmp_path / "out"), *argv)
    assert code == 2 and err.startswith("glyphweave: error:") and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("value", ["0", "x"])
def test_jobs_takes_the_form_every_command_takes(capsys, tree, tmp_path, value):
    with pytest.raises(SystemExit) as exc:  # argparse's usage error, as extract's and scan's -j
        batch(capsys, str(tree), "-o", str(tmp_path / "out"), "-j", value)
    assert exc.value.code == 2 and "argument -j/--jobs" in capsys.readouterr().err
    assert not (tmp_path / "out").exists()


def test_a_too_small_memory_limit_names_the_minimum(capsys, tree, tmp_path):
    code, err = batch(capsys, str(tree), "-o", str(tmp_path / "out"), "--memory-mb", "10")
    assert code == 2 and "at least 64" in err and "ImportError" not in err
    with pytest.raises(UsageError, match="at least 64"):
        next(run_batch([str(tree)], str(tmp_path / "api"), memory_mb=63))


def test_an_output_that_is_a_file_is_refused(capsys, tree, tmp_path):
    (tmp_path / "out").write_text("in the way")
    code, err = batch(capsys, str(tree), "-o", str(tmp_path / "out"))
    assert code == 2 and "not a folder" in err
    assert (tmp_path / "out").read_text() == "in the way"


def test_outputs_are_readable_like_any_file_the_user_writes(capsys, tree, tmp_path):
    out = tmp_path / "out"
    assert batch(capsys, str(tree / "one.pdf"), "-o", str(out))[0] == 0
    umask = os.umask(0)
    os.umask(umask)
    assert (out / "one.txt").stat().st_mode & 0o777 == 0o666 & ~umask


# -- the progress bar -----------------------------------------------------------------------------
def run_command(*argv: str) -> subprocess.CompletedProcess[str]:
    """The command in its own process (tqdm may start a monitor thread: not in the test process)."""
    return subprocess.run([sys.executable, "-m", "glyphweave.cli", *argv], capture_output=True, text=True,
                          timeout=300, check=False)


def test_progress_is_silent_when_stderr_is_not_a_terminal(tree, tmp_path):
    done = run_command("batch", str(tree), "-o", str(tmp_path / "out"), "-j", "1")
    assert done.returncode == 0, done.stderr
    assert done.stderr.strip().splitlines() == [done.stderr.strip()]   # the summary alone
    assert "summary" in done.stderr and "it/s" not in done.stderr and "file/s" not in done.stderr


def test_progress_on_shows_a_bar_anyway(tree, tmp_path):
    done = run_command("batch", str(tree), "-o", str(tmp_path / "out"), "-j", "1", "--progress", "on")
    assert done.returncode == 0, done.stderr
    assert "3/3" in done.stderr and "100%" in done.stderr
    assert json.loads(done.stderr.strip().splitlines()[-1])["summary"]["ok"] == 3


# -- the Python API -----------------------------------------------------------------------------
def test_run_batch_is_an_iterator_of_results(tree, tmp_path):
    out = tmp_path / "out"
    totals: list[int] = []
    results = run_batch([str(tree)], str(out), options=ExtractOptions(format="pages"), jobs=2, planned=totals.append)
    assert isinstance(results, Iterator)
    assert not (out / MANIFEST).exists()   # nothing runs before the first result is asked for
    collected = list(results)
    assert totals == [3]
    assert all(isinstance(result, FileResult) and result.status == "ok" for result in collected)
    assert sorted(Path(result.output or "").name for result in collected) == [
        "one.pages.jsonl", "three.pages.jsonl", "two.pages.jsonl"]
    assert summary(collected)["pages"] == 6
    assert [json.loads(line) for line in (out / MANIFEST).read_text().splitlines()] == [
        result.to_dict() for result in collected]


def test_closing_the_iterator_early_stops_the_workers(tree, tmp_path):
    results = run_batch([str(tree)], str(tmp_path / "out"), jobs=2)
    first = next(results)
    assert first.status == "ok"
    results.close()
    assert multiprocessing.active_children() == []


def test_resume_skips_finished_files_and_redoes_the_rest(tree, tmp_path):
    out = tmp_path / "out"
    assert {r.status for r in run_batch([str(tree)], str(out), jobs=1)} == {"ok"}
    (out / "sub" / "two.txt").unlink()
    (out / "sub" / ".glyphweave-part-left-by-a-kill").write_text("half")
    again = {Path(r.file).name: r.status for r in run_batch([str(tree)], str(out), jobs=1, resume=True)}
    assert again == {"one.pdf": "skipped", "three.pdf": "skipped", "two.PDF": "ok"}
    assert outputs(out) == {"one.txt", "sub/two.txt", "sub/deep/three.txt"}
    assert not list(out.rglob(".glyphweave-part-*"))
    lines = manifest(out)   # one line per file: the skipped files keep the line of the run that extracted them
    assert [Path(line["file"]).name for line in lines] == ["one.pdf", "three.pdf", "two.PDF"]
    assert all(line["status"] == "ok" for line in lines)


def test_resume_records_an_output_whose_manifest_line_a_kill_lost(tree, tmp_path):
    out = tmp_path / "out"
    list(run_batch([str(tree)], str(out), jobs=1))
    lines = manifest(out)
    lost = next(line for line in lines if line["file"].endswith("one.pdf"))
    kept = [line for line in lines if line is not lost]
    # Killed after one.txt was renamed into place, before its line was written (half of it was):
    (out / MANIFEST).write_text("".join(json.dumps(line) + "\n" for line in kept) + '{"file": "', encoding="utf-8")
    again = list(run_batch([str(tree)], str(out), jobs=1, resume=True))
    assert {r.status for r in again} == {"skipped"}
    after = manifest(out)
    assert after[:2] == kept and len(after) == 3
    assert after[2]["file"] == lost["file"] and after[2]["status"] == "skipped"
    assert after[2]["sha256"] == lost["sha256"] == hashlib.sha256((out / "one.txt").read_bytes()).hexdigest()


# -- the pool: time, memory, a worker that dies --------------------------------------------------
def marked_runner(job: FileJob) -> FileResult:
    """``run_job``, but a file named ``sleep*`` hangs, ``hog*`` allocates 2 GB, ``fair*``
    100 MB, and ``die*`` kills its worker; every file first leaves its worker's process id
    beside its output."""
    Path(job.output).parent.mkdir(parents=True, exist_ok=True)
    Path(job.output + ".pid").write_text(str(os.getpid()))
    name = Path(job.source).name
    if name.startswith("sleep"):
        time.sleep(600)
    elif name.startswith("hog"):
        hog = bytearray(2 << 30)
        hog[::4096] = b"x" * len(hog[::4096])
    elif name.startswith("fair"):
        fair = bytearray(100 << 20)
        fair[::4096] = b"x" * len(fair[::4096])
        del fair
    elif name.startswith("die"):
        os.kill(os.getpid(), signal.SIGKILL)
    return run_job(job)


def pool_jobs(tmp_path: Path, names: list[str]) -> list[FileJob]:
    jobs = []
    for name in names:
        source = write(tmp_path / "in" / f"{name}.pdf", document(name, pages=1))
        jobs.append(FileJob(source=str(source), output=str(tmp_path / "out" / f"{name}.txt"),
                            options=ExtractOptions()))
    return jobs


def pid_of(tmp_path: Path, name: str) -> int:
    return int((tmp_path / "out" / f"{name}.txt.pid").read_text())


def own_rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def run_limited(tmp_path: Path, names: list[str], **limits: float) -> dict[str, FileResult]:
    results = list(run_pool(pool_jobs(tmp_path, names), workers=1, job_runner=marked_runner, **limits))
    assert multiprocessing.active_children() == []
    return {Path(result.file).stem: result for result in results}


def check_replaced(tmp_path: Path, results: dict[str, FileResult], culprit: str) -> None:
    """The other files succeeded, and the file after the culprit ran in a new worker."""
    assert {name: r.status for name, r in results.items() if name != culprit} == {"before": "ok", "after": "ok"}
    assert (tmp_path / "out" / "after.txt").is_file() and not (tmp_path / "out" / f"{culprit}.txt").exists()
    assert pid_of(tmp_path, "before") == pid_of(tmp_path, culprit) != pid_of(tmp_path, "after")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the pool's limits are checked on Linux")
def test_time_limit_fails_the_file_and_replaces_the_worker(tmp_path):
    results = run_limited(tmp_path, ["before", "sleep", "after"], time_limit=1.0)
    assert results["sleep"].status == "failed" and "time limit" in (results["sleep"].error or "")
    check_replaced(tmp_path, results, "sleep")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the pool's limits are checked on Linux")
def test_memory_limit_fails_the_file_and_replaces_the_worker(tmp_path):
    # A worker starts as a copy of this process: allow what it already holds, plus 300 MB.
    results = run_limited(tmp_path, ["before", "hog", "after"], memory_mb=300 + own_rss_mb())
    assert results["hog"].status == "failed" and "memory" in (results["hog"].error or "").lower()
    check_replaced(tmp_path, results, "hog")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the pool's limits are checked on Linux")
def test_memory_limit_counts_memory_used_not_address_space_inherited(tmp_path):
    # A parent with a large address space it never touches (a notebook with big libraries,
    # threads' stacks, a Dask client) must not leave its workers without memory.
    reserved = mmap.mmap(-1, 1 << 30)
    try:
        results = run_limited(tmp_path, ["before", "fair", "after"], memory_mb=300 + own_rss_mb())
    finally:
        reserved.close()
    assert {name: (r.status, r.error) for name, r in results.items()} == {
        "before": ("ok", None), "fair": ("ok", None), "after": ("ok", None)}


def test_a_worker_that_dies_costs_its_file_only(tmp_path):
    results = run_limited(tmp_path, ["before", "die", "after"])
    assert results["die"].status == "failed"
    assert results["die"].error == "worker died (signal 9) while extracting this file"
    check_replaced(tmp_path, results, "die")


def test_limits_through_run_batch_with_two_workers(tmp_path, monkeypatch):
    import glyphweave.batch.pool as pool

    monkeypatch.setattr(pool, "run_pool", functools.partial(pool.run_pool, job_runner=marked_runner))
    folder = tmp_path / "in"
    for name in ("a", "die", "b", "sleep", "c"):
        write(folder / f"{name}.pdf", document(name, pages=1))
    results = {Path(r.file).stem: r for r in run_batch([str(folder)], str(tmp_path / "out"), jobs=2,
                                                        time_limit=2.0)}
    assert {name: r.status for name, r in results.items()} == {
        "a": "ok", "b": "ok", "c": "ok", "die": "failed", "sleep": "failed"}
    assert "signal 9" in (results["die"].error or "") and "time limit" in (results["sleep"].error or "")
    assert multiprocessing.active_children() == []


COUNTING_PLUGIN = '''
from glyphweave.plugin import Assembled, Assembler, hookimpl


class Counting(Assembler):
    NAME = "counting"

    def assemble(self, page, indices):
        return Assembled(text=f"{len(indices)} glyphs", data={"glyphs": len(indices)})


@hookimpl
def glyphweave_register_assemblers():
    return [Counting]
'''


def test_pages_format_keeps_an_assemblers_data_like_extract(capsys, tmp_path, monkeypatch):
    (tmp_path / "plugins").mkdir()
    (tmp_path / "plugins" / "gw_counting_batch.py").write_text(COUNTING_PLUGIN, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path / "plugins"))
    source = write(tmp_path / "in" / "two.pdf", document("two"))
    options = ["-p", "gw_counting_batch", "--mode", "counting"]
    code, err = batch(capsys, str(source), "-o", str(tmp_path / "out"), "--format", "pages", *options)
    assert code == 0, err
    single = tmp_path / "single.jsonl"
    assert main(["extract", *options, str(source), "--format", "jsonl", "-o", str(single)]) == 0
    produced = (tmp_path / "out" / "two.pages.jsonl").read_bytes()
    assert produced == single.read_bytes()
    assert json.loads(produced.splitlines()[0])["data"]["glyphs"] > 0


# -- a file given twice, a failed file redone, a module that cannot be loaded ------------------------
def test_the_same_file_given_twice_is_one_file(capsys, tree, tmp_path):
    one = tree / "one.pdf"
    out = tmp_path / "out"
    code, err = batch(capsys, str(one), str(one), os.path.relpath(one), str(tree / "sub" / "deep"),
                      str(tree / "sub" / "deep" / "three.pdf"), "-o", str(out))
    assert code == 0, err
    totals = summary_line(err)
    assert (totals["files"], totals["ok"], totals["failed"]) == (2, 2, 0)
    assert len(manifest(out)) == 2


def test_resume_redoing_a_failed_file_keeps_one_line_per_file(capsys, tmp_path):
    good = write(tmp_path / "in" / "good.pdf", document("good"))
    flaky = write(tmp_path / "in" / "flaky.pdf", b"%PDF-1.7 truncated")
    out = tmp_path / "out"
    assert batch(capsys, str(tmp_path / "in"), "-o", str(out))[0] == 1
    write(flaky, document("mended"))
    code, err = batch(capsys, str(tmp_path / "in"), "-o", str(out), "--resume")
    assert code == 0, err
    lines = manifest(out)
    assert [(Path(line["file"]).name, line["status"]) for line in lines] == [("flaky.pdf", "ok"), ("good.pdf", "ok")]
    assert str(good) in {line["file"] for line in lines}


def test_read_manifest_takes_the_last_line_of_a_file(tmp_path):
    from glyphweave.batch import read_manifest

    path = tmp_path / MANIFEST
    path.write_text('{"file": "a.pdf", "status": "failed"}\n{"file": "b.pdf", "status": "ok"}\n'
                    '{"file": "a.pdf", "status": "ok"}\n{"file": "b.p', encoding="utf-8")   # a killed run's half line
    assert {name: entry["status"] for name, entry in read_manifest(path).items()} == {"a.pdf": "ok", "b.pdf": "ok"}
    assert list(read_manifest(path)) == ["a.pdf", "b.pdf"]


def test_a_module_that_cannot_be_loaded_is_named_not_unexpected(tmp_path, monkeypatch):
    import glyphweave.batch.task as task

    def missing(job):
        raise ModuleNotFoundError("No module named 'fancy_optional'", name="fancy_optional")

    monkeypatch.setattr(task, "_extract", missing)
    source = write(tmp_path / "in" / "a.pdf", document("a"))
    result = run_job(FileJob(source=str(source), output=str(tmp_path / "a.txt"), options=ExtractOptions()))
    assert result.status == "failed" and result.exit_status == 1
    assert result.error == "cannot load the module fancy_optional: No module named 'fancy_optional'"


def cannot_map(job: FileJob) -> FileResult:
    """What ``run_job`` returns when a library could not be mapped under the address-space cap."""
    from glyphweave.batch.task import cannot_load

    error = ImportError("libjpeg.so: failed to map segment from shared object", name="pikepdf._core")
    return FileResult(file=job.source, status="failed", error=cannot_load(error), exit_status=1)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the pool's limits are checked on Linux")
def test_an_import_that_fails_under_the_memory_limit_says_so(tmp_path):
    jobs = pool_jobs(tmp_path, ["a"])
    [result] = run_pool(jobs, workers=1, memory_mb=300 + own_rss_mb(), job_runner=cannot_map)
    assert result.error is not None and result.error.startswith("memory limit (")
    assert "too small to load pikepdf._core" in result.error and "ImportError" not in result.error


def test_the_smallest_memory_limit_extracts_a_file(tree, tmp_path):
    done = run_command("batch", str(tree / "one.pdf"), "-o", str(tmp_path / "out"), "-j", "1", "--memory-mb", "64")
    assert done.returncode == 0, done.stderr
    assert "one page 1" in (tmp_path / "out" / "one.txt").read_text(encoding="utf-8")


def test_a_device_or_fifo_given_as_input_is_named_and_never_read(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.pdf"
    os.mkfifo(fifo)
    results = list(run_batch([str(fifo), "/dev/zero"], str(tmp_path / "out")))
    assert [(r.status, r.error) for r in results] == [
        ("failed", "is a FIFO, not a PDF file; not read"), ("failed", "is a character device, not a PDF file; not read")]


def test_a_files_own_warnings_count_in_its_result(tmp_path):
    # A warning about the file as a whole (a page kept by clamping a number qpdf cannot
    # read) counts as extract --strict counts it, not only the pages' warnings.
    from hostile.page_trees import page_box_overflow

    pdf = tmp_path / "overflow.pdf"
    pdf.write_bytes(page_box_overflow())
    result = run_job(FileJob(source=str(pdf), output=str(tmp_path / "overflow.txt"), options=ExtractOptions()))
    assert result.status == "ok" and result.pages == 2 and result.warnings == 1
