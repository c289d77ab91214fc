"""Reading a record with its game's Lark grammar (LALR), the model built while parsing:
what the reader falls back on for a record with more than tags, plies and a result, and
for syntax errors, told in plain words. Loaded only when a record needs it (start-up)."""

from __future__ import annotations

import re
import sys
from collections import Counter
from functools import cache
from typing import cast

from lark import Lark, Token, Transformer
from lark.exceptions import UnexpectedEOF, UnexpectedInput, UnexpectedToken

from lusoria.grammar import common_lines, grammar_text
from lusoria.notation.annotations import SUFFIX, doubted, refused_after_annotations, undoubted
from lusoria.notation.model import Line, Ply, Record
from lusoria.notation.numbers import arabic_number, whole_number
from lusoria.notation.numerals import lowercase_numeral
from lusoria.notation.plies import split_run
from lusoria.notation.syntax import (
    BLANK,
    GAP_KEPT_APART,
    MISSING_RESULT,
    NOT_MOVETEXT,
    TAG_BEFORE_NAME,
    TAG_NAME,
    TAG_VALUE,
    TERMINALS,
    UNWRITTEN_TAG,
    WRAPPED_TAG,
    CutShort,
    MissingResult,
    OffBoard,
    SyntaxProblem,
    TagTwice,
    Terminals,
    blanked,
    cache_file,
    dots_apart,
    hyphened,
    misnamed,
    row_column,
    unquote,
)
from lusoria.notation.visitor import PlyKey, Visitor, walk
from lusoria.plugins import said
from lusoria.validator.games import GAMES
from lusoria.words import escape_controls, times

MAX_NAG = 255  # as in PGN
_BLANKS = re.compile(r"\s+")


_PAIRED_TAGS = {"White": "Black", "Black": "White"}  # a name written twice was perhaps meant for the other side


def _written_twice(tag: Token, name: str, column: int, first: str, names: Counter[str]) -> TagTwice:
    """The problem of a tag `name` written again (`tag`), with the value it had first (`names`: how
    often each of the record's tags is written)."""
    said = f'the tag {name} appears {times(names[name])} (its first value, "{first}", is the one read)'
    problem = TagTwice(said, tag.line, column, name, "tag")
    problem.span = (tag.start_pos or 0, tag.end_pos or 0)
    other = _PAIRED_TAGS.get(name)
    if other and other not in names:
        problem.meant = (other,)
    return problem


class _Builder(Transformer):
    """Builds the model while the LALR parser reduces (no parse tree)."""

    terminals: Terminals  # set once the grammar is compiled

    def variation(self, children: list) -> Line:
        line = self._line(children)
        if not line.plies:
            first = children[0]
            raise SyntaxProblem("a variation must hold at least one ply", first.line, first.column, first)
        return line

    def movetext(self, children: list) -> tuple[Line, Token]:
        return self._line(children[:-1]), children[-1]

    def record(self, children: list) -> Record:
        *tags, (main, result) = children
        named: dict[str, str] = {}
        places: dict[str, tuple[int, int]] = {}
        written = [tag[1:-1].split(None, 1) for tag in tags]  # TAG: "[", its name, blanks, its value, "]"
        twice: list[TagTwice] = []  # (blanks inside)
        counted = Counter(name for name, _ in written)
        for tag, (name, value) in zip(tags, written):
            column = (tag.column or 0) + tag.index(name)
            if name in named:
                twice.append(_written_twice(tag, name, column, named[name], counted))
                continue
            named[name], places[name] = unquote(value.rstrip(" \t\u00a0")), (tag.line, column)
        if twice:  # the first, with the others (a record read past them all at once)
            twice[0].later = tuple(twice[1:])
            raise twice[0]
        return Record(named, main, str(result), 1, places, result.line, result.column)

    def _line(self, elements: list) -> Line:
        line = Line()
        number: Token | None = None
        for element in elements:
            if isinstance(element, Line):
                self._last_ply(line, element, "a variation").variations.append(element)
            elif element.type == "PLIES":
                self._add_plies(line, element, number)
                number = None
            elif element.type == "MOVE_NUMBER":
                number = element
            elif element.type == "COMMENT":
                text = element[1:-1] if element.startswith("{") else element[1:]
                (line.plies[-1].comments if line.plies else line.comments).append(_BLANKS.sub(" ", text).strip())
            else:  # NAG
                nag = whole_number(element[1:], 0, MAX_NAG)
                if nag is None:
                    raise SyntaxProblem(
                        f"a NAG is $0 to ${MAX_NAG}, not {element[:20]}",
                        element.line,
                        element.column,
                        str(element[:20]),
                    )
                self._last_ply(line, element, "a NAG").nags.append(nag)
        if number is not None:
            raise SyntaxProblem(
                f"found the move number {number} with no ply after it", number.line, number.column, str(number)
            )
        return line

    def _add_plies(self, line: Line, run: Token, number: Token | None) -> None:
        """Split a run of plies and move numbers (one token) into plies."""
        split_run(
            line.plies,
            self.terminals.item,
            str(run),
            0,
            len(run),
            run.line or 0,
            1 - (run.column or 0),
            str(number) if number is not None else None,
        )

    @staticmethod
    def _last_ply(line: Line, token, what: str) -> Ply:
        if not line.plies:
            where = token.plies[0] if isinstance(token, Line) and token.plies else token
            raise SyntaxProblem(
                f"{what} must follow a ply",
                getattr(where, "line", 0),
                getattr(where, "column", 0),
                str(getattr(where, "text", where)),
            )
        return line.plies[-1]


@cache
def builder_parser(game: str) -> Lark:
    """The game's parser, with the model builder applied while parsing. Lark keeps it
    between runs in the user's cache folder (building it costs more than reading it back)
    and checks the grammar's hash on load, rebuilding on any mismatch or unreadable file."""
    builder, grammar = _Builder(), grammar_text(game)
    with GAMES.building_grammar(game, _placed):  # a plug-in's grammar that lark cannot build is its game's failure
        parser = Lark(
            grammar,
            parser="lalr",
            lexer="contextual",
            start=["record", "ply", "tag_parts"],
            transformer=builder,
            cache=cache_file(game, "lark") or False,
        )
        builder.terminals = Terminals.of(terminal_patterns(game, parser))
    return parser


_LARK_PLACE = re.compile(r",? at line (\d+),? column (\d+)(?: in <string>)?")  # where lark's errors say a line


def _placed(file: str, error: BaseException) -> str:
    """What lark's `error` building a game's grammar (`grammar_text`: common.lark, then `file`) says,
    placed in `file`: `file:line:column: error`, the line counted in `file`, not after common.lark's;
    `file: error` when it names no line of it."""
    message, place = str(error), ""
    found = _LARK_PLACE.search(message)
    if found and (line := (whole_number(found[1], 1, sys.maxsize) or 0) - common_lines()) > 0:
        message, place = message[: found.start()] + message[found.end() :], f":{line}:{found[2]}"
    return f"{file}{place}: {said(error, message)}"


def terminal_patterns(game: str, parser: Lark | None = None) -> dict[str, str]:
    """The regular expressions of the terminals the reader uses, by name (TERMINALS)."""
    parser = parser or builder_parser(game)
    return {name: parser.get_terminal(name).pattern.to_regexp() for name in TERMINALS}


def parse_lalr(text: str, game: str, offset: int, tag_follows: bool = False) -> Record:
    """Parse a record's text (lines counted from `offset`; `tag_follows`: a tag line after it began the
    next record); raises SyntaxProblem."""
    try:
        record = cast(Record, builder_parser(game).parse(text, "record"))  # made by the builder while parsing
    except SyntaxProblem as problem:
        for said in (problem, *(problem.later if isinstance(problem, TagTwice) else ())):
            said.line += offset
        raise
    except UnexpectedInput as error:
        raise _misread_ply(error, text, offset, game) or _describe(error, text, offset, game, tag_follows) from None
    record.result_line += offset
    if offset:
        record.tag_places = {name: (line + offset, column) for name, (line, column) in record.tag_places.items()}
        walk(record, _Shifted(offset))
    return record


class _Shifted(Visitor):
    """Adds `rows` to the line of every ply of a record, variations included."""

    def __init__(self, rows: int) -> None:
        self.rows = rows

    def visit_ply(self, ply: Ply, number: int, key: PlyKey) -> None:
        ply.line += self.rows


EXPECTED_NAMES = {  # in the order a message lists them
    "TAG": "a tag",
    "PLIES": "a ply",
    "MOVE_NUMBER": "a move number",
    "COMMENT": "a comment",
    "NAG": "a NAG",
    "LPAR": "a variation",
    "RPAR": "')'",
    "RESULT": "a result marker (1-0, 0-1, 1/2-1/2, *)",
}


_THE_END = {"$END", "<END-OF-FILE>"}  # what Lark accepts once a record is whole (LALR, its lexer)


def _accepted(error: UnexpectedInput) -> set[str]:
    """The terminals the parser (or its lexer) would have taken where it failed."""
    return set(
        getattr(error, "accepts", None) or getattr(error, "expected", None) or getattr(error, "allowed", None) or ()
    )


def _after_the_result(error: UnexpectedInput) -> bool:
    """Whether the parser failed past the result marker, where only the end of the record may come."""
    accepted = _accepted(error)
    return bool(accepted) and accepted <= _THE_END


def at_the_end(error: UnexpectedInput) -> bool:
    """Whether the parser met the end of the text where it expected more (a result marker)."""
    return isinstance(error, UnexpectedEOF) or (isinstance(error, UnexpectedToken) and error.token.type == "$END")


def _describe(error: UnexpectedInput, text: str, offset: int, game: str, tag_follows: bool) -> SyntaxProblem:
    """A plain-words syntax error: what was found, what was expected (and, where the record ends
    after it without a result marker, that it may be cut short: CutShort; by the tag line after it,
    `tag_follows`, that a comment among its tags ended them)."""
    if at_the_end(error):
        lines = text.rstrip().split("\n")
        return MissingResult(
            MISSING_RESULT
            + _result_in_a_comment(text, offset)
            + _variation_unclosed(text, offset)
            + (_tags_ended_by_a_comment(text, offset) if tag_follows else ""),
            offset + len(lines),
            len(lines[-1]) + 1,
        )
    accepted = _accepted(error)
    at, row, column = error.pos_in_stream or 0, offset + (error.line or 0), error.column or 0
    inside = _variation_open(text[:at])
    expected = [
        words for name, words in EXPECTED_NAMES.items() if name in accepted and name != ("RESULT" if inside else "RPAR")
    ]
    word = re.compile(r"[^\s(){}\[\];]{0,40}").match(text, at)  # matches, if only the empty string
    found = (word[0] if word else "") or text[at]
    if _after_the_result(error):
        what = "a comment" if found in "{;" else f"'{escape_controls(found)}'"
        tag = _TAG_AFTER.match(text, at)  # (a record pasted after the last one's marker: `… *[Game "tablut"]`)
        own_line = not text[text.rfind("\n", 0, at) + 1 : at].strip()  # (a file's text parsed as one record: h72c)
        next_record = (
            ""
            if not tag
            else f": {escape_controls(tag[0])} begins the next record, and a text of several is read record by record"
            if own_line
            else f": a record's tags start on a line of their own, so {escape_controls(tag[0])} begins none"
        )
        glued = _MARKED_PLY.search(text, 0, at) if not tag else None  # (h76b: a backgammon book's hit, `5/11*`)
        marked = f": the * written against {glued[1]} is that marker, and a ply carries no *" if glued else ""
        return SyntaxProblem(
            f"found {what} after the result marker, which ends the record{next_record}{marked}", row, column, found
        )
    if found == "{":
        return SyntaxProblem("this comment is never closed with '}'", row, column, found)
    if found == "[" and "TAG" in accepted:
        line = text[at : at + 80].split("\n")[0]
        quoted = (
            ' (a " inside a value is written \\")'
            if _QUOTE_INSIDE.match(line)
            else " (its value runs onto the next line, as an e-mail wraps a long one: a tag is written on one line)"
            if WRAPPED_TAG.match(text, at)
            else ""
        )
        return SyntaxProblem(f"{UNWRITTEN_TAG}{quoted}{misnamed(line)}: {line}", row, column, line)
    listed = ", ".join(expected[:-1]) + (" or " if len(expected) > 1 else "") + expected[-1] if expected else "nothing"
    said = f"found '{escape_controls(found)}', expected {listed}"
    if text[at + len(found) :].strip():
        return SyntaxProblem(said, row, column, found)
    cut = CutShort(said + _variation_unclosed(text, offset), row, column, found)
    cut.span = (ply_start(text, at, game), at + len(found))
    return cut


def ply_start(text: str, at: int, game: str) -> int:
    """Where the ply that stands at `at` begins: in a game of dice, at its roll (`52: 6/8 7/`, a comment
    between its plays too; not the dice of a > group, `>54:`); and before the move number that stands before it."""
    start = at
    rules = GAMES.get(game)
    plain = blanked(text[:at])  # (a roll or a dot in a comment is none)
    groups = {group.end() for group in rules.leftover_roll.finditer(plain)} if rules and rules.leftover_roll else set()
    rolls = [roll for roll in rules.roll.finditer(plain) if roll.end() not in groups] if rules and rules.roll else []
    if rolls and not _BETWEEN_PLIES.search(plain, rolls[-1].end()):
        start = rolls[-1].start()
    number = _NUMBER_BEFORE.search(text, 0, start)
    return number.start() if number else start


_SQUARE_LIKE = re.compile(r"(?<![a-z])x?([a-z][0-9]{1,3})(?![0-9])")  # a square, after a capture's x if any
_SQUARE_TERMINAL = re.compile(r"^SQUARE: /(.+)/$", re.M)  # a grammar's squares (inlined in its plies by Lark)
_TAG_AFTER = re.compile(rf"{TAG_BEFORE_NAME}{TAG_NAME}{BLANK}*{TAG_VALUE}{BLANK}*\]")  # a tag, as a tag line writes it
_QUOTE_INSIDE = re.compile(r'\[\s*[A-Za-z]\w*\s+"(?:[^"\n\[]*"){2,}\s*(?:\]|$)')  # [White "O"Brien"] (no [: [A "x" [B)
_ROLL_LIKE = re.compile(r"[0-9]-?[0-9]:")  # what a hand writes as a roll of two dice
_ROLL_PARTED = re.compile(r"[1-6][^\w\s:/-][1-6]:")  # its dice parted otherwise: 6,3: 6–3: (not 5/1:, a play and a
# colon as like)
_ONE_DIE = re.compile(r"[1-6]:")  # one die alone
_MARKED_PLY = re.compile(r"(?<![^\s(){}\[\];])([^\s(){}\[\];]+)\*[ \t\r\n]*\Z")  # a word written against the
# marker `*`, then blanks: a text's end; from a word's start alone (review81: each start of a run of 50,000 Ctrl-Z
# scanned it, 33 s)
_PLAY_LIKE = re.compile(r"[0-9]+(?:/(?:[0-9]+|off))+")  # a play of a game of dice: 25/off, 0/6
_NEXT_WORD = re.compile(r"[ \t\r\n]*([^\s(){}\[\];]+)")  # the word that follows, after blanks
_COMMENT_NEXT = re.compile(r"[ \t\r\n]*(?:\{[^}]*\}|;[^\n]*(?:\n|\Z))")  # a comment that follows, after blanks
_PARTED_BEFORE = re.compile(  # a roll, the play of one die (or none, --), a comment ({…} or ;…) or a variation, blanks:
    # a text's end
    r"[0-9]-?[0-9]:[ \t\r\n]*([0-9]+/(?:[0-9]+|off)|--)[ \t\r\n]*(?:\{[^}]*\}|;[^\n]*\n|(\([^()]*\)))[ \t\r\n]*\Z"
)
_WORD_END = " \t\r\n(){}[];"  # what ends a word, as _describe reads what it found
_BETWEEN_PLIES = re.compile(r"[.()]")  # what a ply does not hold outside its comments: a move number's dot, a variation
_NUMBER_BEFORE = re.compile(r"(?<!\S)[0-9]+\.+\s*\Z")  # a move number (and blanks) that ends a text


@cache
def _squares(game: str) -> tuple[re.Pattern[str], str] | None:
    """The game's squares (its grammar's `SQUARE: /…/`) and the last one of its largest board
    (`i9`); None for a game that has no squares (Laquet's points)."""
    written = _SQUARE_TERMINAL.search(grammar_text(game))
    if written is None:
        return None
    square = re.compile(written[1])
    files = [file for file in "abcdefghijklmnopqrstuvwxyz" if square.fullmatch(f"{file}1")]
    ranks = [rank for rank in range(1, 100) if square.fullmatch(f"a{rank}")]
    return square, f"{files[-1]}{ranks[-1]}"


def _misread_ply(error: UnexpectedInput, text: str, offset: int, game: str) -> SyntaxProblem | None:
    """The syntax error of a word that is no ply for a reason it shows (`_off_the_board`,
    `_misrolled`), said so at the word's start, or of a gap as a transcriber marks it (`_GAP`) or what
    the game refuses after a ply (`Game.refused_after`), said so where the parser stopped; None for any other (and past the
    result marker)."""
    at = error.pos_in_stream
    if at is None or at_the_end(error) or _after_the_result(error):
        return None
    start = at
    while start > 0 and text[start - 1] not in _WORD_END and at - start < 40:
        start -= 1
    end, found = _word_end(text, at, start), text[at : _word_end(text, at, at)]
    word, rules = text[start:end], GAMES.get(game)
    if (gap := _GAP.match(text, at)) and not dots_apart(text, at):  # (before the game's say: `5/9 ...` is a gap,
        # not a Laquet play's full stop; `1. ...` a move number's dots: slips.slip_fixes)
        return SyntaxProblem(f"found '{gap[0]}': {_NO_GAP}", *row_column(text, at, offset), gap[0])
    refused = refused_after_annotations(text[:at], found, game) or (  # (the whole ply when it has its roll)
        rules and rules.refused_after(_word_before(text, at), found)
    )
    if refused:
        return SyntaxProblem(f"found '{escape_controls(found)}': {refused}", *row_column(text, at, offset), found)
    off = _off_the_board(word, game)
    reordered = rules is not None and any(begins < start for begins, _, _ in rules.reordered_plies(text, start))
    why = off or _off_the_points(word, game) or _misrolled(word, game, text[end:], reordered)
    why = why or _parted(word, text[:start], game)
    why = why or _numbered_otherwise(word, text, game) or _doubted(word, text[start - 1 : start] + text[end : end + 1])
    if why is None:
        return None
    said, after = f"found '{escape_controls(word)}': {why}", text[end:].split()
    if (
        why not in (_NO_PLAYS, _NO_GROUP_PLAYS) or after[1:] or (after and _MARKER.fullmatch(after[0]))
    ):  # (not cut: `31: *`)
        return (OffBoard if off else SyntaxProblem)(said, *row_column(text, start, offset), word)
    cut = CutShort(said + _variation_unclosed(text, offset), *row_column(text, start, offset), word)  # `31: 5/`
    cut.span = (ply_start(text, end, game), len(text.rstrip()))
    return cut


def _numbered_otherwise(word: str, text: str, game: str) -> str | None:
    """Why a move number in Roman numerals (`IV.`; in lowercase, `iv.`, where it is no square of the
    record's board: `lowercase_numeral`), or a chapter of the source numbered so, does not read: a move
    number is written in digits, and a chapter goes in a comment; else None."""
    numeral = arabic_number(word) or lowercase_numeral(word, text, game)
    if numeral is None:
        return None
    return (
        f"a move number is written in digits, {numeral}, not in Roman numerals"
        f" (a chapter or section of the source numbered {word} goes in a comment: {{ {word} }})"
    )


_DOUBT = "say the doubt in a comment after the ply ({ reading uncertain }; docs/notation.md §3)"


def _doubted(word: str, around: str) -> str | None:
    """Why a word with a `?` of doubt (`doubted`) where the notation takes none does not read (`128?`,
    `2.?`, `e2-f?`, `(?)`: `around`, the characters either side of it): what to write, and the doubt in a
    comment; else None (a suffix alone, `?`, is written apart from its ply: the slips join it)."""
    if not doubted(word) or SUFFIX.fullmatch(word) and around != "()":
        return None
    meant = undoubted(word)
    if meant and re.fullmatch(r"[0-9]+\.+", meant):
        return f"a move number takes no '?': write {meant} and {_DOUBT}"
    return (
        "a '?' marks no doubt in a ply or a move number: write what the source most likely shows, and "
        f"{_DOUBT}; a ? straight after a ply is the annotation 'a poor move'"
    )


def _word_end(text: str, at: int, start: int) -> int:
    """Where the word that goes on at `at` ends, 40 characters after `start` at most."""
    end = at
    while end < len(text) and text[end] not in _WORD_END and end - start < 40:
        end += 1
    return end


def _word_before(text: str, at: int) -> str:
    """The word that ends at `at`, or before the blanks or line ends there: its last 40
    characters at most, after an ellipsis when it is longer."""
    end = at
    while end > 0 and text[end - 1] in " \t\r\n" and at - end < 40:
        end -= 1
    start = end
    while start > 0 and text[start - 1] not in _WORD_END and end - start < 40:
        start -= 1
    cut = start > 0 and text[start - 1] not in _WORD_END
    return ("…" if cut else "") + text[start:end]


def _off_the_board(word: str, game: str) -> str | None:
    """A square of `word` that no board of the game has (`j4-j7`, or `a4-a10`, where the parser
    stops at `0`, in Tablut), said as formats.tafl says it."""
    squares = _squares(game)
    if squares is None:
        return None
    square, last = squares
    off = next((found[1] for found in _SQUARE_LIKE.finditer(word) if not square.fullmatch(found[1])), None)
    return None if off is None else f"{off} is not a square of any {game} board (a1–{last})"


_GAP = re.compile(r"\[?(?:\.{3,}|…)\]?(?=[ \t\r\n(){};]|\Z)")  # a gap in the source, as a transcriber marks it
_NO_GAP = f"a record has no mark for a gap in its source: {GAP_KEPT_APART} (docs/slips.md)"
_NO_PLAYS = "a roll is followed by its plays, or -- when none can be played"
_GROUP_PLAYS = "the dice of a > group are followed by their plays"
_NO_GROUP_PLAYS = (
    f"{_GROUP_PLAYS}: the opponent's play of each die left (63: 10/16 >3: 6/9), or -- when none can be played"
)
_UNREAD = (
    "a roll writes both dice; for a die the source does not show, the one its plays show (and the doubt in a comment)"
)


def _misrolled(word: str, game: str, after: str, reordered: bool) -> str | None:
    """In a game of dice, a roll of `word` with a face no die has (`71:`) or none shown (`6?:`), or with no play after it
    (`reordered`: its plays written before it, which the game's slips write after it),
    the dice of a `>` group written before their `>` (`3>:`), or a group's dice (`>3:`) whose plays `after` them
    show why they do not read
    (`_no_plays`; else None: the group itself may be what stands where none may)."""
    rules = GAMES.get(game)
    if rules is None or rules.roll is None:
        return None
    if rules.leftover_roll and ">" in word[1:] and rules.leftover_roll.fullmatch(moved := ">" + word.replace(">", "")):
        return f"the dice of a > group are written after its >: {moved}"  # (`3>:`, `54:>`)
    if rules.leftover_roll and (group := rules.leftover_roll.match(word + after)):
        return _group_without_plays((word + after)[group.end() :], game)
    if _ROLL_LIKE.fullmatch(word) and rules.roll.fullmatch(word) is None:
        faces = [face for face in "0123456789" if rules.roll.fullmatch(f"{face}{face}:")]
        return f"a die shows {faces[0]} to {faces[-1]}"
    if rules.unread_roll and rules.unread_roll.fullmatch(word):
        return _UNREAD
    if _ROLL_PARTED.fullmatch(word):  # (h76b: `6,3:`, `6–3:`, and `6:`)
        return f"a roll is written as its two dice and a colon, as {word[0]}{word[-2]}: or {word[0]}-{word[-2]}:"
    if _ONE_DIE.fullmatch(word) and rules.leftover_roll:
        return f"a roll is written as its two dice and a colon (63:, 6-3:); a die left over, in a > group: >{word}"
    if not _ROLL_LIKE.fullmatch(word):
        return None
    if reordered:  # its plays written before it (`7/13 10/16 66:`), as a source writes them
        return f"{_NO_PLAYS}: a ply writes its roll first, and the plays before it are written after it"
    if rules.leftover_roll and rules.leftover_roll.match(after.lstrip(" \t\r\n")):  # (`66: >6: 3/9 9/15`)
        return f"{_NO_PLAYS}, and the > group of the dice the opponent plays comes after them"
    return _no_plays(_NO_PLAYS, after, game) or _NO_PLAYS


def _group_without_plays(after: str, game: str) -> str | None:
    """Why a `>` group's dice do not read, with what comes `after` them: no play at all (h73b: `63: 15/18 >6: *`), or
    one that shows it (`_no_plays`); None after a play (the group itself may stand where none may: `1. >6: 6/9`)."""
    played, said = _NEXT_WORD.match(after), _no_plays(_GROUP_PLAYS, after, game)
    return said if said or (played and _PLAY_LIKE.fullmatch(played[1])) else _NO_GROUP_PLAYS


def _no_plays(why: str, after: str, game: str) -> str | None:
    """Why a game of dice's dice are not followed by their plays (`why`), where what comes `after`
    them shows it: a comment that parts them from their plays (`64: {…} 5/11 5/9`, `64: ; …`⏎`5/11 5/9`), a first
    play that names a point the board lacks (`25/off`), or one written otherwise (`18/o`); None where it does not."""
    if comment := _COMMENT_NEXT.match(after):
        played = _NEXT_WORD.match(after, comment.end())  # (a comment followed by no play is no parting)
        if played and _PLAY_LIKE.fullmatch(played[1]):
            return "a comment goes after the ply, not between its dice and their plays"
    play = _NEXT_WORD.match(after)
    if play is None:
        return None
    if off := _off_the_points(play[1], game):
        return f"{why}, and {play[1]} is none: {off}"
    rules, written = GAMES.get(game), play[1].rstrip(",.;")
    mended = rules.mended_ply(hyphened(written)) if rules else written
    if mended != written and _PLAY_LIKE.fullmatch(mended):  # (h76b: `16/0`, `16/Off`, `5-11`, which the slips mend)
        return f"{why}, and {written} is none: it is written {mended}"
    tried = _PLAY_TRIED.fullmatch(play[1]) and not _MARKER.fullmatch(play[1])  # (not `1/2-1/2`: review73)
    if tried and not _PLAY_LIKE.fullmatch(play[1].lower().rstrip(",.;")):  # (h73b: `18/o`, `6//8`; `14/OFF,` the
        # slips mend)
        return f"{why}, and {play[1]} is none: a play is written FROM/TO, a point to a point or off (5/11, 19/off)"
    return None


_PLAY_TRIED = re.compile(r"[0-9]+/\S*[^/\s]")  # a word a play was meant as, its slash written (not `6/`, `5/11/`:
# a play cut short, or one the slips join to the next word)


def _parted(word: str, before: str, game: str) -> str | None:
    """Why a play of a game of dice, or a `>` group's dice (`word`), does not read after the text
    `before` it, when a comment or a variation parts it from the play of its roll's other die (`64: 5/11 {…} 5/9`,
    `41: 13/14 {…} >4:`, `64: 5/11 (…) 5/9`): a ply is one turn, and its comment and variations follow it
    (NOTATION.md §3); else None (a play after a ply that played both dice, `64: 5/11 5/9 {…} 5/9`, is no play of
    that ply)."""
    rules, parted = GAMES.get(game), _PARTED_BEFORE.search(before)
    group = rules is not None and rules.leftover_roll is not None and rules.leftover_roll.fullmatch(word)
    if parted is None or not (group or _PLAY_LIKE.fullmatch(word) and parted[1] != "--"):  # (h76b: `65: -- {…} >65:`)
        return None
    where, rest = ("before its > group", " …") if group else ("between its plays", "")
    kind, held = ("a variation", "(…)") if parted[2] else ("a comment", "{…}")
    return f"{kind} goes after the whole ply, not {where}: {parted[1]} {held} {word} is written {parted[1]} {word}{rest} {held}"


def _off_the_points(word: str, game: str) -> str | None:
    """In a game of dice, a point of the play `word` that its board lacks (`25/off`, `0/3`; a last
    point 0 is a bear-off, which the game's slips mend)."""
    rules = GAMES.get(game)
    if rules is None or not rules.points or not _PLAY_LIKE.fullmatch(word):
        return None
    points = re.findall(r"[0-9]+", word.removesuffix("/0"))
    off = next((point for point in points if whole_number(point, 1, rules.points) is None), None)
    return None if off is None else f"{off} is not a point of the board (1–{rules.points})"


def _result_in_a_comment(text: str, offset: int) -> str:
    """Where a `;` comment holds a result marker (`5/9; 52: 6/8 *`, `;` written as a separator),
    a note that says so; else nothing."""
    for skipped in NOT_MOVETEXT.finditer(text):
        if skipped[0].startswith(";") and (marker := _MARKER.search(skipped[0])):
            line = offset + text.count("\n", 0, skipped.start()) + 1
            return f"; the ';' on line {line} begins a comment to the end of the line, and the {marker[0]} there is part of it"
    return ""


def _tags_ended_by_a_comment(text: str, offset: int) -> str:
    """Where the movetext holds comments alone, the last one right above the lines the record was cut
    at (one written among the tags ends them, NOTATION.md §1: the tag lines after it begin another
    record), a note that says so; else nothing (a blank line below it: written below the tags)."""
    comments = [skipped for skipped in NOT_MOVETEXT.finditer(text) if skipped[0][0] in "{;"]
    if not comments or _TAG_LEFT.sub("", NOT_MOVETEXT.sub("", text)).strip():
        return ""
    if _BLANK_LINE.search(text, comments[-1].end()):
        return ""
    line = offset + text.count("\n", 0, comments[0].start()) + 1
    return (
        f"; the comment on line {line} ends the record's tags, and a tag after it begins another record"
        " (a comment goes below the tags)"
    )


_TAG_LEFT = re.compile(r"\[[ \t]*[A-Za-z]\w*[ \t]*\]")  # a tag line without its value (NOT_MOVETEXT's)
_BLANK_LINE = re.compile(r"\n[ \t]*\n")


def _variation_unclosed(text: str, offset: int) -> str:
    """Where a variation is still open at the end of the text (a result marker would not end the
    record there), a note that says where the innermost begins, and how many around it are open too; else nothing."""
    opened = open_variations(text)
    if not opened:
        return ""
    line, column = row_column(text, opened[-1], offset)
    around = {1: "", 2: " (nor is the one around it)"}.get(len(opened), f" (nor are the {len(opened) - 1} around it)")
    return f"; the variation begun at line {line}, column {column} is not closed with ')'{around}"


_MARKER = re.compile(r"(?<![\w/*-])(?:1-0|0-1|1/2-1/2|\*)(?![\w/*-])")  # a result marker, as a word (not **emphasis**)


def _variation_open(before: str) -> bool:
    """Whether a variation is open at the end of `before` (the LALR tables accept ')' where
    none is open, and a result marker inside one)."""
    return bool(open_variations(before))


def open_variations(before: str) -> list[int]:
    """Where each variation still open at the end of `before` begins (its `(`), the outermost first;
    a `)` where none is open closes none."""
    opened: list[int] = []
    for bracket in re.finditer(r"[()]", blanked(before)):
        if bracket[0] == "(":
            opened.append(bracket.start())
        elif opened:
            opened.pop()
    return opened
