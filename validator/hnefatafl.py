"""Every other tafl game (RULES.md, "Every other tafl game"; docs/rules.md G1–G16): one game
whose variants are the entries of the catalogue of tafl game types (`tafl_variants.toml` beside
this module), each described by an OpenTafl rules record (validator/tafl_rules.py) and played by
the tafl engine (validator/tafl.py). Adding a tafl game is adding an entry to the catalogue.

An entry is `[[variant]]` with `name` (the Variant tag's value), `title`, and either `rules` (an
OTN rules record: a variant of this game) or `game` (a built-in game that plays the type, with its
`variant` and `options`); `aagenielsen` and `aagenielsen_ids` (the site's type names and keys),
`opentafl` (OpenTafl's names of it), `sources` and `notes`; `layout_of` (an earlier entry's name)
makes the entry another starting layout of that one (the same rules but `start`), which the
site's games of its types were also played from. `catalogue()` reads and checks it, then a user's own
catalogue of such entries (`users_catalogue()`), which every command reads beside it."""

from __future__ import annotations

import os
import re
import tomllib
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache, partial
from importlib.resources import files
from importlib.resources.abc import Traversable
from pathlib import Path
from types import MappingProxyType
from typing import Any, NamedTuple, Self

from lusoria.errors import CatalogueError
from lusoria.settings import settings_folder
from lusoria.validator.base import Game, OptionError, Presets, Same, TagProblems, VariantNotes
from lusoria.validator.suggest import Name
from lusoria.validator.tafl import TaflGame
from lusoria.validator.tafl_board import TaflBoard, TaflPosition
from lusoria.validator.tafl_rules import (
    KEYS,
    MAX_SIZE,
    MIN_SIZE,
    OPEN,
    RegionRefused,
    board_of,
    described_board,
    described_settings,
    idle,
    normalized,
    read_record,
    refusal,
)
from lusoria.validator.tafl_settings import RuleIds, Settings
from lusoria.words import plural, reason

CATALOGUE: Traversable | Path = files("lusoria.validator") / "tafl_variants.toml"
USERS_CATALOGUE = "LUSORIA_CATALOGUE"  # the environment variable that names a user's own catalogue
IDS = RuleIds(
    turn="G2",
    move="G3",
    restricted="G4",
    capture="G5",
    king="G7",
    escape="G8",
    captured="G7",
    announcement="G3",
    no_move="G11",
    camp="G4",
    camp_capture="G5",
    repetition="G12",
    shieldwall="G6",
    fort="G9",
    encirclement="G10",
    jump="G14",
    berserk="G15",
    unwritten="G16",
    start="G1",
)  # no announcements nor camps: their IDs are never cited
SET_BY_THE_VARIANT = ("dim", "start")  # the board and the start: the variant's, never a Rules tag's
_HEADER = re.compile(r"\s*\[\[\s*variant\s*\]\]\s*(?:#.*)?$")  # an entry's header, as TOML allows it written
_NAME = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")
NAME = "hnefatafl"  # the generic game's name (its Game tag)
TITLE = "Hnefatafl"  # the generic game's name in messages ("a Hnefatafl game has one" king)


@dataclass(frozen=True)
class Variant:
    """One entry of the catalogue: a tafl game type."""

    name: str
    title: str
    rules: str = ""  # an OTN rules record ("" when a built-in game plays it)
    game: str = ""  # the built-in game that plays it
    variant: str = ""  # that game's Variant
    options: str = ""  # that game's Rules
    aagenielsen: tuple[str, ...] = ()
    aagenielsen_ids: tuple[int, ...] = ()
    opentafl: tuple[str, ...] = ()
    sources: str = ""
    notes: str = ""
    refused: str = ""  # why its records are refused (rules not known well enough to check them)
    layout_of: str = ""  # the entry this one is another starting layout of

    def tags(self) -> dict[str, str]:
        """The tags that choose this type's rules."""
        if not self.game:
            return {"Game": Hnefatafl.name, "Variant": self.name}
        return {
            "Game": self.game,
            **({"Variant": self.variant} if self.variant else {}),
            **({"Rules": self.options} if self.options else {}),
        }


FIELDS = {
    "name": str,
    "title": str,
    "rules": str,
    "game": str,
    "variant": str,
    "options": str,
    "aagenielsen": list,
    "aagenielsen_ids": list,
    "opentafl": list,
    "sources": str,
    "notes": str,
    "refused": str,
    "layout_of": str,
}
ITEMS = {"aagenielsen": str, "aagenielsen_ids": int, "opentafl": str}


def load(
    path: Traversable | Path, before: tuple[Variant, ...] = (), taken: Mapping[str, str] = MappingProxyType({})
) -> tuple[Variant, ...]:
    """The entries of a catalogue file, checked, also against the entries `before` it (a user's
    own catalogue: against lusoria's) and the names `taken` (what each names: `games_names`):
    CatalogueError naming the file, the entry (the line of its `[[variant]]`, its number and name)
    and what is wrong, at the first problem."""
    try:
        raw = path.read_bytes()
        text = raw.decode("utf-8")
        data = tomllib.loads(text)
    except OSError as error:
        raise CatalogueError(f"{path}: cannot be read: {reason(error)}") from None
    except UnicodeDecodeError as error:
        number = raw[: error.start].count(b"\n") + 1
        raise CatalogueError(f"{path}: byte {error.start} (line {number}) is not valid utf-8") from None
    except tomllib.TOMLDecodeError as error:
        raise CatalogueError(f"{path}: not TOML: {error}") from None
    headers = [number for number, line in enumerate(text.splitlines(), 1) if _HEADER.match(line)]
    if set(data) - {"variant"} or not isinstance(data.get("variant", []), list):
        raise CatalogueError(f"{path}: a catalogue holds [[variant]] entries only")
    found: list[Variant] = []
    names = {**taken, **{variant.name: "an entry of lusoria's catalogue: choose another" for variant in before}}
    keys = {key: variant.name for variant in before for key in variant.aagenielsen_ids}
    for number, entry in enumerate(data.get("variant", []), 1):
        name = entry.get("name") if isinstance(entry.get("name"), str) else None
        line = f":{headers[number - 1]}" if len(headers) == len(data.get("variant", [])) else ""  # (headers as written)
        where = f"{path}{line}: variant {number}" + (f" ({name})" if name else "")
        found.append(_entry(entry, where))
        variant = found[-1]
        if variant.name in names:
            raise CatalogueError(f"{where}: the name {variant.name} is given to {names[variant.name]}")
        names[variant.name] = "an earlier entry"
        for key in variant.aagenielsen_ids:  # (two of the site's types share a name: "Tyr 13x13")
            if key in keys:
                raise CatalogueError(f"{where}: aagenielsen type key {key} is already {keys[key]}'s")
            keys[key] = variant.name
        if variant.layout_of:
            _check_layout(variant, {earlier.name: earlier for earlier in (*before, *found[:-1])}, where)
    return tuple(found)


def games_names() -> dict[str, str]:
    """The names of lusoria's games, and of the other games' variants, that no entry of a user's
    own catalogue may take (a Variant tag would name two variants), with what each names. (No
    plug-in's: this game's presets are being read, which a plug-in's module may import.)"""
    from lusoria.validator.games import GAMES  # (the registry imports this module)

    taken = {}
    for game in GAMES.built_in:
        taken[game] = f"the game {game}: choose another"
        if game != NAME:
            for variant in GAMES[game].presets:
                forms = variant.forms if isinstance(variant, Name) else ()  # a Name's other forms (`duces`: dux)
                for name in (variant, *forms):
                    taken.setdefault(name.lower(), f"{game}'s variant {variant}: choose another ({variant}-club, say)")
    return taken


def _check_layout(variant: Variant, earlier: dict[str, Variant], where: str) -> None:
    """An entry that is another layout of an earlier entry (`layout_of`): that entry's rules but
    its start, and no type of the sites of its own (the earlier entry's types name it)."""
    main = earlier.get(variant.layout_of)
    if main is None or main.layout_of or not main.rules:
        raise CatalogueError(f"{where}: layout_of names no earlier entry with rules that is no layout itself")
    if variant.aagenielsen or variant.aagenielsen_ids:
        raise CatalogueError(f"{where}: a layout of {main.name} is read for {main.name}'s aagenielsen types only")
    ours, theirs = read_record(variant.rules), read_record(main.rules)
    differing = sorted(key for key in ours.keys() | theirs.keys() if ours.get(key) != theirs.get(key))
    if differing != ["start"]:
        raise CatalogueError(
            f"{where}: a layout of {main.name} has its rules but start (differs in {', '.join(differing) or 'nothing'})"
        )


def _entry(entry: dict, where: str) -> Variant:
    """One entry, its fields checked."""
    for key, value in entry.items():
        if key not in FIELDS:
            raise CatalogueError(f"{where}: unknown field {key} (known: {', '.join(FIELDS)})")
        if (
            not isinstance(value, FIELDS[key])
            or key in ITEMS
            and not all(isinstance(item, ITEMS[key]) and not isinstance(item, bool) for item in value)
        ):
            kind = f"a list of {ITEMS[key].__name__}" if key in ITEMS else "a string"
            raise CatalogueError(f"{where}: {key} is {kind}")
    for key in ("name", "title"):
        if not entry.get(key):
            raise CatalogueError(f"{where}: an entry needs a {key}")
    if not _NAME.fullmatch(entry["name"]):
        raise CatalogueError(f"{where}: a name is lower-case letters and digits joined by hyphens (fetlar-11x11)")
    if bool(entry.get("rules")) == bool(entry.get("game")):
        raise CatalogueError(f"{where}: an entry has either rules (an OTN rules record) or game (a built-in game)")
    if entry.get("rules") and (entry.get("variant") or entry.get("options")):
        raise CatalogueError(f"{where}: variant and options are a built-in game's: an entry with rules has none")
    if entry.get("rules"):
        _check_rules(entry["rules"], where)
    fields: dict[str, Any] = {key: tuple(value) if isinstance(value, list) else value for key, value in entry.items()}
    return Variant(**fields)


def _check_rules(rules: str, where: str) -> None:
    """An entry's OTN rules record: one lusoria reads, and that describes a game (a board of its
    size, one king, squares on the board), unless it asks for a mechanic the engine does not play
    (`refusal`: its records are refused by name)."""
    try:
        option = read_record(rules)
    except OptionError as problem:
        raise CatalogueError(f"{where}: rules, at '{problem.written}': {problem}") from None
    if refusal(option) is None:
        try:
            described_board(option, TITLE)
        except OptionError as problem:
            raise CatalogueError(f"{where}: rules: {problem}") from None


class Catalogues(NamedTuple):
    """lusoria's catalogue's entries, those of the user's own, and where that was looked for."""

    builtin: tuple[Variant, ...]
    users: tuple[Variant, ...]
    read_from: Path


@cache
def catalogues() -> Catalogues:
    """lusoria's catalogue's entries and those of the user's own (read once a process, from
    `users_catalogue` then; a worker process reads the same file, its environment being its
    parent's); an error in the user's says that the file is theirs to mend."""
    builtin, path = load(CATALOGUE), users_catalogue()
    if not os.environ.get(USERS_CATALOGUE) and not os.path.exists(path):  # (a settings folder that cannot be
        # searched holds none: h72b, `sudo -u` keeping HOME=/root, where Path.exists raised PermissionError)
        return Catalogues(builtin, (), path)
    try:
        return Catalogues(builtin, load(path, builtin, games_names()), path)
    except CatalogueError as error:
        origin = f"named by {USERS_CATALOGUE}" if os.environ.get(USERS_CATALOGUE) else "in your settings folder"
        error.advice = f"The file is your own catalogue of tafl variants ({origin}), not a record: mend it"
        raise


def catalogue() -> tuple[Variant, ...]:
    """Every entry: lusoria's, then the user's."""
    builtin, users, _ = catalogues()
    return builtin + users


def catalogue_moved() -> str:
    """What is said when LUSORIA_CATALOGUE names another file now than when the catalogues were read
    (a notebook's `os.environ` set after a first hnefatafl record): that this process keeps those
    read; "" when it names the same."""
    now, then = users_catalogue(), catalogues().read_from
    if now == then:
        return ""
    return (
        f"{USERS_CATALOGUE} names {now} now, but this process read your own catalogue once, when "
        f"{then} was it: a new process reads {now}"
    )


def users_catalogue() -> Path:
    """Where a user's own catalogue is: the file LUSORIA_CATALOGUE names, else `tafl_variants.toml`
    in lusoria's folder of the user's settings (lusoria/settings.py: ~/.config/lusoria on Linux)."""
    named = os.environ.get(USERS_CATALOGUE)
    return Path(named) if named else settings_folder() / CATALOGUE.name


def presets() -> Presets:
    """The variants of the generic game: the catalogue's entries that have rules and that lusoria
    plays, by name (`refusals`: the others), made once for the catalogues read (`Hnefatafl.presets`),
    read-only: every caller shares them."""
    return _presets(Same(catalogues()))


@lru_cache(maxsize=8)
def _presets(read: Same[Catalogues]) -> Presets:
    """`presets`, made once for the catalogues `read`."""
    return Presets(
        {
            variant.name: options
            for variant in read.held.builtin + read.held.users
            if variant.rules and not variant.refused and refusal(options := read_record(variant.rules)) is None
        }
    )


class PresetsRead:
    """`Hnefatafl.presets`, read with the catalogues: a user's catalogue read after the first record
    (`catalogues.cache_clear()`, a notebook's LUSORIA_CATALOGUE set later) is seen at once."""

    def __get__(self, instance: object, owner: type | None = None) -> Presets:
        return presets()


def refusals() -> dict[str, str]:
    """Why lusoria refuses the records of each entry whose rules it does not play, by name."""
    return {
        variant.name: f"{variant.title}: {variant.refused or refusal(read_record(variant.rules))}"
        for variant in catalogue()
        if variant.rules and variant.name not in Hnefatafl.presets
    }


def aagenielsen_types() -> dict[str, dict[str, str]]:
    """The tags of each aagenielsen.dk game type the catalogue knows, by its name as the files write
    it (a name two types share: the first entry's), and by that name, `#` and its AageGameTypeKey
    (`Tyr 13x13#172`), which tells such types apart; a type also played from other layouts (the
    entries `layout_of` its entry) also gives their tags, each by either name, `/` and its number
    from 2 on (`Sea battle tafl 13x13#34/2`): the reader chooses among them game by game."""
    found: dict[str, dict[str, str]] = {}
    entries = catalogue()
    for variant in entries:
        layouts = [variant, *(other for other in entries if other.layout_of == variant.name)]
        for kind in variant.aagenielsen:
            names = [kind, *(f"{kind}#{key}" for key in variant.aagenielsen_ids)]
            shared = kind in found  # a name two types share: the first entry's
            for name in names[1:] if shared else names:
                for number, layout in enumerate(layouts, 1):
                    found[name if number == 1 else f"{name}/{number}"] = layout.tags()
    return found


def opentafl_variants() -> dict[str, dict[str, str]]:
    """The tags of each OpenTafl variant the catalogue knows, by its name as OpenTafl writes it
    and its board's size (`Sea_Battle_(Parlett)#13`: OpenTafl calls two boards Tablut)."""
    from lusoria.validator.games import game_class  # (the registry imports this module)

    found: dict[str, dict[str, str]] = {}
    for variant in catalogue():
        game = game_class(variant.game or Hnefatafl.name)
        size = read_record(variant.rules)["dim"] if variant.rules else ""
        if not size and issubclass(game, TaflGame):
            size = str(game.board.size)
        for name in variant.opentafl:
            found.setdefault(f"{name}#{size}", variant.tags())
    return found


@lru_cache(maxsize=8)
def _variant_notes(presets: tuple[str, ...], read: Same[Catalogues]) -> dict[str, VariantNotes]:
    """`Hnefatafl.variant_notes` of a game of `presets`, made once for the catalogues `read` (an
    unknown Variant tag looks them up for every record)."""
    return {
        entry.name: VariantNotes(entry.title, entry.tags(), _names_elsewhere_of(entry), entry.sources, entry.notes)
        for entry in read.held.builtin + read.held.users
        if entry.game or entry.name in presets
    }


@lru_cache(maxsize=8)
def _names_elsewhere(read: Same[Catalogues]) -> dict[str, dict[str, str]]:
    """`Hnefatafl.names_elsewhere`, made once for the catalogues `read` (`catalogues.cache_clear()`
    reads them again, and these with them; not to change)."""
    return {**opentafl_variants(), **aagenielsen_types()}


def _names_elsewhere_of(entry: Variant) -> tuple[str, ...]:
    """The names aagenielsen.dk (with its AageGameTypeKeys) and OpenTafl give a catalogue entry, a line each;
    another layout of an entry says whose."""
    keys = f" (AageGameTypeKey {', '.join(map(str, entry.aagenielsen_ids))})" if entry.aagenielsen_ids else ""
    return (
        *([f"aagenielsen.dk: {'; '.join(entry.aagenielsen)}{keys}"] if entry.aagenielsen else []),
        *([f"OpenTafl: {'; '.join(entry.opentafl)}"] if entry.opentafl else []),
        *([f"another starting layout of {entry.layout_of}'s aagenielsen.dk types"] if entry.layout_of else []),
    )


BERSERK_MOVE = re.compile(r"K?[a-s][0-9]+=")  # a ply that continues its side's turn (G15)


class Hnefatafl(TaflGame):
    """The tafl game of a catalogue entry or of any OTN rules record: its options are the
    record's keys (`Rules "ks=w esc=e"` changes a variant's)."""

    name = NAME
    title = TITLE
    described = True  # its options are the keys of an OTN rules record (validator/tafl_rules.py)
    presets_listed_in = "lusoria explain hnefatafl"  # every variant of the catalogue, in every install
    options_listed_in = "docs/rules.md"
    end_rule = "G13"
    options = KEYS
    notation_options = {"berw": ("y", "n", "u")}  # how its records write berserk moves (validator/tafl_rules.py;
    # not `a`, under which a left-out continuation need not capture: another game)
    pieces = ("KPNCM", "pncm")  # OpenTafl's knights (N, n) and commanders (C, c) too (G14), and mercenaries (M, m)
    searched_as_presets = tuple(key for key in KEYS if key not in ("atkf", "ka", "ks", "sw", "efe", "surf", "tfr"))
    board: TaflBoard = board_of(
        {**{key: values[0] for key, values in KEYS.items()}, **next(iter(presets().values()))}, title
    )
    presets = PresetsRead()  # (a descriptor: the dict of the catalogues read)

    def __init__(self, options: dict[str, str] | None = None, variant: str | None = None) -> None:
        kept = {key: value for key, value in (options or {}).items() if value or key.lower() not in SET_BY_THE_VARIANT}
        super().__init__(kept, variant)  # (an empty dim or start: the variant's)
        self.board = self.settings.board
        if self.settings.berserk != "n":  # its records write berserk moves (G15): `d3=f3`
            self.continued = BERSERK_MOVE

    def settings_for(self, option: dict[str, str]) -> Settings:
        return described_settings(option, IDS, self.title)

    @classmethod
    def from_tags(cls, tags: dict[str, str]) -> Self:
        """As every game's; a region's square refused is said at it in the Rules tag that lists it
        (`RegionRefused.at_rules`)."""
        try:
            return super().from_tags(tags)
        except RegionRefused as refused:
            raise refused.at_rules(tags.get("Rules") or "") from None

    @classmethod
    def rules_tag_keys(cls) -> tuple[str, ...]:
        """All but the board and the start, which the variant sets (a Position tag starts elsewhere)."""
        return tuple(key for key in cls.options if key not in SET_BY_THE_VARIANT)

    def options_in_play(self) -> tuple[str, ...]:
        """All but the idle keys (validator/tafl_rules.py): the pieces and squares its start and board
        lack, a shieldwall's flank rule without shieldwall, how records write berserk moves without them."""
        unused = idle(self.option)
        return tuple(key for key in self.options if key not in unused)

    @classmethod
    def names_elsewhere(cls) -> dict[str, dict[str, str]]:
        """The catalogue's: its aagenielsen.dk types and OpenTafl variants, by the names the formats read
        (the caller's to change: the table made once is not)."""
        return {name: dict(tags) for name, tags in _names_elsewhere(Same(catalogues())).items()}

    @classmethod
    def variant_notes(cls) -> dict[str, VariantNotes]:
        """The catalogue's entries that lusoria plays: its variants, and the types a built-in game
        plays (their tags are that game's), with their titles, names elsewhere, sources and notes."""
        return dict(_variant_notes(tuple(cls.presets), Same(catalogues())))

    @classmethod
    def variants_read(cls) -> tuple[object, ...]:
        """Its presets and the catalogues they were read from (read again: `catalogues.cache_clear()`)."""
        return cls.presets, catalogues()

    @classmethod
    def variants_read_from(cls) -> str:
        """The user's own catalogue: where it is, and how many entries it adds (and that the file
        LUSORIA_CATALOGUE names now is not read, when another was: `catalogue_moved`)."""
        (_, users, path), moved = catalogues(), catalogue_moved()
        if users or os.path.exists(path):  # (a settings folder that cannot be searched: review72)
            said = f"Your own catalogue: {plural(len(users), 'entry', 'entries')}, read from {path}"
        else:
            said = f"Your own catalogue: none (no file {path}, nor {USERS_CATALOGUE} naming one)"
        return f"{said}; {moved}" if moved else said

    @classmethod
    def unknown_variant(cls, variant: str, owners: Sequence[str] = (), written: str = "") -> OptionError:
        """As every game's, and when LUSORIA_CATALOGUE names another file now than the one read,
        that it is not read (`catalogue_moved`): the variant may be there."""
        problem = super().unknown_variant(variant, owners, written)
        if moved := catalogue_moved():
            return OptionError(f"{problem}; {moved}", problem.tag, problem.written, problem.at, problem.known)
        return problem

    @classmethod
    def options_from_tags(cls, tags: dict[str, str]) -> dict[str, str]:
        """As every game's (values in any case, each written one way: `cenp=KD`, read `kd`, is `dk`); the board
        and the start are the variant's (`dim`, `start`: a Position tag starts elsewhere); a variant
        of the catalogue that lusoria does not play is refused by name, and none, by what it lacks."""
        variant = (tags.get("Variant") or "").lower()
        problems = TagProblems()
        if not variant:  # (its first variant's board is no default)
            problems.add(
                OptionError(
                    f"{cls.name} describes its boards by its variants: name one (a Variant tag, --variant; "
                    f"{cls.presets_listed_in} lists its {len(cls.presets)}; lusoria rules FILE names those "
                    "its records fit)",
                    "Variant",
                )
            )
        elif variant not in cls.presets and variant in (refused := refusals()):
            problems.add(OptionError(refused[variant], "Variant", tags["Variant"]))
            tags = {key: value for key, value in tags.items() if key != "Variant"}  # (its Rules still read)
        chosen = problems.read(partial(super().options_from_tags, tags))
        problems.raise_any()
        return chosen or {}

    @classmethod
    def rules_entry(cls, item: re.Match[str]) -> tuple[str, str]:
        key, equals, _ = item[0].lower().partition("=")
        if key in SET_BY_THE_VARIANT:
            why = "the board and the start are the variant's"
            raise cls.unknown_key(key, item[0][: len(key)], item.start(), why)
        if key in cls.options and not equals:
            raise OptionError(f"rules key {key} needs a value ({key}=…)", "Rules", item[0], item.start())
        return super().rules_entry(item)

    @classmethod
    def option_value(cls, key: str, value: str) -> str:
        """As every game's, each value written one way (`cenp=KD`, read `kd`, is `dk`), as `normalized` writes it
        (a start, which a Rules tag cannot give, in its case: OTN's `t` is an attacker, `T` a defender); a value
        refused is said as written (`cens:tTK`)."""
        read = value if key == "start" else value.lower()
        try:
            return normalized(key, read)
        except OptionError as problem:
            said = str(problem).replace(f"{key}:{read}", f"{key}:{value}", 1)
            raise OptionError(said, "Rules", value, 0, cls.choices(key)) from None

    @classmethod
    def choices(cls, key: str) -> tuple[str, ...]:
        return () if key in OPEN else cls.options[key]

    @classmethod
    def known_values(cls, key: str) -> str:
        return "a value as an OTN rules record writes it" if key in OPEN else super().known_values(key)

    @classmethod
    def fits_pattern(cls, width: int, height: int) -> bool:
        return MIN_SIZE <= width == height <= MAX_SIZE

    @classmethod
    def rules_for_position(cls, text: str) -> Iterator[Game[TaflPosition]]:
        """The variants on a board of the position's size."""
        size = str(text.split()[0].count("/") + 1) if text.split() else ""
        return cls.of_variants(name for name, option in cls.presets.items() if option["dim"] == size)
