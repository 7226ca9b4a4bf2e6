"""``glyphweave batch``: the command line of :func:`~.runner.run_batch`."""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import TYPE_CHECKING, Any

from glyphweave.core.errors import UsageError
from glyphweave.exits import EXIT_ERROR

from .names import FORMATS, MANIFEST

if TYPE_CHECKING:
    from .task import FileResult


def add_parsers(sub: Any) -> None:
    """The ``batch`` subcommand and its options (``sub`` is the parser's subparsers)."""
    p = sub.add_parser(
        "batch", help="extract many PDFs into a folder, on all cores or a Dask cluster",
        description="Extract every PDF of the inputs into OUTDIR, mirroring their paths, with a manifest "
                    f"(OUTDIR/{MANIFEST}) that records each file. A batch never writes over a file it did "
                    "not write. Exit status: 0 when every file was extracted, 1 when any failed (each "
                    "failure has its one-line reason in the manifest), 2 for a usage error (nothing done).")
    from glyphweave.arguments import CROP_HELP, add_jobs_option, add_open_options, crop_box

    p.add_argument("inputs", nargs="+", metavar="INPUT",
                   help="PDF files, folders (walked recursively for *.pdf) or @list.txt (one input per line)")
    p.add_argument("-o", "--output", required=True, metavar="OUTDIR", help="the folder the outputs go to")
    p.add_argument("--format", choices=FORMATS, default="text",
                   help="text (.txt), pages (.pages.jsonl: text and statistics per page), glyphs "
                        "(.glyphs.jsonl: the glyph records), words (.words.jsonl: words with their boxes) or "
                        "markdown (.md)")
    add_open_options(p)
    p.add_argument("--mode", help="assembler to use instead of the profile's")
    p.add_argument("--pages", help="page ranges of every file, 1-based: 1-3,7,10-; cut to each file's pages "
                                   "(1-3 of a 1-page file is page 1)")
    p.add_argument("--separator", default="\f", help="written after each page in text format (default: form feed)")
    p.add_argument("--crop", type=crop_box, metavar="X0,TOP,X1,BOTTOM", help=CROP_HELP)
    add_jobs_option(p, "worker processes (default: auto, one per core)")
    p.add_argument("--resume", action="store_true",
                   help="skip the files whose output exists (a finished earlier run's); redo the rest")
    p.add_argument("--force", action="store_true",
                   help="write into an OUTDIR that holds other files (a PDF whose output would replace "
                        "one of them is reported failed, never written)")
    p.add_argument("--file-seconds", type=float, metavar="S",
                   help="time allowed per file: past it the file fails and its worker is replaced")
    p.add_argument("--memory-mb", type=float, metavar="MB",
                   help="memory allowed per worker, at least 64: past it the file fails and its worker is "
                        "replaced")
    p.add_argument("--dask", metavar="ADDRESS",
                   help="run on a Dask cluster: its scheduler address, or 'local' for one on this machine "
                        "(pip install glyphweave[dask])")
    p.add_argument("--dask-gather", action="store_true",
                   help="with --dask: send the outputs back and write them here (workers that cannot see OUTDIR)")
    p.add_argument("--manifest", metavar="FILE", help=f"where to append the manifest (default: OUTDIR/{MANIFEST})")
    p.add_argument("--progress", choices=("auto", "on", "off"), default="auto",
                   help="a progress bar on standard error: auto shows it on a terminal only")
    p.set_defaults(run=cmd_batch)


def cmd_batch(args: argparse.Namespace) -> int:
    from glyphweave.arguments import open_options, report_plugins

    from .runner import run_batch, summary
    from .task import ExtractOptions

    _check(args)
    opening = open_options(args)
    report_plugins(opening)
    options = ExtractOptions(open=opening, mode=args.mode, pages=args.pages, format=args.format,
                             separator=args.separator, crop=args.crop)
    results: list[FileResult] = []
    show = args.progress == "on" or (args.progress == "auto" and sys.stderr.isatty())
    bar = _Bar(show)
    running = run_batch(args.inputs, args.output, options=options, jobs=args.jobs, resume=args.resume,
                        force=args.force, time_limit=args.file_seconds, memory_mb=args.memory_mb, dask=args.dask,
                        gather=args.dask_gather, manifest=args.manifest, planned=bar.total)
    try:
        for result in running:
            results.append(result)
            bar.update(result)
            if result.status == "failed":
                error = result.error or ""
                bar.write(f"glyphweave: {error}" if error.startswith(result.file) else
                          f"glyphweave: {result.file}: {error}")
    finally:
        bar.close()
    totals = summary(results)
    print(json.dumps({"summary": totals}, ensure_ascii=False), file=sys.stderr)
    return EXIT_ERROR if totals["failed"] else 0


def _check(args: argparse.Namespace) -> None:
    """The options no file could be extracted with: one usage error, before any work."""
    from .pool import check_memory_limit
    from .ranges import parse_ranges

    if args.file_seconds is not None and not args.file_seconds > 0:
        raise UsageError("--file-seconds must be positive")
    check_memory_limit(args.memory_mb)
    if args.pages is not None:
        parse_ranges(args.pages)
    if args.dask_gather and not args.dask:
        raise UsageError("--dask-gather needs --dask")
    if os.path.exists(args.output) and not os.path.isdir(args.output):
        raise UsageError(f"{args.output}: exists and is not a folder")


class _Bar:
    """A tqdm bar over the files (its total set once the batch is planned), or nothing."""

    def __init__(self, show: bool) -> None:
        self.bar: Any = None
        if show:
            from tqdm import tqdm

            self.bar = tqdm(unit="file", file=sys.stderr, dynamic_ncols=True, mininterval=0.2)

    def total(self, files: int) -> None:
        if self.bar is not None:
            self.bar.total = files
            self.bar.refresh()

    def update(self, result: FileResult) -> None:
        if self.bar is not None:
            self.bar.update(1)
            self.bar.set_postfix_str(os.path.basename(result.file)[-40:], refresh=False)

    def write(self, line: str) -> None:
        if self.bar is not None:
            self.bar.write(line, file=sys.stderr)
        else:
            print(line, file=sys.stderr)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
