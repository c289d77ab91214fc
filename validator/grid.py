"""What the games on a board of squares share: the parts of a ply that suggestions
compare, and the distance between two plies (docs/rules.md, "Suggestions")."""

from __future__ import annotations

from typing import NamedTuple

from lusoria.validator.base import Game, P


class GridPly(NamedTuple):
    """The parts of a Tablut or Latrunculi ply that the distance compares."""

    placement: bool
    piece: str | None
    squares: tuple[tuple[int, int], ...]  # (file, rank) of the origin and every landing
    jumps: bool
    captures: frozenset[str] | None
    removal: str | None


def square_distance(a: tuple[int, int], b: tuple[int, int]) -> int:
    """0 for the same square, 1 for a file or a rank off by one, more otherwise."""
    return sum(0 if x == y else 1 if abs(x - y) == 1 else 2 for x, y in zip(a, b))


def grid_distance(written: GridPly, legal: GridPly) -> int:
    """Written against legal: each square off (by one: 1), from and to swapped (1),
    the digits of two squares swapped (1), a piece letter wrong (1), a wrong list of
    captures or removal (1), a jump written as a step or the reverse (1)."""
    cost = 0
    if written.placement != legal.placement:
        cost += 3
    if written.piece and written.piece != (legal.piece or "P"):
        cost += 1
    if written.jumps != legal.jumps:
        cost += 1
    a, b = written.squares, legal.squares
    if len(a) == len(b):
        direct = sum(square_distance(x, y) for x, y in zip(a, b))
        swapped = 1 + sum(square_distance(x, y) for x, y in zip(a, reversed(b))) if len(a) == 2 else direct
        digits = 1 + sum(square_distance(x, y) for x, y in zip(a, ((b[0][0], b[1][1]), (b[1][0], b[0][1])))) \
            if len(a) == 2 else direct
        cost += min(direct, swapped, digits)
    else:
        cost += square_distance(a[0], b[0]) + square_distance(a[-1], b[-1]) + abs(len(a) - len(b))
    if written.captures is not None and written.captures != (legal.captures or frozenset()):
        cost += 1
    if written.removal is not None and written.removal != legal.removal:
        cost += 1
    return cost


class GridGame(Game[P]):
    """A game on a board of squares: its distance between plies compares their parts."""

    def ply_parts(self, text: str) -> GridPly | None:
        """The parts of a ply that the distance compares; None for a pass."""
        raise NotImplementedError

    def distance(self, written: str, legal: str) -> int:
        a, b = self.ply_parts(written), self.ply_parts(legal)
        if a is None or b is None:  # a pass
            return 0 if a is b else 3
        return grid_distance(a, b)
