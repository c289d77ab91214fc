"""Reading records: split a stream into record texts, then parse each one.

Splitting is a cheap line scan for tag sections (DESIGN.md), so a huge file
streams record by record and a bad record cannot swallow the next one.
Parsing uses the game's Lark grammar (LALR) with the model built while parsing.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from functools import cache
from itertools import chain
from typing import Iterable, Iterator

from lark import Lark, Token, Transformer
from lark.exceptions import UnexpectedEOF, UnexpectedInput, UnexpectedToken

from lusoria.grammar import grammar_text
from lusoria.validator import games
from lusoria.notation.model import Line, Ply, Record
from lusoria.notation.numbers import whole_number
from lusoria.notation.plies import shift_rows, split_run

MAX_NAG = 255  # as in PGN
MAX_TOKEN = 1 << 20  # characters in one token: a tag, a comment, a number (docs/robustness.md)
_TOKEN_PIECES = re.compile(r'\{[^}]*\}?|;[^\n]*|"[^"\n]*"?|[^\s{};"]+')  # roughly the lexer's tokens
_BLANKS = re.compile(r"\s+")


@dataclass(slots=True)
class RecordText:
    """The text of one record and where it stands in its source."""

    text: str
    line: int = 1  # of its first line in the source
    index: int = 0  # 0-based position among the source's records
    path: str = ""
    format: str = "lgn"  # the source's format (lusoria.formats); text is then the game as written there
    parsed: "Record | SyntaxProblem | None" = None  # what a reader of another format made of it


class SyntaxProblem(Exception):
    """A record that does not follow the notation (rule `syntax` or `tag`)."""

    def __init__(self, message: str, line: int | None, column: int | None, text: str = "", rule: str = "syntax"):
        super().__init__(message)  # a place Lark leaves unset (None) counts as 0
        self.message, self.line, self.column, self.text, self.rule = message, line or 0, column or 0, text, rule


def known_games() -> tuple[str, ...]:
    """The games there are (lusoria.validator.games, the one registry)."""
    return games.known_games()


# -- splitting ---------------------------------------------------------------

# At the start of a line: a tag line, or movetext (anything else but blanks and % lines).
_TAG_LINE = r'[ \t]*\[[ \t]*[A-Za-z][A-Za-z0-9_]*[ \t]+"'
_LINE_START = re.compile(rf'^(?:(?P<tag>{_TAG_LINE})|(?P<move>(?!%)[ \t]*\S))', re.M)
_NEXT_TAG = re.compile(rf"^{_TAG_LINE}", re.M)
_MOVETEXT = re.compile(rf"^(?!{_TAG_LINE})(?!%)[ \t]*\S", re.M)


def split_records(pieces: Iterable[str], path: str = "") -> Iterator[RecordText]:
    """Cut a stream of text (lines, or larger pieces) into records: a new record starts
    at a tag line that follows movetext. Blank and `%` lines before a record are skipped.
    One regular expression finds the lines that matter, so long movetext costs little."""
    text, index = "", 0
    counted, line = 0, 1  # text[counted] is at the start of line `line`
    start: int | None = None  # where the current record starts in `text`
    movetext = False
    scanned = 0  # text[:scanned]: whole lines already looked at
    for piece in chain(_grouped(pieces), [None]):
        if piece is None:
            end = len(text)
        else:
            text += piece
            end = max(text.rfind("\n") + 1, scanned)  # whole lines only
        position = scanned
        while True:
            if movetext:  # only the next tag line matters: jump to it
                match = _NEXT_TAG.search(text, position, end)
                if match is None or start is None:  # start is set once movetext is met
                    break
                line += text.count("\n", counted, start)
                counted = start
                yield RecordText(text[start:match.start()], line, index, path)
                index += 1
                start, movetext = match.start(), False
            else:
                if start is None:
                    match = _LINE_START.search(text, position, end)
                    if match is None:
                        break
                    start = match.start()
                match = _MOVETEXT.search(text, position, end)  # past the tag section at once
                if match is None:
                    break
                movetext = True
            position = match.end()
        cut = start if start is not None else end  # drop what is yielded or skipped
        line += text.count("\n", counted, cut)
        text, scanned, counted = text[cut:], end - cut, 0
        if start is not None:
            start = 0
    if start is not None and text.strip():
        yield RecordText(text, line + text.count("\n", counted, start), index, path)


def _grouped(pieces: Iterable[str], size: int = 1 << 20) -> Iterator[str]:
    """Pieces joined into pieces of about `size` characters (lines arrive one at a time)."""
    batch: list[str] = []
    total = 0
    for piece in pieces:
        batch.append(piece)
        total += len(piece)
        if total >= size:
            yield "".join(batch)
            batch, total = [], 0
    if batch:
        yield "".join(batch)


# -- the tag section ----------------------------------------------------------

def _tag_parts(parser: Lark) -> str:
    """A tag's parts, its name and value (groups 1, 2), from the grammar's TAG_NAME and TAG_VALUE."""
    name, value = (_terminal(parser, t) for t in ("TAG_NAME", "TAG_VALUE"))
    return rf"\[[ \t]*({name})[ \t]*({value})[ \t]*\]"


@cache
def _tag_pattern() -> re.Pattern[str]:
    """A tag line."""
    return re.compile(rf"^[ \t]*{_tag_parts(_builder_parser(known_games()[0]))}", re.M)


def unquote(value: str) -> str:
    return re.sub(r"\\(.)", r"\1", value[1:-1]) if "\\" in value else value[1:-1]


def scan_tags(text: str) -> dict[str, str]:
    """The tags of a record's text, without parsing its movetext (header scan)."""
    movetext = _MOVETEXT.search(text)
    header = text[:movetext.start()] if movetext else text
    return {m[1]: unquote(m[2]) for m in _tag_pattern().finditer(header)}


# -- parsing -----------------------------------------------------------------

class _Builder(Transformer):
    """Builds the model while the LALR parser reduces (no parse tree)."""

    ply_pattern: re.Pattern[str]  # _Terminals.item, set once the grammar is compiled

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
        for tag in tags:
            parts = _tag_pattern().match(tag)
            assert parts is not None  # the pattern is built from the grammar's TAG
            name, column = parts[1], (tag.column or 0) + parts.start(1)
            if name in named:
                raise SyntaxProblem(f"the tag {name} appears twice", tag.line, column, name, "tag")
            named[name], places[name] = unquote(parts[2]), (tag.line, column)
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
                    raise SyntaxProblem(f"a NAG is $0 to ${MAX_NAG}, not {element[:20]}", element.line,
                                        element.column, str(element[:20]))
                self._last_ply(line, element, "a NAG").nags.append(nag)
        if number is not None:
            raise SyntaxProblem(f"found the move number {number} with no ply after it",
                                number.line, number.column, str(number))
        return line

    def _add_plies(self, line: Line, run: Token, number: Token | None) -> None:
        """Split a run of plies and move numbers (one token) into plies."""
        split_run(line.plies, self.ply_pattern, str(run), 0, len(run), run.line or 0, 1 - (run.column or 0),
                  str(number) if number is not None else None)

    @staticmethod
    def _last_ply(line: Line, token, what: str) -> Ply:
        if not line.plies:
            where = token.plies[0] if isinstance(token, Line) and token.plies else token
            raise SyntaxProblem(f"{what} must follow a ply", getattr(where, "line", 0),
                                getattr(where, "column", 0), str(getattr(where, "text", where)))
        return line.plies[-1]


def _parser_cache(game: str) -> str | bool:
    """Where Lark keeps the game's compiled parser between runs (start-up: building it
    costs more than reading it back): the user's own cache folder, never a shared one,
    since the file is a pickle. Lark checks the grammar's hash on load and rebuilds on any
    mismatch or unreadable file; no cache when the folder cannot be made."""
    folder = os.path.join(os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "lusoria")
    try:
        os.makedirs(folder, mode=0o700, exist_ok=True)
    except OSError:
        return False
    return os.path.join(folder, f"{game}.lark")


@dataclass(frozen=True, slots=True)
class _Terminals:
    """A game's terminals as regular expressions, for what is read without the LALR parser."""

    item: re.Pattern[str]  # blanks, then a move number, or a ply and its suffix (split_run)
    tag: re.Pattern[str]  # blanks, then a tag: its name and value (groups 1, 2)
    result: re.Pattern[str]  # a result marker
    end: re.Pattern[str]  # blanks, a result marker (group 1), blanks (or whitespace), the end of the text

    @classmethod
    def of(cls, parser: Lark) -> _Terminals:
        number, ply, suffix, tag, result, space = (_terminal(parser, name) for name in (
            "MOVE_NUMBER", "PLY", "SUFFIX", "TAG", "RESULT", "WHITESPACE"))
        blanks = r"[ \t\r\n]*+"  # _BLANK, which the other whitespace contains
        return cls(re.compile(rf"{blanks}(?:(?P<number>{number})|(?P<ply>{ply})(?P<suffix>{suffix})?)"),
                   re.compile(rf"{blanks}(?={tag}){_tag_parts(parser)}"), re.compile(result),
                   re.compile(rf"{blanks}({result})(?:{space})?\Z"))


def _terminal(parser: Lark, name: str) -> str:
    return parser.get_terminal(name).pattern.to_regexp()


@cache
def _reading(game: str) -> tuple[Lark, _Terminals]:
    """The game's parser, with the model builder applied while parsing, and its terminals."""
    builder = _Builder()
    parser = Lark(grammar_text(game), parser="lalr", lexer="contextual", start=["record", "ply", "tag_parts"],
                  transformer=builder, cache=_parser_cache(game))
    terminals = _Terminals.of(parser)
    builder.ply_pattern = terminals.item
    return parser, terminals


def _builder_parser(game: str) -> Lark:
    """The game's parser, with the model builder applied while parsing."""
    return _reading(game)[0]


_GAME_TAG = re.compile(r'^[ \t]*\[[ \t]*Game[ \t]+"([^"\\]*)"', re.M)

EXPECTED_NAMES = {  # in the order a message lists them
    "TAG": "a tag",
    "PLIES": "a ply", "MOVE_NUMBER": "a move number", "COMMENT": "a comment", "NAG": "a NAG",
    "LPAR": "a variation", "RPAR": "')'", "RESULT": "a result marker (1-0, 0-1, 1/2-1/2, *)",
}


def parse_record(source: RecordText | str) -> Record:
    """Parse one record's text; raises SyntaxProblem with file-relative positions."""
    if isinstance(source, str):
        source = RecordText(source)
    if isinstance(source.parsed, SyntaxProblem):
        raise source.parsed
    if source.parsed is not None:
        return source.parsed
    offset = source.line - 1
    game = _GAME_TAG.search(source.text)
    if game is None:
        raise SyntaxProblem("the record has no Game tag", source.line, 1, "", "tag")
    name = game[1].lower()
    if name not in known_games():
        raise SyntaxProblem(f"unknown game '{game[1]}' (known: {', '.join(known_games())})",
                            offset + source.text.count("\n", 0, game.start(1)) + 1,
                            game.start(1) - source.text.rfind("\n", 0, game.start(1)), game[1], "tag")
    if len(source.text) > MAX_TOKEN:
        _refuse_long_tokens(source.text, offset)
    parser, terminals = _reading(name)
    record = _read_plain(source.text, offset, terminals)
    if record is None:
        try:
            parsed = parser.parse(source.text, "record")
            assert isinstance(parsed, Record)  # made by the builder while parsing
            record = parsed
        except SyntaxProblem as problem:
            problem.line += offset
            raise
        except UnexpectedInput as error:
            raise _describe(error, source.text, offset) from None
        _shift_lines(record, offset)
    if "Game" not in record.tags:  # the Game tag line found stands inside a comment
        raise SyntaxProblem("the record has no Game tag", source.line, 1, "", "tag")
    record.line = source.line
    return record


def _read_plain(text: str, offset: int, terminals: _Terminals) -> Record | None:
    """The record read without the LALR parser, as it reads it, when the text holds nothing
    but tags, blanks, move numbers, plies and the result marker (most records; lines counted
    from `offset`); None for any other text, and for one that is not valid."""
    tags: dict[str, str] = {}
    places: dict[str, tuple[int, int]] = {}
    row, row_start, position = offset + 1, 0, 0
    while (tag := terminals.tag.match(text, position)) is not None:
        name, at = tag[1], tag.start(1)
        if name in tags:
            return None
        row, row_start = _row(text, position, at, row, row_start)
        tags[name], places[name] = unquote(tag[2]), (row, at - row_start + 1)
        position = tag.end()
    plies: list[Ply] = []
    end, number = split_run(plies, terminals.item, text, position, len(text), row, row_start, None)
    result = terminals.end.match(text, end)
    if result is None or number is not None or terminals.result.search(text, position, end):
        return None  # the parser lexes a result marker first wherever a token starts
    row, row_start = _row(text, position, result.start(1), row, row_start)
    return Record(tags, Line(plies), result[1], offset + 1, places, row, result.start(1) - row_start + 1)


def _row(text: str, start: int, at: int, row: int, row_start: int) -> tuple[int, int]:
    """The line of `at` and the offset where it starts, from those of `start` (before it)."""
    rows = text.count("\n", start, at)
    return (row + rows, text.rfind("\n", start, at) + 1) if rows else (row, row_start)


def _refuse_long_tokens(text: str, offset: int) -> None:
    """SyntaxProblem for a token longer than MAX_TOKEN, found before the lexer meets it."""
    for piece in _TOKEN_PIECES.finditer(text):
        if piece.end() - piece.start() > MAX_TOKEN:
            start = piece.start()
            raise SyntaxProblem(f"a token of {piece.end() - start:,} characters; the longest allowed is "
                                f"{MAX_TOKEN:,}", offset + text.count("\n", 0, start) + 1,
                                start - text.rfind("\n", 0, start), text[start:start + 20])


def _describe(error: UnexpectedInput, text: str, offset: int) -> SyntaxProblem:
    """A plain-words syntax error: what was found, what was expected."""
    if isinstance(error, UnexpectedEOF) or (isinstance(error, UnexpectedToken) and error.token.type == "$END"):
        lines = text.rstrip().split("\n")
        return SyntaxProblem("the record ends without a result marker (1-0, 0-1, 1/2-1/2, *)",
                             offset + len(lines), len(lines[-1]) + 1)
    accepted = getattr(error, "accepts", None) or getattr(error, "expected", None) or getattr(error, "allowed", None) or ()
    at, row, column = error.pos_in_stream or 0, offset + (error.line or 0), error.column or 0
    inside = _variation_open(text[:at])
    expected = [words for name, words in EXPECTED_NAMES.items()
                if name in accepted and name != ("RESULT" if inside else "RPAR")]
    word = re.compile(r"[^\s(){}\[\];]{0,40}").match(text, at)  # matches, if only the empty string
    found = (word[0] if word else "") or text[at]
    if found == "{":
        return SyntaxProblem("this comment is never closed with '}'", row, column, found)
    if found == "[" and "TAG" in accepted:
        line = text[at:at + 80].split("\n")[0]
        return SyntaxProblem(f"this tag is not written [Name \"value\"]: {line}", row, column, line)
    listed = ", ".join(expected[:-1]) + (" or " if len(expected) > 1 else "") + expected[-1] if expected else "nothing"
    return SyntaxProblem(f"found '{found}', expected {listed}", row, column, found)


_NOT_MOVETEXT = re.compile(r'"(?:\\.|[^"\\\n])*"|\{[^}]*\}|;[^\n]*|^%[^\n]*', re.M)  # tag values, comments


def _variation_open(before: str) -> bool:
    """Whether a variation is open at the end of `before` (the LALR tables accept ')' where
    none is open, and a result marker inside one)."""
    movetext = _NOT_MOVETEXT.sub("", before)
    return movetext.count("(") > movetext.count(")")


def _shift_lines(record: Record, offset: int) -> None:
    """Make line numbers relative to the file rather than to the record."""
    record.result_line += offset
    if not offset:
        return
    record.tag_places = {name: (line + offset, column) for name, (line, column) in record.tag_places.items()}
    shift_rows(record.main, offset)


def read_records(lines: Iterable[str]) -> Iterator[tuple[RecordText, Record | SyntaxProblem]]:
    """Each record of a stream, parsed, or the problem that stopped its parsing."""
    for source in split_records(lines):
        try:
            yield source, parse_record(source)
        except SyntaxProblem as problem:
            yield source, problem
