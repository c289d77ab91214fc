"""One import package, `lusoria`, with its grammars as package data."""

import importlib.util
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from conftest import ROOT


@pytest.mark.parametrize("name", ["notation", "grammar", "validator", "archive"])
def test_no_generic_top_level_module(name):
    assert importlib.util.find_spec(name) is None
    assert importlib.util.find_spec(f"lusoria.{name}") is not None


@pytest.fixture(scope="module")
def wheel(tmp_path_factory):
    folder = tmp_path_factory.mktemp("wheel")
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(folder), str(ROOT)],
                   check=True, capture_output=True)
    (built,) = folder.glob("lusoria-*.whl")
    return built


def test_the_wheel_holds_only_the_lusoria_package_and_its_grammars(wheel):
    names = zipfile.ZipFile(wheel).namelist()
    assert {name.split("/")[0] for name in names} == {"lusoria", wheel.name.split("-py")[0] + ".dist-info"}
    assert zipfile.ZipFile(wheel).read("lusoria/rules.md") == (ROOT / "docs" / "rules.md").read_bytes()
    assert "lusoria/grammar/common.lark" in names and "lusoria/grammar/tablut.lark" in names
    assert "lusoria/cli.py" in names and "lusoria/validator/replay.py" in names


def test_explain_works_from_the_wheel_installed_outside_the_clone(wheel, tmp_path):
    """The rules' texts travel in the wheel: a fresh venv, the wheel installed in it (its
    dependencies taken from this environment), run from a folder outside the clone."""
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, capture_output=True)
    python = venv / "bin" / "python"
    subprocess.run([python, "-m", "pip", "install", "-q", "--no-deps", "--no-index", str(wheel)],
                   check=True, capture_output=True)
    site = subprocess.run([python, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
                          check=True, capture_output=True, text=True).stdout.strip()
    dependencies = [p for p in sys.path if p.endswith("site-packages")]
    (Path(site) / "dependencies.pth").write_text("\n".join(dependencies) + "\n")
    result = subprocess.run([venv / "bin" / "lusoria", "explain", "q6"], cwd=tmp_path,
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("Q6 (laquet)\n\nWhen a player cannot play all of their roll")
    assert "leftover: opponent | none" in result.stdout and "Example:" in result.stdout
    where = subprocess.run([python, "-c", "import lusoria.rulebook as r; print(r.__file__)"], cwd=tmp_path,
                           capture_output=True, text=True).stdout
    assert where.startswith(str(venv))
