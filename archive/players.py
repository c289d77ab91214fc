"""Player names: an alias table maps the names as written in records to one canonical name.
Records keep the names as written; queries by player and the score table use the canonical
name (`lusoria players merge`, `lusoria players list`)."""

from __future__ import annotations

import json
import shlex
import unicodedata
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from lusoria.errors import LusoriaError, Refused
from lusoria.words import quoted

if TYPE_CHECKING:
    import sqlite3

    import sqlite_utils

# The Result tag's values (notation.slips.RESULTS, the grammar's: not imported, which would load the
# reader for `--help`): the query's --result filter's, the explorer's and the move tree's counts
RESULTS = ("1-0", "0-1", "1/2-1/2", "*")
# A roster tag's unknown value (notation/writer.py), which the archive stores as NULL: a name filter `?` finds those
UNKNOWN_NAME = "?"


def _canonical(fold: Callable[[str], str] = lambda sql: sql) -> str:
    """SQL: a name's canonical name, the name it is an alias of or itself (the parameter given
    twice); `fold`: how aliases compare with it (`_folding`)."""
    return f"coalesce((SELECT min(name) FROM player_aliases WHERE {fold('alias')} = ?), ?)"


def create_players(db: sqlite_utils.Database) -> None:
    """The `player_aliases` table (part of schema version 3): names compare in any case."""
    db.execute("CREATE TABLE player_aliases (alias TEXT PRIMARY KEY COLLATE NOCASE, name TEXT NOT NULL COLLATE NOCASE)")
    db.execute("CREATE INDEX idx_player_aliases_name ON player_aliases (name)")


def casefold(value: str | bytes | int | float | None) -> str | bytes | int | float | None:
    """The SQL function `lusoria_casefold` of query connections (archive/reading.py): a text in
    Unicode case folding of its composed form (`Åström` and `ÅSTRÖM` are one, and so is `Åström`
    written with combining marks, as some Mac files write it: NFC), anything else as it is."""
    return unicodedata.normalize("NFC", value).casefold() if isinstance(value, str) else value


def _folding(value: str) -> tuple[Callable[[str], str], str]:
    """How SQL compares names with `value` in any case, and `value` as compared: SQLite's
    NOCASE folds ASCII letters only (the names' indexes serve such a value); a value with
    other letters is compared in Unicode case folding (`lusoria_casefold`), row by row."""
    if value.isascii():
        return (lambda sql: sql), value
    return (lambda sql: f"lusoria_casefold({sql})"), str(casefold(value))


def name_condition(column: str, value: str) -> tuple[str, list]:
    """SQL that holds when `column` is `value` in any case (`_folding`), or unknown for `?`."""
    if value == UNKNOWN_NAME:
        return f"{column} IS NULL", []
    fold, value = _folding(value)
    return f"{fold(column)} = ? COLLATE NOCASE", [value]


def player_condition(column: str, name: str) -> tuple[str, list]:
    """SQL that holds when `column` (records.white or records.black) is `name` or another name
    of the same player, in any case (`_folding`: by the case of `name`); unknown for `?`."""
    if name == UNKNOWN_NAME:
        return f"{column} IS NULL", []
    fold, name = _folding(name)
    canonical = fold(_canonical(fold))
    sql = (
        f"{fold(column)} COLLATE NOCASE IN (SELECT {fold('alias')} FROM player_aliases "
        f"WHERE {fold('name')} = {canonical} UNION ALL SELECT {canonical})"
    )
    return sql, [name] * 4


def merge(db: sqlite_utils.Database, names: list[str], canonical: str) -> str:
    """Make each of `names` another name of `canonical` (or of the player `canonical` is already
    a name of, unless that player is one of `names`: a merge the other way round, undone); the
    names that were aliases of one of `names` follow. Each name is taken `as_recorded`. Returns the
    canonical name. Refused, nothing changed, when every name is `canonical` itself (`_into_itself`)."""
    names, canonical = [as_recorded(db, name) for name in names], as_recorded(db, canonical)
    if not any(not same_name(name, canonical) for name in names):  # (review83: ` Anna ` is Anna, as recorded)
        raise Refused(_into_itself(db, names, canonical))
    with db.conn:
        player = canonical_of(db, canonical)
        if not any(same_name(name, player) for name in names):
            canonical = player
        for name in names:
            if name == canonical:
                continue  # in another case it is an alias (removed below if it differs in ASCII case only)
            db.execute("UPDATE player_aliases SET name = ? WHERE name = ?", [canonical, name])
            db.execute("INSERT OR REPLACE INTO player_aliases (alias, name) VALUES (?, ?)", [name, canonical])
        db.execute("DELETE FROM player_aliases WHERE alias = ?", [canonical])
    return canonical


def _into_itself(db: sqlite_utils.Database, names: list[str], canonical: str) -> str:
    """Why a merge of `names`, each `canonical` in some case of its ASCII letters (one player's in SQLite's NOCASE,
    h78b), into it is refused (h83b: the library merged nothing, unsaid, where the command refused it); and what
    undoes a merge of `canonical` into another by mistake."""
    cased = next((quoted(name) for name in names if name != canonical), "")
    said = (
        f"{cased} is {quoted(canonical)}, the canonical name, in another case of its ASCII letters (one player's)"
        if cased
        else f"{quoted(canonical)} is the canonical name itself"
    ) + ": give another name to merge into it"
    player = canonical_of(db, canonical)
    if player != canonical:  # (merged into another by mistake)
        said += f" ({canonical} is another name of {player}: lusoria players unmerge {shlex.quote(canonical)} makes it a player again)"
    return said


def canonical_of(db: sqlite_utils.Database, name: str) -> str:
    """The name kept of the player `name` (`as_recorded`) is another name of, else `name` itself."""
    name = as_recorded(db, name)
    return db.execute(f"SELECT {_canonical()}", [name, name]).fetchone()[0]


def unmerge(db: sqlite_utils.Database, names: list[str]) -> list[dict]:
    """Make each of `names` (each `as_recorded`, in any case of its ASCII letters) a player of its own
    again, no longer another name of the player it was merged into (`merge`, a slip undone); the
    aliases removed, as `aliases` lists them. NotAnAlias, nothing changed, for a name that is none:
    the name kept of others (theirs to unmerge), or of no player."""
    from lusoria.words import listed, quoted

    found: dict[str, dict] = {}  # alias -> its row, once however many spellings name it
    for name in dict.fromkeys(as_recorded(db, name) for name in names):
        row = db.execute("SELECT alias, name FROM player_aliases WHERE alias = ?", [name]).fetchone()
        if row is None:
            merged = [alias for (alias,) in db.execute("SELECT alias FROM player_aliases WHERE name = ?", [name])]
            raise NotAnAlias(
                f"{quoted(name)} is the name kept of {listed(sorted(merged))}: unmerge those names"
                if merged
                else f"{quoted(name)} is no other name of a player (lusoria players list shows each player's aliases)"
            )
        found[row[0]] = {"alias": row[0], "name": row[1]}
    with db.conn:
        db.conn.executemany("DELETE FROM player_aliases WHERE alias = ?", [[alias] for alias in found])
    return list(found.values())


class NotAnAlias(LusoriaError, ValueError):
    """A name `unmerge` is given that is no other name of a player."""


def _recorded(db: sqlite_utils.Database, name: str) -> bool:
    """Whether a record writes `name` as White or Black (in any case of its ASCII letters)."""
    written = "SELECT 1 FROM records WHERE white = ? COLLATE NOCASE OR black = ? COLLATE NOCASE LIMIT 1"
    return db.execute(written, [name, name]).fetchone() is not None


def as_recorded(db: sqlite_utils.Database, name: str) -> str:
    """A name given to `players merge`: as given when a record writes it so (`[White " Jens "]`,
    which a merge makes another name of Jens), else as lusoria takes names from its user
    (`name_given`: `' Karin Nilsson '`, a quoting slip, is Karin Nilsson, as `--player` takes it) and
    as the archive stores them, composed (NFC: a name pasted with combining marks, as a Mac's file name
    gives it, was merged as an alias no record writes)."""
    from lusoria.validator.games import name_given

    return name if _recorded(db, name) else name_given(unicodedata.normalize("NFC", name))


def unrecorded(db: sqlite_utils.Database, names: list[str]) -> list[str]:
    """The names of `names` (each `as_recorded`) that no record writes as White or Black (in any case
    of their ASCII letters), in their order."""
    return [name for name in dict.fromkeys(as_recorded(db, name) for name in names) if not _recorded(db, name)]


def names_written(db: sqlite_utils.Database) -> list[str]:
    """Every name the records write, as White or Black, and every name merged, into another or
    as the one others are merged into (the name `players list` shows), each once (in one case of
    its ASCII letters)."""
    return [
        name
        for (name,) in db.execute(
            "SELECT min(name) FROM (SELECT white AS name FROM records UNION SELECT black FROM records "
            "UNION SELECT alias FROM player_aliases UNION SELECT name FROM player_aliases) "
            "WHERE name IS NOT NULL GROUP BY name COLLATE NOCASE"
        )
    ]


def same_name(one: str, other: str) -> bool:
    """Whether two names are one in SQLite's NOCASE (ASCII letters in any case)."""
    return one.encode().lower() == other.encode().lower()


def aliases(db: sqlite_utils.Database) -> list[dict]:
    """Every alias and its canonical name."""
    return [
        {"alias": alias, "name": name}
        for alias, name in db.execute("SELECT alias, name FROM player_aliases ORDER BY name, alias")
    ]


def _key(written: str) -> str:
    """SQL: what a name written in a record (`written`, an SQL expression) is one player by, in SQLite's
    NOCASE: the canonical name of the alias it is, or itself."""
    return f"coalesce((SELECT name FROM player_aliases WHERE alias = {written}), {written})"


def _player_of(written: str) -> str:
    """SQL: the player a name written in a record is (`written`, an SQL expression), under one
    spelling whatever records are selected, so that a filter never changes it: the canonical name
    (of the alias it is, or itself) as a merge wrote it, else as the archive's first record writes
    the name (in any case of its ASCII letters)."""
    return f"""coalesce(
         (SELECT min(name COLLATE BINARY) FROM player_aliases WHERE name = {_key(written)}),
         (SELECT spelled FROM (
           SELECT id, white AS spelled FROM records WHERE white = {written} COLLATE NOCASE
           UNION ALL SELECT id, black FROM records WHERE black = {written} COLLATE NOCASE) ORDER BY id LIMIT 1))"""


_NAMED = "written IS NOT NULL AND written NOT IN ('', '?')"  # a name `written` that names a player
# a record's game of a player against themselves (a study, `lusoria random`'s, two names merged): no game between two;
# the names compared as written first, their aliases' only in an archive that holds some (a lookup a side, a record)
_OWN_GAME = (
    f"({_NAMED.replace('written', 'white')} AND (white IS black COLLATE NOCASE OR EXISTS (SELECT * FROM player_aliases)"
    f" AND {_key('white')} IS {_key('black')} COLLATE NOCASE))"
)


def respelled(db: sqlite3.Connection) -> dict[str, str]:
    """Each name records write as White or Black that is a player spelled otherwise (`_player_of`: an
    alias, or the name in another case of its ASCII letters), and that spelling."""
    return dict(
        db.execute(
            f"SELECT written, player FROM (SELECT written, {_player_of('written')} AS player FROM "
            f"(SELECT white AS written FROM records UNION SELECT black FROM records) WHERE {_NAMED}) "
            "WHERE player IS NOT written"
        )
    )


# Per canonical player (names in any case of their ASCII letters, aliases merged): games, won,
# drawn, lost, and finished, in the records `{counted}` are (_counted: all, read from each side's index of
# names; those a filter selects, found once), but a game against oneself (_OWN_GAME).
PLAYERS = f"""
WITH {{selected}}names AS (
  SELECT white AS written, count(*) AS games, count(result = '1-0' OR NULL) AS won,
         count(result = '1/2-1/2' OR NULL) AS drawn, count(result = '0-1' OR NULL) AS lost
  FROM {{counted}} WHERE NOT {_OWN_GAME} GROUP BY white COLLATE NOCASE
  UNION ALL
  SELECT black, count(*), count(result = '0-1' OR NULL), count(result = '1/2-1/2' OR NULL),
         count(result = '1-0' OR NULL)
  FROM {{counted}} WHERE NOT {_OWN_GAME} GROUP BY black COLLATE NOCASE
), players AS (
  SELECT {_player_of("written")} AS player,
         sum(games) AS games, sum(won) AS won, sum(drawn) AS drawn,
         sum(lost) AS lost, sum(won + drawn + lost) AS finished
  FROM names WHERE {_NAMED}
  GROUP BY player COLLATE NOCASE
)"""


# The orders of the score table (`players list --sort`): the most points (score) first, then the best
# percentage, or the most games first
SORTS = {
    "score": "score DESC, percent DESC, games DESC, player",
    "games": "games DESC, score DESC, percent DESC, player",
}


def _standings(more: str = "", sort: str = "score") -> str:
    """SQL: the rows of `players` (a CTE of PLAYERS' columns) with their unfinished games, score (a
    win 1, a draw ½), its percentage of the finished games and the player's other names, in the
    order `sort` names in SORTS; `more`: columns added."""
    return f"""
SELECT player, games, won, drawn, lost, games - finished AS unfinished, won + 0.5 * drawn AS score,
       round(100.0 * (won + 0.5 * drawn) / nullif(finished, 0), 1) AS percent,
       (SELECT group_concat(alias, '; ') FROM (SELECT alias FROM player_aliases p
         WHERE p.name = players.player ORDER BY alias)) AS aliases{more}
FROM players ORDER BY {SORTS[sort]}
"""


# Per pair of players (their names as in the score table), the games between them in the
# records `{where}` selects, from the first player's side: a game of a player against no one named,
# or against themselves, is in no pairing. Then per player the sums of their pairings, as PLAYERS.
PAIRINGS = f"""
WITH selected AS (SELECT white, black, result FROM records {{where}}), named AS (
  SELECT written, {_player_of("written")} AS player
  FROM (SELECT white AS written FROM selected UNION ALL SELECT black FROM selected)
  WHERE {_NAMED} GROUP BY written COLLATE NOCASE
), games AS (
  SELECT w.player AS white, b.player AS black, result FROM selected
  JOIN named w ON w.written = selected.white COLLATE NOCASE JOIN named b ON b.written = selected.black COLLATE NOCASE
  WHERE w.player <> b.player
), sides AS (
  SELECT white AS player, black AS opponent, 1 AS white, result IS '1-0' AS won, result IS '1/2-1/2' AS drawn,
         result IS '0-1' AS lost FROM games
  UNION ALL
  SELECT black, white, 0, result IS '0-1', result IS '1/2-1/2', result IS '1-0' FROM games
), pairings AS (
  SELECT player, opponent, count(*) AS games, sum(won) AS won, sum(drawn) AS drawn, sum(lost) AS lost,
         sum(white) AS white
  FROM sides GROUP BY player, opponent
), players AS (
  SELECT player, sum(games) AS games, sum(won) AS won, sum(drawn) AS drawn, sum(lost) AS lost,
         sum(won + drawn + lost) AS finished, sum(white) AS white
  FROM pairings GROUP BY player
)"""
# The score table of the pairings' games, with each player's games as White and as Black and their
# pairings, a JSON object by opponent
CROSSTABLE = PAIRINGS + _standings(
    """, white, games - white AS black,
       (SELECT json_group_object(opponent, json_object('games', games, 'won', won, 'drawn', drawn, 'lost', lost,
          'unfinished', games - won - drawn - lost, 'score', won + 0.5 * drawn))
        FROM pairings WHERE pairings.player = players.player) AS opponents"""
)


def _counted(query: str, records: tuple[str, list] | None) -> tuple[str, list]:
    """`query` (PLAYERS and what it selects) over the records `records` selects: SQL that selects
    their ids, with its parameters (all records when None: PLAYERS reads the indexes of names alone)."""
    if records is None:
        return query.format(where="", selected="", counted="records"), []
    sql, params = records
    selected = f"selected AS (SELECT white, black, result FROM records WHERE id IN ({sql})), "  # (read once)
    formatted = query.format(where=f"WHERE id IN ({sql})", selected=selected, counted="selected")
    return formatted, params * (query.count("{where}") + query.count("{selected}"))


def score_table(
    records: tuple[str, list] | None = None, top: int | None = None, sort: str = "score"
) -> tuple[str, list]:
    """The SQL of the score table: per canonical player the games, won, drawn, lost and unfinished,
    the score (a win 1, a draw ½) and its percentage of the finished games; `records` is SQL that
    selects the ids of the records to count (all when None), with its parameters; its first `top`
    rows (all when None; ValueError below 1), in the order `sort` names (SORTS; ValueError for another)."""
    if sort not in SORTS:
        raise Refused(f"sort is one of {', '.join(SORTS)}, not {sort!r}")
    table = PLAYERS + _standings(sort=sort)
    return _counted(table, records) if top is None else _first(top, table, records)


def invalid(records: tuple[str, list] | None = None, paired: bool = False) -> tuple[str, list]:
    """The SQL of how many of the records `records` selects (`score_table`) are invalid and counted,
    as their results say: those of a player named (the score table), or of two (`paired`: the crosstable)."""
    white, black = (_NAMED.replace("written", side) for side in ("white", "black"))
    named = f"{white} AND {black}" if paired else f"({white} OR {black})"
    query = "SELECT count(*) AS invalid FROM (SELECT valid, white, black FROM records {where})"
    return _counted(f"{query} WHERE NOT valid AND {named} AND NOT {_OWN_GAME}", records)


def without_own_games(records: tuple[str, list]) -> tuple[str, list]:
    """SQL that selects the ids of the records `records` selects (`score_table`) but a game of a player
    against themselves: a player's repertoire (`tree --player`) counts none, as the score table does not."""
    sql, params = records
    return f"SELECT id FROM records WHERE id IN ({sql}) AND NOT {_OWN_GAME}", params


def own_games(records: tuple[str, list] | None = None) -> tuple[str, list]:
    """The SQL of how many of the records `records` selects (`score_table`) are a game of a player against
    themselves, which neither the score table nor the crosstable counts."""
    return _counted(
        f"SELECT count(*) AS own FROM (SELECT white, black FROM records {{where}}) WHERE {_OWN_GAME}", records
    )


def crosstable(records: tuple[str, list] | None = None) -> tuple[str, list]:
    """The SQL of the crosstable's rows (`crosstable_rows`), of the records `records` selects
    (`score_table`)."""
    return _counted(CROSSTABLE, records)


def crosstable_rows(rows: Iterable[dict]) -> list[dict]:
    """The rows of CROSSTABLE, each player's pairings (`opponents`) a dict by opponent, in the
    order of the rows: the score of each player against each other."""
    table = list(rows)
    for row in table:
        pairings = json.loads(row["opponents"])
        row["opponents"] = {
            other["player"]: pairings[other["player"]] for other in table if other["player"] in pairings
        }
    return table


# The players (canonical names, as in the score table), the most games first
MOST_GAMES = PLAYERS + " SELECT player, games FROM players ORDER BY games DESC, player"


def most_games(top: int, records: tuple[str, list] | None = None) -> tuple[str, list]:
    """The SQL of the `top` players with the most games (as the score table counts them) in the
    records `records` selects (`score_table`)."""
    return _first(top, MOST_GAMES, records)


MAX_SQL_INTEGER = 2**63 - 1  # SQLite's largest integer: a LIMIT past it is all rows (a larger one overflows)


def check_top(top: int) -> None:
    """ValueError for a `top` (a number of rows to show) below 1."""
    if top < 1:
        raise Refused(f"top is a number of rows from 1 on, not {top}")


def _first(top: int, query: str, records: tuple[str, list] | None) -> tuple[str, list]:
    """The first `top` rows of `query` (`_counted`); ValueError for a `top` below 1 (SQLite takes
    a negative LIMIT for none)."""
    check_top(top)
    sql, params = _counted(query + " LIMIT ?", records)
    return sql, params + [min(top, MAX_SQL_INTEGER)]
