"""The ``glyphweave`` command: parses arguments, calls the API, formats output.

Errors a user can cause (bad file, wrong password, unknown profile) end in one line on
stderr and a non-zero exit; never a traceback. Output files are written atomically, so
a failed run never leaves a truncated file where a good one stood.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import importlib
import io
import os
import sys
import warnings
from collections.abc import Iterator, Sequence
from typing import IO, Any

from glyphweave.exits import (  # noqa: F401 (the documented exit statuses, re-exported: docs/usage.rst)
    EXIT_ERROR,
    EXIT_LIMIT,
    EXIT_PASSWORD,
    EXIT_PLUGIN,
    EXIT_UNREADABLE,
    EXIT_USAGE,
    EXIT_WARNINGS,
    exit_status,
)


class _Version(argparse.Action):
    """``--version``: the version and the build, found only when asked (finding it imports
    the compiled modules, which other commands may never need)."""

    def __init__(self, option_strings: list[str], version: str, **kwargs: Any) -> None:
        super().__init__(option_strings, **kwargs)
        self.version = version

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: Any,
                 option_string: str | None = None) -> None:
        from glyphweave.accelerated import describe_build

        print(f"{self.version} ({describe_build()})")  # on stdout, as argparse's own version action
        parser.exit()


STDIN_LIMIT_MB = 512
"""Standard input read at most, by default (``--max-input-mb``): ``extract - < /dev/zero``
would otherwise read until memory runs out. A larger PDF can be given by its path."""


def _json() -> Any:
    """:mod:`json`, imported by the outputs and reports that write it: a plain text extraction
    never does, and its import is a millisecond of every run's start."""
    import json

    return json


def _encoding(name: str) -> str:
    """``--encoding``: a codec Python knows, by its canonical name."""
    import codecs

    try:
        return codecs.lookup(name).name
    except LookupError:
        raise argparse.ArgumentTypeError(f"unknown encoding {name!r} (e.g. utf-8, utf-16, latin-1)") from None


_COMMANDS: dict[str, str] = {
    "extract": "glyphweave.cli", "glyphs": "glyphweave.cli", "plugins": "glyphweave.cli",
    "profiles": "glyphweave.cli", "grep": "glyphweave.grep", "batch": "glyphweave.batch.command",
    "scan": "glyphweave.glyphmap.command", "sheet": "glyphweave.glyphmap.command",
    "registry": "glyphweave.glyphmap.command", "repair": "glyphweave.glyphmap.command",
    "new-plugin": "glyphweave.cli:_add_new_plugin",
}
"""Each subcommand → what adds it (a module's ``add_parsers``, or ``module:function``), in
the order of the help. A command line naming one builds that adder's parsers only: the others' imports and help
texts cost every run about 4 ms. A test holds this table to what the adders add."""


def _parser(command: str | None = None) -> argparse.ArgumentParser:
    """The command line's parser: every subcommand, or with ``command`` (a key of
    :data:`_COMMANDS`) the subcommands its adder adds."""
    from glyphweave import __version__

    parser = argparse.ArgumentParser(
        prog="glyphweave", description="Extract the text of PDF files, right.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="exit status: 0 done, 1 other error, 2 usage, 3 warnings (--strict), 4 cannot open the PDF,\n"
               "5 password missing or wrong, 6 a plugin or profile failed, 7 a resource limit was reached (--strict)",
    )
    parser.add_argument("--version", action=_Version, nargs=0, version=f"glyphweave {__version__}",
                        help="show the version, and whether this install runs its compiled modules, and exit")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    # Every command module adds its subcommands the same way: add_parsers(sub), each subcommand
    # with its runner as ``run`` (_command calls it). Shared options come from glyphweave.arguments.
    adders = dict.fromkeys(_COMMANDS.values()) if command is None else (_COMMANDS[command],)
    for adder in adders:
        module, _, name = adder.partition(":")
        add = getattr(importlib.import_module(module), name or "add_parsers")
        add(sub)
    return parser


def _named_command(argv: Sequence[str]) -> str | None:
    """The subcommand ``argv`` names first (before it, only what the top-level parser knows:
    none but ``--version`` and help, which need every subcommand), or None."""
    first = argv[0] if argv else None
    return first if first in _COMMANDS else None


def add_parsers(sub: Any) -> None:
    """``extract``, ``glyphs``, ``plugins`` and ``profiles`` (``sub`` is the parser's subparsers)."""
    from glyphweave.arguments import add_jobs_option, add_plugin_options
    from glyphweave.batch.jobs import AUTO_MIN_PAGES

    ex = sub.add_parser("extract", help="print the text of a PDF")
    _document_options(ex)
    ex.add_argument("--mode", help="assembler to use instead of the profile's (e.g. reading)")
    ex.add_argument("--format", choices=("text", "jsonl", "words", "hocr", "markdown"), default="text",
                    help="text (pages separated by form feeds), jsonl (one JSON object per page), words (one "
                    "JSON object per word, with its box, font and size), hocr (HTML with the boxes of blocks, "
                    "lines and words, as OCR tools exchange it) or markdown (headings, lists, tables and emphasis; "
                    "the markdown assembler unless --mode names another)")
    ex.add_argument("--separator", default="\f", help="written after each page in text format (default: form feed)")
    ex.add_argument("--bom", action="store_true", help="start text output with a byte-order mark")
    ex.add_argument("--stats", action="store_true", help="print statistics to standard error")
    add_jobs_option(ex, f"processes extracting pages (default: auto, one per core from {AUTO_MIN_PAGES} "
                        "pages, else 1); the output is the same")
    ex.set_defaults(run=cmd_extract)

    gl = sub.add_parser("glyphs", help="dump glyph records as JSON lines")
    _document_options(gl)
    gl.add_argument("--raw", action="store_true", help="every painted glyph, before the filters")
    gl.set_defaults(run=cmd_glyphs)

    pl = sub.add_parser("plugins", help="list installed components and a profile's pipeline")
    add_plugin_options(pl)
    pl.add_argument("--profile", default="default", help="profile whose resolved pipeline to show")
    pl.add_argument("--format", choices=("text", "json"), default="text",
                    help="text, or everything as one JSON document")
    pl.set_defaults(run=cmd_plugins)

    pr = sub.add_parser("profiles", help="list the profiles available by name")
    add_plugin_options(pr)
    pr.set_defaults(run=cmd_profiles)


def _document_options(p: argparse.ArgumentParser) -> None:
    """The options of ``extract`` and ``glyphs``: one PDF, read and written as a user chooses."""
    from glyphweave.arguments import CROP_HELP, add_open_options, crop_box, page_spec, positive_number

    p.add_argument("pdf", help="the PDF file ('-' reads standard input)")
    add_open_options(p)
    p.add_argument("--pages", type=page_spec, metavar="RANGES",
                   help="page ranges, 1-based as in a viewer: 1-3,7,10-; or page labels: iv,ix-xii")
    p.add_argument("--crop", type=crop_box, metavar="X0,TOP,X1,BOTTOM", help=CROP_HELP)
    p.add_argument("-o", "--output", help="write here instead of standard output (never over the input)")
    p.add_argument("--encoding", type=_encoding, default="utf-8",
                   help="of the output (default: utf-8 whatever the locale); characters it cannot "
                        "encode become '?'")
    p.add_argument("--max-input-mb", type=positive_number("MB"), default=STDIN_LIMIT_MB, metavar="MB",
                   help=f"most standard input read (default: {STDIN_LIMIT_MB}); more is refused with "
                        f"status {EXIT_UNREADABLE}: give the file's path instead")
    p.add_argument("--strict", action="store_true",
                   help=f"exit with status {EXIT_WARNINGS} when there were warnings (a failing plugin, "
                        f"an unreadable font, ...), {EXIT_LIMIT} when a resource limit cut a page short")
    p.add_argument("-q", "--quiet", action="store_true",
                   help="print no warnings on standard error (--strict still counts them)")


def _add_new_plugin(sub: Any) -> None:
    np = sub.add_parser("new-plugin", help="write a new plugin package, with tests and a tox matrix")
    np.add_argument("name", help="the plugin's name: lower-case letters, digits, hyphens")
    np.add_argument("--kind", choices=("decoder", "filter", "assembler"), default="decoder",
                    help="the component it starts with (default: decoder)")
    np.add_argument("-o", "--output", default=".", help="folder to create glyphweave-NAME in (default: .)")
    np.set_defaults(run=cmd_new_plugin)


@contextlib.contextmanager
def _output(path: str | None, *, inputs: Sequence[str] = (), encoding: str = "utf-8") -> Iterator[IO[str]]:
    """Standard output, or ``path`` written by :func:`glyphweave.files.replacing` (a regular
    file replaced atomically when the block succeeds, a link's target replaced, a device or
    FIFO written in place, an input refused); in ``encoding`` either way, with characters it
    cannot encode written as ``?`` rather than failing the run on the first one."""
    if path is not None and path != "-":
        from glyphweave.files import replacing

        with replacing(path, inputs=inputs, encoding=encoding, errors="replace") as stream:
            yield stream
        return
    stdout = sys.stdout
    if stdout is None:  # the process was started with its standard output closed
        from glyphweave.core.errors import GlyphweaveError

        raise GlyphweaveError("standard output is closed: nothing can be written (give -o FILE)")
    buffer = getattr(stdout, "buffer", None)
    if buffer is None:  # a text stream with no bytes under it (a host's redirection): as it is
        yield stdout
        stdout.flush()
        return
    stdout.flush()
    stream = io.TextIOWrapper(buffer, encoding=encoding, errors="replace", newline="", write_through=True,
                              line_buffering=bool(getattr(stdout, "line_buffering", False)))
    try:
        yield stream
        stream.flush()
    finally:
        stream.detach()  # sys.stdout keeps its buffer open


def _plugin_manager(args: argparse.Namespace, options: Any = None) -> Any:
    """The plugins the command runs with (installed ones minus ``--block``, plus ``--plugin``
    modules; a broken or clashing plugin left out), each problem printed once
    (:func:`~glyphweave.arguments.report_plugins`)."""
    from glyphweave.arguments import open_options, report_plugins

    return report_plugins(options if options is not None else open_options(args))


@contextlib.contextmanager
def _opened(args: argparse.Namespace) -> Iterator[Any]:
    """:func:`_open`'s document, closed at the end. The console script ends the process
    without teardown right after (:func:`run`): its document's file is closed, and the
    document is kept (``kept_until_exit``), not freed string by string and table by table
    when the command returns (a twentieth of a short OCR document's time)."""
    doc = _open(args)
    try:
        yield doc
    finally:
        kept = getattr(args, "kept_until_exit", None)
        if kept is not None:
            kept.append(doc)  # not freed when the command returns: the exit drops it whole
            doc._close_file()
        else:
            doc.close()


def _open(args: argparse.Namespace) -> Any:
    from glyphweave.api import open_with
    from glyphweave.arguments import open_options

    if args.output not in (None, "-"):  # refused before any work, not after it
        from glyphweave.files import check_not_input

        check_not_input(args.output, (args.pdf,))
    args.open_options = options = open_options(args)  # the workers of --jobs open with it too
    pm = _plugin_manager(args, options)
    source: Any = args.pdf
    if source == "-":
        source = _read_stdin(args.max_input_mb)
    # The command line owns its process and runs one thread: pausing the collector is safe here.
    try:
        doc = open_with(source, options, plugin_manager=pm)
    finally:
        if getattr(args, "collecting", False):  # the console script's start-up pause ends here,
            gc.freeze()  # what start-up made frozen first, as each page's is: the first collection
            gc.enable()  # would otherwise walk all of it (5 ms) to free nothing
    args.broken_plugins = len(pm.broken) + len(pm.warnings)  # warnings too, for --strict
    return doc


def _read_stdin(limit_mb: float) -> bytes:
    """Standard input, whole, up to ``limit_mb``: a stream with no end (``/dev/zero``) is
    refused once past it, instead of filling memory."""
    from glyphweave.core.errors import PDFOpenError

    stream = getattr(sys.stdin, "buffer", None)
    if stream is None:
        raise PDFOpenError("standard input is closed: no PDF to read")
    limit = int(limit_mb * 1024 * 1024)
    data = bytearray()
    while len(data) <= limit:
        chunk = stream.read(min(1 << 20, limit + 1 - len(data)))
        if not chunk:
            break
        data += chunk
    if len(data) > limit:
        raise PDFOpenError(f"standard input holds more than {limit_mb:g} MB: give the file's path instead, "
                           "or raise --max-input-mb")
    if not data:
        raise PDFOpenError("standard input is empty: no PDF to read")
    return bytes(data)


def _page_indices(args: argparse.Namespace, doc: Any) -> list[int] | None:
    """The pages ``--pages`` selects (already parsed by argparse); a page past the end is a
    usage error (:class:`~glyphweave.core.errors.PageError`)."""
    if args.pages is None:
        return None
    from glyphweave.pageranges import PageLabel, select_pages

    labels = doc.page_labels if any(isinstance(part, PageLabel) for part in args.pages) else None
    return select_pages(args.pages, len(doc), labels=labels)


def _check_mode(args: argparse.Namespace, doc: Any) -> None:
    """An unknown ``--mode`` is a usage error, reported before any page is read."""
    if args.mode is None:
        return
    from glyphweave.core.errors import ProfileError, UsageError

    try:
        doc.pipeline.assembler_for(args.mode)
    except ProfileError as exc:
        raise UsageError(f"--mode: {exc}") from None


def cmd_extract(args: argparse.Namespace) -> int:
    import attrs

    from glyphweave.batch.jobs import processes

    with _opened(args) as doc:
        pages = _page_indices(args, doc)
        _check_mode(args, doc)
        # Workers open the file by path, with the limits as resolved here (profile and command
        # line); standard input is read once, by this process.
        path = None if args.pdf == "-" else args.pdf
        split = attrs.evolve(args.open_options, limits=doc.limits)
        crop = args.crop
        jobs = processes(doc, pages, args.jobs, path)
        if jobs == 1:  # the usual case: the document itself, no split to import
            pages_from: contextlib.AbstractContextManager[Any] = contextlib.nullcontext(doc)
        else:
            from glyphweave.batch.pages import PageSplit, SplitOptions

            assert path is not None  # processes() gives 1 without a path
            pages_from = PageSplit(doc, SplitOptions(path=path, open=split, crop=crop), jobs=jobs)
        with pages_from as source, \
                _output(args.output, inputs=(args.pdf,), encoding=args.encoding) as out:
            if args.format == "text":
                if args.bom:
                    out.write("\ufeff")
                for _, text in _frozen_after_each(source.iter_text(pages, mode=args.mode, crop=crop),
                                                  args.owns_process):
                    out.write(text)
                    out.write(args.separator)
            elif args.format == "markdown":
                written = False
                for _, text in _frozen_after_each(source.iter_text(pages, mode=args.mode or "markdown", crop=crop),
                                                  args.owns_process):
                    if text:
                        out.write("\n" + text if written else text)  # pages apart by a blank line
                        written = True
            elif args.format in ("words", "hocr"):
                _write_words(args, doc, source.iter_blocks(pages, mode=args.mode, crop=crop), out)
            else:
                for page, result in _frozen_after_each(source.iter_assembled(pages, mode=args.mode, crop=crop),
                                                       args.owns_process):
                    record = {"page": page.number + 1, "text": result.text, "stats": page.stats.to_dict()}
                    if result.data is not None:
                        record["data"] = result.data
                    out.write(_json_line(record, args.mode or doc.pipeline.assembler.NAME))
        if args.stats:
            report = {**doc.stats.to_dict(), "warning_messages": [str(warning) for warning in doc.warnings()],
                      "sources": doc.resource_sources(),
                      "pages_assembly": doc.assembly()}
            print(_json().dumps(report, ensure_ascii=False), file=sys.stderr)
        _suggest_shapes(doc)
        return _finish(args, doc)


def _suggest_shapes(doc: Any) -> None:
    """One line on standard error when glyphs went unread that the ``shapes`` profile could
    read by their outlines (the default profile never guesses them)."""
    outlined = doc.stats.unresolved_outlined
    if not outlined or any(decoder.NAME == "shape" for decoder in doc.pipeline.chain.decoders):
        return
    print(f"glyphweave: note: {outlined} glyph{'s' if outlined != 1 else ''} of fonts with no mapping went unread;"
          " --profile shapes reads them by their outlines", file=sys.stderr)


def _write_words(args: argparse.Namespace, doc: Any, read: Iterator[tuple[Any, Any, Any]], out: IO[str]) -> None:
    """``--format words`` (a JSON object per word) or ``--format hocr`` (an hOCR document)
    of the pages ``read`` gives: (page, its text, its blocks)."""
    if args.format == "words":
        from glyphweave.pagewords import word_records

        for page, _result, blocks in _frozen_after_each(read, args.owns_process):
            for record in word_records(page.number, blocks):
                out.write(_json().dumps(record, ensure_ascii=False) + "\n")
        return
    from glyphweave import __version__
    from glyphweave.hocr import HocrWriter
    from glyphweave.pagespace import shown_size

    name = "standard input" if args.pdf == "-" else os.path.basename(args.pdf)
    writer = HocrWriter(out, name, f"glyphweave {__version__}")
    for page, _result, blocks in _frozen_after_each(read, args.owns_process):
        shown = doc.pages[page.number]
        writer.page(page.number, shown_size(shown.cropbox, shown.rotate), blocks, "" if args.pdf == "-" else name)
    writer.close()


def _json_line(record: dict[str, Any], assembler: str) -> str:
    from glyphweave.core.errors import ComponentError

    try:
        return _json().dumps(record, ensure_ascii=False) + "\n"
    except (TypeError, ValueError) as exc:
        raise ComponentError(f"page {record['page']}: assembler {assembler!r} returned data JSON cannot "
                             f"write: {exc}") from None


def _finish(args: argparse.Namespace, doc: Any) -> int:
    """Print the document's warnings on stderr (unless ``--quiet``); the exit status."""
    warnings = doc.warnings()
    if not args.quiet:
        on_pages = {warning.message for warning in warnings}  # a component's failure is in both
        once = [warning for warning in doc.component_warnings if warning.message not in on_pages]
        for line in _warning_lines([*warnings, *once]):
            print(f"glyphweave: warning: {line}", file=sys.stderr)
    count = doc.warning_count() + getattr(args, "broken_plugins", 0)
    if args.strict and count:
        print(f"glyphweave: {count} warning(s) (--strict)", file=sys.stderr)
        return EXIT_LIMIT if any(warning.kind == "limit" for warning in warnings) else EXIT_WARNINGS
    return 0


def _warning_lines(warnings: Sequence[Any]) -> list[str]:
    """One line per distinct warning (:class:`~glyphweave.guard.report.WarningRecord`), in
    order of first appearance: the same message on several pages is one line naming them
    (``... (pages 2, 5, 9)``), one repeated on a page says how often, and one that several
    fonts gave names the first font and how many more (``font (5, 0) and 7 more fonts: ...``),
    so a damaged font used on every page, or a page of damaged fonts, is not a wall of text."""
    seen: dict[str, list[tuple[int, str]]] = {}  # text -> (page or 0, font or "") of each message
    for warning in warnings:
        text, font = warning.message, ""
        if warning.source.startswith("font ") and text.startswith(f"{warning.source}: "):
            text, font = text[len(warning.source) + 2:], warning.source[5:]
        seen.setdefault(text, []).append((warning.page or 0, font))
    lines = []
    for text, places in seen.items():
        fonts = list(dict.fromkeys(font for _, font in places if font))
        if fonts:
            more = f" and {len(fonts) - 1} more fonts" if len(fonts) > 1 else ""
            text = f"font {fonts[0]}{more}: {text}"
        distinct = sorted({page for page, _ in places} - {0})
        times = f" ({len(places)} times)" if len(places) > max(len(set(places)), 1) else ""
        if not distinct:
            lines.append(f"{text}{times}")
        elif len(distinct) == 1:
            lines.append(f"page {distinct[0]}: {text}{times}")
        else:
            shown = ", ".join(map(str, distinct[:8])) + (f", ... ({len(distinct)} pages)" if len(distinct) > 8 else "")
            lines.append(f"{text} (pages {shown}){times}")
    return lines


_THAW_PAGES = 200
"""Pages between two full collections of what :func:`_frozen_after_each` froze."""


def _frozen_after_each(items: Iterator[Any], freeze: bool) -> Iterator[Any]:
    """``items``, with what is alive after each page written frozen out of the cyclic
    collector's reach (``gc.freeze``) when ``freeze``, and thawed for one full collection
    every :data:`_THAW_PAGES` pages. The collector is off meanwhile: between pages only the
    freeze and the thaws touch it.

    The document iterators pause the collector while a page is extracted (``pause_gc``);
    what outlives the page (the document's fonts, measured strings, structure tree) then
    reaches the collector as young objects and is scanned again by every collection (the
    design notes, "Runs and lazy columns", give the cost). Extraction makes no reference
    cycles per page, but what a cache lets go of later may be one (a parsed font program
    holds its tables and they hold it): frozen, it would never be freed, and a long merged
    document, whose fonts come and go, would grow by megabytes every hundred pages. The
    periodic thaw frees them: one full collection (tens of milliseconds) per
    :data:`_THAW_PAGES` pages keeps the process's peak flat in page count.
    The freeze is process-wide, so only the console script, which owns its process and
    ends it after the command (:func:`run`), asks for it: :func:`main` in a host's process
    freezes nothing, and there ``gc.unfreeze`` could not tell the host's frozen objects
    from these."""
    if not freeze:
        yield from items
        return
    # Off for the whole loop, not only inside each page (the document's pause): resumed between
    # pages, the collector would run at the first allocation of the caller's (writing the page
    # out), walking what the page left alive just before it is frozen.
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        for done, item in enumerate(items, 1):
            yield item
            if done % _THAW_PAGES == 0:
                gc.unfreeze()
                gc.collect()
            gc.freeze()
    finally:
        if was_enabled:
            gc.enable()


def cmd_glyphs(args: argparse.Namespace) -> int:
    with _opened(args) as doc:
        pages = _page_indices(args, doc)
        with _output(args.output, inputs=(args.pdf,), encoding=args.encoding) as out:
            for page, glyphs in doc.iter_glyphs(pages, raw=args.raw, crop=args.crop):
                for glyph in glyphs:
                    record = {"page": page.number + 1, **glyph.to_dict()}
                    out.write(_json().dumps(record, ensure_ascii=False) + "\n")
        return _finish(args, doc)


def cmd_plugins(args: argparse.Namespace) -> int:
    from glyphweave.api import resource_sources
    from glyphweave.components.catalog import Catalog
    from glyphweave.components.profile import load_profile
    from glyphweave.core.pipeline import Pipeline

    pm = _plugin_manager(args)
    catalog = Catalog.from_plugin_manager(pm)
    profile = load_profile(args.profile, catalog)  # a bad profile fails before any output
    resolved = profile.instantiate(catalog)
    sources = resource_sources(Pipeline(resolved, catalog))
    if args.format == "json":
        report = {
            "components": [info.to_dict() for info in catalog.components()],
            "profile": profile.to_dict(),
            "resolved": resolved.to_dict(),
            "broken_plugins": dict(pm.broken),
            "left_out": [record.to_dict() for record in pm.left_out],
            "plugin_warnings": list(pm.warnings),
            "data_tables": sources,
        }
        print(_json().dumps(report, ensure_ascii=False, indent=2))
        return 0
    _print_components(catalog)
    _print_profile(profile, resolved)
    if pm.broken:
        print("\nplugins that could not be loaded:")
        for name, message in pm.broken.items():
            print(f"  {name}: {message}")
    if pm.left_out:
        print("\nleft out, their name taken by another plugin:")
        for record in pm.left_out:
            print(f"  {record.message}")
    print("\ndata tables (mirror = shipped files, fallback = small built-in table):")
    for table, source in sorted(sources.items()):
        print(f"  {table:<16} {source}")
    return 0


def _print_components(catalog: Any) -> None:
    """Each component with its distribution, plugin (entry-point) name, summary and options."""
    infos = catalog.components()
    width = max((len(info.name) for info in infos), default=4)
    for kind in ("decoder", "filter", "assembler"):
        print(f"{kind}s:")
        for info in infos:
            if info.kind != kind:
                continue
            print(f"  {info.name:<{width}}  {info.distribution:<20}  plugin {info.plugin!r:<20}  {info.summary}")
            for name, option in info.cls.OPTIONS.items():
                print(f"  {'':<{width}}    {name} = {_option_line(option)}")


def _option_line(option: Any) -> str:
    """``0.25  (float, >= 0.0)  what it does``."""
    described = option.describe()
    kind = ", ".join(filter(None, [described["type"], option.limits()]))
    return f"{_json().dumps(described['default'])}  ({kind})  {described['doc']}"


def _print_profile(profile: Any, resolved: Any) -> None:
    print(f"\nprofile {profile.name!r} resolves to:")
    print(f"  decoders:  {' -> '.join(profile.decoders) or '(none)'}")
    print(f"  filters:   {' -> '.join(profile.filters) or '(none)'}")
    print(f"  assembler: {profile.assembler}")
    print(f"  unresolved glyphs show as: {profile.unresolved}")
    print(f"  annotation and form field text: {'included' if profile.annotations else 'left out'}")
    plan = resolved.to_dict()
    stages = [*plan["decoders"], *plan["filters"], plan["assembler"]]
    options = [(stage["name"], key, value) for stage in stages for key, value in stage["options"].items()]
    if options:
        print("  options in effect (set by the profile or default):")
        for component, key, value in options:
            given = key in profile.options.get(component, {})
            print(f"    {component}.{key} = {_json().dumps(value)}{'' if given else '  (default)'}")


def cmd_profiles(args: argparse.Namespace) -> int:
    from glyphweave.components.catalog import Catalog
    from glyphweave.components.profile import available_profiles

    catalog = Catalog.from_plugin_manager(_plugin_manager(args))
    for name, description in sorted(available_profiles(catalog).items()):
        print(f"{name:<16} {description}")
    return 0


def cmd_new_plugin(args: argparse.Namespace) -> int:
    from pathlib import Path

    from glyphweave.core.errors import GlyphweaveError
    from glyphweave.scaffold import write_plugin

    try:
        folder = write_plugin(args.name, args.kind, Path(args.output))
    except ValueError as exc:
        raise GlyphweaveError(str(exc)) from None
    print(f"wrote {folder}: cd there, then `pip install -e . && pytest` (or `tox`)")
    return 0


def _message(exc: Exception) -> str:
    """An error's message as the command line says it: a library message names no option, so
    where one is the way out, it is named here."""
    from glyphweave.core.errors import NotARegularFileError, PasswordError

    if isinstance(exc, PasswordError) and not exc.password_given:
        return f"{exc} (give it with --password or --password-file)"
    if isinstance(exc, NotARegularFileError) and exc.kind != "directory":
        return f"{exc.filename}: is a {exc.kind}, not a PDF file (to read from it, give '-' and redirect it)"
    return str(exc)


def _exit_status(exc: Exception) -> int:
    return exit_status(exc)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line ``argv`` (default: ``sys.argv[1:]``) in this process; the exit
    status. The console script is :func:`run`. Nothing process-wide is changed for good
    (the garbage collector's frozen objects, warning filters)."""
    return _main(argv)[0]


def run() -> None:
    """The ``glyphweave`` console script (and ``python -m glyphweave``): :func:`main`,
    then the end of the process.

    A command that has closed everything it opened (``extract`` and ``glyphs``, done without
    an error) ends it with ``os._exit`` once its output is flushed: the interpreter's
    teardown would otherwise free, object by object, every module, table and cache the run
    loaded, which nobody sees (the design notes, "Speed", give the cost).
    Every other command, and any that failed, exits as usual, running the exit handlers
    their pools and clients rely on."""
    # Start-up makes a hundred thousand objects (modules, classes, tables, the opened
    # document) and no garbage: the collections the collector would start meanwhile find
    # nothing. It is back on before the command runs, or for extract and glyphs once the
    # document is open, with what start-up made frozen (:func:`_open`): 6 ms of a one-page
    # run.
    collecting = gc.isenabled()
    gc.disable()
    kept: list[Any] = []  # what the command leaves for the end of the process to drop
    status, quick = _main(None, owns_process=True, collecting=collecting, kept=kept)
    if quick:
        _run_exit_handlers()
        os._exit(status)
    sys.exit(status)


def _run_exit_handlers() -> None:
    """What a normal exit does that anyone can see, before :func:`os._exit` skips the rest:
    the ``atexit`` handlers (plugins', coverage's, and :func:`logging.shutdown`, which logging
    registers there) and the flushing of the standard streams."""
    import atexit

    with contextlib.suppress(Exception):
        atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError, AttributeError):  # closed, or never opened
            stream.flush()


def _main(argv: Sequence[str] | None, *, owns_process: bool = False, collecting: bool = False,
          kept: list[Any] | None = None) -> tuple[int, bool]:
    """:func:`main`'s exit status, and whether the process may end without teardown.
    ``owns_process``: the process ends after the command (the console script), so the
    command may make process-wide choices for its speed. ``collecting``: the console script
    paused the cyclic collector for start-up, and it was on before: it is switched back on
    before the command runs, or once the document is open for the commands that open one
    (:func:`_open`). ``kept``: where the commands that end with a quick exit leave their
    document, closed but not freed, for the end of the process (:func:`_opened`)."""
    given = list(sys.argv[1:] if argv is None else argv)
    parser = _parser(_named_command(given))
    args = parser.parse_args(given)
    args.owns_process = owns_process
    args.collecting = collecting
    args.kept_until_exit = kept if owns_process else None
    if collecting and args.command not in _OPENS_FIRST:
        gc.enable()
    if args.command is None:
        parser.print_help(sys.stderr)
        return EXIT_USAGE, False
    with warnings.catch_warnings():
        # Python warnings of the libraries below (pikepdf's "a password was provided, but no
        # password was needed") are theirs to word, not ours to print: the CLI reports what
        # matters in its own lines.
        warnings.filterwarnings("ignore")
        warnings.filterwarnings("default", module=r"glyphweave(\.|$)")
        status, returned = _command(args)
    return status, returned and args.command in _QUICK_EXIT


_QUICK_EXIT = frozenset({"extract", "glyphs"})
"""Commands that leave nothing open when they return: no pool, client or temporary file."""
_OPENS_FIRST = frozenset({"extract", "glyphs"})
"""Commands whose start-up ends with opening their document (:func:`_open`), the console
script's collector pause with it."""


def _command(args: argparse.Namespace) -> tuple[int, bool]:
    """Run the parsed command: its exit status, and whether it returned (rather than
    ending in one of the failures reported here)."""
    from glyphweave.core.errors import GlyphweaveError

    try:
        return args.run(args), True
    except GlyphweaveError as exc:
        print(f"glyphweave: error: {_message(exc)}", file=sys.stderr)
        return _exit_status(exc), False
    except BrokenPipeError:
        # Output closed early (| head): not an error of ours.
        with contextlib.suppress(OSError):
            sys.stdout = open(os.devnull, "w")  # noqa: SIM115
        return 0, False
    except KeyboardInterrupt:
        print("glyphweave: interrupted", file=sys.stderr)
        return 130, False
    except OSError as exc:
        print(f"glyphweave: error: {exc.strerror or exc}: {exc.filename or ''}".rstrip(": "), file=sys.stderr)
        return EXIT_ERROR, False
    except Exception as exc:  # a bug of ours or a hostile file: one line, never a traceback
        print(f"glyphweave: error: unexpected {type(exc).__name__}: {exc} "
              "(please report this with the file)", file=sys.stderr)
        if os.environ.get("GLYPHWEAVE_DEBUG"):
            raise
        return EXIT_ERROR, False


if __name__ == "__main__":
    run()
