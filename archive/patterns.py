"""Pattern search: a position string with wildcards (docs/notation.md §6.1), turned into
GLOB patterns over a board spelled out one character a square (archive/positions.py), which
the SQL function `lusoria_matching_plies` matches against each board of a record."""

from __future__ import annotations

import json
import re
from functools import lru_cache

from lusoria.archive.functions import FunctionError, go_on
from lusoria.archive.positions import EMPTY, unpacked_boards
from lusoria.errors import Refused
from lusoria.validator.games import GAMES


def pattern_globs(pattern: str, symmetric: bool = False, sought_in: str | None = None) -> list[tuple[str, str]]:
    """(game, GLOB over a spelled-out board) for every game that can read `pattern` (each game
    reads its own: Game.pattern_globs); with `symmetric`, a pattern on a square board also in its
    8 symmetries. ValueError when no game can read it, saying why of each game, or of the game
    `sought_in` alone (the game the filters name)."""
    fields = pattern.split()
    if not fields:
        raise Refused("an empty pattern")
    found, problems = [], {}
    for game in GAMES:
        try:
            found += [(game, glob) for glob in GAMES[game].pattern_globs(fields, symmetric)]
        except ValueError as error:
            problems[game] = str(error)
    if not found:
        raise Refused(unread(f"'{pattern}' is not a pattern", problems, sought_in, "§6.1"))
    return found


def unread(refused: str, problems: dict[str, str], sought_in: str | None, section: str) -> str:
    """What a position string or pattern no game reads is refused with: `refused` ("'zz' is not a
    pattern") of any game, with why each game of `problems` (game -> why) does not read it, or of
    the game `sought_in` alone (the game the filters name), with its why; and the `section` of
    docs/notation.md that says how one is written."""
    named = (sought_in or "").lower()
    if named in problems:  # the game asked for: why it refuses, not why each game does
        of, why = named, problems[named]
    else:
        of, why = "any game", "; ".join(f"{game}: {error}" for game, error in problems.items())
    return f"{refused} of {of} ({why}; see docs/notation.md {section})"


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
    its character in `record_squares.squares` (1-based) and the piece bits (Game.piece_bits) of the pieces it
    may hold. A record whose square never held one of them cannot match."""
    bits = GAMES[game].piece_bits()
    found = []
    for index, token in enumerate(re.findall(r"\[[^]]*\]|[^ ]", glob.split(" ", 1)[0]), 1):
        allowed = _allowed(token, "".join(bits))
        if EMPTY not in allowed and any(char in bits for char in allowed):
            found.append((index, sum({bits[char] for char in allowed if char in bits})))
    return found


def glob_regex(glob: str) -> str:
    """A GLOB of `pattern_globs` as a regular expression (`?`, `*`, `[…]` and `[^…]` as SQLite
    reads them) that matches a line in time linear in its length, whatever the GLOB: between two
    `*`, a part is taken where it first fits and never tried again (an atomic group), which loses no
    match; the part after the last `*` ends the line. (`.*` for each `*` backtracks exponentially:
    `*.*.*.*.*.*.*.*.*.*.*.*.Z` ran for minutes on a record's boards.)"""
    tokens = re.findall(r"\[[^]]*\]|.", glob)
    parts = [
        "".join(
            "." if token == "?" else token if token.startswith("[") and len(token) > 1 else re.escape(token)
            for token in part
        )
        for part in _split(tokens)
    ]
    if len(parts) == 1:
        return parts[0]
    return parts[0] + "".join(f"(?>.*?{part})" for part in parts[1:-1]) + ".*" + parts[-1]


def _split(tokens: list[str]) -> list[list[str]]:
    """GLOB tokens split at each `*`."""
    parts: list[list[str]] = [[]]
    for token in tokens:
        if token == "*":
            parts.append([])
        else:
            parts[-1].append(token)
    return parts


def matching_plies(packed: bytes, game: str, globs: str) -> str | None:
    """The SQL function `lusoria_matching_plies(record_boards.boards, records.game, GLOBS)`:
    the plies (a JSON array) whose board matches one of GLOBS (a JSON list of [game, GLOB]
    pairs: archive/patterns.py) for the record's game; None when none does."""
    compiled = _compiled(globs).get(game)
    if not compiled:
        return None
    boards = unpacked_boards(packed)
    found: list[int] = []
    ply = start = 0
    for match in compiled.finditer(boards):  # a board a line: the ply is the lines before
        ply += boards.count("\n", start, match.start())
        start = match.start()
        found.append(ply)
        go_on()  # the statement's timeout and Ctrl-C
    return json.dumps(found) if found else None


@lru_cache(maxsize=32)
def _compiled(globs: str) -> dict[str, re.Pattern]:
    """GLOBS as one regular expression per game, which matches whole lines (boards); FunctionError
    when they are not a JSON list of [game, GLOB] pairs."""
    try:
        pairs = json.loads(globs)
    except ValueError:
        pairs = None
    if not isinstance(pairs, list) or not all(
        isinstance(pair, list) and len(pair) == 2 and all(isinstance(part, str) for part in pair) for pair in pairs
    ):
        raise FunctionError("argument 3 must be a JSON list of [game, GLOB] pairs")
    per_game: dict[str, list[str]] = {}
    for game, glob in pairs:
        per_game.setdefault(game, []).append(glob_regex(glob))
    try:
        return {
            game: re.compile("^(?:" + "|".join(f"(?:{regex})" for regex in regexes) + ")$", re.MULTILINE)
            for game, regexes in per_game.items()
        }
    except re.error as error:
        raise FunctionError(f"argument 3 holds a GLOB SQLite would not read: {error}") from None
