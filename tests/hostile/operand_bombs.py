"""Hostile operands (built on demand, never stored): one array or string that costs far more
held than it does compressed."""

from __future__ import annotations

from .record_floods import BEFORE, flate_page


def huge_array(items: int = 5_000_000) -> bytes:
    """A ``TJ`` array of ``items`` numbers (about 10 KB compressed), then a last word."""
    return flate_page(BEFORE + b"BT /F1 12 Tf 72 700 Td [" + b"1 " * items + b"] TJ (After) Tj ET")


def unterminated_string(pieces: int = 1_000_000) -> bytes:
    """A string of ``pieces`` escaped parentheses and letters that never closes, to the end of
    the stream."""
    return flate_page(BEFORE + b"BT /F1 12 Tf 72 680 Td (" + b"\\(a" * pieces)
