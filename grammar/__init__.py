"""The Lark grammars of the notation: `common.lark` plus one file per game."""

from importlib.resources import files


def grammar_text(game: str) -> str:
    """The complete grammar of one game: the shared skeleton and the game's plies."""
    folder = files(__name__)
    return (folder / "common.lark").read_text("utf-8") + (folder / f"{game}.lark").read_text("utf-8")
