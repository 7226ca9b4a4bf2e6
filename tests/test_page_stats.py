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
    assert list(stats.decoded_by.items()) == list(decoders.items())  # the same order too
    assert stats.untagged == sum(1 for i in visible if table.mcid[i] is None)
    assert (stats.glyphs, stats.visible) == (len(table), len(visible))
    unresolved = Counter(table.font[i] for i in visible if table.decoded_by[i] is None)
    assert unresolved_by_font(table.raw_runs(), visible) == dict(unresolved)


def test_every_glyph_visible_counts_every_run_whole():
    table = _table([("ab", {1}, None), ("c", set(), 2), ("dd", set(), None)])
    stats = page_stats(0, table, list(range(len(table))), {}, [])
    assert stats.unresolved == 1 and sum(stats.decoded_by.values()) == 4 and stats.untagged == 4


def test_runs_sharing_one_decoded_string_are_counted_as_their_glyphs():
    # The interpreter hands every run of a string measured before the same decoded tuple:
    # counted once per tuple, each run still counts, in first-appearance order.
    from glyphweave.stats.counting import kept_decoder_counts

    table = GlyphTable()
    for text in ("ab", "cd", "ab", "ab"):
        add_text(table, text, 10.0, 700.0)
    runs = table.raw_runs()
    shared = (("a", "tounicode"), ("b", None))
    mixed = (("c", "glyph-name"), ("d", "tounicode"))
    runs[:] = [runs[0]._replace(decoded=shared), runs[1]._replace(decoded=mixed),
               runs[2]._replace(decoded=shared, mcid=4), runs[3]._replace(decoded=shared)]
    everything = list(range(8))
    counts, untagged = kept_decoder_counts(runs, everything)
    assert list(counts.items()) == [("tounicode", 4), (None, 3), ("glyph-name", 1)] and untagged == 6
    counts, untagged = kept_decoder_counts(runs, [1, 2, 3, 5, 7])  # runs cut by a filter
    assert list(counts.items()) == [(None, 3), ("glyph-name", 1), ("tounicode", 1)] and untagged == 4


def test_decoder_names_are_counted_by_value_in_any_sequence():
    # Equal names that are different objects count as one decoder; a plugin's run may hold
    # its decoded pairs in a list.
    from glyphweave.stats.counting import kept_decoder_counts

    table = GlyphTable()
    add_text(table, "abc", 10.0, 700.0)
    runs = table.raw_runs()
    known = "tounicode"
    name = "".join(["tou", "nicode"])
    assert name == known and name is not known
    runs[:] = [runs[0]._replace(decoded=[("a", known), ("b", name), ("c", known)])]
    assert kept_decoder_counts(runs, [0, 1, 2]) == ({"tounicode": 3}, 3)
    runs[:] = [runs[0]._replace(decoded=[("a", "tounicode"), ("b", None), ("c", name)])]
    assert list(kept_decoder_counts(runs, [0, 1, 2])[0].items()) == [("tounicode", 2), (None, 1)]
