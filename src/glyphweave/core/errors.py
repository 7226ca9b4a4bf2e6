"""Errors a user can see. Each carries a one-line message fit for a terminal."""

from __future__ import annotations


class GlyphweaveError(Exception):
    """Base class of every error glyphweave raises on purpose."""


class PDFOpenError(GlyphweaveError):
    """The file is not a PDF we can open (damaged, truncated, not a PDF at all)."""


class PasswordError(PDFOpenError):
    """The file is encrypted and the password is missing or wrong."""


class PageError(GlyphweaveError, IndexError):
    """A page number is out of range or a page range is malformed.

    It is also an :class:`IndexError`, so sequence protocols that stop on one keep working."""


class ProfileError(GlyphweaveError):
    """A profile names an unknown component or option, or is malformed."""


class PluginError(GlyphweaveError):
    """A plugin could not be loaded or two plugins claim the same component name."""


class ComponentError(GlyphweaveError):
    """A component failed while a page was extracted, or broke its stage's contract.

    The message names the stage, the component, the plugin and distribution it came from,
    and the page, so the report goes to whoever can fix it."""
