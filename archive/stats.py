"""What an archive holds, in figures."""

from __future__ import annotations

import sqlite3
import statistics

import sqlite_utils


def stats(db: sqlite3.Connection | sqlite_utils.Database, top: int = 10) -> dict:
    def counts(sql: str, *params: int) -> list[dict]:
        return [dict(zip(("value", "records"), row)) for row in db.execute(sql, params)]

    plies = [row[0] for row in db.execute("SELECT plies FROM records ORDER BY plies")]
    return {
        "records": len(plies),
        "valid": db.execute("SELECT count(*) FROM records WHERE valid").fetchone()[0],
        "invalid": db.execute("SELECT count(*) FROM records WHERE NOT valid").fetchone()[0],
        "plies": {"mean": round(statistics.fmean(plies), 1) if plies else None,
                  "median": statistics.median(plies) if plies else None, "max": max(plies, default=None)},
        "games": counts("SELECT game, count(*) FROM records GROUP BY game ORDER BY 2 DESC, 1"),
        "variants": counts("SELECT coalesce(game || ' ' || variant, game), count(*) FROM records "
                           "GROUP BY game, variant ORDER BY 2 DESC, 1"),
        "results": counts("SELECT result, count(*) FROM records GROUP BY result ORDER BY 2 DESC, 1"),
        "players": counts("SELECT player, count(*) FROM (SELECT white AS player FROM records UNION ALL "
                          "SELECT black FROM records) WHERE player IS NOT NULL AND player != '?' "
                          "GROUP BY player ORDER BY 2 DESC, 1 LIMIT ?", top),
        "first_error_rules": counts("SELECT first_rule, count(*) FROM records WHERE first_rule IS NOT NULL "
                                    "GROUP BY first_rule ORDER BY 2 DESC, 1 LIMIT ?", top),
    }
