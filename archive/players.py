"""Player names: an alias table maps the names as written in records to one canonical name.
Records keep the names as written; queries by player and the score table use the canonical
name (`lusoria players merge`, `lusoria players list`)."""

from __future__ import annotations

import sqlite_utils

# A name's canonical name: the name it is an alias of, or itself (the parameter given twice).
CANONICAL = "coalesce((SELECT name FROM player_aliases WHERE alias = ?), ?)"


def create_players(db: sqlite_utils.Database) -> None:
    """The `player_aliases` table (part of schema version 3): names compare in any case."""
    db.execute("CREATE TABLE player_aliases (alias TEXT PRIMARY KEY COLLATE NOCASE, "
               "name TEXT NOT NULL COLLATE NOCASE)")
    db.execute("CREATE INDEX idx_player_aliases_name ON player_aliases (name)")


def player_condition(column: str, name: str) -> tuple[str, list]:
    """SQL that holds when `column` (records.white or records.black) is `name` or another name
    of the same player."""
    sql = (f"{column} COLLATE NOCASE IN (SELECT alias FROM player_aliases WHERE name = {CANONICAL} "
           f"UNION ALL SELECT {CANONICAL})")
    return sql, [name] * 4


def merge(db: sqlite_utils.Database, names: list[str], canonical: str) -> str:
    """Make each of `names` another name of `canonical` (or of the player `canonical` is already
    a name of); the names that were aliases of one of `names` follow. Returns the canonical name."""
    with db.conn:
        canonical = db.execute(f"SELECT {CANONICAL}", [canonical, canonical]).fetchone()[0]
        for name in names:
            if name.casefold() == canonical.casefold():
                continue
            db.execute("UPDATE player_aliases SET name = ? WHERE name = ?", [canonical, name])
            db.execute("INSERT OR REPLACE INTO player_aliases (alias, name) VALUES (?, ?)", [name, canonical])
        db.execute("DELETE FROM player_aliases WHERE alias = ?", [canonical])
    return canonical


def aliases(db: sqlite_utils.Database) -> list[dict]:
    """Every alias and its canonical name."""
    return [{"alias": alias, "name": name} for alias, name in
            db.execute("SELECT alias, name FROM player_aliases ORDER BY name, alias")]


SCORE_TABLE = """
WITH sides AS (
  SELECT coalesce(a.name, r.white) AS player, r.white AS written,
         CASE r.result WHEN '1-0' THEN 1.0 WHEN '1/2-1/2' THEN 0.5 WHEN '0-1' THEN 0.0 END AS score
  FROM records r LEFT JOIN player_aliases a ON a.alias = r.white {where}
  UNION ALL
  SELECT coalesce(a.name, r.black), r.black,
         CASE r.result WHEN '0-1' THEN 1.0 WHEN '1/2-1/2' THEN 0.5 WHEN '1-0' THEN 0.0 END
  FROM records r LEFT JOIN player_aliases a ON a.alias = r.black {where}
)
SELECT player, count(*) AS games, count(score = 1.0 OR NULL) AS won, count(score = 0.5 OR NULL) AS drawn,
       count(score = 0.0 OR NULL) AS lost, count(*) - count(score) AS unfinished,
       coalesce(sum(score), 0) AS score, round(100.0 * avg(score), 1) AS percent,
       (SELECT group_concat(alias, '; ') FROM (SELECT alias FROM player_aliases p
         WHERE p.name = sides.player ORDER BY alias)) AS aliases
FROM sides WHERE player IS NOT NULL AND player NOT IN ('', '?')
GROUP BY player COLLATE NOCASE
ORDER BY score DESC, percent DESC, games DESC, player
"""


def score_table(records: tuple[str, list] | None = None) -> tuple[str, list]:
    """The SQL of the score table: per canonical player the games, won, drawn, lost and unfinished,
    the score (a win 1, a draw ½) and its percentage of the finished games; `records` is SQL that
    selects the ids of the records to count (all when None), with its parameters."""
    if records is None:
        return SCORE_TABLE.format(where=""), []
    sql, params = records
    return SCORE_TABLE.format(where=f"WHERE r.id IN ({sql})"), params + params
