"""Where the shared corpus is, and the passwords of its encrypted files.

The shared folder sits beside the repository (``../shared``) or where ``GLYPHWEAVE_SHARED``
points. The corpus tests read it from here, and so does ``extract_all.py`` (the compiled
build's differential run), which opens the encrypted files with their passwords.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

SHARED = Path(os.environ.get("GLYPHWEAVE_SHARED") or Path(__file__).resolve().parents[2].parent / "shared")


def read_passwords(corpus: Path) -> dict[str, tuple[str, str | None]]:
    """file → (user password, owner password or None when unknown), from the corpus README."""
    readme = corpus / "README.md"
    if not readme.is_file():
        return {}
    found: dict[str, tuple[str, str | None]] = {}
    row = re.compile(r"^\|\s*(\S+\.pdf)\s*\|\s*([^|]*?)\s*\|\s*([^|]*?)\s*\|")

    def value(cell: str) -> str | None:
        cell = cell.strip()
        if cell == "unknown":
            return None
        if cell.startswith("''"):
            return ""
        return cell

    in_table = False
    for line in readme.read_text(encoding="utf-8").splitlines():
        if line.startswith("|") and "user password" in line:
            in_table = True
            continue
        if in_table and not line.startswith("|"):
            break
        m = row.match(line)
        if in_table and m:
            user = value(m.group(2))
            found[m.group(1)] = (user or "", value(m.group(3)))
    return found
