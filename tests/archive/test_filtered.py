"""`stats` and `export` of part of an archive: with filters, the figures and the files of the
archive made of the matching records alone (the same filters as `query`, one definition)."""

import csv
import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import ROOT

from lusoria import api
from lusoria.archive import Archive, FilterError, Filters, NotADirectory, NothingSelected, checked_rows
from lusoria.archive.explorer import BadRequest, replay
from lusoria.cli import main
from lusoria.variants import variant_names

SAMPLES = str(ROOT / "samples")
ESCAPE = "p2ppp3/4p4/2P1P4/4Pp3/ppK2PPpp/p3P2p1/3PP4/4p4/3ppp3 b"
CASES = [
    Filters(player="Olof Berg"),
    Filters(variant="seed"),
    Filters(valid=False),
    Filters(position=ESCAPE),
    Filters(game="latrunculi", date_from="2026"),
    Filters(rule="Q6"),
    Filters(material=["king=0"], game="tablut"),
    Filters(text="escape"),
    Filters(ending="unfinished", limit=5),
    Filters(limit=3),  # the oldest three, which are not the first imported
    Filters(order="longest", limit=3),  # the three longest games
    Filters(player="nobody"),
    Filters(record_id=5),
]


def given(filters: Filters) -> str:
    """The filters set, as a test's id."""
    return ",".join(f"{name}={value}" for name, value in vars(filters).items() if value != getattr(Filters(), name))


@pytest.fixture(scope="module")
def whole(tmp_path_factory):
    """The samples, imported once."""
    archive = Archive(str(tmp_path_factory.mktemp("whole") / "whole.db"))
    assert archive.import_paths([SAMPLES]).added == 81
    return archive


def only_matching(whole: Archive, filters: Filters, folder: Path) -> Archive:
    """An archive made of the records of the samples that `filters` match in `whole` alone."""
    matching = {(row["path"], row["line"]) for row in whole.query(filters)}
    texts = [text for text in api.records([SAMPLES]) if (text.path, text.line) in matching]
    assert len(texts) == len(matching)
    part = Archive(str(folder / "part.db"))
    part.import_rows(checked_rows(texts))
    return part


@pytest.mark.parametrize("filters", CASES, ids=given)
def test_stats_with_filters_are_the_stats_of_the_matching_records_alone(whole, filters, tmp_path):
    part = only_matching(whole, filters, tmp_path)
    matched = len(whole.query(filters))
    if not matched:  # an archive of no record is none: its figures are those of nothing
        assert whole.stats(filters=filters)["records"] == 0
        return
    for top in (10, 2):
        assert whole.stats(top, filters) == part.stats(top)
    assert whole.stats(filters=filters)["records"] == matched < 81


def exported(archive: Archive, folder: Path, filters: Filters | None = None) -> dict[str, list[tuple]]:
    """The rows of each file of a CSV export, sorted, each record's id written as its hash (the
    ids of two archives differ)."""
    archive.export(str(folder), "csv", filters=filters)
    tables = {}
    for path in sorted(folder.glob("*.csv")):
        with open(path, newline="", encoding="utf-8") as file:
            tables[path.stem] = list(csv.DictReader(file))
    hashes = {row["id"]: row["hash"] for row in tables["records"]}
    for row in tables["records"]:
        row["id"] = row["hash"]
    for name in ("tags", "diagnostics", "plies", "variation_plies"):
        for row in tables[name]:
            row["record_id"] = hashes[row["record_id"]]
    return {name: sorted(tuple(row.values()) for row in rows) for name, rows in tables.items()}


@pytest.mark.parametrize("filters", CASES, ids=given)
def test_export_with_filters_is_the_export_of_the_matching_records_alone(whole, filters, tmp_path):
    """An export of the records the filters match is an export of an archive of those alone; of none, nothing
    is written (NothingSelected: an earlier export stays whole)."""
    part = only_matching(whole, filters, tmp_path)
    if not whole.query(filters):
        with pytest.raises(NothingSelected):
            exported(whole, tmp_path / "filtered", filters)
        assert not (tmp_path / "filtered").exists()
        return
    found = exported(whole, tmp_path / "filtered", filters)
    assert len(found["records"]) == len(whole.query(filters))
    assert found == exported(part, tmp_path / "part")


def test_export_with_filters_keeps_the_other_names_of_the_players_of_its_records(tmp_path):
    archive = Archive(str(tmp_path / "names.db"))
    archive.import_paths([SAMPLES])
    archive.merge_players(["O. Berg"], "Olof Berg")
    archive.merge_players(["K. N."], "Karin Nilsson")
    archive.merge_players(["Rando"], "random")
    counts = archive.export(str(tmp_path / "berg"), "csv", filters=Filters(white="Olof Berg", valid=True))
    with open(tmp_path / "berg" / "player_aliases.csv", newline="", encoding="utf-8") as file:
        aliases = list(csv.reader(file))
    # Olof Berg played White against Karin Nilsson only: both players' other names, not random's
    assert aliases == [["alias", "name"], ["K. N.", "Karin Nilsson"], ["O. Berg", "Olof Berg"]]
    assert counts["records"] == 1 and counts["player_aliases"] == 2
    assert archive.export(str(tmp_path / "all"), "csv")["player_aliases"] == 3


def test_export_with_filters_keeps_every_other_name_of_a_player_a_record_names_by_another(tmp_path):
    """A filtered export left out the other names of a player that no exported record writes:
    `O. Berg`, where the records write `Olof Berg`, both names of `Berg, Olof`."""
    archive = Archive(str(tmp_path / "names.db"))
    archive.import_paths([SAMPLES])
    archive.merge_players(["Olof Berg", "O. Berg"], "Berg, Olof")
    archive.merge_players(["Rando"], "random")
    archive.export(str(tmp_path / "berg"), "csv", filters=Filters(player="Olof Berg", game="tablut"))
    with open(tmp_path / "berg" / "player_aliases.csv", newline="", encoding="utf-8") as file:
        aliases = list(csv.reader(file))
    assert aliases == [["alias", "name"], ["O. Berg", "Berg, Olof"], ["Olof Berg", "Berg, Olof"]]


def test_stats_and_export_take_the_filter_options_of_query():
    def options(command: str) -> set[str]:
        context = main.make_context("lusoria", [command, "--help"], resilient_parsing=True)
        return {
            name
            for param in main.commands[command].get_params(context)
            for name in param.opts + param.secondary_opts
            if name != "--help"
        }

    filters = options("query") - {"--db", "--format"}
    assert "--player" in filters and "--position" in filters and "--records" in filters
    assert options("stats") == filters | {"--db", "--json", "--top", "--by"}
    assert options("export") == filters | {
        "directory",
        "--db",
        "--format",
        "--overwrite",
        "--jobs",
        "-j",
        "--force-jobs",
    }


ONE_FIELD_MORE = """
import dataclasses, sys
from lusoria.archive import query
annotator = query._filter(help="The Annotator tag (whole).", where=sys.argv.pop(1))
query.Filters = dataclasses.make_dataclass("Filters", [("annotator", "str | None", annotator)], bases=(query.Filters,))
from lusoria.cli import main
main(sys.argv[1:], prog_name="lusoria")
"""
BY_ANNOTATOR = "records.id IN (SELECT record_id FROM other_tags WHERE name = 'Annotator' AND value = ?)"


def test_a_filter_added_as_one_field_of_filters_is_an_option_of_every_command_with_filters(whole):
    """docs/design.md's recipe for a filter: one field of Filters, and nothing else in the code.
    Declared so (in a process of its own: the commands' options are made once a process), every
    command with filters takes its option, and it finds the records its condition holds."""

    def lusoria(*args: str) -> str:
        done = subprocess.run(
            [sys.executable, "-c", ONE_FIELD_MORE, BY_ANNOTATOR, *args], capture_output=True, text=True
        )
        assert done.returncode == 0, done.stderr
        return done.stdout

    for command in ("query", "stats", "tree", "export", "players list", "players crosstable"):
        assert "--annotator TEXT  " in lusoria(*command.split(), "--help"), command
    annotated = sorted(
        str(path) for path in Path(SAMPLES).rglob("*.lgn") if '[Annotator "lusoria samples"]' in path.read_text()
    )
    found = json.loads(lusoria("query", "--db", whole.path, "--annotator", "lusoria samples", "--format", "json"))
    assert annotated and sorted(row["path"] for row in found) == annotated
    assert lusoria("stats", "--db", whole.path, "--annotator", "nobody").startswith("0 records")


def test_the_commands_with_filters_are_the_library_calls_with_filters(whole, tmp_path):
    runner = CliRunner()
    shown = runner.invoke(main, ["stats", "--db", whole.path, "--json", "--player", "Olof Berg", "--top", "3"])
    assert shown.exit_code == 0
    assert json.loads(shown.stdout) == whole.stats(3, Filters(player="Olof Berg"))
    written = runner.invoke(
        main, ["export", str(tmp_path / "out"), "--db", whole.path, "--format", "csv", "--position", ESCAPE]
    )
    assert written.exit_code == 0 and written.stdout.splitlines()[:3] == [
        f"{tmp_path / 'out' / 'records.csv'}: 3 rows",
        f"{tmp_path / 'out' / 'tags.csv'}: 14 rows",
        f"{tmp_path / 'out' / 'diagnostics.csv'}: 2 rows",
    ]
    unfiltered = runner.invoke(main, ["stats", "--db", whole.path])
    assert unfiltered.stdout.startswith("81 records: 14 valid, 67 invalid")
    refused = runner.invoke(main, ["stats", "--db", whole.path, "--ending", "checkmate"])
    assert refused.exit_code == 2 and "Error: --ending is one of " in refused.stderr


def test_the_records_come_in_the_order_asked_and_the_limit_keeps_the_first(whole):
    """New user 30: "the longest valid Laquet games" took `lusoria sql … ORDER BY plies DESC`:
    `query` listed records oldest first only."""
    plies = [(row["id"], row["plies"]) for row in whole.query(Filters(game="laquet", valid=True, order="longest"))]
    assert plies == [(72, 51), (73, 51)]
    shortest = whole.query(Filters(game="tablut", valid=True, order="shortest", limit=2))
    assert [(row["id"], row["plies"]) for row in shortest] == [(48, 2), (62, 2)]
    newest = whole.query(Filters(game="tablut", order="newest", limit=4))
    assert [(row["id"], row["date"]) for row in newest] == [
        (80, "2026.??.??"),  # (played by the end of 2026)
        (81, "2026.11.21"),  # one date: the last imported first (they came oldest id first)
        (79, "2026.11.21"),
        (78, "2026.11.21"),
    ]
    oldest = whole.query(Filters(game="tablut", date_from="2026.11.21", date_to="2026.11.21"))
    assert [row["id"] for row in oldest] == [
        80,
        78,
        79,
        81,
    ]  # (80 may be of that day too), then the first imported first
    shown = CliRunner().invoke(main, ["query", "--db", whole.path, "--valid", "--order", "longest", "--limit", "2"])
    assert [line.split()[:2] + line.split()[-4:-2] for line in shown.output.splitlines()[2:]] == [  # (then path, line)
        ["77", "latrunculi", "761", "1"],
        ["76", "latrunculi", "474", "1"],
    ]
    assert whole.stats(filters=Filters(order="longest", limit=2))["plies"] == {
        "mean": 617.5,
        "median": 617.5,
        "max": 761,
    }
    with pytest.raises(FilterError, match="the order filter is one of oldest, newest, longest, shortest; not 'long'"):
        whole.query(Filters(order="long"))
    refused = CliRunner().invoke(main, ["query", "--db", whole.path, "--order", "long"])
    assert refused.exit_code == 2 and "'long' is not one of 'oldest', 'newest', 'longest', 'shortest'" in refused.output
    helped = CliRunner().invoke(main, ["query", "--help"]).output  # (it said "oldest first" alone)
    assert "  Find records in the archive; oldest first, or in the --order asked.\n" in helped


def test_stats_and_export_refuse_an_order_without_a_limit_where_it_would_change_nothing(whole, tmp_path):
    """`stats --order longest` counted every record as without it, and `export --order newest` wrote
    them by id: the order only chooses which records a limit keeps there, so it needs one; the refusal says why
    there, and what to write instead."""
    said = (
        "needs a limit (--limit) here: {}; it only chooses which records the limit keeps "
        "(--order longest --limit 100: the 100 longest). Leave it out, or give --limit N"
    ).format
    counted, table = said("the figures are the same in any order"), said("the table is the same in any order")
    written = said(
        "export writes the records by id in any order (to read them in one, sort the files, or use query --order)"
    )
    for call, refusal in (
        (lambda: whole.stats(filters=Filters(order="longest")), counted),
        (lambda: whole.export(str(tmp_path / "out"), "csv", filters=Filters(order="newest")), written),
        (
            lambda: whole.players(filters=Filters(order="longest")),
            table,
        ),  # (the library's: the CLI has no --order there)
        (lambda: whole.crosstable(filters=Filters(order="shortest")), table),
    ):
        with pytest.raises(FilterError) as refused:
            call()
        assert str(refused.value) == f"the order filter {refusal}"
    for command, refusal in ((["stats"], counted), (["export", str(tmp_path / "out"), "--format", "csv"], written)):
        refused = CliRunner().invoke(main, [*command, "--db", whole.path, "--order", "longest"])
        assert (refused.exit_code, refused.stderr.splitlines()[-1]) == (2, f"Error: --order {refusal}")
    assert not (tmp_path / "out").exists()
    kept = CliRunner().invoke(main, ["stats", "--db", whole.path, "--order", "longest", "--limit", "2"])
    assert kept.exit_code == 0 and kept.stdout.startswith("2 records: 2 valid, 0 invalid")


def test_export_into_a_file_says_so(whole, tmp_path):
    """`Archive.export(path)` where path is a file raised a bare NotADirectoryError."""
    taken = tmp_path / "taken"
    taken.write_text("mine\n")
    with pytest.raises(NotADirectory) as refused:
        whole.export(str(taken), "csv")
    assert str(refused.value) == f"{taken} is a file, not a directory: export writes its files into a directory"
    assert isinstance(refused.value, NotADirectoryError)  # as before: an OSError
    shown = CliRunner().invoke(main, ["export", str(taken), "--db", whole.path, "--format", "csv"])
    assert (shown.exit_code, shown.stdout) == (2, "")
    assert shown.stderr == f"lusoria: cannot write {taken}: not a directory\n"  # as any file it cannot write
    assert taken.read_text() == "mine\n"


@pytest.mark.parametrize("filters", [Filters(variant="unknown-name"), Filters(game="tablot", valid=True)], ids=given)
def test_a_game_or_variant_none_knows_is_said_by_the_library(whole, filters, tmp_path):
    """`Filters(variant="unknown-name")` found nothing, unsaid, where the CLI said why."""
    name = "variant" if filters.variant else "game"
    said = (
        f"the {name} filter names no {name} that lusoria knows, and the archive holds no record of the {name} "
        f"'{getattr(filters, name)}' (known: "
    )
    for call in (
        whole.query,
        lambda filters: whole.stats(filters=filters),
        whole.players,
        lambda filters: whole.export(str(tmp_path / "none"), "csv", filters=filters),
        lambda filters: whole.tree(ESCAPE, filters=filters),
    ):
        with pytest.raises(FilterError, match="^" + said.replace("(", r"\(")) as refused:
            call(filters)
        assert refused.value.filter == name
    assert not (tmp_path / "none").exists()
    shown = CliRunner().invoke(main, ["stats", "--db", whole.path, f"--{name}", getattr(filters, name)])
    assert shown.exit_code == 2 and f"Error: --{name} names no {name} that lusoria knows" in shown.stderr


SAAMI = (
    '[Game "tablut"]\n[Variant "aage"]\n[Rules "first=white"]\n[White "W"]\n[Result "*"]\n\n1. e3-c3 *\n\n'
    '[Game "tablut"]\n[Variant "aage"]\n[White "B"]\n[Result "*"]\n\n1... d1-d3 *\n\n'
    '[Game "tablut"]\n[Variant "seed"]\n[White "S"]\n[Result "*"]\n\n1... d1-d3 *\n'
)


@pytest.fixture
def saami(tmp_path):
    (tmp_path / "saami.lgn").write_text(SAAMI)
    archive = Archive(str(tmp_path / "saami.db"))
    assert archive.import_paths([str(tmp_path / "saami.lgn")]).added == 3
    return archive


@pytest.mark.parametrize(
    "variant, white",
    [
        ("saami-tablut-w", ["W"]),  # aage with first=white, as explain says
        ("Saami-Tablut", ["B"]),  # aage as it is: W's game is saami-tablut-w's, not its
        ("tablut/saami-tablut", ["B"]),
        ("aage", ["W", "B"]),
        ("tablut/seed", ["S"]),
        ("tablut/aage", ["B"]),  # as `stats` counts it (newcomer-53b: 385 where it counted 368)
        ("Historical Hnefatafl 9x9 (Saami Tablut-w)", ["W"]),  # the site's type names (new user 20: refused)
        ("historical hnefatafl 9x9 (saami tablut)", ["B"]),
        ("Historical Hnefatafl 9×9 (Saami Tablut)", ["B"]),  # as `explain` titles it (names-32: refused)
    ],
)
def test_a_variant_filter_takes_every_name_explain_knows(saami, variant, white):
    """`lusoria tree --variant saami-tablut-w` was refused, and `query` found nothing, although
    `lusoria explain saami-tablut-w` names that variant; so were the names other programs' files
    give a variant (aagenielsen.dk's game types), which `explain` knows too."""
    assert CliRunner().invoke(main, ["explain", variant]).exit_code == 0
    assert [row["white"] for row in saami.query(Filters(variant=variant))] == white
    assert saami.stats(filters=Filters(variant=variant))["records"] == len(white)


def test_a_known_variant_the_archive_holds_no_record_of_finds_none_unrefused(saami):
    """`tablut/linnaeus` is a name lusoria knows: no FilterError (as for a slip), though no record has it."""
    assert saami.query(Filters(variant="tablut/linnaeus")) == []
    assert saami.stats(filters=Filters(variant="tablut/linnaeus"))["records"] == 0


def test_the_tree_starts_from_the_rules_of_a_variant_named_as_explain_names_it(saami):
    shown = CliRunner().invoke(
        main, ["tree", "--db", saami.path, "--game", "tablut", "--variant", "saami-tablut-w", "--format", "json"]
    )
    assert shown.exit_code == 0, shown.output
    assert [(node["ply"], node["games"]) for node in json.loads(shown.stdout)] == [("e3-c3", 1)]
    other = CliRunner().invoke(main, ["tree", "--db", saami.path, "--game", "laquet", "--variant", "saami-tablut-w"])
    assert other.exit_code == 2
    assert "Invalid value for --variant: saami-tablut-w is a variant of tablut, not of laquet" in other.stderr


@pytest.mark.parametrize(
    "game, variant, games",
    [
        ("copenhagen", "saami-tablut-w", "tablut"),
        ("laquet", "tablut/aage", "tablut"),
        ("tablut", "seneca", "latrunculi"),
    ],
)
def test_a_variant_of_another_game_than_the_game_filter_is_refused_as_tree_refuses_it(
    saami, tmp_path, game, variant, games
):
    """`query --game copenhagen --variant saami-tablut-w` found nothing and said nothing, while
    `tree` refused the pair."""
    filters = Filters(game=game, variant=variant)
    for call in (
        saami.query,
        lambda filters: saami.stats(filters=filters),
        saami.players,
        lambda filters: saami.export(str(tmp_path / "none"), "csv", filters=filters),
        lambda filters: saami.tree("9/9/9/9/4K4/9/9/9/9 b", filters=filters),
    ):
        with pytest.raises(FilterError) as refused:
            call(filters)
        assert str(refused.value) == f"the variant filter names {variant}, a variant of {games}, not of {game}"
    runner, options = CliRunner(), ["--db", saami.path, "--game", game, "--variant", variant]
    for command in (["query"], ["stats"], ["players", "list"], ["export", str(tmp_path / "none")]):
        shown = runner.invoke(main, [*command, *options])
        assert (shown.exit_code, shown.stdout) == (2, "")
        assert shown.stderr.endswith(f"Error: --variant names {variant}, a variant of {games}, not of {game}\n")
    tree = runner.invoke(main, ["tree", *options])
    assert (
        tree.exit_code == 2
        and f"Invalid value for --variant: {variant} is a variant of {games}, not of {game}\n" in tree.stderr
    )
    assert not (tmp_path / "none").exists()
    assert saami.query(Filters(game="tablut", variant="saami-tablut-w"))  # its own game's: found


def test_stats_export_tree_and_players_of_no_record_say_what_the_archive_holds(whole, tmp_path):
    """As `query` does; and the plies of no record are not `mean None, median None, max None`."""
    runner = CliRunner()
    holds = "lusoria: the archive holds no record of the variant 'ashton' (known: copenhagen, dux, linnaeus, petteia"
    shown = runner.invoke(main, ["stats", "--db", whole.path, "--variant", "ashton"])
    assert (shown.exit_code, shown.stdout) == (0, "0 records: 0 valid, 0 invalid\n")
    assert shown.stderr.startswith(holds)
    written = runner.invoke(
        main, ["export", str(tmp_path), "--db", whole.path, "--format", "csv", "--variant", "ashton"]
    )
    assert (written.exit_code, written.stdout) == (1, "") and written.stderr.startswith(holds)  # nothing written
    assert written.stderr.endswith(f"lusoria: no record matches the filters: nothing written in {tmp_path}\n")
    for command in (["players", "list"], ["players", "crosstable"]):  # as query does
        said = runner.invoke(main, [*command, "--db", whole.path, "--variant", "ashton"])
        assert said.exit_code == 0 and said.stderr.startswith(holds), command
    tree = runner.invoke(main, ["tree", "--db", whole.path, "--game", "tablut", "--variant", "ashton"])
    assert (tree.exit_code, tree.stdout) == (0, "no plies played from this position\n")
    assert tree.stderr == (
        "lusoria: the archive holds no record of the variant 'ashton' of tablut (known: copenhagen, linnaeus, seed)\n"
    )
    nobody = runner.invoke(main, ["stats", "--db", whole.path, "--event", "nobody"])
    assert (nobody.stdout, nobody.stderr) == ("0 records: 0 valid, 0 invalid\n", "")  # the variant and game are there
    seed = runner.invoke(main, ["stats", "--db", whole.path, "--variant", "tablut/seed", "--event", "nobody"])
    assert (seed.stdout, seed.stderr) == ("0 records: 0 valid, 0 invalid\n", "")  # seed of tablut: held


def test_a_catalogue_name_of_a_variant_held_under_other_rules_says_so(tmp_path):
    """`--variant ashton-tablut` (aagenielsen.dk's Ashton tablut: ashton with a Rules tag) on an
    archive of the Tablut Challenge's ashton games found nothing, unsaid: the variant is held."""
    path = tmp_path / "challenge.lgn"
    path.write_text('[Game "tablut"]\n[Variant "ashton"]\n[Result "*"]\n\n1. e3-c3 *\n')
    archive = Archive(str(tmp_path / "challenge.db"))
    assert archive.import_paths([str(path)]).added == 1
    other_rules = (
        "lusoria: the archive's records of the variant 'ashton' play other rules than ashton-tablut, whose tags "
        'are [Game "tablut"] [Variant "ashton"] [Rules "throne-hostile=empty camp-hostile=empty repetition=none"]\n'
    )
    for command in (["query"], ["stats"]):
        shown = CliRunner().invoke(main, [*command, "--db", archive.path, "--variant", "ashton-tablut"])
        assert shown.exit_code == 0 and shown.stderr == other_rules
    held = CliRunner().invoke(main, ["stats", "--db", archive.path, "--variant", "tablut/ashton", "--event", "x"])
    assert held.stderr == ""  # the rules are held: the event found nothing


def test_a_types_name_finds_its_records_however_they_write_berserk_moves(tmp_path):
    """Records of aagenielsen.dk's old style are read with `Rules "berw=u"` (how they write berserk moves, not
    another game): `--variant 'Berserk Hnefatafl 11x11'` left them out (it found 36 of the type's 40 games: h70b),
    and found none of Berserk Hnefatafl 9x9's, saying they play other rules. A record that changes how the game is
    played is still not the type's: `ks=w`, and `berw=a`, under which a left-out continuation need not capture
    (review71)."""
    tags = '[Game "hnefatafl"]\n[Variant "berserk-hnefatafl-11x11"]\n'
    path = tmp_path / "berserk.lgn"
    path.write_text(
        "".join(
            f'{tags}[Round "{n}"]\n{rules}[Result "*"]\n\n*\n\n'
            for n, rules in enumerate(("", '[Rules "berw=u"]\n', '[Rules "berw=a"]\n', '[Rules "ks=w"]\n'))
        )
    )
    archive = Archive(str(tmp_path / "berserk.db"))
    assert archive.import_paths([str(path)]).added == 4
    found = archive.query(Filters(variant="Berserk Hnefatafl 11x11"))
    assert sorted(row["round"] for row in found) == ["0", "1"]
    shown = CliRunner().invoke(main, ["query", "--db", archive.path, "--variant", "Berserk Hnefatafl 11x11"])
    assert (shown.exit_code, shown.stderr, shown.stdout.count("berserk.lgn")) == (0, "", 2)


@pytest.fixture
def tafl(tmp_path):
    """An archive of records of 13 Hnefatafl variants, and no latrunculi: more than a message lists."""
    presets = list(api.GAMES["hnefatafl"].presets)[:13]
    path = tmp_path / "tafl.lgn"
    path.write_text("".join(f'[Game "hnefatafl"]\n[Variant "{preset}"]\n[Result "*"]\n\n*\n\n' for preset in presets))
    archive = Archive(str(tmp_path / "tafl.db"))
    assert archive.import_paths([str(path)]).added == 13
    return archive


def test_a_variant_lusoria_does_not_know_is_found_as_stats_lists_it(whole):
    """New user 38: `stats` listed `tablut/copenhagen` (samples/errors/tags.lgn: a Tablut record of
    `[Variant "copenhagen"]`), and `--variant tablut/copenhagen` was refused: "the archive holds no
    record of the variant 'tablut/copenhagen' (known: copenhagen, …)". GAME/VARIANT finds the game's
    records of that Variant tag, in any case; a slip is said among the game's variants."""
    listed = [row["value"] for row in whole.stats(top=20)["variants"]]
    assert "tablut/copenhagen" in listed
    for written in ("tablut/copenhagen", "Tablut/COPENHAGEN"):
        found = whole.query(Filters(variant=written))
        assert [(row["game"], row["variant"], row["line"]) for row in found] == [("tablut", "copenhagen", 13)]
    shown = CliRunner().invoke(main, ["stats", "--db", whole.path, "--variant", "tablut/copenhagen"])
    assert (shown.exit_code, shown.stderr) == (0, "")
    assert shown.stdout.startswith("1 record: 0 valid, 1 invalid")
    slip = CliRunner().invoke(main, ["query", "--db", whole.path, "--variant", "tablut/copenhagn"])
    assert slip.exit_code == 2 and slip.stderr.endswith(
        "Error: --variant names no variant that lusoria knows, and the archive holds no record of the variant "
        "'copenhagn' of tablut (known: copenhagen, linnaeus, seed; did you mean copenhagen or copenhagen-11x11 "
        "or copenhagen-hnefatafl-13x13?)\n"
    )


def test_a_variant_lusoria_does_not_know_is_found_in_the_game_named_alone(tmp_path):
    """`tablut/copenhagen` finds Tablut's records of `[Variant "copenhagen"]`, not a Latrunculi record of the same
    tag, which `stats` lists apart as `latrunculi/copenhagen` (h81c: the game went unchecked, the archives of the
    test above holding one game's such records)."""
    (tmp_path / "two.lgn").write_text(
        '[Game "tablut"]\n[Variant "Copenhagen"]\n\n1. e3-f3 *\n\n'
        '[Game "latrunculi"]\n[Variant "copenhagen"]\n\n1. a1-a2 *\n'
    )
    archive = Archive(str(tmp_path / "two.db"))
    assert archive.import_paths([str(tmp_path / "two.lgn")]).added == 2
    assert [row["value"] for row in archive.stats()["variants"]] == ["latrunculi/copenhagen", "tablut/copenhagen"]
    for game in ("tablut", "latrunculi"):
        found = archive.query(Filters(variant=f"{game}/copenhagen"))
        assert [(row["game"], row["variant"]) for row in found] == [(game, "copenhagen")]


def test_a_variant_lusoria_does_not_know_with_a_slash_is_found_as_stats_lists_it(tmp_path):
    """Review 38: a Tablut record of `[Variant "Copen/Hagen"]` was listed by `stats` as
    `tablut/copen/hagen`, which `--variant` refused (read as the variant `hagen` of a game
    `tablut/copen`); the game's name ends at the first slash. The variant as written is found too."""
    (tmp_path / "slash.lgn").write_text('[Game "tablut"]\n[Variant "Copen/Hagen"]\n[Result "*"]\n\n1. e3-c3 *\n')
    archive = Archive(str(tmp_path / "slash.db"))
    archive.import_paths([str(tmp_path / "slash.lgn")])
    assert [row["value"] for row in archive.stats()["variants"]] == ["tablut/copen/hagen"]
    for written in ("tablut/copen/hagen", "Tablut/Copen/Hagen", "copen/hagen"):
        assert [(row["game"], row["variant"]) for row in archive.query(Filters(variant=written))] == [
            ("tablut", "copen/hagen")
        ], written
    shown = CliRunner().invoke(main, ["stats", "--db", archive.path, "--variant", "tablut/copen/hagen"])
    assert (shown.exit_code, shown.stderr) == (0, "")
    assert shown.stdout.startswith("1 record: 0 valid, 1 invalid")


def test_a_variant_of_a_game_lusoria_does_not_know_is_found_by_its_tag_alone(tmp_path):
    """As docs/archive.md says: `stats` lists a chess record's `[Variant "Blitz"]` as `chess/blitz`,
    which names no game lusoria knows, so `--variant` reads it as a variant's name, refused with the
    name the archive holds; `--variant blitz` finds it."""
    (tmp_path / "chess.lgn").write_text('[Game "chess"]\n[Variant "Blitz"]\n[Result "*"]\n\n1. e4 *\n')
    archive = Archive(str(tmp_path / "chess.db"))
    archive.import_paths([str(tmp_path / "chess.lgn")])
    assert [row["value"] for row in archive.stats()["variants"]] == ["chess/blitz"]
    assert [(row["game"], row["variant"]) for row in archive.query(Filters(variant="blitz"))] == [("chess", "blitz")]
    refused = CliRunner().invoke(main, ["query", "--db", archive.path, "--variant", "chess/blitz"])
    assert refused.exit_code == 2 and refused.stderr.endswith(
        "the archive holds no record of the variant 'chess/blitz' (known: blitz; did you mean blitz?)\n"
    )


def test_a_name_none_knows_is_suggested_among_lusorias_names_too(tafl, saami):
    """`--variant seneka` on an archive of tafl records said "(171 known)", never offering seneca,
    which lusoria knows and the archive holds no record of. A name of lusoria's is no slip of one
    merely alike: `seneca` (latrunculi's) is not offered `seed`."""
    shown = CliRunner().invoke(main, ["stats", "--db", tafl.path, "--variant", "seneka"])
    assert shown.exit_code == 2 and shown.stderr.endswith(
        "Error: --variant names no variant that lusoria knows, and the archive holds no record of the variant "
        "'seneka' (13 known; did you mean seneca or seed?)\n"
    )
    with pytest.raises(FilterError) as refused:  # lusoria's names with those the archive holds, once
        saami.query(Filters(variant="seneka"))
    assert refused.value.problem.endswith("'seneka' (known: aage, seed; did you mean seneca or seed?)")
    with pytest.raises(FilterError) as game:
        saami.query(Filters(game="brandubx"))
    assert game.value.problem.endswith("'brandubx' (known: tablut; did you mean brandubh?)")
    known = CliRunner().invoke(main, ["stats", "--db", tafl.path, "--variant", "seneca"])  # known: none offered
    assert (
        known.exit_code == 0
        and known.stderr == "lusoria: the archive holds no record of the variant 'seneca' (13 known)\n"
    )
    seneca = CliRunner().invoke(main, ["stats", "--db", saami.path, "--variant", "seneca"])  # of a few: all listed
    assert seneca.stderr == "lusoria: the archive holds no record of the variant 'seneca' (known: aage, seed)\n"


UNKNOWN_ROSTER = (
    '[Game "tablut"]\n[Event "?"]\n[Site "?"]\n[Date "????.??.??"]\n[Round "?"]\n[White "?"]\n[Black "?"]\n'
    '[Result "*"]\n\n1. e3-c3 *\n'
)
ROSTER = "SELECT quote(event), quote(site), quote(date), quote(round), quote(white), quote(black) FROM records"


def test_a_roster_tag_written_unknown_is_stored_and_found_as_one_left_out(tmp_path):
    """New user 20: `?` was NULL for a record of the CSV format (no such tag) but `'?'` for an lgn
    record writing it, so `--site '?'` found none of the records of no site, and an lgn export
    imported again changed the columns of every CSV record: one rule, unknown is NULL."""
    (tmp_path / "unknown.lgn").write_text(UNKNOWN_ROSTER)
    first = Archive(str(tmp_path / "first.db"))
    first.import_paths([str(tmp_path / "unknown.lgn"), str(ROOT / "tests/fixtures/formats/csv/brandubh.csv")])
    unknown = ("NULL",) * 6
    assert [tuple(row.values()) for row in first.sql(ROSTER)] == [unknown] * 5
    for name in ("event", "site", "white", "black", "player"):
        assert len(first.query(Filters(**{name: "?"}))) == 5, name
    exported = CliRunner().invoke(main, ["query", "--db", first.path, "--format", "lgn"])
    (tmp_path / "exported.lgn").write_text(exported.stdout)
    again = Archive(str(tmp_path / "again.db"))
    assert again.import_paths([str(tmp_path / "exported.lgn")]).added == 5
    assert again.sql(ROSTER) == first.sql(ROSTER)


def test_the_tree_of_a_variant_alone_starts_from_the_start_of_its_one_game(saami):
    """New user 20: `tree --variant saami-tablut-w` was a usage error that asked for --game, though
    the variant names its game (as `explain` knows it); a variant of several games asks for it."""
    shown = CliRunner().invoke(main, ["tree", "--db", saami.path, "--variant", "saami-tablut-w", "--format", "json"])
    assert shown.exit_code == 0, shown.output
    assert [(node["ply"], node["games"]) for node in json.loads(shown.stdout)] == [("e3-c3", 1)]
    several = CliRunner().invoke(main, ["tree", "--db", saami.path, "--variant", "seed"])
    assert several.exit_code == 2
    assert (
        "Invalid value for --game: laquet and tablut have a variant 'seed': name one (laquet/seed or tablut/seed)"
        in several.stderr
    )
    unknown = CliRunner().invoke(main, ["tree", "--db", saami.path, "--variant", "sed"])
    assert unknown.exit_code == 2 and "Invalid value for --variant: unknown variant 'sed'" in unknown.stderr


@pytest.mark.parametrize(
    ("name", "said"),
    [
        ("Tyr 13x13", "other programs call several variants 'Tyr 13x13': name one (tyr-13x13 or tyr-13x13-172)"),
        (
            "saami-tablu",
            "unknown variant 'saami-tablu': no game has it ({every} known; did you mean saami-tablut or saami-tablut-w?)",
        ),
    ],
)
def test_the_tree_of_a_variant_alone_refuses_a_name_as_the_commands_that_read_records_do(saami, name, said):
    """Final 32: `tree --variant` alone said 'no game has it' of a name other programs give two
    variants, counted 194 variants where `validate` counts 197, and suggested no name like a
    catalogue's entry: a message of its own, not the reading commands'."""
    said = "Error: Invalid value for --variant: " + said.format(every=len(variant_names())) + "\n"
    tree = CliRunner().invoke(main, ["tree", "--db", saami.path, "--variant", name])
    validate = CliRunner().invoke(main, ["validate", "--variant", name, saami.path])
    assert (tree.exit_code, validate.exit_code) == (2, 2)
    assert tree.stderr.endswith(said) and validate.stderr.endswith(said)


@pytest.mark.parametrize("command", ["query", "stats"])
def test_a_filter_of_a_name_of_several_variants_says_them_as_the_reading_commands_do(saami, command):
    """Final 32: `query --variant 'Tyr 13x13'` (other programs' name of two variants) said it
    'names no variant that lusoria knows', where validate, random and tree name the two."""
    done = CliRunner().invoke(main, [command, "--db", saami.path, "--variant", "Tyr 13x13"])
    said = "other programs call several variants 'Tyr 13x13': name one (tyr-13x13 or tyr-13x13-172)"
    assert done.exit_code == 2 and done.stderr.endswith(f"\n\nError: --variant is ambiguous: {said}\n")


def test_the_tree_of_a_game_named_alone_starts_from_its_variant_of_most_records_and_says_so(saami):
    """New user 20: `tree --game tablut` started from the default start, White first, silently, where
    most records (Saami Tablut's, aage) begin with Black: as for hnefatafl, the variant of most records,
    said in a note."""
    shown = CliRunner().invoke(main, ["tree", "--db", saami.path, "--game", "tablut", "--format", "json"])
    assert shown.exit_code == 0, shown.output
    assert [(node["ply"], node["games"]) for node in json.loads(shown.stdout)] == [("d1-d3", 1)]
    assert shown.stderr == (
        f"lusoria: note: --variant aage: the variant of most records of tablut in {saami.path}\n"
        f"lusoria: note: {left_out(1, 2, '--game tablut --variant aage', saami.path)}\n"
    )


def left_out(elsewhere: int, played: int, selected: str, path: str) -> str:
    """The note of the records a tree leaves out, of the game and variant `selected` as the filters name them (not
    `tablut/aage`, which `stats` counts without the records of a catalogue's entry: h70b)."""
    return (
        f"the tree leaves out {elsewhere} of the {played} records of {selected} in {path}, which start from another "
        "position (a Position tag, Rules such as first=white, or a Board tag: --board): a tree from their position, or from one of them "
        "(its id), counts them"
    )


@pytest.mark.parametrize(("variations", "min_games"), [(False, 1), (True, 1), (False, 2)])
def test_the_tree_from_a_games_start_says_how_many_records_start_elsewhere(saami, variations, min_games):
    """Newcomer-56b: `tree --game tablut --variant aage` left out the 17 records of Rules first=white
    (saami-tablut-w), which start with White to move, unsaid; a Position tag starts elsewhere too. The
    count is of the records, whatever the tree shows of them (variations, --min-games); a record whose first
    ply is illegal is in no tree."""
    (Path(saami.path).parent / "more.lgn").write_text(
        '[Game "tablut"]\n[Variant "aage"]\n[Position "9/9/9/9/4K4/9/9/9/p7p b"]\n\n1... a1-a2 *\n\n'
        '[Game "tablut"]\n[Variant "aage"]\n\n1... e5-e6 *\n\n'  # the king, Black's to move: illegal
        '[Game "tablut"]\n[Variant "aage"]\n\n1... d1-d2 (1... d1-d3) *\n'
    )
    assert saami.import_paths([str(Path(saami.path).parent / "more.lgn")]).added == 3
    told: list = []
    nodes = Archive(saami.path, notes=told.append).tree(
        filters=Filters(game="tablut", variant="aage"), variations=variations, min_games=min_games
    )
    assert [(node.ply, node.games) for node in nodes] == {
        (False, 1): [("d1-d2", 1), ("d1-d3", 1)],
        (True, 1): [("d1-d3", 2), ("d1-d2", 1)],
        (False, 2): [],
    }[(variations, min_games)]
    assert [str(note) for note in told] == [f"note: {left_out(2, 4, 'Game tablut Variant aage', saami.path)}"]
    told.clear()
    assert [
        (n.ply, n.games) for n in Archive(saami.path, notes=told.append).tree(filters=Filters(variant="saami-tablut-w"))
    ] == [("e3-c3", 1)]
    assert told == []


def test_stats_counts_apart_a_catalogue_entry_that_records_of_a_variant_play_by_their_rules_tag(saami):
    """New user 20: `stats` counted Saami Tablut (aage) and Saami Tablut-w (aage with Rules
    first=white) in one row `tablut aage`, which `--variant` tells apart; a Rules tag that makes
    no catalogue entry's rules stays in its variant's row."""
    (Path(saami.path).parent / "more.lgn").write_text(
        '[Game "tablut"]\n[Variant "aage"]\n[Rules "king-capture=2"]\n[Result "*"]\n\n1... d1-d3 *\n'
    )
    assert saami.import_paths([str(Path(saami.path).parent / "more.lgn")]).added == 1
    assert saami.stats()["variants"] == [
        {"value": "tablut/aage", "records": 2},
        {"value": "tablut/saami-tablut-w", "records": 1},
        {"value": "tablut/seed", "records": 1},
    ]
    chosen = saami.stats(filters=Filters(variant="saami-tablut-w"))["variants"]
    assert chosen == [{"value": "tablut/saami-tablut-w", "records": 1}]
    for row in saami.stats()["variants"]:  # each named as --variant takes it (`tablut aage` was refused), and
        assert len(saami.query(Filters(variant=row["value"]))) == row["records"]  # finding what it counts


def test_a_variant_filter_finds_the_records_of_rules_no_catalogue_entry_names_as_stats_counts_them(saami):
    """`stats` counts an aage record of `[Rules "king-capture=4"]` (rules no catalogue entry names)
    in its variant's row, `tablut/aage`; `--variant tablut/aage` found only the records without a
    Rules tag, one record short of the row it names. `saami-tablut`, aage as it is, finds those alone."""
    folder = Path(saami.path).parent
    (folder / "more.lgn").write_text(
        '[Game "tablut"]\n[Variant "aage"]\n[Rules "king-capture=4"]\n[White "K"]\n[Result "*"]\n\n1... d1-d3 *\n'
    )
    assert saami.import_paths([str(folder / "more.lgn")]).added == 1
    assert {"value": "tablut/aage", "records": 2} in saami.stats()["variants"]
    assert [row["white"] for row in saami.query(Filters(variant="tablut/aage"))] == ["B", "K"]
    assert saami.stats(filters=Filters(variant="tablut/aage"))["records"] == 2
    shown = CliRunner().invoke(main, ["query", "--db", saami.path, "--variant", "tablut/aage", "--format", "csv"])
    assert shown.exit_code == 0 and [row["white"] for row in csv.DictReader(shown.stdout.splitlines())] == ["B", "K"]
    assert [row["white"] for row in saami.query(Filters(variant="saami-tablut"))] == ["B"]


def test_a_variant_is_looked_up_in_any_case_and_spacing(whole):
    """`--variant ' Seed '` was refused as ambiguous (laquet and tablut have a variant 'seed') where
    `seed` and `SEED` were taken: the name is looked up as `explain` looks it up."""
    seed = whole.query(Filters(variant="seed"))
    assert seed and [whole.query(Filters(variant=name)) for name in ("SEED", " Seed ")] == [seed, seed]
    assert whole.stats(filters=Filters(variant=" Seed ")) == whole.stats(filters=Filters(variant="seed"))


def test_the_record_of_an_id_of_the_table_is_found_by_it(whole):
    """`query --id 12 --format lgn | lusoria html -`: an organiser publishes or sends the game of a row
    of the table (no filter named one record: only `lusoria sql` did)."""
    row = whole.query(Filters(player="Olof Berg"))[0]
    found = CliRunner().invoke(main, ["query", "--db", whole.path, "--id", str(row["id"]), "--format", "lgn"])
    assert found.exit_code == 0 and found.stdout.count("[Game ") == 1
    assert f'[White "{row["white"]}"]' in found.stdout and f'[Black "{row["black"]}"]' in found.stdout
    assert [r["id"] for r in whole.query(Filters(record_id=row["id"]))] == [row["id"]]
    assert whole.query(Filters(record_id=10**6)) == []


def test_an_id_no_record_has_is_said_with_the_ids_the_archive_holds(whole, tmp_path):
    """`query --id 999` found nothing unsaid (a row's id mistyped, or of a record removed); a record
    that has the id, not found for another filter, is not said to lack it."""
    [ids] = whole.sql("SELECT min(id) AS low, max(id) AS high FROM records")
    missing = CliRunner().invoke(main, ["query", "--db", whole.path, "--id", str(ids["high"] + 1)])
    assert (missing.exit_code, missing.stdout) == (0, "no records\n")
    assert missing.stderr == (
        f"lusoria: no record of the archive has the id {ids['high'] + 1} (its ids run from {ids['low']} to {ids['high']})\n"
    )
    other = CliRunner().invoke(
        main, ["stats", "--db", whole.path, "--id", str(ids["low"]), "--player", "nobody at all"]
    )
    assert "id" not in other.stderr
    (tmp_path / "emptied.lgn").write_text('[Game "tablut"]\n\n*\n')
    emptied = Archive(str(tmp_path / "emptied.db"))
    emptied.import_paths([str(tmp_path / "emptied.lgn")])
    (tmp_path / "emptied.lgn").write_text("")
    emptied.import_paths([str(tmp_path / "emptied.lgn")], replace=True)  # its file emptied: no record left
    assert emptied.id_lacking(1) == (
        "no record of the archive has the id 1 (it holds no record; the record of id 1 was removed, and its id is "
        "given to no other)"
    )


def test_an_id_of_a_removed_record_is_said_with_the_nearest_ids(tmp_path):
    """`query --id 2` of a record removed (its file emptied) said the archive's id range, 1 to 4, as
    if 2 were outside it: ids have gaps, and the nearest ids a record has are named; the library
    call says what the command says."""
    paths = [tmp_path / f"r{number}.lgn" for number in range(1, 5)]
    for number, path in enumerate(paths, 1):
        path.write_text(f'[Game "tablut"]\n[Round "{number}"]\n\n*\n')
    archive = Archive(str(tmp_path / "gaps.db"))
    archive.import_paths([str(path) for path in paths])
    for path in paths[1:3]:
        path.write_text("")
    archive.import_paths([str(path) for path in paths[1:3]], replace=True)
    said = (
        "no record of the archive has the id 3 (its ids have gaps where records were removed; the nearest are 1 and 4)"
    )
    assert archive.id_lacking(3) == said
    found = CliRunner().invoke(main, ["query", "--db", archive.path, "--id", "3"])
    assert (found.exit_code, found.stdout, found.stderr) == (0, "no records\n", f"lusoria: {said}\n")
    grown = CliRunner().invoke(main, ["tree", "--db", archive.path, "--from-id", "3"])  # was "no position after ply 0"
    assert (grown.exit_code, grown.stderr.splitlines()[-1]) == (2, f"Error: {said}")
    for command in (
        ["stats"],
        ["players"],
        ["players", "crosstable"],
        ["export", str(tmp_path / "out"), "--format", "csv"],
    ):
        counted = CliRunner().invoke(
            main, [*command, "--db", archive.path, "--id", "3"]
        )  # the one note of every command (export's, before it says it wrote nothing)
        assert (counted.exit_code, counted.stderr.splitlines()[0]) == (command[0] == "export", f"lusoria: {said}")
    with pytest.raises(BadRequest) as page:  # the explorer's replay page of record 3 said "the archive has no record 3"
        replay(archive.path, "3")
    assert (page.value.status, str(page.value)) == (404, said)
    assert archive.id_lacking(5) == "no record of the archive has the id 5 (its ids run from 1 to 4)"


def test_the_id_of_the_newest_record_removed_is_given_to_no_other(tmp_path):
    """newcomer-58b: the newest record removed, the next import gave its id to another game, which a link to it
    (Datasette's, the explorer's) or an id noted then found. An import numbers its records after every id given."""
    paths = [tmp_path / f"r{number}.lgn" for number in range(1, 4)]
    for number, path in enumerate(paths, 1):
        path.write_text(f'[Game "tablut"]\n[Round "{number}"]\n\n*\n')
    archive = Archive(str(tmp_path / "top.db"))
    archive.import_paths([str(path) for path in paths[:2]])
    assert [row["id"] for row in archive.remove(Filters(record_id=2))] == [2]
    archive.import_paths([str(paths[2])])
    assert [(row["id"], row["round"]) for row in archive.sql("SELECT id, round FROM records")] == [(1, "1"), (3, "3")]
    assert archive.id_lacking(2) == (
        "no record of the archive has the id 2 (its ids have gaps where records were removed; the nearest are 1 and 3)"
    )
    assert archive.remove(Filters(record_id=3)) and archive.id_lacking(3) == (
        "no record of the archive has the id 3 (its ids run from 1 to 1; the record of id 3 was removed, and its id is "
        "given to no other)"
    )
    assert archive.id_lacking(4) == "no record of the archive has the id 4 (its ids run from 1 to 1)"
    archive.import_paths([str(path) for path in paths])  # (r3 held: r1 and r2 added, after id 3)
    assert [row["id"] for row in archive.sql("SELECT id FROM records")] == [1, 4, 5]
