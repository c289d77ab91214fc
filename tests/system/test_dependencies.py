"""Every package imported is declared in pyproject.toml: the library's third-party imports among
its dependencies or an extra, the tests' among the dependencies or the test extra."""

import ast
import re
import sys
import tomllib
from importlib.metadata import packages_distributions
from pathlib import Path

import pytest
from conftest import ROOT

PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())
PROJECT = PYPROJECT["project"]
FOLDERS = PYPROJECT["tool"]["setuptools"]["package-dir"].values()
TESTS = ROOT / "tests"
OWN_TESTS = {name for path in TESTS.rglob("*.py") for name in (path.stem, path.parent.name)}  # modules, packages


def declared(requirements: list[str]) -> set[str]:
    """The distributions `requirements` name, as pip compares them."""
    return {_canonical(re.match(r"[A-Za-z0-9._-]+", requirement)[0]) for requirement in requirements}


def _canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def imported(paths: list[Path]) -> dict[str, Path]:
    """The top-level names `paths` import (also by pytest.importorskip), each with a file that does."""
    found: dict[str, Path] = {}
    for path in paths:
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
                names = [node.module]
            elif (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr == "importorskip"
                and isinstance(node.args[0], ast.Constant)
            ):
                names = [node.args[0].value]
            else:
                continue
            for name in names:
                found.setdefault(name.partition(".")[0], path)
    return found


def third_party(names: dict[str, Path], own: set[str]) -> dict[str, tuple[set[str], Path]]:
    """Of `names`, those neither of the standard library nor in `own`: their distributions."""
    distributions = packages_distributions()
    return {
        name: ({_canonical(found) for found in distributions.get(name, [name])}, path)
        for name, path in names.items()
        if name not in sys.stdlib_module_names and name not in own
    }


@pytest.mark.parametrize(
    "paths, allowed, own",
    [
        (
            [path for folder in FOLDERS for path in (ROOT / folder).glob("*.py")],
            declared(PROJECT["dependencies"] + sum(PROJECT["optional-dependencies"].values(), [])),
            {"lusoria"},
        ),
        (
            sorted(TESTS.rglob("*.py")),
            declared(PROJECT["dependencies"] + PROJECT["optional-dependencies"]["test"]),
            {"lusoria", *OWN_TESTS},
        ),
    ],
    ids=["library", "tests"],
)
def test_every_imported_package_is_declared(paths, allowed, own):
    undeclared = {
        name: f"{path.relative_to(ROOT)} imports it; it is of {', '.join(sorted(distributions))}"
        for name, (distributions, path) in third_party(imported(paths), own).items()
        if not distributions & allowed
    }
    assert undeclared == {}
