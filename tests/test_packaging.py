"""One import package, `lusoria`, with its grammars as package data."""

import subprocess
import sys
import zipfile

import pytest

from conftest import ROOT


@pytest.mark.parametrize("name", ["notation", "grammar", "validator", "archive", "formats"])
def test_no_generic_top_level_module(name, tmp_path):
    """Asked of a fresh interpreter in an empty folder (-I: no PYTHONPATH, no current folder on
    sys.path), so that how pytest was started (python -m pytest, coverage run) does not matter."""
    script = ("import importlib.util, sys; name = sys.argv[1]; "
              "print(importlib.util.find_spec(name) is None, importlib.util.find_spec('lusoria.' + name) is not None)")
    found = subprocess.run([sys.executable, "-I", "-c", script, name], cwd=tmp_path, capture_output=True, text=True,
                           check=True)
    assert found.stdout.split() == ["True", "True"]


def test_the_wheel_holds_only_the_lusoria_package_and_its_grammars(tmp_path):
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(tmp_path), str(ROOT)],
                   check=True, capture_output=True)
    (wheel,) = tmp_path.glob("lusoria-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    assert {name.split("/")[0] for name in names} == {"lusoria", wheel.name.split("-py")[0] + ".dist-info"}
    assert "lusoria/grammar/common.lark" in names and "lusoria/grammar/tablut.lark" in names
    assert "lusoria/cli.py" in names and "lusoria/validator/replay.py" in names
