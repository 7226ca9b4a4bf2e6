"""The passwords of the shared corpus's encrypted files, as its README lists them.

Read by the corpus smoke test and by ``extract_all.py`` (the compiled build's differential
run), which open the encrypted files with them.
"""

from __future__ import annotations

import re
from pathlib import Path


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
