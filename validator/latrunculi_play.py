"""Ludus latrunculorum's board, positions and plies (RULES.md L0–L5, S1–S5, P1, E1–E3, X1–X4): a
ply played under a rule set's `Settings` (validator/latrunculi.py: the game, its options and tags)."""
# lusoria: compiled with mypyc

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache, lru_cache, partial
from typing import Final, NamedTuple

from lusoria.notation.numbers import checked_number
from lusoria.validator.base import (
    BLACK,
    SIDE_NAMES,
    WHITE,
    Illegal,
    NotAPly,
    Outcome,
    Played,
    check_capture_list,
    misnamed_captures,
)
from lusoria.validator.grid import board_grid
from lusoria.words import plural

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
    """The squares of a W×H board (names, lines: grid.Grid's) and the pairs of squares that
    capture, jump and enclose (index = rank * W + file)."""

    def __init__(self, width: int, height: int):
        grid = board_grid(width, height)
        self.width, self.height = width, height
        self.names: tuple[str, ...] = grid.names
        self.index: dict[str, int] = grid.index
        self.steps: tuple[tuple[int, ...], ...] = grid.neighbours
        self.rays: tuple[tuple[tuple[int, ...], ...], ...] = grid.rays  # to the edge: up, down, right, left
        # (the next square, the one behind it) in each direction: captures and jumps
        self.pincers: tuple[tuple[tuple[int, int], ...], ...] = tuple(
            tuple((ray[0], ray[1]) for ray in rays if len(ray) > 1) for rays in grid.rays
        )
        # (corner, its other neighbour) for each square next to a corner (L2)
        self.corner_pincers: list[list[tuple[int, int]]] = [[] for _ in range(width * height)]
        self.enclosures: list[list[tuple[int, int]]] = []  # pairs of squares that enclose a square (S4)
        for s, rays in enumerate(grid.rays):
            up, down, right, left = (ray[0] if ray else -1 for ray in rays)
            if s in grid.corners:
                a, b = grid.neighbours[s]
                self.corner_pincers[a].append((s, b))
                self.corner_pincers[b].append((s, a))
                self.enclosures.append([(a, b)])
            else:
                self.enclosures.append([(p, q) for p, q in ((up, down), (right, left)) if p >= 0 and q >= 0])

    def __reduce__(self) -> tuple[Callable[[int, int], Geometry], tuple[int, int]]:
        """Pickled as the call of `geometry` that gives it (as the tafl board's: tafl_board.Geometry)."""
        return geometry, (self.width, self.height)


@cache
def geometry(width: int, height: int) -> Geometry:
    """The one Geometry of a board (its tables are made once)."""
    return Geometry(width, height)


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


SQUARE = "[a-p](?:1[0-6]|[1-9])"  # a square of any board, as the grammar writes it (a1 to p16)
PLY_TAIL: Final = rf"(?:x(?P<captures>[DP]?{SQUARE}(?:/[DP]?{SQUARE})*))?(?:~(?P<removal>{SQUARE}))?(?P<end>#)?"
_PLY = re.compile(  # the grammar's PLY, its squares on any board (`play_ply` refuses those off it); after the
    r"(?P<placement>@)?(?(placement)|(?P<piece>[DP])?)"  # move, its tail: captures, a removal, the end
    rf"(?P<path>{SQUARE}(?(placement)|(?:-{SQUARE}|(?:\^{SQUARE})+))){PLY_TAIL}"
)

PLY_SHAPE: Final = (
    "a ply is a placement (@d4) or a move (d4-d6; a jump d4^d6^f6), which may name its piece first "
    "(Dd4-d6) and the squares it captures after x (d4-d6xd7), then a removal after ~ (~e5) and # at the end"
)


@lru_cache(maxsize=65536)
def parse_move(text: str) -> Move:
    """The parts of a ply the grammar accepts; NotAPly for text that is none."""
    m = _PLY.fullmatch(text)
    if m is None:
        raise NotAPly(text, "latrunculi", PLY_SHAPE)
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


def play_ply(settings: Settings, position: LatrunculiPosition, text: str) -> Played[LatrunculiPosition]:
    """Apply one ply as written under `settings`; Illegal when the rules forbid it."""
    move = parse_move(text)
    side = position.turn
    board, hand, captured, removed = play_up_to_removal(settings, position, move)
    if move.captures is not None:
        check_capture_list(text, "L1")
        _check_capture_letters(settings, text)
    if not settings.removal_first:
        removed = _remove(settings, board, side, move.removal, position.board)
    after = _position(bytes(board), 1 - side, (hand[0], hand[1]))
    outcome = game_end(settings, after, side)
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


def _check_capture_letters(settings: Settings, text: str) -> None:
    """Illegal (L1) when the capture list writes a captured pawn with the dux's letter (`xDb1`): only
    pawns are captured."""
    why = "a dux is never captured, X3" if settings.variant == "dux" else f"the {settings.variant} variant has none"
    if misnamed := misnamed_captures(text, lambda _: "P", lambda _: f"a pawn, not a dux ({why})"):
        raise Illegal("L1", misnamed[0])


def play_up_to_removal(
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
        said = "/".join(sorted(move.captures, key=square_order)) or "nothing"
        real = "/".join(sorted((geo.names[s] for s in captured), key=square_order)) or "nothing"
        dux = next((n for n in move.captures if board[geo.index.get(n, target)] == piece(1 - side, DUX)), None)
        if dux:
            raise Illegal("X3", f"the dux on {dux} is never captured; the move captures {real}")
        claimed = {geo.index[name] for name in move.captures if name in geo.index} - set(captured)
        why = (
            " (a placement captures nothing, S1, unless placement-captures=yes)"
            if kind == "placement" and not settings.placement_captures
            else _incitus_between(settings, board, side, target, claimed)
            or _corner_left_out(settings, board, side, target, claimed)
            or _passed_through(settings, board, side, move, claimed)
        )
        gone = next((geo.names[s] for s in sorted(claimed) if board[s] == EMPTY), "")  # (h73b: the driver names
        raise Illegal("L1", f"the move captures {real}, not {said}{why}", lost=gone)  # the ply that took it)
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
    """Check and apply the placement (`_place`) or movement (L0, S1–S3, E2, X2); the target and
    the kind."""
    if hand[side]:
        return _place(settings, board, hand, side, move), "placement"
    if move.placement:
        raise Illegal(
            settings.setup_rule,
            f"{SIDE_NAMES[side]} has no piece left to place"
            if settings.placing
            else f"pieces are not placed in the {settings.variant} variant",
        )
    squares = [_square(settings, name) for name in move.squares]
    mover = _mover(settings, board, side, move, squares[0])
    board[squares[0]] = EMPTY
    _check_way(settings, board, squares, side, move)
    target = squares[-1]
    if board[target] and not move.jumps:
        raise Illegal(settings.move_rule, f"{settings.geo.names[target]} is occupied", settings.geo.names[target])
    board[target] = mover
    return target, "move"


def _place(settings: Settings, board: bytearray, hand: list[int], side: int, move: Move) -> int:
    """S1: a pawn of `side`'s hand, which holds some, placed on the empty square `move` names;
    that square."""
    if not move.placement:
        said = f"{SIDE_NAMES[side]} still has {plural(hand[side], 'piece')} to place (@square)"
        if not any(board):  # nothing placed yet: maybe a record of petteia or dux that names no Variant
            said += (
                f": the {settings.variant} variant begins by placing them"
                " (petteia and dux, which begin set up, are named by a Variant tag)"
            )
        raise Illegal("S1", said)
    target = _square(settings, move.squares[0], "S1")
    if board[target]:
        raise Illegal("S1", f"{move.squares[0]} is occupied", move.squares[0])
    board[target] = piece(side, PAWN)
    hand[side] -= 1
    return target


def _mover(settings: Settings, board: bytearray, side: int, move: Move, origin: int) -> int:
    """The piece on `origin` that `move` moves; Illegal when there is none, when it is the other
    side's (L0), an incitus (S3), or not the piece the move names (D: a dux, in the dux variant only)."""
    mover, name = board[origin], move.squares[0]
    if move.piece == "D" and settings.variant != "dux":
        raise Illegal(
            settings.move_rule,
            f"D names a dux, and the {settings.variant} variant has none: only the dux variant has one "
            '(a record of it says [Variant "dux"]); a pawn is written without a letter, or with P',
        )
    if mover == EMPTY:
        raise Illegal("L0", f"there is no piece on {name}", lost=name)
    if mover >> 2 != side:
        raise Illegal("L0", f"the piece on {name} is {SIDE_NAMES[1 - side]}'s, and {SIDE_NAMES[side]} is to move")
    if mover & 3 == INCITUS:
        raise Illegal("S3", f"the piece on {name} is an incitus and cannot move", lost=name)
    if move.piece and CODES[move.piece] != mover & 3:
        raise Illegal(
            settings.move_rule,
            f"{name} holds {'a dux' if mover & 3 == DUX else 'a pawn'}, not {'a dux' if move.piece == 'D' else 'a pawn'}",
        )
    return mover


def _check_way(settings: Settings, board: bytearray, squares: list[int], side: int, move: Move) -> None:
    """The way a movement from the first of `squares` goes (its piece lifted): a slide (E2, X2:
    `_check_slide`), jumps (`_check_jumps`), or else a step to an orthogonally next square (S2)."""
    if settings.slides:
        _check_slide(settings, board, squares, move)
    elif move.jumps:
        _check_jumps(settings, board, squares, side)
    elif squares[1] not in settings.geo.steps[squares[0]]:
        raise Illegal(
            "S2",
            f"a step goes to an orthogonally next square; {move.squares[1]} is not next to "
            f"{move.squares[0]} (a jump is written with ^)",
        )


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
            raise Illegal(
                "S2",
                f"a jump goes over one's own piece; {geo.names[over]} is the enemy's "
                '(a reading that lets it go over either colour says [Rules "jump-over=any"])',
            )
        if board[there]:
            raise Illegal("S2", f"{name} is occupied", name)
        if there in seen:
            raise Illegal("S2", f"the jumps land on {name} twice (or return to the start)")
        seen.add(there)


def _captures(settings: Settings, board: bytearray, side: int, target: int) -> list[int]:
    """L1, L2, X3: the enemy pawns the piece now on `target` captures."""
    captors, victim = ACTIVE[side], ACTIVE[1 - side][0]
    captured = [a for a, b in settings.geo.pincers[target] if board[a] == victim and board[b] in captors]
    return captured + _cornered(settings, board, side, target) if settings.corner_capture else captured


def _cornered(settings: Settings, board: bytearray, side: int, target: int) -> list[int]:
    """L2: the enemy pawns on a corner whose other neighbour than `target` the mover holds."""
    captors, victim = ACTIVE[side], ACTIVE[1 - side][0]
    return [
        corner
        for corner, other in settings.geo.corner_pincers[target]
        if board[corner] == victim and board[other] in captors
    ]


def _incitus_between(settings: Settings, board: bytearray, side: int, target: int, claimed: set[int]) -> str:
    """Why a square of `claimed` (the capture list's, not captured) is not, when an incitus is why: the
    piece there, or the one that would enclose it with the mover's (S3: an incitus takes no part in
    captures; newcomer-56a was told only that the move captures nothing)."""
    names, pincers = settings.geo.names, [*settings.geo.pincers[target], *settings.geo.corner_pincers[target]]
    for enclosed, partner in pincers:
        if enclosed in claimed:
            held = next((s for s in (enclosed, partner) if board[s] in (piece(0, INCITUS), piece(1, INCITUS))), None)
            if held is not None:
                return f" ({names[held]} is an incitus, which takes no part in captures, S3)"
    return ""


def _passed_through(settings: Settings, board: bytearray, side: int, move: Move, claimed: set[int]) -> str:
    """Why a square of `claimed` is not captured, where a jump's landing before its last would have taken it
    (L3: only the final square captures; h78a was told only that the move captures nothing)."""
    geo, target = settings.geo, settings.geo.index[move.squares[-1]]
    for landing in (geo.index[name] for name in move.squares[1:-1]):
        there = bytearray(board)
        there[landing], there[target] = board[target], EMPTY
        if taken := [square for square in _captures(settings, there, side, landing) if square in claimed]:
            passed, enclosed = geo.names[landing], geo.names[taken[0]]
            return f" (the jump only passed {passed}, where it would enclose {enclosed}: only a move's last square captures, L3)"
    return ""


def _corner_left_out(settings: Settings, board: bytearray, side: int, target: int, claimed: set[int]) -> str:
    """Why a corner of `claimed` is not captured, where the mover holds both squares next to it but the
    rules capture on no corner (`corner-capture=no`; h73b: said only that the move captures nothing)."""
    cornered = [corner for corner in _cornered(settings, board, side, target) if corner in claimed]  # (not captured)
    if not cornered:
        return ""
    return f" (a piece on a corner, {settings.geo.names[cornered[0]]}, is captured only under corner-capture=yes, L2)"


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


def _remove(settings: Settings, board: bytearray, side: int, written: str | None, before: bytes = b"") -> int | None:
    """S4: a player with inciti removes exactly one (written ~SQ; optional when forced); a removal
    of an incitus the move freed (on the board `before` it) is said to be one."""
    incitus = piece(side, INCITUS)
    inciti = [s for s in range(len(board)) if board[s] == incitus] if incitus in board else []
    if written is not None and before:
        _check_not_freed(settings, board, side, written, before, inciti)
    if not inciti:
        if written is not None:
            rule = "S4" if settings.inciti else {"piso": "P1"}.get(settings.variant, "E3")
            raise Illegal(
                rule,
                f"{SIDE_NAMES[side]} has no incitus to remove"
                if settings.inciti
                else f"there are no inciti in the {settings.variant} variant"
                + (
                    ", which moves and captures as petteia does (X2, X3)" if settings.variant == "dux" else ""
                ),  # (h82b)
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


def _check_not_freed(
    settings: Settings, board: bytearray, side: int, written: str, before: bytes, inciti: list[int]
) -> None:
    """S4: Illegal when the removal `written` names an incitus of `side` that the move freed."""
    square = settings.geo.index.get(written, -1)
    if square >= 0 and before[square] == piece(side, INCITUS) and board[square] == piece(side, PAWN):
        names = settings.geo.names
        left = f"the inciti: {', '.join(names[s] for s in inciti)}" if inciti else "no incitus is left to remove"
        raise Illegal(
            "S4", f"the move frees {written}, capturing a piece that encloses it: {written} is no incitus now ({left})"
        )


def _format(geo: Geometry, move: Move, before: bytes, captured: list[int], removed: int | None) -> str:
    """The ply in canonical form: the dux's D, the captures in export order, the removal."""
    names = geo.names
    if move.placement:
        text = "@" + move.squares[0]
    else:
        letter = "D" if before[geo.index[move.squares[0]]] & 3 == DUX else ""
        text = letter + ("^" if move.jumps else "-").join(move.squares)
    if captured:
        text += "x" + "/".join(sorted((names[s] for s in captured), key=square_order))
    if removed is not None:
        text += "~" + names[removed]
    return text + ("#" if move.end else "")


def square_order(name: str) -> tuple[int, int]:
    """Export order of captures: by file, then by rank."""
    return FILES.index(name[0]), checked_number(name[1:], 1, 16)


def game_end(settings: Settings, position: LatrunculiPosition, mover: int) -> Outcome | None:
    """L4, S5, X4: the side that just played is checked first."""
    loss = _too_few(settings, position, mover) or _too_few(settings, position, 1 - mover)
    if loss:
        return loss
    if not _has_move(settings, position):
        return _loss(position.turn, "L4", f"{SIDE_NAMES[position.turn]} has no legal move", NO_MOVE)
    return None


def _too_few(settings: Settings, position: LatrunculiPosition, side: int) -> Outcome | None:
    """L4, S5 (seneca), X4: the loss of `side` when too few of its pieces are left."""
    pawns = position.board.count(piece(side, PAWN))
    if pawns + position.hand[side] >= settings.min_pieces:
        return None  # the usual case, settled without counting everything
    if settings.variant == "dux" and pawns == 0:
        return _loss(side, "X4", f"{SIDE_NAMES[side]} has only the dux left", TOO_FEW)
    if piece_count(position, side) < settings.min_pieces:
        left = piece_count(position, side)
        rule = "S5" if settings.inciti else "L4"  # seneca counts the inciti, after the turn's removal
        return _loss(side, rule, f"{SIDE_NAMES[side]} has {'no piece' if not left else 'a single piece'} left", TOO_FEW)
    return None


def piece_count(position: LatrunculiPosition, side: int) -> int:
    """How many pieces `side` has, on the board or in hand."""
    board = position.board
    return sum(board.count(piece(side, kind)) for kind in (PAWN, DUX, INCITUS)) + position.hand[side]


def _has_move(settings: Settings, position: LatrunculiPosition) -> bool:
    """Whether the side to move has a legal move; under removal=before-move, on the board without
    one of its inciti, removed first (a removal never takes a move away)."""
    board, side = position.board, position.turn
    if _has_move_on(settings, board, side, position.hand[side]):
        return True
    incitus = piece(side, INCITUS)
    if not settings.removal_first or incitus not in board:
        return False
    return any(
        _has_move_on(settings, removed_first(board, square), side, position.hand[side])
        for square in squares_of(board, incitus)
    )


def squares_of(board: bytes | bytearray, code: int) -> list[int]:
    """The squares of `board` that hold the piece `code` (an incitus: the removals a side may make)."""
    found, square = [], board.find(code)
    while square >= 0:
        found.append(square)
        square = board.find(code, square + 1)
    return found


def removed_first(board: bytes, square: int) -> bytes:
    """`board` without the incitus on `square`: removal=before-move removes it before the move."""
    return board[:square] + bytes(1) + board[square + 1 :]


def _has_move_on(settings: Settings, board: bytes, side: int, hand: int) -> bool:
    if hand:
        return EMPTY in board
    steps, pincers = settings.geo.steps, settings.geo.pincers
    for code in ACTIVE[side]:  # each of the side's pieces, found with bytes.find
        square = board.find(code)
        while square >= 0:
            for neighbour in steps[square]:
                if not board[neighbour]:
                    return True
            if not settings.slides and any(
                jumpable(board, side, a, settings.jump_any) and board[b] == EMPTY for a, b in pincers[square]
            ):
                return True
            square = board.find(code, square + 1)
    return False


def jumpable(board: bytes | bytearray, side: int, square: int, jump_any: bool) -> bool:
    """Whether a piece of `side` may jump over the one on `square`."""
    code = board[square]
    return code != EMPTY and code & 3 != INCITUS and (code >> 2 == side or jump_any)


def _loss(side: int, rule: str, reason: str, ending: str) -> Outcome:
    return Outcome("0-1" if side == WHITE else "1-0", rule, reason, ending)
