"""Page statistics counted a run at a time agree with a count glyph by glyph, whatever the
filters kept (the statistics are how a user learns what could not be decoded)."""

from __future__ import annotations

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from glyphweave.core.glyph import FontRef
from glyphweave.core.glyphtable import GlyphTable
from glyphweave.stats import page_stats
from glyphweave.stats.counting import unresolved_by_font
from glyphweave.testing.factories import TEST_FONT, add_text

# Each run: its text, the glyphs that decode to nothing, and its marked-content id.
_RUN = st.tuples(
    st.text(alphabet="abc ", min_size=1, max_size=6),
    st.sets(st.integers(0, 5), max_size=3),
    st.one_of(st.none(), st.integers(0, 3)),
)


_FONTS = (TEST_FONT, FontRef(resource="/F2", base_font="Times-Roman", subtype="Type1"))


def _table(runs: list[tuple[str, set[int], int | None]]) -> GlyphTable:
    table = GlyphTable()
    for k, (text, unresolved, mcid) in enumerate(runs):
        add_text(table, text, 10.0, 700.0 - 12 * k, mcid=mcid, unresolved=sorted(i for i in unresolved if i < len(text)),
                 font=_FONTS[k % 3 % 2])
    return table


@settings(max_examples=200, deadline=None)
@given(runs=st.lists(_RUN, max_size=8), data=st.data())
def test_page_stats_count_what_a_glyph_by_glyph_count_finds(runs, data):
    table = _table(runs)
    everything = list(range(len(table)))
    visible = sorted(data.draw(st.sets(st.sampled_from(everything))) if everything else [])
    stats = page_stats(0, table, visible, {}, [])

    decoders = Counter(table.decoded_by[i] for i in visible)
    assert stats.unresolved == decoders.pop(None, 0)
    assert stats.decoded_by == dict(decoders)
    assert stats.untagged == sum(1 for i in visible if table.mcid[i] is None)
    assert (stats.glyphs, stats.visible) == (len(table), len(visible))
    unresolved = Counter(table.font[i] for i in visible if table.decoded_by[i] is None)
    assert unresolved_by_font(table.raw_runs(), visible) == dict(unresolved)


def test_every_glyph_visible_counts_every_run_whole():
    table = _table([("ab", {1}, None), ("c", set(), 2), ("dd", set(), None)])
    stats = page_stats(0, table, list(range(len(table))), {}, [])
    assert stats.unresolved == 1 and sum(stats.decoded_by.values()) == 4 and stats.untagged == 4


@settings(max_examples=200)
@given(st.lists(st.sampled_from(["tounicode", "std-encoding", "glyph-name", "shape", "agl", "symbol", None])))
def test_decoders_are_counted_as_a_counter_counts_them(names: list[str | None]):
    # Equal names that are different objects (as a plugin may build them) count together.
    from glyphweave.stats import _decoder_counts

    decoders = [None if name is None else "".join(name) for name in names]
    assert list(_decoder_counts(list(decoders)).items()) == list(Counter(decoders).items())
