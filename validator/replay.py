"""The game-independent replay driver: checks every ply of a record, its
variations, its move numbers, announcements and result, and reports
diagnostics as data."""
# lusoria: compiled with mypyc

from __future__ import annotations

import bisect
import re
import unicodedata
from collections.abc import Collection
from dataclasses import dataclass, field, replace
from functools import lru_cache
from os.path import commonprefix
from typing import NamedTuple, cast

from mypy_extensions import mypyc_attr

from lusoria.bounds import MAX_COUNT
from lusoria.errors import Refused
from lusoria.notation.dates import date_range, date_readings
from lusoria.notation.escapes import EscapeLines
from lusoria.notation.model import Line, Ply, Record
from lusoria.notation.numbers import whole_number
from lusoria.notation.reader import (
    RecordText,
    game_read_in,
    header_of,
    is_ply,
    names_a_game,
    parse_record,
    scan_tags,
    standing_in,
)
from lusoria.notation.slips import RESULTS, Fallback, Fix, mend, mended_tag, results_meant, slip_fixes, tag_meant
from lusoria.notation.sources import BOM, advised, shown_place
from lusoria.notation.syntax import (
    CUT_SHORT,
    GAP_KEPT_APART,
    MISSING_RESULT,
    CutShort,
    MissingResult,
    OffBoard,
    SyntaxProblem,
    TagTwice,
    Undecodable,
    blanked,
    offset_of,
    row_column,
)
from lusoria.notation.visitor import Continued, PlyKey, Visitor, walk
from lusoria.notation.writer import write_record
from lusoria.plugins import FAILS
from lusoria.validator.base import (
    SIDE_NAMES,
    WHITE,
    Claims,
    Game,
    Illegal,
    NotAPly,
    OptionError,
    Outcome,
    Played,
    Position,
    already_over,
    holding_it,
)
from lusoria.validator.diagram import CAPTURED, FROM, REMOVED, TO, Squares
from lusoria.validator.games import (
    GAMES,
    game_class,
    known_games,
    rules_from_tags,
    variant_as_game,
    variant_named,
    with_variant,
)
from lusoria.validator.suggest import LIMIT, alike, did_you_mean, nearest_plies, suggestions
from lusoria.words import CALLER, Reader, listed, plural

ERROR, WARNING = "error", "warning"
_QUOTED = re.compile(r"\?|[.!]\Z")  # a suggestion said in quotes: one with a ?, or ending with a mark a ? joins


@mypyc_attr(native_class=False)  # compiled, a frozen native class could not be unpickled (--jobs)
@dataclass(frozen=True, slots=True)
class Diagnostic:
    """One thing a check found: how bad, the rule it breaks, what it says and where (the ply, from
    1, its text, the line and column in the source), and for an illegal ply the close legal ones."""

    severity: str  # "error" or "warning"
    rule: str  # a rule ID of docs/rules.md (lusoria explain), or syntax, tag, result, number, plug-in
    message: str
    ply: int | None = None
    text: str = ""
    line: int = 0
    column: int = 0
    suggestions: tuple[str, ...] = ()  # close legal plies, for an illegal ply
    assumed: tuple[str, ...] = ()  # plies replaced by their suggestion before this one (--keep-going)
    move: str = ""  # the ply's move and side in the record's numbering ("move 23, Black"), right where the number written is not
    width: int = 0  # the characters its place covers in the source where not its text's (`Ply.width`)
    tries: tuple[str, ...] = ()  # the encodings that may read its record, a byte of which did not decode

    @property
    def span(self) -> int:
        """The characters its place covers in the source (`width`, else its text's first line's),
        as validate's caret and the editor's underline mark it."""
        return self.width or len(self.text.split("\n")[0])

    def meant(self) -> str:
        """What the suggestions are said as: did you mean e3-c3 or e3-d3?, one that holds a ? in
        quotes ('1283.??.??'), as does one that ends with a mark the phrase's ? would join ('2.', 'e3-c3!'):
        `did you mean 2.?` reads as the `2.?` it mends."""
        return did_you_mean(f"'{text}'" if _QUOTED.search(text) else text for text in self.suggestions)

    def advised(self, *, to: Reader = CALLER) -> str:
        """The message, and the encodings to try (`tries`) as `to` can act on them: a library call's
        keyword (`try encoding="latin-1"`), the commands' option, a page's or an editor's words (`advised`)."""
        return advised(self.message, "encoding", self.tries, to=to)

    def with_meant(self, separator: str = "; ", *, to: Reader = CALLER) -> str:
        """The message (`advised`) with what the slip meant when there are suggestions, after `separator` (on
        one line: found '31', expected ...; did you mean 31:?; once: a tag's message may say it already)."""
        if not self.suggestions or self.meant() in self.message:
            return self.advised(to=to)
        return f"{self.advised(to=to)}{separator}{self.meant()}"

    def with_move(self, separator: str = "; ", meant: bool = True, *, to: Reader = CALLER) -> str:
        """Its ply's move where it has one (`move 23, Black: `), its message, and what the slip meant
        after `separator` (`with_meant`; not when `meant` is False: validate shows it under its caret):
        what every command says after `error[T2]: `, and an editor's Problems panel beside the rule."""
        move = f"{self.move}: " if self.move else ""
        return f"{move}{self.with_meant(separator, to=to) if meant else self.advised(to=to)}"

    def said(self, meant: bool = True, *, to: Reader = CALLER) -> str:
        """What it says: `error[T2]: ` and `with_move`, the encodings to try as `to` can act on them (`advised`)."""
        return f"{self.severity}[{self.rule}]: {self.with_move(meant=meant, to=to)}"


@dataclass(slots=True)
class Report:
    """What replaying one record found. Three states: the text does not parse (`record`
    None, its syntax errors first in `diagnostics`, then, when only its result marker is
    missing, what its plies break); it parses but its rules or start position
    cannot be read (no positions; `rules` None when its rules cannot); it was replayed (`rules` set, `positions[0]`
    the start; a record that writes a tag twice or leaves one unclosed too, read without the repeat or closed,
    and by `check(assume_result=True)` one that lacks only its result marker, with their errors: `parsed_from`)."""

    source: RecordText
    record: Record | None = None
    rules: Game | None = None
    diagnostics: list[Diagnostic] = field(default_factory=list)
    positions: list[Position] = field(default_factory=list)  # the main line: start, then after each ply
    variation_positions: dict[int, list[Position]] = field(default_factory=dict)  # each variation's, by its
    # number in the record (the order they are written): the position before its first ply, then after
    # each of its plies, as far as they are legal (archive/variations.py)
    canonical: dict[PlyKey, str] = field(default_factory=dict)  # the plies in canonical form, by key in the tree
    passed: set[PlyKey] = field(default_factory=set)  # the plies after a forced pass the record leaves out (T9):
    # each is numbered as its side's (`Continued`)
    uncontinued: set[PlyKey] = field(default_factory=set)  # the plies written as continuing a turn that goes on
    # no more (`Illegal.continues_none`): each is numbered as a turn of its own
    outcome: Outcome | None = None  # how the main line's game ended, when it did
    dates: tuple[str | None, str | None] = (None, None)  # the first and last day its Date tag allows
    parsed_from: RecordText | None = None  # the text its record was read from when its own does not parse: a
    # tag written twice left out, a tag's `]` written in, or (`check(assume_result=True)`) its result marker assumed

    @property
    def valid(self) -> bool:
        """No error among its diagnostics (warnings may be)."""
        return not any(d.severity == ERROR for d in self.diagnostics)

    @property
    def main_line(self) -> list[str]:
        """The plies of the main line that were played (one fewer than `positions`), in canonical form."""
        return [self.canonical[0, ply] for ply in range(len(self.positions) - 1)]

    @property
    def rewritable(self) -> bool:
        """Whether its canonical form says all that its text says: it was read, as a game, from its text as
        written (not `parsed_from` another); `fmt` and the archive keep the others as written."""
        return self.record is not None and not self.refused and self.parsed_from is None

    @property
    def stopped_by(self) -> Diagnostic:
        """Why it is not replayed, or kept as written (of a report with a diagnostic): its first syntax error, what
        stops its text from parsing (before it, in line order, may stand its tags' errors, which stop nothing:
        review78b), else its first diagnostic."""
        return next((d for d in self.diagnostics if d.rule == "syntax"), self.diagnostics[0])

    @property
    def refused(self) -> bool:
        """Read, but not as any game: a reader of another format could not name its game (its
        problem says why), so the record keeps its tags and no plies, and has no canonical form."""
        return self.record is not None and not self.record.game

    @property
    def tags(self) -> dict[str, str]:
        """Its tags: the record's, or when it does not parse those found in its text, after the tags
        given that stand in for those it lacks (`standing_in`: a record with no Game tag read with --game)."""
        if self.record:
            return self.record.tags
        given = dict(self.source.given)
        stood_in = {tag: given[tag] for tag in standing_in(self.source) if given.get(tag)}
        return {**stood_in, **scan_tags(self.source.text)}

    @property
    def game(self) -> str | None:
        """Its game's name (its rules', else its Game tag's, in lower case); None when it has none."""
        return self.rules.name if self.rules else (self.tags.get("Game") or "").lower() or None

    @property
    def variant(self) -> str | None:
        """Its variant (its rules', else its Variant tag's, in lower case); None when it names none."""
        return self.rules.variant if self.rules else (self.tags.get("Variant") or "").lower() or None

    @property
    def plies(self) -> int:
        """How many plies its main line writes, legal or not (0 when it does not parse); `main_line`
        holds those played."""
        return len(self.record.main.plies) if self.record else 0

    @property
    def result(self) -> str | None:
        """Its result marker (`1-0`, `*`…), or its Result tag when its text writes none (it does not parse,
        or lacks only its marker: not the `*` that `check(assume_result=True)` puts after it)."""
        return self.record.result if self.record and self.result_written else self.tags.get("Result")

    @property
    def result_written(self) -> bool:
        """Whether the record's result marker is in its text: not the `*` that `check(assume_result=True)`
        put after a movetext that ends without one (on a line after the text's last)."""
        return self.record is not None and self.record.result_line <= self.source.last_line

    def moves(self) -> Moves | None:
        """How its plies are said (`Moves.said`); None when its rules did not replay it."""
        if self.record is None or self.rules is None or not self.positions:
            return None
        return Moves(self.record, self.rules, self.positions[0], self.passed, self.uncontinued)

    def move(self, number: int, key: PlyKey | None = None, sides: tuple[str, str] = SIDE_NAMES) -> str:
        """Ply `number` (at `key` in the record's tree; by default of the main line) as every command
        and the editor say it: its move and side in the record's numbering ("move 23, Black",
        `Moves.said`; the side named by `sides`); "ply 5" when its rules did not replay the record."""
        moves = self.moves()
        return moves.said(number, key, sides) if moves else f"ply {number}"

    @property
    def players(self) -> tuple[str | None, str | None]:
        """White and Black as its tags name them (None for a side not named: a CSV game's, no `WHITE vs BLACK`
        header, or named unknown, `?`, as the lgn writer writes a side not named: a record converted reads the same)."""
        white, black = (self.tags.get(side) for side in ("White", "Black"))
        return None if white == "?" else white, None if black == "?" else black

    def __repr__(self) -> str:
        """Where the record is, its game, plies, result and verdict, on one line: the repr of every
        position and ply it holds filled a notebook's cell."""
        said = f" ({plural(len(self.diagnostics), 'diagnostic')})" if self.diagnostics else ""
        first = next((diagnostic for diagnostic in self.diagnostics if diagnostic.severity == ERROR), None)
        if first is not None:
            at = (first.move or f"ply {first.ply}") if first.ply else f"line {first.line}, column {first.column}"
            said = f": error[{first.rule}] at {at}{said}"
        rules = f"{self.game} ({self.variant})" if self.variant else self.game or "no game"
        place = shown_place(self.source.path, self.source.line)
        verdict = "valid" if first is None else "invalid"
        return f"<Report {place}: {rules}, {plural(self.plies, 'ply', 'plies')}, {self.result or 'no result'}, {verdict}{said}>"

    def verdict(self) -> Verdict:
        """What `validate` says of it."""
        white, black = self.players
        return Verdict(
            self.source, self.game, self.variant, self.valid, self.plies, self.result, white, black, self.diagnostics
        )

    def error(self, rule: str, message: str, **where) -> None:
        """Add an error that breaks `rule` (`where`: the Diagnostic's place, its ply and text)."""
        self.diagnostics.append(Diagnostic(ERROR, rule, message, **where))

    def warning(self, rule: str, message: str, **where) -> None:
        """Add a warning of `rule` (`where`: as `error`'s)."""
        self.diagnostics.append(Diagnostic(WARNING, rule, message, **where))


@dataclass(slots=True)
class Verdict:
    """What `lusoria validate` says of a record: small enough to pass between processes."""

    source: RecordText
    game: str | None
    variant: str | None
    valid: bool
    plies: int
    result: str | None
    white: str | None  # the players, as the White and Black tags name them
    black: str | None
    diagnostics: list[Diagnostic]


def check(source: RecordText | str, keep: bool = True, keep_going: bool = False, assume_result: bool = False) -> Report:
    """Parse and replay one record's text; `keep=False` keeps neither the positions
    after each ply nor the canonical plies (what `validate` does not need);
    `keep_going`: after an illegal ply or a syntax slip with one nearest suggestion, go on as if
    it had been written. A record that ends without its result marker does not parse, but its plies are
    checked all the same: their diagnostics follow that error; with `assume_result`, it comes replayed
    (record, rules, positions: `lusoria show`), as with `*`. One whose movetext stops parsing at a syntax error
    has the plies before it checked (`_plies_before`), their errors after it. One that writes a tag twice, or leaves one
    unclosed, comes replayed, read with the tag's first value or closed, after that error (`Report.parsed_from`)."""
    if isinstance(source, str):  # (without the byte order mark of a text decoded as utf-8, not utf-8-sig)
        source = RecordText(source.removeprefix(BOM))
    try:
        return _checked(source, keep, keep_going, assume_result)
    except FAILS as error:  # a plug-in game's sys.exit() too
        said = GAMES.failed_plug_in(error)
        if said is None:
            raise
    failed = Report(source)  # a plug-in's game failed: its bug, said naming it, not lusoria's internal error
    failed.error("plug-in", said, line=source.line, column=1)  # (validator/record.toml)
    return failed


def _checked(source: RecordText, keep: bool, keep_going: bool, assume_result: bool, judged: bool = True) -> Report:
    """`check` of a record's text (`judged`: its slips' readings by the rules, `_read_past_slips`)."""
    read = _read_past_slips(source, keep_going, judged)
    if read.record is None or read.unended or read.tag_mended:
        unread = Report(source)
        unread.diagnostics = sorted(read.diagnostics + _header_checked(read), key=_place)
        if read.record is not None:  # the plies checked; what the replay says of a marker assumed is moot
            kept = not read.stopped and (assume_result or not read.unended)  # (a tag twice or closed: its first value)
            replayed = replay(read.record, read.text, keep and kept, keep_going)
            if replayed.outcome:  # but how the game ended tells the marker that was left out
                unread.diagnostics = [_ended(d, replayed.outcome) for d in unread.diagnostics]
            unread.diagnostics += [
                _as_written(_unclosed(d, read.closed), read.mended)
                for d in replayed.diagnostics
                if not read.unended or d.line != read.record.result_line
            ]
            if read.stopped:  # (what stops the parse first, the tags' errors with it; then the plies before)
                unread.diagnostics.sort(key=_parse_first)
            if kept:
                unread = replace(replayed, source=source, diagnostics=unread.diagnostics, parsed_from=read.text)
        unread.diagnostics = _hinted(unread.diagnostics, source.hint + _notes_said(source, unread.record))
        return unread
    report = replay(read.record, read.text, keep, keep_going)
    report.source = source
    report.diagnostics = _hinted(
        sorted(
            _numbered(read.diagnostics, report, read.mended)
            + [_as_written(d, read.mended) for d in report.diagnostics],
            key=_place,
        ),
        source.hint,
    )
    return report


def _notes_said(source: RecordText, record: Record | None) -> str:
    """What the first error of a report that keeps no record (`record` None: its text does not parse, or
    lacks its result marker) adds: its reader's notes of lines not read (an e-mail's prose and
    signature, RecordText.notes), in order, which no record keeps."""
    return "".join(f"; {note}" for note in source.notes) if record is None else ""


def _numbered(diagnostics: list[Diagnostic], report: Report, mended: list[_Mended]) -> list[Diagnostic]:
    """A reader's diagnostics at plies of the main line of the record `report` replayed, each with
    its move (`Moves`): a reader of another format makes no variation (formats/common.py's `Draft`
    holds one line), so a ply it names is of the main line; and the syntax errors of slips read as
    they meant (`mended`, with keep_going) at the plies of the main line their readings are."""
    slips = _slip_plies(report, mended)
    diagnostics = [
        replace(d, ply=slips[d.line, d.column]) if d.ply is None and (d.line, d.column) in slips else d
        for d in diagnostics
    ]
    moves = report.moves() if any(d.ply for d in diagnostics) else None  # (most records: no Moves made)
    if moves is None:
        return diagnostics
    return [replace(d, move=moves.said(d.ply)) if d.ply else d for d in diagnostics]


def _slip_plies(report: Report, mended: list[_Mended]) -> dict[tuple[int, int], int]:
    """The plies of the main line of `report` that are slips read as they meant (`mended`): by the slip's place
    as written (its syntax error's), the number of the ply its reading is (none for a reading that begins no
    ply: a result marker's, a move number's, plays that join the ply before)."""
    if not mended or report.record is None:
        return {}
    plies = {(ply.line, ply.column): number for number, ply in enumerate(report.record.main.plies, 1)}
    return {
        (fix.line, _column_as_written(fix.line, fix.column, mended[:index])): plies[fix.line, fix.column]
        for index, fix in enumerate(mended)
        if (fix.line, fix.column) in plies
    }


def _hinted(diagnostics: list[Diagnostic], hint: str) -> list[Diagnostic]:
    """The diagnostics, the first error's message followed by `hint` (RecordText.hint)."""
    first = next((index for index, d in enumerate(diagnostics) if d.severity == ERROR), None)
    if not hint or first is None:
        return diagnostics
    return [
        *diagnostics[:first],
        replace(diagnostics[first], message=diagnostics[first].message + hint),
        *diagnostics[first + 1 :],
    ]


def _ended(diagnostic: Diagnostic, outcome: Outcome) -> Diagnostic:
    """The missing result marker's diagnostic, saying which marker the finished game takes."""
    if not diagnostic.message.startswith(MISSING_RESULT):
        return diagnostic
    said = f"; the game ended {outcome.result} ({outcome.reason}, {outcome.rule}): write {outcome.result}"
    return replace(diagnostic, message=diagnostic.message + said)


def canonical_text(report: Report, escapes: EscapeLines | None = None) -> str:
    """A replayed record (`check` with keep=True) in canonical form: the lgn format's writer, with
    the `%` lines `escapes` where they stand, its Variant by its own name where the record gives it
    another program's (`variant_named`). ValueError for a record that does not parse."""
    if report.record is None:
        raise Refused("a record that does not parse has no canonical form")
    rules = report.rules
    if rules and report.positions:
        second = bool(movers_numbering(rules, report.positions[0]))
    else:  # no start to number from (a tag at fault): as the record numbers itself
        second = bool(_written_numbering(report.record))
    record = report.record
    if rules and "Variant" in record.tags and (named := variant_named(type(rules), record.tags["Variant"])):
        record = replace(record, tags=with_variant(record.tags, named))  # its variant's own name: as it reads
    return write_record(record, second, report.canonical, rules.continued if rules else None, escapes, report.passed)


def _place(diagnostic: Diagnostic) -> tuple[int, int]:
    return diagnostic.line, diagnostic.column


def _parse_first(diagnostic: Diagnostic) -> tuple[bool, int, int]:
    """A record's syntax and tag errors first, then the rest, each in line order: the first error of a record that
    does not parse is one that stops it (what `show`, `fmt`, `convert` say of it: review78)."""
    return diagnostic.rule not in ("syntax", "tag"), diagnostic.line, diagnostic.column


MAX_SLIPS = 100  # --keep-going reads past at most this many syntax slips in one record
KEPT_GOING = " (--keep-going goes on past a ply with one nearest suggestion only{})"  # why it stopped all the same


def _unchosen(keep_going: bool, fixes: list[Fix]) -> str:
    """Why `keep_going` stops at a syntax slip all the same: several fixes, named (it chooses none of
    them); "" else."""
    if not keep_going or len(fixes) < 2:
        return ""
    return f" (--keep-going reads past a slip with one suggestion only: {listed([fix.text for fix in fixes])} may each be meant)"


def _read_as(keep_going: bool, fixes: list[Fix], mended: list[_Mended]) -> str:
    """What `keep_going` reads a syntax slip as, where it reads past it (one suggestion, `MAX_SLIPS` not reached),
    as an illegal ply's error says it (note79: only the later diagnostics said it, `assuming …`); "" else. (A tag
    written twice has no `fixes`, nor has a record that ends without its marker, which are read on otherwise.)"""
    if not keep_going or len(fixes) != 1 or len(mended) == MAX_SLIPS:
        return ""
    return f"; --keep-going reads it as {fixes[0].text}"


def _one_ply(rules: Game, position: Position, text: str) -> bool:
    """Whether `text`, an illegal ply's meaning (`Illegal.meant`), is one ply that plays from `position`."""
    try:
        rules.play(position, text)
    except (Illegal, NotAPly):
        return False
    return True


def _of_other_games(text: str, row: int, problem: SyntaxProblem, game: str) -> str:
    """Where the words at a syntax error that found a word (`found '64:'`) begin a ply of other games than the
    record's, at its first ply, under a Game tag of its own, which (a Game tag copied from another game's file, h82b:
    Laquet's plies under Latrunculi's, a bare syntax error); "" where they do not."""
    at = offset_of(text.split("\n"), row, problem.column)
    if (
        not problem.message.startswith("found '")
        or isinstance(problem, OffBoard)  # (a square off the board: said so)
        or game not in known_games()  # (a record of a move list, read as the game its file names)
        or not names_a_game(text)  # (its game given, `--game`: review82)
        or not _NO_PLY.fullmatch(text, len(header_of(text)), at)  # (a ply before it: a stray word, review82)
    ):
        return ""
    words = text[at:].split("\n")[0].split()[:_LONGEST_PLY]
    for count in range(len(words), 0, -1):
        ply = " ".join(words[:count])
        if not _SQUARE_OR_POINT.search(ply) or is_ply(game, ply):  # (a pass, `--`, every game's; one of its own, after
            return ""  # the result marker)
        if others := [other for other in known_games() if is_ply(other, ply)]:
            return f" ({ply} is a ply of {listed(others)}, not of {game}: is its Game tag right?)"
    return ""


_SQUARE_OR_POINT = re.compile("[0-9]")  # what a ply that is more than a pass names
_LONGEST_PLY = 4  # the words of a ply at most, as `_of_other_games` tries them (`63: 5/11 1/4 >1: 3/4`'s first four)


def _kept_going(keep_going: bool, nearest: list[str]) -> str:
    """Why `keep_going` stopped at an illegal ply all the same: no suggestion near, or several as near,
    named (it chooses none of them); "" without it."""
    if not keep_going:
        return ""
    return KEPT_GOING.format(f": {listed(nearest)} are as near as each other" if nearest else "")


_STOPS = "; the rest of this line is not checked"  # an illegal ply's message says where the replay stops
ASSUMED_RESULT = "\n*\n"  # put after a movetext that ends without a result marker, on lines of its own


@dataclass(frozen=True, slots=True)
class _Mended:
    """A slip read as what it meant: `word` at `line`, `column` replaced by `text`."""

    line: int
    column: int
    word: str
    text: str


class _Read(NamedTuple):
    """What reading past slips made of a record's text."""

    record: Record | None  # None when it does not parse
    text: RecordText  # the text read: mended, and with ASSUMED_RESULT when `unended`
    diagnostics: list[Diagnostic]  # the syntax errors, each with what its slip meant
    mended: list[_Mended]  # the slips read as what they meant (keep_going)
    unended: bool  # the movetext ends without a result marker: `record` ends with one assumed
    tag_mended: bool  # a tag is written twice, or not closed: `record` is read without the second, or closed
    closed: list[_Mended]  # the tags closed (without keep_going): a `]` written in, the columns after it one on
    stopped: bool = False  # read up to its syntax error (`_plies_before`): `record` holds the plies checked, not kept


def _read_past_slips(source: RecordText, keep_going: bool, judged: bool = True) -> _Read:
    """The record parsed, the syntax errors, each with what its slip meant ("did you mean
    e3-c3?"), and the fixes made: with `keep_going`, while each slip has one fix, the text is
    mended until it parses. A movetext that ends without a result marker is read with one
    assumed (ASSUMED_RESULT), one cut short after a word that is none of the notation's without that
    word and with one assumed, a tag written twice without the second, and a tag whose line ends
    without its `]` closed: its error is one diagnostic, not the end of the checks. With `judged` (and not
    `keep_going`, which replays a slip's one reading), a reading the rules refuse at its ply is said so
    (`_reading_refused`)."""
    diagnostics = [
        Diagnostic(
            ERROR,
            problem.rule,
            problem.message,
            problem.ply,
            problem.text,
            problem.line,
            problem.column,
            width=problem.width,
        )
        for problem in source.problems
    ]  # a reader's, at plies
    read, mended, unended, tag_mended, stopped = source, list[_Mended](), False, False, False
    closed = list[_Mended]()  # the tags closed (without keep_going): a `]` written in, the columns after it one on
    while True:
        try:
            return _Read(parse_record(read), read, diagnostics, mended, unended, tag_mended, closed, stopped)
        except SyntaxProblem as problem:
            if stopped or (unended and problem.line > source.last_line):
                # the assumed marker did not help
                return _Read(None, read, diagnostics, mended, unended, tag_mended, closed)
            game = game_read_in(read)
            row = problem.line - read.line + 1
            fixes = slip_fixes(read.text, row, problem.column, game) if problem.rule == "syntax" else []
            broken, fixes = _reading_refused(read, fixes) if judged and _judging(keep_going, fixes) else ("", fixes)
            # (a reading's own check judges none; --keep-going reads a slip of one reading as it, and the replay says
            # what breaks there; of several, as the one the rules accept where they refuse the first)
            if keep_going and broken.endswith(_ACCEPTED_SAID):
                fixes = fixes[:1]
            meant = [fix.text for fix in fixes] + list(problem.meant if isinstance(problem, TagTwice) else ())
            if game and game not in known_games() and read.format == "lgn":  # the problem is the unknown game
                meant = (holding_it if variant_as_game(problem.text) else alike)(problem.text, known_games())
            if isinstance(problem, OffBoard) and not meant:
                meant = _nearest_on_board(read, problem)
            if fixes:  # the diagnostic points at what its suggestions replace, as an editor's quick fix does:
                # the word at the error, or more (`e3-c3 !?` for e3-c3!?, `63: 5-11 1-4` for 63: 5/11 1/4)
                text, (line, column) = read.text[fixes[0].start : fixes[0].end], _fix_place(read, fixes[0])
            else:
                text, line, column = problem.text, problem.line, problem.column
            cut = problem if isinstance(problem, CutShort) and not fixes else None  # a record cut short
            diagnostics.append(
                _as_written(
                    Diagnostic(
                        ERROR,
                        problem.rule,
                        problem.message
                        + (CUT_SHORT if cut else "")
                        + broken
                        + _unchosen(keep_going, fixes)
                        + _read_as(keep_going, fixes, mended)
                        + ("" if fixes or problem.rule != "syntax" else _of_other_games(read.text, row, problem, game)),
                        text=text,
                        line=line,
                        column=_column_as_written(line, column, closed),
                        suggestions=tuple(meant),
                        tries=problem.tries if isinstance(problem, Undecodable) else (),
                    ),
                    mended,
                )
            )
            if isinstance(problem, MissingResult):
                read, unended = _retold(read, assumed_end(read.text)), True
                continue
            if isinstance(problem, TagTwice):  # read on without it and those written twice after it, their places blank
                diagnostics += [_as_written(_unclosed(_tag_twice(later), closed), mended) for later in problem.later]
                blanked = _blank(read.text, *(twice.span for twice in (problem, *problem.later)))
                read, tag_mended = _retold(read, blanked), True
                continue
            if cut is not None:  # read up to the ply it ends with, a result assumed
                cut_text = assumed_end(_blank(read.text, cut.span))
                read, unended = _retold(read, cut_text), True
                continue
            if not keep_going and fixes and fixes == mended_tag(read.text, fixes[0].start, game):  # read on, mended
                closed.append(
                    _Mended(*_fix_place(read, fixes[0]), read.text[fixes[0].start : fixes[0].end], fixes[0].text)
                )
                kept = _lines_kept(read.text[fixes[0].start : fixes[0].end])  # (a value wrapped: its lines kept)
                read, tag_mended = _retold(read, mend(read.text, fixes[0]._replace(text=fixes[0].text + kept))), True
                continue  # (its `]` ends its line: what follows stands where it stood)
            if not keep_going or len(fixes) != 1 or len(mended) == MAX_SLIPS:
                before = _plies_before(read, problem, game)
                if before is None:
                    return _Read(None, read, diagnostics, mended, unended, tag_mended, closed)
                read, unended, stopped = _retold(read, before), True, True  # its plies checked all the same
                continue
            (fix,) = fixes
            word = read.text[fix.start : fix.end]
            mended.append(_Mended(*_fix_place(read, fix), re.sub(r"\r?\n", "⏎", word), fix.text))
            read = _retold(read, mend(read.text, fix._replace(text=fix.text + _lines_kept(word))))


_READINGS_JUDGED = 3  # the readings of one slip the rules judge, each a replay up to its ply


def _judging(keep_going: bool, fixes: list[Fix]) -> bool:
    """Whether a slip's readings are judged (`_reading_refused`): always, but with `keep_going`, which replays
    a slip of one reading as it (what breaks there is the replay's error), only a slip of several."""
    return not keep_going or len(fixes) > 1


_ACCEPTED_SAID = ", it breaks none there"  # (`_reading_refused`, of the reading the rules accept)


def _reading_refused(read: RecordText, fixes: list[Fix]) -> tuple[str, list[Fix]]:
    """What the rules say of a slip's first reading (`fixes`) at its ply, said after the message where they
    refuse it (`; read as e3-c4, it breaks T2 there (…)`): the record mended with it and read up to the end of
    its ply (`_reading_checked`); "" where they accept it, or the text so read cannot judge it. Where they refuse
    it, the next readings (up to `_READINGS_JUDGED`) are judged, and the first they accept is said
    (`; read as *, it breaks none there`) and put first; the readings, in the order to offer them (a fallback
    only where the rules accept it)."""
    verdict = _reading_checked(read, fixes[0]) if fixes and not fixes[0].text.startswith("[") else None  # (a tag's
    # reading is no ply the rules judge: cut after its line, a record read without its Game tag below, review80)
    if not isinstance(verdict, Diagnostic):
        return "", [fix for fix in fixes if not isinstance(fix, Fallback)]
    said = verdict.message.partition(_STOPS)[0]  # (what the error says of the line is the reading's)
    note = f"; read as {fixes[0].text}, it breaks {verdict.rule} there ({said})"
    for fix in fixes[1:_READINGS_JUDGED]:
        if _reading_checked(read, fix) is _ACCEPTED:
            return f"{note}; read as {fix.text}{_ACCEPTED_SAID}", [
                fix,
                *(other for other in fixes if other != fix),
            ]
    return note, [fix for fix in fixes if not isinstance(fix, Fallback)]


_READ_ON = re.compile(  # what follows a reading on its line up to a move number, a result, a variation or a comment:
    r"[^\n(){};]*?(?=[ \t]+(?:[0-9]+\.|1-0|0-1|1/2-1/2|\*)|[ \t]*[\n(){};]|[ \t]*\Z)"  # the rest of its ply
)
_ACCEPTED = "accepted"  # the rules accept a reading up to the end of its ply


def _reading_checked(read: RecordText, fix: Fix) -> Diagnostic | str | None:
    """The error the rules find at a slip's reading, the record mended with it and read up to the end of
    its ply (`_READ_ON`), a result assumed (none after a result marker read); _ACCEPTED where they find none up
    to there; None where they find none after an illegal ply (a variation's too), the text so read does not parse,
    or a plug-in's game fails on it (a reading is lusoria's guess: the record's error stands)."""
    mended = mend(read.text, fix)
    end = fix.start + len(fix.text)
    followed = _READ_ON.match(mended, end)
    cut = mended[: followed.end() if followed else end]
    try:
        report = _checked(
            _retold(read, cut + "\n" if fix.text in RESULTS else assumed_end(cut)), False, False, False, False
        )
    except FAILS as error:
        if GAMES.failed_plug_in(error) is None:  # (lusoria's own failure is raised as check raises it)
            raise
        return None
    if any(diagnostic.rule == "syntax" for diagnostic in report.diagnostics):
        return None
    lines = mended.split("\n")
    errors = [
        (diagnostic, offset_of(lines, diagnostic.line - read.line + 1, diagnostic.column))
        for diagnostic in report.diagnostics
        if diagnostic.severity == ERROR
    ]
    if refused := next((error for error, at in errors if fix.start <= at < end), None):
        return refused  # (said whatever a ply before it breaks: a variation's does not stop the main line)
    if any(error.ply is not None and at < fix.start for error, at in errors):
        return None  # (a ply before it is illegal: the replay may stop before the reading)
    return _ACCEPTED


def _plies_before(read: RecordText, problem: SyntaxProblem, game: str) -> str | None:
    """The text of an lgn record read up to the ply its syntax error stands in, a result assumed
    (`assumed_end`): the plies before are checked all the same (after its result marker: all of them). Where no
    move number (a game of dice: no roll) begins the error's ply, the error may go on the ply before it
    (`a4-a10 ×b10`, `64: 5/11 (…) 5/9`): that one is left out too. None where no ply is left: for an error in its
    tags, or in a record of a game lusoria does not know."""
    from lusoria.notation.lalr import ply_start  # loads Lark: only for the records that need it

    text, header = read.text, len(header_of(read.text))
    at = offset_of(text.split("\n"), problem.line - read.line + 1, problem.column)
    if read.format != "lgn" or game not in known_games() or at < header:
        return None
    roll = GAMES[game].roll
    numbered = _NUMBERED.match(text, at) is not None or roll is None and text.startswith("{", at)  # (a move number
    # begins a ply, and a comment ends one but in a game of dice: the plies before are whole; h79c, review79b: `2.`
    # or `{` typed after an illegal ply hid its error)
    start = at if numbered else ply_start(text, at, game)
    if not numbered and (
        start == at or (roll is not None and not roll.search(text[start:at]) and not roll.match(text, at))
    ):
        if (before := _last_word(blanked(text[:start]), header)) is not None:
            start = ply_start(text, before, game)
    if not blanked(text[header:start]).strip():
        return None
    return assumed_end(text[:start])


_NUMBERED = re.compile(r"\d+\.")  # a move number, where a syntax error stands (`_plies_before`)


def _last_word(plain: str, start: int) -> int | None:
    """Where the last word of `plain` (its comments blank) past `start` begins, its closed variations left
    out; None where it has none."""
    depth, index = 0, len(plain)
    while index > start:
        index -= 1
        if plain[index] == ")":
            depth += 1
        elif plain[index] == "(":
            depth = max(depth - 1, 0)
        elif depth == 0 and not plain[index].isspace():
            while index > start and not plain[index - 1].isspace():
                index -= 1
            return index
    return None


def _lines_kept(word: str) -> str:
    """What keeps the text after a fix of `word` where it stood, when `word` spans lines (`{p. 4}`⏎`4/5`):
    its line breaks, and blanks up to where it ended; nothing for a word on one line."""
    rows = word.split("\n")
    return "\n" * (len(rows) - 1) + " " * len(rows[-1]) if len(rows) > 1 else ""


def _nearest_on_board(read: RecordText, problem: OffBoard) -> list[str]:
    """The legal plies nearest a ply with a square off every board of its game (`b5-b12`), as an
    illegal ply's (`suggestions`) of it with its squares brought onto the board (`b5-b9`), in the
    position the main line reaches before it (the record read up to it, a result assumed); none in a
    variation, or where the plies before it are not all legal."""
    from lusoria.notation.lalr import open_variations  # loads Lark: only for the records that need it

    before = read.text[: offset_of(read.text.split("\n"), problem.line - read.line + 1, problem.column)]
    if open_variations(before):
        return []
    report = check(_retold(read, _MOVE_NUMBER_AT_END.sub("", before) + ASSUMED_RESULT))
    if report.rules is None or not report.positions or len(report.positions) <= report.plies:
        return []
    board = report.rules.diagram(report.positions[-1]).board
    if not isinstance(board, Squares):
        return []
    try:
        return suggestions(report.rules, report.positions[-1], _onto(problem.text, board.files, board.ranks))
    except NotAPly:  # brought onto the board, still none (`a2-a3~d4~a1`: a second removal)
        return []


_MOVE_NUMBER_AT_END = re.compile(r"[0-9]+\.+\s*\Z")
_SQUARE = re.compile(r"([a-z])([0-9]+)")


def _onto(ply: str, files: int, ranks: int) -> str:
    """`ply` with each square off a board of `files` × `ranks` moved to the nearest on it (`b12`: `b9` on 9×9)."""

    def nearest(square: re.Match[str]) -> str:
        file, rank = min(ord(square[1]) - ord("a"), files - 1), whole_number(square[2], 0, MAX_COUNT)
        return f"{chr(ord('a') + file)}{ranks if rank is None else min(max(rank, 1), ranks)}"  # (None: too large)

    return _SQUARE.sub(nearest, ply)


def _retold(read: RecordText, text: str) -> RecordText:
    """A record's text read again as `text` (mended, ended): lgn to parse anew, in its place, with the notes
    of its reader (an e-mail's signature below it: they were dropped by --keep-going) and its tags given
    (`RecordText.given`), all `parse_record` reads besides. Only an lgn text is retold (a reader's record is parsed already, and its text holds no
    Game tag that a slip's fix needs); the report keeps the source as read (`_checked`), its kept lines too."""
    return RecordText(text, read.line, read.index, read.path, notes=read.notes, given=read.given)


def assumed_end(text: str) -> str:
    """A record's text that ends without a result marker, ended: the variations still open closed (those
    with no ply yet, `(` or `(1. ` or a cut one's, left out: blank), and ASSUMED_RESULT after them (as
    the editor reads a record being typed, lusoria/document.py)."""
    from lusoria.notation.lalr import open_variations  # loads Lark: only for the records that need it

    opened = open_variations(text)
    while opened and _NO_PLY.fullmatch(text, opened[-1] + 1):
        text = _blank(text, (opened.pop(), len(text)))
    return text + ")" * len(opened) + ASSUMED_RESULT


_NO_PLY = re.compile(r"(?:\s|[0-9]+\.+|\{[^}]*\}|;[^\n]*)*")  # what stands before a first ply (of a variation too)


def _blank(text: str, *spans: tuple[int, int]) -> str:
    """The text with blanks for what stands in each of `spans`, in order (lines and columns stay as they were)."""
    pieces, at = [], 0
    for start, end in spans:
        pieces += [text[at:start], " " * (end - start)]
        at = end
    return "".join(pieces) + text[at:]


def _tag_twice(problem: TagTwice) -> Diagnostic:
    """The error of a tag written twice after the first that the parser met (`TagTwice.later`)."""
    return Diagnostic(
        ERROR,
        problem.rule,
        problem.message,
        text=problem.text,
        line=problem.line,
        column=problem.column,
        suggestions=problem.meant,
    )


def _fix_place(read: RecordText, fix: Fix) -> tuple[int, int]:
    """The line and column (from 1, in the file) where a fix of the record's text begins."""
    return row_column(read.text, fix.start, read.line - 1)


def _header_checked(read: _Read) -> list[Diagnostic]:
    """The tag errors and warnings of a record that does not parse, said with its syntax error
    rather than once it is fixed: its tag lines (those before the movetext) read alone, with a
    result assumed, and replayed (a tag written twice among them said too). None when the record
    parsed (its replay checked them), or when those lines do not parse alone or name no game
    lusoria knows (the reader's error says so)."""
    text = read.text
    if read.record is not None or game_read_in(text) not in known_games():
        return []
    header = header_of(text.text) + ASSUMED_RESULT
    alone = _read_past_slips(RecordText(header, text.line, text.index, text.path, given=text.given), False)
    if alone.record is None:
        return []
    tagged = [
        _unclosed(d, alone.closed) for d in replay(alone.record, alone.text, keep=False).diagnostics if d.rule == "tag"
    ]
    return [_unclosed(d, read.closed + read.mended) for d in alone.diagnostics + tagged]  # (the record's text mended)


def _unclosed(diagnostic: Diagnostic, closed: list[_Mended]) -> Diagnostic:
    """A diagnostic of the text with tags closed (`closed`: a `]` written in after each; or other fixes), placed
    in the text as written."""
    return replace(diagnostic, column=_column_as_written(diagnostic.line, diagnostic.column, closed))


def _column_as_written(line: int, column: int, mended: list[_Mended]) -> int:
    """A column of `line` in the mended text, in the text as written (one inside what a fix kept of its
    word, a tag it closed, stays)."""
    for fix in reversed(mended):
        if line == fix.line and column > fix.column and column >= fix.column + len(commonprefix([fix.word, fix.text])):
            column = max(fix.column, column - len(fix.text) + len(fix.word))
    return column


def _as_written(diagnostic: Diagnostic, mended: list[_Mended]) -> Diagnostic:
    """A diagnostic of the mended text, placed in the text as written, resting on the fixes."""
    if not mended:
        return diagnostic
    column = _column_as_written(diagnostic.line, diagnostic.column, mended)
    assumed = tuple(
        f"line {fix.line}: {fix.text} for {fix.word}"
        for fix in mended
        if (fix.line, fix.column) <= (diagnostic.line, diagnostic.column)  # a fix further on is no ground
    )
    return replace(diagnostic, column=column, assumed=assumed + diagnostic.assumed)


def replay(
    record: Record,
    source: RecordText | None = None,
    keep: bool = True,
    keep_going: bool = False,
    rules: Game | None = None,
    first_error: bool = False,
) -> Report:
    """Check a parsed record against its game's rules, or against `rules` when given
    (`keep`, `keep_going`: as in `check`); `first_error`: stop at the first illegal ply
    found (its variations not replayed), with no suggestions, nor the warnings of misnumbered
    moves of a replay stopped (what the search for fitting rule sets needs)."""
    if source is not None and source.claims is not None:  # they mend the record replayed, not the caller's
        record = record.mendable()
    report = Report(source or RecordText("", record.line), record)
    rules = rules or _rules(record, report)
    _check_tags(record, report, rules)
    if rules is not None:
        report.rules = rules
        start = _start(record, rules, report)
        if start is not None:
            _Replay(record, report, rules, start, keep, keep_going, first_error).every_line()
    report.diagnostics.sort(key=_place)
    return report


def _check_tags(record: Record, report: Report, rules: Game | None) -> None:
    """What the tags say checked before any ply: the date, the tags' names (`rules`: those the record
    is read by), the Result tag."""
    if "Date" in record.tags:
        try:
            report.dates = date_range(record.tags["Date"])
        except ValueError as problem:
            date = record.tags["Date"]
            _tag_error(record, "Date", str(problem), report, date, suggestions=date_readings(date))
    _check_tag_names(record, report, rules)
    _check_names(record, report)
    _check_controls(record, report)
    _check_result_tag(record, report)


Pending = tuple[int, Position, int, int]
# a line to replay: its number, the position before its first ply, the number of the line it leaves
# and the index of the ply it replaces there (a later ply of that line may show that the plies before
# it went otherwise: its position is then read from that line's kept, `_replayed`, or replaced, `_restarted`)


class _Replay:
    """The plies of a record with rules and a start replayed: the main line, then each variation
    from the position before the ply it replaces (`keep`, `keep_going`, `first_error`: as in `replay`)."""

    def __init__(
        self,
        record: Record,
        report: Report,
        rules: Game,
        start: Position,
        keep: bool,
        keep_going: bool,
        first_error: bool,
    ) -> None:
        self.record, self.report, self.rules, self.start = record, report, rules, start
        self.keep, self.keep_going, self.first_error = keep, keep_going, first_error
        report.positions.append(start)
        self._moves, self._passes = Moves(record, rules, start), (0, 0)  # (`moves`: the passes and uncontinued counted)
        self.numbered: list[tuple[Ply, int, PlyKey]] = []  # the plies replayed that write a move number
        self.assumptions: dict[PlyKey, str] = {}  # the plies played in place of illegal ones (`keep_going`)
        self.tree: _Lines | None = None  # walked at the first variation met
        self.starts: dict[int, Position] = {}  # the position each variation replayed started from
        self.claims: Claims | None = report.source.claims  # its reader's, of the main line (asked until one fails)

    def every_line(self) -> None:
        """Replay every line (up to the first illegal ply, with `first_error`); the main line's
        outcome, and the result checked against it."""
        report = self.report
        pending: list[Pending] = [(0, self.start, 0, 0)]
        whole = True  # every ply replayed
        while pending and not (self.first_error and report.diagnostics and report.diagnostics[-1].severity == ERROR):
            at, position, left, replaced = pending.pop()
            if self.keep:
                position = _line_positions(report, left)[replaced]
            if at:
                self.starts[at] = position
                if self.keep:
                    report.variation_positions[at] = [position]
            ended, completed, assumed = self.line(at, position, pending)
            whole = whole and completed
            if not at:
                report.outcome = ended
                _check_result(self.record, ended if completed else None, report, tuple(assumed))
        whole = whole and not pending  # (the plies of a line cut short are walked again, for their numbers)
        if whole:
            self.warn_misnumbered(self.misnumbered())
        elif not self.first_error:  # (a search that stops at an error asks for no warning; past the stop, the
            # forced passes left out are not known: of a record with some, the numbers of the plies replayed alone;
            # so of one with a ply written as continuing a turn that does not go on, review76)
            self.warn_misnumbered(
                self.misnumbered()
                if report.passed or report.uncontinued
                else wrong_numbers(self.record, self.rules, self.start)
            )

    def warn_misnumbered(self, misnumbered: list[tuple[Ply, int, str]]) -> None:
        """`_warn_misnumbered`, which says that a forced pass left out counts as a ply of a number that is
        right where the passes are not counted (review70: not of any wrong number after a pass)."""
        left_out: set[int] = set()
        if self.report.passed and misnumbered:
            wrong = {id(each[0]) for each in wrong_numbers(self.record, self.rules, self.start)}
            left_out = {id(ply) for ply, _, _ in misnumbered if id(ply) not in wrong}
        _warn_misnumbered(misnumbered, self.report, left_out)

    def line(self, at: int, position: Position, pending: list[Pending]) -> tuple[Outcome | None, bool, list[str]]:
        """Replay line `at` from `position`, adding the variations met to `pending`: how the game
        stands at its end, whether every ply was checked, and the plies assumed (`keep_going`: those
        of the lines it leaves, then its own)."""
        rules, report = self.rules, self.report
        line, first = (self.record.main, 1) if self.tree is None else self.tree.lines[at]
        ended = self.outcome_before(first)
        assumed = self.assumed_before(at) if at else []
        held: _Held | None = None  # the main line's ply that ended the game, asked of once the next shows how it went
        for index, ply in enumerate(line.plies):
            number, key = first + index, (at, index)
            try:
                played: Played | Illegal | None = self.play(position, ended, ply.text)
            except Illegal as illegal:
                played = illegal
            if played is not None and played.passed:
                report.passed.add(key)  # (it and the plies after it are numbered one ply on: `moves`)
            if isinstance(played, Illegal) and played.continues_none:
                report.uncontinued.add(key)  # (numbered as a turn of its own: `moves`)
            if ply.number is not None:  # (most plies are not numbered: checked once the line's passes are known)
                self.numbered.append((ply, number, key))
            if held is not None:
                went = played.earlier if isinstance(played, Played) else ()
                self.ask(held._replace(played=went[-1]) if went else held)
                held = None
            if played is None:  # (refused past the end: the game ended, at the start: in its Position)
                said = already_over(cast("Outcome", ended), number == 1 and "Position" in self.record.tags)
                report.error(rules.end_rule, said, **self.where(ply, number, key), assumed=tuple(assumed))
                return ended, False, assumed
            if isinstance(played, Illegal) and played.ended is not None:  # (by a forced pass left out before it)
                report.error(played.rule, played.message, **self.where(ply, number, key), assumed=tuple(assumed))
                return played.ended, False, assumed
            if isinstance(played, Illegal) and self.claims is not None and not at:
                played = self.claims.retried(rules, position, ply) or played
            if ply.variations and not (self.first_error and isinstance(played, Illegal)):
                pending.extend(self.variations(at, index, position))
            if isinstance(played, Illegal):
                self.claims = None  # (they say no more of a line the replay leaves)
                assumption = self.illegal(played, position, ply, number, key, assumed)
                if assumption is None:
                    return ended, False, assumed
                assumed.append(f"{self.moves.said(number, key)}: {assumption}")
                self.assumptions[key] = assumption
                played = rules.play(position, assumption)
            elif self.claims is not None and not at:
                asked = _Held(index, ply, number, key, position, played, len(report.diagnostics))
                if played.outcome is not None and index + 1 < len(line.plies):
                    held = asked
                else:
                    self.ask(asked)
            for rule, message in played.warnings:
                report.warning(rule, message, **self.where(ply, number, key), assumed=tuple(assumed))
            position, ended = played.position, played.outcome
            if played.earlier and self.keep:
                _replayed(report, at, index, played.earlier)
            elif played.earlier:
                _restarted(pending, at, index, played.earlier)
            if self.keep:
                report.canonical[key] = played.text
                _line_positions(report, at).append(position)
        return ended, True, assumed

    @property
    def moves(self) -> Moves:
        """How the record's plies are said, made again where the replay has found a forced pass left out since
        (`Report.passed`: rare, and made once for the diagnostics that follow, not at each pass)."""
        report = self.report
        if self._passes != (len(report.passed), len(report.uncontinued)):
            self._moves, self._passes = (
                Moves(self.record, self.rules, self.start, report.passed, report.uncontinued),
                (len(report.passed), len(report.uncontinued)),
            )
        return self._moves

    def misnumbered(self) -> list[tuple[Ply, int, str]]:
        """The plies replayed whose written move number is wrong in the record's numbering (`wrong_numbers`)."""
        found = _WrongNumbers(self.moves)
        for ply, number, key in self.numbered:
            found.visit_ply(ply, number, key)
        return found.wrong

    def ask(self, asked: _Held) -> None:
        """Ask the reader's claims (RecordText.claims) of the main line's ply `asked`: what its source gets
        wrong there is an error of the ply, said before the others of its place, as the reader's are."""
        if self.claims is None:
            return
        said = self.claims.checked(self.rules, asked.ply_index, asked.position, asked.played, self.record)
        if said is False:
            self.claims = None
        elif isinstance(said, tuple):
            rule, message = said
            where = self.where(asked.ply, asked.number, asked.key)
            self.report.diagnostics.insert(asked.at, Diagnostic(ERROR, rule, message, **where))

    def where(self, ply: Ply, number: int, key: PlyKey) -> dict:
        """Where a diagnostic about ply `number` at `key` points (`_where`), and its move."""
        in_variation = ", in a variation" if key[0] else ""  # (the main line has its own move of that number: h78a)
        return _where(ply, number) | {"move": self.moves.said(number, key) + in_variation}

    def outcome_before(self, first: int) -> Outcome | None:
        """How the game stands before a line's first ply, ply `first`: as the start stands before
        ply 1 (a start that is over refuses it); before another, going on (the line it leaves did)."""
        return self.rules.outcome(self.start) if first == 1 else None

    def play(self, position: Position, ended: Outcome | None, text: str) -> Played | None:
        """Ply `text` played at `position`, where the game stands `ended` (None: going on): past
        its end where it ended (`Game.play_past_end`; None: refused, the game is over). Illegal for
        an illegal ply."""
        if ended is None:
            return self.rules.play(position, text)
        return self.rules.play_past_end(position, text)

    def assumed_before(self, at: int) -> list[str]:
        """The plies assumed (`keep_going`) on the lines that variation `at` leaves, before it: what its
        errors rest on too."""
        if not self.assumptions:
            return []
        return [
            f"{self.moves.said(number, key)}: {self.assumptions[key]}"
            for _, number, key in self.path((at, 0))
            if key in self.assumptions
        ]

    def variations(self, at: int, index: int, position: Position) -> list[Pending]:
        """The variations of ply `index` of line `at`, to replay from `position`, last first."""
        if self.tree is None:
            self.tree = _Lines()
            walk(self.record, self.tree)
        return [(variation, position, at, index) for variation in reversed(self.tree.branches[at, index])]

    def illegal(
        self, illegal: Illegal, position: Position, ply: Ply, number: int, key: PlyKey, assumed: list[str]
    ) -> str | None:
        """Report illegal ply `number` (at `key`), with the plies it may have meant; with `keep_going`,
        the one nearest it, played in its place (None: the rest of the line is not checked)."""
        rules = self.rules
        judged = position if illegal.judged_at is None else illegal.judged_at  # (after a forced pass left out: the
        # plies meant are the side's whose turn it is then; an assumption is played from `position`, the pass again)
        close = [] if self.first_error else suggestions(rules, judged, ply.text)
        close = [illegal.meant, *close][:LIMIT] if illegal.meant and not self.first_error else close
        nearest = (
            ([illegal.meant] if illegal.meant else nearest_plies(rules, judged, ply.text)) if self.keep_going else []
        )
        two = bool(nearest) and bool(illegal.meant) and not _one_ply(rules, judged, nearest[0])  # (a turn and the
        # other side's, its roll left out: no one ply to read in its place, h82b)
        assumption = nearest[0] if len(nearest) == 1 and not two else None  # (what the message says: a die misread)
        stop = (
            f"; --keep-going reads it as {assumption}"
            if assumption
            else f"{_STOPS} (--keep-going reads one ply in the place of an illegal one, and {nearest[0]} is two)"
            if two
            else _STOPS + _kept_going(self.keep_going, nearest)
        )
        self.report.error(
            illegal.rule,
            illegal.message + self.whence(illegal, key) + stop,
            **self.where(ply, number, key),
            suggestions=tuple(close),
            assumed=tuple(assumed),
        )
        return assumption

    def whence(self, illegal: Illegal, key: PlyKey) -> str:
        """Who put the piece on the square `illegal` names as occupied (`_placed_by`: " (by move 5, White:
        d4-c4)", " (from the start position)"), or took the one of the square it names as lost (`_taken_by`),
        said after its message; "" when it names neither, or no ply took that piece."""
        if illegal.occupied:
            return f" ({_placed_by(self.rules, self.moves, illegal.occupied, self.start, self.arrivals(key))})"
        taken = _taken_by(self.rules, self.moves, illegal.lost, self.start, self.arrivals(key)) if illegal.lost else ""
        return f" ({taken})" if taken else ""

    def arrivals(self, key: PlyKey) -> list[_Arrival]:
        """The plies played before the one at `key`, from the start, along its line and the lines it
        leaves, replayed again as `line` played them (assumptions too, and the plies before one as it
        showed they went: `Played.earlier`), for an error that names one (`whence`), so that validate's
        replay of every ply keeps none (with `keep` too: one way)."""
        position, ended, arrivals = self.start, None, list[_Arrival]()
        for ply, number, at in self.path(key):
            if not at[1]:
                ended = self.outcome_before(number)
            position = self.went(arrivals, at, position)
            played = cast("Played", self.play(position, ended, self.assumptions.get(at, ply.text)))  # (line played it)
            for back, each in enumerate(reversed(played.earlier[-len(arrivals) :] if arrivals else ()), 1):
                arrivals[-back] = arrivals[-back]._replace(after=each.position)
            position, ended = played.position, played.outcome
            arrivals.append(_Arrival(ply.text, played.text, position, number, at))
        self.went(arrivals, key, position)  # (the ply at `key` may start a variation too)
        return arrivals

    def went(self, arrivals: list[_Arrival], at: PlyKey, position: Position) -> Position:
        """The position the ply at `at` is played from: a variation's first from where the variation
        started, the ply before it (the last of `arrivals`) set to have gone there, as the replay showed
        it went (`Played.earlier`); another from `position`, the one before it left."""
        if at[1] or not at[0]:
            return position
        if arrivals:
            arrivals[-1] = arrivals[-1]._replace(after=self.starts[at[0]])
        return self.starts[at[0]]

    def path(self, key: PlyKey) -> list[tuple[Ply, int, PlyKey]]:
        """The plies before the one at `key` from the start: of its line, after those of the line it
        leaves up to the ply it replaces, and so on to the main line."""
        at, index = key
        path: list[tuple[Ply, int, PlyKey]] = []
        while True:
            line, first = (self.record.main, 1) if self.tree is None else self.tree.lines[at]
            path[:0] = [(ply, first + each, (at, each)) for each, ply in enumerate(line.plies[:index])]
            if not at or self.tree is None:
                return path
            at, index = next(left for left, variations in self.tree.branches.items() if at in variations)


class _Held(NamedTuple):
    """A ply of the main line played, to ask the claims of (`_Replay.ask`): its index there, the ply, its number and
    key, the position before it, how it went, and where its diagnostics begin in the report's."""

    ply_index: int
    ply: Ply
    number: int
    key: PlyKey
    position: Position
    played: Played
    at: int


class _Arrival(NamedTuple):
    """A ply played: as written, in canonical form, the position after it, its number and its key."""

    written: str
    canonical: str
    after: Position
    number: int
    key: PlyKey


def _placed_by(rules: Game, moves: Moves, square: str, start: Position, arrivals: list[_Arrival]) -> str:
    """Who put the piece on `square` (a square's name), of the plies `arrivals` played from `start`:
    the last that moved or placed a piece there (its move and text, "by move 12, White: e2-g4", as
    the game's diagram marks where a ply goes to), or captured the piece there, which stays (a
    latrunculi incitus, a tafl mercenary turned in place: "captured by move 1, White: d2-d1xc1"), or
    after which a piece stands there that did not (a ply the record leaves out went there: a tafl
    variant's berserk continuation, G16), or "from the start position" when none did ("from the Position tag"
    where the record starts from another)."""
    if (change := _last_change(rules, square, start, arrivals)) is None:
        return "from the start position" if start == rules.initial() else "from the Position tag"
    mark, arrival, _ = change
    if mark == CAPTURED:
        return f"captured by {moves.said(arrival.number, arrival.key)}: {arrival.canonical}"
    by = f"{moves.said(arrival.number, arrival.key)}: {arrival.written}"
    return f"by {by}" if mark == TO else f"by a ply the record leaves out after {by}"


_TAKEN = {CAPTURED: "captured", REMOVED: "removed", FROM: "moved away"}  # how a ply marked a square's piece gone


def _taken_by(rules: Game, moves: Moves, square: str, start: Position, arrivals: list[_Arrival]) -> str:
    """Who took the piece that stood on `square` (a square's name), of the plies `arrivals` played
    from `start`: the last that captured, removed or moved it away, in canonical form, its captures
    written out ("captured by move 2, White: d1-d5xc5", a capture a transcriber left out), or after
    which the square is empty though it did not (a ply the record leaves out took it: a tafl
    variant's berserk continuation, G16); "" when none did, or the last ply to change the square
    put a piece there."""
    if (change := _last_change(rules, square, start, arrivals)) is None:
        return ""
    mark, arrival, stands = change
    by = f"{moves.said(arrival.number, arrival.key)}: {arrival.canonical}"
    if how := _TAKEN.get(mark):
        return f"{how} by {by}"
    return "" if stands else f"taken by a ply the record leaves out after {by}"


def _last_change(
    rules: Game, square: str, start: Position, arrivals: list[_Arrival]
) -> tuple[str, _Arrival, bool] | None:
    """The last of the plies `arrivals` played from `start` to change what stands on `square` (a
    square's name): how its diagram marks the square ("" unmarked: a ply the record leaves out
    after it changed it), the ply, and whether a piece stands there after it; None when none did."""
    befores = [start, *(arrival.after for arrival in arrivals)]
    for index in reversed(range(len(arrivals))):
        arrival = arrivals[index]
        diagram = rules.diagram(arrival.after, arrival.canonical)
        names = diagram.board.names if isinstance(diagram.board, Squares) else ()
        place = names.index(square) if square in names else -1
        mark, after = diagram.marks.get(place, ""), diagram.pieces.get(place)
        if mark == TO or mark in _TAKEN or after != rules.diagram(befores[index]).pieces.get(place):
            return mark, arrival, after is not None
    return None


@mypyc_attr(native_class=False)  # compiled, it extends a Python class (lusoria/accelerator.py)
class _Lines(Visitor):
    """A record's lines by number, each with the number of its first ply, and the numbers of
    the variations of each ply that has some: what the driver replays, the main line first,
    then each variation from the position before the ply it replaces."""

    def __init__(self) -> None:
        self.lines: list[tuple[Line, int]] = []
        self.branches: dict[PlyKey, list[int]] = {}
        self.key, self.number = (0, 0), 0  # the ply last visited
        self.parents: list[tuple[PlyKey, int]] = []  # the plies that the open variations replace

    def begin_line(self, line: Line, number: int) -> None:
        if number:
            self.branches.setdefault(self.key, []).append(number)
            self.parents.append((self.key, self.number))
        self.lines.append((line, self.number or 1))

    def visit_ply(self, ply: Ply, number: int, key: PlyKey) -> None:
        self.key, self.number = key, number

    def end_line(self, line: Line, number: int) -> None:
        if number:
            self.key, self.number = self.parents.pop()


def _replayed(report: Report, at: int, index: int, earlier: tuple[Played, ...]) -> None:
    """The plies of line `at` before ply `index` as a later ply showed they went (`Played.earlier`):
    their canonical texts and positions, which every view of the record reads (show, html, svg,
    the language server, fmt, the archive), and the variations of those plies start from. A
    variation keeps the plies of the line it leaves."""
    positions = _line_positions(report, at)
    for back, each in enumerate(reversed(earlier[-index:] if index else ()), 1):  # (none before the line)
        report.canonical[at, index - back] = each.text
        positions[index - back + 1] = each.position


def _restarted(pending: list[Pending], at: int, index: int, earlier: tuple[Played, ...]) -> None:
    """The variations in `pending` of line `at`'s plies up to ply `index`, started where `earlier` (the
    plies before ply `index` as it showed they went: `Played.earlier`) says the ply before each went,
    as `_replayed` starts them where positions are kept."""
    for each, (line, _, left, replaced) in enumerate(pending):
        back = index - replaced + 1  # the ply before the one it replaces, counted back from ply `index`
        if left == at and 0 < replaced <= index and back <= len(earlier):
            pending[each] = (line, earlier[-back].position, left, replaced)


def _line_positions(report: Report, at: int) -> list[Position]:
    """The positions kept of line `at` (0: the main line)."""
    return report.variation_positions[at] if at else report.positions


def _rules(record: Record, report: Report) -> Game | None:
    """The rules of a record; None, with a tag error, when they cannot be read. A record that
    names no game lusoria knows comes from a reader that refused its game (lgn's reader refuses
    the record): that reader's problem says why, so no second error does."""
    if record.game not in known_games():
        if not any(problem.rule == "tag" for problem in report.source.problems):
            report.error("tag", f"the record names no game that lusoria knows ('{record.game}')", line=record.line)
        return None
    try:
        return rules_from_tags(game_class(record.game), record.tags)
    except OptionError as problem:
        for each in problem.each():  # (a slip in one tag hides none in another)
            _tag_error(
                record, each.tag, str(each), report, each.written, each.at, alike(each.written or "", each.known)
            )
        return None


def _start(record: Record, rules: Game, report: Report) -> Position | None:
    text = record.tags.get("Position")
    if text is None:
        return rules.initial()
    try:
        return rules.parse_position(text)
    except OptionError as problem:
        suggestions = alike(problem.written or "", problem.known)
        _tag_error(
            record, "Position", f"malformed Position: {problem}", report, problem.written, problem.at, suggestions
        )
        return None


def _check_tag_names(record: Record, report: Report, rules: Game | None) -> None:
    """A warning for a tag that may be a slip for one NOTATION.md names, which the record lacks
    (`event`, `Varient`): tag names are case-sensitive, so it is kept as a tag of its own and its
    value read as nothing else; a slip for Variant says the variant the record is read as
    (newcomer-56a: `[Varient "piso"]` was checked as seneca, unsaid)."""
    for name in record.tags:
        meant = tag_meant(name)
        if meant is not None and meant not in record.tags:
            line, column = record.tag_places.get(name) or (record.line, 1)
            cased = "tag names are case-sensitive: " if name.lower() == meant.lower() else ""
            read_as = f": the record is read as {rules.variant}" if meant == "Variant" and rules else ""
            report.warning(
                "tag",
                f"{cased}'{name}' is not {meant} (kept as a tag of its own{read_as})",
                text=name,
                line=line,
                column=column,
                suggestions=(meant,),
            )


NAME_TAGS = ("White", "Black", "Event", "Site")  # the archive matches and counts their values whole


def _check_names(record: Record, report: Report) -> None:
    """A warning for a name the archive would count apart from the same name typed plainly (its score
    table showed two rows `Anna Lind`): white space at its ends or doubled. (Accents written as combining
    marks are not: the archive stores and compares names composed, NFC.)"""
    for tag in NAME_TAGS:
        value = record.tags.get(tag, "")
        plain = " ".join(value.split())
        if plain != value:
            message = f"{tag} '{value}' {_how_written(value)}: the archive counts it apart from '{plain}'"
            _tag_error(record, tag, message, report, value, suggestions=[plain], severity=WARNING)


C1_CONTROLS = re.compile("[\x80-\x9f]")  # what bytes 0x80-0x9F read as latin-1 are: cp1252's letters and quotes


def _check_controls(record: Record, report: Report) -> None:
    """A warning for a tag whose value holds a C1 control character, which no text writes: a file of
    cp1252 (`Œ`, `–`, `“`) read as latin-1, which decodes those bytes as controls (newcomer-56a: a name
    stored as `\x8cdipe`), with the value read as cp1252 would read it, where cp1252 reads it."""
    for tag, value in record.tags.items():
        if found := C1_CONTROLS.search(value):
            message = f"{tag} holds the control character U+{ord(found[0]):04X}, which no text writes"
            try:  # (reviewer-57: nor cp1252 either, 0x81 0x8D 0x8F 0x90 0x9D, or beside a letter latin-1 lacks)
                meant = value.encode("latin-1").decode("cp1252")
            except UnicodeError:
                _tag_error(record, tag, message, report, value, severity=WARNING)
                continue
            message += (
                ": cp1252 read as latin-1, by this reading (--encoding cp1252) or before the file was written; as "
                f"cp1252, {meant!r}"
            )
            _tag_error(record, tag, message, report, value, suggestions=[meant], severity=WARNING)


def _how_written(value: str) -> str:
    """Where a name's white space is other than one space between words."""
    if value[:1].isspace():
        return "has white space at its start"
    if value[-1:].isspace():
        return "has white space at its end"
    odd = next((char for char in value if char.isspace() and char != " "), None)  # (a no-break space looks like one)
    if odd is None:
        return "has more than one space between words"
    name = unicodedata.name(odd, "white space character").lower()
    return f"has {'an' if name[0] in 'aeiou' else 'a'} {name} (U+{ord(odd):04X}) between words"


def _tag_error(
    record: Record,
    tag: str,
    message: str,
    report: Report,
    written: str | None = None,
    at: int = 0,
    suggestions: list[str] | None = None,
    severity: str = ERROR,
) -> None:
    """An error (or a warning) of the tag `tag`, at its place; when `written` (the part of its value
    at fault, `at` characters into it) is given and found there, at that part, with what it may have
    meant; a tag the record lacks (a Variant its game needs), at the Game tag."""
    if tag not in record.tag_places:
        tag, written = "Game", None
    line, column = record.tag_places.get(tag) or (record.line, 1)
    part = _part_column(report.source, line, column, written, at) if written is not None else None
    said = report.warning if severity == WARNING else report.error
    if written is None or part is None:
        said("tag", message, text=tag, line=line, column=column)
    else:
        said("tag", message, text=written, line=line, column=part, suggestions=tuple(suggestions or ()))


def _part_column(source: RecordText, line: int, column: int, written: str, at: int) -> int | None:
    """The column of `written`, `at` characters into the value of the tag placed at `line`, `column`:
    in lgn text its name, in another format its value (OTN's `[date:…]`); None where it is not
    (escapes, a value its reader made)."""
    lines = source.text.split("\n")
    if not 0 <= line - source.line < len(lines):
        return None
    text = lines[line - source.line]
    value = column - 1
    if source.format == "lgn":  # past the quote that opens the value
        value = text.find('"', value) + 1
        if not value:
            return None
    start = value + at
    return start + 1 if text.startswith(written, start) else None


def move_number(number: int, offset: int) -> str:
    """How ply `number` is numbered ("12." for the first ply of move 12, "12..." for its second)
    when `offset` plies of the first move come before the record's first (0 or 1: `numbering`);
    `number` counts no ply that continues a turn (`Continued.number`: a berserk move has the
    number of the ply before it)."""
    half = number - 1 + offset
    return f"{half // 2 + 1}{'...' if half % 2 else '.'}"


def movers_numbering(rules: Game, start: Position) -> int:
    """The numbering of a record from `start` as its game's players write it: a move is the
    game's first mover's ply and the reply (`1. h1-h3 g5-g4` where the attackers, Black, move
    first, as OTN and the tafl sites write; `1. e4 e5` where White does), so a record that starts
    with the other side to move starts at the second ply of a move (`1... e3-c3`)."""
    return 0 if rules.turn(start) == rules.turn(rules.initial()) else 1


def _written_numbering(record: Record) -> int:
    """The numbering a record's first numbered ply of the main line says (0, or 1 where it is the
    second ply of its move: `1... e3-c3`), for a record without a start to number from; 0 when no
    ply is numbered."""
    numbered = _first_numbered(record)
    return (numbered[0] + numbered[1].endswith("...")) % 2 if numbered else 0


def _first_numbered(record: Record) -> tuple[int, str] | None:
    """The index of the first ply of the main line written with a move number, and that number."""
    return next(((index, ply.number) for index, ply in enumerate(record.main.plies) if ply.number), None)


def _whites_numbering(rules: Game, start: Position) -> int:
    """`move_number`'s offset in White's numbering, chess's: 1 when Black is to move at `start`."""
    return 0 if rules.turn(start) == WHITE else 1


def _either_numbering(report: Report) -> bool:
    """Whether a replayed record may be numbered either way (`numbering`): its movers' and White's differ."""
    if report.rules is None or not report.positions:
        return False
    start = report.positions[0]
    return movers_numbering(report.rules, start) != _whites_numbering(report.rules, start)


def numbering(record: Record, rules: Game, start: Position, continued: Continued | None = None) -> int:
    """The numbering of a record's moves (`move_number`'s offset): its game's players'
    (`movers_numbering`), or, in a game whose first mover is Black, White's (chess's, `1... h1-h3
    2. g5-g4`) when its first numbered ply of the main line is so numbered. `continued`: the
    record's plies that continue a turn (made when not given)."""
    movers = movers_numbering(rules, start)
    whites = _whites_numbering(rules, start)
    if whites != movers:
        numbered = _first_numbered(record)
        if numbered is not None:
            continued = continued or Continued(record, rules.continued)
            if numbered[1] == move_number(continued.number(numbered[0] + 1, (0, numbered[0])), whites):
                return whites
    return movers


def _where(ply, number: int) -> dict:
    """Where a diagnostic about ply `number` points."""
    return dict(ply=number, text=ply.text, line=ply.line, column=ply.column, width=ply.width)


class Moves:
    """How a transcriber finds a ply of a record in its source: its move number, in the record's
    numbering (`numbering`: attackers-first too), and the side that plays it. `Report.moves()` makes
    one for a replayed record; one says many plies without numbering the record again (`Report.move`
    says one)."""

    def __init__(
        self,
        record: Record,
        rules: Game,
        start: Position,
        passed: Collection[PlyKey] = (),
        uncontinued: Collection[PlyKey] = (),
    ) -> None:
        """`passed`: the plies after a forced pass the record leaves out (`Report.passed`); `uncontinued`: those
        written as continuing a turn that goes on no more (`Report.uncontinued`)."""
        # (empty but in a game whose plies may continue a turn or pass)
        self._continued = Continued(record, rules.continued, passed=passed, uncontinued=uncontinued)
        self._offset = numbering(record, rules, start, self._continued)
        self._first = rules.turn(start) ^ self._offset  # the side whose plies are numbered `N.`

    def number(self, number: int, key: PlyKey) -> str:
        """The move number of ply `number` (at `key` in the record's tree) in the record's numbering:
        "23." or "23..." (`move_number`)."""
        return move_number(self._continued.number(number, key), self._offset)

    def continues(self, key: PlyKey) -> bool:
        """Whether the ply at `key` continues its side's turn (`Game.continued`: numbered with the ply before it)."""
        return key in self._continued.continuing

    def follows_pass(self, key: PlyKey) -> bool:
        """Whether the ply at `key` follows a forced pass its record leaves out (numbered as its side's, always)."""
        return key in self._continued.passed

    def said(self, number: int, key: PlyKey | None = None, sides: tuple[str, str] = SIDE_NAMES) -> str:
        """Ply `number` (at `key` in the record's tree; by default of the main line) as "move 23, Black"; the
        side named by `sides` (White's name and Black's: a page names them as the game does, `Game.sides`:
        "move 23, Muscovites")."""
        written = self.number(number, key or (0, number - 1))
        second = written.endswith("...")
        return f"move {written.rstrip('.')}, {sides[self._first ^ second]}"

    def said_after(self, plies: int, text: str) -> str:
        """Ply `text` written after the first `plies` of the main line, as `said` says it (one that
        continues a turn, `Game.continued`, with the move and side of the ply before it)."""
        pattern = self._continued.pattern
        continues = plies > 0 and pattern is not None and pattern.match(text) is not None
        return self.said(plies if continues else plies + 1, (0, plies - 1))


_SAID_MOVE = re.compile(rf"\bmove ([0-9]+), ({SIDE_NAMES[0]}|{SIDE_NAMES[1]})\b")  # as `Moves.said` says one


def resaid(text: str, sides: tuple[str, str]) -> str:
    """`text` with each move in it that `Moves.said` said with the notation's sides ("move 1, White": a diagnostic's
    move, and those its message names, "captured by move 1, White: d2-d1xc1") said with `sides` (as `said` takes them)."""
    return _SAID_MOVE.sub(lambda found: f"move {found[1]}, {sides[SIDE_NAMES.index(found[2])]}", text)


def line_moves(rules: Game, line: list[str]) -> Moves:
    """The `Moves` of a line of plies played from the start of `rules` with no record to number it (the
    explorer's): numbered as the game's players number it (`movers_numbering`)."""
    record = Record({}, Line([Ply(text, 0, 0) for text in line]), "*")
    return Moves(record, rules, rules.initial())


@mypyc_attr(native_class=False)  # compiled, it extends a Python class (lusoria/accelerator.py)
class _WrongNumbers(Visitor):
    """The plies visited whose written move number is wrong in the record's numbering (`moves`),
    each with its ply number and the right move number."""

    def __init__(self, moves: Moves) -> None:
        self.moves = moves
        self.wrong: list[tuple[Ply, int, str]] = []

    def visit_ply(self, ply: Ply, number: int, key: PlyKey) -> None:
        if ply.number is not None and ply.number != (expected := self.moves.number(number, key)):
            self.wrong.append((ply, number, expected))


def wrong_numbers(
    record: Record, rules: Game, start: Position, passed: Collection[PlyKey] = ()
) -> list[tuple[Ply, int, str]]:
    """Each ply of `record` (variations too, in the order written) whose written move number is wrong
    when the record starts at `start` (`passed`: as `Moves` takes them): the ply, its ply number, the
    right move number (`move_number`). The move-number warning counts them, and an editor's quick fix
    writes them right."""
    found = _WrongNumbers(Moves(record, rules, start, passed))
    walk(record, found)
    return found.wrong


def _warn_misnumbered(
    misnumbered: list[tuple[Ply, int, str]], report: Report, passes_left_out: Collection[int] = ()
) -> None:
    """A written move number must be right in the record's numbering (`numbering`; NOTATION.md §3):
    one warning a record, at the first wrong number written, saying how many more the record holds,
    past an illegal ply too (`wrong_numbers`; a record that numbers its plies one by one, `1. e3-c3
    2. d1-d3`, has one a ply), which `fmt` mends (`passes_left_out`: as `_why_misnumbered` takes them)."""
    if not misnumbered:
        return
    ply, number, expected = min(misnumbered, key=lambda each: (each[0].line, each[0].column))
    said = f"the move number should be {expected}, not {ply.number}"
    where = _where(ply, number)
    place = number_place(report.source, ply)
    if place is not None:  # the number itself, as an editor underlines it
        where.update(text=ply.number, line=place[0], column=place[1])
    report.warning("number", said + _why_misnumbered(misnumbered, ply, expected, report, passes_left_out), **where)


def number_place(source: RecordText, ply: Ply) -> tuple[int, int] | None:
    """Where the move number written before `ply` stands in `source` (its line and column, 1-based, as
    the ply's are counted), on the ply's line or an earlier one (`3.` on a line of its own); None for a
    ply written without one. (Searched in place: a record of 40,000 misnumbered moves on one line, each
    asked for, took 24 s when each copied the text before it.)"""
    row, text = ply.line - source.line, source.text
    starts = _line_starts(text)
    if not ply.number or not 0 <= row < len(starts):
        return None
    end = starts[row] + ply.column - 1  # (the text before the ply)
    at = text.rfind(ply.number, 0, end)
    while at >= 0 and not _AFTER_NUMBER.fullmatch(text, at + len(ply.number), end):  # (a comment that repeats it)
        at = text.rfind(ply.number, 0, at)
    if at < 0:
        return None
    found = bisect.bisect_right(starts, at) - 1
    return source.line + found, at - starts[found] + 1


@lru_cache(maxsize=1)
def _line_starts(text: str) -> tuple[int, ...]:
    """Where each line of `text` starts (one record's kept, which each of its plies asks of: a record may be 16 MB)."""
    return (0, *(match.end() for match in re.finditer("\n", text)))


_AFTER_NUMBER = re.compile(r"(?:\s|\{[^}]*\}|;[^\n]*|\$[0-9]+)*")  # what stands between a number and its ply


def _why_misnumbered(
    misnumbered: list[tuple[Ply, int, str]], ply: Ply, expected: str, report: Report, passes_left_out: Collection[int]
) -> str:
    """What the move-number warning adds in brackets: that every wrong number (two or more) counts one ply ahead
    (a ply left out), or as many plies past one (a gap in the source, which a record does not hold; a number alone
    too, the main line's last), why a fragment numbered as its source is numbered from 1, that a forced pass left out
    before it counts (`passes_left_out`: the plies, by `id`, whose number is right if they did not), how many more
    are wrong."""
    more = len(misnumbered) - 1
    record = report.record
    skipped = _plies_skipped(misnumbered, record, _either_numbering(report)) if record else 0
    if more and skipped == 1:  # (a number alone one ply ahead is a ply numbered as a move, `1. e3-c3 2. d1-d3`)
        after = f"the {more} move numbers after it are" if more > 1 else "the move number after it is"
        return f" ({after} one ply ahead too: is a ply missing before it?)"
    if skipped > 1 and record and ply is not next(iter(record.main.plies), None):  # (not a fragment's first)
        after = f", and so are the {more} move numbers after it" if more > 1 else ", and so is the one after it"
        return (  # (a number alone too, the last: none after it goes right again)
            f" ({ply.number} is {skipped} plies ahead{after * bool(more)}: a gap in the source? A record has no mark for "
            f"one: {GAP_KEPT_APART})"
        )
    follows = "follow" if more > 1 else "follows"
    notes = [
        _why_not_from_one(record, ply, expected) if record else "",
        "the forced pass left out before it counts as a ply" if id(ply) in passes_left_out else "",
        f"{more} more wrong move number{'s' * (more > 1)} {follows}: lusoria fmt mends them" if more else "",
    ]
    said = "; ".join(note for note in notes if note)
    return f" ({said})" if said else ""


def _plies_skipped(misnumbered: list[tuple[Ply, int, str]], record: Record, either: bool) -> int:
    """How many plies the wrong move numbers say are left out before the first (one: a ply missing;
    more: a gap in the source), when each counts that many ahead, no number of the main line after its
    first wrong one is right, and, in a record that may be numbered either way (`either`), not its
    first number alone is right and the others one ply ahead (`1. d1-d3 2. e3-f3 d3-d2` where Black moves
    first: White's numbering, its first number written as the movers'); else 0 (below 1: numbers behind, which ask for nothing)."""
    ahead = {_plies_ahead(each[0].number or "", each[2]) for each in misnumbered}
    skipped = ahead.pop() if len(ahead) == 1 else None
    if skipped is None:
        return 0
    wrong = {id(each[0]) for each in misnumbered}
    numbered = [id(each) for each in record.main.plies if each.number]
    at = next((index for index, each in enumerate(numbered) if each in wrong), len(numbered))
    if not wrong.issuperset(numbered[at:]) or (at == len(numbered) and skipped > 1):  # (a gap: the main line's)
        return 0
    return 0 if either and at == 1 and skipped == 1 else skipped  # (the numberings are a ply apart: newcomer-57a,
    # `1. h1-h3 g5-g4 3. d1-d3`, two plies ahead of both, is a gap)


def _plies_ahead(written: str, expected: str) -> int | None:
    """How many plies the move number `written` counts past `expected` (negative: before it);
    None for a number past bounds."""
    halves = [whole_number(number.rstrip("."), 0, MAX_COUNT) for number in (written, expected)]
    if halves[0] is None or halves[1] is None:
        return None
    return 2 * (halves[0] - halves[1]) + written.endswith("...") - expected.endswith("...")


def _why_not_from_one(record: Record, ply: Ply, expected: str) -> str:
    """Why a record's first ply, numbered past where the record starts (a fragment numbered as its
    source is: `23. d2-d5`), is numbered from 1; empty for any other ply."""
    if not record.main.plies or ply is not record.main.plies[0] or (_plies_ahead(ply.number or "", expected) or 0) < 1:
        return ""
    if "Position" in record.tags:
        return (
            "a record that starts from a Position tag is numbered from 1 too; a comment may keep the source's numbers"
        )
    return "a fragment that starts mid-game gives its first position in a Position tag, and is numbered from 1"


def _check_result_tag(record: Record, report: Report) -> None:
    """A Result tag that is no result marker (said whatever else is wrong with the record's tags)."""
    tag = record.tags.get("Result")
    if tag is not None and tag not in RESULTS:
        _tag_error(
            record,
            "Result",
            f"a Result is {', '.join(RESULTS[:-1])} or {RESULTS[-1]}; not '{tag}'",
            report,
            tag,
            suggestions=results_meant(tag) or alike(tag, RESULTS),
        )


def _check_result(record: Record, ended: Outcome | None, report: Report, assumed: tuple[str, ...]) -> None:
    """The marker against the Result tag (one of the markers), and against a finished final position."""
    where = dict(line=record.result_line, column=record.result_column, text=record.result)
    tag = record.tags.get("Result")
    if tag in RESULTS and tag != record.result:
        report.error("result", f"the result marker {record.result} differs from the Result tag ({tag})", **where)
    if ended is not None and record.result != ended.result:
        report.error(
            "result",
            f"the game ended {ended.result} ({ended.reason}, {ended.rule}), but the record says {record.result}",
            **where,
            assumed=assumed,
        )
