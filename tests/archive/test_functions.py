"""lusoria's SQL functions (archive/functions.py) called as an attacker would through `lusoria sql`
(issue 41): arguments of the wrong kind, a compressed-value bomb, damaged values and patterns
that backtrack each end in one line that names the function; the statement's timeout and Ctrl-C
stop a function in its loop."""

import json
import re
import signal
import sqlite3
from contextlib import closing
from types import SimpleNamespace

import pytest
import zstandard
from click.testing import CliRunner
from conftest import ROOT
from hypothesis import given
from hypothesis import strategies as st

from lusoria.archive import Archive, ReadOnlyError, functions, reading
from lusoria.archive.functions import MAX_VALUE
from lusoria.archive.patterns import glob_regex, matching_plies
from lusoria.archive.positions import pack_boards
from lusoria.cli import main

BOMB = zstandard.ZstdCompressor().compress(bytes(MAX_VALUE + 1))  # says its size: a byte past the bound (a GiB: 0.5 s)
STREAMED_BOMB = zstandard.ZstdCompressor(write_content_size=False).compress(bytes(MAX_VALUE + 1))  # no size said
NOT_BOARDS = zstandard.ZstdCompressor().compress(b"\x00\x05abc")  # boards 5 bytes long, and 3 bytes
BACKTRACKING = json.dumps([["tablut", "*.*.*.*.*.*.*.*.*.*.*.*.Z"]])


@pytest.fixture(scope="module")
def archive(tmp_path_factory):
    path = tmp_path_factory.mktemp("functions") / "a.db"
    assert CliRunner().invoke(main, ["import", "--db", str(path), str(ROOT / "samples/tablut")]).exit_code == 0
    return str(path)


def sql(archive: str, statement: str, *args: str):
    return CliRunner().invoke(main, ["sql", "--db", archive, *args, statement])


@pytest.mark.parametrize(
    "statement, said",
    [
        (
            "SELECT lusoria_board_at(boards, 'x') FROM record_boards",
            "lusoria_board_at: argument 2 must be an integer, not a text",
        ),
        (
            "SELECT lusoria_board_at(boards, 1.5) FROM record_boards",
            "lusoria_board_at: argument 2 must be an integer, not a real number",
        ),
        ("SELECT lusoria_boards(42)", "lusoria_boards: argument 1 must be a BLOB, not an integer"),
        ("SELECT lusoria_text('abc')", "lusoria_text: argument 1 must be a BLOB, not a text"),
        ("SELECT lusoria_casefold(x'00')", "lusoria_casefold: argument 1 must be a text, not a BLOB"),
        (
            "SELECT lusoria_matching_plies(boards, game, 7) FROM record_boards JOIN records ON id = record_id",
            "lusoria_matching_plies: argument 3 must be a text, not an integer",
        ),
        (
            "SELECT lusoria_matching_plies(boards, game, '{') FROM record_boards JOIN records ON id = record_id",
            "lusoria_matching_plies: argument 3 must be a JSON list of [game, GLOB] pairs",
        ),
        (
            "SELECT lusoria_matching_plies(boards, game, '[[\"tablut\", 1]]') FROM record_boards JOIN records ON id = record_id",
            "lusoria_matching_plies: argument 3 must be a JSON list of [game, GLOB] pairs",
        ),
        (
            'SELECT lusoria_matching_plies(boards, game, \'[["tablut", "[]"]]\') FROM record_boards JOIN records ON '
            "id = record_id",
            "lusoria_matching_plies: argument 3 holds a GLOB SQLite would not read",
        ),
        ("SELECT lusoria_boards(x'00112233')", "lusoria_boards: its argument is not a value it reads (ZstdError"),
        (
            f"SELECT lusoria_board_at(x'{NOT_BOARDS.hex()}', 0)",
            "lusoria_board_at: its argument is not a record's boards",
        ),
        (
            f"SELECT lusoria_board_at(x'{BOMB.hex()}', 0)",
            f"lusoria_board_at: its value inflates to {MAX_VALUE + 1:,} bytes, more than the {MAX_VALUE:,} allowed",
        ),
        (
            f"SELECT lusoria_text(x'{BOMB.hex()}')",
            f"lusoria_text: its value inflates to {MAX_VALUE + 1:,} bytes, more than the {MAX_VALUE:,} allowed",
        ),
        (
            f"SELECT lusoria_boards(x'{STREAMED_BOMB.hex()}')",
            f"lusoria_boards: its value inflates to more than the {MAX_VALUE:,} bytes allowed",
        ),
    ],
)
def test_a_function_given_what_it_cannot_read_says_so_in_one_line(archive, statement, said):
    # each once "user-defined function raised exception", naming neither the function nor what
    # is wrong; the bomb inflated to a gibibyte (and a MemoryError under 2 GB)
    result = sql(archive, statement)
    assert result.exit_code == 1 and result.output.startswith(f"lusoria: {said}"), result.output
    assert result.output.count("\n") == 1


def test_a_null_argument_gives_null(archive):
    assert Archive(archive).sql(
        "SELECT lusoria_board_at(NULL, 0) AS a, lusoria_boards(NULL) AS b, "
        "lusoria_text(NULL) AS c, lusoria_board_at(boards, NULL) AS d, "
        "lusoria_matching_plies(boards, NULL, '[]') AS e FROM record_boards LIMIT 1"
    ) == [dict.fromkeys("abcde")]


def test_a_pattern_of_no_glob_for_the_records_game_matches_no_ply(archive):
    """GLOBS for other games than the record's: NULL, as for a record none of its boards matches."""
    assert Archive(archive).sql(
        "SELECT lusoria_matching_plies(boards, 'laquet', '[[\"tablut\", \"*\"]]') AS p FROM record_boards LIMIT 1"
    ) == [{"p": None}]


def test_a_pattern_that_backtracks_answers_at_once(archive, deadline):
    # `*` was `.*`: the pattern ran 40 s a record, past --timeout and Ctrl-C (the deadline fails it)
    assert (
        Archive(archive).sql(
            f"SELECT lusoria_matching_plies(boards, 'tablut', '{BACKTRACKING}') AS p FROM record_boards"
        )
        == [{"p": None}] * 4
    )
    boards = pack_boards([b"." * 81 + b" w"] * 3000)
    assert matching_plies(boards, "tablut", BACKTRACKING) is None
    assert matching_plies(boards, "tablut", json.dumps([["tablut", "*.*.*.*.*.*.*.*.*.*.*.*. w"]])) == json.dumps(
        list(range(3000))
    )


@given(st.text("ab*?", max_size=8), st.text("abc", max_size=10))
def test_a_glob_matches_as_sqlite_globs(glob, line):
    with closing(sqlite3.connect(":memory:")) as conn:
        expected = conn.execute("SELECT ? GLOB ?", [line, glob]).fetchone()[0]
    assert bool(re.fullmatch(glob_regex(glob), line)) == bool(expected)


@pytest.mark.parametrize("glob", ["[", "a[", "*[", "a[*", "?[*b", "[*[?"])
def test_a_bracket_never_closed_is_no_class_and_matches_as_sqlite_globs(glob):
    """h83a: a `[` that no `]` closes is no class, and SQLite's GLOB matches no board with one (boards
    hold no `[`); it was a literal `[` for the regular expression, never `[` alone, which no expression
    reads (the function would have refused a GLOB SQLite reads)."""
    with closing(sqlite3.connect(":memory:")) as conn:
        for line in ["", "a", "ab", "ba", "abb"]:
            expected = conn.execute("SELECT ? GLOB ?", [line, glob]).fetchone()[0]
            assert not expected and not re.fullmatch(glob_regex(glob), line)
    boards = pack_boards([b"abc", b"abd"])
    assert matching_plies(boards, "tablut", json.dumps([["tablut", glob]])) is None


def test_a_glob_matches_a_board_whole_as_sqlite_globs_not_a_part_of_it():
    """h83a: each board (a line) matches from its start to its end, as SQLite's GLOB does: `ab` is not the
    board `xab` (nor `abx`), whose ply a match anywhere in the line counted."""
    boards = pack_boards([b"xab", b"ab", b"abx"])
    assert matching_plies(boards, "tablut", json.dumps([["tablut", "ab"]])) == "[1]"
    assert matching_plies(boards, "tablut", json.dumps([["tablut", "?b"], ["tablut", "ab?"]])) == "[1, 2]"


@pytest.mark.parametrize(
    "glob, line", [("*b*", "a"), ("*b*", "ab"), ("a*b*c", "ac"), ("a*b*c", "abc"), ("*a*b*", "ba"), ("*a*b*", "aab")]
)
def test_each_part_between_two_stars_must_be_found_as_sqlite_globs(glob, line):
    """h83a: every part between two `*` is sought (the first one among them left out passed the random GLOBs
    of `test_a_glob_matches_as_sqlite_globs`)."""
    with closing(sqlite3.connect(":memory:")) as conn:
        expected = conn.execute("SELECT ? GLOB ?", [line, glob]).fetchone()[0]
    assert bool(re.fullmatch(glob_regex(glob), line)) == bool(expected)


def test_matching_plies_gives_the_statements_watch_a_turn_at_each_match(monkeypatch):
    """h83a: each match found gives the statement's watch (its timeout, Ctrl-C) a turn, as a record of many
    boards may match at every one: no test saw it (the call could be left out)."""
    turns = []
    monkeypatch.setattr(functions._STATE, "watch", lambda: turns.append(1) and False)
    assert matching_plies(pack_boards([b"ab", b"ab", b"ab"]), "tablut", json.dumps([["tablut", "ab"]])) == "[0, 1, 2]"
    assert len(turns) >= 3  # (one a match; reading the boards may take others)


@pytest.mark.parametrize("globs", ['["ab"]', '[{"tablut": 1, "ab": 2}]', '[["tablut"]]'])
def test_globs_that_are_no_list_of_pairs_are_refused_whatever_their_lengths(globs):
    """h83a: a pair is a list: a text or an object of two characters or keys is none (read as a pair, `"ab"`
    was game `a`'s GLOB `b`)."""
    with pytest.raises(functions.FunctionError, match=r"^argument 3 must be a JSON list of \[game, GLOB\] pairs$"):
        matching_plies(pack_boards([b"ab"]), "tablut", globs)


class Clock:
    """`time.monotonic` for the statement watch: a second later at each call; `on_call`, called
    at the call of that number."""

    def __init__(self, on_call: dict):
        self.now, self.on_call = 0.0, on_call

    def __call__(self) -> float:
        self.now += 1
        self.on_call.get(self.now, lambda: None)()
        return self.now


def test_the_timeout_stops_a_function_in_its_loop(archive, monkeypatch):
    # a statement of a few calls of a function (each one long) never reached the progress handler
    clock = Clock({})
    monkeypatch.setattr(reading, "time", SimpleNamespace(monotonic=clock))
    result = sql(archive, "SELECT lusoria_boards(boards) FROM record_boards", "--timeout", "2")
    assert result.exit_code == 1 and result.output == (
        "lusoria: the statement ran longer than 2 s and was stopped (see --timeout)\n"
    )
    monkeypatch.setattr(reading, "time", SimpleNamespace(monotonic=Clock({})))
    with closing(sqlite3.connect(":memory:")) as conn:  # inside one call: every 4,096 boards
        reading.add_query_functions(conn)
        functions.watching(conn, reading._Watch(2))
        with pytest.raises(sqlite3.OperationalError) as raised:
            conn.execute("SELECT lusoria_boards(?)", [pack_boards([b"a"] * 10_000)])
        assert functions.failure(raised.value) == "interrupted"
        functions.watching(conn, None)


def test_ctrl_c_stops_a_function(archive, monkeypatch):
    # SIGINT at the watch's second look (the statement's first function call): the next call stops
    # (raise_signal: this thread takes the signal at once; os.kill could hand it to another thread,
    # and on a loaded machine the statement had finished before the handler ran)
    clock = Clock({2: lambda: signal.raise_signal(signal.SIGINT)})
    monkeypatch.setattr(reading, "time", SimpleNamespace(monotonic=clock))
    with pytest.raises(KeyboardInterrupt):
        Archive(archive).sql("SELECT lusoria_boards(boards) FROM record_boards", timeout=0)
    assert functions._WATCHES == {}  # the statement's watch is gone with it


def test_ctrl_c_in_a_function_of_a_statement_no_watch_handles_is_ctrl_c(archive, monkeypatch, tmp_path):
    """New-user 68: Ctrl-C in `lusoria export` once said `internal error: OperationalError: user-defined function
    raised exception`: the KeyboardInterrupt came in a function of lusoria's, which SQLite's statement turned
    into that error, and export's statements have no watch to handle Ctrl-C (its SIGINT handler is Python's)."""

    def interrupted(*args):
        raise KeyboardInterrupt

    with closing(sqlite3.connect(":memory:")) as conn:
        functions.sql_function(conn, "lusoria_interrupted", interrupted, int)
        with pytest.raises(sqlite3.OperationalError) as raised:
            conn.execute("SELECT lusoria_interrupted(1)")
        with pytest.raises(KeyboardInterrupt):
            functions.failure(raised.value)
        assert functions.failure(raised.value) is None  # (said once)
        with pytest.raises(sqlite3.OperationalError):  # a Ctrl-C no caller reads (a process that goes on: Datasette)
            conn.execute("SELECT lusoria_interrupted(1)")
        functions.sql_function(conn, "lusoria_same", lambda value: value, int)
        conn.create_function("not_lusorias", 1, lambda value: 1 / 0)
        with pytest.raises(sqlite3.OperationalError) as raised:  # after a statement of lusoria's functions
            conn.execute("SELECT lusoria_same(1), not_lusorias(1)")
        assert functions.failure(raised.value) is None  # a function not lusoria's failed: no Ctrl-C
    monkeypatch.setattr("lusoria.archive.texts.inflated", interrupted)  # (Ctrl-C as a text is read)
    exported = CliRunner().invoke(main, ["export", "--db", archive, "--format", "jsonl", str(tmp_path / "out")])
    assert (exported.exit_code, exported.output) == (1, "\nAborted!\n")
    assert not (tmp_path / "out" / "records.jsonl").exists()


def test_a_statement_left_unfinished_watches_no_other(archive, monkeypatch):
    # a query's rows not all read (its watch, of 60 s, long past) once stopped another connection's functions
    clock = Clock({})
    monkeypatch.setattr(reading, "time", SimpleNamespace(monotonic=clock))
    rows = Archive(archive).iter_sql("SELECT id FROM records", timeout=1)
    next(rows)
    clock.now += 100
    with closing(reading.connect(archive)) as conn:  # as the move tree reads, with no watch of its own
        assert len(conn.execute("SELECT lusoria_boards(boards) FROM record_boards").fetchall()) == 4
    rows.close()


def test_a_failure_is_said_once(archive):
    with pytest.raises(ReadOnlyError, match="lusoria_boards: argument 1"):
        Archive(archive).sql("SELECT lusoria_boards(1)")
    with pytest.raises(ReadOnlyError, match="^no such function: no_such$"):
        Archive(archive).sql("SELECT no_such(1)")
