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


NOTEBOOK = """from lusoria import api
from lusoria.archive import Archive, Filters
for item in api.validate(['games'], jobs=2, keep_going=True):
    if not isinstance(item, api.Problem):
        reveal_type(item)
for checked in api.reports(['games'], jobs=2, keep_going=True):
    if isinstance(checked, api.Report) and checked.record:
        reveal_type(checked.record.main.plies[0].text)
        reveal_type(api.Replay(checked).board(1).position)
archive = Archive('games.db')
reveal_type(archive.import_paths(['games'], jobs=2))
reveal_type(archive.query(Filters(game='tablut')))
reveal_type(archive.stats())
"""


@pytest.mark.slow
def test_a_notebook_s_calls_type_check_strictly_with_their_real_types(tmp_path):
    """A user's code under `mypy --strict`, in one run (each run checks the package again):
    - a researcher's script: validate and reports (with their --jobs and --keep-going), a Replay's
      board, an archive's import and query give the types they hold, no error; the archive's rows
      were `dict` (dict[Any, Any]: a key of any type, unchecked);
    - the docs' examples: the README's `isinstance(report, Problem)` was refused by mypy (Problem was
      a typing.Union, not a class nor a union of them: the stream's items were never narrowed), and
      docs/api.md's `[report] = api.reports(...)` typed a report as a Problem too: an embedder who
      copies them and runs mypy, as py.typed invites, met errors in lusoria's own examples;
    - lusoria.archive hands its names out on use and imports them for type checkers only: --strict
      (no implicit re-export) refused `from lusoria.archive import Archive`."""
    from lusoria import archive

    scripts = {"notebook": NOTEBOOK, "user": f"from lusoria.archive import {', '.join(archive.__all__)}\n"}
    for page in (ROOT / "README.md", ROOT / "docs" / "api.md"):  # a page's examples share a namespace
        scripts[page.stem.lower()] = "\n".join(re.findall(r"^```python\n(.*?)^```", page.read_text(), re.M | re.S))
    for name, text in scripts.items():
        (tmp_path / f"{name}.py").write_text(text)
    finished = typecheck("--strict", targets=tuple(str(tmp_path / f"{name}.py") for name in scripts))
    lines = finished.stdout.replace("builtins.", "").splitlines()  # (as mypy before 1.11 names them)
    said = [line.removeprefix(f"{tmp_path}/") for line in lines if line.startswith(str(tmp_path))]
    assert said == [  # (the package's own lines aside: a user's mypy reports none of an installed one)
        'notebook.py:5: note: Revealed type is "lusoria.validator.replay.Verdict"',
        'notebook.py:8: note: Revealed type is "str"',
        'notebook.py:9: note: Revealed type is "str"',
        'notebook.py:11: note: Revealed type is "lusoria.archive.importer.ImportSummary"',
        'notebook.py:12: note: Revealed type is "list[dict[str, Any]]"',
        'notebook.py:13: note: Revealed type is "dict[str, Any]"',
    ]
    assert "error" not in finished.stderr
