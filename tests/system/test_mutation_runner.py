"""The mutation runner (tests/mutation/run.py) stopped while a mutant's tests run stops them with it."""

import importlib.util
import os
import re
import signal
import sys
import threading
import time

import pytest
from conftest import ROOT


def runner():
    spec = importlib.util.spec_from_file_location("mutation_runner", ROOT / "tests" / "mutation" / "run.py")
    assert spec and spec.loader
    module = sys.modules[spec.name] = importlib.util.module_from_spec(spec)  # (its dataclasses look it up)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(autouse=True)
def pytest_without_plugins(request, monkeypatch):
    """The pytest runs below start without loading the plug-ins installed (hypothesis, syrupy,
    pytest-lsp…: 3.5 s of a run's 4), which their tests do not use; but one's, which the runner's
    parsing reads with them loaded, as a mutation run does."""
    if request.node.name != "test_the_tests_of_a_mutant_run_with_the_runners_options_alone":
        monkeypatch.setenv("PYTEST_DISABLE_PLUGIN_AUTOLOAD", "1")


def stop_when(started, pid: int) -> None:
    """SIGTERM to process `pid` once the file `started` is there."""
    while not started.exists():
        time.sleep(0.05)
    os.kill(pid, signal.SIGTERM)


def test_a_stopped_run_ends_the_tests_it_started_without_waiting_for_them(tmp_path):
    started, finished = tmp_path / "started", tmp_path / "finished"
    (tmp_path / "test_slow.py").write_text(
        "import time\nfrom pathlib import Path\n\n\ndef test_slow():\n"
        f"    Path({str(started)!r}).touch()\n    time.sleep(10)\n    Path({str(finished)!r}).touch()\n"
    )
    before = signal.signal(signal.SIGTERM, lambda *_: exit("stopped"))  # the runner's own handler
    try:
        threading.Thread(target=stop_when, args=(started, os.getpid()), daemon=True).start()
        with pytest.raises(SystemExit, match="stopped"):
            runner().pytest(tmp_path, ["test_slow.py"], timeout=300)
    finally:
        signal.signal(signal.SIGTERM, before)
    assert started.exists() and not finished.exists()


ROW = re.compile(r"^\| `(?P<place>[^`]+)`[^|]*\| (?P<said>.*) \|$")


def cited_kills(path: str) -> list[tuple[str, int, str]]:
    """(the row, the line, the test file that kills the mutant) of each row of docs/testing.md that cites
    a mutant of `path` killed by a test: the file the row names, or the row above's (`the same test`)."""
    files = {test.stem: test.relative_to(ROOT).as_posix() for test in (ROOT / "tests").rglob("test_*.py")}
    kills, killer = [], None
    for number, row in enumerate((ROOT / "docs" / "testing.md").read_text(encoding="utf-8").splitlines(), 1):
        cells = ROW.match(row)
        said = cells["said"] if cells else ""
        named = [files[name] for name in re.findall(r"\b(test_\w+?)(?:\.py)?\b", said) if name in files]
        killer = named[0] if named else killer if "the same test" in said else None
        if cells and cells["place"].startswith(f"{path}:") and killer and not said.startswith("equivalent"):
            kills.append((f"docs/testing.md:{number}", int(cells["place"].split(":")[1]), killer))
    return kills


def test_a_cli_mutant_runs_the_test_file_that_killed_it():
    """cli.py's mutants run the test files that name the commands their code serves, not every test file of
    cli.py: each mutant the docs cite as killed still runs the file of the test that killed it."""
    run = runner()
    everything = run.TESTS["lusoria/cli.py"]
    kills = [(row, line, killer) for row, line, killer in cited_kills("lusoria/cli.py") if killer in everything]
    assert len(kills) >= 20
    for row, line, killer in kills:
        mutant = run.Mutant("cited", "lusoria/cli.py", line, "", None)
        assert killer in run.tests_for(mutant, ROOT), f"{row}: the mutant of line {line} does not run {killer}"


def test_the_test_file_named_for_a_module_runs_against_its_mutants():
    """tests/archive/test_search.py against archive/search.py, tests/test_bounds.py against lusoria/bounds.py:
    a module's own test file is among those its mutants run (session 46 found both left out)."""
    run = runner()
    left_out = []
    for folder in run.SCOPE:
        for module in sorted((ROOT / folder).glob("*.py")):
            path = f"{folder}/{module.name}"
            own = f"tests/{'' if folder == 'lusoria' else folder + '/'}test_{module.stem}.py"
            if (ROOT / own).exists() and path not in run.UNMUTATED:
                if own not in run.tests_for(run.Mutant(path, path, 0, "", None), ROOT):
                    left_out.append(f"{own} against {path}")
    assert left_out == []


def test_a_cli_mutant_of_one_command_leaves_out_the_test_files_that_do_not_run_it():
    """A mutant of fmt's code (its options too) runs test_fmt, not the archive's test files; one of tree's code, not test_variants,
    whose docstrings alone name `tree`; one of html's `index_written`, called by `publish`, html's test files;
    one of the group's (`main`), every test file of cli.py."""
    run = runner()
    defined = run._top_level("lusoria/cli.py")
    fmt, tree, index, group = (
        run.tests_for(run.Mutant(name, "lusoria/cli.py", defined[name].lineno, "", None), ROOT)
        for name in ("fmt", "tree", "index_written", "main")
    )
    assert "tests/test_fmt.py" in fmt and not [test for test in fmt if test.startswith("tests/archive/")]
    option = defined["fmt"].decorator_list[2].lineno  # fmt's --check
    assert run.tests_for(run.Mutant("--check", "lusoria/cli.py", option, "", None), ROOT) == fmt
    assert "tests/test_published.py" in index and "tests/test_fmt.py" not in index  # (html's, through publish)
    assert "tests/archive/test_research.py" in tree and "tests/test_variants.py" not in tree
    assert group == list(dict.fromkeys(run.TESTS["lusoria/cli.py"]))


FIXTURES = """import logging

import pytest


def opened():
    raise ValueError("the archive does not open")


@pytest.fixture
def archive():
    return opened()


@pytest.fixture
def closed():
    yield
    assert False, "left open"


@pytest.fixture
def noisy():
    print("=== short test summary info ===\\nFAILED tests/test_other.py::test_said - printed")  # (a runner's test)
    logging.getLogger("lusoria").error("the archive is locked")
    return opened()
"""


@pytest.mark.parametrize(
    ("test", "status", "caught", "by_error"),
    [
        ("def test_plays():\n    assert 1 == 2\n", "killed", "tests/test_mutant.py::test_plays", False),
        (
            "def test_plays(archive):\n    pass\n",
            "killed",
            "tests/test_mutant.py::test_plays (error at setup, fixture archive)",
            True,
        ),
        (
            "def test_plays(closed):\n    pass\n",
            "killed",
            "tests/test_mutant.py::test_plays (error at teardown, fixture closed)",
            True,
        ),
        ("import lusoria_unknown\n", "killed", "tests/test_mutant.py (error collecting it)", True),
        ("def test_plays(closed):\n    assert 1 == 2\n", "killed", "tests/test_mutant.py::test_plays", False),
        ("def test_plays():\n    pass\n", "survived", "", False),
        (
            "import pytest\n\n\n@pytest.mark.parametrize('word', ['a b::c'])\ndef test_plays(word):\n"
            "    print('FAILED tests/test_other.py::test_said')\n    assert word == 'd'\n",
            "killed",
            "tests/test_mutant.py::test_plays[a b::c]",
            False,
        ),
        (
            "def test_plays(noisy):\n    pass\n",
            "killed",
            "tests/test_mutant.py::test_plays (error at setup, fixture noisy)",
            True,
        ),
        (
            "import pytest\n\n\n@pytest.mark.parametrize('said', ['the tests survived (error at setup)'])\n"
            "def test_plays(said):\n    assert said == ''\n",
            "killed",
            "tests/test_mutant.py::test_plays[the tests survived (error at setup)]",
            False,
        ),
    ],
    ids=[
        "assertion",
        "setup",
        "teardown",
        "collection",
        "failed-then-teardown",
        "passed",
        "id-and-print",
        "noisy",
        "id-saying-error",
    ],
)
def test_a_mutant_caught_by_an_error_names_the_test_and_the_fixture_or_the_file(
    tmp_path, test, status, caught, by_error
):
    """A mutant a fixture raises on, at its setup or teardown, is killed by that test, the fixture named; one a test
    file does not import with, by that file (session 47: each was killed with nothing named); a test that failed
    is named before its fixture's error at teardown; the test's node id is read whole from pytest's summary, never
    from what a test printed or logged (review 47: `test_plays[a` and a printed `FAILED` line were named); a test
    whose id says `(error …)` failed, and the tally counts it so (session 48: it counted it killed by an error)."""
    run = runner()
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "conftest.py").write_text(FIXTURES)
    (tmp_path / "tests" / "test_mutant.py").write_text(test)
    done = run.pytest(tmp_path, ["tests/test_mutant.py"], timeout=300)
    assert run.caught(done) == (status, caught, by_error)
    result = dict(zip(("status", "failed", "by_error"), run.caught(done)))
    killed = int(status == "killed")
    assert run.tally([result]) == (
        f"{killed} killed ({int(by_error)} by an error), {1 - killed} survived, 0 ended with no test named, of 1"
    )


def test_the_tests_of_a_mutant_run_with_the_runners_options_alone(tmp_path, monkeypatch):
    """PYTEST_ADDOPTS of the shell is not read (review 47: `--no-summary` left a failed test unnamed, an error)."""
    monkeypatch.setenv("PYTEST_ADDOPTS", "--no-summary")
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_mutant.py").write_text("def test_plays():\n    assert 1 == 2\n")
    run = runner()
    done = run.pytest(tmp_path, ["tests/test_mutant.py"], timeout=300)
    assert run.caught(done) == ("killed", "tests/test_mutant.py::test_plays", False)


def test_a_mutant_caught_by_no_test_is_neither_killed_nor_survived(tmp_path):
    """conftest.py that does not import kills the mutant, named; pytest ending with no test, file or conftest.py
    named (here a test file not found) leaves it an error, which the tally counts apart."""
    run = runner()
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "conftest.py").write_text("import lusoria_unknown\n")
    (tmp_path / "tests" / "test_mutant.py").write_text("def test_plays():\n    pass\n")
    done = run.pytest(tmp_path, ["tests/test_mutant.py"], timeout=300)
    assert run.caught(done) == ("killed", "tests/conftest.py (error loading it)", True)
    (tmp_path / "tests" / "conftest.py").unlink()
    done = run.pytest(tmp_path, ["tests/test_gone.py"], timeout=300)
    assert run.caught(done) == ("error", "exit 4", False)
    results = [
        dict(status="killed", failed="tests/test_mutant.py::test_plays", by_error=False),
        dict(status="killed", failed="tests/conftest.py (error loading it)", by_error=True),
        dict(status="survived", failed="", by_error=False),
        dict(status="error", failed="exit 4", by_error=False),
    ]
    assert run.tally(results) == "2 killed (1 by an error), 1 survived, 1 ended with no test named, of 4"


def test_an_error_heading_with_no_error_below_the_summary_names_nothing(tmp_path):
    """pytest failing with an error's heading in its output but no `ERROR` line in its summary (here a
    conftest's own report writes the heading and fails the session) ends as an error, not in an IndexError
    that stopped the run (session 48)."""
    run = runner()
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "conftest.py").write_text(
        "def pytest_terminal_summary(terminalreporter):\n"
        "    terminalreporter.write_line('____ ERROR at setup of test_plays ____')\n\n\n"
        "def pytest_sessionfinish(session):\n    session.exitstatus = 1\n"
    )
    (tmp_path / "tests" / "test_mutant.py").write_text("def test_plays():\n    pass\n")
    done = run.pytest(tmp_path, ["tests/test_mutant.py"], timeout=300)
    assert run.ERROR_HEADING.search(done.stdout)
    assert run.caught(done) == ("error", "exit 1", False)
