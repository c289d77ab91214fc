"""No test but those about them sees a game or a format added: the tests that read the registry's
and the format table's lists run again with a throw-away game and format registered (the example
plug-in's, tests/plugin, registered in-process by conftest.py when LUSORIA_TEST_THROWAWAY is set),
and pass; those about every game or format see the new ones. Which tests those are is not left to
memory: every test whose code lists the games or the formats (`known_games()`, `for … in GAMES`,
`FORMATS.items()`, `built_in_formats()`, …), or runs a CLI command whose code lists them (a snapshot
of its output lists them too: `listing_commands`), is among them, or says why not (`NOT_RUN_AGAIN`).
`LUSORIA_TEST_THROWAWAY=1 pytest` runs the whole suite so (what this file runs in seconds)."""

import ast
import os
import subprocess
import sys

import pytest
from conftest import ROOT, THROWAWAY

READING_THE_LISTS = [  # each reads a list of games or formats, or names every one
    "tests/notation/test_reader.py::test_syntax_problems_say_where_and_what",
    "tests/notation/test_reader.py::test_an_unknown_game_names_the_known_ones",
    "tests/notation/test_reader.py::test_a_game_written_with_a_slip_is_asked_for_as_before",
    "tests/notation/test_reader.py::test_a_variant_written_as_the_game_is_no_slip_of_a_game_alike",
    "tests/test_cli.py::test_validate_the_error_samples_human",
    "tests/test_cli.py::test_validate_the_error_samples_json",
    "tests/test_cli.py::test_a_variant_given_as_the_game_is_said_with_the_options_that_name_it",
    "tests/test_cli.py::test_a_name_of_no_variant_or_another_option_is_refused_as_before",
    "tests/test_cli.py::test_a_slip_of_a_games_name_is_said_as_tree_says_it",
    "tests/test_cli.py::test_random_without_a_game_and_no_word_says_the_option_is_missing_with_the_games",
    "tests/archive/test_research.py::test_grid_patterns_are_read_by_every_game_whose_board_they_fit",
    "tests/archive/test_archive.py::test_a_position_played_has_the_key_of_the_same_position_read_from_its_string",
    "tests/system/test_precommit.py::test_the_files_below_are_of_every_format_lusoria_reads",
    "tests/test_pickling.py::test_what_every_reader_makes_survives_pickle_in_the_build_in_use",
    "tests/test_pipeline.py::test_every_readers_fixtures_read_alike_in_workers_and_in_process",
    "tests/test_rulebook.py",
    "tests/test_variants.py",
    "tests/validator/test_games.py",
    "tests/formats/test_contract.py::test_a_reader_hands_over_records_of_known_games_and_plies_of_their_syntax",
    "tests/formats/test_contract.py::test_a_writer_writes_what_its_reader_reads_back_as_the_same_game",
    "tests/formats/test_contract.py::test_an_unknown_game_is_a_located_error_naming_the_reader",
    "tests/formats/test_game_choice.py::test_a_type_on_a_board_no_game_is_played_on_cannot_be_read",
    "tests/formats/test_game_choice.py::test_a_type_on_a_board_no_variant_is_played_on_names_the_boards_there_are",
    "tests/formats/test_game_choice.py::test_a_type_on_the_board_of_a_game_of_one_variant_is_read_with_its_game_alone",
    "tests/formats/test_game_choice.py::test_a_type_whose_board_is_written_otherwise_still_names_its_board",
    "tests/formats/test_game_choice.py::test_a_type_on_a_board_of_no_squares_names_no_board",
    "tests/formats/test_game_choice.py::test_a_type_on_the_generic_games_default_board_names_its_variants_there_not_the_game",
    "tests/formats/test_lgn.py::test_every_record_of_a_folder_of_many_files_keeps_its_file_place_and_site_id",
    "tests/notation/test_plain_reading.py::test_every_record_of_the_samples_and_fixtures_reads_as_the_grammar_reads_it",
    "tests/formats/test_formats.py::test_csv_move_lists_name_their_game_by_file_or_by_board",
    "tests/formats/test_formats.py::test_a_file_of_no_format_is_told_every_ending_the_formats_read_and_no_other",
    "tests/formats/test_sources.py::test_a_folders_file_of_no_suffix_is_skipped_with_the_name_its_first_characters_say_to_give_it",
    "tests/formats/test_game_choice.py::test_a_csv_file_whose_board_fits_two_games_is_an_error_naming_them",
    "tests/formats/test_game_choice.py::test_a_csv_file_is_not_read_as_the_game_of_the_smallest_board_its_moves_fit",
    "tests/formats/test_game_choice.py::test_variant_for_move_lists_is_not_applied_to_csv_files_and_a_note_says_so",
    "tests/formats/test_game_choice.py::test_a_game_given_that_lusoria_does_not_know_is_said_at_the_record_it_stood_in_for",
    "tests/formats/test_reader_time.py::test_a_csv_game_longer_than_the_head_is_read_as_csv",
    "tests/system/test_docs.py::test_the_rules_page_shows_every_rule_and_every_games_options_and_notes",
    "tests/system/test_docs.py::test_the_formats_page_names_every_variant_of_the_catalogue",
    "tests/system/test_docs.py::test_the_designs_layout_names_every_module",
    "tests/test_lsp.py::test_diagnostics_are_those_of_validate[errors/tags.lgn]",  # an unknown game's message
    "tests/test_document.py::test_a_hover_on_the_game_tag_of_an_unknown_game_says_why_there_are_no_rules",
    "tests/validator/test_latrunculi.py::test_the_pieces_in_hand_are_the_games_to_say_and_no_other_game_holds_any",
    "tests/formats/test_sources.py::test_a_format_that_is_none_is_one_error_that_names_those_there_are",
]
LEFT_OUT_OF_THEIR_FILE = {  # tests of a file run again whole that are not run again, and why
    "tests/test_variants.py::test_a_setting_a_variant_does_not_list_changes_nothing_in_its_games": "plays every "
    "legal ply of 23 kinds of variants again under each option set otherwise (9 s compiled, 21 s pure Python); "
    "it names no game, and asks of one only what the file's other tests ask (its options, choices and plies)",
}
NOT_RUN_AGAIN = {  # tests that list the games or formats, and why this file does not run them again
    "tests/system/test_plugins.py::test_the_game_and_the_format_are_found": "installs the plug-in itself",
    "tests/system/test_properties.py::test_the_games_are_eventful": "counts up what every game's games hold "
    "(a game added only adds to the counts), for 19 s with one more game",
}
LISTING_CALLS = {
    "known_games",
    "known_games_elided",
    "built_in_formats",
    "in_page_order",
    "source_formats",
    "targets",
    "tafl_games",
    "aagenielsen_types",
}
LISTING = {"list", "sorted", "set", "tuple", "dict", "len", "iter"}  # calls that list a registry given them


def lists_the_registry(node: ast.AST) -> bool:
    """Whether code lists the games or the formats: calls a function that does, or goes through
    `GAMES` or `FORMATS` (a loop, `*`, `.items()`, `sorted(…)`), rather than asking for one by name,
    or is a test whose premise is lusoria's own games (the fixture `lusorias_own_tafl_games`)."""
    if isinstance(node, ast.FunctionDef) and "lusorias_own_tafl_games" in [arg.arg for arg in node.args.args]:
        return True
    named = []  # the names GAMES and FORMATS, whose parents say how they are used
    for found in ast.walk(node):
        if isinstance(found, ast.Call):
            called = found.func
            if (called.id if isinstance(called, ast.Name) else getattr(called, "attr", None)) in LISTING_CALLS:
                return True
        if isinstance(found, ast.Name) and found.id in ("GAMES", "FORMATS"):
            named.append(found)
    if not named:
        return False
    parents = {child: parent for parent in ast.walk(node) for child in ast.iter_child_nodes(parent)}
    return any(
        isinstance(parent := parents.get(found), ast.Attribute)
        and parent.attr in ("items", "values", "keys", "in_page_order")
        or isinstance(parent, (ast.For, ast.comprehension))
        and parent.iter is found
        or isinstance(parent, ast.Starred)
        or isinstance(parent, ast.Call)
        and isinstance(parent.func, ast.Name)
        and parent.func.id in LISTING
        for found in named
    )


def listing_commands(cli: str) -> set[str]:
    """The commands of the CLI's code `cli` whose own code lists the games or the formats (not their
    options' choices, which only `--help` and a wrong choice show, and a new choice breaks neither)."""
    return {
        name
        for node in ast.parse(cli).body
        if isinstance(node, ast.FunctionDef) and any(lists_the_registry(statement) for statement in node.body)
        for decorator in node.decorator_list
        if (name := command_name(decorator, node.name))
    }


def command_name(decorator: ast.expr, function: str) -> str | None:
    """The name of the command a decorator such as `@main.command()` or `@players.command(name="list")`
    makes of `function`; None for another decorator."""
    if not (isinstance(decorator, ast.Call) and getattr(decorator.func, "attr", None) in ("command", "group")):
        return None
    named = [keyword.value for keyword in decorator.keywords if keyword.arg == "name"]
    return named[0].value if named and isinstance(named[0], ast.Constant) else function.replace("_", "-")


def runs_one_of(node: ast.AST, commands: set[str]) -> bool:
    """Whether a test's code names one of `commands` as the first word of a command line (`"formats"`,
    `"lusoria formats --format json"`)."""
    return any(
        isinstance(found, ast.Constant)
        and isinstance(found.value, str)
        and (words := found.value.removeprefix("lusoria ").split(maxsplit=1))
        and words[0] in commands
        for found in ast.walk(node)
    )


def test_the_scan_finds_a_command_that_lists_the_formats_and_the_tests_that_run_it():
    # new-user-18's `lusoria formats`: its snapshot test listed the formats, and no scan found it
    cli = (
        "@main.command()\ndef formats(): echo(render(api.source_formats()))\n"
        "@main.command(name='list')\ndef listed(): echo(', '.join(sorted(FORMATS)))\n"
        "@main.command()\n@click.option('--to', type=Named(lambda: api.target_formats()))\ndef convert(to): echo(to)\n"
    )
    assert listing_commands(cli) == {"formats", "list"}
    test = ast.parse("def test_it(snapshot):\n    assert CliRunner().invoke(main, ['formats']).output == snapshot\n")
    assert runs_one_of(test, {"formats"}) and not runs_one_of(test, {"convert", "list"})


def test_every_test_that_lists_the_games_or_formats_is_run_again_with_a_new_one():
    commands = listing_commands((ROOT / "lusoria" / "cli.py").read_text())
    listing = {
        f"{path.relative_to(ROOT)}::{node.name}"
        for path in (ROOT / "tests").rglob("test_*.py")
        if path.name != "test_registry.py"
        for node in ast.parse(path.read_text()).body
        if isinstance(node, ast.FunctionDef)
        and node.name.startswith("test_")
        and (lists_the_registry(node) or runs_one_of(node, commands))
    }
    assert len(listing) > 10  # the scan finds them
    run_again = [test for test in listing if not any(test.startswith(name) for name in READING_THE_LISTS)]
    assert sorted(set(run_again) - set(NOT_RUN_AGAIN)) == []
    assert sorted(set(NOT_RUN_AGAIN) - listing) == []  # an exception that no longer lists them goes


@pytest.mark.slow
def test_a_game_and_a_format_registered_break_no_test_that_is_not_about_them(tmp_path):
    done = subprocess.run(
        [
            *(sys.executable, "-m", "pytest", "-rN", "-p", "no:cacheprovider", "-o", "addopts=", "-v"),
            "--assert=plain",  # (rewriting the asserts of these files took a fifth of the run: run one that fails alone)
            *READING_THE_LISTS,
            *(f"--deselect={test}" for test in LEFT_OUT_OF_THEIR_FILE),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={**os.environ, THROWAWAY: "1", "XDG_CACHE_HOME": str(tmp_path)},
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    ran = done.stdout
    assert "[toytafl] PASSED" in ran  # the tests about every game see the new one
    assert not any(test in ran for test in LEFT_OUT_OF_THEIR_FILE)
    assert all(test.split("::")[0] in READING_THE_LISTS for test in LEFT_OUT_OF_THEIR_FILE)  # of a file run whole
    assert "test_a_reader_hands_over_records_of_known_games_and_plies_of_their_syntax[moves] PASSED" in ran
