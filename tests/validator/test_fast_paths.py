"""Fast paths agree with the slow, general code they stand in front of (hypothesis,
fixed seeds): random positions, legal plies and plies made wrong on purpose."""

import random
from functools import partial

import pytest
from hypothesis import given
from hypothesis import strategies as st

from lusoria.validator.base import Illegal
from lusoria.validator.laquet import Laquet
from lusoria.validator.laquet_checked import play_checked
from lusoria.validator.laquet_fast import play_plain
from lusoria.validator.laquet_moves import apply_steps, sequences
from lusoria.validator.laquet_points import most_playable
from lusoria.validator.laquet_turns import parse_turn

LAQUET_RULES = [
    Laquet(),
    Laquet({"both-dice": "may"}),
    Laquet({"leftover": "none"}),
    Laquet({"both-dice": "may", "leftover": "none"}),
]
START = Laquet().initial()


def reached(rules: Laquet, seed: int, plies: int):
    """The position after `plies` random legal plies (fewer when the game ends)."""
    rng, position = random.Random(seed), rules.initial()
    for _ in range(plies):
        text = rules.random_ply(position, rng)
        if text is None:
            break
        position = rules.play(position, text).position
    return position


def outcome(action):
    try:
        played = action()
    except Illegal as illegal:
        return "illegal", illegal.rule, illegal.message
    return played.position, played.text, played.outcome, played.warnings


def most_by_enumeration(position, side: int, dice: tuple[int, ...]) -> int:
    """`most_playable` as the full enumeration of `sequences` answers it."""
    ways = sequences(position, side, dice)
    after = apply_steps(position, side, ways[0])
    return len(dice) if after.done(side) else len(ways[0])


def wrong(text: str, rng: random.Random) -> str:
    """A written turn changed the way a scribe might get it wrong."""
    turn = text.split(" ")
    change = rng.randrange(6)
    if change == 0:  # another roll
        turn[0] = f"{rng.randint(1, 6)}{rng.randint(1, 6)}:"
    elif change == 1 and len(turn) > 2:  # a play left out
        del turn[rng.randrange(1, len(turn))]
    elif change == 2 and ">" in text:  # no leftover group
        turn = turn[: turn.index(next(t for t in turn if t.startswith(">")))]
    elif change == 3:  # one point moved
        index = rng.randrange(1, len(turn))
        if "/" in turn[index]:
            start, _, end = turn[index].partition("/")
            turn[index] = f"{start}/{int(end) + rng.choice((-1, 1)) if end.isdigit() else end}"
    elif change == 4 and ">" in text:  # the leftover group's plays left out
        turn = turn[: turn.index(next(t for t in turn if t.startswith(">"))) + 1] + ["--"]
    else:  # a play repeated
        index = rng.randrange(1, len(turn))
        if "/" in turn[index] and "(" not in turn[index]:
            turn[index] += "(2)"
    return " ".join(turn)


def scribbled(position, roll: tuple[int, int], rng: random.Random) -> str:
    """A turn of the roll made of random plays of each side's checkers, legal or not."""

    def plays(side: int, dice: tuple[int, ...]) -> str:
        sign = 1 if side == 0 else -1
        own = [p for p in range(1, 19) if position.points[p] * sign > 0] or [1]
        chosen = []
        for die in dice[: rng.randint(0, len(dice))]:
            start = rng.choice(own)
            chosen.append(f"{start}/{'off' if start + die > 18 and rng.random() < 0.8 else start + die}")
        return " ".join(chosen) or "--"

    text = f"{roll[0]}{roll[1]}: {plays(position.turn, roll)}"
    if rng.random() < 0.4:
        left = roll[: rng.randint(1, 2)]
        text += f" >{''.join(map(str, left))}: {plays(1 - position.turn, left)}"
    return text


@given(
    st.sampled_from(LAQUET_RULES),
    st.integers(0, 2**32),
    st.integers(0, 160),
    st.integers(1, 6),
    st.integers(1, 6),
    st.booleans(),
    st.booleans(),
)
def test_laquet_most_is_the_enumerations_answer(rules, seed, plies, high, low, one_die, opponent):
    position = reached(rules, seed, plies)
    side = 1 - position.turn if opponent else position.turn
    dice = (high,) if one_die else (high, low)
    assert most_playable(list(position.points), side, dice) == most_by_enumeration(position, side, dice)


@given(st.sampled_from(LAQUET_RULES), st.integers(0, 2**32), st.integers(0, 160), st.integers(0, 2**32))
def test_laquet_plain_play_is_the_checked_play(rules, seed, plies, choice):
    position = reached(rules, seed, plies)
    rng = random.Random(choice)
    roll = tuple(sorted((rng.randint(1, 6), rng.randint(1, 6)), reverse=True))
    legal = rules.plies_for_roll(position, roll)
    leftover = [text for text in legal if ">" in text] or legal
    texts = [rng.choice(legal), wrong(rng.choice(leftover), rng)] if legal else []
    texts += [scribbled(position, roll, rng) for _ in range(3)]
    for text in texts:
        checked = partial(play_checked, position, parse_turn(text), rules.must, rules.leftover)
        plain = partial(play_plain, position, parse_turn(text), rules.must, rules.leftover)
        assert outcome(lambda: plain() or checked()) == outcome(checked)  # (Laquet.play's way, its note apart)


LEFTOVER = Laquet().parse_position("5:5,8:3,9:1,10:1,17:3,18:2 6:3,11:1,12:3,14:1,15:5,16:2 w")  # 64: only the 4
NEAR_HOME = Laquet().parse_position("13:1,17:14 12:15 w")


@pytest.mark.parametrize(
    "rules, position, text, canonical",
    [
        (0, START, "53: 5/10 10/13", "53: 5/10 10/13"),  # one checker, one die at a time
        (0, START, "22: 1/3 1/3", "22: 1/3 1/3"),  # a double
        (0, START, "33: 1/4(2)", "33: 1/4 1/4"),  # a repeated play
        (0, Laquet().parse_position("13:1,18:14 12:15 w"), "61: 13/off 18/off", "61: 13/off 18/off"),  # bear-offs
        (0, LEFTOVER, "64: 5/9 >6: 6/12", "64: 5/9 >6: 6/12"),  # the opponent plays the die left over
        (1, START, "53: 5/10", "53: 5/10"),  # both-dice=may: one die of two, nothing written for the other
        (2, LEFTOVER, "64: 5/9", "64: 5/9"),  # leftover=none: the 6 is lost
        (0, NEAR_HOME, "51: 13/18 17/18", "51: 13/18 17/18"),  # onto point 18, the last a checker stands on
        (0, Laquet().parse_position("13:1 12:15 w"), "62: 13/off", "62: 13/off"),  # the last checker off: the 2 is lost
        (0, Laquet().parse_position("17:2,18:1 12:15 w"), "66: 17/off 17/off", "66: 17/off 17/off"),  # a higher die
        (
            0,
            Laquet().parse_position("18:15 1:15 w"),
            "53: 18/off 18/off",
            "53: 18/off 18/off",
        ),  # either die, then the other
    ],
)
def test_laquet_plain_play_answers_the_usual_turns(rules, position, text, canonical):
    """The fast path answers these itself (it is not always handing over), as the checked path would."""
    game = LAQUET_RULES[rules]
    plain = play_plain(position, parse_turn(text), game.must, game.leftover)
    assert plain is not None and plain.text == canonical
    assert outcome(lambda: plain) == outcome(lambda: play_checked(position, parse_turn(text), game.must, game.leftover))


@pytest.mark.parametrize(
    "position, text",
    [
        (LEFTOVER, "64: 5/9 >6: --"),  # the opponent can play the 6 and must (Q6)
        (LEFTOVER, "64: 5/9"),  # the same, with no leftover group written
        (Laquet().parse_position("13:1,17:14 12:15 w"), "61: 17/off 13/14"),  # a 6 bears off from 17 only from the back
        (START, "53: 1/9"),  # one checker, both dice, written without its middle point: either order
        (START, "53: 5/10"),  # a die left that could be played (Q5)
        (Laquet().parse_position("18:15 1:15 w"), "53: 18/off"),  # either die bears off from 18, and one is left
        (START, "53: 5/10 10/13 >53: 6/11"),  # no die is left over (Q6)
    ],
)
def test_laquet_plain_play_hands_over_the_rest(position, text):
    assert play_plain(position, parse_turn(text), True, True) is None
