"""The package map of docs/design.rst, enforced: which layer may import which.

Every import in the installed package's source is read (module level, inside functions and
under ``TYPE_CHECKING`` alike: a type-only import is still a dependency a reader must follow)
and checked against the rules below, so the shape cannot drift silently.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import glyphweave

PACKAGE = Path(glyphweave.__file__).resolve().parent

ENGINES = ("pikepdf", "fontTools")

# Layer (the first part of the module path below glyphweave) → glyphweave layers it may import.
# "glyphweave" is the package's own __init__ (the lazy public API).
ALLOWED: dict[str, frozenset[str]] = {
    # Limits, the page clock and warning records: what every layer below the front ends shares.
    "guard": frozenset({"guard"}),
    "core": frozenset({"core", "guard"}),
    # The layout engine (words, lines, blocks, reading order, bidi): on the core's records only.
    "layout": frozenset({"core", "layout", "cachefiles"}),
    "tables": frozenset({"core", "tables", "packagedata", "cachefiles"}),
    "pdf": frozenset({"core", "guard", "tables", "pdf", "cachefiles"}),
    "components": frozenset({"core", "guard", "components", "packagedata"}),
    # The stable plugin contract: core's records and stages, the hook marker, the glyph-name lookup.
    "plugin": frozenset({"core", "guard", "components", "tables"}),
    # The built-in components, written as a third party's would be: on the two contracts
    # (plugin, layout), the data tables and the glyph registry, never on core directly.
    "plugins": frozenset({"plugin", "layout", "tables", "plugins", "glyphmap"}),
    # The glyph registry: its file model, keys and outlines (core and fontTools only, so the
    # glyph-map decoder can read them), and the scan, sheet and repair (on the API and the batch runner).
    "glyphmap": frozenset({"core", "layout", "tables", "glyphmap", "api", "batch", "files", "exits", "arguments",
                          "opening", "packagedata"}),
    "testing": frozenset({"core", "guard", "components", "plugin", "testing", "api"}),
    "api": frozenset({"core", "guard", "layout", "pdf", "tables", "components", "pageranges", "pagecrop", "pagewords",
                      "pagesearch", "pagetables", "stats", "opening"}),
    # Page and document statistics (the stats package): counted from the glyph table's runs, on core only.
    "stats": frozenset({"core", "guard", "stats"}),
    "cli": frozenset({"glyphweave", "api", "core", "guard", "components", "scaffold", "batch", "glyphmap",
                      "accelerated", "files", "arguments", "pageranges", "exits", "opening", "hocr", "pagespace", "grep",
                     "pagewords"}),
    # glyphweave grep (grep.py): the API's search, on the batch pool for many files.
    "grep": frozenset({"api", "arguments", "batch", "core", "exits", "pagesearch"}),
    "batch": frozenset({"api", "core", "guard", "components", "batch", "files", "arguments", "pageranges", "pagecrop",
                        "pagewords", "exits", "opening"}),
    # The command line's exit statuses (exits.py), one per error class: the CLI's, and the batch
    # manifest's record of the status each file would have given.
    "exits": frozenset({"core"}),
    # Command-line argument types the commands share (arguments.py): page ranges, limits, secrets.
    "arguments": frozenset({"core", "pageranges", "pagecrop", "opening"}),
    # How a document is opened (opening.py): the options record every front end fills, and the
    # plugin manager it gives (the API opens with it).
    "opening": frozenset({"core", "guard", "components"}),
    # Page ranges as users write them (pageranges.py): the API, the CLI and batch read them alike.
    "pageranges": frozenset({"core"}),
    # A page cut to a box (pagecrop.py): the glyph table's columns, read from a page the API gives it.
    "pagecrop": frozenset({"core", "pagewords", "pagespace", "pagesearch"}),
    # Search (pagesearch.py): the words of pagewords, matched, with quads of the page as shown.
    "pagesearch": frozenset({"core", "layout", "pagewords", "pagespace"}),
    # hOCR output (hocr.py): the records of pagewords, written as HTML.
    "hocr": frozenset({"pagewords"}),
    # A page's words, lines and blocks (pagewords.py): the layout engine's, in the assembler's order.
    "pagewords": frozenset({"core", "layout", "pagespace"}),
    # The page as shown (pagespace.py): user space to the displayed page's top-left coordinates.
    "pagespace": frozenset(),
    # A page's tables as records (pagetables.py): an assembler's table data, boxes as shown.
    "pagetables": frozenset({"pagespace"}),
    # Writing outputs safely (files.py): every command that writes, on core's errors only.
    "files": frozenset({"core"}),
    # new-plugin: refuses names the installed plugins hold (components), writes through files.py.
    "scaffold": frozenset({"components", "files"}),
    # Which modules the optional compiled build compiles: named as strings (setup.py reads the
    # list before the package is installed), imported only to ask whether they are compiled.
    "accelerated": frozenset(),
    # Where a package's data folders are (packagedata.py): the tables', the built-in profiles' and
    # the glyph registry's shape references.
    "packagedata": frozenset(),
    # Files left in the machine's cache folder (cachefiles.py): the word lists', the parsed CMaps',
    # the CID tables' line ends.
    "cachefiles": frozenset(),
    "glyphweave": frozenset({"api", "core", "guard", "components", "glyphmap", "batch", "opening", "pagewords",
                             "pagesearch", "pagetables"}),
    # python -m glyphweave: the command line, nothing else.
    "__main__": frozenset({"cli"}),
}

# Third-party engines each layer may import. pikepdf: the PDF engine and the API (and the test
# kit, which builds synthetic PDFs with it).
# fontTools: the engine (glyph names while parsing), the tables (deriving encodings) and the
# decoders that read an embedded font program. pluggy: the component machinery (and the test kit, which
# fakes entry points for plugin authors).
THIRD_PARTY: dict[str, frozenset[str]] = {
    "pikepdf": frozenset({"pdf", "api", "testing"}),
    "fontTools": frozenset({"pdf", "tables", "plugins", "glyphmap"}),
    "pluggy": frozenset({"components", "testing"}),
    "pytest": frozenset({"testing"}),
    "tqdm": frozenset({"batch", "glyphmap"}),
    "dask": frozenset({"batch"}),
    # wordfreq: the word list dehyphenation consults (layout/hyphens.py, imported on first use).
    "wordfreq": frozenset({"layout"}),
    "distributed": frozenset({"batch"}),
}

def _module_name(root: Path, path: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(["glyphweave", *parts])


def _is_submodule(root: Path, name: str) -> bool:
    """Whether ``name`` is a module of the package: a Python source, a package, or a Cython
    source (a module of the compiled build, which its importer falls back from)."""
    folder = root.joinpath(*name.split(".")[1:])
    return (folder.with_suffix(".py").is_file() or folder.with_suffix(".pyx").is_file()
            or (folder / "__init__.py").is_file())


def _imports(path: Path, module: str, root: Path = PACKAGE) -> list[tuple[int, str]]:
    """(line, absolute module name) of every import in the file."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.extend((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                name = ".".join([*base, node.module] if node.module else base)
            else:
                name = node.module or ""
            # ``from glyphweave.core import errors`` imports the submodule glyphweave.core.errors.
            for alias in node.names:
                sub = f"{name}.{alias.name}"
                found.append((node.lineno, sub if _is_submodule(root, sub) else name))
    return found


def _layer(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "glyphweave"


def violations(root: Path) -> list[str]:
    """Every import under ``root`` (a glyphweave package folder) that breaks the rules."""
    problems: list[str] = []
    for path in sorted(root.rglob("*.py")):
        module = _module_name(root, path)
        layer = _layer(module)
        allowed = ALLOWED.get(layer)
        if allowed is None:
            problems.append(f"{module}: layer {layer!r} is not in the package map")
            continue
        for line, name in _imports(path, module, root):
            top = name.split(".")[0]
            where = f"{path.relative_to(root)}:{line}"
            if top == "glyphweave":
                target = _layer(name)
                if target != layer and target not in allowed and name != "glyphweave":
                    problems.append(f"{where}: {layer}/ imports {name}")
                elif name == "glyphweave" and layer != "cli":
                    problems.append(f"{where}: {layer}/ imports the top-level package")
            elif top in THIRD_PARTY and layer not in THIRD_PARTY[top]:
                problems.append(f"{where}: {layer}/ imports {top}")
    return problems


def import_cycles(root: Path) -> list[list[str]]:
    """The groups of modules under ``root`` that import each other in a cycle (strongly
    connected components of the import graph, every import counted: a function-level or
    type-only import back is still a cycle a reader must untangle)."""
    graph: dict[str, set[str]] = {}
    for path in sorted(root.rglob("*.py")):
        module = _module_name(root, path)
        targets = graph.setdefault(module, set())
        for _line, name in _imports(path, module, root):
            if name.split(".")[0] != "glyphweave":
                continue
            while name != "glyphweave" and not _is_submodule(root, name):
                name = name.rpartition(".")[0]  # an attribute of a module: the module
            if name not in (module, "glyphweave"):
                targets.add(name)
    # Tarjan's algorithm, iteratively: (module, its targets not yet followed).
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    cycles: list[list[str]] = []
    for start in graph:
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        while work:
            module, targets = work[-1]
            target = next(targets, None)
            if target is not None:
                if target not in index:
                    index[target] = low[target] = len(index)
                    stack.append(target)
                    work.append((target, iter(sorted(graph.get(target, ())))))
                elif target in stack:
                    low[module] = min(low[module], index[target])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[module])
            if low[module] == index[module]:
                group = []
                while True:
                    member = stack.pop()
                    group.append(member)
                    if member == module:
                        break
                if len(group) > 1:
                    cycles.append(sorted(group))
    return cycles


def test_no_modules_import_each_other_in_a_cycle() -> None:
    assert import_cycles(PACKAGE) == []


def test_a_deliberate_cycle_is_caught(tmp_path: Path) -> None:
    root = tmp_path / "glyphweave"
    (root / "core").mkdir(parents=True)
    (root / "core" / "__init__.py").write_text("")
    (root / "core" / "a.py").write_text("def f():\n    from glyphweave.core.b import g\n")
    (root / "core" / "b.py").write_text("from glyphweave.core import a\n")
    (root / "core" / "c.py").write_text("from glyphweave.core.a import f\n")
    assert import_cycles(root) == [["glyphweave.core.a", "glyphweave.core.b"]]


def test_the_installed_package_keeps_the_package_map() -> None:
    assert violations(PACKAGE) == []


def test_core_imports_no_engine_and_no_upper_layer() -> None:
    # Spelled out for the rule that matters most: the core is small and stands alone (on the
    # guard layer below it only).
    for path in (PACKAGE / "core").rglob("*.py"):
        for _line, name in _imports(path, _module_name(PACKAGE, path)):
            assert name.split(".")[0] not in (*ENGINES, "pluggy"), path
            if name.startswith("glyphweave"):
                assert name.startswith(("glyphweave.core", "glyphweave.guard")), (path, name)


@pytest.mark.parametrize(
    ("layer", "source", "expected"),
    [
        ("core", "import pikepdf\n", "core/ imports pikepdf"),
        ("core", "from glyphweave.pdf.cmap import CMap\n", "core/ imports glyphweave.pdf.cmap"),
        ("core", "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from glyphweave.api import Page\n",
         "core/ imports glyphweave.api"),
        ("core", "def f():\n    from ..components import markers\n", "core/ imports glyphweave.components"),
        ("components", "from glyphweave.pdf import fonts\n", "components/ imports glyphweave.pdf"),
        ("plugins", "from glyphweave.pdf.fonts import FontLoader\n", "plugins/ imports glyphweave.pdf.fonts"),
        ("plugins", "import pikepdf\n", "plugins/ imports pikepdf"),
        ("plugins", "from glyphweave.core.stages import Decoder\n", "plugins/ imports glyphweave.core.stages"),
        ("layout", "from glyphweave.plugin import Decoder\n", "layout/ imports glyphweave.plugin"),
        ("core", "def f():\n    from glyphweave.layout import page_geometry\n", "core/ imports glyphweave.layout"),
        ("tables", "from glyphweave.api import open_document\n", "tables/ imports glyphweave.api"),
        ("pdf", "import pluggy\n", "pdf/ imports pluggy"),
    ],
)
def test_a_deliberate_violation_is_caught(tmp_path: Path, layer: str, source: str, expected: str) -> None:
    root = tmp_path / "glyphweave"
    (root / layer).mkdir(parents=True)
    (root / "__init__.py").write_text("")
    (root / layer / "__init__.py").write_text("")
    (root / layer / "bad.py").write_text(source)
    found = violations(root)
    assert len(found) == 1 and expected in found[0], found


def test_an_unknown_layer_is_reported(tmp_path: Path) -> None:
    root = tmp_path / "glyphweave"
    (root / "misc").mkdir(parents=True)
    (root / "misc" / "x.py").write_text("")
    assert violations(root) == ["glyphweave.misc.x: layer 'misc' is not in the package map"]


def test_no_module_is_left_behind_at_an_old_path() -> None:
    # glyphweave has had no release, so a module that moves leaves no alias behind: the
    # names that left core for pdf/, tables/ and the API are gone from core.
    for old in ("tokenizer", "interpreter", "fonts", "cmap", "predefined", "encodings", "derived_encodings",
                "std14", "document", "_moved"):
        assert not (PACKAGE / "core" / f"{old}.py").exists(), old


def test_the_plugin_module_exports_the_whole_contract() -> None:
    import glyphweave.plugin as plugin

    for name in ("hookimpl", "Decoder", "Filter", "Assembler", "Assembled", "Option", "PageContext", "FontInfo",
                 "GlyphTable", "Glyph", "Run", "RunGeometry", "run_frame", "run_page_size", "GlyphweaveError",
                 "ProfileError", "PluginError", "ComponentError", "is_weak", "strip_subset_prefix",
                 "glyph_name_to_unicode", "API_VERSION"):
        assert name in plugin.__all__ and getattr(plugin, name) is not None, name


def test_the_stable_contract_stays_small_and_versioned() -> None:
    # Every name here is a promise to plugin authors (docs/plugins.rst): the layout engine's
    # names are the provisional contract's, glyphweave.layout, so reading order can improve.
    import glyphweave.layout as layout
    import glyphweave.plugin as plugin

    assert len(plugin.__all__) <= 30
    major, minor = plugin.API_VERSION
    assert isinstance(major, int) and isinstance(minor, int)
    assert not set(plugin.__all__) & set(layout.__all__)
    for name in layout.__all__:
        assert getattr(layout, name) is not None, name


def test_core_stays_small() -> None:
    # The core is what every layer agrees on; engines (PDF, layout) live in layers of their own.
    assert not (PACKAGE / "core" / "geometry").exists()
    lines = sum(len(path.read_text(encoding="utf-8").splitlines()) for path in (PACKAGE / "core").rglob("*.py"))
    # The limits, the page clock and the warning records are the guard layer's, below the core.
    assert lines <= 1800, lines
