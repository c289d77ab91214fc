"""A package outside lusoria adds a game and a format, each by its own module and one entry point
(tests/plugin: a toy tafl game on the engine, data only, and a toy format of move lists):
installed by pip (built by flit_core, offline), lusoria finds both, and every command works on
their records — docs/design.md's recipes "add a game" and "add a format", re-run."""

import json
import os
import subprocess
import sys

import pytest
from conftest import ROOT

from lusoria.formats import FORMATS

PLUGIN = ROOT / "tests" / "plugin"
START = "2ppp2/3p3/p1PPP1p/ppPKPpp/p1PPP1p/3p3/2ppp2 b"  # the toy game's, tests/plugin/lusoria_toys/toytafl.py


@pytest.fixture(scope="module")
def toys(tmp_path_factory):
    """The environment of a process that has the package installed (in a folder of its own, not in
    the test run's environment), and a folder to work in."""
    folder = tmp_path_factory.mktemp("toys")
    installed = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            "--quiet",
            "--no-deps",
            "--no-index",
            "--no-build-isolation",
            "--target",
            str(folder / "site"),
            str(PLUGIN),
        ],
        capture_output=True,
        text=True,
    )
    assert installed.returncode == 0, installed.stderr
    return {
        **os.environ,
        "LUSORIA_NO_ENTRY_POINTS": "",
        "PYTHONPATH": str(folder / "site"),
        "XDG_CACHE_HOME": str(folder / "cache"),
    }, folder


def lusoria(toys, *args: str, code: int = 0) -> str:
    """`lusoria ARGS` in a fresh process where the package is installed; its output."""
    env, folder = toys
    done = subprocess.run(
        [sys.executable, "-m", "lusoria.cli", *args], capture_output=True, text=True, env=env, cwd=folder
    )
    assert done.returncode == code, done.stdout + done.stderr
    return done.stdout


@pytest.fixture(scope="module")
def records(toys):
    """A random legal game of the toy game, as lgn and in the toy format (convert --to moves)."""
    _, folder = toys
    (folder / "games").mkdir()
    (folder / "games" / "toy.lgn").write_text(
        lusoria(toys, "random", "--game", "toytafl", "--seed", "3", "--max-plies", "14")
    )
    (folder / "games" / "toy.moves").write_text(lusoria(toys, "convert", "--to", "moves", "games/toy.lgn"))
    return folder / "games"


def test_the_game_and_the_format_are_found(toys, records):
    assert "toytafl" in lusoria(toys, "--help").replace("\n  ", " ")  # the games lusoria knows
    assert f"[{'|'.join(dict.fromkeys([*FORMATS, 'moves']))}]" in lusoria(
        toys, "validate", "--help"
    )  # the table's, then its
    assert "'toytafl' is not one of" not in lusoria(toys, "random", "--help")
    line = (records / "toy.moves").read_text()
    assert line.startswith("toytafl b4-b6 e5-f5 ") and line.endswith(" *\n")


def test_validate_fmt_and_convert(toys, records):
    assert lusoria(toys, "validate", "games").endswith("2 records: 2 valid, 0 invalid (0 errors, 0 warnings)\n")
    (records.parent / "bad.moves").write_text("toytafl b4-b6 e5-f5 d2-d4 *\n")  # d3 stands between
    assert "bad.moves:1:21: error[Y2]: move 2, Black: the way is blocked at d3" in lusoria(
        toys, "validate", "bad.moves", code=1
    )
    (records.parent / "slip.moves").write_text("tablut e3-c3 zz *\n")  # not a ply: the reader says so (is_ply)
    assert "slip.moves:1:14: error[syntax]: found 'zz', expected a ply of tablut" in lusoria(
        toys, "validate", "slip.moves", code=1
    )
    assert lusoria(toys, "fmt", "games/toy.lgn") == (records / "toy.lgn").read_text()
    back = lusoria(toys, "convert", "--to", "lgn", "games/toy.moves")
    assert back.startswith('[Game "toytafl"]') and "1. b4-b6 e5-f5" in back  # numbered from the first mover


def test_show_and_html(toys, records):
    board = lusoria(toys, "show", "games/toy.moves", "--ply", "4")
    assert board.startswith("toytafl (standard) after ply 4 of 14") and "4 p P . K P p p" in board
    assert lusoria(toys, "show", "games/toy.lgn", "--format", "svg").startswith("<svg")
    assert "toytafl" in lusoria(toys, "html", "games/toy.lgn")


def test_the_archive(toys, records):
    assert "added 2 records" in lusoria(toys, "import", "--db", "toys.db", "games")
    tree = lusoria(toys, "tree", "--db", "toys.db", "--from-id", "1", "--depth", "1", "--format", "json")
    assert [node["ply"] for node in json.loads(tree)] == ["b4-b6"]
    king_on_d4 = "*******/*******/*******/***K***/*******/*******/*******"
    assert len(json.loads(lusoria(toys, "query", "--db", "toys.db", "--pattern", king_on_d4, "--format", "json"))) == 2
    assert len(json.loads(lusoria(toys, "query", "--db", "toys.db", "--position", START, "--format", "json"))) == 2
    captured = json.loads(lusoria(toys, "query", "--db", "toys.db", "--material", "black<16, king", "--format", "json"))
    assert [row["ply"] for row in captured] == [10, 10]  # 6. e3-e1xf1, the first capture


def test_the_editor_completes_its_plies(toys, records):
    env, folder = toys
    code = (
        "from lusoria.document import Document, completions\n"
        "document = Document()\n"
        "document.update(document.split('[Game \"toytafl\"]\\n\\n1... b4-b6 \\n'))\n"
        "print(*sorted(c.label for c in completions(document.entry_at(2), '1... b4-b6 ', 2, 11) "
        "if c.kind == 'ply'))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=folder)
    assert done.returncode == 0, done.stderr
    plies = done.stdout.split()
    assert "e5-f5" in plies and "d3-d1" not in plies  # White's plies; d1 is Black's


def test_explain_finds_the_games_rules_through_its_class(toys, records):
    explained = lusoria(toys, "explain", "y2")
    assert explained.startswith("Y2 (toytafl)\n\nA piece moves any number of empty squares along its rank or file")
    assert explained.endswith(
        'Example:\n  [Game "toytafl"] 1. b4-b6 e5-f5 2. d2-d4 *\n'
        "  error[Y2]: the way is blocked at d3; the rest of this line is not checked\n"
    )
    (records.parent / "example.lgn").write_text('[Game "toytafl"] 1. b4-b6 e5-f5 2. d2-d4 *\n')
    assert "error[Y2]: move 2, Black: the way is blocked at d3; the rest" in lusoria(
        toys, "validate", "example.lgn", code=1
    )
    listed = lusoria(toys, "explain").splitlines()
    assert [line.split()[:2] for line in listed[-9:]] == [[f"Y{n}", "toytafl"] for n in range(1, 10)]
