"""Built-in decoders: each maps one character code of one font to Unicode.

A profile runs them as a chain, in its own order; the first confident answer wins:
``tounicode`` (the font's /ToUnicode CMap), ``encoding`` (/Encoding: base encoding and
/Differences through the Adobe Glyph List) and ``standard-fallback`` (the implicit
StandardEncoding or WinAnsiEncoding when a font says nothing).
"""
