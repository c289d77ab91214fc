"""Suggestions for an illegal ply: the legal plies closest to what was written.

The distance adds up what differs between the written ply and a legal one (docs/rules.md,
"Suggestions"); a legal ply is *close* when the distance is at most CLOSE, and at most
three are suggested, nearest first.
"""

from __future__ import annotations

from difflib import SequenceMatcher
from typing import NamedTuple

from lusoria.validator.base import Game, Position

CLOSE = 2
LIMIT = 3


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


def similarity(written: str, legal: str) -> float:
    """How alike two texts are (0 to 1): breaks ties between equally near plies."""
    return SequenceMatcher(None, written, legal).ratio()


def _close(rules: Game, position: Position, written: str) -> list[tuple[int, str]]:
    scored = sorted((rules.distance(written, legal), -similarity(written, legal), legal)
                    for legal in rules.candidates(position, written))
    return [(cost, legal) for cost, _, legal in scored if cost <= CLOSE]


def suggestions(rules: Game, position: Position, written: str) -> list[str]:
    """Up to three close legal plies, nearest first (ties: the most alike text first)."""
    return [legal for _, legal in _close(rules, position, written)[:LIMIT]]


def best(rules: Game, position: Position, written: str) -> str | None:
    """The nearest close legal ply when it is the only one that near."""
    close = _close(rules, position, written)
    if close and (len(close) == 1 or close[0][0] < close[1][0]):
        return close[0][1]
    return None
