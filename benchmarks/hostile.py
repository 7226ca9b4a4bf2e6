"""Every hostile case of tests/hostile/cases.py against the bounds: seconds, peak RSS, exit status,
warnings and the text kept, glyphweave and pdftotext side by side.

    python benchmarks/hostile.py [--only NAME,...] [--timeout S] [--no-pdftotext] [--json FILE]

Each case's file is built in a temporary folder (deleted at the end), then ``glyphweave extract
FILE --strict`` with the case's options, and ``pdftotext -q FILE -`` where it is installed, each
run under a 4 GB address-space cap through a small wrapper that reads the command's peak resident
memory (tests/hostile/capped.py). Text goes to files in that folder. Prints one markdown table:

| column | meaning |
| --- | --- |
| s, MB | whole-process seconds, peak RSS |
| exit | the status under --strict (``hang`` when killed at --timeout) |
| warn | warning lines on standard error (naming the limit / all) |
| kept | the text from before the attack is in the output |
| bounds | ``ok``, or what fails: ``time`` (> 60 s), ``rss`` (> 1 GB), ``exit``, ``text``, ``warn`` |

Figures to read, not a test: the tests hold the same cases to the same bounds, times excepted.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

TESTS = Path(__file__).resolve().parent.parent / "tests"


def _catalogue() -> tuple[Any, Any]:
    """The catalogue and the capped runner, from the test suite's own modules."""
    sys.path.insert(0, str(TESTS))
    from hostile import capped, cases

    return cases, capped


def verdict(case: Any, run: Any, cases: Any) -> dict[str, Any]:
    """One glyphweave run measured against its case's bounds."""
    naming = [line for line in run.warnings if case.limit is not None and case.limit in line]
    kept = all(words in run.out for words in case.kept)
    failed = [name for name, bad in (
        ("time", run.seconds > cases.SECONDS), ("rss", run.peak_mb > cases.PEAK_MB),
        ("exit", run.status != case.strict), ("text", not kept),
        ("warn", not cases.warned_as_due(case, run.warnings))) if bad]
    return {"seconds": run.seconds, "peak_mb": run.peak_mb, "status": run.status, "warnings": len(run.warnings),
            "naming": len(naming), "kept": kept, "bounds": ", ".join(failed) or "ok",
            "last_warning": run.warnings[-1] if run.warnings else ""}


def measure(case: Any, folder: Path, timeout: float, pdftotext: str | None,
            cases: Any, capped: Any) -> dict[str, Any]:
    pdf = folder / f"{case.name}.pdf"
    pdf.write_bytes(case.build())
    row: dict[str, Any] = {"case": case.name, "bytes": pdf.stat().st_size}
    run = capped.run_capped(capped.glyphweave_extract(pdf, "--strict", *case.args), folder / "glyphweave",
                            timeout=timeout)
    row["glyphweave"] = verdict(case, run, cases)
    if pdftotext:
        other = capped.run_capped([pdftotext, "-q", str(pdf), "-"], folder / "pdftotext", timeout=timeout)
        row["pdftotext"] = {"seconds": other.seconds, "peak_mb": other.peak_mb, "status": other.status,
                            "kept": all(words in other.out for words in case.kept)}
    pdf.unlink()
    return row


def _status(value: int | None) -> str:
    return "hang" if value is None else str(value)


def print_row(row: dict[str, Any]) -> None:
    g = row["glyphweave"]
    cells = [row["case"], f"{g['seconds']:.1f}", f"{g['peak_mb']:.0f}", _status(g["status"]),
             f"{g['naming']}/{g['warnings']}", "yes" if g["kept"] else "NO", g["bounds"]]
    p = row.get("pdftotext")
    if p:
        cells += [f"{p['seconds']:.1f}", f"{p['peak_mb']:.0f}", _status(p["status"]), "yes" if p["kept"] else "NO"]
    print("| " + " | ".join(cells) + " |", flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", help="comma-separated case names")
    parser.add_argument("--timeout", type=float, default=180.0, help="seconds before a run is killed (default 180)")
    parser.add_argument("--no-pdftotext", action="store_true", help="leave pdftotext out")
    parser.add_argument("--json", type=Path, help="write every row here")
    args = parser.parse_args(argv)
    cases, capped = _catalogue()
    chosen = cases.catalogue()
    if args.only:
        wanted = set(args.only.split(","))
        unknown = wanted - {case.name for case in chosen}
        if unknown:
            parser.error(f"no case {', '.join(sorted(unknown))}")
        chosen = [case for case in chosen if case.name in wanted]
    pdftotext = None if args.no_pdftotext else shutil.which("pdftotext")
    if not args.no_pdftotext and not pdftotext:
        print("pdftotext is not installed (apt-get install poppler-utils): left out\n")
    header = ["case", "s", "MB", "exit", "warn", "kept", "bounds"]
    if pdftotext:
        header += ["pdftotext s", "MB", "exit", "kept"]
    print("| " + " | ".join(header) + " |")
    print("|" + "|".join("---" if i == 0 else "---:" for i in range(len(header))) + "|")
    rows = []
    folder = Path(tempfile.mkdtemp(prefix="glyphweave-hostile-"))
    try:
        for case in chosen:
            rows.append(measure(case, folder, args.timeout, pdftotext, cases, capped))
            print_row(rows[-1])
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    failing = [row["case"] for row in rows if row["glyphweave"]["bounds"] != "ok"]
    print(f"\n{len(rows) - len(failing)} of {len(rows)} cases within the bounds"
          + (f"; not: {', '.join(failing)}" if failing else ""))
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
