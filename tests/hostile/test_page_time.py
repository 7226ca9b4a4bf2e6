"""``page_seconds`` covers the whole page: reading its streams, interpreting them, the filters
and the assembler. Past it the page keeps what it has, skips what is left of its filters,
is assembled in paint order, and warns once.

No test measures a duration: a fake clock drives the stage-level tests, and the end-to-end
ones use a limit so small (1 ns) that it is past at the first look, or a filter that waits
for the clock itself, so what happens does not depend on the machine's speed.
"""

from __future__ import annotations

import io
import math
import time
import zlib
from collections.abc import Sequence

import pikepdf
import pytest
from pikepdf import Dictionary, Name

import glyphweave
from glyphweave.api import build_pipeline
from glyphweave.cli import EXIT_LIMIT, main
from glyphweave.components import Catalog, Profile
from glyphweave.core.glyphtable import GlyphTable
from glyphweave.guard.clock import PageClock, TimeLimitReached
from glyphweave.guard.limits import LIMIT
from glyphweave.guard.report import WarningRecord
from glyphweave.pdf.streams import ReadStopped, read_bounded
from glyphweave.plugin import Assembler, Filter, PageContext
from glyphweave.plugins.assemblers.columns import ColumnsAssembler
from glyphweave.plugins.assemblers.layout import LayoutAssembler
from glyphweave.plugins.filters.dedup import DedupFilter
from glyphweave.plugins.filters.overprint import suspects
from glyphweave.testing import add_text, fresh_plugin_manager, make_plugin, page_context, text_of
from glyphweave.testing.pdfs import helvetica, make_pdf

from .filter_bombs import with_content

NOW = [0.0]
"""The fake clock the stage-level tests read (and the test filters move)."""


@pytest.fixture(autouse=True)
def _fake_time() -> None:
    NOW[0] = 0.0


def _clock(seconds: float | None = 1.0) -> PageClock:
    return PageClock(seconds, now=lambda: NOW[0])


class SlowFilter(Filter):
    """Takes two seconds of the fake clock and never looks at it (keeps everything)."""

    NAME = "slow"

    def apply(self, page: PageContext, indices: Sequence[int]) -> list[int]:
        NOW[0] += 2.0
        return list(indices)


class CheckingFilter(Filter):
    """Drops every glyph, but takes two seconds of the fake clock first and then checks it."""

    NAME = "checking"

    def apply(self, page: PageContext, indices: Sequence[int]) -> list[int]:
        NOW[0] += 2.0
        page.check_time()
        return []


class DropFirst(Filter):
    """Drops the first glyph (to show whether it ran)."""

    NAME = "drop-first"

    def apply(self, page: PageContext, indices: Sequence[int]) -> list[int]:
        return list(indices[1:])


class CheckingAssembler(Assembler):
    """Takes two seconds of the fake clock and checks it."""

    NAME = "checking-assembler"

    def assemble(self, page: PageContext, indices: Sequence[int]) -> str:
        page.note("assembler", self.NAME)
        NOW[0] += 2.0
        page.check_time()
        return "never"


class Stall(Filter):
    """Waits (for real) until the page's time is up, if it has a limit; ignores it otherwise."""

    NAME = "stall"

    def apply(self, page: PageContext, indices: Sequence[int]) -> list[int]:
        for _ in range(10_000):
            if page.time_left() in (0.0, math.inf):
                break
            time.sleep(0.005)
        return list(indices)


PLUGIN = make_plugin(name="time-test", filters=[SlowFilter, CheckingFilter, DropFirst, Stall],
                     assemblers=[CheckingAssembler])


def _pipeline(filters: list[str], assembler: str = "reading") -> object:
    pm = fresh_plugin_manager(PLUGIN, entrypoints=True)
    names = ", ".join(f'"{name}"' for name in filters)
    toml = (f'[profile]\nname = "t"\ndecoders = ["tounicode", "encoding", "standard-fallback"]\n'
            f'filters = [{names}]\nassembler = "{assembler}"\n')
    return build_pipeline(Profile.from_toml(toml, Catalog.from_plugin_manager(pm)), pm)


def _table(*lines: str) -> GlyphTable:
    table = GlyphTable()
    for k, line in enumerate(lines):
        add_text(table, line, 72, 700 - 14 * k)
    return table


# -- the clock ------------------------------------------------------------------------------


def test_the_clock_runs_only_inside_the_stages():
    clock = _clock(5.0)
    with clock.running():
        NOW[0] += 2.0
        with clock.running():  # nested: counted once
            NOW[0] += 1.0
    NOW[0] += 100.0  # between stages: not counted
    assert clock.time_left() == 2.0 and not clock.expired()
    with clock.running():
        NOW[0] += 1.5
        assert not clock.expired()
        NOW[0] += 1.0
        assert clock.time_left() == 0.0 and clock.expired()
        with pytest.raises(TimeLimitReached):
            clock.check()


def test_the_clock_says_what_was_given_up_in_one_warning():
    clock = _clock(5.0)
    assert clock.warning() is None
    clock.cut("content cut short")
    clock.cut("filters skipped")
    clock.cut("content cut short")
    warning = clock.warning()
    assert warning is not None and (warning.kind, warning.limit) == ("limit", "page_seconds")
    assert warning.message == f"{LIMIT}page time limit of 5 s: content cut short; filters skipped"


def test_without_a_limit_nothing_is_timed():
    clock = _clock(None)
    with clock.running():
        NOW[0] += 1e9
    assert clock.time_left() == math.inf and not clock.expired() and clock.deadline() is None
    page = page_context(_table("x"))
    page.check_time()
    assert page.time_left() == math.inf


# -- the pipeline ---------------------------------------------------------------------------


def test_a_filter_that_ignores_the_clock_is_timed_between_stages():
    pipeline = _pipeline(["slow", "drop-first"])
    ctx = page_context(_table("Hello"), clock=_clock())
    with ctx.clock.running():
        visible, dropped = pipeline.filter_page(ctx)
        text = pipeline.assemble(pipeline.assembler, ctx, visible)
    assert visible == [0, 1, 2, 3, 4] and dropped == {"slow": 0}  # drop-first never ran
    assert text == "Hello\n" and ctx.notes["served"] == "paint-order"
    assert _said(ctx.clock) == (f"{LIMIT}page time limit of 1 s: filters skipped, glyphs left in paint order: "
                                   "drop-first; text in paint order instead of by assembler 'reading'")


def test_a_filter_that_stops_has_its_work_dropped():
    pipeline = _pipeline(["drop-first", "checking", "slow"])
    ctx = page_context(_table("Hello"), clock=_clock())
    with ctx.clock.running():
        visible, dropped = pipeline.filter_page(ctx)
    assert visible == [1, 2, 3, 4] and dropped == {"drop-first": 1}
    assert "filters skipped, glyphs left in paint order: checking, slow" in _said(ctx.clock)


def test_an_assembler_that_stops_gives_way_to_paint_order():
    pipeline = _pipeline([], "checking-assembler")
    ctx = page_context(_table("Hello", "world"), clock=_clock())
    with ctx.clock.running():
        text = pipeline.assemble(pipeline.assembler, ctx, [0, 1, 2, 3, 4, 5, 6, 7, 8, 9])
    assert text == "Hello\nworld\n"
    assert ctx.notes == {"assembler": "checking-assembler", "served": "paint-order", "reason": "page time limit"}
    assert _said(ctx.clock) == (f"{LIMIT}page time limit of 1 s: text in paint order instead of by "
                                   "assembler 'checking-assembler'")


def test_in_time_nothing_changes():
    pipeline = _pipeline(["drop-first"], "checking-assembler")
    ctx = page_context(_table("Hello"), clock=_clock(10.0))
    with ctx.clock.running():
        visible, _ = pipeline.filter_page(ctx)
        assert pipeline.assemble(pipeline.assembler, ctx, visible) == "never"
    assert visible == [1, 2, 3, 4] and ctx.clock.warning() is None


# -- the built-in components look at the clock ------------------------------------------------


def _stacked(runs: int) -> GlyphTable:
    table = GlyphTable()
    for _ in range(runs):
        add_text(table, "ab", 72, 700)
    return table


def test_dedup_checks_the_clock_in_its_sweep_and_its_exact_test():
    expired = _clock(1.0)
    with expired.running():
        NOW[0] += 2.0
        with pytest.raises(TimeLimitReached):
            DedupFilter().apply(page_context(_stacked(3), clock=expired), [0, 1, 2, 3, 4, 5])
    looks = []

    def check() -> None:
        looks.append(1)
        raise TimeLimitReached

    with pytest.raises(TimeLimitReached):  # 2,000 runs on one spot: 65,536 comparisons come soon
        # (with the pairs kept unbounded: the sweep gives up on them sooner otherwise)
        suspects(_stacked(2000), 0.1, 0.2, 0.05, 0.99, check_time=check, pairs_per_run=10**9)
    assert looks == [1]
    assert set(suspects(_stacked(2000), 0.1, 0.2, 0.05, 0.99, check_time=lambda: None)) == set(range(4000))


@pytest.mark.parametrize("assembler", [LayoutAssembler, ColumnsAssembler])
def test_the_layout_assemblers_check_the_clock(assembler):
    expired = _clock(1.0)
    table = _table("one", "two", "three")
    with expired.running():
        NOW[0] += 2.0
        with pytest.raises(TimeLimitReached):
            assembler().assemble(page_context(table, clock=expired), range(len(table)))
    assert text_of(assembler().assemble(page_context(table, clock=_clock(1.0)), range(len(table)))).split() == [
        "one", "two", "three"]


# -- whole pages --------------------------------------------------------------------------


def _one_spot(copies: int) -> bytes:
    """``Before``, then ``word`` painted ``copies`` times on one spot."""
    return make_pdf(b"BT /F1 12 Tf 72 720 Td (Before) Tj ET BT /F1 12 Tf "
                    + b"1 0 0 1 72 700 Tm (word) Tj " * copies + b"ET")


def _said(clock: PageClock) -> str:
    """The clock's warning, as the page says it ("" when there is none)."""
    warning = clock.warning()
    return "" if warning is None else warning.message


def _time_warnings(warnings: Sequence[WarningRecord]) -> list[str]:
    return [w.message for w in warnings if w.limit == "page_seconds"]


def test_a_stacked_page_out_of_time_keeps_its_text_and_warns_once():
    with glyphweave.open(_one_spot(20_000), limits={"page_seconds": 1e-9}) as doc:
        page = doc.pages[0]
        text = page.text()
        stats = page.stats
    assert text.startswith("Before\nwordword")
    assert 2_000 <= stats.glyphs < 80_000 and stats.dropped == {}
    assert stats.assembly["served"] == "paint-order"
    [warning] = _time_warnings(stats.warnings)
    # The stream is read a 64 KB piece at a time: the clock is asked before the second.
    assert warning.startswith(f"{LIMIT}page time limit of 1e-09 s: page content decoded only to 0.1 MB; "
                              "content cut short after ")
    assert warning.endswith("glyphs; filters skipped, glyphs left in paint order: visible-box, dedup; "
                            "text in paint order instead of by assembler 'auto'")
    assert len([w for w in stats.warnings if w.kind == "limit"]) == 1


def test_strict_exits_7_on_a_page_out_of_time(tmp_path):
    pdf = tmp_path / "stacked.pdf"
    pdf.write_bytes(_one_spot(5_000))
    out = tmp_path / "out.txt"
    assert main(["extract", "--strict", "--quiet", "--page-seconds", "1e-9", str(pdf), "-o", str(out)]) == EXIT_LIMIT
    assert out.read_text(encoding="utf-8").startswith("Before\nword")
    assert main(["extract", "--strict", "--quiet", str(pdf), "-o", str(out)]) == 0
    assert out.read_text(encoding="utf-8") == "Before\nword\n\f"


def test_a_filter_that_waits_for_the_clock_leaves_dedup_out():
    pm = fresh_plugin_manager(PLUGIN, entrypoints=True)
    toml = '[profile]\nname = "t"\nextends = "default"\n[profile.filters]\nprepend = ["stall"]\n'
    profile = Profile.from_toml(toml, Catalog.from_plugin_manager(pm))
    bold = make_pdf(b"BT /F1 12 Tf 72 700 Td (Bold) Tj ET BT /F1 12 Tf 72.2 700 Td (Bold) Tj ET",
                    fonts={"F1": helvetica(widths=True)})
    with glyphweave.open(bold, profile=profile, plugin_manager=pm, limits={"page_seconds": 0.05}) as doc:
        page = doc.pages[0]
        text = page.text()
        warnings = page.stats.warnings
    with glyphweave.open(bold, profile=profile, plugin_manager=pm) as doc:
        assert doc.pages[0].text() == "Bold\n"  # no limit: the stall waits for nothing
    assert text.count("Bold") == 2  # painted twice, shown twice: dedup did not run
    [warning] = _time_warnings(warnings)
    assert "dedup; text in paint order instead of by assembler 'auto'" in warning


def _paeth_page(mb: int) -> bytes:
    """A page whose content is ``Before`` and then ``mb`` MB of PNG Paeth rows: decoded a
    byte at a time in Python, the slowest filter there is."""
    head = b"BT /F1 12 Tf 72 700 Td (Before) Tj ET"
    columns = 80
    head += b" " * (-len(head) % columns)
    rows = b"".join(b"\x00" + head[i:i + columns] for i in range(0, len(head), columns))
    rows += (b"\x04" + bytes(columns)) * (mb * (1 << 20) // columns)
    return with_content(zlib.compress(rows), Name.FlateDecode, Dictionary(Predictor=12, Columns=columns))


def test_a_slow_predictor_stops_at_the_page_time_keeping_what_it_decoded():
    with glyphweave.open(_paeth_page(4), limits={"page_seconds": 1e-9}) as doc:
        page = doc.pages[0]
        text = page.text()
        warnings = page.stats.warnings
    assert "Before" in text
    [warning] = _time_warnings(warnings)
    assert "page content decoded only to 0.1 MB" in warning


def test_the_stream_reader_asks_before_each_further_piece():
    pdf = pikepdf.open(io.BytesIO(_paeth_page(1)))
    stream = pdf.pages[0].obj.Contents
    asked = []

    def stop() -> bool:
        asked.append(1)
        return len(asked) >= 3

    with pytest.raises(ReadStopped) as stopped:
        read_bounded(stream, 64 << 20, stop)
    assert len(asked) == 3 and 0 < len(stopped.value.data) < 1 << 20
    assert stopped.value.data.startswith(b"BT /F1 12 Tf 72 700 Td (Before) Tj ET")
    data, cut, damage = read_bounded(stream, 64 << 20)
    assert data.startswith(stopped.value.data) and not cut and damage is None
