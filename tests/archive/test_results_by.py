"""`stats --by game|variant|board`: each game's, variant's or board size's results, its sides named
as its games name them, shares in percent that add up, the plies' mean and median, the most records
first (new user 26: "win rates of attackers vs defenders per type"; new user 38: "per board size",
"how long are games per type"); and the median of the plies in one format."""

import json
from collections import Counter

import pytest
from click.testing import CliRunner
from conftest import ROOT
from hypothesis import given, settings
from hypothesis import strategies as st

from lusoria.archive import Archive, Filters
from lusoria.archive.stats import BY, _percentages, _plies, _sides
from lusoria.cli import main

AAGE = """[Game "tablut"]
[Variant "aage"]
[Rules "first=white"]
[Result "1-0"]

1-0

[Game "tablut"]
[Variant "aage"]
[Result "0-1"]

0-1

[Game "tablut"]
[Variant "aage"]
[Rules "first=white"]
[Result "0-1"]

0-1
"""


def run(*args: str):
    return CliRunner().invoke(main, list(args))


def results_table(archive: Archive, by: str, *options: str) -> list[str]:
    """The lines of the table `stats --by` ends with."""
    return run("stats", "--db", archive.path, "--by", by, *options).stdout.split("\n\n")[-1].splitlines()


@pytest.fixture(scope="module")
def samples(tmp_path_factory):
    """The samples (81 records of Tablut, Latrunculi, Laquet and none), imported once."""
    archive = Archive(str(tmp_path_factory.mktemp("samples") / "lusoria.db"))
    assert archive.import_paths([str(ROOT / "samples")]).added == 81
    return archive


@pytest.fixture(scope="module")
def cup(tmp_path_factory):
    """A Brandubh tournament: 2 games the defenders won, 2 the attackers, 2 draws, 1 unfinished."""
    archive = Archive(str(tmp_path_factory.mktemp("cup") / "cup.db"))
    assert archive.import_paths([str(ROOT / "tests/fixtures/tournament.lgn")]).added == 7
    return archive


def test_a_tafl_games_results_name_the_defenders_and_the_attackers(cup):
    assert cup.stats(by="game")["results_by"] == {
        "grouping": "game",
        "rows": [
            {
                "value": "brandubh",
                "records": 7,
                "white": "defenders",
                "black": "attackers",
                "white_won": 2,
                "black_won": 2,
                "drawn": 2,
                "unfinished": 1,
                "shares": {"white_won": 28.6, "black_won": 28.6, "drawn": 28.5, "unfinished": 14.3},
                "invalid": 0,
                "invalid_percent": 0.0,
                "first_error_rules": [],
                "plies": {"mean": 4.0, "median": 4.0, "max": 4},
            }
        ],
        "more_rows": {"rows": 0, "records": 0},
    }
    assert "results_by" not in cup.stats()


def test_the_table_shows_each_sides_name_and_share(cup):
    assert results_table(cup, "variant") == [
        "variant              records  White      White won    Black      Black won    drawn    unfinished      mean plies"
        "    median plies  invalid    first errors",
        "-----------------  ---------  ---------  -----------  ---------  -----------  -------  ------------  ------------"
        "  --------------  ---------  --------------",
        "brandubh/standard          7  defenders  28.6%        attackers  28.6%        28.5%    14.3%                  4.0"
        "             4.0  0.0%",
    ]
    figures = json.loads(run("stats", "--db", cup.path, "--by", "variant", "--json").output)
    assert figures == cup.stats(by="variant")


def test_the_table_shows_each_sides_own_share_of_the_records_on_a_board(samples):
    """White's share under White, Black's under Black (the cup's are equal), of the records
    `--board` selects; a selection of no record shows no table, as the other tables."""
    assert results_table(samples, "variant", "--board", "9") == [
        "variant            records  White    White won    Black       Black won    drawn    unfinished      mean plies"
        "    median plies  invalid    first errors",
        "---------------  ---------  -------  -----------  ----------  -----------  -------  ------------  ------------"
        "  --------------  ---------  -----------------",
        "tablut/seed             25  Swedes   12.0%        Muscovites  8.0%         0.0%     80.0%                  6.2"
        "             2.0  76.0%      T2 5, tag 3, T3 2",
        "tablut/linnaeus          1  Swedes   0.0%         Muscovites  100.0%       0.0%     0.0%                   9.0"
        "             9.0  0.0%",
    ]
    none = run("stats", "--db", samples.path, "--by", "game", "--board", "13x13")
    assert none.stdout == "0 records: 0 valid, 0 invalid\n"


def test_results_by_variant_are_sorted_by_records_and_named_by_their_game(samples):
    rows = samples.stats(by="variant", top=12)["results_by"]["rows"]
    assert [(row["value"], row["records"], row["white"], row["black"]) for row in rows] == [
        ("tablut/seed", 25, "Swedes", "Muscovites"),  # with the record that lacks its result marker
        ("laquet/seed", 18, "White", "Black"),
        ("latrunculi/seneca", 11, "White", "Black"),
        ("latrunculi/petteia", 9, "White", "Black"),
        ("tablut", 5, "Swedes", "Muscovites"),
        ("latrunculi/piso", 4, "White", "Black"),
        ("latrunculi/dux", 3, "White", "Black"),
        ("latrunculi", 2, "White", "Black"),
        (None, 1, "White", "Black"),  # a record that names no game and was not read: `(no variant)`
        ("chess", 1, "White", "Black"),  # a game lusoria does not know: the notation's names
        ("tablut/copenhagen", 1, "Swedes", "Muscovites"),
        ("tablut/linnaeus", 1, "Swedes", "Muscovites"),
    ]
    seed = rows[0]
    assert (seed["white_won"], seed["black_won"], seed["drawn"], seed["unfinished"]) == (3, 2, 0, 20)
    assert seed["shares"] == {"white_won": 12.0, "black_won": 8.0, "drawn": 0.0, "unfinished": 80.0}


def test_top_keeps_the_games_or_variants_of_most_records(samples):
    """As it keeps the variants of most records: the library's `top` and `stats --top` alike (the
    samples' 11 variants were all shown whatever --top said)."""
    assert [row["value"] for row in samples.stats(by="variant")["results_by"]["rows"]][-2:] == [None, "chess"]
    assert [row["value"] for row in samples.stats(by="variant", top=3)["results_by"]["rows"]] == [
        "tablut/seed",
        "laquet/seed",
        "latrunculi/seneca",
    ]
    shown = results_table(samples, "game", "--top", "2")
    assert [line.split()[:2] for line in shown[2:4]] == [["tablut", "32"], ["latrunculi", "29"]]
    # the rows past --top fold into one, as the other tables' do (they were dropped unsaid until session 49)
    assert shown[4:] == ["(3 other games)         20"]  # laquet's 18, chess's and one of no game
    assert samples.stats(by="variant", top=3)["results_by"]["more_rows"] == {"rows": 9, "records": 27}
    assert samples.stats(by="variant", top=12)["results_by"]["more_rows"] == {"rows": 0, "records": 0}


def test_top_help_says_which_tables_fold_the_rows_past_it(samples):
    """`--top`'s help said "the others in one row" of every table (hints-49b), the players' too, which
    leaves them out (a game has two players: their records add up to no count of records)."""
    players = run("stats", "--db", samples.path, "--top", "1").stdout.split("\n\n")[-2].splitlines()
    assert players == ["player           games", "-------------  -------", "Karin Nilsson        4"]  # (no fold row;
    # a record of `random` against `random` is a game of neither, as `players list` counts them)
    shown = " ".join(run("stats", "--help").stdout.split())
    assert "with the most records (the others in one row, but the players': a game has two)." in shown


def test_results_by_game_add_up_to_the_results_of_the_records_of_a_game(samples):
    figures = samples.stats(by="game", filters=Filters(valid=True))
    rows = figures["results_by"]["rows"]
    assert [(row["value"], row["records"]) for row in rows] == [("tablut", 7), ("latrunculi", 5), ("laquet", 2)]
    results = {row["value"]: row["records"] for row in figures["results"]}
    assert sum(row["white_won"] for row in rows) == results["1-0"]
    assert sum(row["black_won"] for row in rows) == results["0-1"]
    assert sum(row["unfinished"] for row in rows) == results["*"]
    assert rows[0]["shares"] == {"white_won": 28.6, "black_won": 28.6, "drawn": 0.0, "unfinished": 42.8}


def test_each_row_says_its_invalid_records_and_the_rules_of_their_first_errors(samples):
    """New user 30: "what fraction of each aagenielsen.dk type is invalid, and why" took a
    `stats --variant V --invalid` for each of 163 types. The counts agree with those of the
    variant's own `stats`; of as many records, a rule before another by name (T3, T4)."""
    rows = {row["value"]: row for row in samples.stats(by="variant", top=20)["results_by"]["rows"]}
    seed = rows["tablut/seed"]
    assert (seed["invalid"], seed["invalid_percent"]) == (19, 76.0)
    assert seed["first_error_rules"] == [
        {"value": "T2", "records": 5},
        {"value": "tag", "records": 3},
        {"value": "T3", "records": 2},
    ]
    alone = samples.stats(filters=Filters(variant="tablut/seed"))
    assert alone["invalid"] == seed["invalid"]
    assert alone["first_error_rules"][:3] == seed["first_error_rules"]
    linnaeus = rows["tablut/linnaeus"]
    assert (linnaeus["invalid"], linnaeus["invalid_percent"], linnaeus["first_error_rules"]) == (0, 0.0, [])


def test_rules_of_as_many_first_errors_are_listed_by_name_whatever_order_the_records_come_in(tmp_path):
    """A row's first error rules of as many records come by name (`T2` before `syntax`), though the record whose
    first error is `syntax` (no result marker: no result, read first) comes before the other (h81c: listed in the
    order read, unseen, the samples' ties coming in that order already)."""
    torn = '[Game "tablut"]\n\n1. e3-f3 d1-d3\n2. f3-f1\n'
    illegal = '[Game "tablut"]\n\n1. e3-f3 d1-d3\n2. f3-f1 *\n'
    archive = Archive(str(tmp_path / "a.db"))
    assert archive.import_paths([f"{torn}\n{illegal}"]).added == 2
    [row] = archive.stats(by="variant")["results_by"]["rows"]
    assert (row["value"], row["invalid"]) == ("tablut/seed", 2)
    assert row["first_error_rules"] == [{"value": "T2", "records": 1}, {"value": "syntax", "records": 1}]


@pytest.mark.parametrize("top", [3, 10])
def test_every_grouping_adds_up_to_the_records(samples, top):
    """Session 48: the board table had no row for the records of no board (Laquet's, and those not
    read), the first error rules stopped at --top, and --by board and game left records out: each
    table now has a row for what its records lack, and folds the rest past --top into one, so
    that each adds up to the records (the first errors, to the invalid ones)."""
    figures = samples.stats(by="board", top=top)
    total = figures["records"]

    def summed(key: str) -> int:
        return sum(row["records"] for row in figures[key]) + figures.get(f"more_{key}", {}).get("records", 0)

    assert [summed(key) for key in ("games", "variants", "boards", "results", "endings")] == [total] * 5
    assert figures["boards"] == [
        {"value": None, "records": 30},  # `(no board)`: Laquet's 18, and those not read
        {"value": "9x9", "records": 26},
        {"value": "8x8", "records": 25},
    ]
    assert summed("first_error_rules") == figures["invalid"] == 67
    assert len(figures["first_error_rules"]) == top
    assert figures["more_first_error_rules"]["first_error_rules"] == 29 - top
    by_board = {row["value"]: row["records"] for row in figures["results_by"]["rows"]}
    assert by_board == {"8x8": 25, "9x9": 26, None: 30}
    for by in ("game", "variant"):
        rows = samples.stats(by=by, top=50)["results_by"]["rows"]
        assert sum(row["records"] for row in rows) == total, by
        assert {"value": None, "records": 1} in [{"value": r["value"], "records": r["records"]} for r in rows], by


def test_a_catalogue_entry_played_by_a_rules_tag_has_its_own_results(tmp_path):
    """As the variants' counts tell Tablut's aage with `Rules "first=white"` apart."""
    (tmp_path / "aage.lgn").write_text(AAGE)
    archive = Archive(str(tmp_path / "aage.db"))
    archive.import_paths([str(tmp_path / "aage.lgn")])
    figures = archive.stats(by="variant")
    rows = [(row["value"], row["records"], row["white_won"], row["black_won"]) for row in figures["results_by"]["rows"]]
    assert rows == [("tablut/saami-tablut-w", 2, 1, 1), ("tablut/aage", 1, 0, 1)]
    assert [(row["value"], row["records"]) for row in figures["variants"]] == [(name, n) for name, n, *_ in rows]


SEA_BATTLE = """[Game "hnefatafl"]
[Variant "sea-battle-t-9x9"]
[Result "0-1"]

0-1
"""


def test_results_by_board_name_each_side_as_the_games_on_it_do(tmp_path):
    """New user 38: "how often do attackers win per board size" took SQL that knew 0-1 to be the
    attackers' win. A board's row holds every game played on it (Tablut's 4 sample games and a Sea
    battle 9x9), its sides named as each game names them; the records of no board (Laquet's) in a row
    `(no board)` of their own, so that the rows add up to the records."""
    (tmp_path / "sea.lgn").write_text(SEA_BATTLE)
    archive = Archive(str(tmp_path / "boards.db"))
    archive.import_paths([str(ROOT / "samples/tablut"), str(ROOT / "samples/laquet"), str(tmp_path / "sea.lgn")])
    assert results_table(archive, "board") == [
        "board         records  White             White won    Black                 Black won    drawn    unfinished"
        "      mean plies    median plies  invalid    first errors",
        "----------  ---------  ----------------  -----------  --------------------  -----------  -------  ------------"
        "  ------------  --------------  ---------  --------------",
        "9x9                 5  defenders/Swedes  40.0%        attackers/Muscovites  60.0%        0.0%     0.0%        "
        "          17.4             9.0  0.0%",
        "(no board)          2  White             100.0%       Black                 0.0%         0.0%     0.0%        "
        "          51.0            51.0  0.0%",
    ]
    (tablut,) = archive.stats(by="board", filters=Filters(game="tablut"))["results_by"]["rows"]
    assert (tablut["value"], tablut["white"], tablut["black"], tablut["plies"]) == (
        "9x9",
        "Swedes",
        "Muscovites",
        {"mean": 21.8, "median": 9.0, "max": 60},
    )


ALIKE = """[Game "tablut"]
[Result "0-1"]

0-1

[Game "copenhagen"]
[Result "1-0"]

1-0

[Game "hnefatafl"]
[Variant "sea-battle-tafl-11x11"]
[Result "1-0"]

1-0
"""


def test_a_boards_sides_name_each_game_once_however_alike_their_records(tmp_path):
    """Review 38: a board's records of two games alike in all but their game (9x9: Tablut's and
    Sea battle's 0-1 of no ply) still name both games' sides; two games that name a side alike
    (11x11: Copenhagen and Hnefatafl) name it once, not `defenders/defenders`."""
    (tmp_path / "alike.lgn").write_text(ALIKE + "\n" + SEA_BATTLE)
    archive = Archive(str(tmp_path / "alike.db"))
    archive.import_paths([str(tmp_path / "alike.lgn")])
    rows = archive.stats(by="board")["results_by"]["rows"]
    assert [(row["value"], row["records"], row["white"], row["black"]) for row in rows] == [
        ("11x11", 2, "defenders", "attackers"),
        ("9x9", 2, "defenders/Swedes", "attackers/Muscovites"),
    ]


def test_a_rows_sides_name_its_games_in_the_order_of_their_names_whatever_order_they_come_in():
    """The games of a row are a set, whose order Python's hashes of strings change from run to run: the sides are
    named in the order of the games' names (h81c: the test above caught the games left unsorted in about half the
    runs alone), a game of no name (None, a refused type's: `None`, first) and one lusoria does not know as White, Black."""
    swedes = ("defenders/Swedes", "attackers/Muscovites")
    assert _sides(["tablut", "hnefatafl"]) == _sides(["hnefatafl", "tablut"]) == swedes
    assert _sides(["tablut", None, "copenhagen"]) == ("White/defenders/Swedes", "Black/attackers/Muscovites")
    assert _sides(["tablut", "chess"]) == ("White/Swedes", "Black/Muscovites")


def test_each_rows_plies_are_those_of_its_records_alone(samples):
    """A row's mean, median and longest are what `stats` of its records alone says: each game's and
    board's, and the variants' of most records (not the rows of no game or board, which no filter chooses)."""
    rows = [(by, row) for by in BY for row in samples.stats(by=by, top=20)["results_by"]["rows"] if row["value"]]
    chosen = [(by, row) for by, row in rows if by != "variant" or row["value"] in ("tablut/seed", "laquet/seed")]
    assert len(chosen) == 8
    for by, row in chosen:
        assert row["plies"] == samples.stats(filters=Filters(**{by: row["value"]}))["plies"], (by, row["value"])


def test_the_plies_mean_and_median_round_a_half_up():
    """As SQLite's round, which gave the figures before (Python's round(2.25, 1) is 2.2)."""
    assert _plies(Counter({1: 2, 2: 1, 5: 1})) == {"mean": 2.3, "median": 1.5, "max": 5}
    assert _plies(Counter({3: 1})) == {"mean": 3.0, "median": 3.0, "max": 3}
    assert _plies(Counter()) == {"mean": None, "median": None, "max": None}


def test_another_grouping_is_refused(cup):
    with pytest.raises(ValueError, match="by game or variant or board, not 'site'"):
        cup.stats(by="site")
    refused = run("stats", "--db", cup.path, "--by", "site")
    assert refused.exit_code == 2 and "'site' is not one of 'game', 'variant', 'board'" in refused.output


@pytest.mark.parametrize("by", ["player", "Players"])
def test_results_by_player_are_said_to_be_the_score_table(cup, by):
    """An organiser's standings: `stats --by player` names the commands that give them (it said only
    that player is not one of game, variant)."""
    refused = run("stats", "--db", cup.path, "--by", by)
    assert refused.exit_code == 2
    assert refused.output.splitlines()[-1] == (
        f"Error: Invalid value for '--by': '{by}' is not one of 'game', 'variant', 'board': each player's games won, drawn "
        "and lost are lusoria players (the score table) and lusoria players crosstable"
    )


@pytest.mark.parametrize("by", ["type", "GameType"])
def test_results_by_game_type_are_said_to_be_by_variant(cup, by):
    """A researcher of aagenielsen.dk's types wrote `stats --by type`: a type is a variant of its game."""
    refused = run("stats", "--db", cup.path, "--by", by)
    assert refused.exit_code == 2
    assert refused.output.splitlines()[-1] == (
        f"Error: Invalid value for '--by': '{by}' is not one of 'game', 'variant', 'board': a game type (GameType, "
        "an aagenielsen.dk or OpenTafl type) is read as a variant of its game: --by variant"
    )


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 10_000), min_size=1, max_size=6).filter(any))
def test_shares_add_up_to_a_hundred_and_are_each_within_a_tenth(counts):
    shares = _percentages(counts)
    assert sum(round(share * 10) for share in shares) == 1000
    assert all(abs(share - 100 * count / sum(counts)) < 0.1 for share, count in zip(shares, counts))


def test_shares_round_the_largest_remainders_up():
    assert _percentages([2, 2, 2, 1]) == [28.6, 28.6, 28.5, 14.3]
    assert _percentages([1, 2]) == [33.3, 66.7]
    assert _percentages([5, 0]) == [100.0, 0.0]


def test_the_median_has_one_format_for_an_odd_and_an_even_count(cup):
    odd = cup.stats()["plies"]
    even = cup.stats(filters=Filters(result="1/2-1/2"))["plies"]
    assert type(odd["median"]) is type(even["median"]) is float
    first = run("stats", "--db", cup.path).output.splitlines()[0]
    assert (
        first
        == f"7 records: 7 valid, 0 invalid; plies: mean {odd['mean']}, median {odd['median']:.1f}, max {odd['max']}"
    )


def test_the_option_offers_the_groupings_of_the_library():
    (option,) = [param for param in main.commands["stats"].params if param.name == "by"]
    assert tuple(option.type.choices) == BY
