"""The glyph registry's commands: ``scan``, ``sheet``, ``registry validate|accept|list`` and ``repair``."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from glyphweave.exits import EXIT_ERROR, EXIT_WARNINGS

DEFAULT_REGISTRY = "glyphweave-registry.tsv"


def add_parsers(sub: Any) -> None:
    """The registry's subcommands (``sub`` is the parser's subparsers). Only ``scan`` opens
    PDFs, so only it takes the open options (password, profile, limits, plugins) and ``-j``."""
    from glyphweave.arguments import add_jobs_option, add_open_options

    sc = sub.add_parser("scan", help="gather a corpus's unreadable and PUA-recovered glyphs into a registry",
                        description="Scan PDFs (files, folders, @list.txt) for glyphs no table could read or that "
                                    "were recovered from Private Use Area codes, and merge them into the registry "
                                    "TSV (validated entries are never changed).")
    sc.add_argument("inputs", nargs="+", metavar="INPUT", help="PDF files, folders or @list.txt")
    sc.add_argument("-r", "--registry", default=DEFAULT_REGISTRY, help=f"the registry file (default: {DEFAULT_REGISTRY})")
    add_open_options(sc, profile_help="profile to extract with")
    add_jobs_option(sc, "worker processes (default: auto, one per core)")
    sc.add_argument("--dask", metavar="ADDRESS", help="run on a Dask cluster (address, or 'local')")
    sc.add_argument("--progress", choices=("auto", "on", "off"), default="auto",
                    help="a progress bar on standard error: auto shows it on a terminal only")
    sc.add_argument("--propose", action="store_true",
                    help="propose a character for each unresolved glyph with an outline, read by its shape "
                         "(source 'shape', with a confidence from 0 to 1)")
    sc.set_defaults(run=cmd_scan)

    sh = sub.add_parser("sheet", help="draw a registry as one self-contained HTML contact sheet",
                        description="Write the contact sheet of a registry. Exit status 3 while any entry is "
                                    "unresolved, so a batch job can alert; 0 otherwise.")
    sh.add_argument("registry", help="the registry file (it must exist: a missing one is an error, exit 2)")
    sh.add_argument("-o", "--output", required=True, help="the HTML file to write")
    sh.set_defaults(run=cmd_sheet)

    rg = sub.add_parser("registry", help="work on a registry file")
    rsub = rg.add_subparsers(dest="registry_command", metavar="ACTION", required=True)
    va = rsub.add_parser("validate", help="set the character of a key by hand (the entry becomes validated)")
    va.add_argument("key", help="the entry's key (first column of the TSV)")
    va.add_argument("text", help="the character(s) the glyph stands for")
    va.add_argument("-r", "--registry", default=DEFAULT_REGISTRY, help=f"the registry file (default: {DEFAULT_REGISTRY})")
    va.set_defaults(run=cmd_validate)
    ac = rsub.add_parser("accept", help="validate every shape proposal at or above a confidence",
                         description="Validate in bulk the proposals of the shape matcher (scan --propose) whose "
                                     "confidence is at least --min-confidence. Other entries are not touched.")
    ac.add_argument("--min-confidence", type=_confidence, required=True, metavar="X",
                    help="the confidence a proposal needs, from 0 to 1")
    ac.add_argument("-r", "--registry", default=DEFAULT_REGISTRY, help=f"the registry file (default: {DEFAULT_REGISTRY})")
    ac.add_argument("--dry-run", action="store_true", help="list what would be accepted, write nothing")
    ac.set_defaults(run=cmd_accept)
    im = rsub.add_parser("import", help="apply decisions exported from the contact sheet (or another registry's "
                         "validated entries)",
                         description="Apply the characters chosen on the contact sheet (its export file) or the "
                                     "validated entries of another registry. Every row is checked first: one bad "
                                     "row refuses the whole import and nothing is written.")
    im.add_argument("files", nargs="+", metavar="FILE", help="decisions files or registry files, applied in order")
    im.add_argument("-r", "--registry", default=DEFAULT_REGISTRY, help=f"the registry file (default: {DEFAULT_REGISTRY})")
    im.add_argument("--dry-run", action="store_true", help="list what would change, write nothing")
    im.set_defaults(run=cmd_import)

    ls = rsub.add_parser("list", help="print the entries (key, status, mapping, count)")
    ls.add_argument("-r", "--registry", default=DEFAULT_REGISTRY, help=f"the registry file (default: {DEFAULT_REGISTRY})")
    ls.add_argument("--status", choices=("unresolved", "proposed", "validated"), help="only entries with this status")
    ls.set_defaults(run=cmd_list)

    rp = sub.add_parser("repair", help="apply a registry's validated entries to already extracted text files",
                        description="Rewrite extracted text files (.txt, .jsonl; folders recursively) with the "
                                    "registry's validated mappings. A backup is written before a file changes; a "
                                    "second run changes nothing. A batch's manifest.jsonl above a rewritten file "
                                    "gets the file's new SHA-256.")
    rp.add_argument("paths", nargs="+", metavar="PATH", help="text files or folders")
    rp.add_argument("-r", "--registry", default=DEFAULT_REGISTRY, help=f"the registry file (default: {DEFAULT_REGISTRY})")
    rp.add_argument("--dry-run", action="store_true", help="report what would change, write nothing")
    rp.add_argument("--lookalikes", action="store_true",
                    help="also apply the look-alike rules (Ø/⌀/∅, µ/μ, Ω, ‐) chosen by context")
    rp.set_defaults(run=cmd_repair)


def cmd_scan(args: argparse.Namespace) -> int:
    from glyphweave.arguments import open_options, report_plugins

    from .scan import scan

    options = open_options(args)
    report_plugins(options)
    show = args.progress == "on" or (args.progress == "auto" and sys.stderr.isatty())
    bar: Any = None
    if show:
        from tqdm import tqdm

        bar = tqdm(unit="file", file=sys.stderr, dynamic_ncols=True, mininterval=0.2)
    try:
        report = scan(args.inputs, args.registry, options=options, jobs=args.jobs, dask=args.dask,
                      progress=(lambda result: bar.update(1)) if bar is not None else None, propose=args.propose)
    finally:
        if bar is not None:
            bar.close()
    for warning in report.warnings:
        print(f"glyphweave: warning: {warning}", file=sys.stderr)
    for result in report.failed:
        error = result.error or ""
        line = error if error.startswith(result.file) else f"{result.file}: {error}"
        print(f"glyphweave: {line}", file=sys.stderr)
    statuses = {status: sum(1 for e in report.registry if e.status == status)
                for status in ("unresolved", "proposed", "validated")}
    print(json.dumps({"summary": {"files": report.files, "failed": len(report.failed), "keys_seen": report.keys,
                                  "warnings": len(report.warnings),
                                  "registry": args.registry, **statuses}}, ensure_ascii=False), file=sys.stderr)
    return EXIT_ERROR if report.failed else 0


def cmd_sheet(args: argparse.Namespace) -> int:
    from glyphweave.files import check_not_input, write_text

    from .registry import read_registry
    from .sheet import render_sheet, unresolved_count

    check_not_input(args.output, [args.registry])  # before anything is read: -o REG would lose it
    registry = read_registry(args.registry)
    write_text(args.output, render_sheet(registry), inputs=[args.registry])
    unresolved = unresolved_count(registry)
    if unresolved:
        print(f"glyphweave: {unresolved} unresolved entr{'y' if unresolved == 1 else 'ies'} in {args.registry}",
              file=sys.stderr)
        return EXIT_WARNINGS
    return 0


def cmd_validate(args: argparse.Namespace) -> int:
    from .registry import check_mapping, locked, read_registry, write_registry

    check_mapping(args.text)  # before the lock: a refused answer touches nothing
    read_registry(args.registry)  # a missing registry is named before a lock file is made beside it
    with locked(args.registry):
        registry = read_registry(args.registry)
        entry = registry.validate(args.key, args.text)
        write_registry(args.registry, registry)
    print(f"{entry.key}\t{entry.mapping}\tvalidated")
    return 0


def _confidence(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0.0 <= value <= 1.0:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number from 0 to 1")
    return value


def cmd_accept(args: argparse.Namespace) -> int:
    from .registry import locked, read_registry, write_registry

    read_registry(args.registry)  # a missing registry is named before a lock file is made beside it
    with locked(args.registry):
        registry = read_registry(args.registry)
        accepted = registry.accept(args.min_confidence)
        if accepted and not args.dry_run:
            write_registry(args.registry, registry)
    for entry in accepted:
        print(f"{entry.key}\t{entry.mapping}\t{entry.confidence:.3f}")
    verb = "would be" if args.dry_run else "were"
    print(f"glyphweave: {len(accepted)} shape proposal{'s' if len(accepted) != 1 else ''} {verb} accepted "
          f"(confidence >= {args.min_confidence:g})", file=sys.stderr)
    return 0


def cmd_import(args: argparse.Namespace) -> int:
    from .decisions import apply_decisions, read_decisions
    from .registry import locked, read_registry, write_registry

    read_registry(args.registry)  # a missing registry is named before a lock file is made beside it
    decisions = [d for path in args.files for d in read_decisions(path)]  # all read before the lock
    with locked(args.registry):
        registry = read_registry(args.registry)
        report = apply_decisions(registry, decisions)
        if (report.validated or report.added) and not args.dry_run:
            write_registry(args.registry, registry)
    for entry in report.validated:
        print(f"{entry.key}\t{entry.mapping}\tvalidated")
    for entry in report.added:
        print(f"{entry.key}\t{entry.mapping}\tadded")
    validate, add = ("would validate", "add") if args.dry_run else ("validated", "added")
    n = len(report.validated)
    print(f"glyphweave: {validate} {n} entr{'y' if n == 1 else 'ies'}, {add} {len(report.added)}; "
          f"{report.unchanged} already as decided", file=sys.stderr)
    return 0


def cmd_list(args: argparse.Namespace) -> int:
    from .registry import read_registry

    for entry in read_registry(args.registry):
        if args.status and entry.status != args.status:
            continue
        print(f"{entry.key}\t{entry.status}\t{entry.mapping}\t{entry.count}")
    return 0


def cmd_repair(args: argparse.Namespace) -> int:
    from .clean import repair
    from .registry import read_registry

    report = repair(args.paths, read_registry(args.registry), dry_run=args.dry_run, lookalikes=args.lookalikes,
                    inputs=[args.registry])
    print(json.dumps(report.to_dict(), ensure_ascii=False), file=sys.stderr)
    for path, error in [(f.path, f.error) for f in report.failed] + [(m.path, m.error) for m in report.failed_manifests]:
        print(f"glyphweave: {path}: {error}", file=sys.stderr)
    return EXIT_ERROR if report.failed or report.failed_manifests else 0
