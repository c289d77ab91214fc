"""What a tafl player sees: where the attackers (Black) move first, a move is Black's ply and
White's reply (`1. h1-h3 g5-g4`, as OTN and aagenielsen.dk write) in lgn output, `fmt`, `html`
and the language server; a record numbered from White (`1... h1-h3 2. g5-g4`) is read too, and
its replay page and messages keep its numbering."""

import re

import pytest
from click.testing import CliRunner

from lusoria.api import replay_page
from lusoria.cli import main
from lusoria.document import Document, Edit, completions, fixes, ply_hover
from lusoria.notation.reader import RecordText
from lusoria.validator.replay import check, line_moves

COPENHAGEN = '[Game "copenhagen"]\n\n'
MOVERS = COPENHAGEN + "1. h1-h3 g5-g4 2. h3-h1 *\n"  # Black, White, Black
WHITES = COPENHAGEN + "1... h1-h3 2. g5-g4 h3-h1 *\n"


def run(*args, input=None):
    return CliRunner().invoke(main, [str(a) for a in args], input=input)


def test_both_numberings_read_clean_and_fmt_writes_the_players_one():
    for text in (MOVERS, WHITES):
        report = check(text)
        assert report.valid and report.diagnostics == [] and report.plies == 3
    for text in (MOVERS, WHITES):
        formatted = run("fmt", "-", input=text)
        assert formatted.exit_code == 0 and formatted.stdout.endswith("\n\n1. h1-h3 g5-g4 2. h3-h1 *\n")


def test_a_number_that_breaks_the_records_numbering_is_a_warning_at_the_number():
    report = check(COPENHAGEN + "1. h1-h3 g5-g4 3. h3-h1 *\n")
    assert [(d.severity, d.rule, d.ply, d.line, d.column, d.message.split(" (")[0]) for d in report.diagnostics] == [
        ("warning", "number", 3, 3, 16, "the move number should be 2., not 3.")  # at `3.`, not at h3-h1
    ]
    mixed = check(COPENHAGEN + "1... h1-h3 2. g5-g4 2. h3-h1 *\n")  # from White: ply 3 is 2...
    assert [(d.rule, d.ply, d.message) for d in mixed.diagnostics] == [
        ("number", 3, "the move number should be 2..., not 2.")
    ]


@pytest.mark.parametrize("movetext", ["1. e3-c3 a4-b4 3. c3-c9 *", "1. e3-c3 a4-b4 2. e4-e3 ( 3. c3-c9 ) *"])
def test_a_ply_under_a_wrong_number_is_named_by_its_right_one(movetext):
    """`3. c3-c9` is White's ply of move 2: its error says so, beside the warning that says the
    number written (one label a ply, whatever its record writes, in the main line as in a variation)."""
    found = check(f'[Game "tablut"]\n{movetext}\n').diagnostics
    where = ", in a variation" if "(" in movetext else ""
    assert [(d.rule, d.move, d.message.split(";")[0].split(" (")[0]) for d in found] == [
        ("number", "", "the move number should be 2., not 3."),
        ("T2", f"move 2, White{where}", "the way is blocked at c5"),
    ]


def test_a_game_whose_first_mover_is_white_keeps_its_numbering():
    text = '[Game "tablut"]\n\n1. e3-c3 d1-d3 2. c3-c2 *\n'
    assert run("fmt", "-", input=text).stdout.endswith("\n\n1. e3-c3 d1-d3 2. c3-c2 *\n")
    position = '[Game "copenhagen"]\n[Position "11/11/11/11/11/5K5/11/11/11/11/7p3 w"]\n\n'
    started_by_white = run("fmt", "-", input=position + "Kf6-f9 h1-h3 *\n").stdout
    assert started_by_white.endswith("\n\n1... Kf6-f9 2. h1-h3 *\n")  # White to move: the second ply of move 1


@pytest.mark.parametrize(
    "tags, movetext, written",
    [
        ('[Game "laquet"]\n[Position "2:3,3:1,19:1 6:12 b"]', "1... 41: 13/14 *", "1... 41: 13/14 *"),
        (
            '[Game "tablut"]\n[Position "3ppp3/4p4/4P4/p3P3p/ppPPKPPpp/p3P3p/4P4/4p4/3ppp3 x"]',
            "1... d1-d3 2. e3-c3 *",
            "1... d1-d3 2. e3-c3 *",
        ),
        ('[Game "tablut"]\n[Variant "linaeus"]', "e1-e3 2... c5-c3 *", "1. e1-e3 c5-c3 *"),
    ],
)
def test_fmt_numbers_a_record_whose_start_a_tag_mars_as_the_record_does(tags, movetext, written):
    """A Position or Variant at fault leaves no start to number from: fmt numbered from White
    (`1... d1-d3` became `1. d1-d3`, wrong once the tag is mended; found by new-user-13)."""
    formatted = run("fmt", "-", input=f"{tags}\n\n{movetext}\n").stdout
    assert formatted.endswith(f"\n\n{written}\n")


@pytest.mark.parametrize(
    "text, listed",
    [
        (MOVERS, [("1.", "move 1, attackers"), ("", "move 1, defenders"), ("2.", "move 2, attackers")]),
        (WHITES, [("1...", "move 1, attackers"), ("2.", "move 2, defenders"), ("", "move 2, attackers")]),
    ],
)
def test_the_replay_page_numbers_as_the_record_and_its_status_line_do(text, listed):
    """The page's move list is numbered as validate, its notes and its status line name the plies
    (the record's numbering; the sides as the game names them, as the explorer does): a record numbered
    from White was listed `1. h1-h3 g5-g4` while the status line and the note at g5-g4 said "move 2, White"
    (found by review-43L)."""
    page = replay_page(RecordText(text))
    assert (
        re.findall(r"(?:(\d+\.(?:\.\.)?)\u00a0)?<span class=\"ply\" data-ply=\"\d\" data-move=\"([^\"]*)\"", page)
        == listed
    )


def test_the_language_server_fixes_and_completes_in_the_records_numbering():
    document = Document()
    document.update(document.split(COPENHAGEN + "1. h1-h3 g5-g4 3. h3-h1 *\n"))
    entry = document.entries[0]
    [warning] = entry.report.diagnostics
    [fix] = fixes(entry, warning)
    assert fix.title == "Number the move 2."
    document.update(document.split(COPENHAGEN + "1. h1-h3 g5-g4 \n"))
    offered = [c.label for c in completions(document.entries[0], "1. h1-h3 g5-g4 ", 2, 15) if c.kind == "number"]
    assert offered == ["2."]
    document.update(document.split(COPENHAGEN + "1... h1-h3 2. g5-g4 \n"))
    line = "1... h1-h3 2. g5-g4 "
    assert [c.label for c in completions(document.entries[0], line, 2, len(line)) if c.kind == "number"] == []
    document.update(document.split(COPENHAGEN + "1... h1-h3 \n"))
    assert [c.label for c in completions(document.entries[0], "1... h1-h3 ", 2, 11) if c.kind == "number"] == ["2."]


def test_a_wrong_number_on_a_line_of_its_own_is_said_where_it_stands_and_fixed_there():
    text = '[Game "tablut"]\n1. e3-c3 d1-d3\n3.\ne4-e3xd3 *\n'
    [warning] = check(text).diagnostics
    assert (warning.rule, warning.ply, warning.line, warning.column, warning.text) == ("number", 3, 3, 1, "3.")
    document = Document()
    document.update(document.split(text))
    [fix] = fixes(document.entries[0], document.entries[0].report.diagnostics[0])
    assert fix.edits == (Edit(2, 0, 2, 2, "2."),)


@pytest.mark.parametrize("between", ["{3. is wrong} ", "$1 { see 3. above }\n; 3. again\n"])
def test_a_wrong_number_is_said_and_fixed_where_written_not_where_a_comment_after_it_repeats_it(between):
    text = f'[Game "tablut"]\n1. e3-c3 d1-d3 3. {between}e4-e3xd3 *\n'
    [warning] = check(text).diagnostics
    assert (warning.rule, warning.line, warning.column, warning.text) == ("number", 2, 16, "3.")
    document = Document()
    document.update(document.split(text))
    [fix] = fixes(document.entries[0], document.entries[0].report.diagnostics[0])
    assert fix.edits == (Edit(1, 15, 1, 17, "2."),)


def test_plies_numbered_one_by_one_get_one_warning_that_the_language_server_fixes_in_one_action():
    # each wrong number was a warning of its own: one a ply
    text = '[Game "tablut"]\n1. e3-c3 2. a4-a2\n3. c3-c1 (3. c3-c2 4. a5-a3) 4. d1-d2 *\n'
    report = check(text)
    assert [(d.severity, d.rule, d.ply, d.line, d.column, d.message) for d in report.diagnostics] == [
        (
            "warning",
            "number",
            2,
            2,
            10,
            "the move number should be 1..., not 2. (4 more wrong move numbers follow: lusoria fmt mends them)",
        )
    ]
    document = Document()
    document.update(document.split(text))
    entry = document.entries[0]
    [fix] = fixes(entry, entry.report.diagnostics[0])
    assert fix.title == "Number the 5 moves right"
    lines = text.split("\n")
    for edit in sorted(fix.edits, key=lambda edit: (edit.line, -edit.column)):
        row = lines[edit.line]
        lines[edit.line] = row[: edit.column] + edit.text + row[edit.end_column :]
    assert lines[1:3] == ["1. e3-c3 1... a4-a2", "2. c3-c1 (2. c3-c2 2... a5-a3) 2... d1-d2 *"]
    assert check("\n".join(lines)).diagnostics == []


FOLLOW = "wrong move number{} follow{}: lusoria fmt mends them"


@pytest.mark.parametrize(
    "moves, said, title",
    [
        (  # the variation's 3. (line 2) is replayed after the main line's 5... (line 3): the first written
            "1. e3-c3 (3. e3-d3 a4-a2) a4-a2\n2. c3-c1 5... a2-a1 *\n",
            [("number", 1, 2, 11, f"the move number should be 1., not 3. (1 more {FOLLOW.format('', 's')})")],
            "Number the 2 moves right",
        ),
        (  # the replay stops at c3-c9 (blocked at c5): 4. and 5. follow it, still wrong, and counted as the fix counts
            "1. e3-c3 2. a4-a2\n3. c3-c9 4. d1-d2 5. a2-a1 *\n",
            [
                ("number", 2, 2, 10, f"the move number should be 1..., not 2. (3 more {FOLLOW.format('s', '')})"),
                ("T2", 3, 3, 4, "the way is blocked at c5; the rest of this line is not checked"),
            ],
            "Number the 4 moves right",
        ),
    ],
)
def test_the_warning_is_at_the_first_wrong_number_written_and_counts_those_its_quick_fix_writes(moves, said, title):
    document = Document()
    document.update(document.split('[Game "tablut"]\n' + moves))
    entry = document.entries[0]
    assert [(d.rule, d.ply, d.line, d.column, d.message) for d in entry.report.diagnostics] == said
    [fix] = fixes(entry, entry.report.diagnostics[0])
    assert fix.title == title


BERSERK = (  # Fetlar with berserk moves (G15): a knight on c6 captures, then again (c4=d4)
    '[Game "hnefatafl"]\n[Variant "fetlar-hnefatafl-11x11"]\n[Rules "ber=c"]\n'
    '[Position "11/11/11/5K5/11/2n8/2P6P1/pP2Pp1P3/8P2/8c2/11 b"]\n\n'
)
BERSERK_MOVES = "1. c6-c4xb4/c5 c4=d4xe4 Kf8-g8 2. i2-i4 j5-j4xi4 *\n"


def test_a_berserk_move_is_numbered_with_the_move_it_continues():
    assert check(BERSERK + BERSERK_MOVES).diagnostics == []
    unnumbered = BERSERK + "c6-c4 c4=d4 Kf8-g8 i2-i4 j5-j4 *\n"
    assert run("fmt", "-", input=unnumbered).stdout.endswith("\n\n" + BERSERK_MOVES)
    commented = BERSERK + "1. c6-c4xb4/c5 {first} c4=d4xe4 {again} 1... Kf8-g8 2. i2-i4 j5-j4xi4 *\n"
    assert run("fmt", "-", input=commented).stdout.endswith(
        "\n\n1. c6-c4xb4/c5 {first} 1. c4=d4xe4 {again} 1... Kf8-g8 2. i2-i4 j5-j4xi4 *\n"
    )  # after a comment, a berserk move is numbered as the move it continues
    report = check(BERSERK + "1. c6-c4xb4/c5 c4=d4xe4 Kf8-g8 3. i2-i4 j5-j4xi4 *\n")
    assert [(d.rule, d.ply, d.message.split(" (")[0]) for d in report.diagnostics] == [
        ("number", 4, "the move number should be 2., not 3.")  # (and a gap asked for: two plies ahead)
    ]
    page = replay_page(RecordText(BERSERK + BERSERK_MOVES))
    assert re.findall(r"(\d+\.(?:\.\.)?)\u00a0<span class=\"ply", page) == ["1.", "2."]


def test_a_line_with_no_record_is_numbered_as_a_record_of_its_plies_is():
    """The explorer's line (`line_moves`) is numbered as validate and the replay page number a record that
    writes its plies: a berserk move with the move it continues, the attackers first."""
    report = check(BERSERK + BERSERK_MOVES)
    rules, plies = report.rules, ["c6-c4xb4/c5", "c4=d4xe4", "Kf8-g8", "i2-i4", "j5-j4xi4"]
    said = [line_moves(rules, plies).said(number, sides=rules.sides) for number in range(1, 6)]
    assert said == [report.moves().said(number, sides=rules.sides) for number in range(1, 6)]
    assert said == [
        "move 1, attackers",
        "move 1, attackers",
        "move 1, defenders",
        "move 2, attackers",
        "move 2, defenders",
    ]


def test_the_replay_page_of_a_record_its_rules_cannot_set_up_numbers_a_move_every_two_plies():
    """A record whose start cannot be set up (its Position tag is no position) is not replayed: its page's
    move list is numbered as written, White-first, with no move said for its status line."""
    page = replay_page(RecordText('[Game "tablut"]\n[Position "zz"]\n\n1. e3-c3 d1-d3 2. c3-c4 *\n'))
    assert re.findall(r"(\d+\.(?:\.\.)?)\u00a0<span class=\"ply", page) == ["1.", "2."]
    assert "data-move" not in page


def number_fixes(text: str) -> list[str]:
    """The titles of the quick fixes the language server offers for the one diagnostic of `text`, a warning."""
    document = Document()
    document.update(document.split(text))
    entry = document.entries[0]
    [warning] = entry.report.diagnostics
    return [fix.title for fix in fixes(entry, warning)]


def test_the_language_server_numbers_a_berserk_move_with_the_move_it_continues():
    assert number_fixes(BERSERK + "1. c6-c4xb4/c5 c4=d4xe4 Kf8-g8 3. i2-i4 *\n") == ["Number the move 2."]
    document = Document()
    for moves, offered in (
        ("1. c6-c4xb4/c5 ", []),  # the knight moves again: no number
        ("1. c6-c4xb4/c5 c4=d4xe4 ", []),  # White's reply
        ("1. c6-c4xb4/c5 c4=d4xe4 Kf8-g8 ", ["2."]),
    ):
        document.update(document.split(BERSERK + moves + "\n"))
        line = 5
        numbers = [c.label for c in completions(document.entries[0], moves, line, len(moves)) if c.kind == "number"]
        assert numbers == offered, moves
        if moves == "1. c6-c4xb4/c5 ":
            plies = [c.label for c in completions(document.entries[0], moves, line, len(moves)) if c.kind == "ply"]
            assert plies == ["c4=d4xe4"]


def test_the_language_server_says_a_ply_by_its_move_in_the_records_numbering():
    """A hover and a completion counted plies (`**ply 2** (White)`, `ply 2`): they say its move, as
    validate does, attackers first or numbered from White, a berserk move with the move it continues."""
    document = Document()
    for text, columns, said in (
        (MOVERS, (4, 10), ["**move 1, Black**: `h1-h3`", "**move 1, White**: `g5-g4`"]),
        (WHITES, (6, 14), ["**move 1, Black**: `h1-h3`", "**move 2, White**: `g5-g4`"]),
    ):
        document.update(document.split(text))
        entry = document.entries[0]
        assert [ply_hover(entry, *entry.ply_at(2, column)).split("\n")[0] for column in columns] == said
    for moves, offered in (
        ("1. c6-c4xb4/c5 ", ("c4=d4xe4", "move 1, Black")),  # the knight moves again, in Black's move
        ("1. c6-c4xb4/c5 c4=d4xe4 ", ("i3-i4", "move 1, White")),
    ):
        document.update(document.split(BERSERK + moves + "\n"))
        plies = [c for c in completions(document.entries[0], moves, 5, len(moves)) if c.kind == "ply"]
        assert (plies[0].label, plies[0].detail) == offered, moves
    document.update(document.split(BERSERK + "1. c6-c4xb4/c5 c4=d4xe4 (1... Kf8-g8) Kf8-g8 *\n"))
    entry = document.entries[0]  # the variation replaces the berserk move: its ply is White's, in move 1
    assert ply_hover(entry, *entry.ply_at(5, 31)).startswith("**move 1, White**, in a variation: `Kf8-g8` is illegal")


def test_the_language_server_offers_the_first_move_number_when_the_second_mover_starts():
    """A start with White (the defenders) to move: `1...` is offered before the first ply."""
    document = Document()
    document.update(document.split(BERSERK.replace(' b"]', ' w"]') + "\n"))
    offered = [(c.label, c.kind) for c in completions(document.entries[0], "", 5, 0) if c.kind != "ply"]
    assert offered == [("1...", "number"), ("1-0", "result"), ("0-1", "result"), ("1/2-1/2", "result"), ("*", "result")]


def test_a_variation_counts_the_berserk_moves_before_the_ply_it_replaces():
    replacing_it = BERSERK + "1. c6-c4xb4/c5 c4=d4xe4 (Kf8-g8 2. i2-i4) Kf8-g8 2. i2-i4 j5-j4xi4 *\n"
    assert run("fmt", "-", input=replacing_it).stdout.endswith(
        "\n\n1. c6-c4xb4/c5 c4=d4xe4 (1... Kf8-g8 2. i2-i4) 1... Kf8-g8 2. i2-i4 j5-j4xi4 *\n"
    )  # (the knight had to go on: G15, at its ply)
    assert [(d.rule, d.ply) for d in check(replacing_it).diagnostics] == [("G15", 2)]
    after_it = BERSERK + "1. c6-c4xb4/c5 c4=d4xe4 Kf8-g8 (Kf8-f9 2. i2-i4) 2. i2-i4 j5-j4xi4 *\n"
    assert run("fmt", "-", input=after_it).stdout.endswith(
        "\n\n1. c6-c4xb4/c5 c4=d4xe4 Kf8-g8 (1... Kf8-f9 2. i2-i4) 2. i2-i4 j5-j4xi4 *\n"
    )
    assert check(after_it).diagnostics == []


def test_a_record_numbered_from_white_counts_the_berserk_moves_before_its_first_number():
    assert check(BERSERK + "c6-c4xb4/c5 c4=d4xe4 2. Kf8-g8 i2-i4 3. j5-j4xi4 *\n").diagnostics == []


def test_the_kings_berserk_move_is_numbered_with_the_move_it_continues():
    # the king (armed) takes e5 against f5, then goes on to take e3 against f3
    king = BERSERK.replace(
        "11/11/11/5K5/11/2n8/2P6P1/pP2Pp1P3/8P2/8c2/11 b", "11/p10/11/11/3K7/11/4pP5/11/4pP5/11/11 w"
    )
    assert run("fmt", "-", input=king + "Kd7-d5 Kd5=d3 a10-a9 *\n").stdout.endswith(
        "\n\n1... Kd7-d5xe5 Kd5=d3xe3 2. a10-a9 *\n"
    )


def test_a_berserk_move_is_numbered_so_where_a_piece_may_go_on_without_having_to():
    optional = BERSERK.replace("ber=c", "ber=o")  # lusoria's ber:o: a piece that captured may move again
    assert run("fmt", "-", input=optional + "c6-c4 c4=d4 Kf8-g8 i2-i4 j5-j4 *\n").stdout.endswith(
        "\n\n" + BERSERK_MOVES
    )
    assert check(optional + BERSERK_MOVES).diagnostics == []


SENECA = '[Game "latrunculi"]\n[Variant "seneca"]\n\n'
DUX = '[Game "latrunculi"]\n[Variant "dux"]\n\n'


@pytest.mark.parametrize(
    "record, ply, said",
    [
        (  # Black's @h3 left out: every number after it is one ply ahead
            SENECA + "1. @g4 2. @c6 @a6 3. @g8 @a3 4. @e2 *",
            2,
            "the move number should be 1..., not 2. (the 2 move numbers after it are one ply ahead too:"
            " is a ply missing before it?)",
        ),
        (
            '[Game "laquet"]\n\n1. 52: 2/4 5/10 2. 64: 2/8 10/14 51: 6/7 6/11 3. 53: 8/13 1/4 *',
            2,
            "the move number should be 1..., not 2. (the move number after it is one ply ahead too:"
            " is a ply missing before it?)",
        ),
        (  # a fragment of a dux game, numbered as its source is, with no Position tag
            '[Game "latrunculi"]\n[Variant "dux"]\n\n23. c1-c5 b8-b2 24. De2-c2 *',
            1,
            "the move number should be 1., not 23. (a fragment that starts mid-game gives its first position"
            " in a Position tag, and is numbered from 1; 1 more wrong move number follows: lusoria fmt mends them)",
        ),
        (
            SENECA + '[Position "8/2p5/1pIp4/2p5/5pIp/8/PP3P2/P6P w"]\n\n23. a2-a3~c6 h4-h5 *',
            1,
            "the move number should be 1., not 23. (a record that starts from a Position tag is numbered from 1 too;"
            " a comment may keep the source's numbers)",
        ),
    ],
)
def test_a_transcribers_numbers_say_a_ply_left_out_or_a_fragment_numbered_as_its_source(record, ply, said):
    report = check(record + "\n")
    assert [(d.rule, d.ply, d.message) for d in report.diagnostics if d.rule == "number"] == [("number", ply, said)]


GAP = "a gap in the source? A record has no mark for one: end it with * before the gap and a comment that says"


@pytest.mark.parametrize(
    "record, ply, said",
    [
        (  # two leaves lost after move 2: the source's numbers go on from 9
            DUX + "1. a1-a3 h8-h6 2. b1-b3 g8-g6 { lacuna } 9. c1-c3 f8-f6 10. b3-b4 *",
            5,
            "the move number should be 3., not 9. (9. is 12 plies ahead, and so is the one after it: " + GAP,
        ),
        (  # a whole move lost: two plies
            SENECA + "1. @g4 @h3 2. @c6 @a6 4. @g8 @a3 5. @e2 *",
            5,
            "the move number should be 3., not 4. (4. is 2 plies ahead, and so is the one after it: " + GAP,
        ),
        (
            '[Game "laquet"]\n\n1. 52: 2/4 5/10 64: 2/8 1/7 {lost} 4. 53: 8/13 1/4 4... 21: 6/8 6/7 5. 31: 4/7 4/5 *',
            3,
            "the move number should be 2., not 4. (4. is 4 plies ahead, and so are the 2 move numbers after it: " + GAP,
        ),
        # a number alone, the record's last, asks as a run does (historian-44: it was told the number only)
        (
            SENECA + "1. @g4 @h3 2. @c6 @a6 4. @g8 @a3 *",
            5,
            "the move number should be 3., not 4. (4. is 2 plies ahead: " + GAP,
        ),
        (
            '[Game "tablut"]\n1. e3-c3 d1-d3 3. e4-e3xd3 *',
            3,
            "the move number should be 2., not 3. (3. is 2 plies ahead: " + GAP,
        ),
        (  # newcomer-57a: the attackers first, the second number two plies ahead of either numbering: asked too
            '[Game "copenhagen"]\n1. h1-h3 g5-g4 3. d1-d3 *',
            3,
            "the move number should be 2., not 3. (3. is 2 plies ahead: " + GAP,
        ),
    ],
)
def test_numbers_that_jump_ahead_alike_past_a_ply_ask_for_a_gap_and_say_how_to_transcribe_it(record, ply, said):
    """A lacuna (found by historian-42): the warning says the numbers jump ahead and how a record holds
    what the source keeps on either side of the gap, and the first ply illegal after it is the only error."""
    report = check(record + "\n")
    warnings = [(d.rule, d.ply, d.message) for d in report.diagnostics if d.rule == "number"]
    assert [(rule, at, message[: len(said)]) for rule, at, message in warnings] == [("number", ply, said)]
    assert warnings[0][2].endswith("of its own that starts from a Position tag)")
    assert len(report.diagnostics) <= 2


@pytest.mark.parametrize(
    "movetext",
    [
        "1. e3-c3 d1-d3 3. e4-e3xd3 a4-c4 3. c3-c2 *",  # the number after it right again: a slip of the pen
        "1. e3-c3 d1-d3 2. e4-e3xd3 ( 3. g5-g7 ) a4-c4 *",  # in a variation: no gap in the source there
    ],
)
def test_a_number_alone_that_jumps_ahead_but_is_not_the_lines_last_asks_for_no_gap(movetext):
    [said] = check(f'[Game "tablut"]\n{movetext}\n').diagnostics
    assert (said.rule, said.message) == ("number", "the move number should be 2., not 3.")


def test_a_number_alone_one_ply_ahead_at_the_lines_end_asks_nothing():
    """A ply numbered as a move (`3. a4-a2` for `2... a4-a2`) is no gap and no ply left out (review-44h:
    past the record's second number, where either numbering cannot excuse it)."""
    [said] = check('[Game "tablut"]\n1. e3-c3 d1-d3 2. e4-e3xd3 3. a4-a2 *\n').diagnostics
    assert (said.rule, said.ply, said.message) == ("number", 4, "the move number should be 2..., not 3.")


def test_numbers_not_all_alike_say_no_ply_is_missing():
    one_by_one = check(SENECA + "1. @g4 2. @h3 3. @c6 *\n").diagnostics[0].message
    assert (
        one_by_one
        == "the move number should be 1..., not 2. (1 more wrong move number follows: lusoria fmt mends them)"
    )


def test_numbers_that_go_right_again_or_fit_whites_numbering_ask_for_no_missing_ply():
    """A ply left out puts every later number one ply ahead: a right number after the first wrong one
    says otherwise, as does a Black-first record numbered as chess is but for its first number."""
    right_again = check(SENECA + "1. @g4 2. @h3 2. @c6 3. @a6 3. @g8 *\n").diagnostics[0].message
    assert (
        right_again
        == "the move number should be 1..., not 2. (1 more wrong move number follows: lusoria fmt mends them)"
    )
    chess_numbered = '[Game "tablut"]\n[Rules "first=black"]\n\n1. d1-d3 2. e3-f3 d3-d2 3. f3-f4 *\n'
    assert [(d.rule, d.ply, d.message) for d in check(chess_numbered).diagnostics] == [
        (
            "number",
            2,
            "the move number should be 1..., not 2. (1 more wrong move number follows: lusoria fmt mends them)",
        )
    ]


def test_a_right_number_of_the_main_line_after_a_variations_wrong_one_asks_for_no_missing_ply():
    record = SENECA + "1. @g4 (1. @g5 2. @h3) @h3 2. @c6 3. @a6 3. @g8 *\n"
    assert check(record).diagnostics[0].message == (
        "the move number should be 1..., not 2. (1 more wrong move number follows: lusoria fmt mends them)"
    )


@pytest.mark.parametrize(
    "record, ply, said",
    [
        (  # a ply left out of a variation: the main line's numbers stay right
            SENECA + "1. @g4 @h3 (1... @h4 2... @c6 3. @a6) 2. @c6 @a6 *\n",
            3,
            "the move number should be 2., not 2... (the move number after it is one ply ahead too:"
            " is a ply missing before it?)",
        ),
        (  # White's f3-f4 left out of a record Black begins: numbered as tafl is, past its first numbers
            '[Game "tablut"]\n[Rules "first=black"]\n\n1. d1-d3 e3-f3 2. d3-d2 3. d2-d3 f4-f5 4. d3-d4 *\n',
            4,
            "the move number should be 2..., not 3. (the move number after it is one ply ahead too:"
            " is a ply missing before it?)",
        ),
    ],
)
def test_a_ply_left_out_of_a_variation_or_past_the_first_numbers_is_asked_for(record, ply, said):
    assert [(d.rule, d.ply, d.message) for d in check(record).diagnostics if d.rule == "number"] == [
        ("number", ply, said)
    ]


def test_a_move_number_past_bounds_is_said_without_counting_plies_ahead():
    huge = "9" * 23 + "."
    for record, ply, expected in [(f"{huge} @g4 @h3 *", 1, "1."), (f"1. @g4 {huge} @h3 3. @c6 *", 2, "1...")]:
        warning = check(SENECA + record + "\n").diagnostics[0]
        assert (warning.rule, warning.ply, warning.message.split(" (")[0]) == (
            "number",
            ply,
            f"the move number should be {expected}, not {huge}",
        )
        assert "missing" not in warning.message and "fragment" not in warning.message


@pytest.mark.parametrize("written", ["1. ...", "1 ...", "1 …", "1.  ..", "{ Black first } 23. ...", "1.\u00a0..."])
def test_a_first_move_number_whose_dots_stand_apart_is_asked_for_with_them(written):
    """Newcomer-54b: `1. ... g8-g7`, a record that begins with the second side to move, was said to mark a gap in
    its source (which it starts from a Position tag, as told), and `1 ...` was asked for `1.`, which then was."""
    start = '[Game "latrunculi"]\n[Variant "petteia"]\n[Position "6pp/8/8/8/1Pp5/3P4/8/8 b"]\n'
    [error] = check(f"{start}{written} g8-g7 *\n").diagnostics
    number = written.split("}")[-1].split()[0].rstrip(".")
    at = written.index(number) + 1
    assert (error.rule, error.line, error.column, error.suggestions) == ("syntax", 4, at, (f"{number}...",))
    assert "gap" not in error.message
    assert check(f"{start}{number}... g8-g7 *\n").valid


@pytest.mark.parametrize("mark", ["...", "…", "[...]", "[…]", "...."])
def test_a_gap_marked_in_the_movetext_is_said_to_have_no_mark_and_how_to_transcribe_it(mark):
    """A transcriber's mark of a lacuna (found by historian-42) was 'expected a ply…': the error names
    the mark and says how a record holds what the source keeps on either side."""
    report = check(DUX + f"1. a1-a3 h8-h6 2. b1-b3 {mark} 9. c1-c3 *\n")
    later = check(DUX + f"1. a1-a3 h8-h6 2. {mark} h6-h5 *\n").diagnostics  # (White's move 2 left out: a gap)
    assert [(d.rule, d.column) for d in later] == [("syntax", 19)] and "gap" in later[0].message
    [error] = report.diagnostics
    assert (error.rule, error.line, error.column, error.text) == ("syntax", 4, 25, mark)
    assert error.message == (
        f"found '{mark}': a record has no mark for a gap in its source: end it with * before the gap and a comment "
        "that says what is lost, and write what follows as a record of its own that starts from a Position tag "
        "(docs/slips.md)"
    )
    for no_gap in ("...x", ".."):  # dots that are no gap mark: said as other text is
        said = check(DUX + f"1. a1-a3 h8-h6 2. b1-b3 {no_gap} *\n").diagnostics[0].message
        assert "gap" not in said and said.endswith(
            "expected a ply, a move number, a comment, a NAG, a variation or a result marker (1-0, 0-1, 1/2-1/2, *)"
        )


PASSES = '[Game "tablut"]\n[Rules "no-move=passes"]\n'
BLACK_BOXED = PASSES + '[Position "9/9/9/4P4/3PKP3/4P4/9/P8/p1P6 w"]\n\n'  # after c1-b1, Black's a1 cannot move
WHITE_BOXED = PASSES + '[Position "8p/9/9/9/9/9/2pp5/1pPKp4/2pp5 b"]\n\n'  # after i9-i8, the Swedes cannot move


@pytest.mark.parametrize(
    "text, canonical, said",
    [
        (
            BLACK_BOXED + "c1-b1 e6-e7 b1-c1 a1-b1 *\n",
            "1. c1-b1 2. e6-e7 3. b1-c1 a1-b1 *",
            ["1, White", "2, White", "3, White", "3, Black"],
        ),
        (WHITE_BOXED + "i9-i8 i8-i7 *\n", "1... i9-i8 2... i8-i7 *", ["1, Black", "2, Black"]),
        (BLACK_BOXED + "c1-b1 e6-e7 ( e6-e8 ) *\n", "1. c1-b1 2. e6-e7 (2. e6-e8) *", ["1, White", "2, White"]),
    ],
)
def test_a_forced_pass_left_out_numbers_the_ply_after_it_as_its_sides(text, canonical, said):
    """T9 lets a record leave out a forced pass: the ply after it is its own side's, as validate, show, the
    replay page and fmt say it, and fmt numbers it so (`2. e6-e7`, `2... i8-i7`: never `1. c1-b1 e6-e7`, which
    reads as Black's). Found by h2-68: lusoria said "move 1, Black: e6-e7" of White's ply."""
    report = check(text)
    assert report.valid and report.diagnostics == []
    moves = report.moves()
    assert [moves.said(number).removeprefix("move ") for number in range(1, len(said) + 1)] == said
    assert run("fmt", "-", input=text).stdout.endswith(f"\n\n{canonical}\n")
    assert check(f"{text.split(chr(10) * 2)[0]}\n\n{canonical}\n").diagnostics == []  # (fmt's numbers read clean)
    page = replay_page(RecordText(text))
    shown = re.findall(r"(?:(\d+\.(?:\.\.)?)\u00a0)?<span class=\"ply\"", page)
    assert shown == re.findall(r"(?:(\d+\.(?:\.\.)?) )?[a-i]\d-[a-i]\d", canonical.replace("(", ""))
    sides = {"White": "Swedes", "Black": "Muscovites"}  # (as the page names Tablut's sides)
    assert re.findall(r'data-ply="\d+" data-move="([^"]*)"', page) == [
        f"move {number}, {sides[side]}" for number, side in (each.split(", ") for each in said)
    ]
    replacing = ["move 2, Swedes"] if "(" in canonical else []  # (the variation's e6-e8, as the e6-e7 it replaces)
    assert re.findall(r'data-key="[^"]*"[^>]* data-move="([^"]*)"', page) == replacing
    for ply, move in enumerate(said, 1):
        assert f"(move {move}: " in run("show", "-", "--ply", str(ply), input=text).stdout.splitlines()[0]


def test_a_ply_after_a_forced_pass_left_out_is_refused_as_its_sides_and_says_the_pass():
    """The forced pass is the rules', whatever the ply after it: an illegal one is said as its side's ply,
    with the pass named (never "move 1, Black: the piece on a1 is Black's, and White is to move")."""
    said = [
        (d.rule, d.ply, d.move, d.message.split(";")[0])
        for text in (BLACK_BOXED + "1. c1-b1 a1-b1 *\n", BLACK_BOXED + "1. c1-b1 2. e6-e5 *\n")
        for d in check(text).diagnostics
    ]
    assert said == [
        (
            "T1",
            2,
            "move 2, White",
            "after Black's forced pass (no move), the piece on a1 is Black's, and White is to move",
        ),
        ("T2", 2, "move 2, White", "after Black's forced pass (no move), e5 is occupied (from the Position tag)"),
    ]
    for keep_going in (False, True):  # (the plies meant are White's, after the pass: review69)
        [stop] = check(BLACK_BOXED + "1. c1-b1 2. e6-f7 3. b1-c1 *\n", keep_going=keep_going).diagnostics
        assert (stop.rule, stop.ply, stop.suggestions) == ("T2", 2, ("e6-e7", "e6-f6", "e6-e8"))
        # (and no number past the stop is said wrong: `3.` is right, Black still has no move)
    wrong = check(BLACK_BOXED + "1. c1-b1 1... e6-e7 *\n").diagnostics
    assert [(d.rule, d.ply, d.message.split(" (")[0]) for d in wrong] == [
        ("number", 2, "the move number should be 2., not 1...")
    ]


def test_a_number_that_leaves_out_a_forced_pass_says_the_pass_counts():
    """Numbers written as if a forced pass left out were not a ply (as lusoria wrote them before session 69) are
    wrong, and the warning says why (review69: it said "should be 3., not 2." and no more); a wrong number before
    the pass says nothing of it."""
    [said] = check(BLACK_BOXED + "1. c1-b1 e6-e7 2. b1-c1 a1-b1 3. e7-f7 *\n").diagnostics
    assert (said.rule, said.ply, said.message) == (
        "number",
        3,
        "the move number should be 3., not 2. (the forced pass left out before it counts as a ply; 1 more wrong "
        "move number follows: lusoria fmt mends them)",
    )
    [said] = check(BLACK_BOXED + "1. c1-b1 1... e6-e7 *\n").diagnostics
    assert (said.ply, said.message) == (
        2,
        "the move number should be 2., not 1... (the forced pass left out before it counts as a ply)",
    )
    either_way = ("1. c1-b1 2... e6-e7 2. b1-c1", "1. c1-b1 2. e6-e7 3. b1-c1 3... a1-b1 4... e7-f7")
    for wrong in either_way:  # (the first wrong number wrong with the pass and without: not its doing, review70)
        [said] = check(BLACK_BOXED + wrong + " *\n").diagnostics
        assert "pass" not in said.message, said.message
    [said] = check(WHITE_BOXED + "2... i9-i8 2... i8-i7 *\n").diagnostics
    assert said.ply == 1 and "pass" not in said.message
    [said] = check(BLACK_BOXED + "1. e6-e7 ( 1. c1-b1 2. e6-e7 ) 1... a1-b1 1. e7-e6 *\n").diagnostics
    assert (said.ply, said.message) == (3, "the move number should be 2., not 1.")  # (the pass: a variation's)


def test_the_language_server_fixes_a_number_after_a_forced_pass_left_out():
    assert number_fixes(BLACK_BOXED + "1. c1-b1 1... e6-e7 *\n") == ["Number the move 2."]
    document = Document()
    moves = "1. c1-b1 2. e6-e7 3. b1-c1 a1-b1 "
    document.update(document.split(BLACK_BOXED + moves + "\n"))
    numbers = [c.label for c in completions(document.entries[0], moves, 5, len(moves)) if c.kind == "number"]
    assert numbers == ["4."]
