"""One traversal of a record's line tree, as python-chess's `BaseVisitor` serves building,
exporting and skipping: `walk` goes through the tree in the order it is written and calls
a `Visitor`'s hooks; a visitor overrides the hooks it needs.

Order for a line: `begin_line`, the line's comments, then for each ply `visit_ply`, its
NAGs, its comments and its variations (each a line, nested), then `end_line`; for a record,
`visit_result` last. Lines are numbered in the order they start, as written (0: the main
line); a ply's `PlyKey` is its line's number and its index there: `(0, i)` for the main
line's ply `i` (0-based). Keys are stable: they depend on the tree, not on the objects in
memory, and stay the same when a visitor skips lines.

The walk keeps an explicit stack, so that nesting depth costs no recursion.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping
from typing import Final

from lusoria.notation.model import Line, Ply, Record

PlyKey = tuple[int, int]  # the ply's line (numbered as they start; 0: the main line), its index there


class _Skip:
    def __repr__(self) -> str:
        return "SKIP"


SKIP: Final = _Skip()
"""What `begin_line` returns to skip a line: its end_line is not called."""


class Visitor:
    """Hooks of `walk`; each does nothing by default."""

    def begin_line(self, line: Line, number: int) -> _Skip | None:
        """A line starts: the main line (`number` 0) or a variation. `SKIP` skips it."""
        return None

    def visit_ply(self, ply: Ply, number: int, key: PlyKey) -> None:
        """A ply: `number` is its ply number in the game (1 for the first ply of the game)."""

    def visit_nag(self, nag: int) -> None:
        """A NAG of the ply just visited."""

    def visit_comment(self, comment: str) -> None:
        """A comment: before a line's first ply, or after the ply just visited."""

    def end_line(self, line: Line, number: int) -> None:
        """A line begun (not skipped) ends."""

    def visit_result(self, result: str) -> None:
        """The record's result marker, after its main line."""


def walk(record: Record, visitor: Visitor) -> None:
    """Walk a record: its main line, variations nested, then its result."""
    # a line, its first ply's number, its own number (once begun), the next ply (-1: not begun)
    stack: list[tuple[Line, int, int, int]] = [(record.main, 1, 0, -1)]
    lines = 0  # lines numbered so far
    visit_ply, visit_nag, visit_comment = visitor.visit_ply, visitor.visit_nag, visitor.visit_comment
    while stack:
        line, first, number, index = stack.pop()
        if index < 0:
            number, lines = lines, lines + 1
            if visitor.begin_line(line, number) is SKIP:
                lines += _variations_within(line)  # numbered as if walked
                continue
            for comment in line.comments:
                visit_comment(comment)
            index = 0
        plies = line.plies
        count = len(plies)
        while index < count:
            ply = plies[index]
            visit_ply(ply, first + index, (number, index))
            if ply.nags:
                for nag in ply.nags:
                    visit_nag(nag)
            if ply.comments:
                for comment in ply.comments:
                    visit_comment(comment)
            index += 1
            if ply.variations:
                stack.append((line, first, number, index))  # resume here after the variations
                stack.extend((variation, first + index - 1, 0, -1) for variation in reversed(ply.variations))
                break
        else:
            visitor.end_line(line, number)
    visitor.visit_result(record.result)


def _variations_within(line: Line) -> int:
    """How many lines a line holds, nested at any depth."""
    found, pending = 0, [line]
    while pending:
        for ply in pending.pop().plies:
            found += len(ply.variations)
            pending.extend(ply.variations)
    return found


class Continued(Visitor):
    """The plies of a record that continue their side's turn (whose text, canonical or as written,
    `pattern` matches: a tafl game's berserk moves, `d3=f3`; `Game.continued`), and for each ply
    how many such plies its line holds up to it, a variation counting on from the ply it replaces:
    a move number covers a ply of each side and the plies that continue them (`number`). The plies
    `passed` (`Report.passed`) follow a forced pass the record leaves out: each counts one ply more;
    those `uncontinued` (`Report.uncontinued`), written so though no turn goes on, continue none."""

    def __init__(
        self,
        record: Record,
        pattern: re.Pattern[str] | None,
        canonical: Mapping[PlyKey, str] | None = None,
        passed: Collection[PlyKey] = (),
        uncontinued: Collection[PlyKey] = (),
    ) -> None:
        self.pattern, self.canonical, self.passed, self.uncontinued = pattern, canonical or {}, passed, uncontinued
        self.counts: dict[PlyKey, int] = {}
        self.continuing: set[PlyKey] = set()
        self.lines = [[0, 0]]  # each open line's count before its last ply, and with it
        if pattern is not None or passed:  # (no game but one with such plies pays for a walk)
            walk(record, self)

    def begin_line(self, line: Line, number: int) -> None:
        if number:
            self.lines.append([self.lines[-1][0]] * 2)

    def end_line(self, line: Line, number: int) -> None:
        if number:
            self.lines.pop()

    def visit_ply(self, ply: Ply, number: int, key: PlyKey) -> None:
        counts = self.lines[-1]
        counts[0] = counts[1]
        pattern = self.pattern if number > 1 else None  # (the first ply continues no turn: h75a, "move 0")
        if pattern is not None and key not in self.uncontinued and pattern.match(self.canonical.get(key, ply.text)):
            self.continuing.add(key)
            counts[1] += 1
        if key in self.passed:
            counts[1] -= 1
        self.counts[key] = counts[1]

    def number(self, number: int, key: PlyKey) -> int:
        """Ply `number` (of the ply at `key`) counted without the plies that continue a turn, and with
        the passes left out: the number `move_number` numbers it by (validator/replay.py)."""
        return number - self.counts.get(key, 0)
