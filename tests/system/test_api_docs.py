"""docs/api.md: its examples run, in order, in one namespace, from the clone's root (as a reader
pastes them), and its reference covers every public name of lusoria.api (cog writes it from the
sources; tests/system/test_docs.py checks it is current)."""

import re

from conftest import ROOT

from lusoria import api

PAGE = ROOT / "docs" / "api.md"


def test_the_examples_run(in_root):
    blocks = re.findall(r"^```python\n(.*?)^```", PAGE.read_text(), re.M | re.S)
    assert len(blocks) >= 6
    namespace: dict = {}
    for block in blocks:
        exec(compile(block, str(PAGE), "exec"), namespace)


def test_every_public_call_of_the_api_is_documented():
    page = PAGE.read_text()
    documented = set(re.findall(r"^#### `(\w+)", page, re.M))
    calls = {
        name
        for name in api.__all__
        if callable(getattr(api, name)) and getattr(getattr(api, name), "__module__", "").startswith("lusoria")
    }
    assert calls <= documented, sorted(calls - documented)
    assert "(no docstring)" not in page


def test_every_library_call_a_command_makes_is_documented():
    """The recipe for a command says "a function in lusoria/api.py": new-user-27's, called by its
    command but not put in `__all__`, was left out of the reference without a test failing."""
    called = set(re.findall(r"\bapi\.(\w+)\(", (ROOT / "lusoria" / "cli.py").read_text()))
    documented = set(re.findall(r"^#### `(\w+)", PAGE.read_text(), re.M))
    assert called and called <= documented, sorted(called - documented)


def test_the_board_that_board_returns_is_documented():
    page = PAGE.read_text()
    documented = set(re.findall(r"^#### `([\w.]+)", page, re.M))
    assert {"Board", "Board.text", "Board.svg", "Board.position", "Board.last", "Board.rules"} <= documented
    assert "#### `Board.position: str`" in page  # a property: not called


def test_the_python_calls_other_pages_name_are_the_apis_and_take_a_path(in_root):
    """docs/pictures.md named lusoria.html.replay_page, which reads its argument as a record's
    text: given a path, it drew a page of that path read as a record, without a word."""
    calls = re.findall(r"`(lusoria\.[\w.]+)\(", (ROOT / "docs" / "pictures.md").read_text())
    assert calls == [
        "lusoria.api.board",
        "lusoria.svg.position_svg",
        "lusoria.api.diagrams",
        "lusoria.api.replay_page",
        "lusoria.api.replay_pages",
    ]
    assert "Karin Nilsson" in api.replay_page("samples/tablut/escape.lgn")
    assert [page.players for page in api.replay_pages(["samples/tablut/escape.lgn"])] == ["Karin Nilsson – Olof Berg"]


def test_every_name_of_the_api_the_docs_use_is_public():
    """docs/api.md's examples called api.check and docs/slips.md named lusoria.api.replay_stop, which
    were not in `__all__`: not in the reference, names that "may change without notice"."""
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    used = {name for page in pages for name in re.findall(r"\bapi\.(?!md\b|py\b)(\w+)", page.read_text())}  # not api.md
    assert used <= {*api.__all__, "Board"}, sorted(used - {*api.__all__, "Board"})
