"""The archive's tables (sqlite-utils). docs/archive.md shows the CREATE statements."""

from __future__ import annotations

import sqlite3

import sqlite_utils

SCHEMA_VERSION = 1
FTS_COLUMNS = ["white", "black", "event", "site", "sources", "comments"]
SOURCE_TAGS = ("Source", "Annotator", "Transcriber", "Manuscript")


class NotAnArchive(Exception):
    """A database file that is not a lusoria archive, or cannot be read."""


def create(db: sqlite_utils.Database) -> None:
    """Create the tables, indexes and full-text index of an empty database."""
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
        db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")


def open_archive(path: str, create_missing: bool = True) -> sqlite_utils.Database:
    """Open (and, if new, create) an archive; NotAnArchive for any other database."""
    try:
        db = sqlite_utils.Database(path)
        db.execute("PRAGMA foreign_keys = ON")
        db.execute("PRAGMA busy_timeout = 5000")
        tables = set(db.table_names())
        if not tables and create_missing:
            db.enable_wal()
            create(db)
        elif "records" not in tables or db.execute("PRAGMA user_version").fetchone()[0] != SCHEMA_VERSION:
            raise NotAnArchive(f"{path} is not a lusoria archive")
    except sqlite3.DatabaseError as error:
        raise NotAnArchive(f"{path} cannot be read as a database: {error}") from None
    return db
