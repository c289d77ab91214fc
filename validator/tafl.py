"""The tafl engine: moves, captures and endings of the tafl games on a square board of any size
(docs/rules.md: Tablut T0–T13, Copenhagen C1–C14, Brandubh B1–B12, every other tafl game G1–G16).
A game is data for it (validator/tablut.py, copenhagen.py, brandubh.py, and hnefatafl.py, whose
variants are the catalogue's tafl types): its board (`TaflBoard`: size, throne, start, whether
the king escapes to the edge or to a corner), its options, and the `Settings` they make,
which carry the IDs of the game's rules (`RuleIds`), so that a diagnostic cites the game's own.

Here, `TaflGame`, the game the engine plays; its parts, each importing only those before it:
tafl_board.py (pieces, boards, plies), tafl_settings.py (the rules as values), tafl_moves.py,
tafl_captures.py (and endings), tafl_play.py (one ply), and, for records that leave out berserk
continuations, tafl_continuations.py and tafl_unwritten.py. Compiled with mypyc: the hot
functions are module-level and take their tables from a `Geometry` (one for each board) and
their options from `Settings`."""
# lusoria: compiled with mypyc

from __future__ import annotations

import random
import re
from typing import Final

from mypy_extensions import mypyc_attr

from lusoria.notation.numbers import whole_number
from lusoria.validator.base import (
    BLACK,
    SIDE_NAMES,
    WHITE,
    NotAPly,
    OptionError,
    Outcome,
    Played,
    ReadOnly,
    check_side_written,
)
from lusoria.validator.diagram import (
    CAMP,
    CELL,
    CORNER,
    DISC,
    FACE,
    INK,
    NONE,
    OTHER_FACE,
    OTHER_OUTLINE,
    THRONE,
    Diagram,
    Glyph,
    Mark,
    Piece,
    Squares,
    ply_marks,
)
from lusoria.validator.grid import FILES, MARKED, SQUARE_IN, GridGame, GridPly, written_ranks
from lusoria.validator.tafl_board import (
    ATTACKER,
    ATTACKER_COMMANDER,
    ATTACKER_KNIGHT,
    ATTACKER_MERCENARY,
    CORNER_SQUARE,
    DEFENDER,
    DEFENDER_COMMANDER,
    DEFENDER_KNIGHT,
    DEFENDER_MERCENARY,
    EMPTY,
    ENCIRCLED,
    EVERY_PIECE,
    EXIT_FORT,
    KING,
    KING_CAPTURED,
    KING_ESCAPED,
    LETTERS,
    MERCENARIES,
    NO_MOVE,
    NOBODY,
    OWNER,
    PIECE_NAMES,
    PLAIN,
    PLY_PATTERN,
    PLY_SHAPE,
    PLY_TAIL,
    REPETITION,
    SOLDIERS,
    TAKEN,
    THRONE_SQUARE,
    RememberingPosition,
    TaflBoard,
    TaflPosition,
    geometry,
    parse_move,
    read_board,
)
from lusoria.validator.tafl_captures import game_ending
from lusoria.validator.tafl_play import legal_moves, play_ply
from lusoria.validator.tafl_settings import (
    REGION_KEYS,
    RuleIds,
    Settings,
    allowed_pieces,
    exit_words,
    named_settings,
    region_table,
    special_squares,
    square_index,
    start_of,
    tafl_settings,
)
from lusoria.validator.tafl_unwritten import POSITIONS_PLAYED, play_unwritten, played_past_end
from lusoria.words import plural

_UNWRITTEN_LETTER: Final = re.compile(r"^[NCMncm](?=[a-sA-S]\d)")  # OpenTafl's piece letters that plies do not write
_SETTINGS: dict[tuple[type, tuple[str, ...]], Settings] = {}  # by game and options: TaflGame.settings
_GLYPHS: Final[dict[str, Glyph]] = {  # by kind of piece (PIECE_NAMES); a soldier is a DISC
    "king": (DISC, Mark("M-9 6L-10 -6L-4 0L0 -9L4 0L10 -6L9 6Z", fill=INK)),  # a crown
    "knight": (  # two chevrons, one above the other: the piece that jumps
        DISC,
        Mark("M-9 0L0 -9L9 0M-9 8L0 -1L9 8", fill=NONE, stroke=INK, width=3, join="round"),
    ),
    "commander": (  # a lozenge with a bar across
        DISC,
        Mark("M0 -10L9 0L0 10L-9 0Z", fill=INK),
        Mark("M-5 0H5", stroke=FACE, width=2.5),
    ),
    "mercenary": (  # a disc of the other side's colour within: the piece that changes sides when taken
        DISC,
        Mark(radii=(CELL * 0.17,), fill=OTHER_FACE, stroke=OTHER_OUTLINE, width=1),
    ),
}


@mypyc_attr(native_class=False)
class TaflGame(GridGame[TaflPosition]):
    """A tafl game: `board` and `title` (its name in messages), and the `Settings` its options
    make (`settings_for`). Everything else is the engine's."""

    board: TaflBoard
    pieces = ("KP", "p")
    letters = ReadOnly(LETTERS)
    position_name = "TaflPosition"  # also of its positions that remember (a repetition rule): a query's are plain
    ply_tail = re.compile(PLY_TAIL)  # the plies of every tafl game are read alike: Tablut's `+` too
    endings = (KING_CAPTURED, KING_ESCAPED, EXIT_FORT, ENCIRCLED, NO_MOVE, REPETITION)
    sides = ("defenders", "attackers")  # White is the king's side

    def __init__(self, options=None, variant=None):
        super().__init__(options, variant)
        key = (type(self), tuple(self.option.values()))
        if key not in _SETTINGS:  # made once for each set of options: a game is made for each record
            _SETTINGS[key] = self.settings_for(self.option)
        self.settings = _SETTINGS[key]
        self.geo = self.settings.geo

    @classmethod
    def mended_ply(cls, word: str) -> str:
        """As on any grid (`e3c3`, `E3-C3`); a knight's, commander's or mercenary's letter before its
        square, which plies do not write (`Cf14-f15`, `cf14f15`): dropped first."""
        return super().mended_ply(_UNWRITTEN_LETTER.sub("", word))

    @classmethod
    def refused_after(cls, ply: str, found: str) -> str | None:
        """`+` or `++` after a ply (`d1-d3+`) of a game that `announces` nothing: an announcement, or a check as
        OpenTafl's records mark it (h79a: a bare syntax error), an annotation after it as a chess player writes one
        (`d1-d3+!`) kept; not after a word that is no move (`1.`: review79)."""
        marked = MARKED.fullmatch(found)
        if marked and not cls.announces and SQUARE_IN.search(ply):
            return (
                f"{marked[1]} is an announcement (a king's open line), or a check as OpenTafl marks it, which "
                f"{cls.name} does not write: write {ply}{marked[2]} alone"
            )
        return None

    def settings_for(self, option: dict[str, str]) -> Settings:
        """The Settings of a full set of this game's options (made by `on_board`)."""
        raise NotImplementedError

    def on_board(self, ids: RuleIds, **rules) -> Settings:
        """Settings on this game's board (its geometry, throne and exits) with its rule IDs and
        `rules`, Settings' rule fields and those the built-in games' options set: `passers` (who
        passes over the empty throne), `king_stops` (the king may go back to it), `hostile` (the
        throne as a captor: no, empty, always), `king_like_soldier` (the king captured by two away
        from the throne), `captors` (by side), `repetition` (the first repetition draws) or `repeats`. Only
        the king stops on the throne and the corners. The corners are hostile to every piece, the
        king included (B5); the empty throne, to the king always (a side of a capture on four
        sides) and to the soldiers unless `hostile` is "no"; the king's throne, to the soldiers
        when `hostile` is "always"."""
        board = self.board
        geo = geometry(board.size, square_index(board.size, board.throne))
        region = bytes(
            THRONE_SQUARE if s == geo.throne else CORNER_SQUARE if board.corner_escape and geo.corners[s] else PLAIN
            for s in range(geo.squares)
        )
        passers, hostile, captors = rules.pop("passers"), rules.pop("hostile"), rules.pop("captors")
        king_stops, weak, repetition = (
            rules.pop("king_stops"),
            rules.pop("king_like_soldier"),
            rules.pop("repetition", False),
        )
        king_only: dict[int, tuple[int, ...]] = {THRONE_SQUARE: (KING,), CORNER_SQUARE: (KING,)}
        repeats = rules.pop("repeats", 1 if repetition else 0)  # (a corner game's option: the third occurrence)
        return tafl_settings(
            board,
            ids,
            region,
            start_of(board, self.title),
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
            repeats=repeats,
        )

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
        if len(fields) == 2:
            check_side_written(text, 1)
        else:
            raise OptionError(
                f"a {self.title} position is {self.geo.size} ranks and the side to move (w or b), "
                f"as in '{self.settings.board.start}'"
            )
        board = read_board(fields[0], self.geo.size, self.title, "".join(self.pieces))
        self._check_pieces(board)
        settings = self.settings
        squares = self.geo.squares
        for square in special_squares(settings):  # (where the start puts the piece, it may stand)
            if (
                board[square]
                and not settings.stop[board[square] * squares + square]
                and board[square] != settings.start[square]
            ):
                raise OptionError(
                    f"{allowed_pieces(settings.stop, square, squares)} may stand on {settings.words[square]}"
                    f"{named_settings(settings, REGION_KEYS[settings.region[square]] + 's')}"
                )
        camped = [self.geo.names[s] for s in settings.camp_squares if board[s] in (DEFENDER, KING)]
        if camped:
            raise OptionError(f"a Swede or the king stands on the camp square {camped[0]} ({settings.ids.camp})")
        return self._remembering(TaflPosition(bytes(board), WHITE if fields[1] == "w" else BLACK))

    def _check_pieces(self, board: bytearray) -> None:
        """A position gives a side no more pieces of a kind its start has than the start does (no
        piece becomes a king, a soldier, or one of OpenTafl's knights and commanders), and the two
        sides no more mercenaries between them (a captured one changes sides). A kind its start has
        not (OpenTafl's pieces, which an OpenTafl position may set out on any board) is not counted."""
        start, cited = self.settings.start, f" ({self.settings.ids.start})" if self.settings.ids.start else ""
        for code in LETTERS:
            counted = code in (DEFENDER, KING, ATTACKER) or code in start and not TAKEN[code]
            if counted and (count := board.count(code)) > (most := start.count(code)):
                side = OWNER[code]
                raise self.unreachable_count(
                    side,
                    f"{plural(count, PIECE_NAMES[code])} on the board",
                    f"{SIDE_NAMES[side]} starts with {most or 'none'}{cited}",
                )
        held, given = [board.count(code) for code in MERCENARIES], [start.count(code) for code in MERCENARIES]
        if sum(given) and sum(held) > sum(given):
            side = WHITE if held[WHITE] > given[WHITE] else BLACK
            raise self.unreachable_count(
                side,
                f"{plural(held[side], 'mercenary', 'mercenaries')} on the board, "
                f"and {SIDE_NAMES[1 - side]} {held[1 - side]}",
                f"the two sides start with {sum(given)} between them, a captured one changing sides{cited}",
            )

    def square_board(self, position: TaflPosition) -> bytes | None:
        return position.board

    def with_board(self, position: TaflPosition, board: bytes) -> TaflPosition:
        return self._remembering(TaflPosition(board, position.turn))

    def _remembering(self, position: TaflPosition) -> TaflPosition:
        """Under a repetition rule, a position that starts a history (the start does not count)."""
        return RememberingPosition(*position) if self.settings.repeats else position

    def format_position(self, position: TaflPosition) -> str:
        return written_ranks(position.board, self.geo.size, LETTERS) + (" w" if position.turn == WHITE else " b")

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
        squares = ["+ throne"] if geo.throne >= 0 else []
        special = " or ".join(
            name for name, table in (("corner", settings.corners), ("camp", settings.camps)) if any(table)
        )
        squares += [f"# {special}"] if special else []
        rows.append(f"{', '.join(legend)}; uppercase: White" + "".join(f"; {words}" for words in squares))
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
            glyphs=_GLYPHS,
        )

    # -- moves -----------------------------------------------------------
    def play(self, position: TaflPosition, text: str) -> Played[TaflPosition]:
        """`Game.play`; a tafl game reads the plies of every tafl game: its rules judge the `=`, `+`
        or `--` it does not write."""
        try:
            if self.settings.unwritten:
                before = POSITIONS_PLAYED[0]
                try:
                    return play_unwritten(self.settings, position, text)
                finally:  # an illegal ply too: it may have searched the most
                    self.searched += POSITIONS_PLAYED[0] - before - 1
            return play_ply(self.settings, position, text)
        except NotAPly:  # (the board's reader knows no game's name)
            raise NotAPly(text, self.name, PLY_SHAPE) from None

    @classmethod
    def ply_identity(cls, text: str) -> str:
        return text.rstrip("+")  # an announcement (+, ++: T8) says nothing the ply does not

    def play_past_end(self, position: TaflPosition, text: str) -> Played[TaflPosition] | None:
        if not self.settings.unwritten:
            return None
        before = POSITIONS_PLAYED[0]
        try:
            return played_past_end(self.settings, position, text)
        finally:  # every position it played is searched: the ply follows the end
            self.searched += POSITIONS_PLAYED[0] - before

    def outcome(self, position: TaflPosition) -> Outcome | None:
        board, settings = position.board, self.settings
        king = board.find(KING)
        if king < 0:
            return Outcome("0-1", settings.ids.captured, "there is no king on the board", KING_CAPTURED)
        if settings.exits[king]:
            return Outcome("1-0", settings.ids.escape, f"the king stands on {exit_words(settings)}", KING_ESCAPED)
        return game_ending(board, position.turn, NOBODY, settings)  # nobody moved: no Tuichi (T10), forts and
        # encirclement both judged (C14)

    def ply_parts(self, text: str) -> GridPly | None:
        if text == "--":
            return None
        found = PLY_PATTERN.fullmatch(text)
        if found is None:
            raise NotAPly(text, self.name, PLY_SHAPE)
        squares = tuple(
            (FILES.index(name[0]), (whole_number(name[1:], 1, 1 << 20) or 0) - 1)
            for name in (found["origin"], found["target"])
        )
        captures = (
            None if found["captures"] is None else frozenset(name.lstrip("KP") for name in found["captures"].split("/"))
        )
        return GridPly(False, found["piece"], squares, False, captures, None)  # (squares off the board too)

    def legal_plies(self, position: TaflPosition) -> list[str]:
        plies = [self._ply(position, origin, target) for origin, target in legal_moves(position, self.settings)]
        return plies or (["--"] if self.settings.passes else [])

    def random_ply(self, position: TaflPosition, rng: random.Random) -> str | None:
        moves = legal_moves(position, self.settings)
        if not moves:
            return "--" if self.settings.passes else None
        origin, target = rng.choice(moves)
        return self._ply(position, origin, target)

    def _ply(self, position: TaflPosition, origin: int, target: int) -> str:
        """A legal move's ply, played: where records leave out berserk continuations, written with
        its capture list first (the plain engine's text), since a bare ply that captures reads there as
        one played after left-out continuations (G16)."""
        text = f"{self.geo.names[origin]}-{self.geo.names[target]}"
        if self.settings.unwritten:
            text = play_ply(self.settings, position, text).text
        return self.play(position, text).text


_LEGEND: Final = (
    ((KING,), "K king"),
    ((DEFENDER, ATTACKER), "P p soldiers"),
    ((DEFENDER_KNIGHT, ATTACKER_KNIGHT), "N n knights"),
    ((DEFENDER_COMMANDER, ATTACKER_COMMANDER), "C c commanders"),
    ((DEFENDER_MERCENARY, ATTACKER_MERCENARY), "M m mercenaries"),
)  # the pieces `render` names under a board that holds them (or whose start did)
