"""aagenielsen.dk's tafl game types (../shared/real/aagenielsen-types: 163 types, 4,076 games the
site accepted), each read as its entry of the catalogue (validator/tafl_variants.toml) describes it.
Every game the test reads must have the verdict that `aagenielsen_types.tsv` (beside this file)
gives it: valid, or invalid at the ply and rule listed there with the reason found; a game the
site scored ends on the board as the site says, or is listed (`end`); a type the catalogue refuses
is refused by name. Each type is at least 98% valid by that list, or the list says why not (`open`).

To stay cheap, the test reads each type's listed games and its first two others by name;
`LUSORIA_EVERY_TYPE_GAME=1 pytest tests/formats/test_aagenielsen_types.py` reads all 4,076 (a minute),
which checks that the list is complete.

Each entry's notes name the settings the tafl family varies (escape, the king's arms and capture,
encirclement, the throne and the corners and whom they are hostile to, the speed limit) that no
game of its type decides, each with what decided it: the test measures that on the types of four
games or fewer (every type under LUSORIA_EVERY_TYPE_GAME=1, two minutes)."""

import csv
import json
import os
import re
from collections import defaultdict
from dataclasses import replace
from pathlib import Path

import pytest
from test_real_files import REAL, require_real_files  # noqa: F401 (skips without ../shared/real, fails so on CI)

from lusoria import api
from lusoria.notation.model import Record
from lusoria.notation.syntax import SyntaxProblem
from lusoria.validator.hnefatafl import catalogue
from lusoria.validator.tafl_rules import KEYS, idle, read_record

TYPES = REAL / "aagenielsen-types"
LISTED = Path(__file__).with_name("aagenielsen_types.tsv")
WINNERS = {"1-0": "White", "0-1": "Black"}
SAMPLE = 10**6 if os.environ.get("LUSORIA_EVERY_TYPE_GAME") else 2  # games of a type read beyond those listed


def listed() -> dict[str, dict[str, dict[str, str]]]:
    """Folder -> file (or `*` for the whole type) -> its row of aagenielsen_types.tsv."""
    found: dict[str, dict[str, dict[str, str]]] = defaultdict(dict)
    with open(LISTED, newline="") as table:
        for row in csv.DictReader(table, delimiter="\t"):
            found[row["folder"]][row["file"]] = row
    return found


def folders() -> list[str]:
    """Each type's folder; without ../shared/real, one name that require_real_files skips (or, on
    CI, fails) saying why, where an empty list would skip with no reason."""
    return sorted(path.name for path in TYPES.iterdir() if path.is_dir()) if TYPES.is_dir() else ["absent"]


def said(path: Path) -> tuple[str, str, str]:
    """(first error's ply, its rule, its message), or how the board ended the game: ("-" or "repeated"
    when its last position stood three times, "end", winner)."""
    report = api.check(api.record_at(str(path)))
    errors = [d for d in report.diagnostics if d.severity == api.ERROR]
    if errors:
        return str(errors[0].ply), errors[0].rule, errors[0].message
    repeated = report.positions.count(report.positions[-1]) >= 3
    return "repeated" if repeated else "-", "end", WINNERS.get(report.outcome.result, "") if report.outcome else ""


def site_winner(path: Path) -> tuple[str, bool]:
    """Who the site says won, and whether the board must show it: the move list ends on a move
    (not `resigned` nor `timeout`) and the site names a winner."""
    game = json.loads(path.read_text())
    moves, site = game.get("Moves") or [], game.get("WhoWon", "")
    ended_by_word = bool(moves) and moves[-1].lower() in ("resigned", "timeout")
    return site, bool(moves) and not ended_by_word and site in WINNERS.values()


@pytest.mark.parametrize("folder", folders())
def test_every_type_reads_as_the_site_played_it(folder):
    rows = listed().get(folder, {})
    games = sorted((TYPES / folder).glob("*.json"))
    whole = rows.get("*")
    if whole and whole["rule"] == "refused":
        for path in games[:SAMPLE]:
            ply, rule, message = said(path)
            assert rule != "end" and whole["why"] in message, (path.name, ply, rule, message)
        return
    sample = [path for path in games if path.name in rows] + [path for path in games if path.name not in rows][:SAMPLE]
    for path in sample:
        ply, rule, message = said(path)
        row = rows.get(path.name)
        if row is None or row["rule"] == "end":  # valid, and ends where the site says unless listed
            assert rule == "end", (path.name, ply, rule, message)
            site, on_board = site_winner(path)
            as_the_site = message == site if message else not on_board
            assert as_the_site == (row is None), (path.name, f"board: {message or 'no end'}", f"site: {site}")
            if row is not None and row["why"].startswith("repetition:"):
                assert ply == "repeated", path.name
        else:
            assert (ply, rule) == (row["ply"], row["rule"]), (path.name, ply, rule, message)
            written_twice = re.match(r"record: ply (\d+) repeats the move of ply (\d+)", row["why"])
            if written_twice:
                moves = [move.split("x")[0].replace("-", "") for move in json.loads(path.read_text())["Moves"]]
                again, first = (int(number) for number in written_twice.groups())
                assert again == int(ply) and moves[again - 1] == moves[first - 1], path.name
    invalid = sum(row["rule"] not in ("end", "open", "refused") for row in rows.values())
    if not (whole and whole["rule"] == "open"):
        assert invalid <= 0.02 * len(games), f"{folder}: {invalid} of {len(games)} games invalid"


def test_the_list_names_only_games_that_exist():
    for folder, rows in listed().items():
        assert (TYPES / folder).is_dir(), folder
        assert all(name == "*" or (TYPES / folder / name).is_file() for name in rows), folder


# -- the settings no game of a type decides --------------------------------------------------------

UNDETERMINED = re.compile(
    r"Undetermined by the site's games here \(each other value reads every game the same\): (.*?)\.(?: |$)"
)
SETTING = re.compile(r"(\w+):(\S*) \(([^()]*)\)")
DECIDED_BY = (  # what decides a setting no game of its type decides (docs/rules.md)
    "aagenielsen.dk ",  # the type's rule page
    "the type's name",
    "the site's 7x7 and 9x9 games",  # encirclement on the small boards
    "the games of t",  # other types of its family
    "the forum's General rules",
    "no rule page of the type found",
    "its games' moves",  # a speed limit: how far each kind of piece moved where it could have gone further
)
# the settings the tafl family varies
FAMILY_SETTINGS = ("esc", "ka", "ks", "surf", "cen", "cenh", "cenhe", "cor", "corh", "spd")
FEW = 10**6 if os.environ.get("LUSORIA_EVERY_TYPE_GAME") else 4  # the types of this many games at most are measured


def undetermined(notes: str) -> dict[str, tuple[str, str]]:
    """The settings an entry's notes call undetermined by its games: key -> (value, what decided it)."""
    clause = UNDETERMINED.search(notes)
    if clause is None:
        return {}
    settings = {key: (value, why) for key, value, why in SETTING.findall(clause[1])}
    assert "; ".join(f"{key}:{value} ({why})" for key, (value, why) in settings.items()) == clause[1]
    return settings


def test_each_setting_the_games_leave_undetermined_says_what_decided_it():
    for entry in catalogue():
        options = read_record(entry.rules) if entry.rules else {}
        for key, (value, why) in undetermined(entry.notes).items():
            assert options.get(key) == value, (entry.name, key)
            assert why.startswith(DECIDED_BY), (entry.name, key, why)


def test_the_figures_docs_rules_md_gives_are_the_catalogues():
    """docs/rules.md counts the settings the family varies of every type and those its games leave
    open (hand-written, holdout-32 wrote 1,209 and 282, family-32 mended them by hand, and an entry
    of data added failed here: cog writes them now, `open_settings` in docs/cogs.py, counted here
    again by this file's own reading of the notes)."""
    types = settings = left_open = encirclement = 0
    for entry in catalogue():
        if not entry.rules or not entry.aagenielsen_ids:
            continue  # (a built-in game's types: its settings are its own)
        unused, open_here = idle(read_record(entry.rules)), undetermined(entry.notes)
        kinds = len(entry.aagenielsen_ids)  # (an entry may hold two types)
        types += kinds
        settings += kinds * sum(key not in unused for key in FAMILY_SETTINGS)
        left_open += kinds * len(open_here)
        encirclement += kinds * ("surf" in open_here)
    said = f"Of the {settings:,} such settings of the {types} types, {left_open} are open ({encirclement} of them"
    assert said in " ".join(Path(__file__).parents[2].joinpath("docs", "rules.md").read_text("utf-8").split())


def as_read(source: api.RecordText) -> api.RecordText:
    """`source` as its reader read it under its entry's rules: its record mended by the site's claims
    (a king a list leaves out, the result: its check does it), what they find wrong its problems, and no
    claims left to judge under the rules a setting changes."""
    claimed = api.check(source).diagnostics
    unclaimed = api.check(replace(source, claims=None)).diagnostics
    found = [d for d in claimed if d not in unclaimed]
    problems = tuple(SyntaxProblem(d.message, d.line, d.column, d.text, d.rule, d.ply, d.width) for d in found)
    return replace(source, claims=None, problems=source.problems + problems)


def verdicts(sources: list[api.RecordText], setting: str = "") -> list[tuple[object, ...]]:
    """What each record reads as (its diagnostics' rules and plies, its end), its entry's rules
    changed by `setting` (`surf=y`), as a Rules tag changes them."""
    found, key = [], setting.partition("=")[0]
    for source in sources:
        record = source.parsed
        assert isinstance(record, Record)
        kept = [item for item in record.tags.get("Rules", "").split() if item.partition("=")[0] != key]
        tags = {**record.tags, "Rules": " ".join([*kept, setting]).strip()}
        report = api.check(replace(source, parsed=replace(record, tags=tags)))
        ending = (report.outcome.result, report.outcome.rule) if report.outcome else None
        found.append((tuple((d.severity, d.ply, d.rule) for d in report.diagnostics), ending, report.plies))
    return found


def other_values(options: dict[str, str], key: str) -> list[str]:
    """Every other value of a setting: for the squares of the throne and the corners, none or OTN's;
    for a speed limit, none or one square for every piece (the strictest: the others read as it does
    when it reads every game the same)."""
    if key in ("cen", "cor"):
        return ["" if options[key] else "default"]
    if key == "spd":
        return ["1" if options[key] == "-1" else "-1"]
    return [value for value in KEYS[key] if value != options[key]]


def measured() -> list[str]:
    """The folders whose types are measured: those of FEW games at most (each folder where the
    real files are absent, as `folders` gives it)."""
    return [name for name in folders() if not TYPES.is_dir() or len(list((TYPES / name).glob("*.json"))) <= FEW]


@pytest.mark.parametrize("folder", measured())
def test_the_notes_name_each_setting_the_types_games_leave_undetermined(folder):
    sources = [as_read(api.record_at(str(path))) for path in sorted((TYPES / folder).glob("*.json"))]
    type_key = int(folder[1:4]) if folder[1:4].isdigit() else 0  # its AageGameTypeKey (tNNN-…)
    entry = next((entry for entry in catalogue() if type_key in entry.aagenielsen_ids), None)
    if entry is None or not entry.rules:
        pytest.skip(f"{folder}: played by a built-in game, whose settings are its own (RULES.md)")
    options, unused = read_record(entry.rules), idle(read_record(entry.rules))
    seen = verdicts(sources)
    left_open = [
        key
        for key in FAMILY_SETTINGS
        if key not in unused
        and all(verdicts(sources, f"{key}={value}") == seen for value in other_values(options, key))
    ]
    assert list(undetermined(entry.notes)) == left_open, entry.name
