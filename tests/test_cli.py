"""The command line: output (snapshots), JSON, exit statuses."""

import bz2
import gzip
import json
import lzma
import os
import subprocess
import sys

import click
import pytest
from click.testing import CliRunner
from conftest import ROOT, known_games_elided

from lusoria import __version__, accelerator
from lusoria.archive import Archive, ImportSummary, UnnamedArchive
from lusoria.cli import main
from lusoria.notation.reader import STDIN_ADVICE
from lusoria.validator.games import known_games
from lusoria.validator.replay import check
from lusoria.words import COMMAND


def run(*args: str, input: str | None = None):
    return CliRunner().invoke(main, list(args), input=input)


def test_the_readme_main_command_validates_the_good_samples(in_root):
    command = (in_root / "README.md").read_text().splitlines()[3]
    paths = command.split("lusoria validate ")[1].split()
    assert {"samples/tablut", "samples/latrunculi", "samples/laquet"} <= set(paths)
    result = run("validate", *paths)
    assert result.exit_code == 0, result.output
    assert result.output.endswith("valid, 0 invalid (0 errors, 0 warnings)\n")


def test_validate_the_error_samples_human(in_root, snapshot):
    result = run("validate", "samples/errors")
    assert result.exit_code == 1
    assert f"unknown game 'chess' (known: {', '.join(known_games())})" in result.output
    assert known_games_elided(result.output) == snapshot


def test_validate_the_error_samples_json(in_root, snapshot):
    result = run("validate", "--json", "samples/errors")
    assert result.exit_code == 1
    lines = [json.loads(line) for line in result.output.splitlines()]
    assert list(lines[0]) == [
        *("path", "record", "line", "game", "variant", "valid", "plies", "result", "white", "black", "diagnostics")
    ]
    assert json.loads(known_games_elided(json.dumps(lines))) == snapshot


def test_validate_json_names_each_records_players(tmp_path):
    """A club's web page of a round's verdicts had to look up who played each game: validate --json
    names the players as the White and Black tags do (an aagenielsen.dk game's its site's names;
    none, null, for a move list, which holds none)."""
    game = {"WhiteSidePlayerName": "mia", "BlackSidePlayerName": "jon", "AageGameTypeKey": 51}
    game |= {"AageGameTypeName": "Historical Hnefatafl 7x7 (Irish Brandubh 1)", "Moves": ["d1-c1", "d1-b1"]}
    (tmp_path / "game-51-1-2.json").write_text(json.dumps(game))
    (tmp_path / "brandubh.txt").write_text("d1-c1 e4-e1\n")
    (tmp_path / "b.lgn").write_text('[Game "tablut"]\n[White "Anna Berg"]\n[Black "Erik Lund"]\n1. e3-c3 e3-e4 *\n')
    said = [json.loads(line) for line in run("validate", "--json", str(tmp_path)).output.splitlines()]
    assert [(r["white"], r["black"], r["valid"], [d["ply"] for d in r["diagnostics"]]) for r in said] == [
        ("Anna Berg", "Erik Lund", False, [2]),
        (None, None, True, []),
        ("mia", "jon", False, [2]),
    ]


@pytest.mark.parametrize(
    "name", ["tablut-moves", "tablut-warnings", "latrunculi-moves", "latrunculi-warnings", "laquet-moves"]
)
def test_every_error_sample_record_shows_what_its_termination_tag_says(in_root, name):
    """Each record of these samples names, in Termination, the one rule it breaks."""
    path = f"samples/errors/{name}.lgn"
    reports = [json.loads(line) for line in run("validate", "--json", path).output.splitlines()]
    assert all(len(report["diagnostics"]) == 1 for report in reports)
    assert all(report["valid"] == name.endswith("warnings") for report in reports)
    text = open(path).read()
    said = [line.split('"')[1].split(":")[0] for line in text.splitlines() if line.startswith("[Termination")]
    assert said == [report["diagnostics"][0]["rule"] for report in reports]


def test_strict_turns_warnings_into_errors(in_root):
    assert run("validate", "samples/errors/tablut-warnings.lgn").exit_code == 0
    strict = run("validate", "--strict", "samples/errors/tablut-warnings.lgn")
    assert strict.exit_code == 1 and "error[T8]" in strict.output


def test_validate_counts_every_error_of_a_record():
    # the main line and a variation broken: one invalid record, two errors
    two = '[Game "tablut"]\n\n1. e3-c3 (1. e3-e9) d1-d9 *\n'
    result = run("validate", "-", input=two + "\n" + '[Game "tablut"]\n1. e3-c3 *\n')
    assert result.exit_code == 1 and result.output.count("error[T2]") == 2
    assert "2 records: 1 valid, 1 invalid (2 errors, 0 warnings)\n" in result.output
    [broken] = [json.loads(line) for line in run("validate", "--json", "-", input=two).output.splitlines()]
    assert [(d["rule"], d["ply"], d["column"]) for d in broken["diagnostics"]] == [("T2", 1, 14), ("T2", 2, 21)]


def test_validate_reads_stdin():
    result = run("validate", "-", input='[Game "tablut"]\n1. e3-c3 *\n')
    assert result.exit_code == 0 and result.output == "1 record: 1 valid, 0 invalid (0 errors, 0 warnings)\n"


def test_unreadable_input_exits_2_and_the_other_files_are_checked(in_root, tmp_path):
    bad = tmp_path / "bad.lgn"
    bad.write_bytes(b"%\xff\n")  # a byte that does not decode, in no record (in one: that record's error)
    result = run("validate", "missing.lgn", str(bad), "samples/tablut/escape.lgn")
    assert result.exit_code == 2
    assert "lusoria: missing.lgn: no such file or directory" in result.output
    assert f"lusoria: {bad}:1:2: byte 0xFF is not valid utf-8, in no record" in result.output
    assert "1 record: 1 valid" in result.output
    assert "byte" not in run("validate", "--encoding", "latin-1", str(bad)).output


@pytest.mark.parametrize(
    "packer, kind, suffix, command",
    [(gzip, "gzip", "gz", "gunzip"), (bz2, "bzip2", "bz2", "bunzip2"), (lzma, "xz", "xz", "unxz")],
)
def test_a_compressed_file_is_said_to_be_one_not_text_of_another_encoding(tmp_path, packer, kind, suffix, command):
    """A gzip'd log is no Latin-1 text: the advice is to decompress it, named or in a folder (xz's
    mark is five bytes long, longer than the encoding's)."""
    packed = tmp_path / f"Gialli_vs_Blu_1_gameLog.txt.{suffix}"
    packed.write_bytes(packer.compress(b"May 23, 2019 5:40:02 PM\n"))
    said = f"a {kind}-compressed file, not text: decompress it first ({command})"
    for encoding in ("utf-8", "latin-1"):
        named = run("validate", "--encoding", encoding, str(packed))
        assert (named.exit_code, named.output) == (
            2,
            f"lusoria: {packed}: {said}\n",  # (no summary of nothing read)
        )
    in_folder = run("validate", str(tmp_path))
    assert f"lusoria: {packed}: skipped, {said}\n" in in_folder.output


@pytest.mark.parametrize(
    "start, kind",
    [
        (b"\x89PNG\r\n\x1a\n\0\0", "a PNG image"),
        (b"\xff\xd8\xff\xe0\0\x10JFIF", "a JPEG image"),
        (b"GIF89a\x01\0", "a GIF image"),
        (b"%PDF-1.7\n", "a PDF document"),
        (b"II*\0\x08\0\0\0", "a TIFF image"),
        (b"MM\0*\0\0\0\x08", "a TIFF image"),
        (b"RIFF\n\x10\0\0WEBPVP8 ", "a WebP image"),  # its size holds a line break
        (b"\0\0\0\x18ftypheic\0\0\0\0mif1heic", "a HEIC or AVIF image"),  # was: try --encoding utf-32-be
        (b"\0\0\0\x1cftypavif\0\0\0\0", "a HEIC or AVIF image"),
    ],
)
def test_a_picture_or_a_pdf_named_is_said_to_be_no_text(tmp_path, start, kind):
    """A photo or a scan of a score sheet, named as a record file, is said for what it is, not as text
    of another encoding (`try --encoding latin-1`)."""
    picture = tmp_path / "round-1.lgn"
    picture.write_bytes(start)
    ran = run("validate", str(picture))
    said = f"{kind}, not text: lusoria reads records written as text (an .lgn file: docs/notation.md)"
    assert (ran.exit_code, ran.output) == (
        2,
        f"lusoria: {picture}: {said}\n",
    )
    documented = " ".join((ROOT / "docs/formats.md").read_text().split())
    assert f"`a PNG image{said.removeprefix(kind)}`" in documented  # the message docs/formats.md quotes


def test_a_record_that_names_a_picture_after_its_start_is_read(tmp_path):
    """A picture is told by a file's first bytes alone: a record whose comment quotes them is read."""
    (tmp_path / "game.lgn").write_text('[Game "tablut"] {the scan, round-1.gif, starts GIF89a} 1. e3-c3 *\n')
    ran = run("validate", str(tmp_path / "game.lgn"))
    assert (ran.exit_code, ran.output) == (0, "1 record: 1 valid, 0 invalid (0 errors, 0 warnings)\n")


def test_a_chess_pgn_is_told_to_name_its_game(tmp_path):
    """A PGN of chess (no Game tag) is told what to write, and the games lusoria reads."""
    (tmp_path / "game.pgn").write_text('[Event "Casual"]\n[Result "1-0"]\n\n1. e4 e5 2. Nf3 1-0\n')
    ran = run("validate", str(tmp_path / "game.pgn"))
    assert ran.exit_code == 1
    assert ran.output.startswith(
        f"{tmp_path / 'game.pgn'}:1:1: error[tag]: the record has no Game tag: begin it with one, as"
        ' [Game "brandubh"] (known: brandubh, copenhagen, hnefatafl, laquet, latrunculi, tablut'
    )


def test_the_list_of_commands_says_what_each_does():
    """`lusoria --help` gives each command a summary that says more than the arguments it takes
    (click ends a summary at `PATH...` when a capital or a parenthesis follows)."""
    listed = run("--help").output.split("Commands:\n")[1].splitlines()
    assert len(listed) == len(main.commands)
    assert [row for row in listed if row.rstrip(".").endswith(" PATH")] == []
    assert any(row.startswith("  duplicates  Find the records that are the same game as an earlier") for row in listed)


def test_records_and_messages_are_written_in_utf_8_where_python_would_write_another_encoding(tmp_path):
    """h80c: on Windows a redirected output takes the ANSI code page: `fmt a.lgn > b.lgn` wrote cp1252, which
    lusoria refused to read back, and a name beyond it stopped `validate` with an internal error (simulated by
    PYTHONIOENCODING, as Windows' Python sets it from the locale)."""
    path = tmp_path / "club.lgn"
    path.write_text('[Game "brandubh"]\n[White "Łukasz Wójcik"]\n\n1. d2-b2 *\n', encoding="utf-8")
    env = {**os.environ, "PYTHONIOENCODING": "cp1252"}
    command = [sys.executable, "-m", "lusoria.cli"]
    done = subprocess.run([*command, "fmt", str(path)], capture_output=True, env=env)
    assert done.returncode == 0 and '[White "Łukasz Wójcik"]'.encode() in done.stdout
    done = subprocess.run([*command, "validate", "--json", str(path)], capture_output=True, env=env)
    assert done.returncode == 0 and json.loads(done.stdout.decode("utf-8"))


def test_the_module_runs_as_the_command():
    """`python -m lusoria.cli` is `lusoria` (the language server's tests start it so)."""
    done = subprocess.run([sys.executable, "-m", "lusoria.cli", "--version"], capture_output=True, text=True)
    said = f"lusoria, version {__version__} ({accelerator.describe()})\n"
    assert (done.returncode, done.stdout, done.stderr) == (0, said, "")
    assert run("--version").output == said


def test_usage_errors_exit_2():
    assert run("validate").exit_code == 2
    assert run("random", "--game", "chess").exit_code == 2
    assert run("random", "--game", "tablut", "--rules", "nope=1").exit_code == 2


@pytest.mark.parametrize(
    ("command", "said"),
    [
        (
            ["validate", "--game", "linnaeus", "-"],
            "linnaeus is a variant, not a game: --game tablut --variant linnaeus",
        ),
        (
            ["random", "--game", "saami-tablut-w"],
            "saami-tablut-w is a variant, not a game: --game tablut --variant aage --rules first=white",
        ),
        (  # spaces around the name left out, as of any name; a value of several words quoted for the shell
            ["random", "--game", " ashton-tablut "],
            "ashton-tablut is a variant, not a game: --game tablut --variant ashton "
            "--rules 'throne-hostile=empty camp-hostile=empty repetition=none'",
        ),
        (  # a variant as `lusoria explain` takes it, its game before it (session 49)
            ["random", "--game", "tablut/Linnaeus"],
            "tablut/Linnaeus is a variant, not a game: --game tablut --variant linnaeus",
        ),
        (
            ["fmt", "--game", "Tyr 13x13", "-"],
            "Tyr 13x13 is a variant, not a game: --game hnefatafl --variant tyr-13x13 or --game hnefatafl --variant tyr-13x13-172",
        ),
    ],
)
def test_a_variant_given_as_the_game_is_said_with_the_options_that_name_it(command, said):
    # a tafl player gives --game the variant played: the usage error says how to name it
    result = run(*command, input="")
    known = ", ".join(known_games())
    name = command[2].strip()
    assert result.exit_code == 2
    refused = result.stderr.splitlines()[-1]  # (the games known, and any like it, then what it is)
    assert refused.startswith(f"Error: Invalid value for '--game': unknown game '{name}' (known: {known}")
    assert refused.endswith(f"); {said}")


def test_a_name_of_no_variant_or_another_option_is_refused_as_before():
    known = ", ".join(known_games())
    assert run("validate", "--game", "chess", "-").stderr.endswith(f"unknown game 'chess' (known: {known})\n")
    for other, like in (("copenhagen/linnaeus", "; did you mean copenhagen?"), ("hnefatafl/saami-tablut-w", "")):
        said = run("validate", "--game", other, "-").stderr  # (a variant of another game than named)
        assert said.endswith(f"unknown game '{other}' (known: {known}{like})\n")
    refused = run("validate", "--from", "linnaeus", "-").stderr  # --from names formats: no variant is said
    assert refused.startswith("Usage: ") and refused.endswith("'.\n") and "variant" not in refused


@pytest.mark.parametrize("command", [["validate", "--game", "tablt", "-"], ["random", "--game", "Tablt"]])
def test_a_slip_of_a_games_name_is_said_as_tree_says_it(command):
    # validate and random said click's words alone (is not one of ...), where tree --game says what was meant
    known = ", ".join(known_games())
    said = run(*command, input="").stderr.splitlines()[-1]
    assert (
        said == f"Error: Invalid value for '--game': unknown game '{command[2]}' (known: {known}; did you mean tablut?)"
    )


def test_fmt_writes_canonical_form(in_root, snapshot):
    result = run("fmt", "samples/tablut/escape.lgn")
    assert result.exit_code == 0
    assert result.output == snapshot


def test_fmt_check_and_write(tmp_path):
    path = tmp_path / "game.lgn"
    path.write_text('[Game "Tablut"]\n1. e3-c3 d1-d3 2. e4-e3! *\n')
    assert run("fmt", "--check", str(path)).exit_code == 1
    assert run("fmt", "--write", str(path)).exit_code == 0
    assert "2. e4-e3xd3 $1 *" in path.read_text()
    assert run("fmt", "--check", str(path)).exit_code == 0


def test_fmt_keeps_a_record_it_cannot_parse(tmp_path):
    path = tmp_path / "game.lgn"
    path.write_text('[Game "tablut"]\n1. e3-q3 *\n\n[Game "tablut"]\n1. e3-c3 *\n')
    result = run("fmt", str(path))
    assert result.exit_code == 1
    assert '[Game "tablut"]\n1. e3-q3 *\n' in result.stdout and "1. e3-c3 *" in result.stdout
    assert "error[syntax]: found 'e3-q3'" in result.stderr


def test_show_the_board(in_root, snapshot):
    assert run("show", "samples/tablut/escape.lgn", "--ply", "7").output == snapshot
    assert run("show", "samples/tablut/king-captured.lgn").output == snapshot


def test_show_latrunculi_marks_inciti_and_pieces_in_hand(in_root, snapshot):
    placing = run("show", "samples/latrunculi/seneca.lgn", "--ply", "5")
    assert "in hand: White 13, Black 14" in placing.output
    freed = run("show", "samples/latrunculi/seneca.lgn", "--ply", "757")
    assert " I " in freed.output or " i " in freed.output
    assert (placing.output, freed.output, run("show", "samples/latrunculi/dux.lgn").output) == snapshot


def test_show_laquet(in_root, snapshot):
    assert run("show", "samples/laquet/whole-game.lgn", "--ply", "7").output == snapshot


def test_random_laquet_rolls_its_dice_from_the_seed(tmp_path):
    first = run("random", "--game", "laquet", "-n", "2", "--seed", "3").output
    assert first == run("random", "--game", "laquet", "-n", "2", "--seed", "3").output
    assert first != run("random", "--game", "laquet", "-n", "2", "--seed", "4").output
    path = tmp_path / "random.lgn"
    path.write_text(first)
    assert run("validate", str(path)).exit_code == 0


@pytest.mark.parametrize(
    "args, message",
    [
        (["--ply", "99"], "no ply 99: it has 9 (the last, move 5, White: Kc5-c1++)"),
        (["--record", "3"], "has no record 3"),
    ],
)
def test_show_out_of_range(in_root, args, message):
    result = run("show", "samples/tablut/escape.lgn", *args)
    assert result.exit_code != 0 and message in result.output


def test_show_stops_where_the_replay_stops(in_root):
    result = run("show", "samples/errors/tablut-moves.lgn", "--record", "4", "--ply", "2")
    assert result.exit_code == 1 and "no ply 2: its replay stops after ply 1" in result.output


@pytest.mark.parametrize("command", ["show", "html"])
def test_a_command_of_one_record_says_when_the_file_holds_more(in_root, command, tmp_path):
    """A teacher ran `lusoria html pupils.lgn` on a file of six games and got the first alone,
    without a word of the other five."""
    written = ["-o", str(tmp_path / "out")]
    note = "lusoria: note: samples/errors/results.lgn holds more records than this one, record 0 (--record N picks another)"
    assert note in run(command, "samples/errors/results.lgn", *written).stderr
    assert "note" not in run(command, "samples/errors/results.lgn", "--record", "0", *written).stderr
    assert "note" not in run(command, "samples/tablut/escape.lgn", *written).stderr


@pytest.mark.parametrize("command", ["show", "html"])
def test_the_help_of_a_command_of_one_record_says_it_takes_the_first(command):
    shown = " ".join(run(command, "--help").output.split())
    assert (
        "--record INTEGER Which record of the file (0-based; an archive's record N, as its import read it: lusoria sql "
        "'SELECT text FROM record_texts WHERE id = N' --format lgn, piped in as PATH -). [default: 0]" in shown
    )


def test_the_route_the_help_gives_from_an_archives_record_reads_one_kept_as_written(tmp_path):
    """h75b: the help's route, `query --id N --format lgn`, leaves out a record kept as written in another
    format (a Tablut Challenge log); the text `record_texts` holds is any record as its import read it."""
    db = str(tmp_path / "a.db")
    log = "tests/fixtures/formats/errors/Gialli_vs_Blu_1763730000000_gameLog.txt"
    assert run("import", "--db", db, log).exit_code == 0
    text = run("sql", "SELECT text FROM record_texts WHERE id = 1", "--db", db, "--format", "lgn").stdout
    assert text == (ROOT / log).read_text()
    shown = run("html", "-", "-o", str(tmp_path / "page"), input=text)
    assert shown.exit_code == 0, shown.output
    assert "Gialli" in (tmp_path / "page").read_text()


@pytest.mark.parametrize("command", [["query"], ["players", "list"], ["players", "crosstable"]])
def test_the_player_filter_of_a_command_without_a_move_tree_speaks_of_none(command):
    """A new user read in `query --help` that "the move tree then counts their results": only `tree`
    draws one, and its own help says so."""
    assert "move tree" not in " ".join(run(*command, "--help").output.split())
    assert "with --player, the results are that player's" in " ".join(run("tree", "--help").output.split())


def test_the_help_of_random_variant_reads_as_a_sentence():
    assert "(needed by a game whose boards are its variants)." in " ".join(run("random", "--help").output.split())


@pytest.mark.parametrize("variant", ["seneca", "piso", "petteia", "dux"])
def test_random_latrunculi(tmp_path, variant):
    path = tmp_path / "random.lgn"
    path.write_text(run("random", "--game", "latrunculi", "--variant", variant, "-n", "3", "--seed", "1").output)
    assert run("validate", str(path)).exit_code == 0


def test_random_on_another_board(tmp_path):
    result = run("random", "--game", "latrunculi", "--board", "10x6", "--rules", "pieces=12", "--seed", "4")
    assert '[Board "10x6"]' in result.output and '[Rules "pieces=12"]' in result.output
    path = tmp_path / "random.lgn"
    path.write_text(result.output)
    assert run("validate", str(path)).exit_code == 0
    assert run("random", "--game", "latrunculi", "--board", "3x3").exit_code == 2


def test_options_that_choose_no_rules_say_each_problem_at_its_option():
    result = run("random", "--game", "latrunculi", "--rules", "foo=1", "--board", "3x3")
    assert result.exit_code == 2
    assert "Invalid value for --rules: unknown rules key 'foo' for latrunculi" in result.output
    assert "\n--board: a Board is WxH with each side from 4 to 16, as in 8x8; not '3x3'" in result.output


def test_random_of_a_game_that_describes_its_boards_by_its_variants_needs_one():
    """Its record would have no Variant tag, and read as the catalogue's first variant without a word."""
    result = run("random", "--game", "hnefatafl")
    assert (
        result.exit_code == 2
        and "hnefatafl describes its boards by its variants: name one (a Variant tag, --variant" in (result.output)
    )
    named = run("random", "--game", "hnefatafl", "--variant", "tyr-9x9", "--seed", "1", "--max-plies", "4")
    assert named.exit_code == 0 and '[Variant "tyr-9x9"]' in named.output


@pytest.mark.parametrize(
    "command, word, game",
    [
        (["random"], "latrunculi", "latrunculi"),
        (["random", "-n", "2"], "Tablut", "tablut"),
        (["query"], "laquet", "laquet"),
    ],
)
def test_a_game_named_as_a_word_where_a_command_takes_it_as_game_says_the_option(tmp_path, command, word, game):
    """`lusoria random latrunculi` said only "Missing option '--game'"; every command takes a game as --game."""
    result = run(*command, word, "--db", str(tmp_path / "none.db")) if command == ["query"] else run(*command, word)
    assert result.exit_code == 2 and result.output.endswith(
        f"Error: a game is given as an option, not a word: did you mean --game {game}?\n"
    )
    assert result.output.startswith(f"Usage: main {command[0]} [OPTIONS]\n")  # (CliRunner names it main)


def test_random_without_a_game_and_no_word_says_the_option_is_missing_with_the_games():
    """`lusoria random` alone: the option is missing, the games listed (session 49's run: `--game`'s `required`
    made False survived: an internal error, exit 3, `'NoneType' object has no attribute 'lower'`)."""
    result = run("random", "-n", "2")
    games = "".join(f"\t{game},\n" for game in sorted(known_games()))[:-2]
    assert (result.exit_code, result.output) == (
        2,
        f"Usage: main random [OPTIONS]\nTry 'main random --help' for help.\n\n"
        f"Error: Missing option '--game'. Choose from:\n{games}\n",
    )


@pytest.mark.parametrize(
    "command, word, said",
    [
        (["random"], "linnaeus", "linnaeus is a variant, not a game: --game tablut --variant linnaeus"),
        (
            ["random", "-n", "2"],
            "tablut/linnaeus",
            "tablut/linnaeus is a variant, not a game: --game tablut --variant linnaeus",
        ),
        (
            ["random"],
            " saami-tablut-w ",
            "saami-tablut-w is a variant, not a game: --game tablut --variant aage --rules first=white",
        ),
        (
            ["query"],
            "saami-tablut-w",
            "saami-tablut-w is a variant, not a game: --variant saami-tablut-w",
        ),  # (no --rules)
    ],
)
def test_a_variant_named_as_a_word_where_a_command_takes_it_as_game_says_the_options(tmp_path, command, word, said):
    """`lusoria random linnaeus` said only "Missing option '--game'" (session 49): the options that name
    the variant, as `--game linnaeus` says them, or the filters of a command without --rules."""
    result = run(*command, word, "--db", str(tmp_path / "none.db")) if command == ["query"] else run(*command, word)
    assert result.exit_code == 2 and result.output.endswith(
        f"Error: a game is given as an option, not a word; {said}\n"
    )


def test_help_with_a_game_named_as_a_word_is_the_help():
    """`lusoria random latrunculi --help` was the usage error: --help asks for the help whatever else is given."""
    result = run("random", "latrunculi", "--help")
    assert result.exit_code == 0 and result.output.startswith("Usage: main random [OPTIONS]\n")
    assert "did you mean" not in result.output


def test_a_word_after_game_given_is_an_extra_argument_and_a_path_named_as_a_game_is_a_path():
    assert run("random", "--game", "tablut", "latrunculi").output.endswith(
        "Error: Got unexpected extra argument (latrunculi)\n"
    )
    assert run("validate", "latrunculi").output.startswith("lusoria: latrunculi: no such file or directory\n")


def test_board_for_a_game_that_takes_none_says_what_to_give_instead_in_the_options_terms():
    # it said "a Board tag is for games played on boards of several sizes", the tag's words
    several = "\n--board: only games played on boards of several sizes take it: "
    result = run("random", "--game", "hnefatafl", "--board", "11x11")
    assert result.exit_code == 2 and result.output.endswith(
        f"{several}hnefatafl names its board by its variant, use --variant instead "
        "(one of 11x11: --variant skalk-hnefatafl-11x11)\n"
    )
    written = run("random", "--game", "hnefatafl", "--board", " 11 X 11")  # the size said as a Board tag writes it
    assert written.output.endswith("(one of 11x11: --variant skalk-hnefatafl-11x11)\n")
    result = run("random", "--game", "hnefatafl", "--variant", "tyr-9x9", "--board", "3x3")
    assert result.output.endswith("use --variant instead (none is played on 3x3)\n")
    result = run("random", "--game", "tablut", "--board", "11x11")
    assert result.output.endswith(
        "Invalid value for --board: only games played on boards of several sizes take it: tablut has one "
        "board (9x9), leave --board out\n"
    )
    assert run("random", "--game", "laquet", "--board", "9x9").output.endswith(
        "laquet has one board, leave --board out\n"
    )
    for option, value, fault in (("--rules", "pieces=40", "8x8 board cannot hold 2 x 40"), ("--board", "4x4", "4x4")):
        result = run("random", "--game", "latrunculi", option, value)  # (newcomer-58a: pieces=40 named --board)
        assert result.exit_code == 2 and f"Invalid value for {option}: the {fault}" in result.output


def test_random_is_reproducible_and_valid(tmp_path, snapshot):
    first = run("random", "--game", "tablut", "-n", "3", "--seed", "7")
    assert first.output == run("random", "--game", "tablut", "-n", "3", "--seed", "7").output
    assert first.output.split("\n\n")[0:2] == snapshot
    path = tmp_path / "random.lgn"
    path.write_text(first.output)
    assert run("validate", str(path)).exit_code == 0


def test_validate_with_jobs_keeps_the_order_and_the_output(tmp_path):
    records = list(api_random("tablut", 150)) + ['[Game "tablut"]\n1. e3-d2 *\n'] + list(api_random("laquet", 100))
    path = tmp_path / "many.lgn"
    path.write_text("\n".join(records))
    one = run("validate", "--jobs", "1", "--json", str(path))
    two = run("validate", "--jobs", "2", "--json", str(path))
    assert one.exit_code == two.exit_code == 1
    assert one.output == two.output and len(one.output.splitlines()) == 251
    assert json.loads(one.output.splitlines()[150])["diagnostics"][0]["rule"] == "T2"


def api_random(game: str, count: int):
    from lusoria.api import random_records

    return random_records(game, count, seed=9, max_plies=30)


def test_every_command_cites_a_problem_where_validate_does(tmp_path):
    """One place for one problem: a game type lusoria cannot express, on line 5 of a scrape
    whose record starts on line 2, is cited at 5:26 (past the quote) by every command that reads the record."""
    scrape = tmp_path / "scrape.json"
    scrape.write_text(
        json.dumps(
            [
                {
                    "WhiteSidePlayerName": "A",
                    "BlackSidePlayerName": "B",
                    "AageGameTypeName": "Alea Evangelii 19x19",
                    "Moves": "a4-c4",
                }
            ],
            indent=2,
        )
    )
    place = f"{scrape}:5:26: "
    validated = run("validate", str(scrape))
    assert validated.output.startswith(place + "error[tag]: game type 'Alea Evangelii 19x19'")
    assert run("fmt", str(scrape)).stderr.startswith(place + "error[tag]: game type")
    assert run("convert", "--to", "lgn", str(scrape)).stderr.startswith(f"lusoria: {place}record 0 not converted: ")
    assert run("rules", str(scrape)).output.startswith(place + "record 0: cannot be replayed: error[tag]: game type")
    shown = run("show", str(scrape))
    assert shown.exit_code == 1 and shown.stderr.startswith(
        f"lusoria: {place}record 0: cannot be replayed: error[tag]: game type"
    )
    (tmp_path / "open.lgn").write_text('[Game "tablut"]\n1. e3-c3 e4-b4\n')  # no result marker: 2:15
    assert run("show", str(tmp_path / "open.lgn")).stderr.startswith(f"{tmp_path / 'open.lgn'}:2:15: error[syntax]")
    assert run("rules", str(tmp_path / "open.lgn")).output.startswith(f"{tmp_path / 'open.lgn'}:2:15: record 0")


def test_convert_and_the_html_index_say_an_illegal_ply_with_its_move_as_validate_does(tmp_path):
    """validate said "move 2, White: " before an illegal ply's message; convert, and the verdict of
    html's index (of a ply in a variation: the main line is replayed whole), said the message
    alone: the transcriber counted plies to find it. The index names the side as the page it links to does."""
    path = tmp_path / "illegal.lgn"
    path.write_text('[Game "tablut"]\n\n1. e3-c3 a4-b4 ( 1... d1-d2 2. c3-c9 ) *\n')
    said = "error[T2]: move 2, White, in a variation: the way is blocked at c5; the rest of this line is not checked"
    meant = "; did you mean c3-c1 or c3-c2 or c3-c4?"
    assert run("validate", str(path)).output.startswith(f"{path}:3:32: {said}\n")
    converted = run("convert", "--to", "otn", str(path))
    assert converted.stderr == f"lusoria: {path}:3:32: record 0 not converted: {said}{meant}\n"
    run("html", str(path), "--output-dir", str(tmp_path / "pages"))
    paged = "error[T2]: move 2, Swedes (White), in a variation: the way is blocked at c5; the rest of this line is not checked"
    assert f'"invalid: 3:32: {paged}{meant}"' in (tmp_path / "pages/index.html").read_text()


def test_a_record_that_stops_parsing_is_refused_for_its_syntax_error_not_its_tags(tmp_path):
    """A tag warning before the syntax error (`[date …]`) was given by show, fmt and rules as why they did not read the
    record (review78b): the syntax error stops it, whatever the tags' slips before it."""
    path = tmp_path / "r.lgn"
    path.write_text('[Game "tablut"]\n[date "2019"]\n\n1. e3-c3 d1-d3 2. c3-e3 d9-d7 3. e5-e4 e6x *\n')
    why = f"{path}:4:40: record 0: cannot be replayed: error[syntax]: found 'e6x'"
    assert run("show", str(path)).stderr.startswith(f"lusoria: {why}")
    assert run("rules", str(path)).output.startswith(why)
    assert run("fmt", str(path)).stderr.startswith(f"{path}:4:40: error[syntax]: found 'e6x'")
    db = str(tmp_path / "r.db")
    run("import", "--db", db, str(path))
    assert "its rules could not be read (syntax: found 'e6x'" in run("tree", "--db", db, "--from-id", "1").stderr
    assert [d.rule for d in check(path.read_text()).diagnostics] == ["tag", "syntax", "T2"]  # (validate: in order)


def test_rules_says_a_start_that_cannot_be_read_as_show_does(tmp_path):
    """A malformed Position tag: the record cannot be replayed, which rules says as show does
    (it said "legal under no rule set"), with exit status 1."""
    path = tmp_path / "start.lgn"
    path.write_text('[Game "tablut"]\n[Position "9/9/zz/9/9/9/9/9/9"]\n1. e3-c3 *\n')
    why = (
        f"{path}:2:2: record 0: cannot be replayed: error[tag]: malformed Position: a Tablut position is 9 ranks and the side "
        "to move (w or b), as in '3ppp3/4p4/4P4/p3P3p/ppPPKPPpp/p3P3p/4P4/4p4/3ppp3 w'\n"
    )
    shown, searched = run("show", str(path)), run("rules", str(path))
    assert (shown.exit_code, shown.stderr) == (1, f"lusoria: {why}")
    assert (searched.exit_code, searched.output) == (1, why)


def test_rules_exit_status_says_whether_every_record_was_searched(tmp_path):
    (tmp_path / "nowhere.lgn").write_text('[Game "tablut"]\n1. e3-d2 *\n')  # legal under no rule set: searched
    (tmp_path / "open.lgn").write_text('[Game "tablut"]\n1. e3-c3 e4-b4\n')  # no result marker: not replayed
    assert run("rules", str(tmp_path / "nowhere.lgn")).exit_code == 0
    assert run("rules", str(tmp_path / "nowhere.lgn"), str(tmp_path / "open.lgn")).exit_code == 1
    assert run("rules", str(tmp_path / "open.lgn"), str(tmp_path / "missing.lgn")).exit_code == 2


def test_rules_of_a_game_whose_boards_are_its_variants_checks_a_variant_given_before_reading(tmp_path):
    """`rules --game hnefatafl` searches every variant of a record that names none; a variant given is
    checked before any record is read, as every command checks it (session 50's mutation run: the
    check left out where a variant is given passed)."""
    path = tmp_path / "moves.txt"
    path.write_text("1. d1-d3 f4-d4\n")
    result = run("rules", "--game", "hnefatafl", "--variant", "nosuch", str(path))
    assert (result.exit_code, result.stderr.splitlines()[-1]) == (
        2,
        "Error: Invalid value for --variant: unknown variant 'nosuch' for hnefatafl (181 known: lusoria explain "
        "hnefatafl lists them)",
    )


def test_rules_with_jobs_keeps_the_order_and_the_output(tmp_path):
    """The pool (one record a chunk) fits the records in order, as one process does."""
    records = list(api_random("tablut", 20)) + ['[Game "tablut"]\n1. e3-d2 *\n']
    path = tmp_path / "many.lgn"
    path.write_text("\n".join(records))
    one = run("rules", "--jobs", "1", str(path))
    two = run("rules", "--jobs", "2", str(path))
    assert one.exit_code == two.exit_code == 0
    assert one.output == two.output and len(one.output.splitlines()) == 22
    assert one.output.splitlines()[20].endswith(
        "record 20: legal under no rule set (580 tried): first conflict at ply 1 under every set"
    )


@pytest.mark.parametrize("command", [["validate"], ["convert", "--to", "lgn"], ["rules"], ["show"], ["html"]])
def test_a_file_without_a_record_is_said_and_exits_2(tmp_path, command):
    """`rules` on a file or folder without a record said nothing and exited 0, as if every record
    of it had been searched; `show` and `html` said "Invalid value for --record", an option not
    given; validate and convert said so, and exited 2."""
    path = tmp_path / "empty.lgn"
    path.write_text("% nothing but an escape line\n")
    result = run(*command, str(path))
    assert (result.exit_code, result.stderr) == (2, f"lusoria: no record found in {path}\n")
    assert result.stdout == (
        "0 records: 0 valid, 0 invalid (0 errors, 0 warnings)\n" if command == ["validate"] else ""
    )


def test_convert_needs_a_target_format_and_a_folder_that_is_no_file(tmp_path):
    record = tmp_path / "game.lgn"
    record.write_text('[Game "tablut"]\n1. e3-c3 *\n')
    untold = run("convert", str(record))
    assert untold.exit_code == 2 and "Error: Missing option '--to'." in untold.stderr
    (tmp_path / "out").write_text("a file")
    into_a_file = run("convert", "--to", "lgn", "--output-dir", str(tmp_path / "out"), str(record))
    assert into_a_file.exit_code == 2 and into_a_file.stdout == ""
    assert into_a_file.stderr.endswith(
        f"Error: Invalid value for '--output-dir': Directory '{tmp_path / 'out'}' is a file.\n"
    )
    assert (tmp_path / "out").read_text() == "a file"


@pytest.mark.parametrize(
    "command, said",
    [
        (["tree"], "--sort [games|score] The most played plies first, or the best scores. [default: games]"),
        (["tree"], "--min-games INTEGER Leave out the plies played in fewer games. [default: 1]"),
        (
            ["export"],
            "--format [parquet|csv|jsonl] Parquet needs pip install 'lusoria[parquet]'; CSV needs nothing; JSON lines: "
            "one file, a record a line. [default: parquet]",
        ),
        (["show"], "--format [text|svg] The board as text, or as an SVG diagram. [default: text]"),
        (["random"], "--max-plies INTEGER Stop a game (result *) after this many plies. [default: 200]"),
        (  # a default read when the help is shown (LazyDefault): the archive's
            ["sql"],
            "--timeout INTEGER Stop the statement after this many seconds of its running (0: no limit; the time "
            "its rows wait to be written, to a pager or a slow pipe, is not counted). Ctrl-C stops it too. "
            "[default: 60]",
        ),
    ],
)
def test_the_help_of_an_option_says_its_default(command, said):
    assert said in " ".join(run(*command, "--help").output.split())


def test_serve_on_a_port_taken_says_so(tmp_path):
    pytest.importorskip("datasette.app", reason="Datasette is a test extra: pip install -e '.[test]'")
    import socket

    from lusoria.archive import Archive

    db = str(tmp_path / "club.db")
    Archive(db).import_paths(['[Game "tablut"]\n1. e3-c3 *\n'])
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = run("serve", "--db", db, "--port", str(port))
    assert (result.exit_code, result.output) == (2, f"lusoria: cannot listen on port {port}: address already in use\n")


def test_a_file_whose_name_starts_with_a_bracket_is_read_as_a_file(tmp_path, monkeypatch):
    """`[old].lgn` on the command line is a file: the library reads a string that starts with `[`
    as a record's text, and every command read the name as a record without tags or movetext."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "[old].lgn").write_text('[Game "tablut"]\n\n1. e3-c3 d1-d3 *\n')
    runner = CliRunner()
    assert runner.invoke(main, ["validate", "[old].lgn"]).output.startswith("1 record: 1 valid, 0 invalid")
    assert runner.invoke(main, ["show", "[old].lgn"]).output.startswith(
        "tablut (seed) after ply 2 of 2 (move 1, Black: d1-d3)\n"
    )
    checked = runner.invoke(main, ["fmt", "--check", "[old].lgn"])
    assert (checked.exit_code, checked.stdout) == (1, "[old].lgn: not in canonical form\n")  # (no Result tag)
    assert runner.invoke(main, ["convert", "--to", "otn", "[old].lgn"]).exit_code == 0
    imported = runner.invoke(main, ["import", "--db", "a.db", "[old].lgn"])
    assert imported.output == "a.db: added 1 record (0 invalid, 0 of them unparsable), skipped 0 duplicates\n"
    query = runner.invoke(main, ["query", "--db", "a.db", "--format", "json"])
    assert [row["path"] for row in json.loads(query.output)] == ["[old].lgn"]


def test_lsp_without_its_extra_says_how_to_install_it(monkeypatch):
    """It said "Error: No module named 'cattrs': …" and exited 1, the status of an invalid record;
    `serve` without its extra says "lusoria: …" and exits 2."""
    for module in ("lusoria.lsp", "lusoria.document"):
        monkeypatch.delitem(sys.modules, module, raising=False)
    monkeypatch.setitem(sys.modules, "cattrs", None)  # import cattrs fails, as without the extra
    result = run("lsp")
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (
        "lusoria: lusoria lsp needs the language server's packages (cattrs is missing): pip install 'lusoria[lsp]'\n"
    )


def _options_without_help(command: click.Command, path: str) -> list[str]:
    """The options of `command` and its subcommands that `--help` shows without a word."""
    lacking = [
        f"{path} {option.opts[0]}"
        for option in command.params
        if isinstance(option, click.Option) and not option.hidden and not option.help
    ]
    for name, sub in getattr(command, "commands", {}).items():
        lacking += _options_without_help(sub, f"{path} {name}")
    return lacking


def test_every_option_of_every_command_says_what_it_is_for():
    """`query --result` and `players list/crosstable --format` said nothing in their help."""
    assert _options_without_help(main, "lusoria") == []


@pytest.mark.parametrize(
    "variant, path", [("dux", "samples/latrunculi/dux.lgn"), ("seed", "samples/tablut/escape.lgn")]
)
def test_a_variant_of_a_game_given_without_the_game_is_taken(variant, path):
    """--variant dux (one game's), or seed (two games'): the records' game chooses, said in a note only."""
    result = run("validate", "--variant", variant, path)
    assert (result.exit_code, result.stdout) == (0, "1 record: 1 valid, 0 invalid (0 errors, 0 warnings)\n")
    assert result.stderr.startswith(f"lusoria: note: --variant {variant} is not applied to the records of 1 lgn file")


def test_a_command_added_to_a_group_of_another_program_runs_there(tmp_path):
    """A program may add lusoria's commands to a click group of its own: with no lusoria group
    at the root there is no --debug to ask (import asks once its records are stored)."""

    @click.group()
    def tools() -> None:
        """Another program's commands."""

    tools.add_command(main.commands["import"])
    db = tmp_path / "a.db"
    result = CliRunner().invoke(tools, ["import", "--db", str(db), "samples/tablut/escape.lgn"])
    assert (result.exit_code, result.stderr) == (0, "")
    assert result.stdout == f"{db}: added 1 record (0 invalid, 0 of them unparsable), skipped 0 duplicates\n"


@pytest.mark.parametrize(
    "record, head, ply",
    [  # White first; a variation's ply; attackers first, numbered as their players do and as chess does; a placing
        ('[Game "tablut"]\n1. e3-c3 e4-b4 *\n', "2:10: error[T1]: move 1, Black: the piece on e4 is White's", 2),
        (
            '[Game "tablut"]\n1. e3-c3 d1-d3 2. c3-c4 ( 2. e5-e2 ) *\n',
            "2:30: error[T2]: move 2, White, in a variation: the way is",
            3,
        ),
        ('[Game "copenhagen"]\n1. d1-d3 f4-f3 2. a4-c5 *\n', "2:19: error[C3]: move 2, Black: a piece moves along", 3),
        (
            '[Game "copenhagen"]\n1... d1-d3 2. f4-f3 a4-c5 *\n',
            "2:21: error[C3]: move 2, Black: a piece moves along",
            3,
        ),
        ('[Game "latrunculi"]\n1. @a1 @b2 2. @c1 @a1 *\n', "2:19: error[S1]: move 2, Black: a1 is occupied", 4),
        ('[Game "laquet"]\n1. 63: 1/7 1/4 *\n', "2:4: error[Q3]: move 1, White: 1/7 lands on point 7", 1),
    ],
)
def test_a_plys_diagnostic_says_its_move_and_side_in_text_and_its_ply_in_json(record, head, ply):
    """A transcriber checks against a source numbered by moves: the text said the ply's place alone."""
    assert run("validate", "-", input=record).output.startswith(f"<stdin>:{head}")
    [said] = json.loads(run("validate", "--json", "-", input=record).output)["diagnostics"]
    assert "move" not in said and said["ply"] == ply


def test_python_dash_m_lusoria_is_the_lusoria_command():
    """`python -m lusoria` runs the command as installed, named `lusoria` in what it says (it did
    not run: the package had no __main__)."""
    ran = subprocess.run(
        [sys.executable, "-m", "lusoria", "explain", "T99"], capture_output=True, text=True, check=False
    )
    assert ran.returncode == 2, ran.stderr
    assert ran.stderr.startswith("Usage: lusoria explain"), ran.stderr


@pytest.mark.parametrize("command", [["validate"], ["duplicates"], ["rules"], ["import", "--db", "a.db"]])
def test_an_input_not_read_gets_no_summary_of_nothing(tmp_path, monkeypatch, command):
    """A missing file and a zip archive named: each is said, and no '0 records: 0 valid…' (nor
    'added 0 records', '0 duplicates') follows as if something had been read; a file read beside
    them is summed up as before."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "a.zip").write_bytes(b"PK\x03\x04\0\0")
    (tmp_path / "game.lgn").write_text('[Game "tablut"]\n1. e3-c3 *\n')
    none_read = run(*command, "missing.lgn", "a.zip")
    assert (none_read.exit_code, none_read.stdout) == (2, "")
    assert none_read.stderr == (
        "lusoria: missing.lgn: no such file or directory\n"
        "lusoria: a.zip: a zip-compressed file, not text: decompress it first (unzip)\n"
    )
    summed_up = {  # the source not read counted (session 51), as files skipped are
        "validate": "1 record: 1 valid, 0 invalid (0 errors, 0 warnings)",
        "duplicates": "0 duplicates, 0 prefixes",
        "rules": "1 record searched",  # (rules said `0 records searched` of none read, session 52's review)
        "import": "a.db: added 1 record (0 invalid, 0 of them unparsable), skipped 0 duplicates",
    }[command[0]] + "; could not read 1 source (each said with why)\n"
    one_read = run(*command, "missing.lgn", "game.lgn")
    assert one_read.exit_code == 2 and one_read.stdout.endswith(summed_up)


@pytest.mark.parametrize("command", [["validate"], ["duplicates"], ["import", "--db", "a.db"]])
def test_records_read_beside_a_byte_in_no_record_are_summed_up(tmp_path, monkeypatch, command):
    """A file whose record was read, and then a byte that does not decode in a `%` line after it:
    the byte is said (exit status 2) and the record summed up, by every command that sums up
    (duplicates said nothing: the file's problem counted it as not read)."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "stray.lgn").write_bytes(b'[Game "tablut"]\n1. e3-c3 *\n\n%\xff\n')
    result = run(*command, "stray.lgn")
    assert result.exit_code == 2
    assert result.stderr.startswith("lusoria: stray.lgn:4:2: byte 0xFF is not valid utf-8, in a % line")
    assert result.stdout.endswith(
        {
            "validate": "1 record: 1 valid, 0 invalid (0 errors, 0 warnings)\n",
            "duplicates": "0 duplicates, 0 prefixes\n",
            "import": "a.db: added 1 record (0 invalid, 0 of them unparsable), skipped 0 duplicates\n",
        }[command[0]]
    )


def test_jobs_help_says_the_bounds_its_check_refuses_beyond():
    """--jobs help said "at most the number of cores" and --jobs 5000 was refused as "not a whole
    number from 1 to 1024" (more than the cores are capped, or used with --force-jobs)."""
    helped = " ".join(run("validate", "--help").stdout.split())
    assert "a whole number from 1 to 1024, no more than the number of cores used unless --force-jobs." in helped
    refused = run("validate", "--force-jobs", "--jobs", "1025", "x.lgn")
    assert refused.exit_code == 2 and "'1025' is not a whole number from 1 to 1024" in refused.stderr


def test_import_replace_of_a_file_gone_sums_up_what_it_found(tmp_path, monkeypatch):
    """`import --replace a.lgn` of a file since removed reads nothing (said), yet sums up that the
    archive holds a file under it that no longer exists: what --replace found, not a summary of nothing."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "a.lgn").write_text('[Game "tablut"]\n1. e3-c3 *\n')
    assert run("import", "--db", "a.db", "a.lgn").exit_code == 0
    (tmp_path / "a.lgn").unlink()
    result = run("import", "--replace", "--db", "a.db", "a.lgn")
    assert (result.exit_code, result.stderr) == (2, "lusoria: a.lgn: no such file or directory\n")
    gone = tmp_path.resolve() / "a.lgn"
    assert result.stdout.endswith(
        f"1 file the archive holds under a.lgn no longer exists ({gone}); its records are kept (lusoria remove --path "
        f"{gone} takes them out)\n"
    )


def test_an_option_of_a_command_given_before_it_is_told_to_go_after_it():
    """`lusoria --json validate x` was told "Did you mean '--version'?": the option is the command's."""
    result = run("--json", "validate", "x.lgn")
    assert result.exit_code == 2 and result.stderr.endswith(
        "Error: --json is an option of validate, not of lusoria: it goes after the command (lusoria validate --json …)\n"
    )
    negated = run("--invalid", "query")  # (the flag --valid/--invalid's other name)
    assert negated.exit_code == 2 and negated.stderr.endswith(
        "Error: --invalid is an option of query, not of lusoria: it goes after the command (lusoria query --invalid …)\n"
    )
    valued = run("--db", "import", "query")  # (import is --db's value: query is the command)
    assert valued.exit_code == 2 and valued.stderr.endswith(
        "Error: --db is an option of query, not of lusoria: it goes after the command (lusoria query --db …)\n"
    )
    unknown = run("--jsn", "validate", "x.lgn")  # no command's option: click's own message
    assert unknown.exit_code == 2 and unknown.stderr.endswith("Error: No such option '--jsn'.\n")


def test_show_move_is_told_the_ply_option():
    """`lusoria show --move 3` was told "Did you mean '--game'?": a ply is what it names."""
    result = run("show", "--move", "3", "x.lgn")
    assert result.exit_code == 2 and result.stderr.endswith("Error: No such option '--move'. Did you mean '--ply'?\n")
    without = run("validate", "--move", "3", "x.lgn")  # (a command with no --ply: click's own)
    assert "--ply" not in without.stderr
    json = run("validate", "--format", "json", "x.lgn")  # (h78a: click offered --from)
    assert json.exit_code == 2 and json.stderr.endswith("Error: No such option '--format'. Did you mean '--json'?\n")
    assert "--json" not in run("show", "--format", "nope", "x.lgn").stderr  # (a command that has --format)


def test_bare_lusoria_shows_its_help_and_exits_2():
    """No command is a usage error (README says why 2): the help, on standard error as a usage error's
    message, lists the commands; `lusoria --help` writes it to standard output, and exits 0."""
    result = run()
    assert (result.exit_code, result.stdout) == (2, "")
    assert "[OPTIONS] COMMAND [ARGS]..." in result.stderr and "  validate  " in result.stderr
    assert run("--help").stdout == result.stderr


def test_an_import_counts_the_records_it_stores_unparsed_and_says_how_standard_input_is_read(tmp_path):
    """Newcomer-56b: a CSV line piped into import was stored as one unparsable record, exit 0, with no word
    of why; validate said standard input is read as lgn unless --from names another format: import says so."""
    db = str(tmp_path / "a.db")
    piped = run("import", "--db", db, "-", input="d6-c6 e4-e1 f4-e4 d3-f3,0,0,Ongoing\n")
    assert piped.exit_code == 0 and "added 1 record (1 invalid, 1 of them unparsable)" in piped.stdout
    assert piped.stderr == (
        "lusoria: note: 1 record stored as written, not parsed (<stdin>:1): lusoria validate says why; standard input "
        "is read as lgn unless its first lines or --from name another format (--from tafl reads tafl move lists, "
        "--from csv the tafl engines' CSV lines)\n"
    )
    broken = tmp_path / "broken.lgn"
    broken.write_text('[Game "tablut"]\n\n1. e3-c3 {never closed *\n')
    named = run("import", "--db", db, str(broken))
    assert (
        named.stderr
        == f"lusoria: note: 1 record stored as written, not parsed ({broken}:1): lusoria validate says why\n"
    )
    assert run("import", "--db", db, str(ROOT / "samples/tablut")).stderr == ""
    # reviewer-57: a file's record stored unparsed beside standard input's that parses: no word of standard input
    beside = run("import", "--db", str(tmp_path / "b.db"), str(broken), "-", input='[Game "tablut"]\n\n1. e3-c3 *\n')
    assert beside.stderr == named.stderr
    files = [tmp_path / f"broken{number}.lgn" for number in range(4)]
    for number, file in enumerate(files):
        file.write_text(f'[Game "tablut"]\n\n1. e3-c3 {{never closed {number} *\n')
    summary = Archive(str(tmp_path / "c.db")).import_paths([str(file) for file in files])
    assert summary.unparsed_said() == (
        f"4 records stored as written, not parsed ({files[0]}:1, {files[1]}:1, {files[2]}:1, …): validate() says why"
    )
    piped = ImportSummary(unparsed=["<stdin>:1"])  # (a library's caller passes no --from)
    assert piped.unparsed_said() == "1 record stored as written, not parsed (<stdin>:1): validate() says why"
    assert piped.unparsed_said(to=COMMAND) == f"{piped.unparsed_said(to=COMMAND).split(';')[0]}; {STDIN_ADVICE}"


@pytest.mark.parametrize(
    "command", [["import", str(ROOT / "samples/tablut")], ["query"], ["remove", "--game", "tablut"], ["duplicates"]]
)
def test_an_empty_archive_name_is_refused(tmp_path, monkeypatch, command):
    """h81b: a script's `--db "$ARCHIVE"`, its variable unset, used ./lusoria.db (`import` made it, and said no
    summary; `remove` removed from it)."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("LUSORIA_DB", raising=False)
    result = CliRunner().invoke(main, [command[0], "--db", "", *command[1:]])
    assert (result.exit_code, result.output.splitlines()[-1]) == (
        2,
        "Error: Invalid value for '--db': is empty: give the archive's file (a variable of a script left unset?)",
    )
    monkeypatch.setenv("LUSORIA_DB", "")  # (a script's `LUSORIA_DB="$ARCHIVE"`, its variable unset: note81)
    result = CliRunner().invoke(main, command)
    assert (result.exit_code, result.output.splitlines()[-1]) == (  # (review82: one wording, --db not given)
        2,
        "Error: $LUSORIA_DB is set but empty: give the archive's file (a variable of a script left unset?)",
    )
    with pytest.raises(UnnamedArchive, match=r"^\$LUSORIA_DB is set but empty: give the archive's file"):
        Archive()  # (the library's: SQLite opens a temporary database of "", lost)
    monkeypatch.delenv("LUSORIA_DB")
    with pytest.raises(UnnamedArchive, match="^the archive's name is empty: give"):
        Archive("")
    assert os.listdir(tmp_path) == []


def test_sql_or_an_archive_s_name_that_is_not_utf_8_is_refused_as_given(tmp_path, monkeypatch):
    """review81: a byte of another encoding in `sql`'s SQL, or in --db's name, was "an internal error … a bug in
    lusoria" (SQLite takes UTF-8 alone); before, Python's words as a usage error."""
    monkeypatch.chdir(tmp_path)
    named = CliRunner().invoke(main, ["query", "--db", os.fsdecode(b"s\xff.db")])
    assert (named.exit_code, named.output.splitlines()[-1]) == (
        2,
        "Error: Invalid value for '--db': 's\\xff.db' holds a byte that is not UTF-8 (from another "
        "encoding?), and SQLite opens an archive by a name in UTF-8 alone: rename it",
    )
    sql = CliRunner().invoke(main, ["sql", "--db", str(tmp_path / "a.db"), "SELECT 'caf\udce9'"])
    assert (sql.exit_code, sql.output.splitlines()[-1]) == (
        2,
        "Error: Invalid value for SQL: is not UTF-8 text: 'SELECT \\'caf\\xe9\\'' holds the byte \\xe9 (from another "
        "encoding?); the archive's text is UTF-8: give it so",
    )


def test_a_process_stopped_by_ctrl_c_ends_by_sigint_and_one_run_after_it_as_it_ends(monkeypatch, capsys):
    """note81: ^C ended with click's status 1, which a shell's loop over files took for a file's failure and went on:
    the process ends by SIGINT (a shell says 130), with SIGINT's own handler (none of Python's to catch it again);
    a command run after it in the same process (a test's, a notebook's) ends as it ends."""
    import signal

    said: list[tuple[str, int, object]] = []
    monkeypatch.setattr(os, "kill", lambda pid, signum: said.append(("kill", pid, signum)))
    monkeypatch.setattr(signal, "signal", lambda signum, handler: said.append(("signal", signum, handler)))

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr("lusoria.api.validate", interrupted)
    record = str(ROOT / "samples/tablut/escape.lgn")
    with pytest.raises(SystemExit) as exited:
        main(["validate", record], prog_name="lusoria")  # (as the process runs it)
    assert (exited.value.code, capsys.readouterr().err) == (1, "\nAborted!\n")  # (where SIGINT is blocked)
    assert said == [("signal", signal.SIGINT, signal.SIG_DFL), ("kill", os.getpid(), signal.SIGINT)]
    monkeypatch.undo()  # (lusoria.api.validate, os.kill and signal.signal as they are)
    monkeypatch.setattr(os, "kill", lambda pid, signum: said.append(("kill", pid, signum)))
    with pytest.raises(SystemExit) as exited:
        main(["validate", record], prog_name="lusoria")
    assert exited.value.code == 0 and len(said) == 2
