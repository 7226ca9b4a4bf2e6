"""hOCR output: a document's words, lines and blocks as the HTML that OCR tools exchange.

hOCR (https://kba.github.io/hocr-spec/1.2/) marks up recognised text with its layout:
``ocr_page`` > ``ocr_carea`` > ``ocr_par`` > ``ocr_line`` > ``ocrx_word``, each with a
``title`` holding properties such as its ``bbox``. Tesseract writes it, and the tools that
correct, align or annotate OCR (hocr-tools, OCR-D, ocrmypdf's renderer, proofreading
editors) read it, so a PDF's text layer given as hOCR can go where OCR output goes.

Boxes are whole units, as the format wants, on a grid of 1/72 inch: points from the
top-left corner of the page as shown (``scan_res 72 72`` on each page says so), rounded
outwards so a box never cuts its glyphs. A word carries its font (``x_font``) and size in
whole points (``x_fsize``); a right-to-left line is marked ``dir="rtl"`` and a vertical one has a
``textangle``, as Tesseract marks them.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from html import escape
from typing import IO, TYPE_CHECKING

if TYPE_CHECKING:
    from glyphweave.pagewords import TextBlock

__all__ = ["HocrWriter"]

CAPABILITIES = "ocr_page ocr_carea ocr_par ocr_line ocrx_word ocrp_dir ocrp_font ocrp_fsize"

TEXT_ANGLE = {"ttb": 270, "btt": 90}
"""hOCR's ``textangle`` (degrees, anticlockwise) of a line read down or up the page."""


_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
"""Characters XML 1.0 cannot hold (C0 controls but tab and line ends, lone surrogates,
the two non-characters): written as U+FFFD, so every reader parses the file."""


def _xml(text: str, quote: bool = True) -> str:
    """``text`` escaped for XML, with what XML cannot hold replaced (:data:`_NOT_XML`)."""
    return escape(_NOT_XML.sub("\ufffd", text), quote=quote)


def _bbox(box: Sequence[float]) -> str:
    x0, top, x1, bottom = box
    return f"bbox {math.floor(x0)} {math.floor(top)} {math.ceil(x1)} {math.ceil(bottom)}"


def _quoted(text: str) -> str:
    """A property value in double quotes (the title attribute escapes it again)."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


class HocrWriter:
    """Writes one hOCR document to a text stream: :meth:`page` for each page, then :meth:`close`."""

    def __init__(self, stream: IO[str], title: str, system: str) -> None:
        self.stream = stream
        self.closed = False
        head = (
            '<?xml version="1.0" encoding="UTF-8"?>\n'
            '<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN" '
            '"http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd">\n'
            '<html xmlns="http://www.w3.org/1999/xhtml">\n<head>\n'
            f"<title>{_xml(title)}</title>\n"
            '<meta http-equiv="Content-Type" content="text/html; charset=utf-8"/>\n'
            f'<meta name="ocr-system" content="{_xml(system)}"/>\n'
            f'<meta name="ocr-capabilities" content="{CAPABILITIES}"/>\n'
            "</head>\n<body>\n"
        )
        stream.write(head)

    def page(self, number: int, size: tuple[float, float], blocks: Sequence[TextBlock], source: str = "") -> None:
        """Write page ``number`` (0-based) of ``size`` (width, height as shown, in points)."""
        n = number + 1
        width, height = size
        title = f"{_bbox((0, 0, width, height))}; ppageno {number}; scan_res 72 72"
        if source:
            title = f"image {_quoted(source)}; {title}"
        out = [f'<div class="ocr_page" id="page_{n}" title="{_xml(title)}">\n']
        line_no = word_no = 0
        for b, block in enumerate(blocks, 1):
            out.append(f' <div class="ocr_carea" id="block_{n}_{b}" title="{_bbox(block.bbox)}">\n')
            out.append(f'  <p class="ocr_par" id="par_{n}_{b}" title="{_bbox(block.bbox)}">\n')
            for line in block.lines:
                line_no += 1
                props = _bbox(line.bbox)
                if line.direction in TEXT_ANGLE:
                    props += f"; textangle {TEXT_ANGLE[line.direction]}"
                rtl = ' dir="rtl"' if line.direction == "rtl" else ""
                out.append(f'   <span class="ocr_line" id="line_{n}_{line_no}"{rtl} title="{props}">')
                words = []
                for word in line.words:
                    word_no += 1
                    wprops = f"{_bbox(word.bbox)}; x_font {_quoted(word.font)}; x_fsize {round(word.size)}"
                    words.append(f'<span class="ocrx_word" id="word_{n}_{word_no}" title="{_xml(wprops)}">'
                                 f"{_xml(word.text, quote=False)}</span>")
                out.append(" ".join(words))
                out.append("</span>\n")
            out.append("  </p>\n </div>\n")
        out.append("</div>\n")
        self.stream.write("".join(out))

    def close(self) -> None:
        """End the document (once)."""
        if not self.closed:
            self.closed = True
            self.stream.write("</body>\n</html>\n")
