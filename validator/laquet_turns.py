"""A written Laquet turn: its parts (the roll, the plays, the > group of the dice left over),
and the texts of dice, steps and turns in canonical form."""
# lusoria: compiled with mypyc

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Final, NamedTuple

from lusoria.notation.numbers import checked_number
from lusoria.notation.reader import is_ply
from lusoria.validator.base import NotAPly
from lusoria.validator.laquet_points import OFF, Step


class Written(NamedTuple):
    """One written play: the points it passes through, and how often it is repeated."""

    points: tuple[int, ...]
    repeat: int


class Turn(NamedTuple):
    roll: tuple[int, ...]
    plays: tuple[Written, ...]  # () for --
    leftover: tuple[tuple[int, ...], tuple[Written, ...]] | None  # (dice, plays) of the > group


@lru_cache(maxsize=4096)
def _written(word: str) -> Written:
    """One written play, as 3/6(2) (the grammar allows one repeat digit, 2-9)."""
    repeat = word.endswith(")")
    points = word[:-3] if repeat else word
    return Written(
        tuple([OFF if p == "off" else checked_number(p, 1, 24) for p in points.split("/")]),
        checked_number(word[-2], 2, 9) if repeat else 1,
    )


def _plays(text: str) -> tuple[Written, ...]:
    """The plays of a group, () for --."""
    return tuple([_written(word) for word in text.split() if word != "--"])


def _dice(text: str) -> tuple[int, ...]:
    """The dice of a written roll: 63, 6-3, or one die (6) in a > group."""
    return tuple([checked_number(digit, 1, 6) for digit in text if digit in "123456"])


TURN_SHAPE: Final = (
    "a ply is the roll, a colon and the plays, each from point to point (31: 3/6 13/14), or -- when "
    "none can be played (31: --), then perhaps the dice the opponent played after > (> 1: 4/5)"
)


@lru_cache(maxsize=65536)
def parse_turn(text: str) -> Turn:
    """The parts of a ply (ROLL: PLAYS, then perhaps > DICE: PLAYS); NotAPly for text that is
    none (not read as a pass)."""
    if not is_ply("laquet", text):
        raise NotAPly(text, "laquet", TURN_SHAPE)
    own, arrow, rest = text.partition(">")
    roll, _, plays = own.partition(":")
    leftover: tuple[tuple[int, ...], tuple[Written, ...]] | None = None
    if arrow:
        dice, _, left_plays = rest.partition(":")
        leftover = (_dice(dice), _plays(left_plays))
    return Turn(_dice(roll), _plays(plays), leftover)


def point_name(point: int) -> str:
    return "off" if point == OFF else str(point)


def dice_text(dice: Sequence[int]) -> str:
    if len(dice) == 2:  # a roll, the larger die first (a list, not a generator: mypyc makes those slow)
        return f"{dice[0]}{dice[1]}:" if dice[0] >= dice[1] else f"{dice[1]}{dice[0]}:"
    return "".join([str(d) for d in sorted(dice, reverse=True)]) + ":"


def dice_left(roll, steps: list[Step]) -> tuple[int, ...]:
    for step in steps:
        roll = without_die(roll, step[2])
    return tuple(roll)


def without_die(dice: tuple[int, ...], die: int) -> tuple[int, ...]:
    index = dice.index(die)
    return dice[:index] + dice[index + 1 :]


def play_text(points: tuple[int, ...]) -> str:
    return "/".join(point_name(p) for p in points)


def turn_text(roll: tuple[int, ...], steps: list[Step], left: tuple[int, ...] = (), played: Sequence[Step] = ()) -> str:
    """A turn in canonical form: the roll, the steps, and the > group when the opponent played some."""
    return dice_text(roll) + " " + steps_text(steps) + (f" >{dice_text(left)} {steps_text(played)}" if played else "")


def steps_text(steps: Sequence[Step]) -> str:
    return " ".join([f"{a}/{point_name(b)}" for a, b, _ in steps]) or "--"


def dice_words(dice) -> str:
    dice = sorted(dice, reverse=True)
    return " and ".join(str(d) for d in dice) if dice else "none"


def dice_left_words(dice, what: str = "left") -> str:
    """The dice not yet played, in a sentence: 'the die left is 4', 'the dice left are 6 and 3'."""
    return f"the {'die' if len(dice) == 1 else 'dice'} {what} {'is' if len(dice) == 1 else 'are'} {dice_words(dice)}"
