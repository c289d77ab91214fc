"""The Lark grammars of the notation: `common.lark` plus one file per game."""

import re
from importlib.resources import files


def grammar_text(game: str) -> str:
    """The complete grammar of one game: the shared skeleton and the game's plies
    (the file its rules class names: `Game.grammar_file`)."""
    from lusoria.validator.games import GAMES  # the registry imports the rules lazily

    rules = GAMES[game]
    with GAMES.building_grammar(game):  # a plug-in's file that cannot be read is its game's failure
        return _common() + rules.grammar_file().read_text("utf-8")


def common_lines() -> int:
    """The lines of the shared skeleton, before the game's in `grammar_text` (where lark counts them)."""
    return _common().count("\n")


def _common() -> str:
    return (files(__name__) / "common.lark").read_text("utf-8")


def ply_letters(game: str) -> str:
    """The letters a ply of `game` names a piece with, as its grammar's PIECE gives them (`KP` in the
    tafl games, `DP` in Latrunculi; none in a game of points, whose grammar has no PIECE), written as lark
    takes it: a priority, blanks before the colon, letters on the indented lines after (`PIECE.2 : "K"`⏎`| "N"`)."""
    piece = _PIECE.search(grammar_text(game))
    return "".join(re.findall(r'"([A-Za-z])"', piece[1])) if piece else ""


_PIECE = re.compile(r"^PIECE(?:\.-?[0-9]+)?[ \t]*:(.*(?:\n[ \t]+.*)*)", re.M)  # the rule and its indented lines
