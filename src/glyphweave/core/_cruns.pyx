# cython: language_level=3, boundscheck=False, wraparound=False, initializedcheck=False, cdivision=True
# distutils: extra_compile_args = -ffp-contract=off
"""Each run's geometry and frame in C doubles: :func:`runs_geometry` gives what
:func:`glyphweave.core.runs.runs_geometry` gives.

The reference, compiled by mypyc, unboxes the run's matrix and numbers, boxes its results
again, and makes each record (a named tuple) by calling ``tuple.__new__`` on a plain tuple
built first: two tuples and a call through Python's protocol per record, two records per run
(4% of the CJK manual). Here an upright run whose extent the interpreter knew (nearly every
run: the reference's own fast path) is worked out with the reference's operations in its
order, and its records are allocated as the named tuples they are and filled in place; the
frame keeps the matrix's own float objects where its values are the matrix's. The build
turns off the contraction of a multiplication and an addition into one fused step
(``-ffp-contract=off``, as for :mod:`glyphweave.pdf._cmeasure`), so each number rounds as
Python's does. Any other run (rotated, without an extent, or holding something other than
floats where the interpreter records floats) is worked out by the reference, alone.
"""

from cpython.float cimport PyFloat_AS_DOUBLE, PyFloat_CheckExact, PyFloat_FromDouble
from cpython.list cimport PyList_Append
from cpython.object cimport PyObject, PyTypeObject
from cpython.ref cimport Py_INCREF
from cpython.tuple cimport PyTuple_GET_ITEM, PyTuple_GET_SIZE, PyTuple_SET_ITEM
from libc.math cimport INFINITY, fabs

from glyphweave.core import runs as _reference
from glyphweave.core.runs import RunFrame, RunGeometry

__all__ = ["runs_geometry"]


cdef extern from "Python.h":
    # Declared as returning an object: Cython then owns the new reference (a PyObject* cast
    # to object would take a second one, and every record would leak).
    object PyType_GenericAlloc(PyTypeObject* kind, Py_ssize_t items)


cdef object _record(type kind, Py_ssize_t size):
    """An instance of the named tuple ``kind`` with ``size`` items not yet set, as
    ``tuple.__new__`` allocates one (its items are set by the caller before it is seen)."""
    return PyType_GenericAlloc(<PyTypeObject*>kind, size)


cdef inline void _put(object record, Py_ssize_t index, object value):
    Py_INCREF(value)
    PyTuple_SET_ITEM(record, index, value)


cdef inline bint _floats(object items, Py_ssize_t count):
    """Whether ``items`` is a tuple of ``count`` floats."""
    if type(items) is not tuple or PyTuple_GET_SIZE(items) != count:
        return False
    for i in range(count):
        if not PyFloat_CheckExact(<object>PyTuple_GET_ITEM(items, i)):
            return False
    return True


def runs_geometry(list runs, Py_ssize_t first=0):
    """What :func:`glyphweave.core.runs.runs_geometry` returns for ``runs``: each run's
    :class:`~glyphweave.core.runs.RunGeometry` and :class:`~glyphweave.core.runs.RunFrame`."""
    out = []
    frames = []
    cdef Py_ssize_t start = first, n
    cdef double a, b, c, d, e, f, rise, bx, by, ax, ay, nx, ny, ux, uy, lo, hi, g_lo, g_hi, step
    cdef double x0, x1, y0, y1, o0, o1, along, norm
    cdef object matrix, starts, extent, by_object, frame, geometry
    cdef bint vertical
    for run in runs:
        if not _common(run):
            start = _other(run, start, out, frames)
            continue
        matrix = <object>PyTuple_GET_ITEM(run, 2)
        a = PyFloat_AS_DOUBLE(<object>PyTuple_GET_ITEM(matrix, 0))
        b = PyFloat_AS_DOUBLE(<object>PyTuple_GET_ITEM(matrix, 1))
        c = PyFloat_AS_DOUBLE(<object>PyTuple_GET_ITEM(matrix, 2))
        d = PyFloat_AS_DOUBLE(<object>PyTuple_GET_ITEM(matrix, 3))
        e = PyFloat_AS_DOUBLE(<object>PyTuple_GET_ITEM(matrix, 4))
        f = PyFloat_AS_DOUBLE(<object>PyTuple_GET_ITEM(matrix, 5))
        # run_axes: the one place the writing mode decides which matrix row is the axis.
        vertical = <object>PyTuple_GET_ITEM(run, 4) != 0
        if not vertical:
            rise = PyFloat_AS_DOUBLE(<object>PyTuple_GET_ITEM(run, 3))
            bx, by, ax, ay, nx, ny, ux, uy = e + c * rise, f + d * rise, a, b, c, d, a, b
        else:
            bx, by, ax, ay, nx, ny, ux, uy = e, f, c, d, a, b, -c, -d
        if not (ay == 0.0 and nx == 0.0):
            # Not upright: the reference's general computation.
            start = _other(run, start, out, frames)
            continue
        # The frame, with the matrix's own floats where its values are the matrix's.
        frame = _record(RunFrame, 8)
        if not vertical:
            by_object = PyFloat_FromDouble(by)
            _put(frame, 0, PyFloat_FromDouble(bx))
            _put(frame, 1, by_object)
            _put(frame, 2, <object>PyTuple_GET_ITEM(matrix, 0))
            _put(frame, 3, <object>PyTuple_GET_ITEM(matrix, 1))
            _put(frame, 4, <object>PyTuple_GET_ITEM(matrix, 2))
            _put(frame, 5, <object>PyTuple_GET_ITEM(matrix, 3))
            _put(frame, 6, <object>PyTuple_GET_ITEM(matrix, 0))
            _put(frame, 7, <object>PyTuple_GET_ITEM(matrix, 1))
        else:
            by_object = <object>PyTuple_GET_ITEM(matrix, 5)
            _put(frame, 0, <object>PyTuple_GET_ITEM(matrix, 4))
            _put(frame, 1, by_object)
            _put(frame, 2, <object>PyTuple_GET_ITEM(matrix, 2))
            _put(frame, 3, <object>PyTuple_GET_ITEM(matrix, 3))
            _put(frame, 4, <object>PyTuple_GET_ITEM(matrix, 0))
            _put(frame, 5, <object>PyTuple_GET_ITEM(matrix, 1))
            _put(frame, 6, PyFloat_FromDouble(ux))
            _put(frame, 7, PyFloat_FromDouble(uy))
        starts = <object>PyTuple_GET_ITEM(run, 8)
        extent = <object>PyTuple_GET_ITEM(run, 18)
        n = PyTuple_GET_SIZE(starts)
        lo = PyFloat_AS_DOUBLE(<object>PyTuple_GET_ITEM(run, 11))
        hi = PyFloat_AS_DOUBLE(<object>PyTuple_GET_ITEM(run, 12))
        g_lo = PyFloat_AS_DOUBLE(<object>PyTuple_GET_ITEM(extent, 0))
        g_hi = PyFloat_AS_DOUBLE(<object>PyTuple_GET_ITEM(extent, 1))
        step = PyFloat_AS_DOUBLE(<object>PyTuple_GET_ITEM(extent, 2))
        x0 = bx + ax * g_lo
        x1 = bx + ax * g_hi
        y0 = by + ny * lo
        y1 = by + ny * hi
        o0 = bx + ax * PyFloat_AS_DOUBLE(<object>PyTuple_GET_ITEM(starts, 0))
        o1 = bx + ax * PyFloat_AS_DOUBLE(<object>PyTuple_GET_ITEM(starts, n - 1))
        along = fabs(ax)
        norm = along if along != 0.0 else 1.0
        geometry = _record(RunGeometry, 8)
        _put(geometry, 0, start)
        _put(geometry, 1, start + n)
        _put(geometry, 2, (x0 if x0 < x1 else x1, y0 if y0 < y1 else y1, x1 if x0 < x1 else x0,
                           y1 if y0 < y1 else y0))
        _put(geometry, 3, (o0 if o0 < o1 else o1, by_object, o1 if o0 < o1 else o0, by_object))
        _put(geometry, 4, ux / norm)
        _put(geometry, 5, uy / norm)
        _put(geometry, 6, fabs(hi - lo) * fabs(ny))
        _put(geometry, 7, step * along if step != INFINITY else INFINITY)
        PyList_Append(out, geometry)
        PyList_Append(frames, frame)
        start += n
    return out, frames


cdef bint _common(object run):
    """Whether ``run`` is what the interpreter records for the common case: a :class:`Run`
    whose matrix, rise, descent and ascent are floats, whose extent is known, and whose
    starts are a tuple with a float at each end (the reference takes anything else)."""
    if type(run) is not _reference.Run:
        return False
    starts = <object>PyTuple_GET_ITEM(run, 8)
    return (_floats(<object>PyTuple_GET_ITEM(run, 2), 6) and _floats(<object>PyTuple_GET_ITEM(run, 18), 3)
            and type(<object>PyTuple_GET_ITEM(run, 4)) is int
            and type(starts) is tuple and PyTuple_GET_SIZE(starts) > 0
            and PyFloat_CheckExact(<object>PyTuple_GET_ITEM(starts, 0))
            and PyFloat_CheckExact(<object>PyTuple_GET_ITEM(starts, PyTuple_GET_SIZE(starts) - 1))
            and PyFloat_CheckExact(<object>PyTuple_GET_ITEM(run, 3))
            and PyFloat_CheckExact(<object>PyTuple_GET_ITEM(run, 11))
            and PyFloat_CheckExact(<object>PyTuple_GET_ITEM(run, 12)))


cdef Py_ssize_t _other(object run, Py_ssize_t start, list out, list frames) except -1:
    """The reference's records of one run that is not the common case; the next run's start."""
    geometry, frame = _reference.runs_geometry([run], start)
    out.append(geometry[0])
    frames.append(frame[0])
    return geometry[0].end
