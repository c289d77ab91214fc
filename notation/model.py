"""The record model: what a record says, independent of any game's rules.

Source details (line and column, both 1-based; the move numbers written) are kept but take
no part in equality, so that a record equals its canonical re-reading.
"""
# lusoria: compiled with mypyc

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field


@dataclass(slots=True, init=False)
class Ply:
    """One player's whole turn, as written (move number and suffix apart)."""

    text: str
    line: int = field(compare=False)
    column: int = field(compare=False)
    number: str | None = field(compare=False)  # the move number written before it: "12."
    nags: list[int]
    comments: list[str]
    variations: list[Line]
    width: int = field(compare=False)  # the characters the source writes it in, where not its text's: a
    # reader of another format places it over its own words (a Tablut Challenge log's `e3 to e2`); 0: its text's

    def __init__(
        self,
        text: str,
        line: int = 0,
        column: int = 0,
        number: str | None = None,
        nags: list[int] | None = None,
        comments: list[str] | None = None,
        variations: list[Line] | None = None,
        width: int = 0,
    ) -> None:
        # written out, so that mypyc compiles it (the reader makes one per ply); no lists shared
        self.text, self.line, self.column, self.number, self.width = text, line, column, number, width
        self.nags = [] if nags is None else nags
        self.comments = [] if comments is None else comments
        self.variations = [] if variations is None else variations

    @property
    def breaks_line(self) -> bool:
        """Whether comments or a variation follow it: the ply after it is numbered, a move's second
        too (`3. f5-f3 {good} 3... e9-i9`)."""
        return bool(self.comments or any(line.plies for line in self.variations))

    def __reduce__(self) -> tuple[type[Ply], tuple]:
        # compiled, the default pickling calls __init__ without arguments (the worker pool pickles plies)
        return Ply, (
            self.text,
            self.line,
            self.column,
            self.number,
            self.nags,
            self.comments,
            self.variations,
            self.width,
        )


@dataclass(slots=True)
class Line:
    """A sequence of plies: the main line or a variation."""

    plies: list[Ply] = field(default_factory=list)
    comments: list[str] = field(default_factory=list)  # before the first ply

    def __iter__(self) -> Iterator[Ply]:
        """Its plies, in order (`for ply in record.main`)."""
        return iter(self.plies)


@dataclass(slots=True)
class Record:
    """One game record: its tags, its main line and its result marker."""

    tags: dict[str, str]
    main: Line
    result: str
    line: int = field(default=1, compare=False)
    tag_places: dict[str, tuple[int, int]] = field(default_factory=dict, compare=False)  # name -> line, column
    result_line: int = field(default=0, compare=False)
    result_column: int = field(default=0, compare=False)

    @property
    def game(self) -> str:
        """Its Game tag in lower case ("" when it has none)."""
        return self.tags.get("Game", "").lower()

    def mendable(self) -> Record:
        """A copy whose tags and main line's plies (their text and comments) are its own: what a replay
        mends as a reader's claims say (validator/base.py's `Claims`: a king added to a capture list, the
        result the game ended with), leaving the record its caller holds as read. The rest is shared."""
        plies = [
            Ply(ply.text, ply.line, ply.column, ply.number, ply.nags, list(ply.comments), ply.variations, ply.width)
            for ply in self.main.plies
        ]
        main = Line(plies, self.main.comments)
        return Record(
            dict(self.tags), main, self.result, self.line, self.tag_places, self.result_line, self.result_column
        )
