"""The archive's tables (sqlite-utils). docs/archive.md shows the CREATE statements."""

from __future__ import annotations

import fcntl
import os
import re
import sqlite3
import tempfile
from collections.abc import Callable

import sqlite_utils

from lusoria.archive.functions import sql_function
from lusoria.archive.next_plies import NextPlies, create_next_plies
from lusoria.archive.players import create_players
from lusoria.archive.positions import create_positions, create_record_summaries
from lusoria.archive.texts import TextPacker, add_functions, create_text_dictionaries, create_text_view
from lusoria.archive.variations import create_variation_plies
from lusoria.errors import LusoriaError
from lusoria.files import mode_for

SCHEMA_VERSION = 13
# MIGRATIONS[n] upgrades a version n-1 archive to version n (any sqlite-utils call may be used:
# it runs on a copy, which replaces the archive only once every step has succeeded). A version
# without an entry changed only tables of REPLAYED, which `rebuild_replayed` makes anew (version 6:
# the keys of positions, made from their boards as they are: archive/positions.py, `key_texts`;
# version 7: `record_boards` compressed with Zstandard, `pack_boards`; version 9 writes them square by square;
# version 11: `next_plies`, the sums of the plies played from the opening positions, archive/next_plies.py;
# version 12: `record_squares` with every piece's bits below 64, Game.piece_bits: a tafl game's 7th piece on share one;
# version 13: `variation_plies` as the replay driver keeps each variation's positions, Report.variation_positions:
# where later plies of a record that leaves out berserk continuations showed that its line went).
MIGRATIONS: dict[int, Callable[[sqlite_utils.Database], None]] = {}
# The tables and views made from replaying each record's text, those that read others first (and
# their names in older versions: `plies` was a table until version 8, `positions` in versions 3–4)
REPLAYED = (
    "plies",
    "position_plies",
    "positions",
    "moves",
    "variation_plies",
    "record_boards",
    "record_squares",
    "material_runs",
    "material_ranges",
    "window_squares",
    "next_plies",
)
FTS_COLUMNS = ["white", "black", "event", "site", "sources", "comments"]


class NotAnArchive(LusoriaError):
    """A database file that is not a lusoria archive, or cannot be read or made."""


def create(db: sqlite_utils.Database) -> None:
    """Create the tables, indexes and full-text index of an empty database (see `open_archive`
    for how a new archive appears at once, whole)."""
    with db.conn:
        create_records(db)
        create_tags(db)
        create_tags_view(db)
        db.table("diagnostics").create(
            {
                "record_id": int,
                "number": int,
                "severity": str,
                "rule": str,
                "message": str,
                "ply": int,
                "text": str,
                "line": int,
                "column": int,
            },
            pk=("record_id", "number"),
            foreign_keys=[("record_id", "records", "id")],
        )
        _create_record_indexes(db)
        db.table("diagnostics").create_index(["rule", "record_id"])
        create_text_index(db)
        _add_version_3(db)
        _add_version_8(db)
        create_text_dictionaries(db)
        create_text_view(db)
        create_replayed(db)
        db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")


# A record's label, how Datasette names it (identity.label): `White – Black, Date` (`?` for a
# missing player; no date when its year is unknown)
LABEL = (
    "coalesce(nullif(\"white\", ''), '?') || ' – ' || coalesce(nullif(\"black\", ''), '?') || "
    "CASE WHEN \"date\" GLOB '[0-9]*' AND substr(\"date\", 1, 4) NOT GLOB '*[^0-9]*' THEN ', ' || \"date\" "
    "ELSE '' END"
)
RECORD_COLUMNS = [  # version 9: the text compressed (archive/texts.py; read by the view record_texts), the label generated
    '"id" INTEGER PRIMARY KEY',
    '"hash" TEXT NOT NULL',
    *(
        f'"{name}" TEXT'
        for name in (
            "game",
            "variant",
            "event",
            "site",
            "date",
            "round",
            "white",
            "black",
            "result",
            "date_from",
            "date_to",
        )
    ),
    '"plies" INTEGER',
    '"valid" INTEGER NOT NULL',
    '"errors" INTEGER',
    '"warnings" INTEGER',
    '"first_rule" TEXT',
    '"first_ply" INTEGER',
    '"path" TEXT',
    '"line" INTEGER',
    '"sources" TEXT',
    '"comments" TEXT',
    '"setting" TEXT',
    f'"label" TEXT AS ({LABEL})',
    '"ending" TEXT',
    '"rule_tags" TEXT',
    '"packed_text" BLOB NOT NULL',
]


def create_records(db: sqlite_utils.Database, name: str = "records") -> None:
    """The table `records` (version 9), or one like it under another name (`migrate_to_9`)."""
    columns = ",\n   ".join(RECORD_COLUMNS)
    db.execute(f'CREATE TABLE "{name}" (\n   {columns}\n)')


def create_tags(db: sqlite_utils.Database, name: str = "other_tags") -> None:
    """`other_tags`, every tag but those the records' columns keep (importer.COLUMN_TAGS), one
    b-tree ordered by tag (what `--tag` searches, with the records' columns: query._tags); or
    version 2's `tags` (`migrate_to_2`)."""
    db.execute(f"""CREATE TABLE "{name}" (
   "record_id" INTEGER REFERENCES "records"("id"),
   "name" TEXT NOT NULL,
   "value" TEXT NOT NULL,
   PRIMARY KEY ("name", "value", "record_id")
) WITHOUT ROWID""")


def create_tags_view(db: sqlite_utils.Database) -> None:
    """`tags`, a view of every tag of every record (version 10): those the records' columns keep
    (importer.COLUMN_TAGS) read from them, the others from `other_tags`."""
    from lusoria.archive.importer import COLUMN_TAGS

    columns = "\nUNION ALL ".join(
        f'SELECT id AS record_id, \'{tag}\' AS name, "{column}" AS value FROM records WHERE "{column}" IS NOT NULL'
        for tag, column in COLUMN_TAGS.items()
    )
    db.execute(f'CREATE VIEW "tags" AS\n{columns}\nUNION ALL SELECT record_id, name, value FROM other_tags')


def create_text_index(db: sqlite_utils.Database) -> None:
    """`records_fts`, the full-text index of FTS_COLUMNS (words stemmed: `escape` finds
    `escapes`; no column sizes kept, which only ranking reads, from the records then: version 10),
    kept in step by triggers; an update reindexes a record only when it changes one of those
    columns."""
    columns = ", ".join(f'"{column}"' for column in FTS_COLUMNS)
    old, new = (", ".join(f'{row}."{column}"' for column in FTS_COLUMNS) for row in ("old", "new"))
    db.execute(
        f"CREATE VIRTUAL TABLE \"records_fts\" USING FTS5 (\n    {columns},\n    tokenize='porter', "
        f"columnsize=0,\n    content=[records]\n)"
    )
    db.execute(f'INSERT INTO "records_fts" (rowid, {columns}) SELECT rowid, {columns} FROM "records"')
    db.execute(f"""CREATE TRIGGER "records_ai" AFTER INSERT ON "records" BEGIN
  INSERT INTO "records_fts" (rowid, {columns}) VALUES (new.rowid, {new});
END""")
    db.execute(f"""CREATE TRIGGER "records_ad" AFTER DELETE ON "records" BEGIN
  INSERT INTO "records_fts" ("records_fts", rowid, {columns}) VALUES('delete', old.rowid, {old});
END""")
    db.execute(f"""CREATE TRIGGER "records_au" AFTER UPDATE OF {columns} ON "records" BEGIN
  INSERT INTO "records_fts" ("records_fts", rowid, {columns}) VALUES('delete', old.rowid, {old});
  INSERT INTO "records_fts" (rowid, {columns}) VALUES (new.rowid, {new});
END""")


def create_replayed(db: sqlite_utils.Database) -> None:
    """The tables of REPLAYED (version 8): `positions`, the index of the positions reached and
    the plies played from them (archive/positions.py), the variations' plies and the records'
    summaries, and the sums of the plies played from the opening positions (version 11)."""
    create_positions(db)
    create_variation_plies(db)
    create_record_summaries(db)
    create_next_plies(db)


def _create_record_indexes(db: sqlite_utils.Database) -> None:
    """The indexes of `records` of version 1 (those of names and results a side: `_add_version_8`),
    but `date_from`'s: since version 9 the index in date order serves `--date-to` (query._date)."""
    records = db.table("records")
    records.create_index(["hash"])
    for columns in (["game", "variant"], ["result"], ["valid"], ["date_to"], ["first_rule"]):
        records.create_index(columns)
    for column in ("white", "black", "event", "site"):
        db.execute(f"CREATE INDEX idx_records_{column}_nocase ON records ({column} COLLATE NOCASE)")


def _add_version_3(db: sqlite_utils.Database) -> None:
    """Version 3 (issue 16): player aliases, an index of the records in date order, and the
    rules."""
    create_players(db)
    create_rules(db)
    _add_version_3_indexes(db)


def _add_version_3_indexes(db: sqlite_utils.Database) -> None:
    # records in the order query lists them: a search within plies stops at its first matches
    db.execute("CREATE INDEX idx_records_date_order ON records (date_from IS NULL, date_from)")


def create_rules(db: sqlite_utils.Database) -> None:
    """The rules that diagnostics cite, with their texts (`lusoria explain`), so that a rule ID
    explains itself in SQL and in Datasette (`diagnostics.rule` refers to `rules.id`)."""
    from lusoria.rulebook import rules  # the rules' texts: loaded only to create or upgrade

    db.table("rules").insert_all(
        ({"id": rule.id, "game": rule.game, "title": rule.title, "text": rule.text} for rule in rules()), pk="id"
    )


MIGRATIONS[3] = _add_version_3


def _add_version_8(db: sqlite_utils.Database) -> None:
    """Version 8 (issue 31): each record's `ending` and `rule_tags` (filled in by `rebuild_replayed`),
    indexes for `stats`, one index a side for names and the score table."""
    if "ending" not in db.table("records").columns_dict:  # a new archive has them
        db.execute("ALTER TABLE records ADD COLUMN ending TEXT")
        db.execute("ALTER TABLE records ADD COLUMN rule_tags TEXT")
    for column in ("ending", "plies"):
        db.execute(f"CREATE INDEX idx_records_{column} ON records ({column})")
    for side in ("white", "black"):  # the names' index serves the score table too (versions 3–7: one each)
        db.execute(f"DROP INDEX IF EXISTS idx_records_{side}_result")
        db.execute(f"DROP INDEX idx_records_{side}_nocase")
        db.execute(f"CREATE INDEX idx_records_{side}_nocase ON records ({side} COLLATE NOCASE, result)")


def migrate_to_8(db: sqlite_utils.Database) -> None:
    """Version 8 of an older archive: its full-text index made anew, words stemmed."""
    db.table("records").disable_fts()
    create_text_index(db)
    _add_version_8(db)


MIGRATIONS[8] = migrate_to_8


def migrate_to_9(db: sqlite_utils.Database) -> None:
    """Version 9 (issue 31): the records' texts compressed (archive/texts.py), with a dictionary
    trained on the first records' texts when there are enough, read by the view `record_texts`;
    `label` generated. The
    table is made anew (its indexes and full-text index with it), under foreign keys held off."""
    conn = db.conn
    conn.commit()  # the steps before may have left a transaction open: PRAGMA foreign_keys works outside one
    conn.execute("PRAGMA foreign_keys = OFF")
    try:
        create_text_dictionaries(db)
        packer = TextPacker(conn)
        packer.train_first()
        sql_function(conn, "lusoria_pack", packer.pack, str)
        create_records(db, "records_v9")
        stored = (column.split('"')[1] for column in RECORD_COLUMNS if " AS (" not in column)  # (not generated)
        names = ", ".join(f'"{name}"' for name in stored if name != "packed_text")
        conn.execute(f"INSERT INTO records_v9 ({names}, packed_text) SELECT {names}, lusoria_pack(text) FROM records")
        db.table("records").disable_fts()
        conn.execute("DROP TABLE records")
        conn.execute('ALTER TABLE records_v9 RENAME TO "records"')
        _create_record_indexes(db)
        create_text_index(db)
        _add_version_3_indexes(db)
        _add_version_8(db)
        create_text_view(db)
        conn.commit()  # (the records keep their ids: every row of another table still finds its record)
    finally:
        conn.execute("PRAGMA foreign_keys = ON")


MIGRATIONS[9] = migrate_to_9


def migrate_to_10(db: sqlite_utils.Database) -> None:
    """Version 10 (issue 31): the tags the records' columns keep are no longer written again:
    `other_tags` holds the others, and `tags` is a view of them all; the full-text index keeps
    no column sizes (the index of positions keeps short tokens past the openings: made anew, as
    every upgrade does)."""
    from lusoria.archive.importer import COLUMN_TAGS

    db.table("records").disable_fts()
    create_text_index(db)
    create_tags(db)
    kept = " OR ".join(
        f"(name = '{tag}' AND value IS (SELECT \"{column}\" FROM records WHERE id = record_id))"
        for tag, column in COLUMN_TAGS.items()
    )
    db.execute(f"INSERT INTO other_tags SELECT record_id, name, value FROM tags WHERE NOT ({kept})")
    db.execute("DROP TABLE tags")
    create_tags_view(db)


MIGRATIONS[10] = migrate_to_10


def rebuild_replayed(db: sqlite_utils.Database, batch: int = 1000) -> None:
    """Make the tables of REPLAYED anew, and each record's `ending` and `rule_tags`, from each
    record's stored text, replayed once as an import does (archive/importer.py)."""
    from lusoria.archive.endings import ending  # the validator: loaded only to upgrade
    from lusoria.archive.importer import MoveCodes, insert_rows, merge_positions, replayed_rows, rule_tags
    from lusoria.validator.replay import check

    kinds = dict(db.execute("SELECT name, type FROM sqlite_master WHERE type IN ('table', 'view')").fetchall())
    for name in REPLAYED:
        if name in kinds:
            db.execute(f"DROP {kinds[name].upper()} [{name}]")
    create_replayed(db)
    codes, sums = MoveCodes(db.conn), NextPlies(db.conn)
    tables: dict[str, list] = {}
    replayed: list[tuple[str, str | None, int]] = []
    for number, (record, text) in enumerate(db.execute("SELECT id, text FROM record_texts ORDER BY id").fetchall(), 1):
        report = check(text)
        replayed.append((ending(report), rule_tags(report), record))
        for table, found in replayed_rows(report).items():
            tables.setdefault(table, []).append((record, found))
        if number % batch == 0:
            insert_rows(db.conn, tables, codes, sums)
            tables = {}
    insert_rows(db.conn, tables, codes, sums)
    db.conn.executemany("UPDATE records SET ending = ?, rule_tags = ? WHERE id = ?", replayed)
    merge_positions(db.conn)


def _connect(path: str) -> sqlite_utils.Database:
    db = sqlite_utils.Database(path)
    add_functions(db.conn)
    db.execute("PRAGMA foreign_keys = ON")
    db.execute("PRAGMA busy_timeout = 5000")
    return db


TEMPORARY_ENDS = ("", "-wal", "-shm", "-journal")  # a database file and SQLite's files beside it


def _publish(build: Callable[[sqlite_utils.Database], None], path: str, replace: bool) -> bool:
    """Build a database in a temporary file beside `path`, then put it at `path` in one step:
    no process ever sees it half made. With `replace` it takes the place of the file there;
    without, it appears only if `path` is still missing (an archive another process made in the
    meantime wins, and is used: then False). The temporary file and SQLite's beside it are removed
    on every path, and those a killed process left are removed by the next (`_remove_leftovers`):
    the process that builds one holds a lock on it."""
    folder = os.path.dirname(path) or "."
    _remove_leftovers(path)
    handle, temporary = tempfile.mkstemp(prefix=os.path.basename(path) + ".", suffix=".tmp", dir=folder)
    try:
        fcntl.flock(handle, fcntl.LOCK_EX)  # until it is closed: this temporary file is in use
        db = _connect(temporary)
        try:
            build(db)
        finally:
            db.close()
        os.chmod(temporary, mode_for(path))
        if replace:
            os.replace(temporary, path)
        else:
            try:
                os.link(temporary, path)
            except FileExistsError:
                return False
        return True
    finally:
        _remove(temporary)
        os.close(handle)


def _remove(temporary: str) -> None:
    for leftover in (temporary + end for end in TEMPORARY_ENDS):
        try:
            os.remove(leftover)
        except FileNotFoundError:
            pass


def _remove_leftovers(path: str) -> None:
    """Remove the temporary files of `_publish` for `path` that no process builds any more (an
    import killed while it made a new archive left up to 2.4 MB: NAME.db.XXXXXXXX.tmp and its
    -wal, -shm and -journal)."""
    folder = os.path.dirname(path) or "."
    name = re.compile(re.escape(os.path.basename(path)) + r"\.[A-Za-z0-9_]{8}\.tmp(?:-wal|-shm|-journal)?")
    try:
        found = [entry for entry in os.listdir(folder) if name.fullmatch(entry)]
    except OSError:
        return
    for temporary in sorted({os.path.join(folder, entry.rsplit(".tmp", 1)[0] + ".tmp") for entry in found}):
        try:
            handle = os.open(temporary, os.O_RDONLY)
        except FileNotFoundError:
            _remove(temporary)  # SQLite's files of a temporary file that is gone
            continue
        except OSError:
            continue
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            continue  # another process is building it
        else:
            if os.fstat(handle).st_size:  # empty: just made, its maker not yet holding it
                _remove(temporary)
        finally:
            os.close(handle)


def _new(db: sqlite_utils.Database) -> None:
    db.execute("PRAGMA page_size = 16384")  # less room lost at the ends of pages (docs/archive.md, "Size")
    db.execute("PRAGMA auto_vacuum = INCREMENTAL")  # the pages an import's merge frees go back (version 9)
    db.enable_wal()
    create(db)


def create_archive(path: str, fill: Callable[[sqlite_utils.Database], object]) -> bool:
    """Make a new archive at `path` holding what `fill` stores in it, in one step: if `fill`
    fails (a full disk), no file is left. False when another process made an archive there
    meanwhile, which `fill`'s rows are not in. OSError or sqlite3.Error when it cannot be made."""

    def build(db: sqlite_utils.Database) -> None:
        _new(db)
        fill(db)

    return _publish(build, path, replace=False)


def _upgrade(path: str, version: int) -> None:
    """Apply MIGRATIONS to a copy of the archive and replace it: all steps or none."""

    def build(copy: sqlite_utils.Database) -> None:
        source = sqlite3.connect(path)
        try:
            source.backup(copy.conn)
        finally:
            source.close()
        for step in range(version + 1, SCHEMA_VERSION + 1):
            if step in MIGRATIONS:
                MIGRATIONS[step](copy)
        rebuild_replayed(copy)
        copy.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        copy.conn.commit()
        copy.execute("PRAGMA auto_vacuum = INCREMENTAL")  # (as a new archive: set by the VACUUM)
        copy.execute("VACUUM")  # the pages of the tables dropped

    try:
        _publish(build, path, replace=True)
    except (sqlite3.Error, OSError) as error:
        raise NotAnArchive(
            f"{path} is a version {version} archive and could not be upgraded to version "
            f"{SCHEMA_VERSION} ({error}); it was left as it was"
        ) from None


def migrate_to_2(db: sqlite_utils.Database) -> None:
    """Version 2: a record's identity by its canonical content (`hash`, `setting`; records that
    become duplicates of each other are all kept, for `lusoria duplicates` to list), a `label`,
    and `tags` without row ids (`plies` are made anew by `rebuild_replayed`)."""
    from lusoria.archive.identity import recompute  # the validator: loaded only to upgrade

    records = db.table("records")
    records.add_column("setting", str)
    records.add_column("label", str)
    db.execute("DROP INDEX idx_records_hash")
    records.create_index(["hash"])
    db.execute("ALTER TABLE tags RENAME TO old_tags")
    create_tags(db, "tags")
    db.execute("INSERT INTO tags SELECT record_id, name, value FROM old_tags")
    db.execute("DROP TABLE old_tags")
    recompute(db)


MIGRATIONS[2] = migrate_to_2


def open_archive(path: str, create_missing: bool = True) -> sqlite_utils.Database:
    """Open (and, if new, create) an archive; NotAnArchive for any other database. An archive
    made by an older lusoria is upgraded first (MIGRATIONS)."""
    try:
        if create_missing and (not os.path.exists(path) or os.path.getsize(path) == 0):
            try:
                _publish(_new, path, replace=os.path.exists(path))
            except OSError as error:
                raise NotAnArchive(
                    f"cannot create the archive {path}: {(error.strerror or str(error)).lower()}"
                ) from None
        db = _connect(path)
        tables = set(db.table_names())
        version = db.execute("PRAGMA user_version").fetchone()[0]
        if "records" not in tables or not 1 <= version <= SCHEMA_VERSION:
            raise NotAnArchive(
                f"{path} is not a lusoria archive"
                + (" of this version" if "records" in tables and version > SCHEMA_VERSION else "")
            )
        if version < SCHEMA_VERSION:
            db.close()
            _upgrade(path, version)
            db = _connect(path)
    except sqlite3.DatabaseError as error:
        raise NotAnArchive(f"{path} cannot be read as a database: {error}") from None
    return db
