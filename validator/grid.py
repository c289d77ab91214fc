"""What the games on a board of squares share: the parts of a ply that suggestions
compare, and the distance between two plies (docs/slips.md, "Did you mean …?"); their boards
written as position strings' ranks, spelled out for the archive (each empty square `.`) and the
position patterns that search them (docs/notation.md §6.1); the symmetries of a square board,
for positions and plies as the notation writes them (what the move tree folds)."""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache, lru_cache, partial
from operator import itemgetter
from typing import ClassVar, Final, NamedTuple, TypeVar

from lusoria.errors import Refused
from lusoria.notation.numbers import checked_number, whole_number
from lusoria.validator.base import EMPTY_SQUARE, PIECE_BITS, Game, OptionError, P, RankNotCovered
from lusoria.words import quoted

ANY, ANY_PIECE = "*", "?"  # a pattern's wildcards: anything, any piece
FILES = "abcdefghijklmnopqrs"  # of the widest board of any game: the tafl family's 19×19
MAX_WIDTH = len(FILES)  # squares: the widest board a pattern may have (a game's `fits_pattern` narrows it)
SQUARE = "[a-s](?:1[0-9]|[1-9])"  # the name of a square of any board (a1 to s19), as plies write it
SQUARE_NAME: Final = re.compile(SQUARE)
RUN = re.compile(r"[0-9]+")
TURNED_PLIES = 1 << 14  # plies kept turned back, per board size and symmetry


class Grid:
    """The squares of a W×H board by number (a1 0, b1 1, …, rank after rank), their names and
    lines: what every game on squares looks up about them (each game's `Geometry` adds its own
    tables to these)."""

    def __init__(self, width: int, height: int) -> None:
        self.width, self.height = width, height
        self.names: tuple[str, ...] = tuple(FILES[s % width] + str(s // width + 1) for s in range(width * height))
        self.index: dict[str, int] = {name: s for s, name in enumerate(self.names)}
        # the squares from each square to the edge in each direction: up, down, right, left
        self.rays: tuple[tuple[tuple[int, ...], ...], ...] = tuple(self._rays(s) for s in range(width * height))
        self.neighbours: tuple[tuple[int, ...], ...] = tuple(tuple(ray[0] for ray in rays if ray) for rays in self.rays)
        last = width * height - 1
        self.corners: tuple[int, ...] = (0, width - 1, last - width + 1, last)

    def _rays(self, square: int) -> tuple[tuple[int, ...], ...]:
        width, file, rank = self.width, square % self.width, square // self.width
        return (
            tuple(square + width * k for k in range(1, self.height - rank)),
            tuple(square - width * k for k in range(1, rank + 1)),
            tuple(square + k for k in range(1, width - file)),
            tuple(square - k for k in range(1, file + 1)),
        )


board_grid = cache(Grid)  # the one Grid of a board's width and height


class GridPly(NamedTuple):
    """The parts of a ply on a grid (a placement or a move, its squares, captures and removal)
    that the distance compares."""

    placement: bool
    piece: str | None
    squares: tuple[tuple[int, int], ...]  # (file, rank) of the origin and every landing
    jumps: bool
    captures: frozenset[str] | None
    removal: str | None


def square_distance(a: tuple[int, int], b: tuple[int, int]) -> int:
    """0 for the same square, 1 for a file or a rank off by one, more otherwise."""
    return sum(0 if x == y else 1 if abs(x - y) == 1 else 2 for x, y in zip(a, b))


def grid_distance(written: GridPly, legal: GridPly) -> int:
    """Written against legal: each square off (by one: 1), from and to swapped (1),
    the digits of two squares swapped (1), a piece letter wrong (1), a wrong list of
    captures or removal (1), a jump written as a step or the reverse (1), a chain of jumps with a landing
    more or fewer after those they share (1 each)."""
    cost = 0
    if written.placement != legal.placement:
        cost += 3
    if written.piece and written.piece != (legal.piece or "P"):
        cost += 1
    if written.jumps != legal.jumps:
        cost += 1
    a, b = written.squares, legal.squares
    if len(a) == len(b):
        direct = sum(square_distance(x, y) for x, y in zip(a, b))
        swapped = 1 + sum(square_distance(x, y) for x, y in zip(a, reversed(b))) if len(a) == 2 else direct
        digits = (
            1 + sum(square_distance(x, y) for x, y in zip(a, ((b[0][0], b[1][1]), (b[1][0], b[0][1]))))
            if len(a) == 2
            else direct
        )
        cost += min(direct, swapped, digits)
    elif all(x == y for x, y in zip(a, b)):  # a chain of jumps that goes on from the other's last landing
        cost += abs(len(a) - len(b))
    else:
        cost += square_distance(a[0], b[0]) + square_distance(a[-1], b[-1]) + abs(len(a) - len(b))
    if written.captures is not None and written.captures != (legal.captures or frozenset()):
        cost += 1
    if written.removal is not None and written.removal != legal.removal:
        cost += 1
    return cost


class GridGame(Game[P]):
    """A game on a board of squares: its distance between plies compares their parts; its
    boards spell out as its position strings do, its pieces as `letters` (a square's code ->
    its letter, White's `pieces[0]`, Black's `pieces[1]`), and a pattern is read as one; on a
    square board, positions and plies turn and mirror (a position's board bytes turned, when it
    holds them: `square_board`; else its string rewritten, as the notation writes it: ranks from
    the top, a number for empty squares; a ply's squares renamed, a1…)."""

    pieces: ClassVar[tuple[str, str]] = ("", "")  # White's letters, Black's, as its position strings write them
    announces: ClassVar[bool] = False  # its plies end in an announcement (`+`, `++`), kept when a slip is mended

    def board_width(self) -> int:
        """The files of this board (a spelled-out board is cut into ranks of this many squares)."""
        raise NotImplementedError

    def counted_letters(self) -> dict[str, str]:
        """The MATERIAL counts (besides each side's) read off a spelled-out board: name -> letter."""
        return {}

    def material_follows_empty_squares(self) -> bool:
        """Whether the material changes only when the number of empty squares does (no piece
        changes in place): what the archive counts once for a run of plies."""
        return True

    @classmethod
    def piece_bits(cls) -> dict[str, int]:
        return {letter: 1 << bit % PIECE_BITS for bit, letter in enumerate("".join(cls.pieces))}  # a 7th shares

    @classmethod
    def fits_pattern(cls, width: int, height: int) -> bool:
        """Whether a pattern of this many files and ranks may be of this game (none by default)."""
        return False

    @classmethod
    def pattern_rest(cls, rest: list[str]) -> str:
        """The GLOB of a pattern's fields after the side to move (none by default; a game with
        pieces in hand has them)."""
        if rest:
            raise Refused("it has no fields after the side to move")
        return "*"

    @classmethod
    def pattern_globs(cls, fields: list[str], symmetric: bool) -> list[str]:
        rows = []
        for rank in fields[0].split("/"):
            row: list[str] = []  # a GLOB token a square
            for run, char in re.findall(r"([0-9]+)|(.)", rank):
                row += [EMPTY_SQUARE] * _run(run) if run else [cls._glob_square(char)]
            rows.append(row)
        width, height = len(rows[0]), len(rows)
        if not cls.fits_pattern(width, height) or not 4 <= width <= MAX_WIDTH or not 4 <= height <= MAX_WIDTH:
            raise Refused(f"a {cls.name} pattern cannot be {width}x{height}")
        if any(len(row) != width for row in rows):
            raise Refused("every rank of a pattern covers the same number of squares")
        turn = fields[1] if len(fields) > 1 else ANY
        if turn not in ("w", "b", ANY):
            raise Refused(f"the side to move is w, b or *, not {quoted(turn)}")
        tail = " " + ("?" if turn == ANY else turn) + cls.pattern_rest(fields[2:])
        boards = _symmetries(rows) if symmetric and width == height else [rows]
        return list(dict.fromkeys("/".join("".join(row) for row in board) + tail for board in boards))

    @classmethod
    def _glob_square(cls, char: str) -> str:
        """One square of a grid pattern as GLOB."""
        white, black = cls.pieces
        if char == ANY:
            return "?"
        if char == ANY_PIECE:
            return f"[^{EMPTY_SQUARE}]"
        if char == "W":
            return f"[{white}]"
        if char == "B":
            return f"[{black}]"
        if char in white + black:
            return char
        raise Refused(f"{quoted(char)} is not a {cls.name} piece, a digit, or a wildcard (* ? W B)")

    def square_board(self, position: P) -> bytes | None:
        """The squares of `position`'s board, one byte a square by number (a1 0, b1 1, …), when
        its positions hold their board so: `symmetric` then turns these bytes (`with_board`);
        None by default (it rewrites the position string)."""
        return None

    def with_board(self, position: P, board: bytes) -> P:
        """`position` with `board` (as `square_board` gives it) in place of its own."""
        raise NotImplementedError

    def symmetric(self, position: P) -> list[tuple[P, Callable[[str], str]]]:
        board = self.square_board(position)
        if board is None:
            return self._symmetric_strings(position)
        size = self.board_width()
        if len(board) != size * size:
            return [(position, str)]
        images = zip(_turned(board, size)[1:], _turned_back(size)[1:])
        return [(position, str)] + [(self.with_board(position, image), back) for image, back in images]

    def canonical(self, position: P) -> P:
        board = self.square_board(position)
        if board is None:
            return min((image for image, _ in self._symmetric_strings(position)), key=self.format_position)
        size = self.board_width()
        return self.with_board(position, min(_turned(board, size))) if len(board) == size * size else position

    def _symmetric_strings(self, position: P) -> list[tuple[P, Callable[[str], str]]]:
        """`symmetric` of a position whose board is only its position string."""
        board, rest = self.format_position(position).split(" ", 1)
        ranks = [
            RUN.sub(lambda run: EMPTY_SQUARE * checked_number(run[0], 0, MAX_WIDTH), rank) for rank in board.split("/")
        ]  # top first
        size = len(ranks)
        if any(len(rank) != size for rank in ranks):
            return [(position, str)]
        squares = "".join(reversed(ranks))  # a character a square, by number (a1 0, b1 1, …)
        runs = RUN.search(board) is not None
        found = []
        for image, back in zip(_turned(squares, size), _turned_back(size)):
            spelled = "/".join(_ranks(image, size))
            found.append((self.parse_position((folded(spelled) if runs else spelled) + " " + rest), back))
        return found

    def ply_parts(self, text: str) -> GridPly | None:
        """The parts of a ply that the distance compares; None for a pass."""
        raise NotImplementedError

    def distance(self, written: str, legal: str) -> int:
        a, b = self.ply_parts(written), self.ply_parts(legal)
        if a is None or b is None:  # a pass
            return 0 if a is b else 3
        return grid_distance(a, b)

    def ply_summary(self, canonical: str, start: P, position: P) -> str:
        """The squares a ply captured (its capture list)."""
        captured = re.search(r"x([^~#+]*)", canonical)
        return f"captured: {', '.join(captured[1].split('/'))}" if captured else "captured nothing"

    @classmethod
    def mended_ply(cls, word: str) -> str:
        """A capture written chess-style (`e3xc3`), or a move without its hyphen (`e3c3`): `e3-c3`; on
        any board, files to s (19×19). Captures each after its own `x`, as aagenielsen.dk writes them
        (`i5-d5xc5xd4`): `i5-d5xc5/d4`. Squares with capital files (`E3-C3`): `e3-c3`. A check's `+` (`++`),
        which OpenTafl and chess players write, after a ply of a game that `announces` nothing (Copenhagen: h79a):
        left out; kept after one that does (review79: Tablut's `Ke5c5+` lost its Raichi)."""
        word = _CAPITAL_FILE.sub(_lowered, word)
        word = word if cls.announces else _CHECK_MARK.sub("", word) or word  # (a `+` alone is no ply: review79)
        word = re.sub(r"^([A-Z]?[a-s]\d{1,2})x([a-s]\d{1,2})", r"\1-\2", word)
        ply, x, captures = word.partition("x")
        word = ply + x + re.sub(r"(?<=\d)x(?=[A-Z]?[a-s]\d)", "/", captures)
        return re.sub(r"^([A-Z]?[a-s]\d{1,2}?)([a-s]\d{1,2})", r"\1-\2", word)


_CHECK_MARK = re.compile(r"\+\+?(?=[!?]{0,2}$)")  # a check's `+` (`++`) at a word's end, or before its annotation
_CAPITAL_FILE = re.compile(r"[A-S](?=\d)")  # a square's file in capitals (a piece's letter is followed by its square)
SQUARE_IN: Final = re.compile(r"[a-s]\d")  # a square in a word: a ply, written well or not (`refused_after`'s word)
MARKED: Final = re.compile(r"(\+\+?)([!?]{0,2})")  # a `+` or `++` after a ply (`refused_after`'s found), and the
# annotation a chess player writes after a check's (`+!`)


def _lowered(found: re.Match[str]) -> str:
    return found[0].lower()


def _run(digits: str) -> int:
    """A run of empty squares in a pattern: no wider than any board."""
    empty = whole_number(digits, 0, MAX_WIDTH)
    if empty is None:
        raise Refused(f"a run of {digits[:20]} empty squares is wider than any board ({MAX_WIDTH} squares)")
    return empty


def folded(spelled: str) -> str:
    """A board spelled out (ranks apart by `/`) written back as a position string: each run of
    EMPTY_SQUARE as its length (NOTATION.md §6)."""
    return _EMPTY_RUN.sub(_run_length, spelled)


_EMPTY_RUN = re.compile(re.escape(EMPTY_SQUARE) + "+")


def _run_length(run: re.Match[str]) -> str:
    return str(len(run[0]))


@cache
def spelling(letters: tuple[tuple[int, str], ...]) -> bytes:
    """The table (`bytes.translate`) that spells out a board's bytes one character a square:
    0 (empty) as EMPTY_SQUARE, each other code as its letter (`letters`: code -> letter)."""
    return bytes.maketrans(
        bytes([0, *(code for code, _ in letters)]), (EMPTY_SQUARE + "".join(letter for _, letter in letters)).encode()
    )


def written_ranks(board: bytes, width: int, letters: dict[int, str]) -> str:
    """The ranks of a board (a byte a square by number: a1 0, b1 1, …; 0 empty) as a position
    string writes them (NOTATION.md §6): top first, apart by `/`, each piece as its letter and
    each run of empty squares as its length. What follows (the side to move…) is the game's."""
    spelled = board.translate(spelling(tuple(letters.items()))).decode()
    return folded("/".join(spelled[start : start + width] for start in range(len(board) - width, -1, -width)))


_RANK_ITEM = re.compile(r"[0-9]+|.")  # a piece, or a count of empty squares (11 is one count)


def read_ranks(text: str, width: int, height: int, title: str, codes: dict[str, int]) -> bytearray:
    """The squares of a position string's board (`written_ranks` read back: its ranks, the top first,
    `codes`: letter -> piece); OptionError when malformed, with the rank or letter at fault and
    where it is in `text` (RankNotCovered for the first rank that does not cover `width` squares)."""
    ranks = text.split("/")
    if len(ranks) != height:
        raise OptionError(f"a {title} position has {height} ranks, not {len(ranks)}")
    rows, at = [], 0
    for rank in ranks:
        rows.append(read_rank(rank, width, title, codes, at))
        at += len(rank) + 1
    return bytearray().join(reversed(rows))


def read_rank(rank: str, width: int, title: str, codes: dict[str, int], at: int = 0) -> bytearray:
    """The squares of one rank of a position string's board (`read_ranks`), `at` characters into
    the board's text; RankNotCovered when it does not cover `width` squares, OptionError for what
    is neither a piece nor a count."""
    row = bytearray()
    for item in _RANK_ITEM.finditer(rank):
        if (empty := whole_number(item[0], 1, width)) is not None:
            row.extend(bytes(empty))
        elif item[0].isascii() and item[0].isdigit() and whole_number(item[0], 0, width) is None:
            raise RankNotCovered(rank, f"more than {width} squares", at)
        elif item[0] in codes:
            row.append(codes[item[0]])
        else:
            raise OptionError(
                f"{quoted(item[0])} is not a {title} piece ({', '.join(codes)}) or a count of empty squares",
                "Position",
                item[0],
                at + item.start(),
            )
    if len(row) != width:
        raise RankNotCovered(rank, f"{len(row)} squares, not {width}", at)
    return row


def _moved(text: str, back: list[int], size: int) -> str:
    """A ply with the name of each square replaced by the name of the square `back` gives it."""

    def name(square: re.Match) -> str:
        file, rank = square[0][0], square[0][1:]
        to = back[(checked_number(rank, 1, size) - 1) * size + FILES.index(file)]
        return f"{FILES[to % size]}{to // size + 1}"

    return SQUARE_NAME.sub(name, text)


S = TypeVar("S", str, bytes)


def _ranks(board: S, size: int) -> tuple[S, ...]:
    """The ranks of a square board of `size` (its squares by number: a1 0, b1 1, …), top first."""
    return _cuts(size)[0](board)


def _turned(board: S, size: int) -> list[S]:
    """The 8 images of a square board of `size` (a character or byte a square, by number: a1 0,
    b1 1, …), itself first: turned a half, mirrored top to bottom (and left to right), about the
    diagonal a1-h8 (and the other), turned a quarter (and three)."""
    ranks, files = _cuts(size)
    join = board[:0].join
    mirrored = join(ranks(board))  # the ranks top first, as the bottom ones
    across = join(files(board))  # each file a rank
    turned = join(ranks(across))
    return [board, board[::-1], mirrored, mirrored[::-1], across, across[::-1], turned, turned[::-1]]


@cache
def _cuts(size: int) -> tuple[itemgetter, itemgetter]:
    """What cuts a square board of `size` (of two squares a side or more) into its ranks (top
    first) and into its files (a first)."""
    ranks = itemgetter(*(slice(start, start + size) for start in range(size * (size - 1), -1, -size)))
    return ranks, itemgetter(*(slice(file, None, size) for file in range(size)))


@cache
def _turned_back(size: int) -> list[Callable[[str], str]]:
    """For each image of `_turned`, what turns a ply played there into the same ply played on the
    board itself (`_moved`; the plies turned lately kept: the move tree turns the same plies for
    many positions)."""
    return [
        lru_cache(TURNED_PLIES)(partial(_moved, back=[ord(square) for square in image], size=size))
        for image in _turned(_numbers(size), size)
    ]


def _symmetries(rows: list[list]) -> list[list[list]]:
    """The 8 images of a square grid of anything given rank by rank, top first (the squares of a
    pattern, colours kept), in `_turned`'s order."""
    size = len(rows)
    squares = [square for row in reversed(rows) for square in row]  # by number: a1 0, b1 1, …
    return [
        [[squares[ord(n)] for n in rank] for rank in _ranks(image, size)] for image in _turned(_numbers(size), size)
    ]


def _numbers(size: int) -> str:
    """The squares of a square board of `size` by number, each its number as a character."""
    return "".join(map(chr, range(size * size)))
