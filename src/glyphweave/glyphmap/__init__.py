"""The glyph registry (rules: the glyph registry): the glyphs no table could read, found across a corpus,
drawn, validated by a person once, and applied from then on.

* :mod:`.registry`: the registry file (a sorted TSV) and its merge rules;
* :mod:`.keys`: how a glyph is named across documents (font family, code, outline hash);
* :mod:`.outline`: a glyph's drawing from the embedded font program (an SVG path);
* :mod:`.scan`: the corpus scan, on the batch runner;
* :mod:`.sheet`: the contact sheet (one self-contained HTML page, where a person decides);
* :mod:`.decisions`: the sheet's decisions (and other registries' validated entries) imported;
* :mod:`.shapes`, :mod:`.raster`, :mod:`.fontshapes`, :mod:`.type3`: glyphs read by their shapes;
* :mod:`.clean`: ``clean(text, registry)`` and ``repair`` of already extracted text;
* :mod:`.manifests`: the batch manifests ``repair`` keeps true when it rewrites outputs.

This package's ``__init__`` imports nothing: the glyph-map decoder reads the registry and
keys without pulling in the scan's machinery.
"""
