"""The compiled build's run geometry (``_cruns``) gives what the reference
(:func:`glyphweave.core.runs.runs_geometry`) gives: the same records, of the same types, with
every number equal to the bit.

Skipped where the C module is not built (a pure install); the ``mypyc`` tox environment
builds it, and compares both builds' text on every shared PDF besides.
"""

from __future__ import annotations

import math
import os
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from glyphweave.core import runs as reference
from glyphweave.core.glyphtable import GlyphTable
from glyphweave.testing.factories import add_text

native = pytest.importorskip("glyphweave.core._cruns", reason="the C run geometry is not built (a pure install)")


def _exact(value: Any) -> Any:
    """``value`` with each float spelled to the bit and each container's type kept."""
    if isinstance(value, float):
        return ("float", value.hex())
    if isinstance(value, tuple):
        return (type(value).__name__, [_exact(item) for item in value])
    return (type(value).__name__, value)


def _recorded(run: Any) -> Any:
    """A test factory's run as the interpreter records one: its numbers floats, its starts a
    tuple, and its extent known."""
    run = run._replace(matrix=tuple(float(v) for v in run.matrix), starts=tuple(float(v) for v in run.starts))
    return run._replace(extent=reference.run_extent(run))


def _assert_same(runs: list[Any], first: int = 0) -> None:
    expected = reference.runs_geometry(runs, first)
    found = native.runs_geometry(runs, first)
    assert [_exact(g) for g in found[0]] == [_exact(g) for g in expected[0]]
    assert [_exact(f) for f in found[1]] == [_exact(f) for f in expected[1]]


_NUMBERS = st.one_of(st.floats(-1e6, 1e6), st.sampled_from([0.0, -0.0, 1.0, -1.0, math.inf, -math.inf, math.nan]))


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["a", "ab", "Hello", "x y"]), st.floats(-500, 500), st.floats(-500, 500),
                          st.sampled_from([0.0, 0.0, 8.0, 10.0, 1e-3]),
                          st.sampled_from([0.0, 0.0, 90.0, 180.0, 270.0, 30.0, -0.0]), st.sampled_from([0, 0, 1]),
                          st.sampled_from([0.0, 0.0, 2.5, -3.0]),
                          st.sampled_from([0.5, 0.0, -0.4, (0.5, 0.0, 0.6, 0.2, 0.5)])), max_size=12),
       st.integers(0, 5))
def test_the_same_records_on_generated_runs(specs, first):
    table = GlyphTable()
    for text, x, y, size, angle, wmode, rise, advance in specs:
        if isinstance(advance, tuple):
            advance = [advance[i % len(advance)] for i in range(len(text))]
        add_text(table, text, x, y, size=size, angle=angle, wmode=wmode, rise=rise, advance=advance)
    _assert_same([_recorded(run) for run in table.raw_runs()], first)
    _assert_same(table.raw_runs(), first)  # as the factory records them: the reference's, each


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(_NUMBERS, _NUMBERS, _NUMBERS, _NUMBERS, _NUMBERS, _NUMBERS, _NUMBERS), min_size=1,
                max_size=5))
def test_the_same_records_for_any_matrix_and_rise(values):
    # Matrices with zeros of either sign, infinities and NaN, as a hostile content stream sets them.
    table = GlyphTable()
    add_text(table, "abc", 10.0, 20.0)
    base = _recorded(table.raw_runs()[0])
    runs = [base._replace(matrix=tuple(v[:6]), rise=float(v[6])) for v in values]
    _assert_same(runs)


def test_runs_off_the_common_path_are_the_references():
    # No extent, integers where floats are recorded, an empty run, a list of starts: each
    # goes to the reference, alone, between runs of the common path.
    table = GlyphTable()
    add_text(table, "Hello", 10, 20)
    add_text(table, "abc", 10, 40, angle=45.0)
    run = _recorded(table.raw_runs()[0])
    odd = [run._replace(extent=None), run._replace(matrix=(1, 0, 0, 1, 5, 6)), run._replace(rise=0),
           run._replace(starts=list(run.starts)), run._replace(wmode=True)]
    _assert_same([run, *odd, _recorded(table.raw_runs()[1]), run])


def test_upright_runs_are_worked_out_in_c(monkeypatch):
    table = GlyphTable()
    for row in range(10):
        add_text(table, "plain words", 36, 700 - 12 * row, rise=float(row % 2), size=8.0 + row)
    runs = [_recorded(run) for run in table.raw_runs()]
    expected = reference.runs_geometry(runs)

    def handed(*arguments: Any) -> Any:
        raise AssertionError("handed to the reference")

    monkeypatch.setattr(reference, "runs_geometry", handed)
    assert native.runs_geometry(runs) == expected


_SHARED = Path(os.environ.get("GLYPHWEAVE_SHARED") or Path(__file__).resolve().parents[2].parent / "shared")


@pytest.mark.skipif(not (_SHARED / "bench" / "pdfs").is_dir(), reason="the shared bench corpus is not here")
def test_the_same_records_on_real_pages():
    # Every bench file's first pages, as the interpreter recorded them.
    import glyphweave

    checked = 0
    for path in sorted((_SHARED / "bench" / "pdfs").glob("*.pdf")):
        with glyphweave.open(path) as document:
            for page in list(document.pages)[:3]:
                _assert_same(page.table.raw_runs())
                checked += len(page.table.raw_runs())
    assert checked > 1000


def test_the_records_are_freed_with_their_last_reference():
    # The records are allocated in C: each must hold one reference, its list's, and nothing
    # more (a second one would keep every page's geometry alive to the end of the process).
    import sys

    table = GlyphTable()
    add_text(table, "Hello", 10, 20)
    geometry, frames = native.runs_geometry([_recorded(table.raw_runs()[0])])
    record, frame = geometry[0], frames[0]
    del geometry, frames
    assert sys.getrefcount(record) == sys.getrefcount(frame) == 2
