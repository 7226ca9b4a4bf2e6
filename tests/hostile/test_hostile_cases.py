"""Every hostile case of the catalogue (``cases.py``) through ``glyphweave extract`` as a user
runs it: in a child capped at 4 GB of address space, whose peak resident memory must stay
within 1 GB, keeping the text from before the attack, exiting with the case's status under
``--strict`` (and 0 without it: run on the light cases only, as the heavy ones would cost twice
for a rule of the command's, not of the case), with one warning naming the limit.

Times are the benchmark's (``benchmarks/hostile.py``), never asserted here: the subprocess
timeout only guards against a hang. Heavy cases are marked ``slow`` (deselected by default;
``tox -e hostile`` runs them once, not on every Python). A case that fails today is marked
xfail, strictly, with the item of the issue that fixes it: the mark comes off with the fix.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from .capped import glyphweave_extract, run_capped
from .cases import PEAK_MB, Case, catalogue, warned_as_due

FAILING_TODAY: dict[str, str] = {}
"""Case name -> why it fails today, and which item of an issue fixes it (xfail, strictly: the
mark comes off with the fix). Empty since issue 26 landed."""


def _param(case: Case) -> object:
    marks = [pytest.mark.slow] if case.heavy else []
    if case.name in FAILING_TODAY:
        marks.append(pytest.mark.xfail(strict=True, reason=FAILING_TODAY[case.name]))
    return pytest.param(case, id=case.name, marks=marks)


@pytest.mark.parametrize("case", [_param(case) for case in catalogue()])
def test_a_hostile_case_ends_within_the_bounds(case: Case, tmp_path: Path) -> None:
    pdf = tmp_path / f"{case.name}.pdf"
    pdf.write_bytes(case.build())
    strict = run_capped(glyphweave_extract(pdf, "--strict", *case.args), tmp_path / "strict")
    assert strict.status is not None, "killed at the hang guard"
    assert strict.peak_mb <= PEAK_MB, f"peak RSS {strict.peak_mb:.0f} MB"
    missing = [words for words in case.kept if words not in strict.out]
    assert not missing, f"text lost: {missing}; {strict.err[-2000:]}"
    assert strict.status == case.strict, strict.err[-2000:]
    assert warned_as_due(case, strict.warnings), strict.warnings
    if case.heavy:
        return  # the status without --strict is one rule of the command's, proved on the light cases
    plain = run_capped(glyphweave_extract(pdf, *case.args), tmp_path / "plain")
    assert plain.status == 0, plain.err[-2000:]
    assert plain.peak_mb <= PEAK_MB, f"peak RSS {plain.peak_mb:.0f} MB"
