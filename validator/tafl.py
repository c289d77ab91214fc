"""The tafl engine: moves, captures and endings of the tafl games on a square board of any size
(docs/rules.md: Tablut T1–T13, Copenhagen C1–C14, Brandubh B1–B12). A game is data for it
(validator/tablut.py, copenhagen.py, brandubh.py): its board (`TaflBoard`: size, throne, start,
whether the king escapes to the edge or to a corner), its options, and the `Settings` they make,
which carry the IDs of the game's rules (`RuleIds`), so that a diagnostic cites the game's own.

Pieces are codes in a board of bytes (a1 b1 … by rank): the defenders are White (soldiers and
the king), the attackers Black. Compiled with mypyc: the hot functions are module-level and take
their tables from a `Geometry` (one for each board) and their options from `Settings`."""
# lusoria: compiled with mypyc

from __future__ import annotations

import random
import re
from collections.abc import Iterable
from functools import cache, partial
from typing import Final, NamedTuple, cast

from mypy_extensions import mypyc_attr

from lusoria.notation.numbers import whole_number
from lusoria.validator.base import BLACK, SIDE_NAMES, WHITE, Illegal, OptionError, Outcome, Played, check_capture_list
from lusoria.validator.diagram import CAMP, CORNER, THRONE, Diagram, Piece, Squares, ply_marks
from lusoria.validator.grid import GridGame, GridPly

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
FILES: Final = "abcdefghijklmnopqrs"  # up to 19 files
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


class Geometry:
    """The squares of a size × size board and what the rules look up about each (by index);
    `throne` -1 for a board without one."""

    def __init__(self, size: int, throne: int) -> None:
        squares = size * size
        self.size, self.squares, self.throne = size, squares, throne
        self.names: tuple[str, ...] = tuple(FILES[s % size] + str(s // size + 1) for s in range(squares))
        self.index: dict[str, int] = {name: s for s, name in enumerate(self.names)}
        # the squares from each square to the edge in each direction: up, down, right, left
        self.rays: tuple[tuple[tuple[int, ...], ...], ...] = tuple(self._rays(s) for s in range(squares))
        self.neighbours: tuple[tuple[int, ...], ...] = tuple(tuple(ray[0] for ray in rays if ray) for rays in self.rays)
        # (neighbour, the square behind it) in each direction, for custodial captures
        self.pincers: tuple[tuple[tuple[int, int], ...], ...] = tuple(
            tuple((ray[0], ray[1] if len(ray) > 1 else -1) for ray in rays if ray) for rays in self.rays
        )  # -1: off
        # the board
        self.edge = bytes(not all(rays) for rays in self.rays)  # bools as bytes 0 and 1
        last = squares - 1
        self.corners = bytes(s in (0, size - 1, last - size + 1, last) for s in range(squares))
        self.next_to_throne: frozenset[int] = frozenset(self.neighbours[throne] if throne >= 0 else ())
        self.moves: dict[str, Move] = {}  # the plies read on this board (parse_move)
        self.paths: dict[int, tuple[int, ...]] = {}  # by origin * squares + target (`path`)

    def _rays(self, square: int) -> tuple[tuple[int, ...], ...]:
        size = self.size
        file, rank = square % size, square // size
        return (
            tuple(square + size * k for k in range(1, size - rank)),
            tuple(square - size * k for k in range(1, rank + 1)),
            tuple(square + k for k in range(1, size - file)),
            tuple(square - k for k in range(1, file + 1)),
        )

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


class RuleIds(NamedTuple):
    """The IDs of a game's rules, by what the engine checks (docs/rules.md)."""

    turn: str  # whose piece may move
    move: str  # a straight move over empty squares
    restricted: str  # the throne (and the corners) kept for the king
    capture: str  # custodial capture of a soldier
    king: str  # the king's capture
    escape: str  # the king's escape: the defenders win
    captured: str  # the king captured: the attackers win
    announcement: str  # + and ++ (Tablut)
    no_move: str  # a side without a legal move
    camp: str  # moving through camps (Tablut's camps=ashton)
    camp_capture: str  # camps as captors
    repetition: str
    shieldwall: str
    fort: str  # an exit fort: the defenders win
    encirclement: str  # the defenders shut in: the attackers win
    jump: str = ""  # a jump over an enemy soldier (OpenTafl's knights, commanders and jumping king)
    berserk: str = ""  # a capturing piece moves again
    unwritten: str = ""  # a berserk continuation the record leaves out (berw:n)


class Settings(NamedTuple):
    """A rule set as plain values, for the functions that play a ply. The tables `cross`, `stop`,
    `enter` and `hostile_*` are indexed by piece code × squares + square."""

    geo: Geometry
    ids: RuleIds
    board: TaflBoard
    start: bytes  # the squares of the start
    throne_words: str  # "the konakis (e5)", as messages name it
    words: dict[int, str]  # each special square as messages name it: "a corner (a1)"
    region: bytes  # by square: PLAIN, THRONE_SQUARE, CORNER_SQUARE, ATTACKER_FORT, DEFENDER_FORT
    cross: bytes  # 1 where the piece may pass over the (empty) square
    stop: bytes  # 1 where the piece may stop
    enter: bytes  # 1 where the piece may stop coming from a square of another region
    hostile_empty: bytes  # 1 where the square, empty, captures the piece against a mover
    hostile_held: bytes  # 1 where the square, held, captures it
    strength: str  # how the king is captured: s (all four sides), w (two, as a soldier), c (two away from
    # the throne and its neighbours), m (all four sides, the edge counting as one), t (two away from the
    # throne: lusoria's own)
    hammers: tuple[tuple[int, ...], ...]  # by side, the pieces that capture by moving
    anvils: tuple[tuple[int, ...], ...]  # by side, the pieces that capture by standing
    tuichi_ends: bool  # two open lines to the edge end the game (Tablut)
    passes: bool  # a side without a move passes (Tablut's no-move=passes)
    camp_squares: tuple[int, ...]  # () without camps
    camps: bytes  # by square, its camp (1, 2, …), 0 for none
    camp_hostile_when_held: bool
    repeats: int  # 0: repetition is not checked; 1: the first repetition of a position ends the game (T13);
    # 2: the third occurrence (threefold)
    repeated: str  # what it gives the side whose move repeats: "1/2-1/2" (a draw), "wins", "loses"
    first: int  # the side that moves first: WHITE or BLACK
    corner_escape: bool  # the king escapes to a corner, not to any edge square
    corners: bytes  # by square, 1 for a corner the king escapes to; all 0 for edge escape
    exits: bytes  # by square, 1 where the king escapes: the corners, or the edge
    closed: bytes  # by square, 1 for the special squares and the camps: squares not every piece may step to
    shieldwall: bool
    wall_corners: bytes  # by square, 1 for a corner that closes a shieldwall (OpenTafl's strong shieldwall)
    flank_walls: bool  # a shieldwall is captured only by a move to its flank (OpenTafl's swf:y); else by any
    # move after which it stands closed (swf:n)
    forts: bool
    encirclement: bool
    speed: bytes  # by piece code, the most squares a move goes (0: any)
    linnaean: bool  # a defender beside the king on the throne, shut in by three attackers, is captured
    # against the throne
    said: dict[str, str]  # the settings as the game's description writes them (OTN keys), which messages
    # name: {} for a game whose IDs are its own
    jumps: bytes  # by piece code, how it jumps: NO_JUMP, RESTRICTED_JUMP, JUMP, CAPTURING_JUMP
    berserk: str  # "n": no berserk moves; "c", "m": a piece that captured moves again (OTN's ber); "o" (lusoria's
    # own): it may, capturing
    commander_sides: int  # the sides of a commander a capture closes: 2 (between two, as a soldier), 3 or 4
    # (lusoria's cc key: Unst Alea Evangelii's dux)
    unwritten: str  # the records leave out berserk continuations (`_play_unwritten`): "" (they write them, or
    # no berserk), "n" (berw:n: each left-out continuation captures), "a" (berw:a: the last one may be any
    # move of the piece, found by a look back), "u" (berw:u: as n, and the records list no captures)
    leaps: bool  # every piece may leap over a soldier of either side next to it, to the empty square
    # beyond (leap:y, aagenielsen.dk's old Tyr types)
    hostile_written: bytes = b""  # as hostile_empty, plus the squares hostile only where the record lists
    # the capture (lusoria's corw, cenw, aforw, dforw: a site whose engine changed); b"": none such


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


class Trail(NamedTuple):
    """The plies a line of left-out continuations played, the latest first: a ply played there
    (the capture they follow: on the board they made) and the trail before it."""

    played: Played[TaflPosition]
    before: Trail | None


class Capture(NamedTuple):
    """A capture on a line of a record that leaves out berserk continuations, which a later ply may
    show went on with left-out moves (berw:a, `_looked_back`)."""

    board: bytes  # after the capturing ply
    square: int  # where the capturing piece stands
    text: str  # the ply as played (`j6-i6xh6`)
    ply: int  # its number on the line
    continuations: tuple[str, ...] = ()  # left out before it, on the line it was played on (`Unwritten`)
    trail: Trail | None = None  # the plies of that line before it


class Unwritten(NamedTuple):
    """A position that berserk continuations a record left out may have made, what they were
    (`after j6-i6xh6: i6-i7xh7`, one a capture they follow), the latest captures on the way to it
    (berw:a), and the plies played on its line since the first capture they follow (the ply that
    leads to it last)."""

    position: TaflPosition
    continuations: tuple[str, ...]
    captures: tuple[Capture, ...] = ()
    trail: Trail | None = None


def _plies(trail: Trail | None) -> tuple[Played[TaflPosition], ...]:
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
    apart (`_play_unwritten`), the board that the ply leading to it was played on (`played_on`),
    and, for a look back (berw:a), the latest captures, the plies written since and their count."""

    others: tuple[Unwritten, ...]
    before: bytes
    captures: tuple[Capture, ...]
    written: tuple[str, ...]
    plies: int

    def __new__(
        cls,
        board: bytes,
        turn: int,
        earlier: frozenset[TaflPosition] = frozenset(),
        twice: frozenset[TaflPosition] = frozenset(),
        others: tuple[Unwritten, ...] = (),
        before: bytes = b"",
        captures: tuple[Capture, ...] = (),
        written: tuple[str, ...] = (),
        plies: int = 0,
    ) -> UnwrittenPosition:
        position = cast(UnwrittenPosition, RememberingPosition.__new__(cls, board, turn, earlier, twice))
        position.others, position.before = others, before  # (no berserker: its moves are searched, not waited for)
        position.captures, position.written, position.plies = captures, written, plies
        return position

    def __getnewargs__(  # type: ignore[override]
        self,
    ) -> tuple[
        bytes,
        int,
        frozenset[TaflPosition],
        frozenset[TaflPosition],
        tuple[Unwritten, ...],
        bytes,
        tuple[Capture, ...],
        tuple[str, ...],
        int,
    ]:
        return (
            self.board,
            self.turn,
            self.earlier,
            self.twice,
            self.others,
            self.before,
            self.captures,
            self.written,
            self.plies,
        )

    def __repr__(self) -> str:
        return repr(TaflPosition(*self))


class Move(NamedTuple):
    piece: str | None
    origin: int
    target: int
    captures: frozenset[int] | None  # None: not written
    announcement: str
    berserk: bool = False  # written `d3=f3` (as OTN writes it): the piece that captured moves again (G15)


_PLY = re.compile(
    r"(?P<piece>[KP])?(?P<origin>[a-s][0-9]+)(?P<kind>[-=])(?P<target>[a-s][0-9]+)"
    r"(?:x(?P<captures>[^+]+))?(?P<announcement>\+*)"
)


MOVES_KEPT: Final = 65536  # plies a Geometry keeps read (parse_move)


def parse_move(geo: Geometry, text: str) -> Move | None:
    """The parts of a ply the game's grammar has accepted; None for the pass `--`."""
    if text == "--":
        return None
    move = geo.moves.get(text)
    if move is None:
        if len(geo.moves) >= MOVES_KEPT:
            geo.moves.clear()
        move = geo.moves[text] = _read_move(geo, text)
    return move


def _read_move(geo: Geometry, text: str) -> Move:
    m = _PLY.fullmatch(text)
    assert m is not None, text  # the grammar has accepted it
    index = geo.index
    off = next((square for square in re.findall(r"[a-s][0-9]+", text) if square not in index), None)
    if off is not None:  # a grammar of every board (up to s19) has accepted it: `_play` names the rule
        raise Illegal("", f"{off} is not a square of the {geo.size}×{geo.size} board ({geo.names[0]}–{geo.names[-1]})")
    captures = None if m["captures"] is None else frozenset(index[sq.lstrip("KP")] for sq in m["captures"].split("/"))
    return Move(m["piece"], index[m["origin"]], index[m["target"]], captures, m["announcement"], m["kind"] == "=")


_SETTINGS: dict[tuple[type, tuple[str, ...]], Settings] = {}  # by game and options: TaflGame.settings
# The options of a tafl game whose king escapes to a corner, and their values (`corner_rules`
# says what each sets)
CORNER_OPTIONS = {
    "first": ("black", "white"),
    "king-capture": ("4", "2"),
    "king-armed": ("yes", "no"),
    "throne-hostile": ("empty", "no", "always"),
    "shieldwall": ("strong", "weak", "none"),
    "exit-forts": ("yes", "no"),
    "encirclement": ("yes", "no"),
}
SOLDIERS: Final = (DEFENDER, ATTACKER)
JUMPED_OVER: Final = (*SOLDIERS, DEFENDER_MERCENARY, ATTACKER_MERCENARY)  # the pieces a jump goes over (G14)
EVERY_PIECE: Final = (DEFENDER, KING, ATTACKER)


def corner_options(defaults: dict[str, str]) -> dict[str, tuple[str, ...]]:
    """CORNER_OPTIONS with a game's `defaults` first (the others' first value is their default)."""
    return {
        key: (defaults[key], *(value for value in values if value != defaults[key])) if key in defaults else values
        for key, values in CORNER_OPTIONS.items()
    }


def shared_rules(option: dict[str, str]) -> dict[str, object]:
    """The Settings' rule fields set by the options every tafl game has: first, throne-hostile,
    king-capture, king-armed."""
    return dict(
        first=BLACK if option["first"] == "black" else WHITE,
        hostile=option["throne-hostile"],
        king_like_soldier=option["king-capture"] == "2",
        captors=((DEFENDER, KING) if option["king-armed"] == "yes" else (DEFENDER,), (ATTACKER,)),
    )


def corner_rules(option: dict[str, str]) -> dict[str, object]:
    """The Settings' rule fields that the options of a corner-escape game set (CORNER_OPTIONS):
    every piece passes over the empty throne, only the king stops there."""
    return dict(
        shared_rules(option),
        passers=(DEFENDER, KING, ATTACKER),
        king_stops=True,
        shieldwall=option["shieldwall"] != "none",
        strong_walls=option["shieldwall"] == "strong",
        forts=option["exit-forts"] == "yes",
        encirclement=option["encirclement"] == "yes",
    )


def region_table(region: bytes, pieces: dict[int, tuple[int, ...]], plain: int) -> bytes:
    """A table by piece code × squares + square (Settings' `cross`, `stop`, …): on a square of a
    region that `pieces` names, 1 for the pieces it lists; `plain` on every other square."""
    return bytes(
        (1 if ORDINARY[piece] in pieces[kind] else 0) if kind in pieces else plain
        for piece in range(len(OWNER))
        for kind in region
    )


def square_index(size: int, name: str) -> int:
    """The index of a square of a size × size board, by name (a1); OptionError off the board."""
    rank = whole_number(name[1:], 1, size) if name[:1] and name[0] in FILES[:size] else None
    if rank is None:
        raise OptionError(f"{name} is not a square of a {size}×{size} board (a1–{FILES[size - 1]}{size})", "Variant")
    return (rank - 1) * size + FILES.index(name[0])


REGION_WORDS: Final = {
    THRONE_SQUARE: "",
    CORNER_SQUARE: "a corner",
    ATTACKER_FORT: "an attackers' fort",
    DEFENDER_FORT: "a defenders' fort",
}


def tafl_settings(board: TaflBoard, title: str, ids: RuleIds, region: bytes, **rules) -> Settings:
    """Settings on `board` (its geometry, start and exits), `region` by square (PLAIN, THRONE_SQUARE,
    CORNER_SQUARE, …), the rule IDs, and `rules`, Settings' rule fields: those not given are off
    (no camps, Tuichi, passes, repetition, shieldwall, forts, encirclement, speed limit nor
    Linnaean capture; every piece passes over and stops on every square, none is hostile, the
    king is captured on four sides and every piece captures)."""
    size = board.size
    geo = geometry(size, square_index(size, board.throne) if board.throne else -1)
    cells = len(OWNER) * geo.squares
    strong_walls = rules.pop("strong_walls", False)
    chosen = {
        **dict(
            cross=bytes([1]) * cells,
            stop=bytes([1]) * cells,
            enter=bytes([1]) * cells,
            hostile_empty=bytes(cells),
            hostile_held=bytes(cells),
            strength="s",
            hammers=((DEFENDER, KING), (ATTACKER,)),
            anvils=((DEFENDER, KING), (ATTACKER,)),
            first=BLACK,
            tuichi_ends=False,
            passes=False,
            camp_squares=(),
            camps=bytes(geo.squares),
            camp_hostile_when_held=True,
            repeats=0,
            repeated="1/2-1/2",
            shieldwall=False,
            flank_walls=True,
            forts=False,
            encirclement=False,
            speed=bytes(len(OWNER)),
            linnaean=False,
            said={},
            jumps=bytes(len(OWNER)),
            berserk="n",
            commander_sides=2,
            unwritten="",
            leaps=False,
        ),
        **rules,
    }
    corners = bytes(kind == CORNER_SQUARE for kind in region)
    closed = bytes(region[s] != PLAIN or chosen["camps"][s] > 0 for s in range(geo.squares))
    throne_words = f"the {board.throne_name} ({board.throne})"
    words = {
        s: throne_words if kind == THRONE_SQUARE else f"{REGION_WORDS[kind]} ({geo.names[s]})"
        for s, kind in enumerate(region)
        if kind != PLAIN
    }
    return Settings(
        geo=geo,
        ids=ids,
        board=board,
        start=bytes(_board(board.start.split()[0], size, title, "".join(LETTERS.values()))),
        throne_words=throne_words,
        words=words,
        region=region,
        corner_escape=board.corner_escape,
        corners=corners,
        exits=corners if board.corner_escape else geo.edge,
        closed=closed,
        wall_corners=corners if strong_walls else bytes(geo.squares),
        **chosen,
    )


@mypyc_attr(native_class=False)
class TaflGame(GridGame[TaflPosition]):
    """A tafl game: `board` and `title` (its name in messages), and the `Settings` its options
    make (`settings_for`). Everything else is the engine's."""

    board: TaflBoard
    title: str
    pieces = ("KP", "p")
    letters = LETTERS
    endings = (KING_CAPTURED, KING_ESCAPED, EXIT_FORT, ENCIRCLED, NO_MOVE, REPETITION)

    def __init__(self, options=None, variant=None):
        super().__init__(options, variant)
        key = (type(self), tuple(self.option.values()))
        if key not in _SETTINGS:  # made once for each set of options: a game is made for each record
            _SETTINGS[key] = self.settings_for(self.option)
        self.settings = _SETTINGS[key]
        self.geo = self.settings.geo

    def settings_for(self, option: dict[str, str]) -> Settings:
        """The Settings of a full set of this game's options (made by `on_board`)."""
        raise NotImplementedError

    def on_board(self, ids: RuleIds, **rules) -> Settings:
        """Settings on this game's board (its geometry, throne and exits) with its rule IDs and
        `rules`, Settings' rule fields and those the built-in games' options set: `passers` (who
        passes over the empty throne), `king_stops` (the king may go back to it), `hostile` (the
        throne as a captor: no, empty, always), `king_like_soldier` (the king captured by two away
        from the throne), `captors` (by side), `repetition` (the first repetition draws). Only
        the king stops on the throne and the corners, which are hostile to every soldier."""
        board = self.board
        size = board.size
        throne = square_index(size, board.throne)
        last = size * size - 1
        region = bytes(
            THRONE_SQUARE
            if s == throne
            else CORNER_SQUARE
            if board.corner_escape and s in (0, size - 1, last - size + 1, last)
            else PLAIN
            for s in range(size * size)
        )
        passers, hostile, captors = rules.pop("passers"), rules.pop("hostile"), rules.pop("captors")
        king_stops, weak, repetition = (
            rules.pop("king_stops"),
            rules.pop("king_like_soldier"),
            rules.pop("repetition", False),
        )
        king_only: dict[int, tuple[int, ...]] = {THRONE_SQUARE: (KING,), CORNER_SQUARE: (KING,)}
        return tafl_settings(
            board,
            self.title,
            ids,
            region,
            **rules,
            cross=region_table(region, {THRONE_SQUARE: passers, CORNER_SQUARE: (KING,)}, 1),
            stop=region_table(region, king_only, 1),
            enter=region_table(region, {THRONE_SQUARE: (KING,) if king_stops else (), CORNER_SQUARE: (KING,)}, 1),
            hostile_empty=region_table(
                region,
                {THRONE_SQUARE: (KING, *SOLDIERS) if hostile != "no" else (KING,), CORNER_SQUARE: EVERY_PIECE},
                0,
            ),
            hostile_held=region_table(
                region, {THRONE_SQUARE: SOLDIERS if hostile == "always" else (), CORNER_SQUARE: EVERY_PIECE}, 0
            ),
            strength="c" if weak else "s",
            hammers=captors,
            anvils=captors,
            repeats=1 if repetition else 0,
        )

    def square_name(self, square: int) -> str:
        return self.geo.names[square]

    def board_width(self) -> int:
        return self.geo.size

    def counted_letters(self) -> dict[str, str]:
        return {"king": "K"}

    @classmethod
    def fits_pattern(cls, width: int, height: int) -> bool:
        return width == height == cls.board.size

    # -- positions -------------------------------------------------------
    def initial(self) -> TaflPosition:
        return self._remembering(TaflPosition(self.settings.start, self.settings.first))

    def parse_position(self, text: str) -> TaflPosition:
        fields = text.split()
        if len(fields) != 2 or fields[1] not in ("w", "b"):
            raise OptionError(
                f"a {self.title} position is {self.geo.size} ranks and the side to move (w or b), "
                f"as in '{self.settings.board.start}'"
            )
        board = _board(fields[0], self.geo.size, self.title, "".join(self.pieces))
        if board.count(KING) > 1:
            raise OptionError(f"a {self.title} position holds at most one king")
        settings = self.settings
        squares = self.geo.squares
        for square in _special_squares(settings):
            if board[square] and not settings.stop[board[square] * squares + square]:
                raise OptionError(
                    f"{_who(settings.stop, square, squares)} may stand on {settings.words[square]}"
                    f"{_said(settings, _REGION_KEYS[settings.region[square]] + 's')}"
                )
        camped = [self.geo.names[s] for s in settings.camp_squares if board[s] in (DEFENDER, KING)]
        if camped:
            raise OptionError(f"a Swede or the king stands on the camp square {camped[0]} ({settings.ids.camp})")
        return self._remembering(TaflPosition(bytes(board), WHITE if fields[1] == "w" else BLACK))

    def square_board(self, position: TaflPosition) -> bytes | None:
        return position.board

    def with_board(self, position: TaflPosition, board: bytes) -> TaflPosition:
        return self._remembering(TaflPosition(board, position.turn))

    def _remembering(self, position: TaflPosition) -> TaflPosition:
        """Under a repetition rule, a position that starts a history (the start does not count)."""
        return RememberingPosition(*position) if self.settings.repeats else position

    def format_position(self, position: TaflPosition) -> str:
        size = self.geo.size
        ranks = []
        for rank in range(size - 1, -1, -1):
            text, empty = "", 0
            for piece in position.board[rank * size : (rank + 1) * size]:
                if piece == EMPTY:
                    empty += 1
                    continue
                text += (str(empty) if empty else "") + LETTERS[piece]
                empty = 0
            ranks.append(text + (str(empty) if empty else ""))
        return "/".join(ranks) + (" w" if position.turn == WHITE else " b")

    def turn(self, position: TaflPosition) -> int:
        return position.turn

    def material(self, position: TaflPosition) -> tuple[int, int]:
        board = position.board
        white = sum(board.count(code) for code in range(1, len(OWNER)) if OWNER[code] == WHITE)
        return white, len(board) - board.count(EMPTY) - white

    def material_follows_empty_squares(self) -> bool:
        start = self.settings.start
        return DEFENDER_MERCENARY not in start and ATTACKER_MERCENARY not in start  # a mercenary changes sides in place

    def render(self, position: TaflPosition) -> str:
        geo, settings = self.geo, self.settings
        width = len(str(geo.size))
        rows = []
        for rank in range(geo.size - 1, -1, -1):
            cells = []
            for square in range(rank * geo.size, (rank + 1) * geo.size):
                piece = position.board[square]
                marked = settings.camps[square] or settings.corners[square]
                cells.append(LETTERS[piece] if piece else "+" if square == geo.throne else "#" if marked else ".")
            rows.append(f"{rank + 1:>{width}} " + " ".join(cells))
        rows.append(" " * (width + 1) + " ".join(FILES[: geo.size]))
        held = set(position.board) | set(settings.start)
        legend = [words for codes, words in _LEGEND if held & set(codes)]
        if legend:  # OpenTafl's pieces, which a tafl board seldom holds
            rows.append(f"{', '.join(legend)}; uppercase: White")
        return "\n".join(rows)

    def diagram(self, position: TaflPosition, last: str | None = None) -> Diagram:
        geo, settings = self.geo, self.settings
        shown = {code: Piece(OWNER[code], PIECE_NAMES[code]) for code in LETTERS}
        move = parse_move(geo, last) if last else None
        marks = ply_marks((move.origin, move.target), move.captures or ()) if move else {}
        roles = {
            geo.throne: THRONE,
            **{square: CAMP for square in settings.camp_squares},
            **{square: CORNER for square in range(geo.squares) if settings.corners[square]},
        }
        return Diagram(
            f"{self.title}: {self.format_position(position)}",
            Squares(geo.size, geo.size, geo.names, roles),
            {square: shown[code] for square, code in enumerate(position.board) if code},
            marks,
        )

    # -- moves -----------------------------------------------------------
    def play(self, position: TaflPosition, text: str) -> Played[TaflPosition]:
        if self.settings.unwritten:
            before = _PLAYED[0]
            try:
                return _play_unwritten(self.settings, position, text)
            finally:  # an illegal ply too: it may have searched the most
                self.searched += _PLAYED[0] - before - 1
        return _play(self.settings, position, text)

    def play_past_end(self, position: TaflPosition, text: str) -> Played[TaflPosition] | None:
        if not self.settings.unwritten:
            return None
        before = _PLAYED[0]
        try:
            return _played_past_end(self.settings, position, text)
        finally:  # every position it played is searched: the ply follows the end
            self.searched += _PLAYED[0] - before

    def outcome(self, position: TaflPosition) -> Outcome | None:
        board, settings = position.board, self.settings
        king = board.find(KING)
        if king < 0:
            return Outcome("0-1", settings.ids.captured, "there is no king on the board", KING_CAPTURED)
        if settings.exits[king]:
            return Outcome("1-0", settings.ids.escape, f"the king stands on {_exits(settings)}", KING_ESCAPED)
        return _ending(board, position.turn, NOBODY, settings)  # nobody moved: no Tuichi (T10), forts and
        # encirclement both judged (C14)

    def ply_parts(self, text: str) -> GridPly | None:
        if text == "--":
            return None
        found = _PLY.fullmatch(text)
        assert found is not None, text  # the grammar has accepted it
        squares = tuple(
            (FILES.index(name[0]), (whole_number(name[1:], 1, 1 << 20) or 0) - 1)
            for name in (found["origin"], found["target"])
        )
        captures = (
            None if found["captures"] is None else frozenset(name.lstrip("KP") for name in found["captures"].split("/"))
        )
        return GridPly(False, found["piece"], squares, False, captures, None)  # (squares off the board too)

    def legal_plies(self, position: TaflPosition) -> list[str]:
        names = self.geo.names
        plies = [
            self.play(position, f"{names[origin]}-{names[target]}").text
            for origin, target in _legal_moves(position, self.settings)
        ]
        return plies or (["--"] if self.settings.passes else [])

    def random_ply(self, position: TaflPosition, rng: random.Random) -> str | None:
        moves = _legal_moves(position, self.settings)
        if not moves:
            return "--" if self.settings.passes else None
        origin, target = rng.choice(moves)
        names = self.geo.names
        return self.play(position, f"{names[origin]}-{names[target]}").text


_LEGEND: Final = (
    ((DEFENDER_KNIGHT, ATTACKER_KNIGHT), "N n knights"),
    ((DEFENDER_COMMANDER, ATTACKER_COMMANDER), "C c commanders"),
    ((DEFENDER_MERCENARY, ATTACKER_MERCENARY), "M m mercenaries"),
)  # the pieces `render` names under a board that holds them


_RANK_ITEM = re.compile(r"[0-9]+|.")  # a piece, or a count of empty squares (11 is one count)


_CODES: Final = {letter: code for code, letter in LETTERS.items()}


def _board(text: str, size: int, title: str, letters: str = "KPp") -> bytearray:
    """The squares of a position string's board (its ranks, the last first), whose pieces are
    `letters`; OptionError when malformed."""
    ranks = text.split("/")
    if len(ranks) != size:
        raise OptionError(f"a {title} position has {size} ranks, not {len(ranks)}")
    board = bytearray()
    for rank in reversed(ranks):
        row = bytearray()
        for item in _RANK_ITEM.findall(rank):
            if (empty := whole_number(item, 1, size)) is not None:
                row.extend([EMPTY] * empty)
            elif item in letters:
                row.append(_CODES[item])
            else:
                raise OptionError(f"'{item}' is not a {title} piece ({', '.join(letters)}) or a count of empty squares")
        if len(row) != size:
            raise OptionError(f"the rank '{rank}' covers {len(row)} squares, not {size}")
        board.extend(row)
    return board


def _exits(settings: Settings) -> str:
    return "a corner" if settings.corner_escape else "the edge"


def capture_list(geo: Geometry, squares: Iterable[int]) -> str:
    """Captured squares as a capture list writes them: by file, then by rank (`c1/d1/e1`)."""
    return "/".join(geo.names[s] for s in sorted(squares, key=lambda s: (s % geo.size, s // geo.size)))


def _closed(camps: bytes, square: int, camp: int) -> bool:
    """Whether `square` is a square of a camp other than `camp`, the camp a move starts in (0: none)."""
    return camps[square] != 0 and camps[square] != camp


def _play(settings: Settings, position: TaflPosition, text: str) -> Played[TaflPosition]:
    """Apply one ply as written under `settings`; Illegal when the rules forbid it."""
    geo, ids = settings.geo, settings.ids
    try:
        move = parse_move(geo, text)
    except Illegal as off_board:
        raise Illegal(ids.move, off_board.message) from None
    side = position.turn
    if settings.passes and not _has_move(position.board, side, settings):
        if move is None:
            after = TaflPosition(position.board, 1 - side)
            return Played(after, "--", _ending(after.board, after.turn, side, settings))
        position = TaflPosition(position.board, 1 - side)  # the forced pass, left out
        side = position.turn
    if move is None:
        raise Illegal(ids.no_move, "a pass (--) is allowed only under no-move=passes, to a side that has no move")
    berserker = _berserker(position)
    continuing = berserker >= 0 and move.origin == berserker
    if continuing:
        side = OWNER[position.board[berserker]]
    elif berserker >= 0 and settings.berserk != "o":
        raise Illegal(
            ids.berserk,
            f"the {PIECE_NAMES[position.board[berserker]]} that captured on {geo.names[berserker]} moves again "
            f"(berserk){_said(settings, 'ber')}",
        )
    if move.berserk and not continuing:
        raise Illegal(
            ids.berserk,
            f"{text} is written as a berserk move (=), and no piece that captured moves again from "
            f"{geo.names[move.origin]}{_said(settings, 'ber')}",
        )
    mover = position.board[move.origin]
    jumped = _jumped(position.board, move.origin, move.target, settings) if OWNER[mover] == side else -1
    if jumped < 0:
        if settings.jumps[mover] and OWNER[mover] == side and not settings.leaps:  # (a leap: _check_move)
            _refuse_jump(position.board, move, settings)
        _check_move(position.board, side, move, settings)
    board = bytearray(position.board)
    board[move.target], board[move.origin] = board[move.origin], EMPTY
    captured = _captures(board, side, move.target, settings)
    if settings.hostile_written and move.captures is not None:  # hostile where the list says so
        written = _captures(board, side, move.target, settings._replace(hostile_empty=settings.hostile_written))
        captured += [square for square in written if square in move.captures and square not in captured]
    if jumped >= 0 and settings.jumps[mover] == CAPTURING_JUMP and jumped not in captured:
        captured.insert(0, jumped)
    walled = (
        [
            square
            for square in (
                _shieldwall(board, side, move.target, settings)
                if settings.flank_walls
                else _closed_walls(board, side, settings)
            )
            if square not in captured
        ]
        if settings.shieldwall
        else []
    )
    captured += walled
    if move.captures is not None:
        check_capture_list(text, ids.capture)
        if move.captures != set(captured):
            said, real = capture_list(geo, move.captures), capture_list(geo, captured) or "nothing"
            wrong = move.captures ^ set(captured)
            rule = (
                ids.king
                if KING in (position.board[s] for s in wrong)
                else ids.shieldwall
                if wrong & set(walled)
                else ids.capture
            )
            if settings.camp_squares and move.captures == set(
                _captures(board, side, move.target, settings._replace(camps=bytes(len(board))))
            ):
                rule, real = ids.camp_capture, real + " (against a camp)"  # the list leaves out what the camps capture
            key = "ks" if rule == ids.king else "sw" if rule == ids.shieldwall else "ka"
            raise Illegal(rule, f"the move captures {real}, not {said}{_said(settings, key)}")
    if continuing and settings.berserk != "m" and not captured:
        raise Illegal(ids.berserk, f"a berserk move captures{_said(settings, 'ber')}")
    for square in captured:
        board[square] = TAKEN[board[square]]
    after = _position(bytes(board), 1 - side)
    outcome = _ending(after.board, after.turn, side, settings)
    if settings.repeats:
        after, outcome = _remember(position, after, outcome, bool(captured), side, settings)
    if captured and settings.berserk != "n" and outcome is None:
        after = _berserk(after, move.target, side, settings)
    warnings = _announcement_warnings(after, move.announcement, outcome, settings) if move.announcement else []
    king_written = move.piece == "K" if position.board[move.origin] == KING else move.piece is None
    canonical = (
        text
        if king_written and move.captures is None and not captured and move.berserk == continuing
        else partial(_format, geo, position.board, move._replace(berserk=continuing), captured)
    )  # written once read (validate never reads it)
    return Played(after, canonical, outcome, warnings)


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
    moves = [move for move in _moves(board, side, settings) if move[0] == berserker]
    if settings.berserk == "m":
        return moves
    return [move for move in moves if _capturing(board, side, move, settings)]


def _capturing(board: bytes, side: int, move: tuple[int, int], settings: Settings) -> bool:
    """Whether a move captures (custodially, by a capturing jump or a shieldwall)."""
    origin, target = move
    jumped = _jumped(board, origin, target, settings)
    if jumped >= 0 and settings.jumps[board[origin]] == CAPTURING_JUMP:
        return True
    after = bytearray(board)
    after[target], after[origin] = after[origin], EMPTY
    return bool(
        _captures(after, side, target, settings) or settings.shieldwall and _shieldwall(after, side, target, settings)
    )


def _legal_moves(position: TaflPosition, settings: Settings) -> list[tuple[int, int]]:
    """Every legal (origin, target) in a position: those of the berserk piece when one moves again."""
    berserker = _berserker(position)
    if berserker < 0:
        return list(_moves(position.board, position.turn, settings))
    moves = _berserk_moves(position.board, berserker, settings)
    return moves + list(_moves(position.board, position.turn, settings)) if settings.berserk == "o" else moves


UNWRITTEN_DEPTH: Final = 8  # berserk continuations of one capture searched at most (Alea Berserk 19x19's knights
# jump through the defenders' lattice, capturing at each jump: its games show chains of 4 to 8)
UNWRITTEN_KEPT: Final = 64  # positions that unwritten continuations may have made, kept at most
LOOKBACK_PLIES: Final = 40  # berw:a: a look back reaches the captures of the last 40 plies,
LOOKBACK_CAPTURES: Final = 8  # the 8 latest of them,
LOOKBACK_PLAYS: Final = 3000  # and plays at most 3,000 plies on the way


_NOT_FOUND: Final[set[tuple[object, ...]]] = set()  # look backs that found nothing (a record is replayed more
# than once: its capture lists read, then validated), kept to at most NOT_FOUND_KEPT
NOT_FOUND_KEPT: Final = 256
_PLAYED: Final = [0]  # positions `_fitting` has played in this process (`Game.searched` counts them)


def _play_unwritten(settings: Settings, position: TaflPosition, text: str) -> Played[TaflPosition]:
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
        played.append((_play(settings, fallback.position, text), fallback))
    return _went_on(settings, position, played, text)


def _played_past_end(settings: Settings, position: TaflPosition, text: str) -> Played[TaflPosition] | None:
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
    try:
        move = parse_move(settings.geo, text)
    except Illegal:
        move = None
    listed = move.captures if move is not None and move.captures is not None else frozenset()
    unlisted = settings.unwritten == "u" and move is not None and move.captures is None
    bare = text.split("x", 1)[0]
    played: list[tuple[Played[TaflPosition], Unwritten]] = []
    legal: list[Unwritten] = []
    _PLAYED[0] += len(candidates)
    for candidate in candidates:
        try:
            each = _play(settings, candidate.position, bare)
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
    candidate is not `position` itself (the plies of its line since the capture, `earlier`), with
    the others and, after a capture, the positions the capturing piece's continuations
    (`_continuations`) make; one that would end the game does not go on. It keeps the line's latest
    captures and the plies written since (berw:a), also when the first ends the game: a ply written
    after it may show that the game went on (`_played_past_end`)."""
    first, chosen = played[0]
    if chosen.continuations:
        first.earlier = _plies(chosen.trail)
        first.warnings = [*first.warnings, *(_left_out(settings, each) for each in chosen.continuations)]
    plies = getattr(position, "plies", 0) + 1
    written = (*getattr(position, "written", ())[2 - LOOKBACK_PLIES :], text)
    side = position.turn
    try:
        move = parse_move(settings.geo, text)
    except Illegal:
        move = None
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
        if each is first:
            kept = captures
        elif each.outcome is None:
            others.setdefault(
                after, Unwritten(each.position, before.continuations, captures, Trail(each, before.trail))
            )
        if captured:
            for board, chain in _continuations(after, target, side, settings, UNWRITTEN_DEPTH, False):
                went = _position(board, 1 - side)
                trail = Trail(Played(went, each.text), before.trail)
                others.setdefault(
                    board, Unwritten(went, (*before.continuations, f"after {each.text}: {chain}"), captures, trail)
                )
    others.pop(first.position.board, None)
    first.position = _unwritten(
        first.position, tuple(others.values())[:UNWRITTEN_KEPT], chosen.position.board, kept, written, plies
    )
    return first


def _left_out(settings: Settings, continuations: str) -> tuple[str, str]:
    """The warning (G16) that a record leaves out `continuations` (`after j6-i6xh6: i6-i7xh7`)."""
    return (
        settings.ids.unwritten,
        f"the record leaves out a berserk continuation {continuations}{_said(settings, 'berw')}",
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
    (`_recent`, the latest first; after the end, not one of the ply that ended the game), each
    chain of its piece's continuations (`_continuations`) that changes a square those plies touch
    (`_near`; after the end, each of them as this one, up to the sides of a king it captures) is
    tried by playing again every ply written since, which must fit without ending the game, and
    this one; the first chain that fits them all goes on: this ply, warning G16, with the capture
    and the plies since as that line played them (`Played.earlier`). None when none does, within
    LOOKBACK_PLAYS plies played (and kept, for the same look back on the next replay of the record)."""
    if _held_by_the_other_side(settings.geo, position, text):
        return None
    written: tuple[str, ...] = getattr(position, "written", ())
    plies: int = getattr(position, "plies", 0)
    others: tuple[Unwritten, ...] = getattr(position, "others", ())
    searched = (
        text,
        position.board,
        written,
        plies,
        _searched(getattr(position, "captures", ())),
        tuple((other.position.board, _searched(other.captures)) for other in others),
        tuple(settings.said.items()),
        ended,
    )
    if searched in _NOT_FOUND:
        return None
    found: dict[tuple[bytes, int, str, int], Capture] = {}  # each capture once, as the first line made it
    for each in (position, *others):
        for capture in getattr(each, "captures", ()):
            if capture.ply < plies or not ended:  # (the ply that ended the game is played again)
                found.setdefault(_searched_one(capture), capture)
    captures = sorted(found.values(), key=lambda capture: -capture.ply)
    budget, free = LOOKBACK_PLAYS, settings.unwritten == "a"
    for capture in captures:
        since = (*written[len(written) - (plies - capture.ply) :], text) if plies > capture.ply else (text,)
        side = OWNER[capture.board[capture.square]]
        earlier = tuple(each for each in captures[::-1] if each.ply <= capture.ply)  # (oldest first)
        near = _near(settings.geo, since[:-1], 2 if ended else 1) | _near(settings.geo, (text,), 2)
        for board, chain in _continuations(capture.board, capture.square, side, settings, UNWRITTEN_DEPTH, free):
            if all(board[square] == capture.board[square] for square in near):
                continue  # it changes no square near the plies since: they play as they did
            line: TaflPosition = _unwritten(
                _position(board, 1 - side), (), b"", earlier, written[: len(written) - len(since) + 1], capture.ply
            )
            warnings = [  # (the capture was played on a line of continuations left out before it)
                _left_out(settings, each) for each in (*capture.continuations, f"after {capture.text}: {chain}")
            ]
            # the plies of the capture's line, and the capture on the board its continuations made
            again = [*_plies(capture.trail), Played(line, capture.text)]
            for number, ply in enumerate(since):
                candidates = (Unwritten(line, (), getattr(line, "captures", ())), *getattr(line, "others", ()))
                budget -= len(candidates)
                played, _ = _fitting(settings, candidates, ply)
                if not played or budget < 0 or played[0][0].outcome is not None and number < len(since) - 1:
                    break
                went = _went_on(settings, line, played, ply)
                warnings += [warning for warning in went.warnings if warning not in warnings]
                # a line of continuations chosen on the way: its plies since its capture
                again[max(len(again) - len(went.earlier), 0) :] = went.earlier
                if number == len(since) - 1:
                    went.warnings, went.earlier = warnings, tuple(again)
                    return went
                again.append(went)
                line = went.position
            if budget < 0:
                break
        if budget < 0:
            break
    if len(_NOT_FOUND) >= NOT_FOUND_KEPT:
        _NOT_FOUND.clear()
    _NOT_FOUND.add(searched)
    return None


def _held_by_the_other_side(geo: Geometry, position: TaflPosition, text: str) -> bool:
    """Whether `text` moves from a square where the written board holds a piece of the side not
    to move that no capture turns (not a mercenary): the other side's move (a ply swapped with
    the next), which a look back must not explain by continuations that take that piece and
    bring one of the mover's onto its square."""
    try:
        move = parse_move(geo, text)
    except Illegal:
        return False
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
        try:
            move = parse_move(geo, text)
        except Illegal:
            continue
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


def _unwritten(
    position: TaflPosition,
    others: tuple[Unwritten, ...],
    before: bytes,
    captures: tuple[Capture, ...],
    written: tuple[str, ...],
    plies: int,
) -> UnwrittenPosition:
    """`position` (and its history, under a repetition rule) with the positions that left-out
    continuations may have made instead, the board its ply was played on, and the line's latest
    captures and plies (berw:a)."""
    earlier: frozenset[TaflPosition] = getattr(position, "earlier", frozenset())
    twice: frozenset[TaflPosition] = getattr(position, "twice", frozenset())
    return UnwrittenPosition(position.board, position.turn, earlier, twice, others, before, captures, written, plies)


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


def _continuations(
    board: bytes, square: int, side: int, settings: Settings, depth: int, free: bool
) -> list[tuple[bytes, str]]:
    """The boards that up to `depth` berserk continuations of the piece on `square` make, each
    with the first chain found that makes it (`i6-i7xh7, i7-…`, depth first): a continuation is
    a move of that piece that captures (G5, or by a capturing jump, G14), or, when `free`
    (berw:a), the last one may be any move of it; none ends the game."""
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
    """`_continuations` from `board` after `chain`, into `found`: a piece on a square of a board
    already searched with as many continuations left (`searched`) is not searched again (its
    captures in another order make the same boards: 8 of 9 would be 9!/1! chains)."""
    geo = settings.geo
    for origin, target in _moves(board, side, settings, square):
        jumped = _jumped(board, origin, target, settings)
        after = bytearray(board)
        after[target], after[origin] = after[origin], EMPTY
        captured = _captures(after, side, target, settings)
        if jumped >= 0 and settings.jumps[board[origin]] == CAPTURING_JUMP and jumped not in captured:
            captured.insert(0, jumped)  # a capturing jump (G14)
        if not captured and not free:
            continue
        for victim in captured:
            after[victim] = TAKEN[after[victim]]
        made = bytes(after)
        if _ending(made, 1 - side, side, settings) is not None:
            continue
        written = (
            chain + f"{geo.names[origin]}-{geo.names[target]}" + (f"x{capture_list(geo, captured)}" if captured else "")
        )
        found.setdefault(made, written)
        if depth > 1 and captured and searched.get((made, target), 0) < depth - 1:
            searched[(made, target)] = depth - 1
            _continue(made, target, side, settings, depth - 1, free, f"{written}, ", found, searched)


def _position(board: bytes, turn: int) -> TaflPosition:
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
            if settings.repeated == "1/2-1/2"
            else ("1-0" if (mover == WHITE) == (settings.repeated == "wins") else "0-1")
        )
        times = "before" if settings.repeats == 1 else "twice before"
        outcome = Outcome(
            result,
            settings.ids.repetition,
            f"the position arose {times} (repetition){_said(settings, 'tfr')}",
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
    """T8: `+` when the king has exactly one open line, `++` for two or more or the end."""
    board, rule = position.board, settings.ids.announcement
    lines = _open_lines(board, board.index(KING), settings) if KING in board else 0
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


_REGION_KEYS: Final = {THRONE_SQUARE: "cen", CORNER_SQUARE: "cor", ATTACKER_FORT: "afor", DEFENDER_FORT: "dfor"}
_PIECE_GROUPS: Final = {
    (): "no piece",
    (KING,): "only the king",
    (DEFENDER,): "only the defenders' soldiers",
    (ATTACKER,): "only the attackers",
    (DEFENDER, KING): "only the defenders",
    (DEFENDER, ATTACKER): "only soldiers",
    (KING, ATTACKER): "only the attackers and the king",
    EVERY_PIECE: "every piece",
}


def _special_squares(settings: Settings) -> list[int]:
    """The squares of the board's regions (throne, corners, forts), the throne first."""
    throne = settings.geo.throne
    return ([throne] if throne in settings.words else []) + [s for s in settings.words if s != throne]


def _who(table: bytes, square: int, squares: int) -> str:
    """The pieces a table lets onto `square`, in words (`only the king`)."""
    return _PIECE_GROUPS[tuple(piece for piece in EVERY_PIECE if table[piece * squares + square])]


def _said(settings: Settings, *keys: str) -> str:
    """The settings a message names, as the game's description writes them (` (ks: w)`); "" for a
    game whose rules' IDs are its own."""
    said = settings.said
    if not said:
        return ""
    return " (" + ", ".join(f"{key}: {said[key]}" for key in keys if key in said) + ")"


def _may_stop(settings: Settings, piece: int, origin: int, target: int) -> bool:
    """Whether `piece` may stop on `target`, a square of a region, coming from `origin`."""
    cell = piece * settings.geo.squares + target
    return settings.stop[cell] != 0 and (
        settings.enter[cell] != 0 or settings.region[origin] == settings.region[target]
    )


def _moves(board: bytes, side: int, settings: Settings, only: int = -1):
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
                if len(ray) > 1 and _jumped(board, origin, ray[1], settings) >= 0:
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


def _jumped(board: bytes, origin: int, target: int, settings: Settings) -> int:
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


def _refuse_jump(board: bytes, move: Move, settings: Settings) -> None:
    """Illegal (G14) when `move` of a piece that jumps goes two squares over an occupied square,
    and is no jump (`_jumped`)."""
    piece, geo = board[move.origin], settings.geo
    path = geo.path(move.origin, move.target)
    if len(path) == 2 and board[path[0]] and not board[move.target]:
        restricted = settings.jumps[piece] == RESTRICTED_JUMP
        raise Illegal(
            settings.ids.jump,
            f"a {PIECE_NAMES[piece]} jumps only over an enemy soldier"
            f"{', from or to a square of a region' if restricted else ''}, to a square it may stop on"
            f"{_said(settings, _JUMP_KEYS[piece])}",
        )


def _leaps(board: bytes, path: tuple[int, ...]) -> bool:
    """Whether a move along `path` leaps (leap:y): over a soldier of either side next to its
    square, to the empty square beyond."""
    return len(path) == 2 and board[path[0]] not in (EMPTY, KING) and not board[path[1]]


def _has_move(board: bytes, side: int, settings: Settings) -> bool:
    """Whether `side` has a legal move."""
    closed, geo = settings.closed, settings.geo
    neighbours = geo.neighbours
    for square in range(geo.squares):  # fast: a piece next to an empty square other than the
        if OWNER[board[square]] == side:  # throne, the camps and the corners can move
            for neighbour in neighbours[square]:
                if not board[neighbour] and not closed[neighbour]:
                    return True
    return next(_moves(board, side, settings), None) is not None


def _check_move(board: bytes, side: int, move: Move, settings: Settings) -> None:
    """Raise Illegal unless `move` is a legal move for `side` (T1–T3, T11; C2–C4; B2–B4; G2–G4)."""
    region, cross, camps, geo, ids = settings.region, settings.cross, settings.camps, settings.geo, settings.ids
    names, squares = geo.names, geo.squares
    origin, target = move.origin, move.target
    piece = board[origin]
    if piece == EMPTY:
        raise Illegal(ids.move, f"there is no piece on {names[origin]}")
    if OWNER[piece] != side:
        raise Illegal(
            ids.turn,
            f"the piece on {names[origin]} is {SIDE_NAMES[1 - side]}'s, "
            f"and {SIDE_NAMES[side]} is to move{_said(settings, 'atkf')}",
        )
    if move.piece and move.piece != ("K" if piece == KING else "P"):
        raise Illegal(
            ids.move,
            f"{names[origin]} holds {'the king' if piece == KING else 'a soldier'}, "
            f"not {'the king' if move.piece == 'K' else 'a soldier'}",
        )
    if origin == target:
        raise Illegal(ids.move, "a move must leave its square")
    path = geo.path(origin, target)
    if not path:
        raise Illegal(ids.move, f"a piece moves along its rank or file, and {names[target]} is on neither")
    if settings.speed[piece] and len(path) > settings.speed[piece]:
        raise Illegal(
            ids.move,
            f"{'the king' if piece == KING else 'a soldier'} moves at most "
            f"{settings.speed[piece]} square{'s' if settings.speed[piece] > 1 else ''}"
            f"{_said(settings, 'spd')}",
        )
    leap = settings.leaps and _leaps(board, path)
    for index in range(len(path) - 1):
        square = path[index]
        if board[square] and not leap:
            raise Illegal(
                ids.move, f"the way is blocked at {names[square]}{_said(settings, 'leap') if settings.leaps else ''}"
            )
        if region[square] and not cross[piece * squares + square]:
            raise Illegal(
                ids.restricted,
                f"{_who(cross, square, squares)} may pass over {settings.words[square]}"
                f"{_said(settings, _REGION_KEYS[region[square]] + 'p')}",
            )
    if board[target]:
        raise Illegal(ids.move, f"{names[target]} is occupied")
    if region[target] and not _may_stop(settings, piece, origin, target):
        _refuse_stop(settings, piece, target)
    camp = camps[origin]
    for square in path:
        if _closed(camps, square, camp):
            how = "stop on" if square == target else "pass over"
            raise Illegal(
                ids.camp,
                f"{names[square]} is a camp square: only a piece that starts its move in that camp may {how} it",
            )


def _refuse_stop(settings: Settings, piece: int, target: int) -> None:
    """Illegal: `piece` may not stop on `target`, a square of a region, as it comes from another."""
    squares, key = settings.geo.squares, _REGION_KEYS[settings.region[target]]
    allowed = bytes(settings.stop[cell] and settings.enter[cell] for cell in range(len(settings.stop)))
    who = _who(allowed, target, squares)
    if who == "no piece" and settings.stop[KING * squares + target]:
        who = "no piece, once the king has left it,"
    raise Illegal(
        settings.ids.restricted, f"{who} may stop on {settings.words[target]}{_said(settings, key + 's', key + 're')}"
    )


def _captures(board: bytearray, side: int, target: int, settings: Settings) -> list[int]:
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
    (w; c away from the throne and its neighbours); or on every side (s, never on the edge; m,
    the edge closing the sides it has not)."""
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


def _shieldwall(board: bytearray, side: int, target: int, settings: Settings) -> list[int]:
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


def _open_lines(board: bytes, king: int, settings: Settings) -> int:
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


def _ending(board: bytes, turn: int, mover: int, settings: Settings) -> Outcome | None:
    """Whether the game ended with the move just made by `mover` (NOBODY: a starting position),
    `turn` to move."""
    ids = settings.ids
    king = board.find(KING)
    if king < 0:
        return Outcome("0-1", ids.captured, f"the king was captured{_said(settings, 'ks')}", KING_CAPTURED)
    if settings.exits[king]:
        return Outcome("1-0", ids.escape, f"the king reached {_exits(settings)}{_said(settings, 'esc')}", KING_ESCAPED)
    if mover == WHITE and settings.tuichi_ends and _open_lines(board, king, settings) >= 2:
        return Outcome("1-0", ids.escape, "the king has two open lines to the edge (Tuichi)", KING_ESCAPED)
    if mover != BLACK and settings.forts and _in_fort(board, king, settings):
        return Outcome("1-0", ids.fort, f"the king is in an exit fort on the edge{_said(settings, 'efe')}", EXIT_FORT)
    if mover != WHITE and settings.encirclement and _encircled(board, settings):
        return Outcome(
            "0-1", ids.encirclement, f"the attackers encircle every defender{_said(settings, 'surf')}", ENCIRCLED
        )
    if not _has_move(board, turn, settings):
        if not settings.passes:
            return Outcome(
                "0-1" if turn == WHITE else "1-0", ids.no_move, f"{SIDE_NAMES[turn]} has no legal move", NO_MOVE
            )
        if not _has_move(board, 1 - turn, settings):
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
