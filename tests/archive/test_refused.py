"""The archive keeps what it could not check: a record of a game type no reader knows keeps its
players, type, site id, result and file, so queries and stats find and label it; "unparsable"
counts only what did not parse."""

import json
import re
import sys
from collections import Counter
from contextlib import closing

from click.testing import CliRunner
from conftest import ROOT, connect

from lusoria.archive import Archive, Filters
from lusoria.archive.query import build
from lusoria.cli import main
from lusoria.formats import read_text

sys.path.insert(0, str(ROOT / "tests" / "validator"))
from test_hnefatafl import catalogue_with  # the catalogue with more entries, for a test

TYPE = "Imaginary Hnefatafl 13x13"


def scrape(tmp_path):
    """Two refused games of one type (the same players and winner, other moves), one of another, a
    Brandubh game of a known type and a broken file."""
    games = [
        ("Ann", "Bo", TYPE, "White", "game-61-1-7001.json"),
        ("Ann", "Bo", TYPE, "White", "game-61-2-7002.json"),
        ("Cy", "Ann", "Imaginary Tafl 15x15", "Black", "game-62-1-7003.json"),
        ("Di", "Ann", "Historical Hnefatafl 7x7 (Irish Brandubh 1)", "Black", "game-30-1-7004.json"),
    ]
    for number, (white, black, kind, winner, name) in enumerate(games):
        key = int(name.split("-")[1])
        (tmp_path / name).write_text(
            json.dumps(
                {
                    "WhiteSidePlayerName": white,
                    "BlackSidePlayerName": black,
                    "AageGameTypeKey": key,
                    "AageGameTypeName": kind,
                    "WhoMovedFirst": "black",
                    "Moves": ["d2-b2", "c4-c5"][: 1 + (number != 1)],
                    "WhoWon": winner,
                }
            )
        )
    (tmp_path / "broken.json").write_text('{"AageGameTypeName": "x", "Moves": [')
    return tmp_path


def test_refused_records_keep_their_players_type_site_id_and_file(tmp_path):
    db = str(tmp_path / "a.db")
    summary = Archive(db).import_paths([str(scrape(tmp_path))])
    assert (summary.added, summary.duplicates, summary.invalid, summary.unparsable) == (5, 0, 4, 1)
    archive = Archive(db)
    ann = archive.query(Filters(player="Ann"))
    assert [(row["game"], row["white"], row["black"], row["result"], row["plies"], row["valid"]) for row in ann] == [
        ("brandubh", "Di", "Ann", "0-1", 2, 1),
        (f"{TYPE} (refused)", "Ann", "Bo", "1-0", 0, 0),
        (f"{TYPE} (refused)", "Ann", "Bo", "1-0", 0, 0),
        ("Imaginary Tafl 15x15 (refused)", "Cy", "Ann", "0-1", 0, 0),
    ]  # in the order of their files, those refused labelled by their type as `stats` counts them
    first = ann[1]["id"]
    tags = {
        row["name"]: row["value"]
        for row in archive.sql(
            f"SELECT name, value FROM tags WHERE record_id = {first} AND name IN "
            "('GameType', 'SiteGameId', 'Site', 'SourceFormat')"
        )
    }
    assert tags == {"GameType": TYPE, "SiteGameId": "7001", "Site": "aagenielsen.dk", "SourceFormat": "aage"}
    assert archive.sql(f"SELECT path, first_rule, ending FROM records WHERE id = {first}") == [
        {"path": str(tmp_path / "game-61-1-7001.json"), "first_rule": "tag", "ending": "unknown"}
    ]
    # its text as written, for a later lusoria to read (not lusoria's notation of a record of no game)
    written = (tmp_path / "game-61-1-7001.json").read_text()
    assert archive.sql(f"SELECT text FROM record_texts WHERE id = {first}") == [{"text": written + "\n"}]
    assert len(archive.query(Filters(tags=[("GameType", TYPE)]))) == 2
    figures = archive.stats()
    assert figures["games"] == [
        {"value": f"{TYPE} (refused)", "records": 2},
        {"value": None, "records": 1},
        {"value": "Imaginary Tafl 15x15 (refused)", "records": 1},
        {"value": "brandubh", "records": 1},
    ]
    assert figures["variants"][:3] == figures["games"][:3]
    every = archive.query(Filters())
    assert sorted(Counter(row["game"] for row in every).items(), key=repr) == sorted(
        ((game["value"], game["records"]) for game in figures["games"]), key=repr
    )  # each record's game in `query` is the label `stats` counts it under
    shown = CliRunner().invoke(main, ["stats", "--db", db]).stdout
    assert f"{TYPE} (refused)          2" in shown
    assert "(no game)                                    1" in shown.splitlines()  # broken.json: a blank cell before
    assert "(no result)          1" in shown.splitlines()
    table = CliRunner().invoke(main, ["query", "--db", db, "--player", "Cy"]).stdout.splitlines()
    assert table[0].split()[:2] == ["id", "game"]
    assert table[2].split()[1:6] == ["Imaginary", "Tafl", "15x15", "(refused)", "Cy"]


def test_stats_with_filters_count_the_refused_records_they_match_alone(tmp_path):
    """The records of no game, by their refused type or unparsable, are counted among those the
    filters match, as the others are (a mutant that counted every refused record passed)."""
    db = str(tmp_path / "a.db")
    Archive(db).import_paths([str(scrape(tmp_path))])
    archive = Archive(db)
    games = {player: archive.stats(filters=Filters(player=player))["games"] for player in ("Bo", "Cy", "Di", "Ann")}
    assert games == {
        "Bo": [{"value": f"{TYPE} (refused)", "records": 2}],
        "Cy": [{"value": "Imaginary Tafl 15x15 (refused)", "records": 1}],
        "Di": [{"value": "brandubh", "records": 1}],
        "Ann": [
            {"value": f"{TYPE} (refused)", "records": 2},
            {"value": "Imaginary Tafl 15x15 (refused)", "records": 1},
            {"value": "brandubh", "records": 1},
        ],
    }
    assert archive.stats(filters=Filters(valid=False))["games"][1] == {"value": None, "records": 1}  # broken.json


def test_a_refused_record_imported_again_is_a_duplicate(tmp_path):
    db = str(tmp_path / "a.db")
    Archive(db).import_paths([str(scrape(tmp_path))])
    again = Archive(db).import_paths([str(tmp_path / "game-61-1-7001.json")])
    assert (again.added, again.duplicates) == (0, 1)


def test_query_as_lgn_writes_the_records_in_lusorias_notation_and_names_those_it_leaves_out(tmp_path):
    """A refused or unparsable record of another format keeps its text as written (a later lusoria
    may read it): `query --format lgn` leaves it out of the lgn it writes, naming it, exit 1."""
    db = str(tmp_path / "a.db")
    Archive(db).import_paths([str(scrape(tmp_path))])
    result = CliRunner().invoke(main, ["query", "--db", db, "--format", "lgn"])
    assert result.exit_code == 1
    assert result.stdout.count('[Game "brandubh"]') == 1
    assert result.stdout.startswith("[") and '"Moves"' not in result.stdout
    left_out = result.stderr.splitlines()
    assert len(left_out) == 4
    assert all(
        line.startswith(f"lusoria: {tmp_path}") and "left out: it is kept as written in aage, as lgn would not" in line
        for line in left_out
    )
    assert all(
        re.search(
            r"(\S+\.json):1: the archive's record (\d+) left out: .*; lusoria import \1 reads it .* WHERE id = \2' shows it$",
            line,
        )
        for line in left_out
    )
    assert sorted(line.split(":1: the archive's record ")[0].rsplit("/", 1)[1] for line in left_out) == [
        "broken.json",
        "game-61-1-7001.json",
        "game-61-2-7002.json",
        "game-62-1-7003.json",
    ]
    written = tmp_path / "out.lgn"
    written.write_text(result.stdout)
    assert CliRunner().invoke(main, ["validate", str(written)]).exit_code == 0
    brandubh = CliRunner().invoke(main, ["query", "--db", db, "--format", "lgn", "--game", "brandubh"])
    assert (brandubh.exit_code, brandubh.stderr) == (0, "")


REFUSED_ENTRY = (
    '[[variant]]\nname = "toy-refused-7x7"\ntitle = "Toy refused 7×7"\n'
    'rules = "dim:7 esc:c start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/"\n'
    'aagenielsen = ["Toy refused 7x7"]\naagenielsen_ids = [977]\n'
    'refused = "its rules are not known well enough to lusoria"\n'
)


def test_a_type_the_catalogue_refuses_keeps_its_players_and_has_one_summary_line(tmp_path, monkeypatch):
    """A game type the catalogue knows but lusoria does not play (its entry's `refused`) is refused as an
    unknown one is: the record keeps its players, type, site id and result, counted refused, not
    unparsable; one line a type on standard error gives the entry's reason, once."""
    games = tmp_path / "games"
    games.mkdir()
    for number in (1, 2):
        game = {
            "WhiteSidePlayerName": "Ann",
            "BlackSidePlayerName": f"Bo {number}",
            "AageGameTypeKey": 977,
            "AageGameTypeName": "Toy refused 7x7",
            "WhoMovedFirst": "black",
            "Moves": ["d7-f7", "d5-e5"],
            "WhoWon": "Black",
        }
        (games / f"game-977-{number}-{8000 + number}.json").write_text(json.dumps(game))
    db = str(tmp_path / "a.db")
    with catalogue_with(tmp_path, monkeypatch, REFUSED_ENTRY):
        result = CliRunner().invoke(main, ["validate", "--jobs", "1", str(games)])
        summary = Archive(db).import_paths([str(games)])
        given = CliRunner().invoke(main, ["validate", "--jobs", "1", "--game", "brandubh", str(games)])
    assert (given.exit_code, given.stderr) == (0, "")  # the reading options give the rules: read, not refused
    assert given.stdout == "2 records: 2 valid, 0 invalid (0 errors, 0 warnings)\n"
    reason = "Toy refused 7×7: its rules are not known well enough to lusoria"
    assert result.exit_code == 1
    assert result.stdout.count(f"error[tag]: {reason}\n") == 2
    assert result.stderr == f"lusoria: note: 2 records of type 'Toy refused 7x7' refused: {reason}\n"
    assert (summary.added, summary.invalid, summary.unparsable) == (2, 2, 0)
    archive = Archive(db)
    assert [
        (row["game"], row["white"], row["black"], row["result"]) for row in archive.query(Filters(player="Ann"))
    ] == [
        ("Toy refused 7x7 (refused)", "Ann", "Bo 1", "0-1"),
        ("Toy refused 7x7 (refused)", "Ann", "Bo 2", "0-1"),
    ]
    assert archive.stats()["games"] == [{"value": "Toy refused 7x7 (refused)", "records": 2}]
    assert [row["value"] for row in archive.sql("SELECT value FROM tags WHERE name = 'SiteGameId'")] == ["8001", "8002"]


def test_an_otn_game_whose_rules_lusoria_does_not_play_keeps_its_players_under_its_variant(tmp_path):
    """An OpenTafl game with guards (refused by name) was an unparsable blank row: it keeps its
    players, result and source file, its variant's name as its type; one line on standard error."""
    game = (
        "[variant:Guard Tafl]\n[attackers:Ann]\n[defenders:Bo]\n[result:1]\n"
        "[rules:dim:9 atkf:y start:/3tgt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/]\n\n1. e2-b2 e3-d3\n"
    )
    (tmp_path / "games").mkdir()
    (tmp_path / "games" / "guard.otg").write_text(game)
    result = CliRunner().invoke(main, ["validate", str(tmp_path / "games")])
    why = (
        "rules entry start: 'g' is not a piece lusoria plays (t, T, K, commanders c C, knights n N, "
        "mercenaries m M): guards are not supported"
    )
    assert f"guard.otg:5:21: error[tag]: {why}\n" in result.stdout
    assert result.stderr == f"lusoria: note: 1 record of type 'Guard Tafl' refused: {why}\n"
    db = str(tmp_path / "a.db")
    summary = Archive(db).import_paths([str(tmp_path / "games")])
    assert (summary.added, summary.invalid, summary.unparsable) == (1, 1, 0)
    archive = Archive(db)
    [row] = archive.query(Filters(player="Ann"))
    assert (row["game"], row["white"], row["black"], row["result"], row["plies"]) == (
        "Guard Tafl (refused)",
        "Bo",
        "Ann",
        "0-1",
        0,
    )
    assert archive.stats()["games"] == [{"value": "Guard Tafl (refused)", "records": 1}]
    unnamed = game.replace("[variant:Guard Tafl]\n", "")
    [source] = read_text(unnamed, "otn", "m.otg")
    assert source.parsed.tags["GameType"] == "dim:9 atkf:y start:/3tgt3/4t4/4T4/t3T3t/…"


def test_a_query_reads_whether_a_record_is_kept_as_written_from_its_row(tmp_path):
    """Whether its text is lgn is the record's `written_in`: a query looks no tag up (looked up in
    `other_tags`, once a record, `query` took 4 s on 3,000 refused records of 6,000)."""
    db = str(tmp_path / "a.db")
    Archive(db).import_paths([str(scrape(tmp_path))])
    conn = connect(db)
    sql, params = build(Filters())
    plan = [detail for *_, detail in conn.execute(f"EXPLAIN QUERY PLAN {sql}", params)]
    kept = conn.execute("SELECT id, written_in FROM records ORDER BY id").fetchall()
    conn.close()
    assert [detail for detail in plan if "records" not in detail] == [
        "CORRELATED SCALAR SUBQUERY 1",  # the first error's message: the record's diagnostics, by its id
        "SEARCH diagnostics USING INDEX sqlite_autoindex_diagnostics_1 (record_id=?)",
        "USE TEMP B-TREE FOR ORDER BY",
    ]
    assert kept == [(1, "aage"), (2, None), (3, "aage"), (4, "aage"), (5, "aage")]  # the brandubh game: lgn


def test_an_upgraded_archive_keeps_the_endings_of_the_records_kept_as_written(tmp_path):
    """An upgrade replays each stored text: a refused aagenielsen.dk game, kept as written, was read
    as lgn and became `unfinished`, though its import had found it `unknown` (a result and no ply to
    explain it). A CSV row, which its format cannot read alone, keeps what its import found."""
    (tmp_path / "copenhagen.csv").write_text('moves,defenders lost,attackers lost,status\n"d1-d3 zz9-q",0,0,x\n')
    db = str(tmp_path / "a.db")
    Archive(db).import_paths([str(scrape(tmp_path))])
    columns = "SELECT id, game, ending, board, rule_tags, valid FROM records ORDER BY id"
    with closing(connect(db)) as conn:
        imported = conn.execute(columns).fetchall()
        conn.execute("DROP INDEX idx_records_board")
        conn.execute("ALTER TABLE records DROP COLUMN board")
        conn.execute("PRAGMA user_version = 16")
    assert Counter(ending for _, _, ending, *_ in imported) == Counter({"unknown": 4, "unfinished": 2})
    list(Archive(db).query(Filters()))  # opening it upgrades it
    with closing(connect(db)) as conn:
        assert conn.execute(columns).fetchall() == imported


def test_stats_by_game_or_variant_has_a_row_for_each_refused_type(tmp_path):
    """`stats --by` left the refused records out though `stats` counts them under their type."""
    db = str(tmp_path / "a.db")
    Archive(db).import_paths([str(scrape(tmp_path))])
    for by in ("game", "variant"):
        rows = Archive(db).stats(by=by)["results_by"]["rows"]
        assert [(row["value"], row["white"], row["black"], row["white_won"], row["black_won"]) for row in rows] == [
            (f"{TYPE} (refused)", "White", "Black", 2, 0),
            (None, "White", "Black", 0, 0),  # broken.json: of no game, not read (`(no game)`; session 48)
            ("Imaginary Tafl 15x15 (refused)", "White", "Black", 0, 1),
            ("brandubh" if by == "game" else "brandubh/standard", "defenders", "attackers", 0, 1),
        ]
    assert [
        row["value"] for row in Archive(db).stats(by="game", filters=Filters(player="Cy"))["results_by"]["rows"]
    ] == ["Imaginary Tafl 15x15 (refused)"]


def test_stats_by_board_counts_the_refused_records_under_no_board(tmp_path):
    """Review 38: a refused record's board is not known (its type's name is all it keeps): `stats
    --by board` has a row for the Brandubh record alone, as the board table counts it; since session
    48 the refused ones and the broken file are in the row of no board of each, so that both add up."""
    db = str(tmp_path / "a.db")
    Archive(db).import_paths([str(scrape(tmp_path))])
    figures = Archive(db).stats(by="board")
    assert figures["boards"] == [{"value": None, "records": 4}, {"value": "7x7", "records": 1}]
    rows = figures["results_by"]["rows"]
    assert [(row["value"], row["records"], row["white"], row["black_won"]) for row in rows] == [
        (None, 4, "White", 1),
        ("7x7", 1, "defenders", 1),
    ]


def test_a_game_or_variant_named_as_a_refused_type_says_which_filter_finds_its_records(tmp_path):
    """The label `query` and `stats` show (`Imaginary Tafl 15x15 (refused)`), copied into --game, or the type into
    --variant, was told the archive holds no record of it, `known: none` (h78b): it says that a filter of their
    type tag finds them, in any case."""
    db = str(tmp_path / "a.db")
    Archive(db).import_paths([str(scrape(tmp_path))])
    said = (
        "the archive's records of the type 'Imaginary Tafl 15x15' were refused (no game lusoria plays): no filter "
        "of a game or variant finds them, --tag 'GameType=Imaginary Tafl 15x15' does"
    )
    for option, name in (("--game", "imaginary tafl 15x15 (REFUSED)"), ("--variant", "Imaginary Tafl 15x15")):
        result = CliRunner().invoke(main, ["query", "--db", db, option, name])
        assert result.exit_code == 2 and said in " ".join(result.stderr.split()), result.stderr
    found = CliRunner().invoke(main, ["query", "--db", db, "--tag", "GameType=Imaginary Tafl 15x15"])
    assert found.exit_code == 0 and "Cy" in found.stdout
    unknown = CliRunner().invoke(main, ["query", "--db", db, "--game", "Imaginary Tafl 17x17"])
    assert "were refused" not in unknown.stderr
