"""mypy (the settings in pyproject.toml) finds nothing in the package, it ships py.typed, and the
Python the docs show a user type-checks as the user's own code."""

import re

import pytest
from typecheck import ROOT, typecheck


@pytest.mark.slow
def test_mypy_is_clean():
    finished = typecheck()
    assert finished.returncode == 0, finished.stdout + finished.stderr


def test_package_declares_its_types():
    assert (ROOT / "lusoria" / "py.typed").is_file()


@pytest.mark.slow
def test_the_docs_examples_type_check(tmp_path):
    """The README's `isinstance(report, Problem)` was refused by mypy (Problem was a typing.Union,
    not a class nor a union of them: the stream's items were never narrowed), and docs/api.md's
    `[report] = api.reports(...)` typed a report as a Problem too: an embedder who copies them
    and runs mypy, as py.typed invites, met errors in lusoria's own examples."""
    scripts = []
    for page in (ROOT / "README.md", ROOT / "docs" / "api.md"):  # a page's examples share a namespace
        blocks = re.findall(r"^```python\n(.*?)^```", page.read_text(), re.M | re.S)
        scripts.append(tmp_path / f"{page.stem.lower()}.py")
        scripts[-1].write_text("\n".join(blocks))
    finished = typecheck(targets=tuple(map(str, scripts)))
    assert finished.returncode == 0, finished.stdout + finished.stderr


@pytest.mark.slow
def test_the_archive_s_names_are_exported_to_a_strict_type_checker(tmp_path):
    """lusoria.archive hands its names out on use and imports them for type checkers only: mypy
    --strict (no implicit re-export) refused `from lusoria.archive import Archive` in a user's code."""
    from lusoria import archive

    script = tmp_path / "user.py"
    script.write_text(f"from lusoria.archive import {', '.join(archive.__all__)}\n")
    finished = typecheck("--no-implicit-reexport", targets=(str(script),))
    said = [line for line in finished.stdout.splitlines() if line.startswith(str(script))]  # (not the package's
    assert said == [] and "error" not in finished.stderr  # own: a user's mypy reports none of an installed one)
