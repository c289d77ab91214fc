"""Click parameter types for the command line: numbers bounded by the same helper as every
number in a record (lusoria.notation.numbers), text encodings checked before use, the
names of a registry (games, formats), read when first needed, and an option's former name."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import click

from lusoria.bounds import MAX_COUNT, MAX_JOBS, bounded_number
from lusoria.terminal import echo
from lusoria.words import out_of_bounds


class Bounded(click.ParamType):
    """A whole number from `low` to `high`, written in ASCII digits (lusoria.bounds: as a library
    call's argument is checked)."""

    name = "integer"

    def __init__(self, low: int = 0, high: int = MAX_COUNT):
        self.low, self.high = low, high

    def convert(self, value, param, ctx) -> int:
        number = bounded_number(value, self.low, self.high)
        if number is None:
            self.fail(out_of_bounds(value, self.low, self.high), param, ctx)
        return number


JOBS = Bounded(1, MAX_JOBS)  # --jobs: worker processes, bounded as the library's `jobs` is


class Encoding(click.ParamType):
    """The name of a text encoding Python knows (not rot13, hex and other byte codecs)."""

    name = "encoding"

    def convert(self, value, param, ctx) -> str:
        from lusoria.notation.sources import encoding_refused  # here: the notation loads when a command runs

        if refused := encoding_refused(value):
            self.fail(refused, param, ctx)
        return value


class LazyDefault(click.Option):
    """An option whose default is a function's value, called when it is needed (by `--help`
    too, which shows the value): the default keeps its home in the module that imports late."""

    def get_default(self, ctx: click.Context, call: bool = True) -> Any:
        return super().get_default(ctx, call=True)


class Advised(click.Choice):
    """A choice whose refusal of a value another command answers says that command (`advice`:
    the value, in lower case, and the words that name it)."""

    def __init__(self, choices: Iterable[str], advice: dict[str, str]):
        super().__init__(list(choices))
        self.advice = advice

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        advice = self.advice.get(value.lower()) if isinstance(value, str) else None
        if advice is None:
            return super().convert(value, param, ctx)
        choices = ", ".join(repr(choice) for choice in self.choices)
        self.fail(f"{value!r} is not one of {choices}: {advice}", param, ctx)


class Named(click.Choice):
    """One of the names a registry gives (`names`), asked for when the option is used or shown:
    a plug-in's game or format counts, and a command that does not use it reads no plug-ins."""

    def __init__(self, names: Callable[[], Iterable[str]], case_sensitive: bool = True):
        self._names, self.case_sensitive = names, case_sensitive

    @property
    def choices(self) -> tuple[str, ...]:  # type: ignore[override]
        return tuple(self._names())

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        """The name given, as lusoria takes names from its user (`name_given`: `--game ' tablut '`)."""
        from lusoria.validator.games import name_given

        return super().convert(name_given(value) if isinstance(value, str) else value, param, ctx)


class GameNamed(Named):
    """A game's name (`names`, any case); one refused is said as every command says it (`tree --game`,
    the registry's words: the games known, the one it is like), and a variant's name with the options
    that name it (`--game linnaeus`: `--game tablut --variant linnaeus`)."""

    def __init__(self, names: Callable[[], Iterable[str]]):
        super().__init__(names, case_sensitive=False)

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        from lusoria.api import variant_as_game
        from lusoria.validator.base import known_names
        from lusoria.validator.games import name_given
        from lusoria.words import quoted

        try:
            return super().convert(value, param, ctx)
        except click.BadParameter:
            if not isinstance(value, str):
                raise
            name = name_given(value)
            said = variant_as_game(name)
            self.fail(f"unknown game {quoted(name)} ({known_names(name, self.choices)}){said}", param, ctx)


def former_name(old: str, new: str, **declared: Any) -> Callable[[Callable], Callable]:
    """A hidden option of an option's former name (`tree --record`, now `--from-id`), kept working for
    one release: its value is the command's parameter `former_` + the new name's, and the change is
    said on standard error when it is used."""

    def noted(ctx: click.Context, param: click.Parameter, value: Any) -> Any:
        if value is not None:
            echo(f"lusoria: {old} is now {new}; {old} goes in the next release", err=True)
        return value

    return click.option(old, "former_" + new.lstrip("-").replace("-", "_"), hidden=True, callback=noted, **declared)
