"""The data tables glyphweave reads, each behind the one mirror-or-fallback loader.

:mod:`~glyphweave.tables.encodings` (base encodings, glyph names), :mod:`~glyphweave.tables.std14`
(Core-14 metrics), :mod:`~glyphweave.tables.symbols` (Symbol, Zapf Dingbats, Wingdings) and
:mod:`~glyphweave.tables.cjk` (Adobe's CJK CMaps and CID tables); :mod:`~glyphweave.tables.loader`
reads their files. Importing any of them does no work: tables load on first use.
"""

from __future__ import annotations


def clear_caches() -> None:
    """Forget every table loaded in this process (for tests that swap the mirror out)."""
    from glyphweave.tables import cjk, encodings, std14, symbols

    encodings.clear_caches()
    std14.clear_caches()
    symbols.clear_caches()
    cjk.clear_caches()
