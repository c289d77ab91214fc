"""The archive: import, every query filter and format, read-only SQL, stats, faults."""

import contextlib
import csv
import io
import json
import os
import re
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import ROOT, connect
from toy_game import Slide

from lusoria.api import random_records
from lusoria.archive import (
    Archive,
    FilterError,
    Filters,
    InvalidSQL,
    NotAnArchive,
    ReadOnlyError,
    positions,
    records_as_rows,
    schema,
)
from lusoria.archive.search import read_positions
from lusoria.cli import main
from lusoria.validator.base import Outcome
from lusoria.validator.games import GAMES, register
from lusoria.validator.replay import check
from lusoria.words import quoted

SAMPLES = str(ROOT / "samples")
INITIAL_TABLUT = "3ppp3/4p4/4P4/p3P3p/ppPPKPPpp/p3P3p/4P4/4p4/3ppp3 w"


@pytest.fixture(scope="module")
def archive(tmp_path_factory):
    """The samples, imported once, from the project's folder: their paths are `samples/…` on any machine."""
    archive = Archive(str(tmp_path_factory.mktemp("archive") / "lusoria.db"))
    with contextlib.chdir(ROOT):
        summary = archive.import_paths(["samples"])
    assert (summary.added, summary.duplicates, summary.unreadable) == (81, 0, [])
    return archive


def ids(archive: Archive, **filters) -> list[int]:
    return [row["id"] for row in archive.query(Filters(**filters))]


def test_every_record_is_kept_valid_or_not(archive):
    figures = archive.stats()
    assert figures["records"] == 81 and figures["valid"] == 14 and figures["invalid"] == 67
    syntax = archive.query(Filters(rule="syntax"))  # the one that lacks only its result marker is replayed
    assert [(row["line"], row["plies"], row["valid"]) for row in syntax] == [
        (3, 0, 0),
        (8, 0, 0),
        (13, 2, 0),
        (18, 0, 0),
    ]
    assert archive.sql("SELECT count(*) AS n FROM record_texts WHERE text LIKE '%e4-j4%'") == [{"n": 1}]
    commented = "SELECT count(comments) AS n, count(nullif(comments, '')) AS written FROM records"
    assert archive.sql(commented) == [{"n": 11, "written": 11}]  # a record without a comment: NULL, not ''


def test_a_record_with_a_tag_written_twice_is_stored_replayed_and_told_apart_by_its_text(tmp_path):
    """Newcomer-52: `validate` replays a record whose White tag is written twice (its first value read), but
    `import` stored it unparsable: no plies, no variant, in no tree. Its text, as written, tells it apart from
    the same game with the repeat struck out (read without it, it is that game)."""
    record = '[Game "tablut"]\n[White "Ann"]\n[White "Bob"]\n[Result "*"]\n\n1. e3-c3 d1-d3 *\n'
    (tmp_path / "twice.lgn").write_text(record)
    (tmp_path / "struck.lgn").write_text(record.replace('[White "Bob"]\n', ""))
    archive = Archive(str(tmp_path / "club.db"))
    summary = archive.import_paths([str(tmp_path / "twice.lgn"), str(tmp_path / "struck.lgn")])
    assert (summary.added, summary.invalid, summary.unparsable, summary.duplicates) == (2, 1, 0, 0)
    [row] = archive.query(Filters(game="tablut", variant="seed", valid=False))
    assert (row["white"], row["plies"], row["first_rule"], row["path"]) == (
        "Ann",
        2,
        "tag",
        str(tmp_path / "twice.lgn"),
    )
    assert archive.sql(f"SELECT text FROM record_texts WHERE id = {row['id']}") == [{"text": record}]


def test_a_record_lacking_only_its_result_marker_is_stored_replayed_without_a_result(tmp_path):
    """Newcomer-53a: a record that ends without its result marker was stored unparsable: no plies, no variant,
    its comments not searchable, in no tree. It is stored as `show` replays it, its plies checked (T2 at its
    third), with no result (none is written) and its missing marker the first error; its text tells it apart."""
    record = '[Game "tablut"]\n[White "Ann"]\n\n1. e3-f3 { the folio is torn } d1-d3\n2. f3-f1\n'
    (tmp_path / "torn.lgn").write_text(record)
    archive = Archive(str(tmp_path / "club.db"))
    summary = archive.import_paths([str(tmp_path / "torn.lgn")])
    assert (summary.added, summary.invalid, summary.unparsable) == (1, 1, 0)
    [row] = archive.query(Filters(text="folio"))
    assert (row["variant"], row["plies"], row["result"], row["first_rule"]) == ("seed", 3, None, "syntax")
    assert archive.sql(f"SELECT ending FROM records WHERE id = {row['id']}") == [{"ending": "unfinished"}]
    found = archive.sql(f"SELECT rule, ply FROM diagnostics WHERE record_id = {row['id']} ORDER BY number")
    assert found == [{"rule": "syntax", "ply": None}, {"rule": "T2", "ply": 3}]
    assert archive.sql(f"SELECT text FROM record_texts WHERE id = {row['id']}") == [{"text": record}]
    played = archive.sql(f"SELECT ply, move FROM plies WHERE record_id = {row['id']} ORDER BY ply")
    assert played == [{"ply": 0, "move": "e3-f3"}, {"ply": 1, "move": "d1-d3"}, {"ply": 2, "move": None}]
    (tmp_path / "tagged.lgn").write_text(record.replace("\n\n", '\n[Result "1-0"]\n\n').replace("torn", "cut"))
    assert archive.import_paths([str(tmp_path / "tagged.lgn")]).added == 1
    [tagged] = archive.query(Filters(text="cut"))  # its Result tag says the result its text leaves out
    assert (tagged["result"], tagged["plies"]) == ("1-0", 3)
    assert archive.sql(f"SELECT ending FROM records WHERE id = {tagged['id']}") == [{"ending": "unknown"}]


def test_result_filters_the_movetext_s_result_and_the_tag_filter_the_result_tag_as_written(tmp_path):
    """Newcomer-55a: `--result`'s help said the Result tag, where the column holds the marker the movetext ends
    with; a record whose tag says otherwise is found by the marker, and by its tag with `--tag Result=…`."""
    (tmp_path / "told.lgn").write_text('[Game "tablut"]\n[Result "1-0"]\n\n1. e3-f3 d1-d3 0-1\n')
    archive = Archive(str(tmp_path / "club.db"))
    assert archive.import_paths([str(tmp_path / "told.lgn")]).added == 1
    assert (ids(archive, result="0-1"), ids(archive, result="1-0")) == ([1], [])
    assert (ids(archive, tags=[("Result", "1-0")]), ids(archive, tags=[("Result", "0-1")])) == ([1], [])


def test_importing_again_adds_nothing(archive):
    summary = archive.import_paths([SAMPLES])
    assert (summary.added, summary.duplicates) == (0, 81)
    assert archive.stats()["records"] == 81


def test_a_record_corrected_after_its_import_is_stored_beside_the_first(tmp_path):
    """docs/archive.md, Import: an import only adds; a new archive holds the files as they are now."""
    night = tmp_path / "records" / "night.lgn"
    night.parent.mkdir()
    night.write_text('[Game "tablut"]\n[White "Karin Nilsson"]\n\n1. e3-c3 e4-b4 *\n')
    archive = Archive(str(tmp_path / "club.db"))
    archive.import_paths([str(night.parent)])
    night.write_text(night.read_text().replace("e4-b4", "a4-b4"))
    assert archive.import_paths([str(night.parent)]).added == 1
    kept = [(row["path"], row["valid"]) for row in archive.query(Filters(player="Karin Nilsson"))]
    assert kept == [(str(night), 0), (str(night), 1)]
    fresh = Archive(str(tmp_path / "club-new.db"))
    fresh.import_paths([str(night.parent)])
    assert [row["valid"] for row in fresh.query(Filters(player="Karin Nilsson"))] == [1]


@pytest.mark.parametrize(
    "filters, expected",
    [
        (dict(game="laquet"), 18),
        (dict(game="LATRUNCULI", variant="dux"), 3),
        (dict(white="karin nilsson"), 3),
        (dict(black="Karin Nilsson"), 1),
        (dict(player="Karin Nilsson"), 4),  # with the record that writes White twice, Karin Nilsson first
        (dict(event="Club evening"), 3),
        (dict(site="uppsala"), 3),
        (dict(date_from="2026.11.21", date_to="2026.11.21"), 4),  # with the study of 2026.??.??
        (dict(date_from="2026.11.22"), 1),  # the linnaeus study is dated 2026.??.??: it may be later
        (dict(date_to="2025"), 0),
        (dict(date_from="2026-01-01"), 4),
        (dict(result="0-1"), 8),
        (dict(valid=True), 14),
        (dict(valid=False, game="tablut"), 25),
        (dict(rule="Q6"), 3),
        (dict(rule="T8"), 1),
        (dict(tags=[("Variant", "linnaeus")]), 1),
        (dict(tags=[("Game", "tablut"), ("Round", "3")]), 1),
        (dict(text="Raichi"), 1),
        (dict(text="incitus freed"), 1),
        (dict(text="lusoria random"), 6),  # the Source tags of the random samples
        (dict(limit=5), 5),
        (dict(min_plies=400), 4),  # the four random Latrunculi games
        (dict(max_plies=0), 10),  # records that do not parse have no plies (one lacking its marker has 2)
        (dict(min_plies=9, max_plies=9), 4),
        (dict(min_plies=20, max_plies=100, valid=True), 3),
        (dict(board="9x9"), 26),  # the tablut records whose rules could be read
        (dict(board="8"), 25),  # a square board by its side
        (dict(board=" 8 X 8 "), 25),
        (dict(board="9×9", game="tablut"), 26),
        (dict(board="11x11"), 0),
    ],
)
def test_each_filter(archive, filters, expected):
    assert len(ids(archive, **filters)) == expected


@pytest.mark.parametrize("value", ["x' OR '1'='1", "%", "_", "Karin%", '"); DROP TABLE records; --'])
def test_filter_values_are_matched_literally(archive, value):
    for field in ("white", "player", "event", "rule"):
        assert ids(archive, **{field: value}) == []
    for field in ("game", "variant"):  # none that lusoria knows or the archive holds: said, quoted
        with pytest.raises(FilterError, match=f"names no {field} that lusoria knows") as refused:
            ids(archive, **{field: value})
        assert f"holds no record of the {field} {quoted(value)}" in refused.value.problem
    assert ids(archive, tags=[("White", value)]) == []
    # full text: words only, as phrases; punctuation is no operator (Karin% finds the word Karin),
    # and a word of punctuation alone is an error, not an empty answer
    if all(any(character.isalnum() for character in word) for word in value.split()):
        assert len(ids(archive, text=value)) == (4 if value == "Karin%" else 0)
    else:
        with pytest.raises(FilterError, match="needs letters or digits in each word"):
            ids(archive, text=value)
    assert archive.stats()["records"] == 81


def test_a_word_with_a_double_quote_in_it_is_searched_as_the_words_it_separates(tmp_path):
    """`lusoria query --text 'O"Neil'` of a game whose White is O"Neil: the quote ended the phrase
    the search made of the word, and the query failed (`lusoria: unterminated string`, the full-text
    index's syntax error) where it finds the game."""
    record = '[Game "tablut"]\n[White "{}"]\n[Black "Olof Berg"]\n\n1. e3-c3 *\n'
    (tmp_path / "club.lgn").write_text("\n".join(record.format(white) for white in ('O\\"Neil', "Neil Olsen")))
    archive = Archive(str(tmp_path / "club.db"))
    assert archive.import_paths([str(tmp_path / "club.lgn")]).added == 2
    assert [row["white"] for row in archive.query(Filters(text='O"Neil'))] == ['O"Neil']
    shown = CliRunner().invoke(main, ["query", "--db", archive.path, "--text", 'O"Neil', "--format", "csv"])
    assert shown.exit_code == 0 and [row["white"] for row in csv.DictReader(io.StringIO(shown.stdout))] == ['O"Neil']


def test_position_search_gives_the_ply(archive):
    rows = archive.query(Filters(position=INITIAL_TABLUT, valid=True))
    assert len(rows) == 6 and {row["ply"] for row in rows} == {0}
    escape = archive.query(Filters(position="p2ppp3/4p4/2P1P4/4Pp3/ppK2PPpp/p3P2p1/3PP4/4p4/3ppp3 b"))
    # the escape game, and two error samples that open with the same seven plies
    assert [(row["white"], row["ply"]) for row in escape] == [("Karin Nilsson", 7), (None, 7), (None, 7)]
    assert len(archive.query(Filters(position="1:2,2:3,3:3,4:3,5:3,18:1 6:14,7:1 w"))) == 12
    with pytest.raises(ValueError):
        archive.query(Filters(position="not a position"))


def test_sql_is_read_only(archive):
    for statement in (
        "DELETE FROM records",
        "DROP TABLE plies",
        "INSERT INTO tags VALUES (1, 'a', 'b')",
        "ATTACH DATABASE ':memory:' AS other",
        "PRAGMA user_version = 7",
        "SELECT load_extension('x')",
        "CREATE TABLE t (a)",
    ):
        with pytest.raises(ReadOnlyError, match="only reads"):
            archive.sql(statement)
    assert archive.sql("PRAGMA user_version") == [{"user_version": schema.SCHEMA_VERSION}]
    assert archive.stats()["records"] == 81


def test_sql_that_sqlite_cannot_run_is_invalid_sql_in_sqlite_s_words_as_lusoria_sql_says(archive):
    """`sql("selec 1")` raised the ReadOnlyError of a write (a ReadOnlyError still, for callers that
    catch it): InvalidSQL, what `lusoria sql` says of it."""
    for statement, said in (
        ("selec 1", 'near "selec": syntax error'),
        ("SELECT no_such(1)", "no such function: no_such"),
        ("SELECT * FROM chess_games", "no such table: chess_games (docs/archive.md, The schema, lists the tables)"),
    ):
        with pytest.raises(InvalidSQL) as raised:
            archive.sql(statement)
        assert str(raised.value) == said and isinstance(raised.value, ReadOnlyError)
        shown = CliRunner().invoke(main, ["sql", "--db", archive.path, statement])
        assert (shown.exit_code, shown.output) == (1, f"lusoria: {said}\n")
    for refused in ("DELETE FROM records", "SELECT randomblob(2000000000)"):
        with pytest.raises(ReadOnlyError) as raised:
            archive.sql(refused)
        assert not isinstance(raised.value, InvalidSQL)


def test_a_table_the_archive_lacks_is_named_with_those_like_it(archive):
    with pytest.raises(ReadOnlyError) as raised:
        archive.sql("SELECT * FROM record")
    assert str(raised.value) == (
        "no such table: record (docs/archive.md, The schema, lists the tables; "
        "did you mean records or record_ids or records_fts?)"
    )
    with pytest.raises(
        ReadOnlyError, match=r"^no such table: chess_games \(docs/archive.md, The schema, lists the tables\)$"
    ):
        archive.sql("SELECT * FROM chess_games")


def test_a_column_no_table_has_is_named_with_those_like_it(archive):
    """`record` for `record_id`, the column that points to a record in other_tags, diagnostics…
    (was SQLite's message alone)."""
    with pytest.raises(ReadOnlyError) as raised:
        archive.sql("SELECT t.value FROM other_tags t WHERE t.record = 1")
    assert str(raised.value) == (
        "no such column: t.record (docs/archive.md, The schema, lists the columns; did you mean record_id or code?)"
    )
    with pytest.raises(
        ReadOnlyError, match=r"^no such column: elo \(docs/archive.md, The schema, lists the columns\)$"
    ):
        archive.sql("SELECT elo FROM records")


def test_sql_of_two_statements_is_refused_in_lusorias_words(archive):
    """New-user 68: `sql "select 1; delete from records"` said Python's `You can only execute one statement at a
    time.` (nothing was written); a statement ended by `;` runs."""
    said = "lusoria sql runs one statement, and the SQL holds more: end it at its first ';'"
    with pytest.raises(ReadOnlyError, match=f"^{said}$"):
        archive.sql("SELECT 1; DELETE FROM records")
    shown = CliRunner().invoke(main, ["sql", "--db", archive.path, "SELECT 1 AS one; SELECT 2"])
    assert (shown.exit_code, shown.stderr) == (1, f"lusoria: {said}\n")
    assert archive.sql("SELECT 1 AS one;") == [{"one": 1}]


@pytest.mark.parametrize("statement", ["", " ; ", "-- a comment alone"])
def test_sql_of_no_statement_is_refused(archive, statement):
    """h80a: `lusoria sql ""` said "no records", status 0, as if a search had found none."""
    said = "the SQL holds no statement that reads: give one, as SELECT count(*) FROM records"
    with pytest.raises(InvalidSQL, match=f"^{re.escape(said)}$"):
        archive.sql(statement)
    shown = CliRunner().invoke(main, ["sql", "--db", archive.path, "--", statement])
    assert (shown.exit_code, shown.stderr) == (1, f"lusoria: {said}\n")
    assert archive.sql("SELECT 1 AS one WHERE 0") == []


@pytest.mark.parametrize(
    "statement, column", [("SELECT id, text FROM records", "text"), ("SELECT r.Text FROM records r", "Text")]
)
def test_a_column_of_other_tables_than_those_read_is_named_with_them(archive, statement, column):
    """A historian looked for a record's text in `records`: told `did you mean text?`, the very name written."""
    said = f"{column} is a column of diagnostics, moves, record_texts, rules, variation_plies"
    with pytest.raises(ReadOnlyError, match=rf"\(docs/archive.md, The schema: {said}\)$"):
        archive.sql(statement)


def test_not_an_archive(tmp_path):
    text = tmp_path / "notes.db"
    text.write_text("not a database at all, just some words" * 100)
    with pytest.raises(NotAnArchive, match="cannot be read"):
        Archive(str(text)).import_paths([SAMPLES])
    other = tmp_path / "other.db"
    sqlite3.connect(other).execute("CREATE TABLE things (a)").connection.commit()
    with pytest.raises(NotAnArchive, match="not a lusoria archive"):
        Archive(str(other)).query(Filters())
    for version in (3, 42):  # another program's database that numbers its versions too
        versioned = tmp_path / f"versioned-{version}.db"
        sqlite3.connect(versioned).executescript(f"CREATE TABLE things (a); PRAGMA user_version = {version}").close()
        with pytest.raises(NotAnArchive, match=f"versioned-{version}.db is not a lusoria archive$"):
            Archive(str(versioned)).query(Filters())
        assert sqlite3.connect(versioned).execute("SELECT name FROM sqlite_master").fetchall() == [("things",)]
    missing = Archive(str(tmp_path / "missing.db"))
    for read in (  # (h74b: every call that checks the archive first, most_recorded's check left out went unseen)
        *(missing.stats, missing.aliases, missing.players, missing.most_recorded, missing.duplicates),
        *(missing.crosstable, missing.own_games, missing.invalid_counted),
        lambda: list(missing.iter_query(Filters())),
        lambda: list(missing.iter_sql("SELECT 1")),
        lambda: missing.most_selected(Filters()),
        lambda: missing.variants_elsewhere(Filters(game="tablut")),
        lambda: missing.remove(Filters(), dry_run=True),
        lambda: missing.canonical_player("Ida"),
        lambda: missing.unrecorded_players(["Ida"]),
        lambda: missing.unmerge_players(["Ida"]),
        lambda: missing.merge_players(["Ida"], "I. Berg"),
    ):
        with pytest.raises(NotAnArchive, match="missing.db does not exist"):
            read()
    assert not (tmp_path / "missing.db").exists()


def test_an_archive_is_checked_again_only_when_its_file_or_its_wal_changed(tmp_path, monkeypatch):
    """A notebook's calls open the archive once each: the check of its version (`Archive._existing`) holds
    while the file and its WAL stand as they were; another program's commit, the file deleted and
    another put in its place are each seen at the next call."""
    from lusoria.archive import commands

    path = tmp_path / "club.db"
    archive = Archive(str(path))
    archive.import_paths([SAMPLES])
    checks: list[str] = []
    opening = commands.connect
    monkeypatch.setattr(commands, "connect", lambda *args, **kwargs: checks.append(args[0]) or opening(*args, **kwargs))
    assert archive.query() == archive.query() and checks == [str(path)]
    with contextlib.closing(sqlite3.connect(path)) as conn:  # (a commit in WAL mode, into the -wal file)
        conn.execute("PRAGMA user_version = 99")
        conn.commit()
        with pytest.raises(NotAnArchive, match="a lusoria archive of version 99, which a newer lusoria made"):
            archive.query()
    path.unlink()
    with pytest.raises(NotAnArchive, match="club.db does not exist"):
        archive.query()
    replaced = Archive(str(tmp_path / "replaced.db"))
    replaced.import_paths([SAMPLES])
    assert replaced.query() == replaced.query()
    other = tmp_path / "other.db"
    sqlite3.connect(other).execute("CREATE TABLE things (a)").connection.commit()
    os.replace(other, replaced.path)
    with pytest.raises(NotAnArchive, match="replaced.db is not a lusoria archive$"):
        replaced.query()
    assert len(checks) == 4


def test_a_directory_is_said_to_be_one(tmp_path):
    """`--db` naming a directory was "cannot be read as a database: disk I/O error" (reading) or
    "unable to open database file" (importing): SQLite's words, which a user took for a failing disk."""
    folder = tmp_path / "archives"
    folder.mkdir()
    said = f"{folder} cannot be read as a database: it is a directory, not an archive file"
    for command in (lambda: Archive(str(folder)).stats(), lambda: Archive(str(folder)).import_paths([SAMPLES])):
        with pytest.raises(NotAnArchive) as raised:
            command()
        assert str(raised.value) == said
    assert list(folder.iterdir()) == []


def test_an_empty_file_is_no_archive_to_read_and_stays_empty(tmp_path):
    """An import makes an archive of an empty file; a command that reads one does not write it."""
    empty = tmp_path / "empty.db"
    empty.touch()
    for read in (Archive(str(empty)).stats, lambda: Archive(str(empty)).query(Filters())):
        with pytest.raises(NotAnArchive, match="empty.db is not a lusoria archive$"):
            read()
    assert empty.stat().st_size == 0


def test_the_plies_of_a_record_stop_at_its_illegal_ply(tmp_path):
    """A row of `plies` per position reached: the last one, before the illegal ply, leads nowhere."""
    path = tmp_path / "illegal.lgn"
    path.write_text('[Game "tablut"]\n\n1. e3-c3 e4-b4 2. e5-e4 *\n')
    archive = Archive(str(tmp_path / "a.db"))
    archive.import_paths([str(path)])
    rows = archive.sql("SELECT ply, move, length(position) AS size FROM plies ORDER BY ply")
    assert rows == [{"ply": 0, "move": "e3-c3", "size": 11}, {"ply": 1, "move": None, "size": 11}]


def test_plies_are_kept_in_canonical_form_once_each_in_a_dictionary(tmp_path):
    """A record's row of `positions` holds a token a position, each the position's key and the code
    of the ply played from it: the same ply, however written, has one code."""
    archive = Archive(str(tmp_path / "a.db"))
    archive.import_paths(
        ['[Game "tablut"]\n\n1. e3-c3 d1-d3 2. e4-e3 *\n\n[Game "tablut"]\n\n1. e3-c3 d1-d3 2. e4-e3xd3 i6-f6 *\n']
    )
    assert archive.sql("SELECT text FROM moves ORDER BY code") == [
        {"text": text} for text in ("e3-c3", "d1-d3", "e4-e3xd3", "i6-f6")
    ]
    assert [row["move"] for row in archive.sql("SELECT move FROM plies WHERE record_id = 1 ORDER BY ply")] == [
        "e3-c3",
        "d1-d3",
        "e4-e3xd3",
        None,
    ]
    rules = GAMES["tablut"]()
    start = positions.position_token(positions.position_key(rules, rules.initial()))
    assert {row["position"] for row in archive.sql("SELECT position FROM plies WHERE ply = 0")} == {start}


def test_a_failure_mid_batch_leaves_whole_records_and_a_rerun_completes(tmp_path, monkeypatch):
    archive = Archive(str(tmp_path / "a.db"))
    real, calls = records_as_rows.rows, []

    def failing(report):
        calls.append(1)
        if len(calls) == 8:  # the system failing, which stops an import (one record's bug does not)
            raise MemoryError("injected")
        return real(report)

    monkeypatch.setattr(records_as_rows, "rows", failing)
    with pytest.raises(MemoryError):
        archive.import_paths([SAMPLES + "/tablut", SAMPLES + "/errors"], batch_size=3)
    db = connect(archive.path)
    assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    assert db.execute("SELECT count(*) FROM records").fetchone() == (6,)  # two whole batches
    assert db.execute("SELECT count(DISTINCT record_id) FROM plies").fetchone() == (6,)
    monkeypatch.setattr(records_as_rows, "rows", real)
    summary = archive.import_paths([SAMPLES + "/tablut", SAMPLES + "/errors"], batch_size=3)
    assert (summary.added, summary.duplicates) == (69, 6)
    assert db.execute("SELECT count(*), count(DISTINCT hash) FROM records").fetchone() == (75, 75)
    assert db.execute("PRAGMA foreign_key_check").fetchall() == []


# -- the commands ----------------------------------------------------------------------------


def run(*args, input=None):
    return CliRunner().invoke(main, list(args), input=input)


def test_the_commands_and_their_formats(archive, tmp_path, snapshot):
    db = ["--db", archive.path]
    table = run("query", *db, "--player", "Karin Nilsson")
    assert table.exit_code == 0 and table.output == snapshot
    rows = json.loads(run("query", *db, "--game", "tablut", "--tag", "Round=3", "--format", "json").output)
    assert [row["white"] for row in rows] == ["Karin Nilsson"] and "text" not in rows[0]
    rows = list(csv.DictReader(io.StringIO(run("query", *db, "--rule", "Q6", "--format", "csv").output)))
    assert len(rows) == 3 and rows[0]["first_rule"] == "Q6"
    lgn = tmp_path / "found.lgn"
    lgn.write_text(run("query", *db, "--valid", "--format", "lgn").output)
    assert "14 records: 14 valid" in run("validate", str(lgn)).output
    found = run("query", *db, "--position", INITIAL_TABLUT, "--valid")
    assert found.output.splitlines()[0].split()[-1] == "ply"
    assert run("sql", *db, "SELECT game, count(*) AS n FROM records GROUP BY game ORDER BY game").output == snapshot
    assert run("stats", *db).output == snapshot
    refused = run("sql", *db, "DELETE FROM records")
    assert refused.exit_code == 1 and "only reads" in refused.output
    assert run("query", *db, "--tag", "Round").exit_code == 2
    assert run("query", "--db", str(tmp_path / "missing.db")).exit_code == 2


def test_sql_as_lgn_without_a_text_column_names_the_view_that_has_it(archive):
    """New user 30: `sql "SELECT id FROM records WHERE id = 7" --format lgn` said `row 1 holds
    None`, as of a text that is missing, and not where the records' text is."""
    db = ["--db", archive.path]
    refused = run("sql", *db, "SELECT id, white FROM records WHERE id = 78", "--format", "lgn")
    assert refused.exit_code == 2
    assert refused.output.endswith(
        "Error: the lgn format needs a column named text holding records (the view record_texts has it: "
        "… JOIN record_texts USING (id)); the columns are id, white\n"
    )
    empty = run("sql", *db, "SELECT NULL AS text", "--format", "lgn")
    assert empty.output.endswith("Error: the lgn format needs a column named text holding records; row 1 holds None\n")
    joined = run("sql", *db, "SELECT text FROM records JOIN record_texts USING (id) WHERE id = 78", "--format", "lgn")
    assert joined.exit_code == 0 and joined.output.startswith('[Game "tablut"]')


def test_stats_shows_the_variants_with_the_most_records_and_sums_up_the_others(archive):
    """A mixed archive holds 160 variants: `stats` shows the `top` (10 by default), then the rest in
    one row, so that the variants' records still add up to all of them."""
    figures = archive.stats(top=3)
    assert figures["variants"] == [
        {"value": "tablut/seed", "records": 25},
        {"value": "laquet/seed", "records": 18},
        {"value": "latrunculi/seneca", "records": 11},
    ]
    assert figures["more_variants"] == {"variants": 9, "records": 27}
    assert len(figures["first_error_rules"]) == 3
    assert figures["players"] == [{"value": "Karin Nilsson", "records": 4}, {"value": "Olof Berg", "records": 3}]
    assert archive.stats()["more_variants"] == {"variants": 2, "records": 2}  # 12 variants: the last 2 folded
    shown = run("stats", "--db", archive.path, "--top", "3").output.split("\n\n")[2].splitlines()
    assert shown[2:] == [
        "tablut/seed                25",
        "laquet/seed                18",
        "latrunculi/seneca          11",
        "(9 other variants)         27",
    ]
    assert run("stats", "--db", archive.path, "--top", "0").exit_code == 2
    with pytest.raises(ValueError, match="not 0"):
        archive.stats(top=0)


def test_import_command_and_the_default_database(tmp_path, monkeypatch):
    monkeypatch.setenv("LUSORIA_DB", str(tmp_path / "env.db"))
    result = run("import", SAMPLES + "/tablut")
    assert result.exit_code == 0
    assert (
        result.output == f"{tmp_path / 'env.db'}: added 4 records (0 invalid, 0 of them unparsable), "
        "skipped 0 duplicates\n"
    )
    again = run("import", "-", input=(ROOT / "samples/tablut/escape.lgn").read_text())
    assert "added 0 records" in again.output and "skipped 1 duplicate\n" in again.output
    assert again.exit_code == 0  # nothing new is no failure: the records are there
    assert run("import", str(tmp_path / "missing.lgn")).exit_code == 2


@pytest.mark.parametrize(
    "game, variant, key",
    [
        ("tablut", "seed", 7774056159711531825),
        ("tablut", "ashton", 7774056159711531825),
        ("latrunculi", "seneca", 7834399323425738467),
        ("latrunculi", "dux", 4585865662117756457),
        ("laquet", "seed", -2753561467310528027),
    ],
)
def test_a_positions_key_is_the_one_archives_of_version_10_hold(game, variant, key):
    # `plies.position` of an archive already made: a new key for the same position would hide it
    # from position search unless the schema's version changes too, so that archives are upgraded
    # (Ashton's position remembers earlier ones, and is keyed as the plain one; version 10 keys a
    # board of squares with its width; Laquet's keys are those of version 5)
    rules = GAMES[game](variant=variant)
    assert positions.position_key(rules, rules.initial()) == key


@pytest.mark.parametrize("game, variant", [(game, name) for game, rules in GAMES.items() for name in rules.presets])
def test_a_position_played_has_the_key_of_the_same_position_read_from_its_string(game, variant):
    # what `--position` looks for: a position string's key, read by its board's rules. A tafl game under
    # a repetition rule plays positions that remember (RememberingPosition), keyed as the plain ones
    rules = GAMES[game](variant=variant)
    start = rules.initial()
    assert rules.parse_position(rules.format_position(start)) == start  # (a piece may stand where it starts)
    sought = [(read, position) for read, position in read_positions(rules.format_position(start)) if read.name == game]
    assert [positions.position_key(read, position) for read, position in sought] == [
        positions.position_key(rules, start)
    ]


@pytest.mark.parametrize(
    "game, variant", [("latrunculi", "dux"), ("hnefatafl", "opentafl-fetlar-11x11"), ("hnefatafl", "tyr-11x11")]
)
def test_every_position_of_a_game_is_found_by_its_string(game, variant, tmp_path):
    """`--position` found no dux position (the default variant's rules do not read a dux), and
    none of a tafl game played under a repetition rule or with a piece on its throne."""
    source = tmp_path / "games.lgn"
    source.write_text("\n".join(random_records(game, 2, seed=3, tags={"Variant": variant}, max_plies=8)))
    archive = Archive(str(tmp_path / "a.db"))
    assert archive.import_paths([str(source)]).added == 2
    report = check(source.read_text().split("\n\n[")[0])
    for ply, position in enumerate(report.positions):
        sought = report.rules.format_position(position)
        assert ply in [row["ply"] for row in archive.query(Filters(position=sought)) if row["id"] == 1]


def test_an_import_with_workers_pauses_its_cycle_collector_only_while_it_takes_their_rows(monkeypatch):
    import gc

    from lusoria import workers
    from lusoria.pipeline import records

    monkeypatch.setattr(workers, "CHUNK", 2_000)  # the samples in several chunks: workers take them

    taken = []
    for checked in records_as_rows.checked_rows(records([SAMPLES]), jobs=2, batch_size=10):
        taken.append((checked, gc.isenabled()))
    assert len(taken) == 81 and not any(enabled for _, enabled in taken) and gc.isenabled()
    assert all(
        enabled
        for _, enabled in (
            (checked, gc.isenabled())
            for checked in records_as_rows.checked_rows(records([SAMPLES + "/tablut"]), jobs=1)
        )
    )


def test_a_key_is_the_hash_of_the_game_and_the_positions_fields():
    # a NamedTuple's fields (made by one format), bytes as they are and the others as their repr,
    # under the name its repr gives; any other position (one naming fields too) as its repr
    import hashlib
    from collections import namedtuple
    from types import SimpleNamespace

    Named = namedtuple("Named", "board turn")
    Renamed = type("Renamed", (Named,), {"__repr__": lambda self: "Named" + repr(tuple(self))})
    cases = [
        (
            [Named(b"\x00(", 0), Named(b"p'\n", 1)],
            [b"toy Named(board=\x00(, turn=0)", b"toy Named(board=p'\n, turn=1)"],
        ),
        ([Named("\xe9", (1, 2))], [b"toy Named(board='\\xe9', turn=(1, 2))"]),
        ([Renamed(b"K", 0)], [b"toy Named(board=K, turn=0)"]),
        ([("a", 1), ("b", 2)], [b"toy ('a', 1)", b"toy ('b', 2)"]),
        (
            [SimpleNamespace(_fields=("board",), board=b"K")],
            [b"toy namespace(_fields=('board',), board=b'K')"],
        ),  # no tuple
        ([], []),
    ]
    for written, texts in cases:
        assert positions.key_texts("toy ", written) == texts
        expected = [int.from_bytes(hashlib.blake2b(text, digest_size=8).digest(), "big", signed=True) for text in texts]
        assert positions.keys_of(SimpleNamespace(name="toy"), written) == expected


def test_the_limit_goes_up_to_the_largest_sql_integer(archive):
    largest = str(2**63 - 1)
    assert CliRunner().invoke(main, ["query", "--db", archive.path, "--limit", largest]).exit_code == 0
    refused = CliRunner().invoke(main, ["query", "--db", archive.path, "--limit", str(2**63)])
    assert refused.exit_code == 2 and f"is not a whole number from 0 to {largest}" in refused.output


def test_the_length_filters_are_the_plies_of_the_main_line(archive):
    lengths = {row["id"]: row["plies"] for row in archive.query(Filters())}
    found = ids(archive, min_plies=51, max_plies=60)
    assert sorted(found) == sorted(record for record, plies in lengths.items() if 51 <= plies <= 60)
    assert sorted(lengths[record] for record in found) == [51, 51, 60]
    shown = CliRunner().invoke(main, ["query", "--db", archive.path, "--min-plies", "51", "--max-plies", "60"])
    assert shown.exit_code == 0 and [line.split()[0] for line in shown.output.splitlines()[2:]] == list(map(str, found))


@pytest.mark.parametrize(
    "filters, problem",
    [
        (dict(min_plies=-1), "the min_plies filter is a whole number from 0 to 9223372036854775807; not -1"),
        (dict(max_plies="9"), "the max_plies filter is a whole number from 0 to 9223372036854775807; not '9'"),
        (dict(limit=-1), "the limit filter is a whole number from 0 to 9223372036854775807; not -1"),
        (
            dict(material=["king"], material_for=0),
            "the material_for filter is a whole number of at least 1; not 0",
        ),
    ],
)
def test_a_library_call_is_refused_a_number_its_option_refuses(archive, filters, problem):
    """`limit=-1` listed every record (SQLite's LIMIT -1: none), `max_plies="9"` none (text is
    greater than any number in SQLite)."""
    with pytest.raises(FilterError) as refused:
        archive.query(Filters(**filters))
    assert str(refused.value) == problem


@pytest.mark.parametrize(
    "filters, problem",
    [
        (dict(valid="yes"), "the valid filter is True or False; not 'yes'"),
        (dict(symmetric=1), "the symmetric filter is True or False; not int (1)"),
        (dict(game=5), "the game filter is a str; not int (5)"),
        (dict(path=Path("games/a.lgn")), "the path filter is a str; not PosixPath (PosixPath('games/a.lgn'))"),
        (dict(material="king"), "the material filter is a list; not 'king'"),
        (dict(tags=("Round", "3")), "the tags filter is a list of (NAME, VALUE) pairs, as [('Site', 'Uppsala')]; "),
    ],
)
def test_a_library_call_is_refused_a_value_of_another_type_than_its_filter_s(archive, filters, problem):
    """`valid="yes"` found no record, `symmetric=1` searched as True, `game=5` raised AttributeError,
    `material="king"` read each letter as a condition: each method that takes filters refuses them."""
    for call in (archive.query, lambda filters: archive.stats(filters=filters), archive.players):
        with pytest.raises(FilterError) as refused:
            call(Filters(**filters))
        assert str(refused.value).startswith(problem)
    with pytest.raises(FilterError, match="^the valid filter is True or False"):
        archive.tree(INITIAL_TABLUT, filters=Filters(valid="no"))


def test_a_library_call_is_refused_filters_that_are_no_filters(archive, tmp_path):
    """Newcomer-57b: `query({"player": "Hagbard"})` raised AttributeError: 'dict' object has no attribute 'symmetric'."""
    for call in (
        archive.query,
        lambda filters: archive.stats(filters=filters),
        lambda filters: archive.players(filters),
        lambda filters: archive.tree(filters=filters),
        lambda filters: archive.export(str(tmp_path / "out"), "csv", filters=filters),
        archive.remove,
    ):
        with pytest.raises(TypeError) as refused:
            call({"player": "Hagbard"})
        assert str(refused.value) == "filters are a Filters (lusoria.archive.Filters(player=…)), not dict"


def test_the_board_filter_finds_the_board_the_rules_start_on_and_stats_count_them(archive):
    """Laquet's table of points, and a record whose rules cannot be read, have no board."""
    boards = archive.sql("SELECT game, board, count(*) AS n FROM records GROUP BY 1, 2 HAVING board IS NOT NULL")
    assert boards == [{"game": "latrunculi", "board": "8x8", "n": 25}, {"game": "tablut", "board": "9x9", "n": 26}]
    assert archive.stats()["boards"] == [  # Laquet's and the records not read under None, `(no board)`
        {"value": None, "records": 30},
        {"value": "9x9", "records": 26},
        {"value": "8x8", "records": 25},
    ]
    with pytest.raises(FilterError) as refused:
        archive.query(Filters(board="9 by 9"))
    assert str(refused.value) == "the board filter is a board's size, as 11x11 (or 11: a square board); not '9 by 9'"
    shown = CliRunner().invoke(main, ["query", "--db", archive.path, "--board", "9", "--format", "csv"])
    assert shown.exit_code == 0 and len(shown.output.splitlines()) == 27  # a header and 26 records
    refused_cli = CliRunner().invoke(main, ["stats", "--db", archive.path, "--board", "9x"])
    assert refused_cli.exit_code == 2 and "--board is a board's size, as 11x11" in refused_cli.output
    lacking = CliRunner().invoke(main, ["query", "--db", archive.path, "--board", "11"])
    assert (lacking.exit_code, lacking.stdout) == (0, "no records\n")
    assert (
        lacking.stderr == "lusoria: no record of the archive is on a board of 11x11 (the archive's boards: 8x8, 9x9)\n"
    )
    held = CliRunner().invoke(main, ["query", "--db", archive.path, "--board", "9", "--player", "Karin Nilsson"])
    assert held.stderr == ""


def test_the_boards_an_archive_holds_are_said_smallest_first(tmp_path):
    """9x9 before 11x11 (a text's order put 11x11 first), when no record is on the board asked for."""
    archive = Archive(str(tmp_path / "a.db"))
    large = random_records("hnefatafl", 1, tags={"Variant": "copenhagen-hnefatafl-bell-11x11"}, max_plies=2)
    archive.import_reports(check(text) for text in [*large, *random_records("tablut", 1, max_plies=2)])
    assert (
        archive.board_lacking("7") == "no record of the archive is on a board of 7x7 (the archive's boards: 9x9, 11x11)"
    )
    assert archive.board_lacking("11") is None


def test_a_path_that_names_a_folder_is_said_with_the_glob_of_its_files(tmp_path, monkeypatch):
    """h73a: `--path tafl`, the folder the files were read from, found none, unsaid (`--path 'tafl/*'` finds them),
    where a player or a board a query names and no record has is said."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "my games" / "tablut").mkdir(parents=True)
    (tmp_path / "my games" / "tablut" / "a.lgn").write_text((ROOT / "samples/tablut/escape.lgn").read_text())
    archive = Archive("a.db")
    archive.import_paths(["my games"])
    said = (
        "no record was read from a file named 'my games', a folder: --path 'my games/*' finds the records of its files"
    )
    assert archive.path_lacking(Filters(path="my games")) == said
    assert archive.path_lacking(Filters(path="my games/tablut/")) == said.replace(
        "my games", "my games/tablut/", 1
    ).replace("'my games/*'", "'my games/tablut/*'")
    assert archive.path_lacking(Filters(path="my game?")) == said.replace(
        "named 'my games'", "matched by 'my game?'"
    ).replace("'my games/*'", "'my game?/*'")
    assert archive.path_lacking(Filters(path="my games", game="laquet")) is None  # (its files hold no such record)
    assert archive.path_lacking(Filters(path="my games", limit=0)) is None  # (none in its files either)
    assert archive.path_lacking(Filters(path="my games/*")) is None  # (found)
    assert archive.path_lacking(Filters(path="my games/tablut/a.lgn/")) is None  # (no file in it)
    assert archive.path_lacking(None) is None and archive.path_lacking(Filters(game="laquet")) is None
    shown = CliRunner().invoke(main, ["query", "--db", "a.db", "--path", "my games"])
    assert (shown.exit_code, shown.stdout, shown.stderr) == (0, "no records\n", f"lusoria: {said}\n")


def test_a_folder_whose_name_holds_a_glob_is_said_with_the_glob_of_its_files_alone(tmp_path, monkeypatch):
    """review73: a folder named `[old]`, given as typed, got no hint (`[old]/*` matches `o/…`, `l/…` or
    `d/…`); given as the glob of its name alone (`[[]old]`), the hint said it was "a file named" so."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "[old]").mkdir()
    (tmp_path / "[old]" / "a.lgn").write_text((ROOT / "samples/tablut/escape.lgn").read_text())
    (tmp_path / "o").mkdir()  # (review75: `[old]/*` matches its files: the hint named them before `[old]`'s)
    (tmp_path / "o" / "b.lgn").write_text((ROOT / "samples/tablut/linnaeus.lgn").read_text())
    archive = Archive("a.db")
    archive.import_paths(["[old]", "o"])
    assert archive.path_lacking(Filters(path="[old]")) == (
        "no record was read from a file named '[old]', a folder: --path '[[]old]/*' finds the records of its files"
    )
    assert archive.path_lacking(Filters(path="[[]old]")) == (
        "no record was read from a file matched by '[[]old]', a folder: --path '[[]old]/*' finds the records of "
        "its files"
    )


def test_a_path_filter_is_read_from_the_folder_it_runs_in_out_of_it_too(tmp_path, monkeypatch):
    """A file imported by its absolute path is found by the path the file system gives it from here: out of the
    folder the command runs in (`../sub/b.lgn`, h79b: that path was never tried; a real path outside the folder
    made "the folder's escaped glob and the rest" names another file), and in a folder whose name holds a glob's
    `[` (its name escaped, not read as a [class])."""
    for folder, sample in (("sub", "escape"), ("here[1]", "linnaeus")):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "b.lgn").write_text((ROOT / f"samples/tablut/{sample}.lgn").read_text())
    archive = Archive(str(tmp_path / "a.db"))
    files = [os.path.realpath(tmp_path / folder / "b.lgn") for folder in ("sub", "here[1]")]
    assert archive.import_paths(files).added == 2
    monkeypatch.chdir(tmp_path / "here[1]")
    assert [row["path"] for row in archive.query(Filters(path="../sub/b.lgn"))] == [files[0]]
    assert [row["path"] for row in archive.query(Filters(path="b.lgn"))] == [files[1]]
    assert [row["path"] for row in archive.query(Filters(path="../sub/*"))] == [files[0]]


def test_an_absolute_path_filter_is_the_user_s_glob_even_in_the_folder_it_runs_in(tmp_path, monkeypatch):
    """Only the folder the command runs in, which a relative path filter is read from, is escaped (reviewer-57b):
    an absolute path is typed whole, a glob throughout, so its `[1]` is a class of one character even where it
    names that folder (h81c: escaped there too, it found the folder `here[1]`'s record beside `here1`'s)."""
    for folder, sample in (("here1", "escape"), ("here[1]", "linnaeus")):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "b.lgn").write_text((ROOT / f"samples/tablut/{sample}.lgn").read_text())
    archive = Archive(str(tmp_path / "a.db"))
    files = [os.path.realpath(tmp_path / folder / "b.lgn") for folder in ("here1", "here[1]")]
    assert archive.import_paths(files).added == 2
    monkeypatch.chdir(tmp_path / "here[1]")
    typed = os.path.realpath(tmp_path / "here[1]" / "b.lgn")
    assert [row["path"] for row in archive.query(Filters(path=typed))] == [files[0]]
    assert [row["path"] for row in archive.query(Filters(path="b.lgn"))] == [files[1]]


def test_a_filter_of_one_value_given_twice_is_refused(archive):
    """`--player A --player B` found B's games alone, A dropped unsaid, where filters combine."""
    db = ["--db", archive.path]
    for command in (["query"], ["players", "list"], ["tree", "--game", "tablut"]):
        refused = CliRunner().invoke(main, [*command, *db, "--player", "Karin Nilsson", "--player", "Olof Berg"])
        assert refused.exit_code == 2, command
        assert "Invalid value for '--player': given 2 times ('Karin Nilsson', 'Olof Berg'); it takes one" in (
            refused.output
        )
    again = CliRunner().invoke(main, ["query", *db, "--result", "1-0", "--result", "0-1"])
    assert again.exit_code == 2 and "'--result': given 2 times ('1-0', '0-1')" in again.output
    once = CliRunner().invoke(main, ["query", *db, "--player", "Karin Nilsson", "--result", "1-0", "--format", "csv"])
    assert once.exit_code == 0 and [row.split(",")[0] for row in once.output.splitlines()[1:]] == ["78", "81"]


# -- how games end ---------------------------------------------------------------------------------


def test_every_record_says_how_its_game_ended(archive):
    ended = {
        row["path"].split("samples/")[1]: row["ending"]
        for row in archive.sql(
            "SELECT path, ending FROM records WHERE valid AND game = 'tablut' AND path LIKE '%samples/tablut/%'"
        )
    }
    assert ended == {
        "tablut/escape.lgn": "king escaped",
        "tablut/king-captured.lgn": "king captured",
        "tablut/linnaeus.lgn": "king captured",
        "tablut/tuichi.lgn": "king escaped",
    }
    figures = {row["value"]: row["records"] for row in archive.stats()["endings"]}
    assert figures["borne off"] == 3 and figures["unfinished"] == 18 and sum(figures.values()) == 81
    assert len(ids(archive, ending="King  Escaped")) == 4  # in any case, spaces folded


@pytest.mark.parametrize(
    "tags, result, ending",
    [
        ({"Termination": "resignation"}, "1-0", "resigned"),
        ({"Termination": "time forfeit"}, "0-1", "timeout"),
        ({"Termination": "Draw agreed"}, "1/2-1/2", "agreed"),
        # h83a: each word of TERMINATION_WORDS (archive/endings.py) read, none of them tested before
        ({"Termination": "Game abandoned"}, "1-0", "abandoned"),
        ({"Termination": "Adjudication"}, "0-1", "adjudicated"),
        ({"Termination": "Draw by  repetition"}, "1/2-1/2", "repetition"),
        ({"Termination": "Stalemate"}, "1-0", "no move"),
        ({"Termination": "no move left"}, "1-0", "no move"),
        ({"Termination": "No legal move"}, "0-1", "no move"),
        ({"Termination": "King captured"}, "0-1", "king captured"),  # the game's word, the game not played out
        ({"Termination": " King  captured "}, "0-1", "king captured"),  # (h83a) its blanks folded first
        ({"Termination": "the arbiter's decision"}, "1-0", "other"),
        ({}, "1-0", "unknown"),
        ({}, "*", "unfinished"),
    ],
)
def test_an_ending_the_rules_did_not_reach_is_read_from_the_termination_tag_or_the_result(
    tmp_path, tags, result, ending
):
    archive = Archive(str(tmp_path / "a.db"))
    written = "".join(f'[{name} "{value}"]\n' for name, value in tags.items())
    archive.import_paths([f'[Game "tablut"]\n[Result "{result}"]\n{written}\n1. e3-c3 {result}\n'])
    assert archive.sql("SELECT ending FROM records") == [{"ending": ending}]
    assert [row["id"] for row in archive.query(Filters(ending=ending))] == [1]


def test_a_record_of_rules_lusoria_does_not_know_has_the_ending_its_termination_tag_says(tmp_path):
    """h83a: a record of no rules (a variant unknown) has no game's endings to read its Termination by: its
    words are read as any game's (`report.rules` None was read for its endings, an AttributeError)."""
    archive = Archive(str(tmp_path / "a.db"))
    record = '[Game "tablut"]\n[Variant "zzz"]\n[Result "1-0"]\n[Termination "resignation"]\n\n1. e3-c3 1-0\n'
    archive.import_paths([record])
    assert archive.sql("SELECT variant, valid, ending FROM records") == [
        {"variant": "zzz", "valid": 0, "ending": "resigned"}
    ]


class Unworded(Slide):
    """Slide, whose outcome names no ending in words (a plug-in's game that leaves `Outcome.ending` out)."""

    endings = ()

    def outcome(self, position):
        found = super().outcome(position)
        return found and Outcome(found.result, found.rule, found.reason)


def test_an_outcome_that_names_no_ending_is_kept_as_its_rule(tmp_path):
    register(Unworded)
    try:
        archive = Archive(str(tmp_path / "a.db"))
        archive.import_paths(['[Game "slide"]\n\n1. a1-b1 a3-a2 2. b1-b2 a2-a1 0-1\n'])
        assert archive.sql("SELECT valid, ending FROM records") == [{"valid": 1, "ending": "Z3"}]
    finally:
        GAMES.unregister("slide")


def test_a_types_name_finds_its_games_of_every_layout_without_the_real_files(tmp_path):
    """h79b: `--variant 'Sea battle tafl 13x13'`, the site's name of a type with a second layout (`…/2`, variant
    sea-battle-tafl-13x13-b), finds the games of both; its entry's own name the first's alone (h70b; pinned on
    ../shared's real files alone, which a clone without them skips: a search of the first layout passed)."""
    texts = [
        *random_records("hnefatafl", 2, seed=1, tags={"Variant": "Sea battle tafl 13x13"}, max_plies=6),
        *random_records("hnefatafl", 1, seed=2, tags={"Variant": "Sea battle tafl 13x13/2"}, max_plies=6),
        *random_records("hnefatafl", 1, seed=3, tags={"Variant": "copenhagen-hnefatafl-13x13"}, max_plies=6),
    ]
    (tmp_path / "g.lgn").write_text("\n".join(texts))
    archive = Archive(str(tmp_path / "a.db"))
    assert archive.import_paths([str(tmp_path / "g.lgn")]).added == 4
    found = {
        name: [(row["id"], row["variant"]) for row in archive.query(Filters(variant=name))]
        for name in ("Sea battle tafl 13x13", "sea-battle-tafl-13x13", "Sea battle tafl 13x13/2")
    }
    first, second = "sea-battle-tafl-13x13", "sea-battle-tafl-13x13-b"
    assert found == {
        "Sea battle tafl 13x13": [(1, first), (2, first), (3, second)],
        "sea-battle-tafl-13x13": [(1, first), (2, first)],
        "Sea battle tafl 13x13/2": [(3, second)],
    }


def test_a_rule_of_a_game_added_by_a_plug_in_filters_its_records(tmp_path):
    """h79b: `--rule` of a rule lusoria's rulebook does not hold (a game registered from outside: Slide's Z1) finds
    the records that break it, the ID in any case as lusoria's own are (none was tried: a filter of no rule passed;
    h79b: `z1` found none, and was said to be cited by no diagnostic)."""
    register(Slide)
    try:
        archive = Archive(str(tmp_path / "a.db"))
        archive.import_paths(['[Game "slide"]\n\n1. a1-b1 a3-a2 2. b1-c1 *\n', '[Game "slide"]\n\n1. a1-a2 *\n'])
        assert archive.sql("SELECT record_id, rule, ply FROM diagnostics") == [{"record_id": 1, "rule": "Z1", "ply": 3}]
        assert ids(archive, rule="Z1") == [1] and ids(archive, rule=" Z1 ") == [1] and ids(archive, rule="z1") == [1]
        assert ids(archive, rule="Z3") == []
        assert archive.rule_lacking("z1") is None
        assert archive.rule_lacking("z3") == "no record of the archive has a diagnostic of the rule 'z3' (known: Z1)"
    finally:
        GAMES.unregister("slide")


def test_an_ending_no_game_has_is_an_error_that_lists_them(archive):
    with pytest.raises(
        FilterError,
        match=r"the ending filter is one of king captured, king escaped, .*borne off, "
        r".*resigned, timeout, .*unfinished, unknown; not 'king capture' \(did you mean king captured or king escaped\?\)$",
    ):
        ids(archive, ending="king capture")
    result = run("query", "--db", archive.path, "--ending", "encirclement")
    assert result.exit_code == 2 and "--ending is one of" in result.output
    assert result.output.endswith("not 'encirclement' (did you mean encircled?)\n")
    with pytest.raises(FilterError, match=r"unknown; not 'draw'$"):  # nothing like it: the list alone
        ids(archive, ending="draw")


def test_an_ending_is_found_by_the_words_of_the_termination_tag_it_is_read_from(tmp_path):
    """`--ending resignation` was refused (did you mean repetition?), though lusoria's own readers write
    `[Termination "resignation"]` (h70b): the words a Termination tag is read by name its ending."""
    archive = Archive(str(tmp_path / "a.db"))
    archive.import_paths(
        [
            f'[Game "tablut"]\n[Round "{round_}"]\n[Termination "{termination}"]\n\n1. e3-c3 d1-d2 {result}\n'
            for round_, (termination, result) in enumerate((("resignation", "1-0"), ("time forfeit", "0-1")))
        ]
    )
    assert [ids(archive, ending=written) for written in ("resignation", "Resigned", "time  forfeit", "timeout")] == [
        [1],
        [1],
        [2],
        [2],
    ]
    with pytest.raises(FilterError, match=r"not 'forfeit'$"):
        ids(archive, ending="forfeit")


def test_a_result_none_of_the_four_is_an_error_not_an_empty_answer(archive):
    """Filters(result=…) from Python: the CLI's choices hold there too (was: no record, silently)."""
    with pytest.raises(FilterError) as raised:
        ids(archive, result="2-0")
    assert str(raised.value) == "the result filter is one of 1-0, 0-1, 1/2-1/2, *; not '2-0'"
    assert ids(archive, result="1/2-1/2") == []  # (one of them: none of the samples is drawn)


def test_the_archive_knows_the_results_the_grammar_writes():
    """archive.players.RESULTS (the filter's, the explorer's, the tree's) restates the grammar's
    markers, which `--help` must not load the reader for: the same four."""
    from lusoria.archive.players import RESULTS
    from lusoria.notation.slips import RESULTS as MARKERS

    assert RESULTS == MARKERS


# -- tag values by glob, words by prefix, dates as people write them -------------------------------


def test_tag_values_match_as_globs(archive):
    assert len(ids(archive, tags=[("Termination", "the king*")])) == 1
    assert ids(archive, tags=[("Termination", "The KING*")]) == ids(archive, tags=[("Termination", "the king*")])
    assert ids(archive, tags=[("Event", "CLUB*")]) == ids(archive, event="club evening")  # (in any case: note78)
    assert ids(archive, tags=[("event", "club*")]) == ids(archive, event="club evening")  # (a roster name too: h80a)
    assert sorted(ids(archive, tags=[("Round", "[13]")])) == sorted(
        ids(archive, tags=[("Round", "1")]) + ids(archive, tags=[("Round", "3")])
    )
    assert ids(archive, tags=[("Event", "*evening")]) == ids(archive, event="club evening")
    for pair, problem in (
        (("Round", ""), "is NAME=VALUE with a name and a value"),
        (("", "3"), "is NAME=VALUE with a name and a value"),
        (("Round", "[13"), "opens a \\[class\\] of characters it does not close"),
    ):
        with pytest.raises(FilterError, match=problem):
            ids(archive, tags=[pair])
    for written in ({"Round": "3"}, ("Round", "3"), [("Round",)]):  # Filters(tags=...) in Python
        with pytest.raises(FilterError, match=r"is a list of \(NAME, VALUE\) pairs, as \[\('Site', 'Uppsala'\)\]"):
            ids(archive, tags=written)
    empty = run("query", "--db", archive.path, "--tag", "Termination=")
    assert empty.exit_code == 2 and "--tag is NAME=VALUE with a name and a value" in empty.output


def test_a_tag_value_longer_than_sqlite_reads_as_a_glob_is_refused_by_the_filter(archive):
    """SQLite reads a GLOB of 50,000 bytes at most: one longer is refused by name and length, its bytes too
    when they are more than its characters (`--tag Event=<60,000 letters>` said `LIKE or GLOB pattern too
    complex` alone; 25,001 `é` were said to be 25,001 characters, as if fewer than 50,000); the longest is
    searched."""
    assert ids(archive, tags=[("Event", "*" * 50_000)]) == ids(archive, tags=[("Event", "*")]) != []
    assert ids(archive, tags=[("Opening", "é" * 25_000)]) == []
    with pytest.raises(FilterError) as refused_letters:
        ids(archive, tags=[("Opening", "é" * 25_001)])
    assert str(refused_letters.value) == (
        "the tags filter value of Opening is 25,001 characters (50,002 bytes), longer than SQLite reads as a glob "
        "(50,000 bytes)"
    )
    refused = run("query", "--db", archive.path, "--tag", "Event=" + "x" * 50_001)
    assert (refused.exit_code, refused.output.splitlines()[-1]) == (
        2,
        "Error: --tag value of Event is 50,001 characters, longer than SQLite reads as a glob (50,000 bytes)",
    )


def test_words_match_in_any_form_and_by_prefix(archive):
    escapes = ids(archive, text="escapes")
    assert escapes and ids(archive, text="escape") == ids(archive, text="escaping") == escapes  # stems
    assert ids(archive, text="esc*") == ids(archive, text="ESCAP*") != []
    assert ids(archive, text="Nils*") == ids(archive, player="Karin Nilsson")
    for text in ("*", "escape **", "--"):
        with pytest.raises(FilterError, match="needs letters or digits in each word"):
            ids(archive, text=text)


@pytest.mark.parametrize(
    "written, first",
    [
        ("2026-11", "2026-11-01"),
        ("2026-11-21", "2026-11-21"),
        ("2026.11", "2026-11-01"),
        ("2026", "2026-01-01"),
        ("2026.11.??", "2026-11-01"),
    ],
)
def test_dates_are_pgn_or_iso_whole_or_in_part(archive, written, first):
    assert ids(archive, date_from=written) == ids(archive, date_from=first)
    assert ids(archive, date_to="2026-11") == ids(archive, date_to="2026.11") == ids(archive, date_to="2026-11-30")


@pytest.mark.parametrize("written", ["May 2020", "2020/05", "20-05-2020", "2020-5"])
def test_a_date_filter_says_what_it_accepts(archive, written):
    result = run("query", "--db", archive.path, "--date-from", written)
    assert result.exit_code == 2
    assert (
        "a date filter is YYYY, YYYY.MM or YYYY.MM.DD (a PGN date: ?? for an unknown part), or YYYY-MM or "
        f"YYYY-MM-DD; not '{written}'"
    ) in result.output


@pytest.mark.parametrize("written", ["2019.02.30", "2019.00.10", "2019-00-10", "2019.06.00"])
def test_a_date_filter_of_no_real_day_says_so(archive, written):
    """`2019.00.10` was read as all of 2019 (00 as ??), and `2019.02.30` said to be of the wrong form (h78b)."""
    result = run("query", "--db", archive.path, "--date-from", written)
    assert result.exit_code == 2 and f"'{written}' names no real day (?? is an unknown part)" in result.output


def test_a_position_without_the_side_to_move_is_found_with_either(archive):
    board = INITIAL_TABLUT.split()[0]
    either = {row["id"] for row in archive.query(Filters(position=board))}
    white, black = ({row["id"] for row in archive.query(Filters(position=f"{board} {side}"))} for side in "wb")
    assert either == white | black and white and black  # the start, and the same board with Black to move


def test_the_source_file_tag_lgn_writes_is_found_by_its_value(tmp_path):
    """`query --format lgn` writes a SourceFile tag for a record read from another format, from its
    path, and `--tag 'SourceFile=*x*'` found none: the tag is searched where the text takes it from,
    for those records alone (an lgn file's records have none, nor one kept as written), and a record's
    own SourceFile tag (a plug-in format's reader may hand one) is searched as any other tag."""
    db = str(tmp_path / "a.db")
    archive = Archive(db)
    otn, moves = tmp_path / "night.otg", tmp_path / "night.txt"
    otn.write_text((ROOT / "tests/fixtures/formats/otn/variations.otg").read_text())
    moves.write_text("e3-c3 e5-e4\n")  # (invalid: kept as written, in tafl)
    (tmp_path / "night.lgn").write_text('[Game "tablut"]\n1. e3-c3 *\n')
    archive.import_paths([str(tmp_path)])
    [lgn] = [row["id"] for row in archive.query(Filters()) if row["path"].endswith(".lgn")]
    found = archive.query(Filters(tags=[("SourceFile", "*night*")]))
    assert [row["path"] for row in found] == [str(otn)]
    [text] = archive.sql(f"SELECT text FROM record_texts WHERE id = {found[0]['id']}")
    assert f'[SourceFile "{otn}"]' in text["text"]
    assert ids(archive, tags=[("SourceFile", "*night")]) == []  # (a glob: matched whole)
    assert ids(archive, tags=[("SourceFile", "*NIGHT.OTG")]) == [found[0]["id"]]  # (in any case, as its own tag)
    with contextlib.closing(connect(db)) as conn, conn:
        for record in (found[0]["id"], lgn):
            conn.execute("INSERT INTO other_tags VALUES (?, 'SourceFile', 'kept.otg')", [record])
    assert ids(archive, tags=[("SourceFile", "*night*")]) == []
    assert sorted(ids(archive, tags=[("SourceFile", "KEPT.otg")])) == sorted([found[0]["id"], lgn])


def test_the_source_file_tag_is_not_found_for_a_record_of_no_file(tmp_path):
    """A record read from standard input or a stream, in another format, has no SourceFile tag in
    its text (its path names no file): `--tag 'SourceFile=*'` found it by its path `<stream>`."""
    archive = Archive(str(tmp_path / "a.db"))
    otn = (ROOT / "tests/fixtures/formats/otn/variations.otg").read_text()
    archive.import_paths([io.StringIO(otn)])
    [record] = archive.query(Filters(tags=[("SourceFormat", "otn")]))
    assert record["path"] == "<stream>" and "SourceFile" not in record["text"]
    assert ids(archive, tags=[("SourceFile", "*")]) == ids(archive, tags=[("SourceFile", "<stream>")]) == []


def test_reading_the_archive_leaves_no_wal_or_shm_file_beside_it(tmp_path):
    """Newcomer-55a: every read left `lusoria.db-wal` and `lusoria.db-shm` in the club's folder (a read-only
    connection that closes last keeps them), which `validate .` then said it skipped and git listed. A reading
    connection closed opens one that may write, whose close deletes them; not while another is open."""
    folder = tmp_path / "club"
    folder.mkdir()
    (folder / "game.lgn").write_text('[Game "tablut"]\n[White "Ann"]\n\n1. e3-f3 d1-d3 *\n')
    db = str(folder / "lusoria.db")
    assert run("import", "--db", db, str(folder / "game.lgn")).exit_code == 0
    for command in (["query"], ["stats"], ["players"], ["tree"], ["sql", "SELECT count(*) FROM records"]):
        assert run(command[0], "--db", db, *command[1:]).exit_code == 0
        assert sorted(os.listdir(folder)) == ["game.lgn", "lusoria.db"], command
    with contextlib.closing(sqlite3.connect(db)) as writer:  # another program's connection, open
        writer.execute("SELECT 1 FROM records").fetchall()
        assert run("stats", "--db", db).exit_code == 0
        assert {"lusoria.db-wal", "lusoria.db-shm"} <= set(os.listdir(folder))  # its files, kept while it reads
    assert sorted(os.listdir(folder)) == ["game.lgn", "lusoria.db"]


def test_an_archive_shows_the_file_it_opens(tmp_path):
    """Newcomer-59: an Archive showed as `<lusoria.archive.commands.Archive object at 0x…>`."""
    assert repr(Archive(str(tmp_path / "club.db"))) == f"Archive({str(tmp_path / 'club.db')!r})"
