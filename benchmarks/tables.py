"""What the first use of each CJK and symbol table costs a fresh process.

    python benchmarks/tables.py [--runs N] [--only text,...] [--cmaps NAME,...]

glyphweave reads its data tables on first use (``glyphweave.tables``: importing them does no work), so
the first glyph of a CJK or symbol font pays for loading the table behind it. For each table this
starts a fresh Python process (``--runs`` of them, default 5) that imports the modules the decoder
uses, then times the first call a decoder makes, the one that loads the table:

* ``CID->Unicode Adobe-GB1`` (and ``CNS1``, ``Japan1``, ``Korea1``): ``glyphweave.tables.cjk.cid_to_unicode``,
  as the ``cid-collection`` decoder calls it.
* ``CMap GBK-EUC-H``, ``CMap UniJIS-UCS2-H``, ...: ``glyphweave.pdf.predefined.predefined_cmap`` (what a
  Type0 font with a predefined /Encoding loads, through ``glyphweave.pdf.fonts``), then ``to_cid`` of
  one code.
* ``Symbol``, ``ZapfDingbats`` (also Dingbats), ``Wingdings``: the ``symbol-fonts`` decoders' route, the
  built-in encoding of the font (``glyphweave.tables.symbols.builtin_encoding``, which reads the
  standard-14 metrics) then ``symbol_tables()`` (one load serves all three fonts' tables).

Interpreter start-up and module imports are not timed; fontTools' AGL module (parsed when imported,
and imported by the first glyph-name lookup) is imported beforehand too, and the table loader has
answered once for another table (as it has in any extraction by the time a CJK or symbol font comes). Each figure is the median over
the processes; the parts of a first use (metrics, then tables) are shown separately. The target, from
issue 13: at most 20 ms per table. This is not a test: nothing is asserted.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

TARGET_MS = 20.0
ORDERINGS = ("GB1", "CNS1", "Japan1", "Korea1")
# Default predefined CMaps, with a code to look up in each (the same few characters: 中, あ, 가).
CMAP_CODES: dict[str, bytes] = {
    "GBK-EUC-H": b"\xd6\xd0",
    "UniGB-UCS2-H": "中".encode("utf-16-be"),
    "90ms-RKSJ-H": "あ".encode("cp932"),
    "UniJIS-UCS2-H": "あ".encode("utf-16-be"),
    "ETenms-B5-H": "中".encode("big5"),
    "UniCNS-UCS2-H": "中".encode("utf-16-be"),
    "KSCms-UHC-H": "가".encode("cp949"),
    "UniKS-UCS2-H": "가".encode("utf-16-be"),
}
# Symbol fonts: a code of each, looked up as the decoder does (© in Symbol, a check mark in the others).
SYMBOL_CODES = {"Symbol": 0xD3, "ZapfDingbats": 0x33, "Wingdings": 0xFC}

Step = tuple[str, Callable[[Any], Any]]  # (what it loads, call given the previous step's answer)

# --------------------------------------------------------------------------------------------------------
# Worker side: each case imports what it needs, then returns the calls to time and a way to ask which
# source (the shipped mirror or the small fallback) served.


def _cid_case(ordering: str) -> tuple[list[Step], Callable[[], str]]:
    from glyphweave.tables.cjk import cid_to_unicode, cjk_source

    return [(f"Adobe-{ordering} table", lambda _: cid_to_unicode(ordering, 4000))], cjk_source


def _cmap_case(name: str) -> tuple[list[Step], Callable[[], str]]:
    from glyphweave.pdf.predefined import predefined_cmap
    from glyphweave.tables.cjk import cjk_source

    code = CMAP_CODES.get(name)

    def first_use(_: Any) -> Any:
        cmap = predefined_cmap(name)
        if cmap is None or code is None:
            return cmap if cmap is None else repr(cmap)
        return cmap.to_cid(code)

    return [(f"{name} CMap", first_use)], cjk_source


def _symbol_case(font: str) -> tuple[list[Step], Callable[[], str]]:
    import fontTools.agl  # noqa: F401  (parsed when imported: an import, not one of our tables)

    from glyphweave.tables.encodings import glyph_name_to_unicode
    from glyphweave.tables.std14 import std14_source
    from glyphweave.tables.symbols import builtin_encoding, symbol_tables, table_source

    code = SYMBOL_CODES[font]

    def source() -> str:
        return f"symbols {table_source()}, std14 {std14_source()}"

    if font == "Wingdings":
        return [("symbol tables", lambda _: symbol_tables().wingdings.get(code))], source

    def by_name(name: str | None) -> str | None:
        if name is None:
            return None
        tables = symbol_tables()
        if font == "Symbol":
            return tables.symbol_overrides.get(name) or glyph_name_to_unicode(name)
        return tables.zapf_names.get(name) or glyph_name_to_unicode(name)

    return [("std14 metrics", lambda _: builtin_encoding(font).get(code)), ("symbol tables", by_name)], source


def case(key: str) -> tuple[list[Step], Callable[[], str]]:
    kind, _, name = key.partition(":")
    if kind == "cid":
        return _cid_case(name)
    if kind == "cmap":
        return _cmap_case(name)
    return _symbol_case(name)


def worker(key: str) -> int:
    import gc

    from glyphweave.tables import loader

    steps, source = case(key)
    # The loader's own first call (importlib.resources finding the package's folder) is made on another
    # table's folder, as any extraction has done by the time it meets a CJK or symbol font.
    loader.has_mirror("encodings")
    gc.collect()
    answer: Any = None
    parts = []
    for label, call in steps:
        start = time.perf_counter()
        answer = call(answer)
        parts.append((label, time.perf_counter() - start))
    json.dump({"parts": parts, "answer": answer, "source": source()}, sys.stdout, ensure_ascii=False)
    return 0


# --------------------------------------------------------------------------------------------------------
# Parent side.


def label(key: str) -> str:
    kind, _, name = key.partition(":")
    if kind == "cid":
        return f"CID->Unicode Adobe-{name}"
    if kind == "cmap":
        return f"CMap {name}"
    return "ZapfDingbats (Dingbats)" if name == "ZapfDingbats" else name


def run_worker(key: str, timeout: float) -> dict:
    cmd = [sys.executable, str(Path(__file__).resolve()), "--worker", key]
    try:
        done = subprocess.run(cmd, capture_output=True, timeout=timeout, check=False)
    except subprocess.TimeoutExpired:
        return {"error": "timeout"}
    if done.returncode != 0:
        lines = [line for line in done.stderr.decode("utf-8", "replace").splitlines() if line.strip()]
        return {"error": lines[-1] if lines else f"exit {done.returncode}"}
    try:
        return json.loads(done.stdout)
    except ValueError:
        return {"error": "worker printed no result"}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5, help="fresh processes per table; median taken (default: 5)")
    parser.add_argument(
        "--cmaps",
        default=",".join(CMAP_CODES),
        help=f"predefined CMaps to time (default: {','.join(CMAP_CODES)})",
    )
    parser.add_argument(
        "--only", default="", help="time only the tables whose name contains one of these (comma-separated)"
    )
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds per process (default: 60)")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        return worker(args.worker)
    if args.runs < 1:
        parser.error("--runs must be at least 1")

    keys = [f"cid:{o}" for o in ORDERINGS]
    keys += [f"cmap:{name.strip()}" for name in args.cmaps.split(",") if name.strip()]
    keys += [f"symbol:{font}" for font in SYMBOL_CODES]
    wanted = [w.strip().lower() for w in args.only.split(",") if w.strip()]
    if wanted:
        keys = [k for k in keys if any(w in label(k).lower() for w in wanted)]
    if not keys:
        parser.error("--only matches no table")

    results: dict[str, list[dict]] = {k: [] for k in keys}
    for run in range(args.runs):
        shift = run % len(keys)
        for key in keys[shift:] + keys[:shift]:
            r = run_worker(key, args.timeout)
            results[key].append(r)
            shown = r["error"] if "error" in r else f"{sum(s for _, s in r['parts']) * 1000:.1f} ms"
            print(f"[{run + 1}/{args.runs}] {label(key):<28} {shown}", file=sys.stderr, flush=True)

    print(
        f"\nFirst use of each table in a fresh process (imports done beforehand); "
        f"median of {args.runs} process(es).\n"
    )
    print("| table | first use ms | of which | target ms | met |")
    print("|---|---:|---|---:|---|")
    notes = []
    for key in keys:
        runs = results[key]
        failed = [r for r in runs if "error" in r]
        if failed:
            print(f"| {label(key)} | {failed[0]['error']} | | {TARGET_MS:g} | - |")
            continue
        total = statistics.median(sum(s for _, s in r["parts"]) for r in runs) * 1000
        names = [name for name, _ in runs[0]["parts"]]
        parts = (
            " + ".join(
                f"{name} {statistics.median(r['parts'][i][1] for r in runs) * 1000:.1f}"
                for i, name in enumerate(names)
            )
            if len(names) > 1
            else ""
        )
        answer, source = runs[0]["answer"], runs[0]["source"]
        met = "yes" if total <= TARGET_MS else "NO"
        if answer is None or "fallback" in source:
            met = "-"
            notes.append(
                f"- {label(key)}: answer {answer!r}, source {source}: no shipped table was loaded "
                "(a name the mirror does not hold, or no mirror), so the figure says nothing about one"
            )
        print(f"| {label(key)} | {total:.1f} | {parts} | {TARGET_MS:g} | {met} |")
    if notes:
        print()
        print("\n".join(notes))
    return 0


if __name__ == "__main__":
    sys.exit(main())
