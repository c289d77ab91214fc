"""The move tree (`lusoria tree`): from a position, every next ply the archive's records
played, with how the games went. Positions are compared by key, so transpositions count:
a game that reached the position by another order of plies is counted too."""

from __future__ import annotations

import re
import sqlite3
import statistics
from collections import defaultdict
from dataclasses import dataclass, field
from functools import lru_cache

RESULTS = {"1-0": "white", "1/2-1/2": "draws", "0-1": "black"}

# (position, next position, the ply's text, the ply number of the position, record id) of the
# main lines' plies from positions {keys} (each row of plies holds them), and with {variations}
# those of variations
MAIN_PLIES = """
SELECT position, next, next_text, ply, record_id FROM plies WHERE position IN ({keys}) AND next IS NOT NULL"""
VARIATION_PLIES = """
UNION ALL SELECT position, next, text, ply, record_id FROM variation_plies WHERE position IN ({keys})"""
NEXT_PLIES = """
SELECT e.*, r.result, r.date_from, r.date_to, r.game FROM ({main}{variations}) e JOIN records r ON r.id = e.record_id
{only}"""


@dataclass
class Node:
    """A ply played from a position, and what followed it."""

    ply: str  # as most often written
    position: int  # the key of the position it led to
    games: int = 0
    white: int = 0  # games won by White
    draws: int = 0
    black: int = 0
    unfinished: int = 0  # result * (or none)
    average_ply: float = 0.0  # the mean ply number of this ply in those games
    first: str | None = None  # the earliest date a game may have been played (ISO)
    last: str | None = None
    children: list["Node"] = field(default_factory=list)

    def as_dict(self) -> dict:
        row = {name: getattr(self, name) for name in
               ("ply", "games", "white", "draws", "black", "unfinished", "average_ply", "first", "last")}
        if self.children:
            row["children"] = [child.as_dict() for child in self.children]
        return row


_DICE = re.compile(r"\s*([1-6])-?([1-6])")


@lru_cache(maxsize=4096)  # a tree reads the same turns many times
def _roll(text: str) -> str:
    """The roll of a Laquet turn as written, higher die first (`46: 5/11 4/8`: `64`)."""
    dice = _DICE.match(text)
    return "".join(sorted(dice.groups(), reverse=True)) if dice else ""


def _level(conn: sqlite3.Connection, keys: list[int], only: tuple[str, list] | None,
           variations: bool) -> dict[int, list[Node]]:
    """The next plies from each of `keys`, most played first."""
    marks = ", ".join("?" * len(keys))
    sql = NEXT_PLIES.format(main=MAIN_PLIES.format(keys=marks),
                            variations=VARIATION_PLIES.format(keys=marks) if variations else "",
                            only=f"WHERE e.record_id IN ({only[0]})" if only else "")
    groups: dict[int, dict[tuple, list]] = defaultdict(lambda: defaultdict(list))
    for row in conn.execute(sql, keys * (1 + variations) + (only[1] if only else [])):
        # (parent, child, text, ply, record, result, date_from, date_to, game): two next plies are
        # the same when they lead to the same position, and for Laquet have the same roll too (a
        # Laquet position does not hold the roll: the tree lists the plays of each roll)
        groups[row[0]][row[1], _roll(row[2]) if row[8] == "laquet" else ""].append(row)
    found = {}
    for parent, plies in groups.items():
        nodes = []
        for (child, _), rows in plies.items():
            texts = [row[2] for row in rows]
            games = {row[4]: row for row in rows}  # a game that came back to the position counts once
            node = Node(ply=max(sorted(set(texts)), key=texts.count), position=child, games=len(games),
                        average_ply=round(statistics.fmean(row[3] + 1 for row in rows), 1))
            for _, _, _, _, _, result, date_from, date_to, _ in games.values():
                outcome = RESULTS.get(result, "unfinished")
                setattr(node, outcome, getattr(node, outcome) + 1)
            node.first = min((row[6] for row in games.values() if row[6]), default=None)
            node.last = max((row[7] for row in games.values() if row[7]), default=None)
            nodes.append(node)
        found[parent] = sorted(nodes, key=lambda n: (-n.games, n.ply))
    return found


def tree(conn: sqlite3.Connection, keys: list[int], depth: int = 1,
         only: tuple[str, list] | None = None, variations: bool = False) -> list[Node]:
    """The next plies from the position of `keys` (one position may have several keys: one per
    game that reads its string), `depth` plies deep; `only`: SQL that selects the ids of the
    records to count, with its parameters; `variations`: the plies of variations count too
    (a game counts once for a ply however many of its lines play it)."""
    roots: list[Node] = [Node(ply="", position=key) for key in keys]
    level = roots
    known: dict[int, list[Node]] = {}
    for _ in range(depth):
        wanted = sorted({node.position for node in level} - known.keys())
        if wanted:
            known.update(dict.fromkeys(wanted, []))
            known.update(_level(conn, wanted, only, variations))
        for node in level:
            node.children = [Node(**{**vars(child), "children": []}) for child in known[node.position]]
        level = [child for node in level for child in node.children]
    return sorted((child for root in roots for child in root.children), key=lambda n: (-n.games, n.ply))
