"""Broken plug-ins (issue 41): a package whose `lusoria.games` or `lusoria.formats` entry point
raises on import, names a missing module, loads to 42 or a string, or calls sys.exit(5) is
named in one warning line on standard error, and every built-in game, format and command works
(each once exited 3, "a bug in lusoria", or 5 with no message). The packages are written as
installed ones (a .dist-info folder) on PYTHONPATH, in a fresh process."""

import os
import subprocess
import sys

import pytest
from conftest import ROOT

MODULES = {
    "broken_raises.py": "raise RuntimeError('the plug-in fails')\n",
    "broken_values.py": "FORTY_TWO = 42\nTEXT = 'a format'\n",
    "broken_exits.py": "import sys\nsys.exit(5)\n",
}
POINTS = {
    "raises": "broken_raises:Thing",
    "missing": "broken_nowhere:Thing",
    "number": "broken_values:FORTY_TWO",
    "text": "broken_values:TEXT",
    "exits": "broken_exits:Thing",
}
WHY = {
    "raises": "it cannot be loaded: RuntimeError: the plug-in fails",
    "missing": "it cannot be loaded: ModuleNotFoundError: No module named 'broken_nowhere'",
    "number": "it loads to 42, not {}",
    "text": "it loads to 'a format', not {}",
    "exits": "it cannot be loaded: SystemExit: 5",
}
KINDS = {"lusoria.games": "a Game class", "lusoria.formats": "a Format"}


@pytest.fixture(scope="module")
def broken(tmp_path_factory):
    """The environment of a process with the broken package installed, and a folder to work in."""
    folder = tmp_path_factory.mktemp("broken")
    site = folder / "site"
    (site / "broken_plugins-1.0.dist-info").mkdir(parents=True)
    for name, text in MODULES.items():
        (site / name).write_text(text)
    (site / "broken_plugins-1.0.dist-info" / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: broken-plugins\nVersion: 1.0\n"
    )
    (site / "broken_plugins-1.0.dist-info" / "entry_points.txt").write_text(
        "".join(f"[{group}]\n" + "".join(f"{name} = {value}\n" for name, value in POINTS.items()) for group in KINDS)
    )
    (folder / "games").mkdir()
    for sample in ("escape.lgn", "linnaeus.lgn"):
        (folder / "games" / sample).write_text((ROOT / "samples" / "tablut" / sample).read_text())
    (folder / "games" / "brandubh.csv").write_text((ROOT / "tests/fixtures/formats/csv/brandubh.csv").read_text())
    return {**os.environ, "LUSORIA_NO_ENTRY_POINTS": "", "PYTHONPATH": str(site)}, folder


def lusoria(broken, *args: str) -> subprocess.CompletedProcess:
    env, folder = broken
    return subprocess.run(
        [sys.executable, "-m", "lusoria.cli", *args], capture_output=True, text=True, env=env, cwd=folder
    )


def warnings(errors: str) -> list[str]:
    return [line for line in errors.splitlines() if line.startswith("lusoria: warning: the plug-in")]


@pytest.mark.parametrize(
    "args, code",
    [
        (["validate", "games/brandubh.csv"], 0),
        (["validate", "games"], 0),
        (["explain", "T4"], 0),
        (["fmt", "games/escape.lgn"], 0),
        (["convert", "--to", "otn", "games/escape.lgn"], 0),
        (["import", "--db", "a.db", "games"], 0),
        (["query", "--db", "q.db", "--pattern", "*" * 9 + "/*********" * 8], 0),
    ],
)
def test_a_broken_plug_in_is_named_once_and_the_rest_works(broken, args, code):
    if args[0] == "query":  # an archive of its own, made first: a case may run in any worker, in any order
        assert lusoria(broken, "import", "--db", "q.db", "games").returncode == 0
    done = lusoria(broken, *args)
    assert done.returncode == code, done.stdout + done.stderr
    assert "internal error" not in done.stderr and "Traceback" not in done.stderr
    said = warnings(done.stderr)
    assert len(said) == len(set(said)), done.stderr  # each once (fmt of lgn files loads none)
    for line in said:
        name, group = line.split("'")[1].split(" = ")[0], line.split("(")[1].split(")")[0]
        assert line == (
            f"lusoria: warning: the plug-in '{name} = {POINTS[name]}' ({group}) of the package "
            f"broken-plugins is left out: {WHY[name].format(KINDS[group])}"
        )


def test_every_broken_entry_point_is_named(broken):
    done = lusoria(broken, "validate", "games")
    assert sorted((line.split("'")[1], line.split("(")[1].split(")")[0]) for line in warnings(done.stderr)) == sorted(
        (f"{name} = {value}", group) for name, value in POINTS.items() for group in KINDS
    )
    assert done.stdout.endswith("6 records: 6 valid, 0 invalid (0 errors, 0 warnings)\n")


def test_no_entry_point_is_read_with_the_switch_set(broken):
    # as the tests and the docs' cog run set it: lusoria alone, whatever the venv has installed
    env, folder = broken
    done = lusoria(({**env, "LUSORIA_NO_ENTRY_POINTS": "1"}, folder), "validate", "games")
    assert done.returncode == 0 and done.stderr == "", done.stderr
    assert done.stdout.endswith("6 records: 6 valid, 0 invalid (0 errors, 0 warnings)\n")
