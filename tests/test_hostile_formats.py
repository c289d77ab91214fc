"""Hostile input to the readers of other formats (issue 32): numbers of any length, the token
bound, deep nesting, and what the OTN reader must refuse rather than guess. Each problem is a
diagnostic with its rule and place, never a traceback."""

import codecs

import pytest
from click.testing import CliRunner

from lusoria.cli import main
from lusoria.formats import read_text
from lusoria.notation.reader import MAX_TOKEN
from lusoria.notation.sources import HEAD, read_sources, walk
from lusoria.validator.replay import check

from conftest import ROOT

FIXTURES = ROOT / "tests" / "fixtures" / "formats"
RESIGNED = (FIXTURES / "otn" / "resigned-from-a-position.otg").read_text()
HEADER, MOVES = RESIGNED.split("\n\n")  # the tags; "1. Ke5-c5- d1-d2\n2. Kc5-c8 ---\n"
HUGE = "9" * 5000  # more digits than int() converts (4,300)


def diagnostics(text: str, format: str = "otn") -> list[tuple]:
    """(rule, line, column, message) of each diagnostic of each record read from `text`."""
    return [(d.rule, d.line, d.column, d.message) for source in read_text(text, format, "hostile")
            for d in check(source).diagnostics]


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
    assert message.startswith(f"'1a.{'9' * 37}…' is not a variation address")
    assert "numbers from 1 to 1,000,000,000" in message


def test_otn_addresses_with_leading_zeros_name_the_same_ply():
    text = f"{HEADER}\n\n1. Ke5-c5 d1-d2\n01a.01.01a. Ke5-d5\n"
    [source] = read_text(text, "otn", "zeros.otg")
    report = check(source)
    assert report.valid, report.diagnostics
    assert [line.plies[0].text for line in report.record.main.plies[0].variations] == ["Ke5-d5"]


# -- OTN: what the reader used to guess -------------------------------------------------------------

@pytest.mark.parametrize("result", ["2", "+1", "1-0", ""])
def test_otn_a_result_that_is_none_of_otns_is_an_error(result):
    rule, line, column, message = only(RESIGNED.replace("[result:-1]", f"[result:{result}]"))
    assert (rule, line, column) == ("tag", 5, 9)
    assert message == (f"[result:{result}] is not an OTN result: 1 (the attackers won), -1 (the defenders won), "
                       "0 (a draw) or ? (not known)")


def test_otn_a_repeated_tag_is_an_error_at_the_second():
    rule, line, column, message = only(RESIGNED.replace("[result:-1]", "[result:-1]\n[Result:1]"))
    assert (rule, line, column) == ("tag", 6, 2)
    assert message == "a second [Result:…] tag (the first is on line 5): an OTN game has one of each"


def test_otn_a_repeated_rules_entry_is_an_error_at_the_second():
    text = RESIGNED.replace("starti:", "start:/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/ start:")
    second = text.split("\n")[5].rindex("start:") + 1
    assert only(text) == ("tag", 6, second, "rules entry start: is given twice")


@pytest.mark.parametrize("moves, place, message", [
    ("2. Ke5-c5- d1-d2\n", (8, 1), "found turn 2, expected turn 1 (turns are numbered from 1, one after another)"),
    ("1. Ke5-c5- d1-d2\n1. Kc5-c8 ---\n", (9, 1),
     "found turn 1, expected turn 2 (turns are numbered from 1, one after another)"),
    ("1. Ke5-c5- d1-d2 Kc5-c8\n", (8, 18), "found a third move 'Kc5-c8' in turn 1: a turn holds the two sides' moves"),
    ("1. Ke5-c5-\n2. d1-d2 Kc5-c8\n", (9, 1),
     "turn 2 follows a turn of one move: a turn holds the two sides' moves, only the last may hold one"),
])
def test_otn_turns_out_of_order_or_of_three_moves_are_errors(moves, place, message):
    assert only(f"{HEADER}\n\n{moves}") == ("syntax", *place, message)


# -- every reader: the token bound ----------------------------------------------------------------

LONG = "x" * MAX_TOKEN  # one more character makes a token too long


@pytest.mark.parametrize("format, text, place", [
    ("otn", RESIGNED.replace("[event:lusoria fixtures]", f"[event:{LONG[7:]}]"), (1, 1)),
    ("otn", f"{HEADER}\n\n1. Ke5-c5- d1-d2\n[{LONG[1:]}]\n", (9, 1)),
    ("tafl", f"e2-c2 f9-f5 d1-d3{LONG[5:]}x\n", (1, 13)),
])
def test_every_reader_refuses_a_token_longer_than_lgn_allows(format, text, place):
    rule, line, column, message = only(text, format)
    assert (rule, (line, column), message) == (
        "syntax", place, f"a token of {MAX_TOKEN + 1:,} characters; the longest allowed is {MAX_TOKEN:,}")


def test_a_tablut_challenge_log_refuses_a_long_field():
    log = (FIXTURES / "tablut-challenge" / "Rossi_vs_Verdi_1763722800000_gameLog.txt").read_text()
    players = next(line for line in log.split("\n") if "Players:" in line)
    long = log.replace(players, players.replace("Rossi", LONG[:-4] + "Rossi"))
    rule, line, column, message = only(long, "tablut-challenge")
    assert (rule, line, message) == ("syntax", log[:log.index(players)].count("\n") + 1,
                                     f"a token of {MAX_TOKEN + 1:,} characters; the longest allowed is {MAX_TOKEN:,}")
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


def test_aage_numbers_of_any_length_are_kept_as_text():
    text = '{%s, "Moves": "f1-f3 d5-d2", "WhoWon": %s, "AageGameTypeKey": -%s.5e%s}' % (SAAMI, "9" * 100_000, HUGE,
                                                                                       HUGE)
    [source] = read_text(text, "aage", "digits.json")
    report = check(source)
    assert report.valid and report.record.result == "*"  # WhoWon names no side: not known


@pytest.mark.parametrize("field", ["WhiteSidePlayerName", "Moves"])
def test_aage_a_lone_surrogate_is_an_error_at_its_field(field):
    value = '"\\udc00"' if field != "Moves" else '["f1-f3", "\\ud800x"]'
    text = '{%s, "Moves": "f1-f3", "%s": %s}' % (SAAMI, field, value) if field != "Moves" else \
        '{%s, "Moves": %s}' % (SAAMI, value)
    rule, line, column, message = only(text, "aage")
    assert (rule, line, column) == ("syntax", 1, text.index(f'"{field}": ') + len(field) + 5)
    assert message == f"{field} holds \\u{'dc00' if field != 'Moves' else 'd800'}, half of a UTF-16 pair " \
                      "without its other half: no character"


def test_aage_refuses_a_long_token_and_quotes_a_bad_move_shortly():
    text = '{%s, "Moves": "f1-f3 %s"}' % (SAAMI, "d5-d2" + "x" * MAX_TOKEN)
    token = len('"f1-f3 d5-d2"') + MAX_TOKEN  # the JSON string is the token
    assert only(text, "aage")[3] == f"a token of {token:,} characters; the longest allowed is {MAX_TOKEN:,}"
    rule, _, _, message = only('{%s, "Moves": "f1-f3 %s"}' % (SAAMI, "q" * 100_000), "aage")
    assert message == f"found '{'q' * 40}…', expected a move such as e2-c2 or f9-f5xg5, 'resigned' or 'timeout'"


# -- telling a file's format -------------------------------------------------------------------------

def formats_read(path) -> list[str]:
    return [source.format for source in read_sources(str(path))]


def test_a_move_list_whose_first_line_is_longer_than_the_head_read_is_tafl(tmp_path):
    line = " ".join(["e2-c2 c5-c2", "c2-e2 c2-c5"] * 500)  # 2,000 moves, 12,000 characters
    (tmp_path / "long.txt").write_text(line + " resigned\n")
    assert len(line) > HEAD and formats_read(tmp_path / "long.txt") == ["tafl"]
    assert [str(item) for item in walk([str(tmp_path)])] == [str(tmp_path / "long.txt")]


@pytest.mark.parametrize("name, bom, encoding", [
    ("scrape.json", codecs.BOM_UTF8, "utf-8"), ("scrape.json", b"", "utf-16"), ("scrape.json", b"", "utf-32"),
    ("game.otg", b"", "utf-16-le"), ("game.otg", b"", "utf-16-be"),
])
def test_a_byte_order_mark_says_the_encoding_and_the_format_is_read_past_it(tmp_path, name, bom, encoding):
    text = (FIXTURES / "aage" / "captures.json").read_text() if name.endswith(".json") else RESIGNED
    mark = {"utf-16-le": codecs.BOM_UTF16_LE, "utf-16-be": codecs.BOM_UTF16_BE}.get(encoding, b"")
    (tmp_path / name).write_bytes(bom + mark + text.encode(encoding))
    [report] = [check(source) for source in read_sources(str(tmp_path / name))]
    assert report.source.format == ("aage" if name.endswith(".json") else "otn")
    assert report.diagnostics == [] and report.plies == 3
    found = CliRunner().invoke(main, ["validate", str(tmp_path)])
    assert (found.exit_code, found.output.splitlines()[-1]) == (0, "1 record: 1 valid, 0 invalid (0 errors, 0 warnings)")
