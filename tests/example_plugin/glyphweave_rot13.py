"""glyphweave's hello-world plugin: an assembler that rot13s the page text.

One module, one entry point (see pyproject.toml). It registers a component (the
``rot13`` assembler) and a ready-made profile that selects it (``--profile rot13``).
"""

from __future__ import annotations

import codecs
from collections.abc import Sequence

from glyphweave.plugin import Assembler, PageContext, hookimpl


class Rot13Assembler(Assembler):
    """Page text in paint order, rot13-encoded (a demonstration, not a cipher)."""

    NAME = "rot13"

    def assemble(self, page: PageContext, indices: Sequence[int]) -> str:
        table = page.table
        text = "".join(page.placeholder if table.unresolved(i) else table.text[i] for i in indices)
        return codecs.encode(text, "rot13")


ROT13_PROFILE = """
[profile]
name = "rot13"
description = "The default pipeline, with the page text rot13-encoded."
extends = "default"
assembler = "rot13"
"""


@hookimpl
def glyphweave_register_assemblers():
    return [Rot13Assembler]


@hookimpl
def glyphweave_register_profiles():
    return {"rot13": ROT13_PROFILE}
