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
CELL = 40  # a square's width, in the units of a picture and of a glyph's marks
# The colours of a glyph's marks, by role: the piece's face and outline, the other side's, an ink that
# stands out on its face, a faint one; NONE leaves a mark unfilled.
FACE, OUTLINE, OTHER_FACE, OTHER_OUTLINE, INK, FAINT, NONE = (
    "face",
    "outline",
    "other-face",
    "other-outline",
    "ink",
    "faint",
    "none",
)
# Roles of a square: drawn as a framed cross (a throne, a corner the king escapes to) or in a
# darker colour (a camp).
THRONE, CORNER, CAMP = "throne", "corner", "camp"


@dataclass(frozen=True, slots=True)
class Mark:
    """A shape of a piece's glyph, about the centre of its square (at 0 0, in CELL units): a `path` (SVG
    path data of M, L, H and Z steps), or a circle (`radii`: one) or an ellipse (two: across, up); its
    colours by role, stroke width, dashes and joins as SVG writes them."""

    path: str = ""
    radii: tuple[float, ...] = ()
    fill: str = ""
    stroke: str = ""
    width: float = 0
    dashes: str = ""
    join: str = ""


DISC = Mark(radii=(CELL * 0.36,), fill=FACE, stroke=OUTLINE, width=1.5)  # a piece: what a kind with no glyph is
Glyph = tuple[Mark, ...]  # how a kind of piece is drawn: its marks, in drawing order (the DISC first, mostly)


@dataclass(frozen=True, slots=True)
class Piece:
    """A piece (or a stack of `count` checkers) of one side (0 White, 1 Black). Its `kind`
    names its class in the picture, and its glyph there (`Diagram.glyphs`)."""

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
    borne off, the dice rolled, a title (the picture's accessible name), the glyphs of the
    game's kinds of piece (a kind with none is a DISC), and a caption said under a board of squares
    (the pieces each side holds in hand, in a game of placements: "" for none)."""

    title: str
    board: Squares | Points
    pieces: Mapping[int, Piece]
    marks: Mapping[int, str] = field(default_factory=dict)
    off: tuple[int, int] = (0, 0)
    dice: tuple[int, ...] = ()
    glyphs: Mapping[str, Glyph] = field(default_factory=dict)
    caption: str = ""


def ply_marks(squares: Iterable[int], captured: Iterable[int] = (), removed: int | None = None) -> dict[int, str]:
    """The marks of a ply on a board of squares: its first square FROM, its last TO (a
    placement: one square), then what it captured and removed (these win over FROM/TO)."""
    path = list(squares)
    marks = {path[0]: FROM, path[-1]: TO} if path else {}
    marks.update({square: CAPTURED for square in captured})
    if removed is not None:
        marks[removed] = REMOVED
    return marks
