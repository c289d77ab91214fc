"""The OTN writer (`lusoria convert --to otn`): a record as an OpenTafl game, its tags, a rules
record for its options (with lusoria's own Variant and Rules alongside, for what OTN cannot say), and
its moves with their comments and variations at OpenTafl's addresses."""

from __future__ import annotations

import functools
import re
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from itertools import groupby
from typing import cast
from urllib.parse import quote

from lusoria.errors import Refused
from lusoria.formats.otn import (
    BERSERK,
    CARRIED,
    DESCRIBED,
    OWN,
    REPETITION,
    REPETITION_ENTRY,
    RESULTS,
    RULES_NAME,
    RULES_NAME_ENTRY,
    SQUARE,
    TAGS,
    TURN_LETTERS,
    WRITER_NOTE,
    read_otn,
    tag_name,
    writer_notes,
)
from lusoria.formats.otn_rules import written_name
from lusoria.notation.model import Line, Ply, Record
from lusoria.notation.reader import MAX_TOKEN
from lusoria.notation.visitor import PlyKey, Visitor, walk
from lusoria.notation.writer import unknown
from lusoria.validator.base import Game
from lusoria.validator.games import game_class
from lusoria.validator.replay import Report, check
from lusoria.validator.tafl import TaflGame
from lusoria.validator.tafl_board import EMPTY, KING, LETTERS, MERCENARIES, SOLDIERS, Geometry, TaflPosition
from lusoria.validator.tafl_rules import described_record

_PLAIN_VALUE = re.compile(r"[^\]\r\n]*")  # what an OTN tag's value holds as it is (a CR would become a line end)
_CLOCK = re.compile(r"\s*([0-9]+)(\s[0-9]+/[0-9]+)?(\s[0-9]+i)?", re.ASCII)  # a clock as OpenTafl writes `time-control`
# and each side's `time-remaining` and reads them (GameClock.TIME_SPEC_REGEX: `300 30/3 0i`)
_CLOCK_DIGITS = (15, 15, 9)  # the most digits of its main time and overtime, which it reads into a Java long and
# multiplies by 1000, and of its overtime count, an int (more: an exception or a clock overflowed, review77b; the
# increment it writes, but never reads)
MAX_DEPTH = 32  # variations one inside another that `_write_otn` writes: each turn's address grows with the depth


def write_report(report: Report) -> str:
    """A replayed record as an OTN game (the format's writer): ValueError for a game OTN does not hold."""
    if not isinstance(report.rules, TaflGame) or report.record is None:
        raise Refused(_not_tafl(report.game))
    if report.passed:  # (OpenTafl would read the plies after it as the other side's)
        main = sorted(index for line, index in report.passed if line == 0)
        where = f"before {report.move(main[0] + 1)}" if main else "in a variation"
        raise Refused(f"{_NO_PASS}, and the record leaves one out {where}")
    kept = {0: report.positions, **report.variation_positions}
    return _write_otn(report.record, report.rules, report.canonical, cast(dict[int, list[TaflPosition]], kept))


def refusal(report: Report) -> str | None:
    """Why OTN cannot hold a record, valid or not (the format's `cannot_write`): its game is not a tafl
    game. None for a tafl game, and for a game lusoria does not know (its record is invalid)."""
    try:
        game = type(report.rules) if report.rules else game_class(report.game or "")
    except KeyError:
        return None
    return None if issubclass(game, TaflGame) else _not_tafl(report.game)


def _not_tafl(game: str | None) -> str:
    return f"OTN holds tafl games, not {game}"


def loss(report: Report) -> str | None:
    """What a record written as OTN loses where it is read without lusoria's own tags (as OpenTafl
    reads it), as a note says it (the format's `loses`): the options of its rules that its rules
    record does not say (`_options_lost`), the side to move at its Position (`_side_lost`), what OpenTafl
    plays otherwise under the rules record (`_played_otherwise`) and a repetition it ends the game at
    (`_repetition_lost`), and its NAGs, which OTN does not hold (`_nags_lost`), joined. None when it loses
    nothing, and for a record OTN does not hold."""
    rules = report.rules
    if not isinstance(rules, TaflGame) or report.record is None:
        return None
    lost = (
        _options_lost(report.record, rules),
        _side_lost(report, rules),
        _played_otherwise(rules),
        _repetition_lost(report, _record_rules(report.record.tags, rules)),
        _nags_lost(report.record),
    )
    return "; and ".join(filter(None, lost)) or None


class _Nags(Visitor):
    """Whether a record holds a NAG, in its main line or a variation."""

    def __init__(self) -> None:
        self.found = False

    def visit_nag(self, nag: int) -> None:
        self.found = True


def _nags_lost(record: Record) -> str | None:
    """That the record's NAGs (`!`, `?!`, `$14`) are not written, OTN holding none, not even for lusoria to read
    back (h79a: they were dropped unsaid); None for a record of none. The same words for every such record, said
    once for them all (as `_repetition_lost`)."""
    nags = _Nags()
    walk(record, nags)
    return (
        "OTN holds no NAG (`!`, `?!`, `$14`), not even for lusoria to read back: they are not written"
        if nags.found
        else None
    )


def _options_lost(record: Record, rules: TaflGame) -> str | None:
    """The options of a record's rules that its rules record does not say (camps=ashton: neither OTN nor
    lusoria has a key for them). None when the rules record alone reads back as the rules the record plays
    by (or as a built-in game of those rules: the reader's choice); read back as a built-in game of other
    rules (a Fetlar Hnefatafl record as Copenhagen), that game."""
    read = _read_alone(_record_rules(record.tags, rules))
    if not isinstance(read, TaflGame) or _played(read) == _played(rules):
        return None
    if type(read) is not type(rules):  # (the options of two games are not each other's to compare)
        return (
            f"OTN's rules record reads back alone as {read.title}, which plays otherwise: lusoria reads the "
            f"rules back from its own tags ({OWN_TAGS}), and the record without them as {read.title}"
        )
    lost = ", ".join(f"{key}={value}" for key, value in rules.option.items() if read.option.get(key) != value)
    return (
        f"OTN's rules record does not say {lost}: lusoria reads them back from its own tags ({OWN_TAGS}), "
        "but OpenTafl, or any program that reads OTN alone, plays the game without them"
    )


def _side_lost(report: Report, rules: TaflGame) -> str | None:
    """That the side to move at a record's Position is not its game's first mover, which is all OTN says
    (`atkf`): its first move is then read as the other side's. None for a record that starts otherwise."""
    first = rules.turn(rules.initial())
    if (
        rules.turn(cast(TaflPosition, report.positions[0])) == first
    ):  # (a record written is valid: replayed from its start)
        return None
    return (
        f"OTN says that the {rules.sides[first]} move first, not that the {rules.sides[1 - first]} are to move at "
        "the record's Position: lusoria reads that back from its own tags ([lusoria-position:…]), but OpenTafl, "
        f"or any program that reads OTN alone, plays the first move as the {rules.sides[first]}'"
    )


def _played_otherwise(rules: TaflGame) -> str | None:
    """What OpenTafl plays otherwise under the rules record written for `rules`, as the file's start-comment
    says it (`writer_notes`: h71b, a Tyr game that OpenTafl stops replaying was written without a word); None
    when nothing."""
    said = [note.removeprefix(WRITER_NOTE) for note in writer_notes(rules)]
    return f"as the file's start-comment says: {'; '.join(said)}" if said else None


def _repetition_lost(report: Report, record: str) -> str | None:
    """That OpenTafl ends the game drawn where its main line brings a position back the third time, under
    the rules record `record` of `tfr:i` (repetition not checked), which OpenTafl writes but reads as `tfr:d`
    (RulesSerializer.getThreefoldResultForString); None for another record, or a game that never does (h71b:
    20 of aagenielsen.dk's games written so were drawn in OpenTafl, then won). The same words for every such
    record, said once for them all (review71: naming each one's ply, a note of 700 characters came again for each)."""
    if "tfr:i" not in record.split():
        return None
    seen: Counter[TaflPosition] = Counter()
    for position in cast(list[TaflPosition], report.positions):  # (a position that remembers others is equal to
        # the plain one: its board and side to move, as OpenTafl's hash counts them)
        seen[position] += 1
        if seen[position] == 3:
            return (
                "OpenTafl reads tfr:i, repetition not checked, as tfr:d, and ends a game drawn when its main line "
                "brings a position back the third time, as this record's does"
            )
    return None


_NO_PASS = "a pass (--) has no OTN move record"
OWN_TAGS = "[lusoria-variant:…], [lusoria-rules:…]"  # where lusoria writes what OTN's rules record cannot say


@functools.lru_cache(maxsize=64)  # (once a run for the records of one game's rules)
def _read_alone(rules: str) -> Game | None:
    """The rules of an OTN game of nothing but the rules record `rules`, as lusoria reads it."""
    return check(next(read_otn(f"[rules:{rules}]\n\n", "", None))).rules


_NAMING = ("geo", "ids", "said", "words", "throne_words")  # a game's settings that name, not play


def _played(rules: TaflGame) -> tuple[object, ...]:
    """The settings a tafl game plays by, but those that name its squares and rules in messages."""
    return tuple(value for field, value in rules.settings._asdict().items() if field not in _NAMING)


def _record_rules(tags: Mapping[str, str], rules: TaflGame) -> str:
    """The OTN rules record that a record of `tags` (its Position, OtnRulesName, OtnRepetition) is written with."""
    start = tags.get("Position") or rules.format_position(rules.initial())
    name = tags.get(RULES_NAME) or written_name(rules)
    return _rules_record(rules, start.split()[0], name, tags.get(REPETITION, ""))


def _write_otn(
    record: Record, rules: TaflGame, canonical: Mapping[PlyKey, str], positions: Mapping[int, Sequence[TaflPosition]]
) -> str:
    """A record as an OTN game: its tags, a rules record for its options (with lusoria's own
    Variant and Rules alongside, for what OTN cannot say), and its moves with their comments
    and variations (OpenTafl's addresses). `positions`: each line's, by its number in the record
    (0: the main line), the position before its first ply first, as its replay kept them
    (`Report.positions`, `Report.variation_positions`): where left-out berserk continuations (G16)
    were found, a ply is written from the line found, not from the plies as written; a ply
    without a position kept (past an illegal ply) is written from its text alone."""
    tags = record.tags
    lines = _tag_lines(tags)
    lines.append(f"[result:{ {v: k for k, v in RESULTS.items()}[record.result] }]")
    for key, name in OWN.items():
        if name in tags or name == "Rules":
            lines.append(f"[{key}:{tags.get(name, '')}]")
    if rules.described:
        lines.append(f"[{DESCRIBED}:{rules.name}]")
    lines.append(f"[rules:{_record_rules(tags, rules)}]")
    said = writer_notes(rules)
    if record.main.comments or said:
        lines.append(_start_comment([*record.main.comments, *said]))
    lines.append("")
    texts = _Texts(rules.geo, canonical, positions)
    walk(record, texts)
    parts: list[Iterator[str | Iterator]] = [_turns(record.main, (), 0, texts.of)]
    while parts:  # a stack of lines being written, so that nesting depth costs no recursion
        part = next(parts[-1], None)
        if part is None:
            parts.pop()
        elif isinstance(part, str):
            lines.append(part)
        else:
            parts.append(part)
    return "\n".join(lines) + "\n"


def _start_comment(comments: Sequence[str]) -> str:
    """The `[start-comment:…]` of the comments before the first ply (a reader's notes among them):
    a paragraph each, a blank line between them, as OpenTafl's annotation dialog writes them and
    shows them; its blanks one space, as read back (a blank line would part it in two), a `]`
    written `)` (the tag ends at its first), and a line ended after a `1.` that a blank follows
    (OpenTafl's moves start at the file's first `1. `, in a tag or not), a `[` after it or at a
    paragraph's start written `(` (a line of a tag's value that starts with `[` is read as the next tag)."""
    paragraphs = (
        re.sub(r"^\[", "(", " ".join(comment.split()))
        .replace("]", ")")
        .replace(_FIRST_TURN + "[", _FIRST_TURN + "(")
        .replace(_FIRST_TURN, _FIRST_TURN.rstrip() + "\n")
        for comment in comments
    )
    return "[start-comment:" + "\n\n".join(paragraphs) + "]"


_FIRST_TURN = "1. "  # where OpenTafl starts reading moves (GameSerializer.parseMoves), wherever it is


def _tag_lines(tags: Mapping[str, str]) -> list[str]:
    """The record's tags (but those written otherwise: Game, Result, lusoria's own) as OTN tags:
    each as `[key:value]` when it reads back as it is, the others in one `[lusoria-tags:…]`.
    ValueError when that tag is longer than a token lusoria reads (MAX_TOKEN)."""
    lines, carried, keys = [], {}, set()
    for name, value in tags.items():
        if name in ("Game", "Result", *OWN.values()) or unknown(name, value) or _in_rules(name, value):
            continue
        key = _otn_key(name)
        if (
            tag_name(key) == name
            and key.lower() not in keys
            and _PLAIN_VALUE.fullmatch(value)
            and _FIRST_TURN not in value
            and value == value.strip()
            and _clock_read(name, value)
        ):
            lines.append(f"[{key}:{value}]")
            keys.add(key.lower())
        else:
            carried[name] = f"{quote(name, safe='')}={quote(value, safe='')}"
    if carried:
        lines.append(f"[{CARRIED}:{' '.join(carried.values())}]")
        if len(lines[-1]) > MAX_TOKEN:
            raise Refused(
                f"the tags OTN cannot hold as they are ({', '.join(carried)}), percent-encoded in "
                f"[{CARRIED}:…], make {len(lines[-1]):,} characters: more than a token lusoria reads "
                f"({MAX_TOKEN:,})"
            )
    return lines


def _clock_read(name: str, value: str) -> bool:
    """Whether OpenTafl reads a clock tag's value (every file it opens: `Game.loadClock`), where it reads it:
    `TimeControl`, and `TimeRemaining` as the attackers' and the defenders' clocks; a value it does not read
    (PGN's `-`, `G/30`) made it refuse the file (h77b), and is carried."""
    if name == "TimeControl":
        return _clock(value)
    if name == "TimeRemaining":
        sides = value.split(",")
        return len(sides) > 1 and all(_clock(side) for side in sides[:2])
    return True


def _clock(value: str) -> bool:
    """Whether OpenTafl reads `value` as the clock it says: the whole of it as `_CLOCK` (it reads a value's start:
    `40/9000:300` as 40 seconds, review77), each number in a Java long or int."""
    found = _CLOCK.fullmatch(value)
    numbers = re.findall("[0-9]+", "".join(found.groups("")) if found else "")
    return found is not None and all(len(number) <= most for number, most in zip(numbers, _CLOCK_DIGITS))


def _otn_key(name: str) -> str:
    """The OTN tag that a lusoria tag is written as: OTN's own name (`White` → `defenders`), else
    its words in lower case joined by hyphens (`TimeControl` → `time-control`, as OpenTafl writes
    `[compiler:…]`) when `tag_name` reads that back as the tag, else the tag's name."""
    key = next((key for key, tag in TAGS.items() if tag == name), None)
    hyphenated = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "-", name).lower()
    return key or (hyphenated if tag_name(hyphenated) == name else name)


class _Texts(Visitor):
    """Each ply's OTN move record (`_otn_move`), from its canonical text when known (the captures
    the rules make written out), else as written, and the position its line's replay kept before
    it (none past a ply the rules refuse: that ply and the rest of its line are written from their
    texts alone)."""

    def __init__(
        self, geo: Geometry, canonical: Mapping[PlyKey, str], positions: Mapping[int, Sequence[TaflPosition]]
    ) -> None:
        self.geo, self.canonical, self.positions = geo, canonical, positions
        self.texts: dict[int, str] = {}

    def visit_ply(self, ply: Ply, number: int, key: PlyKey) -> None:
        line, index = key
        kept = self.positions.get(line, ())
        position = kept[index] if index < len(kept) else None
        self.texts[id(ply)] = _otn_move(self.canonical.get(key, ply.text), ply.text.startswith("K"), self.geo, position)

    def of(self, ply: Ply) -> str:
        return self.texts[id(ply)]


def _turns(
    line: Line,
    variation: tuple[str, ...],
    first: int,
    canonical: Callable[[Ply], str],
    padding: int = 0,
) -> Iterator[str | Iterator]:
    """The turns of a line whose first ply is half-move `first` (0 = the record's first; a berserk
    move shares its side's half-move), each with its comment line and then, as iterators to write
    in turn, the variations of its plies. `variation` is the line's address (() for the main
    line), `padding` the moves of its first turn before its first ply (`.....`). A turn is the
    first mover's move and the reply, each with its berserk moves (`12c`: turn 12's third). A
    resignation is said by the header's tags alone (`[result:…]`, as OpenTafl writes one, and
    `[termination:resignation]`): OpenTafl's reader takes no `---` (h71b: no resigned game lusoria wrote opened)."""
    if len(variation) > 2 * MAX_DEPTH:
        raise Refused(
            f"variations nested more than {MAX_DEPTH} deep: OTN writes each turn with its whole address "
            "(3b.1.1a.…), which grows with the depth"
        )
    numbered = _Numbered(line, variation, first, canonical, padding)
    for turn, group in groupby(range(len(line.plies)), key=numbered.turns.__getitem__):
        indexes = list(group)
        yield numbered.moves(turn, indexes)
        comments = numbered.comments(indexes)
        if comments:
            yield comments
        yield from numbered.variations(indexes)


class _Numbered:
    """A line's plies placed in OTN's turns (`_turns`): each one's half-move (`_halves`), turn and
    place in its turn (its slot, 0: `a`; the first's is `padding`), from the line's first ply's
    half-move `first`, the line's address `variation` and each ply's OTN text (`canonical`)."""

    def __init__(
        self, line: Line, variation: tuple[str, ...], first: int, canonical: Callable[[Ply], str], padding: int
    ) -> None:
        self.line, self.variation, self.first, self.canonical = line, variation, first, canonical
        self.start = first - first % 2
        self.halves = _halves(line, canonical)
        self.turns = [(first + half - self.start) // 2 + 1 for half in self.halves]
        self.slots: list[int] = []
        for index, turn in enumerate(self.turns):
            self.slots.append(padding if index == 0 else self.slots[-1] + 1 if self.turns[index - 1] == turn else 0)

    def moves(self, turn: int, indexes: list[int]) -> str:
        """The line of `turn`, whose plies are at `indexes`: its label (a variation's with its
        address and the moves before its first ply, `.....`) and their moves."""
        words = [self.canonical(self.line.plies[index]) for index in indexes]
        padded = self.slots[indexes[0]]
        variation = self.variation
        label = ".".join((*variation, f"{turn}a")) + ". " + "..... " * padded if variation else f"{turn}. "
        return label + " ".join(words)

    def comments(self, indexes: list[int]) -> str | None:
        """The comment line of the plies at `indexes` (a variation's comments with its first ply's),
        one part a ply; None when none has a comment."""
        comments = [
            " ".join((self.line.comments if index == 0 and self.variation else []) + self.line.plies[index].comments)
            for index in indexes
        ]
        if not any(comments):
            return None
        return "[" + "|".join(comment.replace("|", "/").replace("]", ")") for comment in comments) + "]"

    def variations(self, indexes: list[int]) -> Iterator[Iterator[str | Iterator]]:
        """The turns (`_turns`) of the variations of the plies at `indexes`, each addressed from the
        ply before the one it replaces (a variation's first ply: written with the variation's own
        alternatives, `_alternatives`)."""
        for index in indexes:
            if self.variation and index == 0:
                continue
            branch = self.address(index - 1 if self.variation else index)
            for number, alternative in enumerate(_alternatives(self.line.plies[index]), 1):
                first = self.first + self.halves[index]
                yield _turns(alternative, (*branch, str(number)), first, self.canonical, padding=self.slots[index])

    def address(self, index: int) -> tuple[str, ...]:
        """The OTN address of the ply at `index` (`3b`, after the line's own)."""
        if self.slots[index] >= len(TURN_LETTERS):
            raise Refused(f"a turn of more than {len(TURN_LETTERS)} moves has no OTN address")
        return (*self.variation, f"{self.turns[index]}{TURN_LETTERS[self.slots[index]]}")


def _halves(line: Line, canonical: Callable[[Ply], str]) -> list[int]:
    """Each ply's half-move in its line: a berserk move (`d3=f3`, G15) is its side's move again."""
    halves, half = [], -1
    for ply in line.plies:
        half += not BERSERK.search(canonical(ply)) or half < 0
        halves.append(half)
    return halves


def _alternatives(ply: Ply) -> Iterator[Line]:
    """The variations of a ply, each followed by those of its first ply: OpenTafl addresses a
    variation from the ply before the one it replaces, so a variation of a variation's first
    ply is written as what it also is, another alternative to the same ply."""
    pending = list(reversed(ply.variations))
    while pending:
        line = pending.pop()
        yield line
        pending.extend(reversed(line.plies[0].variations))


_LGN_MOVE = re.compile(
    r"K?(?P<origin>[a-s]\d+)(?P<kind>[-=])(?P<target>[a-s]\d+)(?:x(?P<captures>[^+]+))?\+*"
)  # a tafl ply as lusoria writes it (the game's grammar has accepted it)


def _otn_move(text: str, king_written: bool, geo: Geometry, position: TaflPosition | None) -> str:
    """A ply as OpenTafl writes it (`MoveSerializer.getMoveRecord`): the letter of a knight or
    commander (`N`, `c`…) that moves or is captured (not a mercenary's, `M`, which OpenTafl writes but its
    reader refuses, `MoveSerializer.getMoveRegex`: it finds the piece on the board), `^` for a jump over a
    piece (G14), `=` for a berserk move (G15), `^=` for both, a capturing jump's soldier first among its captures;
    the king's letter only where the record wrote it (`king_written`). Without the `position` it
    is played from, its text's own. lusoria's announcements (+, ++) are not OTN's info symbols:
    they are left out."""
    if text == "--":
        raise Refused(_NO_PASS)
    move = _LGN_MOVE.fullmatch(text)
    squares = SQUARE.findall(text)
    if move is None or position is None or not set(squares) <= geo.index.keys():
        return text.rstrip("+")
    board = position.board
    origin, target, *captures = (geo.index[square] for square in squares)
    jumped = [square for square in geo.path(origin, target)[:-1] if board[square]]
    captures.sort(key=lambda square: square not in jumped)  # (a stable sort: the rules' order otherwise)

    def letter(square: int) -> str:
        return LETTERS[board[square]] if board[square] not in (EMPTY, KING, *SOLDIERS, *MERCENARIES) else ""

    mover = "K" if king_written and board[origin] == KING else letter(origin)
    kind = ("^" if jumped else "") + ("=" if move["kind"] == "=" else "" if jumped else "-")
    written = "/".join(letter(square) + geo.names[square] for square in captures)
    return f"{mover}{move['origin']}{kind}{move['target']}" + (f"x{written}" if written else "")


def _otn_board(board: str) -> str:
    rows = board.split("/")
    return "/" + "/".join(row.replace("p", "t").replace("P", "T") for row in reversed(rows)) + "/"


def _rules_record(rules: TaflGame, board: str, name: str = "", repetition: str = "") -> str:
    """The OTN rules record of a tafl game's rules, from its Settings (what `rules_of` reads back as
    them), starting from `board` (the game's start or its Position, which OpenTafl then starts from);
    `name:` after `dim:`, as OpenTafl writes it, when the record has an OtnRulesName of one word;
    `tfr:` as its OtnRepetition says, the repetition a built-in game read without checking it
    (OpenTafl's Copenhagen's `tfr:w`)."""
    record = (
        described_record(rules.settings, by_side=not rules.described).rpartition(" start:")[0]
        + f" start:{_otn_board(board)}"
    )
    if not rules.described and _in_rules(REPETITION, repetition):
        record = re.sub(r"(?<=\s)tfr:\S*", f"tfr:{repetition}", record)
    if _in_rules(RULES_NAME, name):
        size, _, rest = record.partition(" ")
        record = f"{size} name:{name} {rest}"
    return record


def _in_rules(tag: str, value: str) -> bool:
    """Whether a tag is written in the rules record (an OtnRulesName of one word, an OtnRepetition
    of a value lusoria reads), not as a tag."""
    entry = {RULES_NAME: (RULES_NAME_ENTRY, "name"), REPETITION: (REPETITION_ENTRY, "tfr")}.get(tag)
    return entry is not None and entry[0].fullmatch(f"{entry[1]}:{value}") is not None
