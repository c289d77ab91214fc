"""Everything that crosses the worker pool survives pickle (lusoria.workers.in_workers sends
records to workers and their results back): the record a worker takes, what the workers of
`validate` and `import` return, every type those hold, and every exception the library defines
(a worker's exception is raised again in the parent). The types are found, not listed: from the
type hints of what crosses, and from the library's modules. test_accelerator runs this file on
the sources too; the rest of the suite runs the build in use (compiled on CI)."""

import dataclasses
import importlib
import inspect
import pickle
import pkgutil
import typing

import pytest
from conftest import ROOT, built_in_formats
from hypothesis import given, settings
from hypothesis import strategies as st

from lusoria import accelerator
from lusoria.api import _verdict
from lusoria.archive.records_as_rows import record_rows
from lusoria.errors import LusoriaError
from lusoria.formats.common import SiteClaims
from lusoria.notation.reader import RecordText, SyntaxProblem
from lusoria.pipeline import records
from lusoria.validator.base import Claims
from lusoria.validator.tafl_board import RememberingPosition, TaflPosition
from lusoria.validator.tafl_continuations import LeftOut, UnwrittenPosition, unwritten_position


def library_modules() -> list:
    """Every module of the lusoria package and its subpackages (pyproject's package-dir), imported."""
    packages = [importlib.import_module(name) for name in accelerator.package_folders(ROOT)]
    return packages + [
        importlib.import_module(found.name)
        for package in packages
        for found in pkgutil.iter_modules(package.__path__, package.__name__ + ".")
    ]


def defined_exceptions() -> list[type[BaseException]]:
    """The exception classes the library's modules define."""
    return sorted(
        {
            value
            for module in library_modules()
            for value in vars(module).values()
            if isinstance(value, type) and issubclass(value, BaseException) and value.__module__.startswith("lusoria")
        },
        key=lambda kind: kind.__qualname__,
    )


def _classes_in(hint) -> typing.Iterator[type]:
    origin = typing.get_origin(hint)
    if origin is None:
        if isinstance(hint, type):
            yield hint
        return
    for argument in typing.get_args(hint):
        yield from _classes_in(argument)


IMPLEMENTED = {Claims: [SiteClaims]}  # a protocol a field names: the classes that cross in its place
st.register_type_strategy(Claims, st.one_of(*(st.from_type(kind) for kind in IMPLEMENTED[Claims])))


def crossing_types() -> list[type]:
    """The library's classes a value sent to or from a worker may hold: from RecordText (what a
    worker takes) and the results of the workers' functions, through their fields' type hints."""
    seen: set[type] = set()
    waiting = [
        RecordText,
        *(found for work in (_verdict, record_rows) for found in _classes_in(typing.get_type_hints(work)["return"])),
    ]
    while waiting:
        kind = waiting.pop()
        if kind in seen or not kind.__module__.startswith("lusoria"):
            continue
        if kind in IMPLEMENTED:
            waiting += IMPLEMENTED[kind]
            continue
        seen.add(kind)
        fields = typing.get_type_hints(kind) if dataclasses.is_dataclass(kind) or hasattr(kind, "_fields") else {}
        waiting += [found for hint in fields.values() for found in _classes_in(hint)]
    return sorted(seen, key=lambda kind: kind.__qualname__)


def _held(kind: type[BaseException]) -> list[type]:
    """The classes an exception's `__init__` takes (none for an exception that defines none)."""
    init = kind.__init__
    hints = typing.get_type_hints(init) if hasattr(init, "__annotations__") else {}
    return [found for name, hint in hints.items() if name != "return" for found in _classes_in(hint)]


def round_trip(value):
    return pickle.loads(pickle.dumps(value))


PLAIN = (str, bytes, int, float, bool, type(None), type)


UNSET = "(unset)"


def attribute_names(value) -> list[str]:
    """The names of a value's attributes: compiled, those mypyc lists; else its `__dict__`'s and its slots."""
    kind = type(value)
    slots = [cls.__dict__.get("__slots__", ()) for cls in kind.__mro__]
    names = getattr(kind, "__mypyc_attrs__", None) or [
        *getattr(value, "__dict__", ()),
        *(name for held in slots for name in ([held] if isinstance(held, str) else held)),
    ]
    return sorted(set(names) - {"__dict__", "__weakref__"})


def state(value) -> object:
    """Everything a value holds, as plain hashable data (its type, and its attributes, or else what
    pickle would keep of it), to compare a value with its round trip. Its attributes, where it has
    them, not what its `__reduce__` keeps: a value and its round trip reduced alike though the
    reduction dropped an attribute (`Ply.__reduce__` without `self.width`, found by mutation)."""
    if isinstance(value, PLAIN):
        return value
    if type(value) in (list, tuple):
        return type(value), tuple(state(item) for item in value)
    if type(value) in (set, frozenset):
        return type(value), frozenset(state(item) for item in value)
    if type(value) is dict:
        return dict, tuple((state(key), state(item)) for key, item in value.items())
    if names := attribute_names(value):
        return type(value), tuple((name, state(getattr(value, name, UNSET))) for name in names)
    parts = value.__reduce_ex__(4)[1:]
    return type(value), tuple(state(list(part) if hasattr(part, "__next__") else part) for part in parts)


def test_what_every_reader_makes_survives_pickle_in_the_build_in_use():
    """Values made by reading every fixture of every format and the samples (valid and broken):
    what a worker takes and what the workers of validate and import return. (The compiled
    classes keep no type hints to draw values from: this is how the compiled build is checked.)"""
    sources = [
        item
        for item in records([str(ROOT / "tests" / "fixtures" / "formats"), str(ROOT / "samples")])
        if isinstance(item, RecordText)
    ]
    assert {source.format for source in sources} == built_in_formats()  # every format lusoria reads
    assert any(isinstance(source.parsed, SyntaxProblem) for source in sources)
    for source in sources:
        for value in (source, _verdict(source), record_rows(source)):
            assert state(round_trip(value)) == state(value)


def drawn_types() -> None:
    """Skip where the classes' type hints are lost (compiled: they read `type`, `list`)."""
    if accelerator.compiled():
        pytest.skip(
            "compiled classes keep no type hints to draw values from; the pure-Python run "
            "of this file (test_accelerator) draws them"
        )


def test_the_types_that_cross_are_found():
    """The walk reaches the record model and the problems a reader of another format attaches."""
    drawn_types()
    names = {kind.__name__ for kind in crossing_types()}
    assert {"RecordText", "Record", "Line", "Ply", "SyntaxProblem", "Verdict", "Diagnostic", "Rows", "Failure"} <= names


def every_argument(kind: type) -> st.SearchStrategy:
    """Values of `kind` with its optional arguments drawn too: `from_type` leaves them at their
    defaults, where a field its pickling dropped (`Ply.__reduce__` without `self.width`) went unseen."""
    optional = [name for name, given in inspect.signature(kind).parameters.items() if given.default is not given.empty]
    return st.builds(kind, **dict.fromkeys(optional, ...))


@pytest.mark.parametrize("kind", crossing_types(), ids=lambda kind: kind.__name__)
@given(data=st.data())
@settings(max_examples=10)  # a type's values round-trip alike: 10 drawn a type suffice
def test_every_type_that_crosses_the_pool_survives_pickle(kind, data):
    drawn_types()
    value = data.draw(every_argument(kind))
    restored = round_trip(value)
    assert type(restored) is kind
    assert state(restored) == state(value)  # every attribute, place and nested value alike


def test_every_exception_of_the_library_is_a_lusoria_error():
    """An error a caller may catch is a LusoriaError; what is no error (the command line's way out on
    SIGTERM, a KeyboardInterrupt or a SystemExit, which `except Exception` lets pass) is the CLI's alone."""
    assert len(defined_exceptions()) >= 10
    assert [
        kind for kind in defined_exceptions() if issubclass(kind, Exception) and not issubclass(kind, LusoriaError)
    ] == []
    assert [(kind.__module__, kind.__bases__) for kind in defined_exceptions() if not issubclass(kind, Exception)] == [
        ("lusoria.cli", (SystemExit,)),
        ("lusoria.cli", (KeyboardInterrupt,)),
    ]


@pytest.mark.parametrize("kind", defined_exceptions(), ids=lambda kind: kind.__name__)
@given(data=st.data())
@settings(max_examples=10)
def test_every_exception_of_the_library_survives_pickle(kind, data):
    if any(found.__module__.startswith("lusoria") for found in _held(kind)):
        drawn_types()  # (Unreplayable's Diagnostic: compiled, its `ply` reads `type`, drawn as any class)
    error = data.draw(st.builds(kind))
    restored = round_trip(error)
    assert type(restored) is kind
    assert (restored.args, vars(restored), str(restored)) == (error.args, vars(error), str(error))


def test_a_tafl_position_keeps_its_history_and_its_unwritten_continuations_through_pickle():
    """A position of a variant whose records leave out berserk continuations, made with
    RememberingPosition's constructor and pickled as the call that makes it: equal to the plain
    position, with every field it holds."""
    earlier, twice = frozenset({TaflPosition(b"ab", 0)}), frozenset({TaflPosition(b"cd", 1)})
    said = frozenset({LeftOut(6, "after d2-d3xe3: d3-f3")})
    position = unwritten_position(RememberingPosition(b"xy", 1, earlier, twice, 5), (), b"yx", (), ("d3-f3",), 7, said)
    restored = round_trip(position)
    assert type(restored) is UnwrittenPosition and restored == TaflPosition(b"xy", 1)
    fields = ("earlier", "twice", "berserker", "others", "before", "captures", "written", "plies", "said")
    assert [getattr(restored, name) for name in fields] == [earlier, twice, -1, (), b"yx", (), ("d3-f3",), 7, said]
    assert state(restored) == state(position)


def test_a_ply_keeps_the_width_its_reader_placed_it_over():
    """A log's ply covers its words (`e3 to e2`, Ply.width): a worker's record kept it, or the caret
    under it shrank to its text's."""
    from lusoria.notation.model import Ply

    assert pickle.loads(pickle.dumps(Ply("e3-e2", 17, 25, width=8))).width == 8
