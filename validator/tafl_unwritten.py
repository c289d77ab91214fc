"""A ply of a tafl record that leaves out berserk continuations (berw:n, berw:a, G16,
`play_unwritten`): played on each position they may have made (tafl_continuations.py), the first
where it fits going on; when none fits, under berw:a, after left-out continuations that a look
back finds (`_looked_back`), which also plays a ply written after the end (`played_past_end`)."""
# lusoria: compiled with mypyc

from __future__ import annotations

from typing import Final

from lusoria.validator.base import Illegal, Played
from lusoria.validator.tafl_board import (
    EMPTY,
    KING,
    OWNER,
    TAKEN,
    Geometry,
    Move,
    RememberingPosition,
    TaflPosition,
    parse_move,
)
from lusoria.validator.tafl_continuations import (
    UNWRITTEN_DEPTH,
    UNWRITTEN_KEPT,
    Capture,
    LeftOut,
    Trail,
    Unwritten,
    continued_boards,
    taken,
    trail_plies,
    unwritten_position,
)
from lusoria.validator.tafl_play import new_position, play_ply
from lusoria.validator.tafl_settings import Settings, named_settings

LOOKBACK_PLIES: Final = 40  # berw:a: a look back reaches the captures of the last 40 plies,
LOOKBACK_CAPTURES: Final = 8  # the 8 latest of them,
LOOKBACK_PLAYS: Final = 3000  # and plays at most 3,000 plies on the way


_NOT_FOUND: Final[set[tuple[object, ...]]] = set()  # look backs that found nothing (a record is replayed more
# than once: its capture lists read, then validated), kept to at most NOT_FOUND_KEPT
NOT_FOUND_KEPT: Final = 256
POSITIONS_PLAYED: Final = [0]  # positions `_fitting` has played in this process (`Game.searched` counts them)


def play_unwritten(settings: Settings, position: TaflPosition, text: str) -> Played[TaflPosition]:
    """Apply one ply of a record that leaves out berserk continuations (berw:n, berw:a, G16): it is
    played on the position and on each that left-out continuations may have made instead; the
    first on which it fits (`_fitting`) goes on, warning G16 when it is not the position itself.
    When it fits none, under berw:a a look back (`_looked_back`) may find the continuations whose
    last move did not capture; else it is illegal as on the first position where it is legal, or on
    the position itself. After a capture, the capturing piece's continuations add positions
    (`_went_on`)."""
    candidates = (Unwritten(position, (), getattr(position, "captures", ())), *getattr(position, "others", ()))
    played, legal = _fitting(settings, candidates, text)
    if not played and settings.unwritten == "a":
        found = _looked_back(settings, position, text)
        if found is not None:
            return found
    if not played:  # no position fits: the first where the move is legal (or the position itself) says why
        fallback = (legal or candidates)[0]
        played.append((play_ply(settings, fallback.position, text), fallback))
    return _went_on(settings, position, played, text)


def played_past_end(settings: Settings, position: TaflPosition, text: str) -> Played[TaflPosition] | None:
    """A ply written after the ply that led to `position` ended the game, in a record that leaves
    out berserk continuations: as a ply that fits no kept position, played after the left-out
    continuations that a look back finds (`_looked_back`: under berw:a the last may be any move),
    under which the ply that ended the game did not; this one, after that ply played again there
    (the last of its `earlier`). None when none fits: the game ended there."""
    return _looked_back(settings, position, text, True)


def _fitting(
    settings: Settings, candidates: tuple[Unwritten, ...], text: str
) -> tuple[list[tuple[Played[TaflPosition], Unwritten]], list[Unwritten]]:
    """The ply played on each candidate where it fits: legal, capturing the soldiers its list names
    (none, without a list: such a record lists what a move captures, the king aside; anything, under
    berw:u, whose records list no captures) and ending the game when it lists the king; and the
    candidates where it is legal."""
    move = _move_or_none(settings.geo, text)
    listed = move.captures if move is not None and move.captures is not None else frozenset()
    unlisted = settings.unwritten == "u" and move is not None and move.captures is None
    bare = text.split("x", 1)[0]
    played: list[tuple[Played[TaflPosition], Unwritten]] = []
    legal: list[Unwritten] = []
    POSITIONS_PLAYED[0] += len(candidates)
    for candidate in candidates:
        try:
            each = play_ply(settings, candidate.position, bare)
        except Illegal:
            continue
        legal.append(candidate)
        if move is None:
            continue
        board = candidate.position.board
        captured = set(taken(board, each.position.board))
        king_listed = any(board[s] == KING for s in listed)  # a listed king is taken: the game ends
        same = {s for s in captured - {move.origin} if board[s] != KING} == {s for s in listed if board[s] != KING}
        if (same or unlisted) and (each.outcome is not None or not king_listed):
            played.append((each, candidate))
    return played, legal


def _went_on(
    settings: Settings, position: TaflPosition, played: list[tuple[Played[TaflPosition], Unwritten]], text: str
) -> Played[TaflPosition]:
    """The first of `played` (each ply with the candidate it was played on), warning G16 when its
    candidate is not `position` itself (`_warned`: the plies of its line since the capture), with
    the others and, after a capture, the positions the capturing piece's continuations
    (`continued_boards`) make; one that would end the game does not go on. It keeps the line's latest
    captures and the plies written since (berw:a), also when the first ends the game: a ply written
    after it may show that the game went on (`played_past_end`)."""
    first, chosen = played[0]
    said: frozenset[LeftOut] = getattr(position, "said", frozenset())
    _warned(settings, first, chosen, said)
    plies = getattr(position, "plies", 0) + 1
    written = (*getattr(position, "written", ())[2 - LOOKBACK_PLIES :], text)
    side = position.turn
    move = _move_or_none(settings.geo, text)
    target = move.target if move is not None else -1  # (-1: a pass)
    others: dict[bytes, Unwritten] = {}
    kept: tuple[Capture, ...] = ()
    for each, before in played:
        after = each.position.board
        captured = len(taken(before.position.board, after)) > 1 and target >= 0  # (a mercenary changes sides)
        captures = _recent(
            before.captures
            + ((Capture(after, target, each.text, plies, before.continuations, before.trail),) if captured else ()),
            plies,
        )
        on = before.position.board
        if each is first:
            kept = captures
        elif each.outcome is None and after not in others:
            each.position = unwritten_position(each.position, (), on, captures, written, plies)
            others[after] = Unwritten(each.position, before.continuations, captures, Trail(each, before.trail))
        if captured:
            for board, chain in continued_boards(after, target, side, settings, UNWRITTEN_DEPTH, False):
                if board not in others:
                    went = unwritten_position(_continued(board, 1 - side, settings), (), on, captures, written, plies)
                    trail = Trail(Played(went, each.text), before.trail)
                    continuations = (*before.continuations, LeftOut(plies, f"after {each.text}: {chain}"))
                    others[board] = Unwritten(went, continuations, captures, trail)
    others.pop(first.position.board, None)
    first.position = unwritten_position(
        first.position,
        tuple(others.values())[:UNWRITTEN_KEPT],
        chosen.position.board,
        kept,
        written,
        plies,
        said.union(chosen.continuations),
    )
    return first


def _warned(settings: Settings, played: Played[TaflPosition], candidate: Unwritten, said: frozenset[LeftOut]) -> None:
    """`played`, when its `candidate` is a line of left-out continuations (not the position itself),
    warning G16 of each that the record's plies have not warned of already (`said`), with the plies
    of that line since its capture (`earlier`)."""
    if candidate.continuations:
        played.earlier = trail_plies(candidate.trail)
        unsaid = (_left_out(settings, each) for each in candidate.continuations if each not in said)
        played.warnings = [*played.warnings, *unsaid]


def _continued(board: bytes, turn: int, settings: Settings) -> TaflPosition:
    """The position that left-out continuations made, with its history as after a capture (under
    a repetition rule: itself alone)."""
    went = new_position(board, turn)
    return RememberingPosition(board, turn, frozenset((went,))) if settings.repeats else went


def _left_out(settings: Settings, continuations: LeftOut) -> tuple[str, str]:
    """The warning (G16) that a record leaves out `continuations` (`after j6-i6xh6: i6-i7xh7`)."""
    return (
        settings.ids.unwritten,
        f"the record leaves out a berserk continuation {continuations.text}{named_settings(settings, 'berw')}",
    )


def _recent(captures: tuple[Capture, ...], plies: int) -> tuple[Capture, ...]:
    """The captures a look back at ply `plies` still reaches (berw:a)."""
    return tuple(capture for capture in captures if capture.ply > plies - LOOKBACK_PLIES)[-LOOKBACK_CAPTURES:]


def _looked_back(
    settings: Settings, position: TaflPosition, text: str, ended: bool = False
) -> Played[TaflPosition] | None:
    """berw:a: a ply that fits no kept position, or (any berw) one written after the ply that
    ended the game on it (`ended`), played after left-out continuations (under berw:a the last need
    not capture: any move of the piece that captured): for each of the line's latest captures
    (`_looked_back_captures`, the latest first), each chain of its piece's continuations that
    changes a square those plies touch is tried (`_after_continuations`); the first chain that fits
    goes on. None when none does, within LOOKBACK_PLAYS plies played (and kept, for the same look
    back on the next replay of the record)."""
    if _held_by_the_other_side(settings.geo, position, text):
        return None
    searched = _look_back_key(settings, position, text, ended)
    if searched in _NOT_FOUND:
        return None
    captures = _looked_back_captures(position, ended)
    budget = LOOKBACK_PLAYS
    for capture in captures:
        went, budget = _after_continuations(settings, position, text, ended, capture, captures, budget)
        if went is not None:
            return went
        if budget < 0:
            break
    if len(_NOT_FOUND) >= NOT_FOUND_KEPT:
        _NOT_FOUND.clear()
    _NOT_FOUND.add(searched)
    return None


def _look_back_key(settings: Settings, position: TaflPosition, text: str, ended: bool) -> tuple[object, ...]:
    """What a look back for `text` on `position` finds depends on (`_NOT_FOUND` keeps those that
    found nothing): the ply, the board, the plies written since the captures and the captures of
    each kept line, the options said and whether the game ended."""
    others: tuple[Unwritten, ...] = getattr(position, "others", ())
    return (
        text,
        position.board,
        getattr(position, "written", ()),
        getattr(position, "plies", 0),
        _searched(getattr(position, "captures", ())),
        tuple((other.position.board, _searched(other.captures)) for other in others),
        tuple(settings.said.items()),
        ended,
    )


def _looked_back_captures(position: TaflPosition, ended: bool) -> list[Capture]:
    """The captures of `position`'s line and of its kept others, each once (as the first line
    made it), the latest first; after the end of the game (`ended`), not one of the ply that ended
    it (that ply is played again)."""
    plies: int = getattr(position, "plies", 0)
    found: dict[tuple[bytes, int, str, int], Capture] = {}
    for each in (position, *getattr(position, "others", ())):
        for capture in getattr(each, "captures", ()):
            if capture.ply < plies or not ended:
                found.setdefault(_searched_one(capture), capture)
    return sorted(found.values(), key=lambda capture: -capture.ply)


def _after_continuations(
    settings: Settings,
    position: TaflPosition,
    text: str,
    ended: bool,
    capture: Capture,
    captures: list[Capture],
    budget: int,
) -> tuple[Played[TaflPosition] | None, int]:
    """`text` played after a chain of continuations of `capture`'s piece (`continued_boards`) that
    changes a square the plies written since touch (`_near`; after the end, each of them as this
    one, up to the sides of a king it captures), with those plies played again
    (`_played_again`): the first chain that fits them all, this ply warning G16 with the capture and
    the plies since as that line played them (`Played.earlier`), or None; and the budget of plies
    left."""
    written: tuple[str, ...] = getattr(position, "written", ())
    plies: int = getattr(position, "plies", 0)
    since = (*written[len(written) - (plies - capture.ply) :], text) if plies > capture.ply else (text,)
    side = OWNER[capture.board[capture.square]]
    earlier = tuple(each for each in captures[::-1] if each.ply <= capture.ply)  # (oldest first)
    near = _near(settings.geo, since[:-1], 2 if ended else 1) | _near(settings.geo, (text,), 2)
    free = settings.unwritten == "a"
    said: frozenset[LeftOut] = getattr(position, "said", frozenset())
    for board, chain in continued_boards(capture.board, capture.square, side, settings, UNWRITTEN_DEPTH, free):
        if all(board[square] == capture.board[square] for square in near):
            continue  # it changes no square near the plies since: they play as they did
        # the capture's line's continuations, then its own
        left_out = (*capture.continuations, LeftOut(capture.ply, f"after {capture.text}: {chain}"))
        line: TaflPosition = unwritten_position(
            _continued(board, 1 - side, settings),
            (),
            b"",
            earlier,
            written[: len(written) - len(since) + 1],
            capture.ply,
            said.union(left_out),
        )
        warnings = [_left_out(settings, each) for each in left_out if each not in said]
        went, budget = _played_again(settings, capture, line, since, warnings, budget)
        if went is not None:
            return went, budget
        if budget < 0:
            break
    return None, budget


def _played_again(
    settings: Settings,
    capture: Capture,
    line: TaflPosition,
    since: tuple[str, ...],
    warnings: list[tuple[str, str]],
    budget: int,
) -> tuple[Played[TaflPosition] | None, int]:
    """The plies `since` (written since `capture`) played again on `line`, each of which must fit
    (`_played_on_line`): the last, the ply looked back for, warning `warnings` and those found on
    the way, its `earlier` the capture and the plies of its line as that line played them; None
    when one does not fit (or there is none); and the budget of plies left."""
    again = [*trail_plies(capture.trail), Played(line, capture.text)]
    for number, ply in enumerate(since, 1):
        went, budget = _played_on_line(settings, line, ply, number == len(since), budget)
        if went is None:
            return None, budget
        warnings += [warning for warning in went.warnings if warning not in warnings]
        # a line of continuations chosen on the way: its plies since its capture
        again[max(len(again) - len(went.earlier), 0) :] = went.earlier
        if number == len(since):
            went.warnings, went.earlier = warnings, tuple(again)
            return went, budget
        again.append(went)
        line = went.position
    return None, budget


def _played_on_line(
    settings: Settings, line: TaflPosition, ply: str, last: bool, budget: int
) -> tuple[Played[TaflPosition] | None, int]:
    """`ply` played on `line` or one of its kept positions where it fits (`_went_on`), and the
    budget of plies left after them: None when it fits none, when the budget is spent, or when it
    ends the game before the `last` ply."""
    candidates = (Unwritten(line, (), getattr(line, "captures", ())), *getattr(line, "others", ()))
    budget -= len(candidates)
    played, _ = _fitting(settings, candidates, ply)
    if not played or budget < 0 or played[0][0].outcome is not None and not last:
        return None, budget
    return _went_on(settings, line, played, ply), budget


def _move_or_none(geo: Geometry, text: str) -> Move | None:
    """The move `text` makes (`parse_move`); None for a pass, or for a move to or from a square off
    the board (Illegal: the ply's replay says so)."""
    try:
        return parse_move(geo, text)
    except Illegal:
        return None


def _held_by_the_other_side(geo: Geometry, position: TaflPosition, text: str) -> bool:
    """Whether `text` moves from a square where the written board holds a piece of the side not
    to move that no capture turns (not a mercenary): the other side's move (a ply swapped with
    the next), which a look back must not explain by continuations that take that piece and
    bring one of the mover's onto its square."""
    move = _move_or_none(geo, text)
    if move is None:
        return False
    piece = position.board[move.origin]
    return OWNER[piece] == 1 - position.turn and TAKEN[piece] == EMPTY


def _searched(captures: tuple[Capture, ...]) -> tuple[tuple[bytes, int, str, int], ...]:
    """What a look back finds after `captures` depends on (`_searched_one`)."""
    return tuple(_searched_one(capture) for capture in captures)


def _searched_one(capture: Capture) -> tuple[bytes, int, str, int]:
    """What a look back finds after a capture depends on: its board, square, text and ply (not
    the plies played before it, which a replay of the record plays anew)."""
    return capture.board, capture.square, capture.text, capture.ply


def _near(geo: Geometry, plies: tuple[str, ...], reach: int) -> set[int]:
    """The squares that `plies` touch: each one's origin, the squares it passes and those up to
    `reach` steps from its target (2: what it may capture, and the sides of a king it captures)."""
    size, found = geo.size, set[int]()
    for text in plies:
        move = _move_or_none(geo, text)
        if move is None:
            continue
        rank, file = divmod(move.origin, size)
        to_rank, to_file = divmod(move.target, size)
        if rank == to_rank or file == to_file:
            low, high = sorted((move.origin, move.target))
            found.update(range(low, high + 1, 1 if rank == to_rank else size))
        found.add(move.origin)
        for files in range(-reach, reach + 1):
            for ranks in range(abs(files) - reach, reach + 1 - abs(files)):
                if 0 <= to_file + files < size and 0 <= to_rank + ranks < size:
                    found.add((to_rank + ranks) * size + to_file + files)
    return found
