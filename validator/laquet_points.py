"""Laquet's table of points: a position, and the arithmetic of checkers moving on it (Q3, Q4,
Q7, Q8), on the list of each point's count that the fast paths change in place."""
# lusoria: compiled with mypyc

from __future__ import annotations

from typing import Final, NamedTuple

from lusoria.validator.base import BLACK, SIDE_NAMES, WHITE, Outcome

# Final: mypyc compiles these to constants, not look-ups in the module's namespace
LAST: Final = 18  # the last point a checker may stand on
OFF: Final = 25  # where a borne-off checker goes: past every point a record may write (1-24)
EDGE: Final = LAST + 1  # the outer edge: bearing off from point p takes EDGE - p pips (Q7)
CHECKERS: Final = 15
HOME: Final = 13  # the first point of quadrant III, where checkers are borne off from (Q7)
SIGN: Final[tuple[int, ...]] = (1, -1)  # a checker of White's counts +1, Black's -1 (a Python tuple,
# which mypyc indexes as it is: a fixed-length one it would build again at each index)


class LaquetPosition(NamedTuple):
    points: tuple[int, ...]  # index 1–18: White's checkers as +n, Black's as -n (index 0 unused)
    turn: int

    def checkers(self, side: int, point: int) -> int:
        """How many of `side`'s checkers stand on `point`."""
        n = self.points[point]
        return n if side == WHITE and n > 0 else -n if side == BLACK and n < 0 else 0

    def done(self, side: int) -> bool:
        """Whether `side` has borne off every checker."""
        return all_borne_off(list(self.points), side)

    def off(self, side: int) -> int:
        """How many checkers `side` has borne off."""
        if side == WHITE:
            return CHECKERS - sum(filter((0).__lt__, self.points))
        return CHECKERS + sum(filter((0).__gt__, self.points))


Step = tuple[int, int, int]  # from, to (OFF for a bear-off), die
State = tuple[LaquetPosition, list[Step], tuple[int, ...]]  # a position, the steps to it, the dice left


BORNE_OFF: Final = "borne off"  # how a game ends (Outcome.ending)
WON: Final = tuple(
    Outcome(result, "Q8", f"{SIDE_NAMES[side]} bore off all 15 checkers", BORNE_OFF)
    for side, result in ((WHITE, "1-0"), (BLACK, "0-1"))
)


def holds(count: int, side: int) -> bool:
    """Whether a point with `count` (as in `LaquetPosition.points`) holds checkers of `side`'s.
    (Compared, not multiplied by the side's sign: mypyc multiplies negative numbers slowly.)"""
    return count > 0 if SIGN[side] > 0 else count < 0


def on_board(points: list[int]) -> tuple[bool, bool]:
    """Whether White, and whether Black, has a checker on these points (one pass, no calls)."""
    white = black = False
    for count in points:
        if count > 0:
            white = True
        elif count < 0:
            black = True
    return white, black


def all_borne_off(points: list[int], side: int) -> bool:
    """Whether `side` has no checker on these points."""
    white, black = on_board(points)
    return not (black if side == BLACK else white)


def winner(points: list[int]) -> Outcome | None:
    """Q8: the side that has borne off all its checkers (White first), if one has."""
    white, black = on_board(points)
    return WON[WHITE] if not white else WON[BLACK] if not black else None


def all_home(points: list[int], side: int) -> bool:
    """Q7: all of `side`'s checkers are in quadrant III (13-18) or borne off."""
    return all_borne_off(points[1:HOME], side)


def outside_home(points: list[int], side: int) -> list[int]:
    """The points outside quadrant III that hold checkers of `side`'s (Q7: none, to bear off)."""
    return [point for point in range(1, HOME) if holds(points[point], side)]


def checker_behind(points: list[int], side: int, start: int) -> bool:
    """Whether `side` has a checker in quadrant III behind `start` (Q7: bearing off by excess)."""
    for point in range(HOME, start):
        if holds(points[point], side):
            return True
    return False


def destination(points: list[int], side: int, point: int, die: int, home: bool) -> int:
    """Where `die` carries a checker of `side`'s from `point` (Q3, Q4, Q7): a point, OFF,
    or 0 when it cannot (no checker there, an enemy point, no bear-off). `home`: `all_home`."""
    if not holds(points[point], side):
        return 0
    target = point + die
    if target <= LAST:
        return 0 if holds(points[target], 1 - side) else target
    return OFF if home and (target == EDGE or not checker_behind(points, side, point)) else 0


def move_checker(points: list[int], sign: int, start: int, end: int) -> None:
    """Move a checker counted `sign` from `start` to `end` (off the board at OFF); -sign undoes it."""
    points[start] -= sign
    if end != OFF:
        points[end] += sign


def most_playable(points: list[int], side: int, dice: tuple[int, ...]) -> int:
    """How many of `dice` `side` can play from `points` (a game-ending bear-off counts as
    playing them all): the best score of `laquet_moves.sequences`, searched depth first on
    `points` (each step undone) and stopped as soon as every die is played."""
    if all_borne_off(points, side):
        return len(dice)
    home, sign, best = all_home(points, side), SIGN[side], 0
    for index, die in enumerate(dice):
        if die in dice[:index]:
            continue
        rest = dice[:index] + dice[index + 1 :]
        for point in range(1, LAST + 1):
            target = destination(points, side, point, die, home)
            if not target:
                continue
            if not rest:
                return len(dice)
            move_checker(points, sign, point, target)
            best = max(best, 1 + most_playable(points, side, rest))
            move_checker(points, -sign, point, target)
            if best == len(dice):
                return best
    return best
