"""The upgrades of an archive made by an older lusoria (`open_archive` applies them to a copy),
and the tables made from replaying each record's text made anew (`rebuild_replayed`)."""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from typing import TYPE_CHECKING

import sqlite_utils

from lusoria.archive.functions import sql_function
from lusoria.archive.next_plies import NextPlies
from lusoria.archive.stored import STORED_TEXT, stored_report
from lusoria.archive.tables import (
    COLUMN_TAGS,
    STORED_COLUMNS,
    add_version_3,
    add_version_3_indexes,
    add_version_8,
    add_version_15,
    add_version_17,
    add_version_18,
    add_version_21,
    add_version_23,
    create_record_indexes,
    create_records,
    create_replayed,
    create_tags,
    create_tags_view,
    create_text_index,
)
from lusoria.archive.texts import TEXT_OF, TextPacker, create_text_dictionaries, create_text_view

if TYPE_CHECKING:
    from lusoria.validator.replay import Report

# MIGRATIONS[n] upgrades a version n-1 archive to version n (any sqlite-utils call may be used:
# it runs on a copy, which replaces the archive only once every step has succeeded). A version
# without an entry changed only tables of REPLAYED, which `rebuild_replayed` makes anew (version 6:
# the keys of positions, made from their boards as they are: archive/positions.py, `key_texts`;
# version 7: `record_boards` compressed with Zstandard, `pack_boards`; version 9 writes them square by square;
# version 11: `next_plies`, the sums of the plies played from the opening positions, archive/next_plies.py;
# version 12: `record_squares` with every piece's bits below 64, Game.piece_bits: a tafl game's 7th piece on share one;
# version 13: `variation_plies` as the replay driver keeps each variation's positions, Report.variation_positions:
# where later plies of a record that leaves out berserk continuations showed that its line went;
# version 14: `positions` keeps its documents' sizes, so that count(*) can scan it: Datasette's counts;
# version 15 also names the keys of a tafl game's positions under a repetition rule as any tafl position's, TaflGame.position_name;
# version 20: a record that lacks only its result marker, or writes a tag twice, replayed: `rebuild_replayed` sets
# its variant, plies and comments, which an older lusoria stored as of a record that does not parse;
# version 24: the `plies` view's `record_id` and `ply` cast as whole numbers, which Datasette's filters find).
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

MIGRATIONS[3] = add_version_3


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


def migrate_to_8(db: sqlite_utils.Database) -> None:
    """Version 8 of an older archive: its full-text index made anew, words stemmed."""
    db.table("records").disable_fts()
    create_text_index(db)
    add_version_8(db)


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
        old = db.table("records").columns_dict  # (`file`: version 15)
        names = ", ".join(f'"{name}"' for name in STORED_COLUMNS if name != "packed_text" and name in old)
        conn.execute(f"INSERT INTO records_v9 ({names}, packed_text) SELECT {names}, lusoria_pack(text) FROM records")
        db.table("records").disable_fts()
        conn.execute("DROP TABLE records")
        conn.execute('ALTER TABLE records_v9 RENAME TO "records"')
        create_record_indexes(db)
        create_text_index(db)
        add_version_3_indexes(db)
        add_version_8(db)
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
MIGRATIONS[15] = add_version_15


def migrate_to_16(db: sqlite_utils.Database) -> None:
    """Version 16: a roster tag written unknown (`?`, a Date `????.??.??`) is NULL, as the tag
    left out (records of the JSON and CSV formats) always was; the full-text index follows by its
    trigger."""
    from lusoria.notation.writer import UNKNOWN

    for tag, column in COLUMN_TAGS.items():
        db.execute(f'UPDATE records SET "{column}" = NULL WHERE "{column}" = ?', [UNKNOWN.get(tag, "?")])


MIGRATIONS[16] = migrate_to_16
MIGRATIONS[17] = add_version_17
MIGRATIONS[18] = add_version_18


def migrate_to_19(db: sqlite_utils.Database) -> None:
    """Version 19: a record of a site's numbered game (its SiteGameId tag) has the identity and setting
    keyed by that number too (`identity.of_site_game`): two of the site's games are never duplicates."""
    from lusoria.archive.identity import SITE_GAME_ID, of_site_game  # the validator: loaded only to upgrade

    numbered = db.execute(
        "SELECT records.id, hash, setting, value FROM records JOIN other_tags ON record_id = records.id WHERE name = ?",
        [SITE_GAME_ID],
    ).fetchall()
    db.conn.executemany(
        "UPDATE records SET hash = ?, setting = ? WHERE id = ?",
        [
            (of_site_game(key, site_game), setting and of_site_game(setting, site_game), record)
            for record, key, setting, site_game in numbered
        ],
    )


MIGRATIONS[19] = migrate_to_19
MIGRATIONS[21] = add_version_21


def _composed(value: str | bytes | int | float | None) -> str | bytes | int | float | None:
    """A text's letters composed (NFC), anything else as it is."""
    return unicodedata.normalize("NFC", value) if isinstance(value, str) else value


def migrate_to_22(db: sqlite_utils.Database) -> None:
    """Version 22: letters composed (NFC), as an import stores them now (`records_as_rows.known`):
    the roster columns and the names of `player_aliases` an older lusoria stored with combining marks
    (as some Mac files write names), an alias made the name it is of removed (as `players.merge` removes
    it); the warnings of such a name removed with their count (its record replays without them: it would
    be said to replay otherwise than its import); and the identity of a record whose text is not composed,
    or may not be (a JSON escape), made anew (`identity`: its roster compared composed), so that it is the
    same game as one typed."""
    from lusoria.archive.identity import identity  # the validator: loaded only to upgrade

    conn = db.conn
    conn.create_function("lusoria_composed", 1, _composed, deterministic=True)
    for column in COLUMN_TAGS.values():
        composed = f'lusoria_composed("{column}")'
        conn.execute(f'UPDATE records SET "{column}" = {composed} WHERE "{column}" IS NOT {composed}')
    conn.execute("UPDATE OR IGNORE player_aliases SET alias = lusoria_composed(alias), name = lusoria_composed(name)")
    conn.execute("DELETE FROM player_aliases WHERE alias IS NOT lusoria_composed(alias) OR alias = name")
    composed_names = (  # the warnings an older validate gave of such a name, which the archive stores as typed now
        "rule = 'tag' AND severity = 'warning' AND (message LIKE '% writes its accents as combining marks (Unicode NFD): "
        "the archive counts it apart from %' OR message LIKE '% has characters that Unicode''s normal form (NFC) writes "
        "otherwise: the archive counts it apart from %')"
    )
    conn.execute(
        f"UPDATE records SET warnings = warnings - (SELECT count(*) FROM diagnostics WHERE record_id = records.id AND "
        f"{composed_names}) WHERE id IN (SELECT record_id FROM diagnostics WHERE {composed_names})"
    )
    conn.execute(f"DELETE FROM diagnostics WHERE {composed_names}")
    keys = []
    for record, *stored in conn.execute(f"SELECT records.id, {STORED_TEXT} FROM records"):  # (one text at a time)
        text = stored[0]
        if unicodedata.is_normalized("NFC", text) and "\\u" not in text:
            continue
        report = stored_report(*stored)
        if report is not None:
            found = identity(report)
            keys.append((found.key, found.setting, record))
    conn.executemany("UPDATE records SET hash = ?, setting = ? WHERE id = ?", keys)


MIGRATIONS[22] = migrate_to_22
MIGRATIONS[23] = add_version_23


def migrate_to_25(db: sqlite_utils.Database) -> None:
    """Version 25: a record read with a syntax error is keyed by the words its errors stand at too (`identity`: an aagenielsen.dk
    game whose `WhoWon` names no side was the same game as its mending, which an import then skipped, h79a);
    the others keep their keys, and so does one stored unparsable."""
    _keyed_anew(db, f"records.id IN ({_DIAGNOSED} WHERE rule = 'syntax')")


MIGRATIONS[25] = migrate_to_25


def migrate_to_26(db: sqlite_utils.Database) -> None:
    """Version 26: a ply's mark of the game's end (Latrunculi's `#`, a suffix) takes no part in its record's key
    (`Game.ply_identity`: h80a, the same game with and without it was two games, `duplicates` said none); the
    records whose text holds a `#` are keyed anew, the others keep their keys."""
    _keyed_anew(db, f"instr({TEXT_OF}, '#')")


MIGRATIONS[26] = migrate_to_26


def _keyed_anew(db: sqlite_utils.Database, chosen: str) -> None:
    """Key anew (`identity`) the records the SQL condition `chosen` selects of those stored read (one stored
    unparsable keeps its text's key and no setting, game NULL as it is stored, though a reader now reads it
    whole: review79b, next_plies then refused the upgrade)."""
    from lusoria.archive.identity import identity  # the validator: loaded only to upgrade

    keys = []
    selected = f"SELECT records.id, {STORED_TEXT} FROM records WHERE records.setting IS NOT NULL AND {chosen}"
    for record, *stored in db.conn.execute(selected).fetchall():
        report = stored_report(*stored)
        if report is not None:
            found = identity(report)
            keys.append((found.key, found.setting, record))
    db.conn.executemany("UPDATE records SET hash = ?, setting = ? WHERE id = ?", keys)


# Each record's text, and the format of one kept as written in another (archive/stored.py); its
# verdict, ending and place; and the diagnostics its import found
_STORED = f"SELECT records.id, {STORED_TEXT}, valid, ending, path, line, game FROM records ORDER BY records.id"
_DIAGNOSED = "SELECT DISTINCT record_id FROM diagnostics"
_FOUND = "SELECT severity, rule, ply FROM diagnostics WHERE record_id = ? ORDER BY number"
Misread = tuple[int, str | None, int]  # a record's id, path (None: imported from no file) and line


def _read_as_imported(db: sqlite_utils.Database, record: int, valid: int, report: Report) -> bool:
    """Whether a stored record's replay finds the verdict and the diagnostics (severity, rule, ply:
    their wording is the lusoria's that found them) its import found."""
    found = [(d.severity, d.rule, d.ply) for d in report.diagnostics]
    return report.valid == valid and found == db.execute(_FOUND, [record]).fetchall()


def rebuild_replayed(db: sqlite_utils.Database, batch: int = 1000) -> list[Misread]:
    """Make the tables of REPLAYED anew, and each record's `ending`, `rule_tags`, `board`, `variant`, `plies`
    and `comments` (a record an older lusoria stored unparsable, lacking only its result marker), from each
    record's stored text, replayed once as an import does (archive/importer.py): one kept as written
    in another format is read in that format (a refused aagenielsen.dk game read as lgn was unfinished
    after an upgrade and unknown after an import; a G5 capture it leaves out of its list, valid).
    The records whose text is not checked again to the verdict and diagnostics their import found
    (one an older lusoria stored as lgn, a G5 capture lost) keep their ending, and are returned; so are those
    stored as no game's that a reader now reads as one's, which keep what their import stored."""
    from lusoria.archive.endings import ending  # the validator: loaded only to upgrade
    from lusoria.archive.importer import MoveCodes, insert_child_rows, merge_positions
    from lusoria.archive.records_as_rows import board, comments_column, replayed_rows, rule_tags

    kinds = dict(db.execute("SELECT name, type FROM sqlite_master WHERE type IN ('table', 'view')").fetchall())
    for name in REPLAYED:
        if name in kinds:
            db.execute(f"DROP {kinds[name].upper()} [{name}]")
    create_replayed(db)
    codes, sums = MoveCodes(db.conn), NextPlies(db.conn)
    tables: dict[str, list] = {}
    replayed: list[tuple[str, str | None, str | None, str | None, int, int]] = []
    commented: list[tuple[str | None, int, str | None]] = []
    diagnosed, misread = {found for (found,) in db.execute(_DIAGNOSED).fetchall()}, []
    for number, (record, *stored, valid, ended, path, line, game) in enumerate(db.execute(_STORED).fetchall(), 1):
        report = stored_report(*stored)
        if report is None:
            continue  # (an unparsable CSV row, read only with its file: its columns and rows stay as its import made them)
        if game is None and report.rules is not None:  # (stored as no game's, read as one now, a reader mended since:
            misread.append((record, path, line))  # its rows stay as its import made them, review79b: the move tree's
            continue  # sums met its game NULL and the upgrade failed)
        if (record in diagnosed or report.diagnostics) and not _read_as_imported(db, record, valid, report):
            misread.append((record, path, line))  # (its ending kept: its replay's is not its import's)
        else:
            ended = None
        replayed.append(
            (ended or ending(report), rule_tags(report), board(report), report.variant, report.plies, record)
        )
        said = comments_column(report)
        commented.append((said, record, said))
        for table, found in replayed_rows(report).items():
            tables.setdefault(table, []).append((record, found))
        if number % batch == 0:
            insert_child_rows(db.conn, tables, codes, sums)
            tables = {}
    insert_child_rows(db.conn, tables, codes, sums)
    db.conn.executemany(
        "UPDATE records SET ending = ?, rule_tags = ?, board = ?, variant = ?, plies = ? WHERE id = ?", replayed
    )
    db.conn.executemany("UPDATE records SET comments = ? WHERE id = ? AND comments IS NOT ?", commented)  # (reindexed)
    merge_positions(db.conn)
    return misread
