"""Content streams read within a budget: FlateDecode chains inflated here, a bounded amount at
a time, and damaged compressed data read up to the damage (with what zlib found)."""

from __future__ import annotations

import zlib

import pikepdf
import pytest
from pikepdf import Array, Dictionary, Name

from glyphweave.pdf.streams import read_bounded

PAYLOAD = b"".join(b"BT /F1 12 Tf 72 %d Td (line %d) Tj ET\n" % (i, i) for i in range(5000))
PACKED = zlib.compress(PAYLOAD, 6)


@pytest.fixture
def pdf():
    with pikepdf.new() as document:
        yield document


def _stream(pdf, data: bytes, filters, params=None) -> pikepdf.Stream:
    stream = pikepdf.Stream(pdf, b"")
    stream.write(data, filter=filters, decode_parms=params)
    return stream


@pytest.mark.parametrize("filters, params, data", [
    (Name.FlateDecode, None, PACKED),
    (Array([Name.FlateDecode, Name.FlateDecode]), None, zlib.compress(PACKED)),
    (Array([Name.FlateDecode] * 3), None, zlib.compress(zlib.compress(PACKED))),
    (Name.FlateDecode, Dictionary(Predictor=1), PACKED),
])
def test_flate_chains_read_as_qpdf_reads_them(pdf, filters, params, data):
    stream = _stream(pdf, data, filters, params)
    assert read_bounded(stream, 1 << 30) == (PAYLOAD, False, None)
    assert stream.read_bytes() == PAYLOAD


def test_a_chain_is_cut_at_the_budget_after_white_space(pdf):
    stream = _stream(pdf, zlib.compress(PACKED), Array([Name.FlateDecode, Name.FlateDecode]))
    data, cut, damage = read_bounded(stream, 100_000)
    assert cut and damage is None
    assert len(data) <= 100_000 and PAYLOAD.startswith(data)
    assert PAYLOAD[len(data):len(data) + 1] in (b" ", b"\n")  # cut before white-space, never in a token


def test_a_wrong_checksum_loses_nothing_and_is_reported(pdf):
    stream = _stream(pdf, PACKED[:-1] + bytes([PACKED[-1] ^ 0xFF]), Name.FlateDecode)
    data, cut, damage = read_bounded(stream, 1 << 30)
    assert data == PAYLOAD and not cut
    assert damage is not None and "incorrect data check" in damage


def test_damage_inside_keeps_what_came_before_it(pdf):
    # qpdf gives up on this stream altogether; what inflated before the bad bytes stays.
    stream = _stream(pdf, PACKED[:5000] + b"\xff\xff\xff" + PACKED[5003:], Name.FlateDecode)
    data, cut, damage = read_bounded(stream, 1 << 30)
    assert 20_000 < len(data) < len(PAYLOAD) and PAYLOAD.startswith(data)
    assert damage is not None


def test_a_truncated_stream_keeps_its_start_and_says_it_ended_early(pdf):
    stream = _stream(pdf, PACKED[: len(PACKED) // 2], Name.FlateDecode)
    data, cut, damage = read_bounded(stream, 1 << 30)
    assert len(data) > len(PAYLOAD) // 3 and PAYLOAD.startswith(data)
    assert damage == "the compressed data ends early"
    assert data == stream.read_bytes()


def test_other_filters_are_left_to_qpdf(pdf):
    stream = _stream(pdf, PAYLOAD.hex().encode() + b">", Name.ASCIIHexDecode)
    assert read_bounded(stream, 1 << 30) == (PAYLOAD, False, None)
    predicted = _stream(pdf, PACKED, Name.FlateDecode, Dictionary(Predictor=12, Columns=4))
    assert read_bounded(predicted, 1 << 30) == (predicted.read_bytes(), False, None)
