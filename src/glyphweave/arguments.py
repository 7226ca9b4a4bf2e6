"""The command-line options shared by the commands that open PDFs or load plugins, defined once.

:func:`add_open_options` (the password, the profile, the limits and the plugins),
:func:`add_plugin_options` (``--block``, ``-p``) and :func:`add_jobs_option` (``-j N|auto``)
add them to a command's parser; :func:`open_options` turns the parsed ones into the
:class:`~glyphweave.opening.OpenOptions` the command opens its documents with.

Each argument type turns a malformed value into :class:`argparse.ArgumentTypeError`, so
argparse reports it as a usage error (exit status 2) naming the option, before any file is
read: a limit of ``-1`` or a page range ``5-2`` is the user's to fix, not a plugin failure
or a bug.
"""

from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from glyphweave.core.errors import GlyphweaveError, UsageError

if TYPE_CHECKING:  # the plugin machinery loads when a command opens, not to parse its arguments
    from glyphweave.opening import OpenOptions
    from glyphweave.pageranges import PageLabel, PageRange

__all__ = ["add_jobs_option", "add_open_options", "add_plugin_options", "jobs", "open_options", "page_spec",
           "positive_number", "read_password_file", "report_plugins"]

LIMIT_OPTIONS = (("max_page_mb", "page_content_mb"), ("max_records_mb", "page_records_mb"),
                 ("page_seconds", "page_seconds"))
"""Each limit option's attribute on the parsed arguments, and the limit it sets."""


def add_plugin_options(parser: argparse.ArgumentParser) -> None:
    """``--block NAME`` and ``-p MODULE``: every command that loads plugins takes them."""
    parser.add_argument("--block", action="append", default=[], metavar="NAME",
                        help="do not load the plugin with this entry-point name (repeatable; also "
                             "GLYPHWEAVE_BLOCK_PLUGINS=a,b)")
    parser.add_argument("-p", "--plugin", action="append", default=[], metavar="MODULE",
                        help="import MODULE and use it as a plugin, without installing it (repeatable)")


def add_open_options(parser: argparse.ArgumentParser, *, profile_help: str = "profile name or TOML file") -> None:
    """What a document is opened with (:func:`open_options`): the password, the profile, the
    page limits and the plugins. Every command that opens PDFs takes them."""
    add_plugin_options(parser)
    secret = parser.add_mutually_exclusive_group()
    secret.add_argument("--password", help="user or owner password of the encrypted files")
    secret.add_argument("--password-file", metavar="FILE",
                        help="read the password from the first line of FILE (not visible in the process list)")
    parser.add_argument("--profile", default="default", help=f"{profile_help} (default: default)")
    parser.add_argument("--no-annotations", dest="annotations", action="store_false", default=None,
                        help="leave out the text of annotations and form fields (their appearances and "
                             "values); default: the profile's, which includes it")
    parser.add_argument("--max-page-mb", type=positive_number("MB"), metavar="MB",
                        help="decoded content allowed per page, forms included (default: the profile's, 64)")
    parser.add_argument("--max-records-mb", type=positive_number("MB"), metavar="MB",
                        help="what the strings, glyphs and forms painted of a page may cost once recorded "
                             "(default: the profile's, 320)")
    parser.add_argument("--page-seconds", type=positive_number("seconds"), metavar="S",
                        help="time allowed per page, reading, filters and assembler included; past it the page "
                             "is assembled in paint order, with a warning (default: the profile's, no limit)")


def add_jobs_option(parser: argparse.ArgumentParser, what: str) -> None:
    """``-j N|auto`` (:func:`jobs`): the processes a command runs on; ``what`` is its help text
    (what the processes do, and what auto chooses)."""
    parser.add_argument("-j", "--jobs", type=jobs, default=None, metavar="N|auto", help=what)


def jobs(value: str) -> int | None:
    """``--jobs``: a number of processes (at least 1), or ``auto`` (None: the command chooses)."""
    if value.strip().lower() == "auto":
        return None
    try:
        count = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number or 'auto', got {value!r}") from None
    if count < 1:
        raise argparse.ArgumentTypeError("must be at least 1")
    return count


def open_options(args: argparse.Namespace) -> OpenOptions:
    """The options ``args`` (parsed with :func:`add_open_options`, or only
    :func:`add_plugin_options`) open documents with. A command owns its process (and its
    workers) and reports its plugins' problems once, itself: the collector is paused while
    a page is extracted, and a broken installed plugin is left out rather than fatal.

    :raises GlyphweaveError: ``--password-file`` cannot be read.
    """
    from glyphweave.opening import OpenOptions

    password_file = getattr(args, "password_file", None)
    password = read_password_file(password_file) if password_file is not None else getattr(args, "password", None)
    limits: dict[str, Any] = {limit: getattr(args, name) for name, limit in LIMIT_OPTIONS
                              if getattr(args, name, None) is not None}
    return OpenOptions(password=password, profile=getattr(args, "profile", "default"), limits=limits or None,
                       annotations=getattr(args, "annotations", None), plugins=tuple(args.plugin),
                       block=tuple(args.block), pause_gc=True, skip_broken=True)


def page_spec(text: str) -> tuple[PageRange | PageLabel, ...]:
    """``--pages``: ranges such as ``1-3,7,10-``, or page labels (see :mod:`glyphweave.pageranges`,
    imported only for a command given pages: its records and patterns cost a run without
    ``--pages`` 2 ms of its start)."""
    from glyphweave.pageranges import parse_page_spec

    try:
        return parse_page_spec(text)
    except UsageError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


CROP_HELP = ("only the glyphs whose centre lies in this box, in points from the top-left corner of the "
             "page as shown (its CropBox turned by /Rotate): X0,TOP,X1,BOTTOM, as pdfplumber's crop")


def crop_box(text: str) -> tuple[float, float, float, float]:
    """``--crop``: ``x0,top,x1,bottom`` (see :mod:`glyphweave.pagecrop`)."""
    from glyphweave.pagecrop import check_box

    parts = text.split(",")
    if len(parts) != 4:
        raise argparse.ArgumentTypeError(f"{text!r} is not four numbers X0,TOP,X1,BOTTOM (e.g. 0,0,300,200)")
    try:
        numbers = [float(part) for part in parts]
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not four numbers X0,TOP,X1,BOTTOM (e.g. 0,0,300,200)") from None
    try:
        return check_box(numbers)
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


def report_plugins(options: OpenOptions) -> Any:
    """The plugin manager ``options`` give (:func:`~glyphweave.opening.plugin_manager`), its
    problems (a broken or clashing installed plugin, left out) printed once on standard error,
    before the command's own output. Python's :class:`PluginWarning` is then ignored for the
    rest of the command: each later manager (a worker's, a document's) would repeat them.

    :raises PluginError: a ``-p`` module cannot be loaded (the command fails, status 6).
    """
    from glyphweave.opening import ignore_plugin_warnings, plugin_manager, plugin_problems

    pm = plugin_manager(options)
    for line in plugin_problems(pm):
        print(f"glyphweave: warning: {line}", file=sys.stderr)
    ignore_plugin_warnings()
    return pm
