"""One call from a PDF to its text, with the plugins under test beside the installed ones."""

from __future__ import annotations

import os
from collections.abc import Iterable
from typing import Any

from glyphweave.testing.plugins import fresh_plugin_manager


def extract_text(
    pdf: bytes | str | os.PathLike[str],
    *,
    profile: Any = "default",
    plugins: Iterable[object] = (),
    mode: str | None = None,
    separator: str = "\f",
    installed: bool = True,
) -> str:
    """The text of ``pdf`` (bytes, as :func:`glyphweave.testing.pdfs.make_pdf` makes them, or a
    path) with ``profile`` (a name, a TOML path or a :class:`~glyphweave.components.profile.Profile`),
    ``plugins`` registered beside the installed ones (``installed=False``: instead of them).

    A failing component raises its one-line :class:`~glyphweave.core.errors.ComponentError`,
    so a test sees what a user would.
    """
    from glyphweave.api import open_document

    pm = fresh_plugin_manager(*plugins, entrypoints=installed)
    with open_document(pdf, profile=profile, plugin_manager=pm) as doc:
        return doc.text(mode=mode, separator=separator)
