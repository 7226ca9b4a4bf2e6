"""glyphweave's pytest plugin: fixtures for testing components (loaded through ``pytest11``).

Installed with glyphweave, so a plugin's own test suite gets these without a conftest:

``glyphweave_extract``
    :func:`glyphweave.testing.extract_text`: ``glyphweave_extract(pdf, plugins=[my_plugin],
    profile=...)`` → the text.
``glyphweave_pdf``
    The synthetic-PDF builder module (:mod:`glyphweave.testing.pdfs`):
    ``glyphweave_pdf.make_pdf(glyphweave_pdf.text_at("Hi"))``.
``glyphweave_plugin_manager``
    :func:`glyphweave.testing.fresh_plugin_manager` (the installed entry points plus the
    plugins given).
``glyphweave_font_info``
    :func:`glyphweave.testing.font_info`, for calling a decoder directly.

Importing this module is cheap: the fixtures import what they need when used.
"""

from __future__ import annotations

from typing import Any

import pytest


@pytest.fixture
def glyphweave_extract() -> Any:
    """extract_text(pdf, *, profile, plugins, mode): a PDF's text with your plugins loaded."""
    from glyphweave.testing.extract import extract_text

    return extract_text


@pytest.fixture
def glyphweave_pdf() -> Any:
    """The synthetic-PDF builder module: make_pdf, text_at, helvetica, truetype, type0_identity, ..."""
    from glyphweave.testing import pdfs

    return pdfs


@pytest.fixture
def glyphweave_plugin_manager() -> Any:
    """make(*plugins, entrypoints=True, blocked=()): a fresh plugin manager."""
    from glyphweave.testing.plugins import fresh_plugin_manager

    def make(*plugins: object, entrypoints: bool = True, blocked: tuple[str, ...] = ()) -> Any:
        return fresh_plugin_manager(*plugins, entrypoints=entrypoints, blocked=blocked)

    return make


@pytest.fixture
def glyphweave_font_info() -> Any:
    """font_info(base_font, *, subtype, to_unicode, font_file, **fields): a FontInfo for a decoder."""
    from glyphweave.testing.factories import font_info

    return font_info
