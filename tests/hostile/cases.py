"""The catalogue of hostile cases: every attack of issue 26 and of the first hostile-input
round, each a builder (the file is made when needed, never stored) and what a bounded run
of ``glyphweave extract`` on it must show.

The bounds every case is held to (``tests/hostile/test_hostile_cases.py``, and
``benchmarks/hostile.py`` for the figures): under a 4 GB address-space cap, a peak resident
memory of at most 1 GB and at most 60 seconds; the text before the attack kept; exit status 0,
and ``strict`` under ``--strict``; exactly one warning line naming the limit.
"""

from __future__ import annotations

import functools
from collections.abc import Callable

import attrs

from glyphweave.exits import EXIT_LIMIT, EXIT_WARNINGS

from . import files, filter_bombs, font_bombs, operand_bombs, page_trees, record_floods, structure_trees

PEAK_MB = 1024
"""The largest peak resident memory a case may reach (MB)."""

SECONDS = 60
"""The longest a case may take, measured by the benchmark only (tests assert no times)."""

BOMB_MB = 640
"""How far the filter bombs inflate: decoded whole (twice their size in memory, as qpdf did) they
pass the memory bound; the same size as test_filter_bombs.py's, so one process builds each once."""

GIGABYTE = 1024
"""How far the first round's Flate bombs inflate (test_hostile_files.py's size, built once)."""


@attrs.frozen(kw_only=True)
class Case:
    """One hostile file and what extracting it must show."""

    name: str
    build: Callable[[], bytes]
    kept: tuple[str, ...]
    """Text from before the attack that the output must hold."""
    limit: str | None
    """Words of the one warning line that names what cut the page short; None: the file is
    sound (only unusual) and no warning is due."""
    args: tuple[str, ...] = ()
    """Options of ``glyphweave extract`` the case runs with."""
    strict: int = EXIT_LIMIT
    """The exit status under ``--strict`` (7 for a limit, 3 for another warning)."""
    alone: bool = True
    """The limit's line is the only warning (False where qpdf's own repairs are said too)."""
    heavy: bool = False
    """Takes more than a few seconds or hundreds of MB today: run in the slow tests only."""


def _case(name: str, build: Callable[..., bytes], *build_args: object, **fields: object) -> Case:
    return Case(name=name, build=functools.partial(build, *build_args), **fields)  # type: ignore[arg-type]


FLOOD = ("Before the flood",)
RECORD_LIMIT = "past the record limit (page_records_mb) of 320 MB per page"
BOMB = ("Before the bomb",)
CONTENT_LIMIT = "the page content limit of 64 MB reached"
FONT_STREAM_LIMIT = "stream larger than the font stream limit of 64 MB"


def catalogue() -> list[Case]:
    """Every case, the issue's order first (records, operands, filters, fonts, time, page
    trees), then the first round's."""
    return [
        # Records: a few KB that paint a flood of glyphs, runs or form paintings, cut by the record budget.
        _case("one-spot-500k", record_floods.one_spot, 500_000, kept=FLOOD, limit=RECORD_LIMIT, heavy=True),
        _case("ocr-1.2m-objects", record_floods.ocr_objects, 1_200_000, kept=FLOOD, limit=RECORD_LIMIT,
              heavy=True),
        _case("stacked-max-page-mb-4", record_floods.stacked, 4.2, kept=FLOOD, heavy=True,
              limit="the page content limit of 4 MB reached", args=("--max-page-mb", "4")),
        _case("form-tree-9x10", record_floods.form_tree, 9, 10, kept=FLOOD, limit=RECORD_LIMIT, heavy=True),
        # Operands.
        _case("array-5m-numbers", operand_bombs.huge_array, 5_000_000, kept=(*FLOOD, "After"),
              limit="operand too large to keep left out", heavy=True),
        _case("unterminated-string-1m", operand_bombs.unterminated_string, 1_000_000, kept=FLOOD,
              limit="operand too large to keep left out", heavy=True),
        # Filter chains other than Flate alone.
        _case("ascii85-flate-bomb", filter_bombs.ascii85_flate_bomb, BOMB_MB, kept=BOMB, limit=CONTENT_LIMIT,
              heavy=True),
        _case("png-predictor-bomb", filter_bombs.predictor_bomb, BOMB_MB, kept=BOMB, limit=CONTENT_LIMIT,
              heavy=True),
        _case("lzw-bomb", filter_bombs.lzw_bomb, BOMB_MB, kept=BOMB, limit=CONTENT_LIMIT, heavy=True),
        _case("font-stream-hex-flate-bomb", filter_bombs.hex_flate_tounicode, BOMB_MB, kept=("Hello",),
              limit=FONT_STREAM_LIMIT, heavy=True),
        # Font programs.
        _case("cmap12-bomb", font_bombs.page_of_bombs, 1, kept=("Before the fonts", "After the fonts"),
              limit="font program: limit reached: "),
        _case("cmap12-bomb-x8", font_bombs.page_of_bombs, 8, kept=("Before the fonts", "After the fonts"),
              limit="font program: limit reached: "),
        # Time: filters and assembly as well as interpretation. Half a million glyphs stacked on one
        # spot take seconds on any machine (interpretation alone is past 0.2 s), so the limit is met.
        _case("stacked-page-seconds", record_floods.stacked, 8, kept=FLOOD, limit="page time limit of 0.2 s",
              args=("--page-seconds", "0.2"), heavy=True),
        # Pages lost or refused, and one limit said many times.
        _case("page-tree-loop", page_trees.page_tree_loop, kept=("First page", "Second page"),
              limit="(a loop); read once", strict=EXIT_WARNINGS),
        _case("page-tree-100k-deep", page_trees.deep_page_tree, 100_000, kept=("Deep page", "Shallow page"),
              limit=None, strict=0, heavy=True),
        _case("mediabox-400-digits", page_trees.page_box_overflow, kept=("First page", "Second page"),
              limit="too large to read, clamped to 2,147,483,647", strict=EXIT_WARNINGS),
        _case("structure-tree-100k-deep", structure_trees.deep_structure_tree, 100_000,
              kept=("Shallow text", "Deep text"), limit="structure tree nested deeper than 128", heavy=True),
        _case("form-painted-200-times", files.form_bomb, 200, 1, kept=("Form",),
              limit="the page content limit of 64 MB reached"),
        # The first round.
        _case("deflate-bomb", files.deflate_bomb, GIGABYTE, kept=BOMB, limit=CONTENT_LIMIT, heavy=True),
        _case("deflate-bomb-double", functools.partial(files.deflate_bomb, form="double"), GIGABYTE, kept=BOMB,
              limit=CONTENT_LIMIT, heavy=True),
        _case("deflate-bomb-predictor-1", functools.partial(files.deflate_bomb, form="predictor"), GIGABYTE,
              kept=BOMB, limit=CONTENT_LIMIT, heavy=True),
        _case("tounicode-bomb", files.tounicode_bomb, BOMB_MB, kept=("Hello",), limit=FONT_STREAM_LIMIT,
              heavy=True),
        _case("nested-q-100k", files.nested_q, 100_000, kept=("Deep",), limit="q nested deeper than 1000"),
        _case("nested-marked-content-100k", files.nested_marked_content, 100_000, kept=("Marked",),
              limit="nested deeper than 1000"),
        _case("w-array-100k", files.wide_w_array, 100_000, kept=("AB",), limit=None, strict=0),
        _case("bfrange-whole-code-space", files.bfrange_bomb, kept=("Before the map", "Hello"), limit=None,
              strict=0),
        # Six million glyphs in strings of 1,000: the record budget (200 bytes a glyph) cuts the page
        # before the glyph limit of five million would.
        _case("glyph-flood-6m", files.many_glyphs, 6_000_000, kept=("xxxxxxxxxx",), limit=RECORD_LIMIT, heavy=True),
    ]


def warned_as_due(case: Case, warnings: list[str]) -> bool:
    """Whether ``warnings`` (the command's warning lines) are what ``case`` is due: exactly one
    line naming its limit (and no other, when the limit's line is to be alone), or none at all."""
    if case.limit is None:
        return not warnings
    naming = [line for line in warnings if case.limit in line]
    return len(naming) == 1 and (not case.alone or len(warnings) == 1)
