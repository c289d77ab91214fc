"""What `import --replace` removes before it adds a file's records as they are now: the records
the archive holds from each file the import reads (`Replacement`), and every row of theirs in
every table (`remove_records`), so that the archive is as if they had never been imported."""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Iterable
from itertools import islice
from typing import TYPE_CHECKING

from lusoria.archive.positions import search_terms
from lusoria.archive.records_as_rows import line_rows
from lusoria.validator.replay import check

if TYPE_CHECKING:
    from lusoria.archive.importer import MoveCodes
    from lusoria.archive.next_plies import NextPlies

CHUNK = 1000  # records replayed and removed at a time


def same_file(path: str) -> str:
    """What a record's `path` is compared by: the path made absolute from the current directory."""
    return os.path.abspath(path)


class Replacement:
    """The records an import replaces, by file: those the archive held, before the import, from
    each file it reads (the `path` of a record, compared by `same_file`), taken once."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn
        self.held: dict[str, list[int]] | None = None

    def take(self, paths: Iterable[str | None]) -> tuple[list[int], int]:
        """The ids of the records held from the files `paths` not taken before, and how many of
        those files held some (the archive is read at the first call, in its transaction)."""
        if self.held is None:
            self.held = {}
            for record, path in self.conn.execute("SELECT id, path FROM records WHERE path IS NOT NULL"):
                self.held.setdefault(same_file(path), []).append(record)
        taken = [self.held.pop(same_file(path), []) for path in dict.fromkeys(paths) if path]
        return [record for records in taken for record in records], sum(map(bool, taken))


def remove_records(
    conn: sqlite3.Connection, ids: list[int], tables: Iterable[str], codes: MoveCodes, sums: NextPlies
) -> None:
    """Remove the records `ids` and their rows of `tables` (those with a `record_id`), `records_fts`
    (by its trigger), `positions` (a contentless index: each record's row as it was inserted, made
    again by replaying its text, as an upgrade makes it: `line_rows`) and the sums of `next_plies`."""
    conn.execute("CREATE TEMP TABLE IF NOT EXISTS removed (id INTEGER PRIMARY KEY)")
    chunks = iter(ids)
    while chunk := list(islice(chunks, CHUNK)):
        conn.executemany("INSERT INTO temp.removed VALUES (?)", [[record] for record in chunk])
        _remove(conn, tables, codes, sums)
        conn.execute("DELETE FROM temp.removed")


def _remove(conn: sqlite3.Connection, tables: Iterable[str], codes: MoveCodes, sums: NextPlies) -> None:
    """`remove_records` of the records in temp.removed."""
    reports = {
        record: check(text)
        for record, text in conn.execute("SELECT id, text FROM record_texts WHERE id IN (SELECT id FROM temp.removed)")
    }
    replayed = {record: rows for record, report in reports.items() if (rows := line_rows(report))}
    lines = {record: rows["positions"][1][0] for record, rows in replayed.items()}
    plies = [(record, rows["next_plies"]) for record, rows in replayed.items()]
    dated = sums.subtract(plies, lines, codes.codes)
    conn.executemany(
        "INSERT INTO positions (positions, rowid, plies) VALUES ('delete', ?, ?)",
        [(record, codes.document(rows["positions"][0][0], lines[record])) for record, rows in replayed.items()],
    )
    for table in tables:
        if table != "positions":
            conn.execute(f"DELETE FROM [{table}] WHERE record_id IN (SELECT id FROM temp.removed)")
    conn.execute("DELETE FROM records WHERE id IN (SELECT id FROM temp.removed)")
    places = {
        key: (rules, position)
        for record, (keys, _) in plies
        if (rules := reports[record].rules)
        for key, position in zip(keys, reports[record].positions)
    }
    openings = [terms for _, (_, opening) in plies for terms in opening]
    sums.resum(openings, dated, lambda key: search_terms(*places[key]))
