"""A version 1 archive (as lusoria made it before schema version 3) opened by this lusoria:
upgraded in one step, nothing lost, and every new query answers as on a new archive."""

import os
import sqlite3
from contextlib import closing

import pytest

from lusoria.archive import Archive, Filters, NotAnArchive, positions, schema

from conftest import ROOT

V1_SCHEMA = ROOT / "tests" / "data" / "archive-v1.sql"
TABLES = ("records", "tags", "plies", "diagnostics")


def version_1_archive(path: str, source: str) -> None:
    """An archive with the version 1 schema (tests/data/archive-v1.sql, the statements lusoria
    0df88da created) holding the rows of the archive at `source`, as an old import left them."""
    with closing(sqlite3.connect(path)) as conn:
        conn.executescript(V1_SCHEMA.read_text())
        conn.execute("ATTACH DATABASE ? AS source", [source])
        for table in TABLES:
            conn.execute(f"INSERT INTO main.{table} SELECT * FROM source.{table}")
        conn.commit()


def rows(path: str, sql: str) -> list[tuple]:
    with closing(sqlite3.connect(path)) as conn:
        return conn.execute(sql).fetchall()


@pytest.fixture(scope="module")
def new(tmp_path_factory):
    archive = Archive(str(tmp_path_factory.mktemp("new") / "new.db"))
    archive.import_paths([str(ROOT / "samples")])
    return archive


def test_the_fixture_is_a_version_1_archive(new, tmp_path):
    path = str(tmp_path / "old.db")
    version_1_archive(path, new.path)
    assert rows(path, "PRAGMA user_version") == [(1,)]
    names = {name for (name,) in rows(path, "SELECT name FROM sqlite_master")}
    assert "positions" not in names and "player_aliases" not in names and "records_fts" in names


def test_a_version_1_archive_is_upgraded_with_nothing_lost(new, tmp_path):
    path = str(tmp_path / "old.db")
    version_1_archive(path, new.path)
    before = {table: rows(path, f"SELECT * FROM {table} ORDER BY 1, 2") for table in TABLES}
    old = Archive(path)
    assert old.query(Filters(text="incitus freed"))[0]["id"] == 77  # opening it upgrades it
    assert rows(path, "PRAGMA user_version") == [(schema.SCHEMA_VERSION,)]
    assert {table: rows(path, f"SELECT * FROM {table} ORDER BY 1, 2") for table in TABLES} == before
    assert rows(path, "SELECT * FROM positions ORDER BY key") == rows(new.path, "SELECT * FROM positions ORDER BY key")
    assert rows(path, "SELECT count(*) FROM positions")[0][0] > 2000
    for filters in (Filters(pattern="*********/" * 4 + "****K****" + "/*********" * 4 + " b"),
                    Filters(material=["inciti"], material_for=2), Filters(player="Karin Nilsson")):
        assert old.query(filters) == new.query(filters)
    start = "3ppp3/4p4/4P4/p3P3p/ppPPKPPpp/p3P3p/4P4/4p4/3ppp3 w"
    assert old.tree(start, depth=2) == new.tree(start, depth=2)
    assert old.merge_players(["K. Nilsson"], "Karin Nilsson") == "Karin Nilsson"
    assert sorted(os.listdir(tmp_path)) == ["old.db"]


def test_a_version_1_archive_whose_upgrade_fails_is_left_as_it_was(new, tmp_path, monkeypatch):
    path = str(tmp_path / "old.db")
    version_1_archive(path, new.path)
    before = open(path, "rb").read()

    def broken(db, batch=1000):
        db.execute("INSERT INTO positions (key) VALUES (1)")
        raise sqlite3.OperationalError("disk I/O error")

    monkeypatch.setattr(schema, "fill_positions", broken)
    with pytest.raises(NotAnArchive, match="version 1 archive and could not be upgraded to version 3"):
        Archive(path).query(Filters())
    assert open(path, "rb").read() == before
    assert sorted(os.listdir(tmp_path)) == ["old.db"]


def test_importing_into_an_upgraded_archive_fills_positions_as_a_new_one(new, tmp_path):
    path = str(tmp_path / "old.db")
    version_1_archive(path, new.path)
    Archive(path).query(Filters())
    (tmp_path / "more.lgn").write_text('[Game "tablut"]\n\n1. c5-c3 i6-f6 *\n')
    Archive(path).import_paths([str(tmp_path / "more.lgn")])
    assert rows(path, "SELECT count(*) FROM plies WHERE position NOT IN (SELECT key FROM positions)") == [(0,)]
    assert positions.POSITION_COLUMNS == [c for (_, c, *_) in rows(path, "PRAGMA table_info(positions)")]
