"""The compiled build against the pure modules, on every shared PDF (the ``mypyc`` tox env).

A wheel built with ``GLYPHWEAVE_MYPYC=1`` runs the modules of
``glyphweave.accelerated.COMPILED`` as C extensions made from the same sources; the Python
modules stay the reference. Both extract every shared PDF (``extract_all.py``: each page's
text in three modes, its glyph count, the warnings) and must agree exactly. The reference
runs the checkout's sources, put first on the child's path. Skipped where the installed
build is not compiled, or the shared corpus is absent.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from shared_corpus import SHARED

from glyphweave.accelerated import COMPILED, NATIVE, compiled_modules

HERE = Path(__file__).resolve().parent
SOURCES = HERE.parents[1] / "src"

pytestmark = [
    pytest.mark.skipif(not compiled_modules(), reason="the installed glyphweave is not the compiled build"),
    pytest.mark.skipif(not (SHARED / "corpus").is_dir(), reason=f"shared corpus not found at {SHARED}"),
]


def _extract_all(pythonpath: Path | None) -> dict[str, Any]:
    env = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
    if pythonpath is not None:
        env["PYTHONPATH"] = str(pythonpath)
    done = subprocess.run([sys.executable, str(HERE / "extract_all.py"), str(SHARED)], env=env,
                          capture_output=True, check=True, timeout=1800)
    return json.loads(done.stdout)


def test_every_hot_module_is_compiled():
    assert compiled_modules() == [*COMPILED, *NATIVE]


def test_the_compiled_build_extracts_what_the_pure_modules_extract():
    compiled = _extract_all(None)
    pure = _extract_all(SOURCES)
    assert compiled["compiled"] == [*COMPILED, *NATIVE]
    assert pure["compiled"] == [], "the reference must run the Python sources"
    assert len(pure["files"]) >= 100, "too few shared PDFs found to compare"
    assert sorted(compiled["files"]) == sorted(pure["files"])
    differing = [name for name, found in pure["files"].items() if compiled["files"][name] != found]
    assert not differing, f"{len(differing)} files differ, first {differing[0]}: " + _first_difference(
        pure["files"][differing[0]], compiled["files"][differing[0]])


def _first_difference(pure: dict[str, Any], compiled: dict[str, Any]) -> str:
    for key in sorted(set(pure) | set(compiled)):
        left, right = pure.get(key), compiled.get(key)
        if left == right:
            continue
        if isinstance(left, list) and isinstance(right, list):
            for number, (a, b) in enumerate(zip(left, right, strict=False)):
                if a != b:
                    return f"{key}, page {number + 1}: pure {a!r:.300} compiled {b!r:.300}"
        return f"{key}: pure {left!r:.300} compiled {right!r:.300}"
    return "no difference found"
