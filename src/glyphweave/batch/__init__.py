"""Extraction at scale: many files on all cores or a Dask cluster, and one long document
split across processes by pages.

* :func:`run_batch` (``glyphweave batch``): an iterator of per-file results; outputs
  mirror the inputs, are written atomically, and a manifest records every file;
* :mod:`.pool`: the local process pool with per-file time and memory limits;
* :mod:`.dask`: the same jobs on a Dask distributed cluster (``pip install glyphweave[dask]``);
* :mod:`.task`: one file's job, the unit every backend runs;
* :func:`read_manifest`: a manifest's entries, one per file (the last line of a file wins).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .manifest import read_manifest
    from .names import FORMATS, MANIFEST
    from .runner import Plan, plan, run_batch, summary
    from .task import ExtractOptions, FileJob, FileResult, run_job

__all__ = [
    "FORMATS", "MANIFEST", "ExtractOptions", "FileJob", "FileResult", "Plan", "plan", "read_manifest", "run_batch",
    "run_job", "summary",
]

# Imported on first use: ``extract`` imports this package for its page split and never
# needs the batch runner (whose imports cost the command's start-up several milliseconds).
_HOMES = {
    "FORMATS": ".names", "MANIFEST": ".names", "Plan": ".runner", "plan": ".runner", "run_batch": ".runner",
    "summary": ".runner", "read_manifest": ".manifest", "ExtractOptions": ".task", "FileJob": ".task",
    "FileResult": ".task", "run_job": ".task",
}


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(home, __name__), name)
