"""The archive's tables, views, indexes and full-text index, as a new archive has them and as
the upgrades make them (archive/migrations.py). docs/archive.md shows the CREATE statements."""

from __future__ import annotations

import sqlite_utils

from lusoria.archive.next_plies import create_next_plies
from lusoria.archive.players import create_players
from lusoria.archive.positions import create_positions, create_record_summaries
from lusoria.archive.texts import create_text_dictionaries, create_text_view
from lusoria.archive.variations import create_variation_plies
from lusoria.source_tags import SOURCE_FORMAT

FTS_COLUMNS = ["white", "black", "event", "site", "sources", "comments"]
# A record's label, how Datasette names it (identity.label): `White – Black, Date` (`?` for a
# missing player; no date when its year is unknown)
LABEL = (
    "coalesce(nullif(\"white\", ''), '?') || ' – ' || coalesce(nullif(\"black\", ''), '?') || "
    "CASE WHEN \"date\" GLOB '[0-9]*' AND substr(\"date\", 1, 4) NOT GLOB '*[^0-9]*' THEN ', ' || \"date\" "
    "ELSE '' END"
)
# The columns of `records`, each with its declaration (version 9: the text compressed, archive/texts.py,
# read by the view record_texts; the label generated), and those an import writes (all but `label`)
RECORD_COLUMNS = {
    "id": "INTEGER PRIMARY KEY",
    "hash": "TEXT NOT NULL",
    "game": "TEXT",
    "variant": "TEXT",
    "event": "TEXT",
    "site": "TEXT",
    "date": "TEXT",
    "round": "TEXT",
    "white": "TEXT",
    "black": "TEXT",
    "result": "TEXT",
    "date_from": "TEXT",
    "date_to": "TEXT",
    "plies": "INTEGER",
    "valid": "INTEGER NOT NULL",
    "errors": "INTEGER",
    "warnings": "INTEGER",
    "first_rule": "TEXT",
    "first_ply": "INTEGER",
    "path": "TEXT",
    "line": "INTEGER",
    "sources": "TEXT",
    "comments": "TEXT",
    "setting": "TEXT",
    "label": f"TEXT AS ({LABEL})",
    "ending": "TEXT",
    "rule_tags": "TEXT",
    "packed_text": "BLOB NOT NULL",
    "file": "TEXT",  # version 15
    "board": "TEXT",  # version 17
    # version 18: the format a record's text is kept in, as written, when its text in lusoria's notation
    # would not be checked again as its import checked it (its reader refused it or could not parse it;
    # a site's capture list the notation has no place for: records_as_rows._text_to_keep), read so by
    # archive/stored.py; NULL: lusoria's notation
    "written_in": "TEXT",
    # version 21: the encoding of the import that stored it, or of the last `import --replace` that kept it, when
    # another than UTF-8 (NULL: UTF-8, or stored before version 21 and kept by none since), which a later import
    # of its file reads it with when it does not decode as UTF-8 (importer.py)
    "encoding": "TEXT",
}
STORED_COLUMNS = [name for name, declaration in RECORD_COLUMNS.items() if " AS (" not in declaration]
# The tags a record's columns keep as written, by column (`result` holds the movetext's result):
# not written again in `other_tags` (schema version 10)
COLUMN_TAGS = {tag: tag.lower() for tag in ("Event", "Site", "Date", "Round", "White", "Black")}
DIAGNOSTIC_COLUMNS = {  # of `diagnostics`, with their types: as an import writes them
    "record_id": int,
    "number": int,
    "severity": str,
    "rule": str,
    "message": str,
    "ply": int,
    "text": str,
    "line": int,
    "column": int,
}


def create_tables(db: sqlite_utils.Database) -> None:
    """The tables, views, indexes and full-text index of a new archive (`schema.create`)."""
    create_records(db)
    create_record_ids(db)
    create_tags(db)
    create_tags_view(db)
    db.table("diagnostics").create(
        DIAGNOSTIC_COLUMNS,
        pk=("record_id", "number"),
        foreign_keys=[("record_id", "records", "id")],
    )
    create_record_indexes(db)
    db.table("diagnostics").create_index(["rule", "record_id"])
    create_text_index(db)
    add_version_3(db)
    add_version_8(db)
    add_version_17(db)
    add_version_23(db)
    create_text_dictionaries(db)
    create_text_view(db)
    create_replayed(db)


def create_records(db: sqlite_utils.Database, name: str = "records") -> None:
    """The table `records` (version 9), or one like it under another name (`migrate_to_9`)."""
    columns = ",\n   ".join(f'"{column}" {declaration}' for column, declaration in RECORD_COLUMNS.items())
    db.execute(f'CREATE TABLE "{name}" (\n   {columns}\n)')


def create_tags(db: sqlite_utils.Database, name: str = "other_tags") -> None:
    """`other_tags`, every tag but those the records' columns keep (COLUMN_TAGS), one
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
    (COLUMN_TAGS) read from them, the others from `other_tags`."""
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


def add_version_23(db: sqlite_utils.Database) -> None:
    """Version 23: each side's names' index holds the other side's name too, so that the score table
    tells a game of a player against themselves, which it counts in no total, from the index alone."""
    for side, other in (("white", "black"), ("black", "white")):
        db.execute(f"DROP INDEX idx_records_{side}_nocase")
        db.execute(f"CREATE INDEX idx_records_{side}_nocase ON records ({side} COLLATE NOCASE, result, {other})")


def create_record_indexes(db: sqlite_utils.Database) -> None:
    """The indexes of `records` of version 1 (those of names and results a side: `add_version_8`),
    but `date_from`'s: since version 9 the index in date order serves `--date-to` (query._date)."""
    records = db.table("records")
    records.create_index(["hash"])
    for columns in (["game", "variant"], ["result"], ["valid"], ["date_to"], ["first_rule"]):
        records.create_index(columns)
    for column in ("white", "black", "event", "site"):
        db.execute(f"CREATE INDEX idx_records_{column}_nocase ON records ({column} COLLATE NOCASE)")


def add_version_3(db: sqlite_utils.Database) -> None:
    """Version 3 (issue 16): player aliases, an index of the records in date order, and the
    rules."""
    create_players(db)
    create_rules(db)
    add_version_3_indexes(db)


def add_version_3_indexes(db: sqlite_utils.Database) -> None:
    # records in the order query lists them: a search within plies stops at its first matches
    db.execute("CREATE INDEX idx_records_date_order ON records (date_from IS NULL, date_from)")


def create_rules(db: sqlite_utils.Database) -> None:
    """The rules that diagnostics cite, with their texts (`lusoria explain`), so that a rule ID
    explains itself in SQL and in Datasette (`diagnostics.rule` refers to `rules.id`)."""
    from lusoria.rulebook import rules  # the rules' texts: loaded only to create or upgrade

    db.table("rules").insert_all(
        ({"id": rule.id, "game": rule.game, "title": rule.title, "text": rule.text} for rule in rules()), pk="id"
    )


def add_version_15(db: sqlite_utils.Database) -> None:
    """Version 15: each record's `file`, the real path of the file it was read from, by which
    `import --replace` finds a file's records from any directory (NULL in the records stored before:
    their `path` stands for it, made real from the current directory)."""
    if "file" not in db.table("records").columns_dict:  # a new archive has it
        db.execute("ALTER TABLE records ADD COLUMN file TEXT")


def add_version_17(db: sqlite_utils.Database) -> None:
    """Version 17: each record's `board`, the size of the board its rules start on (`11x11`),
    which `--board` searches in its index (filled in by `rebuild_replayed`)."""
    if "board" not in db.table("records").columns_dict:  # a new archive has it
        db.execute("ALTER TABLE records ADD COLUMN board TEXT")
    db.execute("CREATE INDEX IF NOT EXISTS idx_records_board ON records (board)")


def add_version_18(db: sqlite_utils.Database) -> None:
    """Version 18: each record's `written_in`, the format its text is kept in when not lusoria's
    notation: before, only a record its reader refused or could not parse (no `setting`) was kept so."""
    if "written_in" not in db.table("records").columns_dict:  # (an upgrade from before version 9 has it)
        db.execute("ALTER TABLE records ADD COLUMN written_in TEXT")
    db.execute(
        "UPDATE records SET written_in = (SELECT value FROM other_tags WHERE record_id = records.id AND "
        f"name = '{SOURCE_FORMAT}') WHERE setting IS NULL"
    )


def add_version_21(db: sqlite_utils.Database) -> None:
    """Version 21: each record's `encoding`, that of the import that stored it when another than UTF-8
    (NULL in the records stored before: not known); `record_ids`, from the archive's highest id (the ids
    of records removed above it before were given again: they may be)."""
    if "encoding" not in db.table("records").columns_dict:  # (an upgrade from before version 9 has it)
        db.execute("ALTER TABLE records ADD COLUMN encoding TEXT")
    create_record_ids(db)


def create_record_ids(db: sqlite_utils.Database) -> None:
    """`record_ids` (version 21): one row, the `last` id given to a record, which an import numbers its records
    after (importer.py), so that the id of a record removed is never given again: a link to it (Datasette's,
    the explorer's) or an id noted finds no other game."""
    db.execute('CREATE TABLE IF NOT EXISTS "record_ids" ("last" INTEGER NOT NULL)')
    db.execute(
        "INSERT INTO record_ids SELECT coalesce(max(id), 0) FROM records WHERE NOT EXISTS (SELECT * FROM record_ids)"
    )


def add_version_8(db: sqlite_utils.Database) -> None:
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
