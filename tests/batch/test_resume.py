"""``kill -9`` during ``glyphweave batch``, then ``--resume``: the outputs are byte-identical
to an uninterrupted run, no partial file is left, and the manifest stays JSON lines.

The batch runs as a process group of its own (the command and its workers), killed all at
once with SIGKILL as soon as its manifest has a few lines. Should the batch finish before
the kill lands (a fast machine), the test still holds: ``--resume`` then has nothing to
redo, and the outputs must still be identical.
"""

from __future__ import annotations

import hashlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from glyphweave.batch import MANIFEST
from glyphweave.batch.task import TEMP_PREFIX
from glyphweave.testing.pdfs import Page, make_pdf, text_at

pytestmark = pytest.mark.skipif(not hasattr(os, "killpg"), reason="needs process groups (POSIX)")

FILES = 30
KILL_AFTER = 4
"""Manifest lines to wait for before the kill."""


def document(seed: int) -> bytes:
    """Eight pages of 45 lines: enough work per file (about 0.1 s) for a kill to land mid-batch."""
    def content(page: int) -> bytes:
        return b"\n".join(text_at(f"file {seed} page {page} line {k}: the quick brown fox jumps over the lazy dog",
                                  72, 750 - 15 * k) for k in range(45))

    return make_pdf(content(1), extra_pages=[Page(content(n)) for n in range(2, 9)])


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("corpus")
    for seed in range(FILES):
        folder = root / f"part{seed % 3}" / ("deep" if seed % 2 else "")
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"doc{seed:02d}.pdf").write_bytes(document(seed))
    return root


def command(corpus: Path, outdir: Path, *extra: str) -> list[str]:
    return [sys.executable, "-m", "glyphweave.cli", "batch", str(corpus), "-o", str(outdir), "-j", "2", *extra]


def run(argv: list[str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(argv, capture_output=True, text=True, timeout=600, check=False)


def manifest_lines(outdir: Path) -> int:
    try:
        return (outdir / MANIFEST).read_bytes().count(b"\n")
    except OSError:
        return 0


def kill_mid_run(argv: list[str], outdir: Path) -> bool:
    """Start the batch, SIGKILL its whole process group once the manifest has a few lines;
    whether the kill came before the batch ended."""
    process = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        deadline = time.monotonic() + 300  # a hang guard, not a measurement
        while process.poll() is None and manifest_lines(outdir) < KILL_AFTER and time.monotonic() < deadline:
            time.sleep(0.005)
        killed = process.poll() is None
        if killed:
            os.killpg(process.pid, signal.SIGKILL)
    finally:
        process.wait(timeout=60)
    # The workers share the group: wait until none is left writing into the output folder.
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            os.killpg(process.pid, 0)
        except ProcessLookupError:
            break
        time.sleep(0.01)
    return killed


def tree(outdir: Path) -> dict[str, bytes]:
    """Every file under ``outdir`` but the manifest, by relative path."""
    return {p.relative_to(outdir).as_posix(): p.read_bytes() for p in sorted(outdir.rglob("*"))
            if p.is_file() and p.name != MANIFEST}


def parse_manifest(outdir: Path) -> list[dict]:
    data = (outdir / MANIFEST).read_bytes()
    assert data.endswith(b"\n")
    return [json.loads(line) for line in data.decode("utf-8").splitlines()]


def test_kill_9_then_resume_gives_the_uninterrupted_outputs(corpus, tmp_path):
    reference = tmp_path / "reference"
    done = run(command(corpus, reference))
    assert done.returncode == 0, done.stderr
    expected = tree(reference)
    assert len(expected) == FILES

    outdir = tmp_path / "interrupted"
    killed = kill_mid_run(command(corpus, outdir), outdir)
    before = {name for name in tree(outdir) if not Path(name).name.startswith(TEMP_PREFIX)}
    assert before <= set(expected)
    for name in before:  # what the killed run left under a final name is complete
        assert (outdir / name).read_bytes() == expected[name], name

    resumed = run(command(corpus, outdir, "--resume"))
    assert resumed.returncode == 0, resumed.stderr
    totals = json.loads(resumed.stderr.strip().splitlines()[-1])["summary"]
    assert totals["files"] == FILES and totals["failed"] == 0
    assert totals["skipped"] == len(before)       # exactly the files without an output were redone
    assert totals["ok"] == FILES - len(before)
    if not killed:
        assert totals["ok"] == 0

    assert tree(outdir) == expected               # byte for byte, and no temp or partial file
    assert not [p for p in outdir.rglob("*") if p.name.startswith(TEMP_PREFIX)]

    lines = parse_manifest(outdir)
    for line in lines:
        assert line["status"] in {"ok", "skipped"}, line
    finished = {line["file"]: line for line in lines}
    assert len(finished) == FILES                 # every file has its line, across both runs
    for line in finished.values():
        output = Path(line["output"])
        assert line["sha256"] == hashlib.sha256(output.read_bytes()).hexdigest()


def test_resume_after_a_finished_run_redoes_nothing(corpus, tmp_path):
    outdir = tmp_path / "out"
    assert run(command(corpus, outdir)).returncode == 0
    first = tree(outdir)
    lines = len(parse_manifest(outdir))
    again = run(command(corpus, outdir, "--resume"))
    assert again.returncode == 0, again.stderr
    totals = json.loads(again.stderr.strip().splitlines()[-1])["summary"]
    assert (totals["skipped"], totals["ok"]) == (FILES, 0)
    assert tree(outdir) == first
    assert len(parse_manifest(outdir)) == lines   # the finished files' lines are not repeated
