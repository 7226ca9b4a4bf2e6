"""Errors a user can see. Each carries a one-line message fit for a terminal."""

from __future__ import annotations


class GlyphweaveError(Exception):
    """Base class of every error glyphweave raises on purpose."""


class UsageError(GlyphweaveError):
    """A request that cannot be carried out as given: a malformed page range, a limit out of
    its range, an output path that is the input. Nothing was read or written."""


class PDFOpenError(GlyphweaveError):
    """The file is not a PDF we can open (damaged, truncated, not a PDF at all)."""


class PDFNotFoundError(PDFOpenError, FileNotFoundError):
    """The path names no file. Also a :class:`FileNotFoundError` (``errno``, ``filename``
    set), so ``except FileNotFoundError`` catches it as it catches :func:`open`'s."""

    def __str__(self) -> str:
        return f"{self.filename}: no such file"


class NotARegularFileError(PDFOpenError):
    """The path names a folder, a device, a FIFO or a socket, not a regular file: nothing
    is read from it (``/dev/zero`` never ends, a FIFO blocks until someone writes).

    ``filename`` is the path, ``kind`` what it names (``"directory"``, ``"character
    device"``, ``"block device"``, ``"FIFO"``, ``"socket"``). Its bytes, read by the caller,
    or a binary stream over it can be opened instead."""

    def __init__(self, message: str, *, filename: str = "", kind: str = "") -> None:
        super().__init__(message)
        self.filename = filename
        self.kind = kind


class PasswordError(PDFOpenError):
    """The file is encrypted and the password is missing or wrong.

    ``password_given`` says which: False when no password was given (a front end may say
    how to give one), True when the one given is wrong. The message names neither a
    command-line option nor an argument."""

    def __init__(self, message: str, *, password_given: bool = False) -> None:
        super().__init__(message)
        self.password_given = password_given


class DocumentClosedError(GlyphweaveError, ValueError):
    """A closed document, or a page of one, was asked for its pages, text or glyphs. Also a
    :class:`ValueError`, as reading a closed file is ("I/O operation on closed file")."""


class PageError(UsageError, IndexError):
    """A page number is out of range or a page range is malformed.

    It is also an :class:`IndexError`, so sequence protocols that stop on one keep working,
    and a :class:`UsageError`: the command line exits with the usage status."""


class ProfileError(GlyphweaveError):
    """A profile names an unknown component or option, or is malformed."""


class PluginError(GlyphweaveError):
    """A plugin could not be loaded or two plugins claim the same component name."""


class ComponentError(GlyphweaveError):
    """A component failed while a page was extracted, or broke its stage's contract.

    The message names the stage, the component, the plugin and distribution it came from,
    and the page, so the report goes to whoever can fix it."""
