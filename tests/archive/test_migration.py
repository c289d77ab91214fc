"""A version 1 archive (as lusoria made it before schema version 3) opened by this lusoria:
upgraded in one step, nothing lost, and every new query answers as on a new archive."""

import json
import os
import shutil
import sqlite3
import stat
import subprocess
import sys
import unicodedata
from collections.abc import Iterator
from contextlib import closing, contextmanager
from itertools import count, groupby, repeat
from operator import itemgetter

import pytest
import sqlite_utils
from click.testing import CliRunner
from conftest import ROOT, archive_copy, connect, waiting_briefly
from test_kept_as_written import GAME

from lusoria.api import duplicates, format_record
from lusoria.archive import Archive, Filters, NotAnArchive, identity, players, schema, tables
from lusoria.archive.positions import keys_of
from lusoria.archive.texts import TEXT_OF
from lusoria.cli import main
from lusoria.validator import tablut
from lusoria.validator.replay import check

V1_ARCHIVE = ROOT / "tests" / "fixtures" / "archive-v1.db"  # made by lusoria 0df88da (schema version 1)


# the tables made by replaying the records, with the columns that identify their rows first
REPLAYED_COLUMNS = {
    "plies": "t.ply, t.position, t.move",
    "variation_plies": "t.line, t.ply, t.position, t.next, t.text",
    "record_boards": "t.boards, 0",
    "record_squares": "t.squares, 0",
    "material_runs": "t.first_ply, t.last_ply, t.white, t.black, t.king, t.white_inciti, "
    "t.black_inciti, t.white_off, t.black_off",
    "material_ranges": "t.white_min, t.white_max, t.black_min, t.black_max, t.king_min, t.king_max, "
    "t.inciti_min, t.inciti_max, t.white_off_min, t.black_off_max",
}


def version_1_archive(path: str) -> None:
    """A copy of a version 1 archive that an old lusoria made."""
    shutil.copy(V1_ARCHIVE, path)


def rows(path: str, sql: str) -> list[tuple]:
    with closing(connect(path)) as conn:
        return conn.execute(sql).fetchall()


@pytest.fixture(scope="module")
def new(tmp_path_factory):
    """A new archive of the same records as the version 1 archive."""
    folder = tmp_path_factory.mktemp("new")
    texts = [text for (text,) in rows(str(V1_ARCHIVE), "SELECT text FROM records ORDER BY id")]
    (folder / "records.lgn").write_text("\n".join(texts))
    archive = Archive(str(folder / "new.db"))
    archive.import_paths([str(folder / "records.lgn")])
    return without_files(archive)


def without_files(archive: Archive) -> Archive:
    """`archive` with no record's `file`: as an upgrade from a version before 15 leaves it (no
    record's real path is known then: archive/removal.py finds them by `path`)."""
    with closing(connect(archive.path)) as conn:
        conn.execute("UPDATE records SET file = NULL")
        conn.commit()
    return archive


def test_the_fixture_is_a_version_1_archive(new, tmp_path):
    path = str(tmp_path / "old.db")
    version_1_archive(path)
    assert rows(path, "PRAGMA user_version") == [(1,)]
    names = {name for (name,) in rows(path, "SELECT name FROM sqlite_master")}
    assert "positions" not in names and "player_aliases" not in names and "records_fts" in names


@pytest.mark.parametrize("mode", [0o640, 0o604])
def test_an_upgraded_archive_keeps_its_permissions(tmp_path, mode):
    path = tmp_path / "old.db"
    version_1_archive(str(path))
    path.chmod(mode)
    Archive(str(path)).query(Filters())  # opening it upgrades it
    assert rows(str(path), "PRAGMA user_version") == [(schema.SCHEMA_VERSION,)]
    assert stat.S_IMODE(path.stat().st_mode) == mode


def test_an_older_archive_s_rollback_journal_becomes_a_wal_at_its_upgrade_or_its_next_import(tmp_path):
    """h81b: upgraded, an older lusoria's archive kept its rollback journal, and a program that read it (Datasette,
    `lusoria serve`) kept the nightly import out ("database is locked"): it is put in WAL mode, as a new one is; while
    another program reads it, it is left so, and the next import puts it."""
    path = str(tmp_path / "old.db")
    version_1_archive(path)
    assert rows(path, "PRAGMA journal_mode") == [("delete",)]
    Archive(path).query(Filters())  # opening it upgrades it
    assert rows(path, "PRAGMA journal_mode") == [("wal",)]
    with closing(sqlite3.connect(path)) as conn:
        conn.execute("PRAGMA journal_mode = DELETE")  # (upgraded while another program read it)
    assert Archive(path).import_paths([str(ROOT / "samples/tablut/escape.lgn")]).found == 1
    assert rows(path, "PRAGMA journal_mode") == [("wal",)]
    said: list[str] = []  # (while another program reads it, left so at once: review81, the import waited twice)
    with closing(sqlite3.connect(path, timeout=7)) as conn:
        conn.set_trace_callback(said.append)
        schema.in_wal(conn)
        assert conn.execute("PRAGMA busy_timeout").fetchone() == (7000,)
    assert said[1:3] == ["PRAGMA busy_timeout = 0", "PRAGMA journal_mode = WAL"]


def test_a_version_1_archive_is_upgraded_with_nothing_lost(new, tmp_path):
    path = str(tmp_path / "old.db")
    version_1_archive(path)
    before = rows(path, "SELECT id, text FROM records ORDER BY id")  # version 1: the text in records
    assert rows(path, "PRAGMA auto_vacuum") == [(0,)]  # none: the pages an import frees were kept
    old = Archive(path)
    old.query(Filters())  # opening it upgrades it
    assert rows(path, "PRAGMA user_version") == [(schema.SCHEMA_VERSION,)]
    assert rows(path, "PRAGMA auto_vacuum") == [(2,)]  # incremental, as a new archive: they go back
    assert rows(path, "SELECT id, text FROM record_texts ORDER BY id") == before
    # the tables made by replaying the records: as a new archive makes them (which keeps one of
    # the records that are the same game, the version 1 archive all of them)
    texts = {text for (text,) in rows(new.path, "SELECT text FROM record_texts")}
    for table, columns in REPLAYED_COLUMNS.items():
        sql = f"SELECT r.text, {columns} FROM {table} t JOIN record_texts r ON r.id = t.record_id ORDER BY 1, 2, 3"
        assert [row for row in rows(path, sql) if row[0] in texts] == rows(new.path, sql), table
    assert rows(path, "SELECT count(*) FROM plies")[0][0] > 100
    replayed = "SELECT text, ending, rule_tags FROM records JOIN record_texts USING (id) ORDER BY 1"  # what replaying each record gives it
    assert [row for row in rows(path, replayed) if row[0] in texts] == rows(new.path, replayed)
    variations = (
        "SELECT DISTINCT r.hash, v.line, v.ply, v.position, v.next, v.text FROM variation_plies v "
        "JOIN records r ON r.id = v.record_id ORDER BY r.hash, v.line, v.ply"
    )
    assert rows(path, variations) == rows(new.path, variations) and len(rows(path, variations)) == 2
    matched = 0
    for filters in (
        Filters(pattern="*********/" * 4 + "****K****" + "/*********" * 4 + " b"),
        Filters(material=["inciti"], material_for=2),
        Filters(player="Karin Nilsson"),
    ):
        found = old.query(filters)
        games = [
            {(row["game"], row["white"], row["black"], row["date"], row["plies"]) for row in rows_}
            for rows_ in (found, new.query(filters))
        ]
        assert games[0] == games[1]
        matched += len(found)
    assert matched
    start = "3ppp3/4p4/4P4/p3P3p/ppPPKPPpp/p3P3p/4P4/4p4/3ppp3 w"
    assert old.tree(start, depth=2)
    assert old.merge_players(["K. Nilsson"], "Karin Nilsson") == "Karin Nilsson"
    assert sorted(os.listdir(tmp_path)) == ["old.db"]


def test_a_version_1_record_without_a_line_is_upgraded_as_the_same_record_with_one(tmp_path):
    """Version 1's `line` may be NULL: the record is read as one at line 1 (its identity, setting and
    label do not depend on its line)."""
    paths = [str(tmp_path / "no-line.db"), str(tmp_path / "lines.db")]
    for path in paths:
        version_1_archive(path)
    with closing(sqlite3.connect(paths[0])) as conn:
        conn.execute("UPDATE records SET line = NULL WHERE id IN (1, 5)")  # a valid record and a syntax error
        conn.commit()
    for path in paths:
        Archive(path).query(Filters())  # opening it upgrades it
    upgraded = "SELECT id, hash, setting, label, valid, first_rule FROM records ORDER BY id"
    assert rows(paths[0], upgraded) == rows(paths[1], upgraded)
    assert rows(paths[0], "SELECT line FROM records WHERE id IN (1, 5)") == [(None,), (None,)]


def test_a_version_1_archive_whose_upgrade_fails_is_left_as_it_was(new, tmp_path, monkeypatch):
    path = str(tmp_path / "old.db")
    version_1_archive(path)
    before = open(path, "rb").read()

    def broken(db, batch=1000):
        db.execute("DELETE FROM plies")
        raise sqlite3.OperationalError("disk I/O error")

    monkeypatch.setattr(schema, "rebuild_replayed", broken)
    with pytest.raises(
        NotAnArchive, match=f"version 1 archive and could not be upgraded to version {schema.SCHEMA_VERSION}"
    ):
        Archive(path).query(Filters())
    assert open(path, "rb").read() == before
    assert sorted(os.listdir(tmp_path)) == ["old.db"]


def test_importing_into_an_upgraded_archive_fills_its_tables_as_a_new_one(new, tmp_path):
    path = str(tmp_path / "old.db")
    version_1_archive(path)
    Archive(path).query(Filters())
    (tmp_path / "more.lgn").write_text('[Game "tablut"]\n\n1. c5-c3 i6-f6 *\n')
    Archive(path).import_paths([str(tmp_path / "more.lgn")])
    added = "(SELECT max(id) FROM records)"
    assert rows(path, f"SELECT ply, move FROM plies WHERE record_id = {added} ORDER BY ply") == [
        (0, "c5-c3"),
        (1, "i6-f6"),
        (2, None),
    ]
    for table in REPLAYED_COLUMNS:
        assert rows(path, f"SELECT count(*) FROM {table} WHERE record_id = {added}")[0][0] >= (
            table != "variation_plies"
        )


def test_an_upgrade_keeps_what_an_older_import_found_of_a_record_it_found_nothing_wrong_with(tmp_path):
    """A record an older lusoria stored with no diagnostic (valid, resigned) that replays now with one (T2 at its
    third ply) keeps the verdict and ending its import found, and the upgrade says it replays otherwise: not only a
    record its import found diagnostics of is checked against them (h81c: one of none was stored anew unsaid)."""
    (tmp_path / "old.lgn").write_text('[Game "tablut"]\n\n1. e3-f3 d1-d3\n2. f3-f1 *\n')
    path, notes = str(tmp_path / "a.db"), []
    assert Archive(path).import_paths([str(tmp_path / "old.lgn")]).added == 1
    with downgraded(path, schema.SCHEMA_VERSION - 1) as conn:  # (as an older lusoria judged it)
        conn.execute("DELETE FROM diagnostics")
        conn.execute("UPDATE records SET valid = 1, errors = 0, first_rule = NULL, first_ply = NULL")
        conn.execute("UPDATE records SET ending = 'resigned'")
    Archive(path, notes=notes.append).query(Filters())
    assert rows(path, "SELECT valid, ending FROM records") == [(1, "resigned")]
    assert [note.message for note in notes][-2:] == [
        f"{path} is upgraded to version {schema.SCHEMA_VERSION}",
        f"{tmp_path / 'old.lgn'}:1: the archive's record 1 keeps the verdict, diagnostics and ending its import found, "
        "but its stored text now replays otherwise (stored as lgn, it lost what its file wrote, as an aagenielsen.dk "
        f"capture left out of its list; or lusoria checks it otherwise now): import --replace {tmp_path / 'old.lgn'} "
        "stores it anew",
    ]


def test_an_upgrade_tells_anew_how_the_games_it_replays_as_imported_ended(tmp_path):
    """The ending an older lusoria stored (here `resigned`, which these records do not say) is told anew by an
    upgrade's replay of a record that replays as imported, with or without diagnostics; only one that replays
    otherwise keeps its own (h81c: kept by every record, unseen)."""
    unfinished = '[Game "tablut"]\n\n1. e3-f3 d1-d3 *\n'
    (tmp_path / "two.lgn").write_text(f'{unfinished}\n[Game "tablut"]\n\n1. e3-f3 d1-d3\n2. f3-f1 *\n')
    path, notes = str(tmp_path / "a.db"), []
    assert Archive(path).import_paths([str(tmp_path / "two.lgn")]).added == 2
    assert rows(path, "SELECT valid, ending FROM records ORDER BY id") == [(1, "unfinished"), (0, "unfinished")]
    with downgraded(path, schema.SCHEMA_VERSION - 1) as conn:
        conn.execute("UPDATE records SET ending = 'resigned'")
    Archive(path, notes=notes.append).query(Filters())
    assert rows(path, "SELECT valid, ending FROM records ORDER BY id") == [(1, "unfinished"), (0, "unfinished")]
    assert [note.message for note in notes][-1] == f"{path} is upgraded to version {schema.SCHEMA_VERSION}"


@contextmanager
def downgraded(path: str, version: int) -> Iterator[sqlite3.Connection]:
    """A connection to the archive at `path`, to make it what schema `version` made: on leaving,
    the archive says that version and the changes are committed."""
    with closing(connect(path)) as conn:
        yield conn
        conn.execute(f"PRAGMA user_version = {version}")
        conn.commit()


V8_RECORDS = """CREATE TABLE "records_v8" (
   "id" INTEGER PRIMARY KEY, "hash" TEXT NOT NULL, "game" TEXT, "variant" TEXT, "event" TEXT, "site" TEXT,
   "date" TEXT, "round" TEXT, "white" TEXT, "black" TEXT, "result" TEXT, "date_from" TEXT, "date_to" TEXT,
   "plies" INTEGER, "valid" INTEGER NOT NULL, "errors" INTEGER, "warnings" INTEGER, "first_rule" TEXT,
   "first_ply" INTEGER, "path" TEXT, "line" INTEGER, "sources" TEXT, "comments" TEXT, "text" TEXT NOT NULL,
   "setting" TEXT, "label" TEXT, "ending" TEXT, "rule_tags" TEXT)"""
V8_COLUMNS = (
    "id, hash, game, variant, event, site, date, round, white, black, result, date_from, date_to, plies, "
    "valid, errors, warnings, first_rule, first_ply, path, line, sources, comments, text, setting, label, "
    "ending, rule_tags"
)


def as_version_9(path: str) -> None:
    """Turn a new archive into the layout version 9 had: every tag a row of the table `tags`, no
    `other_tags` (its index of positions is made anew by any upgrade)."""
    with downgraded(path, 9) as conn:
        conn.execute(
            'CREATE TABLE "tags_v9" ("record_id" INTEGER REFERENCES "records"("id"), "name" TEXT NOT NULL, '
            '"value" TEXT NOT NULL, PRIMARY KEY ("name", "value", "record_id")) WITHOUT ROWID'
        )
        conn.execute("INSERT INTO tags_v9 SELECT record_id, name, value FROM tags")
        conn.execute("DROP VIEW tags")
        conn.execute("DROP TABLE other_tags")
        conn.execute("ALTER TABLE tags_v9 RENAME TO tags")


def test_a_version_9_archive_is_upgraded_with_nothing_lost(new, tmp_path):
    path = archive_copy(new.path, tmp_path)
    as_version_9(path)
    assert rows(path, "SELECT count(*) FROM tags WHERE name = 'White'")[0][0] > 0
    old = Archive(path)
    assert answers(old) == answers(new)  # opening it upgrades it
    assert rows(path, "PRAGMA user_version") == [(schema.SCHEMA_VERSION,)]
    for sql in (
        "SELECT type, name FROM sqlite_master ORDER BY name",
        "SELECT sql FROM sqlite_master WHERE type IN ('table', 'index', 'view') ORDER BY name",
    ):
        assert rows(path, sql) == rows(new.path, sql), sql
    for table in ("tags", "other_tags", "plies"):
        assert rows(path, f"SELECT * FROM {table} ORDER BY 1, 2, 3") == rows(
            new.path, f"SELECT * FROM {table} ORDER BY 1, 2, 3"
        )
    assert rows(path, "PRAGMA foreign_key_check") == [] and rows(path, "PRAGMA integrity_check") == [("ok",)]


@pytest.mark.parametrize(
    "older, emptied, table, least",
    [
        (10, "DROP TABLE next_plies", "next_plies", 11),  # version 11: the move tree's sums
        (11, "DELETE FROM record_squares", "record_squares", 11),  # version 12: every piece's bits below 64
        (12, "DELETE FROM variation_plies", "variation_plies", 2),  # version 13: as the driver keeps them
    ],
)
def test_an_older_archive_gets_the_table_its_upgrade_makes_anew(new, tmp_path, older, emptied, table, least):
    path = archive_copy(new.path, tmp_path)
    with downgraded(path, older) as conn:
        conn.execute(emptied)
    assert answers(Archive(path)) == answers(new)  # opening it upgrades it
    assert rows(path, "PRAGMA user_version") == [(schema.SCHEMA_VERSION,)]
    made = sorted(rows(path, f"SELECT * FROM {table}"), key=repr)
    assert made == sorted(rows(new.path, f"SELECT * FROM {table}"), key=repr) and len(made) >= least


def as_version_13(path: str) -> None:
    """Turn a new archive into the layout version 13 had: `positions` without its documents'
    sizes (`columnsize=0`), the same documents (read back from `position_plies`)."""
    with downgraded(path, 13) as conn:
        terms = conn.execute("SELECT doc, term FROM position_plies ORDER BY doc, offset").fetchall()
        documents = [(doc, " ".join(term for _, term in found)) for doc, found in groupby(terms, itemgetter(0))]
        (sql,) = conn.execute("SELECT sql FROM sqlite_master WHERE name = 'positions'").fetchone()
        conn.execute("DROP TABLE positions")
        conn.execute(sql.replace("content=''", "content='', columnsize=0"))
        conn.executemany("INSERT INTO positions (rowid, plies) VALUES (?, ?)", documents)


def test_a_version_14_archive_gets_the_files_of_the_records_it_replaces(tmp_path, monkeypatch):
    """Version 15 keeps each record's `file`, its real path; a version 14 archive has none, and
    `import --replace` finds its records by their `path` from the directory they were imported
    from, as it did; a record kept then gets its file, found from anywhere after."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "games").mkdir()
    shutil.copy(ROOT / "samples/tablut/escape.lgn", tmp_path / "games/a.lgn")
    Archive("club.db").import_paths(["games"])
    with downgraded("club.db", 14) as conn:
        conn.execute("ALTER TABLE records DROP COLUMN file")
    assert Archive("club.db").import_paths(["games"], replace=True).kept == 1  # opening it upgrades it
    assert rows("club.db", "PRAGMA user_version") == [(schema.SCHEMA_VERSION,)]
    assert rows("club.db", "SELECT path, file FROM records") == [("games/a.lgn", str(tmp_path / "games/a.lgn"))]
    monkeypatch.chdir(tmp_path / "games")
    assert Archive("../club.db").import_paths(["a.lgn"], replace=True).kept == 1


def test_a_version_15_archive_stores_the_roster_tags_written_unknown_as_left_out(new, tmp_path):
    """Version 16: `?` (a Date `????.??.??`) is NULL, as in a new archive, whatever format wrote it
    (the version 1 fixture has a record of Site `?`: found by `--site '?'` with those of none)."""
    path = archive_copy(new.path, tmp_path)
    roster = "SELECT id, event, site, date, round, white, black FROM records ORDER BY id"
    with downgraded(path, 15) as conn:
        conn.execute("UPDATE records SET event = '?' WHERE event IS NULL")
        conn.execute("UPDATE records SET date = '????.??.??' WHERE date IS NULL")
    assert rows(path, "SELECT count(*) FROM records WHERE event = '?'") != [(0,)]
    assert answers(Archive(path)) == answers(new)  # opening it upgrades it
    assert rows(path, roster) == rows(new.path, roster)
    assert len(Archive(path).query(Filters(site="?"))) == 19  # 18 of no Site tag, 1 writing `?`


def as_version_16(path: str) -> None:
    """Turn a new archive into what version 16 made: no `board`."""
    with downgraded(path, 16) as conn:
        conn.execute("DROP INDEX idx_records_board")
        conn.execute("ALTER TABLE records DROP COLUMN board")


def test_a_version_16_archive_gets_the_board_of_each_record(new, tmp_path):
    """Version 17: each record's `board`, what `--board` finds, filled in from its rules."""
    path = archive_copy(new.path, tmp_path)
    as_version_16(path)
    assert answers(Archive(path)) == answers(new)  # opening it upgrades it
    boards = "SELECT id, board FROM records ORDER BY id"
    assert rows(path, boards) == rows(new.path, boards)
    assert rows(path, "SELECT DISTINCT board FROM records WHERE game = 'tablut' AND rule_tags IS NULL AND valid") == [
        ("9x9",)
    ]
    assert [row[0] for row in rows(path, "SELECT name FROM sqlite_master WHERE name = 'idx_records_board'")] == [
        "idx_records_board"
    ]


def test_an_archive_another_program_holds_open_is_upgraded_in_the_file_it_reads(new, tmp_path):
    """The upgrade is written into the archive through SQLite: the WAL of a program holding it
    open (Datasette) stays the archive's; a new file in its place would be read with that WAL."""
    path = archive_copy(new.path, tmp_path)
    other = connect(path)
    with other:  # as version 16 made it, its changes in the WAL while it stays open
        other.execute("DROP INDEX idx_records_board")
        other.execute("ALTER TABLE records DROP COLUMN board")
        other.execute("PRAGMA user_version = 16")
    assert os.path.getsize(path + "-wal")
    archive = Archive(path)
    archive.query(Filters())  # opening it upgrades it
    assert os.path.getsize(path + "-wal") == 0  # written back into the file, as no one was reading
    archive.import_paths([str(ROOT / "samples/tablut")])
    boards = "SELECT id, board FROM records ORDER BY id"
    assert rows(path, "PRAGMA integrity_check") == [("ok",)]
    assert rows(path, "PRAGMA user_version") == [(schema.SCHEMA_VERSION,)]
    assert rows(path, boards) == rows(new.path, boards)
    assert other.execute(boards).fetchall() == rows(new.path, boards)
    assert [rows(path, f"PRAGMA {name}") for name in ("page_size", "auto_vacuum", "journal_mode")] == [
        [(16384,)],
        [(2,)],
        [("wal",)],
    ]
    with closing(connect(path)) as later:  # a write after the upgrade, which the other's close keeps
        later.execute("UPDATE records SET event = 'after the upgrade' WHERE id = 1")
        later.commit()
    other.close()
    assert rows(path, "SELECT event FROM records WHERE id = 1") == [("after the upgrade",)]
    assert rows(path, "PRAGMA integrity_check") == [("ok",)]


def writing_meanwhile(path: str, monkeypatch, times: int) -> None:
    """Another program sets the event of record 1 while each of the first `times` upgrades
    replays the records (on its copy): after the copy, before it is written into the archive."""
    replay = schema.rebuild_replayed
    writes = count(1)

    def replay_and_write(copy):
        misread = replay(copy)
        write = next(writes)
        if write <= times:
            with closing(connect(path)) as conn:
                conn.execute("UPDATE records SET event = ? WHERE id = 1", [f"write {write}"])
                conn.commit()
        return misread

    monkeypatch.setattr(schema, "rebuild_replayed", replay_and_write)


@pytest.mark.parametrize("older", ["version 16 (WAL)", "version 1 (rollback journal)"])
def test_an_archive_another_program_writes_while_it_is_upgraded_is_upgraded_again(new, tmp_path, monkeypatch, older):
    if older.startswith("version 1 "):
        path = str(tmp_path / "old.db")
        version_1_archive(path)
    else:
        path = archive_copy(new.path, tmp_path)
        as_version_16(path)
    version = rows(path, "PRAGMA user_version")[0][0]
    (records,) = rows(path, "SELECT count(*) FROM records")[0]
    writing_meanwhile(path, monkeypatch, times=1)
    notes = []
    Archive(path, notes=notes.append).query(Filters())  # opening it upgrades it
    begun = (
        f"{path} is a version {version} archive: upgrading it to version {schema.SCHEMA_VERSION} "
        f"(its {records} records replayed once each)…"
    )
    assert [note.message for note in notes] == [
        begun,
        f"{path} was changed by another program meanwhile: it is left as it was and read again",
        begun,
        f"{path} is upgraded to version {schema.SCHEMA_VERSION}",
    ]
    assert rows(path, "SELECT event FROM records WHERE id = 1") == [("write 1",)]  # kept, then upgraded
    assert rows(path, "PRAGMA user_version") == [(schema.SCHEMA_VERSION,)]
    assert rows(path, "PRAGMA integrity_check") == [("ok",)]


def test_a_rollback_journal_archive_stays_locked_to_other_programs_while_the_upgrade_is_written(tmp_path, monkeypatch):
    """The change check read the file's header by opening and closing the file, which dropped the
    write lock the backup had just taken (a process's POSIX locks on a file go with any of its
    descriptors): another program could write into the archive as the upgrade was written."""
    path = str(tmp_path / "old.db")
    version_1_archive(path)
    probe = f"import sqlite3\ntry:\n sqlite3.connect({path!r}, timeout=0).execute('BEGIN EXCLUSIVE')\nexcept sqlite3.Error as e:\n print(e)"
    found, commits = [], schema._commits

    def commits_and_probe(*arguments):
        value = commits(*arguments)
        found.append(subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True).stdout)
        return value

    monkeypatch.setattr(schema, "_commits", commits_and_probe)
    Archive(path).query(Filters())  # opening it upgrades it
    assert found == ["", "database is locked\n"]  # before the copy; in the backup, the write lock held
    assert rows(path, "PRAGMA user_version") == [(schema.SCHEMA_VERSION,)]


def test_an_archive_another_program_keeps_writing_while_it_is_upgraded_is_left_as_it_was(new, tmp_path, monkeypatch):
    path = archive_copy(new.path, tmp_path)
    as_version_16(path)
    writing_meanwhile(path, monkeypatch, times=schema.UPGRADE_ATTEMPTS)
    with pytest.raises(
        NotAnArchive,
        match=f"version 16 archive and could not be upgraded to version {schema.SCHEMA_VERSION}: "
        f"another program changed it {schema.UPGRADE_ATTEMPTS} times meanwhile$",
    ):
        Archive(path).query(Filters())
    assert rows(path, "SELECT event FROM records WHERE id = 1") == [(f"write {schema.UPGRADE_ATTEMPTS}",)]
    assert rows(path, "PRAGMA user_version") == [(16,)]


def test_an_archive_another_program_keeps_locked_for_writing_is_left_as_it_was(new, tmp_path, monkeypatch):
    path = archive_copy(new.path, tmp_path)
    as_version_16(path)
    writer = connect(path)
    replay = schema.rebuild_replayed

    def replay_and_lock(copy):
        misread = replay(copy)
        writer.execute("BEGIN IMMEDIATE")  # held while the upgrade is written
        return misread

    waiting_briefly(monkeypatch)
    monkeypatch.setattr(schema, "rebuild_replayed", replay_and_lock)
    with pytest.raises(
        NotAnArchive,
        match=f"version 16 archive and could not be upgraded to version {schema.SCHEMA_VERSION} "
        r"\(database is locked\); it was left as it was$",
    ):
        Archive(path).query(Filters())
    writer.rollback()
    writer.close()
    assert rows(path, "PRAGMA user_version") == [(16,)]
    assert rows(path, "PRAGMA integrity_check") == [("ok",)]


def test_a_version_13_archive_gets_an_index_of_positions_whose_rows_can_be_counted(new, tmp_path):
    # version 14: `positions` keeps its documents' sizes, without which count(*) cannot scan it
    # (Datasette counts every table); made anew from the records, as an import makes it
    path = archive_copy(new.path, tmp_path)
    as_version_13(path)
    with pytest.raises(sqlite3.OperationalError, match="positions: table does not support scanning"):
        rows(path, "SELECT count(*) FROM positions")
    assert answers(Archive(path)) == answers(new)  # opening it upgrades it
    assert rows(path, "PRAGMA user_version") == [(schema.SCHEMA_VERSION,)]
    lines = rows(new.path, "SELECT count(DISTINCT doc) FROM position_plies")
    assert (
        rows(path, "SELECT count(*) FROM positions") == lines == [(20,)]
    )  # the records with a main line (one lacking its result marker too)
    for sql in (
        "SELECT type, name, sql FROM sqlite_master ORDER BY name",
        "SELECT doc, offset, term FROM position_plies ORDER BY 1, 2",
        "SELECT * FROM moves ORDER BY code",
    ):
        assert rows(path, sql) == rows(new.path, sql), sql


@pytest.mark.parametrize(
    "command",
    [["stats"], ["query", "--limit", "1"], ["import", str(ROOT / "samples/tablut")], ["serve", "--port", "0"]],
)
def test_a_command_says_on_stderr_that_it_upgrades_an_older_archive_and_when_it_is_done(
    new, tmp_path, monkeypatch, command
):
    # the upgrade replays every record (12 s for 7,184, minutes for 100,000): said, it is no hang
    path = archive_copy(new.path, tmp_path)
    as_version_13(path)
    (records,) = rows(path, "SELECT count(*) FROM records")[0]
    monkeypatch.setattr("lusoria.archive.datasette.serve", lambda path, port, ready: ready("http://127.0.0.1:1/"))
    result = CliRunner().invoke(main, [*command, "--db", path])
    assert result.exit_code == 0, result.output
    begun = (
        f"lusoria: note: {path} is a version 13 archive: upgrading it to version {schema.SCHEMA_VERSION} "
        f"(its {records} records replayed once each)…\n"
    )
    done = f"lusoria: note: {path} is upgraded to version {schema.SCHEMA_VERSION}\n"
    assert result.stderr == begun + done
    assert result.output.startswith(begun + done) and result.stdout  # before the command's own output
    assert rows(path, "PRAGMA user_version") == [(schema.SCHEMA_VERSION,)]
    again = CliRunner().invoke(main, [*command, "--db", path])
    assert again.exit_code == 0 and again.stderr == ""


def as_version_8(path: str) -> None:
    """Turn a new archive into the layout version 8 had: each record's text and label stored as
    they are (no `packed_text`, no `text_dictionaries`)."""
    as_version_9(path)
    with downgraded(path, 8) as conn:
        kept = [
            sql
            for (sql,) in conn.execute(
                "SELECT sql FROM sqlite_master WHERE tbl_name = 'records' AND "
                "type IN ('index', 'trigger') AND sql IS NOT NULL AND name != 'idx_records_board'"
            )
        ]  # (`board`: version 17)
        conn.execute(V8_RECORDS)
        conn.execute("DROP VIEW record_texts")
        conn.execute(
            f"INSERT INTO records_v8 ({V8_COLUMNS}) SELECT {V8_COLUMNS.replace(' text,', ' ' + TEXT_OF + ',')} "
            "FROM records"
        )
        conn.execute("DROP TABLE records")
        conn.execute("ALTER TABLE records_v8 RENAME TO records")
        for sql in kept:
            conn.execute(sql)
        conn.execute("DROP TABLE text_dictionaries")


def answers(archive: Archive) -> list:
    """What an archive answers: records by filters of every kind, a move tree, the figures."""
    found = [
        archive.query(filters)
        for filters in (
            Filters(),
            Filters(text="escap*"),
            Filters(player="Karin Nilsson"),
            Filters(tags=[("Round", "*")]),
            Filters(pattern="*********/" * 4 + "****K****" + "/*********" * 4 + " b"),
            Filters(position=tablut.INITIAL),
            Filters(material=["inciti"], material_for=2),
            Filters(valid=False),
            Filters(board="9x9"),
        )
    ]
    return [found, archive.tree(tablut.INITIAL, depth=2), archive.stats(), archive.players()]


def test_a_version_8_archive_is_upgraded_with_nothing_lost(new, tmp_path):
    path = archive_copy(new.path, tmp_path)
    as_version_8(path)
    assert rows(path, "PRAGMA user_version") == [(8,)] and "packed_text" not in str(
        rows(path, "PRAGMA table_info(records)")
    )
    old = Archive(path)
    assert answers(old) == answers(new)  # opening it upgrades it
    assert rows(path, "PRAGMA user_version") == [(schema.SCHEMA_VERSION,)]
    for sql in (
        "SELECT type, name FROM sqlite_master ORDER BY name",
        "PRAGMA table_xinfo(records)",
        "SELECT sql FROM sqlite_master WHERE type IN ('index', 'trigger', 'view') ORDER BY name",
    ):
        assert rows(path, sql) == rows(new.path, sql), sql
    for table in ("records", "tags", "diagnostics", "text_dictionaries"):
        assert rows(path, f"SELECT * FROM {table} ORDER BY 1, 2") == rows(
            new.path, f"SELECT * FROM {table} ORDER BY 1, 2"
        )
    assert rows(path, "PRAGMA foreign_key_check") == [] and rows(path, "PRAGMA integrity_check") == [("ok",)]
    assert rows(path, "PRAGMA auto_vacuum") == rows(new.path, "PRAGMA auto_vacuum") == [(2,)]  # incremental


def test_a_version_8_archive_of_many_records_is_upgraded_with_its_dictionary(tmp_path, monkeypatch):
    # the upgrade trains the dictionary on the first records' texts, as an import of them does
    from lusoria.api import random_records
    from lusoria.archive import texts

    monkeypatch.setattr(texts, "TRAIN_AT", 40)
    monkeypatch.setattr(texts, "DICTIONARY_SIZE", 4096)
    (tmp_path / "many.lgn").write_text(
        "\n".join(
            [*random_records("tablut", 30, seed=5, max_plies=40), *random_records("laquet", 30, seed=5, max_plies=40)]
        )
    )
    new = Archive(str(tmp_path / "new.db"))
    new.import_paths([str(tmp_path / "many.lgn")])
    path = archive_copy(without_files(new).path, tmp_path)
    as_version_8(path)
    assert answers(Archive(path)) == answers(new)  # opening it upgrades it
    assert rows(path, "SELECT count(*) FROM text_dictionaries") == [(1,)]
    for table in ("records", "text_dictionaries"):
        assert rows(path, f"SELECT * FROM {table} ORDER BY 1") == rows(new.path, f"SELECT * FROM {table} ORDER BY 1")


def as_version_7(path: str) -> None:
    """Turn a new archive into the layout version 7 had: `plies`, a table of a row per position
    reached (its key, the ply written from it and the next key), no `positions`, `moves`,
    `ending` nor `rule_tags`, an index of names and one of names and results a side, and words
    found as they are."""
    as_version_8(path)
    with downgraded(path, 7) as conn:
        texts = conn.execute("SELECT id, text FROM records").fetchall()
        for name, kind in (("plies", "VIEW"), ("position_plies", "TABLE"), ("positions", "TABLE"), ("moves", "TABLE")):
            conn.execute(f"DROP {kind} {name}")
        conn.execute(
            "CREATE TABLE plies (record_id INTEGER REFERENCES records(id), ply INTEGER NOT NULL, "
            "position INTEGER NOT NULL, next_text TEXT, next INTEGER, PRIMARY KEY (position, record_id, ply)) "
            "WITHOUT ROWID"
        )
        for record, text in texts:
            report = check(text)
            if report.rules is not None and report.positions:
                keys = keys_of(report.rules, report.positions)
                written = [ply.text for ply in report.record.main.plies][: len(keys) - 1] + [None]
                conn.executemany(
                    "INSERT INTO plies VALUES (?, ?, ?, ?, ?)",
                    zip(repeat(record), count(), keys, written, keys[1:] + [None]),
                )
        for index in ("ending", "plies", "white_nocase", "black_nocase"):
            conn.execute(f"DROP INDEX idx_records_{index}")
        for column in ("ending", "rule_tags"):
            conn.execute(f"ALTER TABLE records DROP COLUMN {column}")
        for side in ("white", "black"):
            conn.execute(f"CREATE INDEX idx_records_{side}_nocase ON records ({side} COLLATE NOCASE)")
            conn.execute(f"CREATE INDEX idx_records_{side}_result ON records ({side}, result)")
    db = sqlite_utils.Database(path)
    db.table("records").disable_fts()
    db.table("records").enable_fts(tables.FTS_COLUMNS, create_triggers=True)
    db.close()


def test_a_version_7_archive_is_upgraded_with_nothing_lost(new, tmp_path):
    path = archive_copy(new.path, tmp_path)
    as_version_7(path)
    assert rows(path, "SELECT count(*) FROM plies")[0][0] > 100
    assert Archive(path).query(Filters(text="spring")) == []  # opening it upgrades it
    assert rows(path, "PRAGMA user_version") == [(schema.SCHEMA_VERSION,)]
    for sql in (
        "SELECT type, name FROM sqlite_master ORDER BY name",
        "PRAGMA table_info(records)",
        "SELECT sql FROM sqlite_master WHERE type IN ('index', 'trigger', 'view') ORDER BY name",
    ):
        assert rows(path, sql) == rows(new.path, sql), sql
    assert rows(path, "SELECT * FROM records ORDER BY id") == rows(new.path, "SELECT * FROM records ORDER BY id")
    for table, columns in REPLAYED_COLUMNS.items():
        sql = f"SELECT r.text, {columns} FROM {table} t JOIN record_texts r ON r.id = t.record_id ORDER BY 1, 2, 3"
        assert rows(path, sql) == rows(new.path, sql), table
    assert Archive(path).query(Filters(text="escap*")) == new.query(Filters(text="escapes")) != []


def as_version_4(path: str) -> None:
    """Turn a new archive into the layout version 4 had: `plies` with the text of the ply that
    led to each position and a second index by record, a `positions` table, `window_squares`,
    `record_squares` by record id, and no `record_boards`."""
    as_version_7(path)
    with downgraded(path, 4) as conn:
        conn.execute("ALTER TABLE plies RENAME TO new_plies")
        conn.execute(
            "CREATE TABLE plies (record_id INTEGER REFERENCES records(id), ply INTEGER NOT NULL, "
            "position INTEGER NOT NULL, text TEXT, next INTEGER, PRIMARY KEY (position, record_id, ply)) "
            "WITHOUT ROWID"
        )
        conn.execute("CREATE INDEX idx_plies_record_id_ply ON plies (record_id, ply)")
        conn.execute(
            "INSERT INTO plies SELECT p.record_id, p.ply, p.position, q.next_text, p.next FROM new_plies p "
            "LEFT JOIN new_plies q ON q.record_id = p.record_id AND q.ply = p.ply - 1"
        )
        conn.execute("CREATE TABLE positions (key INTEGER PRIMARY KEY, game TEXT, position TEXT, board TEXT)")
        conn.execute("INSERT INTO positions (key) SELECT DISTINCT position FROM new_plies")
        conn.execute(
            "CREATE TABLE window_squares (record_id INTEGER, first_ply INTEGER NOT NULL, squares TEXT NOT NULL, "
            "PRIMARY KEY (record_id, first_ply)) WITHOUT ROWID"
        )
        conn.execute("INSERT INTO window_squares SELECT record_id, 0, squares FROM record_squares")
        conn.execute("CREATE TABLE old_squares (record_id INTEGER PRIMARY KEY, squares TEXT)")
        conn.execute("INSERT INTO old_squares SELECT record_id, squares FROM record_squares")
        for table in ("new_plies", "record_boards", "record_squares"):
            conn.execute(f"DROP TABLE {table}")
        conn.execute("ALTER TABLE old_squares RENAME TO record_squares")


def test_a_version_4_archive_is_upgraded_with_nothing_lost(new, tmp_path):
    path = archive_copy(new.path, tmp_path)
    Archive(path).merge_players(["K. Nilsson"], "Karin Nilsson")
    before = rows(path, "SELECT * FROM records ORDER BY id")
    as_version_4(path)
    assert len(Archive(path).query(Filters(player="Karin Nilsson"))) == 4  # opening it upgrades it
    assert rows(path, "PRAGMA user_version") == [(schema.SCHEMA_VERSION,)]
    assert rows(path, "SELECT * FROM records ORDER BY id") == before
    assert rows(path, "SELECT alias, name FROM player_aliases") == [("K. Nilsson", "Karin Nilsson")]
    names = {name for (name,) in rows(path, "SELECT name FROM sqlite_master")}
    assert not names & {"window_squares", "idx_plies_record_id_ply"}
    assert rows(path, "SELECT sql LIKE 'CREATE VIRTUAL TABLE%' FROM sqlite_master WHERE name = 'positions'") == [(1,)]
    for table, columns in REPLAYED_COLUMNS.items():
        sql = f"SELECT r.text, {columns} FROM {table} t JOIN record_texts r ON r.id = t.record_id ORDER BY 1, 2, 3"
        assert rows(path, sql) == rows(new.path, sql), table
    assert rows(path, "SELECT game, record_id FROM record_squares ORDER BY 2") == rows(
        new.path, "SELECT game, record_id FROM record_squares ORDER BY 2"
    )


def test_a_version_5_archive_gets_the_keys_of_version_6(new, tmp_path):
    # version 5 made a position's key from its escaped text: opening the archive makes them anew
    path = archive_copy(new.path, tmp_path)
    as_version_7(path)
    with downgraded(path, 5) as conn:
        for table in ("plies", "variation_plies"):
            conn.execute(f"UPDATE {table} SET position = -1 - position, next = -1 - next")
    assert Archive(path).query(Filters(position=tablut.INITIAL))  # opening it upgrades it: the start is found
    assert rows(path, "PRAGMA user_version") == [(schema.SCHEMA_VERSION,)]
    for table in ("plies", "variation_plies"):
        sql = f"SELECT r.text, {REPLAYED_COLUMNS[table]} FROM {table} t JOIN record_texts r ON r.id = t.record_id ORDER BY 1, 2, 3"
        assert rows(path, sql) == rows(new.path, sql), table


def test_a_version_6_archive_gets_the_boards_of_version_7(new, tmp_path):
    # version 6 compressed a record's boards with zlib: opening the archive compresses them anew
    # (Zstandard), and pattern search, which reads them, finds what it found on a new archive
    import zlib

    from lusoria.archive.positions import unpacked_boards

    path = archive_copy(new.path, tmp_path)
    as_version_7(path)
    with downgraded(path, 6) as conn:
        conn.create_function("as_zlib", 1, lambda boards: zlib.compress(unpacked_boards(boards).encode()))
        conn.execute("UPDATE record_boards SET boards = as_zlib(boards)")
    assert all(boards.startswith(b"\x78") for (boards,) in rows(path, "SELECT boards FROM record_boards"))
    pattern = Filters(pattern="*********/" * 4 + "****K****" + "/*********" * 4 + " b")
    assert [row["id"] for row in Archive(path).query(pattern)] == [row["id"] for row in new.query(pattern)] != []
    assert rows(path, "PRAGMA user_version") == [(schema.SCHEMA_VERSION,)]
    sql = "SELECT record_id, boards FROM record_boards ORDER BY record_id"
    assert rows(path, sql) == rows(new.path, sql)
    assert all(boards.startswith(b"\x28\xb5\x2f\xfd") for (boards,) in rows(path, "SELECT boards FROM record_boards"))


def site_games(folder) -> list[str]:
    """Two aagenielsen.dk games of the same players and result, numbered 1417 and 20055 by the site:
    the second has no move (the real scrape's record 755, taken for a prefix of 751 by version 18)."""
    game = {
        "WhiteSidePlayerName": "Hagbard",
        "BlackSidePlayerName": "chuck ward",
        "AageGameTypeKey": 13,
        "AageGameTypeName": "Old Copenhagen Hnefatafl 11x11",
        "WhoMovedFirst": "black",
        "BlackPiecesCaptured": 0,
        "WhitePiecesCaptured": 0,
        "WhoWon": "White",
    }
    paths = []
    for name, moves in (("game-13-40-1417.json", ["k4i4", "g5j5"]), ("game-13-6-20055.json", [])):
        (folder / name).write_text(json.dumps({**game, "Moves": moves}))
        paths.append(str(folder / name))
    return paths


def test_a_version_18_archive_keys_a_sites_games_by_their_numbers(tmp_path):
    """Version 19: records of two games the site numbers differently are neither the same game nor a
    prefix of one another; an archive of version 18, which keyed them alike, has them keyed anew (as an
    import keys them now: importing them again adds nothing)."""
    path = str(tmp_path / "site.db")
    paths = site_games(tmp_path)
    assert Archive(path).import_paths(paths).added == 2
    assert list(duplicates(paths)) == []  # (files: as the archive)
    keys = "SELECT id, hash, setting FROM records ORDER BY id"
    new_keys = rows(path, keys)
    with downgraded(path, 18) as conn:  # the keys of version 18: without the site's numbers
        for record in paths:
            unsited = identity._identity(format_record(record)[1])
            conn.execute(
                "UPDATE records SET hash = ?, setting = ? WHERE path = ?", [unsited.key, unsited.setting, record]
            )
    old = rows(path, keys)
    assert [key for _, key, _ in old] != [key for _, key, _ in new_keys] and old[0][2] == old[1][2]
    assert [str(duplicate) for duplicate in Archive(path).duplicates()] == []  # (opening it upgrades it)
    assert rows(path, keys) == new_keys and new_keys[0][2] != new_keys[1][2]
    assert rows(path, "PRAGMA user_version") == [(schema.SCHEMA_VERSION,)]
    summary = Archive(path).import_paths(paths)
    assert (summary.added, summary.duplicates) == (0, 2)


def test_a_version_1_record_of_a_sites_game_is_keyed_by_its_number_once(tmp_path):
    """Upgrading from version 1 identifies every record anew (version 2), then keys a site's game by its
    number (version 19): the identity of a record of SiteGameId is that of its import now, keyed once."""
    path = str(tmp_path / "old.db")
    version_1_archive(path)
    with closing(connect(path)) as conn:  # (a version 1 archive kept each tag in `tags`)
        conn.execute("UPDATE records SET text = '[SiteGameId \"77\"]' || char(10) || text WHERE id = 1")
        conn.execute("INSERT INTO tags (record_id, name, value) VALUES (1, 'SiteGameId', '77')")
        conn.commit()
    [(text,)] = rows(path, "SELECT text FROM records WHERE id = 1")
    Archive(path).query(Filters(limit=1))  # (opening it upgrades it)
    new = Archive(str(tmp_path / "new.db"))
    assert new.import_paths([text]).added == 1
    keys = "SELECT hash, setting FROM records WHERE id = 1"
    assert rows(path, keys) == rows(new.path, keys) and rows(path, "SELECT plies FROM records WHERE id = 1") != [(0,)]


def test_a_version_19_record_lacking_its_result_marker_is_replayed_by_the_upgrade(tmp_path):
    """Version 20: a record that lacks only its result marker is stored replayed; one an older lusoria
    stored as a record that does not parse (no variant, no plies, its comments unsearchable) gets them."""
    (tmp_path / "torn.lgn").write_text('[Game "tablut"]\n\n1. e3-f3 { the folio is torn } d1-d3\n')
    path = str(tmp_path / "old.db")
    archive = Archive(path)
    archive.import_paths([str(tmp_path / "torn.lgn")])
    stored = "SELECT variant, plies, comments FROM records"
    assert rows(path, stored) == [("seed", 2, "the folio is torn")]
    with closing(connect(path)) as conn:  # as version 19 stored it
        conn.execute("UPDATE records SET variant = NULL, plies = 0, comments = NULL")
        conn.execute("PRAGMA user_version = 19")
        conn.commit()
    [found] = Archive(path).query(Filters(text="folio"))  # (opening it upgrades it)
    assert rows(path, stored) == [("seed", 2, "the folio is torn")] and found["first_rule"] == "syntax"
    assert rows(path, "PRAGMA user_version") == [(schema.SCHEMA_VERSION,)]


def test_a_version_20_archive_gets_the_encoding_of_each_record_unknown_and_the_last_id_given(tmp_path):
    """Version 21: each record keeps the encoding of the import that stored it (`encoding`); an upgraded archive's
    records say none (NULL, read as UTF-8) until an `import --replace` with another keeps them, and a file imported
    after the upgrade with another is read with it again.
    The last id given (`record_ids`) is the highest held."""
    (tmp_path / "skane.lgn").write_bytes('[Game "tablut"]\n[White "Åke"]\n\n1. e3-f3 *\n'.encode("cp1252"))
    path, cp1252 = str(tmp_path / "old.db"), str(tmp_path / "skane.lgn")
    Archive(path).import_paths([cp1252], "cp1252")
    with downgraded(path, 20) as conn:
        conn.execute("ALTER TABLE records DROP COLUMN encoding")
        conn.execute("DROP TABLE record_ids")
    assert Archive(path).import_paths([cp1252], "cp1252").duplicates == 1  # (opening it upgrades it)
    assert rows(path, "SELECT white, encoding FROM records") == [("Åke", None)]
    assert rows(path, "PRAGMA user_version") == [(schema.SCHEMA_VERSION,)]
    assert rows(path, "SELECT last FROM record_ids") == [(1,)]  # (from the highest id held)
    Archive(path).import_paths([cp1252], "cp1252", replace=True)  # (kept: it takes the encoding read with)
    assert rows(path, "SELECT id, white, encoding FROM records") == [(1, "Åke", "cp1252")]
    (tmp_path / "skane.lgn").write_bytes('[Game "tablut"]\n[White "Åke"]\n\n1. e3-f3 d1-d2 *\n'.encode("cp1252"))
    Archive(path).import_paths([cp1252], "cp1252", replace=True)
    assert rows(path, "SELECT id, white, encoding FROM records") == [(2, "Åke", "cp1252")]
    (tmp_path / "skane.lgn").write_bytes('[Game "tablut"]\n[White "Åke"]\n\n1. e3-f3 d1-d2 c5-c3 *\n'.encode("cp1252"))
    summary = Archive(path).import_paths([cp1252], replace=True)
    assert rows(path, "SELECT white, encoding FROM records") == [("Åke", "cp1252")] and summary.replaced == 1
    assert [str(problem) for problem in summary.problems] == [
        f"note: 1 file read as cp1252, as imported before, since it does not decode as UTF-8 ({cp1252}; encoding "
        "reads it otherwise)"
    ]


@pytest.mark.parametrize("version", [21, schema.SCHEMA_VERSION])
def test_an_archive_numbered_21_or_later_without_the_last_id_given_is_upgraded_as_a_version_20_one(tmp_path, version):
    """The lusoria of one commit (8c75bfa8) numbered its archives 21 before version 21 held `record_ids`: upgraded
    to a later version, such an archive could store no record again (`no such table: record_ids`), and `query --id`
    of an id it lacks was an internal error (h69b). Opening one upgrades it as the version 20 archive it is."""
    path, lgn = str(tmp_path / "old.db"), tmp_path / "game.lgn"
    lgn.write_text('[Game "tablut"]\n\n1. e3-f3 *\n')
    Archive(path).import_paths([str(lgn)])
    with downgraded(path, version) as conn:
        conn.execute("DROP TABLE record_ids")
    upgraded = CliRunner().invoke(main, ["query", "--db", path, "--id", "9"])
    assert f"{path} is a version 20 archive: upgrading it to version {schema.SCHEMA_VERSION}" in upgraded.stderr
    assert upgraded.stderr.count("upgrading it") == 1  # (once, as the version 20 archive it is)
    assert upgraded.exit_code == 0 and upgraded.stderr.endswith(
        "no record of the archive has the id 9 (its ids run from 1 to 1)\n"
    )
    assert rows(path, "SELECT last FROM record_ids") == [(1,)]
    lgn.write_text('[Game "tablut"]\n\n1. e3-f3 d1-d2 *\n')
    assert Archive(path).import_paths([str(lgn)]).added == 1
    assert rows(path, "SELECT id FROM records") == [(1,), (2,)]


def test_a_version_21_archive_gets_its_names_composed_and_a_record_written_with_combining_marks_keyed_as_typed(
    tmp_path, monkeypatch
):
    """Version 22: the roster columns and the players' aliases an older lusoria stored with combining marks (NFD,
    as some Mac files write names) are composed (NFC), as an import stores them now; an alias made the name it is
    of is removed; a record whose text writes its names so (in lgn, or escaped in JSON) is keyed as the record
    typed: importing that one adds nothing. A record typed keeps its keys. The warning an older validate gave
    of such a name is removed: its record is not said to replay otherwise than its import."""
    marked = unicodedata.normalize("NFD", "Åsa Ström")
    (tmp_path / "marked.lgn").write_text(f'[Game "tablut"]\n[Black "{marked}"]\n\n1. e3-f3 *\n', encoding="utf-8")
    (tmp_path / "typed.lgn").write_text('[Game "tablut"]\n[White "Åke"]\n\n1. e3-f3 *\n', encoding="utf-8")
    kept = json.dumps({**GAME, "WhiteSidePlayerName": marked})  # (kept as written: a capture its list leaves out)
    assert "\\u030a" in kept
    (tmp_path / "game-13-1-100.json").write_text(kept)
    paths = [str(tmp_path / "marked.lgn"), str(tmp_path / "typed.lgn"), str(tmp_path / "game-13-1-100.json")]
    path = str(tmp_path / "old.db")
    Archive(path).import_paths(paths)
    keys = "SELECT id, hash, setting FROM records ORDER BY id"
    new_keys = rows(path, keys)
    with monkeypatch.context() as patched:  # the keys of version 21: the names as written
        patched.setattr(identity.unicodedata, "normalize", lambda form, text: text)
        old_keys = [
            (n, found.key, found.setting)
            for n, found in enumerate((identity.identity(format_record(record)[1]) for record in paths), 1)
        ]
    assert [key for _, key, _ in old_keys] != [key for _, key, _ in new_keys] and old_keys[1] == new_keys[1]
    with downgraded(path, 21) as conn:
        conn.executemany("UPDATE records SET hash = ?, setting = ? WHERE id = ?", [(k, s, n) for n, k, s in old_keys])
        conn.execute("UPDATE records SET black = ?, warnings = 1 WHERE id = 1", [marked])
        conn.execute("UPDATE records SET warnings = 1 WHERE id = 2")
        conn.executemany(  # (as an older validate warned of them: a name with an Angstrom sign, `\u212bke`, too)
            "INSERT INTO diagnostics VALUES (?, 1, 'warning', 'tag', ?, NULL, ?, 2, 9)",
            [
                (
                    1,
                    f"Black '{marked}' writes its accents as combining marks (Unicode NFD): the archive counts it "
                    "apart from 'Åsa Ström'",
                    marked,
                ),
                (
                    2,
                    "White '\u212bke' has characters that Unicode's normal form (NFC) writes otherwise: the archive "
                    "counts it apart from 'Åke'",
                    "\u212bke",
                ),
            ],
        )
        conn.execute("UPDATE records SET white = ? WHERE id = 3", [marked])
        assert conn.execute("SELECT written_in FROM records WHERE id = 3").fetchall() == [("aage",)]
        conn.executemany(
            "INSERT INTO player_aliases (alias, name) VALUES (?, ?)",
            [
                (marked, "A. Ström"),  # composed
                (unicodedata.normalize("NFD", "Åke"), "Åke"),  # made the name it is of: removed
                (unicodedata.normalize("NFD", "Kåre"), "K"),  # another of the alias composed: removed
                ("Kåre", "Kåre N."),
            ],
        )
    assert rows(path, "SELECT white, black FROM records WHERE id IN (1, 3)") == [(None, marked), (marked, "Nils Falk")]
    found = CliRunner().invoke(main, ["query", "--db", path, "--player", "Åsa Ström", "--format", "json"])
    assert [record["id"] for record in json.loads(found.stdout)] == [1, 3]  # (opening it upgrades it)
    assert found.stderr == (
        f"lusoria: note: {path} is a version 21 archive: upgrading it to version {schema.SCHEMA_VERSION} (its 3 "
        f"records replayed once each)…\nlusoria: note: {path} is upgraded to version {schema.SCHEMA_VERSION}\n"
    )  # (not said to replay otherwise than its import: its warning is gone with the name composed)
    assert rows(path, "SELECT warnings FROM records WHERE id = 1") == [(0,)]
    assert rows(path, "SELECT count(*) FROM diagnostics WHERE record_id = 1") == [(0,)]
    assert rows(path, "PRAGMA user_version") == [(schema.SCHEMA_VERSION,)]
    assert rows(path, keys) == new_keys
    assert rows(path, "SELECT white, black FROM records WHERE id IN (1, 3)") == [
        (None, "Åsa Ström"),
        ("Åsa Ström", "Nils Falk"),
    ]
    assert rows(path, "SELECT alias, name FROM player_aliases ORDER BY alias") == [
        ("Kåre", "Kåre N."),
        ("Åsa Ström", "A. Ström"),
    ]
    composed = [str(tmp_path / "composed.lgn"), str(tmp_path / "game-13-2-100.json")]
    (tmp_path / "composed.lgn").write_text(
        unicodedata.normalize("NFC", (tmp_path / "marked.lgn").read_text(encoding="utf-8")), encoding="utf-8"
    )
    (tmp_path / "game-13-2-100.json").write_text(json.dumps({**GAME, "WhiteSidePlayerName": "Åsa Ström"}))
    summary = Archive(path).import_paths(composed)
    assert (summary.added, summary.duplicates) == (0, 2)


def test_a_version_22_archive_gets_the_names_indexes_that_hold_the_other_sides_name(tmp_path):
    """Version 23: the score table leaves out a game of a player against themselves (review 68: read from each
    record's row, `players list` took twice as long); each side's index of names holds the other side's name,
    so that it reads the index alone, as before."""
    path = str(tmp_path / "old.db")
    Archive(path).import_paths([str(ROOT / "samples")])
    indexes = "SELECT sql FROM sqlite_master WHERE name IN ('idx_records_white_nocase', 'idx_records_black_nocase')"
    new_indexes = rows(path, indexes)
    scores = Archive(path).players()
    with downgraded(path, 22) as conn:
        for side in ("white", "black"):
            conn.execute(f"DROP INDEX idx_records_{side}_nocase")
            conn.execute(f"CREATE INDEX idx_records_{side}_nocase ON records ({side} COLLATE NOCASE, result)")
    assert rows(path, indexes) != new_indexes
    assert Archive(path).players() == scores and rows(path, "PRAGMA user_version") == [(schema.SCHEMA_VERSION,)]
    assert (
        sorted(rows(path, indexes))
        == sorted(new_indexes)
        == [
            ("CREATE INDEX idx_records_black_nocase ON records (black COLLATE NOCASE, result, white)",),
            ("CREATE INDEX idx_records_white_nocase ON records (white COLLATE NOCASE, result, black)",),
        ]
    )
    plan = " ".join(row[3] for row in rows(path, "EXPLAIN QUERY PLAN " + players.score_table()[0]))
    assert "SCAN records USING COVERING INDEX idx_records_white_nocase" in plan
    assert "SCAN records USING COVERING INDEX idx_records_black_nocase" in plan


def test_a_version_23_archive_gets_the_plies_view_whose_record_and_ply_a_filter_finds(tmp_path):
    """Version 24: the `plies` view's record and ply are cast as whole numbers, which Datasette's filter, a value
    typed in as text, finds (h78b: `plies?record_id=5` said 0 rows)."""
    path = str(tmp_path / "old.db")
    Archive(path).import_paths([str(ROOT / "samples/tablut/escape.lgn")])
    typed = "SELECT count(*) FROM plies WHERE record_id = '1' AND ply = '2'"
    with downgraded(path, 23) as conn:
        conn.execute("DROP VIEW plies")
        conn.execute(
            "CREATE VIEW plies AS SELECT p.doc AS record_id, p.offset AS ply, NULL AS position, NULL AS move "
            "FROM position_plies p"
        )
    assert rows(path, typed) == [(0,)]  # (as version 23 answered: a sqlite3 connection upgrades nothing)
    Archive(path).sql("SELECT 1")  # (opening it upgrades it)
    assert rows(path, typed) == [(1,)] and rows(path, "PRAGMA user_version") == [(schema.SCHEMA_VERSION,)]


WHO_WON = (  # an aagenielsen.dk game whose WhoWon names no side (a syntax error), which its record does not keep
    '{"AageGameTypeName": "Historical Hnefatafl 7x7 (Irish Brandubh 1)", "WhoMovedFirst": "black", '
    '"Moves": ["d1-c1", "e4-e1"], "WhoWon": "%s"}'
)


def test_a_record_read_with_a_syntax_error_and_its_mending_are_two_records(tmp_path):
    """The mending of an aagenielsen.dk game whose only error was its WhoWon was skipped, the same game as
    the invalid record (h79a): a record read with a syntax error is keyed by that error too (`identity`), so the
    mending is another game, and the same text imported again is the same. Version 25 keys so the records an
    older version stored (by their tags and plies: the mending's key), and no other."""
    (tmp_path / "g.json").write_text(WHO_WON % "Purple")
    (tmp_path / "g-fixed.json").write_text(WHO_WON % "Ongoing")
    path = str(tmp_path / "club.db")
    archive = Archive(path)
    assert archive.import_paths([str(tmp_path / "g.json")]).added == 1
    assert archive.import_paths([str(tmp_path / "g-fixed.json")]).added == 1
    assert archive.import_paths([str(tmp_path / "g.json"), str(tmp_path / "g-fixed.json")]).added == 0
    assert rows(path, "SELECT id, valid, first_rule FROM records ORDER BY id") == [(1, 0, "syntax"), (2, 1, None)]
    keys = rows(path, "SELECT id, hash, setting FROM records ORDER BY id")
    mended = keys[1][1:]
    with downgraded(path, 24) as conn:
        conn.execute("UPDATE records SET hash = ?, setting = ? WHERE id = 1", mended)
    Archive(path).query(Filters())  # opening it upgrades it
    assert rows(path, "SELECT id, hash, setting FROM records ORDER BY id") == keys


def test_records_read_with_a_syntax_error_on_one_line_are_their_own_games_and_keep_their_setting(tmp_path):
    """review79: keyed by their text, two games of a one-line JSON array, each with its WhoWon's error, were one
    game (the line's text), the second skipped; and a record so keyed had no setting, which `import --replace`
    and the prefixes rest on. Keyed by their error too, they are two games, laid out otherwise the same ones."""
    games = [json.loads(WHO_WON % "Purple") | {"Moves": moves} for moves in (["d1-c1", "e4-e1"], ["d1-c1", "e4-e2"])]
    (tmp_path / "mini.json").write_text(json.dumps(games))
    (tmp_path / "pretty.json").write_text(json.dumps(games, indent=1))
    path = str(tmp_path / "club.db")
    assert Archive(path).import_paths([str(tmp_path / "mini.json")]).added == 2
    assert Archive(path).import_paths([str(tmp_path / "pretty.json")]).added == 0
    assert rows(path, "SELECT count(DISTINCT hash), count(setting) FROM records") == [(2, 2)]


def test_version_26_keys_a_record_whose_game_ending_ply_is_marked_as_the_same_game_unmarked(tmp_path):
    """h80a: Latrunculi's `#`, the mark of the game-ending ply, took part in a record's key: version 26 keys anew
    the records whose text holds a `#` (the unmarked record's key), and leaves the others' keys as they were."""
    record = (
        '[Game "latrunculi"]\n[Variant "dux"]\n[Position "7d/8/8/8/1Pp5/8/8/D2P2PP w"]\n[Result "1-0"]\n\n'
        "1. d1-d4xc4{} 1-0\n"
    )
    (tmp_path / "bare.lgn").write_text(record.format(""))
    (tmp_path / "marked.lgn").write_text(record.format("#"))
    path = str(tmp_path / "club.db")
    Archive(path).import_paths([str(tmp_path / "marked.lgn")])
    Archive(str(tmp_path / "bare.db")).import_paths([str(tmp_path / "bare.lgn")])
    bare = rows(str(tmp_path / "bare.db"), "SELECT hash, setting FROM records")
    with downgraded(path, 25) as conn:  # as version 25 keyed it: another key
        conn.execute("UPDATE records SET hash = '0123456789abcdef'")
    Archive(path).query(Filters())  # opening it upgrades it
    assert rows(path, "SELECT hash, setting FROM records") == bare
    assert Archive(path).import_paths([str(tmp_path / "bare.lgn")]).added == 0


def test_a_record_stored_unparsable_that_now_reads_whole_keeps_its_key_in_version_25(tmp_path):
    """review79b: version 25 re-keyed a record stored unparsable (no game, no setting) that a reader now reads whole
    (an OpenTafl turn with two comments on its line), giving it a setting: the move tree's sums, made anew then, met
    its game NULL and the upgrade failed, the archive left at version 24 and refused by every command."""
    (tmp_path / "two.otg").write_text("[rules:dim:9 esc:e cor: atkf:n tfr:i]\n\n1. e4-g4 a6-a9 [c1|c2] [c3|c4]\n")
    path = str(tmp_path / "club.db")
    Archive(path).import_paths([str(tmp_path / "two.otg")])
    with downgraded(path, 24) as conn:  # as 9abbaf13 stored it: unparsable, its text's key, a syntax error
        conn.execute("UPDATE records SET game = NULL, variant = NULL, setting = NULL, hash = '0123456789abcdef'")
        conn.execute(
            "INSERT INTO diagnostics (record_id, number, severity, rule, message) SELECT id, 0, 'error', "
            "'syntax', 'found a third move' FROM records"
        )
    Archive(path).query(Filters())  # opening it upgrades it
    assert rows(path, "PRAGMA user_version") == [(schema.SCHEMA_VERSION,)]
    assert rows(path, "SELECT hash, setting FROM records") == [("0123456789abcdef", None)]
