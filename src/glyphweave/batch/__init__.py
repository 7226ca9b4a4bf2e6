"""Extraction at scale: many files on all cores or a Dask cluster, and one long document
split across processes by pages.

* :func:`run_batch` (``glyphweave batch``): an iterator of per-file results; outputs
  mirror the inputs, are written atomically, and a manifest records every file;
* :mod:`.pool`: the local process pool with per-file time and memory limits;
* :mod:`.dask`: the same jobs on a Dask distributed cluster (``pip install glyphweave[dask]``);
* :mod:`.task`: one file's job, the unit every backend runs.
"""

from __future__ import annotations

from .runner import MANIFEST, Plan, plan, run_batch, summary
from .task import FORMATS, ExtractOptions, FileJob, FileResult, run_job

__all__ = [
    "FORMATS", "MANIFEST", "ExtractOptions", "FileJob", "FileResult", "Plan", "plan", "run_batch", "run_job",
    "summary",
]
