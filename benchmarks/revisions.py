"""Per-document time of several revisions of glyphweave, side by side with pdftotext, in one run.

    python benchmarks/revisions.py REV [REV ...] [--pdfs DIR] [--repeat N] [--startup-pdf PDF]
                                   [--profile NAME] [--timeout S] [--json FILE]

Each REV is anything ``git worktree add`` takes (a commit, a tag, ``HEAD~3``), or ``.`` for the checkout
as it is, uncommitted changes included. ``REV+mypyc`` is that revision's compiled build: the modules its
``glyphweave.accelerated`` lists (those its compiled wheel holds) compiled in place, by mypyc and, for its
C modules, Cython, in a copy for ``.+mypyc`` (needs mypy, Cython and a C compiler). Every revision gets a temporary worktree (removed at the
end) whose sources are byte-compiled first, as ``pip install`` leaves them, and runs as
``python -m glyphweave.cli extract FILE --jobs 1`` with ``PYTHONPATH`` pointing at its ``src``: one
worker, the whole process, output to /dev/null. The plugins are found through the installed
distribution's entry points, which name modules, so each revision runs its own plugin code; a revision
whose entry points differ from the installed ones is not comparable this way.

The measurements are interleaved as in ``run.py``: for each repeat, for each file, every revision and
pdftotext run once, in an order that rotates, and once per repeat every tool also runs on the start-up
PDF. A file's per-document time is its median whole-process time minus the tool's median start-up (at
least 0), which is the figure issue 13 sets targets for. The machines here are noisy: compare the
revisions within one run, never across runs.

This is how the speed work is checked change by change: before and after figures from the same run.
Nothing touches the network; nothing is asserted.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from builds import compile_in_place
from run import DEFAULT_PDFS, DEFAULT_STARTUP_PDF, page_count, run_child

REPO = Path(__file__).resolve().parent.parent


COMPILED_SUFFIX = "+mypyc"


def _worktree(rev: str, where: Path) -> Path:
    """The ``src`` folder of ``rev`` (a worktree made at ``where``, or this checkout for
    ``.``), byte-compiled; for ``REV+mypyc``, with its hot modules compiled in place too."""
    import compileall

    base = rev.removesuffix(COMPILED_SUFFIX)
    if base == "." and base != rev:  # compiled in a copy, never in the checkout
        shutil.copytree(REPO, where, ignore=shutil.ignore_patterns(".git", ".tox", "build", "__pycache__", "*.so"))
        src = where / "src"
    elif base == ".":
        src = REPO / "src"
    else:
        subprocess.run(["git", "-C", str(REPO), "worktree", "add", "--detach", "--quiet", str(where), base],
                       check=True)
        src = where / "src"
    if base != rev:
        compile_in_place(src, rev)
    compileall.compile_dir(str(src), quiet=1)
    return src


def _command(src: Path, pdf: Path, profile: str) -> list[str]:
    # env(1) sets PYTHONPATH for this one process; it costs every tool's start-up run alike.
    return ["env", f"PYTHONPATH={src}", sys.executable, "-m", "glyphweave.cli", "extract", str(pdf),
            "--jobs", "1", "--profile", profile]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("revs", nargs="+", metavar="REV", help="revisions to compare ('.': the checkout as it is)")
    parser.add_argument("--pdfs", type=Path, default=DEFAULT_PDFS, help=f"folder of PDFs (default: {DEFAULT_PDFS})")
    parser.add_argument("--repeat", type=int, default=3, help="interleaved runs per (tool, file); median taken")
    parser.add_argument("--startup-pdf", type=Path, default=DEFAULT_STARTUP_PDF,
                        help=f"the tiny PDF whose whole-process time is the start-up (default: {DEFAULT_STARTUP_PDF})")
    parser.add_argument("--profile", default="default", help="glyphweave profile (default: default)")
    parser.add_argument("--timeout", type=float, default=300.0, help="seconds per run; default 300")
    parser.add_argument("--json", type=Path, help="also write every measurement to this JSON file")
    args = parser.parse_args(argv)
    if args.repeat < 1:
        parser.error("--repeat must be at least 1")
    if not args.pdfs.is_dir():
        print(f"No PDF folder at {args.pdfs}; pass one with --pdfs DIR.", file=sys.stderr)
        return 2
    if shutil.which("pdftotext") is None:
        print("pdftotext (poppler-utils) is not installed: nothing to compare with.", file=sys.stderr)
        return 2
    files = sorted(p for p in args.pdfs.iterdir() if p.suffix.lower() == ".pdf" and p.is_file())
    labels = list(dict.fromkeys(args.revs))
    with tempfile.TemporaryDirectory(prefix="glyphweave-revs-") as tmp:
        trees = {rev: Path(tmp) / f"rev-{i}" for i, rev in enumerate(labels)}
        try:
            srcs = {rev: _worktree(rev, trees[rev]) for rev in labels}
            runs = _measure(files, srcs, args)
        finally:
            for rev, tree in trees.items():
                if not rev.startswith(".") and tree.exists():
                    subprocess.run(["git", "-C", str(REPO), "worktree", "remove", "--force", str(tree)],
                                   check=False, capture_output=True)
            subprocess.run(["git", "-C", str(REPO), "worktree", "prune"], check=False)
    report = _report(files, labels, runs, args.startup_pdf)
    if args.json:
        args.json.write_text(json.dumps({"runs": runs, "report": report}, indent=1), encoding="utf-8")
    return 0


def _measure(files: list[Path], srcs: dict[str, Path], args: argparse.Namespace) -> dict[str, dict[str, list[float]]]:
    tools = [*srcs, "pdftotext"]
    slots: list[Path] = [*files, args.startup_pdf]
    runs: dict[str, dict[str, list[float]]] = {tool: {str(f): [] for f in slots} for tool in tools}
    step = 0
    for rep in range(args.repeat):
        for f in slots:
            order = tools[step % len(tools):] + tools[:step % len(tools)]
            step += 1
            for tool in order:
                cmd = ["pdftotext", "-q", str(f), "-"] if tool == "pdftotext" else _command(srcs[tool], f, args.profile)
                result = run_child(cmd, args.timeout, capture=False)
                if result["returncode"] != 0:
                    print(f"{tool} failed on {f.name}: {result['stderr'].strip()[:200]}", file=sys.stderr)
                runs[tool][str(f)].append(result["wall"])
                print(f"[{rep + 1}/{args.repeat}] {f.name[:36]:36} {tool[:14]:14} {result['wall']:.3f} s",
                      file=sys.stderr)
    return runs


def _report(files: list[Path], labels: list[str], runs: dict[str, dict[str, list[float]]],
            startup_pdf: Path) -> dict:
    tools = [*labels, "pdftotext"]
    startup = {tool: statistics.median(runs[tool][str(startup_pdf)]) for tool in tools}
    per_doc = {tool: {f.name: max(0.0, statistics.median(runs[tool][str(f)]) - startup[tool]) for f in files}
               for tool in tools}
    head = " | ".join(f"{rev} s | {rev} ratio" for rev in labels)
    print("\nPer-document seconds (whole process minus start-up), ratio to pdftotext in the same run:\n")
    print(f"| file | pages | pdftotext s | {head} |")
    print("|---|---:|---:|" + "---:|---:|" * len(labels))
    for f in files:
        base = per_doc["pdftotext"][f.name]
        cells = " | ".join(f"{per_doc[rev][f.name]:.3f} | {_ratio(per_doc[rev][f.name], base)}" for rev in labels)
        print(f"| {f.name} | {page_count(f)} | {base:.3f} | {cells} |")
    total = {tool: sum(per_doc[tool].values()) for tool in tools}
    cells = " | ".join(f"{total[rev]:.3f} | {_ratio(total[rev], total['pdftotext'])}" for rev in labels)
    print(f"| **total** | | {total['pdftotext']:.3f} | {cells} |")
    worst = {rev: max(files, key=lambda f: per_doc[rev][f.name] / (per_doc["pdftotext"][f.name] or 1e-9)).name
             for rev in labels}
    print("\nStart-up (median s): " + ", ".join(f"{tool} {startup[tool]:.3f}" for tool in tools))
    for rev in labels:
        w = worst[rev]
        print(f"{rev}: total ratio {_ratio(total[rev], total['pdftotext'])}, worst file {w} "
              f"{_ratio(per_doc[rev][w], per_doc['pdftotext'][w])}")
    return {"startup": startup, "per_document": per_doc, "total": total, "worst": worst}


def _ratio(value: float, base: float) -> str:
    return f"{value / base:.2f}" if base > 0 else "-"


if __name__ == "__main__":
    sys.exit(main())
