"""Built-in filters: each takes the indices of the glyphs still visible and keeps a subset.

They work on the page's glyph columns (never on ``Glyph`` records) so a page of tens of
thousands of glyphs costs a few list passes, and they run through the same entry points a
third-party filter uses.
"""
