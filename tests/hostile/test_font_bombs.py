"""Embedded font programs that declare huge character maps: read within bounds, quietly.

fontTools expands a 'cmap' subtable into one entry per code it declares; a few hundred bytes
can declare sixteen million. The programs are built here (``hostile.font_bombs``).
"""

from __future__ import annotations

import io
import logging
import struct
import subprocess
import sys
import tracemalloc
from pathlib import Path
from typing import Any

import pytest

import glyphweave
from glyphweave.core.fontinfo import FLAG_SYMBOLIC, FontInfo
from glyphweave.pdf.fonts import ParsedPrograms, ProgramMemo
from glyphweave.tables import sfnt
from glyphweave.tables.sfnt import MAX_SUBTABLE_CODES, bounded_cmaps, fonttools_log_to_debug

from .font_bombs import cmap_bomb, page_of_bombs, truetype_with_cmap

LIMIT_WARNING = ("limit reached: cmap subtable (3,10) format 12 declares 16,777,216 codes, past the character map "
                 "limit of 262,144 codes a subtable and 1,048,576 a program: left unread")


def _info(data: bytes) -> FontInfo:
    return FontInfo(key=(1, 0), base_font="Bomb", subtype="TrueType", flags=FLAG_SYMBOLIC, embedded=True,
                    font_file_kind="FontFile2", font_file_loader=lambda: data)


def _peak_mb(action: Any) -> tuple[Any, float]:
    tracemalloc.start()
    try:
        result = action()
        return result, tracemalloc.get_traced_memory()[1] / (1 << 20)
    finally:
        tracemalloc.stop()


# -- counting what a subtable declares ---------------------------------------------------------


def _cmap_table(data: bytes) -> bytes:
    (start, end), = [(s, e) for tag, s, e in sfnt._cmap_tables(data) if tag == "cmap"]
    return data[start:end]


def _declared(data: bytes) -> list[tuple[int, int]]:
    table = _cmap_table(data)
    count = struct.unpack(">H", table[2:4])[0]
    offsets = [struct.unpack(">L", table[8 + 8 * i : 12 + 8 * i])[0] for i in range(count)]
    return [sfnt._declared_codes(table, offset) for offset in offsets]


@pytest.mark.parametrize("fmt", [4, 6, 12, 13])
def test_a_subtable_declares_the_codes_fonttools_reads(fmt: int):
    glyphs = (".notdef", "A", "B", "C")
    mapping = {0x41: "A", 0x42: "B", 0x43: "C", 0x61: "A"} if fmt != 13 else {c: "B" for c in range(0x30, 0x3A)}
    data = truetype_with_cmap(fmt, glyphs=glyphs, mapping=mapping)
    [(found_fmt, codes)] = _declared(data)
    assert found_fmt == fmt
    if fmt == 4:
        assert codes == 3 + 1 + 1  # segments 41-43 and 61, and the closing 0xFFFF
    elif fmt == 6:
        assert codes == 0x61 - 0x41 + 1  # a format 6 table runs from its first code to its last
    else:
        assert codes == len(mapping)


def test_the_groups_of_a_format_12_bomb_are_counted_without_expanding_them():
    [(fmt, codes)] = _declared(cmap_bomb())
    assert (fmt, codes) == (12, 1 << 24)


def test_overlapping_format_4_segments_each_count():
    data = bytearray(truetype_with_cmap(4, glyphs=(".notdef", "A", "B"), mapping={0x41: "A", 0x61: "B"}))
    table = _cmap_table(bytes(data))
    start = bytes(data).index(table)
    sub = start + struct.unpack(">L", table[8:12])[0]
    segments = struct.unpack(">H", data[sub + 6 : sub + 8])[0] // 2
    for index in range(segments - 1):  # every segment but the closing one over the whole BMP
        struct.pack_into(">H", data, sub + 14 + 2 * index, 0xFFFE)
        struct.pack_into(">H", data, sub + 16 + 2 * segments + 2 * index, 0)
    [(fmt, codes)] = _declared(bytes(data))
    assert (fmt, codes) == (4, (segments - 1) * 0xFFFF + 1)


def test_format_10_and_14_and_2_counts():
    fmt10 = struct.pack(">HHLLLL", 10, 0, 20 + 2 * 3, 0, 0x10000, 3) + b"\x00\x01" * 3
    assert sfnt._declared_codes(fmt10, 0) == (10, 3)
    default_uvs = struct.pack(">L", 2) + bytes([0, 0x30, 0x00, 9]) + bytes([0, 0x41, 0x00, 0])  # 10 + 1 codes
    other_uvs = struct.pack(">L", 2) + b"\x00" * 10
    records = bytes([0xFE, 0x0E, 0x00]) + struct.pack(">LL", 21, 21 + len(default_uvs))
    fmt14 = struct.pack(">HLL", 14, 0, 1) + records + default_uvs + other_uvs
    fmt14 = fmt14[:2] + struct.pack(">L", len(fmt14)) + fmt14[6:]
    assert sfnt._declared_codes(fmt14, 0) == (14, 11 + 2)
    keys = [0] * 256
    keys[0x81] = 8  # high byte 0x81 uses subheader 1
    subheaders = struct.pack(">HHhH", 0, 0, 0, 0) + struct.pack(">HHhH", 0x40, 100, 0, 2)
    fmt2 = struct.pack(">HHH", 2, 0, 0) + struct.pack(">256H", *keys) + subheaders + b"\x00" * 200
    fmt2 = fmt2[:2] + struct.pack(">H", len(fmt2)) + fmt2[4:]
    assert sfnt._declared_codes(fmt2, 0) == (2, 255 + 100)


# -- what is taken out -------------------------------------------------------------------------


def test_a_program_within_the_bounds_is_returned_unchanged():
    data = truetype_with_cmap(12, glyphs=(".notdef", "A"), mapping={c: "A" for c in range(0x4E00, 0x4E00 + 50_000)})
    kept, dropped = bounded_cmaps(data)
    assert kept is data and dropped == []


def test_a_bomb_is_taken_out_and_the_other_subtables_stay():
    data = cmap_bomb(extra={(3, 1): {0x41: "A"}}, post_names=True)
    kept, dropped = bounded_cmaps(data)
    assert len(kept) == len(data)  # only the directory changes
    assert [item.describe() for item in dropped] == ["cmap subtable (3,10) format 12 declares 16,777,216 codes"]
    from fontTools.ttLib import TTFont

    font = TTFont(io.BytesIO(kept), lazy=True)
    assert [(t.platformID, t.platEncID, t.format) for t in font["cmap"].tables] == [(3, 1, 4)]
    assert font["cmap"].tables[0].cmap == {0x41: "A"}


def test_the_program_total_bounds_subtables_within_their_own_bound():
    mapping = {c: "A" for c in range(0x4E00, 0x4E00 + 600)}
    data = truetype_with_cmap(12, mapping=mapping, extra={(3, 1): {0x41: "A"}})
    kept, dropped = bounded_cmaps(data, subtable_codes=1000, font_codes=500)
    # Records are sorted by platform: (3,1) comes first and fits, (3,10) with 600 codes does not.
    assert [(d.platform_id, d.encoding_id, d.codes) for d in dropped] == [(3, 10, 600)]
    assert bounded_cmaps(data, subtable_codes=1000, font_codes=700)[1] == []
    assert bounded_cmaps(data, subtable_codes=599, font_codes=10_000)[1] == dropped


@pytest.mark.parametrize("data", [b"", b"\x00\x01\x00\x00", b"OTTO" + b"\xff" * 40, b"ttcf\x00", b"%!PS-AdobeFont",
                                  b"\x00\x01\x00\x00\x00\x01" + b"\x00" * 6 + b"cmap" + b"\x00" * 4 + b"\xff" * 8])
def test_damaged_or_foreign_data_is_returned_as_it_is(data: bytes):
    assert bounded_cmaps(data) == (data, [])


# -- the decoder and the outlines ----------------------------------------------------------


def test_the_decoder_parses_a_bomb_in_bounded_memory_keeping_the_other_cmap():
    from glyphweave.plugins.decoders.embedded_font import load_program

    info = _info(cmap_bomb(extra={(3, 1): {0x41: "A"}}))
    program, peak = _peak_mb(lambda: load_program(info))
    assert program is not None and program.unicode_cmap == {0x41: "A"}
    assert peak < 20, f"{peak:.0f} MB"


def test_the_outline_reader_parses_a_bomb_in_bounded_memory():
    from glyphweave.glyphmap.outline import draw_glyph

    info = _info(cmap_bomb(extra={(3, 1): {0x41: "A"}}, post_names=True))
    drawing, peak = _peak_mb(lambda: draw_glyph(info, b"A", None))
    assert drawing is not None and drawing.path.startswith("M")
    assert peak < 20, f"{peak:.0f} MB"


def test_one_warning_per_font_naming_the_limit_and_the_other_text_kept():
    with glyphweave.open(page_of_bombs(2)) as doc:
        text = doc.text()
        warnings = [str(warning) for warning in doc.warnings()]
        assert {(w.kind, w.limit, w.source) for w in doc.warnings()} == {("limit", "cmap_codes", "font (5, 0)"),
                                                                         ("limit", "cmap_codes", "font (6, 0)")}
    assert "Before the fonts" in text and "After the fonts" in text
    assert warnings == [f"page 1: font ({n}, 0): font program: {LIMIT_WARNING}" for n in (5, 6)]


def test_eight_bombs_on_a_page_in_a_subprocess(tmp_path: Path):
    pdf = tmp_path / "bombs.pdf"
    pdf.write_bytes(page_of_bombs(8))
    code = ("import sys, glyphweave\n"
            "with glyphweave.open(sys.argv[1]) as doc:\n"
            "    text = doc.text(); warnings = [str(w) for w in doc.warnings()]\n"
            "assert 'Before the fonts' in text and 'After the fonts' in text, text\n"
            f"assert len(warnings) == 8 and all(w.endswith({LIMIT_WARNING!r}) for w in warnings), warnings\n")
    run = ("import resource, subprocess, sys\n"
           "done = subprocess.run([sys.executable, '-c', sys.argv[1], sys.argv[2]], capture_output=True, text=True)\n"
           "sys.stderr.write(done.stderr); sys.stdout.write(done.stdout)\n"
           "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss); sys.exit(done.returncode)\n")
    done = subprocess.run([sys.executable, "-c", run, code, str(pdf)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""  # nothing from fontTools
    peak_kb = int(done.stdout.strip())
    assert peak_kb <= 300 * 1024, f"peak RSS {peak_kb // 1024} MB"


# -- fontTools' log ------------------------------------------------------------------------


def _noisy_program() -> bytes:
    """A TrueType whose format 12 group runs past U+10FFFF (33 codes): fontTools reads it,
    and logs a warning that it cut the group short."""
    data = bytearray(truetype_with_cmap(12, extra={(3, 1): {0x41: "A"}}))
    from .font_bombs import _first_group

    group = _first_group(bytes(data))
    data[group : group + 8] = struct.pack(">LL", 0x10FFF0, 0x110010)
    return bytes(data)


def _fonttools_logs_it(data: bytes) -> bool:
    """Whether this fontTools version logs a line reading ``data``'s cmap (4.68 warns that it
    cut the group short; 4.65, which Python 3.10 gets, cuts it without a word)."""
    from fontTools.ttLib import TTFont

    seen: list[str] = []

    class Catch(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            seen.append(record.getMessage())

    catch = Catch()
    logger = logging.getLogger("fontTools")
    logger.addHandler(catch)
    try:
        TTFont(io.BytesIO(data))["cmap"].tables[0].cmap  # noqa: B018 (read for its log line)
    finally:
        logger.removeHandler(catch)
    return any("truncated" in line for line in seen)


def test_fonttools_log_lines_go_to_the_debug_log_and_nothing_stays_attached(caplog: pytest.LogCaptureFixture):
    from glyphweave.plugins.decoders.embedded_font import load_program

    if not _fonttools_logs_it(_noisy_program()):
        pytest.skip("this fontTools version logs nothing for the noisy program")

    handlers = list(logging.getLogger("fontTools").handlers)
    with caplog.at_level(logging.DEBUG, logger="glyphweave.tables.sfnt"):
        assert load_program(_info(_noisy_program())) is not None
    assert any(r.name == "glyphweave.tables.sfnt" and r.levelno == logging.DEBUG and "truncated" in r.getMessage()
               for r in caplog.records), caplog.records
    assert logging.getLogger("fontTools").handlers == handlers


def test_fonttools_log_lines_never_reach_standard_error(tmp_path: Path):
    if not _fonttools_logs_it(_noisy_program()):
        pytest.skip("this fontTools version logs nothing for the noisy program")
    program = tmp_path / "noisy.ttf"
    program.write_bytes(_noisy_program())
    code = ("import sys\n"
            "from glyphweave.core.fontinfo import FontInfo\n"
            "from glyphweave.plugins.decoders.embedded_font import load_program\n"
            "data = open(sys.argv[1], 'rb').read()\n"
            "info = FontInfo(key=(1, 0), base_font='X', embedded=True, font_file_kind='FontFile2',\n"
            "                font_file_loader=lambda: data)\n"
            "assert load_program(info) is not None\n"
            "from fontTools.ttLib import TTFont\n"
            "import io\n"
            "TTFont(io.BytesIO(data))['cmap'].tables[0].cmap\n"  # the same read, unguarded, does print
            )
    done = subprocess.run([sys.executable, "-c", code, str(program)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stderr.count("truncated") == 1  # the unguarded read's line only


def test_the_scoped_handler_takes_only_its_own_threads_records():
    import threading

    seen: list[str] = []

    class Catch(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            seen.append(record.getMessage())

    catch = Catch()
    sfnt.log.addHandler(catch)
    previous = sfnt.log.level
    sfnt.log.setLevel(logging.DEBUG)
    try:
        with fonttools_log_to_debug():
            other = threading.Thread(target=lambda: logging.getLogger("fontTools.x").warning("other thread"))
            other.start()
            other.join()
            logging.getLogger("fontTools.x").warning("this thread")
    finally:
        sfnt.log.removeHandler(catch)
        sfnt.log.setLevel(previous)
    assert seen == ["fontTools (warning): this thread"]


# -- the document's parsed programs --------------------------------------------------------------


class _Parsed:
    def __init__(self, size: int) -> None:
        self.estimated_bytes = size


def test_parsed_programs_past_the_budget_drop_the_least_recently_used():
    programs = ParsedPrograms(100)
    memos = [ProgramMemo(programs) for _ in range(3)]
    memos[0]["embedded-font"] = _Parsed(40)
    memos[1]["embedded-font"] = _Parsed(40)
    memos[0]["other"] = "a plain value is not counted"
    assert memos[0].get("embedded-font") is not None  # used again: memos[1]'s is now the oldest
    memos[2]["embedded-font"] = _Parsed(40)
    assert "embedded-font" in memos[0] and "embedded-font" not in memos[1] and "embedded-font" in memos[2]
    assert programs.used == 80 and len(programs) == 2
    memos[2]["embedded-font"] = "unusable"  # replaced by something that is not a program
    assert programs.used == 40
    programs.forget(memos[0])
    assert programs.used == 0 and len(programs) == 0
    memos[1]["big"] = _Parsed(1000)  # alone past the budget: the newest always stays
    assert memos[1]["big"].estimated_bytes == 1000


def test_only_the_counted_programs_are_reported_on_use_and_removal():
    programs = ParsedPrograms(100)
    memo, other = ProgramMemo(programs), ProgramMemo(programs)
    memo["family"] = "symbol"  # a plain value: never the budget's
    memo["program"] = _Parsed(30)
    other["program"] = _Parsed(30)
    assert memo.get("family") == "symbol" and memo["family"] == "symbol" and memo.get("absent") is None
    assert memo._tracked == {"program"}
    memo.get("program")  # used again: other's is now the oldest
    memo["second"] = _Parsed(50)  # 110 > 100: other's program goes, and stops being tracked
    assert "program" not in other and other._tracked == set() and programs.used == 80
    del memo["program"]
    assert programs.used == 50 and memo._tracked == {"second"}
    assert memo.pop("second").estimated_bytes == 50 and programs.used == 0 and len(programs) == 0
    assert memo.pop("absent", None) is None and memo.pop("family") == "symbol"


def test_a_document_keeps_its_parsed_programs_within_the_budget(monkeypatch: pytest.MonkeyPatch):
    from glyphweave.pdf.fonts import FontLoader

    program = truetype_with_cmap(4, mapping={0x41: "A"}, platform=(3, 0))
    pdf = page_of_bombs(8, program)
    with glyphweave.open(pdf) as doc:
        expected = doc.text()
        assert len(doc._fonts.programs) == 8
    one = FontProgramSize.of(program)
    monkeypatch.setattr(FontLoader, "program_budget", 2 * one)
    with glyphweave.open(pdf) as doc:
        assert doc.text() == expected
        assert len(doc._fonts.programs) == 2 and doc._fonts.programs.used <= 2 * one


def test_a_document_with_parsed_programs_is_freed_without_the_cyclic_gc():
    import gc
    import weakref

    pdf = page_of_bombs(2, truetype_with_cmap(4, mapping={0x41: "A"}, platform=(3, 0)))
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        doc = glyphweave.open(pdf)
        doc.text()
        assert len(doc._fonts.programs) == 2
        programs = weakref.ref(doc._fonts.programs)
        doc.close()
        del doc
        assert programs() is None
    finally:
        if was_enabled:
            gc.enable()


class FontProgramSize:
    @staticmethod
    def of(program: bytes) -> int:
        from glyphweave.plugins.decoders._fontprogram import parse_font_program

        parsed = parse_font_program("FontFile2", program)
        assert parsed is not None
        return parsed.estimated_bytes


def test_the_bound_is_above_every_assigned_character():
    assert MAX_SUBTABLE_CODES > 154_998  # Unicode 16.0
