"""Hostile input to the readers of other formats (issue 32): numbers of any length, the token
bound, deep nesting, and what the OTN reader must refuse rather than guess. Each problem is a
diagnostic with its rule and place, never a traceback."""

import codecs
import io
import random
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import ROOT
from hypothesis import given
from hypothesis import strategies as st

from lusoria.api import canonical_text, convert, format_record, random_record
from lusoria.cli import main
from lusoria.formats import read_text
from lusoria.formats.convert import Converted
from lusoria.formats.otn_writer import MAX_DEPTH
from lusoria.formats.sources import read_sources, walk
from lusoria.notation.model import Line, Ply
from lusoria.notation.reader import MAX_TOKEN
from lusoria.notation.sources import HEAD
from lusoria.notation.writer import quote, write_record
from lusoria.validator.base import OptionError
from lusoria.validator.replay import check
from lusoria.validator.tablut import Tablut
from lusoria.validator.tafl_rules import read_record

FIXTURES = ROOT / "tests" / "fixtures" / "formats"
RESIGNED = (FIXTURES / "otn" / "resigned-from-a-position.otg").read_text()
HEADER, _ = RESIGNED.split("\n\n")  # the tags, and the moves: "1. Ke5-c5- d1-d2\n2. Kc5-c8 ---\n"
HUGE = "9" * 5000  # more digits than int() converts (4,300)


def diagnostics(text: str, format: str = "otn") -> list[tuple]:
    """(rule, line, column, message) of each diagnostic of each record read from `text`."""
    return [
        (d.rule, d.line, d.column, d.message)
        for source in read_text(text, format, "hostile")
        for d in check(source).diagnostics
    ]


def only(text: str, format: str = "otn") -> tuple:
    (found,) = diagnostics(text, format)
    return found


# -- OTN: numbers ----------------------------------------------------------------------------------


def test_otn_turn_numbers_of_any_length_are_an_error_at_the_turn():
    rule, line, column, message = only(f"{HEADER}\n\n{HUGE}. Ke5-c5 d1-d2\n")
    assert (rule, line, column) == ("syntax", 8, 1)
    assert message == f"found turn {'9' * 40}…, expected turn 1 (turns are numbered from 1, one after another)"


def test_otn_variation_addresses_of_any_length_are_an_error_at_the_address():
    rule, line, column, message = only(f"{HEADER}\n\n1. Ke5-c5 d1-d2\n1a.{HUGE}.1a. Ke5-d5\n")
    assert (rule, line, column) == ("syntax", 9, 1)
    assert message.startswith(f"'1a.{'9' * 37}…' ({len(HUGE) + 7:,} characters) is not a variation address")
    assert "numbers from 1 to 1,000,000,000" in message


def test_otn_a_long_word_where_a_turn_is_expected_is_quoted_shortly_with_its_length():
    """It was cut after 40 characters unsaid: `found 'ZZZ…Z'` looked like the whole word."""
    for word, shown in (("Z" * 100_000, f"'{'Z' * 40}…' (100,000 characters)"), ("Z" * 40, f"'{'Z' * 40}'")):
        rule, line, column, message = only(f"{HEADER}\n\n1. Ke5-c5 d1-d2\n{word}\n")
        assert (rule, line, column) == ("syntax", 9, 1)
        assert message.startswith(f"found {shown}, expected a turn")


def test_otn_addresses_with_leading_zeros_name_the_same_ply():
    text = f"{HEADER}\n\n1. Ke5-c5 d1-d2\n01a.01.01a. Ke5-d5\n"
    [source] = read_text(text, "otn", "zeros.otg")
    report = check(source)
    assert report.valid, report.diagnostics
    assert [line.plies[0].text for line in report.record.main.plies[0].variations] == ["Ke5-d5"]


def test_otn_a_resignation_ends_its_variation_and_what_follows_it_there_is_not_read():
    text = f"{HEADER}\n\n1. Ke5-c5 d1-d2\n1a.1.1a. Ke5-d5 --- d1-d3\n"
    [source] = read_text(text, "otn", "resigned.otg")
    report = check(source)
    assert report.valid, report.diagnostics
    [variation] = report.record.main.plies[0].variations
    assert [ply.text for ply in variation.plies] == ["Ke5-d5"]
    note = "otn reader: a resignation (---) ends variation 1a.1.1a.; lusoria's variations cannot hold it"
    assert note in report.record.main.comments  # the record's, where the reader's notes go


# -- OTN: what the reader used to guess -------------------------------------------------------------


@pytest.mark.parametrize("result", ["2", "+1", "1-0", "", "9" * 40])  # (h78c: 40 characters are shown whole, no `…`)
def test_otn_a_result_that_is_none_of_otns_is_an_error(result):
    rule, line, column, message = only(RESIGNED.replace("[result:-1]", f"[result:{result}]"))
    assert (rule, line, column) == ("tag", 5, 9)
    assert message == (
        f"[result:{result}] is not an OTN result: 1 (the attackers won), -1 (the defenders won), "
        "0 (a draw) or ? (not known)"
    )


def test_otn_a_long_result_is_quoted_by_its_first_20_characters():
    text = RESIGNED.replace("[result:-1]", f"[result:{'9' * 30}]")
    [found] = [d for source in read_text(text, "otn", "hostile") for d in check(source).diagnostics]
    assert (found.rule, found.line, found.column, found.text) == ("tag", 5, 9, "9" * 20)


def test_otn_a_repeated_tag_is_an_error_at_the_second_and_the_game_is_read_with_the_first():
    """As a tag written twice in lgn: it stopped the game, whose plies went unchecked."""
    text = RESIGNED.replace("[result:-1]", "[result:-1]\n[Result:1]").replace("Kc5-c8", "Kc5-a8")
    [source] = read_text(text, "otn", "hostile")
    report = check(source)
    [twice, illegal] = [(d.rule, d.line, d.column, d.message) for d in report.diagnostics]
    assert twice == (
        "tag",
        6,
        2,
        "the tag [Result:…] appears twice (the first, on line 5, is the one read): an OTN game has one of each",
    )
    assert illegal[:2] == ("T2", 10) and report.tags["Result"] == "1-0"  # -1: the defenders (White) won


def test_otn_a_tag_written_three_times_says_so_at_the_second_and_the_third():
    """It said "a second [Result:…] tag" at the third too."""
    text = RESIGNED.replace("[result:-1]", "[result:-1]\n[Result:1]\n[RESULT:1]")
    [source] = read_text(text, "otn", "hostile")
    said = [(d.line, d.message) for d in check(source).diagnostics if d.rule == "tag"]
    assert said == [
        (
            line,
            f"the tag [{key}:…] appears 3 times (the first, on line 5, is the one read): an OTN game has one of each",
        )
        for line, key in ((6, "Result"), (7, "RESULT"))
    ]


@pytest.mark.parametrize(
    "line, message",
    [
        ("[event:Club evening", "the [event:…] tag is not closed with ']' on its line"),
        (
            "  [round:3] Karin's",
            "found a line that is not a tag before the first turn: an OTN header is [key:value] tags, one a line",
        ),
        (
            "a note typed in",
            "found a line that is not a tag before the first turn: an OTN header is [key:value] tags, one a line",
        ),
    ],
)
def test_otn_a_header_line_that_is_not_a_tag_is_an_error_at_it(line, message):
    """OpenTafl reads the tags up to the first line that is not one: the rest are not silently dropped."""
    text = RESIGNED.replace("[result:-1]\n", f"[result:-1]\n{line}\n")
    assert only(text) == ("syntax", 6, 1 + len(line) - len(line.lstrip()), message)
    unclosed_rules = RESIGNED.replace("[rules:", "[Rules:").replace("/]\n", "/\n")
    assert only(unclosed_rules)[:2] == ("syntax", 6) and "[Rules:…] tag is not closed" in only(unclosed_rules)[3]


def test_otn_a_repeated_rules_entry_is_an_error_at_the_second():
    text = RESIGNED.replace("starti:", "start:/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/ start:")
    second = text.split("\n")[5].rindex("start:") + 1
    assert only(text) == ("tag", 6, second, "the rules key start appears twice")  # as in a Rules tag (was: given twice)
    with pytest.raises(OptionError) as raised:  # a catalogue variant's rules record, in the same words
        read_record("dim:9 esc:c dim:11")
    assert (str(raised.value), raised.value.written) == ("the rules key dim appears twice", "dim")
    with pytest.raises(OptionError) as raised:  # `starti` is read as `start`, and counted so
        read_record("start:/3/ esc:c starti:/3/ start:/3/")
    assert str(raised.value) == "the rules key start appears 3 times"


def test_otn_a_second_game_pasted_after_the_first_is_an_error_at_its_rules_record():
    """Two games in one file: the second's header is no comment of the first's last turn, and its
    turn 1 is no numbering slip ("found turn 1, expected turn 3")."""
    text = f"{HEADER}\n\n1. Ke5-c5- d1-d2\n2. Kc5-c8 d2-d3\n\n{HEADER}\n\n1. Ke5-c5- d1-d2\n"
    line = text.split("\n").index(HEADER.split("\n")[-1], 7) + 1
    assert only(text) == (
        "syntax",
        line,
        1,
        "a [rules:…] tag after the moves (the game's is on line 6): an OTN file holds one game",
    )


@pytest.mark.parametrize(
    "moves, place, message",
    [
        ("2. Ke5-c5- d1-d2\n", (8, 1), "found turn 2, expected turn 1 (turns are numbered from 1, one after another)"),
        (
            "1. Ke5-c5- d1-d2\n1. Kc5-c8 ---\n",
            (9, 1),
            "found turn 1, expected turn 2 (turns are numbered from 1, one after another)",
        ),
        (
            "1. Ke5-c5- d1-d2 Kc5-c8\n",
            (8, 18),
            "found a third move 'Kc5-c8' in turn 1: a turn holds the two sides' moves",
        ),
        (
            "1. Ke5-c5- d1-d2 2. Kc5-c8 ---\n",
            (8, 18),
            "found '2.' on the line of turn 1: each turn is on a line of its own",
        ),
        (
            "1. Ke5-c5- 2. d1-d2\n",
            (8, 12),
            "found '2.' on the line of turn 1: each turn is on a line of its own",
        ),
        (
            "1. Ke5-c5-\n2. d1-d2 Kc5-c8\n",
            (9, 1),
            "turn 2 follows a turn of one move: a turn holds the two sides' moves, only the last may hold one",
        ),
    ],
)
def test_otn_turns_out_of_order_or_of_three_moves_are_errors(moves, place, message):
    assert only(f"{HEADER}\n\n{moves}") == ("syntax", *place, message)


@pytest.mark.parametrize(
    "moves, marked",
    [
        ("1. Ke5-c5- d1-d2 Kc5-c8xc9/d8/b8/c7/a1/a2\n", "Kc5-c8xc9/d8/b8/c7/a"),
        (f"{'1' * 30}. Ke5-c5 d1-d2\n", "1" * 20),
    ],
)
def test_otn_a_turns_problem_marks_the_first_20_characters_of_what_it_found(moves, marked):
    [diagnostic] = [
        d for source in read_text(f"{HEADER}\n\n{moves}", "otn", "hostile") for d in check(source).diagnostics
    ]
    assert (diagnostic.rule, diagnostic.line, diagnostic.text) == ("syntax", 8, marked)


# -- every reader: the token bound ----------------------------------------------------------------

LONG = "x" * MAX_TOKEN  # one more character makes a token too long


@pytest.mark.parametrize(
    "format, text, place",
    [
        ("otn", RESIGNED.replace("[event:lusoria fixtures]", f"[event:{LONG[7:]}]"), (1, 1)),
        ("otn", f"{HEADER}\n\n1. Ke5-c5- d1-d2\n[{LONG[1:]}]\n", (9, 1)),
        ("tafl", f"e2-c2 f9-f5 d1-d3{LONG[5:]}x\n", (1, 13)),
        (
            "csv",
            f"# tablut\ne2-c2 f9-f5 d1-d3{LONG[17:]}x,0,0,Ongoing\n",
            (2, 13),
        ),  # (past the csv module.s field limit: no internal error)
        ("csv", f'# tablut\n"e2-c2 f9-f5 d1-d3{LONG[18:]}x",0,0,Ongoing\n', (2, 14)),
    ],
)
def test_every_reader_refuses_a_token_longer_than_lgn_allows(format, text, place):
    rule, line, column, message = only(text, format)
    assert (rule, (line, column), message.split("; a move list does not say its game")[0]) == (
        "syntax",
        place,
        f"a token of {MAX_TOKEN + 1:,} characters; the longest allowed is {MAX_TOKEN:,}",
    )


def test_a_tablut_challenge_log_refuses_a_long_field():
    log = (FIXTURES / "tablut-challenge" / "Rossi_vs_Verdi_1763722800000_gameLog.txt").read_text()
    players = next(line for line in log.split("\n") if "Players:" in line)
    long = log.replace(players, players.replace("Rossi", LONG[:-4] + "Rossi"))
    rule, line, column, message = only(long, "tablut-challenge")
    assert (rule, line, message) == (
        "syntax",
        log[: log.index(players)].count("\n") + 1,
        f"a token of {MAX_TOKEN + 1:,} characters; the longest allowed is {MAX_TOKEN:,}",
    )
    assert column == players.index("Rossi") + 1


# -- the aagenielsen.dk scrape: JSON ------------------------------------------------------------------

SAAMI = '"AageGameTypeName": "Historical Hnefatafl 9x9 (Saami Tablut)"'


def test_aage_json_nested_deeper_than_the_bound_is_an_error_and_the_games_before_stand():
    deep = '{%s, "Moves": %s}' % (SAAMI, "[" * 50_000 + "]" * 50_000)
    text = '[{%s, "Moves": "f1-f3 d5-d2"},\n %s]' % (SAAMI, deep)
    first, second = [check(source) for source in read_text(text, "aage", "deep.json")]
    assert first.valid and first.plies == 2
    [(rule, line, column, message)] = [(d.rule, d.line, d.column, d.message) for d in second.diagnostics]
    second_line = text.split("\n")[1]
    assert (rule, line, message) == ("syntax", 2, "broken JSON: arrays and objects nested deeper than 64")
    assert column == second_line.index("[") + 63 + 1  # the 64th bracket opens level 65 (the game's object is 1)


def test_aage_games_on_one_line_lose_no_game_before_one_nested_too_deep():
    """h78c: a file of games on one line (`[{…}, {…}]`: no game starts a line) reads each game from a window that
    holds the games after it; the depth measured past the first game's end (notation/json_input.py `too_deep`)
    said it nested deeper than 64 at the second's brackets, and the first game, valid, was lost."""
    deep = '{%s, "Moves": %s}' % (SAAMI, "[" * 70 + "]" * 70)
    text = '[{%s, "Moves": "f1-f3 d5-d2"}, %s]' % (SAAMI, deep)
    first, second = [check(source) for source in read_text(text, "aage", "one-line.json")]
    assert first.valid and first.plies == 2
    [(rule, line, column, message)] = [(d.rule, d.line, d.column, d.message) for d in second.diagnostics]
    assert (rule, line, message) == ("syntax", 1, "broken JSON: arrays and objects nested deeper than 64")
    assert column == text.index("[" * 64) + 63 + 1


@pytest.mark.parametrize("layout", ["one a line", "an indented array", "one a line, CRLF"])
def test_aage_a_broken_game_does_not_lose_the_games_after_it(layout):
    # the reading stopped at the broken game: the third game was never read (CRLF: the string ends at the `\r`
    # of its line's end, said as at a `\n`, h80b)
    game = '{%s, "Moves": "f1-f3"}' % SAAMI
    games = [game, game[:30], game]
    text = "[\n  " + ",\n  ".join(games) + "\n]" if layout == "an indented array" else "\n".join(games)
    text = text.replace("\n", "\r\n") if layout.endswith("CRLF") else text
    reports = [check(source) for source in read_text(text, "aage", "three.json")]
    assert [report.valid for report in reports] == [True, False, True]
    [broken] = reports[1].diagnostics
    line = 3 if layout == "an indented array" else 2
    assert (broken.line, broken.message) == (line, "broken JSON: a string not closed before its line ends")


@pytest.mark.parametrize(
    "joined",
    ["\ufeff{game}\n\ufeff{game}", "{game}\x1a{game}\x1a", "[{game},\ufeff{game}]\x1a"],
    ids=["files saved with a byte order mark", "files that end with Ctrl-Z", "an array"],
)
def test_aage_games_of_files_joined_with_their_marks_are_read_each(joined):
    """h80c: two downloads saved by Notepad (a byte order mark each) and joined (`copy /b`, `cat`): the second
    game was broken JSON at the mark, stored unparsable; a DOS end-of-file mark (Ctrl-Z) made a broken game too."""
    game = '{%s, "Moves": "f1-f3"}' % SAAMI
    reports = [check(source) for source in read_text(joined.format(game=game), "aage", "joined.json")]
    assert [(report.valid, report.plies) for report in reports] == [(True, 1), (True, 1)]


def test_aage_games_of_an_array_without_a_comma_between_them_are_broken_json_there_and_both_read():
    game = '{%s, "Moves": "f1-f3"}' % SAAMI
    reports = [check(source) for source in read_text("[%s\n%s]" % (game, game), "aage", "comma.json")]
    assert [report.valid for report in reports] == [True, False, True]
    [missing] = reports[1].diagnostics
    assert (missing.rule, missing.line, missing.column) == ("syntax", 2, 1)
    assert missing.message == "broken JSON: expected ',' or ']'"
    # (the broken record is the comma's empty place: its text is the line it stands at, which validate shows under
    # its error, not the line before it, nor none; h80b: `max(self.start, self.end - 1)` made `self.end - 1`)
    sources = list(read_text("[%s\n%s]" % (game, game), "aage", "comma.json"))
    assert (sources[1].line, sources[1].text) == (2, f"{game}]")


def test_aage_a_game_never_closed_loses_no_game_after_it():
    # the brackets were counted on into the games after it: 63 games said "nested deeper than 64" as one
    game = '{%s, "Moves": ["f1-f3", "d5-d2"]}' % SAAMI
    text = "\n".join([game[:-1], game] * 100)
    reports = [check(source) for source in read_text(text, "aage", "open.json")]
    assert [report.valid for report in reports] == [False, True] * 100
    assert {(d.line % 2, d.column, d.message) for report in reports[::2] for d in report.diagnostics} == {
        (0, 1, "broken JSON: expected ',' or the end of the object or array")  # at the next game's line
    }


def test_aage_a_game_that_holds_a_line_starting_with_a_brace_is_read_whole():
    """A game is first read up to the next line that starts with `{` (a game's start, where a broken
    one ends): one that goes on past it (an object in a list, json.dump indented) is read whole."""
    game = '{%s, "Moves": ["f1-f3", "d5-d2"], "Notes": [\n{"by": "x"}\n]}' % SAAMI
    reports = [check(source) for source in read_text(f"[{game},\n{game}]", "aage", "notes.json")]
    assert [(report.valid, report.plies, report.source.line) for report in reports] == [(True, 2, 1), (True, 2, 4)]


def test_aage_json_broken_at_the_end_of_the_text_is_a_record_of_the_game_as_it_is():
    """The record of a game broken where the text ends (past its last character) is the game's
    text, from its first line (new user 24: it was the text from the place it breaks, what `fmt`
    wrote back and the archive kept as the record's text: a fragment). A scrape cut short (a
    download broken off) was said as JSON's own 'Expecting value', at a blank line past its last
    move; it says so (new user 23)."""
    text = '{"Moves":\n\n'
    [source] = read_text(text, "aage", "end.json")
    assert (source.line, source.text) == (1, text)
    cut = "broken JSON: the text ends before its JSON does (cut short?): expected a value (a string, a number, true, "
    cut += "false, null, an object or an array)"
    assert only(text, "aage") == ("syntax", 3, 1, cut)
    assert only('{"Moves": ["e3-c3",\n', "aage") == ("syntax", 2, 1, cut)
    inside = "broken JSON: the text ends before its JSON does (cut short?): a string not closed (no '\"' at its end)"
    assert only('{"Moves": ["e3-c3",\n  "', "aage") == ("syntax", 2, 3, inside)  # cut inside a string: said so too
    assert (
        only('{"Moves": [1 2]}\n', "aage")[3] == "broken JSON: expected ',' or the end of the object or array"
    )  # broken, not cut short
    assert only('{"Moves": [1 x\n', "aage")[2:] == (
        14,
        "broken JSON: expected ',' or the end of the object or array",
    )  # a last word breaks it


@pytest.mark.parametrize("layout", ["one a line", "an indented array"])
def test_aage_a_broken_game_is_a_record_of_its_text_as_it_is_from_its_first_line(layout):
    game = '{%s, "Moves": "f1-f3"}' % SAAMI
    games = [game, game[:30], game]
    text = "\n".join(games) if layout == "one a line" else "[\n  " + ",\n  ".join(games) + "\n]"
    broken = list(read_text(text, "aage", "three.json"))[1]
    assert (broken.line, broken.text.strip(" ,\n")) == (2 if layout == "one a line" else 3, game[:30])
    assert format_record(broken)[0].strip(" ,\n") == game[:30]  # `lusoria fmt`: the record as it was


def test_aage_numbers_of_any_length_are_kept_as_text():
    text = '{%s, "Moves": "f1-f3 d5-d2", "WhoWon": %s, "AageGameTypeKey": -%s.5e%s}' % (
        SAAMI,
        "9" * 100_000,
        HUGE,
        HUGE,
    )
    [source] = read_text(text, "aage", "digits.json")
    report = check(source)
    said = f"WhoWon is White, Black, Draw, Ongoing or empty, not '{'9' * 40}…' (100,000 characters)"  # names no side: said, cut short
    assert [(d.rule, d.column, d.message) for d in report.diagnostics] == [("syntax", text.index("999") + 1, said)]
    assert report.record.result == "*"


@pytest.mark.parametrize("field", ["WhiteSidePlayerName", "Moves"])
def test_aage_a_lone_surrogate_is_an_error_at_its_field(field):
    value = '"\\udc00"' if field != "Moves" else '["f1-f3", "\\ud800x"]'
    text = (
        '{%s, "Moves": "f1-f3", "%s": %s}' % (SAAMI, field, value)
        if field != "Moves"
        else '{%s, "Moves": %s}' % (SAAMI, value)
    )
    rule, line, column, message = only(text, "aage")
    at_value = text.index(f'"{field}": ') + len(field) + 5  # a list's [, a string's first character
    assert (rule, line, column) == ("syntax", 1, at_value + (field != "Moves"))
    assert (
        message == f"{field} holds \\u{'dc00' if field != 'Moves' else 'd800'}, half of a UTF-16 pair "
        "without its other half: no character"
    )


@pytest.mark.parametrize(
    "field, value, said",
    [
        ("WhiteSidePlayerName", '{"a": 1}', "an object"),  # was the tag [White "{'a': '1'}"]
        ("BlackSidePlayerName", '["x"]', "a list"),  # was [Black "['x']"]
        ("WhoWon", "true", "true"),  # was ignored, the record valid
        ("AageGameTypeName", "false", "false"),  # was "game type 'False' is none that lusoria knows"
    ],
)
def test_aage_a_field_that_is_no_string_is_an_error_at_its_value(field, value, said):
    game_type = "" if field == "AageGameTypeName" else SAAMI + ", "
    text = '{%s"Moves": "f1-f3", "%s": %s}' % (game_type, field, value)
    assert only(text, "aage") == ("syntax", 1, text.rindex(value) + 1, f"{field} is {said}, not a string")


@pytest.mark.parametrize(
    "type_field, column",  # at the value (past a string's quote); the object's start when there is none
    [("", 1), ('"AageGameTypeName": null, ', 22), ('"AageGameTypeName": "", ', 23)],
)
def test_aage_a_game_of_no_type_says_so(type_field, column):
    # it said "game type '' is none that lusoria knows" (and of null, "game type 'None'")
    text = '{%s"Moves": "f1-f3"}' % type_field
    said = "the game names no game type (AageGameTypeName), whose rules it follows"
    assert only(text, "aage") == ("tag", 1, column, said)


def test_aage_a_winner_of_null_is_no_winner_not_a_draw():
    # `"WhoWon": null` was read as "None", the site's draw (an error[result] after a king's escape)
    [source] = read_text('{%s, "Moves": "f1-f3", "WhoWon": null}' % SAAMI, "aage", "null.json")
    report = check(source)
    assert report.valid and report.record.result == "*"


@pytest.mark.parametrize(
    "moves, at, said",
    [
        (
            '"f1-f3}',
            '"',
            "the text ends before its JSON does (cut short?): a string not closed (no '\"' at its end)",
        ),  # (ends in the string)
        ('"f1-f3\tf3"}', "\t", "a control character (a tab?) inside a string, where JSON writes it escaped (\\t)"),
    ],
)
def test_aage_broken_json_is_said_without_a_dangling_at(moves, at, said):
    # the message ended "Unterminated string starting at", the place it meant left out
    text = '{%s, "Moves": %s' % (SAAMI, moves)
    assert only(text, "aage") == ("syntax", 1, text.rindex(at) + 1, f"broken JSON: {said}")


@pytest.mark.parametrize(
    "moves, said",
    [
        ('"f1-f3" "WhoWon": null}', "expected ',' or the end of the object or array"),
        ('"f1-f3", "WhoWon" null}', "expected ':' after a member's name"),
        (
            '"f1-f3", WhoWon: null}',
            "expected a member's name in double quotes (after a ',': the last member has none after it)",
        ),
        ('"f1-f3", "WhoWon": nul}', "expected a value (a string, a number, true, false, null, an object or an array)"),
        ('"f1-f3\\q"}', "a backslash that begins no escape of JSON's (a backslash itself is written \\\\)"),
        ('"f1-f3\\u12"}', "\\u not followed by four hexadecimal digits"),
    ],
)
def test_aage_broken_json_is_said_in_plain_words_not_pythons(moves, said):
    """note81: a broken game was said in Python's words (`Expecting ',' delimiter`, `Invalid \\escape`)."""
    assert only('{%s, "Moves": %s\n' % (SAAMI, moves), "aage")[3] == f"broken JSON: {said}"


def test_aage_a_field_given_twice_is_an_error_at_the_second():
    # the JSON decoder keeps the second, and "found 'x'" was said at the first `Moves`
    text = '{%s,\n"Moves": "f1-f3",\n"Moves": "x"}' % SAAMI
    assert only(text, "aage") == ("syntax", 3, 11, "Moves is given twice: a game gives each field once")
    three = text.replace('"x"}', '"x",\n"Moves": "y"}')
    assert only(three, "aage") == ("syntax", 3, 11, "Moves is given 3 times: a game gives each field once")


def test_aage_refuses_a_long_token_and_quotes_a_bad_move_shortly():
    text = '{%s, "Moves": "f1-f3 %s"}' % (SAAMI, "d5-d2" + "x" * MAX_TOKEN)
    token = len('"f1-f3 d5-d2"') + MAX_TOKEN  # the JSON string is the token
    assert only(text, "aage")[3] == f"a token of {token:,} characters; the longest allowed is {MAX_TOKEN:,}"
    rule, _, _, message = only('{%s, "Moves": "f1-f3 %s"}' % (SAAMI, "q" * 100_000), "aage")
    assert (
        message
        == f"found '{'q' * 40}…' (100,000 characters), expected a move such as e2-c2 or f9-f5xg5, 'resigned' or 'timeout'"
    )


def test_aage_a_long_game_type_is_quoted_shortly_with_its_length_in_its_error_and_the_note(tmp_path):
    """A game type of 100,000 characters was quoted whole, in the record's error and in the note of
    the records refused; a real type's name (56 characters at most) is quoted whole."""
    from lusoria.api import Note, records

    long, real = "Q" * 100_000, "Imaginary Hnefatafl 11x11 (club rules of the long winter, 2nd edition)"
    for kind, shown in ((long, f"'{'Q' * 100}…' (100,000 characters)"), (real, f"'{real}'")):
        text = '{"AageGameTypeName": "%s", "Moves": "f1-f3"}' % kind
        (tmp_path / "type.json").write_text(text)
        [note] = [str(item) for item in records([tmp_path / "type.json"]) if isinstance(item, Note)]
        assert only(text, "aage")[3] == f"game type {shown} is none that lusoria knows"
        assert note.startswith(f"note: 1 record of type {shown} refused: ")


@pytest.mark.parametrize(
    "count, said",
    [
        ("x" * 100_000, f"'{'x' * 40}…' (100,000 characters), which is no count (0, 1, 2 …)"),
        ("7" * 100_000, f"'{'7' * 40}…' (100,000 characters), and"),
        ("7" * 40, f"{'7' * 40}, and"),
    ],
)
def test_a_csv_count_of_any_length_is_quoted_shortly_with_its_length(count, said):
    [source] = read_text(f"b4-b3 c4-c5 d6-c6,{count},0,Ongoing\n", "csv", "brandubh.csv")
    assert check(source).diagnostics[0].message.startswith(f"the defenders lost are counted {said}")


# -- telling a file's format -------------------------------------------------------------------------


def formats_read(path) -> list[str]:
    return [source.format for source in read_sources(str(path))]


def test_a_move_list_whose_first_line_is_longer_than_the_head_read_is_tafl(tmp_path):
    line = " ".join(["e2-c2 c5-c2", "c2-e2 c2-c5"] * 500)  # 2,000 moves, 12,000 characters
    (tmp_path / "long.txt").write_text(line + " resigned\n")
    assert len(line) > HEAD and formats_read(tmp_path / "long.txt") == ["tafl"]
    assert [str(item) for item in walk([str(tmp_path)])] == [str(tmp_path / "long.txt")]


NOTEPAD = '[Game "tablut"]\n[White "Åsa Ström"]\n\n1. e3-c3 d1-d3 2. c3-c1 *\n'  # (a file Notepad saves)


@pytest.mark.parametrize(
    "name, bom, encoding",
    [
        ("scrape.json", codecs.BOM_UTF8, "utf-8"),
        ("scrape.json", b"", "utf-16"),
        ("scrape.json", b"", "utf-32"),
        ("game.otg", b"", "utf-16-le"),
        ("game.otg", b"", "utf-16-be"),
        ("notepad.lgn", codecs.BOM_UTF8, "utf-8"),
        ("notepad.lgn", b"", "utf-16"),
    ],
)
@pytest.mark.parametrize("told", ["utf-8", "cp1252", "latin-1"])
def test_a_byte_order_mark_says_the_encoding_and_the_format_is_read_past_it(tmp_path, name, bom, encoding, told):
    """A byte-order mark says the file's encoding whatever the encoding given: a file saved by Notepad in UTF-8,
    with its mark, in a folder of older files read with `--encoding cp1252`, was not read (`ï»¿[Game`)."""
    text = {".json": (FIXTURES / "aage" / "captures.json").read_text(), ".otg": RESIGNED, ".lgn": NOTEPAD}
    mark = {"utf-16-le": codecs.BOM_UTF16_LE, "utf-16-be": codecs.BOM_UTF16_BE}.get(encoding, b"")
    (tmp_path / name).write_bytes(bom + mark + text[Path(name).suffix].encode(encoding))
    [report] = [check(source) for source in read_sources(str(tmp_path / name), encoding=told)]
    assert report.source.format == {".json": "aage", ".otg": "otn", ".lgn": "lgn"}[Path(name).suffix]
    assert report.diagnostics == [] and report.plies == 3
    assert ('[White "Åsa Ström"]' in report.source.text) == name.endswith(".lgn")
    found = CliRunner().invoke(main, ["validate", "--encoding", told, str(tmp_path)])
    assert (found.exit_code, found.stdout.splitlines()[-1], found.stderr) == (
        0,
        "1 record: 1 valid, 0 invalid (0 errors, 0 warnings)",
        "",
    )
    piped = CliRunner().invoke(main, ["validate", "--encoding", told, "-"], input=(tmp_path / name).read_bytes())
    assert (piped.exit_code, piped.stdout.splitlines()[-1]) == (
        0,
        "1 record: 1 valid, 0 invalid (0 errors, 0 warnings)",
    )


def test_a_byte_that_a_file_marked_utf8_does_not_decode_is_said_so_whatever_the_encoding_given(tmp_path):
    """A byte that is not UTF-8 in a file whose byte-order mark says UTF-8 is said as not UTF-8, as the mark says,
    and no encoding is proposed: the mark decides, whatever `--encoding` (cp1252 would not read the file either)."""
    (tmp_path / "mixed.lgn").write_bytes(codecs.BOM_UTF8 + NOTEPAD.encode() + NOTEPAD.encode("cp1252"))
    for told in ("utf-8", "cp1252"):
        found = CliRunner().invoke(main, ["validate", "--encoding", told, str(tmp_path)])
        assert found.exit_code == 1
        assert found.stdout.splitlines()[0] == (
            f"{tmp_path / 'mixed.lgn'}:6:9: error[syntax]: byte 0xC5 is not valid utf-8 (as its byte-order mark says) "
            "(1 more byte that does not decode, on line 6): the record is not read, the others are"
        )
        assert found.stdout.splitlines()[-2] == "2 records: 1 valid, 1 invalid (1 error, 0 warnings)"
        piped = CliRunner().invoke(
            main, ["validate", "--encoding", told, "--from", "lgn", "-"], input=(tmp_path / "mixed.lgn").read_bytes()
        )
        assert piped.stdout.splitlines()[0].startswith(
            "<stdin>:6:9: error[syntax]: byte 0xC5 is not valid utf-8 (as its"
        )
        [_, uploaded] = read_sources(io.BytesIO((tmp_path / "mixed.lgn").read_bytes()), encoding=told)
        assert (str(uploaded.parsed).split(" (1 more")[0], uploaded.parsed.tries) == (
            "byte 0xC5 is not valid utf-8 (as its byte-order mark says)",
            (),
        )
    (tmp_path / "mixed.lgn").write_bytes(NOTEPAD.encode("cp1252"))  # (no mark: utf-8-sig given reads it as utf-8)
    found = CliRunner().invoke(main, ["validate", "--encoding", "utf-8-sig", str(tmp_path)])
    assert found.stdout.splitlines()[0].endswith(
        "byte 0xC5 is not valid utf-8 (1 more byte that does not decode, on line 2): the file's one game is not read; "
        "try --encoding latin-1 or cp1252"
    )


# -- lgn → OTN → lgn ------------------------------------------------------------------------------

RECORD = '[Game "tablut"]\n{tags}\n1. e3-c3 d1-d3 *\n'
READ_BY_LUSORIA = {"Game", "Variant", "Rules", "Position", "Board", "Result", "Date"}  # checked, or make the rules
TAG_NAMES = st.from_regex(r"[A-Za-z][A-Za-z0-9_]{0,11}", fullmatch=True).filter(lambda n: n not in READ_BY_LUSORIA)
TAG_VALUES = st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\r\n"), max_size=24)


def through_otn(text: str) -> tuple[str, Converted, Converted | None]:
    """The record's canonical lgn, it written as OTN, and that OTN converted back to lgn."""
    original = check(text)
    assert original.valid, original.diagnostics
    [otn] = convert([text], "otn")
    back = next(iter(convert([otn.text], "lgn", format="otn"))) if otn.text is not None else None
    return canonical_text(original), otn, back


@given(st.dictionaries(TAG_NAMES, TAG_VALUES, max_size=6))
def test_lgn_to_otn_to_lgn_keeps_every_tag(tags):
    text = RECORD.format(tags="".join(f"[{name} {quote(value)}]\n" for name, value in tags.items()))
    canonical, otn, back = through_otn(text)
    assert otn.problem is None and back.problem is None, (otn.problem, back and back.problem)
    assert back.text == canonical


@pytest.mark.parametrize(
    "tags, plain, carried",
    [
        (
            {"Event": "A]b", "Site": "x:y [z]", "Termination": "x]y"},
            [],
            ["Event=A%5Db", "Site=x%3Ay%20%5Bz%5D", "Termination=x%5Dy"],
        ),
        ({"My_Tag": "v", "a": "b", "Annotator": "  spaced  "}, [], ["My_Tag=v", "a=b", "Annotator=%20%20spaced%20%20"]),
        (
            {"Attackers": "not Black", "Event": "Club", "TimeControl": "7200 30/3"},
            ["[event:Club]", "[time-control:7200 30/3]"],
            ["Attackers=not%20Black"],
        ),
        ({"Foo": "1", "FOO": "2"}, ["[foo:1]"], ["FOO=2"]),  # OTN's names are read in any case
    ],
)
def test_a_tag_otn_cannot_hold_as_it_is_travels_percent_encoded(tags, plain, carried):
    canonical, otn, back = through_otn(RECORD.format(tags="".join(f"[{n} {quote(v)}]\n" for n, v in tags.items())))
    lines = otn.text.split("\n")
    assert [line for line in lines if line[1:].split(":")[0] in {"event", "time-control", "foo"}] == plain
    assert f"[lusoria-tags:{' '.join(carried)}]" in lines
    assert back.text == canonical


def test_a_tag_too_long_once_encoded_is_not_converted_and_the_message_names_it():
    brackets = MAX_TOKEN // 3 + 1  # each written %5D
    _, otn, _ = through_otn(RECORD.format(tags=f'[Event "{"]" * brackets}"]\n'))
    assert otn.text is None
    assert otn.problem == (
        f"the tags OTN cannot hold as they are (Event), percent-encoded in [lusoria-tags:…], make "
        f"{len('[lusoria-tags:Event=]') + 3 * brackets:,} characters: more than a token "
        f"lusoria reads ({MAX_TOKEN:,})"
    )


@pytest.mark.parametrize("entry", ["Event", "Ev%ent=x", "9x=y", "Event=%ED%B0%80", "Event=a%0Ab"])
def test_a_malformed_carried_tag_is_an_error_at_its_entry(entry):
    text = RESIGNED.replace("[result:-1]", f"[result:-1]\n[lusoria-tags:Site=x {entry}]")
    rule, line, column, message = only(text)
    assert (rule, line, column) == ("tag", 6, len("[lusoria-tags:Site=x ") + 1)
    assert message.startswith(f"lusoria-tags entry '{entry}' is not NAME=VALUE")


def nested(depth: int) -> str:
    """A legal game whose variations nest `depth` deep: variation k replaces ply k by itself and
    goes on with ply k + 1, where variation k + 1 hangs."""
    record = random_record(Tablut(), random.Random(3), max_plies=depth + 2)
    plies = [ply.text for ply in record.main.plies]
    assert len(plies) == depth + 2
    line = record.main
    for k in range(1, depth + 1):
        variation = Line([Ply(plies[k]), Ply(plies[k + 1])])
        line.plies[k if line is record.main else 1].variations.append(variation)
        line = variation
    return write_record(record)


def test_otn_is_written_for_variations_nested_up_to_the_bound_and_refused_deeper():
    canonical, otn, back = through_otn(nested(MAX_DEPTH))
    assert back.text == canonical
    _, otn, _ = through_otn(nested(MAX_DEPTH + 1))
    assert otn.text is None and otn.problem == (
        f"variations nested more than {MAX_DEPTH} deep: OTN writes each turn with its whole address (3b.1.1a.…), "
        "which grows with the depth"
    )


def test_an_otn_tag_that_lgn_would_hold_as_too_long_a_token_is_not_converted():
    """A valid .otg with a 3 MB event converted to an lgn that validate rejected: the OTN reader
    refuses the token now (above), and an event under the bound that lgn's escapes double is
    not converted."""
    backslashes = MAX_TOKEN // 2 + 1  # each written as two in lgn
    event = "[event:" + "\\" * backslashes + "]"
    [converted] = convert([RESIGNED.replace("[event:lusoria fixtures]", event)], "lgn", format="otn")
    assert converted.text is None
    assert converted.problem == (
        f"written in lusoria's notation it would hold a token of {2 * backslashes + 2:,} "
        f"characters; the longest allowed is {MAX_TOKEN:,}"
    )


@pytest.mark.parametrize(
    ("text", "format", "said"),
    [
        ("e3-c3 d1\x00-d3\n", "tafl", "found 'd1\\x00-d3', expected a move such as e2-c2"),
        (f"{HEADER}\n\n1. Ke5-c5 d1\x1b-d2\n", "otn", "found 'd1\\x1b-d2', expected an OTN move record"),
    ],
)
def test_a_word_of_another_format_is_quoted_with_its_control_characters_visible(text, format, said):
    [source] = read_text(text, format, "hostile")
    [found] = check(source).diagnostics
    assert found.message.startswith(said)


def test_otn_variation_turns_after_the_last_turn_are_read_in_time_linear_in_their_words():
    """The look for the next turn after a turn of three moves (OpenTafl's berserk layout) skipped a variation's
    line word by word, in as many ways as its words could be split: 20 `1a.` words after the last turn held
    `validate` past a minute (review77b). Each line is now taken whole, once."""
    header = "[rules:dim:11 surf:n tfr:i ber:c start:/11/8c2/8T2/tT2Tt1T3/2T6T1/2n8/11/5K5/11/11/11/]\n\n"
    text = header + "1. ci2-i1 Kf8-g8 nc6^c4xc5/b4\n1a.1.1a. " + " ".join(["1a."] * 400) + "\n"
    [problem] = check(next(read_text(text, "otn", "x.otg"))).diagnostics
    assert (problem.rule, problem.line - 2, problem.text) == ("syntax", 1, "nc6^c4xc5/b4")  # no turn opens with its
    # berserk move: a third move
