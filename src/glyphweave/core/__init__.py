"""The core: glyph records, geometry, content interpreter, fonts, CMaps and the pipeline.

Only this package touches pikepdf and fontTools objects; everything it hands to
components is plain Python values.
"""
