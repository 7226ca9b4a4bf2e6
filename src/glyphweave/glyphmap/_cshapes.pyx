# cython: language_level=3, boundscheck=False, wraparound=False, initializedcheck=False, cdivision=True
# distutils: extra_compile_args = -ffp-contract=off
"""The shape references and the matcher's search in C: :class:`Table`, the reference table
read into C arrays, and :meth:`Table.nearest`, what :func:`glyphweave.glyphmap.shapes.nearest`
answers for the same shape.

:mod:`glyphweave.glyphmap.shapes` is the reference. It reads the table into a tuple per
reference (some 15,000, about 40 ms of every process that checks a font's shapes) and
compares a glyph with each candidate by Python integer operations on 576-bit bitmaps (a
millisecond or two a glyph). Here each reference's bitmap and its dilation (the one-pixel
tolerance, made on the bitmap's 24 rows of 24 bits) are nine 64-bit words, its ink and places
numbers in arrays read once from the table's bytes, and a comparison is a few dozen machine
operations. Every distance is computed by the
same operations in the same order as the reference's (the build does not fuse a multiplication
and an addition: ``-ffp-contract=off``), so the answers are equal to the bit; a test compares
both on generated and real shapes.
"""

from cpython.bytes cimport PyBytes_AS_STRING, PyBytes_FromStringAndSize, PyBytes_GET_SIZE
from libc.math cimport fabs, floor, isfinite, log
from libc.stdint cimport uint16_t, uint32_t, uint64_t
from libc.stdlib cimport free, malloc, qsort
from libc.string cimport memset

__all__ = ["Table", "fill"]

DEF ROWS = 24
DEF ROW_MASK = 0xFFFFFF
DEF WORDS = 9  # a bitmap's 576 bits as 64-bit words, for the comparisons


cdef inline int _popcount64(uint64_t x) noexcept nogil:
    x = x - ((x >> 1) & 0x5555555555555555ULL)
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL)
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL
    return <int>((x * 0x0101010101010101ULL) >> 56)


cdef void _words_of(const uint32_t* rows, uint64_t* words) noexcept nogil:
    """24 rows of 24 bits as 9 words of 64 (bit ``row * 24 + column`` of the bitmap)."""
    cdef int w, b
    cdef unsigned char raw[72]
    for w in range(ROWS):
        raw[3 * w] = rows[w] & 0xFF
        raw[3 * w + 1] = (rows[w] >> 8) & 0xFF
        raw[3 * w + 2] = (rows[w] >> 16) & 0xFF
    for w in range(WORDS):
        words[w] = 0
        for b in range(8):
            words[w] |= (<uint64_t>raw[8 * w + b]) << (8 * b)


cdef void _rows_of(const unsigned char* data, uint32_t* rows) noexcept nogil:
    """A bitmap's 72 bytes (bit ``row * 24 + column``, little-endian) as 24 rows."""
    cdef int r
    for r in range(ROWS):
        rows[r] = data[3 * r] | (<uint32_t>data[3 * r + 1] << 8) | (<uint32_t>data[3 * r + 2] << 16)


cdef void _grow(const uint32_t* rows, uint32_t* grown) noexcept nogil:
    """raster.grow: every pixel's eight neighbours added."""
    cdef uint32_t side[ROWS]
    cdef int r
    for r in range(ROWS):
        side[r] = (rows[r] | (rows[r] << 1) | (rows[r] >> 1)) & ROW_MASK
    for r in range(ROWS):
        grown[r] = side[r]
        if r > 0:
            grown[r] |= side[r - 1]
        if r < ROWS - 1:
            grown[r] |= side[r + 1]


cdef int _ink(const uint64_t* words) noexcept nogil:
    cdef int w, total = 0
    for w in range(WORDS):
        total += _popcount64(words[w])
    return total


cdef long long* _sort_keys  # the keys qsort compares by (set while a grid is built, under the GIL)


cdef int _by_key(const void* a, const void* b) noexcept nogil:
    cdef Py_ssize_t i = (<const Py_ssize_t*>a)[0], j = (<const Py_ssize_t*>b)[0]
    cdef long long ki = _sort_keys[i], kj = _sort_keys[j]
    if ki != kj:
        return -1 if ki < kj else 1
    return -1 if i < j else (1 if i > j else 0)


cdef class Table:
    """The reference table (the format of :func:`~glyphweave.glyphmap.shapes.load_references`)
    in C arrays, with the two grids the matcher walks: letters and digits by place in em, all
    references by place in x-heights."""

    cdef readonly Py_ssize_t n
    cdef readonly object alphabet
    cdef uint16_t* char_index
    cdef unsigned char* small  # per reference: style flags, pieces, counters
    cdef uint64_t* bit_words
    cdef uint64_t* grown_words
    cdef int* ink
    cdef double* aspect
    cdef double* x_heights
    cdef double* places  # per reference: bottom, top, advance (em), bottom, top, advance (x-heights)
    cdef double* prior   # per prior variant, per character of the alphabet
    cdef Py_ssize_t variants
    cdef Py_ssize_t* em_order
    cdef Py_ssize_t* xh_order
    cdef dict em_cells  # (pieces, counters, proportion cell, top cell) -> (first, count) in em_order
    cdef dict xh_cells
    cdef tuple letters_of_alphabet

    def __cinit__(self):
        self.char_index = NULL
        self.small = NULL
        self.bit_words = NULL
        self.grown_words = NULL
        self.ink = NULL
        self.aspect = NULL
        self.x_heights = NULL
        self.places = NULL
        self.prior = NULL
        self.em_order = NULL
        self.xh_order = NULL

    def __dealloc__(self):
        free(self.char_index)
        free(self.small)
        free(self.bit_words)
        free(self.grown_words)
        free(self.ink)
        free(self.aspect)
        free(self.x_heights)
        free(self.places)
        free(self.prior)
        free(self.em_order)
        free(self.xh_order)

    def __init__(self, bytes records, Py_ssize_t count, str alphabet, bytes letters, double cell, double nominal):
        """``records``: ``count`` records of the table (see the format); ``letters`` says per
        character of ``alphabet`` whether it is a letter or digit (the em grid holds only
        those); ``cell`` and ``nominal`` are the grids' cell size and em-to-x-height factor."""
        cdef Py_ssize_t size = 2 + 1 + 72 + 12 + 2, i
        if PyBytes_GET_SIZE(records) < count * size or count < 0:
            raise ValueError("the shape reference table is shorter than its record count")
        self.n = count
        self.alphabet = alphabet
        self.char_index = <uint16_t*>malloc(sizeof(uint16_t) * (count + 1))
        self.small = <unsigned char*>malloc(3 * (count + 1))
        self.bit_words = <uint64_t*>malloc(sizeof(uint64_t) * WORDS * (count + 1))
        self.grown_words = <uint64_t*>malloc(sizeof(uint64_t) * WORDS * (count + 1))
        self.ink = <int*>malloc(sizeof(int) * (count + 1))
        self.aspect = <double*>malloc(sizeof(double) * (count + 1))
        self.x_heights = <double*>malloc(sizeof(double) * (count + 1))
        self.places = <double*>malloc(sizeof(double) * 6 * (count + 1))
        self.em_order = <Py_ssize_t*>malloc(sizeof(Py_ssize_t) * (count + 1))
        self.xh_order = <Py_ssize_t*>malloc(sizeof(Py_ssize_t) * (count + 1))
        if (self.char_index == NULL or self.small == NULL
                or self.bit_words == NULL or self.grown_words == NULL or self.ink == NULL
                or self.aspect == NULL or self.x_heights == NULL or self.places == NULL or self.em_order == NULL or self.xh_order == NULL):
            raise MemoryError()
        cdef const unsigned char* data = <const unsigned char*>PyBytes_AS_STRING(records)
        cdef const unsigned char* record
        cdef int x0, y0, x1, y1, advance, x_height
        cdef double xh, bottom, top, adv
        cdef uint32_t rows[ROWS]
        cdef uint32_t grown[ROWS]
        cdef long long* em_keys = <long long*>malloc(sizeof(long long) * (count + 1))
        cdef long long* xh_keys = <long long*>malloc(sizeof(long long) * (count + 1))
        cdef Py_ssize_t alphabet_size = len(alphabet), em_count = 0
        if PyBytes_GET_SIZE(letters) != alphabet_size:
            raise ValueError("one letter flag per character of the alphabet")
        cdef const unsigned char* is_letter = <const unsigned char*>PyBytes_AS_STRING(letters)
        self.letters_of_alphabet = tuple(is_letter[k] != 0 for k in range(alphabet_size))
        if em_keys == NULL or xh_keys == NULL:
            free(em_keys)
            free(xh_keys)
            raise MemoryError()
        try:
            for i in range(count):
                record = data + i * size
                self.char_index[i] = record[0] | (record[1] << 8)
                if self.char_index[i] >= alphabet_size:
                    raise ValueError("a shape reference names a character past the alphabet")
                self.small[3 * i] = record[2]
                self.small[3 * i + 1] = record[87]
                self.small[3 * i + 2] = record[88]
                _rows_of(record + 3, rows)
                _grow(rows, grown)
                _words_of(rows, self.bit_words + i * WORDS)
                _words_of(grown, self.grown_words + i * WORDS)
                self.ink[i] = _ink(self.bit_words + i * WORDS)
                x0 = <short>(record[75] | (record[76] << 8))
                y0 = <short>(record[77] | (record[78] << 8))
                x1 = <short>(record[79] | (record[80] << 8))
                y1 = <short>(record[81] | (record[82] << 8))
                advance = <short>(record[83] | (record[84] << 8))
                x_height = <short>(record[85] | (record[86] << 8))
                if x1 - x0 + 20 <= 0 or y1 - y0 + 20 <= 0:
                    raise ValueError("a shape reference whose box has no width or height")
                # As the reference computes them: each int over 1000, the proportion's log
                # of an exact quotient of ints, the x-height at least one unit.
                bottom = y0 / 1000.0
                top = y1 / 1000.0
                adv = advance / 1000.0
                xh = (x_height if x_height > 1 else 1) / 1000.0
                self.aspect[i] = log(<double>(x1 - x0 + 20) / <double>(y1 - y0 + 20))
                self.x_heights[i] = xh
                self.places[6 * i] = bottom
                self.places[6 * i + 1] = top
                self.places[6 * i + 2] = adv
                self.places[6 * i + 3] = bottom / xh
                self.places[6 * i + 4] = top / xh
                self.places[6 * i + 5] = adv / xh
                em_keys[i] = _key(record[87], record[88], <long long>floor(self.aspect[i] / cell),
                                  <long long>floor(top * nominal / cell))
                xh_keys[i] = _key(record[87], record[88], <long long>floor(self.aspect[i] / cell),
                                  <long long>floor(top / xh / cell))
                self.xh_order[i] = i
                if is_letter[self.char_index[i]]:
                    self.em_order[em_count] = i
                    em_count += 1
            self.em_cells = _cells(self.em_order, em_count, em_keys)
            self.xh_cells = _cells(self.xh_order, count, xh_keys)
        finally:
            free(em_keys)
            free(xh_keys)

    def chars(self):
        """Each reference's character, in table order."""
        cdef tuple alphabet = tuple(self.alphabet)
        return tuple([alphabet[self.char_index[i]] for i in range(self.n)])

    def column(self, str name):
        """One column of :class:`~glyphweave.glyphmap.shapes.References`, as the reference's
        reading of the table makes it: ``flags``, ``bits``, ``grown``, ``ink``, ``bottom``,
        ``top``, ``advance``, ``x_height`` (in em), ``aspect``, ``parts`` or ``holes``."""
        cdef Py_ssize_t i
        cdef int w, b
        cdef unsigned char raw[72]
        cdef const uint64_t* words
        places = {"bottom": 0, "top": 1, "advance": 2}
        if name in places:
            return tuple([self.places[6 * i + places[name]] for i in range(self.n)])
        if name == "x_height":  # top / (top in x-heights) would round: the x-height itself
            return tuple([self.x_heights[i] for i in range(self.n)])
        if name == "aspect":
            return tuple([self.aspect[i] for i in range(self.n)])
        if name == "ink":
            return tuple([self.ink[i] for i in range(self.n)])
        small = {"flags": 0, "parts": 1, "holes": 2}
        if name in small:
            return tuple([self.small[3 * i + small[name]] for i in range(self.n)])
        if name in ("bits", "grown"):
            found = []
            for i in range(self.n):
                words = (self.bit_words if name == "bits" else self.grown_words) + i * WORDS
                for w in range(WORDS):
                    for b in range(8):
                        raw[8 * w + b] = (words[w] >> (8 * b)) & 0xFF
                found.append(int.from_bytes(raw[:72], "little"))
            return tuple(found)
        raise KeyError(name)

    def standing_tops(self):
        """The tops (in em) of the references of letters and digits that stand on the
        baseline (bottom at least -0.1 of the top, top above 0), in table order: what
        ``typical_top`` is the median of."""
        cdef Py_ssize_t i
        cdef double bottom, top
        found = []
        for i in range(self.n):
            bottom = self.places[6 * i]
            top = self.places[6 * i + 1]
            if self.letters_of_alphabet[self.char_index[i]] and bottom >= -0.1 * top and top > 0:
                found.append(top)
        return found

    def set_priors(self, list per_variant):
        """The priors (:func:`~glyphweave.glyphmap.shapes._priors`), per variant a sequence of
        one float per character of the alphabet, in the order :meth:`nearest` names them."""
        cdef Py_ssize_t v, c, chars = len(self.alphabet)
        free(self.prior)
        self.prior = <double*>malloc(sizeof(double) * (len(per_variant) * chars + 1))
        if self.prior == NULL:
            raise MemoryError()
        self.variants = len(per_variant)
        for v in range(self.variants):
            values = per_variant[v]
            for c in range(chars):
                self.prior[v * chars + c] = values[c]

    def nearest(self, bytes bitmap, double bottom, double top, double advance, double width, double place,
                double aspect, bint in_em, list topologies, Py_ssize_t variant,
                long long a_first, long long a_last, long long t_first, long long t_last, double proportion):
        """The search of :func:`~glyphweave.glyphmap.shapes.nearest` (whose wrapper works out
        the arguments as the reference does): (distance, reference) of the nearest reference
        of each character: the first 8 by distance, or where a distance is NaN all of them in
        the order their characters were first met (the caller sorts, as the reference does)."""
        global _sort_best, _sort_rows
        if variant < 0 or variant >= self.variants:
            raise ValueError("no such prior")
        cdef uint32_t q[ROWS]
        cdef uint32_t qg[ROWS]
        cdef uint64_t qw[WORDS]
        cdef uint64_t qgw[WORDS]
        if PyBytes_GET_SIZE(bitmap) != 72:
            raise ValueError("a shape's bitmap is 72 bytes")
        _rows_of(<const unsigned char*>PyBytes_AS_STRING(bitmap), q)
        _grow(q, qg)
        _words_of(q, qw)
        _words_of(qg, qgw)
        cdef int qink = _ink(qw), miss, r
        cdef Py_ssize_t chars = len(self.alphabet)
        cdef double* best = <double*>malloc(sizeof(double) * (chars + 1))
        cdef Py_ssize_t* best_row = <Py_ssize_t*>malloc(sizeof(Py_ssize_t) * (chars + 1))
        cdef Py_ssize_t* met = <Py_ssize_t*>malloc(sizeof(Py_ssize_t) * (chars + 1))
        if best == NULL or best_row == NULL or met == NULL:
            free(best)
            free(best_row)
            free(met)
            raise MemoryError()
        memset(best_row, 0xFF, sizeof(Py_ssize_t) * (chars + 1))  # -1: not met yet
        cdef Py_ssize_t n_met = 0, k, first, found, j, i
        cdef long long a_cell, t_cell
        cdef long long parts, holes
        cdef int c, at = 0 if in_em else 3
        cdef double topology, d, where
        cdef double* prior = self.prior + variant * chars
        cdef dict cells = self.em_cells if in_em else self.xh_cells
        cdef Py_ssize_t* order = self.em_order if in_em else self.xh_order
        cdef const uint64_t* rwords
        cdef const uint64_t* rgrown
        cdef double* p
        try:
            for shape_topology, cost in topologies:
                parts, holes = shape_topology
                topology = cost
                if not (0 <= parts <= 255 and 0 <= holes <= 255):
                    continue  # no reference has so many pieces or counters (bytes in the table)
                for a_cell in range(a_first, a_last + 1):
                    if not -30000 < a_cell < 30000:
                        continue  # the table's cells are a few dozen either way
                    for t_cell in range(t_first, t_last + 1):
                        if not -30000 < t_cell < 30000:
                            continue
                        span = cells.get(_key(parts, holes, a_cell, t_cell))
                        if span is None:
                            continue
                        first, found = span
                        for j in range(first, first + found):
                            i = order[j]
                            rwords = self.bit_words + i * WORDS
                            rgrown = self.grown_words + i * WORDS
                            miss = 0
                            for r in range(WORDS):
                                miss += _popcount64(qw[r] & ~rgrown[r]) + _popcount64(rwords[r] & ~qgw[r])
                            if qink + self.ink[i] == 0:
                                raise ZeroDivisionError("division by zero")
                            p = self.places + 6 * i + at
                            where = fabs(bottom - p[0]) + fabs(top - p[1])
                            d = (<double>miss / <double>(qink + self.ink[i]) + place * where
                                 + width * fabs(advance - p[2]) + proportion * fabs(aspect - self.aspect[i])
                                 + topology + prior[self.char_index[i]])
                            c = self.char_index[i]
                            if best_row[c] < 0:
                                best[c] = d
                                best_row[c] = i
                                met[n_met] = c
                                n_met += 1
                            elif d < best[c]:
                                best[c] = d
                                best_row[c] = i
            for k in range(n_met):
                if best[met[k]] != best[met[k]]:  # a NaN: Python's sort of the tuples decides
                    return [(best[met[k]], best_row[met[k]]) for k in range(n_met)]
            # No NaN: (distance, reference) is a total order, with no two equal (one reference
            # a character), so sorting here orders them as sorted() does; the first 8 are kept.
            _sort_best = best
            _sort_rows = best_row
            _sort_met(met, n_met)
            return [(best[met[k]], best_row[met[k]]) for k in range(n_met if n_met < 8 else 8)]
        finally:
            free(best)
            free(best_row)
            free(met)


cdef double* _sort_best  # what _by_distance compares by (set while sorting, under the GIL)
cdef Py_ssize_t* _sort_rows


cdef int _by_distance(const void* a, const void* b) noexcept nogil:
    cdef Py_ssize_t i = (<const Py_ssize_t*>a)[0], j = (<const Py_ssize_t*>b)[0]
    if _sort_best[i] != _sort_best[j]:
        return -1 if _sort_best[i] < _sort_best[j] else 1
    return -1 if _sort_rows[i] < _sort_rows[j] else (1 if _sort_rows[i] > _sort_rows[j] else 0)


cdef void _sort_met(Py_ssize_t* met, Py_ssize_t count) noexcept:
    qsort(met, count, sizeof(Py_ssize_t), _by_distance)


cdef inline long long _key(long long parts, long long holes, long long a_cell, long long t_cell):
    """A grid cell's key: pieces and counters (bytes), the two cells (within 30,000 either
    way), packed in one integer."""
    return (((parts * 256 + holes) * 65536) + (a_cell + 32768)) * 65536 + (t_cell + 32768)


cdef dict _cells(Py_ssize_t* order, Py_ssize_t count, long long* keys):
    """Sort ``order`` (reference numbers) by their ``keys``, keeping the table's order within
    a cell as the reference's lists do, and map each key to its (first, count)."""
    global _sort_keys
    _sort_keys = keys
    qsort(order, count, sizeof(Py_ssize_t), _by_key)
    cdef dict cells = {}
    cdef Py_ssize_t start = 0, i
    for i in range(1, count + 1):
        if i == count or keys[order[i]] != keys[order[start]]:
            cells[keys[order[start]]] = (start, i - start)
            start = i
    return cells


# -- the scan-line fill of raster.py ---------------------------------------------------------------

DEF GRID = 24
DEF SUB = 4
DEF COVER = 0.3
DEF PACKED = 72  # the bitmap's bytes (GRID * GRID / 8)


cdef struct Edge:
    double top
    double bottom
    double x_top
    double slope
    long direction
    Py_ssize_t index  # the position in the caller's list: equal edges keep their order


cdef struct Crossing:
    double x
    long direction
    Py_ssize_t index


cdef inline int _compared(double a, double b) noexcept nogil:
    """-1, 0 or 1 as ``a`` is below, equal to or above ``b`` (numbers, never NaN: the fill
    leaves those to the reference)."""
    return -1 if a < b else (1 if a > b else 0)


cdef int _edge_order(const void* a, const void* b) noexcept nogil:
    """The order of ``sorted`` on the edge tuples (top, bottom, x at the top, slope,
    direction), stable as it is."""
    cdef const Edge* p = <const Edge*>a
    cdef const Edge* q = <const Edge*>b
    return (_compared(p.top, q.top) or _compared(p.bottom, q.bottom) or _compared(p.x_top, q.x_top)
            or _compared(p.slope, q.slope) or _compared(p.direction, q.direction) or _compared(p.index, q.index))


cdef int _crossing_order(const void* a, const void* b) noexcept nogil:
    """The order of ``list.sort`` on (x, direction) pairs, stable as it is."""
    cdef const Crossing* p = <const Crossing*>a
    cdef const Crossing* q = <const Crossing*>b
    return _compared(p.x, q.x) or _compared(p.direction, q.direction) or _compared(p.index, q.index)


cdef inline void _span(double* cover, Py_ssize_t base, double xa, double xb, double weight) noexcept nogil:
    """raster._span: the span ``xa..xb`` of one scan line added to the pixels it crosses."""
    cdef Py_ssize_t first, last, column
    if xb <= xa:
        return
    first = <Py_ssize_t>xa
    last = <Py_ssize_t>xb
    if last > GRID - 1:
        last = GRID - 1
    if first == last:
        cover[base + first] += (xb - xa) * weight
        return
    cover[base + first] += (<double>(first + 1) - xa) * weight
    for column in range(first + 1, last):
        cover[base + column] += weight
    if last < GRID:
        cover[base + last] += (xb - <double>last) * weight


def fill(edges):
    """What ``raster._fill`` returns for ``edges`` (tuples of top, bottom, x at the top,
    slope and direction, in grid units), computed by the same operations in the same order
    on C doubles; None when a number is not finite (the reference then decides, as it
    would without this module)."""
    cdef Py_ssize_t n = len(edges), i, k, count, row, sub, base
    cdef Edge* sorted_edges = <Edge*>malloc(sizeof(Edge) * n + 1)
    cdef Crossing* crossings = <Crossing*>malloc(sizeof(Crossing) * n + 1)
    cdef double cover[GRID * GRID]
    cdef unsigned char packed[PACKED]
    cdef double y, x, xa, xb, weight = 1.0 / SUB
    cdef long winding
    if sorted_edges == NULL or crossings == NULL:
        free(sorted_edges)
        free(crossings)
        raise MemoryError()
    try:
        for i, edge in enumerate(edges):
            top, bottom, x_top, slope, direction = edge
            sorted_edges[i].top = top
            sorted_edges[i].bottom = bottom
            sorted_edges[i].x_top = x_top
            sorted_edges[i].slope = slope
            sorted_edges[i].direction = direction
            sorted_edges[i].index = i
            if not (isfinite(sorted_edges[i].top) and isfinite(sorted_edges[i].bottom)
                    and isfinite(sorted_edges[i].x_top) and isfinite(sorted_edges[i].slope)):
                return None
        qsort(sorted_edges, n, sizeof(Edge), _edge_order)
        memset(cover, 0, sizeof(cover))
        for row in range(GRID):
            base = row * GRID
            for sub in range(SUB):
                y = <double>row + (<double>sub + 0.5) / SUB
                count = 0
                for i in range(n):
                    if sorted_edges[i].top > y:
                        break
                    if y < sorted_edges[i].bottom:
                        x = sorted_edges[i].x_top + (y - sorted_edges[i].top) * sorted_edges[i].slope
                        if not isfinite(x):
                            return None
                        crossings[count].x = x
                        crossings[count].direction = sorted_edges[i].direction
                        crossings[count].index = count
                        count += 1
                if count < 2:
                    continue
                qsort(crossings, count, sizeof(Crossing), _crossing_order)
                winding = 0
                for k in range(count - 1):
                    winding += crossings[k].direction
                    xa = crossings[k].x
                    xb = crossings[k + 1].x
                    if winding and xb > xa:
                        _span(cover, base, 0.0 if 0.0 > xa else xa, <double>GRID if <double>GRID < xb else xb, weight)
        memset(packed, 0, sizeof(packed))
        for i in range(GRID * GRID):
            if cover[i] >= COVER:
                packed[i >> 3] |= <unsigned char>(1 << (i & 7))
        return int.from_bytes(PyBytes_FromStringAndSize(<char*>packed, PACKED), "little")
    finally:
        free(sorted_edges)
        free(crossings)
