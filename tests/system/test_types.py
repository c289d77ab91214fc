"""mypy (the settings in pyproject.toml) finds nothing in the package, it ships py.typed, and the
Python the docs show a user type-checks as the user's own code under `mypy --strict`: one run of mypy
(each run checks the package again, 8 s), the user's files made strict by their own lines (`strict_line`)."""

import re
import subprocess
import sys

import pytest
from typecheck import ROOT, typecheck


def strict_line() -> str:
    """The inline configuration that makes a file as strict as `mypy --strict` makes every file: the flags
    `mypy --help` says --strict enables, but --warn-redundant-casts, which is not a file's (pyproject.toml
    sets it for every file)."""
    said = subprocess.run([sys.executable, "-m", "mypy", "--help"], capture_output=True, text=True, check=True).stdout
    enabled = re.search(r"--strict\s+Strict mode; enables the following flags:(.*?)\n  --", said, re.S)
    assert enabled is not None, said
    flags = re.sub(r"-\n\s*", "-", enabled[1]).replace("\n", " ").split(",")
    names = [flag.strip().removeprefix("--") for flag in flags]
    assert "disallow-untyped-defs" in names and "no-implicit-reexport" in names
    return "# mypy: " + ", ".join(name for name in names if name != "warn-redundant-casts")


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
def test_mypy_finds_nothing_in_the_package_and_a_notebooks_calls_type_check_strictly_with_their_real_types(tmp_path):
    """The package under pyproject.toml's settings, and a user's code under those of `mypy --strict`, in one run:
    - a researcher's script: validate and reports (with their --jobs and --keep-going), a Replay's
      board, an archive's import and query give the types they hold, no error; the archive's rows
      were `dict` (dict[Any, Any]: a key of any type, unchecked);
    - the docs' examples: the README's `isinstance(report, Problem)` was refused by mypy (Problem was
      a typing.Union, not a class nor a union of them: the stream's items were never narrowed), and
      docs/api.md's `[report] = api.reports(...)` typed a report as a Problem too: an embedder who
      copies them and runs mypy, as py.typed invites, met errors in lusoria's own examples;
    - lusoria.archive hands its names out on use and imports them for type checkers only: --strict
      (no implicit re-export, which pyproject.toml sets for the package too) refused
      `from lusoria.archive import Archive`."""
    from lusoria import archive

    scripts = {"notebook": NOTEBOOK, "user": f"from lusoria.archive import {', '.join(archive.__all__)}\n"}
    scripts["canary"] = "def untyped(x): return x\n"  # the one error: the strict line holds
    for page in (ROOT / "README.md", ROOT / "docs" / "api.md"):  # a page's examples share a namespace
        scripts[page.stem.lower()] = "\n".join(re.findall(r"^```python\n(.*?)^```", page.read_text(), re.M | re.S))
    strict = strict_line()
    for name, text in scripts.items():
        (tmp_path / f"{name}.py").write_text(f"{strict}\n{text}")
    # (the package as a folder of files: mypy takes -p or files, not both)
    finished = typecheck(targets=("lusoria", *(str(tmp_path / f"{name}.py") for name in scripts)))
    assert "error" not in finished.stderr, finished.stderr
    lines = finished.stdout.replace("builtins.", "").splitlines()  # (as mypy before 1.11 names them)
    said = [line.removeprefix(f"{tmp_path}/") for line in lines if line.startswith(str(tmp_path))]
    assert sorted(said) == [
        "canary.py:2: error: Function is missing a type annotation  [no-untyped-def]",
        'notebook.py:10: note: Revealed type is "str"',
        'notebook.py:12: note: Revealed type is "lusoria.archive.importer.ImportSummary"',
        'notebook.py:13: note: Revealed type is "list[dict[str, Any]]"',
        'notebook.py:14: note: Revealed type is "dict[str, Any]"',
        'notebook.py:6: note: Revealed type is "lusoria.validator.replay.Verdict"',
        'notebook.py:9: note: Revealed type is "str"',
    ]
    assert re.fullmatch(r"Found 1 error in 1 file \(checked \d+ source files\)", lines[-1])  # none in the package
