# cython: language_level=3, boundscheck=False, wraparound=False, initializedcheck=False
"""A page's text worked in C: two scans, each a loop over its characters where the reference
runs a regular expression (:func:`words`, the words dehyphenation reads, ``_WORD.findall`` in
:mod:`glyphweave.layout.hyphens`; :func:`any_in`, whether the text holds a character of some
blocks, the test :func:`glyphweave.layout.scripts.script_free` makes of every page), and the
list of its glyphs' texts the run walk writes into (:func:`glyph_texts`, the reference's
:func:`glyphweave.layout.runwalk.glyph_texts`), one pointer copied per glyph where the
reference steps through a chain of iterators and an item getter, and the run walk's test of
a run for a glyph with no advance (:func:`any_zero`, ``0.0 in advances``: compiled code
compares each float as an object there).

The regular-expression engine tests each character against a class through its general
set matcher: for the words about a tenth of a book's whole extraction, for the script
blocks a few percent. Here a word's letter is tested with the very Unicode predicates the
engine uses for ``\\w`` and ``\\d`` (``Py_UNICODE_ISALNUM``, ``Py_UNICODE_ISDECIMAL``), from a
table for the first 256 code points, and a block by two comparisons; a text whose every
character lies below all the blocks (a Latin-1 string, known from its storage without a
look at its characters) is answered at once. Tests compare both with the reference's patterns
on every code point, on generated text over many scripts, and on the shared PDFs' pages.
"""

from cpython.list cimport PyList_Append, PyList_GET_ITEM, PyList_New, PyList_SET_ITEM
from cpython.object cimport PyObject, PyObject_GetItem, PyObject_IsTrue
from cpython.ref cimport Py_DECREF, Py_INCREF
from cpython.sequence cimport PySequence_Fast, PySequence_Fast_GET_ITEM, PySequence_Fast_GET_SIZE
from cpython.float cimport PyFloat_AS_DOUBLE
from cpython.tuple cimport PyTuple_GET_ITEM, PyTuple_GET_SIZE
from cpython.unicode cimport PyUnicode_Substring

__all__ = ["any_in", "any_zero", "glyph_texts", "words"]


cdef extern from "Python.h":
    int PyUnicode_KIND(object text)
    void* PyUnicode_DATA(object text)
    Py_ssize_t PyUnicode_GET_LENGTH(object text)
    Py_UCS4 PyUnicode_READ(int kind, void* data, Py_ssize_t index)
    bint Py_UNICODE_ISALNUM(Py_UCS4 ch)
    bint Py_UNICODE_ISDECIMAL(Py_UCS4 ch)
    int PyUnicode_1BYTE_KIND
    int PyUnicode_2BYTE_KIND


cdef unsigned char _LATIN[256]  # 1 where a code point below 256 is a letter (see _letter)


cdef inline bint _letter(Py_UCS4 ch) noexcept:
    """``[^\\W\\d_]``: a word character (alphanumeric, or ``_``) that is neither a decimal
    digit nor ``_``."""
    if ch < 256:
        return _LATIN[ch]
    return Py_UNICODE_ISALNUM(ch) and not Py_UNICODE_ISDECIMAL(ch)


cdef inline bint _hyphen(Py_UCS4 ch) noexcept:
    return ch == 0x2D or ch == 0x2010


cdef void _fill_latin() noexcept:
    cdef Py_UCS4 ch
    for ch in range(256):
        _LATIN[ch] = ch != 0x5F and Py_UNICODE_ISALNUM(ch) and not Py_UNICODE_ISDECIMAL(ch)


_fill_latin()


def words(str text not None):
    """``_WORD.findall(text)``: the words of ``text``, in order. A word is a run of letters,
    then any number of a hyphen (``-`` or U+2010) followed by another run of letters; a
    hyphen not followed by a letter ends the word before it."""
    cdef int kind = PyUnicode_KIND(text)
    cdef void* data = PyUnicode_DATA(text)
    cdef Py_ssize_t n = PyUnicode_GET_LENGTH(text)
    cdef Py_ssize_t p = 0, e, q
    cdef list found = []
    while p < n:
        if not _letter(PyUnicode_READ(kind, data, p)):
            p += 1
            continue
        e = p + 1
        while e < n and _letter(PyUnicode_READ(kind, data, e)):
            e += 1
        while e + 1 < n and _hyphen(PyUnicode_READ(kind, data, e)) and _letter(PyUnicode_READ(kind, data, e + 1)):
            q = e + 2
            while q < n and _letter(PyUnicode_READ(kind, data, q)):
                q += 1
            e = q
        PyList_Append(found, PyUnicode_Substring(text, p, e))
        p = e
    return found


cdef enum:
    _MOST_BLOCKS = 32


def any_in(str text not None, blocks):
    """Whether a character of ``text`` lies in one of ``blocks`` (pairs of the first and
    last code point, each pair's own order), as a search for the class of those ranges
    finds one. More than 32 blocks are looked for in Python."""
    cdef unsigned int low[_MOST_BLOCKS]
    cdef unsigned int high[_MOST_BLOCKS]
    cdef Py_ssize_t m = len(blocks), j, i, n
    if m > _MOST_BLOCKS:
        return any(first <= ord(ch) <= last for ch in text for first, last in blocks)
    cdef unsigned int least = 0x110000
    for j in range(m):
        low[j], high[j] = blocks[j]
        if low[j] <= high[j] and low[j] < least:
            least = low[j]
    cdef int kind = PyUnicode_KIND(text)
    if kind == PyUnicode_1BYTE_KIND and least > 0xFF or kind == PyUnicode_2BYTE_KIND and least > 0xFFFF:
        return False  # every character lies below every block
    cdef void* data = PyUnicode_DATA(text)
    cdef unsigned int ch
    n = PyUnicode_GET_LENGTH(text)
    for i in range(n):
        ch = PyUnicode_READ(kind, data, i)
        if ch < least:
            continue
        for j in range(m):
            if low[j] <= ch <= high[j]:
                return True
    return False


cdef inline object _item(object pair, Py_ssize_t i, object index):
    """``pair[i]``: a decoding's text (0) or decoder (1), read directly from the decode
    tables' 2-tuples, anything else indexed as Python does (``boundscheck`` is off here:
    Cython's own fast indexing would not check the tuple's size)."""
    if type(pair) is tuple and PyTuple_GET_SIZE(pair) == 2:
        return <object>PyTuple_GET_ITEM(pair, i)
    return PyObject_GetItem(pair, index)


def glyph_texts(runs, placeholder):
    """``runwalk.glyph_texts(runs, placeholder)``: each glyph's text (the first item of its
    decoding), run after run; where some text is empty (false), ``placeholder`` for every
    glyph whose decoder is None."""
    cdef list seqs = [PySequence_Fast(run.decoded, "a run's decoding is not a sequence") for run in runs]
    cdef Py_ssize_t total = 0, g = 0, k, n
    cdef object seq, text
    for seq in seqs:
        total += PySequence_Fast_GET_SIZE(seq)
    cdef list texts = PyList_New(total)
    cdef bint empty = False
    for seq in seqs:
        n = PySequence_Fast_GET_SIZE(seq)
        for k in range(n):
            text = _item(<object>PySequence_Fast_GET_ITEM(seq, k), 0, 0)
            if not empty:
                empty = not (PyUnicode_GET_LENGTH(text) if type(text) is str else PyObject_IsTrue(text))
            Py_INCREF(text)
            PyList_SET_ITEM(texts, g, text)
            g += 1
    if empty:
        g = 0
        for seq in seqs:
            n = PySequence_Fast_GET_SIZE(seq)
            for k in range(n):
                if _item(<object>PySequence_Fast_GET_ITEM(seq, k), 1, 1) is None:
                    Py_DECREF(<object>PyList_GET_ITEM(texts, g))
                    Py_INCREF(placeholder)
                    PyList_SET_ITEM(texts, g, placeholder)
                g += 1
    return texts


def any_zero(values):
    """``0.0 in values``: for a tuple, its floats' doubles compared in a loop (the run walk's
    advances), any other item as ``in`` compares it; anything but a tuple by ``in`` itself."""
    if type(values) is not tuple:
        return 0.0 in values
    cdef Py_ssize_t i
    cdef object item
    for i in range(PyTuple_GET_SIZE(values)):
        item = <object>PyTuple_GET_ITEM(values, i)
        if type(item) is float:
            if PyFloat_AS_DOUBLE(item) == 0.0:
                return True
        elif item == 0.0:
            return True
    return False
