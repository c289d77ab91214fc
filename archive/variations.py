"""The plies of a record's variations (schema version 4), for `lusoria tree --variations`:
one row per variation ply (in canonical form), from the position it was played in to the
position it led to, as the replay driver kept them (`Report.variation_positions`): a variation
starts from the position before the ply it replaces, as the later plies of its line showed it
(a tafl record that leaves out berserk continuations, `Played.earlier`), and goes as far as its
plies are legal (its first illegal ply, and the plies after it, have no position: they are left out)."""

from __future__ import annotations

from collections.abc import Callable

import sqlite_utils

from lusoria.archive.positions import Columns, columns, position_key
from lusoria.notation.model import Ply
from lusoria.notation.visitor import PlyKey, Visitor, walk
from lusoria.validator.base import Game, Position
from lusoria.validator.replay import Report

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
    """The rows of `variation_plies` (without the record id), from one walk of the record: each
    ply of a variation whose position after it the driver kept, with the one before it, each as
    `describe` gives it (its key, or its string)."""

    def __init__(self, rules: Game, report: Report, describe: Callable[[Game, Position], object]) -> None:
        self.rules, self.kept, self.canonical, self.key = rules, report.variation_positions, report.canonical, describe
        self.rows: list[list] = []

    def visit_ply(self, ply: Ply, number: int, key: PlyKey) -> None:
        line, index = key
        positions = self.kept.get(line, []) if line else []
        if index + 1 < len(positions):
            before, after = self.key(self.rules, positions[index]), self.key(self.rules, positions[index + 1])
            self.rows.append([line, number - 1, before, after, self.canonical[key]])


def variation_rows(report: Report, describe: Callable[[Game, Position], object] = position_key) -> Columns:
    """The rows of `variation_plies` of one checked record (archive/positions.py: Columns): each
    ply in canonical form, from the position it was played in to the one it led to, as `describe`
    gives them (their keys, by default)."""
    if report.rules is None or report.record is None or not report.variation_positions:
        return []
    found = _VariationPlies(report.rules, report, describe)
    walk(report.record, found)
    return columns(found.rows)
