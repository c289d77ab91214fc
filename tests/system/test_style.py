"""The code is clean for ruff, lint and format, as pyproject.toml configures them ([tool.ruff]):
`ruff check .` finds nothing and `ruff format --check .` would change nothing; and no check of
lusoria's code is an assert."""

import ast
import subprocess
import sys

import pytest
from conftest import ROOT


def ruff(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "ruff", *args, "--no-cache", "."], cwd=ROOT, capture_output=True, text=True
    )


def test_ruff_finds_nothing():
    done = ruff("check")
    assert done.returncode == 0, done.stdout + done.stderr + "\nrun: ruff check --fix ."


def test_the_code_is_formatted():
    done = ruff("format", "--check")
    assert done.returncode == 0, done.stdout + done.stderr + "\nrun: ruff format ."


@pytest.mark.parametrize("package", ["notation", "grammar", "validator", "archive", "formats", "lusoria"])
def test_the_code_never_asserts(package):
    """`python -O` drops an assert: a check, a seam's contract above all, must not be one."""
    asserts = [
        f"{path.relative_to(ROOT)}:{node.lineno}"
        for path in sorted((ROOT / package).glob("*.py"))
        for node in ast.walk(ast.parse(path.read_text()))
        if isinstance(node, ast.Assert)
    ]
    assert asserts == []


@pytest.mark.parametrize("package", ["notation", "grammar", "validator", "archive", "formats", "lusoria"])
def test_a_value_refused_is_refused_as_lusorias_own(package):
    """h83b: a date filter `May 2020`, `depth=0`, `jobs=0` raised a bare ValueError, which `except LusoriaError`
    missed, where docs/api.md says that what a call refuses is one: lusoria raises no bare ValueError or KeyError
    (a Refused, an UnknownName, or one more precise)."""
    bare = [
        f"{path.relative_to(ROOT)}:{node.lineno}"
        for path in sorted((ROOT / package).glob("*.py"))
        for node in ast.walk(ast.parse(path.read_text()))
        if isinstance(node, ast.Raise)
        and isinstance(node.exc, ast.Call)
        and isinstance(node.exc.func, ast.Name)
        and node.exc.func.id in ("ValueError", "KeyError")
    ]
    assert bare == []
