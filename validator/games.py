"""The registry of games: the one place that knows which games there are.

A game is its rules class (a `Game` subclass, validator/base.py), which names its
grammar (`Game.grammar`: `grammar/<name>.lark` unless it gives a path) and describes
its positions for drawing (`Game.diagram`). The reader, the slips, the editor's
completions, the replay driver, `random`, the pictures and the archive all ask here.
The built-in games are imported when first used (`validate` of one game's records loads no
other game's rules); a package outside lusoria adds a game through the `lusoria.games` entry
point (`name = "module:Class"`), and a program with `register`.
"""

from __future__ import annotations

import re
import shlex
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from functools import lru_cache
from importlib import import_module
from inspect import getattr_static
from types import TracebackType
from typing import Any, TypeVar, cast

from lusoria.errors import LusoriaError, Refused, UnknownName
from lusoria.plugins import FAILS, failure, loaded, said
from lusoria.validator.base import Game, OptionError, Presets, ReadOnly, Same, known_names, together
from lusoria.words import quoted

G = TypeVar("G", bound=Game[Any])
T = TypeVar("T")
U = TypeVar("U")

ENTRY_POINTS = "lusoria.games"  # a package's games: name = "module:Class"
_BUILT_IN = {
    "tablut": "lusoria.validator.tablut:Tablut",  # in the order docs/rules.md presents them
    "latrunculi": "lusoria.validator.latrunculi:Latrunculi",
    "laquet": "lusoria.validator.laquet:Laquet",
    "copenhagen": "lusoria.validator.copenhagen:Copenhagen",
    "brandubh": "lusoria.validator.brandubh:Brandubh",
    "hnefatafl": "lusoria.validator.hnefatafl:Hnefatafl",
}


class PlugInFailed(LusoriaError):
    """A plug-in's game that failed in lusoria's or lark's code, not its own (its grammar): the
    message names the game, as `Registry.failed_plug_in` says it."""


class Registry(Mapping[str, type[Game]]):
    """Game name (lower case) -> rules class. The built-in classes are imported on first use, those
    of the `lusoria.games` entry points (name -> `module:Class`) when a name is not found or every
    name is asked for (a broken one is left out, said in a warning: lusoria.plugins); `register`
    adds a class."""

    def __init__(self, built_in: dict[str, str], group: str = ENTRY_POINTS):
        self._built_in, self._group = built_in, group
        self._where = dict(built_in)  # name -> "module:Class", until loaded
        self._classes: dict[str, type[Game]] = {}
        self._found: dict[str, type[Game]] | None = None  # the entry points' games, once loaded

    def _find(self) -> dict[str, type[Game]]:
        """The games of the entry points (loaded once, one by one: lusoria.plugins); a built-in
        game keeps its name, and one named as a built-in game's variant is left out (`_hides`)."""
        if self._found is None:
            self._found = {}  # (asked again while they load, by a plug-in's module or a catalogue: none yet, no recursion)
            found = loaded(self._group, _is_game, "a Game class", self._built_in, named=_name_of, refused=self._refused)
            self._found = {name.lower(): read_only(cast("type[Game]", cls)) for name, cls in found.items()}
            for name, cls in self._found.items():
                self._classes.setdefault(name, cls)
        return self._found

    @property
    def names(self) -> tuple[str, ...]:
        """Every game's name, sorted."""
        self._find()
        return tuple(sorted({*self._where, *self._classes}))

    @property
    def built_in(self) -> tuple[str, ...]:
        """The names of lusoria's own games, in the order docs/rules.md presents them (no entry point read)."""
        return tuple(self._built_in)

    @property
    def in_page_order(self) -> tuple[str, ...]:
        """Every game's name: the built-in games in the order docs/rules.md presents them, then the
        others, sorted (the order `lusoria explain` lists their rules in)."""
        return (*self._built_in, *(name for name in self.names if name not in self._built_in))

    def __getitem__(self, name: str) -> type[Game]:
        name = name.lower()
        if name not in self._classes and name not in self._where:
            self._find()
        if name not in self._classes:
            if name not in self._where:
                raise UnknownName(f"unknown game {quoted(name)} ({known_names(name, self.names)})")
            module, _, attribute = self._where[name].partition(":")
            self._classes[name] = getattr(import_module(module), attribute)
        return self._classes[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self.names)

    def __len__(self) -> int:
        return len(self.names)

    def __contains__(self, name: object) -> bool:
        if not isinstance(name, str):
            return False
        name = name.lower()
        return name in self._classes or name in self._where or name in self._find()

    def register(self, cls: type[G]) -> type[G]:
        """Add a game (or replace the one of the same name); usable as a class decorator. ValueError
        for a class that is no game, whose name is not in lower case (the names it looks up), or is a
        built-in game's variant's (`copenhagen-11x11`, which the game would hide), or whose presets
        give a variant no options (`_unshared`)."""
        if not _is_game(cls):
            raise Refused(f"cannot register {cls!r}: it is not a Game class")
        if cls.name != cls.name.lower():
            raise Refused(f"cannot register {cls!r}: its name {cls.name!r} is not in lower case")
        if hidden := self._hides(cls):
            raise Refused(f"cannot register {cls!r}: {hidden}: choose another")
        if unshared := _unshared(cls):
            raise Refused(f"cannot register {cls!r}: {unshared}")
        self._where.pop(cls.name, None)
        self._classes[cls.name] = read_only(cls)
        return cls

    def _refused(self, cls: object) -> str | None:
        """Why an entry point's game is left out (`_hides`, `_unshared`); None when it is not."""
        return self._hides(cls) or _unshared(cls)

    def _hides(self, cls: object) -> str | None:
        """What is said of a game (`register`'s, an entry point's) named as a built-in game's variant (its
        catalogue's entries too: `variant_notes`), which it would hide; None for none (no variant is named
        as a game: the catalogues' check)."""
        name = _name_of(cls)
        holder = next((game for game in self._built_in if name in self[game].variant_notes()), None)
        if holder is None:
            return None
        return f"its name {quoted(name)} is {holder}'s variant, which a Variant tag naming it would no longer find"

    def unregister(self, name: str) -> None:
        """Remove a game that `register` added (a built-in game, or an entry point's, that it
        replaced comes back)."""
        self._classes.pop(name, None)
        if name in self._built_in:
            self._where[name] = self._built_in[name]
        elif name in (self._found or {}):
            self._classes[name] = (self._found or {})[name]

    def failed_plug_in(self, error: BaseException) -> str | None:
        """What a plug-in's game (a registered class, or an entry point's, not lusoria's) whose code
        `error` was raised in says: the game, its function that lusoria called, the error and where
        it was raised (`plugins.failure`); None when no plug-in's code raised it, or it is out of memory
        (too large: as from any game)."""
        if isinstance(error, MemoryError):
            return None
        if isinstance(error, PlugInFailed):
            return str(error)
        registered = list(self._classes.values())
        owners = [cls for cls in _owners(error.__traceback__) if cls in registered]
        for cls in dict.fromkeys(owners + registered):  # the game whose method raised first: two may share files
            if called := _first_frame_in(error.__traceback__, files := _files_of(cls)):
                function = getattr(cls, called, cls)
                return f"the {cls.name} game failed: {failure(function, error, files)}"
        return None

    def naming(self, function: Callable[[T], U]) -> Callable[[T], U]:
        """`function`, whose failure in a plug-in's game (its sys.exit() too) is raised as PlugInFailed,
        which names it (`failed_plug_in`), where its traceback is whole: a worker process's error
        reaches the command without it (said as lusoria's bug; a sys.exit() as the worker killed)."""

        def named(item: T) -> U:
            try:
                return function(item)
            except FAILS as error:
                if said := self.failed_plug_in(error):
                    raise PlugInFailed(said) from error
                raise

        return named

    @contextmanager
    def building_grammar(self, name: str, placed: Callable[[str, BaseException], str] | None = None) -> Iterator[None]:
        """Around reading and building the grammar of the game `name`: what fails there for a
        plug-in's game (its file missing, lark's GrammarError) is raised as PlugInFailed naming the
        game and the file (and what `placed` says of the error in the file: `file:line:column: …`),
        since no frame of the plug-in's is in the traceback for `failed_plug_in` to find; a built-in
        game's failure (lusoria's bug) or one in the plug-in's code is raised as it is."""
        try:
            yield
        except FAILS as error:
            cls = self[name]
            if (
                isinstance(error, MemoryError)
                or _is_lusorias(cls)
                or _first_frame_in(error.__traceback__, _files_of(cls))
            ):
                raise
            file = str(cls.grammar_file())
            grammar = placed(file, error) if placed else f"{file}: {said(error)}"
            raise PlugInFailed(f"the {cls.name} game failed: its grammar {grammar}") from error


def _files_of(cls: type[Game]) -> set[str]:
    """The files of a game's class and of its bases up to the first of lusoria's (none for lusoria's
    game): their modules', or, of a module without a file (a notebook's cell, a text exec ran), those
    their functions were compiled from (`<cell 3>`, `<string>`: not of a class in a file, whose
    functions a dataclass or a decorator wrote elsewhere, as lusoria's own dataclasses are)."""
    files: set[str] = set()
    for base in cls.__mro__:
        if _is_lusorias(base):
            break
        module_file = getattr(sys.modules.get(base.__module__), "__file__", None)
        files.update([module_file] if module_file else _compiled_from(base))
    return files - {""}


def _is_lusorias(cls: type) -> bool:
    return cls.__module__.split(".")[0] == "lusoria"


def _compiled_from(cls: type) -> set[str]:
    """The files the functions a class defines (methods, class and static methods, properties) were compiled from."""
    functions = (
        getattr(value, "__func__", None) or getattr(value, "fget", None) or value for value in vars(cls).values()
    )
    return {function.__code__.co_filename for function in functions if hasattr(function, "__code__")}


def _owners(traceback: TracebackType | None) -> list[type]:
    """The classes whose methods the frames of `traceback` run, outermost first: a frame's `cls`, or
    its `self`'s class."""
    owners = []
    while traceback is not None:
        local = traceback.tb_frame.f_locals
        owner = local.get("cls", type(local["self"]) if "self" in local else None)
        if isinstance(owner, type):
            owners.append(owner)
        traceback = traceback.tb_next
    return owners


def _first_frame_in(traceback: TracebackType | None, files: set[str]) -> str | None:
    """The name of the function of the first frame of `traceback` that runs code of `files`."""
    while traceback is not None:
        if traceback.tb_frame.f_code.co_filename in files:
            return traceback.tb_frame.f_code.co_name
        traceback = traceback.tb_next
    return None


def read_only(cls: type[G]) -> type[G]:
    """A plug-in's game whose presets or letters are plain dicts (every caller shares them) with them
    read-only, as lusoria's games hold theirs (`Presets`, `ReadOnly`); read through a descriptor
    (Hnefatafl's presets), they stay as it gives them. Its presets give each variant options (`_unshared`)."""
    for name, shared in (("presets", Presets), ("letters", ReadOnly)):
        held = getattr_static(cls, name, None)
        if isinstance(held, dict) and not isinstance(held, shared):
            setattr(cls, name, shared(held))
    return cls


def _unshared(cls: object) -> str | None:
    """Why a game's plain dict of presets cannot be made read-only (`read_only`): a variant it gives
    no options (a mapping of them: `Game.presets`); None when none."""
    presets = getattr_static(cls, "presets", None)
    if isinstance(presets, dict):
        for variant, options in presets.items():
            if not isinstance(options, Mapping):
                return f"its presets give the variant {quoted(str(variant))} a {type(options).__name__}, not a dict of its options"
    return None


def _is_game(value: object) -> bool:
    return isinstance(value, type) and issubclass(value, Game)


def _name_of(game: object) -> str:
    """The name a game's class gives itself, which its records' Game tag writes."""
    return getattr(game, "name", "")


GAMES = Registry(_BUILT_IN)
register = GAMES.register


NAMED_TAGS = ("Game", "Variant")  # the tags that name what `name_given` takes


def name_given(name: str) -> str:
    """A game's, variant's or player's name, or another value matched whole (an event, a site, a
    rule's ID), as lusoria takes it from its user (an option, a library call's argument: `--variant
    ' Seed '`, `--player ' Jens Holm '`, a quoting slip): without the spaces around it. A record's tag
    is read as it is written (`[Game " tablut "]`: an error at its place)."""
    return name.strip()


def game_class(name: str) -> type[Game]:
    """The rules class of a game, by name in any case; KeyError if no game has that name."""
    return GAMES[name]


def known_games() -> tuple[str, ...]:
    """The names of the games there are, sorted."""
    return GAMES.names


def owners_of(variant: str) -> list[str]:
    """The games that have the preset `variant` (in any case), by name."""
    return [name for name, game in GAMES.items() if variant.lower() in game.presets]


NUMBERED = re.compile(r"#[0-9]+$")  # a format's name of a game told apart by a number: OpenTafl's `Tablut#15`


def looked_up(name: str) -> str:
    """A name as names are looked up: in any case, its × an x (`Tyr 15×15`, as `explain` titles it, is `tyr 15x15`)."""
    return name.strip().lower().replace("×", "x")


def names_elsewhere(also: Iterable[Mapping[str, Mapping[str, str]]] = ()) -> Iterator[tuple[str, Mapping[str, str]]]:
    """Each name that other programs' files give a variant, as they write it, with the tags that choose
    that variant: the games' (`Game.names_elsewhere`), then those of `also` (a plug-in format's names)."""
    yield from _names_of((*(game.names_elsewhere() for game in GAMES.values()), *also))


def named_elsewhere(written: str, also: Iterable[Mapping[str, Mapping[str, str]]] = ()) -> list[dict[str, str]]:
    """The tags of each variant that other programs' files call `written` (`names_elsewhere`, of the
    games and `also`; as `looked_up`, with or without the number that tells two apart: `Tyr 13x13#172`), each once."""
    key = looked_up(written)
    found = [*_games_names().get(key, []), *_by_name(_names_of(also)).get(key, [])]
    return [dict(tags) for tags in dict.fromkeys(tuple(tags.items()) for tags in found)]


def _names_of(names: Iterable[Mapping[str, Mapping[str, str]]]) -> Iterator[tuple[str, Mapping[str, str]]]:
    """Each name of `names` (a game's or a plug-in format's `names_elsewhere`) with the tags it chooses."""
    for each in names:
        yield from each.items()


def made_once(build: Callable[[], T]) -> Callable[[], T]:
    """`build`, a table of every game's variants, made once for the games registered and what their
    variants are made of (`Game.variants_read`): again when a game is registered, or a catalogue read
    again. The table is shared by every call: not to be changed."""
    cached = lru_cache(maxsize=8)(lambda games, read: build())

    def made() -> T:
        games = tuple(GAMES.values())
        return cached(games, tuple(Same(part) for game in games for part in game.variants_read()))

    return made


@made_once
def _games_names() -> dict[str, list[Mapping[str, str]]]:
    """`_by_name` of the games' `names_elsewhere` (an unknown Variant tag looks them up for every
    record: thousands of names, read once)."""
    return _by_name(_names_of(game.names_elsewhere() for game in GAMES.values()))


def _by_name(names: Iterable[tuple[str, Mapping[str, str]]]) -> dict[str, list[Mapping[str, str]]]:
    """The tags of `names`, in order, by each name `looked_up`, with and without its number."""
    found: dict[str, list[Mapping[str, str]]] = {}
    for name, tags in names:
        for key in dict.fromkeys((looked_up(name), looked_up(NUMBERED.sub("", name)))):
            found.setdefault(key, []).append(tags)
    return found


def variant_named(game: type[Game], written: str) -> dict[str, str] | None:
    """The tags that choose the one variant of `game` that other programs' files call `written`
    (`[Game "hnefatafl"] [Variant "Fetlar"]`: OpenTafl's, opentafl-fetlar-11x11); None when
    `written` is a variant of its own, or names none of its, or several. A Variant that names the game
    itself (`[Game "brandubh"] [Variant "Brandubh"]`, as OpenTafl writes `Copenhagen`) chooses its
    default variant, the first; of a game whose boards are its variants (hnefatafl: no default), none."""
    if written.lower() in game.presets:
        return None
    if looked_up(written) == game.name:
        return None if game.described else {"Game": game.name, "Variant": next(iter(game.presets))}
    found = [tags for tags in named_elsewhere(written) if tags["Game"] == game.name]
    return found[0] if len(found) == 1 else None


def with_variant(tags: Mapping[str, str], named: Mapping[str, str]) -> dict[str, str]:
    """`tags` whose Variant is the one `named` (the tags of a variant: `variant_named`) chooses: its
    Game and Variant, and its Rules before those `tags` give (saami-tablut-w: Tablut's aage, `first=white`)."""
    rules = " ".join(filter(None, (named.get("Rules"), tags.get("Rules"))))
    others = {tag: value for tag, value in tags.items() if tag not in ("Game", "Variant", "Rules")}
    return {**named, **others, **({"Rules": rules} if rules else {})}


GAME_NAMED = 'name it as the game ([Game "{0}"], --game {0})'  # a game named as a variant: how a record, a command do
GAME_OPTION = "--game {0}"  # ... how a command does (a filter's, as `query`'s)
GAME_LISTED = "lusoria explain {0} lists them"  # a game's own name given as its variant: where its variants are


def rules_from_tags(game: type[G], tags: dict[str, str], naming: str = GAME_NAMED) -> G:
    """`game.from_tags(tags)`, its Variant by its own name or by the name other programs' files give
    it (`variant_named`); an unknown variant's OptionError also names the games that have it (a
    record's Variant tag, --variant: `[Variant "fetlar"]` is Copenhagen's, not Tablut's), or, a game's
    name, how to name that game (`naming`: the explorer's `?game=`)."""
    named = variant_named(game, tags["Variant"]) if tags.get("Variant") else None
    try:
        return game.from_tags(with_variant(tags, named) if named else tags)
    except OptionError as problem:
        raise together([_with_owners(each, game, tags, naming) for each in problem.each()]) from None


def _with_owners(problem: OptionError, game: type[Game], tags: dict[str, str], naming: str) -> OptionError:
    """A problem of the Variant tag that also names the games that have its variant, or the variants
    of other games or of `game` that other programs' files call so (`Tyr 13x13`: name one), when
    `game` has it not (a problem of its own variant under its Rules names none); or, when it names another
    game, that it is one (`game_named`), and `naming` of it."""
    variant = tags.get("Variant", "")
    if problem.tag != "Variant" or variant.strip().lower() in game.presets:  # (`linnaeus `: a blank's slip)
        return problem
    named = named_elsewhere(variant)
    if len(own := [tags["Variant"] for tags in named if tags["Game"] == game.name]) > 1:
        return OptionError(named_by_several(variant, own), "Variant", variant, 0, tuple(own))
    elsewhere = [] if looked_up(variant) in GAMES else named  # (a game's name, `copenhagen`, is no other game's)
    others = owners_of(variant) or list(dict.fromkeys(tags["Game"] for tags in elsewhere))
    if others:
        return game.unknown_variant(variant, others)
    written = _entry_tags(variant)
    if written is not None:
        return game.unknown_variant(variant, written=tags_line(written))
    said = game_named(variant, naming, game.name)
    return OptionError(f"{problem}{said}", problem.tag, problem.written, problem.at, problem.known) if said else problem


def game_named(name: str, naming: str = GAME_OPTION, own: str = "", listed: str = GAME_LISTED) -> str:
    """What is said of a game's name given as a variant's (`--variant brandubh`, `[Variant "copenhagen"]`):
    that it is a game, and `naming` of it, how to name it so; of `own`, the game named, that it is the game
    itself and `listed` of it (where its variants are listed); "" for another name."""
    game = looked_up(name)
    if game == own:  # (a record's Variant of a game of a default variant reads as it: `variant_named`; a filter not)
        return f"; {game} is the game itself, not one of its variants: {listed.format(game)}"
    return f"; {game} is a game, not a variant: {naming.format(game)}" if game in GAMES else ""


def _entry_tags(variant: str) -> dict[str, str] | None:
    """The tags that choose the variant a game's notes name `variant` (`Game.variant_notes`: a catalogue's
    entry that another game plays, `saami-tablut`, `lusoria explain`'s name; `game/variant`, as `explain`
    takes a name of several games': tablut/linnaeus); None when none does."""
    owner, slash, key = looked_up(variant).rpartition("/")
    found = (notes[key].tags for game in GAMES.values() if key in (notes := game.variant_notes()))
    return next((dict(tags) for tags in found if not slash or tags["Game"] == owner), None)


def tags_line(tags: Mapping[str, str]) -> str:
    """Tags as a record writes them, on one line: `[Game "tablut"] [Variant "aage"]`."""
    return " ".join(f'[{tag} "{value}"]' for tag, value in tags.items())


def options_line(tags: Mapping[str, str]) -> str:
    """Tags as the options that give them, quoted for a shell: `--game tablut --variant aage --rules first=white`."""
    return " ".join(f"--{tag.lower()} {shlex.quote(value)}" for tag, value in tags.items())


def variants_named(name: str) -> list[dict[str, str]]:
    """The tags of each variant a name names: each game's that has it, a catalogue's entry that another
    game plays (`_entry_tags`), and those other programs call so (`named_elsewhere`)."""
    chosen = [{"Game": game, "Variant": looked_up(name)} for game in owners_of(name)]
    return chosen + [tags for tags in (_entry_tags(name), *named_elsewhere(name)) if tags and tags not in chosen]


def variant_as_game(name: str, naming: Callable[[dict[str, str]], str] = tags_line) -> str:
    """What is said of a variant's name given as a game's (`[Game "linnaeus"]`, `--game "Copenhagen
    Hnefatafl 11x11"`): that it is a variant, and `naming` of the tags of each variant it names (as a
    record writes them, by default: `variants_named`); "" for a name of none, and for a game's with a blank about
    it (`tablut `: a slip of the game's)."""
    written = "" if name.strip().lower() in GAMES else " or ".join(map(naming, variants_named(name)))
    return f"; {name} is a variant, not a game: {written}" if written else ""


def named_by_several(written: str, named: list[str]) -> str:
    """What is said of a name that other programs give several variants (`named`): name one."""
    return f"other programs call several variants {quoted(written)}: name one ({' or '.join(named)})"


def any_game() -> str:
    """One built-in game's name, for what the grammars of all games share (common.lark's)."""
    return min(_BUILT_IN)
