"""Ludus latrunculorum (RULES.md L0–L5, S1–S5, P1, E1–E3, X1–X4 and the options)."""
# lusoria: compiled with mypyc

from __future__ import annotations

import random
import re
from collections.abc import Callable
from functools import cache, lru_cache, partial
from typing import Final, NamedTuple

from mypy_extensions import mypyc_attr

from lusoria.notation.numbers import checked_number, whole_number
from lusoria.validator.base import BLACK, SIDE_NAMES, WHITE, Illegal, OptionError, Outcome, Played, check_capture_list
from lusoria.validator.diagram import Diagram, Piece, Squares, ply_marks
from lusoria.validator.grid import GridGame, GridPly

EMPTY: Final = 0
PAWN: Final = 1
DUX: Final = 2
INCITUS: Final = 3
NO_MOVE: Final = "no move"  # how a game ends (Outcome.ending): a side without a legal move
TOO_FEW: Final = "too few pieces"  # a side reduced to one piece (or to its dux alone)
LETTERS: Final[dict[int, str]] = {1: "P", 2: "D", 3: "I", 5: "p", 6: "d", 7: "i"}
CODES = {letter: code for code, letter in LETTERS.items()}
FILES = "abcdefghijklmnop"


def piece(side: int, kind: int) -> int:
    return kind + 4 * side


# by side, the pieces that move and capture (a tuple of any length: compiled code indexes it fast)
ACTIVE: Final[tuple[tuple[int, int], ...]] = (
    (piece(WHITE, PAWN), piece(WHITE, DUX)),
    (piece(BLACK, PAWN), piece(BLACK, DUX)),
)


class Geometry:
    """Squares and their neighbourhoods on a W×H board (index = rank * W + file)."""

    def __init__(self, width: int, height: int):
        self.width, self.height = width, height
        self.names = [FILES[s % width] + str(s // width + 1) for s in range(width * height)]
        self.index = {name: s for s, name in enumerate(self.names)}
        self.steps = [tuple(n for n in self._line(s, 1) if n is not None) for s in range(width * height)]
        # (the next square, the one behind it) in each direction: captures and jumps
        self.pincers = [
            [(a, b) for a, b in zip(self._line(s, 1), self._line(s, 2)) if a is not None and b is not None]
            for s in range(width * height)
        ]
        self.rays = [self._rays(s) for s in range(width * height)]
        last = width * height - 1
        self.corners = {0, width - 1, last - width + 1, last}
        # (corner, its other neighbour) for each square next to a corner (L2)
        self.corner_pincers: list[list[tuple[int, int]]] = [[] for _ in range(width * height)]
        self.enclosures: list[list[tuple[int, int]]] = []  # pairs of squares that enclose a square (S4)
        for s in range(width * height):
            up, down, right, left = self._line(s, 1)
            if s in self.corners:
                a, b = [n for n in (up, down, right, left) if n is not None]
                self.corner_pincers[a].append((s, b))
                self.corner_pincers[b].append((s, a))
                self.enclosures.append([(a, b)])
            else:
                self.enclosures.append(
                    [(p, q) for p, q in ((up, down), (right, left)) if p is not None and q is not None]
                )

    def _offset(self, square: int, df: int, dr: int) -> int | None:
        file, rank = square % self.width + df, square // self.width + dr
        return rank * self.width + file if 0 <= file < self.width and 0 <= rank < self.height else None

    def _line(self, square: int, distance: int) -> tuple[int | None, ...]:
        """The squares `distance` away: up, down, right, left (None off the board)."""
        return tuple(
            self._offset(square, df * distance, dr * distance) for df, dr in ((0, 1), (0, -1), (1, 0), (-1, 0))
        )

    def _rays(self, square: int) -> tuple[tuple[int, ...], ...]:
        rays = []
        for df, dr in ((0, 1), (0, -1), (1, 0), (-1, 0)):
            ray, k = [], 1
            while (target := self._offset(square, df * k, dr * k)) is not None:
                ray.append(target)
                k += 1
            rays.append(tuple(ray))
        return tuple(rays)


geometry = cache(Geometry)


class LatrunculiPosition(NamedTuple):
    board: bytes
    turn: int
    hand: tuple[int, int]  # pieces White and Black still have to place


class Settings(NamedTuple):
    """A rule set's options as plain values, for the functions that play a ply."""

    variant: str
    geo: Geometry
    pieces: int  # per side
    inciti: bool  # seneca: captured pieces become inciti
    placing: bool  # seneca, piso: the pieces are placed first
    slides: bool  # petteia, dux: pieces move any distance, and do not jump
    move_rule: str  # the rule a wrong movement breaks
    setup_rule: str  # the rule a wrong placement breaks
    placement_captures: bool
    jump_any: bool  # jump-over=any
    removal_first: bool  # removal=before-move
    corner_capture: bool
    min_pieces: int


class Move(NamedTuple):
    placement: bool
    piece: str | None
    squares: tuple[str, ...]  # origin then every landing square; a placement: its square
    jumps: bool
    captures: frozenset[str] | None  # None: not written
    removal: str | None
    end: bool


_PLY = re.compile(
    r"(?P<placement>@)?(?P<piece>[DP])?(?P<path>[a-p][0-9]+(?:[-^][a-p][0-9]+)*)"
    r"(?:x(?P<captures>[^~#]+))?(?:~(?P<removal>[a-p][0-9]+))?(?P<end>#)?"
)


@lru_cache(maxsize=65536)
def parse_move(text: str) -> Move:
    """The parts of a ply the grammar has accepted."""
    m = _PLY.fullmatch(text)
    assert m is not None, text  # the grammar has accepted it
    captures = None if m["captures"] is None else frozenset(c.lstrip("DP") for c in m["captures"].split("/"))
    return Move(
        bool(m["placement"]),
        m["piece"],
        tuple(re.split(r"[-^]", m["path"])),
        "^" in m["path"],
        captures,
        m["removal"],
        bool(m["end"]),
    )


def _run_length(empty: re.Match[str]) -> str:
    """A run of empty squares in a position string: its length (NOTATION.md §6)."""
    return str(len(empty[0]))


@mypyc_attr(native_class=False)
class Latrunculi(GridGame[LatrunculiPosition]):
    name = "latrunculi"
    pieces = ("PDI", "pdi")
    letters = LETTERS
    end_rule = "L5"
    endings = (NO_MOVE, TOO_FEW)
    options = {
        "placement-captures": ("no", "yes"),
        "jump-over": ("own", "any"),
        "removal": ("after-move", "before-move"),
        "pieces": ("16",),
        "corner-capture": ("yes", "no"),
        "min-pieces": ("2", "1"),
    }
    presets = {"seneca": {}, "piso": {}, "petteia": {}, "dux": {}}
    MAX_PIECES = 128  # per side, under the Rules option pieces=N
    presets_are_options = False  # each variant has rules of its own
    MOVE_RULE = {"seneca": "S2", "piso": "S2", "petteia": "E2", "dux": "X2"}
    SETUP_RULE = {"seneca": "S1", "piso": "S1", "petteia": "E1", "dux": "X1"}

    def __init__(self, options=None, variant=None, size: tuple[int, int] = (8, 8)):
        super().__init__(options, variant)
        o, v = self.option, self.variant
        self.geo = geometry(*size)
        self.settings = Settings(
            variant=v,
            geo=self.geo,
            pieces=checked_number(o["pieces"], 2, self.MAX_PIECES),
            inciti=v == "seneca",
            placing=v in ("seneca", "piso"),
            slides=v in ("petteia", "dux"),
            move_rule=self.MOVE_RULE[v],
            setup_rule=self.SETUP_RULE[v],
            placement_captures=o["placement-captures"] == "yes",
            jump_any=o["jump-over"] == "any",
            removal_first=o["removal"] == "before-move",
            corner_capture=o["corner-capture"] == "yes",
            min_pieces=checked_number(o["min-pieces"], 1, 2),
        )

    @property
    def move_rule(self) -> str:
        """The rule a wrong movement breaks: S2, E2 or X2."""
        return self.settings.move_rule

    # -- options and tags ------------------------------------------------------
    @classmethod
    def accepts(cls, key: str, value: str) -> bool:
        if key == "pieces":
            return whole_number(value, 2, cls.MAX_PIECES) is not None
        return super().accepts(key, value)

    @classmethod
    def known_values(cls, key: str) -> str:
        return "a whole number of pieces per side, 16 by default" if key == "pieces" else super().known_values(key)

    @classmethod
    def choices(cls, key: str) -> tuple[str, ...]:
        return () if key == "pieces" else super().choices(key)

    @classmethod
    def from_tags(cls, tags: dict[str, str]) -> Latrunculi:
        rules = cls(cls.options_from_tags(tags), tags.get("Variant"), _board_size(tags.get("Board")))
        rules._check_room()
        return rules

    @classmethod
    def rules_for_position(cls, text: str) -> Latrunculi:
        """The board size is read off the string: its ranks and the squares of the first."""
        ranks = text.split()[0].split("/") if text.split() else []
        runs = (
            [1 if not run else whole_number(run, 0, 16) for run, _ in re.findall(r"([0-9]+)|(.)", ranks[0])]
            if ranks
            else [8]
        )
        known = [run for run in runs if run is not None]
        width = sum(known) if len(known) == len(runs) else 0
        return cls(size=(width, len(ranks))) if 4 <= width <= 16 and 4 <= len(ranks) <= 16 else cls()

    def _check_room(self) -> None:
        width, height = self.geo.width, self.geo.height
        if (width, height) != (8, 8) and not self.settings.placing:
            raise OptionError(f"the {self.variant} variant is played on 8x8 only", "Board")
        if self.variant == "dux" and self.settings.pieces != 16:
            raise OptionError("pieces does not apply to the dux variant (8 pawns and a dux each)")
        if self.settings.placing and 2 * self.settings.pieces > width * height:
            raise OptionError(f"a {width}x{height} board cannot hold 2 x {self.settings.pieces} pieces", "Board")
        pieces = self.settings.pieces
        if self.variant == "petteia" and (pieces % width or 2 * (pieces // width) >= height):
            raise OptionError(
                f"petteia needs the pieces to fill whole ranks with a rank free between the "
                f"sides: {pieces} pieces do not on {width}x{height}"
            )

    def extra_tags(self) -> dict[str, str]:
        tags = super().extra_tags()
        if (self.geo.width, self.geo.height) != (8, 8):
            tags["Board"] = f"{self.geo.width}x{self.geo.height}"
        return tags

    # -- positions -------------------------------------------------------------
    def initial(self) -> LatrunculiPosition:
        geo = self.geo
        board = bytearray(geo.width * geo.height)
        hand = (0, 0)
        if self.settings.placing:
            hand = (self.settings.pieces, self.settings.pieces)
        elif self.variant == "petteia":
            ranks = self.settings.pieces // geo.width
            board[: ranks * geo.width] = bytes([piece(WHITE, PAWN)]) * (ranks * geo.width)
            board[-ranks * geo.width :] = bytes([piece(BLACK, PAWN)]) * (ranks * geo.width)
        else:  # dux (X1)
            board[0:8] = bytes([piece(WHITE, PAWN)]) * 8
            board[56:64] = bytes([piece(BLACK, PAWN)]) * 8
            board[geo.index["e2"]], board[geo.index["d7"]] = piece(WHITE, DUX), piece(BLACK, DUX)
        return LatrunculiPosition(bytes(board), WHITE, hand)

    def parse_position(self, text: str) -> LatrunculiPosition:
        geo = self.geo
        fields = text.split()
        if len(fields) not in (2, 4) or fields[1] not in ("w", "b"):
            raise OptionError(
                "a Latrunculi position is the ranks, the side to move (w or b) and, while "
                "pieces are placed, the pieces each side holds: '8/8/8/8/8/8/8/8 w 16 16'"
            )
        ranks = fields[0].split("/")
        if len(ranks) != geo.height:
            raise OptionError(f"the board has {geo.height} ranks, not {len(ranks)}")
        board = bytearray()
        for rank in reversed(ranks):
            row = bytearray()
            for run, letter in re.findall(r"([0-9]+)|(.)", rank):
                if letter and letter not in CODES:
                    raise OptionError(f"'{letter}' is not a piece (P, p, D, d, I, i) or a count of empty squares")
                empty = whole_number(run, 0, geo.width) if run else 0
                if empty is None:
                    raise OptionError(f"the rank '{rank[:20]}' covers more than {geo.width} squares")
                row.extend(bytes(empty) if run else bytes([CODES[letter]]))
            if len(row) != geo.width:
                raise OptionError(f"the rank '{rank}' covers {len(row)} squares, not {geo.width}")
            board.extend(row)
        if not self.settings.inciti and (CODES["I"] in board or CODES["i"] in board):
            raise OptionError(f"there are no inciti in the {self.variant} variant")
        if self.variant != "dux" and (CODES["D"] in board or CODES["d"] in board):
            raise OptionError("only the dux variant has a dux")
        pieces = self.settings.pieces
        hand = [n for n in (whole_number(count, 0, pieces) for count in fields[2:]) if n is not None]
        if len(hand) != len(fields) - 2 or hand and not self.settings.placing:
            raise OptionError(
                f"pieces in hand are two numbers from 0 to {pieces}, and only seneca and piso place pieces"
            )
        return LatrunculiPosition(
            bytes(board), WHITE if fields[1] == "w" else BLACK, (hand[0], hand[1]) if hand else (0, 0)
        )

    def format_position(self, position: LatrunculiPosition) -> str:
        width = self.geo.width
        ranks = []
        for rank in range(self.geo.height - 1, -1, -1):
            text = re.sub(
                r"\.+",
                _run_length,
                "".join(LETTERS.get(code, ".") for code in position.board[rank * width : (rank + 1) * width]),
            )
            ranks.append(text)
        text = "/".join(ranks) + (" w" if position.turn == WHITE else " b")
        return text + (f" {position.hand[0]} {position.hand[1]}" if any(position.hand) else "")

    def turn(self, position: LatrunculiPosition) -> int:
        return position.turn

    def material(self, position: LatrunculiPosition) -> tuple[int, int]:
        return _count(position, WHITE), _count(position, BLACK)

    def board_width(self) -> int:
        return self.geo.width

    def square_board(self, position: LatrunculiPosition) -> bytes | None:
        return position.board

    def with_board(self, position: LatrunculiPosition, board: bytes) -> LatrunculiPosition:
        return LatrunculiPosition(board, position.turn, position.hand)

    def counted_letters(self) -> dict[str, str]:
        return {"white_inciti": "I", "black_inciti": "i"} if self.variant == "seneca" else {}

    def material_follows_empty_squares(self) -> bool:
        return self.variant != "seneca"  # a captured piece becomes an incitus in place

    @classmethod
    def fits_pattern(cls, width: int, height: int) -> bool:
        return True  # any board of 4 to 16 squares a side

    @classmethod
    def pattern_rest(cls, rest: list[str]) -> str:
        """The pieces each side holds in hand, each a number or `*`; without them, in and after
        the placement phase."""
        if not rest:
            return "*"
        if len(rest) != 2 or not all(field.isdigit() or field == "*" for field in rest):
            raise ValueError("a Latrunculi pattern ends with the pieces each side holds in hand, each a number or *")
        return " " + " ".join("[0-9]*" if field == "*" else field for field in rest)

    def render(self, position: LatrunculiPosition) -> str:
        geo = self.geo
        digits = len(str(geo.height))
        rows = []
        for rank in range(geo.height - 1, -1, -1):
            cells = [LETTERS.get(code, ".") for code in position.board[rank * geo.width : (rank + 1) * geo.width]]
            rows.append(f"{rank + 1:>{digits}} " + " ".join(cells))
        rows.append(" " * (digits + 1) + " ".join(FILES[: geo.width]))
        legend = "P p pawns, D d dux" if self.variant == "dux" else "P p pawns"
        if self.settings.inciti:
            legend += ", I i inciti"
        rows.append(f"{legend}; uppercase: White")
        if any(position.hand):
            rows.append(f"in hand: White {position.hand[WHITE]}, Black {position.hand[BLACK]}")
        return "\n".join(rows)

    def diagram(self, position: LatrunculiPosition, last: str | None = None) -> Diagram:
        geo, kinds = self.geo, {PAWN: "pawn", DUX: "dux", INCITUS: "incitus"}
        marks = {}
        if last:
            move = parse_move(last)
            marks = ply_marks(
                (geo.index[name] for name in move.squares),
                (geo.index[name] for name in sorted(move.captures or ())),
                None if move.removal is None else geo.index[move.removal],
            )
        return Diagram(
            f"Ludus latrunculorum ({self.variant}): {self.format_position(position)}",
            Squares(geo.width, geo.height, tuple(geo.names)),
            {square: Piece(code >> 2, kinds[code & 3]) for square, code in enumerate(position.board) if code},
            marks,
        )

    # -- plies -----------------------------------------------------------------
    def play(self, position: LatrunculiPosition, text: str) -> Played[LatrunculiPosition]:
        return _play(self.settings, position, text)

    def outcome(self, position: LatrunculiPosition) -> Outcome | None:
        return _end(self.settings, position, 1 - position.turn)

    # -- random play ------------------------------------------------------------
    def _movements(self, position: LatrunculiPosition) -> list[str]:
        """Every legal placement or movement, without captures or removal."""
        board, side, names = position.board, position.turn, self.geo.names
        if position.hand[side]:
            return ["@" + names[s] for s, code in enumerate(board) if code == EMPTY]
        moves = []
        active = (piece(side, PAWN), piece(side, DUX))
        for origin, code in enumerate(board):
            if code not in active:
                continue
            letter = "D" if code & 3 == DUX else ""
            if self.settings.slides:
                for ray in self.geo.rays[origin]:
                    for target in ray:
                        if board[target]:
                            break
                        moves.append(f"{letter}{names[origin]}-{names[target]}")
                continue
            moves += [f"{names[origin]}-{names[n]}" for n in self.geo.steps[origin] if not board[n]]
            moves += ["^".join(names[s] for s in path) for path in self._jump_paths(board, side, [origin])]
        return moves

    def _jump_paths(self, board: bytes, side: int, path: list[int]):
        for over, there in self.geo.pincers[path[-1]]:
            if _jumpable(board, side, over, self.settings.jump_any) and board[there] == EMPTY and there not in path:
                yield path + [there]
                yield from self._jump_paths(board, side, path + [there])

    def _removals(self, position: LatrunculiPosition, movement: str) -> list[str]:
        """The ways to write the removal that must follow `movement` ("" when none)."""
        incitus = piece(position.turn, INCITUS)
        if incitus not in position.board:
            return [""]
        settings = self.settings
        board = position.board if settings.removal_first else _resolve(settings, position, parse_move(movement))[0]
        return ["~" + self.geo.names[s] for s, code in enumerate(board) if code == incitus] or [""]

    def ply_parts(self, text: str) -> GridPly:
        move = parse_move(text)
        squares = tuple(_order(name) for name in move.squares)
        return GridPly(move.placement, move.piece, squares, move.jumps, move.captures, move.removal)

    def legal_plies(self, position: LatrunculiPosition) -> list[str]:
        return [
            self.play(position, movement + removal).text
            for movement in self._movements(position)
            for removal in self._removals(position, movement)
        ]

    def random_ply(self, position: LatrunculiPosition, rng: random.Random) -> str | None:
        movements = self._movements(position)
        if not movements:
            return None
        movement = rng.choice(movements)
        return self.play(position, movement + rng.choice(self._removals(position, movement))).text


def _play(settings: Settings, position: LatrunculiPosition, text: str) -> Played[LatrunculiPosition]:
    """Apply one ply as written under `settings`; Illegal when the rules forbid it."""
    move = parse_move(text)
    side = position.turn
    board, hand, captured, removed = _resolve(settings, position, move)
    if move.captures is not None:
        check_capture_list(text, "L1")
    if not settings.removal_first:
        removed = _remove(settings, board, side, move.removal)
    after = _position(bytes(board), 1 - side, (hand[0], hand[1]))
    outcome = _end(settings, after, side)
    warnings = [("L4", "marked # (the end), but the game goes on")] if move.end and outcome is None else []
    return Played(after, _canonical(settings, move, text, position.board, captured, removed), outcome, warnings)


def _position(board: bytes, turn: int, hand: tuple[int, int]) -> LatrunculiPosition:
    """A LatrunculiPosition made by tuple's own constructor (a NamedTuple's runs Python code, slowly)."""
    return tuple.__new__(LatrunculiPosition, (board, turn, hand))


def _canonical(
    settings: Settings, move: Move, text: str, before: bytes, captured: list[int], removed: int | None
) -> str | Callable[[], str]:
    """The ply in canonical form: as written when it already is (no piece letter and no dux,
    no captures, a removal only as written); else a function that writes it when it is read
    (validate never reads it)."""
    if (
        move.piece is None
        and move.captures is None
        and not captured
        and (removed is None or move.removal)
        and (move.placement or before[settings.geo.index[move.squares[0]]] & 3 != DUX)
    ):
        return text
    return partial(_format, settings.geo, move, before, captured, removed)


def _resolve(
    settings: Settings, position: LatrunculiPosition, move: Move
) -> tuple[bytearray, list[int], list[int], int | None]:
    """The turn up to the removal of an incitus after the move: the board, the
    pieces in hand, what the move captured and what was removed before it."""
    side, geo = position.turn, settings.geo
    board = bytearray(position.board)
    hand = list(position.hand)
    removed = _remove(settings, board, side, move.removal) if settings.removal_first else None
    target, kind = _move(settings, board, hand, side, move)
    captured = _captures(settings, board, side, target) if kind != "placement" or settings.placement_captures else []
    if move.captures is not None and move.captures != {geo.names[s] for s in captured}:
        said = "/".join(sorted(move.captures, key=_order)) or "nothing"
        real = "/".join(sorted((geo.names[s] for s in captured), key=_order)) or "nothing"
        dux = next((n for n in move.captures if board[geo.index.get(n, target)] == piece(1 - side, DUX)), None)
        if dux:
            raise Illegal("X3", f"the dux on {dux} is never captured; the move captures {real}")
        raise Illegal("L1", f"the move captures {real}, not {said}")
    if settings.inciti:
        for square in _freed(geo, board, side, captured):
            board[square] = piece(side, PAWN)
    for square in captured:
        board[square] = piece(1 - side, INCITUS) if settings.inciti else EMPTY
    return board, hand, captured, removed


def _square(settings: Settings, name: str, rule: str = "") -> int:
    """The square `name`; Illegal under `rule` (default: the variant's rule of moves) when the board has none."""
    try:
        return settings.geo.index[name]
    except KeyError:
        raise Illegal(
            rule or settings.move_rule, f"{name} is not on the {settings.geo.width}x{settings.geo.height} board"
        ) from None


def _move(settings: Settings, board: bytearray, hand: list[int], side: int, move: Move) -> tuple[int, str]:
    """Check and apply the placement or movement (L0, S1–S3, E2, X2); the target and the kind."""
    names = SIDE_NAMES[side]
    if hand[side]:
        if not move.placement:
            raise Illegal(
                "S1", f"{names} still has {hand[side]} piece{'s' if hand[side] > 1 else ''} to place (@square)"
            )
        target = _square(settings, move.squares[0], "S1")
        if board[target]:
            raise Illegal("S1", f"{move.squares[0]} is occupied")
        board[target] = piece(side, PAWN)
        hand[side] -= 1
        return target, "placement"
    if move.placement:
        raise Illegal(
            settings.setup_rule,
            f"{names} has no piece left to place"
            if settings.placing
            else f"pieces are not placed in the {settings.variant} variant",
        )
    squares = [_square(settings, name) for name in move.squares]
    origin = squares[0]
    mover = board[origin]
    if mover == EMPTY:
        raise Illegal("L0", f"there is no piece on {move.squares[0]}")
    if mover >> 2 != side:
        raise Illegal("L0", f"the piece on {move.squares[0]} is {SIDE_NAMES[1 - side]}'s, and {names} is to move")
    if mover & 3 == INCITUS:
        raise Illegal("S3", f"the piece on {move.squares[0]} is an incitus and cannot move")
    if move.piece and CODES[move.piece] != mover & 3:
        raise Illegal(
            settings.move_rule,
            f"{move.squares[0]} holds {'a dux' if mover & 3 == DUX else 'a pawn'}, "
            f"not {'a dux' if move.piece == 'D' else 'a pawn'}",
        )
    board[origin] = EMPTY
    if settings.slides:
        _check_slide(settings, board, squares, move)
    elif move.jumps:
        _check_jumps(settings, board, squares, side)
    elif squares[1] not in settings.geo.steps[origin]:
        raise Illegal(
            "S2",
            f"a step goes to an orthogonally next square; {move.squares[1]} is not next to "
            f"{move.squares[0]} (a jump is written with ^)",
        )
    target = squares[-1]
    if board[target] and not move.jumps:
        raise Illegal(settings.move_rule, f"{settings.geo.names[target]} is occupied")
    board[target] = mover
    return target, "move"


def _check_slide(settings: Settings, board: bytearray, squares: list[int], move: Move) -> None:
    """E2, X2: any distance along an empty rank or file, no jumps."""
    if move.jumps:
        raise Illegal(settings.move_rule, f"pieces do not jump in the {settings.variant} variant")
    origin, target = squares
    ray = next((ray for ray in settings.geo.rays[origin] if target in ray), None)
    if ray is None:
        raise Illegal(
            settings.move_rule,
            f"a piece moves along its rank or file, and {move.squares[1]} is on neither"
            if origin != target
            else "a move must leave its square",
        )
    for square in ray[: ray.index(target)]:
        if board[square]:
            raise Illegal(settings.move_rule, f"the way is blocked at {settings.geo.names[square]}")


def _check_jumps(settings: Settings, board: bytearray, squares: list[int], side: int) -> None:
    """S2, S3: each jump over a next piece (own, or any with jump-over=any; never an
    incitus) to the empty square behind it, never landing twice on a square."""
    geo = settings.geo
    seen = {squares[0]}
    for here, there in zip(squares, squares[1:]):
        over = next((a for a, b in geo.pincers[here] if b == there), None)
        name = geo.names[there]
        if over is None:
            raise Illegal("S2", f"a jump lands two squares away along a rank or file; {name} does not")
        jumped = board[over]
        if jumped == EMPTY:
            raise Illegal("S2", f"there is no piece on {geo.names[over]} to jump over")
        if jumped & 3 == INCITUS:
            raise Illegal("S3", f"the incitus on {geo.names[over]} cannot be jumped over")
        if jumped >> 2 != side and not settings.jump_any:
            raise Illegal("S2", f"a jump goes over one's own piece; {geo.names[over]} is the enemy's")
        if board[there]:
            raise Illegal("S2", f"{name} is occupied")
        if there in seen:
            raise Illegal("S2", f"the jumps land on {name} twice (or return to the start)")
        seen.add(there)


def _captures(settings: Settings, board: bytearray, side: int, target: int) -> list[int]:
    """L1, L2, X3: the enemy pawns the piece now on `target` captures."""
    captors, victim = ACTIVE[side], ACTIVE[1 - side][0]
    captured = [a for a, b in settings.geo.pincers[target] if board[a] == victim and board[b] in captors]
    if settings.corner_capture:
        captured += [
            corner
            for corner, other in settings.geo.corner_pincers[target]
            if board[corner] == victim and board[other] in captors
        ]
    return captured


def _freed(geo: Geometry, board: bytearray, side: int, captured: list[int]) -> list[int]:
    """S4: own inciti one of whose enclosers the move captures (judged before the
    captured pieces turn into inciti)."""
    if not captured:
        return []
    incitus, enemy = piece(side, INCITUS), (piece(1 - side, PAWN), piece(1 - side, DUX))
    freed = []
    square = board.find(incitus)
    while square >= 0:
        if any(
            board[a] in enemy and board[b] in enemy and (a in captured or b in captured)
            for a, b in geo.enclosures[square]
        ):
            freed.append(square)
        square = board.find(incitus, square + 1)
    return freed


def _remove(settings: Settings, board: bytearray, side: int, written: str | None) -> int | None:
    """S4: a player with inciti removes exactly one (written ~SQ; optional when forced)."""
    incitus = piece(side, INCITUS)
    inciti = [s for s in range(len(board)) if board[s] == incitus] if incitus in board else []
    if not inciti:
        if written is not None:
            rule = "S4" if settings.inciti else {"piso": "P1"}.get(settings.variant, "E3")
            raise Illegal(
                rule,
                f"{SIDE_NAMES[side]} has no incitus to remove"
                if settings.inciti
                else f"there are no inciti in the {settings.variant} variant",
            )
        return None
    names = settings.geo.names
    if written is None:
        if len(inciti) > 1:
            raise Illegal(
                "S4",
                f"{SIDE_NAMES[side]} must remove one of its inciti: write which "
                f"(~{', ~'.join(names[s] for s in inciti)})",
            )
        square = inciti[0]
    else:
        square = settings.geo.index.get(written, -1)
        if square not in inciti:
            raise Illegal(
                "S4",
                f"{written} holds no incitus of {SIDE_NAMES[side]}'s "
                f"(the inciti: {', '.join(names[s] for s in inciti)})",
            )
    board[square] = EMPTY
    return square


def _format(geo: Geometry, move: Move, before: bytes, captured: list[int], removed: int | None) -> str:
    """The ply in canonical form: the dux's D, the captures in export order, the removal."""
    names = geo.names
    if move.placement:
        text = "@" + move.squares[0]
    else:
        letter = "D" if before[geo.index[move.squares[0]]] & 3 == DUX else ""
        text = letter + ("^" if move.jumps else "-").join(move.squares)
    if captured:
        text += "x" + "/".join(sorted((names[s] for s in captured), key=_order))
    if removed is not None:
        text += "~" + names[removed]
    return text + ("#" if move.end else "")


def _order(name: str) -> tuple[int, int]:
    """Export order of captures: by file, then by rank."""
    return FILES.index(name[0]), checked_number(name[1:], 1, 16)


def _end(settings: Settings, position: LatrunculiPosition, mover: int) -> Outcome | None:
    """L4, S5, X4: the side that just played is checked first."""
    loss = _too_few(settings, position, mover) or _too_few(settings, position, 1 - mover)
    if loss:
        return loss
    if not _has_move(settings, position):
        return _loss(position.turn, "L4", f"{SIDE_NAMES[position.turn]} has no legal move", NO_MOVE)
    return None


def _too_few(settings: Settings, position: LatrunculiPosition, side: int) -> Outcome | None:
    """L4, X4: the loss of `side` when too few of its pieces are left."""
    pawns = position.board.count(piece(side, PAWN))
    if pawns + position.hand[side] >= settings.min_pieces:
        return None  # the usual case, settled without counting everything
    if settings.variant == "dux" and pawns == 0:
        return _loss(side, "X4", f"{SIDE_NAMES[side]} has only the dux left", TOO_FEW)
    if _count(position, side) < settings.min_pieces:
        left = _count(position, side)
        return _loss(side, "L4", f"{SIDE_NAMES[side]} has {'no piece' if not left else 'a single piece'} left", TOO_FEW)
    return None


def _count(position: LatrunculiPosition, side: int) -> int:
    """How many pieces `side` has, on the board or in hand."""
    board = position.board
    return sum(board.count(piece(side, kind)) for kind in (PAWN, DUX, INCITUS)) + position.hand[side]


def _has_move(settings: Settings, position: LatrunculiPosition) -> bool:
    board, side = position.board, position.turn
    if position.hand[side]:
        return EMPTY in board
    steps, pincers = settings.geo.steps, settings.geo.pincers
    for code in ACTIVE[side]:  # each of the side's pieces, found with bytes.find
        square = board.find(code)
        while square >= 0:
            for neighbour in steps[square]:
                if not board[neighbour]:
                    return True
            if not settings.slides and any(
                _jumpable(board, side, a, settings.jump_any) and board[b] == EMPTY for a, b in pincers[square]
            ):
                return True
            square = board.find(code, square + 1)
    return False


def _jumpable(board: bytes | bytearray, side: int, square: int, jump_any: bool) -> bool:
    """Whether a piece of `side` may jump over the one on `square`."""
    code = board[square]
    return code != EMPTY and code & 3 != INCITUS and (code >> 2 == side or jump_any)


def _loss(side: int, rule: str, reason: str, ending: str) -> Outcome:
    return Outcome("0-1" if side == WHITE else "1-0", rule, reason, ending)


_BOARD_AS_WRITTEN: Final = re.compile(r"[ \t]*([0-9]{1,2})[ \t]*[x×*][ \t]*([0-9]{1,2})[ \t]*")  # `10 x 10`, `10×10`


def _board_size(text: str | None) -> tuple[int, int]:
    if text is None:
        return 8, 8
    m = re.fullmatch(r"([0-9]+)x([0-9]+)", text.lower())
    width, height = (whole_number(n, 4, 16) for n in m.groups()) if m else (None, None)
    if width is None or height is None:
        message = f"a Board is WxH with each side from 4 to 16, as in 8x8; not '{text[:40]}'"
        meant = _BOARD_AS_WRITTEN.fullmatch(text.lower())
        sides = [whole_number(side, 4, 16) for side in meant.groups()] if meant else [None]
        if None not in sides:
            raise OptionError(message, "Board", text, 0, (f"{sides[0]}x{sides[1]}",))  # at the value
        raise OptionError(message, "Board")
    return width, height
