"""Tablut (RULES.md T1–T13 and the Tablut options, Ashton Tablut's camps and repetition among them)."""

from __future__ import annotations

import random
import re
from functools import lru_cache, partial
from typing import Final, NamedTuple

from mypy_extensions import mypyc_attr

from lusoria.notation.numbers import whole_number
from lusoria.validator.base import (BLACK, SIDE_NAMES, WHITE, Illegal, OptionError, Outcome, Played,
                                   check_capture_list)
from lusoria.validator.diagram import CAMP, THRONE, Diagram, Piece, Squares, ply_marks
from lusoria.validator.grid import GridGame, GridPly

SIZE: Final = 9
EMPTY: Final = 0
SWEDE: Final = 1
KING: Final = 2
MUSCOVITE: Final = 3
LETTERS: Final[dict[int, str]] = {SWEDE: "P", KING: "K", MUSCOVITE: "p"}
NOBODY = 255  # the owner of an empty square: no side
OWNER: Final = bytes((NOBODY, WHITE, WHITE, BLACK))  # by piece code (bytes: a table compiled code reads fast)
KONAKIS: Final = 4 * SIZE + 4  # e5
NEXT_TO_KONAKIS: Final = frozenset({KONAKIS - 1, KONAKIS + 1, KONAKIS - SIZE, KONAKIS + SIZE})
INITIAL = "3ppp3/4p4/4P4/p3P3p/ppPPKPPpp/p3P3p/4P4/4p4/3ppp3 w"


NAMES = tuple("abcdefghi"[square % SIZE] + str(square // SIZE + 1) for square in range(SIZE * SIZE))


def square_name(square: int) -> str:
    return NAMES[square]


SQUARES: Final = {name: square for square, name in enumerate(NAMES)}


def square_index(name: str) -> int:
    return SQUARES[name]


def _rays(square: int) -> tuple[tuple[int, ...], ...]:
    """The squares from `square` to the edge in each direction: up, down, right, left."""
    file, rank = square % SIZE, square // SIZE
    return (tuple(square + SIZE * k for k in range(1, SIZE - rank)),
            tuple(square - SIZE * k for k in range(1, rank + 1)),
            tuple(square + k for k in range(1, SIZE - file)),
            tuple(square - k for k in range(1, file + 1)))


def _path(origin: int, target: int) -> tuple[int, ...]:
    """The squares a move from `origin` to `target` crosses, then `target`; () off its lines."""
    ray = next((ray for ray in RAYS[origin] if target in ray), ())
    return ray[:ray.index(target) + 1] if ray else ()


RAYS: Final = tuple(_rays(square) for square in range(SIZE * SIZE))
NEIGHBOURS: Final = tuple(tuple(ray[0] for ray in rays if ray) for rays in RAYS)
# (neighbour, the square behind it) in each direction, for custodial captures
PINCERS: Final = tuple(tuple((ray[0], ray[1]) for ray in rays if len(ray) > 1) for rays in RAYS)
PATHS: Final = tuple(_path(origin, target) for origin in range(SIZE * SIZE) for target in range(SIZE * SIZE))
EDGE: Final = frozenset(s for s in range(SIZE * SIZE) if not all(RAYS[s]))
# camps=ashton (T11, T12): the squares of the west, east, south and north camps
ASHTON_CAMP_SQUARES: Final = tuple(square_index(name) for name in
                                   "a4 a5 a6 b5 i4 i5 i6 h5 d1 e1 f1 e2 d9 e9 f9 e8".split())
# by square: its camp (1 west, 2 east, 3 south, 4 north), 0 for none
ASHTON_CAMPS: Final = bytes(ASHTON_CAMP_SQUARES.index(square) // 4 + 1 if square in ASHTON_CAMP_SQUARES else 0
                            for square in range(SIZE * SIZE))
NO_CAMPS: Final = bytes(SIZE * SIZE)


class TablutPosition(NamedTuple):
    board: bytes  # 81 squares, a1 b1 … i9
    turn: int


@mypyc_attr(native_class=False)
class RememberingPosition(TablutPosition):
    """A position under repetition=draw (T13): equal to, and written as, the plain position;
    it also remembers the positions that arose after earlier plies since the last capture
    (a capture makes every earlier position unreachable)."""

    earlier: frozenset[TablutPosition]

    def __new__(cls, board: bytes, turn: int, earlier: frozenset[TablutPosition] = frozenset()) -> RememberingPosition:
        position = TablutPosition.__new__(cls, board, turn)
        position.earlier = earlier
        return position

    def __getnewargs__(self) -> tuple[bytes, int, frozenset[TablutPosition]]:
        return self.board, self.turn, self.earlier

    def __repr__(self) -> str:
        return repr(TablutPosition(*self))


class Move(NamedTuple):
    piece: str | None
    origin: int
    target: int
    captures: frozenset[int] | None  # None: not written
    announcement: str


class Settings(NamedTuple):
    """A rule set's options as plain values, for the functions that play a ply."""

    passers: tuple[int, ...]  # the pieces that may pass over the konakis
    king_stops: bool  # the king may stop on the konakis
    hostile: str  # throne-hostile
    king_like_soldier: bool  # king-capture=2
    captors: tuple[tuple[int, ...], ...]  # by side, the pieces that capture
    tuichi_ends: bool
    passes: bool  # no-move=passes
    camp_squares: tuple[int, ...]  # () without camps
    camps: bytes  # by square, its camp (ASHTON_CAMPS), or NO_CAMPS
    camp_hostile_when_held: bool
    repetition: bool  # repetition=draw


_PLY = re.compile(r"(?P<piece>[KP])?(?P<origin>[a-i][1-9])-(?P<target>[a-i][1-9])"
                  r"(?:x(?P<captures>[^+]+))?(?P<announcement>\+*)")


@lru_cache(maxsize=65536)
def parse_move(text: str) -> Move | None:
    """The parts of a ply the grammar has accepted; None for the pass `--`."""
    if text == "--":
        return None
    m = _PLY.fullmatch(text)
    assert m is not None, text  # the grammar has accepted it
    captures = None if m["captures"] is None else frozenset(
        square_index(sq.lstrip("KP")) for sq in m["captures"].split("/"))
    return Move(m["piece"], square_index(m["origin"]), square_index(m["target"]), captures, m["announcement"])


@mypyc_attr(native_class=False)
class Tablut(GridGame[TablutPosition]):
    name = "tablut"
    end_rule = "T10"
    options = {
        "first": ("white", "black"),
        "throne-pass": ("all", "king", "none"),
        "throne-stop": ("king", "none"),
        "throne-hostile": ("no", "empty", "always"),
        "king-capture": ("4", "2"),
        "king-armed": ("yes", "no"),
        "tuichi-ends": ("yes", "no"),
        "no-move": ("loses", "passes"),
        "camps": ("none", "ashton"),
        "camp-hostile": ("always", "empty"),
        "repetition": ("none", "draw"),
    }
    searched_as_presets = ("camps", "camp-hostile", "repetition")  # `lusoria rules` tries them only as presets
    presets = {
        "seed": {},
        "linnaeus": {"first": "black", "throne-pass": "none", "throne-stop": "none",
                     "throne-hostile": "always", "king-capture": "2", "tuichi-ends": "no"},
        "unarmed": {"throne-pass": "king", "king-armed": "no", "throne-hostile": "empty"},
        "aage": {"first": "black", "king-capture": "2", "tuichi-ends": "no", "throne-hostile": "empty"},
        "ashton": {"king-capture": "2", "throne-pass": "none", "throne-stop": "none", "throne-hostile": "always",
                   "tuichi-ends": "no", "camps": "ashton", "repetition": "draw"},
    }

    def __init__(self, options=None, variant=None):
        super().__init__(options, variant)
        o = self.option
        camp_squares = ASHTON_CAMP_SQUARES if o["camps"] == "ashton" else ()
        self.settings = Settings(
            passers={"all": (SWEDE, KING, MUSCOVITE), "king": (KING,), "none": ()}[o["throne-pass"]],
            king_stops=o["throne-stop"] == "king",
            hostile=o["throne-hostile"],
            king_like_soldier=o["king-capture"] == "2",
            captors=((SWEDE, KING) if o["king-armed"] == "yes" else (SWEDE,), (MUSCOVITE,)),
            tuichi_ends=o["tuichi-ends"] == "yes",
            passes=o["no-move"] == "passes",
            camp_squares=camp_squares,
            camps=ASHTON_CAMPS if camp_squares else NO_CAMPS,
            camp_hostile_when_held=o["camp-hostile"] == "always",
            repetition=o["repetition"] == "draw")

    # -- positions -------------------------------------------------------
    def initial(self) -> TablutPosition:
        board = _initial_board()
        return self._remembering(TablutPosition(board, BLACK if self.option["first"] == "black" else WHITE))

    def parse_position(self, text: str) -> TablutPosition:
        fields = text.split()
        if len(fields) != 2 or fields[1] not in ("w", "b"):
            raise OptionError(f"a Tablut position is nine ranks and the side to move (w or b), as in '{INITIAL}'")
        ranks = fields[0].split("/")
        if len(ranks) != SIZE:
            raise OptionError(f"a Tablut position has 9 ranks, not {len(ranks)}")
        board = bytearray()
        for rank in reversed(ranks):
            row = bytearray()
            for char in rank:
                if (empty := whole_number(char, 1, SIZE)) is not None:
                    row.extend([EMPTY] * empty)
                elif char in "KPp":
                    row.append({"K": KING, "P": SWEDE, "p": MUSCOVITE}[char])
                else:
                    raise OptionError(f"'{char}' is not a Tablut piece (K, P, p) or a count of empty squares")
            if len(row) != SIZE:
                raise OptionError(f"the rank '{rank}' covers {len(row)} squares, not 9")
            board.extend(row)
        if board.count(KING) > 1:
            raise OptionError("a Tablut position holds at most one king")
        if board[KONAKIS] not in (EMPTY, KING):
            raise OptionError("only the king may stand on the konakis (e5)")
        camped = [square_name(s) for s in self.settings.camp_squares if board[s] in (SWEDE, KING)]
        if camped:
            raise OptionError(f"a Swede or the king stands on the camp square {camped[0]} (T11)")
        return self._remembering(TablutPosition(bytes(board), WHITE if fields[1] == "w" else BLACK))

    def _remembering(self, position: TablutPosition) -> TablutPosition:
        """Under repetition=draw, a position that starts a history (T13: the start does not count)."""
        return RememberingPosition(*position) if self.settings.repetition else position

    def format_position(self, position: TablutPosition) -> str:
        ranks = []
        for rank in range(SIZE - 1, -1, -1):
            text, empty = "", 0
            for piece in position.board[rank * SIZE:(rank + 1) * SIZE]:
                if piece == EMPTY:
                    empty += 1
                    continue
                text += (str(empty) if empty else "") + LETTERS[piece]
                empty = 0
            ranks.append(text + (str(empty) if empty else ""))
        return "/".join(ranks) + (" w" if position.turn == WHITE else " b")

    def turn(self, position: TablutPosition) -> int:
        return position.turn

    def material(self, position: TablutPosition) -> tuple[int, int]:
        board = position.board
        return board.count(SWEDE) + board.count(KING), board.count(MUSCOVITE)

    def render(self, position: TablutPosition) -> str:
        rows = []
        for rank in range(SIZE - 1, -1, -1):
            cells = []
            for square in range(rank * SIZE, (rank + 1) * SIZE):
                piece = position.board[square]
                camp = self.settings.camps[square]
                cells.append(LETTERS[piece] if piece else "+" if square == KONAKIS else "#" if camp else ".")
            rows.append(f"{rank + 1} " + " ".join(cells))
        rows.append("  a b c d e f g h i")
        return "\n".join(rows)

    def diagram(self, position: TablutPosition, last: str | None = None) -> Diagram:
        shown = {SWEDE: Piece(WHITE, "soldier"), KING: Piece(WHITE, "king"), MUSCOVITE: Piece(BLACK, "soldier")}
        move = parse_move(last) if last else None
        marks = ply_marks((move.origin, move.target), move.captures or ()) if move else {}
        roles = {KONAKIS: THRONE, **{square: CAMP for square in self.settings.camp_squares}}
        return Diagram(f"Tablut: {self.format_position(position)}", Squares(SIZE, SIZE, NAMES, roles),
                       {square: shown[code] for square, code in enumerate(position.board) if code}, marks)

    # -- moves -----------------------------------------------------------
    def play(self, position: TablutPosition, text: str) -> Played[TablutPosition]:
        return _play(self.settings, position, text)

    def outcome(self, position: TablutPosition) -> Outcome | None:
        board = position.board
        if KING not in board:
            return Outcome("0-1", "T7", "there is no king on the board")
        if board.index(KING) in EDGE:
            return Outcome("1-0", "T6", "the king stands on the edge")
        return _ending(board, position.turn, BLACK, self.settings)  # no Tuichi on a starting position (T10)

    def ply_parts(self, text: str) -> GridPly | None:
        move = parse_move(text)
        if move is None:
            return None
        squares = tuple((s % SIZE, s // SIZE) for s in (move.origin, move.target))
        captures = None if move.captures is None else frozenset(NAMES[s] for s in move.captures)
        return GridPly(False, move.piece, squares, False, captures, None)

    def legal_plies(self, position: TablutPosition) -> list[str]:
        plies = [self.play(position, f"{square_name(origin)}-{square_name(target)}").text
                 for origin, target in _moves(position.board, position.turn, self.settings)]
        return plies or (["--"] if self.settings.passes else [])

    def random_ply(self, position: TablutPosition, rng: random.Random) -> str | None:
        moves = list(_moves(position.board, position.turn, self.settings))
        if not moves:
            return "--" if self.settings.passes else None
        origin, target = rng.choice(moves)
        return self.play(position, f"{square_name(origin)}-{square_name(target)}").text


def _order(square: int) -> tuple[int, int]:
    """Export order of captures: by file, then by rank."""
    return square % SIZE, square // SIZE


@lru_cache(maxsize=None)
def _initial_board() -> bytes:
    """The board of the start, read once: every record replays from it (the same in every variant)."""
    return Tablut().parse_position(INITIAL).board


def _closed(camps: bytes, square: int, camp: int) -> bool:
    """T11: whether `square` is a square of a camp other than `camp`, the camp a move
    starts in (0: none)."""
    return camps[square] != 0 and camps[square] != camp


def _play(settings: Settings, position: TablutPosition, text: str) -> Played[TablutPosition]:
    """Apply one ply as written under `settings`; Illegal when the rules forbid it."""
    move = parse_move(text)
    side = position.turn
    if settings.passes and not _has_move(position.board, side, settings):
        if move is None:
            after = TablutPosition(position.board, 1 - side)
            return Played(after, "--", _ending(after.board, after.turn, side, settings))
        position = TablutPosition(position.board, 1 - side)  # the forced pass, left out
        side = position.turn
    if move is None:
        raise Illegal("T9", "a pass (--) is allowed only under no-move=passes, to a side that has no move")
    _check_move(position.board, side, move, settings)
    board = bytearray(position.board)
    board[move.target], board[move.origin] = board[move.origin], EMPTY
    captured = _captures(board, side, move.target, settings)
    if move.captures is not None:
        check_capture_list(text, "T4")
        if move.captures != set(captured):
            said = "/".join(square_name(s) for s in sorted(move.captures, key=_order)) or "nothing"
            real = "/".join(square_name(s) for s in sorted(captured, key=_order)) or "nothing"
            rule = "T5" if KING in (position.board[s] for s in move.captures ^ set(captured)) else "T4"
            if settings.camp_squares and \
                    move.captures == set(_captures(board, side, move.target, settings._replace(camps=NO_CAMPS))):
                rule, real = "T12", real + " (against a camp)"  # the list leaves out what the camps capture
            raise Illegal(rule, f"the move captures {real}, not {said}")
    for square in captured:
        board[square] = EMPTY
    after = _position(bytes(board), 1 - side)
    outcome = _ending(after.board, after.turn, side, settings)
    if settings.repetition:
        after, outcome = _remember(position, after, outcome, bool(captured))
    warnings = _announcement_warnings(after, move.announcement, outcome, settings) if move.announcement else []
    king_written = move.piece == "K" if position.board[move.origin] == KING else move.piece is None
    canonical = text if king_written and move.captures is None and not captured \
        else partial(_format, position.board, move, captured)  # written once read (validate never reads it)
    return Played(after, canonical, outcome, warnings)


def _position(board: bytes, turn: int) -> TablutPosition:
    """A TablutPosition made by tuple's own constructor (a NamedTuple's runs Python code, slowly)."""
    return tuple.__new__(TablutPosition, (board, turn))


def _remember(before: TablutPosition, after: TablutPosition, outcome: Outcome | None,
              captured: bool) -> tuple[TablutPosition, Outcome | None]:
    """T13: the position after a ply, with its history; a draw when it arose before."""
    earlier: frozenset[TablutPosition] = frozenset() if captured else getattr(before, "earlier", frozenset())
    if outcome is None and after in earlier:
        outcome = Outcome("1/2-1/2", "T13", "the position arose before (repetition)")
    return RememberingPosition(*after, earlier | {TablutPosition(*after)}), outcome


def _format(board: bytes, move: Move, captured: list[int]) -> str:
    """The ply in canonical form: the king's K, the captures in export order."""
    piece = "K" if board[move.origin] == KING else ""
    text = f"{piece}{square_name(move.origin)}-{square_name(move.target)}"
    if captured:
        text += "x" + "/".join(square_name(s) for s in sorted(captured, key=_order))
    return text + move.announcement


def _announcement_warnings(position: TablutPosition, said: str, outcome: Outcome | None,
                           settings: Settings) -> list[tuple[str, str]]:
    """T8: `+` when the king has exactly one open line, `++` for two or more or the end."""
    board = position.board
    lines = _open_lines(board, board.index(KING), settings) if KING in board else 0
    if said == "+" and lines != 1:
        return [("T8", f"announced + (Raichi), but the king has {lines} open lines to the edge")]
    if said == "++" and lines < 2 and outcome is None:
        return [("T8", f"announced ++ (Tuichi), but the king has {lines} open "
                       f"line{'' if lines == 1 else 's'} to the edge and the game goes on")]
    return []


def _moves(board: bytes, side: int, settings: Settings):
    """Every legal (origin, target) for `side` (T2, T3, T11)."""
    passers, king_stops, camps = settings.passers, settings.king_stops, settings.camps
    for origin, piece in enumerate(board):
        if OWNER[piece] != side:
            continue
        passes = piece in passers
        camp = camps[origin]
        for ray in RAYS[origin]:
            for target in ray:
                if board[target] or _closed(camps, target, camp):
                    break
                if target == KONAKIS:
                    if piece == KING and king_stops:
                        yield origin, target
                    if not passes:
                        break
                    continue
                yield origin, target


def _has_move(board: bytes, side: int, settings: Settings) -> bool:
    """Whether `side` has a legal move (T2, T3, T11)."""
    camps = settings.camps
    for square in range(SIZE * SIZE):  # fast: a piece next to an empty square other than
        if OWNER[board[square]] == side:  # the konakis and the camps can move
            for neighbour in NEIGHBOURS[square]:
                if not board[neighbour] and neighbour != KONAKIS and not camps[neighbour]:
                    return True
    return next(_moves(board, side, settings), None) is not None


def _check_move(board: bytes, side: int, move: Move, settings: Settings) -> None:
    """Raise Illegal unless `move` is a legal move for `side` (T1–T3, T11)."""
    passers, king_stops, camps = settings.passers, settings.king_stops, settings.camps
    origin, target = move.origin, move.target
    piece = board[origin]
    if piece == EMPTY:
        raise Illegal("T2", f"there is no piece on {square_name(origin)}")
    if OWNER[piece] != side:
        raise Illegal("T1", f"the piece on {square_name(origin)} is {SIDE_NAMES[1 - side]}'s, "
                            f"and {SIDE_NAMES[side]} is to move")
    if move.piece and move.piece != ("K" if piece == KING else "P"):
        raise Illegal("T2", f"{square_name(origin)} holds {'the king' if piece == KING else 'a soldier'}, "
                            f"not {'the king' if move.piece == 'K' else 'a soldier'}")
    if origin == target:
        raise Illegal("T2", "a move must leave its square")
    path = PATHS[origin * SIZE * SIZE + target]
    if not path:
        raise Illegal("T2", "a piece moves along its rank or file, "
                            f"and {square_name(target)} is on neither")
    for index in range(len(path) - 1):
        square = path[index]
        if board[square]:
            raise Illegal("T2", f"the way is blocked at {square_name(square)}")
        if square == KONAKIS and piece not in passers:
            who = "no piece" if not passers else "only the king"
            raise Illegal("T3", f"{who} may pass over the konakis (e5)")
    if board[target]:
        raise Illegal("T2", f"{square_name(target)} is occupied")
    if target == KONAKIS and not (piece == KING and king_stops):
        who = "only the king" if king_stops else "no piece, once the king has left it,"
        raise Illegal("T3", f"{who} may stop on the konakis (e5)")
    camp = camps[origin]
    for square in path:
        if _closed(camps, square, camp):
            how = "stop on" if square == target else "pass over"
            raise Illegal("T11", f"{square_name(square)} is a camp square: only a piece that starts its move "
                                 f"in that camp may {how} it")


def _captures(board: bytearray, side: int, target: int, settings: Settings) -> list[int]:
    """What the piece that just moved to `target` captures (T4, T5, T12)."""
    captors, camps = settings.captors[side], settings.camps
    if board[target] not in captors:
        return []
    captured = []
    for neighbour, behind in PINCERS[target]:
        victim = board[neighbour]
        if victim == EMPTY or OWNER[victim] == side:
            continue
        if victim == KING:
            if _king_taken(board, neighbour, behind, settings.king_like_soldier, camps):
                captured.append(neighbour)
        elif board[behind] in captors or _hostile_konakis(board, behind, settings.hostile) or \
                _hostile_camp(board, behind, neighbour, camps, settings.camp_hostile_when_held):
            captured.append(neighbour)
    return captured


def _hostile_camp(board: bytearray, square: int, victim: int, camps: bytes, camp_hostile_when_held: bool) -> bool:
    """T12: a camp square captures, except a Muscovite on a square of that same camp;
    under camp-hostile=empty, a camp square holding a Muscovite spares Muscovites."""
    camp = camps[square]
    if not camp:
        return False
    if board[victim] == MUSCOVITE:
        return camps[victim] != camp and (camp_hostile_when_held or not board[square])
    return True


def _hostile_konakis(board: bytearray, square: int, hostile: str) -> bool:
    return square == KONAKIS and (hostile == "always" or (hostile == "empty" and not board[square]))


def _king_taken(board: bytearray, king: int, behind: int, king_like_soldier: bool, camps: bytes) -> bool:
    """T5 (and king-capture=2): is the king on `king` captured by the move?"""
    if king in EDGE:
        return False
    if king_like_soldier and king != KONAKIS and king not in NEXT_TO_KONAKIS:
        return board[behind] == MUSCOVITE or camps[behind] != 0
    return all(board[s] == MUSCOVITE or s == KONAKIS for s in NEIGHBOURS[king])


def _open_lines(board: bytes, king: int, settings: Settings) -> int:
    """How many straight lines from the king to the edge are empty (T6, T8)."""
    crossable, camps = KING in settings.passers, settings.camps
    lines = 0
    for ray in RAYS[king]:
        for square in ray:
            if board[square] or (square == KONAKIS and not crossable) or camps[square]:
                break
        else:
            lines += bool(ray)
    return lines


def _ending(board: bytes, turn: int, mover: int, settings: Settings) -> Outcome | None:
    """Whether the game ended with the move just made by `mover`, `turn` to move (T6, T7, T9)."""
    king = board.find(KING)
    if king < 0:
        return Outcome("0-1", "T7", "the king was captured")
    if king in EDGE:
        return Outcome("1-0", "T6", "the king reached the edge")
    if mover == WHITE and settings.tuichi_ends and _open_lines(board, king, settings) >= 2:
        return Outcome("1-0", "T6", "the king has two open lines to the edge (Tuichi)")
    if not _has_move(board, turn, settings):
        if not settings.passes:
            return Outcome("0-1" if turn == WHITE else "1-0", "T9", f"{SIDE_NAMES[turn]} has no legal move")
        if not _has_move(board, 1 - turn, settings):
            return Outcome("1/2-1/2", "T9", "neither side has a legal move")
    return None
