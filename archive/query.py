"""Finding records: filters turned into one parameterised query (no user text is ever pasted
into SQL). Each filter is a field of `Filters` that declares its command-line option and its
condition (`_filter`): `build` puts together the conditions of the filters given. The rows are
rendered by the face (lusoria.output)."""

from __future__ import annotations

import os
import re
import reprlib
import unicodedata
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field, fields
from typing import TYPE_CHECKING, Any

from lusoria.archive.players import MAX_SQL_INTEGER, RESULTS, name_condition, player_condition
from lusoria.errors import LusoriaError, Refused
from lusoria.source_tags import SOURCE_FILE, SOURCE_FORMAT
from lusoria.words import quoted, undecoded

if TYPE_CHECKING:
    from lusoria.notation.reader import RecordText

COLUMNS = [
    "id",
    "game",
    "variant",
    "date",
    "white",
    "black",
    "result",
    "event",
    "site",
    "round",
    "plies",
    "valid",
    "errors",
    "warnings",
    "first_rule",
    "first_ply",
    "path",
    "line",
]
Condition = Callable[[Any, "Filters"], tuple[str, list]]  # a filter's value and all the filters -> SQL, parameters


def _filter(
    default: Any = None,
    *,
    help: str | None,
    option: str | None = None,
    where: str | Condition | None = None,
    **declared: Any,
) -> Any:
    """A field of Filters: its condition (`where`: SQL over `records` with a `?` for the value, or
    a function of the value and all the filters that gives SQL and its parameters; none for a
    filter that only changes others, or one within plies, which `search.ply_search` reads) and
    what a command-line option for it needs (its help; `option`, when its name is not the
    field's; `metavar`, `choices`, `minimum` (every whole number has one), `maximum`, `negative`:
    the option that sets it False; `read`: `pairs`, `lines` or `records`, when the option names a
    file, or NAME=VALUE, that the field holds the content of); `takes`: what a message says its
    value is, when more than its type (`check_values`)."""
    meta = {"help": help, "option": option, "where": where, **declared}
    if isinstance(default, list):
        return field(default_factory=list, metadata=meta)
    return field(default=default, metadata=meta)


class FilterError(LusoriaError, ValueError):
    """A filter that cannot work; `filter` names the field of Filters."""

    def __init__(self, filter: str, problem: str):
        super().__init__(f"the {filter} filter {problem}")
        self.filter, self.problem = filter, problem


class NothingSelected(LusoriaError, LookupError):
    """Filters that match no record, where a command that changes files or the archive does nothing: an
    export of none would write its files over an earlier export with empty ones (a misspelt player's name)."""

    def __init__(self, nothing_done: str):
        super().__init__(f"no record matches the filters: {nothing_done}")


def _either_side(name: str, _: Filters) -> tuple[str, list]:
    (white, found), (black, more) = (player_condition(f"records.{side}", name) for side in ("white", "black"))
    return f"({white} OR {black})", found + more


_ZERO_PART = re.compile(r"\.00(?:\.|\Z)")  # a month or day of 00 in a date filter: no real day, not ?? (`2019.00.10`)


def _iso(text: str, end: bool) -> str:
    """A bound for a date filter: the earliest (or latest) day of a PGN date, whole or partial, or
    of an ISO date or month."""
    from lusoria.notation.dates import NO_REAL_DAY, date_range

    pgn = text.replace("-", ".") if re.fullmatch(r"[0-9]{4}-[0-9]{2}(-[0-9]{2})?", text) else text
    no_day = f"{quoted(text)} {NO_REAL_DAY} (?? is an unknown part)"  # (of the form: `2019.02.30`, `2019.00.10`)
    if _ZERO_PART.search(pgn):  # (a record's Date reads 00 as ??, as some programs write it: review78)
        raise Refused(no_day)
    try:
        first, last = date_range(pgn + ".??" * (2 - pgn.count(".")))  # 2025 and 2025.06 are shorthands
    except ValueError as error:
        raise Refused(
            no_day
            if NO_REAL_DAY in str(error)
            else f"a date filter is YYYY, YYYY.MM or YYYY.MM.DD (a PGN date: ?? for an unknown part), "
            f"or YYYY-MM or YYYY-MM-DD; not {quoted(text)}"
        ) from None
    if first is None or last is None:
        raise Refused(f"a date filter needs a known year, not {quoted(text)}")
    return last if end else first


def _date(column: str, end: bool) -> Condition:
    """A date bound on `column` (records.date_from or date_to); with `include_unknown`, records of
    unknown date pass too. A bound on date_from is searched in the index in date order
    (idx_records_date_order, whose first column is `date_from IS NULL`)."""
    known = "(records.date_from IS NULL) = 0 AND " if column == "date_from" else ""

    def condition(text: str, filters: Filters) -> tuple[str, list]:
        unknown = " OR (records.date_from IS NULL) = 1" if filters.include_unknown else ""
        return f"({known}records.{column} {'<=' if end else '>='} ?{unknown})", [_iso(text, end)]

    return condition


def _variant(written: str, _: Filters) -> tuple[str, list]:
    """The records of a variant: of its Variant tag as written (`aage`), or as `stats` counts one game's
    (`tablut/aage`: not those whose rules a catalogue's entry names, which it counts apart), or of the rules that a
    catalogue's entry `lusoria explain` knows names, their other tags included (saami-tablut-w: aage with
    first=white; saami-tablut: aage as it is, with no Rules), and of a type's other layouts when it names
    some (`Sea battle tafl 13x13` and its `/2`: h70b, the type's name found the first layout's games alone), each
    written any way (`Game.written_alike`: Berserk Hnefatafl 11x11's records read with `berw=u` too)."""
    from lusoria.archive.rule_sets import entries_of_variant, rule_tags_of  # the games' rules: when searched
    from lusoria.variants import rules_of_name

    rules = rules_of_name(written)
    if rules is None:
        if unknown := unknown_variant_of_game(written):  # tablut/copenhagen, as `stats` lists it
            return "(records.game = ? AND records.variant = ?)", list(unknown)
        return "records.variant = lower(?)", [written.strip()]
    if written.strip().lower().rpartition("/")[2] == rules.variant:  # GAME/VARIANT (a game's variant alone is no
        # name `rules_of_name` knows: the tag as written, above), as `stats` lists it: but those it names by an entry
        named = entries_of_variant(rules.name, rules.variant)
        apart = f"coalesce(records.rule_tags NOT IN ({', '.join('?' * len(named))}), 1)"  # (SQLite: NOT IN () holds)
        return f"(records.game = ? AND records.variant = ? AND {apart})", [rules.name, rules.variant, *named]
    layouts = [rules]
    while (other := rules_of_name(f"{written.strip()}/{len(layouts) + 1}")) is not None:
        layouts.append(other)
    conditions, values = [], []
    for layout in layouts:  # (its records written any way: `written_alike`)
        tags = [rule_tags_of(alike) or "" for alike in layout.written_alike()]
        conditions.append(
            f"(records.game = ? AND records.variant = ? AND coalesce(records.rule_tags, '') IN ({', '.join('?' * len(tags))}))"
        )
        values += [layout.name, layout.variant, *tags]
    return f"({' OR '.join(conditions)})", values


def unknown_variant_of_game(written: str) -> tuple[str, str] | None:
    """A variant that lusoria does not know (none that `rules_of_name` finds) written GAME/VARIANT,
    any case, of a game it knows (a record's `[Variant "copenhagen"]` of Tablut, as `stats` lists
    it: `tablut/copenhagen`; the game's name ends at the first slash, a variant's may hold one):
    (game, variant) in lower case; else None."""
    from lusoria.validator.games import GAMES  # the games: loaded when searched

    game, slash, variant = written.strip().lower().partition("/")
    return (game, variant) if slash and game in GAMES else None


def board_size(written: str) -> str:
    """A board's size as the column `board` holds it (`11x11`), written `11x11`, `11×11`, or `11` for a
    square; FilterError for anything else."""
    from lusoria.validator.base import board_size_of

    size = board_size_of(written).replace("×", "x")
    if size.isdigit():
        size = f"{size}x{size}"
    if not re.fullmatch(r"[1-9][0-9]*x[1-9][0-9]*", size):
        raise FilterError("board", f"is a board's size, as 11x11 (or 11: a square board); not {quoted(written)}")
    return size


def _board(written: str, _: Filters) -> tuple[str, list]:
    """The records whose rules start on a board of that size."""
    return "records.board = ?", [board_size(written)]


def _ending(written: str, _: Filters) -> tuple[str, list]:
    """An ending as `stats` names it, or in the words of a Termination tag it is read from (`resignation`,
    `time forfeit`: h70b, lusoria's own records write them)."""
    from lusoria.archive.endings import known_endings, termination_ending  # the games' rules: loaded when searched
    from lusoria.validator.suggest import meant_among

    said, known = " ".join(written.lower().split()), known_endings()
    if (ending := said if said in known else termination_ending(said)) not in known:
        raise FilterError("ending", f"is one of {', '.join(known)}; not {quoted(written)}{meant_among(said, known)}")
    return "records.ending = ?", [ending]


GLOB_CLASS = re.compile(r"\[\^?\]?[^]]*\]")  # a GLOB character class: [abc], [^abc], []x]
LONGEST_GLOB = 50_000  # bytes of a GLOB SQLite reads (SQLITE_MAX_LIKE_PATTERN_LENGTH): "pattern too complex" past it


def _check_glob(filter: str, value: str, named: str) -> None:
    """FilterError for a glob `value` (`named` so) that SQLite's GLOB cannot take as meant: a [class]
    left open, or longer than it reads."""
    if "[" in GLOB_CLASS.sub("", value):
        raise FilterError(filter, f"value {quoted(value)} opens a [class] of characters it does not close")
    if (size := len(value.encode())) > LONGEST_GLOB:
        encoded = "" if size == len(value) else f" ({size:,} bytes)"
        raise FilterError(
            filter,
            f"{named} is {len(value):,} characters{encoded}, longer than SQLite reads as a glob ({LONGEST_GLOB:,} bytes)",
        )


def _path(value: str, _: Filters) -> tuple[str, list]:
    """Records read from a file whose path matches the glob `value`: as the archive holds it (as its
    import was given it), or as the file system names it from here (`./games/a.lgn`, `../a.lgn`, an
    absolute path: the `file` column, its real path, matched by `value` and by `value`'s real path)."""
    from lusoria.archive.records_as_rows import stored_file  # (loaded when searched)

    _check_glob("path", value, "path")
    if "\0" in value:  # (no file's name holds one: review83, os.path.realpath's bare ValueError)
        raise FilterError("path", f"value {quoted(value)} holds a NUL character, which no file's name does")
    real, here = stored_file(value), stored_file(os.curdir)
    if not os.path.isabs(value) and real.startswith(here + os.sep):  # (the folder it runs in is no glob: reviewer-57b)
        real = glob_escaped(here) + real[len(here) :]
    files = list(dict.fromkeys([value, real]))  # (a file column's value given as it is: a name not UTF-8, \xNN)
    return "(records.path GLOB ?" + " OR records.file GLOB ?" * len(files) + ")", [value, *files]


def glob_escaped(path: str) -> str:
    """A glob (`--path`) that matches `path` alone: each `*`, `?` and `[` it holds as a [class] of one."""
    return re.sub(r"[*?[]", lambda found: f"[{found[0]}]", path)


def _tags(pairs: list[tuple[str, str]], _: Filters) -> tuple[str, list]:
    """Each NAME=VALUE: a tag whose value matches VALUE, a glob (SQLite's GLOB) in any case (of ASCII letters, as
    every name filter: note78, `Termination=resigned` found no `Resigned`), its letters composed or written with
    combining marks alike; NAME as written, but a name of the roster, which a column keeps, in any case (h80a)."""
    if not all(isinstance(pair, (tuple, list)) and len(pair) == 2 for pair in pairs):  # a dict, one pair alone
        raise FilterError("tags", f"is a list of (NAME, VALUE) pairs, as [('Site', 'Uppsala')]; not {pairs!r:.60}")
    for name, value in pairs:
        if not name or not value:
            raise FilterError(
                "tags", f"is NAME=VALUE with a name and a value (a glob), not {quoted(name + '=' + value)}"
            )
        _check_glob("tags", value, f"value of {name}")
    from lusoria.archive.tables import COLUMN_TAGS  # (loaded when searched)

    conditions, params = [], []
    for name, value in pairs:  # a tag a record's column keeps is searched there (the ids found once)
        composed = unicodedata.normalize("NFC", value)  # (a value pasted with combining marks, as a Mac's file name)
        column = COLUMN_TAGS.get(name.capitalize())  # (the roster's name in any case: `white`, h80a)
        if column:  # (stored composed: records_as_rows.known)
            conditions.append(f'records.id IN (SELECT id FROM records WHERE lower("{column}") GLOB lower(?))')
            params.append(composed)
        else:  # (stored as written: composed, or with combining marks)
            held = (
                "records.id IN (SELECT record_id FROM other_tags WHERE name = ? "
                "AND (lower(value) GLOB lower(?) OR lower(value) GLOB lower(?)))"
            )
            conditions.append(f"({held} OR {PLACED})" if name == SOURCE_FILE else held)
            params += [name, composed, unicodedata.normalize("NFD", value)] + ([value] if name == SOURCE_FILE else [])
    return " AND ".join(conditions), params


PLACED = (  # a SourceFile tag that lusoria's text of a record says its file by: the column `path` (formats.lgn)
    "records.written_in IS NULL AND lower(records.path) GLOB lower(?) "  # (read from another format, kept in lusoria's notation,
    "AND records.path GLOB '[^<]*' "  # from a path that names a file, not `<stdin>`: `names_a_file`; without its own tag)
    f"AND records.id IN (SELECT record_id FROM other_tags WHERE name = '{SOURCE_FORMAT}') "
    f"AND records.id NOT IN (SELECT record_id FROM other_tags WHERE name = '{SOURCE_FILE}')"
)


def _words(text: str, _: Filters) -> tuple[str, list]:
    """Full-text search: every word (a phrase of the words its punctuation separates), a word
    ending in `*` a prefix."""
    words = text.split()
    if not words:
        raise FilterError("text", "needs at least one word")
    phrases = []
    for word in words:
        stem, prefix = (word[:-1], "*") if word.endswith("*") else (word, "")
        if not any(character.isalnum() for character in stem):
            raise FilterError("text", f"needs letters or digits in each word, and {quoted(word)} has none")
        phrases.append('"' + stem.replace('"', '""') + '"' + prefix)
    return "records.id IN (SELECT rowid FROM records_fts WHERE records_fts MATCH ?)", [" ".join(phrases)]


# The filters that match a value whole, which they take as `name_given` does (`--site ' Uppsala '`)
TAKEN_WHOLE = ("game", "variant", "white", "black", "player", "event", "site", "rule")

# Each `order` of the records (`Filters.order`): its ORDER BY, after the oldest's index of dates is chosen or not;
# records of one date come oldest imported (lowest id) first, or newest imported first when newest
ORDERS = {
    "oldest": "records.date_from IS NULL, records.date_from, records.id",
    "newest": "records.date_to IS NULL, records.date_to DESC, records.id DESC",
    "longest": "records.plies DESC, records.id",
    "shortest": "records.plies, records.id",
}


@dataclass
class Filters:
    """What `lusoria query` may ask for; every filter given must hold. Each field declares its
    condition and its command-line option (`_filter`): `build` and the CLI read them."""

    game: str | None = _filter(help="The game, as its Game tag names it.", where="records.game = lower(?)")
    variant: str | None = _filter(
        help="The Variant (seed, seneca, piso, petteia, dux, …), or any other name lusoria explain knows a "
        "variant by (GAME/VARIANT; a catalogue's name: the rules it names).",
        where=_variant,
    )
    board: str | None = _filter(
        help="The size of the board the rules start on: 11x11, or 11 for a square board (lusoria stats lists "
        "an archive's).",
        where=_board,
    )
    white: str | None = _filter(
        help="White's name (whole, any case).", where=lambda name, _: player_condition("records.white", name)
    )
    black: str | None = _filter(
        help="Black's name (whole, any case).", where=lambda name, _: player_condition("records.black", name)
    )
    player: str | None = _filter(
        help="A player on either side (whole name, any case).",
        where=_either_side,
    )
    event: str | None = _filter(
        help="The Event (whole, any case).", where=lambda name, _: name_condition("records.event", name)
    )
    site: str | None = _filter(
        help="The Site (whole, any case).", where=lambda name, _: name_condition("records.site", name)
    )
    path: str | None = _filter(
        help="The file the records were read from, as the archive holds its path (query's path column) or as "
        "the file system names it from here (./games/a.lgn), a glob: * any text, / too, ? any character, "
        "[abc] one of them (games/2025/*; [[] a [ itself).",
        where=_path,
    )
    date_from: str | None = _filter(
        help="Games that may have been played on or after this date: YYYY, YYYY.MM or YYYY.MM.DD "
        "(?? for an unknown part), or YYYY-MM or YYYY-MM-DD.",
        where=_date("date_to", end=False),
    )
    date_to: str | None = _filter(
        help="Games that may have been played on or before this date.", where=_date("date_from", end=True)
    )
    result: str | None = _filter(
        help="The result the movetext ends with (where it ends without one, the Result tag; * unfinished);"
        " --tag Result=… for the Result tag as written.",
        choices=RESULTS,
        where="records.result = ?",
    )
    ending: str | None = _filter(
        help="How the game ended (king captured, resigned, unfinished, …: lusoria stats lists an archive's), or in "
        "the words of the Termination tag it was read from (resignation, time forfeit).",
        where=_ending,
    )
    min_plies: int | None = _filter(
        help="Games whose main line has at least this many plies.",
        minimum=0,
        maximum=MAX_SQL_INTEGER,
        where="records.plies >= ?",
    )
    max_plies: int | None = _filter(
        help="Games whose main line has at most this many plies.",
        minimum=0,
        maximum=MAX_SQL_INTEGER,
        where="records.plies <= ?",
    )
    record_id: int | None = _filter(
        help="The record of this id (the first column of query's table).",
        option="id",
        minimum=1,
        maximum=MAX_SQL_INTEGER,
        where="records.id = ?",
    )
    valid: bool | None = _filter(
        help="Only valid, or only invalid, records.", negative="invalid", where="records.valid = ?"
    )
    rule: str | None = _filter(
        help="Records with a diagnostic for this rule (T4, S4, Q6, syntax, …).",
        where=lambda rule, _: _citing(rule),
    )
    tags: list[tuple[str, str]] = _filter(
        [],
        option="tag",
        metavar="NAME=VALUE",
        read="pairs",
        where=_tags,
        takes="a list of (NAME, VALUE) pairs, as [('Site', 'Uppsala')]",
        help="A tag whose value matches VALUE, a glob: * any text, ? any character, [abc] one of them (repeatable).",
    )
    text: str | None = _filter(
        help="Words found in the players, event, site, source tags or comments (all of "
        "them, in any form: escape finds escapes; Fomi* finds words that begin so).",
        where=_words,
    )
    position: str | None = _filter(
        help="A position string: records that reached it, and at which ply (without "
        "the side to move: with either side to move)."
    )
    limit: int | None = _filter(help="At most this many records.", maximum=MAX_SQL_INTEGER, minimum=0)
    order: str | None = _filter(
        help="The records oldest first (the default), newest, longest (most plies in the main line) or "
        "shortest first (those of one date: the last imported first when newest, else the first); --limit "
        "keeps the first ones (stats and export, which list no records, take it only with --limit).",
        choices=tuple(ORDERS),
    )
    include_unknown: bool = _filter(False, help="Date filters also let records of unknown date through.")
    pattern: str | None = _filter(help="A position pattern (docs/notation.md §6.1): records with a ply that matches.")
    symmetric: bool = _filter(False, help="Positions and patterns also match in the 8 symmetries of a square board.")
    positions: list[str] = _filter(
        [], read="lines", help="A file of positions or patterns, one a line: records with a ply that matches any."
    )
    material: list[str] = _filter(
        [], metavar="CONDITIONS", help="Piece counts, e.g. 'white<=4, king' (repeatable; all hold at the same ply)."
    )
    material_for: int = _filter(
        1, option="for", minimum=1, help="The ply conditions hold for at least this many plies in a row."
    )
    records: list[RecordText | str] = _filter(
        [],
        read="records",
        where=lambda texts, _: _continuations(texts),  # the same games, or continuations
        help="An .lgn file (UTF-8): the same games as its records, or games that continue them.",
    )

    def __setattr__(self, field: str, value: object) -> None:
        """The values matched whole (`TAKEN_WHOLE`) taken as lusoria takes names from its user
        (`name_given`: `' tablut '`, `--player ' Jens Holm '`, `--rule ' T4 '`), given or set later (h81a:
        `filters.game = " copenhagen "` was matched as written)."""
        if field in TAKEN_WHOLE and isinstance(value, str):
            from lusoria.validator.games import name_given

            value = name_given(value)
        super().__setattr__(field, value)


def _continuations(texts: list[RecordText | str]) -> tuple[str, list]:
    from lusoria.archive.search import continuations  # the rules: loaded when searched

    return continuations(texts)


def rule_id(written: str) -> str:
    """A rule ID as diagnostics store it (`t2` -> `T2`, `SYNTAX` -> `syntax`)."""
    from lusoria import rulebook

    try:
        return rulebook.rule(written).id
    except KeyError:
        return written


def _citing(rule: str) -> tuple[str, list]:
    """The records with a diagnostic of `rule`: one of lusoria's rule IDs (`rule_id`), or another, a plug-in game's,
    in any case as its own are (h79b: `z1` found no Z1)."""
    known = rule_id(rule)
    collation = "" if known in rule_ids() else " COLLATE NOCASE"
    return f"records.id IN (SELECT record_id FROM diagnostics WHERE rule = ?{collation})", [known]


def rule_ids() -> list[str]:
    """The IDs of the rules of every game, as diagnostics cite them (`T4`, `syntax`)."""
    from lusoria import rulebook

    return [known.id for known in rulebook.rules()]


KINDS = {"str": (str, "a str"), "bool": (bool, "True or False"), "list": (list, "a list")}  # int: `minimum`…


def filters_given(filters: Any) -> None:
    """TypeError for filters that are no Filters (newcomer-57b: a dict failed deep inside, 'dict' object has no
    attribute 'symmetric'); None is none."""
    if filters is not None and not isinstance(filters, Filters):
        raise TypeError(f"filters are a Filters (lusoria.archive.Filters(player=…)), not {type(filters).__name__}")


def check_values(filters: Filters) -> None:
    """FilterError for a filter whose value is not of its declared type (a library's caller may give
    any: `valid="yes"` found nothing), or a whole number outside its bounds (`minimum`, `maximum`),
    as its option would take it, and `material_for` over 1 with no ply condition to hold so long
    (`--for 3` alone found every record), `include_unknown` with no date filter to let records through
    (newcomer-53b), a range of dates or plies that ends before it starts. Every Archive method that takes
    filters checks them first."""
    filters_given(filters)
    for declared in fields(filters):
        value, meta, written = getattr(filters, declared.name), declared.metadata, str(declared.type)
        kind = re.split(r"[\[ ]", written)[0]  # "int | None": int; "list[str]": list
        if not (value is None and written.endswith("| None") or _of_kind(kind, value, meta)):
            given = (
                quoted(value)
                if isinstance(value, str)
                else reprlib.repr(value)  # (of its kind, out of its bounds: h72c, "not int (-1)" read as a type's)
                if type(value).__name__ == kind
                else f"{type(value).__name__} ({reprlib.repr(value)})"
            )
            raise FilterError(declared.name, f"is {meta.get('takes') or _kind(kind, meta)}; not {given}")
        for text in _texts(value):
            if said := undecoded(text):
                raise FilterError(declared.name, said)
    if filters.material_for > 1 and not (filters.position or filters.pattern or filters.positions or filters.material):
        raise FilterError("material_for", "counts plies in a row that match a position, pattern or material: give one")
    if filters.include_unknown and not (filters.date_from or filters.date_to):
        raise FilterError("include_unknown", "lets records of unknown date through a date filter: give one")
    if filters.date_from and filters.date_to and _iso(filters.date_from, False) > _iso(filters.date_to, True):
        said = f"{quoted(filters.date_from)} is later than the date to, {quoted(filters.date_to)}"
        raise FilterError("date_from", f"{said}: no day lies between them")
    if filters.min_plies is not None and filters.max_plies is not None and filters.min_plies > filters.max_plies:
        said = f"{filters.min_plies} is more than the plies at most, {filters.max_plies}"
        raise FilterError("min_plies", f"{said}: no game has so many and so few")  # (h70b: it found "no records")


def _texts(value: Any) -> Iterator[str]:
    """The texts of a filter's value: itself, or those of its list (a tag's name and value)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from _texts(item)


def _of_kind(kind: str, value: Any, declared: Mapping[str, Any]) -> bool:
    if kind != "int":
        return isinstance(value, KINDS[kind][0])
    high = declared.get("maximum")
    number = isinstance(value, int) and not isinstance(value, bool)
    return number and declared["minimum"] <= value and (high is None or value <= high)


def _kind(kind: str, declared: Mapping[str, Any]) -> str:
    if kind != "int":
        return KINDS[kind][1]
    low, high = declared["minimum"], declared.get("maximum")
    return f"a whole number {f'from {low} to {high}' if high is not None else f'of at least {low}'}"


# What `query --format json` and csv list of each record, in this order (the explorer too): the table's columns
# in the same order among them (lusoria.output), the first error's message with its rule and ply, and last the
# file and line; `ply`, when a search within plies found one, comes after them all
LISTED = [*COLUMNS[: COLUMNS.index("path")], "first_message", "path", "line"]
# The message of a record's first error (NULL: none), as `validate` says it: what its first_rule broke
FIRST_MESSAGE = (
    "(SELECT message FROM diagnostics WHERE record_id = records.id AND severity = 'error' ORDER BY number LIMIT 1) "
    "AS first_message"
)


def build(
    filters: Filters, ordered: bool = True, columns: str | None = None, within: tuple[str, list] = ("", [])
) -> tuple[str, list]:
    """The SQL and its parameters for `filters` (records in their `order`, oldest first by default; unless
    `ordered` is False and there is no `limit`: in any order): the COLUMNS of each record, its first error's
    message (`first_message`), its text and the ply a search within plies found; or only `columns` (of
    `records`: "records.id"), which a count needs; of the records `within` selects too (a condition over
    `records` and its parameters, checked before the filters'). ValueError for a filter that cannot work."""
    from lusoria.archive.search import ply_search
    from lusoria.archive.stored import STORED_TEXT

    where: list[str] = [within[0]] if within[0] else []
    params: list = list(within[1])
    for declared in fields(filters):
        value, condition = getattr(filters, declared.name), declared.metadata["where"]
        if (choices := declared.metadata.get("choices")) and value is not None and value not in choices:
            raise FilterError(declared.name, f"is one of {', '.join(choices)}; not {quoted(str(value))}")
        if condition is None or value is None or value == []:
            continue
        sql, found = condition(value, filters) if callable(condition) else (condition, [value])
        where.append(sql)
        params += found
    select, searched = (
        columns or ", ".join(f"records.{c}" for c in COLUMNS) + f", {FIRST_MESSAGE}, {STORED_TEXT}",
        ply_search(filters),
    )
    if searched:
        where.append(searched.where)
        params += searched.where_params
        if columns is None:
            select += f", {searched.column} AS ply"
            params = searched.column_params + params
    sql = f"SELECT {select} FROM {searched.tables if searched else 'records'}" + (
        " WHERE " + " AND ".join(where) if where else ""
    )
    # idx_records_date_order serves searches within plies (they stop at their first matches);
    # `+` keeps it from other queries, for which an index of their own filter is better
    if ordered or filters.limit is not None:
        order = filters.order or "oldest"  # (one of ORDERS: checked with the other filters' choices)
        sql += f" ORDER BY {'' if searched or order != 'oldest' else '+'}{ORDERS[order]}"
    if filters.limit is not None:
        sql += " LIMIT ?"
        params.append(filters.limit)
    if searched and searched.with_:
        sql = f"WITH {searched.with_} {sql}"
        params = searched.with_params + params
    return sql, params


# The filters whose conditions the move tree's sums (`next_plies`, archive/next_plies.py) can tell,
# over its row `n`; and those that select no record by themselves
SUMMED_FILTERS = {"game": "n.game = lower(?)", "variant": "n.variant = lower(?)", "valid": "n.valid = ?"}
UNCHANGING = {"symmetric", "include_unknown", "material_for", "order"}


def selecting(filters: Filters) -> Iterator[tuple[str, Any]]:
    """The filters given (not at their defaults) that select records by themselves (not
    `UNCHANGING`): each one's name and value."""
    for declared in fields(filters):
        value = getattr(filters, declared.name)
        if declared.name not in UNCHANGING and value != declared.default and value != []:
            yield declared.name, value


def summable(filters: Filters, variations: bool) -> tuple[str, list] | None:
    """Conditions over `n` (a row of `next_plies`) that select the records `filters` select, or
    None when the sums cannot tell (a player, dates, words, a variant by another name than its
    Variant tag, …: the tree reads the games)."""
    from lusoria.variants import tags_of_name

    if variations or filters.player is not None or filters.variant is not None and tags_of_name(filters.variant):
        return None
    conditions, params = [], []
    for name, value in selecting(filters):
        if name not in SUMMED_FILTERS:
            return None
        conditions.append(SUMMED_FILTERS[name])
        params.append(value)
    return " AND ".join(conditions), params
