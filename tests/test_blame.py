"""A component that fails at run time is named, with its plugin, distribution and page."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

import glyphweave
from glyphweave.cli import EXIT_PLUGIN, EXIT_WARNINGS, main
from glyphweave.core.errors import ComponentError
from glyphweave.plugin import Assembler, Decoder, Filter
from glyphweave.testing import fake_entry_point_distribution, fresh_plugin_manager, make_plugin
from pdfs import Page, make_pdf

HELLO = b"BT /F1 10 Tf 100 700 Td (Hello) Tj ET"
TWO_PAGES = make_pdf(HELLO, extra_pages=[Page(b"BT /F1 10 Tf 100 700 Td (World) Tj ET")])


class Raising(Decoder):
    """Raises on every code."""

    NAME = "raising"

    def decode(self, font, code, cid):  # type: ignore[no-untyped-def]
        raise ZeroDivisionError("division by zero")


class NotText(Decoder):
    """Answers bytes instead of text."""

    NAME = "not-text"

    def decode(self, font, code, cid):  # type: ignore[no-untyped-def]
        return code


class WrongSignature(Decoder):
    """Forgets the cid argument."""

    NAME = "wrong-signature"

    def decode(self, font, code):  # type: ignore[no-untyped-def,override]
        return "x"


class DividingFilter(Filter):
    """Divides by zero."""

    NAME = "dividing"

    def apply(self, page, indices):  # type: ignore[no-untyped-def]
        return [i // 0 for i in indices]


class StringFilter(Filter):
    """Returns the glyphs' text instead of their indices."""

    NAME = "strings"

    def apply(self, page, indices):  # type: ignore[no-untyped-def]
        return [page.table.text[i] for i in indices]


class ReorderingFilter(Filter):
    """Returns the indices backwards."""

    NAME = "reordering"

    def apply(self, page, indices):  # type: ignore[no-untyped-def]
        return list(reversed(indices))


class InventingFilter(Filter):
    """Returns an index it never received."""

    NAME = "inventing"

    def apply(self, page, indices):  # type: ignore[no-untyped-def]
        return [*indices, 10**6]


class NoneAssembler(Assembler):
    """Forgets to return."""

    NAME = "none"

    def assemble(self, page, indices):  # type: ignore[no-untyped-def]
        return None


class KeyErrorAssembler(Assembler):
    """Looks up a column that does not exist."""

    NAME = "key-error"

    def assemble(self, page, indices):  # type: ignore[no-untyped-def]
        return {}["missing"]


PLUGIN = make_plugin(
    name="blame-test",
    decoders=[Raising, NotText, WrongSignature],
    filters=[DividingFilter, StringFilter, ReorderingFilter, InventingFilter],
    assemblers=[NoneAssembler, KeyErrorAssembler],
)


def _open(**profile: object) -> glyphweave.Document:
    base = {"decoders": ["tounicode", "encoding", "standard-fallback"], "filters": [], "assembler": "reading"}
    base.update(profile)
    toml = "[profile]\nname = 't'\n" + "".join(
        f"{key} = {value!r}\n".replace("'", '"') for key, value in base.items()
    )
    pm = fresh_plugin_manager(PLUGIN, entrypoints=True)
    from glyphweave.components import Catalog, Profile

    prof = Profile.from_toml(toml, Catalog.from_plugin_manager(pm))
    return glyphweave.open(TWO_PAGES, profile=prof, plugin_manager=pm)


@pytest.mark.parametrize(
    ("decoder", "problem"),
    [
        ("raising", "raised ZeroDivisionError 7 times (first: font 'Helvetica', code 0x48: division by zero)"),
        ("not-text", "returned bytes instead of str or None 7 times (first: font 'Helvetica', code 0x48: b'H')"),
        ("wrong-signature", "raised TypeError 7 times (first: font 'Helvetica', code 0x48: "),
    ],
)
def test_a_failing_decoder_is_a_counted_warning_that_names_it(decoder: str, problem: str) -> None:
    with _open(decoders=[decoder, "encoding", "standard-fallback"]) as doc:
        text = doc.text()
        warnings = doc.component_warnings
        stats = doc.stats
    assert "Hello" in text and "World" in text  # the later decoders still answered
    assert len(warnings) == 1  # once per (decoder, exception type), not once per code or page
    assert (warnings[0].kind, warnings[0].page) == ("component", 1)
    assert str(warnings[0]).startswith(f"page 1: decoder {decoder!r} of plugin 'blame-test' (not installed) {problem}")
    assert stats.warnings == 1


@pytest.mark.parametrize(
    ("flt", "problem"),
    [
        ("dividing", "failed: ZeroDivisionError: integer division or modulo by zero"),
        ("strings", "returned str 'H' among the glyph indices"),
        ("reordering", "returned index 3, which it did not receive or not in paint order"),
        ("inventing", "returned index 1000000, which it did not receive or not in paint order"),
    ],
)
def test_a_failing_filter_is_one_error_that_names_it(flt: str, problem: str) -> None:
    with _open(filters=[flt]) as doc, pytest.raises(ComponentError) as info:
        doc.text()
    assert str(info.value) == f"page 1: filter {flt!r} of plugin 'blame-test' (not installed) {problem}"


@pytest.mark.parametrize(
    ("assembler", "problem"),
    [("none", "returned NoneType None, not str or Assembled"), ("key-error", "failed: KeyError: 'missing'")],
)
def test_a_failing_assembler_is_one_error_that_names_it(assembler: str, problem: str) -> None:
    with _open(assembler=assembler) as doc, pytest.raises(ComponentError) as info:
        doc.pages[1].text()
    assert str(info.value) == f"page 2: assembler {assembler!r} of plugin 'blame-test' (not installed) {problem}"


def test_a_builtin_component_asks_for_a_report(monkeypatch: pytest.MonkeyPatch) -> None:
    from glyphweave.plugins.filters.dedup import DedupFilter

    def broken(self, page, indices):  # type: ignore[no-untyped-def]
        raise RuntimeError("oops")

    monkeypatch.setattr(DedupFilter, "apply", broken)
    with glyphweave.open(TWO_PAGES) as doc, pytest.raises(ComponentError) as info:
        doc.text()
    message = str(info.value)
    assert message.startswith("page 1: filter 'dedup' of plugin 'dedup' (glyphweave ")
    assert message.endswith("failed: RuntimeError: oops (please report this with the file)")


# -- the command line -------------------------------------------------------------------------------


@pytest.fixture
def installed(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """A plugin distribution ``glyphweave-broken 1.0`` with a raising decoder and filter, installed
    (faked), and a PDF."""
    (tmp_path / "glyphweave_broken.py").write_text(textwrap.dedent('''
        from glyphweave.plugin import Decoder, Filter, hookimpl

        class Broken(Decoder):
            """Always raises."""
            NAME = "broken"
            def decode(self, font, code, cid):
                raise ValueError("no table for " + font.base_font)

        class BrokenFilter(Filter):
            """Always raises."""
            NAME = "broken-filter"
            def apply(self, page, indices):
                raise ZeroDivisionError("division by zero")

        @hookimpl
        def glyphweave_register_decoders():
            return [Broken]

        @hookimpl
        def glyphweave_register_filters():
            return [BrokenFilter]
    '''))
    monkeypatch.syspath_prepend(str(tmp_path))
    fake_entry_point_distribution(monkeypatch, "glyphweave-broken", "1.0", {"broken": "glyphweave_broken"})
    pdf = tmp_path / "doc.pdf"
    pdf.write_bytes(TWO_PAGES)
    return pdf


def _profile(tmp_path: Path, **keys: str) -> str:
    path = tmp_path / "p.toml"
    body = "".join(f"{k} = {v}\n" for k, v in keys.items())
    path.write_text('[profile]\nextends = "default"\n' + body)
    return str(path)


def test_cli_prints_a_decoder_failure_once_and_exits_0(installed: Path, capsys: pytest.CaptureFixture[str]) -> None:
    profile = _profile(installed.parent, decoders='["broken", "encoding", "standard-fallback"]')
    assert main(["extract", str(installed), "--profile", profile]) == 0
    out, err = capsys.readouterr()
    assert "Hello" in out and "World" in out
    assert err == ("glyphweave: warning: page 1: decoder 'broken' of plugin 'broken' (glyphweave-broken 1.0) "
                   "raised ValueError 7 times (first: font 'Helvetica', code 0x48: no table for Helvetica)\n")


def test_cli_strict_turns_warnings_into_an_exit_status(installed: Path, capsys: pytest.CaptureFixture[str]) -> None:
    profile = _profile(installed.parent, decoders='["broken", "encoding", "standard-fallback"]')
    assert main(["extract", str(installed), "--profile", profile, "--strict"]) == EXIT_WARNINGS
    assert capsys.readouterr().err.endswith("glyphweave: 1 warning(s) (--strict)\n")
    assert main(["extract", str(installed), "--strict"]) == 0


def test_cli_names_a_failing_filter_and_not_glyphweave(installed: Path, capsys: pytest.CaptureFixture[str]) -> None:
    profile = _profile(installed.parent, filters='["broken-filter"]')
    assert main(["extract", str(installed), "--profile", profile]) == EXIT_PLUGIN
    err = capsys.readouterr().err
    assert err == ("glyphweave: error: page 1: filter 'broken-filter' of plugin 'broken' (glyphweave-broken 1.0) "
                   "failed: ZeroDivisionError: division by zero\n")
    assert "please report" not in err


# -- structured assembler output -------------------------------------------------------------------


class WordsAssembler(Assembler):
    """Text plus the glyph count and first origin as data."""

    NAME = "words"

    def assemble(self, page, indices):  # type: ignore[no-untyped-def]
        from glyphweave.plugin import Assembled

        text = "".join(page.table.text[i] for i in indices)
        return Assembled(text=text, data={"glyphs": len(indices), "first": [page.table.ox[indices[0]]]})


class UnwritableAssembler(Assembler):
    """Returns data JSON cannot write."""

    NAME = "unwritable"

    def assemble(self, page, indices):  # type: ignore[no-untyped-def]
        from glyphweave.plugin import Assembled

        return Assembled(text="x", data={"set": {1, 2}})


def test_structured_output_through_the_api() -> None:
    pm = fresh_plugin_manager(make_plugin(assemblers=[WordsAssembler], name="words"), entrypoints=True)
    with glyphweave.open(TWO_PAGES, plugin_manager=pm) as doc:
        assert doc.pages[0].text("words") == "Hello"
        result = doc.pages[0].assembled("words")
        assert result.text == "Hello" and result.data == {"glyphs": 5, "first": [100.0]}
        assert doc.pages[0].assembled().data is None  # the reading assembler returns text only


def test_structured_output_in_jsonl_is_embedded_once(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    import json
    import sys

    module = type(sys)("gw_words")
    module.glyphweave_register_assemblers = glyphweave.hookimpl(lambda: [WordsAssembler, UnwritableAssembler])
    monkeypatch.setitem(sys.modules, "gw_words", module)
    pdf = tmp_path / "two.pdf"
    pdf.write_bytes(TWO_PAGES)
    assert main(["extract", str(pdf), "-p", "gw_words", "--mode", "words", "--format", "jsonl"]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [line["text"] for line in lines] == ["Hello", "World"]
    assert lines[0]["data"] == {"glyphs": 5, "first": [100.0]}  # an object, not a JSON string in a string
    assert main(["extract", str(pdf), "-p", "gw_words", "--mode", "unwritable", "--format", "jsonl"]) == EXIT_PLUGIN
    assert "page 1: assembler 'unwritable' returned data JSON cannot write" in capsys.readouterr().err
