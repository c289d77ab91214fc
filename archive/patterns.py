"""Pattern search: a position string with wildcards (docs/notation.md §6.1), turned into
GLOB patterns over a board spelled out one character a square (archive/positions.py), which
the SQL function `lusoria_matching_plies` matches against each board of a record."""

from __future__ import annotations

import json
import re
from functools import lru_cache

from lusoria.archive.positions import EMPTY, LAQUET_POINTS, PIECE_BITS, unpacked_boards
from lusoria.notation.numbers import whole_number

ANY, ANY_PIECE = "*", "?"
SIDES = {"tablut": ("KP", "p"), "latrunculi": ("PDI", "pdi")}  # White's letters, Black's
MAX_WIDTH = 16  # squares: the widest board (Latrunculi)
LAQUET_WHITE, LAQUET_BLACK = "a-o", "A-O"  # 1 to 15 checkers, as a spelled-out Laquet board (positions.py) writes them


def _square(game: str, char: str) -> str:
    """One square of a grid pattern as GLOB."""
    white, black = SIDES[game]
    if char == ANY:
        return "?"
    if char == ANY_PIECE:
        return f"[^{EMPTY}]"
    if char == "W":
        return f"[{white}]"
    if char == "B":
        return f"[{black}]"
    if char in white + black:
        return char
    raise ValueError(f"'{char}' is not a {game} piece, a digit, or a wildcard (* ? W B)")


def _grid(game: str, ranks: list[str]) -> list[list[str]]:
    """The ranks of a grid pattern as rows of GLOB squares."""
    rows = []
    for rank in ranks:
        row = []
        for run, char in re.findall(r"([0-9]+)|(.)", rank):
            if not run:
                row.append(_square(game, char))
                continue
            empty = whole_number(run, 0, MAX_WIDTH)
            if empty is None:
                raise ValueError(f"a run of {run[:20]} empty squares is wider than any board ({MAX_WIDTH} squares)")
            row += [EMPTY] * empty
        rows.append(row)
    return rows


def _symmetries(rows: list[list[str]]) -> list[list[list[str]]]:
    """The 8 symmetries of a square board (rotations and reflections), colours kept."""
    found, current = [], rows
    for _ in range(4):
        current = [list(row) for row in zip(*current[::-1])]  # a quarter turn
        found += [current, [row[::-1] for row in current]]
    return found


def _grid_globs(game: str, fields: list[str], symmetric: bool) -> list[str]:
    ranks = fields[0].split("/")
    rows = _grid(game, ranks)
    width, height = len(rows[0]), len(rows)
    if game == "tablut" and (width, height) != (9, 9) or not 4 <= width <= 16 or not 4 <= height <= 16:
        raise ValueError(f"a {game} pattern cannot be {width}x{height}")
    if any(len(row) != width for row in rows):
        raise ValueError("every rank of a pattern covers the same number of squares")
    turn = fields[1] if len(fields) > 1 else ANY
    if turn not in ("w", "b", ANY):
        raise ValueError(f"the side to move is w, b or *, not '{turn}'")
    rest = fields[2:]
    if rest and (game != "latrunculi" or len(rest) != 2 or not all(f.isdigit() or f == ANY for f in rest)):
        raise ValueError("only a Latrunculi pattern has more fields: the pieces each side holds in hand")
    tail = " " + ("?" if turn == ANY else turn) + (" " + " ".join("[0-9]*" if f == ANY else f for f in rest)
                                                    if rest else "*")
    boards = _symmetries(rows) if symmetric and width == height else [rows]
    globs = ["/".join("".join(row) for row in board) + tail for board in boards]
    return list(dict.fromkeys(globs))


def _laquet_glob(fields: list[str]) -> str:
    if len(fields) == 2:
        fields = [*fields, ANY]
    if len(fields) != 3 or fields[2] not in ("w", "b", ANY):
        raise ValueError("a Laquet pattern is White's checkers, Black's and the side to move (w, b or *)")
    listed: dict[int, str] = {}
    free = []
    for field, (letter, letters) in zip(fields, (("a", LAQUET_WHITE), ("A", LAQUET_BLACK))):
        if field == "-":
            continue
        for item in field.split(","):
            if item == ANY:
                free.append(letters)
                continue
            m = re.fullmatch(r"([0-9]+):([0-9]+|\*)", item)
            point = whole_number(m[1], 1, LAQUET_POINTS) if m else None
            count = whole_number(m[2], 1, 15) if m and m[2] != ANY else None
            if m is None or point is None or m[2] != ANY and count is None:
                raise ValueError(f"'{item}' is not POINT:COUNT (a point 1-18, a count 1-15 or *) or *")
            if point in listed:
                raise ValueError(f"point {point} is given twice")
            listed[point] = f"[{letters}]" if count is None else chr(ord(letter) + count - 1)
    other = "?" if len(free) == 2 else f"[{EMPTY}{free[0]}]" if free else EMPTY
    points = "".join(listed.get(point, other) for point in range(1, LAQUET_POINTS + 1))
    return points + " " + ("?" if fields[2] == ANY else fields[2])


def pattern_globs(pattern: str, symmetric: bool = False) -> list[tuple[str, str]]:
    """(game, GLOB over a spelled-out board) for every game that can read `pattern`; with
    `symmetric`, a pattern on a square board also in its 8 symmetries. ValueError when no
    game can read it."""
    fields = pattern.split()
    if not fields:
        raise ValueError("an empty pattern")
    found, problems = [], []
    if "/" in fields[0]:
        for game in SIDES:
            try:
                found += [(game, glob) for glob in _grid_globs(game, fields, symmetric)]
            except ValueError as error:
                problems.append(f"{game}: {error}")
    else:
        try:
            found.append(("laquet", _laquet_glob(fields)))
        except ValueError as error:
            problems.append(f"laquet: {error}")
    if not found:
        raise ValueError(f"'{pattern}' is not a pattern of any game ({'; '.join(problems)}; "
                         f"see docs/notation.md §6.1)")
    return found


def _allowed(token: str, letters: str) -> str:
    """The letters a GLOB token (`?`, `[...]`, `[^...]` or one character) lets a square hold."""
    if token == "?":
        return EMPTY + letters
    if not token.startswith("["):
        return token
    inside = re.sub(r"(.)-(.)", lambda m: "".join(map(chr, range(ord(m[1]), ord(m[2]) + 1))), token[1:-1])
    if inside.startswith("^"):
        return "".join(char for char in EMPTY + letters if char not in inside[1:])
    return inside


def required_squares(game: str, glob: str) -> list[tuple[int, int]]:
    """(square, bits) for each square of a board GLOB (`pattern_globs`) that must hold a piece:
    its character in `record_squares.squares` (1-based) and the PIECE_BITS of the pieces it
    may hold. A record whose square never held one of them cannot match."""
    bits = PIECE_BITS[game]
    found = []
    for index, token in enumerate(re.findall(r"\[[^]]*\]|[^ ]", glob.split(" ", 1)[0]), 1):
        allowed = _allowed(token, "".join(bits))
        if EMPTY not in allowed and any(char in bits for char in allowed):
            found.append((index, sum({bits[char] for char in allowed if char in bits})))
    return found


def glob_regex(glob: str) -> str:
    """A GLOB of `pattern_globs` as a regular expression (`?`, `*`, `[…]` and `[^…]` as SQLite reads them)."""
    tokens = re.findall(r"\[[^]]*\]|.", glob)
    return "".join(".*" if token == "*" else "." if token == "?" else token if token.startswith("[") and len(token) > 1
                   else re.escape(token) for token in tokens)


def matching_plies(packed: bytes | None, game: str | None, globs: str) -> str | None:
    """The SQL function `lusoria_matching_plies(record_boards.boards, records.game, GLOBS)`:
    the plies (a JSON array) whose board matches one of GLOBS (a JSON list of [game, GLOB]
    pairs: archive/patterns.py) for the record's game; None when none does."""
    compiled = _compiled(globs).get(game or "")
    if packed is None or not compiled:
        return None
    boards = unpacked_boards(packed)
    found: list[int] = []
    ply = start = 0
    for match in compiled.finditer(boards):  # a board a line: the ply is the lines before
        ply += boards.count("\n", start, match.start())
        start = match.start()
        found.append(ply)
    return json.dumps(found) if found else None


@lru_cache(maxsize=32)
def _compiled(globs: str) -> dict[str, re.Pattern]:
    """GLOBS as one regular expression per game, which matches whole lines (boards)."""
    per_game: dict[str, list[str]] = {}
    for game, glob in json.loads(globs):
        per_game.setdefault(game, []).append(glob_regex(glob))
    return {game: re.compile("^(?:" + "|".join(f"(?:{regex})" for regex in regexes) + ")$", re.MULTILINE)
            for game, regexes in per_game.items()}
