"""The corpus scan (rules: the glyph registry): every glyph no table could read, and every glyph read only
because a later decoder replaced a weak answer (a Private Use Area code, U+FFFD, a
control character), gathered into registry entries.

Each file is scanned on its own (:func:`scan_file`, run by the batch pool, or Dask, one
file per job): its glyphs are grouped by key (:mod:`.keys`) with a count, the first
occurrence's code and context, its drawing, and the proposed character (the text a
decoder recovered, with the decoder as its source; none for an unresolved glyph). The
parent merges the files' groups in the order of their paths, so the result does not
depend on which worker finished first, and the registry file is updated under its lock
(:func:`~.registry.update_registry`). Memory grows with the number of distinct keys, not
with the corpus.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

import attrs

from glyphweave.batch.task import ExtractOptions, FileJob, FileResult, one_line
from glyphweave.core.decoding import has_private_use
from glyphweave.layout import page_geometry
from glyphweave.opening import OpenOptions

from .keys import code_hex, family_of, make_key
from .registry import Entry, Registry, update_registry

CONTEXT = 24
"""Characters of text kept on each side of a glyph for its context example."""

MARK = "⟦?⟧"
"""How the context shows the glyph itself."""

_SHOWN = "\ufffd"  # an unresolved glyph in the context walk (replaced by MARK, or by the text it has)

def scan_file(source: str, options: OpenOptions | None = None,
              warnings: list[str] | None = None, *, propose: bool = False) -> dict[str, dict[str, Any]]:
    """The registry groups of one file: key -> {count, family, code, context, svg, mapping,
    source, confidence, status}. Fonts whose embedded program could not be read (their
    glyphs get "no outline") are added to ``warnings``. ``propose``: an unresolved glyph
    with an outline gets the shape matcher's reading as a proposal (source ``shape``, with
    its confidence)."""
    from glyphweave.api import open_with

    groups: dict[str, dict[str, Any]] = {}
    broken: set[str] = set()
    with open_with(source, options or OpenOptions(pause_gc=True)) as doc:
        recovered = doc.pipeline.chain.recovered
        decoded_as = doc._fonts.decoded_as  # the chain's records name the first of fonts that decode alike
        for page in doc.pages:
            table = page.table
            visible = page.visible_indices()
            if not visible:
                continue
            wanted = _wanted(table, visible, recovered, decoded_as)
            if not wanted:
                continue
            pieces = _pieces(page, visible)
            if propose:
                _show_proposals(pieces, table, wanted)
            for g in wanted:
                _record(groups, table, g, pieces, propose)
            broken.update(_unreadable_fonts(table, wanted))
    if warnings is not None:
        warnings.extend(f"font {name}: its embedded program could not be read; its glyphs have no outline"
                        for name in sorted(broken))
    return groups


def _unreadable_fonts(table: Any, glyphs: Sequence[int]) -> set[str]:
    try:
        from .outline import program_unreadable
    except ImportError:  # pragma: no cover
        return set()
    fonts = table.font
    found = set()
    for index in {fonts[g] for g in glyphs}:
        info = table.font_infos.get(index)
        if info is not None and program_unreadable(info):
            found.add(info.base_font)
    return found


def _wanted(table: Any, visible: Sequence[int], recovered: dict[Any, str],
            decoded_as: dict[Any, Any]) -> list[int]:
    """The visible glyphs to record: unresolved ones, and those a decoder answered after
    an earlier one gave a weak answer (a Private Use Area code such as Word's U+F0xx for
    Symbol and Wingdings: :attr:`DecoderChain.recovered`). Whitespace is never recorded.
    ``decoded_as``: font key -> the key of the font whose decoding it shares
    (:attr:`~glyphweave.pdf.fonts.FontLoader.decoded_as`), the one the chain's records name."""
    decoded_by = table.decoded_by
    out = []
    texts = table.text
    codes: Any = None
    fonts: Any = None
    for g in visible:
        if decoded_by[g] is None:
            out.append(g)
        elif recovered and not texts[g].isspace():
            if codes is None:
                codes, fonts = table.code, table.font
            info = table.font_infos.get(fonts[g])
            code = codes[g]
            raw = bytes((code,)) if isinstance(code, int) else code
            if info is not None and (decoded_as.get(info.key, info.key), raw) in recovered:
                out.append(g)
    return out


def _pieces(page: Any, visible: Sequence[int]) -> dict[int, str]:
    """Each visible glyph's text with the separator in front of it (the reading walk),
    unresolved glyphs shown as a character, not the profile's placeholder: a placeholder
    space would swallow the word space after the glyph."""
    context = attrs.evolve(page.context(), placeholder=_SHOWN)
    walk = page_geometry(context, visible).walk
    return dict(zip(walk.glyphs, walk.pieces, strict=True))


def _show_proposals(pieces: dict[int, str], table: Any, glyphs: Sequence[int]) -> None:
    """Show the unresolved ``glyphs`` in ``pieces`` by the shape matcher's reading where it
    has one, so a context reads "the Technology Acc⟦?⟧ptance", not "??? ?????????? ???⟦?⟧?????"."""
    from .fontshapes import blank_glyph, shape_reading

    infos, fonts, codes, cids, decoded_by = table.font_infos, table.font, table.code, table.cid, table.decoded_by
    for g in glyphs:
        piece = pieces.get(g)
        info = infos.get(fonts[g])
        if piece is None or _SHOWN not in piece or info is None or decoded_by[g] is not None:
            continue
        reading = shape_reading(info, codes[g], cids[g])
        if reading is not None:
            pieces[g] = piece.replace(_SHOWN, reading.char)
        elif blank_glyph(info, codes[g], cids[g]):
            pieces[g] = piece.replace(_SHOWN, " ")


def _context(pieces: dict[int, str], g: int) -> str:
    before: list[str] = []
    n = 0
    k = g - 1
    while k >= 0 and n < CONTEXT and g - k < 4 * CONTEXT:
        piece = pieces.get(k, "")
        before.append(piece)
        n += len(piece)
        k -= 1
    after: list[str] = []
    n = 0
    k = g + 1
    limit = g + 4 * CONTEXT
    while n < CONTEXT and k < limit:
        piece = pieces.get(k, "")
        after.append(piece)
        n += len(piece)
        k += 1
    own = pieces.get(g, "")
    text = "".join(reversed(before)) + own[: len(own) - len(own.lstrip())] + MARK + "".join(after)
    return " ".join(text.replace(_SHOWN, "?").split())


def _record(groups: dict[str, dict[str, Any]], table: Any, g: int, pieces: dict[int, str],
            propose: bool = False) -> None:
    info = table.font_infos.get(table.font[g])
    code = table.code[g]
    cid = table.cid[g]
    base = info.base_font if info is not None else table.fonts[table.font[g]].base_font
    family = family_of(base)
    hex_code = code_hex(code)
    drawing = _draw(info, code, cid)
    key = make_key(family, hex_code, drawing.hash if drawing is not None else None)
    group = groups.get(key)
    if group is None:
        by = table.decoded_by[g]
        group = groups[key] = {
            "count": 0, "family": family, "code": hex_code, "context": _context(pieces, g),
            "svg": drawing.path if drawing is not None else "",
            "em": drawing.units_per_em if drawing is not None else 1000,
            "undrawn": _undrawn(info, code, cid) if drawing is None else "",
            "mapping": table.text[g] if by is not None else "",
            "source": by or "", "confidence": None, "status": "proposed" if by is not None else "unresolved",
            "standin": _standin(info, code),
        }
        if by is None and propose:
            _propose(group, info, code, cid, drawing)
    group["count"] += 1


def _standin(info: Any, code: Any) -> str:
    """The Private Use text the font's /ToUnicode gives ``code``: what other extractors
    print for the glyph, so that ``repair`` can find it ("" when there is none)."""
    if info is None or info.to_unicode is None:
        return ""
    raw = bytes((code,)) if isinstance(code, int) else bytes(code)
    text = info.to_unicode.to_unicode(raw) or ""
    return text if text and has_private_use(text) else ""


def _propose(group: dict[str, Any], info: Any, code: Any, cid: Any, drawing: Any) -> None:
    """The shape matcher's proposal for an unresolved glyph (an outline's, or a Type3 glyph
    procedure's): its reading, or a space for a glyph that draws nothing and advances."""
    if info is None or (drawing is None and info.subtype != "Type3" and not info.embedded):
        return
    from .fontshapes import blank_glyph, shape_reading

    reading = shape_reading(info, code, cid)
    if reading is not None:
        group.update(mapping=reading.char, source="shape", confidence=reading.confidence, status="proposed")
    elif blank_glyph(info, code, cid):
        group.update(mapping=" ", source="shape", confidence=1.0, status="proposed")


def _draw(info: Any, code: Any, cid: Any) -> Any:
    if info is None:
        return None
    try:
        from .outline import draw_glyph
    except ImportError:  # pragma: no cover - the outline module ships with the package
        return None
    try:
        return draw_glyph(info, code, cid)
    except Exception:  # a broken font program: "no outline"
        return None


def _undrawn(info: Any, code: Any, cid: Any) -> str:
    """Why the glyph has no drawing, for the sheet (:data:`~.registry.UNDRAWN`)."""
    if info is None:  # the font could not be loaded at all
        return "unreadable program"
    try:
        from .outline import why_undrawn
    except ImportError:  # pragma: no cover - the outline module ships with the package
        return ""
    return why_undrawn(info, code, cid)


def scan_job(job: FileJob, propose: bool = False) -> FileResult:
    """One file of a scan, as the batch pool runs it: the groups travel back as JSON in
    the result's content (a scan writes no output per file)."""
    started = time.perf_counter()
    warnings: list[str] = []
    try:
        groups = scan_file(job.source, job.options.open, warnings, propose=propose)
    except Exception as exc:
        from glyphweave.exits import exit_status

        return FileResult(file=job.source, status="failed", error=one_line(exc), exit_status=exit_status(exc),
                          seconds=round(time.perf_counter() - started, 4))
    return FileResult(file=job.source, status="ok", seconds=round(time.perf_counter() - started, 4),
                      glyphs=sum(group["count"] for group in groups.values()), warnings=len(warnings),
                      content=json.dumps({"groups": groups, "warnings": warnings}, ensure_ascii=False,
                                         sort_keys=True))


@attrs.frozen
class ScanReport:
    """What a scan found and what became of the registry."""

    files: int
    failed: list[FileResult]
    keys: int
    """Distinct keys met in this scan."""
    registry: Registry
    warnings: list[str] = attrs.field(factory=list)
    """``file: message`` for what could not be drawn (unreadable font programs)."""


def merge_groups(results: Iterable[tuple[str, dict[str, dict[str, Any]]]]) -> list[Entry]:
    """Entries from the files' groups, merged in the order of the file paths (so the same
    corpus always gives the same entries, whichever worker finished first)."""
    merged: dict[str, dict[str, Any]] = {}
    for _source, groups in sorted(results, key=lambda item: item[0]):
        for key, group in groups.items():
            have = merged.get(key)
            if have is None:
                merged[key] = {**group, "files": 1}
            else:
                have["count"] += group["count"]
                have["files"] += 1
                if not have.get("standin") and group.get("standin"):
                    have["standin"] = group["standin"]
                if group["status"] == "proposed" and _better(group, have):
                    have.update(mapping=group["mapping"], source=group["source"], confidence=group.get("confidence"),
                                status="proposed")
    return [Entry(key=key, status=g["status"], mapping=g["mapping"], source=g["source"],
                  confidence=g.get("confidence"), standin=g.get("standin", ""), family=g["family"],
                  code=g["code"], count=g["count"], files=g["files"], context=g["context"],
                  undrawn="" if g["svg"] else g.get("undrawn", ""), em=g.get("em", 0) if g["svg"] else 0,
                  svg=g["svg"])
            for key, g in sorted(merged.items())]


def _better(new: dict[str, Any], have: dict[str, Any]) -> bool:
    """Whether a file's proposal replaces the one merged so far: any proposal beats none, a
    table's beats the shape matcher's, and of two shape readings the more confident wins
    (the first file's on a tie)."""
    if have["status"] == "unresolved":
        return True
    if (have["source"] == "shape") != (new["source"] == "shape"):
        return have["source"] == "shape"
    if new["source"] == "shape":
        return (new.get("confidence") or 0.0) > (have.get("confidence") or 0.0)
    return False


def scan(inputs: Sequence[str], registry_path: str, *, options: OpenOptions | None = None,
         jobs: int | None = None, dask: str | None = None,
         progress: Any = None, propose: bool = False) -> ScanReport:
    """Scan the PDFs of ``inputs`` (files, folders, ``@lists``, as ``glyphweave batch``
    takes them) and merge what they hold into the registry at ``registry_path`` (created
    when it does not exist; written through :mod:`glyphweave.files`).
    ``options``: what each file is opened with (default: the installed plugins and the
    default profile, the collector paused while a page is read: the scan's workers are
    processes it owns). ``progress`` (optional) is called with each file's result as it finishes.
    ``propose``: unresolved glyphs with an outline get the shape matcher's reading as a
    proposal (:func:`scan_file`).

    :raises UsageError: ``registry_path`` is one of the files named in ``inputs``.
    """
    import os

    from glyphweave.batch.runner import plan
    from glyphweave.files import check_not_input

    # The registry may be none of the inputs (a PDF, a folder's file or an @list): refused
    # before the scan, not after minutes of it.
    check_not_input(registry_path, [item[1:] if item.startswith("@") else item for item in inputs])
    extract = ExtractOptions() if options is None else ExtractOptions(open=options)
    batch = plan(inputs, os.path.dirname(os.path.abspath(registry_path)), extract, gather=True)
    collected: list[tuple[str, dict[str, dict[str, Any]]]] = []
    warned: list[str] = []
    failed = list(batch.problems)
    for result in _run(batch.jobs, jobs=jobs, dask=dask, propose=propose):
        if progress is not None:
            progress(result)
        if result.status == "ok" and result.content is not None:
            found = json.loads(result.content)
            collected.append((result.file, found["groups"]))
            warned.extend(f"{result.file}: {message}" for message in found["warnings"])
        elif result.status == "failed":
            failed.append(result)
    entries = merge_groups(collected)
    registry = update_registry(registry_path, entries)
    return ScanReport(files=len(batch.jobs) + len(batch.problems), failed=failed, keys=len(entries),
                      registry=registry, warnings=sorted(warned))


def _run(jobs_list: list[FileJob], *, jobs: int | None, dask: str | None, propose: bool = False) -> Iterator[FileResult]:
    import functools
    import os

    if not jobs_list:
        return
    if dask is not None:
        from glyphweave.batch import dask as dask_backend

        yield from dask_backend.run_dask(jobs_list, address=dask, gather=True, job_runner=functools.partial(scan_job, propose=propose))
        return
    from glyphweave.batch.pool import run_pool

    workers = max(1, min(jobs or os.cpu_count() or 1, len(jobs_list)))
    yield from run_pool(jobs_list, workers=workers, job_runner=functools.partial(scan_job, propose=propose))
