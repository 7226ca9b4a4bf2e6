"""The core every other layer agrees on: glyph records and the glyph table, the stage
interfaces and the pipeline, decoding bookkeeping, resource limits and errors.

It imports nothing else of glyphweave and neither pikepdf nor fontTools: the PDF engine
(:mod:`glyphweave.pdf`) fills the glyph table, and components read plain Python values.
The page geometry (:mod:`glyphweave.core.geometry`) and the bidi rules
(:mod:`glyphweave.core.scripts`) still live here until the layout layer leaves core.
"""
