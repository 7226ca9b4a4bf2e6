"""The build backend's choice between the compiled and the pure build (tools/build_backend.py):
compiled where a C compiler is found, pure with one line of notice where not, and the two
settings that decide otherwise. The compiled build itself is tested by the mypyc tox envs."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

BACKEND = Path(__file__).resolve().parents[1] / "tools" / "build_backend.py"

pytestmark = pytest.mark.skipif(not BACKEND.is_file(), reason="tools/build_backend.py is not beside the tests")


@pytest.fixture
def backend(monkeypatch):
    pytest.importorskip("setuptools.build_meta")
    spec = importlib.util.spec_from_file_location("glyphweave_build_backend_under_test", BACKEND)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    for name in ("GLYPHWEAVE_MYPYC", "GLYPHWEAVE_PURE", "GLYPHWEAVE_COMPILE", "CC"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr(module._setuptools, "get_requires_for_build_wheel", lambda config_settings=None: ["wheel"])
    monkeypatch.setattr(module._setuptools, "get_requires_for_build_editable", lambda config_settings=None: ["wheel"])
    return module


def test_a_c_compiler_gives_the_compiled_build_with_mypy_to_build_it(backend, monkeypatch):
    monkeypatch.setattr(backend, "c_compiler", lambda: "/usr/bin/cc")
    assert backend.build_kind() == "optional"
    assert backend.get_requires_for_build_wheel() == ["wheel", *backend.COMPILED_BUILD_REQUIRES]


def test_no_c_compiler_gives_the_pure_build_and_says_so(backend, monkeypatch, capsys):
    monkeypatch.setattr(backend, "c_compiler", lambda: None)
    assert backend.build_kind() == "pure"
    assert "no C compiler found" in capsys.readouterr().err
    assert backend.get_requires_for_build_wheel() == ["wheel"]


def test_the_two_settings_decide_whatever_the_machine_has(backend, monkeypatch, capsys):
    monkeypatch.setattr(backend, "c_compiler", lambda: "/usr/bin/cc")
    monkeypatch.setenv("GLYPHWEAVE_PURE", "1")
    assert backend.build_kind() == "pure"
    assert backend.get_requires_for_build_wheel() == ["wheel"]
    monkeypatch.delenv("GLYPHWEAVE_PURE")
    monkeypatch.setattr(backend, "c_compiler", lambda: None)
    monkeypatch.setenv("GLYPHWEAVE_MYPYC", "1")
    assert backend.build_kind() == "required"  # a missing compiler is then the build's error
    assert capsys.readouterr().err == ""


def test_an_editable_install_is_never_compiled(backend, monkeypatch):
    monkeypatch.setattr(backend, "c_compiler", lambda: "/usr/bin/cc")
    assert backend.get_requires_for_build_editable() == ["wheel"]
    monkeypatch.setenv("GLYPHWEAVE_MYPYC", "1")
    with pytest.raises(SystemExit, match="builds wheels only"):
        backend.get_requires_for_build_editable()


def test_the_compiler_is_cc_else_pythons_own(backend, monkeypatch):
    monkeypatch.setenv("CC", "/no/such/compiler -O2")
    assert backend.c_compiler() is None
    monkeypatch.setenv("CC", f"{sys.executable} -c pass")
    assert backend.c_compiler() == sys.executable


def test_the_source_distribution_takes_every_c_source():
    # A .pyx the manifest leaves out would build a pure package from the sdist, silently.
    from glyphweave.accelerated import NATIVE

    root = BACKEND.parents[1]
    manifest = (root / "MANIFEST.in").read_text(encoding="utf-8").split("\n")
    assert "recursive-include src/glyphweave *.pyx" in manifest
    for name in NATIVE:
        assert (root / "src" / Path(*name.split("."))).with_suffix(".pyx").is_file(), name
