"""A tafl game's rules as plain values (`Settings`, made by `tafl_settings` from its board, the
IDs of its rules, `RuleIds`, and the rule fields its options set) for the functions that play a
ply, and the words messages say them in: the special squares, who may stand on them, and the
settings as the game's description writes them (`named_settings`)."""
# lusoria: compiled with mypyc

from __future__ import annotations

from typing import Final, NamedTuple

from lusoria.notation.numbers import whole_number
from lusoria.validator.base import BLACK, WHITE, OptionError
from lusoria.validator.grid import FILES
from lusoria.validator.tafl_board import (
    ATTACKER,
    ATTACKER_FORT,
    CORNER_SQUARE,
    DEFENDER,
    DEFENDER_FORT,
    EVERY_PIECE,
    KING,
    LETTERS,
    ORDINARY,
    OWNER,
    PLAIN,
    THRONE_SQUARE,
    Geometry,
    TaflBoard,
    geometry,
    read_board,
)


class RuleIds(NamedTuple):
    """The IDs of a game's rules, by what the engine checks (docs/rules.md)."""

    turn: str  # whose piece may move
    move: str  # a straight move over empty squares
    restricted: str  # the throne (and the corners) kept for the king
    capture: str  # custodial capture of a soldier
    king: str  # the king's capture
    escape: str  # the king's escape: the defenders win
    captured: str  # the king captured: the attackers win
    announcement: str  # + and ++: a threat announced
    no_move: str  # a side without a legal move
    camp: str  # moving through camps
    camp_capture: str  # camps as captors
    repetition: str
    shieldwall: str
    fort: str  # an exit fort: the defenders win
    encirclement: str  # the defenders shut in: the attackers win
    jump: str = ""  # a jump over an enemy soldier (OpenTafl's knights, commanders and jumping king)
    berserk: str = ""  # a capturing piece moves again
    unwritten: str = ""  # a berserk continuation the record leaves out (berw:n)
    start: str = ""  # the start, which gives each side its pieces
    end: str = ""  # no ply after the end of the game (here: after a forced pass left out that ends it, T9)


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
    tuichi_ends: bool  # two open lines to the edge end the game
    passes: bool  # a side without a move passes
    camp_squares: tuple[int, ...]  # () without camps
    camps: bytes  # by square, its camp (1, 2, …), 0 for none
    camp_hostile_when_held: bool
    repeats: int  # 0: repetition is not checked; 1: the first repetition of a position ends the game (T13);
    # 2: the third occurrence (threefold)
    repeated: str  # what it gives the side whose move repeats: "wins", "loses", or a result whoever repeats
    # ("1/2-1/2", a draw; "0-1", the defenders lose: Copenhagen's C12 as Aage's text has it)
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
    # (lusoria's cc key)
    unwritten: str  # the records leave out berserk continuations (`play_unwritten`): "" (they write them, or
    # no berserk), "n" (berw:n: each left-out continuation captures), "a" (berw:a: the last one may be any
    # move of the piece, found by a look back), "u" (berw:u: as n, and the records list no captures)
    leaps: bool  # every piece may leap over a soldier of either side next to it, to the empty square
    # beyond (leap:y, aagenielsen.dk's old Tyr types)
    hostile_written: bytes = b""  # as hostile_empty, plus the squares hostile only where the record lists
    # the capture (lusoria's corw, cenw, aforw, dforw: a site whose engine changed); b"": none such


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
    "repetition": ("none", "defenders-lose", "draw"),
}


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
        repeats=0 if option["repetition"] == "none" else 2,  # (the third occurrence: C12's option)
        repeated="0-1" if option["repetition"] == "defenders-lose" else "1/2-1/2",
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


def start_of(board: TaflBoard, title: str) -> bytes:
    """The squares of `board`'s start (any tafl piece); OptionError when its position is malformed."""
    return bytes(read_board(board.start.split()[0], board.size, title, "".join(LETTERS.values())))


def tafl_settings(board: TaflBoard, ids: RuleIds, region: bytes, start: bytes, **rules) -> Settings:
    """Settings on `board` (its geometry, exits and `start`, read by `start_of`), `region` by square
    (PLAIN, THRONE_SQUARE, CORNER_SQUARE, …), the rule IDs, and `rules`, Settings' rule fields:
    those not given are off (no camps, Tuichi, passes, repetition, shieldwall, forts,
    encirclement, speed limit nor Linnaean capture; every piece passes over and stops on every
    square, none is hostile, the king is captured on four sides and every piece captures)."""
    size = board.size
    geo = geometry(size, square_index(size, board.throne) if board.throne else -1)
    strong_walls = rules.pop("strong_walls", False)
    chosen = {**_rules_off(geo.squares), **rules}
    corners = bytes(kind == CORNER_SQUARE for kind in region)
    closed = bytes(region[s] != PLAIN or chosen["camps"][s] > 0 for s in range(geo.squares))
    throne_words = f"the {board.throne_name} ({board.throne})"
    return Settings(
        geo=geo,
        ids=ids,
        board=board,
        start=start,
        throne_words=throne_words,
        words=_region_words(geo, region, throne_words),
        region=region,
        corner_escape=board.corner_escape,
        corners=corners,
        exits=corners if board.corner_escape else geo.edge,
        closed=closed,
        wall_corners=corners if strong_walls else bytes(geo.squares),
        **chosen,
    )


def _rules_off(squares: int) -> dict[str, object]:
    """Settings' rule fields, each off (`tafl_settings`), on a board of `squares` squares."""
    cells = len(OWNER) * squares
    return dict(
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
        camps=bytes(squares),
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
    )


def _region_words(geo: Geometry, region: bytes, throne_words: str) -> dict[int, str]:
    """Each square of a region (`region`, by square), as messages name it: the throne by
    `throne_words`, another by its kind and name (`a corner (a1)`)."""
    return {
        s: throne_words if kind == THRONE_SQUARE else f"{REGION_WORDS[kind]} ({geo.names[s]})"
        for s, kind in enumerate(region)
        if kind != PLAIN
    }


def exit_words(settings: Settings) -> str:
    """Where the king escapes to, as messages say it."""
    return "a corner" if settings.corner_escape else "the edge"


# by region, what the OTN keys of its rules begin with (`cenp`, `cors`, …)
REGION_KEYS: Final = {THRONE_SQUARE: "cen", CORNER_SQUARE: "cor", ATTACKER_FORT: "afor", DEFENDER_FORT: "dfor"}
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


def special_squares(settings: Settings) -> list[int]:
    """The squares of the board's regions (throne, corners, forts), the throne first."""
    throne = settings.geo.throne
    return ([throne] if throne in settings.words else []) + [s for s in settings.words if s != throne]


def allowed_pieces(table: bytes, square: int, squares: int) -> str:
    """The pieces a table lets onto `square`, in words (`only the king`)."""
    return _PIECE_GROUPS[tuple(piece for piece in EVERY_PIECE if table[piece * squares + square])]


def named_settings(settings: Settings, *keys: str) -> str:
    """The settings a message names, as the game's description writes them (` (ks: w)`); "" for a
    game whose rules' IDs are its own."""
    said = settings.said
    if not said or not keys:  # (h75a: a soldier's capture named the king's arming, `ka`)
        return ""
    return " (" + ", ".join(f"{key}: {said[key]}" for key in keys if key in said) + ")"
