"""Searches within the plies of records: patterns, material, lists of positions (`--pattern`,
`--material`, `--positions`) and records that continue others (`--records`), as SQL for
`archive/query.py:build`. Each pattern or list of positions gives the plies of a record that
match (a column `start`); material conditions are SQL over `s` (a row of material_runs); every
ply condition given must hold at the same ply."""

from __future__ import annotations

import json
import re

from lusoria.archive.patterns import pattern_globs, required_squares
from lusoria.notation.numbers import whole_number

TERMS = {  # the names a material condition may use, as SQL over material_runs
    "white": "s.white", "black": "s.black", "king": "s.king",
    "white_inciti": "s.white_inciti", "black_inciti": "s.black_inciti",
    "inciti": "s.white_inciti + s.black_inciti",
    "white_off": "s.white_off", "black_off": "s.black_off",
}
OPERATORS = ("<=", ">=", "!=", "==", "=", "<", ">")
MAX_MATERIAL = 256  # pieces: the squares of the largest board
_CONDITION = re.compile(r"\s*([a-z_]+)\s*(?:(<=|>=|!=|==|=|<|>)\s*([0-9]+))?\s*")


# What a record's material_ranges must allow for a condition at one of its plies to hold.
POSSIBLE = {"<=": "{0}_min <= ?", "<": "{0}_min < ?", ">=": "{0}_max >= ?", ">": "{0}_max > ?",
            "=": "{0}_min <= ? AND {0}_max >= ?", "!=": "NOT ({0}_min = ? AND {0}_max = ?)"}


def material_condition(text: str) -> tuple[str, list, str, list]:
    """SQL for material conditions, `white<=4, black>=10, king`, each of which must hold (a
    bare name means at least one): over a ply's material_runs row, and over a record's
    material_ranges row (which records may hold a ply that matches), with their parameters."""
    clauses, params, possible, bounds = [], [], [], []
    for part in text.split(","):
        m = _CONDITION.fullmatch(part)
        count = whole_number(m[3] or "1", 0, MAX_MATERIAL) if m else None
        if not m or m[1] not in TERMS or count is None:
            raise ValueError(f"'{part.strip()}' is not a material condition: NAME, or NAME OP COUNT with NAME "
                             f"one of {', '.join(TERMS)}, OP one of {' '.join(OPERATORS)} and COUNT "
                             f"from 0 to {MAX_MATERIAL}")
        operator = "=" if m[2] == "==" else m[2] or '>='
        clauses.append(f"{TERMS[m[1]]} {operator} ?")
        params.append(count)
        possible.append(POSSIBLE[operator].format(m[1]))
        bounds += [count] * POSSIBLE[operator].count("?")
    return " AND ".join(clauses), params, " AND ".join(possible), bounds


# The plies of the record whose board matches GLOBS (a parameter: JSON of [game, GLOB] pairs)
MATCHING_PLIES = ("SELECT value AS start FROM json_each((SELECT lusoria_matching_plies(b.boards, records.game, ?) "
                  "FROM record_boards b WHERE b.record_id = records.id))")


def _held(globs: list[tuple[str, str]]) -> tuple[str, list]:
    """SQL: the ids of the records of the game of one of `globs` whose `record_squares.squares`
    held, at some ply, every piece that GLOB asks for: a check that rules out, cheaply, most
    records a rare pattern cannot match (it reads the rows of those games only)."""
    selects: list[str] = []
    params: list[str | int] = []
    for game in dict.fromkeys(game for game, _ in globs):
        alternatives = []
        params.append(game)
        for required in (required_squares(game, glob) for of_game, glob in globs if of_game == game):
            alternatives.append("(1" + " AND (unicode(substr(q.squares, ?, 1)) - 48) & ?" * len(required) + ")")
            params += [value for pair in required for value in pair]
        selects.append(f"SELECT record_id FROM record_squares q WHERE q.game = ? AND ({' OR '.join(alternatives)})")
    return " UNION ALL ".join(selects), params


def _positions(lines: list[str], symmetric: bool) -> tuple[str, list, list[tuple[str, str]]]:
    """The plies that match any of `lines`, each a position string (its keys) or a pattern, as
    SQL; its parameters; the (game, GLOB) pairs of the patterns."""
    from lusoria.archive.query import position_keys

    keys: list[int] = []
    globs: list[tuple[str, str]] = []
    for line in lines:
        try:
            keys += position_keys(line)
        except ValueError:
            globs += pattern_globs(line, symmetric)
    selects: list[str] = []
    params: list[int | str] = []
    if keys:
        selects.append(f"SELECT ply AS start FROM plies WHERE position IN ({', '.join('?' * len(keys))}) "
                       "AND record_id = records.id")
        params += keys
    if globs:
        selects.append(MATCHING_PLIES)
        params.append(json.dumps(globs))
    if not selects:
        raise ValueError("the positions file holds no position or pattern")
    return " UNION ".join(selects), params, globs


def ply_search(filters) -> tuple[str, list, str, list] | None:
    """(a WHERE clause, its parameters, a column `ply`: the first ply where every ply condition
    of `filters` holds — for `material_for` N plies in a row, the first of them —, its
    parameters); None when `filters` has no ply condition. The WHERE clause first rules out,
    cheaply, the records that cannot match (what their squares held, their material ranges)."""
    sources: list[tuple[str, list]] = []  # SQL of plies (`start`) that match, with parameters
    records: list[str] = []
    record_params: list = []
    globs: list[tuple[str, str]] = []
    if filters.pattern is not None:
        globs = pattern_globs(filters.pattern, filters.symmetric)
        sources.append((MATCHING_PLIES, [json.dumps(globs)]))
    if filters.positions:
        sql, params, listed = _positions([line for line in filters.positions if line.strip()], filters.symmetric)
        sources.append((sql, params))
        if filters.pattern is None and sql == MATCHING_PLIES:  # patterns only
            globs = listed
    if globs:
        # the ids are found once, without reading records; +: records are still read in date
        # order, each id checked from the date index alone
        held, held_params = _held(globs)
        records.append(f"+records.id IN ({held})")
        record_params += held_params
    conditions, condition_params = [], []
    for text in filters.material:
        sql, params, possible, bounds = material_condition(text)
        conditions.append(sql)
        condition_params += params
        # the ids are looked up once (not once a record); +: records are still read in date order
        records.append(f"+records.id IN (SELECT record_id FROM material_ranges WHERE {possible})")
        record_params += bounds
    if not sources and not conditions:
        return None
    if not sources:  # material only: its runs, no board read
        plies = ("s.first_ply AS start, s.last_ply - s.first_ply + 1 AS length FROM material_runs s "
                 f"WHERE s.record_id = records.id AND {' AND '.join(conditions)}")
        params = condition_params
    else:  # the plies of the first source that the other sources and the material allow
        (first, params), *others = sources
        where = [f"start IN ({sql})" for sql, _ in others]
        params = params + [value for _, found in others for value in found]
        if conditions:
            where.append("EXISTS (SELECT 1 FROM material_runs s WHERE s.record_id = records.id AND start "
                         f"BETWEEN s.first_ply AND s.last_ply AND {' AND '.join(conditions)})")
            params += condition_params
        plies = f"start, 1 AS length FROM ({first})" + (" WHERE " + " AND ".join(where) if where else "")
    if filters.material_for <= 1:
        where_sql, column = f"EXISTS (SELECT {plies})", f"(SELECT min(start) FROM (SELECT {plies})) AS ply"
        run_params = params
    else:  # a run: plies in a row that match, which keep `start` minus the length matched before
        runs = ("(SELECT start, length, start - coalesce(sum(length) OVER (ORDER BY start ROWS BETWEEN UNBOUNDED "
                f"PRECEDING AND 1 PRECEDING), 0) AS run FROM (SELECT {plies}))")
        where_sql = f"EXISTS (SELECT 1 FROM {runs} GROUP BY run HAVING sum(length) >= ?)"
        column = (f"(SELECT min(first) FROM (SELECT min(start) AS first FROM {runs} GROUP BY run "
                  f"HAVING sum(length) >= ?)) AS ply")
        run_params = params + [filters.material_for]
    return " AND ".join([*records, where_sql]), record_params + run_params, column, run_params


def continuations(texts: list[str]) -> tuple[str, list]:
    """A WHERE clause: records whose main line begins with the main line of one of the records
    `texts` (the same game, or one that continues it), compared position by position."""
    from lusoria.archive.positions import keys_of
    from lusoria.validator.replay import check

    selects, params = [], []
    for index, text in enumerate(texts):
        report = check(text)
        if not report.positions or report.rules is None:
            problem = report.diagnostics[0].message if report.diagnostics else "it has no moves"
            raise ValueError(f"record {index} of the records file cannot be replayed: {problem}")
        keys = keys_of(report.rules, report.positions)
        last = len(keys) - 1
        # each ply looked up by its position (the order of plies' b-tree)
        selects.append("SELECT p.record_id FROM plies p WHERE p.position = ? AND p.ply = ? AND "
                       "(SELECT count(*) FROM json_each(?) j JOIN plies q ON q.position = j.value "
                       "AND q.record_id = p.record_id AND q.ply = j.key) = ?")
        params += [keys[-1], last, json.dumps(keys), last + 1]
    if not selects:
        raise ValueError("the records file holds no record")
    return f"records.id IN ({' UNION '.join(selects)})", params
