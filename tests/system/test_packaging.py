"""One import package, `lusoria`, with its grammars as package data. The tests of the wheel
(marked `wheel`: building it compiles the accelerator, a minute) run as a step of their own,
`pytest -m wheel` (.ci/run), not in `pytest`."""

import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest
from conftest import ROOT

from lusoria import accelerator


@pytest.mark.parametrize("name", ["notation", "grammar", "validator", "archive", "formats"])
def test_no_generic_top_level_module(name, tmp_path):
    """Asked of a fresh interpreter in an empty folder (-I: no PYTHONPATH, no current folder on
    sys.path), so that how pytest was started (python -m pytest, coverage run) does not matter."""
    script = (
        "import importlib.util, sys; name = sys.argv[1]; "
        "print(importlib.util.find_spec(name) is None, importlib.util.find_spec('lusoria.' + name) is not None)"
    )
    found = subprocess.run(
        [sys.executable, "-I", "-c", script, name], cwd=tmp_path, capture_output=True, text=True, check=True
    )
    assert found.stdout.split() == ["True", "True"]


@pytest.fixture(scope="module")
def wheel(tmp_path_factory):
    folder = tmp_path_factory.mktemp("wheel")
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(folder), str(ROOT)],
        check=True,
        capture_output=True,
    )
    (built,) = folder.glob("lusoria-*.whl")
    return built


@pytest.mark.wheel
def test_the_wheel_holds_only_the_lusoria_package_and_its_grammars(wheel):
    names = zipfile.ZipFile(wheel).namelist()
    # (a wheel for this platform when compiled: lusoria-0.1.0-cp311-cp311-linux_x86_64.whl)
    assert {name.split("/")[0] for name in names} == {"lusoria", "-".join(wheel.name.split("-")[:2]) + ".dist-info"}
    texts = {f"lusoria/validator/{path.name}": path.read_bytes() for path in (ROOT / "validator").glob("*.toml")}
    assert "lusoria/validator/record.toml" in texts  # the rules' texts (lusoria explain)
    assert {name: zipfile.ZipFile(wheel).read(name) for name in texts} == texts
    assert "lusoria/grammar/common.lark" in names and "lusoria/grammar/tablut.lark" in names
    assert "lusoria/cli.py" in names and "lusoria/validator/replay.py" in names
    assert "lusoria/archive/datasette.json" in names  # the Datasette metadata


@pytest.mark.wheel
def test_explain_works_from_the_wheel_installed_outside_the_clone(wheel, tmp_path):
    """The rules' texts travel in the wheel: a fresh venv, the wheel installed in it (its
    dependencies taken from this environment), run from a folder outside the clone."""
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, capture_output=True)
    python = venv / "bin" / "python"
    subprocess.run(
        [python, "-m", "pip", "install", "-q", "--no-deps", "--no-index", str(wheel)], check=True, capture_output=True
    )
    site = subprocess.run(
        [python, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    dependencies = [p for p in sys.path if p.endswith("site-packages")]
    (Path(site) / "dependencies.pth").write_text("\n".join(dependencies) + "\n")
    result = subprocess.run([venv / "bin" / "lusoria", "explain", "q6"], cwd=tmp_path, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("Q6 (laquet)\n\nWhen a player cannot play all of their roll")
    assert "leftover: opponent | none" in result.stdout and "Example:" in result.stdout
    where = subprocess.run(
        [python, "-c", "import lusoria.rulebook as r; print(r.__file__)"], cwd=tmp_path, capture_output=True, text=True
    ).stdout
    assert where.startswith(str(venv))
    if accelerator.compiled():  # built here, so the wheel holds the compiled modules, and they run
        version = subprocess.run([venv / "bin" / "lusoria", "--version"], capture_output=True, text=True).stdout
        assert version == "lusoria, version 0.1.0 (compiled with mypyc)\n"


@pytest.mark.wheel
def test_the_license_file_matches_the_metadata_and_travels_in_the_wheel(wheel):
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert project["license"] == "MIT" and (ROOT / "LICENSE").read_text().startswith("MIT License\n")
    archive = zipfile.ZipFile(wheel)
    licenses = [name for name in archive.namelist() if name.endswith("/LICENSE")]
    assert len(licenses) == 1 and archive.read(licenses[0]) == (ROOT / "LICENSE").read_bytes()
    metadata = archive.read(next(n for n in archive.namelist() if n.endswith(".dist-info/METADATA"))).decode()
    assert "License-Expression: MIT" in metadata


@pytest.mark.wheel
def test_the_metadata_names_no_home_that_does_not_exist(wheel):
    """lusoria has no public home yet, so its metadata names none (a Project-URL would lead
    nowhere, in every installed copy), and the README, the package's long description, links
    into the project relatively: the links resolve in a clone and on any mirror
    (tests/system/test_docs.py follows every one). When lusoria has a home, [project.urls] names it."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    archive = zipfile.ZipFile(wheel)
    metadata = archive.read(next(n for n in archive.namelist() if n.endswith(".dist-info/METADATA"))).decode()
    assert "urls" not in project and "Project-URL" not in metadata and "Home-page" not in metadata
    assert "](docs/notation.md)" in metadata and "github.com/lusoria" not in metadata


def test_the_conformance_skip_message_says_what_is_missing_and_where_it_comes_from():
    from conftest import CONFORMANCE, MISSING_CONFORMANCE

    reason = MISSING_CONFORMANCE.format(CONFORMANCE)
    assert str(CONFORMANCE) in reason and "../shared/conformance" in reason
    assert "_valid.lgn" in reason and "independent implementation" in reason


def test_the_repository_tracks_no_large_file():
    """Build artefacts and binaries stay out of git (a wheel was once committed): no tracked
    file is over 1 MB."""
    listed = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True)
    if listed.returncode:
        pytest.skip("not a git checkout: nothing tracked to measure")
    tracked = [ROOT / name for name in listed.stdout.decode().split("\0") if name]
    assert tracked and not [path.name for path in tracked if path.is_file() and path.stat().st_size > 1_000_000]
