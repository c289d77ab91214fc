"""Laquet's plays: every way to play the dice (Q5), a step applied, how many dice can be played."""
# lusoria: compiled with mypyc

from __future__ import annotations

from lusoria.validator.laquet_points import (
    LAST,
    SIGN,
    LaquetPosition,
    Step,
    all_home,
    destination,
    move_checker,
)


def singles(position: LaquetPosition, side: int, die: int) -> list[Step]:
    """Every single step of one die (Q3, Q4, Q7)."""
    points = list(position.points)
    home = all_home(points, side)
    targets = [(point, destination(points, side, point, die, home)) for point in range(1, LAST + 1)]
    return [(point, target, die) for point, target in targets if target]


def apply_step(position: LaquetPosition, side: int, step: Step) -> LaquetPosition:
    points = list(position.points)
    move_checker(points, SIGN[side], step[0], step[1])
    return LaquetPosition(tuple(points), position.turn)


def apply_steps(position: LaquetPosition, side: int, steps: list[Step]) -> LaquetPosition:
    for step in steps:
        position = apply_step(position, side, step)
    return position


def sequences(position: LaquetPosition, side: int, dice: tuple[int, ...]) -> list[list[Step]]:
    """Every way to play as many of `dice` as can be played (Q5). A way that bears off
    the last checker is complete whatever dice are left (Q8)."""
    ways: list[tuple[int, list[Step]]] = [(0, [])]  # (dice used or forgone by the end, steps)
    _extend(ways, position, side, dice, [])
    best = max(score for score, _ in ways)
    return [steps for score, steps in ways if score == best]


def _extend(
    ways: list[tuple[int, list[Step]]],
    position: LaquetPosition,
    side: int,
    left: tuple[int, ...],
    done: list[Step],
) -> None:
    """Add to `ways` every way to go on from `done` with the dice `left` (`sequences`)."""
    for index, die in enumerate(left):
        if die in left[:index]:
            continue
        for step in singles(position, side, die):
            after, rest = apply_step(position, side, step), left[:index] + left[index + 1 :]
            over = after.done(side)
            ways.append((len(done) + 1 + (len(rest) if over else 0), done + [step]))
            if not over:
                _extend(ways, after, side, rest, done + [step])
