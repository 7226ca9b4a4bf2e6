"""The bare CFF reader (``plugins/decoders/_cff.py``) names glyphs as fontTools' ``cffLib`` does,
refuses what it refuses, and raises nothing but ValueError on damaged programs.

Programs are assembled here byte by byte (header, INDEXes, Top DICT, charset), so each case
says exactly what the font holds; fontTools reads each one too, as the oracle. The corpus
test (``tests/corpus/test_cff_reader_corpus.py``) compares both on real fonts.
"""

from __future__ import annotations

import io
import subprocess
import sys
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from glyphweave.plugins.decoders._cff import read_bare_cff
from glyphweave.tables import cff as cff_tables


def _index(items: list[bytes]) -> bytes:
    if not items:
        return b"\x00\x00"
    offsets = [1]
    for item in items:
        offsets.append(offsets[-1] + len(item))
    size = 1 if offsets[-1] < 0x100 else 2 if offsets[-1] < 0x10000 else 4
    return (len(items).to_bytes(2, "big") + bytes([size]) + b"".join(o.to_bytes(size, "big") for o in offsets)
            + b"".join(items))


def _int(value: int) -> bytes:
    """A DICT integer, always in the 5-byte form (so offsets can be patched in place)."""
    return b"\x1d" + value.to_bytes(4, "big", signed=True)


def program(charset: bytes | int | None, glyph_count: int, *, strings: list[str] = (), cid: bool = False,
            encoding: int | None = None, extra_top: bytes = b"") -> bytes:
    """A bare CFF program of one font: ``charset`` is its charset data (a format byte and the
    rest) or a predefined charset's number, or None for no charset operator; ``glyph_count``
    empty charstrings."""
    def top(charset_at: int, charstrings_at: int) -> bytes:
        out = extra_top
        if cid:
            out += _int(391) + _int(392) + _int(0) + b"\x0c\x1e"  # ROS: Adobe Identity 0
        if charset is not None:
            out += _int(charset if isinstance(charset, int) else charset_at) + b"\x0f"
        if encoding is not None:
            out += _int(encoding) + b"\x10"
        return out + _int(charstrings_at) + b"\x11"

    names = _index([b"Test"])
    string_data = [s.encode("latin-1") for s in strings] + ([b"Adobe", b"Identity"] if cid else [])
    head = b"\x01\x00\x04\x04" + names
    tail_strings = _index(string_data) + _index([])  # strings, global subrs
    size = len(_index([top(0, 0)]))
    charset_at = len(head) + size + len(tail_strings)
    charset_bytes = charset if isinstance(charset, bytes) else b""
    charstrings_at = charset_at + len(charset_bytes)
    return (head + _index([top(charset_at, charstrings_at)]) + tail_strings + charset_bytes
            + _index([b"\x0e"] * glyph_count))


def fonttools_reading(data: bytes) -> tuple[Any, ...]:
    """What fontTools reads of the program: names, CID-keyed, encoding, strings; or the refusal."""
    from fontTools.cffLib import CFFFontSet

    try:
        font_set = CFFFontSet()
        font_set.decompile(io.BytesIO(data), otFont=None)
        top = font_set[font_set.fontNames[0]]
        return (list(top.charset), hasattr(top, "ROS"), top.rawDict.get("Encoding", 0),
                list(font_set.strings.strings))
    except Exception:  # noqa: BLE001 (any refusal: the font is unreadable either way)
        return ("refused",)


def our_reading(data: bytes) -> tuple[Any, ...]:
    try:
        found = read_bare_cff(data)
    except ValueError:
        return ("refused",)
    strings = [found.string(cff_tables.STANDARD_STRING_COUNT + i) for i in range(len(found._strings))]
    return found.names, found.cid_keyed, found.encoding, strings


def _sids(*sids: int) -> bytes:
    return b"".join(s.to_bytes(2, "big") for s in sids)


CASES = {
    "format 0, standard strings": (bytes([0]) + _sids(34, 35, 66), 4, {}),
    "format 0, the font's own strings": (bytes([0]) + _sids(391, 34, 392), 4, {"strings": ["uni4E00", "f_f"]}),
    "format 1, ranges": (bytes([1]) + _sids(34) + bytes([2]) + _sids(66) + bytes([0]), 5, {}),
    "format 2, ranges": (bytes([2]) + _sids(34) + _sids(3), 5, {}),
    "a name met again": (bytes([0]) + _sids(34, 34, 391, 34), 5, {"strings": ["A.1"]}),
    "CID-keyed, format 2": (bytes([2]) + _sids(1) + _sids(9), 11, {"cid": True}),
    "CID-keyed, the same CID twice": (bytes([0]) + _sids(5, 5, 0), 4, {"cid": True}),
    "ISOAdobe, fewer glyphs": (0, 5, {}),
    "Expert": (1, 200, {}),
    "ExpertSubset": (2, 10, {}),
    "a custom encoding offset": (bytes([0]) + _sids(34), 2, {"encoding": 4000}),
    "no charset operator": (None, 3, {}),
    "CID-keyed with a predefined charset": (0, 3, {"cid": True}),
    "a range past the glyph count": (bytes([1]) + _sids(34) + bytes([5]), 3, {}),
    "a string the font does not hold": (bytes([0]) + _sids(34, 400), 3, {}),
    "an unknown charset format": (bytes([3, 0, 0]), 2, {}),
    "a charset cut short": (bytes([0]) + _sids(34), 5, {}),
}


@pytest.mark.parametrize("case", CASES)
def test_the_reader_names_glyphs_as_fonttools_does(case):
    charset, count, options = CASES[case]
    data = program(charset, count, **options)
    assert our_reading(data) == fonttools_reading(data)


def test_the_cases_cover_fonts_both_read_and_fonts_both_refuse():
    readings = [our_reading(program(charset, count, **options)) for charset, count, options in CASES.values()]
    assert sum(r == ("refused",) for r in readings) >= 5
    assert sum(r != ("refused",) for r in readings) >= 10


def test_reals_and_escaped_operators_in_the_top_dict_are_read_past():
    # FontMatrix (12 7) of reals (1, -2.5), a version string ID (op 0): neither is an offset.
    matrix = b"\x1e\x1f" * 3 + b"\x1e\xe2\xa5\xff" * 3 + b"\x0c\x07"
    data = program(bytes([0]) + _sids(34), 2, extra_top=matrix + _int(1) + b"\x00")
    assert our_reading(data) == fonttools_reading(data)
    assert our_reading(data)[0] == [".notdef", "A"]


@pytest.mark.parametrize("data", [b"", b"\x01\x00\x04", b"\x02\x00\x05\x04" + b"\x00" * 8, b"\x01\x00\x04\x04\x00\x00"])
def test_not_a_cff_program_is_refused(data):
    with pytest.raises(ValueError):
        read_bare_cff(data)


@settings(max_examples=300, deadline=None)
@given(case=st.sampled_from(sorted(CASES)), cut=st.integers(0, 400), flips=st.lists(
    st.tuples(st.integers(0, 400), st.integers(0, 255)), max_size=3))
def test_a_damaged_program_raises_only_value_error_and_agrees_where_both_read_it(case, cut, flips):
    charset, count, options = CASES[case]
    data = bytearray(program(charset, count, **options))
    for at, value in flips:
        if at < len(data):
            data[at] = value
    damaged = bytes(data[:cut] if cut < len(data) else data)
    ours = our_reading(damaged)  # any exception but ValueError fails the test
    theirs = fonttools_reading(damaged)
    if ours != ("refused",) and theirs != ("refused",):
        assert ours == theirs


def test_a_huge_glyph_count_of_one_repeated_name_is_quick():
    # fontTools renames each repeat against a fresh set of every name: quadratic. Here it is not.
    data = program(bytes([2]) + (_sids(34) + _sids(0)) * 30001, 30002)
    names = read_bare_cff(data).names
    assert names[:4] == [".notdef", "A", "A.1", "A.2"] and len(set(names)) == len(names) == 30002


def test_reading_a_cff_font_does_not_import_fonttools_cff_library():
    code = ("import sys\n"
            "from glyphweave.plugins.decoders._fontprogram import parse_font_program\n"
            f"program = parse_font_program('Type1C', {program(bytes([0]) + _sids(34, 35), 3)!r})\n"
            "assert program.glyph_names == ['.notdef', 'A', 'B'], program.glyph_names\n"
            "print('fontTools.cffLib' in sys.modules)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "False"
