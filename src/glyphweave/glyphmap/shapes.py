"""The shape matcher: which character a glyph's outline draws, with a confidence
(rules: the glyph registry; fonts with no mapping).

A font that carries no mapping still draws its glyphs. Each glyph's shape
(:mod:`.raster`: a bitmap of its ink, the ink's box, its pieces and counters) is compared
with reference shapes of the characters a Latin, Greek or Cyrillic text is likely to use,
drawn from fonts with open licences in serif, sans and mono, regular, bold and italic
(``tools/make_shape_references.py`` builds the table; its PROVENANCE.tsv names the fonts).

**The distance** between a glyph ``q`` and a reference ``r`` adds these terms:

* the ink that does not match: the pixels of each bitmap with no ink of the other within
  one pixel, over the two bitmaps' ink (0 for one shape, 1 for two that share nothing);
  the one-pixel tolerance absorbs stroke weight and serifs;
* where the ink sits: the difference of the ink's bottom and top, in x-heights of each
  one's font, times :data:`PLACE` (the comma and the apostrophe share a shape, "o" and
  "O" too, but not a place);
* the proportions: the difference of ``log(width / height)`` times :data:`PROPORTION`;
* the topology: the difference in pieces and in counters, each times :data:`TOPOLOGY`
  ("8" and "B" have two counters, "3" and "S" none; "i" has two pieces, "l" one);
* the advance width, in x-heights, times :data:`ADVANCE`;
* a prior: what the character costs for being rare in text (:data:`RARE`, :data:`CAPITAL`)
  or a letter of another script than the font's (:data:`FOREIGN`).

**A font is read as a whole.** Its x-height is not known beforehand (the query's place is
measured in x-heights): a first reading measures places in em, every glyph read as one of
the letters whose x-height is unambiguous votes for the font's x-height, and the median is
used for the final reading. Characters that share one shape across scripts (Latin "o",
Greek "ο", Cyrillic "о") are one answer, written in the script most of the font's other
letters are read in (:data:`HOMOGLYPHS`). One character has one glyph: glyphs of different
shapes that read alike share the characters out (:func:`read_shapes`).

**The confidence** of a reading is ``(d2 - d1) / d2``, scaled down as ``d1`` nears
:data:`FAR`, where ``d1`` is the distance to the best reference and ``d2`` to the best of
another character no other glyph of the font reads as: 1 when nothing else comes near, 0
when two characters tie or nothing is near. Measured on the reference fonts themselves, each family left out in turn (printable
ASCII, accented letters, typographic punctuation): 95% of the glyphs are read right, 96.6%
of those with a confidence of 0.1 or more, 99.0% of those with 0.3 or more (docs: shapes).

Nothing here looks at the text around a glyph: "l", "I" and "1", "O" and "0" can tie in a
plain sans font, and their confidence says so.
"""

from __future__ import annotations

import functools
import gc
import itertools
import math
import statistics
import struct
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, TypeVar

import attrs

from glyphweave.packagedata import package_folder
from glyphweave.tables.loader import FOLDER, PACKAGE

from .raster import GRID, Shape, grow, native_module

__all__ = ["HOMOGLYPHS", "FontReader", "Reading", "References", "load_references", "read_shapes", "style_flags"]

MAGIC = b"GWSHAPE1"

PLACE = 0.5
"""Weight of the difference in where the ink sits (bottom and top, in x-heights, averaged)."""
ADVANCE = 0.1
"""Weight of the difference in advance width (in x-heights): a digit's tabular width is
not an "O"'s."""
PROPORTION = 0.3
"""Weight of the difference in ``log(width / height)``."""
TOPOLOGY = 0.3
"""Weight of each piece or counter more or less."""
ASPECT_WINDOW = 0.4
"""How far apart two shapes' ``log(width / height)`` may be for them to be compared at all."""
TOP_WINDOW = 0.3
"""How far apart two shapes' tops may be (in x-heights) for them to be compared at all."""
_CELL = 0.1  # the matcher's index cells, in log(width / height) and in x-heights
_NOMINAL = 2.0  # em to x-heights of a nominal font, for the first reading's cells
MEASURED = 48
"""Glyphs of a font its x-height and script are measured on, at most (spread evenly)."""
CHOICES = 4
"""Characters each glyph of a conflict may take (its nearest)."""
MAX_CONFLICT = 4
"""Glyphs of different shapes that may share out one character."""
MIN_BAG_CONFLICTS = 8
BAG_SHARE = 0.1
"""A font where at least :data:`MIN_BAG_CONFLICTS` characters, and :data:`BAG_SHARE` of the
characters its glyphs read as, are each claimed by glyphs of different shapes is a bag of
faces (one Type3 font holding a document's regular and bold, as some producers write them):
one character may have a glyph in each face, and its glyphs are read each on its own. A
single face has a few such characters at most (l and I, O and 0)."""
FAR = 0.5
"""A distance at which a reading has no confidence left."""
MIN_FIGURES = 3
"""Glyphs read as the figures 2 to 9 a font needs before their common width is trusted."""
FIGURE_TOLERANCE = 0.015
"""How near (a fraction of the figures' width) an advance must be to count as a figure's."""
HEIGHT_GAP = 0.02
"""How much (a fraction of the taller) a font's capitals and ascenders must differ in height
for a glyph's top to tell "I" from "l"."""
RARE = (0.0, 0.02, 0.04, 0.1)
"""Added to the distance of a character by how common it is in text: ASCII letters,
digits and punctuation; the other ASCII symbols, Latin-1, Latin Extended-A and the
typographic punctuation; everything else (a "C" is not read as the complement sign "∁",
nor an "i" as an "ì", on a hair's breadth)."""
PLAIN = 0.02
PLAIN_SHARE = 0.05
PLAIN_KEY = "+plain"
"""A font whose letters are nearly all plain (at most :data:`PLAIN_SHARE` of those its first
reading finds are not ASCII: an English subset, a TeX font) is unlikely to draw the rare one
among look-alikes: there every character that is not common (:data:`RARE` above its first
tier: ì beside i, ħ beside h) costs :data:`PLAIN` more. A font with many accented letters
(a Polish or French subset) is read without it. Bitmap fonts at text sizes draw a dot and a
grave accent with the same few pixels; this is what tells "i" from "ì" there."""
CAPITAL = 0.005
"""Added to the distance of a capital letter: running text has many more small letters, so
where "l" and "I" tie the small letter is the likelier (by this much only: a font's own
"I", read elsewhere, still wins its glyph)."""
FOREIGN = 0.03
"""Added to the distance of a letter of another script than the font's (a Latin font's
"r" is not read as a Cyrillic "г")."""

SERIF, MONO, BOLD, ITALIC = 1, 2, 4, 8

HOMOGLYPHS: tuple[str, ...] = (
    "AАΑ", "BВΒ", "CС", "EЕΕ", "HНΗ", "IІΙ", "JЈ", "KКΚ", "MМΜ", "NΝ", "OОΟ", "PРΡ", "SЅ", "TТΤ", "XХΧ",
    "YΥ", "ZΖ", "aа", "cс", "eе", "iі", "jј", "oоο", "pрρ", "sѕ", "xх", "yу", "vν", "ÐĐ", "µμ", "-‐‑",
    "·∙", "Δ∆", ",‚", ".․",
)
"""Characters drawn alike across scripts (or as two code points of one character); the
first of each group is the Latin (or common) one."""

_LATIN_FIRST = {char: group for group in HOMOGLYPHS for char in group}
_X_HEIGHT_LETTERS = frozenset("aemnru")  # letters whose top is the x-height and have no capital twin


def style_flags(family: str, style: str) -> int:
    """The style bits of a reference font (:data:`SERIF`, :data:`MONO`, :data:`BOLD`,
    :data:`ITALIC`), from its family and style names."""
    name = family.lower()
    flags = 0
    if "mono" in name or "cursor" in name:
        flags |= MONO
    if "serif" in name and "sans" not in name or any(w in name for w in ("termes", "pagella", "schola", "bonum")):
        flags |= SERIF
    if "bold" in style.lower():
        flags |= BOLD
    if "italic" in style.lower() or "oblique" in style.lower():
        flags |= ITALIC
    return flags


@attrs.frozen
class References:
    """The reference shapes, one column per feature (rows in the same order)."""

    chars: tuple[str, ...]
    flags: Sequence[int]
    bits: Sequence[int]
    grown: Sequence[int]
    ink: Sequence[int]
    bottom: Sequence[float]
    """The ink's bottom in em."""
    top: Sequence[float]
    """The ink's top in em."""
    advance: Sequence[float]
    """The glyph's advance width in em."""
    x_height: Sequence[float]
    """The x-height of the reference's font, in em."""
    aspect: Sequence[float]
    parts: Sequence[int]
    holes: Sequence[int]
    priors: Mapping[str | None, Sequence[float]] = attrs.field(factory=dict)
    """Per font script (None: not yet known), what each reference adds to a distance for
    being rare in text or foreign to the script (:data:`RARE`, :data:`FOREIGN`); the script
    with :data:`PLAIN_KEY` appended, for a font of plain letters (:data:`PLAIN`)."""
    typical_top: float = 0.6
    """The median top, in em, of the references of letters and digits that stand on the baseline."""
    em_cells: Mapping[tuple, list[tuple]] = attrs.field(factory=dict)
    """((pieces, counters), proportion cell, top cell in em) → the rows of the references
    of letters and digits: what the matcher walks to measure a font, before its x-height is
    known (:func:`nearest`)."""
    xh_cells: Mapping[tuple, list[tuple]] = attrs.field(factory=dict)
    """The same with the top in x-heights."""
    native: Any = attrs.field(default=None, eq=False, repr=False)
    """In the compiled build, the same references in C arrays (:mod:`._cshapes`), which
    :func:`nearest` searches instead of the cells (left empty); the columns are then read
    from it on first use. None: the cells are searched."""

    def __len__(self) -> int:
        return len(self.chars)


def _rarity(char: str) -> int:
    point = ord(char)
    if point < 0x80:
        return 0 if char.isalnum() or char in _COMMON_PUNCTUATION else 1
    if char in _ARCHAIC:
        return 2
    if char in _LOOKALIKES:
        return 3
    if point < 0x180 or char in "–—‘’‚“”„•…€™":
        return 1
    return 2


_COMMON_PUNCTUATION = frozenset(".,;:!?'\"()-/")
_ARCHAIC = frozenset("ſĸŉ")  # long s, kra, n preceded by apostrophe: Latin letters no modern text uses
# Symbols drawn like a character of running text, which running text almost never holds
# instead of it: the minus sign, primes, the figure dash, reversed quotes, logic's "or" and
# "and", the complement sign.
_LOOKALIKES = frozenset("−′″‴‵‶‒‛‟∨∧∁")


def _priors(chars: tuple[str, ...]) -> dict[str | None, tuple[float, ...]]:
    # Worked out once per character (the table holds about 550 in 15,000 references), then
    # spread over the rows: loading the table is paid by every process that checks a font.
    names, per_char = _prior_values(set(chars))
    columns = zip(*map(per_char.__getitem__, chars), strict=True) if chars else ((),) * len(names)
    return {name: tuple(column) for name, column in zip(names, columns, strict=True)}


def _prior_values(chars: Iterable[str]) -> tuple[list[str | None], dict[str, tuple[float, ...]]]:
    """The priors' names (None, then each script and its plain variant), and per character
    its prior under each."""
    names: list[str | None] = [None]
    for script in _PRIOR_SCRIPTS:
        names += [script, script + PLAIN_KEY]
    per_char: dict[str, tuple[float, ...]] = {}
    for char in chars:
        rare = _rarity(char)
        cost = RARE[rare] + (CAPITAL if char.isupper() else 0.0)
        own = _script_of(char) if char.isalpha() else None
        values = [cost]
        for script in _PRIOR_SCRIPTS:
            scripted = cost + (FOREIGN if own is not None and own != script else 0.0)
            values += [scripted, scripted + (PLAIN if rare else 0.0)]
        per_char[char] = tuple(values)
    return names, per_char


_PRIOR_SCRIPTS = ("Latn", "Grek", "Cyrl")


@functools.lru_cache(maxsize=1)
def load_references() -> References:
    """The packaged reference table (``tables/resources/shapes/references.bin``).

    Format (little-endian): ``GWSHAPE1``; the grid size (uint16), the byte length of the
    alphabet (uint32) and the record count (uint32); the alphabet (UTF-8, each character
    once); then per record: the character's index in the alphabet (uint16), style flags
    (uint8), the bitmap (GRID² bits, bit ``row * GRID + column``), the ink's box x0, y0,
    x1, y1, the advance and the font's x-height (int16 each, thousandths of an em), the
    pieces and the counters (uint8 each).
    """
    # Shipped as it is read: the wheel and git compress it anyway, and inflating its 1.3 MB
    # took 8 ms of every process that checks a font by its shapes.
    data = (package_folder(PACKAGE, FOLDER) / "shapes" / "references.bin").read_bytes()
    if native_module() is not None:
        return native_references(data)
    # Some 100,000 tuples made at once, none of them in a cycle: the collector would walk
    # them again and again as they are made (a fifth of the load, 10 ms).
    collecting = gc.isenabled()
    gc.disable()
    try:
        return parse_references(data)
    finally:
        if collecting:
            gc.enable()


def _header(data: bytes) -> tuple[str, int, int]:
    """The alphabet, the record count and where the records start."""
    if data[:8] != MAGIC:
        raise ValueError("not a shape reference table")
    grid, alphabet_size, count = struct.unpack_from("<HII", data, 8)
    if grid != GRID:
        raise ValueError(f"the reference table is for a {grid}-pixel grid, not {GRID}")
    pos = 18
    return data[pos : pos + alphabet_size].decode("utf-8"), count, pos + alphabet_size


def native_references(data: bytes) -> References:
    """A reference table from its bytes, searched in C (:mod:`._cshapes`): the references
    of :func:`parse_references` without a tuple per reference (the columns are made on
    first use, which :func:`nearest` never needs). About 8 ms where the tuples take 40."""
    native = native_module()
    alphabet, count, pos = _header(data)
    size = struct.calcsize(f"<HB{GRID * GRID // 8}s6h2B")
    table = native.Table(data[pos : pos + count * size], count, alphabet,
                         bytes(char.isalnum() for char in alphabet), _CELL, _NOMINAL)
    names, per_char = _prior_values(alphabet)
    table.set_priors([[per_char[char][k] for char in alphabet] for k in range(len(names))])
    chars = table.chars()
    standing = table.standing_tops()
    columns: dict[str, Any] = {name: _Column(functools.partial(table.column, name)) for name in (
        "flags", "bits", "grown", "ink", "bottom", "top", "advance", "x_height", "aspect", "parts", "holes")}
    priors = {name: _Column(functools.partial(_spread, per_char, chars, k)) for k, name in enumerate(names)}
    return References(chars=chars, priors=priors, typical_top=statistics.median(standing) if standing else 0.6,
                      native=_Native(table, {name: k for k, name in enumerate(names)}, data), **columns)


class _Native:
    """What :func:`nearest` needs of the compiled references: the C table, each prior's
    number, and the table's bytes (for a shape the C search does not take)."""

    __slots__ = ("_pure", "data", "table", "variants")

    def __init__(self, table: Any, variants: dict[str | None, int], data: bytes) -> None:
        self.table = table
        self.variants = variants
        self.data = data
        self._pure: References | None = None

    @property
    def pure(self) -> References:
        """The same references read by the reference reader (read on first use)."""
        if self._pure is None:
            self._pure = parse_references(self.data)
        return self._pure


def _spread(per_char: Mapping[str, tuple[float, ...]], chars: tuple[str, ...], k: int) -> tuple:
    """The ``k``-th prior of each reference's character."""
    return tuple(per_char[char][k] for char in chars)


class _Column(Sequence[Any]):
    """One column of the compiled references, made on first use by ``make()``."""

    __slots__ = ("_make", "_values")

    def __init__(self, make: Callable[[], Iterable[Any]]) -> None:
        self._make = make
        self._values: tuple | None = None

    def _all(self) -> tuple:
        if self._values is None:
            self._values = tuple(self._make())
        return self._values

    def __getitem__(self, index: Any) -> Any:
        return self._all()[index]

    def __len__(self) -> int:
        return len(self._all())

    def __iter__(self) -> Any:
        return iter(self._all())

    def __eq__(self, other: object) -> bool:
        return self._all() == (tuple(other) if isinstance(other, Sequence) else other)

    __hash__ = None  # type: ignore[assignment]


def parse_references(data: bytes) -> References:
    """A reference table from its bytes (:func:`load_references` gives the format)."""
    alphabet, count, pos = _header(data)
    nbytes = GRID * GRID // 8
    record = struct.Struct(f"<HB{nbytes}s6h2B")
    records = list(record.iter_unpack(data[pos : pos + count * record.size]))
    # Column by column, each a C-level map or one short comprehension: loading the table is
    # paid by every process that checks a font's encoding by shape (38 ms with the priors, was 54).
    index, flags, bitmaps, x0, y0, x1, y1, advance, x_height, parts, holes = (
        zip(*records, strict=True) if records else ((),) * 11)
    bits = tuple(int.from_bytes(bitmap, "little") for bitmap in bitmaps)
    chars = tuple(map(alphabet.__getitem__, index))
    return make_references(
        chars, flags=tuple(flags), bits=bits, grown=tuple(map(grow, bits)), ink=tuple(map(int.bit_count, bits)),
        bottom=tuple(y / 1000 for y in y0), top=tuple(y / 1000 for y in y1), advance=tuple(a / 1000 for a in advance),
        x_height=tuple(max(x, 1) / 1000 for x in x_height),
        aspect=tuple(math.log((right - left + 20) / (high - low + 20))
                     for left, low, right, high in zip(x0, y0, x1, y1, strict=True)),
        parts=tuple(parts), holes=tuple(holes))


def make_references(chars: tuple[str, ...], **columns: tuple) -> References:
    """References from their columns (as :class:`References` names them), with the
    priors and the cells the matcher walks."""
    em_cells: dict[tuple, list[tuple]] = {}
    xh_cells: dict[tuple, list[tuple]] = {}
    floor, cell, nominal = math.floor, _CELL, _NOMINAL
    letters = tuple(map(str.isalnum, chars))
    bottoms, tops = columns["bottom"], columns["top"]
    for i, (bits, grown, ink, aspect, bottom, top, advance, xh, parts, holes) in enumerate(zip(
            columns["bits"], columns["grown"], columns["ink"], columns["aspect"], bottoms, tops,
            columns["advance"], columns["x_height"], columns["parts"], columns["holes"], strict=True)):
        row = (i, bits, grown, ink, aspect, bottom, top, advance, bottom / xh, top / xh, advance / xh)
        topology = (parts, holes)
        a_cell = floor(aspect / cell)
        if letters[i]:  # the first reading only measures letters
            em_cells.setdefault((topology, a_cell, floor(top * nominal / cell)), []).append(row)
        xh_cells.setdefault((topology, a_cell, floor(top / xh / cell)), []).append(row)
    standing = [top for letter, bottom, top in zip(letters, bottoms, tops, strict=True)
                if letter and bottom >= -0.1 * top and top > 0]
    typical_top = statistics.median(standing) if standing else 0.6
    return References(chars=chars, priors=_priors(chars), em_cells=em_cells, xh_cells=xh_cells,
                      typical_top=typical_top, **columns)


@attrs.frozen
class Reading:
    """What a glyph's shape reads as."""

    char: str
    confidence: float
    """0 (a tie, or nothing near) to 1 (nothing else near)."""
    distance: float
    """The distance to the nearest reference of :attr:`char`."""


K = TypeVar("K")


@attrs.frozen
class FontReader:
    """Reads the glyphs of one font, once its x-height and script are measured
    (:meth:`measure`)."""

    references: References
    x_height: float | None
    """The font's x-height in em; None when no glyph told it (places are then compared in em)."""
    script: str
    """``Latn``, ``Grek`` or ``Cyrl``: how homoglyphs are written."""
    scale: float = 1.0
    """What the font's sizes are multiplied by to be in em as the references' are (1 but
    for fonts drawn far from the usual size: :meth:`measure`)."""
    plain: bool = False
    """Nearly all of the font's letters are plain ASCII (:data:`PLAIN`)."""

    @classmethod
    def measure(cls, shapes: Iterable[Shape], references: References | None = None) -> FontReader:
        """A reader for the font these shapes come from (all of its glyphs, or a fair
        sample of a large font): every glyph first read as one of the letters whose top is
        the x-height votes for the font's x-height, and the median wins.

        The first reading compares places in em. A font whose glyphs are far from the usual
        size in em (a Type3 font drawn in its own units, 130 units high under an identity
        /FontMatrix) is first brought to it: scaled so that the median top of its glyphs
        that stand on the baseline is the references' (:func:`_font_scale`)."""
        refs = load_references() if references is None else references
        shapes = list(shapes)
        scale = _font_scale(shapes, refs)
        votes = []
        letters = []
        for shape in shapes[:: len(shapes) // MEASURED + 1]:
            ranked = nearest(_scaled(shape, scale), None, refs)
            if not ranked:
                continue
            index = ranked[0][1]
            char = refs.chars[index]
            letters.append(char)
            if char in _X_HEIGHT_LETTERS and refs.top[index] > 0.2:
                votes.append(shape.box[3] * refs.x_height[index] / refs.top[index])
        plain = bool(letters) and sum(not char.isascii() for char in letters) <= PLAIN_SHARE * len(letters)
        return cls(references=refs, x_height=statistics.median(votes) if votes else None, script=_script(letters),
                   scale=scale, plain=plain)

    def ranked(self, shape: Shape) -> list[tuple[float, str]]:
        """The nearest characters (homoglyphs as one, written in the font's script) by
        distance, nearest first."""
        refs = self.references
        out: list[tuple[float, str]] = []
        seen: set[str] = set()
        query = shape if self.x_height is not None else _scaled(shape, self.scale)
        script = self.script + PLAIN_KEY if self.plain and self.script + PLAIN_KEY in refs.priors else self.script
        for distance, index in nearest(query, self.x_height, refs, script):
            char = refs.chars[index]
            group = _LATIN_FIRST.get(char, char)
            if group in seen:
                continue
            seen.add(group)
            out.append((distance, _in_script(group, self.script)))
        return out

    def read(self, shape: Shape) -> Reading | None:
        """What ``shape`` reads as, on its own; None when no reference is near enough to
        compare."""
        ranked = self.ranked(shape)
        return _reading(ranked, ranked[0][1]) if ranked else None


def _font_scale(shapes: Sequence[Shape], refs: References) -> float:
    """1, or for a font whose glyphs standing on the baseline have a median top outside
    half to twice the references' (:attr:`References.typical_top`), the factor that brings
    it there."""
    tops = [s.box[3] for s in shapes if s.box[3] > 0 and s.box[1] >= -0.1 * s.box[3]]
    if not tops:
        return 1.0
    ratio = refs.typical_top / statistics.median(tops)
    return ratio if not 0.5 <= ratio <= 2.0 and math.isfinite(ratio) else 1.0


def _scaled(shape: Shape, scale: float) -> Shape:
    if scale == 1.0:
        return shape
    x0, y0, x1, y1 = shape.box
    return attrs.evolve(shape, box=(x0 * scale, y0 * scale, x1 * scale, y1 * scale), advance=shape.advance * scale)


def _reading(ranked: list[tuple[float, str]], char: str, taken: frozenset[str] = frozenset()) -> Reading:
    """The reading of ``char`` among ``ranked``: its confidence from the nearest other
    character that is not ``taken`` by another glyph of the font."""
    best = next(d for d, c in ranked if c == char)
    second = next((d for d, c in ranked if c != char and c not in taken), None)
    if second is None:
        confidence = max(0.0, 1 - best / FAR)
    elif second <= best:
        confidence = 0.0
    else:
        confidence = (second - best) / second * max(0.0, 1 - best / FAR)
    return Reading(char=char, confidence=round(confidence, 3), distance=round(best, 4))


def read_shapes(shapes: Mapping[K, Shape], references: References | None = None, *,
                exclusive: bool = True) -> dict[K, Reading]:
    """Read every glyph of one font together: ``shapes`` maps the caller's glyph keys to
    their shapes; the answer maps the same keys to readings (a glyph nothing is near is
    left out). The font's x-height and script are measured from these glyphs, so give all
    of a font's glyphs (or a fair sample of a large font) in one call.

    One character has one glyph in a font: where several glyphs of different shapes read
    as one character (a serif "I" and "l" both nearest to "l"; "O" and "0"), the
    characters are shared out among them by the smallest sum of distances, each glyph
    choosing among its :data:`CHOICES` nearest. Glyphs of one shape (a subset's duplicate)
    may share a character. For the same reason a reading's confidence is measured against
    the characters no other glyph of the font reads as (an "S" is not in doubt for looking
    like a "5" when the font's "5" is another glyph). ``exclusive=False`` drops that rule,
    for a "font" that is a bag of several fonts' glyphs (Ghostscript's Type3 fonts hold a
    page's roman and italic, at several sizes): each glyph is then read on its own. A font
    whose glyphs clash over many characters is read so too (:data:`MIN_BAG_CONFLICTS`)."""
    reader = FontReader.measure(shapes.values(), references)
    ranked = {key: reader.ranked(shape) for key, shape in shapes.items()}
    ranked = {key: r for key, r in ranked.items() if r}
    chosen = {key: r[0][1] for key, r in ranked.items()}
    claims: dict[str, list[K]] = {}
    for key, char in chosen.items():
        claims.setdefault(char, []).append(key)
    twin_of: dict[K, K] = {}
    groups = _conflicts(claims, shapes) if exclusive else []
    if len(groups) >= max(MIN_BAG_CONFLICTS, BAG_SHARE * len(claims)):
        exclusive, groups = False, []  # a bag of faces (see the docstring)
    for group in groups:
        best_cost = math.inf
        best_choice: tuple[str, ...] = ()
        options = [ranked[key][:CHOICES] for key in group]
        for combo in itertools.product(*options):
            chars = [c for _, c in combo]
            if len(set(chars)) < len(chars):
                continue
            cost = sum(d for d, _ in combo)
            if cost < best_cost:
                best_cost, best_choice = cost, tuple(chars)
        if best_choice:
            claimed = claims[chosen[group[0]]]
            for key, char in zip(group, best_choice, strict=True):
                chosen[key] = char
            for key in claimed:  # a duplicate follows the glyph it copies
                if key not in group:
                    twin = next((k for k in group if _same_shape(shapes[key], shapes[k])), None)
                    if twin is not None:
                        chosen[key] = chosen[twin]
                        twin_of[key] = twin
    _figures(chosen, shapes, ranked)
    _capital_i(chosen, shapes, ranked)
    everything = frozenset(chosen.values()) if exclusive else frozenset()
    readings = {key: _reading(ranked[key], chosen[key], everything - {chosen[key]})
                for key in ranked if key not in twin_of}
    readings.update({key: readings[twin] for key, twin in twin_of.items()})
    return readings


def _figures(chosen: dict[K, str], shapes: Mapping[K, Shape], ranked: Mapping[K, list[tuple[float, str]]]) -> None:
    """Tell 0 from O and 1 from l or I by the font's own widths: where the glyphs read as the
    figures 2 to 9 share one advance (tabular figures, as most text fonts draw them), a
    glyph read as the letter twin of 0 or 1 whose advance is that width is the figure, and a
    glyph read as the figure whose advance is not is a letter (its twin, if among its
    nearest readings). Not in a monospaced font, where every glyph has that width. Cambria's round O reads nearer a reference "0" than its own zero
    does; their widths do not lie."""
    widths = [shapes[key].advance for key, char in chosen.items() if char in _PLAIN_FIGURES]
    if len(widths) < MIN_FIGURES:
        return
    figure = statistics.median(widths)
    if figure <= 0 or sum(abs(w - figure) <= FIGURE_TOLERANCE * figure for w in widths) < 0.8 * len(widths):
        return  # proportional figures: widths tell nothing
    letters = [shapes[key].advance for key, char in chosen.items() if char.isalpha()]
    if sum(abs(w - figure) <= FIGURE_TOLERANCE * figure for w in letters) > 0.5 * len(letters):
        return  # a monospaced font: every glyph has the figures' width
    for key, char in chosen.items():
        figure_wide = abs(shapes[key].advance - figure) <= FIGURE_TOLERANCE * figure
        near = [c for _, c in ranked[key][:2 * CHOICES]]
        if char in _FIGURE_TWINS and not figure_wide:
            chosen[key] = next((c for c in _FIGURE_TWINS[char] if c in near), char)
        elif figure_wide and not char.isdigit():
            chosen[key] = next((f for f, twins in _FIGURE_TWINS.items() if char in twins and f in near), char)


_PLAIN_FIGURES = frozenset("23456789")
_FIGURE_TWINS = {"0": "O", "1": "lI"}  # the letters a figure is mistaken for, likeliest first


def _capital_i(chosen: dict[K, str], shapes: Mapping[K, Shape], ranked: Mapping[K, list[tuple[float, str]]]) -> None:
    """Tell l from I by the font's own heights: where its capitals stand lower than its
    ascenders (as in most serif and many sans fonts), a glyph read as "l" or "I" is the one
    whose top is nearer its own kind's (Cambria's "I" of "Indiana" reads nearer a reference
    "l", but it stands at the capitals' height)."""
    capitals = [shapes[key].box[3] for key, char in chosen.items() if char in _FLAT_CAPITALS]
    ascenders = [shapes[key].box[3] for key, char in chosen.items() if char in _ASCENDERS]
    if len(capitals) < 2 or len(ascenders) < 2:
        return
    capital, ascender = statistics.median(capitals), statistics.median(ascenders)
    if abs(ascender - capital) < HEIGHT_GAP * max(capital, ascender):
        return
    for key, char in chosen.items():
        if char not in ("l", "I"):
            continue
        top = shapes[key].box[3]
        wanted = "I" if abs(top - capital) < abs(top - ascender) else "l"
        if wanted != char and wanted in [c for _, c in ranked[key][:2 * CHOICES]]:
            chosen[key] = wanted


_FLAT_CAPITALS = frozenset("BDEFHKLMNPRTUZ")  # capitals whose top is flat: no overshoot, no accent
_ASCENDERS = frozenset("bdhk")


def _conflicts(claims: Mapping[str, list[K]], shapes: Mapping[K, Shape]) -> list[list[K]]:
    """Groups of glyphs of different shapes that claim one character (at most
    :data:`MAX_CONFLICT` glyphs a group: more is a font of alternates, left as read)."""
    groups = []
    for keys in claims.values():
        distinct: list[K] = []
        for key in keys:
            if not any(_same_shape(shapes[key], shapes[other]) for other in distinct):
                distinct.append(key)
        if 1 < len(distinct) <= MAX_CONFLICT:
            groups.append(distinct)
    return groups


def _same_shape(a: Shape, b: Shape) -> bool:
    """Two glyphs that draw one shape (a duplicate in a subset, or the same glyph at two codes)."""
    if a.parts != b.parts or a.holes != b.holes:
        return False
    grown_a, grown_b = grow(a.bits), grow(b.bits)
    stray = (a.bits & ~grown_b).bit_count() + (b.bits & ~grown_a).bit_count()
    height_a, height_b = a.box[3] - a.box[1], b.box[3] - b.box[1]
    return stray <= 2 and abs(height_a - height_b) <= 0.02 * max(height_a, height_b, 1e-9) + 0.005


def nearest(shape: Shape, x_height: float | None, refs: References,
            script: str | None = None) -> list[tuple[float, int]]:
    """The references nearest ``shape``: (distance, row) for the best of each character,
    nearest first (the few needed for a confidence). With ``x_height`` None, places are
    compared in em and only the references of letters and digits are looked at (a font's
    first reading). Only references within one piece or counter of the shape, within
    :data:`ASPECT_WINDOW` of its proportions and :data:`TOP_WINDOW` of its top are
    compared: the others are farther than any reading worth a confidence."""
    native = refs.native
    if native is not None:
        if not 0 <= shape.bits < 1 << (GRID * GRID):  # not a raster's bitmap: the reference reads it
            return nearest(shape, x_height, native.pure, script)
        return _nearest_native(native, shape, x_height, script)
    bits = shape.bits
    grown = grow(bits)
    ink = bits.bit_count()
    x0, y0, x1, y1 = shape.box
    aspect = math.log((x1 - x0 + 0.02) / (y1 - y0 + 0.02))
    if x_height is None:  # places in em, against the references' own
        bottom, top, advance, grid, at = y0, y1, shape.advance, refs.em_cells, 5
        cell_top = y1 * _NOMINAL
    else:
        bottom, top, advance, grid, at = y0 / x_height, y1 / x_height, shape.advance / x_height, refs.xh_cells, 8
        cell_top = top
    width = ADVANCE if shape.advance > 0 else 0.0  # an advance of 0: not known
    place = PLACE / 2
    best: dict[str, tuple[float, int]] = {}
    chars = refs.chars
    prior = refs.priors[script]
    a_first = math.floor((aspect - ASPECT_WINDOW) / _CELL)
    a_last = math.floor((aspect + ASPECT_WINDOW) / _CELL)
    t_first = math.floor((cell_top - TOP_WINDOW) / _CELL)
    t_last = math.floor((cell_top + TOP_WINDOW) / _CELL)
    for holes_parts, topology in _topologies(shape.parts, shape.holes):
        for a_cell in range(a_first, a_last + 1):
            for t_cell in range(t_first, t_last + 1):
                rows = grid.get((holes_parts, a_cell, t_cell))
                if rows is None:
                    continue
                for row in rows:
                    i, r_bits, r_grown, r_ink, r_aspect = row[0], row[1], row[2], row[3], row[4]
                    where = abs(bottom - row[at]) + abs(top - row[at + 1])
                    d = (((bits & ~r_grown).bit_count() + (r_bits & ~grown).bit_count()) / (ink + r_ink)
                         + place * where + width * abs(advance - row[at + 2]) + PROPORTION * abs(aspect - r_aspect)
                         + topology + prior[i])
                    char = chars[i]
                    have = best.get(char)
                    if have is None or d < have[0]:
                        best[char] = (d, i)
    return sorted(best.values())[:8]


def _nearest_native(native: _Native, shape: Shape, x_height: float | None,
                    script: str | None) -> list[tuple[float, int]]:
    """:func:`nearest` by the C search: the arguments worked out as above, the references
    of each character compared and the best kept in C, sorted here."""
    x0, y0, x1, y1 = shape.box
    aspect = math.log((x1 - x0 + 0.02) / (y1 - y0 + 0.02))
    if x_height is None:
        bottom, top, advance, in_em = y0, y1, shape.advance, True
        cell_top = y1 * _NOMINAL
    else:
        bottom, top, advance, in_em = y0 / x_height, y1 / x_height, shape.advance / x_height, False
        cell_top = top
    width = ADVANCE if shape.advance > 0 else 0.0
    variant = native.variants[script]
    found = native.table.nearest(
        shape.bits.to_bytes(GRID * GRID // 8, "little"), bottom, top, advance, width, PLACE / 2, aspect, in_em,
        _topologies(shape.parts, shape.holes), variant,
        math.floor((aspect - ASPECT_WINDOW) / _CELL), math.floor((aspect + ASPECT_WINDOW) / _CELL),
        math.floor((cell_top - TOP_WINDOW) / _CELL), math.floor((cell_top + TOP_WINDOW) / _CELL), PROPORTION)
    return sorted(found)[:8]


def _topologies(parts: int, holes: int) -> list[tuple[tuple[int, int], float]]:
    """The (pieces, counters) within one of a shape's, with what the difference costs."""
    out = [((parts, holes), 0.0)]
    for dp, dh in ((1, 0), (-1, 0), (0, 1), (0, -1)):
        if parts + dp >= 0 and holes + dh >= 0:
            out.append(((parts + dp, holes + dh), TOPOLOGY))
    return out


_SCRIPTS = (("Cyrl", 0x400, 0x4FF), ("Grek", 0x370, 0x3FF))


def _script_of(char: str) -> str:
    point = ord(char)
    for name, first, last in _SCRIPTS:
        if first <= point <= last:
            return name
    return "Latn"


def _script(chars: Iterable[str]) -> str:
    """The script most of a font's letters are read in, counting only letters that are not
    homoglyphs (a Cyrillic "д" says Cyrillic, an "о" says nothing)."""
    counts: dict[str, int] = {}
    for char in chars:
        if char.isalpha() and char not in _LATIN_FIRST:
            script = _script_of(char)
            counts[script] = counts.get(script, 0) + 1
    if not counts:
        return "Latn"
    return max(sorted(counts), key=lambda s: counts[s])


def _in_script(group: str, script: str) -> str:
    """The member of a homoglyph group in ``script`` (its first member otherwise)."""
    if len(group) == 1:
        return group
    for char in group:
        if _script_of(char) == script:
            return char
    return group[0]
