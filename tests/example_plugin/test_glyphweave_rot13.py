"""The example plugin's own tests, written with glyphweave's test kit as a plugin author would.

The fixtures come from glyphweave's pytest plugin (installed with glyphweave); ``tox -e
example-plugin`` runs these with the plugin installed, the other envs with it imported from
this folder.
"""

from __future__ import annotations

import glyphweave_rot13


def test_the_profile_rot13s_the_text(glyphweave_extract, glyphweave_pdf):
    pdf = glyphweave_pdf.make_pdf(glyphweave_pdf.text_at("Hello, world"))
    assert glyphweave_extract(pdf, plugins=[glyphweave_rot13], profile="rot13") == "Uryyb, jbeyq\f"


def test_the_mode_switch_on_the_default_profile(glyphweave_extract, glyphweave_pdf):
    pdf = glyphweave_pdf.make_pdf(glyphweave_pdf.text_at("abc", matrix=(2, 0, 0, 2)))
    assert glyphweave_extract(pdf, plugins=[glyphweave_rot13], mode="rot13", separator="") == "nop"
    assert glyphweave_extract(pdf, plugins=[glyphweave_rot13], separator="") == "abc\n"


def test_unresolved_glyphs_show_the_placeholder(glyphweave_extract, glyphweave_pdf):
    # Code 0x01 of a Type 3 font without an encoding entry has no text anywhere.
    pdf = glyphweave_pdf.make_pdf(b"BT /F1 10 Tf 72 700 Td <6101> Tj ET", fonts={"F1": glyphweave_pdf.type3()})
    assert glyphweave_extract(pdf, plugins=[glyphweave_rot13], mode="rot13", separator="") == "n "


def test_the_components_are_registered(glyphweave_plugin_manager):
    from glyphweave.components import Catalog

    catalog = Catalog.from_plugin_manager(glyphweave_plugin_manager(glyphweave_rot13))
    # (by name: with the plugin installed, the entry point's copy of the module is the one used)
    assert catalog.get("assembler", "rot13").__qualname__ == glyphweave_rot13.Rot13Assembler.__qualname__
    assert "rot13" in catalog.profile_sources()


def test_an_empty_page(glyphweave_extract, glyphweave_pdf):
    pdf = glyphweave_pdf.make_pdf(b"")
    assert glyphweave_extract(pdf, plugins=[glyphweave_rot13], profile="rot13") == "\f"
