"""A position described as neutral shapes, for pictures (`Game.diagram`, drawn by
lusoria/svg.py): a board of squares or a table of points, the pieces on it, and the
marks of the ply that led to it. Nothing here knows a game's rules.

Places are numbered: a square by its index (files × ranks, a1 b1 … from the lower left),
a point by its number (1–24).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

# Marks of the last ply: where it came from and went to, and what it took away.
FROM, TO, CAPTURED, REMOVED = "from", "to", "captured", "removed"
# Roles of a square: drawn as a framed cross (a throne, a corner the king escapes to) or in a
# darker colour (a camp).
THRONE, CORNER, CAMP = "throne", "corner", "camp"


@dataclass(frozen=True, slots=True)
class Piece:
    """A piece (or a stack of `count` checkers) of one side (0 White, 1 Black). Its `kind`
    names its class in the picture; `king`, `dux`, `incitus`, `knight`, `commander` and `mercenary` get
    their own emblem."""

    side: int
    kind: str
    count: int = 1


@dataclass(frozen=True, slots=True)
class Squares:
    """A board of `files` × `ranks` squares, named `names` (by index), some with `roles`."""

    files: int
    ranks: int
    names: tuple[str, ...]
    roles: Mapping[int, str] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Points:
    """A table of 24 points in four quarters (0: points 1–6 lower right, 1: 7–12 upper
    right, 2: 13–18 upper left, 3: 19–24 lower left) with a tray for the checkers borne off.
    `labels`: a quarter's caption; `unused`: quarters no checker may enter, with two lines
    of caption."""

    labels: Mapping[int, str] = field(default_factory=dict)
    unused: Mapping[int, tuple[str, str]] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Diagram:
    """One position: its board, its pieces (place -> piece), the marks of the last ply
    (place -> FROM/TO/CAPTURED/REMOVED, in drawing order), the checkers each side has
    borne off, the dice rolled, and a title (the picture's accessible name)."""

    title: str
    board: Squares | Points
    pieces: Mapping[int, Piece]
    marks: Mapping[int, str] = field(default_factory=dict)
    off: tuple[int, int] = (0, 0)
    dice: tuple[int, ...] = ()


def ply_marks(squares: Iterable[int], captured: Iterable[int] = (), removed: int | None = None) -> dict[int, str]:
    """The marks of a ply on a board of squares: its first square FROM, its last TO (a
    placement: one square), then what it captured and removed (these win over FROM/TO)."""
    path = list(squares)
    marks = {path[0]: FROM, path[-1]: TO} if path else {}
    marks.update({square: CAPTURED for square in captured})
    if removed is not None:
        marks[removed] = REMOVED
    return marks
