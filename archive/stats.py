"""What an archive holds, in figures: each read from an index (no scan of the records' rows), of
every record or of those that filters select."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterable

import sqlite_utils

from lusoria.archive.players import check_top, most_games
from lusoria.formats.contract import TYPE_TAG

# The records a reader refused (of no game; their type kept as the contract's TYPE_TAG) and the
# label of each, its type followed by REFUSED: what `query` shows as their game, `stats` counts them by
REFUSED = " (refused)"
REFUSED_TYPES = (
    f"SELECT record_id, value || '{REFUSED}' AS label FROM other_tags WHERE name = '{TYPE_TAG}' "
    "AND record_id IN (SELECT id FROM records WHERE game IS NULL)"
)
Rows = Callable[..., list[tuple]]  # SQL with one {chosen} (a condition on records.id) and its parameters -> rows


def _by_count(named: list[tuple], rows: Rows) -> list[dict]:
    """`named` (value, records), and the records of no game: by the label of the type a reader
    refused (REFUSED_TYPES, as `query` shows them), the others None (a record that names no
    game and does not parse); the most records first, then by name (None, read as "", first of as many:
    no name or label is empty)."""
    refused = rows(
        f"SELECT refused.label, count(*) FROM ({REFUSED_TYPES}) AS refused JOIN records ON records.id = record_id "
        "WHERE {chosen} GROUP BY refused.label"
    )
    unnamed = rows("SELECT count(*) FROM records WHERE game IS NULL AND {chosen}")[0][0] - sum(n for _, n in refused)
    found = named + refused + ([(None, unnamed)] if unnamed else [])
    return [
        {"value": value, "records": count} for value, count in sorted(found, key=lambda row: (-row[1], row[0] or ""))
    ]


def stats(
    db: sqlite3.Connection | sqlite_utils.Database, top: int = 10, records: tuple[str, list] | None = None
) -> dict:
    """The figures of `lusoria stats`: the `top` variants, players and first error rules with the
    most records (a mixed archive holds 160 variants), and how many variants and records the
    others are (`more_variants`), of the records `records` selects (SQL that selects their ids,
    with its parameters; None: every record); ValueError for a `top` below 1."""
    check_top(top)
    rows = _selecting(db, records)
    players, players_params = most_games(top, records)
    return {
        **_sizes(rows),
        **_games_and_variants(rows, top),
        "results": _counts(
            rows("SELECT result, count(*) FROM records WHERE {chosen} GROUP BY result ORDER BY 2 DESC, 1")
        ),
        "endings": _counts(
            rows("SELECT ending, count(*) FROM records WHERE {chosen} GROUP BY ending ORDER BY 2 DESC, 1")
        ),
        "players": _counts(db.execute(players, players_params)),
        "first_error_rules": _counts(
            rows(
                "SELECT first_rule, count(*) FROM records WHERE first_rule IS NOT NULL AND {chosen} "
                "GROUP BY first_rule ORDER BY 2 DESC, 1 LIMIT ?",
                top,
            )
        ),
    }


def _sizes(rows: Rows) -> dict:
    """The records `rows` selects, the valid and the invalid ones, and their plies: mean, median
    and longest."""
    count = rows("SELECT count(*) FROM records WHERE {chosen}")[0][0]
    valid = rows("SELECT count(*) FROM records WHERE valid = 1 AND {chosen}")[0][0]
    [(mean, longest)] = rows("SELECT round(avg(plies), 1), max(plies) FROM records WHERE {chosen}")
    median = rows(
        "SELECT avg(plies) FROM (SELECT plies FROM records WHERE {chosen} ORDER BY plies "
        "LIMIT 2 - ? % 2 OFFSET (? - 1) / 2)",
        count,
        count,
    )[0][0]  # the middle one, or two
    return {
        "records": count,
        "valid": valid,
        "invalid": count - valid,
        "plies": {"mean": mean, "median": round(median) if count % 2 else median, "max": longest},
    }


def _games_and_variants(rows: Rows, top: int) -> dict:
    """The records `rows` selects by game, and by variant: the `top` variants, and how many
    variants and records the others are (`more_variants`)."""
    variants = _by_count(
        rows(
            "SELECT coalesce(game || ' ' || variant, game), count(*) FROM records "
            "WHERE game IS NOT NULL AND {chosen} GROUP BY game, variant"
        ),
        rows,
    )
    return {
        "games": _by_count(
            rows("SELECT game, count(*) FROM records WHERE game IS NOT NULL AND {chosen} GROUP BY game"), rows
        ),
        "variants": variants[:top],
        "more_variants": {"variants": len(variants[top:]), "records": sum(row["records"] for row in variants[top:])},
    }


def _selecting(db: sqlite3.Connection | sqlite_utils.Database, records: tuple[str, list] | None) -> Rows:
    """`Rows` of `db` over the records `records` selects (SQL that selects their ids, with its
    parameters; None: every record)."""
    chosen, chosen_params = (f"records.id IN ({records[0]})", records[1]) if records else ("1", [])

    def rows(sql: str, *params: int) -> list[tuple]:
        return list(db.execute(sql.format(chosen=chosen), [*chosen_params, *params]))

    return rows


def _counts(found: Iterable[tuple]) -> list[dict]:
    """Rows (value, records) as dicts."""
    return [dict(zip(("value", "records"), row)) for row in found]
