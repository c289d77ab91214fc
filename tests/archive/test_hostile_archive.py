"""A damaged archive and hostile values for `tree` (issue 41): each a clear message in one line
that names the archive and the record, never an internal error; `tree` ends where the tree
ends, whatever its --depth."""

import shutil
import sqlite3
from contextlib import closing

import pytest
from click.testing import CliRunner
from conftest import ROOT

from lusoria.archive import Archive
from lusoria.cli import main


@pytest.fixture(scope="module")
def archive(tmp_path_factory):
    path = tmp_path_factory.mktemp("hostile") / "a.db"
    assert CliRunner().invoke(main, ["import", "--db", str(path), str(ROOT / "samples/tablut")]).exit_code == 0
    return path


def run(*args: str):
    return CliRunner().invoke(main, list(args))


def damaged(archive, tmp_path, sql: str) -> str:
    path = tmp_path / "damaged.db"
    shutil.copy(archive, path)
    with closing(sqlite3.connect(path)) as conn:
        conn.execute(sql)
        conn.commit()
    return str(path)


@pytest.mark.parametrize(
    "command", [["query", "--format", "lgn"], ["query", "--format", "json"], ["export", "--format", "csv", "out"]]
)
def test_a_damaged_text_names_its_record(archive, tmp_path, command, monkeypatch):
    # export: an internal error; query --format lgn: "user-defined function raised exception"
    monkeypatch.chdir(tmp_path)
    path = damaged(archive, tmp_path, "UPDATE records SET packed_text = x'0011' WHERE id = 3")
    result = run(*command[:1], "--db", path, *command[1:])
    assert result.exit_code == 2 and result.output.endswith(
        f"lusoria: {path}: record 3 is damaged: lusoria_text: its argument is not a value it reads (ZstdError: "
        "cannot get frame parameters: Unknown frame descriptor)\n"
    ), result.output


def test_damaged_boards_name_their_record(archive, tmp_path):
    path = damaged(archive, tmp_path, "UPDATE record_boards SET boards = x'28b52ffd' WHERE record_id = 2")
    result = run("query", "--db", path, "--pattern", "*********/" * 8 + "*********")
    assert result.exit_code == 2 and f"lusoria: {path}: record 2 is damaged: lusoria_matching_plies: " in result.output


def test_damaged_rule_tags_are_said(archive, tmp_path):
    # the raw JSON decoder's message, as a usage error (--variations: the tree reads the games, not
    # the sums of next_plies, which keep no rule tags)
    path = damaged(archive, tmp_path, "UPDATE records SET rule_tags = '{bad'")
    result = run("tree", "--db", path, "--from-id", "1", "--variations")
    assert (result.exit_code, result.output) == (
        2,
        f"lusoria: {path}: a record's rule_tags is not a JSON object of tags: '{{bad'\n",
    )


@pytest.mark.parametrize(
    "option, value",
    [
        ("--from-id", "100000000000000000000000"),
        ("--from-id", "-1"),
        ("--from-id", "0"),
        ("--ply", "-1"),
        ("--ply", "9" * 5000),
        ("--depth", "0"),
        ("--depth", "1000000000000"),
        ("--min-games", "1" + "0" * 30),
    ],
)
def test_tree_integers_are_bounded(archive, option, value):
    # --from-id 10^23: an OverflowError (internal error); negative ids were accepted
    result = run("tree", "--db", str(archive), *(["--from-id", "1"] if option != "--from-id" else []), option, value)
    assert result.exit_code == 2 and f"Invalid value for '{option}'" in result.output
    assert "is not a whole number from" in result.output


def test_a_tree_ends_where_its_records_end(archive, monkeypatch, deadline):
    # --depth 10^9 ran on after the tree was empty (10^8: 22 s on 117 records)
    from lusoria.archive import tree as tree_module

    levels = []
    real = tree_module._next_plies
    monkeypatch.setattr(tree_module, "_next_plies", lambda *args: levels.append(1) or real(*args))
    nodes = Archive(str(archive)).tree(from_id=1, depth=10**9)
    deepest, pending = 0, [(node, 1) for node in nodes]
    while pending:
        node, depth = pending.pop()
        deepest = max(deepest, depth)
        pending += [(child, depth + 1) for child in node.children]
    assert deepest > 10 and len(levels) <= deepest + 1


def test_a_tree_filter_sqlite_would_refuse_is_a_usage_error_of_one_line(archive):
    # query said SQLite's "LIKE or GLOB pattern too complex"; tree: an internal error; both are now
    # refused before SQLite is asked, naming the limit
    pattern = "*?" * 30000
    for command in (["tree", "--from-id", "1"], ["query"]):
        result = run(*command, "--db", str(archive), "--tag", f"Event={pattern}")
        assert result.exit_code == 2 and "Traceback" not in result.output
        assert result.output.endswith(
            "\nError: --tag value of Event is 60,000 characters, longer than SQLite reads as a glob (50,000 bytes)\n"
        )


HUGE = "x" * 60_000
SHOWN = f"'{'x' * 40}…' (60,000 characters)"


@pytest.mark.parametrize(
    "command, said",
    [
        (["query", "--player", HUGE], f"lusoria: no record names the player {SHOWN}\n"),
        (["query", "--white", HUGE], f"lusoria: no record names the player {SHOWN}\n"),
        (["query", "--rule", HUGE], f"lusoria: no record of the archive has a diagnostic of the rule {SHOWN} ("),
        (["query", "--game", HUGE], f"the archive holds no record of the game {SHOWN} (known: tablut)\n"),
        (["stats", "--variant", HUGE], f"the archive holds no record of the variant {SHOWN} (known: "),
        (["tree", "--variant", HUGE], f"Error: Invalid value for --variant: unknown variant {SHOWN}: no game has it"),
        (["tree", "--game", HUGE], f"Error: Invalid value for --game: unknown game {SHOWN} (known: "),
        (["query", "--tag", HUGE], f"Error: Invalid value for --tag: {SHOWN} is not NAME=VALUE\n"),
        (["query", "--board", HUGE], f"(or 11: a square board); not {SHOWN}\n"),
        (["export", "--ending", HUGE, "out"], f"; not {SHOWN}\n"),
    ],
)
def test_a_huge_value_is_echoed_by_its_start_and_its_length(archive, command, said):
    """A value of 60,000 characters (a name, a tag) was echoed whole in the message that refused it:
    its first 40 characters are, and its length."""
    result = run(*command, "--db", str(archive))
    assert said in result.output and len(result.output) < 2_000, result.output[-300:]


@pytest.mark.parametrize(
    "command",
    [
        ["query", "--white", "Jo\udcffn"],
        ["stats", "--event", "Jo\udcffn"],
        ["tree", "--player", "Jo\udcffn"],
        ["export", "--tag", "Site=Jo\udcffn", "out"],
        ["query", "--material", "Jo\udcffn"],
    ],
)
def test_bytes_that_are_not_utf_8_in_a_text_filter_are_said_in_plain_words(archive, command):
    """A byte that is not UTF-8 (`--white $'Jo\\xffn'`: Python's surrogate escape) gave Python's
    "surrogates not allowed" inside the usage error: it is said what it is, shown as the byte."""
    result = run(*command, "--db", str(archive))
    option = command[1]
    assert (result.exit_code, result.output.splitlines()[-1]) == (
        2,
        f"Error: {option} is not UTF-8 text: 'Jo\\xffn' holds the byte \\xff (from another encoding?); the "
        "archive's text is UTF-8: give it so",
    )
    page = " ".join((ROOT / "docs" / "archive.md").read_text(encoding="utf-8").split())
    assert "(`Error: --white" + result.output.splitlines()[-1].partition(option)[2] + "`)" in page


@pytest.mark.parametrize(
    "text, shown",
    [
        ("x" * 40, f"'{'x' * 40}'"),
        ("x" * 41, f"'{'x' * 40}…' (41 characters)"),
        ("a\udc80b\udcffc\ud800", "'a\\x80b\\xffc\\ud800'"),
        ("tab\tline\nend", "'tab\\x09line\\x0aend'"),
        ("it's C:\\games", "'it\\'s C:\\\\games'"),  # (h82a: a backslash escaped, as the quote is)
    ],
)
def test_a_value_is_quoted_whole_up_to_40_characters_its_bytes_and_controls_shown(text, shown):
    """`quoted`: 40 characters whole, more cut with the length said; a byte that was not UTF-8 (from \\x80
    to \\xff) shown as it was, another lone surrogate as its code, a control character escaped."""
    from lusoria.words import quoted

    assert quoted(text) == shown


@pytest.mark.parametrize("text, held", [("Jo\udcffn", "the byte \\xff"), ("Jo\ud800n", "the lone surrogate \\ud800")])
def test_a_lone_surrogate_a_library_caller_gives_is_not_said_to_be_a_byte(text, held):
    """`undecoded`: a surrogate from \\udc80 to \\udcff is a byte Python could not decode; another (a Windows
    name's half, a library caller's) was said to be "the byte \\ud800"."""
    from lusoria.words import undecoded

    assert undecoded(text) == (
        f"is not UTF-8 text: 'Jo{held.rpartition(' ')[2]}n' holds {held} (from another encoding?); the archive's "
        "text is UTF-8: give it so"
    )
