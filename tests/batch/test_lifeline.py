"""Workers die with their parent, however it dies: ``kill -9`` of ``glyphweave batch`` or of
``glyphweave extract --jobs 2`` while its workers are busy leaves no worker behind.

The workers are kept busy by an assembler plugin that records its process id and sleeps
(for minutes: without the lifeline they would outlive the test). The waits below are
bounds on a process ending, not measurements.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest

from glyphweave.batch import lifeline
from glyphweave.batch.pool import run_pool
from glyphweave.batch.task import ExtractOptions, FileJob, FileResult
from glyphweave.testing.pdfs import Page, make_pdf, text_at

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc (Linux)")

PLUGIN = '''
import os
import time
from pathlib import Path

from glyphweave.plugin import Assembler, hookimpl


class Sleepy(Assembler):
    NAME = "sleepy"

    def assemble(self, page, indices):
        Path(os.environ["SLEEPY_MARKS"], str(os.getpid())).touch()
        time.sleep(300)
        raise AssertionError("not reached: the test kills this process's parent long before")


@hookimpl
def glyphweave_register_assemblers():
    return [Sleepy]
'''


def alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie waiting for its reaper has ended)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as stream:
            return stream.read().rsplit(")", 1)[1].split()[0] != "Z"
    except (OSError, IndexError):
        return False


def wait_until(condition, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.02)
    return condition()


def children(pid: int) -> set[int]:
    found: set[int] = set()
    for task in Path(f"/proc/{pid}/task").glob("*/children"):
        try:
            found.update(int(word) for word in task.read_text().split())
        except OSError:
            continue
    return found


@pytest.fixture()
def sleepy(tmp_path: Path) -> dict[str, str]:
    """The environment of a command that loads the sleeping assembler."""
    folder = tmp_path / "plugin"
    folder.mkdir()
    (folder / "sleepy_plugin.py").write_text(textwrap.dedent(PLUGIN), encoding="utf-8")
    marks = tmp_path / "marks"
    marks.mkdir()
    path = os.pathsep.join(filter(None, [str(folder), os.environ.get("PYTHONPATH")]))
    return {**os.environ, "PYTHONPATH": path, "SLEEPY_MARKS": str(marks)}


def kill_parent_of_busy_workers(argv: list[str], env: dict[str, str], workers: int) -> set[int]:
    """Start ``glyphweave ARGV``, wait until ``workers`` of its children are busy, ``kill -9``
    it; the workers' process ids."""
    marks = Path(env["SLEEPY_MARKS"])
    process = subprocess.Popen([sys.executable, "-m", "glyphweave.cli", *argv], env=env,
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        assert wait_until(lambda: len(list(marks.iterdir())) >= workers or process.poll() is not None, 120), \
            "the workers never started"
        assert process.poll() is None, process.stderr.read().decode() if process.stderr else ""
        busy = {int(mark.name) for mark in marks.iterdir()}
        assert busy <= children(process.pid)
        process.send_signal(signal.SIGKILL)
    finally:
        process.wait(timeout=60)
        if process.stderr:
            process.stderr.close()
    return busy


def test_kill_9_of_batch_leaves_no_worker(tmp_path, sleepy):
    for name in ("a", "b"):
        (tmp_path / f"{name}.pdf").write_bytes(make_pdf(text_at(f"file {name}")))
    busy = kill_parent_of_busy_workers(
        ["batch", str(tmp_path / "a.pdf"), str(tmp_path / "b.pdf"), "-o", str(tmp_path / "out"), "-j", "2",
         "-p", "sleepy_plugin", "--mode", "sleepy"], sleepy, workers=2)
    assert len(busy) == 2
    try:
        assert wait_until(lambda: not any(alive(pid) for pid in busy), 5), "workers outlived their parent"
    finally:
        for pid in busy:
            if alive(pid):
                os.kill(pid, signal.SIGKILL)


def test_kill_9_of_extract_jobs_leaves_no_worker(tmp_path, sleepy):
    pdf = tmp_path / "book.pdf"
    pdf.write_bytes(make_pdf(text_at("page 1"), extra_pages=[Page(text_at(f"page {n}")) for n in range(2, 17)]))
    busy = kill_parent_of_busy_workers(
        ["extract", str(pdf), "--jobs", "2", "-p", "sleepy_plugin", "--mode", "sleepy"], sleepy, workers=2)
    assert len(busy) == 2
    try:
        assert wait_until(lambda: not any(alive(pid) for pid in busy), 5), "workers outlived their parent"
    finally:
        for pid in busy:
            if alive(pid):
                os.kill(pid, signal.SIGKILL)


ORPHAN = '''
import multiprocessing, os, sys, time
from glyphweave.batch.lifeline import Lifeline, bind

def child(line):
    bind(line)
    print(os.getpid(), flush=True)
    time.sleep(300)

if __name__ == "__main__":
    ctx = multiprocessing.get_context(sys.argv[1])
    worker = ctx.Process(target=child, args=(Lifeline(parent=os.getpid(), kernel=False),))
    worker.start()
    time.sleep(300)
'''


@pytest.mark.parametrize("method", ["fork", "spawn"])
def test_without_the_kernel_the_watching_thread_ends_an_orphan(tmp_path, method):
    script = tmp_path / "orphan.py"
    script.write_text(ORPHAN, encoding="utf-8")
    process = subprocess.Popen([sys.executable, str(script), method], stdout=subprocess.PIPE, text=True)
    try:
        assert process.stdout is not None
        pid = int(process.stdout.readline())
        assert alive(pid)
        process.kill()
    finally:
        process.wait(timeout=60)
        if process.stdout:
            process.stdout.close()
    try:
        assert wait_until(lambda: not alive(pid), 5), "the orphan outlived its parent"
    finally:
        if alive(pid):
            os.kill(pid, signal.SIGKILL)


def report_binding(job: FileJob) -> FileResult:
    return FileResult(file=job.source, status="ok", error=str(lifeline.kernel_bound()))


def bindings(tmp_path: Path) -> list[str | None]:
    jobs = [FileJob(source=str(tmp_path / f"{n}.pdf"), output=str(tmp_path / f"{n}.txt"), options=ExtractOptions())
            for n in range(2)]
    return [result.error for result in run_pool(jobs, workers=2, job_runner=report_binding)]


@pytest.mark.filterwarnings("ignore:This process .* is multi-threaded:DeprecationWarning")  # Python 3.12+
def test_pool_workers_ask_the_kernel_only_from_the_main_thread(tmp_path):
    assert bindings(tmp_path) == ["True", "True"]
    found: list[str | None] = []
    thread = threading.Thread(target=lambda: found.extend(bindings(tmp_path)))
    thread.start()
    thread.join(120)
    assert found == ["False", "False"]   # the watching thread follows them instead


def bind_and_say(line: lifeline.Lifeline, conn) -> None:
    lifeline.bind(line)
    conn.send("alive")


def test_a_worker_whose_parent_died_before_it_bound_exits_at_once():
    import multiprocessing

    ctx = multiprocessing.get_context("fork")
    receiver, sender = ctx.Pipe(duplex=False)
    # The parent id the worker was started by is not its parent's any more (it died and the
    # worker was adopted before the kernel could be asked): the worker must not run.
    gone = lifeline.Lifeline(parent=os.getpid() + 1_000_000, kernel=True)
    worker = ctx.Process(target=bind_and_say, args=(gone, sender))
    worker.start()
    sender.close()
    worker.join(30)
    assert worker.exitcode == 1
    with pytest.raises(EOFError):   # it never said a word
        receiver.recv()
    receiver, sender = ctx.Pipe(duplex=False)
    ok = ctx.Process(target=bind_and_say, args=(lifeline.lifeline(), sender))
    ok.start()
    sender.close()
    assert receiver.recv() == "alive"
    ok.join(30)
    assert ok.exitcode == 0
