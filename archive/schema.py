"""The archive's tables (sqlite-utils). docs/archive.md shows the CREATE statements."""

from __future__ import annotations

import os
import sqlite3
import tempfile
from typing import Callable

import sqlite_utils

from lusoria.archive.players import create_players
from lusoria.archive.positions import create_positions, create_record_summaries, fill_positions, fill_record_summaries
from lusoria.archive.variations import create_variation_plies, fill_variations

SCHEMA_VERSION = 4
# MIGRATIONS[n] upgrades a version n-1 archive to version n (any sqlite-utils call may be used:
# it runs on a copy, which replaces the archive only once every step has succeeded).
MIGRATIONS: dict[int, Callable[[sqlite_utils.Database], None]] = {}
FTS_COLUMNS = ["white", "black", "event", "site", "sources", "comments"]
SOURCE_TAGS = ("Source", "Annotator", "Transcriber", "Manuscript")


class NotAnArchive(Exception):
    """A database file that is not a lusoria archive, or cannot be read."""


def create(db: sqlite_utils.Database) -> None:
    """Create the tables, indexes and full-text index of an empty database (see `open_archive`
    for how a new archive appears at once, whole)."""
    with db.conn:
        db.table("records").create({
            "id": int, "hash": str, "game": str, "variant": str,
            "event": str, "site": str, "date": str, "round": str, "white": str, "black": str, "result": str,
            "date_from": str, "date_to": str, "plies": int, "valid": int, "errors": int, "warnings": int,
            "first_rule": str, "first_ply": int, "path": str, "line": int,
            "sources": str, "comments": str, "text": str, "setting": str, "label": str,
        }, pk="id", not_null={"hash", "text", "valid"})
        create_lookup_tables(db)
        db.table("diagnostics").create({
            "record_id": int, "number": int, "severity": str, "rule": str, "message": str,
            "ply": int, "text": str, "line": int, "column": int,
        }, pk=("record_id", "number"), foreign_keys=[("record_id", "records", "id")])
        records = db.table("records")
        records.create_index(["hash"])
        for columns in (["game", "variant"], ["result"], ["valid"], ["date_from"], ["date_to"], ["first_rule"]):
            records.create_index(columns)
        for column in ("white", "black", "event", "site"):
            db.execute(f"CREATE INDEX idx_records_{column}_nocase ON records ({column} COLLATE NOCASE)")
        db.table("diagnostics").create_index(["rule", "record_id"])
        records.enable_fts(FTS_COLUMNS, create_triggers=True)
        _add_version_3(db)
        _add_version_4(db)
        db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")


def create_lookup_tables(db: sqlite_utils.Database) -> None:
    """`tags` and `plies`, each one b-tree ordered for the search it serves (by tag, by position:
    docs/archive.md, "Size"); no row id, no second index."""
    db.execute("""CREATE TABLE "tags" (
   "record_id" INTEGER REFERENCES "records"("id"),
   "name" TEXT NOT NULL,
   "value" TEXT NOT NULL,
   PRIMARY KEY ("name", "value", "record_id")
) WITHOUT ROWID""")
    db.execute("""CREATE TABLE "plies" (
   "record_id" INTEGER REFERENCES "records"("id"),
   "ply" INTEGER NOT NULL,
   "position" INTEGER NOT NULL,
   "text" TEXT,
   PRIMARY KEY ("position", "record_id", "ply")
) WITHOUT ROWID""")
    db.execute('CREATE INDEX "idx_plies_record_id_ply" ON "plies" ("record_id", "ply")')


def _add_version_3(db: sqlite_utils.Database) -> None:
    """Version 3 (issue 16): the distinct positions with their material, the material ranges
    of each record, player aliases, an index of the records in date order, and the rules."""
    create_positions(db)
    create_players(db)
    create_rules(db)
    # records in the order query lists them: a search within plies stops at its first matches
    db.execute("CREATE INDEX idx_records_date_order ON records (date_from IS NULL, date_from)")


def create_rules(db: sqlite_utils.Database) -> None:
    """The rules that diagnostics cite, with their texts (`lusoria explain`), so that a rule ID
    explains itself in SQL and in Datasette (`diagnostics.rule` refers to `rules.id`)."""
    from lusoria.rulebook import rules  # the rules' texts: loaded only to create or upgrade

    db.table("rules").insert_all(({"id": rule.id, "game": rule.game, "title": rule.title, "text": rule.text}
                            for rule in rules()), pk="id")


def _migrate_to_3(db: sqlite_utils.Database) -> None:
    _add_version_3(db)
    fill_positions(db)


MIGRATIONS[3] = _migrate_to_3


def _add_version_4(db: sqlite_utils.Database) -> None:
    """Version 4 (issue 16): `plies.next`, the position after the next ply of the main line
    (the move tree reads it with the ply), the plies of variations (`variation_plies`), what
    each record's squares held (`record_squares`, which pattern search checks first) and its
    material as runs of plies (`material_runs`, which material search reads)."""
    db.execute("ALTER TABLE plies ADD COLUMN next INTEGER")
    create_variation_plies(db)
    create_record_summaries(db)


def _migrate_to_4(db: sqlite_utils.Database) -> None:
    _add_version_4(db)
    db.execute("UPDATE plies SET next = (SELECT q.position FROM plies q "
               "WHERE q.record_id = plies.record_id AND q.ply = plies.ply + 1)")
    fill_variations(db)
    fill_record_summaries(db)


MIGRATIONS[4] = _migrate_to_4


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
    db.execute("PRAGMA page_size = 16384")  # less room lost at the ends of pages (docs/archive.md, "Size")
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


def migrate_to_2(db: sqlite_utils.Database) -> None:
    """Version 2: a record's identity by its canonical content (`hash`, `setting`; records that
    become duplicates of each other are all kept, for `lusoria duplicates` to list), a `label`,
    and `tags` and `plies` without row ids (the plies after an illegal one, which had no
    position, are left out; their text is in the record's)."""
    from lusoria.archive.identity import recompute  # the validator: loaded only to upgrade

    records = db.table("records")
    records.add_column("setting", str)
    records.add_column("label", str)
    db.execute("DROP INDEX idx_records_hash")
    records.create_index(["hash"])
    for table in ("tags", "plies"):
        db.execute(f"ALTER TABLE {table} RENAME TO old_{table}")
    create_lookup_tables(db)
    db.execute("INSERT INTO tags SELECT record_id, name, value FROM old_tags")
    db.execute("INSERT INTO plies SELECT record_id, ply, position, text FROM old_plies WHERE position IS NOT NULL")
    for table in ("tags", "plies"):
        db.execute(f"DROP TABLE old_{table}")
    recompute(db)


MIGRATIONS[2] = migrate_to_2


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
