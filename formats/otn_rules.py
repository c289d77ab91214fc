"""OpenTafl's rules records (`[rules:dim:11 esc:c ka:n …]`) read as lusoria's tafl games: the
built-in game and options a record stands for, else the generic game's options that are the
record's own keys (its variant nearest to them); an entry lusoria cannot express is refused by
name, at its place. The catalogue's OpenTafl variants (`[variant:…]`, a record's `name:`) choose a preset."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import NoReturn

from lusoria.formats import FORMATS
from lusoria.formats.common import CANNOT_EXPRESS, Draft, shown, tafl_games
from lusoria.notation.numbers import whole_number
from lusoria.notation.syntax import SyntaxProblem
from lusoria.validator.base import OptionError, RankNotCovered, given_again
from lusoria.validator.grid import read_rank
from lusoria.validator.tafl import TaflGame
from lusoria.validator.tafl_rules import (
    ALIASES,
    KEYS,
    MAX_SIZE,
    MIN_SIZE,
    OPEN,
    PIECE_LISTS,
    hostility_by_side,
    idle,
    read_record,
)

ALL = "tcnkmgTCNKMG"


def named_variant(tags: Mapping[str, re.Match[str]]) -> Mapping[str, str] | None:
    """The tags of the catalogue's OpenTafl variant that the game names (its `[variant:…]` tag, else
    its rules record's `name:`, as OpenTafl writes it) on a board of its `dim`; None for none."""
    entries = dict(entry.partition(":")[::2] for entry in tags["rules"]["value"].split())
    said = [tags["variant"]["value"]] if "variant" in tags else []
    known = {
        f"{_variant_name(name)}#{size}": chosen
        for key, chosen in FORMATS["otn"].games.items()
        for name, _, size in [key.rpartition("#")]
    }
    for name in [*said, entries.get("name", "")]:
        if (found := known.get(f"{_variant_name(name)}#{entries.get('dim', '')}")) is not None:
            return found
    return None


def _variant_name(name: str) -> str:
    """A variant's name as OpenTafl compares them: `_` for a blank (it writes `Sea_Battle` for
    `Sea Battle`), in any case."""
    return " ".join(name.replace("_", " ").split()).casefold()


def chosen_preset(game: type[TaflGame], named: Mapping[str, str] | None) -> str | None:
    """The preset of `game` that `named` (`named_variant`) chooses; None when it names another game's, or
    a variant that lusoria does not play (refused by name)."""
    if named is None or named["Game"] != game.name:
        return None
    preset = named.get("Variant") or next(iter(game.presets))
    return preset if preset in game.presets else None


class _Entries:
    """The entries of an OTN rules record (`key:value`), each with its place."""

    def __init__(self, draft: Draft, tag: re.Match[str]) -> None:
        self.draft, self.at = draft, tag.start("value")
        self.found: dict[str, tuple[str, int]] = {}
        entries = list(re.finditer(r"\S+", tag["value"]))
        for entry in entries:
            key, _, written = entry[0].partition(":")
            if key in self.found:
                count = sum(other[0].partition(":")[0] == key for other in entries)
                raise draft.problem(given_again(key, count), self.at + entry.start(), key, "tag")
            self.found[key] = (written, self.at + entry.start())

    def value(self, key: str, default: str) -> str:
        return self.found.get(key, (default,))[0]

    def check_values(self) -> None:
        """A problem at the first entry whose value is none of its key's (`esc:x`), before any is
        read as meaning another (`esc:x` is no edge escape)."""
        for key, (written, at) in self.found.items():
            closed = key in KEYS and key not in OPEN and key not in PIECE_LISTS
            if closed and ALIASES.get(key, {}).get(written, written) not in KEYS[key]:
                entry = f"{key}:{written}"
                known = ", ".join(KEYS[key])
                raise self.draft.problem(
                    f"rules entry {entry}: unknown value {entry} (known: {known})", at, entry, "tag"
                )

    def cannot(self, key: str, why: str) -> SyntaxProblem:
        """The problem of an entry lusoria cannot express, at it (at the record, when it is not given
        and OTN's default is what lusoria cannot express)."""
        value, at = self.found.get(key, ("", self.at))
        entry = f"{key}:{value}" if key in self.found else f"{key}: (not given: OTN's default)"
        return self.draft.problem(f"rules entry {entry}: {CANNOT_EXPRESS} {why}", at, f"{key}:{value}", "tag")

    def choice(self, key: str, default: str, meanings: dict[str, str], why: str = "this value") -> str:
        """What the value of `key` (or its OTN default) means among lusoria's option values."""
        return meanings.get(self.value(key, default)) or _raise(self.cannot(key, why))


def rules_of(
    draft: Draft,
    tag: re.Match[str],
    own: bool,
    described_only: bool = False,
    named: Mapping[str, str] | None = None,
) -> tuple[type[TaflGame], dict[str, str], tuple[str, int] | None]:
    """The tafl game and options an OTN rules record stands for, and its start position (lusoria's
    position string without the side to move, and where it is; None when the options hold it):
    a built-in game's when one plays the record (`_game_rules`), else the game whose options are
    the record's own keys (its variant nearest to them, and the entries that differ); a
    SyntaxProblem naming the first entry lusoria cannot express. `described_only`: lusoria wrote
    the file for the game whose options are the record's keys ([lusoria-game:…]); so too when
    the game names a variant of that game (`named`) whose rules are exactly the record's."""
    described = next((game for game in tafl_games() if game.described), None)
    preferred = chosen_preset(described, named) if described is not None else None
    try:
        if described_only or (
            described is not None and preferred is not None and _same(tag, own, described, preferred)
        ):
            raise draft.problem("", tag.start("value"))
        return _game_rules(draft, tag, own, named)
    except SyntaxProblem as refused:
        if described is None:
            raise
        try:
            options = _read(_with_named_start(tag["value"], described, preferred), own)
            _check_start(draft, _Entries(draft, tag), options["dim"])
            described(options)
            return described, *_variant_board(draft, tag, described, options, preferred)
        except OptionError as problem:
            entries = _Entries(draft, tag)
            if "start" not in entries.found and "starti" not in entries.found:
                raise refused from None  # not a whole description: what the built-in games lack
            key = str(problem).partition(":")[0]
            key = "starti" if key == "start" and "starti" in entries.found else key  # (either is `start:` there)
            if problem.written is None and key in entries.found:  # a problem of one entry: `start: has 11 ranks`
                written, at = entries.found[key]
                raise draft.problem(f"rules entry {problem}", at, f"{key}:{written}", "tag") from None
            at = problem.at or max(tag["value"].find(problem.written or "\0"), 0)
            said = (
                str(problem)
                if str(problem).startswith(problem.written or "\0")
                else f"{shown(problem.written)}: {problem}"
                if problem.written
                else str(problem)
            )
            raise draft.problem(f"rules entry {said}", tag.start("value") + at, problem.written or "", "tag") from None


def _with_named_start(record: str, described: type[TaflGame], preferred: str | None) -> str:
    """A rules record without a start (`dim:13 name:Sea_Battle_(Parlett)`, as written by hand), with
    the start of the variant it names (`preferred`, on a board of its size): the name says it."""
    keys = {entry.partition(":")[0] for entry in record.split()}
    if preferred is None or keys & {"start", "starti"}:
        return record
    return f"{record} start:{described.preset_options(preferred)['start']}"


def _read(record: str, own: bool) -> dict[str, str]:
    """The generic game's options of a rules record: as its letters say when lusoria wrote it
    (`own`), else its empty squares' hostility as OpenTafl reads it, by side (a `K` alone: none)."""
    options = read_record(record)
    return options if own else {**options, **hostility_by_side(options)}


def _same(tag: re.Match[str], own: bool, described: type[TaflGame], preset: str) -> bool:
    """Whether a rules record sets exactly the options of a preset of the generic game."""
    try:
        written, options = _read(tag["value"], own), described.preset_options(preset)
        unused = idle(written)
        return {k: v for k, v in written.items() if k not in unused} == {
            k: v for k, v in options.items() if k not in unused
        }
    except OptionError:
        return False


def _variant_board(
    draft: Draft,
    tag: re.Match[str],
    described: type[TaflGame],
    options: dict[str, str],
    preferred: str | None = None,
) -> tuple[dict[str, str], tuple[str, int] | None]:
    """The options of a rules record whose board a variant of the generic game has (its `start`
    that variant's: `preferred`'s when on a board of this size, else the first whose start has as
    many soldiers and kings as the record's, so that a Position may hold them, G1), and the record's
    start as a Position when it differs (None when the same); OptionError when no variant has a board
    of its size."""
    same = {
        preset["start"]
        for name in described.presets
        if (preset := described.preset_options(name))["dim"] == options["dim"]
    }
    if not same:
        sizes = sorted(
            {described.preset_options(name)["dim"] for name in described.presets}, key=lambda size: (len(size), size)
        )  # (whole numbers without leading zeros)
        raise OptionError(
            f"dim:{options['dim']}: no variant has a board of this size (they are "
            f"{', '.join(f'{size}×{size}' for size in sizes)}); an entry of your own catalogue on this board "
            f"reads it (docs/rules.md, G1). {described.variants_read_from()}",
            "Rules",
            f"dim:{options['dim']}",
        )
    base = described.preset_options(preferred) if preferred is not None else {}
    if base.get("dim") != options["dim"]:
        base = {}
    if options["start"] == base.get("start") or not base and options["start"] in same:
        return options, None
    start = position_board(draft, options["start"], tag.start("value") + tag["value"].find("start"), described(options))
    holding = sorted(
        board for board in same if all(board.count(piece) >= options["start"].count(piece) for piece in "TKt")
    )
    return {**options, "start": base.get("start") or (holding or sorted(same))[0]}, (
        start,
        tag.start("value") + tag["value"].find("start"),
    )


def _game_rules(
    draft: Draft, tag: re.Match[str], own: bool, named: Mapping[str, str] | None
) -> tuple[type[TaflGame], dict[str, str], tuple[str, int] | None]:
    """The built-in tafl game and options an OTN rules record stands for (`rules_of`). Where the
    options read OpenTafl's rules only nearly, a note says how, unless lusoria wrote the file
    (`own`: its own tags say its rules); `named`: the variant the game names (`named_variant`)."""
    entries = _Entries(draft, tag)
    entries.check_values()
    game = _game(entries)
    options = dict(
        game().option,
        first=entries.choice("atkf", "y", {"y": "black", "n": "white"}),
        **{
            "king-armed": entries.choice("ka", "y", {"y": "yes", "n": "no"}, "a king armed only as hammer or anvil"),
            "throne-hostile": _throne_hostile(entries),
        },
    )
    if entries.value("cen", "default").strip(",") not in ("default", game.board.throne):
        raise entries.cannot("cen", f"a centre other than {game.board.throne}")
    if not own and entries.value("ks", "s") in ("s", "y", "c") and "T" not in entries.value("cenhe", ALL):
        draft.note(
            f"the empty throne is hostile to no defender here (cenhe:{entries.value('cenhe', '')}), so "
            f"OpenTafl never captures a strong king beside it; lusoria counts it against him "
            f"({game().settings.ids.king}), as its own rules do"
        )
    (_corner_options if game.board.corner_escape else _edge_options)(entries, options, game)
    _refuse_unplayed(entries)
    _note_repetition(draft, entries, game, named is not None and named["Game"] == game.name, own)
    start = None
    if "start" in entries.found or "starti" in entries.found:
        key = "start" if "start" in entries.found else "starti"
        text, at = entries.found[key]
        start = position_board(draft, text, at, game, inverted=key == "starti"), at
    return game, options, start


_HARMLESS = {
    "linc": "n",
    "ber": "n",
    "kj": "n",
    "spd": "-1",
    "afor": "",
    "dfor": "",
    "swf": "y",
}  # the values lusoria plays
_KNOWN = frozenset(
    "dim esc cor cen atkf ka ks tfr cenp cens cenre cenhe cenh surf sw swf efe linc ber kj nj cj mj gj spd afor dfor "
    "corh corp cors corre aforh dforh aforp dforp afors dfors aforre dforre name start starti".split()
)  # the entries a built-in game's record may hold


def _refuse_unplayed(entries: _Entries) -> None:
    """Refuses an entry whose rule no built-in game plays (a value of an entry of `_HARMLESS` other
    than its own) or that is not in `_KNOWN`."""
    for key, harmless in _HARMLESS.items():
        if entries.value(key, harmless) != harmless:
            raise entries.cannot(key, "this rule")
    for key in entries.found:
        if key not in _KNOWN:
            raise entries.cannot(key, "this unknown rules entry")


def _note_repetition(draft: Draft, entries: _Entries, game: type[TaflGame], named: bool, own: bool) -> None:
    """The threefold repetition of `tfr`: a draw (tfr:d) read with a note of what lusoria does
    instead; one that wins or loses refused, but in a record that names the game's own variant
    (`named`: OpenTafl's Copenhagen is tfr:w), read with a note as the game has it. No note when
    lusoria wrote the file (`own`: it wrote back the `tfr:` it read, OtnRepetition, with the note)."""
    tfr = entries.value("tfr", "d")
    if tfr not in ("i", "d") and not (named and tfr in ("w", "l") and game.board.corner_escape):
        raise entries.cannot("tfr", "a repetition that wins or loses")
    if tfr != "i" and not own:
        written = f"tfr:{tfr}" if "tfr" in entries.found else f"tfr:{tfr}, OTN's default"
        draft.note(
            f"threefold repetition ({written}) is not checked: "
            + (
                "repetition neither ends the game nor makes a move illegal"
                if game.board.corner_escape
                else "lusoria's repetition=draw ends the game at the first repetition"
            )
        )


def _game(entries: _Entries) -> type[TaflGame]:
    """The tafl game whose board has the record's `dim` and whose king escapes as its `esc` says."""
    dim, corners = whole_number(entries.value("dim", ""), 1, 19), entries.value("esc", "c") == "c"
    games = [game for game in tafl_games() if not game.described]
    sized = [game for game in games if game.board.size == dim]
    for game in sized:
        if game.board.corner_escape == corners:
            return game
    generic = next((game.name for game in tafl_games() if game.described), None)
    if sized:
        escape = "a corner" if sized[0].board.corner_escape else "any edge square"
        kept = f", or give the board's layout, start:, read as {generic} with this escape" if generic else ""
        raise entries.cannot(  # (h79a: esc: alone changes the game's rules; start: keeps them)
            "esc",
            f"escape to the {'corners' if corners else 'edge'} on this board (lusoria's "
            f"{sized[0].title} king escapes to {escape}; write esc:{'e' if corners else 'c'}{kept})",
        )
    sizes = ", ".join(f"{size}×{size}" for size in sorted({game.board.size for game in games}))
    other = (
        f"; a rules record with a start: entry is read as {generic}, on any board from "
        f"{MIN_SIZE}×{MIN_SIZE} to {MAX_SIZE}×{MAX_SIZE}"
        if generic
        else ""
    )
    raise entries.cannot("dim", f"a board of this size (lusoria's tafl games are {sizes}{other})")


def _throne_hostile(entries: _Entries) -> str:
    """throne-hostile from the centre's hostility: `cenhe` when empty, `cenh` when held."""
    hostile_empty = set(entries.value("cenhe", ALL)) & set("tT")
    hostile_held = set(entries.value("cenh", "tcnkm")) & set("tT")
    if hostile_empty == set() and "T" not in hostile_held:
        return "no"
    if hostile_empty == set("tT") and "T" not in hostile_held:
        return "empty"
    if hostile_empty == set("tT") and hostile_held == set("tT"):
        return "always"
    raise entries.cannot("cenhe" if hostile_empty not in (set(), set("tT")) else "cenh", "this throne hostility")


def _edge_options(entries: _Entries, options: dict[str, str], game: type[TaflGame]) -> None:
    """The options of the game whose king escapes to the edge (Tablut) that OTN's entries set: no
    Tuichi (OTN has none), the king's strength, who passes over and stops on the throne (a king who may
    not pass over it not going back to it, as OpenTafl plays `cenp:`; a file lusoria wrote says its own in
    its own tags)."""
    if "cor" not in entries.found or entries.value("cor", "") != "":
        raise entries.cannot(
            "cor", "corner squares (a king that escapes to the edge has none; write cor: with no squares)"
        )
    options["tuichi-ends"] = "no"
    options["king-capture"] = entries.choice(
        "ks", "s", {"s": "4", "y": "4", "c": "2"}, "a king weak everywhere, or captured against the edge"
    )
    passers = frozenset(set(entries.value("cenp", ALL)) & set("tTK"))
    options["throne-pass"] = {frozenset("tTK"): "all", frozenset("K"): "king", frozenset(): "none"}.get(
        passers
    ) or _raise(entries.cannot("cenp", "this set of pieces"))
    if set(entries.value("cens", "K")) & set("tT"):
        raise entries.cannot("cens", "soldiers that may stop on the throne")
    back = "K" in entries.value("cenp", ALL)  # (OpenTafl checks a sliding move's last square as those it passes)
    options["throne-stop"] = (
        "king" if back and "K" in entries.value("cens", "K") and "K" in entries.value("cenre", ALL) else "none"
    )
    if entries.value("surf", "y") not in ("y", "n"):  # Tablut has no encirclement: OTN's y (its default) is read as
        raise entries.cannot("surf", "this value")  # n, which lusoria writes
    for key, harmless in (("sw", "n"), ("efe", "n")):
        if entries.value(key, harmless) != harmless:
            raise entries.cannot(key, "this rule")


def _corner_options(entries: _Entries, options: dict[str, str], game: type[TaflGame]) -> None:
    """The options of a game whose king escapes to a corner (Copenhagen, Brandubh) that OTN's
    entries set: the king's strength, shieldwalls, exit forts and encirclement; the corners,
    the throne's passage and who stops on them as the games have them."""
    options["king-capture"] = entries.choice(
        "ks", "s", {"s": "4", "y": "4", "c": "2"}, "a king weak everywhere, or captured against the edge"
    )
    options["shieldwall"] = entries.choice("sw", "n", {"s": "strong", "w": "weak", "n": "none"})
    options["exit-forts"] = entries.choice("efe", "n", {"y": "yes", "n": "no"})
    options["encirclement"] = entries.choice("surf", "y", {"y": "yes", "n": "no"})
    geo = game().geo
    corners = {geo.names[square] for square in range(geo.squares) if geo.corners[square]}
    if entries.value("cor", "default") != "default" and set(entries.value("cor", "").strip(",").split(",")) != corners:
        raise entries.cannot("cor", "corner squares other than the board's four corners")
    for key, default, kept in (
        ("cenp", ALL, "tTK"),
        ("cens", "K", "K"),
        ("corp", "K", "K"),
        ("cors", "K", "K"),
        ("corh", ALL, "tTK"),
    ):
        if set(entries.value(key, default)) & set("tTK") != set(kept):
            raise entries.cannot(key, "this set of pieces")
    for key in ("cenre", "corre"):  # the king goes back to the throne (C4)
        if "K" not in entries.value(key, ALL):
            raise entries.cannot(key, "a king who may not go back")


def _raise(problem: SyntaxProblem) -> NoReturn:
    raise problem


def position_board(draft: Draft, text: str, at: int, game: type[TaflGame] | TaflGame, inverted: bool = False) -> str:
    """An OTN position record (rank 1 first, unless inverted) as lusoria's board part, of the
    game's pieces (OTN's soldiers `t`, `T` are lusoria's `p`, `P`; commanders, knights and
    mercenaries keep their letters)."""
    rows = text.strip("/").split("/")
    played = "".join(game.pieces)
    pieces = {otn: ours for otn in "tcnmTCNMK" if (ours := {"t": "p", "T": "P"}.get(otn, otn)) in played}
    size = game.board.size
    letters = "".join(pieces)
    if len(rows) != size or not all(re.fullmatch(rf"(?:\d+|[{letters}])*", row) for row in rows):
        raise draft.problem(
            f"'{shown(text)}' is not a {size}×{size} {game.title} position record (pieces {', '.join(pieces)})",
            at,
            text,
            "tag",
        )
    _check_widths(draft, rows, at, size)
    converted = [re.sub(f"[{letters}]", lambda m: pieces[m[0]], row) for row in rows]
    return "/".join(converted if inverted else reversed(converted))


def _check_start(draft: Draft, entries: _Entries, dim: str) -> None:
    """The ranks of a rules record's start (`start:`, `starti:`) each cover the board (`_check_widths`)."""
    size = whole_number(dim, MIN_SIZE, MAX_SIZE)
    for key in ("start", "starti"):
        if key in entries.found and size:
            text, at = entries.found[key]
            _check_widths(draft, text.strip("/").split("/"), at, size, f"rules entry {key}: ")


def _check_widths(draft: Draft, rows: list[str], at: int, size: int, said: str = "") -> None:
    """A SyntaxProblem at the first of the ranks `rows` (of a position record at or after `at`)
    that does not cover `size` squares as `read_rank` counts them (what is not a digit, a square),
    quoted as written (after `said`, what holds them)."""
    place = at
    for row in rows:
        place = draft.locator.text.find(row, place)
        try:
            read_rank(re.sub(r"\D", "p", row), size, "tafl", {"p": 1})
        except RankNotCovered as wrong:
            raise draft.problem(f"{said}the rank '{shown(row)}' covers {wrong.covers}", place, row, "tag") from None
        except OptionError:  # a count read_rank does not read (0, ٣): said as the position's reader says it
            pass
        place += len(row)


def written_name(rules: TaflGame) -> str:
    """The name a rules record gives `rules` (`name:`, which OpenTafl shows): OpenTafl's
    (`opentafl_name`); for a built-in game's rules OpenTafl has not, the game's title, with the
    variant's name but for the game's first variant and a name OpenTafl gives other rules on that
    board (`Brandubh`, `Tablut_(seed)`, `Copenhagen_(fetlar)`); "" for the generic game's others."""
    found = opentafl_name(rules)
    if found or rules.described:
        return found
    name, size = rules.title.replace(" ", "_"), str(rules.board.size)
    taken = {_variant_name(key.rpartition("#")[0]) for key in FORMATS["otn"].games if key.endswith(f"#{size}")}
    plain = rules.variant == next(iter(type(rules).presets)) and _variant_name(name) not in taken
    return name if plain else f"{name}_({rules.variant})"


def opentafl_name(rules: TaflGame) -> str:
    """OpenTafl's name of the rules' variant, as its rules records write it (`Sea_Battle_(Parlett)`);
    "" for a variant OpenTafl has not."""
    for key, chosen in FORMATS["otn"].games.items():
        name, _, size = key.rpartition("#")
        if chosen_preset(type(rules), chosen) == rules.variant and size == str(rules.board.size):
            return name.replace(" ", "_")
    return ""
