"""Laquet (RULES.md Q1–Q9 and the Laquet options).

Points 1–18 are played on, in the same direction by both colours; 19–24 (the
quadrant marked Laquet) are never entered; a checker leaving past 18 is borne off.
"""
# lusoria: compiled with mypyc

from __future__ import annotations

import random
import re
from array import array
from functools import cache
from typing import Final

from mypy_extensions import mypyc_attr

from lusoria.errors import Refused
from lusoria.notation.numbers import whole_number
from lusoria.validator.base import (
    BLACK,
    EMPTY_SQUARE,
    WHITE,
    Game,
    Illegal,
    Material,
    OptionError,
    Outcome,
    Played,
    Presets,
    check_side_written,
)
from lusoria.validator.diagram import FROM, TO, Diagram, Piece, Points
from lusoria.validator.laquet_checked import play_checked
from lusoria.validator.laquet_fast import play_plain
from lusoria.validator.laquet_moves import apply_steps, sequences
from lusoria.validator.laquet_points import (
    BORNE_OFF,
    CHECKERS,
    LAST,
    OFF,
    LaquetPosition,
    most_playable,
    outside_home,
    winner,
)
from lusoria.validator.laquet_slips import (
    LEFTOVER,
    ROLL,
    SPACED_PLAY,
    SPACED_ROLL,
    UNREAD_ROLL,
    dice_all_played,
    forward,
    mended_turn,
    played,
    read_points,
    reordered_turns,
    shown_dice,
    turn_distance,
)
from lusoria.validator.laquet_turns import Turn, dice_left, parse_turn, turn_text
from lusoria.validator.suggest import similarity
from lusoria.words import plural, quoted

INITIAL = "1:2,2:3,3:3,4:3,5:3,18:1 6:14,7:1 w"
# A spelled-out board (Laquet.boards_and_materials): the character of each count of a point, indexed by the
# count (negative: Black's, from the end); a point's count as a signed byte (`array("b")`) -> its
# character, and the checkers it holds of White's, of Black's (Final: mypyc compiles these to constants)
_COUNTS = (EMPTY_SQUARE, *(chr(ord("a") + n) for n in range(15)), *(chr(ord("A") + 14 - n) for n in range(15)))
_CHARACTERS: Final = bytes(
    ord(_COUNTS[byte - 256 if byte > 127 else byte]) if byte <= 15 or byte >= 241 else ord("?") for byte in range(256)
)
_WHITE_CHECKERS: Final = bytes(byte if byte <= 15 else 0 for byte in range(256))
_BLACK_CHECKERS: Final = bytes(256 - byte if byte >= 241 else 0 for byte in range(256))


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
    title = "Laquet"
    end_rule = "Q9"
    endings = (BORNE_OFF,)
    options = {"both-dice": ("must", "may"), "leftover": ("opponent", "none")}
    presets = Presets({"seed": {}})

    def __init__(self, options=None, variant=None):
        super().__init__(options, variant)
        self.must = self.option["both-dice"] == "must"
        self.leftover = self.option["leftover"] == "opponent"

    # -- positions -------------------------------------------------------------
    def initial(self) -> LaquetPosition:
        return _initial()

    def parse_position(self, text: str) -> LaquetPosition:
        fields = text.split()
        if len(fields) == 3:
            check_side_written(text, 2)
        else:
            raise OptionError(f"a Laquet position is White's checkers, Black's and the side to move, as in '{INITIAL}'")
        points = [0] * (LAST + 1)
        for side, field in zip((WHITE, BLACK), re.finditer(r"\S+", text)):
            if field[0] == "-":
                continue
            total, at = 0, field.start()
            for item in field[0].split(","):
                written_point, colon, written_count = item.partition(":")
                point, count = whole_number(written_point, 1, 24), whole_number(written_count, 1, CHECKERS)
                if not colon or point is None or count is None:
                    problem = (
                        f"{quoted(item)} is not POINT:COUNT with a point from 1 to 24 and a count from 1 to {CHECKERS}"
                    )
                elif point > LAST:
                    problem = f"no checker stands on point {point}: points 19-24 are never used"
                elif points[point]:
                    problem = _twice(point, points[point] > 0, side == WHITE)
                else:
                    points[point] = count if side == WHITE else -count
                    total += count
                    at += len(item) + 1
                    continue
                raise OptionError(problem, "Position", item, at)  # (at the item at fault)
            if total > CHECKERS:
                raise self.unreachable_count(side, f"{total} checkers on the board", f"each side has {CHECKERS}")
        position = LaquetPosition(tuple(points), WHITE if fields[2] == "w" else BLACK)
        for side in (WHITE, BLACK):  # (no checker goes back: Q3)
            if position.off(side) and (outside := outside_home(points, side)):
                raise self.unreachable_count(
                    side,
                    f"{plural(position.off(side), 'checker')} borne off and one on point {outside[0]}",
                    "a checker is borne off only once all 15 are in quadrant III, 13-18 (Q7)",
                )
        if position.done(WHITE) and position.done(BLACK):
            raise OptionError("both sides have borne off all their checkers: the game ended when the first did (Q8)")
        return position

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
            raise Refused("a Laquet pattern is White's checkers, Black's and the side to move (w, b or *)")
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
                    raise Refused(f"{quoted(item)} is not POINT:COUNT (a point 1-18, a count 1-15 or *) or *")
                if point in listed:
                    raise Refused(f"point {point} is given twice")
                listed[point] = f"[{letters}]" if count is None else chr(ord(letter) + count - 1)
        other = "?" if len(free) == 2 else f"[{EMPTY_SQUARE}{free[0]}]" if free else EMPTY_SQUARE
        points = "".join(listed.get(point, other) for point in range(1, LAST + 1))
        return [points + " " + ("?" if fields[2] == "*" else fields[2])]

    def tally(self, start: LaquetPosition, position: LaquetPosition) -> str:
        return f"borne off: White {position.off(WHITE)}, Black {position.off(BLACK)}"

    # -- the editor ----------------------------------------------------------------
    roll = ROLL
    points = OFF - 1
    leftover_roll = LEFTOVER
    spaced_roll = SPACED_ROLL
    spaced_play = SPACED_PLAY
    unread_roll = UNREAD_ROLL

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

    # -- the diagram -------------------------------------------------------------
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
        try:
            return self._played(position, turn)
        except Illegal as illegal:
            misread = self._misread_roll(position, turn, text)
            if misread is None:
                if both := self._roll_left_out(position, text):
                    raise Illegal(illegal.rule, illegal.message, meant=both) from None
                raise
            note = f" (the plays written fit the roll {misread[0]}{misread[1]}: a die misread?)"
            meant = f"{misread[0]}{misread[1]}:{text.partition(':')[2]}"
            raise Illegal(illegal.rule, illegal.message + note, meant=meant) from None

    def _roll_left_out(self, position: LaquetPosition, text: str) -> str | None:
        """The two turns an illegal one is, written as one, the other side's roll left out (`64: 5/11 5/9 6/8 7/12`:
        `64: 5/11 5/9 52: 6/8 7/12`): the plays after those that play the roll written are a turn of the other side's,
        each step a die (h82b: it was offered the first turn alone, the other's plays dropped); None when none is."""
        roll, _, written = text.partition(":")
        plays = written.split()
        if ">" in written or len(plays) > 2 * _MOST_PLAYS:  # (a > group's plays are the other side's already; a turn
            return None  # plays a die a play at most: review82, a turn of 4,000 plays read again at each)
        for cut in range(1, len(plays)):
            own, rest = " ".join(plays[:cut]), " ".join(plays[cut:])
            if (shown := shown_dice(rest)) is None:
                continue
            try:
                first = self._played(position, parse_turn(f"{roll}: {own}"))
                if first.outcome is None:  # (a turn that ends the game: none after it)
                    self._played(first.position, parse_turn(f"{shown[0]}{shown[1]}: {rest}"))
                    return f"{roll}: {own} {shown[0]}{shown[1]}: {rest}"
            except Illegal:
                continue
        return None

    def _played(self, position: LaquetPosition, turn: Turn) -> Played:
        return play_plain(position, turn, self.must, self.leftover) or play_checked(
            position, turn, self.must, self.leftover
        )

    def _misread_roll(self, position: LaquetPosition, turn: Turn, text: str) -> tuple[int, int] | None:
        """The roll an illegal turn's plays show, each step a die (`53: 2/4 5/10`: 52), when it
        differs from the roll written by one die and the plays are legal under it: a die misread
        by the source or its transcriber."""
        shown = shown_dice(text.partition(":")[2].partition(">")[0].strip())
        if shown is None or shown == tuple(sorted(turn.roll, reverse=True)) or not set(shown) & set(turn.roll):
            return None
        try:
            self._played(position, Turn(shown, turn.plays, turn.leftover))
        except Illegal:
            return None
        return shown

    def outcome(self, position: LaquetPosition) -> Outcome | None:
        return winner(list(position.points))

    # -- legal and random plies -----------------------------------------------------
    def plies_for_roll(self, position: LaquetPosition, roll: tuple[int, int]) -> list[str]:
        """Every legal ply with this roll, in canonical form."""
        side, plies = position.turn, []
        for steps in sequences(position, side, roll):
            after = apply_steps(position, side, steps)
            left = dice_left(roll, steps)
            if left and self.leftover and not after.done(side) and most_playable(list(after.points), 1 - side, left):
                plies += [turn_text(roll, steps, left, played) for played in sequences(after, 1 - side, left)]
            else:
                plies.append(turn_text(roll, steps))
        return list(dict.fromkeys(plies))

    def candidates(self, position: LaquetPosition, written: str) -> list[str]:
        """The plies of the roll written (a die misread is offered before them: `Illegal.meant`): the dice are
        the source's, not a slip to mend; the same plays in another order once (a > group's too), the most alike."""
        high, low = parse_turn(written).roll
        plies: dict = {}
        for ply in self.plies_for_roll(position, (high, low)):
            turn = parse_turn(ply)
            dice, played = turn.leftover or ((), ())
            key = (tuple(sorted(turn.plays)), dice, tuple(sorted(played)))
            if key not in plies or similarity(written, ply) > similarity(written, plies[key]):
                plies[key] = ply
        return list(plies.values())

    def chance(self, text: str) -> str:
        """The roll, the higher die first (`46: 5/11 4/8` and `64: 4/8 5/11`: `64`)."""
        return "".join([str(die) for die in sorted(parse_turn(text).roll, reverse=True)])

    def distance(self, written: str, legal: str) -> int:
        return turn_distance(written, legal)

    def likeness(self, written: str, legal: str) -> float:
        """As alike as the turn with its plays written the wrong way round (`11/5`) turned forward is."""
        return similarity(forward(written), legal)

    @classmethod
    def mended_ply(cls, word: str) -> str:
        return mended_turn(word)

    @classmethod
    def reordered_plies(cls, text: str, position: int) -> list[tuple[int, int, str]]:
        return reordered_turns(text, position)

    @classmethod
    def misread_plies(cls, text: str, position: int) -> list[tuple[int, int, str]]:
        return read_points(text, position)

    @classmethod
    def refused_after(cls, ply: str, found: str) -> str | None:
        """`--` after a play (`63: 6/12 --`), for a die that could not be played: such a die is not
        written (Q6); a full stop after a play (`5/9.`); a play, or a pass, after a ply (and its comment) that played every
        die (`64: 5/11 5/9 {…} 5/9`, `64: 5/11 5/9 {…} --`: a pass is written after its roll); a > group that begins
        a variation or follows one (newcomer-58a: `64: 5/11 4/8 (>4: 9/13)`, a bare syntax error)."""
        if found.startswith(">") and ply.endswith(("(", ")")):
            return (
                "a > group plays the dice a ply left, and follows that ply's plays: a variation holds a whole ply, its "
                "roll, plays and > group (`(54: -- >54: 4/8 1/5)`)"
            )
        if (played(found) or found == "--") and dice_all_played(ply):
            then = (
                "a pass is a ply of its own, after its roll: write the dice the opponent threw before -- (`52: --`), or strike -- out"
                if found == "--"
                else "a play written twice is struck out"
                if found in ply.split()
                else "the next ply begins with its roll"
            )
            return f"{ply} has played all its dice, and {found} after it is no play of it: {then}"
        if found.startswith(".") and ply.split() and played(ply.split()[-1]):
            return f"a play ends with no full stop: write {ply.split()[-1]} alone (a move number has the dot: `2.`)"
        if found != "--" or not played(ply.rpartition(" ")[2]):  # (`63: 6/12 --`, `63: 6/12 {…} --`)
            return None
        return (
            "a die that cannot be played is not written: a turn writes its plays, and a > group after "
            "them the dice the opponent plays (Q6)"
        )

    def legal_plies(self, position: LaquetPosition) -> list[str]:
        return [
            ply
            for high in range(1, 7)
            for low in range(1, high + 1)
            for ply in self.plies_for_roll(position, (high, low))
        ]

    def random_ply(self, position: LaquetPosition, rng: random.Random) -> str | None:
        if winner(list(position.points)):
            return None
        high, low = sorted((rng.randint(1, 6), rng.randint(1, 6)), reverse=True)
        return rng.choice(self.plies_for_roll(position, (high, low)))


_MOST_PLAYS: Final = 2  # the plays of a turn, a die each (a double is two moves, Q2), at most: `_roll_left_out`


def _twice(point: int, white_before: bool, white_now: bool) -> str:
    """A Position's point given twice: by one colour, or by both (a point holds one colour's checkers, Q3)."""
    if white_before == white_now:
        return f"point {point} is given twice"
    return f"point {point} is given to White and to Black: a point holds the checkers of one colour (Q3)"


@cache
def _initial() -> LaquetPosition:
    """The start (Q1), read once: every record replays from it."""
    return Laquet().parse_position(INITIAL)
