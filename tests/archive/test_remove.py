"""`lusoria remove` (`Archive.remove`): the records some filters match removed, so that the archive is,
table by table, the archive of the others imported alone (`contents`: ids, rowids and the codes of plies
aside), its move tree and full-text search included; and the `--path` filter that finds a file's records."""

import contextlib
import os
import sqlite3

import pytest
from click.testing import CliRunner
from conftest import waiting_briefly
from hypothesis import given, settings
from hypothesis import strategies as st
from test_replace import NAMES, RESULTS, answers, contents, games, write

from lusoria.archive import Archive, Filters, NothingSelected, RemovalStopped
from lusoria.cli import main

CHOICES = [
    *(Filters(player=name) for name in NAMES),
    *(Filters(result=result) for result in RESULTS),
    Filters(path="games/b.lgn"),
    Filters(path="games/*"),
    Filters(game="brandubh"),
    Filters(min_plies=5, player="Anna Fomina"),
    Filters(record_id=3),
    Filters(order="newest", limit=4),
]


def blanked(records: list[str], lines: set[int]) -> list[str]:
    """The records of a file, those that begin on `lines` made blank lines: the others keep their lines."""
    found, line = [], 1
    for record in records:
        found.append("\n" * record.count("\n") if line in lines else record)
        line += record.count("\n") + 1
    return found


@settings(max_examples=12, deadline=None)
@given(st.sampled_from(CHOICES), st.integers(0, 3))
def test_removed_records_leave_the_archive_of_the_others_imported_alone(tmp_path_factory, filters, seed):
    folder = tmp_path_factory.mktemp("remove")
    with contextlib.chdir(folder):  # (relative paths, as a user gives them)
        _removed_and_imported_alone(folder, filters, seed)


def _removed_and_imported_alone(folder, filters, seed) -> None:
    os.mkdir("games")
    files = {"games/a.lgn": games(seed), "games/b.lgn": games(seed + 10, 6)}
    for path, records in files.items():
        write(folder / path, records)
    archive = Archive("removed.db")
    archive.import_paths(list(files))
    archive.merge_players(["Jens Holm"], "J. Holm")  # aliases are the user's: kept
    matched = sorted((row["id"], row["path"], row["line"]) for row in archive.query(filters))
    if not matched:
        with pytest.raises(NothingSelected, match="no record matches the filters: nothing removed"):
            archive.remove(filters)
        return
    assert [(row["id"], row["path"], row["line"]) for row in archive.remove(filters)] == matched
    assert archive.query(filters) == [] or filters.limit  # (a limit takes the next ones)
    for path, records in files.items():  # (the files, where the removed records were, blank)
        write(folder / path, blanked(records, {line for _, file, line in matched if file == path}))
    fresh = Archive("fresh.db")
    if fresh.import_paths(list(files)).added == 0:  # every record removed: no archive made
        assert archive.sql("SELECT count(*) AS n FROM records") == [{"n": 0}]
        return
    fresh.merge_players(["Jens Holm"], "J. Holm")
    assert contents(str(folder / "removed.db")) == contents(fresh.path)
    assert answers(archive) == answers(fresh)


def run(*args: str):
    return CliRunner().invoke(main, list(args))


def test_remove_names_each_record_it_removes_and_wants_filters_that_match(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    os.mkdir("games")
    write(tmp_path / "games/a.lgn", games(1, 3))
    write(tmp_path / "games/b.lgn", games(2, 3))
    Archive("club.db").import_paths(["games"])
    listed = run("query", "--db", "club.db", "--path", "*b.lgn", "--format", "csv")
    assert sorted(line.split(",")[0] for line in listed.output.splitlines()) == ["4", "5", "6", "id"]
    removed = run("remove", "--db", "club.db", "--path", "*b.lgn", "--min-plies", "0")
    assert (removed.exit_code, removed.stdout) == (
        0,
        "record 4 (games/b.lgn:1): removed\nrecord 5 (games/b.lgn:12): removed\nrecord 6 (games/b.lgn:23): removed\n"
        "club.db: removed 3 records\n",
    )
    again = run("remove", "--db", "club.db", "--path", "*b.lgn")
    assert (again.exit_code, again.stdout, again.stderr) == (
        1,
        "",
        "lusoria: no record matches the filters: nothing removed\n",
    )
    unfiltered = run("remove", "--db", "club.db")
    assert unfiltered.exit_code == 2
    assert "Error: give filters (as in query) of the records to remove: remove takes none unless told which" in (
        unfiltered.stderr
    )
    for useless in (["--symmetric"], ["--order", "newest"]):  # (no filter; an order with no limit)
        assert run("remove", "--db", "club.db", *useless).exit_code == 2
    assert Archive("club.db").sql("SELECT path, count(*) AS n FROM records GROUP BY path") == [
        {"path": "games/a.lgn", "n": 3}
    ]
    unclosed = run("query", "--db", "club.db", "--path", "games/[ab.lgn")
    assert unclosed.exit_code == 2
    assert "Error: --path value 'games/[ab.lgn' opens a [class] of characters it does not close" in unclosed.stderr


def test_a_removal_from_an_archive_another_program_writes_to_removes_nothing_and_says_so(tmp_path, monkeypatch):
    db = str(tmp_path / "club.db")
    write(tmp_path / "a.lgn", games(1, 3))
    Archive(db).import_paths([str(tmp_path / "a.lgn")])
    before = contents(db)
    waiting_briefly(monkeypatch)
    other = sqlite3.connect(db, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    with pytest.raises(RemovalStopped) as stopped:
        Archive(db).remove(Filters(record_id=2))
    result = run("remove", "--db", db, "--id", "2")
    other.rollback()
    other.close()
    assert str(stopped.value) == (
        f"{db}: nothing was removed: database is locked; another program is writing to the archive: "
        "remove them once it is done"
    )
    assert (result.exit_code, result.stderr) == (2, f"lusoria: {stopped.value}\n")
    assert contents(db) == before


def test_a_removal_done_is_said_done_when_the_index_cannot_be_merged_after_it(tmp_path, monkeypatch):
    """Reviewer-57: another program that took the write lock between the removal's COMMIT and the merging of the
    position index (`merge_positions`, which only makes searches faster) made `remove` say "nothing was removed",
    and the records were gone. The merging is left to the next import; the removal is said, and searches hold."""
    from lusoria.archive import importer

    db = str(tmp_path / "club.db")
    write(tmp_path / "a.lgn", games(1, 3))
    Archive(db).import_paths([str(tmp_path / "a.lgn")])
    waiting_briefly(monkeypatch)
    other = sqlite3.connect(db, isolation_level=None)
    merge = importer.merge_positions

    def merge_once_another_program_writes(conn):
        other.execute("BEGIN IMMEDIATE")
        merge(conn)

    monkeypatch.setattr(importer, "merge_positions", merge_once_another_program_writes)
    removed = Archive(db).remove(Filters(record_id=2))
    other.rollback()
    other.close()
    assert [row["id"] for row in removed] == [2]
    assert [row["id"] for row in Archive(db).query()] == [1, 3]
    start = Archive(db).tree(from_id=1, ply=0)
    assert sum(node.games for node in start) == 1  # (records 1 and 2 are Tablut games: the index lost 2)


def test_ctrl_c_in_a_function_of_the_removal_is_ctrl_c_and_removes_nothing(tmp_path, monkeypatch):
    """Review 68: Ctrl-C as a name beyond ASCII was compared (`lusoria_casefold`) said `nothing was removed:
    user-defined function raised exception`, exit status 2, where Ctrl-C says `Aborted!`; a function's own
    failure is said in its words."""
    db = str(tmp_path / "club.db")
    write(tmp_path / "a.lgn", games(1, 3))
    Archive(db).import_paths([str(tmp_path / "a.lgn")])
    before = contents(db)

    def interrupted(name):
        raise KeyboardInterrupt

    monkeypatch.setattr("lusoria.archive.reading.casefold", interrupted)
    removed = CliRunner().invoke(main, ["remove", "--db", db, "--player", "Åsa Berg"])
    assert (removed.exit_code, removed.output) == (1, "\nAborted!\n")
    monkeypatch.setattr("lusoria.archive.reading.casefold", lambda name: 1 / 0)
    with pytest.raises(RemovalStopped, match="nothing was removed: lusoria_casefold: its argument is not a value it"):
        Archive(db).remove(Filters(player="Åsa Berg"))
    assert contents(db) == before


def test_a_dry_run_names_the_records_it_would_remove_and_removes_none(tmp_path):
    """Newcomer-57a: `remove --player "Anna Dahl"` removed all her games at once, unseen: `--dry-run` names them
    first, as the removal would, and the archive stays as it was."""
    db = str(tmp_path / "club.db")
    write(tmp_path / "a.lgn", games(1, 3))
    Archive(db).import_paths([str(tmp_path / "a.lgn")])
    before = contents(db)
    path = str(tmp_path / "a.lgn")
    assert Archive(db).remove(Filters(record_id=2), dry_run=True) == [{"id": 2, "path": path, "line": 12}]
    shown = CliRunner().invoke(main, ["remove", "--db", db, "--dry-run", "--path", path])
    assert (shown.exit_code, shown.stdout) == (
        0,
        f"record 1 ({path}:1): would be removed\nrecord 2 ({path}:12): would be removed\n"
        f"record 3 ({path}:23): would be removed\n{db}: would remove 3 records (--dry-run: none removed)\n",
    )
    assert contents(db) == before
    none = CliRunner().invoke(main, ["remove", "--db", db, "--dry-run", "--path", "elsewhere/*"])
    assert (none.exit_code, none.stdout) == (1, "")
    assert none.stderr.endswith("nothing would be removed\n")
    with pytest.raises(ValueError, match="^give filters"):
        Archive(db).remove(Filters(), dry_run=True)
