"""The core every other layer agrees on: glyph records and the glyph table, runs, the stage
interfaces and the pipeline, decoding bookkeeping, structure records, resource limits and
errors.

It imports nothing else of glyphweave and neither pikepdf nor fontTools: the PDF engine
(:mod:`glyphweave.pdf`) fills the glyph table, the layout engine (:mod:`glyphweave.layout`)
reads it, and components read plain Python values.
"""
