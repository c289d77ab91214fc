"""One traversal of a record's line tree, as python-chess's `BaseVisitor` serves building,
exporting and skipping: `walk` goes through the tree in the order it is written and calls
a `Visitor`'s hooks; a visitor overrides the hooks it needs.

Order for a line: `begin_line`, the line's comments, then for each ply `visit_ply`, its
NAGs, its comments and its variations (each a line, nested), then `end_line`; for a record,
`visit_result` last. Where a ply stands is its `PlyPath`: `(i,)` for the main line's ply `i`
(0-based); for ply `j` of variation `k` of the ply at path `p`, `p + (k, j)`. It is stable
(it does not depend on the objects in memory) and a line's path is its first ply's path
without the last index (`()` for the main line).

The walk keeps an explicit stack, so that nesting depth costs no recursion.
"""

from __future__ import annotations

from typing import Final

from lusoria.notation.model import Line, Ply, Record

PlyPath = tuple[int, ...]


class _Skip:
    def __repr__(self) -> str:
        return "SKIP"


SKIP: Final = _Skip()
"""Returned by `begin_line`: skip that line (its end_line is not called); by `visit_ply`:
skip the rest of its line once the ply's NAGs, comments and variations are visited."""

MaySkip = _Skip | None


class Visitor:
    """Hooks of `walk`; each does nothing by default."""

    def begin_line(self, line: Line, path: PlyPath) -> MaySkip:
        """A line starts: the main line (`path` is `()` when walked from its record) or a
        variation. `SKIP` skips it."""
        return None

    def visit_ply(self, ply: Ply, number: int, path: PlyPath) -> MaySkip:
        """A ply: `number` is its ply number in the game (1 for the first ply of the game).
        `SKIP` ends its line after its NAGs, comments and variations."""
        return None

    def visit_nag(self, nag: int) -> None:
        """A NAG of the ply just visited."""

    def visit_comment(self, comment: str) -> None:
        """A comment: before a line's first ply, or after the ply just visited."""

    def end_line(self, line: Line, path: PlyPath) -> None:
        """A line begun (not skipped) ends."""

    def visit_result(self, result: str) -> None:
        """The record's result marker, after its main line."""


def walk(start: Record | Line, visitor: Visitor, first: int = 1, path: PlyPath = ()) -> None:
    """Walk a record (its main line, then its result) or a line whose first ply is ply
    number `first` and stands at `path` + (0,)."""
    line = start.main if isinstance(start, Record) else start
    stack: list[tuple[Line, int, PlyPath, int]] = [(line, first, path, -1)]  # -1: not begun
    visit_ply, visit_nag, visit_comment = visitor.visit_ply, visitor.visit_nag, visitor.visit_comment
    while stack:
        line, first, path, index = stack.pop()
        if index < 0:
            if visitor.begin_line(line, path) is SKIP:
                continue
            for comment in line.comments:
                visit_comment(comment)
            index = 0
        plies = line.plies
        count = len(plies)
        while index < count:
            ply = plies[index]
            place = path + (index,)
            index = count if visit_ply(ply, first + index, place) is SKIP else index + 1
            if ply.nags:
                for nag in ply.nags:
                    visit_nag(nag)
            if ply.comments:
                for comment in ply.comments:
                    visit_comment(comment)
            if ply.variations:
                stack.append((line, first, path, index))  # resume here after the variations
                stack.extend((variation, first + place[-1], place + (k,), -1)
                             for k, variation in reversed(list(enumerate(ply.variations))))
                break
        else:
            visitor.end_line(line, path)
    if isinstance(start, Record):
        visitor.visit_result(start.result)
