"""The base of every exception lusoria defines: it survives pickle whatever its `__init__`
takes, so that a problem raised in a worker process (lusoria.pipeline) reaches the parent
as it was raised. Python's own pickling calls `type(error)(*error.args)`, which fails for an
`__init__` that takes other arguments than the message it passes on."""

from __future__ import annotations

from typing import Any


class LusoriaError(Exception):
    """The base of every exception lusoria defines, each also the built-in kind it is (a ValueError, a KeyError):
    `except LusoriaError` takes what a call refuses. Pickled as its class, its `args` and its attributes."""

    def __reduce__(self) -> tuple[Any, ...]:
        return _restored, (type(self), self.args), self.__dict__


class Refused(LusoriaError, ValueError):
    """A value given to a call that it refuses (out of its bounds, of no form it reads, a name of no kind it takes): a
    ValueError that `except LusoriaError` catches too (h83b: a date filter `May 2020`, `depth=0`, `jobs=0`, `ply=-1`,
    `to="xml"` raised a bare ValueError, which docs/api.md said none does)."""


class UnknownName(LusoriaError, KeyError):
    """A game, rule or variant named that lusoria does not know: a KeyError, as a registry's lookup raises, that
    `except LusoriaError` catches too (h81a: `api.explain("zzz")`, `api.random_records("chess")` raised a bare
    KeyError), said as its message (a KeyError's `str()` quotes it)."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""  # (none: made by pickle, its args set after)


class DataError(LusoriaError):
    """A data file installed with lusoria, which its docs invite users to extend (a catalogue of
    variants), or a user's own file of the same kind, is not as it must be: its message names the
    file, the entry and why."""

    advice = ""  # what to do about a user's own file ("": lusoria's data, mend it or report it)


class CatalogueError(DataError):
    """The catalogue of tafl game types (validator/hnefatafl.py reads it) is not as it must be: the
    file, the entry and why. Defined here, in a module whose import reads no catalogue, so that a
    worker process's error is read back by its parent, which may not import the reader again."""


def _restored(kind: type[LusoriaError], args: tuple) -> LusoriaError:
    """An exception of `kind` with `args`, made without calling its `__init__` (pickle then
    restores its attributes)."""
    error = kind.__new__(kind, *args)
    error.args = args
    return error


CHECKING = "while checking "  # the note that names the record an exception was raised on


def raised_checking(error: BaseException, place: str) -> BaseException:
    """`error`, noted as raised while checking the record at `place` (`path:line`); a note
    made nearer to where it was raised stays the only one."""
    if place_of(error) is None:
        error.add_note(CHECKING + place)
    return error


def place_of(error: BaseException) -> str | None:
    """The record `error` was raised on (`raised_checking`), if it is known."""
    notes = getattr(error, "__notes__", ())
    return next((note.removeprefix(CHECKING) for note in notes if note.startswith(CHECKING)), None)
