"""The archive file: created whole in one step, upgraded by MIGRATIONS all or nothing."""

import os
import sqlite3
from concurrent.futures import ThreadPoolExecutor
from contextlib import closing

import pytest
from conftest import connect

from lusoria.archive import NotAnArchive, schema
from lusoria.archive.texts import TextPacker


def packed(text: str) -> bytes:
    """A record's text as `records.packed_text` holds it."""
    return TextPacker(sqlite3.connect(":memory:")).pack(text)


def version(path) -> int:
    with closing(connect(path)) as conn:
        return conn.execute("PRAGMA user_version").fetchone()[0]


def test_a_new_archive_appears_whole_with_its_version(tmp_path):
    path = str(tmp_path / "new.db")
    schema.open_archive(path).close()
    assert version(path) == schema.SCHEMA_VERSION
    assert sorted(os.listdir(tmp_path)) == ["new.db"]  # no temporary file left behind


@pytest.mark.skipif(not os.path.isdir("/proc/self/fd"), reason="lists a process's open files as Linux does")
def test_making_an_archive_leaves_no_file_open(tmp_path):
    before = sorted(os.listdir("/proc/self/fd"))
    schema.open_archive(str(tmp_path / "new.db")).close()
    assert sorted(os.listdir("/proc/self/fd")) == before  # the temporary file's handle, which held its lock, too


def test_this_release_writes_version_26(tmp_path):
    """The version docs/archive.md's history ends with: a new one comes with its migration, its
    test in test_migration.py and its line there."""
    path = str(tmp_path / "new.db")
    schema.open_archive(path).close()
    assert version(path) == 26


def test_an_empty_file_becomes_an_archive(tmp_path):
    path = tmp_path / "empty.db"
    path.touch()
    schema.open_archive(str(path)).close()
    assert version(path) == schema.SCHEMA_VERSION


def test_concurrent_creators_share_one_archive(tmp_path):
    path = str(tmp_path / "shared.db")

    def create(_):
        db = schema.open_archive(path)
        db.conn.isolation_level = None
        db.execute("BEGIN IMMEDIATE")
        db.execute("INSERT INTO records (hash, packed_text, valid) VALUES (?, ?, 1)", [f"h{_}", packed("x")])
        db.execute("COMMIT")
        db.close()

    with ThreadPoolExecutor(4) as pool:
        list(pool.map(create, range(4)))
    with closing(connect(path)) as conn:
        assert conn.execute("SELECT count(*) FROM records").fetchone()[0] == 4


def old_archive(tmp_path):
    path = str(tmp_path / "old.db")
    db = schema.open_archive(path)
    db["records"].insert({"hash": "h", "packed_text": packed("kept"), "valid": 1})
    db.conn.commit()
    db.close()
    return path


def test_an_older_archive_is_upgraded_and_keeps_its_records(tmp_path, monkeypatch):
    path = old_archive(tmp_path)
    monkeypatch.setattr(schema, "SCHEMA_VERSION", schema.SCHEMA_VERSION + 1)
    monkeypatch.setitem(schema.MIGRATIONS, schema.SCHEMA_VERSION, lambda db: db["records"].add_column("newer", str))
    db = schema.open_archive(path)
    assert "newer" in db["records"].columns_dict
    assert [row["text"] for row in db["record_texts"].rows] == ["kept"]
    db.close()
    assert version(path) == schema.SCHEMA_VERSION
    assert sorted(os.listdir(tmp_path)) == ["old.db"]


def test_a_failed_upgrade_leaves_the_archive_as_it_was(tmp_path, monkeypatch):
    path = old_archive(tmp_path)
    before = open(path, "rb").read()

    def broken(db):
        db["records"].add_column("half", str)
        db.execute("SELECT * FROM no_such_table")

    monkeypatch.setattr(schema, "SCHEMA_VERSION", schema.SCHEMA_VERSION + 1)
    monkeypatch.setitem(schema.MIGRATIONS, schema.SCHEMA_VERSION, broken)
    with pytest.raises(NotAnArchive, match="could not be upgraded .* left as it was"):
        schema.open_archive(path)
    assert open(path, "rb").read() == before
    assert sorted(os.listdir(tmp_path)) == ["old.db"]


def test_an_archive_from_a_newer_lusoria_is_refused_with_its_version(tmp_path):
    """An archive a newer lusoria made (a later version than this one reads) is said so, with both
    versions: not left as if it were no archive at all."""
    path = old_archive(tmp_path)
    newer = schema.SCHEMA_VERSION + 1
    with closing(connect(path)) as conn:
        conn.execute(f"PRAGMA user_version = {newer}")
    with pytest.raises(NotAnArchive) as refused:
        schema.open_archive(path)
    assert str(refused.value) == (
        f"{path} is a lusoria archive of version {newer}, which a newer lusoria made: this one reads "
        f"versions up to {schema.SCHEMA_VERSION} (a newer lusoria reads it)"
    )
