"""Numbers too large for qpdf, clamped in place so the object holding them is kept."""

from __future__ import annotations

from glyphweave.pdf.rescue import CLAMPED, clamp_numbers, objects_nulled_by_numbers

WARNING = ("f.pdf (object 4 0, offset 10): treating object as null because of error during parsing: "
           "overflow/underflow converting 1111 to 64-bit integer")


def test_the_objects_are_read_from_qpdfs_words() -> None:
    assert objects_nulled_by_numbers([WARNING, "object 4 0: Pages tree includes non-dictionary object; ignoring"]) \
        == [(4, 0, 10)]


def test_a_number_is_clamped_in_place_with_its_sign_and_length() -> None:
    head = b"%PDF-1.4\n"
    body = b"4 0 obj << /A [0 -" + b"9" * 30 + b" " + b"9" * 25 + b" 12 9223372036854775807] >> endobj"
    data = head + b"x" + body + b" 5 0 obj " + b"9" * 30 + b" endobj"
    patched, notes = clamp_numbers(data, [(4, 0, len(head) + 1)])
    assert len(patched) == len(data)
    assert b"-%d" % CLAMPED + b" " * 21 in patched and b"%d" % CLAMPED + b" " * 15 in patched
    assert b"12 9223372036854775807]" in patched  # fits 64 bits: qpdf reads it
    assert patched.endswith(b"5 0 obj " + b"9" * 30 + b" endobj")  # another object: untouched
    assert notes == ["object 4 0: numbers of 30, 25 digits, too large to read, clamped to 2,147,483,647 "
                     "(the object was kept)"]


def test_a_streams_data_is_never_touched_and_nothing_found_says_nothing() -> None:
    data = b"4 0 obj << /Length 30 >> stream\n" + b"1" * 30 + b"\nendstream endobj"
    assert clamp_numbers(data, [(4, 0, 0)]) == (data, [])
    assert clamp_numbers(b"4 0 obj 1.5" + b"1" * 30 + b" endobj", [(4, 0, 0)])[1] == []  # a real: qpdf reads it
