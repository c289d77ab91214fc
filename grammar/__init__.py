"""The Lark grammars of the notation: `common.lark` plus one file per game."""

from importlib.resources import files


def grammar_text(game: str) -> str:
    """The complete grammar of one game: the shared skeleton and the game's plies
    (the file its rules class names: `Game.grammar_file`)."""
    from lusoria.validator.games import game_class  # the registry imports the rules lazily

    common = (files(__name__) / "common.lark").read_text("utf-8")
    return common + game_class(game).grammar_file().read_text("utf-8")
