"""The glyph names of a bare CFF font program: what the embedded-font decoder reads of one.

A bare CFF program (``FontFile3``, subtype ``Type1C`` or ``CIDFontType0C``; Adobe Technical
Note #5176) is read here only as far as decoding needs: the first font's Top DICT (whether it
is CID-keyed, its charset and its Encoding), the String INDEX, and the charset, which names
each glyph ID. Nothing of the glyph programs, private dictionaries or subroutines is read.

fontTools' ``cffLib`` reads the same and much more, and importing it costs about 20 ms (it
imports the OpenType table machinery with it), paid by every process that meets a CFF font:
a tenth of a small document. The names come out as fontTools gives them, so the decoder's
answers do not depend on which read the font: a CID-keyed font's glyphs are ``cidNNNNN``
after their CID, a name met again in a custom charset gets fontTools' ``.1``, ``.2`` suffix,
and a charset that does not cover exactly the CharStrings' glyph count is refused. So is a
Top DICT without a charset operator, as fontTools refuses it, although the specification
reads it as ISOAdobe (Distiller writes such fonts): reading it so would change which
decoder answers for those fonts, a change of text to be weighed on its own. A test compares
both readers on every CFF program of the shared corpus.

Every read is bounded by the data: a damaged program raises :class:`ValueError` (the decoder
then treats the font as unreadable), never reads past its end, and costs time in proportion
to its size.
"""

from __future__ import annotations

from glyphweave.tables.cff import STANDARD_STRING_COUNT, predefined_charset, standard_strings

__all__ = ["BareCFF", "read_bare_cff"]

_ROS = (12, 30)
_CHARSET = 15
_ENCODING = 16
_CHARSTRINGS = 17


class BareCFF:
    """What a bare CFF program says about its first font's glyphs."""

    __slots__ = ("cid_keyed", "encoding", "names", "_strings")

    def __init__(self, names: list[str], cid_keyed: bool, encoding: int, strings: list[str]) -> None:
        self.names = names
        """Glyph names by glyph ID (a predefined charset may name fewer glyphs than the font has)."""
        self.cid_keyed = cid_keyed
        """Whether the font is CID-keyed (its Top DICT has ROS): its names are then ``cidNNNNN``."""
        self.encoding = encoding
        """The Top DICT's Encoding: 0 (StandardEncoding), 1 (ExpertEncoding) or the offset of a
        custom encoding in the program."""
        self._strings = strings

    def string(self, sid: int) -> str:
        """The string of a string ID (standard, or the font's own); IndexError past them."""
        if sid < STANDARD_STRING_COUNT:
            return standard_strings()[sid]
        return self._strings[sid - STANDARD_STRING_COUNT]


def read_bare_cff(data: bytes) -> BareCFF:
    """The glyph names, encoding and strings of the first font of a bare CFF program.

    Raises ValueError on a program that is not CFF version 1 or that is damaged where this
    reads.
    """
    reader = _Reader(data)
    if len(data) < 4 or data[0] != 1:
        raise ValueError("not a CFF (version 1) program")
    pos = data[2]
    font_names, pos = reader.index(pos)
    if not font_names:
        raise ValueError("the CFF program holds no font")
    top_dicts, pos = reader.index(pos)
    if not top_dicts:
        raise ValueError("the CFF program has no Top DICT")
    raw_strings, pos = reader.index(pos)
    strings = [s.decode("latin-1") for s in raw_strings]
    top = _dict(top_dicts[0])
    cid_keyed = _ROS in top
    if _CHARSET not in top:
        # The specification's default is ISOAdobe; fontTools refuses such a font, and so
        # does this reader, so that the decoders answer as they always have (see the module).
        raise ValueError("the CFF font's Top DICT names no charset")
    charset = _offset(top, _CHARSET)
    encoding = _offset(top, _ENCODING)
    if _CHARSTRINGS not in top:
        raise ValueError("the CFF font has no CharStrings")
    glyph_count = reader.card16(_offset(top, _CHARSTRINGS))
    if charset <= 2:
        if cid_keyed:
            raise ValueError("a CID-keyed CFF font with a predefined charset")
        names = list(predefined_charset(charset)[:glyph_count])
    else:
        names = _unique(reader.charset(charset, glyph_count, cid_keyed, strings))
    return BareCFF(names, cid_keyed, encoding, strings)


class _Reader:
    """Bounded reads from the program's bytes."""

    __slots__ = ("data",)

    def __init__(self, data: bytes) -> None:
        self.data = data

    def card16(self, pos: int) -> int:
        if not 0 <= pos <= len(self.data) - 2:
            raise ValueError(f"the CFF program ends before offset {pos}")
        return int.from_bytes(self.data[pos:pos + 2], "big")

    def card8(self, pos: int) -> int:
        if not 0 <= pos < len(self.data):
            raise ValueError(f"the CFF program ends before offset {pos}")
        return self.data[pos]

    def index(self, pos: int) -> tuple[list[bytes], int]:
        """An INDEX at ``pos``: its items, and where the data after it starts."""
        count = self.card16(pos)
        if count == 0:
            return [], pos + 2
        size = self.card8(pos + 2)
        if not 1 <= size <= 4:
            raise ValueError(f"an INDEX with offsets of {size} bytes")
        first = pos + 3
        end = first + (count + 1) * size
        if end > len(self.data):
            raise ValueError("the CFF program ends inside an INDEX")
        data = self.data
        offsets = [int.from_bytes(data[at:at + size], "big") for at in range(first, end, size)]
        base = end - 1  # offsets count from 1, from the byte before the data
        if offsets[-1] < 1 or base + offsets[-1] > len(data):
            raise ValueError("an INDEX whose data runs past the end of the CFF program")
        items = [data[base + offsets[i]:base + offsets[i + 1]] for i in range(count)]
        return items, base + offsets[-1]

    def charset(self, pos: int, glyph_count: int, cid_keyed: bool, strings: list[str]) -> list[str]:
        """A custom charset (formats 0, 1, 2): each glyph ID's name, ``.notdef`` first."""
        fmt = self.card8(pos)
        pos += 1
        ids: list[int] = []
        if fmt == 0:
            end = pos + 2 * max(glyph_count - 1, 0)
            if end > len(self.data):
                raise ValueError("the CFF program ends inside its charset")
            ids = [int.from_bytes(self.data[at:at + 2], "big") for at in range(pos, end, 2)]
        elif fmt in (1, 2):
            count = 1
            while count < glyph_count:
                first = self.card16(pos)
                left = self.card8(pos + 2) if fmt == 1 else self.card16(pos + 2)
                pos += 3 if fmt == 1 else 4
                ids.extend(range(first, first + left + 1))
                count += left + 1
            if count != glyph_count:
                raise ValueError("a CFF charset that names more glyphs than the font has")
        else:
            raise ValueError(f"unknown CFF charset format {fmt}")
        if cid_keyed:
            return [".notdef"] + [f"cid{cid:05d}" for cid in ids]
        standard = standard_strings()
        try:
            return [".notdef"] + [standard[sid] if sid < STANDARD_STRING_COUNT else strings[sid - STANDARD_STRING_COUNT]
                                  for sid in ids]
        except IndexError:
            raise ValueError("a CFF charset names a string the program does not hold") from None


def _unique(names: list[str]) -> list[str]:
    """``names`` with each name met again renamed ``name.N`` (the first N that no glyph has),
    as fontTools names them."""
    if len(set(names)) == len(names):
        return names
    taken = set(names)
    counts: dict[str, int] = {}
    out = []
    for name in names:
        if name in counts:
            n = counts[name]
            while f"{name}.{n}" in taken:
                n += 1
            counts[name] = n + 1
            name = f"{name}.{n}"
            taken.add(name)
        counts[name] = 1
        out.append(name)
    return out


def _offset(top: dict[object, list[float]], op: object) -> int:
    """An operator's offset operand (0 where the Top DICT does not have it)."""
    operands = top.get(op)
    if operands is None:
        return 0
    if not operands or operands[-1] != int(operands[-1]):
        raise ValueError(f"a Top DICT operator {op} without an integer operand")
    return int(operands[-1])


def _dict(data: bytes) -> dict[object, list[float]]:
    """A DICT's operators and their operands (§4 of the specification): an operator is a byte
    of 0-27 or 31 (12 escapes a second byte, the pair is the key; 22-27 and 31 are reserved,
    read as operators no one asks for), the rest are numbers (255, reserved, as one that is
    no offset), as fontTools reads them."""
    out: dict[object, list[float]] = {}
    operands: list[float] = []
    i, n = 0, len(data)
    while i < n:
        b0 = data[i]
        if b0 < 28 or b0 == 31:
            key: object = b0
            if b0 == 12:
                if i + 1 >= n:
                    raise ValueError("a DICT ends inside an escaped operator")
                key = (12, data[i + 1])
                i += 1
            out[key] = operands
            operands = []
            i += 1
        elif 32 <= b0 <= 246:
            operands.append(b0 - 139)
            i += 1
        elif 247 <= b0 <= 254:
            if i + 1 >= n:
                raise ValueError("a DICT ends inside a number")
            high = (b0 - 247 if b0 <= 250 else b0 - 251) * 256 + data[i + 1] + 108
            operands.append(high if b0 <= 250 else -high)
            i += 2
        elif b0 == 28:
            if i + 2 >= n:
                raise ValueError("a DICT ends inside a number")
            operands.append(int.from_bytes(data[i + 1:i + 3], "big", signed=True))
            i += 3
        elif b0 == 29:
            if i + 4 >= n:
                raise ValueError("a DICT ends inside a number")
            operands.append(int.from_bytes(data[i + 1:i + 5], "big", signed=True))
            i += 5
        elif b0 == 30:
            i += 1  # a real: nibbles up to the one that is 0xf (its value is never an offset)
            while i < n and (data[i] >> 4) != 0xF and (data[i] & 0xF) != 0xF:
                i += 1
            if i >= n:
                raise ValueError("a DICT ends inside a real number")
            operands.append(0.5)  # not an integer: refused where an offset is read
            i += 1
        else:  # 255
            operands.append(0.5)
            i += 1
    return out
