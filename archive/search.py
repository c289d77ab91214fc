"""Searches within the plies of records: positions, patterns, material, lists of positions
(`--position`, `--pattern`, `--material`, `--positions`) and records that continue others
(`--records`), as SQL for `archive/query.py:build`. Each position, pattern or list of positions
gives the plies of a record that match (a column `start`); material conditions are SQL over `s`
(a row of material_runs); every ply condition given must hold at the same ply."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import NamedTuple

from lusoria.archive.patterns import pattern_globs, required_squares, unread
from lusoria.archive.positions import EXACT_PLIES, SEARCH_TERMS, boards_and_materials, reaches, search_terms, tokens_of
from lusoria.errors import LusoriaError, Refused
from lusoria.notation.numbers import whole_number
from lusoria.notation.reader import RecordText
from lusoria.notation.sources import shown_place
from lusoria.validator.base import MATERIAL, MATERIAL_SUMS, Game, OptionError, Position
from lusoria.validator.games import GAMES
from lusoria.validator.replay import ERROR, Diagnostic, check
from lusoria.words import quoted

TERMS = {  # the names a material condition may use, as SQL over material_runs
    **{name: f"s.{name}" for name in MATERIAL},
    **{total: " + ".join(f"s.{part}" for part in parts) for total, parts in MATERIAL_SUMS.items()},
}
OPERATORS = ("<=", ">=", "!=", "==", "=", "<", ">")
MAX_MATERIAL = 256  # pieces: the squares of the largest board
_CONDITION = re.compile(r"\s*([a-z_]+)\s*(?:(<=|>=|!=|==|=|<|>)\s*([0-9]+))?\s*")


# What a record's material_ranges must allow for a condition at one of its plies to hold.
POSSIBLE = {
    "<=": "{0}_min <= ?",
    "<": "{0}_min < ?",
    ">=": "{0}_max >= ?",
    ">": "{0}_max > ?",
    "=": "{0}_min <= ? AND {0}_max >= ?",
    "!=": "NOT ({0}_min = ? AND {0}_max = ?)",
}


def material_condition(text: str) -> tuple[str, list, str, list]:
    """SQL for material conditions, `white<=4, black>=10, king`, each of which must hold (a
    bare name means at least one): over a ply's material_runs row, and over a record's
    material_ranges row (which records may hold a ply that matches), with their parameters."""
    clauses, params, possible, bounds = [], [], [], []
    for part in text.split(","):
        m = _CONDITION.fullmatch(part)
        count = whole_number(m[3] or "1", 0, MAX_MATERIAL) if m else None
        if not m or m[1] not in TERMS or count is None:
            raise Refused(
                f"{quoted(part.strip())} is not a material condition: NAME, or NAME OP COUNT with NAME "
                f"one of {', '.join(TERMS)}, OP one of {' '.join(OPERATORS)} and COUNT "
                f"from 0 to {MAX_MATERIAL}"
            )
        operator = "=" if m[2] == "==" else m[2] or ">="
        clauses.append(f"{TERMS[m[1]]} {operator} ?")
        params.append(count)
        possible.append(POSSIBLE[operator].format(m[1]))
        bounds += [count] * POSSIBLE[operator].count("?")
    return " AND ".join(clauses), params, " AND ".join(possible), bounds


# The plies of the record whose board matches GLOBS (a parameter: JSON of [game, GLOB] pairs)
MATCHING_PLIES = (
    "SELECT value AS start FROM json_each((SELECT lusoria_matching_plies(b.boards, records.game, ?) "
    "FROM record_boards b WHERE b.record_id = records.id))"
)


def _held(globs: list[tuple[str, str]]) -> tuple[str, list]:
    """SQL: the ids of the records of the game of one of `globs` whose `record_squares.squares`
    held, at some ply, every piece that GLOB asks for: a check that rules out, cheaply, most
    records a rare pattern cannot match (it reads the rows of those games only). Its squares and
    bits are numbers written in the SQL, and its alternatives nested in halves (`_either`): a file of
    thousands of patterns, each of 8 images, holds more than SQLite's 250,000 parameters, and more
    than its 1,000 levels of an expression as a chain of ORs (review80)."""
    selects: list[str] = []
    for game in dict.fromkeys(game for game, _ in globs):
        alternatives = [
            "(1"
            + "".join(f" AND (unicode(substr(q.squares, {square}, 1)) - 48) & {bits}" for square, bits in required)
            + ")"
            for required in (required_squares(game, glob) for of_game, glob in globs if of_game == game)
        ]
        selects.append(f"SELECT record_id FROM record_squares q WHERE q.game = ? AND {_either(alternatives)}")
    return " UNION ALL ".join(selects), list(dict.fromkeys(game for game, _ in globs))


def _either(conditions: list[str]) -> str:
    """SQL: any of `conditions` (not empty), ORed in halves, as deep as their count's logarithm."""
    if len(conditions) == 1:
        return conditions[0]
    half = len(conditions) // 2
    return f"({_either(conditions[:half])} OR {_either(conditions[half:])})"


def read_positions(text: str, sought_in: str | None = None) -> list[tuple[Game, Position]]:
    """A position string read by every game that can read it (its rules and the position); without
    the side to move (a string no game reads as it is), with either side to move. ValueError when
    no game can read it, saying why of each game, or of the game `sought_in` alone (`unread`): why
    each refuses it as written, or with White to move when it holds no side to move."""
    found: list[tuple[Game, Position]] = []
    problems: dict[str, str] = {}
    sided = {"w", "b"} & set(text.split()[1:])  # a side to move (Latrunculi's: the pieces in hand after it)
    explained = text if sided else f"{text} w"  # the string whose problems are said
    for written in (text, f"{text} w", f"{text} b"):
        for name, cls in GAMES.items():
            for rules in cls.rules_for_position(written):
                try:
                    found.append((rules, rules.parse_position(written)))
                    break
                except OptionError as error:
                    if written == explained:
                        problems.setdefault(name, str(error))
            if written == explained:  # no rules to read it with (no Hnefatafl variant of 10 ranks); unsaid if read
                problems.setdefault(name, "none of its variants is played on a board of that size")
        if found and written == text:
            break
    if not found:
        raise Refused(unread(f"'{text}' is not a position string", problems, sought_in, "§6"))
    return found


def search_terms_of_positions(text: str, filters=None) -> list[list]:
    """What a term of `positions` is compared with (`positions.search_terms`) for each position a
    position string may be (`read_positions_of`: refused when `filters` name a game that reads none),
    and with `filters.symmetric` for each of its images (`Game.symmetric`), as a pattern's."""
    symmetric = filters is not None and filters.symmetric
    terms = (
        search_terms(rules, image)
        for rules, position in read_positions_of(text, filters)
        for image in ([image for image, _ in rules.symmetric(position)] if symmetric else [position])
    )
    return list({json.dumps(found): found for found in terms}.values())  # an image may be the position


# The plies of the main lines that reached a position sought, with the number of the list it is one
# of (a parameter: JSON of what positions.search_terms gives and the number), from the index `positions`,
# which lists a token's plies by token, not by record
REACHED = (
    f"WITH search_terms({', '.join(SEARCH_TERMS)}, list) AS MATERIALIZED (SELECT "
    f"{', '.join(f'value ->> {n}' for n in range(len(SEARCH_TERMS) + 1))} FROM json_each(?)) "
    "SELECT v.doc, v.offset, w.list FROM search_terms w CROSS JOIN position_plies v "
    f"ON v.term >= w.low AND v.term < w.high WHERE {reaches('v', 'w', bare=True)}"
)


def reached(lists: list[list[list]]) -> tuple[str, list]:
    """A common table expression `reached(record_id, plies_0, plies_1, …)`: the records whose main
    line reached a position of every list of positions sought (`search_terms_of_positions`) of `lists`,
    and the plies at which it reached each (JSON arrays), read once."""
    bounds = [[*terms, number] for number, found in enumerate(lists) for terms in found]
    plies = ", ".join(f"json_group_array(offset) FILTER (WHERE list = {number})" for number in range(len(lists)))
    names = ", ".join(f"plies_{number}" for number in range(len(lists)))
    every = f" HAVING count(DISTINCT list) = {len(lists)}" if len(lists) > 1 else ""
    return (
        f"reached(record_id, {names}) AS (SELECT doc, {plies} FROM ({REACHED}) GROUP BY doc{every})",
        [json.dumps(bounds)],
    )


@dataclass
class Source:
    """Plies of a record that match (a column `start`), with its parameters, and `only`, a
    condition on `records` that rules out cheaply the records that cannot match (or ""), with
    theirs."""

    sql: str
    params: list
    only: str = ""
    only_params: list = field(default_factory=list)


def _patterns(globs: list[tuple[str, str]]) -> Source:
    """The plies whose board matches one of `globs`, in the records whose squares could."""
    held, held_params = _held(globs)
    # the ids are found once, without reading records; +: records are still read in date
    # order, each id checked from the date index alone
    return Source(MATCHING_PLIES, [json.dumps(globs)], only=f"+records.id IN ({held})", only_params=held_params)


class _Sought(NamedTuple):
    """What the reading of a --positions file depends on, of the filters: the game they name, and --symmetric."""

    game: str | None
    symmetric: bool


def _listed(lines: list[str], filters) -> tuple[list[list], list[tuple[str, str]]]:
    """The positions sought of `lines` when each is a position string, or else the (game, GLOB)
    pairs of each as a pattern (a position string is a pattern with every square given); either
    refused (ValueError) when `filters` name a game that reads a line as none of its own (a position
    string as a position: NotOfTheGame is not read again as a pattern)."""
    return _lines_read(tuple(lines), _Sought(filters.game, filters.symmetric))


@lru_cache(maxsize=2)
def _lines_read(lines: tuple[str, ...], sought: _Sought) -> tuple[list[list], list[tuple[str, str]]]:
    """`_listed`, kept: `unsought` reads a file's lines before its search does (review80: read twice, a file of
    400 patterns took twice the time)."""
    try:
        return [terms for line in lines for terms in search_terms_of_positions(line, sought)], []
    except NotOfTheGame:
        raise
    except ValueError:
        return [], [pair for line in lines for pair in _pattern_globs_of(line, sought)]


def unsought(lines: list[str], filters) -> tuple[int, ValueError] | None:
    """The first of `lines` (a --positions file's) that is neither a position string nor a pattern of the game
    `filters` name, as their search reads them, with why (its index, the ValueError), said by the caller with
    its place (h80a: a file of a hundred lines, one bad, was refused without its line); None when there is none.
    The lines are read once for it and the search (`_lines_read`); each alone only when one is refused."""
    try:
        _listed(lines, filters)
        return None
    except ValueError:
        pass
    for index, line in enumerate(lines):
        try:
            _listed([line], filters)
        except ValueError as problem:
            return index, problem
    return None  # (unreached: the lines refused, one is refused alone)


def _pattern_globs_of(pattern: str, filters) -> list[tuple[str, str]]:
    """`pattern_globs` of `pattern` (with the `filters`' symmetric), refused (ValueError) when the
    `filters` name a game that reads it on none of its boards (`_of_the_game`)."""
    globs = pattern_globs(pattern, filters.symmetric, filters.game)
    _of_the_game(filters, pattern, {game for game, _ in globs}, "pattern")
    return globs


@dataclass
class PlySearch:
    """What a search within plies adds to a query: common table expressions (`with_`, or "") and
    the tables it reads (`tables`: `records`, or the records reached, then `records`), a condition
    on `records` (`where`) and a column, the first ply where every ply condition holds (for
    `material_for` N plies in a row, the first of them), each with its parameters."""

    with_: str
    with_params: list
    tables: str
    where: str
    where_params: list
    column: str
    column_params: list


def read_positions_of(text: str, filters) -> list[tuple[Game, Position]]:
    """`read_positions`, refused (ValueError) when `filters` (or None) name a game that reads none."""
    found = read_positions(text, filters.game if filters is not None else None)
    _of_the_game(filters, text, {rules.name for rules, _ in found}, "position")
    return found


class NotOfTheGame(LusoriaError, ValueError):
    """A position or pattern sought that the game the filters name does not read (`_of_the_game`)."""


def _of_the_game(filters, sought: str, readers: set[str], kind: str) -> None:
    """NotOfTheGame when `filters` name a game that does not read `sought`, a `kind` ("position" or
    "pattern") that `readers` do read: one copied from another game's board would find nothing, and
    say nothing."""
    if filters is not None and filters.game and filters.game.lower() not in readers:
        raise NotOfTheGame(
            f"'{sought}' is a {kind} of {', '.join(sorted(readers))}, not of {filters.game.lower()}: its board is "
            "read off its ranks (docs/notation.md §6)"
        )


def ply_search(filters) -> PlySearch | None:
    """The search within plies of `filters` (position, pattern, positions, material), or None when
    it has none. Its condition first rules out, cheaply, the records that cannot match (what their
    squares held, their material ranges); a position, or a file of positions alone, drives it: the
    records that reached them, looked up once, are the only ones read."""
    lists, sources = _searched(filters)
    records = [source.only for source in sources if source.only]
    record_params = [value for source in sources for value in source.only_params]
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
    plies, params = _matching_plies(sources, conditions, condition_params)
    if filters.material_for <= 1:
        column, column_params = f"(SELECT min(start) FROM (SELECT {plies}))", params
    else:  # a run: plies in a row that match, which keep `start` minus the length matched before
        runs = (
            "(SELECT start, length, start - coalesce(sum(length) OVER (ORDER BY start ROWS BETWEEN UNBOUNDED "
            f"PRECEDING AND 1 PRECEDING), 0) AS run FROM (SELECT {plies}))"
        )
        column = (
            f"(SELECT min(first) FROM (SELECT min(start) AS first FROM {runs} GROUP BY run HAVING sum(length) >= ?))"
        )
        column_params = params + [filters.material_for]
    with_, with_params = reached(lists) if lists else ("", [])
    tables = "reached CROSS JOIN records ON records.id = reached.record_id" if lists else "records"
    return PlySearch(
        with_,
        with_params,
        tables,
        " AND ".join([*records, f"{column} IS NOT NULL"]),
        record_params + column_params,
        column,
        column_params,
    )


def _searched(filters) -> tuple[list[list[list]], list[Source]]:
    """What `filters` search the plies for: the search terms of each list of positions (`--position`,
    a positions file of positions), and the sources of the plies that match, theirs first (read from
    `reached`), then the patterns'."""
    lists: list[list[list]] = []
    sources: list[Source] = []
    if filters.position is not None:
        lists.append(search_terms_of_positions(filters.position, filters))
    if filters.pattern is not None:
        sources.append(_patterns(_pattern_globs_of(filters.pattern, filters)))
    if filters.positions:
        terms, globs = _listed([line for line in filters.positions if line.strip()], filters)
        if not terms and not globs:
            raise Refused("the positions file holds no position or pattern")
        if terms:
            lists.append(terms)
        else:
            sources.append(_patterns(globs))
    reached_sources = [
        Source(f"SELECT value AS start FROM json_each(reached.plies_{number})", []) for number in range(len(lists))
    ]
    return lists, reached_sources + sources


def _matching_plies(sources: list[Source], conditions: list[str], condition_params: list) -> tuple[str, list]:
    """The SQL (after SELECT) of a record's runs of plies that match, each its `start` and `length`,
    and its parameters: those of the first source that the other sources and the material
    `conditions` allow, or with no source, the material's runs (no board read)."""
    if not sources:  # material only: its runs, no board read
        plies = (
            "s.first_ply AS start, s.last_ply - s.first_ply + 1 AS length FROM material_runs s "
            f"WHERE s.record_id = records.id AND {' AND '.join(conditions)}"
        )
        return plies, condition_params
    first, *others = sources
    where = [f"start IN ({other.sql})" for other in others]
    params = first.params + [value for other in others for value in other.params]
    if conditions:
        where.append(
            "EXISTS (SELECT 1 FROM material_runs s WHERE s.record_id = records.id AND start "
            f"BETWEEN s.first_ply AND s.last_ply AND {' AND '.join(conditions)})"
        )
        params += condition_params
    return f"start, 1 AS length FROM ({first.sql})" + (" WHERE " + " AND ".join(where) if where else ""), params


def continuations(texts: list) -> tuple[str, list]:
    """A WHERE clause: records whose main line begins with the main line of one of the records
    `texts` (RecordText, a text of records or the path of a file of them, as `--records` takes it: the
    same game, or one that continues it), compared position by position.
    UnsearchableRecord for a record that is not valid: what it breaks would make it another game
    than the one meant; InputError for a file that cannot be read."""
    from lusoria.formats.sources import read_sources

    conditions: list[str] = []
    params: list = []
    records = ((given, record) for given, text in enumerate(texts, 1) for record in read_sources(text))
    for index, (given, text) in enumerate(records):
        report = check(text)
        if not report.valid or report.rules is None:
            raise UnsearchableRecord(index, report.source, report.diagnostics, given)
        # the main line's positions from its start, in order: a phrase of prefix tokens (each
        # position's token followed by any ply's code), anchored at the start; past the whole
        # tokens, the boards are compared
        tokens = tokens_of(report.rules, report.positions)
        conditions.append("records.id IN (SELECT rowid FROM positions WHERE positions MATCH ?)")
        params.append("^" + " + ".join(f'"{token}"*' for token in tokens))
        if len(tokens) > EXACT_PLIES:
            boards = "".join(board.decode() + "\n" for board in boards_and_materials(report.rules, report.positions)[0])
            conditions[-1] += (
                " AND (SELECT substr(lusoria_boards(boards) || char(10), 1, ?) FROM record_boards "
                "WHERE record_id = records.id) = ?"
            )
            params += [len(boards), boards]
    if not conditions:
        raise Refused("the records file holds no record")
    return "(" + " OR ".join(f"({condition})" for condition in conditions) + ")", params


class UnsearchableRecord(LusoriaError, ValueError):
    """A record of a records file that is not valid (its `index` from 0 among the records given;
    `source`, with its place and text but not what a reader made of it, and its check's
    `diagnostics`, read as UTF-8 only: none says an encoding to try): a search for it would find
    other games than the one meant. Said at its place, `file:line`, as the record of its file it is
    (from 0, as every command numbers records: h80a); a record of a text, as the record of that text it is, and
    which of the texts given (`given`, from 1) that is."""

    def __init__(self, index: int, source: RecordText, diagnostics: list[Diagnostic], given: int = 1):
        first = next((d for d in diagnostics if d.severity == ERROR), None)
        problem = replace(first, tries=()).said() if first else "its rules cannot be read"  # read as UTF-8 only
        which = f"{source.index} of " + ("the records file" if source.path else f"text {given} given")
        super().__init__(
            f"{shown_place(source.path, source.line)}: record {which} is not valid ({problem}); "
            "a search finds the games of a valid record"
        )
        self.index, self.diagnostics = index, [replace(d, tries=()) for d in diagnostics]  # (no option to try)
        self.source = replace(source, parsed=None, problems=())
