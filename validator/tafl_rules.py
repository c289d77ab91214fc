"""A tafl game's rules described by an OpenTafl rules record (opentafl-notation-spec.txt of
jslater89/OpenTafl: `dim:11 esc:c atkf:y ks:s … start:/…/`): the record read into options
(`read_record`: its keys, each value checked and written one way), the tafl engine's `Settings`
they make (`described_settings`), and any tafl game's Settings written as a record
(`described_record`). The pieces are the attackers' soldiers (OTN's `t`), the defenders' (`T`)
and the king (`K`), which an option's piece list writes `a`, `d` and `k` (a Rules tag is read in
any case); a piece list that names OpenTafl's other pieces (commanders, knights, mercenaries,
guards) names none of them here, and one written names every piece of the sides it holds, as
OpenTafl writes it (each of a side's pieces is its soldier here: `ad` is `tcnkmTCNM`). A mechanic
the engine does not play is refused by name."""

from __future__ import annotations

import re
from functools import lru_cache

from lusoria.notation.numbers import whole_number
from lusoria.validator.base import BLACK, WHITE, OptionError, given_again
from lusoria.validator.grid import FILES, SQUARE_NAME
from lusoria.validator.tafl_board import (
    ATTACKER,
    ATTACKER_COMMANDER,
    ATTACKER_FORT,
    ATTACKER_KNIGHT,
    ATTACKER_MERCENARY,
    CAPTURING_JUMP,
    CORNER_SQUARE,
    DEFENDER,
    DEFENDER_COMMANDER,
    DEFENDER_FORT,
    DEFENDER_KNIGHT,
    DEFENDER_MERCENARY,
    JUMP,
    KING,
    NO_JUMP,
    RESTRICTED_JUMP,
    THRONE_SQUARE,
    Geometry,
    TaflBoard,
)
from lusoria.validator.tafl_settings import (
    REGION_KEYS,
    REGION_WORDS,
    RuleIds,
    Settings,
    region_table,
    square_index,
    start_of,
    tafl_settings,
)
from lusoria.words import listed, quoted

MAX_SIZE = len(FILES)  # 19
MIN_SIZE = 5
PIECE_LISTS = {  # key -> its OTN default, in lusoria's letters (`a` attackers, `d` defenders' soldiers, `k` king)
    "corh": "adk",
    "cenh": "a",
    "cenhe": "adk",
    "aforh": "dk",
    "dforh": "a",
    "corw": "",  # lusoria's own (below)
    "cenw": "",
    "aforw": "",
    "dforw": "",
    "corp": "k",
    "cenp": "adk",
    "aforp": "adk",
    "dforp": "dk",
    "cors": "k",
    "cens": "k",
    "afors": "adk",
    "dfors": "dk",
    "corre": "adk",
    "cenre": "adk",
    "aforre": "adk",
    "dforre": "adk",
}
# every piece list: lusoria writes OTN's t, T and K as a, d and k, so that a Rules tag, whose values
# are read in any case, keeps them apart
LISTS = ("", "a", "d", "k", "ad", "ak", "dk", "adk")
OTN_LETTERS = {"t": "a", "T": "d", "K": "k"}
# the pieces of each list as OpenTafl's RulesSerializer writes them (TaflmanCodes' order: the
# attackers' soldier, commander, knight, king, mercenary, then the defenders'): each of a side's
# pieces is its soldier to lusoria (ORDINARY), so that `a` holds all of the attackers' and `d` all
# of the defenders' but their king
WRITTEN_LETTERS = {"a": "tcnkm", "d": "TCNM", "k": "K"}
# key -> its values (OTN's default first); a key of open values has only its default (`OPEN`)
KEYS: dict[str, tuple[str, ...]] = {
    "dim": ("",),
    "start": ("",),  # "": the variant's (a rules record gives both)
    "esc": ("c", "e"),
    "atkf": ("y", "n"),
    "surf": ("y", "n"),
    "tfr": ("d", "i", "w", "l"),
    "ka": ("y", "n", "a", "h"),
    "ks": ("s", "w", "c", "m", "t"),
    "kj": ("n", "r", "j", "c"),
    "nj": ("c", "n", "r", "j"),
    "cj": ("j", "n", "r", "c"),
    "spd": ("-1",),
    "cor": ("default",),
    "cen": ("default",),
    "afor": ("",),
    "dfor": ("",),
    **{key: (default, *(value for value in LISTS if value != default)) for key, default in PIECE_LISTS.items()},
    "sw": ("n", "w", "s"),
    "swf": ("y", "n"),
    "efe": ("n", "y"),
    "linc": ("n", "y"),
    "ber": ("n", "c", "m", "o"),
    "cc": ("2", "3", "4"),
    "berw": ("y", "n", "a", "u"),
    "leap": ("n", "y"),
}
OPEN = ("dim", "start", "spd", "cor", "cen", "afor", "dfor")
IGNORED = ("name", "mj", "gj")  # a name, and the jumps of pieces lusoria has not
ALIASES = {"ks": {"y": "s", "n": "w"}}  # OTN's older values
# lusoria's own values (not OTN's): ks:t, the king strong on the throne only (aagenielsen.dk's weak throne);
# ber:o, a piece that captured may move again, capturing (aagenielsen.dk's berserk moves). lusoria's own key:
# cc, the sides of a commander a capture closes (2, OTN's; 3 or 4: Unst Alea Evangelii's dux)
# lusoria's own keys: berw (berserk continuations written: `n` for aagenielsen.dk's records, which leave them
# out, `a` for its old Tyr types, whose last left-out continuation may be any move, `u` for its old-style
# records, which leave them out and list no captures either), leap (every piece leaps
# over a soldier next to it: aagenielsen.dk's old Tyr types); corw, cenw, aforw, dforw (the pieces a region,
# empty, captures against only where the record lists the capture: a site whose engine changed between
# games, aagenielsen.dk's Foteviken tablut 11x11)
JUMPS = {"n": NO_JUMP, "r": RESTRICTED_JUMP, "j": JUMP, "c": CAPTURING_JUMP}  # kj, nj, cj (G14)
_ENTRY = re.compile(r"\S+")
_ROW = re.compile(r"(?:[0-9]+|[tcnkmgTCNKMG])*")


def _read_key(key: str) -> str:
    """The key an OTN rules record's entry is read as: `starti` as `start`, any other as written."""
    return "start" if key == "starti" else key


def read_record(text: str) -> dict[str, str]:
    """The options an OTN rules record sets (its keys, `starti` read as `start`; OTN's defaults
    for the others), each value as `normalized` writes it; OptionError at the first entry lusoria cannot read (its `at`: the
    entry's place in `text`)."""
    found: dict[str, str] = {}
    entries = list(_ENTRY.finditer(text))
    for entry in entries:
        key, colon, value = entry[0].partition(":")
        if not colon:
            raise OptionError(f"rules entry {quoted(entry[0])} is not key:value", "Rules", entry[0], entry.start())
        if key == "starti":
            key, value = "start", "/".join(reversed(value.strip("/").split("/")))
        if key in found:
            count = sum(_read_key(other[0].partition(":")[0]) == key for other in entries)
            raise OptionError(given_again(key, count), "Rules", key, entry.start())
        if key in IGNORED:
            continue
        try:
            found[key] = normalized(
                key,
                "".join(OTN_LETTERS.get(letter, "") for letter in value)
                if key in PIECE_LISTS and re.fullmatch(r"[tcnkmgTCNKMG]*", value)
                else value,
            )
        except OptionError as problem:
            problem.at, problem.written = entry.start(), entry[0]
            raise
    for key in ("dim", "start"):
        if not found.get(key):
            raise OptionError(f"a rules record needs a {key}: entry", "Rules", text[:40], 0)
    return {**{key: values[0] for key, values in KEYS.items()}, **found}


def normalized(key: str, value: str) -> str:
    """An option's value as lusoria writes it (piece lists as a, d and k, in that order, of the pieces they hold;
    squares rank after rank; speed limits as `described_record` writes them; `start` rank 1
    first, between slashes): one way for each value, so that two records of the same rules
    compare equal. OptionError naming the key when lusoria cannot read or play it."""
    if key not in KEYS:
        raise OptionError(f"unknown rules entry {key}: (lusoria reads {', '.join(KEYS)})", "Rules", key, 0, tuple(KEYS))
    value = ALIASES.get(key, {}).get(value, value)
    if key in ("dim", "start") and not value:
        return value  # the variant's
    if key in PIECE_LISTS:
        if not re.fullmatch(r"[adkADK]*", value):
            raise OptionError(
                f"{key}:{value} is not a list of pieces (a: attackers, d: defenders' soldiers, k: the "
                "king; an OTN record's t c n k m g T C N K M G)",
                "Rules",
                value,
            )
        return "".join(piece for piece in "adk" if piece in value.lower())
    if key == "dim":
        if whole_number(value, MIN_SIZE, MAX_SIZE) is None:
            raise OptionError(f"dim:{value}: a board is {MIN_SIZE}×{MIN_SIZE} to {MAX_SIZE}×{MAX_SIZE}", "Rules", value)
        return value
    if key in ("cor", "cen", "afor", "dfor"):
        squares = [square for square in value.split(",") if square]
        if value != "default" and not all(SQUARE_NAME.fullmatch(square) for square in squares):
            raise OptionError(f"{key}:{value} is not a list of squares (a1,k11) or default", "Rules", value)
        return (
            value
            if value == "default"
            else ",".join(sorted(squares, key=lambda name: (whole_number(name[1:], 1, MAX_SIZE) or 0, name[0])))
        )
    if key == "spd":
        return _speed_record(*_speed(value))
    if key == "start":
        rows = value.strip("/").split("/")
        if not all(_ROW.fullmatch(row) for row in rows):
            raise OptionError(
                f"start:{value} is not an OTN position record (ranks of t c n k m g T C N K M G and "
                "counts of empty squares, between slashes)",
                "Rules",
                value,
            )
        return "/" + "/".join(rows) + "/"
    if value not in KEYS[key]:
        raise OptionError(f"unknown value {key}:{value} (known: {', '.join(KEYS[key])})", "Rules", value, 0, KEYS[key])
    return value


def _capturers(armed: str) -> tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]]:
    """By side, the pieces that capture by moving (hammers) and by standing (anvils), as `ka` arms
    the king: both ways (y), as a hammer (h) or an anvil (a) alone, or neither (n)."""
    defenders = (DEFENDER, DEFENDER_KNIGHT, DEFENDER_COMMANDER, DEFENDER_MERCENARY)
    attackers = (ATTACKER, ATTACKER_KNIGHT, ATTACKER_COMMANDER, ATTACKER_MERCENARY)
    with_king = (*defenders, KING)
    return (
        (with_king if armed in ("y", "h") else defenders, attackers),
        (with_king if armed in ("y", "a") else defenders, attackers),
    )


def _speeds(value: str) -> bytes:
    """By piece code, how many squares a move may go at most under `spd` (0: no limit)."""
    attacker, defender, king = _speed(value)
    return bytes((0, defender, king, attacker, defender, defender, attacker, attacker, defender, attacker))


def _jumps(option: dict[str, str]) -> bytes:
    """By piece code, how each piece jumps (G14: `kj` the king, `nj` knights, `cj` commanders; the others never)."""
    return bytes(JUMPS[option[key]] if key else NO_JUMP for key in ("", "", "kj", "", "nj", "cj", "nj", "cj", "", ""))


def _speed(value: str) -> tuple[int, int, int]:
    """The speed limits of `spd` for an attacker, a defender and the king (0: none); a comma may end the list, as
    OpenTafl writes every list (`spd:-1,…,1,-1,-1,`: its Magpie)."""
    listed = value.removesuffix(",").split(",")
    numbers = [-1 if number.strip() == "-1" else whole_number(number.strip(), 1, 1000) for number in listed]
    if None in numbers or 0 in numbers or len(numbers) not in (1, 2, 8, 10, 12):
        raise OptionError(
            f"spd:{value} is not a speed limit (-1, N, attackers,defenders, or 8, 10 or 12 numbers)", "Rules", value
        )
    limits = [max(number or 0, 0) for number in numbers]
    if len(limits) == 1:
        return limits[0], limits[0], limits[0]
    if len(limits) == 2:
        return limits[0], limits[1], limits[1]
    half = len(limits) // 2  # tcnk(m)(g) then TCNK(M)(G)
    return limits[0], limits[half], limits[half + 3]


def _speed_record(attacker: int, defender: int, king: int) -> str:
    """`spd` for these limits (0: none), as short as OTN writes them: one limit for all (-1: none),
    the attackers' and the defenders', or ten numbers (tcnkm TCNKM)."""
    if attacker == defender == king:
        return str(attacker or -1)
    if defender == king:
        return f"{attacker or -1},{defender or -1}"
    return ",".join(str(limit or -1) for limit in (attacker, 0, 0, 0, 0, defender, 0, 0, king, 0))


def described_record(settings: Settings, by_side: bool = False) -> str:
    """The OTN rules record of any tafl game's Settings (what `read_record` and `described_settings`
    read back as the same rules, but what OTN has no entry for: Tablut's camps, Tuichi, passes and
    first repetition): `dim` first, `start` last, the others where they differ from OTN's defaults.
    `by_side`: its piece lists as OpenTafl reads them (`_by_side`), for a built-in game, whose
    reader reads them so too."""
    option = _options(settings)
    if by_side:
        option.update(_by_side(option))
    written = [f"{key}:{_written_value(key, value)}" for key, value in option.items() if value != KEYS[key][0]]
    start = "/".join(
        rank.replace("p", "t").replace("P", "T") for rank in reversed(settings.board.start.split()[0].split("/"))
    )
    return " ".join([f"dim:{settings.geo.size}", *written, f"start:/{start}/"])


def _options(settings: Settings) -> dict[str, str]:
    """The options of the OTN rules record of a tafl game's Settings, in lusoria's letters."""
    by_kind = {
        kind: [s for s in range(settings.geo.squares) if settings.region[s] == kind]
        for kind in (THRONE_SQUARE, CORNER_SQUARE, ATTACKER_FORT, DEFENDER_FORT)
    }
    return {
        **_game_options(settings),
        **_special_squares(settings, by_kind),
        **_capture_and_move_options(settings),
        **_special_square_rules(settings, by_kind),
    }


_EMPTY_HOSTILE = {"cenhe": "cen", "corh": "cor", "aforh": "afor", "dforh": "dfor"}  # the hostility of empty squares
_REGION_WORDS = {"cen": "the throne", "cor": "a corner", "afor": "an attackers' fort", "dfor": "a defenders' fort"}
_PIECE_WORDS = {"a": "the attackers", "d": "the defenders' soldiers", "k": "the king"}


def _by_side(option: dict[str, str]) -> dict[str, str]:
    """The piece lists that OpenTafl reads otherwise (GenericRules), as it reads what lusoria plays:
    an empty square's hostility by side (`t`, `T`: the king is a defender), the king's as the
    defenders' soldiers'; and a region kept from a piece that does not start on one (`cenre`…) kept
    from passing over it too, so with each piece that passes over it but may not stop on it."""
    changed = hostility_by_side(option)
    for region in REGIONS:
        if region + "re" in option:
            passes, stops, enters = (option[region + suffix] for suffix in ("p", "s", "re"))
            changed[region + "re"] = "".join(
                piece for piece in "adk" if piece in enters or piece in passes and piece not in stops
            )
    return changed


def _empty(region: str) -> str:
    """A square of a region, empty, in words: `the empty throne`, `an empty corner`."""
    article, _, name = _REGION_WORDS[region].partition(" ")
    return f"{'the' if article == 'the' else 'an'} empty {name}"


# lusoria's own entries of a rules record (above), which OpenTafl plays without: it ignores a key it does not know,
# and reads a value of its own keys it does not know as its fallback (the first value here): what each says
_OWN_KEYS = {
    "leap": "every piece leaps over a soldier next to it",
    "berw": "the records leave out berserk continuations: OpenTafl refuses the move after the first left out",
    "cc": "a commander is captured only when that many of its sides are closed",
    **{f"{region}w": f"{_empty(region)} captures only where the record lists the capture" for region in _REGION_WORDS},
}
_OWN_VALUES = {
    ("ks", "t"): ("s", "the king captured by four on the throne only"),
    ("ber", "o"): ("n", "a piece that captured may move again, capturing"),
}


def hostility_by_side(option: dict[str, str]) -> dict[str, str]:
    """The hostility of a region's empty squares (`cenhe`, `corh`, `aforh`, `dforh`, in lusoria's
    letters) as OpenTafl reads it (GenericRules.isSpaceHostileToSide): by side, the king's as the
    defenders' soldiers'."""
    return {
        key: ("a" if "a" in option[key] else "") + ("dk" if "d" in option[key] else "")
        for key in _EMPTY_HOSTILE
        if key in option
    }


def opentafl_differences(settings: Settings, by_side: bool = False) -> list[str]:
    """What OpenTafl plays otherwise under the rules record of a tafl game's Settings
    (`described_record`, `by_side` as there), each said: an empty square hostile to the king and
    not to the defenders' soldiers, or to them and not to him (OpenTafl reads hostility by side),
    a region that a piece passes over and stops on but may not enter (OpenTafl keeps it from
    passing over too), and one that a piece may enter but not pass over (OpenTafl checks a move's
    last square as the squares it passes: it keeps the piece from stopping on it too, h77b)."""
    option = _options(settings)
    written = {**option, **(_by_side(option) if by_side else {})}
    said = []
    for key, region in _EMPTY_HOSTILE.items():
        hostile = option.get(key, "")
        if key in option and ("d" in hostile) != ("k" in hostile):
            counted = (
                "captures the defenders' soldiers but does not count against the king"
                if "d" in hostile
                else "counts against the king but captures no defender's soldier"
            )
            said.append(
                f"{_empty(region)} {counted} ({key}); OpenTafl judges a square's hostility by "
                f"side, the king a defender, and reads {key}:{_written_list(written[key])} as hostile to "
                + (
                    "both, so it captures the king against it too"
                    if "d" in hostile
                    else "neither, so it never captures the king against it"
                )
            )
    for region in REGIONS:
        if region + "re" not in option:
            continue
        passes, stops, enters = (option[region + suffix] for suffix in ("p", "s", "re"))
        words = _REGION_WORDS[region]
        for kept, may, key, also in (  # (OpenTafl keeps a piece off a region its `…re` or its `…p` leaves out)
            (
                [piece for piece in "adk" if piece in passes and piece in stops and piece not in enters],
                f"may pass over {words} but not stop on it coming from another square",
                region + "re",
                "passing over",
            ),
            (
                [piece for piece in "adk" if piece in stops and piece in enters and piece not in passes],
                f"may stop on {words} coming from another square but not pass over it",
                region + "p",
                "stopping on",
            ),
        ):
            if kept:
                said.append(
                    f"{' and '.join(_PIECE_WORDS[piece] for piece in kept)} {may} ({key}); OpenTafl reads "
                    f"{key}:{_written_list(written[key])} as keeping {'him' if kept == ['k'] else 'them'} from {also} "
                    "it too"
                )
    ignored = [
        f"{key}:{_written_value(key, option[key])} ({what})"
        for key, what in _OWN_KEYS.items()
        if option.get(key, KEYS[key][0]) != KEYS[key][0]
    ]
    misread = [
        f"{key}:{value} ({what}) as {key}:{fallback}"
        for (key, value), (fallback, what) in _OWN_VALUES.items()
        if option.get(key) == value
    ]
    if ignored or misread:  # (h71b: a Tyr game written so stopped in OpenTafl at its first left-out continuation)
        parts = [f"it ignores {listed(ignored)}" if ignored else "", f"it reads {listed(misread)}" if misread else ""]
        said.append(f"OpenTafl plays without lusoria's own entries: {'; and '.join(filter(None, parts))}")
    return said


def _game_options(settings: Settings) -> dict[str, str]:
    """The options of an OTN rules record for the king's escape, the side that moves first,
    encirclement, repetition, the king's part in captures, its strength and the speed limits."""
    hammers, anvils = settings.hammers[0], settings.anvils[0]
    attacker, defender, king = (settings.speed[piece] for piece in (ATTACKER, DEFENDER, KING))
    return {
        "esc": "c" if settings.corner_escape else "e",
        "atkf": "y" if settings.first == BLACK else "n",
        "surf": "y" if settings.encirclement else "n",
        "tfr": "i"
        if settings.repeats != 2
        else {"1/2-1/2": "d", "wins": "w", "loses": "l"}.get(settings.repeated, "i"),
        "ka": {(True, True): "y", (False, False): "n", (False, True): "a", (True, False): "h"}[
            KING in hammers, KING in anvils
        ],
        "ks": settings.strength,
        "spd": _speed_record(attacker, defender, king),
    }


def _special_squares(settings: Settings, by_kind: dict[int, list[int]]) -> dict[str, str]:
    """The options of an OTN rules record that place the corners, the throne and the forts (`by_kind`:
    the squares of each kind): `default` for the board's corners and its middle square."""
    geo = settings.geo
    corners = [s for s in range(geo.squares) if geo.corners[s]]
    middle = geo.size * geo.size // 2 if geo.size % 2 else -1
    return {
        "cor": "default" if by_kind[CORNER_SQUARE] == corners else _squares(geo, by_kind[CORNER_SQUARE]),
        "cen": "default" if by_kind[THRONE_SQUARE] == [middle] else _squares(geo, by_kind[THRONE_SQUARE]),
        "afor": _squares(geo, by_kind[ATTACKER_FORT]),
        "dfor": _squares(geo, by_kind[DEFENDER_FORT]),
    }


def _capture_and_move_options(settings: Settings) -> dict[str, str]:
    """The options of an OTN rules record for shieldwalls, edge forts, Linnaean captures, jumps
    (the king's, and a knight's or commander's where the start has one), berserk moves, the
    commander's sides and leaps."""
    return {
        "sw": "n" if not settings.shieldwall else "s" if any(settings.wall_corners) else "w",
        "swf": "y" if settings.flank_walls else "n",
        "efe": "y" if settings.forts else "n",
        "linc": "y" if settings.linnaean else "n",
        **{
            key: _JUMP_VALUES[settings.jumps[piece]]
            for key, piece in _JUMPERS.items()
            if piece == KING or piece in settings.start or piece + 2 in settings.start
        },  # a knight's or commander's jumps: where the start has one
        "ber": "c" if settings.unwritten else settings.berserk,  # (berw:n: ber:c, its moves searched)
        "cc": str(settings.commander_sides),
        "berw": settings.unwritten or "y",
        "leap": "y" if settings.leaps else "n",
    }


def _special_square_rules(settings: Settings, by_kind: dict[int, list[int]]) -> dict[str, str]:
    """The options of an OTN rules record for the pieces that the throne, the corners and the forts
    (`by_kind`: the squares of each kind) are hostile to (the throne: held and empty; hostile as
    the record writes it), let pass, stop on and re-enter: the first square of a kind says it for
    all."""
    option: dict[str, str] = {}
    for kind, key in ((THRONE_SQUARE, "cen"), (CORNER_SQUARE, "cor"), (ATTACKER_FORT, "afor"), (DEFENDER_FORT, "dfor")):
        if by_kind[kind]:
            first = by_kind[kind][0]
            for suffix, table in (
                ("h", settings.hostile_held if kind == THRONE_SQUARE else settings.hostile_empty),
                ("p", settings.cross),
                ("s", settings.stop),
                ("re", settings.enter),
                ("w", _written(settings)),
            ):
                option[key + suffix] = _letters(table, first, settings.geo.squares)
            if kind == THRONE_SQUARE:
                option["cenhe"] = _letters(settings.hostile_empty, first, settings.geo.squares)
    return option


_JUMP_VALUES = {mode: value for value, mode in JUMPS.items()}
_JUMPERS = {"kj": KING, "nj": DEFENDER_KNIGHT, "cj": DEFENDER_COMMANDER}  # the key of each jump, and a piece it
# sets (the attackers' knight and commander: 2 codes further)


def _written(settings: Settings) -> bytes:
    """1 where a square is hostile only as the record writes it (hostile_written without hostile_empty)."""
    return bytes(
        written and not empty for written, empty in zip(settings.hostile_written, settings.hostile_empty)
    ) or bytes(len(settings.hostile_empty))


def _squares(geo: Geometry, squares: list[int]) -> str:
    return ",".join(geo.names[square] for square in squares)


def _letters(table: bytes, square: int, squares: int) -> str:
    """The pieces a table lets onto `square`, as a piece list (a, d, k)."""
    return "".join(piece for piece in "adk" if table[PIECES[piece] * squares + square])


def _written_value(key: str, value: str) -> str:
    """An option's value as a rules record writes it (a piece list as OpenTafl does: `_written_list`)."""
    return _written_list(value) if key in PIECE_LISTS else value


def _written_list(pieces: str) -> str:
    """A piece list (a, d, k) as OpenTafl writes it: every piece of each side it names, in
    OpenTafl's order (`adk`: tcnkmTCNKM)."""
    letters = "".join(WRITTEN_LETTERS[piece] for piece in pieces)
    return "".join(letter for letter in "tcnkmTCNKM" if letter in letters)


def board_of(option: dict[str, str], title: str) -> TaflBoard:
    """The board a full set of options describes: its size, throne, start and escape."""
    size = whole_number(option["dim"], MIN_SIZE, MAX_SIZE) or 0  # (checked by `normalized`)
    rows = option["start"].strip("/").split("/")
    if len(rows) != size:
        raise OptionError(
            f"start: has {len(rows)} rank{'' if len(rows) == 1 else 's'}, where the board (dim:{size}) has {size}",
            "Variant",
        )
    ranks = "/".join(row.replace("t", "p").replace("T", "P") for row in reversed(rows))
    if ranks.count("K") != 1:
        raise OptionError(f"start: holds {ranks.count('K')} kings: a {title} game has one", "Variant")
    cen = option["cen"]
    if cen == "default":
        if size % 2 == 0:
            raise OptionError(
                f"a board of even size (dim:{size}) has no middle square: name its throne (cen:)", "Variant"
            )
        cen = FILES[size // 2] + str(size // 2 + 1)
    if "," in cen:
        raise OptionError(f"cen:{cen}: a board has one throne", "Variant")
    if cen:
        square_index(size, cen)
    return TaflBoard(
        size, cen, "throne", f"{ranks} {'b' if option['atkf'] == 'y' else 'w'}", corner_escape=option["esc"] == "c"
    )


PIECES = {"a": ATTACKER, "d": DEFENDER, "k": KING}


def _pieces(letters: str) -> tuple[int, ...]:
    return tuple(PIECES[letter] for letter in letters)


TABLE_KEYS = (
    *(f"{square}{suffix}" for suffix in ("p", "s", "re", "h", "w") for square in ("cen", "cor", "afor", "dfor")),
    "cenhe",
)  # the piece lists the Settings' tables are made of (`_tables`)


@lru_cache(maxsize=64)
def _tables(region: bytes, lists: tuple[str, ...]) -> tuple[bytes, bytes, bytes, bytes, bytes, bytes]:
    """The Settings' tables that the piece lists of TABLE_KEYS (`lists`, in that order) make on
    `region`: cross, stop, enter, hostile_held, hostile_empty, and where a listed capture counts
    (lusoria's corw, cenw, aforw, dforw). Kept: the sets of options `lusoria rules` tries on a
    board (1,920 of each variant) vary none of these keys (the tables were a fifth of its time)."""
    option = dict(zip(TABLE_KEYS, lists, strict=True))

    def table(suffix: str, plain: int = 1, throne: str = "") -> bytes:
        """The table of the pieces that the keys cen…, cor…, afor… and dfor… ending in `suffix` list
        on their squares (`throne`: another key for the throne's, cenhe)."""
        keys = (
            (THRONE_SQUARE, throne or "cen" + suffix),
            (CORNER_SQUARE, "cor" + suffix),
            (ATTACKER_FORT, "afor" + suffix),
            (DEFENDER_FORT, "dfor" + suffix),
        )
        return region_table(region, {kind: _pieces(option[key]) for kind, key in keys}, plain)

    return table("p"), table("s"), table("re"), table("h", 0), table("h", 0, "cenhe"), table("w", 0)


class RegionRefused(OptionError):
    """A `square` that a key of the regions (cen, cor, afor, dfor) lists and the board refuses: one off
    the board, or of two regions, said by the `key` that lists it (`message`) or by the other key that
    does (`other`, `said_by_other`); at the Variant tag, unless the record's Rules tag lists it
    (`at_rules`)."""

    def __init__(self, message: str, square: str, key: str, other: str = "", said_by_other: str = "") -> None:
        super().__init__(message, "Variant")
        self.square, self.key, self.other, self.said_by_other = square, key, other, said_by_other

    def __reduce__(self) -> tuple[type[RegionRefused], tuple[str, str, str, str, str]]:
        return type(self), (str(self), self.square, self.key, self.other, self.said_by_other)

    def at_rules(self, rules: str) -> OptionError:
        """This problem said at the Rules tag `rules` where an entry of its key, else of the other key, lists
        its square (h75a: said at the Variant tag, by the other key), by that key and at that square (the
        last listed: `cor=a1,a1`'s repeat; review76: not the `d1` of `d11`); itself where none does."""
        entries = [(entry.start(), *entry[0].partition("=")) for entry in re.finditer(r"\S+", rules)]
        for key, said in ((self.key, str(self)), (self.other, self.said_by_other)):
            for start, name, _, value in entries:
                listed = [square for square in re.finditer(r"[^,]+", value) if square[0].lower() == self.square]
                if name.lower() == key and listed:
                    return OptionError(said, "Rules", self.square, start + len(name) + 1 + listed[-1].start())
        return self


def _region(option: dict[str, str], board: TaflBoard) -> bytes:
    """What each square is: the throne, a corner, an attackers' or defenders' fort; RegionRefused for a
    square off the board or of two regions."""
    size = board.size
    region = bytearray(size * size)
    last = size - 1
    corners = (
        option["cor"].split(",")
        if option["cor"] != "default"
        else [f"{FILES[file]}{rank + 1}" for rank in (0, last) for file in (0, last)]
    )
    kinds: dict[int, int] = {}  # the kind of each square of a region
    for key, kind, squares in (
        ("cen", THRONE_SQUARE, [board.throne] if board.throne else []),
        ("cor", CORNER_SQUARE, corners),
        ("afor", ATTACKER_FORT, option["afor"].split(",")),
        ("dfor", DEFENDER_FORT, option["dfor"].split(",")),
    ):
        for name in filter(None, squares):
            try:
                square = square_index(size, name)
            except OptionError as off:
                raise RegionRefused(f"{key}: {off}", name, key) from None
            if square in kinds:  # (h75a: "already a square of another kind", of a square listed twice too)
                earlier = kinds[square]
                if earlier == kind:
                    raise RegionRefused(f"{key}: {name} is listed twice", name, key)
                other = REGION_KEYS[earlier]
                raise RegionRefused(  # (h75a: said by the key the Rules tag writes, `cen=a1` of a corner)
                    f"{key}: {name} is {_region_said(earlier)} already ({other})",
                    name,
                    key,
                    other,
                    f"{other}: {name} is {_region_said(kind)} already ({key})",
                )
            region[square] = kinds[square] = kind
    return bytes(region)


def _region_said(kind: int) -> str:
    """A region's square as a message says it: `a corner`, `the throne`."""
    return REGION_WORDS[kind] or "the throne"


# a key that rules only pieces of these letters (knights, commanders): idle when the start has none
IDLE = {"nj": "nN", "cj": "cC", "cc": "cC"}
REGIONS = ("cen", "cor", "afor", "dfor")  # the keys of squares (empty: none such) their piece lists start with


def idle(option: dict[str, str]) -> set[str]:
    """The keys of a full set of options that change nothing: those of pieces absent from its start
    (OpenTafl writes `nj:n` for its Tablut, which has no knight), the piece lists of squares it has
    none of (`afor:` empty: no `aforh`…; no throne: no `linc` either), `swf` without shieldwall and
    `berw` without `ber:c` (the only berserk moves records may leave out)."""
    start = option.get("start", "")
    found = {key for key, letters in IDLE.items() if key in option and start and not any(c in start for c in letters)}
    for region in REGIONS:
        if option.get(region) == "":
            found.update(key for key in PIECE_LISTS if key.startswith(region))
    found.update(
        key
        for key, unused in (
            ("linc", option.get("cen") == ""),
            ("swf", option.get("sw") == "n"),
            ("berw", option.get("ber", "c") != "c"),
        )
        if unused
    )
    return found


def refusal(option: dict[str, str]) -> str | None:
    """Why the engine does not play a set of options (a mechanic it lacks, named), or None."""
    other = re.sub(r"[0-9tTKcCnNmM/]", "", option.get("start", ""))[:1]
    if other:
        return (
            f"start: '{other}' is not a piece lusoria plays (t, T, K, commanders c C, knights n N, "
            "mercenaries m M): guards are not supported"
        )
    return None


BOARD_KEYS = ("dim", "start", "cen", "atkf", "esc", "cor", "afor", "dfor")  # the options a board is made of


def described_board(option: dict[str, str], title: str) -> tuple[TaflBoard, bytes, bytes]:
    """The board a full set of options describes, its start (`start_of`) and what each of its
    squares is (`_region`); OptionError when they describe none: a start whose ranks do not
    cover the board or that has no king or two, a square off the board or of two kinds."""
    return _described_board(tuple(option[key] for key in BOARD_KEYS), title)


@lru_cache(maxsize=64)
def _described_board(values: tuple[str, ...], title: str) -> tuple[TaflBoard, bytes, bytes]:
    """`described_board` of the options BOARD_KEYS (`values`, in that order). Kept, as `_tables`: the
    sets of options `lusoria rules` tries on a board (some 2,000 a record) share a few boards, whose
    start string it read again for each (a fifth of its time)."""
    option = dict(zip(BOARD_KEYS, values, strict=True))
    board = board_of(option, title)
    start = start_of(board, title)
    return board, start, _region(option, board)


def described_settings(option: dict[str, str], ids: RuleIds, title: str) -> Settings:
    """The engine's Settings of a full set of options (KEYS); OptionError when they describe no
    game (a board without its king, two squares of two kinds…) or a mechanic the engine does not
    play (`refusal`: "guards are not supported"). A corner escape without corners is a game
    whose king never escapes (but to an exit fort)."""
    refused = refusal(option)
    if refused is not None:
        raise OptionError(refused, "Variant", refused.partition(": ")[0])
    unwritten = option["berw"] if option["berw"] != "y" and option["ber"] == "c" else ""  # (berw:n and berw:a mean
    # nothing without berserk moves)
    board, start, region = described_board(option, title)
    cross, stop, enter, held, empty, written = _tables(region, tuple(option[key] for key in TABLE_KEYS))
    hammers, anvils = _capturers(option["ka"])
    return tafl_settings(
        board,
        ids,
        region,
        start,
        cross=cross,
        stop=stop,
        enter=enter,
        hostile_empty=empty,
        hostile_held=held,
        strength=option["ks"],
        hammers=hammers,
        anvils=anvils,
        first=BLACK if option["atkf"] == "y" else WHITE,
        repeats=0 if option["tfr"] == "i" else 2,
        repeated={"d": "1/2-1/2", "w": "wins", "l": "loses", "i": "1/2-1/2"}[option["tfr"]],
        shieldwall=option["sw"] != "n",
        strong_walls=option["sw"] == "s",
        flank_walls=option["swf"] == "y",
        forts=option["efe"] == "y",
        encirclement=option["surf"] == "y",
        speed=_speeds(option["spd"]),
        linnaean=option["linc"] == "y",
        jumps=_jumps(option),
        berserk="n" if unwritten else option["ber"],  # (berw:n: the continuations searched, never waited for)
        commander_sides=whole_number(option["cc"], 2, 4) or 2,
        said={key: value for key, value in option.items() if key != "start"},
        unwritten=unwritten,
        leaps=option["leap"] == "y",
        hostile_written=bytes(a or b for a, b in zip(empty, written)) if any(written) else b"",
    )
