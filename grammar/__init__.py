"""The Lark grammars of the notation: `common.lark` plus one file per game."""

import re
from importlib.resources import files
from importlib.resources.abc import Traversable

from lusoria.plugins import said

_LARK_PLACE = re.compile(r",? at line (\d+),? column (\d+)(?: in <string>)?")  # where lark's errors say a line


def grammar_text(game: str) -> str:
    """The complete grammar of one game: the shared skeleton and the game's plies
    (the file its rules class names: `Game.grammar_file`)."""
    from lusoria.validator.games import GAMES  # the registry imports the rules lazily

    rules = GAMES[game]
    with GAMES.building_grammar(game):  # a plug-in's file that cannot be read is its game's failure
        return _common() + rules.grammar_file().read_text("utf-8")


def grammar_error(file: Traversable, error: BaseException) -> str:
    """What lark's `error` building a game's grammar (`grammar_text`: common.lark, then `file`) says,
    placed in `file`: `file:line:column: error`, the line counted in `file`, not after common.lark's
    lines; `file: error` when lark names no line of it."""
    message, place = str(error), ""
    if (found := _LARK_PLACE.search(message)) and (line := int(found[1]) - _common().count("\n")) > 0:
        message, place = message[: found.start()] + message[found.end() :], f":{line}:{found[2]}"
    return f"{file}{place}: {said(error, message)}"


def _common() -> str:
    return (files(__name__) / "common.lark").read_text("utf-8")
