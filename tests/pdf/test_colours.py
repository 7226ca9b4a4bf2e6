"""The fill and stroke colours of painted text, recorded per glyph as RGB (pdf/colours.py)."""

from __future__ import annotations

import io
import json

import pikepdf
import pytest

import glyphweave
from glyphweave.cli import main
from glyphweave.pdf.colours import components, to_rgb
from glyphweave.testing.pdfs import make_pdf


def _colours(content: bytes, data: bytes | None = None) -> list[tuple[str, object, object]]:
    with glyphweave.open(data if data is not None else make_pdf(content)) as doc:
        return [(g.text, g.fill_color, g.stroke_color) for g in doc.pages[0].glyphs(raw=True)]


def _show(text: str) -> bytes:
    return b"BT /F1 12 Tf 72 700 Td (" + text.encode() + b") Tj ET\n"


def test_black_until_a_colour_is_set():
    assert _colours(_show("A")) == [("A", (0.0, 0.0, 0.0), (0.0, 0.0, 0.0))]


@pytest.mark.parametrize(("operator", "rgb"), [
    (b"0.5 g", (0.5, 0.5, 0.5)), (b"1 0 0 rg", (1.0, 0.0, 0.0)), (b"0 0 0 1 k", (0.0, 0.0, 0.0)),
    (b"0 1 1 0 k", (1.0, 0.0, 0.0)), (b"/DeviceRGB cs 0 0.5 1 sc", (0.0, 0.5, 1.0)),
    (b"/DeviceGray cs", (0.0, 0.0, 0.0)), (b"2 -1 0.25 rg", (1.0, 0.0, 0.25)),
])
def test_device_colours_as_rgb(operator: bytes, rgb: tuple[float, float, float]):
    [(_text, fill, _stroke)] = _colours(operator + b"\n" + _show("A"))
    assert fill == pytest.approx(rgb)


def test_stroke_colour_and_the_graphics_state_stack():
    content = b"0 0 1 RG 1 1 1 rg q 1 0 0 rg " + _show("A") + b"Q " + _show("B")
    assert _colours(content) == [("A", (1.0, 0.0, 0.0), (0.0, 0.0, 1.0)), ("B", (1.0, 1.0, 1.0), (0.0, 0.0, 1.0))]


def test_colours_of_a_drawing_in_a_saved_state_end_with_it():
    # a figure colouring each path in its own q ... Q (stepped over whole), and one at the top level
    figure = b"q 1 0 0 rg 0 0 10 10 re f Q q 0 0 1 RG 0.5 g 5 5 m 20 20 l S Q "
    assert _colours(b"0 1 0 rg " + figure + _show("A")) == [("A", (0.0, 1.0, 0.0), (0.0, 0.0, 0.0))]
    assert _colours(figure + b"0 0 1 rg 0 0 5 5 re f " + _show("B")) == [("B", (0.0, 0.0, 1.0), (0.0, 0.0, 0.0))]
    # the same colours met again are the same record, converted once per page
    assert _colours(b"0.5 g " + _show("C") + b"0 g 0.5 g " + _show("D"))[1][1] == (0.5, 0.5, 0.5)


def test_spaces_without_a_plain_conversion_say_none():
    # A pattern, and operands that do not fit the space (a bad sc), give None, not a guess.
    assert _colours(b"/Pattern cs /P1 scn " + _show("A"))[0][1] is None
    assert _colours(b"/DeviceRGB cs 0.5 sc " + _show("A"))[0][1] is None
    assert _colours(b"/Nope cs 0.5 sc " + _show("A"))[0][1] is None


def test_an_icc_space_from_the_resources_reads_as_its_components():
    data = make_pdf(b"/CS0 cs 0.2 0.4 0.6 sc " + _show("A"))
    pdf = pikepdf.open(io.BytesIO(data))
    icc = pdf.make_stream(b"", N=3)
    pdf.pages[0].obj.Resources.ColorSpace = pikepdf.Dictionary(CS0=pikepdf.Array([pikepdf.Name.ICCBased, icc]))
    out = io.BytesIO()
    pdf.save(out)
    assert _colours(b"", out.getvalue())[0][1] == pytest.approx((0.2, 0.4, 0.6))


def test_the_conversions():
    assert components(pikepdf.Name.DeviceCMYK) == 4
    assert components(pikepdf.Array([pikepdf.Name.Separation, pikepdf.Name.All])) == 0
    assert to_rgb([0.1, 0.2, 0.3, 0.4], 4) == pytest.approx((0.5, 0.4, 0.3))
    assert to_rgb([float("nan")], 1) == (0.0, 0.0, 0.0)
    assert to_rgb(["x"], 1) is None


def test_the_glyphs_command_prints_the_colours(tmp_path, capsys):
    path = tmp_path / "red.pdf"
    path.write_bytes(make_pdf(b"1 0 0 rg " + _show("A")))
    assert main(["glyphs", str(path)]) == 0
    record = json.loads(capsys.readouterr().out.splitlines()[0])
    assert record["fill_color"] == [1.0, 0.0, 0.0] and record["stroke_color"] == [0.0, 0.0, 0.0]
