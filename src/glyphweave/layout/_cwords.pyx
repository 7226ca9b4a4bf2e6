# cython: language_level=3, boundscheck=False, wraparound=False, initializedcheck=False
"""The word lists' look-ups in C (:mod:`glyphweave.layout.wordcache`): a word found in the
cache files where they lie, its bytes compared in place.

:class:`HashedWords` answers from the small list's hash table (:class:`~.wordcache.HashedList`):
the word's UTF-8 bytes hashed with CRC-32 (zlib's, computed here from the same table), the
slots probed in turn, each candidate compared with ``memcmp``. It stands in for the dictionary
the pure build reads from marshal's format, which costs some 5 ms a process to make (30,000
strings hashed and inserted) where mapping the table costs nothing; a page's words are counted
(:meth:`HashedWords.count`) in one loop. :func:`packed_index` is the large list's binary
search (:class:`~.wordcache.PackedList`), twenty ``memcmp`` where the reference slices the file
twenty times (10 µs a word).

Both read files another process wrote: every slot, offset and length is checked against the
buffers before it is used, so a damaged file gives wrong answers at worst, never a read out of
bounds (tests compare both with the references on damaged tables too).
"""

from libc.string cimport memcmp

__all__ = ["HashedWords", "crc32", "packed_index"]


cdef extern from "Python.h":
    const char* PyUnicode_AsUTF8AndSize(object text, Py_ssize_t* size)
    void PyErr_Clear()


cdef unsigned int _CRC[256]


cdef void _fill_crc() noexcept:
    cdef unsigned int value, n, k
    for n in range(256):
        value = n
        for k in range(8):
            value = (value >> 1) ^ 0xEDB88320u if value & 1 else value >> 1
        _CRC[n] = value


_fill_crc()


cdef inline unsigned int _crc32(const unsigned char* data, Py_ssize_t size) noexcept:
    cdef unsigned int value = 0xFFFFFFFFu
    cdef Py_ssize_t i
    for i in range(size):
        value = _CRC[(value ^ data[i]) & 0xFF] ^ (value >> 8)
    return value ^ 0xFFFFFFFFu


def crc32(bytes data):
    """zlib's CRC-32 of ``data`` (tests compare the two)."""
    return _crc32(<const unsigned char*>data, len(data))


cdef inline const char* _utf8(object word, Py_ssize_t* size, list keep):
    """The UTF-8 bytes of ``word``; lone surrogates written as ``surrogatepass`` writes them
    (the encoded copy is kept alive in ``keep``). The str caches its UTF-8 form: an ASCII word
    gives its own characters."""
    cdef const char* data = PyUnicode_AsUTF8AndSize(word, size)
    if data != NULL:
        return data
    PyErr_Clear()
    encoded = (<str>word).encode("utf-8", "surrogatepass")
    keep.append(encoded)
    size[0] = len(<bytes>encoded)
    return <const char*><bytes>encoded


cdef class HashedWords:
    """A hash table of words kept in a buffer (see :class:`~.wordcache.HashedList`)."""

    cdef const unsigned char[::1] _blob
    cdef const unsigned int[::1] _slots
    cdef const unsigned int[::1] _offsets
    cdef Py_ssize_t _base
    cdef Py_ssize_t _words
    cdef unsigned int _mask

    def __init__(self, blob, slots, offsets, Py_ssize_t base):
        self._blob = blob
        self._slots = slots
        self._offsets = offsets
        self._base = base
        self._words = len(offsets) - 1
        n = len(slots)
        if n == 0 or n & (n - 1) or self._words < 0 or base < 0:
            raise ValueError("a hash table of words needs a power-of-two number of slots and offsets")
        self._mask = <unsigned int>(n - 1)

    cdef Py_ssize_t _find(self, const char* key, Py_ssize_t size) noexcept:
        cdef Py_ssize_t slots = self._slots.shape[0]
        cdef Py_ssize_t length = self._blob.shape[0]
        cdef unsigned int at = _crc32(<const unsigned char*>key, size) & self._mask
        cdef unsigned int entry
        cdef Py_ssize_t probe, index, start, stop
        for probe in range(slots):
            entry = self._slots[at]
            if entry == 0:
                return -1
            index = <Py_ssize_t>entry - 1
            if index < self._words:
                start = self._base + self._offsets[index]
                stop = self._base + self._offsets[index + 1]
                if start > length:
                    start = length
                if stop < start:  # as Python slices: empty
                    stop = start
                if stop > length:
                    stop = length
                if stop - start == size and (size == 0 or memcmp(&self._blob[start], key, size) == 0):
                    return index
            at = (at + 1) & self._mask
        return -1

    def index(self, str word not None):
        """The word's number in the list, -1 when the list lacks it."""
        cdef Py_ssize_t size
        cdef list keep = []
        cdef const char* key = _utf8(word, &size, keep)
        return self._find(key, size)

    def count(self, list words not None):
        """How many of ``words`` (str each) the list holds."""
        cdef Py_ssize_t size, found = 0
        cdef list keep = []
        cdef const char* key
        for word in words:
            if not isinstance(word, str):
                raise TypeError(f"a word is a str, not {type(word).__name__}")
            key = _utf8(word, &size, keep)
            if self._find(key, size) >= 0:
                found += 1
            if keep:
                keep.clear()
        return found


def packed_index(bytes key, blob, offsets, Py_ssize_t base, Py_ssize_t size):
    """Where ``key`` lies among the sorted words of a packed list (its number, -1 when the list
    lacks it): the binary search of :meth:`~.wordcache.PackedList.index`, with Python's slicing
    of out-of-range bounds."""
    cdef const unsigned char[::1] data = blob
    cdef const unsigned int[::1] ends = offsets
    cdef Py_ssize_t length = data.shape[0], n = len(key)
    cdef const unsigned char* wanted = <const unsigned char*>key
    cdef Py_ssize_t lo = 0, hi = size, mid
    if size < 0 or size >= ends.shape[0]:
        raise ValueError("more words than offsets")
    while lo < hi:
        mid = (lo + hi) // 2
        if _compare(data, length, base + ends[mid], base + ends[mid + 1], wanted, n) < 0:
            lo = mid + 1
        else:
            hi = mid
    if lo < size and _compare(data, length, base + ends[lo], base + ends[lo + 1], wanted, n) == 0:
        return lo
    return -1


cdef inline int _compare(const unsigned char[::1] data, Py_ssize_t length, Py_ssize_t start, Py_ssize_t stop,
                         const unsigned char* key, Py_ssize_t n) noexcept:
    """``data[start:stop]`` compared with ``key`` as bytes compare (negative, 0, positive)."""
    cdef Py_ssize_t size, common
    cdef int order
    if start > length:
        start = length
    if stop > length:
        stop = length
    size = stop - start if stop > start else 0
    common = size if size < n else n
    if common:
        order = memcmp(&data[start], key, common)
        if order:
            return order
    return (size > n) - (size < n)
