"""Searches within the plies of records: patterns, material, lists of positions (`--pattern`,
`--material`, `--positions`) and records that continue others (`--records`), as SQL for
`archive/query.py:build`. A ply condition is SQL over `p` (a row of plies) and `s` (its row of
positions); every ply condition given must hold at the same ply."""

from __future__ import annotations

import json
import re

from lusoria.archive.patterns import pattern_globs, required_squares
from lusoria.archive.positions import WINDOW

TERMS = {  # the names a material condition may use, as SQL over positions
    "white": "s.white", "black": "s.black", "king": "s.king",
    "white_inciti": "s.white_inciti", "black_inciti": "s.black_inciti",
    "inciti": "s.white_inciti + s.black_inciti",
    "white_off": "s.white_off", "black_off": "s.black_off",
}
OPERATORS = ("<=", ">=", "!=", "==", "=", "<", ">")
_CONDITION = re.compile(r"\s*([a-z_]+)\s*(?:(<=|>=|!=|==|=|<|>)\s*([0-9]+))?\s*")


# What a record's material_ranges must allow for a condition at one of its plies to hold.
POSSIBLE = {"<=": "{0}_min <= ?", "<": "{0}_min < ?", ">=": "{0}_max >= ?", ">": "{0}_max > ?",
            "=": "{0}_min <= ? AND {0}_max >= ?", "!=": "NOT ({0}_min = ? AND {0}_max = ?)"}


def material_condition(text: str) -> tuple[str, list, str, list]:
    """SQL for material conditions, `white<=4, black>=10, king`, each of which must hold (a
    bare name means at least one): over a ply's positions row, and over a record's
    material_ranges row (which records may hold a ply that matches), with their parameters."""
    clauses, params, possible, bounds = [], [], [], []
    for part in text.split(","):
        m = _CONDITION.fullmatch(part)
        if not m or m[1] not in TERMS:
            raise ValueError(f"'{part.strip()}' is not a material condition: NAME, or NAME OP COUNT with NAME "
                             f"one of {', '.join(TERMS)} and OP one of {' '.join(OPERATORS)}")
        operator, count = "=" if m[2] == "==" else m[2] or ">=", int(m[3] or 1)
        clauses.append(f"{TERMS[m[1]]} {operator} ?")
        params.append(count)
        possible.append(POSSIBLE[operator].format(m[1]))
        bounds += [count] * POSSIBLE[operator].count("?")
    return " AND ".join(clauses), params, " AND ".join(possible), bounds


def _pattern(pattern: str, symmetric: bool) -> tuple[str, list, list[tuple[str, str]]]:
    """SQL over `s` for a pattern, its parameters, and its (game, GLOB) pairs."""
    globs = pattern_globs(pattern, symmetric)
    params = [value for pair in globs for value in pair]
    return "(" + " OR ".join(["(s.game = ? AND s.board GLOB ?)"] * len(globs)) + ")", params, globs


def _held(globs: list[tuple[str, str]], squares: str, of_game: bool = True) -> tuple[str, list]:
    """SQL: the record is of the game of one of `globs` (unless not `of_game`), and `squares`
    (a column of `squares_held`: `record_squares.squares`, `window_squares.squares`) held, at
    some ply, every piece that GLOB asks for: a check that rules out, cheaply, most records (or
    windows of plies) a rare pattern cannot match."""
    alternatives: list[str] = []
    params: list[str | int] = []
    for game, glob in globs:
        required = required_squares(game, glob)
        alternatives.append(("(+records.game = ?" if of_game else "(1")  # +: a check, not the index to follow
                            + f" AND (unicode(substr({squares}, ?, 1)) - 48) & ?" * len(required) + ")")
        params += [game] if of_game else []
        params += [value for pair in required for value in pair]
    return "(" + " OR ".join(alternatives) + ")", params


def _positions(lines: list[str], symmetric: bool) -> tuple[str, list, list[tuple[str, str]] | None]:
    """Any of `lines`: a position string (its keys) or a pattern; and the (game, GLOB) pairs
    of the patterns (None when there are positions too)."""
    from lusoria.archive.query import position_keys

    clauses: list[str] = []
    params: list = []
    keys: list[int] = []
    globs: list[tuple[str, str]] = []
    for line in lines:
        try:
            keys += position_keys(line)
        except ValueError:
            sql, found, pattern_globs = _pattern(line, symmetric)
            clauses.append(sql)
            params += found
            globs += pattern_globs
    if keys:
        clauses.insert(0, f"p.position IN ({', '.join('?' * len(keys))})")
        params = keys + params
    if not clauses:
        raise ValueError("the positions file holds no position or pattern")
    return "(" + " OR ".join(clauses) + ")", params, None if keys else globs


def ply_search(filters) -> tuple[str, list, str, list] | None:
    """(a WHERE clause, its parameters, a column `ply`: the first ply where every ply condition
    of `filters` holds — for `material_for` N plies in a row, the first of them —, its
    parameters); None when `filters` has no ply condition. The WHERE clause first rules out,
    cheaply, the records that cannot match (their game, what their squares held, their
    material ranges)."""
    parts: list[tuple[str, list]] = []
    records: list[str] = []
    record_params: list = []
    globs: list[tuple[str, str]] | None = None
    if filters.pattern is not None:
        sql, params, globs = _pattern(filters.pattern, filters.symmetric)
        parts.append((sql, params))
    if filters.positions:
        sql, params, listed = _positions([line for line in filters.positions if line.strip()], filters.symmetric)
        parts.append((sql, params))
        if filters.pattern is None:
            globs = listed
    if globs:
        # the ids are found once, without reading records (the game is checked with the plies);
        # +: records are still read in date order, each id checked from the date index alone
        held, held_params = _held(globs, "q.squares", of_game=False)
        records.append(f"+records.id IN (SELECT record_id FROM record_squares q WHERE {held})")
        record_params += held_params
    for text in filters.material:
        sql, params, possible, bounds = material_condition(text)
        parts.append((sql, params))
        # the ids are looked up once (not once a record); +: records are still read in date order
        records.append(f"+records.id IN (SELECT record_id FROM material_ranges WHERE {possible})")
        record_params += bounds
    if not parts:
        return None
    condition, params = " AND ".join(sql for sql, _ in parts), [value for _, found in parts for value in found]
    if filters.pattern is None and not filters.positions:  # material only: its runs, no position read
        plies = ("s.first_ply AS start, s.last_ply - s.first_ply + 1 AS length FROM material_runs s "
                 f"WHERE s.record_id = records.id AND {condition}")
    elif globs:  # patterns: only the plies of the windows whose squares held what they ask for
        held, held_params = _held(globs, "w.squares")
        # CROSS JOIN: SQLite joins in this order (windows first), which it would not choose
        plies = ("p.ply AS start, 1 AS length FROM window_squares w CROSS JOIN plies p ON p.record_id = w.record_id "
                 f"AND p.ply BETWEEN w.first_ply AND w.first_ply + {WINDOW - 1} CROSS JOIN positions s "
                 "ON s.key = p.position "
                 f"WHERE w.record_id = records.id AND {held} AND {condition}")
        params = held_params + params
    else:
        plies = ("p.ply AS start, 1 AS length FROM plies p JOIN positions s ON s.key = p.position "
                 f"WHERE p.record_id = records.id AND {condition}")
    if filters.material_for <= 1:
        where, column = f"EXISTS (SELECT {plies})", f"(SELECT min(start) FROM (SELECT {plies})) AS ply"
        run_params = params
    else:  # a run: plies in a row that match, which keep `start` minus the length matched before
        runs = ("(SELECT start, length, start - coalesce(sum(length) OVER (ORDER BY start ROWS BETWEEN UNBOUNDED "
                f"PRECEDING AND 1 PRECEDING), 0) AS run FROM (SELECT {plies}))")
        where = f"EXISTS (SELECT 1 FROM {runs} GROUP BY run HAVING sum(length) >= ?)"
        column = (f"(SELECT min(first) FROM (SELECT min(start) AS first FROM {runs} GROUP BY run "
                  f"HAVING sum(length) >= ?)) AS ply")
        run_params = params + [filters.material_for]
    return " AND ".join([*records, where]), record_params + run_params, column, run_params


def continuations(texts: list[str]) -> tuple[str, list]:
    """A WHERE clause: records whose main line begins with the main line of one of the records
    `texts` (the same game, or one that continues it), compared position by position."""
    from lusoria.archive.importer import position_key
    from lusoria.validator.replay import check

    selects, params = [], []
    for index, text in enumerate(texts):
        report = check(text)
        if not report.positions or report.rules is None:
            problem = report.diagnostics[0].message if report.diagnostics else "it has no moves"
            raise ValueError(f"record {index} of the records file cannot be replayed: {problem}")
        keys = [position_key(report.rules, position) for position in report.positions]
        last = len(keys) - 1
        selects.append("SELECT p.record_id FROM plies p WHERE p.ply = ? AND p.position = ? AND "
                       "(SELECT count(*) FROM plies q WHERE q.record_id = p.record_id AND q.ply <= ? "
                       "AND q.position = json_extract(?, '$[' || q.ply || ']')) = ?")
        params += [last, keys[-1], last, json.dumps(keys), last + 1]
    if not selects:
        raise ValueError("the records file holds no record")
    return f"records.id IN ({' UNION '.join(selects)})", params
