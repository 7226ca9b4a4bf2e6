"""A CMap's cidrange sections read in C (glyphweave.pdf._ccmap) give the reference's ranges
(glyphweave.pdf.cmap.cidrange_body): on generated bodies, junk and long numbers included,
and on every predefined CMap of the mirror, parsed whole."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from glyphweave.pdf import cmap
from glyphweave.pdf.cmap import cidrange_body, parse_cmap

native = pytest.importorskip("glyphweave.pdf._ccmap", reason="the C reading is not built (a pure install)")

HEX = st.text(alphabet="0123456789abcdefABCDEF", max_size=20)
SPACE = st.text(alphabet="\x00\t\n\x0c\r ", max_size=3)
PIECE = st.one_of(
    st.builds(lambda lo, s1, hi, s2, cid: f"<{lo}>{s1}<{hi}>{s2}{cid}", HEX, SPACE, HEX, SPACE,
              st.integers(0, 10**20).map(str)),
    st.builds(lambda lo, hi, cid: f"<{lo:04x}> <{hi:04x}> {cid}", st.integers(0, 0xFFFF), st.integers(0, 0xFFFF),
              st.integers(0, 70000)),
    st.sampled_from(["<", ">", "<>", "12", " ", "\n", "<00>", "<0000> <00ff>", "0x"]),
)


def _both(data: bytes, pos: int, stop: int) -> None:
    found = native.cidrange_body(data, pos, stop)
    expected = cidrange_body(data, pos, stop)
    if found is not False:  # False: a number too long for C integers, which the reference reads
        assert found == expected
    assert cmap._cidrange_body(data, pos, stop) == expected


@settings(max_examples=400, deadline=None)
@given(st.lists(PIECE, max_size=12), st.data())
def test_generated_bodies_give_the_references_ranges(pieces: list[str], data: st.DataObject):
    body = " ".join(pieces).encode("ascii")
    pos = data.draw(st.integers(0, len(body)))
    stop = data.draw(st.integers(pos, len(body) + 2))
    _both(body, 0, len(body))
    _both(body, pos, stop)


@pytest.mark.parametrize("body", [
    b"<8140> <817e> 13413\n<8180> <81fe> 13476",
    b"<00><ff>1",
    b"<0a0b0c0d0e0f1011><0a0b0c0d0e0f1012> 5",  # 8 bytes: the widest C integers hold
    b"<0a0b0c0d0e0f101112><0a0b0c0d0e0f101113> 5",  # 9 bytes: the reference's
    b"<00> <01> 1234567890123456789012",  # a CID past 18 digits: the reference's
    b"<0000> <00ff> 1 7 <0100> <01ff> 2",  # a stray number between triples
    b"<<0000> <00ff> 1",  # a stray "<": not plain triples
    b"<000> <0ff> 1",  # odd widths
    b"<00> <0000> 1",  # widths that differ
    b"<0f> <00> 1 <10> <1f> 2",  # reversed bounds are left out
    b"",
])
def test_edge_bodies(body: bytes):
    _both(body, 0, len(body))


def test_numbers_too_long_for_c_integers_are_left_to_the_reference():
    assert native.cidrange_body(b"<0a0b0c0d0e0f101112><0a0b0c0d0e0f101113> 5", 0, 44) is False
    assert native.cidrange_body(b"<00> <01> 1234567890123456789012", 0, 32) is False
    assert native.cidrange_body(b"<0a0b0c0d0e0f1011><0a0b0c0d0e0f1012> 5", 0, 40) == [
        (8, 0x0a0b0c0d0e0f1011, 0x0a0b0c0d0e0f1012, ("cid", 0x0a0b0c0d0e0f1011, 5))]


def test_every_mirrored_predefined_cmap_parses_as_the_reference_parses_it(monkeypatch: pytest.MonkeyPatch):
    from glyphweave.tables import cjk, loader

    folder = loader.resource_root() / "cjk" / "cmap"
    if not folder.is_dir():
        pytest.skip("no CMap mirror")
    names = sorted(entry.name[:-3] for entry in folder.iterdir() if entry.name.endswith(".gz"))
    assert names
    for name in names:
        data = cjk.cmap_data(name)
        assert data is not None
        fast = parse_cmap(data, usecmap=lambda _name: None)
        with monkeypatch.context() as patch:
            patch.setattr(cmap, "_native_cidrange_body", None)
            slow = parse_cmap(data, usecmap=lambda _name: None)
        assert (fast.name, fast.wmode, fast.codespace) == (slow.name, slow.wmode, slow.codespace), name
        assert fast._cid_tables.keys() == slow._cid_tables.keys(), name
        for length, table in fast._cid_tables.items():
            other = slow._cid_tables[length]
            assert (table.starts, table.ends, table.payloads) == (other.starts, other.ends, other.payloads), name
