"""One tafl ply played under `Settings` (`play_ply`): the move checked, its captures made and
checked against the record's list, the end of the game, and what the rules carry to the next
ply (berserk moves, G15; the history for repetition, T13, G12); the ply in canonical form, the
announcements' warnings (T8), and every legal move of a position (`legal_moves`)."""
# lusoria: compiled with mypyc

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Final

from lusoria.validator.base import (
    SIDE_NAMES,
    WHITE,
    Illegal,
    Outcome,
    Played,
    already_over,
    check_capture_list,
    misnamed_captures,
)
from lusoria.validator.tafl_board import (
    ATTACKER,
    DEFENDER,
    KING,
    OWNER,
    PIECE_NAMES,
    REPETITION,
    TAKEN,
    THRONE_SQUARE,
    Geometry,
    Move,
    RememberingPosition,
    TaflPosition,
    capture_list,
    parse_move,
)
from lusoria.validator.tafl_captures import captured_by, game_ending, move_captures, moved_board, open_lines
from lusoria.validator.tafl_moves import check_move, has_move, jumped_over, moves_of, refuse_jump
from lusoria.validator.tafl_settings import Settings, named_settings

# the letters a capture list names a piece with (NOTATION.md §4): a knight, a commander or a mercenary has none
_LETTERED: Final[dict[int, str]] = {KING: "K", DEFENDER: "P", ATTACKER: "P"}


def play_ply(settings: Settings, position: TaflPosition, text: str) -> Played[TaflPosition]:
    """Apply one ply as written under `settings`; Illegal when the rules forbid it."""
    geo, ids = settings.geo, settings.ids
    try:
        move = parse_move(geo, text)
    except Illegal as off_board:
        raise Illegal(ids.move, off_board.message) from None
    side = position.turn
    if settings.passes and not has_move(position.board, side, settings):
        after, outcome = _passed(settings, position)
        if move is None:
            return Played(after, "--", outcome)
        try:  # the forced pass, left out
            if outcome is not None:  # (it ends the game: a repetition, T13, or neither side has a move)
                raise Illegal(settings.ids.end, already_over(outcome))
            played = _play_move(settings, after, text, move)
        except Illegal as illegal:
            said = f"after {SIDE_NAMES[side]}'s forced pass (no move), {illegal.message}"
            refused = Illegal(illegal.rule, said, illegal.occupied, illegal.lost, illegal.meant)
            refused.passed, refused.judged_at, refused.ended = True, after, outcome
            raise refused from None
        played.passed = True
        return played
    return _play_move(settings, position, text, move)


def _passed(settings: Settings, position: TaflPosition) -> tuple[TaflPosition, Outcome | None]:
    """The position after the forced pass of the side to move (T9), with its history under a
    repetition rule (a pass is a ply: T13), and the end of the game it brings."""
    side = position.turn
    after = new_position(position.board, 1 - side)
    outcome = game_ending(after.board, after.turn, side, settings)
    return _remember(position, after, outcome, False, side, settings) if settings.repeats else (after, outcome)


def _play_move(settings: Settings, position: TaflPosition, text: str, move: Move | None) -> Played[TaflPosition]:
    """Apply `move`, written `text`, at `position` (`play_ply`)."""
    geo, ids = settings.geo, settings.ids
    side = position.turn
    if move is None:
        raise Illegal(ids.no_move, "a pass (--) is allowed only under no-move=passes, to a side that has no move")
    berserker = _berserker(position)
    continuing = (berserker >= 0 or move.berserk) and _continues_berserk(position, berserker, move, text, settings)
    if continuing:
        side = OWNER[position.board[move.origin]]
    jumped = _checked_move(position.board, side, move, settings)
    board = moved_board(position.board, move.origin, move.target)
    captured, walled = move_captures(board, side, move.target, jumped, settings, move.captures)
    if move.captures is not None:
        _check_capture_list(text, move.captures, captured, walled, position.board, board, move.target, side, settings)
    if continuing and settings.berserk != "m" and not captured:
        raise Illegal(ids.berserk, f"a berserk move captures{named_settings(settings, 'ber')}")
    for square in captured:
        board[square] = TAKEN[board[square]]
    after = new_position(bytes(board), 1 - side)
    outcome = game_ending(after.board, after.turn, side, settings)
    if settings.repeats:
        after, outcome = _remember(position, after, outcome, bool(captured), side, settings)
    if captured and settings.berserk != "n" and outcome is None:
        after = _berserk(after, move.target, side, settings)
    warnings = _announcement_warnings(after, move.announcement, outcome, settings) if move.announcement else []
    return Played(after, _canonical(geo, position.board, text, move, captured, continuing), outcome, warnings)


def _continues_berserk(position: TaflPosition, berserker: int, move: Move, text: str, settings: Settings) -> bool:
    """Whether `move` continues a berserk move (G15): the piece that captured, on `berserker` (-1:
    none), moves again. Illegal when another moves where that piece must (ber:m, ber:c), or when a
    move written as one (`=`) continues none."""
    geo, ids = settings.geo, settings.ids
    continuing = berserker >= 0 and move.origin == berserker
    if berserker >= 0 and not continuing and settings.berserk != "o":
        raise Illegal(
            ids.berserk,
            f"the {PIECE_NAMES[position.board[berserker]]} that captured on {geo.names[berserker]} moves again "
            f"(berserk){named_settings(settings, 'ber')}",
        )
    if move.berserk and not continuing:
        refused = Illegal(
            ids.berserk or ids.move,  # (a game without berserk: a movement its rules refuse)
            f"{text} is written as a berserk move (=), and no piece that captured moves again from "
            f"{geo.names[move.origin]}{named_settings(settings, 'ber')}",
        )
        refused.continues_none = True
        raise refused
    return continuing


def _checked_move(board: bytes, side: int, move: Move, settings: Settings) -> int:
    """The square that `move`, by `side`, jumps over (-1: none, or a piece of the other side moved);
    Illegal when the rules refuse the move."""
    mover = board[move.origin]
    jumped = jumped_over(board, move.origin, move.target, settings) if OWNER[mover] == side else -1
    if jumped < 0:
        if settings.jumps[mover] and OWNER[mover] == side and not settings.leaps:  # (a leap: check_move)
            refuse_jump(board, move, settings)
        check_move(board, side, move, settings)
    return jumped


def _check_capture_list(
    text: str,
    listed: frozenset[int],
    captured: list[int],
    walled: list[int],
    before: bytes,
    board: bytearray,
    target: int,
    side: int,
    settings: Settings,
) -> None:
    """Illegal unless the capture list written (`listed`, each square once) names what the move
    of `side` from `before` to `board` (to `target`) captures (`captured`, `walled` by
    shieldwalls), each with its piece's letter if one is written (`xKe4`): under the rule of the king
    when it misses or names him, of shieldwalls, of camps when it leaves out only what they capture,
    else of captures."""
    ids, geo = settings.ids, settings.geo
    check_capture_list(text, ids.capture)
    if listed == set(captured):
        misnamed = misnamed_captures(
            text,
            lambda name: _LETTERED.get(before[geo.index[name]], ""),  # a knight's, a commander's: none
            lambda name: (
                "the king, not a soldier"
                if before[geo.index[name]] == KING
                else f"a {PIECE_NAMES[before[geo.index[name]]]}, not the king"
                if before[geo.index[name]] in _LETTERED
                else f"a {PIECE_NAMES[before[geo.index[name]]]}, which a list names by its square alone"
            ),
        )
        if misnamed:
            said, letters = misnamed
            raise Illegal(ids.king if "K" in letters else ids.capture, said)
        return
    said, real = capture_list(settings.geo, listed), capture_list(settings.geo, captured) or "nothing"
    wrong = listed ^ set(captured)
    kings = OWNER[KING] != side and KING in (before[s] for s in wrong)  # (not the mover's own: h74a, `Ke5-e6xe5`)
    rule = ids.king if kings else ids.shieldwall if wrong & set(walled) else ids.capture
    if settings.camp_squares and listed == set(
        captured_by(board, side, target, settings._replace(camps=bytes(len(board))))
    ):
        taken = [geo.names[s] for s in captured if before[s] == KING and s not in listed]  # (h74a: the king said)
        rule, real = ids.camp_capture, real + f" (against a camp{f': the king on {taken[0]}' if taken else ''})"
    armed = board[target] == KING or any(board[far] == KING for near, far in geo.pincers[target] if near in wrong)
    keys = ("ks",) if rule == ids.king else ("sw",) if rule == ids.shieldwall else ("ka",) if armed else ()
    why = _setting_left_out(board, side, target, listed, captured, settings) or named_settings(settings, *keys)
    raise Illegal(rule, f"the move captures {real}, not {said}{why}")


def _setting_left_out(
    board: bytearray, side: int, target: int, listed: frozenset[int], captured: list[int], settings: Settings
) -> str:
    """Why the move does not capture what its list names, where a setting of the rules is why: the empty
    throne hostile to no soldier, or the king no captor, by moving or standing: what the move captures
    (`captured`, shieldwalls and jumps too) and the custodial captures the setting changed adds are the
    list (h74a: "captures nothing, not d5" under the seed, as if the konakis captured in no tafl game); ""
    otherwise."""
    region, squares = settings.region, settings.geo.squares
    hostile = bytes(1 if region[i % squares] == THRONE_SQUARE else h for i, h in enumerate(settings.hostile_empty))
    for changed, why, key, option in (
        (
            settings._replace(hostile_empty=hostile),
            f"{settings.throne_words} does not capture it when empty",
            "cenhe",
            "throne-hostile",
        ),
        (
            settings._replace(hammers=_king_added(settings.hammers)),
            "the king does not capture by moving",
            "ka",
            "king-armed",
        ),
        (
            settings._replace(anvils=_king_added(settings.anvils)),
            "the king does not capture by standing against it",
            "ka",
            "king-armed",
        ),
    ):
        if set(captured).union(captured_by(board, side, target, changed)) == listed:
            return f" ({why}, {f'{key}: {settings.said[key]}' if settings.said else f'{option}=no'})"
    return ""


def _king_added(by_side: tuple[tuple[int, ...], ...]) -> tuple[tuple[int, ...], ...]:
    """Settings' `hammers` or `anvils` with the king among his side's."""
    return tuple((*pieces, KING) if owner == OWNER[KING] else pieces for owner, pieces in enumerate(by_side))


def _canonical(
    geo: Geometry, board: bytes, text: str, move: Move, captured: list[int], continuing: bool
) -> str | Callable[[], str]:
    """The ply in canonical form: `text` when it is already, else what writes it once read
    (validate never reads it)."""
    king_written = move.piece == "K" if board[move.origin] == KING else move.piece is None
    if king_written and move.captures is None and not captured and move.berserk == continuing:
        return text
    return partial(_format, geo, board, move._replace(berserk=continuing), captured)


def _berserker(position: TaflPosition) -> int:
    """The square of the piece that moves again (G15), or -1."""
    return position.berserker if isinstance(position, RememberingPosition) else -1


def _berserk(after: TaflPosition, target: int, side: int, settings: Settings) -> TaflPosition:
    """The position after a capture by the piece now on `target` under berserk rules (G15): that
    side moves again with it when it has a move (ber:m), or a capturing move (ber:c), as
    OpenTafl plays them; under lusoria's ber:o it may (a capturing move) or the other side moves."""
    continuing = _berserk_moves(after.board, target, settings)
    if not continuing:
        return after
    earlier: frozenset[TaflPosition] = getattr(after, "earlier", frozenset())
    twice: frozenset[TaflPosition] = getattr(after, "twice", frozenset())
    return RememberingPosition(after.board, after.turn if settings.berserk == "o" else side, earlier, twice, target)


def _berserk_moves(board: bytes, berserker: int, settings: Settings) -> list[tuple[int, int]]:
    """The moves of the piece on `berserker` that continue a berserk move: any (ber:m), or those
    that capture (ber:c, ber:o)."""
    side = OWNER[board[berserker]]
    moves = [move for move in moves_of(board, side, settings) if move[0] == berserker]
    if settings.berserk == "m":
        return moves
    return [move for move in moves if _capturing(board, side, move, settings)]


def _capturing(board: bytes, side: int, move: tuple[int, int], settings: Settings) -> bool:
    """Whether a move captures (custodially, by a capturing jump or a shieldwall)."""
    origin, target = move
    jumped = jumped_over(board, origin, target, settings)
    return bool(move_captures(moved_board(board, origin, target), side, target, jumped, settings)[0])


def legal_moves(position: TaflPosition, settings: Settings) -> list[tuple[int, int]]:
    """Every legal (origin, target) in a position: those of the berserk piece when one moves again."""
    berserker = _berserker(position)
    if berserker < 0:
        return list(moves_of(position.board, position.turn, settings))
    moves = _berserk_moves(position.board, berserker, settings)
    return moves + list(moves_of(position.board, position.turn, settings)) if settings.berserk == "o" else moves


def new_position(board: bytes, turn: int) -> TaflPosition:
    """A TaflPosition made by tuple's own constructor (a NamedTuple's runs Python code, slowly)."""
    return tuple.__new__(TaflPosition, (board, turn))


def _remember(
    before: TaflPosition, after: TaflPosition, outcome: Outcome | None, captured: bool, mover: int, settings: Settings
) -> tuple[TaflPosition, Outcome | None]:
    """The position after a ply, with its history; the end of the game when it arose before
    (`repeats` 1, T13) or twice before (2, G12)."""
    earlier: frozenset[TaflPosition] = frozenset() if captured else getattr(before, "earlier", frozenset())
    twice: frozenset[TaflPosition] = frozenset() if captured else getattr(before, "twice", frozenset())
    plain = TaflPosition(*after)
    if outcome is None and (plain in twice or settings.repeats == 1 and plain in earlier):
        result = (
            settings.repeated
            if settings.repeated in ("1/2-1/2", "0-1")
            else ("1-0" if (mover == WHITE) == (settings.repeated == "wins") else "0-1")
        )
        times = "before" if settings.repeats == 1 else "twice before"
        outcome = Outcome(
            result,
            settings.ids.repetition,
            f"the position arose {times} (repetition){named_settings(settings, 'tfr')}",
            REPETITION,
        )
    if plain in earlier:
        twice = twice | {plain}
    return RememberingPosition(*after, earlier | {plain}, twice), outcome


def _format(geo: Geometry, board: bytes, move: Move, captured: list[int]) -> str:
    """The ply in canonical form: the king's K, the captures in export order."""
    piece = "K" if board[move.origin] == KING else ""
    text = f"{piece}{geo.names[move.origin]}{'=' if move.berserk else '-'}{geo.names[move.target]}"
    if captured:
        text += "x" + capture_list(geo, captured)
    return text + move.announcement


def _announcement_warnings(
    position: TaflPosition, said: str, outcome: Outcome | None, settings: Settings
) -> list[tuple[str, str]]:
    """T8: `+` when the king has exactly one open line and the game goes on, `++` for two or more or the end."""
    board, rule = position.board, settings.ids.announcement
    if said == "+" and outcome is not None:  # (h74a: the king on the edge had "0 open lines", or 1: unsaid)
        return [(rule, f"announced + (Raichi), but the move ends the game: {outcome.reason}; ++ marks it")]
    lines = open_lines(board, board.index(KING), settings) if KING in board else 0
    if said == "+" and lines != 1:
        return [(rule, f"announced + (Raichi), but the king has {lines} open lines to the edge")]
    if said == "++" and lines < 2 and outcome is None:
        return [
            (
                rule,
                f"announced ++ (Tuichi), but the king has {lines} open "
                f"line{'' if lines == 1 else 's'} to the edge and the game goes on",
            )
        ]
    return []
