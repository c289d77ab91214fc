"""A document as the language server sees it (lusoria/document.py), in this process: where a
diagnostic points, the reports kept between edits, hovers, fixes, completions and tokens."""

from dataclasses import astuple
from pathlib import Path

import pytest

from lusoria.api import explain, format_record, validate
from lusoria.document import (
    Completion,
    Document,
    Edit,
    completions,
    diagnostic_range,
    diagnostic_span,
    document_tokens,
    fixes,
    format_fix,
    formatted_document,
    ply_hover,
    report_key,
    rule_hover,
    rules_at,
    symbol_detail,
    symbol_name,
    tag_at,
    tag_hover,
)
from lusoria.formats import FORMATS, Format
from lusoria.output import diagnostic_text
from lusoria.validator.games import GAMES, known_games
from lusoria.validator.replay import check

OPEN = '\n[Game "tablut"]\n1. e3-c3 e4-b4\n'  # a blank line, then a record without a result marker


def entry_of(text: str):
    document = Document()
    document.update(document.split(text))
    [entry] = document.entries
    return entry


def test_the_tokens_kept_are_those_of_the_records_of_the_last_layout():
    """h79c, review80: a record an edit leaves unchanged keeps its tokens from the document's last layout (laid out
    once), placed where it stands now; those of a record edited away are let go (kept by text in a cache of 4,096,
    they grew by megabytes an edit)."""
    document = Document("club.lgn")
    first, second = '[Game "tablut"]\n1. e3-c3 *\n', '[Game "tablut"]\n1. e3-d3 *\n'

    def laid_out(text: str) -> list:
        document.update(document.split(text))
        return list(document_tokens(document.entries, document.tokens))

    def kept_of(text: str) -> tuple:
        return next(value for key, value in document.tokens.last.items() if key[0].strip() == text.strip())

    before = laid_out(first + "\n" + second)
    kept = kept_of(first)
    after = laid_out("\n\n" + first + "\n" + second.replace("d3", "b3"))
    assert sorted(text.strip() for text, _ in document.tokens.last) == sorted(
        [first.strip(), second.replace("d3", "b3").strip()]
    )
    assert kept_of(first) is kept and len(kept) > 3
    assert after[: len(kept)] == [(line + 2, *rest) for line, *rest in before[: len(kept)]]


def test_a_diagnostic_spans_the_columns_of_validates_caret():
    """A diagnostic of no text (a missing result marker) spans one column, as validate shows one caret."""
    entry = entry_of(OPEN)
    spans = [diagnostic_span(entry, d) for d in entry.report.diagnostics]
    assert spans == [(2, 14, 15), (2, 9, 14)]
    carets = [diagnostic_text(entry.report, d).splitlines()[2].count("^") for d in entry.report.diagnostics]
    assert carets == [end - start for _, start, end in spans]


def test_a_document_takes_the_reports_given_with_its_records():
    """Reports checked elsewhere (the server's worker thread) are kept, not checked again."""
    document = Document()
    sources = document.split(OPEN)
    given = check(sources[0].text)
    document.update(sources, {report_key(sources[0]): given})
    assert document.entries[0].report is given
    assert document.missing(sources) == []


def test_a_wrong_move_number_glued_to_its_ply_is_fixed():
    entry = entry_of('[Game "tablut"]\n1.e3-c3 d1-d3 3.e4-e3xd3 *\n')
    [warning] = entry.report.diagnostics
    assert (warning.rule, warning.ply, warning.line, warning.column) == ("number", 3, 2, 15)
    [fix] = fixes(entry, warning)
    assert (fix.title, fix.edits, fix.preferred) == ("Number the move 2.", (Edit(1, 14, 1, 16, "2."),), True)


def test_a_laquet_plys_quick_fixes_keep_the_roll_written():
    """`64: 5/12 4/8` was offered `54: 5/10 4/8` (a die misread): the roll is the source's, so every
    fix plays the 6 and the 4 written."""
    entry = entry_of('[Game "laquet"]\n\n1. 64: 5/12 4/8 *\n')
    [error] = entry.report.diagnostics
    assert [(fix.title, fix.edits) for fix in fixes(entry, error)] == [
        ("Replace with 64: 5/11 4/8", (Edit(2, 3, 2, 15, "64: 5/11 4/8"),)),
        ("Replace with 64: 4/10 4/8", (Edit(2, 3, 2, 15, "64: 4/10 4/8"),)),
        ("Replace with 64: 2/8 4/8", (Edit(2, 3, 2, 15, "64: 2/8 4/8"),)),
    ]


@pytest.mark.parametrize(
    "movetext, edit",
    [
        ("1. 31: 4/7 {p. 4}\n4/5 *", Edit(2, 11, 3, 3, "4/5 {p. 4}")),  # a comment that parts the plays
        ("1. 31: ; p. 4\n4/7 4/5 *", Edit(2, 3, 3, 7, "31: 4/7 4/5 {p. 4}")),  # a ; comment after the roll
    ],
)
def test_a_quick_fix_of_a_slip_over_two_lines_replaces_both(movetext, edit):
    """`{p. 4}`⏎`4/5` was replaced on its first line alone: the fix wrote `4/5 {p. 4}` and left the
    `4/5` below it, a play written twice; the slip is underlined on both lines too (it was on its first)."""
    entry = entry_of(f'[Game "laquet"]\n\n{movetext}\n')
    [error] = entry.report.diagnostics
    assert [fix.edits for fix in fixes(entry, error)] == [(edit,)]
    assert diagnostic_range(entry, error) == (edit.line, edit.column, edit.end_line, edit.end_column)  # (underlined so)


def test_each_tag_left_open_has_its_diagnostic_and_its_close_the_tag_fix():
    """Only the first had one until it was fixed: each is said, each closed by its own fix."""
    entry = entry_of('[Game "tablut"\n[White "Jens Holm"\n[Black "Olof Berg"]\n\n1. e3-c3 *\n')
    found = [fixes(entry, diagnostic) for diagnostic in entry.report.diagnostics]
    assert [[(fix.title, fix.edits) for fix in fixed] for fixed in found] == [
        [("Close the tag", (Edit(0, 14, 0, 14, "]"),))],
        [("Close the tag", (Edit(1, 18, 1, 18, "]"),))],
    ]


def test_a_tag_whose_value_runs_onto_the_next_line_has_a_fix_that_writes_it_on_one():
    """h80c: an e-mail wraps a long tag line; the fix replaces both lines, underlined on both."""
    entry = entry_of('[Game "tablut"]\n[White "Jens\nHolm"]\n\n1. e3-c3 *\n')
    [error] = entry.report.diagnostics
    edit = Edit(1, 0, 2, 6, '[White "Jens Holm"]')
    assert [(fix.title, fix.edits) for fix in fixes(entry, error)] == [('Replace with [White "Jens Holm"]', (edit,))]
    assert diagnostic_range(entry, error) == (1, 0, 2, 6)


def test_two_tags_left_open_on_one_line_have_a_close_the_tag_fix_each_where_written():
    entry = entry_of('[Game "tablut"]\n[White "Jens" [Black "Olof"\n\n1. e3-c3 *\n')
    found = [[fix.edits for fix in fixes(entry, diagnostic)] for diagnostic in entry.report.diagnostics]
    assert found == [[(Edit(1, 13, 1, 13, "]"),)], [(Edit(1, 27, 1, 27, "]"),)]]


ESCAPED = "1. c5-c3 i6-f6 2. d5-d3 i4-h4 3. c3-c7 a6-a9 4. Ke5-c5 b5-b9 5. Kc5-c1"  # the king reaches the edge (T6)
LAQUET = Path(__file__).parents[1] / "samples/laquet/whole-game.lgn"  # White bears off every checker (Q8)


@pytest.mark.parametrize(
    "text, edits",
    [
        (  # the second record of a file: its own lines and its own Result tag
            f'[Game "tablut"]\n[Result "*"]\n\n1. e3-c3 *\n\n[Game "tablut"]\n[Result "0-1"]\n\n{ESCAPED} \n',
            (Edit(8, 70, 8, 70, " 1-0"), Edit(6, 8, 6, 13, '"1-0"')),
        ),
        (  # a Result tag saying it already, or written in another case (a tag of its own): left as it is
            f'[Game "tablut"]\n[Result "1-0"]\n[result "*"]\n\n{ESCAPED}\n',
            (Edit(4, 70, 4, 70, " 1-0"),),
        ),
        (  # a `;` comment ends the record: the marker written after it was part of it
            f'[Game "tablut"]\n\n{ESCAPED} ; out\n',
            (Edit(2, 76, 2, 76, "\n1-0"),),
        ),
        (f'[Game "tablut"]\n\n{ESCAPED} ;x\n', (Edit(2, 73, 2, 73, "\n1-0"),)),  # a comment of one character too
        (f'[Game "tablut"]\n\n{ESCAPED}\n% escaped\n', (Edit(3, 9, 3, 9, "\n1-0"),)),  # and so was one in a `%` line
        (LAQUET.read_text(encoding="utf-8").replace(" 1-0\n", "\n"), (Edit(24, 59, 24, 59, " 1-0"),)),
    ],
    ids=["the second record", "the tag says it", "a comment to the line end", "a short comment", "a % line", "laquet"],
)
def test_a_finished_game_without_its_marker_is_fixed_with_its_result_and_checks_clean(text, edits):
    document = Document()
    document.update(document.split(text))
    entry = document.entries[-1]
    [missing] = entry.report.diagnostics
    [fix] = fixes(entry, missing)
    assert (fix.title, fix.edits) == ("Set the result to 1-0", edits)
    lines = text.split("\n")
    for edit in sorted(edits, key=lambda e: e.line, reverse=True):  # each edit an insertion, or on one line
        line = lines[edit.line]
        lines[edit.line] = line[: edit.column] + edit.text + line[edit.end_column :]
    document.update(document.split("\n".join(lines)))
    assert [d.message for _, d in document.diagnostics()] == []


@pytest.mark.parametrize(
    "date, movetext, comment",
    [
        ("44 BC", "\n1. @d4 @e5 *", Edit(3, 0, 3, 0, "{Date: 44 BC} ")),
        ("c. 13th century", "% a note\n\n{seen} *", Edit(4, 0, 4, 0, "{Date: c. 13th century} ")),
        ("-44", "1. @d4 @e5 *", Edit(2, 0, 2, 0, "{Date: -44} ")),
    ],
)
def test_a_date_no_date_can_give_is_fixed_to_no_year_and_kept_in_a_comment_before_the_movetext(date, movetext, comment):
    """The fix of `44 BC` wrote `????.??.??` and dropped the year its message said to keep: it keeps it."""
    text = f'[Game "latrunculi"]\n[Date "{date}"]\n{movetext}\n'
    entry = entry_of(text)
    [error] = entry.report.diagnostics
    [fix] = fixes(entry, error)
    value = Edit(1, 7, 1, 7 + len(date), "????.??.??")
    assert (fix.title, fix.edits) == (f"Replace with ????.??.??, keeping {date} in a comment", (value, comment))
    lines = text.split("\n")
    for edit in (comment, value):
        lines[edit.line] = lines[edit.line][: edit.column] + edit.text + lines[edit.line][edit.end_column :]
    fixed = check("\n".join(lines))
    assert (fixed.diagnostics, fixed.record.tags["Date"]) == ([], "????.??.??")
    assert f"Date: {date}" in fixed.record.main.comments[0]


def test_a_date_no_date_can_give_in_a_record_with_no_movetext_yet_is_fixed_in_its_tag_alone():
    entry = entry_of('[Game "latrunculi"]\n[Date "44 BC"]\n')
    error = next(d for d in entry.report.diagnostics if d.rule == "tag")
    assert [(fix.title, fix.edits) for fix in fixes(entry, error)] == [
        ("Replace with ????.??.??", (Edit(1, 7, 1, 12, "????.??.??"),))
    ]


def test_a_game_not_over_without_its_marker_has_no_result_to_set():
    """Its marker is the writer's to choose (`*` if the game goes on): no fix, and no failure."""
    entry = entry_of(OPEN)
    missing = entry.report.diagnostics[0]
    assert missing.message.startswith("the record ends without a result marker")
    assert [fix.title for fix in fixes(entry, missing)] == []


def test_a_finished_game_ending_inside_a_variation_has_no_marker_to_write_there():
    """The king escaped on the main line, and the record ends in a variation not closed: a marker
    written at its end would be inside the variation, where it ends nothing."""
    escaped = "1. c5-c3 i6-f6 2. d5-d3 i4-h4 3. c3-c7 a6-a9 4. Ke5-c5 b5-b9 5. Kc5-c1"
    entry = entry_of(f'[Game "tablut"]\n{escaped} (5. Kc5-c2\n')
    assert entry.replayed.outcome is not None and entry.replayed.outcome.result == "1-0"
    missing = entry.report.diagnostics[0]
    assert missing.message == (
        "the record ends without a result marker (1-0, 0-1, 1/2-1/2, *); the variation begun at line 2, column 72 "
        "is not closed with ')'; the game ended 1-0 (the king reached the edge, T6): write 1-0"
    )  # (the main line replayed, the variation closed)
    assert fixes(entry, missing) == []
    closed = entry_of(f'[Game "tablut"]\n{escaped} (5. Kc5-c2)\n')  # closed: the marker after it
    assert [fix.title for fix in fixes(closed, closed.report.diagnostics[0])] == ["Set the result to 1-0"]


@pytest.mark.parametrize("tag, marker", [("0-1", "1-0"), ("1-0", "0-1"), ("0-1", "0-1")])
def test_a_result_the_game_ended_with_is_the_only_fix_of_a_records_results(tag, marker):
    """h79c: the marker right (1-0, the king escaped), the tag wrong (0-1), the preferred fix was the tag's, which
    the rules refute, and applying it made a new error: where the game ended, its result is the one fix."""
    escaped = "1. c5-c3 i6-f6 2. d5-d3 i4-h4 3. c3-c7 a6-a9 4. Ke5-c5 b5-b9 5. Kc5-c1"
    entry = entry_of(f'[Game "tablut"]\n[Result "{tag}"]\n\n{escaped} {marker}\n')
    [fix] = [fix for diagnostic in entry.report.diagnostics for fix in fixes(entry, diagnostic)][:1]
    assert (fix.title, fix.preferred) == ("Set the result to 1-0", True)
    assert all(f.title == fix.title for d in entry.report.diagnostics for f in fixes(entry, d) if "result" in f.title)


def test_a_hover_says_a_variations_ply_an_illegal_ply_and_a_ply_past_the_replay_for_what_they_are():
    entry = entry_of('[Game "tablut"]\n1. e3-c3 (1. e3-e9) d1-d9 e4-e3 *\n')  # d1-d9 is illegal: the replay stops
    at = {column: entry.ply_at(1, column) for column in (2, 3, 8, 9, 13, 21, 27)}
    assert {column: place and (place[0].text, *place[1:]) for column, place in at.items()} == {
        2: None,  # the blank before the first ply
        3: ("e3-c3", 1, (0, 0)),
        8: ("e3-c3", 1, (0, 0)),  # just after it: where the cursor stands once it is typed
        9: None,
        13: ("e3-e9", 1, (1, 0)),
        21: ("d1-d9", 2, (0, 1)),
        27: ("e4-e3", 3, (0, 2)),
    }
    assert ply_hover(entry, *at[3]).startswith("**move 1, White**: `e3-c3`\n\ncaptured nothing\n\n```text\n")
    assert ply_hover(entry, *at[13]) == (  # illegal in its variation: said as the main line's (it said its text)
        "**move 1, White**, in a variation: `e3-e9` is illegal (T2): the way is blocked at e4; "
        "the rest of this line is not checked"
    )
    assert ply_hover(entry, *at[21]) == (  # the illegal ply: the rule it breaks, whose text the hover adds
        "**move 1, Black**: `d1-d9` is illegal (T2): the way is blocked at d5; the rest of this line is not checked"
    )
    assert (
        ply_hover(entry, *at[27]) == "move 2, White: `e4-e3` was not replayed: the record stops being checked before it"
    )


def test_a_hover_past_an_illegal_ply_of_a_variation_says_its_line_was_not_replayed():
    entry = entry_of('[Game "tablut"]\n1. e3-c3 d1-d3 (1... d1-d9 2. e4-e3) (1... e4-e3) *\n')
    illegal, after, other = (entry.ply_at(1, column) for column in (22, 31, 44))
    assert illegal and after and other
    assert ply_hover(entry, *illegal).startswith("**move 1, Black**, in a variation: `d1-d9` is illegal (T2): ")
    assert ply_hover(entry, *after) == (
        "move 2, White, in a variation: `e4-e3` was not replayed: its line stops being checked before it"
    )
    assert ply_hover(entry, *other) == (
        "**move 1, Black**, in a variation: `e4-e3` is illegal (T1): the piece on e4 is White's, and Black is to "
        "move; the rest of this line is not checked"
    )


def test_a_hover_on_a_variations_ply_the_record_refuses_after_a_left_out_continuation_says_so():
    """c2-c4xd4's continuation c4-c6xc7 is left out (Tyr, berw:n); c1-c5 shows it, so its variation
    starts after it, where c6 is occupied: validate, show and the diagnostic at Kg6-c6 refuse it. The
    hover replayed the variation's line alone, from the written c2-c4xd4, and showed the board after it."""
    entry = entry_of(
        '[Game "hnefatafl"] [Variant "tyr-9x9"] [Position "9/2p3K2/2P6/9/9/3Pp4/9/2p6/p1P6 b"]\n'
        "1... c2-c4xd4 2. c1-c5 ( 2. Kg8-g6 a1-a2 3. Kg6-c6 a2-a1 4. Kc6-d6 ) *\n"
    )
    moved, refused, after = (entry.ply_at(1, column) for column in (28, 44, 61))
    assert moved and refused and after
    assert ply_hover(entry, *moved).startswith("**move 2, White**, in a variation: `Kg8-g6`\n\n")
    assert ply_hover(entry, *refused) == (
        "**move 3, White**, in a variation: `Kg6-c6` is illegal (G3): c6 is occupied (by a ply the record leaves "
        "out after move 1, Black: c2-c4xd4); the rest of this line is not checked"
    )
    assert ply_hover(entry, *after) == (
        "move 4, White, in a variation: `Kc6-d6` was not replayed: its line stops being checked before it"
    )


def test_a_hover_on_a_ply_of_a_record_whose_rules_cannot_be_read_counts_its_plies():
    """No rules, no side to move: the ply is said by its number, the one label that holds."""
    entry = entry_of('[Game "tablut"]\n[Rules "king-capture=5"]\n1. e3-c3 d1-d3 *\n')
    assert ply_hover(entry, *entry.ply_at(2, 10)) == (
        "ply 2: `d1-d3` was not replayed: the record stops being checked before it"
    )


def test_a_hover_shows_the_board_after_a_ply_of_a_record_being_typed():
    """A record being typed has no result marker yet, so it does not parse: a hover on its plies
    showed nothing. Its plies are replayed as validate checks them, with a result assumed."""
    entry = entry_of(OPEN)  # 1. e3-c3 e4-b4, no result marker: e4-b4 breaks T1
    assert entry.report.record is None
    first, illegal = entry.ply_at(2, 3), entry.ply_at(2, 10)
    assert first and illegal and (first[0].text, *first[1:]) == ("e3-c3", 1, (0, 0))
    assert ply_hover(entry, *first).startswith("**move 1, White**: `e3-c3`\n\ncaptured nothing\n\n```text\n")
    assert ply_hover(entry, *illegal) == (
        "**move 1, Black**: `e4-b4` is illegal (T1): the piece on e4 is White's, and Black is to move; the rest of "
        "this line is not checked"
    )


def test_a_hover_on_a_rule_id_in_a_comment_or_on_a_diagnostics_place_shows_the_rule():
    """A hover said nothing of a rule: the IDs a comment or a `%` line cites (in upper case: `e4` is a
    square, not rule E4) and the rule of a diagnostic there (its code: T2 for d1-d9) are shown as
    `lusoria explain ID` prints them."""
    entry = entry_of('[Game "tablut"]\n1. e3-c3 d1-d9 {T4, not C3 nor e4 or X9} *\n% see T12\n')
    line = entry.source.text.split("\n")[1]
    at = {word: rules_at(entry, 1, line.index(word) + 1) for word in ("e3-c3", "d1-d9", "T4", "not", "C3", "e4", "X9")}
    assert at == {"e3-c3": [], "d1-d9": ["T2"], "T4": ["T4"], "not": [], "C3": ["C3"], "e4": [], "X9": []}
    assert rules_at(entry, 2, len("% see T1")) == ["T12"] and rules_at(entry, 0, 3) == []  # not a tag's
    assert rules_at(entry, 0, line.index("d1-d9") + 1) == []  # the tag above d1-d9: not its diagnostic's line
    assert rule_hover("T4") == f"```text\n{explain('T4')}\n```"


def test_a_rule_id_in_a_comment_of_a_later_record_is_found_on_its_own_line():
    """h82a: the IDs a comment cites are sought in the line of the document asked, in a record below
    others too (its lines counted from its own first); the first record's lines are not read for it."""
    document = Document()
    document.update(
        document.split('[Game "tablut"]\n1. e3-c3 *\n\n[Game "tablut"]\n1. e3-c3 d1-d9 {T4 applies} *\n% see T12\n')
    )
    first, second = document.entries
    assert (first.offset, second.offset) == (0, 3) and document.entry_at(4) is second
    line = "1. e3-c3 d1-d9 {T4 applies} *"
    assert rules_at(second, 4, line.index("T4") + 1) == ["T4"] and rules_at(second, 4, line.index("d1-d9") + 1) == [
        "T2"
    ]
    assert rules_at(second, 5, len("% see T1")) == ["T12"] and rules_at(second, 4, line.index("applies") + 1) == []


def test_a_rule_id_outside_a_comment_is_no_rule_though_a_comment_spans_its_column_on_another_line():
    entry = entry_of('[Game "tablut"]\n[Event "T4 cup"]\n\n{a comment as wide as the tag} 1. e3-c3 *\n')
    assert (rules_at(entry, 1, len('[Event "T')), rules_at(entry, 3, len("{a comment as wide as the tag"))) == ([], [])


@pytest.mark.parametrize(
    "typed",
    [
        "2. e4-",
        "2. e4",
        "2. e4-e3xd3 d9-d",
        "2. e4-e3 {a comment not closed yet",
        "\n2. e4-",
        "zz9",
        "(",
        "(2. e4-",
        "( {x",
    ],
)
def test_a_hover_shows_the_plies_before_one_half_typed(typed):
    """A ply half typed (or a comment not closed yet, or a variation opened with no ply yet: `()` did
    not parse) after the others: not parsing with a result assumed, the record had no plies to hover,
    and a hover on the plies before showed nothing while the next was typed. They are read up to the
    syntax error, a variation with no ply yet left out as validate leaves it out (`assumed_end`)."""
    entry = entry_of(f'[Game "tablut"]\n1. e3-c3 d1-d3 {typed}')
    assert entry.report.record is None
    last = entry.ply_at(1, 10)
    assert last and (last[0].text, *last[1:]) == ("d1-d3", 2, (0, 1))
    assert ply_hover(entry, *last).startswith("**move 1, Black**: `d1-d3`\n\ncaptured nothing\n\n```text\n")
    lines = entry.source.text.split("\n")
    assert entry.ply_at(len(lines) - 1, len(lines[-1])) is None  # the end of the ply half typed: not read


def test_a_record_being_typed_that_ends_with_a_move_number_is_replayed_up_to_it():
    """`… 2. ` with the next ply not typed yet did not parse even with a result assumed: a hover on
    its plies showed nothing and the outline counted 0 plies, while completion there worked."""
    entry = entry_of('[Game "tablut"]\n1. e3-c3 d1-d3 2. \n\n')
    assert entry.report.record is None
    last = entry.ply_at(1, 10)
    assert last and (last[0].text, *last[1:]) == ("d1-d3", 2, (0, 1))
    assert ply_hover(entry, *last).startswith("**move 1, Black**: `d1-d3`\n\ncaptured nothing\n\n```text\n")
    assert symbol_detail(entry) == "tablut (seed), 2 plies, 2 errors"
    assert symbol_detail(entry_of('[Game "tablut"]\n1. e3-c3 1... ')) == "tablut (seed), 1 ply, 2 errors"


def test_a_hover_on_the_game_tag_of_an_unknown_game_says_why_there_are_no_rules():
    entry = entry_of('[Game "chess"]\n1. e4 *\n')
    assert tag_at(entry, 0, 3) == "Game"
    known = ", ".join(known_games())
    assert tag_hover(entry, "Game") == f"the rules cannot be chosen: unknown game 'chess' (known: {known})"


def test_a_hover_on_the_game_tag_of_a_record_being_typed_shows_its_rules():
    """A movetext that does not parse yet (no result marker) leaves the rules to the tags: the hover
    said "the rules cannot be chosen: found the move number 2. with no ply after it"."""
    entry = entry_of('[Game "tablut"]\n[Rules "king-capture=2"]\n1. e3-c3 d1-d3 2. ')
    assert entry.report.rules is None
    hover = tag_hover(entry, "Game")
    assert hover is not None and hover.startswith("**tablut**, variant `seed`")
    assert "| `king-capture` | `2` |" in hover
    broken = entry_of('[Game "tablut"]\n[Rules "king-capture=5"]\n1. e3-c3 2. ')
    assert tag_hover(broken, "Rules") == "the rules cannot be chosen: unknown value '5' for king-capture (known: 4, 2)"


@pytest.mark.parametrize("ending", ["*", ""])  # with its result marker, or being typed
def test_a_record_that_writes_a_tag_twice_is_hovered_as_validate_reads_it_with_the_first_value(ending):
    """validate checks its plies under the first Variant (dux); the hover said "the rules cannot be
    chosen: the tag Variant appears twice", and a ply had no board."""
    entry = entry_of(f'[Game "latrunculi"]\n[Variant "dux"]\n[Variant "petteia"]\n1. h1-h6 h8-h7 {ending}\n')
    assert tag_hover(entry, "Variant").startswith("**latrunculi**, variant `dux`")
    ply, number, key = entry.ply_at(3, 4)
    assert (ply.text, number, key) == ("h1-h6", 1, (0, 0))
    assert "latrunculi (dux) after ply 1 of 2" in ply_hover(entry, ply, number, key)


def test_a_hover_on_a_variant_tag_counts_the_tafl_familys_variants_rather_than_listing_them():
    """The hover on a Variant tag of the tafl family listed all 181 variants' names before its table
    (found by new-user-11); a game of a few lists them."""
    entry = entry_of('[Game "hnefatafl"]\n[Variant "opentafl-alea-evangelii-19x19"]\n1. o7-o2 *\n')
    count = len(GAMES["hnefatafl"].presets)
    assert tag_hover(entry, "Variant").splitlines()[0] == (
        f"**hnefatafl**, variant `opentafl-alea-evangelii-19x19` ({count} known: `lusoria explain hnefatafl` lists them)"
    )
    assert tag_hover(entry_of('[Game "copenhagen"]\n1. h1-h3 *\n'), "Game").splitlines()[0] == (
        "**copenhagen**, variant `standard` (known: standard, fetlar)"
    )


def test_a_hover_on_a_tafl_variant_says_its_board_and_start_are_not_the_rules_tags():
    """The hover's table offered `dim` and `start` "a value as an OTN rules record writes it", though
    a Rules tag refuses them (session 34 left it)."""
    hover = tag_hover(entry_of('[Game "hnefatafl"]\n[Variant "fetlar-hnefatafl-11x11"]\n1. a4-c4 *\n'), "Rules")
    assert hover is not None
    assert "| `dim` | `11` | the variant's: a Rules tag cannot set it |" in hover.splitlines()
    assert "| `esc` | `c` | c, e |" in hover.splitlines()


def test_only_the_rules_tag_is_offered_the_games_options():
    entry = entry_of('[Game "tablut"]\n[Event ""]\n[Rules ""]\n1. e3-c3 *\n')
    assert completions(entry, '[Event "', 1, 8) == []
    assert completions(entry, '[Rules "king-cap', 2, 16) == [
        Completion("king-capture=4", "value", 8, 16, "default 4"),
        Completion("king-capture=2", "value", 8, 16, "default 4"),
    ]


def test_a_tafl_variants_rules_tag_is_offered_no_board_nor_start():
    entry = entry_of('[Game "hnefatafl"]\n[Variant "fetlar-hnefatafl-11x11"]\n[Rules ""]\n*\n')
    offered = {completion.label.partition("=")[0] for completion in completions(entry, '[Rules "', 2, 8)}
    assert {"esc", "ks", "cor"} <= offered and not {"dim", "start"} & offered


def test_the_outline_shows_of_a_date_what_is_known_and_no_date_when_nothing_is():
    # it showed `????.??.??`, the roster's unknown date, as it is
    def named(date: str) -> str:
        return symbol_name(entry_of(f'[Game "tablut"]\n[White "A"]\n[Black "B"]\n[Event "E"]\n[Date "{date}"]\n*\n'))

    assert named("????.??.??") == "A – B, E, *"
    assert named("1283.??.??") == "A – B, E, 1283, *"
    assert named("1283.05.??") == "A – B, E, 1283.05, *"
    assert named("2026.11.21") == "A – B, E, 2026.11.21, *"


def test_the_outline_of_a_record_being_typed_names_its_variant_and_plies():
    # it said "tablut (?), 0 plies, 2 errors" of a record without its result marker yet
    assert symbol_detail(entry_of(OPEN)) == "tablut (seed), 2 plies, 2 errors"


def test_the_outline_counts_one_ply_in_the_singular():
    # it said "tablut (seed), 1 plies, valid"
    assert symbol_detail(entry_of('[Game "tablut"]\n1. e3-c3 *\n')) == "tablut (seed), 1 ply, valid"
    assert symbol_detail(entry_of('[Game "tablut"]\n1. e3-c3 d1-d3 *\n')) == "tablut (seed), 2 plies, valid"


def test_a_document_of_another_format_that_its_reader_refuses_is_not_read_as_a_record_being_typed():
    """An .otg file holding lgn is refused by the OpenTafl reader: its hover and outline show no ply,
    where reading its text as an lgn record being typed (`typed_so_far`) replayed two."""
    document = Document("/club/game.otg")
    document.update(document.split('[Game "tablut"]\n\n1. e3-c3 d1-d3\n'))
    [entry] = document.entries
    assert (document.format, entry.report.record) == ("otn", None)
    assert entry.replayed is entry.report
    assert entry.ply_at(2, 4) is None
    assert symbol_detail(entry) == "tablut (?), 0 plies, 1 error"


def test_format_this_record_is_offered_only_where_fmt_changes_the_record():
    """A record being typed (no result marker yet) was offered "Format this record", which only stripped
    its trailing blanks: fmt writes a record that does not parse as it was, and so does the editor now."""
    typed = '[Game "tablut"]\n1. e3-c3 e4-b4 \n'
    assert format_record(typed)[0] == typed
    assert format_fix(entry_of(typed)) is None
    sloppy = '[Game "Tablut"]\n1. e3-c3 *\n'
    [edit] = format_fix(entry_of(sloppy)).edits
    assert edit.text + "\n" == format_record(sloppy)[0] and (edit.line, edit.end_line) == (0, 1)
    twice = '[Game "Tablut"]\n[White "Ann"]\n[White "Bob"]\n1. e3-c3 *\n'  # replayed, read without the repeat:
    assert entry_of(twice).report.plies == 1 and format_fix(entry_of(twice)) is None  # its canonical form loses Bob
    assert format_record(twice)[0] == twice


NOTED = '% the file\n[Game "Tablut"]\n% a tag\n[Event "club"]\n1. e3-c3\n% a move\nd1-d3 *\n% after it\n'


def test_format_document_keeps_every_escape_line_as_fmt_does():
    """Format document dropped `%` lines, which the reader ignores: the file's notes were lost."""
    formatted = formatted_document(NOTED)
    assert formatted == format_record(NOTED)[0]
    assert [line for line in formatted.split("\n") if line.startswith("%")] == [
        "% the file",
        "% a tag",
        "% a move",
        "% after it",
    ]
    assert formatted_document(formatted) == formatted
    assert formatted_document("% a note\n\n% another\n") == "% a note\n% another\n"


def test_format_this_record_keeps_the_escape_lines_inside_it_and_leaves_those_around_it():
    entry = entry_of(NOTED)
    [edit] = format_fix(entry).edits
    assert (edit.line, edit.end_line) == (1, 6)  # from the Game tag to the result: not the lines around
    assert "% a tag\n" in edit.text and "\n% a move\n1... d1-d3 *" in edit.text
    assert "% the file" not in edit.text and "% after it" not in edit.text


@pytest.mark.parametrize(
    "typed, first, start, move",
    [
        ("1. 64: 5/11 4/8 61: 6/12 6/", "61: 6/12 6/7", 16, "move 1, Black"),  # a ply half written: from its roll
        ("1. 64: 5/11 4/8 6", "61: 6/12 6/7", 16, "move 1, Black"),  # the next ply's roll begun, after a whole ply
        ("1. 64: 5/11 4/8 61: 6/12 6/7 2", "2.", 29, "move 2, White"),  # the next move's number, not more of 61's
    ],
)
def test_a_laquet_ply_is_completed_from_its_roll_until_it_is_whole(typed, first, start, move):
    """A ply half written is offered its plays from its roll, and no result marker, which would replace it
    (newcomer-58a: `*` was offered in place of `61: 6/12 6/`); after a whole ply, the results are offered."""
    entry = entry_of(f'[Game "laquet"]\n{typed}')
    offered = completions(entry, typed, 1, len(typed))
    assert (offered[0].label, offered[0].start) == (first, start)
    assert next(ply.detail for ply in offered if ply.kind == "ply") == move  # the ply offered said by its move
    results = [item.label for item in offered if item.kind == "result"]
    assert results == ([] if typed.endswith("/") else ["1-0", "0-1", "1/2-1/2", "*"])


def test_a_hover_says_a_laquet_ply_by_its_move_its_roll_played_by_the_opponent_too():
    """A hover said a ply's number (`**ply 8** (Black)`); it says its move, as validate does, a roll
    that the opponent plays (`54: -- >54: …`, Q6) one ply of the move."""
    entry = entry_of(LAQUET.read_text())
    line = entry.source.text.split("\n")[11]
    ply = entry.ply_at(11, line.index("54: --") + 1)
    assert ply_hover(entry, *ply).startswith("**move 4, Black**: `54: -- >54: 1/5 4/9`\n\n")


def test_a_laquet_ply_is_whole_whatever_result_the_record_s_tag_says():
    """A Result tag (`1-0`) made the record checked up to the place, with `*` after it, end in an error:
    its last ply was taken for one half written, and `2` was offered 61's plays, not the move number."""
    typed = "1. 64: 5/11 4/8 61: 6/12 6/7 2"
    entry = entry_of(f'[Game "laquet"]\n[Result "1-0"]\n{typed}')
    offered = completions(entry, typed, 2, len(typed))
    assert (offered[0].label, offered[0].start) == ("2.", 29)


@pytest.mark.parametrize("after", ["", "{White bore off all 15 checkers (Q8)} "])
def test_after_the_last_laquet_ply_the_results_go_after_it_not_in_its_place(after):
    """Once White bore off every checker, the results were offered in place of the last ply (from its
    roll, across a comment too): choosing `1-0` wrote `26. 1-0`, the ply and the comment deleted."""
    text = LAQUET.read_text()
    typed = text[: text.index("{White bore off")] + after  # ... `26. 32: 18/off 18/off `
    line = typed.split("\n")[-1]
    offered = completions(entry_of(typed), line, typed.count("\n"), len(line))
    assert [(c.label, c.start, c.end) for c in offered] == [
        (result, len(line), len(line)) for result in ("1-0", "0-1", "1/2-1/2", "*")
    ]


@pytest.mark.parametrize(
    "typed", ["1. 64: 5/11 {c} ", "1. 64: 5/11 {c} 4", "1. 64: 5/11 ; c ", "1. 64: 5/11 (1. 64: 4/8 5/11) "]
)
def test_a_laquet_ply_is_not_completed_from_a_roll_across_a_comment_or_a_variation(typed):
    """`64: 5/11 4/8` was offered from the roll before `{c}`, in place of the comment: no ply goes on
    past one (nor past a variation), so nothing is offered there."""
    assert completions(entry_of(f'[Game "laquet"]\n{typed}'), typed, 1, len(typed)) == []


@pytest.mark.parametrize("before", ["1. ", "1. 64: 5/11 4/8 61: 6/12 6/7 "])  # (a move's start: its number not written)
@pytest.mark.parametrize("roll", ["63", "36", "3-6", "36:"])
def test_a_laquet_roll_typed_low_die_first_or_without_its_colon_offers_its_plies(roll, before):
    """`36` and `3-6` without their colon offered the plies of every roll (`11: 1/2 2/3` first: h71a), where `36:`
    offered those of 63, as validate reads the roll; each says its roll as typed, which an editor matches what is
    typed against (`63: 2/8 1/4` holds no `36`), and comes before the move number (review71b)."""
    typed = f"{before}{roll}"
    offered = completions(entry_of(f'[Game "laquet"]\n{typed}'), typed, 1, len(typed))
    plies = [c for c in offered if c.kind == "ply"]
    assert plies and all(ply.label.startswith("63: ") for ply in plies)
    assert offered[0] == plies[0]  # before the move number, `2.` (review71b)
    shown = "" if roll == "63" else roll.removesuffix(":") + ":"  # what the editor matches the text typed against
    assert [ply.filter for ply in plies] == [shown + ply.label[3:] if shown else "" for ply in plies]


def test_a_laquet_ply_whose_play_has_a_repeat_count_is_completed_from_its_roll():
    """`2/8(3)`, a play written three times: its `(3)` was taken for a variation the ply does not go on
    past, and nothing was offered; the plies of 66 are, in place of the ply, as validate suggests."""
    typed = "1. 66: 2/8(3) "
    offered = completions(entry_of(f'[Game "laquet"]\n{typed}'), typed, 1, len(typed))
    assert (offered[0].label, offered[0].start, offered[0].end) == ("66: 2/8 2/8", 3, len(typed))


@pytest.mark.parametrize(
    "before",
    [
        *("3. f5-f3 e9-i9 (", "3. f5-f3 e9-i9 ( ", "3. f5-f3 e9-i9 (\n"),  # a variation of Black's ply opened
        *("3. f5-f3 {good} ", "3. f5-f3 ; good\n", "3. f5-f3 (3. e6-e7) ", "3. f5-f3\n% x\n"),  # after a break
    ],
)
def test_a_second_ply_after_a_break_is_offered_its_move_number_first(before):
    """`(3... d1-c1`, `{good} 3... d1-c1`, as fmt writes them: a variation's first ply, Black's, or one
    after a comment, a variation or a `%` line, was offered without its number (a second ply's `N...`
    was offered at the record's start only)."""
    text = f'[Game "tablut"]\n1. c5-c7 f9-f8 2. e6-f6 e2-d2 {before}'
    *_, typed = text.split("\n")
    offered = completions(entry_of(text), typed, text.count("\n"), len(typed))
    assert (offered[0].label, offered[0].kind, offered[0].start) == ("3...", "number", len(typed))
    assert [c.label for c in offered[1:3]] == ["d1-c1", "d1-b1"]


@pytest.mark.parametrize(
    "text",
    [
        '[Game "tablut"]\n1. c5-c7 f9-f8 2. e6-f6 e2-d2 3. f5-f3 ',
        '[Game "tablut"]\n1. c5-c7 f9-f8 2. e6-f6 e2-d2 3. f5-f3 $1 ',
        '[Game "laquet"]\n1. 66: 2/8(2) ',  # a repeat count, no variation
    ],
)
def test_a_second_ply_that_follows_its_move_s_first_is_offered_no_number(text):
    """As fmt writes it, `3. f5-f3 e9-i9`: no `3...` after the first ply, a NAG of it, a play's `(2)`."""
    typed = text.split("\n")[-1]
    offered = completions(entry_of(text), typed, 1, len(typed))
    assert offered and "number" not in [c.kind for c in offered]


def test_a_record_whose_second_side_moves_first_is_offered_1_dots_first():
    """A Position with Black to move: its first ply is a move's second, `1... d1-d2`."""
    text = '[Game "tablut"]\n[Position "3ppp3/4p4/4P4/p3P3p/ppPPKPPpp/p3P3p/4P4/4p4/3ppp3 b"]\n'
    offered = completions(entry_of(text), "", 2, 0)
    assert [(c.label, c.kind) for c in offered[:2]] == [("1...", "number"), ("d1-d2", "ply")]


def test_no_ply_is_offered_on_a_line_past_the_document():
    """A line the text does not hold offers nothing, not the plies where the text ends."""
    entry = entry_of('[Game "tablut"]\n1. e3-c3')
    assert [c.label for c in completions(entry, "", 1, len("1. e3-c3 "))][:2] == ["d1-d2", "d1-d3"]
    assert completions(entry, "", 2, 0) == []


SAAMI_W = "Historical Hnefatafl 9x9 (Saami Tablut-w)"  # aagenielsen.dk's: Tablut's aage, White first


@pytest.mark.parametrize(
    "record, rules_edit",
    [  # no Rules tag: one of its own before the Variant's line (after it, it followed `*`: a syntax error)
        (f'[Game "tablut"]\n[Variant "{SAAMI_W}"]\n\n*\n', Edit(1, 0, 1, 0, '[Rules "first=white"]\n')),
        (f'[Game "tablut"]\n[Variant "{SAAMI_W}', Edit(1, 0, 1, 0, '[Rules "first=white"]\n')),
        (f'[Game "tablut"]\n[Variant "{SAAMI_W}"] *\n', Edit(1, 0, 1, 0, '[Rules "first=white"]\n')),
        (  # the name's options first, in place of those the tag set to other values
            f'[Game "tablut"]\n[Variant "{SAAMI_W}"]\n[Rules "king-armed=no First=black"]\n\n*\n',
            Edit(2, 7, 2, 34, '"first=white king-armed=no"'),
        ),
        (  # on the Variant's line, after the name completed
            f'[Game "tablut"]\n[Variant "{SAAMI_W}"] [Rules "king-armed=no"]\n\n*\n',
            Edit(1, len(SAAMI_W) + 20, 1, len(SAAMI_W) + 35, '"first=white king-armed=no"'),
        ),
        (  # a Rules tag quoted in a comment is no tag: the record's own is written (the comment's was rewritten)
            f'[Game "tablut"]\n[Variant "{SAAMI_W}"]\n\n{{ [Rules "first=black"] was in the source }}\n*\n',
            Edit(1, 0, 1, 0, '[Rules "first=white"]\n'),
        ),
        (
            f'[Game "tablut"]\n[Variant "{SAAMI_W}"]\n[Rules "king-armed=no"]\n1. e3-c3 {{ [Rules "x=y"] }} *\n',
            Edit(2, 7, 2, 22, '"first=white king-armed=no"'),
        ),
    ],
)
def test_a_variants_name_completed_writes_the_rules_it_sets(record, rules_edit):
    """Completing the name aagenielsen.dk gives Tablut's aage played White first wrote `aage` and said
    its Rules `first=white` in the detail only: the record then played Black first, not as the name says."""
    entry, typed = entry_of(record), f'[Variant "{SAAMI_W}'
    [offered] = completions(entry, record.splitlines()[1], 1, len(typed))
    assert (offered.label, offered.edits) == ("aage", (rules_edit,))
    lines = record.splitlines(keepends=True)
    for edit in sorted([Edit(1, 10, 1, len(typed), "aage"), rules_edit], key=astuple, reverse=True):  # last first
        lines[edit.line] = lines[edit.line][: edit.column] + edit.text + lines[edit.line][edit.end_column :]
    completed = "".join(lines) + ('"]\n\n*\n' if not record.endswith("*\n") else "")
    report = check(completed)
    assert (report.diagnostics, report.rules.option["first"]) == ([], "white")


@pytest.mark.parametrize(
    "record, rules_edit",
    [
        (
            f'[Game "tablut"]\n[Variant "{SAAMI_W}\n{{ [Rules "first=black"] }}\n*\n',
            Edit(1, 0, 1, 0, '[Rules "first=white"]\n'),
        ),
        (
            f'[Game "tablut"]\n[Variant "{SAAMI_W}\n[Rules "king-armed=no"]\n*\n',
            Edit(2, 7, 2, 22, '"first=white king-armed=no"'),
        ),
        (  # another tag left open: its tags did not parse, and a second Rules tag was written, read after the first
            f'[Game "tablut"]\n[Variant "{SAAMI_W}\n[Event "Lund\n[Rules "king-armed=no"]\n*\n',
            Edit(3, 7, 3, 22, '"first=white king-armed=no"'),
        ),
    ],
)
def test_a_variants_name_being_typed_writes_its_rules_in_the_record_s_rules_tag(record, rules_edit):
    """The Variant tag not closed yet (the record does not parse): its Rules go in the Rules tag the
    record's tags hold, not one a comment quotes."""
    typed = f'[Variant "{SAAMI_W}'
    [offered] = completions(entry_of(record), typed, 1, len(typed))
    assert offered.edits == (rules_edit,)


def test_plies_are_offered_on_the_record_s_first_line_after_its_tags():
    typed = '[Game "tablut"] 1. e3-c3 '
    offered = completions(entry_of(typed), typed, 0, len(typed))
    assert [(c.label, c.start) for c in offered][:2] == [("d1-d2", 25), ("d1-d3", 25)]


def test_a_variant_tag_is_offered_the_variant_other_programs_call_what_is_typed_first():
    """As the Variant tag reads it (rules_from_tags): `Fetlar`, OpenTafl's name, is hnefatafl's
    opentafl-fetlar-11x11, offered first, then the variants that hold the text; a name whose variant
    sets Rules says them."""
    hnefatafl = entry_of('[Game "hnefatafl"]\n[Variant ""]\n*\n')
    offered = completions(hnefatafl, '[Variant "Fetlar', 1, 16)
    assert offered[:2] == [
        Completion("opentafl-fetlar-11x11", "value", 10, 16, "Fetlar, as other programs call it", (), "Fetlar"),
        Completion("fetlar-hnefatafl-11x11", "value", 10, 16),
    ]
    assert [each.label for each in offered].count("opentafl-fetlar-11x11") == 1
    typed = '[Variant "Historical Hnefatafl 9x9 (Saami Tablut-w)'
    assert completions(entry_of('[Game "tablut"]\n[Variant ""]\n*\n'), typed, 1, len(typed)) == [
        Completion(
            "aage",
            "value",
            10,
            len(typed),
            'Historical Hnefatafl 9x9 (Saami Tablut-w), as other programs call it (its Rules: "first=white", written too)',
            (Edit(1, 0, 1, 0, '[Rules "first=white"]\n'),),
            "Historical Hnefatafl 9x9 (Saami Tablut-w)",
        )
    ]
    typed = '[Variant "Copenhagen'  # aagenielsen.dk's name of the game's default variant, which it names not
    assert completions(entry_of('[Game "copenhagen"]\n[Variant ""]\n*\n'), typed, 1, len(typed)) == [
        Completion("standard", "value", 10, len(typed), "Copenhagen, as other programs call it", (), "Copenhagen")
    ]


@pytest.mark.parametrize(
    "game, typed, offered",
    [
        ("tablut", "Saami Tablut", [("aage", ""), ("aage", "first=white")]),  # (h71a: none until the name was whole)
        ("tablut", "historical hnefatafl 9x9 (saami tablut", [("aage", ""), ("aage", "first=white")]),
        ("copenhagen", "Copenhagen Hnef", [("standard", "")]),
    ],
)
def test_a_variant_tag_is_offered_the_variants_whose_names_in_other_programs_hold_what_is_typed(game, typed, offered):
    """A name of another program's, part typed, offers its variant, with the Rules it sets, and the name for the
    editor to match the text typed against (its label, `aage`, holds none of it)."""
    line = f'[Variant "{typed}'
    found = completions(entry_of(f'[Game "{game}"]\n[Variant ""]\n*\n'), line, 1, len(line))
    assert [(c.label, c.edits[0].text[8:-3] if c.edits else "") for c in found] == offered
    assert all(typed.lower() in c.filter.lower() and c.detail.startswith(c.filter) for c in found)


def test_a_document_that_a_plug_in_reader_fails_on_is_one_record_whose_error_says_why():
    """What validate says of the file (its source cannot be read), at the document's first line: the
    server publishes it, where the reader's failure stopped the check."""

    def broken(text, path, tags):
        raise ValueError("no move list here")

    FORMATS.register(Format("broken", (".broken",), broken))
    try:
        document = Document("/work/games.broken")
        document.update(document.split("e3-c3\n"))
    finally:
        FORMATS.unregister("broken")
    [(entry, error)] = document.diagnostics()
    assert (document.format, entry.lgn, error.rule, error.line, error.column) == ("broken", False, "syntax", 1, 1)
    assert error.message.startswith("/work/games.broken: the broken reader failed: ")
    assert "broken raised ValueError: no move list here (" in error.message


SCRAPED = (
    '{"AageGameTypeName": "Historical Hnefatafl 9x9 (Saami Tablut)", "WhoMovedFirst": "black", '
    '"Moves": "%s", "WhoWon": "black"}'
)


def test_each_game_of_a_scrape_written_on_one_line_has_its_own_diagnostics():
    """A minified aagenielsen.dk scrape: its games share their line, and their text (that line)."""
    document = Document("/work/scrape.json")
    document.update(
        document.split(f"[{SCRAPED % 'b5-b7 e6-c6 b7-b8 i6-e6xe7'}, {SCRAPED % 'b5-b7 e6-c6 i6-e6xe7 e5-e1'}]\n")
    )
    said = [(error.rule, error.line, error.column, error.text) for _, error in document.diagnostics()]
    assert said == [("T1", 1, 120, "i6-e6xe7"), ("T2", 1, 272, "e5-e1")]


def test_a_header_naming_another_game_changes_the_diagnostics_of_the_move_lists_below_it():
    document = Document("/work/lists.txt")
    document.update(document.split("# brandubh\n\nd2-b2 c4-c5\n\ne8-b8 d5-d6\n"))
    [(_, error)] = document.diagnostics()  # (checked, as the server checks every edit)
    assert (error.line, error.message) == (5, "found 'e8-b8': e8 is not a square of the Brandubh board (a1–g7)")
    document.update(document.split("# tablut\n\nd2-b2 c4-c5\n\ne8-b8 d5-d6\n"))
    [(_, error)] = document.diagnostics()
    assert (error.rule, error.line, error.column, error.message) == (
        "T2",
        3,
        1,
        "there is no piece on d2; the rest of this line is not checked; tablut is read as the site's (--variant "
        "aage), this format's default, unless --variant names another (--variant seed: tablut's own)",
    )


def test_a_document_of_another_format_is_read_once_for_each_text_whatever_is_asked_of_it():
    """An editor asks several things of each edit (diagnostics, tokens, outline, fixes): a large
    `.csv` is not read again for each."""
    texts = []

    def counted(text, path, tags):
        texts.append(text)
        return FORMATS["tafl"].read(text, path, tags)

    FORMATS.register(Format("counted", (".counted",), counted))
    try:
        document = Document("/work/tablut.counted")
        for text in ["e3-c3 d1-d3\n", "e3-c3 d1-d3\n", "e3-c3 d1-d3 e4-e3\n", "e3-c3 d1-d3 e4-e3\n"]:
            document.update(document.split(text))
    finally:
        FORMATS.unregister("counted")
    assert texts == ["e3-c3 d1-d3\n", "e3-c3 d1-d3 e4-e3\n"]
    assert [(ply.text, ply.line) for ply in document.entries[0].report.record.main.plies] == [
        ("e3-c3", 1),
        ("d1-d3", 1),
        ("e4-e3", 1),
    ]


def test_the_reading_the_rules_accept_is_the_preferred_quick_fix():
    """`0-0` under `[Result "*"]`: the editor's preferred fix wrote 1/2-1/2, which the Result tag refuses;
    it is `*`, the reading the rules accept (historian-49b)."""
    entry = entry_of('[Game "tablut"]\n[Result "*"]\n\n1. e3-c3 0-0\n')
    [error] = entry.report.diagnostics
    assert [(fix.title, fix.edits, fix.preferred) for fix in fixes(entry, error)] == [
        ("Replace with *", (Edit(3, 9, 3, 12, "*"),), True),
        ("Replace with 1/2-1/2", (Edit(3, 9, 3, 12, "1/2-1/2"),), False),
    ]


def test_a_slips_quick_fix_replaces_the_words_its_reading_joins():
    """`1 / 4, 2/3`: the move number `1.` and the play `1/4` each read up to one column past the `1`, and both
    were offered over the `1` alone: "Replace with 1/4" wrote `1/4 / 4, 2/3`. The play reads further into the
    text as written, and is the one fix, over `1 / 4` (review-49s)."""
    entry = entry_of('[Game "laquet"]\n\n1. 63: 5/11 1 / 4, 2/3 *\n')
    [error] = entry.report.diagnostics
    assert [(fix.title, fix.edits, fix.preferred) for fix in fixes(entry, error)] == [
        ("Replace with 1/4", (Edit(2, 12, 2, 17, "1/4"),), True),
    ]


@pytest.mark.parametrize("comment, number", [(" { c }", "1."), ("", None)])
def test_a_berserk_move_after_a_comment_is_offered_the_number_of_the_move_it_continues(comment, number):
    """`1. d1-d3xd4 {c} 1. d3=f3xg3`, as fmt writes it (docs/notation.md §4): the continuation was offered `1...`,
    which validate then warned of (h71a); right after its move, no number."""
    tags = '[Game "hnefatafl"]\n[Variant "fetlar-hnefatafl-11x11"]\n[Rules "ber=c"]\n'
    text = f'{tags}[Position "11/1p9/11/11/11/10K/3p7/3P7/6Pp3/11/3p7 b"]\n1. d1-d3xd4{comment} '
    typed = text.split("\n")[-1]
    offered = completions(entry_of(text), typed, text.count("\n"), len(typed))
    assert [c.label for c in offered if c.kind == "number"] == ([number] if number else [])
    assert [c.label for c in offered if c.kind == "ply"] == ["d3=f3xg3"]
    written = check(f"{text}{number or ''} d3=f3xg3 *")
    assert written.valid and written.diagnostics == []


def test_a_file_of_no_record_is_said_so_in_validates_words(tmp_path):
    """The server read a file's lgn records as text of no file, so a file of no record was said to be read as lgn
    "unless a format is named for it" where validate says "in any format lusoria reads" (h71a)."""
    path = tmp_path / "notes.lgn"
    path.write_text("cord\n")
    document = Document(str(path))
    document.update(document.split(path.read_text()))
    [entry] = document.entries
    [said] = entry.report.diagnostics
    [validated] = validate([str(path)])
    assert said.message == validated.diagnostics[0].message
    assert said.message.startswith("not a game record in any format lusoria reads: read as lgn,")
