"""OTN variations: read into lusoria's line tree at the ply they replace (OpenTafl's
addresses, nested ones, comments, places in the file), malformed ones as one located error,
and written back so that `convert --to otn` and back keeps them."""

import random
import re
from importlib.resources import files

import pytest
from click.testing import CliRunner
from conftest import ROOT
from hypothesis import given, settings
from hypothesis import strategies as st
from test_formats import ROUND_TRIP_RULES, game_rules

from lusoria.api import convert, random_record, random_records
from lusoria.cli import main
from lusoria.formats import FORMATS, read_text
from lusoria.formats.otn import WRITER_NOTE
from lusoria.formats.otn_writer import _alternatives, loss, write_report
from lusoria.formats.sources import read_sources
from lusoria.notation.model import Line, Ply
from lusoria.notation.writer import unknown, write_record
from lusoria.validator.brandubh import Brandubh
from lusoria.validator.games import GAMES, register
from lusoria.validator.replay import check
from lusoria.validator.tablut import Tablut
from lusoria.validator.tafl_rules import KEYS

FIXTURES = ROOT / "tests" / "fixtures" / "formats"
HEADER = "[rules:dim:9 esc:e cor: atkf:n tfr:i]\n\n"  # the Swedes first


def report_of(path):
    [source] = read_sources(str(FIXTURES / path))
    return check(source)


def texts(line: Line) -> list[str]:
    return [ply.text for ply in line.plies]


def test_variations_hang_from_the_ply_they_replace_with_their_comments_and_places():
    report = report_of("otn/variations.otg")
    assert report.valid, report.diagnostics
    main = report.record.main
    assert texts(main) == ["e4-g4", "a6-a9", "g5-g7", "a4-a3", "g4-c4", "b5-b9"]
    [first] = main.plies[0].variations  # 1a.1.1a. and 1a.1.2a.: one variation in two turns
    assert texts(first) == ["e3-c3", "a6-a7", "c3-c1"]
    assert [ply.comments for ply in first.plies] == [
        ["A quieter start."],
        ["The attackers answer on the same side."],
        [],
    ]
    [nested] = first.plies[1].variations  # 1a.1.1a.1.1a. ..... b5-b7: OpenTafl names the ply before
    assert texts(nested) == ["b5-b7"] and nested.plies[0].comments == ["Or the attackers close the b-file."]
    second, third = main.plies[1].variations  # 1b.1 (padded, in two turns) and 1b.2
    assert texts(second) == ["a4-a1", "g4-g1", "b5-b8"] and texts(third) == ["i4-i1"]
    assert second.plies[0].comments == ["A second idea for the attackers: the corner first."]
    assert [texts(line) for line in main.plies[3].variations] == [["d1-d3"]]
    assert not any(ply.variations for ply in main.plies[2:3] + main.plies[4:])
    places = [(ply.line, ply.column) for ply in (*first.plies, nested.plies[0], *second.plies, third.plies[0])]
    assert places == [(13, 10), (13, 16), (19, 10), (16, 21), (20, 16), (25, 10), (25, 16), (26, 16)]


def test_an_illegal_move_in_a_variation_is_reported_at_its_place_in_the_file():
    report = report_of("errors/variation-illegal-move.otg")
    assert [(d.rule, d.ply, d.line, d.column, d.text) for d in report.diagnostics] == [
        ("T2", 4, 7, 16, "a7-f7"),
        ("T2", 4, 8, 21, "b5-d5"),
    ]  # the nested one replaces a7-f7
    assert "blocked at e7" in report.diagnostics[0].message and "blocked at c5" in report.diagnostics[1].message


MAIN = "1. e4-g4 a6-a9\n2. g5-g7 a4-a3\n"


@pytest.mark.parametrize(
    "variations, place, words",
    [
        ("3a.1. e3-c3", (3, 1), "not a variation address"),
        ("1a..1a. e3-c3", (3, 1), "not a variation address"),
        ("5a.1.1a. e3-c3", (3, 1), "branches from 5a., which is not a ply"),
        ("1a.2.1a. e3-c3", (3, 1), "number 2 of its ply, which has 0 before it"),
        ("1a.1.2a. e3-c3", (3, 1), "starts with turn 1a"),
        ("1a.1.1b. e3-c3", (3, 1), "addressed by its first move: write 1a.1.1a."),
        ("1a.1.1a. ..... ..... e3-c3", (3, 1), "with 1 move before it in its turn: write 1 '.....'"),
        ("1a.1.1a.", (3, 1), "has no move"),
        ("1a.1.1a. ..... ", (3, 1), "has no move"),
        ("1a.1.1a. e3-c3 a6-a7\n1a.1.3a. c3-c1", (4, 1), "continues with turn 2a"),
        ("1a.1.1a. e3-c3 a6-a7\n1a.1.2a. ..... c3-c1", (4, 1), "only a variation's first turn"),
        ("1a.1.1a. e3-c3 zz", (3, 16), "expected an OTN move record"),
        ("2b.1.1a. ..... d1-d3\n2b.1.1b.1.1a. d3-d2", (4, 1), "replaces the ply after 2b.1.1b., and there is none"),
        ("then e3-c3", (3, 1), "found 'then', expected a turn ('1. e3-c3 d1-d3'), a variation turn ('3b.1.1a. "),
    ],
)
def test_a_malformed_variation_is_one_located_error(variations, place, words):
    [source] = read_text(HEADER + MAIN + variations + "\n", "otn", "x.otg")
    [problem] = check(source).diagnostics
    assert (problem.rule, (problem.line - 2, problem.column)) == ("syntax", place)  # lines of the movetext
    assert words in problem.message, problem.message


@pytest.mark.parametrize(
    "variations, address, message",
    [
        ("1a.1.1a. e3-c3 a6-a7\n1a.1.1a. c3-c1", "1a.1.1a.", "variation 1a.1. continues with turn 2a"),
        (
            "1a.1.1a. e3-c3 a6-a7\n1a.1.2a. c3-c1\n1a.1.2a. c1-c2",
            "1a.1.2a.",
            "variation 1a.1. continues with turn 3a",
        ),
        (
            "1b.1.1a. ..... a4-a1\n1a.1.1a. ..... i4-i1",
            "1a.1.1a.",
            "variation 1a.1.1a. is number 1 of its ply, which has 1 before it",
        ),
    ],
    ids=["first-turn-twice", "later-turn-twice", "one-ply-two-addresses"],
)
def test_a_variation_turn_written_again_is_an_error_at_the_second(variations, address, message):
    """A variation's turn written twice (pasted again), or the first variation of a ply written under
    both of its addresses (`1b.1.1a. …` and `1a.1.1a. ..... …`, each the ply after 1a): the second was
    read on as the variation's next turn, or as the ply's second variation, an error of a move or none."""
    [source] = read_text(HEADER + MAIN + variations + "\n", "otn", "x.otg")
    said = [(d.rule, d.line - 2, d.column, d.text, d.message) for d in check(source).diagnostics]
    assert said == [("syntax", variations.count("\n") + 3, 1, address, message)]  # the line of the movetext


@pytest.mark.parametrize(
    "movetext, place, square",
    [
        ("1. e4-g4 a6-a9\n2. g5-g7 a4-k4\n", (2, 13), "k4"),
        ("1. e4-g4 a6-a9\n2. Ke5-e10\n", (2, 8), "e10"),
        (MAIN + "1a.1.1a. e3-c3 a6-a7\n1a.1.2a. c3-c11\n", (4, 13), "c11"),
        ("1. e4-g4 a6-a9\n[|k4]\n2. g5-g7 a4-k4\n", (3, 13), "k4"),  # not the comment's k4, before it
    ],
)
def test_a_square_off_the_board_is_reported_where_it_is_written(movetext, place, square):
    """Not at the move's first square (a4 for a4-k4: found by new-user-9)."""
    [source] = read_text(HEADER + movetext, "otn", "x.otg")
    [problem] = check(source).diagnostics
    assert (problem.rule, (problem.line - 2, problem.column), problem.text) == ("syntax", place, square)
    assert problem.message == f"{square} is not a square of the Tablut board (a1–i9)"


def test_a_comment_on_its_turns_line_is_read_as_on_the_line_after_it():
    """`2. g5-g7 a4-a3 [a quiet move|]` was said to hold a third move, `[a` (h79a): the comment on the turn's
    line ends its moves, and goes on its plies as on the line after it, as lusoria writes it."""
    written = [
        ("[a quiet move|and a reply]", "1. e4-g4 a6-a9 [a quiet move|and a reply]\n2. g5-g7 a4-a3\n"),
        ("[a quiet move|and a reply]", "1. e4-g4 a6-a9\n[a quiet move|and a reply]\n2. g5-g7 a4-a3\n"),
        ("[|k4]", "1. e4-g4 a6-a9 [|k4] \n2. g5-g7 a4-a3\n"),
    ]
    for comment, movetext in written:
        [source] = read_text(HEADER + movetext, "otn", "x.otg")
        report = check(source)
        assert report.valid and [ply.text for ply in report.record.main.plies] == ["e4-g4", "a6-a9", "g5-g7", "a4-a3"]
        said = [" ".join(words.split()) for words in comment[1:-1].split("|")]
        assert [ply.comments for ply in report.record.main.plies[:2]] == [[text] if text else [] for text in said]
    [stray] = read_text(HEADER + "1. e4-g4 a6-a9 [oops\n2. g5-g7 a4-a3 [a|b]\n", "otn", "x.otg")  # (review79: not a
    [error] = check(stray).diagnostics  # comment closed on its line, which took the turns below it)
    assert (error.line - 2, error.column, error.text) == (1, 16, "[oops")


def test_a_malformed_variation_on_the_command_line_names_file_line_and_column(tmp_path):
    (tmp_path / "bad.otg").write_text(HEADER + MAIN + "2a.1.1a. ..... ..... e3-c3\n")
    result = CliRunner().invoke(main, ["validate", str(tmp_path / "bad.otg")])
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert f"{tmp_path / 'bad.otg'}:5:1: error[syntax]: variation 2a.1.1a. replaces a move with 1 move" in result.output


def test_a_resignation_inside_a_variation_is_noted_not_lost():
    [source] = read_text(HEADER + MAIN + "2b.1.1a. ..... a4-a2 ---\n", "otn", "x.otg")
    report = check(source)
    assert report.valid and texts(report.record.main.plies[3].variations[0]) == ["a4-a2"]
    assert any("---" in comment for comment in report.record.main.comments)


def test_a_resignation_is_the_side_to_moves_where_white_moves_first():
    """`---` resigns for the side to move: under atkf:n the Swedes (White) move first. Written back in the
    header alone, as OpenTafl writes a resignation (its reader refuses `---`: h71b), where it reads the same."""
    for moves, result in (("2. g5-g7 ---", "1-0"), ("2. g5-g7 a4-a3\n3. ---", "0-1")):
        [source] = read_text(HEADER + "1. e4-g4 a6-a9\n" + moves + "\n", "otn", "x.otg")
        report = check(source)
        assert (report.record.result, report.record.tags["Termination"]) == (result, "resignation"), moves
        written = write_report(report)
        assert written.endswith("\n" + moves.removesuffix("---").removesuffix("\n3. ").rstrip() + "\n"), moves
        assert f"[result:{ {'1-0': -1, '0-1': 1}[result] }]" in written and "[termination:resignation]" in written
        again = check(next(read_text(written, "otn", "back.otg")))
        assert (again.record.result, again.record.tags["Termination"]) == (result, "resignation"), moves


def test_a_move_after_a_resignation_is_an_error_at_the_move():
    """`1. e4-g4 ---` and then a turn more: the game ended at the resignation, and the plies after it
    were read on as if it had not (a game that goes on past its end, its result the resignation's)."""
    [source] = read_text(HEADER + "1. e4-g4 ---\n2. g5-g7 a4-a3\n", "otn", "x.otg")
    [problem] = check(source).diagnostics
    assert (problem.rule, problem.line - 2, problem.column, problem.text) == ("syntax", 2, 4, "g5-g7")
    assert problem.message == "found 'g5-g7' after the resignation"


@pytest.mark.parametrize("value", ["a%0Db", "a%0D%0Ab", "a%0Ab"], ids=["CR", "CRLF", "LF"])
def test_a_carried_tag_whose_value_holds_a_line_break_is_refused_at_its_entry(value):
    """`[lusoria-tags:Note=a%0Db]`: a carriage return is a line break as a line feed is, and the
    value of a tag is one line (NOTATION.md §2); it was read as a tag of two lines."""
    header = HEADER.replace("\n\n", f"\n[lusoria-tags:Site=x Note={value}]\n\n")
    [source] = read_text(header + MAIN, "otn", "x.otg")
    said = [(d.rule, d.line, d.column, d.text, d.message) for d in check(source).diagnostics]
    assert said == [
        (
            "tag",
            2,
            22,
            f"Note={value}",
            f"lusoria-tags entry 'Note={value}' is not NAME=VALUE (percent-encoded UTF-8, a name of letters, "
            "digits and _, a value of one line)",
        )
    ]


def test_a_result_the_game_contradicts_is_reported_at_the_headers_result_tag():
    """OTN writes no result after the moves: the error is at `[result:…]`'s value, not past the file."""
    escape = "1. c5-c3 i6-f6\n2. d5-d3 i4-h4\n3. c3-c7 a6-a9\n4. Ke5-c5 b5-b9\n5. Kc5-c1\n"
    [source] = read_text("[result:1]\n" + HEADER + escape, "otn", "x.otg")
    [problem] = check(source).diagnostics
    assert (problem.rule, problem.line, problem.column, problem.text) == ("result", 1, 9, "0-1")
    assert problem.message == "the game ended 1-0 (the king reached the edge, T6), but the record says 0-1"


# -- writing ---------------------------------------------------------------------------------------


def test_the_writer_uses_opentafls_addresses():
    report = report_of("otn/variations.otg")
    otn = write_report(report)
    movetext = otn[otn.index("\n1. ") :].strip().splitlines()
    assert movetext == [
        "1. e4-g4 a6-a9",
        "[The Swedes open to the east.|]",
        "1a.1.1a. e3-c3 a6-a7",
        "[A quieter start.|The attackers answer on the same side.]",
        "1a.1.1a.1.1a. ..... b5-b7",
        "[Or the attackers close the b-file.]",
        "1a.1.2a. c3-c1",
        "1b.1.1a. ..... a4-a1",
        "[A second idea for the attackers: the corner first.]",
        "1b.1.2a. g4-g1 b5-b8",
        "1b.2.1a. ..... i4-i1",
        "2. g5-g7 a4-a3",
        "2b.1.1a. ..... d1-d3",
        "3. g4-c4 b5-b9",
    ]


BERSERK_ELSEWHERE = "3pppp4/5c5/11/p4P4p/p3NPP3p/pc1PPKPP1cp/p3PPP3p/p4P4p/11/5c5/3ppppp3 w"  # one attacker fewer


def test_a_position_of_the_generic_game_is_the_start_that_opentafl_reads():
    """OpenTafl ignores lusoria's tags: a Position is the rules record's start, for the generic
    game as for the built-in ones, so that the file without lusoria's tags is the same game (it
    held the variant's start: found by new-user-9)."""
    report = check(f'[Game "hnefatafl"] [Variant "opentafl-berserk-11x11"] [Position "{BERSERK_ELSEWHERE}"] 1. d6-c6 *')
    assert report.valid, report.diagnostics
    otn = write_report(report)
    assert "start:/3ttttt3/5c5/11/t4T4t/t3TTT3t/tc1TTKTT1ct/t3NTT3t/t4T4t/11/5c5/3tttt4/]\n" in otn
    opentafls = "".join(line for line in otn.splitlines(keepends=True) if not line.startswith("[lusoria-"))
    again = check(next(read_text(opentafls, "otn", "x.otg")))
    assert again.valid, again.diagnostics
    assert (again.tags["Variant"], again.tags["Position"]) == ("opentafl-berserk-11x11", BERSERK_ELSEWHERE)


MERCENARY_TEST = (  # OpenTafl's own test record of mercenaries
    "[rules:dim:7 name:Brandub surf:n atkf:n ks:w nj:n cj:n mj:r cenh: cenhe: start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/]\n"
    "[position:/3t3/3m3/3T3/ttTKTtt/3T3/2Tm3/3t3/]"
)


@pytest.mark.parametrize(
    "header, move, position",
    [
        (
            "[rules:dim:11 name:Berserk atkf:n surf:n kj:r ber:c "
            "start:/3tttt4/5c5/11/t4T4t/t3NTT3t/tc1TTKTT1ct/t3TTT3t/t4T4t/11/5c5/3ttttt3/]",
            "d6-c6",
            "3ppppp3/5c5/11/p4P4p/p3PPP3p/pc1PPKPP1cp/p3NPP3p/p4P4p/11/5c5/3pppp4 w",
        ),
        (
            f"{MERCENARY_TEST.replace('ttTKTtt/3T3/2Tm3', 'ttTK1tt/3T3/2Tm3')}",  # a defender fewer than OpenTafl's
            "d5-g5",
            "3p3/2Pm3/3P3/ppPK1pp/3P3/3m3/3p3 w",
        ),
    ],
)
def test_a_start_or_position_with_commanders_knights_or_mercenaries_is_read(header, move, position):
    """Not refused as "not a position record (pieces t, T, K)": the generic game plays them (G1;
    found by new-user-9, with OpenTafl's own mercenary test record)."""
    [source] = read_text(f"{header}\n\n1. {move}\n", "otn", "x.otg")
    report = check(source)
    assert report.valid, report.diagnostics
    assert (report.tags["Game"], report.tags["Position"]) == ("hnefatafl", position)


def test_opentafls_mercenary_test_record_sets_out_a_defender_more_than_its_start():
    """Its position, 5 defenders' soldiers where the start has 4, is no game's: a tag error (G1)."""
    [source] = read_text(f"{MERCENARY_TEST}\n\n1. d5-g5\n", "otn", "x.otg")
    [error] = check(source).diagnostics
    assert (error.rule, error.message) == (
        "tag",
        "malformed Position: White (defenders) has 5 soldiers on the board; White starts with 4 (G1)",
    )


@pytest.mark.parametrize(
    "ranks",
    ["3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3tqt3", "3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4"],
    ids=["a piece the game lacks", "8 ranks"],
)
def test_a_position_not_of_the_games_board_is_refused_at_its_tag(ranks):
    """A rank whose letter no piece of the game has (`q`), or a rank short: the tag's error, in OTN's letters."""
    [source] = read_text(f"{HEADER.strip()}\n[position:/{ranks}/]\n\n1. d5-g5\n", "otn", "x.otg")
    [problem] = check(source).diagnostics
    assert (problem.rule, problem.line, problem.column, problem.message) == (
        "tag",
        2,
        11,
        "'/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4…' is not a 9×9 Tablut position record (pieces t, T, K)",
    )


def test_a_tag_value_at_fault_is_underlined_whole_with_what_it_may_have_meant():
    """As in lgn: the value (not as many characters as the tag's name), and the suggestion."""
    [source] = read_text("[date:2026-11-28]\n[defenders:Sven  Lind]\n" + HEADER + MAIN, "otn", "x.otg")
    assert [(d.rule, d.line, d.column, d.text, d.suggestions) for d in check(source).diagnostics] == [
        ("tag", 1, 7, "2026-11-28", ("2026.11.28",)),
        ("tag", 2, 12, "Sven  Lind", ("Sven Lind",)),
    ]


def test_a_comment_before_the_first_ply_with_brackets_reads_back_from_the_otn_written():
    """`[start-comment:…]` ends at its first `]`: one in the comment is written `)`, as a turn's comment's is."""
    report = check('[Game "brandubh"] {Opening: [a] note | pipe} 1. b4-b6 {x [y] z} e4-e1 *')
    otn = write_report(report)
    assert "[start-comment:Opening: [a) note | pipe]\n" in otn
    again = check(next(read_text(otn, "otn", "back.otg")))
    assert again.valid and again.record.main.comments == ["Opening: [a) note | pipe"]
    assert again.record.main.plies[0].comments == ["x [y) z"]


def opentafl_tags(otn: str) -> dict[str, str]:
    """The tags OpenTafl reads of a game file (GameSerializer.parseTags, jslater89/OpenTafl): each
    from its `[` to its first `:` and on to its first `]`, over lines, until `1.` outside a tag;
    a tag of a name again replaces the first."""
    tags, at = {}, 0
    while (opened := otn.find("[", at)) >= 0 and otn.find("1.", at, opened) < 0:
        colon = otn.index(":", opened)
        at = otn.index("]", colon) + 1
        tags[otn[opened + 1 : colon]] = otn[colon + 1 : at - 1]
    return tags


def opentafl_moves(otn: str) -> str:
    """Where OpenTafl starts reading moves (GameSerializer.parseMoves): at the file's first `1. `."""
    return otn[otn.index("1. ") :]


def test_each_reader_note_is_a_paragraph_of_the_start_comment_as_opentafl_writes_and_shows_them(tmp_path):
    """A record's notes and comments before its first ply were run together in one line of
    `[start-comment:…]`: each is a paragraph there (a blank line between them, as OpenTafl's
    annotation dialog keeps them), which OpenTafl reads as the tag's value and lusoria reads back
    as the record's comments, no note added."""
    first = report_of("otn/brandubh.otg")  # OpenTafl's rules: two reader notes
    notes = first.record.main.comments
    assert len(notes) == 2 and all(note.startswith("otn reader: ") for note in notes)
    otn = write_report(first)
    assert opentafl_tags(otn)["start-comment"].split("\n\n") == [*notes, WRITER_NOTE + CENHE_NOTE]
    assert opentafl_moves(otn) == "1. " + otn.partition("\n\n1. ")[2]  # (no tag holds one)
    (tmp_path / "back.otg").write_text(otn)
    again = report_of(tmp_path / "back.otg")
    assert again.valid and again.record.main == first.record.main
    assert {k: v for k, v in again.record.tags.items() if not k.startswith("Source")} == {
        k: v for k, v in first.record.tags.items() if not k.startswith("Source")
    }
    assert write_report(again) == otn


CENHE_NOTE = (
    "the empty throne counts against the king but captures no defender's soldier (cenhe); OpenTafl judges a "
    "square's hostility by side, the king a defender, and reads cenhe: as hostile to neither, so it never "
    "captures the king against it"
)


def opentafl_throne(rules: str) -> dict[str, bool]:
    """What OpenTafl reads of a rules record's throne (GenericRules): whether the empty throne is
    hostile to each side (`isSpaceHostileToSide`: `t`, `T`, the king as a defender) and whether a
    soldier of each side passes over it (`canTaflmanMoveThrough`: in `cenp` and in `cenre`, OTN's
    defaults every piece)."""
    entries = dict(entry.split(":", 1) for entry in rules.split())
    every = "tcnkmTCNKM"

    def passes(piece):
        return piece in entries.get("cenp", every) and piece in entries.get("cenre", every)

    hostile = entries.get("cenhe", every)
    return {"hostile t": "t" in hostile, "hostile T": "T" in hostile, "t passes": passes("t"), "T passes": passes("T")}


@pytest.mark.parametrize("game", ["brandubh", "copenhagen"])
@pytest.mark.parametrize("hostile", ["empty", "no"])
def test_a_corner_games_throne_is_written_as_opentafl_reads_what_lusoria_plays(game, hostile):
    """Brandubh was written `cenre:K` and, with throne-hostile=no, `cenhe:K`: OpenTafl keeps a piece
    not in `cenre` from passing over the throne (every soldier passes over it, B4, C4), and reads
    `K` in `cenhe` as nothing (a square is hostile by side), where its own Brandub writes `cenhe:`.
    Now the throne reads in OpenTafl as lusoria plays it, for the soldiers; that OpenTafl never counts
    the empty throne against the king beside it, where lusoria does (B7, C8), is said in the file."""
    [lgn] = random_records(game, 1, seed=4, tags={"Rules": f"throne-hostile={hostile}"}, max_plies=6)
    otn = write_report(check(lgn))
    rules = opentafl_tags(otn)["rules"]
    assert opentafl_throne(rules) == {
        "hostile t": hostile == "empty",  # (throne-hostile: to the soldiers of both sides, or of neither)
        "hostile T": hostile == "empty",
        "t passes": True,
        "T passes": True,
    }
    entries = dict(entry.split(":", 1) for entry in rules.split())
    assert "cenre" not in entries and entries.get("cenhe") == {"empty": None, "no": ""}[hostile]
    assert opentafl_tags(otn).get("start-comment") == {"empty": None, "no": WRITER_NOTE + CENHE_NOTE}[hostile]
    for text in (otn, "".join(line for line in otn.splitlines(keepends=True) if not line.startswith("[lusoria-"))):
        again = check(next(read_text(text, "otn", "back.otg")))  # with lusoria's tags, and as OpenTafl's file
        assert again.valid and again.rules.option == check(lgn).rules.option
        assert [note for note in again.record.main.comments if not note.startswith("otn reader: ")] == []
        assert again.record.main.plies == check(lgn).record.main.plies


def test_a_first_turn_in_a_comment_or_tag_before_the_moves_is_not_where_opentafl_starts_them():
    """OpenTafl starts the moves at the file's first `1. `, in a tag or not: a comment before the
    first ply that holds one is written with a line end after its `1.`, which lusoria reads back
    as the blank it was, and a tag that holds one is carried in `[lusoria-tags:…]`."""
    record = '[Game "brandubh"] [Round "1. final"] {After 1. d1-c1 the attackers [wait]} {Or 11. b4-b6} 1. d1-c1 *'
    report = check(record)
    otn = write_report(report)
    assert opentafl_tags(otn)["start-comment"] == "After 1.\nd1-c1 the attackers [wait)\n\nOr 11.\nb4-b6"
    assert "[lusoria-tags:Round=1.%20final]" in otn and "round" not in opentafl_tags(otn)
    assert opentafl_moves(otn) == "1. d1-c1\n"
    again = check(next(read_text(otn, "otn", "back.otg")))
    assert again.valid and again.record.main.comments == ["After 1. d1-c1 the attackers [wait)", "Or 11. b4-b6"]
    assert again.record.tags["Round"] == "1. final"


def test_a_tag_of_no_roster_whose_value_is_a_question_mark_is_written_to_otn_and_read_back():
    """`[Annotator "?"]` (or any tag but the Seven Tag Roster's) means what it says, not "unknown":
    only a roster tag that lgn fills with `?` may be left out; convert --to otn dropped it."""
    report = check('[Game "brandubh"] [Round "?"] [Annotator "?"] [Opening "?"] 1. d1-c1 *')
    otn = write_report(report)
    tags = opentafl_tags(otn)
    assert (tags.get("annotator"), tags.get("opening")) == ("?", "?") and "round" not in tags
    again = check(next(read_text(otn, "otn", "back.otg")))
    assert again.valid and (again.record.tags["Annotator"], again.record.tags["Opening"]) == ("?", "?")


def test_a_comment_before_the_first_ply_whose_first_turn_a_bracket_follows_reads_back():
    """A `1. ` is written with a line end after the `1.`; a `[` after it began a line of the
    start-comment, which was read as a tag not closed: the file lusoria wrote did not read back.
    It is written `(`, as a `]` is `)`; and a comment's blank line (a record made by the library)
    no longer parts it in two paragraphs, two comments read back."""
    report = check('[Game "brandubh"] {After 1. [d1-c1] the attackers wait} {Or 1. [x:y} 1. d1-c1 *')
    report.record.main.comments.append("one\n\ntwo")
    otn = write_report(report)
    assert opentafl_tags(otn)["start-comment"] == "After 1.\n(d1-c1) the attackers wait\n\nOr 1.\n(x:y\n\none two"
    assert opentafl_moves(otn) == "1. d1-c1\n"
    again = check(next(read_text(otn, "otn", "back.otg")))
    assert again.valid, again.diagnostics
    assert again.record.main.comments == ["After 1. (d1-c1) the attackers wait", "Or 1. (x:y", "one two"]


def test_a_comment_before_the_first_ply_that_starts_with_a_bracket_reads_back():
    """A comment before the first ply that starts `[Note: …` is a paragraph of the start-comment of
    its own, its line starting `[`, read as a tag not closed: the file lusoria wrote did not read
    back. It is written `(`, as after a `1. `."""
    report = check('[Game "brandubh"] {First note} {[Note: a quick game]} {[1) x} 1. d1-c1 *')
    otn = write_report(report)
    assert opentafl_tags(otn)["start-comment"] == "First note\n\n(Note: a quick game)\n\n(1) x"
    again = check(next(read_text(otn, "otn", "back.otg")))
    assert again.valid, again.diagnostics
    assert again.record.main.comments == ["First note", "(Note: a quick game)", "(1) x"]


def test_a_comment_that_starts_as_lusorias_note_is_read_back_but_the_note_itself_is_not():
    """The reader dropped every paragraph of the start-comment that starts `otn writer: `, a user's
    comment among them; it drops only the notes written again for the rules it reads."""
    [lgn] = random_records("brandubh", 1, seed=4, tags={"Rules": "throne-hostile=no"}, max_plies=2)
    report = check(lgn)
    report.record.main.comments.append(WRITER_NOTE + "my own remark")
    otn = write_report(report)
    assert opentafl_tags(otn)["start-comment"] == f"{WRITER_NOTE}my own remark\n\n{WRITER_NOTE}{CENHE_NOTE}"
    again = check(next(read_text(otn, "otn", "back.otg")))
    assert again.record.main.comments == [WRITER_NOTE + "my own remark"]
    assert write_report(again) == otn


def test_a_variation_of_a_variations_first_ply_is_written_as_another_alternative():
    """OpenTafl addresses a variation from the ply before the one it replaces; a variation's
    first ply has none in its line, so its variations are written as the same ply's."""
    record = report_of("otn/variations.otg").record
    second, third = record.main.plies[1].variations
    second.plies[0].variations.append(Line([Ply("a4-a2", comments=["nested"])]))
    otn = write_report(check(write_record(record)))  # as `convert` writes it
    assert "1b.1.2a. g4-g1 b5-b8\n1b.2.1a. ..... a4-a2\n[nested]\n1b.3.1a. ..... i4-i1\n" in otn
    again = check(next(read_text(otn, "otn", "x.otg")))
    assert [texts(line) for line in again.record.main.plies[1].variations] == [
        texts(second),
        ["a4-a2"],
        texts(third),
    ] and again.valid


def test_convert_round_trips_variations_through_the_cli(tmp_path):
    runner = CliRunner()
    original = FIXTURES / "otn" / "variations.otg"
    otn = runner.invoke(main, ["convert", "--to", "otn", str(original)])
    assert otn.exit_code == 0 and "1a.1.1a.1.1a. ..... b5-b7\n" in otn.stdout
    (tmp_path / "again.otg").write_text(otn.stdout)
    again = runner.invoke(main, ["convert", "--to", "lgn", str(tmp_path / "again.otg")])
    direct = runner.invoke(main, ["convert", "--to", "lgn", str(original)])
    assert again.exit_code == 0 and again.output == direct.output and "(1... i4-i1)" in again.output


def random_line(rules: Tablut, position, rng: random.Random, length: int) -> Line:
    line = Line()
    while len(line.plies) < length and (text := rules.random_ply(position, rng)) is not None:
        played = rules.play(position, text)
        line.plies.append(Ply(played.text))
        if played.outcome is not None:
            break
        position = played.position
    return line


def grow(rules: Tablut, line: Line, position, rng: random.Random, depth: int) -> None:
    """Random legal variations (nested up to `depth`) and comments on a line from `position`."""
    for ply in line.plies:
        if rng.random() < 0.15:
            ply.comments.append(rng.choice(["good", "a mistake | or not", "see [a] below"]))
        for _ in range(rng.choice([0] * 8 + [1, 2]) if depth else 0):
            alternative = random_line(rules, position, rng, rng.randint(1, 5))
            if alternative.plies:
                grow(rules, alternative, position, rng, depth - 1)
                ply.variations.append(alternative)
        played = rules.play(position, ply.text)
        if played.outcome is not None:
            return
        position = played.position


@settings(max_examples=30, deadline=None, derandomize=True)
@given(st.integers(0, 10**6), st.sampled_from(ROUND_TRIP_RULES))
def test_records_with_variations_round_trip_through_otn(seed, tags):
    assert_round_trip_with_variations(tags, random.Random(seed), 30)


BERSERK = {"Game": "hnefatafl", "Variant": "opentafl-berserk-11x11"}  # knights, commanders, jumps, berserk moves


@settings(max_examples=12, deadline=None, derandomize=True)
@given(st.integers(0, 10**6))
def test_records_with_berserk_turns_and_variations_round_trip_through_otn(seed):
    assert_round_trip_with_variations(BERSERK, random.Random(seed), 120)  # long enough for berserk moves


def assert_round_trip_with_variations(tags: dict[str, str], rng: random.Random, plies: int) -> None:
    """A random record of the rules `tags` choose, with random variations and comments, read
    back from the OTN lusoria writes of it as it was (but for what OTN cannot hold)."""
    rules = game_rules(tags)
    record = random_record(rules, rng, max_plies=rng.randint(1, plies))
    record.tags.pop("Variant", None)
    record.tags.update(tags)
    grow(rules, record.main, rules.initial(), rng, depth=3)
    report = check(write_record(record))
    otn = write_report(report)
    again = check(next(read_text(otn, "otn", "back.otg")))
    for line in _lines(report.record.main):  # what OTN cannot hold (tests above)
        for ply in line.plies:
            ply.comments = [comment.replace("|", "/").replace("]", ")") for comment in ply.comments]
            ply.variations = list(_alternatives(ply))
        if line is not report.record.main:
            line.plies[0].variations = []
    report.record.tags = {name: value for name, value in report.record.tags.items() if not unknown(name, value)}
    assert again.record == report.record and again.valid == report.valid


def test_a_variation_after_a_berserk_move_is_addressed_by_its_place_in_the_turn():
    start = "11/11/11/5K5/11/2n8/2P6P1/pP2Pp1P3/8P2/8c2/11 b"  # a knight on c6, a commander on i2
    lgn = (
        '[Game "hnefatafl"] [Variant "fetlar-hnefatafl-11x11"] [Rules "ber=c"] [Position "' + start + '"] '
        "c6-c4 c4=d4 Kf8-g8 (Kf8-f9 i2-i4 f9-f10 (j5-j4 a4-a3) a4-a3) i2-i4 j5-j4 *"
    )
    report = check(lgn)
    otn = write_report(report)
    assert otn.partition("\n\n")[2].splitlines() == [
        "1. nc6^c4xc5/b4 nc4=d4xe4 Kf8-g8",
        "1c.1.1a. ..... ..... Kf8-f9",  # it replaces the third move of turn 1, after two of the knight's
        "1c.1.2a. ci2^i4 f9-f10",
        "1c.1.2a.1.1a. ..... j5-j4xci4",
        "1c.1.2a.1.2a. a4-a3",
        "1c.1.3a. a4-a3",
        "2. ci2^i4 j5-j4xci4",
    ]
    again = check(next(read_text(otn, "otn", "back.otg")))
    assert again.valid and write_report(again) == otn
    [variation] = again.record.main.plies[2].variations
    assert [ply.text for ply in variation.plies] == ["Kf8-f9", "i2-i4", "f9-f10", "a4-a3"]
    assert [ply.text for ply in variation.plies[2].variations[0].plies] == ["j5-j4xi4", "a4-a3"]
    resigned = lgn.replace("Kf8-g8 (Kf8-f9 i2-i4 f9-f10 (j5-j4 a4-a3) a4-a3) i2-i4 j5-j4 *", "0-1").replace(
        "[Position", '[Termination "resignation"] [Position'
    )  # the defenders resign after the knight's berserk move
    otn = write_report(check(resigned))
    assert otn.endswith("\n1. nc6^c4xc5/b4 nc4=d4xe4\n") and "---" not in otn  # (the header says it: h71b)
    again = check(next(read_text(otn, "otn", "back.otg")))
    assert (again.record.result, again.record.tags["Termination"]) == ("0-1", "resignation")  # the attackers win


def test_a_turn_opened_by_a_capture_and_its_berserk_moves_is_read_as_opentafls_writer_numbers_it():
    """OpenTafl's writer puts a capture that opens a turn of berserk moves at the end of the turn
    before (`1. ci2-i1 Kf8-g8 nc6^c4xc5/b4`, `2. nc4=d4xe4 Kg8-h8`), and its reader, reading moves
    one after another, reads it back: it was refused as a third move in a turn (h77b: 9 of 12 of its
    Berserk games)."""
    rules = "[rules:dim:11 surf:n tfr:i ber:c start:/11/8c2/8T2/tT2Tt1T3/2T6T1/2n8/11/5K5/11/11/11/]\n\n"
    written = check(next(read_text(rules + "1. ci2-i1 Kf8-g8\n2. nc6^c4xc5/b4 nc4=d4xe4 Kg8-h8\n", "otn", "x.otg")))
    opentafls = check(next(read_text(rules + "1. ci2-i1 Kf8-g8 nc6^c4xc5/b4\n2. nc4=d4xe4 Kg8-h8\n", "otn", "x.otg")))
    assert opentafls.valid and opentafls.diagnostics == [] and opentafls.record == written.record
    commented_text = rules + "1. ci2-i1 Kf8-g8 nc6^c4xc5/b4\n[||a knight's jump]\n2. nc4=d4xe4 Kg8-h8\n"
    commented = check(next(read_text(commented_text, "otn", "x.otg")))  # (a comment's fields are its turn's moves)
    assert commented.valid and texts(commented.record.main) == texts(written.record.main)
    assert [ply.comments for ply in commented.record.main.plies[:3]] == [[], [], ["a knight's jump"]]
    varied = "1. ci2-i1 Kf8-g8 nc6^c4xc5/b4\n1a.1.1a. ci2-h2\n[a rook's way]\n2. nc4=d4xe4 Kg8-h8\n"  # (review77)
    branched = check(next(read_text(rules + varied, "otn", "x.otg")))  # (its variations before the next turn)
    assert branched.valid and texts(branched.record.main) == texts(written.record.main)
    assert [texts(line) for line in branched.record.main.plies[0].variations] == [["i2-h2"]]
    assert texts(opentafls.record.main) == ["i2-i1", "Kf8-g8", "c6-c4xc5/b4", "c4=d4xe4", "Kg8-h8"]
    for movetext, third in (
        ("1. ci2-i1 Kf8-g8 nc6^c4xc5/b4\n2. Kg8-h8 a4-a3\n", "nc6^c4xc5/b4"),  # no berserk move opens the next
        ("1. ci2-i1 Kf8-g8 nc6^c4\n2. nc4=d4xe4 Kg8-h8\n", "nc6^c4"),  # no capture opens the berserk moves
    ):
        [problem] = check(next(read_text(rules + movetext, "otn", "x.otg"))).diagnostics
        assert (problem.rule, problem.line - 2, problem.column, problem.text) == ("syntax", 1, 18, third)
        assert problem.message == f"found a third move '{third}' in turn 1: a turn holds the two sides' moves"
    alone = check(next(read_text(rules + "1. ci2-i1 Kf8-g8\n2. nc4=d4xe4 Kg8-h8\n", "otn", "x.otg")))  # (no capture)
    assert [(d.rule, d.line - 2, d.column) for d in alone.diagnostics] == [("G15", 2, 4)]  # the rules', not the turn's
    fourth = "1. ci2-i1 Kf8-g8 nc6^c4xc5/b4 Kg8-h8\n2. nc4=d4xe4 a4-a3\n"  # (a capture's berserk moves open turn 2)
    [problem] = check(next(read_text(rules + fourth, "otn", "x.otg"))).diagnostics
    assert (problem.line - 2, problem.column, problem.message) == (
        1,
        31,
        "found a fourth move 'Kg8-h8' in turn 1: a turn holds the two sides' moves",
    )


def test_a_move_written_with_its_pieces_letter_is_placed_over_the_letter_too():
    """`Cf14-f19` is the ply f14-f19 (the position says which piece moves): its place covered the
    ply's seven characters from the letter on, the caret and the editor's underline one short (h77b)."""
    rules = "[rules:dim:11 surf:n tfr:i ber:c start:/11/8c2/8T2/tT2Tt1T3/2T6T1/2n8/11/5K5/11/11/11/]\n\n"
    for movetext, place in (
        ("1. ci2-i1 Kf8-g8\n2. nc6-c5 Kg8-g9\n", (2, 4)),  # (c5 is the defenders')
        ("1. ci2-i1 Kf8-g8\n1b.1.1a. ..... Kf8-f9\n1b.1.2a. nc6-c5\n", (3, 10)),  # in a variation
    ):
        [refused] = check(next(read_text(rules + movetext, "otn", "x.otg"))).diagnostics
        assert (refused.rule, (refused.line - 2, refused.column), refused.text, refused.span) == (
            "G3",
            place,
            "c6-c5",
            6,
        )


@pytest.mark.parametrize(
    "control, remaining, written",
    [
        ("300 30/3 0i", "200,190", ["[time-control:300 30/3 0i]", "[time-remaining:200,190]"]),
        ("600", "540 10/2,600", ["[time-control:600]", "[time-remaining:540 10/2,600]"]),
        ("40/9000:300", "1,1", ["[time-remaining:1,1]", "[lusoria-tags:TimeControl=40%2F9000%3A300]"]),  # (not 40 s)
        ("300+5", "1,1", ["[time-remaining:1,1]", "[lusoria-tags:TimeControl=300%2B5]"]),
        ("300 30/3 0i", "200,190 5", ["[time-control:300 30/3 0i]", "[lusoria-tags:TimeRemaining=200%2C190%205]"]),
        ("-", "-", ["[lusoria-tags:TimeControl=- TimeRemaining=-]"]),  # PGN's: no clock
        ("G/30", "200", ["[lusoria-tags:TimeControl=G%2F30 TimeRemaining=200]"]),  # one side's clock
        ("300", "200", ["[time-control:300]", "[lusoria-tags:TimeRemaining=200]"]),
        ("300", "200,190,x", ["[time-control:300]", "[time-remaining:200,190,x]"]),  # (it reads two: the sides')
        ("300", "a,1", ["[time-control:300]", "[lusoria-tags:TimeRemaining=a%2C1]"]),
        ("300", "1,a", ["[time-control:300]", "[lusoria-tags:TimeRemaining=1%2Ca]"]),
        ("1" * 16, "1,1", ["[time-remaining:1,1]", "[lusoria-tags:TimeControl=" + "1" * 16 + "]"]),  # (×1000: a long)
        ("1" * 15, "200, 190", ["[time-control:" + "1" * 15 + "]", "[time-remaining:200, 190]"]),  # (its \\s*)
        ("300\u00a030/3", "1,1", ["[time-remaining:1,1]", "[lusoria-tags:TimeControl=300%C2%A030%2F3]"]),  # (not \\s)
        (
            "1" * 15 + " 1/" + "1" * 10,
            "1,1",
            ["[time-remaining:1,1]", "[lusoria-tags:TimeControl=1" + "1" * 14 + "%201%2F" + "1" * 10 + "]"],
        ),  # (an int)
        ("30 30/3 " + "1" * 19 + "i", "1,1", ["[time-control:30 30/3 " + "1" * 19 + "i]", "[time-remaining:1,1]"]),
        (
            "30 " + "1" * 16 + "/3",
            "1,1",
            ["[time-remaining:1,1]", "[lusoria-tags:TimeControl=30%20" + "1" * 16 + "%2F3]"],
        ),
        ("30 " + "1" * 15 + "/3", "1,1", ["[time-control:30 " + "1" * 15 + "/3]", "[time-remaining:1,1]"]),
    ],
)
def test_a_clock_is_written_as_opentafls_tag_only_where_opentafl_reads_it(control, remaining, written):
    """OpenTafl reads `time-control`, and `time-remaining` as both sides' clocks, in every file it
    opens: a value it does not read made it refuse the file (h77b), and is carried in lusoria's own tag."""
    record = f'[Game "brandubh"]\n[TimeControl "{control}"]\n[TimeRemaining "{remaining}"]\n\n1. d2-b2 *\n'
    otn = write_report(check(record))
    assert [line for line in otn.splitlines() if "time" in line.lower()] == written
    again = check(next(read_text(otn, "otn", "x.otg")))
    assert (again.tags["TimeControl"], again.tags["TimeRemaining"]) == (control, remaining)


@pytest.mark.parametrize(
    "tags, said",
    [
        ('[Game "tablut"] [Variant "aage"] [Rules "throne-pass=none"]', "the king may stop on the throne … him"),
        (
            '[Game "hnefatafl"] [Variant "fetlar-hnefatafl-11x11"] [Rules "cenp= cens=ak cenre=ak"]',
            "the attackers and the king may stop on the throne … them",
        ),
    ],
)
def test_a_region_a_piece_may_enter_but_not_pass_over_is_said_to_keep_it_off_in_opentafl(tags, said):
    """OpenTafl checks a move's last square as it checks the squares it passes (`canTaflmanMoveThrough`): `cenp:`
    keeps the king from going back to the throne there, which the Tablut of aagenielsen.dk lets him do, not
    letting him pass over it (h77b: OpenTafl refused the file at his move back, with no word of it)."""
    who, whom = said.split(" … ")
    otn = write_report(check(f"{tags} 1. a4-a3 *"))
    assert (
        f"[start-comment:otn writer: {who} coming from another square but not pass over it (cenp); OpenTafl reads "
        f"cenp: as keeping {whom} from stopping on it too]" in otn
    )
    assert "not pass over" not in write_report(check('[Game "tablut"] [Variant "aage"] 1. a4-a3 *'))


def test_a_tablut_rules_record_lusoria_did_not_write_keeps_the_king_off_a_throne_he_may_not_pass_over():
    """OpenTafl's `cenp:` keeps the king from going back to the throne whatever `cens` and `cenre` say (it checks
    a sliding move's last square as those it passes): so a Tablut file lusoria did not write is read; one it wrote
    (its own tags) as its tags say (aagenielsen.dk's Tablut under throne-pass=none). The generic game's lists
    cannot say it apart from a jump's landing, which OpenTafl checks as a stop alone (review77b)."""
    tablut = (
        "[rules:dim:9 esc:e surf:n tfr:i ks:c cor: cenh: cenp: cenre:K "
        "start:/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/]"
    )
    moves = "\n\n1. a4-a3 f5-f8\n2. a3-a2 Ke5-f5\n3. a2-a3 Kf5-e5\n"
    foreign = check(next(read_text(tablut + moves, "otn", "x.otg")))
    assert (foreign.rules.name, foreign.rules.option["throne-pass"], foreign.rules.option["throne-stop"]) == (
        "tablut",
        "none",
        "none",
    )
    assert [(d.rule, d.ply) for d in foreign.diagnostics] == [("T3", 6)]
    own = check(f'[Game "tablut"] [Variant "aage"] [Rules "throne-pass=none"] {moves.strip()} *')
    assert own.valid and "cenp: cenre:K" in write_report(own)  # (the same entries)
    assert check(next(read_text(write_report(own), "otn", "own.otg"))).valid  # (its own tags: throne-stop=king)


@pytest.mark.parametrize(
    ("cenre", "stop", "found"), [("cenre:tT ", "none", [("T3", 6)]), ("cenre:tTK ", "king", []), ("", "king", [])]
)
def test_a_tablut_rules_record_whose_king_may_not_reenter_the_centre_keeps_him_off_the_throne(cenre, stop, found):
    """h79b: the king stops on the throne again only when `cenre` (who may re-enter the centre) holds him too, as
    `cenp` and `cens` must (the entry alone was never tried: a king let back by `cenp` and `cens` passed)."""
    tablut = (
        f"[rules:dim:9 esc:e surf:n tfr:i ks:c cor: {cenre}start:/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/]"
    )
    moves = "\n\n1. a4-a3 f5-f8\n2. a3-a2 Ke5-f5\n3. a2-a3 Kf5-e5\n"
    report = check(next(read_text(tablut + moves, "otn", "x.otg")))
    assert (report.rules.name, report.rules.option["throne-pass"], report.rules.option["throne-stop"]) == (
        "tablut",
        "all",
        stop,
    )
    assert [(d.rule, d.ply) for d in report.diagnostics] == found


def test_a_rules_record_the_generic_game_refuses_as_a_whole_is_said_at_the_record():
    """h79b: a rules problem that names no entry's text (`OptionError.written` None, of no entry by its key: an even
    board without a throne named, a throne off the board) is said at the rules record, not raised (TypeError)."""
    ten = "/" + "/".join(["10"] * 4 + ["4tK4"] + ["10"] * 5) + "/"
    for rules, said in (
        (f"dim:10 esc:c start:{ten}", "a board of even size (dim:10) has no middle square: name its throne (cen:)"),
        ("dim:9 esc:c cen:j9 start:/9/9/9/9/4K4/9/9/9/3t5/", "j9 is not a square of a 9×9 board (a1–i9)"),
    ):
        report = check(next(read_text(f"[rules:{rules}]\n\n1. e6-e8 f5-f3\n", "otn", "x.otg")))
        assert (report.game, [(d.rule, d.line, d.column, d.message) for d in report.diagnostics]) == (
            None,
            [("tag", 1, 8, f"rules entry {said}")],
        )


def test_otn_is_written_for_a_turn_of_26_moves_and_refused_for_27():
    """h79b: OTN addresses a turn's moves by letter (1a … 1z; berserk moves make a turn longer): a turn of 27 is
    refused in a sentence (a record written from its texts past its first illegal ply: `a4=a5` 27 times), not by
    an IndexError (no test reached the bound)."""

    def turn(moves: int) -> str:
        words = ("a4=a5" if index % 2 == 0 else "a5=a4" for index in range(moves))
        return '[Game "hnefatafl"] [Variant "berserk-hnefatafl-11x11"] 1. ' + " ".join(words) + " *"

    written = write_report(check(turn(26)))
    assert written.partition("\n\n")[2].split() == ["1.", *turn(26).split()[5:-1]]
    with pytest.raises(ValueError, match=r"^a turn of more than 26 moves has no OTN address$"):
        write_report(check(turn(27)))


def test_a_variation_is_written_from_the_line_of_left_out_berserk_continuations_its_replay_found():
    # in the variation, a4-d4 (ply 2) shows that c4 went on to c6 after c2-c4xd4 (c4-c6xc7, G16): the
    # knight's move is no jump over c4 (the writer replayed the variation itself, from c4: `Na4^d4`)
    start = "11/11/7K3/2p8/2P8/11/11/N2Pp6/11/2p6p1/11 b"  # a knight on a4
    lgn = (
        f'[Game "hnefatafl"] [Variant "berserk-hnefatafl-11x11"] [Position "{start}"] '
        "1... j2-j3 (1... c2-c4xd4 2. a4-d4 j2-j3) 2. a4-a5 *"
    )
    report = check(lgn)
    assert [(d.rule, d.ply) for d in report.diagnostics] == [("G16", 2)]
    otn = write_report(report)
    assert otn.partition("\n\n")[2].splitlines() == ["1. j2-j3 Na4-a5", "1a.1.1a. c2-c4xd4 Na4-d4", "1a.1.2a. j2-j3"]
    again = check(next(read_text(otn, "otn", "back.otg")))
    assert [(d.rule, d.ply) for d in again.diagnostics] == [("G16", 2)] and again.valid
    assert texts(again.record.main.plies[0].variations[0]) == ["c2-c4xd4", "a4-d4", "j2-j3"]


# the keys of a rules record that OpenTafl reads (v0.4.8.0b, RulesSerializer.loadRulesRecord): it puts
# every key:value in a map and asks for these alone, so it ignores any other
OPENTAFL_KEYS = {
    *("dim", "name", "start", "starti", "esc", "surf", "atkf", "tfr", "ka", "ks", "kj", "nj", "cj", "mj", "gj"),
    *("sw", "swf", "efe", "linc", "ber", "spd", "cor", "cen", "afor", "dfor"),
    *(f"{region}{kind}" for region in ("cen", "cor", "afor", "dfor") for kind in ("p", "s", "h", "re")),
    "cenhe",
}


def test_the_keys_of_a_rules_record_that_opentafl_does_not_read_are_lusorias_own_named_in_the_docs():
    own = sorted(set(KEYS) - OPENTAFL_KEYS)
    assert own == ["aforw", "berw", "cc", "cenw", "corw", "dforw", "leap"]
    page = (ROOT / "docs" / "formats.md").read_text(encoding="utf-8")
    said = page[page.index("The `rules:` record is OpenTafl's") :].partition("\n\n")[0]
    assert [key for key in own if f"`{key}`" not in said] == []


def _lines(main: Line):
    pending = [main]
    while pending:
        line = pending.pop()
        yield line
        pending.extend(variation for ply in line.plies for variation in ply.variations)


def test_otn_a_game_whose_header_does_not_know_its_result_gets_the_one_its_end_makes_past_a_left_out_continuation():
    # c2-c4 takes d4; a2-a4 would take the king on b4 against c4, but Kb4-b5 shows that c4 went on
    # (c4-c5, G16): the game ends at a4-a5, the king taken on b5, as the tafl lists' reader reads it
    otn = (
        "[lusoria-game:hnefatafl]\n[lusoria-variant:tyr-9x9]\n[lusoria-rules:berw=a]\n"
        "[lusoria-position:9/9/9/9/9/1K1Pp4/9/p1p6/7P1 b]\n"
        "[rules:dim:9 esc:e surf:n tfr:i ks:w cor: cen: ber:c berw:a "
        "start:/t2t1t2t/9/2t1T1t2/t2T1T2t/2T1K1T2/t2T1T2t/2t1T1t2/9/t2t1t2t/]\n\n"
        "1. c2-c4xd4 h1-h2\n2. a2-a4 Kb4-b5\n3. a4-a5xb5\n"
    )
    report = check(next(read_text(otn, "otn", "x.otg")))
    assert [(d.rule, d.ply) for d in report.diagnostics] == [("G16", 4)]
    assert report.record.tags["Result"] == report.record.result == "0-1"
    assert report.record.main.plies[-1].comments == [
        "otn reader: the header gives no result; the game ended 0-1 (the king was captured (ks: w), G7)"
    ]


def test_a_described_games_repetition_is_written_as_it_plays_not_as_an_otn_repetition_tag_says():
    """OtnRepetition stands for the `tfr:` a built-in game reads without checking it; the generic
    game's rules record says what it checks (`tfr:i`), whatever tag a record carries."""
    report = check('[Game "hnefatafl"]\n[Variant "fetlar-hnefatafl-11x11"]\n[OtnRepetition "w"]\n\n1. f2-f3 *\n')
    assert report.valid
    assert "[rules:dim:11 surf:n tfr:i start:/3ttttt3/" in write_report(report)


def test_a_rules_record_without_tfr_is_written_back_a_draw_at_the_third_repetition():
    """OpenTafl leaves `tfr:` out for its default, a draw (its Brandub, Tablut, Fetlar): an organiser's
    game sent back to its player kept it (`tfr:d`), where it was written `tfr:i`, repetition ignored."""
    otn = (
        "[defenders:Bjørn Hansen]\n[attackers:Søren Ærø]\n[result:?]\n"
        "[rules:dim:7 name:Brandub surf:n ks:c cenh: cenhe: start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/]\n\n"
        "1. b4-b6 d5-c5\n"
    )
    report = check(next(read_text(otn, "otn", "r3.otg")))
    assert report.valid and report.record.tags["OtnRepetition"] == "d"
    written = write_report(report)
    assert "[rules:dim:7 name:Brandub surf:n tfr:d ks:c cenh: cenhe: corre:K start:/3t3/" in written
    assert write_report(check(next(read_text(written, "otn", "back.otg")))) == written


@pytest.mark.parametrize(
    "tags, name",
    [
        ({"Game": "brandubh"}, "Brandubh"),  # OpenTafl's Brandub is other rules
        ({"Game": "copenhagen"}, "Copenhagen"),  # OpenTafl's own
        ({"Game": "copenhagen", "Variant": "fetlar"}, "Copenhagen_(fetlar)"),
        ({"Game": "tablut"}, "Tablut_(seed)"),  # OpenTafl's Tablut (9×9) is other rules
        ({"Game": "tablut", "Variant": "linnaeus"}, "Tablut_(linnaeus)"),
        ({"Game": "hnefatafl", "Variant": "opentafl-brandub-7x7"}, "Brandub"),
    ],
)
def test_the_rules_record_of_a_game_of_lusorias_own_names_it(tags, name):
    """OpenTafl shows a game's `name:`: a built-in game's rules that OpenTafl has not are named as
    lusoria names them (a name OpenTafl gives other rules on that board with the variant's), and
    read back without lusoria's tags as those rules, the name not kept as a tag of its own."""
    record = random_record(game_rules(tags), random.Random(5), max_plies=6)
    record.tags.update(tags)
    otn = write_report(check(write_record(record)))
    rules = next(line for line in otn.splitlines() if line.startswith("[rules:"))
    assert rules.startswith(f"[rules:dim:{game_rules(tags).board.size} name:{name} ")
    bare = "\n".join(line for line in otn.splitlines() if not line.startswith("[lusoria-"))
    again = check(next(read_text(bare, "otn", "back.otg")))
    assert again.valid and "OtnRulesName" not in again.record.tags
    assert {key: again.record.tags.get(key) for key in tags} == tags


class TwoVariants(Brandubh):
    """A plug-in's tafl game of two variants, neither of which OpenTafl has, its title no name of OpenTafl's."""

    name, title = "twovariants", "Two variants"
    grammar = str(files("lusoria.grammar") / "brandubh.lark")
    presets = {"standard": {}, "armed": {"king-capture": "4"}}


@pytest.mark.parametrize("variant, name", [("standard", "Two_variants"), ("armed", "Two_variants_(armed)")])
def test_the_rules_record_of_a_plug_ins_game_names_its_variant_but_the_first(variant, name):
    """Its first variant is named by the game's title alone, its other by the title and the
    variant's name, as lusoria's own games are named (the mutant named both by the title alone)."""
    register(TwoVariants)
    try:
        record = random_record(TwoVariants(variant=variant), random.Random(5), max_plies=6)
        record.tags.update({"Game": "twovariants", "Variant": variant})
        otn = write_report(check(write_record(record)))
    finally:
        GAMES.unregister("twovariants")
    assert next(line for line in otn.splitlines() if line.startswith("[rules:")).startswith(
        f"[rules:dim:7 name:{name} "
    )


def test_a_resignation_from_a_position_with_the_defenders_to_move_is_theirs_in_a_game_the_attackers_start():
    """The side to move of lusoria's position tag (as `convert --to otn` writes it), not the rules
    record's first mover (brandubh's attackers), tells who resigned: the defenders, after a move each."""
    otn = (
        "[lusoria-rules:]\n[lusoria-position:3p3/3p3/3P3/ppPKPpp/3P3/3p3/3p3 w]\n"
        "[rules:dim:7 surf:n tfr:i ks:c cenh: cenre:K corre:K start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/]\n\n"
        "1. d3-b3 d2-c2\n2. ---\n"
    )
    report = check(next(read_text(otn, "otn", "x.otg")))
    assert report.valid, report.diagnostics
    assert texts(report.record.main) == ["d3-b3", "d2-c2"]
    assert (report.record.result, report.record.tags["Termination"]) == ("0-1", "resignation")


NOTE = (
    ": note: record 0 and any later record that loses the same: OTN's rules record does not say camps=ashton, repetition=draw: "
    "lusoria reads them back from its own tags ([lusoria-variant:…], [lusoria-rules:…]), but OpenTafl, or any "
    "program that reads OTN alone, plays the game without them\n"
)


def test_convert_to_otn_says_once_what_the_rules_record_cannot_say(tmp_path, monkeypatch):
    """An Ashton game written as OTN, read without lusoria's own tags, played Tablut without camps, and
    convert said nothing (session 28's closing note): a note on stderr, once for the records of one rules."""
    monkeypatch.chdir(tmp_path)
    path = tmp_path / "ashton.lgn"
    path.write_text("\n".join(random_records("tablut", 2, seed=3, tags={"Variant": "ashton"}, max_plies=8)))
    result = CliRunner().invoke(main, ["convert", "--to", "otn", "--output-dir", str(tmp_path / "out"), str(path)])
    counted = f"lusoria: note: 2 records converted lose what record 0 of {path}:1 loses (said above)\n"
    assert (result.exit_code, result.stderr) == (0, f"lusoria: {path}:1{NOTE}{counted}")
    written = (tmp_path / "out" / "ashton-000000.otg").read_text()
    alone = "".join(line for line in written.splitlines(keepends=True) if not line.startswith("[lusoria-"))
    [source] = read_text(alone, "otn", "alone.otg")
    assert check(source).rules.option["camps"] == "none"  # what the note says: the camps are lost
    assert check(next(read_text(written, "otn", "ashton-000000.otg"))).rules.option["camps"] == "ashton"
    path.write_text(path.read_text().replace("[Event", '[Annotator "A"]\n[Event'))  # (each file then differs)
    again = CliRunner().invoke(main, ["convert", "--to", "otn", "--output-dir", str(tmp_path / "out"), str(path)])
    assert again.exit_code == 2 and "note" not in again.stderr  # (neither written: review77)
    assert again.stderr.count("is already there (--overwrite writes over it)") == 2
    # to standard output, one game a file: the note of the first game, which the second one's refusal leaves
    # unwritten, is not said (h77b); a file of one game says it, then writes the game
    refused = CliRunner().invoke(main, ["convert", "--to", "otn", str(path)])
    assert (refused.exit_code, refused.stdout) == (2, "")
    assert "note" not in refused.stderr and "otn holds one game per file" in refused.stderr
    (tmp_path / "one.lgn").write_text(path.read_text().split("\n\n[")[0] + "\n")
    alone_written = CliRunner().invoke(main, ["convert", "--to", "otn", str(tmp_path / "one.lgn")])
    assert alone_written.exit_code == 0 and alone_written.stderr == f"lusoria: {tmp_path / 'one.lgn'}:1{NOTE}"
    assert alone_written.stdout == write_report(check((tmp_path / "one.lgn").read_text()))


def test_convert_to_otn_says_which_game_a_rules_record_reads_back_as_alone(tmp_path):
    """A Fetlar Hnefatafl game (the generic game's variant) written as OTN: its rules record, read
    without lusoria's own tags, is Copenhagen's (its fetlar preset), which plays otherwise, and
    convert said nothing (the note compared the options of one game only)."""
    path = tmp_path / "fetlar.lgn"
    path.write_text("\n".join(random_records("hnefatafl", 1, seed=1, tags={"Variant": "fetlar-hnefatafl-11x11"})))
    result = CliRunner().invoke(main, ["convert", "--to", "otn", str(path)])
    assert (result.exit_code, result.stderr) == (
        0,
        f"lusoria: {path}:1: note: record 0 and any later record that loses the same: OTN's rules record reads back alone as "
        "Copenhagen, which plays otherwise: lusoria reads the rules back from its own tags ([lusoria-variant:…], "
        "[lusoria-rules:…]), and the record without them as Copenhagen\n",
    )
    alone = "".join(line for line in result.stdout.splitlines(keepends=True) if not line.startswith("[lusoria-"))
    [source] = read_text(alone, "otn", "alone.otg")
    assert check(source).rules.name == "copenhagen"
    assert check(next(read_text(result.stdout, "otn", "fetlar.otg"))).rules.name == "hnefatafl"


def test_convert_to_otn_says_that_the_side_to_move_at_a_position_is_lost():
    """OTN says who moves first (`atkf`), not who is to move at a record's Position: a Copenhagen record from a
    position with the defenders to move, written as OTN and read without lusoria's tags (as OpenTafl reads it),
    had its first move made by the attackers, refused, and convert said nothing (h69a)."""
    position = "3ppppp3/5p5/11/p4P4p/p3PPP3p/pp1PPKPP1pp/p3PPP3p/p4P4p/11/5p5/3pppp4"
    text = f'[Game "copenhagen"]\n[Position "{position} w"]\n\n1... f4-c4 2. d1-d3 *\n'
    [converted] = convert([text], "otn")
    assert converted.note == (
        "OTN says that the attackers move first, not that the defenders are to move at the record's Position: "
        "lusoria reads that back from its own tags ([lusoria-position:…]), but OpenTafl, or any program that reads "
        "OTN alone, plays the first move as the attackers'"
    )
    alone = "".join(line for line in converted.text.splitlines(keepends=True) if not line.startswith("[lusoria-"))
    [first] = check(next(read_text(alone, "otn", "alone.otg"))).diagnostics
    assert (first.rule, first.ply) == ("C2", 1)  # what the note says: the first move read as the attackers'
    [attackers] = convert([text.replace(" w", " b").replace("1... f4-c4 2. d1-d3", "1. d1-d3")], "otn")
    assert attackers.note is None  # the first mover to move: nothing lost
    ashton = '[Game "tablut"]\n[Variant "ashton"]\n[Position "3ppp3/4p4/4P4/p3P3p/ppPPKPPpp/p3P3p/4P4/4p4/3ppp3 b"]\n\n'
    [both] = convert([ashton + "1... d1-d3 *\n"], "otn")
    assert both.note.startswith("OTN's rules record does not say camps=ashton")
    assert "them; and OTN says that the Swedes move first, not that the Muscovites are to move" in both.note


def test_convert_to_otn_of_rules_the_rules_record_says_has_no_note():
    """None for rules the rules record says and OpenTafl plays alike; for rules OpenTafl plays otherwise, the note
    says what the file's start-comment says (an OTN file read back, `cenhe:`: h71b, only the file said it)."""
    result = CliRunner().invoke(main, ["convert", "--to", "otn", str(ROOT / "samples/tablut/linnaeus.lgn")])
    assert (result.exit_code, result.stderr) == (0, "")
    path = ROOT / "tests/fixtures/formats/otn/variations.otg"
    result = CliRunner().invoke(main, ["convert", "--to", "otn", str(path)])
    [said] = re.findall(r"\notn writer: ([^]]*)\]", result.stdout)
    assert result.exit_code == 0 and result.stderr == (
        f"lusoria: {path}:1: note: record 0 and any later record that loses the same: as the file's start-comment says: "
        f"{' '.join(said.split())}\n"
    )
    assert said.startswith("the empty throne counts against the king but captures no defender's soldier (cenhe)")


def test_what_otn_loses_of_a_record_it_does_not_hold_is_nothing():
    """The format's `loses` of a record of another game (Latrunculi), or of no record (unparsable), is
    None: a record OTN does not hold loses nothing to it (convert refuses it before)."""
    latrunculi = check(next(iter(random_records("latrunculi", 1, seed=1, max_plies=4))))
    unparsable = check('[Game "tablut"]\n1. e3-c3 {unclosed\n')
    assert latrunculi.record is not None and unparsable.record is None
    assert (FORMATS["otn"].loses(latrunculi), FORMATS["otn"].loses(unparsable)) == (None, None)


def test_the_tags_of_an_otn_header_are_placed_at_their_values():
    """Where a record's tags were read (`Record.tag_places`, where their diagnostics point): at the value of
    the header's tag, the rules record's entries at theirs (its `name:`, a tag of its own: OtnRulesName)."""
    [source] = read_sources(str(FIXTURES / "otn" / "brandubh.otg"))
    record = check(source).record
    assert record.tags["OtnRulesName"] == "Brandub_Strong_Center_King"
    assert record.tag_places == {
        "Event": (1, 8),
        "Black": (2, 12),
        "White": (3, 12),
        "Result": (4, 9),
        "Game": (5, 8),
        "Rules": (5, 8),
        "OtnRulesName": (5, 19),
        "OtnRepetition": (5, 8),  # no tfr: OTN's default, a draw, at the rules record
    }


def test_a_ply_off_the_board_the_replay_refuses_is_written_as_it_is_written():
    """The generic game's grammar takes squares up to s19; on an 11×11 board the replay refuses
    `m4-m3` at its ply, and the writer, which has the position before it, writes it from its text
    (the mutant looked its squares up on the board: a KeyError)."""
    report = check('[Game "hnefatafl"]\n[Variant "fetlar-hnefatafl-11x11"]\n1. f2-f3 m4-m3 *\n')
    assert [(d.rule, d.ply) for d in report.diagnostics] == [("G3", 2)]
    assert write_report(report).endswith("\n\n1. f2-f3 m4-m3\n")


def test_lusorias_own_entries_that_opentafl_plays_without_are_said_in_the_file_and_the_note():
    """A Tyr game (berw:n) or Berserk Hnefatafl 9x9's (leap:y too) written as OTN stops in OpenTafl at its first
    left-out continuation or leap (h71b): the start-comment says which of lusoria's own entries OpenTafl ignores
    and which values it reads otherwise, `convert`'s note says it too, and lusoria reads the file back as it was."""
    for variant, said in (
        ("tyr-13x13", "it ignores berw:n (the records leave out berserk continuations: OpenTafl refuses the move"),
        ("berserk-hnefatafl-9x9", "it ignores leap:y (every piece leaps over a soldier next to it) and berw:n ("),
        ("unst-alea-evangelii-19x19", "it ignores cc:3 (a commander is captured only when that many of its sides"),
        ("foteviken-tablut-11x11", "it ignores cenw:TCNM (the empty throne captures only where the record lists th"),
    ):
        report = check(f'[Game "hnefatafl"] [Variant "{variant}"] *')
        otn = write_report(report)
        paragraph = f"OpenTafl plays without lusoria's own entries: {said}"
        lost = (loss(report) or "").partition("as the file's start-comment says: ")[2]
        assert f"{WRITER_NOTE}{paragraph}" in otn and paragraph in lost, variant
        again = check(next(read_text(otn, "otn", "back.otg")))
        assert again.record.main.comments == [] and write_report(again) == otn, variant
    weak_throne = check('[Game "hnefatafl"] [Variant "fetlar-hnefatafl-11x11"] [Rules "ks=t ber=o"] *')
    assert (
        "it reads ks:t (the king captured by four on the throne only) as ks:s and ber:o (a piece that captured may "
        "move again, capturing) as ber:n" in write_report(weak_throne)
    )
    assert "lusoria's own entries" not in write_report(check('[Game "hnefatafl"] [Variant "fetlar-hnefatafl-11x11"] *'))


def test_a_repetition_opentafl_ends_the_game_at_is_said_in_the_note():
    """OpenTafl writes `tfr:i` (repetition not checked) but reads it as `tfr:d`: a game whose main line brings a
    position back the third time is drawn there in OpenTafl, where lusoria's rules play on (h71b). The note says so,
    in the same words whichever ply it is (review71), for a side's board back with that side to move (OpenTafl's
    hash counts the side, review71: a board back with the other side to move is another position); not for a
    position back twice, nor under a rules record that says another `tfr:`."""
    moves = "1. e3-c3 d1-d2 2. c3-e3 d2-d1 3. e3-c3 d1-d2 4. c3-e3 d2-d1 5. e3-c3 *"
    said = (
        "OpenTafl reads tfr:i, repetition not checked, as tfr:d, and ends a game drawn when its main line brings a "
        "position back the third time, as this record's does"
    )
    assert (loss(check(f'[Game "tablut"] {moves}')) or "").endswith(f"; and {said}")
    assert (loss(check(f'[Game "tablut"] 1. c5-c6 a4-a3 {moves[3:]}')) or "").endswith(f"; and {said}")  # later
    assert "tfr:" not in (loss(check(f'[Game "tablut"] {moves.partition(" 4.")[0]} *')) or "")  # twice
    triangle = "1. e3-c3 d1-d2 2. c3-b3 d2-d1 3. b3-e3 d1-d2 4. e3-c3 d2-d1 5. c3-b3 d1-d2 6. b3-e3 d2-d1 7. e3-c3 *"
    assert "tfr:" not in (loss(check(f'[Game "tablut"] {triangle}')) or "")  # the board thrice, the side not
    otn_copenhagen = check(f'[Game "tablut"] [OtnRepetition "w"] {moves}')  # (OpenTafl's own tfr:w)
    assert "[rules:" in write_report(otn_copenhagen) and "tfr:w" in write_report(otn_copenhagen)
    assert "tfr:i" not in (loss(otn_copenhagen) or "")


def test_a_nag_otn_does_not_hold_is_said_in_the_note_in_a_variation_too():
    """OTN holds no NAG, and `convert --to otn` dropped them unsaid (h79a): the note says so, in the same words
    for any record that holds one, in its main line or a variation; a record of none loses nothing."""
    said = "OTN holds no NAG (`!`, `?!`, `$14`), not even for lusoria to read back: they are not written"
    moves = "1. g11-g9 d6-d10 2. g9-j9 f8-b8"
    assert loss(check(f'[Game "copenhagen"] {moves} *')) is None
    assert loss(check(f'[Game "copenhagen"] {moves.replace("d10", "d10?!")} *')) == said
    assert loss(check(f'[Game "copenhagen"] {moves} (2... f8-c8 $14) *')) == said


def test_a_note_said_once_for_the_records_that_lose_the_same_counts_them_at_the_end(tmp_path):
    """A folder's records that lose the same were named by the first alone, with no count (h71b): the count
    follows the records, for each note said of more than one."""
    record = '[Game "tablut"]\n[Round "{}"]\n\n1. e3-c3 *\n\n'
    (tmp_path / "seed.lgn").write_text("".join(record.format(n) for n in range(3)))
    (tmp_path / "ashton.lgn").write_text(record.format(9).replace("\n\n1.", '\n[Variant "ashton"]\n\n1.'))
    result = CliRunner().invoke(
        main,
        [
            "convert",
            "--to",
            "otn",
            "--output-dir",
            str(tmp_path / "out"),
            str(tmp_path / "seed.lgn"),
            str(tmp_path / "ashton.lgn"),
        ],
    )
    notes = [line.partition(": note: ")[2] for line in result.stderr.splitlines() if "note:" in line]
    assert [note[:51] for note in notes[:2]] == ["record 0 and any later record that loses the same: "] * 2
    assert notes[2:] == [f"3 records converted lose what record 0 of {tmp_path / 'seed.lgn'}:1 loses (said above)"]
    assert result.exit_code == 0


@pytest.mark.parametrize("repetition, tfr", [("defenders-lose", "tfr:i "), ("draw", "")])
def test_a_copenhagen_repetition_otn_cannot_say_is_noted_and_read_back_from_lusorias_own_tags(repetition, tfr):
    """C12's option (h79a): OTN's `tfr` says no loss for the defenders, and Copenhagen's rules record writes none
    for a draw (the reader's Copenhagen plays none): the note says it, and lusoria reads it back from its own tag."""
    text = f'[Game "copenhagen"] [Rules "repetition={repetition}"] 1. d1-d2 f4-f3 *'
    report = check(text)
    assert loss(report) == (
        f"OTN's rules record does not say repetition={repetition}: lusoria reads them back from its own tags "
        "([lusoria-variant:…], [lusoria-rules:…]), but OpenTafl, or any program that reads OTN alone, plays the "
        "game without them"
    )
    otn = write_report(report)
    assert f"[lusoria-rules:repetition={repetition}]" in otn and f"name:Copenhagen {tfr}sw:s" in otn
    assert check(next(read_text(otn, "otn", "x.otg"))).rules.option["repetition"] == repetition
