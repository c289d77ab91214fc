"""The opening explorer folds the plies of any square board by its symmetries (`--symmetric`)."""

import json
from collections import Counter

import pytest
from click.testing import CliRunner
from explorer import folded_by_hand

from lusoria.api import random_records
from lusoria.archive import Archive, Filters
from lusoria.cli import main


@pytest.mark.parametrize("game", ["copenhagen", "brandubh", "tablut"])
def test_the_folded_tree_of_any_square_board_sums_the_plies_it_folds(game, tmp_path):
    archive = Archive(str(tmp_path / "a.db"))
    archive.import_paths(["\n".join(random_records(game, 60, seed=9, max_plies=6))])
    folded = archive.tree(from_id=1, ply=0, filters=Filters(symmetric=True))
    assert Counter((n.games, n.white, n.draws, n.black) for n in folded) == folded_by_hand(archive, 1)
    assert len(folded) < len(archive.tree(from_id=1, ply=0))  # random first plies: some are images of others


def test_filters_that_only_change_others_select_every_record():
    # `--symmetric` alone (or `--include-unknown`, `--for`) lets every record through: the tree
    # then reads no list of the records' ids
    from lusoria.archive.commands import _selected

    for alone in (Filters(symmetric=True), Filters(include_unknown=True), Filters(material_for=3), None):
        assert _selected(alone) is None
    assert _selected(Filters(symmetric=True, valid=True)) is not None


def test_the_tree_of_a_game_whose_boards_are_its_variants_starts_from_its_variant_of_most_records(tmp_path):
    """`lusoria tree --game hnefatafl` without --variant: the variant of most records (as the
    explorer opens: Archive.most_recorded), said on stderr; none of the game: --variant asked for.
    The library chose it unsaid, the CLI by itself to say it: the library says it, the CLI prints it."""
    path = str(tmp_path / "club.db")
    records = [
        *random_records("hnefatafl", 1, seed=1, tags={"Variant": "tyr-9x9"}, max_plies=6),
        *random_records("hnefatafl", 2, seed=1, tags={"Variant": "opentafl-brandub-7x7"}, max_plies=6),
    ]
    Archive(path).import_paths(["\n".join(records)])
    assert Archive(path).most_recorded("Hnefatafl") == ("hnefatafl", "opentafl-brandub-7x7")
    assert Archive(path).most_recorded("tablut") is None
    result = CliRunner().invoke(main, ["tree", "--game", "hnefatafl", "--db", path, "--format", "json"])
    named = ["tree", "--game", "hnefatafl", "--variant", "opentafl-brandub-7x7", "--db", path, "--format", "json"]
    assert result.exit_code == 0 and result.stdout == CliRunner().invoke(main, named).stdout
    assert sum(node["games"] for node in json.loads(result.stdout)) == 2  # the two records of brandub
    chosen = "opentafl-brandub-7x7: the variant of most records of hnefatafl in"
    assert result.stderr == f"lusoria: note: --variant {chosen} {path}\n"
    told: list = []
    Archive(path, notes=told.append).tree(filters=Filters(game="HNEFATAFL"))
    assert [str(note) for note in told] == [f"note: Variant {chosen} {path}"]
    other = str(tmp_path / "other.db")
    Archive(other).import_paths(["\n".join(random_records("tablut", 1, seed=1, max_plies=6))])
    refused = CliRunner().invoke(main, ["tree", "--game", "hnefatafl", "--db", other])
    assert refused.exit_code == 2 and refused.stderr.endswith(
        "Error: --variant is needed: the archive holds no record of hnefatafl, whose boards are its variants "
        "(lusoria explain hnefatafl lists them)\n"
    )


def test_the_tree_of_a_game_on_a_board_starts_from_its_variant_of_most_records_on_that_board(tmp_path):
    """`lusoria tree --game hnefatafl --board 9`: the variant of most records on a 9x9 board (it was the
    game's variant of most records, on a 7x7 board, where no record of the filter played)."""
    path = str(tmp_path / "club.db")
    records = [
        *random_records("hnefatafl", 1, seed=1, tags={"Variant": "tyr-9x9"}, max_plies=6),
        *random_records("hnefatafl", 2, seed=1, tags={"Variant": "opentafl-brandub-7x7"}, max_plies=6),
    ]
    Archive(path).import_paths(["\n".join(records)])
    assert Archive(path).most_recorded("hnefatafl", "9x9") == ("hnefatafl", "tyr-9x9")
    result = CliRunner().invoke(main, ["tree", "--game", "hnefatafl", "--board", "9", "--db", path, "--format", "json"])
    assert result.exit_code == 0 and sum(node["games"] for node in json.loads(result.stdout)) == 1
    chosen = "tyr-9x9: the variant of most records of hnefatafl on a board of 9x9 in"
    assert result.stderr == f"lusoria: note: --variant {chosen} {path}\n"
    none_on_it = CliRunner().invoke(main, ["tree", "--game", "hnefatafl", "--board", "11", "--db", path])
    chosen = "opentafl-brandub-7x7: the variant of most records of hnefatafl in"  # was 'on a board of 11x11'
    assert none_on_it.stderr == (
        f"lusoria: note: --variant {chosen} {path}\n"
        "lusoria: no record of the archive is on a board of 11x11 (the archive's boards: 7x7, 9x9)\n"
    )


def test_the_tree_of_a_game_played_on_boards_of_several_sizes_starts_on_the_board_asked(tmp_path):
    """h80a: `tree --game latrunculi --board 16x4` started from the 8x8 start, where none of the records played:
    the tree was empty, and its note blamed a Position tag. It starts from the start of the board asked (the Board
    tag the game reads), as it does of the board the variant asked plays on; the JSON as the CLI's."""
    path = str(tmp_path / "club.db")
    Archive(path).import_paths(list(random_records("latrunculi", 3, seed=2, tags={"Board": "16x4"}, max_plies=20)))
    result = CliRunner().invoke(
        main, ["tree", "--game", "latrunculi", "--board", "16x4", "--db", path, "--format", "json"]
    )
    assert result.exit_code == 0 and sum(node["games"] for node in json.loads(result.stdout)) == 3
    assert "another position" not in result.stderr
    nodes = Archive(path).tree(filters=Filters(game="latrunculi", variant="seneca", board="16x4"))
    assert sum(node.games for node in nodes) == 3


def test_the_note_of_the_variant_chosen_names_an_archive_given_by_a_path_object(tmp_path):
    """`Archive(Path(…), notes=…)` imports and answers as with a str, but the note of the variant
    `tree` chose raised TypeError (Path.replace is a rename, not str.replace); a path's braces are its own."""
    path = tmp_path / "{club}.db"
    Archive(path).import_paths(random_records("hnefatafl", 1, seed=1, tags={"Variant": "tyr-9x9"}, max_plies=6))
    told: list = []
    Archive(path, notes=told.append).tree(filters=Filters(game="hnefatafl"))
    assert [str(note) for note in told] == [
        f"note: Variant tyr-9x9: the variant of most records of hnefatafl in {path}"
    ]
    assert [note.path for note in told] == [str(path)]


@pytest.mark.parametrize(
    ("game", "white", "black"),
    [("copenhagen", "defenders", "attackers"), ("tablut", "Swedes", "Muscovites"), ("latrunculi", "White", "Black")],
)
def test_the_tree_names_each_side_as_its_game_names_it(game, white, black, tmp_path):
    """A tafl tree's shares are the defenders' and the attackers' (Tablut's, the Swedes' and the
    Muscovites'), not White's and Black's, in its table's headings and each node's `sides`; the
    JSON keeps its counts' keys (`white`, `white_percent`)."""
    path = str(tmp_path / "club.db")
    Archive(path).import_paths(["\n".join(random_records(game, 3, seed=1, max_plies=2))])
    table = CliRunner().invoke(main, ["tree", "--db", path, "--game", game])
    assert table.exit_code == 0, table.output
    assert table.stdout.split("\n")[0].split() == [
        *("ply", "games", white, "%", "draws", "%", black, "%", "unfinished", "score", "%"),
        *("average", "ply", "first", "last"),
    ]
    nodes = json.loads(CliRunner().invoke(main, ["tree", "--db", path, "--game", game, "--format", "json"]).stdout)
    assert {"white", "white_percent", "black", "black_percent"} <= nodes[0].keys()
    assert nodes[0]["sides"] == {"white": white, "black": black}


def test_a_tree_of_games_that_name_a_side_apart_heads_it_by_their_names_joined():
    """In the order of the games' names, as `stats --by board` joins them, whichever game's plies
    come first."""
    from lusoria.archive.tree import Node, sides_of

    child = Node("d1-d3", 3, sides=("Swedes", "Muscovites"), game="tablut")
    nodes = [Node("e3-c3", 1, sides=("defenders", "attackers"), game="hnefatafl", children=[child]), Node("e4-g4", 2)]
    assert sides_of(nodes) == ("White/defenders/Swedes", "Black/attackers/Muscovites")  # (None: str 'None' first)
    assert sides_of([child, *nodes]) == sides_of(nodes)
    assert sides_of([]) == ("White", "Black")


def test_a_tree_from_a_position_two_games_read_heads_its_shares_as_stats_by_board_does(tmp_path):
    """Tablut's start is also Hnefatafl's rachunek-tablut-9x9's: a tree from it counts the plies of
    both games' records, its shares headed by both games' names of each side, in the order `stats
    --by board` gives them, though Tablut's plies come first (more played)."""
    path = str(tmp_path / "club.db")
    tablut = random_records("tablut", 40, seed=1, max_plies=2)  # d5-d2 the most played: 3 games
    hnefatafl = random_records("hnefatafl", 2, seed=3, max_plies=2, tags={"Variant": "rachunek-tablut-9x9"})
    Archive(path).import_paths(["\n".join([*tablut, *hnefatafl])])
    start = "3ppp3/4p4/4P4/p3P3p/ppPPKPPpp/p3P3p/4P4/4p4/3ppp3"
    table = CliRunner().invoke(main, ["tree", "--db", path, start, "--depth", "1"])
    assert table.stdout.split("\n")[0].split()[:8] == [
        *("ply", "game", "games", "defenders/Swedes", "%", "draws", "%", "attackers/Muscovites")
    ]
    board = CliRunner().invoke(main, ["stats", "--db", path, "--by", "board"]).stdout
    assert "defenders/Swedes" in board and "attackers/Muscovites" in board


def test_a_tree_over_two_games_says_the_game_of_each_ply(tmp_path):
    """A ply played in Tablut's records and in Hnefatafl's rachunek-tablut-9x9's from their one start
    was two rows that looked alike: the table and the indented tree say each row's game (only when the
    tree spans several: a tree of one game has no such column), and the JSON each node's."""
    path = str(tmp_path / "club.db")
    tablut = random_records("tablut", 40, seed=1, max_plies=2)  # d5-d2 the most played: 3 games
    hnefatafl = random_records("hnefatafl", 2, seed=3, max_plies=2, tags={"Variant": "rachunek-tablut-9x9"})
    played = '[Game "hnefatafl"]\n[Variant "rachunek-tablut-9x9"]\n\n1. d5-d2 *\n'  # in Hnefatafl's once
    Archive(path).import_paths(["\n".join([*tablut, *hnefatafl, played])])
    start = "3ppp3/4p4/4P4/p3P3p/ppPPKPPpp/p3P3p/4P4/4p4/3ppp3"
    for format in ("table", "tree"):
        shown = CliRunner().invoke(main, ["tree", "--db", path, start, "--format", format]).stdout.splitlines()
        assert shown[0].split()[:3] == ["ply", "game", "games"]
        assert [line.split()[:3] for line in shown if line.startswith("d5-d2")] == [
            ["d5-d2", "tablut", "3"],
            ["d5-d2", "hnefatafl", "1"],
        ]
    nodes = json.loads(CliRunner().invoke(main, ["tree", "--db", path, start, "--format", "json"]).stdout)
    assert [(node["game"], node["games"]) for node in nodes if node["ply"] == "d5-d2"] == [
        ("tablut", 3),
        ("hnefatafl", 1),
    ]
    alone = CliRunner().invoke(main, ["tree", "--db", path, start, "--game", "hnefatafl"]).stdout.splitlines()
    assert alone[0].split()[:3] == ["ply", "games", "defenders"]  # one game: no column of it


def test_a_line_back_at_a_position_it_holds_is_not_grown_again_lap_after_lap(tmp_path):
    """h83b: a game back at its start (`1. e3-c3 a4-a3 2. c3-e3 a3-a4`) had its plies grown again below its last,
    down to `--depth` (a 4-ply game listed as a 12-ply line), and two such games doubled the tree at each lap: 32,762
    rows at depth 48, nothing printed in 2 minutes at 64, 10 GB for the real Brandubh games at 100. The ply back at
    a position of its line ends it, and is said: its games and their transpositions (2 games of a3-a4)."""
    path = str(tmp_path / "club.db")
    laps = ["1. e3-c3 a4-a3 2. c3-e3 a3-a4 *", "1. e3-b3 a4-a3 2. b3-e3 a3-a4 *"]
    laps.append("1. d5-d2 a4-a3 2. d2-d3 a3-a4 3. d3-d2 a4-a3 *")  # (back at its second position, not its first)
    Archive(path).import_paths(["\n".join(f'[Game "tablut"]\n\n{movetext}\n' for movetext in laps)])
    nodes = Archive(path).tree(filters=Filters(game="tablut", variant="seed"), depth=64)
    lines = [line for line, _ in _lines(nodes)]
    assert lines == [
        "d5-d2",
        "d5-d2 a4-a3",
        "d5-d2 a4-a3 d2-d3",
        "d5-d2 a4-a3 d2-d3 a3-a4",
        "d5-d2 a4-a3 d2-d3 a3-a4 d3-d2",
        "e3-b3",
        "e3-b3 a4-a3",
        "e3-b3 a4-a3 b3-e3",
        "e3-b3 a4-a3 b3-e3 a3-a4",
        "e3-c3",
        "e3-c3 a4-a3",
        "e3-c3 a4-a3 c3-e3",
        "e3-c3 a4-a3 c3-e3 a3-a4",
    ]
    assert [games for line, games in _lines(nodes) if line.endswith("e3 a3-a4")] == [2, 2]  # (a transposition)


def _lines(nodes, before=""):
    """Each node's line of plies from the tree's start, and its games, depth first."""
    for node in nodes:
        line = f"{before} {node.ply}".strip()
        yield line, node.games
        yield from _lines(node.children, line)


RULE_SETS = [  # Tablut as Ashton's server plays it, and Saami Tablut-w: one start, White first
    '[Game "tablut"]\n[Variant "ashton"]\n\n1. e3-d3 a4-b4 2. d3-d2 *\n',
    '[Game "tablut"]\n[Variant "ashton"]\n\n1. e3-d3 a4-b4 *\n',
    '[Game "tablut"]\n[Variant "aage"]\n[Rules "first=white"]\n\n1. e3-d3 a4-b4 2. e4-e3 a6-b6 *\n',
]


def test_a_tree_over_two_rule_sets_of_a_game_says_the_rule_set_of_each_ply(tmp_path):
    """The tree from a record of Saami Tablut-w pooled the Ashton games that reached its start in one row
    of each ply (h78b): a ply is a row per rule set, named as `stats` and `--variant` name it, and its
    children are the plies of that rule set only, though both reach one position (the second ply)."""
    path = str(tmp_path / "club.db")
    Archive(path).import_paths(["\n".join(RULE_SETS)])
    shown = CliRunner().invoke(main, ["tree", "--db", path, "--from-id", "3", "--depth", "4", "--format", "tree"])
    heading, _, *rows = [line.replace("·", "").split()[:3] for line in shown.stdout.splitlines()]
    assert heading == ["ply", "variant", "games"]
    assert rows == [
        ["e3-d3", "ashton", "2"],
        ["a4-b4", "ashton", "2"],
        ["d3-d2", "ashton", "1"],
        ["e3-d3", "saami-tablut-w", "1"],
        ["a4-b4", "saami-tablut-w", "1"],
        ["e4-e3", "saami-tablut-w", "1"],
        ["a6-b6", "saami-tablut-w", "1"],
    ]
    nodes = json.loads(CliRunner().invoke(main, ["tree", "--db", path, "--from-id", "3", "--format", "json"]).stdout)
    assert [(node["ply"], node["variant"], node["games"]) for node in nodes] == [
        ("e3-d3", "ashton", 2),
        ("e3-d3", "saami-tablut-w", 1),
    ]
    alone = CliRunner().invoke(main, ["tree", "--db", path, "--from-id", "3", "--variant", "ashton"]).stdout
    assert alone.splitlines()[0].split()[:2] == ["ply", "games"]  # one rule set: no column of it


def test_a_ply_past_a_records_replay_is_refused_saying_where_the_replay_stops(tmp_path):
    """`tree --from-id 1 --ply 9` of a record of 4 plies whose second is illegal said only that the archive has
    no position there; it says where the record's replay stops, as `show` does (newcomer-52)."""
    (tmp_path / "a.lgn").write_text(
        '[Game "tablut"]\n\n1. e3-c3 e1-e3 2. c3-c1 d1-d5 *\n\n[Game "tablut"]\n\n1. e2-e3 *\n'
    )
    db = str(tmp_path / "a.db")
    Archive(db).import_paths([str(tmp_path / "a.lgn")])
    for record, ply, stops in ((1, 9, "after ply 1"), (1, 2, "after ply 1"), (2, 1, "at its start")):
        result = CliRunner().invoke(main, ["tree", "--db", db, "--from-id", str(record), "--ply", str(ply)])
        assert result.exit_code == 2 and result.stderr.endswith(
            f"Error: the archive has no position after ply {ply} of record {record}: its replay stops {stops}\n"
        )
    assert [node.games for node in Archive(db).tree(from_id=1, ply=1)] == []  # (the last position shown: no ply on)


def test_a_record_whose_rules_or_start_cannot_be_read_says_so_where_its_positions_are_asked_for(tmp_path):
    """h73a: `tree --from-id` of a record whose Variant names none of its game's said only that the archive has no
    position after ply 0, which reads as a bug; it says the record's rules, or its start, could not be read, and why."""
    (tmp_path / "a.lgn").write_text(
        '[Game "tablut"]\n[Variant "fetlar"]\n\n1. e3-c3 *\n\n'
        '[Game "tablut"]\n[Position "3ppp3/4p4/4P4/p3P3p/ppPPKPPpp/p3P3p/4P4/4p4 w"]\n\n1. e3-c3 *\n'
    )
    archive = Archive(str(tmp_path / "a.db"))
    archive.import_paths([str(tmp_path / "a.lgn")])
    with pytest.raises(ValueError) as rules:
        archive.tree(from_id=1, ply=0)
    assert str(rules.value).startswith(
        "the archive has no position after ply 0 of record 1: its rules could not be read (tag: unknown variant 'fetlar'"
    )
    with pytest.raises(ValueError) as start:
        archive.tree(from_id=2, ply=0)
    assert str(start.value) == (
        "the archive has no position after ply 0 of record 2: its start could not be read "
        "(tag: malformed Position: a Tablut position has 9 ranks, not 8)"
    )
