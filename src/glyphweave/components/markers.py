"""The markers a plugin uses: ``@hookimpl`` on its registration functions."""

from __future__ import annotations

import pluggy

PROJECT_NAME = "glyphweave"
"""The pluggy project name, and the entry-point group plugins are found in."""

hookspec = pluggy.HookspecMarker(PROJECT_NAME)
hookimpl = pluggy.HookimplMarker(PROJECT_NAME)
