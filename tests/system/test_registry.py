"""No test but those about them sees a game or a format added: the tests that read the registry's
and the format table's lists run again with a throw-away game and format registered (the example
plug-in's, tests/plugin, registered in-process by conftest.py when LUSORIA_TEST_THROWAWAY is set),
and pass; those about every game or format see the new ones."""

import os
import subprocess
import sys

from conftest import ROOT, THROWAWAY

READING_THE_LISTS = [  # each reads a list of games or formats, or names every one
    "tests/notation/test_reader.py::test_syntax_problems_say_where_and_what",
    "tests/notation/test_reader.py::test_an_unknown_game_names_the_known_ones",
    "tests/test_cli.py::test_validate_the_error_samples_human",
    "tests/test_cli.py::test_validate_the_error_samples_json",
    "tests/archive/test_research.py::test_grid_patterns_are_read_by_every_game_whose_board_they_fit",
    "tests/system/test_precommit.py::test_the_files_below_are_of_every_format_lusoria_reads",
    "tests/test_pickling.py::test_what_every_reader_makes_survives_pickle_in_the_build_in_use",
    "tests/test_pipeline.py::test_every_readers_fixtures_read_alike_in_workers_and_in_process",
    "tests/test_rulebook.py",
    "tests/validator/test_games.py",
    "tests/formats/test_contract.py::test_a_reader_hands_over_records_of_known_games_and_plies_of_their_syntax",
]


def test_a_game_and_a_format_registered_break_no_test_that_is_not_about_them(tmp_path):
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-rN", "-p", "no:cacheprovider", "-o", "addopts=", "-v", *READING_THE_LISTS],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={**os.environ, THROWAWAY: "1", "XDG_CACHE_HOME": str(tmp_path)},
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    ran = done.stdout
    assert "[toytafl] PASSED" in ran  # the tests about every game see the new one
    assert "test_a_reader_hands_over_records_of_known_games_and_plies_of_their_syntax[moves] PASSED" in ran
