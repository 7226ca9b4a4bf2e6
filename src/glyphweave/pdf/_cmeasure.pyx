# cython: language_level=3, boundscheck=False, wraparound=False, initializedcheck=False, cdivision=True
# distutils: extra_compile_args = -ffp-contract=off
"""Measuring a shown string in C doubles: :func:`measure_simple` for a simple font's,
:func:`measure_composite` for a composite font's.

:mod:`glyphweave.pdf.measure` is the reference. It works an operand out with C-level
``map`` and ``accumulate`` over tuples, so each step of a string (pen moves, positions, the
pens without TJ numbers, the extent) builds a tuple or list of float objects that the next
step reads back. Here the steps run over C arrays of doubles, and float objects are made once,
for what the result holds (the starts, the pens sharing them as the reference's do). Each number is
computed by the same operations in the same order as the reference's, so the results are
equal to the bit (a test compares both on generated operands and text states), NaN and
signed zeros included: Python's ``min`` and ``max`` are written out with the comparisons
they make. The build turns off the contraction of a multiplication and an addition into one
fused step (``-ffp-contract=off``, the ``distutils`` line above; a compiler that does not
know the flag, MSVC, ignores it and does not contract by default), which would round once
where Python rounds twice.

Anything off the common path goes to the reference whole: a simple font's advances that are
not a list of floats covering every code, strings that are neither bytes nor bytearray, a
negative TJ position. A composite font whose CMap has several code widths has its codes cut
by the reference (the CMap's own ``split``), the rest done here.
"""

from cpython.bytearray cimport PyByteArray_AS_STRING, PyByteArray_GET_SIZE
from cpython.bytes cimport PyBytes_AS_STRING, PyBytes_FromStringAndSize, PyBytes_GET_SIZE
from cpython.dict cimport PyDict_Check, PyDict_SetItem
from cpython.float cimport PyFloat_AS_DOUBLE, PyFloat_AsDouble, PyFloat_CheckExact, PyFloat_FromDouble
from cpython.list cimport PyList_GET_ITEM, PyList_GET_SIZE
from cpython.long cimport PyLong_AsSsize_t, PyLong_FromLong
from cpython.object cimport PyObject, PyObject_GetItem
from cpython.ref cimport Py_INCREF, Py_XDECREF
from cpython.tuple cimport PyTuple_GET_ITEM, PyTuple_New, PyTuple_SET_ITEM
from libc.math cimport INFINITY
from libc.stdlib cimport calloc, free, malloc

from glyphweave.pdf import measure as _reference
from glyphweave.pdf.fonts import ScaledWidths

__all__ = ["KnownCodes", "measure_composite", "measure_simple"]


cdef extern from "Python.h":
    PyObject* PyDict_GetItemWithError(object mapping, object key) except? NULL


cdef inline object _item(object table, object code):
    """``table[code]`` (the font's caches: dicts whose ``__missing__`` fills them, none of
    them overriding ``__getitem__``): the dict's own lookup first, the subscript (and so
    ``__missing__``) only for a key not there yet."""
    cdef PyObject* found
    if PyDict_Check(table):
        found = PyDict_GetItemWithError(table, code)
        if found != NULL:
            return <object>found
    return PyObject_GetItem(table, code)


cdef struct _Known:
    # One code a composite font's operands showed: its key (see _key; 0 for an empty slot),
    # and the code, CID and decoding its font's tables gave (strong references).
    Py_ssize_t key
    PyObject* code
    PyObject* cid
    PyObject* decoded


cdef Py_ssize_t _KNOWN_MOST = 1 << 16  # slots: 2 MB at most per font, about 43,000 codes


cdef class KnownCodes:
    """What the measuring keeps per font between operands. For a composite font, each code
    :func:`measure_composite` met (up to three bytes long), with the code's bytes, CID and
    decoding as the font's caches gave them, in an open-addressing table keyed by the code's
    bytes as an integer.

    The reference looks each code of each new operand up in two of the font's caches
    (code to CID, code to text), each a dictionary keyed by a fresh ``bytes`` object that is
    hashed and compared anew: on a CJK document that was a fifth of the measuring. A code met
    before costs a probe of this table instead, and its ``bytes`` object is the one made
    the first time. The caches never change an answer once given (they only fill), so what
    is kept here is what a look-up would give; a code met the first time is still looked up
    in them, in the reference's order. A simple font's codes are single bytes, keys of
    small integers that hash at no cost: :func:`measure_simple` keeps only their decoding,
    by code in an array, where a dictionary look-up took about a hundred instructions."""

    cdef _Known* slots
    cdef Py_ssize_t size  # slots, a power of two (0 before the first code)
    cdef Py_ssize_t used
    cdef int shift  # 64 - log2(size): the hash's top bits index the table
    cdef PyObject* simple[256]  # a simple font's decoding of each code, NULL until met

    def __dealloc__(self):
        cdef Py_ssize_t i
        for i in range(256):
            Py_XDECREF(self.simple[i])
        if self.slots != NULL:
            for i in range(self.size):
                if self.slots[i].key:
                    Py_XDECREF(self.slots[i].code)
                    Py_XDECREF(self.slots[i].cid)
                    Py_XDECREF(self.slots[i].decoded)
            free(self.slots)

    def __len__(self):
        cdef Py_ssize_t i, simple = 0
        for i in range(256):
            simple += self.simple[i] != NULL
        return self.used + simple

    cdef inline Py_ssize_t _slot(self, Py_ssize_t key) noexcept:
        """Where ``key`` is, or the empty slot where it would go (linear probing from a
        Fibonacci hash); -1 before the table exists."""
        if self.size == 0:
            return -1
        cdef Py_ssize_t mask = self.size - 1
        cdef Py_ssize_t i = <Py_ssize_t>((<unsigned long long>key * 11400714819323198485ULL) >> self.shift)
        while self.slots[i].key != key and self.slots[i].key != 0:
            i = (i + 1) & mask
        return i

    cdef inline _Known* find(self, Py_ssize_t key) noexcept:
        cdef Py_ssize_t i = self._slot(key)
        if i < 0 or self.slots[i].key == 0:
            return NULL
        return &self.slots[i]

    cdef int add(self, Py_ssize_t key, object code, object cid, object decoded) except -1:
        """Keep ``key``'s answers (a key already kept keeps its first; a full table keeps
        no more)."""
        if (self.used + 1) * 3 > self.size * 2:  # over two thirds full: grow, or stop adding
            if self.size >= _KNOWN_MOST:
                return 0
            self._grow()
        cdef Py_ssize_t i = self._slot(key)
        if self.slots[i].key:
            return 0
        self.slots[i].key = key
        Py_INCREF(code)
        Py_INCREF(cid)
        Py_INCREF(decoded)
        self.slots[i].code = <PyObject*>code
        self.slots[i].cid = <PyObject*>cid
        self.slots[i].decoded = <PyObject*>decoded
        self.used += 1
        return 0

    cdef int _grow(self) except -1:
        cdef _Known* old = self.slots
        cdef Py_ssize_t old_size = self.size, i, j
        cdef Py_ssize_t size = old_size * 2 if old_size else 64
        cdef _Known* slots = <_Known*>calloc(size, sizeof(_Known))
        if slots == NULL:
            raise MemoryError()
        self.slots, self.size, self.shift = slots, size, 64
        while size > 1:
            size >>= 1
            self.shift -= 1
        for i in range(old_size):
            if old[i].key:
                j = self._slot(old[i].key)
                self.slots[j] = old[i]
        free(old)
        return 0


cdef inline Py_ssize_t _key(const unsigned char* data, Py_ssize_t size) noexcept:
    """A code of one to three bytes as a positive integer that also says its length (so
    ``<00 41>`` and ``<41>`` differ); 0 for any other length."""
    if size == 1:
        return (1 << 24) | data[0]
    if size == 2:
        return (2 << 24) | (data[0] << 8) | data[1]
    if size == 3:
        return (3 << 24) | (data[0] << 16) | (data[1] << 8) | data[2]
    return 0


cdef struct Glyphs:
    # One operand's glyphs as C arrays (one block): per glyph the code (simple fonts) and
    # whether it is the space code, the advance, the pen move, the position (n + 1 of them)
    # and the pen end; per TJ number its position (glyphs before) and pen shift.
    Py_ssize_t n
    Py_ssize_t shifted
    unsigned char* code
    unsigned char* space
    double* advance
    double* move
    double* position
    double* ends
    double* shift
    Py_ssize_t* counts


cdef int _allocate(Glyphs* g, Py_ssize_t n, Py_ssize_t shifted) except -1:
    cdef Py_ssize_t bytes_part = (2 * n + 7) & ~7
    cdef char* block = <char*>malloc(bytes_part + sizeof(double) * (4 * n + 1 + shifted)
                                     + sizeof(Py_ssize_t) * shifted + 8)
    if block == NULL:
        raise MemoryError()
    g.n = n
    g.shifted = shifted
    g.code = <unsigned char*>block
    g.space = g.code + n
    g.advance = <double*>(block + bytes_part)
    g.move = g.advance + n
    g.position = g.move + n
    g.ends = g.position + n + 1
    g.shift = g.ends + n
    g.counts = <Py_ssize_t*>(g.shift + shifted)
    return 0


cdef int _read_shifts(Glyphs* g, object adjustments, double scale, Py_ssize_t width) except -1:
    """An operand's TJ numbers into ``g``: each ``(bytes shown before, number)`` as the codes
    before it (bytes over the code ``width``) and its pen shift (the number times ``scale``),
    as the reference's list of shifts holds them."""
    cdef Py_ssize_t k = 0
    for item in adjustments:
        g.counts[k] = PyLong_AsSsize_t(item[0]) // width
        g.shift[k] = PyFloat_AsDouble(item[1]) * scale
        k += 1
    return 0


cdef tuple _looked_up(object table, tuple keys):
    """``tuple(map(table.__getitem__, keys))`` (:func:`_item` per key)."""
    cdef Py_ssize_t i, n = len(keys)
    cdef tuple found = PyTuple_New(n)
    cdef object value
    for i in range(n):
        value = _item(table, <object>PyTuple_GET_ITEM(keys, i))
        Py_INCREF(value)
        PyTuple_SET_ITEM(found, i, value)
    return found


cdef tuple _scaled(object widths, tuple cids):
    """``tuple(map(widths.__getitem__, cids))`` for a font's :class:`ScaledWidths`, with its
    ``__missing__`` done here: a CID not in the table yet gets its advance from the font's
    own (``widths.base``) times ``widths.scale``, multiplied as ``__missing__`` multiplies
    (the same double) and stored in the table as it stores it, without the call into
    Python per code that an OCR layer's thousand sizes would each pay."""
    cdef Py_ssize_t i, n = len(cids)
    cdef tuple found = PyTuple_New(n)
    cdef object base = None, scale = None, value, cid
    cdef bint exact = False
    cdef double factor = 0.0
    cdef PyObject* known
    for i in range(n):
        cid = <object>PyTuple_GET_ITEM(cids, i)
        known = PyDict_GetItemWithError(widths, cid)
        if known != NULL:
            value = <object>known
        else:
            if scale is None:  # read on the first miss only: most operands hit every code
                base, scale = widths.base, widths.scale
                exact = PyFloat_CheckExact(scale)
                factor = PyFloat_AS_DOUBLE(scale) if exact else 0.0
            value = _item(base, cid)
            if exact and PyFloat_CheckExact(value):
                value = PyFloat_FromDouble(PyFloat_AS_DOUBLE(value) * factor)
            else:
                value = value * scale
            PyDict_SetItem(widths, cid, value)
        Py_INCREF(value)
        PyTuple_SET_ITEM(found, i, value)
    return found


cdef tuple _place(Glyphs* g, bint spaced, int wmode, double tc, double tw, double th):
    """measure.placed over the arrays: (starts, pens, extent, end). Needs the advances, the
    space flags (where Tc or ``spaced`` asks for them) and the TJ numbers filled in."""
    cdef Py_ssize_t n = g.n, i, k, count
    cdef double* advance = g.advance
    cdef double* move = g.move
    cdef double* position = g.position
    cdef double* ends = g.ends
    cdef double pen = 0.0, extra, wextra, step, last, low, high
    cdef bint moves_are_advances = tc == 0.0 and not spaced, all_forward
    cdef object starts, pens, extent, value, end, floats
    # Pen moves (measure.spaced_moves), then the TJ numbers.
    if moves_are_advances:
        for i in range(n):
            move[i] = advance[i]
    elif wmode == 0:
        extra = tc * th
        wextra = (tc + tw) * th
        for i in range(n):
            move[i] = advance[i] + (wextra if g.space[i] else extra)
    else:
        for i in range(n):
            move[i] = advance[i] + tc + (tw if g.space[i] else 0.0)
    if g.shifted:
        moves_are_advances = False  # the reference copies them into a list
        for k in range(g.shifted):
            count = g.counts[k]
            if count == 0:
                pen += g.shift[k]
            elif count <= n:
                move[count - 1] += g.shift[k]
    position[0] = pen
    for i in range(n):
        position[i + 1] = position[i] + move[i]
    end = PyFloat_FromDouble(position[n])
    if n == 0:
        return (), (), None, end

    # The starts, and the pen ends sharing their floats where no TJ number moved them.
    floats = PyTuple_New(n + 1)
    for i in range(n + 1):
        value = end if i == n else PyFloat_FromDouble(position[i])
        Py_INCREF(value)
        PyTuple_SET_ITEM(floats, i, value)
    starts = floats[:n]
    for i in range(n):
        ends[i] = position[i + 1]
    if g.shifted:
        for k in range(g.shifted):
            count = g.counts[k]
            if 0 < count <= n:
                ends[count - 1] -= g.shift[k]
        pens = PyTuple_New(n)
        for i in range(n):
            value = <object>PyTuple_GET_ITEM(floats, i + 1)
            if ends[i] != position[i + 1] or ends[i] == 0.0:  # moved (or a zero whose sign may have)
                value = PyFloat_FromDouble(ends[i])
            Py_INCREF(value)
            PyTuple_SET_ITEM(pens, i, value)
    else:
        pens = floats[1:]

    # The extent (measure.extent), with Python's min and max written out. Its pen and its
    # high end are the floats the starts and pens hold where the values are theirs (as the
    # reference's are): an extent is kept with every operand the document remembers.
    extent = None
    if wmode == 0:
        if n == 1:
            if advance[0] >= 0:
                high = pen + advance[0]
                extent = (<object>PyTuple_GET_ITEM(floats, 0),
                          PyFloat_FromDouble(high) if high > ends[0] else <object>PyTuple_GET_ITEM(pens, 0), INFINITY)
        else:
            step = move[0]
            for i in range(1, n - 1):
                if move[i] < step:
                    step = move[i]
            last = move[n - 1]
            all_forward = moves_are_advances
            if not all_forward:
                low = advance[0]
                for i in range(1, n):
                    if advance[i] < low:
                        low = advance[i]
                all_forward = low >= 0
            if (step if step < last else last) > 0 and all_forward:
                high = position[n - 1] + advance[n - 1]
                extent = (<object>PyTuple_GET_ITEM(floats, 0),
                          PyFloat_FromDouble(high) if high > ends[n - 1] else <object>PyTuple_GET_ITEM(pens, n - 1),
                          step)
    return starts, pens, extent, end


cdef bint _valid_shifts(object shifts) except -1:
    """Whether every TJ number stands at a position the arrays take (none negative)."""
    for item in shifts:
        if item[0] < 0:
            return False
    return True


def measure_simple(widths, table, strings, adjustments, double hscale, double th, double tc, double tw,
                   int wmode, KnownCodes known=None):
    """What :func:`glyphweave.pdf.measure.measure_simple` returns for the same arguments.
    ``known``: the font's :class:`KnownCodes`, which keeps each code's decoding (None: every
    code is looked up in ``table``)."""
    if type(widths) is not list or (adjustments and not _valid_shifts(adjustments)):
        return _reference.measure_simple(widths, table, strings, adjustments, hscale, th, tc, tw, wmode)
    data = strings[0] if len(strings) == 1 else b"".join(strings)
    cdef const unsigned char* source
    cdef Py_ssize_t n, i
    if type(data) is bytes:
        source = <const unsigned char*>PyBytes_AS_STRING(data)
        n = PyBytes_GET_SIZE(data)
    elif type(data) is bytearray:
        source = <const unsigned char*>PyByteArray_AS_STRING(data)
        n = PyByteArray_GET_SIZE(data)
    else:
        return _reference.measure_simple(widths, table, strings, adjustments, hscale, th, tc, tw, wmode)
    cdef Py_ssize_t listed = PyList_GET_SIZE(widths)
    for i in range(n):
        if source[i] >= listed or not PyFloat_CheckExact(<object>PyList_GET_ITEM(widths, source[i])):
            return _reference.measure_simple(widths, table, strings, adjustments, hscale, th, tc, tw, wmode)
    cdef Glyphs g
    _allocate(&g, n, len(adjustments) if adjustments else 0)
    cdef bint has_space = False
    cdef object width, value
    cdef PyObject* found
    try:
        for i in range(n):
            g.code[i] = source[i]  # copied before any Python code runs (a decoder could run below)
        codes = PyTuple_New(n)
        advances = PyTuple_New(n)
        for i in range(n):
            value = PyLong_FromLong(g.code[i])
            Py_INCREF(value)
            PyTuple_SET_ITEM(codes, i, value)
            width = <object>PyList_GET_ITEM(widths, g.code[i])
            Py_INCREF(width)
            PyTuple_SET_ITEM(advances, i, width)
            g.advance[i] = PyFloat_AS_DOUBLE(width)
            g.space[i] = g.code[i] == 32
            has_space = has_space or g.space[i]
        if g.shifted:
            _read_shifts(&g, adjustments, -hscale / 1000.0, 1)
        starts, pens, extent, end = _place(&g, tw != 0.0 and has_space, wmode, tc, tw, th)
        if not n:
            return codes, advances, starts, pens, extent, end, ()
        if known is None:
            return codes, advances, starts, pens, extent, end, _looked_up(table, codes)
        decoded = PyTuple_New(n)
        for i in range(n):  # in order, as the reference looks them up; the codes met before from the array
            found = known.simple[g.code[i]]
            if found == NULL:
                value = _item(table, <object>PyTuple_GET_ITEM(codes, i))
                Py_INCREF(value)
                known.simple[g.code[i]] = <PyObject*>value
            else:
                value = <object>found
            Py_INCREF(value)
            PyTuple_SET_ITEM(decoded, i, value)
        return codes, advances, starts, pens, extent, end, decoded
    finally:
        free(g.code)


def measure_composite(split, Py_ssize_t width, cid_table, widths, table, strings, adjustments, double hscale,
                      double th, double tc, double tw, int wmode, space_single_byte, KnownCodes known=None):
    """What :func:`glyphweave.pdf.measure.measure_composite` returns for the same arguments.
    Codes of one width (Identity-H, most Unicode CMaps) are cut here; the codes of a CMap
    with several widths (GBK-EUC, Shift-JIS, EUC), or of strings that end inside a code
    while TJ numbers stand between them, come from the reference's
    :func:`~glyphweave.pdf.measure.composite_codes`, and are looked up and placed here.
    ``known``: the font's :class:`KnownCodes`, which answers for the codes met before and
    keeps the new ones (None: every code is looked up in the font's caches)."""
    if adjustments and not _valid_shifts(adjustments):
        return _reference.measure_composite(split, width, cid_table, widths, table, strings, adjustments, hscale,
                                            th, tc, tw, wmode, space_single_byte)
    cdef Py_ssize_t shifted = len(adjustments) if adjustments else 0
    cdef object data = None, shifts = None, value, code
    if width > 0:
        if len(strings) == 1 and not adjustments:
            data = strings[0] if type(strings[0]) is bytes else bytes(strings[0])
        else:
            for part in strings:
                if len(part) % width:
                    break
            else:
                data = b"".join(strings)
    cdef const char* source = NULL
    cdef Py_ssize_t size = 0, n, i, k, length, key, missed = 0
    if data is not None:
        source = PyBytes_AS_STRING(data)  # data is bytes, held to the end: safe while Python code runs
        size = PyBytes_GET_SIZE(data)
        n = (size + width - 1) // width
        codes = PyTuple_New(n)
    else:
        # Codes never span strings; a TJ number's byte offset becomes a count of codes (never
        # negative: one inside a code stands after the last).
        codes, shifts = _reference.composite_codes(split, width, strings, adjustments, -hscale / 1000.0)
        n = len(codes)
    cdef bint floats = True, has_space = False, spaced
    cdef Glyphs g
    cdef _Known* found
    cdef Py_ssize_t* keys = <Py_ssize_t*>malloc(sizeof(Py_ssize_t) * (n + 1))
    if keys == NULL:
        raise MemoryError()
    g.code = NULL
    try:
        # Each code's CID, in order; a code ``known`` answers for gets its decoding (and,
        # cut here, its bytes) too, and is marked -1 in ``keys``; the others keep their key
        # (0: a code the table does not keep) and are decoded after placing, as the reference
        # decodes them.
        cids = PyTuple_New(n)
        decoded = PyTuple_New(n)
        for i in range(n):
            if data is not None:
                length = min(width, size - i * width)
                key = _key(<const unsigned char*>source + i * width, length)
            else:
                code = <object>PyTuple_GET_ITEM(codes, i)
                key = (_key(<const unsigned char*>PyBytes_AS_STRING(code), PyBytes_GET_SIZE(code))
                       if type(code) is bytes else 0)
            found = known.find(key) if known is not None and key else NULL
            if found != NULL:
                if data is not None:
                    Py_INCREF(<object>found.code)
                    PyTuple_SET_ITEM(codes, i, <object>found.code)
                Py_INCREF(<object>found.cid)
                PyTuple_SET_ITEM(cids, i, <object>found.cid)
                Py_INCREF(<object>found.decoded)
                PyTuple_SET_ITEM(decoded, i, <object>found.decoded)
                keys[i] = -1
                continue
            if data is not None:
                value = PyBytes_FromStringAndSize(source + i * width, length)
                Py_INCREF(value)
                PyTuple_SET_ITEM(codes, i, value)
            value = _item(cid_table, <object>PyTuple_GET_ITEM(codes, i))
            Py_INCREF(value)
            PyTuple_SET_ITEM(cids, i, value)
            keys[i] = key
            missed += 1
        advances = _scaled(widths, cids) if type(widths) is ScaledWidths else _looked_up(widths, cids)
        _allocate(&g, n, shifted)
        for i in range(n):
            code = <object>PyTuple_GET_ITEM(codes, i)
            g.space[i] = PyBytes_GET_SIZE(code) == 1 and PyBytes_AS_STRING(code)[0] == 32
            has_space = has_space or g.space[i]
            value = <object>PyTuple_GET_ITEM(advances, i)
            floats = floats and PyFloat_CheckExact(value)
            if floats:
                g.advance[i] = PyFloat_AS_DOUBLE(value)
        spaced = tw != 0.0 and bool(space_single_byte) and has_space
        if shifts is not None:  # already in codes and scaled: times 1.0 leaves every double as it is
            _read_shifts(&g, shifts, 1.0, 1)
        elif shifted:
            _read_shifts(&g, adjustments, -hscale / 1000.0, width)
        if floats:
            starts, pens, extent, end = _place(&g, spaced, wmode, tc, tw, th)
        else:  # an advance that is not a float: the reference places them
            if shifts is None and shifted:
                shifts = [(g.counts[k], g.shift[k]) for k in range(g.shifted)]
            starts, pens, extent, end = _reference.placed(codes, advances, shifts, spaced, b" ", wmode, tc, tw, th)
        if missed:
            for i in range(n):
                if keys[i] == -1:
                    continue
                code = <object>PyTuple_GET_ITEM(codes, i)
                value = _item(table, code)
                Py_INCREF(value)
                PyTuple_SET_ITEM(decoded, i, value)
                if keys[i] and known is not None:
                    known.add(keys[i], code, <object>PyTuple_GET_ITEM(cids, i), value)
    finally:
        free(keys)
        free(g.code)
    return codes, cids, advances, starts, pens, extent, end, decoded
