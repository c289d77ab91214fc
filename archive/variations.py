"""The plies of a record's variations (schema version 4), for `lusoria tree --variations`:
one row per variation ply, from the position it was played in to the position it led to.
A variation is replayed from the position before the ply it replaces, as far as its plies
are legal (its first illegal ply, and the plies after it, have no position: they are left out)."""

from __future__ import annotations

from collections import deque
from typing import Iterator

import sqlite_utils

from lusoria.notation.model import Line, Ply
from lusoria.validator.base import Game, Illegal, Position
from lusoria.validator.replay import Report, check

COLUMNS = ["record_id", "line", "ply", "position", "next", "text"]


def create_variation_plies(db: sqlite_utils.Database) -> None:
    """`variation_plies`: one b-tree ordered by the position a ply was played in, what the tree
    looks up (`line`: the variation's number in the record, in the order they are written;
    `ply`: the ply number of `position`, 0 for the start)."""
    db.execute("""CREATE TABLE "variation_plies" (
   "record_id" INTEGER REFERENCES "records"("id"),
   "line" INTEGER NOT NULL,
   "ply" INTEGER NOT NULL,
   "position" INTEGER NOT NULL,
   "next" INTEGER NOT NULL,
   "text" TEXT NOT NULL,
   PRIMARY KEY ("position", "record_id", "line", "ply")
) WITHOUT ROWID""")


def _replayed(rules: Game, line: Line, position: Position, first: int) -> Iterator[tuple[int, Position, Position, Ply]]:
    """(ply number, position before, position after, the ply) of each legal ply of `line`,
    whose first ply is number `first` and is played from `position`."""
    for number, ply in enumerate(line.plies, first):
        try:
            played = rules.play(position, ply.text)
        except Illegal:
            return
        yield number, position, played.position, ply
        if played.outcome is not None:
            return
        position = played.position


def variation_rows(report: Report) -> list[list]:
    """The rows of `variation_plies` of one checked record, its record id (the first column)
    left to fill in."""
    from lusoria.archive.importer import position_key

    rules, record = report.rules, report.record
    if rules is None or record is None:
        return []
    # (a variation, the position before its first ply, that ply's number): the main line's
    # positions are the report's, the variations' are replayed here
    pending = deque((variation, report.positions[number - 1], number)
                    for number, ply in enumerate(record.main.plies[:len(report.positions)], 1)
                    for variation in ply.variations)
    found: list[list] = []
    lines = 0
    while pending:
        line, start, first = pending.popleft()
        lines += 1
        for number, before, after, ply in _replayed(rules, line, start, first):
            found.append([None, lines, number - 1, position_key(rules, before), position_key(rules, after), ply.text])
            pending.extend((variation, before, number) for variation in ply.variations)
    return found


def fill_variations(db: sqlite_utils.Database, batch: int = 1000) -> None:
    """Fill `variation_plies` from the texts of the records of an archive made before version 4
    (only the records whose text may hold a variation are replayed)."""
    rows: list[list] = []
    for record, text in db.execute("SELECT id, text FROM records WHERE instr(text, '(') ORDER BY id"):
        for row in variation_rows(check(text)):
            rows.append([record, *row[1:]])
        if len(rows) >= batch:
            insert_variation_plies(db, rows)
            rows = []
    insert_variation_plies(db, rows)


def insert_variation_plies(db: sqlite_utils.Database, rows: list[list]) -> None:
    db.conn.executemany(f"INSERT INTO variation_plies ({', '.join(COLUMNS)}) VALUES "
                        f"({', '.join('?' * len(COLUMNS))})", rows)
