"""How many processes extract one document (``glyphweave extract --jobs``), and in which
chunks of pages: the choice :mod:`.pages` acts on, kept apart from it so that a command that
runs in one process (most: ``--jobs 1``, or ``auto`` on a short document) decides that
without importing the split (pickle, the workers' lifeline: 5 ms of start-up).

The default, ``auto``: one process below :data:`AUTO_MIN_PAGES` selected pages; from there,
one per core, but no more than there are chunks (see :mod:`.pages`).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

CHUNK = 16
"""Most pages in one chunk: 40-160 ms of work on the bench files, so the message per chunk
(well under a millisecond) costs nothing measurable."""
MIN_CHUNK = 4
"""Fewest pages in one chunk: the last chunks, where a worker that finishes early would
otherwise wait for a long one."""
AHEAD = 4
"""Chunks each worker may run ahead of the first chunk not yet written: a slow chunk holds
back the output, and memory keeps at most this many finished chunks per worker."""
AUTO_MIN_PAGES = 64
"""``--jobs auto`` splits a selection of at least this many pages (see the module docstring)."""


def cores() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def chunk_size(remaining: int, jobs: int) -> int:
    """Pages in the next chunk when ``remaining`` pages are left: :data:`CHUNK`, and fewer
    towards the end (a quarter of each worker's share, at least :data:`MIN_CHUNK`), so the
    workers finish close together (guided self-scheduling)."""
    return max(MIN_CHUNK, min(CHUNK, remaining // (max(jobs, 1) * 4)))


def cut(numbers: Sequence[int], jobs: int) -> list[list[int]]:
    """``numbers`` in consecutive chunks, in order (see :func:`chunk_size`)."""
    chunks: list[list[int]] = []
    start = 0
    while start < len(numbers):
        size = chunk_size(len(numbers) - start, jobs)
        chunks.append(list(numbers[start:start + size]))
        start += size
    return chunks


def choose_jobs(requested: int | None, pages: int, source: Any) -> int:
    """How many processes extract ``pages`` selected pages of ``source``: ``requested``
    (None: automatic), never more than there are chunks, and one when the workers could
    not open ``source`` themselves (not a path to a regular file: standard input, a pipe)."""
    if requested == 1 or pages < 2:
        return 1
    if not isinstance(source, (str, os.PathLike)) or not os.path.isfile(source):
        return 1
    if requested is None:
        if pages < AUTO_MIN_PAGES:
            return 1
        requested = cores()
    return max(1, min(requested, len(cut(range(pages), requested))))


def processes(doc: Any, pages: Sequence[int] | None, jobs: int | None, path: str | None) -> int:
    """How many processes ``extract`` runs on ``doc``: 1 (it iterates ``doc`` itself) with
    ``--jobs 1``, a short selection with ``auto``, or no ``path`` (standard input); else
    :func:`choose_jobs`'s answer, for a :class:`~glyphweave.batch.pages.PageSplit`."""
    if path is None or jobs == 1:
        return 1
    return choose_jobs(jobs, len(doc) if pages is None else len(pages), path)
