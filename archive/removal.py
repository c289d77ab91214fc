"""What `import --replace` removes before it adds a file's records as they are now: the records
the archive holds from each file the import reads (`Replacement`), and every row of theirs in
every table (`remove_records`), so that the archive is as if they had never been imported."""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Iterable
from itertools import islice
from typing import TYPE_CHECKING

from lusoria.archive.positions import boards_and_materials, unpacked_boards
from lusoria.archive.records_as_rows import Rows, line_rows
from lusoria.notation.sources import names_a_file
from lusoria.validator.replay import Report, check

if TYPE_CHECKING:
    from lusoria.archive.importer import MoveCodes
    from lusoria.archive.next_plies import NextPlies

CHUNK = 1000  # records replayed and removed at a time


def same_file(path: str) -> str:
    """What a record's `path` is compared by: the path made absolute from the current directory."""
    return os.path.abspath(path)


class Replacement:
    """The records an import replaces, by file: those the archive held, before the import, from
    each file it reads (the `path` of a record, compared by `same_file`; `<stdin>` is none), taken
    once; and the records read that are the same games as records of files not read yet (`set_aside`)."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn
        self.held: dict[str, list[int]] | None = None
        self.pending: set[int] = set()  # the records held from files not taken yet
        self.aside: dict[int, Rows] = {}  # by the id of the record of the same game they wait for

    def take(self, paths: Iterable[str | None]) -> tuple[list[int], int]:
        """The ids of the records held from the files `paths` not taken before, and how many of
        those files held some (the archive is read at the first call, in its transaction)."""
        if self.held is None:
            self.held = {}
            for record, path in self.conn.execute("SELECT id, path FROM records WHERE path IS NOT NULL"):
                if names_a_file(path):
                    self.held.setdefault(same_file(path), []).append(record)
                    self.pending.add(record)
        taken = [self.held.pop(same_file(path), []) for path in dict.fromkeys(paths) if path]
        removed = [record for records in taken for record in records]
        self.pending.difference_update(removed)  # (their ids may be given again to records added)
        return removed, sum(map(bool, taken))

    def set_aside(self, checked: Rows, same_game: int | None) -> bool:
        """Keep a record read that is the same game as the archive's record `same_game` (None: one
        of this import), when that record is held from a file not read yet (the first such record
        of it): whether it was kept. It is stored if that file's batch removes `same_game`
        (`returned`), as a new import of the files would store it; else it is a duplicate (`left_aside`)."""
        if same_game not in self.pending or same_game in self.aside:
            return False
        self.aside[same_game] = checked
        return True

    def returned(self, removed: list[int]) -> list[Rows]:
        """The records set aside for records `removed`: new now."""
        return [self.aside.pop(record) for record in removed if record in self.aside]

    def left_aside(self) -> int:
        """How many records set aside were never returned (duplicates of records kept)."""
        return len(self.aside)


def remove_records(
    conn: sqlite3.Connection, ids: list[int], tables: Iterable[str], codes: MoveCodes, sums: NextPlies
) -> None:
    """Remove the records `ids` and their rows of `tables` (those with a `record_id`), `records_fts`
    (by its trigger), `positions` (a contentless index: each record's row as it was inserted, made
    again by replaying its text, as an upgrade makes it: `line_rows`) and the sums of `next_plies`
    (their plies taken off). A record whose text replays otherwise than its import stored it (its
    boards differ: a board spelled out is the whole position) is taken out of `positions` by the
    terms the index holds of it, and the positions it may have been summed up in are summed again."""
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
    stored = dict(
        conn.execute("SELECT record_id, boards FROM record_boards WHERE record_id IN (SELECT id FROM temp.removed)")
    )
    replayed = {
        record: rows
        for record, report in reports.items()
        if (rows := line_rows(report)) and _as_stored(report, stored.get(record))
    }
    lines = {record: rows["positions"][1][0] for record, rows in replayed.items()}
    plies = [(record, rows["next_plies"]) for record, rows in replayed.items()]
    dated = sums.subtract(plies, lines, codes.codes)
    documents = {record: codes.document(rows["positions"][0][0], lines[record]) for record, rows in replayed.items()}
    astray = _terms(conn, stored.keys() - replayed.keys())
    documents.update({record: " ".join(term for _, term in terms) for record, terms in astray.items()})
    conn.executemany("INSERT INTO positions (positions, rowid, plies) VALUES ('delete', ?, ?)", documents.items())
    for table in tables:
        if table != "positions":
            conn.execute(f"DELETE FROM [{table}] WHERE record_id IN (SELECT id FROM temp.removed)")
    conn.execute("DELETE FROM records WHERE id IN (SELECT id FROM temp.removed)")
    openings = {terms[0] for _, (_, opening) in plies for terms in opening}
    sums.resum(openings, dated | sums.reached([term for terms in astray.values() for term in terms]))


def _as_stored(report: Report, packed: bytes | None) -> bool:
    """Whether a record's replay reached the positions its import stored (`packed`: its boards)."""
    if packed is None or report.rules is None:
        return False
    boards, _ = boards_and_materials(report.rules, report.positions)
    return b"\n".join(boards).decode() == unpacked_boards(packed)


def _terms(conn: sqlite3.Connection, records: set[int]) -> dict[int, list[tuple[int, str]]]:
    """The terms `positions` holds of `records`, each with its ply, in ply order (the index read
    whole: few records replay otherwise than they were stored)."""
    if not records:
        return {}
    found: dict[int, list[tuple[int, str]]] = {}
    for record, ply, term in conn.execute(
        "SELECT doc, offset, term FROM position_plies WHERE doc IN (SELECT id FROM temp.removed)"
    ):
        if record in records:
            found.setdefault(record, []).append((ply, term))
    return {record: sorted(terms) for record, terms in found.items()}
