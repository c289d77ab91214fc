"""How far a written Laquet turn is from a legal one (`turn_distance`), and slips of writing mended
(`mended_turn`)."""
# lusoria: compiled with mypyc

from __future__ import annotations

import heapq
import re
from itertools import permutations
from typing import Final

from lusoria.notation.numbers import checked_number, whole_number
from lusoria.validator.laquet_points import EDGE, LAST, OFF
from lusoria.validator.laquet_turns import Written, parse_turn

ROLL: Final = re.compile(r"([1-6])-?([1-6]):")  # `46:` or `4-6:`
LEFTOVER: Final = re.compile(r">[ \t\r\n]*[1-6](?:-?[1-6])?:")  # the dice of a > group: `>3:`, `> 63:`
# a roll with blanks in it (`63 :`, `6 3:`), or parted from its plays by a dash (`63 - 5/11`, `63 – 5/11`)
SPACED_ROLL: Final = re.compile(r"[1-6][ \t]*-?[ \t]*[1-6](?:[ \t]*:|[ \t]+[-–—])")
# a play with blanks about its slashes, or a line break after one: `1 / 4`, `5 /11`, `1/`⏎`4`; not a move number
# or a roll after its slash (`1/`⏎`2. 41:`)
SPACED_PLAY: Final = re.compile(
    r"[0-9]{1,2}(?:[ \t]*/[ \t]*\n?[ \t]*(?:[0-9]{1,2}|(?i:off)))+(?:\([2-9]\))?(?![0-9.:-])"
)
_SPACED_SLASH: Final = re.compile(r"(?<=[0-9])[ \t]*/[ \t]*(?=[0-9]|(?i:off))")  # a play's slash with blanks about it
# a die the source does not show (`6?:`, `??:`), or shows as no die can (`71:`, `06:`)
UNREAD_ROLL: Final = re.compile(r"(?=[^:]*[?07-9])[0-9?]-?[0-9?]:")
_BARE_ROLL: Final = re.compile(r"[1-6]-?[1-6]|>[1-6](?:-?[1-6])?")  # a roll, or a > group's dice, without its colon
_DASHED_ROLL: Final = re.compile(r"[1-6]-?[1-6][-–—]")  # a roll with a dash for its colon (`63 - 5/11`, joined)
_GROUP_BEHIND: Final = re.compile(r"[1-6](?:-?[1-6])?(?:>:|:>)")  # a > group's dice before their >: `3>:`, `54:>`
_LEFTOVER_DIE: Final = re.compile(r"[1-6]:")  # one die: the dice of a > group written without its >
_DASHED_PLAY: Final = re.compile(r"[0-9]{1,2}(?:-(?:[0-9]{1,2}|off))+(?:\([0-9]\))?")  # 5-11, 3-6(2): 5/11, 3/6(2)
_PLAY: Final = re.compile(r"(?<![0-9/])([0-9]{1,2})/([0-9]{1,2})(?![0-9/])")  # a play of one die: 5/11 (not 1/7/10)
# plays of points written with no roll before them: 5/11 5/9, 1/7/10, 3/6(2)
_UNROLLED: Final = re.compile(
    r"[0-9]{1,2}(?:/[0-9]{1,2})+(?:\([2-9]\))?(?:[ \t]+[0-9]{1,2}(?:/[0-9]{1,2})+(?:\([2-9]\))?)*"
)
_SPACED: Final = re.compile(r"([ \t]+)")  # the blanks between plays, kept as written
_PARTED_DICE: Final = re.compile(r"\A([1-6])[,/.]([1-6])\Z")  # a roll's dice parted as a pair is: 6,3, 6/3 (h73b), 6.3
_COMMA_BEFORE_PLAY: Final = re.compile(r",+(?=[^\s,])")  # 5/11,5/9: 5/11 5/9 (the other commas go)
_BEARING_OFF: Final = re.compile(r"([/-])(?:off|0)(?=\(|$)", re.I)  # 14/OFF, 14/0: 14/off
# nothing played, written otherwise after a roll: in words, or with dashes the syntax does not read (`—`, `———`,
# `- -`); `63: ---` and `63: -- --` read up to their dashes, which notation.slips mends
_PASS: Final = re.compile(r"([ \t]*)(?:-+(?:[ \t]+-+)*|pass|none)", re.I)
# a turn whose parts a source writes in another order: its > group's dice before the roll's plays
# (`66: >6: 3/9 9/15`, the group's plays first) or after them all (`66: 9/15 3/9 >6:`, its plays
# last), or its roll after its plays (`9/15 66:`, `9/15 66: >6: 3/9`; not before plays of its own,
# whose ply left out its roll: `5/11 5/9 52: 6/8 7/12`)
_CHAIN = r"[0-9]{1,2}(?:/(?:[0-9]{1,2}|off))+"  # the points of a play
_WRITTEN_PLAY = rf"{_CHAIN}(?:\([2-9]\))?"  # and its repeat
_ONE_PLAY: Final = re.compile(rf"({_CHAIN})(?:\(([2-9])\))?")  # 6/12, 1/7/10, 3/6(2), 14/off: its points, its repeat
_PLAYS = rf"{_WRITTEN_PLAY}(?:[ \t]+{_WRITTEN_PLAY})*"
_ROLLED = r"[1-6]-?[1-6]:"
_GROUP = r">[ \t]*[1-6](?:-?[1-6])?:"
_ORDERS: Final = (
    re.compile(rf"(?P<roll>{_ROLLED})[ \t]*(?P<group>{_GROUP})[ \t]*(?P<first>{_PLAYS})"),
    re.compile(rf"(?P<roll>{_ROLLED})[ \t]*(?P<last>{_PLAYS})[ \t]*(?P<group>{_GROUP})(?![ \t]*[0-9])"),
    re.compile(
        rf"(?P<plays>{_PLAYS})[ \t]+(?P<roll>{_ROLLED})(?:[ \t]*(?P<group>{_GROUP})[ \t]*(?P<left>{_PLAYS}))?(?![ \t]*(?:[0-9]{{1,2}}/|--))"
    ),
)
_MISORDERED: Final = re.compile(
    r"(?<![0-9A-Za-z/:>-])(?:"
    + "|".join(f"(?:{re.sub(r'[?]P<[a-z]+>', '', order.pattern)})" for order in _ORDERS)
    + ")"
)
_LAST_ROLL: Final = re.compile(rf"(?s:.*)({_ROLLED}[ \t]*(?:{_PLAYS})?)[ \t]*\Z")  # a roll and its plays, ending a text
_BEFORE: Final = 128  # how far before a place a turn written in another order may begin
_BREAK = r"(?:[ \t]*\r?\n[ \t]*|[ \t]+)"  # blanks, or a line break and the blanks about it
# a roll, or a > group's dice, and its plays, as written (on two lines too): the points of a play in one or two
# digits, on the board or off it
_WRITTEN_TURN: Final = re.compile(
    rf"(?<![0-9A-Za-z/:>-])({_ROLLED}|{_GROUP}){_BREAK}({_WRITTEN_PLAY}(?:{_BREAK}{_WRITTEN_PLAY})*)"
)
_POINT: Final = re.compile(r"[0-9]{1,2}|off")  # a point of a play as written
_LINE_BREAK: Final = re.compile(r"[ \t\r]*\n[ \t]*")  # a turn's line break, and the blanks about it


def turn_distance(written: str, legal: str) -> int:
    """Dice misread (1 a pip), plays that differ (1 when they share a point or fit the
    other die, 2 otherwise), a play or a > group missing or extra (1)."""
    a, b = parse_turn(written), parse_turn(legal)
    cost = _dice_distance(a.roll, b.roll) + _plays_distance(a.plays, b.plays)
    if (a.leftover is None) != (b.leftover is None):
        cost += 1
    elif a.leftover and b.leftover:
        cost += _dice_distance(a.leftover[0], b.leftover[0]) + _plays_distance(a.leftover[1], b.leftover[1])
    return cost


def forward(turn: str) -> str:
    """The turn with each play written the wrong way round, from the higher point (`11/5`), turned
    forward (`5/11`)."""
    return _PLAY.sub(lambda play: play[0] if _point(play[1]) < _point(play[2]) else f"{play[2]}/{play[1]}", turn)


def mended_turn(word: str) -> str:
    """A roll without its colon (`53`, `5-3`, `>3`), or with a dash for it (`53-`, `53–`): `53:`, `5-3:`, `>3:`; a roll left out (`5/11 5/9`, `5-11 5-9`),
    or a die of it the source does not show (`6?: 5/11 5/9`) or shows as no die can (`71: 5/11 5/6`): the roll
    the plays show (`_rolled`, `_read_roll`); its dice parted by a comma
    (`6,3:`, `6/3:`): `6-3:`; a > group's one die without its > (`3: 5/8`), or with it after the dice (`3>:`, `54:>`):
    `>3:`, `>54:`; plays, with their roll,
    their > group's dice or without, written with
    hyphens, as some backgammon books write them (`63: 5-11 1-4`): `63: 5/11 1/4`, or otherwise
    (`_mended_plays`); nothing played written otherwise than `--` (`63: pass`, `63: -`, `63: —`,
    `63: ———`, `63: - -`): `63: --`."""
    if _BARE_ROLL.fullmatch(word):
        return word + ":"
    if _DASHED_ROLL.fullmatch(word):
        return word[:-1] + ":"
    if _LEFTOVER_DIE.fullmatch(word):
        return ">" + word
    if _GROUP_BEHIND.fullmatch(word):
        return ">" + word.replace(">", "")
    roll, colon, plays = word.partition(":")
    roll = _PARTED_DICE.sub(r"\1-\2", roll)
    if not colon:  # (`5/11 5 /9`: its slashes joined before its roll is read)
        return _rolled(_SPACED_SLASH.sub("/", word).replace("-", "/")) or _mended_plays(word)
    if UNREAD_ROLL.fullmatch(roll + colon):
        return _read_roll(roll, plays)
    if written_pass := _PASS.fullmatch(plays):
        return roll + colon + (written_pass[1] or " ") + "--"
    return roll + colon + _mended_plays(plays)


def reordered_turns(text: str, position: int) -> list[tuple[int, int, str]]:
    """The turns written in another order (`_ORDERS`) that hold `position` of `text`, each where it
    begins and ends and as the notation orders it (`_reordered`), the one that begins first first; none
    begins after a roll, or among the plays of a roll whose dice they leave unplayed (`44: 1/5 1/5 9/14
    53:`: the turn is `9/14 53:`, not `1/5 9/14 53:`)."""
    turns = []
    for start in range(max(0, position - _BEFORE), position + 1):
        written = _MISORDERED.match(text, start)
        if written is None or written.end() <= position or (meant := _reordered(written[0])) is None:
            continue
        before = _LAST_ROLL.match(text, max(0, start - _BEFORE), start)
        if before is None or dice_all_played(before[1]):
            turns.append((start, written.end(), meant))
    return turns


def read_points(text: str, position: int) -> list[tuple[int, int, str]]:
    """The turn of `text` holding `position` whose play names a point off the board (`66: 7/13 10/26`,
    `52: 10/32 7/12`, `63: 1/7/40`, a > group's `>3: 6/29`; its plays on the next line too), where one reading of that point (a
    digit changed, left out, or two swapped) is on the board and moves, with the points beside it in its
    play, dice of the roll its other plays leave (`66: 7/13 10/16`, `52: 10/12 7/12`, `63: 1/7/10`): where
    it begins and ends and as read, on one line; none where no reading, or more than one, fits."""
    for start in range(max(0, position - _BEFORE), position + 1):
        turn = _WRITTEN_TURN.match(text, start)
        plays = _own_plays(turn[1], turn[2]) if turn is not None else ""
        if turn is not None and turn.start(2) + len(plays) > position:
            read = _points_read(turn[1], plays)
            written = f"{turn[1]}{text[turn.end(1) : turn.start(2)]}{read}"
            return [(turn.start(), turn.start(2) + len(plays), _LINE_BREAK.sub(" ", written))] if read else []
    return []


def _own_plays(roll: str, plays: str) -> str:
    """`plays` up to the first line break after which they have made a step for each die of `roll`: the next
    line's are the next ply's (`63: 1/7 7/40`⏎`5/11 5/9`, a ply whose roll is left out)."""
    for line_break in _LINE_BREAK.finditer(plays):
        before = _ONE_PLAY.finditer(plays, 0, line_break.start())
        steps = sum((len(_POINT.findall(play[1])) - 1) * _point(play[2] or "1") for play in before)  # (`3/6(2)`: two)
        if steps >= len(_dice(roll)):
            return plays[: line_break.start()]
    return plays


def _points_read(roll: str, plays: str) -> str | None:
    """The plays of `roll` (`read_points`) with the one reading of their point off the board whose steps,
    to it and from it (on to `off` too), move dice the other plays leave, a bear-off its exact die; None
    unless exactly one fits."""
    chains = [(_point(play[2] or "1"), list(_POINT.finditer(play[1]))) for play in _ONE_PLAY.finditer(plays)]
    left = [checked_number(die, 1, 6) for die in _dice(roll)]
    for times, points in chains:  # (`3/6(2)`: each step twice)
        for first, second in zip(points, points[1:]):
            step = _pips(second[0]) - _pips(first[0])
            for _ in range(times):
                if _pips(first[0]) and _pips(second[0]) and step in left:
                    left.remove(step)
    readings = set()
    for play, (times, points) in zip(_ONE_PLAY.finditer(plays), chains):
        for index, point in enumerate(points):
            beside = points[max(0, index - 1) : index] + points[index + 1 : index + 2]
            if point[0] == "off" or _on_board(point[0]) or not all(_pips(other[0]) for other in beside):
                continue
            for reading in _misreadings(point[0]) - _NEVER_USED:  # (h76b: `17/28` read `17/23`, which breaks Q4)
                steps = [(reading - _pips(other[0])) * (1 if other.start() < point.start() else -1) for other in beside]
                if _fits(steps * times, left):
                    at = play.start(1)
                    readings.add(f"{plays[: at + point.start()]}{reading}{plays[at + point.end() :]}")
    return readings.pop() if len(readings) == 1 else None


_NEVER_USED: Final = frozenset(range(LAST + 1, OFF))  # points 19-24, which no checker enters (Q4): no reading


def _fits(steps: list[int], dice: list[int]) -> bool:
    """Whether each of `steps` moves a die of `dice`, each die once."""
    left = list(dice)
    for step in steps:
        if step not in left:
            return False
        left.remove(step)
    return True


def _on_board(written: str) -> int:
    """A point as a play writes it when it is one of the board's (1-24), else 0 (`26`, `0`, `off`)."""
    point = _point(written) if written.isdigit() else 0
    return point if 1 <= point < OFF else 0


def _pips(written: str) -> int:
    """A point of a play as its steps count: one of the board's (`_on_board`), or EDGE for `off` (bearing off
    from p takes EDGE - p, Q7: `18/off` a 1); else 0."""
    return EDGE if written == "off" else _on_board(written)


def _misreadings(written: str) -> set[int]:
    """The points on the board that `written` (two digits off it: `26`) may be a slip for: a digit
    changed (`16`), left out (`2`, `6`), or the two swapped."""
    digits = "0123456789"
    read = {written[:at] + digit + written[at + 1 :] for at in range(len(written)) for digit in digits}
    read |= {written[:at] + written[at + 1 :] for at in range(len(written))} | {written[::-1]}
    return {_point(text) for text in read if text and 1 <= _point(text) < OFF}


def _reordered(word: str) -> str | None:
    """A turn written in another order (`MISORDERED`), as the notation orders it: its roll, the
    roll's plays, then the > group's dice and their plays, the group's plays being the first or the
    last written, as many as its dice (`66: 9/15 >6: 3/9`); None for any other word, or where the
    roll is left no play."""
    for order in _ORDERS:
        if written := order.fullmatch(word):
            break
    else:
        return None
    parts = written.groupdict()
    if parts.get("plays"):  # (the plays of its roll's dice alone, which a match from a later word finds)
        played = parts["plays"].split()
        if _covering(played[::-1], len(_dice(parts["roll"]))) < len(played):
            return None
        return " ".join(part for part in (parts["roll"], parts["plays"], parts["group"], parts["left"]) if part)
    group = re.sub(r"[ \t]+", "", parts["group"])
    plays = (parts.get("first") or parts["last"]).split()
    first = bool(parts.get("first"))
    taken = _covering(plays if first else plays[::-1], len(_dice(group)))
    theirs = plays[:taken] if first else plays[len(plays) - taken :]
    rolled = plays[taken:] if first else plays[: len(plays) - taken]
    if not rolled:
        return None
    return f"{parts['roll']} {' '.join(rolled)} {group} {' '.join(theirs)}"


def _dice(written: str) -> list[str]:
    """The dice a roll or a > group writes (`66:`, `>6:`)."""
    return re.findall("[1-6]", written)


def _covering(plays: list[str], dice: int) -> int:
    """How many of `plays`, from the first, play `dice` dice, a step a die."""
    steps = 0
    for count, play in enumerate(plays, 1):
        points, _, repeat = play.partition("(")
        steps += (len(points.split("/")) - 1) * (checked_number(repeat[0], 2, 9) if repeat else 1)
        if steps >= dice:
            return count
    return len(plays)


def _mended_plays(plays: str) -> str:
    """Plays parted by commas (`5/11, 5/9`), written with hyphens (`5-11`), with blanks about their slashes
    (`5 /11`) or borne off to `OFF` or `0` (`14/OFF`, `14/0`), written as the notation has them: `5/11 5/9`,
    `14/off`."""
    plays = _COMMA_BEFORE_PLAY.sub(" ", _SPACED_SLASH.sub("/", plays)).replace(",", "")
    mended = (_BEARING_OFF.sub(r"\1off", play) for play in _SPACED.split(plays))
    return "".join(play.replace("-", "/") if _DASHED_PLAY.fullmatch(play) else play for play in mended)


def _rolled(plays: str) -> str | None:
    """Plays written without their roll (`5/11 5/9`), after the roll they show (`64: 5/11 5/9`); None
    unless they play two dice."""
    dice = shown_dice(plays)
    return f"{dice[0]}{dice[1]}: {plays}" if dice else None


def _read_roll(roll: str, plays: str) -> str:
    """A roll with dice the source does not show (`6?`, `??`), or shows as no die can (`71`), and its
    plays: the roll the plays show in its place, when they show two dice (`64: 5/11 5/9`), whatever
    die is written (`5?: 1/7 2/8`: `66:`, the plays being what the source shows played); else as written."""
    plays = _mended_plays(plays)
    dice = shown_dice(plays.strip())
    return f"{roll}:{plays}" if dice is None else f"{dice[0]}{dice[1]}:{plays}"


def played(word: str) -> bool:
    """Whether `word` is a play, as a turn writes it (`6/12`, `1/7/10`, `3/6(2)`, `14/off`)."""
    return _ONE_PLAY.fullmatch(word) is not None


def dice_all_played(ply: str) -> bool:
    """Whether the plays of `ply` (`64: 5/11 5/9`) play every die of its roll, or of its > group
    when it has one (one checker may play both: `63: 1/10`), so that no play after it is its."""
    dice_text, _, plays = ply.rpartition(">")[2].partition(":")
    dice = [whole_number(die, 1, 6) or 0 for die in re.findall("[1-6]", dice_text)]
    if not dice or not plays.split() or not all(map(played, plays.split())):
        return False
    used = 0
    for play in plays.split():
        points, _, repeat = play.partition("(")
        stops = points.split("/")
        step = _point(stops[1]) - _point(stops[0]) if len(stops) == 2 and "off" not in stops else 0
        merged = step == sum(dice)  # one checker, both dice (no one die moves their sum)
        used += (2 if merged else len(stops) - 1) * (checked_number(repeat[0], 2, 9) if repeat else 1)
    return used >= len(dice)


def shown_dice(plays: str) -> tuple[int, int] | None:
    """The roll that plays show, each step of a play a die, the higher first (`5/11 5/9`: 6 and 4);
    None unless they show two dice (a bear-off, whose die may exceed its step, shows none)."""
    if not _UNROLLED.fullmatch(plays):
        return None
    dice = []
    for play in plays.split():
        points, _, repeat = play.partition("(")
        steps = [_point(point) for point in points.split("/")]
        dice += [end - start for start, end in zip(steps, steps[1:])] * (
            checked_number(repeat[0], 2, 9) if repeat else 1
        )
    if len(dice) != 2 or not all(1 <= die <= 6 for die in dice):
        return None
    return max(dice), min(dice)


def _point(written: str) -> int:
    """A point as a play writes it, in one or two digits (the patterns' `[0-9]{1,2}`)."""
    return checked_number(written, 0, 99)


def _dice_distance(a: tuple[int, ...], b: tuple[int, ...]) -> int:
    if len(a) != len(b):
        return 2
    return sum(abs(x - y) for x, y in zip(sorted(a), sorted(b)))


def _segments(plays: tuple[Written, ...]) -> list[tuple[int, int]]:
    return [
        pair for written in plays for _ in range(written.repeat) for pair in zip(written.points, written.points[1:])
    ]


def _plays_distance(written: tuple[Written, ...], legal: tuple[Written, ...]) -> int:
    """The cheapest pairing of the written segments with the legal ones (a legal turn has four at most, so every
    pairing is tried, of each one's four nearest alone: review82, 4,000 plays written took minutes); a segment left
    over costs 1."""
    a, b = _segments(written), _segments(legal)
    b = _merge(a, b)
    if len(a) > len(b):
        a, b = b, a
    return (
        min(sum(_segment_distance(x, y) for x, y in zip(a, chosen)) for chosen in permutations(_nearest(a, b), len(a)))
        + len(b)
        - len(a)
    )


def _nearest(few: list[tuple[int, int]], many: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The segments of `many` among the len(few) nearest to one of `few`: a cheapest pairing of `few` with
    `many` pairs each with one of them (of those nearest to it, one at least is not another's)."""
    near = {
        index
        for segment in few
        for index in heapq.nsmallest(len(few), range(len(many)), key=lambda j: _segment_distance(segment, many[j]))
    }
    return [many[index] for index in near]


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
    """0 alike; 1 when they share a point or one is the other written the wrong way round (`11/5`
    for `5/11`); 2 otherwise."""
    return 0 if x == y else 1 if x[0] == y[0] or x[1] == y[1] or x == y[::-1] else 2
