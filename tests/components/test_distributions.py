"""Entry points read from the distributions' files, against importlib.metadata's answer.

(In a full test run a dependency imports the importlib_metadata backport, whose finder then
answers for importlib.metadata: these tests hold with either.)

``glyphweave.components.distributions`` reads ``entry_points.txt`` and the metadata header
itself (importing importlib.metadata costs a sixth of a one-page run); it must find the same
distributions, labels and entry points in the same order, and step aside where it cannot
(an archive on the path, importlib.metadata imported already).
"""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from glyphweave.components import distributions
from glyphweave.components.distributions import EntryPoint, _by_importlib, _from_files, _plain_paths


def _answer(found: list[tuple[str, list]]) -> list[tuple[str, list[tuple[str, str, str]]]]:
    return [(label, [(ep.name, ep.value, ep.group) for ep in eps]) for label, eps in found]


def _dist_info(site: Path, folder: str, entry_points: str | None, header: str | None,
               metadata_name: str = "METADATA") -> None:
    where = site / folder
    where.mkdir(parents=True)
    if entry_points is not None:
        (where / "entry_points.txt").write_text(entry_points, encoding="utf-8")
    if header is not None:
        (where / metadata_name).write_text(header, encoding="utf-8")


def test_the_installed_distributions_read_as_importlib_metadata_reads_them() -> None:
    for group in ("glyphweave", "console_scripts", "pytest11"):
        assert _answer(_from_files(group)) == _answer(_by_importlib(group))
    assert any(label.startswith("glyphweave ") for label, _ in _from_files("glyphweave"))


def test_made_up_site_folders(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    first, second = tmp_path / "first", tmp_path / "second"
    _dist_info(first, "alpha_plugin-1.0.dist-info",
               "# a comment\n[glyphweave]\nalpha = alpha_mod:hook\n beta=pkg.sub : attr.inner [extra]\n"
               "[other]\nx = y\n", "Metadata-Version: 2.1\nName: alpha-plugin\nVersion: 1.0\n\nName: not this\n")
    _dist_info(first, "gamma.egg-info", "[glyphweave]\ngamma = gamma_mod\n", "Name: gamma\nVersion: 0.3\n",
               metadata_name="PKG-INFO")
    _dist_info(first, "nameless-2.dist-info", "[glyphweave]\nn = n_mod\n", None)
    _dist_info(first, "empty_metadata-1.dist-info", "[glyphweave]\ne = e_mod\n", "")
    _dist_info(first, "other-1.dist-info", "[console_scripts]\nother = other:main\n", "Name: other\nVersion: 1\n")
    (first / "loose.egg-info").write_text("Name: loose\n", encoding="utf-8")  # a file: no entry points
    _dist_info(second, "Alpha.Plugin-0.9.dist-info", "[glyphweave]\nalpha = old_alpha\n",
               "Name: Alpha.Plugin\nVersion: 0.9\n")  # the same distribution, further down the path
    monkeypatch.setattr(sys, "path", [str(first), str(tmp_path / "missing"), str(second)])
    found = _answer(_from_files("glyphweave"))
    assert found == _answer(_by_importlib("glyphweave"))
    assert ("alpha-plugin 1.0", [("alpha", "alpha_mod:hook", "glyphweave"),
                                 ("beta", "pkg.sub : attr.inner [extra]", "glyphweave")]) in found
    assert ("gamma 0.3", [("gamma", "gamma_mod", "glyphweave")]) in found
    assert ("(unnamed) (no version)", [("n", "n_mod", "glyphweave")]) in found
    assert found[-1] == ("Alpha.Plugin 0.9", [("alpha", "old_alpha", "glyphweave")])


def test_a_directory_is_read_again_only_when_it_changes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    site = tmp_path / "site"
    site.mkdir()
    monkeypatch.setattr(sys, "path", [str(site)])
    assert _from_files("glyphweave") == []
    _dist_info(site, "late-1.0.dist-info", "[glyphweave]\nlate = late_mod\n", "Name: late\nVersion: 1.0\n")
    later = site.stat().st_mtime_ns + 10**9  # (a coarse clock may not have ticked since the first read)
    os.utime(site, ns=(later, later))
    assert _answer(_from_files("glyphweave")) == [("late 1.0", [("late", "late_mod", "glyphweave")])]
    reads: list[object] = []
    monkeypatch.setattr(distributions, "_read_entry_points", lambda *args: reads.append(args) or [])
    assert _answer(_from_files("glyphweave")) == [("late 1.0", [("late", "late_mod", "glyphweave")])]
    assert not reads


def test_a_line_with_no_equals_sign_is_skipped(tmp_path: Path) -> None:
    # (importlib.metadata fails on the whole file: TypeError from its Pair.)
    path = tmp_path / "entry_points.txt"
    path.write_text("[glyphweave]\nno equals sign here\nok = ok_mod\n", encoding="utf-8")
    assert distributions._read_entry_points(str(path), "glyphweave") == [EntryPoint("ok", "ok_mod", "glyphweave")]


def test_an_archive_on_the_path_is_left_to_importlib_metadata(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    archive = tmp_path / "plugins.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        zf.writestr("zipped-1.0.dist-info/entry_points.txt", "[glyphweave]\nzipped = zipped_mod\n")
        zf.writestr("zipped-1.0.dist-info/METADATA", "Name: zipped\nVersion: 1.0\n")
    monkeypatch.setattr(sys, "path", [str(archive)])
    assert not _plain_paths()
    assert _answer(distributions.declaring("glyphweave")) == [("zipped 1.0", [("zipped", "zipped_mod",
                                                                                 "glyphweave")])]


def test_loading_an_entry_point() -> None:
    assert EntryPoint("j", "json:dumps", "g").load() is __import__("json").dumps
    assert EntryPoint("p", "os.path : join", "g").load() is __import__("os").path.join
    assert EntryPoint("m", "json [extra]", "g").load() is __import__("json")
    with pytest.raises(ValueError, match="is not 'module' or 'module:attribute'"):
        EntryPoint("bad", "not a module!", "g").load()


def test_a_fresh_process_reads_the_plugins_importlib_metadata_lists() -> None:
    # Out of this process (nothing patched, no backport imported): the files are read. Both listings are
    # made in that process, since its path may differ from this one's (pytest puts test folders on it, and
    # an installed plugin's source folder holds an egg-info of its own).
    probe = ("from glyphweave.components.distributions import _by_importlib, _from_files;"
             "import sys;"
             "listed = lambda found: [(label, [(ep.name, ep.value) for ep in eps]) for label, eps in found];"
             "read = listed(_from_files('glyphweave'));"
             "assert 'importlib.metadata' not in sys.modules, 'the files were not what answered';"
             "print(read == listed(_by_importlib('glyphweave')), read)")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=60)
    same, _, listing = done.stdout.strip().partition(" ")
    assert same == "True", listing
    assert "glyphweave " in listing
