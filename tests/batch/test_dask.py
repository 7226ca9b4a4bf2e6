"""``glyphweave batch --dask``: the same jobs on a Dask cluster started in-process, outputs
byte-identical to the local pool's, failures as one line each, and the missing extra."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pikepdf
import pytest

distributed = pytest.importorskip("distributed")

from glyphweave.batch import MANIFEST, ExtractOptions, FileJob, FileResult, plan, run_batch  # noqa: E402
from glyphweave.batch.dask import run_dask  # noqa: E402
from glyphweave.batch.task import run_job  # noqa: E402
from glyphweave.cli import main  # noqa: E402
from glyphweave.core.errors import GlyphweaveError  # noqa: E402
from glyphweave.exits import EXIT_PASSWORD, EXIT_UNREADABLE  # noqa: E402
from glyphweave.testing.pdfs import Page, make_pdf, text_at  # noqa: E402


@pytest.fixture(scope="module")
def cluster() -> Iterator[distributed.LocalCluster]:
    """Two worker processes, one thread each, as ``--dask local`` would start on this machine."""
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=":0") as local:
        yield local


@pytest.fixture(scope="module")
def inputs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A small tree: good files (one in a subfolder, one of two pages), a damaged file and
    an encrypted one without its password."""
    root = tmp_path_factory.mktemp("inputs")
    (root / "sub").mkdir()
    (root / "hello.pdf").write_bytes(make_pdf(text_at("Hello from Dask")))
    (root / "sub" / "two.pdf").write_bytes(make_pdf(text_at("Page one", y=700),
                                                    extra_pages=[Page(text_at("Page two", y=600))]))
    (root / "sub" / "lines.pdf").write_bytes(make_pdf(b"\n".join(
        text_at(f"Line {n} of the text", y=700 - 14 * n) for n in range(12))))
    (root / "damaged.pdf").write_bytes(b"%PDF-1.7\nthis is not a PDF at all\n")
    (root / "secret.pdf").write_bytes(make_pdf(text_at("Hidden"),
                                               encryption=pikepdf.Encryption(user="u", owner="o")))
    return root


def outputs(folder: Path) -> dict[str, bytes]:
    """Every output file's bytes by its path below ``folder`` (the manifest aside)."""
    return {path.relative_to(folder).as_posix(): path.read_bytes()
            for path in sorted(folder.rglob("*")) if path.is_file() and path.name != MANIFEST}


def manifest(folder: Path) -> dict[str, dict[str, object]]:
    """The manifest's lines by file name below the inputs."""
    lines = [json.loads(line) for line in (folder / MANIFEST).read_text(encoding="utf-8").splitlines()]
    return {Path(line["file"]).name: line for line in lines}


@pytest.fixture(scope="module")
def pool_run(inputs: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The reference: the same inputs through the local process pool."""
    out = tmp_path_factory.mktemp("pool")
    list(run_batch([str(inputs)], str(out), jobs=2))
    return out


def assert_same_as_pool(out: Path, pool_out: Path) -> None:
    assert outputs(out) == outputs(pool_out)
    assert len(outputs(out)) == 3
    ours, theirs = manifest(out), manifest(pool_out)
    assert ours.keys() == theirs.keys()
    for name, line in ours.items():
        for key in ("status", "error", "exit_status", "pages", "glyphs", "sha256"):
            assert line[key] == theirs[name][key], (name, key)
        if line["status"] == "ok":
            assert line["output"] == theirs[name]["output"].replace(str(pool_out), str(out))


def test_outputs_are_byte_identical_to_the_pool(cluster, inputs: Path, pool_run: Path, tmp_path: Path) -> None:
    out = tmp_path / "dask"
    results = list(run_batch([str(inputs)], str(out), dask=cluster.scheduler_address))
    assert len(results) == 5
    assert all(result.content is None for result in results)
    assert_same_as_pool(out, pool_run)


def test_gather_mode_writes_the_same_bytes_on_the_client(cluster, inputs: Path, pool_run: Path,
                                                         tmp_path: Path) -> None:
    out = tmp_path / "gathered"
    results = list(run_batch([str(inputs)], str(out), dask=cluster.scheduler_address, gather=True))
    assert all(result.content is None for result in results)
    assert not any(name.startswith(".glyphweave-part-") for name in os.listdir(out))
    assert_same_as_pool(out, pool_run)


def test_failed_files_are_one_line_each_and_the_batch_goes_on(cluster, inputs: Path, tmp_path: Path) -> None:
    results = {Path(r.file).name: r for r in run_batch([str(inputs)], str(tmp_path / "out"),
                                                       dask=cluster.scheduler_address)}
    assert [name for name, r in results.items() if r.status == "ok"] != []
    damaged, secret = results["damaged.pdf"], results["secret.pdf"]
    assert (damaged.status, damaged.exit_status) == ("failed", EXIT_UNREADABLE)
    assert (secret.status, secret.exit_status) == ("failed", EXIT_PASSWORD)
    for failed in (damaged, secret):
        assert failed.error and "\n" not in failed.error
        assert failed.output is None and failed.sha256 is None
    assert not (tmp_path / "out" / "damaged.txt").exists()
    assert not (tmp_path / "out" / "secret.txt").exists()


def test_relative_paths_are_resolved_on_the_client(cluster, inputs: Path, pool_run: Path, tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    # The workers were started in another folder: they must be given absolute paths, and the
    # results must still name the files as the caller did.
    monkeypatch.chdir(tmp_path)
    results = list(run_batch([os.path.relpath(inputs)], "rel", dask=cluster.scheduler_address))
    assert {r.file for r in results} >= {os.path.join(os.path.relpath(inputs), "hello.pdf")}
    assert outputs(tmp_path / "rel") == outputs(pool_run)


def test_a_task_that_raises_is_a_failed_line(cluster, inputs: Path, tmp_path: Path) -> None:
    def flaky(job: FileJob) -> FileResult:  # a local function: pickled by value for the workers
        if job.source.endswith("hello.pdf"):
            raise RuntimeError("the worker\nlost its footing")
        return run_job(job)

    batch = plan([str(inputs / "hello.pdf"), str(inputs / "sub")], str(tmp_path), ExtractOptions())
    results = {Path(r.file).name: r for r in run_dask(batch.jobs, address=cluster.scheduler_address,
                                                      gather=False, job_runner=flaky)}
    hello = results["hello.pdf"]
    assert hello.status == "failed" and hello.exit_status == 1
    assert hello.error == "the Dask task failed: RuntimeError: the worker lost its footing"
    assert results["two.pdf"].status == results["lines.pdf"].status == "ok"
    assert (tmp_path / "two.txt").read_bytes().startswith(b"Page one")
    assert not (tmp_path / "hello.txt").exists()


def test_gather_keeps_the_content_of_a_result_that_names_no_output(cluster, inputs: Path,
                                                                    tmp_path: Path) -> None:
    # A job runner that writes no file (the glyph scan) sends its findings back in the content.
    def findings(job: FileJob) -> FileResult:
        return FileResult(file=job.source, status="ok", content=f"found in {os.path.basename(job.source)}")

    batch = plan([str(inputs / "hello.pdf")], str(tmp_path), ExtractOptions(), gather=True)
    [result] = run_dask(batch.jobs, address=cluster.scheduler_address, gather=True, job_runner=findings)
    assert (result.status, result.output, result.content) == ("ok", None, "found in hello.pdf")
    assert os.listdir(tmp_path) == []


def test_a_file_that_kills_its_worker_is_a_failed_line(cluster, inputs: Path, tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    def crash(job: FileJob) -> FileResult:
        os._exit(9)

    monkeypatch.setattr(cluster.scheduler, "allowed_failures", 0)  # give up at the first death
    batch = plan([str(inputs / "hello.pdf")], str(tmp_path), ExtractOptions())
    [result] = run_dask(batch.jobs, address=cluster.scheduler_address, gather=False, job_runner=crash)
    assert result.status == "failed" and result.exit_status == 1
    assert result.error is not None and "KilledWorker" in result.error


def test_dask_local_from_the_command_line(inputs: Path, pool_run: Path, tmp_path: Path) -> None:
    out = tmp_path / "cli"
    code = main(["batch", str(inputs / "hello.pdf"), str(inputs / "sub" / "two.pdf"), "--dask", "local",
                 "--progress", "off", "-o", str(out)])
    assert code == 0
    assert outputs(out) == {"hello.txt": (pool_run / "hello.txt").read_bytes(),
                            "two.txt": (pool_run / "sub" / "two.txt").read_bytes()}


def test_without_the_extra_the_error_says_what_to_install(inputs: Path, tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)
    with pytest.raises(GlyphweaveError, match=r"pip install glyphweave\[dask\]"):
        list(run_batch([str(inputs / "hello.pdf")], str(tmp_path), dask="local"))
