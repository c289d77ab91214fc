"""The canonical writer (export format, NOTATION.md): tags in a fixed order,
move numbers where PGN puts them, suffixes as NAGs, lines under 80 characters."""

from __future__ import annotations

from typing import Callable

from lusoria.notation.model import Line, Ply, Record

ROSTER = ("Event", "Site", "Date", "Round", "White", "Black", "Result")
UNKNOWN = {"Date": "????.??.??"}
WIDTH = 79


def quote(value: str) -> str:
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def write_tags(record: Record) -> list[str]:
    """Game, Variant, the Seven Tag Roster (filled with `?`), then the rest sorted; the
    names of the game, variant and rules in lower case."""
    tags = dict(record.tags, Game=record.game)
    for name in ("Variant", "Rules"):
        if name in tags:
            tags[name] = tags[name].lower()
    tags.setdefault("Result", record.result)
    for name in ROSTER:
        tags.setdefault(name, UNKNOWN.get(name, "?"))
    first = [name for name in ("Game", "Variant", *ROSTER) if name in tags]
    rest = sorted(set(tags) - set(first))
    return [f"[{name} {quote(tags[name])}]" for name in first + rest]


def write_record(record: Record, black_first: bool = False,
                 canonical: Callable[[Ply], str] | None = None) -> str:
    """The record in export format. `canonical` gives each ply's canonical
    text (with what the rules force written out); by default, the ply as written."""
    tokens = _line_tokens(record.main, 1 if black_first else 0, canonical or (lambda ply: ply.text))
    tokens.append(record.result)
    return "\n".join(write_tags(record)) + "\n\n" + _wrap(tokens) + "\n"


def _line_tokens(main: Line, start: int, canonical: Callable[[Ply], str]) -> list[str]:
    """Tokens of a line whose first ply is half-move number `start` (0 = White's first),
    variations included; an explicit stack, so that nesting depth costs no recursion."""
    tokens: list[str | None] = []  # None opens a variation: "(" goes before the next token
    stack = [(main, start, 0)]  # a line, the half-move of its first ply, the next ply to write
    while stack:
        line, first, index = stack.pop()
        if index == 0:
            if line is not main:
                tokens.append(None)
            tokens.extend(_comment_tokens(line.comments))
        if index == len(line.plies):
            if line is not main:
                tokens[-1] += ")"
            continue
        ply, half = line.plies[index], first + index
        after_break = index == 0 or bool(line.plies[index - 1].comments or line.plies[index - 1].variations)
        number = f"{half // 2 + 1}. " if half % 2 == 0 else f"{half // 2 + 1}... " if after_break else ""
        tokens.append(number + canonical(ply))  # a number is never split from its ply
        tokens.extend(f"${nag}" for nag in ply.nags)
        tokens.extend(_comment_tokens(ply.comments))
        stack.append((line, first, index + 1))
        stack.extend((variation, half, 0) for variation in reversed(ply.variations))
    glued: list[str] = []
    for before, token in zip([""] + tokens, tokens):
        if token is not None:
            glued.append("(" + token if before is None else token)
    return glued


def _comment_tokens(comments: list[str]) -> list[str]:
    tokens = []
    for comment in comments:
        if "}" in comment:
            tokens.append("; " + comment + "\n")
        else:
            words = ("{" + comment + "}").split()
            tokens.extend(words or ["{}"])
    return tokens


def _wrap(tokens: list[str]) -> str:
    lines, current = [], ""
    for token in tokens:
        if current and (len(current) + 1 + len(token.rstrip("\n")) > WIDTH):
            lines.append(current)
            current = ""
        current = f"{current} {token}" if current else token
        if current.endswith("\n"):
            lines.append(current[:-1])
            current = ""
    if current:
        lines.append(current)
    return "\n".join(lines)
