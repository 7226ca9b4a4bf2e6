"""Every bare CFF program of the shared corpus (FontFile3 of subtype Type1C or CIDFontType0C)
reads the same through glyphweave's CFF reader as through fontTools' ``cffLib``: the same
glyph names, CID-keying, encoding and strings, or a refusal from both.

Skipped when the shared folder is absent.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pikepdf
import pytest
from shared_corpus import SHARED

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "plugins"))
from test_cff_reader import fonttools_reading, our_reading  # noqa: E402

pytestmark = pytest.mark.skipif(not SHARED.is_dir(), reason=f"shared folder not found at {SHARED}")


def _programs() -> list[tuple[str, bytes]]:
    found = []
    for path in sorted(SHARED.glob("**/*.pdf")):
        try:
            pdf = pikepdf.open(path)
        except Exception:  # noqa: BLE001 (encrypted or broken files hold no program to compare)
            continue
        with pdf:
            seen = set()
            for obj in pdf.objects:
                if not isinstance(obj, pikepdf.Dictionary) or obj.get("/Type") != "/FontDescriptor":
                    continue
                stream = obj.get("/FontFile3")
                if stream is None or stream.objgen in seen or str(stream.get("/Subtype")) not in (
                        "/Type1C", "/CIDFontType0C"):
                    continue
                seen.add(stream.objgen)
                try:
                    found.append((f"{path.name} {stream.objgen}", stream.read_bytes()))
                except pikepdf.PdfError:
                    continue
    return found


def test_every_corpus_cff_program_reads_as_fonttools_reads_it():
    programs = _programs()
    assert len(programs) > 100  # the corpus holds a few hundred
    differ = [name for name, data in programs if our_reading(data) != fonttools_reading(data)]
    assert differ == []
    read = sum(our_reading(data) != ("refused",) for _, data in programs)
    assert read > len(programs) * 0.9
