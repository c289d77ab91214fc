"""A record's `%` lines (escape lines, NOTATION.md §1): the reader ignores them, but `lusoria fmt`,
which rewrites the user's own file, keeps them where they stand (docs/notation.md §8)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from lusoria.notation.reader import last_tag_line

# An escape line, or a token that may hold what only looks like one: a tag's value, a comment
_ESCAPE_OR_TOKEN = re.compile(r'(?m:^%[^\n]*)|"[^"\\\n]*+(?:\\.[^"\\\n]*+)*+"?|\{[^}]*\}?|;[^\n]*')


@dataclass(frozen=True, slots=True)
class EscapeLines:
    """The `%` lines of a record: `header`, those before its last tag (among its tags, whose order
    `fmt` changes); `placed`, the others, each with its line in the record's source."""

    header: tuple[str, ...] = ()
    placed: tuple[tuple[int, str], ...] = ()


def escape_lines(text: str, first_line: int = 1) -> EscapeLines:
    """The `%` lines of a record's `text` (its first line the line `first_line` of its source): those
    before its last tag line are its header's; a `%` that starts a line of a comment is no escape."""
    header, placed = [], []
    tags = last_tag_line(text)
    for line, token in _escapes(text, first_line):
        if token.start() < tags:
            header.append(token[0])
        else:
            placed.append((line, token[0]))
    return EscapeLines(tuple(header), tuple(placed))


def escape_line_numbers(text: str, first_line: int = 1) -> set[int]:
    """The lines of a record's `text` (its first line the line `first_line` of its source) that are `%` lines."""
    return {line for line, _ in _escapes(text, first_line)}


def _escapes(text: str, first_line: int) -> Iterator[tuple[int, re.Match[str]]]:
    """Each `%` line of `text` (a `%` that starts a line of a comment is none), with its line in the source."""
    line, counted = first_line, 0
    for token in _ESCAPE_OR_TOKEN.finditer(text):
        if token[0].startswith("%"):
            line, counted = line + text.count("\n", counted, token.start()), token.start()
            yield line, token


def as_lines(escapes: Iterable[str]) -> str:
    """`%` lines as a file holds them, each ending its line."""
    return "".join(f"{escape}\n" for escape in escapes)
