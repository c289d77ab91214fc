"""The tafl engine's moves under `Settings`: every legal move of a side (`moves_of`, `has_move`),
a move checked, naming the rule it breaks (`check_move`: T1–T3, T11; C2–C4; B2–B4; G2–G4), and
OpenTafl's jumps (`jumped_over`, `refuse_jump`, G14) and leaps."""
# lusoria: compiled with mypyc

from __future__ import annotations

from typing import Final

from lusoria.validator.base import SIDE_NAMES, WHITE, Illegal
from lusoria.validator.tafl_board import EMPTY, JUMPED_OVER, KING, OWNER, PIECE_NAMES, RESTRICTED_JUMP, Move
from lusoria.validator.tafl_settings import REGION_KEYS, Settings, allowed_pieces, named_settings
from lusoria.words import plural


def _closed(camps: bytes, square: int, camp: int) -> bool:
    """Whether `square` is a square of a camp other than `camp`, the camp a move starts in (0: none)."""
    return camps[square] != 0 and camps[square] != camp


def _may_stop(settings: Settings, piece: int, origin: int, target: int) -> bool:
    """Whether `piece` may stop on `target`, a square of a region, coming from `origin`."""
    cell = piece * settings.geo.squares + target
    return settings.stop[cell] != 0 and (
        settings.enter[cell] != 0 or settings.region[origin] == settings.region[target]
    )


def moves_of(board: bytes, side: int, settings: Settings, only: int = -1):
    """Every legal (origin, target) for `side`; of the piece on `only` alone when it is a square."""
    region, cross, camps, speed = settings.region, settings.cross, settings.camps, settings.speed
    geo = settings.geo
    rays, squares = geo.rays, geo.squares
    for origin in range(len(board)) if only < 0 else (only,):
        piece = board[origin]
        if OWNER[piece] != side:
            continue
        camp = camps[origin]
        limit = speed[piece] or squares
        row = piece * squares
        for ray in rays[origin]:
            for distance, target in enumerate(ray):
                if board[target] or distance >= limit or _closed(camps, target, camp):
                    break
                if region[target]:
                    if _may_stop(settings, piece, origin, target):
                        yield origin, target
                    if not cross[row + target]:
                        break
                    continue
                yield origin, target
        if settings.jumps[piece]:
            for ray in rays[origin]:
                if len(ray) > 1 and jumped_over(board, origin, ray[1], settings) >= 0:
                    yield origin, ray[1]
        if settings.leaps and (not speed[piece] or speed[piece] > 1):
            for ray in rays[origin]:
                if (
                    len(ray) > 1
                    and _leaps(board, ray[:2])
                    and (not region[ray[0]] or cross[piece * squares + ray[0]])
                    and (not region[ray[1]] or _may_stop(settings, piece, origin, ray[1]))
                ):
                    yield origin, ray[1]


def jumped_over(board: bytes, origin: int, target: int, settings: Settings) -> int:
    """The square that the piece on `origin` jumps over to `target` (G14): the square between
    them, which holds an enemy soldier (not a king, knight nor commander); `target` is empty and
    the piece may stop there; under a restricted jump (kj:r) one of them is a square of a region.
    -1 when the move is no such jump."""
    piece, geo, region = board[origin], settings.geo, settings.region
    mode = settings.jumps[piece]
    path = geo.path(origin, target)
    if not mode or len(path) != 2 or board[target]:
        return -1
    over = path[0]
    if board[over] not in JUMPED_OVER or OWNER[board[over]] == OWNER[piece]:
        return -1
    if mode == RESTRICTED_JUMP and not region[origin] and not region[target]:
        return -1
    if region[target] and not _may_stop(settings, piece, origin, target):
        return -1
    return over


_JUMP_KEYS: Final = ("", "", "kj", "", "nj", "cj", "nj", "cj", "", "")  # by piece code, the OTN key of its jumps


def refuse_jump(board: bytes, move: Move, settings: Settings) -> None:
    """Illegal (G14) when `move` of a piece that jumps goes two squares over an occupied square,
    and is no jump (`jumped_over`)."""
    piece, geo = board[move.origin], settings.geo
    path = geo.path(move.origin, move.target)
    if len(path) == 2 and board[path[0]] and not board[move.target]:
        restricted = settings.jumps[piece] == RESTRICTED_JUMP
        raise Illegal(
            settings.ids.jump,
            f"a {PIECE_NAMES[piece]} jumps only over an enemy soldier"
            f"{', from or to a square of a region' if restricted else ''}, to a square it may stop on"
            f"{named_settings(settings, _JUMP_KEYS[piece])}",
        )


def _leaps(board: bytes, path: tuple[int, ...]) -> bool:
    """Whether a move along `path` leaps (leap:y): over a soldier of either side next to its
    square, to the empty square beyond."""
    return len(path) == 2 and board[path[0]] not in (EMPTY, KING) and not board[path[1]]


def has_move(board: bytes, side: int, settings: Settings) -> bool:
    """Whether `side` has a legal move."""
    closed, geo = settings.closed, settings.geo
    neighbours = geo.neighbours
    for square in range(geo.squares):  # fast: a piece next to an empty square other than the
        if OWNER[board[square]] == side:  # throne, the camps and the corners can move
            for neighbour in neighbours[square]:
                if not board[neighbour] and not closed[neighbour]:
                    return True
    return next(moves_of(board, side, settings), None) is not None


def check_move(board: bytes, side: int, move: Move, settings: Settings) -> None:
    """Raise Illegal unless `move` is a legal move for `side` (T1–T3, T11; C2–C4; B2–B4; G2–G4):
    its piece (`_moved_piece`), its path (`_checked_path`) and the squares on the way
    (`_check_way`), its target, and the camps it passes or stops on (`_check_camps`)."""
    piece = _moved_piece(board, side, move, settings)
    path = _checked_path(piece, move, settings)
    _check_way(board, piece, path, settings)
    target = move.target
    if board[target]:
        raise Illegal(settings.ids.move, f"{settings.geo.names[target]} is occupied", settings.geo.names[target])
    if settings.region[target] and not _may_stop(settings, piece, move.origin, target):
        _refuse_stop(settings, target, piece)
    _check_camps(settings, move.origin, path)


_FIRST = ("atkf",)  # the setting of who moves first, which a turn's message at the start names (h75a: at every ply)


def _other_first(settings: Settings, side: int) -> str:
    """What a ply of the other side at the start adds: the Rules that make that side move first (h79a: a
    Muscovites-first Tablut record under the seed rules was offered a Swedes' ply alone)."""
    other = SIDE_NAMES[1 - side]
    key, value = ("atkf", "y" if side == WHITE else "n") if settings.said else ("first", other.lower())
    return f"; if {other} moved first, its Rules tag says so: {key}={value}"


def _moved_piece(board: bytes, side: int, move: Move, settings: Settings) -> int:
    """The piece on the square `move` leaves; Illegal when there is none, when it is the other
    side's, or when it is not the piece the move names (K: the king, P: a soldier)."""
    origin, names, ids = move.origin, settings.geo.names, settings.ids
    piece = board[origin]
    if piece == EMPTY:
        raise Illegal(ids.move, f"there is no piece on {names[origin]}", lost=names[origin])
    if OWNER[piece] != side:
        at_start = board == settings.start
        raise Illegal(
            ids.turn,
            f"the piece on {names[origin]} is {SIDE_NAMES[1 - side]}'s, "
            f"and {SIDE_NAMES[side]} is to move{named_settings(settings, *_FIRST if at_start else ())}"
            f"{_other_first(settings, side) if at_start else ''}",
        )
    if move.piece and move.piece != ("K" if piece == KING else "P"):
        raise Illegal(
            ids.move,
            f"{names[origin]} holds {'the king' if piece == KING else 'a soldier'}, "
            f"not {'the king' if move.piece == 'K' else 'a soldier'}",
        )
    return piece


def _checked_path(piece: int, move: Move, settings: Settings) -> tuple[int, ...]:
    """The squares `move` of `piece` crosses, then its target (`Geometry.path`); Illegal when
    it does not leave its square, goes along neither rank nor file, or goes further than the
    piece's speed limit."""
    origin, target, ids, speed = move.origin, move.target, settings.ids, settings.speed[piece]
    if origin == target:
        raise Illegal(ids.move, "a move must leave its square")
    path = settings.geo.path(origin, target)
    if not path:
        raise Illegal(ids.move, f"a piece moves along its rank or file, and {settings.geo.names[target]} is on neither")
    if speed and len(path) > speed:
        raise Illegal(
            ids.move,
            f"{'the king' if piece == KING else 'a soldier'} moves at most "
            f"{plural(speed, 'square')}{named_settings(settings, 'spd')}",
        )
    return path


def _check_way(board: bytes, piece: int, path: tuple[int, ...], settings: Settings) -> None:
    """Illegal when a square `path` crosses (before its target) holds a piece, but for a leap
    (leap:y), or is a square of a region that `piece` may not pass over."""
    region, cross, squares = settings.region, settings.cross, settings.geo.squares
    leap = settings.leaps and _leaps(board, path)
    for index in range(len(path) - 1):
        square = path[index]
        if board[square] and not leap:
            raise Illegal(
                settings.ids.move,
                f"the way is blocked at {settings.geo.names[square]}"
                f"{named_settings(settings, 'leap') if settings.leaps else ''}",
            )
        if region[square] and not cross[piece * squares + square]:
            raise Illegal(
                settings.ids.restricted,
                f"{allowed_pieces(cross, square, squares)} may pass over {settings.words[square]}"
                f"{named_settings(settings, REGION_KEYS[region[square]] + 'p')}",
            )


def _check_camps(settings: Settings, origin: int, path: tuple[int, ...]) -> None:
    """Illegal when a move from `origin` along `path` passes over or stops on a square of a camp
    other than the one it starts in (Tablut's camps)."""
    camps = settings.camps
    camp = camps[origin]
    for square in path:
        if _closed(camps, square, camp):
            how = "stop on" if square == path[-1] else "pass over"
            raise Illegal(
                settings.ids.camp,
                f"{settings.geo.names[square]} is a camp square: "
                f"only a piece that starts its move in that camp may {how} it",
            )


def _refuse_stop(settings: Settings, target: int, piece: int) -> None:
    """Illegal: `piece`, moving, may not stop on `target`, a square of a region, as it comes from another."""
    squares, key = settings.geo.squares, REGION_KEYS[settings.region[target]]
    allowed = bytes(settings.stop[cell] and settings.enter[cell] for cell in range(len(settings.stop)))
    who = allowed_pieces(allowed, target, squares)
    if who == "no piece" and settings.stop[KING * squares + target]:
        who = "no piece, once the king has left it,"
    raise Illegal(
        settings.ids.restricted,
        f"{who} may stop on {settings.words[target]}{named_settings(settings, *_refusing(settings, key, piece))}",
    )


def _refusing(settings: Settings, key: str, piece: int) -> tuple[str, ...]:
    """The settings that refuse `piece` a stop on a square of region `key`, coming from another: its list of the
    pieces that may stop there (`cors`), or else its list of those that may enter it (`corre`), as it leaves the
    piece out (`cors: ak`, which lets an attacker stop there, is not named of an attacker: review77)."""
    letter = "k" if piece == KING else "ad"[OWNER[piece] == WHITE]
    return (key + "s",) if letter not in settings.said.get(key + "s", "adk") else (key + "re",)  # (one refuses it)
