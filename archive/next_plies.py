"""The archive's sums of the plies played from its opening positions (`next_plies`, schema version
11): per position reached in the first SUMMED_PLIES plies of a main line, ply played from it, rule
set and validity, the games, their plies and the sum of those plies' numbers, the games of each
result and the first and last date, counted over every ply of every main line that reaches the
position (a transposition later in a game too), as the move tree counts them from the games
(archive/tree.py). The tree at a position summed up reads a row per next ply, whatever the
number of its games; `import` keeps the sums in the transaction of each batch."""

from __future__ import annotations

import json
import sqlite3

import sqlite_utils

from lusoria.archive.positions import (
    EXACT_PLIES,
    KEY_LENGTH,
    LAST_CHARACTER,
    SHORT_LENGTH,
    Columns,
    all_search_terms,
    position_token,
)
from lusoria.archive.tree import COUNTS, FOUND
from lusoria.validator.base import Game, Position

SUMMED_PLIES = 2  # the plies of a main line whose positions are summed up: those many games share
DAY = "CAST(strftime('%s', {}) AS INTEGER) / 86400"  # an ISO date as `next_plies` keeps it: days since 1970
DAYS = f"{DAY.format('min(r.date_from)')}, {DAY.format('max(r.date_to)')}"
# The rows of the positions `wanted` (the SEARCH_TERMS of each) counted from their games
BUILD = (
    FOUND.format(variations="")
    + f"""
SELECT f.key, f.move, r.game, coalesce(r.variant, ''), coalesce(r.rule_tags, ''), r.valid, {COUNTS}, {DAYS}
FROM found f JOIN records r ON r.id = f.doc
GROUP BY f.key, f.move, r.game, r.variant, r.rule_tags, r.valid"""
)
# The new records' plies from positions summed up already (temp.new_plies), by row of `next_plies`
GROUPED = f"""
SELECT p.position, p.move, r.game, coalesce(r.variant, ''), coalesce(r.rule_tags, ''), r.valid, count(*),
       sum(p.plies), sum(p.ply_sum), sum(r.result = '1-0'), sum(r.result = '1/2-1/2'), sum(r.result = '0-1'),
       {DAYS}
FROM temp.new_plies p JOIN records r ON r.id = p.record_id WHERE true
GROUP BY p.position, p.move, r.game, r.variant, r.rule_tags, r.valid"""
ADD = f"""
INSERT INTO next_plies {GROUPED}
ON CONFLICT DO UPDATE SET games = games + excluded.games, plies = plies + excluded.plies,
  ply_sum = ply_sum + excluded.ply_sum, white = white + excluded.white, draws = draws + excluded.draws,
  black = black + excluded.black, first = coalesce(min(first, excluded.first), first, excluded.first),
  last = coalesce(max(last, excluded.last), last, excluded.last)"""
KEY = ("position", "move", "game", "variant", "rule_tags", "valid")  # of a row of `next_plies`
SUMS = ("games", "plies", "ply_sum", "white", "draws", "black")
# The plies of records about to be removed (temp.new_plies, grouped as GROUPED: temp.gone_plies)
# taken out of the sums; the rows whose first or last date one of them was; the rows left without a game
GONE = f"CREATE TEMP TABLE IF NOT EXISTS gone_plies ({', '.join(KEY + SUMS)}, first, last)"
SAME_ROW = " AND ".join(f"n.{column} = g.{column}" for column in KEY)
DATED = f"""
SELECT DISTINCT n.position FROM temp.gone_plies g JOIN next_plies n ON {SAME_ROW}
WHERE n.games > g.games AND (n.first = g.first OR n.last = g.last)"""
SUBTRACT = f"""
UPDATE next_plies AS n SET {", ".join(f"{column} = n.{column} - g.{column}" for column in SUMS)}
FROM temp.gone_plies g WHERE {SAME_ROW}"""
EMPTIED = "DELETE FROM next_plies WHERE games = 0 AND position IN (SELECT position FROM temp.gone_plies)"
# The game and board of a position (its token's bounds) where a record plays from it in its first
# SUMMED_PLIES plies (what BUILD seeks it by), if one does
AN_OPENING = """
SELECT r.game, lusoria_board_at(b.boards, p.offset) FROM position_plies p JOIN records r ON r.id = p.doc
JOIN record_boards b ON b.record_id = p.doc WHERE p.term > ? AND p.term < ? AND p.offset < ? LIMIT 1"""


def create_next_plies(db: sqlite_utils.Database) -> None:
    """`next_plies`, one b-tree ordered by position (its key), the ply's code (`moves`), the rule
    set (`game`, `variant`, `rule_tags`: '' for none) and `valid`; the first and last dates as days
    since 1970 (DAY: 3 bytes where an ISO date takes 10)."""
    db.execute("""CREATE TABLE "next_plies" (
   "position" INTEGER NOT NULL,
   "move" TEXT NOT NULL,
   "game" TEXT NOT NULL,
   "variant" TEXT NOT NULL,
   "rule_tags" TEXT NOT NULL,
   "valid" INTEGER NOT NULL,
   "games" INTEGER NOT NULL,
   "plies" INTEGER NOT NULL,
   "ply_sum" INTEGER NOT NULL,
   "white" INTEGER NOT NULL,
   "draws" INTEGER NOT NULL,
   "black" INTEGER NOT NULL,
   "first" INTEGER,
   "last" INTEGER,
   PRIMARY KEY ("position", "move", "game", "variant", "rule_tags", "valid")
) WITHOUT ROWID""")


def next_ply_rows(rules: Game, positions: list[Position], keys: list[int]) -> Columns:
    """What the writing process needs of one record's main line for `next_plies`: the keys of
    its positions a ply was played from, and what the tree seeks (positions.all_search_terms) for each of
    the first SUMMED_PLIES of them."""
    played = keys[: len(positions) - 1]
    return [played, all_search_terms(rules, positions[: min(SUMMED_PLIES, len(played))])]


class Written:
    """Whether another process wrote to the archive since a writing process last read what it keeps
    of it (`PRAGMA data_version`, which the process's own commits leave as it is): MoveCodes' plies
    (archive/importer.py) and NextPlies' keys."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn
        self.seen: int | None = None  # the data_version at the last `since`; None: never, or forgotten

    def since(self) -> bool:
        """Whether another process wrote since the last call (always at the first, and after `forget`)."""
        version = self.conn.execute("PRAGMA data_version").fetchone()[0]
        written, self.seen = version != self.seen, version
        return written

    def forget(self) -> None:
        """Make the next `since` True (what this process wrote was rolled back)."""
        self.seen = None


class NextPlies:
    """`next_plies` as a writing process keeps it: the keys of the positions summed up, read
    again when another process wrote to the archive (`refresh`, at the start of each batch)."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn
        self._summed: set[int] | None = None
        self.written = Written(conn)

    def refresh(self) -> None:
        """Read the keys again when another process wrote to the archive since they were read."""
        if self.written.since():
            self._summed = None
        self._keys()

    @property
    def summed(self) -> set[int]:
        """The keys of the positions summed up: read at the first use after `forget`."""
        return self._keys()

    def _keys(self) -> set[int]:
        if self._summed is None:
            self._summed = {key for (key,) in self.conn.execute("SELECT DISTINCT position FROM next_plies")}
        return self._summed

    def add(self, plies: list[tuple[int, Columns]], lines: dict[int, list[str]], codes: dict[str, str]) -> None:
        """Add the new records' plies (each record's `next_ply_rows`; `lines`: its main line's
        plies, `codes`: theirs in `moves`), once their other rows are in: a position first reached
        in their openings is summed up from all its games, the plies from a position summed up
        already are added to its sums. Call `forget` when the transaction is rolled back."""
        summed = self.summed
        new: dict[int, list] = {}
        for _, (_, opening) in plies:
            for terms in opening:
                if terms[0] not in summed:
                    new.setdefault(terms[0], terms)
        if self._counted(plies, lines, codes):
            self.conn.execute(ADD)
            self.conn.execute("DELETE FROM temp.new_plies")
        if new:
            self.conn.execute(f"INSERT INTO next_plies {BUILD}", [json.dumps(list(new.values()))])
            summed.update(new)

    def _counted(self, plies: list[tuple[int, Columns]], lines: dict[int, list[str]], codes: dict[str, str]) -> bool:
        """Write the records' plies from the positions summed up to temp.new_plies, a row per record,
        position and ply: how many times the record plays it there and the sum of their numbers.
        Whether there was any."""
        summed = self.summed
        rows: list[tuple] = []
        for record, (keys, _) in plies:
            counted: dict[tuple[int, str], list[int]] = {}
            for ply, (key, move) in enumerate(zip(keys, lines[record])):
                if key in summed:
                    found = counted.setdefault((key, codes[move]), [0, 0])
                    found[0] += 1
                    found[1] += ply
            rows += [(record, key, code, count, ply_sum) for (key, code), (count, ply_sum) in counted.items()]
        if rows:
            self.conn.execute("CREATE TEMP TABLE IF NOT EXISTS new_plies (record_id, position, move, plies, ply_sum)")
            self.conn.executemany("INSERT INTO temp.new_plies VALUES (?, ?, ?, ?, ?)", rows)
        return bool(rows)

    def subtract(
        self, plies: list[tuple[int, Columns]], lines: dict[int, list[str]], codes: dict[str, str]
    ) -> set[int]:
        """Take the plies of records about to be removed (as `add` takes them) out of the sums,
        before their rows go (their records are read); a row left without a game goes. The
        positions whose first or last date one of them gave, which `resum` sums up again."""
        if not self._counted(plies, lines, codes):
            return set()
        conn = self.conn
        conn.execute(GONE)
        conn.execute(f"INSERT INTO temp.gone_plies {GROUPED}")
        dated = {key for (key,) in conn.execute(DATED)}
        conn.execute(SUBTRACT)
        conn.execute(EMPTIED)
        conn.execute("DELETE FROM temp.gone_plies")
        conn.execute("DELETE FROM temp.new_plies")
        return dated

    def resum(self, openings: set[int], again: set[int]) -> None:
        """Once the removed records' rows are gone (`subtract`): a position of their openings
        (`openings`) that no record plays from in its first SUMMED_PLIES plies any more is summed up
        no longer; one of `again` (whose first or last date was theirs, or whose sums could not be
        taken off) is summed up again from its games, sought as an opening the archive holds has it."""
        summed = self.summed
        terms = []
        for key in sorted((openings | again) & summed):
            token = position_token(key)
            found = self.conn.execute(AN_OPENING, [token, token + LAST_CHARACTER, SUMMED_PLIES]).fetchone()
            if found is None:
                self.conn.execute("DELETE FROM next_plies WHERE position = ?", [key])
                summed.discard(key)
            elif key in again:
                short = token[:SHORT_LENGTH]
                terms.append([key, token, *found, short, short + LAST_CHARACTER, token + LAST_CHARACTER])
        if terms:
            self.conn.executemany("DELETE FROM next_plies WHERE position = ?", [row[:1] for row in terms])
            self.conn.execute(f"INSERT INTO next_plies {BUILD}", [json.dumps(terms)])

    def reached(self, terms: list[tuple[int, str]]) -> set[int]:
        """The positions summed up that `terms` of `positions` (each with its ply: a whole token
        for the first EXACT_PLIES plies, then a short one, which may be several) may be."""
        if not terms:
            return set()
        summed = self.summed
        tokens = {position_token(key): key for key in summed}
        found = {tokens[term[:KEY_LENGTH]] for ply, term in terms if ply < EXACT_PLIES and term[:KEY_LENGTH] in tokens}
        short = {term[:SHORT_LENGTH] for ply, term in terms if ply >= EXACT_PLIES}
        return found | {key for token, key in tokens.items() if token[:SHORT_LENGTH] in short}

    def forget(self) -> None:
        """Read the keys again at the next batch (this one's were rolled back)."""
        self._summed = None
