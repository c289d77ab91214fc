"""A game's or variant's name given with spaces around it (`--variant ' Seed '`, a quoting slip) is
taken as the name, by every command and library call alike (`validator.games.name_given`): validate,
random and tree refused it, and the archive refused `--game ' tablut '`, while query and stats took a
padded --variant. So is a player's (`--player ' Jens Holm '` found no record), and every other value a
filter matches whole (`--site ' Uppsala '`, `--rule ' T4 '`), and a name `players merge` is given that no
record writes with spaces around it. A record's padded tag stays an error at its place."""

from pathlib import Path

import pytest
from click.testing import CliRunner

from lusoria import api
from lusoria.archive import Archive, Filters
from lusoria.cli import main

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = str(ROOT / "samples" / "tablut" / "escape.lgn")  # tablut, Variant seed: the archive's one record


@pytest.fixture(scope="module")
def db(tmp_path_factory):
    path = str(tmp_path_factory.mktemp("names") / "games.db")
    assert CliRunner().invoke(main, ["import", "--db", path, SAMPLE]).exit_code == 0
    return path


def output(*args: str) -> str:
    result = CliRunner().invoke(main, list(args))
    assert result.exit_code == 0, result.output
    return result.output


@pytest.mark.parametrize(
    "command",
    [
        ["validate", "--from", "tafl", "--game", "{game}", "--variant", "{variant}", "-"],
        ["random", "--game", "{game}", "--variant", "{variant}", "--max-plies", "4"],
        ["tree", "--db", "{db}", "--game", "{game}", "--variant", "{variant}"],
        ["query", "--db", "{db}", "--game", "{game}", "--variant", "{variant}", "--format", "json"],
        ["stats", "--db", "{db}", "--game", "{game}", "--variant", "{variant}"],
        ["export", "--db", "{db}", "--game", "{game}", "--variant", "{variant}", "--format", "csv", "{out}"],
    ],
)
def test_every_command_takes_a_name_with_spaces_around_it_as_the_name(command, db, tmp_path):
    def run(game: str, variant: str) -> str:
        args = [arg.format(db=db, game=game, variant=variant, out=tmp_path / game.strip()) for arg in command]
        result = CliRunner().invoke(main, args, input="e3-c3 d1-d3\n")
        assert result.exit_code == 0, result.output
        return result.output.replace(str(tmp_path / game.strip()), "OUT")

    assert run(" tablut ", " Seed ") == run("tablut", "Seed")
    assert run(" tablut\t", "seed ") == run("tablut", "seed")


@pytest.mark.parametrize(
    "command",
    [
        ["query", "--db", "{db}", "--player", "{name}", "--format", "json"],
        ["query", "--db", "{db}", "--white", "{name}", "--format", "json"],
        ["stats", "--db", "{db}", "--player", "{name}"],
        ["export", "--db", "{db}", "--player", "{name}", "--format", "csv", "{out}"],
        ["tree", "--db", "{db}", "--game", "tablut", "--player", "{name}"],
        ["players", "list", "--db", "{db}", "--player", "{name}"],
    ],
)
def test_every_command_takes_a_player_s_name_with_spaces_around_it_as_the_name(command, db, tmp_path):
    def run(name: str) -> str:
        out = tmp_path / name.strip().replace(" ", "_")
        result = CliRunner().invoke(main, [arg.format(db=db, name=name, out=out) for arg in command])
        nothing = command[0] == "export" and name == "Karin Nilssen"  # (an export of no record writes nothing)
        assert result.exit_code == nothing, result.output
        return result.output.replace(str(out), "OUT")

    found = run("Karin Nilsson")
    assert run(" Karin Nilsson ") == run("\tKarin Nilsson ") == found != run("Karin Nilssen")


@pytest.fixture(scope="module")
def blocked_db(tmp_path_factory):
    """An archive of escape.lgn and a record with a T2 error (its first ply blocked)."""
    folder = tmp_path_factory.mktemp("blocked")
    (folder / "blocked.lgn").write_text('[Game "tablut"]\n[Event "Blitz"]\n\n1. e3-e7 *\n', encoding="utf-8")
    path = str(folder / "games.db")
    assert CliRunner().invoke(main, ["import", "--db", path, SAMPLE, str(folder / "blocked.lgn")]).exit_code == 0
    return path


@pytest.mark.parametrize(
    ("option", "value", "other"),
    [("--event", "Club evening", "Club"), ("--site", "Uppsala", "Upsala"), ("--rule", "T2", "T4")],
)
def test_every_filter_of_a_whole_value_takes_it_with_spaces_around_it_as_the_value(option, value, other, blocked_db):
    def run(given: str) -> str:
        return output("query", "--db", blocked_db, option, given, "--format", "csv")

    found = run(value)
    assert len(found.splitlines()) == 2  # the header and the one record
    assert run(f" {value} ") == run(f"\t{value} ") == found != run(other) == run(f" {other} ")  # and a note's name


def test_the_library_s_filters_of_a_whole_value_take_it_with_spaces_around_it(blocked_db):
    def ids(filters: Filters) -> list[int]:
        return [row["id"] for row in Archive(blocked_db).query(filters)]

    assert ids(Filters(event=" Club evening ", site="Uppsala\t")) == ids(Filters(event="Club evening")) == [1]
    assert ids(Filters(event=" blitz")) == ids(Filters(rule=" T2 ")) == ids(Filters(rule="t2\t")) == [2]
    assert Filters(event=" Blitz ", site=" Uppsala", rule="T2 ") == Filters(event="Blitz", site="Uppsala", rule="T2")
    later = Filters()
    later.event = " Club evening "  # (set once made: h81a, matched as written, found nothing)
    assert (later.event, ids(later)) == ("Club evening", [1])


def test_the_library_takes_a_name_with_spaces_around_it_as_the_name(db):
    padded = {"Game": " tablut ", "Variant": " Seed ", "Rules": "first=white"}
    [verdict] = api.validate(["e3-c3 d1-d3\n"], format="tafl", tags=padded)
    assert (verdict.game, verdict.variant, verdict.valid) == ("tablut", "seed", True)
    assert api.reading_tags(padded) == {"Game": "tablut", "Variant": "Seed", "Rules": "first=white"}
    assert list(api.random_records(" tablut ", 1, tags={"Variant": " seed "}, max_plies=2)) == list(
        api.random_records("tablut", 1, tags={"Variant": "seed"}, max_plies=2)
    )
    assert api.game_tags(" tablut ", " seed ") == api.game_tags("tablut", "seed")
    assert api.variant_refused(" seed ", " tablut ") is None and api.variant_owners(" seed ") == api.variant_owners(
        "seed"
    )
    assert [row["id"] for row in Archive(db).query(Filters(game=" tablut ", variant="\tseed "))] == [1]
    assert Filters(game=" tablut ", variant=None) == Filters(game="tablut")
    assert [row["id"] for row in Archive(db).query(Filters(player=" Karin Nilsson "))] == [1]
    assert [row["id"] for row in Archive(db).query(Filters(white="Karin Nilsson\t", black=" Olof Berg"))] == [1]
    table = Archive(db).players(Filters(player=" Olof Berg "))
    assert [row["player"] for row in table] == ["Karin Nilsson", "Olof Berg"]


@pytest.fixture
def named_db(tmp_path):
    """An archive of escape.lgn (Karin Nilsson, Olof Berg) and a record of K. Nilsson and
    ' Olof Berg ', a name its record writes with spaces around it."""
    record = '[Game "tablut"]\n[White "K. Nilsson"]\n[Black " Olof Berg "]\n[Result "1-0"]\n\n1. e3-c3 1-0\n'
    (tmp_path / "padded.lgn").write_text(record, encoding="utf-8")
    path = str(tmp_path / "games.db")
    assert CliRunner().invoke(main, ["import", "--db", path, SAMPLE, str(tmp_path / "padded.lgn")]).exit_code == 0
    return path


def karin_s_games(db: str) -> list[int]:
    return [row["id"] for row in Archive(db).query(Filters(player="Karin Nilsson"))]


@pytest.mark.parametrize("names", [["K. Nilsson", " Karin Nilsson "], [" K. Nilsson", "Karin Nilsson\t"]])
def test_players_merge_takes_a_name_no_record_writes_padded_as_the_filters_take_it(names, named_db):
    result = CliRunner().invoke(main, ["players", "merge", "--db", named_db, *names])
    # no note: K. Nilsson is written
    assert (result.exit_code, result.output) == (0, f"{names[0]} → Karin Nilsson, the name kept\n")
    assert Archive(named_db).aliases() == [{"alias": "K. Nilsson", "name": "Karin Nilsson"}]
    assert karin_s_games(named_db) == [1, 2]


def test_players_merge_takes_a_name_a_record_writes_padded_as_written(named_db):
    assert output("query", "--db", named_db, "--player", "Olof Berg", "--format", "csv").count("\n") == 2
    assert Archive(named_db).merge_players([" Olof Berg "], "Olof Berg") == "Olof Berg"
    assert Archive(named_db).aliases() == [{"alias": " Olof Berg ", "name": "Olof Berg"}]
    assert [row["id"] for row in Archive(named_db).query(Filters(player=" Olof Berg"))] == [1, 2]


def test_players_merge_finds_a_padded_name_a_record_writes_in_any_case(named_db):
    """The archive matches names in any case: ' OLOF BERG ' is the name a record writes ' Olof Berg '."""
    archive = Archive(named_db)
    assert archive.unrecorded_players([" OLOF BERG ", " k. nilsson "]) == []
    assert archive.merge_players([" OLOF BERG "], "K. Nilsson") == "K. Nilsson"
    assert archive.aliases() == [{"alias": " OLOF BERG ", "name": "K. Nilsson"}]


def test_the_library_s_merge_takes_names_as_players_merge_does(named_db):
    archive = Archive(named_db)
    assert archive.unrecorded_players([" K. Nilsson", " Olof Berg ", "Olof Berg\t", " Ola ", "Ola"]) == ["Ola"]
    assert archive.merge_players([" K. Nilsson", " Olof Berg "], " Karin Nilsson ") == "Karin Nilsson"
    assert archive.aliases() == [
        {"alias": " Olof Berg ", "name": "Karin Nilsson"},
        {"alias": "K. Nilsson", "name": "Karin Nilsson"},
    ]


def test_a_record_s_padded_game_tag_is_still_an_error_at_its_place():
    report = api.check('[Game " tablut "]\n\n1. e3-c3 *\n')
    assert [(d.rule, d.line, d.column) for d in report.diagnostics] == [("tag", 1, 8)]
    assert report.diagnostics[0].message.startswith("unknown game ' tablut ' (known: ")
