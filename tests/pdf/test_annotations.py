"""Annotations and form fields: what a viewer shows on screen is page text (design notes,
"Annotations and form fields")."""

from __future__ import annotations

import io
import os
from collections.abc import Callable
from decimal import Decimal
from typing import Any

import pikepdf
import pytest
from pikepdf import Array, Dictionary, Name, String

from glyphweave.api import open_document
from glyphweave.core.glyph import AnnotationRef
from glyphweave.pdf.annotations import FormDefaults, appearance_matrix, page_annotations

FORM_FIELDS = "/work/shared/eval2/corpus/wp_form_fields.pdf"

Build = Callable[[pikepdf.Pdf, Any], list[Any]]


def _pdf(build: Build, *, content: bytes = b"BT /F1 12 Tf 20 250 Td (Label) Tj ET",
         acroform: dict[str, Any] | None = None, cropbox: list[float] | None = None) -> bytes:
    """A 300 × 300 page showing ``content``, with the annotations ``build(pdf, font)`` returns."""
    pdf = pikepdf.new()
    pdf.add_blank_page(page_size=(300, 300))
    page = pdf.pages[0].obj
    font = pdf.make_indirect(Dictionary(Type=Name.Font, Subtype=Name.Type1, BaseFont=Name.Helvetica,
                                        Encoding=Name.WinAnsiEncoding))
    page.Resources = Dictionary(Font=Dictionary(F1=font))
    page.Contents = pdf.make_stream(content)
    if cropbox is not None:
        page.CropBox = Array(cropbox)
    annots = build(pdf, font)
    page.Annots = annots if not isinstance(annots, list) else pdf.make_indirect(Array(annots))
    widgets = [a for a in annots if a.get("/Subtype") == Name.Widget] if isinstance(annots, (list, Array)) else []
    pdf.Root.AcroForm = Dictionary({"/Fields": Array(widgets), **(acroform or {})})
    out = io.BytesIO()
    pdf.save(out, object_stream_mode=pikepdf.ObjectStreamMode.disable)
    # what pikepdf will not write (the same length keeps the cross-reference offsets right)
    return out.getvalue().replace(b"987654.5", b"1e999999").replace(b"987654.6", b"nan     ")


def _appearance(pdf: pikepdf.Pdf, font: Any, text: bytes, bbox: tuple[float, ...] = (0, 0, 150, 20),
                **extra: Any) -> pikepdf.Stream:
    return pdf.make_stream(b"/Tx BMC BT /F1 10 Tf 2 5 Td (" + text + b") Tj ET EMC", Type=Name.XObject,
                           Subtype=Name.Form, BBox=Array(bbox), Resources=Dictionary(Font=Dictionary(F1=font)),
                           **extra)


def _widget(pdf: pikepdf.Pdf, **fields: Any) -> Any:
    fields.setdefault("Rect", Array([80, 240, 230, 260]))
    return pdf.make_indirect(Dictionary(Type=Name.Annot, Subtype=Name.Widget, **fields))


def _read(data: bytes, **kwargs: Any) -> tuple[str, list[Any], list[str]]:
    with open_document(data, **kwargs) as doc:
        page = doc.pages[0]
        return page.text(), page.glyphs(), [w.message for w in page.stats.warnings]


def _annotated(glyphs: list[Any]) -> str:
    return "".join(g.text for g in glyphs if g.annotation is not None)


def test_a_widget_appearance_is_painted_after_the_content_with_its_provenance():
    def build(pdf, font):
        ap = _appearance(pdf, font, b"Alice")
        return [_widget(pdf, FT=Name.Tx, T=String("name"), V=String("Alice"), AP=Dictionary(N=ap))]

    text, glyphs, warnings = _read(_pdf(build))
    assert text.split() == ["Label", "Alice"]
    assert warnings == []
    refs = {g.annotation for g in glyphs if g.annotation is not None}
    assert refs == {AnnotationRef(subtype="Widget", field="name")}
    first = next(g for g in glyphs if g.annotation is not None)
    # Algorithm 8.1: the form's BBox (0 0 150 20) maps onto the Rect (80 240 230 260)
    assert first.origin == pytest.approx((82, 245))
    assert first.to_dict()["annotation"] == {"subtype": "Widget", "field": "name", "value": False}


def test_the_appearance_is_placed_by_its_bbox_and_matrix_onto_the_rect():
    # A form rotated by its /Matrix: the transformed BBox is what maps onto the Rect.
    a = appearance_matrix((0, 0, 20, 100), (0, 1, -1, 0, 0, 0), (10, 10, 110, 30))
    assert a == pytest.approx((1, 0, 0, 1, 110, 10))
    assert appearance_matrix((0, 0, 0, 10), (1, 0, 0, 1, 0, 0), (5, 5, 5, 25)) == pytest.approx((1, 0, 0, 2, 5, 5))


def test_a_value_without_appearance_is_laid_out_from_a_parent_field():
    def build(pdf, font):
        parent = pdf.make_indirect(Dictionary(FT=Name.Tx, T=String("club"), V=String("Northside"),
                                              DA=String("/Helv 10 Tf 0 g")))
        root = pdf.make_indirect(Dictionary(T=String("form"), Kids=Array([parent])))
        parent.Parent = root
        widget = _widget(pdf, Parent=parent, Rect=Array([80, 240, 230, 260]))
        parent.Kids = Array([widget])
        return [widget]

    text, glyphs, _ = _read(_pdf(build))
    assert text.split() == ["Label", "Northside"]
    value = [g for g in glyphs if g.annotation is not None]
    assert {g.annotation for g in value} == {AnnotationRef(subtype="Widget", field="form.club", value=True)}
    assert {g.decoded_by for g in value} == {"field-value"}
    assert value[0].font_size == 10 and value[0].font.base_font == "Helvetica"
    assert value[0].origin[0] == pytest.approx(82)  # 2 pt in from the border
    # centred vertically: the ascent-descent box sits in the middle of the rect
    low, high = value[0].quad[0][1], value[0].quad[2][1]
    assert (low + high) / 2 == pytest.approx(250, abs=0.01)


def test_auto_size_fits_the_rect_height_and_multiline_values_split_on_line_breaks():
    def build(pdf, font):
        return [_widget(pdf, FT=Name.Tx, T=String("a"), V=String("Hi"), DA=String("/Helv 0 Tf"),
                        Rect=Array([10, 200, 290, 230])),
                _widget(pdf, FT=Name.Tx, T=String("b"), V=String("one\rtwo\r\nthree"), Ff=1 << 12,
                        DA=String("/Helv 9 Tf"), Rect=Array([10, 20, 290, 120]))]

    text, glyphs, _ = _read(_pdf(build, content=b""))
    assert text.split() == ["Hi", "one", "two", "three"]
    auto = [g for g in glyphs if g.annotation.field == "a"]
    assert auto[0].font_size == pytest.approx(26 / 0.925)
    lines = sorted({round(g.origin[1], 3) for g in glyphs if g.annotation.field == "b"}, reverse=True)
    assert len(lines) == 3 and lines[0] < 120 - 2


def test_a_choice_field_shows_the_display_text_of_its_selected_option():
    def build(pdf, font):
        return [_widget(pdf, FT=Name.Ch, Ff=1 << 17, T=String("section"), V=String("b"),
                        Opt=Array([Array([String("a"), String("Court A")]), Array([String("b"), String("Court B")])]),
                        DA=String("/Helv 10 Tf"))]

    text, _, _ = _read(_pdf(build))
    assert text.split() == ["Label", "Court", "B"]


def test_check_boxes_password_fields_hidden_and_noview_annotations_show_nothing():
    def build(pdf, font):
        check = pdf.make_stream(b"BT /F1 10 Tf 2 2 Td (4) Tj ET", Type=Name.XObject, Subtype=Name.Form,
                                BBox=Array([0, 0, 12, 12]), Resources=Dictionary(Font=Dictionary(F1=font)))
        return [
            _widget(pdf, FT=Name.Btn, T=String("agree"), V=Name.Yes, AS=Name.Yes,
                    AP=Dictionary(N=Dictionary(Yes=check, Off=pdf.make_stream(b""))), Rect=Array([10, 10, 22, 22])),
            _widget(pdf, FT=Name.Tx, Ff=1 << 13, T=String("pin"), V=String("secret"),
                    AP=Dictionary(N=_appearance(pdf, font, b"secret"))),
            _widget(pdf, FT=Name.Tx, T=String("hidden"), V=String("hidden"), F=2),
            _widget(pdf, FT=Name.Tx, T=String("noview"), V=String("noview"), F=32),
        ]

    text, glyphs, _ = _read(_pdf(build))
    assert text.split() == ["Label"]
    assert _annotated(glyphs) == ""


def test_free_text_and_stamp_appearances_are_text_other_standard_types_are_not():
    def build(pdf, font):
        def annot(subtype, words, **extra):
            return pdf.make_indirect(Dictionary(Type=Name.Annot, Subtype=Name(subtype), Rect=Array([20, 100, 170, 120]),
                                                AP=Dictionary(N=_appearance(pdf, font, words)), **extra))

        return [annot("/FreeText", b"Note"), annot("/Stamp", b"APPROVED"), annot("/Square", b"square"),
                annot("/Custom", b"custom"), annot("/Custom", b"invisible", F=1)]

    _, glyphs, _ = _read(_pdf(build))
    subtypes = {g.annotation.subtype for g in glyphs if g.annotation is not None}
    assert subtypes == {"FreeText", "Stamp", "Custom"}
    assert "square" not in _annotated(glyphs) and "invisible" not in _annotated(glyphs)


def test_need_appearances_lays_out_the_value_instead_of_a_stale_appearance():
    def build(pdf, font):
        return [_widget(pdf, FT=Name.Tx, T=String("t"), V=String("Fresh"), DA=String("/Helv 10 Tf"),
                        AP=Dictionary(N=_appearance(pdf, font, b"Stale")))]

    assert _read(_pdf(build))[0].split() == ["Label", "Stale"]
    assert _read(_pdf(build, acroform={"/NeedAppearances": True}))[0].split() == ["Label", "Fresh"]


def test_annotations_can_be_left_out():
    def build(pdf, font):
        return [_widget(pdf, FT=Name.Tx, T=String("t"), V=String("Value"), DA=String("/Helv 10 Tf"))]

    data = _pdf(build)
    assert _read(data)[0].split() == ["Label", "Value"]
    assert _read(data, annotations=False)[0].split() == ["Label"]
    with pytest.raises(Exception, match="annotations must be"):
        from glyphweave.components.profile import Profile

        Profile(name="x", decoders=("tounicode",), assembler="reading", annotations="no")  # type: ignore[arg-type]


def test_annotations_outside_the_crop_box_are_dropped_by_the_visible_box_filter():
    def build(pdf, font):
        return [_widget(pdf, FT=Name.Tx, T=String("t"), V=String("Outside"), DA=String("/Helv 10 Tf"),
                        Rect=Array([10, 10, 100, 30]))]

    text, glyphs, _ = _read(_pdf(build, cropbox=[0, 100, 300, 300]))
    assert text.split() == ["Label"]


# -- hostile input ------------------------------------------------------------------------------

def test_annots_that_are_not_an_array_warn():
    # qpdf removes such an /Annots as it reads the page, and says so; the interpreter's own
    # test (page_annotations) is for what reaches it anyway.
    data = _pdf(lambda pdf, font: Array([Name.Qq])).replace(b"/Annots [ /Qq ]", b"/Annots << /A >>")
    with open_document(data) as doc:
        assert doc.pages[0].text().split() == ["Label"]
        assert any("Annots is not an array" in w.message for w in doc.file_warnings)
    warned: list[str] = []
    assert list(page_annotations(Dictionary(Annots=Dictionary(A=1)), FormDefaults(), warned.append)) == []
    assert warned == ["page /Annots is not an array; annotations ignored"]


@pytest.mark.parametrize("rect", [[1, 2, 3], [0, 0, Decimal("987654.5"), 10], [0, 0, Decimal("987654.6"), 10],
                                  [0, 0, "a", 10]])
def test_a_rect_that_is_not_four_finite_numbers_is_skipped_with_a_warning(rect):
    def build(pdf, font):
        items = [pikepdf.String(v) if isinstance(v, str) else v for v in rect]
        return [_widget(pdf, FT=Name.Tx, T=String("t"), V=String("Value"), Rect=Array(items))] * 3

    text, _, warnings = _read(_pdf(build))
    assert text.split() == ["Label"]
    assert sum("/Rect is not four finite numbers" in w for w in warnings) == 1
    assert any("2 more annotations with an unusable /Rect" in w for w in warnings)


def test_an_appearance_that_paints_itself_is_cut_at_the_loop():
    def build(pdf, font):
        ap = _appearance(pdf, font, b"Loop")
        ap.write(b"BT /F1 10 Tf 2 5 Td (Loop) Tj ET /Me Do")
        ap.Resources.XObject = Dictionary(Me=ap)
        return [pdf.make_indirect(Dictionary(Type=Name.Annot, Subtype=Name.FreeText, Rect=Array([0, 0, 150, 20]),
                                             AP=Dictionary(N=ap)))]

    text, _, warnings = _read(_pdf(build))
    assert text.split() == ["Label", "Loop"]
    assert any("paints itself" in w for w in warnings)


def test_a_field_tree_that_loops_warns_and_still_shows_the_value():
    def build(pdf, font):
        a = pdf.make_indirect(Dictionary(T=String("a"), FT=Name.Tx, V=String("Looped"), DA=String("/Helv 9 Tf")))
        b = pdf.make_indirect(Dictionary(T=String("b"), Parent=a))
        a.Parent = b
        return [_widget(pdf, Parent=a)]

    text, _, warnings = _read(_pdf(build))
    assert text.split() == ["Label", "Looped"]
    assert any("loops" in w for w in warnings)


def test_a_huge_value_is_cut_with_a_warning():
    def build(pdf, font):
        return [_widget(pdf, FT=Name.Tx, T=String("t"), V=String("x" * 200_000), DA=String("/Helv 9 Tf"))]

    with open_document(_pdf(build)) as doc:
        page = doc.pages[0]
        glyphs = page.glyphs(raw=True)
        warnings = [w.message for w in page.stats.warnings]
    assert sum(g.text == "x" for g in glyphs) == 10_000
    assert any("value of 200,000 characters" in w for w in warnings)


def test_a_hundred_thousand_annotations_stay_within_the_page_limits():
    def build(pdf, font):
        ap = _appearance(pdf, font, b"S")
        stamp = pdf.make_indirect(Dictionary(Type=Name.Annot, Subtype=Name.Stamp, Rect=Array([0, 0, 10, 10]),
                                             AP=Dictionary(N=ap)))
        return pdf.make_indirect(Array([stamp] * 100_000))

    with open_document(_pdf(build), limits={"page_records_mb": 8}) as doc:
        page = doc.pages[0]
        count = len(page.table)
        warnings = [w.message for w in page.stats.warnings]
    assert 0 < count < 100_000
    assert any("page_records_mb" in w for w in warnings)


# -- a real form ---------------------------------------------------------------------------------

@pytest.mark.skipif(not os.path.exists(FORM_FIELDS), reason="shared corpus absent")
def test_the_shared_form_shows_its_values_and_no_checkbox_text():
    with open(FORM_FIELDS.replace(".pdf", ".truth.txt"), encoding="utf-8") as file:
        truth = file.read()
    values = [line.split("\t", 1)[1] for line in truth.splitlines() if "\t" in line]
    with open_document(FORM_FIELDS) as doc:
        page = doc.pages[0]
        text = page.text()
        glyphs = page.glyphs()
    for value in values:
        assert value in text
    assert text.split() == [w for w in text.split()]  # assembled without error
    fields = {g.annotation.field for g in glyphs if g.annotation is not None}
    assert "section" in fields and all(g.annotation.value for g in glyphs if g.annotation is not None)
    assert "Court B" in text and "✔" not in text and "4" not in "".join(
        g.text for g in glyphs if g.annotation is not None and g.annotation.field == "agree")


def test_field_values_are_read_beside_their_labels_not_after_the_page():
    # Labels in the content, one per line; the values are annotations, painted after the whole
    # page: each joins the line of its label, and a value with no label line of its own keeps
    # its place among the lines.
    labels = [("Name", 250), ("Club", 220), ("Phone", 190), ("Notes", 130)]
    content = b"".join(b"BT /F1 12 Tf 20 %d Td (%s) Tj ET\n" % (y, name.encode()) for name, y in labels)

    def build(pdf, font):
        values = [("name", "Alice Jones", 246), ("club", "Northside", 216), ("phone", "0161 555", 186),
                  ("extra", "Bring nets", 156)]
        return [_widget(pdf, FT=Name.Tx, T=String(t), V=String(v), DA=String("/Helv 12 Tf 0 g"),
                        Rect=Array([100, y, 280, y + 20])) for t, v, y in values]

    data = _pdf(build, content=content, acroform={"/NeedAppearances": True})
    text, _glyphs, _warnings = _read(data)
    assert text.splitlines() == ["Name Alice Jones", "Club Northside", "Phone 0161 555", "Bring nets", "Notes"]
    with open_document(data, profile="reading") as doc:
        assert doc.pages[0].text().splitlines()[:2] == ["Name Alice Jones", "Club Northside"]
