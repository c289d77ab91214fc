"""The canonical writer (export format, NOTATION.md): tags in a fixed order,
move numbers where PGN puts them, suffixes as NAGs, movetext in lines under 80 characters."""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Collection, Iterable, Mapping
from typing import TYPE_CHECKING

from lusoria.notation.model import Line, Ply, Record
from lusoria.notation.visitor import SKIP, Continued, PlyKey, Visitor, _Skip, walk

if TYPE_CHECKING:  # (the escape lines are read by the reader, which imports this module)
    from lusoria.notation.escapes import EscapeLines

ROSTER = ("Event", "Site", "Date", "Round", "White", "Black", "Result")
TAG_NAMES = ("Game", "Variant", "Rules", "Board", "Position", *ROSTER, "Annotator", "Source")  # NOTATION.md §2
UNKNOWN = {"Date": "????.??.??"}
WIDTH = 79
ESCAPE = "\n"  # begins a token that is a `%` line: a line of its own (no other token begins so)


def quote(value: str) -> str:
    """A tag value as lgn writes it: escaped, and on one line (a tag holds no line break, NOTATION.md §2)."""
    return '"' + one_line(value).replace("\\", "\\\\").replace('"', '\\"') + '"'


def one_line(value: str) -> str:
    """A tag value with each run of line breaks in it a space."""
    return _LINE_BREAKS.sub(" ", value)


_LINE_BREAKS = re.compile(r"[\r\n]+")


def unknown(name: str, value: str) -> bool:
    """Whether a tag of the Seven Tag Roster holds what `write_tags` fills it with when a record
    has none (`?`, `????.??.??`): a format that may leave a tag out writes none."""
    return name in ROSTER and value == UNKNOWN.get(name, "?")


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
    return [f"[{name} {quote(tags[name])}]" for name in tag_order(tags)]


def tag_order(names: Iterable[str]) -> list[str]:
    """Tag names in the export order: Game, Variant, the Seven Tag Roster, then the rest sorted."""
    given = set(names)
    first = [name for name in ("Game", "Variant", *ROSTER) if name in given]
    return first + sorted(given - set(first))


def write_record(
    record: Record,
    second: bool = False,
    canonical: Mapping[PlyKey, str] | None = None,
    continued: re.Pattern[str] | None = None,
    escapes: EscapeLines | None = None,
    passed: Collection[PlyKey] = (),
) -> str:
    """The record in export format. `second`: its first ply is the second of move 1 (`1...`:
    the side that moves second in its game is to move at its start; validator.replay's
    `movers_numbering`). `canonical` gives plies' canonical text (with what the rules force
    written out) by their key in the tree; other plies as written. `continued` matches a ply
    that continues its side's turn (its game's `continued`): it is numbered with the ply before;
    one of `passed` follows a forced pass the record leaves out: numbered as its side's (`2. e6-e7` after
    `1. c1-b1`), always.
    `escapes`: the record's `%` lines, kept where they stand (docs/notation.md §8): those among its
    tags after its first tag (before it, they would be the previous record's, read again); each of the others before the ply (or the result marker) that follows it,
    or, after the result marker, after a blank line."""
    placed, header = (escapes.placed, escapes.header) if escapes else ((), ())
    writer = _Tokens(
        1 if second else 0, canonical or {}, Continued(record, continued, canonical, passed), placed, record.result_line
    )
    walk(record, writer)
    after = "".join(f"\n{escape}" for _, escape in writer.escapes)
    first, *others = write_tags(record)
    tags = "\n".join([first, *header, *others])
    return tags + "\n\n" + _wrap(writer.tokens) + "\n" + (f"{after}\n" if after else "")


class _Tokens(Visitor):
    """The movetext's tokens: move numbers glued to their plies, "(" and ")" to the
    first and last token of a variation."""

    def __init__(
        self,
        offset: int,
        canonical: Mapping[PlyKey, str],
        continued: Continued,
        escapes: tuple[tuple[int, str], ...] = (),
        result_line: int = 0,
    ) -> None:
        self.offset = offset  # 1 when the first ply is the second of its move
        self.canonical, self.continued = canonical, continued
        self.escapes = deque(escapes)  # by line: those not yet written
        self.result_line = result_line  # of the result marker in the source (0: unknown)
        self.tokens: list[str] = []
        self.opening = ""  # glued before the next token
        self.after_break = True  # a move's second ply is numbered: first of a line, after comments or variations

    def _add(self, token: str) -> None:
        self.tokens.append(self.opening + token)
        self.opening = ""

    def begin_line(self, line: Line, number: int) -> _Skip | None:
        if number and not line.plies:
            return SKIP  # a variation holds a ply (NOTATION.md): one with none is not written
        if number:
            self.opening += "("
        self.after_break = True
        return None

    def _escapes_before(self, line: int) -> None:
        """The `%` lines before source line `line` not yet written, each a line of its own."""
        while self.escapes and self.escapes[0][0] < line:
            self.tokens.append(ESCAPE + self.escapes.popleft()[1])
            self.after_break = True

    def visit_ply(self, ply: Ply, number: int, key: PlyKey) -> None:
        self._escapes_before(ply.line)
        half = self.continued.number(number, key) - 1 + self.offset
        numbered = (
            f"{half // 2 + 1}{'...' if half % 2 else '.'} "
            if self.after_break
            or half % 2 == 0
            and key not in self.continued.continuing
            or key in self.continued.passed
            else ""
        )
        self._add(numbered + self.canonical.get(key, ply.text))  # a number is never split from its ply
        self.after_break = ply.breaks_line

    def visit_nag(self, nag: int) -> None:
        self._add(f"${nag}")

    def visit_comment(self, comment: str) -> None:
        if "}" in comment:
            self._add("; " + " ".join(comment.split()) + "\n")  # (to the line's end: no line break in it)
        else:
            for word in ("{" + comment + "}").split() or ["{}"]:
                self._add(word)

    def end_line(self, line: Line, number: int) -> None:
        if number:
            self.tokens[-1] += ")"
            self.after_break = True

    def visit_result(self, result: str) -> None:
        self._escapes_before(self.result_line)
        self._add(result)


def _wrap(tokens: list[str]) -> str:
    lines, current = [], ""
    for token in tokens:
        if token.startswith(ESCAPE):
            lines += [current, token[len(ESCAPE) :]] if current else [token[len(ESCAPE) :]]
            current = ""
            continue
        long = len(current) + 1 + len(token.rstrip("\n")) > WIDTH
        if current and long and not token.startswith("%"):  # (a comment's word: no line starts with % but an escape)
            lines.append(current)
            current = ""
        current = f"{current} {token}" if current else token
        if current.endswith("\n"):
            lines.append(current[:-1])
            current = ""
    if current:
        lines.append(current)
    return "\n".join(lines)
