"""What keeps a hostile file from taking the machine, and what extraction tells about it.

:mod:`.limits` holds what a page and a document may cost (and the budget of decoded content),
:mod:`.clock` a page's time, :mod:`.report` the warning records that say what extraction
survived: a damaged part skipped, a limit reached. The layer imports nothing else of glyphweave,
so every other one (the core's pipeline, the PDF engine, the API) can stand on it.
"""
