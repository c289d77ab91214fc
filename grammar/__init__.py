"""The Lark grammars of the notation: `common.lark` plus one file per game."""

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
