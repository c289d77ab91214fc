"""The library refuses the numbers and arguments the CLI refuses, in the CLI's words
(lusoria.bounds): `jobs` of 0 or less ran silently in one process, `Archive.tree(min_games=0)`
listed nothing, `merge_players([])` merged nothing."""

import pytest
from click.testing import CliRunner
from conftest import ROOT

from lusoria import api
from lusoria.archive import Archive, Filters
from lusoria.bounds import bounded_number
from lusoria.cli import main
from lusoria.notation.numbers import checked_number
from lusoria.words import out_of_bounds

TABLUT = str(ROOT / "samples" / "tablut")


@pytest.fixture(scope="module")
def archive(tmp_path_factory):
    archive = Archive(str(tmp_path_factory.mktemp("bounds") / "a.db"))
    archive.import_paths([TABLUT])
    return archive


def cli_error(*args: str) -> str:
    result = CliRunner().invoke(main, list(args))
    assert result.exit_code == 2
    return result.output.splitlines()[-1]


@pytest.mark.parametrize("jobs", [0, -1, 1025])
def test_jobs_out_of_bounds_are_refused_by_every_call_that_takes_them(archive, tmp_path, jobs):
    said = f"jobs: '{jobs}' is not a whole number from 1 to 1024"
    calls = [
        lambda: list(api.validate([TABLUT], jobs=jobs)),
        lambda: list(api.fitting([TABLUT], jobs=jobs)),
        lambda: Archive(str(tmp_path / "new.db")).import_paths([TABLUT], jobs=jobs),
        lambda: archive.export(str(tmp_path / "export"), "csv", jobs),
    ]
    for call in calls:
        with pytest.raises(ValueError) as refused:
            call()
        assert str(refused.value) == said
    assert not (tmp_path / "new.db").exists() and not (tmp_path / "export").exists()
    assert cli_error("validate", "--force-jobs", "--jobs", str(jobs), TABLUT).endswith(said.removeprefix("jobs: "))


@pytest.mark.parametrize("jobs, taken", [(True, None), (" 2 ", 2), ("2", 2), (2, 2)])
def test_jobs_are_a_whole_number_written_with_blanks_or_not_and_never_a_truth_value(tmp_path, jobs, taken):
    """h81c: `jobs=True` (an int to Python) would be one worker where `"True"` is refused, and `" 2 "`, read from a
    configuration, refused where `"2"` is taken (mutants that took a bool, or refused the blanks, lived)."""
    assert bounded_number(jobs, 1, 1024) == taken
    archive = Archive(str(tmp_path / "a.db"))
    if taken is None:
        with pytest.raises(ValueError, match="^jobs: 'True' is not a whole number from 1 to 1024$"):
            archive.import_paths([TABLUT], jobs=jobs)
    else:
        assert archive.import_paths([TABLUT], jobs=jobs).added == 4


@pytest.mark.parametrize("name", ["min_games", "depth"])
def test_a_tree_of_plies_played_in_no_game_or_of_no_plies_is_refused(archive, name):
    with pytest.raises(ValueError) as refused:
        archive.tree(filters=Filters(game="tablut", variant="seed"), **{name: 0})
    assert str(refused.value) == f"{name}: '0' is not a whole number from 1 to 1000000000"
    option = f"--{name.replace('_', '-')}"
    said = cli_error("tree", "--db", archive.path, "--game", "tablut", option, "0")
    assert said == f"Error: Invalid value for '{option}': '0' is not a whole number from 1 to 1000000000"


def test_a_number_read_from_a_record_is_said_out_of_bounds_in_the_same_words():
    """notation.numbers.checked_number said it in its own words (cut at 20 characters)."""
    written = "9" * 30
    with pytest.raises(ValueError) as refused:
        checked_number(written, 1, 6)
    assert str(refused.value) == out_of_bounds(written, 1, 6) == f"'{written}' is not a whole number from 1 to 6"


def test_a_merge_of_no_names_is_refused(archive):
    with pytest.raises(ValueError) as refused:
        archive.merge_players([], "Karin Nilsson")
    assert str(refused.value) == "give at least one NAME and the CANONICAL name"
    assert cli_error("players", "merge", "--db", archive.path, "Karin Nilsson") == f"Error: {refused.value}"


def test_a_number_given_as_text_is_taken_as_the_option_takes_it(archive, tmp_path):
    """The check takes '2' as --jobs 2 does: the call goes on with the number (it compared text with
    numbers: TypeError)."""
    tablut = Filters(game="tablut", variant="seed")  # (named: no variant chosen, warned)
    assert archive.tree(filters=tablut, min_games="1") == archive.tree(filters=tablut) != []  # type: ignore[arg-type]
    summary = Archive(str(tmp_path / "new.db")).import_paths([TABLUT], jobs="2")  # type: ignore[arg-type]
    assert summary.added == archive.export(str(tmp_path / "export"), "csv", "2")["records"]  # type: ignore[arg-type]
