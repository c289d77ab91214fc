"""Mutation testing: small bug-like changes to validator/, grammar/, archive/, the readers
(formats/, notation/) and the lusoria/ package's own modules (the API, the CLI, output…), made one at a time in a copy of the package, each run against the tests
that cover what it changes. A mutant the tests fail on is killed; one they pass is a survivor
(a missing test, or an equivalent mutant: docs/testing.md records which and why).

    python tests/mutation/run.py                      # the recorded run: every named and grammar
                                                      # mutant and a seeded sample of the rest
    python tests/mutation/run.py --sample 0 --only validator/tablut.py   # one module's named mutants
    python tests/mutation/run.py --sample 60 --only validator/tafl,validator/hnefatafl.py
    python tests/mutation/run.py --sample 60 --only lusoria       # the package's own modules
    python tests/mutation/run.py --list               # the mutants, without running them
    python tests/mutation/run.py --changed-since 6c04b62 --sample 100   # the lines changed since a commit
    python tests/mutation/run.py --only archive --skip archive/tree.py,archive/importer.py:_insert_batch
                                                      # not a file, nor a function (code being rewritten)

Mutants come from three sources: the operators below applied to the Python modules
(comparisons, and/or, an operand of and/or dropped, not removed, + and -, whole numbers
±1, True/False, rule IDs, `if` conditions made false, returned values, break/continue,
call statements removed), textual changes to the .lark grammars, and the hand-written
mutants of tests/mutation/named.py (the bugs issue 13 lists). The package is staged in a
temporary directory (never the working tree), its sources only, and put first on PYTHONPATH;
the tests run it as pure Python (LUSORIA_PURE_PYTHON=1: no compiled module shadows a mutant).
Some of the readers' tests need the real files (`../shared` beside the project): in a clone elsewhere,
link `shared` beside it, or their unmutated run fails and the runner stops (h78c).
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import tomllib
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import NamedTuple

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(Path(__file__).resolve().parent))
from named import NAMED

SCOPE = ("validator", "grammar", "archive", "formats", "notation", "lusoria")
# Which compiled modules or sources a process runs is seen only by a fresh process, and the runner
# runs the sources (LUSORIA_PURE_PYTHON=1): the accelerator's mutants would all survive.
UNMUTATED = {"lusoria/accelerator.py"}
PACKAGES = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-dir"]
RULES_TESTS = [
    "tests/validator/test_rule_edges.py",
    "tests/validator/test_tablut.py",
    "tests/validator/test_latrunculi.py",
    "tests/validator/test_laquet.py",
]
REPLAY_TESTS = [
    "tests/validator/test_replay.py",
    "tests/validator/test_suggest.py",
    "tests/notation/test_slips.py",
    "tests/validator/test_fast_paths.py",  # the fast paths against the general one
    "tests/validator/test_lookback_boards.py",  # the driver's plies of a line a later ply showed (G16)
]
ARCHIVE_TESTS = [
    "tests/archive/test_importer.py",
    "tests/archive/test_archive.py",
    "tests/archive/test_schema.py",
    "tests/archive/test_research.py",
    "tests/archive/test_positions.py",
    "tests/archive/test_variations.py",
    "tests/archive/test_migration.py",
    "tests/archive/test_identity.py",
    "tests/validator/test_base.py",
    "tests/archive/test_reading.py",
    "tests/archive/test_tree.py",
    "tests/archive/test_next_plies.py",  # the move tree's sums, kept by each batch of an import
    "tests/archive/test_filtered.py",  # stats and export of the records filters match
    "tests/archive/test_functions.py",  # the reading connections' SQL functions (lusoria_matching_plies…)
]
# the importer's summary (a record failed, a source unread) and the records of other formats it stores as lgn
IMPORT_TESTS = ARCHIVE_TESTS + [
    "tests/archive/test_record_faults.py",
    "tests/formats/test_sources.py",
    "tests/formats/test_lgn.py",
    "tests/test_cli.py",
]
GENERIC_TAFL_TESTS = [  # the generic tafl game's rules (G1-G16: berserk moves, mercenaries, berw's look back)
    "tests/validator/test_hnefatafl.py",
    "tests/validator/test_tafl_edges.py",
]
GRAMMAR_TESTS = ["tests/grammar/test_grammars.py", "tests/notation/test_reader.py", "tests/validator/test_replay.py"]
# The readers of other formats: the pointed tests first, then those reading whole files of each format
# (the fixtures', the real ones' of ../shared, the round trips and hostile inputs); never the readers'
# time bounds (tests/formats/test_reader_time.py: half a minute of measures) nor the whole real corpora.
FORMATS_TESTS = [
    "tests/formats/test_reader_edges.py",
    "tests/formats/test_readers_pinned.py",
    "tests/formats/test_contract.py",
    "tests/formats/test_sources.py",
    "tests/formats/test_formats.py",
    "tests/formats/test_lgn.py",
    "tests/formats/test_otn.py",
    "tests/formats/test_opentafl_variants.py",
    "tests/formats/test_site_capture_counts.py",
    "tests/formats/test_real_lookback_boards.py",
    "tests/archive/test_refused.py",  # a record of rules lusoria does not play keeps the tags its reader read
]
AAGE_TESTS = [  # the aagenielsen site's records (formats/aage.py) and the move lists (formats/tafl.py)
    "tests/formats/test_swapped_plies.py",
    "tests/formats/test_game_choice.py",
    "tests/formats/test_aagenielsen_types.py",
]
OTN_TESTS = ["tests/formats/test_round_trip.py", "tests/formats/test_hostile_formats.py"]
EVERY_FORMAT_TESTS = FORMATS_TESTS + AAGE_TESTS + OTN_TESTS
NOTATION_TESTS = [
    "tests/notation/test_reader.py",
    "tests/notation/test_syntax.py",
    "tests/notation/test_dates.py",
    "tests/notation/test_json_input.py",
    "tests/notation/test_slips.py",
    "tests/notation/test_plain_reading.py",
    "tests/notation/test_visitor.py",
]
# A record's `%` lines, which only fmt and the editor's formatting write (notation/escapes.py)
ESCAPE_TESTS = ["tests/test_fmt.py", "tests/test_document.py"]
# (test_numbering: the first move number whose dots stand apart, `1. ...`, asked for as `1...`: slips.py, syntax.py's
# dots_apart; h78c found a mutant of slip_fixes killed by it alone)
NOTATION_MODULE_TESTS = NOTATION_TESTS + FORMATS_TESTS + ["tests/validator/test_replay.py", *ESCAPE_TESTS]
NOTATION_MODULE_TESTS += ["tests/test_numbering.py"]
# Left out of every mutant's run: measures of a process's memory that take seconds each (what they
# alone catch, a stream held whole, `list(…)` around it, is in docs/testing.md's hand mutants, run by
# hand against them), and scans of the sources laid out as in the repository (archive/schema.py, not
# lusoria/archive/schema.py).
LEFT_OUT = [
    "tests/test_output.py::test_fmt_streams_its_records",
    "tests/test_output.py::test_convert_streams_its_records",
    "tests/test_output.py::test_sql_json_streams_its_rows",
    "tests/test_lsp_bounds.py::test_memory_stays_flat_over_four_thousand_edits",
    "tests/test_files.py::test_files_are_written_only_through_the_atomic_writer",
    "tests/test_rulebook.py::test_the_rules_of_a_whole_record_are_those_the_reader_and_the_replay_cite",
    "tests/test_workers.py::test_every_caller_of_the_pool_is_named_in_the_design",  # (fails in the staged copy)
]
# The tests run against a mutant of each file, fastest and most pointed first (pytest -x);
# the conformance corpora as a second opinion on the rules, the CLI's (show draws the boards).
LAST_TESTS = ["tests/system/test_conformance.py", "tests/test_cli.py"]
# The package's own modules: the tests that run it (click's CliRunner, the library calls, the language
# server's own message loop; a process started as `sys.executable` with this environment runs the
# staged copy too, as tests/test_lsp.py's server does), the commands' first.
COMMAND_TESTS = [
    "tests/test_cli.py",
    "tests/test_show.py",
    "tests/test_fmt.py",
    "tests/test_hostile_commands.py",
    "tests/test_numbering.py",
    "tests/test_large_boards.py",
]
ARCHIVE_COMMAND_TESTS = [  # import, search, sql, stats, export, tree… through CliRunner
    "tests/archive/test_research.py",
    "tests/archive/test_refused.py",
    "tests/archive/test_record_faults.py",
    "tests/archive/test_archive.py",
    "tests/archive/test_variations.py",
    "tests/archive/test_functions.py",
    "tests/archive/test_hostile_archive.py",
    "tests/archive/test_identity.py",  # duplicates
    "tests/archive/test_migration.py",  # a command's notes of an older archive upgraded, on stderr
    "tests/archive/test_filtered.py",  # stats and export with filters
]
KEPT_AS_WRITTEN = "tests/archive/test_kept_as_written.py"  # records of other formats: removed, duplicates
FAULT_TESTS = ["tests/archive/test_faults.py", "tests/archive/test_temporary.py", "tests/archive/test_interrupt.py"]
PICTURE_TESTS = ["tests/test_svg.py", "tests/test_html.py", "tests/test_large_boards.py", "tests/test_numbering.py"]
PUBLISHED_TESTS = "tests/test_published.py"  # html --output-dir: the pages' names, the index, the files there
TAFL_ENGINE_TESTS = (  # validator/tafl.py and the engine's parts it imports
    RULES_TESTS[:2]
    + ["tests/validator/test_tablut_ashton.py", "tests/validator/test_tafl.py"]
    + GENERIC_TAFL_TESTS
    + REPLAY_TESTS
    + LAST_TESTS
)
OTN = ("otn", "otn_rules", "otn_writer")  # the OTN reader, its rules records, its writer
TAFL_ENGINE = (
    "tafl",
    "tafl_board",
    "tafl_settings",
    "tafl_moves",
    "tafl_captures",
    "tafl_play",
    "tafl_continuations",
    "tafl_unwritten",
)
# What a game's module does beyond its rules: its boards, materials and patterns in the archive, its diagram
GAME_FACES_TESTS = ["tests/archive/test_positions.py", "tests/archive/test_research.py", "tests/test_svg.py"]
RULEBOOK_TESTS = "tests/test_rulebook.py"  # every rule ID a game's rules raise (its RuleIds too) has a text
NOT_A_PLY_TESTS = "tests/validator/test_not_a_ply.py"  # text that is no ply of the game (parse_move, parse_turn)
LAQUET = ("laquet", "laquet_points", "laquet_turns", "laquet_moves", "laquet_fast", "laquet_checked", "laquet_slips")
VALIDATOR_TESTS = (
    RULES_TESTS
    + REPLAY_TESTS
    + [
        "tests/test_cli.py",
        "tests/validator/test_fit.py",
        "tests/system/test_conformance.py",
        "tests/validator/test_games.py",
        RULEBOOK_TESTS,
    ]
)
# The CLI: a mutant of a command's code runs those of the module's test files that name the command
# (all of them outlast the timeout on a loaded machine); one of code every command runs, all of them.
BY_COMMAND = {"lusoria/cli.py"}
TESTS = {
    # test_variants: the options a variant plays by (options_in_play), which `explain` lists
    "validator/tablut.py": RULES_TESTS[:2] + REPLAY_TESTS + LAST_TESTS + ["tests/test_variants.py", RULEBOOK_TESTS],
    **{f"validator/{module}.py": TAFL_ENGINE_TESTS for module in TAFL_ENGINE},
    "validator/tafl_unwritten.py": TAFL_ENGINE_TESTS + ["tests/validator/test_fit.py"],  # look backs, bounded by fit
    # the OTN rules record written of a Settings (tafl_rules._game_options' tfr of C12's repetition option: h80b)
    "validator/tafl_settings.py": TAFL_ENGINE_TESTS + ["tests/formats/test_otn.py"],
    "validator/tafl_rules.py": GENERIC_TAFL_TESTS
    + ["tests/validator/test_tafl.py"]
    + REPLAY_TESTS
    + LAST_TESTS
    + ["tests/test_variants.py"]  # the idle keys, which `explain` leaves out
    + ["tests/formats/test_otn.py", "tests/formats/test_opentafl_variants.py"],  # what OpenTafl plays (h77a)
    "validator/hnefatafl.py": GENERIC_TAFL_TESTS
    + REPLAY_TESTS
    + ["tests/formats/test_opentafl_variants.py", "tests/archive/test_refused.py"]  # (h77a)
    + ["tests/test_numbering.py", "tests/test_variants.py"]
    + LAST_TESTS
    + [RULEBOOK_TESTS, "tests/validator/test_users_catalogue.py"],  # the user's catalogue read (catalogues)
    **{
        f"validator/{module}.py": [RULES_TESTS[0], RULES_TESTS[2]]
        + REPLAY_TESTS
        + LAST_TESTS
        + ["tests/test_variants.py", NOT_A_PLY_TESTS]
        + (GAME_FACES_TESTS if module == "latrunculi" else [])
        for module in ("latrunculi", "latrunculi_play")
    },
    **{
        f"validator/{module}.py": [RULES_TESTS[0], RULES_TESTS[3]]
        + REPLAY_TESTS
        + LAST_TESTS
        + [NOT_A_PLY_TESTS]
        + (GAME_FACES_TESTS if module == "laquet" else [])
        for module in LAQUET
    },
    "validator/suggest.py": ["tests/validator/test_suggest.py", "tests/test_cli.py", "tests/validator/test_laquet.py"],
    # the games on squares: their suggestions, and their boards and patterns in the archive
    "validator/grid.py": [
        "tests/validator/test_grid.py",
        "tests/validator/test_suggest.py",
        *GAME_FACES_TESTS,
        "tests/test_cli.py",
        "tests/notation/test_slips.py",  # mended_ply: a slip's readings (session 79's run)
    ],
    "validator/diagram.py": ["tests/test_svg.py", "tests/validator/test_games.py", "tests/validator/test_hnefatafl.py"],
    # the registry of games (not tests/system/test_plugins.py: its processes import the installed lusoria)
    # game_named: a game's name given as a filter's variant, as the archive says it (session 50's run)
    "validator/games.py": ["tests/validator/test_games.py", "tests/archive/test_research.py"],
    # _across: another game's variants proposed, within the bound, on real records (session 50's run)
    "validator/fit.py": ["tests/validator/test_fit.py", "tests/formats/test_game_choice.py"],
    # a game's variants explained (Game.variant_notes; the generic tafl game's catalogue)
    "validator/base.py": ["tests/test_variants.py", "tests/validator/test_base.py"] + VALIDATOR_TESTS,
    # the names' warnings (white space, NFC) are tests/validator/test_base.py's; the move numbers'
    # warning, past an illegal ply too (wrong_numbers), tests/test_numbering.py's; a site's claims the replay asks
    # (`_Replay.line`), the readers' edges' (tests/formats/test_reader_edges.py: only its records carry claims)
    "validator/replay.py": [
        "tests/validator/test_base.py",
        "tests/test_numbering.py",
        "tests/formats/test_reader_edges.py",
    ]
    + VALIDATOR_TESTS,
    **{f"formats/{module}.py": FORMATS_TESTS + OTN_TESTS + ["tests/validator/test_hnefatafl.py"] for module in OTN},
    **{
        f"formats/{module}.py": FORMATS_TESTS
        + AAGE_TESTS
        + ["tests/formats/test_hostile_formats.py", "tests/test_files.py"]  # a byte a header does not decode
        for module in ("tafl", "aage")
    },
    "formats/convert.py": FORMATS_TESTS + OTN_TESTS + [PUBLISHED_TESTS],  # the folders output is named from
    "formats/tablut_challenge.py": FORMATS_TESTS + ["tests/test_files.py"],  # a byte in a log's noise or date
    "formats/common.py": ["tests/formats/test_locator.py", *EVERY_FORMAT_TESTS]  # the readers' line index
    + ["tests/validator/test_hnefatafl.py"],  # SiteClaims.checked: a list lacking the king a ply took (h78c)
    "formats/lgn.py": FORMATS_TESTS + OTN_TESTS,  # the bound of write_lgn: test_hostile_formats
    "formats": EVERY_FORMAT_TESTS,
    # the bytes that do not decode, in a record, a `%` line, a CSV file's header, a log's noise, of every format
    "formats/sources.py": EVERY_FORMAT_TESTS
    + ["tests/test_files.py", PUBLISHED_TESTS]  # a folder not listed
    + ["tests/notation/test_reader.py"],  # a line too long: the records before it read, a one-game file's none (h78c)
    # tag_order; a record's `%` lines kept where they stand (fmt, the editor's formatting)
    "notation/writer.py": NOTATION_TESTS + FORMATS_TESTS + OTN_TESTS + ["tests/test_html.py", *ESCAPE_TESTS],
    "notation/escapes.py": ESCAPE_TESTS + NOTATION_TESTS + ["tests/test_files.py"],  # a `%` line's bytes (h83a)
    # the bounds of whole numbers, which the limits and bounds tests check (h83a)
    "notation/numbers.py": NOTATION_MODULE_TESTS + ["tests/system/test_limits.py", "tests/test_bounds.py"],
    "notation/syntax.py": NOTATION_MODULE_TESTS + ["tests/test_files.py"],  # a byte that does not decode (Undecodable)
    # what a game refuses after a ply (Game.refused_after: Latrunculi's second removal, S4)
    "notation/lalr.py": NOTATION_TESTS
    + ["tests/validator/test_latrunculi.py"]
    + FORMATS_TESTS
    + ["tests/validator/test_replay.py"],
    # reader.last_tag_line: where escapes.py puts a record's `%` lines
    "notation": NOTATION_MODULE_TESTS,
    # tag_meant: a tag named a letter off a known one is a warning of the replay's (`[Varient "piso"]`)
    "notation/slips.py": NOTATION_MODULE_TESTS + ["tests/validator/test_base.py"],
    "grammar": GRAMMAR_TESTS,
    # played_record: the tags a record cannot hold
    "lusoria/api.py": COMMAND_TESTS
    + ["tests/test_html.py", "tests/test_pipeline.py", "tests/test_files.py", "tests/test_variants.py"]
    + ["tests/validator/test_fit.py"]  # proposed_rules: each record's text beside it (session 50's run)
    + ["tests/test_played.py", PUBLISHED_TESTS],
    # explain GAME and VARIANT (a plug-in's game too), an option of the Rules tag, a word of the rules;
    # the names --variant takes
    "lusoria/variants.py": [
        "tests/test_variants.py",
        "tests/test_cli.py",
        "tests/archive/test_filtered.py",
        "tests/test_rulebook.py",
        "tests/validator/test_games.py",
    ],
    "lusoria/cli.py": COMMAND_TESTS
    + [
        "tests/test_rulebook.py",
        "tests/test_variants.py",
        "tests/validator/test_fit.py",
        "tests/formats/test_sources.py",
        "tests/formats/test_game_choice.py",  # reading: --game of a game whose boards are its variants (session 50)
        "tests/formats/test_otn.py",  # convert --to otn: the count of the records that lose the same (h81c)
        "tests/archive/test_reading.py",  # sql --timeout, taken to the statement (h81c)
    ]
    + ARCHIVE_COMMAND_TESTS
    + ["tests/test_files.py", "tests/test_pipeline.py", "tests/test_output.py"]  # jobs capped, odd filters
    + ["tests/archive/test_players.py"]  # players and crosstable: the invalid records they count
    + [PUBLISHED_TESTS],  # html --output-dir's index (index_written)
    "lusoria/output.py": COMMAND_TESTS
    + ["tests/test_output.py", "tests/test_pipeline.py", "tests/archive/test_players.py"]  # the crosstable
    + ["tests/formats/test_sources.py"]  # the last lines' counts of the files skipped and the sources not read
    + ["tests/archive/test_tree.py"]  # the tree's columns of games and rule sets (session 79's run)
    + ARCHIVE_COMMAND_TESTS,
    # the words of output: control characters escaped (test_output), values quoted (test_hostile_archive), lists
    # (test_suggest), the notes' files (test_pipeline), the reader told (test_files): h82a's run, killed there alone
    "lusoria/words.py": COMMAND_TESTS
    + ["tests/test_output.py", "tests/archive/test_hostile_archive.py", "tests/validator/test_suggest.py"]
    + ["tests/test_pipeline.py", "tests/test_files.py"],
    # and a message written in pieces, an import whose output is closed (h82a's hand mutants, killed there alone)
    "lusoria/terminal.py": ["tests/test_output.py", "tests/test_cli.py", "tests/test_hostile_commands.py"]
    + ["tests/archive/test_importer.py"],
    "lusoria/options.py": ["tests/test_output.py", "tests/test_files.py", "tests/test_cli.py"],
    "lusoria/svg.py": PICTURE_TESTS + ["tests/test_cli.py", "tests/validator/test_tablut_ashton.py"],  # its camps
    "lusoria/html.py": PICTURE_TESTS + [PUBLISHED_TESTS],
    "lusoria/document.py": [
        "tests/test_document.py",
        "tests/test_numbering.py",
        "tests/validator/test_suggest.py",
        "tests/test_lsp.py",
        "tests/test_lsp_bounds.py",
    ],
    "lusoria/lsp.py": [
        "tests/test_document.py",
        "tests/test_numbering.py",
        "tests/test_lsp.py",
        "tests/test_lsp_bounds.py",
    ],
    "lusoria/rulebook.py": ["tests/test_rulebook.py", "tests/test_variants.py", "tests/archive/test_datasette.py"],
    # stdin sniffed; the output's names compared blind to case
    "lusoria/files.py": ["tests/test_files.py", "tests/test_fmt.py", "tests/formats/test_sources.py", PUBLISHED_TESTS],
    # and the notes at the end of a run: the reading options a file does not follow, the records refused by type
    "lusoria/pipeline.py": [
        "tests/test_pipeline.py",
        "tests/test_cli.py",
        "tests/test_workers.py",
        "tests/formats/test_game_choice.py",
        "tests/formats/test_contract.py",
        # the notes of a file read as UTF-8 or garbled, a stream's, standard input's, a file read in its own
        # encoding (`encodings`): h82a's hand mutants, killed there alone
        "tests/formats/test_sources.py",
        "tests/test_files.py",
    ],
    "lusoria/workers.py": ["tests/test_workers.py", "tests/test_pipeline.py", "tests/archive/test_archive.py"],
    "lusoria/errors.py": ["tests/test_pickling.py", "tests/test_pipeline.py", "tests/test_hostile_commands.py"],
    "lusoria/bounds.py": ["tests/test_bounds.py", *COMMAND_TESTS],  # a library call's bounds, in the CLI's words
    "lusoria/plugins.py": ["tests/validator/test_games.py", "tests/formats/test_contract.py"],  # a plug-in failing
    "lusoria": COMMAND_TESTS,
    # and the import under faults: killed at chosen points, its temporary files (FAULT)
    "archive/importer.py": [  # (test_files: a library summary's sources read but for a byte, and not read)
        "tests/archive/test_replace.py",
        *IMPORT_TESTS,
        *FAULT_TESTS,
        "tests/test_files.py",
    ],
    "archive/removal.py": ["tests/archive/test_replace.py", *ARCHIVE_TESTS, "tests/test_cli.py", KEPT_AS_WRITTEN],
    "archive/duplicates.py": [KEPT_AS_WRITTEN, *ARCHIVE_TESTS, "tests/test_cli.py"],
    "archive/search.py": ["tests/archive/test_search.py", *ARCHIVE_TESTS, "tests/test_cli.py"],
    "archive/query.py": ARCHIVE_TESTS + ["tests/test_cli.py", "tests/archive/test_refused.py"],
    "archive/export.py": ARCHIVE_TESTS + ["tests/test_cli.py", "tests/test_files.py"],  # a failed export's files
    **{
        f"archive/{module}.py": ["tests/archive/test_texts.py", *ARCHIVE_TESTS, "tests/test_cli.py", KEPT_AS_WRITTEN]
        for module in ("texts", "tables")
    },
    "archive/tree.py": ARCHIVE_TESTS + ["tests/test_cli.py", "tests/archive/test_hostile_archive.py"],
    # the move tree's sums, taken off and summed again by a replacement (import --replace)
    "archive/next_plies.py": ["tests/archive/test_replace.py", *ARCHIVE_TESTS, "tests/test_cli.py"]
    + ["tests/archive/test_record_faults.py"],
    "archive/datasette.py": ["tests/archive/test_datasette.py", "tests/archive/test_explorer.py"],  # lusoria serve
    # serve's plugin: the explorer's routes in Datasette (its pages, its answers, a database it does not serve)
    "archive/datasette_plugin.py": ["tests/archive/test_explorer.py", "tests/archive/test_datasette.py"],
    # the explorer's game list and pages (serve's site), and the crosstable's players
    "archive/explorer.py": ["tests/archive/test_explorer.py", "tests/archive/test_datasette.py"]
    + ["tests/archive/test_filtered.py", "tests/validator/test_users_catalogue.py"],  # its filters, a user's games
    "archive/players.py": ["tests/archive/test_players.py", *ARCHIVE_TESTS, "tests/test_cli.py"],
    # Archive: the import into a new archive, a replacement (--replace), import_reports (test_pipeline),
    # the invalid records players counts (invalid_counted), the variant the explorer opens (variant_to_open)
    "archive/commands.py": ARCHIVE_TESTS
    + ["tests/archive/test_replace.py", "tests/test_pipeline.py", "tests/test_cli.py", "tests/archive/test_players.py"]
    + ["tests/archive/test_explorer.py", "tests/archive/test_refused.py"],  # (a refused type named as a game)
    # and a refused record's text, kept as written (test_refused); a plug-in's game failing on a
    # record's rows, said naming it (test_games)
    "archive/records_as_rows.py": IMPORT_TESTS + ["tests/archive/test_refused.py", "tests/validator/test_games.py"],
    # stats: the records of no game counted by the type a reader refused (test_refused), with ties
    "archive/stats.py": ARCHIVE_TESTS
    + ["tests/archive/test_refused.py", "tests/test_cli.py"]
    + ["tests/archive/test_results_by.py"],  # stats --by
    # a plug-in's game on squares without letters (tests/toy_game.py), which spells out its own boards
    "archive/positions.py": ARCHIVE_TESTS
    + ["tests/test_cli.py", "tests/validator/test_games.py"]
    + ["tests/archive/test_final_positions.py"],  # a game longer than EXACT_PLIES
    # every reader of the stored texts: a record kept as written read in its format (its import, upgrade,
    # removal, tree --from-id), the explorer's page of a record
    "archive/stored.py": ["tests/archive/test_kept_as_written.py", "tests/archive/test_explorer.py"]
    + ARCHIVE_TESTS
    + ["tests/archive/test_replace.py", "tests/test_cli.py"],
    "archive": ARCHIVE_TESTS + ["tests/test_cli.py"],
    "validator": VALIDATOR_TESTS,
}


@dataclass
class Mutant:
    id: str  # path:line:operator, unique
    path: str  # relative to the repository, e.g. validator/tablut.py
    line: int
    description: str
    source: str | None  # the whole mutated file (None: made when run, from `index`)
    named: bool = False
    index: int = -1  # of an operator mutant: which place of its file

    def text(self, original: str) -> str:
        if self.source is None:
            tree = ast.parse(original)
            self.source = ast.unparse(ast.fix_missing_locations(Mutator(self.index).visit(tree)))
        return self.source


# -- Python operators ------------------------------------------------------------------------

FLIPS = {
    ast.Eq: ast.NotEq,
    ast.NotEq: ast.Eq,
    ast.Lt: ast.LtE,
    ast.LtE: ast.Lt,
    ast.Gt: ast.GtE,
    ast.GtE: ast.Gt,
    ast.In: ast.NotIn,
    ast.NotIn: ast.In,
    ast.Is: ast.IsNot,
    ast.IsNot: ast.Is,
}
SKIP_FUNCTIONS = {"_fault"}  # the importer's test hook
RULE_ID = re.compile(r"[A-Z][0-9]{1,2}")


class Mutator(ast.NodeTransformer):
    """Visits a module in a fixed order, numbering every place an operator applies; with
    `target` set, applies the `target`-th change and records what it did."""

    def __init__(self, target: int | None = None):
        self.target, self.count, self.places, self.done = target, 0, [], None

    def _offer(self, node: ast.AST, description: str, build) -> ast.AST:
        index = self.count
        self.count += 1
        self.places.append((node.lineno, description))
        if index == self.target:
            new = build()
            self.done = (node.lineno, description)
            return ast.copy_location(new, node) if isinstance(new, ast.AST) else new
        return node

    def _offer_each(self, node: ast.AST, offers) -> ast.AST:
        """Offer each (description, build) in turn: the first one taken, or the node unchanged."""
        for description, build in offers:
            new = self._offer(node, description, build)
            if new is not node:
                return new
        return node

    # nothing inside docstrings, f-strings or annotations
    def visit_JoinedStr(self, node):
        return node

    def visit_arg(self, node):
        return node

    def visit_AnnAssign(self, node):
        node.value = self.visit(node.value) if node.value else None
        return node

    def visit_FunctionDef(self, node):
        if node.name in SKIP_FUNCTIONS:
            return node
        body = node.body[1:] if _docstring(node) else node.body
        node.decorator_list = [self.visit(d) for d in node.decorator_list]
        new_body = [self.visit(s) for s in body]
        node.body = (node.body[:1] if _docstring(node) else []) + [s for s in new_body if s is not None]
        return node

    def visit_ClassDef(self, node):
        body = node.body[1:] if _docstring(node) else node.body
        new_body = [self.visit(s) for s in body]
        node.body = (node.body[:1] if _docstring(node) else []) + [s for s in new_body if s is not None]
        return node

    def visit_Compare(self, node):
        self.generic_visit(node)

        def flip(i: int, flipped):
            def build():
                node.ops[i] = flipped()
                return node

            return build

        return self._offer_each(
            node,
            ((f"{_op(op)} -> {_op(FLIPS[type(op)]())}", flip(i, FLIPS[type(op)])) for i, op in enumerate(node.ops)),
        )

    def visit_BoolOp(self, node):
        self.generic_visit(node)
        other = ast.Or if isinstance(node.op, ast.And) else ast.And

        def drop(i: int):
            def build():
                rest = node.values[:i] + node.values[i + 1 :]
                return rest[0] if len(rest) == 1 else ast.BoolOp(node.op, rest)

            return build

        return self._offer_each(
            node,
            [
                (f"{_op(node.op)} -> {_op(other())}", lambda: ast.BoolOp(other(), node.values)),
                *((f"operand dropped: {ast.unparse(value)}", drop(i)) for i, value in enumerate(node.values)),
            ],
        )

    def visit_UnaryOp(self, node):
        self.generic_visit(node)
        if isinstance(node.op, ast.Not):
            return self._offer(node, f"not removed: {ast.unparse(node)}", lambda: node.operand)
        return node

    def visit_BinOp(self, node):
        self.generic_visit(node)
        swap = {ast.Add: ast.Sub, ast.Sub: ast.Add}.get(type(node.op))
        if swap and not _is_string(node):
            return self._offer(
                node, f"{_op(node.op)} -> {_op(swap())}", lambda: ast.BinOp(node.left, swap(), node.right)
            )
        return node

    def visit_Constant(self, node):
        value = node.value
        if isinstance(value, bool):
            return self._offer(node, f"{value} -> {not value}", lambda: ast.Constant(not value))
        if isinstance(value, int):
            return self._offer(node, f"{value} -> {value + 1}", lambda: ast.Constant(value + 1))
        if isinstance(value, str) and RULE_ID.fullmatch(value):
            return self._offer(node, f"rule {value} -> Z9", lambda: ast.Constant("Z9"))
        return node

    def visit_If(self, node):
        self.generic_visit(node)
        return self._offer(
            node,
            f"condition made false: if {ast.unparse(node.test)}",
            lambda: ast.If(ast.Constant(False), node.body, node.orelse),
        )

    def visit_Return(self, node):
        self.generic_visit(node)
        value = node.value
        if isinstance(value, ast.Constant) and isinstance(value.value, bool):
            return node  # the constant operator flips it
        if value is not None and not (isinstance(value, ast.Constant) and value.value is None):
            return self._offer(
                node, f"return None instead of {ast.unparse(value)[:40]}", lambda: ast.Return(ast.Constant(None))
            )
        return node

    def visit_Break(self, node):
        return self._offer(node, "break -> continue", ast.Continue)

    def visit_Continue(self, node):
        return self._offer(node, "continue -> break", ast.Break)

    def visit_Expr(self, node):
        self.generic_visit(node)
        if isinstance(node.value, ast.Call):
            return self._offer(node, f"call removed: {ast.unparse(node.value)[:50]}", ast.Pass)
        return node


def _docstring(node) -> bool:
    first = node.body[0] if node.body else None
    return isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str)


def _is_string(node: ast.BinOp) -> bool:
    return any(
        isinstance(side, (ast.JoinedStr,)) or (isinstance(side, ast.Constant) and isinstance(side.value, str))
        for side in (node.left, node.right)
    )


def _op(op: ast.AST) -> str:
    return {
        ast.Eq: "==",
        ast.NotEq: "!=",
        ast.Lt: "<",
        ast.LtE: "<=",
        ast.Gt: ">",
        ast.GtE: ">=",
        ast.In: "in",
        ast.NotIn: "not in",
        ast.Is: "is",
        ast.IsNot: "is not",
        ast.And: "and",
        ast.Or: "or",
        ast.Add: "+",
        ast.Sub: "-",
    }[type(op)]


def python_mutants(path: str) -> list[Mutant]:
    text = (ROOT / path).read_text()
    survey = Mutator()
    survey.visit(ast.parse(text))
    return [
        Mutant(f"{path}:{line}:{index}", path, line, description, None, index=index)
        for index, (line, description) in enumerate(survey.places)
    ]


# -- grammar operators -----------------------------------------------------------------------

GRAMMAR_OPERATORS = [
    # (pattern, replacement, description): each match of the pattern is one mutant
    (r'"[^"]*" \| ', "", "alternative dropped"),
    (r' \| "[^"]*"(?=[ \t]*(?://.*)?$)', "", "last alternative dropped"),
    (r"(?<=[\])A-Z\"])\?", "", "optional part made required"),
    (r"(?<=[\])A-Z\"])\*", "+", "* -> +"),
    (r"(?<=\[)([0-9a-z])(?=-)", lambda m: chr(ord(m[1]) + 1), "range starts one later"),
    (r"(?<=-)([0-9a-z])(?=\])", lambda m: chr(ord(m[1]) - 1), "range ends one earlier"),
    (r"(?<=-)([0-9a-z])(?=\])", lambda m: chr(ord(m[1]) + 1), "range ends one later"),
]


def _in_literal(text: str, position: int) -> bool:
    """Whether `position` is inside a "…" literal of its grammar line."""
    line = text[text.rfind("\n", 0, position) + 1 : position]
    return line.count('"') % 2 == 1


def grammar_mutants(path: str) -> list[Mutant]:
    text = (ROOT / path).read_text()
    mutants = []
    for operator, (pattern, replacement, description) in enumerate(GRAMMAR_OPERATORS):
        for match in re.finditer(pattern, text, re.M):
            line_start = text.rfind("\n", 0, match.start()) + 1
            if text[line_start:].lstrip().startswith("//") or _in_literal(text, match.start()):
                continue
            new = match.expand(replacement) if isinstance(replacement, str) else replacement(match)
            line = text.count("\n", 0, match.start()) + 1
            source = text[: match.start()] + new + text[match.end() :]
            shown = f"{description}: {match[0]!r} -> {new!r}"
            mutants.append(Mutant(f"{path}:{line}:{match.start()}.{operator}", path, line, shown, source))
    return mutants


def named_mutants() -> list[Mutant]:
    mutants = []
    for path, old, new, why in NAMED:
        text = (ROOT / path).read_text()
        if text.count(old) != 1:
            raise SystemExit(f"named mutant '{why}': {old!r} occurs {text.count(old)} times in {path}")
        line = text.count("\n", 0, text.index(old)) + 1
        mutants.append(Mutant(f"{path}:{line}:named", path, line, why, text.replace(old, new), named=True))
    return mutants


def every_mutant(only: str | None) -> tuple[list[Mutant], list[Mutant]]:
    """(named and grammar mutants, the operators' mutants of the Python modules)."""
    fixed, python = named_mutants(), []
    for folder in SCOPE:
        for file in sorted((ROOT / folder).iterdir()):
            path = f"{folder}/{file.name}"
            if path in UNMUTATED:
                continue
            if file.suffix == ".lark":
                fixed += grammar_mutants(path)
            elif file.suffix == ".py":
                python += python_mutants(path)
    if only:
        prefixes = tuple(only.split(","))
        fixed = [m for m in fixed if m.path.startswith(prefixes)]
        python = [m for m in python if m.path.startswith(prefixes)]
    return fixed, python


def left_out(mutants: list[Mutant], skip: str) -> list[Mutant]:
    """The mutants outside the places `skip` names, by commas: a path prefix (validator/grid.py)
    or a function of a file, wherever it nests (archive/importer.py:_insert_batch)."""
    prefixes = tuple(place for place in skip.split(",") if ":" not in place)
    functions = {tuple(place.split(":")) for place in skip.split(",") if ":" in place}
    spans: dict[str, list[tuple[int, int, str]]] = {}
    for path in {path for path, _ in functions}:
        spans[path] = [
            (node.lineno, node.end_lineno or node.lineno, node.name)
            for node in ast.walk(ast.parse((ROOT / path).read_text()))
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
        ]
    return [
        m
        for m in mutants
        if not m.path.startswith(prefixes)
        and not any(
            (m.path, name) in functions for first, last, name in spans.get(m.path, ()) if first <= m.line <= last
        )
    ]


def changed_lines(commit: str) -> dict[str, set[int]]:
    """The lines of each file of the scope that the working tree added or changed since `commit`."""
    diff = subprocess.run(
        ["git", "diff", "-U0", commit, "--", *SCOPE], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout
    lines: dict[str, set[int]] = {}
    for path, hunks in re.findall(r"^\+\+\+ b/(\S+)\n((?:(?!diff ).*\n)*)", diff, re.M):
        for start, count in re.findall(r"^@@ -\S+ \+(\d+)(?:,(\d+))? @@", hunks, re.M):
            lines.setdefault(path, set()).update(range(int(start), int(start) + int(count or 1)))
    return lines


# -- running ---------------------------------------------------------------------------------


def stage(folder: Path) -> Path:
    """A copy of the tests, samples, docs, README and pyproject.toml (test_pickling lists the packages
    from it), and of the package laid out as it is installed (pyproject's package-dir), in `folder`/tree,
    with the contracts beside it as `../shared`."""
    tree = folder / "tree"
    ignore = shutil.ignore_patterns("__pycache__", ".hypothesis", "*.so", "*.pyd")  # the sources, never compiled
    for package, source in PACKAGES.items():
        shutil.copytree(ROOT / source, tree / package.replace(".", "/"), ignore=ignore, dirs_exist_ok=True)
    for name in ("tests", "samples", "docs"):
        shutil.copytree(ROOT / name, tree / name, ignore=ignore)
    for name in ("README.md", "pyproject.toml"):
        shutil.copy(ROOT / name, tree)
    if (ROOT.parent / "shared").exists():
        (folder / "shared").symlink_to((ROOT.parent / "shared").resolve())
    return tree


def installed(path: str) -> str:
    """Where the file `path` of the repository is in the package as installed: validator/tafl.py
    in lusoria/validator/, lusoria/api.py where it is."""
    folder, name = path.rsplit("/", 1)
    package = next(package for package, source in PACKAGES.items() if source == folder)
    return f"{package.replace('.', '/')}/{name}"


def tests_for(mutant: Mutant, tree: Path) -> list[str]:
    chosen = TESTS.get(mutant.path) or TESTS[mutant.path.split("/")[0]]
    found = [test for test in dict.fromkeys(chosen) if (tree / test).exists()]
    if mutant.path not in BY_COMMAND:
        return found
    served = commands_served(mutant.path, mutant.line)
    if served is None:
        return found
    return [test for test in found if served & commands_named(tree / test)]


@cache  # (a source read once per run: each mutant of cli.py asks again)
def _top_level(path: str) -> dict[str, ast.stmt]:
    """The module's functions, classes and names assigned, by name."""
    defined: dict[str, ast.stmt] = {}
    for statement in ast.parse((ROOT / path).read_text()).body:
        if isinstance(statement, (ast.FunctionDef, ast.ClassDef)):
            defined[statement.name] = statement
        elif isinstance(statement, ast.Assign):
            defined.update((target.id, statement) for target in statement.targets if isinstance(target, ast.Name))
    return defined


def _command_name(name: str, statement: ast.stmt) -> str | None:
    """The name a command of `main` is run by (a group's own command: the group's), or None."""
    for decorator in getattr(statement, "decorator_list", ()):
        call = decorator.func if isinstance(decorator, ast.Call) else None
        if isinstance(call, ast.Attribute) and call.attr in ("command", "group") and isinstance(call.value, ast.Name):
            if call.value.id != "main":
                return call.value.id
            named = [k.value.value for k in decorator.keywords if k.arg == "name" and isinstance(k.value, ast.Constant)]
            return named[0] if named else name.replace("_", "-")
    return None


def _first_line(statement: ast.stmt) -> int:
    return min([statement.lineno] + [decorator.lineno for decorator in getattr(statement, "decorator_list", ())])


@cache
def _names_used(path: str) -> dict[str, set[str]]:
    """The names each of the module's top-level statements uses (`_top_level`), by its name."""
    return {
        name: {n.id for n in ast.walk(statement) if isinstance(n, ast.Name)}
        for name, statement in _top_level(path).items()
    }


def commands_served(path: str, line: int) -> set[str] | None:
    """The commands whose code holds `line` of the CLI module `path`: the command's own function and
    decorators, or what they use, at any depth (the group `main`'s code: every command's). None where no
    command's does (module-level code)."""
    defined, used = _top_level(path), _names_used(path)
    reached = {name for name, s in defined.items() if _first_line(s) <= line <= (s.end_lineno or s.lineno)}
    while more := {user for user, names in used.items() if names & reached} - reached:
        reached |= more
    commands = {command for name in reached if (command := _command_name(name, defined[name]))}
    return commands or None


@cache  # (each test file read once per run)
def commands_named(test: Path) -> set[str]:
    """The words of a test file's strings (its docstrings aside), among them the commands it runs."""
    tree = ast.parse(test.read_text())
    documents = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.ClassDef))
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    return {
        word
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in documents
        for word in node.value.split()
    }


def pytest(staged: Path, tests: list[str], timeout: float) -> subprocess.CompletedProcess:
    # pure Python: the mutants are made in the sources (lusoria/accelerator.py)
    # PYTEST_ADDOPTS emptied: the shell's (`-n auto`, `--no-summary`) would change the output `caught` reads
    env = dict(
        os.environ,
        PYTHONPATH=str(staged),
        CI="true",
        PYTHONDONTWRITEBYTECODE="1",
        LUSORIA_PURE_PYTHON="1",
        PYTEST_ADDOPTS="",
    )
    command = [
        str(Path(sys.executable).parent / "pytest"),
        "-x",
        "-q",
        "--tb=short",  # a frame a line: the fixture that raised (caught)
        "-o",
        "addopts=",
        "-p",
        "no:cacheprovider",
        *(f"--deselect={test}" for test in LEFT_OUT),
        *tests,
    ]
    # its own process group: a mutant that hangs a server the tests started (lusoria lsp) must not outlive the
    # timeout, nor the runner stopped (SIGTERM, Ctrl-C), which would else wait for the tests to end
    with subprocess.Popen(
        command, cwd=staged, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True
    ) as process:
        try:
            stdout, stderr = process.communicate(timeout=timeout)
        except BaseException:
            os.killpg(process.pid, signal.SIGKILL)
            process.communicate()
            raise
    return subprocess.CompletedProcess(command, process.returncode, stdout, stderr)


ERROR_HEADING = re.compile(r"^_+ ERROR (at setup of|at teardown of|collecting) .*?_*$", re.M)
TEST_FRAME = re.compile(r"^tests/\S+:\d+: in (\w+)$", re.M)  # --tb=short: a frame of the tests' own code
CONFTEST_UNREAD = re.compile(r"^ImportError while loading conftest '.*?/(tests/\S*conftest\.py)'", re.M)
SUMMARY_HEADING = " short test summary info ="  # its last: what a test printed or logged (`ERROR …`) comes above it


def node(said: str) -> str:
    """The test's node id of a line of pytest's summary after its word (`tests/x.py::test_y[a b] - ValueError: …`)."""
    return said.split(" - ")[0]


class Caught(NamedTuple):
    """What a mutant's tests did: its status, what caught it, and whether that was an error (a fixture's, an
    import's) rather than a test's failure."""

    status: str
    failed: str = ""
    by_error: bool = False


def caught(done: subprocess.CompletedProcess) -> Caught:
    """What caught the mutant, from pytest's output (-x: one test at most fails): the test that failed; else
    the test a fixture of which raised, at its setup or teardown, with the fixture (the first frame of the
    tests' own code in the error's traceback), the test file that did not import, or conftest.py (said on
    stderr); with nothing named, "error" and pytest's exit status, neither killed nor survived."""
    if done.returncode == 0:
        return Caught("survived")
    summary = [
        line.partition(" ")[::2]
        for line in done.stdout.rpartition(SUMMARY_HEADING)[2].splitlines()
        if line.startswith(("FAILED ", "ERROR "))
    ]
    failed = next((node(said) for word, said in summary if word == "FAILED"), None)
    if failed:
        return Caught("killed", failed)
    errored = next((node(said) for word, said in summary if word == "ERROR"), None)
    heading, unread = ERROR_HEADING.search(done.stdout), CONFTEST_UNREAD.search(done.stderr)
    if errored and heading and heading[1] == "collecting":
        return Caught("killed", f"{errored} (error collecting it)", by_error=True)
    if errored and heading:
        frame = TEST_FRAME.search(done.stdout)
        fixture = f", fixture {frame[1]}" if frame else ""
        return Caught("killed", f"{errored} (error {heading[1].removesuffix(' of')}{fixture})", by_error=True)
    if unread:
        return Caught("killed", f"{unread[1]} (error loading it)", by_error=True)
    return Caught("error", f"exit {done.returncode}")


def run_one(mutant: Mutant, staged: Path, timeout: float) -> tuple[Caught, float]:
    """Apply the mutant in the staged copy, run its tests, restore: what caught it, and the seconds taken."""
    target = staged / installed(mutant.path)
    original = target.read_text()
    target.write_text(mutant.text(original))
    start = time.monotonic()
    try:
        result = caught(pytest(staged, tests_for(mutant, staged), timeout))
    except subprocess.TimeoutExpired:
        result = Caught("killed", "timeout")
    finally:
        target.write_text(original)
    return result, time.monotonic() - start


def tally(results: list[dict]) -> str:
    """The run's count: killed (by an error, a fixture's or an import's, apart), survived, and ended with
    nothing named."""
    killed = [r for r in results if r["status"] == "killed"]
    by_error = sum(r["by_error"] for r in killed)
    survived = sum(r["status"] == "survived" for r in results)
    return (
        f"{len(killed)} killed ({by_error} by an error), {survived} survived, "
        f"{len(results) - len(killed) - survived} ended with no test named, of {len(results)}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sample", type=int, default=150, help="operator mutants drawn from the Python modules")
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument("--only", help="path prefixes, by commas: validator/tablut.py, archive, formats,notation, …")
    parser.add_argument("--changed-since", metavar="COMMIT", help="only the lines changed since COMMIT")
    parser.add_argument("--skip", help="places left out, by commas: path prefixes, path:function (any nesting)")
    parser.add_argument("--ids", help="a file of mutant ids to run (one a line), e.g. the last run's survivors")
    parser.add_argument("--timeout", type=float, default=300)
    parser.add_argument("--out", default=str(ROOT / "tests/mutation/last-run.json"))
    parser.add_argument("--list", action="store_true", help="print the mutants and stop")
    parser.add_argument("--no-check", action="store_true", help="skip the run of the tests on the unmutated copy")
    args = parser.parse_args()

    fixed, python = every_mutant(args.only)
    if args.changed_since:
        changed = changed_lines(args.changed_since)
        fixed, python = ([m for m in kind if m.line in changed.get(m.path, ())] for kind in (fixed, python))
    if args.skip:
        fixed, python = left_out(fixed, args.skip), left_out(python, args.skip)
    sample = random.Random(args.seed).sample(python, min(args.sample, len(python)))
    mutants = fixed + sorted(sample, key=lambda m: (m.path, m.line, m.id))
    if args.ids:
        wanted = set(Path(args.ids).read_text().split())
        mutants = [m for m in fixed + python if m.id in wanted]
    if args.list:
        for m in mutants:
            print(f"{m.id}\t{m.description}")
        print(
            f"{len(mutants)} mutants ({len(fixed)} named and grammar, {len(python)} operator mutants "
            f"in all, {len(sample)} sampled)"
        )
        return
    signal.signal(signal.SIGTERM, lambda *_: sys.exit("stopped"))  # so that the staged copy is removed
    # the tests' processes take Ctrl-C as usual (tests/test_workers.py checks whose it is), even when this
    # one was started in the background, which ignores it and would hand that on
    signal.signal(signal.SIGINT, signal.default_int_handler)
    results, started = [], time.monotonic()
    with tempfile.TemporaryDirectory(prefix="lusoria-mutants-") as folder:
        staged = stage(Path(folder))
        every_test = sorted({test for m in mutants for test in tests_for(m, staged)})
        sane = None if args.no_check else pytest(staged, every_test, args.timeout * 4)
        if sane and sane.returncode != 0:
            raise SystemExit("the tests fail without any mutant:\n" + sane.stdout[-3000:])
        print(f"the unmutated copy passes {len(every_test)} test files" if sane else "not checked", flush=True)
        for number, mutant in enumerate(mutants, 1):
            (status, failed, by_error), seconds = run_one(mutant, staged, args.timeout)
            results.append(
                dict(
                    id=mutant.id,
                    path=mutant.path,
                    line=mutant.line,
                    named=mutant.named,
                    description=mutant.description,
                    status=status,
                    seconds=round(seconds, 1),
                    failed=failed,
                    by_error=by_error,
                )
            )
            print(
                f"[{number}/{len(mutants)}] {status:8} {seconds:5.1f}s {mutant.id} {mutant.description}"
                + (f"  ({failed})" if failed else ""),
                flush=True,
            )
            Path(args.out).write_text(json.dumps(results, indent=1) + "\n")
    print(f"{tally(results)} in {(time.monotonic() - started) / 60:.0f} min")
    for r in results:
        if r["status"] != "killed":
            print(f"{r['status']}: {r['id']} {r['description']}" + (f"  ({r['failed']})" if r["failed"] else ""))


if __name__ == "__main__":
    main()
