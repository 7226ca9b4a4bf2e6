"""``glyphweave new-plugin``: write a new plugin package that works and is tested from the start.

The package is the shape ``docs/plugins.rst`` describes: one module with one component and
its ``@hookimpl``, one entry point, tests written with glyphweave's test kit, and a tox
matrix that runs them against the oldest glyphweave the plugin supports and the newest.

A name an installed plugin already uses is refused: the component name among the
components of that kind, and the entry-point name among every distribution's entry
points, whatever its kind. The package would otherwise be left out of every run as soon
as it is installed (glyphweave's own components keep their names).
"""

from __future__ import annotations

import keyword
import re
from pathlib import Path

from glyphweave.files import write_text

KINDS = ("decoder", "filter", "assembler")
_NAME = re.compile(r"^[a-z][a-z0-9-]{0,40}$")

_COMPONENTS = {
    "decoder": '''class {cls}(Decoder):
    """Text of the codes of the fonts called {title} (replace with what yours does)."""

    NAME = "{name}"

    def decode(self, font: FontInfo, code: bytes, cid: int | None) -> str | None:
        if font.base_font != "{title}":
            return None  # not ours: the next decoder of the profile is asked
        return code.decode("latin-1")
''',
    "filter": '''class {cls}(Filter):
    """Drop glyphs smaller than min_size points on the page (replace with what yours does)."""

    NAME = "{name}"
    OPTIONS = {{
        "min_size": Option(default=4.0, minimum=0.0, doc="Smallest size on the page kept, in points."),
    }}

    def apply(self, page: PageContext, indices: Sequence[int]) -> list[int]:
        sizes = page.table.page_size  # the size on the page, not the Tf operand
        return [i for i in indices if sizes[i] >= self.min_size]
''',
    "assembler": '''class {cls}(Assembler):
    """Page text in paint order, one glyph after another (replace with what yours does)."""

    NAME = "{name}"

    def assemble(self, page: PageContext, indices: Sequence[int]) -> Assembled:
        table = page.table
        text = "".join(page.placeholder if table.unresolved(i) else table.text[i] for i in indices)
        return Assembled(text=text, data={{"glyphs": len(indices)}})
''',
}

_IMPORTS = {
    "decoder": "from glyphweave.plugin import Decoder, FontInfo, hookimpl",
    "filter": "from collections.abc import Sequence\n\nfrom glyphweave.plugin import Filter, Option, PageContext, hookimpl",
    "assembler": "from collections.abc import Sequence\n\nfrom glyphweave.plugin import Assembled, Assembler, PageContext, hookimpl",
}

_TESTS = {
    "decoder": '''def test_it_reads_its_own_fonts(glyphweave_font_info):
    decoder = {module}.{cls}()
    assert decoder.decode(glyphweave_font_info("{title}"), b"A", None) == "A"
    assert decoder.decode(glyphweave_font_info("Helvetica"), b"A", None) is None


def test_in_a_pdf(glyphweave_extract, glyphweave_pdf, tmp_path):
    profile = tmp_path / "p.toml"
    profile.write_text('[profile]\\nextends = "default"\\ndecoders = ["{name}", "..."]\\n')
    pdf = glyphweave_pdf.make_pdf(glyphweave_pdf.text_at("Hi"))
    assert glyphweave_extract(pdf, plugins=[{module}], profile=str(profile)) == "Hi\\n\\f"
''',
    "filter": '''def test_small_print_goes(glyphweave_extract, glyphweave_pdf, tmp_path):
    profile = tmp_path / "p.toml"
    profile.write_text('[profile]\\nextends = "default"\\n[profile.filters]\\nappend = ["{name}"]\\n')
    pdf = glyphweave_pdf.make_pdf(glyphweave_pdf.text_at("Big", 72, 700, size=12)
                                  + b"\\n" + glyphweave_pdf.text_at("tiny", 72, 600, size=2))
    assert glyphweave_extract(pdf, plugins=[{module}], profile=str(profile)) == "Big\\n\\f"
''',
    "assembler": '''def test_text_and_data(glyphweave_extract, glyphweave_pdf):
    pdf = glyphweave_pdf.make_pdf(glyphweave_pdf.text_at("Hi"))
    assert glyphweave_extract(pdf, plugins=[{module}], mode="{name}", separator="") == "Hi"
''',
}


def write_plugin(name: str, kind: str, parent: Path) -> Path:
    """Write the package of plugin ``name`` (lower case, digits, hyphens) providing one
    component of ``kind`` into ``parent/glyphweave-<name>``; return that folder.

    :raises ValueError: a bad name or kind, or the folder exists already (nothing is
        overwritten).
    """
    if not _NAME.match(name):
        raise ValueError(f"plugin name {name!r}: use lower-case letters, digits and hyphens, starting with a letter")
    if kind not in KINDS:
        raise ValueError(f"component kind {kind!r}: one of {', '.join(KINDS)}")
    module = "glyphweave_" + name.replace("-", "_")
    if keyword.iskeyword(module):
        raise ValueError(f"plugin name {name!r} makes an unusable module name")
    folder = parent / f"glyphweave-{name}"
    if folder.exists():
        raise ValueError(f"{folder} exists already; choose another name or folder")
    _check_name_is_free(name, kind)
    fields = {
        "name": name, "module": module, "kind": kind, "title": name.replace("-", " ").title().replace(" ", ""),
        "cls": "".join(part.title() for part in name.split("-")) + kind.title(),
    }
    files = {
        "pyproject.toml": _PYPROJECT, "tox.ini": _TOX, "README.md": _README,
        f"{module}.py": _MODULE.format(imports=_IMPORTS[kind], component=_COMPONENTS[kind].format(**fields),
                                       **fields),
        f"test_{module}.py": _TEST.format(body=_TESTS[kind].format(**fields), **fields),
    }
    folder.mkdir(parents=True)
    for filename, template in files.items():
        text = template if filename.endswith(".py") else template.format(**fields)
        write_text(folder / filename, text)
    return folder


def _check_name_is_free(name: str, kind: str) -> None:
    """Refuse ``name`` when the package would register a name an installed plugin holds:
    the ``kind`` component ``name``, or the entry point ``name`` (of any kind).

    :raises ValueError: the name is taken (the message says by which distribution).
    """
    import importlib.metadata
    import warnings

    from glyphweave.components.catalog import Catalog
    from glyphweave.components.manager import PluginWarning, create_plugin_manager
    from glyphweave.components.markers import PROJECT_NAME

    for dist in importlib.metadata.distributions():
        if any(ep.group == PROJECT_NAME and ep.name == name for ep in dist.entry_points):
            owner = f"{dist.metadata['Name']} {dist.version}"
            raise ValueError(f"plugin name {name!r}: the entry point {name!r} is taken by {owner}; "
                             "choose another name")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", PluginWarning)  # this command only asks which names are used
        catalog = Catalog.from_plugin_manager(create_plugin_manager(skip_broken=True))
    if name in catalog.names(kind):
        raise ValueError(f"plugin name {name!r}: the {catalog.describe(kind, name)} has it already; "
                         "choose another name")


_MODULE = '''"""glyphweave-{name}: a glyphweave plugin providing the {kind} ``{name}``."""

from __future__ import annotations

{imports}


{component}

@hookimpl
def glyphweave_register_{kind}s():
    return [{cls}]
'''

_TEST = '''"""Tests of glyphweave-{name}, with glyphweave's test kit (its fixtures load by themselves)."""

import {module}


{body}'''

_PYPROJECT = '''[build-system]
requires = ["setuptools>=69"]
build-backend = "setuptools.build_meta"

[project]
name = "glyphweave-{name}"
version = "0.1"
description = "A glyphweave plugin: the {kind} {name}"
requires-python = ">=3.10"
dependencies = ["glyphweave>=0.1"]

[project.optional-dependencies]
test = ["pytest>=7.4"]

# The whole plugin: one entry point in the "glyphweave" group naming one module.
[project.entry-points.glyphweave]
{name} = "{module}"

[tool.setuptools]
py-modules = ["{module}"]
'''

_TOX = '''# The plugin's tests on every Python found, against the oldest glyphweave it supports and the
# newest: `tox`, or one cell with `tox -e py312-newest`.
[tox]
env_list = py3{{10,11,12,13}}-{{oldest,newest}}
skip_missing_interpreters = true

[testenv]
extras = test
deps =
    oldest: glyphweave==0.1.0
    newest: glyphweave
commands = pytest {{posargs}}
'''

_README = '''# glyphweave-{name}

A [glyphweave](https://pypi.org/project/glyphweave/) plugin providing the {kind} `{name}`.

```sh
pip install .              # then: glyphweave plugins   (lists {name})
pip install tox && tox     # the tests, on every Python and two glyphweave versions
```

Use it from a profile, e.g. `extends = "default"` plus the {kind} `{name}` in the right list.
'''
