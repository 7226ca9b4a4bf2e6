"""``glyphweave extract --jobs N``: one document's pages on several processes, with output,
statistics, warnings and exit statuses identical to ``--jobs 1``.

The synthetic book is built in the test: 40 pages sharing two fonts whose ToUnicode CMaps
are over a tiny font-stream limit (a warning a document reports once, on the font's first
page), a decoder plugin that fails on some letters (a component failure, reported once),
an assembler plugin with structured data that can fail on purpose, and pages of unequal
cost. Nothing here asserts a duration.
"""

from __future__ import annotations

import io
import json
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pikepdf
import pytest
from pikepdf import Array, Dictionary, Name

from glyphweave.arguments import jobs
from glyphweave.batch import jobs as job_choice
from glyphweave.batch import pages as split
from glyphweave.cli import main
from glyphweave.exits import EXIT_LIMIT, EXIT_PLUGIN
from glyphweave.testing.pdfs import Page, make_pdf, text_at, tounicode_cmap, truetype

PAGES = 40
SHARED = Path("/work/shared")

PLUGIN = '''
"""Components for the page-split tests: a decoder that fails on some letters (and is slow on
one), an assembler with structured data that fails where a page says BOOM."""

import time

from glyphweave.plugin import Assembled, Assembler, Decoder, hookimpl


class Flaky(Decoder):
    NAME = "flaky"

    def decode(self, font, code, cid):
        if code == b"Q":
            raise ValueError("no Q here")
        if code == b"Z":
            raise KeyError("zed")
        if code == b"~":
            time.sleep(0.4)  # the first chunk finishes last
        return None


class Tally(Assembler):
    NAME = "tally"

    def assemble(self, page, indices):
        table = page.table
        text = "".join(page.placeholder if table.unresolved(i) else table.text[i] for i in indices)
        if "BOOM" in text:
            raise RuntimeError("boom on purpose")
        return Assembled(text=text, data={"glyphs": len(indices), "page": page.number})


@hookimpl
def glyphweave_register_decoders():
    return [Flaky]


@hookimpl
def glyphweave_register_assemblers():
    return [Tally]
'''

PROFILE = """
[profile]
name = "split-test"
extends = "default"
decoders = ["flaky", "tounicode", "encoding", "standard-fallback"]

[limits]
font_stream_mb = 0.001
{extra}
"""


@pytest.fixture(scope="module")
def plugin_dir(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    folder = tmp_path_factory.mktemp("split_plugin")
    (folder / "split_test_plugin.py").write_text(textwrap.dedent(PLUGIN), encoding="utf-8")
    sys.path.insert(0, str(folder))
    yield folder
    sys.path.remove(str(folder))
    sys.modules.pop("split_test_plugin", None)


def profile(folder: Path, extra: str = "") -> str:
    path = folder / f"split-{abs(hash(extra))}.toml"
    path.write_text(PROFILE.format(extra=extra), encoding="utf-8")
    return str(path)


def big_cmap(offset: int) -> bytes:
    """A ToUnicode CMap over 1 KB (the tests' font stream limit), so reading it warns."""
    return tounicode_cmap({code: chr(code + offset) for code in range(32, 127)})


def page_content(number: int, marks: str = "") -> bytes:
    """Page ``number`` (1-based): a few lines, more on every seventh page (unequal cost); F2
    appears from page 25 on; ``marks`` adds a line of its own."""
    lines = 3 + (12 if number % 7 == 0 else 0)
    parts = [text_at(f"Page {number} line {k} of the book", 72, 720 - 14 * k) for k in range(lines)]
    if number >= 25:
        parts.append(text_at(f"second font on {number}", 72, 100, font="F2"))
    if marks:
        parts.append(text_at(marks, 72, 80))
    return b"\n".join(parts)


def book(path: Path, marks: dict[int, str] | None = None, *, encryption: pikepdf.Encryption | None = None) -> Path:
    marks = {3: "Quiet Q", 17: "Q again", 22: "Zero Z", 30: "Q and Z", **(marks or {})}
    contents = [page_content(n, marks.get(n, "")) for n in range(1, PAGES + 1)]
    fonts = {"F1": truetype(tounicode=big_cmap(0)), "F2": truetype(tounicode=big_cmap(0), base_font="GHIJKL+Other")}
    path.write_bytes(make_pdf(contents[0], fonts=fonts, extra_pages=[Page(c) for c in contents[1:]],
                              encryption=encryption))
    return path


@pytest.fixture()
def pdf(tmp_path: Path) -> Path:
    return book(tmp_path / "book.pdf")


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def same_for_jobs(capsys: pytest.CaptureFixture[str], *argv: str, jobs: tuple[str, ...] = ("2", "3")
                  ) -> tuple[int, str, str]:
    """Run ``argv`` with ``--jobs 1`` and each of ``jobs``; all three results must be equal."""
    expected = run(capsys, *argv, "--jobs", "1")
    for n in jobs:
        assert run(capsys, *argv, "--jobs", n) == expected, f"--jobs {n} differs from --jobs 1"
    return expected


def test_split_really_happens(pdf: Path, plugin_dir: Path, monkeypatch: pytest.MonkeyPatch):
    """The comparisons below would pass trivially if nothing were split."""
    started: list[int] = []
    real = split._Worker.__init__

    def counting(self, *args, **kwargs):
        started.append(1)
        real(self, *args, **kwargs)

    monkeypatch.setattr(split._Worker, "__init__", counting)
    assert main(["extract", str(pdf), "--jobs", "3", "-o", str(pdf.with_suffix(".txt"))]) == 0
    assert len(started) == 3


@pytest.mark.parametrize("fmt", ["text", "jsonl"])
def test_identical_output_and_stats(capsys: pytest.CaptureFixture[str], pdf: Path, plugin_dir: Path, fmt: str):
    code, out, err = same_for_jobs(capsys, "extract", str(pdf), "-p", "split_test_plugin",
                                   "--profile", profile(plugin_dir), "--format", fmt, "--stats")
    assert code == 0
    assert out.count("Page 40 line 0") == 1
    report = json.loads(err.splitlines()[0])
    assert report["pages"] == PAGES
    messages = report["warning_messages"]
    # Each once-per-document event once, on the page one process reports it on.
    fonts = [m for m in messages if "ToUnicode CMap" in m]
    assert [m.split(":")[0] for m in fonts] == ["page 1", "page 25"], messages
    failures = [m for m in messages if "flaky" in m]
    assert [m.split(":")[0] for m in failures] == ["page 3", "page 22"], messages
    assert report["warnings"] == len(messages) == 4
    # The component failures also end the report, once each.
    assert [line for line in err.splitlines()[1:] if "flaky" in line] == [f"glyphweave: warning: {m}" for m in failures]


def test_strict_exit_status_is_the_same(capsys: pytest.CaptureFixture[str], pdf: Path, plugin_dir: Path):
    code, _, err = same_for_jobs(capsys, "extract", str(pdf), "-p", "split_test_plugin",
                                 "--profile", profile(plugin_dir), "--strict")
    assert code == EXIT_LIMIT  # the font stream limit is among the warnings
    assert "4 warning(s) (--strict)" in err


def test_page_ranges_in_order(capsys: pytest.CaptureFixture[str], pdf: Path, plugin_dir: Path):
    code, out, _ = same_for_jobs(capsys, "extract", str(pdf), "--pages", "3-9,20-", "--format", "jsonl",
                                 "--stats")
    numbers = [json.loads(line)["page"] for line in out.splitlines()]
    assert code == 0 and numbers == [*range(3, 10), *range(20, PAGES + 1)]
    # A page asked for twice is extracted twice, as one process does.
    _, out, _ = same_for_jobs(capsys, "extract", str(pdf), "--pages", "30-,2,30-33,1", "--stats")
    assert out.count("Page 30 line 0") == 2


def test_order_kept_when_a_later_chunk_finishes_first(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                      plugin_dir: Path):
    slow = book(tmp_path / "slow.pdf", {1: "~ slow start"})
    code, out, _ = same_for_jobs(capsys, "extract", str(slow), "-p", "split_test_plugin",
                                 "--profile", profile(plugin_dir), "--stats", jobs=("2",))
    assert code == 0
    assert [line.split(" line")[0] for line in out.split("\f")[:-1] for line in [line.strip().splitlines()[0]]] == [
        f"Page {n}" for n in range(1, PAGES + 1)]


def test_structured_data_in_jsonl(capsys: pytest.CaptureFixture[str], pdf: Path, plugin_dir: Path):
    code, out, _ = same_for_jobs(capsys, "extract", str(pdf), "-p", "split_test_plugin", "--mode", "tally",
                                 "--format", "jsonl", "--stats")
    records = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and records[4]["data"] == {"glyphs": records[4]["stats"]["visible"], "page": 4}


def test_failing_page_fails_the_same_way(capsys: pytest.CaptureFixture[str], tmp_path: Path, plugin_dir: Path):
    """An assembler that raises on page 23: the pages before it are written, then the same
    one-line error and exit status, whichever worker met it."""
    broken = book(tmp_path / "broken.pdf", {23: "BOOM"})
    code, out, err = same_for_jobs(capsys, "extract", str(broken), "-p", "split_test_plugin", "--mode", "tally")
    assert code == EXIT_PLUGIN
    assert out.count("\f") == 22 and "BOOM" not in out
    assert "page 23" in err and "boom on purpose" in err


def test_page_limits(capsys: pytest.CaptureFixture[str], pdf: Path, plugin_dir: Path):
    """A page cut by the page content limit is reported on that page, by whichever worker."""
    code, _, err = same_for_jobs(capsys, "extract", str(pdf), "--max-page-mb", "0.0006", "--stats", "--strict")
    report = json.loads(err.splitlines()[0])
    limited = [m for m in report["warning_messages"] if "limit reached" in m]
    assert code == EXIT_LIMIT and limited
    assert {m.split(":")[0] for m in limited} == {f"page {n}" for n in range(7, PAGES + 1, 7)}


def test_document_budget_running_short(capsys: pytest.CaptureFixture[str], pdf: Path, plugin_dir: Path):
    """The document's content budget runs out part-way: the parent takes over from where a
    worker's budget could differ from one process's, and the empty pages match."""
    limits = "page_content_mb = 0.001\ndocument_content_mb = 0.004"
    code, out, err = same_for_jobs(capsys, "extract", str(pdf), "-p", "split_test_plugin",
                                   "--profile", profile(plugin_dir, limits), "--format", "jsonl", "--stats")
    records = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and len(records) == PAGES
    assert records[0]["text"] and not records[-1]["text"]
    assert any("document" in w for w in records[-1]["stats"]["warnings"])


def tagged_book(path: Path) -> Path:
    """40 tagged pages, one paragraph each, and a branch of the structure tree nested six deep."""
    def content(n: int) -> bytes:
        return f"/P <</MCID 0>> BDC BT /F1 12 Tf 1 0 0 1 72 700 Tm (Tagged page {n}) Tj ET EMC\n".encode()

    pdf = pikepdf.open(io.BytesIO(make_pdf(content(1), extra_pages=[Page(content(n)) for n in range(2, PAGES + 1)])))
    root = pdf.make_indirect(Dictionary(Type=Name.StructTreeRoot))
    kids = []
    for index, page in enumerate(pdf.pages):
        page.obj.StructParents = index
        kids.append(pdf.make_indirect(Dictionary(Type=Name.StructElem, S=Name.P, Pg=page.obj, K=Array([0]), P=root)))
    parent = root
    for _ in range(6):
        div = pdf.make_indirect(Dictionary(Type=Name.StructElem, S=Name.Div, P=parent, K=Array([])))
        if parent is root:
            kids.append(div)
        else:
            parent.K = Array([div])
        parent = div
    root.K = Array(kids)
    root.ParentTree = pdf.make_indirect(Dictionary(Nums=Array([])))
    pdf.Root.StructTreeRoot = root
    pdf.Root.MarkInfo = Dictionary(Marked=True)
    pdf.save(path)
    return path


def test_structure_tree_warnings_once(capsys: pytest.CaptureFixture[str], tmp_path: Path, plugin_dir: Path):
    """A damaged structure tree is reported on the first page it serves, not once per worker."""
    path = tagged_book(tmp_path / "tagged.pdf")
    body = '[profile]\nextends = "default"\n[limits]\nstructure_depth = 3\n'
    (tmp_path / "shallow.toml").write_text(body, encoding="utf-8")
    code, _, err = same_for_jobs(capsys, "extract", str(path), "--profile", str(tmp_path / "shallow.toml"),
                                 "--format", "jsonl", "--stats")
    report = json.loads(err.splitlines()[0])
    assert code == 0 and report["served"] == {"structure": PAGES}
    assert [m.split(": ")[0] for m in report["warning_messages"]] == ["page 1"]
    assert "structure tree: limit reached" in report["warning_messages"][0]


def test_encrypted_file(capsys: pytest.CaptureFixture[str], tmp_path: Path, plugin_dir: Path):
    secret = book(tmp_path / "secret.pdf", encryption=pikepdf.Encryption(user="u", owner="o"))
    code, out, _ = same_for_jobs(capsys, "extract", str(secret), "--password", "u", "--stats")
    assert code == 0 and "Page 40 line 0" in out


def test_stdin_falls_back_to_one_process(capsys: pytest.CaptureFixture[str], pdf: Path,
                                         monkeypatch: pytest.MonkeyPatch):
    expected = run(capsys, "extract", str(pdf), "--jobs", "1")

    class Stdin:
        buffer = io.BytesIO(pdf.read_bytes())

    monkeypatch.setattr(sys, "stdin", Stdin())
    monkeypatch.setattr(split, "PageSplit", None)  # would fail if used
    assert run(capsys, "extract", "-", "--jobs", "2") == expected


def test_jobs_option():
    assert jobs("auto") is None and jobs("3") == 3
    with pytest.raises(SystemExit) as exc:
        main(["extract", "x.pdf", "--jobs", "0"])
    assert exc.value.code == 2


def test_auto_default(pdf: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(job_choice, "cores", lambda: 2)
    assert job_choice.choose_jobs(None, job_choice.AUTO_MIN_PAGES - 1, str(pdf)) == 1
    assert job_choice.choose_jobs(None, job_choice.AUTO_MIN_PAGES, str(pdf)) == 2
    assert job_choice.choose_jobs(8, 10, str(pdf)) == 3  # no more processes than chunks (of 4 pages at least)
    assert job_choice.choose_jobs(2, 100, "-") == 1
    assert job_choice.choose_jobs(1, 1000, str(pdf)) == 1


def bench_book() -> Path | None:
    folder = SHARED / "bench" / "pdfs"
    found = sorted(folder.glob("*freeculture*.pdf")) if folder.is_dir() else []
    return found[0] if found else None


@pytest.mark.skipif(bench_book() is None, reason="the shared bench corpus is not here")
@pytest.mark.parametrize("fmt", ["text", "jsonl"])
def test_real_book(capsys: pytest.CaptureFixture[str], fmt: str):
    path = bench_book()
    assert path is not None
    code, out, err = same_for_jobs(capsys, "extract", str(path), "--pages", "1-60", "--format", fmt, "--stats")
    assert code == 0 and out.count("\f" if fmt == "text" else "\n") == 60
    assert json.loads(err.splitlines()[0])["pages"] == 60
