"""Reading other formats (OTN, tafl move lists, the aagenielsen.dk JSON scrape, Tablut Challenge
logs), writing OTN, `convert`, `--from`, and walking directories by format."""

import codecs
import csv
import dataclasses
import io
import json
import pickle
import random
import re
import time

import pytest
from click.testing import CliRunner
from conftest import ROOT, connect, no_game_tag

from lusoria import api, workers
from lusoria.api import convert, random_record, reading_tags, records, validate
from lusoria.archive import Archive
from lusoria.cli import main
from lusoria.formats import BUILT_IN, FORMATS, Format, aage, format_of, read_text, tafl
from lusoria.formats.otn_writer import write_report
from lusoria.formats.sources import read_sources, text_format, walk
from lusoria.formats.tablut_challenge import noise_lines
from lusoria.notation.reader import split_records
from lusoria.notation.sources import HEAD, InputError, Skipped
from lusoria.notation.writer import unknown, write_record
from lusoria.validator.games import GAMES
from lusoria.validator.replay import check

FIXTURES = ROOT / "tests" / "fixtures" / "formats"
CSV_GAME = (FIXTURES / "csv/brandubh.csv").read_text().splitlines()[0]  # …,0,1,White: 30 plies
RESIGNED = (FIXTURES / "otn" / "resigned-from-a-position.otg").read_text()
READ_AS_TABLUT = (
    "; a move list does not say its game: read as tablut (--variant aage) unless --game or the file's name "
    "(brandubh.txt) names it (or its variant of hnefatafl with --game hnefatafl --variant V)"
)  # what the first error of a move list read as the format's default game adds


def reports(path, **reading):
    return [check(source) for source in read_sources(str(FIXTURES / path), **reading)]


def problems(report):
    return [(d.rule, d.ply, d.line, d.column) for d in report.diagnostics]


def run(*args, input=None):
    return CliRunner().invoke(main, [str(a) for a in args], input=input)


# -- OTN ---------------------------------------------------------------------------------------------


def test_convert_to_otn_saved_as_otn_reads_back_as_otn(tmp_path):
    """`lusoria convert --to otn escape.lgn > escape.otn`: the name a user gives it is OTN's too, read
    by name and found in a directory (it was read as lgn: "not a game record in any format")."""
    converted = run("convert", "--to", "otn", ROOT / "samples" / "tablut" / "escape.lgn")
    assert converted.exit_code == 0
    (tmp_path / "escape.otn").write_text(converted.stdout)  # (its note on stderr: tuichi-ends)
    assert format_of(str(tmp_path / "ESCAPE.OTN")) == "otn"
    for path in (tmp_path / "escape.otn", tmp_path):
        result = run("validate", path)
        assert (result.exit_code, result.output) == (0, "1 record: 1 valid, 0 invalid (0 errors, 0 warnings)\n")


def test_otn_tags_rules_plies_and_comments():
    [report] = reports("otn/saami-king-captured.otg")
    assert report.valid and report.source.format == "otn"
    tags = report.record.tags
    assert (tags["White"], tags["Black"], tags["Result"], tags["Variant"]) == (
        "Karin Nilsson",
        "Olof Berg",
        "0-1",
        "aage",
    )  # attackers are Black; ks:c atkf:y cenhe: … = aage
    assert "Rules" not in tags and tags["Termination"] == "king captured" and tags["Date"] == "2026.11.21"
    plies = report.record.main.plies
    assert (plies[0].text, plies[0].line, plies[0].column) == ("b5-b7", 13, 4)
    assert (plies[1].text, plies[1].column) == ("e6-c6", 10)
    assert plies[0].comments == ["The attackers open the west side."] and plies[1].comments == []
    assert plies[7].comments == ["The defenders leave d5 open; a mistake."]
    assert plies[17].text == "d3-e3xe4" and plies[-1].text == "f9-f5xe5/g5"  # OTN's + and ++ are not kept
    assert report.record.main.comments[0].startswith("Muscovites first")
    assert (report.outcome.rule, report.outcome.result) == ("T7", "0-1")


def test_otn_inverted_start_resignation_and_rules_overrides():
    [report] = reports("otn/resigned-from-a-position.otg")
    tags = report.record.tags
    assert report.valid, report.diagnostics
    assert tags["Position"] == "3ppp3/4p4/9/p7p/pp2KPPpp/p3P3p/4P4/4p4/3ppp3 w"
    assert tags["Rules"] == "throne-pass=king tuichi-ends=no" and "Variant" not in tags
    assert (tags["Termination"], report.record.result) == ("resignation", "1-0")
    assert [p.text for p in report.record.main.plies] == ["Ke5-c5", "d1-d2", "Kc5-c8"]


@pytest.mark.parametrize(
    "entry, result",
    [
        ("?", "1-0"),  # unknown: the resignation (Black's, to move) decides it
        ("-1", "1-0"),
        ("1", "0-1"),  # the file's own result stands
    ],
)
def test_otn_resignation_and_the_result_entry_make_one_result(entry, result):
    [source] = read_text(RESIGNED.replace("[result:-1]", f"[result:{entry}]"), "otn", "resigned.otg")
    report = check(source)
    assert (report.record.tags["Result"], report.record.result) == (result, result)
    assert report.valid, report.diagnostics


def test_text_and_streams_are_read_in_the_format_asked_for():
    for source in (RESIGNED, io.StringIO(RESIGNED)):
        [record] = read_sources(source, format="otn")
        assert (record.format, check(record).record.tags["Game"]) == ("otn", "tablut")
    [record] = read_sources(RESIGNED)  # by default: lusoria's notation, which it is not; said so, as
    # "in any format lusoria reads" was not true of OTN text
    assert record.format == "lgn" and check(record).diagnostics[0].message == (
        "not a game record in lgn, which a record's text is read as unless a format is named for it: "
        "it has no tag and no movetext"
    )


def test_a_stream_is_read_in_the_format_its_name_or_first_lines_say():
    """As a file is (`open("game.otg")`), or as standard input is (an upload): streams were read
    as lgn whatever they held, and an OTN game was "not a game record in any format lusoria reads"."""
    otg = FIXTURES / "otn/variations.otg"
    log = FIXTURES / "tablut-challenge/Conti_vs_Gallo_1607609421000_gameLog.txt"
    with open(otg) as named, open(log, "rb") as binary:
        sources = [
            named,
            io.StringIO(RESIGNED),
            binary,
            io.BytesIO(log.read_bytes()),
            io.StringIO('[Game "tablut"]\n*'),
        ]
        read = [(record.path, record.format) for source in sources for record in read_sources(source)]
    assert read == [
        (str(otg), "otn"),
        ("<stream>", "otn"),
        (str(log), "tablut-challenge"),
        ("<stream>", "tablut-challenge"),
        ("<stream>", "lgn"),
    ]


@pytest.mark.parametrize(
    "path, expected",
    [
        ("errors/guard.otg", [("tag", None, 3, 21)]),
        ("errors/unknown-rules-entry.otg", [("tag", None, 3, 37)]),
        ("errors/bad-move.otg", [("T4", 4, 6, 13)]),
    ],
)
def test_otn_errors_point_into_the_file(path, expected):
    [report] = reports(path)
    assert problems(report) == expected


def test_the_rule_a_readers_refusal_cites_says_it_refuses_an_unknown_type_and_rules_entry():
    """An aagenielsen.dk type lusoria does not know, an OTN rules entry out of range: both are `tag`
    errors, and `lusoria explain tag` says so."""
    [unknown_type, *_] = reports("errors/unknown-types.json")
    otn = RESIGNED.replace("[rules:dim:9 ", "[rules:dim:21 ")
    [out_of_range] = [check(source) for source in read_sources(io.StringIO(otn), format="otn")]
    assert [d.rule for d in unknown_type.diagnostics + out_of_range.diagnostics] == ["tag", "tag"]
    assert out_of_range.diagnostics[0].message == "rules entry dim:21: a board is 5×5 to 19×19"
    text = " ".join(run("explain", "tag").output.split())
    assert "an aagenielsen.dk game type lusoria does not know (AageGameTypeName)" in text
    assert "an OTN rules entry that is unknown or out of range (frob:y, dim:21: a board is 5×5 to 19×19)" in text


@pytest.mark.parametrize(
    "rules, entry",
    [
        ("dim:13 esc:c", "dim:13"),
        ("dim:11 esc:e cor:", "esc:e"),
        ("dim:7 esc:e", "esc:e"),
        ("dim:9 esc:c", "esc:c"),
        ("dim:11 sw:x", "sw:x"),
        ("dim:11 cor:a1,", "cor:a1,"),
        ("dim:7 cens:tK", "cens:tK"),
        ("dim:7 ks:m", "ks:m"),
        ("dim:11 cor:", "cor:"),
        ("dim:11 cen:", "cen:"),
        ("dim:11 cenre:t", "cenre:t"),
        ("dim:9 esc:e cor: surf:x", "surf:x"),
        ("dim:9 esc:e", "cor:"),
        ("dim:9 esc:e cor: ks:w", "ks:w"),
        ("dim:9 esc:e cor: tfr:w", "tfr:w"),
        ("dim:9 esc:e cor: sw:s", "sw:s"),
        ("dim:9 esc:e cor: cenhe:t", "cenhe:t"),
        ("dim:9 esc:e cor: cenhe:tT cenh:T", "cenh:T"),  # hostile when empty, and when held to the defenders alone
    ],
)
def test_otn_rules_lusoria_cannot_express_are_one_error_naming_the_entry(rules, entry):
    [source] = read_text(f"[rules:{rules}]\n\n1. e2-b2 e3-d3\n", "otn", "x.otg")
    report = check(source)
    assert [d.rule for d in report.diagnostics] == ["tag"] and entry in report.diagnostics[0].message
    assert report.diagnostics[0].text == entry


def test_otn_a_repetition_rule_not_given_is_noted_as_otns_default():
    """A hand-written Brandubh game without tfr: its note does not say the record wrote tfr:d."""
    [source] = read_text("[rules:dim:7 atkf:y]\n\n1. b4-b6 e4-e1\n", "otn", "x.otg")
    assert check(source).record.main.comments == [
        "otn reader: threefold repetition (tfr:d, OTN's default) is not checked: repetition neither ends the "
        "game nor makes a move illegal"
    ]


def test_otn_an_entry_not_given_that_lusoria_cannot_express_is_said_to_be_otns_default():
    """`[rules:dim:9 esc:e]` gives no cor:, so OTN's corners hold: not "rules entry cor::"."""
    [source] = read_text("[rules:dim:9 esc:e]\n\n1. a5-b5\n", "otn", "x.otg")
    [problem] = check(source).diagnostics
    assert problem.message.startswith(
        "rules entry cor: (not given: OTN's default): lusoria cannot express corner squares"
    )


@pytest.mark.parametrize(
    "rules, column, entry, known",
    [
        ("dim:9 esc:x", 14, "esc:x", "c, e"),  # not "cannot express corner squares": x is no edge escape
        ("dim:11 esc:E", 15, "esc:E", "c, e"),  # not "cannot express escape to the edge"
        ("dim:9 esc:e cor: ks:z", 25, "ks:z", "s, w, c, m, t"),  # not "a king weak everywhere"
        ("dim:7 atkf:q", 14, "atkf:q", "y, n"),  # not "cannot express this value"
    ],
)
def test_otn_a_value_no_key_of_otn_has_is_said_unknown_at_its_entry(rules, column, entry, known):
    """A hand-written slip in a rules record's value is said to be one, not read as another value."""
    [source] = read_text(f"[rules:{rules}]\n\n1. a4-a2\n", "otn", "x.otg")
    [problem] = check(source).diagnostics
    assert (problem.rule, problem.line, problem.column, problem.message) == (
        "tag",
        1,
        column,
        f"rules entry {entry}: unknown value {entry} (known: {known})",
    )


def test_otn_a_board_only_the_generic_game_has_is_refused_without_a_start_saying_how_it_is_read():
    """dim:13 is a board of hnefatafl's variants (OpenTafl's Sea Battle): not "lusoria's tafl games
    are 7×7, 9×9, 11×11" alone, which sent a club away from a game lusoria reads with a start: entry."""
    [source] = read_text("[rules:dim:13 atkf:y]\n\n1. a6-b6\n", "otn", "x.otg")
    [problem] = check(source).diagnostics
    assert problem.message == (
        "rules entry dim:13: lusoria cannot express a board of this size (lusoria's tafl games are 7×7, "
        "9×9, 11×11; a rules record with a start: entry is read as hnefatafl, on any board from 5×5 to 19×19)"
    )


@pytest.mark.parametrize(
    "rules, column, said",
    [
        (
            "dim:9 esc:c",
            14,
            "esc:c: lusoria cannot express escape to the corners on this board (lusoria's Tablut king "
            "escapes to any edge square; write esc:e, or give the board's layout, start:, read as hnefatafl with this "
            "escape)",
        ),
        (
            "dim:11 esc:e",
            15,
            "esc:e: lusoria cannot express escape to the edge on this board (lusoria's Copenhagen "
            "king escapes to a corner; write esc:c, or give the board's layout, start:, read as hnefatafl with this "
            "escape)",
        ),
    ],
)
def test_otn_an_escape_the_game_of_its_board_does_not_play_is_said_at_esc_with_the_one_it_plays(rules, column, said):
    """h79b: without a start: entry, a board's game is found by its size and its king's escape: an escape the game
    of that size does not play is said at `esc:`, with the one it plays (a reader that took the game of the board's
    size whatever its escape passed every test: it read `dim:11 esc:e` as Copenhagen, its king escaping to a corner)."""
    [source] = read_text(f"[rules:{rules}]\n\n1. a4-a2\n", "otn", "x.otg")
    [problem] = check(source).diagnostics
    assert (problem.rule, problem.line, problem.column, problem.message) == ("tag", 1, column, f"rules entry {said}")
    size = int(rules.split()[0][4:])  # the layout given, as the message says (h79a: esc: alone changes the rules)
    start = "/".join(["3ttt3", "4t4", "4T4", "t3T3t", "ttTTKTTtt", "t3T3t", "4T4", "4t4", "3ttt3"] if size == 9 else [])
    layout = start or "3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3"
    [kept] = read_text(f"[rules:{rules} start:/{layout}/]\n\n1. a4-a3\n", "otn", "x.otg")
    read = check(kept).rules
    assert (read.name, read.settings.corner_escape) == ("hnefatafl", "esc:c" in rules)


@pytest.mark.parametrize("key", ["start", "starti"])
def test_otn_a_whole_description_its_game_refuses_is_that_games_error_at_the_rules_record(key):
    """A rules record of a board no built-in game has, that describes a whole game by its start
    position (`start` or `starti`), is read as the described game: what that game refuses of it
    (here an option error that names the start, not where in it) is the error, at that entry."""
    start = "/5ttt5/6t6/13/t12/t12/tt3TTT3tt/t4TKKT3t/tt3TTT3tt/t12/t12/13/6t6/5ttt5/"
    [source] = read_text(f"[rules:dim:13 {key}:{start}]\n\n1. a6-b6\n", "otn", "x.otg")
    assert [(d.rule, d.line, d.column, d.message, d.text) for d in check(source).diagnostics] == [
        ("tag", 1, 15, "rules entry start: holds 2 kings: a Hnefatafl game has one", f"{key}:{start}")
    ]


@pytest.mark.parametrize(
    "rules, column, message, text",
    [
        (  # underlined at the record, one character (found by new-user-9)
            "dim:9 esc:c start:/4t4/4t4/4T4/ttTTKTTtt/4T4/4t4/4t4/9/9/9/9/",
            20,
            "rules entry start: has 11 ranks, where the board (dim:9) has 9",
            "start:/4t4/4t4/4T4/ttTTKTTtt/4T4/4t4/4t4/9/9/9/9/",
        ),
        (  # said of the Position tag lusoria made of it: `malformed Position: the rank 'ppPKPp'`
            "dim:7 esc:c start:/3t3/3t3/3T3/ttTKTt/3T3/3t3/3t3/",
            39,
            "rules entry start: the rank 'ttTKTt' covers 6 squares, not 7",
            "ttTKTt",
        ),
        (  # a count beyond the board is not converted (tests/system/test_limits.py)
            "dim:7 esc:c start:/3t3/3t3/3T3/ttTKTtt/3T3/3t99999999999999999999999/3t3/",
            51,
            "rules entry start: the rank '3t99999999999999999999999' covers more than 7 squares",
            "3t99999999999999999999999",
        ),
    ],
    ids=["ranks", "width", "beyond"],
)
def test_otn_a_start_that_does_not_cover_its_board_is_an_error_at_its_entry_as_written(rules, column, message, text):
    [source] = read_text(f"[rules:{rules}]\n\n1. a6-b6\n", "otn", "x.otg")
    assert [(d.rule, d.line, d.column, d.message, d.text) for d in check(source).diagnostics] == [
        ("tag", 1, column, message, text)
    ]


def test_otn_a_rank_is_counted_as_read_board_counts_it():
    """OTN counted a rank's squares its own way: a digit that is no ASCII digit (`٣`) was a count
    "beyond the board" (`the rank '3t٣' covers more than 7 squares`); `read_rank` counts it."""
    rules = "dim:7 name:Brandub_Strong_Center_King surf:n atkf:y ks:c nj:n cj:n cenh: cenhe: start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/"
    [source] = read_text(f"[rules:{rules}]\n[position:/3t3/3t3/3T3/ttTKTtt/3T3/3t٣/3t3/]\n\n1. d7-b7\n", "otn", "x.otg")
    assert [(d.rule, d.line, d.message) for d in check(source).diagnostics] == [
        ("tag", 2, "malformed Position: '٣' is not a Brandubh piece (K, P, p) or a count of empty squares")
    ]
    beyond = '[Game "tablut"]\n[Position "3ppp3/4p4/4P4/p3P3p/ppPPKPPpp/p3P3p/4P4/4p12/3ppp3 w"]\n\n1. e3-c3 *\n'
    assert [d.message for d in check(beyond).diagnostics] == [  # as OTN says it (was: '12' is not a Tablut piece)
        "malformed Position: the rank '4p12' covers more than 9 squares"
    ]


def test_otn_a_position_rank_that_does_not_cover_the_board_is_quoted_as_written():
    rules = "dim:7 name:Brandub_Strong_Center_King surf:n atkf:y ks:c nj:n cj:n cenh: cenhe: start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/"
    [source] = read_text(
        f"[rules:{rules}]\n[position:/3t3/3t3/3T3/ttTKTtt/3T3/3tt3/3t3/]\n\n1. d7-b7\n", "otn", "x.otg"
    )
    assert [(d.rule, d.line, d.column, d.message, d.text) for d in check(source).diagnostics] == [
        ("tag", 2, 36, "the rank '3tt3' covers 8 squares, not 7", "3tt3")
    ]


def test_otn_a_whole_description_with_a_piece_lusoria_does_not_play_is_an_error_at_its_start_entry():
    start = "/5ttt5/6t6/13/t12/t12/tt3TgT3tt/t4TKTT3t/tt3TTT3tt/t12/t12/13/6t6/5ttt5/"  # g: a guard
    [source] = read_text(f"[rules:dim:13 esc:c start:{start}]\n\n1. a6-b6\n", "otn", "x.otg")
    assert [(d.rule, d.line, d.column, d.message, d.text) for d in check(source).diagnostics] == [
        (
            "tag",
            1,
            21,
            "rules entry start: 'g' is not a piece lusoria plays (t, T, K, commanders c C, knights n N, "
            "mercenaries m M): guards are not supported",
            "start",
        )
    ]


def test_otn_reads_the_rules_record_opentafl_writes_for_its_own_tablut():
    """OpenTafl's Tablut: no corners, a king strong only on and beside the throne, which no
    piece may stop on (`cens:` empty), hostile only when empty (`cenh:` empty). Named as OpenTafl
    names it, the catalogue's entry of it; unnamed, the built-in game that plays it."""
    rules = (
        "dim:9 name:Tablut esc:e atkf:y ks:c nj:n cor: cens: cenh: "
        "start:/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/"
    )
    for named, tags in (
        (rules, ("hnefatafl", "opentafl-tablut-9x9", None)),
        (rules.replace(" name:Tablut", ""), ("tablut", "aage", "throne-stop=none")),
    ):
        [source] = read_text(f"[rules:{named}]\n\n1. d1-d3 e4-h4\n", "otn", "x.otg")
        report = check(source)
        assert report.valid, report.diagnostics
        assert tuple(report.record.tags.get(key) for key in ("Game", "Variant", "Rules")) == tags


def test_otn_reads_the_rules_record_opentafl_writes_for_its_own_copenhagen_as_copenhagen():
    """OpenTafl's Copenhagen (Copenhagen.java) writes `tfr:w`: named so, it is lusoria's Copenhagen,
    whose repetition is not checked (C12), with a note; unnamed, tfr:w is the generic game's."""
    rules = (
        "dim:11 name:Copenhagen atkf:y tfr:w sw:s efe:y "
        "starti:/3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/"
    )
    for named, game, noted in (
        (rules, "copenhagen", True),
        (rules.replace(" name:Copenhagen", ""), "hnefatafl", False),
    ):
        [source] = read_text(f"[rules:{named}]\n\n1. a8-d8 g5-g3\n", "otn", "x.otg")
        report = check(source)
        assert report.valid, report.diagnostics
        assert report.record.tags["Game"] == game
        assert (
            "otn reader: threefold repetition (tfr:w) is not checked: repetition neither ends the game nor "
            "makes a move illegal" in report.record.main.comments
        ) == noted
    [tablut] = read_text("[rules:dim:9 esc:e cor: tfr:w name:Copenhagen]\n\n1. e2-b2\n", "otn", "x.otg")
    assert [d.text for d in check(tablut).diagnostics] == ["tfr:w"]  # (named for another board: refused)


def test_otn_a_tag_value_may_run_over_several_lines_as_opentafls_puzzles_write_it():
    """OpenTafl reads a tag up to its `]`, over lines: its puzzles' start-comment holds paragraphs,
    each a comment (its lines one), a `[` within a line of one included."""
    text = (
        "[event:Puzzle]\n[rules:dim:9 esc:e cor: atkf:n tfr:i]\n"
        "[start-comment:The king escapes.\n\nEnter 'next' [or 'n')\nto continue.]\n\n1. e3-c3 d1-d3\n"
    )
    [source] = read_text(text, "otn", "x.otg")
    report = check(source)
    assert report.valid, report.diagnostics
    assert report.record.main.comments == ["The king escapes.", "Enter 'next' [or 'n') to continue."]
    [plain] = read_text(text.replace(" [or 'n')", ""), "otn", "x.otg")
    assert check(plain).record.main.comments == ["The king escapes.", "Enter 'next' to continue."]
    [spaced] = read_text(text.replace("\n\nEnter", "\n \t\nEnter"), "otn", "x.otg")  # a blank line of blanks
    assert check(spaced).record.main.comments == report.record.main.comments
    [bracketed] = read_text(text.replace("\n\nEnter", "\n\n[1) Enter"), "otn", "x.otg")  # a paragraph, not a tag
    assert check(bracketed).record.main.comments == ["The king escapes.", "[1) Enter 'next' [or 'n') to continue."]
    [numbered] = read_text(text.replace("\n\nEnter", "\n1. Enter"), "otn", "x.otg")  # a paragraph, not a turn
    assert check(numbered).record.main.comments == ["The king escapes. 1. Enter 'next' [or 'n') to continue."]
    [unclosed] = read_text(text.replace("[event:Puzzle]", "[event:Puzzle"), "otn", "x.otg")
    assert [(d.line, d.message) for d in check(unclosed).diagnostics] == [
        (1, "the [event:…] tag is not closed with ']' on its line")
    ]


@pytest.mark.parametrize("header", ["[result:?]\n", ""])
def test_otn_a_game_whose_header_does_not_know_its_result_gets_the_one_its_end_makes(header):
    """OpenTafl writes `result:?` for a game it did not see end (its own puzzles): a main line that
    ends the game says the result, with a note; one that does not stays unfinished."""
    moves = "1. c5-c3 i6-f6\n2. d5-d3 i4-h4\n3. c3-c7 a6-a9\n4. Ke5-c5 b5-b9\n5. Kc5-c1\n"
    [source] = read_text(f"{header}[rules:dim:9 esc:e cor: atkf:n tfr:i]\n\n{moves}", "otn", "x.otg")
    report = check(source)
    assert report.valid, report.diagnostics
    assert report.record.tags["Result"] == report.record.result == "1-0"
    assert report.record.main.plies[-1].comments == [
        "otn reader: the header gives no result; the game ended 1-0 (the king reached the edge, T6)"
    ]
    [unfinished] = read_text(f"{header}[rules:dim:9 esc:e cor: atkf:n tfr:i]\n\n{moves[:-10]}\n", "otn", "x.otg")
    assert check(unfinished).valid and check(unfinished).record.result == "*"
    [said] = read_text(f"[result:1]\n[rules:dim:9 esc:e cor: atkf:n tfr:i]\n\n{moves}", "otn", "x.otg")
    assert [d.rule for d in check(said).diagnostics] == ["result"]  # a result the header gives is checked


def test_otn_a_timed_games_clocks_stay_at_the_start_of_its_comments_and_go_back_there():
    """docs/formats.md: OpenTafl writes the time left before each comment of a timed game."""
    text = (
        "[time-control:300 30/3 0i]\n[time-remaining:281 30/3, 288 30/3]\n"
        "[rules:dim:9 esc:e cor: atkf:n tfr:i]\n\n"
        "1. e3-c3 d1-d3 \n[296 30/3 0i |297 30/3 0i A quiet move]\n\n2. e4-e3 \n[281 30/3 0i ]\n\n"
    )
    [source] = read_text(text, "otn", "x.otg")
    report = check(source)
    assert [ply.comments for ply in report.record.main.plies] == [
        ["296 30/3 0i"],
        ["297 30/3 0i A quiet move"],
        ["281 30/3 0i"],
    ]
    assert (report.record.tags["TimeControl"], report.record.tags["TimeRemaining"]) == (
        "300 30/3 0i",
        "281 30/3, 288 30/3",
    )
    written = write_report(report)
    assert "[296 30/3 0i|297 30/3 0i A quiet move]" in written and "[time-control:300 30/3 0i]" in written


def test_otn_threefold_draw_is_noted():
    [source] = read_text("[rules:dim:9 esc:e cor: ks:c]\n\n1. e2-b2 e3-d3\n", "otn", "x.otg")
    assert any("tfr:d" in c for c in check(source).record.main.comments)


ROUND_TRIP_RULES = [
    {},
    {"Variant": "linnaeus"},
    {"Variant": "aage"},
    {"Variant": "ashton"},
    {"Variant": "unarmed", "Rules": "first=black"},
    {"Rules": "king-capture=2 throne-hostile=always"},
    {"Game": "copenhagen"},
    {"Game": "copenhagen", "Variant": "fetlar", "Rules": "first=white"},
    {"Game": "copenhagen", "Rules": "shieldwall=weak king-capture=2 throne-hostile=always encirclement=no"},
    {"Game": "brandubh"},
    {"Game": "brandubh", "Rules": "throne-hostile=no king-armed=no exit-forts=yes"},
]


def game_rules(tags: dict[str, str]):
    """The rules of a tafl game that `tags` choose (Tablut's when they name no game)."""
    return GAMES[tags.get("Game", "tablut")].from_tags({name: value for name, value in tags.items() if name != "Game"})


@pytest.mark.parametrize("tags", ROUND_TRIP_RULES)
def test_otn_written_by_lusoria_reads_back_to_the_same_record(tags):
    rules = game_rules(tags)
    for seed in range(3):
        record = random_record(rules, random.Random(seed), max_plies=40)
        record.tags.pop("Variant", None)
        record.tags.update(tags)
        record.main.plies[0].comments.append("an opening")
        record.main.plies[-1].comments += ["one", "two"]
        report = check(write_record(record))
        otn = write_report(report)
        [back] = read_text(otn, "otn", "back.otg")
        again = check(back)
        report.record.main.plies[-1].comments = ["one two"]  # one OTN comment per ply
        report.record.tags = {
            name: value for name, value in report.record.tags.items() if not unknown(name, value)
        }  # `?` is no tag in OTN (lgn writes it again)
        assert again.record == report.record and again.valid == report.valid


@pytest.mark.parametrize("tags", ROUND_TRIP_RULES)
def test_otn_rules_records_alone_say_the_options_of_the_games_as_opentafl_reads_them(tags):
    """Without lusoria's own tags (as OpenTafl writes a game), the rules record alone gives the
    same game and options (but what OTN has no entry for: Tablut's camps, repetition, Tuichi)."""
    rules = game_rules(tags)
    record = random_record(rules, random.Random(1), max_plies=10)
    report = check(write_record(record))
    otn = write_report(report)
    plain = "\n".join(line for line in otn.split("\n") if not line.startswith(("[lusoria-variant:", "[lusoria-rules:")))
    [back] = read_text(plain, "otn", "back.otg")
    again = check(back)
    unsaid = {"camps", "camp-hostile", "repetition", "tuichi-ends", "no-move"}
    assert again.rules.name == rules.name
    assert {k: v for k, v in again.rules.option.items() if k not in unsaid} == {
        k: v for k, v in rules.option.items() if k not in unsaid
    }


def test_otn_writes_a_position_and_a_resignation_and_keeps_what_otn_cannot_hold_readable():
    [source] = read_sources(str(FIXTURES / "otn/resigned-from-a-position.otg"))
    report = check(source)
    report.record.main.plies[0].comments = ["a | b ] c"]
    otn = write_report(report)
    assert "[lusoria-position:3ppp3/4p4/9/p7p/pp2KPPpp/p3P3p/4P4/4p4/3ppp3 w]" in otn
    assert "[lusoria-rules:throne-pass=king tuichi-ends=no]" in otn and otn.endswith("2. Kc5-c8\n")
    assert "[a / b ) c|]" in otn
    [back] = read_text(otn, "otn", "x.otg")
    again = check(back)
    assert again.valid and again.record.tags == report.record.tags


def test_otn_cannot_hold_a_pass():
    """A pass (`--`, Tablut's `no-move=passes`) has no OTN move record: writing it is the writer's
    ValueError (convert's problem), never a `--` written among OTN's moves."""
    text = (
        '[Game "tablut"]\n[Rules "no-move=passes"]\n[Position "8p/9/9/9/9/9/2pp5/1pPKp4/2pp5 b"]\n\n'
        "1... i9-i8 2. -- i8-i7 *\n"  # after i9-i8 the Swedes cannot move
    )
    [source] = read_sources(io.StringIO(text))
    report = check(source)
    assert report.valid and [ply.text for ply in report.record.main.plies] == ["i9-i8", "--", "i8-i7"]
    with pytest.raises(ValueError, match=r"^a pass \(--\) has no OTN move record$"):
        write_report(report)
    left_out = check(text.replace("2. -- ", ""))  # (forced: the record may leave it out)
    assert left_out.valid and left_out.passed == {(0, 1)}
    with pytest.raises(ValueError) as refused:
        write_report(left_out)
    assert (
        str(refused.value) == "a pass (--) has no OTN move record, and the record leaves one out before move 2, Black"
    )
    boxed = '[Game "tablut"]\n[Rules "no-move=passes"]\n[Position "9/9/9/4P4/3PKP3/4P4/9/P8/p1P6 w"]\n\n'
    in_variation = check(boxed + "1. e6-e7 (1. c1-b1 2. e6-e8) 1... a1-b1 *\n")
    assert in_variation.valid and in_variation.passed == {(1, 1)}
    with pytest.raises(ValueError, match=r"leaves one out in a variation$"):
        write_report(in_variation)


def test_convert_round_trips_otn_through_the_cli(tmp_path):
    otn = run("convert", "--to", "otn", FIXTURES / "otn/saami-king-captured.otg")
    assert otn.exit_code == 0 and otn.output.startswith("[event:lusoria fixtures]")
    (tmp_path / "again.otg").write_text(otn.output)
    lgn = run("convert", "--to", "lgn", tmp_path / "again.otg")
    direct = run("convert", "--to", "lgn", FIXTURES / "otn/saami-king-captured.otg")
    assert lgn.output == direct.output and '[Variant "aage"]' in lgn.output
    assert run("validate", tmp_path / "again.otg").exit_code == 0


def test_convert_needs_an_output_dir_for_several_otn_games(tmp_path, in_root):
    several = run("convert", "--to", "otn", ROOT / "samples" / "tablut")
    assert several.exit_code == 2 and "--output-dir" in several.output
    written = run("convert", "--to", "otn", "--output-dir", tmp_path, ROOT / "samples" / "tablut" / "escape.lgn")
    assert written.exit_code == 0 and (tmp_path / "samples/tablut/escape-000000.otg").exists()
    laquet = run("convert", "--to", "otn", ROOT / "samples" / "laquet" / "whole-game.lgn")
    assert laquet.exit_code == 1 and "OTN holds tafl games, not laquet" in laquet.output


def test_convert_to_otn_says_an_invalid_record_of_another_game_is_not_tafl(tmp_path):
    """A Latrunculi or Laquet record that breaks a rule, or does not parse: OTN cannot hold its
    game, said as of a valid one (it said the record's first error, as if fixing it would do). A
    record of a game lusoria does not know, or of no Game tag, is said by its tag's error."""
    broken = tmp_path / "broken.lgn"
    broken.write_text('[Game "latrunculi"]\n\n1. a1 *\n\n[Game "laquet"]\n\n1. 46: 5/11 4/8 31 *\n')
    result = run("convert", "--to", "otn", broken)
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr == (
        f"lusoria: {broken}:1: record 0 not converted: OTN holds tafl games, not latrunculi\n"
        f"lusoria: {broken}:5: record 1 not converted: OTN holds tafl games, not laquet\n"
    )
    tablut = run("convert", "--to", "otn", ROOT / "samples" / "errors" / "tablut-moves.lgn")
    assert "record 0 not converted: error[T1]: move 1, Black: the piece on e4 is White's" in tablut.stderr
    unknown = tmp_path / "unknown.lgn"  # no game to refuse: the tag's error is said
    unknown.write_text('[Game "chess"]\n\n1. e4 *\n\n[Event "no game"]\n\n1. e3-c3 *\n')
    result = run("convert", "--to", "otn", unknown)
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr == (
        f"lusoria: {unknown}:1:8: record 0 not converted: error[tag]: unknown game 'chess' (known: brandubh, "
        "copenhagen, hnefatafl, laquet, latrunculi, tablut)\n"
        f"lusoria: {unknown}:5:1: record 1 not converted: error[tag]: {no_game_tag('tablut')}\n"
    )


def test_convert_output_dir_names_each_file_by_its_record_number_as_messages_do(tmp_path, monkeypatch):
    """`record 1` of a message, `show --record 1` and the file `round-000001.lgn` are one record (files were
    numbered from 1: record 0's slip was said beside round-1.lgn, which held record 1)."""
    monkeypatch.chdir(tmp_path)
    source = tmp_path / "round.lgn"
    source.write_text('[Game "tablut"]\n1. e3-d2 *\n\n[Game "tablut"]\n[White "Second"]\n1. e3-c3 *\n')
    result = run("convert", "--to", "lgn", "--output-dir", tmp_path / "out", source)
    assert result.exit_code == 1 and f"{source}:2:4: record 0 not converted" in result.output
    assert sorted(path.name for path in (tmp_path / "out").iterdir()) == ["round-000001.lgn"]
    assert '[White "Second"]' in (tmp_path / "out" / "round-000001.lgn").read_text()


def test_convert_output_dir_files_read_back_in_record_order(tmp_path, monkeypatch):
    """The 30 OTN files of a 30-record file, read back from their folder (in name order), give the
    records in their order (numbered `-0` … `-29`, `-10` came before `-2`)."""
    monkeypatch.chdir(tmp_path)
    source = tmp_path / "round.lgn"
    source.write_text("".join(f'[Game "tablut"]\n[White "W{n}"]\n1. e3-c3 *\n\n' for n in range(30)))
    result = run("convert", "--to", "otn", "--output-dir", tmp_path / "out", source)
    assert result.exit_code == 0
    back = run("convert", "--to", "lgn", tmp_path / "out")
    assert re.findall(r'\[White "(W\d+)"\]', back.output) == [f"W{n}" for n in range(30)]
    assert (tmp_path / "out" / "round-000029.otg").exists()


def test_convert_output_dir_keeps_the_folders_of_inputs_of_one_name(tmp_path, monkeypatch):
    """A director converts round folders that all hold `game1.otg` (two inputs of one name stopped
    the command): each record is written in the folders that lead to its file from the current
    directory, whichever other inputs are given (a round converted alone is named as among all), or,
    for inputs outside it, from the folder above the one that holds them; standard input in DIR itself."""
    for folder, game in (("round1", "brandubh"), ("round2", "copenhagen"), ("round2/late", "brandubh")):
        (tmp_path / "rounds" / folder).mkdir(parents=True)
        (tmp_path / "rounds" / folder / "game1.otg").write_bytes((FIXTURES / f"otn/{game}.otg").read_bytes())
    monkeypatch.chdir(tmp_path / "rounds")
    both = run("convert", "--to", "lgn", "--output-dir", "../out", "round1/game1.otg", "round2/game1.otg")
    assert (
        both.exit_code == 0
        and both.output == "wrote ../out/round1/game1-000000.lgn\nwrote ../out/round2/game1-000000.lgn\n"
    )
    for round in ("round1", "round2"):
        alone = run("convert", "--to", "lgn", f"{round}/game1.otg").output
        assert (tmp_path / f"out/{round}/game1-000000.lgn").read_text() == alone
    folders = run("convert", "--to", "lgn", "--output-dir", str(tmp_path / "all"), str(tmp_path / "rounds"))
    assert folders.exit_code == 0
    assert sorted(str(path.relative_to(tmp_path / "all")) for path in (tmp_path / "all").rglob("*")) == [
        "round1",
        "round1/game1-000000.lgn",
        "round2",
        "round2/game1-000000.lgn",
        "round2/late",
        "round2/late/game1-000000.lgn",
    ]
    one_folder = run("convert", "--to", "lgn", "--output-dir", "../one", "round2")
    assert one_folder.output == "wrote ../one/round2/game1-000000.lgn\nwrote ../one/round2/late/game1-000000.lgn\n"
    one_file = run("convert", "--to", "lgn", "--output-dir", "../file", "round2/late/game1.otg")
    assert one_file.output == "wrote ../file/round2/late/game1-000000.lgn\n"
    piped = run(
        "convert", "--to", "lgn", "--output-dir", "../piped", "-", "round1/game1.otg", input='[Game "tablut"]\n*\n'
    )
    assert piped.output == "wrote ../piped/stdin-000000.lgn\nwrote ../piped/round1/game1-000000.lgn\n"
    monkeypatch.chdir(tmp_path / "rounds/round1")  # a round given from elsewhere: named from the folder above its
    outside = run("convert", "--to", "lgn", "--output-dir", tmp_path / "outside", tmp_path / "rounds/round2/late")
    assert outside.output == f"wrote {tmp_path / 'outside/late/game1-000000.lgn'}\n"
    monkeypatch.chdir(tmp_path / "rounds")
    converted = convert(["round1/game1.otg", "round2"], "lgn")  # the library names them so too
    assert [item.file_name for item in converted] == [
        "round1/game1-000000.lgn",
        "round2/game1-000000.lgn",
        "round2/late/game1-000000.lgn",
    ]
    text = '[Game "tablut"]\n1. e3-c3 *\n'  # records given as text or a stream have no folder to keep
    mixed = convert([text, io.BytesIO(text.encode()), "round1/game1.otg"], "lgn")
    assert [item.file_name for item in mixed] == ["stdin-000000.lgn", "stdin-000000.lgn", "round1/game1-000000.lgn"]
    monkeypatch.chdir(tmp_path / "rounds/round2")  # a file outside it: named from the folder above its own alone
    mixed = convert([text, str(tmp_path / "rounds/round1/game1.otg")], "lgn")
    assert [item.file_name for item in mixed] == ["stdin-000000.lgn", "round1/game1-000000.lgn"]
    rounds = ["rounds/round1/game1-000000.lgn", "rounds/round2/game1-000000.lgn", "rounds/round2/late/game1-000000.lgn"]
    held = convert([text, str(tmp_path / "rounds")], "lgn")  # the folder that holds this one: from the folder above it
    assert [item.file_name for item in held] == ["stdin-000000.lgn", *rounds]
    piped = run("convert", "--to", "lgn", "--output-dir", tmp_path / "held", "-", tmp_path / "rounds", input=text)
    assert piped.stdout.splitlines() == [f"wrote {tmp_path / 'held' / name}" for name in ["stdin-000000.lgn", *rounds]]


# -- tafl move lists -----------------------------------------------------------------------------------


def test_tafl_move_lists_one_game_per_line():
    games = reports("tafl/saami.txt", format="tafl")
    assert [r.record.result for r in games] == ["0-1", "1-0", "0-1", "*"]
    assert games[0].valid and "the game ended 0-1" in games[0].record.main.plies[-1].comments[0]
    assert [p.text for p in games[1].record.main.plies[:2]] == ["b5-b7", "e6-c6"]  # no hyphen
    assert games[1].record.tags["Termination"] == "resignation"  # Black to move resigned
    assert games[2].record.tags["Termination"] == "time forfeit"  # White to move ran out of time
    # (h78c) the Termination tag where its word stands (its diagnostics' place), not at the line's start
    assert [games[1].record.tag_places["Termination"], games[2].record.tag_places["Termination"]] == [(2, 38), (3, 28)]
    assert "repeats a square" in games[2].record.main.plies[2].comments[0]
    assert problems(games[3]) == [("T4", 3, 4, 13)]


def test_tafl_a_move_after_the_word_that_ends_the_game_is_an_error_at_that_move():
    [first, second] = [check(s) for s in read_text("d1-d3 e4-h4\nd1-d3 e4-h4 resigned f1-f2\n", "tafl", "x.txt")]
    assert first.valid and first.record.result == "*"
    assert [(d.rule, d.line, d.column, d.message) for d in second.diagnostics] == [
        ("syntax", 2, 22, "found 'f1-f2' after 'resigned', which ends the game" + READ_AS_TABLUT)
    ]


def test_tafl_move_lists_read_resigns_a_move_number_of_dots_and_a_double_mark():
    """formats.md: `resigned` (`resigns`) ends a list, the side to move resigned; move numbers are read and
    ignored, `1...` as `1.`; a move's marks (`+`, `++`) are dropped, the replay decides (h80b: each unpinned)."""
    [resigns, dots, marked] = [
        check(s)
        for s in read_text(
            "d1-d3 e4-h4 resigns\n\n1. d1-d3 1... e4-h4 2. d3-d1\n\nd1-d3 e4-h4 d3-d1++ e5-e4+\n", "tafl", "x.txt"
        )
    ]
    assert (resigns.record.result, resigns.record.tags["Termination"], resigns.diagnostics) == (
        "1-0",
        "resignation",
        [],
    )
    assert [p.text for p in dots.record.main.plies] == ["d1-d3", "e4-h4", "d3-d1"] and dots.valid
    assert [p.text for p in marked.record.main.plies] == ["d1-d3", "e4-h4", "d3-d1", "e5-e4"] and marked.valid


@pytest.mark.parametrize(
    "head, format",
    [
        ("1. e2-c2 f9-f5\n", "tafl"),  # move numbers are no words of it
        ("e2-c2 f9-f5 resigned\n", "tafl"),
        ("e2-c2 f9-f5 hel", "tafl"),  # the head ends in a word cut short: the two before it say it
        ("e2-c2 f9-f5 resign\n", "tafl"),  # one last word: a slip of resigned, which the reader names
        ("e2-c2 f9-f5 hello there\n", None),  # a whole line: each word is judged, one last word aside
        ("e2-c2 hello\n", None),
    ],
)
def test_a_txt_file_is_a_move_list_by_its_first_line(head, format):
    assert format_of("games.txt", head) == format


def test_tafl_numbered_games_over_lines_and_rules_from_the_options():
    text = "1. e3-c3 d1-d3\n2. c5-c4\n\nc5-c7 resigned\n"
    sources = list(read_text(text, "tafl", "x", {"Variant": "seed"}))
    assert [len(check(s).record.main.plies) for s in sources] == [3, 1]
    assert check(sources[1]).record.result == "1-0"  # seed: White first; Black resigned after 1 ply
    [bad] = read_text("e3-c3 e3-zz\n", "tafl", "x")
    assert problems(check(bad)) == [("syntax", None, 1, 7)]
    result = run("validate", "--from", "tafl", "--variant", "seed", "-", input="e3-c3 d1-d3 resigned\n")
    assert result.exit_code == 0 and "1 record: 1 valid" in result.output


@pytest.mark.parametrize(
    "text, games",
    [
        ("e3-c3 e1-e3\nd1-d3 e2-c2\n\nf1-f3 e5-f5\n", ["e3-c3 e1-e3", "d1-d3 e2-c2", "f1-f3 e5-f5"]),
        ("1. e3-c3 e1-e3\n2. d1-d3 e2-c2\n1. f1-f3 e5-f5\n", ["1. e3-c3 e1-e3\n2. d1-d3 e2-c2", "1. f1-f3 e5-f5"]),
        ("1. e3-c3 e1-e3 2. d1-d3\ne2-c2\n\n3. f1-f3\n", ["1. e3-c3 e1-e3 2. d1-d3\ne2-c2", "3. f1-f3"]),
        ("e3-c3 e1-e3\n2. d1-d3 e2-c2\nf1-f3 e5-f5\n", ["e3-c3 e1-e3\n2. d1-d3 e2-c2", "f1-f3 e5-f5"]),
    ],
    ids=["a blank line among games", "numbered from 1 again", "numbered, a blank line", "a numbered line goes on"],
)
def test_a_tafl_game_is_a_line_unless_its_moves_are_numbered(text, games):
    """A blank line among games of one a line reads them as before (it made the file's games
    blocks: two games a block); numbered moves go on over the lines after them."""
    sources = list(read_text(text, "tafl", "x"))
    assert [(source.text, source.line) for source in sources] == [
        (game + "\n", text[: text.index(game)].count("\n") + 1) for game in games
    ]


def test_a_move_list_pasted_from_an_e_mail_is_read_up_to_its_signature(tmp_path):
    """A game pasted from a mail with its signature below (Windows line ends, a Latin-1 name): the
    lines from the `-- ` line on are no games (each was a record of a syntax error), and the record says so."""
    mail = "c5-c3 i6-f6 d5-d3 i4-h4 c3-c7 a6-a9 Ke5-c5 b5-b9 Kc5-c1\r\n\r\n-- \r\nSøren Ærø\r\nSent from my phone\r\n"
    (tmp_path / "round1.txt").write_bytes(mail.encode("latin-1"))
    checked = run("validate", "--game", "tablut", "--encoding", "latin-1", tmp_path)
    assert (checked.exit_code, checked.output) == (0, "1 record: 1 valid, 0 invalid (0 errors, 0 warnings)\n")
    converted = run("convert", "--to", "lgn", "--game", "tablut", "--encoding", "latin-1", tmp_path / "round1.txt")
    assert (
        "{tafl reader: the lines from line 3 on are an e-mail's signature (its '-- '\nline and after): not read}"
        in converted.stdout
    )
    [list_only] = read_text("c5-c3 i6-f6\n--\n", "tafl", "x.txt")  # a mail program drops the blank after --
    assert check(list_only).record.main.comments == [
        "tafl reader: the lines from line 2 on are an e-mail's signature (its '-- ' line and after): not read"
    ]
    [below_a_blank] = read_text("\nc5-c3 i6-f6\n--\n", "tafl", "x.txt")  # (h78c: its first line blank, counted)
    assert check(below_a_blank).record.main.comments == [
        "tafl reader: the lines from line 3 on are an e-mail's signature (its '-- ' line and after): not read"
    ]


MAIL = "Hi Anna,\r\n\r\nhere is our game from Tuesday:\r\n\r\nc5-c3 i6-f6 d5-d3\r\nd5-d3 i4-h4\r\n\r\n-- \r\nSøren\r\n"


def test_a_move_list_below_a_few_lines_of_prose_is_read_with_a_note_of_the_lines_passed_over(tmp_path):
    """A whole e-mail pasted into a .txt (a greeting above the list, a signature below): it was
    skipped in a folder and read as lgn when named ('not a game record in any format lusoria reads');
    the lines above the first move list, which hold no move, are not read, said in one note, which
    counts the lines of prose, not the blank line below them ("lines 1–4" for two and two blanks)."""
    (tmp_path / "round1.txt").write_text(MAIL)
    checked = run("validate", "--game", "tablut", tmp_path)
    assert (checked.exit_code, checked.output) == (0, "2 records: 2 valid, 0 invalid (0 errors, 0 warnings)\n")
    first, second = read_sources(str(tmp_path / "round1.txt"), tags={"Game": "tablut"})
    assert (first.line, check(first).record.main.comments) == (
        5,
        ["tafl reader: lines 1–3 hold no move (prose: an e-mail's greeting?): not read"],
    )
    assert check(second).record.main.comments == [
        "tafl reader: the lines from line 8 on are an e-mail's signature (its '-- ' line and after): not read"
    ]


@pytest.mark.parametrize(
    "text, notes",
    [
        (
            "c5-c3 i6-f6\n\nCheers,\nJon\n-- \nJon Ruud, Uppsala\n",
            [
                "tafl reader: lines 3–4 hold no move (prose: an e-mail's closing?): not read",
                "tafl reader: the lines from line 5 on are an e-mail's signature (its '-- ' line and after): not read",
            ],
        ),
        (
            "c5-c3 i6-f6\r\n\r\nThanks for the game!\r\n",
            ["tafl reader: line 3 holds no move (prose: an e-mail's closing?): not read"],
        ),
        (
            "c5-c3 i6-f6\n\nCheers,\nJon\n\n\n-- \nclub\n",
            [
                "tafl reader: lines 3–4 hold no move (prose: an e-mail's closing?): not read",
                "tafl reader: the lines from line 7 on are an e-mail's signature (its '-- ' line and after): not read",
            ],
        ),
        (
            "c5-c3 i6-f6\n\n" + "Cheers,\n" * 10,
            ["tafl reader: lines 3–12 hold no move (prose: an e-mail's closing?): not read"],
        ),
    ],
    ids=["above a signature", "unsigned", "blank lines below it", "ten lines"],
)
def test_prose_below_the_last_move_list_a_blank_line_apart_is_passed_over_with_a_note(text, notes):
    """An e-mail's `Cheers,` and name below the game were records of a syntax error each (in the
    archive too): lines of prose a blank line below the last move list are not read, said in a note
    of the last game, as a greeting above the first is."""
    [source] = read_text(text, "tafl", "x.txt", {"Game": "tablut"})
    assert check(source).record.main.comments == notes


@pytest.mark.parametrize(
    "line", ["{our game}", "resign", "1-0 to me", "here is the game, she resigned at the end:", "Tuesday, 1. December:"]
)
def test_a_line_of_a_move_lists_mark_alone_above_the_first_move_list_is_prose(tmp_path, line):
    """Below the last move list, a line that holds a brace, `resign` or a result is read (a game or an
    error at its place); above the first, it is prose, as before, and so is a sentence that holds
    `resigned` or a move number's form (`1.`): the file is told a file of move lists by the line below
    its prose, and such a line there skipped the whole file in a folder."""
    (tmp_path / "round1.txt").write_text(f"Hi Anna,\n{line}\nc5-c3 i6-f6\n")
    checked = run("validate", "--game", "tablut", tmp_path)
    assert (checked.exit_code, checked.output) == (0, "1 record: 1 valid, 0 invalid (0 errors, 0 warnings)\n")
    [source] = read_sources(str(tmp_path / "round1.txt"), tags={"Game": "tablut"})
    assert check(source).record.main.comments == [
        "tafl reader: lines 1–2 hold no move (prose: an e-mail's greeting?): not read"
    ]


@pytest.mark.parametrize(
    "first, said",
    [
        ("d1-c1 e4-ee1 d6-e6", "1:7: error[syntax]: found 'e4-ee1', expected a move such as e2-c2 or f9-f5xg5"),
        ("d1-c1 e4-e1x d6-e6", "1:7: error[syntax]: found 'e4-e1x', expected a move such as e2-c2 or f9-f5xg5"),
        ("d1-c1 e4-e1 Resigned d6-e6", "1:22: error[syntax]: found 'd6-e6' after 'Resigned', which ends the game"),
        ("1. d1-c1 e4-ee1\n", "1:10: error[syntax]: found 'e4-ee1', expected a move such as e2-c2 or f9-f5xg5"),
        ("dd1-c1 e4-e1 d6-e6", "1:1: error[syntax]: found 'dd1-c1', expected a move such as e2-c2 or f9-f5xg5"),
        ("D1–c1 e4-e1 d6-e6", "1:1: error[syntax]: found 'D1–c1', expected a move such as e2-c2 or f9-f5xg5"),
    ],  # (a game of numbered moves goes on up to a blank line)
    ids=[
        "a square mistyped",
        "a capture without its square",
        "a move after resigned",
        "numbered",
        "a file doubled",  # (h80b: _MOVE_OR_SLIP's second letter of a file, at the start of the first word)
        "a capital file and an en dash",  # (h80b: the dashes after a capital file's square)
    ],
)
def test_a_file_of_move_lists_whose_first_game_holds_a_slip_is_read_the_slip_at_its_place(tmp_path, first, said):
    """A file whose first game held a slip was no file of move lists: skipped whole in a folder, exit 0
    (a club's check passed, none of its games read), or named alone read as lgn, one error at 1:1 (h79a).
    Its first line is a move list with a slip in it, which the reader names at its place."""
    (tmp_path / "round1-brandubh.txt").write_text(f"{first}\nd1-c1 e4-e1\nd1-c1 e4-e1 d6-e6\n")
    for given in (tmp_path, tmp_path / "round1-brandubh.txt"):
        result = run("validate", given)
        assert result.exit_code == 1
        assert result.output.splitlines()[0].startswith(f"{tmp_path / 'round1-brandubh.txt'}:{said}")
        assert "\n3 records: 2 valid, 1 invalid (1 error, 0 warnings)\n" in result.output


@pytest.mark.parametrize(
    "first",
    [
        "1. e2-e4 e7-e5 2. Ng1-f3 Nb8-c6",
        "1. e3-d3! d1-d3 *",
        "a1-a2 B2 hello",
        "v1.2 e3-c3 d1-d3",
        "Z1-c1 e4-e1 d6-e6",
        "e4-ee1 d1-c1x d6-e66",
    ],
    ids=[
        "chess",
        "an lgn movetext annotated",
        "prose",
        "a version",
        "a capital past any tafl board's files",  # (h80b: a capital file is one of a tafl board, A to S)
        "slips alone",  # (h80b: a slip counts as a move where a move is well written)
    ],
)
def test_a_first_line_of_moves_and_other_words_is_no_move_list(first):
    """review79: a move list's first line may hold slips of moves (`e4-ee1`), not any word with a letter and a
    digit: chess's piece letters, lgn's marks, prose and version numbers made 162 of 466 such files tafl
    move lists, errors where they were skipped (or read as lgn, named)."""
    assert not tafl.looks_like_move_lists(first + "\n")
    assert tafl.looks_like_move_lists("1. e2-e4 e7-e5 2. g1-f3 e4-ee1\n")  # (moves, and the slip of one)
    for slipped in ("E3-c3 d1-d3 e4-e3xd3", "d1-c1, e4-e1 d6-e6", "d1-d3. e4-e1 d6-e6"):  # (review79b: a capital
        assert tafl.looks_like_move_lists(slipped + "\n")  # file, a comma or a full stop, which the file said)


@pytest.mark.parametrize(
    "text, lists",
    [
        ("d2-b2\nd2-c2 c4-c6 d1-d9\n", True),
        ("d2-b2\n\nd2-c2 c4-c6\n", True),
        ("d2-b2\nhello\n", False),
        ("d2-b2\nd1-c1\n", False),  # (a move a line is as little a sign as one move is: two are needed below)
        ("1. e3-d3\na4-b4 2. d3-d2 *\n", False),  # (review79b: an lgn movetext, numbered, goes on below)
    ],
)
def test_a_first_game_of_one_move_above_a_move_list_begins_a_file_of_move_lists(text, lists):
    """h79c: a file whose first game was one move was read as lgn (one error, `no Game tag`, at 1:1, the later
    games' errors unsaid), in an editor and by `validate`: one move above a move list begins a file of them."""
    assert tafl.looks_like_move_lists(text) == lists


def test_a_line_of_move_numbers_and_words_that_end_a_game_alone_above_the_first_move_list_is_a_game():
    """`1. resigned` above the first move list is a game of no move, not prose (a sentence that holds
    them is)."""
    games = read_text("Hi Anna,\n1. resigned\n\nc5-c3 i6-f6\n", "tafl", "x.txt", {"Game": "tablut"})
    assert [(source.line, check(source).valid) for source in games] == [(2, True), (4, True)]


@pytest.mark.parametrize(
    "text, said, sniffed",
    [
        ("Hi Anna,\ne8–b8 d5-d6\n", [[("syntax", 2, 1, "e8–b8")]], "tafl"),  # a mistyped move is no prose (h79a: a
        # move list whose first move list holds one, a well-written move beside it, is a file of move lists)
        ("c5-c3 i6-f6\nHi Anna,\nd5-d3\n", [[], [("syntax", 2, 1, "Hi")], []], "tafl"),  # prose below a move list
        ("c5-c3 i6-f6\nCheers,\n", [[], [("syntax", 2, 1, "Cheers,")]], "tafl"),  # no blank line above it
        ("c5-c3 i6-f6\n\nd5-d3 Hi\n\nJon\n", [[], [("syntax", 3, 7, "Hi")]], "tafl"),  # a closing, a move above
        ("c5-c3 i6-f6\n\n" + "Cheers,\n" * 11, [[], *([("syntax", n, 1, "Cheers,")] for n in range(3, 14))], "tafl"),
        ("c5-c3 i6-f6\n\n1. resigned\n", [[], []], "tafl"),  # a game of no ply below the last
        ("c5-c3 i6-f6\n\ntimeout\n", [[], []], "tafl"),
        ("c5-c3 i6-f6\n\n1-0 on time\n", [[], [("syntax", 3, 1, "1-0")]], "tafl"),  # a result
        ("c5-c3 i6-f6\n\n½-½ agreed\n", [[], [("syntax", 3, 1, "½-½")]], "tafl"),  # a draw as a hand writes it
        ("c5-c3 i6-f6\n\nresign\n", [[], [("syntax", 3, 1, "resign")]], "tafl"),  # a slip of resigned
        ("c5-c3 i6-f6\n\n{a good game}\n", [[], [("syntax", 3, 1, "{a")]], "tafl"),  # a comment
        ("c5-c3 i6-f6\n\nel-dl\n", [[], [("syntax", 3, 1, "el-dl")]], "tafl"),  # a move, l for 1
        ("Hi Anna,\nround two\n", [[("syntax", 1, 1, "Hi")], [("syntax", 2, 1, "round two")]], None),  # prose alone
        (
            "".join(f"line {n} of prose\n" for n in range(1, 12)) + "c5-c3 i6-f6\n",
            [[("syntax", n, 1, "line")] for n in range(1, 12)] + [[]],
            None,
        ),
        ("Hi Anna,\n--\nc5-c3 i6-f6\n", [[("syntax", 1, 1, "Hi")], [("syntax", 2, 1, "--")], []], None),  # no prose
        ("Hi Anna,\nC5-C3 I6XF6\nc5-c3 i6-f6\n", [[("syntax", 2, 1, "C5-C3")], []], None),  # moves, mistyped
        ("c5-c3 i6-f6\n\n" + "Thanks!\n" * 11, [[], *[[("syntax", n, 1, "Thanks!")] for n in range(3, 14)]], "tafl"),
        ("c5-c3 i6-f6\n\nresigned\n", [[], []], "tafl"),  # a game of no move below, not a closing
        ("c5-c3 i6-f6\n\n1. Timeout\n", [[], []], "tafl"),
        ("c5-c3 i6-f6\n\n2. and so on\n", [[], [("syntax", 3, 4, "and")]], "tafl"),  # a move number
    ],
    ids=[
        "a mistyped move",
        "below a move list",
        "right below the last",
        "closing",
        "eleven closing lines",
        "a game of no ply below",
        "timeout below",
        "a result below",
        "a draw written ½-½ below",  # (h80b: _MOVE_LIST_MARK's ½-½)
        "resign below",
        "a comment below",
        "a move without digits below",
        "prose alone",
        "eleven lines of prose",
        "a dash line",
        "capitals",
        "eleven lines below",
        "resigned below",
        "timeout below",
        "a move number below",
    ],
)
def test_prose_is_read_as_moves_but_above_the_first_move_list_and_up_to_ten_lines(text, said, sniffed):
    """Only lines above the first that holds a move (written well or not), ten at most, or a blank
    line below the last, are prose (a word that ends a game or a move number is a move list's too:
    `resigned` alone below the games is a game; it was passed over as a closing):
    any other line is read as moves, its wrong word said at its place; a .txt file whose first
    line after the prose is no move list is not taken for move lists."""
    reports = [check(source) for source in read_text(text, "tafl", "x.txt", {"Game": "tablut"})]
    assert [[(d.rule, d.line, d.column, d.text) for d in r.diagnostics] for r in reports] == said
    assert format_of("x.txt", text) == sniffed
    assert format_of("x.txt", "Hi Anna,\n" * 10 + "c5-c3 i6-f6\n") == "tafl"


OVERRULED = (  # a header of the game's name alone
    "the header on line 1, '# {header}', names {header}: read as {game}, as {by} says"
    " (--game, then a file's name, win over a header)"
)


@pytest.mark.parametrize(
    "name, text, given, note",
    [
        ("brandubh.txt", "# copenhagen\nd2-b2 c4c5\n", {}, ("tafl", "copenhagen", "brandubh", "the file's name")),
        ("x.txt", "# brandubh\nd2-b2 c4c5\n", {"Game": "brandubh"}, None),
        (
            "x.txt",
            "# brandubh\nf4-f6 h4-h6\n",
            {"Game": "copenhagen"},
            ("tafl", "brandubh", "copenhagen", "--game"),
        ),
        (
            "x.txt",
            "# brandubh\nf4-f6 h4-h6\n",
            {"Game": "copenhagen", "Variant": "fetlar"},  # (--variant alone may name a game: the tags do not say)
            ("tafl", "brandubh", "copenhagen", "--game (or --variant)"),
        ),
        (
            "brandubh.csv",
            "# copenhagen\nd2-b2 c4c5,0,0,Ongoing\n",
            {},
            ("csv", "copenhagen", "brandubh", "the file's name"),
        ),
        (
            "brandubh.csv",
            "# round 2, copenhagen.csv\nd2-b2 c4c5,0,0,Ongoing\n",
            {},
            ("csv", "copenhagen", "brandubh", "the file's name"),
        ),
        ("brandubh.csv", "# brandubh\nd2-b2 c4c5,0,0,Ongoing\n", {}, None),
    ],
    ids=[
        "a name",
        "--game, the same",
        "--game",
        "--game and a variant",
        "a CSV file's name",
        "a CSV header of words",
        "a CSV name, the same",
    ],
)
def test_a_header_that_names_another_game_than_the_one_read_is_said(name, text, given, note):
    """`brandubh.txt` under `# copenhagen`, or `--game copenhagen` over `# brandubh`: the name (or
    --game) wins, as documented, and the header was passed over without a word; one note of the
    first game says it, naming both (and the first error of each game, where a wrong game shows)."""
    [source] = read_text(text, "csv" if name.endswith(".csv") else "tafl", name, given)
    report = check(source)
    if note is None:
        assert report.valid and report.record.main.comments == []
        return
    reader, named, game, by = note
    said = OVERRULED.format(header=named, game=game, by=by).replace(f"'# {named}'", repr(text.split("\n")[0]))
    assert report.record.tags["Game"] == game and report.record.main.comments[0] == f"{reader} reader: {said}"


@pytest.mark.parametrize("name, format", [("brandubh.csv", "csv"), ("brandubh-club.txt", "tafl")])
def test_a_files_name_that_names_another_game_than_game_gives_is_said(name, format):
    """Newcomer-53b: `import --game copenhagen` of a folder holding `brandubh.csv` stored its games as
    Copenhagen's, every one invalid, without a word (a header that names another game was said); the
    first game's note and the first error of each say it, and so the header's when it names a third."""
    [source] = read_text(
        "d2-b2 c4c5,0,0,Ongoing\n" if format == "csv" else "d2-b2 c4c5\n", format, name, {"Game": "copenhagen"}
    )
    report = check(source)
    said = "the file's name names brandubh: read as copenhagen, as --game says (--game wins over a file's name)"
    assert report.record.main.comments[0] == f"{format} reader: {said}" and report.diagnostics[0].message.endswith(
        f"; {said}"
    )
    [headed] = read_text("# tablut\nd2-b2 c4c5\n", "tafl", "brandubh.txt", {"Game": "copenhagen"})
    assert check(headed).record.main.comments[0] == (
        "tafl reader: the file's name names brandubh: read as copenhagen, as --game says; the header on line 1,"
        " '# tablut', names tablut: read as copenhagen, as --game says (--game, then a file's name, win over a header)"
    )
    [agreeing] = read_text("d2-b2 c4c5\n", "tafl", "copenhagen.txt", {"Game": "copenhagen"})
    assert check(agreeing).record.main.comments == []


def test_a_variant_given_alone_or_with_its_game_hands_the_reader_the_same_tags():
    """Why a header overruled while a variant was given says `--game (or --variant)`, not the option
    typed: a reader is handed the tags the options chose (a plug-in's too), and `--variant brandub`
    alone chooses those that `--game hnefatafl --variant brandub` does (docs/formats.md)."""
    chosen = {"Game": "hnefatafl", "Variant": "opentafl-brandub-7x7"}
    assert reading_tags({"Variant": "brandub"}) == reading_tags({"Game": "hnefatafl", "Variant": "brandub"}) == chosen


def test_a_header_below_blank_lines_overruled_is_said_at_its_line():
    """The note names the header's own line, blank lines above it counted."""
    [source] = read_text("\n\n# copenhagen\nd2-b2 c4c5\n", "tafl", "brandubh.txt", {})
    said = OVERRULED.format(header="copenhagen", game="brandubh", by="the file's name").replace("line 1", "line 3")
    assert check(source).record.main.comments == [f"tafl reader: {said}"]


def test_a_csv_file_of_column_names_alone_under_a_header_is_their_error():
    """No game is read from it, so no header is overruled: the names are the error (no internal error)."""
    [report] = [check(source) for source in read_text("# copenhagen\nfoo,bar,baz,qux\n", "csv", "x.csv", {})]
    assert [(d.rule, d.line, d.text) for d in report.diagnostics] == [("syntax", 2, "foo")]


def test_a_wrong_game_s_first_error_says_the_header_it_overruled():
    """Read under --game, a game of another board is invalid at its first ply: its error says the header."""
    text = "# brandubh\nd2-b2 c4c5\nd2-b2 c4c5\n"
    reports = [check(source) for source in read_text(text, "tafl", "x.txt", {"Game": "copenhagen"})]
    said = OVERRULED.format(header="brandubh", game="copenhagen", by="--game")
    assert [(r.diagnostics[0].rule, r.diagnostics[0].line, r.diagnostics[0].message) for r in reports] == [
        ("C3", line, f"there is no piece on d2; the rest of this line is not checked; {said}") for line in (2, 3)
    ]
    assert [r.record.main.comments for r in reports] == [[f"tafl reader: {said}"], []]  # one note, of the first


BRANDUBH_ROW = "d2-b2 c4c5 d1e1 c5-c1,0,0,Ongoing\n"


@pytest.mark.parametrize(
    "text, notes",
    [
        (
            "Hi Anna,\n\nhere are our games:\n\nmoves,defenders lost,attackers lost,status\n"
            + BRANDUBH_ROW
            + "\n-- \nSøren Holm\nclub secretary\n",
            [
                "csv reader: lines 1–3 hold no move (prose: an e-mail's greeting?): not read",
                "csv reader: the lines from line 8 on are an e-mail's signature (its '-- ' line and after): not read",
            ],
        ),
        (
            "# brandubh\nHi Anna,\n" + BRANDUBH_ROW + "--\nSøren\n",
            [
                "csv reader: line 2 holds no move (prose: an e-mail's greeting?): not read",
                "csv reader: the lines from line 4 on are an e-mail's signature (its '-- ' line and after): not read",
            ],
        ),
        (
            "# brandubh\n" + BRANDUBH_ROW + "\nCheers,\nSøren\n",
            ["csv reader: lines 4–5 hold no move (prose: an e-mail's closing?): not read"],
        ),
        (  # a signature's address and phone number hold digits: no row for all that
            "# brandubh\n" + BRANDUBH_ROW + "\nCheers,\nSøren\n-- \nStorgatan 5, 753 20 Uppsala\n+46 70 123 45 67\n",
            [
                "csv reader: lines 4–5 hold no move (prose: an e-mail's closing?): not read",
                "csv reader: the lines from line 6 on are an e-mail's signature (its '-- ' line and after): not read",
            ],
        ),
    ],
    ids=["above column names", "below a header", "a closing", "a signature of digits"],
)
def test_a_csv_file_pasted_from_an_e_mail_is_read_as_a_move_list_is(text, notes):
    """A CSV file pasted from an e-mail, a greeting above its rows, a closing and a signature below:
    each of those lines was an error ("a line of a CSV move list is moves,defenders lost,…"); they
    are passed over as a move list's are (the same `prose`, `closing` and `signature`), said in the
    notes of its game."""
    [source] = read_text(text, "csv", "brandubh.csv")
    report = check(source)
    assert (source.line, report.valid, report.record.main.comments) == (
        text.count("\n", 0, text.index("d2-b2")) + 1,
        True,
        notes,
    )


@pytest.mark.parametrize(
    "row", ["Ongoing,0,0,resigned", "Ongoing,0,0,White", "Ongoing,,,resigned", "Ongoing,0,resigned"]
)
@pytest.mark.parametrize("place", ["above", "below"])
def test_a_csv_row_of_no_move_is_an_error_not_an_e_mail_s_prose(row, place):
    """A row whose fields are mistyped or swapped holds no move, but a count or four fields: above the
    games or a blank line below them it is read, an error at its place, not passed over as a greeting
    or closing (it was, said in a note alone)."""
    text = f"{row}\n{BRANDUBH_ROW}" if place == "above" else f"{BRANDUBH_ROW}\n{row}\n"
    reports = [check(source) for source in read_text(text, "csv", "brandubh.csv")]
    assert [(r.diagnostics[0].rule, r.diagnostics[0].line) for r in reports if not r.valid] == [
        ("syntax", 1 if place == "above" else 3)
    ]
    assert not any("prose" in comment for r in reports if r.record for comment in r.record.main.comments)


def test_a_csv_row_of_no_move_below_a_signature_line_makes_it_no_signature():
    """A `--` line with a row after it (four fields, mistyped) is no e-mail's signature, as a `--` line
    with a move list after it is none: both are errors at their places."""
    reports = [
        check(source) for source in read_text(f"{BRANDUBH_ROW}--\nOngoing,0,0,resigned\n", "csv", "brandubh.csv")
    ]
    assert [(r.diagnostics[0].rule, r.diagnostics[0].line) for r in reports if not r.valid] == [
        ("syntax", 2),
        ("syntax", 3),
    ]


@pytest.mark.parametrize(
    "text, notes",
    [
        ("# round 2\nc5-c3 i6-f6\n", ["tafl reader: line 1, '# round 2', a header that names no game: not read"]),
        (
            "\n# round 2\nHi Anna,\nc5-c3 i6-f6\n",
            [
                "tafl reader: line 2, '# round 2', a header that names no game: not read",
                "tafl reader: line 3 holds no move (prose: an e-mail's greeting?): not read",
            ],
        ),
        (  # a header that names a game is read, but where --game names another (as here): said so
            "# brandubh, round 2\nc5-c3 i6-f6\n",
            [
                "tafl reader: the header on line 1, '# brandubh, round 2', names brandubh: read as tablut, as"
                " --game says (--game, then a file's name, win over a header)"
            ],
        ),
    ],
    ids=["a header", "a header and a line of prose", "a header naming a game"],
)
def test_a_header_that_names_no_game_is_said_in_a_note_as_prose_is(text, notes):
    """`# round 2` above move lists was passed over silently (`# brandubh` names the game: it is
    read); it is said in a note of the first game, as prose above it is."""
    [source] = read_text(text, "tafl", "x.txt", {"Game": "tablut"})
    assert check(source).record.main.comments == notes


@pytest.mark.parametrize(
    "name, text, players, said",
    [
        ("x.txt", "# brandubh, Anna Berg vs Jon Ruud\nd2-b2 c4c5\nd2-b2 c4c5\n", ("Anna Berg", "Jon Ruud"), False),
        ("brandubh.csv", "Hi Jon,\n# Anna vs. Jon, round 2\n" + BRANDUBH_ROW, ("Anna", "Jon"), False),
        ("brandubh.txt", "# round 2, Anna versus Jon\nd2-b2 c4c5\n", (None, None), True),  # no `vs`: no players
        ("x.txt", "# brandubh, Åsa Ødegård vs Jürgen Müller\nd2-b2 c4c5\n", ("Åsa Ødegård", "Jürgen Müller"), False),
        ("brandubh.txt", "# 9x9 vs 7x7\nd2-b2 c4c5\n", (None, None), True),  # boards, no names
        ("brandubh.txt", "# brandubh vs tablut\nd2-b2 c4c5\n", (None, None), False),  # games, no players
        ("brandubh.txt", "# round 2: Anna Berg vs Jon Ruud\nd2-b2 c4c5\n", ("Anna Berg", "Jon Ruud"), False),
    ],
    ids=["a move list", "a CSV file below a greeting", "no vs", "unicode names", "boards", "games", "a title"],
)
def test_a_header_s_white_vs_black_names_the_players_of_the_file_s_games(tmp_path, name, text, players, said):
    """Move lists and CSV files could not carry player names: a part of their header (between commas)
    `WHITE vs BLACK`, as a Tablut Challenge log's `Players:` line orders them, names them, White and
    Black tags of each game (validate --json's white and black, the archive's players); such a
    header is read, so no note calls it a header that names no game."""
    (tmp_path / name).write_text(text)
    verdicts = [json.loads(line) for line in run("validate", "--json", tmp_path / name).stdout.splitlines()]
    assert [(v["white"], v["black"]) for v in verdicts] == [players] * text.count("d2-b2")
    [comments, *_] = [check(source).record.main.comments for source in read_sources(str(tmp_path / name))]
    assert any("a header that names no game" in note for note in comments) == said


def test_a_games_players_not_named_are_null_before_and_after_it_is_converted_to_lgn(tmp_path):
    """A CSV game names no players: validate --json said null, and of the same game converted to lgn, whose
    writer writes `[White "?"]` (PGN's unknown), said "?" (h69a). `?` is no player named: null both times."""
    (tmp_path / "b.csv").write_text(BRANDUBH_ROW)
    lgn = run("convert", "--to", "lgn", "--game", "brandubh", tmp_path / "b.csv").stdout
    assert '[White "?"]' in lgn
    for args in (("--game", "brandubh", tmp_path / "b.csv"), ("-",)):
        [verdict] = [json.loads(line) for line in run("validate", "--json", *args, input=lgn).stdout.splitlines()]
        assert (verdict["white"], verdict["black"]) == (None, None)
    assert check('[Game "tablut"]\n[White "?"]\n[Black "Anna"]\n*\n').players == (None, "Anna")
    assert check('[Game "tablut"]\n[White "Jon"]\n[Black "?"]\n*\n').players == ("Jon", None)


COMMA_NOTE = (
    "{reader} reader: line {line}, '{header}' names the players {white} (White) and {black} (Black), read between "
    "the commas around 'vs'; {unread} beside them {are} not read (a name holds no comma: write a name whole, "
    "'Anna Berg vs Jon Ruud')"
)


def comma_case(reader, header, players, unread):
    """A case of a header whose words beside its players (`unread`) a note says are not read (COMMA_NOTE)."""
    text = header + "\n" + ("d2-b2 c4c5\n" if reader == "tafl" else BRANDUBH_ROW)
    words = " and ".join(f"'{word}'" for word in unread)
    said = COMMA_NOTE.format(
        reader=reader,
        line=1,
        header=header,
        white=players[0],
        black=players[1],
        unread=words,
        are="are" if unread[1:] else "is",
    )
    return (reader, text, players, [said])


@pytest.mark.parametrize(
    "format, text, players, notes",
    [
        (
            "tafl",
            "# brandubh, attackers vs defenders\nd2-b2 c4c5\n",
            (None, None),
            ["tafl reader: line 1, 'attackers vs defenders' names the sides, not players: no White or Black tag"],
        ),
        (
            "csv",
            "Hi Jon,\n# brandubh, the Swedes vs Muscovites\n" + BRANDUBH_ROW,
            (None, None),
            [
                "csv reader: line 1 holds no move (prose: an e-mail's greeting?): not read",
                "csv reader: line 2, 'the Swedes vs Muscovites' names the sides, not players: no White or Black tag",
            ],
        ),
        comma_case("tafl", "# brandubh, Berg, Anna vs Ruud, Jon", ("Anna", "Ruud"), ["Berg", "Jon"]),
        comma_case("csv", "# Berg, Anna vs Jon Ruud, brandubh", ("Anna", "Jon Ruud"), ["Berg"]),
        ("tafl", "# brandubh, Anna Berg vs Jon Ruud, final\nd2-b2 c4c5\n", ("Anna Berg", "Jon Ruud"), []),
        ("tafl", "# Brandubh, Anna White vs Jon Black\nd2-b2 c4c5\n", ("Anna White", "Jon Black"), []),
        ("tafl", "# brandubh, Red vs Black\nd2-b2 c4c5\n", ("Red", "Black"), []),
        comma_case("tafl", "# brandubh, Anna vs Ruud, Jon", ("Anna", "Ruud"), ["Jon"]),
        comma_case("tafl", "# brandubh, Jon, Oslo vs Anna, Bergen", ("Oslo", "Anna"), ["Jon", "Bergen"]),
        (
            "tafl",
            "# brandubh, Anna - Jon\nd2-b2 c4c5\n",
            (None, None),
            [
                "tafl reader: line 1, 'Anna - Jon' names no players: a header names them WHITE vs BLACK (if Anna and"
                " Jon are the players, write 'Anna vs Jon', White first): no White or Black tag"
            ],
        ),
        (
            "csv",
            "# brandubh, round 2: Anna Berg – Jon Ruud\n" + BRANDUBH_ROW,
            (None, None),
            [
                "csv reader: line 1, 'round 2: Anna Berg – Jon Ruud' names no players: a header names them WHITE vs"
                " BLACK (if Anna Berg and Jon Ruud are the players, write 'Anna Berg vs Jon Ruud', White first): no"
                " White or Black tag"
            ],
        ),
        (
            "tafl",
            "# brandubh, Anna — Jon\nd2-b2 c4c5\n",
            (None, None),
            [
                "tafl reader: line 1, 'Anna — Jon' names no players: a header names them WHITE vs BLACK (if Anna and"
                " Jon are the players, write 'Anna vs Jon', White first): no White or Black tag"
            ],
        ),
        ("tafl", "# brandubh - club night\nd2-b2 c4c5\n", (None, None), []),
        ("tafl", "# brandubh, attackers - defenders\nd2-b2 c4c5\n", (None, None), []),
        ("tafl", "# brandubh, Anna vs Jon, Oslo - Bergen\nd2-b2 c4c5\n", ("Anna", "Jon"), []),
        ("tafl", "# brandubh, Anna Berg vs Jon Ruud, Club Games\nd2-b2 c4c5\n", ("Anna Berg", "Jon Ruud"), []),
    ],
    ids=[
        "sides",
        "a CSV file's sides",
        "last names first",
        "a CSV file's",
        "a word after",
        "names of colours",
        "one side's name",
        "a first name after",
        "towns after the first names",
        "a dash",
        "a CSV file's dash after a title",
        "an em dash",  # (h80b: each of _DASHED's dashes)
        "a game and a dash",
        "the sides and a dash",
        "vs, and a dash elsewhere",
        "two words after",
    ],
)
def test_a_header_s_players_that_may_not_be_those_meant_are_said_in_a_note(format, text, players, notes):
    """`attackers vs defenders` named the players 'attackers' and 'defenders', and `Berg, Anna vs Ruud,
    Jon` the players Anna and Ruud, silently: the sides are no players (no White or Black tag, a note
    says so), and names beside a part of one name-like word (a last name before a comma, a town after
    one) are read as written, a note at the header's line saying what was read and what not, claiming
    no order of names. `Anna - Jon` names no players (a dash separates much else), said with how to
    write them."""
    [source] = read_text(text, format, "brandubh." + ("txt" if format == "tafl" else "csv"))
    record = check(source).record
    assert (record.tags.get("White"), record.tags.get("Black"), record.main.comments) == (*players, notes)


GREETED = "tafl reader: line 1 holds no move (prose: an e-mail's greeting?): not read"


@pytest.mark.parametrize("format, row", [("tafl", "d2-b2 c4c5\n"), ("csv", BRANDUBH_ROW)])
def test_the_greeting_above_a_header_is_the_first_game_s_note_alone(format, row):
    """`Hi Jon,` above `# brandubh` and two games: the first game says the greeting, the second nothing."""
    sources = read_text("Hi Jon,\n\n# brandubh\n" + row * 2, format, f"x.{format}")
    assert [check(source).record.main.comments for source in sources] == [[GREETED.replace("tafl", format)], []]


@pytest.mark.parametrize(
    "format, name, text, notes",
    [
        ("tafl", "x.txt", "Hi Jon,\n\n# brandubh\nd2-b2\n", [GREETED]),
        ("csv", "x.csv", "Hi Jon,\n\n# brandubh\n" + BRANDUBH_ROW, [GREETED.replace("tafl", "csv")]),
        (
            "csv",
            "brandubh.csv",
            "# our club's games\n" + BRANDUBH_ROW,
            ['csv reader: line 1, "# our club\'s games", a header that names no game: not read'],
        ),
        (
            "tafl",
            "brandubh.txt",
            "Hi Jon,\n# round 2\nhere it is:\n\nd2-b2 c4c5\n",
            [
                GREETED,
                "tafl reader: line 2, '# round 2', a header that names no game: not read",
                "tafl reader: line 3 holds no move (prose: an e-mail's greeting?): not read",
            ],
        ),
        (
            "csv",
            "brandubh.csv",
            "Hi Jon,\n# round 2\nhere it is:\n\n" + BRANDUBH_ROW,
            [
                GREETED.replace("tafl", "csv"),
                "csv reader: line 2, '# round 2', a header that names no game: not read",
                "csv reader: line 3 holds no move (prose: an e-mail's greeting?): not read",
            ],
        ),
    ],
    ids=["a move list", "a CSV file", "a CSV header of no game", "prose around a header", "a CSV's prose around it"],
)
def test_a_header_below_a_greeting_is_read_and_what_is_passed_over_said(tmp_path, format, name, text, notes):
    """An e-mail's `Hi Jon,` above `# brandubh`: the header was taken for prose, so the game was not
    named (a folder skipped the move list of one move; a CSV file's game could not be told by its
    board). A header line is never prose: it names the game, and the prose above it, and a header that
    names no game (a CSV file's was passed over without a word), are said in notes, in order."""
    (tmp_path / name).write_text(text)
    checked = run("validate", tmp_path)
    assert (checked.exit_code, checked.output) == (0, "1 record: 1 valid, 0 invalid (0 errors, 0 warnings)\n")
    [source] = read_text(text, format, name)
    report = check(source)
    assert (report.record.tags["Game"], report.record.main.comments) == ("brandubh", notes)
    assert format_of(name, text) == format


@pytest.mark.parametrize("format, row", [("tafl", "d2-b2\n"), ("csv", BRANDUBH_ROW)])
def test_the_notes_of_a_header_overruled_between_greetings_are_in_the_order_of_their_lines(format, row):
    """A header overruled (here by the file's name) between an e-mail's greetings: the notes follow
    the lines (the CSV reader said the header last, the move lists' reader first)."""
    header = "'# brandubh, Berg, Anna vs Ruud, Jon'"
    text = f"Hi Jon,\n\n{header[1:-1]}\nhere it is:\n\n{row}"
    [source] = read_text(text, format, f"copenhagen.{'txt' if format == 'tafl' else format}")
    assert check(source).record.main.comments == [
        f"{format} reader: line 1 holds no move (prose: an e-mail's greeting?): not read",
        f"{format} reader: the header on line 3, {header}, names brandubh: read as copenhagen, as the file's name"
        " says (--game, then a file's name, win over a header)",
        f"{format} reader: line 3, {header} names the players Anna (White) and Ruud (Black), read between the"
        " commas around 'vs'; 'Berg' and 'Jon' beside them are not read (a name holds no comma: write a name whole,"
        " 'Anna Berg vs Jon Ruud')",
        f"{format} reader: line 4 holds no move (prose: an e-mail's greeting?): not read",
    ]


@pytest.mark.parametrize("format, row", [("tafl", "d2-b2 c4c5\n"), ("csv", BRANDUBH_ROW)])
def test_a_parsed_record_gives_its_notes_of_lines_not_read_to_api_users_and_says_them_once(tmp_path, format, row):
    """A move list's or CSV row's record that parses: `records` gives its RecordText the notes of the
    lines not read (an e-mail's greeting and closing), as a record that does not parse has them; its
    record holds each once, and `validate` of a valid record says none."""
    path = tmp_path / f"games.{'txt' if format == 'tafl' else format}"
    path.write_text(f"Hi Jon,\n\n# brandubh\n{row}\nCheers,\nAnna\n")
    [source] = records([str(path)])
    notes = (
        f"{format} reader: line 1 holds no move (prose: an e-mail's greeting?): not read",
        f"{format} reader: lines 6–7 hold no move (prose: an e-mail's closing?): not read",
    )
    assert (source.notes, check(source).record.main.comments) == (notes, list(notes))
    checked = run("validate", path)
    assert (checked.exit_code, checked.output) == (0, "1 record: 1 valid, 0 invalid (0 errors, 0 warnings)\n")


@pytest.mark.parametrize("format, row", [("tafl", "d2-b2 c4c5\n"), ("csv", BRANDUBH_ROW)])
def test_a_header_s_players_are_read_once_per_file_not_once_per_game(monkeypatch, format, row):
    """`# brandubh, Anna vs Jon` above three games: each game has its players, read from the header
    once (they were read again for every game: some 2,000 times for a club's CSV file)."""
    read = []
    monkeypatch.setattr(tafl, "_players", lambda header: read.append(header) or {"White": "Anna", "Black": "Jon"})
    games = [check(source).record.tags for source in read_text("# brandubh, Anna vs Jon\n" + row * 3, format, "x")]
    assert ([(tags["White"], tags["Black"]) for tags in games], read) == (
        [("Anna", "Jon")] * 3,
        ["# brandubh, Anna vs Jon"],
    )


@pytest.mark.parametrize("format, row", [("tafl", "d2-b2 c4c5\n"), ("csv", BRANDUBH_ROW)])
def test_a_header_of_no_game_naming_the_sides_is_said_once_not_read(format, row):
    """`# round 2, White vs Black` names no game and no players: the one note says it is not read,
    not that its sides are no players as well."""
    [source] = read_text("# round 2, White vs Black\n" + row, format, f"brandubh.{format}")
    record = check(source).record
    assert ("White" in record.tags, record.main.comments) == (
        False,
        [f"{format} reader: line 1, '# round 2, White vs Black', a header that names no game: not read"],
    )


@pytest.mark.parametrize("format, row", [("tafl", "d2-b2 c4c5\n"), ("csv", BRANDUBH_ROW)])
def test_a_greeting_that_holds_a_date_is_prose_above_a_header(format, row):
    """`Tuesday, 1. December` above `# brandubh, Anna vs Jon`: its digit was taken for a CSV row's count,
    so the greeting ended there, and the header, unread, was said as prose with it (the game read as
    the default's, with no players). A count is a field between delimiters (`White,0,0`)."""
    text = f"Dear members,\n\nTuesday, 1. December: the ladder.\n\n# brandubh, Anna vs Jon\n\n{row}"
    [source] = read_text(text, format, f"x.{'txt' if format == 'tafl' else format}")
    record = check(source).record
    assert (record.tags["Game"], record.tags["White"], record.tags["Black"], record.main.comments) == (
        "brandubh",
        "Anna",
        "Jon",
        [f"{format} reader: lines 1–3 hold no move (prose: an e-mail's greeting?): not read"],
    )


@pytest.mark.parametrize("format, row", [("tafl", "d2-b2 c4c5\n"), ("csv", BRANDUBH_ROW)])
@pytest.mark.parametrize(
    "above, notes",
    [
        ("Game 1\n", ["line 1, 'Game 1', its title: not read"]),
        (
            "Hi Jon,\nRound two:\n",
            [
                "line 1 holds no move (prose: an e-mail's greeting?): not read",
                "line 2, 'Round two:', its title: not read",
            ],
        ),
    ],
    ids=["alone", "below a greeting"],
)
def test_a_title_right_above_a_header_is_the_first_game_s_title_not_a_greeting(format, row, above, notes):
    """`Game 1` above `# brandubh` and the moves: it was said as an e-mail's greeting (with the lines of
    prose above it), where the same title below the header is the first game's title: it is so above
    the header too, and said as such, the prose above it a greeting still (in the first game's notes alone)."""
    sources = read_text(f"{above}# brandubh\n{row}{row}", format, f"x.{'txt' if format == 'tafl' else format}")
    reports = [check(source) for source in sources]
    said = [f"{format} reader: {note}" for note in notes]
    assert [(r.valid, r.record.tags["Game"], r.record.main.comments) for r in reports] == [
        (True, "brandubh", said),
        (True, "brandubh", []),
    ]


@pytest.mark.parametrize("format, row", [("tafl", "d2-b2 c4c5\n"), ("csv", BRANDUBH_ROW)])
@pytest.mark.parametrize("year", ["2026", " 1987 \r"])
def test_a_year_alone_above_a_header_is_prose_and_the_header_read(format, row, year):
    """A lone `2026` above `# brandubh` was neither prose (no word) nor a game: the header below it was
    not read (the move list read as Tablut's, the CSV rows' game told by their board, the header said
    as an error of its own). A year alone is prose, said as such; the header names the game."""
    name = f"x.{'txt' if format == 'tafl' else format}"
    [source] = read_text(f"{year}\n# brandubh\n{row}", format, name)
    report = check(source)
    assert (report.valid, report.record.tags["Game"], report.record.main.comments) == (
        True,
        "brandubh",
        [f"{format} reader: line 1 holds no move (prose: an e-mail's greeting?): not read"],
    )


@pytest.mark.parametrize("number", ["123", "20261"])
def test_a_number_alone_of_other_digits_than_a_year_s_above_a_header_is_no_prose(number):
    """Only four digits alone are a year, prose above the games: `123` or `20261` above `# brandubh` is
    read at its place, as `12` is, not passed over with the header below it read."""
    sources = list(read_text(f"{number}\n# brandubh\nd2-b2 c4c5\n", "tafl", "x.txt"))
    assert [(source.line, source.text, source.notes) for source in sources[:1]] == [(1, f"{number}\n", ())]


def test_a_year_alone_below_the_last_move_list_is_a_line_of_its_closing():
    """`Cheers,`, a name and the year below the last game, a blank line apart, are its closing, a year
    alone being prose below the games as above them (were it none, each of the three lines
    would be read as a game of its own)."""
    [source] = read_text("# brandubh\nd2-b2 c4c5\n\nCheers,\nJon\n2026\n", "tafl", "x.txt")
    assert (source.text, source.notes) == (
        "d2-b2 c4c5\n",
        ("tafl reader: lines 4–6 hold no move (prose: an e-mail's closing?): not read",),
    )


def test_a_year_alone_above_a_move_list_lets_its_txt_file_be_read_as_move_lists(tmp_path):
    """A `.txt` file of a year above `# brandubh` and its moves was read as lgn (not a record in any
    format) when named, and skipped in a folder; a number alone is no CSV row's count, nor is a
    number of other digits than a year's prose (`12`, above the moves: still no move list)."""
    (tmp_path / "year.txt").write_text("2026\n# brandubh\nd2-b2 c4c5\n")
    (tmp_path / "twelve.txt").write_text("12\n# brandubh\nd2-b2 c4c5\n")
    checked = run("validate", tmp_path)
    assert (checked.exit_code, checked.output) == (
        0,
        f"lusoria: {tmp_path / 'twelve.txt'}: skipped, a .txt file that is neither tafl move lists nor a Tablut "
        "Challenge game log\n1 record: 1 valid, 0 invalid (0 errors, 0 warnings); 1 file or folder skipped "
        "(each said with why)\n",
    )
    [named] = api.validate([str(tmp_path / "year.txt")])
    assert (named.source.format, named.valid) == ("tafl", True)


@pytest.mark.parametrize("lost", ["White,0,0", "0,White", "White;0"], ids=["between", "first", "last"])
def test_a_csv_row_without_moves_above_a_header_is_said_at_its_place_not_passed_over_as_a_greeting(lost):
    """A CSV row that lost its moves (`White,0,0`) above a `# brandubh` line holds no move, but counts,
    between its delimiters, first or last: no e-mail's greeting (`_holds_header_or_game`), which would
    be passed over in a note with the header below read; it is the first game, an error at its place,
    and the game below it is read."""
    text = f"{lost}\n# brandubh\n" + BRANDUBH_ROW
    first, second = (check(source) for source in read_text(text, "csv", "x.csv", {"Game": "brandubh"}))
    said = [(d.rule, d.line, d.column, d.message) for d in first.diagnostics]
    assert (first.record, said) == (
        None,
        [("syntax", 1, 1, "a line of a CSV move list is moves,defenders lost,attackers lost,status")],
    )
    assert (second.record.line, second.record.main.comments) == (3, [])


@pytest.mark.parametrize(
    "line, holds",
    [
        ("White,0,0", True),
        ("0;White", True),
        ("White\t 0 \t", True),  # a tab, blanks, the count, the line's end
        (" 2 ,x", True),
        ("Tuesday, 1. December", False),  # a number among words
        ("2026", False),  # a number alone
        ("x,0\r", False),  # a carriage return ends no field
        ("x,5a,y", False),
        ("Hi" + "\t \t," * 4000, False),  # runs of delimiters and blanks, no count
    ],
)
def test_a_count_beside_another_field_is_told_from_prose_in_time_linear_in_the_line(line, holds):
    """A line above a header holds a count when a field between its delimiters is one
    (`_holds_header_or_game`); the pattern that said so took a delimiter's blanks after it, and was
    tried again from each tab of a run: 8,000 tabs took 3 s, a megabyte hours. Eight times the line
    takes no more than twenty times as long."""
    assert tafl._holds_count(line) == holds
    times = []
    for size in (1000, 8000):
        start = time.process_time()
        tafl._holds_count("Hi" + "\t" * size)
        times.append(max(time.process_time() - start, 1e-3))
    assert times[1] / times[0] < 20


@pytest.mark.parametrize(
    "text, cut",
    [
        ("d2-b2 c4c5,0,0,Ongoing\nd2-b2 c4", True),  # a download stopped inside a row
        ("d2-b2 c4c5,0,0,Ongoing\nd2-b2 c4,0\r", False),  # a line break: the row ends there
        ("d2-b2 c4\nd2-b2 c4c5,0,0,Ongoing", False),  # the short row is not the file's last
        ("d2-b2 c4c5,0,0,Ongoing\nd2-b2 c4,0,0,Ongoing,5", False),  # more fields, not fewer
    ],
)
def test_a_csv_file_cut_inside_its_last_row_asks_if_it_was_cut_short(text, cut):
    """A CSV file whose download stopped inside a row was said to hold a line of no CSV game, as any
    mistyped line is: its last row short of fields, with no line break after it, asks if it was cut
    short, as a scrape's broken JSON does."""
    reports = [check(source) for source in read_text(text, "csv", "brandubh.csv")]
    [(rule, message)] = [(d.rule, d.message) for r in reports for d in r.diagnostics]
    said = "a line of a CSV move list is moves,defenders lost,attackers lost,status"
    assert (rule, message) == (
        "syntax",
        said + "; the file ends inside this line, with no line break (cut short?)" * cut,
    )


LGN_GAME = '[Game "tablut"]\n[Variant "aage"]\n\n1. e8-b8 d5-d6 *\n'


TITLE = "found '{}', a game's title: a file of move lists holds the moves alone (were its moves left out?)"
CSV_LINE = "a line of a CSV move list is moves,defenders lost,attackers lost,status"


@pytest.mark.parametrize(
    "format, text, said, message",
    [
        ("tafl", "d2-b2 c4c5\n\nGame 2\n", [[], [("syntax", 3, 1, "Game 2")]], TITLE.format("Game 2")),
        (
            "tafl",
            "d2-b2 c4c5\n\nRound two:\n\nCheers,\nJon\n",
            [[], [("syntax", 3, 1, "Round two:")]],
            TITLE.format("Round two:"),
        ),
        ("csv", BRANDUBH_ROW + "\nRound two\n", [[], [("syntax", 3, 1, "Round two")]], None),
        ("lgn", LGN_GAME + "\nRound two\n", [[("syntax", 6, 1, "Round")]], None),
        # h78c: indented, said at its first word (was at the line's start)
        ("tafl", "d2-b2 c4c5\n\n  Game 2\n", [[], [("syntax", 3, 3, "Game 2")]], TITLE.format("Game 2")),
    ],
    ids=["a move list", "above a closing", "a CSV file", "an lgn record", "indented"],
)
def test_a_game_s_title_below_the_last_game_is_read_at_its_line_not_passed_over(format, text, said, message):
    """`Game 2` a blank line below the last game (a second game's title pasted, its moves forgotten) was
    passed over as an e-mail's closing, said in a note alone: a line of a word or two and a number is
    no closing line, so it is read, an error at its place (a move list's says it is a title)."""
    read = read_sources(text) if format == "lgn" else read_text(text, format, f"brandubh.{format}")
    reports = [check(source) for source in read]
    assert [[(d.rule, d.line, d.column, d.text) for d in r.diagnostics] for r in reports] == said
    assert reports[-1].diagnostics[0].message.startswith(message or "")


@pytest.mark.parametrize(
    "format, text, message",
    [
        ("tafl", "d2-b2 c4c5\n\nCheers, Jon\n\nGame 2\n", TITLE.format("Game 2")),
        ("csv", BRANDUBH_ROW + "\nCheers, Jon\n\nRound two\n", CSV_LINE),
    ],
    ids=["a move list", "a CSV file"],
)
def test_a_title_below_a_closing_at_the_end_is_the_one_error_the_closing_a_note(format, text, message):
    """`Cheers, Jon`, then `Game 2` heading its own lines at the very end: the title kept the sign-off
    above it from being a closing, so each was an error; the title is the one error (its moves left
    out), the sign-off the note of a closing, said after it."""
    reports = [check(source) for source in read_text(text, format, f"brandubh.{format}")]
    closing = f"{format} reader: line 3 holds no move (prose: an e-mail's closing?): not read"
    said = [[(d.rule, d.line, d.column, d.message) for d in report.diagnostics] for report in reports]
    assert said == [[], [("syntax", 5, 1, f"{message}; {closing}")]]


def test_the_first_games_title_below_a_greeting_keeps_the_title_below_the_closing_at_the_end():
    """Both ends at once: `Game 1` below a greeting is the first game's title, and `Game 2` below the closing at
    the very end still the one error (h80b: the games' second span, below the closing, was dropped unseen when
    the first game's title moved the first span, `pasted.spans[1:]` made `[2:]`)."""
    text = "Hi Anna,\nGame 1\nd2-b2 c4c5\n\nCheers, Jon\n\nGame 2\n"
    first, last = [check(source) for source in read_text(text, "tafl", "brandubh.txt")]
    assert first.valid and first.record.main.comments == [
        "tafl reader: line 1 holds no move (prose: an e-mail's greeting?): not read",
        "tafl reader: line 2, 'Game 1', its title: not read",
    ]
    closing = "tafl reader: line 5 holds no move (prose: an e-mail's closing?): not read"
    assert [(d.rule, d.line, d.column, d.message) for d in last.diagnostics] == [
        ("syntax", 7, 1, f"{TITLE.format('Game 2')}; {closing}")
    ]


@pytest.mark.parametrize(
    "text, line",
    [
        ("d2-b2 c4c5\n\nGame 2\nd2-b2 c4c5\n", 3),
        ("1. d2-b2 c4c5\n\nRound two:\n1. d2-b2 c4c5\n", 3),
        ("d2-b2 c4c5\nRound two:\nd2-b2 c4c5\n", 2),
        ("d2-b2 c4c5\n\nGame 2\n\nd2-b2 c4c5\n", 3),
    ],
    ids=["after a blank line", "numbered moves", "right below a game", "a blank line below it"],
)
def test_a_game_s_title_above_its_moves_is_its_title_not_a_game(text, line):
    """`Game 2` with its moves below it, blank lines between or not, was an error asking whether its
    moves were left out when a blank line stood between: they are there, so the title is that game's,
    noted, and its moves read as the next game."""
    reports = [check(source) for source in read_text(text, "tafl", "brandubh.txt")]
    title = text.splitlines()[line - 1]
    assert [(r.valid, r.record.main.comments) for r in reports] == [
        (True, []),
        (True, [f"tafl reader: line {line}, '{title}', its title: not read"]),
    ]
    assert reports[1].record.line == len(text.rstrip().splitlines())


@pytest.mark.parametrize(
    "text, notes",
    [
        ("Game 1\nd2-b2 c4c5\n", ["line 1, 'Game 1', its title: not read"]),
        ("Round one:\n\nd2-b2 c4c5\n", ["line 1, 'Round one:', its title: not read"]),
        (
            "Hi Anna,\nhere they are:\n\nGame 1\nd2-b2 c4c5\n",
            [
                "lines 1–2 hold no move (prose: an e-mail's greeting?): not read",
                "line 4, 'Game 1', its title: not read",
            ],
        ),
        ("Game 1 was quick:\nd2-b2 c4c5\n", ["line 1 holds no move (prose: an e-mail's greeting?): not read"]),
    ],
    ids=["alone", "a blank line below it", "below a greeting", "a sentence"],
)
def test_the_first_game_s_title_is_said_as_its_title_as_the_next_games_are(text, notes):
    """`Game 1` above the first move list was said as an e-mail's greeting, `Game 2` above the second
    as its title: the first is a title too, the prose above it a greeting still (a sentence that holds
    a game's number is prose)."""
    [report] = [check(source) for source in read_text(text, "tafl", "brandubh.txt")]
    assert (report.valid, report.record.main.comments) == (True, [f"tafl reader: {note}" for note in notes])


def test_a_title_below_a_title_is_a_game_whose_moves_were_left_out_and_notes_keep_their_lines_order():
    """`Game 2`, a blank line, `Game 3` and its moves: `Game 2` is the error of a title alone, `Game 3`
    the title of the moves below it; the last game's notes say its title, then the closing below it."""
    text = "d2-b2 c4c5\n\nGame 2\n\nGame 3\nd2-b2 c4c5\n\nCheers,\nJon\n"
    reports = [check(source) for source in read_text(text, "tafl", "brandubh.txt")]
    said = [[(d.line, d.column, d.message) for d in report.diagnostics] for report in reports]
    assert said == [[], [(3, 1, TITLE.format("Game 2"))], []]
    assert reports[2].record.main.comments == [
        "tafl reader: line 5, 'Game 3', its title: not read",
        "tafl reader: lines 8–9 hold no move (prose: an e-mail's closing?): not read",
    ]


@pytest.mark.parametrize(
    "text, lines, notes",
    [
        ("Game 1\n\nGame 2\n\nd2-b2 c4c5\n", (1, 3), []),
        (
            "Hi Anna,\r\n\r\nGame 1\r\nGame 2\r\nd2-b2 c4c5\r\n",
            (3, 4),
            ["line 1 holds no move (prose: an e-mail's greeting?): not read"],
        ),
    ],
    ids=["alone", "below a greeting, \\r\\n"],
)
def test_a_title_below_a_title_above_the_first_game_is_a_game_whose_moves_were_left_out(text, lines, notes):
    """`Game 1` above `Game 2` and its moves was an e-mail's greeting, the file valid: it is the error
    of a title alone, as below a game (its moves left out?), the prose above it a note of that error."""
    first, second = [check(source) for source in read_text(text, "tafl", "brandubh.txt")]
    assert [(d.line, d.column, d.message) for d in first.diagnostics] == [
        (lines[0], 1, "; ".join([TITLE.format("Game 1"), *(f"tafl reader: {note}" for note in notes)]))
    ]
    assert (second.valid, second.record.main.comments) == (
        True,
        [f"tafl reader: line {lines[1]}, 'Game 2', its title: not read"],
    )


@pytest.mark.parametrize(
    "closing, lines",
    [("Cheers,\nJon Ruud\nStorgata 12\n", "lines 3–5 hold"), ("Merry Christmas 2026\n", "line 3 holds")],
    ids=["an address below a name", "a year"],
)
def test_a_closing_that_ends_in_a_number_is_no_game_s_title(closing, lines):
    """A title heads lines of its own (a blank line above it) and numbers a game: an e-mail's address
    below its name (`Storgata 12`) or a year (`Merry Christmas 2026`) is its closing, passed over with a
    note (they were each an error, and every line of prose above them too)."""
    [source] = read_text("d2-b2 c4c5\n\n" + closing, "tafl", "brandubh.txt")
    report = check(source)
    assert (report.diagnostics, report.record.main.comments) == (
        [],
        [f"tafl reader: {lines} no move (prose: an e-mail's closing?): not read"],
    )


def test_an_lgn_file_pasted_from_an_e_mail_is_read_up_to_its_signature_as_a_move_list_is(tmp_path):
    """A signature below the last record's result marker was an error ("found '--' after the result
    marker, which ends the record"): the lgn reader reads up to it and notes it, in the words of the
    move-list reader (the one `signature` of both). A `--` line with a record after it is still an error
    at its place, and one before the result marker a pass."""
    (tmp_path / "round1.lgn").write_text(LGN_GAME + LGN_GAME + "\n-- \nAnna Berg\nclub secretary\n")
    checked = run("validate", tmp_path / "round1.lgn")
    assert (checked.exit_code, checked.output) == (0, "2 records: 2 valid, 0 invalid (0 errors, 0 warnings)\n")
    first, last = reports_of(tmp_path / "round1.lgn")
    assert first.record.main.comments == []
    assert last.record.main.comments == [
        "lgn reader: the lines from line 10 on are an e-mail's signature (its '-- ' line and after): not read"
    ]
    formatted = run("fmt", tmp_path / "round1.lgn").stdout
    assert formatted.endswith("1. e8-b8 d5-d6 *\n\n-- \nAnna Berg\nclub secretary\n") and "lgn reader" not in formatted
    (tmp_path / "between.lgn").write_text(LGN_GAME + "--\nAnna\n" + LGN_GAME)
    (tmp_path / "unended.lgn").write_text(LGN_GAME.replace(" *", "") + "-- \nAnna\n")
    said = [[(d.rule, d.line, d.column, d.text) for d in r.diagnostics] for r in reports_of(tmp_path / "between.lgn")]
    assert said == [[("syntax", 5, 1, "--")], []]
    [unended] = reports_of(tmp_path / "unended.lgn")
    assert [(d.rule, d.line, d.column, d.text) for d in unended.diagnostics] == [
        ("syntax", 6, 1, "Anna"),
        ("T9", 5, 1, "--"),  # before a result marker, `--` is lgn's pass
    ]


CLOSED = "lgn reader: lines 6–7 hold no move (prose: an e-mail's closing?): not read"
LONG_CLOSING = CLOSED.replace("6–7", "6–15")  # more than CLOSING_WINDOW's least, read all the same


@pytest.mark.parametrize(
    "below, said, notes",
    [
        ("\nCheers,\nJon\n", [], [CLOSED]),
        (
            "\nCheers,\nJon\n-- \nclub\n",
            [],
            [
                CLOSED,
                "lgn reader: the lines from line 8 on are an e-mail's signature (its '-- ' line and after): not read",
            ],
        ),
        ("\nCheers, see you at 7\n", [("syntax", 6, 1, "Cheers,")], None),  # a digit: a result, a move number
        ("\nthe game {ends here}\n", [("syntax", 6, 1, "the")], None),  # a comment
        ("\nthe e3-c3 was good\n", [("syntax", 6, 1, "the")], None),  # a ply
        ("\nwell *\n", [("syntax", 6, 1, "well")], None),  # a result marker
        ("\nthe game ends here}\n", [("syntax", 6, 1, "the")], None),  # a comment's end
        ("Cheers,\nJon\n", [("syntax", 5, 1, "Cheers,")], None),  # no blank line above it
        ("\n" + "Thanks for the game, the best of this long and cold winter\n" * 10, [], [LONG_CLOSING]),
    ],
    ids=["a closing", "above a signature", "a digit", "a comment", "a ply", "a result", "a comment's end"]
    + ["right below", "ten long lines"],
)
def test_prose_below_the_last_lgn_record_is_passed_over_as_a_move_list_s_is(tmp_path, below, said, notes):
    """An e-mail's `Cheers, Jon` a blank line below the last record's result marker was an error (`found
    'Cheers,' after the result marker`), while move lists and CSV files read it past with a note: the
    same `closing`, as conservative as the greeting's (a line that could be a ply, a tag, a result or
    a comment is read, an error at its place); `fmt` keeps it as written, with no note."""
    (tmp_path / "round1.lgn").write_text(LGN_GAME + below)
    [report] = reports_of(tmp_path / "round1.lgn")
    assert [(d.rule, d.line, d.column, d.text) for d in report.diagnostics] == said
    assert (report.record.main.comments if report.record else None) == notes
    if notes:
        formatted = run("fmt", tmp_path / "round1.lgn").stdout
        assert formatted.endswith("1. e8-b8 d5-d6 *\n" + below) and "lgn reader" not in formatted


def test_keep_going_keeps_the_signature_note_of_a_record_it_mends(tmp_path):
    """A signed lgn record with a slip (`e3c3`): --keep-going reads it as e3-c3, and rebuilt the
    record's text without the reader's note of the signature below it; the note stays."""
    (tmp_path / "round1.lgn").write_text('[Game "tablut"]\n1. e3c3 d1-d3 *\n\n-- \nAnna\n')
    [source] = read_sources(str(tmp_path / "round1.lgn"))
    note = "lgn reader: the lines from line 4 on are an e-mail's signature (its '-- ' line and after): not read"
    mended = check(source, keep_going=True)
    assert [(d.rule, d.line, d.column, d.text) for d in mended.diagnostics] == [("syntax", 2, 4, "e3c3")]
    assert [ply.text for ply in mended.record.main.plies] == ["e3-c3", "d1-d3"]
    assert mended.record.main.comments == [note]


@pytest.mark.parametrize(
    "format, text, found, notes",
    [
        (
            "tafl",
            "Hi Anna,\n\nc5-c3 i6-f6 zz\n\nCheers,\nJon\n-- \nclub\n",
            ("syntax", 3, 13, "zz"),
            [
                "tafl reader: line 1 holds no move (prose: an e-mail's greeting?): not read",
                "tafl reader: lines 5–6 hold no move (prose: an e-mail's closing?): not read",
                "tafl reader: the lines from line 7 on are an e-mail's signature (its '-- ' line and after): not read",
            ],
        ),
        (
            "csv",
            "Hi Anna,\n# round 2\nc5-c3 zz,0,0,Ongoing\n",
            ("syntax", 3, 7, "zz"),
            [
                "csv reader: line 1 holds no move (prose: an e-mail's greeting?): not read",
                "csv reader: line 2, '# round 2', a header that names no game: not read",
            ],
        ),
        (
            "lgn",
            'Hi Anna,\n\n[Game "tablut"]\n\n1. zz *\n\n-- \nAnna\n',
            ("syntax", 5, 4, "zz"),
            [
                "lgn reader: line 1 holds no move (prose: an e-mail's greeting?): not read",
                "lgn reader: the lines from line 7 on are an e-mail's signature (its '-- ' line and after): not read",
            ],
        ),
        (
            "lgn",
            'Hi Anna,\n\n[Game "tablut"]\n\n1. c5-c3 i6-f6\n',  # no result marker: no record kept
            ("syntax", 5, 15, ""),
            ["lgn reader: line 1 holds no move (prose: an e-mail's greeting?): not read"],
        ),
    ],
    ids=["a move list", "a CSV file", "an lgn record", "an lgn record without its result marker"],
)
def test_a_record_that_does_not_parse_says_the_lines_its_reader_did_not_read(tmp_path, format, text, found, notes):
    """The notes of an e-mail's prose and signature passed over were the record's comments alone, so
    a record that does not parse lost them: its first error says them, in order, after its hint."""
    path = tmp_path / f"round1.{'txt' if format == 'tafl' else format}"
    path.write_text(text)
    [report] = [check(source) for source in read_sources(str(path), tags={"Game": "tablut"})]
    [error] = report.diagnostics
    assert (error.rule, error.line, error.column, error.text) == found
    assert error.message.endswith("; " + "; ".join(notes))
    checked = run("validate", "--game", "tablut", path)
    assert f"; {notes[-1]}\n" in checked.output


def test_an_lgn_record_below_a_greeting_is_read_with_a_note_as_a_move_list_is(tmp_path):
    """A whole e-mail pasted into an .lgn file, a greeting above the record: it was an error at line 1
    ("not a game record in any format lusoria reads"); the lines of prose are passed over in the note
    of the move-list reader (one `prose` for both), and `fmt` keeps them as written, with no note."""
    mail = "Hi Anna,\n\nhere is our game:\n\n" + LGN_GAME + "\n-- \nSøren\n"
    (tmp_path / "round1.lgn").write_text(mail)
    checked = run("validate", tmp_path / "round1.lgn")
    assert (checked.exit_code, checked.output) == (0, "1 record: 1 valid, 0 invalid (0 errors, 0 warnings)\n")
    [report] = reports_of(tmp_path / "round1.lgn")
    assert (report.source.line, report.record.main.comments) == (
        5,
        [
            "lgn reader: lines 1–3 hold no move (prose: an e-mail's greeting?): not read",
            "lgn reader: the lines from line 10 on are an e-mail's signature (its '-- ' line and after): not read",
        ],
    )
    formatted = run("fmt", tmp_path / "round1.lgn").stdout
    assert formatted.startswith("Hi Anna,\n\nhere is our game:\n\n[Game") and "lgn reader" not in formatted
    (tmp_path / "unsigned.lgn").write_text("Hi Anna,\n" + LGN_GAME)  # the note is no comment of fmt's either
    unsigned = run("fmt", tmp_path / "unsigned.lgn").stdout
    assert unsigned.startswith("Hi Anna,\n[Game") and "lgn reader" not in unsigned
    said = "and so are an e-mail's greeting above its first record and its closing and signature"
    assert said in " ".join(run("fmt", "--help").output.split())


@pytest.mark.parametrize(
    "above",
    [
        "Hi Anna,\nhere is game 3:\n\n",
        "Hi Anna,\n{our game}\n",
        "Hi Anna,\n" * 11,
        "Hi Anna,\n% kept\n",
        "Hi Anna,\nunfinished *\n",
        "Hi Anna,\nwe passed -- twice\n",
    ],
    ids=["a digit", "a comment", "eleven lines", "a % line", "a result marker", "a ply"],
)
def test_no_line_that_holds_what_a_record_holds_is_read_as_a_greeting(above):
    """Conservative: prose is up to ten lines of words above a tag line, none holding a digit (a
    move number, a Laquet roll), a comment, a `%` line or a ply of any game: else the lines are
    read as before, a record of no tag at line 1."""
    first, game = (check(source) for source in split_records([above + LGN_GAME]))
    assert [(d.rule, d.line, d.column, d.message) for d in first.diagnostics] == [
        (
            "syntax",
            1,
            1,
            "not a game record in lgn, which a record's text is read as unless a format is named for it: it has no tag and no movetext",
        )
    ]
    assert game.valid and game.record.main.comments == []


def test_fmt_write_keeps_an_lgn_file_s_signature_as_it_was(tmp_path):
    """`fmt --write` on a signed lgn file dropped the signature (the note said it, the name was gone):
    it keeps it below the last record as written, and the file it writes is canonical."""
    signed = tmp_path / "round1.lgn"
    signed.write_text(LGN_GAME + "\n--\nAnna Berg\n")
    assert run("fmt", "--write", signed).exit_code == 0
    assert signed.read_text().endswith("1. e8-b8 d5-d6 *\n\n--\nAnna Berg\n")
    assert (run("fmt", "--check", signed).exit_code, run("fmt", "--write", signed).output) == (0, "")


def reports_of(path):
    return [check(source) for source in read_sources(str(path))]


def test_a_dash_line_with_games_after_it_is_no_signature_and_drops_no_game():
    """`--` between two games, or above them: the games after it are read (they were left out, said
    only in a note of the game before), the `--` line a record of a syntax error as before; the
    signature is the `-- ` line below the last game."""
    text = "c5-c3 i6-f6\n--\nd5-d3 i4-h4\n-- \nSøren\n"
    tablut = {"Game": "tablut"}
    first, dashes, second = (check(record) for record in read_text(text, "tafl", "x.txt", tablut))
    assert [first.valid, second.valid] == [True, True] and second.record.main.plies[0].text == "d5-d3"
    assert [(d.line, d.column, d.rule) for d in dashes.diagnostics] == [(2, 1, "syntax")]
    assert second.record.main.comments == [
        "tafl reader: the lines from line 4 on are an e-mail's signature (its '-- ' line and after): not read"
    ]
    assert [check(r).valid for r in read_text("-- \nSøren\nc5-c3 i6-f6\n", "tafl", "x.txt", tablut)] == [
        False,
        False,
        True,
    ]


@pytest.mark.parametrize("separator", ["\f", "\u2028", "\x85", "\x0b"])
def test_a_dash_line_above_a_game_after_another_line_end_is_no_signature(separator):
    """A game's line whose move list follows a form feed (a page break) or another line end that
    is no `\\n` (U+2028, NEL, a vertical tab): the `--` line above it stands between games. Found
    once per line (unify-38), the move list after the form feed was missed, the `--` taken for a
    signature, and the games from it on left out, said only in a note of the first."""
    text = f"c5-c3 i6-f6\n--\nRound 2{separator}d5-d3 i4-h4\n-- \nSøren\n"
    first, dashes, second = (check(record) for record in read_text(text, "tafl", "x.txt", {"Game": "tablut"}))
    assert first.valid and first.record.main.comments == []
    assert [(d.line, d.column, d.rule) for d in dashes.diagnostics] == [(2, 1, "syntax")]
    assert [(d.line, d.column, d.text) for d in second.diagnostics[:1]] == [(3, 1, "Round")]


def test_a_last_game_without_a_line_end_after_a_dash_line_is_read():
    """A file that ends in a game without a final line end, a `--` line above it: the game is read
    (the last line is looked at for a move list too)."""
    tablut = {"Game": "tablut"}
    assert [check(r).valid for r in read_text("-- \nSøren\nc5-c3 i6-f6", "tafl", "x.txt", tablut)] == [
        False,
        False,
        True,
    ]


@pytest.mark.parametrize("blank", ["\f", "\u00a0", "\v", "\u2028"])
def test_a_game_line_that_starts_with_a_blank_other_than_space_or_tab_is_read(blank):
    """A game's line, or a numbered game's next line, that starts with a form feed (a page break),
    a no-break space (pasted from a web page) or another blank that is no space nor tab: read, at
    its place. It was passed over, the game (or its moves on that line) left out unsaid."""
    tablut = {"Game": "tablut"}
    first, second = read_text(f"c5-c3 i6-f6\n{blank}c5-c3 zz\n", "tafl", "x.txt", tablut)
    assert check(first).valid
    assert [(d.line, d.column, d.text) for d in check(second).diagnostics] == [(2, 8, "zz")]
    [numbered] = read_text(f"1. c5-c3 i6-f6\n{blank}2. d5-d3 i4-h4\n", "tafl", "x.txt", tablut)
    assert [ply.text for ply in check(numbered).record.main.plies] == ["c5-c3", "i6-f6", "d5-d3", "i4-h4"]


# -- the aagenielsen.dk JSON scrape ------------------------------------------------------------------------


def test_aage_scrape_games_conventions_and_places():
    games = reports("aage/scrape.json")
    assert [r.source.format for r in games] == ["aage"] * 4
    saami, swedes_first, ashton, wrong = games
    assert saami.valid and saami.record.main.plies[-1].text == "f9-f5xe5/g5"
    assert "does not list the captured king; added e5" in saami.record.main.plies[-1].comments[0]
    assert "read as c5" in saami.record.main.plies[8].comments[0]
    assert swedes_first.valid and swedes_first.record.tags["Rules"] == "first=white"
    assert "WhoMovedFirst says black" in swedes_first.record.main.comments[0]
    assert ashton.valid and ashton.record.tags["Rules"] == "throne-hostile=empty camp-hostile=empty repetition=none"
    assert (ashton.record.main.plies[1].line, ashton.record.main.plies[1].column) == (23, 25)  # a list of moves
    assert problems(wrong) == [("T4", 7, 31, 60)]


def test_a_check_mends_its_reports_record_and_leaves_the_callers_as_read(monkeypatch):
    """The check mended the record its caller's RecordText holds (a king added to a capture list, a
    note): a second check met the mended record, and under the worker pool only the records checked in
    the calling process (`kept_here`) were mended. Now each check mends a copy, whatever the process."""
    sources = list(read_sources(str(FIXTURES / "aage/scrape.json")))
    as_read = pickle.dumps(sources)
    saami = sources[0]
    first, again = check(saami), check(saami)
    for report in (first, again):
        assert report.record.main.plies[-1].text == "f9-f5xe5/g5"
        assert [c for c in report.record.main.plies[-1].comments if "captured king" in c] == [
            "aage reader: the source does not list the captured king; added e5"
        ]
    assert saami.parsed.main.plies[-1].text == "f9-f5xg5" and not saami.parsed.main.plies[-1].comments
    monkeypatch.setattr(workers, "KEPT", 0)  # every record the reader parsed checked in this process
    verdicts = {jobs: [v.diagnostics for v in validate(sources, jobs=jobs)] for jobs in (1, 2)}
    assert verdicts[1] == verdicts[2] and pickle.dumps(sources) == as_read


def test_aage_broken_json_keeps_the_games_before_the_break():
    first, broken = reports("errors/broken.json")
    assert first.record.main.plies and first.record.tags["White"] == "Karin Nilsson"
    assert problems(broken) == [("syntax", None, 12, 5)] and "broken JSON" in broken.diagnostics[0].message


@pytest.mark.parametrize("item", ['["e7-e8"]', "12", "null", '{"Move": "e7-e8"}', "true"])
def test_aage_a_moves_item_that_is_not_a_string_is_an_error_at_it(item):
    """Not read as a move written `str(value)` (`found '['e7-e8']'`, text the file does not hold) at
    the place of the list's next string (the strings of a nested list taken for the items after it)."""
    text = '{"AageGameTypeName": "Copenhagen Hnefatafl 11x11", "Moves": ["h1-h3" , %s, "e7-e9", "k4-g4"]}' % item
    [game] = read_text(text, "aage", "x.json")
    [error] = check(game).diagnostics
    assert (error.rule, error.line, error.column) == ("syntax", 1, text.index(item) + 1)
    assert error.message == 'Moves item 2 is not a string: a list of moves holds each as one ("e2-c2")'


@pytest.mark.parametrize(
    "moves, found, ended",
    [
        ('"h1-h3", "resigned", "e7-e9"', "e7-e9", "resigned"),
        ('"Timeout", "h1-h3"', "h1-h3", "Timeout"),
        ('"h1-h3", "e7-e9 resigned", "k4-g4"', "k4-g4", "resigned"),
    ],
)
def test_aage_a_move_after_the_item_that_ends_the_game_is_an_error_at_it(moves, found, ended):
    """`resigned` and `timeout` end a record (RULES.md H1, C14): the items after one were played, and the
    game was valid (h79a), where a move list and a CSV row say the same at its place. An empty item after
    it holds no move."""
    text = '{"AageGameTypeName": "Copenhagen Hnefatafl 11x11", "Moves": [%s], "WhoWon": "White"}' % moves
    [game] = read_text(text, "aage", "x.json")
    [error] = check(game).diagnostics
    assert (error.rule, error.column, error.text) == ("syntax", text.index(f'"{found}"') + 2, found)
    assert error.message == f"found '{found}' after '{ended}', which ends the game"
    [empty] = read_text(text.replace(f'"{found}"', '""'), "aage", "x.json")
    assert check(empty).valid
    [between] = read_text(text.replace(f'"{found}"', f'"", "{found}"'), "aage", "x.json")  # (review79)
    assert [d.message for d in check(between).diagnostics] == [error.message]


def test_aage_a_game_without_its_moves_field_is_an_error_at_its_object():
    game = {"AageGameTypeName": "Copenhagen Hnefatafl 11x11", "WhoMovedFirst": "black", "WhoWon": "White"}
    text = json.dumps([{**game, "Moves": ["h1-h3"]}, game])
    first, moveless = (check(source) for source in read_text(text, "aage", "x.json"))
    assert first.valid and problems(moveless) == [("syntax", None, 1, text.index("}, {") + 4)]
    assert moveless.diagnostics[0].message == (
        "a game of the scrape is an object with the fields WhiteSidePlayerName, BlackSidePlayerName, "
        "AageGameTypeName, WhoMovedFirst, Moves, WhoWon"
    )


def test_aage_captures_each_after_its_own_x_and_an_ongoing_game():
    [report] = reports("aage/captures.json")
    assert report.valid and [p.text for p in report.record.main.plies] == ["f1-f3", "d5-d2", "d9-d3xd2/e3"]
    assert (report.record.main.plies[2].line, report.record.main.plies[2].column) == (12, 6)
    assert report.record.result == "*" and report.record.tags["White"] == "Lena Ek"
    wrong = json.loads((FIXTURES / "aage/captures.json").read_text())
    wrong["Moves"][2] = "d9-d3xd2xe3xe4"  # a square too many, written the site's way
    [source] = read_text(json.dumps(wrong), "aage", "x.json")
    assert problems(check(source)) == [("T4", 3, 1, json.dumps(wrong).index("d9-d3xd2xe3xe4") + 1)]


def test_aage_game_types_are_the_sites_full_names():
    game = {
        "AageGameTypeName": "Historical Hnefatafl 9x9 (Saami Tablut-w)",
        "WhoMovedFirst": "black",
        "Moves": ["e4-h4", "d1-d3"],
    }
    [source] = read_text(json.dumps(game), "aage", "x.json")
    report = check(source)
    assert report.valid and (report.record.tags["Variant"], report.record.tags["Rules"]) == ("aage", "first=white")
    assert report.record.main.comments == [
        "aage reader: WhoMovedFirst says black, but Historical Hnefatafl 9x9 "
        "(Saami Tablut-w) games start with White; the game type decides"
    ]


@pytest.mark.parametrize("first", ["", None, "nobody"], ids=["empty", "left out", "no side"])
def test_aage_a_who_moved_first_of_no_side_and_a_who_won_without_an_ending_say_nothing(first):
    """The notes of a WhoMovedFirst that differs from the type's first side, and of a WhoWon that differs from the
    move list's ending, are said only where there is a side, an ending (h80b: either guard dropped passed the
    tests, and a White-first type's record said `WhoMovedFirst says , but …`, a WhoWon `…ending says *`)."""
    game = {"AageGameTypeName": "Historical Hnefatafl 9x9 (Saami Tablut-w)", "Moves": ["e4-h4", "d1-d3"]}
    game.update({"WhoWon": "White"} if first is None else {"WhoMovedFirst": first, "WhoWon": "White"})
    [source] = read_text(json.dumps(game), "aage", "x.json")
    report = check(source)
    assert report.valid and (report.record.result, report.record.main.comments) == ("1-0", [])


def test_aage_old_style_records_of_a_type_that_leaves_out_berserk_continuations_read_with_berw_u():
    def read(moves: list[str]):
        game = {"AageGameTypeName": "Berserk Hnefatafl 9x9", "WhoMovedFirst": "black", "Moves": moves}
        [source] = read_text(json.dumps(game), "aage", "x.json")
        return check(source)

    old, modern = read(["d1d3", "f5f3"]), read(["d1-d3", "f5-f3"])  # old style: no move lists its captures
    assert old.valid and old.record.tags["Rules"] == "berw=u"
    assert old.record.main.comments == [
        "aage reader: no move lists its captures (the site's old style): read with berw=u, "
        "a ply fitting whatever it captures"
    ]
    assert modern.valid and "Rules" not in modern.record.tags and modern.record.main.comments == []


def test_aage_a_move_written_without_its_hyphen_lists_nothing_and_its_capture_is_computed():
    """The site's old style (`a6c6`) lists no capture, so a move that captures is no error; written with
    its hyphen and no list (`a6-c6`), the same move leaves out the soldier it captures: T4 at its ply
    (replay-47's survivor: the check asked of every ply whether it lists its captures)."""

    def read(moves: list[str]):
        game = {"AageGameTypeName": "Historical Hnefatafl 9x9 (Saami Tablut)", "WhoMovedFirst": "black", "Moves": moves}
        [source] = read_text(json.dumps(game), "aage", "x.json")
        return check(source)

    assert read(["a4c4", "g5g7", "a6c6"]).diagnostics == []
    [left_out] = read(["a4-c4", "g5-g7", "a6-c6"]).diagnostics
    assert (left_out.rule, left_out.ply, left_out.message) == (
        "T4",
        3,
        "the move captures c5, which the record does not list",
    )


def test_aage_game_type_typed_by_hand_with_a_slip_is_told_the_type_meant(tmp_path):
    """A tournament director's JSON said `Saami tablut` (its case and a parenthesis off): the message names
    the types most like it; one like none is told nothing more."""
    game = {"AageGameTypeName": "Historical Hnefatafl 9x9 (Saami tablut", "Moves": "e4-h4 d1-d3"}
    path = tmp_path / "round.json"
    path.write_text(json.dumps(game))
    result = run("validate", path)
    assert result.exit_code == 1 and (
        "error[tag]: game type 'Historical Hnefatafl 9x9 (Saami tablut' is none that lusoria knows (did you mean "
        "'Historical Hnefatafl 9x9 (Saami Tablut)' or 'Historical Hnefatafl 9x9 (Saami Tablut-w)' or "
    ) in " ".join(result.output.split())
    [source] = read_text(
        json.dumps(game | {"AageGameTypeName": "Alea Evangelii 19x19 (tablut corne)"}), "aage", "x.json"
    )
    assert check(source).diagnostics[0].message == (  # (a type played from two layouts is named once)
        "game type 'Alea Evangelii 19x19 (tablut corne)' is none that lusoria knows (did you mean "
        "'Alea Evangelii 19x19 (tablut corner)' or 'Alea Evangelii dux4 19x19' or 'Alea Evangelii dux8 19x19'?)"
    )
    [source] = read_text(json.dumps(game | {"AageGameTypeName": "Chess 8x8"}), "aage", "x.json")
    assert check(source).diagnostics[0].message == "game type 'Chess 8x8' is none that lusoria knows"


@pytest.mark.parametrize(
    ("written", "key", "meant", "variant"),
    [
        (" historical  hnefatafl 9X9 (saami tablut-W)", None, "Historical Hnefatafl 9x9 (Saami Tablut-w)", "aage"),
        ("tyr  13X13", 172, "Tyr 13x13", "tyr-13x13-172"),  # (its key tells it from type 150 of that name)
    ],
)
def test_aage_game_type_in_another_case_or_spacing_is_read_as_that_type_with_a_note(written, key, meant, variant):
    """A transcriber's JSON, typed by hand: the type was refused as none that lusoria knows, its first
    suggestion the very type."""
    game = {"AageGameTypeName": written, "AageGameTypeKey": key, "Moves": "e4-h4 d1-d3"}
    [source] = read_text(json.dumps(game), "aage", "x.json")
    record = check(source).record
    assert record.tags["Variant"] == variant and record.main.comments[:1] == [
        f"aage reader: game type '{written}' read as '{meant}', as the site writes it"
    ]


def test_aage_game_type_two_types_are_written_as_is_not_guessed_between(monkeypatch):
    """A user's catalogue may add a type whose name differs from another's in case alone: a name that
    folds to both is refused with the two as suggestions, not read as the one listed last."""
    games = FORMATS["aage"].games
    monkeypatch.setattr(games, "_games", {**games, "TYR 13X13": games["Tyr 13x13#172"]})
    aage._folded_types.cache_clear()
    aage.refused_message.cache_clear()
    try:
        game = {"AageGameTypeName": "tyr 13x13", "Moves": "e4-h4 d1-d3"}
        [source] = read_text(json.dumps(game), "aage", "x.json")
        [written_so] = read_text(json.dumps({**game, "AageGameTypeName": "TYR 13X13"}), "aage", "x.json")
    finally:
        aage._folded_types.cache_clear()
        aage.refused_message.cache_clear()  # (its suggestions were of that catalogue)
    assert [d.message for d in check(source).diagnostics] == [
        "game type 'tyr 13x13' is none that lusoria knows (did you mean 'TYR 13X13' or 'Tyr 13x13' or 'Old TYR! 13x13'?)"
    ]
    assert check(written_so).record.tags["Variant"] == "tyr-13x13-172"


def test_aage_unknown_game_type_is_a_tag_error_unless_the_options_give_its_rules(tmp_path):
    text = json.dumps([{"AageGameTypeName": "Alea Evangelii 19x19", "Moves": "e4-h4 d1-d3"}])
    [source] = read_text(text, "aage", "x.json")
    report = check(source)
    assert problems(report) == [("tag", None, 1, 24)]  # the type's first character, past its quote
    assert report.diagnostics[0].message == (
        "game type 'Alea Evangelii 19x19' is none that lusoria knows (did you mean 'Alea Evangelii dux4 19x19' "
        "or 'Alea Evangelii dux8 19x19' or 'Unst Alea Evangelii 19x19'?)"
    )
    [source] = read_text(text, "aage", "x.json", {"Rules": "first=white"})
    assert check(source).valid and check(source).record.tags["Variant"] == "aage"  # the default preset, overridden
    (tmp_path / "x.json").write_text(text)
    assert run("validate", tmp_path / "x.json").exit_code == 1
    assert run("validate", "--variant", "seed", tmp_path / "x.json").exit_code == 0  # seed: White first


# -- Tablut Challenge logs ----------------------------------------------------------------------------------


def test_tablut_challenge_log():
    [report] = reports("tablut-challenge/Bianchi_vs_Neri_1763719200000_gameLog.txt")
    tags = report.record.tags
    assert report.valid and (tags["White"], tags["Black"], tags["Variant"], tags["Result"]) == (
        "Bianchi",
        "Neri",
        "ashton",
        "1-0",
    )
    plies = report.record.main.plies
    assert [p.text for p in plies] == ["d5-d6", "d1-d5xc5", "e4-d4xd5", "i4-e4xe3", "Ke5-c5", "b5-b6", "Kc5-c1"]
    assert (plies[0].line, plies[0].column) == (21, 25)
    assert any("refused e5-e1" in c for c in plies[3].comments + report.record.main.comments)
    assert report.outcome.rule == "T6"


def test_tablut_challenge_draw_uppercase_squares():
    [report] = reports("tablut-challenge/Rossi_vs_Verdi_1763722800000_gameLog.txt")
    assert report.valid and report.record.result == "1/2-1/2" and report.outcome.rule == "T13"


def test_tablut_challenge_equal_states_message_before_the_drawn_board_is_noise():
    """The 2019 servers print `Equal states found: 1` between a move that repeats a position and its board
    (`_HillClimbe_vs_TaaS_1559513785249_gameLog.txt`): noise, not the server's refusal of the move (h80b)."""
    text = (FIXTURES / "tablut-challenge/Rossi_vs_Verdi_1763722800000_gameLog.txt").read_text()
    line = "FINE: Partita terminata in pareggio per numero di stati ripetuti\n"
    date = "nov 21, 2026 10:06:00 AM it.unibo.ai.didattica.competition.tablut.domain.GameAshtonTablut checkMove\n"
    assert text.count(line) == 1
    [plain, equal] = [
        check(source)
        for log in (text, text.replace(line, f"{line}{date}FINE: Equal states found: 1\n"))
        for source in read_text(log, "tablut-challenge", "Rossi_vs_Verdi_1_gameLog.txt")
    ]
    assert equal.valid and (equal.record.result, equal.outcome.rule) == ("1/2-1/2", "T13")
    assert [p.text for p in equal.record.main.plies] == [p.text for p in plain.record.main.plies]
    assert equal.record.main.plies[-1].comments == plain.record.main.plies[-1].comments


@pytest.mark.parametrize("month, date", [("nov", "2026.11.21"), ("mag", "2026.05.21"), ("Dic", "2026.12.21")])
def test_tablut_challenge_date_of_a_server_whose_clock_writes_italian(month, date):
    """A server run in an Italian locale writes `nov 21, 2026 10:00:00 AM`: its date is read too."""
    text = (FIXTURES / "tablut-challenge/Rossi_vs_Verdi_1763722800000_gameLog.txt").read_text()
    [source] = read_text(text.replace("nov 21,", f"{month} 21,"), "tablut-challenge", "Rossi_vs_Verdi_1_gameLog.txt")
    tags = check(source).record.tags
    assert (tags["Date"], tags["Time"]) == (date, "10:00:00")


@pytest.mark.parametrize(
    "clock, time", [("12:05:09 AM", "00:05:09"), ("12:05:09 PM", "12:05:09"), ("1:05:09 PM", "13:05:09")]
)
def test_tablut_challenge_time_of_the_twelfth_hour_is_read_as_the_clock_means_it(clock, time):
    """h78c: the server's clock writes the hour after midnight 12 AM and the hour after noon 12 PM (read without
    `% 12`: 12:05 and 24:05); the Time tag stands where the hour is written, as the Date at the line's start."""
    text = (FIXTURES / "tablut-challenge/Rossi_vs_Verdi_1763722800000_gameLog.txt").read_text()
    [source] = read_text(text.replace("10:00:00 AM", clock, 1), "tablut-challenge", "Rossi_vs_Verdi_1_gameLog.txt")
    record = check(source).record
    assert (record.tags["Date"], record.tags["Time"]) == ("2026.11.21", time)
    assert (record.tag_places["Date"], record.tag_places["Time"]) == ((1, 1), (1, 14))


@pytest.mark.parametrize(
    "allowed, cache, said, notes",
    [
        (
            "2",
            "-1",
            [
                (
                    "tag",
                    4,
                    31,
                    "2",
                    "repeated moves allowed 2: lusoria cannot express a draw later than at the first repetition",
                )
            ],
            None,
        ),
        ("0", "5", [], ["tablut-challenge reader: the server remembered only the last 5 positions for repetitions"]),
    ],
)
def test_tablut_challenge_a_server_that_allowed_repetitions_or_remembered_few_is_said_so(allowed, cache, said, notes):
    """h78c: every log of the fixtures allows none and remembers every position (`0`, `-1`): with the line not read
    at all, a draw later than at the first repetition was read as Ashton's rules, and the short memory unsaid."""
    text = (FIXTURES / "tablut-challenge/Rossi_vs_Verdi_1763722800000_gameLog.txt").read_text()
    written = f"Repeated moves allowed:\t{allowed}\tCache:\t{cache}"
    [source] = read_text(
        text.replace("Repeated moves allowed:\t0\tCache:\t-1", written), "tablut-challenge", "x_gameLog.txt"
    )
    report = check(source)
    assert [(d.rule, d.line, d.column, d.text, d.message) for d in report.diagnostics] == said
    assert (report.record.main.comments if report.record else None) == notes


def test_tablut_challenge_log_of_may_2019_with_a_captured_king_left_on_the_board():
    """`Players:\tWhite:\t…`, White's moves as `Turn: null`, and the king still on the last board."""
    [report] = reports("tablut-challenge/Stefani_vs_Russo_1558626002000_gameLog.txt")
    tags = report.record.tags
    assert report.valid and (tags["White"], tags["Black"], tags["Date"], tags["Time"]) == (
        "Stefani",
        "Russo",
        "2019.05.23",
        "17:40:02",
    )
    plies = report.record.main.plies
    assert [p.text for p in plies] == ["d5-d8", "b5-b1", "Ke5-d5", "a6-d6", "Kd5-d2", "d6-d3xd2"]
    assert (plies[0].line, plies[0].column) == (21, 28)
    assert plies[-1].comments == [
        "tablut-challenge reader: the server's board after the last move still shows the "
        "captured king on d2; read as captured"
    ]
    assert (report.record.result, report.outcome.rule) == ("0-1", "T7")


def test_tablut_challenge_king_captured_on_a_square_in_capitals_is_read_as_in_lowercase():
    """The server's squares may be written in capitals (`Rossi_vs_Verdi`'s `Turn:` lines): the square it says it
    took the king on, which its board still shows, too (h80b: `[A-Ia-i]` made `[a-i]` passed every test)."""
    log = (FIXTURES / "tablut-challenge/Stefani_vs_Russo_1558626002000_gameLog.txt").read_text()
    assert "catturato in: d2\n" in log
    [report] = [
        check(s) for s in read_text(log.replace("in: d2\n", "in: D2\n"), "tablut-challenge", "S_vs_R_gameLog.txt")
    ]
    assert report.valid and (report.record.result, report.outcome.rule) == ("0-1", "T7")
    assert report.record.main.plies[-1].comments == [
        "tablut-challenge reader: the server's board after the last move still shows the "
        "captured king on d2; read as captured"
    ]


def test_tablut_challenge_log_of_december_2019_with_rows_on_the_stato_line():
    [report] = reports("tablut-challenge/Marino_vs_Greco_1576201955000_gameLog.txt")
    assert report.valid and report.record.tags["Date"] == "2019.12.13" and report.record.tags["Time"] == "01:52:35"
    assert [p.text for p in report.record.main.plies] == [
        "f5-f8",
        "i4-f4",
        "Ke5-f5",
        "e2-a2",
        "Kf5-f7",
        "e8-b8",
        "Kf7-i7",
    ]
    assert (report.record.result, report.outcome.rule) == ("1-0", "T6")


@pytest.mark.parametrize("blanks", [" ", "\t ", " \r"])
def test_tablut_challenge_log_whose_lines_end_in_blanks_reads_as_without_them(blanks):
    """Its boards' rows were no rows: `a board of 9 rows was expected after 'Stato:', found 0`."""
    log = (FIXTURES / "tablut-challenge/Stefani_vs_Russo_1558626002000_gameLog.txt").read_text()
    [plain] = [check(s) for s in read_text(log, "tablut-challenge", "S_vs_R_1_gameLog.txt")]
    [blank] = [
        check(s) for s in read_text(log.replace("\n", blanks + "\n"), "tablut-challenge", "S_vs_R_1_gameLog.txt")
    ]
    assert blank.valid and blank.record.result == "0-1" and len(blank.record.main.plies) == 6
    assert [p.text for p in blank.record.main.plies] == [p.text for p in plain.record.main.plies]


@pytest.mark.parametrize(
    "indent, blank",
    [("\t", " "), ("\t\t", " "), ("    ", " "), ("", "\t"), ("\t", "\t")],
    ids=["tab", "tabs", "spaces", "tabs-for-spaces", "both"],
)
def test_tablut_challenge_log_indented_or_with_tabs_for_spaces_reads_as_the_log(indent, blank):
    """A log pasted indented by tabs, or whose spaces became tabs, was no log ("not a Tablut Challenge
    game log: no 'Players:' line or no board"): it reads as the log, its date, players, plies, the
    captured king the server left on its board and its result, each ply at its own column."""
    log = (FIXTURES / "tablut-challenge/Stefani_vs_Russo_1558626002000_gameLog.txt").read_text()
    log = log.removesuffix("BW\n")  # (the result read from `Nero vince …` alone, not from the turn under the board)
    [plain] = [check(s) for s in read_text(log, "tablut-challenge", "S_vs_R_1_gameLog.txt")]
    changed = "".join(indent + line.replace(" ", blank) for line in log.splitlines(keepends=True))
    [read] = [check(s) for s in read_text(changed, "tablut-challenge", "S_vs_R_1_gameLog.txt")]
    assert read.valid and read.record.tags == plain.record.tags and read.record.result == "0-1"
    assert read.record.main.comments == plain.record.main.comments
    assert [(p.text, p.line, p.column) for p in read.record.main.plies] == [
        (p.text, p.line, p.column + len(indent)) for p in plain.record.main.plies
    ]
    assert [p.comments for p in read.record.main.plies] == [p.comments for p in plain.record.main.plies]


@pytest.mark.parametrize("indent, blank", [("\t", " "), ("  ", "\t")], ids=["tab", "tabs-for-spaces"])
def test_tablut_challenge_noise_of_a_log_indented_or_with_tabs_for_spaces_is_the_plain_logs(indent, blank):
    """The lines whose undecodable byte costs no game (`noise_lines`) are the plain log's: an indented
    board's rows are no noise (a byte there is the game's), and a message of the noise that says the
    game's end, its blanks tabs, is none either."""
    log = (FIXTURES / "tablut-challenge/Stefani_vs_Russo_1558626002000_gameLog.txt").read_text()
    changed = "".join(indent + line.replace(" ", blank) for line in log.splitlines(keepends=True))
    assert noise_lines(changed) == noise_lines(log) and 29 not in noise_lines(log)  # (line 29: a board's second row)
    # the messages of the noise (`Inizio partita`, `Movimento pedina`, `Current draw cache size`), not those read
    # (the players, the first turn)
    assert {6, 23, 25} <= noise_lines(log) and not {2, 21} & noise_lines(log)
    ended = "FINE: Movimento pedina: Nero vince"
    assert noise_lines(ended.replace(" ", blank)) == noise_lines(ended) == set()


@pytest.mark.parametrize("turn, result", [("WW", "1-0"), ("BW", "0-1"), ("D", "1/2-1/2"), ("B", "*")])
def test_tablut_challenge_result_from_the_turn_under_the_last_board(turn, result):
    """A log without a win or draw message (the server ended the game otherwise: a timeout)."""
    path = FIXTURES / "tablut-challenge/Conti_vs_Gallo_1607609421000_gameLog.txt"
    text = path.read_text()
    assert text.endswith("-\nBW\n") and "vince" not in text and "pareggio" not in text
    [source] = read_text(text.removesuffix("BW\n") + turn + "\n", "tablut-challenge", str(path))
    report = check(source)
    assert report.valid and report.record.result == result and report.record.main.plies[-1].text == "e2-a2"


def test_tablut_challenge_result_from_the_turn_right_under_the_last_boards_nine_rows():
    """A log that prints the turn under the board's ninth row, without the `-` line between."""
    path = FIXTURES / "tablut-challenge/Conti_vs_Gallo_1607609421000_gameLog.txt"
    [source] = read_text(path.read_text().removesuffix("-\nBW\n") + "WW\n", "tablut-challenge", str(path))
    report = check(source)
    assert report.valid and report.record.result == "1-0" and report.record.main.plies[-1].text == "e2-a2"


LOG_DATE = "nov 21, 2026 10:00:00 AM it.unibo.ai.didattica.competition.tablut.domain.GameAshtonTablut checkMove\n"
LOG_START = "OOOBBBOOO OOOOBOOOO OOOOWOOOO BOOOWOOOB BBWWKWWBB BOOOWOOOB OOOOWOOOO OOOOBOOOO OOOBBBOOO".split()


def small_log(*messages: str) -> str:
    """A Tablut Challenge log of `messages` (`FINE: …` and the lines under them), each after its date line."""
    return "".join(LOG_DATE + message for message in messages)


def stato(rows: list[str], under: str = "-\nW\n") -> str:
    """A board the server prints (rank 1 first), and the lines under it."""
    return "FINE: Stato:\n" + "\n".join(rows) + "\n" + under


def test_a_tablut_challenge_log_that_starts_from_another_board_is_read_from_that_board():
    """A log whose first board is not Ashton's start (the defender on c5 off the board) was read from
    the standard start: its Position tag was lost, and d5-c5, legal on the board the log printed, was
    an error (T2: c5 is occupied)."""
    start = [*LOG_START[:4], "BBOWKWWBB", *LOG_START[5:]]
    after = [*LOG_START[:4], "BBWOKWWBB", *LOG_START[5:]]
    log = small_log(
        "FINE: Players:\tBianchi\tvs\tNeri\n",
        stato(start),
        "FINE: Turn: W Pawn from d5 to c5\n",
        stato(after, "-\nB\n"),
    )
    [source] = read_text(log, "tablut-challenge", "Bianchi_vs_Neri_1_gameLog.txt")
    report = check(source)
    assert report.record.tags.get("Position") == "3ppp3/4p4/4P4/p3P3p/pp1PKPPpp/p3P3p/4P4/4p4/3ppp3 w"
    assert report.valid and report.diagnostics == []
    assert [p.text for p in report.record.main.plies] == ["d5-c5"] and report.record.result == "*"


def test_a_tablut_challenge_log_with_a_blank_line_between_a_board_and_the_turn_under_it_is_read():
    """A log whose board had a blank line before its `W` (a log pasted from a mail) crashed the
    reader (an internal error, no record); the lines after the blank line are no board's."""
    log = small_log(
        "FINE: Players:\tBianchi\tvs\tNeri\n",
        stato(LOG_START, "-\n\nW\n"),
        "FINE: Turn: W Pawn from d5 to d6\n",
        stato([*LOG_START[:4], "BBWOKWWBB", "BOOWWOOOB", *LOG_START[6:]], "-\n\nB\n"),
    )
    [source] = read_text(log, "tablut-challenge", "Bianchi_vs_Neri_1_gameLog.txt")
    report = check(source)
    assert report.valid and report.diagnostics == [] and "Position" not in report.record.tags
    assert [p.text for p in report.record.main.plies] == ["d5-d6"]
    assert (report.record.tags["White"], report.record.tags["Black"]) == ("Bianchi", "Neri")
    result = run("validate", "-", input=log)
    assert (result.exit_code, result.output) == (0, "1 record: 1 valid, 0 invalid (0 errors, 0 warnings)\n")


def test_convert_writes_no_illegal_record_and_says_where_its_error_is(tmp_path):
    result = run("convert", "--to", "lgn", FIXTURES / "errors/Gialli_vs_Blu_1763730000000_gameLog.txt")
    assert result.exit_code == 1 and result.stdout == ""
    assert result.stderr == (
        f"lusoria: {FIXTURES / 'errors/Gialli_vs_Blu_1763730000000_gameLog.txt'}:40:25: record 0 "
        "not converted: error[T4]: move 1, Black: the move captures c5 under these rules, but the server's board "
        "after it still holds them\n"
    )


@pytest.mark.parametrize(
    "path, expected",
    [
        ("errors/Gialli_vs_Blu_1763730000000_gameLog.txt", [("T4", 2, 40, 25)]),  # the board kept c5
        ("errors/Truncated_vs_Log_1763726400000_gameLog.txt", [("syntax", None, 67, 7)]),
    ],
)
def test_tablut_challenge_broken_logs(path, expected):
    """Each error at its place (and ply); the game is read all the same, for the archive to keep."""
    [report] = reports(path)
    assert problems(report) == expected and len(report.record.main.plies) == 2


def test_a_capture_the_server_refused_is_underlined_as_the_log_writes_the_move():
    """A reader's problem at a ply covers the ply as its source writes it (`Ply.width`), as the
    rules' errors do: validate's caret under `d1 to d5`, not the five characters of `d1-d5`."""
    [report] = reports("errors/Gialli_vs_Blu_1763730000000_gameLog.txt")
    [refused] = report.diagnostics
    assert (refused.rule, refused.text, refused.span) == ("T4", "d1-d5", len("d1 to d5"))


def test_a_log_cut_inside_a_board_keeps_the_game_up_to_the_cut_and_the_cut_as_its_error():
    """A truncated log's plies are not lost (the archive keeps them); the cut board stays an error,
    anywhere but at the log's end still one that stops the reading, as does a short board the log
    goes on after (its turn printed under it: not cut)."""
    text = (FIXTURES / "errors/Truncated_vs_Log_1763726400000_gameLog.txt").read_text()
    board = "OOOBBBOOO\nOOOOBOOOO\n"  # the last board's rows, before the cut
    for cut in (text, text[:-3], text.removesuffix("OOOOBOOOO\n"), text.removesuffix(board)):
        [report] = [check(s) for s in read_text(cut, "tablut-challenge", "Cut_vs_Log_1_gameLog.txt")]
        assert problems(report) == [("syntax", None, 67, 7)]
        assert [p.text for p in report.record.main.plies] == ["c5-c7", "b5-c5xd5"] and report.record.result == "*"
        assert (
            "tablut-challenge reader: the log ends inside the board after the move e5-d5" in report.record.main.comments
        )
    for stopping in ("FINE: Stato:\n", "-\nW\n"):
        [stopped] = [check(s) for s in read_text(text + stopping, "tablut-challenge", "Cut_vs_Log_1_gameLog.txt")]
        assert problems(stopped) == [("syntax", None, 67, 7)] and stopped.record is None


def test_two_logs_in_one_file_are_read_up_to_the_second_s_players_line_said_at_it():
    """Two logs saved in one file (appended, or the same download twice) were one game whose plies went
    on after its end: T10 at the second's first move, then an error of a board at a move of its own.
    The second `Players:` line is the error, at its place; the first game is kept as it was read."""
    log = (FIXTURES / "tablut-challenge/Stefani_vs_Russo_1558626002000_gameLog.txt").read_text()
    [alone] = [check(s) for s in read_text(log, "tablut-challenge", "S_vs_R_1_gameLog.txt")]
    [twice] = [check(s) for s in read_text(log + log, "tablut-challenge", "S_vs_R_1_gameLog.txt")]
    assert problems(twice) == [("syntax", None, log.count("\n") + 2, 7)]
    assert twice.diagnostics[0].message == (
        "found a second 'Players:' line, another game's log (two logs in one file?): a log file holds one game, "
        "read up to here; split the file at the date line above"
    )
    assert [p.text for p in twice.record.main.plies] == [p.text for p in alone.record.main.plies]
    assert (twice.record.result, twice.record.tags["White"]) == (alone.record.result, alone.record.tags["White"])


@pytest.mark.parametrize("move", ["e5-c5", "e5-z5", "z5-d5"], ids=["mistyped", "off the board", "from off the board"])
def test_a_log_whose_board_does_not_show_its_move_is_read_up_to_that_move(move):
    """A log edited by hand (a square mistyped): the board after the move is the error, at the move,
    and the game before it is kept (the archive's plies), its end unknown (`*`); a square off the board
    too, which the reader's `Turn:` (any letter, a digit) lets through (h80b: either square's check dropped passed)."""
    text = (FIXTURES / "tablut-challenge/Stefani_vs_Russo_1558626002000_gameLog.txt").read_text()
    origin, target = move.split("-")
    [source] = read_text(
        text.replace("from e5 to d5", f"from {origin} to {target}"), "tablut-challenge", "Typo_vs_Log_1_gameLog.txt"
    )
    report = check(source)
    assert [(d.rule, d.line, d.column, d.message) for d in report.diagnostics] == [
        ("syntax", 59, 28, f"the board printed after {move} does not show that move")
    ]
    assert [p.text for p in report.record.main.plies] == ["d5-d8", "b5-b1"] and report.record.result == "*"
    assert report.record.main.comments == [
        f"tablut-challenge reader: the log is read up to the move {move}, which its board does not show"
    ]


def test_a_log_with_no_game_says_so_and_an_empty_one_holds_no_record(tmp_path):
    """A 0-byte log (a game the server never started) holds no record, as an empty file of any
    format (formats.sources.EMPTY); a log without a game is said to be none at its start."""
    path = tmp_path / "Empty_vs_Log_1_gameLog.txt"
    for blank in ("", "\r\n"):
        path.write_text(blank)
        assert list(read_sources(str(path))) == []
    path.write_text("FINE: x\n")
    [source] = read_sources(str(path))
    assert source.index == 0  # (the file's one record, as a log that reads is: `one_game`; h80b)
    report = check(source)
    [(rule, line, column, message)] = [(d.rule, d.line, d.column, d.message) for d in report.diagnostics]
    assert (rule, line, column) == ("tag", 1, 1)
    assert message == "not a Tablut Challenge game log: no 'Players:' line or no board"


# -- directories, --from, import ------------------------------------------------------------------------------


def test_a_format_registered_under_a_built_in_name_replaces_it_until_unregistered():
    built_in = FORMATS["otn"]
    mine = dataclasses.replace(built_in, suffixes=(".otg", ".opentafl"))
    FORMATS.register(mine)
    try:
        assert FORMATS["otn"] is mine and FORMATS.of("game.otg") is mine
        assert ".otg, .opentafl" in FORMATS.why_not("notes.doc")
    finally:
        FORMATS.unregister("otn")
    assert FORMATS["otn"] is built_in and FORMATS.of("game.otg") is built_in


def test_a_file_of_no_format_is_told_every_ending_the_formats_read_and_no_other():
    """The note listed each format's files as written by hand: `.log`, which folders read (Tablut
    Challenge logs), was left out. It lists the formats' own suffixes, and a `named` ending no
    suffix of its format ends, once each."""
    listed = FORMATS.why_not("notes.doc").removeprefix("not a record file (").removesuffix(")").split(", ")
    assert all(suffix in listed for entry in FORMATS.values() for suffix in entry.suffixes)
    assert ".log" in listed and len(listed) == len(set(listed))
    FORMATS.register(Format("moves", (".moves",), named=("_game.moves", "_moves.txt")))
    try:
        assert FORMATS.why_not("notes.doc").endswith(", .moves, *_moves.txt)")
    finally:
        FORMATS.unregister("moves")


def test_a_built_in_format_told_by_its_first_characters_on_standard_input_tells_its_files_so_too():
    """A format whose first characters say it both in a file of its suffix (`sniff`) and with no
    file name (`unnamed`) says it by one function: the two tests cannot drift apart."""
    both = [entry for entry in BUILT_IN if entry.sniff is not None and entry.unnamed is not None]
    assert both  # the premise: some built-in format has both
    assert all(entry.unnamed is entry.sniff for entry in both), [entry.name for entry in both]


def test_walking_a_directory_by_format_and_skipping_the_rest(tmp_path):
    (tmp_path / "GAME.LGN").write_text('[Game "tablut"]\n\n1. e3-c3 *\n')
    (tmp_path / "notes.txt").write_text("hello\n")
    (tmp_path / "club.pgn").write_text("1. e4 *\n")
    found = list(walk([str(tmp_path)]))
    assert found[0] == str(tmp_path / "GAME.LGN")
    assert all(isinstance(f, Skipped) for f in found[1:])
    assert found[1].reason.startswith("a .txt file that is neither") and found[2].reason.startswith("not a record file")
    result = run("validate", tmp_path)
    assert result.exit_code == 0 and f"{tmp_path / 'club.pgn'}: skipped" in result.output
    assert format_of("x.JSON", '[{"AageGameTypeName": "x", "Moves": ""}]') == "aage"
    assert format_of("a_gameLog.TXT") == "tablut-challenge" and format_of("x.json", "{}") is None


def test_a_format_whose_file_endings_have_capitals_is_refused_as_it_is_made():
    """Names are compared in lower case: a plug-in's format of `.MOVES` files took none, silently."""
    for endings in (
        {"suffixes": (".MOVES",)},
        {"suffixes": (".moves",), "named": ("_Game.moves",)},
        {"suffixes": (".moves",), "kin": (".PGN",)},
    ):
        with pytest.raises(
            ValueError,
            match="^the format moves: (.MOVES|_Game.moves|.PGN): a file ending is in lower case, as names are compared$",
        ):
            Format(**{"name": "moves", "suffixes": (), **endings})


def test_a_format_of_other_programs_files_but_no_suffix_of_its_own_is_refused_as_it_is_made():
    """A plug-in format taking only `*_game.moves` with `kin=(".mv",)`: a folder's first `.mv` file,
    told to be renamed to the format's first suffix, stopped the run on an IndexError."""
    with pytest.raises(
        ValueError, match=r"^the format moves: kin \('.mv',\): it has no suffix of its own to rename such a file to$"
    ):
        Format("moves", (), named=("_game.moves",), kin=(".mv",))


def test_a_directory_of_move_lists_is_read_without_a_flag(tmp_path):
    (tmp_path / "saami.txt").write_text((FIXTURES / "tafl/saami.txt").read_text())
    (tmp_path / "numbered.txt").write_text("1. d1-d3 e4-h4 2. a4-a3 resigned\n")
    (tmp_path / "notes.txt").write_text("e3-c3 is a good first move\n")  # one move and words: notes
    assert [
        format_of(str(tmp_path / name), (tmp_path / name).read_text())
        for name in ("saami.txt", "numbered.txt", "notes.txt")
    ] == ["tafl", "tafl", None]
    result = run("validate", tmp_path)
    assert result.exit_code == 1 and f"{tmp_path / 'notes.txt'}: skipped" in result.output
    assert f"{tmp_path / 'saami.txt'}:4:13: error[T4]" in result.output and "5 records: 4 valid" in result.output
    assert run("validate", tmp_path / "numbered.txt").exit_code == 0  # by name: aage, Muscovites first
    seed = run("validate", "--variant", "seed", tmp_path / "numbered.txt")  # the rules from the options
    assert seed.exit_code == 1 and "numbered.txt:1:4: error[T1]" in seed.output


def test_a_move_list_ending_in_a_slip_of_its_last_word_is_read_and_the_slip_named(tmp_path):
    """A tournament director writes `resign` or the result where the site writes `resigned`: the
    file is still a move list (by name and in a directory), and the word is named at its place,
    not read as lusoria's notation ("no Game tag") nor skipped."""
    for word in ("resign", "1-0"):
        path = tmp_path / word / "round1.txt"
        path.parent.mkdir()
        path.write_text(f"d1-d3 e4-h4 a4-a3 {word}\n")
        assert format_of(str(path), path.read_text()) == "tafl"
        found = f"{path}:1:19: error[syntax]: found '{word}', expected a move such as e2-c2 or f9-f5xg5, 'resigned'"
        by_name, in_folder = run("validate", path), run("validate", path.parent)
        assert by_name.exit_code == in_folder.exit_code == 1
        assert found in by_name.output and found in in_folder.output and "skipped" not in in_folder.output
    assert format_of("notes.txt", "d1-d3 e4-h4 is how it began\n") is None  # more than one word after the moves


def test_no_record_at_all_exits_2(tmp_path):
    (tmp_path / "submission.pgn").write_text("1. e4 *\n")
    result = run("validate", tmp_path)
    assert result.exit_code == 2 and "no record found" in result.output and "0 records" in result.output
    assert run("validate", tmp_path / "submission.pgn").exit_code == 1  # a file given by name is read as lgn
    assert run("import", "--db", tmp_path / "a.db", tmp_path).exit_code == 2


def test_from_forces_a_format_on_stdin():
    text = (FIXTURES / "otn/resigned-from-a-position.otg").read_text()
    assert run("validate", "--from", "otn", "-", input=text).exit_code == 0
    assert run("validate", "--from", "lgn", "-", input=text).exit_code == 1
    assert run("validate", "-", input=text).exit_code == 0  # its first line tells OTN (test_sources.py)


def test_show_and_fmt_read_other_formats():
    shown = run("show", "--ply", "2", FIXTURES / "tablut-challenge/Bianchi_vs_Neri_1763719200000_gameLog.txt")
    assert shown.exit_code == 0 and "after ply 2 of 7" in shown.output and "#" in shown.output
    checked = run("fmt", "--check", FIXTURES / "otn/saami-king-captured.otg")
    assert checked.exit_code == 2 and "apply to lgn files" in checked.output


def test_import_keeps_the_format_and_the_path(tmp_path):
    db = str(tmp_path / "a.db")
    summary = Archive(db).import_paths([str(FIXTURES / "otn"), str(FIXTURES / "aage")])
    assert summary.added == 12
    rows = (
        connect(db)
        .execute(
            "SELECT r.path, t.value, x.text FROM records r JOIN record_texts x USING (id) "
            "JOIN tags t ON t.record_id = r.id AND t.name = 'SourceFormat' "
            "ORDER BY r.id"
        )
        .fetchall()
    )
    assert [(path.rsplit("/", 1)[1], fmt) for path, fmt, _ in rows] == [
        ("brandubh.otg", "otn"),
        ("copenhagen.otg", "otn"),
        ("opentafl-copenhagen.otg", "otn"),
        ("resigned-from-a-position.otg", "otn"),
        ("saami-king-captured.otg", "otn"),
        ("variations.otg", "otn"),
    ] + [("captures.json", "aage"), ("copenhagen.json", "aage")] + [("scrape.json", "aage")] * 4
    assert all(text.startswith('[Game "') for _, _, text in rows) and "copenhagen" in rows[7][2]  # stored as lgn
    assert "(1. e3-c3 {A quieter start.} 1... a6-a7" in " ".join(rows[5][2].split())  # variations too
    assert Archive(db).import_paths([str(FIXTURES / "otn")]).duplicates == 6


def test_a_forced_format_takes_every_file_of_its_extension_in_a_directory(tmp_path):
    (tmp_path / "headed.txt").write_text("Saami game, table b2\ne3-c3 d1-d3 c3-e3\n")  # not sniffed as move lists
    # (its first line no prose: b2 may be a move mistyped)
    (tmp_path / "game.lgn").write_text('[Game "tablut"]\n\n1. e3-c3 *\n')
    found = list(walk([str(tmp_path)], "tafl"))
    assert found[1] == str(tmp_path / "headed.txt")
    assert isinstance(found[0], Skipped) and found[0].reason == "not a .txt file, as tafl files are"
    assert isinstance(list(walk([str(tmp_path)]))[1], Skipped)  # without the format: skipped
    result = run("validate", "--from", "tafl", tmp_path)
    assert f"{tmp_path / 'game.lgn'}: skipped, not a .txt file, as tafl files are" in result.output
    assert f"{tmp_path / 'headed.txt'}:1:1: error[syntax]: found 'Saami'" in result.output
    assert f"{tmp_path / 'headed.txt'}:2:1: error[T1]" in result.output  # the line read as a move list


# -- the tafl family: the Rust engines' CSV lines, aagenielsen.dk's Copenhagen and Brandubh -----------------------


def test_csv_move_lists_name_their_game_by_file_or_by_board(tmp_path, lusorias_own_tafl_games):
    brandubh, copenhagen = reports("csv/brandubh.csv"), reports("csv/copenhagen.csv")
    assert [r.record.tags["Game"] for r in brandubh + copenhagen] == ["brandubh"] * 4 + ["copenhagen"] * 4
    assert all(r.valid for r in brandubh + copenhagen) and brandubh[0].source.format == "csv"
    assert [r.record.result for r in brandubh] == ["1-0", "1-0", "*", "*"]  # White, White, Ongoing, Ongoing
    assert [p.text for p in brandubh[0].record.main.plies[1:3]] == ["c4-c5", "d1-e1"]  # written without hyphen
    for name in ("brandubh", "copenhagen"):  # by their boards: only Copenhagen's 11×11 holds k4
        (tmp_path / f"{name[:3]}.csv").write_text((FIXTURES / f"csv/{name}.csv").read_text())
    assert {check(s).record.tags["Game"] for s in read_sources(str(tmp_path / "cop.csv"))} == {"copenhagen"}
    with pytest.raises(InputError, match=r"bra\.csv: its moves fit the boards of 3 games \(brandubh 7×7, tablut 9×9"):
        list(read_sources(str(tmp_path / "bra.csv")))
    (tmp_path / "nine.csv").write_text("e1-e2 i5-h5,0,0,Ongoing\n")  # (h78c) i5: the boards of 9×9 and more, two games
    with pytest.raises(
        InputError, match=r"nine\.csv: its moves fit the boards of 2 games \(tablut 9×9, copenhagen 11×11\)"
    ):
        list(read_sources(str(tmp_path / "nine.csv")))
    assert format_of("games.csv", (FIXTURES / "csv/brandubh.csv").read_text()) == "csv"
    assert format_of("table.csv", "name,score\nada,3\n") is None


@pytest.mark.parametrize(
    "head, format",
    [
        ("e2-c2 f9-f5,0,0,white\r\n", "csv"),
        ("# brandubh\ne2-c2 f9-f5,0,0,white\n", "csv"),
        ("moves,defenders_lost,attackers_lost,status\ne2-c2 f9-f5,0,0,white\n", "csv"),  # a researcher's header
        ("# brandubh\r\nMoves, Defenders lost, Attackers lost, Status\r\ne2-c2 f9-f5,0,0,white\r\n", "csv"),
        ('"moves","defenders lost","attackers lost","status"\n"e2-c2 f9-f5",0,0,"White"\n', "csv"),  # quoted
        ('"e2-c2 f9-f5 e3-e4', "csv"),
        ('"e2-c2 f9-f5,0,0,white\n', None),  # a quote not closed
        ("e2-c2 f9-f5", "csv"),  # the head ends inside its first game: its moves so far say it
        ("e2-c2 f9-f5 f9f5x e3-e", "csv"),  # the word it ends in, maybe cut, not judged: a slip may come before it
        ("e2-c2 f9-f5\n", None),  # a whole line of moves without the counts and the status
        ("e2-c2 f9-f5\r", None),
        ("# brandubh\nmoves,defenders_lost,attackers_lost,status\n", "csv"),  # a header and no game yet: no record
        ("moves,defenders lost,status\ne2-c2 f9-f5,0,white\n", "csv"),  # a header of 3: the reader says it
        ("id;moves;defenders lost;attackers lost;status\n1;e2-c2 f9-f5;0;0;white\n", "csv"),  # and of 5
        ("Moves, notes\n", None),  # names of one column alone: a note's first words
        ("moves,status\n", "csv"),  # (h78c) names of two columns, no game yet: enough (it was said of three)
        ("moves\tdefenders lost\tattackers lost\tstatus\ne2-c2 f9-f5\t0\t0\twhite\n", "csv"),  # tabs, named
        ("e2-c2 f9-f5\t0\t0\twhite\n", "csv"),  # tabs, no header: the reader says to name the columns
        ('"e2-c2 f9-f5; e3-e4";0;0;"White"\n', "csv"),  # a delimiter inside quotes is a character of its field
        ('"e2-c2 f9-f5, e3-e4",0,0,White\n', "csv"),
        ("e2-c2 f9f5x e3-e4,0,0,white\n", "csv"),  # a slip among its moves: the reader names it at its place
        ("zz,0,0,white\n", None),  # no move at all
        ("e2-c2 f9-f5,0,0,won\n", "csv"),  # a status mistyped: the reader names it at its place
        ("e2-c2 f9-f5,0,0,\n", "csv"),  # no status: an unknown result
        ("e2-c2 f9-f5,x,0,won\n", None),  # a count that is no number, and no status
        ("e2-c2 f9-f5,0,0,won,1\n", None),  # five fields
        ("e2-c2 f9-f5,0,0,ended in a draw\n", None),  # a note, not a status
        ("e2-c2 f9-f5,0,0,white wins\n", None),  # (h80b: a note of two words; one word is a status mistyped)
        ("moves;defenders_lost;attackers_lost;status\r\ne2-c2 f9-f5;0;0;White\r\n", "csv"),  # a European spreadsheet's
        ('"e2-c2 f9-f5";0;0;"White"\n', "csv"),
        ("e2-c2 f9-f5;0;0\ne2-c2 f9-f5;0;0;\n", "csv"),  # its first game mistyped
        ("e2-c2 f9-f5;0;0;ended in a draw\n", None),
        ("status;moves;defenders;attackers\r\nWhite;e2-c2 f9-f5;0;0\r\n", "csv"),  # its header orders the columns
        ("status;moves;defenders;attackers\rWhite;e2-c2 f9-f5;0;0\r", "csv"),  # lines ended by CR alone
        ("moves,defenders_lost,attackers_lost,status\ne2-c2 f9-f5;0;0;White\n", "csv"),  # rows of `;` under `,` names
        ("# brandubh\nmoves;defenders lost;attackers lost;status\nd1-d3 e5-e2,0,0,Ongoing\n", "csv"),  # and of `,`
    ],
)
def test_a_csv_file_is_a_move_list_by_its_first_line(head, format):
    assert format_of("games.csv", head) == format


def test_a_csv_game_of_a_european_spreadsheet_saved_as_txt_is_no_move_list():
    """Its first line, a move list after all but for its fields, was read as tafl moves."""
    assert format_of("games.txt", "d1-d3 e5-e2 g1-g3;0;0;Ongoing\n") is None
    assert format_of("games.txt", "d1-d3 e5-e2 g1-g3\n") == "tafl"


def test_a_slip_in_a_csv_files_first_game_is_said_at_its_place(tmp_path):
    """New user 24: a slip in the first game's moves took the file for no CSV: named, it was read as
    lgn ('the record has no Game tag', at 1:1); in a folder, skipped ('not a tafl move list')."""
    good = (FIXTURES / "csv/brandubh.csv").read_text().splitlines()[0]
    (tmp_path / "brandubh.csv").write_text(good.replace(" ", " zz ", 1) + "\n" + good + "\n")
    done = CliRunner().invoke(main, ["validate", str(tmp_path)])
    assert done.exit_code == 1 and done.stderr == ""
    assert done.stdout.startswith(f"{tmp_path}/brandubh.csv:1:7: error[syntax]: found 'zz', expected a move such as ")
    assert done.stdout.endswith(
        "2 records: 1 valid, 1 invalid (1 error, 0 warnings)\nrules cited: syntax (lusoria explain syntax says what a rule means)\n"
    )


def test_a_csv_line_that_is_no_game_is_its_own_error_and_the_games_after_it_are_read():
    good = (FIXTURES / "csv/brandubh.csv").read_text().splitlines()[0]
    """(A line of words above the first game is prose, passed over: below it, such a line is read.)"""
    before, bad, after = [check(s) for s in read_text(f"{good}\na note, not a game\n{good}\n", "csv", "brandubh.csv")]
    assert [(d.rule, d.line, d.column, d.message) for d in bad.diagnostics] == [
        ("syntax", 2, 1, "a line of a CSV move list is moves,defenders lost,attackers lost,status")
    ]
    assert before.valid and after.valid and after.record.result == "1-0" and after.source.line == 3


def test_a_csv_row_of_column_names_is_a_header_not_a_game():
    """A header row a researcher added (again in files pasted together) is read past, as `# …` is."""
    games = (FIXTURES / "csv/brandubh.csv").read_text().splitlines()[:2]
    columns = "moves,defenders lost,attackers lost,status"
    read = [check(s) for s in read_text("\n".join([columns, games[0], columns, games[1]]), "csv", "brandubh.csv")]
    assert [(r.valid, r.source.line, r.source.index) for r in read] == [(True, 2, 0), (True, 4, 1)]


def test_a_csv_header_in_another_order_orders_the_columns_of_the_games_after_it(tmp_path):
    """Its columns were read as the engines write them: a file whose status came first was no record
    in any format, and swapped counts were errors of every game."""
    game = (FIXTURES / "csv/brandubh.csv").read_text().splitlines()[0]  # …,0,1,White
    moves, defenders, attackers, status = game.split(",")
    text = f"status,moves,attackers_lost,defenders_lost\n{status},{moves},{attackers},2\n{status},{moves}\n"
    (tmp_path / "brandubh.csv").write_text(text)
    done = CliRunner().invoke(main, ["validate", str(tmp_path / "brandubh.csv")])
    column = 1 + len(f"{status},{moves},{attackers},")
    assert done.stdout.startswith(
        f"{tmp_path}/brandubh.csv:2:{column}: error[B6]: the defenders lost are counted 2, and the moves list 0\n"
    )
    assert done.stdout.endswith(
        "2 records: 0 valid, 2 invalid (2 errors, 0 warnings)\nrules cited: B6, syntax "
        "(lusoria explain B6 says what a rule means)\n"
    )
    counted, unordered = [check(s) for s in read_text(text, "csv", "brandubh.csv")]
    assert counted.record.result == "1-0" and len(counted.record.main.plies) == 30
    assert [d.message for d in unordered.diagnostics] == [
        "a line of a CSV move list is status,moves,attackers lost,defenders lost (as the header on line 1 orders them)"
    ]


@pytest.mark.parametrize(
    ("names", "order"),
    [
        ("Status,MOVES,Attackers Lost,Defenders Lost", "status,moves,attackers,defenders"),  # any case
        ('"result","moves","defenders","attackers"', "status,moves,defenders,attackers"),  # result: the status
        ("moves;defenders;attackers;status", "moves;defenders;attackers;status"),  # a European spreadsheet's
    ],
)
def test_a_csv_header_orders_the_games_when_it_names_each_column_once(names, order):
    """Each name holds its column's word in any case (`result` is the status)."""
    delimiter = ";" if ";" in order else ","
    game = dict(zip(("moves", "defenders", "attackers", "status"), CSV_GAME.split(",")))
    row = delimiter.join(game[column] for column in order.split(delimiter))
    [read] = [check(s) for s in read_text(f"{names}\n{row}\n", "csv", "brandubh.csv")]
    assert read.valid and read.record.result == "1-0" and len(read.record.main.plies) == 30


@pytest.mark.parametrize(
    ("names", "column", "why"),
    [
        ("moves,moves,attackers_lost,status", 7, "'moves' names moves again"),
        ("status,moves,attackers_lost,winner", 29, "'winner' names none of them"),
        ('"game";"white";"black";"winner"', 2, "'game' names none of them"),
    ],
)
def test_a_csv_header_that_does_not_name_the_four_columns_once_each_is_an_error_at_the_name(names, column, why):
    """It was read past without a word, the games after it read in the engines' order: they still
    are, and the header is an error of its own, at the first name that names no column or one named
    before, with the names expected."""
    delimiter = ";" if ";" in names else ","
    header, game = [
        check(s) for s in read_text(f"{names}\n{CSV_GAME.replace(',', delimiter)}\n", "csv", "brandubh.csv")
    ]
    assert [(d.rule, d.line, d.column, d.message) for d in header.diagnostics] == [
        (
            "syntax",
            1,
            column,
            "the column names are moves, defenders lost, attackers lost and status, in any order, each once "
            f"(a name holding move, defender, attacker, status or result): {why}",
        )
    ]
    assert game.valid and game.source.line == 2 and len(game.record.main.plies) == 30


def test_each_csv_header_orders_the_games_up_to_the_next_one():
    """Files pasted together, each with its header: a game is read in the order of the last header above it."""
    moves, defenders, attackers, status = CSV_GAME.split(",")
    engines, reordered = "moves,defenders_lost,attackers_lost,status", "status,attackers_lost,defenders_lost,moves"
    text = "\n".join(
        [CSV_GAME, reordered, f"{status},{attackers},{defenders},{moves}", engines, CSV_GAME, f"{reordered}\n"]
    )
    read = [check(s) for s in read_text(text, "csv", "brandubh.csv")]
    assert [(r.valid, r.source.line, len(r.record.main.plies)) for r in read] == [
        (True, 1, 30),
        (True, 3, 30),
        (True, 5, 30),
    ]


def test_a_csv_header_that_names_no_order_ends_the_order_of_the_one_above():
    """Files pasted together, the second under names that do not name the four columns: its games
    were read in the first file's order (each 'a line of a CSV move list is status,…'), not in the
    engines' order as before the names were an error."""
    moves, defenders, attackers, status = CSV_GAME.split(",")
    text = "\n".join(
        [
            "status,moves,defenders_lost,attackers_lost",
            f"{status},{moves},{defenders},{attackers}",
            "moves,defenders_lost,attackers_lost,winner",
            f"{CSV_GAME}\n",
        ]
    )
    read = [check(s) for s in read_text(text, "csv", "brandubh.csv")]
    assert [
        (r.source.line, [d.column for d in r.diagnostics], r.record and len(r.record.main.plies)) for r in read
    ] == [
        (2, [], 30),
        (3, [37], None),  # 'winner'
        (4, [], 30),
    ]


def test_a_csv_game_whose_moves_stand_in_another_column_is_told_the_columns_and_the_header_that_orders_them():
    """A game of the engines' order under a header of another (files pasted together), or a status
    first in a file of none: it was said to hold no move at its first field ('found '0'')."""
    moves, defenders, attackers, status = CSV_GAME.split(",")
    text = f"status,attackers_lost,defenders_lost,moves\n{status},{attackers},{defenders},{moves}\n{CSV_GAME}\n"
    [valid, pasted] = [check(s) for s in read_text(text, "csv", "brandubh.csv")]
    [first] = [check(s) for s in read_text(f"{status},{moves},{defenders},{attackers}\n", "csv", "brandubh.csv")]
    assert valid.valid and [(d.message, d.line, d.column) for d in pasted.diagnostics] == [
        (
            "a line of a CSV move list is status,attackers lost,defenders lost,moves (as the header on line 1 orders them)",
            3,
            1,
        )
    ]
    assert [d.message for d in first.diagnostics] == [
        "a line of a CSV move list is moves,defenders lost,attackers lost,status"
    ]


def test_a_csv_file_whose_header_moves_the_moves_column_is_told_by_its_first_game_longer_than_its_head():
    """Its first characters (HEAD) end inside the moves, which then judge it, wherever their column stands."""
    moves = " ".join(["d1-d2 d6-d5 d2-d1 d5-d6"] * (HEAD // 20))
    for header, row in [
        ("status,defenders,attackers,moves", f"White,0,0,{moves}"),
        ("status,moves,attackers,defenders", f",{moves},0,0"),
    ]:
        head = f"{header}\n{row}\n"[:HEAD]
        assert format_of("brandubh.csv", head) == "csv", header


def test_csv_fields_may_be_quoted_and_are_cited_inside_their_quotes():
    """As a CSV writer that quotes text fields writes them (Python's QUOTE_NONNUMERIC, R)."""
    text = '"b4-b3 c4-c5 d6-c6",0,"1","Ongoing"\n"b4-b3 c4-c5 a1-a2",0,0,Ongoing\n'
    counted, illegal = [check(s) for s in read_text(text, "csv", "brandubh.csv")]
    assert counted.record.result == "*" and len(counted.record.main.plies) == 3
    assert problems(counted) == [("B6", None, 1, 24)] and problems(illegal) == [("B3", 3, 2, 14)]


def saved_by_a_european_spreadsheet(text, quoted):
    """A CSV file as LibreOffice or Excel saves it where the decimal mark is a comma: its fields
    separated by `;`, each row as wide as the widest, a UTF-8 byte-order mark, CRLF line ends, and
    (`quoted`: LibreOffice's "quote all text cells") its text fields in quotes."""
    saved = io.StringIO()
    quoting = csv.QUOTE_NONNUMERIC if quoted else csv.QUOTE_MINIMAL
    writer = csv.writer(saved, delimiter=";", lineterminator="\r\n", quoting=quoting)
    for row in csv.reader(io.StringIO(text)):
        writer.writerow([int(cell) if cell.isdigit() else cell for cell in row] + [""] * (4 - len(row)))
    return codecs.BOM_UTF8 + saved.getvalue().encode()


def said(verdict, columns=True):
    """A verdict as validate says it: the game, its plies and result, each diagnostic (its column too)."""
    found = [(d.severity, d.rule, d.ply, d.line, d.column if columns else None, d.message) for d in verdict.diagnostics]
    return verdict.game, verdict.plies, verdict.result, found


@pytest.mark.parametrize("quoted", [False, True], ids=["excel", "libreoffice-quoted"])
@pytest.mark.parametrize("fixture", ["csv/brandubh.csv", "csv/copenhagen.csv", "errors/brandubh-lists.csv"])
def test_a_csv_file_resaved_by_a_european_spreadsheet_gets_the_same_verdicts(tmp_path, fixture, quoted):
    """A transcriber who opens the engines' CSV in LibreOffice or Excel and saves it: `;` between the
    fields, a byte-order mark, CRLF, quotes. It was not a game record in any format (a folder skipped
    it) or, named, one lgn record with no Game tag."""
    original = FIXTURES / fixture
    resaved = tmp_path / "resaved" / original.name
    resaved.parent.mkdir()
    resaved.write_bytes(saved_by_a_european_spreadsheet(original.read_text(), quoted))
    assert b";0;" in resaved.read_bytes()  # (the spreadsheet's separator)
    before = [said(v, not quoted) for v in validate([str(original)])]
    assert [said(v, not quoted) for v in validate([str(resaved.parent)])] == before
    assert len(before) in (2, 4) and sum(bool(found) for *_, found in before) == (2 if "errors" in fixture else 0)


def test_a_csv_line_of_the_other_separator_is_said_with_the_one_its_file_uses():
    """Games pasted into a spreadsheet's file from the engines' own (`,`) under its `;` lines."""
    moves, defenders, attackers, status = CSV_GAME.split(",")
    text = f"# brandubh\n{moves};{defenders};{attackers};{status}\n{CSV_GAME}\n"
    semicolons, commas = [check(s) for s in read_text(text, "csv", "games.csv")]
    assert semicolons.valid and len(semicolons.record.main.plies) == 30
    assert [(d.rule, d.line, d.column, d.text, d.message) for d in commas.diagnostics] == [
        (
            "syntax",
            3,
            len(moves) + 1,
            ",",
            "a line of a CSV move list is moves;defenders lost;attackers lost;status; this line separates its "
            "fields by ',', the file by ';' (as its line 2 does)",
        )
    ]


@pytest.mark.parametrize(
    ("names", "rows"), [(",", ";"), (";", ",")], ids=["semicolons-under-commas", "commas-under-semicolons"]
)
def test_csv_games_under_a_header_of_the_other_separator_are_each_said_at_their_place(tmp_path, names, rows):
    """Rows pasted under the column names of another file: they were not a game record in any format
    lusoria reads (read as lgn, 'no tag and no movetext' at 1:1)."""
    moves, *others = CSV_GAME.split(",")
    header = names.join(("moves", "defenders lost", "attackers lost", "status"))
    (tmp_path / "brandubh.csv").write_text(f"{header}\n" + f"{rows.join([moves, *others])}\n" * 2)
    found = [check(s) for s in read_sources(str(tmp_path / "brandubh.csv"))]
    assert [(d.rule, d.line, d.column, d.text) for v in found for d in v.diagnostics] == [
        ("syntax", line, len(moves) + 1, rows) for line in (2, 3)
    ]
    message = found[0].diagnostics[0].message
    assert message.endswith(f"this line separates its fields by '{rows}', the file by '{names}' (as its line 1 does)")


def test_a_csv_files_separator_is_not_read_from_a_hash_line():
    """A `#` line of three semicolons (`# brandubh; club; 2026; round 1`) says nothing of the games'."""
    text = f"# brandubh; club; 2026; round 1\n{CSV_GAME}\n"
    [game] = [check(s) for s in read_text(text, "csv", "games.csv")]
    assert game.valid and len(game.record.main.plies) == 30


def test_csv_counts_and_unlisted_captures_are_the_records_mistakes_at_their_place():
    counted, unlisted = reports("errors/brandubh-lists.csv")
    assert problems(counted) == [("B6", None, 1, 516)]  # Brandubh's capture rule, as the list's
    assert counted.diagnostics[0].message == "the attackers lost are counted 4, and the moves list 3"
    assert problems(unlisted) == [("B6", 16, 2, 91)]  # e5-g5, which captures g6
    assert unlisted.diagnostics[0].message == "the move captures g6, which the record does not list"


@pytest.mark.parametrize("quote", ["", '"'])
def test_a_csv_status_mistyped_is_said_at_its_place_with_the_statuses(quote):
    """Was read as no status at all: the game's result lost, the record valid."""
    text = f"b4-b3 c4-c5 d6-c6,0,0,{quote}Whte{quote}\nb4-b3 c4-c5 d6-c6,0,0,\n"
    typed, empty = [check(s) for s in read_text(text, "csv", "brandubh.csv")]
    assert problems(typed) == [("syntax", None, 1, 23 + len(quote))] and typed.record.result == "*"
    assert typed.diagnostics[0].message == (
        "the status is White, Black, Ongoing, Draw or empty, not 'Whte' (did you mean White?)"
    )
    assert empty.valid and empty.record.result == "*"  # an empty status is an unknown result (real files hold it)


def test_a_csv_status_of_each_kind_is_the_games_result():
    """White, Black, Draw and Ongoing, in any case: the result each says (h80b: Draw read as 1-0 passed every test)."""
    text = "".join(f"b4-b3 c4-c5 d6-c6,0,0,{status}\n" for status in ("White", "black", "Draw", "draw", "Ongoing"))
    games = [check(s) for s in read_text(text, "csv", "brandubh.csv")]
    assert [(game.valid, game.record.result, game.record.tags["Result"]) for game in games] == [
        (True, "1-0", "1-0"),
        (True, "0-1", "0-1"),
        (True, "1/2-1/2", "1/2-1/2"),
        (True, "1/2-1/2", "1/2-1/2"),
        (True, "*", "*"),
    ]


@pytest.mark.parametrize("written", ["s9", "", "-1", "1.0", "٣"])
def test_a_csv_count_that_is_no_number_is_said_to_be_none_at_its_column(written):
    """Was quoted as if it were one: `the defenders lost are counted s9, and the moves list 0`."""
    text = f"b4-b3 c4-c5 d6-c6,{written},0,Ongoing\n"
    [counted] = [check(s) for s in read_text(text, "csv", "brandubh.csv")]
    assert problems(counted) == [("B6", None, 1, 19)]
    assert counted.diagnostics[0].message == (
        f"the defenders lost are counted '{written}', which is no count (0, 1, 2 …); the moves list 0"
    )


def test_fmt_writes_the_capture_a_list_leaves_out_and_not_the_counts():
    """docs/formats.md: the notation has no place for these errors of a site's bookkeeping, so
    the record fmt writes is valid (a researcher found the archive's text of such a record valid)."""
    written = CliRunner().invoke(main, ["fmt", str(FIXTURES / "errors/brandubh-lists.csv")])
    assert written.exit_code == 0 and " e5-g5xg6 " in written.stdout
    assert [verdict.valid for verdict in validate(written.stdout)] == [True, True]


def test_aage_copenhagen_games_read_with_the_sites_conventions():
    [report] = reports("aage/copenhagen.json")
    tags = report.record.tags
    assert report.valid and (tags["Game"], tags.get("Variant"), tags["White"]) == ("copenhagen", None, "Ingrid Vik")
    assert report.record.main.plies[0].text == "k5-j5" and report.record.result == "*"
    assert report.record.main.plies[16].comments == ["aage reader: the capture list f4xf4 repeats a square; read as f4"]


def test_a_move_off_the_games_board_is_refused_at_its_place():
    game = {"AageGameTypeName": "Historical Hnefatafl 7x7 (Irish Brandubh 1)", "Moves": ["d1-d3", "k6-k3"]}
    [source] = read_text(json.dumps(game), "aage", "x.json")
    report = check(source)
    assert problems(report) == [("syntax", None, 1, json.dumps(game).index("k6-k3") + 1)]
    assert report.diagnostics[0].message == "found 'k6-k3': k6 is not a square of the Brandubh board (a1–g7)"
    game["Moves"] = ["d1-d3", "e4-z4"]  # past every tafl board (s19): the same message (found by review)
    [report] = [check(source) for source in read_text(json.dumps(game), "aage", "x.json")]
    assert report.diagnostics[0].message == "found 'e4-z4': z4 is not a square of the Brandubh board (a1–g7)"
    for move, square in (("d3-k3", "k3"), ("d3-d5xk5", "k5")):  # a target, a capture off the board
        game["Moves"] = ["d1-d3", move]
        [report] = [check(source) for source in read_text(json.dumps(game), "aage", "x.json")]
        assert (
            report.diagnostics[0].message == f"found '{move}': {square} is not a square of the Brandubh board (a1–g7)"
        )


def test_a_move_list_off_the_board_of_the_game_it_was_read_as_says_how_to_name_its_game():
    """A move list does not say its game: read as the format's default (Tablut, aage), a 13×13 game's first
    move was only "not a square of the Tablut board"; with --game the game was named, and that is all."""
    [default] = [check(source) for source in read_text("i13-i10 h8-h10\n", "tafl", "x.txt")]
    assert default.diagnostics[0].message == (
        "found 'i13-i10': i13 is not a square of the Tablut board (a1–i9)" + READ_AS_TABLUT
    )
    [named] = [check(source) for source in read_text("i13-i10 h8-h10\n", "tafl", "x.txt", {"Game": "copenhagen"})]
    assert named.diagnostics[0].message == "found 'i13-i10': i13 is not a square of the Copenhagen board (a1–k11)"


@pytest.mark.parametrize(
    "path, game, rule_tags",
    [
        ("otn/copenhagen.otg", "copenhagen", {}),  # OpenTafl's Copenhagen: sw:s efe:y, its defaults the rest
        ("otn/brandubh.otg", "brandubh", {"Rules": "throne-hostile=no"}),  # OpenTafl's strong-centre Brandub: cenhe:
    ],
)
def test_otn_games_of_the_family_read_under_their_rules_records(path, game, rule_tags):
    """(OpenTafl's Brandub counts the empty throne against no one: a note says how lusoria differs.)"""
    [report] = reports(path)
    assert report.valid and report.record.tags["Game"] == game and report.plies == 16
    assert {name: report.record.tags[name] for name in ("Variant", "Rules") if name in report.record.tags} == rule_tags
    assert report.record.tags["Black"] == "Tore Lund"  # OTN's attackers
    assert [comment for comment in report.record.main.comments if "never captures a strong king" in comment] == (
        [
            "otn reader: the empty throne is hostile to no defender here (cenhe:), so OpenTafl never captures a strong "
            "king beside it; lusoria counts it against him (B7), as its own rules do"
        ]
        if game == "brandubh"
        else []
    )


@pytest.mark.parametrize("king, game", [("ks:c", "brandubh"), ("ks:w", "hnefatafl")])
def test_otn_only_a_strong_king_is_told_that_opentafl_never_captures_him_beside_the_empty_throne(king, game):
    """A weak king (ks:w: the generic game's OpenTafl Brandub) is captured by two as lusoria counts it."""
    rules = f"dim:7 surf:n atkf:y {king} cenh: cenhe: start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/"
    [report] = [check(source) for source in read_text(f"[rules:{rules}]\n\n1. d2-c2 d3-b3\n", "otn", "x.otg")]
    assert report.valid and report.record.tags["Game"] == game
    noted = [comment for comment in report.record.main.comments if "never captures a strong king" in comment]
    assert len(noted) == (game == "brandubh")


@pytest.mark.parametrize(
    "rules, game",
    [
        ("dim:11 cor:k11,a1,a11,k1, cen:default", "copenhagen"),
        ("dim:11 cor:default cen:f6,", "copenhagen"),
        ("dim:9 esc:e cor: surf:n", "tablut"),
        ("dim:9 esc:e cor: surf:y", "tablut"),
    ],
)
def test_otn_rules_entries_that_say_the_games_own_board(rules, game):
    [source] = read_text(f"[rules:{rules}]\n\n1. d1-d3\n", "otn", "x.otg")
    assert check(source).record.tags["Game"] == game


@pytest.mark.parametrize(
    ("endings", "said"),
    [
        ({"suffixes": ".moves"}, "suffixes is a tuple of file endings, not '.moves'"),
        ({"suffixes": (".moves",), "named": [".moves"]}, r"named is a tuple of file endings, not \['.moves'\]"),
        ({"suffixes": (".moves", len)}, "suffixes is a tuple of file endings, not"),
        ({"suffixes": (".moves",), "kin": ".pgn"}, "kin is a tuple of file endings, not '.pgn'"),
    ],
)
def test_a_format_whose_file_endings_are_not_a_tuple_of_text_is_refused_as_it_is_made(endings, said):
    """A plug-in's format made with the fields in another order (`Format("moves", ".moves", (".moves",), read)`)
    took each character of `.moves` as an ending and called a tuple to read."""
    with pytest.raises(ValueError, match=f"^the format moves: {said}"):
        Format(**{"name": "moves", **endings})


@pytest.mark.parametrize("delimiter", [",", ";"])
def test_a_csv_file_of_column_names_alone_has_no_game_as_an_lgn_file_of_comments_alone(tmp_path, delimiter):
    """The engines' header and no row yet: it was read as lgn ('not a game record in any format lusoria
    reads' at 1:1), and with --from csv its game could not be told ('its moves fit the boards of 3 games')."""
    (tmp_path / "games.csv").write_text(delimiter.join(("moves", "defenders lost", "attackers lost", "status")) + "\n")
    (tmp_path / "notes.lgn").write_text("% the club's games, to come\n")
    for name in ("games.csv", "notes.lgn"):
        done = CliRunner().invoke(main, ["validate", str(tmp_path / name)])
        assert (done.exit_code, done.stdout) == (2, "0 records: 0 valid, 0 invalid (0 errors, 0 warnings)\n")
        assert done.stderr == f"lusoria: no record found in {tmp_path}/{name}\n"
    assert list(read_sources(str(tmp_path / "games.csv"), format="csv")) == []


@pytest.mark.parametrize("name", ["games.csv", "games.txt"])
def test_move_lists_alone_under_a_header_naming_their_game_read_as_that_game(tmp_path, name):
    """A `# brandubh` line above move lists alone (no counts, no status), in a .csv file as in a .txt:
    read as move lists of the game the header names, as a CSV file's header names it (the .csv was read
    as lgn, 'not a game record in any format lusoria reads'; with the .txt's header read as prose, as
    Tablut)."""
    moves = CSV_GAME.split(",")[0]
    (tmp_path / name).write_text(f"# brandubh, from the club's server\n{moves}\n{moves.split()[0]}\n")
    games = [check(source) for source in read_sources(str(tmp_path / name))]
    assert [(game.valid, game.record.tags["Game"], game.record.main.comments) for game in games] == [
        (True, "brandubh", []),
        (True, "brandubh", []),
    ]
    one_move = tmp_path / name.replace("games", "one_move")  # (a first list of one move was read as lgn)
    one_move.write_text(f"# brandubh\n{moves.split()[0]}\n")
    assert [check(source).valid for source in read_sources(str(one_move))] == [True]


def test_move_lists_under_a_header_naming_their_game_and_a_blank_line_are_move_lists(tmp_path):
    """A blank line between a .csv's `# brandubh` header and its move lists alone: read as move lists,
    as without it (the blank line was taken for the first game, no move list: the file read as CSV,
    each list an error, 'a line of a CSV move list is moves,…')."""
    moves = CSV_GAME.split(",")[0]
    (tmp_path / "games.csv").write_text(f"# brandubh\n\n{moves}\n")
    games = [check(source) for source in read_sources(str(tmp_path / "games.csv"))]
    assert [(game.valid, game.record.tags["Game"], game.record.main.comments) for game in games] == [
        (True, "brandubh", [])
    ]
    assert format_of("games.csv", f"# brandubh\n\n{CSV_GAME}\n") == "csv"


@pytest.mark.parametrize("name", ["games.csv", "games.txt"])
def test_move_lists_under_a_header_naming_their_game_with_lines_ended_by_cr_alone(tmp_path, name):
    """A file whose lines end in CR alone (an old Mac's), `# brandubh` above move lists alone: read as
    move lists of that game, as with LF (its header was taken to run to the file's end: read as lgn,
    'not a game record in any format lusoria reads')."""
    moves = CSV_GAME.split(",")[0]
    (tmp_path / name).write_bytes(f"# brandubh\r{moves}\r{moves.split()[0]}\r".encode())
    games = [check(source) for source in read_sources(str(tmp_path / name))]
    assert [(game.valid, game.record.tags["Game"]) for game in games] == [(True, "brandubh"), (True, "brandubh")]


@pytest.mark.parametrize("row", ["{moves} 0 1 White", "{moves},1,White", "{moves};0;1"])
def test_a_csv_file_under_a_header_naming_its_game_says_a_line_that_is_no_game_at_its_place(row):
    """A `.csv` whose header names its game and whose lines are neither the engines' CSV games nor
    move lists alone (counts and status after blanks; a field left out): it was read as lgn ('not a
    game record in any format lusoria reads', at the header); now each line is said at its place,
    with the columns a line holds."""
    text = "# brandubh\n" + row.format(moves=CSV_GAME.split(",")[0]) + "\n"
    assert format_of("games.csv", text) == "csv"
    [game] = [check(source) for source in read_text(text, "csv", "games.csv")]
    assert [(d.rule, d.line, d.column, d.message) for d in game.diagnostics] == [("syntax", 2, 1, CSV_LINE)]


@pytest.mark.parametrize(
    "row, found", [("zz", "zz"), ("{moves} 0 1 White", "0"), ("zz;0;1", None)], ids=["a word", "counts", "a CSV line"]
)
def test_a_txt_file_under_a_header_naming_its_game_says_a_line_that_is_no_game_as_its_format_does(tmp_path, row, found):
    """A `.txt` whose header names its game and whose first line is no move (`zz`) was read as a CSV
    file, its line said as a CSV line: a line of no CSV delimiter is a move list's, said as a move
    list's; one that holds a delimiter is still a CSV file's, and a `.csv` says its line as a CSV line."""
    text = "# brandubh\n" + row.format(moves=CSV_GAME.split(",")[0]) + "\n"
    (tmp_path / "games.txt").write_text(text)
    [game] = [check(source) for source in read_sources(str(tmp_path / "games.txt"))]
    said = [(d.line, d.column, d.message) for d in game.diagnostics]
    if found is None:
        assert (text_format("games.txt", text), said) == ("csv", [(2, 1, CSV_LINE)])
    else:
        expected = f"found '{found}', expected a move such as e2-c2 or f9-f5xg5, 'resigned' or 'timeout'"
        assert (text_format("games.txt", text), said[:1]) == ("tafl", [(2, text.index(found) - 10, expected)])
    assert format_of("games.csv", text) == "csv"


@pytest.mark.parametrize("delimiter", [",", ";"])
def test_a_txt_csv_file_whose_first_line_under_its_header_is_a_date_is_read_as_csv(tmp_path, delimiter):
    """A `.txt` of CSV rows under `# brandubh` whose first line is no move and holds no delimiter (a
    date) was read as move lists, every row an error ('found 'd3-f3;0;0;Ongoing''): the rows below
    it are a CSV file's, that line said at its place as a CSV line."""
    row = delimiter.join([CSV_GAME.split(",")[0], "0", "1", "White"])
    text = f"# brandubh\n2026-05-01\n{row}\n"
    (tmp_path / "games.txt").write_text(text)
    games = [check(source) for source in read_sources(str(tmp_path / "games.txt"))]
    said = [[(d.line, d.column, d.message) for d in game.diagnostics] for game in games]
    assert text_format("games.txt", text) == "csv"
    assert said == [[(2, 1, CSV_LINE.replace(",", delimiter))], []]


@pytest.mark.parametrize("delimiter", [",", ";"])
def test_a_csv_field_quoted_is_read_whole_whatever_delimiter_it_holds(delimiter):
    """A `;` inside the quoted moves of a `;` file (a `,` in a `,` file) made the row five fields: the
    file was read as lgn, 'not a game record in any format lusoria reads'."""
    moves, *others = CSV_GAME.split(",")
    cut = moves.index(" ", 20)
    row = delimiter.join([f'"{moves[:cut]}{delimiter}{moves[cut:]}"', *others])
    assert format_of("games.csv", f"{row}\n") == "csv"
    [game] = [check(s) for s in read_text(f"{row}\n", "csv", "brandubh.csv")]
    word = moves[:cut].rsplit(" ", 1)[-1] + delimiter
    assert [(d.rule, d.line, d.column, d.text) for d in game.diagnostics] == [
        ("syntax", 1, 2 + cut - len(word) + 1, word)
    ]
    assert game.diagnostics[0].message.startswith(f"found '{word}', expected a move such as e2-c2")


def test_a_quote_that_begins_a_csv_games_moves_is_said_at_its_place():
    """The first character of the quoted moves (the mutant looked for a quote past it only)."""
    moves, *others = CSV_GAME.split(",")
    [game] = [check(s) for s in read_text(f'"""{moves}",0,1,White\n', "csv", "brandubh.csv")]
    assert [(d.rule, d.line, d.column, d.text) for d in game.diagnostics] == [("syntax", 1, 2, '""')]
    assert game.diagnostics[0].message.startswith("found '\"\"', a quote in the moves")


def test_a_quote_written_twice_in_a_quoted_csv_field_is_read_as_the_csv_module_reads_it():
    """`""` in a quoted field is a quote, as the csv module reads it: a status or a count holding one is
    said with the field read (the line was said as no CSV game, at its first column, or read as lgn); in
    the moves, where no quote stands, the quote is said at its place."""
    moves, *others = CSV_GAME.split(",")
    cut = moves.index(" ", 20) + 1
    quoted_moves = f'"{moves[:cut]}""{moves[cut:]}""",0,1,White'
    quoted_status = f'"{moves}",0,1,"Wh""ite"'
    quoted_count = f'{moves},"1""",1,White'
    text = "\n".join([quoted_moves, quoted_status, quoted_count]) + "\n"
    assert format_of("games.csv", quoted_moves + "\n") == "csv"
    assert list(csv.reader(io.StringIO(text)))[1][3] == 'Wh"ite'
    said = [
        [(d.rule, d.line, d.column, d.text, d.message) for d in check(s).diagnostics]
        for s in read_text(text, "csv", "brandubh.csv")
    ]
    assert said == [
        [
            (
                "syntax",
                1,
                cut + 2,
                '""',
                "found '\"\"', a quote in the moves (a quoted CSV field writes a quote twice): a move list holds no quote",
            )
        ],
        [
            (
                "syntax",
                2,
                len(moves) + 9,
                'Wh""ite',
                "the status is White, Black, Ongoing, Draw or empty, not 'Wh\"ite' (did you mean White?)",
            )
        ],
        [
            (
                "B6",
                3,
                len(moves) + 3,
                '1""',
                "the defenders lost are counted '1\"', which is no count (0, 1, 2 …); the moves list 0",
            )
        ],
    ]


@pytest.mark.parametrize(
    "names, message",
    [
        ("moves,defenders lost,status", "attackers lost is not named"),
        ("moves,status", "defenders lost and attackers lost are not named"),
        ("id,moves,defenders lost,attackers lost,status", "'id' names none of them"),
        ("moves;defenders lost;attackers lost;status;result", "'result' names status again"),
    ],
)
def test_a_csv_header_of_other_than_four_names_says_the_names_expected(tmp_path, names, message):
    """A header of 3 or 5 names was read as lgn: 'not a game record in any format lusoria reads'."""
    delimiter = ";" if ";" in names else ","
    (tmp_path / "brandubh.csv").write_text(f"{names}\n{CSV_GAME.replace(',', delimiter)}\n")
    header, row = [check(s) for s in read_sources(str(tmp_path / "brandubh.csv"))]
    named = "moves" if "not named" in message else message.split("'")[1]  # the first name, or the one said
    assert [(d.rule, d.line, d.column, d.text, d.message) for d in header.diagnostics] == [
        (
            "syntax",
            1,
            names.index(named) + 1,
            named,
            "the column names are moves, defenders lost, attackers lost and status, in any order, each once "
            f"(a name holding move, defender, attacker, status or result): {message}",
        )
    ]
    assert row.valid and row.source.line == 2  # in the engines' order


TSV_HEADER = "moves\tdefenders lost\tattackers lost\tstatus"


def test_a_tsv_file_under_the_engines_header_separated_by_tabs_reads_as_its_csv():
    """A spreadsheet's 'tab-separated' export: its header tells the tabs, and a row of four fields
    leaves the moves their spaces; it was read as lgn."""
    rows = (FIXTURES / "csv/brandubh.csv").read_text().splitlines()
    tsv = "\n".join([TSV_HEADER, *(row.replace(",", "\t") for row in rows)]) + "\n"
    assert format_of("games.csv", tsv) == "csv"
    as_csv = [said(check(s), False) for s in read_text("\n".join(rows) + "\n", "csv", "brandubh.csv")]
    assert [said(check(s), False) for s in read_text(tsv, "csv", "brandubh.csv")] == as_csv
    assert len(as_csv) == 4


def test_a_tsv_row_of_tabs_between_its_moves_is_said_with_what_to_do():
    moves, *others = CSV_GAME.split(",")
    text = f"{TSV_HEADER}\n" + "\t".join([moves.replace(" ", "\t", 1), *others]) + "\n"
    [row] = [check(s) for s in read_text(text, "csv", "brandubh.csv")]
    assert [(d.rule, d.line, d.column, d.message) for d in row.diagnostics] == [
        (
            "syntax",
            2,
            1,
            "a line of a CSV move list is moves, defenders lost, attackers lost and status, separated by tabs (as "
            "the header on line 1 orders them); this line has more fields: a tab is a blank between moves too, so separate its moves by spaces",
        )
    ]


def test_a_row_of_tabs_under_a_header_of_commas_is_not_told_to_separate_its_moves_by_spaces():
    """The advice of a tab-separated file's row of more fields (`delimiter == TAB and …`) is not a comma-separated
    file's, whose line is no row of any separator (h80b: `and` made `or` passed the tests)."""
    moves, *others = CSV_GAME.split(",")
    text = "moves,defenders lost,attackers lost,status\n" + "\t".join([moves.replace(" ", "\t", 1), *others]) + "\n"
    [row] = [check(s) for s in read_text(text, "csv", "brandubh.csv")]
    assert [(d.rule, d.line, d.column, d.message) for d in row.diagnostics] == [
        (
            "syntax",
            2,
            1,
            "a line of a CSV move list is moves,defenders lost,attackers lost,status (as the header on line 1 orders "
            "them)",
        )
    ]


def test_tab_separated_games_without_their_header_are_said_with_the_header_to_add():
    """Tabs are read as separators only under a header they separate: a tab is a blank in a move list."""
    moves, *others = CSV_GAME.split(",")
    text = "\t".join([moves, *others]) + "\n"
    assert format_of("games.csv", text) == "csv"  # it was read as lgn: 'not a game record in any format'
    [row] = [check(s) for s in read_text(text, "csv", "brandubh.csv")]
    assert [(d.rule, d.line, d.column, d.text, d.message) for d in row.diagnostics] == [
        (
            "syntax",
            1,
            len(moves) + 1,
            "\t",
            "a line of a CSV move list is moves,defenders lost,attackers lost,status; this line separates its "
            "fields by tabs, which a tafl move list has as blanks too: lusoria reads tabs as separators under a "
            "first line of the column names separated by tabs",
        )
    ]


def test_an_input_is_within_the_current_directory_as_windows_names_folders(monkeypatch):
    """On Windows a folder is one in any case (`C:\\Users\\Me` typed `c:\\users\\me`): an input typed so
    is named from the current directory, as one typed as the directory says it (it was named from the
    folder above its own, as one outside); one on another drive is outside it."""
    import pathlib

    from lusoria.formats import convert as converting

    monkeypatch.setattr(converting, "PurePath", pathlib.PureWindowsPath)
    assert converting._is_within(r"c:\users\me\round1", r"C:\Users\Me")
    assert converting._is_within(r"C:\Users\Me", r"C:\Users\Me")
    assert not converting._is_within(r"C:\Users\Mel\round1", r"C:\Users\Me")
    assert not converting._is_within(r"D:\Users\Me\round1", r"C:\Users\Me")
