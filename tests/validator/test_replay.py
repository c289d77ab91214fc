"""The replay driver: variations, move numbers, the end of the game, results."""

from dataclasses import replace

import pytest

from lusoria.notation.reader import RecordText, parse_record
from lusoria.validator.replay import canonical_text, check, replay


def errors(text: str) -> list[tuple]:
    return [(d.severity, d.rule, d.ply, d.text) for d in check(text).diagnostics]


HEAD = '[Game "tablut"]\n[Result "*"]\n'


def test_a_clean_record():
    report = check(HEAD + "1. e3-c3 d1-d3 2. e4-e3xd3 *")
    assert report.valid and report.diagnostics == [] and report.plies == 3
    assert len(report.positions) == 4


def test_omitted_captures_are_computed_and_canonical():
    report = check(HEAD + "1. e3-c3 d1-d3 2. e4-e3 *")
    assert report.valid and report.canonical[(0, 2)] == "e4-e3xd3"


def test_a_variation_is_checked_from_its_branch_point_and_the_main_line_resumes():
    assert errors(HEAD + "1. e3-c3 (1. e3-d3 d1-d2) d1-d3 2. e4-e3xd3 *") == []
    assert errors(HEAD + "1. e3-c3 (1. d1-d3) d1-d3 *") == [("error", "T1", 1, "d1-d3")]
    # an error inside a variation stops that variation only
    assert errors(HEAD + "1. e3-c3 d1-d3 (1... d1-d9) 2. e4-e3xd3 (2. e4-e3xd9) a4-c4 *") == [
        ("error", "T2", 2, "d1-d9"),
        ("error", "T4", 3, "e4-e3xd9"),
    ]


def test_after_an_illegal_ply_the_line_is_not_checked_further():
    report = check(HEAD + "1. e3-d2 d1-d9 2. e4-e3xd3 *")
    assert [(d.rule, d.ply) for d in report.diagnostics] == [("T2", 1)]
    assert "the rest of this line is not checked" in report.diagnostics[0].message


def test_move_numbers_are_warnings():
    assert errors(HEAD + "1. e3-c3 1... d1-d3 3. e4-e3xd3 *") == [("warning", "number", 3, "3.")]  # said at the number
    black_first = '[Game "tablut"]\n[Rules "first=black"]\n'
    assert errors(black_first + "1. d1-d3 e3-f3 2. d3-d2 *") == []  # numbered from the first mover, as tafl is
    assert errors(black_first + "1... d1-d3 2. e3-f3 d3-d2 *") == []  # numbered from White, as chess is
    assert errors(black_first + "1. d1-d3 2. e3-f3 *") == [("warning", "number", 2, "2.")]  # its first says which
    assert errors(black_first + "d1-d3 2. e3-f3 d3-d2 *") == []  # (the first numbered ply)
    assert errors(black_first + "d1-d3 1... e3-f3 2. d3-d2 *") == []
    assert errors(black_first + "2. d1-d3 *") == [("warning", "number", 1, "2.")]  # neither: the movers' numbering
    assert check(black_first + "2. d1-d3 *").diagnostics[0].message == (
        "the move number should be 1., not 2. (a fragment that starts mid-game gives its first position"
        " in a Position tag, and is numbered from 1)"
    )


def test_a_start_with_white_to_move_may_be_numbered_from_either_side():
    """Black moves first, but the Position tag gives White the move: White's ply is the second of
    move 1 to the tafl players (`1... e3-f3`) and the first to chess's (`1. e3-f3`)."""
    white_to_move = (
        '[Game "tablut"]\n[Rules "first=black"]\n[Position "3ppp3/4p4/4P4/p3P3p/ppPPKPPpp/p3P3p/4P4/4p4/3ppp3 w"]\n'
    )
    assert errors(white_to_move + "1. e3-f3 d1-d2 2. f3-f4 *") == []  # White's numbering, as chess's
    assert errors(white_to_move + "1... e3-f3 2. d1-d2 f3-f4 *") == []  # the first mover's, as tafl's
    assert check(white_to_move + "2. e3-f3 *").diagnostics[0].message == (
        "the move number should be 1..., not 2. (a record that starts from a Position tag is numbered from 1 too;"
        " a comment may keep the source's numbers)"
    )


def test_position_tag_side_to_move_overrides_first():
    text = '[Game "tablut"]\n[Position "9/9/9/9/2K6/9/9/7p1/9 b"]\n1... h2-h3 2. Kc5-c9 1-0'
    assert errors(text) == []


def test_plies_after_the_end_and_finished_starting_positions():
    assert errors('[Game "tablut"]\n[Position "9/9/9/9/K8/9/9/7p1/9 b"]\n1... h2-h3 1-0') == [
        ("error", "T10", 1, "h2-h3")
    ]
    assert errors('[Game "tablut"]\n[Position "9/9/9/9/K8/9/9/7p1/9 b"]\n1-0') == []


def test_results_against_the_tag_and_the_final_position():
    assert errors('[Game "tablut"]\n[Result "1-0"]\n1. e3-c3 *') == [("error", "result", None, "*")]
    escape = '[Game "tablut"]\n[Position "9/9/9/9/2K6/9/9/7p1/9 w"]\n1. Kc5-c9 '
    assert errors(escape + "1-0") == []
    assert errors(escape + "*") == [("error", "result", None, "*")]
    assert errors(escape + "0-1") == [("error", "result", None, "0-1")]
    # a record may stop before the end with any result
    assert errors('[Game "tablut"]\n1. e3-c3 1/2-1/2') == []


def test_unknown_options_are_tag_errors_naming_the_known_ones():
    report = check('[Game "tablut"]\n[Rules "king-capture=5"]\n*')
    (diagnostic,) = report.diagnostics
    assert (diagnostic.rule, diagnostic.line, diagnostic.column, diagnostic.text) == ("tag", 2, 22, "5")  # the value
    assert diagnostic.message == "unknown value '5' for king-capture (known: 4, 2)"


def test_a_slip_in_one_tag_hides_none_in_another():
    """Each tag the rules are built from is read apart: every slip is said at once, at its place
    (a Board tag after a bad Rules key, each bad entry of a Rules tag, a Board tag of a game that
    has one board)."""
    board = '[Game "latrunculi"]\n[Variant "piso"]\n[Rules "capture=foo kingdom=3"]\n[Board "3x99"]\n*'
    found = [(d.rule, d.line, d.column, d.text) for d in check(board).diagnostics]
    assert found == [("tag", 3, 9, "capture"), ("tag", 3, 21, "kingdom"), ("tag", 4, 2, "Board")]
    assert check(board).diagnostics[2].message == "a Board is WxH with each side from 4 to 16, as in 8x8; not '3x99'"
    one_board = '[Game "tablut"]\n[Variant "sneaky"]\n[Rules "king-capture=7"]\n[Board "9x9"]\n*'
    found = [(d.rule, d.line, d.column, d.text) for d in check(one_board).diagnostics]
    assert found == [("tag", 2, 11, "sneaky"), ("tag", 3, 22, "7"), ("tag", 4, 2, "Board")]
    unnamed = '[Game "hnefatafl"]\n[Rules "dim=9 nope=1"]\n*'
    found = [(d.rule, d.line, d.column, d.text) for d in check(unnamed).diagnostics]
    assert found == [("tag", 1, 2, "Game"), ("tag", 2, 9, "dim"), ("tag", 2, 15, "nope")]  # (no Variant: at Game)


def test_a_malformed_or_impossible_date_is_a_tag_error():
    assert errors('[Game "tablut"]\n[Date "2026.02.30"]\n*') == [("error", "tag", None, "2026.02.30")]
    assert errors('[Game "tablut"]\n[Date "21/11/2026"]\n*') == [("error", "tag", None, "21/11/2026")]
    assert errors('[Game "tablut"]\n[Date "2026.??.??"]\n*') == []


def test_a_record_whose_start_cannot_be_set_up_has_a_canonical_form():
    """Its plies were never replayed (no start position), so they are written as they were read,
    numbered as the record numbers them: from its first numbered ply, or the first mover's if none is."""
    report = check('[Game "tablut"]\n[Position "zz"]\n\n1. e3-c3   d1-d3 2.e4-e3 *')
    assert report.rules is not None and report.positions == []
    assert [(d.rule, d.message[:19]) for d in report.diagnostics] == [("tag", "malformed Position:")]
    assert canonical_text(report).endswith('[Result "*"]\n[Position "zz"]\n\n1. e3-c3 d1-d3 2. e4-e3 *\n')
    assert canonical_text(check('[Game "tablut"]\n[Position "zz"]\n\ne3-c3 d1-d3 *')).endswith("\n1. e3-c3 d1-d3 *\n")
    assert canonical_text(check('[Game "tablut"]\n[Position "zz"]\n\n1... d1-d3 e3-c3 *')).endswith(
        "\n1... d1-d3 2. e3-c3 *\n"
    )


def test_a_record_that_does_not_parse_has_no_canonical_form_a_value_error_says():
    """canonical_text (lusoria.api's) checked its report with an assert: an AssertionError, and under
    python -O an AttributeError of None."""
    report = check(HEAD + "1. e3-c3 d1-d3 2. zz *")
    assert report.record is None
    with pytest.raises(ValueError, match="^a record that does not parse has no canonical form$"):
        canonical_text(report)


def test_replaying_a_parsed_record_keeps_the_text_it_was_read_from():
    text = '[Game "tablut"]\n\n1. e3-c3 *\n'
    source = RecordText(text, 7, 2, "club.lgn")
    assert replay(parse_record(text), source).source is source
    assert replay(parse_record(text)).source == RecordText("", 1)


# -- a record that ends without its result marker -------------------------------------------------------


def places(report) -> list[tuple]:
    return [(d.rule, d.ply, d.line, d.column) for d in report.diagnostics]


def test_a_missing_result_marker_is_one_diagnostic_and_the_plies_are_still_checked():
    report = check('[Game "tablut"]\n1. e3-c3 e4-b4 2. e3-d3\n')
    assert places(report) == [("syntax", None, 2, 24), ("T1", 2, 2, 10)]
    assert report.diagnostics[0].message.startswith("the record ends without a result marker")
    assert report.diagnostics[1].suggestions == ("a4-b4",)
    assert report.record is None and not report.valid  # it does not parse: fmt and import leave it as written


@pytest.mark.parametrize(
    "text, found, column, later",
    [
        ('[Game "latrunculi"]\n1. @a1 @h8 2. @b1 @g8 3. @c\n', "@c", 26, []),  # its move number goes with it
        ('[Game "latrunculi"]\n[Variant "dux"]\n1. h1-h6 h8-h7 2. h4-h3 f8-f\n', "f8-f", 25, [("L0", 3)]),
        ('[Game "laquet"]\n1. 64: 5/11 5/9 52: 6/8 7/\n', "7/", 25, []),  # the whole ply: 6/8 alone is no Q5
        ('[Game "laquet"]\n1. 64: 8/14 5/9 2. 5/\n', "5/", 20, [("Q3", 1)]),  # not from the roll of ply 1
    ],
)
def test_a_record_cut_short_is_said_so_and_its_plies_before_the_cut_are_checked(text, found, column, later):
    """A historian's file ended in the middle of a ply: only the word was said, and none of the slips before."""
    cut, *rest = check(text).diagnostics
    assert (cut.rule, cut.line, cut.column, cut.text) == ("syntax", text.count("\n"), column, found)
    assert cut.message.startswith(f"found '{found}', expected a ply, a move number") and cut.message.endswith(
        "(1-0, 0-1, 1/2-1/2, *); the record ends there, without a result marker: is it cut short?"
    )
    assert [(d.rule, d.ply) for d in rest] == later


@pytest.mark.parametrize("cut_after, roll", [("52:", "52:"), ("52: 6/", "52:"), ("52: 6/8 7/12 2. 31: 5/", "31:")])
def test_a_record_cut_short_after_a_roll_or_in_its_first_play_is_said_so_and_checked_before(cut_after, roll):
    """`2. 31: 5/`: the error said only that a roll is followed by its plays, and no ply was checked."""
    cut, illegal = check(f'[Game "laquet"]\n1. 64: 8/14 5/9 {cut_after}\n').diagnostics
    assert (cut.rule, cut.line, cut.column, cut.text) == ("syntax", 2, 17 + cut_after.index(roll), roll)
    assert cut.message == (
        f"found '{roll}': a roll is followed by its plays, or -- when none can be played; "
        "the record ends there, without a result marker: is it cut short?"
    )
    assert (illegal.rule, illegal.ply) == ("Q3", 1)
    [ended] = check('[Game "laquet"]\n1. 64: 8/14 5/9 52: *\n').diagnostics  # a result: not cut
    assert ended.message == "found '52:': a roll is followed by its plays, or -- when none can be played"


def test_a_slip_that_ends_a_record_is_said_as_a_slip_not_a_cut():
    [slip] = check('[Game "tablut"]\n1. e3-c3 d1-d3 2. e3c3\n').diagnostics
    assert (slip.rule, slip.suggestions) == ("syntax", ("e3-c3",)) and "cut short" not in slip.message


@pytest.mark.parametrize(
    "record, rule, ply",
    [
        ('[Game "tablut"]\n\n1. e3-c3 d9-d2 2.', "T2", 2),
        ('[Game "tablut"]\n\n1. e3-c3 d9-d2 2. ', "T2", 2),
        ('[Game "laquet"]\n\n1. 64: 6/12 4/8 2.', "Q1", 1),
        ('[Game "tablut"]\n\n1. e3-c3 d9-d2 {', "T2", 2),
        ('[Game "laquet"]\n\n1. 64: 6/12 {', None, None),  # (a Laquet ply's plays may go on after a comment)
    ],
)
def test_a_move_number_typed_after_an_illegal_ply_leaves_its_error_said(record, rule, ply):
    """h79c: typed in an editor, `2.` after an illegal ply hid its error, which came back at `2. e`: a move number
    begins a ply, so the ply before it is whole and is checked; so does a comment end one (review79b), but in a
    game of dice, whose plays a comment may part."""
    found = check(record).diagnostics
    assert [d.rule for d in found if d.rule != "syntax"] == ([rule] if rule else [])
    assert [d.ply for d in found if d.rule == rule] == ([ply] if ply else [])


@pytest.mark.parametrize("keep_going", [False, True])
def test_the_plies_before_a_syntax_error_are_checked_each_error_at_its_place(keep_going):
    """A typo at move 3 hid that move 2 was illegal: the record was fixed, validated again, and only then said
    to break T2. The plies before the ply of the error are replayed, the record still unparsed: its syntax error
    first, which `show`, `fmt` and `convert` give as why they do not read it (review78)."""
    report = check('[Game "tablut"]\n1. e3-c3 d1-d3 2. c3-e3 d9-d7 3. e5-e4 e6x *\n', keep_going=keep_going)
    assert [(d.rule, d.ply, d.line, d.column) for d in report.diagnostics] == [
        ("syntax", None, 2, 40),
        ("T2", 3, 2, 19),
    ]
    assert "the way is blocked at d3" in report.diagnostics[1].message and report.record is None
    assert check(report.source, assume_result=True).record is None  # (`show` draws no board of a record cut so)


@pytest.mark.parametrize(
    "text, found",
    [
        ('[Game "tablut"]\n1. e3-c3 e1-e2 zz9 *', []),  # zz9 may be e1-e2's (its capture): e1-e2 is left out
        ('[Game "tablut"]\n1. e3-c3 e1-e2 2. zz9 *', [("T2", 2)]),  # a move number begins zz9's ply: e1-e2 is whole
        ('[Game "laquet"]\n1. 64: 5/11 2. 5/9 *', []),  # no roll begins 5/9's ply: it may be 64: 5/11's (Q5 unsaid)
        ('[Game "laquet"]\n1. 64: 5/11 {the 4 is lost} -- *', []),  # a comment parts the ply: its roll is its start
        ('[Game "laquet"]\n1. 64: 5/11 4/8 52: 6/8 5/9 2. 64: x *', [("Q3", 2)]),  # the roll begins the error's ply
        (
            '[Game "laquet"]\n1. 64: 5/11 4/8 52: 6/8 5/9 (52: 5/10 5/7) 2. 64: x *',
            [("Q3", 2), ("Q1", 2)],
        ),  # and its variation
        ('[Game "laquet"]\n1. 64: 5/11 (1. 64: 4/10 5/9) 5/9 *', []),  # 5/9 is 64: 5/11's, after its variation
        ('[Game "laquet"]\n1. 64: 5/11 4/8 52: 6/8 5/9 2. 64: 5/11 x *', [("Q3", 2)]),  # x is 64: 5/11's
        ('[Game "laquet"]\n1. 64: 5/11 4/8 52: 6/8 5/9 2. {64: lost} 5/11 *', []),  # no roll but in a comment
        ('[Game "tablut"]\n1. e3-c3 e1-e2 2. c3-e3 (zz) *', [("T2", 2)]),  # a variation's first word
        ('[Game "tablut"]\n1. e3-e2 d1-d3 e4-e5! zz *', [("T2", 1)]),  # a word of six characters left out
        ('[Game "tablut"]\n1. e3-e2 (1. e3-d3)e1-e2 zz *', [("T2", 1)]),  # a word after a variation's )
        ('[Game "tablut"]\n1. e3-e2 d1-d3 * junk', [("T2", 1)]),  # after the marker: every ply
    ],
)
def test_the_ply_a_syntax_error_may_go_on_is_not_checked(text, found):
    """Replayed up to the error alone, `a4-a10 ×b10` or `64: 5/11 {…} --` would be checked cut: an error of a
    ply the transcriber wrote whole. Where nothing begins the error's ply (a move number; in a game of dice, a
    roll), the ply before it is left out too."""
    diagnostics = check(text + "\n").diagnostics
    assert [(d.rule, d.ply) for d in diagnostics if d.rule != "syntax"] == found
    assert [d.rule for d in diagnostics].count("syntax") == 1


@pytest.mark.parametrize("end", [" 5. zz *", " 4/x *", " 4/"])
def test_the_dice_of_a_leftover_group_begin_no_ply(end):
    """`>54:`'s dice were taken for a roll that begins a ply: the text read up to the error ended `… 54: -- >`, which
    does not parse, so nothing before the error was checked; cut short there, a second syntax error was said at
    the `>` (review78). Ply 1's Q3 is said, and one syntax error."""
    plies = "1. 64: 5/11 4/9 61: 6/12 6/7 2. 63: 11/17 8/11 31: 7/10 7/8 3. 53: 11/16 4/7 63: 8/14 10/13 "
    turn = "4. 65: 5/11 5/10 54: -- >54: 1/5" + ("" if end.startswith(" 4/") else " 4/9")
    found = [(d.rule, d.ply) for d in check(f'[Game "laquet"]\n{plies}{turn}{end}\n').diagnostics]
    assert found == [("syntax", None), ("Q3", 1)]


def test_a_record_cut_short_in_a_ply_parted_by_a_comment_is_read_without_that_ply():
    """`_BETWEEN_PLIES` is sought outside comments: the full stop of `{the 4. lost}` took the roll's ply for
    ended, and its plays were checked without the one cut short (Q5)."""
    [cut] = check('[Game "laquet"]\n1. 64: 5/11 {the 4. lost} 4/\n').diagnostics
    assert (cut.rule, cut.column, cut.text) == ("syntax", 27, "4/") and "cut short" in cut.message


def test_a_tag_written_twice_is_one_diagnostic_and_the_plies_are_still_checked():
    """A historian wrote the player's name twice ([White …] for [Black …]): that error alone was said,
    and the record's slips came one run later. The first value is the one read, by the archive too."""
    text = '[Game "laquet"]\n[White "Alfonso"]\n[White "Maestre"]\n[Result "*"]\n1. 64: 8/14 5/9 52: 6/8 7/12 *\n'
    report = check(text)
    twice, illegal = report.diagnostics
    assert (twice.rule, twice.line, twice.column, twice.text, twice.suggestions) == ("tag", 3, 2, "White", ("Black",))
    assert twice.message == 'the tag White appears twice (its first value, "Alfonso", is the one read)'
    assert (illegal.rule, illegal.ply) == ("Q3", 1)
    assert illegal.message == "8/14: there is no White checker on point 8; the rest of this line is not checked"
    assert report.tags["White"] == "Alfonso" and report.plies == 2 and len(report.positions) == 1  # replayed to Q3
    assert report.parsed_from is not None and "Maestre" not in report.parsed_from.text  # read without the repeat,
    assert not report.rewritable  # so not canonical: fmt keeps it as written


def test_a_tag_written_twice_is_meant_for_the_other_side_only_when_that_one_is_missing():
    [twice] = check('[Game "tablut"]\n[White "A"] [Black "B"] [Black "C"]\n1. e3-c3 *').diagnostics
    assert (twice.rule, twice.column, twice.suggestions) == ("tag", 26, ())
    [twice] = check('[Game "tablut"]\n[Game "laquet"]\n1. e3-c3 *').diagnostics  # the first game is read
    assert (twice.rule, twice.line, twice.suggestions) == ("tag", 2, ())


def test_tags_written_twice_are_each_said_at_their_place_from_one_parse(monkeypatch):
    """Each tag written twice cost one more parse of the whole record: 4,000 took 49 s to validate."""
    import lusoria.validator.replay as replay_module

    parses = []
    monkeypatch.setattr(replay_module, "parse_record", lambda read: parses.append(read) or parse_record(read))
    tags = '[Game "tablut"]\n[White "a"]\n[Event "e"]\n[White "b"]\n[Event "f"] [White "d"]\n'
    report = check(RecordText(tags + "1. e3-c3 d1-d3 2. e3-c4 *\n", line=3))
    said = [(d.rule, d.line, d.column, d.text, d.suggestions) for d in report.diagnostics]
    assert said == [
        ("tag", 6, 2, "White", ("Black",)),
        ("tag", 7, 2, "Event", ()),
        ("tag", 7, 14, "White", ("Black",)),
        ("T2", 8, 19, "e3-c4", ("e4-c4", "c3-c4", "e4-b4")),
    ]
    assert (
        report.diagnostics[2].message == 'the tag White appears 3 times (its first value, "a", is the one read)'
    )  # White: a, b, d
    assert len(parses) == 2  # the record as written, then without its second tags


def test_a_game_written_twice_is_said_when_the_movetext_is_not_the_first_game_s():
    """Two Game tags and Laquet plies: the record is read as Tablut, its first Game, and only '64:' was
    said, never why a Laquet ply was read as Tablut."""
    [twice, syntax] = check('[Game "tablut"]\n[Game "laquet"]\n1. 64: 5/11 5/9 *\n').diagnostics
    assert (twice.rule, twice.line, twice.column, twice.text) == ("tag", 2, 2, "Game")
    assert twice.message == 'the tag Game appears twice (its first value, "tablut", is the one read)'
    assert (syntax.rule, syntax.line, syntax.text) == ("syntax", 3, "64:")


def test_a_result_marker_inside_a_semicolon_comment_is_pointed_out():
    """`;` written as a separator between plies hides the rest of the line, the result marker too."""
    report = check('[Game "laquet"]\n[Event "a; 1-0"]\n\n1. 64: 5/11 5/9; 52: 6/8 7/12 *\n')
    assert places(report) == [("syntax", None, 4, 32)]
    assert report.diagnostics[0].message == (
        "the record ends without a result marker (1-0, 0-1, 1/2-1/2, *); the ';' on line 4 begins a "
        "comment to the end of the line, and the * there is part of it"
    )
    plain = check('[Game "tablut"]\n1. e3-c3 ; not a result: 1-0a\n').diagnostics[0]
    assert plain.message == "the record ends without a result marker (1-0, 0-1, 1/2-1/2, *)"
    emphasis = check('[Game "tablut"]\n1. e3-c3 d1-d3; 2. c3-c2 ** great move\n').diagnostics[0]
    assert emphasis.message == "the record ends without a result marker (1-0, 0-1, 1/2-1/2, *)"


def test_a_missing_result_marker_of_a_finished_game_says_which_marker():
    """The transcriber forgot the result of a game that ended: the replay knows it."""
    report = check('[Game "tablut"]\n1. c5-c3 i6-f6 2. d5-d3 i4-h4 3. c3-c7 a6-a9 4. Ke5-c5 b5-b9 5. Kc5-c1\n')
    assert [(d.rule, d.message) for d in report.diagnostics] == [
        (
            "syntax",
            "the record ends without a result marker (1-0, 0-1, 1/2-1/2, *); "
            "the game ended 1-0 (the king reached the edge, T6): write 1-0",
        )
    ]


def test_past_a_missing_result_marker_keep_going_goes_on_too():
    report = check('[Game "tablut"]\n1. e3-c3 e4-b4 2. e3-d3\n', keep_going=True)
    assert places(report) == [("syntax", None, 2, 24), ("T1", 2, 2, 10), ("T2", 3, 2, 19)]
    assert report.diagnostics[2].assumed == ("move 1, Black: a4-b4",)


@pytest.mark.parametrize(
    ("keep_going", "said"),
    [(True, "; --keep-going reads it as e3-d3"), (False, "; the rest of this line is not checked")],
)
def test_an_illegal_ply_says_what_keep_going_reads_it_as(keep_going, said):
    """e3-d3 is the one nearest e3-d2 (e3-c3 is offered too): the error says the ply --keep-going
    plays in its place, which the later ones say they assume; without it, that the line stops."""
    first, *_ = check('[Game "tablut"]\n1. e3-d2 d1-d2 *\n', keep_going=keep_going).diagnostics
    assert (first.rule, first.ply, first.suggestions) == ("T2", 1, ("e3-d3", "e3-c3"))
    assert first.message == "a piece moves along its rank or file, and d2 is on neither" + said


def test_past_a_missing_result_marker_a_tags_warning_is_said_once():
    """The replay of the plies checks the tags: the header is not checked a second time alone."""
    report = check('[Game "tablut"]\n[event "Club"]\n1. e3-c3 e4-b4\n')
    assert places(report) == [("syntax", None, 3, 15), ("tag", None, 2, 2), ("T1", 2, 3, 10)]


def test_the_result_assumed_for_the_replay_is_never_reported():
    escape = '[Game "tablut"]\n[Result "0-1"]\n[Position "9/9/9/9/2K6/9/9/7p1/9 w"]\n1. Kc5-c9\n'
    assert places(check(escape)) == [("syntax", None, 4, 10)]  # neither the tag's 0-1 nor the escape's 1-0


def test_a_slip_before_a_missing_result_marker_keeps_its_suggestion():
    report = check('[Game "tablut"]\n1. e3c3 d1-d3 2. e4-e3 a4-b3\n', keep_going=True)
    assert places(report) == [("syntax", None, 2, 4), ("syntax", None, 2, 29), ("T2", 4, 2, 24)]
    assert report.diagnostics[0].suggestions == ("e3-c3",)


def test_past_a_missing_result_marker_only_problems_of_the_text_itself_are_reported():
    open_variation = check('[Game "tablut"]\n1. e3-c3 (1. d1-d3\n')  # still open: closed, its plies checked too
    assert places(open_variation) == [("syntax", None, 2, 19), ("T1", 1, 2, 14)]
    nag = check('[Game "tablut"]\n1. e3-c3 $1000 d1-d3\n')
    assert places(nag) == [("syntax", None, 2, 10), ("syntax", None, 2, 21)]
    assert nag.diagnostics[0].message == "a NAG is $0 to $255, not $1000"


def test_the_tags_of_a_record_whose_movetext_does_not_parse_are_checked_in_the_same_run():
    """A slip in the movetext no longer hides those of the header: each is said at its place, the
    syntax error last (in line order), as a record that parses would say them."""
    text = '[Game "tablut"]\n[Date "0120"]\n[Reslt "1-0"]\n[Variant "nope"]\n\n1. e3-c3 e1-e2 2. zz9 *\n'
    found = [(d.severity, d.rule, d.line, d.column, d.suggestions) for d in check(text).diagnostics]
    assert found == [
        ("error", "tag", 2, 8, ("0120.??.??",)),
        ("warning", "tag", 3, 2, ("Result",)),
        ("error", "tag", 4, 11, ()),
        ("error", "syntax", 6, 19, ()),
    ]


def test_a_header_that_holds_the_syntax_error_or_an_unknown_game_says_only_that():
    """The tags are checked apart only when they parse alone and name a game lusoria knows: a tag
    whose value is left open or an unknown game (the reader's error names it) adds nothing, no "no
    Game tag" among them; a Game tag without its `]` is read closed, and the other tags checked."""
    before = '[Game "tablut"]\n[Date "0120"]\n[Event "x\n[Result "1 - 0"]\n\n1. e3-c3 *\n'
    broken_header = '[Date "0120"]\n[Game "tablut"\n[Result "1 - 0"]\n\n1. e3-c3 *\n'
    unknown_game = '[Game "tablot"]\n[Date "0120"]\n\n1. e3-c3 *\n'
    parsing = '[Game "tablut"]\n[Date "0120"]\n\n1. e3-c3 2. zz9 *\n'
    assert [(d.rule, d.line) for d in check(before).diagnostics] == [("syntax", 3)]
    assert [(d.rule, d.line) for d in check(broken_header).diagnostics] == [("syntax", 2), ("tag", 1), ("tag", 3)]
    assert [(d.rule, d.line, d.suggestions) for d in check(unknown_game).diagnostics] == [("tag", 1, ("tablut",))]
    assert [(d.rule, d.line) for d in check(parsing).diagnostics] == [("tag", 2), ("syntax", 4)]


def test_a_last_line_without_its_line_break_is_checked_past_the_missing_result():
    """The result assumed goes on a line of its own: an error on the record's last line, which no line
    break ends, is the record's own, said with the missing marker."""
    report = check('[Game "tablut"]\n\n1. e3-c3 2.')
    assert [(d.rule, d.line, d.column, d.message) for d in report.diagnostics] == [
        ("syntax", 3, 10, "found the move number 2. with no ply after it"),
        ("syntax", 3, 12, "the record ends without a result marker (1-0, 0-1, 1/2-1/2, *)"),
    ]


def test_what_a_slip_meant_is_said_once_and_after_a_message_that_does_not_say_it():
    game = check('[Game "tabult"]\n*\n').diagnostics[0]
    date = check('[Game "tablut"]\n[Date "1283"]\n\n1. e3-c3 *\n').diagnostics[0]
    assert game.message.endswith("; did you mean tablut?)") and game.with_meant() == game.message
    assert date.with_meant(" / ") == f"{date.message} / did you mean '1283.??.??'?"


def test_a_suggestion_that_holds_a_question_mark_is_quoted():
    date = check('[Game "tablut"]\n[Date "1283"]\n\n1. e3-c3 *\n').diagnostics[0]
    move = check('[Game "tablut"]\n\n1. e3-c4 *\n').diagnostics[0]
    assert date.meant() == "did you mean '1283.??.??'?"
    assert move.meant() == f"did you mean {' or '.join(move.suggestions)}?" and move.suggestions


def test_a_suggestion_that_ends_with_a_mark_the_question_joins_is_quoted():
    """`2.?` was offered `did you mean 2.?`, which reads as what was written: `2.` is said in quotes, as
    is a ply ending with a suffix (`e4-e3!`), and a ply ending otherwise is not."""
    number = check('[Game "laquet"]\n\n1. 64: 5/11 5/9 2.? 52: 6/8 7/12 *\n').diagnostics[0]
    suffixed = replace(number, suggestions=("e4-e3!", "e4-e3"))
    assert (number.suggestions, number.meant()) == (("2.",), "did you mean '2.'?")
    assert suffixed.meant() == "did you mean 'e4-e3!' or e4-e3?"


@pytest.mark.parametrize(
    "game, movetext, rule, ply, said",
    [
        ("tablut", "1. e3-c3 a4-c4 2. c3-c4 *", "T2", 3, "c4 is occupied (by move 1, Black: a4-c4)"),
        ("tablut", "1. e3-c3 a4-c4 ( 1... d1-d3 2. c3-d3 ) *", "T2", 3, "d3 is occupied (by move 1, Black: d1-d3)"),
        ("tablut", "1. e3-c3 a4-b4 2. g5-g3 ( 2. c5-c3 ) *", "T2", 3, "c3 is occupied (by move 1, White: e3-c3)"),
        ("brandubh", "1. d1-d2 *", "B3", 1, "d2 is occupied (from the start position)"),
        (
            'brandubh"]\n[Position "3p3/3p3/3P3/ppPKPp1/3P3/3p3/3p3 b',
            "1. d1-d2 *",
            "B3",
            1,
            "d2 is occupied (from the Position tag)",
        ),
        (
            'latrunculi"]\n[Position "pp6/8/8/8/8/8/P7/p6P w',
            "1. a2-a1 *",
            "S2",
            1,
            "a1 is occupied (from the Position tag)",
        ),
        ("latrunculi", "1. @a1 @b2 2. @c1 @a1 *", "S1", 4, "a1 is occupied (by move 1, White: @a1)"),
    ],
)
def test_an_occupied_square_names_the_ply_that_put_its_piece_there(game, movetext, rule, ply, said):
    """A transcriber saw "g4 is occupied" and had to replay the game to find which ply went there;
    a variation's ply looks back along its line into the line it leaves. A piece there before the first ply
    stands there from the start position, or from a Position tag (not "the start position", which a transcriber
    reads as the game's own: h69c)."""
    [found] = check(f'[Game "{game}"]\n{movetext}\n').diagnostics
    assert (found.rule, found.ply, found.message) == (rule, ply, f"{said}; the rest of this line is not checked")


def test_a_square_an_incitus_holds_names_the_ply_that_captured_it():
    """A move onto the incitus c1 (before its side removes it) was told c1 held its piece "by a ply the
    record leaves out after move 1" (the capture turned the piece over, and its diagram marks it
    captured, not arrived): latrunculi leaves out no ply; the ply that captured it is named."""
    [found] = check('[Game "latrunculi"] [Position "7p/8/8/8/8/8/2pP4/1Pp4p w"]\n1. d2-d1 c2-c1 *\n').diagnostics
    assert (found.rule, found.ply, found.message) == (
        "S2",
        2,
        "c1 is occupied (captured by move 1, White: d2-d1xc1); the rest of this line is not checked",
    )


@pytest.mark.parametrize(
    "header, movetext, rule, ply, said",
    [
        (
            '[Game "latrunculi"] [Variant "dux"]',
            "1. b1-b5 c8-c5 2. d1-d5 h8-h6 3. a1-a2 c5-c4 *",
            "L0",
            6,
            "there is no piece on c5 (captured by move 2, White: d1-d5xc5)",
        ),
        (
            '[Game "latrunculi"] [Position "7p/8/8/8/8/8/3P4/1Pp4p w"]',
            "1. d2-d1 c1-c2 *",
            "S3",
            2,
            "the piece on c1 is an incitus and cannot move (captured by move 1, White: d2-d1xc1)",
        ),
        (
            '[Game "latrunculi"] [Position "7p/8/8/8/8/8/3P4/1Pp4p w"]',
            "1. d2-d1 h1-h2 2. b1-a1 c1-c2 *",
            "L0",
            4,
            "there is no piece on c1 (removed by move 1, Black: h1-h2~c1)",
        ),
        (
            '[Game "tablut"]',
            "1. e3-c3 a4-a3 2. c3-e3 a3-a4 3. e3-c3 a4-a3 4. e3-e2 *",
            "T2",
            7,
            "there is no piece on e3 (moved away by move 3, White: e3-c3)",
        ),
        (
            '[Game "tablut"]',
            "1. e3-c3 d1-d3 2. e4-e3 a4-a3 ( 2... d3-d2 ) *",
            "T2",
            4,
            "there is no piece on d3 (captured by move 2, White: e4-e3xd3)",
        ),
        ('[Game "tablut"]', "1. c3-c1 *", "T2", 1, "there is no piece on c3"),
    ],
)
def test_a_piece_moved_after_its_loss_names_the_ply_that_took_it(header, movetext, rule, ply, said):
    """A transcriber who left out a capture (the rules work it out) moves the captured piece again,
    and saw only "there is no piece on c5": the error names the ply that captured, removed or moved
    the piece, the last to, in canonical form (what it captured written out); a square empty from the
    start names none."""
    [found] = check(f"{header}\n{movetext}\n").diagnostics
    assert (found.rule, found.ply, found.message) == (rule, ply, f"{said}; the rest of this line is not checked")


@pytest.mark.parametrize(
    "movetext, ply",
    [
        ("1. e3-c3 e3-c2 2. c3-c2 *", 3),  # e3-c2 played as e2-c2
        ("1. e3-c3 e3-c2 2. c3-b3 ( 2. c3-d3 ( 2. c3-c2 ) ) *", 3),  # a variation's variation
    ],
)
def test_the_ply_that_occupied_a_square_is_found_past_a_ply_assumed_by_keep_going(movetext, ply):
    """The plies before an occupied square are replayed only when one is said (validate keeps none):
    as the line played them, an assumed ply in place of the illegal one written."""
    found = check(f'[Game "tablut"]\n{movetext}\n', keep=False, keep_going=True).diagnostics
    assert [d.message.split(";")[0] for d in found if d.ply == ply] == ["c2 is occupied (by move 1, Black: e3-c2)"]


@pytest.mark.parametrize("keep", [True, False], ids=["kept", "validate"])
def test_a_variations_errors_rest_on_the_plies_assumed_on_the_line_it_leaves(keep):
    """--keep-going played e2-c2 for ply 2 of the main line; the variation of ply 3 starts after
    it, so its error rests on it too (it listed none)."""
    found = check('[Game "tablut"]\n1. e3-c3 e3-c2 2. c3-b3 ( 2. c3-c2 ) *\n', keep=keep, keep_going=True)
    assert [(d.ply, d.move, d.assumed) for d in found.diagnostics] == [
        (2, "move 1, Black", ()),
        (3, "move 2, White, in a variation", ("move 1, Black: e2-c2",)),
    ]


@pytest.mark.parametrize("keep", [True, False], ids=["kept", "validate"])
def test_a_ply_from_a_start_where_the_game_is_over_is_refused(keep):
    """The king stands on the edge in the Position given: the record's first ply (White's or
    Black's, as the position says) is past the end."""
    for turn, movetext, move in (("w", "1. a5-a4", "move 1, White"), ("b", "1... e1-e2", "move 1, Black")):
        record = f'[Game "tablut"] [Position "4K4/9/9/9/P8/9/9/9/4p4 {turn}"] {movetext} *'
        assert [(d.rule, d.ply, d.move, d.message) for d in check(record, keep=keep).diagnostics] == [
            (
                "T10",
                1,
                move,
                "the game is already over in the Position tag (the king stands on the edge, T6); no ply may follow",
            )
        ]


@pytest.mark.parametrize(
    "header, movetext, column, found, meant",
    [
        ('[Game "brandubh"]', "1. b4-b9 *", 4, "b9 is not a square of any brandubh board (a1–g7)", ("b4-b7", "b4-b6")),
        ('[Game "tablut"]', "1. e3-c3 b5-b12 *", 10, "b12 is not a square of any tablut board (a1–i9)", ("b5-b9",)),
        (
            '[Game "hnefatafl"] [Variant "tablut-19x19"]',
            "1. f14-f22 *",
            4,
            "f22 is not a square of any hnefatafl board (a1–s19)",
            ("f14-f9", "f14-f10", "f14-f11"),
        ),
        (
            '[Game "tablut"]',
            "1. e3-c3 b5-b0 *",
            10,
            "b0 is not a square of any tablut board (a1–i9)",
            ("b5-b1", "b5-b2"),
        ),
    ],
)
def test_a_move_off_the_board_is_offered_the_legal_plies_nearest_it(header, movetext, column, found, meant):
    """`b5-b12` got no "did you mean": its square brought onto the board, it gets the nearest legal plies."""
    [said] = check(f"{header}\n{movetext}\n").diagnostics
    word = movetext.split()[-2]  # the last ply
    assert (said.rule, said.line, said.column, said.message) == ("syntax", 2, column, f"found '{word}': {found}")
    assert said.suggestions[: len(meant)] == meant


def test_a_move_off_the_board_is_offered_nothing_where_the_plies_before_it_are_not_replayed():
    """In a variation, or after an illegal ply, the position before it is not at hand."""
    for movetext in ("1. e3-c3 ( 1. e3-e22 ) *", "1. e3-c3 a5-a4 2. e4-e21 *"):
        said = check(f'[Game "tablut"]\n{movetext}\n').diagnostics
        assert [(d.rule, d.suggestions) for d in said if d.rule == "syntax"] == [("syntax", ())]


def test_a_report_shows_as_one_line_its_place_game_plies_result_and_verdict():
    """A researcher's notebook cell that ended in `api.check(text)` showed 7,000 characters for a
    record of 9 plies (every position, the record's tree, its text): now one line."""
    assert repr(check(HEAD + "1. e3-c3 *")) == "<Report <text>:1: tablut (seed), 1 ply, *, valid>"
    invalid = check(HEAD + "1. e3-c3 e4-b4 2. d1-d3 *", keep_going=True)
    assert (
        repr(invalid)
        == "<Report <text>:1: tablut (seed), 3 plies, *, invalid: error[T1] at move 1, Black (2 diagnostics)>"
    )
    unmoved = [replace(d, move="") for d in invalid.diagnostics]  # (a reader's, at a ply of rules not replayed)
    assert repr(replace(invalid, diagnostics=unmoved)).endswith("invalid: error[T1] at ply 2 (2 diagnostics)>")
    unparsed = check(RecordText(HEAD + "1. e3-c3 zz *", line=7, path="games.lgn"))
    assert repr(unparsed) == (
        "<Report games.lgn:7: tablut, 0 plies, *, invalid: error[syntax] at line 9, column 10 (1 diagnostic)>"
    )
    warned = check(HEAD + "1. e3-c3 1... d1-d3 3. e4-e3xd3 *")
    assert repr(warned) == "<Report <text>:1: tablut (seed), 3 plies, *, valid (1 diagnostic)>"
    nothing = (
        "<Report <text>:1: no game, 0 plies, no result, invalid: error[syntax] at line 1, column 1 (1 diagnostic)>"
    )
    assert repr(check("")) == nothing  # no Game tag, no result marker: said so, not None


def test_a_record_text_shows_where_it_stands_and_how_its_text_begins():
    record = RecordText(HEAD + "1. e3-c3 d1-d3 *", line=3, index=1, path="games.lgn")
    assert repr(record) == (
        "RecordText(path='games.lgn', line=3, index=1, format='lgn', text='[Game \"tablut\"]\\n[Result \"*\"]\\n1. e3-c3 d…')"
    )
    assert (
        repr(RecordText(HEAD + "1. e3-c3 *\n"))  # 40 characters: all shown
        == "RecordText(path='', line=1, index=0, format='lgn', text='[Game \"tablut\"]\\n[Result \"*\"]\\n1. e3-c3 *\\n')"
    )


def test_the_first_error_alone_is_found_without_suggestions_a_misread_die_s_reading_neither():
    """`first_error` (the search for fitting rule sets) asks for no suggestions: a roll's misread
    reading (`63: 5/11 5/8`), offered first otherwise, is none either."""
    record = parse_record('[Game "laquet"]\n\n1. 64: 5/11 5/8 *\n')
    [error] = replay(record, first_error=True).diagnostics
    assert (error.rule, error.suggestions) == ("Q3", ())
    assert replay(record).diagnostics[0].suggestions[0] == "63: 5/11 5/8"
