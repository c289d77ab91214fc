"""A toy game from outside the package, to prove that a game is one plug-in point:
a grammar file (tests/fixtures/slide.lark), this rules class, and `register(Slide)`.

Slide: a 3×3 board, White's two men on a1 and c1, Black's on a3 and c3, White first. A ply
steps one man one square forward or sideways onto an empty square (Z1), one's own man
(Z2); the first to reach the far rank wins (Z3).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import NamedTuple

from lusoria.validator.base import BLACK, WHITE, Illegal, OptionError, Outcome, Played
from lusoria.validator.diagram import Diagram, Piece, Squares, ply_marks
from lusoria.validator.grid import GridGame, GridPly

SIZE = 3
NAMES = tuple("abc"[square % SIZE] + str(square // SIZE + 1) for square in range(SIZE * SIZE))
LETTERS = {WHITE: "P", BLACK: "p"}
FAR_RANK = "far rank"  # how a game ends (Outcome.ending)
_PLY = re.compile(r"([a-c][1-3])-([a-c][1-3])")


def _squares(ply: str) -> tuple[int, int]:
    """The origin and target of a ply the grammar has accepted."""
    match = _PLY.fullmatch(ply)
    assert match is not None, ply
    return NAMES.index(match[1]), NAMES.index(match[2])


class SlidePosition(NamedTuple):
    board: str  # 9 squares, a1 b1 … c3: "P", "p" or "."
    turn: int


class Slide(GridGame[SlidePosition]):
    name = "slide"
    grammar = Path(__file__).parent / "fixtures" / "slide.lark"
    end_rule = "Z3"
    endings = (FAR_RANK,)
    options: dict[str, tuple[str, ...]] = {}
    presets: dict[str, dict[str, str]] = {"seed": {}}

    def initial(self) -> SlidePosition:
        return SlidePosition("P.P...p.p", WHITE)

    def parse_position(self, text: str) -> SlidePosition:
        ranks, _, turn = text.partition(" ")
        rows = ranks.split("/")
        if (
            len(rows) != SIZE
            or any(len(row) != SIZE or set(row) - set("Pp.") for row in rows)
            or turn not in ("w", "b")
        ):
            raise OptionError(f"'{text}' is not a slide position (three ranks of P, p or ., then w or b)")
        return SlidePosition("".join(reversed(rows)), WHITE if turn == "w" else BLACK)

    def format_position(self, position: SlidePosition) -> str:
        ranks = (position.board[start : start + SIZE] for start in range(SIZE * (SIZE - 1), -1, -SIZE))
        return "/".join(ranks) + (" w" if position.turn == WHITE else " b")

    def turn(self, position: SlidePosition) -> int:
        return position.turn

    def material(self, position: SlidePosition) -> tuple[int, int]:
        return position.board.count("P"), position.board.count("p")

    def render(self, position: SlidePosition) -> str:
        return self.format_position(position)

    def diagram(self, position: SlidePosition, last: str | None = None) -> Diagram:
        marks = ply_marks(_squares(last)) if last else {}
        pieces = {
            square: Piece(WHITE if code == "P" else BLACK, "man")
            for square, code in enumerate(position.board)
            if code != "."
        }
        return Diagram(f"Slide: {self.format_position(position)}", Squares(SIZE, SIZE, NAMES), pieces, marks)

    def play(self, position: SlidePosition, text: str) -> Played[SlidePosition]:
        if self.outcome(position):
            raise Illegal("Z3", "the game is over")
        origin, target = _squares(text)
        side = position.turn
        if position.board[origin] != LETTERS[side]:
            raise Illegal("Z2", f"{NAMES[origin]} holds no man of the side to move")
        forward = SIZE if side == WHITE else -SIZE
        if (
            target - origin not in (forward, 1, -1)
            or abs(target % SIZE - origin % SIZE) > 1
            or position.board[target] != "."
        ):
            raise Illegal("Z1", f"a man steps forward or sideways onto an empty square, not {text}")
        board = list(position.board)
        board[origin], board[target] = ".", LETTERS[side]
        after = SlidePosition("".join(board), 1 - side)
        return Played(after, text, self.outcome(after))

    def outcome(self, position: SlidePosition) -> Outcome | None:
        if "P" in position.board[-SIZE:]:
            return Outcome("1-0", "Z3", "White reached the far rank", FAR_RANK)
        if "p" in position.board[:SIZE]:
            return Outcome("0-1", "Z3", "Black reached the far rank", FAR_RANK)
        return None

    def legal_plies(self, position: SlidePosition) -> list[str]:
        plies = []
        for origin in range(SIZE * SIZE):
            for target in range(SIZE * SIZE):
                try:
                    self.play(position, f"{NAMES[origin]}-{NAMES[target]}")
                except Illegal:
                    continue
                plies.append(f"{NAMES[origin]}-{NAMES[target]}")
        return plies

    def ply_parts(self, text: str) -> GridPly | None:
        squares = tuple(("abc".index(name[0]), int(name[1])) for name in text.split("-"))
        return GridPly(False, None, squares, False, None, None)
