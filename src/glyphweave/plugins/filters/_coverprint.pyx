# cython: language_level=3, boundscheck=False, wraparound=False, initializedcheck=False, cdivision=True
# distutils: extra_compile_args = -ffp-contract=off
"""The ``dedup`` filter's sweep in C doubles: :func:`suspects` gives what
:func:`glyphweave.plugins.filters.overprint.suspects` gives.

The reference keeps each run's span as a tuple (bottom, top, left, right, the run, its index,
its reach) in a list sorted by bottom, and an active list sorted by top; compiled by mypyc, a
span is unboxed to compare and boxed again each time it is stored, so the sweep made a tuple
and four floats per run and unboxed about forty per run compared (a tenth of the filters'
time on the benchmark corpus). Here the spans are C structs in an array, sorted by bottom
(ties by index, which is the reference's stable sort), and the active ones an array of
positions kept sorted by top as ``insort`` keeps them (after equal tops). Every comparison
is the reference's, in its order, so the runs paired are the same pairs in the same order,
and the glyphs of each pair are found by the reference's own step (``paired_glyphs``). The build
turns off the contraction of a multiplication and an addition into one fused step
(``-ffp-contract=off``, as for :mod:`glyphweave.pdf._cmeasure`), so each number rounds as
Python's does.

Anything off the common path goes to the reference whole: a run geometry that is not a
:class:`~glyphweave.plugin.RunGeometry` of floats, a span whose bottom is NaN (Python's
sort does not order NaN the way a comparison of keys can), budgets beyond a machine integer.
"""

from cpython.float cimport PyFloat_AS_DOUBLE, PyFloat_CheckExact
from cpython.tuple cimport PyTuple_GET_ITEM, PyTuple_GET_SIZE
from libc.math cimport INFINITY, isnan
from libc.stdlib cimport free, malloc, qsort, realloc

from glyphweave.plugin import RunGeometry
from glyphweave.plugins.filters import overprint as _reference

__all__ = ["suspects"]

cdef long long _CHECK_EVERY = _reference._CHECK_EVERY
_LARGEST = 1 << 62  # budgets past this go to the reference (no overflow in the sweep)


cdef struct _Span:
    double bottom, top, left, right, reach, dx, dy
    Py_ssize_t run  # the run's index in the table's geometry


cdef int _by_bottom(const void* a, const void* b) noexcept nogil:
    """Bottom first, then the run's index: the reference's stable sort by bottom."""
    cdef const _Span* x = <const _Span*>a
    cdef const _Span* y = <const _Span*>b
    if x.bottom < y.bottom:
        return -1
    if x.bottom > y.bottom:
        return 1
    return -1 if x.run < y.run else (1 if x.run > y.run else 0)


def suspects(table, along, across, size_tolerance, same_direction, comparisons_per_run=None,
             check_time=None, pairs_per_run=None):
    """What :func:`glyphweave.plugins.filters.overprint.suspects` returns for the same
    arguments (the budgets' defaults are the reference's)."""
    if comparisons_per_run is None:
        comparisons_per_run = _reference.COMPARISONS_PER_RUN
    if pairs_per_run is None:
        pairs_per_run = _reference.PAIRS_PER_RUN
    arguments = (table, along, across, size_tolerance, same_direction, comparisons_per_run, check_time,
                 pairs_per_run)
    if type(comparisons_per_run) is not int or type(pairs_per_run) is not int:
        return _reference.suspects(*arguments)
    geometry = table.runs()
    for run in geometry:
        if type(run) is not RunGeometry or not _usable(run):
            return _reference.suspects(*arguments)
    import math

    # As the reference computes it, in Python (math.hypot is not C's hypot to the last bit,
    # and a tolerance of 1 raises as it does there).
    cdef double grow = math.hypot(along, across) / (1.0 - size_tolerance)
    cdef double forward = along
    cdef double same = same_direction
    cdef Py_ssize_t count = len(geometry)
    cdef _Span* spans = <_Span*>malloc(sizeof(_Span) * (count + 1))
    cdef Py_ssize_t* active = <Py_ssize_t*>malloc(sizeof(Py_ssize_t) * (count + 1))
    cdef long long* pairs = NULL
    cdef long long* grown
    if spans == NULL or active == NULL:
        free(spans)
        free(active)
        raise MemoryError()
    cdef Py_ssize_t n = 0, k = 0, i, j, m, kept, lo, hi, mid, held = 0, room = 0
    cdef double h, r, x0, y0, x1, y1, slack, top
    cdef long long budget, check_at, most_pairs
    cdef _Span* span
    cdef _Span* other
    found = set()
    try:
        for run in geometry:
            h = PyFloat_AS_DOUBLE(<object>PyTuple_GET_ITEM(run, 6))
            if not (0.0 < h < INFINITY):
                k += 1
                continue
            if PyFloat_AS_DOUBLE(<object>PyTuple_GET_ITEM(run, 7)) <= forward * h * 1.000001:
                found.update(range(<object>PyTuple_GET_ITEM(run, 0), <object>PyTuple_GET_ITEM(run, 1)))
            r = grow * h
            origins = <object>PyTuple_GET_ITEM(run, 3)
            x0 = PyFloat_AS_DOUBLE(<object>PyTuple_GET_ITEM(origins, 0))
            y0 = PyFloat_AS_DOUBLE(<object>PyTuple_GET_ITEM(origins, 1))
            x1 = PyFloat_AS_DOUBLE(<object>PyTuple_GET_ITEM(origins, 2))
            y1 = PyFloat_AS_DOUBLE(<object>PyTuple_GET_ITEM(origins, 3))
            span = &spans[n]
            span.bottom = y0 - r
            span.top = y1 + r
            span.left = x0 - r
            span.right = x1 + r
            span.reach = r
            span.dx = PyFloat_AS_DOUBLE(<object>PyTuple_GET_ITEM(run, 4))
            span.dy = PyFloat_AS_DOUBLE(<object>PyTuple_GET_ITEM(run, 5))
            span.run = k
            if isnan(span.bottom):
                return _reference.suspects(*arguments)
            n += 1
            k += 1
        if n < 2:
            return found
        budget_whole = comparisons_per_run * n
        most_whole = 2 * pairs_per_run * n
        if not -_LARGEST < budget_whole < _LARGEST or not -_LARGEST < most_whole < _LARGEST:
            return _reference.suspects(*arguments)
        qsort(spans, n, sizeof(_Span), _by_bottom)
        budget = budget_whole
        most_pairs = most_whole
        check_at = budget - _CHECK_EVERY if check_time is not None else -1
        m = 0  # the active spans, as positions in spans, sorted by top
        for i in range(n):
            span = &spans[i]
            if m and spans[active[0]].top < span.bottom:
                kept = 0
                for j in range(m):
                    if spans[active[j]].top >= span.bottom:
                        active[kept] = active[j]
                        kept += 1
                m = kept
            budget -= m
            if budget < 0 or held > most_pairs:
                return range(len(table))
            if budget < check_at:
                check_time()
                check_at = budget - _CHECK_EVERY
            r = span.reach
            for j in range(m):
                other = &spans[active[j]]
                slack = r if r < other.reach else other.reach
                if other.left + slack <= span.right and span.left + slack <= other.right:
                    if span.dx * other.dx + span.dy * other.dy > same and (
                            other.bottom + slack <= span.top and span.bottom + slack <= other.top):
                        if held + 2 > room:
                            room = 2 * room + 16
                            grown = <long long*>realloc(pairs, sizeof(long long) * room)
                            if grown == NULL:
                                raise MemoryError()
                            pairs = grown
                        pairs[held] = other.run
                        pairs[held + 1] = span.run
                        held += 2
            # Inserted as insort(..., key=top) inserts: after every active span whose top is
            # not above this one's.
            top = span.top
            lo = 0
            hi = m
            while lo < hi:
                mid = (lo + hi) // 2
                if top < spans[active[mid]].top:
                    hi = mid
                else:
                    lo = mid + 1
            for j in range(m, lo, -1):
                active[j] = active[j - 1]
            active[lo] = i
            m += 1
        # The glyphs of each pair's runs within the other's reach, by the reference's own step.
        _reference.paired_glyphs(table, geometry, [pairs[i] for i in range(held)], grow, found)
        return found
    finally:
        free(spans)
        free(active)
        free(pairs)


cdef bint _usable(object run):
    """Whether ``run`` (a RunGeometry) holds what the sweep reads as the floats and integers
    the table's geometry gives: anything else goes to the reference."""
    if PyTuple_GET_SIZE(run) != 8:
        return False
    origins = <object>PyTuple_GET_ITEM(run, 3)
    if type(origins) is not tuple or PyTuple_GET_SIZE(origins) != 4:
        return False
    for i in range(4):
        if not PyFloat_CheckExact(<object>PyTuple_GET_ITEM(origins, i)):
            return False
    for i in range(4, 8):
        if not PyFloat_CheckExact(<object>PyTuple_GET_ITEM(run, i)):
            return False
    return type(<object>PyTuple_GET_ITEM(run, 0)) is int and type(<object>PyTuple_GET_ITEM(run, 1)) is int
