from collections.abc import Callable, Collection

from glyphweave.plugin import GlyphTable

def suspects(table: GlyphTable, along: float, across: float, size_tolerance: float, same_direction: float,
             comparisons_per_run: int = ..., check_time: Callable[[], None] | None = None,
             pairs_per_run: int = ...) -> Collection[int]: ...
