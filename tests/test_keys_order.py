"""No order from pikepdf's ``keys()``: it returns a Python set, ordered by each process's string
hashing, so anything read in that order changes from one run to the next (a Type3 font's glyphs
were, and the shape reader read a page differently by hash seed). Every ``.keys()`` call in the
package is wrapped in ``sorted()``, or says on its line why its order is not pikepdf's
(``keys-order:``)."""

from __future__ import annotations

import ast
from pathlib import Path

import glyphweave

PACKAGE = Path(glyphweave.__file__).resolve().parent


def unordered_keys_calls(root: Path) -> list[str]:
    found = []
    for path in sorted(root.rglob("*.py")):
        source = path.read_text(encoding="utf-8")
        lines = source.splitlines()
        tree = ast.parse(source)
        sorted_args = {id(arg) for node in ast.walk(tree)
                       if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "sorted"
                       for arg in node.args}
        for node in ast.walk(tree):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "keys"
                    and not node.args and id(node) not in sorted_args
                    and "keys-order:" not in lines[node.lineno - 1]):
                found.append(f"{path.relative_to(root)}:{node.lineno}")
    return found


def test_no_keys_call_leaves_its_order_to_hashing():
    assert unordered_keys_calls(PACKAGE) == []


def test_the_check_finds_an_unsorted_keys_call(tmp_path):
    (tmp_path / "bad.py").write_text("def f(d):\n    return list(d.keys())\n", encoding="utf-8")
    (tmp_path / "good.py").write_text("def f(d):\n    return sorted(d.keys())\n", encoding="utf-8")
    assert unordered_keys_calls(tmp_path) == ["bad.py:2"]
