"""Ludus latrunculorum (RULES.md L0–L5, S1–S5, P1, E1–E3, X1–X4 and the options): its options, tags,
positions as text and pictures, and random play; a ply is played in validator/latrunculi_play.py."""
# lusoria: compiled with mypyc

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from dataclasses import replace
from functools import partial
from typing import Final

from mypy_extensions import mypyc_attr

from lusoria.errors import Refused
from lusoria.notation.numbers import checked_number, whole_number
from lusoria.validator.base import (
    BLACK,
    WHITE,
    Game,
    OptionError,
    Outcome,
    Played,
    Presets,
    ReadOnly,
    TagProblems,
    check_side_written,
)
from lusoria.validator.diagram import CELL, DISC, FAINT, INK, NONE, Diagram, Glyph, Mark, Piece, Squares, ply_marks
from lusoria.validator.grid import MARKED, SQUARE_IN, GridGame, GridPly, read_ranks, written_ranks
from lusoria.validator.latrunculi_play import (
    CODES,
    DUX,
    EMPTY,
    FILES,
    INCITUS,
    LETTERS,
    NO_MOVE,
    PAWN,
    PLY_TAIL,
    SQUARE,
    TOO_FEW,
    LatrunculiPosition,
    Settings,
    game_end,
    geometry,
    jumpable,
    parse_move,
    piece,
    piece_count,
    play_ply,
    play_up_to_removal,
    removed_first,
    square_order,
    squares_of,
)
from lusoria.validator.suggest import Name
from lusoria.words import plural, quoted

MAX_PIECES: Final = 128  # per side, under the Rules option pieces=N
_PLACED: Final = re.compile(r"(?:[PpDd]?@)?([a-pA-P][0-9]{1,2})")  # a placement as hands write it (P@d4, D@d4, @D4, d4)
_HYPHENED_JUMPS: Final = re.compile(r"[A-Z]?[a-p][0-9]{1,2}(?:-[a-p][0-9]{1,2}){2,}")  # c3-c5-e5: c3^c5^e5
_CROSSED_JUMPS: Final = re.compile(
    r"[A-Z]?([a-p][0-9]{1,2})((?:x[a-p][0-9]{1,2})+)"
)  # c3xc5: as draughts writes a jump
_REMOVAL: Final = re.compile(rf"~({SQUARE})(?![0-9])")  # a ply's removal of its player's incitus (~d4; ~d17 none)
_GLYPHS: Final[dict[str, Glyph]] = {  # by kind of piece; a pawn is a DISC
    "dux": (  # a ring and a star
        DISC,
        Mark(radii=(CELL * 0.26,), fill=NONE, stroke=INK, width=2),
        Mark("M0 -7L2 -2L7 -2L3 1L5 7L0 4L-5 7L-3 1L-7 -2L-2 -2Z", fill=INK),
    ),
    "incitus": (  # turned over: a dashed disc with the theta nigrum, an O with a long stroke
        replace(DISC, dashes="3 2"),
        Mark(radii=(7, 9), fill=NONE, stroke=FAINT, width=2),
        Mark("M-12 0H12", stroke=FAINT, width=2),
    ),
}


def _in_hand(position: LatrunculiPosition) -> str:
    """The pieces each side holds in hand, as `show` and a picture say them (the placement phase)."""
    return f"in hand: White {position.hand[WHITE]}, Black {position.hand[BLACK]}"


@mypyc_attr(native_class=False)
class Latrunculi(GridGame[LatrunculiPosition]):
    name = "latrunculi"
    title = "Ludus latrunculorum"
    pieces = ("PDI", "pdi")
    letters = ReadOnly(LETTERS)
    end_rule = "L5"
    ply_tail = re.compile(PLY_TAIL)  # captures, a removal, the end
    endings = (NO_MOVE, TOO_FEW)
    options = {
        "placement-captures": ("no", "yes"),
        "jump-over": ("own", "any"),
        "removal": ("after-move", "before-move"),
        "pieces": ("16",),
        "corner-capture": ("yes", "no"),
        "min-pieces": ("2", "1"),
    }
    presets = Presets({"seneca": {}, "piso": {}, "petteia": {}, Name("dux", "duces"): {}})  # (the game of two duces)
    presets_are_options = False  # each variant has rules of its own
    MOVE_RULE = {"seneca": "S2", "piso": "S2", "petteia": "E2", "dux": "X2"}
    SETUP_RULE = {"seneca": "S1", "piso": "S1", "petteia": "E1", "dux": "X1"}

    def __init__(self, options=None, variant=None, size: tuple[int, int] = (8, 8)):
        super().__init__(options, variant)
        o, v = self.option, self.variant
        self.geo = geometry(*size)
        self.settings = Settings(
            variant=v,
            geo=self.geo,
            pieces=checked_number(o["pieces"], 2, MAX_PIECES),
            inciti=v == "seneca",
            placing=v in ("seneca", "piso"),
            slides=v in ("petteia", "dux"),
            move_rule=self.MOVE_RULE[v],
            setup_rule=self.SETUP_RULE[v],
            placement_captures=o["placement-captures"] == "yes",
            jump_any=o["jump-over"] == "any",
            removal_first=o["removal"] == "before-move",
            corner_capture=o["corner-capture"] == "yes",
            min_pieces=checked_number(o["min-pieces"], 1, 2),
        )

    @property
    def move_rule(self) -> str:
        """The rule a wrong movement breaks: S2, E2 or X2."""
        return self.settings.move_rule

    @classmethod
    def ply_identity(cls, text: str) -> str:
        return text.removesuffix("#")  # the mark of the game-ending ply, a suffix, says nothing the ply does not (h80a)

    @classmethod
    def mended_ply(cls, word: str) -> str:
        """As on any grid (`e3c3`, `e3xc3`), a placement written without its `@` (`d4`), with a
        capital square (`@D4`), or as crazyhouse drops a piece (`P@d4`, `D@d4`): `@d4`; and jumps joined
        with hyphens (`c3-c5-e5`), or with x as draughts writes them, each two squares along a line
        (`c3xc5`; `e3xc3` is a step): `c3^c5^e5`."""
        square, jumps = _PLACED.fullmatch(word), _HYPHENED_JUMPS.match(word)
        if jumps:
            return jumps[0].replace("-", "^") + word[jumps.end() :]
        if (crossed := _CROSSED_JUMPS.fullmatch(word)) and _all_jumps([crossed[1], *crossed[2].split("x")[1:]]):
            return word.replace("x", "^")
        return f"@{square[1].lower()}" if square else super().mended_ply(word)

    @classmethod
    def other_reading(cls, word: str) -> str | None:
        """`c3xc5`, read as a jump (`mended_ply`), may be a chess-style capture too: `c3-c5` (where pieces
        do not jump: petteia, dux)."""
        chess = super().mended_ply(word)
        return chess if _CROSSED_JUMPS.fullmatch(word) and chess != cls.mended_ply(word) else None  # (`c3xc4` is one)

    @classmethod
    def refused_after(cls, ply: str, found: str) -> str | None:
        """A second removal (`a2-a3~d4~c2`): one incitus is removed a turn (S4); a tafl game's `+`
        or `++` after a ply (`a2-a4+`): Latrunculi marks no king's open line."""
        if (marked := MARKED.fullmatch(found)) and SQUARE_IN.search(ply):  # (after a ply: not `1.`, review79b)
            return (
                f"{marked[1]} is a tafl game's mark (a king's open line, a winning move), which Latrunculi does not "
                f"write: write {ply}{marked[2]} alone"
            )
        removed = _REMOVAL.search(ply)
        if removed is None or not _REMOVAL.match(found):
            return None
        return f"one incitus is removed a turn (S4), and {ply} removes {removed[1]} already"

    # -- options and tags ------------------------------------------------------
    def options_in_play(self) -> tuple[str, ...]:
        """Without placements, placement-captures changes nothing; without jumps, jump-over; without
        inciti, removal; in dux (its own start, and X4 for L4's count), pieces and min-pieces."""
        s = self.settings
        unused = {
            "placement-captures": not s.placing,
            "jump-over": s.slides,
            "removal": not s.inciti,
            "pieces": self.variant == "dux",
            "min-pieces": self.variant == "dux",
        }
        return tuple(key for key in self.options if not unused.get(key))

    @classmethod
    def accepts(cls, key: str, value: str) -> bool:
        if key == "pieces":
            return whole_number(value, 2, MAX_PIECES) is not None
        return super().accepts(key, value)

    @classmethod
    def known_values(cls, key: str) -> str:
        if key == "pieces":
            return f"a whole number of pieces per side from 2 to {MAX_PIECES}, 16 by default"
        return super().known_values(key)

    @classmethod
    def choices(cls, key: str) -> tuple[str, ...]:
        return () if key == "pieces" else super().choices(key)

    @classmethod
    def from_tags(cls, tags: dict[str, str]) -> Latrunculi:
        problems = TagProblems()  # (a slip in the Rules tag hides none in the Board tag)
        options = problems.read(partial(cls.options_from_tags, tags))
        size = problems.read(partial(_board_size, tags.get("Board")))
        problems.raise_any()
        rules = cls(options, tags.get("Variant"), size or (8, 8))
        rules._check_room()
        return rules

    @classmethod
    def rules_for_position(cls, text: str) -> Iterator[Game[LatrunculiPosition]]:
        """Each variant's rules, on the board whose size is read off the string: its ranks and the
        squares of the first."""
        ranks = text.split()[0].split("/") if text.split() else []
        runs = (
            [1 if not run else whole_number(run, 0, 16) for run, _ in re.findall(r"([0-9]+)|(.)", ranks[0])]
            if ranks
            else [8]
        )
        known = [run for run in runs if run is not None]
        width = sum(known) if len(known) == len(runs) else 0
        size = (width, len(ranks)) if 4 <= width <= 16 and 4 <= len(ranks) <= 16 else (8, 8)
        return cls.of_variants(cls.presets, partial(cls, size=size))

    def _check_room(self) -> None:
        width, height = self.geo.width, self.geo.height
        if (width, height) != (8, 8) and not self.settings.placing:
            raise OptionError(f"the {self.variant} variant is played on 8x8 only", "Board")
        if self.variant == "dux" and self.settings.pieces != 16:
            raise OptionError("pieces does not apply to the dux variant (8 pawns and a dux each)")
        if self.settings.placing and 2 * self.settings.pieces > width * height:
            raise OptionError(  # (the Board tag's fault when it sets another board than 8x8, else pieces=)
                f"the {width}x{height} board cannot hold 2 x {self.settings.pieces} pieces",
                "Board" if (width, height) != (8, 8) else "Rules",
            )
        pieces = self.settings.pieces
        if self.variant == "petteia" and (pieces % width or 2 * (pieces // width) >= height):
            raise OptionError(
                f"petteia needs the pieces to fill whole ranks with a rank free between the "
                f"sides: {pieces} pieces do not on {width}x{height}"
            )

    def board_choice(self) -> str:
        return "a Board tag sets another, WxH with each side from 4 to 16" if self.settings.placing else ""

    def extra_tags(self) -> dict[str, str]:
        tags = super().extra_tags()
        if (self.geo.width, self.geo.height) != (8, 8):
            tags["Board"] = f"{self.geo.width}x{self.geo.height}"
        return tags

    # -- positions -------------------------------------------------------------
    def initial(self) -> LatrunculiPosition:
        geo = self.geo
        board = bytearray(geo.width * geo.height)
        hand = (0, 0)
        if self.settings.placing:
            hand = (self.settings.pieces, self.settings.pieces)
        elif self.variant == "petteia":
            ranks = self.settings.pieces // geo.width
            board[: ranks * geo.width] = bytes([piece(WHITE, PAWN)]) * (ranks * geo.width)
            board[-ranks * geo.width :] = bytes([piece(BLACK, PAWN)]) * (ranks * geo.width)
        else:  # dux (X1)
            board[0:8] = bytes([piece(WHITE, PAWN)]) * 8
            board[56:64] = bytes([piece(BLACK, PAWN)]) * 8
            board[geo.index["e2"]], board[geo.index["d7"]] = piece(WHITE, DUX), piece(BLACK, DUX)
        return LatrunculiPosition(bytes(board), WHITE, hand)

    def parse_position(self, text: str) -> LatrunculiPosition:
        geo = self.geo
        fields = text.split()
        if len(fields) in (2, 4):
            check_side_written(text, 1)
        else:
            raise OptionError(
                "a Latrunculi position is the ranks, the side to move (w or b) and, while "
                "pieces are placed, the pieces each side holds: '8/8/8/8/8/8/8/8 w 16 16'"
            )
        board = read_ranks(fields[0], geo.width, geo.height, "Latrunculi", CODES)
        if not self.settings.inciti and (CODES["I"] in board or CODES["i"] in board):
            raise OptionError(f"there are no inciti in the {self.variant} variant")
        if self.variant != "dux" and (CODES["D"] in board or CODES["d"] in board):
            raise OptionError("only the dux variant has a dux")
        pieces = self.settings.pieces
        hand = [n for n in (whole_number(count, 0, pieces) for count in fields[2:]) if n is not None]
        if len(hand) != len(fields) - 2 or hand and not self.settings.placing:
            raise OptionError(
                f"pieces in hand are two numbers from 0 to {pieces}, and only seneca and piso place pieces"
            )
        position = LatrunculiPosition(
            bytes(board), WHITE if fields[1] == "w" else BLACK, (hand[0], hand[1]) if hand else (0, 0)
        )
        for side in (WHITE, BLACK):
            self._check_pieces(position, side)
        return position

    def _check_pieces(self, position: LatrunculiPosition, side: int) -> None:
        """A position gives a side no more pieces than it starts with, counting its inciti and the
        pieces in hand (S1, E1), and in dux its one dux, never captured (X1, X3), and 8 pawns."""
        if self.variant == "dux":
            duxes, pawns = (position.board.count(piece(side, kind)) for kind in (DUX, PAWN))
            if duxes != 1:
                raise self.unreachable_count(
                    side, plural(duxes, "dux", "duxes") if duxes else "no dux", "each side has one (X1, X3)"
                )
            if pawns > 8:
                raise self.unreachable_count(side, f"{pawns} pawns", "each side has 8 (X1)")
        elif (count := piece_count(position, side)) > self.settings.pieces:
            where = "on the board and in hand" if any(position.hand) else "on the board"
            raise self.unreachable_count(side, f"{count} pieces {where}", f"each side has {self.settings.pieces}")

    def format_position(self, position: LatrunculiPosition) -> str:
        text = written_ranks(position.board, self.geo.width, LETTERS) + (" w" if position.turn == WHITE else " b")
        return text + (f" {position.hand[0]} {position.hand[1]}" if any(position.hand) else "")

    def in_hand(self, position: LatrunculiPosition) -> tuple[int, int]:
        return position.hand

    def turn(self, position: LatrunculiPosition) -> int:
        return position.turn

    def material(self, position: LatrunculiPosition) -> tuple[int, int]:
        return piece_count(position, WHITE), piece_count(position, BLACK)

    def board_width(self) -> int:
        return self.geo.width

    def square_board(self, position: LatrunculiPosition) -> bytes | None:
        return position.board

    def with_board(self, position: LatrunculiPosition, board: bytes) -> LatrunculiPosition:
        return LatrunculiPosition(board, position.turn, position.hand)

    def counted_letters(self) -> dict[str, str]:
        return {"white_inciti": "I", "black_inciti": "i"} if self.variant == "seneca" else {}

    def material_follows_empty_squares(self) -> bool:
        return self.variant != "seneca"  # a captured piece becomes an incitus in place

    @classmethod
    def fits_pattern(cls, width: int, height: int) -> bool:
        return width <= 16 and height <= 16  # any board of 4 to 16 squares a side

    @classmethod
    def pattern_rest(cls, rest: list[str]) -> str:
        """The pieces each side holds in hand, each a number or `*`; without them, in and after
        the placement phase."""
        if not rest:
            return "*"
        if len(rest) != 2 or not all(field.isdigit() or field == "*" for field in rest):
            raise Refused("a Latrunculi pattern ends with the pieces each side holds in hand, each a number or *")
        return " " + " ".join("[0-9]*" if field == "*" else field for field in rest)

    def render(self, position: LatrunculiPosition) -> str:
        geo = self.geo
        digits = len(str(geo.height))
        rows = []
        for rank in range(geo.height - 1, -1, -1):
            cells = [LETTERS.get(code, ".") for code in position.board[rank * geo.width : (rank + 1) * geo.width]]
            rows.append(f"{rank + 1:>{digits}} " + " ".join(cells))
        rows.append(" " * (digits + 1) + " ".join(FILES[: geo.width]))
        legend = "P p pawns, D d dux" if self.variant == "dux" else "P p pawns"
        if self.settings.inciti:
            legend += ", I i inciti"
        rows.append(f"{legend}; uppercase: White")
        if any(position.hand):
            rows.append(_in_hand(position))
        return "\n".join(rows)

    def diagram(self, position: LatrunculiPosition, last: str | None = None) -> Diagram:
        geo, kinds = self.geo, {PAWN: "pawn", DUX: "dux", INCITUS: "incitus"}
        marks = {}
        if last:
            move = parse_move(last)
            marks = ply_marks(
                (geo.index[name] for name in move.squares),
                (geo.index[name] for name in sorted(move.captures or ())),
                None if move.removal is None else geo.index[move.removal],
            )
        return Diagram(
            f"Ludus latrunculorum ({self.variant}): {self.format_position(position)}",
            Squares(geo.width, geo.height, tuple(geo.names)),
            {square: Piece(code >> 2, kinds[code & 3]) for square, code in enumerate(position.board) if code},
            marks,
            glyphs=_GLYPHS,
            caption=_in_hand(position) if any(position.hand) else "",
        )

    # -- plies -----------------------------------------------------------------
    def play(self, position: LatrunculiPosition, text: str) -> Played[LatrunculiPosition]:
        return play_ply(self.settings, position, text)

    def outcome(self, position: LatrunculiPosition) -> Outcome | None:
        return game_end(self.settings, position, 1 - position.turn)

    # -- random play ------------------------------------------------------------
    def _movements(self, position: LatrunculiPosition) -> list[str]:
        """Every legal placement or movement, without captures or removal."""
        board, side, names = position.board, position.turn, self.geo.names
        if position.hand[side]:
            return ["@" + names[s] for s, code in enumerate(board) if code == EMPTY]
        moves = []
        active = (piece(side, PAWN), piece(side, DUX))
        for origin, code in enumerate(board):
            if code not in active:
                continue
            letter = "D" if code & 3 == DUX else ""
            if self.settings.slides:
                for ray in self.geo.rays[origin]:
                    for target in ray:
                        if board[target]:
                            break
                        moves.append(f"{letter}{names[origin]}-{names[target]}")
                continue
            moves += [f"{names[origin]}-{names[n]}" for n in self.geo.steps[origin] if not board[n]]
            moves += ["^".join(names[s] for s in path) for path in self._jump_paths(board, side, [origin])]
        return moves

    def _jump_paths(self, board: bytes, side: int, path: list[int]):
        for over, there in self.geo.pincers[path[-1]]:
            if jumpable(board, side, over, self.settings.jump_any) and board[there] == EMPTY and there not in path:
                yield path + [there]
                yield from self._jump_paths(board, side, path + [there])

    def _removals(self, position: LatrunculiPosition, movement: str) -> list[str]:
        """The ways to write the removal that must follow `movement` after it (removal=after-move;
        "" when none)."""
        incitus = piece(position.turn, INCITUS)
        if incitus not in position.board:
            return [""]
        after = play_up_to_removal(self.settings, position, parse_move(movement))[0]
        return ["~" + self.geo.names[square] for square in squares_of(after, incitus)] or [""]

    def _removes_first(self, position: LatrunculiPosition) -> bool:
        """Whether the side to move removes an incitus before its move (removal=before-move)."""
        return self.settings.removal_first and piece(position.turn, INCITUS) in position.board

    def _turns_removing_first(self, position: LatrunculiPosition) -> list[tuple[str, str]]:
        """Every (movement, removal) of a turn that removes an incitus first: the movements
        of the board without that incitus."""
        incitus, names = piece(position.turn, INCITUS), self.geo.names
        return [
            (movement, "~" + names[square])
            for square in squares_of(position.board, incitus)
            for movement in self._movements(position._replace(board=removed_first(position.board, square)))
        ]

    def ply_parts(self, text: str) -> GridPly:
        move = parse_move(text)
        squares = tuple(square_order(name) for name in move.squares)
        return GridPly(move.placement, move.piece, squares, move.jumps, move.captures, move.removal)

    def legal_plies(self, position: LatrunculiPosition) -> list[str]:
        if self._removes_first(position):
            turns = self._turns_removing_first(position)
        else:
            turns = [(m, removal) for m in self._movements(position) for removal in self._removals(position, m)]
        return [self.play(position, movement + removal).text for movement, removal in turns]

    def random_ply(self, position: LatrunculiPosition, rng: random.Random) -> str | None:
        if self._removes_first(position):
            turns = self._turns_removing_first(position)
            if not turns:
                return None
            movement, removal = rng.choice(turns)
        else:
            movements = self._movements(position)
            if not movements:
                return None
            movement = rng.choice(movements)
            removal = rng.choice(self._removals(position, movement))
        return self.play(position, movement + removal).text


_BOARD_AS_WRITTEN: Final = re.compile(r"[ \t]*([0-9]{1,2})[ \t]*[x×*][ \t]*([0-9]{1,2})[ \t]*")  # `10 x 10`, `10×10`


def _board_size(text: str | None) -> tuple[int, int]:
    if text is None:
        return 8, 8
    m = re.fullmatch(r"([0-9]+)x([0-9]+)", text.lower())
    width, height = (whole_number(n, 4, 16) for n in m.groups()) if m else (None, None)
    if width is None or height is None:
        message = f"a Board is WxH with each side from 4 to 16, as in 8x8; not {quoted(text)}"
        meant = _BOARD_AS_WRITTEN.fullmatch(text.lower())
        sides = [whole_number(side, 4, 16) for side in meant.groups()] if meant else [None]
        if None not in sides:
            raise OptionError(message, "Board", text, 0, (f"{sides[0]}x{sides[1]}",))  # at the value
        raise OptionError(message, "Board")
    return width, height


def _all_jumps(squares: list[str]) -> bool:
    """Whether each of `squares` (`c3`) is two squares from the one before it along a file or a rank."""
    ranks = [whole_number(square[1:], 1, 16) or 0 for square in squares]  # (0: no rank of a Latrunculi board)
    steps = zip(squares, squares[1:], ranks, ranks[1:])
    return 0 not in ranks and all(sorted((abs(ord(a[0]) - ord(b[0])), abs(r - s))) == [0, 2] for a, b, r, s in steps)
