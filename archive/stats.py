"""What an archive holds, in figures: each read from an index (no scan of the records' rows), of
every record or of those that filters select."""

from __future__ import annotations

import sqlite3
from bisect import bisect_right
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from itertools import accumulate

import sqlite_utils

from lusoria.archive.players import check_top, most_games
from lusoria.errors import Refused
from lusoria.formats.contract import TYPE_TAG
from lusoria.validator.base import Game, sides_named
from lusoria.validator.games import GAMES

# The records a reader refused (of no game; their type kept as the contract's TYPE_TAG) and the
# label of each, its type followed by REFUSED: what `query` shows as their game, `stats` counts them by
REFUSED = " (refused)"
REFUSED_TYPES = (
    f"SELECT record_id, value || '{REFUSED}' AS label FROM other_tags WHERE name = '{TYPE_TAG}' "
    "AND record_id IN (SELECT id FROM records WHERE game IS NULL)"
)
# The records that play by a Rules or Board tag (NOTATION.md §2) as well as their variant, by game,
# variant, those tags (`rule_tags`) and the columns `also` adds: what may be a catalogue's entry of their own (`_variant_keys`)
WITH_RULE_TAGS = (
    "SELECT game, variant, rule_tags{also}, count(*) FROM records WHERE id IN "
    "(SELECT record_id FROM other_tags WHERE name IN ('Rules', 'Board')) "
    "AND game IS NOT NULL AND rule_tags IS NOT NULL AND {{chosen}} GROUP BY game, variant, rule_tags{also}"
)
BY = ("game", "variant", "board")  # what `stats --by` breaks the results down by; a row names the sides as its games do
OUTCOMES = {"1-0": "white_won", "0-1": "black_won", "1/2-1/2": "drawn"}  # a result's outcome (any other: unfinished)
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
    db: sqlite3.Connection | sqlite_utils.Database,
    top: int = 10,
    records: tuple[str, list] | None = None,
    by: str | None = None,
) -> dict:
    """The figures of `lusoria stats`: the `top` variants, players and first error rules with the
    most records (a mixed archive holds 160 variants), and how many variants and records the
    others are (`more_variants`), of the records `records` selects (SQL that selects their ids,
    with its parameters; None: every record); with `by` (one of BY), the results of the `top` games,
    variants or boards with the most records too, and how many the others are and their records
    (`results_by`: `_results_by`, its `more_rows`). ValueError for a `top` below 1 or another `by`."""
    check_top(top)
    if by is not None and by not in BY:
        raise Refused(f"stats breaks results down by {' or '.join(BY)}, not {by!r}")
    rows = _selecting(db, records)
    players, players_params = most_games(top, records)
    return {
        **_sizes(rows),
        **_games_and_variants(rows, top),
        "boards": _counts(  # a record of no board (Laquet's, one not read) under None: `(no board)`
            rows("SELECT board, count(*) FROM records WHERE {chosen} GROUP BY board ORDER BY 2 DESC, 1")
        ),
        "results": _counts(
            rows("SELECT result, count(*) FROM records WHERE {chosen} GROUP BY result ORDER BY 2 DESC, 1")
        ),
        "endings": _counts(
            rows("SELECT ending, count(*) FROM records WHERE {chosen} GROUP BY ending ORDER BY 2 DESC, 1")
        ),
        "players": _counts(db.execute(players, players_params)),
        **_first_error_rules(rows, top),
        **({"results_by": {"grouping": by, **_folded("rows", _results_by(rows, by), top)}} if by else {}),
    }


def _sizes(rows: Rows) -> dict:
    """The records `rows` selects, the valid and the invalid ones, and their plies (`_plies`, read
    from the index of plies)."""
    count = rows("SELECT count(*) FROM records WHERE {chosen}")[0][0]
    valid = rows("SELECT count(*) FROM records WHERE valid = 1 AND {chosen}")[0][0]
    lengths = Counter(dict(rows("SELECT plies, count(*) FROM records WHERE {chosen} GROUP BY plies")))
    return {"records": count, "valid": valid, "invalid": count - valid, "plies": _plies(lengths)}


def _plies(lengths: Counter[int]) -> dict:
    """The mean, median and longest of records' plies, from how many records have each length: the
    mean and median to a tenth, a half rounded up (the median of an even count is the mean of the
    middle two); of no record, None."""
    count = lengths.total()
    if not count:
        return {"mean": None, "median": None, "max": None}
    ordered = sorted(lengths)
    ends = list(accumulate(lengths[length] for length in ordered))  # the records up to each length

    def nth(index: int) -> int:
        """The length of the index-th record (from 0), shortest first."""
        return ordered[bisect_right(ends, index)]

    total = sum(length * records for length, records in lengths.items())
    middle = nth((count - 1) // 2) + nth(count // 2)  # twice the median
    return {"mean": _tenths(total, count), "median": _tenths(middle, 2), "max": ordered[-1]}


def _tenths(total: int, count: int) -> float:
    """total / count to a tenth, a half rounded up (as SQLite's round)."""
    return (20 * total + count) // (2 * count) / 10


def _first_error_rules(rows: Rows, top: int) -> dict:
    """The rules of the first errors of the invalid records `rows` selects, folded past the `top`
    (`_folded`: `more_first_error_rules`), so that they add up to the invalid."""
    found = rows(
        "SELECT first_rule, count(*) FROM records WHERE first_rule IS NOT NULL AND {chosen} "
        "GROUP BY first_rule ORDER BY 2 DESC, 1"
    )
    return _folded("first_error_rules", _counts(found), top)


def _folded(key: str, counted: list[dict], top: int) -> dict:
    """`counted` (rows of a value and its records, the most first) under `key`: the `top` of them, and
    how many the others are and their records, under `more_` and `key` (`more_variants`)."""
    others = counted[top:]
    return {key: counted[:top], f"more_{key}": {key: len(others), "records": sum(row["records"] for row in others)}}


def _games_and_variants(rows: Rows, top: int) -> dict:
    """The records `rows` selects by game, and by variant: the `top` variants, and how many
    variants and records the others are (`_folded`: `more_variants`)."""
    variants = _by_count(_variant_counts(rows), rows)
    return {
        "games": _by_count(
            rows("SELECT game, count(*) FROM records WHERE game IS NOT NULL AND {chosen} GROUP BY game"), rows
        ),
        **_folded("variants", variants, top),
    }


def _variant_counts(rows: Rows) -> list[tuple[str, int]]:
    """The records `rows` selects by variant, `GAME/VARIANT` (as `--variant` takes it): `_variant_keys`."""
    return [(_label(game, variant), count) for (game, variant), count in _variant_keys(rows).items()]


def _variant_keys(rows: Rows, also: str = "") -> Counter[tuple]:
    """The records `rows` selects by game, variant and the columns `also` names (`, result`):
    (game, variant, *also) -> records, a catalogue's entry that records of a variant play by their
    Rules or Board tag (Tablut's aage with Rules first=white: saami-tablut-w) counted apart, under
    its name. Only the records that write one of those tags are read, through the b-tree of
    `other_tags` (the others are counted from the index of game and variant, with `also` from the rows)."""
    counts = Counter(
        {
            tuple(key): count
            for *key, count in rows(
                f"SELECT game, variant{also}, count(*) FROM records WHERE game IS NOT NULL AND {{chosen}} "
                f"GROUP BY game, variant{also}"
            )
        }
    )
    for game, variant, rule_tags, *rest, count in rows(WITH_RULE_TAGS.format(also=also)):
        if (named := _named(game, variant, rule_tags)) != variant:
            counts[game, variant, *rest] -= count
            counts[game, named, *rest] += count
    return +counts  # (the counts above 0)


def _label(game: str, variant: str | None) -> str:
    """A variant as `--variant` takes it: `GAME/VARIANT`, or the game of a record that names no variant."""
    return f"{game}/{variant}" if variant is not None else game


def _results_by(rows: Rows, by: str) -> list[dict]:
    """The results of the records of a game that `rows` selects, by game, variant or board (`by`;
    a record of no board, as Laquet's, in a row of None), and by game or variant of each type a reader
    refused, and of the other records of no game (None): a row each (`_results_row`), the most records first, then by name.
    The results, validity, first error rules and plies are read from the records' rows (no
    index holds them by variant)."""
    also = ", result, valid, first_rule, plies"
    if by == "variant":
        found = [
            ((_label(game, variant), game, *rest), n) for (game, variant, *rest), n in _variant_keys(rows, also).items()
        ]
    else:  # by board, every record: one of no board (Laquet's, one not read) under None, `(no board)`
        named = "game IS NOT NULL AND" if by == "game" else ""
        found = [
            (tuple(key), n)
            for *key, n in rows(
                f"SELECT {by}, game{also}, count(*) FROM records WHERE {named} {{chosen}} GROUP BY {by}, game{also}"
            )
        ]
    if by != "board":  # a type a reader refused, under its label (as `query` shows it); the other records
        # of no game (that name none and were not read) under None: `(no game)`, `(no variant)`
        found += [
            ((label, None, *rest), n)
            for label, *rest, n in rows(
                f"SELECT refused.label{also}, count(*) FROM records LEFT JOIN ({REFUSED_TYPES}) AS refused "
                f"ON records.id = record_id WHERE game IS NULL AND {{chosen}} GROUP BY refused.label{also}"
            )
        ]
    grouped: dict[str | None, Counted] = {}
    for (label, game, result, valid, first_rule, plies), count in found:
        counted = grouped.setdefault(label, Counted())
        counted.games.add(game)
        counted.outcomes[OUTCOMES.get(result, "unfinished")] += count
        if not valid:
            counted.outcomes["invalid"] += count
        if first_rule is not None:
            counted.first_rules[first_rule] += count
        counted.lengths[plies] += count
    shown = (_results_row(label, counted) for label, counted in grouped.items())
    return sorted(shown, key=lambda row: (-row["records"], row["value"] or ""))


@dataclass
class Counted:
    """What a row of `stats --by` counts: its records' games, outcomes (OUTCOMES' and
    `unfinished`, and `invalid`), the rules of their first errors and their plies (records by length)."""

    games: set[str | None] = field(default_factory=set)
    outcomes: Counter[str] = field(default_factory=Counter)
    first_rules: Counter[str] = field(default_factory=Counter)
    lengths: Counter[int] = field(default_factory=Counter)


FIRST_RULES_BY = 3  # the first error rules of most records a row of `stats --by` names


def _results_row(label: str | None, counted: Counted) -> dict:
    """A row of `_results_by`: the game's, variant's or board's name (`value`), its records, the
    names its games give White's side and Black's (`_sides`), the records each side won, drawn and
    unfinished, and their `shares` in percent (`_percentages`); the invalid records, their share in
    percent (`invalid_percent`, to a tenth) and the FIRST_RULES_BY rules of their first errors with
    the most records (then by name); their `plies` (`_plies`)."""
    outcomes, first_rules = counted.outcomes, counted.first_rules
    white, black = _sides(counted.games)
    counts = {outcome: outcomes[outcome] for outcome in (*OUTCOMES.values(), "unfinished")}
    records = sum(counts.values())
    most = sorted(first_rules, key=lambda rule: (-first_rules[rule], rule))[:FIRST_RULES_BY]
    return {
        "value": label,
        "records": records,
        "white": white,
        "black": black,
        **counts,
        "shares": dict(zip(counts, _percentages(list(counts.values())))),
        "invalid": outcomes["invalid"],
        "invalid_percent": round(100 * outcomes["invalid"] / records, 1),
        "first_error_rules": [{"value": rule, "records": first_rules[rule]} for rule in most],
        "plies": _plies(counted.lengths),
    }


def _sides(games: Iterable[str | None]) -> tuple[str, str]:
    """The names games give White's side and Black's (`Game.sides`; a game lusoria does not know,
    or a refused type, None: White, Black), each a name or, where the games name a side apart,
    their names in the order of the games' names, joined by / (`defenders/Swedes`)."""
    return sides_named(
        [GAMES[game].sides if game is not None and game in GAMES else Game.sides for game in sorted(games, key=str)]
    )


def _percentages(counts: list[int]) -> list[float]:
    """Each count's share of their sum in percent, to a tenth, that add up to 100: each rounded
    down, then the largest remainders up (the first of equal ones first)."""
    total = sum(counts)
    tenths = [count * 1000 // total for count in counts]
    largest = sorted(range(len(counts)), key=lambda index: -(counts[index] * 1000 % total))
    for index in largest[: 1000 - sum(tenths)]:
        tenths[index] += 1
    return [tenth / 10 for tenth in tenths]


def _named(game: str, variant: str | None, rule_tags: str) -> str | None:
    """A record's variant as lusoria names it (rule_sets.named_variant)."""
    from lusoria.archive.rule_sets import named_variant  # (the games' rules: loaded when counted)

    return named_variant(game, variant, rule_tags)


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
