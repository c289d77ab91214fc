"""Finding records: filters turned into one parameterised query (no user text is
ever pasted into SQL). The rows are rendered by the face (lusoria.output)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from typing import Any

from lusoria import rulebook
from lusoria.errors import LusoriaError
from lusoria.notation.dates import date_range
from lusoria.validator.base import OptionError
from lusoria.validator.games import GAMES
from lusoria.archive.positions import position_key
from lusoria.archive.players import name_condition, player_condition
from lusoria.archive.search import continuations, ply_search

COLUMNS = ["id", "game", "variant", "date", "white", "black", "result", "event", "site", "round", "plies",
           "valid", "errors", "warnings", "first_rule", "first_ply", "path", "line"]
MAX_SQL_INTEGER = 2 ** 63 - 1


def _filter(default: Any = None, *, help: str | None, option: str | None = None, **declared: Any) -> Any:
    """A field of Filters with what a command-line option for it needs (its help; `option`, when
    its name is not the field's; `metavar`, `choices`, `minimum`, `maximum`, `negative`: the
    option that sets it False; `read`: `pairs`, `lines` or `records`, when the option names a
    file, or NAME=VALUE, that the field holds the content of)."""
    meta = {"help": help, "option": option, **declared}
    if isinstance(default, list):
        return field(default_factory=list, metadata=meta)
    return field(default=default, metadata=meta)


@dataclass
class Filters:
    """What `lusoria query` may ask for; every filter given must hold. Each field declares its
    command-line option too (`_filter`): the CLI makes its options from these fields."""

    game: str | None = _filter(help="The game, as its Game tag names it.")
    variant: str | None = _filter(help="The Variant (seed, seneca, piso, petteia, dux, …).")
    white: str | None = _filter(help="White's name (whole, any case).")
    black: str | None = _filter(help="Black's name (whole, any case).")
    player: str | None = _filter(help="A player on either side (whole name, any case).")
    event: str | None = _filter(help="The Event (whole, any case).")
    site: str | None = _filter(help="The Site (whole, any case).")
    date_from: str | None = _filter(  # a PGN date (YYYY.MM.DD, ?? allowed; or YYYY, YYYY.MM) or an ISO date
        help="Games that may have been played on or after this date (YYYY[.MM[.DD]]).")
    date_to: str | None = _filter(help="Games that may have been played on or before this date.")
    result: str | None = _filter(help=None, choices=("1-0", "0-1", "1/2-1/2", "*"))
    valid: bool | None = _filter(help="Only valid, or only invalid, records.", negative="invalid")
    rule: str | None = _filter(help="Records with a diagnostic for this rule (T4, S4, Q6, syntax, …).")
    tags: list[tuple[str, str]] = _filter([], option="tag", metavar="NAME=VALUE", read="pairs",
                                          help="A tag and its exact value (repeatable).")
    text: str | None = _filter(help="Words found in the players, event, site, source tags or comments.")
    position: str | None = _filter(help="A position string: records that reached it, and at which ply.")
    limit: int | None = _filter(help="At most this many records.", maximum=MAX_SQL_INTEGER, minimum=0)
    include_unknown: bool = _filter(False, help="Date filters also let records of unknown date through.")
    pattern: str | None = _filter(
        help="A position pattern (docs/notation.md §6.1): records with a ply that matches.")
    symmetric: bool = _filter(False, help="Patterns also match in the 8 symmetries of a square board.")
    positions: list[str] = _filter([], read="lines",
                                   help="A file of positions or patterns, one a line: records with a ply that "
                                        "matches any.")
    material: list[str] = _filter([], metavar="CONDITIONS",
                                  help="Piece counts, e.g. 'white<=4, king' (repeatable; all hold at the same ply).")
    material_for: int = _filter(1, option="for", minimum=1,
                                help="The ply conditions hold for at least this many plies in a row.")
    records: list[str] = _filter([], read="records",  # record texts: the same games, or continuations
                                 help="An .lgn file (UTF-8): the same games as its records, or games that continue them.")


class FilterError(LusoriaError, ValueError):
    """A filter that cannot work; `filter` names the field of Filters."""

    def __init__(self, filter: str, problem: str):
        super().__init__(f"the {filter} filter {problem}")
        self.filter, self.problem = filter, problem


def _iso(text: str, end: bool) -> str:
    """A bound for a date filter: a PGN date's earliest (or latest) day, or an ISO date."""
    if "-" in text and "." not in text:
        try:
            return date.fromisoformat(text).isoformat()
        except ValueError:
            raise ValueError(f"a date filter is YYYY[.MM[.DD]] or an ISO date YYYY-MM-DD, not '{text[:40]}'") from None
    first, last = date_range(text + ".??" * (2 - text.count(".")))  # 2025 and 2025.06 are shorthands
    if first is None or last is None:
        raise ValueError(f"a date filter needs a known year, not '{text}'")
    return last if end else first


def position_keys(text: str) -> list[int]:
    """The keys of a position string, read by every game that can read it."""
    keys = []
    for cls in GAMES.values():
        try:
            rules = cls.rules_for_position(text)
            keys.append(position_key(rules, rules.parse_position(text)))
        except (OptionError, ValueError, IndexError):
            continue
    if not keys:
        raise ValueError(f"'{text}' is not a position string of any game (see docs/notation.md §6)")
    return keys


def rule_id(written: str) -> str:
    """A rule ID as diagnostics store it (`t2` -> `T2`, `SYNTAX` -> `syntax`)."""
    try:
        return rulebook.rule(written).id
    except KeyError:
        return written


def build(filters: Filters, ordered: bool = True) -> tuple[str, list]:
    """The SQL and its parameters for `filters` (records oldest first; unless `ordered` is
    False and there is no `limit`: in any order). ValueError for a filter that cannot work."""
    where, params = [], []
    for column in ("game", "variant", "result"):
        if (value := getattr(filters, column)) is not None:
            where.append(f"records.{column} = ?")
            params.append(value if column == "result" else value.lower())
    for column in ("event", "site"):
        if (value := getattr(filters, column)) is not None:
            sql, found = name_condition(f"records.{column}", value)
            where.append(sql)
            params += found
    for column in ("white", "black"):
        if (value := getattr(filters, column)) is not None:
            sql, found = player_condition(f"records.{column}", value)
            where.append(sql)
            params += found
    if filters.player is not None:
        white, black = player_condition("records.white", filters.player), \
            player_condition("records.black", filters.player)
        where.append(f"({white[0]} OR {black[0]})")
        params += white[1] + black[1]
    unknown = " OR records.date_from IS NULL" if filters.include_unknown else ""
    if filters.date_from is not None:
        where.append(f"(records.date_to >= ?{unknown})")
        params.append(_iso(filters.date_from, end=False))
    if filters.date_to is not None:
        where.append(f"(records.date_from <= ?{unknown})")
        params.append(_iso(filters.date_to, end=True))
    if filters.valid is not None:
        where.append("records.valid = ?")
        params.append(filters.valid)
    if filters.rule is not None:
        where.append("records.id IN (SELECT record_id FROM diagnostics WHERE rule = ?)")
        params.append(rule_id(filters.rule))
    for name, value in filters.tags:
        where.append("records.id IN (SELECT record_id FROM tags WHERE name = ? AND value = ?)")
        params += [name, value]
    if filters.text is not None:
        if not filters.text.split():
            raise FilterError("text", "needs at least one word")
        where.append("records.id IN (SELECT rowid FROM records_fts WHERE records_fts MATCH ?)")
        params.append(" ".join('"' + word.replace('"', '""') + '"' for word in filters.text.split()))
    if filters.records:
        sql, found = continuations(filters.records)
        where.append(sql)
        params += found
    select = ", ".join(f"records.{c}" for c in COLUMNS) + ", records.text"
    if searched := ply_search(filters):
        where.append(searched[0])
        params += searched[1]
        if filters.position is None:
            select += ", " + searched[2]
            params = searched[3] + params
    if filters.position is not None:
        keys = position_keys(filters.position)
        marks = ", ".join("?" * len(keys))
        select += f", (SELECT min(ply) FROM plies WHERE record_id = records.id AND position IN ({marks})) AS ply"
        where.append(f"records.id IN (SELECT record_id FROM plies WHERE position IN ({marks}))")
        params = keys + params + keys
    sql = f"SELECT {select} FROM records" + (" WHERE " + " AND ".join(where) if where else "")
    # idx_records_date_order serves searches within plies (they stop at their first matches);
    # `+` keeps it from other queries, for which an index of their own filter is better
    if ordered or filters.limit is not None:
        sql += f" ORDER BY {'' if searched else '+'}records.date_from IS NULL, records.date_from, records.id"
    if filters.limit is not None:
        sql += " LIMIT ?"
        params.append(filters.limit)
    return sql, params
