"""The entry points of packages outside lusoria (`lusoria.games`, `lusoria.formats`), loaded one
by one: one that cannot be loaded (it raises, names a module that is missing, calls sys.exit)
or loads to something else than its group takes (a game named otherwise than its entry point)
is left out, said in one warning line on standard error that names it and its package, and
everything else works. With `NO_ENTRY_POINTS` set (not empty) in the environment, no entry point
is read: the tests and the docs' cog run show lusoria alone, whatever the venv has installed."""

from __future__ import annotations

import os
import sys
import traceback
from collections.abc import Callable, Container, Iterable
from importlib.metadata import EntryPoint, entry_points

SHOWN = 80  # characters of a value or a message a warning shows
NO_ENTRY_POINTS = "LUSORIA_NO_ENTRY_POINTS"  # the environment variable that, set, makes `loaded` read none
FAILS = (
    Exception,
    SystemExit,
)  # what a plug-in's code raises is its failure: its sys.exit() too, which ended the command


def loaded(
    group: str,
    takes: Callable[[object], bool],
    kind: str,
    left: Container[str] = (),
    named: Callable[[object], str] | None = None,
    refused: Callable[[object], str | None] | None = None,
) -> dict[str, object]:
    """Entry point name -> what it loads to, for the entry points of `group` whose names (in lower
    case) are not in `left` and which load to something `takes` (`kind`, as the warning says it),
    and, with `named`, that names itself by its entry point's name in lower case, and, with
    `refused`, that it says nothing against (what it says: why it is left out); none with
    `NO_ENTRY_POINTS` set."""
    found: dict[str, object] = {}
    for point in () if os.environ.get(NO_ENTRY_POINTS) else entry_points(group=group):
        if point.name.lower() in left:
            continue
        try:
            value = point.load()
        except FAILS as error:
            _warn(point, f"it cannot be loaded: {said(error)}")
            continue
        if not takes(value):
            _warn(point, f"it loads to {_shortened(repr(value))}, not {kind}")
            continue
        name = named(value) if named else point.name.lower()
        if name != point.name.lower():
            _warn(point, f"it loads to {kind} named '{_shortened(name)}', not '{point.name.lower()}'")
            continue
        if refused and (why := refused(value)):
            _warn(point, why)
            continue
        found[point.name] = value
    return found


def failure(function: object, error: BaseException, also: Iterable[str] = ()) -> str:
    """What a plug-in's `function` that raised `error` says: the function by its module and name, the
    error, and the file and line of the plug-in's that raised it (`_raised_at`), its files those of
    the package or module of `function` and `also` (a game's class's bases': a method it inherits
    may call one of its own that raised)."""
    named = f"{getattr(function, '__module__', '?')}.{getattr(function, '__qualname__', type(function).__name__)}"
    return f"{named} raised {said(error)}{_raised_at(error, (*_files_of(function), *also))}"


def traceback_of(error: BaseException) -> str:
    """The traceback of `error`, as Python prints it (without its last line end)."""
    return "".join(traceback.format_exception(error)).rstrip()


def _raised_at(error: BaseException, own: tuple[str, ...]) -> str:
    """` (file:line)`: the last line of the traceback of `error` in the plug-in's `own` files (files,
    or folders ending in a separator: a library it called, json's decoder, raised further down);
    else the last line of the traceback."""
    frames = traceback.extract_tb(error.__traceback__)
    raised = ([frame for frame in frames if own and frame.filename.startswith(own)] or frames)[-1:]
    return f" ({raised[0].filename}:{raised[0].lineno})" if raised else ""


def _files_of(function: object) -> tuple[str, ...]:
    """The file of the module `function` is in, or the folders of its package (none when unknown)."""
    home = sys.modules.get(str(getattr(function, "__module__", "")).split(".")[0])
    folders = [os.path.join(folder, "") for folder in getattr(home, "__path__", ())]
    return tuple(folders or filter(None, [getattr(home, "__file__", None)]))


def said(error: BaseException, message: str | None = None) -> str:
    """An exception by its type and its message (or `message`, what is said of it instead), if it
    has one (`assert` raises one without)."""
    message = _shortened(str(error) if message is None else message)
    return f"{type(error).__name__}: {message}" if message else type(error).__name__


def _shortened(text: str) -> str:
    """A text on one line (its blanks and line breaks one space), cut after SHOWN characters."""
    text = " ".join(text.split())
    return text if len(text) <= SHOWN else text[:SHOWN] + "…"


def _warn(point: EntryPoint, why: str) -> None:
    package = f" of the package {_shortened(point.dist.name)}" if point.dist is not None else ""
    warn(
        f"the plug-in '{_shortened(point.name)} = {_shortened(point.value)}' ({point.group}){package} is left out: {why}"
    )


def warn(text: str) -> None:
    """One warning line on standard error about a plug-in."""
    print(f"lusoria: warning: {text}", file=sys.stderr)
