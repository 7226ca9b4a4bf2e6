"""The page's clock: ``page_seconds`` shared by every stage of one page.

A page's time runs while its own stages run (interpretation with the reading of its
streams, the filters, the assembler) and stands still between them, so a program that reads
a page and later asks for its text again does not find the time gone. Past the limit, each
stage gives up its expensive work (see :class:`PageClock`), and the page keeps what it has.

With no limit (``page_seconds`` None, the default) the clock is never read: the stages test
:attr:`PageClock.limited` or compare against a deadline of None, nothing more.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from glyphweave.guard.limits import LIMIT, LimitReached
from glyphweave.guard.report import WarningRecord


class TimeLimitReached(LimitReached):
    """The page's time (``page_seconds``) is up. Raised by :meth:`PageContext.check_time
    <glyphweave.core.stages.PageContext.check_time>`: a filter or an assembler lets it
    propagate, and the pipeline catches it (the filter's work is dropped and the remaining
    filters are skipped; the assembler's page is assembled the cheapest way instead)."""

    def __init__(self, message: str = "the page's time is up", limit: str = "page_seconds") -> None:
        super().__init__(message, limit)


class PageClock:
    """The time one page may still spend, with a record of what running out cost it.

    ``now`` is the clock read (``time.monotonic``; a test may give a fake one). Each stage
    runs inside :meth:`running`; :meth:`time_left`, :meth:`expired` and :meth:`check` are
    meaningful there. :meth:`cut` records what a stage gave up, and :meth:`warning` says it
    all in one line, so a page out of time warns once whatever number of stages gave up.
    """

    __slots__ = ("_now", "_resumed", "_spent", "_what", "seconds")

    def __init__(self, seconds: float | None, now: Callable[[], float] = time.monotonic) -> None:
        self.seconds = seconds
        self._now = now
        self._spent = 0.0
        self._resumed: float | None = None
        self._what: dict[str, None] = {}

    @property
    def limited(self) -> bool:
        """Whether the page has a time limit at all."""
        return self.seconds is not None

    @contextmanager
    def running(self) -> Iterator[None]:
        """Count the time spent inside (nested uses count it once)."""
        if self._resumed is not None or self.seconds is None:
            yield
            return
        self._resumed = self._now()
        try:
            yield
        finally:
            self._spent += self._now() - self._resumed
            self._resumed = None

    def time_left(self) -> float:
        """Seconds left for the page (0.0 once past the limit; ``math.inf`` with no limit)."""
        if self.seconds is None:
            return math.inf
        spent = self._spent if self._resumed is None else self._spent + self._now() - self._resumed
        return max(0.0, self.seconds - spent)

    def deadline(self) -> float | None:
        """The reading of ``now`` at which the time runs out, while the clock runs (None with
        no limit): a loop may compare ``now()`` with it instead of calling :meth:`expired`."""
        if self.seconds is None:
            return None
        return self._now() + self.time_left()

    def expired(self) -> bool:
        """Whether the page's time is up."""
        return self.seconds is not None and self.time_left() <= 0.0

    def check(self) -> None:
        """Raise :class:`TimeLimitReached` if the page's time is up."""
        if self.seconds is not None and self.time_left() <= 0.0:
            raise TimeLimitReached(f"the page's time limit of {self.seconds:g} s is reached")

    def cut(self, what: str) -> None:
        """Record what the page gave up for lack of time (each thing once, in order)."""
        self._what[what] = None

    def warning(self) -> WarningRecord | None:
        """The page's one warning about its time limit, or None when nothing was given up."""
        if not self._what:
            return None
        return WarningRecord(kind="limit", limit="page_seconds",
                             message=f"{LIMIT}page time limit of {self.seconds:g} s: " + "; ".join(self._what))
