"""The bounds of the numbers a user gives lusoria, as a command's option (lusoria.options.Bounded)
or as a library call's argument (`jobs`, `min_games`): one check, said in the same words."""

from __future__ import annotations

from lusoria.errors import Refused
from lusoria.words import out_of_bounds

MAX_COUNT = 10**9  # plies, records, games: more than any archive holds
MAX_JOBS = 1024  # worker processes


def bounded_number(value: object, low: int, high: int) -> int | None:
    """`value` as a whole number from `low` to `high`: an int, or text in ASCII digits
    (notation.numbers.whole_number); None when it is none."""
    if isinstance(value, int) and not isinstance(value, bool):
        return value if low <= value <= high else None
    from lusoria.notation.numbers import whole_number  # here: the notation loads when a number is text

    return whole_number(str(value).strip(), low, high)


def bounded(value: int, name: str, low: int = 1, high: int = MAX_COUNT) -> int:
    """`value`, the argument `name` of a library call, when it is a whole number from `low` to
    `high`, as the command's option must be; else ValueError, in the option's words."""
    number = bounded_number(value, low, high)
    if number is None:
        raise Refused(f"{name}: {out_of_bounds(value, low, high)}")
    return number
