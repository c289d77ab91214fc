"""One import package, `lusoria`, with its grammars as package data."""

import importlib.util
import subprocess
import sys
import zipfile

import pytest

from conftest import ROOT


@pytest.mark.parametrize("name", ["notation", "grammar", "validator", "archive"])
def test_no_generic_top_level_module(name):
    assert importlib.util.find_spec(name) is None
    assert importlib.util.find_spec(f"lusoria.{name}") is not None


def test_the_wheel_holds_only_the_lusoria_package_and_its_grammars(tmp_path):
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(tmp_path), str(ROOT)],
                   check=True, capture_output=True)
    (wheel,) = tmp_path.glob("lusoria-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    assert {name.split("/")[0] for name in names} == {"lusoria", wheel.name.split("-py")[0] + ".dist-info"}
    assert "lusoria/grammar/common.lark" in names and "lusoria/grammar/tablut.lark" in names
    assert "lusoria/cli.py" in names and "lusoria/validator/replay.py" in names
    assert "lusoria/archive/datasette.json" in names  # the Datasette metadata
