"""A third-party plugin package written from the docs alone: a decoder for a custom symbol font,
a filter with a ranged option on the size on the page, an assembler with structured output.

The package is written to a temporary folder and installed (faked) under its own distribution,
then used through the command line and tested with the kit, as its author would.
"""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest

from glyphweave.cli import EXIT_PLUGIN, main
from glyphweave.testing import extract_text, fake_entry_point_distribution
from glyphweave.testing.pdfs import helvetica, make_pdf, text_at

PACKAGE = '''
"""glyphweave-acme: Acme's arrow font, small-print removal, and lines with boxes."""

from collections.abc import Sequence

from glyphweave.plugin import (
    Assembled, Assembler, Decoder, Filter, FontInfo, Option, PageContext, hookimpl, strip_subset_prefix,
)

ARROWS = {ord("l"): "\\u2190", ord("u"): "\\u2191", ord("r"): "\\u2192", ord("d"): "\\u2193"}


class AcmeArrows(Decoder):
    """Acme Arrows, a symbol font whose files carry no ToUnicode map."""

    NAME = "acme-arrows"

    def decode(self, font: FontInfo, code: bytes, cid: int | None) -> str | None:
        if strip_subset_prefix(font.base_font) != "AcmeArrows" or len(code) != 1:
            return None
        return ARROWS.get(code[0])


class SmallPrint(Filter):
    """Drop glyphs set smaller than min_size points on the page."""

    NAME = "small-print"
    OPTIONS = {"min_size": Option(default=5.0, minimum=0.0, maximum=72.0, doc="Smallest size kept, in points.")}

    def apply(self, page: PageContext, indices: Sequence[int]) -> list[int]:
        sizes = page.table.page_size
        return [i for i in indices if sizes[i] >= self.min_size]


class Lines(Assembler):
    """One line per baseline, with its box, as data."""

    NAME = "lines"

    def assemble(self, page: PageContext, indices: Sequence[int]) -> Assembled:
        t = page.table
        lines: dict[float, list[int]] = {}
        for i in indices:
            lines.setdefault(round(t.oy[i], 1), []).append(i)
        data = [{"text": "".join(t.text[i] for i in members),
                 "box": [min(t.ox[i] for i in members), y, max(t.ex[i] for i in members), y + t.height[members[0]]]}
                for y, members in sorted(lines.items(), reverse=True)]
        return Assembled(text="\\n".join(line["text"] for line in data) + "\\n", data={"lines": data})


@hookimpl
def glyphweave_register_decoders():
    return [AcmeArrows]


@hookimpl
def glyphweave_register_filters():
    return [SmallPrint]


@hookimpl
def glyphweave_register_assemblers():
    return [Lines]
'''

PROFILE = """
[profile]
extends = "default"
decoders = ["acme-arrows", "..."]
[profile.filters]
append = ["small-print"]
"""


@pytest.fixture
def acme(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    (tmp_path / "glyphweave_acme.py").write_text(textwrap.dedent(PACKAGE))
    monkeypatch.syspath_prepend(str(tmp_path))
    fake_entry_point_distribution(monkeypatch, "glyphweave-acme", "1.0", {"acme": "glyphweave_acme"})
    (tmp_path / "acme.toml").write_text(PROFILE)
    pdf = tmp_path / "doc.pdf"
    pdf.write_bytes(make_pdf(
        text_at("Go ", 72, 700, size=12) + b"\n" + text_at("lurd", 92, 700, size=12, font="F2") + b"\n"
        + text_at("terms apply", 72, 100, size=1, matrix=(3, 0, 0, 3)),
        fonts={"F1": helvetica(widths=True), "F2": helvetica(widths=True, base_font="ABCDEF+AcmeArrows")},
    ))
    return tmp_path


def test_the_decoder_and_the_filter_through_the_cli(acme: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["extract", str(acme / "doc.pdf"), "--profile", str(acme / "acme.toml")]) == 0
    assert capsys.readouterr().out == "Go \u2190\u2191\u2192\u2193\n\f"  # the 3-point small print is gone


def test_the_structured_assembler_in_jsonl(acme: Path, capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["extract", str(acme / "doc.pdf"), "--profile", str(acme / "acme.toml"), "--mode", "lines",
            "--format", "jsonl"]
    assert main(argv) == 0
    (record,) = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert record["text"] == "Go \u2190\u2191\u2192\u2193\n"
    (line,) = record["data"]["lines"]
    assert line["text"] == "Go \u2190\u2191\u2192\u2193" and line["box"][0] == 72.0


def test_the_listing_shows_the_package_and_its_ranged_option(acme: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["plugins"]) == 0
    out = capsys.readouterr().out
    assert "small-print" in out and "glyphweave-acme 1.0" in out
    assert "min_size = 5.0  (float, >= 0.0, <= 72.0)" in out


def test_an_option_out_of_range_is_one_line(acme: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (acme / "bad.toml").write_text(PROFILE + "[options.small-print]\nmin_size = 100\n")
    assert main(["extract", str(acme / "doc.pdf"), "--profile", str(acme / "bad.toml")]) == EXIT_PLUGIN
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "option 'min_size' of 'small-print' must be at most 72.0, got 100.0" in err


def test_with_the_kit(acme: Path) -> None:
    import glyphweave_acme

    text = extract_text((acme / "doc.pdf").read_bytes(), plugins=[glyphweave_acme], profile=str(acme / "acme.toml"))
    assert text == "Go \u2190\u2191\u2192\u2193\n\f"
