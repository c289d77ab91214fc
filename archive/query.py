"""Finding records: filters turned into one parameterised query (no user text is
ever pasted into SQL), read-only SQL, and the output formats."""

from __future__ import annotations

import csv
import io
import json
import math
from dataclasses import dataclass, field
from datetime import date
from itertools import chain
from typing import Iterable, Iterator

from tabulate import tabulate

from lusoria import rulebook
from lusoria.notation.dates import date_range
from lusoria.validator.base import OptionError
from lusoria.validator.games import GAMES
from lusoria.archive.importer import position_key
from lusoria.archive.players import player_condition
from lusoria.archive.search import continuations, ply_search

COLUMNS = ["id", "game", "variant", "date", "white", "black", "result", "event", "site", "round", "plies",
           "valid", "errors", "warnings", "first_rule", "first_ply", "path", "line"]
TABLE_COLUMNS = ["id", "game", "variant", "date", "white", "black", "result", "plies", "valid", "first_rule"]
FORMATS = ("table", "json", "csv", "lgn")


@dataclass
class Filters:
    """What `lusoria query` may ask for; every filter given must hold."""

    game: str | None = None
    variant: str | None = None
    white: str | None = None
    black: str | None = None
    player: str | None = None  # either side
    event: str | None = None
    site: str | None = None
    date_from: str | None = None  # a PGN date (YYYY.MM.DD, ?? allowed; or YYYY, YYYY.MM) or an ISO date
    date_to: str | None = None
    result: str | None = None
    valid: bool | None = None
    rule: str | None = None  # records with a diagnostic for this rule
    tags: list[tuple[str, str]] = field(default_factory=list)
    text: str | None = None  # words, all of them, in players, event, site, source tags or comments
    position: str | None = None  # a position string: records that reached it, with the ply
    limit: int | None = None
    include_unknown: bool = False  # date filters also let records of unknown date through
    pattern: str | None = None  # a position pattern (docs/notation.md §6.1), matched at any ply
    symmetric: bool = False  # patterns also in the 8 symmetries of a square board
    positions: list[str] = field(default_factory=list)  # positions or patterns: any of them
    material: list[str] = field(default_factory=list)  # material conditions, e.g. "white<=4, king"
    material_for: int = 1  # the ply conditions hold for this many plies in a row
    records: list[str] = field(default_factory=list)  # record texts: the same games, or continuations


def _iso(text: str, end: bool) -> str:
    """A bound for a date filter: a PGN date's earliest (or latest) day, or an ISO date."""
    if "-" in text and "." not in text:
        try:
            return date.fromisoformat(text).isoformat()
        except ValueError:
            raise ValueError(f"a date filter is YYYY[.MM[.DD]] or an ISO date YYYY-MM-DD, not '{text[:40]}'") from None
    first, last = date_range(text + ".??" * (2 - text.count(".")))  # 2025 and 2025.06 are shorthands
    if first is None:
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


def build(filters: Filters) -> tuple[str, list]:
    """The SQL and its parameters for `filters`. ValueError for a filter that cannot work."""
    where, params = [], []
    for column in ("game", "variant", "result"):
        if (value := getattr(filters, column)) is not None:
            where.append(f"records.{column} = ?")
            params.append(value if column == "result" else value.lower())
    for column in ("event", "site"):
        if (value := getattr(filters, column)) is not None:
            where.append(f"records.{column} = ? COLLATE NOCASE")
            params.append(value)
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
        params.append(int(filters.valid))
    if filters.rule is not None:
        where.append("records.id IN (SELECT record_id FROM diagnostics WHERE rule = ?)")
        params.append(rule_id(filters.rule))
    for name, value in filters.tags:
        where.append("records.id IN (SELECT record_id FROM tags WHERE name = ? AND value = ?)")
        params += [name, value]
    if filters.text is not None:
        if not filters.text.split():
            raise ValueError("--text needs at least one word")
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
    sql += f" ORDER BY {'' if searched else '+'}records.date_from IS NULL, records.date_from, records.id"
    if filters.limit is not None:
        sql += " LIMIT ?"
        params.append(filters.limit)
    return sql, params


def render(rows: Iterable[dict], format: str, columns: list[str] | None = None) -> str:
    """Rows as a table, JSON, CSV, or (when they hold the text) records in the notation."""
    return "".join(render_pieces(rows, format, columns))


def render_pieces(rows: Iterable[dict], format: str, columns: list[str] | None = None) -> Iterator[str]:
    """`render`, piece by piece: JSON, CSV and lgn hold one row at a time (a table needs all)."""
    rows = iter(rows)
    first = next(rows, None)
    if format == "lgn":
        for number, row in enumerate(chain([first], rows) if first is not None else ()):
            if not isinstance(row.get("text"), str):
                raise ValueError(f"the lgn format needs a column named text holding records; row {number + 1} "
                                 f"holds {_plain(row.get('text'))!r}")
            yield ("\n" if number else "") + row["text"]
        return
    if columns is None:
        columns = list(first) if first is not None else []
    shown = ({c: _plain(row.get(c)) for c in columns} for row in (chain([first], rows) if first is not None else ()))
    if format == "json":
        yield "["
        for number, row in enumerate(shown):
            yield ("," if number else "") + "\n  " + json.dumps(row, indent=2, ensure_ascii=False).replace("\n", "\n  ")
        yield "\n]\n" if first is not None else "]\n"
    elif format == "csv":
        out = io.StringIO()
        writer = csv.DictWriter(out, columns, lineterminator="\n")
        writer.writeheader()
        for row in shown:
            writer.writerow(row)
            yield out.getvalue()
            out.seek(0)
            out.truncate()
        yield out.getvalue()
    else:
        table = list(shown)
        yield tabulate(table, headers="keys") + "\n" if table else "no records\n"


def _plain(value):
    """A value JSON, CSV and a table can show: a BLOB as X'…', a float that is no number as text."""
    if isinstance(value, bytes):
        return f"X'{value.hex().upper()}'"
    if isinstance(value, float) and not math.isfinite(value):
        return str(value).replace("inf", "Infinity").replace("nan", "NaN")
    return value
