"""The tafl engine's captures and endings under `Settings`: what a move captures (`move_captures`,
which every caller asks: a capturing jump; `captured_by`, custodial captures against pieces and
hostile squares, the king's and the commanders'; `shieldwall_captures`) and whether the game
ended after it (`game_ending`: the king captured or escaped, Tuichi, an exit fort,
encirclement, no move)."""
# lusoria: compiled with mypyc

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from lusoria.validator.base import BLACK, SIDE_NAMES, WHITE, Outcome
from lusoria.validator.tafl_board import (
    ATTACKER,
    ATTACKER_COMMANDER,
    ATTACKER_KNIGHT,
    CAPTURING_JUMP,
    CORNER_SQUARE,
    DEFENDER,
    DEFENDER_COMMANDER,
    EMPTY,
    ENCIRCLED,
    EXIT_FORT,
    KING,
    KING_CAPTURED,
    KING_ESCAPED,
    NO_MOVE,
    ORDINARY,
    OWNER,
    WHITE_PIECES,
)
from lusoria.validator.tafl_moves import has_move
from lusoria.validator.tafl_settings import Settings, exit_words, named_settings


def moved_board(board: bytes, origin: int, target: int) -> bytearray:
    """`board` after the piece on `origin` moved to `target` (before it captures)."""
    after = bytearray(board)
    after[target], after[origin] = after[origin], EMPTY
    return after


def move_captures(
    board: bytearray, side: int, target: int, jumped: int, settings: Settings, listed: frozenset[int] | None = None
) -> tuple[list[int], list[int]]:
    """What the move of `side` that just landed on `target` captures on `board` (`moved_board`),
    in this order, and which of them shieldwalls took: the piece on `jumped` (-1: none) when the
    mover's jump captures (G14); the custodial captures (`captured_by`), with those against a
    square hostile only where the record's capture list `listed` says so (`hostile_written`);
    the soldiers of shieldwalls (G6)."""
    captured = captured_by(board, side, target, settings)
    if settings.hostile_written and listed is not None:
        written = captured_by(board, side, target, settings._replace(hostile_empty=settings.hostile_written))
        captured += [square for square in written if square in listed and square not in captured]
    if jumped >= 0 and settings.jumps[board[target]] == CAPTURING_JUMP and jumped not in captured:
        captured.insert(0, jumped)
    walled = [square for square in shieldwall_captures(board, side, target, settings) if square not in captured]
    captured += walled
    return captured, walled


def captured_by(board: bytearray, side: int, target: int, settings: Settings) -> list[int]:
    """What the piece that just moved to `target` captures between itself and another, or
    against a hostile square (T4, T5, T12; C6, C8; B6, B7; G5, G7)."""
    anvils, camps = settings.anvils[side], settings.camps
    if board[target] not in settings.hammers[side]:
        return []
    captured = []
    for neighbour, behind in settings.geo.pincers[target]:
        victim = board[neighbour]
        if victim == EMPTY or OWNER[victim] == side:
            continue
        if victim == KING:
            if _king_taken(board, neighbour, behind, settings):
                captured.append(neighbour)
        elif settings.commander_sides > 2 and (victim == DEFENDER_COMMANDER or victim == ATTACKER_COMMANDER):
            if _hostile_sides(board, neighbour, anvils, settings) >= settings.commander_sides:
                captured.append(neighbour)
        elif behind >= 0 and (
            board[behind] in anvils
            or _hostile(board, victim, behind, settings)
            or _hostile_camp(board, behind, neighbour, camps, settings.camp_hostile_when_held)
            or settings.linnaean
            and _linnaean(board, victim, behind, settings)
        ):
            captured.append(neighbour)
    return captured


def _hostile_sides(board: bytearray, square: int, anvils: tuple[int, ...], settings: Settings) -> int:
    """How many sides of the piece on `square` a capture closes (cc:3, cc:4): a piece of the side
    that moved (the mover, an anvil) or a square hostile to it; the edge does not count."""
    victim = board[square]
    return sum(
        board[side] in anvils or board[side] == EMPTY and _hostile(board, victim, side, settings)
        for side in settings.geo.neighbours[square]
    )


def _hostile(board: bytearray, victim: int, square: int, settings: Settings) -> bool:
    """Whether `square`, a square of a region, captures `victim` against a mover (empty or held)."""
    if not settings.region[square]:
        return False
    cell = victim * settings.geo.squares + square
    return (settings.hostile_held if board[square] else settings.hostile_empty)[cell] != 0


def _linnaean(board: bytearray, victim: int, square: int, settings: Settings) -> bool:
    """OpenTafl's Linnaean capture: a defender against the king on the throne, whose three other
    sides the attackers hold."""
    geo = settings.geo
    return (
        ORDINARY[victim] == DEFENDER
        and square == geo.throne
        and board[square] == KING
        and sum(OWNER[board[s]] == BLACK for s in geo.neighbours[square]) == 3
    )


def _hostile_camp(board: bytearray, square: int, victim: int, camps: bytes, camp_hostile_when_held: bool) -> bool:
    """T12: a camp square captures, except an attacker on a square of that same camp; under
    camp-hostile=empty, a camp square holding an attacker spares attackers."""
    camp = camps[square]
    if not camp:
        return False
    if board[victim] == ATTACKER:
        return camps[victim] != camp and (camp_hostile_when_held or not board[square])
    return True


def _against_king(board: bytearray, square: int, settings: Settings) -> bool:
    """Whether `square` closes a capture of the king on four sides: an attacker, or a square of a
    region hostile to him (the empty throne)."""
    return OWNER[board[square]] == BLACK or _hostile(board, KING, square, settings)


def _king_taken(board: bytearray, king: int, behind: int, settings: Settings) -> bool:
    """Is the king on `king` captured by the move from beside him (T5, C8, B7, G7)? By strength:
    between the mover and `behind` (-1: off the board), an attacker, a camp or a hostile square
    (w; c away from the throne and its neighbours; t away from the throne); or on every side (s,
    never on the edge; m, the edge closing the sides it has not)."""
    geo, strength = settings.geo, settings.strength
    if (
        strength == "w"
        or strength == "c"
        and king != geo.throne
        and king not in geo.next_to_throne
        or strength == "t"
        and king != geo.throne
    ):
        return behind >= 0 and (_against_king(board, behind, settings) or settings.camps[behind] != 0)
    if behind >= 0 and _commanders_take(board, king, behind, settings):
        return True
    if geo.edge[king] and strength != "m":
        return False
    return all(_against_king(board, s, settings) for s in geo.neighbours[king])


_BLACK_LEADERS: Final = (ATTACKER_KNIGHT, ATTACKER_COMMANDER)


def _commanders_take(board: bytearray, king: int, behind: int, settings: Settings) -> bool:
    """OpenTafl's commander sandwich (G7): a king whom only four sides capture is also captured
    between the mover and `behind` when both are attackers' commanders or knights, or one is and
    the other a hostile corner; never on the throne nor against it."""
    geo = settings.geo
    mover = 2 * king - behind  # (the three squares are in line)
    if king == geo.throne or behind == geo.throne or board[mover] not in _BLACK_LEADERS:
        return False
    return board[behind] in _BLACK_LEADERS or (
        settings.region[behind] == CORNER_SQUARE and not board[behind] and _hostile(board, KING, behind, settings)
    )


def shieldwall_captures(board: bytearray, side: int, target: int, settings: Settings) -> list[int]:
    """The soldiers that shieldwalls lose to the move of `side` to `target` (G6): none
    without shieldwalls; the wall it flanks (swf:y) or every wall closed (swf:n)."""
    if not settings.shieldwall:
        return []
    return (
        _flanked_walls(board, side, target, settings) if settings.flank_walls else _closed_walls(board, side, settings)
    )


def _flanked_walls(board: bytearray, side: int, target: int, settings: Settings) -> list[int]:
    """C7: the soldiers of a line of two pieces or more of the other side along the edge, from
    `target` (where the mover landed) to a piece of the mover's (or a corner of `wall_corners`)
    at its other end, each piece of the line with a piece of the mover's in front of it. The
    king is not captured."""
    if not settings.geo.edge[target] or board[target] not in settings.hammers[side]:
        return []
    return _walls_from(board, side, target, settings)


def _closed_walls(board: bytearray, side: int, settings: Settings) -> list[int]:
    """OpenTafl's swf:n: the soldiers of every shieldwall that the pieces of `side` close (from
    each of their pieces on the edge, or a corner of `wall_corners`), whichever piece moved."""
    captors, corners, edge = settings.anvils[side], settings.wall_corners, settings.geo.edge
    captured: set[int] = set()
    for square in range(settings.geo.squares):
        if edge[square] and (board[square] in captors or corners[square] and not board[square]):
            captured.update(_walls_from(board, side, square, settings))
    return sorted(captured)


def _walls_from(board: bytearray, side: int, end: int, settings: Settings) -> list[int]:
    """The soldiers of the shieldwalls along the edge from `end` (a piece of `side`, or a corner)
    to a piece of the mover's (or a corner of `wall_corners`) at their other end."""
    geo, captors, corners = settings.geo, settings.anvils[side], settings.wall_corners
    captured: list[int] = []
    for ray in geo.rays[end]:
        front = _inward(end, ray[0] - end, geo.size) if ray else 0
        if not front:  # the ray leaves the edge (or end is not on one)
            continue
        line: list[int] = []
        for square in ray:
            piece = board[square]
            if piece == EMPTY or OWNER[piece] == side:
                if (piece in captors or corners[square]) and len(line) >= 2:
                    captured += [taken for taken in line if board[taken] != KING]
                break
            if board[square + front] not in captors:
                break
            line.append(square)
    return captured


def _inward(square: int, step: int, size: int) -> int:
    """The step from an edge square toward the middle, for a line that goes along that edge by
    `step` (1 or -1 along a rank, ±size along a file); 0 when the line does not run along an edge."""
    file, rank = square % size, square // size
    if step in (1, -1) and rank in (0, size - 1):
        return size if rank == 0 else -size
    if step in (size, -size) and file in (0, size - 1):
        return 1 if file == 0 else -1
    return 0


def open_lines(board: bytes, king: int, settings: Settings) -> int:
    """How many straight lines from the king to the edge are empty (T6, T8)."""
    geo, camps, region, cross = settings.geo, settings.camps, settings.region, settings.cross
    row = KING * geo.squares
    lines = 0
    for ray in geo.rays[king]:
        for square in ray:
            if board[square] or (region[square] and not cross[row + square]) or camps[square]:
                break
        else:
            lines += bool(ray)
    return lines


def game_ending(board: bytes, turn: int, mover: int, settings: Settings) -> Outcome | None:
    """Whether the game ended with the move just made by `mover` (NOBODY: a starting position),
    `turn` to move."""
    ids = settings.ids
    king = board.find(KING)
    if king < 0:
        return Outcome("0-1", ids.captured, f"the king was captured{named_settings(settings, 'ks')}", KING_CAPTURED)
    if settings.exits[king]:
        return Outcome(
            "1-0", ids.escape, f"the king reached {exit_words(settings)}{named_settings(settings, 'esc')}", KING_ESCAPED
        )
    if mover == WHITE and settings.tuichi_ends and open_lines(board, king, settings) >= 2:
        return Outcome("1-0", ids.escape, "the king has two open lines to the edge (Tuichi)", KING_ESCAPED)
    if mover != BLACK and settings.forts and _in_fort(board, king, settings):
        return Outcome(
            "1-0", ids.fort, f"the king is in an exit fort on the edge{named_settings(settings, 'efe')}", EXIT_FORT
        )
    if mover != WHITE and settings.encirclement and _encircled(board, settings):
        return Outcome(
            "0-1",
            ids.encirclement,
            f"the attackers encircle every defender{named_settings(settings, 'surf')}",
            ENCIRCLED,
        )
    if not has_move(board, turn, settings):
        if not settings.passes:
            return Outcome(
                "0-1" if turn == WHITE else "1-0", ids.no_move, f"{SIDE_NAMES[turn]} has no legal move", NO_MOVE
            )
        if not has_move(board, 1 - turn, settings):
            return Outcome("1/2-1/2", ids.no_move, "neither side has a legal move", NO_MOVE)
    return None


def _in_fort(board: bytes, king: int, settings: Settings) -> bool:
    """C10: the king on the edge, able to move, in a space of empty squares closed off by
    defenders that no attacker touches and that can never be captured. (Where forts count, the
    king may stop on any empty square: he can move when the space holds one.)"""
    geo = settings.geo
    if not geo.edge[king]:
        return False
    inside = {king}
    waiting = [king]
    while waiting:
        for neighbour in geo.neighbours[waiting.pop()]:
            piece = board[neighbour]
            if OWNER[piece] == BLACK:
                return False
            if piece == EMPTY and neighbour not in inside:
                inside.add(neighbour)
                waiting.append(neighbour)
    if len(inside) == 1:  # the king cannot move
        return False
    safe = {square for square in range(geo.squares) if ORDINARY[board[square]] == DEFENDER}
    changed = True
    while changed:  # a defender is safe on a line when a neighbour there is off the board, inside or safe
        changed = False
        for square in list(safe):
            up, down, right, left = (ray[0] if ray else -1 for ray in geo.rays[square])
            if not (_shelters(up, inside, safe) or _shelters(down, inside, safe)) or not (
                _shelters(right, inside, safe) or _shelters(left, inside, safe)
            ):
                safe.discard(square)
                changed = True
    wall = {
        neighbour for square in inside for neighbour in geo.neighbours[square] if ORDINARY[board[neighbour]] == DEFENDER
    }
    return wall <= safe


def _shelters(square: int, inside: set[int], safe: set[int]) -> bool:
    return square < 0 or square in inside or square in safe


def _squares_of(board: bytes, pieces: bytes) -> Iterable[int]:
    """The squares of `board` that hold one of `pieces`, piece after piece."""
    for piece in pieces:
        square = board.find(piece)
        while square >= 0:
            yield square
            square = board.find(piece, square + 1)


def _encircled(board: bytes, settings: Settings) -> bool:
    """C11: no defender, the king included, can reach the edge through empty or defender squares.
    The search starts from one defender at a time (found by `bytes.find`): while the defenders
    are free, nearly always, the first search reaches the edge in a few squares."""
    edge, neighbours = settings.geo.edge, settings.geo.neighbours
    reached: set[int] = set()
    for start in _squares_of(board, WHITE_PIECES):
        if start in reached:
            continue
        reached.add(start)
        waiting = [start]
        while waiting:
            square = waiting.pop()
            if edge[square]:
                return False
            for neighbour in neighbours[square]:
                if OWNER[board[neighbour]] != BLACK and neighbour not in reached:
                    reached.add(neighbour)
                    waiting.append(neighbour)
    return True
