"""Document metadata (glyphweave.pdf.metadata): Info first, XMP where Info is silent, dates
as datetimes, and hostile packets refused without failing."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from pathlib import Path

import pikepdf
import pytest

import glyphweave
from glyphweave.pdf.metadata import TEXT_MAX, XMP_BYTES_MAX, Metadata, parse_pdf_date, read_metadata

XMP = """<?xpacket begin="" id="W5M0MpCehiHzreSzNTczkc9d"?>
<x:xmpmeta xmlns:x="adobe:ns:meta/">
 <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
  <rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/"
      xmlns:pdf="http://ns.adobe.com/pdf/1.3/" xmlns:xmp="http://ns.adobe.com/xap/1.0/"
      pdf:Producer="XMP Producer" xmp:CreateDate="2024-05-01T10:20:30Z">
   <dc:title><rdf:Alt><rdf:li xml:lang="de">Titel</rdf:li><rdf:li xml:lang="x-default">XMP Title</rdf:li></rdf:Alt></dc:title>
   <dc:creator><rdf:Seq><rdf:li>Ada Lovelace</rdf:li><rdf:li>Charles Babbage</rdf:li></rdf:Seq></dc:creator>
   <dc:description><rdf:Alt><rdf:li xml:lang="x-default">About engines</rdf:li></rdf:Alt></dc:description>
   <xmp:ModifyDate>2024-06-02</xmp:ModifyDate>
   <xmp:CreatorTool>Writer</xmp:CreatorTool>
  </rdf:Description>
 </rdf:RDF>
</x:xmpmeta>
<?xpacket end="w"?>"""


def _pdf(info: dict[str, object] | None = None, xmp: bytes | None = None) -> pikepdf.Pdf:
    pdf = pikepdf.new()
    pdf.add_blank_page()
    if info is not None:
        pdf.trailer.Info = pdf.make_indirect(pikepdf.Dictionary(info))
    if xmp is not None:
        stream = pikepdf.Stream(pdf, xmp)
        stream.Type, stream.Subtype = pikepdf.Name.Metadata, pikepdf.Name.XML
        pdf.Root.Metadata = pdf.make_indirect(stream)
    return pdf


def _read(pdf: pikepdf.Pdf) -> tuple[Metadata, list[str]]:
    said: list[str] = []
    return read_metadata(pdf, said.append), said


@pytest.mark.parametrize("text, expected", [
    ("D:20231116093015+01'00'", datetime(2023, 11, 16, 9, 30, 15, tzinfo=timezone(timedelta(hours=1)))),
    ("D:20231116093015-05'30", datetime(2023, 11, 16, 9, 30, 15, tzinfo=timezone(-timedelta(hours=5, minutes=30)))),
    ("D:20231116093015Z", datetime(2023, 11, 16, 9, 30, 15, tzinfo=timezone.utc)),
    ("D:20231116", datetime(2023, 11, 16)),  # no time and no zone: naive
    ("D:2023", datetime(2023, 1, 1)),
    ("20231116093015", datetime(2023, 11, 16, 9, 30, 15)),  # "D:" left out, as some producers do
    ("D:20231316", None),  # month 13
    ("D:20230231", None),  # February 31
    ("D:20231116250000", None),  # hour 25
    ("D:20231116093015+25'00'", None),
    ("yesterday", None),
    ("", None),
])
def test_pdf_dates(text: str, expected: datetime | None):
    assert parse_pdf_date(text) == expected


def test_the_info_dictionary_is_read():
    meta, said = _read(_pdf({"/Title": pikepdf.String("Café\u2019s report"), "/Author": pikepdf.String(" Ada "),
                             "/Subject": pikepdf.String(""), "/Keywords": pikepdf.String("a, b"),
                             "/Creator": pikepdf.String("Writer"), "/Producer": pikepdf.String("LibreOffice"),
                             "/CreationDate": pikepdf.String("D:20230102030405Z"),
                             "/ModDate": pikepdf.String("not a date")}))
    assert meta == Metadata(title="Café\u2019s report", author="Ada", keywords="a, b", creator="Writer",
                            producer="LibreOffice", created=datetime(2023, 1, 2, 3, 4, 5, tzinfo=timezone.utc))
    assert said == []


def test_xmp_fills_what_info_does_not_say():
    meta, said = _read(_pdf({"/Title": pikepdf.String("Info Title")}, XMP.encode()))
    assert meta.title == "Info Title"  # Info first
    assert meta.author == "Ada Lovelace; Charles Babbage"
    assert meta.subject == "About engines"
    assert meta.producer == "XMP Producer"  # the short form: an attribute of the description
    assert meta.creator == "Writer"
    assert meta.created == datetime(2024, 5, 1, 10, 20, 30, tzinfo=timezone.utc)
    assert meta.modified == datetime(2024, 6, 2)
    assert said == []


def test_the_x_default_title_is_taken_from_xmp():
    meta, _ = _read(_pdf(None, XMP.encode()))
    assert meta.title == "XMP Title"


def test_a_document_that_says_nothing():
    meta, said = _read(_pdf())
    assert meta == Metadata() and said == []


@pytest.mark.parametrize("packet, warning", [
    (b"<x:xmpmeta", "not well-formed"),
    (b'<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;">]><a>&lol2;</a>', "declaring entities"),
    (b"<a>" + b" " * (XMP_BYTES_MAX + 10) + b"</a>", "larger than"),
])
def test_a_hostile_or_broken_packet_is_not_read(packet: bytes, warning: str):
    meta, said = _read(_pdf({"/Title": pikepdf.String("Kept")}, packet))
    assert meta == Metadata(title="Kept")
    assert len(said) == 1 and warning in said[0]


def test_texts_are_cut_and_odd_values_ignored():
    meta, _ = _read(_pdf({"/Title": pikepdf.String("x" * (TEXT_MAX + 50)), "/Author": 42,
                          "/Subject": pikepdf.Name("/Named"), "/CreationDate": pikepdf.Array([1])}))
    assert meta.title == "x" * TEXT_MAX
    assert meta.author is None and meta.subject == "Named" and meta.created is None


def test_the_document_says_it(tmp_path: Path):
    path = tmp_path / "meta.pdf"
    _pdf({"/Title": pikepdf.String("Hello")}, b"<broken").save(path, fix_metadata_version=False)
    with glyphweave.open(path) as doc:
        assert doc.metadata.title == "Hello"
        assert doc.metadata is doc.metadata  # read once
        assert any("XMP metadata" in w.message for w in doc.file_warnings)
    with pytest.raises(glyphweave.DocumentClosedError):
        doc.metadata  # noqa: B018
