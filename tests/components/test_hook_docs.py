"""Docs and tests that cannot drift: every hook has a docstring, a docs entry and a test."""

from __future__ import annotations

import inspect
from pathlib import Path

import pytest

from glyphweave.components import hookspecs

REPO = Path(__file__).resolve().parents[2]
HOOKS = sorted(name for name, value in vars(hookspecs).items()
               if name.startswith("glyphweave_") and inspect.isfunction(value))


def test_there_are_hooks() -> None:
    assert "glyphweave_register_decoders" in HOOKS and len(HOOKS) >= 4


@pytest.mark.parametrize("hook", HOOKS)
def test_every_hook_has_a_docstring_saying_what_none_means(hook: str) -> None:
    doc = inspect.getdoc(getattr(hookspecs, hook)) or ""
    assert len(doc.split()) >= 8, f"{hook} needs a docstring"
    assert "None" in doc, f"{hook}'s docstring must say what returning None means"


@pytest.mark.parametrize("hook", HOOKS)
def test_every_hook_is_in_the_plugin_guide(hook: str) -> None:
    guide = (REPO / "docs" / "plugins.rst").read_text(encoding="utf-8")
    assert f"``{hook}``" in guide, f"docs/plugins.rst lists no entry for {hook}"


@pytest.mark.parametrize("hook", HOOKS)
def test_every_hook_is_exercised_by_a_test(hook: str) -> None:
    here = Path(__file__).resolve()
    users = [path for path in (REPO / "tests").rglob("*.py")
             if path != here and hook in path.read_text(encoding="utf-8")]
    assert users, f"no test implements or calls {hook}"
