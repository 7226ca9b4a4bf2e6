"""Bombs behind filters other than a plain FlateDecode (ASCII85 over Flate, a PNG predictor, LZW,
a font stream under ASCIIHex over Flate) end quickly, in bounded memory, keeping the text
before them, with one warning naming the limit; a damaged or refused stream is said.

Each real-size bomb runs the command in a child process capped at 4 GB of address space,
whose peak resident memory must stay under 1 GB: qpdf decoded each of them whole (about
twice its size in memory, 1.3 GB for the font stream before qpdf gave up with bad_alloc).
"""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pikepdf
import pytest

from glyphweave.cli import EXIT_LIMIT, EXIT_WARNINGS, main
from glyphweave.testing.pdfs import make_pdf, type0_identity

from .filter_bombs import (
    ascii85_flate_bomb,
    damaged_hex_tounicode,
    hex_flate_tounicode,
    lzw_bomb,
    predictor_bomb,
    with_content,
)

BOMB_MB = 640
"""Large enough that decoding it whole (as qpdf did) passes 1 GB, small enough to build fast."""

_CHILD = """
import json, resource, subprocess, sys
def cap():
    resource.setrlimit(resource.RLIMIT_AS, (4 << 30, 4 << 30))
done = subprocess.run([sys.executable, "-c", "from glyphweave.cli import run; run()", *sys.argv[1:]],
                      preexec_fn=cap, capture_output=True, timeout=300)
print(json.dumps({"status": done.returncode, "out": done.stdout.decode("utf-8", "replace"),
                  "err": done.stderr.decode("utf-8", "replace"),
                  "peak_kb": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss}))
"""


def _run_child(*args: str) -> dict:
    """The command run in a grandchild capped at 4 GB: its status, output and peak RSS (the
    child in between has no other child, so RUSAGE_CHILDREN is the command's alone)."""
    done = subprocess.run([sys.executable, "-c", _CHILD, *args], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def _warnings(err: str) -> list[str]:
    return [line for line in err.splitlines() if line.startswith("glyphweave: warning:")]


@pytest.mark.parametrize("build", [ascii85_flate_bomb, predictor_bomb, lzw_bomb],
                         ids=["ascii85-flate", "png-predictor", "lzw"])
def test_a_content_bomb_behind_filters_is_cut_in_bounded_memory(tmp_path: Path, build):
    pdf = tmp_path / "bomb.pdf"
    pdf.write_bytes(build(BOMB_MB))
    result = _run_child("extract", str(pdf), "--strict")
    assert result["peak_kb"] < 1 << 20, f"peak RSS {result['peak_kb'] >> 10} MB"
    assert "Before the bomb" in result["out"] and "After the bomb" not in result["out"]
    assert result["status"] == EXIT_LIMIT, result["err"]
    assert _warnings(result["err"]) == [
        "glyphweave: warning: page 1: limit reached: page content cut after 63 MB: "
        "the page content limit of 64 MB reached"]


def test_a_font_stream_bomb_under_hex_and_flate_is_left_unread_with_a_limit_warning(tmp_path: Path):
    pdf = tmp_path / "font.pdf"
    pdf.write_bytes(hex_flate_tounicode(BOMB_MB))
    result = _run_child("extract", str(pdf), "--strict")
    assert result["peak_kb"] < 1 << 20, f"peak RSS {result['peak_kb'] >> 10} MB"
    assert "Hello" in result["out"]  # the font's own encoding answers instead
    assert result["status"] == EXIT_LIMIT, result["err"]
    [warning] = _warnings(result["err"])
    assert "limit reached: stream larger than the font stream limit of 64 MB" in warning


@pytest.mark.parametrize("build", [ascii85_flate_bomb, predictor_bomb, lzw_bomb],
                         ids=["ascii85-flate", "png-predictor", "lzw"])
def test_without_strict_a_cut_bomb_exits_0_with_one_limit_warning(tmp_path: Path, capsys, build):
    pdf = tmp_path / "bomb.pdf"
    pdf.write_bytes(build(8))
    assert main(["extract", str(pdf), "--max-page-mb", "2"]) == 0
    out, err = capsys.readouterr()
    assert "Before the bomb" in out and "After the bomb" not in out
    assert err.splitlines() == ["glyphweave: warning: page 1: limit reached: page content cut after 1 MB: "
                                "the page content limit of 2 MB reached"]
    assert main(["extract", str(pdf), "--max-page-mb", "2", "--strict"]) == EXIT_LIMIT


def test_a_damaged_font_stream_keeps_what_came_before_and_counts_for_strict(tmp_path: Path, capsys):
    cmap = (b"/CIDInit /ProcSet findresource begin 12 dict begin begincmap\n"
            b"1 begincodespacerange <00> <FF> endcodespacerange\n"
            b"1 beginbfchar <48> <0058> endbfchar\nendcmap end end\n")
    pdf = tmp_path / "damaged.pdf"
    pdf.write_bytes(damaged_hex_tounicode(cmap))
    assert main(["extract", str(pdf)]) == 0
    out, err = capsys.readouterr()
    assert out.startswith("Xello")  # the CMap before the damage maps H to X
    [warning] = err.splitlines()
    assert "ToUnicode CMap damaged (character out of range during base Hex decode)" in warning
    assert main(["extract", str(pdf), "--strict"]) == EXIT_WARNINGS


def test_an_unreadable_font_program_is_said_not_silent(tmp_path: Path, capsys):
    pdf = pikepdf.open(io.BytesIO(make_pdf(b"BT /F1 12 Tf 72 700 Td <00410042> Tj ET",
                                           fonts={"F1": type0_identity()})))
    font = pdf.pages[0].obj.Resources.Font.F1.DescendantFonts[0]
    program = pikepdf.Stream(pdf, b"not LZW data at all")
    program.Filter = pikepdf.Name.LZWDecode
    program.DecodeParms = pikepdf.Dictionary(EarlyChange=7)  # a value qpdf refuses too
    font.FontDescriptor.FontFile2 = program
    path = tmp_path / "font.pdf"
    pdf.save(path)
    main(["extract", str(path)])
    _out, err = capsys.readouterr()
    assert "unreadable font program (/EarlyChange 7 is neither 0 nor 1)" in err
    assert main(["extract", str(path), "--strict"]) == EXIT_WARNINGS


def test_an_image_filter_on_content_is_left_to_qpdf_only_when_small(tmp_path: Path, capsys):
    large = tmp_path / "large.pdf"
    large.write_bytes(with_content(b"\xff\xd8" + bytes(20_000), pikepdf.Name.DCTDecode))
    assert main(["extract", str(large), "--max-page-mb", "2", "--strict"]) == EXIT_LIMIT
    err = capsys.readouterr().err
    assert "limit reached: a stream of 20002 encoded bytes under /DCTDecode is not decoded" in err
    small = tmp_path / "small.pdf"
    small.write_bytes(with_content(b"\xff\xd8" + bytes(200), pikepdf.Name.DCTDecode))
    assert main(["extract", str(small), "--max-page-mb", "2", "--strict"]) == EXIT_WARNINGS
    err = capsys.readouterr().err
    assert "page content unreadable" in err and "limit reached" not in err  # qpdf's own refusal
