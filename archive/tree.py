"""The move tree (`lusoria tree`): from a position, every next ply the archive's records
played, with how the games went. Positions are compared by key, so transpositions count:
a game that reached the position by another order of plies is counted too."""

from __future__ import annotations

import sqlite3
from collections import Counter
from dataclasses import dataclass, field

RESULTS = {"1-0": "white", "1/2-1/2": "draws", "0-1": "black"}

# (position, next position, the ply's text, the ply number of the position, record id) of the
# main lines' plies from positions {keys} (each row of plies holds them), and with {variations}
# those of variations
MAIN_PLIES = """
SELECT position, next, next_text, ply, record_id FROM plies WHERE position IN ({keys}) AND next IS NOT NULL"""
VARIATION_PLIES = """
UNION ALL SELECT position, next, text, ply, record_id FROM variation_plies WHERE position IN ({keys})"""


def _dice(second: int) -> str:
    """SQL: the two dice of a Laquet ply (`e.next_text`) whose second die is its character `second`, higher first."""
    first, other = "substr(e.next_text, 1, 1)", f"substr(e.next_text, {second}, 1)"
    return f"max({first}, {other}) || min({first}, {other})"


# The roll of a Laquet turn as written, higher die first (`46: 5/11 4/8` and `4-6: …`: `64`); ''
# for the other games. Two next plies are the same when they lead to the same position and,
# for Laquet, have the same roll (a Laquet position does not hold the roll: the tree lists the
# plays of each roll).
ROLL = (f"CASE WHEN r.game != 'laquet' THEN '' WHEN e.next_text GLOB '[1-6][1-6]*' THEN {_dice(2)} "
        f"WHEN e.next_text GLOB '[1-6]-[1-6]*' THEN {_dice(3)} ELSE '' END")
# Per position, next position and roll: the plies, the sum of their ply numbers, the games (a
# game that came back to the position counts once), the games of each result, the first and
# last date, and the texts (one a line)
NEXT_PLIES = f"""
SELECT e.position, e.next, {ROLL} AS roll, count(*), sum(e.ply), count(DISTINCT e.record_id),
       {", ".join(f"count(DISTINCT CASE r.result WHEN '{result}' THEN e.record_id END)" for result in RESULTS)},
       min(r.date_from), max(r.date_to), group_concat(e.next_text, char(10))
FROM ({{main}}{{variations}}) e JOIN records r ON r.id = e.record_id
{{only}}
GROUP BY e.position, e.next, roll"""


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


def _level(conn: sqlite3.Connection, keys: list[int], only: tuple[str, list] | None,
           variations: bool) -> dict[int, list[Node]]:
    """The next plies from each of `keys`, most played first."""
    marks = ", ".join("?" * len(keys))
    # +: `only` is a check of each ply found by its position (SQLite would otherwise go through
    # the records `only` selects, and look up every key for each: minutes for a tree 3 plies deep)
    sql = NEXT_PLIES.format(main=MAIN_PLIES.format(keys=marks),
                            variations=VARIATION_PLIES.format(keys=marks) if variations else "",
                            only=f"WHERE +e.record_id IN ({only[0]})" if only else "")
    found: dict[int, list[Node]] = {}
    for parent, child, _, plies, ply_sum, games, white, draws, black, first, last, texts in conn.execute(
            sql, keys * (1 + variations) + (only[1] if only else [])):
        written = Counter(texts.split("\n"))
        found.setdefault(parent, []).append(Node(
            ply=min(written, key=lambda text: (-written[text], text)), position=child, games=games, white=white,
            draws=draws, black=black, unfinished=games - white - draws - black,
            average_ply=round((ply_sum + plies) / plies, 1), first=first, last=last))
    return {parent: sorted(nodes, key=lambda n: (-n.games, n.ply)) for parent, nodes in found.items()}


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
