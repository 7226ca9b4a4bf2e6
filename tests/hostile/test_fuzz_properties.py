"""Property-based fuzzing (hypothesis) of the three parsers that read untrusted bytes.

Generated operators and operands, and generated CMaps, must never raise anything but the
documented error, never hang, and keep their invariants. Bounded (a fixed number of examples
and a deadline each) so the suite stays fast; no database is written.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import glyphweave
from glyphweave.pdf.cmap import CMapError, parse_cmap
from glyphweave.pdf.tokenizer import operations
from glyphweave.testing.pdfs import make_pdf

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
    last = 0
    for _op, operands, index in operations(data, fuse=True):
        assert isinstance(operands, list)
        assert index >= last
        last = index


@FUZZ
@given(st.binary(max_size=400))
def test_the_tokenizer_on_raw_bytes(data: bytes) -> None:
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
