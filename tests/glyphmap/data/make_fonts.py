"""Make the test fonts of this folder (run by hand; the outputs are committed).

    python tests/glyphmap/data/make_fonts.py

Subsets of two fonts the shape references are not drawn from (Noto Serif Display Italic
and Noto Sans Display Bold, SIL Open Font License 1.1: OFL.txt; from Debian's
fonts-noto-core) to the printable ASCII characters, hinting and layout tables dropped.
The tests strip their mappings themselves (tests/glyphmap/test_shapes.py).
"""

import os

from fontTools.subset import Options, Subsetter
from fontTools.ttLib import TTFont

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = "/usr/share/fonts/truetype/noto"

for name in ("NotoSerifDisplay-Italic", "NotoSansDisplay-Bold"):
    font = TTFont(os.path.join(SOURCE, f"{name}.ttf"))
    options = Options()
    options.hinting = False
    options.layout_features = []
    options.name_IDs = [0, 1, 2, 3, 4, 5, 6, 13, 14]
    options.notdef_outline = True
    subsetter = Subsetter(options)
    subsetter.populate(unicodes=range(0x20, 0x7F))
    subsetter.subset(font)
    for table in ("GDEF", "GPOS", "GSUB", "DSIG"):
        if table in font:
            del font[table]
    font.save(os.path.join(HERE, f"{name}-ascii.ttf"))
