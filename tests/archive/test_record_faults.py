"""A record lusoria fails on while importing it (a bug: an exception while its rows are made, in a
worker process or not, or stored) is left out whole and named with its file and line, status 3,
and the other records are stored; the archive failing (a full disk) stops the import and leaves
the archive as it was."""

import os
import re
import sqlite3

import pytest
from click.testing import CliRunner
from conftest import ROOT, connect, waiting_briefly

from lusoria.archive import Archive, Filters
from lusoria.archive.importer import MoveCodes
from lusoria.archive.next_plies import NextPlies
from lusoria.archive.positions import summary_rows
from lusoria.archive.records_as_rows import Failure, archive_failing, checked_rows
from lusoria.cli import data_report, main
from lusoria.pipeline import records as read
from lusoria.validator.hnefatafl import CatalogueError

RECORD = '[Game "tablut"]\n[White "player {n}"]\n[Result "*"]\n\n1. {plies} *\n'
FAILING = 2  # the record lusoria fails on: the only one of three plies
# Each record's plies: the failing one's are new to the archive, and the last plays one of them
# again, among others new to it (codes in `moves` kept after a rollback would show), and
# reaches the failing one's first position in its sixth ply (a position summed up after a
# rollback would be counted in `next_plies`)
PLIES = ["e3-c3 d1-d3", "e3-c3 d1-d3", "e3-d3 d1-d2 2. d3-c3", "e3-c3 d1-d2 2. c3-b3 d2-d1 3. b3-d3 d1-d2"]
LINE = 1 + FAILING * (RECORD.count("\n") + 1)  # where it starts
BUG = "bytes must be in range(0, 256)"  # what the bug says (once, in record_squares)


def games(failing: bool = True) -> str:
    """The records of PLIES; without the failing one (`failing` False), blank lines in its
    place, the others on the same lines."""
    return "\n".join(
        "\n" * RECORD.count("\n") if n == FAILING and not failing else RECORD.format(n=n, plies=plies)
        for n, plies in enumerate(PLIES)
    )


def fail_on(monkeypatch, point: str, error: Exception, plies: int = 3) -> None:
    """Make one table's rows raise `error` for the record of `plies` plies (the failing one's by
    default), once they are made (`rows`: its `record_squares`) or stored (`positions`: its plies
    coded, the new ones added to `moves`; `next_plies`: the sums of the records stored with it)."""

    def failing(function, of_the_record):
        def patched(*args):
            done = function(*args)
            if of_the_record(*args):
                raise error
            return done

        return patched

    if point == "rows":
        made = failing(summary_rows, lambda rules, positions: len(positions) == plies + 1)
        monkeypatch.setattr("lusoria.archive.records_as_rows.summary_rows", made)
    elif point == "positions":
        coded = failing(MoveCodes.document, lambda _, tokens, moves: len(moves) == plies)
        monkeypatch.setattr(MoveCodes, "document", coded)
    else:
        added = failing(
            NextPlies.add, lambda _, new, lines, codes: any(len(lines[record]) == plies for record, _ in new)
        )
        monkeypatch.setattr(NextPlies, "add", added)


def contents(path: str) -> dict[str, list]:
    """Every row of every table of an archive (the full-text indexes checked, and `positions` read
    by its words: `position_plies`): the same for archives that hold the same records, whatever
    their history."""
    conn = connect(path)
    assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    assert conn.execute("PRAGMA foreign_key_check").fetchall() == []
    tables = dict(conn.execute("SELECT name, sql FROM sqlite_master WHERE type = 'table'").fetchall())
    indexes = [name for name, sql in tables.items() if re.search(r"USING fts5\s*\(", sql, re.IGNORECASE)]
    for index in indexes:
        conn.execute(f"INSERT INTO [{index}] ([{index}]) VALUES ('integrity-check')")
    found = {
        name: sorted(conn.execute(f"SELECT * FROM [{name}]").fetchall(), key=repr)
        for name in tables
        if not any(name == index or name.startswith(index + "_") for index in indexes)
    }
    conn.close()
    return found


@pytest.mark.parametrize("point, jobs", [("rows", "1"), ("rows", "2"), ("positions", "1"), ("next_plies", "1")])
def test_a_record_lusoria_fails_on_is_left_out_whole_and_named_and_the_others_are_stored(
    tmp_path, monkeypatch, point, jobs
):
    source = tmp_path / "games.lgn"
    source.write_text(games(failing=False))
    expected = str(tmp_path / "expected.db")
    assert CliRunner().invoke(main, ["import", "--db", expected, str(source)]).exit_code == 0
    source.write_text(games())
    fail_on(monkeypatch, point, ValueError(BUG))
    monkeypatch.setattr("lusoria.workers.CHUNK", 100)  # a chunk a record: with --jobs 2, workers take them
    db = str(tmp_path / "a.db")
    result = CliRunner().invoke(main, ["import", "--db", db, "--jobs", jobs, "--force-jobs", str(source)])
    assert result.exit_code == 3, result.output
    assert (
        result.stdout
        == f"{db}: added 3 records (0 invalid, 0 of them unparsable), skipped 0 duplicates, 1 record failed\n"
    )
    said = result.stderr.splitlines()
    assert said[0] == f"lusoria: {source}:{LINE}: internal error: ValueError: {BUG}; the record was not stored"
    assert said[1].startswith("lusoria: 1 record not stored, the others were. This is a bug in lusoria")
    assert len(said) == 2 and "Traceback" not in result.output
    assert contents(db) == contents(expected)  # no row of the failed record in any table, no gap in the ids
    if (point, jobs) in (("rows", "2"), ("positions", "1")):  # a traceback from a worker, and from storing
        debugged = CliRunner().invoke(
            main, ["--debug", "import", "--db", str(tmp_path / "b.db"), "--jobs", jobs, "--force-jobs", str(source)]
        )
        said, trace = debugged.stderr.split("\nTraceback (most recent call last):\n")
        assert debugged.exit_code == 3 and said == result.stderr.splitlines()[0]
        assert trace.endswith(f"\nValueError: {BUG}\n" + result.stderr.splitlines()[1] + "\n")


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_lusorias_own_data_found_wrong_stops_the_import_as_validate_says_it(tmp_path, monkeypatch, jobs):
    """A catalogue's entry found wrong while a record is checked is no bug of that record: the import
    stops with the line every command says of it (the file and the entry to mend), status 3, the
    archive as it was. It said "internal error: CatalogueError: …; the record was not stored" and
    "This is a bug in lusoria" (found by new-user-9)."""
    db = str(tmp_path / "a.db")
    Archive(db).import_paths([RECORD.format(n=9, plies="e3-c3 d1-d3")])
    before = contents(db)
    source = tmp_path / "games.lgn"
    source.write_text(games())
    wrong = "tafl_variants.toml:1681: variant 187 (toy-7x7): rules: the rank 'ppPKPp' covers 6 squares, not 7"
    fail_on(monkeypatch, "rows", CatalogueError(wrong))
    monkeypatch.setattr("lusoria.workers.CHUNK", 100)  # a chunk a record: with --jobs 2, workers take them
    result = CliRunner().invoke(main, ["import", "--db", db, "--jobs", jobs, "--force-jobs", str(source)])
    assert result.exit_code == 3 and result.stdout == ""
    assert result.stderr == f"lusoria: {wrong}. {data_report()}\n"
    assert "a bug in lusoria" not in result.stderr and contents(db) == before


def test_the_library_lists_the_records_it_failed_on_and_a_lone_failure_makes_no_archive(tmp_path, monkeypatch):
    fail_on(monkeypatch, "rows", ValueError(BUG))
    archive = Archive(str(tmp_path / "a.db"))
    alone = RECORD.format(n=0, plies=PLIES[FAILING])
    summary = archive.import_paths([alone])
    assert (summary.added, [str(failure) for failure in summary.failed]) == (0, [f"<text>:1: ValueError: {BUG}"])
    assert not (tmp_path / "a.db").exists()
    summary = archive.import_paths([games()], batch_size=1)  # a batch of the failure alone
    assert (summary.added, len(summary.failed)) == (3, 1) and str(summary).endswith(", 1 record failed")
    assert "Traceback" in summary.failed[0].trace
    assert [row["white"] for row in archive.query(Filters())] == ["player 0", "player 1", "player 3"]


def test_a_record_failed_on_names_its_file_as_its_row_would(tmp_path, monkeypatch):
    """A Failure's `file` is the real path a record's row keeps (`import --replace` keeps the
    records of a file whose records lusoria failed on by it), not read back out of its place's
    text; a record of no file has none."""
    fail_on(monkeypatch, "rows", ValueError(BUG))
    (tmp_path / "games.lgn").write_text(games())
    (tmp_path / "link.lgn").symlink_to(tmp_path / "games.lgn")
    [failed] = [item for item in checked_rows(read([str(tmp_path / "link.lgn")])) if isinstance(item, Failure)]
    assert (failed.place, failed.file) == (f"{tmp_path / 'link.lgn'}:{LINE}", os.path.realpath(tmp_path / "games.lgn"))
    [alone] = checked_rows(read([RECORD.format(n=0, plies=PLIES[FAILING])]))
    assert isinstance(alone, Failure) and (alone.place, alone.file) == (
        "<text>:1",
        None,
    )  # as every message names a record of no file


@pytest.mark.parametrize("point, after_a_bug", [("positions", False), ("next_plies", False), ("next_plies", True)])
def test_the_archive_failing_stops_the_import_and_leaves_the_archive_as_it_was(
    tmp_path, monkeypatch, point, after_a_bug
):
    """Also when it fails on a record stored one by one, after a bug in another record's rows."""
    db = str(tmp_path / "a.db")
    Archive(db).import_paths([RECORD.format(n=9, plies="e3-c3 d1-d3")])
    before = contents(db)
    if after_a_bug:
        fail_on(monkeypatch, "positions", ValueError(BUG))
    fail_on(monkeypatch, point, sqlite3.OperationalError("database or disk is full"), plies=6 if after_a_bug else 3)
    result = CliRunner().invoke(main, ["import", "--db", db, "-"], input=games())
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr == (
        f"lusoria: {db}: the import stopped: database or disk is full. The archive is intact: the batches "
        "stored before are whole and nothing of the failed one was kept\n"
    )
    assert contents(db) == before


WRITING = "another program is writing to the archive"
READING_OR_WRITING = (
    "another program is reading or writing the archive (an older lusoria's: no one writes to it while one reads)"
)


@pytest.mark.parametrize(
    "journal, holder, said",
    [
        ("wal", "BEGIN EXCLUSIVE", WRITING),
        ("delete", "BEGIN; SELECT count(*) FROM records", READING_OR_WRITING),
    ],
)
def test_an_import_into_an_archive_another_program_holds_says_who_may_hold_it_and_to_import_again_once_it_is_done(
    tmp_path, monkeypatch, journal, holder, said
):
    """SQLite's "database is locked" (the lock held past the wait, 5 s in use) stops the import, the archive
    as it was, and says what to do: it said the lock alone, as if the archive had failed; another failure does
    not say so (above). A lusoria archive is in WAL mode, where only a writer keeps an import out; an older
    lusoria's, of a rollback journal, a reader too: it was said to be held for writing while a query read it."""
    db = str(tmp_path / "a.db")
    Archive(db).import_paths([RECORD.format(n=9, plies="e3-c3 d1-d3")])
    with sqlite3.connect(db) as older:
        assert older.execute(f"PRAGMA journal_mode = {journal}").fetchone() == (journal,)
    older.close()
    before = contents(db)
    waiting_briefly(monkeypatch)
    other = sqlite3.connect(db, isolation_level=None)
    for statement in holder.split("; "):
        other.execute(statement).fetchall()
    result = CliRunner().invoke(main, ["import", "--db", db, "-"], input=games())
    other.rollback()
    other.close()
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (
        f"lusoria: {db}: the import stopped: database is locked. The archive is intact: the batches stored before "
        f"are whole and nothing of the failed one was kept; {said}: import again once it is done\n"
    )
    assert contents(db) == before
    page = " ".join((ROOT / "docs" / "archive.md").read_text(encoding="utf-8").split())
    assert f"{result.stderr.rstrip().rpartition('kept')[2]}" in page  # as docs/archive.md shows it


def test_an_archive_of_a_rollback_journal_another_program_writes_to_is_said_locked_not_unreadable(
    tmp_path, monkeypatch
):
    """An older lusoria's archive (a rollback journal) that another program writes to cannot even be read
    while it does: said so, with what to do, where it was said to be no database."""
    db = str(tmp_path / "a.db")
    Archive(db).import_paths([RECORD.format(n=9, plies="e3-c3 d1-d3")])
    waiting_briefly(monkeypatch)
    with sqlite3.connect(db) as older:
        older.execute("PRAGMA journal_mode = delete")
    older.close()
    writer = sqlite3.connect(db, isolation_level=None)
    writer.execute("BEGIN EXCLUSIVE")
    result = CliRunner().invoke(main, ["query", "--db", db])
    writer.rollback()
    writer.close()
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (
        f"lusoria: {db} cannot be read now: database is locked; another program is writing to it: try again once "
        "it is done\n"
    )


@pytest.mark.parametrize(
    "code, said", [(sqlite3.SQLITE_BUSY_RECOVERY, True), (sqlite3.SQLITE_LOCKED_SHAREDCACHE, False)]
)
def test_an_import_stopped_by_sqlite_s_busy_in_any_of_its_forms_says_to_import_again_once_it_is_done(
    tmp_path, monkeypatch, code, said
):
    """SQLite's extended codes of SQLITE_BUSY (another connection recovering the archive's WAL:
    SQLITE_BUSY_RECOVERY, 261) say what to do as SQLITE_BUSY does (they were said alone); SQLITE_LOCKED's
    (a table locked within one connection, 262) do not."""
    db = str(tmp_path / "a.db")
    Archive(db).import_paths([RECORD.format(n=9, plies="e3-c3 d1-d3")])
    error = sqlite3.OperationalError("database is locked")
    error.sqlite_errorcode = code
    fail_on(monkeypatch, "positions", error)
    result = CliRunner().invoke(main, ["import", "--db", db, "-"], input=games())
    told = result.stderr.endswith(f"; {WRITING}: import again once it is done\n")
    assert (result.exit_code, result.stdout, told) == (2, "", said)


@pytest.mark.parametrize(
    "error, failing",
    [
        (sqlite3.OperationalError("database or disk is full"), True),
        (sqlite3.OperationalError("database is locked"), True),
        (sqlite3.DatabaseError("database disk image is malformed"), True),
        (OSError(28, "No space left on device"), True),
        (MemoryError(), True),
        (KeyboardInterrupt(), True),
        (sqlite3.IntegrityError("NOT NULL constraint failed: records.hash"), False),
        (sqlite3.ProgrammingError("Error binding parameter 1: type 'dict' is not supported"), False),
        (OverflowError("Python int too large to convert to SQLite INTEGER"), False),
        (ValueError(BUG), False),
    ],
)
def test_what_stops_an_import_is_the_archive_or_the_system_failing_not_one_records_rows(error, failing):
    assert archive_failing(error) is failing


@pytest.mark.parametrize("point", ["positions", "next_plies"])
def test_a_duplicate_of_a_record_lusoria_failed_on_is_named_as_such(tmp_path, monkeypatch, point):
    """The same game again after one lusoria failed on as it was stored: its duplicate is skipped,
    named with no record of the archive (it holds none of that game). (Failed on as its rows are
    made, the duplicate fails too: it is no Rows to compare.)"""
    fail_on(monkeypatch, point, ValueError(BUG))
    failing = RECORD.format(n=FAILING, plies=PLIES[FAILING])
    again = 1 + (games() + "\n").count("\n")
    summary = Archive(str(tmp_path / "a.db")).import_paths([games() + "\n" + failing])
    assert [failure.place for failure in summary.failed] == [f"<text>:{LINE}"]
    assert [str(skipped) for skipped in summary.skipped] == [
        f"<text>:{again}: skipped, the same game as a record lusoria failed on"
    ]
