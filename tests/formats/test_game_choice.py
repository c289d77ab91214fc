"""Readers that do not guess across games: a CSV file's game from --game, its name or its header
(several games on its board: an error naming them); --game, --variant and --rules applied where
their help says, a note where they are not; an aagenielsen.dk game of a type lusoria does not know
refused by its full name, one line a type on standard error, its record keeping what the file says."""

import json
import os
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import ROOT

from lusoria import api
from lusoria.archive import Archive
from lusoria.cli import READING_OPTIONS, main
from lusoria.formats import FORMATS, aage, read_text, tafl
from lusoria.formats.sources import read_sources
from lusoria.notation.reader import parse_record
from lusoria.validator.brandubh import Brandubh
from lusoria.validator.fit import fitting_rules, proposals
from lusoria.validator.games import GAMES
from lusoria.validator.hnefatafl import Hnefatafl
from lusoria.validator.replay import check
from lusoria.variants import variant_names

FIXTURES = ROOT / "tests" / "fixtures" / "formats"
REAL = ROOT.parent / "shared" / "real"
LONG_TYPE = "Imaginary Hnefatafl 11x11 (club rules of the long winter, 2nd edition)"  # over 40 characters

WHERE_APPLIED = (  # as the CLI says it, naming its options
    "their files say their game and rules (--game applies to tafl move lists, CSV files, aagenielsen.dk games of "
    "a type lusoria does not know or play, and lgn records with no Game tag; --variant and --rules alone, to move "
    "lists that do not name their game (by their file names or a header), and with --game, to all of those)"
)
IN_LGN_TAGS = (  # what an lgn file's note says instead of "their files say" (of a record with a Game tag)
    'lgn records say their game and rules in their own tags, [Game "…"] first, which these settings do not '
    "replace: they stand in for them only in a record with no Game tag "
    f"({WHERE_APPLIED.removeprefix('their files say their game and rules (')}"
)

IN_OWN_TAGS = (  # of a record with no Game tag, given --game, that writes its own Variant or Rules tag
    "lgn records keep the tags they write themselves, which these settings do not replace: they stand in only for "
    f"the tags a record with no Game tag does not write ({WHERE_APPLIED.removeprefix('their files say their game and rules (')}"
)

WITHOUT_GAME = (  # what it says of an lgn record with no Game tag given --variant or --rules without --game
    "these settings name the rules of a game, which a record with no Game tag does not say: give --game too, or "
    f'begin the record with a Game tag ([Game "…"]; {WHERE_APPLIED.removeprefix("their files say their game and rules (")}'
)


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def real(folder):
    if not (REAL / folder).is_dir():
        if os.environ.get("CI") == "true":
            pytest.fail(f"{REAL / folder} is absent, and CI=true needs the real files")
        pytest.skip(f"{REAL / folder} is absent: the real files live beside the project (../shared/real)")
    return REAL / folder


class ArdRi(Brandubh):
    """A second game on Brandubh's 7×7 board, as a catalogue would add one."""

    name = "ard-ri"
    title = "Ard Ri"
    grammar = Path(str(Brandubh.grammar_file()))  # its plies are written as Brandubh's


@pytest.fixture
def two_games_on_7x7():
    GAMES.register(ArdRi)
    yield
    GAMES.unregister("ard-ri")


def test_a_csv_file_whose_board_fits_two_games_is_an_error_naming_them(tmp_path, two_games_on_7x7):
    games = (FIXTURES / "csv/brandubh.csv").read_text()
    (tmp_path / "games.csv").write_text(games)
    result = run("validate", tmp_path / "games.csv")
    assert result.exit_code == 2 and result.stdout == ""  # (the file not read: no summary of nothing)
    fitting = sorted((game.board.size, game.name) for game in tafl.tafl_games() if not game.described)
    assert {(7, "ard-ri"), (7, "brandubh")} <= set(
        fitting
    )  # and a 7×7 game of a plug-in (tests/system/test_registry.py)
    assert result.stderr == (
        f"lusoria: {tmp_path / 'games.csv'}: its moves fit the boards of {len(fitting)} games "
        f"({', '.join(f'{name} {size}×{size}' for size, name in fitting)}): name its game with --game, in the "
        "file's name (ard-ri.csv) or in a header such as '# ard-ri' (or its variant of hnefatafl with "
        "--game hnefatafl --variant V)\n"
    )
    assert run("validate", "--game", "brandubh", tmp_path / "games.csv").exit_code == 0
    (tmp_path / "games.txt").write_text(games)  # a CSV file saved as .txt: its name to give is a .txt's
    saved_as_txt = run("validate", tmp_path / "games.txt").stderr
    assert (
        "): name its game with --game, in the file's name (ard-ri.txt) or in a header such as '# ard-ri'"
        in saved_as_txt
    )
    (tmp_path / "headed.csv").write_text("# brandubh, from the club's server\n" + games)
    (tmp_path / "brandubh-2024.csv").write_text(games)
    for name in ("headed.csv", "brandubh-2024.csv"):
        assert {check(s).record.tags["Game"] for s in read_sources(str(tmp_path / name))} == {"brandubh"}
        assert all(check(s).valid for s in read_sources(str(tmp_path / name)))
    [first, *_] = read_sources(str(tmp_path / "headed.csv"))
    assert first.line == 2  # the header is no game
    ard_ri = [check(s) for s in read_sources(str(tmp_path / "games.csv"), tags={"Game": "ard-ri"})]
    assert {r.record.tags["Game"] for r in ard_ri} == {"ard-ri"}
    (tmp_path / "brandubh-or-ard-ri.csv").write_text(games)
    named_twice = run("validate", tmp_path / "brandubh-or-ard-ri.csv")
    assert named_twice.exit_code == 2 and "its name names several games (ard-ri, brandubh)" in named_twice.stderr


def test_a_csv_file_is_not_read_as_the_game_of_the_smallest_board_its_moves_fit(tmp_path, lusorias_own_tafl_games):
    """A short Copenhagen game whose moves stay on g3 and below fits Brandubh's 7×7 board too: it was
    read as Brandubh (`error[B3]: the way is blocked at d2`). Its file names no game, so none is picked;
    moves that need the 11×11 board name the one game played on it."""
    (tmp_path / "club.csv").write_text("d1-d3 e5-e2 g1-g3 f4-c4 g3-e3xe2,1,0,Ongoing\n")
    result = run("validate", tmp_path / "club.csv")
    assert result.exit_code == 2 and result.stdout == ""  # (the file not read: no summary of nothing)
    assert result.stderr.startswith(
        f"lusoria: {tmp_path / 'club.csv'}: its moves fit the boards of 3 games (brandubh 7×7, tablut 9×9, "
        "copenhagen 11×11): name its game with --game"
    )
    assert run("validate", "--game", "copenhagen", tmp_path / "club.csv").exit_code == 0
    (tmp_path / "club.csv").write_text("d1-d3 e5-e2 g1-g3 f4-c4 g3-e3xe2 k4-i4,1,0,Ongoing\n")
    assert {check(s).record.tags["Game"] for s in read_sources(str(tmp_path / "club.csv"))} == {"copenhagen"}


def test_the_games_of_another_board_in_a_csv_file_are_said_once_and_its_own_are_read(tmp_path):
    """A Brandubh file and a Copenhagen file written into one gave an error a row (`C3: there is no piece
    on d2`, `found 'h1-h3': h1 is not a square of the Brandubh board`): the first row of the other board
    says once that the file holds games of two boards, which rows, and how to read them; the file's
    own rows are read."""
    rows = ["d2-e2 e4-e6,0,0,Ongoing", "h1-h3,0,0,Ongoing", "d1-d3,0,0,Ongoing", "d2-c2,0,0,Ongoing"]
    said = (
        "found a game of another board: its first move is none a game of brandubh (which this file is read as) "
        "starts with, and one a game of copenhagen does; the file holds games of two boards, and its 2 rows of "
        "another board (lines 2–3) are not read: give them a file of their own (copenhagen.csv) or read them "
        "with --game copenhagen"
    )
    assert _csv_read(tmp_path / "club-brandubh.csv", rows) == [
        (True, "brandubh", []),
        (False, None, [("syntax", 2, 1, said)]),
        (True, "brandubh", []),
    ]
    assert f"`{said}`" in " ".join((ROOT / "docs" / "formats.md").read_text().split())  # (the docs show it)
    other = [check(s) for s in read_sources(str(tmp_path / "club-brandubh.csv"), tags={"Game": "copenhagen"})]
    assert [(r.valid, r.diagnostics[0].line if r.diagnostics else None) for r in other] == [
        (False, 1),  # lines 1 and 4, not next to each other
        (True, None),
        (True, None),
    ]
    assert (
        other[0]
        .diagnostics[0]
        .message.endswith(
            "its 2 rows of another board (lines 1 and 4) are not read: give them a file of their own (brandubh.csv) "
            "or read them with --game brandubh; the file's name names brandubh: read as copenhagen, as --game says"
            " (--game wins over a file's name)"
        )
    )
    (tmp_path / "one-brandubh.csv").write_text("\n".join(rows[:2]) + "\na1-a2,0,0,Ongoing\n")
    [_, alone, typo] = [check(s) for s in read_sources(str(tmp_path / "one-brandubh.csv"))]
    assert "and its 1 row of another board (line 2) is not read" in alone.diagnostics[0].message
    assert (typo.diagnostics[0].rule, typo.diagnostics[0].line) == ("B3", 3)  # no game starts so: a move of its own
    (tmp_path / "misnamed-brandubh.csv").write_text("\n".join(rows[1:3]) + "\n")  # no row of its own game
    misnamed = [check(s) for s in read_sources(str(tmp_path / "misnamed-brandubh.csv"))]
    assert [(r.diagnostics[0].rule, r.diagnostics[0].line) for r in misnamed] == [("syntax", 1), ("B3", 2)]
    assert misnamed[0].diagnostics[0].message.startswith("found 'h1-h3': h1 is not a square of the Brandubh board")
    (tmp_path / "copenhagen.csv").write_text(
        "d1-d3,0,0,Ongoing\nd2-c2 e4-e6 k4-k2,0,0,Ongoing\n"
    )  # Brandubh's opening, past its board
    [own, beyond] = [check(s) for s in read_sources(str(tmp_path / "copenhagen.csv"))]
    assert own.valid  # (a row of its own: a file that may hold two boards)
    assert (beyond.diagnostics[0].rule, beyond.diagnostics[0].line) == ("C3", 2)


def test_a_csv_file_of_no_game_named_is_read_on_the_smallest_board_that_holds_its_ranks_and_files(tmp_path):
    """The board a CSV file's squares need is that of its highest rank as of its furthest file: `a10`
    is on no board smaller than 10×10, `j1` neither."""
    for name, row in [("ranks.csv", "a4-a10"), ("files.csv", "d1-j1")]:
        (tmp_path / name).write_text(f"{row},0,0,Ongoing\n")
        assert {check(s).record.tags["Game"] for s in read_sources(str(tmp_path / name))} == {"copenhagen"}


def test_a_misnamed_csv_file_whose_row_starts_as_its_named_game_may_is_not_said_to_hold_two_boards(tmp_path):
    """The real Copenhagen CSV named brandubh said "the file holds games of two boards" (its 1750 rows in
    one error): two of its games start `d1-c1`, a move a Brandubh game may start with, though their squares
    are off Brandubh's board; the real Brandubh CSV named copenhagen said so too, three of its games
    starting as a Copenhagen game may. A row off the file's board, or starting as a game of another board
    that holds it may, is no row of the file's own: each row is said, as in a misnamed file."""
    (tmp_path / "club-brandubh.csv").write_text(
        "h1-h3,0,0,Ongoing\nd1-c1 h1-h3,0,0,Ongoing\nd1-c1 m1-m3,0,0,Ongoing\nd1-c1,0,0,Ongoing\n"
        "d1-c1 d3-e3 h1-h3,0,0,Ongoing\n"  # (Brandubh's opening, off its board after it)
    )
    said = [check(s).diagnostics for s in read_sources(str(tmp_path / "club-brandubh.csv"))]
    assert [[(d.rule, d.line, d.column, d.message.split(":")[0]) for d in ds] for ds in said] == [
        [("syntax", 1, 1, "found 'h1-h3'")],
        [("syntax", 2, 7, "found 'h1-h3'")],
        [("syntax", 3, 7, "found 'm1-m3'")],  # (off every board: no game of its own either)
        [],  # a start of Brandubh and of Copenhagen, on either board: of either
        [("syntax", 5, 13, "found 'h1-h3'")],
    ]
    (tmp_path / "club-copenhagen.csv").write_text("d2-e2 e4-e6,0,0,Ongoing\nd1-c1,0,0,Ongoing\n")
    reports = [check(s) for s in read_sources(str(tmp_path / "club-copenhagen.csv"))]
    assert [(r.valid, [(d.rule, d.line) for d in r.diagnostics]) for r in reports] == [(False, [("C3", 1)]), (True, [])]
    (tmp_path / "two-copenhagen.csv").write_text(
        "d2-e2 e4-e6,0,0,Ongoing\nd2-e2,0,0,Ongoing\nd1-c1,0,0,Ongoing\nd1-d3 e5-e2,0,0,Ongoing\nd2-c2,0,0,Ongoing\n"
    )
    [other, ambiguous, own] = [check(s) for s in read_sources(str(tmp_path / "two-copenhagen.csv"))]
    assert other.diagnostics[0].message.endswith(
        "its 3 rows of another board (lines 1–2 and 5) are not read: give them a file "
        "of their own (brandubh.csv) or read them with --game brandubh"
    )  # (a row of its own: two boards; the rows said in runs)
    (tmp_path / "one-copenhagen.csv").write_text("d2-e2,0,0,Ongoing\nd1-d3 e5-e2,0,0,Ongoing\n")
    [alone, _] = [check(s) for s in read_sources(str(tmp_path / "one-copenhagen.csv"))]
    assert alone.diagnostics[0].message.endswith(
        "its 1 row of another board (line 1) is not read: give it a file of its own (brandubh.csv) "
        "or read it with --game brandubh"
    )
    assert ambiguous.valid and own.valid and own.record.tags["Game"] == "copenhagen"


def test_a_csv_row_of_another_board_that_starts_as_the_files_game_may_is_told_by_its_reply(tmp_path):
    """The real Brandubh CSV written into the Copenhagen one: its row `a4-a3 d5-a5 …` (line 407), a first
    move of both games on a board that holds both, was read as Copenhagen (`C3: there is no piece on d5`):
    its reply, which no Copenhagen game may make, tells it a row of the other board. A row of one move that
    both games start with, and one of no move (`timeout,0,0,`, as the real file holds), may be a game of
    either: the file's game reads them, and they are legal in both."""
    rows = ["a4-a3 d5-a5,0,0,Ongoing", "d1-d3 e5-e2,0,0,Ongoing", "a4-a3,0,0,Ongoing", "timeout,0,0,", "d2-e2,0,0,"]
    said = (
        "found a game of another board: its first two moves open no game of copenhagen (which this file is read "
        "as), and may open a game of brandubh; the file holds games of two boards, and its 2 rows of another "
        "board (lines 1 and 5) are not read: give them a file of their own (brandubh.csv) or read them with "
        "--game brandubh"
    )
    assert _csv_read(tmp_path / "club-copenhagen.csv", rows) == [
        (False, None, [("syntax", 1, 1, said)]),
        (True, "copenhagen", []),
        (True, "copenhagen", []),
        (True, "copenhagen", []),
    ]
    shown = "`its first two moves open no game of copenhagen`"  # (the docs show it)
    assert shown.strip("`") in said and shown in " ".join((ROOT / "docs" / "formats.md").read_text().split())


@pytest.mark.parametrize(
    ("row", "said"),
    [
        ("b4-b3 c4-c5", "its first move is none a game of hnefatafl (which this file is read as) starts with, and one"),
        ("a4-a3 d5-a5", "its first two moves open no game of hnefatafl (which this file is read as), and may open"),
    ],
)
def test_a_csv_file_read_as_a_variant_of_hnefatafl_says_its_row_of_another_board(tmp_path, row, said):
    """Read as a variant of hnefatafl (`--game hnefatafl --variant …`), whose boards are its variants', a
    Brandubh row in a file of Fetlar games was an internal error (the message asked which moves a game of
    hnefatafl starts with, which only a variant says): the file's own rules tell its first moves."""
    (tmp_path / "club.csv").write_text(f"d1-d3 e5-e2,0,0,Ongoing\n{row},0,0,Ongoing\n")
    tags = {"Game": "hnefatafl", "Variant": "fetlar-hnefatafl-11x11"}
    reports = [check(source) for source in read_sources(str(tmp_path / "club.csv"), tags=tags)]
    assert [
        (r.valid, [(d.line, d.message.split(" a game of brandubh")[0]) for d in r.diagnostics]) for r in reports
    ] == [
        (True, []),
        (False, [(2, f"found a game of another board: {said}")]),
    ]


def test_a_csv_row_its_own_game_opens_under_other_rules_is_its_illegal_row_not_another_boards(tmp_path):
    """Read with `--rules first=black`, a row that opens as Tablut's default rules do (White first) was
    said to be `a game of another board … read it with --game tablut` (the board it is on): a game of
    the file's own board is never another board's; the row is the file's game's, illegal at its ply."""
    (tmp_path / "club.csv").write_text("e3-c3 d1-d3,0,0,Ongoing\nd1-d2 e3-c3,0,0,Ongoing\n")
    ruled = {"Game": "tablut", "Rules": "first=black"}
    reports = [check(source) for source in read_sources(str(tmp_path / "club.csv"), tags=ruled)]
    assert [(r.valid, [(d.rule, d.ply, d.line, d.column) for d in r.diagnostics]) for r in reports] == [
        (False, [("T1", 1, 1, 1)]),
        (True, []),
    ]


def _csv_read(path: Path, rows: list[str]) -> list[tuple[bool, str | None, list[tuple[str, int, int, str]]]]:
    """Each record of the CSV file `path`, written of `rows` one a line: whether it is valid, its game
    (None: it does not parse) and its diagnostics (rule, line, column, message)."""
    path.write_text("\n".join(rows) + "\n")
    reports = [check(source) for source in read_sources(str(path))]
    return [
        (r.valid, r.record and r.record.tags["Game"], [(d.rule, d.line, d.column, d.message) for d in r.diagnostics])
        for r in reports
    ]


def test_a_csv_file_that_names_a_variant_of_the_generic_game_is_not_read_as_the_game_its_name_holds(tmp_path):
    """`# hnefatafl brandubh-7x7-walker` was read as Brandubh (the variant's name holds 'brandubh'); a name
    that says hnefatafl alone was read by its moves' board. Both say how to read them; 'Copenhagen
    Hnefatafl', the game's full name, is Copenhagen."""
    games = (FIXTURES / "csv/brandubh.csv").read_text()
    (tmp_path / "walker.csv").write_text("# hnefatafl brandubh-7x7-walker, from the club\n" + games)
    (tmp_path / "club_brandubh-7x7-walker_2024.csv").write_text(games)
    (tmp_path / "hnefatafl-club.csv").write_text(games)
    for name, where, said, variant in (
        ("walker.csv", "its header", "the variant brandubh-7x7-walker of hnefatafl", "brandubh-7x7-walker"),
        (
            "club_brandubh-7x7-walker_2024.csv",
            "its name",
            "the variant brandubh-7x7-walker of hnefatafl",
            "brandubh-7x7-walker",
        ),
        ("hnefatafl-club.csv", "its name", "hnefatafl", "V"),
    ):
        result = run("validate", tmp_path / name)
        assert result.exit_code == 2 and result.stderr == (
            f"lusoria: {tmp_path / name}: {where} names {said}: read it with --game hnefatafl --variant {variant}\n"
        )
    tags = {"Game": "hnefatafl", "Variant": "brandubh-7x7-walker"}
    read = [check(source).rules for source in read_sources(str(tmp_path / "walker.csv"), tags=tags)]
    assert len(read) == len(games.splitlines()) and {(r.name, r.variant) for r in read} == {tuple(tags.values())}
    (tmp_path / "copenhagen_hnefatafl.csv").write_text("d1-d3 e5-e2,0,0,Ongoing\n")
    [source] = read_sources(str(tmp_path / "copenhagen_hnefatafl.csv"))
    assert source.parsed.tags["Game"] == "copenhagen"


def test_only_a_move_list_read_as_the_default_game_says_how_to_name_another(tmp_path, monkeypatch):
    """A list its file's name names (`brandubh.txt`) was read as named: its first error says no more.
    Read as the format's default game, the file named as an example is another game's."""
    for name in ("brandubh.txt", "games.txt"):
        (tmp_path / name).write_text("d1-b1 d1-d2 resigned\n")
    [named] = [check(source) for source in read_sources(str(tmp_path / "brandubh.txt"))]
    assert [(d.rule, d.ply, d.message) for d in named.diagnostics] == [
        ("B3", 2, "there is no piece on d1 (moved away by move 1, Black: d1-b1); the rest of this line is not checked")
    ]
    monkeypatch.setitem(FORMATS["tafl"].games, "", {"Game": "brandubh"})  # a default game listed first
    [unnamed] = [check(source) for source in read_sources(str(tmp_path / "games.txt"))]
    assert unnamed.diagnostics[0].message == (
        "there is no piece on d1 (moved away by move 1, Black: d1-b1); the rest of this line is not checked; a move "
        "list does not say its game: read "
        "as brandubh unless --game or the file's name (copenhagen.txt) names it (or its variant of hnefatafl "
        "with --game hnefatafl --variant V)"
    )


@pytest.mark.parametrize(
    ("name", "by"),
    [
        ("y.md", "the file's name (brandubh.md)"),  # read by its content, named alone: its own suffix does
        ("y", "the file's name (brandubh.txt)"),  # no suffix: the format's
        ("-", "a header such as '# brandubh'"),  # standard input has no name to give
    ],
)
def test_the_name_a_move_list_read_as_the_default_game_is_told_to_take_keeps_its_files_suffix(tmp_path, name, by):
    """`y.md`, a move list named alone, was told to rename to `brandubh.txt` where `brandubh.md` does,
    and standard input, which has no name, was told of a file's name."""
    (tmp_path / "y.md").write_text("e7-e6 d1-d2\n")
    (tmp_path / "y").write_text("e7-e6 d1-d2\n")
    args = ["validate", "--from", "tafl", "-"] if name == "-" else ["validate", str(tmp_path / name)]
    result = CliRunner().invoke(main, args, input="e7-e6 d1-d2\n")
    assert result.exit_code == 1
    assert result.stdout.splitlines()[0].endswith(
        "error[T1]: move 1, Black: the piece on e7 is White's, and Black is to move; if White moved first, its Rules "
        "tag says so: first=white; the rest of this line is not "
        f"checked; a move list does not say its game: read as tablut (--variant aage) unless --game or {by} names "
        "it (or its variant of hnefatafl with --game hnefatafl --variant V)"
    )


def test_a_move_list_in_a_file_named_for_the_default_game_is_read_with_its_default_variant(tmp_path):
    """`tablut.txt` names the game a move list is read as by default: it is read as the default, the
    site's Saami Tablut (`--variant aage`); read as Tablut's own default preset, every game failed at
    its first move (T1). Its first error says so, and how to read it as Tablut's own (h79a: a club's
    seed Tablut games in tablut.txt failed at their first move, and nothing said why); `--variant` is
    not overruled."""
    shutil.copy(FIXTURES / "tafl/saami.txt", tmp_path / "tablut.txt")
    reports = [check(source) for source in read_sources(str(tmp_path / "tablut.txt"))]
    assert [(r.record.tags["Game"], r.record.tags["Variant"], r.valid) for r in reports] == [
        ("tablut", "aage", True),
        ("tablut", "aage", True),
        ("tablut", "aage", True),
        ("tablut", "aage", False),
    ]
    assert [(d.rule, d.ply, d.message) for d in reports[3].diagnostics] == [
        (
            "T4",
            3,
            "the move captures c5, not c4; the rest of this line is not checked; tablut is read as the site's "
            "(--variant aage), this format's default, unless --variant names another (--variant seed: tablut's own)",
        )
    ]
    named = [check(source) for source in read_sources(str(tmp_path / "tablut.txt"), tags={"Variant": "aage"})]
    assert named[3].diagnostics[0].message == "the move captures c5, not c4; the rest of this line is not checked"
    seed = [check(source) for source in read_sources(str(tmp_path / "tablut.txt"), tags={"Variant": "seed"})]
    assert [(r.record.tags["Variant"], r.diagnostics[0].rule, r.diagnostics[0].message) for r in seed[:1]] == [
        (
            "seed",
            "T1",
            "the piece on e8 is Black's, and White is to move; if Black moved first, its Rules tag says so: first=black;"
            " the rest of this line is not checked",
        )
    ]


def test_a_move_list_is_read_as_the_game_its_file_name_names_through_the_csv_files_function(tmp_path):
    """A Brandubh list in `brandubh.txt` was read as Tablut (`error[T2]` at ply 2, "did you mean" Tablut
    moves), never saying so: a move list's file name names its game as a CSV file's does (`_named_game`),
    without its format's default variant (noted when given); read as the default, its first error
    says how it was read and how to name the game, as a square off the board's did."""
    brandubh = "d1-b1 d3-g3 b1-f1 resigned\n"
    for name in ("brandubh.txt", "club_brandubh_2026.txt", "games.txt"):
        (tmp_path / name).write_text(brandubh)
    named, dated, unnamed = (
        check(source)
        for name in ("brandubh.txt", "club_brandubh_2026.txt", "games.txt")
        for source in read_sources(str(tmp_path / name))
    )
    assert (
        named.valid and dated.valid and named.record.tags["Game"] == "brandubh" and "Variant" not in named.record.tags
    )
    assert named.record.result == "0-1" and named.record.tags["Termination"] == "resignation"  # White to move
    assert [(d.rule, d.ply) for d in unnamed.diagnostics] == [("T2", 2)]
    assert unnamed.diagnostics[0].message == (
        "there is no piece on d3; the rest of this line is not checked; a move list does not say its game: read "
        "as tablut (--variant aage) unless --game or the file's name (brandubh.txt) names it (or its variant of "
        "hnefatafl with --game hnefatafl --variant V)"
    )
    result = run("validate", "--variant", "aage", tmp_path / "brandubh.txt")
    assert result.exit_code == 0 and "--variant aage is not applied to the records of 1 tafl file" in result.stderr
    (tmp_path / "brandubh-vs-copenhagen.txt").write_text(brandubh)
    result = run("validate", tmp_path / "brandubh-vs-copenhagen.txt")
    assert result.exit_code == 2 and result.stderr == (
        f"lusoria: {tmp_path / 'brandubh-vs-copenhagen.txt'}: its name names several games (brandubh, copenhagen): "
        "name its game with --game, in the file's name (brandubh.txt) or in a header such as '# brandubh' (or its "
        "variant of hnefatafl with --game hnefatafl --variant V)\n"
    )


def test_a_csv_file_beyond_every_board_a_name_names_says_so_and_names_the_variants_that_may_fit(tmp_path):
    """Moves on a 19×19 board: no game a file's name names fits, so the advice names no such game (it
    named brandubh, the first by name, whose 7×7 board holds them least) but the variants of hnefatafl,
    which are played on such boards too (it said no tafl game lusoria knows was)."""
    (tmp_path / "big.csv").write_text("a1-a19 s19-s1,0,0,Ongoing\n")
    result = run("validate", tmp_path / "big.csv")
    assert (result.exit_code, result.stderr) == (
        2,
        f"lusoria: {tmp_path / 'big.csv'}: its moves need a board of 19 files or ranks, and no game a file's name "
        "names is played on one larger than 11×11: name its game: its variant of hnefatafl with --game hnefatafl "
        "--variant V (lusoria explain hnefatafl lists them)\n",
    )


@pytest.mark.parametrize("format, suffix", [("tafl", ".txt"), ("csv", ".csv")])
def test_a_file_of_no_suffix_is_told_the_name_its_reader_s_files_have(tmp_path, format, suffix):
    """A file of no suffix read with --from tafl (or standard input) whose header names two games was
    told to be renamed brandubh.csv, a CSV file's name, when it holds move lists: the name advised
    has the suffix of the format it is read as."""
    row = "d2-b2 c4c5" + (",0,0,Ongoing" if format == "csv" else "")
    (tmp_path / "game").write_text(f"# brandubh or tablut\n{row}\n")
    advice = (
        "its header names several games (brandubh, tablut): name its game with --game, in the file's name "
        f"(brandubh{suffix}) or in a header such as '# brandubh'"
    )
    assert advice in run("validate", "--from", format, tmp_path / "game").stderr
    piped = CliRunner().invoke(main, ["validate", "--from", format, "-"], input=f"# brandubh or tablut\n{row}\n")
    assert advice in piped.stderr


def test_variant_for_move_lists_is_not_applied_to_csv_files_and_a_note_says_so(tmp_path, lusorias_own_tafl_games):
    shutil.copy(FIXTURES / "csv/brandubh.csv", tmp_path / "club-brandubh.csv")
    (tmp_path / "saami.txt").write_text("1. d1-d3 e4-h4 2. a4-a3 resigned\n")
    result = run("validate", "--variant", "aage", tmp_path)
    assert result.exit_code == 0 and result.stdout.endswith("5 records: 5 valid, 0 invalid (0 errors, 0 warnings)\n")
    assert result.stderr == (
        f"lusoria: note: --variant aage is not applied to the records of 1 csv file "
        f"({tmp_path / 'club-brandubh.csv'}): {WHERE_APPLIED}\n"
    )
    seed = run("validate", "--game", "brandubh", "--rules", "king-armed=no", tmp_path / "club-brandubh.csv")
    assert seed.exit_code == 1 and "error[" in seed.stdout and seed.stderr == ""  # applied: no note


def test_rules_on_lgn_and_on_a_known_aage_type_are_noted_not_applied(tmp_path):
    shutil.copy(FIXTURES / "aage/copenhagen.json", tmp_path / "copenhagen.json")
    shutil.copy(ROOT / "samples/tablut/escape.lgn", tmp_path / "escape.lgn")
    result = run("validate", "--rules", "shieldwall=none", tmp_path)
    assert result.exit_code == 0
    assert result.stderr.splitlines() == [
        f"lusoria: note: --rules shieldwall=none is not applied to the records of 1 aage file "
        f"({tmp_path / 'copenhagen.json'}): {WHERE_APPLIED}",
        f"lusoria: note: --rules shieldwall=none is not applied to the records of 1 lgn file "
        f"({tmp_path / 'escape.lgn'}): {IN_LGN_TAGS}",
    ]


def test_a_variant_alone_for_an_lgn_record_with_no_game_tag_is_noted_as_wanting_the_game(tmp_path, monkeypatch):
    """Reviewer-56: the note said an lgn record says its rules in its own tags, and that the settings stand
    in for a record with no Game tag, of a record that has none: what it lacks is --game."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "untagged.lgn").write_text('[White "A"]\n\n1. e3-c3 i6-f6 *\n')
    shutil.copy(ROOT / "samples/tablut/escape.lgn", "escape.lgn")
    result = run("validate", "--variant", "linnaeus", "untagged.lgn", "escape.lgn")
    notes = [line for line in result.stderr.splitlines() if "note:" in line]
    assert notes == [
        f"lusoria: note: --variant linnaeus is not applied to the records of 1 lgn file (untagged.lgn): {WITHOUT_GAME}",
        f"lusoria: note: --variant linnaeus is not applied to the records of 1 lgn file (escape.lgn): {IN_LGN_TAGS}",
    ]
    both = run("validate", "--game", "tablut", "--variant", "linnaeus", "untagged.lgn")
    assert "note:" not in both.stderr and both.exit_code == 1  # (read as Linnaeus's tablut: e3-c3 breaks a rule)


@pytest.mark.parametrize(
    "command", [["validate"], ["fmt"], ["fmt", "--check"], ["fmt", "--write"], ["rules"], ["import", "--db", "a.db"]]
)
def test_every_command_taking_game_notes_it_not_applied_to_an_lgn_file(tmp_path, monkeypatch, command):
    """One rule for every command with --game: an lgn file's Game tag decides, which is said in one note
    (fmt --check and --write, which read files whole, said none)."""
    monkeypatch.chdir(tmp_path)
    shutil.copy(ROOT / "samples/tablut/escape.lgn", "escape.lgn")
    result = run(*command, "--game", "brandubh", "escape.lgn")
    assert result.exit_code in (0, 1)
    assert result.stderr.splitlines()[0] == (
        f"lusoria: note: --game brandubh is not applied to the records of 1 lgn file (escape.lgn): {IN_LGN_TAGS}"
    )


def test_show_and_html_say_what_validate_notes_of_their_record(tmp_path):
    """show and html read one record: an option it does not follow, and its type refused with how to
    read it, are said on stderr as validate says them."""
    shutil.copy(FIXTURES / "aage/copenhagen.json", tmp_path / "copenhagen.json")
    (tmp_path / "unknown.json").write_text(json.dumps(unknown_games(1)[0]))
    for command in (["show"], ["html", "-o", tmp_path / "page.html"]):
        noted = run(*command, "--variant", "fetlar", tmp_path / "copenhagen.json")
        assert noted.exit_code == 0 and noted.stderr == (
            f"lusoria: note: --variant fetlar is not applied to the records of 1 aage file "
            f"({tmp_path / 'copenhagen.json'}): {WHERE_APPLIED}\n"
        )
        refused = run(*command, tmp_path / "unknown.json")
        assert refused.exit_code == 1
        error, note = refused.stderr.splitlines()  # (as validate says them: the error, then the note)
        assert error.startswith(f"lusoria: {tmp_path / 'unknown.json'}:1:")
        assert error.endswith(f"cannot be replayed: error[tag]: {aage.refused_message(LONG_TYPE)}")
        refusal = aage.refusal(LONG_TYPE).format_map(READING_OPTIONS)
        assert note == f"lusoria: note: 1 record of type '{LONG_TYPE}' refused: {refusal}"
        assert "read them with --game copenhagen (--variant standard or fetlar) or --game hnefatafl" in note
        read = run(*command, "--game", "copenhagen", tmp_path / "unknown.json")
        assert read.exit_code == 0 and read.stderr == ""


def test_a_library_call_is_told_how_to_read_a_refused_type_by_its_tags_not_options(tmp_path):
    """The refused type's note named --game and --variant to a library call too (Note.settings: the
    tags a call gives, the options of the command line)."""
    (tmp_path / "unknown.json").write_text(json.dumps(unknown_games(1)[0]))
    [note] = [item for item in api.records([tmp_path / "unknown.json"]) if isinstance(item, api.Note)]
    tags = {tag: tag for tag in ("Game", "Variant", "Rules")}
    assert str(note) == f"note: 1 record of type '{LONG_TYPE}' refused: {aage.refusal(LONG_TYPE).format_map(tags)}"
    assert "read them with Game copenhagen (Variant standard or fetlar) or Game hnefatafl Variant V (and Rules" in (
        str(note)
    )


def test_the_real_csv_files_under_variant_aage_stay_valid_with_one_note(tmp_path):
    """Their first hundred games each (all 2,277 under the defaults: test_real_files.py)."""
    for path in real("tafl/csv").iterdir():
        (tmp_path / path.name).write_text("".join(path.read_text().splitlines(keepends=True)[:100]))
    result = run("validate", "--variant", "aage", "--jobs", "1", tmp_path)
    assert result.exit_code == 0 and result.stdout.endswith(" 0 invalid (0 errors, 0 warnings)\n")
    assert result.stderr.count("note: --variant aage is not applied to the records of 2 csv files") == 1


def unknown_games(count):
    return [
        {
            "WhiteSidePlayerName": f"Ann {n}",
            "BlackSidePlayerName": "Bo",
            "AageGameTypeKey": 977,
            "AageGameTypeName": LONG_TYPE,
            "WhoMovedFirst": "black",
            "Moves": ["h1-h3", "f4-j4"],
            "WhoWon": "White",
        }
        for n in range(count)
    ]


def test_an_unknown_type_is_refused_by_its_full_name_with_one_summary_line(tmp_path):
    for n, game in enumerate(unknown_games(3)):
        (tmp_path / f"game-977-{n}-{5000 + n}.json").write_text(json.dumps(game, indent=4))
    (tmp_path / "alea.json").write_text(json.dumps([{"AageGameTypeName": "Alea Evangelii 19x19", "Moves": "a1-a3"}]))
    result = run("validate", tmp_path)
    assert result.exit_code == 1
    assert result.stdout.count(f"error[tag]: game type '{LONG_TYPE}' is none that lusoria knows\n") == 3
    assert f"{tmp_path / 'game-977-0-5000.json'}:5:26: error[tag]" in result.stdout  # at the name, past its quote
    on_19, on_11 = (variants_on(size) for size in (19, 11))
    how = (
        "read them with {} (and --rules 'KEY=VALUE …'; lusoria rules --game G --variant V "
        "proposes the rule set that makes the most of them legal)"
    )
    assert result.stderr.splitlines() == [
        "lusoria: note: 1 record of type 'Alea Evangelii 19x19' refused: lusoria has no rules of that type; hnefatafl "
        f"has {len(on_19)} variants on its 19×19 board ({', '.join(on_19[:3])}, …): "
        + how.format("--game hnefatafl --variant V"),
        f"lusoria: note: 3 records of type '{LONG_TYPE}' refused: lusoria has no rules of that type; copenhagen is "
        f"played on its 11×11 board; hnefatafl has {len(on_11)} variants on its 11×11 board ({', '.join(on_11[:3])}, "
        "…): " + how.format("--game copenhagen (--variant standard or fetlar) or --game hnefatafl --variant V"),
    ]
    for on_board in (on_19, on_11):
        assert len(on_board) > 3 and all(Hnefatafl(variant=name).geo.size in (19, 11) for name in on_board)
    read = run("validate", "--game", "copenhagen", "--variant", "fetlar", tmp_path / "game-977-0-5000.json")
    assert read.exit_code == 0 and read.stderr == ""
    proposed = run("rules", "--game", "hnefatafl", "--variant", on_11[0], tmp_path / "game-977-0-5000.json")
    assert proposed.stdout.endswith(f"legal under its declared rules ({on_11[0]})\n"), proposed.stdout  # (one record)


def variants_on(size: int) -> list[str]:
    """The catalogue's variants on a board of `size`, in its order."""
    return [name for name in Hnefatafl.presets if Hnefatafl(variant=name).geo.size == size]


def test_a_type_on_a_board_no_variant_is_played_on_names_the_boards_there_are(lusorias_own_tafl_games):
    boards = sorted({Hnefatafl(variant=name).geo.size for name in Hnefatafl.presets})
    assert aage.refusal("Imaginary Tafl 21x21").endswith(
        f"brandubh 7×7, copenhagen 11×11, tablut 9×9, the variants of hnefatafl ({boards[0]}×{boards[0]} to "
        f"{boards[-1]}×{boards[-1]})): they cannot be read until its rules are added"
    )
    assert "hnefatafl describes boards by its variants: read them with {Game} hnefatafl" in aage.refusal("Tafl")


def test_a_type_on_the_generic_games_default_board_names_its_variants_there_not_the_game(lusorias_own_tafl_games):
    """hnefatafl's default board is 9×9, but it describes its boards by its variants: a 9×9 type
    is played by tablut and by hnefatafl's variants on that board (the mutant said "hnefatafl and
    tablut are played on its 9×9 board")."""
    assert aage.refusal("Imaginary Tablut 9x9").startswith(
        "lusoria has no rules of that type; tablut is played on its 9×9 board; hnefatafl has "
        f"{len(variants_on(9))} variants on its 9×9 board ({', '.join(variants_on(9)[:3])}, …)"
    )


@pytest.mark.parametrize("name", ["Copenhagen Hnefatafl 11X11", "Copenhagen Hnefatafl 11×11"])
def test_a_type_whose_board_is_written_otherwise_still_names_its_board(name, lusorias_own_tafl_games):
    """A hand-edited scrape's `11X11` (or `11×11`) names the board as the site's `11x11` does: the
    note offers Copenhagen, not only "hnefatafl describes boards by its variants"."""
    assert aage.refusal(name).startswith("lusoria has no rules of that type; copenhagen is played on its 11×11 board")


def test_a_type_on_the_board_of_a_game_of_one_variant_is_read_with_its_game_alone(lusorias_own_tafl_games):
    """--variant is named only for a game of several variants (copenhagen's two: the test above)."""
    assert len(Brandubh.presets) == 1
    assert "7×7 board" in aage.refusal("Imaginary Tafl 7x7")
    assert ": read them with {Game} brandubh or {Game} hnefatafl {Variant} V (and" in aage.refusal("Imaginary Tafl 7x7")


@pytest.mark.parametrize("name", ["Imaginary Tafl 0x0", "Imaginary Tafl 00x00"])
def test_a_type_on_a_board_of_no_squares_names_no_board(name, lusorias_own_tafl_games):
    """A board of size 0 is no board: the note is the one of a type whose name says none (the
    mutant took it for a 1×1 board, on which no game is played)."""
    assert aage.refusal(name) == aage.refusal("Tafl")
    assert "hnefatafl describes boards by its variants: read them with {Game} hnefatafl" in aage.refusal(name)


def test_a_type_on_a_board_no_game_is_played_on_cannot_be_read(monkeypatch):
    plain = [game for game in aage.tafl_games() if not game.described]
    monkeypatch.setattr(aage, "tafl_games", lambda: plain)
    boards = ", ".join(f"{game.name} {game.board.size}×{game.board.size}" for game in plain)  # the registry's
    assert "brandubh 7×7, copenhagen 11×11, tablut 9×9" in boards
    assert aage.refusal("Imaginary Tafl 13x13") == (
        f"lusoria has no rules of that type, and no tafl game it knows is played on a 13×13 board ({boards}): they "
        "cannot be read until its rules are added"
    )


def test_a_refused_record_keeps_its_players_type_site_id_and_result():
    text = json.dumps(unknown_games(1)[0])
    [source] = read_text(text, "aage", "games/game-977-3-5123.json")
    report = check(source)
    assert report.record is not None and report.rules is None and report.plies == 0
    assert report.tags == {
        "Site": "aagenielsen.dk",
        "White": "Ann 0",
        "Black": "Bo",
        "GameType": LONG_TYPE,
        "SiteGameId": "5123",
        "Result": "1-0",
    }
    assert [(d.rule, d.line, d.column, d.text) for d in report.diagnostics] == [
        ("tag", 1, text.index(f'"{LONG_TYPE}') + 2, LONG_TYPE)  # its first character, as its text underlines it
    ]
    [other] = read_text(json.dumps(unknown_games(1)[0]), "aage", "games/game-978-3-5123.json")
    assert "SiteGameId" not in check(other).tags  # a file name of another type says nothing of this game


@pytest.mark.parametrize(
    "copy",
    [
        "game-977-3-5123 (1).json",
        "game-977-3-5123(2).json",
        "game-977-3-5123 - Copy.json",
        "game-977-3-5123 copy 2.json",
        "Copy of game-977-3-5123.json",  # (Windows XP, Google Drive: h80c)
        "Copy (2) of game-977-3-5123.json",
    ],
)
def test_a_copy_of_a_sites_file_as_a_browser_or_a_desktop_names_it_is_the_same_game(tmp_path, copy):
    """newcomer-58b: a game downloaded again (`… (1).json`) had no SiteGameId, so the archive held it twice and
    `duplicates` did not see it; a name that only looks like one is no copy."""
    text = json.dumps({**unknown_games(1)[0], "AageGameTypeKey": 977})
    for name in ("game-977-3-5123.json", copy):
        (tmp_path / name).write_text(text)
    [first], [again] = (read_text(text, "aage", str(tmp_path / name)) for name in ("game-977-3-5123.json", copy))
    assert check(first).tags["SiteGameId"] == check(again).tags["SiteGameId"] == "5123"
    summary = Archive(str(tmp_path / "a.db")).import_paths([str(tmp_path)])
    assert (summary.added, summary.duplicates) == (1, 1)
    [other] = read_text(text, "aage", str(tmp_path / "game-977-3-5123 (one).json"))
    assert "SiteGameId" not in check(other).tags


def layout_game(moves):
    """A game of my own of a type the site played from two layouts (the catalogue's entry and the
    one `layout_of` it): the second has b7 and g12 where the first has a7 and g13."""
    game = {
        "WhiteSidePlayerName": "Ann",
        "BlackSidePlayerName": "Bo",
        "AageGameTypeKey": 34,
        "AageGameTypeName": "Sea battle tafl 13x13",
        "WhoMovedFirst": "black",
        "Moves": moves.split(),
        "WhoWon": "",
    }
    [source] = read_text(json.dumps(game), "aage", "games/game-34-1-100.json")
    report = check(source)
    return report.tags["Variant"], [(d.rule, d.ply) for d in report.diagnostics], report.record.main.comments


FIRST, SECOND = "sea-battle-tafl-13x13", "sea-battle-tafl-13x13-b"
MOVER = "which holds no piece"
NOTE = f"aage reader: read from the layout of {SECOND}, which its moves fit: in the type's first, "


@pytest.mark.parametrize(
    "moves, variant, diagnostics, note",
    [
        ("b7-a7 e9-e10 g12-g13", SECOND, [], "b7-a7 (move 1, Black) leaves b7, " + MOVER),
        ("a9-b9 e9-e10 f13-g13", SECOND, [], "f13-g13 (move 2, Black) moves across or onto g13, which a piece holds"),
        (
            "m9-l9 e9-e10 a9-g9xg10 i9-i10 g11-g10 e10-e11 b7-a7",
            SECOND,
            [],
            "b7-a7 (move 4, Black) leaves b7, " + MOVER,
        ),
        # as the record's capture lists say: g10, not emptied, stops both layouts at ply 5; b7 decides
        (
            "m9-l9 e9-e10 a9-g9 i9-i10 g11-g10 e10-e11 b7-a7",
            SECOND,
            [("G5", 3)],
            NOTE.replace("fit:", "fit better:")
            + "g11-g10 (move 3, Black) moves across or onto g10, which a piece holds",
        ),
        # written without hyphens, the moves do not list their captures: g10 may be empty, and b7 decides
        ("m9l9 e9e10 a9g9 i9i10 g11g10 e10e11 b7a7", SECOND, [], "b7-a7 (move 4, Black) leaves b7, " + MOVER),
        # one move so (h74b): g10 may be empty from it on, though later moves list their captures
        ("m9-l9 e9-e10 a9g9 i9-i10 g11-g10 e10-e11 b7-a7", SECOND, [], "b7-a7 (move 4, Black) leaves b7, " + MOVER),
        ("g13-g12 e9-e10 a7-b7", FIRST, [], None),
        ("a9-b9 e9-e10", FIRST, [], None),  # both layouts fit: the type's first
        ("d1-d2 e9-e10", FIRST, [("G3", 1)], None),  # neither fits: the first, invalid at its ply
        ("b7-a7 g12-g13 e9-e10", SECOND, [("G2", 2)], "b7-a7 (move 1, Black) leaves b7, " + MOVER),
        ("m9-l9 e9-e10 a9-b9 b7-a7", SECOND, [("G2", 4)], "b7-a7 (move 2, White) leaves b7, " + MOVER),  # its move
    ],
)
def test_a_type_played_from_two_layouts_reads_each_game_from_the_one_its_moves_fit(moves, variant, diagnostics, note):
    chosen, found, comments = layout_game(moves)
    assert (chosen, found) == (variant, diagnostics)
    assert comments == ([note if note.startswith(NOTE[:20]) else NOTE + note] if note else [])


def test_the_layout_note_docs_formats_quotes_is_the_readers():
    """docs/formats.md quotes the note of a game read from the second layout: the reader's words."""
    [note] = layout_game("b7-a7 e9-e10 g12-g13")[2]
    quoted = " ".join((ROOT / "docs/formats.md").read_text(encoding="utf-8").split())
    assert f"(`{note.removeprefix('aage reader: ')}`" in quoted


def test_a_game_neither_layout_fits_from_the_same_ply_is_read_from_the_one_whose_piece_is_there():
    """A ply swapped with the next in a game of the second layout may fit neither from its ply: in
    aagenielsen.dk's game-34-117, b7 (only the second's) moves onto c7 before the next ply captures
    c7. The layout whose piece is there decides, and the swap is caught at its ply by the turn rule
    (G2, tests/formats/test_swapped_plies.py), not as a square the other layout leaves empty (G3)."""
    assert layout_game("b7-c7 e9-e10") == (
        SECOND,
        [("G3", 1)],
        [
            f"aage reader: read from the layout of {SECOND}, which its moves fit better: in the type's first, "
            f"b7-c7 (move 1, Black) leaves b7, {MOVER}"
        ],
    )
    assert layout_game("d1-d2 a7-b7")[:2] == (FIRST, [("G3", 1)])  # no piece on d1 in either, a7 the first's
    assert layout_game("d1-d2 b7-a7")[:2] == (SECOND, [("G3", 1)])  # b7 the second's


def test_a_variant_or_rules_the_game_does_not_know_is_a_usage_error_said_once(tmp_path):
    """--game G --variant V that G does not know was an error of every record read with it (2,277 CSV
    games, each listing the catalogue's 175 variants): it is a usage error, said once, with the
    variants most like it."""
    shutil.copy(FIXTURES / "csv/brandubh.csv", tmp_path / "club.csv")
    result = run("validate", "--game", "hnefatafl", "--variant", "fetlar-11x11", tmp_path / "club.csv")
    assert result.exit_code == 2 and result.stdout == ""
    [said] = [line for line in result.stderr.splitlines() if line.startswith("Error:")]
    assert said == (
        f"Error: Invalid value for --variant: unknown variant 'fetlar-11x11' for hnefatafl ({len(Hnefatafl.presets)} "
        "known; did you mean tyr-11x11 or opentafl-fetlar-11x11 or fetlar-hnefatafl-11x11?)"
    )  # (`fetlar`, copenhagen's, is also OpenTafl's name of hnefatafl's opentafl-fetlar-11x11: read as that)
    other = run("validate", "--game", "copenhagen", "--variant", "fetlar-hnefatafl-11x11", tmp_path / "club.csv")
    assert other.exit_code == 2 and other.stderr.endswith(
        "Error: Invalid value for --variant: unknown variant 'fetlar-hnefatafl-11x11' for copenhagen (known: standard, "
        "fetlar); hnefatafl has it\n"
    )
    rules = run("rules", "--game", "brandubh", "--rules", "king-armed=maybe", tmp_path / "club.csv")
    assert rules.exit_code == 2 and "Invalid value for --rules: unknown value 'maybe' for king-armed" in rules.stderr
    typo = run("validate", "--game", "hnefatafl", "--variant", "tyr-9x8", tmp_path / "club.csv")
    assert "(175 known; did you mean tyr-9x9" in typo.stderr.replace(str(len(Hnefatafl.presets)), "175")
    unlike = run("validate", "--game", "hnefatafl", "--variant", "qwxz", tmp_path / "club.csv")
    assert f"({len(Hnefatafl.presets)} known: lusoria explain hnefatafl lists them)" in unlike.stderr
    (tmp_path / "typo.lgn").write_text('[Game "hnefatafl"]\n[Variant "qwxz"]\n1. e1-e3 *\n')
    in_a_tag = run("validate", tmp_path / "typo.lgn").stdout
    assert (
        f":2:11: error[tag]: unknown variant 'qwxz' for hnefatafl ({len(Hnefatafl.presets)} known: "
        "lusoria explain hnefatafl lists them)" in in_a_tag
    )


def test_a_variant_no_game_has_is_a_usage_error_said_once_without_game(tmp_path):
    """--variant V without --game was an error of every move list read with it (as tablut's):
    when no game has V, it is a usage error, said once, with the variants most like it."""
    for name in ("a.txt", "b.txt"):
        (tmp_path / name).write_text("1. d1-d3 e4-h4 2. a4-a3 resigned\n")
    typo = run("validate", "--variant", "fetlar-hnefatafl", tmp_path)
    every = len(variant_names())  # (as `explain` knows them: a catalogue's entry another variant plays too)
    assert typo.exit_code == 2 and typo.stdout == ""
    assert typo.stderr.endswith(
        f"Error: Invalid value for --variant: unknown variant 'fetlar-hnefatafl': no game has it ({every} known; "
        "did you mean fetlar-hnefatafl-11x11 or old-hnefatafl-9x9 or berserk-hnefatafl-9x9?)\n"
    )
    unlike = run("import", "--db", tmp_path / "a.db", "--variant", "qwxz", tmp_path)
    assert (
        unlike.exit_code == 2
        and f"no game has it ({every} known: lusoria explain hnefatafl lists them)" in unlike.stderr
    )
    assert not (tmp_path / "a.db").exists()
    owned = run("validate", "--variant", "fetlar", tmp_path)  # copenhagen's: the records say tablut has none
    said = "unknown variant 'fetlar' for tablut (known: seed, linnaeus, unarmed, aage, ashton); copenhagen has it"
    assert owned.exit_code == 1 and owned.stdout.count(said) == 2  # (and whose it is)
    assert run("validate", "--variant", "aage", tmp_path).exit_code == 0


OTHER_PROGRAMS_NAMES = {  # a variant as aagenielsen.dk's type and OpenTafl's files name it (`lusoria explain` takes them)
    "Brandubh 7x7 (Walker)": "brandubh-7x7-walker",
    "Brandub": "opentafl-brandub-7x7",
}
READING_COMMANDS = {  # a command that reads records by --variant -> what it says of the variant it read them by
    "validate": (["validate", "--json"], '"variant": "{}"'),
    "fmt": (["fmt"], '[Variant "{}"]'),
    "rules": (["rules"], "legal under its declared rules ({})"),
    "convert": (["convert", "--to", "lgn"], '[Variant "{}"]'),
    "show": (["show"], "hnefatafl ({}) after ply 30 of 30"),
    "html": (["html"], "<title>club.csv:1 – hnefatafl/{}"),
}


@pytest.mark.parametrize("name", OTHER_PROGRAMS_NAMES)
@pytest.mark.parametrize("command", READING_COMMANDS)
def test_every_command_reads_by_a_variant_as_other_programs_name_it(tmp_path, monkeypatch, command, name):
    """`query --variant 'Tyr 15x15'` took the names other programs give a variant (3a6b822), but the
    commands that read records refused them as 'no game has it', suggesting other variants: they
    read by them, the variant's game with it when --game is not given, as `explain` resolves them."""
    shutil.copy(FIXTURES / "csv/brandubh.csv", tmp_path / "club.csv")
    monkeypatch.chdir(tmp_path)
    args, says = READING_COMMANDS[command]
    for game in ([], ["--game", "hnefatafl"]):
        result = run(*args, *game, "--variant", name, "club.csv")
        assert result.exit_code in (0, 1) and says.format(OTHER_PROGRAMS_NAMES[name]) in result.stdout, result.output
        assert "not applied" not in result.stderr


@pytest.mark.parametrize("name", OTHER_PROGRAMS_NAMES)
def test_import_and_random_take_a_variant_as_other_programs_name_it(tmp_path, name):
    """`import --variant` and `random --variant` refused the names other programs give a variant too."""
    shutil.copy(FIXTURES / "csv/brandubh.csv", tmp_path / "club.csv")
    variant = OTHER_PROGRAMS_NAMES[name]
    imported = run("import", "--db", tmp_path / "a.db", "--variant", name, tmp_path / "club.csv")
    assert imported.exit_code == 0 and "added 4 records (1 invalid" in imported.stdout
    held = run("sql", "--db", tmp_path / "a.db", "SELECT DISTINCT game, variant FROM records", "--format", "json")
    assert json.loads(held.stdout) == [{"game": "hnefatafl", "variant": variant}]
    played = run("random", "--game", "hnefatafl", "--variant", name, "--max-plies", "2")
    assert played.exit_code == 0 and f'[Variant "{variant}"]' in played.stdout


@pytest.mark.parametrize("command", [*READING_COMMANDS, "import"])
def test_a_name_of_several_variants_or_none_is_refused_by_every_reading_command_as_explain_says(tmp_path, command):
    """A name other programs give two variants was refused as of no variant, suggesting others; one of
    none suggested only lusoria's names: refused naming the variants it is, and suggesting what
    `explain` suggests, other programs' names too."""
    shutil.copy(FIXTURES / "csv/brandubh.csv", tmp_path / "club.csv")
    args = READING_COMMANDS[command][0] if command != "import" else ["import", "--db", tmp_path / "a.db"]
    several = run(*args, "--variant", "Tyr 13x13", tmp_path / "club.csv")
    assert several.exit_code == 2 and several.stderr.endswith(
        "Error: Invalid value for --variant: other programs call several variants 'Tyr 13x13': name one "
        "(tyr-13x13 or tyr-13x13-172)\n"
    )
    none = run(*args, "--variant", "Copenhagen Hnefatafl 11x12", tmp_path / "club.csv")
    assert none.exit_code == 2 and none.stderr.endswith(
        "Error: Invalid value for --variant: unknown variant 'Copenhagen Hnefatafl 11x12': no game has it "
        f"({len(variant_names())} known; did you mean copenhagen-hnefatafl-13x13 or old-copenhagen-hnefatafl-11x11 "
        "or copenhagen-hnefatafl-13x13-b or 'Copenhagen Hnefatafl 11x11'?)\n"
    )
    other = run(*args, "--game", "tablut", "--variant", "Brandub", tmp_path / "club.csv")
    assert other.exit_code == 2 and other.stderr.endswith(
        "Error: Invalid value for --variant: Brandub is a variant of hnefatafl, not of tablut\n"
    )
    assert not (tmp_path / "a.db").exists()


def test_a_librarys_tags_take_a_variant_as_other_programs_name_it(tmp_path):
    """The library's `tags` read by the names `explain` knows, as the commands' options do; the Rules
    given follow those of the variant named (saami-tablut-w: Tablut's aage with first=white)."""
    shutil.copy(FIXTURES / "csv/brandubh.csv", tmp_path / "club.csv")
    verdicts = list(api.validate([tmp_path / "club.csv"], tags={"Variant": "Brandub"}))
    assert {(verdict.game, verdict.variant) for verdict in verdicts} == {("hnefatafl", "opentafl-brandub-7x7")}
    assert api.reading_tags({"Variant": "saami-tablut-w", "Rules": "king-capture=4"}) == {
        "Game": "tablut",
        "Variant": "aage",
        "Rules": "first=white king-capture=4",
    }
    assert api.reading_tags({"Game": "tablut", "Variant": "Brandub"}) == {"Game": "tablut", "Variant": "Brandub"}
    assert api.reading_tags({"Variant": "Copenhagen"}) == {"Variant": "Copenhagen"}  # a game's name: as written
    [record] = api.random_records("hnefatafl", tags={"Variant": "Tablut#15"}, max_plies=0)
    assert '[Variant "opentafl-tablut-15x15"]' in record


def test_a_game_that_describes_its_boards_by_its_variants_needs_one(tmp_path):
    """--game hnefatafl alone read every record under its first variant's 9×9 board (`j4 is not a
    square of the Hnefatafl board`, once a record): a usage error that says to name a variant, and
    where to find one that fits (`lusoria rules`, which tries every variant)."""
    (tmp_path / "games.txt").write_text("1. d1-d3 f4-d4\n")
    result = run("validate", "--game", "hnefatafl", tmp_path / "games.txt")
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.splitlines()[-1] == (
        "Error: Invalid value for --variant: hnefatafl describes its boards by its variants: name one (a Variant "
        f"tag, --variant; lusoria explain hnefatafl lists its {len(Hnefatafl.presets)}; lusoria rules FILE names "
        "those its records fit)"
    )
    named = run("validate", "--game", "hnefatafl", "--variant", "fetlar-hnefatafl-11x11", tmp_path / "games.txt")
    assert named.exit_code == 0, named.stdout
    # a record that names the game and no variant was read, silently, as its first variant
    (tmp_path / "bare.lgn").write_text('[Event "club"]\n[Game "hnefatafl"]\n1. d1-d3 f4-d4 *\n')
    bare = run("validate", tmp_path / "bare.lgn")
    assert bare.exit_code == 1 and bare.stdout.splitlines()[:3] == [
        f"{tmp_path / 'bare.lgn'}:2:2: error[tag]: hnefatafl describes its boards by its variants: name one (a "
        f"Variant tag, --variant; lusoria explain hnefatafl lists its {len(Hnefatafl.presets)}; lusoria rules "
        "FILE names those its records fit)",
        ' 2 | [Game "hnefatafl"]',
        "   |  ^^^^",
    ]
    first = next(iter(Hnefatafl.presets))  # what random and the readers write: the variant, always named
    assert f'[Variant "{first}"]' in run("random", "--game", "hnefatafl", "--variant", first).stdout


def test_game_given_stands_in_for_the_game_tag_of_a_record_with_none(tmp_path, monkeypatch):
    """`validate --game tablut game.pgn`, a record with no Game tag, was told to write one, and --game
    noted not applied: it is read as the game (and --variant, --rules) given say, at its lines as
    written, and `fmt --game` writes the tag in; a record with a Game tag, or a slip for one, is read as before."""
    monkeypatch.chdir(tmp_path)
    Path("game.pgn").write_text('[Event "Club evening"]\n\n1. e3-c3 *\n')
    assert (run("validate", "--game", "tablut", "game.pgn").output, run("validate", "game.pgn").exit_code) == (
        "1 record: 1 valid, 0 invalid (0 errors, 0 warnings)\n",
        1,
    )
    result = run("validate", "--game", "brandubh", "game.pgn")  # (read as brandubh: e3 is empty there)
    assert result.stdout.startswith("game.pgn:3:4: error[B3]: move 1, Black: there is no piece on e3")
    assert run("fmt", "--game", "tablut", "game.pgn").stdout.startswith('[Game "tablut"]\n[Event "Club evening"]\n')
    [verdict] = api.validate(['[Event "Club evening"]\n\n1. e3-c3 *\n'], tags={"Game": "tablut"})
    assert (verdict.valid, verdict.game, verdict.variant) == (True, "tablut", "seed")
    Path("own.lgn").write_text('[Variant "seed"]\n\n1. e3-c3 *\n')  # (its own Variant stands: --variant does not)
    result = run("validate", "--game", "tablut", "--variant", "ashton", "own.lgn")
    assert result.stderr == (  # (its own Variant: what it lacks is not --game, nor a Game tag it has: h82b)
        f"lusoria: note: --variant ashton is not applied to the records of 1 lgn file (own.lgn): {IN_OWN_TAGS}\n"
    )
    assert run("validate", "--game", "tablut", "--variant", "seed", "own.lgn").stderr == ""
    verdict, note = api.validate([Path("own.lgn")], tags={"Game": "tablut", "Variant": "ashton"})
    assert note.message.startswith("{Variant} ashton is not applied")
    assert (verdict.game, verdict.variant) == ("tablut", "seed")
    Path("slip.lgn").write_text('[game "tablut"]\n\n1. e3-c3 *\n')
    result = run("validate", "--game", "tablut", "slip.lgn")
    assert result.stdout.startswith(
        "slip.lgn:1:2: error[tag]: the record has no Game tag: tag names are case-sensitive"
    )
    assert (
        result.stderr
        == f"lusoria: note: --game tablut is not applied to the records of 1 lgn file (slip.lgn): {IN_LGN_TAGS}\n"
    )


def test_the_tags_given_that_stand_in_for_a_records_own_are_found_in_one_scan_of_its_text(monkeypatch):
    """The note of settings not applied scanned an lgn record's text for its tags once per setting given
    (`--game --variant --rules`: three times a record); once now, and what each setting is said is as before."""
    from lusoria.notation import reader
    from lusoria.pipeline import ReadingNotes

    given = {"Game": "tablut", "Variant": "ashton", "Rules": "first=white"}
    texts = (
        '[Event "Club"]\n\n1. e3-c3 *\n',
        '[Variant "seed"]\n\n1. e3-c3 *\n',
        '[Rules "first=black"]\n\n1. e3-c3 *\n',
    )
    read = [record for text in texts for record in read_sources(text, tags=given)]
    scans, scan = [], reader.scan_tags
    monkeypatch.setattr(reader, "scan_tags", lambda text: scans.append(text) or scan(text))
    notes = ReadingNotes(given)
    for record in read:
        notes.read(record)
    assert scans == list(texts)
    assert [tags for _, tags, _ in notes.unapplied] == [("Variant",), ("Rules",)]


def test_variant_and_rules_without_a_game_are_said_not_applied_to_a_record_with_no_game_tag(tmp_path, monkeypatch):
    """`validate --variant ashton --rules first=white game.pgn`, a record with no Game tag: it is not read
    (no game to read it in), and nothing said the options were not applied to it; the note says so now.
    A variant's name that gives its game (`Tyr 15x15`) reads it, with no note."""
    monkeypatch.chdir(tmp_path)
    Path("game.pgn").write_text('[Event "Club evening"]\n\n1. e3-c3 *\n')
    result = run("validate", "--variant", "ashton", "--rules", "first=white", "game.pgn")
    assert result.stdout.startswith("game.pgn:1:1: error[tag]: the record has no Game tag") and result.exit_code == 1
    assert result.stderr == (
        "lusoria: note: --variant ashton and --rules first=white are not applied to the records of 1 lgn file "
        f"(game.pgn): {WITHOUT_GAME}\n"
    )
    result = run("validate", "--variant", "Tyr 15x15", "game.pgn")  # (read as hnefatafl: e3 is empty there)
    assert result.stdout.startswith("game.pgn:3:4: error[G3]: move 1, Black: there is no piece on e3")
    assert result.stderr == ""


def test_fmt_check_and_write_read_a_record_with_no_game_tag_in_the_game_given(tmp_path, monkeypatch):
    """`fmt --check --game brandubh` of an lgn file whose record has no Game tag said "the record has no
    Game tag" (its records were split without the tags given), and `--write` left it as it was: it is read
    in brandubh, --check finds it not canonical and --write writes the tag in, its CRLF line ends kept."""
    monkeypatch.chdir(tmp_path)
    Path("game.lgn").write_bytes(b'[Event "Club evening"]\r\n\r\n1. d2-b2 *\r\n')
    result = run("fmt", "--check", "--game", "brandubh", "game.lgn")
    assert (result.exit_code, result.stdout, result.stderr) == (
        1,
        "game.lgn: not in canonical form\n",
        "lusoria: 1 file not in canonical form: lusoria fmt --write rewrites it\n",
    )
    assert run("fmt", "--write", "--game", "brandubh", "game.lgn").exit_code == 0
    assert Path("game.lgn").read_bytes().startswith(b'[Game "brandubh"]\r\n[Event "Club evening"]\r\n')
    assert run("fmt", "--check", "game.lgn").exit_code == 0
    result = run("fmt", "--check", "--game", "tablut", "game.lgn")  # (its own Game tag stands: a note says so)
    assert result.stderr.startswith("lusoria: note: --game tablut is not applied to the records of 1 lgn file")


def test_game_given_to_a_file_whose_records_take_it_or_not_is_said_not_applied_to_some(tmp_path, monkeypatch):
    """A file of a record with a Game tag and one with none: `--game brandubh` stood in for the second's,
    and the note said it was not applied to "the records of" the file; it says "some records", and the
    second is read in brandubh at its lines (CRLF line ends)."""
    monkeypatch.chdir(tmp_path)
    Path("two.lgn").write_bytes(b'[Game "tablut"]\r\n\r\n1. e3-c3 *\r\n\r\n[Event "two"]\r\n\r\n1. e3-c3 *\r\n')
    result = run("validate", "--game", "brandubh", "two.lgn")
    assert result.stdout.startswith("two.lgn:7:4: error[B3]: move 1, Black: there is no piece on e3")
    assert result.stderr == (
        f"lusoria: note: --game brandubh is not applied to some records of 1 lgn file (two.lgn): {IN_LGN_TAGS}\n"
    )
    Path("two.lgn").write_text('[Event "one"]\n\n1. d2-b2 *\n\n[Game "tablut"]\n\n1. e3-c3 *\n')  # (no Game tag first)
    assert (
        run("validate", "--game", "brandubh", "two.lgn").stdout
        == "2 records: 2 valid, 0 invalid (0 errors, 0 warnings)\n"
    )


def test_a_game_given_that_lusoria_does_not_know_is_said_at_the_record_it_stood_in_for():
    """The library takes any `tags`: an unknown Game given is the error of the record with no Game tag
    that it stood in for, at that record's first line (no tag of its own to point at); the record with
    its own Game tag is read as it says."""
    text = '[Game "tablut"]\n\n1. e3-c3 *\n\n[Event "two"]\n\n1. d2-b2 *\n'
    first, second, note = api.validate([text], tags={"Game": "chess"})
    assert (first.valid, first.game) == (True, "tablut")
    [error] = second.diagnostics
    assert (error.rule, error.line, error.column, error.message) == (
        "tag",
        5,
        1,
        f"unknown game 'chess' (known: {', '.join(sorted(GAMES))})",
    )
    assert note.message.startswith("{Game} chess is not applied to some records of 1 lgn file")


def test_a_record_with_no_game_tag_and_no_result_is_read_in_the_game_given():
    """A record with no Game tag whose text is mended to be read (here: ended, a result assumed) was
    read again without the tags given: `--game tablut` said "the record has no Game tag" beside the
    missing result; it says the missing result, and the replay of its moves in tablut, as a tagged one does."""
    untagged = '[Event "x"]\n\n1. e3-c3 e4-e1\n'
    result = CliRunner().invoke(main, ["validate", "--json", "--game", "tablut", "-"], input=untagged)
    said = [(d["rule"], d["line"], d["column"]) for d in json.loads(result.stdout)["diagnostics"]]
    assert said == [("syntax", 3, 15), ("T1", 3, 10)]


NO_VARIANT_READ = (
    "hnefatafl describes its boards by its variants, and these records are read under one (its board, the side "
    f"that moves first): name any of their board's with --variant V (lusoria explain hnefatafl lists its "
    f"{len(Hnefatafl.presets)}); lusoria rules --game hnefatafl --variant V tries the others too"
)


def test_rules_searches_each_variant_of_a_game_given_without_one(tmp_path):
    """`rules --game hnefatafl` with no --variant was the usage error of validate, whose advice
    (`lusoria rules FILE`) led back to it: rules tries each variant, so it takes none. An lgn record
    with no Game tag is searched under each; a move list, which its reader reads under one variant
    (its board, its first mover), says to name any of its board's, from which the search finds the others."""
    (tmp_path / "a.lgn").write_text('[Event "club"]\n1. g2-m2 g9-h9 2. h1-h5 e7-c7 3. m2-m3 h8-l8 *\n')
    (tmp_path / "b.lgn").write_text('[Event "club"]\n1. g2-m2 g9-h9 *\n')
    (tmp_path / "c.txt").write_text("1. g2-m2 g9-h9 2. h1-h5 e7-c7 3. m2-m3 h8-l8\n")
    fits = "legal under variant fetlar-sparse-13x13; or under variant tablut-sparse-13x13; or under variant sea-battle-sparse-13x13"
    result = run("rules", "--game", "hnefatafl", tmp_path)
    assert (result.exit_code, result.stdout.splitlines()) == (
        1,
        [
            f"{tmp_path / 'a.lgn'}:1: record 0: {fits}",
            f"{tmp_path / 'b.lgn'}:1: record 0: legal under variant fetlar-13x13-viking-siege; or under variant "
            "fetlar-sparse-13x13; or under variant old-hnefatafl-13x13-viking-siege; or under variant "
            "copenhagen-hnefatafl-13x13; or under variant tablut-sparse-13x13; or 1 more",
            f"{tmp_path / 'c.txt'}:1:1: record 0: cannot be replayed: error[tag]: {NO_VARIANT_READ}",
            "proposed: hnefatafl: variant fetlar-sparse-13x13 makes 2 of the 2 records legal",
        ],
    )
    named = run("rules", "--game", "hnefatafl", "--variant", "copenhagen-hnefatafl-13x13", tmp_path / "c.txt")
    leaping = fits.replace("legal ", "legal if leap=y; or ", 1)  # (the variant named, its pieces leaping: h72a)
    assert (named.exit_code, named.stdout) == (0, f"{tmp_path / 'c.txt'}:1: record 0: {leaping}\n")
    # validate checks under one rule set: it still asks for a variant, once
    assert run("validate", "--game", "hnefatafl", tmp_path / "c.txt").exit_code == 2


def test_rules_of_a_club_folder_that_names_no_variant_real(tmp_path):
    """Seven Rachunek tablut games of aagenielsen.dk, their variant not written (an lgn record with
    no Game tag, read with --game hnefatafl), get the variant they were played under proposed; the
    same games as the site's JSON of a type it does not know each say to name a variant of their
    board, and named one (foteviken-tablut-9x9), get a proposal too."""
    games = sorted(real("aagenielsen-types/t001-rachunek-tablut-9x9").glob("*.json"))[:7]
    (tmp_path / "lgn").mkdir(), (tmp_path / "json").mkdir()
    for game in games:
        text = run("fmt", game).stdout
        kept = [line for line in text.splitlines(keepends=True) if not line.startswith(("[Game ", "[Variant "))]
        (tmp_path / "lgn" / f"{game.stem}.lgn").write_text("".join(kept))
        renamed = game.read_text().replace('"Rachunek tablut 9x9"', '"Club tablut 9x9"')
        (tmp_path / "json" / game.name).write_text(renamed)
    bare = run("rules", "--game", "hnefatafl", tmp_path / "lgn")
    assert (
        bare.stdout.splitlines()[-1]
        == "proposed: hnefatafl: variant rachunek-tablut-9x9 makes 6 of the 7 records legal"
    )
    unread = run("rules", "--game", "hnefatafl", tmp_path / "json")
    assert unread.exit_code == 1 and unread.stdout.splitlines() == [
        f"{tmp_path / 'json' / game.name}:5:26: record 0: cannot be replayed: error[tag]: {NO_VARIANT_READ}"
        for game in games
    ]
    named = run("rules", "--game", "hnefatafl", "--variant", "foteviken-tablut-9x9", tmp_path / "json")
    assert named.stdout.splitlines()[-1] == (
        "proposed: hnefatafl (records of variant foteviken-tablut-9x9): variant foteviken-tablut-9x9 makes 6 of "
        "the 7 records legal"
    )


def test_rules_proposes_another_games_variant_that_makes_more_records_legal_real(tmp_path, monkeypatch):
    """Six Old Hnefatafl 9×9 games of aagenielsen.dk written down as Tablut (`[Game "tablut"]`, no
    Variant): Tablut's best set makes 3 legal, and the catalogue variant they were played under, of
    another game, was never said; it is proposed beside, the search bounded by MAX_WORK."""
    for game in sorted(real("aagenielsen-types/t012-old-hnefatafl-9x9").glob("*.json"))[:6]:
        text = run("fmt", game).stdout.replace('[Game "hnefatafl"]', '[Game "tablut"]')
        kept = [line for line in text.splitlines(keepends=True) if not line.startswith("[Variant ")]
        (tmp_path / f"{game.stem}.lgn").write_text("".join(kept))
    result = run("rules", "--jobs", 1, tmp_path)
    assert result.stdout.splitlines()[-2:] == [
        "proposed: tablut: variant aage makes 3 of the 6 records legal (none is legal under their own rules)",
        "proposed: hnefatafl (records of tablut): variant old-hnefatafl-9x9 makes 6 of the 6 records legal",
    ]
    records = [parse_record(path.read_text()) for path in sorted(tmp_path.iterdir())]
    fits = [fitting_rules(record) for record in records]
    monkeypatch.setattr("lusoria.validator.fit.MAX_WORK", 1)  # (less than one replay of the folder)
    assert [str(proposal) for proposal in proposals(records, fits)] == [
        "tablut: variant aage makes 3 of the 6 records legal (none is legal under their own rules)"
    ]
    # the positions searched count too: five variants replay the folder's 154 plies each, the fourth
    # (berserk-hnefatafl-9x9, 6 of 6) searching 10 positions for left-out moves: 780, and the sixth,
    # old-hnefatafl-9x9, would take the work to 934, past 920 (with the 10 not counted, 914)
    monkeypatch.setattr("lusoria.validator.fit.MAX_WORK", 920)
    assert [str(proposal) for proposal in proposals(records, fits)][1] == (
        "hnefatafl (records of tablut): variant berserk-hnefatafl-9x9 makes 6 of the 6 records legal"
    )
