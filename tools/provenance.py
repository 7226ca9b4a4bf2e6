"""The PROVENANCE.tsv that each data generator in tools/ writes beside its tables.

One row per shipped file: its sha256 and size as shipped, and where it came from (source
package, version, path) under which licence. Imported by the generators, which run as
scripts from any directory (``python tools/make_….py``): their own folder is on sys.path.
"""

from __future__ import annotations

import hashlib

HEADER = ("file", "sha256", "bytes", "source_package", "source_version", "source_path", "licence")

Row = tuple[str, bytes, str, str, str, str]
"""(file name, bytes as shipped, source package, source version, source path, licence)."""


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def render_provenance(resource: str, generator: str, rows: list[Row], *,
                      note: str = "sha256 and bytes are of the file as shipped here.") -> bytes:
    """The PROVENANCE.tsv of ``glyphweave/tables/resources/<resource>``, rows in the order given."""
    out = [
        f"# Provenance of glyphweave/tables/resources/{resource}, written by {generator}; do not edit.",
        f"# {note}",
        "\t".join(HEADER),
    ]
    for file_name, data, package, version, path, licence in rows:
        out.append("\t".join([file_name, sha256(data), str(len(data)), package, version, path, licence]))
    return ("\n".join(out) + "\n").encode("utf-8")
