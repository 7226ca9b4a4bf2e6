"""matplotlib's PDF backend: a bar chart in Type3 fonts (the default) and in TrueType
(``pdf.fonttype = 42``), with a rotated axis label and mathtext. Charts have no natural
order; what must hold is that every label is read, once, with no private-use or
replacement character, and the title first."""

from __future__ import annotations

from pathlib import Path

import pytest

from .conftest import page_texts

matplotlib = pytest.importorskip("matplotlib")

LABELS = {"title": "Bicycles lent per station", "ylabel": "Loans per week", "xlabel": "Station",
          "ticks": ["Quay", "Market", "Abbey", "Mill"]}


def _chart(path: Path, fonttype: int) -> None:
    matplotlib.use("Agg", force=True)
    import matplotlib.pyplot as plt

    with matplotlib.rc_context({"pdf.fonttype": fonttype, "font.family": "DejaVu Sans"}):
        fig, ax = plt.subplots(figsize=(5, 3.5))
        ax.bar(LABELS["ticks"], [42, 17, 28, 9])
        ax.set_title(LABELS["title"])
        ax.set_ylabel(LABELS["ylabel"])
        ax.set_xlabel(LABELS["xlabel"])
        ax.text(2.5, 38, r"$\mu = 24$")
        fig.savefig(path)
        plt.close(fig)


@pytest.mark.parametrize("fonttype", [3, 42])
def test_every_chart_label_once_and_the_title_first(pdf_path: Path, fonttype: int):
    _chart(pdf_path, fonttype)
    [text] = page_texts(pdf_path)
    assert text.splitlines()[0] == LABELS["title"]
    lines = text.splitlines()
    for label in [LABELS["title"], LABELS["ylabel"], LABELS["xlabel"]]:
        assert lines.count(label) == 1, (label, text)
    got = text.split()
    for tick in LABELS["ticks"]:
        assert got.count(tick) == 1, (tick, text)
    assert "μ" in text and "24" in text
    assert not any("\ue000" <= ch <= "\uf8ff" or ch == "\ufffd" for ch in text)
