"""The archive's tables (sqlite-utils). docs/archive.md shows the CREATE statements."""

from __future__ import annotations

import os
import sqlite3
import tempfile
from typing import Callable

import sqlite_utils

from lusoria.archive.players import create_players
from lusoria.archive.positions import create_positions, fill_positions

SCHEMA_VERSION = 3
# MIGRATIONS[n] upgrades a version n-1 archive to version n (any sqlite-utils call may be used:
# it runs on a copy, which replaces the archive only once every step has succeeded).
MIGRATIONS: dict[int, Callable[[sqlite_utils.Database], None]] = {}
MIGRATIONS[2] = lambda db: None  # version 2 belongs to issue 19 (placeholder until merged)
FTS_COLUMNS = ["white", "black", "event", "site", "sources", "comments"]
SOURCE_TAGS = ("Source", "Annotator", "Transcriber", "Manuscript")


class NotAnArchive(Exception):
    """A database file that is not a lusoria archive, or cannot be read."""


def create(db: sqlite_utils.Database) -> None:
    """Create the tables, indexes and full-text index of an empty database (see `open_archive`
    for how a new archive appears at once, whole)."""
    with db.conn:
        db["records"].create({
            "id": int, "hash": str, "game": str, "variant": str,
            "event": str, "site": str, "date": str, "round": str, "white": str, "black": str, "result": str,
            "date_from": str, "date_to": str, "plies": int, "valid": int, "errors": int, "warnings": int,
            "first_rule": str, "first_ply": int, "path": str, "line": int,
            "sources": str, "comments": str, "text": str,
        }, pk="id", not_null={"hash", "text", "valid"})
        db["tags"].create({"record_id": int, "name": str, "value": str}, pk=("record_id", "name"),
                          foreign_keys=[("record_id", "records", "id")])
        db["plies"].create({"record_id": int, "ply": int, "side": str, "text": str, "position": int},
                           pk=("record_id", "ply"), foreign_keys=[("record_id", "records", "id")])
        db["diagnostics"].create({
            "record_id": int, "number": int, "severity": str, "rule": str, "message": str,
            "ply": int, "text": str, "line": int, "column": int,
        }, pk=("record_id", "number"), foreign_keys=[("record_id", "records", "id")])
        records = db["records"]
        records.create_index(["hash"], unique=True)
        for columns in (["game", "variant"], ["result"], ["valid"], ["date_from"], ["date_to"], ["first_rule"]):
            records.create_index(columns)
        for column in ("white", "black", "event", "site"):
            db.execute(f"CREATE INDEX idx_records_{column}_nocase ON records ({column} COLLATE NOCASE)")
        db["tags"].create_index(["name", "value"])
        db["plies"].create_index(["position"])
        db["diagnostics"].create_index(["rule", "record_id"])
        records.enable_fts(FTS_COLUMNS, create_triggers=True)
        _add_version_3(db)
        db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")


def _add_version_3(db: sqlite_utils.Database) -> None:
    """Version 3 (issue 16): the distinct positions with their material, the material ranges
    of each record, player aliases, and an index of the records in date order."""
    create_positions(db)
    create_players(db)
    # records in the order query lists them: a search within plies stops at its first matches
    db.execute("CREATE INDEX idx_records_date_order ON records (date_from IS NULL, date_from)")


def _migrate_to_3(db: sqlite_utils.Database) -> None:
    _add_version_3(db)
    fill_positions(db)


MIGRATIONS[3] = _migrate_to_3


def _connect(path: str) -> sqlite_utils.Database:
    db = sqlite_utils.Database(path)
    db.execute("PRAGMA foreign_keys = ON")
    db.execute("PRAGMA busy_timeout = 5000")
    return db


def _publish(build: Callable[[sqlite_utils.Database], None], path: str, replace: bool) -> None:
    """Build a database in a temporary file beside `path`, then put it at `path` in one step:
    no process ever sees it half made. With `replace` it takes the place of the file there;
    without, it appears only if `path` is still missing (an archive another process made in the
    meantime wins, and is used)."""
    handle, temporary = tempfile.mkstemp(prefix=os.path.basename(path) + ".", suffix=".tmp",
                                         dir=os.path.dirname(path) or ".")
    os.close(handle)
    try:
        db = _connect(temporary)
        build(db)
        db.close()
        if replace:
            os.replace(temporary, path)
        else:
            try:
                os.link(temporary, path)
            except FileExistsError:
                pass
    finally:
        for leftover in (temporary, temporary + "-wal", temporary + "-shm"):
            if os.path.exists(leftover):
                os.remove(leftover)


def _new(db: sqlite_utils.Database) -> None:
    db.enable_wal()
    create(db)


def _upgrade(path: str, version: int) -> None:
    """Apply MIGRATIONS to a copy of the archive and replace it: all steps or none."""
    def build(copy: sqlite_utils.Database) -> None:
        source = sqlite3.connect(path)
        try:
            source.backup(copy.conn)
        finally:
            source.close()
        for step in range(version + 1, SCHEMA_VERSION + 1):
            MIGRATIONS[step](copy)
        copy.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        copy.conn.commit()
    try:
        _publish(build, path, replace=True)
    except (sqlite3.Error, OSError) as error:
        raise NotAnArchive(f"{path} is a version {version} archive and could not be upgraded to version "
                           f"{SCHEMA_VERSION} ({error}); it was left as it was") from None


def open_archive(path: str, create_missing: bool = True) -> sqlite_utils.Database:
    """Open (and, if new, create) an archive; NotAnArchive for any other database. An archive
    made by an older lusoria is upgraded first (MIGRATIONS)."""
    try:
        if create_missing and (not os.path.exists(path) or os.path.getsize(path) == 0):
            _publish(_new, path, replace=os.path.exists(path))
        db = _connect(path)
        tables = set(db.table_names())
        version = db.execute("PRAGMA user_version").fetchone()[0]
        if "records" not in tables or not 1 <= version <= SCHEMA_VERSION:
            raise NotAnArchive(f"{path} is not a lusoria archive"
                               + (" of this version" if "records" in tables and version > SCHEMA_VERSION else ""))
        if version < SCHEMA_VERSION:
            db.close()
            _upgrade(path, version)
            db = _connect(path)
    except sqlite3.DatabaseError as error:
        raise NotAnArchive(f"{path} cannot be read as a database: {error}") from None
    return db
