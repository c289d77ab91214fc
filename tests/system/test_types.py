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


@pytest.mark.slow
def test_a_notebook_s_calls_type_check_strictly_with_their_real_types(tmp_path):
    """A researcher's script under `mypy --strict`: validate and reports (with their --jobs and
    --keep-going), a Replay's board, an archive's import and query give the types they hold, no
    error; the archive's rows were `dict` (dict[Any, Any]: a key of any type, unchecked)."""
    script = tmp_path / "notebook.py"
    script.write_text(
        "from lusoria import api\n"
        "from lusoria.archive import Archive, Filters\n"
        "for item in api.validate(['games'], jobs=2, keep_going=True):\n"
        "    if not isinstance(item, api.Problem):\n"
        "        reveal_type(item)\n"
        "for checked in api.reports(['games'], jobs=2, keep_going=True):\n"
        "    if isinstance(checked, api.Report) and checked.record:\n"
        "        reveal_type(checked.record.main.plies[0].text)\n"
        "        reveal_type(api.Replay(checked).board(1).position)\n"
        "archive = Archive('games.db')\n"
        "reveal_type(archive.import_paths(['games'], jobs=2))\n"
        "reveal_type(archive.query(Filters(game='tablut')))\n"
        "reveal_type(archive.stats())\n"
    )
    finished = typecheck("--strict", targets=(str(script),))
    lines = finished.stdout.replace("builtins.", "").splitlines()  # (as mypy before 1.11 names them)
    said = [line.removeprefix(f"{script}:") for line in lines if line.startswith(str(script))]
    assert said == [  # (the package's own lines aside: a user's mypy reports none of an installed one)
        '5: note: Revealed type is "lusoria.validator.replay.Verdict"',
        '8: note: Revealed type is "str"',
        '9: note: Revealed type is "str"',
        '11: note: Revealed type is "lusoria.archive.importer.ImportSummary"',
        '12: note: Revealed type is "list[dict[str, Any]]"',
        '13: note: Revealed type is "dict[str, Any]"',
    ]
