"""What a tafl record that leaves out berserk continuations (berw:n, berw:a, G16) keeps from ply
to ply: the positions they may have made (`Unwritten`, which an `UnwrittenPosition` holds), the
captures a look back may start from (`Capture`) and the plies of a line (`Trail`); and the
boards that a capturing piece's continuations make (`continued_boards`)."""
# lusoria: compiled with mypyc

from __future__ import annotations

from collections.abc import Callable
from typing import Final, NamedTuple

from mypy_extensions import mypyc_attr

from lusoria.validator.base import Played
from lusoria.validator.tafl_board import (
    OWNER,
    TAKEN,
    RememberingPosition,
    TaflPosition,
    capture_list,
)
from lusoria.validator.tafl_captures import game_ending, move_captures, moved_board
from lusoria.validator.tafl_moves import jumped_over, moves_of
from lusoria.validator.tafl_settings import Settings

UNWRITTEN_DEPTH: Final = 8  # berserk continuations of one capture searched at most (Alea Berserk 19x19's knights
# jump through the defenders' lattice, capturing at each jump: its games show chains of 4 to 8)
UNWRITTEN_KEPT: Final = 64  # positions that unwritten continuations may have made, kept at most


class Trail(NamedTuple):
    """The plies a line of left-out continuations played, the latest first: a ply played there
    (the capture they follow: on the board they made) and the trail before it."""

    played: Played[TaflPosition]
    before: Trail | None


class LeftOut(NamedTuple):
    """Berserk continuations a record leaves out after a capture: the capture's ply (its number on its line) and
    what they were (`after j6-i6xh6: i6-i7xh7`); the same capture played again later is another."""

    ply: int
    text: str


class Capture(NamedTuple):
    """A capture on a line of a record that leaves out berserk continuations, which a later ply may
    show went on with left-out moves (berw:a, `_looked_back`)."""

    board: bytes  # after the capturing ply
    square: int  # where the capturing piece stands
    text: str  # the ply as played (`j6-i6xh6`)
    ply: int  # its number on the line
    continuations: tuple[LeftOut, ...] = ()  # left out before it, on the line it was played on (`Unwritten`)
    trail: Trail | None = None  # the plies of that line before it


class Unwritten(NamedTuple):
    """A position that berserk continuations a record left out may have made, what they were
    (`after j6-i6xh6: i6-i7xh7`, one a capture they follow), the latest captures on the way to it
    (berw:a), and the plies played on its line since the first capture they follow (the ply that
    leads to it last)."""

    position: TaflPosition
    continuations: tuple[LeftOut, ...]
    captures: tuple[Capture, ...] = ()
    trail: Trail | None = None


def trail_plies(trail: Trail | None) -> tuple[Played[TaflPosition], ...]:
    """The plies of a trail, the earliest first."""
    found: list[Played[TaflPosition]] = []
    while trail is not None:
        found.append(trail.played)
        trail = trail.before
    return tuple(reversed(found))


@mypyc_attr(native_class=False)
class UnwrittenPosition(RememberingPosition):
    """A position of a variant whose records leave out berserk continuations (berw:n, berw:a):
    equal to, and written as, the plain position, with its history (RememberingPosition); it also
    holds the positions that such continuations may have made instead, which the next plies tell
    apart (`play_unwritten`), the board that the ply leading to it was played on (`played_on`),
    and, for a look back (berw:a), the latest captures, the plies written since and their count; and
    the continuations the record's plies have warned of so far (G16), which no later ply names again."""

    others: tuple[Unwritten, ...]
    before: bytes
    captures: tuple[Capture, ...]
    written: tuple[str, ...]
    plies: int
    said: frozenset[LeftOut]

    def __reduce__(self) -> tuple[Callable[..., UnwrittenPosition], tuple[object, ...]]:
        """Pickled as the call of `unwritten_position` that makes it again."""
        history = RememberingPosition(self.board, self.turn, self.earlier, self.twice)
        made = (history, self.others, self.before, self.captures, self.written, self.plies, self.said)
        return unwritten_position, made

    def __repr__(self) -> str:
        return repr(TaflPosition(*self))


def unwritten_position(
    position: TaflPosition,
    others: tuple[Unwritten, ...],
    before: bytes,
    captures: tuple[Capture, ...],
    written: tuple[str, ...],
    plies: int,
    said: frozenset[LeftOut] = frozenset(),
) -> UnwrittenPosition:
    """`position` (and its history, under a repetition rule) with the positions that left-out
    continuations may have made instead, the board its ply was played on, the line's latest
    captures and plies (berw:a), and the continuations warned of so far."""
    earlier: frozenset[TaflPosition] = getattr(position, "earlier", frozenset())
    twice: frozenset[TaflPosition] = getattr(position, "twice", frozenset())
    made = UnwrittenPosition(position.board, position.turn, earlier, twice)  # (RememberingPosition's constructor)
    made.others, made.before = others, before  # (no berserker: its moves are searched, not waited for)
    made.captures, made.written, made.plies, made.said = captures, written, plies, said
    return made


def taken(board: bytes, after: bytes) -> list[int]:
    """The squares whose piece a ply from `board` to `after` took away: the mover's origin and
    what it captured (a mercenary changes sides)."""
    changed = int.from_bytes(board, "big") ^ int.from_bytes(after, "big")  # a byte a square, the first highest
    found: list[int] = []
    while changed:  # the changed squares, first to last, without walking the board (a ply changes a few)
        byte = (changed.bit_length() - 1) >> 3
        square = len(board) - 1 - byte
        if board[square] and OWNER[after[square]] != OWNER[board[square]]:
            found.append(square)
        changed &= (1 << (byte << 3)) - 1
    return found


def played_on(before: TaflPosition, after: TaflPosition) -> bytes:
    """The board that the ply from `before` to `after` was played on: `before`'s, or, in a record
    that leaves out berserk continuations (berw:n), the one they made."""
    return getattr(after, "before", b"") or before.board


def continued_boards(
    board: bytes, square: int, side: int, settings: Settings, depth: int, free: bool
) -> list[tuple[bytes, str]]:
    """The boards that up to `depth` berserk continuations of the piece on `square` make, each
    with the first chain found that makes it (`i6-i7xh7, i7-…`, depth first): a continuation is
    a move of that piece that captures (G5, by a shieldwall, G6, or by a capturing jump, G14), or,
    when `free` (berw:a), the last one may be any move of it; none ends the game."""
    found: dict[bytes, str] = {}
    _continue(board, square, side, settings, depth, free, "", found, {})
    return list(found.items())


def _continue(
    board: bytes,
    square: int,
    side: int,
    settings: Settings,
    depth: int,
    free: bool,
    chain: str,
    found: dict[bytes, str],
    searched: dict[tuple[bytes, int], int],
) -> None:
    """`continued_boards` from `board` after `chain`, into `found`: a piece on a square of a board
    already searched with as many continuations left (`searched`) is not searched again (its
    captures in another order make the same boards: 8 of 9 would be 9!/1! chains)."""
    geo = settings.geo
    for origin, target in moves_of(board, side, settings, square):
        after = moved_board(board, origin, target)
        captured = move_captures(after, side, target, jumped_over(board, origin, target, settings), settings)[0]
        if not captured and not free:
            continue
        for victim in captured:
            after[victim] = TAKEN[after[victim]]
        made = bytes(after)
        if game_ending(made, 1 - side, side, settings) is not None:
            continue
        written = (
            chain + f"{geo.names[origin]}-{geo.names[target]}" + (f"x{capture_list(geo, captured)}" if captured else "")
        )
        found.setdefault(made, written)
        if depth > 1 and captured and searched.get((made, target), 0) < depth - 1:
            searched[(made, target)] = depth - 1
            _continue(made, target, side, settings, depth - 1, free, f"{written}, ", found, searched)
