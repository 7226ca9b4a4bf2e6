"""Every filter decoded here gives what qpdf gives for the same stream: data encoded by each
filter chain (with encoders written here for the filters qpdf cannot encode), and random bytes
under each filter, where qpdf's refusal must be met by a damage report."""

from __future__ import annotations

import base64
import zlib

import pikepdf
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pikepdf import Array, Dictionary, Name, StreamDecodeLevel

from glyphweave.pdf.filters import Undecodable
from glyphweave.pdf.streams import read_bounded

BIG = 1 << 30


@pytest.fixture(scope="module")
def pdf():
    with pikepdf.new() as document:
        yield document


def _stream(pdf, raw: bytes, filters, parms=None) -> pikepdf.Stream:
    stream = pikepdf.Stream(pdf, raw)
    stream.Filter = filters
    if parms is not None:
        stream.DecodeParms = parms
    return stream


def _qpdf(stream: pikepdf.Stream) -> bytes | None:
    try:
        return stream.read_bytes(StreamDecodeLevel.specialized)
    except Exception:
        return None


# -- encoders qpdf does not offer ---------------------------------------------------------


def ascii85(data: bytes) -> bytes:
    return base64.a85encode(data, wrapcol=75) + b"~>"


def ascii_hex(data: bytes) -> bytes:
    text = data.hex().encode()
    return b"\n".join(text[i:i + 64] for i in range(0, len(text), 64)) + b">"


def run_length(data: bytes) -> bytes:
    out = bytearray()
    i = 0
    while i < len(data):
        j = i
        while j < len(data) and j - i < 128 and data[j] == data[i]:
            j += 1
        if j - i >= 2:
            out += bytes((257 - (j - i), data[i]))
            i = j
            continue
        j = i
        while j < len(data) and j - i < 128 and not (j + 1 < len(data) and data[j] == data[j + 1]):
            j += 1
        j = max(j, i + 1)
        out += bytes((j - i - 1,)) + data[i:j]
        i = j
    return bytes(out + b"\x80")


def lzw(data: bytes, early: int = 1) -> bytes:
    codes = [256]
    table = {bytes((i,)): i for i in range(256)}
    size = 9
    sizes = [9]
    word = b""
    for byte in data:
        longer = word + bytes((byte,))
        if longer in table:
            word = longer
            continue
        codes.append(table[word])
        sizes.append(size)
        table[longer] = len(table) + 2
        if len(table) + 2 + early > (1 << size) and size < 12:
            size += 1
        if len(table) + 2 >= 4096 - early:
            codes.append(256)
            sizes.append(size)
            table = {bytes((i,)): i for i in range(256)}
            size = 9
        word = bytes((byte,))
    if word:
        codes.append(table[word])
        sizes.append(size)
    codes.append(257)
    sizes.append(size)
    bits = "".join(format(c, f"0{s}b") for c, s in zip(codes, sizes, strict=True))
    bits += "0" * (-len(bits) % 8)
    return int(bits, 2).to_bytes(len(bits) // 8, "big") if bits else b""


def png_rows(data: bytes, row: int, pixel: int, tags: list[int]) -> bytes:
    """``data`` (whole rows of ``row`` bytes) encoded with the PNG filter types ``tags``."""
    out = bytearray()
    prev = bytes(row)
    for r in range(len(data) // row):
        cur = data[r * row:(r + 1) * row]
        tag = tags[r % len(tags)]
        enc = bytearray()
        for i, x in enumerate(cur):
            left = cur[i - pixel] if i >= pixel else 0
            up = prev[i]
            corner = prev[i - pixel] if i >= pixel else 0
            if tag == 0:
                guess = 0
            elif tag == 1:
                guess = left
            elif tag == 2:
                guess = up
            elif tag == 3:
                guess = (left + up) >> 1
            else:
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                guess = left if pa <= pb and pa <= pc else up if pb <= pc else corner
            enc.append((x - guess) & 255)
        out += bytes((tag,)) + enc
        prev = cur
    return bytes(out)


def tiff8(data: bytes, row: int, colors: int) -> bytes:
    out = bytearray(data)
    for r in range(len(data) // row):
        for i in range(row - 1, colors - 1, -1):
            out[r * row + i] = (data[r * row + i] - data[r * row + i - colors]) & 255
    return bytes(out)


# -- differential: encoded data -----------------------------------------------------------

TEXT = st.binary(max_size=3000) | st.text(alphabet="BT ET Tj()abc\n 0123", max_size=3000).map(str.encode)
ENCODERS = {
    "/ASCII85Decode": ascii85, "/ASCIIHexDecode": ascii_hex, "/RunLengthDecode": run_length,
    "/LZWDecode": lzw, "/FlateDecode": zlib.compress,
}


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=TEXT, chain=st.lists(st.sampled_from(sorted(ENCODERS)), min_size=1, max_size=3))
def test_an_encoded_chain_decodes_as_qpdf_decodes_it(pdf, data, chain):
    raw = data
    for name in reversed(chain):
        raw = ENCODERS[name](raw)
    stream = _stream(pdf, raw, Array([Name(n) for n in chain]))
    assert _qpdf(stream) == data
    assert read_bounded(stream, BIG) == (data, False, None)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.binary(max_size=2000), columns=st.integers(1, 40), colors=st.integers(1, 4),
       bits=st.sampled_from([1, 2, 4, 8, 16]), predictor=st.integers(10, 15),
       tags=st.lists(st.integers(0, 4), min_size=1, max_size=6), lzw_first=st.booleans())
def test_png_predicted_rows_decode_as_qpdf_decodes_them(pdf, data, columns, colors, bits, predictor, tags, lzw_first):
    row = (columns * colors * bits + 7) // 8
    pixel = (colors * bits + 7) // 8
    data = data[: len(data) - len(data) % row]
    encoded = png_rows(data, row, pixel, tags)
    parms = Dictionary(Predictor=predictor, Columns=columns, Colors=colors, BitsPerComponent=bits)
    if lzw_first:
        stream = _stream(pdf, lzw(encoded), Name.LZWDecode, parms)
    else:
        stream = _stream(pdf, zlib.compress(encoded), Array([Name.FlateDecode]), Array([parms]))
    assert _qpdf(stream) == data
    assert read_bounded(stream, BIG) == (data, False, None)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.binary(max_size=2000), columns=st.integers(1, 40), colors=st.integers(1, 4),
       bits=st.sampled_from([1, 2, 3, 4, 8, 12, 16, 24]))
def test_tiff_predicted_rows_decode_as_qpdf_decodes_them(pdf, data, columns, colors, bits):
    # Random rows: whatever they encode, both must decode them alike (qpdf's own encoding
    # differs from ours only in the padding bits of a row).
    parms = Dictionary(Predictor=2, Columns=columns, Colors=colors, BitsPerComponent=bits)
    stream = _stream(pdf, zlib.compress(data), Name.FlateDecode, parms)
    expected = _qpdf(stream)
    assert expected is not None
    assert read_bounded(stream, BIG) == (expected, False, None)
    if bits == 8:
        row = columns * colors
        whole = data[: len(data) - len(data) % row]
        assert read_bounded(_stream(pdf, zlib.compress(tiff8(whole, row, colors)), Name.FlateDecode, parms),
                            BIG) == (whole, False, None)


# -- differential: random bytes -----------------------------------------------------------

RANDOM_RAW = {
    "/ASCII85Decode": st.binary(max_size=300) | st.text(alphabet="!#8Gu z~>\n", max_size=300).map(str.encode),
    "/ASCIIHexDecode": st.binary(max_size=300) | st.text(alphabet="0123456789aBcF >\n\x00g", max_size=300).map(str.encode),
    "/RunLengthDecode": st.binary(max_size=600),
    "/LZWDecode": st.binary(max_size=600),
    "/FlateDecode": st.binary(max_size=600).map(lambda b: zlib.compress(b)[: len(b) // 2 + 3]),
}


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(name=st.sampled_from(sorted(RANDOM_RAW)), data=st.data())
def test_random_bytes_decode_as_qpdf_decodes_them_or_report_damage(pdf, name, data):
    raw = data.draw(RANDOM_RAW[name])
    stream = _stream(pdf, raw, Name(name))
    expected = _qpdf(stream)
    decoded, cut, damage = read_bounded(stream, BIG)
    if expected is None:
        assert damage is not None
    elif name == "/FlateDecode" and damage is not None:
        assert decoded == expected  # qpdf keeps the start of cut-short Flate data too
    else:
        assert (decoded, damage) == (expected, None)


def test_lzw_early_change_zero_and_long_data(pdf):
    data = bytes(range(256)) * 40 + b"abcabcabc" * 3000
    for early in (0, 1):
        stream = _stream(pdf, lzw(data, early), Name.LZWDecode, Dictionary(EarlyChange=early))
        assert _qpdf(stream) == data
        assert read_bounded(stream, BIG) == (data, False, None)


# -- qpdf's quirks, and what it refuses ----------------------------------------------------

@pytest.mark.parametrize("raw, name, expected", [
    (b"uuuuu~>", "/ASCII85Decode", b"\x08x\x0e\xc4"),  # an overflowing group keeps its low 32 bits
    (b"87cURD~>", "/ASCII85Decode", b"Hell"),  # a partial group of n digits gives n - 1 bytes
    (b"87cUR~>garbage{{", "/ASCII85Decode", b"Hell"),  # nothing after the end is read
    (b"414>", "/ASCIIHexDecode", b"A@"),  # an odd digit is followed by 0
    (b"41\x0c42\x0b43", "/ASCIIHexDecode", b"ABC"),  # form feed and vertical tab are white-space
    (b"\x80\x01cd", "/RunLengthDecode", b"cd"),  # qpdf skips 128 rather than ending there
    (b"\x04ab", "/RunLengthDecode", b"ab"),  # a copy cut short keeps what is there
])
def test_quirks_are_qpdfs(pdf, raw, name, expected):
    stream = _stream(pdf, raw, Name(name))
    assert _qpdf(stream) == expected
    assert read_bounded(stream, BIG) == (expected, False, None)


def test_a_partial_predictor_row_is_padded_as_qpdf_pads_it(pdf):
    png = _stream(pdf, zlib.compress(b"\x00abcd\x01x"), Name.FlateDecode, Dictionary(Predictor=12, Columns=4))
    assert _qpdf(png) == b"abcdxxxx" and read_bounded(png, BIG)[0] == b"abcdxxxx"
    tiff = _stream(pdf, zlib.compress(b"\x01" * 6), Name.FlateDecode, Dictionary(Predictor=2, Columns=4))
    assert _qpdf(tiff) == b"\x01\x02\x03\x04\x01\x02\x02\x02" == read_bounded(tiff, BIG)[0]


@pytest.mark.parametrize("filters, parms", [
    (Name.FlateDecode, Dictionary(Predictor=3, Columns=4)),
    (Name.FlateDecode, Dictionary(Predictor=12, Columns=0)),
    (Name.FlateDecode, Dictionary(Predictor=12, Columns=4, BitsPerComponent=3)),
    (Name.FlateDecode, Dictionary(Predictor=12, Columns=4, Colors=0)),
    (Name.FlateDecode, Dictionary(Predictor=2, Columns=4, BitsPerComponent=65)),
    (Name.LZWDecode, Dictionary(EarlyChange=2)),
    (Array([Name.ASCIIHexDecode, Name.FlateDecode]), Dictionary(Predictor=12, Columns=2)),
    (Array([Name.FlateDecode, Name.ASCIIHexDecode]), Array([None])),
])
def test_parameters_qpdf_refuses_are_refused(pdf, filters, parms):
    stream = _stream(pdf, zlib.compress(b"\x00ab\x00cd").hex().encode(), filters, parms)
    assert _qpdf(stream) is None
    with pytest.raises(Undecodable):
        read_bounded(stream, BIG)


def test_null_entries_and_abbreviations(pdf):
    data = b"BT (abc) Tj ET " * 50
    raw = zlib.compress(png_rows(data, 50, 1, [1, 2, 4]))
    stream = _stream(pdf, ascii85(raw), Array([Name("/A85"), Name("/Fl")]),
                     Array([None, Dictionary(Predictor=15, Columns=50)]))
    assert _qpdf(stream) == data
    assert read_bounded(stream, BIG) == (data, False, None)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.binary(min_size=3000, max_size=3000), tag=st.integers(0, 4), predictor=st.sampled_from([2, 12]),
       bits=st.sampled_from([8, 16]))
def test_a_row_longer_than_the_budget_is_read_only_that_far(pdf, data, tag, predictor, bits):
    # A row of 6,000 bytes and a budget of 1,000: the first row's start, as qpdf decodes it.
    columns = 6000 * 8 // bits
    body = bytes((tag,)) + data if predictor == 12 else data
    parms = Dictionary(Predictor=predictor, Columns=columns, BitsPerComponent=bits)
    stream = _stream(pdf, zlib.compress(body * 3), Name.FlateDecode, parms)
    expected = _qpdf(stream)
    assert expected is not None
    decoded, cut, damage = read_bounded(stream, 1000)
    assert cut and damage is None and 0 < len(decoded) <= 1000
    assert expected.startswith(decoded)
