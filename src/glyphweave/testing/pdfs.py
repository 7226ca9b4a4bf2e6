"""Precise synthetic PDFs for tests, built in memory with pikepdf.

    from glyphweave.testing.pdfs import make_pdf, helvetica, form, text_at

    data = make_pdf(b"BT /F1 10 Tf 72 700 Td (Hi) Tj ET", fonts={"F1": helvetica(widths=True)})

Fonts are *specs*: callables that build the font dictionary inside the PDF being made.
Form XObjects are :class:`Form` specs; a form refers to other forms (or to itself) by the
name they have in ``make_pdf(xobjects=...)``, so cycles are easy to build.

Unless a test says otherwise, every width is a round number so expected positions can be
written exactly: ``helvetica(widths=True)`` gives every code 500/1000 em.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import pikepdf
from pikepdf import Array, Dictionary, Name

FontSpec = Callable[[pikepdf.Pdf], pikepdf.Object]
Box = Sequence[float]

__all__ = [
    "Form", "Page", "cid_tounicode", "form", "helvetica", "make_pdf", "open_pdf", "page_glyphs",
    "text_at", "tounicode_cmap", "truetype", "type0_identity", "type0_vertical", "type3", "write_raw",
]


def _literal(text: bytes) -> bytes:
    return b"(" + text.replace(b"\\", b"\\\\").replace(b"(", b"\\(").replace(b")", b"\\)") + b")"


def text_at(text: str | bytes, x: float = 72, y: float = 720, *, size: float = 12, font: str = "F1",
            matrix: Sequence[float] | None = None) -> bytes:
    """A content-stream snippet showing ``text`` (Latin-1 codes for a str) at (x, y).

    ``matrix`` (a, b, c, d) sets the text matrix's linear part (``Tm``): ``(2, 0, 0, 2)``
    draws the text twice as large on the page as its ``Tf`` size, ``(0, 1, -1, 0)`` turns it
    a quarter left. Join snippets with ``b"\\n"`` for several strings on one page.
    """
    codes = text.encode("latin-1") if isinstance(text, str) else text
    a, b, c, d = matrix if matrix is not None else (1, 0, 0, 1)
    return (f"BT /{font} {size:g} Tf {a:g} {b:g} {c:g} {d:g} {x:g} {y:g} Tm ".encode()
            + _literal(codes) + b" Tj ET")


# -- CMaps ---------------------------------------------------------------------------------
def _utf16_hex(text: str) -> str:
    return text.encode("utf-16-be").hex().upper()


def tounicode_cmap(mapping: Mapping[int, str], *, code_bytes: int = 1) -> bytes:
    """A /ToUnicode CMap with one bfchar per code (``code_bytes`` wide codes)."""
    width = 2 * code_bytes
    lo, hi = "0" * width, "F" * width
    lines = [
        "/CIDInit /ProcSet findresource begin",
        "12 dict begin",
        "begincmap",
        "/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def",
        "/CMapName /Test-UCS def",
        "/CMapType 2 def",
        "1 begincodespacerange",
        f"<{lo}> <{hi}>",
        "endcodespacerange",
        f"{len(mapping)} beginbfchar",
    ]
    for code, text in sorted(mapping.items()):
        lines.append(f"<{code:0{width}X}> <{_utf16_hex(text)}>")
    lines += ["endbfchar", "endcmap", "CMapName currentdict /CMap defineresource pop", "end", "end"]
    return ("\n".join(lines) + "\n").encode("ascii")


def cid_tounicode(mapping: Mapping[int, str]) -> bytes:
    """A two-byte /ToUnicode CMap, for Identity-H/V fonts (code = CID)."""
    return tounicode_cmap(mapping, code_bytes=2)


# -- fonts -------------------------------------------------------------------------------
def helvetica(*, widths: bool | Sequence[float] = False, first_char: int = 32, base_font: str = "Helvetica",
              encoding: str | None = None) -> FontSpec:
    """A standard-14 Type1 font, not embedded.

    ``widths=False``: no /Widths (the AFM metrics apply). ``widths=True``: /FirstChar 32,
    every code 32-126 is 500 units wide. A sequence: those /Widths from ``first_char``.
    """

    def build(pdf: pikepdf.Pdf) -> pikepdf.Object:
        font = Dictionary(Type=Name.Font, Subtype=Name.Type1, BaseFont=Name("/" + base_font))
        if encoding:
            font.Encoding = Name("/" + encoding)
        if widths is not False:
            values = [500] * 95 if widths is True else list(widths)
            font.FirstChar = first_char
            font.LastChar = first_char + len(values) - 1
            font.Widths = Array(values)
        return pdf.make_indirect(font)

    return build


def truetype(*, mapping: Mapping[int, str] | None = None, widths: Sequence[float] | None = None,
             first_char: int = 32, missing_width: float | None = None, base_font: str = "ABCDEF+TestSans",
             ascent: float = 800, descent: float = -200, tounicode: bytes | None = None) -> FontSpec:
    """A TrueType-like simple font (not embedded) with a /ToUnicode CMap written here.

    ``mapping``: code → text for the ToUnicode CMap (default: none). ``widths``: /Widths
    from ``first_char`` (default: 95 × 600). ``missing_width``: /MissingWidth.
    """

    def build(pdf: pikepdf.Pdf) -> pikepdf.Object:
        values = list(widths) if widths is not None else [600] * 95
        descriptor = Dictionary(
            Type=Name.FontDescriptor, FontName=Name("/" + base_font), Flags=32,
            FontBBox=Array([-100, descent, 1000, ascent]), ItalicAngle=0,
            Ascent=ascent, Descent=descent, CapHeight=700, StemV=80,
        )
        if missing_width is not None:
            descriptor.MissingWidth = missing_width
        font = Dictionary(
            Type=Name.Font, Subtype=Name.TrueType, BaseFont=Name("/" + base_font),
            FirstChar=first_char, LastChar=first_char + len(values) - 1, Widths=Array(values),
            FontDescriptor=pdf.make_indirect(descriptor),
        )
        cmap = tounicode if tounicode is not None else (tounicode_cmap(mapping) if mapping else None)
        if cmap is not None:
            font.ToUnicode = pdf.make_stream(cmap)
        return pdf.make_indirect(font)

    return build


def _cid_font(pdf: pikepdf.Pdf, *, w: Sequence[Any] | None, dw: float | None, w2: Sequence[Any] | None,
              dw2: Sequence[float] | None, base_font: str, ascent: float, descent: float) -> pikepdf.Object:
    descriptor = Dictionary(
        Type=Name.FontDescriptor, FontName=Name("/" + base_font), Flags=4,
        FontBBox=Array([0, descent, 1000, ascent]), ItalicAngle=0,
        Ascent=ascent, Descent=descent, CapHeight=700, StemV=80,
    )
    cid = Dictionary(
        Type=Name.Font, Subtype=Name.CIDFontType2, BaseFont=Name("/" + base_font),
        CIDSystemInfo=Dictionary(Registry=pikepdf.String("Adobe"), Ordering=pikepdf.String("Identity"),
                                 Supplement=0),
        FontDescriptor=pdf.make_indirect(descriptor),
        CIDToGIDMap=Name.Identity,
    )
    if w is not None:
        cid.W = _pdf_array(w)
    if dw is not None:
        cid.DW = dw
    if w2 is not None:
        cid.W2 = _pdf_array(w2)
    if dw2 is not None:
        cid.DW2 = Array(list(dw2))
    return pdf.make_indirect(cid)


def _pdf_array(items: Sequence[Any]) -> Array:
    return Array([_pdf_array(x) if isinstance(x, (list, tuple)) else x for x in items])


def type0_identity(*, w: Sequence[Any] | None = None, dw: float | None = None,
                   mapping: Mapping[int, str] | None = None, base_font: str = "TestCID",
                   ascent: float = 800, descent: float = -200) -> FontSpec:
    """A Type0 font, /Encoding /Identity-H (2-byte codes = CIDs), with /W and /DW as given.

    ``w`` is written as-is (nested lists become arrays), so unsorted and overlapping
    entries can be tested. ``mapping``: CID → text for a 2-byte ToUnicode CMap.
    """

    def build(pdf: pikepdf.Pdf) -> pikepdf.Object:
        cid = _cid_font(pdf, w=w, dw=dw, w2=None, dw2=None, base_font=base_font, ascent=ascent,
                        descent=descent)
        font = Dictionary(Type=Name.Font, Subtype=Name.Type0, BaseFont=Name("/" + base_font),
                          Encoding=Name("/Identity-H"), DescendantFonts=Array([cid]))
        if mapping:
            font.ToUnicode = pdf.make_stream(cid_tounicode(mapping))
        return pdf.make_indirect(font)

    return build


def type0_vertical(*, w2: Sequence[Any] | None = None, dw2: Sequence[float] | None = None,
                   w: Sequence[Any] | None = None, dw: float | None = None,
                   mapping: Mapping[int, str] | None = None, base_font: str = "TestCIDV") -> FontSpec:
    """A Type0 font with /Encoding /Identity-V (writing mode 1) and /W2 /DW2 as given."""

    def build(pdf: pikepdf.Pdf) -> pikepdf.Object:
        cid = _cid_font(pdf, w=w, dw=dw, w2=w2, dw2=dw2, base_font=base_font, ascent=880, descent=-120)
        font = Dictionary(Type=Name.Font, Subtype=Name.Type0, BaseFont=Name("/" + base_font),
                          Encoding=Name("/Identity-V"), DescendantFonts=Array([cid]))
        if mapping:
            font.ToUnicode = pdf.make_stream(cid_tounicode(mapping))
        return pdf.make_indirect(font)

    return build


def type3(*, widths: Sequence[float] = (50, 70), first_char: int = 97,
          font_matrix: Sequence[float] = (0.01, 0, 0, 0.01, 0, 0),
          names: Sequence[str] | None = None, font_bbox: Sequence[float] = (0, -20, 100, 80)) -> FontSpec:
    """A Type3 font: /FontMatrix, /Widths from ``first_char`` and one square glyph per code.

    /Encoding /Differences names the codes ``a``, ``b``, ... (or ``names``) so that the
    encoding decoder can read them.
    """

    def build(pdf: pikepdf.Pdf) -> pikepdf.Object:
        glyph_names = list(names) if names is not None else [chr(ord("a") + i) for i in range(len(widths))]
        procs = Dictionary()
        for name, width in zip(glyph_names, widths, strict=False):
            procs[Name("/" + name)] = pdf.make_stream(f"{width} 0 d0 0 0 {width} {width} re f".encode())
        differences = Array([first_char] + [Name("/" + n) for n in glyph_names])
        font = Dictionary(
            Type=Name.Font, Subtype=Name.Type3, FontMatrix=Array(list(font_matrix)),
            FontBBox=Array(list(font_bbox)), CharProcs=procs,
            Encoding=Dictionary(Type=Name.Encoding, Differences=differences),
            FirstChar=first_char, LastChar=first_char + len(widths) - 1, Widths=Array(list(widths)),
            Resources=Dictionary(),
        )
        return pdf.make_indirect(font)

    return build


# -- forms and pages -------------------------------------------------------------------------
@dataclass
class Form:
    """A form XObject spec.

    ``xobjects``: resource name → name of another form in ``make_pdf(xobjects=...)`` (itself
    allowed). ``fonts``: resource name → a font spec, or the name of a page font (str); None
    (the default) gives the form the page's fonts under the same names. ``resources=False``
    writes no /Resources at all (the form borrows its parent's).
    """

    content: bytes
    matrix: Sequence[float] | None = None
    fonts: Mapping[str, FontSpec | str] | None = None
    xobjects: Mapping[str, str] = field(default_factory=dict)
    resources: bool = True
    bbox: Sequence[float] = (-10000, -10000, 10000, 10000)


def form(content: bytes, **kwargs: Any) -> Form:
    return Form(content, **kwargs)


@dataclass
class Page:
    """Another page (``make_pdf(extra_pages=[Page(...)])``)."""

    content: bytes = b""
    fonts: Mapping[str, FontSpec] | None = None
    mediabox: Box | None = None
    cropbox: Box | None = None


def _font_objects(pdf: pikepdf.Pdf, specs: Mapping[str, FontSpec]) -> dict[str, pikepdf.Object]:
    return {name: spec(pdf) for name, spec in specs.items()}


def make_pdf(
    content: bytes | Sequence[bytes],
    *,
    fonts: Mapping[str, FontSpec] | None = None,
    xobjects: Mapping[str, Form] | None = None,
    properties: Mapping[str, Mapping[str, Any]] | None = None,
    mediabox: Box = (0, 0, 612, 792),
    cropbox: Box | None = None,
    tree_cropbox: Box | None = None,
    tree_resources: bool = False,
    extra_pages: Sequence[Page] = (),
    encryption: pikepdf.Encryption | None = None,
) -> bytes:
    """A PDF whose first page paints ``content`` (several streams if a sequence is given).

    ``fonts`` default to ``{"F1": helvetica(widths=True)}``. ``properties``: the page's
    /Properties (marked-content property lists) as plain dicts of Python values.
    ``tree_cropbox`` puts a /CropBox on the /Pages node (inherited, none on the page);
    ``tree_resources`` moves the first page's /Resources to the /Pages node as well.
    """
    pdf = pikepdf.new()
    font_specs = {"F1": helvetica(widths=True)} if fonts is None else fonts
    font_objs = _font_objects(pdf, font_specs)

    resources = Dictionary()
    if font_objs:
        resources.Font = Dictionary({"/" + k: v for k, v in font_objs.items()})
    if xobjects:
        streams = {}
        for key, spec in xobjects.items():
            stream = pdf.make_stream(spec.content)
            stream.Type = Name.XObject
            stream.Subtype = Name.Form
            stream.BBox = Array(list(spec.bbox))
            if spec.matrix is not None:
                stream.Matrix = Array(list(spec.matrix))
            streams[key] = stream
        for key, spec in xobjects.items():
            if not spec.resources:
                continue
            res = Dictionary()
            form_fonts = {k: k for k in font_objs} if spec.fonts is None else spec.fonts
            if form_fonts:
                fd = Dictionary()
                for name, f in form_fonts.items():
                    fd["/" + name] = font_objs[f] if isinstance(f, str) else f(pdf)
                res.Font = fd
            if spec.xobjects:
                res.XObject = Dictionary({"/" + n: streams[target] for n, target in spec.xobjects.items()})
            streams[key].Resources = res
        resources.XObject = Dictionary({"/" + k: v for k, v in streams.items()})
    if properties:
        resources.Properties = Dictionary(
            {"/" + k: Dictionary({"/" + pk: _pdf_value(pv) for pk, pv in v.items()})
             for k, v in properties.items()})

    parts = [content] if isinstance(content, (bytes, bytearray)) else list(content)
    contents: Any = [pdf.make_stream(bytes(p)) for p in parts]
    page = Dictionary(Type=Name.Page, MediaBox=Array(list(mediabox)), Resources=resources,
                      Contents=contents[0] if len(contents) == 1 and isinstance(content, (bytes, bytearray))
                      else Array(contents))
    if cropbox is not None:
        page.CropBox = Array(list(cropbox))
    pdf.pages.append(pikepdf.Page(page))
    for extra in extra_pages:
        extra_fonts = _font_objects(pdf, extra.fonts) if extra.fonts is not None else font_objs
        p = Dictionary(Type=Name.Page, MediaBox=Array(list(extra.mediabox or mediabox)),
                       Resources=Dictionary(Font=Dictionary({"/" + k: v for k, v in extra_fonts.items()})),
                       Contents=pdf.make_stream(extra.content))
        if extra.cropbox is not None:
            p.CropBox = Array(list(extra.cropbox))
        pdf.pages.append(pikepdf.Page(p))

    if tree_cropbox is not None or tree_resources:
        # qpdf pushes inherited attributes down to the pages when it saves: write by hand.
        if encryption is not None:
            raise ValueError("tree_cropbox/tree_resources cannot be combined with encryption")
        tree = pdf.Root.Pages
        first = tree.Kids[0]
        if tree_cropbox is not None:
            tree.CropBox = Array(list(tree_cropbox))
            for kid in tree.Kids:
                if "/CropBox" in kid:
                    del kid["/CropBox"]
        if tree_resources:
            tree.Resources = first.Resources
            del first["/Resources"]
        return write_raw(pdf)

    out = io.BytesIO()
    if encryption is not None:
        pdf.save(out, encryption=encryption)
    else:
        pdf.save(out)
    return out.getvalue()


def write_raw(pdf: pikepdf.Pdf) -> bytes:
    """Serialize every indirect object of ``pdf`` as is (no qpdf rewriting), with an xref."""
    out = bytearray(b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")
    offsets: dict[int, int] = {}
    size = 1
    for obj in pdf.objects:
        num, gen = obj.objgen
        if num == 0:
            continue
        size = max(size, num + 1)
        offsets[num] = len(out)
        out += f"{num} {gen} obj\n".encode()
        if isinstance(obj, pikepdf.Stream):
            raw = obj.read_raw_bytes()
            head = Dictionary(obj.stream_dict)  # type: ignore[arg-type]
            head.Length = len(raw)
            out += head.unparse() + b"\nstream\n" + raw + b"\nendstream\n"
        else:
            out += obj.unparse(resolved=True) + b"\n"
        out += b"endobj\n"
    xref = len(out)
    out += f"xref\n0 {size}\n".encode() + b"0000000000 65535 f \n"
    for num in range(1, size):
        if num in offsets:
            out += f"{offsets[num]:010d} 00000 n \n".encode()
        else:
            out += b"0000000000 65535 f \n"
    trailer = Dictionary(Size=size, Root=pdf.Root)
    out += b"trailer\n" + trailer.unparse() + f"\nstartxref\n{xref}\n%%EOF\n".encode()
    return bytes(out)


def _pdf_value(value: Any) -> Any:
    if isinstance(value, str) and value.startswith("/"):
        return Name(value)
    if isinstance(value, str):
        return pikepdf.String(value)
    return value


def open_pdf(data: bytes, **kwargs: Any) -> Any:
    """``glyphweave.open(data, **kwargs)`` (a context manager)."""
    from glyphweave.api import open_document

    return open_document(data, **kwargs)


def page_glyphs(content: bytes | Sequence[bytes], **kwargs: Any) -> tuple[list[Any], tuple[Any, ...]]:
    """Every painted glyph of page 1 (``raw=True``) and the page's warnings (records: their
    ``kind``, ``message``, ``source``, ``limit``)."""
    with open_pdf(make_pdf(content, **kwargs)) as doc:
        page = doc.pages[0]
        return page.glyphs(raw=True), page.stats.warnings
