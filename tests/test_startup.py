"""What the command line imports to extract a small PDF: start-up is paid by every run, so
modules and tables a command does not use must not be imported (docs/design.rst, Speed)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

SAMPLE = Path(__file__).resolve().parent.parent / "examples" / "sample.pdf"

# Run in a fresh interpreter: the modules a real run has imported when it ends.
_PROBE = """
import contextlib, io, json, sys
from glyphweave import cli
with contextlib.redirect_stdout(io.StringIO()):
    status = cli.main(sys.argv[1:])
loaded = {}
cjk = sys.modules.get("glyphweave.tables.cjk")
if cjk is not None:
    loaded["cid tables"] = cjk._cid_table.cache_info().currsize
predefined = sys.modules.get("glyphweave.pdf.predefined")
if predefined is not None:
    loaded["predefined CMaps"] = predefined.predefined_cmap.cache_info().currsize
print(json.dumps({"status": status, "modules": sorted(sys.modules), "loaded": loaded}))
"""


def _run(*argv: str) -> dict[str, Any]:
    done = subprocess.run([sys.executable, "-c", _PROBE, *argv], capture_output=True, text=True, check=True)
    report: dict[str, Any] = json.loads(done.stdout.splitlines()[-1])
    assert report["status"] == 0
    return report


def test_extract_imports_no_batch_runner_registry_tool_or_font_parser() -> None:
    modules = set(_run("extract", str(SAMPLE), "--jobs", "1")["modules"])
    unwanted = {
        "glyphweave.batch.runner", "glyphweave.batch.task", "glyphweave.batch.pool", "glyphweave.batch.dask",
        # One process extracts a one-page file: the page split is not imported.
        "glyphweave.batch.pages", "glyphweave.batch.lifeline",
        "glyphweave.glyphmap.scan", "glyphweave.glyphmap.sheet", "glyphweave.glyphmap.outline",
        "fontTools.ttLib", "fontTools.cffLib", "fontTools.t1Lib", "tqdm",
        # Font programs are read for fonts without a ToUnicode map or an encoding only.
        "glyphweave.plugins.decoders._fontprogram", "glyphweave.plugins.decoders._cff", "glyphweave.tables.cff",
        # A standard font in WinAnsiEncoding: its text ships with the table, no AGL to parse.
        "fontTools.agl",
        # The plugins' entry points are read from their files (components/distributions.py),
        # unless the stack imports importlib.metadata anyway (pluggy before 1.5 did).
        *(() if _stack_imports("importlib.metadata") else ("importlib.metadata", "email")),
        # Package data (tables, built-in profiles) is read from the package's folder: asking
        # importlib.resources imports zipfile. A name's "did you mean" is for errors only.
        *(module for module in ("importlib.resources", "zipfile", "difflib") if not _stack_imports(module)),
        # Page ranges are parsed for --pages only; the layout takes its medians itself.
        "glyphweave.pageranges",
        *(module for module in ("statistics", "fractions") if not _stack_imports(module)),
    }
    assert not modules & unwanted


def _stack_imports(module: str) -> bool:
    """Whether importing the stack (pikepdf, attrs, pluggy) alone imports ``module``."""
    probe = f"import sys, pikepdf, attrs, pluggy; print({module!r} in sys.modules)"
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    return done.stdout.strip() == "True"


def test_extract_loads_no_cjk_table_for_a_latin_pdf() -> None:
    loaded = _run("extract", str(SAMPLE), "--jobs", "1")["loaded"]
    assert not any(loaded.values()), loaded
