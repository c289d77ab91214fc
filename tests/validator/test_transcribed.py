"""A historian's transcriptions of Latrunculi and Laquet games (tests/fixtures/transcribed/, written
for these tests), each record with one slip: the first diagnostic names the rule and the ply (or
the line, for the text and the tags), says what was found, and offers what was meant where the
record shows it."""

import pytest
from conftest import ROOT

from lusoria import api

TRANSCRIBED = ROOT / "tests" / "fixtures" / "transcribed"

# per record: rule, ply, line, the first suggestion (None: none), words of the message
LATRUNCULI = [
    ("syntax", None, 9, "@d5", "found 'd5', expected a ply"),  # a placement without its @
    ("L5", 2, 16, None, "the game is already over (White has a single piece left, S5)"),
    ("tag", None, 20, "????.??.??", "a year BC has no place in it: write ????.??.?? and keep '44 BC' in a comment"),
    (
        "S2",
        1,
        30,
        None,
        'd5 is the enemy\'s (a reading that lets it go over either colour says [Rules "jump-over=any"])',
    ),
    ("L5", 1, 37, None, "the game is already over (Black has a single piece left, L4)"),
    ("E2", 6, 44, "d7-d6", "D names a dux, and the petteia variant has none: only the dux variant has one"),
    ("tag", None, 48, "????.??.??", "a century names no year"),
    ("X3", 1, 58, "De2-e6", "the dux on d7 is never captured"),
    ("tag", None, 62, "0040.??.??", "not 'c. 40 AD'"),
]
LAQUET = [
    ("syntax", None, 8, "61: 8/14 6/7", "found '6?:': a roll writes both dice"),
    ("syntax", None, 13, "61: 5/11 5/6", "found '71:': a die shows 1 to 6"),
    ("syntax", None, 18, "5/9 { the six first }", "a comment goes after the whole ply, not between its plays"),
    ("syntax", None, 23, "64: 5/11 5/9", "found '5-11'"),
    ("syntax", None, 28, "33: 3/6(2)", "found '??:'"),
    ("tag", None, 31, "1283.??.??", "not '1283'"),
]


@pytest.mark.parametrize("name, expected", [("latrunculi.lgn", LATRUNCULI), ("laquet.lgn", LAQUET)])
def test_each_slip_of_a_transcription_is_said_with_its_rule_its_place_and_what_was_meant(name, expected):
    verdicts = list(api.validate([TRANSCRIBED / name]))
    assert len(verdicts) == len(expected)
    for verdict, (rule, ply, line, meant, words) in zip(verdicts, expected):
        first = verdict.diagnostics[0]
        assert (first.rule, first.ply, first.line) == (rule, ply, line)
        assert first.suggestions[:1] == ((meant,) if meant else ())
        assert words in first.message
