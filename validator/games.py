"""The registry of games: the one place that knows which games there are.

A game is its rules class (a `Game` subclass, validator/base.py), which names its
grammar (`Game.grammar`: `grammar/<name>.lark` unless it gives a path) and describes
its positions for drawing (`Game.diagram`). The reader, the slips, the editor's
completions, the replay driver, `random`, the pictures and the archive all ask here.
The built-in games are imported when first used (`validate` of one Tablut file loads
no Laquet rules); a game from outside the package joins with `register`.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from importlib import import_module
from typing import Any, TypeVar

from lusoria.validator.base import Game

G = TypeVar("G", bound=Game[Any])

_BUILT_IN = {"brandubh": "lusoria.validator.brandubh:Brandubh",
             "copenhagen": "lusoria.validator.copenhagen:Copenhagen",
             "laquet": "lusoria.validator.laquet:Laquet",
             "latrunculi": "lusoria.validator.latrunculi:Latrunculi",
             "tablut": "lusoria.validator.tablut:Tablut"}


class Registry(Mapping[str, type[Game]]):
    """Game name (lower case) -> rules class; built-in classes are imported on first use."""

    def __init__(self, built_in: dict[str, str]):
        self._built_in = built_in
        self._where = dict(built_in)  # name -> "module:Class", until loaded
        self._classes: dict[str, type[Game]] = {}
        self.names = tuple(sorted(built_in))  # every game's name, sorted

    def __getitem__(self, name: str) -> type[Game]:
        name = name.lower()
        if name not in self._classes:
            module, _, attribute = self._where[name].partition(":")  # KeyError: not a known game
            self._classes[name] = getattr(import_module(module), attribute)
        return self._classes[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self.names)

    def __len__(self) -> int:
        return len(self.names)

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and name.lower() in self.names

    def register(self, cls: type[G]) -> type[G]:
        """Add a game (or replace the one of the same name); usable as a class decorator."""
        self._where.pop(cls.name, None)
        self._classes[cls.name] = cls
        self.names = tuple(sorted({*self.names, cls.name}))
        return cls

    def unregister(self, name: str) -> None:
        """Remove a game that `register` added (a built-in game it replaced comes back)."""
        self._classes.pop(name, None)
        if name in self._built_in:
            self._where[name] = self._built_in[name]
        else:
            self.names = tuple(other for other in self.names if other != name)


GAMES = Registry(_BUILT_IN)
register = GAMES.register


def game_class(name: str) -> type[Game]:
    """The rules class of a game, by name in any case; KeyError if no game has that name."""
    return GAMES[name]


def known_games() -> tuple[str, ...]:
    """The names of the games there are, sorted."""
    return GAMES.names
