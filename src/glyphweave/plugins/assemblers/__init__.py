"""Built-in assemblers: each turns the visible glyphs of a page into the page's text.

They read the page's glyph columns (never ``Glyph`` records) and register through the
same entry points a third-party assembler uses.
"""
