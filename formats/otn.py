"""OpenTafl Notation (`.otg`, spec: opentafl-notation-spec.txt of jslater89/OpenTafl): the
reader, which maps OTN's tags and rules record onto lusoria's tags, its tafl game (the one whose
board has the record's `dim` and whose king escapes as its `esc` says) and that game's options,
and the writer (`lusoria convert --to otn`).

Sides: OTN's attackers are the Muscovites (Black), its defenders the Swedes (White).
A file lusoria wrote carries `[lusoria-variant:…]` and `[lusoria-rules:…]` tags, which are
the record's own Variant and Rules and win over the mapping of the rules record (some
options, such as `tuichi-ends` and `camps`, have no OTN entry)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from itertools import groupby
from typing import NoReturn, cast
from urllib.parse import quote, unquote

from lusoria.formats import FORMATS
from lusoria.formats.common import CANNOT_EXPRESS, Draft, Locator, one_game, rule_tags, shown, tafl_games, tafl_rules
from lusoria.notation.model import Line, Ply, Record
from lusoria.notation.numbers import whole_number
from lusoria.notation.reader import MAX_TOKEN, RecordText, SyntaxProblem
from lusoria.notation.visitor import PlyKey, Visitor, walk
from lusoria.notation.writer import unknown
from lusoria.validator.base import BLACK, Illegal, OptionError
from lusoria.validator.replay import Report
from lusoria.validator.tafl import TaflGame
from lusoria.validator.tafl_board import EMPTY, KING, LETTERS, SOLDIERS, Geometry, TaflPosition
from lusoria.validator.tafl_rules import described_record, idle, read_record

_TAG = re.compile(r"^[ \t]*\[(?P<key>[A-Za-z][A-Za-z0-9-]*):(?P<value>[^\]\n]*)\][ \t]*$", re.M)
_MOVETEXT = re.compile(r"^[ \t]*\d+[.a-z]", re.M)  # the first turn, of the main line or a variation
_HEADER_LINE = re.compile(r"^[ \t]*(?P<text>\S[^\n]*?)[ \t]*$", re.M)  # a line of the header that is not blank
_TAG_OPENED = re.compile(r"\[(?P<key>[A-Za-z][A-Za-z0-9-]*):")  # a tag's start
_TURN = re.compile(r"(?P<number>\d+)\.(?=\s)")
_VARIATION = re.compile(r"(?P<address>\d+[a-z]\.[\w.]*)(?=\s|$)")
_PLY_ADDRESS = re.compile(r"(?P<number>[0-9]+)(?P<move>[a-z])")  # 12b: the second move of turn 12
TURN_LETTERS = "abcdefghijklmnopqrstuvwxyz"  # a move's letter in its turn (berserk moves make turns longer)
_COMMENT = re.compile(r"\[(?P<text>[^\]]*)\]")
_WORD = re.compile(r"\S+")
_TOKENS = re.compile(r"\[[^\]]*\]?|[^\s\[]+")  # tags and comments, words (MAX_TOKEN)
MAX_NUMBER = 10**9  # a turn or variation number: more than any game has
_MOVE = re.compile(
    r"(?P<piece>[tcnkmgTCNKMG])?(?P<origin>[a-z]\d+)(?P<kind>\^=|[-^=])(?P<target>[a-z]\d+)"
    r"(?:x(?P<captures>[A-Za-z]?[a-z]\d+(?:/[A-Za-z]?[a-z]\d+)*))?(?P<info>\+\+|--|\+|-)?"
)
_SQUARE = re.compile(r"[a-s](?:1[0-9]|[1-9])(?![0-9])")  # a square's name: on the game's board, _check_squares
_BERSERK = re.compile(r"^[A-Za-z]?[a-z]\d+\^?=")  # a berserk move record (e8=e4, Ne6^=e8)
RESULTS = {"1": "0-1", "-1": "1-0", "0": "1/2-1/2", "?": "*"}
TAGS = {
    "event": "Event",
    "site": "Site",
    "date": "Date",
    "round": "Round",
    "attackers": "Black",
    "defenders": "White",
    "annotator": "Annotator",
    "termination": "Termination",
}
OWN = {"lusoria-variant": "Variant", "lusoria-rules": "Rules", "lusoria-position": "Position"}
CARRIED = "lusoria-tags"  # the tags OTN's own cannot hold as they are: NAME=VALUE, percent-encoded
DESCRIBED = "lusoria-game"  # written for a game whose options are the rules record's keys: no built-in game reads it
NOT_COPIED = {"rules", "result", "start-comment", "position", "variant", CARRIED, DESCRIBED, *OWN}
RULES_NAME = "OtnRulesName"  # the tag of the rules record's `name:` entry (OpenTafl's name of its rules)
_RULES_NAME = re.compile(r"(?:^|(?<=\s))name:(?P<name>[^\s\]]+)")  # as read; as written when it is one word
_KEY = re.compile(r"[A-Za-z][A-Za-z0-9-]*")  # an OTN tag's name, as _TAG reads it
_LGN_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_]*")  # a tag's name in lusoria's notation (TAG_NAME)
_PLAIN_VALUE = re.compile(r"[^\]\r\n]*")  # what an OTN tag's value holds as it is (a CR would become a line end)
MAX_DEPTH = 32  # variations one inside another that `write_otn` writes: each turn's address grows with the depth
ALL = "tcnkmgTCNKMG"


# -- reading -------------------------------------------------------------------------------------


def read_otn(text: str, path: str, tags: dict[str, str] | None = None) -> Iterator[RecordText]:
    """An OTN file holds one game, its rules record picking the game (`tags` are not read)."""
    draft = Draft("otn", Locator(text), 0, len(text))
    return one_game(draft, _read, text, path)


def _check_header(draft: Draft, text: str, header_end: int) -> None:
    """Every line before the first turn is a tag or blank: OpenTafl reads the tags up to the first
    line that is not one, so a line that is neither (a tag not closed, stray text) is an error there."""
    tagged = {found.start() for found in _TAG.finditer(text, 0, header_end)}
    for line in _HEADER_LINE.finditer(text, 0, header_end):
        if line.start() not in tagged:
            opened = _TAG_OPENED.match(line["text"])
            raise draft.problem(
                f"the [{opened['key']}:…] tag is not closed with ']' on its line"
                if opened and "]" not in line["text"]
                else "found a line that is not a tag before the first turn: an OTN header is [key:value] tags, "
                "one a line",
                line.start("text"),
                line["text"],
            )


def _read(draft: Draft, text: str) -> None:
    draft.refuse_long_tokens(_TOKENS)
    first_turn = _MOVETEXT.search(text)
    header_end = first_turn.start() if first_turn else len(text)
    tags: dict[str, re.Match[str]] = {}
    _check_header(draft, text, header_end)
    for found in _TAG.finditer(text, 0, header_end):
        key = found["key"].lower()
        if key in tags:
            raise draft.problem(
                f"a second [{found['key']}:…] tag (the first is on line "
                f"{draft.locator.where(tags[key].start())[0]}): an OTN game has one of each",
                found.start("key"),
                found["key"],
                "tag",
            )
        tags[key] = found
    if "rules" not in tags:
        raise draft.problem("an OTN game needs a [rules:…] tag", 0, rule="tag")
    named = _named(tags)
    try:
        game, options, start = _rules(draft, tags["rules"], "lusoria-rules" in tags, DESCRIBED in tags, named)
    except SyntaxProblem as problem:
        if problem.rule != "tag":
            raise
        _refused(draft, tags, problem)
        return
    draft.tag("Game", game.name, tags["rules"].start("value"))
    # written by lusoria for this game: the record's own rule tags (a file written for another game,
    # a plug-in's, that reads as the generic game lacks its [lusoria-game:…]: its rules record decides)
    if "lusoria-rules" in tags and game.described == (DESCRIBED in tags):
        for key, tag in OWN.items():
            if key in tags and tags[key]["value"].strip():
                draft.tag(tag, tags[key]["value"].strip(), tags[key].start("value"))
    else:
        preferred = _preset(game, named)
        for name, value in rule_tags(game, options, ("dim", "start") if game.described else (), preferred).items():
            draft.tag(name, value, tags["rules"].start("value"))
        described = game(options)
        side = "b" if described.settings.first == BLACK else "w"
        if start is not None and start[0] != described.board.start.split()[0]:
            draft.tag("Position", f"{start[0]} {side}", start[1])
        if "position" in tags:
            written = tags["position"]["value"].strip()
            draft.tag(
                "Position",
                f"{_board(draft, written, tags['position'].start('value'), described)} {side}",
                tags["position"].start("value"),
            )
    try:
        rules = tafl_rules(draft.tags)
    except OptionError as problem:
        _refused(draft, tags, draft.problem(str(problem), tags["rules"].start("value"), rule="tag"))
        return
    rules_name = _RULES_NAME.search(tags["rules"]["value"])
    if rules_name is not None and rules_name["name"] != _opentafl_name(rules):  # (that one is written back anyway)
        draft.tag(RULES_NAME, rules_name["name"], tags["rules"].start("value") + rules_name.start("name"))
    _copy_tags(draft, tags)
    black_first = ("Position" in draft.tags and draft.tags["Position"].endswith("b")) or (
        "Position" not in draft.tags and rules.initial().turn == BLACK
    )
    _movetext(draft, text, header_end, black_first)
    _check_squares(draft, rules)


def _refused(draft: Draft, tags: Mapping[str, re.Match[str]], problem: SyntaxProblem) -> None:
    """A game whose rules lusoria does not play (`problem`, a `tag` problem, says why): the record
    keeps what the file says of the game (players, result…) and, as `GameType`, the name of its rules
    (its `[variant:…]`, else its rules record's `name:`, else the record), for the archive; no Game
    tag and no plies (formats/contract.py)."""
    for name in ("Game", "Variant", "Rules", "Position"):
        draft.tags.pop(name, None)
    _copy_tags(draft, tags)
    rules = tags["rules"]
    named = _RULES_NAME.search(rules["value"])
    kind = (
        (tags["variant"]["value"].strip() if "variant" in tags else "")
        or (named["name"] if named else "")
        or shown(rules["value"].strip())
    )
    draft.tag("GameType", kind, rules.start("value"))
    draft.problems.append(problem)


def _copy_tags(draft: Draft, tags: Mapping[str, re.Match[str]]) -> None:
    """The tags of an OTN game that lusoria keeps: the players, event, result… (`_tag_name`), the
    tags it carries, the start comment and the variant's name."""
    for key, match in tags.items():
        value = match["value"].strip()
        if (copied := _tag_name(match["key"])) is not None:
            draft.tag(copied, value, match.start("value"))
        elif key == CARRIED:
            _carried_tags(draft, match)
        elif key == "result":
            if value not in RESULTS:
                raise draft.problem(
                    f"[result:{shown(value)}] is not an OTN result: 1 (the attackers won), -1 (the "
                    "defenders won), 0 (a draw) or ? (not known)",
                    match.start("value"),
                    value[:20],
                    "tag",
                )
            draft.result = RESULTS[value]
            draft.tag("Result", draft.result, match.start("value"))
        elif key == "start-comment" and value:
            draft.line.comments.append(value)
        elif key == "variant" and value:
            draft.tag("OtnVariant", value, match.start("value"))


def _named(tags: Mapping[str, re.Match[str]]) -> Mapping[str, str] | None:
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


def _preset(game: type[TaflGame], named: Mapping[str, str] | None) -> str | None:
    """The preset of `game` that `named` (`_named`) chooses; None when it names another game's, or
    a variant that lusoria does not play (refused by name)."""
    if named is None or named["Game"] != game.name:
        return None
    preset = named.get("Variant") or next(iter(game.presets))
    return preset if preset in game.presets else None


def _check_squares(draft: Draft, rules: TaflGame) -> None:
    """A SyntaxProblem at the first ply that names a square off the game's board."""

    class Squares(Visitor):
        def visit_ply(self, ply: Ply, number: int, key: PlyKey) -> None:
            wrong = next((square for square in _SQUARE.findall(ply.text) if square not in rules.geo.index), None)
            if wrong is not None:
                raise SyntaxProblem(
                    f"{wrong} is not a square of the {rules.title} board ({rules.geo.names[0]}–{rules.geo.names[-1]})",
                    ply.line,
                    ply.column,
                    wrong,
                )

    walk(draft.record(), Squares())


def _tag_name(key: str) -> str | None:
    """The lusoria tag an OTN tag `key` is read as (OTN's own names mapped, any other in CamelCase:
    `time-control` → `TimeControl`); None for the tags read otherwise (rules, result, …)."""
    if not _KEY.fullmatch(key) or key.lower() in NOT_COPIED:
        return None
    return TAGS.get(key.lower()) or "".join(part[:1].upper() + part[1:] for part in key.split("-"))


def _carried_tags(draft: Draft, tag: re.Match[str]) -> None:
    """The tags of `[lusoria-tags:NAME=VALUE …]` (percent-encoded; `_tag_lines` writes it)."""
    for entry in re.finditer(r"\S+", tag["value"]):
        name, equals, value = entry[0].partition("=")
        try:
            name, value = unquote(name, errors="strict"), unquote(value, errors="strict")
        except UnicodeDecodeError:
            equals = ""
        if not equals or not _LGN_NAME.fullmatch(name) or "\n" in value or "\r" in value:
            raise draft.problem(
                f"{CARRIED} entry '{shown(entry[0])}' is not NAME=VALUE (percent-encoded UTF-8, "
                "a name of letters, digits and _, a value of one line)",
                tag.start("value") + entry.start(),
                shown(entry[0]),
                "tag",
            )
        draft.tag(name, value, tag.start("value") + entry.start())


class _Entries:
    """The entries of an OTN rules record (`key:value`), each with its place."""

    def __init__(self, draft: Draft, tag: re.Match[str]) -> None:
        self.draft, self.at = draft, tag.start("value")
        self.found: dict[str, tuple[str, int]] = {}
        for entry in re.finditer(r"\S+", tag["value"]):
            key, _, written = entry[0].partition(":")
            if key in self.found:
                raise draft.problem(f"rules entry {key}: is given twice", self.at + entry.start(), key, "tag")
            self.found[key] = (written, self.at + entry.start())

    def value(self, key: str, default: str) -> str:
        return self.found.get(key, (default,))[0]

    def cannot(self, key: str, why: str) -> SyntaxProblem:
        """The problem of an entry lusoria cannot express, at it."""
        value, at = self.found.get(key, ("", self.at))
        return self.draft.problem(f"rules entry {key}:{value}: {CANNOT_EXPRESS} {why}", at, f"{key}:{value}", "tag")

    def choice(self, key: str, default: str, meanings: dict[str, str], why: str = "this value") -> str:
        """What the value of `key` (or its OTN default) means among lusoria's option values."""
        return meanings.get(self.value(key, default)) or _raise(self.cannot(key, why))


def _rules(
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
    preferred = _preset(described, named) if described is not None else None
    try:
        if described_only or described is not None and preferred is not None and _same(tag, described, preferred):
            raise draft.problem("", tag.start("value"))
        return _game_rules(draft, tag, own)
    except SyntaxProblem as refused:
        if described is None:
            raise
        try:
            options = read_record(tag["value"])
            described(options)
            return described, *_variant_board(draft, tag, described, options, preferred)
        except OptionError as problem:
            if "start" not in _Entries(draft, tag).found and "starti" not in _Entries(draft, tag).found:
                raise refused from None  # not a whole description: what the built-in games lack
            at = problem.at or max(tag["value"].find(problem.written or "\0"), 0)
            said = (
                str(problem)
                if str(problem).startswith(problem.written or "\0")
                else f"{shown(problem.written)}: {problem}"
                if problem.written
                else str(problem)
            )
            raise draft.problem(f"rules entry {said}", tag.start("value") + at, problem.written or "", "tag") from None


def _same(tag: re.Match[str], described: type[TaflGame], preset: str) -> bool:
    """Whether a rules record sets exactly the options of a preset of the generic game."""
    try:
        written, options = read_record(tag["value"]), described.preset_options(preset)
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
    that variant's: `preferred`'s when on a board of this size), and the record's start as a
    Position when it differs (None when the same); OptionError when no variant has a board of
    its size."""
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
            f"{', '.join(f'{size}×{size}' for size in sizes)})",
            "Rules",
            f"dim:{options['dim']}",
        )
    base = described.preset_options(preferred) if preferred is not None else {}
    if base.get("dim") != options["dim"]:
        base = {}
    if options["start"] == base.get("start") or not base and options["start"] in same:
        return options, None
    start = _board(draft, options["start"], tag.start("value") + tag["value"].find("start"), described(options))
    return {**options, "start": base.get("start") or min(same)}, (
        start,
        tag.start("value") + tag["value"].find("start"),
    )


def _game_rules(
    draft: Draft, tag: re.Match[str], own: bool
) -> tuple[type[TaflGame], dict[str, str], tuple[str, int] | None]:
    """The built-in tafl game and options an OTN rules record stands for (`_rules`). Where the
    options read OpenTafl's rules only nearly, a note says how, unless lusoria wrote the file
    (`own`: its own tags say its rules)."""
    entries = _Entries(draft, tag)
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
    for key, harmless in (
        ("linc", "n"),
        ("ber", "n"),
        ("kj", "n"),
        ("spd", "-1"),
        ("afor", ""),
        ("dfor", ""),
        ("swf", "y"),
    ):
        if entries.value(key, harmless) != harmless:
            raise entries.cannot(key, "this rule")
    known = {
        "dim",
        "esc",
        "cor",
        "cen",
        "atkf",
        "ka",
        "ks",
        "tfr",
        "cenp",
        "cens",
        "cenre",
        "cenhe",
        "cenh",
        "surf",
        "sw",
        "swf",
        "efe",
        "linc",
        "ber",
        "kj",
        "nj",
        "cj",
        "mj",
        "gj",
        "spd",
        "afor",
        "dfor",
        "corh",
        "corp",
        "cors",
        "corre",
        "aforh",
        "dforh",
        "aforp",
        "dforp",
        "afors",
        "dfors",
        "aforre",
        "dforre",
        "name",
        "start",
        "starti",
    }
    for key in entries.found:
        if key not in known:
            raise entries.cannot(key, "this unknown rules entry")
    tfr = entries.value("tfr", "d")
    if tfr not in ("i", "d"):
        raise entries.cannot("tfr", "a repetition that wins or loses")
    if tfr == "d":
        draft.note(
            "threefold repetition (tfr:d) is not checked: "
            + (
                "repetition neither ends the game nor makes a move illegal"
                if game.board.corner_escape
                else "lusoria's repetition=draw ends the game at the first repetition"
            )
        )
    start = None
    if "start" in entries.found or "starti" in entries.found:
        key = "start" if "start" in entries.found else "starti"
        text, at = entries.found[key]
        start = _board(draft, text, at, game, inverted=key == "starti"), at
    return game, options, start


def _game(entries: _Entries) -> type[TaflGame]:
    """The tafl game whose board has the record's `dim` and whose king escapes as its `esc` says."""
    dim, corners = whole_number(entries.value("dim", ""), 1, 19), entries.value("esc", "c") == "c"
    games = [game for game in tafl_games() if not game.described]
    sized = [game for game in games if game.board.size == dim]
    for game in sized:
        if game.board.corner_escape == corners:
            return game
    if sized:
        escape = "a corner" if sized[0].board.corner_escape else "any edge square"
        raise entries.cannot(
            "esc",
            f"escape to the {'corners' if corners else 'edge'} on this board (lusoria's "
            f"{sized[0].title} king escapes to {escape}; write esc:{'e' if corners else 'c'})",
        )
    sizes = ", ".join(f"{size}×{size}" for size in sorted({game.board.size for game in games}))
    raise entries.cannot("dim", f"a board of this size (lusoria's tafl games are {sizes})")


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
    Tuichi (OTN has none), the king's strength, who passes over and stops on the throne."""
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
    options["throne-stop"] = (
        "king" if "K" in entries.value("cens", "K") and "K" in entries.value("cenre", ALL) else "none"
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


def _board(draft: Draft, text: str, at: int, game: type[TaflGame] | TaflGame, inverted: bool = False) -> str:
    """An OTN position record (rank 1 first, unless inverted) as lusoria's board part."""
    rows = text.strip("/").split("/")
    pieces = {"t": "p", "T": "P", "K": "K"}
    size = game.board.size
    if len(rows) != size or not all(re.fullmatch(r"(?:\d+|[tTK])*", row) for row in rows):
        raise draft.problem(
            f"'{shown(text)}' is not a {size}×{size} {game.title} position record (pieces t, T, K)", at, text, "tag"
        )
    converted = [re.sub(r"[tTK]", lambda m: pieces[m[0]], row) for row in rows]
    return "/".join(converted if inverted else reversed(converted))


def _movetext(draft: Draft, text: str, start: int, black_first: bool) -> None:
    """Turns `N. move move` of the main line and variation turns (`12b.1.1a. ..... d2-c2`),
    each followed by an optional `[a|b]` comment on its plies. Variations are attached once
    the whole main line is read, shallowest first, as OpenTafl does (`Variations`)."""
    position, plies_in_turn = start, list[Ply]()
    variations = Variations(draft)
    turns, moves_in_turn = 0, 2  # the main line's turns so far, and the moves written in the last
    while position < len(text):
        blank = re.compile(r"\s+").match(text, position)
        if blank:
            position = blank.end()
            continue
        comment = _COMMENT.match(text, position)
        if comment:
            for ply, words in zip(plies_in_turn, comment["text"].split("|")):
                if words.strip():
                    ply.comments.append(" ".join(words.split()))
            position = comment.end()
            continue
        turn = _TURN.match(text, position) or _VARIATION.match(text, position)
        if turn is None:
            found = _WORD.match(text, position)[0][:40]  # type: ignore[index]  # a blank was skipped above
            raise draft.problem(
                f"found '{found}', expected a turn ('1. e3-c3 d1-d3'), a variation turn "
                f"('3b.1.1a. ..... e3-d3') or a comment ('[…|…]')",
                position,
                found,
            )
        end = text.find("\n", turn.end())
        end = len(text) if end < 0 else end
        words = [(word[0], turn.end() + word.start()) for word in re.finditer(r"\S+", text[turn.end() : end])]
        if turn.re is _TURN:
            turns += 1
            _check_turn(draft, turn, turns, moves_in_turn, words)
            plies_in_turn = [move for word, at in words if (move := _main_ply(draft, word, at, black_first))]
            moves_in_turn = len(words)
            variations.main_turn(turns, plies_in_turn)
        else:
            plies_in_turn = variations.turn(turn["address"], turn.start("address"), words)
        position = end
    variations.attach()


def _check_turn(
    draft: Draft, turn: re.Match[str], expected: int, moves_before: int, words: list[tuple[str, int]]
) -> None:
    """A SyntaxProblem for a turn of the main line numbered out of order, for one after a turn of
    one move (only the last turn may have one), and for a third move in a turn."""
    if whole_number(turn["number"], 1, expected) != expected:
        raise draft.problem(
            f"found turn {shown(turn['number'])}, expected turn {expected} (turns are numbered "
            "from 1, one after another)",
            turn.start(),
            turn["number"][:20],
        )
    if moves_before < 2:
        raise draft.problem(
            f"turn {expected} follows a turn of one move: a turn holds the two sides' moves, "
            "only the last may hold one",
            turn.start(),
            turn["number"][:20],
        )
    moves = [(word, at) for word, at in words if not _BERSERK.search(word)]  # a berserk move continues a move
    if len(moves) > 2:
        word, at = moves[2]
        raise draft.problem(
            f"found a third move '{shown(word)}' in turn {expected}: a turn holds the two sides' moves", at, word[:20]
        )


def _main_ply(draft: Draft, word: str, at: int, black_first: bool) -> Ply | None:
    """A move of the main line; `---` (resignation) sets the result and Termination."""
    if word == "---":
        moves = sum(not _BERSERK.search(ply.text) for ply in draft.line.plies)  # a berserk move: its side's again
        white_to_move = (moves % 2 == 0) != black_first
        draft.tags.setdefault("Termination", "resignation")
        draft.places.setdefault("Termination", draft.locator.where(at))
        if "Result" not in draft.tags or draft.result == "*":  # an unknown result (`?`): the resignation decides it
            draft.result = "0-1" if white_to_move else "1-0"
            if "Result" in draft.tags:
                draft.tag("Result", draft.result, at)
        draft.result_at = at
        return None
    if draft.result_at is not None:
        raise draft.problem(f"found '{shown(word)}' after the resignation", at, word)
    return draft.ply(_ply_text(draft, word, at), at)


def _ply_text(draft: Draft, word: str, at: int) -> str:
    """One OTN move record as the text of a lusoria ply."""
    move = _MOVE.fullmatch(word)
    if move is None:
        raise draft.problem(f"found '{shown(word)}', expected an OTN move record such as e3-c3xc4 or Ke5-e2", at, word)
    squares = [move["origin"], move["target"]] + re.findall(r"[a-z]\d+", move["captures"] or "")
    wrong = next((s for s in squares if not _SQUARE.fullmatch(s)), None)
    if wrong:
        raise draft.problem(f"{wrong} is not a square of a tafl board", at + word.index(wrong), wrong)
    kind = "=" if "=" in move["kind"] else "-"  # a jump (^) is a move the rules tell (G14); = a berserk move (G15)
    text = f"{'K' if move['piece'] == 'K' else ''}{move['origin']}{kind}{move['target']}"
    if move["captures"]:
        text += "x" + "/".join(squares[2:])
    return text


@dataclass
class _Turn:
    """One variation turn as written: its address, where it is, its padding and its plies."""

    parts: tuple[str, ...]  # "12b", "1", "1a", numbers without leading zeros
    numbers: tuple[int, ...]  # 12, 1, 1
    at: int
    padding: int
    plies: list[Ply]

    @property
    def name(self) -> str:
        return ".".join(self.parts) + "."


class Variations:
    """OTN variations, read into lusoria's line tree. A variation turn's address is the
    address of a ply, the variation's number, and the turn in the variation (`12b.1.2a.`);
    `.....` stands for the moves before the variation's first one in its first turn. OpenTafl
    writes the address of the replaced ply on the main line (`12b.1.1a. ..... d2-c2` replaces
    12b) but, inside a variation, the address of the ply before it (`3a.2.1a.1.1a. ..... b1-b2`
    replaces 3a.2.1b): the padding says which (the ply addressed if its place in its turn is the
    padding, else the next one, whose place it must be). A turn holds a move of each side and
    the berserk moves that follow them: its plies are lettered a, b, c…"""

    def __init__(self, draft: Draft):
        self.draft = draft
        self.plies: dict[tuple[str, ...], tuple[list[Ply], int]] = {}  # a ply's address -> its line, index
        self.slots: dict[tuple[int, int], int] = {}  # (id of a line's plies, a ply's index) -> its place in its turn
        self.lines: dict[tuple[str, ...], tuple[Line, int]] = {}  # a variation -> it, its last turn
        self.turns: list[_Turn] = []

    def main_turn(self, number: int, plies: list[Ply]) -> None:
        first = len(self.draft.line.plies) - len(plies)
        for index in range(len(plies)):
            self._place((), number, index, self.draft.line.plies, first + index)

    def _place(self, key: tuple[str, ...], number: int, slot: int, plies: list[Ply], index: int) -> None:
        """Ply `index` of `plies`, move `slot` (0: a) of turn `number` of line `key`."""
        self.slots[id(plies), index] = slot
        if slot < len(TURN_LETTERS):  # (more moves in a turn than letters: no variation can name them)
            self.plies[(*key, f"{number}{TURN_LETTERS[slot]}")] = (plies, index)

    def turn(self, address: str, at: int, words: list[tuple[str, int]]) -> list[Ply]:
        """The plies of a variation turn; they join the tree in `attach`."""
        written = address.rstrip(".").split(".")
        parts, numbers = [], []
        for index, part in enumerate(written):
            ply = None if index % 2 else _PLY_ADDRESS.fullmatch(part)
            number = whole_number(ply["number"] if ply else part, 1, MAX_NUMBER)
            if number is None or len(written) % 2 == 0 or not index % 2 and ply is None:
                raise self.draft.problem(
                    f"'{shown(address)}' is not a variation address such as 3b.1.1a. (a move "
                    f"of a turn, the variation's number, its turn; numbers from 1 to "
                    f"{MAX_NUMBER:,})",
                    at,
                    address[:40],
                )
            parts.append(f"{number}{ply['move']}" if ply else str(number))
            numbers.append(number)
        padding = 0
        while padding < len(words) and re.fullmatch(r"\.+", words[padding][0]):
            padding += 1
        plies = []
        for word, where in words[padding:]:
            if word == "---":
                self.draft.note(f"a resignation (---) ends variation {address}; lusoria's variations cannot hold it")
                break
            plies.append(Ply(_ply_text(self.draft, word, where), *self.draft.locator.where(where)))
        if not plies:
            raise self.draft.problem(f"variation turn {shown(address)} has no move", at, address[:40])
        self.turns.append(_Turn(tuple(parts), tuple(numbers), at, padding, plies))
        return plies

    def attach(self) -> None:
        for turn in sorted(self.turns, key=lambda turn: len(turn.parts)):
            number, letter = turn.numbers[-1], turn.parts[-1][-1]  # checked by `turn`
            if letter != "a":
                raise self.problem(
                    turn,
                    f"a variation turn is addressed by its first move: "
                    f"write {'.'.join(turn.parts[:-1])}.{number}a. and '.....' for the "
                    f"moves before the variation's first",
                )
            key = turn.parts[:-1]
            if key in self.lines:
                line, last = self.lines[key]
                if number != last + 1:
                    raise self.problem(turn, f"variation {'.'.join(key)}. continues with turn {last + 1}a")
                if turn.padding:
                    raise self.problem(turn, "only a variation's first turn has '.....'")
                first = len(line.plies)
            else:
                line, first = self._branch(turn), 0
                if number != 1:
                    raise self.problem(turn, f"variation {'.'.join(key)}. starts with turn 1a")
            line.plies += turn.plies
            self.lines[key] = (line, number)
            for index in range(len(turn.plies)):
                self._place(key, number, turn.padding + index, line.plies, first + index)

    def _branch(self, turn: _Turn) -> Line:
        """A new variation, attached to the ply it replaces."""
        parent, number = turn.parts[:-2], turn.numbers[-2]
        if parent not in self.plies:
            raise self.problem(
                turn, f"variation {turn.name} branches from {'.'.join(parent)}., which is not a ply of this game"
            )
        plies, index = self.plies[parent]
        if TURN_LETTERS.index(parent[-1][-1]) != turn.padding:
            index += 1
            if index == len(plies):
                raise self.problem(
                    turn, f"variation {turn.name} replaces the ply after {'.'.join(parent)}., and there is none"
                )
            if (before := self.slots[id(plies), index]) != turn.padding:
                raise self.problem(
                    turn,
                    f"variation {turn.name} replaces a move with {before} move{'s' * (before != 1)} before it in "
                    f"its turn: write {before} '.....' before the variation's first",
                )
        replaced = plies[index]
        if number != len(replaced.variations) + 1:
            raise self.problem(
                turn,
                f"variation {turn.name} is number {number} of its ply, which has {len(replaced.variations)} before it",
            )
        line = Line()
        replaced.variations.append(line)
        return line

    def problem(self, turn: _Turn, message: str) -> SyntaxProblem:
        return self.draft.problem(message, turn.at, turn.name)


# -- writing -------------------------------------------------------------------------------------


def write_report(report: Report) -> str:
    """A replayed record as an OTN game (the format's writer): ValueError for a game OTN does not hold."""
    if not isinstance(report.rules, TaflGame) or report.record is None:
        raise ValueError(f"OTN holds tafl games, not {report.game}")
    return write_otn(report.record, report.rules, report.canonical, cast(list[TaflPosition], report.positions))


def write_otn(
    record: Record,
    rules: TaflGame,
    canonical: Mapping[PlyKey, str] | None = None,
    main: Sequence[TaflPosition] = (),
) -> str:
    """A record as an OTN game: its tags, a rules record for its options (with lusoria's own
    Variant and Rules alongside, for what OTN cannot say), and its moves with their comments
    and variations (OpenTafl's addresses). `main`: the positions of its main line, the start
    first, as its replay (`Report.positions`) kept them: where left-out berserk continuations
    (G16) were found, a ply is played from the line found, not from the plies as written."""
    tags = record.tags
    lines = _tag_lines(tags)
    lines.append(f"[result:{ {v: k for k, v in RESULTS.items()}[record.result] }]")
    for key, name in OWN.items():
        if name in tags or name == "Rules":
            lines.append(f"[{key}:{tags.get(name, '')}]")
    if rules.described:
        lines.append(f"[{DESCRIBED}:{rules.name}]")
    start = tags.get("Position") or rules.format_position(rules.initial())
    lines.append(f"[rules:{_rules_record(rules, start.split()[0], tags.get(RULES_NAME) or _opentafl_name(rules))}]")
    if record.main.comments:
        lines.append(f"[start-comment:{' '.join(record.main.comments)}]")
    lines.append("")
    texts = _Texts(rules, _position(rules, start), canonical or {}, main)
    walk(record, texts)
    parts: list[Iterator[str | Iterator]] = [
        _turns(record.main, (), 0, texts.of, tags.get("Termination") == "resignation")
    ]
    while parts:  # a stack of lines being written, so that nesting depth costs no recursion
        part = next(parts[-1], None)
        if part is None:
            parts.pop()
        elif isinstance(part, str):
            lines.append(part)
        else:
            parts.append(part)
    return "\n".join(lines) + "\n"


def _tag_lines(tags: Mapping[str, str]) -> list[str]:
    """The record's tags (but those written otherwise: Game, Result, lusoria's own) as OTN tags:
    each as `[key:value]` when it reads back as it is, the others in one `[lusoria-tags:…]`.
    ValueError when that tag is longer than a token lusoria reads (MAX_TOKEN)."""
    lines, carried, keys = [], {}, set()
    for name, value in tags.items():
        if name in ("Game", "Result", *OWN.values()) or unknown(name, value) or _in_rules(name, value):
            continue
        key = _otn_key(name)
        if (
            _tag_name(key) == name
            and key.lower() not in keys
            and _PLAIN_VALUE.fullmatch(value)
            and value == value.strip()
        ):
            lines.append(f"[{key}:{value}]")
            keys.add(key.lower())
        else:
            carried[name] = f"{quote(name, safe='')}={quote(value, safe='')}"
    if carried:
        lines.append(f"[{CARRIED}:{' '.join(carried.values())}]")
        if len(lines[-1]) > MAX_TOKEN:
            raise ValueError(
                f"the tags OTN cannot hold as they are ({', '.join(carried)}), percent-encoded in "
                f"[{CARRIED}:…], make {len(lines[-1]):,} characters: more than a token lusoria reads "
                f"({MAX_TOKEN:,})"
            )
    return lines


def _otn_key(name: str) -> str:
    """The OTN tag that a lusoria tag is written as: OTN's own name (`White` → `defenders`), else
    its words in lower case joined by hyphens (`TimeControl` → `time-control`, as OpenTafl writes
    `[compiler:…]`) when `_tag_name` reads that back as the tag, else the tag's name."""
    key = next((key for key, tag in TAGS.items() if tag == name), None)
    hyphenated = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "-", name).lower()
    return key or (hyphenated if _tag_name(hyphenated) == name else name)


class _Texts(Visitor):
    """Each ply's OTN move record (`_otn_move`), from its canonical text when known (the captures
    the rules make written out), else as written, and the position it is played from: the
    record's lines replayed (a line past a ply its rules refuse is written from its texts alone),
    the main line's from `main` as far as it goes."""

    def __init__(
        self,
        rules: TaflGame,
        start: TaflPosition | None,
        canonical: Mapping[PlyKey, str],
        main: Sequence[TaflPosition],
    ) -> None:
        self.rules, self.start, self.canonical, self.main = rules, start, canonical, main
        self.texts: dict[int, str] = {}
        self.lines: list[list[TaflPosition | None]] = []  # each open line's position before its last ply, and now

    def begin_line(self, line: Line, number: int) -> None:
        self.lines.append([None, self.lines[-1][0] if self.lines else self.start])

    def end_line(self, line: Line, number: int) -> None:
        self.lines.pop()

    def visit_ply(self, ply: Ply, number: int, key: PlyKey) -> None:
        text, state = self.canonical.get(key, ply.text), self.lines[-1]
        if key[0] == 0 and key[1] < len(self.main):
            state[1] = self.main[key[1]]
        position = state[0] = state[1]
        self.texts[id(ply)] = _otn_move(text, ply.text.startswith("K"), self.rules.geo, position)
        try:
            state[1] = self.rules.play(position, text).position if position is not None else None
        except Illegal:
            state[1] = None

    def of(self, ply: Ply) -> str:
        return self.texts[id(ply)]


def _turns(
    line: Line,
    variation: tuple[str, ...],
    first: int,
    canonical: Callable[[Ply], str],
    resigned: bool = False,
    padding: int = 0,
) -> Iterator[str | Iterator]:
    """The turns of a line whose first ply is half-move `first` (0 = the record's first; a berserk
    move shares its side's half-move), each with its comment line and then, as iterators to write
    in turn, the variations of its plies. `variation` is the line's address (() for the main
    line), `padding` the moves of its first turn before its first ply (`.....`). A turn is the
    first mover's move and the reply, each with its berserk moves (`12c`: turn 12's third). A
    resigned line ends with `---`, in place of the move of the side that resigns."""
    start = first - first % 2
    if len(variation) > 2 * MAX_DEPTH:
        raise ValueError(
            f"variations nested more than {MAX_DEPTH} deep: OTN writes each turn with its whole address "
            "(3b.1.1a.…), which grows with the depth"
        )
    halves = _halves(line, canonical)
    turns = [(first + half - start) // 2 + 1 for half in halves]
    slots: list[int] = []  # each ply's place in its turn (0: a)
    for index, turn in enumerate(turns):
        slots.append(padding if index == 0 else slots[-1] + 1 if turns[index - 1] == turn else 0)

    def address(index: int) -> tuple[str, ...]:
        if slots[index] >= len(TURN_LETTERS):
            raise ValueError(f"a turn of more than {len(TURN_LETTERS)} moves has no OTN address")
        return (*variation, f"{turns[index]}{TURN_LETTERS[slots[index]]}")

    for turn, group in groupby(range(len(line.plies)), key=turns.__getitem__):
        indexes = list(group)
        plies = [line.plies[index] for index in indexes]
        words = [canonical(ply) for ply in plies]
        replied = any((first + halves[index] - start) % 2 for index in indexes)
        if resigned and indexes[-1] == len(line.plies) - 1 and not replied:
            words.append("---")
            resigned = False
        padded = slots[indexes[0]]
        label = ".".join((*variation, f"{turn}a")) + ". " + "..... " * padded if variation else f"{turn}. "
        yield label + " ".join(words)
        comments = [
            " ".join((line.comments if index == 0 and variation else []) + ply.comments)
            for index, ply in zip(indexes, plies)
        ]
        if any(comments):
            yield "[" + "|".join(comment.replace("|", "/").replace("]", ")") for comment in comments) + "]"
        for index, ply in zip(indexes, plies):
            if variation and index == 0:  # written with the variation's own alternatives
                continue
            branch = address(index - 1 if variation else index)
            for number, alternative in enumerate(_alternatives(ply), 1):
                yield _turns(
                    alternative, (*branch, str(number)), first + halves[index], canonical, padding=slots[index]
                )
    if resigned:
        yield f"{turns[-1] + 1 if turns else 1}. ---"


def _halves(line: Line, canonical: Callable[[Ply], str]) -> list[int]:
    """Each ply's half-move in its line: a berserk move (`d3=f3`, G15) is its side's move again."""
    halves, half = [], -1
    for ply in line.plies:
        half += not _BERSERK.search(canonical(ply)) or half < 0
        halves.append(half)
    return halves


def _alternatives(ply: Ply) -> Iterator[Line]:
    """The variations of a ply, each followed by those of its first ply: OpenTafl addresses a
    variation from the ply before the one it replaces, so a variation of a variation's first
    ply is written as what it also is, another alternative to the same ply."""
    pending = list(reversed(ply.variations))
    while pending:
        line = pending.pop()
        yield line
        pending.extend(reversed(line.plies[0].variations))


_LGN_MOVE = re.compile(
    r"K?(?P<origin>[a-s]\d+)(?P<kind>[-=])(?P<target>[a-s]\d+)(?:x(?P<captures>[^+]+))?\+*"
)  # a tafl ply as lusoria writes it (the game's grammar has accepted it)


def _otn_move(text: str, king_written: bool, geo: Geometry, position: TaflPosition | None) -> str:
    """A ply as OpenTafl writes it (`MoveSerializer.getMoveRecord`): the letter of a knight or
    commander (`N`, `c`…) that moves or is captured, `^` for a jump over a piece (G14), `=` for
    a berserk move (G15), `^=` for both, a capturing jump's soldier first among its captures;
    the king's letter only where the record wrote it (`king_written`). Without the `position` it
    is played from, its text's own. lusoria's announcements (+, ++) are not OTN's info symbols:
    they are left out."""
    if text == "--":
        raise ValueError("a pass (--) has no OTN move record")
    move = _LGN_MOVE.fullmatch(text)
    squares = _SQUARE.findall(text)
    if move is None or position is None or not set(squares) <= geo.index.keys():
        return text.rstrip("+")
    board = position.board
    origin, target, *captures = (geo.index[square] for square in squares)
    jumped = [square for square in geo.path(origin, target)[:-1] if board[square]]
    captures.sort(key=lambda square: square not in jumped)  # (a stable sort: the rules' order otherwise)

    def letter(square: int) -> str:
        return LETTERS[board[square]] if board[square] not in (EMPTY, KING, *SOLDIERS) else ""

    mover = "K" if king_written and board[origin] == KING else letter(origin)
    kind = ("^" if jumped else "") + ("=" if move["kind"] == "=" else "" if jumped else "-")
    written = "/".join(letter(square) + geo.names[square] for square in captures)
    return f"{mover}{move['origin']}{kind}{move['target']}" + (f"x{written}" if written else "")


def _position(rules: TaflGame, text: str) -> TaflPosition | None:
    """The position of a Position tag, None when the rules cannot read it."""
    try:
        return rules.parse_position(text)
    except OptionError:
        return None


def _otn_board(board: str) -> str:
    rows = board.split("/")
    return "/" + "/".join(row.replace("p", "t").replace("P", "T") for row in reversed(rows)) + "/"


def _opentafl_name(rules: TaflGame) -> str:
    """OpenTafl's name of the rules' variant, as its rules records write it (`Sea_Battle_(Parlett)`);
    "" for a variant OpenTafl has not."""
    for key, chosen in FORMATS["otn"].games.items():
        name, _, size = key.rpartition("#")
        if _preset(type(rules), chosen) == rules.variant and size == str(rules.board.size):
            return name.replace(" ", "_")
    return ""


def _rules_record(rules: TaflGame, board: str, name: str = "") -> str:
    """The OTN rules record of a tafl game's rules, from its Settings (what `_rules` reads back as
    them), starting from `board` (the game's start or its Position) unless its options hold the start;
    `name:` after `dim:`, as OpenTafl writes it, when the record has an OtnRulesName of one word."""
    record = described_record(rules.settings)
    if not rules.described:
        record = record.rpartition(" start:")[0] + f" start:{_otn_board(board)}"
    if _in_rules(RULES_NAME, name):
        size, _, rest = record.partition(" ")
        record = f"{size} name:{name} {rest}"
    return record


def _in_rules(tag: str, value: str) -> bool:
    """Whether a tag is written in the rules record (an OtnRulesName of one word), not as a tag."""
    return tag == RULES_NAME and _RULES_NAME.fullmatch(f"name:{value}") is not None
