"""The size on the page, beside the Tf operand: what a "drop tiny text" filter must read."""

from __future__ import annotations

import pytest

from glyphweave.plugin import Filter, Option
from glyphweave.testing import extract_text, make_plugin
from glyphweave.testing.pdfs import make_pdf, text_at
from pdfs import page_glyphs


def test_tf_one_scaled_by_the_text_matrix():
    (glyph,), _ = page_glyphs(text_at("A", size=1, matrix=(24, 0, 0, 24)))
    assert glyph.font_size == 1 and glyph.page_size == pytest.approx(24)
    assert glyph.to_dict()["page_size"] == pytest.approx(24)


def test_the_ctm_counts_too_and_rotation_does_not():
    (glyph,), _ = page_glyphs(b"q 0.5 0 0 0.5 0 0 cm " + text_at("A", size=20) + b" Q")
    assert glyph.page_size == pytest.approx(10)
    (turned,), _ = page_glyphs(text_at("A", size=10, matrix=(0, 1, -1, 0)))
    assert turned.page_size == pytest.approx(10)


def test_horizontal_scaling_is_not_size():
    (glyph,), _ = page_glyphs(text_at("A", size=10, matrix=(3, 0, 0, 1)))
    assert glyph.page_size == pytest.approx(10)


class DropTiny(Filter):
    """Drop glyphs smaller than min_size points on the page."""

    NAME = "drop-tiny"
    OPTIONS = {"min_size": Option(default=4.0, minimum=0.0, doc="Smallest size kept, in points.")}
    min_size: float

    def apply(self, page, indices):  # type: ignore[no-untyped-def]
        sizes = page.table.page_size
        return [i for i in indices if sizes[i] >= self.min_size]


def test_a_drop_tiny_filter_keeps_body_text_set_at_1_tf(tmp_path):
    # Body text at 1 Tf scaled up by its matrix, small print at an honest 3 Tf.
    pdf = make_pdf(text_at("Body", 72, 700, size=1, matrix=(11, 0, 0, 11)) + b"\n"
                   + text_at("fine print", 72, 100, size=3))
    profile = tmp_path / "p.toml"
    profile.write_text('[profile]\nextends = "default"\n[profile.filters]\nappend = ["drop-tiny"]\n')
    plugin = make_plugin(filters=[DropTiny], name="tiny")
    assert extract_text(pdf, plugins=[plugin], profile=str(profile), separator="") == "Body\n"
