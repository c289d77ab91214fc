"""Every registered reader and writer — lusoria's and the example plug-in's (tests/plugin, registered
here as a program would) — through one contract suite (lusoria.formats.contract): a reader hands
over RecordTexts of its format whose records name a known game and hold plies of its syntax; a
writer's text, read back by its reader, is the same game. And the pipeline turns what a reader that
breaks the contract hands over into a located diagnostic naming the reader, never an internal error."""

import json
import sys
from functools import partial

import pytest
from click.testing import CliRunner
from conftest import ROOT

from lusoria.api import is_ply, known_games, random_records
from lusoria.cli import main
from lusoria.formats import FORMATS, Format, read_text
from lusoria.formats.contract import TYPE_TAG, breach_of, handed_over
from lusoria.formats.sources import read_sources
from lusoria.notation.model import Line, Ply, Record
from lusoria.notation.reader import RecordText, SyntaxProblem
from lusoria.notation.sources import InputError
from lusoria.plugins import failure
from lusoria.validator.games import GAMES
from lusoria.validator.replay import check

FIXTURES = ROOT / "tests" / "fixtures" / "formats"
sys.path.insert(0, str(ROOT / "tests" / "plugin"))
from lusoria_toys.moves import FORMAT as PLUGIN_FORMAT
from lusoria_toys.moves import read as read_moves
from lusoria_toys.toytafl import ToyTafl


@pytest.fixture
def plugin():
    """The example plug-in's game and format, registered for one test (unless the run registered them)."""
    had = ToyTafl.name in GAMES, PLUGIN_FORMAT.name in FORMATS
    GAMES.register(ToyTafl)
    FORMATS.register(PLUGIN_FORMAT)
    yield
    if not had[1]:
        FORMATS.unregister(PLUGIN_FORMAT.name)
    if not had[0]:
        GAMES.unregister(ToyTafl.name)


def run_with(entry: Format, arguments: list[str], given: str | None = None):
    """A command run with a format of a plug-in, `entry`, registered for it alone."""
    FORMATS.register(entry)
    try:
        return CliRunner().invoke(main, arguments, input=given)
    finally:
        FORMATS.unregister(entry.name)


def formats_with(attribute: str) -> list[str]:
    """The formats (the plug-in's included) that have a reader or a writer."""
    return [
        name
        for name, entry in {**FORMATS, PLUGIN_FORMAT.name: PLUGIN_FORMAT}.items()
        if getattr(entry, attribute) is not None
    ]


def written(name: str, game: str) -> str | None:
    """A random legal game of `game` written by the writer of `name`; None when the format cannot hold it."""
    described = GAMES[game].described  # (its boards are its variants: one is named)
    [text] = random_records(
        game, seed=7, max_plies=12, tags={"Variant": next(iter(GAMES[game].presets))} if described else None
    )
    try:
        return FORMATS[name].write(check(text))
    except ValueError:  # a game the format cannot hold
        return None


def inputs(name: str) -> list[str]:
    """What the contract suite gives a reader: its fixtures, what its writer writes, and junk."""
    folder = FIXTURES / name
    files = sorted(path for path in folder.rglob("*") if path.is_file()) if folder.is_dir() else []
    return (
        [path.read_text("utf-8", "replace") for path in files]
        + [text for game in GAMES if FORMATS[name].write and (text := written(name, game))]
        + ["", "\n", "not a record\n", "[]{}\n"]
    )


@pytest.mark.parametrize("name", formats_with("read"))
def test_a_reader_hands_over_records_of_known_games_and_plies_of_their_syntax(plugin, name):
    kept = 0
    for text in inputs(name):
        try:
            records = list(FORMATS[name].read(text, f"input.{name}", None))
        except InputError:
            continue
        for record in records:
            assert isinstance(record, RecordText) and record.format == name
            assert record.parsed is None or isinstance(record.parsed, (Record, SyntaxProblem))
            assert all(isinstance(problem, SyntaxProblem) for problem in record.problems)
            if isinstance(record.parsed, Record):
                assert breach_of(record.parsed, name) is None, record.text
                kept += 1
    assert kept, f"no input made the {name} reader hand over a record"


@pytest.mark.parametrize("name", formats_with("write"))
def test_a_writer_writes_what_its_reader_reads_back_as_the_same_game(plugin, name):
    texts = {game: written(name, game) for game in GAMES}
    assert any(texts.values()), f"the {name} writer wrote none of the registered games"
    for game, text in texts.items():
        if text is not None:
            [back] = [check(source) for source in read_sources(text, format=name)]
            # a game the format cannot name (a plug-in's tafl game in OTN) comes back as the generic
            # game its rules describe: the same plies, legal there too
            assert back.valid and (back.game == game or GAMES[back.game].described), back.diagnostics
            assert all(is_ply(back.game, ply) for ply in back.canonical.values())


def test_the_otn_writer_writes_the_plug_ins_tafl_game_which_reads_back_under_its_rules(plugin):
    # it read Tablut's option names from any tafl game (KeyError: 'throne-pass', exit 3)
    [text] = random_records(ToyTafl.name, seed=7, max_plies=12)
    written_ = check(text)
    [back] = [check(source) for source in read_sources(FORMATS["otn"].write(written_), format="otn")]
    assert back.valid and back.game != ToyTafl.name  # OTN cannot name it: the generic game, by its rules record
    assert [ply.text for ply in back.record.main.plies] == [ply.text for ply in written_.record.main.plies]
    assert back.positions[-1].board == written_.positions[-1].board


# -- the pipeline checks the contract ----------------------------------------------------------------


def breaching(record: Record | object):
    """A reader that hands over `record` (a Record built by hand, or anything else) for every file."""

    def read(text, path, tags=None):
        yield RecordText(text, 1, 0, path, "breach", record) if isinstance(record, Record) else record
        yield RecordText('[Game "tablut"]\n1. e3-c3 *\n', 1, 1, path, "breach")  # a good record after it

    return read


LINES = "anything on five lines\n" * 5  # a file that holds every place the records built here give


@pytest.fixture
def breach(tmp_path):
    """A file of a throw-away format whose reader is given by the test."""

    def register(record):
        FORMATS.register(Format("breach", (".breach",), breaching(record)))
        (tmp_path / "game.breach").write_text(LINES)
        return CliRunner().invoke(main, ["validate", str(tmp_path / "game.breach")])

    yield register
    FORMATS.unregister("breach")


def record_of(game: str, *plies: str) -> Record:
    return Record(
        {"Game": game, "Result": "*"},
        Line([Ply(text, 3, 4 + 6 * i) for i, text in enumerate(plies)]),
        "*",
        1,
        {"Game": (1, 7)},
    )


def test_a_ply_outside_its_games_syntax_is_a_located_error_naming_the_reader(breach):
    done = breach(record_of("tablut", "e3-c3", "zz"))
    assert done.exit_code == 1, done.output
    assert (
        "game.breach:3:10: error[syntax]: the breach reader handed over 'zz', which is not a ply of tablut"
        in done.output
    )
    assert "2 records: 1 valid, 1 invalid" in done.output  # the next record goes on


def test_a_ply_in_a_variation_is_checked_too(breach):
    record = record_of("tablut", "e3-c3")
    record.main.plies[0].variations.append(Line([Ply("e3-z3", 5, 2)]))
    assert "game.breach:5:2: error[syntax]: the breach reader handed over 'e3-z3'" in breach(record).output


def test_an_unknown_game_is_a_located_error_naming_the_reader(breach):
    done = breach(record_of("nogame", "e3-c3"))
    assert done.exit_code == 1, done.output
    assert (
        f"game.breach:1:7: error[tag]: the breach reader handed over the unknown game 'nogame' "
        f"(known: {', '.join(known_games())})" in done.output
    )


def test_a_record_without_a_game_is_a_located_error_naming_the_reader(breach):
    record = record_of("tablut", "e3-c3")
    del record.tags["Game"]
    assert (
        "game.breach:1:1: error[tag]: the breach reader handed over a record with no Game tag" in breach(record).output
    )


def placed(line, column, where="ply"):
    """A good tablut record whose ply (or Game tag, or result) is at `line`, `column` of the file."""
    record = record_of("tablut", "e3-c3")
    if where == "ply":
        record.main.plies[0] = Ply("e3-c3", line, column)
    elif where == "tag":
        record.tag_places["Game"] = (line, column)
    else:
        record.result_line, record.result_column = line, column
    return record


@pytest.mark.parametrize(
    "record, said",
    [
        (placed(4, 999932), "the ply 'e3-c3' at 4:999932, not on line 4, which ends at 4:23"),
        (placed(9, 1), "the ply 'e3-c3' at 9:1, not in the text it read, which ends at 6:1"),
        (placed(0, 1, "tag"), "the tag Game at 0:1, not in the text it read, which ends at 6:1"),
        (placed(2, 0, "result"), "the result at 2:0, not on line 2, which ends at 2:23"),
    ],
    ids=["column", "line", "tag", "result"],
)
def test_a_place_outside_the_text_read_is_an_error_naming_the_reader(breach, record, said):
    done = breach(record)
    assert done.exit_code == 1, done.output
    assert f"game.breach:1:1: error[syntax]: the breach reader handed over {said}\n" in done.output
    assert "2 records: 1 valid, 1 invalid" in done.output  # the next record goes on


def test_every_place_at_the_end_of_the_text_read_is_in_it(breach):
    # the place after a file's last character (an OTN result after its last line break): its end
    assert breach(placed(6, 1, "result")).exit_code == 0
    assert breach(placed(5, 23)).exit_code == 0  # just after a line's last character
    last = placed(6, 1, "result")  # (h78c) the record itself placed on the empty line after the last line break:
    last.line = 6  # at its column 1, as every place there (was checked at column 2: "not on line 6")
    assert breach(last).exit_code == 0


def test_a_problem_placed_at_a_line_alone_is_in_the_text_read(breach):
    """A reader's problem given a line and no column (SyntaxProblem keeps it 0, as Lark's unset
    place) was refused as one at 2:0, "not on line 2": it is said at its line."""
    cut = RecordText(LINES, 1, 0, "game.breach", "breach", SyntaxProblem("the move list is cut short", 2, None))
    done = breach(cut)
    assert done.exit_code == 1, done.output
    assert done.output.startswith("game.breach:2:0: error[syntax]: the move list is cut short\n")
    assert "2 records: 1 valid, 1 invalid" in done.output


def test_a_refused_record_says_why_and_holds_no_ply():
    # a reader that cannot name a record's game keeps its tags, no ply, and a `tag` problem saying why
    refused = Record({"White": "Ann", "Result": "*"}, Line([]), "*", 1, {})
    why = SyntaxProblem("game type 'X' is none that lusoria knows", 1, 5, "X", "tag")
    [kept] = handed_over([RecordText("{}", 1, 0, "x.json", "aage", refused, (why,))], "aage", "x.json", LINES)
    assert kept.parsed is refused and kept.problems == (why,)
    assert check(kept).refused and [d.message for d in check(kept).diagnostics] == [why.message]
    with_plies = record_of("tablut", "e3-c3")
    del with_plies.tags["Game"]  # plies of no game: a breach, said or not
    [breached] = handed_over([RecordText("{}", 1, 0, "x.json", "aage", with_plies, (why,))], "aage", "x.json", LINES)
    assert isinstance(breached.parsed, SyntaxProblem) and "no Game tag" in breached.parsed.message
    [unsaid] = handed_over([RecordText("{}", 1, 0, "x.json", "aage", refused)], "aage", "x.json", LINES)
    assert isinstance(unsaid.parsed, SyntaxProblem)  # no Game tag, and no word of why


def refusing(text, path, tags=None, format="refusing"):
    """A reader that refuses each line's record: its game type is the line, its `tag` problem says why."""
    for index, kind in enumerate(text.splitlines()):
        why = SyntaxProblem(f"'{kind}' is not played here", index + 1, 1, kind, "tag")
        record = Record({TYPE_TAG: kind, "Result": "*"}, Line([]), "*", index + 1, {})
        yield RecordText(kind, index + 1, index, path, format, record, (why,))


@pytest.mark.parametrize(
    "why_refused, summary",
    [
        (None, "'Sea battle' is not played here"),  # the reader's words
        (lambda kind, said: f"{kind} of {said}", "Sea battle of [\"'Sea battle' is not played here\"]"),
        (lambda kind, said: "read {it} with {Game}", "read {it} with {Game}"),  # a plug-in's text, as it is
    ],
)
def test_the_summary_of_refused_records_says_why_as_their_format_does(tmp_path, why_refused, summary):
    (tmp_path / "games.refusing").write_text("Sea battle\nSea battle\n")
    refusing_format = Format("refusing", (".refusing",), refusing, why_refused=why_refused)
    done = run_with(refusing_format, ["validate", str(tmp_path / "games.refusing")])
    assert f"lusoria: note: 2 records of type 'Sea battle' refused: {summary}\n" in done.output


def test_a_refused_type_named_with_braces_is_said_as_it_is_written(tmp_path):
    """A Note is a template (`{Game}`: the setting as the caller names it): a game type's name and
    a reader's words with braces are said literally, not taken for settings (a KeyError)."""
    (tmp_path / "games.refusing").write_text("Sea {battle}\n")
    done = run_with(Format("refusing", (".refusing",), refusing), ["validate", str(tmp_path / "games.refusing")])
    assert done.exit_code == 1
    assert "lusoria: note: 1 record of type 'Sea {battle}' refused: 'Sea {battle}' is not played here\n" in done.output


def untyped(text, path, tags=None):
    """A reader that refuses its file's one record, saying why, and names no game type."""
    why = SyntaxProblem("no game is named here", 1, 1, "", "tag")
    yield RecordText(text, 1, 0, path, "untyped", Record({"Result": "*"}, Line([]), "*", 1, {}), (why,))


def test_a_refused_record_of_no_type_is_said_and_left_out_of_the_summary_of_types(tmp_path):
    (tmp_path / "game.untyped").write_text("anything\n")
    done = run_with(Format("untyped", (".untyped",), untyped), ["validate", str(tmp_path / "game.untyped")])
    assert done.exit_code == 1 and "note:" not in done.output, done.output  # no type to count it by
    assert f"{tmp_path / 'game.untyped'}:1:1: error[tag]: no game is named here\n" in done.output


def test_what_is_no_record_makes_the_file_unreadable_naming_the_reader(breach):
    done = breach({"Game": "tablut"})
    assert done.exit_code == 2 and "the breach reader handed over a dict, not a record (RecordText)" in done.output
    assert "internal error" not in done.output


def raising(text, path, tags=None):
    """A plug-in's reader that hands over a good record, then fails (found by new-user-18)."""
    yield RecordText('[Game "tablut"]\n1. e3-c3 *\n', 1, 0, path, "raising")
    raise KeyError("plies")


def test_a_plugin_reader_that_raises_makes_its_file_unreadable_naming_the_reader(tmp_path):
    (tmp_path / "game.raising").write_text("anything\n")
    escape = str(ROOT / "samples" / "tablut" / "escape.lgn")
    done = run_with(Format("raising", (".raising",), raising), ["validate", str(tmp_path / "game.raising"), escape])
    assert done.exit_code == 2 and "internal error" not in done.output, done.output
    raised_at = f"{__file__}:{raising.__code__.co_firstlineno + 3}"
    assert (
        f"lusoria: {tmp_path / 'game.raising'}: the raising reader failed after record 0 (line 1): "
        f"{raising.__module__}.raising raised KeyError: 'plies' ({raised_at})\n" in done.output
    )
    assert done.output.endswith("2 records: 2 valid, 0 invalid (0 errors, 0 warnings)\n")  # its record, the next file


def test_a_record_that_does_not_decode_is_said_when_the_plugin_reader_fails_after_it(tmp_path):
    """Such a record waits for the next (is it the file's one game?); a reader that failed instead of
    handing one over lost it: only the failure was said, which names it as handed over."""
    (tmp_path / "game.raising").write_bytes(b'[Game "tablut"]\xff\n1. e3-c3 *\n')
    done = run_with(Format("raising", (".raising",), raising), ["validate", str(tmp_path / "game.raising")])
    said = "error[syntax]: byte 0xFF is not valid utf-8: the record is not read, the others are; try --encoding"
    assert done.exit_code == 2 and done.stdout.startswith(f"{tmp_path / 'game.raising'}:1:16: {said}"), done.output
    assert done.stderr.startswith(f"lusoria: {tmp_path / 'game.raising'}: the raising reader failed after record 0")
    assert "\n1 record: 0 valid, 1 invalid (1 error, 0 warnings)\n" in done.stdout


def exiting(text, path, tags=None):
    """A plug-in's reader that hands over a good record, then calls sys.exit(5)."""
    yield RecordText('[Game "tablut"]\n1. e3-c3 *\n', 1, 0, path, "exiting")
    sys.exit(5)


@pytest.mark.parametrize("debug", [[], ["--debug"]])
def test_a_plugin_reader_calling_sys_exit_makes_its_file_unreadable_naming_the_reader(tmp_path, debug):
    """Its SystemExit ended the command with status 5, and no line named the reader; --debug shows the
    traceback of its failure after the line, as import's does of a record's (it showed none)."""
    (tmp_path / "game.exiting").write_text("anything\n")
    escape = str(ROOT / "samples" / "tablut" / "escape.lgn")
    done = run_with(
        Format("exiting", (".exiting",), exiting), [*debug, "validate", str(tmp_path / "game.exiting"), escape]
    )
    exited_at = f"{__file__}:{exiting.__code__.co_firstlineno + 3}"
    said = (
        f"lusoria: {tmp_path / 'game.exiting'}: the exiting reader failed after record 0 (line 1): "
        f"{exiting.__module__}.exiting raised SystemExit: 5 ({exited_at})\n"
    )
    trace = (
        f'  File "{__file__}", line {exiting.__code__.co_firstlineno + 3}, in exiting\n    sys.exit(5)\nSystemExit: 5\n'
    )
    assert done.exit_code == 2 and done.stderr.startswith(said), done.output
    assert done.stderr.endswith(trace) == bool(debug) and ("Traceback" in done.stderr) == bool(debug)
    assert done.stdout.endswith("2 records: 2 valid, 0 invalid (0 errors, 0 warnings)\n")  # its record, the next file


def test_show_of_a_file_a_plugin_reader_fails_on_adds_its_traceback_with_debug(tmp_path):
    """A command of one record stops at it (`cli.record_of`; its record 1, after the one it handed over), in
    the same line, and the traceback after."""
    (tmp_path / "game.exiting").write_text("anything\n")
    done = run_with(
        Format("exiting", (".exiting",), exiting), ["--debug", "show", "--record", "1", str(tmp_path / "game.exiting")]
    )
    said = f"lusoria: {tmp_path / 'game.exiting'}: the exiting reader failed after record 0 (line 1): "
    assert done.exit_code == 2 and done.stderr.startswith(said), done.output
    assert done.stderr.endswith("in exiting\n    sys.exit(5)\nSystemExit: 5\n")


def test_a_built_in_reader_that_fails_is_lusorias_internal_error_not_a_plugins(tmp_path, monkeypatch):
    """A failure of lusoria's own reader is lusoria's bug (status 3), not said as a plug-in's (status 2)."""
    monkeypatch.setattr("lusoria.formats.otn.read_otn", raising)
    (tmp_path / "game.otn").write_text("anything\n")
    done = CliRunner().invoke(main, ["validate", str(tmp_path / "game.otn")])
    assert (done.exit_code, done.output.split(". ")[0]) == (3, "lusoria: internal error: KeyError: 'plies'")


def test_a_plugin_format_under_a_built_in_name_fails_as_a_plugin_not_as_lusoria(tmp_path):
    """It replaces lusoria's own otn reader, but its failure is its own: said naming it, as any
    plug-in's is, not lusoria's internal error (FORMATS.is_built_in: not a name registered)."""
    (tmp_path / "game.otn").write_text("anything\n")
    done = run_with(Format("otn", (".otn",), raising), ["validate", str(tmp_path / "game.otn")])
    assert done.exit_code == 2 and "internal error" not in done.output, done.output
    raised_at = f"{__file__}:{raising.__code__.co_firstlineno + 3}"
    assert (
        f"lusoria: {tmp_path / 'game.otn'}: the otn reader failed after record 0 (line 1): "
        f"{raising.__module__}.raising raised KeyError: 'plies' ({raised_at})\n" in done.output
    )


def decoding(text, path, tags=None):
    """A plug-in's reader of JSON, which json's decoder refuses."""
    yield from json.loads(text)


def test_a_plugin_reader_failing_in_a_library_is_said_at_its_own_line(tmp_path):
    # it named json/decoder.py's line, which tells the plug-in's author nothing
    (tmp_path / "game.decoding").write_text("{not json\n")
    done = run_with(Format("decoding", (".decoding",), decoding), ["validate", str(tmp_path / "game.decoding")])
    assert done.exit_code == 2 and "internal error" not in done.output, done.output
    refused = "Expecting property name enclosed in double quotes: line 1 column 2 (char 1)"
    at = f"{__file__}:{decoding.__code__.co_firstlineno + 2}"  # its json.loads
    assert f"{decoding.__module__}.decoding raised JSONDecodeError: {refused} ({at})\n" in done.output


def test_a_plugin_package_failing_in_lusoria_is_said_at_its_own_line():
    with pytest.raises(TypeError) as raised:  # (lusoria's formats.common takes the text handed on)
        list(read_moves(123, "game.moves"))
    said = failure(read_moves, raised.value)
    assert said == (
        "lusoria_toys.moves.read raised TypeError: expected string or bytes-like object, got 'int' "
        f"({read_moves.__code__.co_filename}:{read_moves.__code__.co_firstlineno + 1})"
    )


def test_a_plugin_function_of_a_module_not_loaded_is_said_at_the_last_line_of_its_traceback():
    """h83a: a plug-in's function whose module is not loaded (made by exec: its files are unknown) is
    said at the last line of its traceback, none of its own files to be told from a library's."""
    namespace = {"__name__": "lusoria_unloaded"}
    exec(
        compile("def read(text, path, tags=None):\n    raise ValueError('not a record')\n", "<plug-in>", "exec"),
        namespace,
    )
    with pytest.raises(ValueError) as raised:
        namespace["read"]("anything", "game.unloaded")
    assert failure(namespace["read"], raised.value) == (
        "lusoria_unloaded.read raised ValueError: not a record (<plug-in>:2)"
    )


def test_a_plugin_reader_that_hands_back_no_records_makes_its_file_unreadable_saying_so(tmp_path):
    # it said that the reader raised TypeError, at a line of lusoria's formats/contract.py
    (tmp_path / "game.returning").write_text("anything\n")
    returning = Format("returning", (".returning",), lambda text, path, tags=None: None)
    done = run_with(returning, ["validate", str(tmp_path / "game.returning")])
    assert done.exit_code == 2 and "internal error" not in done.output, done.output
    assert done.output.startswith(
        f"lusoria: {tmp_path / 'game.returning'}: the returning reader handed back a NoneType, not records\n"
    )


def test_a_plugin_reader_is_handed_no_tags_as_none_and_the_tags_the_options_chose_as_they_are(tmp_path):
    """h82a: `read(text, path, tags)` (docs/design.md): a reading with no --game, --variant or --rules hands
    a plug-in's reader None, as a reader written for `tags=None` expects; with them, the tags they chose."""
    (tmp_path / "game.handed").write_text("anything\n")
    handed = []
    entry = Format("handed", (".handed",), lambda text, path, tags=None: handed.append(tags) or [])
    for options in ([], ["--variant", "brandub"]):
        assert "no record found in" in run_with(entry, ["validate", *options, str(tmp_path / "game.handed")]).output
    assert handed == [None, {"Game": "hnefatafl", "Variant": "opentafl-brandub-7x7"}]


def failing_writer(report):
    """A plug-in's writer that fails on every record (found by new-user-18)."""
    raise KeyError("plies")


def unwritten_writer(report):
    """A plug-in's writer not written yet: an exception without a message."""
    raise NotImplementedError


def exiting_writer(report):
    """A plug-in's writer that calls sys.exit(5)."""
    sys.exit(5)


@pytest.mark.parametrize(
    "write, problem",
    [
        (
            failing_writer,
            f"the failing writer failed: {failing_writer.__module__}.failing_writer raised KeyError: 'plies'",
        ),
        (
            unwritten_writer,  # (it said 'NotImplementedError: ' and nothing)
            f"the failing writer failed: {unwritten_writer.__module__}.unwritten_writer raised NotImplementedError (",
        ),
        (lambda report: None, "the failing writer handed back a NoneType, not a text"),
        (
            exiting_writer,  # (its SystemExit ended the command with status 5, said nowhere)
            f"the failing writer failed: {exiting_writer.__module__}.exiting_writer raised SystemExit: 5 (",
        ),
    ],
    ids=["raises", "unwritten", "no-text", "sys.exit"],
)
def test_a_plugin_writer_that_fails_leaves_the_record_unconverted_naming_the_writer(write, problem):
    escape = str(ROOT / "samples" / "tablut" / "escape.lgn")
    done = run_with(Format("failing", (".failing",), write=write), ["convert", "--to", "failing", escape])
    assert done.exit_code == 1 and "internal error" not in done.output, done.output
    assert f"escape.lgn:1: record 0 not converted: {problem}" in done.output


def test_a_plugin_writer_that_fails_on_one_record_leaves_the_others_converted():
    def writer(report):
        return failing_writer(report) if report.source.path.endswith("king-captured.lgn") else "written\n"

    samples = [str(ROOT / "samples" / "tablut" / name) for name in ("escape.lgn", "king-captured.lgn", "tuichi.lgn")]
    done = run_with(Format("failing", (".failing",), write=writer), ["convert", "--to", "failing", *samples])
    assert done.exit_code == 1 and done.output.count("written\n") == 2, done.output
    assert done.output.count("not converted") == 1 and "king-captured.lgn:1: record 0 not converted" in done.output


def test_a_plugin_formats_note_of_what_its_records_lose_is_said_once_as_they_are_written():
    """A format of many games a file that loses something of each record (OTN's note, `Format.loses`): said
    once, on stderr, then how many records lose it."""
    samples = [str(ROOT / "samples" / "tablut" / name) for name in ("escape.lgn", "tuichi.lgn")]
    entry = Format("lossy", (".lossy",), write=lambda report: "written\n", loses=lambda report: "its comments")
    done = run_with(entry, ["convert", "--to", "lossy", *samples])
    assert done.exit_code == 0 and done.stdout == "written\n\nwritten\n"
    assert done.stderr.splitlines() == [
        f"lusoria: {samples[0]}:1: note: record 0 and any later record that loses the same: its comments",
        f"lusoria: note: 2 records converted lose what record 0 of {samples[0]}:1 loses (said above)",
    ]


def failing_hook(*args):
    """A plug-in format's hook that fails whatever it is asked."""
    raise KeyError("x")


def refusing_hook(*args):
    """A plug-in format's hook (not its writer) that raises the ValueError only a writer's refusal may."""
    raise ValueError("no")


ESCAPE = str(ROOT / "samples" / "tablut" / "escape.lgn")
NOT_CONVERTED = "escape.lgn:1: record 0 not converted: the hooked format's"
FAILED = f"failed: {__name__}.failing_hook raised KeyError: 'x' ("
REFUSED = f"failed: {__name__}.refusing_hook raised ValueError: no ("
WRITES = {"write": lambda report: "written"}
NO_GAME = "format 'hooked' names no game: its games are a dict"


@pytest.mark.parametrize(
    "hooks, arguments, said, exit_code",
    [
        (
            {**WRITES, "cannot_write": failing_hook},
            ["convert", "--to", "hooked", ESCAPE],
            f"{NOT_CONVERTED} cannot_write {FAILED}",
            1,
        ),
        (
            {**WRITES, "cannot_write": lambda report: True},
            ["convert", "--to", "hooked", ESCAPE],
            f"{NOT_CONVERTED} cannot_write handed back a bool, not a text or None\n",
            1,
        ),
        (
            {**WRITES, "loses": failing_hook},
            ["convert", "--to", "hooked", ESCAPE],
            f"{NOT_CONVERTED} loses {FAILED}",
            1,
        ),
        (  # (a ValueError of `cannot_write` was lusoria's internal error; of `loses`, a refusal said as the writer's)
            {**WRITES, "cannot_write": refusing_hook},
            ["convert", "--to", "hooked", ESCAPE],
            f"{NOT_CONVERTED} cannot_write {REFUSED}",
            1,
        ),
        (
            {**WRITES, "loses": refusing_hook},
            ["convert", "--to", "hooked", ESCAPE],
            f"{NOT_CONVERTED} loses {REFUSED}",
            1,
        ),
        (
            {"read": partial(refusing, format="hooked"), "why_refused": failing_hook},
            ["validate", "games.hooked"],
            f"lusoria: note: 1 record of type 'Sea' refused: the hooked format's why_refused {FAILED}",
            1,
        ),
        (
            {"read": partial(refusing, format="hooked"), "why_refused": refusing_hook},
            ["validate", "games.hooked"],
            f"lusoria: note: 1 record of type 'Sea' refused: the hooked format's why_refused {REFUSED}",
            1,
        ),
        (
            {"read": partial(refusing, format="hooked"), "why_refused": lambda kind, said: None},
            ["validate", "games.hooked"],
            "refused: the hooked format's why_refused handed back a NoneType, not a text\n",
            1,
        ),
        (
            {"games": ["Sea"]},
            ["explain", "Sea"],
            "lusoria: warning: the plug-in format 'hooked' names no game: its games are a list that is not a mapping "
            "of names to their tags (texts)\n",
            2,
        ),
        ({"games": {"Sea": "tablut"}}, ["explain", "Sea"], NO_GAME, 2),
        ({"games": {"Sea": {"Game": 1}}}, ["explain", "Sea"], NO_GAME, 2),
        ({"games": {"Sea": {1: "tablut"}}}, ["explain", "Sea"], NO_GAME, 2),
        ({"games": {1: {"Game": "tablut"}}}, ["explain", "Sea"], NO_GAME, 2),
    ],
    ids=[
        "cannot_write-raises",
        "cannot_write-no-text",
        "loses-raises",
        "cannot_write-value-error",
        "loses-value-error",
        "why_refused-raises",
        "why_refused-value-error",
        "why_refused-no-text",
        "games-a-list",
        "games-no-tags",
        "games-a-value-no-text",
        "games-a-tag-no-text",
        "games-a-name-no-text",
    ],
)
def test_a_plugin_formats_hook_that_fails_is_said_naming_it(tmp_path, monkeypatch, hooks, arguments, said, exit_code):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "games.hooked").write_text("Sea\n")
    FORMATS.register(Format("hooked", (".hooked",), **hooks))
    try:
        done = CliRunner().invoke(main, arguments)
    finally:
        FORMATS.unregister("hooked")
    assert done.exit_code == exit_code and "internal error" not in done.output, done.output
    assert said in done.output


def test_a_plugin_formats_names_of_games_are_names_explain_knows(tmp_path):
    """A plug-in format's `games` (its files' names of games -> their tags) that are a mapping of
    texts are taken, without a warning: `explain` finds the variant by the plug-in's name, and
    suggests it for a name misspelt (`_meant_elsewhere` reads the plug-in formats' names beside the
    games' own: no test said so, and a lookup of the games' alone would leave them out)."""
    games = {"Seaside Tafl": {"Game": "tablut", "Variant": "aage"}}
    done = run_with(Format("hooked", (".hooked",), games=games), ["explain", "seaside tafl"])
    assert done.exit_code == 0 and "warning" not in done.output, done.output
    assert done.output.startswith("saami-tablut: Historical Hnefatafl 9×9 (Saami Tablut)\n")
    misspelt = run_with(Format("hooked", (".hooked",), games=games), ["explain", "Seaside Taf"])
    assert misspelt.exit_code == 2 and misspelt.stderr.endswith(
        "Error: Invalid value for NAME: no rule, game or variant is named 'Seaside Taf' (did you mean 'Seaside Tafl'?)\n"
    )


def test_a_plugin_formats_name_of_a_variant_is_taken_by_variant_and_not_by_a_variant_tag(tmp_path):
    """As docs/formats.md says: `--variant` takes every name `explain` knows, a plug-in format's
    too; a record's Variant tag is read by the names lusoria's games give (`variant_named`), so a
    plug-in format's name there is an unknown variant of its game."""
    games = {"Seaside Tafl": {"Game": "tablut", "Variant": "aage"}}
    (tmp_path / "list.txt").write_text("e3-c3 d1-d3\n")
    (tmp_path / "tagged.lgn").write_text('[Game "tablut"]\n[Variant "Seaside Tafl"]\n\n1. e3-c3 *\n')
    given = run_with(
        Format("hooked", (".hooked",), games=games), ["fmt", "--variant", "Seaside Tafl", str(tmp_path / "list.txt")]
    )
    assert given.exit_code == 0 and '[Variant "aage"]' in given.stdout, given.output
    tagged = run_with(Format("hooked", (".hooked",), games=games), ["validate", str(tmp_path / "tagged.lgn")])
    assert tagged.exit_code == 1 and "error[tag]: unknown variant 'Seaside Tafl' for tablut (known: " in tagged.output


def failing_sniff(head):
    """A plug-in's test of a file's first characters that fails (found by new-user-18)."""
    raise IndexError("head")


def test_a_plugin_whose_sniff_raises_takes_no_file_said_in_one_warning(tmp_path):
    for name in ("a.txt", "b.txt"):
        (tmp_path / name).write_text("not a record\n")
    (tmp_path / "game.lgn").write_text('[Game "tablut"]\n1. e3-c3 *\n')
    said = (
        "lusoria: warning: the plug-in format 'sniffing' takes no file by its first characters: "
        f"{__name__}.failing_sniff raised IndexError: head ("
    )
    outputs = []
    for arguments, given in (([str(tmp_path)], None), (["-"], '[Game "tablut"]\n1. e3-c3 *\n')):
        sniffing = Format("sniffing", (".txt",), refusing, failing_sniff, unnamed=failing_sniff)
        done = run_with(sniffing, ["validate", *arguments], given)  # (registered again: said again)
        assert done.exit_code == 0 and done.output.count(said) == 1, done.output
        assert "1 record: 1 valid, 0 invalid (0 errors, 0 warnings)" in done.output
        outputs.append(done.output)
    assert f"{tmp_path / 'b.txt'}: skipped, a .txt file that is neither" in outputs[0]


def test_a_plugin_formats_failure_is_warned_once_until_that_format_is_registered_again(capsys):
    """Registering a format forgets the failures of the one it replaces (the new one may fail anew,
    said again), not those of another plug-in format, said once already."""
    said = "lusoria: warning: the plug-in format 'sniffing' takes no file by its first characters: "
    FORMATS.register(Format("sniffing", (".txt",), refusing, failing_sniff))
    try:
        assert FORMATS.of("a.txt", "x") is None and capsys.readouterr().err.count(said) == 1
        FORMATS.register(Format("other", (".other",), refusing))
        assert FORMATS.of("b.txt", "x") is None and said not in capsys.readouterr().err
        FORMATS.register(Format("sniffing", (".txt",), refusing, failing_sniff))
        assert FORMATS.of("c.txt", "x") is None and capsys.readouterr().err.count(said) == 1
    finally:
        FORMATS.unregister("sniffing")
        FORMATS.unregister("other")


def out_of_memory(*arguments):
    """A plug-in's reader, writer or sniff that runs out of memory."""
    raise MemoryError


@pytest.mark.parametrize(
    "entry, command",
    [
        (Format("hungry", (".hungry",), out_of_memory), ["validate", "game.hungry", "game.lgn"]),
        (Format("hungry", (".hungry",), write=out_of_memory), ["convert", "--to", "hungry", "game.lgn"]),
        (Format("hungry", (".txt",), refusing, out_of_memory), ["validate", "game.txt", "game.lgn"]),
    ],
    ids=["reader", "writer", "sniff"],
)
def test_a_plugin_out_of_memory_stops_the_command_as_any_input_too_large_does(tmp_path, monkeypatch, entry, command):
    # the guards took it for the plug-in's bug: the file unreadable, the record unconverted, the sniff False
    for name in ("game.hungry", "game.txt", "game.lgn"):
        (tmp_path / name).write_text('[Game "tablut"]\n1. e3-c3 *\n')
    monkeypatch.chdir(tmp_path)
    done = run_with(entry, command)
    assert (done.exit_code, done.output) == (2, "lusoria: the input is too large for the memory available\n")


def test_read_text_checks_the_records_of_any_reader(breach):
    breach(record_of("tablut", "zz"))
    first, second = read_text(LINES, "breach", "game.breach")
    assert isinstance(first.parsed, SyntaxProblem) and (first.parsed.line, first.parsed.column) == (3, 4)
    assert second.parsed is None


def test_the_example_plugin_refuses_a_ply_outside_its_games_syntax(plugin, tmp_path):
    (tmp_path / "games.moves").write_text("tablut e3-c3 zz *\nnogame e3-c3 *\ntoytafl\ntablut e3-c3 *\n")
    done = CliRunner().invoke(main, ["validate", str(tmp_path / "games.moves")])
    assert done.exit_code == 1, done.output
    assert "games.moves:1:14: error[syntax]: found 'zz', expected a ply of tablut" in done.output
    assert "games.moves:2:1: error[tag]: unknown game 'nogame'" in done.output
    assert "games.moves:3:8: error[syntax]: the line ends without a result" in done.output
    assert "4 records: 1 valid, 3 invalid" in done.output


@pytest.mark.parametrize(
    "game, ply, meant",
    [
        ("tablut", "e3-c3", True),
        ("tablut", "Ke5-e6+", True),
        ("tablut", "e3-c3!", False),
        ("tablut", "e3-c3xc4", True),
        ("tablut", "zz", False),
    ],
)
def test_is_ply_follows_the_games_grammar(game, ply, meant):
    assert is_ply(game, ply) is meant
    assert is_ply(game.upper(), ply) is meant


def test_is_ply_refuses_an_unknown_game():
    with pytest.raises(KeyError):
        is_ply("nogame", "e3-c3")


def test_a_tag_value_read_with_a_line_break_is_written_on_one_line(tmp_path):
    """The aagenielsen.dk scrape's player names are JSON strings, `\\n` and all: the pipeline makes a
    line break a space, so that the lgn `fmt` writes reads back (a raw line break ended the tag)."""
    scrape = (FIXTURES / "aage" / "captures.json").read_text().replace('"Lena Ek"', '"Lena\\r\\nEk"')
    (tmp_path / "nl.json").write_text(scrape)
    [source] = read_text(scrape, "aage", "nl.json")
    assert check(source).record.tags["White"] == "Lena Ek"
    written = CliRunner().invoke(main, ["fmt", str(tmp_path / "nl.json")])
    assert '[White "Lena Ek"]' in written.output
    done = CliRunner().invoke(main, ["validate", "-"], input=written.output)
    assert done.exit_code == 0 and "1 record: 1 valid" in done.output, done.output


@pytest.mark.parametrize(
    "line, parsed, problems, said, first",
    [
        (2, SyntaxProblem("no such move", 7, 2), (), "the problem 'no such move' at 7:2, not in the text it read", 2),
        (2, record_of("tablut", "e3-c3"), (SyntaxProblem("a slip", 3, 99),), "the problem 'a slip' at 3:99", 2),
        (40, record_of("tablut", "e3-c3"), (), "the record at 40:1, not in the text it read, which ends at 6:1", 1),
        (6, SyntaxProblem("no such move", 7, 2), (), "the problem 'no such move' at 7:2, not in the text it read", 6),
    ],
    ids=["unread", "slip", "record", "on the last line"],
)
def test_the_places_of_a_records_problems_and_of_the_record_itself_are_in_the_text_read(
    line, parsed, problems, said, first
):
    # said at the record's first line, or the text's when that is not in it
    [record] = handed_over([RecordText("x", line, 0, "x.json", "aage", parsed, problems)], "aage", "x.json", LINES)
    assert isinstance(record.parsed, SyntaxProblem) and record.problems == ()
    assert record.parsed.message.startswith(f"the aage reader handed over {said}"), record.parsed.message
    assert (record.parsed.line, record.parsed.column) == (first, 1)


@pytest.mark.parametrize(
    "ignored_lines, said",
    [
        (failing_hook, f"the hooked format's ignored_lines {FAILED}"),
        (
            lambda text, line: [line],
            "the hooked format's ignored_lines handed back a list, not a set of line numbers or None\n",
        ),
    ],
    ids=["raises", "no-set"],
)
def test_a_plugin_formats_ignored_lines_that_fails_is_said_naming_it(tmp_path, ignored_lines, said):
    """Asked of a record whose lines hold a byte that does not decode: said of its file, as a failing reader is."""
    (tmp_path / "games.hooked").write_bytes(b"Sea caf\xe9\n")
    hooked = Format("hooked", (".hooked",), partial(refusing, format="hooked"), ignored_lines=ignored_lines)
    done = run_with(hooked, ["validate", str(tmp_path / "games.hooked")])
    assert done.exit_code == 2 and done.output.startswith(f"lusoria: {tmp_path / 'games.hooked'}: {said}"), done.output
