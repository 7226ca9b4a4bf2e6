"""WeasyPrint's PDFs: running heads from ``@page`` margin boxes (painted after the body),
automatic hyphenation (it draws U+2010 HYPHEN where it breaks a word) beside real compounds."""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest

from .conftest import drawn, page_texts

try:
    with warnings.catch_warnings():  # a system without HarfBuzz's subsetter gets a deprecation notice
        warnings.simplefilter("ignore", DeprecationWarning)
        import weasyprint
except (ImportError, OSError) as exc:  # OSError: installed, but Pango is missing
    pytest.skip(f"WeasyPrint is not usable here: {exc}", allow_module_level=True)

TEXT = ("The maintenance contractors replaced the anemometers and the precipitation gauges, "
        "recalibrated the thermometers, and installed a round-the-clock telemetry link, "
        "which the meteorological volunteers cross-checked against the hand-held instruments "
        "throughout the extraordinarily changeable weather of the autumn.")


def _report(path: Path) -> None:
    html = f"""<html lang="en"><head><style>
      @page {{ size: 105mm 148mm; margin: 18mm 12mm;
              @top-left {{ content: "Hollin Fell"; font-size: 8pt }}
              @top-right {{ content: "Station report"; font-size: 8pt }}
              @bottom-center {{ content: "Page " counter(page); font-size: 8pt }} }}
      body {{ font-family: "DejaVu Serif"; font-size: 10pt; text-align: justify; hyphens: auto }}
    </style></head><body><p>{TEXT}</p></body></html>"""
    weasyprint.HTML(string=html).write_pdf(str(path))


def test_running_heads_first_split_words_whole_and_compounds_kept(pdf_path: Path):
    _report(pdf_path)
    assert drawn(pdf_path, "\u2010"), "the producer split no word at a line end here"
    texts = page_texts(pdf_path)
    lines = texts[0].splitlines()
    assert lines[0] == "Hollin Fell Station report"
    assert lines[-1] == "Page 1"
    assert "\u2010" not in texts[0]
    body = " ".join(" ".join(text.splitlines()[1:-1]) for text in texts)
    assert body.split() == TEXT.split()
