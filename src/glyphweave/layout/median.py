"""The median, as :func:`statistics.median` computes it.

The layout's typical advance and its column test take a median per page; importing
:mod:`statistics` for it (with :mod:`fractions` and :mod:`decimal` behind it) cost every
run of the command a millisecond of its start.
"""

from __future__ import annotations

from collections.abc import Iterable

__all__ = ["median"]


def median(values: Iterable[float]) -> float:
    """The middle value of ``values`` (the mean of the two middle ones when there are an
    even number), the very number :func:`statistics.median` gives. Raises
    :class:`ValueError` when there are none."""
    ordered = sorted(values)
    n = len(ordered)
    if not n:
        raise ValueError("the median of no values")
    if n % 2:
        return ordered[n // 2]
    return (ordered[n // 2 - 1] + ordered[n // 2]) / 2
