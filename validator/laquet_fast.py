"""The usual Laquet turn, checked fast on a list of counts (`play_plain`); any other is left to
`laquet_checked.play_checked`, which words the errors."""
# lusoria: compiled with mypyc

from __future__ import annotations

from functools import partial

from lusoria.validator.base import Played
from lusoria.validator.laquet_points import (
    EDGE,
    LAST,
    OFF,
    SIGN,
    LaquetPosition,
    Step,
    all_borne_off,
    all_home,
    checker_behind,
    holds,
    most_playable,
    move_checker,
    winner,
)
from lusoria.validator.laquet_turns import Turn, Written, turn_text


def play_plain(position: LaquetPosition, turn: Turn, must: bool, leftover_played: bool) -> Played | None:
    """The usual turn, played on a list of counts: every written step takes exactly one
    die (no choice of dice to keep track of) and the rules hold (`must`: both-dice=must;
    `leftover_played`: leftover=opponent). None otherwise, and `laquet_checked.play_checked`
    decides (and words any error): the two agree wherever this answers."""
    counts, side = position
    roll, plays, written_leftover = turn
    opponent, points = 1 - side, list(counts)
    followed = _chain(points, side, roll, plays)
    if followed is None:
        return None
    steps, left = followed
    leftover: tuple[()] | tuple[tuple[int, ...], list[Step]] = ()  # (dice, steps) the opponent played
    if left and not all_borne_off(points, side):
        if must and len(steps) < most_playable(list(counts), side, roll):
            return None  # Q5
        if written_leftover is None:
            if leftover_played and must and most_playable(points, opponent, left):
                return None  # Q6: the opponent must play the dice left over
        elif not leftover_played or sorted(written_leftover[0]) != sorted(left):
            return None  # Q6
        else:
            before = list(points)
            followed = _chain(points, opponent, left, written_leftover[1])
            if followed is None:
                return None
            played, unplayed = followed
            if (
                unplayed
                and must
                and not all_borne_off(points, opponent)
                and len(played) < most_playable(before, opponent, left)
            ):
                return None  # Q6
            leftover = (left, played)
    elif written_leftover:
        return None  # Q6, Q8
    after = tuple.__new__(LaquetPosition, (tuple(points), opponent))  # as LaquetPosition(…), with no Python frame
    return Played(after, partial(turn_text, roll, steps, *leftover), winner(points))


def _chain(
    points: list[int], side: int, dice: tuple[int, ...], plays: tuple[Written, ...]
) -> tuple[list[Step], tuple[int, ...]] | None:
    """Play `plays` for `side` on `points` (changed in place) when each written step takes
    one die and breaks no rule: the steps and the dice left. A bear-off that either die can
    make takes the smaller, as the first of `laquet_checked._check_plays`'s states does; the dice
    then chosen matter only when one is left over, and then this answers None, as it does
    for an illegal step or a one-checker play of both dice written without its middle
    point (1/10): `_check_plays` follows those."""
    sign, left, steps, chose = SIGN[side], list(dice), [], False
    total = 0  # of the dice left
    for die in dice:
        total += die
    for route, repeat in plays:
        hops = len(route) - 1
        for _ in range(repeat):
            if hops == 1 and route[1] - route[0] not in left and route[1] - route[0] == total:
                return None  # 1/10 (a bear-off so written takes no die and fails below)
            for hop in range(hops):
                start, end = route[hop], route[hop + 1]
                if start > LAST or not holds(points[start], side):  # also once the last checker is off (Q8)
                    return None
                if end == OFF:
                    if not all_home(points, side):  # Q7
                        return None
                    behind, die = checker_behind(points, side, start), 0  # the smallest die that fits
                    for fitting in left:
                        if fitting == EDGE - start or (fitting > EDGE - start and not behind):
                            chose = chose or (die != 0 and fitting != die)  # another die would do
                            die = fitting if not die or fitting < die else die
                    if not die:
                        return None
                else:
                    die = end - start
                    if end > LAST or die <= 0 or die not in left or holds(points[end], 1 - side):
                        return None
                left.remove(die)
                total -= die
                move_checker(points, sign, start, end)
                steps.append((start, end, die))
    return None if chose and left else (steps, tuple(left))
