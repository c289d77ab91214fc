"""The registry of games: name -> rules class."""

from __future__ import annotations

from lusoria.validator.base import Game
from lusoria.validator.laquet import Laquet
from lusoria.validator.latrunculi import Latrunculi
from lusoria.validator.tablut import Tablut

GAMES: dict[str, type[Game]] = {cls.name: cls for cls in (Laquet, Latrunculi, Tablut)}


def game_class(name: str) -> type[Game]:
    return GAMES[name.lower()]
