"""The plies of a record's variations (schema version 4), for `lusoria tree --variations`:
one row per variation ply (in canonical form), from the position it was played in to the
position it led to.
A variation is replayed from the position before the ply it replaces, as far as its plies
are legal (its first illegal ply, and the plies after it, have no position: they are left out)."""

from __future__ import annotations

from collections.abc import Callable
from operator import attrgetter

import sqlite_utils

from lusoria.archive.positions import Columns, columns, position_key
from lusoria.notation.model import Line, Ply
from lusoria.notation.visitor import PlyKey, Visitor, walk
from lusoria.validator.base import Game, Illegal, Position
from lusoria.validator.replay import Report

VARIATIONS = attrgetter("variations")  # of a ply
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


class _VariationPlies(Visitor):
    """The rows of `variation_plies` (without the record id), from one walk of the record:
    each variation replayed from the position before the ply it replaces, as far as its plies
    are legal and the game goes on (then its lines go dead: None); each position as `describe`
    gives it (its key, or its string)."""

    def __init__(self, rules: Game, main: list[Position], describe: Callable[[Game, Position], object]) -> None:
        self.rules, self.main, self.key = rules, main, describe
        self.lines: list[list[Position | None]] = []  # per open line: [its position now, the one before its last ply]
        self.rows: list[list] = []

    def begin_line(self, line: Line, number: int) -> None:
        start = self.lines[-1][1] if self.lines else None  # the position before the ply it replaces
        self.lines.append([start, start])

    def end_line(self, line: Line, number: int) -> None:
        self.lines.pop()

    def visit_ply(self, ply: Ply, number: int, key: PlyKey) -> None:
        state = self.lines[-1]
        line, index = key
        if line == 0:
            state[1] = self.main[index] if index < len(self.main) else None
            return
        before = state[1] = state[0]
        if before is None:
            return
        try:
            played = self.rules.play(before, ply.text)
        except Illegal:
            state[0] = state[1] = None
            return
        state[0] = played.position if played.outcome is None else None
        self.rows.append(
            [line, number - 1, self.key(self.rules, before), self.key(self.rules, played.position), played.text]
        )


def variation_rows(report: Report, describe: Callable[[Game, Position], object] = position_key) -> Columns:
    """The rows of `variation_plies` of one checked record (archive/positions.py: Columns): each
    ply in canonical form, from the position it was played in to the one it led to, as `describe`
    gives them (their keys, by default)."""
    rules, record = report.rules, report.record
    if rules is None or record is None or not any(map(VARIATIONS, record.main.plies)):
        return []
    found = _VariationPlies(rules, report.positions, describe)
    walk(record, found)
    return columns(found.rows)
