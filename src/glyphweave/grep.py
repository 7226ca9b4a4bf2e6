"""``glyphweave grep``: search PDF files' text from the command line, as pdfgrep does.

Each matching line is printed once, as ``FILE:PAGE: LINE`` (the file when more than one is
searched, the page with ``-n``), in the order of the files given and of their pages. The
search is :meth:`glyphweave.Document.search`'s: it finds words across ligatures, line ends and
hyphenation, which pdfgrep misses; a match that runs over a line end prints both lines. The
pattern is a Python regular expression (``-F``: a literal string).

Many files are searched on the batch pool's worker processes (``-j``), each file with the
pool's limits; a file that cannot be read is reported on standard error and the others are
still searched. Exit status, as grep's: 0 when something matched, 1 when nothing did, and
when a file failed, that file's status (``glyphweave --help`` lists them).
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import io
import json
import os
import sys
import time
from collections.abc import Iterator, Sequence
from typing import IO, Any

from glyphweave.exits import EXIT_ERROR

__all__ = ["GrepQuery", "add_parsers", "grep_file"]

NO_MATCH = 1
"""Exit status when nothing matched (grep's)."""


class GrepQuery:
    """What each file is searched for. (A plain class: the command line is built at every
    start, and a record class costs milliseconds to make.)"""

    __slots__ = ("case", "max_lines", "pattern", "regex")

    def __init__(self, pattern: str, *, case: bool = False, regex: bool = True, max_lines: int | None = None) -> None:
        self.pattern = pattern
        self.case = case
        self.regex = regex
        self.max_lines = max_lines
        """Stop a file after this many matching lines (``-m``)."""


def add_parsers(sub: Any) -> None:
    """The ``grep`` subcommand (``sub`` is the parser's subparsers)."""
    from glyphweave.arguments import CROP_HELP, add_jobs_option, add_open_options, crop_box

    p = sub.add_parser(
        "grep", help="search the text of PDF files, as pdfgrep",
        description="Print the lines of the PDFs' text that match PATTERN (a Python regular expression), "
                    "found across ligatures, line ends and hyphenation. Exit status: 0 when a line matched, "
                    "1 when none did; when a file could not be searched, its error's status.")
    p.add_argument("pattern", metavar="PATTERN", help="a regular expression (with -F: a literal string)")
    p.add_argument("inputs", nargs="+", metavar="FILE", help="PDF files, folders (searched recursively for *.pdf) "
                                                             "or @list.txt (one input per line)")
    p.add_argument("-i", "--ignore-case", action="store_true", help="ignore case")
    p.add_argument("-F", "--fixed-strings", action="store_true",
                   help="PATTERN is a literal string (its spaces match any white space, a line end included)")
    p.add_argument("-n", "--page-number", action="store_true", help="print the page number (1-based) of each line")
    p.add_argument("-c", "--count", action="store_true", help="print only the number of matches of each file")
    p.add_argument("--page-count", action="store_true", help="print only the number of matches on each page")
    names = p.add_mutually_exclusive_group()
    names.add_argument("-H", "--with-filename", dest="filenames", action="store_true", default=None,
                       help="print the file name of each line (the default with several files)")
    names.add_argument("--no-filename", dest="filenames", action="store_false",
                       help="never print file names")
    p.add_argument("-q", "--quiet", action="store_true", help="print nothing: the exit status says whether it matched")
    p.add_argument("-m", "--max-count", type=int, metavar="NUM", help="stop a file after NUM matching lines")
    p.add_argument("--pages", help="page ranges of every file, 1-based: 1-3,7,10- (cut to each file's pages)")
    p.add_argument("--mode", help="assembler to use instead of the profile's")
    p.add_argument("--crop", type=crop_box, metavar="X0,TOP,X1,BOTTOM", help=CROP_HELP)
    add_open_options(p)
    add_jobs_option(p, "worker processes for several files (default: auto, one per core)")
    p.set_defaults(run=cmd_grep)


def cmd_grep(args: argparse.Namespace) -> int:
    from glyphweave.arguments import open_options, report_plugins
    from glyphweave.batch.runner import input_files
    from glyphweave.batch.task import ExtractOptions, FileJob
    from glyphweave.core.errors import UsageError
    from glyphweave.pagesearch import compile_query

    if args.max_count is not None and args.max_count < 1:
        raise UsageError("--max-count must be at least 1")
    query = GrepQuery(pattern=args.pattern, case=not args.ignore_case, regex=not args.fixed_strings,
                      max_lines=1 if args.quiet else args.max_count)
    compile_query(query.pattern, case=query.case, regex=query.regex)  # a bad pattern fails before any file
    opening = open_options(args)
    report_plugins(opening)
    options = ExtractOptions(open=opening, mode=args.mode, pages=args.pages, crop=args.crop)
    sources, problems = input_files(args.inputs)
    show_names = args.filenames if args.filenames is not None else len(args.inputs) > 1 or len(sources) > 1
    jobs = [FileJob(source=source, output="", options=options, gather=True) for source in sources]
    matched = False
    error_status = 0
    for problem in problems:
        print(f"glyphweave: {problem.file}: {problem.error}", file=sys.stderr)
        error_status = error_status or problem.exit_status or EXIT_ERROR
    with _stdout() as out:
        for result in _in_order(jobs, query, args.jobs):
            if result.status != "ok":
                out.flush()
                print(f"glyphweave: {result.file}: {result.error}", file=sys.stderr)
                error_status = error_status or result.exit_status or EXIT_ERROR
                continue
            found = json.loads(result.content or "[]")
            matched = matched or bool(found)
            if not args.quiet:
                _print(out, result.file if show_names else None, found, args)
            if args.quiet and matched:
                break
    if error_status and not (args.quiet and matched):
        return error_status
    return 0 if matched else NO_MATCH


@contextlib.contextmanager
def _stdout() -> Iterator[IO[str]]:
    """Standard output in UTF-8, a character it cannot hold (a lone surrogate) written as ``?``."""
    buffer = getattr(sys.stdout, "buffer", None)
    if buffer is None:
        yield sys.stdout
        return
    sys.stdout.flush()
    stream = io.TextIOWrapper(buffer, encoding="utf-8", errors="replace", newline="", write_through=True)
    try:
        yield stream
        stream.flush()
    finally:
        stream.detach()


def _print(out: IO[str], name: str | None, found: list[list[Any]], args: argparse.Namespace) -> None:
    """Print one file's matching lines (``[page, matches, lines]`` each) as asked."""
    prefix = f"{name}:" if name is not None else ""
    if args.count:
        out.write(f"{prefix}{sum(matches for _page, matches, _lines in found)}\n")
    elif args.page_count:
        per_page: dict[int, int] = {}
        for page, matches, _lines in found:
            per_page[page] = per_page.get(page, 0) + matches
        for page, matches in per_page.items():
            out.write(f"{prefix}{page}:{matches}\n")
    else:
        for page, _matches, lines in found:
            number = f"{page}:" if args.page_number else ""
            out.write(f"{prefix}{number}{' '.join(lines)}\n")
    out.flush()


def _in_order(jobs: Sequence[Any], query: GrepQuery, workers: int | None) -> Iterator[Any]:
    """Each job's result, in the jobs' order: one file in this process, several on the pool."""
    run = functools.partial(grep_file, query=query)
    if len(jobs) <= 1 or workers == 1:
        for job in jobs:
            yield run(job)
        return
    from glyphweave.batch.pool import run_pool

    count = max(1, min(workers or os.cpu_count() or 1, len(jobs)))
    waiting: dict[str, Any] = {}
    position = 0
    for result in run_pool(jobs, workers=count, job_runner=run):
        waiting[result.file] = result
        while position < len(jobs) and jobs[position].source in waiting:
            yield waiting.pop(jobs[position].source)
            position += 1


def grep_file(job: Any, *, query: GrepQuery) -> Any:
    """Search one file (a batch :class:`~glyphweave.batch.task.FileJob`) for ``query``: its
    matching lines travel back as JSON in the result's content, ``[page, matches, lines]``
    each, page 1-based. Never raises for a bad file: the result says why it failed."""
    from glyphweave.api import open_with
    from glyphweave.batch.task import FileResult, failed, selected_pages

    started = time.perf_counter()
    opts = job.options
    found: list[list[Any]] = []
    try:
        with open_with(job.source, opts.open) as doc:
            pages, _note = selected_pages(doc, opts.pages)
            for hit in doc.search(query.pattern, pages, case=query.case, regex=query.regex, mode=opts.mode,
                                  crop=opts.crop):
                key = [hit.page + 1, list(hit.lines)]
                if found and [found[-1][0], found[-1][2]] == key:
                    found[-1][1] += 1  # another match on the line printed last
                    continue
                if query.max_lines is not None and len(found) >= query.max_lines:
                    break
                found.append([hit.page + 1, 1, list(hit.lines)])
    except Exception as exc:  # a bad file, or a bug: the other files are still searched
        return failed(job.source, exc, started)
    return FileResult(file=job.source, status="ok", seconds=round(time.perf_counter() - started, 4),
                      content=json.dumps(found, ensure_ascii=False))
