"""Sphinx directive ``.. glyphweave-components::``: the component and option reference,
generated from the catalog of the installed plugins, so it cannot drift from the code.

Each component is listed under its stage with its distribution, its docstring, and a table
of its options (type, default, limits, meaning) taken from its ``OPTIONS``.
"""

from __future__ import annotations

import inspect
import json
from typing import Any

from docutils import nodes
from docutils.statemachine import StringList
from sphinx.util.docutils import SphinxDirective

TITLES = {"decoder": "Decoders", "filter": "Filters", "assembler": "Assemblers"}


def component_lines(info: Any) -> list[str]:
    """The reST of one component: a definition with its docstring and options table."""
    lines = [f"``{info.name}``", f"    *{info.distribution}, plugin* ``{info.plugin}``", ""]
    doc = inspect.cleandoc(info.cls.__doc__ or info.summary)
    lines += [f"    {line}" if line else "" for line in doc.splitlines()]
    lines.append("")
    if not info.cls.OPTIONS:
        lines += ["    No options.", ""]
        return lines
    lines += ["    .. list-table::", "       :header-rows: 1", "",
              "       * - option", "         - type", "         - default", "         - limits",
              "         - meaning"]
    for name, option in info.cls.OPTIONS.items():
        described = option.describe()
        lines += [f"       * - ``{name}``", f"         - {described['type']}",
                  f"         - ``{json.dumps(described['default'])}``", f"         - {option.limits() or '–'}",
                  f"         - {' '.join(described['doc'].split())}"]
    lines.append("")
    return lines


class ComponentsDirective(SphinxDirective):
    """Render every component of the installed plugins, stage by stage."""

    has_content = False

    def run(self) -> list[Any]:
        from glyphweave.components import Catalog

        catalog = Catalog.discover()
        lines: list[str] = []
        for kind, title in TITLES.items():
            lines += [title, "~" * len(title), ""]
            for info in catalog.components(kind):
                lines += component_lines(info)
        container = StringList(lines, source="glyphweave catalog")
        section = nodes.section()
        section.document = self.state.document
        self.state.nested_parse(container, self.content_offset, section, match_titles=True)
        return section.children


def setup(app: Any) -> dict[str, Any]:
    app.add_directive("glyphweave-components", ComponentsDirective)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
