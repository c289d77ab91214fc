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
    """Game, Variant, the Seven Tag Roster (filled with `?`), then the rest sorted."""
    tags = dict(record.tags, Game=record.game)
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


def _line_tokens(line: Line, start: int, canonical: Callable[[Ply], str]) -> list[str]:
    """Tokens of a line whose first ply is half-move number `start` (0 = White's first)."""
    tokens = [*_comment_tokens(line.comments)]
    after_break = True
    for offset, ply in enumerate(line.plies):
        half = start + offset
        number = f"{half // 2 + 1}. " if half % 2 == 0 else f"{half // 2 + 1}... " if after_break else ""
        tokens.append(number + canonical(ply))  # a number is never split from its ply
        tokens.extend(f"${nag}" for nag in ply.nags)
        tokens.extend(_comment_tokens(ply.comments))
        for variation in ply.variations:
            inner = _line_tokens(variation, half, canonical)
            inner[0] = "(" + inner[0]
            inner[-1] += ")"
            tokens.extend(inner)
        after_break = bool(ply.comments or ply.variations)
    return tokens


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
