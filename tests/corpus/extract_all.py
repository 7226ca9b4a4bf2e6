"""Every shared PDF's text in three modes, with its warnings and glyph counts, as JSON on stdout.

The child process of ``test_compiled_build.py``, run once on the installed build and once on
the checkout's sources: ``python extract_all.py SHARED_FOLDER``. Encrypted corpus files are
opened with the passwords the corpus README lists. A file that cannot be read gives its
error's type and message, which must match too.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from shared_corpus import read_passwords

import glyphweave
from glyphweave.accelerated import compiled_modules

FOLDERS = ("bench", "eval", "corpus")
MODES = ("auto", "reading", "columns")


def extract(pdf: Path, password: str | None) -> dict[str, Any]:
    """The file's text and glyph count per page in each mode, then its warnings."""
    found: dict[str, Any] = {}
    try:
        with glyphweave.open(pdf, password=password) as doc:
            for mode in MODES:
                found[mode] = [(text, page.stats.glyphs) for page, text in doc.iter_text(mode=mode)]
            found["warnings"] = [str(warning) for warning in doc.warnings()]
    except Exception as exc:  # noqa: BLE001 (an unreadable file's error is part of its output)
        found["error"] = f"{type(exc).__name__}: {exc}"
    return found


def main() -> None:
    shared = Path(sys.argv[1])
    passwords = read_passwords(shared / "corpus")
    files = {str(pdf.relative_to(shared)): extract(pdf, passwords.get(pdf.name, ("", None))[0] or None)
             for folder in FOLDERS for pdf in sorted((shared / folder).rglob("*.pdf"))}
    json.dump({"compiled": compiled_modules(), "files": files}, sys.stdout)


if __name__ == "__main__":
    main()
