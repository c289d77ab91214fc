"""What an archive holds, in figures: each read from an index (no scan of the records' rows)."""

from __future__ import annotations

import sqlite3

import sqlite_utils

from lusoria.archive.players import MOST_GAMES
from lusoria.archive.query import REFUSED_TYPES


def _by_count(named: list[tuple], db: sqlite3.Connection | sqlite_utils.Database) -> list[dict]:
    """`named` (value, records), and the records of no game: by the label of the type a reader
    refused (query.REFUSED_TYPES, as `query` shows them), the others None (a record that names no
    game and does not parse); the most records first (None first of as many)."""
    refused = list(db.execute(f"SELECT label, count(*) FROM ({REFUSED_TYPES}) GROUP BY label"))
    unnamed = db.execute("SELECT count(*) FROM records WHERE game IS NULL").fetchone()[0] - sum(n for _, n in refused)
    rows = named + refused + ([(None, unnamed)] if unnamed else [])
    return [
        {"value": value, "records": count}
        for value, count in sorted(rows, key=lambda row: (-row[1], row[0] is not None, row[0] or ""))
    ]


def stats(db: sqlite3.Connection | sqlite_utils.Database, top: int = 10) -> dict:
    """The figures of `lusoria stats`: the `top` variants, players and first error rules with the
    most records (a mixed archive holds 160 variants), and how many variants and records the
    others are (`more_variants`); ValueError for a `top` below 1."""
    if top < 1:
        raise ValueError(f"top is a number of rows from 1 on, not {top}")

    def counts(sql: str, *params: int) -> list[dict]:
        return [dict(zip(("value", "records"), row)) for row in db.execute(sql, params)]

    records = db.execute("SELECT count(*) FROM records").fetchone()[0]
    valid = db.execute("SELECT count(*) FROM records WHERE valid = 1").fetchone()[0]
    mean, longest = db.execute("SELECT round(avg(plies), 1), max(plies) FROM records").fetchone()
    median = db.execute(
        "SELECT avg(plies) FROM (SELECT plies FROM records ORDER BY plies LIMIT 2 - ? % 2 OFFSET (? - 1) / 2)",
        [records, records],
    ).fetchone()[0]  # the middle one, or two
    variants = _by_count(
        list(
            db.execute(
                "SELECT coalesce(game || ' ' || variant, game), count(*) FROM records "
                "WHERE game IS NOT NULL GROUP BY game, variant"
            )
        ),
        db,
    )
    return {
        "records": records,
        "valid": valid,
        "invalid": records - valid,
        "plies": {"mean": mean, "median": round(median) if records % 2 else median, "max": longest},
        "games": _by_count(
            list(db.execute("SELECT game, count(*) FROM records WHERE game IS NOT NULL GROUP BY game")), db
        ),
        "variants": variants[:top],
        "more_variants": {"variants": len(variants[top:]), "records": sum(row["records"] for row in variants[top:])},
        "results": counts("SELECT result, count(*) FROM records GROUP BY result ORDER BY 2 DESC, 1"),
        "endings": counts("SELECT ending, count(*) FROM records GROUP BY ending ORDER BY 2 DESC, 1"),
        "players": counts(MOST_GAMES, top),
        "first_error_rules": counts(
            "SELECT first_rule, count(*) FROM records WHERE first_rule IS NOT NULL "
            "GROUP BY first_rule ORDER BY 2 DESC, 1 LIMIT ?",
            top,
        ),
    }
