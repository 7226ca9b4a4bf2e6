"""The compiled build's shape references and search (``glyphmap/_cshapes.pyx``) answer what the
reference (:func:`glyphweave.glyphmap.shapes.parse_references` and :func:`~.shapes.nearest`)
answers, to the bit: the same columns, priors and typical top, and the same nearest references
with the same distances for every shape, place, script and font x-height. Its scan-line fill
gives the bitmap :func:`glyphweave.glyphmap.raster._fill_reference` gives, for every outline.

Skipped where the C module is not built (a pure install); the ``mypyc`` tox environment
builds it.
"""

from __future__ import annotations

import math
import random

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from glyphweave.glyphmap import raster, shapes
from glyphweave.packagedata import package_folder

_cshapes = pytest.importorskip("glyphweave.glyphmap._cshapes", reason="the C shape search is not built (a pure install)")

COLUMNS = ("flags", "bits", "grown", "ink", "bottom", "top", "advance", "x_height", "aspect", "parts", "holes")


@pytest.fixture(scope="module")
def tables() -> tuple[shapes.References, shapes.References]:
    data = (package_folder(shapes.PACKAGE, shapes.FOLDER) / "shapes" / "references.bin").read_bytes()
    return shapes.parse_references(data), shapes.native_references(data)


def _exact(found: list[tuple[float, int]]) -> list[tuple[str, int]]:
    return [(distance.hex(), row) for distance, row in found]


def test_the_packaged_table_loads_in_c_in_the_compiled_build():
    shapes.load_references.cache_clear()
    try:
        assert shapes.load_references().native is not None
    finally:
        shapes.load_references.cache_clear()


def test_the_columns_priors_and_typical_top_are_the_references(tables):
    pure, native = tables
    assert native.chars == pure.chars
    for name in COLUMNS:
        assert tuple(getattr(native, name)) == tuple(getattr(pure, name)), name
    assert set(native.priors) == set(pure.priors)
    for name, values in pure.priors.items():
        assert tuple(native.priors[name]) == values
    assert native.typical_top == pure.typical_top
    assert not native.em_cells and not native.xh_cells  # the C table is searched instead


def _shape_near(refs: shapes.References, i: int, rnd: random.Random, noise: bool) -> raster.Shape:
    """A shape drawn from reference ``i`` (as tests/glyphmap/test_shapes.py draws them), with
    pixels flipped and its place, advance and pieces moved a little when ``noise``."""
    height = refs.top[i] - refs.bottom[i]
    width = math.exp(refs.aspect[i]) * (height + 0.02) - 0.02
    bits = refs.bits[i]
    if noise:
        bits ^= rnd.getrandbits(576) & rnd.getrandbits(576) & rnd.getrandbits(576)
    bottom = refs.bottom[i] + (rnd.uniform(-0.03, 0.03) if noise else 0.0)
    advance = refs.advance[i] * (rnd.choice([1.0, 0.0, 1.1]) if noise else 1.0)
    parts = max(0, refs.parts[i] + (rnd.choice([0, 1, -1]) if noise else 0))
    return raster.Shape(bits=bits, box=(0.05, bottom, 0.05 + width, refs.top[i]), advance=advance, parts=parts,
                        holes=refs.holes[i])


@pytest.mark.parametrize("seed", range(4))
def test_the_nearest_references_are_the_same_to_the_bit(tables, seed):
    pure, native = tables
    rnd = random.Random(seed)
    found = 0
    for trial in range(150):
        i = rnd.randrange(len(pure.chars))
        shape = _shape_near(pure, i, rnd, noise=trial % 3 != 0)
        x_height = rnd.choice([None, 0.45, pure.x_height[i]])
        script = rnd.choice([None, "Latn", "Latn+plain", "Grek", "Cyrl+plain"])
        expected = shapes.nearest(shape, x_height, pure, script)
        found += bool(expected)
        assert _exact(shapes.nearest(shape, x_height, native, script)) == _exact(expected)
    assert found > 100  # most shapes drawn from a reference are compared with some


@settings(max_examples=200, deadline=None)
@given(bits=st.integers(0, (1 << 576) - 1), x0=st.floats(-0.5, 1.0), y0=st.floats(-0.5, 1.0),
       width=st.floats(0.0, 1.5), height=st.floats(0.0, 1.5), advance=st.floats(-0.5, 1.5),
       parts=st.integers(0, 8), holes=st.integers(0, 4),
       x_height=st.one_of(st.none(), st.floats(0.05, 2.0)),
       script=st.sampled_from([None, "Latn", "Grek", "Cyrl", "Latn+plain", "Grek+plain", "Cyrl+plain"]))
def test_generated_shapes(tables, bits, x0, y0, width, height, advance, parts, holes, x_height, script):
    pure, native = tables
    shape = raster.Shape(bits=bits, box=(x0, y0, x0 + width, y0 + height), advance=advance, parts=parts, holes=holes)
    assert _exact(shapes.nearest(shape, x_height, native, script)) == _exact(shapes.nearest(shape, x_height, pure,
                                                                                            script))


@pytest.mark.parametrize(("box", "bits", "parts"), [
    ((0.0, 0.0, math.nan, 0.7), 0xFFFF, 1),  # no proportion: both raise
    ((0.0, 0.0, 0.5, math.inf), 0xFFFF, 1),
    ((0.0, 0.0, 0.5, 0.7), 1 << 600, 1),  # not a raster's bitmap: the reference reads it
    ((0.0, 0.0, 0.5, 0.7), 0xFFFF, 300),  # more pieces than any reference
])
def test_odd_shapes_answer_or_raise_alike(tables, box, bits, parts):
    pure, native = tables
    shape = raster.Shape(bits=bits, box=box, advance=0.5, parts=parts, holes=0)
    results = []
    for refs in (pure, native):
        try:
            results.append(_exact(shapes.nearest(shape, None, refs, "Latn")))
        except Exception as exc:  # noqa: BLE001 (compared, not swallowed)
            results.append(f"{type(exc).__name__}: {exc}")
    assert results[1] == results[0]


def test_an_unknown_script_raises_alike(tables):
    pure, native = tables
    shape = _shape_near(pure, 0, random.Random(0), noise=False)
    for refs in (pure, native):
        with pytest.raises(KeyError):
            shapes.nearest(shape, None, refs, "Hani")


def test_a_font_read_through_the_c_search_reads_as_through_the_reference(tables):
    pure, native = tables
    rnd = random.Random(7)
    sample = {k: _shape_near(pure, rnd.randrange(len(pure.chars)), rnd, noise=True) for k in range(60)}
    assert shapes.read_shapes(sample, native) == shapes.read_shapes(sample, pure)


def _edges_of(polygons: list[list[tuple[float, float]]]) -> list[tuple[float, float, float, float, int]]:
    """The edges :func:`raster.shape_of_polygons` hands to the fill, caught on their way."""
    caught: list[list[tuple[float, float, float, float, int]]] = []

    def catch(edges):
        caught.append(list(edges))
        return raster._fill_reference(edges)

    original = raster._fill
    raster._fill = catch
    try:
        raster.shape_of_polygons(polygons, 1000)
    finally:
        raster._fill = original
    return caught[0] if caught else []


_POINTS = st.lists(st.tuples(st.one_of(st.integers(-60, 1100).map(float), st.floats(-60.0, 1100.0)),
                             st.one_of(st.integers(-300, 900).map(float), st.floats(-300.0, 900.0))),
                   min_size=3, max_size=24)


@settings(max_examples=300, deadline=None)
@given(polygons=st.lists(_POINTS, min_size=1, max_size=4))
def test_the_c_fill_fills_what_the_reference_fills(polygons):
    # Integer points (as font programs have) put many crossings on one x and edges on
    # pixel boundaries: the ties and the clamping to the grid are exercised too.
    edges = _edges_of(polygons)
    # Points a few units in the last place apart scale to a grid of infinities: edges that are
    # not numbers, which the C fill leaves to the reference (the test below).
    assume(all(math.isfinite(value) for edge in edges for value in edge[:4]))
    assert _cshapes.fill(edges) == raster._fill_reference(edges)


def test_the_c_fill_of_real_glyph_outlines():
    # A square with a square counter drawn the other way, an "o" of curves, a stem under half
    # a pixel wide beside a flat wedge (partly covered pixels on both sides of the threshold).
    square = [[(0.0, 0.0), (600.0, 0.0), (600.0, 700.0), (0.0, 700.0)],
              [(150.0, 150.0), (150.0, 550.0), (450.0, 550.0), (450.0, 150.0)]]
    ring = [[(300 + 280 * math.cos(a / 20 * math.tau), 350 + 360 * math.sin(a / 20 * math.tau)) for a in range(20)],
            [(300 + 180 * math.cos(-a / 20 * math.tau), 350 + 250 * math.sin(-a / 20 * math.tau)) for a in range(20)]]
    hairline = [[(0.0, 0.0), (12.0, 0.0), (12.0, 700.0), (0.0, 700.0)], [(0.0, 0.0), (500.0, 0.0), (500.0, 30.0)]]
    for polygons in (square, ring, hairline):
        edges = _edges_of(polygons)
        bits = _cshapes.fill(edges)
        assert bits and bits == raster._fill_reference(edges)


@pytest.mark.parametrize("bad", [math.inf, -math.inf, math.nan])
def test_the_c_fill_leaves_numbers_that_are_not_finite_to_the_reference(bad):
    edges = [(0.0, 24.0, 0.0, 0.0, 1), (0.0, 24.0, bad, 0.0, -1)]
    assert _cshapes.fill(edges) is None
    assert _cshapes.fill([(0.0, 24.0, 0.0, bad, 1), (0.0, 24.0, 5.0, 0.0, -1)]) is None


def test_the_raster_fills_in_c_in_the_compiled_build():
    assert raster._native_fill() is _cshapes.fill
    edges = _edges_of([[(0.0, 0.0), (600.0, 0.0), (600.0, 700.0), (0.0, 700.0)]])
    assert raster._fill(edges) == raster._fill_reference(edges) != 0
