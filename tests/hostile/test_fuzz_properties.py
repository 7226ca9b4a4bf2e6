"""Property-based fuzzing (hypothesis) of the parsers that read untrusted bytes, and of whole files.

Generated operators and operands, generated CMaps, and a whole PDF damaged byte by byte must
never raise anything but the documented error, never hang, and keep their invariants. Bounded (a fixed number of examples
and a deadline each) so the suite stays fast; no database is written.
"""

from __future__ import annotations

import functools
import io

import pikepdf
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import glyphweave
from glyphweave.core.errors import GlyphweaveError
from glyphweave.pdf import tokenizer
from glyphweave.pdf.cmap import CMapError, parse_cmap
from glyphweave.testing.pdfs import form, helvetica, make_pdf, truetype, type0_identity, type3

TOKENIZERS = [tokenizer.operations]
"""The reference tokenizer, and the compiled build's C one where it is built."""
try:
    from glyphweave.pdf._ctokenizer import operations as _native_operations
except ImportError:
    pass
else:
    TOKENIZERS.append(_native_operations)

FUZZ = settings(max_examples=150, deadline=2000, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

OPERATORS = [b"BT", b"ET", b"Tf", b"Td", b"TD", b"Tm", b"T*", b"Tj", b"TJ", b"'", b'"', b"Tc", b"Tw", b"Tz",
             b"TL", b"Ts", b"Tr", b"q", b"Q", b"cm", b"re", b"f", b"m", b"l", b"S", b"Do", b"BMC", b"BDC",
             b"EMC", b"BI", b"ID", b"EI", b"gs", b"cs", b"sc", b"d0", b"d1"]

number = st.one_of(st.integers(-10**6, 10**6).map(lambda v: str(v).encode()),
                   st.floats(-1e6, 1e6, allow_nan=False).map(lambda v: f"{v:.3f}".encode()),
                   st.sampled_from([b".", b"-", b"+.5", b"1.2.3", b"--1", b"1e5", b"00000000000000000001"]))
string = st.binary(max_size=12).map(
    lambda b: b"(" + b.replace(b"\\", b"\\\\").replace(b"(", b"\\(").replace(b")", b"\\)") + b")")
hexstring = st.binary(max_size=8).map(lambda b: b"<" + b.hex().encode() + b">")
name = st.sampled_from([b"/F1", b"/F2", b"/Fm", b"/P", b"/Span", b"/#41#", b"/", b"/MC0"])
operand = st.one_of(number, string, hexstring, name,
                    st.lists(st.one_of(number, string, hexstring), max_size=6).map(
                        lambda items: b"[" + b" ".join(items) + b"]"),
                    st.sampled_from([b"<< /MCID 3 >>", b"<< /ActualText (x) >>", b"[", b"]", b"<<", b">>", b"(",
                                     b")", b"<", b"%comment\n", b"\x00", b"\xff"]))
operation = st.tuples(st.lists(operand, max_size=5), st.sampled_from(OPERATORS)).map(
    lambda t: b" ".join([*t[0], t[1]]))
content = st.lists(operation, max_size=40).map(b"\n".join)
separators = st.sampled_from([b" ", b"\n", b"\r\n", b"\t", b"", b"\x0c"])


@FUZZ
@given(content)
def test_the_tokenizer_never_raises_and_counts_operators_up(data: bytes) -> None:
    for operations in TOKENIZERS:
        last = 0
        for _op, operands, index in operations(data, fuse=True):
            assert isinstance(operands, list)
            assert index >= last
            last = index


@FUZZ
@given(st.binary(max_size=400))
def test_the_tokenizer_on_raw_bytes(data: bytes) -> None:
    for operations in TOKENIZERS:
        for _ in operations(data, fuse=True):
            pass
        for _ in operations(data):
            pass


@FUZZ
@given(content)
def test_the_interpreter_turns_any_content_into_text_or_warnings(data: bytes) -> None:
    with glyphweave.open(make_pdf(data)) as doc:
        page = doc.pages[0]
        text = page.text()
        stats = page.stats
    assert isinstance(text, str)
    assert stats.visible <= stats.glyphs


hexcode = st.integers(0, 0xFFFFFFFF).map(lambda v: b"<%08X>" % v)
short = st.integers(0, 0xFFFF).map(lambda v: b"<%04X>" % v)
code = st.one_of(hexcode, short, st.integers(0, 0xFF).map(lambda v: b"<%02X>" % v))
section = st.one_of(
    st.lists(st.tuples(code, code), max_size=4).map(
        lambda pairs: b"%d begincodespacerange " % len(pairs) + b" ".join(a + b" " + b for a, b in pairs)
        + b" endcodespacerange"),
    st.lists(st.tuples(code, code, st.one_of(short, st.lists(short, max_size=3).map(
        lambda ds: b"[" + b" ".join(ds) + b"]"))), max_size=4).map(
        lambda rows: b"%d beginbfrange " % len(rows) + b" ".join(a + b" " + b + b" " + d for a, b, d in rows)
        + b" endbfrange"),
    st.lists(st.tuples(code, st.one_of(short, st.just(b"/space"))), max_size=4).map(
        lambda rows: b"%d beginbfchar " % len(rows) + b" ".join(a + b" " + d for a, d in rows) + b" endbfchar"),
    st.lists(st.tuples(code, code, st.integers(0, 2**31)), max_size=4).map(
        lambda rows: b"%d begincidrange " % len(rows) + b" ".join(a + b" " + b + b" %d" % c for a, b, c in rows)
        + b" endcidrange"),
    st.sampled_from([b"/Identity-H usecmap", b"1 beginbfchar", b"endbfrange", b"<", b"(", b"[", b"<<", b"%"]),
)


@FUZZ
@given(st.lists(section, max_size=6), separators)
def test_the_cmap_parser_never_raises_but_its_documented_error(sections: list[bytes], sep: bytes) -> None:
    data = sep.join([b"begincmap", *sections, b"endcmap"])
    try:
        cmap = parse_cmap(data)
    except CMapError:
        return
    for probe in (b"\x00", b"\x00\x41", b"\xff\xff", b"\x00\x00\x00\x05"):
        cmap.to_unicode(probe)
        cmap.to_cid(probe)
    cmap.split(b"\x00\x41\x42\xff")


def _uncompressed(data: bytes) -> bytes:
    """``data`` saved again with its streams and objects in the clear, so that damage lands in
    the content streams, fonts and dictionaries rather than in compressed bytes."""
    out = io.BytesIO()
    with pikepdf.open(io.BytesIO(data)) as pdf:
        pdf.save(out, compress_streams=False, object_stream_mode=pikepdf.ObjectStreamMode.disable)
    return out.getvalue()


@functools.cache
def _whole_file() -> bytes:
    """One page with each kind of font, kerned and spaced text, marked content with an
    ActualText, and a form XObject: something for every part of the reader to trip over."""
    content = (b"BT /F1 12 Tf 72 720 Td (Hello) Tj [(Wo) -120 (rld)] TJ 0.5 Tw ( a b ) Tj ET\n"
               b"/P <</MCID 0>> BDC BT /F2 10 Tf 1 0 0 1 72 700 Tm (abc) Tj ET EMC\n"
               b"/Span <</ActualText (fi)>> BDC BT /F3 9 Tf 72 680 Td <00410042> Tj ET EMC\n"
               b"q 2 0 0 2 100 100 cm BT /F4 20 Tf (ab) Tj ET Q /Fm1 Do")
    return _uncompressed(make_pdf(content, fonts={
        "F1": helvetica(widths=True), "F2": truetype(mapping={97: "a", 98: "b", 99: "c"}),
        "F3": type0_identity(mapping={0x41: "A", 0x42: "B"}), "F4": type3(),
    }, xobjects={"Fm1": form(b"BT /F1 8 Tf 10 10 Td (in a form) Tj ET")}))


insertions = st.sampled_from([b"(", b")", b"[", b"]", b"<<", b">>", b"/", b"R", b" 0 ", b" -1 ", b" 1e308 ",
                              b" 99999999999 ", b"endobj", b"stream", b"endstream", b"BT", b"ET", b"Tj", b"TJ",
                              b"q", b"Q", b"Do", b"BDC", b"EMC", b"\x00", b"%", b"\n"])
damage = st.lists(st.tuples(st.floats(0, 1, exclude_max=True),
                            st.one_of(st.integers(0, 255), st.integers(1, 64).map(lambda n: -n), insertions)),
                  min_size=1, max_size=12)


def _damaged(data: bytes, changes: list[tuple[float, int | bytes]]) -> bytes:
    """``data`` with each change applied at its share of the length: a byte set (0-255),
    bytes deleted (a negative count), or bytes inserted."""
    out = bytearray(data)
    for share, change in changes:
        at = int(share * len(out))
        if isinstance(change, bytes):
            out[at:at] = change
        elif change >= 0:
            out[at:at + 1] = bytes([change])
        else:
            del out[at:at - change]
    return bytes(out)


def test_the_undamaged_file_reads_every_part():
    with glyphweave.open(_whole_file()) as doc:
        assert doc.text() == "HelloWorld a b\nabc\nfi\nab\nin a form\n\f"
        assert doc.warnings() == []


@FUZZ
@given(damage)
def test_a_damaged_file_gives_text_or_the_documented_error(changes: list[tuple[float, int | bytes]]) -> None:
    try:
        with glyphweave.open(_damaged(_whole_file(), changes)) as doc:
            text = doc.text()
            stats = doc.stats
            doc.warnings()
    except GlyphweaveError:
        return
    assert isinstance(text, str)
    assert stats.visible <= stats.glyphs
