"""A written Laquet turn checked in full: every way its plays can be read with the dice
followed, and each rule it breaks worded (`laquet_fast.play_plain` answers the usual turn first)."""
# lusoria: compiled with mypyc

from __future__ import annotations

from functools import partial

from lusoria.validator.base import SIDE_NAMES, Illegal, Played
from lusoria.validator.laquet_moves import apply_step, sequences
from lusoria.validator.laquet_points import (
    EDGE,
    LAST,
    OFF,
    LaquetPosition,
    State,
    Step,
    checker_behind,
    most_playable,
    outside_home,
    winner,
)
from lusoria.validator.laquet_turns import (
    Turn,
    Written,
    dice_left_words,
    dice_text,
    dice_words,
    play_text,
    steps_text,
    turn_text,
    without_die,
)
from lusoria.words import plural


def play_checked(position: LaquetPosition, turn: Turn, must: bool, leftover_played: bool) -> Played:
    """Any turn, following every way the written plays can be read with the dice (`must`:
    both-dice=must; `leftover_played`: leftover=opponent)."""
    side = position.turn
    states = _check_plays(position, side, turn.roll, turn.plays, "Q5", must)
    after, steps, left = states[0]
    played: list[Step] = []  # the opponent's plays of the dice left over
    if after.done(side):
        if turn.leftover:
            raise Illegal(
                "Q8", f"{SIDE_NAMES[side]} bore off the last checker: the game is over and no die is left over"
            )
    elif leftover_played and any(left for _, _, left in states):
        after, steps, left, played = _check_leftover(states, side, turn, must)
    elif turn.leftover:
        raise Illegal(
            "Q6",
            "no die was left over"
            if not left
            else "under leftover=none the dice left over are lost: nobody plays them",
        )
    after = LaquetPosition(after.points, 1 - side)
    return Played(after, turn_text(turn.roll, steps, left, played), winner(list(after.points)))


def _check_leftover(
    states: list[State], side: int, turn: Turn, must: bool
) -> tuple[LaquetPosition, list[Step], tuple[int, ...], list[Step]]:
    """Q6: the opponent plays the dice left over, when able, before their own turn: the position,
    the mover's steps, the dice left over and the opponent's steps of them. Where the dice used
    were open to choice (a bear-off by excess), the > group says which."""
    opponent = 1 - side
    if turn.leftover is None:
        for position, steps, left in states:
            if not must or not most_playable(list(position.points), opponent, left):
                return position, steps, left, []
        position, _, left = states[0]
        example = steps_text(sequences(position, opponent, left)[0])
        playable = most_playable(list(position.points), opponent, left)
        some = "" if playable == len(left) else "one of "  # (two dice at most are left over)
        raise Illegal(
            "Q6",
            f"{SIDE_NAMES[opponent]} can play {some}the {dice_words(left)} left over and must: "
            f"write it as a > group, e.g. >{dice_text(left)} {example}",
        )
    dice, plays = turn.leftover
    matching = [state for state in states if sorted(state[2]) == sorted(dice)]
    if not matching:
        raise Illegal("Q6", f"{dice_left_words(states[0][2], 'left over')}, not {dice_words(dice)}")
    position, steps, left = matching[0]
    try:
        after, played, _ = _check_plays(position, opponent, left, plays, "Q6", must)[0]
    except Illegal as wrong:  # said as the opponent's play, which the ply's move (the mover's) does not say
        whose = f"{SIDE_NAMES[opponent]}'s play of the dice left over, "
        raise Illegal(wrong.rule, whose + wrong.message) from None  # (none names a square or a ply meant)
    return after, steps, left, played


def _check_plays(
    position: LaquetPosition, side: int, dice: tuple[int, ...], plays: tuple[Written, ...], rule: str, must: bool
) -> list[State]:
    """Follow the written plays with the dice: every consistent (position, steps, dice
    left). `rule` is cited when fewer dice were played than could be (Q5; Q6 for leftovers)."""
    states: list[State] = [(position, [], tuple(dice))]
    for written in plays:
        for moved in range(written.repeat):
            try:
                states = _follow(states, side, written.points)
            except Illegal as wrong:
                if not moved:
                    raise
                again = f"{play_text(written.points)}({written.repeat})"  # (h73b: said as if it moved none)
                raise Illegal(wrong.rule, f"{wrong.message}, after {again} moved {moved} of its checkers") from None
    after, steps, _ = states[0]
    playable = most_playable(list(position.points), side, tuple(dice)) if must and len(steps) < len(dice) else 0
    if playable > len(steps) and not after.done(side):
        taken = [step[:2] for step in steps]
        ways = sorted(sequences(position, side, tuple(dice)), key=partial(_departs, taken))
        texts = list(dict.fromkeys(map(steps_text, ways)))  # (two orders of the dice, one text: h73b)
        shown = "; ".join(texts[:3]) + ("; …" if len(texts) > 3 else "")
        raise Illegal(
            rule,
            f"{SIDE_NAMES[side]} must play {'both dice' if playable == 2 else 'a die'} when able "
            f"({'played ' + steps_text(steps) if steps else 'played nothing'}); "
            f"possible: {shown}",
        )
    return states


def _follow(states: list[State], side: int, points: tuple[int, ...]) -> list[State]:
    """The states one written play reaches from any of `states`; Illegal when none."""
    reached: list[State] = []
    problems: list[Illegal] = []  # each state tried a step, and each step that failed said why
    for position, steps, left in states:
        distance = points[1] - points[0]
        merged: list[tuple[int, ...]] = [(points[0], points[0] + die, points[1]) for die in dict.fromkeys(left)]
        if len(points) != 2:
            routes = [points]
        elif points[1] == OFF:  # one die, or both: a bear-off no one die makes (21: 16/off, as 16/18/off;
            routes = [points, *merged]  # `_check_plays` takes the first state: a bear-off one die makes takes it alone)
        elif distance not in left and len(left) == 2 and distance == sum(left) and points[1] <= LAST:
            routes = merged  # one checker, both dice, written 1/10: either order (one that ends past 18 breaks Q4
            # by its end, whichever point the dice stop it on first: h76b, Q3 by 35: and Q4 by 53:)
            if position.checkers(1 - side, points[1]):  # (its end the enemy's: said of it, not of a point on its way
                _check_step(position, side, points[0], points[1], points, points)  # as if another order did: h82b)
        else:
            routes = [points]
        for route in routes:
            frontier = [(position, steps, left)]
            for start, end in zip(route, route[1:]):
                following = []
                for pos, done, rest in frontier:
                    try:
                        for die in _dice_for(pos, side, (start, end), rest, points, done):
                            _check_step(pos, side, start, end, route, points)
                            step = (start, end, die)
                            following.append((apply_step(pos, side, step), done + [step], without_die(rest, die)))
                    except Illegal as illegal:
                        problems.append(illegal)
                frontier = following
            reached += frontier
    if not reached:
        raise problems[0]
    return reached


def _dice_for(
    position: LaquetPosition,
    side: int,
    step: tuple[int, int],
    left: tuple[int, ...],
    points: tuple[int, ...],
    done: list[Step],
) -> list[int]:
    """Which of the dice left may carry a checker from `start` to `end` of `step` (in the play `points`,
    after the steps `done` of the dice played)."""
    start, end = step
    if end != OFF and end <= LAST and end - start in left and end > start and not position.done(side):
        return [end - start]  # the common case, checked in full below when it is not
    who, text = SIDE_NAMES[side], play_text(points)
    if position.done(side):
        raise Illegal("Q8", f"{who} has borne off every checker; the game is over and no die is played after that")
    if start > LAST:
        raise Illegal("Q4", f"{text}: no checker stands on points 19-24; they are never used")
    if not left:
        other = SIDE_NAMES[1 - side]  # whose checkers the play moves, when they are the opponent's: a roll left out
        theirs = f"; {start} holds {other}'s checkers: {other}'s roll is perhaps left out before {text}"
        played = [die for _, _, die in done]
        double = len(played) == 2 and played[0] == played[1]  # (h76b: said of every roll, a double or not)
        used_up = f"{text}: the roll is used up ({'a double is played as two moves, not four' if double else dice_words(played) + ' played'})"
        raise Illegal("Q2", used_up + (theirs if position.checkers(1 - side, start) else ""))
    if end == OFF:
        if outside := outside_home(list(position.points), side):
            raise Illegal(
                "Q7",
                f"{who} may bear off only once all 15 checkers are in quadrant III "
                f"(13-18); some stand on {', '.join(map(str, outside))}",
            )
        behind = checker_behind(list(position.points), side, start)
        dice = sorted({d for d in left if d == EDGE - start or (d > EDGE - start and not behind)})
        if not dice:
            raise Illegal(
                "Q7",
                f"{text}: bearing off from {start} takes a {EDGE - start}, or a higher die "
                f"when no checker of {who}'s stands behind it; the dice left: "
                f"{dice_words(left)}",
            )
        return dice
    if end > LAST:
        raise Illegal("Q4", f"{text}: no checker may enter points 19-24; it leaves past 18 only by bearing off")
    distance = end - start
    if distance <= 0:
        raise Illegal("Q3", f"{text}: checkers move forward, from lower to higher points")
    if distance not in left:
        said = text if len(points) == 2 else f"{text}: {start}/{end}"  # (1/4/10: the step 1/4)
        raise Illegal(
            "Q3",
            f"{said} moves {plural(distance, 'point')}, and {dice_left_words(left)}",
        )
    return [distance]


def _check_step(position: LaquetPosition, side: int, start: int, end: int, route, points) -> None:
    """Q3: a checker of the mover's on `start`, and `end` not held by the enemy; Q1 when the
    turn's own plays start from the enemy's checkers (as if the other side were to move)."""
    if side == position.turn and position.checkers(1 - side, start):
        raise Illegal(
            "Q1",
            f"{play_text(points)}: the checkers on point {start} are {SIDE_NAMES[1 - side]}'s, "
            f"and {SIDE_NAMES[side]} is to move",
        )
    if not position.checkers(side, start):
        raise Illegal("Q3", f"{play_text(points)}: there is no {SIDE_NAMES[side]} checker on point {start}")
    if end != OFF and position.checkers(1 - side, end):
        verb = "lands on" if end == route[-1] else "stops on"
        raise Illegal(
            "Q3",
            f"{play_text(points)} {verb} point {end}, held by {SIDE_NAMES[1 - side]}: no checker may "
            "stop on an enemy point",
        )


def _departs(taken: list[tuple[int, int]], way: list[Step]) -> bool:
    """Whether a way to play the dice does not begin with the steps `taken` (shown after those that do)."""
    return [step[:2] for step in way[: len(taken)]] != taken
