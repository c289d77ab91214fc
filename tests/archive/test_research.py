"""Research on the archive: the move tree, pattern, material, position-list and continuation
search, player aliases and the score table, unknown dates, export."""

import csv
import io
import json
import os
import re
import sqlite3
import unicodedata
import warnings

import pytest
from click.testing import CliRunner
from conftest import ROOT, archive_copy, connect

from lusoria import output
from lusoria.api import InputError, random_records
from lusoria.archive import (
    Archive,
    ChosenWarning,
    Filters,
    MissingArchive,
    NoGameToStart,
    UnsearchableRecord,
    explorer,
    search,
)
from lusoria.archive.patterns import glob_regex, matching_plies, pattern_globs
from lusoria.archive.positions import boards_and_materials, pack_boards
from lusoria.archive.query import COLUMNS, FilterError
from lusoria.archive.search import continuations, material_condition
from lusoria.cli import main
from lusoria.validator.base import OptionError
from lusoria.validator.games import GAMES
from lusoria.validator.grid import folded
from lusoria.validator.replay import check

INITIAL_TABLUT = "3ppp3/4p4/4P4/p3P3p/ppPPKPPpp/p3P3p/4P4/4p4/3ppp3 w"
INITIAL_LAQUET = "1:2,2:3,3:3,4:3,5:3,18:1 6:14,7:1 w"
# Records 1 and 2 reach the same position after ply 4 in another order (a transposition);
# record 3 is the beginning of record 1; the Laquet records play two rolls to one position
# (the last two are the same game but for their Round, which keeps them apart).
RECORDS = """\
[Game "tablut"]
[Event "Spring"]
[Date "2020.05.01"]
[White "K. Nilsson"]
[Black "Olof Berg"]
[Result "1-0"]

1. c5-c3 i6-f6 2. d5-d3 i4-h4 1-0

[Game "tablut"]
[Event "Autumn"]
[Date "2021.??.??"]
[White "Karin Nilsson"]
[Black "Olof Berg"]
[Result "0-1"]

1. d5-d3 i4-h4 2. c5-c3 i6-f6 3. c3-c7 0-1

[Game "tablut"]
[Event "Spring"]
[Date "????.??.??"]
[White "Olof Berg"]
[Black "Karin Nilsson"]
[Result "*"]

1. c5-c3 i6-f6 *

[Game "laquet"]
[Date "2022.01.01"]
[Result "*"]

1. 33: 5/8/11 *

[Game "laquet"]
[Result "*"]

1. 42: 5/9/11 *

[Game "laquet"]
[Round "2"]
[Result "*"]

1. 24: 5/9/11 *
"""


@pytest.fixture(scope="module")
def archive(tmp_path_factory):
    folder = tmp_path_factory.mktemp("research")
    (folder / "records.lgn").write_text(RECORDS)
    archive = Archive(str(folder / "research.db"))
    assert archive.import_paths([str(folder / "records.lgn")]).added == 6
    return archive


@pytest.fixture(scope="module")
def samples(tmp_path_factory):
    archive = Archive(str(tmp_path_factory.mktemp("samples") / "samples.db"))
    archive.import_paths([str(ROOT / "samples")])
    return archive


def found(archive: Archive, **filters) -> list[tuple[int, int | None]]:
    return [(row["id"], row.get("ply")) for row in archive.query(Filters(**filters))]


def csv_rows(output: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(output)))


def lines(nodes, prefix=()) -> dict[tuple[str, ...], tuple]:
    """Every node of a tree by its line of plies: (games, White wins, draws, Black wins, unfinished)."""
    found = {}
    for node in nodes:
        line = prefix + (node.ply,)
        found[line] = (node.games, node.white, node.draws, node.black, node.unfinished)
        found.update(lines(node.children, line))
    return found


# -- the move tree ----------------------------------------------------------------------------


def test_the_tree_from_the_start_counts_games_results_and_dates(archive):
    nodes = archive.tree(INITIAL_TABLUT)
    assert [(n.ply, n.games, n.white, n.black, n.unfinished) for n in nodes] == [
        ("c5-c3", 2, 1, 0, 1),
        ("d5-d3", 1, 0, 1, 0),
    ]
    first = nodes[0]
    assert (first.first, first.last, first.average_ply) == ("2020.05.01", "2020.05.01", 1.0)
    assert (nodes[1].first, nodes[1].last) == ("2021.01.01", "2021.12.31")  # the range of 2021.??.??
    assert all(not n.children for n in nodes)


def test_a_drawn_game_is_a_finished_game_of_the_tree(tmp_path):
    results = ["1/2-1/2", "*", "1-0", "1/2-1/2"]
    records = [f'[Game "tablut"]\n[Round "{n}"]\n\n1. e3-c3 d1-d3 {result}\n' for n, result in enumerate(results)]
    archive = Archive(str(tmp_path / "a.db"))
    archive.import_paths(["\n".join(records)])
    (node,) = archive.tree(INITIAL_TABLUT)
    assert (node.games, node.white, node.draws, node.black, node.unfinished) == (4, 1, 2, 0, 1)
    assert (node.as_dict()["draws_percent"], node.score) == (66.7, 66.7)  # of the 3 finished games


def test_the_plies_of_records_with_and_without_a_rules_tag_are_one_node(tmp_path):
    """A ply played under the default rules and under a Rules tag that chose others (their rows read
    together, one with rule tags and one without) to the same position: its games, and the dates of
    both rows (the earliest first day and the latest last, whichever row is read first)."""
    records = [
        '[Game "tablut"]\n[Date "2019.01.01"]\n\n1. e3-c3 d1-d3 *\n',
        '[Game "tablut"]\n[Date "2022.12.31"]\n\n1. e3-c3 d1-d3 *\n',
        '[Game "tablut"]\n[Date "2021.03.04"]\n[Rules "king-capture=2"]\n\n1. e3-c3 d1-d3 1-0\n',
        '[Game "tablut"]\n[Date "2020.05.06"]\n[Rules "king-capture=2"]\n\n1. e3-c3 d1-d3 *\n',
    ]
    archive = Archive(str(tmp_path / "a.db"))
    archive.import_paths(["\n".join(records)])
    tree = archive.tree(INITIAL_TABLUT, depth=2)
    assert lines(tree) == {("e3-c3",): (4, 1, 0, 0, 3), ("e3-c3", "d1-d3"): (4, 1, 0, 0, 3)}
    assert (tree[0].first, tree[0].last) == ("2019.01.01", "2022.12.31")  # both from the row read first


def test_the_average_ply_is_the_mean_ply_number_to_one_decimal(tmp_path):
    records = ['[Game "tablut"]\n\n1. e3-c3 d1-d2 2. c3-e3 d2-d1 3. e3-c3 *\n', '[Game "tablut"]\n\n1. e3-c3 d1-d3 *\n']
    archive = Archive(str(tmp_path / "a.db"))
    archive.import_paths(["\n".join(records)])
    (node,) = archive.tree(INITIAL_TABLUT)
    assert (node.ply, node.games, node.average_ply) == ("e3-c3", 2, 2.3)  # played at plies 1, 5 and 1


def test_the_tree_several_plies_deep(archive):
    tree = lines(archive.tree(INITIAL_TABLUT, depth=3))
    assert tree == {
        ("c5-c3",): (2, 1, 0, 0, 1),
        ("c5-c3", "i6-f6"): (2, 1, 0, 0, 1),
        ("c5-c3", "i6-f6", "d5-d3"): (1, 1, 0, 0, 0),
        ("d5-d3",): (1, 0, 0, 1, 0),
        ("d5-d3", "i4-h4"): (1, 0, 0, 1, 0),
        ("d5-d3", "i4-h4", "c5-c3"): (1, 0, 0, 1, 0),
    }


def test_a_transposition_counts(archive):
    """Record 1 reached the position after its ply 4; record 2 reached it in another order and went on."""
    nodes = archive.tree(from_id=1, ply=4)
    assert [(n.ply, n.games, n.black, n.average_ply) for n in nodes] == [("c3-c7", 1, 1, 5.0)]


def test_the_tree_applies_the_filters_of_query(archive):
    assert [n.ply for n in archive.tree(INITIAL_TABLUT, filters=Filters(event="Autumn"))] == ["d5-d3"]
    assert lines(archive.tree(INITIAL_TABLUT, filters=Filters(player="Karin Nilsson", result="*"))) == {
        ("c5-c3",): (1, 0, 0, 0, 1)
    }
    assert archive.tree(INITIAL_TABLUT, filters=Filters(game="hnefatafl")) == []  # a game of its board, none here


def test_the_laquet_tree_lists_the_plays_of_each_roll(archive):
    """Two rolls lead to one position: two rows; 42 and 24 are one roll, written two ways (canonical: 42)."""
    nodes = archive.tree(INITIAL_LAQUET)
    assert sorted((n.ply.split(":")[0], n.games) for n in nodes) == [("33", 1), ("42", 2)]
    assert nodes[0].position == nodes[1].position


def test_tree_problems_are_clear(archive, tmp_path):
    with pytest.raises(ValueError, match="not a position string"):
        archive.tree("nonsense")
    with pytest.raises(ValueError, match="no position after ply 9 of record 1"):
        archive.tree(from_id=1, ply=9)
    with pytest.raises(ValueError) as lacking:  # (was "no position after ply 0 of record 999")
        archive.tree(from_id=999, ply=0)
    assert str(lacking.value) == "no record of the archive has the id 999 (its ids run from 1 to 6)"
    with pytest.raises(ValueError) as both:  # (the position was taken, from_id left unsaid, where the CLI refuses both)
        archive.tree(INITIAL_TABLUT, from_id=1)
    assert str(both.value) == "the tree starts from a position string or a record (from_id), not both"
    with pytest.raises(ValueError) as unplaced:  # (left unsaid: the tree of the start)
        archive.tree(filters=Filters(game="tablut"), ply=3)
    assert str(unplaced.value) == "ply 3 is a ply of the record of from_id: give from_id, or leave ply out"
    empty = Archive(str(tmp_path / "empty.db"))  # no record with plies: no game to start from
    empty.import_paths(['[Game "tablut"]\n\n*\n'])
    with pytest.raises(NoGameToStart) as neither:  # (was "no position after ply 0 of record None"; a ValueError too)
        empty.tree()
    assert isinstance(neither.value, ValueError) and str(neither.value) == (
        "the archive holds no record with a legal ply, whose game the tree would start from: "
        "name a position, a record (and a ply), or a game"
    )


def test_the_tree_of_a_library_call_starts_from_the_start_of_the_game_its_filters_name(archive):
    """As `lusoria tree --game` does (was a ValueError that pointed to tree_from): the rules of the
    game and variant named, by any name `explain` knows; a game or variant that choose none is the
    OptionError of its tag, as --game and --variant say it. The variant it chose is warned (it was said
    by the CLI alone), or told to the archive's `notes`, as `lusoria tree --game` says it."""
    rules = GAMES["tablut"](variant="seed")
    chosen = f"note: Variant seed: the variant of most records of tablut in {archive.path}"
    with pytest.warns(ChosenWarning) as warned:
        started = archive.tree(filters=Filters(game="Tablut"), depth=2)
    assert [str(warning.message) for warning in warned] == [chosen] and warned[0].filename == __file__
    with pytest.warns(ChosenWarning) as warned:  # said at the caller's line of start_of_game too (was `sys:1`)
        archive.start_of_game(Filters(game="tablut"))
        archive.start_of_game(None)
    assert [(str(warning.message), warning.filename) for warning in warned] == [
        (chosen, __file__),
        (f"note: Game laquet Variant seed: the game of most records in {archive.path}", __file__),
    ]
    assert started and started == archive.tree_from(rules, rules.initial(), Filters(game="Tablut"), depth=2)
    told = []
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert Archive(archive.path, notes=told.append).tree(filters=Filters(game="tablut"), depth=2) == started
    assert [str(note) for note in told] == [chosen]
    aage = GAMES["tablut"](options={"first": "white"}, variant="aage")
    assert archive.tree(filters=Filters(game="tablut", variant="saami-tablut-w")) == archive.tree_from(
        aage, aage.initial(), Filters(game="tablut", variant="saami-tablut-w")
    )
    for filters, tag, said in (
        (Filters(game="chess"), "Game", "unknown game 'chess'"),
        (Filters(game="tablut", variant="nope"), "Variant", "unknown variant 'nope' for tablut"),
        (Filters(game="laquet", variant="aage"), "Variant", "aage is a variant of tablut"),
    ):
        with pytest.raises(OptionError) as refused:
            archive.tree(filters=filters)
        assert refused.value.tag == tag and str(refused.value).startswith(said)


def test_tree_command_formats(archive):
    runner = CliRunner()
    table = runner.invoke(main, ["tree", INITIAL_TABLUT, "--db", archive.path, "--depth", "2"])
    assert table.exit_code == 0
    assert table.output.splitlines()[0].split()[:7] == ["ply", "games", "Swedes", "%", "draws", "%", "Muscovites"]
    assert table.output.splitlines()[2].split()[:6] == ["c5-c3", "2", "100.0", "0.0", "0.0", "1"]  # + 1 unfinished
    assert table.output.splitlines()[3].split()[:4] == ["c5-c3", "i6-f6", "2", "100.0"]
    shown = runner.invoke(
        main,
        [
            "tree",
            "--from-id",
            "3",
            "--ply",
            "0",
            "--db",
            archive.path,
            "--format",
            "tree",
            "--depth",
            "2",
            "--event",
            "Spring",
        ],
    )
    assert [line[:12] for line in shown.output.splitlines()[2:]] == ["c5-c3       ", "· i6-f6     "]
    former = runner.invoke(
        main, ["tree", "--record", "3", "--db", archive.path, "--format", "tree", "--depth", "2", "--event", "Spring"]
    )
    assert former.stdout == shown.stdout  # the former name of --from-id, kept for one release, and said
    assert former.stderr == "lusoria: --record is now --from-id; --record goes in the next release\n"
    assert "--record " not in runner.invoke(main, ["tree", "--help"]).output
    twice = runner.invoke(main, ["tree", "--record", "3", "--from-id", "1", "--db", archive.path])
    assert (twice.exit_code, twice.stdout) == (2, "")  # not one of the two taken, unsaid
    assert "Error: give --from-id N alone: --record N is its former name" in twice.stderr
    nested = json.loads(
        runner.invoke(main, ["tree", INITIAL_TABLUT, "--db", archive.path, "--format", "json", "--depth", "2"]).output
    )
    assert nested[0]["ply"] == "c5-c3" and nested[0]["children"][0]["games"] == 2
    both = runner.invoke(main, ["tree", INITIAL_TABLUT, "--from-id", "1", "--db", archive.path])
    assert (both.exit_code, both.stderr.splitlines()[-1]) == (
        2,
        "Error: give a POSITION or --from-id N (and --ply K), not both: the tree starts from one",
    )
    for start in ([INITIAL_TABLUT], ["--game", "tablut"], []):  # --ply was left unsaid: the tree of the start
        unplaced = runner.invoke(main, ["tree", *start, "--ply", "3", "--db", archive.path])
        assert (unplaced.exit_code, unplaced.stderr.splitlines()[-1]) == (
            2,
            "Error: --ply 3 is a ply of the record of --from-id N: give --from-id N, or leave --ply out",
        )


def test_the_tree_takes_record_the_former_name_of_from_id_for_one_release_with_a_warning(archive):
    """`Archive.tree(record=)`, renamed `from_id=` as `--record` was `--from-id`, failed a TypeError
    at once: it works until the next release, warned where it is called; both given, neither is taken."""
    spring = Filters(event="Spring")
    with pytest.warns(DeprecationWarning) as warned:
        former = archive.tree(record=3, depth=2, filters=spring)
    assert former and former == archive.tree(from_id=3, depth=2, filters=spring)
    assert [str(warning.message) for warning in warned] == [
        "Archive.tree(record=) is now from_id=; record= goes in the next release"
    ]
    assert warned[0].filename == __file__  # the caller's line, not lusoria's
    with pytest.raises(TypeError, match=r"^Archive.tree: give from_id= alone: record= is its former name$"):
        archive.tree(from_id=1, record=3)


def test_a_game_or_variant_the_archive_lacks_is_said_with_those_it_holds(samples):
    """`lusoria query --game chess` said "no records" alone (found by review)."""
    runner = CliRunner()

    def note(*filters):
        result = runner.invoke(main, ["query", "--db", samples.path, *filters])
        assert result.exit_code == 0 and result.stdout == "no records\n"
        return result.stderr

    held = runner.invoke(main, ["query", "--db", samples.path, "--game", "chess", "--format", "csv"])
    assert held.exit_code == 0 and held.stdout.count("\n") == 2  # samples/errors/tags.lgn, stored as it is
    assert note("--game", "brandubh") == (
        "lusoria: the archive holds no record of the game 'brandubh' (known: chess, laquet, latrunculi, tablut)\n"
    )
    assert note("--game", "Copenhagen").endswith(  # a game of lusoria's, though OpenTafl names a variant so
        "lusoria: the archive holds no record of the game 'Copenhagen' (known: chess, laquet, latrunculi, tablut)\n"
    )
    slip = runner.invoke(main, ["query", "--db", samples.path, "--game", "tablot"])  # none that lusoria knows either
    assert slip.exit_code == 2 and slip.stderr.endswith(
        "Error: --game names no game that lusoria knows, and the archive holds no record of the game 'tablot' "
        "(known: chess, laquet, latrunculi, tablut; did you mean tablut?)\n"
    )
    assert note("--game", "tablut", "--variant", "aage") == (  # (seneca, latrunculi's, is refused)
        "lusoria: the archive holds no record of the variant 'aage' of tablut (known: copenhagen, linnaeus, seed)\n"
    )
    assert note("--game", "tablut", "--result", "1/2-1/2", "--variant", "seed") == ""  # the variant is there
    assert (
        note("--game", "laquet", "--player", "nobody") == "lusoria: no record names the player 'nobody'\n"
    )  # laquet is there


@pytest.mark.parametrize(
    ("given", "filters"),
    [
        ("Linnaeus", "--game tablut --variant linnaeus"),  # a game's variant
        ("Fetlar", "--game copenhagen --variant fetlar or --game hnefatafl --variant opentafl-fetlar-11x11"),
        # a catalogue's entry, which sets rules too, by its name (`--game tablut --variant aage` would select more)
        (" saami-tablut-w ", "--variant saami-tablut-w"),
        ("Ashton tablut 9x9", "--variant 'Ashton tablut 9x9'"),  # (aagenielsen.dk's name, quoted for a shell)
    ],
)
def test_a_variant_given_to_a_filter_as_the_game_is_said_with_the_filters_that_select_it(samples, given, filters):
    """`lusoria query --game saami-tablut-w` asked "did you mean tablut?" (all its records, of every
    variant): as `--game` of the reading options, the filters say the variant's (review of newcomer-48)."""
    refused = CliRunner().invoke(main, ["query", "--db", samples.path, "--game", given])
    name = given.strip()
    assert refused.exit_code == 2 and refused.stderr.endswith(
        f"Error: --game names no game that lusoria knows, and the archive holds no record of the game '{name}' "
        f"(known: chess, laquet, latrunculi, tablut); {name} is a variant, not a game: {filters}\n"
    )


@pytest.mark.parametrize(
    ("given", "filters"),
    [
        (" saami-tablut-w ", "--variant saami-tablut-w"),  # a catalogue's entry, by its name
        ("tablut/Linnaeus", "--game tablut --variant linnaeus"),  # as `lusoria explain` takes it
        ("Ashton tablut 9x9", "--variant 'Ashton tablut 9x9'"),
    ],
)
def test_a_variant_given_to_tree_as_the_game_is_said_with_the_filters_that_select_it(samples, given, filters):
    """`lusoria tree --game saami-tablut-w` said the registry's words alone, where query and validate
    say the variant's options (session 49)."""
    refused = CliRunner().invoke(main, ["tree", "--db", samples.path, "--game", given])
    name = given.strip()
    assert refused.exit_code == 2 and refused.stderr.endswith(
        f"Error: Invalid value for --game: unknown game '{name.lower()}' (known: brandubh, copenhagen, hnefatafl, "
        f"laquet, latrunculi, tablut{'; did you mean tablut?' if 'saami' in name else ''}); {name} is a variant, "
        f"not a game: {filters}\n"
    )


def test_a_games_name_given_as_a_variant_is_said_to_be_the_games(samples):
    """`--variant brandubh` (as `stats` wrote `brandubh standard`) was refused with 197 variants and
    three like it, none the game the user meant: a game's name given as a variant says to name it
    with --game, in the archive's message (query) and in lusoria's (tree)."""
    runner = CliRunner()
    query = runner.invoke(main, ["query", "--db", samples.path, "--variant", "Brandubh"])
    assert query.exit_code == 2 and query.stderr.endswith(
        "did you mean brandubh3-7x7 or brandubh4-7x7 or brandubh-39-7x7?); brandubh is a game, not a variant: "
        "--game brandubh\n"
    )
    tree = runner.invoke(main, ["tree", "--db", samples.path, "--variant", "brandubh"])
    assert tree.exit_code == 2 and tree.stderr.endswith("); brandubh is a game, not a variant: --game brandubh\n")
    slip = runner.invoke(main, ["query", "--db", samples.path, "--variant", "brandubh3"])
    assert slip.exit_code == 2 and "is a game" not in slip.stderr
    # review 48: with --game laquet given, "--game laquet" was said to do what was done
    for command in (["query"], ["stats"], ["tree"]):
        both = runner.invoke(main, [*command, "--db", samples.path, "--game", "Laquet", "--variant", "laquet"])
        assert both.exit_code == 2 and both.stderr.endswith(
            "of laquet (known: seed); laquet is the game itself, not one of its variants: lusoria explain laquet "
            "lists them\n"
        ), command
    # nor, of Tablut, other programs' two hnefatafl variants called "Tablut", which --game tablut chooses none of
    itself = runner.invoke(main, ["query", "--db", samples.path, "--game", "tablut", "--variant", "Tablut"])
    assert itself.exit_code == 2 and itself.stderr.endswith(
        "; tablut is the game itself, not one of its variants: lusoria explain tablut lists them\n"
    )


def test_a_rule_no_diagnostic_cites_is_said_with_those_they_cite(samples, tmp_path):
    """`lusoria query --rule T99` said "no records" alone, as a misspelt player did (found by a club
    organiser): a rule no diagnostic of the archive cites is said on standard error, with the rules
    they cite, and for a name that is no rule of lusoria's, those most like it."""

    def note(db, *filters):
        result = CliRunner().invoke(main, ["query", "--db", db, *filters])
        assert result.exit_code == 0 and result.stdout == "no records\n"
        return result.stderr

    said = "lusoria: no record of the archive has a diagnostic of the rule"
    assert note(samples.path, "--rule", "T99") == f"{said} 'T99' (32 known; did you mean T9?)\n"
    assert note(samples.path, "--rule", "b4") == f"{said} 'b4' (32 known)\n"  # Brandubh's: no slip
    assert note(samples.path, "--rule", "t9", "--player", "nobody") == "lusoria: no record names the player 'nobody'\n"
    small = Archive(str(tmp_path / "small.db"))
    small.import_paths([str(ROOT / "samples/errors/tablut-warnings.lgn")])
    assert note(small.path, "--rule", "T4") == f"{said} 'T4' (known: T8, number)\n"
    valid = Archive(str(tmp_path / "valid.db"))  # no diagnostic at all: said, not '(known: )'
    valid.import_paths([str(ROOT / "samples/tablut/escape.lgn")])
    assert note(valid.path, "--rule", "T99") == f"{said} 'T99' (known: none; did you mean T9?)\n"


def test_tree_without_a_position_starts_from_the_start_of_its_game(archive):
    """`lusoria tree --game tablut`: from the game's start, as the explorer opens (a newcomer's
    first try, which said "give a POSITION"; found by review)."""
    runner = CliRunner()
    from_start = runner.invoke(main, ["tree", "--game", "tablut", "--db", archive.path, "--format", "json"])
    written = runner.invoke(
        main, ["tree", INITIAL_TABLUT, "--game", "tablut", "--db", archive.path, "--format", "json"]
    )
    assert from_start.exit_code == 0 and json.loads(from_start.stdout) == json.loads(written.output)
    assert json.loads(from_start.stdout)[0]["ply"] == "c5-c3"
    assert (
        from_start.stderr == f"lusoria: note: --variant seed: the variant of most records of tablut in {archive.path}\n"
    )
    unknown = runner.invoke(main, ["tree", "--game", "chess", "--db", archive.path])
    assert unknown.exit_code == 2 and "unknown game 'chess' (known: brandubh, copenhagen" in unknown.output
    variant = runner.invoke(main, ["tree", "--game", "tablut", "--variant", "nonesuch", "--db", archive.path])
    assert variant.exit_code == 2 and "Invalid value for --variant: unknown variant 'nonesuch'" in variant.output
    catalogue = runner.invoke(main, ["tree", "--game", "hnefatafl", "--db", archive.path])  # (none archived)
    assert (
        catalogue.exit_code == 2 and "--variant is needed: the archive holds no record of hnefatafl" in catalogue.output
    )


def test_tree_without_a_position_or_a_game_starts_from_the_game_of_most_records(archive):
    """`lusoria tree` with its default options was a usage error ("give a POSITION, …") where the explorer
    opens on the game and variant of most records (Laquet's 3 before Tablut's 3, by name): so does the
    tree, said in a note; `Archive.tree()` as well, told to `notes`."""
    opened = CliRunner().invoke(main, ["tree", "--db", archive.path])
    laquet = GAMES["laquet"](variant="seed")
    assert opened.exit_code == 0 and opened.stdout == output.tree_text(
        archive.tree_from(laquet, laquet.initial()), "table"
    )
    assert opened.stderr == f"lusoria: note: --game laquet --variant seed: the game of most records in {archive.path}\n"
    told: list = []
    on_9x9 = Archive(archive.path, notes=told.append).tree(filters=Filters(board="9"))
    assert on_9x9 == archive.tree(filters=Filters(game="tablut", variant="seed", board="9"))
    assert [str(note) for note in told] == [
        f"note: Game tablut Variant seed: the game of most records on a board of 9x9 in {archive.path}"
    ]
    told.clear()  # a board the archive holds no record on: the game of most records on any, said without the board
    assert Archive(archive.path, notes=told.append).tree(filters=Filters(board="13")) == []
    assert [str(note) for note in told] == [
        f"note: Game laquet Variant seed: the game of most records in {archive.path}"
    ]


def test_the_game_of_most_records_counts_those_with_a_legal_ply_as_the_tree_does(tmp_path):
    """Three Tablut records whose first ply is illegal (plies, none in any tree) and two of Laquet:
    the tree, the explorer and `most_recorded` opened on Tablut's empty tree; they open on Laquet,
    whose records the tree counts, of all or of those the filters select."""
    path = str(tmp_path / "club.db")
    illegal = [f'[Game "tablut"]\n[Variant "seed"]\n[White "{name}"]\n\n1. a1-a9 *\n' for name in "ABC"]
    laquet = [record.replace('[White "random"]', '[White "A"]') for record in random_records("laquet", 2, seed=2)]
    Archive(path).import_paths(["\n".join([*illegal, *laquet])])
    archive = Archive(path)
    assert archive.most_recorded() == ("laquet", "seed") and archive.most_recorded("tablut") is None
    assert archive.most_selected(Filters(white="A")) == ("laquet", "seed")
    opened = CliRunner().invoke(main, ["tree", "--db", path])
    assert opened.stderr == f"lusoria: note: --game laquet --variant seed: the game of most records in {path}\n"
    rules = GAMES["laquet"](variant="seed")
    nodes = archive.tree_from(rules, rules.initial())
    assert opened.stdout == output.tree_text(nodes, "table") and sum(node.games for node in nodes) == 2
    params = pytest.importorskip("datasette.utils", reason="Datasette is a test extra").MultiParams
    assert '<option value="laquet/seed" selected>' in explorer.page(path, params({}), str)


def test_tree_without_a_game_starts_from_the_game_of_most_records_the_filters_select(archive):
    """`lusoria tree --player "Olof Berg"` opened on Laquet, the archive's game of most records, where
    he played none ("no plies played"): the tree and the explorer open on the game of most records
    the filters select, said so; on the archive's when they select none."""
    tablut = GAMES["tablut"](variant="seed")
    opened = CliRunner().invoke(main, ["tree", "--player", "Olof Berg", "--db", archive.path])
    assert opened.exit_code == 0 and opened.stdout == output.tree_text(
        archive.tree_from(tablut, tablut.initial(), filters=Filters(player="Olof Berg")), "table"
    )
    assert opened.stderr == (
        f"lusoria: note: --game tablut --variant seed: the game of most records the filters select in {archive.path}\n"
    )
    told: list = []
    assert Archive(archive.path, notes=told.append).tree(filters=Filters(player="Nobody")) == []
    assert [str(note) for note in told] == [
        f"note: Game laquet Variant seed: the game of most records in {archive.path}"
    ]
    params = pytest.importorskip("datasette.utils", reason="Datasette is a test extra").MultiParams
    page = explorer.page(archive.path, params({"player": ["Olof Berg"]}), str)
    assert '<option value="tablut/seed" selected>' in page


# The first plies of the Tablut start fold into two up to the board's 8 symmetries: c5-c3, its
# image turned half round (g5-g7) and mirrored along the diagonal (e3-c3), each followed by the
# image of i6-f6 (a4-d4, f9-f6); d5-d3 and its image turned half round (f5-f7).
SYMMETRIC = """\
[Game "tablut"]
[White "Ded Fomich"]
[Result "1-0"]

1. c5-c3 i6-f6 1-0

[Game "tablut"]
[Black "DED FOMICH"]
[Result "0-1"]

1. g5-g7 a4-d4 0-1

[Game "tablut"]
[Result "*"]

1. e3-c3 f9-f6 *

[Game "tablut"]
[Result "*"]

1. d5-d3 *

[Game "tablut"]
[Result "0-1"]

1. f5-f7 0-1
"""


@pytest.fixture(scope="module")
def symmetric(tmp_path_factory):
    archive = Archive(str(tmp_path_factory.mktemp("symmetric") / "symmetric.db"))
    assert archive.import_paths([SYMMETRIC]).added == 5
    return archive


def test_the_explorer_gives_shares_of_the_finished_games_and_the_movers_score(archive):
    nodes = archive.tree(INITIAL_TABLUT)
    shares = [
        {key: value for key, value in node.as_dict().items() if key.endswith("percent") or key == "score"}
        for node in nodes
    ]
    assert shares == [  # c5-c3: a White win and an unfinished game; d5-d3: a Black win
        {"white_percent": 100.0, "draws_percent": 0.0, "black_percent": 0.0, "score": 100.0},
        {"white_percent": 0.0, "draws_percent": 0.0, "black_percent": 100.0, "score": 0.0},
    ]
    after = archive.tree(INITIAL_TABLUT, depth=2)[0].children[0]  # i6-f6, played by Black
    assert (after.ply, after.white, after.black, after.score) == ("i6-f6", 1, 0, 0.0)


def test_the_explorer_sorts_by_games_or_score_and_leaves_out_rare_plies(archive):
    assert [node.ply for node in archive.tree(from_id=1, ply=3, depth=1)] == ["i4-h4"]
    by_games = archive.tree(INITIAL_TABLUT, filters=Filters(game="tablut"))
    assert [(node.ply, node.games) for node in by_games] == [("c5-c3", 2), ("d5-d3", 1)]
    assert [node.ply for node in archive.tree(INITIAL_TABLUT, sort="score")] == ["c5-c3", "d5-d3"]
    assert [node.ply for node in archive.tree(INITIAL_TABLUT, min_games=2)] == ["c5-c3"]
    deep = archive.tree(INITIAL_TABLUT, depth=3, min_games=2)
    assert lines(deep) == {("c5-c3",): (2, 1, 0, 0, 1), ("c5-c3", "i6-f6"): (2, 1, 0, 0, 1)}
    with pytest.raises(ValueError, match="sorted by games or score"):
        archive.tree(INITIAL_TABLUT, sort="name")
    with pytest.raises(ValueError, match=r"^depth: '0' is not a whole number from 1 to 1000000000$"):
        archive.tree(INITIAL_TABLUT, depth=0)  # (not an empty tree, as if no game had a next ply)


def tablut_archive(folder, *movetexts: str) -> Archive:
    """An archive of Tablut games, one a movetext (each its own Round: no two are one game)."""
    text = "".join(
        f'[Game "tablut"]\n[Round "{number}"]\n[Result "{moves.split()[-1]}"]\n\n{moves}\n\n'
        for number, moves in enumerate(movetexts, 1)
    )
    (folder / "games.lgn").write_text(text)
    archive = Archive(str(folder / "games.db"))
    assert archive.import_paths([str(folder / "games.lgn")]).added == len(movetexts)
    return archive


def test_a_ply_of_unfinished_games_alone_has_no_score_and_comes_last_by_score(tmp_path):
    """h79b: sorted by score, a ply whose games are all unfinished (no score) comes after every scored ply, the
    worst (0%) included, not first."""
    archive = tablut_archive(tmp_path, "1. c5-c3 i6-f6 1-0", "1. d5-d3 i4-h4 0-1", "1. f5-f3 *", "1. f5-f3 i4-h4 *")
    nodes = archive.tree(INITIAL_TABLUT, sort="score")
    assert [(node.ply, node.games, node.score) for node in nodes] == [
        ("c5-c3", 1, 100.0),
        ("d5-d3", 1, 0.0),
        ("f5-f3", 2, None),
    ]


def test_a_position_the_tree_comes_back_to_ends_its_line_and_is_no_node_of_its_own(tmp_path):
    """h79b: a game that comes back to a position (c5-c3 … f6-i6 back to the start, then c5-c3 again): were the plies
    from it the same nodes as those grown above, the tree would hold itself (the start's c5-c3 its own descendant: a
    JSON tree without end); grown again as copies, they grew lap after lap down to the depth asked, and two such
    games doubled the tree at each lap (h83b): the ply back at a position of its line ends it, a leaf; the ply the
    game played from there (i4-h4) is a child of that position where the line first reached it."""
    archive = tablut_archive(tmp_path, "1. c5-c3 i6-f6 2. c3-c5 f6-i6 3. c5-c3 i4-h4 *")
    line = ("c5-c3", "i6-f6", "c3-c5", "f6-i6")
    nodes = archive.tree(INITIAL_TABLUT, depth=7)
    assert lines(nodes) == {
        **{line[:n]: (1, 0, 0, 0, 1) for n in range(1, 5)},
        ("c5-c3", "i4-h4"): (1, 0, 0, 0, 1),
    }
    back = nodes[0].children[1].children[0].children[0]  # f6-i6, back at the start
    assert (back.ply, back.children) == ("f6-i6", [])
    assert len(json.dumps([node.as_dict() for node in nodes])) < 5000


def test_a_position_two_lines_reach_grows_below_each_as_far_as_that_line_goes(tmp_path):
    """A transposition (c5-c3 … g5-g7 and g5-g7 … c5-c3 reach one position) whose next plies come back to a position
    of one line and not of the other (g5-g7 i6-f6, reached again by f6-i6 c3-c5): the line back at it ends there, the
    other grows on; each grows copies of the plies from that position, not the same nodes, which would end both or
    neither."""
    archive = tablut_archive(tmp_path, "1. c5-c3 i6-f6 2. g5-g7 f6-i6 3. c3-c5 i6-f6 *", "1. g5-g7 i6-f6 2. c5-c3 *")
    grown = [line for line in lines(archive.tree(INITIAL_TABLUT, depth=10)) if line[-2:] == ("f6-i6", "c3-c5")]
    assert {line[:3]: len(line) for line in grown} == {("c5-c3", "i6-f6", "g5-g7"): 5, ("g5-g7", "i6-f6", "c5-c3"): 5}
    deeper = [line for line in lines(archive.tree(INITIAL_TABLUT, depth=10)) if len(line) > 5]
    assert deeper == [
        ("c5-c3", "i6-f6", "g5-g7", "f6-i6", "c3-c5", "i6-f6"),
        ("c5-c3", "i6-f6", "g5-g7", "f6-i6", "c3-c5", "i6-f6", "c5-c3"),
    ]


def test_a_folded_ply_is_written_as_most_of_its_games_played_it(tmp_path):
    """h79b: with symmetric, plies played in images of one another are one node, written as most of its games played
    it (g5-g7, in two games), not as the fewest did nor the first by name, nor as the most plies did (c5-c3, three
    times in one game that comes back to the start)."""
    back_and_forth = "1. c5-c3 i6-f6 2. c3-c5 f6-i6 3. c5-c3 i6-f6 4. c3-c5 f6-i6 5. c5-c3 *"
    archive = tablut_archive(tmp_path, back_and_forth, "1. g5-g7 i6-f6 *", "1. g5-g7 i4-h4 *")
    nodes = archive.tree(INITIAL_TABLUT, filters=Filters(symmetric=True))
    assert [(node.ply, node.games) for node in nodes] == [("g5-g7", 3)]


def test_symmetric_tree_counts_equal_the_counts_folded_by_hand(symmetric):
    plain = lines(symmetric.tree(INITIAL_TABLUT, depth=2))
    assert len([line for line in plain if len(line) == 1]) == 5
    folded = lines(symmetric.tree(INITIAL_TABLUT, depth=2, filters=Filters(symmetric=True)))
    by_hand = {  # (games, White wins, draws, Black wins, unfinished)
        ("c5-c3",): (3, 1, 0, 1, 1),  # c5-c3, g5-g7 and e3-c3
        ("c5-c3", "i6-f6"): (3, 1, 0, 1, 1),  # i6-f6, a4-d4 and f9-f6, as played after c5-c3
        ("d5-d3",): (2, 0, 0, 1, 1),  # d5-d3 and f5-f7
    }
    assert folded == by_hand
    assert sum(games for line, (games, *_) in plain.items() if len(line) == 1) == 5


def test_symmetric_tree_from_a_position_without_symmetry_turns_the_plies_played_in_its_images(symmetric):
    after = symmetric.tree(from_id=2, ply=1, filters=Filters(symmetric=True))  # after g5-g7, as record 2 played it
    assert [(node.ply, node.games) for node in after] == [("a4-d4", 3)]  # i6-f6 and f9-f6 turned as g5-g7 is


def test_a_position_sought_with_symmetric_also_matches_its_images_as_a_pattern_does(symmetric):
    after_c5c3 = "3ppp3/4p4/4P4/p3P3p/pp1PKPPpp/p3P3p/2P1P4/4p4/3ppp3 b"
    found = [(row["id"], row["ply"]) for row in symmetric.query(Filters(position=after_c5c3, symmetric=True))]
    assert len(found) == 3  # c5-c3, g5-g7 and e3-c3, as the folded tree counts them
    assert found == [(row["id"], row["ply"]) for row in symmetric.query(Filters(pattern=after_c5c3, symmetric=True))]
    assert len(symmetric.query(Filters(position=after_c5c3))) == 1


def test_the_repertoire_of_a_player_counts_their_results(archive, symmetric):
    nodes = archive.tree(INITIAL_TABLUT, filters=Filters(player="Karin Nilsson"))  # White in 2, Black in 3
    assert [
        {key: node.as_dict()[key] for key in ("ply", "games", "won", "drawn", "lost", "unfinished", "score")}
        for node in nodes
    ] == [
        {"ply": "c5-c3", "games": 1, "won": 0, "drawn": 0, "lost": 0, "unfinished": 1, "score": None},
        {"ply": "d5-d3", "games": 1, "won": 0, "drawn": 0, "lost": 1, "unfinished": 0, "score": 0.0},
    ]
    # any case of the name's letters: Ded Fomich won record 1 as White and record 2 as Black
    (both,) = symmetric.tree(INITIAL_TABLUT, filters=Filters(player="ded fomich", symmetric=True))
    assert (both.games, both.won, both.lost, both.score) == (2, 2, 0, 100.0)
    shown = CliRunner().invoke(
        main, ["tree", INITIAL_TABLUT, "--db", symmetric.path, "--player", "Ded Fomich", "--symmetric"]
    )
    assert shown.output.splitlines()[0].split()[:8] == ["ply", "games", "won", "%", "drawn", "%", "lost", "%"]


# -- boards and material ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "game, tags",
    [
        ("tablut", {}),
        ("tablut", {"Variant": "linnaeus"}),
        ("latrunculi", {"Variant": "seneca"}),
        ("latrunculi", {"Variant": "piso", "Board": "10x7"}),
        ("latrunculi", {"Variant": "dux"}),
        ("latrunculi", {"Variant": "petteia"}),
        ("laquet", {}),
    ],
)
def test_boards_spell_out_the_position_string(game, tags):
    """The board of each position of random games is its position string with one character a
    square, its material what the rules count."""
    for text in random_records(game, 3, seed=5, tags=tags, max_plies=80):
        report = check(text)
        boards, materials = boards_and_materials(report.rules, report.positions)
        for position, spelled, material in zip(report.positions, boards, materials, strict=True):
            board = spelled.decode()
            assert material[:2] == report.rules.material(position)
            if game != "laquet":
                assert len(board.split()[0].replace("/", "")) == len(position.board)
                assert folded(board) == report.rules.format_position(position)
            else:
                assert board.endswith(report.rules.format_position(position)[-2:])


# -- patterns ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "game, tags, patterns",
    [
        (
            "tablut",
            {},
            [
                "*********/*********/*********/*********/****K****/*********/*********/*********/********* b",
                "*********/*********/*********/****p****/**?*K*W**/****B****/*********/*********/********* *",
                "3ppp3/4p4/4P4/p3P3p/ppPPKPPpp/p3P3p/4P4/4p4/3ppp3 w",
            ],
        ),
        (
            "latrunculi",
            {"Variant": "seneca"},
            [
                "********/********/********/***P****/********/********/********/******** *",
                "8/8/8/8/8/8/8/8 b",
                "********/**?*****/********/********/**W*****/********/********/**B***** w * *",
            ],
        ),
        ("laquet", {}, ["5:2,11:1,* *", "1:*,18:* * w", "- 6:* b"]),
    ],
)
def test_boards_match_a_pattern_as_sqlite_glob_does(game, tags, patterns):
    """`glob_regex` reads each GLOB of a pattern as SQLite's GLOB does, on every board of random
    games (and their 8 symmetries); `matching_plies` gives the plies whose board matches."""
    conn = sqlite3.connect(":memory:")
    matched = 0
    for text in random_records(game, 4, seed=11, tags=tags, max_plies=60):
        report = check(text)
        boards = [board.decode() for board in boards_and_materials(report.rules, report.positions)[0]]
        for pattern in patterns:
            globs = [glob for of_game, glob in pattern_globs(pattern, symmetric=True) if of_game == game]
            expected = [
                ply
                for ply, board in enumerate(boards)
                if any(conn.execute("SELECT ? GLOB ?", [board, glob]).fetchone()[0] for glob in globs)
            ]
            for glob in globs:
                assert [bool(re.fullmatch(glob_regex(glob), board)) for board in boards] == [
                    bool(conn.execute("SELECT ? GLOB ?", [board, glob]).fetchone()[0]) for board in boards
                ]
            found = matching_plies(
                pack_boards([board.encode() for board in boards]), game, json.dumps([[game, glob] for glob in globs])
            )
            assert (json.loads(found) if found else []) == expected
            matched += len(expected)
    assert matched


def pattern(*squares: tuple[str, str], turn: str = "*") -> str:
    """A Tablut pattern: every square open but the given ones (name, pattern character)."""
    board = [list("*********") for _ in range(9)]
    for name, char in squares:
        board[9 - int(name[1])]["abcdefghi".index(name[0])] = char
    return "/".join("".join(rank) for rank in board) + " " + turn


@pytest.mark.parametrize(
    "squares, turn, expected",
    [
        ((("c3", "P"),), "*", [(1, 1), (2, 3), (3, 1)]),  # a given piece
        ((("c3", "P"),), "w", [(1, 2), (2, 4), (3, 2)]),  # … with White to move
        ((("c3", "W"),), "b", [(1, 1), (2, 3), (3, 1)]),  # a piece of a side
        ((("c3", "B"),), "*", []),
        ((("c5", "1"),), "b", [(1, 1), (2, 3), (3, 1)]),  # a square that must be empty
        ((("c5", "?"), ("d5", "?")), "b", []),  # any piece: one of them has moved by Black's first turn
        ((("c5", "?"), ("d5", "?")), "w", [(1, 0), (2, 0), (3, 0)]),
        ((("c7", "?"),), "*", [(2, 5)]),
    ],
)
def test_pattern_squares(archive, squares, turn, expected):
    assert found(archive, pattern=pattern(*squares, turn=turn)) == expected


def test_pattern_symmetric_finds_the_mirrored_position(archive):
    mirrored = pattern(("g3", "P"), ("g5", "1"))  # c5-c3 as seen in a mirror
    assert found(archive, pattern=mirrored) == []
    assert found(archive, pattern=mirrored, symmetric=True) == [(1, 1), (2, 3), (3, 1)]
    turned = pattern(("c7", "P"), ("c5", "1"))  # c5-c3 turned upside down
    assert found(archive, pattern=turned, symmetric=True) == [(1, 1), (2, 3), (3, 1)]


def test_query_by_pattern_shows_the_first_ply_that_matches(archive):
    result = CliRunner().invoke(
        main, ["query", "--db", archive.path, "--pattern", pattern(("c7", "?")), "--format", "csv"]
    )
    assert [(row["id"], row["ply"]) for row in csv_rows(result.output)] == [("2", "5")]


def test_symmetries_keep_the_colours_and_give_eight_boards():
    globs = pattern_globs(pattern(("b3", "K")), symmetric=True)
    assert len([g for game, g in globs if game == "tablut"]) == 8
    assert all(g.count("K") == 1 and "k" not in g for _, g in globs)


def test_laquet_patterns(archive):
    assert found(archive, pattern="5:2,11:1,* *") == [(4, 1), (5, 1), (6, 1)]
    assert found(archive, pattern="8:*,* * b") == []  # 8 is only passed through
    assert found(archive, pattern="1:2,2:3,3:3,4:3,5:3,18:1 6:14,7:1") == [(4, 0), (5, 0), (6, 0)]
    assert found(archive, pattern="11:1,* 6:14,7:* b") == [(4, 1), (5, 1), (6, 1)]
    assert found(archive, pattern="11:1,* 7:* b") == []  # Black's other points must be free of Black


@pytest.mark.parametrize(
    "text, message",
    [
        ("nonsense", "not a pattern of any game"),
        (" \t ", "^an empty pattern$"),  # (h83a) blanks alone: said so, not why each game refuses nothing
        ("x/x/x/x/x/x/x/x/x w", "'x' is not a tablut piece"),
        (pattern(("a1", "P"), turn="x"), "the side to move is w, b or"),
        ("1:2,1:3 - w", "point 1 is given twice"),
        ("19:1 - w", "'19:1' is not POINT:COUNT"),  # Laquet's points 1-18, 1-15 checkers on one
        ("0:1 - w", "'0:1' is not POINT:COUNT"),
        ("3:16 - w", "'3:16' is not POINT:COUNT"),
        ("- 3:0 w", "'3:0' is not POINT:COUNT"),
        ("1" * 5000 + ":1 - w", "is not POINT:COUNT"),
    ],
)
def test_bad_patterns_say_why(archive, text, message):
    with pytest.raises(ValueError, match=message):
        archive.query(Filters(pattern=text))


def test_a_pattern_no_game_reads_says_why_of_the_game_asked_alone(archive):
    """`--game tablut --pattern` with a lower-case king listed why each of the six games refuses it."""
    wrong = "*********/*********/*********/*********/****k****/*********/*********/*********/********* w"
    with pytest.raises(ValueError) as raised:
        archive.query(Filters(game="Tablut", pattern=wrong))
    assert str(raised.value) == (
        f"'{wrong}' is not a pattern of tablut ('k' is not a tablut piece, a digit, or a wildcard (* ? W B); "
        "see docs/notation.md §6.1)"
    )


def test_a_pattern_or_position_of_a_board_not_of_the_game_asked_says_so(archive):
    """A researcher copied the docs' 9x9 pattern (the king on e5) to search Copenhagen: "no records",
    with nothing said; the pattern is read by the games of its board only."""
    king_on_e5 = "/".join(["*********"] * 4 + ["****K****"] + ["*********"] * 4) + " b"
    with pytest.raises(ValueError, match=r"is a pattern of hnefatafl, tablut, not of copenhagen: its board is read"):
        archive.query(Filters(game="Copenhagen", pattern=king_on_e5))
    assert archive.query(Filters(game="tablut", pattern=king_on_e5)) == archive.query(Filters(pattern=king_on_e5))
    start = "3ppp3/4p4/4P4/p3P3p/ppPPKPPpp/p3P3p/4P4/4p4/3ppp3 w"  # so is a position string
    with pytest.raises(ValueError, match=r"'3ppp3/.* w' is a position of hnefatafl, tablut, not of brandubh"):
        archive.query(Filters(game="brandubh", position=start))
    assert archive.query(Filters(game="tablut", position=start)) == archive.query(Filters(position=start)) != []
    with pytest.raises(ValueError, match=r"is a position of hnefatafl, tablut, not of brandubh"):
        archive.tree(start, filters=Filters(game="brandubh"))
    assert archive.tree(start, filters=Filters(game="tablut")) == archive.tree(start) != []
    for line, kind in ((start, "position"), (king_on_e5, "pattern")):  # a positions file of either
        with pytest.raises(ValueError, match=rf"is a {kind} of hnefatafl, tablut, not of brandubh"):
            archive.query(Filters(game="brandubh", positions=[line, ""]))
        assert archive.query(Filters(game="tablut", positions=[line])) == archive.query(Filters(positions=[line])) != []


@pytest.mark.parametrize(
    "text, message",
    [
        ("4/4/4 *", "latrunculi: a latrunculi pattern cannot be 4x3"),
        ("16/16/16/16/16/16/16/16/16/16/16/16/16/16/16/16/16 *", "latrunculi: a latrunculi pattern cannot be 16x17"),
        ("17/17/17/17 *", "latrunculi: a latrunculi pattern cannot be 17x4"),  # 17 files: only the tafl family's
        ("20/20/20/20 *", "latrunculi: a run of 20 empty squares is wider than any board (19 squares)"),
        ("9" * 5000 + "/8/8/8/8/8/8/8 *", "a run of 99999999999999999999 empty squares is wider than any board"),
        ("5/4/4/4 *", "latrunculi: every rank of a pattern covers the same number of squares"),
        ("9/9/9/9/9/9/9/9/9 w 1 2 3", "tablut: it has no fields after the side to move"),
        ("9/9/9/9/9/9/9/9/9 w 1 2 3", "latrunculi: a Latrunculi pattern ends with the pieces each side holds in hand"),
    ],
)
def test_a_grid_pattern_has_a_board_of_its_game(text, message):
    with pytest.raises(ValueError) as raised:
        pattern_globs(text)
    assert message in str(raised.value)


@pytest.mark.parametrize(
    "pattern, fits, not_fits",
    [
        ("9/9/9/9/9/9/9/9/9 w", {"latrunculi", "tablut"}, {"copenhagen", "brandubh", "laquet"}),
        ("/".join(["11"] * 11), {"copenhagen", "latrunculi"}, {"tablut", "brandubh", "laquet"}),
        ("7/7/7/7/7/7/7 b", {"brandubh", "latrunculi"}, {"tablut", "copenhagen", "laquet"}),
        ("9/9/9/9/9/9/9/9/9 w 1 *", {"latrunculi"}, {"tablut", "copenhagen", "brandubh", "laquet"}),
    ],
)
def test_grid_patterns_are_read_by_every_game_whose_board_they_fit(pattern, fits, not_fits):
    """Each game whose board the pattern fits, in the registry's order (another game of that board
    may join them)."""
    found = [game for game, _ in pattern_globs(pattern)]
    assert fits <= set(found) and not set(found) & not_fits
    assert found == [game for game in GAMES if game in found]


def test_a_pattern_of_one_games_board_is_read_by_that_game():
    assert pattern_globs("4/4/4/4 b") == [("latrunculi", "..../..../..../.... b*")]
    assert pattern_globs("4/4/4/4 w 1 *") == [("latrunculi", "..../..../..../.... w 1 [0-9]*")]
    assert [game for game, _ in pattern_globs("/".join(["16"] * 16) + " *")] == ["hnefatafl", "latrunculi"]


# -- material ------------------------------------------------------------------------------------


def test_material_conditions(samples):
    assert len(samples.query(Filters(material=["king=0"], game="tablut"))) == 2  # two samples capture the king
    rows = samples.query(Filters(material=["white_off>=15"]))
    assert sorted(row["id"] for row in rows) == [16, 72, 73]  # two whole games, and a study that starts so
    assert found(samples, material=["inciti>=1"], game="latrunculi", variant="seneca") == [
        (28, 0),
        (29, 0),
        (30, 0),
        (31, 0),
        (77, 56),
    ]  # error samples that start with inciti; a whole game
    assert found(samples, material=["inciti >= 1"], material_for=2) == [(77, 78)]
    assert found(samples, material=["inciti"], material_for=3) == []


def test_material_conditions_hold_at_the_same_ply(archive):
    assert found(archive, material=["white=9, black=16"], game="tablut") == [(1, 0), (2, 0), (3, 0)]
    assert found(archive, material=["white==9, black == 16"], game="tablut") == [(1, 0), (2, 0), (3, 0)]  # == is =
    assert found(archive, material=["white=9", "king"], material_for=5) == [(1, 0), (2, 0)]  # 5 and 6 positions
    assert found(archive, material=["white=9", "king"], material_for=6) == [(2, 0)]
    assert found(archive, material=["white<9"]) == []


def test_a_position_and_material_hold_at_the_same_ply(samples):
    """h79b: a position (or pattern) and a material condition hold at one ply, not each at a ply of its own:
    records 58 and 63 start at Tablut's start with 16 black pieces and lose one later (plies 5 and 3), which
    their material ranges allow, but never at the start."""
    assert [(i, ply) for i, ply in found(samples, material=["black<=15"], game="tablut") if i in (58, 63)] == [
        (58, 5),
        (63, 3),
    ]
    assert (58, 0) in found(samples, position=INITIAL_TABLUT) and (63, 0) in found(samples, position=INITIAL_TABLUT)
    assert found(samples, position=INITIAL_TABLUT, material=["black<=15"]) == []
    start = INITIAL_TABLUT.split()[0].replace("p", "?").replace("P", "?") + " w"  # any piece where the start has one
    assert {(58, 0), (63, 0)} <= set(found(samples, pattern=start, game="tablut"))
    assert found(samples, pattern=start, material=["black<=15"], game="tablut") == []
    assert found(samples, position=INITIAL_TABLUT, material=["black=16"]) == found(samples, position=INITIAL_TABLUT)


def test_the_for_option_counts_plies_in_a_row_from_one(archive):
    """`query --for N` is the whole number material_for takes, from 1 (a run of no plies is none)."""
    runner = CliRunner()
    ask = ["query", "--db", archive.path, "--material", "white=9", "--material", "king", "--format", "csv"]
    for plies, ids in (("5", ["1", "2"]), ("6", ["2"])):
        result = runner.invoke(main, [*ask, "--for", plies])
        assert result.exit_code == 0 and [row["id"] for row in csv_rows(result.output)] == ids
    refused = runner.invoke(main, [*ask, "--for", "0"])
    assert refused.exit_code == 2
    assert "Invalid value for '--for': '0' is not a whole number from 1 to 1000000000" in refused.output
    # new user 24: --for alone, with nothing to hold for N plies, found every record
    said = "counts plies in a row that match a position, pattern or material: give one"
    alone = runner.invoke(main, ["query", "--db", archive.path, "--for", "5"])
    assert (alone.exit_code, alone.stdout) == (2, "") and alone.stderr.endswith(f"Error: --for {said}\n")
    with pytest.raises(FilterError, match=f"^the material_for filter {said}$"):
        archive.query(Filters(material_for=5))
    assert archive.query(Filters(material_for=1)) == archive.query()  # 1, the default: no run asked for


def test_the_for_option_of_two_plies_alone_is_refused_as_any_run_is(archive):
    """`query --for 2`, the shortest run of plies there is, with no position, pattern or material to
    hold for it, listed every record; `--for 1`, the default, asks for no run and is taken alone."""
    said = "counts plies in a row that match a position, pattern or material: give one"
    alone = CliRunner().invoke(main, ["query", "--db", archive.path, "--for", "2"])
    assert (alone.exit_code, alone.stdout) == (2, "") and alone.stderr.endswith(f"Error: --for {said}\n")
    with pytest.raises(FilterError, match=f"^the material_for filter {said}$"):
        archive.query(Filters(material_for=2))
    one = CliRunner().invoke(main, ["query", "--db", archive.path, "--for", "1", "--format", "csv"])
    assert one.exit_code == 0 and sorted(row["id"] for row in csv_rows(one.stdout)) == ["1", "2", "3", "4", "5", "6"]
    assert found(archive, material=["white=9", "king"], material_for=2) == [(1, 0), (2, 0), (3, 0)]  # with a material


@pytest.mark.parametrize(
    "option, name, said",
    [
        ("--symmetric", "symmetric", "matches positions and patterns in the board's symmetries: give one"),
        ("--include-unknown", "include_unknown", "lets records of unknown date through a date filter: give one"),
    ],
)
def test_a_filter_that_changes_how_another_works_is_refused_without_it(archive, tmp_path, option, name, said):
    """Newcomer-53b: `query --symmetric` with no position or pattern, `--include-unknown` with no date filter,
    found every record as if not given, where `--for 3` alone is refused; `tree`, which has its own position,
    takes `--symmetric` alone."""
    for command in (["query"], ["stats"], ["export", str(tmp_path / "out")]):
        refused = CliRunner().invoke(main, [*command, "--db", archive.path, option])
        assert (refused.exit_code, refused.stderr.splitlines()[-1]) == (2, f"Error: {option} {said}"), command
    with pytest.raises(FilterError, match=f"^the {name} filter {said}$"):
        archive.query(Filters(**{name: True}))
    assert CliRunner().invoke(main, ["tree", "--db", archive.path, "--symmetric"]).exit_code == 0
    if name == "symmetric":  # (a file's positions are as good as one position)
        started = archive.query(Filters(positions=[INITIAL_TABLUT]))
        assert started and archive.query(Filters(symmetric=True, positions=[INITIAL_TABLUT])) == started


def test_a_date_range_that_ends_before_it_starts_is_refused(archive, tmp_path):
    """New-user 68: `--date-from 2020 --date-to 2019` said `no records`, where every other filter that cannot
    match is refused; the bounds are compared as the filters read them (2020.06 to 2020: June to December)."""
    said = "'2020.06' is later than the date to, '2020.05': no day lies between them"
    for command in (["query"], ["stats"], ["export", str(tmp_path / "out")]):
        given = ["--db", archive.path, "--date-from", "2020.06", "--date-to", "2020.05"]
        refused = CliRunner().invoke(main, [*command, *given])
        assert (refused.exit_code, refused.stderr.splitlines()[-1]) == (2, f"Error: --date-from {said}"), command
    with pytest.raises(FilterError, match=f"^the date_from filter {said}$"):
        archive.query(Filters(date_from="2020.06", date_to="2020.05"))
    for date_from, date_to in (("2020.06", "2020"), ("2020", "2020.06"), ("2020-06-30", "2020.06"), ("2020", "2020")):
        archive.query(Filters(date_from=date_from, date_to=date_to))


def test_a_ply_range_that_ends_before_it_starts_is_refused(archive):
    """`--min-plies 50 --max-plies 10` said `no records` (h70b), where a date range so is refused; the same bounds
    are one range."""
    said = "50 is more than the plies at most, 10: no game has so many and so few"
    refused = CliRunner().invoke(main, ["query", "--db", archive.path, "--min-plies", "50", "--max-plies", "10"])
    assert (refused.exit_code, refused.stderr.splitlines()[-1]) == (2, f"Error: --min-plies {said}")
    with pytest.raises(FilterError, match=f"^the min_plies filter {said}$"):
        archive.query(Filters(min_plies=50, max_plies=10))
    assert archive.query(Filters(min_plies=0, max_plies=0)) == archive.query(Filters(max_plies=0))


def test_material_ranges_bound_each_record(samples):
    """The least and the most of each count over a record's positions, which rule records out."""
    (row,) = samples.sql("SELECT * FROM material_ranges WHERE record_id = 79")  # a Tablut game, king taken
    assert (row["white_min"], row["white_max"], row["king_min"], row["king_max"]) == (8, 9, 0, 1)
    assert row["black_min"] == row["black_max"] == 16 and row["white_off_min"] is None
    assert samples.sql("SELECT inciti_min, inciti_max FROM material_ranges WHERE record_id = 77") == [
        {"inciti_min": 0, "inciti_max": 1}
    ]
    assert found(samples, material=["white!=9"], game="tablut", valid=True) == [(80, 9), (79, 60)]  # the king
    assert found(samples, material=["black!=16"], game="tablut", valid=True, limit=1) == [(80, 8)]


def test_material_condition_sql_uses_parameters_only():
    sql, params, _, bounds = material_condition("white<=4, king, black_off>10, white=3")
    assert sql == "s.white <= ? AND s.king >= ? AND s.black_off > ? AND s.white = ?" and params == [4, 1, 10, 3]
    assert set(bounds) == {4, 1, 10, 3}
    with pytest.raises(ValueError, match="not a material condition"):
        material_condition("white<=4; DROP TABLE records")
    with pytest.raises(ValueError, match="COUNT from 0 to 256"):
        material_condition("white<=" + "9" * 5000)


ALLOWS = {
    "<=": lambda low, high, n: low <= n,
    "<": lambda low, high, n: low < n,
    ">=": lambda low, high, n: high >= n,
    ">": lambda low, high, n: high > n,
    "=": lambda low, high, n: low <= n <= high,
    "!=": lambda low, high, n: not low == high == n,
}


@pytest.mark.parametrize("operator", ALLOWS)
def test_material_ranges_let_through_exactly_the_records_whose_range_allows_a_match(samples, operator):
    """The cheap check before a material search: a record passes when some count between its least
    and its most satisfies the condition, at every boundary (none too many, none missed)."""
    conn = connect(samples.path)
    ranges = conn.execute(
        "SELECT record_id, white_min, white_max FROM material_ranges WHERE white_min IS NOT NULL"
    ).fetchall()
    for count in sorted({low for _, low, _ in ranges} | {high + 1 for _, _, high in ranges}):
        _, _, possible, bounds = material_condition(f"white {operator} {count}")
        passed = {
            record for (record,) in conn.execute(f"SELECT record_id FROM material_ranges WHERE {possible}", bounds)
        }
        assert passed == {record for record, low, high in ranges if ALLOWS[operator](low, high, count)}, count


# -- player names -------------------------------------------------------------------------------


def test_players_merge_list_and_query_by_any_name(tmp_path):
    archive = Archive(str(tmp_path / "players.db"))
    (tmp_path / "r.lgn").write_text(RECORDS)
    archive.import_paths([str(tmp_path / "r.lgn")])
    assert [row["id"] for row in archive.query(Filters(player="Karin Nilsson"))] == [2, 3]
    assert archive.merge_players(["Karin Nilsson", "KARIN NILSSON", "K. Nilsson"], "Karin Nilsson") == "Karin Nilsson"
    assert archive.aliases() == [{"alias": "K. Nilsson", "name": "Karin Nilsson"}]
    assert [row["id"] for row in archive.query(Filters(player="karin nilsson"))] == [1, 2, 3]
    assert [row["id"] for row in archive.query(Filters(white="K. NILSSON"))] == [1, 2]
    assert archive.query(Filters(text="K. Nilsson"))[0]["white"] == "K. Nilsson"  # kept as written
    assert archive.merge_players(["Karin N."], "K. Nilsson") == "Karin Nilsson"  # an alias leads to its name
    assert archive.aliases() == [
        {"alias": "K. Nilsson", "name": "Karin Nilsson"},
        {"alias": "Karin N.", "name": "Karin Nilsson"},
    ]
    table = {row["player"]: row for row in archive.players()}
    assert {k: table["Karin Nilsson"][k] for k in ("games", "won", "drawn", "lost", "unfinished", "score")} == {
        "games": 3,
        "won": 1,
        "drawn": 0,
        "lost": 1,
        "unfinished": 1,
        "score": 1.0,
    }
    assert table["Karin Nilsson"]["aliases"] == "K. Nilsson; Karin N."
    assert table["Olof Berg"]["won"] == 1 and table["Olof Berg"]["percent"] == 50.0
    assert list(table) == ["Karin Nilsson", "Olof Berg"] or table["Karin Nilsson"]["score"] == 1.0
    spring = {row["player"]: row["games"] for row in archive.players(Filters(event="Spring"))}
    assert spring == {"Karin Nilsson": 2, "Olof Berg": 2}
    archive.merge_players(["Karin Nilsson"], "Karin Berg")  # the player renamed: her aliases follow
    assert {row["alias"]: row["name"] for row in archive.aliases()} == {
        "K. Nilsson": "Karin Berg",
        "Karin N.": "Karin Berg",
        "Karin Nilsson": "Karin Berg",
    }


def test_a_merge_the_wrong_way_round_is_undone_by_merging_back(tmp_path):
    """`players merge "Karin Nilsson" "K. Nilsson"` typed the wrong way round (the canonical name
    last) is undone by the merge meant: the alias becomes the player, not an alias of itself."""
    archive = Archive(str(tmp_path / "players.db"))
    archive.import_paths([RECORDS])
    assert archive.merge_players(["Karin Nilsson"], "K. Nilsson") == "K. Nilsson"
    assert archive.merge_players(["k. nilsson"], "Karin Nilsson") == "Karin Nilsson"
    assert archive.aliases() == [{"alias": "k. nilsson", "name": "Karin Nilsson"}]
    assert archive.merge_players(["Karin N."], "k. nilsson") == "Karin Nilsson"  # an alias still leads to its name


def test_names_match_in_any_case_beyond_ascii(tmp_path):
    archive = Archive(str(tmp_path / "names.db"))
    record = '[Game "tablut"]\n[Event "{event}"]\n[White "{white}"]\n[Black "Olof Berg"]\n[Result "*"]\n\n1. e3-c3 *\n'
    archive.import_paths(
        [
            record.format(event="Öresund Cup", white="Jörgen Åström")
            + "\n"
            + record.format(event="ÖRESUND CUP", white="J. Astrom")
            + "\n"
            + record.format(event="Oresund Cup", white="Jorgen Astrom")
        ]
    )
    ids = lambda **filters: [row["id"] for row in archive.query(Filters(**filters))]
    assert ids(white="JÖRGEN ÅSTRÖM") == ids(player="jörgen åström") == [1]  # not the name without its letters
    assert ids(event="öresund cup") == [1, 2] and ids(event="oresund cup") == [3]
    assert ids(black="jörgen åström") == [] and ids(site="Ö") == []
    archive.merge_players(["J. Astrom"], "Jörgen Åström")
    assert ids(player="JÖRGEN ÅSTRÖM") == ids(white="jörgen åström") == [1, 2]  # its other names too
    assert ids(player="j. astrom") == [1, 2]  # an ASCII alias leads to the same player
    archive.merge_players(["Jörgen Åström"], "Jorgen Astrom")  # a name beyond ASCII as the alias
    assert ids(player="JÖRGEN ÅSTRÖM") == [1, 2, 3]  # the alias found in any case, then its player's names
    archive.import_paths([record.format(event="Straße", white="?") + "\n" + record.format(event="STRASSE", white="?")])
    assert ids(event="straße") == ids(event="STRAẞE") == [4, 5]  # case folding, not lower case
    assert ids(event="strasse") == [5]  # typed in ASCII: ASCII letters in any case, by the index


def test_a_name_written_with_combining_marks_is_the_name_typed(tmp_path):
    """A name written with combining marks (`o` then U+0308 for `ö`, as some Mac files write it: NFD) was not
    the name typed: `no record names the player 'Jörgen Åström' (did you mean Jörgen Åström?)`, and `players
    list` misaligned its columns. It is stored composed (NFC), and a name is compared so, an archive's older
    rows too."""
    archive = Archive(str(tmp_path / "names.db"))
    record = '[Game "tablut"]\n[Event "{event}"]\n[White "{white}"]\n[Black "Olof Berg"]\n\n1. e3-c3 *\n'
    decomposed = lambda text: unicodedata.normalize("NFD", text)
    archive.import_paths([record.format(event=decomposed("Öresund Cup"), white=decomposed("Jörgen Åström"))])
    ids = lambda **filters: [row["id"] for row in archive.query(Filters(**filters))]
    assert ids(player="Jörgen Åström") == ids(white="jörgen åström") == ids(event="ÖRESUND CUP") == [1]
    assert (
        ids(player=decomposed("JÖRGEN ÅSTRÖM")) == ids(event=decomposed("öresund cup")) == [1]
    )  # (as a file name gives it)
    assert [row["player"] for row in archive.players()] == ["Jörgen Åström", "Olof Berg"]  # composed
    assert archive.sql("SELECT white, event FROM records") == [{"white": "Jörgen Åström", "event": "Öresund Cup"}]
    assert archive.merge_players([decomposed("Jörgen Åström")], "Olof Berg") == "Olof Berg"
    assert archive.aliases() == [{"alias": "Jörgen Åström", "name": "Olof Berg"}]  # (its records' name)
    assert archive.players() == [] and archive.own_games() == 1  # (one player: the game is against themselves)
    archive.unmerge_players(["Jörgen Åström"])
    with sqlite3.connect(tmp_path / "names.db") as conn:  # an archive whose import stored the name as written
        conn.execute("UPDATE records SET white = ?", [decomposed("Jörgen Åström")])
    conn.close()
    assert ids(player="Jörgen Åström") == ids(white="JÖRGEN ÅSTRÖM") == [1]
    found = CliRunner().invoke(main, ["query", "--db", str(tmp_path / "names.db"), "--player", "jörgen åström"])
    assert (found.exit_code, found.stderr) == (0, "")


def test_a_tag_value_given_with_combining_marks_finds_the_value_typed(tmp_path):
    """`--tag` with a value pasted with combining marks (as a Mac's file name gives it) found nothing, though
    `--event` found the record: it finds a roster tag, stored composed, and another tag, stored as written
    (composed, or with combining marks), as typed."""
    decomposed = lambda text: unicodedata.normalize("NFD", text)
    record = '[Game "tablut"]\n[Event "{event}"]\n[Annotator "{annotator}"]\n\n1. {ply} *\n'
    archive = Archive(str(tmp_path / "tags.db"))
    archive.import_paths(
        [
            record.format(event="Öresund Cup", annotator="Jörgen", ply="e3-c3"),
            record.format(event=decomposed("Öresund Cup"), annotator=decomposed("Jörgen"), ply="e3-f3"),
        ]
    )
    ids = lambda name, value: [row["id"] for row in archive.query(Filters(tags=[(name, value)]))]
    assert ids("Event", decomposed("Öresund*")) == ids("Event", "Öresund Cup") == [1, 2]
    assert ids("Annotator", decomposed("Jörgen")) == ids("Annotator", "Jörg*") == [1, 2]
    assert ids("Annotator", "J?rgen") == [1]  # (a glob's `?` is one character: `o` and its mark are two)
    assert ids("Annotator", decomposed("jörgen")) == ids("Annotator", "JöRG*") == [1, 2]  # (in any case of ASCII)


def test_spellings_beyond_ascii_in_another_case_are_merged_into_one_player(tmp_path):
    archive = Archive(str(tmp_path / "names.db"))
    record = '[Game "tablut"]\n[White "{white}"]\n[Black "Olof Berg"]\n[Result "1-0"]\n\n1. e3-c3 1-0\n'
    archive.import_paths(["\n".join(record.format(white=white) for white in ("Jörgen Åström", "JÖRGEN ÅSTRÖM"))])
    games = lambda: {row["player"]: (row["games"], row["aliases"]) for row in archive.players()}
    assert games() == {"Jörgen Åström": (1, None), "JÖRGEN ÅSTRÖM": (1, None), "Olof Berg": (2, None)}
    assert archive.merge_players(["JÖRGEN ÅSTRÖM"], "Jörgen Åström") == "Jörgen Åström"
    assert games() == {"Jörgen Åström": (2, "JÖRGEN ÅSTRÖM"), "Olof Berg": (2, None)}
    assert [row["id"] for row in archive.query(Filters(player="Jörgen Åström"))] == [1, 2]


def test_players_commands(archive, tmp_path):
    runner = CliRunner()
    path = str(tmp_path / "p.db")
    (tmp_path / "r.lgn").write_text(RECORDS)
    runner.invoke(main, ["import", "--db", path, str(tmp_path / "r.lgn")])
    merged = runner.invoke(main, ["players", "merge", "K. Nilsson", "Karin Nilsson", "--db", path])
    # (both in a record: no note)
    assert merged.exit_code == 0 and merged.output == "K. Nilsson → Karin Nilsson, the name kept\n"
    listed = runner.invoke(main, ["players", "list", "--db", path, "--format", "csv"])
    rows = list(csv.DictReader(listed.output.splitlines()))
    assert [(r["player"], r["games"], r["score"]) for r in rows] == [
        ("Karin Nilsson", "3", "1.0"),
        ("Olof Berg", "3", "1.0"),
    ]
    assert runner.invoke(main, ["players", "merge", "alone", "--db", path]).exit_code == 2
    # `players` runs `players list` when no command is named, as `git stash` runs `git stash push`
    by_default = runner.invoke(main, ["players", "--db", path, "--format", "csv"])
    assert by_default.exit_code == 0 and by_default.output == listed.output
    alone = runner.invoke(main, ["players"], env={"LUSORIA_DB": path})
    assert alone.exit_code == 0 and alone.output.startswith("player ") and "Karin Nilsson" in alone.output
    assert "Commands:" in runner.invoke(main, ["players", "--help"]).output
    assert "No such command 'lst'" in runner.invoke(main, ["players", "lst", "--db", path]).output
    # options before the command they are meant for (found by review: `merge` ran `list`, "unexpected extra arguments")
    before = runner.invoke(main, ["players", "--db", path, "merge", "Olof Berg", "O. Berg"])
    assert before.exit_code == 0 and before.stdout == "Olof Berg → O. Berg, the name kept\n"
    assert before.stderr == "lusoria: note: no record names O. Berg yet\n"  # merged all the same
    assert runner.invoke(main, ["players", "--db", path, "--player", "merge"]).stdout == "no records\n"  # a value


@pytest.mark.parametrize(
    "typed",
    [["K. Nilsson", "K Nilsson", "--into", "Karin Nilsson"], ["--into", "Karin Nilsson", "K. Nilsson", "K Nilsson"]],
)
def test_players_merge_into_names_the_name_kept_where_a_user_types_it(typed, tmp_path):
    """`players merge NAME... CANONICAL` takes the name kept last, which a user may type first
    (`merge 'Karin Nilsson' 'K. Nilsson'`, as `git merge` reads): `--into CANONICAL` says which, in any
    place; every name given then is another name. The output says which name is kept."""
    path = str(tmp_path / "p.db")
    (tmp_path / "r.lgn").write_text(RECORDS)
    CliRunner().invoke(main, ["import", "--db", path, str(tmp_path / "r.lgn")])
    merged = CliRunner().invoke(main, ["players", "merge", "--db", path, *typed])
    assert merged.exit_code == 0 and merged.stdout == "K. Nilsson, K Nilsson → Karin Nilsson, the name kept\n"
    assert merged.stderr == "lusoria: note: no record names K Nilsson yet\n"
    assert Archive(path).aliases() == [
        {"alias": "K Nilsson", "name": "Karin Nilsson"},
        {"alias": "K. Nilsson", "name": "Karin Nilsson"},
    ]


@pytest.mark.parametrize(
    "typed",
    [
        ["K. Nilsson", "Karin Nilsson", "--into", "Karin Nilsson"],
        ["K. Nilsson", "K. Nilsson", "Karin Nilsson"],
        ["K. Nilsson", "Karin Nilsson", "K. Nilsson", "--into", "Karin Nilsson"],
    ],
)
def test_players_merge_names_once_each_name_made_another_and_not_the_name_kept(typed, tmp_path):
    """`--into` naming one of the NAMEs, or a name typed twice: the line names each other name once, and
    not the name kept (it said 'K. Nilsson, Karin Nilsson → Karin Nilsson'), as the library merges them."""
    path = str(tmp_path / "p.db")
    (tmp_path / "r.lgn").write_text(RECORDS)
    CliRunner().invoke(main, ["import", "--db", path, str(tmp_path / "r.lgn")])
    merged = CliRunner().invoke(main, ["players", "merge", "--db", path, *typed])
    assert (merged.exit_code, merged.output) == (0, "K. Nilsson → Karin Nilsson, the name kept\n")
    assert Archive(path).aliases() == [{"alias": "K. Nilsson", "name": "Karin Nilsson"}]


def test_players_merge_of_the_name_kept_alone_is_refused(tmp_path):
    """`merge 'Karin Nilsson' --into 'Karin Nilsson'` merges nothing: refused, saying why (it said 'Karin
    Nilsson → Karin Nilsson, the name kept'), the archive unchanged."""
    path = str(tmp_path / "p.db")
    (tmp_path / "r.lgn").write_text(RECORDS)
    CliRunner().invoke(main, ["import", "--db", path, str(tmp_path / "r.lgn")])
    merged = CliRunner().invoke(main, ["players", "merge", "--db", path, "Karin Nilsson", "--into", "Karin Nilsson"])
    assert merged.exit_code == 2 and merged.stdout == ""
    said = "Error: 'Karin Nilsson' is the canonical name itself: give another name to merge into it\n"
    assert merged.stderr.endswith(said)  # (it said "give at least one NAME", of two given: newcomer-52)
    assert Archive(path).aliases() == []


def test_players_merge_of_the_name_kept_in_another_case_is_refused(tmp_path):
    """`merge 'karin nilsson' --into 'Karin Nilsson'` said a merge and stored none, and unmerge then denied it (h78b):
    names that differ in the case of their ASCII letters are one player already (SQLite's NOCASE)."""
    path = str(tmp_path / "p.db")
    (tmp_path / "r.lgn").write_text(RECORDS)
    CliRunner().invoke(main, ["import", "--db", path, str(tmp_path / "r.lgn")])
    merged = CliRunner().invoke(main, ["players", "merge", "--db", path, "karin NILSSON", "--into", "Karin Nilsson"])
    assert merged.exit_code == 2 and merged.stdout == "" and Archive(path).aliases() == []
    assert merged.stderr.endswith(
        "Error: 'karin NILSSON' is 'Karin Nilsson', the canonical name, in another case of its ASCII letters (one "
        "player's): give another name to merge into it\n"
    )
    both = CliRunner().invoke(
        main, ["players", "merge", "--db", path, "karin NILSSON", "K. N.", "--into", "Karin Nilsson"]
    )
    assert (both.exit_code, both.stdout) == (0, "K. N. → Karin Nilsson, the name kept\n")


def test_a_player_is_spelled_alike_with_and_without_a_filter(tmp_path):
    """A name written in two cases is shown in one, the same whatever records a filter selects."""
    record = '[Game "{game}"]\n[White "{white}"]\n[Black "Olof Berg"]\n[Result "*"]\n\n*\n'
    archive = Archive(str(tmp_path / "p.db"))
    archive.import_paths(
        ["\n".join([record.format(game="tablut", white="Crust"), record.format(game="brandubh", white="crust")])]
    )
    assert {row["player"] for row in archive.players()} == {"Crust", "Olof Berg"}
    assert {row["player"] for row in archive.players(Filters(game="brandubh"))} == {"Crust", "Olof Berg"}


def test_stats_and_the_score_table_agree_on_who_a_player_is(symmetric, tmp_path):
    """Names in any case of their ASCII letters, and a player's other names, are one player in both."""
    stats = {row["value"]: row["records"] for row in symmetric.stats()["players"]}
    table = {row["player"]: row["games"] for row in symmetric.players()}
    assert stats == table == {"Ded Fomich": 2}
    archive = Archive(archive_copy(symmetric.path, tmp_path))
    archive.merge_players(["Ded Fomich"], "Deda Fomicha")
    assert (
        {row["value"]: row["records"] for row in archive.stats()["players"]}
        == {"Deda Fomicha": 2}
        == {row["player"]: row["games"] for row in archive.players()}
    )


# -- dates -------------------------------------------------------------------------------------


def test_records_of_unknown_date_on_request(archive):
    assert [i for i, _ in found(archive, date_from="2020", date_to="2021")] == [1, 2]
    assert [i for i, _ in found(archive, date_from="2020", date_to="2021", include_unknown=True)] == [1, 2, 3, 5, 6]
    assert [i for i, _ in found(archive, date_to="2020.12", include_unknown=True, game="tablut")] == [1, 3]


# -- saved searches --------------------------------------------------------------------------


def test_positions_file_any_position_or_pattern(archive, tmp_path):
    positions = tmp_path / "positions.txt"
    positions.write_text(f"# a comment\n{pattern(('c7', '?'))}\n\n5:2,11:1,* *\n")
    result = CliRunner().invoke(main, ["query", "--db", archive.path, "--positions", str(positions), "--format", "csv"])
    assert [(row["id"], row["ply"]) for row in csv.DictReader(result.output.splitlines())] == [
        ("2", "5"),
        ("4", "1"),
        ("5", "1"),
        ("6", "1"),
    ]
    exact = archive.query(Filters(positions=[INITIAL_LAQUET]))
    assert [row["id"] for row in exact] == [4, 5, 6]
    (tmp_path / "empty.txt").write_text("# nothing\n\n")
    empty = CliRunner().invoke(main, ["query", "--db", archive.path, "--positions", str(tmp_path / "empty.txt")])
    assert empty.exit_code == 2 and "holds no position or pattern" in empty.output
    positions.write_text(positions.read_text() + "# the last\n9/9 w\n")  # (h80a: a bad line said without its place)
    bad = CliRunner().invoke(main, ["query", "--db", archive.path, "--positions", str(positions)])
    assert (
        bad.exit_code == 2 and f"Invalid value for --positions: {positions}:6: '9/9 w' is not a pattern" in bad.output
    )


def test_a_positions_file_of_a_thousand_patterns_finds_what_its_one_matching_pattern_finds(archive, tmp_path):
    """A file of over a thousand patterns was refused in SQLite's words, "Expression tree is too large (maximum depth
    1000)": the check of the squares each record held ORed one condition a pattern in a chain (review80)."""
    squares = [f"{file}{rank}" for file in "abcdefghi" for rank in range(1, 10) if f"{file}{rank}" != "e5"]
    many = [pattern((first, "K"), (second, "K")) for first in squares for second in squares if first < second][:1200]
    positions = tmp_path / "many.txt"
    positions.write_text("\n".join([*many, pattern(("c3", "P"))]) + "\n")
    result = CliRunner().invoke(main, ["query", "--db", archive.path, "--positions", str(positions), "--format", "csv"])
    assert result.exit_code == 0, result.output
    assert [(row["id"], row["ply"]) for row in csv.DictReader(result.output.splitlines())] == [
        ("1", "1"),
        ("2", "3"),
        ("3", "1"),
    ]


def test_a_positions_file_is_read_once_for_its_lines_places_and_its_search(archive, tmp_path, monkeypatch):
    """Its lines were read once to name a bad line's place, and again by the search (review80: 400 patterns took
    twice the time)."""
    from lusoria.archive import search

    read = []
    search._lines_read.cache_clear()  # (kept from another test's search of these lines)
    monkeypatch.setattr(search, "pattern_globs", lambda *args: read.append(args[0]) or pattern_globs(*args))
    lines = [pattern(("c3", "P")), pattern(("d3", "P")), pattern(("e3", "P"))]
    (tmp_path / "three.txt").write_text("\n".join(lines) + "\n")
    result = CliRunner().invoke(main, ["query", "--db", archive.path, "--positions", str(tmp_path / "three.txt")])
    assert result.exit_code == 0 and read == lines


def test_positions_file_of_position_strings_finds_the_records_that_reach_any_of_them(archive):
    """h79b: a file of several position strings (not patterns) finds the records that reach one of them, each at
    its first such ply (the suite read files of one position string, or of patterns: a search of the first line
    alone passed it)."""
    after_c5c3 = "3ppp3/4p4/4P4/p3P3p/pp1PKPPpp/p3P3p/2P1P4/4p4/3ppp3 b"
    after_d5d3 = "3ppp3/4p4/4P4/p3P3p/ppP1KPPpp/p3P3p/3PP4/4p4/3ppp3 b"
    assert [(row["id"], row["ply"]) for row in archive.query(Filters(positions=[after_c5c3]))] == [(1, 1), (3, 1)]
    both = archive.query(Filters(positions=[after_c5c3, "", after_d5d3]))
    assert [(row["id"], row["ply"]) for row in both] == [(1, 1), (2, 1), (3, 1)]
    assert [(row["id"], row["ply"]) for row in archive.query(Filters(positions=[after_d5d3, after_c5c3]))] == [
        (1, 1),
        (2, 1),
        (3, 1),
    ]


def test_records_file_finds_the_same_games_and_their_continuations(archive, tmp_path):
    partial = '[Game "tablut"]\n\n1. c5-c3 i6-f6 *\n'
    assert [i for i, _ in found(archive, records=[partial])] == [1, 3]  # record 3 is the same; 1 continues it
    transposed = '[Game "tablut"]\n\n1. c5-c3 i6-f6 2. d5-d3 i4-h4 *\n'
    assert [i for i, _ in found(archive, records=[transposed])] == [1]  # record 2 got there in another order
    other = '[Game "tablut"]\n\n1. c5-c3 i4-h4 *\n'
    assert found(archive, records=[other]) == []
    file = tmp_path / "games.lgn"
    file.write_text(partial + "\n" + '[Game "laquet"]\n\n1. 42: 5/9/11 *\n')
    result = CliRunner().invoke(main, ["query", "--db", archive.path, "--records", str(file), "--format", "json"])
    # record 4 reached the same position with another roll: games are compared position by position
    assert [row["id"] for row in json.loads(result.output)] == [1, 4, 3, 5, 6]
    # new user 24: the library took a path as a record's text ('not a game record … no tag and no movetext')
    assert [row["id"] for row in archive.query(Filters(records=[str(file)]))] == [1, 4, 3, 5, 6]
    assert [row["id"] for row in archive.query(Filters(records=[file]))] == [1, 4, 3, 5, 6]
    with pytest.raises(InputError, match=f"^{tmp_path}/none.lgn: no such file or directory$"):
        archive.query(Filters(records=[str(tmp_path / "none.lgn")]))
    with pytest.raises(
        UnsearchableRecord, match=r"^<text>:1: record 0 of text 2 given is not valid \(error\[tag\]: unknown game"
    ):  # (no records file: the first record of the second text)
        archive.query(Filters(records=[partial, '[Game "chess"]\n\n1. e4 *\n']))
    with pytest.raises(
        UnsearchableRecord,
        match=r"\(error\[syntax\]: found '31', .*\*\); read as 31:, it breaks Q3 there \(6/12 moves 6 points.*; did you mean 31:\?\); a search",
    ):
        archive.query(Filters(records=['[Game "laquet"]\n\n1. 46: 5/11 4/8 31 6/12 6/7 *\n']))  # what validate says
    with pytest.raises(ValueError, match="the records file holds no record"):
        continuations([])


def test_records_given_in_several_files_or_texts_are_numbered_in_each(archive, tmp_path):
    """`Filters(records=[a, b])`: an invalid record is said as the record of its own file or text it
    is, as the CLI says it of its one file (a text of two records was one record, found '[' after its
    result marker, and the texts' records were numbered across all those given)."""
    two = '[Game "tablut"]\n\n1. c5-c3 i6-f6 *\n\n[Game "tablut"]\n\n1. c5-c3 *\n'
    illegal = '[Game "tablut"]\n\n1. c5-c3 i6-f6 *\n\n[Game "tablut"]\n\n1. e2-g2 e4-d4 *\n'
    (tmp_path / "a.lgn").write_text(two)
    (tmp_path / "b.lgn").write_text(illegal)
    with pytest.raises(
        UnsearchableRecord,
        match=rf"^{tmp_path}/b.lgn:5: record 1 of the records file is not valid \(error\[T1\]: move 1, White: ",
    ):
        archive.query(Filters(records=[tmp_path / "a.lgn", str(tmp_path / "b.lgn")]))
    with pytest.raises(
        UnsearchableRecord, match=r"^<text>:5: record 1 of text 2 given is not valid \(error\[T1\]: move 1, White: "
    ) as raised:
        archive.query(Filters(records=[two, illegal]))
    assert raised.value.index == 3  # the fourth record of all given
    first, second = two.split("\n\n[")
    assert found(archive, records=[two]) == found(archive, records=[first, "[" + second]) != []  # its two records


def test_a_records_file_with_an_illegal_record_says_it_and_searches_the_others(archive, tmp_path):
    """A search for a record that breaks a rule would search for another game (the plies before
    the illegal one): the command says what it breaks, as validate does, and exits as it does; the file's
    other records are searched all the same (h78b: one slip among 385 records, and none was searched).
    `remove` removes the games of every record of the file, or none."""
    valid, illegal = '[Game "tablut"]\n\n1. c5-c3 i6-f6 *\n', '[Game "tablut"]\n\n1. e2-g2 e4-d4 *\n'
    file = tmp_path / "illegal.lgn"
    file.write_text(valid + "\n" + illegal)
    result = CliRunner().invoke(main, ["query", "--db", archive.path, "--records", str(file), "--format", "json"])
    assert (
        result.exit_code == 1
        and [row["id"] for row in json.loads(result.stdout)] == [id for id, _ in found(archive, records=[valid])] != []
    )
    assert result.stderr.startswith(
        f"{file}:7:4: error[T1]: move 1, White: the piece on e2 is Black's"
    )  # White moves first
    said = (
        f"lusoria: {file}:5: record 1 of the records file is not valid (error[T1]: move 1, White: the piece on e2 is "
        "Black's, and White is to move; if Black moved first, its Rules tag says so: first=black; the rest of this "
        "line is not checked; did you mean e3-g3?); a search "
        "finds the games of a valid record"
    )
    assert result.stderr.endswith(said + ": it is left out\n")
    validated = CliRunner().invoke(main, ["validate", str(file)])
    assert validated.exit_code == result.exit_code and validated.stdout.split("\n")[0] in result.stderr
    counted = CliRunner().invoke(main, ["stats", "--db", archive.path, "--records", str(file), "--json"])
    assert counted.exit_code == 1 and json.loads(counted.stdout)["records"] == len(found(archive, records=[valid]))
    held = archive.sql("SELECT count(*) AS n FROM records")
    removed = CliRunner().invoke(main, ["remove", "--db", archive.path, "--records", str(file)])
    assert removed.exit_code == 1 and removed.stdout == "" and removed.stderr.endswith(said + "\n")
    assert archive.sql("SELECT count(*) AS n FROM records") == held
    missing = CliRunner().invoke(main, ["query", "--db", str(tmp_path / "none.db"), "--records", str(file)])
    assert missing.exit_code == 2 and missing.stderr.endswith("none.db does not exist; create it with lusoria import\n")
    file.write_text(illegal)
    alone = CliRunner().invoke(main, ["query", "--db", archive.path, "--records", str(file)])
    assert alone.exit_code == 1 and alone.stdout == ""
    assert alone.stderr.endswith(
        ": it is left out\nlusoria: no record of the records file is valid: nothing is searched\n"
    )


def test_a_records_file_that_cannot_be_read_is_said_in_one_line(archive, tmp_path):
    latin = tmp_path / "latin.lgn"
    latin.write_bytes('[Game "tablut"]\n[White "Jörgen"]\n\n1. c5-c3 *\n'.encode("latin-1"))
    missing = tmp_path / "missing.lgn"
    result = CliRunner().invoke(main, ["query", "--db", archive.path, "--records", str(missing)])
    assert result.exit_code == 2 and result.output == f"lusoria: {missing}: no such file or directory\n"
    # a byte that does not decode is its record's error (it stopped the file): no search for it
    result = CliRunner().invoke(main, ["query", "--db", archive.path, "--records", str(latin)])
    said = "byte 0xF6 is not valid utf-8: the file's one game is not read"  # query has no --encoding
    assert result.stderr.startswith(f"{latin}:2:10: error[syntax]: {said}\n")  # (its line said `try --encoding`)
    assert "--encoding" not in result.stderr
    assert result.exit_code == 1 and result.output.endswith(
        f"lusoria: {latin}:1: record 0 of the records file is not valid (error[syntax]: {said}); "
        "a search finds the games of a valid record: it is left out\n"
        "lusoria: no record of the records file is valid: nothing is searched\n"
    )


# -- export ------------------------------------------------------------------------------------


def test_export_csv(archive, tmp_path):
    result = CliRunner().invoke(main, ["export", "--db", archive.path, "--format", "csv", str(tmp_path / "out")])
    assert result.exit_code == 0 and f"{tmp_path / 'out' / 'plies'}.csv: 20 rows" in result.output
    with open(tmp_path / "out" / "plies.csv", newline="") as handle:
        plies = list(csv.DictReader(handle))
    assert len(plies) == 20 and plies[0]["move"] == "c5-c3" and plies[0]["position"] == INITIAL_TABLUT
    assert (plies[0]["ply"], plies[1]["ply"], plies[1]["position"]) == (
        "0",
        "1",
        "3ppp3/4p4/4P4/p3P3p/pp1PKPPpp/p3P3p/2P1P4/4p4/3ppp3 b",
    )
    assert (
        plies[1]["board"]
        == "...ppp.../....p..../....P..../p...P...p/pp.PKPPpp/p...P...p/..P.P..../....p..../...ppp... b"
    )
    assert (plies[0]["white"], plies[0]["black"], plies[0]["king"], plies[0]["white_off"]) == ("9", "16", "1", "")
    with open(tmp_path / "out" / "records.csv", newline="") as handle:
        assert [row["white"] for row in csv.DictReader(handle)][:2] == ["K. Nilsson", "Karin Nilsson"]


def test_export_jsonl_writes_a_record_a_line_with_its_tags_diagnostics_and_moves(samples, tmp_path):
    """Each line: the record's columns as `query --format json` gives them, how its game ended, every
    tag, its diagnostics in order and its main line replayed (up to its first error)."""
    assert samples.export(str(tmp_path / "out"), "jsonl", jobs=2) == {"records": 81}
    lines = (tmp_path / "out" / "records.jsonl").read_text(encoding="utf-8").splitlines()
    records = {record["id"]: record for record in map(json.loads, lines)}
    assert list(records) == sorted(records) and len(records) == 81
    for row in samples.query(Filters()):
        assert {name: records[row["id"]][name] for name in COLUMNS} == {name: row[name] for name in COLUMNS}
    escape = samples.query(Filters(white="Karin Nilsson", ending="king escaped"))[0]
    assert records[escape["id"]] == {
        **{name: escape[name] for name in COLUMNS},
        "ending": "king escaped",
        "board": "9x9",
        "named_variant": "seed",
        "tags": {
            "Annotator": "lusoria samples",
            "Black": "Olof Berg",
            "Date": "2026.11.21",
            "Event": "Club evening",
            "Game": "tablut",
            "Result": "1-0",
            "Round": "1",
            "Site": "Uppsala",
            "White": "Karin Nilsson",
        },
        "diagnostics": [],
        "moves": ["c5-c3", "i6-f6", "d5-d3", "i4-h4", "c3-c7", "a6-a9", "Ke5-c5+", "b5-b9", "Kc5-c1++"],
    }
    late = next(record for record in records.values() if record["first_rule"] == "T10")  # a ply after the end
    assert late["diagnostics"] == [
        {
            "severity": "error",
            "rule": "T10",
            "message": "the game is already over (the king reached the edge, T6); no ply may follow",
            "ply": 10,
            "text": "a9-a8",
            "line": 83,
            "column": 72,
        }
    ]
    assert (late["plies"], late["moves"][-1], len(late["moves"])) == (10, "Kc5-c1", 9)
    assert all(len(record["moves"]) == record["plies"] for record in records.values() if record["valid"])


def test_export_jsonl_with_filters_and_from_the_command_line(samples, tmp_path):
    out = tmp_path / "karin"
    shown = CliRunner().invoke(
        main, ["export", "--db", samples.path, "--format", "jsonl", "--player", "Karin Nilsson", "--valid", str(out)]
    )
    assert (shown.exit_code, shown.output) == (0, f"{out / 'records.jsonl'}: 3 rows\n")
    written = [json.loads(line) for line in (out / "records.jsonl").read_text(encoding="utf-8").splitlines()]
    assert [record["id"] for record in written] == sorted(
        row["id"] for row in samples.query(Filters(player="Karin Nilsson", valid=True))
    )
    assert os.listdir(out) == ["records.jsonl"]


def test_export_keeps_everything_and_duckdb_finds_the_same_answers(samples, tmp_path):
    """From the files alone: the move tree (with transpositions: plies are grouped by the position
    string they were played from), position, pattern and material search, aliases and endings."""
    pytest.importorskip("pyarrow")
    duckdb = pytest.importorskip("duckdb")
    archive = Archive(archive_copy(samples.path, tmp_path))
    archive.merge_players(["K. Nilsson"], "Karin Nilsson")
    counts = archive.export(str(tmp_path / "pq"), jobs=2)
    assert counts["records"] == 81 and counts["player_aliases"] == 1 and counts["variation_plies"] == 2
    files = {name: f"'{tmp_path}/pq/{name}.parquet'" for name in counts}
    tree = duckdb.sql(
        f"""
        SELECT list(DISTINCT p.move), count(DISTINCT r.id) AS games, count(DISTINCT r.id) FILTER (r.result = '1-0'),
               count(DISTINCT r.id) FILTER (r.result = '0-1')
        FROM {files["plies"]} p JOIN {files["records"]} r ON r.id = p.record_id
        WHERE p.position = ? AND p.next IS NOT NULL GROUP BY p.next ORDER BY games DESC""",
        params=[INITIAL_TABLUT],
    ).fetchall()
    nodes = archive.tree(INITIAL_TABLUT)
    assert sorted(found[1:] for found in tree) == sorted((node.games, node.white, node.black) for node in nodes)
    assert {node.ply for node in nodes} <= {move for moves, *_ in tree for move in moves}
    assert ["c5-c3", "c5-c3+"] in [sorted(moves) for moves, *_ in tree]  # one ply, announced in one rule set
    escape = "p2ppp3/4p4/2P1P4/4Pp3/ppK2PPpp/p3P2p1/3PP4/4p4/3ppp3 b"
    reached = duckdb.sql(
        f"SELECT record_id, min(ply) FROM {files['plies']} WHERE position = ? GROUP BY 1 ORDER BY 1", params=[escape]
    ).fetchall()
    assert reached == sorted((row["id"], row["ply"]) for row in archive.query(Filters(position=escape)))
    pattern = "*********/*********/*********/*********/****K****/*********/*********/*********/********* b"
    matched = duckdb.sql(
        f"SELECT DISTINCT record_id FROM {files['plies']} WHERE regexp_full_match(board, ?) ORDER BY 1",
        params=[glob_regex(pattern_globs(pattern)[0][1])],
    ).fetchall()
    assert matched == sorted((row["id"],) for row in archive.query(Filters(pattern=pattern)))
    kings = duckdb.sql(
        f"SELECT DISTINCT p.record_id FROM {files['plies']} p JOIN {files['records']} r "
        "ON r.id = p.record_id WHERE p.king = 0 AND r.game = 'tablut' ORDER BY 1"
    ).fetchall()
    assert kings == sorted((row["id"],) for row in archive.query(Filters(material=["king=0"], game="tablut")))
    assert duckdb.sql(f"SELECT alias, name FROM {files['player_aliases']}").fetchall() == [
        ("K. Nilsson", "Karin Nilsson")
    ]
    endings = duckdb.sql(f"SELECT ending, count(*) FROM {files['records']} GROUP BY 1 ORDER BY 2 DESC, 1").fetchall()
    assert endings == [(row["value"], row["records"]) for row in archive.stats()["endings"]]
    variations = duckdb.sql(f"SELECT position, next, move FROM {files['variation_plies']} ORDER BY ply").fetchall()
    assert [move for _, _, move in variations] == ["d1-c1", "c7-c8"] and variations[0][1] == variations[1][0]


def test_export_needs_a_known_format(archive, tmp_path):
    with pytest.raises(ValueError, match="parquet, csv or jsonl, not 'xlsx'"):
        archive.export(str(tmp_path / "x"), "xlsx")
    refused = CliRunner().invoke(main, ["export", str(tmp_path / "x"), "--db", archive.path, "--format", "json"])
    assert (refused.exit_code, refused.stderr.splitlines()[-1]) == (  # as query --format json is written
        2,
        "Error: Invalid value for '--format': 'json' is not one of 'parquet', 'csv', 'jsonl': JSON is written as JSON "
        "lines, one file of a record a line: --format jsonl",
    )
    assert not (tmp_path / "x").exists()


SAAMI_W = (  # aagenielsen.dk's "Saami Tablut-w" (the Swedes first) as the aage reader archives it, and aage
    '[Game "tablut"]\n[Variant "aage"]\n[Rules "first=white"]\n[Result "1-0"]\n\n1. e3-c3 d1-d3 2. e4-e3 1-0\n\n'
    '[Game "tablut"]\n[Variant "aage"]\n[Result "0-1"]\n\n1... d1-d3 0-1\n'
)


@pytest.mark.parametrize("format", ["csv", "jsonl"])
def test_export_names_each_records_variant_as_stats_does(tmp_path, format):
    """A Saami Tablut-w record is `aage` with `{"Rules": "first=white"}` in `variant` and
    `rule_tags`, as the archive keeps it, and `saami-tablut-w` in `named_variant`, as `stats --by
    variant` counts it: grouping by it does not merge it with aage's."""
    archive = Archive(str(tmp_path / "saami.db"))
    archive.import_paths([SAAMI_W])
    archive.export(str(tmp_path / "out"), format)
    if format == "csv":
        with open(tmp_path / "out" / "records.csv", newline="") as handle:
            rows = list(csv.DictReader(handle))
    else:
        rows = [json.loads(line) for line in (tmp_path / "out" / "records.jsonl").read_text().splitlines()]
    assert [(row["variant"], row["named_variant"]) for row in rows] == [("aage", "saami-tablut-w"), ("aage", "aage")]
    by_variant = archive.stats(by="variant")["results_by"]["rows"]
    assert sorted(row["value"] for row in by_variant) == sorted(f"{row['game']}/{row['named_variant']}" for row in rows)


# Brandubh games whose king the attackers take on each edge (the first is docs/archive.md's, the
# others it turned a quarter, a half and three quarters), and one whose capture only its tag tells
KING_ON_EDGES = "\n".join(
    f'[Game "brandubh"]\n[Result "0-1"]\n{tags}\n{plies} 0-1\n'
    for tags, plies in (
        ("", "1. b4-b6 d5-e5 2. g4-g5 Kd4-d5 3. g5-g6 Kd5-c5 4. a4-a5 Kc5-c6 5. a5-a4 Kc6-c7 6. b6-b7xc7"),
        ("", "1. d2-f2 e4-e5 2. d7-e7 Kd4-e4 3. e7-f7 Ke4-e3 4. d1-e1 Ke3-f3 5. e1-d1 Kf3-g3 6. f2-g2xg3"),
        ("", "1. f4-f2 d3-c3 2. a4-a3 Kd4-d3 3. a3-a2 Kd3-e3 4. g4-g3 Ke3-e2 5. g3-g4 Ke2-e1 6. f2-f1xe1"),
        ("", "1. d6-b6 c4-c3 2. d1-c1 Kd4-c4 3. c1-b1 Kc4-c5 4. d7-c7 Kc5-b5 5. c7-d7 Kb5-a5 6. b6-a6xa5"),
        ('[Termination "king captured"]\n', "1. b4-b6 d5-e5 2. g4-g5 Kd4-d5"),
    )
)


def test_the_recipe_for_where_the_king_was_captured_finds_the_square_and_the_edge(tmp_path):
    """docs/archive.md's `lusoria sql` (How games end) on 7×7 and 9×9 boards: the king's square
    before the capture, on every edge or not; a record whose Termination tag alone says the king was
    captured is left out (the recipe gave the king's square before its last ply, d4, as his capture's)."""
    recipe = re.search(
        r'^\$ lusoria sql --db edge\.db "(WITH last .*)"$', (ROOT / "docs/archive.md").read_text(), re.M
    )[1]
    archive = Archive(str(tmp_path / "edge.db"))
    archive.import_paths([KING_ON_EDGES, str(ROOT / "samples/tablut")])
    found = [(row["game"], row["square"], row["edge"]) for row in archive.iter_sql(recipe)]
    assert found == [
        ("brandubh", "c7", 1),
        ("brandubh", "g3", 1),
        ("brandubh", "e1", 1),
        ("brandubh", "a5", 1),
        ("tablut", "e6", 0),
        ("tablut", "e3", 0),
    ]


def test_a_count_of_the_records_selected_builds_only_the_columns_it_needs(tmp_path):
    """`most_selected` and the ids that stats, the tree, players and export select read neither the
    records' texts nor the ply a search within plies found: the same records, none of that SQL."""
    from lusoria.archive.query import build
    from lusoria.archive.stored import STORED_TEXT

    path = str(tmp_path / "a.db")
    Archive(path).import_paths([str(ROOT / "samples/tablut")])
    filters = Filters(game="tablut", material=["black<=15"], material_for=2)
    full, full_params = build(filters, ordered=False)
    counted, params = build(filters, ordered=False, columns="records.id")
    with connect(path) as conn:
        wanted = sorted(row[0] for row in conn.execute(full, full_params))
        assert sorted(row[0] for row in conn.execute(counted, params)) == wanted != []
        assert [description[0] for description in conn.execute(counted, params).description] == ["id"]
    assert STORED_TEXT in full and STORED_TEXT not in counted
    assert " AS ply" in full and " AS ply" not in counted
    assert (params, full_params) == (["tablut", 15, 15, 2], [15, 2, "tablut", 15, 15, 2])  # (the ply's: bound, run)


def test_query_s_table_shows_paths_under_the_current_folder_relative_and_the_first_error_s_message(
    tmp_path, monkeypatch
):
    """Files imported by their absolute paths: the table names those under the current folder relative
    to it (others as stored); `--invalid` adds the first error's message, cut to MESSAGE_WIDTH columns
    (it showed the rule alone). JSON keeps the path as stored, and the message whole."""
    path = str(tmp_path / "a.db")
    laquet, escape = ROOT / "samples/errors/laquet-moves.lgn", ROOT / "samples/tablut/escape.lgn"
    Archive(path).import_paths([str(laquet), str(escape)])
    monkeypatch.chdir(ROOT / "samples")
    invalid = CliRunner().invoke(main, ["query", "--db", path, "--invalid", "--limit", "1"])
    assert invalid.stdout == (
        "  id  game    variant    date    white    black    result      plies    valid  first_rule    first_message"
        "                                                 path                       line\n"
        "----  ------  ---------  ------  -------  -------  --------  -------  -------  ------------  "
        "------------------------------------------------------------  -----------------------  ------\n"
        "   1  laquet  seed                                 *               1        0  Q3            5/9 moves 4 "
        "points, and the dice left are 6 and 3; the rest…  errors/laquet-moves.lgn       3\n"
    )
    [row] = json.loads(
        CliRunner().invoke(main, ["query", "--db", path, "--invalid", "--limit", "1", "--format", "json"]).stdout
    )
    assert (row["path"], row["first_message"]) == (
        str(laquet),
        "5/9 moves 4 points, and the dice left are 6 and 3; the rest of this line is not checked",
    )
    monkeypatch.chdir(tmp_path)
    valid = CliRunner().invoke(main, ["query", "--db", path, "--valid"])
    assert valid.stdout.splitlines()[2].endswith(f"  {escape}       1")  # (elsewhere: as stored)
    assert "first_message" not in valid.stdout


def test_the_first_message_is_that_of_the_first_error_not_of_a_warning_before_it_nor_of_a_later_error(tmp_path):
    """`first_message` is the message of the error `first_rule` names: a warning numbered before it (a tag named
    a letter off White) is no error, and a record of two errors (no result marker, then T2 at its third ply)
    shows its first (h81c: either slip went unseen, the tests' records holding one diagnostic)."""
    path = str(tmp_path / "a.db")
    warned = '[Game "tablut"]\n[Whtie "Ann"]\n\n1. e3-f3 d1-d3\n2. f3-f1 *\n'
    torn = '[Game "tablut"]\n[Whtie "Bo"]\n\n1. e3-f3 d1-d3\n2. f3-f1\n'
    assert Archive(path).import_paths([f"{warned}\n{torn}"]).added == 2
    rows = json.loads(CliRunner().invoke(main, ["query", "--db", path, "--format", "json"]).stdout)
    shown = [(row["warnings"], row["errors"], row["first_rule"], row["first_message"]) for row in rows]
    assert shown == [
        (1, 1, "T2", "f1 is occupied (from the start position); the rest of this line is not checked"),
        (1, 2, "syntax", "the record ends without a result marker (1-0, 0-1, 1/2-1/2, *)"),
    ]


@pytest.mark.parametrize(
    "asked",
    [
        [],
        ["--invalid"],
        ["--pattern", "*********/*********/*********/*********/****K****/*********/*********/*********/********* b"],
    ],
)
def test_query_s_csv_and_json_list_the_same_columns_in_one_order_the_table_s_among_them(samples, asked):
    """CSV's header is JSON's keys, in order: the first error's rule, ply and message together, then the
    file and line, and `ply` last, with a search (first_message was added after `line`, which moved
    `ply`, and put the table's columns in another order), named here as docs/archive.md says them; the table's
    are among them, in that order."""

    def stdout(format_: str) -> str:
        result = CliRunner().invoke(main, ["query", "--db", samples.path, "--limit", "1", "--format", format_, *asked])
        return result.stdout

    searched = ["ply"] if "--pattern" in asked else []
    header = stdout("csv").splitlines()[0].split(",")
    tags = ["id", "game", "variant", "date", "white", "black", "result", "event", "site", "round"]
    counts = ["plies", "valid", "errors", "warnings"]
    assert header == [*tags, *counts, "first_rule", "first_ply", "first_message", "path", "line", *searched]
    assert list(json.loads(stdout("json"))[0]) == header
    table = stdout("table").splitlines()[0].split()
    assert [column for column in header if column in table] == table


def test_a_game_named_says_what_it_leaves_out_of_other_games_variants_named_so(tmp_path):
    """`--game brandubh` finds no Hnefatafl record of a variant named `brandubh-*` (aagenielsen.dk's
    types): every command of the filters says so in a note that names how to find them; none when
    the archive holds none."""
    path = str(tmp_path / "a.db")
    variants = "".join(
        f'[Game "hnefatafl"]\n[Variant "{variant}"]\n[Result "*"]\n\n*\n\n'
        for variant in ("brandubh-line-7x7", "brandubh-39-7x7")
    )
    Archive(path).import_paths(['[Game "brandubh"]\n[Result "*"]\n\n1. d2-f2 c4-c6 *\n\n' + variants])
    note = (
        "lusoria: note: --game brandubh leaves out 2 records of hnefatafl's 2 variants whose names hold "
        "'brandubh' (hnefatafl/brandubh-39-7x7, …): --game hnefatafl --variant VARIANT finds them\n"
    )
    opened = f"lusoria: note: --variant standard: the variant of most records of brandubh in {path}\n"
    for command in (["query"], ["stats"], ["players", "list"], ["tree"], ["export", str(tmp_path / "out")]):
        result = CliRunner().invoke(main, [*command, "--db", path, "--game", "Brandubh"])
        assert (result.exit_code, result.stderr.removeprefix(opened if command == ["tree"] else "")) == (0, note)
    found = CliRunner().invoke(main, ["query", "--db", path, "--game", "hnefatafl", "--variant", "brandubh-39-7x7"])
    assert (found.stdout.count("brandubh-39-7x7"), found.stderr) == (1, "")


def test_a_trees_note_of_what_its_game_leaves_out_counts_the_records_that_reached_its_position(tmp_path):
    """h73a: `tree POSITION --game copenhagen` named the 13×13 variant's records, which never reach an 11×11
    position; the note counts those that reached it, as `query --position` does, or `--position`'s (without
    either, every record)."""
    path = str(tmp_path / "a.db")
    variants = "".join(
        f'[Game "hnefatafl"]\n[Variant "{variant}"]\n[Result "*"]\n\n*\n\n'
        for variant in ("old-copenhagen-hnefatafl-11x11", "copenhagen-hnefatafl-13x13")
    )
    Archive(path).import_paths(['[Game "copenhagen"]\n[Result "*"]\n\n*\n\n' + variants])
    start = "3ppppp3/5p5/11/p4P4p/p3PPP3p/pp1PPKPP1pp/p3PPP3p/p4P4p/11/5p5/3ppppp3 b"  # Copenhagen's
    said = [
        CliRunner().invoke(main, ["tree", *at, "--db", path, "--game", "copenhagen"]).stderr
        for at in ([start], ["--position", start], [])
    ]
    reached = (
        "lusoria: note: --game copenhagen leaves out 1 record of hnefatafl's variant whose name holds 'copenhagen' "
        "(hnefatafl/old-copenhagen-hnefatafl-11x11): --game hnefatafl --variant old-copenhagen-hnefatafl-11x11 "
        "finds it\n"
    )
    assert said == [
        reached,
        reached,
        "lusoria: note: --game copenhagen leaves out 2 records of hnefatafl's 2 variants whose names hold "
        "'copenhagen' (hnefatafl/copenhagen-hnefatafl-13x13, …): --game hnefatafl --variant VARIANT finds them\n",
    ]


def test_the_note_of_what_a_game_leaves_out_holds_its_name_at_the_start_of_a_word_of_a_variant(tmp_path, monkeypatch):
    """`--game tablut` notes `tablut2-9x9` and `foteviken-tablut-9x9`, not `oldtablut-9x9`, where the
    name is inside a word (the note matched any substring); in an archive of no
    such variant, the filters (a search within plies) run once, for the records listed."""
    path = str(tmp_path / "a.db")
    variants = ("tablut2-9x9", "foteviken-tablut-9x9", "oldtablut-9x9", "foteviken-tablut-9x9")
    Archive(path).import_paths(
        [
            "".join(
                f'[Game "hnefatafl"]\n[Variant "{variant}"]\n[White "p{n}"]\n[Result "*"]\n\n*\n\n'
                for n, variant in enumerate(variants)
            )
        ]
    )
    assert Archive(path).variants_elsewhere(Filters(game="tablut")) == [
        "--game tablut leaves out 3 records of hnefatafl's 2 variants whose names hold 'tablut' "
        "(hnefatafl/foteviken-tablut-9x9, …): --game hnefatafl --variant VARIANT finds them"
    ]
    searched = []
    monkeypatch.setattr(search, "ply_search", lambda filters: searched.append(filters))
    assert Archive(path).variants_elsewhere(Filters(game="latrunculi", material=["white_off>=1"])) == []
    assert searched == []


def test_the_note_of_what_a_game_leaves_out_parts_a_variant_s_words_at_any_mark_and_quotes_the_one_it_names(tmp_path):
    """A space, `/` or `_` parts a variant's words as `-` does (`copenhagen tablut`, a Variant tag as written,
    was not noted when only `-` parted them); the name asked for is no GLOB (`t*`, `[c]openhagen`); a
    variant named with a space is quoted in the command that finds it."""
    path = str(tmp_path / "a.db")
    variants = ("copenhagen tablut", "x/tablut", "big_tablut", "bigtablut", "Åtablut")
    Archive(path).import_paths(
        ["".join(f'[Game "hnefatafl"]\n[Variant "{variant}"]\n[Result "*"]\n\n*\n\n' for variant in variants)]
    )
    assert Archive(path).variants_elsewhere(Filters(game="tablut")) == [
        "--game tablut leaves out 3 records of hnefatafl whose Variant tags hold 'tablut' (hnefatafl/big_tablut, "
        "which lusoria does not know as a variant of hnefatafl, …): --game hnefatafl --variant VARIANT finds them"
    ]
    assert Archive(path).variants_elsewhere(Filters(game="copenhagen")) == [
        "--game copenhagen leaves out 1 record of hnefatafl whose Variant tag holds 'copenhagen' (hnefatafl/copenhagen "
        "tablut, which lusoria does not know as a variant of hnefatafl): --game hnefatafl --variant 'copenhagen "
        "tablut' finds it"
    ]
    assert Archive(path).variants_elsewhere(Filters(game="t*")) == []
    assert Archive(path).variants_elsewhere(Filters(game="[c]openhagen")) == []


def test_the_note_of_what_a_game_leaves_out_names_the_variant_of_most_records_and_is_not_given_with_a_variant(
    tmp_path,
):
    """Each other game, the one of most records first: its variant of most records is named (not the first
    by name), one variant alone by its name; the game named is not among them (a Brandubh record of a
    variant `brandubh-old`, which lusoria does not know). Of the records the other filters select: none
    of `--variant brandubh-old` (it said what the variant asked for left out)."""
    path = str(tmp_path / "a.db")
    games = [("hnefatafl", "brandubh-39-7x7"), *[("hnefatafl", "brandubh-line-7x7")] * 2, ("tablut", "brandubh")]
    Archive(path).import_paths(
        [
            "".join(
                f'[Game "{g}"]\n[Variant "{v}"]\n[White "p{n}"]\n[Result "*"]\n\n*\n\n'
                for n, (g, v) in enumerate(games)
            )
        ]
        + ['[Game "brandubh"]\n[Variant "brandubh-old"]\n[Result "*"]\n\n*\n\n']
    )
    assert Archive(path).variants_elsewhere(Filters(game="Brandubh")) == [
        "--game brandubh leaves out 3 records of hnefatafl's 2 variants whose names hold 'brandubh' "
        "(hnefatafl/brandubh-line-7x7, …): --game hnefatafl --variant VARIANT finds them",
        "--game brandubh leaves out 1 record of tablut whose Variant tag holds 'brandubh' "
        "(tablut/brandubh, which lusoria does not know as a variant of tablut): --game tablut --variant brandubh "
        "finds it",
    ]
    assert Archive(path).variants_elsewhere(Filters(game="brandubh", white="p2")) == [  # (the others: too)
        "--game brandubh leaves out 1 record of hnefatafl's variant whose name holds 'brandubh' "
        "(hnefatafl/brandubh-line-7x7): --game hnefatafl --variant brandubh-line-7x7 finds it"
    ]
    chosen = CliRunner().invoke(main, ["query", "--db", path, "--game", "brandubh", "--variant", "brandubh-old"])
    assert (chosen.exit_code, chosen.stdout.count("brandubh-old"), chosen.stderr) == (0, 1, "")


def test_the_note_of_what_a_game_leaves_out_tells_the_variants_lusoria_knows_from_the_variant_tags_it_does_not(
    tmp_path,
):
    """A game with both: the records of its variants lusoria knows (the one of most records named) and of its
    Variant tags it does not, each counted (the note named the tag of most records alone, `which lusoria does
    not know`, as if every record were of such a tag, and counted no variant), as docs/archive.md shows; a game
    of one kind is said so."""
    path = str(tmp_path / "a.db")
    variants = ("tablut2-9x9", "foteviken-tablut-9x9", "big_tablut", "big_tablut", "x/tablut")
    Archive(path).import_paths(
        [
            "".join(
                f'[Game "hnefatafl"]\n[Variant "{variant}"]\n[White "p{n}"]\n[Result "*"]\n\n*\n\n'
                for n, variant in enumerate(variants)
            )
        ]
    )
    [both] = Archive(path).variants_elsewhere(Filters(game="tablut"))
    assert both == (
        "--game tablut leaves out 5 records of hnefatafl, 2 records of its 2 variants whose names hold 'tablut' "
        "(hnefatafl/foteviken-tablut-9x9, …) and 3 records whose Variant tags hold it (hnefatafl/big_tablut, which "
        "lusoria does not know as a variant of hnefatafl, …): --game hnefatafl --variant VARIANT finds them"
    )
    shown = " ".join((ROOT / "docs" / "archive.md").read_text(encoding="utf-8").split())
    assert f"`{both.partition(':')[0]}`" in shown  # as docs/archive.md shows it
    assert Archive(path).variants_elsewhere(Filters(game="tablut", white="p0")) == [
        "--game tablut leaves out 1 record of hnefatafl's variant whose name holds 'tablut' "
        "(hnefatafl/tablut2-9x9): --game hnefatafl --variant tablut2-9x9 finds it"
    ]
    assert Archive(path).variants_elsewhere(Filters(game="tablut", white="p4")) == [
        "--game tablut leaves out 1 record of hnefatafl whose Variant tag holds 'tablut' (hnefatafl/x/tablut, which "
        "lusoria does not know as a variant of hnefatafl): --game hnefatafl --variant x/tablut finds it"
    ]
    assert Archive(path).variants_elsewhere(Filters(game="tablut", tags=[("White", "p[23]")])) == [
        "--game tablut leaves out 2 records of hnefatafl whose Variant tags hold 'tablut' (hnefatafl/big_tablut, "
        "which lusoria does not know as a variant of hnefatafl): --game hnefatafl --variant big_tablut finds them"
    ]


def test_a_game_named_too_long_for_a_glob_is_not_sought_in_other_games_variants_and_its_note_says_so(tmp_path):
    """SQLite reads a GLOB of 50,000 bytes at most: a game named longer is not sought, and the note says so in
    a line (`lusoria query --game <60,000 letters>` stopped with an internal error, `LIKE or GLOB pattern too
    complex`); one of the longest name sought is found in a variant that holds it, at the start of a word."""
    longest = "a" * (50_000 - len("*[^0-9a-z\u0080-\U0010ffff]*".encode()))
    path = str(tmp_path / "a.db")
    Archive(path).import_paths(
        [f'[Game "{longest}a"]\n[Result "*"]\n\n*\n\n[Game "tablut"]\n[Variant "x-{longest}a"]\n[Result "*"]\n\n*\n\n']
    )
    [found] = Archive(path).variants_elsewhere(Filters(game=longest))
    held = f"'{longest[:40]}…' ({len(longest):,} characters)"  # as `quoted` echoes it, said whole just before
    assert found.startswith(f"--game {longest} leaves out 1 record of tablut whose Variant tag holds {held} (")
    too_long = "--game names a game of 49,983 characters, too long to seek in other games' variants"
    assert Archive(path).variants_elsewhere(Filters(game=f"{longest}a")) == [too_long]
    with pytest.raises(MissingArchive):  # as of a name sought (the note was said of no archive)
        Archive(str(tmp_path / "none.db")).variants_elsewhere(Filters(game=f"{longest}a"))
    chosen = CliRunner().invoke(main, ["query", "--db", path, "--game", f"{longest}a", "--format", "csv"])
    assert (chosen.exit_code, len(chosen.stdout.splitlines()), chosen.stderr) == (0, 2, f"lusoria: note: {too_long}\n")
