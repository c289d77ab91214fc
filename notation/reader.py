"""Reading records: split a stream into record texts, then parse each one.

Splitting is a cheap line scan for tag sections (DESIGN.md), so a huge file
streams record by record and a bad record cannot swallow the next one.
Parsing reads a record of tags, move numbers, plies and a result marker (most records)
with the grammar's own terminals as regular expressions, kept between runs in the user's
cache folder; any other record goes to the game's Lark grammar (LALR, notation/lalr.py),
which reads the first kind the same way.
"""

from __future__ import annotations

import json
import re
import sys
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sized
from dataclasses import dataclass, replace
from functools import cache, lru_cache
from itertools import chain, islice, takewhile
from typing import cast

from lusoria.errors import LusoriaError
from lusoria.files import write_file
from lusoria.grammar import grammar_text
from lusoria.notation.model import Line, Ply, Record
from lusoria.notation.numbers import whole_number
from lusoria.notation.plies import split_run
from lusoria.notation.slips import OTHER_QUOTES, slip_fixes, tag_meant
from lusoria.notation.syntax import (
    BLANK,
    TAG_BEFORE_NAME,
    TAG_NAME,
    TAG_VALUE,
    TERMINALS,
    UNWRITTEN_TAG,
    WRAPPED_TAG,
    WRAPPED_VALUE_END,
    LineStart,
    SyntaxProblem,
    Terminals,
    blanked,
    cache_file,
    row_column,
    tag_parts,
    unquote,
)
from lusoria.notation.writer import quote
from lusoria.validator import games
from lusoria.validator.base import Claims, known_names, known_names_holding
from lusoria.validator.diagram import Squares

MAX_TOKEN = 1 << 20  # characters in one token, in every format: a tag, a comment, a number (docs/robustness.md)
LGN_TOKENS = re.compile(r'\{[^}]*\}?|;[^\n]*|"[^"\\\n]*+(?:\\.[^"\\\n]*+)*+"?|[^\s{};"]+')  # roughly the lexer's
# tokens (a tag's value with its escapes \" and \\ is one; possessive: 4 MB of escapes once took 0.7 s)


STDIN_NAME = "<stdin>"  # the path of the records read from standard input
STREAM_NAME = "<stream>"  # the path of the records of a stream without a name (`io.StringIO`: a library's call)

REPR_TEXT = 40  # the characters of a record's text its repr shows


@dataclass(slots=True)
class RecordText:
    """The text of one record and where it stands in its source."""

    text: str
    line: int = 1  # of its first line in the source
    index: int = 0  # 0-based position among the source's records
    path: str = ""
    format: str = "lgn"  # the source's format (lusoria.formats); text is then the game as written there
    parsed: Record | SyntaxProblem | None = None  # what a reader of another format made of it
    problems: tuple[SyntaxProblem, ...] = ()  # what that reader found wrong in the record it read (at plies)
    hint: str = ""  # what its first error adds: how that reader chose a game its file does not name
    before: tuple[str, ...] = ()  # the `%` lines before it that no record holds (its file's first record's)
    heading: str = ""  # the lines above it its format reads it with (a CSV header naming its columns), kept with it
    notes: tuple[str, ...] = ()  # what the reader says of how it read the text: the record's first comments (an
    # lgn record's, once parsed; another format's reader: its notes of lines not read, which its record holds already)
    signature: str = ""  # an e-mail's signature below it, not read (`signature`: its file's last record's), kept
    greeting: str = ""  # an e-mail's prose above it, not read (`prose`: its file's first record's), kept
    tag_follows: bool = False  # an lgn record cut at a tag line, which begins the next record
    placed: tuple[Ply, ...] = ()  # the plies a reader of another format placed before it refused the record
    # (`parsed` a SyntaxProblem: a CSV row's moves before one off the board), which an editor colours
    given: tuple[tuple[str, str], ...] = ()  # tags given for an lgn record with no Game tag (--game, --variant,
    # --rules: `STANDS_IN`), which stand in for those it lacks; its text stays as written
    claims: Claims | None = None  # what that reader read of its main line that only its replay checks (`check`'s):
    # a tafl site's capture lists and whether it states the result (formats/common.py's SiteClaims)

    @property
    def last_line(self) -> int:
        """Its last line in the source (a line after it: what `check` adds, an assumed result)."""
        return self.line + self.text.count("\n")

    def __repr__(self) -> str:
        """Where it stands and how its text begins: a notebook's cell that shows a record, or a
        Report, Verdict or Board that holds one, shows a line, not the whole file it was read from."""
        begins = self.text if len(self.text) <= REPR_TEXT else self.text[: REPR_TEXT - 1] + "…"
        return f"RecordText(path={self.path!r}, line={self.line}, index={self.index}, format={self.format!r}, text={begins!r})"


def known_games() -> tuple[str, ...]:
    """The games there are (lusoria.validator.games, the one registry)."""
    return games.known_games()


# -- splitting ---------------------------------------------------------------

# At the start of a line: a tag line (its value quoted with `"`, or another quote: a slip said), or movetext
# (anything else but blanks and % lines).
_TAG_LINE = rf'{TAG_BEFORE_NAME}([^\s\]"{OTHER_QUOTES}\udc80-\udcff]++)(?:{BLANK}*+["{OTHER_QUOTES}]|{BLANK}++[\udc80-\udcff])'  # its
# name in group 1, written well or not, but of no blank (`[Événement "Ludi"]`, `[Source-MS "…"]`: h80a, the tags after
# it and the movetext were another record; not `[the king's move]`, movetext: review80), its quote a byte not decoded
# too, after a blank (Word's “ in cp1252, 0x93, read as UTF-8: h80c; not `[Bj\xf8rn plays on]`: review80b); possessive, its runs of blanks apart (review80: `[` then 4,000
# blanks, a run three ways, took two minutes)
_LINE_START = LineStart(rf"^(?:(?P<tag>{_TAG_LINE})|(?P<move>(?!%)[ \t]*\S))")
_NEXT_TAG = LineStart(rf"^{_TAG_LINE}")
_TAG_START = LineStart(rf"^{TAG_BEFORE_NAME}({TAG_NAME})")  # a line that starts as a tag, written or not
_MOVETEXT = LineStart(rf"^(?!{TAG_BEFORE_NAME})(?!%)[ \t]*\S")  # (among the tags, any
# line that begins `[` is one of them, written well or not: `[White Elo "1900"]`, whose name holds a blank, review80b;
# movetext never begins so; and so is the end of a value wrapped onto its own line, `Maria"]`: `_movetext_in`)
_TAG_WRITTEN = rf'{TAG_BEFORE_NAME}{TAG_NAME}{BLANK}*(?:{TAG_VALUE}|[{OTHER_QUOTES}][^\]\n"]*[{OTHER_QUOTES}]){BLANK}*\]'  # (quoted
# otherwise too, a slip: `[Game “tablut”]`)
# where a record's movetext begins, for splitting: a line that is no tag line, or one whose tags a move number, a
# result marker, a comment ({ or ;) or what begins as a ply follows (`[Result "*"] 1. a2-a5 *`, `[Game "tablut"] e3-c3 *`:
# the next tag line begins another record)
_MOVETEXT_BEGINS = LineStart(rf"{_MOVETEXT.pattern}|^(?:{_TAG_WRITTEN})+{BLANK}*(?:[0-9*{{;]|[A-Za-z@]?[a-z][0-9])")


def split_records(
    pieces: Iterable[str], path: str = "", given: tuple[tuple[str, str], ...] = (), stopped: Sized = ()
) -> Iterator[RecordText]:
    """Cut a stream of text (lines, or larger pieces) into records, each `given` those tags
    (`RecordText.given`): a new record starts at a tag line that follows movetext (but one a comment quotes: `_quoted_in_comment`). Blank and `%` lines before the first record are no
    record's text: the first keeps its `%` lines apart (`before`), those after a record are its text.
    `stopped`, not empty once the pieces end: they stopped in a line (one too long), whose start the
    last record's text leaves out, no e-mail's closing looked for in it (it was noted one of prose).
    One regular expression finds the lines that matter, so long movetext costs little."""
    text, index = "", 0
    before: list[str] = []  # the `%` lines before the first record
    counted, line = 0, 1  # text[counted] is at the start of line `line`
    start: int | None = None  # where the current record starts in `text`
    movetext = False
    scanned = 0  # text[:scanned]: whole lines already looked at
    greeting, greeted = "", tuple[str, ...]()  # the prose above the first record (`_greeting`), the note of it
    hint = ""  # what the next record's first error adds (`_glued_tags`)
    for piece in chain(_grouped(pieces), [None]):
        if piece is None:
            end = len(text)
        else:
            text += piece
            end = max(text.rfind("\n", len(text) - len(piece)) + 1, scanned)  # whole lines only
        position, held = scanned, None
        while True:
            if movetext:  # only the next tag line matters: jump to it
                match = _NEXT_TAG.search(text, position, end)
                if match is None or start is None:  # start is set once movetext is met
                    break
                quoted = _quoted_in_comment(text, start, match.start(), end, piece is None)
                if quoted is None:  # (read on: whether its comment closes is in what follows)
                    held = match.start()
                    break
                if quoted:
                    position = match.end()
                    continue
                line += text.count("\n", counted, start)
                counted = start
                yield RecordText(
                    text[start : match.start()],
                    line,
                    index,
                    path,
                    before=tuple(before),
                    notes=greeted,
                    greeting=greeting,
                    tag_follows=True,
                    given=given,
                    hint=hint,
                )
                hint = _glued_tags(text[start : match.start()], line)
                index, before, greeting, greeted = index + 1, [], "", ()
                start, movetext = match.start(), False
            else:
                if start is None:
                    match = _LINE_START.search(text, position, end)
                    before += escapes_in(text[position : end if match is None else match.start()])
                    if match is None:
                        break
                    start = match.start()
                    # (start is None only above the first record: a greeting is read there alone)
                    if match["move"] and (found := _greeting(text, start, end)):
                        first, last = (line + text.count("\n", counted, at) for at in (found.start, found.end))
                        greeting, greeted = text[start : found.games], (f"lgn reader: {prose_note(first, last)}",)
                        start = position = found.games
                match = _movetext_in(_MOVETEXT_BEGINS, text, position, end)  # past the tag section at once
                if match is None:
                    break
                movetext = True
            position = match.end()
        cut = start if start is not None else end  # drop what is yielded or skipped
        line += text.count("\n", counted, cut)
        text, scanned, counted = text[cut:], (end if held is None else held) - cut, 0
        if start is not None:
            start = 0
    if start is not None and (text := _before_end_mark(text)).strip():
        first = line + text.count("\n", counted, start)
        whole = whole_lines(text) if stopped else text
        read = RecordText(
            whole, first, index, path, before=tuple(before), notes=greeted, greeting=greeting, given=given, hint=hint
        )
        yield read if stopped else _unsigned(read)


def _before_end_mark(text: str) -> str:
    """`text` without a DOS file's end-of-file mark (Ctrl-Z) among the blanks that end it, nor what follows it: no
    record's text (h80a: a blank there; review80: kept in the record stored, written out again by `query --format
    lgn`), the blanks found from their start alone (`_BLANKS_AT_THE_END`; review81: from each of them, 20 s)."""
    mark = text.find("\x1a", cast(re.Match[str], _BLANKS_AT_THE_END.search(text)).start())
    return text if mark < 0 else text[:mark]


_BLANKS_AT_THE_END = re.compile(r"(?<![\s\x1a])[\s\x1a]*\Z")  # (matches, if only the empty text at the end)


def whole_lines(text: str) -> str:
    """`text` to its last line end: without the start of a line it stops in (one too long)."""
    return text[: text.rfind("\n") + 1]


_GLUED_TAGS = re.compile(  # tags written after a record's result marker, on its line (files of no final line break,
    # joined: h80a, h80c), then blanks to the end of its text
    rf"(?:1-0|0-1|1/2-1/2|\*)[ \t]*((?:\[{BLANK}*{TAG_NAME}{BLANK}+{TAG_VALUE}{BLANK}*\][ \t]*)+)\s*\Z"
)


_GLUED_GAME = re.compile(rf"\[{BLANK}*Game{BLANK}")


def _glued_tags(text: str, line: int) -> str:
    """What the first error of the record after the record `text` (its first line `line`) adds where `text` ends
    with tags written after its result marker, on its line (`…*[Game "laquet"]`: files that end with no line break,
    joined): that they are the next record's, which begins none there (h80a: it was said to have no Game tag,
    nothing more), where the Game tag is among them; "" else."""
    glued = _GLUED_TAGS.search(text, text.rstrip().rfind("\n") + 1)  # (on its last line: a record's split is hot)
    if glued is None or not _GLUED_GAME.search(glued[1]):  # (review80b: only the Game tag's loss is the next record's)
        return ""
    at = line + text.count("\n", 0, glued.start(1))
    return (
        f"; its first tags stand on line {at}, after the result marker of the record before it, where they begin "
        f"no record ({glued[1].strip()}): a record's tags start on a line of their own (files joined that end "
        "with no line break?)"
    )


def _quoted_in_comment(text: str, start: int, at: int, end: int, ended: bool) -> bool | None:
    """Whether the tag line at `at`, in the movetext of the record that starts at `start`, is a line of a `{`
    comment open above it (`{ the folio reads:` then `[Event "Sevilla"] at its top }`): one that a `}` closes
    before any `{` opens another, within MAX_TOKEN characters; else it begins the next record, and a comment left
    open ends there. None when `text[:end]` cannot tell, and more follows (not `ended`)."""
    if text.rfind("{", start, at) <= text.rfind("}", start, at):
        return False
    limit = min(end, at + MAX_TOKEN)
    closed, opened = text.find("}", at, limit), text.find("{", at, limit)
    if closed != -1 or opened != -1:
        return opened == -1 or (closed != -1 and closed < opened)
    return None if not ended and end < at + MAX_TOKEN else False


_SIGNATURE = re.compile(r"^--[ \t]*\r?$", re.M)  # an e-mail's signature line (RFC 3676 "-- ")


def signature(text: str, after: int, first_line: int = 1) -> tuple[int, str] | None:
    """Where the signature of an e-mail pasted with its games starts in `text`: its `-- ` line, the
    first at or after offset `after`, the end of the last game (a `--` line with a game after it is
    none), and the note that says the lines from there on are not read (`text`'s first line being
    `first_line` of its file); None when there is none. Every reader of pasted games asks it."""
    line = _SIGNATURE.search(text, after)
    if line is None:
        return None
    number = first_line + text.count("\n", 0, line.start())
    return (
        line.start(),
        f"the lines from line {number} on are an e-mail's signature (its '-- ' line and after): not read",
    )


PROSE_LINES = 10  # lines of prose above a file's games, at most, that its reader passes over
_LINE = re.compile(r"(?<![^\S\n])[^\n]*\S[^\n]*")  # a line that is not blank, sought from the start of a run of
# blanks alone (review81b: from each of them, a file padded with 100,000 blanks took a minute)
_WORD = re.compile(r"[^\W\d_]{2}")  # what a line of prose holds: a word of letters
_YEAR = re.compile(r"\s*[0-9]{4}\s*")  # a line of prose too: a year alone (`2026` above the games)


@dataclass(frozen=True, slots=True)
class Prose:
    """Lines of prose above a file's games (an e-mail's `Hi Anna,`, `here is our game:`: `prose`) or
    below them (`Cheers,` and a name: `closing`)."""

    start: int  # where its first line starts
    end: int  # where its last line ends (blank lines after it are no prose)
    games: int  # where its reader reads from (prose above) or up to (prose below)


def prose(text: str, after: int, holds_game: Callable[[str], object], end: int | None = None) -> Prose | None:
    """The lines of prose of `text[after:end]` above its first line that `holds_game` (the format's: a
    move, a tag), if any: up to PROSE_LINES lines, blank ones aside, each holding a word and nothing
    of a game. None when there are none, or more, or nothing but prose, or a line of no word (`--`)
    stands before the first game (a signature above the games is none). Every reader of pasted
    games asks it, as it asks `signature`."""
    lines = list(islice(_LINE.finditer(text, after, len(text) if end is None else end), PROSE_LINES + 1))
    found = list(takewhile(lambda line: _is_prose(line[0], holds_game), lines))
    if not found or len(found) == len(lines) or not holds_game(lines[len(found)][0]):
        return None
    return Prose(found[0].start(), found[-1].end(), lines[len(found)].start())


def closing(text: str, start: int, end: int, holds_game: Callable[[str], object]) -> Prose | None:
    """The lines of prose that end `text[start:end]`, the games pasted from an e-mail (its `Cheers,` and
    name), a blank line apart from the last game, if any: up to PROSE_LINES lines, as `prose` reads
    them, a game's title heading its lines (`_closes`: its moves left out) none of them. None when
    there are none, or more, or nothing but prose, or no blank line above them."""
    lines = list(deque(_LINE.finditer(text, start, end), maxlen=PROSE_LINES + 1))  # the last ones alone
    count = len(list(takewhile(lambda at: _closes(text, lines, at, holds_game), reversed(range(len(lines))))))
    if not count or count > PROSE_LINES or count == len(lines):
        return None
    above, first = lines[-count - 1], lines[-count]
    return (
        Prose(first.start(), lines[-1].end(), first.start())
        if text.count("\n", above.end(), first.start()) > 1
        else None
    )


_NUMBER_WORDS = "one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve"
_TITLE = re.compile(rf"[ \t]*[^\W\d_]+(?:[ \t]+[^\W\d_]+)?[ \t]+(?:[0-9]{{1,3}}|{_NUMBER_WORDS})[ \t]*[.:]?\s*", re.I)


def is_title(line: str) -> bool:
    """Whether a line is a game's title: a word or two and a game's number (`Game 2`, `Round two:`; a
    year is none: `Merry Christmas 2026`)."""
    return _TITLE.fullmatch(line) is not None


def _closes(text: str, lines: list[re.Match[str]], at: int, holds_game: Callable[[str], object]) -> bool:
    """Whether `lines[at]`, below the games, may be a line of their closing (`closing`): prose, and no
    title heading lines of its own (a blank line above it), as a game's does; an address below a name
    (`Storgata 12`) is none."""
    line, heads = lines[at], at == 0 or text.count("\n", lines[at - 1].end(), lines[at].start()) > 1
    return _is_prose(line[0], holds_game) and not (heads and is_title(line[0]))


def _is_prose(line: str, holds_game: Callable[[str], object]) -> bool:
    """Whether a line is prose: it holds a word, or is a year alone (`_YEAR`), and nothing that `holds_game`."""
    return bool(_WORD.search(line) or _YEAR.fullmatch(line)) and not holds_game(line)


def prose_note(first: int, last: int, part: str = "greeting") -> str:
    """The note of the lines `first`–`last` of a file, prose (`prose`, `closing`: an e-mail's `part`), not read."""
    lines = f"line {first} holds" if first == last else f"lines {first}–{last} hold"
    return f"{lines} no move (prose: an e-mail's {part}?): not read"


def _unsigned(last: RecordText) -> RecordText:
    """The last record of a file up to an e-mail's closing and signature below its result marker
    (`closing`, `signature`: the first `--` line below it), with the notes that say so ("lgn reader:
    …") and both kept aside (as its `signature`); else as it is."""
    text = last.text
    for end in (*(dashes.start() for dashes in _SIGNATURE.finditer(text)), len(text)):
        closed = closing(text, text.rfind("\n", 0, max(0, end - CLOSING_WINDOW)) + 1, end, _holds_record)
        games = closed.games if closed else end
        if _ends_in_result().search(text, 0, games):
            break
    else:
        return last
    said = [] if closed is None else [prose_note(*_lines_of(text, last.line, closed), "closing")]
    found = signature(text, end, last.line)
    said += [found[1]] if found else []
    notes = (*last.notes, *(f"lgn reader: {note}" for note in said))
    return replace(last, text=text[:games], notes=notes, signature=text[games:]) if said else last


def _lines_of(text: str, first_line: int, found: Prose) -> tuple[int, int]:
    """The first and last line of `found` in `text`, whose first line is `first_line` of its file."""
    return first_line + text.count("\n", 0, found.start), first_line + text.count("\n", 0, found.end)


CLOSING_WINDOW = 4096  # characters above an lgn record's end read for its closing (`_unsigned`), at least


_RECORD_LIKE = re.compile(r"^[ \t]*[\[;%(]|[{}]|[0-9]|(?<!\S)\*(?!\S)")  # a tag, a comment, a number, `*`


def _greeting(text: str, start: int, end: int) -> Prose | None:
    """The lines of prose above a file's first record, starting at `start`, when a tag line follows
    them (`prose`: an e-mail's `Hi Anna,` pasted above `[Game "laquet"]`); a line that holds a
    ply of any game, a digit, a brace anywhere, or starts as a tag, a comment or a variation is never
    prose (`_holds_record`)."""
    found = prose(text, start, _holds_record, end)
    return found if found and _NEXT_TAG.match(text, found.games) else None


def _holds_record(line: str) -> bool:
    """Whether a line holds what a record holds, so that it is no prose (`_greeting`, `_unsigned`): a
    ply of any game, a digit (a result, a move number), a brace anywhere (a comment's), `*` standing
    alone, or, at its start, `[`, `;`, `%` or `(` (a tag, a comment, an escape, a variation)."""
    return bool(_RECORD_LIKE.search(line)) or any(is_ply(game, word) for word in line.split() for game in known_games())


@cache
def _ends_in_result() -> re.Pattern[str]:
    """A text that ends in a result marker (the grammar's, every game's), blanks after it."""
    return re.compile(rf"(?<!\S)(?:{_terminals(games.any_game()).result.pattern})\s*\Z")


def result_written(text: str) -> str | None:
    """The result marker a record's text ends in (what a record that does not parse wrote), else None: not one
    in a comment (one never closed too) or an escape line, which is none (validate says so of a `;` comment's)."""
    found = _ends_in_result().search(blanked(text).partition("{")[0])
    return found[0].strip() if found else None


def escapes_in(skipped: str) -> list[str]:
    """The `%` lines of text that holds only them and blank lines."""
    return [line for line in skipped.split("\n") if line.startswith("%")]


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


@cache
def _tag_pattern() -> re.Pattern[str]:
    """A tag line."""
    return re.compile(rf"^{BLANK}*{tag_parts(_terminal_patterns(games.any_game()))}", re.M)


def scan_tags(text: str) -> dict[str, str]:
    """The tags of a record's text, without parsing its movetext (header scan); of a tag written
    twice, its first value, as the parser reads it. Those of the last text scanned are kept: a
    record that does not parse is asked its game, variant and result in turn (a tag value of 4 MB
    was scanned four times by `validate`)."""
    return dict(_scanned_tags(text))


@lru_cache(maxsize=1)
def _scanned_tags(text: str) -> dict[str, str]:
    tags: dict[str, str] = {}
    for tag in _tag_pattern().finditer(header_of(text)):
        tags.setdefault(tag[1], unquote(tag[2]))
    return tags


def last_tag_line(text: str) -> int:
    """Where the last tag line of a record's tag section starts (0: it has none)."""
    return max((tag.start() for tag in _NEXT_TAG.finditer(header_of(text))), default=0)


def header_of(text: str) -> str:
    """A record's text up to its movetext: its tag lines (and blank and % lines)."""
    movetext = _movetext_in(_MOVETEXT, text)
    return text[: movetext.start()] if movetext else text


def _movetext_in(pattern: LineStart, text: str, position: int = 0, end: int = sys.maxsize) -> re.Match[str] | None:
    """Where `pattern` finds movetext beginning (`_MOVETEXT`, `_MOVETEXT_BEGINS`), past each line that ends a tag's
    value an e-mail wrapped onto it, the tag left open on the line before it (`WRAPPED_TAG`: `[White "Anna`⏎`Maria"]`,
    h80c: the rest of the value began the movetext, and the next tag line another record); a line alone that ends
    `"]` is movetext (review81: `* ; Freja wrote "]` took the next record in)."""
    while (found := pattern.search(text, position, end)) is not None and _wrapped_value_ends(text, found.start()):
        position = found.end()
    return found


_VALUE_END = re.compile(WRAPPED_VALUE_END, re.M)


def _wrapped_value_ends(text: str, at: int) -> bool:
    """Whether the line at `at` ends the value of a tag its line before left open (WRAPPED_TAG)."""
    if at == 0 or not _VALUE_END.match(text, at):
        return False
    above = text.rfind("\n", 0, at - 1) + 1
    indent = len(text[above:at]) - len(text[above:at].lstrip(" \t"))  # (as a tag line may be: review81b)
    return WRAPPED_TAG.match(text, above + indent) is not None  # (its value's line break: `at`'s)


# -- parsing -----------------------------------------------------------------


@cache
def _terminal_patterns(game: str) -> dict[str, str]:
    """The game's terminals (lalr.terminal_patterns), read back from the cache folder while
    the grammar they were made from is the same, so that start-up need not load Lark."""
    grammar, path = grammar_text(game), cache_file(game, "terminals.json")
    kept = _kept_terminals(path, grammar) if path else None
    if kept is not None:
        return kept
    from lusoria.notation.lalr import terminal_patterns

    terminals = terminal_patterns(game)
    if path:
        try:
            write_file(path, json.dumps({"grammar": grammar, "terminals": terminals}))  # whole, for a reader
        except OSError:
            pass  # made again next time
    return terminals


def _kept_terminals(path: str, grammar: str) -> dict[str, str] | None:
    """The terminals kept at `path` when they were made from `grammar`; None when they are
    not kept yet, cannot be read, or come from another grammar."""
    try:
        with open(path, encoding="utf-8") as stored:
            kept = json.load(stored)
    except (OSError, ValueError):
        return None
    terminals = kept.get("terminals") if isinstance(kept, dict) and kept.get("grammar") == grammar else None
    if (
        not isinstance(terminals, dict)
        or sorted(terminals) != sorted(TERMINALS)
        or not all(isinstance(pattern, str) for pattern in terminals.values())
    ):
        return None
    return terminals


@cache
def _terminals(game: str) -> Terminals:
    return Terminals.of(_terminal_patterns(game))


@cache
def _ply_pattern(game: str) -> re.Pattern[str]:
    return re.compile(_terminal_patterns(game)["PLY"])


def is_ply(game: str, text: str) -> bool:
    """Whether `text` is one ply of `game` as its grammar writes it (its `PLY`: no move number,
    no suffix such as `!`), legal or not: what a reader of another format hands over as a ply
    (lusoria.formats.contract). A tafl game's `Game.play` reads more, the ply of any tafl game
    (Tablut's `+` and `--`, a berserk `=`, a square up to s19: the tafl games share one reader of
    plies), which its rules refuse citing the rule it breaks, not as no ply. KeyError for a game
    the registry does not know."""
    return _ply_pattern(game.lower()).fullmatch(text) is not None


_QUOTED = LineStart(rf"^>[ \t>]*{TAG_BEFORE_NAME}{TAG_NAME}")  # a tag line of a quoted e-mail (`> [Game "…"]`)
_GAME_TAG = LineStart(rf'^{TAG_BEFORE_NAME}Game{BLANK}+"([^"\\]*)"')


STDIN_ADVICE = (  # a tafl move list or CSV line piped in reads as lgn movetext with no tag
    "standard input is read as lgn unless its first lines or --from name another format"
    " (--from tafl reads tafl move lists, --from csv the tafl engines' CSV lines)"
)
STREAM_ADVICE = (  # so a stream without a name is read, a library's (h81a: told to write a Game tag in its CSV)
    "a stream without a name is read as lgn unless its first lines or format= name another format"
    ' (format="tafl" reads tafl move lists, format="csv" the tafl engines\' CSV lines)'
)


STANDS_IN = ("Game", "Variant", "Rules")  # the tags given that stand in for those a record with no Game tag lacks


def stood_in(record: RecordText) -> str:
    """The tag lines of the tags given that stood in for those an lgn `record` lacks (`RecordText.given`),
    Game first, and a blank line above a text of no tag (movetext alone): what makes its text read alone as it
    was read (`query --format lgn`); "" for none."""
    if names_a_game(record.text):
        return ""
    given, own = dict(record.given), scan_tags(record.text)
    lines = "".join(f"[{tag} {quote(given[tag])}]\n" for tag in STANDS_IN if given.get(tag) and tag not in own)
    return lines + "\n" if lines and not own else lines


def standing_in(record: RecordText) -> tuple[str, ...]:
    """The tags given for the lgn `record` (`RecordText.given`) that stand in for its own: those of
    STANDS_IN, given with a Game (a Variant or Rules alone reads no record), for a record with no Game
    tag (nor a slip for one), each one it writes none of or the same value; its text is scanned once."""
    given = dict(record.given)
    if not given.get("Game") or names_a_game(record.text):
        return ()
    own = scan_tags(record.text)
    return tuple(tag for tag in STANDS_IN if own.get(tag, given.get(tag, "")).lower() == given.get(tag, "").lower())


def game_read_in(record: RecordText) -> str:
    """The game an lgn `record` is read in, lowercase, as `parse_record` reads it: its Game tag's, or
    for one that names no game (nor has a slip for its tag), the Game given (`RecordText.given`); "" for none."""
    if names_a_game(record.text):
        return scan_tags(record.text).get("Game", "").lower()
    return dict(record.given).get("Game", "").lower()


def names_a_game(text: str) -> bool:
    """Whether a record's text has a Game tag, or a slip for one: tags given do not stand in for it."""
    return bool(_GAME_TAG.search(text) or _game_tag_slip(text))


def _game_tag_slip(text: str) -> re.Match[str] | None:
    """A tag that may be a slip for the Game tag (`[game "…"]`, `[Gmae "…"]`, a value that holds a backslash)."""
    return next((m for m in _NEXT_TAG.finditer(text) if "Game" in (m[1], tag_meant(m[1]))), None)


_FILE_NAME = re.compile(r"[^\[\]{}\n]*\.[A-Za-z][A-Za-z0-9]{1,3}")  # one line ending as a file's name does (x.lgn)


def _names_a_file(text: str) -> bool:
    """Whether a record's text is one line that ends as a file's name does (`games/round-1.lgn`)."""
    return _FILE_NAME.fullmatch(text.strip()) is not None


def _no_game_tag(source: RecordText) -> SyntaxProblem:
    """The record has no Game tag: at a tag that may be a slip for it (`[game "…"]`, `[Gmae "…"]`),
    or at one whose value holds a backslash (`[Game "tab\\"lut"]`, no game's name), if it has one;
    standard input with no tag at all is told how to read another format, any other record what to
    write (a chess PGN's tags: the games there are), and a library's stream without a name, of no tag, both."""
    slip = _game_tag_slip(source.text)
    known = known_games()
    if slip is None:
        untagged = not _NEXT_TAG.search(source.text)  # perhaps a move list
        advice = (
            f"; {STDIN_ADVICE}"
            if untagged and source.path == STDIN_NAME
            else f': begin it with one, as [Game "{_game_written(source.text, known)}"] (known: {", ".join(known)})'
            + (f"; {STREAM_ADVICE}" if untagged and source.path == STREAM_NAME else "")
        )
        return SyntaxProblem(f"the record has no Game tag{advice}", source.line, 1, "", "tag")
    cased = "tag names are case-sensitive, and " if slip[1].lower() == "game" else ""
    said = (
        f"the Game tag's value holds a backslash, which no game's name has (known: {', '.join(known)})"
        if slip[1] == "Game"
        else f"the record has no Game tag: {cased}'{slip[1]}' is not Game"
    )
    return SyntaxProblem(said, *row_column(source.text, slip.start(1), source.line - 1), slip[1], "tag")


_BEFORE_PLIES = re.compile(r"(?:\s+|\[[^\n]*|\{[^}]*\}?|;[^\n]*|%[^\n]*|[0-9]+\.+)*")  # blanks, tags, comments,
# escape lines and move numbers: what a record's text holds before its first ply


def _game_written(text: str, known: tuple[str, ...]) -> str:
    """The game a record with no Game tag writes the first ply of (`53: 5/10 10/13`: laquet), read furthest; of
    games that read it as far (`e3-c3`, or no ply), one its Variant tag names, or a variant of (`dux`: latrunculi),
    else the first known: the Game tag to write."""
    before = _BEFORE_PLIES.match(text)  # (it matches, if only the empty string)
    at = before.end() if before else 0
    reach = {game: len(ply[0]) if (ply := _ply_pattern(game).match(text, at)) else 0 for game in known}
    variant = scan_tags(text).get("Variant", "").strip().lower()
    named = {game for game in known if variant == game or variant in games.GAMES[game].presets}
    best = max(reach.values())
    played = {game: _plies_legal(game, text, at) for game in known if reach[game] == best and best}
    squares = _SQUARE.findall(text, at)
    holding = _boards_holding(squares, known) if squares else {}
    # (of games alike: the one under whose rules the most of its first plies are legal; then one whose board holds
    # every square its movetext names, of one board, the smallest; then the first)
    return max(known, key=lambda game: (reach[game], game in named, played.get(game, 0), *holding.get(game, ())))


_SQUARE = re.compile(r"\b([a-s])(1[0-9]|[1-9])\b")  # a square a movetext names, as the boards of 5×5 to 19×19 do
_NOT_PLIES = re.compile(r"\{[^}]*\}?|;[^\n]*|\([^)]*\)?|[0-9]+\.+")  # comments, variations, move numbers
_PLIES_TRIED = 20  # the first plies of a record with no Game tag played in each game that reads them


def _plies_legal(game: str, text: str, at: int) -> int:
    """How many of the first plies of a movetext from `at` (up to `_PLIES_TRIED`, each a word) the rules of `game`
    find legal from its start, up to the first they refuse."""
    rules = games.GAMES[game]()
    position, legal = rules.initial(), 0
    for word in _NOT_PLIES.sub(" ", text[at:]).split()[:_PLIES_TRIED]:
        try:
            played = rules.play(position, word)
        except (LusoriaError, ValueError):  # (Illegal, NotAPly: the game reads no further)
            break
        position, legal = played.position, legal + 1
    return legal


def _boards_holding(squares: list[tuple[str, str]], known: tuple[str, ...]) -> dict[str, tuple[bool, bool, int]]:
    """For each game of squares: whether the board its rules start on holds every one of `squares` (file, rank),
    whether it has one board (not one a variant names), and the board's area, negated (the smallest first)."""
    files = max(ord(file) - ord("a") + 1 for file, _ in squares)
    ranks = max(whole_number(rank, 1, 19) or 0 for _, rank in squares)
    found = {}
    for game in known:
        rules = games.GAMES[game]()
        board = rules.diagram(rules.initial()).board
        if isinstance(board, Squares):
            fits = board.files >= files and board.ranks >= ranks
            found[game] = (fits, not rules.described, -board.files * board.ranks)
    return found


def _unwritten_game_tag(source: RecordText) -> SyntaxProblem | None:
    """A line that starts as a Game tag (or a slip for it) and is no tag (`[Game"tablut"]`), if any."""
    text = source.text
    for start in _TAG_START.finditer(text):
        if "Game" in (start[1], tag_meant(start[1])) and not _tag_pattern().match(text, start.start()):
            at = text.index("[", start.start())
            line = text[at : at + 80].split("\n")[0]
            return SyntaxProblem(f"{UNWRITTEN_TAG}: {line}", *row_column(text, at, source.line - 1), line)
    return None


def parse_record(source: RecordText | str) -> Record:
    """Parse one record's text (one with no Game tag read in the game its `given` tags name, if
    they do); raises SyntaxProblem with file-relative positions."""
    if isinstance(source, str):
        source = RecordText(source)
    if isinstance(source.parsed, SyntaxProblem):
        raise source.parsed
    if source.parsed is not None:
        return source.parsed
    offset = source.line - 1
    game = _GAME_TAG.search(source.text)
    if game is None and (unwritten := _unwritten_game_tag(source)) is not None:
        raise unwritten
    if game is None and not _NEXT_TAG.search(source.text) and not _starts_as_movetext(source.text):
        read = (  # a file's name and first characters chose lgn; nothing chose it for standard input, or text
            "in lgn, which standard input is read as unless its first lines or --from name another format:"
            if source.path == STDIN_NAME
            else "in lgn, which a record's text is read as unless a format is named for it:"
            if not source.path
            else "in any format lusoria reads: read as lgn,"
        )
        quoted = (
            "; its lines begin with >, as an e-mail's quoted lines do: take the > away"
            if _QUOTED.search(source.text)
            else "; it is a file's name: lusoria.api.reports or record_at read a file, check its text"
            if not source.path and _names_a_file(source.text)
            else ""
        )
        raise SyntaxProblem(f"not a game record {read} it has no tag and no movetext{quoted}", source.line, 1)
    given = {tag: value for tag, value in source.given if tag in STANDS_IN and value}
    if game is None and ("Game" not in given or _game_tag_slip(source.text)):
        raise _no_game_tag(source)
    written = game[1] if game else given["Game"]
    name = written.lower()
    if name not in games.GAMES:
        variant = games.variant_as_game(written)  # (a variant's name is no slip of a game's alike: `Tablut#15`)
        known = (known_names_holding if variant else known_names)(written, known_games())
        raise SyntaxProblem(
            f"unknown game '{written}' ({known}){variant}",
            *(row_column(source.text, game.start(1), offset) if game else (source.line, 1)),
            written,
            "tag",
        )
    if (token := long_token(source.text, LGN_TOKENS)) is not None:
        raise SyntaxProblem(token_message(token), *row_column(source.text, token.start(), offset), token[0][:20])
    record = _read_plain(source.text, offset, _terminals(name))
    if record is None:
        from lusoria.notation.lalr import parse_lalr  # loads Lark: only for the records that need it

        record = parse_lalr(source.text, name, offset, source.tag_follows)
    if game is None:  # the tags given stand in for those it lacks, Game first
        record.tags = {**{tag: value for tag, value in given.items() if tag not in record.tags}, **record.tags}
    if "Game" not in record.tags:  # the Game tag line found stands inside a comment
        raise SyntaxProblem("the record has no Game tag", source.line, 1, "", "tag")
    record.line = source.line
    record.main.comments[:0] = source.notes
    return record


SLIP_WINDOW = 256  # characters of a text with no tag read to tell whether it starts as movetext
_SKIPPED = re.compile(r"(?:\s+|\{[^}]*\}|;[^\n]*|(?m:^%[^\n]*))*")  # blanks, comments and % lines
_BLANKS = re.compile(r"[ \t\r\n]*")


def _starts_as_movetext(text: str) -> bool:
    """Whether a text starts as the movetext of some game: a ply (after its move number, if any)
    as written or as a slip that notation.slips mends, or a result marker; a text with no tag
    that does not is no record at all (a file in another format named on the command line)."""
    start = _end_of(_SKIPPED, text, 0)
    for game in known_games():
        terminals = _terminals(game)
        if _ply_or_result(terminals, text, start):
            return True
        number = terminals.item.match(text, start)
        word = _end_of(_BLANKS, text, number.end()) if number and number["number"] else start  # a slip, perhaps
        line_end = text.find("\n", word, word + SLIP_WINDOW)  # (the word may stand on the number's next line)
        first_line = text[: line_end if line_end >= 0 else word + SLIP_WINDOW]  # enough to read past its first ply
        # (a line of 30 MB was mended and parsed whole for each game: 25 s)
        fixes = slip_fixes(first_line, *row_column(first_line, word), game)
        if any(_ply_or_result(terminals, fix.text, 0) for fix in fixes):
            return True
    return False


def _end_of(pattern: re.Pattern[str], text: str, at: int) -> int:
    """Where a match of `pattern` (blanks: the empty string too) at `at` ends."""
    found = pattern.match(text, at)
    return found.end() if found else at


def _ply_or_result(terminals: Terminals, text: str, at: int) -> bool:
    """Whether a ply (after its move number, if any) or a result marker stands at `at`."""
    item = terminals.item.match(text, at)
    if item and item["number"]:
        item = terminals.item.match(text, item.end())
    return bool(item and item["ply"]) or terminals.result.match(text, at) is not None


def _read_plain(text: str, offset: int, terminals: Terminals) -> Record | None:
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


def long_token(text: str, pieces: re.Pattern[str], start: int = 0, end: int | None = None) -> re.Match[str] | None:
    """The first token of `text[start:end]` (as `pieces` cuts the format's text into tokens) longer
    than MAX_TOKEN, if any: every reader looks for one before it reads (the one token bound)."""
    end = len(text) if end is None else end
    if end - start <= MAX_TOKEN:
        return None
    return next((piece for piece in pieces.finditer(text, start, end) if piece.end() - piece.start() > MAX_TOKEN), None)


def token_message(token: re.Match[str]) -> str:
    return f"a token of {token.end() - token.start():,} characters; the longest allowed is {MAX_TOKEN:,}"


def read_records(lines: Iterable[str]) -> Iterator[tuple[RecordText, Record | SyntaxProblem]]:
    """Each record of a stream, parsed, or the problem that stopped its parsing."""
    for source in split_records(lines):
        try:
            yield source, parse_record(source)
        except SyntaxProblem as problem:
            yield source, problem
