# cython: language_level=3, boundscheck=False, wraparound=False, initializedcheck=False, cdivision=True
"""The content-stream tokenizer's fast path, scanned byte by byte in C.

:mod:`glyphweave.pdf.tokenizer` is the reference: it reads a whole operation per match of
one regular expression (``_FAST_SOURCE``), and that match costs more than the operation's bytes do
(the engine's set-up, a match object, a group looked up by name per field). This module
reads the same operations with plain loops over the bytes, and yields exactly the items the
reference yields (a test compares both on every shared PDF, and on random and hostile
input). For the steps off the fast path (the general path, an inline image, an over-long
operand or run of numbers) this module calls the reference's own function, so there is one
implementation of each. It also reads TJ operands (:func:`read_tj`, the lexer's) and the escapes of
literal strings (:func:`unescape_literal`, the lexer's).

The scanners below mirror the reference's patterns one for one (the whole operation, a shown
string, a drawing stepped over, an OCR glyph block), including their caps (at most
``REPEAT_MAX`` items in a TJ array, escapes in a literal string, steps of a drawing): input a
pattern would not match is not read here either, and goes where it goes there.
"""

from cpython.bytes cimport PyBytes_AS_STRING, PyBytes_FromStringAndSize, PyBytes_GET_SIZE
from libc.string cimport memcpy
from cpython.number cimport PyNumber_Float
from cpython.object cimport PyObject
from cpython.ref cimport Py_INCREF

from glyphweave.pdf import tokenizer as _reference
from glyphweave.pdf.lexer import REPEAT_MAX as _REPEAT_MAX
from glyphweave.pdf.lexer import read_tj as _reference_read_tj
from glyphweave.pdf.operands import RawTJ

__all__ = ["number", "operations", "read_matrix", "read_tj", "unescape_literal"]

# Character classes (ISO 32000-1 §7.2.2), one bit each.
cdef enum:
    WS = 1         # white-space: NUL, TAB, LF, FF, CR, SPACE
    DELIM = 2      # ( ) < > [ ] { } / %
    NUMCH = 4      # what a run of numeric operands is made of besides white-space: 0-9 . + -
    DIGIT = 8
    HEXCH = 16     # 0-9 A-F a-f
    OPSTART = 32   # an operator's first character: A-Z a-z ' "

cdef unsigned char CLASS[256]


cdef void _fill_classes():
    cdef int c
    for c in range(256):
        CLASS[c] = 0
    for c in b"\x00\t\n\x0c\r ":
        CLASS[c] |= WS
    for c in b"()<>[]{}/%":
        CLASS[c] |= DELIM
    for c in b"0123456789":
        CLASS[c] |= NUMCH | DIGIT | HEXCH
    for c in b".+-":
        CLASS[c] |= NUMCH
    for c in b"ABCDEFabcdef":
        CLASS[c] |= HEXCH
    for c in b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'\"":
        CLASS[c] |= OPSTART


_fill_classes()

cdef Py_ssize_t REPEAT = _REPEAT_MAX
cdef Py_ssize_t OPERAND_BYTES_MAX = _reference.OPERAND_BYTES_MAX
cdef Py_ssize_t NUMBERS_BYTES_MAX = _reference._NUMBERS_BYTES_MAX


cdef inline bint _regular(unsigned char c) noexcept nogil:
    return not (CLASS[c] & (WS | DELIM))


cdef Py_ssize_t _skip(const unsigned char* d, Py_ssize_t n, Py_ssize_t p) noexcept nogil:
    """Past white-space and comments (the pattern ``SKIP``)."""
    while True:
        while p < n and CLASS[d[p]] & WS:
            p += 1
        if p < n and d[p] == 0x25:  # a comment runs to the end of its line
            while p < n and d[p] != 0x0A and d[p] != 0x0D:
                p += 1
            continue
        return p


cdef inline Py_ssize_t _skip_white(const unsigned char* d, Py_ssize_t n, Py_ssize_t p) noexcept nogil:
    while p < n and CLASS[d[p]] & WS:
        p += 1
    return p


cdef Py_ssize_t _number(const unsigned char* d, Py_ssize_t n, Py_ssize_t p) noexcept nogil:
    """The end of the number at ``p`` (the pattern ``NUMBER``), or -1."""
    if p < n and (d[p] == 0x2B or d[p] == 0x2D):
        p += 1
    if p < n and CLASS[d[p]] & DIGIT:
        while p < n and CLASS[d[p]] & DIGIT:
            p += 1
        if p < n and d[p] == 0x2E:
            p += 1
            while p < n and CLASS[d[p]] & DIGIT:
                p += 1
    elif p < n and d[p] == 0x2E:
        p += 1
        if not (p < n and CLASS[d[p]] & DIGIT):
            return -1
        while p < n and CLASS[d[p]] & DIGIT:
            p += 1
    else:
        return -1
    if p < n and (CLASS[d[p]] & DIGIT or d[p] == 0x2E):
        return -1
    return p


cdef Py_ssize_t _literal_body(const unsigned char* d, Py_ssize_t n, Py_ssize_t p) noexcept nogil:
    """The offset of the ``)`` that ends the literal string whose inside starts at ``p``, with
    no nested parentheses and at most REPEAT escapes (the pattern ``LITERAL_BODY``), or -1."""
    cdef Py_ssize_t escapes = 0
    cdef unsigned char c
    while p < n:
        c = d[p]
        if c == 0x29:  # )
            return p
        if c == 0x28:  # (
            return -1
        if c == 0x5C:  # a backslash and the byte it escapes, whatever that is
            if escapes == REPEAT or p + 1 >= n:
                return -1
            escapes += 1
            p += 2
            continue
        p += 1
    return -1


cdef Py_ssize_t _hex_body(const unsigned char* d, Py_ssize_t n, Py_ssize_t p) noexcept nogil:
    """The offset of the ``>`` that ends the hex string whose inside starts at ``p``, or -1."""
    while p < n and CLASS[d[p]] & (HEXCH | WS):
        p += 1
    return p if p < n and d[p] == 0x3E else -1


cdef Py_ssize_t _tj_body(const unsigned char* d, Py_ssize_t n, Py_ssize_t p, Py_ssize_t* close) noexcept nogil:
    """The end of the TJ array's inside that starts at ``p`` (strings and numbers only, at most
    REPEAT of them: the pattern ``TJ_BODY``), its ``]`` in ``close``; -1 when it is not one."""
    cdef Py_ssize_t items = 0
    cdef Py_ssize_t q, e
    cdef unsigned char c
    while True:
        q = _skip_white(d, n, p)
        if q >= n:
            return -1
        c = d[q]
        if c == 0x5D:  # ]
            close[0] = q
            return p
        if items == REPEAT:
            return -1
        if c == 0x28:
            e = _literal_body(d, n, q + 1)
        elif c == 0x3C:
            e = _hex_body(d, n, q + 1)
        else:
            e = _number(d, n, q)
            if e < 0:
                return -1
            p = e
            items += 1
            continue
        if e < 0:
            return -1
        p = e + 1
        items += 1


cdef inline bint _keyword(const unsigned char* d, Py_ssize_t n, Py_ssize_t p, unsigned char a, unsigned char b) noexcept nogil:
    """Whether the two-letter keyword ``ab`` stands at ``p`` as a whole token."""
    return p + 1 < n and d[p] == a and d[p + 1] == b and (p + 2 >= n or not _regular(d[p + 2]))


# What a shown string at the end of a fast match is: its group's name in the reference.
cdef enum:
    NO_SHOW = 0
    SHOW_TJ = 1
    SHOW_LIT = 2
    SHOW_HEX = 3


cdef struct Show:
    int kind
    Py_ssize_t body_start
    Py_ssize_t body_end
    Py_ssize_t end


cdef void _show(const unsigned char* d, Py_ssize_t n, Py_ssize_t p, Show* s) noexcept nogil:
    """A string shown at ``p`` by TJ or Tj, after optional white-space (the pattern ``_SHOW``)."""
    cdef Py_ssize_t close = 0
    cdef Py_ssize_t e, q
    s.kind = NO_SHOW
    p = _skip_white(d, n, p)
    if p >= n:
        return
    if d[p] == 0x5B:  # [
        e = _tj_body(d, n, p + 1, &close)
        if e < 0:
            return
        q = _skip_white(d, n, close + 1)
        if _keyword(d, n, q, 0x54, 0x4A):  # TJ
            s.kind = SHOW_TJ
            s.body_start = p + 1
            s.body_end = e
            s.end = q + 2
        return
    if d[p] == 0x28:  # (
        e = _literal_body(d, n, p + 1)
        s.kind = SHOW_LIT
    elif d[p] == 0x3C:  # <
        e = _hex_body(d, n, p + 1)
        s.kind = SHOW_HEX
    else:
        return
    if e >= 0:
        q = _skip_white(d, n, e + 1)
        if _keyword(d, n, q, 0x54, 0x6A):  # Tj
            s.body_start = p + 1
            s.body_end = e
            s.end = q + 2
            return
    s.kind = NO_SHOW


# What a fast match read: its last group in the reference.
cdef enum:
    NO_MATCH = 0   # no match, or one with no group (the general path reads on)
    GOT_OP = 1     # numbers and an operator, perhaps a shown string after it
    GOT_TF = 2     # /F s Tf, perhaps x y Td and a shown string after it
    GOT_SHOW = 3   # a shown string on its own


cdef struct Fast:
    int kind
    Py_ssize_t nums_start
    Py_ssize_t op_start
    Py_ssize_t op_end
    Py_ssize_t font_start
    Py_ssize_t font_end
    Py_ssize_t size_start
    Py_ssize_t size_end
    Py_ssize_t tf_end
    Py_ssize_t tx_start
    Py_ssize_t tx_end
    Py_ssize_t ty_start   # -1: no Td after Tf
    Py_ssize_t ty_end
    Show show
    Py_ssize_t end


cdef void _fast(const unsigned char* d, Py_ssize_t n, Py_ssize_t p, Fast* m) noexcept nogil:
    """One match of the reference's ``_FAST_SOURCE`` at ``p``."""
    cdef Py_ssize_t r, q, e
    cdef unsigned char c
    m.kind = NO_MATCH
    m.show.kind = NO_SHOW
    p = _skip(d, n, p)
    if p >= n:
        return
    c = d[p]
    if CLASS[c] & (NUMCH | OPSTART):
        r = p
        if CLASS[c] & NUMCH:  # numbers, then white-space, then the operator
            while r < n and CLASS[d[r]] & (NUMCH | WS):
                r += 1
            if r >= n or not CLASS[d[r - 1]] & WS or not CLASS[d[r]] & OPSTART:
                return
        m.nums_start = p
        m.op_start = r
        while r < n and _regular(d[r]):
            r += 1
        m.op_end = r
        m.kind = GOT_OP
        _show(d, n, r, &m.show)
        m.end = m.show.end if m.show.kind else r
        return
    if c == 0x2F:  # /F s Tf
        q = p + 1
        while q < n and _regular(d[q]):
            q += 1
        if q == p + 1 or q >= n or not CLASS[d[q]] & WS:
            return
        m.font_start = p + 1
        m.font_end = q
        q = _skip_white(d, n, q)
        e = _number(d, n, q)
        if e < 0 or e >= n or not CLASS[d[e]] & WS:
            return
        m.size_start = q
        m.size_end = e
        q = _skip_white(d, n, e)
        if not _keyword(d, n, q, 0x54, 0x66):  # Tf
            return
        m.tf_end = q + 2
        m.kind = GOT_TF
        m.ty_start = -1
        r = m.tf_end
        # and the x y Td after it, if there is one
        q = _skip_white(d, n, r)
        e = _number(d, n, q)
        if e >= 0 and e < n and CLASS[d[e]] & WS:
            m.tx_start = q
            m.tx_end = e
            q = _skip_white(d, n, e)
            e = _number(d, n, q)
            if e >= 0 and e < n and CLASS[d[e]] & WS:
                m.ty_start = q
                m.ty_end = e
                q = _skip_white(d, n, e)
                if _keyword(d, n, q, 0x54, 0x64):  # Td
                    r = q + 2
                else:
                    m.ty_start = -1
        _show(d, n, r, &m.show)
        m.end = m.show.end if m.show.kind else r
        return
    if c == 0x5B or c == 0x28 or c == 0x3C:
        _show(d, n, p, &m.show)
        if m.show.kind:
            m.kind = GOT_SHOW
            m.end = m.show.end


cdef inline Py_ssize_t _numberish(const unsigned char* d, Py_ssize_t n, Py_ssize_t p) noexcept nogil:
    while p < n and CLASS[d[p]] & (NUMCH | WS):
        p += 1
    return p


cdef inline Py_ssize_t _word_end(const unsigned char* d, Py_ssize_t n, Py_ssize_t p) noexcept nogil:
    while p < n and _regular(d[p]):
        p += 1
    return p


cdef bint _ignored(const unsigned char* d, Py_ssize_t size) noexcept nogil:
    """Whether the operator ``d[:size]`` cannot change text (the reference's ``_IGNORED``)."""
    cdef unsigned char a, b
    if size == 1:
        a = d[0]
        return (a == 0x6D or a == 0x6C or a == 0x63 or a == 0x76 or a == 0x79 or a == 0x68 or a == 0x53
                or a == 0x73 or a == 0x66 or a == 0x46 or a == 0x42 or a == 0x62 or a == 0x6E or a == 0x57
                or a == 0x77 or a == 0x6A or a == 0x4A or a == 0x4D or a == 0x69)  # m l c v y h S s f F B b n W w j J M i
    if size == 2:
        a = d[0]
        b = d[1]
        if a == 0x72:  # re ri
            return b == 0x65 or b == 0x69
        return b == 0x2A and (a == 0x66 or a == 0x42 or a == 0x62 or a == 0x57)  # f* B* b* W*
    return False


cdef bint _in_block(const unsigned char* d, Py_ssize_t size) noexcept nogil:
    """Whether the operator ``d[:size]`` may stand in a drawing's ``q ... Q`` block (the
    reference's ``_IN_BLOCK_RE``: those of ``_ignored``, ``cm`` and the colours set by numbers)."""
    cdef unsigned char a, b
    if _ignored(d, size):
        return True
    if size == 1:
        a = d[0]
        return a == 0x67 or a == 0x47 or a == 0x6B or a == 0x4B  # g G k K
    if size == 2:
        a = d[0]
        b = d[1]
        return ((a == 0x63 and b == 0x6D) or (a == 0x73 and b == 0x63) or (a == 0x53 and b == 0x43)
                or (a == 0x72 and b == 0x67) or (a == 0x52 and b == 0x47))  # cm sc SC rg RG
    if size == 3:
        return (d[0] == 0x73 and d[1] == 0x63 and d[2] == 0x6E) or (d[0] == 0x53 and d[1] == 0x43 and d[2] == 0x4E)
    return False


cdef Py_ssize_t _drawing(const unsigned char* d, Py_ssize_t n, Py_ssize_t p, Py_ssize_t* operators) noexcept nogil:
    """The end of the drawing at ``p`` (the reference's ``_DRAWING_SOURCE``: operators that cannot
    change text, comments, and ``q ... Q`` blocks of those, at most REPEAT of them), and in
    ``operators`` how many operators it holds."""
    cdef Py_ssize_t end = p, steps = 0, inner, block, q, w
    operators[0] = 0
    while steps < REPEAT:
        q = _numberish(d, n, p)
        if q >= n:
            break
        if d[q] == 0x25:  # a comment, to the end of its line
            q += 1
            while q < n and d[q] != 0x0A and d[q] != 0x0D:
                q += 1
        else:
            w = _word_end(d, n, q)
            if _ignored(d + q, w - q):
                operators[0] += 1
                q = w
            elif w == q + 1 and d[q] == 0x71 and w < n and CLASS[d[w]] & WS:  # q, then a block
                block = 1
                inner = 0
                q = w + 1
                while True:
                    q = _numberish(d, n, q)
                    w = _word_end(d, n, q)
                    if inner == REPEAT or not _in_block(d + q, w - q):
                        break
                    block += 1
                    inner += 1
                    q = w
                if not (w == q + 1 and d[q] == 0x51):  # Q
                    break
                operators[0] += block + 1
                q = w
            else:
                break
        p = end = q
        steps += 1
    return end


cdef struct Block:
    Py_ssize_t cm_start     # the six numbers of cm, with the white-space after them
    Py_ssize_t cm_end
    Py_ssize_t tr_start     # -1: no Tr
    Py_ssize_t tr_end
    Py_ssize_t tm_start
    Py_ssize_t tm_end
    Py_ssize_t font_start
    Py_ssize_t font_end
    Py_ssize_t size_start
    Py_ssize_t size_end
    Py_ssize_t tx_start
    Py_ssize_t tx_end
    Py_ssize_t ty_start
    Py_ssize_t ty_end
    Show show
    Py_ssize_t end


cdef inline Py_ssize_t _separated(const unsigned char* d, Py_ssize_t n, Py_ssize_t p) noexcept nogil:
    """Past one white-space byte or more at ``p`` (the reference's ``_SEP``), or -1. The glyph
    block's steps below take -1 for ``p`` too, and pass it on: a failed step fails the chain."""
    if p < 0 or p >= n or not CLASS[d[p]] & WS:
        return -1
    return _skip_white(d, n, p + 1)


cdef inline Py_ssize_t _word(const unsigned char* d, Py_ssize_t n, Py_ssize_t p, const char* word) noexcept nogil:
    """Past the bytes of ``word`` at ``p``, or -1 (no check of what follows)."""
    cdef Py_ssize_t k = 0
    if p < 0:
        return -1
    while word[k]:
        if p + k >= n or d[p + k] != <unsigned char>word[k]:
            return -1
        k += 1
    return p + k


cdef inline Py_ssize_t _keyword_then(const unsigned char* d, Py_ssize_t n, Py_ssize_t p, const char* word) noexcept nogil:
    """Past ``word`` and the white-space after it (``word _SEP``), or -1."""
    return _separated(d, n, _word(d, n, p, word))


cdef inline Py_ssize_t _number_then(const unsigned char* d, Py_ssize_t n, Py_ssize_t p,
                                    Py_ssize_t* start, Py_ssize_t* end) noexcept nogil:
    """Past the number at ``p`` and the white-space after it (``NUMBER _SEP``), the number's
    span in ``start`` and ``end``; or -1."""
    cdef Py_ssize_t e
    if p < 0:
        return -1
    e = _number(d, n, p)
    if e < 0:
        return -1
    start[0] = p
    end[0] = e
    return _separated(d, n, e)


cdef inline Py_ssize_t _numbers_then(const unsigned char* d, Py_ssize_t n, Py_ssize_t p, int count) noexcept nogil:
    """Past ``count`` numbers each followed by white-space (``(?:NUMBER _SEP){count}``), or -1."""
    cdef int k
    cdef Py_ssize_t start, end
    for k in range(count):
        p = _number_then(d, n, p, &start, &end)
    return p


cdef bint _glyph_block(const unsigned char* d, Py_ssize_t n, Py_ssize_t p, Block* b) noexcept nogil:
    """A whole glyph block at ``p``, its ``q`` (the reference's ``_BLOCK_SOURCE``): ``q a b c d e f cm
    BT [r Tr] a b c d e f Tm /F s Tf x y Td <..> Tj ET Q`` with white-space between tokens."""
    cdef Py_ssize_t q, e
    b.cm_start = q = _keyword_then(d, n, p, b"q")
    b.cm_end = q = _numbers_then(d, n, q, 6)
    q = _keyword_then(d, n, _keyword_then(d, n, q, b"cm"), b"BT")
    if q < 0:
        return False
    e = _keyword_then(d, n, _number_then(d, n, q, &b.tr_start, &b.tr_end), b"Tr")  # r Tr, perhaps
    if e >= 0:
        q = e
    else:
        b.tr_start = -1
    b.tm_start = q
    b.tm_end = q = _numbers_then(d, n, q, 6)
    q = _word(d, n, q, b"Tm")
    if q < 0:
        return False
    q = _word(d, n, _skip_white(d, n, q), b"/")
    if q < 0:
        return False
    b.font_start = q
    b.font_end = q = _word_end(d, n, q)
    if q == b.font_start:
        return False
    q = _number_then(d, n, _separated(d, n, q), &b.size_start, &b.size_end)
    q = _keyword_then(d, n, q, b"Tf")
    q = _number_then(d, n, q, &b.tx_start, &b.tx_end)
    q = _number_then(d, n, q, &b.ty_start, &b.ty_end)
    q = _word(d, n, q, b"Td")
    if q < 0:
        return False
    q = _skip_white(d, n, q)
    if q < n and d[q] == 0x28:
        e = _literal_body(d, n, q + 1)
        b.show.kind = SHOW_LIT
    elif q < n and d[q] == 0x3C:
        e = _hex_body(d, n, q + 1)
        b.show.kind = SHOW_HEX
    else:
        return False
    if e < 0:
        return False
    b.show.body_start = q + 1
    b.show.body_end = e
    q = _keyword_then(d, n, _keyword_then(d, n, _skip_white(d, n, e + 1), b"Tj"), b"ET")
    q = _word(d, n, q, b"Q")
    if q < 0 or (q < n and _regular(d[q])):
        return False
    b.end = q
    return True


# Operators of one or two characters, made once: the interpreter looks each up in a dict,
# and a bytes object it has seen keeps its hash. (Pages of this table that no operator uses
# are never touched.)
cdef PyObject* _OPERATORS[256 * 257]


cdef inline bytes _operator(const unsigned char* d, Py_ssize_t start, Py_ssize_t end):
    cdef Py_ssize_t k
    cdef bytes op
    if end - start > 2:
        return PyBytes_FromStringAndSize(<const char*>d + start, end - start)
    k = d[start] if end - start == 1 else 256 + d[start] * 256 + d[start + 1]
    if _OPERATORS[k] == NULL:
        op = PyBytes_FromStringAndSize(<const char*>d + start, end - start)
        Py_INCREF(op)
        _OPERATORS[k] = <PyObject*>op
    return <bytes>_OPERATORS[k]


cdef bytes _unescaped(const unsigned char* d, Py_ssize_t start, Py_ssize_t end):
    """What the lexer's ``unescape_literal`` gives for ``d[start:end]`` (§7.3.4.2), as bytes,
    in one pass: a raw CR or CR LF is an LF; a backslash before an end-of-line continues the
    line; ``\\ddd`` (one to three octal digits, the value's low byte), the named escapes, and
    any other byte after a backslash as itself; a backslash that ends the string stays. (The
    reference's regular-expression substitution calls back into Python once per escape.) A
    string with neither is its bytes as they are, the usual case."""
    cdef Py_ssize_t i = start, k, digits
    while i < end and d[i] != 0x5C and d[i] != 0x0D:
        i += 1
    if i == end:
        return _slice(d, start, end)
    cdef object out = PyBytes_FromStringAndSize(NULL, end - start)  # never longer than its source
    cdef unsigned char* o = <unsigned char*>PyBytes_AS_STRING(out)
    memcpy(o, d + start, i - start)  # the bytes before the first backslash or CR
    k = i - start
    cdef unsigned int value
    cdef unsigned char c
    while i < end:
        c = d[i]
        i += 1
        if c == 0x0D:  # CR, CR LF: one LF
            if i < end and d[i] == 0x0A:
                i += 1
            o[k] = 0x0A
            k += 1
            continue
        if c != 0x5C or i == end:  # not a backslash, or one with nothing after it
            o[k] = c
            k += 1
            continue
        c = d[i]
        i += 1
        if c == 0x0D or c == 0x0A:  # a line continued: the end-of-line goes
            if c == 0x0D and i < end and d[i] == 0x0A:
                i += 1
            continue
        if 0x30 <= c <= 0x37:
            value = c - 0x30
            digits = 1
            while digits < 3 and i < end and 0x30 <= d[i] <= 0x37:
                value = value * 8 + (d[i] - 0x30)
                i += 1
                digits += 1
            o[k] = value & 0xFF
        elif c == 0x6E:  # n
            o[k] = 0x0A
        elif c == 0x72:  # r
            o[k] = 0x0D
        elif c == 0x74:  # t
            o[k] = 0x09
        elif c == 0x62:  # b
            o[k] = 0x08
        elif c == 0x66:  # f
            o[k] = 0x0C
        else:  # ( ) \\ and any other byte: itself
            o[k] = c
        k += 1
    return out if k == end - start else PyBytes_FromStringAndSize(<char*>o, k)


def unescape_literal(raw):
    """:func:`glyphweave.pdf.lexer.unescape_literal` (a literal string's inside read), in C."""
    cdef bytes data = bytes(raw)
    return bytearray(_unescaped(<const unsigned char*>PyBytes_AS_STRING(data), 0, PyBytes_GET_SIZE(data)))


cdef inline bytes _slice(const unsigned char* d, Py_ssize_t start, Py_ssize_t end):
    return PyBytes_FromStringAndSize(<const char*>d + start, end - start)


cdef void _numbers(const unsigned char* d, Py_ssize_t start, Py_ssize_t end, list stack):
    """The numbers of a run of numbers and white-space, onto ``stack`` (``bytes.split``)."""
    cdef Py_ssize_t p = start, q
    while True:
        while p < end and CLASS[d[p]] & WS:
            p += 1
        if p >= end:
            return
        q = p
        while q < end and not CLASS[d[q]] & WS:
            q += 1
        stack.append(PyBytes_FromStringAndSize(<const char*>d + p, q - p))
        p = q


cdef object _shown(const unsigned char* d, Show* s, list dropped):
    """The operand of a shown string (the reference's ``_shown``): a TJ array unread, a literal
    string's bytes (its escapes and CRs read by :func:`_unescaped`); anything else, and an
    operand past the size limit, by the reference."""
    cdef Py_ssize_t size = s.body_end - s.body_start
    if size <= OPERAND_BYTES_MAX:
        if s.kind == SHOW_TJ:
            return RawTJ(_slice(d, s.body_start, s.body_end))
        if s.kind == SHOW_LIT:
            return bytearray(_unescaped(d, s.body_start, s.body_end))
    return _reference.show_operand(_slice(d, s.body_start, s.body_end), _GROUPS[s.kind], dropped)


_GROUPS = (None, "tj", "lit", "hex")
_GLYPH_BLOCK = _reference.GLYPH_BLOCK
_GLYPH_BLOCK_TR = _reference.GLYPH_BLOCK_TR
_SHOWN_BY = (None, b"TJ", b"Tj", b"Tj")


def operations(data, *, fuse=False, dropped=None):
    """Yield what :func:`glyphweave.pdf.tokenizer.operations` yields for ``data``, reading
    its fast path in C (same arguments, same items, same ``dropped``)."""
    if dropped is None:
        dropped = []
    if type(data) is not bytes:
        data = bytes(data)
    cdef bytes buffer = data
    cdef const unsigned char* d = <const unsigned char*>PyBytes_AS_STRING(buffer)
    cdef Py_ssize_t size = PyBytes_GET_SIZE(buffer)
    cdef Py_ssize_t n = _reference._content_end(buffer)
    cdef Py_ssize_t pos = 0
    cdef Py_ssize_t count = 0
    cdef Py_ssize_t nums_end, end, more, stop
    cdef Fast m
    cdef Block b
    cdef bint fusing = bool(fuse)
    cdef list stack = []
    cdef object op, item, record, block, operand
    general = _reference._general
    fusable = _reference.FUSABLE
    drawing_ops = _reference._DRAWING_OPS
    while pos < n:
        _fast(d, size, pos, &m)
        if m.kind == NO_MATCH:  # no whole operation here, nor in the run of numbers it starts
            end = _skip(d, size, pos)
            stop = _numberish(d, size, end) if end < size and CLASS[d[end]] & NUMCH else pos
            while True:
                pos, op = general(buffer, pos, stack, dropped)
                if op is not None:
                    count += 1
                    yield op, stack, count
                    stack = []
                if pos >= stop:
                    break
            continue
        pos = m.end
        if m.kind == GOT_SHOW:  # a string shown on its own
            stack.append(_shown(d, &m.show, dropped))
            count += 1
            yield _SHOWN_BY[m.show.kind], stack, count
            stack = []
            continue
        if m.kind == GOT_TF:  # /F s Tf, perhaps with x y Td and a shown string after it
            stack.append(_reference.decode_name(_slice(d, m.font_start, m.font_end)))
            stack.append(_slice(d, m.size_start, m.size_end))
            count += 1
            if fusing and m.ty_start >= 0:
                stack.append(_slice(d, m.tx_start, m.tx_end))
                stack.append(_slice(d, m.ty_start, m.ty_end))
                if m.show.kind == NO_SHOW:
                    record = _reference._TF_TD
                    count += 1
                else:
                    stack.append(_shown(d, &m.show, dropped))
                    record = _reference._TF_TD_TJ if m.show.kind == SHOW_TJ else _reference._TF_TD_TJ_STRING
                    count += 2
                yield record, stack, count
            else:
                pos = m.tf_end  # a Td or string after it is the next match's
                yield b"Tf", stack, count
            stack = []
            continue
        # numbers and an operator, perhaps a shown string after it
        op = _operator(d, m.op_start, m.op_end)
        nums_end = m.op_start
        if m.show.kind != NO_SHOW:
            if fusing and op in fusable:
                _add_numbers(d, m.nums_start, nums_end, stack, dropped)
                stack.append(_shown(d, &m.show, dropped))
                record = (_reference._THEN_TJ if m.show.kind == SHOW_TJ else _reference._THEN_TJ_STRING)[op]
                count += 2
                yield record, stack, count
                stack = []
                continue
            pos = m.op_end  # the string is the next match's
        count += 1
        if op in drawing_ops:
            if fusing and nums_end == m.nums_start and op == b"q":
                if _glyph_block(d, size, m.op_start, &b):
                    _numbers(d, b.cm_start, b.cm_end, stack)
                    if b.tr_start >= 0:
                        stack.append(_slice(d, b.tr_start, b.tr_end))
                    _numbers(d, b.tm_start, b.tm_end, stack)
                    stack.append(_reference.decode_name(_slice(d, b.font_start, b.font_end)))
                    stack.append(_slice(d, b.size_start, b.size_end))
                    stack.append(_slice(d, b.tx_start, b.tx_end))
                    stack.append(_slice(d, b.ty_start, b.ty_end))
                    stack.append(_shown(d, &b.show, dropped))
                    record = _GLYPH_BLOCK if b.tr_start < 0 else _GLYPH_BLOCK_TR
                    count += len(record.operators) - 1
                    pos = b.end
                    yield record, stack, count
                    stack = []
                    continue
            if op == b"q":  # a q ... Q block of drawing, or a q the interpreter needs
                end = _drawing(d, size, pos - 1, &more)
                more -= 1
                if end <= pos:
                    end = 0
            else:  # the rest of the drawing this operator begins
                end = _drawing(d, size, pos, &more)
                if end <= pos:
                    end = pos
                    more = 0
            if end:
                count += more
                pos = end
                stack.clear()
                continue
        _add_numbers(d, m.nums_start, nums_end, stack, dropped)
        if op == b"ID":
            pos = _reference._past_inline_image(buffer, pos, dropped)
            stack.clear()
            yield b"EI", [], count
            continue
        yield op, stack, count
        stack = []


cdef void _add_numbers(const unsigned char* d, Py_ssize_t start, Py_ssize_t end, list stack, list dropped):
    """The numeric operands before an operator onto ``stack``; past the reference's bound, only
    the last ones (the reference's ``_last_numbers`` says so in ``dropped``)."""
    if start == end:
        return
    if end - start > NUMBERS_BYTES_MAX:
        tail = _reference._last_numbers(_slice(d, start, end), dropped)
        stack.extend(tail.replace(b"\0", b" ").split())
        return
    _numbers(d, start, end, stack)


# --------------------------------------------------------------------------- TJ operands

cdef int _hex_value(unsigned char c) noexcept nogil:
    if 0x30 <= c <= 0x39:
        return c - 0x30
    if 0x41 <= c <= 0x46:
        return c - 0x37
    if 0x61 <= c <= 0x66:
        return c - 0x57
    return -1


cdef bytes _hex_bytes(const unsigned char* d, Py_ssize_t start, Py_ssize_t end):
    """A hex string's bytes (the reference's ``decode_hex``): white-space ignored, an odd
    last digit followed by an assumed 0."""
    cdef bytearray out = bytearray((end - start + 1) // 2)
    cdef unsigned char* o = out
    cdef Py_ssize_t k = 0, p
    cdef int digit, high = -1
    for p in range(start, end):
        digit = _hex_value(d[p])
        if digit < 0:
            continue
        if high < 0:
            high = digit
        else:
            o[k] = <unsigned char>(high * 16 + digit)
            k += 1
            high = -1
    if high >= 0:
        o[k] = <unsigned char>(high * 16)
        k += 1
    return PyBytes_FromStringAndSize(<const char*>o, k)


cdef double[23] _POWERS_OF_TEN = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
    1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
]
"""The powers of ten a double holds exactly."""


cdef bint _decimal(const unsigned char* d, Py_ssize_t start, Py_ssize_t end, double* out) noexcept nogil:
    """Whether ``d[start:end]`` is a plain decimal (a sign, digits, a point) of at most 15
    digits with at most 22 after the point, and its value in ``out`` if so.

    Such a number is its digits as an integer divided by a power of ten: both are exact
    doubles, and IEEE division rounds once, correctly, as Python's string conversion does,
    so the value is Python's to the bit (Clinger's fast path). It spares that conversion,
    which on x86-64 also switches the x87 precision around every call, for nearly every
    operand a content stream holds."""
    cdef Py_ssize_t p = start, digits = 0, after = -1
    cdef unsigned long long mantissa = 0
    cdef bint negative = False
    cdef double value
    if p < end and (d[p] == 0x2B or d[p] == 0x2D):
        negative = d[p] == 0x2D
        p += 1
    while p < end:
        if 0x30 <= d[p] <= 0x39:
            mantissa = mantissa * 10 + (d[p] - 0x30)
            digits += 1
            if after >= 0:
                after += 1
        elif d[p] == 0x2E and after < 0:
            after = 0
        else:
            return False
        p += 1
    if not 0 < digits <= 15 or after > 22:
        return False
    value = <double>mantissa
    if after > 0:
        value = value / _POWERS_OF_TEN[after]
    out[0] = -value if negative else value
    return True


cdef object _float(const unsigned char* d, Py_ssize_t start, Py_ssize_t end):
    """``float()`` of a number's bytes (NUMBER: a sign, digits, a point), rounded as Python
    rounds it: :func:`_decimal`, or the conversion Python's ``float`` makes underneath."""
    cdef double value
    if _decimal(d, start, end, &value):
        return value
    return PyNumber_Float(_slice(d, start, end))


cdef double _operand_value(object token) except? -1.0:
    """:func:`number` as a C double."""
    cdef double value
    if type(token) is bytes and _decimal(<const unsigned char*>PyBytes_AS_STRING(token), 0,
                                         PyBytes_GET_SIZE(token), &value):
        return value
    return PyNumber_Float(token)  # what float() runs (Cython's own float() words its errors otherwise)


def number(token):
    """``float(token)``, the value of a numeric operand (bytes), with the same result and the
    same error for anything :func:`_decimal` does not read (the reference is ``float``)."""
    return _operand_value(token)


def read_matrix(values):
    """What :func:`glyphweave.pdf.lexer.read_matrix` returns for ``values``: the last six as
    a matrix of floats, each read as :func:`number` reads it, in one call (the reference's
    six calls of ``float``, compiled, cost more than the numbers), or None when there are
    fewer than six or one is not a number."""
    cdef Py_ssize_t n = len(values), i
    cdef double m[6]
    if n < 6:
        return None
    try:
        for i in range(6):
            m[i] = _operand_value(values[n - 6 + i])
    except (TypeError, ValueError):
        return None
    return (m[0], m[1], m[2], m[3], m[4], m[5])


def read_tj(operand):
    """What :func:`glyphweave.pdf.lexer.read_tj` returns for ``operand``: the strings a TJ
    operand shows and its numbers as ``(bytes shown before it, number)``, None when there are
    none. A TJ source the fast path matched is read here; anything else (an array the general
    path read, a source this scanner does not expect) by the reference."""
    if type(operand) is not RawTJ:
        return _reference_read_tj(operand)
    cdef const unsigned char* d = <const unsigned char*>PyBytes_AS_STRING(operand)  # (a bytes subclass)
    cdef Py_ssize_t n = PyBytes_GET_SIZE(operand)
    cdef Py_ssize_t p = 0, e, shown = 0
    cdef list strings = []
    cdef list adjustments = []
    cdef unsigned char c
    cdef bytes item
    while True:
        p = _skip_white(d, n, p)
        if p >= n:
            break
        c = d[p]
        if c == 0x28:  # (
            e = _literal_body(d, n, p + 1)
            if e < 0:
                return _reference_read_tj(operand)
            item = _unescaped(d, p + 1, e)
            if item:
                strings.append(item)
                shown += len(item)
            p = e + 1
        elif c == 0x3C:  # <
            e = _hex_body(d, n, p + 1)
            if e < 0:
                return _reference_read_tj(operand)
            item = _hex_bytes(d, p + 1, e)
            if item:
                strings.append(item)
                shown += len(item)
            p = e + 1
        else:
            e = _number(d, n, p)
            if e < 0:
                return _reference_read_tj(operand)
            adjustments.append((shown, _float(d, p, e)))
            p = e
    return strings, adjustments or None
