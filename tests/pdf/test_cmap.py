"""CMap parsing (ISO 32000-1 §9.7.5-9.7.6, §9.10.3): small hand-written CMaps, then real files."""

from __future__ import annotations

import contextlib
import random
import time
import tracemalloc
from pathlib import Path

import pytest

from glyphweave.pdf.cmap import CMap, CMapError, identity_cmap, parse_cmap

HEADER = b"""/CIDInit /ProcSet findresource begin
12 dict begin
begincmap
/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def
/CMapName /Adobe-Identity-UCS def
/CMapType 2 def
"""
FOOTER = b"""endcmap
CMapName currentdict /CMap defineresource pop
end
end
"""
TWO_BYTE = b"1 begincodespacerange\n<0000> <FFFF>\nendcodespacerange\n"


def tounicode(body: bytes, codespace: bytes = TWO_BYTE) -> CMap:
    return parse_cmap(HEADER + codespace + body + FOOTER)


# --------------------------------------------------------------------------- header values


def test_name_wmode_and_defaults():
    cmap = tounicode(b"")
    assert cmap.name == "Adobe-Identity-UCS"
    assert cmap.wmode == 0
    assert cmap.codespace == [(b"\x00\x00", b"\xff\xff")]
    assert cmap.code_lengths() == {2}

    vertical = parse_cmap(b"begincmap /CMapName /Foo-V def /WMode 1 def endcmap")
    assert (vertical.name, vertical.wmode) == ("Foo-V", 1)


def test_cmap_error_is_a_value_error():
    assert issubclass(CMapError, ValueError)


# --------------------------------------------------------------------------- bfchar


def test_bfchar_basic():
    cmap = tounicode(b"2 beginbfchar\n<0003> <0020>\n<0024> <0041>\nendbfchar\n")
    assert cmap.to_unicode(b"\x00\x03") == " "
    assert cmap.to_unicode(b"\x00\x24") == "A"
    assert cmap.to_unicode(b"\x00\x25") is None
    assert cmap.to_cid(b"\x00\x03") is None  # a ToUnicode CMap gives no CIDs


def test_bfchar_ligature_and_surrogate_pair():
    cmap = tounicode(
        b"3 beginbfchar\n<0001> <006600660069>\n<0002> <D83DDE00>\n<0003> <0066D83DDE00>\nendbfchar\n"
    )
    assert cmap.to_unicode(b"\x00\x01") == "ffi"
    assert cmap.to_unicode(b"\x00\x02") == "\U0001f600"
    assert cmap.to_unicode(b"\x00\x03") == "f\U0001f600"


def test_bfchar_unpaired_surrogates_become_replacement_chars():
    cmap = tounicode(b"3 beginbfchar\n<0001> <D83D>\n<0002> <DE000041>\n<0003> <0041D83D>\nendbfchar\n")
    assert cmap.to_unicode(b"\x00\x01") == "\ufffd"
    assert cmap.to_unicode(b"\x00\x02") == "\ufffdA"
    assert cmap.to_unicode(b"\x00\x03") == "A\ufffd"


def test_bfchar_adjacent_lone_surrogates_are_not_paired_across_entries():
    # Two entries in a row whose destinations would form a pair if concatenated.
    cmap = tounicode(b"2 beginbfchar\n<0001> <D83D>\n<0002> <DE00>\nendbfchar\n")
    assert cmap.to_unicode(b"\x00\x01") == "\ufffd"
    assert cmap.to_unicode(b"\x00\x02") == "\ufffd"


def test_bfchar_name_destinations_use_the_glyph_list():
    cmap = tounicode(b"3 beginbfchar\n<0001> /space\n<0002> /f_f_i\n<0003> /uni20AC\nendbfchar\n")
    assert cmap.to_unicode(b"\x00\x01") == " "
    assert cmap.to_unicode(b"\x00\x02") == "ffi"
    assert cmap.to_unicode(b"\x00\x03") == "\u20ac"


def test_bfchar_unknown_name_and_empty_destination_are_unmapped():
    cmap = tounicode(b"2 beginbfchar\n<0001> /notaglyphname\n<0002> <>\nendbfchar\n")
    assert cmap.to_unicode(b"\x00\x01") is None
    assert cmap.to_unicode(b"\x00\x02") is None


def test_bfchar_odd_length_destination_gets_a_leading_zero_byte():
    cmap = tounicode(b"1 beginbfchar\n<0001> <41>\nendbfchar\n")
    assert cmap.to_unicode(b"\x00\x01") == "A"


@pytest.mark.parametrize("count", [b"1", b"5", b"0", b""])
def test_section_counts_are_ignored(count):
    cmap = tounicode(count + b" beginbfchar\n<0001> <0041>\n<0002> <0042>\n<0003> <0043>\nendbfchar\n")
    assert [cmap.to_unicode(bytes((0, i))) for i in (1, 2, 3)] == ["A", "B", "C"]


def test_several_sections_accumulate():
    cmap = tounicode(
        b"1 beginbfchar <0001> <0041> endbfchar\n"
        b"1 beginbfrange <0010> <0012> <0061> endbfrange\n"
        b"1 beginbfchar <0002> <0042> endbfchar\n"
    )
    assert cmap.to_unicode(b"\x00\x01") == "A"
    assert cmap.to_unicode(b"\x00\x02") == "B"
    assert cmap.to_unicode(b"\x00\x12") == "c"


def test_bfchar_with_one_name_among_many_entries():
    # A name forces the general tokenizer; every entry must still be read.
    lines = b"".join(b"<%04X> <%04X>\n" % (i, 0x4E00 + i) for i in range(300))
    cmap = tounicode(b"beginbfchar\n" + lines + b"<0200> /space\nendbfchar\n")
    assert cmap.to_unicode(b"\x00\x00") == "\u4e00"
    assert cmap.to_unicode(b"\x01\x2b") == chr(0x4E00 + 299)
    assert cmap.to_unicode(b"\x02\x00") == " "


# --------------------------------------------------------------------------- bfrange


def test_bfrange_increments_the_destination():
    cmap = tounicode(b"1 beginbfrange\n<0020> <007E> <0020>\nendbfrange\n")
    assert cmap.to_unicode(b"\x00\x20") == " "
    assert cmap.to_unicode(b"\x00\x41") == "A"
    assert cmap.to_unicode(b"\x00\x7e") == "~"
    assert cmap.to_unicode(b"\x00\x7f") is None
    assert cmap.to_unicode(b"\x00\x1f") is None


def test_bfrange_increments_the_last_char_of_a_multi_char_destination():
    cmap = tounicode(b"1 beginbfrange\n<0001> <0003> <00660069>\nendbfrange\n")
    assert [cmap.to_unicode(bytes((0, i))) for i in (1, 2, 3)] == ["fi", "fj", "fk"]


def test_bfrange_carries_past_the_last_byte():
    # §9.10.3 forbids this; we carry into the next code point rather than wrap to U+0000.
    cmap = tounicode(b"1 beginbfrange\n<0001> <0003> <00FE>\nendbfrange\n")
    assert [cmap.to_unicode(bytes((0, i))) for i in (1, 2, 3)] == ["\u00fe", "\u00ff", "\u0100"]


def test_bfrange_with_surrogate_pair_destination():
    cmap = tounicode(b"1 beginbfrange\n<0001> <0003> <D83DDE00>\nendbfrange\n")
    assert cmap.to_unicode(b"\x00\x03") == "\U0001f602"


def test_bfrange_into_the_surrogate_block_gives_replacement_chars():
    cmap = tounicode(b"1 beginbfrange\n<0001> <0003> <D7FE>\nendbfrange\n")
    assert [cmap.to_unicode(bytes((0, i))) for i in (1, 2, 3)] == ["\ud7fe", "\ud7ff", "\ufffd"]


def test_bfrange_array_form():
    cmap = tounicode(
        b"2 beginbfrange\n<0005> <0007> [<0041> <006600660069> <D83DDE00>]\n"
        b"<0010> <0013> [<0061> /space]\nendbfrange\n"
    )
    assert cmap.to_unicode(b"\x00\x05") == "A"
    assert cmap.to_unicode(b"\x00\x06") == "ffi"
    assert cmap.to_unicode(b"\x00\x07") == "\U0001f600"
    assert cmap.to_unicode(b"\x00\x10") == "a"
    assert cmap.to_unicode(b"\x00\x11") == " "
    assert cmap.to_unicode(b"\x00\x12") is None  # array shorter than the range
    assert cmap.to_unicode(b"\x00\x13") is None


def test_bfrange_without_spaces_between_tokens():
    cmap = parse_cmap(
        b"begincmap 1 begincodespacerange<00><FF>endcodespacerange 1 beginbfrange<01><03>[<0041><0042><0043>]endbfrange endcmap"
    )
    assert [cmap.to_unicode(bytes((i,))) for i in (1, 2, 3)] == ["A", "B", "C"]


def test_bfrange_skips_malformed_entries_and_keeps_going():
    cmap = tounicode(
        b"beginbfrange\n<0010> <0005> <0041>\n<01> <0002> <0041>\n<0020> <0021> <0061>\nendbfrange\n"
    )
    assert cmap.to_unicode(b"\x00\x10") is None  # lo > hi
    assert cmap.to_unicode(b"\x00\x21") == "b"


def test_bfrange_lone_surrogate_in_the_prefix():
    cmap = tounicode(b"beginbfrange <0001> <0002> <D83D0041> endbfrange\n")
    assert cmap.to_unicode(b"\x00\x02") == "\ufffdB"


def test_huge_range_is_not_expanded():
    tracemalloc.start()
    try:
        cmap = tounicode(b"1 beginbfrange\n<0000> <FFFF> <0000>\nendbfrange\n")
        size, _peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert size < 200_000  # a 65,536-entry dict alone would take several MB
    assert cmap.to_unicode(b"\xff\xfd") == "\ufffd"
    assert cmap.to_unicode(b"\xff\xff") == "\uffff"
    assert cmap.to_unicode(b"\x4e\x2d") == "\u4e2d"


def test_four_byte_range_is_not_expanded():
    cmap = parse_cmap(
        b"begincodespacerange <00000000> <FFFFFFFF> endcodespacerange begincidrange <00000000> <FFFFFFFF> 0 endcidrange"
    )
    assert cmap.to_cid(b"\xff\xff\xff\xff") == 0xFFFFFFFF
    assert cmap.code_lengths() == {4}


# --------------------------------------------------------------------------- precedence


def test_bfchar_wins_over_ranges_whatever_the_order():
    cmap = tounicode(
        b"beginbfchar <0041> <0058> endbfchar\n"
        b"beginbfrange <0040> <0042> <0061> endbfrange\n"
        b"beginbfchar <0042> <0059> endbfchar\n"
    )
    assert cmap.to_unicode(b"\x00\x40") == "a"
    assert cmap.to_unicode(b"\x00\x41") == "X"
    assert cmap.to_unicode(b"\x00\x42") == "Y"


def test_later_bfchar_entry_wins_over_earlier_one():
    cmap = tounicode(b"beginbfchar <0001> <0041> <0001> <0042> endbfchar\n")
    assert cmap.to_unicode(b"\x00\x01") == "B"


def test_last_defined_range_wins_on_overlap():
    cmap = tounicode(
        b"beginbfrange\n<0000> <00FF> <0100>\n<0010> <001F> [<0041> <0042>]\n<0018> <0030> <0061>\nendbfrange\n"
    )
    assert cmap.to_unicode(b"\x00\x05") == chr(0x105)
    assert cmap.to_unicode(b"\x00\x10") == "A"
    assert cmap.to_unicode(b"\x00\x11") == "B"
    assert cmap.to_unicode(b"\x00\x12") is None  # the array range covers it but has no entry
    assert cmap.to_unicode(b"\x00\x18") == "a"
    assert cmap.to_unicode(b"\x00\x30") == chr(0x61 + 0x18)
    assert cmap.to_unicode(b"\x00\x31") == chr(0x131)


def test_overlapping_ranges_with_gaps_between_them():
    cmap = tounicode(
        b"beginbfrange <0010> <0020> <0041> <0030> <0040> <0061> <0035> <0036> <0031> endbfrange\n"
    )
    assert cmap.to_unicode(b"\x00\x25") is None
    assert cmap.to_unicode(b"\x00\x20") == "Q"
    assert cmap.to_unicode(b"\x00\x34") == "e"
    assert cmap.to_unicode(b"\x00\x36") == "2"
    assert cmap.to_unicode(b"\x00\x37") == "h"


def test_overlapping_ranges_match_a_brute_force_model():
    rng = random.Random(20240601)
    lines = []
    model: dict[int, str] = {}
    for _ in range(300):
        lo = rng.randrange(0, 2000)
        hi = lo + rng.randrange(0, 120)
        dst = rng.randrange(0x4E00, 0x9000)
        lines.append(b"<%04X> <%04X> <%04X>" % (lo, hi, dst))
        for code in range(lo, hi + 1):
            model[code] = chr(dst + code - lo)
    cmap = tounicode(b"beginbfrange\n" + b"\n".join(lines) + b"\nendbfrange\n")
    for code in range(0, 2200):
        assert cmap.to_unicode(code.to_bytes(2, "big")) == model.get(code), code


def test_ranges_of_different_code_lengths_are_separate():
    cmap = parse_cmap(
        b"begincodespacerange <00> <7F> <8000> <FFFF> endcodespacerange\n"
        b"beginbfrange <20> <7E> <0020> <8020> <807E> <FF01> endbfrange"
    )
    assert cmap.to_unicode(b"\x41") == "A"
    assert cmap.to_unicode(b"\x80\x41") == "\uff22"
    assert cmap.to_unicode(b"\x00\x41") is None


# --------------------------------------------------------------------------- CIDs


def test_cidchar_and_cidrange():
    cmap = parse_cmap(
        b"/CMapName /Test-H def begincodespacerange <0000> <FFFF> endcodespacerange\n"
        b"2 begincidrange\n<0020> <007E> 1\n<8140> <817E> 633\nendcidrange\n"
        b"1 begincidchar\n<0041> 9999\nendcidchar\n"
    )
    assert cmap.to_cid(b"\x00\x20") == 1
    assert cmap.to_cid(b"\x00\x7e") == 95
    assert cmap.to_cid(b"\x00\x41") == 9999  # cidchar wins over the range
    assert cmap.to_cid(b"\x81\x41") == 634
    assert cmap.to_cid(b"\x81\x7f") is None
    assert cmap.to_unicode(b"\x00\x20") is None


def test_notdef_sections_are_ignored():
    cmap = parse_cmap(
        b"begincodespacerange <00> <FF> endcodespacerange\n"
        b"1 beginnotdefrange <00> <1F> 1 endnotdefrange\n"
        b"1 beginnotdefchar <7F> 1 endnotdefchar\n"
        b"1 begincidrange <20> <7E> 1 endcidrange"
    )
    assert cmap.to_cid(b"\x05") is None
    assert cmap.to_cid(b"\x7f") is None
    assert cmap.to_cid(b"\x21") == 2


# --------------------------------------------------------------------------- codespace and split

SHIFT_JIS = b"""/CMapName /Test-RKSJ-H def
4 begincodespacerange
<00> <80>
<8140> <9FFC>
<A0> <DF>
<E040> <FCFC>
endcodespacerange
"""


def test_codespace_mixed_one_and_two_bytes():
    cmap = parse_cmap(SHIFT_JIS)
    assert cmap.code_lengths() == {1, 2}
    assert cmap.codespace == [
        (b"\x00", b"\x80"),
        (b"\x81\x40", b"\x9f\xfc"),
        (b"\xa0", b"\xdf"),
        (b"\xe0\x40", b"\xfc\xfc"),
    ]
    assert cmap.split(b"A\x82\xa0\xb1\xe0\x40z") == [b"A", b"\x82\xa0", b"\xb1", b"\xe0\x40", b"z"]


def test_split_unmatched_bytes_follow_the_partial_match():
    cmap = parse_cmap(SHIFT_JIS)
    # 0x81 0x20: the first byte opens a 2-byte range, the second does not fit: still 2 bytes.
    assert cmap.split(b"\x81\x20A") == [b"\x81\x20", b"A"]
    # 0xFD starts no range at all: the shortest code length.
    assert cmap.split(b"\xfdA") == [b"\xfd", b"A"]


def test_split_keeps_a_short_trailing_fragment():
    cmap = parse_cmap(SHIFT_JIS)
    assert cmap.split(b"A\x82") == [b"A", b"\x82"]
    assert identity_cmap().split(b"\x00\x41\x00") == [b"\x00\x41", b"\x00"]


def test_split_partial_match_prefers_the_range_matching_more_bytes():
    cmap = parse_cmap(b"begincodespacerange <8040> <8F7F> <80A0A0> <8FFFFF> <00> <3F> endcodespacerange")
    assert cmap.split(b"\x81\x50\x81\xa5\xa5\x81\xb0\x00\x20") == [
        b"\x81\x50",  # full 2-byte match
        b"\x81\xa5\xa5",  # full 3-byte match
        b"\x81\xb0\x00",  # no match: the 3-byte range matches two bytes, the 2-byte range one
        b"\x20",
    ]
    # 0x41 starts no range: the shortest code length, 1
    assert cmap.split(b"\x41\x81") == [b"\x41", b"\x81"]


def test_multi_byte_codespace_compares_byte_by_byte():
    # <8140> <9FFC> does not contain 0x8200 although 0x8140 < 0x8200 < 0x9FFC as integers.
    cmap = parse_cmap(b"begincodespacerange <8140> <9FFC> <8200> <82FF> <00> <7F> endcodespacerange")
    assert cmap.split(b"\x82\x00\x82\x40") == [b"\x82\x00", b"\x82\x40"]
    cmap = parse_cmap(b"begincodespacerange <8140> <9FFC> <000000> <7FFFFF> endcodespacerange")
    assert cmap.split(b"\x82\x00\x00\x41") == [b"\x82\x00", b"\x00\x41"]  # best partial: 2 bytes


def test_split_of_one_byte_codespace():
    cmap = parse_cmap(b"begincodespacerange <00> <FF> endcodespacerange")
    assert cmap.split(b"abc") == [b"a", b"b", b"c"]
    assert cmap.split(b"") == []


def test_split_accepts_bytes_like_input():
    assert identity_cmap().split(bytearray(b"\x00\x41\x00\x42")) == [b"\x00\x41", b"\x00\x42"]
    assert identity_cmap().split(memoryview(b"\x00\x41")) == [b"\x00\x41"]


def test_single_width_codespace_that_does_not_cover_everything_still_slices():
    cmap = parse_cmap(b"begincodespacerange <0000> <00FF> endcodespacerange")
    assert cmap.split(b"\x01\x02\x03\x04\x05") == [b"\x01\x02", b"\x03\x04", b"\x05"]


def test_codespace_with_unequal_lengths_or_too_long_is_ignored():
    cmap = parse_cmap(
        b"begincodespacerange <00> <FFFF> <0000000000> <FFFFFFFFFF> <00> <FF> endcodespacerange"
    )
    assert cmap.codespace == [(b"\x00", b"\xff")]


@pytest.mark.parametrize(
    ("body", "width"),
    [
        (b"beginbfchar <20> <0020> <41> <0041> endbfchar", 1),
        (b"beginbfchar <0020> <0020> endbfchar beginbfrange <0041> <005A> <0041> endbfrange", 2),
        (b"beginbfchar <20> <0020> <0021> <0021> <0022> <0022> endbfchar", 2),
        (b"beginbfrange <20> <7E> <0020> endbfrange", 1),
        (b"begincidchar <20> 1 endcidchar", 1),
        (b"beginbfchar <20> <0020> <0021> <0021> endbfchar", 1),  # a tie: the shorter
        (b"", 2),
    ],
)
def test_missing_codespace_is_inferred_from_the_sources(body, width):
    cmap = parse_cmap(b"begincmap " + body + b" endcmap")
    assert cmap.code_lengths() == {width}
    assert cmap.codespace == [(b"\x00" * width, b"\xff" * width)]


def test_sources_outside_the_codespace_still_answer():
    # Real files map 1-byte codes inside a 2-byte codespace; the lookup is by exact bytes.
    cmap = tounicode(b"beginbfchar <20> <0020> endbfchar\n")
    assert cmap.to_unicode(b" ") == " "
    assert cmap.to_unicode(b"\x00\x20") is None


# --------------------------------------------------------------------------- usecmap


def _base() -> CMap:
    return parse_cmap(
        b"/CMapName /Base-H def begincodespacerange <00> <80> <8140> <9FFC> endcodespacerange\n"
        b"begincidrange <20> <7E> 1 <8140> <817E> 633 endcidrange\n"
        b"beginbfchar <41> <0041> <8140> <3000> endbfchar"
    )


def test_usecmap_base_supplies_codespace_and_mappings():
    calls = []

    def resolve(name):
        calls.append(name)
        return _base() if name == "Base-H" else None

    derived = parse_cmap(
        b"/Base-H usecmap\n/CMapName /Base-V def /WMode 1 def\n"
        b"begincidchar <8141> 7887 endcidchar\nbeginbfchar <8140> <FE30> endbfchar\n",
        usecmap=resolve,
    )
    assert calls == ["Base-H"]
    assert derived.name == "Base-V"
    assert derived.wmode == 1
    assert derived.code_lengths() == {1, 2}
    assert derived.split(b"A\x81\x41") == [b"A", b"\x81\x41"]
    assert derived.to_cid(b"A") == 34  # from the base
    assert derived.to_cid(b"\x81\x40") == 633  # from the base range
    assert derived.to_cid(b"\x81\x41") == 7887  # overridden
    assert derived.to_unicode(b"\x81\x40") == "\ufe30"  # overridden
    assert derived.to_unicode(b"A") == "A"  # from the base


def test_own_range_overrides_a_base_char():
    derived = parse_cmap(
        b"/Base-H usecmap beginbfrange <40> <42> <0061> endbfrange", usecmap=lambda n: _base()
    )
    assert derived.to_unicode(b"A") == "b"


def test_usecmap_inherits_wmode_when_not_set():
    vertical = parse_cmap(b"/CMapName /V def /WMode 1 def begincodespacerange <00> <FF> endcodespacerange")
    derived = parse_cmap(b"/V usecmap /CMapName /W def", usecmap=lambda n: vertical)
    assert derived.wmode == 1


def test_usecmap_findresource_form():
    derived = parse_cmap(
        b"/Base-H /CMap findresource usecmap", usecmap=lambda n: _base() if n == "Base-H" else None
    )
    assert derived.to_cid(b"A") == 34


@pytest.mark.parametrize("resolver", [None, lambda name: None])
def test_unknown_usecmap_is_ignored(resolver):
    cmap = parse_cmap(
        b"/Nowhere-H usecmap begincodespacerange <00> <FF> endcodespacerange beginbfchar <41> <0042> endbfchar",
        usecmap=resolver,
    )
    assert cmap.to_unicode(b"A") == "B"
    assert cmap.code_lengths() == {1}


def test_usecmap_cycle_does_not_recurse_forever():
    sources = {
        "A": b"/B usecmap /CMapName /A def begincodespacerange <00> <FF> endcodespacerange beginbfchar <41> <0041> endbfchar",
        "B": b"/A usecmap /CMapName /B def beginbfchar <42> <0042> endbfchar",
    }
    calls = []

    def resolve(name):
        calls.append(name)
        return parse_cmap(sources[name], usecmap=resolve)

    cmap = resolve("A")
    assert cmap.to_unicode(b"A") == "A"
    assert cmap.to_unicode(b"B") == "B"
    assert calls == ["A", "B", "A"]  # the second A is read, its `/B usecmap` is not followed


# --------------------------------------------------------------------------- identity


@pytest.mark.parametrize(("wmode", "name"), [(0, "Identity-H"), (1, "Identity-V")])
def test_identity_cmap(wmode, name):
    cmap = identity_cmap(wmode)
    assert (cmap.name, cmap.wmode) == (name, wmode)
    assert cmap.code_lengths() == {2}
    assert cmap.codespace == [(b"\x00\x00", b"\xff\xff")]
    assert cmap.split(b"\x00\x41\x4e\x2d") == [b"\x00\x41", b"\x4e\x2d"]
    assert cmap.to_cid(b"\x4e\x2d") == 0x4E2D
    assert cmap.to_cid(b"\xff\xff") == 0xFFFF
    assert cmap.to_cid(b"\x00\x00") == 0
    assert cmap.to_unicode(b"\x00\x41") is None


def test_identity_cmap_default_is_horizontal():
    assert identity_cmap().name == "Identity-H"


# --------------------------------------------------------------------------- syntax


def test_hex_strings_with_whitespace_and_odd_digit_counts():
    cmap = tounicode(b"beginbfchar\n<00 01> <00\n41>\n<002> <0042>\n<0003> <004>\nendbfchar\n")
    assert cmap.to_unicode(b"\x00\x01") == "A"
    assert cmap.to_unicode(b"\x00\x20") == "B"  # <002> is <0020>
    assert cmap.to_unicode(b"\x00\x03") == "@"  # <004> is <0040>


def test_comments_are_skipped():
    cmap = tounicode(
        b"% a comment <0001> <0058>\nbeginbfchar % here too\n<0001> <0041> % and here\nendbfchar\n"
    )
    assert cmap.to_unicode(b"\x00\x01") == "A"


def test_literal_strings_with_escapes_and_nesting():
    cmap = parse_cmap(
        b"/CIDSystemInfo << /Registry (Ad\\(o\\)be (nested) \\\nx) /Ordering (\\101\\t) >> def\n"
        b"/CMapName (Odd\\)Name) def\n"
        b"begincodespacerange (\\000) (\\377) endcodespacerange\n"
        b"beginbfchar (A) <0061> endbfchar"
    )
    assert cmap.name == "Odd)Name"
    assert cmap.codespace == [(b"\x00", b"\xff")]
    assert cmap.to_unicode(b"A") == "a"


def test_names_with_hex_escapes():
    cmap = parse_cmap(b"/CMapName /My#20Map def begincodespacerange <00> <FF> endcodespacerange")
    assert cmap.name == "My Map"


def test_adobe_style_cidsysteminfo_dict_with_begin_end():
    cmap = parse_cmap(
        b"%!PS-Adobe-3.0 Resource-CMap\n/CIDInit /ProcSet findresource begin\n12 dict begin\nbegincmap\n"
        b"/CIDSystemInfo 3 dict dup begin\n  /Registry (Adobe) def\n  /Ordering (Japan1) def\n"
        b"  /Supplement 6 def\nend def\n/CMapName /Test-H def\n/CMapVersion 1.0 def\n/CMapType 1 def\n"
        b"/WMode 0 def\n1 begincodespacerange <0000> <FFFF> endcodespacerange\n"
        b"1 begincidrange <0020> <007E> 1 endcidrange\nendcmap\n"
        b"CMapName currentdict /CMap defineresource pop\nend\nend\n"
    )
    assert cmap.name == "Test-H"
    assert cmap.to_cid(b"\x00\x41") == 34


def test_def_inside_a_dictionary_does_not_derail_the_parse():
    # A producer bug seen in the wild: `def` after each entry of an inline dictionary.
    cmap = parse_cmap(
        b"begincmap /CIDSystemInfo << /Registry (Arial,Bold+0) def /Ordering (T1UV) def >> def\n"
        b"/CMapName /Arial,Bold+0 def\n1 begincodespacerange <20> <ff> endcodespacerange\n"
        b"1 beginbfrange <20> <22> <0020> endbfrange endcmap"
    )
    assert cmap.name == "Arial,Bold+0"
    assert cmap.to_unicode(b"\x21") == "!"


# --------------------------------------------------------------------------- robustness


@pytest.mark.parametrize(
    "data",
    [
        b"",
        b"   \n",
        b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n",
        b"<0001> <0041>",
        b"hello world 12 [ ] << >>",
        b"\x00" * 100,
    ],
)
def test_not_a_cmap_raises_cmap_error(data):
    with pytest.raises(CMapError):
        parse_cmap(data)


def test_random_bytes_never_raise_anything_but_cmap_error():
    rng = random.Random(7)
    for _ in range(200):
        data = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 400)))
        with contextlib.suppress(CMapError):
            parse_cmap(data)


def test_every_truncation_of_a_cmap_parses():
    data = (
        HEADER + TWO_BYTE + b"2 beginbfchar\n<0001> <0041>\n<0002> <D83DDE00>\nendbfchar\n"
        b"2 beginbfrange\n<0010> <0012> <0061>\n<0020> <0021> [<0062> (x)]\nendbfrange\n"
        b"begincidrange <0030> <0031> 5 endcidrange\n" + FOOTER
    )
    for cut in range(len(data) + 1):
        try:
            cmap = parse_cmap(data[:cut])
        except CMapError:
            assert b"begincmap" not in data[:cut]
            continue
        cmap.split(b"\x00\x01\x00")
        cmap.to_unicode(b"\x00\x01")
        cmap.to_cid(b"\x00\x30")


def test_truncated_section_keeps_what_it_read():
    cmap = parse_cmap(HEADER + TWO_BYTE + b"3 beginbfchar\n<0001> <0041>\n<0002> <0042>\n<0003>")
    assert cmap.to_unicode(b"\x00\x01") == "A"
    assert cmap.to_unicode(b"\x00\x02") == "B"
    assert cmap.to_unicode(b"\x00\x03") is None


def test_stray_operands_inside_a_section_are_skipped():
    cmap = tounicode(b"beginbfchar <0001> <0041> 12 /x <0002> <0042> <0003> endbfchar\n")
    assert cmap.to_unicode(b"\x00\x01") == "A"
    assert cmap.to_unicode(b"\x00\x02") == "B"
    assert cmap.to_unicode(b"\x00\x03") is None


def test_general_path_does_not_pair_surrogates_across_entries():
    # The comment sends the section through the general tokenizer (and its bulk decoding).
    cmap = tounicode(b"beginbfchar % comment\n<0001> <D83D> <0002> <DE00> <0003> <0041> endbfchar\n")
    assert cmap.to_unicode(b"\x00\x01") == "\ufffd"
    assert cmap.to_unicode(b"\x00\x02") == "\ufffd"
    assert cmap.to_unicode(b"\x00\x03") == "A"


def test_parse_accepts_bytes_like_input():
    cmap = parse_cmap(bytearray(b"begincmap beginbfchar <41> <0061> endbfchar"))
    assert cmap.to_unicode(b"A") == "a"


def test_section_closed_by_another_operator():
    cmap = tounicode(b"beginbfchar <0001> <0041> beginbfrange <0010> <0011> <0061> endbfrange\n")
    assert cmap.to_unicode(b"\x00\x01") == "A"
    assert cmap.to_unicode(b"\x00\x11") == "b"


def test_junk_inside_sections_is_skipped():
    cmap = tounicode(
        b"beginbfchar\n<0001> <0041>\n\x01\x02\xff junk ] >> }\n<0002> <0042>\nendbfchar\n"
        b"beginbfrange\n<0010> <0011> [<0061> <0062>\nendbfrange\n"
    )
    assert cmap.to_unicode(b"\x00\x01") == "A"
    assert cmap.to_unicode(b"\x00\x02") == "B"


@pytest.mark.parametrize(
    "tail",
    [
        b" " * 100_000,
        b"%" + b"x" * 100_000,
        b"<" + b"0" * 100_000,
        b"<0" * 50_000,
        b"1" * 100_000 + b"x",
        b"(" + b"(\\" * 50_000,
        b"beginbfchar " * 20_000,
        b"beginbfchar " + b"<01> <0041> ] >> " * 20_000,
    ],
    ids=["spaces", "comment", "open-hex", "many-lt", "digits", "open-literal", "begins", "stray-closers"],
)
def test_pathological_input_is_linear(tail):
    start = time.perf_counter()
    parse_cmap(b"begincmap " + tail)
    assert time.perf_counter() - start < 2.0


# --------------------------------------------------------------------------- caching and speed


def test_lookups_are_stable_across_calls():
    cmap = tounicode(b"beginbfrange <0000> <FFFF> <0000> endbfrange beginbfchar <0001> <0041> endbfchar\n")
    for _ in range(3):
        assert cmap.to_unicode(b"\x00\x01") == "A"
        assert cmap.to_unicode(b"\x12\x34") == "\u1234"
        assert cmap.to_cid(b"\x12\x34") is None


def test_large_bfchar_cmap_parses_in_linear_time():
    def cmap_of(entries: int) -> bytes:
        lines = b"".join(b"<%04X> <%04X>\n" % (i, 0x4E00 + i % 20000) for i in range(entries))
        return HEADER + TWO_BYTE + b"%d beginbfchar\n" % entries + lines + b"endbfchar\n" + FOOTER

    def best_time(data: bytes) -> float:
        times = []
        for _ in range(3):
            start = time.perf_counter()
            parse_cmap(data)
            times.append(time.perf_counter() - start)
        return min(times)

    small, large = cmap_of(8192), cmap_of(65536)
    parse_cmap(small)  # warm up imports and regex caches
    assert parse_cmap(large).to_unicode(b"\xff\xff") == chr(0x4E00 + 65535 % 20000)
    # Eight times the entries: about eight times the time (a quadratic parser: 64). A ratio
    # of two timings in one run, so a busy machine slows both alike.
    assert best_time(large) < 24 * best_time(small)


# --------------------------------------------------------------------------- real files

SHARED = Path(__file__).resolve().parents[2].parent / "shared"
CORPUS = SHARED / "corpus"
REAL_FILES = [
    "cjk-*.pdf",
    "tex-*.pdf",
    "emoji-*.pdf",
    "doc-arabic-word-rtl.pdf",
    "dupchars-arabic-ilovepdf.pdf",
]


def _tounicode_streams(pattern: str) -> list[tuple[str, bytes]]:
    pikepdf = pytest.importorskip("pikepdf")
    if not CORPUS.is_dir():
        pytest.skip(f"no corpus at {CORPUS}")
    paths = sorted(CORPUS.glob(pattern))
    if not paths:
        pytest.skip(f"no {pattern} in {CORPUS}")
    found = []
    for path in paths:
        try:
            pdf = pikepdf.open(path)
        except Exception:  # damaged or encrypted: not this module's concern
            continue
        with pdf:
            for page in pdf.pages:
                resources = page.obj.get("/Resources")
                fonts = resources.get("/Font") if resources is not None else None
                if fonts is None:
                    continue
                for key, font in fonts.items():
                    stream = font.get("/ToUnicode")
                    if isinstance(stream, pikepdf.Stream):
                        try:
                            found.append((f"{path.name} {key}", stream.read_bytes()))
                        except Exception:
                            continue
    if not found:
        pytest.skip(f"no ToUnicode streams in {pattern}")
    return found


@pytest.mark.parametrize("pattern", REAL_FILES)
def test_real_tounicode_cmaps_parse(pattern):
    streams = _tounicode_streams(pattern)
    mapped = 0
    for label, data in streams:
        cmap = parse_cmap(data)
        assert cmap.code_lengths() <= {1, 2, 3, 4}, label
        # Every bfchar source of the file answers (a crude cross-check with a regex).
        for src, dst in _bfchar_pairs(data)[:50]:
            if src not in _duplicated_sources(data) and dst.strip(b"0"):
                assert cmap.to_unicode(src) is not None, (label, src)
                mapped += 1
    assert mapped or all(b"beginbf" not in data for _, data in streams)


def _bfchar_pairs(data: bytes) -> list[tuple[bytes, bytes]]:
    import re

    pairs = []
    for section in re.findall(rb"beginbfchar(.*?)endbfchar", data, re.S):
        for src, dst in re.findall(rb"<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>", section):
            pairs.append((bytes.fromhex(src.decode()), dst))
    return pairs


def _duplicated_sources(data: bytes) -> set[bytes]:
    seen: set[bytes] = set()
    dup: set[bytes] = set()
    for src, _ in _bfchar_pairs(data):
        (dup if src in seen else seen).add(src)
    return dup


def test_real_surrogate_pairs_decode_to_astral_chars():
    streams = _tounicode_streams("emoji-*.pdf")
    astral = 0
    for _label, data in streams:
        cmap = parse_cmap(data)
        for code in _all_sources(data):
            text = cmap.to_unicode(code)
            if text and any(ord(c) > 0xFFFF for c in text):
                astral += 1
            assert text is None or not any(0xD800 <= ord(c) <= 0xDFFF for c in text)
    assert astral, "the emoji files map some codes outside the BMP"


def _all_sources(data: bytes) -> list[bytes]:
    return [src for src, _ in _bfchar_pairs(data)]
