"""The tafl engine's board (validator/tafl.py): the pieces as codes in a board of bytes (a1 b1 …
by rank; the defenders, soldiers and king, are White, the attackers Black) and their groups,
what a square is to the rules, how a game ends; the tables of a board (`Geometry`, one for each
board), what a game's board is (`TaflBoard`), positions, boards read from position strings
(`read_board`), plies read (`parse_move`) and capture lists written (`capture_list`)."""
# lusoria: compiled with mypyc

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from functools import cache
from typing import Final, NamedTuple

from mypy_extensions import mypyc_attr

from lusoria.validator.base import BLACK, WHITE, Illegal, NotAPly
from lusoria.validator.grid import SQUARE, board_grid, read_ranks

EMPTY: Final = 0
DEFENDER: Final = 1  # a defender soldier (White)
KING: Final = 2
ATTACKER: Final = 3  # an attacker (Black)
# OpenTafl's pieces that jump (G14): knights (OTN's N, n) and commanders (C, c) of either side
DEFENDER_KNIGHT: Final = 4
DEFENDER_COMMANDER: Final = 5
ATTACKER_KNIGHT: Final = 6
ATTACKER_COMMANDER: Final = 7
# OpenTafl's mercenaries (M, m): soldiers that change sides when captured, instead of leaving the board
DEFENDER_MERCENARY: Final = 8
ATTACKER_MERCENARY: Final = 9
MERCENARIES: Final = (DEFENDER_MERCENARY, ATTACKER_MERCENARY)  # White's, Black's
LETTERS: Final[dict[int, str]] = {
    DEFENDER: "P",
    KING: "K",
    ATTACKER: "p",
    DEFENDER_KNIGHT: "N",
    DEFENDER_COMMANDER: "C",
    ATTACKER_KNIGHT: "n",
    ATTACKER_COMMANDER: "c",
    DEFENDER_MERCENARY: "M",
    ATTACKER_MERCENARY: "m",
}
NOBODY = 255  # the owner of an empty square: no side
# by piece code (bytes: a table compiled code reads fast)
OWNER: Final = bytes((NOBODY, WHITE, WHITE, BLACK, WHITE, WHITE, BLACK, BLACK, WHITE, BLACK))
WHITE_PIECES: Final = bytes(piece for piece, owner in enumerate(OWNER) if owner == WHITE)
# by piece code, the ordinary piece whose rules of the board's regions and speed it follows
ORDINARY: Final = bytes((EMPTY, DEFENDER, KING, ATTACKER, DEFENDER, DEFENDER, ATTACKER, ATTACKER, DEFENDER, ATTACKER))
PIECE_NAMES: Final = (
    "",
    "soldier",
    "king",
    "soldier",
    "knight",
    "commander",
    "knight",
    "commander",
    "mercenary",
    "mercenary",
)
# by piece code, what a capture leaves on its square: nothing, or the mercenary of the other side
TAKEN: Final = bytes((EMPTY,) * 8 + (ATTACKER_MERCENARY, DEFENDER_MERCENARY))
# How a piece jumps over an enemy soldier next to it (Settings.jumps, by piece code; OTN's kj, nj, cj)
NO_JUMP: Final = 0
RESTRICTED_JUMP: Final = 1  # only from or to a square of a region
JUMP: Final = 2
CAPTURING_JUMP: Final = 3  # the soldier jumped over is captured
# How a tafl game ends (Outcome.ending)
KING_CAPTURED: Final = "king captured"
KING_ESCAPED: Final = "king escaped"
EXIT_FORT: Final = "exit fort"
ENCIRCLED: Final = "encircled"
NO_MOVE: Final = "no move"
REPETITION: Final = "repetition"
# What a square is to the rules (Settings.region): a plain square, the throne, a corner, a fort
PLAIN: Final = 0
THRONE_SQUARE: Final = 1
CORNER_SQUARE: Final = 2
ATTACKER_FORT: Final = 3
DEFENDER_FORT: Final = 4
# Groups of pieces
SOLDIERS: Final = (DEFENDER, ATTACKER)
JUMPED_OVER: Final = (*SOLDIERS, DEFENDER_MERCENARY, ATTACKER_MERCENARY)  # the pieces a jump goes over (G14)
EVERY_PIECE: Final = (DEFENDER, KING, ATTACKER)


class Geometry:
    """The squares of a size × size board (names, lines: grid.Grid's) and what the rules look up
    about each (by index); `throne` -1 for a board without one."""

    def __init__(self, size: int, throne: int) -> None:
        grid = board_grid(size, size)
        squares = size * size
        self.size, self.squares, self.throne = size, squares, throne
        self.names: tuple[str, ...] = grid.names
        self.index: dict[str, int] = grid.index
        self.rays: tuple[tuple[tuple[int, ...], ...], ...] = grid.rays  # to the edge: up, down, right, left
        self.neighbours: tuple[tuple[int, ...], ...] = grid.neighbours
        # (neighbour, the square behind it) in each direction, for custodial captures
        self.pincers: tuple[tuple[tuple[int, int], ...], ...] = tuple(
            tuple((ray[0], ray[1] if len(ray) > 1 else -1) for ray in rays if ray) for rays in self.rays
        )  # -1: off
        # the board
        self.edge = bytes(not all(rays) for rays in self.rays)  # bools as bytes 0 and 1
        self.corners = bytes(s in grid.corners for s in range(squares))
        self.next_to_throne: frozenset[int] = frozenset(self.neighbours[throne] if throne >= 0 else ())
        self.moves: dict[str, Move] = {}  # the plies read on this board (parse_move)
        self.paths: dict[int, tuple[int, ...]] = {}  # by origin * squares + target (`path`)

    def __reduce__(self) -> tuple[Callable[[int, int], Geometry], tuple[int, int]]:
        """Pickled as the call of `geometry` that gives it (a report sent by a worker: `api.reports(jobs=2)`):
        compiled, a native class with arguments to its `__init__` could not be unpickled."""
        return geometry, (self.size, self.throne)

    def path(self, origin: int, target: int) -> tuple[int, ...]:
        """The squares a move from origin to target crosses, then target; empty when they share
        no rank or file. Made when first asked (a table of all squares² would take a 19×19
        board's start-up a tenth of a second compiled, half a second in pure Python)."""
        key = origin * self.squares + target
        found = self.paths.get(key)
        if found is None:
            size, step = self.size, 0
            if origin // size == target // size:
                step = 1 if target > origin else -1
            elif origin % size == target % size:
                step = size if target > origin else -size
            found = self.paths[key] = tuple(range(origin + step, target + step, step)) if step else ()
        return found


@cache
def geometry(size: int, throne: int) -> Geometry:
    """The one Geometry of a board (its tables are made once)."""
    return Geometry(size, throne)


class TaflBoard(NamedTuple):
    """What a tafl game's board is: its size, its throne (and what the game calls it), the start
    (a position string), and where the king escapes to."""

    size: int
    throne: str  # the throne's square, e5; "" for a board without one
    throne_name: str  # "konakis" (Tablut), "throne"
    start: str
    corner_escape: bool  # the king escapes to a corner (restricted and hostile squares), not to any edge square


class TaflPosition(NamedTuple):
    board: bytes  # size × size squares, a1 b1 …
    turn: int


@mypyc_attr(native_class=False)
class RememberingPosition(TaflPosition):
    """A position under a repetition rule: equal to, and written as, the plain position; it also
    remembers the positions that arose after earlier plies since the last capture (a capture
    makes every earlier position unreachable), and those that arose twice. After a capture
    under berserk rules (G15), `berserker` is the square of the piece that moves again (-1: none)."""

    earlier: frozenset[TaflPosition]
    twice: frozenset[TaflPosition]
    berserker: int

    def __new__(
        cls,
        board: bytes,
        turn: int,
        earlier: frozenset[TaflPosition] = frozenset(),
        twice: frozenset[TaflPosition] = frozenset(),
        berserker: int = -1,
    ) -> RememberingPosition:
        position = TaflPosition.__new__(cls, board, turn)
        position.earlier, position.twice, position.berserker = earlier, twice, berserker
        return position

    def __getnewargs__(self) -> tuple[bytes, int, frozenset[TaflPosition], frozenset[TaflPosition], int]:
        return self.board, self.turn, self.earlier, self.twice, self.berserker


class Move(NamedTuple):
    piece: str | None
    origin: int
    target: int
    captures: frozenset[int] | None  # None: not written
    announcement: str
    berserk: bool = False  # written `d3=f3` (as OTN writes it): the piece that captured moves again (G15)


PLY_TAIL: Final = rf"(?:x(?P<captures>[KP]?{SQUARE}(?:/[KP]?{SQUARE})*))?(?P<announcement>\+{{0,2}})"  # after the move
PLY_PATTERN = re.compile(  # every tafl game's PLY, its squares on any board (`_read_move` refuses those off it)
    rf"(?P<piece>[KP])?(?P<origin>{SQUARE})(?P<kind>[-=])(?P<target>{SQUARE}){PLY_TAIL}"
)
PLY_SHAPE: Final = (
    "a ply is a move from square to square (e3-c3), which may name its piece first (Ke5-e6) "
    "and the squares it captures after x (e3-c3xd3/Kf3)"
)


MOVES_KEPT: Final = 65536  # plies a Geometry keeps read (parse_move)


def parse_move(geo: Geometry, text: str) -> Move | None:
    """The parts of a ply the game's grammar accepts; None for the pass `--`; NotAPly for text
    that is no tafl ply."""
    if text == "--":
        return None
    move = geo.moves.get(text)
    if move is None:
        if len(geo.moves) >= MOVES_KEPT:
            geo.moves.clear()
        move = geo.moves[text] = _read_move(geo, text)
    return move


def _read_move(geo: Geometry, text: str) -> Move:
    m = PLY_PATTERN.fullmatch(text)
    if m is None:
        raise NotAPly(text, "a tafl game", PLY_SHAPE)
    index = geo.index
    off = next((square for square in re.findall(r"[a-s][0-9]+", text) if square not in index), None)
    if off is not None:  # a grammar of every board (up to s19) has accepted it: `play_ply` names the rule
        raise Illegal("", f"{off} is not a square of the {geo.size}×{geo.size} board ({geo.names[0]}–{geo.names[-1]})")
    captures = None if m["captures"] is None else frozenset(index[sq.lstrip("KP")] for sq in m["captures"].split("/"))
    return Move(m["piece"], index[m["origin"]], index[m["target"]], captures, m["announcement"], m["kind"] == "=")


_CODES: Final = {letter: code for code, letter in LETTERS.items()}


def read_board(text: str, size: int, title: str, letters: str = "KPp") -> bytearray:
    """The squares of a position string's board whose pieces are `letters` (`read_ranks`)."""
    return read_ranks(text, size, size, title, {letter: _CODES[letter] for letter in letters})


def capture_list(geo: Geometry, squares: Iterable[int]) -> str:
    """Captured squares as a capture list writes them: by file, then by rank (`c1/d1/e1`)."""
    return "/".join(geo.names[s] for s in sorted(squares, key=lambda s: (s % geo.size, s // geo.size)))
