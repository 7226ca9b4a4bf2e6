from typing import Any

class KnownCodes:
    def __len__(self) -> int: ...


def measure_simple(widths: Any, table: Any, strings: list[Any], adjustments: list[tuple[int, float]] | None,
                   hscale: float, th: float, tc: float, tw: float, wmode: int,
                   known: KnownCodes | None = None) -> tuple[Any, ...]: ...
def measure_composite(split: Any, width: int, cid_table: Any, widths: Any, table: Any, strings: list[Any],
                      adjustments: list[tuple[int, float]] | None, hscale: float, th: float, tc: float, tw: float,
                      wmode: int, space_single_byte: bool, known: KnownCodes | None = None) -> tuple[Any, ...]: ...
