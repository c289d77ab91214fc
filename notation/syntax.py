"""What the two ways of reading a record (reader.py's regular expressions, lalr.py's parser)
share: a record's problems (SyntaxProblem, MissingResult, CutShort, TagTwice), the grammar's terminals the reader
uses (TERMINALS, Terminals), where what is made from a grammar is kept, and a tag's value
unquoted."""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Iterator
from dataclasses import dataclass

from lusoria.errors import LusoriaError
from lusoria.words import quoted


class SyntaxProblem(LusoriaError):
    """A record that does not follow the notation (rule `syntax` or `tag`), or what a reader of
    another format found wrong in it (a rule, at its `ply`)."""

    def __init__(
        self,
        message: str,
        line: int | None,
        column: int | None,
        text: str = "",
        rule: str = "syntax",
        ply: int | None = None,
        width: int = 0,
    ):
        super().__init__(message)  # a place Lark leaves unset (None) counts as 0
        self.message, self.line, self.column, self.text, self.rule = message, line or 0, column or 0, text, rule
        self.ply = ply
        self.width = width  # the characters its place covers in the source where not its text's (`Ply.width`)


NOT_MOVETEXT = re.compile(r'"(?:\\.|[^"\\\n])*"|\{[^}]*\}|;[^\n]*|^%[^\n]*', re.M)  # tag values, comments, escapes


def blanked(text: str) -> str:
    """`text` with what is no movetext (NOT_MOVETEXT: tag values, comments, escape lines) blanked, in its place."""
    return NOT_MOVETEXT.sub(lambda skipped: " " * len(skipped[0]), text)


class LineStart:
    """A regular expression that matches at the start of a line only (`^` under re.M), found as the
    newline before it: re tries `^` at each character of a line (19 ms through a line of 2 MB, each
    time a reader looks for the next tag line), where a pattern that begins with a newline is found
    by a scan for that character (1 ms). `match`, `search` and `finditer` answer as re.M's do."""

    def __init__(self, pattern: str) -> None:
        self.pattern = pattern
        self._here = re.compile(pattern, re.M)
        self._after_newline = re.compile(rf"\n(?:{pattern})", re.M)

    def match(self, text: str, pos: int = 0, end: int = sys.maxsize) -> re.Match[str] | None:
        return self._here.match(text, pos, end)

    def search(self, text: str, pos: int = 0, end: int = sys.maxsize) -> re.Match[str] | None:
        """The first match at `pos` (a line's start: `^` holds nowhere else there) or after a newline past it."""
        if (found := self._here.match(text, pos, end)) is None and (
            newline := self._after_newline.search(text, pos, end)
        ) is not None:
            found = self._here.match(text, newline.start() + 1, end)
        return found

    def finditer(self, text: str) -> Iterator[re.Match[str]]:
        """Each match in turn, as `re.finditer` (of a pattern that matches no empty text)."""
        pos = 0
        while (found := self.search(text, pos)) is not None:
            yield found
            pos = max(found.end(), found.start() + 1)


MISSING_RESULT = "the record ends without a result marker (1-0, 0-1, 1/2-1/2, *)"  # MissingResult's message
# how a record holds a gap in its source, which it has no mark for: said of a gap marked (notation.lalr)
# and of move numbers that jump past one (validator.replay)
GAP_KEPT_APART = (
    "end it with * before the gap and a comment that says what is lost, and write what follows as a record "
    "of its own that starts from a Position tag"
)


class MissingResult(SyntaxProblem):
    """A record whose movetext ends without a result marker: what comes before it may still
    be read and checked (validator.replay.check)."""


CUT_SHORT = "; the record ends there, without a result marker: is it cut short?"  # CutShort's, when no slip is meant


class CutShort(SyntaxProblem):
    """A record whose last word is none the notation reads, with no result marker after it (a record
    cut short, unless the word is a slip that notation.slips mends): what comes before the ply that
    word begins (`span`: where that stands in the record's text) may still be read and checked
    (validator.replay.check)."""

    span: tuple[int, int] = (0, 0)


class OffBoard(SyntaxProblem):
    """A ply with a square no board of its game has (`b5-b12` in Tablut): the legal plies nearest it
    may still be found, in the position its record reaches before it (validator.replay.check)."""


class TagTwice(SyntaxProblem):
    """A tag written a second time in a record, said at its name: the record may still be read
    without it (`span`: where it stands in the record's text) and its plies checked
    (validator.replay.check); `meant`: the tag it may have been meant for, which the record lacks
    (Black for a second White); `later`: the tags written twice after it, so that the record is read
    past them all at once."""

    span: tuple[int, int] = (0, 0)
    meant: tuple[str, ...] = ()
    later: tuple[TagTwice, ...] = ()


class Undecodable(SyntaxProblem):
    """A record that holds a byte its file's encoding does not decode, at that byte: it is not
    read, the others of its file are (lusoria.formats.sources), and `fmt --write` leaves its file as it is;
    `tries`: the encodings that may read it (its Diagnostic's, which says them where it is shown);
    `as_read`: its `%` lines, prose and text as read, each byte not decoded escaped (as `surrogateescape`
    escapes it), which `fmt` writes back as the bytes they were (its text holds U+FFFD there)."""

    tries: tuple[str, ...] = ()
    as_read = ""


# A tag where no grammar is at hand (splitting a stream, an editor): its name and value as the grammar's
# TAG_NAME and TAG_VALUE write them (tests/notation/test_syntax.py compares them), the text of its line
# up to its name, and up to its value (the name in group 1).
TAG_NAME = r"[A-Za-z][A-Za-z0-9_]*"
TAG_VALUE = r'"[^"\\\r\n]*+(?:\\["\\][^"\\\r\n]*+)*+"'
BLANK = "[ \t\u00a0]"  # a blank within a line (a no-break space pasted from a word processor or an e-mail too)
DASHES = "\u2010\u2011\u2012\u2013\u2014\u2015\u2212"  # hyphens, figure dash, en and em dash, bar, minus


def hyphened(word: str) -> str:
    """`word` with each dash of another kind (`DASHES`: `5–11`, `e3—e5`) written as a hyphen."""
    return "".join("-" if char in DASHES else char for char in word)


TAG_BEFORE_NAME = rf"[ \t\x1a\ufeff\u00a0]*\[{BLANK}*"
TAG_BEFORE_VALUE = rf"{TAG_BEFORE_NAME}({TAG_NAME}){BLANK}+"


def tag_parts(terminals: dict[str, str]) -> str:
    """A tag as the grammar's TAG writes it, its parts, name and value (groups 1, 2), from the
    grammar's TAG_NAME and TAG_VALUE (tests/notation/test_syntax.py compares the two)."""
    return rf"\[{BLANK}*({terminals['TAG_NAME']}){BLANK}+({terminals['TAG_VALUE']}){BLANK}*\]"


_DOTS_APART = re.compile(rf"(?<![^\s(])([0-9]+)\.?{BLANK}+(?:\.{{2,3}}|…)(?=\s|\Z)")


def dots_apart(text: str, position: int) -> re.Match[str] | None:
    """The first move number of a record whose dots stand apart from it (`1. ...`, `1 ...`, `1 …`: `1...` meant, a
    record that begins with the second side to move), that `position` is in, if any (its number in group 1); later,
    `12. ...` is White's move 12 left out, a gap in the source (notation.lalr)."""
    found = (m for m in _DOTS_APART.finditer(text, max(0, position - 24), position + 8) if m.start() <= position)
    apart = next((m for m in found if position < m.end()), None)
    before = blanked(text[: apart.start()]) if apart else ""
    return apart if apart and not re.search(r"[0-9]\.", before[before.rfind("]") + 1 :]) else None


WRAPPED_TAG = re.compile(  # a tag whose value runs onto the next line, as an e-mail wraps a long line (h80c: the rest
    # of its value was movetext, and the next tag line began a record "with no Game tag"): its name, the value's two parts
    # (the first with the blanks and `\r` that end its line); possessive (linear on a value of blanks)
    rf'\[{BLANK}*+({TAG_NAME}){BLANK}++"([^"\\\n]*+)\n{BLANK}*+([^"\\\n\[]*+)"{BLANK}*+\]'
)
WRAPPED_VALUE_END = (
    rf'[^"\\\n\[]*+"{BLANK}*+\][ \t\r]*$'  # the line that ends it: the rest of its value, its quote, `]`
)


UNWRITTEN_TAG = (
    'this tag is not written [Name "value"]'  # what a reader says of a line that starts as a tag and is none
)
MISNAMED_TAG = re.compile(  # a tag whose name is no tag name (`[Événement "Ludi"]`, `[Source-MS "…"]`, `[White: "…"]`),
    # its name in group 1 with the blanks after it; possessive (review80b: `[` then 4,000 blanks, a run three ways)
    rf'\[{BLANK}*+([^\]\n"]*+)({TAG_VALUE}){BLANK}*\]'
)


def misnamed(line: str) -> str:
    """Of a tag line whose name is no tag name (MISNAMED_TAG), what a name is, as UNWRITTEN_TAG's message goes on
    (h80a: `[Événement "Ludi"]` was said to be not written [Name "value"], which it is); "" for another line."""
    tag = MISNAMED_TAG.match(line)
    name = tag[1].rstrip(" \t\u00a0") if tag else ""
    if tag is None or re.fullmatch(TAG_NAME, name):
        return ""
    return f" (a tag's name is ASCII letters, digits and _, and begins with a letter: not {quoted(name)})"


def row_column(text: str, at: int, offset: int = 0) -> tuple[int, int]:
    """The line (in the file: `offset` lines before the text) and column (from 1) of text[at]."""
    return offset + text.count("\n", 0, at) + 1, at - text.rfind("\n", 0, at)


def offset_of(lines: list[str], line: int, column: int) -> int:
    """Where line `line`, column `column` (both from 1) of a text split into its `lines` stands in it."""
    return sum(len(row) + 1 for row in lines[: line - 1]) + column - 1


def unquote(value: str) -> str:
    """A quoted tag value's text: its escapes (a backslash and the character it keeps) undone. By
    str.replace where a NUL can stand for an escaped backslash (a substitution per escape took
    seconds for a value of 4 MB of them)."""
    inner = value[1:-1]
    if "\\" not in inner:
        return inner
    if "\0" in inner:
        return re.sub(r"\\(.)", r"\1", inner)
    return inner.replace("\\\\", "\0").replace("\\", "").replace("\0", "\\")


TERMINALS = ("MOVE_NUMBER", "PLY", "SUFFIX", "TAG_NAME", "TAG_VALUE", "RESULT", "WHITESPACE")


@dataclass(frozen=True, slots=True)
class Terminals:
    """A game's terminals as regular expressions, for what is read without the LALR parser."""

    item: re.Pattern[str]  # blanks, then a move number, or a ply and its suffix (split_run)
    tag: re.Pattern[str]  # blanks, then a tag: its name and value (groups 1, 2)
    result: re.Pattern[str]  # a result marker
    end: re.Pattern[str]  # blanks, a result marker (group 1), blanks (or whitespace), the end of the text

    @classmethod
    def of(cls, terminals: dict[str, str]) -> Terminals:
        """Made from the grammar's terminals by name (TERMINALS)."""
        number, ply, suffix, result, space = (
            terminals[name] for name in ("MOVE_NUMBER", "PLY", "SUFFIX", "RESULT", "WHITESPACE")
        )
        blanks = r"[ \t\r\n]*+"  # _BLANK, which the other whitespace contains
        return cls(
            re.compile(rf"{blanks}(?:(?P<number>{number})|(?P<ply>{ply})(?P<suffix>{suffix})?)"),
            re.compile(rf"{blanks}{tag_parts(terminals)}"),
            re.compile(result),
            re.compile(rf"{blanks}({result})(?:{space})?\Z"),
        )


def cache_file(game: str, kind: str) -> str | None:
    """Where a file made from the game's grammar is kept between runs: the user's own cache
    folder, never a shared one (Lark's parser is a pickle); None when it cannot be made."""
    folder = os.path.join(os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "lusoria")
    try:
        os.makedirs(folder, mode=0o700, exist_ok=True)
    except OSError:
        return None
    return os.path.join(folder, f"{game}.{kind}")
