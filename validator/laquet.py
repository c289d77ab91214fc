"""Laquet (RULES.md Q1–Q9 and the Laquet options).

Points 1–18 are played on, in the same direction by both colours; 19–24 (the
quadrant marked Laquet) are never entered; a checker leaving past 18 is borne off.
"""
# lusoria: compiled with mypyc

from __future__ import annotations

import random
import re
from array import array
from collections.abc import Sequence
from functools import cache, lru_cache, partial
from itertools import permutations
from typing import Final, NamedTuple

from mypy_extensions import mypyc_attr

from lusoria.notation.numbers import checked_number, whole_number
from lusoria.validator.base import (
    BLACK,
    EMPTY_SQUARE,
    SIDE_NAMES,
    WHITE,
    Game,
    Illegal,
    Material,
    OptionError,
    Outcome,
    Played,
)
from lusoria.validator.diagram import FROM, TO, Diagram, Piece, Points
from lusoria.validator.suggest import similarity

# Final: mypyc compiles these to constants, not look-ups in the module's namespace
LAST: Final = 18  # the last point a checker may stand on
OFF: Final = 19  # where a borne-off checker goes
CHECKERS: Final = 15
_BARE_ROLL: Final = re.compile(r"[1-6]-?[1-6]")  # a roll written without its colon (a slip)
_DASHED_PLAY: Final = re.compile(r"[0-9]{1,2}(?:-(?:[0-9]{1,2}|off))+(?:\([0-9]\))?")  # 5-11, 3-6(2): 5/11, 3/6(2)
_SPACED: Final = re.compile(r"([ \t]+)")  # the blanks between plays, kept as written
SIGN: Final[tuple[int, ...]] = (1, -1)  # a checker of White's counts +1, Black's -1 (a Python tuple,
# which mypyc indexes as it is: a fixed-length one it would build again at each index)
INITIAL = "1:2,2:3,3:3,4:3,5:3,18:1 6:14,7:1 w"
# A spelled-out board (Laquet.boards_and_materials): the character of each count of a point, indexed by the
# count (negative: Black's, from the end); a point's count as a signed byte (`array("b")`) -> its
# character, and the checkers it holds of White's, of Black's
_COUNTS = (EMPTY_SQUARE, *(chr(ord("a") + n) for n in range(15)), *(chr(ord("A") + 14 - n) for n in range(15)))
_CHARACTERS: Final = bytes(
    ord(_COUNTS[byte - 256 if byte > 127 else byte]) if byte <= 15 or byte >= 241 else ord("?") for byte in range(256)
)
_WHITE_CHECKERS: Final = bytes(byte if byte <= 15 else 0 for byte in range(256))
_BLACK_CHECKERS: Final = bytes(256 - byte if byte >= 241 else 0 for byte in range(256))


class LaquetPosition(NamedTuple):
    points: tuple[int, ...]  # index 1–18: White's checkers as +n, Black's as -n (index 0 unused)
    turn: int

    def checkers(self, side: int, point: int) -> int:
        """How many of `side`'s checkers stand on `point`."""
        n = self.points[point]
        return n if side == WHITE and n > 0 else -n if side == BLACK and n < 0 else 0

    def done(self, side: int) -> bool:
        """Whether `side` has borne off every checker."""
        return _done(list(self.points), side)

    def off(self, side: int) -> int:
        """How many checkers `side` has borne off."""
        if side == WHITE:
            return CHECKERS - sum(filter((0).__lt__, self.points))
        return CHECKERS + sum(filter((0).__gt__, self.points))


Step = tuple[int, int, int]  # from, to (OFF for a bear-off), die
State = tuple[LaquetPosition, list[Step], tuple[int, ...]]  # a position, the steps to it, the dice left


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


@lru_cache(maxsize=65536)
def parse_turn(text: str) -> Turn:
    """The parts of a ply the grammar has accepted: ROLL: PLAYS, then perhaps > DICE: PLAYS."""
    own, arrow, rest = text.partition(">")
    roll, _, plays = own.partition(":")
    leftover: tuple[tuple[int, ...], tuple[Written, ...]] | None = None
    if arrow:
        dice, _, left_plays = rest.partition(":")
        leftover = (_dice(dice), _plays(left_plays))
    return Turn(_dice(roll), _plays(plays), leftover)


BORNE_OFF: Final = "borne off"  # how a game ends (Outcome.ending)
WON: Final = tuple(
    Outcome(result, "Q8", f"{SIDE_NAMES[side]} bore off all 15 checkers", BORNE_OFF)
    for side, result in ((WHITE, "1-0"), (BLACK, "0-1"))
)


def point_name(point: int) -> str:
    return "off" if point == OFF else str(point)


def _roll_text(dice: Sequence[int]) -> str:
    if len(dice) == 2:  # a roll, the larger die first (a list, not a generator: mypyc makes those slow)
        return f"{dice[0]}{dice[1]}:" if dice[0] >= dice[1] else f"{dice[1]}{dice[0]}:"
    return "".join([str(d) for d in sorted(dice, reverse=True)]) + ":"


def _row(position: LaquetPosition, points: range) -> str:
    """One row of points for `render`: each point's checkers, as W3 or B2."""
    cells = []
    for point in points:
        n = position.points[point] if point <= LAST else 0
        cells.append(f"{'W' if n > 0 else 'B'}{abs(n)}".rjust(4) if n else "   .")
    return "".join(cells)


def _labels(points: range) -> str:
    return "".join(str(p).rjust(4) for p in points)


@mypyc_attr(native_class=False)
class Laquet(Game[LaquetPosition]):
    name = "laquet"
    end_rule = "Q9"
    endings = (BORNE_OFF,)
    options = {"both-dice": ("must", "may"), "leftover": ("opponent", "none")}
    presets = {"seed": {}}

    def __init__(self, options=None, variant=None):
        super().__init__(options, variant)
        self.must = self.option["both-dice"] == "must"
        self.leftover = self.option["leftover"] == "opponent"

    # -- positions -------------------------------------------------------------
    def initial(self) -> LaquetPosition:
        return _initial()

    def parse_position(self, text: str) -> LaquetPosition:
        fields = text.split()
        if len(fields) != 3 or fields[2] not in ("w", "b"):
            raise OptionError(f"a Laquet position is White's checkers, Black's and the side to move, as in '{INITIAL}'")
        points = [0] * (LAST + 1)
        for side, field in ((WHITE, fields[0]), (BLACK, fields[1])):
            if field == "-":
                continue
            total = 0
            for item in field.split(","):
                written_point, colon, written_count = item.partition(":")
                point, count = whole_number(written_point, 1, 24), whole_number(written_count, 1, CHECKERS)
                if not colon or point is None or count is None:
                    raise OptionError(
                        f"'{item[:40]}' is not POINT:COUNT with a point from 1 to 24 and a count from 1 to {CHECKERS}"
                    )
                if point > LAST:
                    raise OptionError(f"no checker stands on point {point}: points 19-24 are never used")
                if points[point]:
                    raise OptionError(f"point {point} is given twice")
                points[point] = count if side == WHITE else -count
                total += count
            if total > CHECKERS:
                raise OptionError(f"{SIDE_NAMES[side]} has {total} checkers on the board; each side has 15")
        return LaquetPosition(tuple(points), WHITE if fields[2] == "w" else BLACK)

    def format_position(self, position: LaquetPosition) -> str:
        sides = []
        for side in (WHITE, BLACK):
            items = [f"{p}:{position.checkers(side, p)}" for p in range(1, LAST + 1) if position.checkers(side, p)]
            sides.append(",".join(items) or "-")
        return f"{sides[0]} {sides[1]} {'w' if position.turn == WHITE else 'b'}"

    def turn(self, position: LaquetPosition) -> int:
        return position.turn

    def material(self, position: LaquetPosition) -> tuple[int, int]:
        return CHECKERS - position.off(WHITE), CHECKERS - position.off(BLACK)

    # -- the archive -------------------------------------------------------------
    def boards_and_materials(self, positions: list[LaquetPosition]) -> tuple[list[bytes], list[Material]]:
        """Points 1–18 as one character each (`.` empty, `a`–`o` 1–15 White checkers, `A`–`O`
        Black's) and the side to move; the checkers each side has on the board and borne off."""
        boards: list[bytes] = []
        materials: list[Material] = []
        for position in positions:
            counts = array("b", position.points[1 : LAST + 1]).tobytes()
            white, black = sum(counts.translate(_WHITE_CHECKERS)), sum(counts.translate(_BLACK_CHECKERS))
            boards.append(counts.translate(_CHARACTERS) + (b" w" if position.turn == WHITE else b" b"))
            materials.append((white, black, None, None, None, CHECKERS - white, CHECKERS - black))
        return boards, materials

    @classmethod
    def piece_bits(cls) -> dict[str, int]:
        return {**{chr(ord("a") + n): 1 for n in range(CHECKERS)}, **{chr(ord("A") + n): 2 for n in range(CHECKERS)}}

    @classmethod
    def pattern_globs(cls, fields: list[str], symmetric: bool) -> list[str]:
        """White's checkers, Black's and the side to move (w, b or *; left out: either), each
        colour `POINT:COUNT` items (COUNT may be `*`) and `*` for its other points (docs/notation.md
        §6.1). The table of points has no symmetries."""
        if len(fields) == 2:
            fields = [*fields, "*"]
        if len(fields) != 3 or fields[2] not in ("w", "b", "*"):
            raise ValueError("a Laquet pattern is White's checkers, Black's and the side to move (w, b or *)")
        listed: dict[int, str] = {}
        free = []
        for field, (letter, letters) in zip(fields, (("a", "a-o"), ("A", "A-O"))):
            if field == "-":
                continue
            for item in field.split(","):
                if item == "*":
                    free.append(letters)
                    continue
                m = re.fullmatch(r"([0-9]+):([0-9]+|\*)", item)
                point = whole_number(m[1], 1, LAST) if m else None
                count = whole_number(m[2], 1, CHECKERS) if m and m[2] != "*" else None
                if m is None or point is None or m[2] != "*" and count is None:
                    raise ValueError(f"'{item}' is not POINT:COUNT (a point 1-18, a count 1-15 or *) or *")
                if point in listed:
                    raise ValueError(f"point {point} is given twice")
                listed[point] = f"[{letters}]" if count is None else chr(ord(letter) + count - 1)
        other = "?" if len(free) == 2 else f"[{EMPTY_SQUARE}{free[0]}]" if free else EMPTY_SQUARE
        points = "".join(listed.get(point, other) for point in range(1, LAST + 1))
        return [points + " " + ("?" if fields[2] == "*" else fields[2])]

    def tally(self, start: LaquetPosition, position: LaquetPosition) -> str:
        return f"borne off: White {position.off(WHITE)}, Black {position.off(BLACK)}"

    # -- the editor ----------------------------------------------------------------
    roll = re.compile(r"([1-6])-?([1-6]):")  # `46:` or `4-6:`

    @classmethod
    def roll_text(cls, written: re.Match[str]) -> str:
        return "".join(sorted(written.group(1, 2), reverse=True)) + ":"

    def ply_summary(self, canonical: str, start: LaquetPosition, position: LaquetPosition) -> str:
        roll, _, plays = canonical.partition(":")
        return f"roll {'-'.join(roll)}, plays: {plays.strip()}; {self.tally(start, position)}"

    def render(self, position: LaquetPosition) -> str:
        return "\n".join(
            [
                "  III (bearing off)".ljust(24) + " |  II",
                _labels(range(18, 12, -1)) + " |" + _labels(range(12, 6, -1)),
                _row(position, range(18, 12, -1)) + " |" + _row(position, range(12, 6, -1)),
                _row(position, range(19, 25)) + " |" + _row(position, range(1, 7)),
                _labels(range(19, 25)) + " |" + _labels(range(1, 7)),
                "  Laquet (never used)".ljust(24) + " |  I",
            ]
        )

    # -- moves -------------------------------------------------------------------
    @staticmethod
    def _singles(position: LaquetPosition, side: int, die: int) -> list[Step]:
        """Every single step of one die (Q3, Q4, Q7)."""
        points = list(position.points)
        home = _home(points, side)
        targets = [(point, _target(points, side, point, die, home)) for point in range(1, LAST + 1)]
        return [(point, target, die) for point, target in targets if target]

    @staticmethod
    def _apply(position: LaquetPosition, side: int, step: Step) -> LaquetPosition:
        points = list(position.points)
        _move(points, SIGN[side], step[0], step[1])
        return LaquetPosition(tuple(points), position.turn)

    def _sequences(self, position: LaquetPosition, side: int, dice: tuple[int, ...]) -> list[list[Step]]:
        """Every way to play as many of `dice` as can be played (Q5). A way that bears off
        the last checker is complete whatever dice are left (Q8)."""
        ways: list[tuple[int, list[Step]]] = [(0, [])]  # (dice used or forgone by the end, steps)
        self._extend(ways, position, side, dice, [])
        most = max(score for score, _ in ways)
        return [steps for score, steps in ways if score == most]

    def _extend(
        self,
        ways: list[tuple[int, list[Step]]],
        position: LaquetPosition,
        side: int,
        left: tuple[int, ...],
        done: list[Step],
    ) -> None:
        """Add to `ways` every way to go on from `done` with the dice `left` (`_sequences`)."""
        for index, die in enumerate(left):
            if die in left[:index]:
                continue
            for step in self._singles(position, side, die):
                after, rest = self._apply(position, side, step), left[:index] + left[index + 1 :]
                over = after.done(side)
                ways.append((len(done) + 1 + (len(rest) if over else 0), done + [step]))
                if not over:
                    self._extend(ways, after, side, rest, done + [step])

    @staticmethod
    def _most(position: LaquetPosition, side: int, dice: tuple[int, ...]) -> int:
        """How many dice can be played (a game-ending bear-off counts as playing them all)."""
        return _most_playable(list(position.points), side, dice)

    def diagram(self, position: LaquetPosition, last: str | None = None) -> Diagram:
        marks: dict[int, str] = {}
        dice: tuple[int, ...] = ()
        if last:
            turn = parse_turn(last)
            dice = turn.roll
            for written in turn.plays + (turn.leftover[1] if turn.leftover else ()):
                marks.setdefault(written.points[0], FROM)
                if written.points[-1] != OFF:
                    marks[written.points[-1]] = TO
        checkers = {
            point: Piece(WHITE if count > 0 else BLACK, "checker", abs(count))
            for point, count in enumerate(position.points)
            if point and count
        }
        table = Points(labels={2: "III: bearing off", 1: "II", 0: "I"}, unused={3: ("Laquet", "never used")})
        return Diagram(
            f"Laquet: {self.format_position(position)}",
            table,
            checkers,
            marks,
            (position.off(WHITE), position.off(BLACK)),
            dice,
        )

    # -- checking a written turn ---------------------------------------------------
    def play(self, position: LaquetPosition, text: str) -> Played:
        turn = parse_turn(text)
        return _play_plain(position, turn, self.must, self.leftover) or self._play_checked(position, turn)

    def _play_checked(self, position: LaquetPosition, turn: Turn) -> Played:
        """Any turn, following every way the written plays can be read with the dice."""
        side = position.turn
        states = self._check_plays(position, side, turn.roll, turn.plays, "Q5")
        after, steps, left = states[0]
        if after.done(side):
            if turn.leftover:
                raise Illegal(
                    "Q8", f"{SIDE_NAMES[side]} bore off the last checker: the game is over and no die is left over"
                )
            leftover = ""
        elif self.leftover and any(left for _, _, left in states):
            after, steps, leftover = self._check_leftover(states, side, turn)
        elif turn.leftover:
            raise Illegal(
                "Q6",
                "no die was left over"
                if not left
                else "under leftover=none the dice left over are lost: nobody plays them",
            )
        else:
            leftover = ""
        text = _roll_text(turn.roll) + " " + _steps_text(steps) + leftover
        after = LaquetPosition(after.points, 1 - side)
        return Played(after, text, _winner(list(after.points)))

    def _check_leftover(self, states, side: int, turn: Turn) -> tuple[LaquetPosition, list[Step], str]:
        """Q6: the opponent plays the dice left over, when able, before their own turn.
        Where the dice used were open to choice (a bear-off by excess), the > group says which."""
        opponent = 1 - side
        if turn.leftover is None:
            for position, steps, left in states:
                if not self.must or not self._most(position, opponent, left):
                    return position, steps, ""
            position, _, left = states[0]
            example = _steps_text(self._sequences(position, opponent, left)[0])
            raise Illegal(
                "Q6",
                f"{SIDE_NAMES[opponent]} can play the {_dice_words(left)} left over and must: "
                f"write it as a > group, e.g. >{_roll_text(left)} {example}",
            )
        dice, plays = turn.leftover
        matching = [state for state in states if sorted(state[2]) == sorted(dice)]
        if not matching:
            raise Illegal("Q6", f"the dice left over are {_dice_words(states[0][2])}, not {_dice_words(dice)}")
        position, steps, left = matching[0]
        after, played, _ = self._check_plays(position, opponent, left, plays, "Q6")[0]
        return after, steps, f" >{_roll_text(left)} {_steps_text(played)}" if played else ""

    def _check_plays(
        self, position: LaquetPosition, side: int, dice: tuple[int, ...], plays: tuple[Written, ...], rule: str
    ) -> list[State]:
        """Follow the written plays with the dice: every consistent (position, steps, dice
        left). `rule` is cited when fewer dice were played than could be (Q5; Q6 for leftovers)."""
        states: list[State] = [(position, [], tuple(dice))]
        for written in plays:
            for _ in range(written.repeat):
                states = self._follow(states, side, written.points)
        after, steps, _ = states[0]
        most = self._most(position, side, tuple(dice)) if self.must and len(steps) < len(dice) else 0
        if most > len(steps) and not after.done(side):
            taken = [step[:2] for step in steps]
            ways = sorted(self._sequences(position, side, tuple(dice)), key=partial(_departs, taken))
            shown = "; ".join(_steps_text(way) for way in ways[:3]) + ("; …" if len(ways) > 3 else "")
            raise Illegal(
                rule,
                f"{SIDE_NAMES[side]} must play {'both dice' if most == 2 else 'a die'} when able "
                f"({'played ' + _steps_text(steps) if steps else 'played nothing'}); "
                f"possible: {shown}",
            )
        return states

    def _follow(self, states: list[State], side: int, points: tuple[int, ...]) -> list[State]:
        """The states one written play reaches from any of `states`; Illegal when none."""
        reached: list[State] = []
        problem: Illegal | None = None
        for position, steps, left in states:
            distance = points[1] - points[0]
            if (
                len(points) == 2
                and points[1] != OFF
                and distance not in left
                and len(left) == 2
                and distance == sum(left)
            ):  # one checker, both dice, written 1/10: either order
                routes: list[tuple[int, ...]] = [(points[0], points[0] + die, points[1]) for die in dict.fromkeys(left)]
            else:
                routes = [points]
            for route in routes:
                frontier = [(position, steps, left)]
                for start, end in zip(route, route[1:]):
                    following = []
                    for pos, done, rest in frontier:
                        try:
                            for die in self._dice_for(pos, side, start, end, rest, points):
                                self._check_step(pos, side, start, end, route, points)
                                step = (start, end, die)
                                following.append((self._apply(pos, side, step), done + [step], _without(rest, die)))
                        except Illegal as illegal:
                            problem = problem or illegal
                    frontier = following
                reached += frontier
        if not reached:
            assert problem is not None  # each state tried a step, and each step that failed said why
            raise problem
        return reached

    def _dice_for(
        self, position: LaquetPosition, side: int, start: int, end: int, left: tuple[int, ...], points: tuple[int, ...]
    ) -> list[int]:
        """Which of the dice left may carry a checker from `start` to `end` (in the play `points`)."""
        if end != OFF and end <= LAST and end - start in left and end > start and not position.done(side):
            return [end - start]  # the common case, checked in full below when it is not
        who, text = SIDE_NAMES[side], _play_text(points)
        if position.done(side):
            raise Illegal("Q8", f"{who} has borne off every checker; the game is over and no die is played after that")
        if not left:
            raise Illegal("Q2", f"{text}: the roll is used up (two dice; a double is played as two moves)")
        if end == OFF:
            if not _home(list(position.points), side):
                outside = [str(p) for p in range(1, 13) if position.checkers(side, p)]
                raise Illegal(
                    "Q7",
                    f"{who} may bear off only once all 15 checkers are in quadrant III "
                    f"(13-18); some stand on {', '.join(outside)}",
                )
            behind = _behind(list(position.points), side, start)
            dice = sorted({d for d in left if d == OFF - start or (d > OFF - start and not behind)})
            if not dice:
                raise Illegal(
                    "Q7",
                    f"{text}: bearing off from {start} takes a {OFF - start}, or a higher die "
                    f"when no checker of {who}'s stands behind it; the dice left: "
                    f"{_dice_words(left)}",
                )
            return dice
        if end > LAST:
            raise Illegal("Q4", f"{text}: no checker may enter points 19-24; it leaves past 18 only by bearing off")
        distance = end - start
        if distance <= 0:
            raise Illegal("Q3", f"{text}: checkers move forward, from lower to higher points")
        if distance not in left:
            raise Illegal(
                "Q3",
                f"{text} moves {distance} point{'s' if distance > 1 else ''}, and the dice left "
                f"are {_dice_words(left)}",
            )
        return [distance]

    def _check_step(self, position: LaquetPosition, side: int, start: int, end: int, route, points) -> None:
        """Q3: a checker of the mover's on `start`, and `end` not held by the enemy."""
        if not position.checkers(side, start):
            raise Illegal("Q3", f"{_play_text(points)}: there is no {SIDE_NAMES[side]} checker on point {start}")
        if end != OFF and position.checkers(1 - side, end):
            verb = "lands on" if end == route[-1] else "stops on"
            raise Illegal(
                "Q3",
                f"{_play_text(points)} {verb} point {end}, held by {SIDE_NAMES[1 - side]}: no checker may "
                "stop on an enemy point",
            )

    def outcome(self, position: LaquetPosition) -> Outcome | None:
        return _winner(list(position.points))

    # -- legal and random plies -----------------------------------------------------
    def plies_for_roll(self, position: LaquetPosition, roll: tuple[int, int]) -> list[str]:
        """Every legal ply with this roll, in canonical form."""
        side, plies = position.turn, []
        for steps in self._sequences(position, side, roll):
            text = _roll_text(roll) + " " + _steps_text(steps)
            after = self._apply_all(position, side, steps)
            left = _left(roll, steps)
            if left and self.leftover and not after.done(side) and self._most(after, 1 - side, left):
                plies += [
                    f"{text} >{_roll_text(left)} {_steps_text(s)}" for s in self._sequences(after, 1 - side, left)
                ]
            else:
                plies.append(text)
        return list(dict.fromkeys(plies))

    def candidates(self, position: LaquetPosition, written: str) -> list[str]:
        """The plies of the roll written and of the rolls with one die misread by one."""
        high, low = parse_turn(written).roll
        rolls = {(high, low)} | {
            (h, l)
            for h in (high - 1, high, high + 1)
            for l in (low - 1, low, low + 1)
            if 1 <= h <= 6 and 1 <= l <= 6 and abs(h - high) + abs(l - low) == 1
        }
        plies: dict = {}
        for roll in sorted(rolls):
            for ply in self.plies_for_roll(position, roll):  # the same plays in another order: the most alike
                turn = parse_turn(ply)
                key = (turn.roll, tuple(sorted(turn.plays)), turn.leftover)
                if key not in plies or similarity(written, ply) > similarity(written, plies[key]):
                    plies[key] = ply
        return list(plies.values())

    def chance(self, text: str) -> str:
        """The roll, the higher die first (`46: 5/11 4/8` and `64: 4/8 5/11`: `64`)."""
        return "".join([str(die) for die in sorted(parse_turn(text).roll, reverse=True)])

    def distance(self, written: str, legal: str) -> int:
        """Dice misread (1 a pip), plays that differ (1 when they share a point or fit the
        other die, 2 otherwise), a play or a > group missing or extra (1)."""
        a, b = parse_turn(written), parse_turn(legal)
        cost = _dice_distance(a.roll, b.roll) + _plays_distance(a.plays, b.plays)
        if (a.leftover is None) != (b.leftover is None):
            cost += 1
        elif a.leftover and b.leftover:
            cost += _dice_distance(a.leftover[0], b.leftover[0]) + _plays_distance(a.leftover[1], b.leftover[1])
        return cost

    @classmethod
    def mended_ply(cls, word: str) -> str:
        """A roll without its colon (`53`, `5-3`): `53:`, `5-3:`; a roll and its plays written with
        hyphens, as some backgammon books write them (`63: 5-11 1-4`): `63: 5/11 1/4`."""
        if _BARE_ROLL.fullmatch(word):
            return word + ":"
        roll, colon, plays = word.partition(":")
        if not colon or not cls.roll.fullmatch(roll + colon):
            return word
        return (
            roll
            + colon
            + "".join(play.replace("-", "/") if _DASHED_PLAY.fullmatch(play) else play for play in _SPACED.split(plays))
        )

    def legal_plies(self, position: LaquetPosition) -> list[str]:
        return [
            ply
            for high in range(1, 7)
            for low in range(1, high + 1)
            for ply in self.plies_for_roll(position, (high, low))
        ]

    def random_ply(self, position: LaquetPosition, rng: random.Random) -> str | None:
        if _winner(list(position.points)):
            return None
        high, low = sorted((rng.randint(1, 6), rng.randint(1, 6)), reverse=True)
        return rng.choice(self.plies_for_roll(position, (high, low)))

    def _apply_all(self, position: LaquetPosition, side: int, steps: list[Step]) -> LaquetPosition:
        for step in steps:
            position = self._apply(position, side, step)
        return position


def _holds(count: int, side: int) -> bool:
    """Whether a point with `count` (as in `LaquetPosition.points`) holds checkers of `side`'s.
    (Compared, not multiplied by the side's sign: mypyc multiplies negative numbers slowly.)"""
    return count > 0 if SIGN[side] > 0 else count < 0


@cache
def _initial() -> LaquetPosition:
    """The start (Q1), read once: every record replays from it."""
    return Laquet().parse_position(INITIAL)


def _on_board(points: list[int]) -> tuple[bool, bool]:
    """Whether White, and whether Black, has a checker on these points (one pass, no calls)."""
    white = black = False
    for count in points:
        if count > 0:
            white = True
        elif count < 0:
            black = True
    return white, black


def _done(points: list[int], side: int) -> bool:
    """Whether `side` has no checker on these points."""
    white, black = _on_board(points)
    return not (black if side == BLACK else white)


def _winner(points: list[int]) -> Outcome | None:
    """Q8: the side that has borne off all its checkers (White first), if one has."""
    white, black = _on_board(points)
    return WON[WHITE] if not white else WON[BLACK] if not black else None


def _home(points: list[int], side: int) -> bool:
    """Q7: all of `side`'s checkers are in quadrant III (13-18) or borne off."""
    return _done(points[1:13], side)


def _behind(points: list[int], side: int, start: int) -> bool:
    """Whether `side` has a checker in quadrant III behind `start` (Q7: bearing off by excess)."""
    for point in range(13, start):
        if _holds(points[point], side):
            return True
    return False


def _target(points: list[int], side: int, point: int, die: int, home: bool) -> int:
    """Where `die` carries a checker of `side`'s from `point` (Q3, Q4, Q7): a point, OFF,
    or 0 when it cannot (no checker there, an enemy point, no bear-off). `home`: `_home`."""
    if not _holds(points[point], side):
        return 0
    target = point + die
    if target <= LAST:
        return 0 if _holds(points[target], 1 - side) else target
    return OFF if home and (target == OFF or not _behind(points, side, point)) else 0


def _move(points: list[int], sign: int, start: int, end: int) -> None:
    """Move a checker counted `sign` from `start` to `end` (off the board at OFF); -sign undoes it."""
    points[start] -= sign
    if end != OFF:
        points[end] += sign


def _most_playable(points: list[int], side: int, dice: tuple[int, ...]) -> int:
    """How many of `dice` `side` can play from `points` (a game-ending bear-off counts as
    playing them all): the best score of `Laquet._sequences`, searched depth first on
    `points` (each step undone) and stopped as soon as every die is played."""
    if _done(points, side):
        return len(dice)
    home, sign, best = _home(points, side), SIGN[side], 0
    for index, die in enumerate(dice):
        if die in dice[:index]:
            continue
        rest = dice[:index] + dice[index + 1 :]
        for point in range(1, LAST + 1):
            target = _target(points, side, point, die, home)
            if not target:
                continue
            if not rest:
                return len(dice)
            _move(points, sign, point, target)
            best = max(best, 1 + _most_playable(points, side, rest))
            _move(points, -sign, point, target)
            if best == len(dice):
                return best
    return best


def _play_plain(position: LaquetPosition, turn: Turn, must: bool, leftover_played: bool) -> Played | None:
    """The usual turn, played on a list of counts: every written step takes exactly one
    die (no choice of dice to keep track of) and the rules hold (`must`: both-dice=must;
    `leftover_played`: leftover=opponent). None otherwise, and `Laquet._play_checked`
    decides (and words any error): the two agree wherever this answers."""
    counts, side = position
    roll, plays, written_leftover = turn
    opponent, points = 1 - side, list(counts)
    followed = _chain(points, side, roll, plays)
    if followed is None:
        return None
    steps, left = followed
    leftover: tuple[()] | tuple[tuple[int, ...], list[Step]] = ()  # (dice, steps) the opponent played
    if left and not _done(points, side):
        if must and len(steps) < _most_playable(list(counts), side, roll):
            return None  # Q5
        if written_leftover is None:
            if leftover_played and must and _most_playable(points, opponent, left):
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
                and not _done(points, opponent)
                and len(played) < _most_playable(before, opponent, left)
            ):
                return None  # Q6
            leftover = (left, played)
    elif written_leftover:
        return None  # Q6, Q8
    after = tuple.__new__(LaquetPosition, (tuple(points), opponent))  # as LaquetPosition(…), with no Python frame
    return Played(after, partial(_turn_text, roll, steps, *leftover), _winner(points))


def _chain(
    points: list[int], side: int, dice: tuple[int, ...], plays: tuple[Written, ...]
) -> tuple[list[Step], tuple[int, ...]] | None:
    """Play `plays` for `side` on `points` (changed in place) when each written step takes
    one die and breaks no rule: the steps and the dice left. A bear-off that either die can
    make takes the smaller, as the first of `Laquet._check_plays`'s states does; the dice
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
                if not _holds(points[start], side):  # also once the last checker is off (Q8)
                    return None
                if end == OFF:
                    if not _home(points, side):  # Q7
                        return None
                    behind, die = _behind(points, side, start), 0  # the smallest die that fits
                    for fitting in left:
                        if fitting == OFF - start or (fitting > OFF - start and not behind):
                            chose = chose or (die != 0 and fitting != die)  # another die would do
                            die = fitting if not die or fitting < die else die
                    if not die:
                        return None
                else:
                    die = end - start
                    if end > LAST or die <= 0 or die not in left or _holds(points[end], 1 - side):
                        return None
                left.remove(die)
                total -= die
                _move(points, sign, start, end)
                steps.append((start, end, die))
    return None if chose and left else (steps, tuple(left))


def _dice_distance(a: tuple[int, ...], b: tuple[int, ...]) -> int:
    if len(a) != len(b):
        return 2
    return sum(abs(x - y) for x, y in zip(sorted(a), sorted(b)))


def _segments(plays: tuple[Written, ...]) -> list[tuple[int, int]]:
    return [
        pair for written in plays for _ in range(written.repeat) for pair in zip(written.points, written.points[1:])
    ]


def _plays_distance(written: tuple[Written, ...], legal: tuple[Written, ...]) -> int:
    """The cheapest pairing of the written segments with the legal ones (each turn has
    a handful, so every pairing is tried); a segment left over costs 1."""
    a, b = _segments(written), _segments(legal)
    b = _merge(a, b)
    if len(a) > len(b):
        a, b = b, a
    return (
        min(sum(_segment_distance(x, y) for x, y in zip(a, chosen)) for chosen in permutations(b, len(a)))
        + len(b)
        - len(a)
    )


def _merge(written: list[tuple[int, int]], legal: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The legal segments, with two that one written play spans (1/10) merged into one."""
    legal = list(legal)
    for start, end in written:
        for first in legal:
            second = next((s for s in legal if s is not first and s[0] == first[1] and s[1] == end), None)
            if first[0] == start and second:
                legal.remove(first)
                legal.remove(second)
                legal.append((start, end))
                break
    return legal


def _segment_distance(x: tuple[int, int], y: tuple[int, int]) -> int:
    return 0 if x == y else 1 if x[0] == y[0] or x[1] == y[1] else 2


def _left(roll, steps: list[Step]) -> tuple[int, ...]:
    for step in steps:
        roll = _without(roll, step[2])
    return tuple(roll)


def _without(dice: tuple[int, ...], die: int) -> tuple[int, ...]:
    index = dice.index(die)
    return dice[:index] + dice[index + 1 :]


def _play_text(points: tuple[int, ...]) -> str:
    return "/".join(point_name(p) for p in points)


def _departs(taken: list[tuple[int, int]], way: list[Step]) -> bool:
    """Whether a way to play the dice does not begin with the steps `taken` (shown after those that do)."""
    return [step[:2] for step in way[: len(taken)]] != taken


def _turn_text(
    roll: tuple[int, ...], steps: list[Step], left: tuple[int, ...] = (), played: Sequence[Step] = ()
) -> str:
    """A turn in canonical form: the roll, the steps, and the > group when the opponent played some."""
    return (
        _roll_text(roll) + " " + _steps_text(steps) + (f" >{_roll_text(left)} {_steps_text(played)}" if played else "")
    )


def _steps_text(steps: Sequence[Step]) -> str:
    return " ".join([f"{a}/{point_name(b)}" for a, b, _ in steps]) or "--"


def _dice_words(dice) -> str:
    dice = sorted(dice, reverse=True)
    return " and ".join(str(d) for d in dice) if dice else "none"
