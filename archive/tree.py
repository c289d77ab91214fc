"""The move tree (`lusoria tree`): from a position, every next ply the archive's records
played, with how the games went. Positions are compared by key, so transpositions count:
a game that reached the position by another order of plies is counted too."""

from __future__ import annotations

import sqlite3
from collections import defaultdict
from dataclasses import dataclass, field

# What makes two next plies one row: the position they lead to and, for Laquet, the roll too
# (a Laquet position does not hold the roll: the tree lists the plays of each roll; 46 is 64).
_TURN = "ltrim(q.text)"
_DIE = f"CASE substr({_TURN}, 2, 1) WHEN '-' THEN substr({_TURN}, 3, 1) ELSE substr({_TURN}, 2, 1) END"
ROLL = f"CASE r.game WHEN 'laquet' THEN max(substr({_TURN}, 1, 1), {_DIE}) || min(substr({_TURN}, 1, 1), {_DIE}) END"
NEXT_PLIES = """
FROM plies p JOIN plies q ON q.record_id = p.record_id AND q.ply = p.ply + 1
JOIN records r ON r.id = p.record_id
WHERE p.position IN ({keys}) AND q.position IS NOT NULL {only}
"""
FIGURES = ("count(DISTINCT p.record_id), "
           + ", ".join(f"count(DISTINCT CASE r.result WHEN '{result}' THEN p.record_id END)"
                       for result in ("1-0", "1/2-1/2", "0-1"))
           + ", round(avg(p.ply + 1), 1), min(r.date_from), max(r.date_to)")


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


def _level(conn: sqlite3.Connection, keys: list[int], only: tuple[str, list] | None) -> dict[int, list[Node]]:
    """The next plies from each of `keys`, most played first."""
    source = NEXT_PLIES.format(keys=", ".join("?" * len(keys)),
                               only=f"AND p.record_id IN ({only[0]})" if only else "")
    params = keys + (only[1] if only else [])
    written: dict[tuple, list[tuple[int, str]]] = defaultdict(list)
    for parent, child, roll, text, count in conn.execute(
            f"SELECT p.position, q.position, {ROLL}, q.text, count(*) {source} GROUP BY 1, 2, 3, 4", params):
        written[parent, child, roll].append((-count, text))
    found: dict[int, list[Node]] = defaultdict(list)
    for parent, child, roll, games, white, draws, black, average, first, last in conn.execute(
            f"SELECT p.position, q.position, {ROLL}, {FIGURES} {source} GROUP BY 1, 2, 3", params):
        found[parent].append(Node(min(written[parent, child, roll])[1], child, games, white, draws, black,
                                  games - white - draws - black, average, first, last))
    return {parent: sorted(nodes, key=lambda n: (-n.games, n.ply)) for parent, nodes in found.items()}


def tree(conn: sqlite3.Connection, keys: list[int], depth: int = 1,
         only: tuple[str, list] | None = None) -> list[Node]:
    """The next plies from the position of `keys` (one position may have several keys: one per
    game that reads its string), `depth` plies deep; `only`: SQL that selects the ids of the
    records to count, with its parameters."""
    roots: list[Node] = [Node(ply="", position=key) for key in keys]
    level, known = roots, {}
    for _ in range(depth):
        wanted = sorted({node.position for node in level} - known.keys())
        if wanted:
            known.update(dict.fromkeys(wanted, []))
            known.update(_level(conn, wanted, only))
        for node in level:
            node.children = [Node(**{**vars(child), "children": []}) for child in known[node.position]]
        level = [child for node in level for child in node.children]
    return sorted((child for root in roots for child in root.children), key=lambda n: (-n.games, n.ply))
