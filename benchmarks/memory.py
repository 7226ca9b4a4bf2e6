"""Peak memory and time of one glyphweave process as documents grow: is the peak flat in page count?

    python benchmarks/memory.py [--pdfs DIR] [--pages 250,500,1000] [--chunk 10] [--repeat N]
                                [--profile NAME] [--timeout S]

Builds, in a temporary folder deleted at the end, one PDF per ``--pages`` size out of the bench files
(pikepdf: the pages copied into a new document). The files are taken in turn, ``--chunk`` pages at a time,
each continuing where its last chunk ended, until the size is reached; a file whose pages are used up
starts again from its first page. So every size of at least ``--chunk`` x files pages (120 for the bench
corpus and the default chunk of 10) holds pages of every file, and the sizes differ in length more than in
what kind of pages they hold. It prints which pages of which file went in.

Each built PDF and the bench file with the most pages is then extracted by ``glyphweave extract --jobs 1``
(one process: the figure of one worker) and by ``pdftotext -q FILE -``, output to /dev/null, each a fresh
process timed whole (start-up included) and reaped with ``os.wait4``, whose ``ru_maxrss`` is that
process's peak resident set. The processes are spawned through run.py's small launcher: spawned from
this process, which holds pikepdf and the built documents, each figure would be at least this process's
own peak. Prints seconds, pages/s and peak RSS per document and tool, and whether glyphweave's peak
stays within issue 13's 120 MB and is flat: the largest size's peak over the smallest's (1,000 over 250
pages by default) at most 1.10. With three sizes or more it also prints the last step (1,000 over 500
pages by default), which leaves out the caches filling over the first pages.

Run nothing else while timing. Figures to read, not a test: nothing is asserted. Linux (ru_maxrss in KiB).
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import tempfile
import warnings
from pathlib import Path

from run import DEFAULT_PDFS, glyphweave_cli, no_pdf_folder, outcome, run_child

TARGET_PEAK_MB = 120.0
FLAT_RATIO = 1.10  # the largest size's peak over the smallest's, at most: "flat"


def bench_files(folder: Path) -> list[tuple[Path, int]]:
    """The readable PDFs of ``folder`` by name, with their page counts."""
    import pikepdf

    found = []
    for path in sorted(p for p in folder.iterdir() if p.suffix.lower() == ".pdf" and p.is_file()):
        try:
            with pikepdf.open(path) as pdf:
                count = len(pdf.pages)
        except Exception as exc:
            print(f"skipped {path.name}: {exc}", file=sys.stderr)
            continue
        if count:
            found.append((path, count))
    return found


def build(files: list[tuple[Path, int]], target: int, chunk: int, out: Path) -> dict[str, list[list[int]]]:
    """Write a PDF of ``target`` pages to ``out``, ``chunk`` pages from each file in turn.

    Returns, per file name, the page ranges taken (1-based, inclusive). A file used up is opened again
    for its next chunk, so a page copied twice comes from two source documents (pikepdf copies each
    foreign object once per source). Every source stays open until the result is saved.
    """
    import pikepdf

    opened: list[pikepdf.Pdf] = []
    current: dict[Path, pikepdf.Pdf] = {}
    position = {path: 0 for path, _ in files}
    taken: dict[str, list[list[int]]] = {}
    # pikepdf warns that links, named destinations and form fields do not follow copied pages: text
    # extraction has no use for them.
    quiet = getattr(pikepdf, "PageCopyWarning", UserWarning)
    try:
        with pikepdf.Pdf.new() as pdf, warnings.catch_warnings():
            warnings.simplefilter("ignore", quiet)
            while len(pdf.pages) < target:
                for path, count in files:
                    missing = target - len(pdf.pages)
                    if missing <= 0:
                        break
                    start = position[path]
                    if start >= count or path not in current:
                        start = 0
                        current[path] = pikepdf.open(path)
                        opened.append(current[path])
                    n = min(chunk, count - start, missing)
                    pdf.pages.extend(current[path].pages[start : start + n])
                    position[path] = start + n
                    ranges = taken.setdefault(path.name, [])
                    if ranges and ranges[-1][1] == start:
                        ranges[-1][1] = start + n
                    else:
                        ranges.append([start + 1, start + n])
            pdf.save(out)
    finally:
        for source in opened:
            source.close()
    return taken


def describe(taken: dict[str, list[list[int]]]) -> str:
    return ", ".join(
        f"{name} " + " + ".join(f"{lo}-{hi}" if lo != hi else f"{lo}" for lo, hi in ranges)
        for name, ranges in taken.items()
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--pdfs", type=Path, default=DEFAULT_PDFS, help=f"folder of PDFs (default: {DEFAULT_PDFS})"
    )
    parser.add_argument(
        "--pages", default="250,500,1000", help="sizes of the built documents, in pages (default: 250,500,1000)"
    )
    parser.add_argument("--chunk", type=int, default=10, help="pages taken from a file at a turn (default: 10)")
    parser.add_argument("--repeat", type=int, default=1, help="runs per (document, tool); median seconds (default: 1)")
    parser.add_argument("--profile", default="default", help="glyphweave profile (default: default)")
    parser.add_argument(
        "--timeout", type=float, default=600.0, help="seconds per run before it is killed (default: 600)"
    )
    args = parser.parse_args(argv)
    try:
        sizes = sorted({int(part) for part in args.pages.split(",") if part.strip()})
    except ValueError:
        parser.error(f"--pages wants page counts separated by commas, got {args.pages!r}")
    if not sizes or sizes[0] < 1:
        parser.error("--pages wants at least one page count, each at least 1")
    if args.chunk < 1 or args.repeat < 1:
        parser.error("--chunk and --repeat must be at least 1")

    if not args.pdfs.is_dir():
        return no_pdf_folder(args.pdfs)
    cli = glyphweave_cli()
    if cli is None:
        print("glyphweave is not installed (pip install -e .).", file=sys.stderr)
        return 2
    tools: dict[str, list[str]] = {"glyphweave": [*cli, "extract", "--jobs", "1", "--profile", args.profile]}
    if shutil.which("pdftotext"):
        tools["pdftotext"] = ["pdftotext", "-q"]
    else:
        print("pdftotext is not installed: glyphweave only.", file=sys.stderr)
    files = bench_files(args.pdfs)
    if not files:
        print(f"No readable .pdf files in {args.pdfs}.", file=sys.stderr)
        return 2

    with tempfile.TemporaryDirectory(prefix="glyphweave-memory-") as tmp:
        largest, largest_pages = max(files, key=lambda item: item[1])
        documents: list[tuple[str, Path, int]] = [(largest.name, largest, largest_pages)]
        print(f"Documents (built in {tmp}, deleted afterwards):\n")
        print(f"- {largest.name} ({largest_pages} pages): the bench file with the most pages")
        for size in sizes:
            out = Path(tmp) / f"concat-{size}.pdf"
            taken = build(files, size, args.chunk, out)
            documents.append((out.name, out, size))
            print(f"- {out.name} ({size} pages, {out.stat().st_size / 2**20:.1f} MB): {describe(taken)}")
        print(flush=True)

        results: dict[tuple[str, str], list[dict]] = {}
        for rep in range(args.repeat):
            for di, (label, path, _) in enumerate(documents):
                order = list(tools) if (rep + di) % 2 == 0 else list(reversed(tools))
                for tool in order:
                    cmd = [*tools[tool], str(path)] if tool == "glyphweave" else [*tools[tool], str(path), "-"]
                    r = outcome(run_child(cmd, args.timeout, capture=False))
                    results.setdefault((label, tool), []).append(r)
                    shown = f"{r['seconds']:.2f} s, {r['peak_mb']:.0f} MB" if r["status"] == "ok" else r["status"]
                    print(f"[{rep + 1}/{args.repeat}] {label:<32} {tool:<11} {shown}", file=sys.stderr, flush=True)

    floor = run_child(["true"], args.timeout, capture=False)["peak_mb"]
    print(
        f"Whole process, output to /dev/null; median seconds of {args.repeat} run(s), largest peak RSS "
        f"(a process doing nothing measures {floor:.0f} MB here: the launcher's own, the smallest figure shown).\n"
    )
    print("| document | pages | tool | seconds | pages/s | peak RSS MB |")
    print("|---|---:|---|---:|---:|---:|")
    peaks: dict[tuple[str, str], float] = {}
    for label, _, pages in documents:
        for tool in tools:
            runs = results[(label, tool)]
            failed = [r for r in runs if r["status"] != "ok"]
            if failed:
                why = failed[0]["status"] + (": " + failed[0]["message"] if "message" in failed[0] else "")
                print(f"| {label} | {pages} | {tool} | {why} | - | - |")
                continue
            seconds = statistics.median(r["seconds"] for r in runs)
            peak = max(r["peak_mb"] for r in runs)
            peaks[(label, tool)] = peak
            print(f"| {label} | {pages} | {tool} | {seconds:.2f} | {pages / seconds:.0f} | {peak:.0f} |")

    print()
    ours = {label: peaks[(label, "glyphweave")] for label, _, _ in documents if (label, "glyphweave") in peaks}
    if ours:
        top = max(ours, key=lambda label: ours[label])
        verdict = "met" if len(ours) == len(documents) and ours[top] <= TARGET_PEAK_MB else "NOT met"
        print(f"glyphweave peak RSS: largest {ours[top]:.0f} MB ({top}); target <= {TARGET_PEAK_MB:.0f} MB: {verdict}")
    small, big = f"concat-{sizes[0]}.pdf", f"concat-{sizes[-1]}.pdf"
    if len(sizes) < 2:
        print("One size only: no flatness figure (give --pages with two sizes or more).")
    for tool in tools:
        if len(sizes) < 2:
            break
        if (small, tool) not in peaks or (big, tool) not in peaks:
            print(f"{tool}: a run failed, no flatness figure")
            continue
        ratio = peaks[(big, tool)] / peaks[(small, tool)]
        line = (
            f"{tool} peak RSS, {sizes[-1]} pages over {sizes[0]} pages: {ratio:.2f} "
            f"({peaks[(big, tool)]:.0f} / {peaks[(small, tool)]:.0f} MB)"
        )
        if tool == "glyphweave":
            line += f"; flat (<= {FLAT_RATIO:.2f}): {'yes' if ratio <= FLAT_RATIO else 'NO'}"
        print(line)
        before = f"concat-{sizes[-2]}.pdf"
        if len(sizes) > 2 and (before, tool) in peaks:
            # The caches (fonts, measured strings) fill over the first few hundred pages and
            # then hold their level: the last step shows the growth that goes on after them.
            last = peaks[(big, tool)] / peaks[(before, tool)]
            print(f"{tool} peak RSS, last step, {sizes[-1]} pages over {sizes[-2]}: {last:.2f} "
                  f"({peaks[(big, tool)]:.0f} / {peaks[(before, tool)]:.0f} MB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
