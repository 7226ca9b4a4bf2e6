"""The command line's exit statuses, one per cause (docs/usage.rst), and the one each error
gives. The batch manifest records the status each file would have given, so the batch
runner and the scan read them here too; the errors themselves are core's
(:mod:`glyphweave.core.errors`), which knows nothing of a command line.
"""

from __future__ import annotations

from glyphweave.core.errors import (
    ComponentError,
    PasswordError,
    PDFOpenError,
    PluginError,
    ProfileError,
    UsageError,
)

EXIT_ERROR = 1
"""Any other error: an output that cannot be written, or a bug of ours (reported as one line)."""
EXIT_USAGE = 2
"""The command line itself is wrong (argparse's status)."""
EXIT_WARNINGS = 3
"""``--strict``: the extraction finished, but with warnings."""
EXIT_UNREADABLE = 4
"""The file cannot be opened as a PDF: not a PDF, truncated or damaged beyond recovery."""
EXIT_PASSWORD = 5
"""The file is encrypted and the password is missing or wrong."""
EXIT_PLUGIN = 6
"""A plugin, a profile or a component failed (the message names it)."""
EXIT_LIMIT = 7
"""``--strict``: a resource limit cut a page short (the text found before it was written)."""


def exit_status(exc: BaseException) -> int:
    """The documented exit status of an error."""
    if isinstance(exc, UsageError):
        return EXIT_USAGE
    if isinstance(exc, PasswordError):
        return EXIT_PASSWORD
    if isinstance(exc, PDFOpenError):
        return EXIT_UNREADABLE
    if isinstance(exc, (PluginError, ProfileError, ComponentError)):
        return EXIT_PLUGIN
    return EXIT_ERROR
