"""Content streams read within a budget: filter chains decoded here, a bounded amount at a time,
damaged compressed data read up to the damage (with what zlib found), and image or unknown filters
left to qpdf only when small."""

from __future__ import annotations

import base64
import zlib

import pikepdf
import pytest
from pikepdf import Array, Dictionary, Name

from glyphweave.pdf.filters import PIECE, decoder
from glyphweave.pdf.streams import StreamRefused, read_bounded

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


def test_other_filters_are_decoded_here_as_qpdf_decodes_them(pdf):
    stream = _stream(pdf, PAYLOAD.hex().encode() + b">", Name.ASCIIHexDecode)
    assert read_bounded(stream, 1 << 30) == (PAYLOAD, False, None)
    predicted = _stream(pdf, PACKED, Name.FlateDecode, Dictionary(Predictor=12, Columns=4))
    assert read_bounded(predicted, 1 << 30) == (predicted.read_bytes(), False, None)


def test_a_chain_is_cut_at_the_budget_after_white_space_under_any_filter(pdf):
    stream = _stream(pdf, base64.a85encode(zlib.compress(PAYLOAD)) + b"~>",
                     Array([Name.ASCII85Decode, Name.FlateDecode]))
    data, cut, damage = read_bounded(stream, 100_000)
    assert cut and damage is None
    assert len(data) <= 100_000 and PAYLOAD.startswith(data)
    assert PAYLOAD[len(data):len(data) + 1] in (b" ", b"\n")


def test_each_stage_decodes_no_more_than_is_pulled():
    # 256 MB of spaces, deflated then ASCII85-encoded: pulling 1 MB reads only a few pieces.
    packer = zlib.compressobj(9)
    deflated = b"".join(packer.compress(b" " * (1 << 20)) for _ in range(256)) + packer.flush()
    encoded = base64.a85encode(deflated) + b"~>"
    read = 0

    def source():
        nonlocal read
        for i in range(0, len(encoded), PIECE):
            read += PIECE
            yield encoded[i:i + PIECE]

    damage: list[str] = []
    decode = decoder(["/ASCII85Decode", "/FlateDecode"], [None, None], 1 << 20, damage)
    assert decode is not None
    got = 0
    for piece in decode(source()):
        assert len(piece) <= PIECE
        got += len(piece)
        if got >= 1 << 20:
            break
    assert read <= 2 * PIECE < len(encoded) // 2 and not damage  # an eager stage reads it all


def test_image_and_unknown_filters_go_to_qpdf_only_when_small(pdf):
    small = _stream(pdf, b"\xff\xd8" + bytes(100), Name.DCTDecode)
    with pytest.raises(pikepdf.PdfError):  # qpdf does not decode an image filter: unreadable
        read_bounded(small, 1 << 20)
    large = _stream(pdf, bytes(2000), Name("/MadeUpDecode"))
    with pytest.raises(StreamRefused, match=r"^limit reached: a stream of 2000 encoded bytes under /MadeUpDecode"):
        read_bounded(large, 1 << 20)  # 1 MB / 1024 = 1024 bytes at most
