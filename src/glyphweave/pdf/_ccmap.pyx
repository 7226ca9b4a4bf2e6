# cython: language_level=3, boundscheck=False, wraparound=False, initializedcheck=False
"""A CMap's cidrange sections read in C (:func:`cidrange_body`, the reference's
:func:`glyphweave.pdf.cmap.cidrange_body`).

Adobe's predefined CMaps are thousands of ``<lo> <hi> CID`` lines (GBK-EUC-H 4,112 of them,
UniGB-UCS2-H 14,000), and a CJK document that names one parses it before its first string:
the reference finds the triples with a regular expression and converts each number through
``int``, some 5 ms for GBK-EUC-H and 20 for UniGB-UCS2-H. Here one pass over the bytes finds
the same triples as the expression would (every other position skipped, as ``findall`` skips
it) and reads the numbers as it goes. A bound longer than 16 hex digits or a CID longer than
18 digits does not fit the C integers: the answer is then ``False``, and the caller asks the
reference.
"""

from cpython.list cimport PyList_Append
from cpython.long cimport PyLong_FromLongLong, PyLong_FromUnsignedLongLong
from cpython.mem cimport PyMem_Free, PyMem_Malloc, PyMem_Realloc

__all__ = ["cidrange_body"]


cdef inline bint _space(unsigned char c) noexcept:
    return c == 0 or c == 9 or c == 10 or c == 12 or c == 13 or c == 32


cdef inline int _hex(unsigned char c) noexcept:
    if 48 <= c <= 57:
        return c - 48
    if 65 <= c <= 70:
        return c - 55
    if 97 <= c <= 102:
        return c - 87
    return -1


cdef inline Py_ssize_t _hex_run(const unsigned char* data, Py_ssize_t i, Py_ssize_t stop) noexcept:
    while i < stop and _hex(data[i]) >= 0:
        i += 1
    return i


cdef inline Py_ssize_t _space_run(const unsigned char* data, Py_ssize_t i, Py_ssize_t stop) noexcept:
    while i < stop and _space(data[i]):
        i += 1
    return i


cdef inline unsigned long long _hex_value(const unsigned char* data, Py_ssize_t start, Py_ssize_t end) noexcept:
    cdef unsigned long long value = 0
    cdef Py_ssize_t i
    for i in range(start, end):
        value = (value << 4) | <unsigned long long>_hex(data[i])
    return value


cdef struct _Triple:
    Py_ssize_t lo_start, lo_end, hi_start, hi_end, cid_start, cid_end


def cidrange_body(bytes data, Py_ssize_t pos, Py_ssize_t stop):
    """The ranges of a cidrange body ``data[pos:stop]`` as the reference gives them, None when
    it is not a body of plain triples, False when a number is too long for this reading."""
    cdef const unsigned char* text = <const unsigned char*>data
    cdef Py_ssize_t size = len(data), i, j, count = 0, room = 64, opened = 0, width
    cdef Py_ssize_t lo_start, lo_end, hi_start, hi_end, cid_start, cid_end
    cdef unsigned long long lo, hi
    cdef long long cid
    cdef _Triple* triples
    cdef _Triple* grown
    cdef _Triple* t
    if pos < 0:
        pos = 0
    if stop > size:
        stop = size
    triples = <_Triple*>PyMem_Malloc(room * sizeof(_Triple))
    if triples == NULL:
        raise MemoryError()
    try:
        # The triples, as the expression finds them, and every "<" counted.
        i = pos
        while i < stop:
            if text[i] != 60:  # "<"
                i += 1
                continue
            opened += 1
            lo_start = i + 1
            lo_end = _hex_run(text, lo_start, stop)
            if lo_end >= stop or text[lo_end] != 62:  # ">"
                i += 1
                continue
            j = _space_run(text, lo_end + 1, stop)
            if j >= stop or text[j] != 60:
                i += 1
                continue
            hi_start = j + 1
            hi_end = _hex_run(text, hi_start, stop)
            if hi_end >= stop or text[hi_end] != 62:
                i += 1
                continue
            cid_start = _space_run(text, hi_end + 1, stop)
            cid_end = cid_start
            while cid_end < stop and 48 <= text[cid_end] <= 57:
                cid_end += 1
            if cid_end == cid_start:
                i += 1
                continue
            opened += 1  # the second bound's "<", inside the match
            if count == room:
                room *= 2
                grown = <_Triple*>PyMem_Realloc(triples, room * sizeof(_Triple))
                if grown == NULL:
                    raise MemoryError()
                triples = grown
            triples[count] = _Triple(lo_start, lo_end, hi_start, hi_end, cid_start, cid_end)
            count += 1
            i = cid_end
        if count == 0 or opened != 2 * count:
            return None
        for i in range(count):
            t = &triples[i]
            width = t.lo_end - t.lo_start
            if width != t.hi_end - t.hi_start or width == 0 or width % 2:
                return None
        for i in range(count):
            t = &triples[i]
            if t.lo_end - t.lo_start > 16 or t.cid_end - t.cid_start > 18:
                return False
        found = []
        for i in range(count):
            t = &triples[i]
            lo = _hex_value(text, t.lo_start, t.lo_end)
            hi = _hex_value(text, t.hi_start, t.hi_end)
            if lo > hi:
                continue
            cid = 0
            for j in range(t.cid_start, t.cid_end):
                cid = cid * 10 + (text[j] - 48)
            low = PyLong_FromUnsignedLongLong(lo)
            PyList_Append(found, ((t.lo_end - t.lo_start) // 2, low, PyLong_FromUnsignedLongLong(hi),
                                  ("cid", low, PyLong_FromLongLong(cid))))
        return found
    finally:
        PyMem_Free(triples)
