"""The names a batch writes: output formats and suffixes, the manifest, temporary outputs.

A module of constants only, so that building the command line (which shows them in its
help) imports nothing of the batch machinery.
"""

from __future__ import annotations

# TEMP_PREFIX: names of outputs being written; a run that finds them in the output tree (left
# by a killed run) removes them.
from glyphweave.files import TEMP_PREFIX

__all__ = ["FORMATS", "MANIFEST", "SUFFIXES", "TEMP_PREFIX"]

FORMATS = ("text", "pages", "glyphs", "words", "markdown")
"""Output formats: plain text (``.txt``), JSON lines of pages (``.pages.jsonl``: text and
statistics per page), of glyph records (``.glyphs.jsonl``) or of words with their boxes
(``.words.jsonl``, as ``extract --format words``), or Markdown (``.md``, as ``extract --format
markdown``)."""

SUFFIXES = {"text": ".txt", "pages": ".pages.jsonl", "glyphs": ".glyphs.jsonl", "words": ".words.jsonl",
            "markdown": ".md"}
"""The output file's suffix per format."""

MANIFEST = "manifest.jsonl"
"""The manifest's name in the output folder: one JSON line per file."""

