"""The ``structure`` assembler's reading (see :mod:`.structure`): the glyphs a tagged page's
structure tree plays, in its order, with floats and notes at the page's foot read after the body,
the artifacts where a reader sees them, and the glyphs outside the tree in geometric order.

A module of its own so that the compiled build compiles it (the assembler's module holds a hook
implementation and the component class, which mypyc does not compile): its loops over a page's
items, blocks and pieces ran interpreted, some 20-30 ms of the bench's tagged Word file.
``options`` is a component with the structure and geometry options (the ``structure`` or the
``auto`` assembler: :class:`~.structure.StructureOptions`), read by attribute.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence
from typing import Any

from glyphweave.layout import Coverage, PageGeometry, StructItem, Walk, content_keys, coverage, join_backwards
from glyphweave.plugin import PageContext

from ._shared import Read, ordered_rows, rows_order, rules_geometry


def play_structure(options: Any, page: PageContext, indices: Sequence[int]) -> Read | None:
    """The page's text in structure order and the glyphs in that order, or None (with
    ``reason`` noted) when the page's structure is not usable. ``options`` is a component with the structure and geometry
    options (the structure or the auto assembler)."""
    played = played_order(options, page, indices)
    if played is None:
        return None
    order, starts, artifacts = played
    in_order = set(order)
    tail = [i for i in indices if i not in in_order]
    artifact_set = set(artifacts)
    untagged = [i for i in tail if i not in artifact_set]
    page.note("untagged", str(len(untagged)))
    page.check_time()
    body = _body_text(options, page, order, starts)
    read_before, read_after = _artifact_text(options, page, artifacts, order)
    reads = [*read_before, (body, order), *read_after, _geometric_text(options, page, untagged)]
    text = "".join(part if part.endswith("\n") or not part else part + "\n" for part, _ in reads if part)
    return text, [g for _, glyphs in reads for g in glyphs]


def played_order(options: Any, page: PageContext,
                 indices: Sequence[int]) -> tuple[list[int], list[_Start], list[int]] | None:
    """The glyphs the structure tree plays, in its order (floats and notes at the foot of the
    page after the body, as the options say), where each item starts in it, and the page's
    artifacts; None (with ``reason`` noted) when the page's structure is not usable. What
    the page's statistics say of it is noted on the way."""
    structure = page.structure
    if structure is None:
        page.note("reason", "no structure tree")
        return None
    by_key, artifacts, loose = content_keys(page.table, indices)
    found: Coverage = coverage(structure, by_key, artifacts, loose, options.coverage)
    page.note("coverage", f"{found.share:.3f}")
    if not found.usable:
        page.note("reason", f"no usable structure: {found.reason}")
        return None
    page.note("served", "structure")
    page.note("reason", found.reason)
    page.check_time()
    order, starts, repeated = _author_order(structure.items, by_key, options.alt)
    if repeated:
        page.note("repeated", f"{repeated} marked-content reference(s) met twice in the tree; played once")
    if options.floats:
        order, starts, floated = _floats_after_body(page, order, starts)
        if floated:
            page.note("floats", f"{floated} float(s) at the foot of the page read after the body")
    order, starts, deferred = _notes_after_body(page, order, starts)
    if deferred:
        page.note("notes", f"{deferred} note(s) at the foot of the page read after the body")
    return order, starts, artifacts


_Start = tuple[int, StructItem]
"""(position in the author-ordered glyphs where an item starts, the item)."""


def _author_order(items: Sequence[StructItem], by_key: dict[Any, list[int]],
                  alt: bool) -> tuple[list[int], list[_Start], int]:
    """The glyphs of the page in the author's order, where each item starts in it, and how
    many references were met again (played once). Replacement and alternate texts ride on
    the items (an item with no glyph left is kept only for its text)."""
    order: list[int] = []
    starts: list[_Start] = []
    used: set[Any] = set()
    repeated = 0
    for item in items:
        glyphs: list[int] = []
        for key in item.keys:
            if key in used:
                repeated += 1  # a content reference met twice is played once
                continue
            used.add(key)
            glyphs.extend(by_key.get(key, ()))
        if item.alt is not None and not alt:
            continue
        if not glyphs and item.text is None and item.alt is None:
            continue
        starts.append((len(order), item))
        order.extend(sorted(glyphs))
    return order, starts, repeated


def _notes_after_body(page: PageContext, order: list[int], starts: list[_Start]) -> tuple[list[int], list[_Start], int]:
    """``order`` and ``starts`` with each note (the items of one Note or FENote element)
    that lies wholly below the body text the tree reads after it moved after the page's
    body, and how many moved.

    Producers tag a footnote where its reference mark is (typst puts the Note inside the
    paragraph, right after the mark), so the tree's order reads it mid-sentence; a reader
    finishes the page's text and then reads the notes at its foot. A note beside or above
    what follows it (a margin note, an endnote in its own section) keeps its place."""
    if not any(item.note is not None for _, item in starts):
        return order, starts, 0
    bounds = [pos for pos, _ in starts] + [len(order)]
    segments: list[tuple[int | None, list[int]]] = []  # (note, indices into starts), in order
    for k, (_pos, item) in enumerate(starts):
        if segments and segments[-1][0] == item.note:
            segments[-1][1].append(k)
        else:
            segments.append((item.note, [k]))
    geos = page.table.runs()
    run_of = _run_of(page)
    rotate = page.rotate % 360

    def extent(ks: list[int]) -> tuple[float, float] | None:
        """The lowest and highest point of the glyphs of these items, up as the page is shown."""
        lo, hi = float("inf"), float("-inf")
        for r in _runs_of(run_of, order, bounds, ks):
            x0, y0, x1, y1 = geos[r].box
            a, b = ((y0, y1) if rotate == 0 else (-y1, -y0) if rotate == 180
                    else (-x1, -x0) if rotate == 90 else (x0, x1))
            lo, hi = min(lo, a), max(hi, b)
        return (lo, hi) if lo <= hi else None

    kept: list[list[int]] = []
    moved: list[list[int]] = []
    for n, (note, ks) in enumerate(segments):
        if note is not None:
            mine = extent(ks)
            after: tuple[float, float] | None = None
            for other_note, other in segments[n + 1:]:
                if other_note is None:
                    after = extent(other)
                    if after is not None:
                        break
            if mine is not None and after is not None and mine[1] < after[0]:
                moved.append(ks)
                continue
        kept.append(ks)
    if not moved:
        return order, starts, 0
    new_order: list[int] = []
    new_starts: list[_Start] = []
    for ks in [*kept, *moved]:
        for k in ks:
            new_starts.append((len(new_order), starts[k][1]))
            new_order.extend(order[bounds[k]:bounds[k + 1]])
    return new_order, new_starts, len(moved)


FLOAT_BLOCKS = 4
"""A float is at most this many blocks in a row (a quote and its attribution, a box's
heading and lines)."""
FLOAT_LINES = 3
"""... and this many lines: a pull quote or a caption, not a paragraph left below a figure."""

_Box = tuple[float, float, float, float, int]
"""A block's box (x0, y0, x1, y1) and how many lines it has."""


def _floats_after_body(page: PageContext, order: list[int],
                       starts: list[_Start]) -> tuple[list[int], list[_Start], int]:
    """``order`` and ``starts`` with each float moved after the page's body, and how many
    moved. A float is a run of blocks (up to :data:`FLOAT_BLOCKS` and :data:`FLOAT_LINES`,
    notes aside) that lies
    wholly below every block the tree reads after it and spans two of them side by side
    (paragraphs of the body: longer than a float, not table cells, not notes):
    typst and LaTeX tag a float where its source is (a pull quote after the paragraph that
    mentions it), and the page sets it at its foot, across the columns, where a reader meets
    it after them, and the column it interrupted goes on right below the block before it.
    A block at the foot of one column is not one: the column beside it, read after it, comes
    as low or spans nothing of it; nor are a page's last lines below a figure whose labels,
    side by side, the tree reads after them."""
    if len(starts) < 3:
        return order, starts, 0
    bounds = [pos for pos, _ in starts] + [len(order)]
    blocks: list[list[int]] = []  # indices into starts, one list per block, in order
    for k, (_pos, item) in enumerate(starts):
        if blocks and starts[blocks[-1][-1]][1].block == item.block:
            blocks[-1].append(k)
        else:
            blocks.append([k])
    boxes = _block_boxes(page, order, bounds, blocks)
    notes = [all(starts[k][1].note is not None for k in ks) for ks in blocks]
    cells = [all(starts[k][1].cell is not None for k in ks) for ks in blocks]
    n = len(blocks)
    lowest = [float("inf")] * (n + 1)  # lowest[i]: the lowest bottom of the blocks from i on, notes aside
    for i in range(n - 1, -1, -1):
        box = boxes[i]
        lowest[i] = min(lowest[i + 1], box[1]) if box is not None and not notes[i] else lowest[i + 1]
    floated: list[int] = []  # blocks moved
    i = 0
    while i < n:
        for j in range(i, min(i + FLOAT_BLOCKS, n)):
            run = [box for box in boxes[i:j + 1] if box is not None]
            if not run or sum(box[4] for box in run) > FLOAT_LINES:
                break
            if any(notes[i:j + 1]) or not max(box[3] for box in run) < lowest[j + 1]:
                continue
            x0, x1 = min(box[0] for box in run), max(box[2] for box in run)
            beside = [box for box, note, cell in zip(boxes[j + 1:], notes[j + 1:], cells[j + 1:], strict=True)
                      if box is not None and box[4] > FLOAT_LINES and not note and not cell
                      and box[0] < x1 and box[2] > x0]
            if (beside and min(box[2] for box in beside) < max(box[0] for box in beside)
                    and _flow_goes_on(boxes, notes, i, j)):
                floated.extend(range(i, j + 1))
                i = j
                break
        i += 1
    if not floated:
        return order, starts, 0
    moved = set(floated)
    new_order: list[int] = []
    new_starts: list[_Start] = []
    for b in [*(b for b in range(n) if b not in moved), *floated]:
        for k in blocks[b]:
            new_starts.append((len(new_order), starts[k][1]))
            new_order.extend(order[bounds[k]:bounds[k + 1]])
    runs = sum(1 for k, b in enumerate(floated) if k == 0 or floated[k - 1] != b - 1)
    return new_order, new_starts, runs


def _flow_goes_on(boxes: list[_Box | None], notes: list[bool], i: int, j: int) -> bool:
    """Whether the block the tree reads after blocks ``i..j`` continues the one it reads
    before them: in its column, right below it (within two of its lines). The float
    interrupted a column of text; a page's last lines, followed in the tree by a figure's
    labels set elsewhere, are not a float."""
    before = next((box for box in reversed(boxes[:i]) if box is not None), None)
    after = next((box for box, note in zip(boxes[j + 1:], notes[j + 1:], strict=True)
                  if box is not None and not note), None)
    if before is None or after is None or not (after[0] < before[2] and after[2] > before[0]):
        return False
    pitch = (before[3] - before[1]) / max(1, before[4])
    return 0.0 <= before[1] - after[3] <= 2.0 * pitch


def _block_boxes(page: PageContext, order: list[int], bounds: list[int], blocks: list[list[int]]) -> list[_Box | None]:
    """Each block's box (x0, y0, x1, y1) as the page is shown (its /Rotate applied), from
    the boxes of the runs its glyphs are in, and its lines (the runs' distinct baselines, to
    the point); None for a block with no glyph."""
    geos = page.table.runs()
    run_of = _run_of(page)
    rotate = page.rotate % 360
    out: list[_Box | None] = []
    for ks in blocks:
        x_lo, y_lo, x_hi, y_hi = float("inf"), float("inf"), float("-inf"), float("-inf")
        baselines: set[int] = set()
        for r in _runs_of(run_of, order, bounds, ks):
            x0, y0, x1, y1 = geos[r].box
            if rotate == 90:
                x0, y0, x1, y1 = y0, -x1, y1, -x0
            elif rotate == 180:
                x0, y0, x1, y1 = -x1, -y1, -x0, -y0
            elif rotate == 270:
                x0, y0, x1, y1 = -y1, x0, -y0, x1
            x_lo, y_lo, x_hi, y_hi = min(x_lo, x0), min(y_lo, y0), max(x_hi, x1), max(y_hi, y1)
            baselines.add(round(y0))
        out.append((x_lo, y_lo, x_hi, y_hi, len(baselines)) if x_lo <= x_hi else None)
    return out


def _run_of(page: PageContext) -> list[int]:
    """The run each glyph of the page is in, by glyph index: the runs of a stretch of the
    reading order are then found at C speed (a bisection per glyph cost a tagged page half
    a millisecond)."""
    run_of = [0] * len(page.table)
    for r, geo in enumerate(page.table.runs()):
        run_of[geo.start:geo.end] = [r] * (geo.end - geo.start)
    return run_of


def _runs_of(run_of: list[int], order: list[int], bounds: list[int], ks: list[int]) -> set[int]:
    """The runs of the glyphs of items ``ks`` (item k holds ``order[bounds[k]:bounds[k + 1]]``)."""
    runs: set[int] = set()
    for k in ks:
        runs.update(map(run_of.__getitem__, order[bounds[k]:bounds[k + 1]]))
    return runs


def _body_text(options: Any, page: PageContext, order: list[int], starts: list[_Start]) -> str:
    """The tagged content's text: the reading rules between glyphs, forced line ends
    between blocks, cells of a row joined, replacement texts in place of their glyphs."""
    if not order and not any(item.text or item.alt for _, item in starts):
        return ""
    glyphs = order
    pieces = played_pieces(options, page, order)
    # Items whose text stands without glyphs (a figure's Alt, an ActualText over invisible
    # content) get a glyph-less piece of their own: -1 in the glyph list, text in the piece.
    out_glyphs: list[int] = []
    out_pieces: list[str] = []
    bounds = [pos for pos, _ in starts] + [len(glyphs)]
    prev: StructItem | None = None
    for (pos, item), end in zip(starts, bounds[1:], strict=True):
        sep = _separator(prev, item)
        prev = item
        replacement = item.alt if item.alt is not None else item.text
        if replacement is not None:
            if not sep and pos < end and out_pieces:  # the rules' word space or line end before it
                sep = pieces[pos][: len(pieces[pos]) - len(pieces[pos].lstrip("\n "))]
            out_glyphs.append(glyphs[pos] if pos < end else -1)
            out_pieces.append(sep + replacement if replacement else sep)
            out_glyphs.extend(glyphs[pos + 1:end])
            out_pieces.extend([""] * (end - pos - 1))
            continue
        if pos == end:
            continue
        # The item's glyphs go over as they are, but for the first piece: the separator
        # the tree forces replaces the rules' word space or line end before it.
        out_glyphs.extend(glyphs[pos:end])
        if out_pieces:
            piece = pieces[pos]
            bare = piece.lstrip("\n ")
            out_pieces.append((sep or piece[: len(piece) - len(bare)]) + bare)
            out_pieces.extend(pieces[pos + 1:end])
        else:
            out_pieces.extend(pieces[pos:end])
    # (``piece[0]``, not ``startswith``: a method call per glyph cost three times as much.)
    breaks = [k for k, piece in enumerate(out_pieces) if piece and piece[0] == "\n"]
    if -1 in out_glyphs:  # text without glyphs: no geometry for it, so no line records
        return _plain(out_pieces, options)
    page.check_time()
    walk = Walk(out_glyphs, out_pieces, breaks, [])
    geometry = PageGeometry(page, out_glyphs, rules_geometry(options, page, order).rules, ligatures=options.ligatures,
                            walk=walk)
    if geometry.plain_order():
        return geometry.reading_text()
    # Lines of one baseline cut apart by the rules (a Latin span inside an Arabic line,
    # painted to its left) are joined; the tree's order is otherwise kept as it is.
    return geometry.text_of_rows(join_backwards(geometry.lines))


def played_pieces(options: Any, page: PageContext, order: list[int]) -> list[str]:
    """The reading rules' piece of each glyph of ``order`` (its text, with the word space or
    line end the rules put in front of it), the glyphs walked in that order."""
    if not order:
        return []
    walked = rules_geometry(options, page, order).walk
    listed = walked.glyphs
    if isinstance(listed, range) and listed.start == 0:
        # the run walk lists every glyph up to the last taken: pick the ones played
        return list(map(walked.pieces.__getitem__, order))
    if list(listed) == order:
        return list(walked.pieces)
    piece_of = dict(zip(listed, walked.pieces, strict=True))
    return [piece_of.get(g, "") for g in order]


def _plain(pieces: list[str], options: Any) -> str:
    from glyphweave.layout import expand_ligatures, finish_text

    text = finish_text("".join(pieces))
    return text if options.ligatures else expand_ligatures(text)


def _separator(prev: StructItem | None, item: StructItem) -> str:
    """What goes between two items: nothing to force inside one block (the rules decide),
    a space between the cells of a row, a line end between blocks."""
    if prev is None:
        return ""
    if item.row is not None and item.row == prev.row:
        return "" if item.cell == prev.cell and item.block == prev.block else " "
    return "" if item.block == prev.block else "\n"


def _geometric_text(options: Any, page: PageContext, indices: list[int]) -> tuple[str, list[int]]:
    """Glyphs outside the tree, in geometric order (the columns assembler's): their text
    and their order."""
    if not indices:
        return "", []
    geometry = rules_geometry(options, page, indices)
    rows = ordered_rows(options, geometry, geometry.lines)
    return geometry.text_of_rows(rows), rows_order(rows)


def _artifact_text(options: Any, page: PageContext, artifacts: list[int],
                   order: list[int]) -> tuple[list[tuple[str, list[int]]], list[tuple[str, list[int]]]]:
    """The artifacts' text (and their glyphs in reading order) before and after the content,
    as the ``artifacts`` option says."""
    mode = options.artifacts
    if mode == "drop" or not artifacts:
        return [], []
    if mode == "append" or not order:
        return [], [_geometric_text(options, page, artifacts)]
    geometry = rules_geometry(options, page, artifacts)
    top = _top(page, order)
    above = [line for line in geometry.lines if line.box[1] >= top]
    below = [line for line in geometry.lines if line.box[1] < top]
    rows_above = ordered_rows(options, geometry, above) if above else []
    rows_below = ordered_rows(options, geometry, below) if below else []
    return ([(geometry.text_of_rows(rows_above), rows_order(rows_above))] if above else [],
            [(geometry.text_of_rows(rows_below), rows_order(rows_below))] if below else [])


def _top(page: PageContext, order: list[int]) -> float:
    """The highest point of the tagged content: the top of the highest run holding one of
    its glyphs (user space, y up)."""
    played = sorted(order)
    top = float("-inf")
    for geo in page.table.runs():
        k = bisect_left(played, geo.start)
        if k < len(played) and played[k] < geo.end and geo.box[3] > top:
            top = geo.box[3]
    return top if top > float("-inf") else float("inf")
