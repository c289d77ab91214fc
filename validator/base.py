"""The one small interface every game's rules module implements, and the
values that pass through it."""

from __future__ import annotations

import itertools
import random
import re
import sys
from collections import Counter
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import cache, partial
from importlib.resources import files
from importlib.resources.abc import Traversable
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, ClassVar, Generic, NoReturn, Protocol, Self, TypeVar

from lusoria.errors import LusoriaError, Refused
from lusoria.validator.diagram import Diagram, Squares
from lusoria.validator.suggest import alike, meant, similarity
from lusoria.words import listed, quoted, times

if TYPE_CHECKING:  # (the notation's reader imports this module)
    from lusoria.notation.model import Ply, Record

Position = Hashable  # each game's positions are immutable values
P = TypeVar("P", bound=Hashable)  # one game's position type
T = TypeVar("T")
K = TypeVar("K")
V = TypeVar("V")

# What an archive counts of a position (archive/positions.py: material search), in this order;
# None where a game has no such count
MATERIAL = ("white", "black", "king", "white_inciti", "black_inciti", "white_off", "black_off")
MATERIAL_SUMS = {"inciti": ("white_inciti", "black_inciti")}  # and the sums of them it counts too: name -> theirs
Material = tuple[int | None, ...]
EMPTY_SQUARE = "."  # an empty square (or point) of a board spelled out one character a square
PIECE_BITS = 6  # the bits of Game.piece_bits: a square's bits fit one character of the archive (chr(48 + bits))

WHITE, BLACK = 0, 1
SIDE_NAMES = ("White", "Black")
RECORD_RULES = files("lusoria.validator") / "record.toml"  # the texts of the rules of a whole record, in
# any game (syntax, tag, result, number, plug-in), laid out as a game's `rule_texts`


class Illegal(LusoriaError):
    """A ply the rules forbid: the rule it breaks and why, in plain words; `occupied`, for a move
    onto a square that holds a piece, that square's name (the driver names the ply that put it there);
    `lost`, for a move from a square whose piece its side lost (none there, or an incitus), that
    square's name (the driver names the ply that captured, removed or moved it); `meant`, the ply the
    message itself says the source may have meant (a die misread: the plays written under the roll they
    fit), offered before the close legal plies; `passed`, as `Played.passed` says it."""

    def __init__(self, rule: str, message: str, occupied: str = "", lost: str = "", meant: str = ""):
        super().__init__(message)
        self.rule, self.message, self.occupied, self.lost, self.meant = rule, message, occupied, lost, meant

    passed = False  # (an instance's own where set: a subclass that skips this __init__ has it too)
    judged_at: object = None  # where `passed`, the position after the pass, where the driver looks for what was meant
    ended: Outcome | None = None  # where `passed`, how the pass ended the game (T13): the ply is one after the end
    continues_none = False  # where set, a ply written as continuing its side's turn (`d3=f3`) when no turn goes on:
    # numbered as a turn of its own (`Continued`: h75a, `a4-a3 f8=f10` said "move 1, Black")


class NotAPly(LusoriaError, ValueError):
    """Text handed to `Game.play` that is no ply of `game` (`lusoria.api.is_ply` says so too):
    the text, and `shape`, what a ply looks like."""

    def __init__(self, text: str, game: str, shape: str):
        super().__init__(f"{quoted(text)} is not a ply of {game}: {shape}")
        self.text = text


def check_capture_list(text: str, rule: str) -> None:
    """A written capture list (`x…`) names each square once: it must equal exactly what
    the move captures (NOTATION.md §4), so `xd3/d3` is Illegal under the capture `rule`."""
    written = re.findall(r"[a-s][0-9]+", text.partition("x")[2].partition("~")[0])
    repeated = [square for index, square in enumerate(written) if square in written[:index]]
    if repeated:
        raise Illegal(
            rule,
            f"the capture list names {' and '.join(dict.fromkeys(repeated))} more than once; "
            "each captured square is written once",
        )


_CAPTURED = re.compile(r"([A-Z]?)([a-s][0-9]+)")  # a captured square, perhaps with its piece's letter: d3, Kd3


def misnamed_captures(
    text: str,
    letter_on: Callable[[str], str],
    said_of: Callable[[str], str],
) -> tuple[str, set[str]] | None:
    """What a ply `text` whose capture list writes a square with a letter other than that of the piece
    captured there (`letter_on`: `xKd3` on a soldier) is told: each piece so misnamed, as `said_of` says
    it (`a soldier, not the king`), then the whole list to write, without letters or with each piece's
    own (`write xd3/f3, or xPd3/Pf3`; `write xd3` alone where the notation names no letter for any:
    `letter_on` says ""); and the letters of the pieces misnamed. None when each letter written is its
    piece's (a list may leave them out)."""
    written = _CAPTURED.findall(text.partition("x")[2].partition("~")[0])
    misnamed = [square for letter, square in written if letter and letter != letter_on(square)]
    if not misnamed:
        return None
    kinds: dict[str, list[str]] = {}  # the squares of each piece so misnamed, as `said_of` says it
    for square in misnamed:
        kinds.setdefault(said_of(square), []).append(square)
    said = "; ".join(
        f"the piece captured on {squares[0]} is {what}"
        if len(squares) == 1
        else f"the pieces captured on {listed(squares, len(squares))} are each {what}"
        for what, squares in kinds.items()
    )
    squares = [square for _, square in written]
    bare, lettered = "/".join(squares), "/".join(letter_on(square) + square for square in squares)
    write = f"write x{bare}" if lettered == bare else f"write x{bare}, or x{lettered}"
    return f"{said}: {write}", {letter_on(square) for square in misnamed}


class Claims(Protocol):
    """What a reader of another format read in a record's source of its main line that only a replay of
    it can check (RecordText.claims: formats/common.py's `SiteClaims`, the capture lists of the tafl
    sites). `check`'s replay asks it of each ply of the main line in turn, as the ply went (a ply that
    ended the game once the next shows how it went: `Played.earlier`), until it answers False."""

    def retried(self, rules: Game, position: Position, ply: Ply) -> Played | None:
        """Ply `ply`, illegal as written at `position`, as the source meant it, the ply mended with a
        note (a site's list that leaves out the captured king); None: it is illegal as the source meant it too."""
        ...

    def checked(
        self, rules: Game, index: int, position: Position, played: Played, record: Record
    ) -> tuple[str, str] | bool:
        """Ply `index` of `record`'s main line, `played` from `position`, against the claims: True when
        they hold (the record mended as the reader mends it, with a note: a king the list leaves out, the
        result the game ended with), (rule, message) for what the source gets wrong there, False for a
        claim the rules do not make (the replay says how, and the claims say no more of the line)."""
        ...


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a finished game ended."""

    result: str  # "1-0", "0-1" or "1/2-1/2"
    rule: str
    reason: str
    ending: str = ""  # the same in a few words that the archive keeps for every record of any game
    # (`king captured`, `no move`: one of its game's `endings`)


class Played(Generic[P]):
    """What applying one ply did. A game may give the canonical text as a function
    that writes it: it is written the first time it is read (`validate` never reads it).
    `earlier`: in a game whose records leave out plies (a tafl variant's berserk continuations,
    G16), a ply may show that the plies before it went otherwise than they were played: those
    plies as the line it was played on played them, the one before it last (the driver replaces
    their positions and canonical texts). `passed`: the other side's forced pass came before the ply, left
    out of the record (a tafl game's no-move=passes, T9): the driver numbers the ply as its own side's."""

    __slots__ = ("position", "_text", "outcome", "warnings", "earlier", "passed")

    def __init__(
        self,
        position: P,
        text: str | Callable[[], str],
        outcome: Outcome | None = None,
        warnings: list[tuple[str, str]] | None = None,
    ):
        self.position, self._text, self.outcome = position, text, outcome
        self.warnings = [] if warnings is None else warnings  # (rule, message)
        self.earlier: tuple[Played[P], ...] = ()
        self.passed = False

    @property
    def text(self) -> str:
        """The ply in canonical form, with all the rules force written out."""
        if not isinstance(self._text, str):
            self._text = self._text()
        return self._text


class Same(Generic[T]):
    """An object as part of a cache's key: the object itself, not its contents (a dict, unhashable;
    a catalogue, long to hash)."""

    __slots__ = ("held",)

    def __init__(self, held: T):
        self.held = held

    def __hash__(self) -> int:
        return id(self.held)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Same) and other.held is self.held


class ReadOnly(dict[K, V]):
    """A dict that no caller changes, for what every caller shares (a game's presets: a change altered
    every later record's variants; its letters), which copies (`copy.deepcopy`: itself; `dict(…)`: a dict
    to change), pickles and serialises (`json.dumps`) as a dict does; it takes no attributes either.
    Python lets a caller go round it, as round a frozen dataclass (`dict.__setitem__(shared, …)`, as
    `object.__setattr__`): what is shared then changes for every caller, and the refusal says to copy it."""

    __slots__ = ()
    copied_by: ClassVar[str] = "dict(…)"  # what the refusal says makes a copy to change

    def _refusal(self, tried: str) -> TypeError:
        return TypeError(
            f"cannot {tried} a {type(self).__name__}: it is read-only, as every caller shares it;"
            f" change a copy, {self.copied_by}"
        )

    def __setitem__(self, key: K, value: V) -> NoReturn:
        raise self._refusal(f"set {key!r} in")

    def __delitem__(self, key: K) -> NoReturn:
        raise self._refusal(f"delete {key!r} from")

    def __ior__(self, other: object) -> NoReturn:  # type: ignore[misc]
        raise self._refusal("update (|=)")

    def update(self, *args: object, **kwargs: object) -> NoReturn:
        raise self._refusal("update()")

    def setdefault(self, key: K, default: object = None) -> NoReturn:
        raise self._refusal(f"setdefault({key!r}) in")

    def pop(self, key: K, *default: object) -> NoReturn:
        raise self._refusal(f"pop({key!r}) from")

    def popitem(self) -> NoReturn:
        raise self._refusal("popitem() from")

    def clear(self) -> NoReturn:
        raise self._refusal("clear()")

    @classmethod
    def fromkeys(cls, keys: Iterable[K], value: V | None = None) -> Self:  # type: ignore[override]
        """One read-only from the start, made as `dict.fromkeys` makes a dict (which then sets each key)."""
        return cls(dict.fromkeys(keys, value))

    def __copy__(self) -> Self:
        return self

    def __deepcopy__(self, memo: dict[int, object]) -> Self:
        return self

    def __reduce__(self) -> tuple[type[Self], tuple[dict[K, V]]]:
        return type(self), (dict(self),)


class Presets(ReadOnly[str, ReadOnly[str, str]]):
    """A game's presets (`Game.presets`): each variant's name and its options, read-only both."""

    __slots__ = ()
    copied_by = "{variant: dict(options) for variant, options in presets.items()}"

    def __init__(self, presets: Mapping[str, Mapping[str, str]]) -> None:
        super().__init__((name, ReadOnly(options)) for name, options in presets.items())


@dataclass(frozen=True)
class VariantNotes:
    """What `lusoria explain VARIANT` says of a variant besides its rules: its title, the tags that
    choose its rules (`Game`, and `Variant`, `Rules` when they are not the game's defaults), the
    names other programs give it, and where its settings come from. Its tags are read-only (a copy
    of those given): the games hand out the same notes to every caller."""

    title: str
    tags: Mapping[str, str]
    known_as: tuple[str, ...] = ()  # "OpenTafl: Fetlar", one line a program
    sources: str = ""
    notes: str = ""
    settings: str = ""  # the options it sets, as a Rules tag writes them: said after its title (`titled`)

    def titled(self) -> str:
        """Its title, then the options it sets (`Tablut (linnaeus): first=black …`), as `lusoria explain` says it."""
        return f"{self.title}: {self.settings}" if self.settings else self.title

    def __post_init__(self) -> None:
        object.__setattr__(self, "tags", MappingProxyType(dict(self.tags)))


class OptionError(LusoriaError, ValueError):
    """An unknown variant, rules key or value, a malformed position or board:
    a problem with the tag `tag`; `written`, when set, is the part of its value at fault,
    `at` characters into it, and `known` what that part may be (a closed set, for suggestions).
    `also`: the problems of the other tags (or of its other parts) found with it (`each()`: all of them)."""

    def __init__(
        self, message: str, tag: str = "Rules", written: str | None = None, at: int = 0, known: tuple[str, ...] = ()
    ):
        super().__init__(message)
        self.tag, self.written, self.at, self.known = tag, written, at, known
        self.also: tuple[OptionError, ...] = ()

    def each(self) -> tuple[OptionError, ...]:
        """This problem and those found with it, in the order they were read."""
        return (self, *self.also)


def already_over(ended: Outcome, set_up: bool = False) -> str:
    """Why a ply after the end is refused: how the game ended, and the rule that ended it; `set_up`
    where the record's Position tag is already that end."""
    where = " in the Position tag" if set_up else ""
    return f"the game is already over{where} ({ended.reason}, {ended.rule}); no ply may follow"


def check_side_written(text: str, index: int) -> None:
    """OptionError, with `w` and `b` to try, for a Position `text` whose side to move, its field `index` (of those
    `text.split()` gives), is written otherwise (`W`), at that field."""
    side = list(re.finditer(r"\S+", text))[index]
    if side[0] not in ("w", "b"):
        raise OptionError(
            f"the side to move is w or b, not {quoted(side[0])}", "Position", side[0], side.start(), ("w", "b")
        )


class RankNotCovered(OptionError):
    """A rank of a position string's board that covers more or fewer squares than the board has
    (`covers`: "6 squares, not 7"), for a reader of another notation to quote the rank as its
    user wrote it; `at`: where the rank starts in the board's text."""

    def __init__(self, rank: str, covers: str, at: int = 0) -> None:
        super().__init__(f"the rank {quoted(rank)} covers {covers}", "Position", rank, at)
        self.covers = covers


class BoardNotTaken(OptionError):
    """A Board tag (or `--board`) for the game named `game`, played on one board, or on the board its
    variant names (`described`); `board` the size written."""

    def __init__(self, game: str, described: bool, board: str) -> None:
        boards = "names its board by its Variant" if described else "has one board"
        super().__init__(f"a Board tag is for games played on boards of several sizes: {game} {boards}", "Board")
        self.game, self.board = game, board_size_of(board)


def board_size_of(written: str) -> str:
    """A board's size as a Board tag writes it (`11x11`), from how a user may write it (` 11 X 11`)."""
    return "".join(written.split()).lower()


_SPACED_ENTRY = re.compile(  # a Rules entry with blanks about its = (from a word's start: tried in one, 5,000
    r"(?<!\S)(?:[^\s=]+(?:\s+=\s*|\s*=\s+)[^\s=]+"  # digits took 1.8 s, each of its places tried), or about a
    r"|[^\s=:]+(?:\s+:\s*|\s*:\s+)[^\s=:]+)(?=\s|$)"  # colon written for it (`leftover: none`: review82)
)


_ENTRY = re.compile(r"\S+")  # a Rules entry
_COLON_ENTRY = re.compile(r"([^\s=:]+):[^\s=:]+")  # one with a colon for its = (`leftover:none`: h82b)


def _key_written(entry: str) -> str:
    """A Rules entry's key, as written: before its `=`, or a colon written for it."""
    return re.split("[=:]", entry, maxsplit=1)[0]


def _joined(spaced: re.Match[str]) -> str:
    """A Rules entry written with blanks about its `=`, joined, where it stands (blanks after it)."""
    return re.sub(r"\s+", "", spaced[0]).ljust(len(spaced[0]))


# (not an empty value, `dforre=`, before the next entry, `leap=y`)


class TagProblems:
    """The OptionErrors of tags (and of each entry of a Rules tag) read apart, so that a slip in one
    hides none in another: a user transcribing a record fixes them all in one run."""

    def __init__(self) -> None:
        self.found: list[OptionError] = []

    def read(self, reading: Callable[[], T]) -> T | None:
        """What `reading` returns; None, its problem kept, when it raises OptionError."""
        try:
            return reading()
        except OptionError as problem:
            self.found.extend(problem.each())
            return None

    def add(self, problem: OptionError) -> None:
        """Keep `problem`, and those found with it."""
        self.found.extend(problem.each())

    def raise_any(self) -> None:
        """Raise the problems found (`together`); nothing when none was."""
        if self.found:
            raise together(self.found)


def together(problems: list[OptionError]) -> OptionError:
    """One OptionError that says all of `problems` (each said alone): the first, the others its `also`."""
    for problem in problems:
        problem.also = ()
    problems[0].also = tuple(problems[1:])
    return problems[0]


LISTED = 12  # names a message lists in full; of more, those like the one written


def known_names(written: str, names: Iterable[str], listed_in: str = "", also: Iterable[str] = ()) -> str:
    """What a message says of the names `written` is not one of: all of them, or, of more than LISTED
    (the catalogue's 175 variants), how many there are; then those most like it among them and the
    names `also` (lusoria's own, for a name that is none of them either: `seneka`, `seneca`; of more
    than LISTED, or those that hold it), or else `listed_in`, the command that lists them."""
    known = list(names)
    return _known(written, known, listed_in, alike(written, list(dict.fromkeys([*known, *also]))))


def known_names_holding(written: str, names: Iterable[str], listed_in: str = "") -> str:
    """`known_names` of a name another game has, which is no slip of one merely alike: only those of
    `names` that hold it are suggested."""
    known = list(names)
    return _known(written, known, listed_in, holding_it(written, known))


def _known(written: str, known: list[str], listed_in: str, like: list[str]) -> str:
    if len(known) <= LISTED:
        return f"known: {', '.join(known) or 'none'}" + meant(like, inside=True)
    like = like or holding_it(written, known)
    where = f": {listed_in} lists them" if listed_in else ""
    return f"{len(known)} known" + (meant(like, inside=True) or where)


def holding_it(written: str, names: Iterable[str]) -> list[str]:
    """Up to three of `names` that hold `written` (case aside): `fetlar`, `fetlar-hnefatafl-11x11`."""
    return [name for name in names if written.lower() in name.lower()][:3]


def given_again(key: str, count: int) -> str:
    """What is said of a rules key given `count` times (in a Rules tag, in options, in an OTN rules
    record), as of a tag given again: which value wins is not for lusoria to guess."""
    return f"the rules key {key} appears {times(count)}"


def _chosen_once(
    chosen: dict[str, str],
    option: tuple[str, str] | None,
    problems: TagProblems,
    written: tuple[str, Counter[str]],
    at: int = 0,
) -> None:
    """`option` (None: a problem kept already) added to `chosen`; a problem when its key is there
    already (`written` so, `at` characters into a Rules tag, with how often each key is given in any
    case): `given_again`."""
    if option is not None and option[0] in chosen:
        problems.add(OptionError(given_again(option[0], written[1][option[0]]), "Rules", written[0], at))
    elif option is not None:
        chosen[option[0]] = option[1]


def changed_options(options: dict[str, str], preset: dict[str, str]) -> dict[str, str]:
    """The options whose value is not `preset`'s (a variant's, as `Game.preset_options` gives
    them): what a Rules tag sets."""
    return {key: value for key, value in options.items() if value != preset[key]}


def written_options(options: Mapping[str, str]) -> str:
    """Options as a Rules tag writes them: `key=value …`."""
    return " ".join(f"{key}={value}" for key, value in options.items())


def rules_tag(options: dict[str, str], preset: dict[str, str]) -> dict[str, str]:
    """The Rules tag that plays `options` under the variant whose are `preset`; none when they are the same."""
    changed = changed_options(options, preset)
    return {"Rules": written_options(changed)} if changed else {}


class Game(Generic[P]):
    """A game's rules under one set of options, over positions of type `P`.

    Subclasses set the class attributes and implement the methods below; the
    replay driver, `show`, the pictures, `random`, the archive and the benchmarks use
    nothing else. A game joins through the registry (validator/games.py). Made with `options` that
    are not its own or at values they do not take, it raises the OptionError of a Rules tag (`--rules`)
    that wrote them.
    """

    name: ClassVar[str]  # lower case, as the Game tag names it (in any case)
    title: ClassVar[str] = ""  # its name in words ("Ludus latrunculorum"); "": its name
    grammar: ClassVar[str | Path | None] = None  # its plies' grammar file; None: grammar/<name>.lark
    end_rule: ClassVar[str]  # the rule that forbids plies after the end
    options: ClassVar[dict[str, tuple[str, ...]]]  # key -> values, the default first
    presets: ClassVar[Mapping[str, Mapping[str, str]]]  # Variant -> options ("seed"/default first)
    presets_are_options: ClassVar[bool] = True  # a preset is only a bundle of options
    presets_listed_in: ClassVar[str] = ""  # the command that lists the presets, too many for a message to name
    options_listed_in: ClassVar[str] = ""  # where its options are listed, too many for a message to name
    described: ClassVar[bool] = False  # its boards are its variants: a record names one (no default)
    searched_as_presets: ClassVar[tuple[str, ...]] = ()  # options `lusoria rules` varies by preset and alone,
    # not in every combination with the others (validator/fit.py)
    endings: ClassVar[tuple[str, ...]] = ()  # the `Outcome.ending`s its rules give
    sides: ClassVar[tuple[str, str]] = ("White", "Black")  # its names of White's side and Black's (`stats --by`)
    letters: ClassVar[dict[int, str]] = ReadOnly()  # a square's code on its board -> its piece's letter, as
    # its position strings write it (none: a game of points, or one whose archive keeps its position strings: GridGame)
    continued: re.Pattern[str] | None = None  # a ply that continues its side's turn (a tafl game's berserk
    # move, `d3=f3`): one move number covers a ply of each side and the plies that continue them
    position_name: ClassVar[str | None] = None  # what an archive's position keys call its positions' type
    # (archive/positions.py, key_texts; None: the name its repr gives): a new name would change every key
    notation_options: ClassVar[dict[str, tuple[str, ...]]] = {}  # options whose values listed say how its records
    # write plies, not how it is played (a tafl game's `berw` but `a`): `--variant` finds a variant's records under each

    def __init__(self, options: dict[str, str] | None = None, variant: str | None = None):
        self.variant = (variant or next(iter(self.presets))).lower()
        self.option = {**self.preset_options(self.variant), **self.checked_options(options or {})}
        self.searched = 0  # positions played beyond one a ply, looking for moves a record leaves out
        # (a tafl game's berserk continuations): the work `lusoria rules` counts besides the plies

    def __repr__(self) -> str:
        """The game as a notebook shows it: its name, variant and the options that differ from the variant's."""
        changed = {key: value for key, value in self.option.items() if self.preset_options(self.variant)[key] != value}
        return f"<{type(self).__name__} {self.name}/{self.variant}{f' {changed}' if changed else ''}>"

    @classmethod
    @cache
    def preset_options(cls, variant: str) -> dict[str, str]:
        """Every option as a preset (Variant) sets it, the others at their defaults (not to change);
        OptionError for a variant the game has not (`Game(variant=…)`: a bare KeyError)."""
        if variant not in cls.presets:
            raise cls.unknown_variant(variant)
        return {**{key: values[0] for key, values in cls.options.items()}, **cls.presets[variant]}

    @classmethod
    def grammar_file(cls) -> Traversable | Path:
        """The Lark file that defines PLY for this game (read after grammar/common.lark)."""
        return Path(cls.grammar) if cls.grammar is not None else files("lusoria.grammar") / f"{cls.name}.lark"

    @classmethod
    def rule_texts(cls) -> Path | None:
        """Its rules' texts, options' meanings and examples: the TOML file beside its module, named
        as the module (`validator/tablut.toml`; docs/design.md, "The rules' texts"); None when
        there is none (`lusoria explain` knows none of its rules)."""
        module = sys.modules[cls.__module__]
        if module.__file__ is None:
            return None
        found = Path(module.__file__).with_name(f"{module.__name__.rpartition('.')[2]}.toml")  # (a compiled
        # module's file is named `tablut.cpython-311-….so`)
        return found if found.is_file() else None

    @classmethod
    def from_tags(cls, tags: dict[str, str]) -> Self:
        """The rules a record's tags choose (`Variant`, `Rules`); OptionError if unknown.
        A `Board` tag is for games with boards of several sizes (their own `from_tags`)."""
        problems = TagProblems()
        options = problems.read(partial(cls.options_from_tags, tags))
        if "Board" in tags:
            problems.add(BoardNotTaken(cls.name, cls.described, tags["Board"]))
        problems.raise_any()
        return cls(options, tags.get("Variant"))

    def board_choice(self) -> str:
        """What a Board tag may choose instead of the board these rules start on (`lusoria explain`
        says it): "" when nothing."""
        return ""

    @classmethod
    def rules_tag_keys(cls) -> tuple[str, ...]:
        """The options a Rules tag may set (`lusoria explain` calls only these the Rules tag's): all
        of them, unless a game's variant alone sets some."""
        return tuple(cls.options)

    def options_in_play(self) -> tuple[str, ...]:
        """The options whose value these rules play by (`lusoria explain` lists them): all of them but
        those that change nothing under its variant and other options (a jump rule where nothing jumps)."""
        return tuple(self.options)

    @classmethod
    def names_elsewhere(cls) -> dict[str, dict[str, str]]:
        """The names other programs' files give the variants it knows, as they write them, each ->
        the tags that choose that variant (a catalogue's: aagenielsen.dk's types, OpenTafl's
        variants); by default none."""
        return {}

    @classmethod
    def variants_read(cls) -> tuple[object, ...]:
        """What its variants (`presets`, `variant_notes`, `names_elsewhere`) are made of, each the same
        object for as long as they are the same, for the registry's tables of every game's variants to
        be made again when one changes (validator/games.py, `made_once`); by default its presets."""
        return (cls.presets,)

    @classmethod
    def variant_notes(cls) -> dict[str, VariantNotes]:
        """What `lusoria explain` says of its variants besides their rules, by name: by default its
        presets, each titled by the game, the variant and the options it sets."""
        return {
            variant: VariantNotes(
                f"{cls.title or cls.name} ({variant})",
                {"Game": cls.name, "Variant": variant},
                settings=written_options(options) if options else "",
            )
            for variant, options in cls.presets.items()
        }

    @classmethod
    def variants_read_from(cls) -> str:
        """What `lusoria explain GAME` says below its variants of where they were read from ("":
        nothing, they are the game's own)."""
        return ""

    @classmethod
    def variants_of_board(cls, board: str) -> list[str]:
        """Its variants played on a `board` of that size (WxH, as a Board tag writes it)."""
        return [variant for variant in cls.presets if cls(variant=variant).board_size() == board_size_of(board)]

    def board_size(self) -> str:
        """The size of the board its rules start on, as a Board tag writes it (WxH; "" for a table of points)."""
        board = self.diagram(self.initial()).board
        return f"{board.files}x{board.ranks}" if isinstance(board, Squares) else ""

    @classmethod
    def unknown_variant(cls, variant: str, owners: Sequence[str] = (), written: str = "") -> OptionError:
        """The problem of a Variant tag naming none of this game's variants; `owners`: the games that
        have it, said too, and then only this game's variants that hold the name are suggested
        (`[Variant "seneca"]` is latrunculi's, no slip of `seed`; `fetlar` may be `fetlar-13x13-parlett`);
        `written`: the tags that write the variant a catalogue names so (`saami-tablut`), said as owners are."""
        elsewhere = bool(owners or written)
        known = (known_names_holding if elsewhere else known_names)(variant, cls.presets, cls.presets_listed_in)
        have = f"; {' and '.join(owners)} {'has' if len(owners) == 1 else 'have'} it" if owners else ""
        return OptionError(
            f"unknown variant {quoted(variant)} for {cls.name} ({known}){have}"
            + (f"; {variant} is written {written}" if written else ""),
            "Variant",
            variant,
            0,
            tuple(holding_it(variant, cls.presets) if elsewhere else cls.presets),
        )

    @classmethod
    def options_from_tags(cls, tags: dict[str, str]) -> dict[str, str]:
        """The options the `Variant` and `Rules` tags choose (the variant's, then the rules' own);
        OptionError names the tag and the part of its value at fault (the first; each of the
        others, its `also`)."""
        variant, rules = tags.get("Variant"), tags.get("Rules")  # names and values in any case
        problems = TagProblems()
        if variant is not None and variant.lower() not in cls.presets:
            problems.add(cls.unknown_variant(variant))
        chosen: dict[str, str] = {}
        items = list(_ENTRY.finditer(_SPACED_ENTRY.sub(_joined, rules or "")))  # `jump-over = any`: one entry
        spaced = {entry.start(): entry for entry in _SPACED_ENTRY.finditer(rules or "")}
        keys = Counter(_key_written(item[0]).lower() for item in items)
        for item in items:
            read = cls._with_equals(item[0])
            if item.start() in spaced:
                rule = "with no blank about its =" + (", not a colon" if read else "")
                problem, option = cls._mended_entry(read or item, spaced[item.start()], rule, "joined")
                problems.add(problem)
            elif read:
                problem, option = cls._mended_entry(read, item, "with an =, not a colon", "with =")
                problems.add(problem)
            else:
                option = problems.read(partial(cls.rules_entry, item))
            _chosen_once(chosen, option, problems, (_key_written(item[0]), keys), item.start())
        problems.raise_any()
        return chosen

    @classmethod
    def _with_equals(cls, entry: str) -> re.Match[str] | None:
        """A Rules entry of one of the game's options with a colon for its `=` (`leftover:none`, h82b), read as
        `leftover=none`, from itself alone (review82: the tag's whole text copied at each); None for any other."""
        colon = _COLON_ENTRY.fullmatch(entry)
        if colon is None or colon[1].lower() not in cls.options:
            return None
        return _ENTRY.match(f"{colon[1]}={entry[colon.end(1) + 1 :]}")

    @classmethod
    def _mended_entry(
        cls, read: re.Match[str], written: re.Match[str], rule: str, mended: str
    ) -> tuple[OptionError, tuple[str, str] | None]:
        """The problem of a Rules entry `written` otherwise than key=value (blanks about its `=`, a colon for it:
        the `rule` it breaks), `read` as its `mended` form, at the entry: it offers that when it reads (and the
        option it reads), else says why it does not."""
        said = f"a Rules entry is key=value, {rule}: {read[0]}"
        try:
            option = cls.rules_entry(read)
        except OptionError as problem:
            return OptionError(
                f"{said}; {mended}, it is refused too: {problem}", "Rules", written[0], written.start()
            ), None
        return OptionError(said, "Rules", written[0], written.start(), (read[0],)), option

    @classmethod
    def rules_entry(cls, item: re.Match[str]) -> tuple[str, str]:
        """The option and value of one `key=value` entry of a Rules tag (`item`, where it stands in
        the tag's value); OptionError at the part at fault."""
        written, equals, value = item[0].partition("=")
        key = cls._kept_key(written, item.start())
        if not equals:
            raise cls.bad_value(item, cls.unknown_value(key, value))
        try:
            return key, cls.option_value(key, value)
        except OptionError as problem:
            raise cls.bad_value(item, str(problem)) from None

    @classmethod
    def checked_options(cls, options: dict[str, str]) -> dict[str, str]:
        """`options` as the constructor is given them (a seam: a library's caller gives any), each
        option and value as a Rules tag's would be kept (its name in lower case, its value as
        `option_value` writes it), when each is one of the game's at a value it takes; else the
        OptionError of a Rules tag that wrote them (the option, its known values, the one meant), one
        for each problem."""
        problems = TagProblems()
        checked = [problems.read(partial(cls._checked_option, key, value)) for key, value in options.items()]
        kept: dict[str, str] = {}
        keys = Counter(key.lower() for key in options)
        for written, option in zip(options, checked, strict=True):
            _chosen_once(kept, option, problems, (written, keys))
        problems.raise_any()
        return kept

    @classmethod
    def _checked_option(cls, written: str, value: str) -> tuple[str, str]:
        key = cls._kept_key(written)
        return key, cls.option_value(key, value)

    @classmethod
    def _kept_key(cls, written: str, at: int = 0) -> str:
        """An option's name as the game keeps it, in lower case, whether a Rules tag (`at` characters
        into it) or the constructor gives it; OptionError (of the Rules tag) when it is none of the game's."""
        key = written.lower()
        if key not in cls.options:
            raise cls.unknown_key(key, written, at, cls.known_keys(key))
        return key

    @classmethod
    def option_value(cls, key: str, value: str) -> str:
        """Option `key`'s `value` (as written, in any case) as the game keeps it, whether a Rules tag or
        the constructor gives it: by default in lower case; OptionError (of the Rules tag) when the
        option takes no such value, saying it as written (`Ashtonx`, review77)."""
        read = value.lower()
        if not cls.accepts(key, read):
            raise OptionError(cls.unknown_value(key, value), "Rules", value, 0, cls.choices(key))
        return read

    @classmethod
    def known_keys(cls, key: str) -> str:
        """What a message says of the options `key` is none of."""
        return known_names(key, cls.options, cls.options_listed_in)

    @classmethod
    def unknown_value(cls, key: str, value: str) -> str:
        """What a message says of `value`, none of option `key`'s: the values it takes, and the one meant."""
        like = meant(alike(value, cls.choices(key)), inside=True)
        return f"unknown value {quoted(value)} for {key} (known: {cls.known_values(key)}{like})"

    @classmethod
    def bad_value(cls, item: re.Match[str], message: str) -> OptionError:
        """The problem of a Rules entry whose value its key does not take: at the value, saying `message`."""
        key = item[0].lower().partition("=")[0]
        return OptionError(message, "Rules", item[0][len(key) + 1 :], item.start() + len(key) + 1, cls.choices(key))

    @classmethod
    def unknown_key(cls, key: str, written: str, at: int, why: str) -> OptionError:
        """The problem of an option `key` (`written` so, `at` characters into a Rules tag) that is none of
        this game's, or one it refuses in a Rules tag: at the key, saying `why` (the keys it may be are the others)."""
        return OptionError(
            f"unknown rules key {quoted(key)} for {cls.name} ({why})",
            "Rules",
            written,
            at,
            tuple(option for option in cls.options if option != key),
        )

    @classmethod
    def accepts(cls, key: str, value: str) -> bool:
        """Whether `value` is one of option `key`'s values."""
        return value in cls.options[key]

    @classmethod
    def choices(cls, key: str) -> tuple[str, ...]:
        """The values of an option when they are a closed set (what suggestions choose among)."""
        return cls.options[key]

    @classmethod
    def known_values(cls, key: str) -> str:
        """Option `key`'s values, as a message lists them."""
        return ", ".join(cls.options[key])

    @classmethod
    def rules_for_position(cls, text: str) -> Iterator[Game[P]]:
        """Rules under which a position string may be read without a record's tags (to search an
        archive by position), each variant's in turn: one variant's may not read another's pieces or
        squares (a piece on a throne); a position's key is the game's, whichever variant read it."""
        return cls.of_variants(cls.presets)

    @classmethod
    def of_variants(cls, variants: Iterable[str], make: Callable[..., Game[P]] | None = None) -> Iterator[Game[P]]:
        """The rules of each of `variants` (made by `make(variant=…)`, by default the game's
        constructor), but those that cannot be made."""
        for variant in variants:
            try:
                yield (make or cls)(variant=variant)
            except OptionError:
                continue

    # -- positions -------------------------------------------------------
    def initial(self) -> P:
        """The start position of these rules."""
        raise NotImplementedError

    def parse_position(self, text: str) -> P:
        """A position string (NOTATION.md §6); OptionError when malformed."""
        raise NotImplementedError

    def format_position(self, position: P) -> str:
        """A position as the `Position` tag writes it (what `parse_position` reads)."""
        raise NotImplementedError

    def unreachable_count(self, side: int, pieces: str, most: str) -> OptionError:
        """The error of a position that gives `side` a count of pieces no game of its variant reaches:
        `pieces`, counted and said with where they stand ("17 pieces on the board"), and `most`, what
        the rules give ("each side has 16"). The side is named as the game names it, too
        ("Black (Muscovites)")."""
        named = SIDE_NAMES[side] if self.sides[side] == SIDE_NAMES[side] else f"{SIDE_NAMES[side]} ({self.sides[side]})"
        return OptionError(f"{named} has {pieces}; {most}")

    def turn(self, position: P) -> int:
        """Whose turn it is: WHITE (0) or BLACK (1), as `lusoria.api` names them."""
        raise NotImplementedError

    def material(self, position: P) -> tuple[int, int]:
        """How many pieces each side has (on the board or in hand)."""
        raise NotImplementedError

    def in_hand(self, position: P) -> tuple[int, int] | None:
        """The pieces each side (White, Black) still holds in hand to place, in a game whose pieces
        are placed from the hand; None in any other game."""
        return None

    def tally(self, start: P, position: P) -> str:
        """What the game has cost each side since `start`, for `lusoria show`."""
        (white, black), (white_now, black_now) = self.material(start), self.material(position)
        return f"pieces lost: White {_lost(white, white_now)}, Black {_lost(black, black_now)}"

    def render(self, position: P) -> str:
        """The position as text, for `lusoria show`."""
        raise NotImplementedError

    def diagram(self, position: P, last: str | None = None) -> Diagram:
        """The position as neutral shapes for a picture (lusoria/svg.py draws any):
        `last` is the ply that led to it, in canonical form, marked on the board."""
        raise NotImplementedError

    # -- plies -------------------------------------------------------------
    def play(self, position: P, text: str) -> Played[P]:
        """Apply one ply as written; Illegal when the rules forbid it. `text` is a ply as the
        game's grammar reads it (`lusoria.api.is_ply`); NotAPly when it is none (a game may also
        play what the other games of its family write, judged by its rules). It judges the ply, not
        whether the game goes on: after a ply that ended it (`Played.outcome`), or at a position
        `outcome` says is over, it plays on; the driver refuses such a ply (`end_rule`: `check`,
        `played_record`), as a caller that plays on must."""
        raise NotImplementedError

    def outcome(self, position: P) -> Outcome | None:
        """Whether a starting position is already a finished game."""
        raise NotImplementedError

    def play_past_end(self, position: P, text: str) -> Played[P] | None:
        """A ply written after the ply that led to `position` ended the game, in a game whose
        records leave out plies that may have kept it going (a tafl variant's berserk
        continuations, G16): this one, played after that ply played again where it did not end
        the game (the last of its `earlier`); None: the game ended there, and the driver refuses
        the ply (`end_rule`)."""
        return None

    @classmethod
    def ply_identity(cls, text: str) -> str:
        """A ply of the main line as a record's identity takes it (archive/identity.py): as written,
        unless what it adds says nothing of the ply played (an announcement of a threat)."""
        return text

    def legal_plies(self, position: P) -> list[str]:
        """Every legal ply in canonical form. A game of dice, whose positions hold no roll: those of
        every roll, each written from its roll (the editor keeps those of the roll typed). As `play`,
        it does not ask whether the game is over (`outcome`)."""
        raise NotImplementedError

    def distance(self, written: str, legal: str) -> int:
        """How far a written ply is from a legal one (validator/suggest.py; games on a
        board of squares: validator/grid.py)."""
        raise NotImplementedError

    def likeness(self, written: str, legal: str) -> float:
        """How alike a written ply is to a legal one (0 to 1): what orders equally near suggestions."""
        return similarity(written, legal)

    def candidates(self, position: P, written: str) -> list[str]:
        """The legal plies a suggestion for `written` is chosen from."""
        return self.legal_plies(position)

    def chance(self, text: str) -> str:
        """What chance chose in a ply, apart from the player (a game of dice: its roll); "" in a game
        without dice. The move tree keeps plies that lead to one position apart when it differs."""
        return ""

    def symmetric(self, position: P) -> list[tuple[P, Callable[[str], str]]]:
        """`position` in each symmetry of its board (turned, mirrored), itself first, each with the
        function that turns a ply played there into the same ply played from `position`; a board
        without symmetries has only itself (what the move tree folds)."""
        return [(position, str)]

    def canonical(self, position: P) -> P:
        """One of `position`'s images (`symmetric`), the same for each of them: what the move tree
        folds by (a board without symmetries: the position itself)."""
        return position

    def random_ply(self, position: P, rng: random.Random) -> str | None:
        """A random legal ply in canonical form, or None when none exists (as `legal_plies`, at a
        position whose game is over too: `outcome`)."""
        plies = self.legal_plies(position)
        return rng.choice(plies) if plies else None

    # -- the archive: what pattern and material search read (archive/positions.py, patterns.py) --
    def boards_and_materials(self, positions: list[P]) -> tuple[list[bytes], list[Material]]:
        """Each position's board spelled out one character a square, as ASCII (what a pattern
        matches), and its MATERIAL: by default its position string and the material of each side.
        A board spelled out is the whole position (two positions, two boards): the archive tells
        positions apart by it past the whole tokens of its index (archive/positions.py, `reaches`)."""
        return (
            [self.format_position(position).encode() for position in positions],
            [(*self.material(position), None, None, None, None, None) for position in positions],
        )

    @classmethod
    def piece_bits(cls) -> dict[str, int]:
        """The pieces a square of a spelled-out board may hold (its characters), as bits below
        1 << PIECE_BITS (pieces may share one): what the archive remembers each square held
        (`record_squares`); none by default."""
        return {}

    @classmethod
    def pattern_globs(cls, fields: list[str], symmetric: bool) -> list[str]:
        """A position pattern (docs/notation.md §6.1, split at blanks) as GLOBs over this game's
        spelled-out boards (with `symmetric`, also its symmetries); ValueError when this game
        cannot read it (by default, a game has no patterns)."""
        raise Refused("it has no position patterns")

    def extra_tags(self) -> dict[str, str]:
        """The tags (besides Game and Variant) that choose these rules: `Rules`, …"""
        return rules_tag(self.option, self.preset_options(self.variant))

    def written_alike(self) -> list[Self]:
        """These rules, then these rules with each other value listed of its `notation_options` where their own is
        listed (another is another game): the same game, its records written otherwise (a tafl type's records
        read with `berw=u`, aagenielsen.dk's old style): `--variant` finds a variant's records under each."""
        changed = changed_options(self.option, self.preset_options(self.variant))
        alike = [  # (a value not listed is another game: alike to none, review71b)
            dict.fromkeys((self.option[key], *values)) if self.option[key] in values else (self.option[key],)
            for key, values in self.notation_options.items()
        ]
        return [
            type(self)({**changed, **dict(zip(self.notation_options, values, strict=True))}, self.variant)
            for values in itertools.product(*alike)
        ]

    # -- what the editor and the slips ask (lusoria/document.py, notation/slips.py) ------------------
    roll: ClassVar[re.Pattern[str] | None] = None  # a game of dice: the roll a ply starts with, as written
    # (its dice the groups); such a ply holds blanks, and the editor completes it from its roll
    points: ClassVar[int] = 0  # a game of dice: its points, numbered from 1, as its plays may write them
    leftover_roll: ClassVar[re.Pattern[str] | None] = None  # a game of dice: the dice a ply leaves the opponent,
    # who plays them in a group after it, as written (`>3:`)
    spaced_roll: ClassVar[re.Pattern[str] | None] = None  # a game of dice: a roll written with blanks in it
    spaced_play: ClassVar[re.Pattern[str] | None] = None  # a game of dice: a play with blanks about its slashes
    unread_roll: ClassVar[re.Pattern[str] | None] = None  # a game of dice: a roll with a die its source does not
    # show, written `?` (`6?:`)
    ply_tail: ClassVar[re.Pattern[str] | None] = None  # what ends a ply, that a hand may write apart from it (a
    # capture list, a removal, a mark: `c1-c5 xb5`, `b2-b3 ~d6`): the slips join it to its ply

    @classmethod
    def roll_text(cls, written: re.Match[str]) -> str:
        """A roll that `roll` matched, as the canonical plies start with it."""
        return written[0]

    def ply_summary(self, canonical: str, start: P, position: P) -> str:
        """What a ply (`canonical`, which led to `position`) did, in a few words, for the editor's
        hover: by default what the game has cost each side since `start` (`tally`)."""
        return self.tally(start, position)

    @classmethod
    def refused_after(cls, ply: str, found: str) -> str | None:
        """Why `found`, written after the ply `ply` where the syntax stopped, is part of no ply, as
        this game's rules say (a part a ply holds once, written twice: a second removal); by default
        None, and the syntax error says what it expected there."""
        return None

    @classmethod
    def reordered_plies(cls, text: str, position: int) -> list[tuple[int, int, str]]:
        """The plies of `text` holding `position` whose parts a source writes in another order than the
        notation (Laquet's `66: >6: 3/9 9/15`), each where it begins and ends and as the notation
        orders it; by default none."""
        return []

    @classmethod
    def misread_plies(cls, text: str, position: int) -> list[tuple[int, int, str]]:
        """The plies of `text` holding `position` with a part off the board that one reading alone
        puts on it and fits (Laquet's `66: 7/13 10/26`: `66: 7/13 10/16`), each where it begins and
        ends and as read; by default none."""
        return []

    @classmethod
    def mended_ply(cls, word: str) -> str:
        """A word that broke the syntax, mended as the slips of this game's plies go (docs/slips.md):
        by default, as it is."""
        return word

    @classmethod
    def other_reading(cls, word: str) -> str | None:
        """Another reading of a word that `mended_ply` mends one way, judged when the rules refuse that
        one (docs/slips.md); by default none."""
        return None


def sides_named(named: Sequence[tuple[str, str]]) -> tuple[str, str]:
    """The names of White's side and Black's that games give (`Game.sides`, in the order given):
    each a name or, where the games name a side apart, their names joined by / (`defenders/Swedes`);
    none given, White and Black."""
    if not named:
        return SIDE_NAMES
    white, black = ("/".join(dict.fromkeys(side)) for side in zip(*named))
    return white, black


def sides_glossed(sides: tuple[str, str]) -> tuple[str, str]:
    """White's side and Black's as a game names them (`Game.sides`), each followed by the notation's
    name where that is another (`Muscovites (Black)`): how a page names a diagnostic's side, whose
    message says White and Black."""
    white, black = (name if name == plain else f"{name} ({plain})" for name, plain in zip(sides, SIDE_NAMES))
    return white, black


def _lost(before: int, now: int) -> str:
    """A side's pieces lost, and those it gained (a captured mercenary changes sides)."""
    return f"{before - now}" if now <= before else f"0 ({now - before} gained)"
