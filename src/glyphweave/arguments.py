"""Command-line argument types shared by the commands that open PDFs.

Each turns a malformed value into :class:`argparse.ArgumentTypeError`, so argparse reports it
as a usage error (exit status 2) naming the option, before any file is read: a limit of
``-1`` or a page range ``5-2`` is the user's to fix, not a plugin failure or a bug.
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable

from glyphweave.core.errors import GlyphweaveError, UsageError
from glyphweave.pageranges import PageRange, parse_page_spec

__all__ = ["page_spec", "positive_number", "read_password_file"]


def page_spec(text: str) -> tuple[PageRange, ...]:
    """``--pages``: ranges such as ``1-3,7,10-`` (see :mod:`glyphweave.pageranges`)."""
    try:
        return parse_page_spec(text)
    except UsageError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def positive_number(unit: str) -> Callable[[str], float]:
    """An argument type for a finite number above zero, counted in ``unit`` (for the message)."""

    def convert(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            value = math.nan
        if not (math.isfinite(value) and value > 0):
            raise argparse.ArgumentTypeError(f"{text!r} is not a number of {unit} above 0")
        return value

    convert.__name__ = f"number of {unit}"  # what argparse calls the type in its own messages
    return convert


def read_password_file(path: str) -> str:
    """The password on the first line of ``path`` (its line ending removed): a password on the
    command line is visible to every user of the machine in the process list.

    :raises GlyphweaveError: the file cannot be read.
    """
    try:
        with open(path, encoding="utf-8") as secret:  # noqa: PTH123
            return secret.readline().rstrip("\r\n")
    except (OSError, UnicodeDecodeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) else "not UTF-8 text"
        raise GlyphweaveError(f"{path}: cannot read the password ({reason})") from None
