"""No module of the library outside a game names a game (docs/design.md, "Games and formats are
entries"): only a game's own module (validator/<game>.py), the registry (validator/games.py)
and a format's entry (`Format(…)`: the games its files name) may. Code may not — a name, an
import, a string, SQL —, while a comment or a docstring may mention a game as an example."""

import ast
import re
import tomllib
from pathlib import Path

import pytest
from conftest import ROOT

from lusoria.validator.games import GAMES

FOLDERS = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-dir"].values()


def game_words() -> set[str]:
    """How code may name a game: its name (the Game tag's), its class's name, its title."""
    return {word for name in GAMES for word in (name, GAMES[name].__name__, getattr(GAMES[name], "title", name))}


def own_modules() -> set[Path]:
    """The modules that may name games: each game's own, its parts (`latrunculi_play.py`), and the registry."""
    modules = {GAMES[name].__module__.rpartition(".")[2] for name in GAMES}
    return {
        ROOT / "validator" / "games.py",
        *(ROOT / "validator" / f"{module}.py" for module in modules),
        *(path for module in modules for path in (ROOT / "validator").glob(f"{module}_*.py")),
    }


def docstrings(tree: ast.Module) -> set[int]:
    """The ids of the docstring constants of a module, its classes and its functions."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if (
                isinstance(first, ast.Expr)
                and isinstance(first.value, ast.Constant)
                and isinstance(first.value.value, str)
            ):
                found.add(id(first.value))
    return found


def code_words(tree: ast.Module) -> list[tuple[int, str]]:
    """(line, text) of every name and string of the code, but docstrings and format entries."""
    skipped, found = docstrings(tree), []
    pending: list[ast.AST] = [tree]
    while pending:
        node = pending.pop()
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "Format":
            continue  # a format's entry: the names its files give games
        line = getattr(node, "lineno", 0)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skipped:
            found.append((line, node.value))
        for text in (
            getattr(node, "id", None),
            getattr(node, "attr", None),
            getattr(node, "module", None),
            getattr(node, "arg", None),
            node.name if isinstance(node, ast.alias) else None,
            node.name if isinstance(node, (ast.FunctionDef, ast.ClassDef)) else None,
        ):
            if isinstance(text, str):
                found.append((line, text))
        pending.extend(ast.iter_child_nodes(node))
    return found


def names_a_game(text: str, words: set[str]) -> str | None:
    """The game a name or a string names: a word of it (`_`, `.` and blanks apart; a hyphenated
    word is one word, as `tablut-challenge`), or the first part of a CamelCase name."""
    for word in words:
        if re.search(rf"(?<![A-Za-z0-9-])(?i:{re.escape(word)})(?![a-z0-9-])", text):
            return word
    return None


MODULES = sorted(path for folder in FOLDERS for path in (ROOT / folder).glob("*.py"))


@pytest.mark.parametrize("module", MODULES, ids=lambda path: str(path.relative_to(ROOT)))
def test_no_module_outside_a_game_names_a_game(module):
    if module in own_modules():
        pytest.skip("a game's own module, or the registry")
    words = game_words()
    named = [
        f"{module.relative_to(ROOT)}:{line}: {text!r} names {game}"
        for line, text in code_words(ast.parse(module.read_text("utf-8")))
        if (game := names_a_game(text, words))
    ]
    assert not named, "\n".join(named)


def test_the_scan_finds_what_it_looks_for():
    words = game_words()
    found = [
        names_a_game(text, words)
        for text in (
            "Tablut",
            "TablutPosition",
            "lusoria.validator.laquet",
            "r.game != 'laquet'",
            "a Board tag is for latrunculi only",
        )
    ]
    assert [word.lower() for word in found] == ["tablut", "tablut", "laquet", "laquet", "latrunculi"]
    assert names_a_game("tablut-challenge", words) is None and names_a_game("lusoria.formats.tablut_challenge", words)
    tree = ast.parse('"""Tablut."""\nX = Format("otn", games={"": {"Game": "tablut"}})  # Tablut\n')
    assert code_words(tree) == [(2, "X")]
