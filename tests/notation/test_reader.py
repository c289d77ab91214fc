"""The reader (splitting, parsing, syntax errors) and the canonical writer."""

import io
import itertools
import re
import tempfile

import pytest
from conftest import ROOT, known_games_elided
from hypothesis import given
from hypothesis import strategies as st

from lusoria.notation import Line, Ply, Record, SyntaxProblem, parse_record, sources, split_records, write_record
from lusoria.notation.lalr import builder_parser
from lusoria.notation.reader import MAX_TOKEN, RecordText, scan_tags, stood_in
from lusoria.notation.sources import CHUNK, InputError, Note, decoded_text
from lusoria.notation.syntax import CutShort
from lusoria.validator.games import known_games
from lusoria.validator.replay import check as replayed

EXAMPLE = """\
[Game "tablut"]
[Event "Club evening"]
[Site "Uppsala"]
[Date "2026.11.21"]
[Round "1"]
[White "Swedes player"]
[Black "Muscovites player"]
[Result "*"]

1. e3-c3 { opening } d1-d3 2. e4-e3xd3 ( 2. g5-g7 ) a4-c4 *
"""


def test_the_notation_example_parses_to_the_model(snapshot):
    assert parse_record(EXAMPLE) == snapshot


def test_positions_of_plies_in_a_run():
    record = parse_record('[Game "tablut"]\n\n1. e3-c3\n   d1-d3 2. e4-e3xd3 *\n')
    assert [(p.text, p.line, p.column, p.number) for p in record.main.plies] == [
        ("e3-c3", 3, 4, "1."),
        ("d1-d3", 4, 4, None),
        ("e4-e3xd3", 4, 13, "2."),
    ]


def test_positions_of_plies_in_a_record_text_that_begins_with_a_line_end():
    """h83a: a line end at the very start of the text (offset 0: a record given its game, no tag) is counted
    like any other: its plies stand from the record's second line (`0 < newline` placed them a line up)."""
    from lusoria.notation.reader import RecordText

    record = parse_record(RecordText("\n1. e3-c3\nd1-d3 *\n", line=5, given=(("Game", "tablut"),)))
    assert [(p.text, p.line, p.column) for p in record.main.plies] == [("e3-c3", 6, 4), ("d1-d3", 7, 1)]


def test_comments_nags_suffixes_and_escape_lines():
    record = parse_record(
        '[Game "tablut"]\n% an escape line\n{ before } 1. e3-c3!? $14 ; to the end\nd1-d3?? { after } *'
    )
    assert record.main.comments == ["before"]
    first, second = record.main.plies
    assert (first.nags, first.comments) == ([5, 14], ["to the end"])
    assert (second.nags, second.comments) == ([4], ["after"])


@pytest.mark.parametrize("comment", ["", "{ lalr } "], ids=["plain", "lalr"])
def test_each_suffix_is_read_as_its_nag(comment):
    """h78c: `!!` read as $4 (`??`, a blunder) passed every test, which wrote `!?`, `??`, `!` and `?` alone: each of
    PGN's six suffixes is its own NAG, on either path (the reader's plain one, the parser's)."""
    movetext = "1. e3-c3! d1-d3? 2. e4-e2!! d3-d2?? 3. e2-f2!? d2-d1?! *"
    record = parse_record(f'[Game "tablut"]\n\n{comment}{movetext}\n')
    assert [(ply.text, ply.nags) for ply in record.main.plies] == [
        ("e3-c3", [1]),
        ("d1-d3", [2]),
        ("e4-e2", [3]),
        ("d3-d2", [4]),
        ("e2-f2", [5]),
        ("d2-d1", [6]),
    ]
    assert "2. e4-e2 $3 d3-d2 $4" in write_record(record)


def test_nested_variations_keep_their_place():
    record = parse_record('[Game "tablut"]\n1. e3-c3 (1. e3-d3 (1. e3-b3) d1-d2) d1-d3 *')
    (variation,) = record.main.plies[0].variations
    assert [p.text for p in variation.plies] == ["e3-d3", "d1-d2"]
    assert variation.plies[0].variations[0].plies[0].text == "e3-b3"


def test_splitting_a_stream_into_records():
    text = '% header\n\n[Game "tablut"]\n\n1. e3-c3 *\n\n\n[Game "tablut"]\n[Round "2"]\n1. e3-d3\n*\n'
    records = list(split_records(io.StringIO(text), "f.lgn"))
    assert [(r.line, r.index, r.path) for r in records] == [(3, 0, "f.lgn"), (8, 1, "f.lgn")]
    assert records[1].text.startswith('[Game "tablut"]\n[Round "2"]')


def test_a_stream_of_lines_is_split_as_it_arrives_not_read_whole_first():
    """h78c: the lines are joined into pieces of about a megabyte (`_grouped`); joined with no bound, a stream
    (standard input, a file's lines) was read whole before its first record came out (38 MB held for 7 MB)."""
    record = '[Game "tablut"]\n\n1. e3-c3 d1-d3 *\n\n'

    def lines():
        for read in itertools.count(len(record), len(record)):  # (the characters yielded so far)
            if read > 3 << 20:
                raise AssertionError("the stream was read past 3 MB before its first record was split off")
            yield from record.splitlines(keepends=True)

    first = next(split_records(lines()))
    assert (first.text, first.line, first.index) == (record, 1, 0)


@pytest.mark.parametrize(
    "first",
    [
        '[Game "latrunculi"]\n[Variant "petteia"]\n[Result "*"] 1. a2-a5 *\n',  # movetext on the last tag's line
        '[Game "latrunculi"] [Variant "petteia"] [Result "*"] 1. a2-a5 *\n',  # a record on one line
        '[Game "latrunculi"] [Variant "petteia"] *\n',  # its result marker alone
        '[Game "latrunculi"] [Variant "petteia"] a2-a5 *\n',  # a ply, no move number (reviewer-54)
        '[Game "latrunculi"] [Variant "petteia"] { from the folio } 1. a2-a5 *\n',  # a comment
        '[Game "latrunculi"]\u00a0[Variant\u00a0"petteia"]\u00a01. a2-a5 *\n',  # no-break spaces
    ],
)
def test_movetext_that_begins_on_a_tag_line_ends_the_tags_and_the_next_tag_line_begins_a_record(first):
    """Newcomer-54b: a record whose movetext begins on its tags' line took the next record's tags as its own
    (`found '[' after the result marker`), so the archive stored one record of the second's Variant."""
    second = '[Game "latrunculi"]\n[Variant "dux"]\n[Result "*"]\n1. a1-a5 *\n'
    for gap in ("\n", ""):
        records = list(split_records(io.StringIO(first + gap + second)))
        assert [(r.line, r.text) for r in records] == [
            (1, first + gap),
            (len(first.splitlines()) + 1 + len(gap), second),
        ]
        assert [parse_record(r).tags["Variant"] for r in records] == ["petteia", "dux"]


def test_movetext_on_the_line_of_a_tag_quoted_otherwise_ends_the_tags_too():
    """A tag quoted with a word processor's quotes is a tag line (its slip said, docs/slips.md): movetext after it
    on its line begins the movetext, and the next tag line another record (found by reviewer-54)."""
    first = '[Game “latrunculi”] [Variant "petteia"] 1. a2-a5 *\n'
    second = '[Game "latrunculi"]\n[Variant "dux"]\n\n1. a1-a5 *\n'
    assert [(r.line, r.text) for r in split_records([first + second])] == [(1, first), (2, second)]
    assert replayed(first).diagnostics[0].suggestions == ('[Game "latrunculi"]',)


def test_a_tag_line_that_other_text_follows_is_no_movetext_for_splitting():
    """Only a move number or a result marker after a line's tags begins its movetext: the tag line after
    `[White "Karin"] Nilsson` stays in the record, whose error is there (as before)."""
    text = '[Game "tablut"]\n[White "Karin"] Nilsson\n[Black "Ada"]\n\n1. e3-c3 *\n'
    [record] = split_records(io.StringIO(text))
    with pytest.raises(SyntaxProblem) as slip:
        parse_record(record)
    assert (slip.value.line, slip.value.column) == (2, 17)


def test_a_comment_between_tags_ends_them_as_notation_md_says_and_the_error_says_so():
    """NOTATION.md §1 and §3: a record is its tags, then its movetext, which comments belong to; a tag
    line after a comment begins another record. The first record's error said only that it ends
    without a result marker, and the second's that it has no Game tag."""
    text = '[Game "tablut"]\n{ a note }\n[White "Ada"]\n\n1. e3-c3 *\n'
    first, second = split_records(io.StringIO(text))
    assert (first.line, second.line) == (1, 3)
    with pytest.raises(SyntaxProblem) as ended:
        parse_record(first)
    assert (ended.value.message, ended.value.line, ended.value.column) == (
        "the record ends without a result marker (1-0, 0-1, 1/2-1/2, *); the comment on line 2 ends the record's"
        " tags, and a tag after it begins another record (a comment goes below the tags)",
        2,
        11,
    )
    assert parse_record('[Game "tablut"]\n[White "Ada"]\n{ a note }\n1. e3-c3 *').main.comments == ["a note"]


@pytest.mark.parametrize("note", ["\n; a note", " ; a note"])
def test_a_line_comment_between_tags_ends_them_too(note):
    """h79c: a `;` comment on a tag's line was no movetext to the reader, and the next tag line was met by the
    parser (`found '['`, unexplained): it ends the tags as a `{…}` comment there does."""
    first, second = split_records(io.StringIO(f'[Game "tablut"]{note}\n[White "Ada"]\n\n1. e3-c3 *\n'))
    assert (first.line, second.line) == (1, note.count("\n") + 2)
    with pytest.raises(SyntaxProblem) as ended:
        parse_record(first)
    assert ended.value.message.endswith(
        f"; the comment on line {note.count(chr(10)) + 1} ends the record's tags, and a tag after it begins another "
        "record (a comment goes below the tags)"
    )


@pytest.mark.parametrize("end", ["\n", ""])
def test_tags_and_a_comment_at_the_end_of_the_file_are_said_to_lack_the_result_marker_alone(end):
    """No tag follows them: the record lacks its result marker, nothing more (it was said that a tag
    after the comment begins another record)."""
    [record] = split_records(io.StringIO(f'[Game "tablut"]\n[White "Ada"]\n{{ a note }}{end}'))
    assert not record.tag_follows
    with pytest.raises(SyntaxProblem) as ended:
        parse_record(record)
    assert (ended.value.message, ended.value.line, ended.value.column) == (
        "the record ends without a result marker (1-0, 0-1, 1/2-1/2, *)",
        3,
        11,
    )


def test_a_comment_below_the_tags_of_a_record_without_moves_is_not_said_to_end_them():
    """A blank line after the comment: it was written below the tags, where a comment goes; the record
    lacks its moves, and the tag lines after the blank begin the next record as after any."""
    text = '[Game "tablut"]\n[Site "club"]\n{ a note }\n\n[Game "tablut"]\n1. e3-c3 *\n'
    first, second = split_records(io.StringIO(text))
    assert (first.line, second.line) == (1, 5)
    with pytest.raises(SyntaxProblem) as ended:
        parse_record(first)
    assert (ended.value.message, ended.value.line) == (
        "the record ends without a result marker (1-0, 0-1, 1/2-1/2, *)",
        3,
    )


def test_an_unclosed_comment_does_not_swallow_the_next_record():
    text = '[Game "tablut"]\n1. e3-c3 { never closed *\n\n[Game "tablut"]\n1. e3-c3 { fine } *\n'
    first, second = split_records(io.StringIO(text))
    with pytest.raises(SyntaxProblem, match="never closed"):
        parse_record(first)
    assert parse_record(second).main.plies[0].comments == ["fine"]
    unseparated = text.replace("\n\n", "\n")  # no blank line: the `}` closes the next record's own comment
    assert [record.line for record in split_records(io.StringIO(unseparated))] == [1, 3]
    for last in (unseparated.replace("{ fine } ", ""), unseparated.replace("{ fine } ", "").rstrip("\n")):
        for pieces in ([last], list(last)):  # (no `}` after it at all: its file ends)
            assert [record.line for record in split_records(pieces)] == [1, 3]


def test_a_byte_order_mark_where_files_were_joined_is_a_blank():
    """Newcomer-53a: `cat a.lgn b.lgn` of files that begin with a byte order mark put one before b's first tag line:
    a's record was said to have text after its result marker, and b's record was lost."""
    first, second = '[Game "laquet"]\n\n1. 53: 5/10 10/13 *\n', '[Game "tablut"]\n\n1. e3-c3 *\n'
    records = list(split_records([first + "\ufeff" + second]))
    assert [(record.line, parse_record(record).game) for record in records] == [(1, "laquet"), (4, "tablut")]
    assert parse_record(second.replace("e3-c3", "e3-c3\ufeff")).main.plies[0].text == "e3-c3"  # a blank anywhere


def test_a_record_whose_tags_stand_after_the_marker_of_the_one_before_is_told_where_they_are():
    """h80a, h80c: files saved with no final line break (Notepad), joined (`cat`, `copy /b`): each record's Game tag
    stands after the marker of the one before, where it begins no record, and the record after was said to have no
    Game tag, nothing more. Its error says where its tags stand, and why they begin none there."""
    one = '[Game "laquet"]\r\n[Event "Partie"]\r\n\r\n1. 64: 5/11 5/9 *'
    first, second, third = split_records([one * 3])
    assert (first.hint, second.line, third.line) == ("", 5, 8)
    assert second.hint == (
        "; its first tags stand on line 4, after the result marker of the record before it, where they begin no "
        'record ([Game "laquet"]): a record\'s tags start on a line of their own (files joined that end with no line '
        "break?)"
    )
    assert third.hint == second.hint.replace("line 4", "line 7")
    [error] = replayed(second).diagnostics
    assert (error.rule, error.line) == ("tag", 5) and error.message.endswith(second.hint)
    other = '[Game "tablut"]\n\n1. e3-c3 * [Event "Cup"]\n[Game "tablut"]\n\n1. e7-e8 *\n'  # (review80b: an Event
    # glued, the next record's Game tag its own: its error, of a ply, says nothing of it)
    assert [record.hint for record in split_records([other])] == ["", ""]


def test_a_dos_end_of_file_mark_after_the_last_record_is_a_blank():
    """h80a: a DOS editor's Ctrl-Z (0x1A) at a file's end made its valid record invalid, text after the marker."""
    record = '[Game "laquet"]\r\n\r\n1. 64: 5/11 5/9 *\r\n\x1a'
    [read] = split_records([record])
    assert parse_record(read).main.plies[0].text == "64: 5/11 5/9"
    assert read.text == record[:-1]  # (review80: kept in the record, `query --format lgn` wrote it out again)
    assert list(split_records(["\r\n\x1a\x1a\r\n"])) == []  # (a file of a mark alone: a record of nothing)
    joined = list(split_records([record + record]))  # (files that each end so, joined: `copy /b`, `cat`; h80c)
    assert [(read.line, parse_record(read).main.plies[0].text) for read in joined] == [
        (1, "64: 5/11 5/9"),
        (4, "64: 5/11 5/9"),
    ]


@pytest.mark.parametrize(
    "tag",
    [
        '[Variant\u00a0"petteia"]',
        '[Variant\u00a0"petteia"\u00a0]',
        '[\u00a0Variant "petteia"]',
        '\u00a0[Variant "petteia"]',
        '[Variant "petteia"]\n[Game\u00a0"latrunculi"]',  # (reviewer-54: the record was refused, its Game tag a slip)
    ],
)
def test_a_no_break_space_is_a_blank(tag):
    """Newcomer-54b: a no-break space pasted from a word processor or an e-mail (`[Variant\u00a0"petteia"]`) made
    the tag line no tag line, so it was cut from its record (`this tag is not written [Name "value"]`, then `the
    record has no Game tag`), and between plies it was `found ' '`, as no other blank is."""
    game = "" if "Game" in tag else '[Game "latrunculi"]\n'
    written = f'{game}{tag}\n[Result "*"]\n\n1. a2-a5\u00a0b7-b5 *\n'
    [record] = split_records([written])
    read = parse_record(record)
    assert (read.tags["Variant"], [ply.text for ply in read.main.plies]) == ("petteia", ["a2-a5", "b7-b5"])


def test_a_tag_line_quoted_in_a_comment_is_the_comments():
    """Newcomer-53a: a comment that quotes a source's tag line (`{ the folio reads:` then `[Event "Sevilla"] at its
    top }`) was cut there, its first part said never closed and the rest a record with no Game tag; a comment
    that a `}` closes before any `{` holds it, over a blank line too, in whatever pieces the text arrives."""
    text = '[Game "laquet"]\n\n1. 53: 5/10 10/13 { the folio reads:\n\n[Event "Sevilla"]\n[Site "?"] at its top }\n*\n'
    after = '\n[Game "laquet"]\n1. 53: 5/10 10/13 *\n'  # the next record, whose tag line is no comment's
    for pieces in ([text + after], list(text + after), (text + after).splitlines(keepends=True)):
        record, following = split_records(pieces)
        assert parse_record(record).main.plies[0].comments == [
            'the folio reads: [Event "Sevilla"] [Site "?"] at its top'
        ]
        assert following.line == 9


def test_a_tag_line_quoted_in_a_comment_is_the_comments_with_another_comment_after_it():
    """h78c: the `}` that closes the comment comes before the next `{`: read as the next record's tag line when any
    `{` followed it (`opened == -1` alone), the comment was cut there and said never closed."""
    text = (
        '[Game "laquet"]\n\n1. 53: 5/10 10/13 { the folio reads:\n[Event "Sevilla"] at its top }\n2. 42: 6/8 { b } *\n'
    )
    for pieces in ([text], list(text)):
        [record] = split_records(pieces)
        assert parse_record(record).main.plies[0].comments == ['the folio reads: [Event "Sevilla"] at its top']


def test_a_closing_brace_in_a_tag_value_after_a_record_without_comments_opens_no_comment():
    """h78c: a tag line is a comment's only where a `{` above it is open; after movetext with no brace at all
    (`rfind` -1 both), a `}` below it (here in a tag's value, before the record's own comment) took the tag line
    for a comment's when the two were compared with `<`, and the two records were read as one."""
    text = '[Game "tablut"]\n\n1. e3-c3 *\n\n[Game "tablut"]\n[Event "Cup :}"]\n\n1. e3-c3 { good } *\n'
    for pieces in ([text], list(text)):
        first, second = split_records(pieces)
        assert (first.line, second.line) == (1, 5)
        assert parse_record(second).tags == {"Game": "tablut", "Event": "Cup :}"}


def test_a_tag_line_in_a_comment_longer_than_a_token_can_be_begins_a_record():
    """The `}` that would close the comment is MAX_TOKEN characters on: the tag line is not held that long."""
    text = '[Game "tablut"]\n1. e3-c3 { from\n[Event "x"]\n' + "y" * MAX_TOKEN + "}\n*\n"
    for pieces in ([text], [text[:40], text[40:]]):
        assert [record.line for record in split_records(pieces)] == [1, 3]
    escape = "%" + "z" * MAX_TOKEN + "\n"  # the reader's first piece, whole, ends before the `}` that closes it:
    pieces = [escape + '[Game "tablut"]\n1. e3-c3 { from\n[Event "x"]\nyy', "yy }\n*\n"]  # the tag line is held
    assert [record.line for record in split_records(pieces)] == [2]
    blank_first = ["%" + "z" * MAX_TOKEN + "\n", '\n[Game "tablut"]\n1. e3-c3 *\n']  # a piece's first line is blank
    assert [record.line for record in split_records(blank_first)] == [3]


@pytest.mark.parametrize(
    "text",
    [
        '[Game "tablut"]\n1. e3-z3 *',
        '[Game "tablut"]\n1. e3-c3',
        '[Game "tablut"]\n1. e3-c3 ( ) *',
        '[Game "tablut"]\n1. e3-c3 ({ only a comment }) *',
        '[Game "tablut"]\n$1 e3-c3 *',
        '[Game "tablut"]\n1. e3-c3 2. *',
        '[Game "tablut"]\n[Event "unterminated]\n*',
        '[Game "tablut"]\n[Event "x"]\n[Event "y"]\n*',
        '[Event "x"]\n1. e3-c3 *',
        '[Game "go"]\n*',
        '[Game "tablut"]\n1. e3-c3 e3-c3) *',
    ],
)
def test_syntax_problems_say_where_and_what(text, snapshot):
    with pytest.raises(SyntaxProblem) as caught:
        parse_record(text)
    problem = caught.value
    assert (problem.rule, problem.line, problem.column, known_games_elided(problem.message)) == snapshot


@pytest.mark.parametrize(
    ("game", "movetext", "column", "word", "square", "last"),
    [
        ("tablut", "1. e3-c3 j4-j7 *", 10, "j4-j7", "j4", "i9"),
        ("tablut", "1. e3-c3 d1-d3 2. e4-e3xd3 a4-a10 *", 28, "a4-a10", "a10", "i9"),  # the parser stops at 0
        ("tablut", "1. e3-c3 d1-d3 2. e4-e3xj3 *", 19, "e4-e3xj3", "j3", "i9"),
        ("tablut", "1. e3-c3 (1. e3-c0) *", 14, "e3-c0", "c0", "i9"),
        ("copenhagen", "1. d1-d12 *", 4, "d1-d12", "d12", "k11"),
        ("brandubh", "1. d2-h2 *", 4, "d2-h2", "h2", "g7"),
        ("hnefatafl", "1. e2-t2 *", 4, "e2-t2", "t2", "s19"),
        ("latrunculi", "1. @q4 *", 4, "@q4", "q4", "p16"),
        ("tablut", "1. e3-c3 d1-d3 2. e2-e12" + "q" * 50 + " *", 19, "e2-e12" + "q" * 34, "e12", "i9"),  # 40 shown
    ],
)
def test_a_ply_with_a_square_off_every_board_of_its_game_says_which(game, movetext, column, word, square, last):
    """A transcriber's slip (`j4` on a 9x9 board) is named, at the start of the ply that holds it."""
    with pytest.raises(SyntaxProblem) as caught:
        parse_record(f'[Game "{game}"]\n{movetext}')
    problem = caught.value
    assert (problem.rule, problem.line, problem.column, problem.text) == ("syntax", 2, column, word)
    assert problem.message == (f"found '{word}': {square} is not a square of any {game} board (a1–{last})")


def test_a_ply_off_the_board_at_the_texts_first_character_is_named_as_anywhere_else():
    """The word is sought back from where the parser stopped to the text's start, never past it
    (the mutant went on at the text's end, `*`, and said only what was expected there)."""
    with pytest.raises(SyntaxProblem) as caught:
        parse_record('z9-a1 {\n[Game "tablut"]\n} *')  # its Game tag read from the comment's line
    problem = caught.value
    assert (problem.rule, problem.line, problem.column, problem.text) == ("syntax", 1, 1, "z9-a1")
    assert problem.message == "found 'z9-a1': z9 is not a square of any tablut board (a1–i9)"


@pytest.mark.parametrize(
    ("game", "movetext", "found"),
    [
        ("tablut", "1. e3-c3 d1 *", "d1"),
        ("tablut", "1. e3c3x *", "e3c3x"),
        ("tablut", "1. 64: *", "64:"),  # a roll in a game without dice (lalr._misrolled: no roll to read)
        ("laquet", "1. 63: 5/11 1/4 2. 36 *", "36"),
    ],
)
def test_a_syntax_error_with_no_square_off_the_board_says_what_was_expected(game, movetext, found):
    with pytest.raises(SyntaxProblem) as caught:
        parse_record(f'[Game "{game}"]\n{movetext}')
    assert caught.value.message.startswith(f"found '{found}', expected a ply, a move number")


@pytest.mark.parametrize(
    ("movetext", "found", "said"),
    [
        ("1. e3-c3 d1\x00-d3 *", "d1\x00-d3", "found 'd1\\x00-d3', expected a ply, a move number"),
        ("1. e3-c3 \u202ed1-d3 *", "\u202ed1-d3", "found '\\u202ed1-d3', expected a ply"),  # a right-to-left override
        ("1. e3-c3 d1-d3 * \x07x", "\x07x", "found '\\x07x' after the result marker"),
        ("1. e3-c3 z1-z9\x00 *", "z1-z9\x00", "found 'z1-z9\\x00': z1 is not a square of any tablut board"),
    ],
)
def test_a_syntax_error_names_the_control_characters_it_found(movetext, found, said):
    # a NUL byte in a ply was said raw, and showed as found ' c5-c3'; the place's width is the text's
    with pytest.raises(SyntaxProblem) as caught:
        parse_record(f'[Game "tablut"]\n{movetext}')
    assert caught.value.message.startswith(said)
    assert caught.value.text == found


@pytest.mark.parametrize(
    ("movetext", "column", "found", "why"),
    [
        ("1. e3-c3 * *", 12, "'*'", ""),
        ("1. e3-c3 1-0 d1-d3 *", 14, "'d1-d3'", ""),  # a result written in the middle of the game
        ("1. e3-c3 *\n2. d1-d3", 1, "'2.'", ""),
        ("1. e3-c3 * { a closed comment }", 12, "a comment", ""),  # was "this comment is never closed"
        ("1. e3-c3 * ; a comment", 12, "a comment", ""),
        ("1. e3-c3 * j4-j7", 12, "'j4-j7'", ""),  # no ply is expected there, on the board or off it
        ("1. e3-c3 * [x", 12, "'['", ""),
        # new-user 68: a record pasted right after the last one's marker, on its line (its tags then read as none's)
        (
            '1. e3-c3 *[Game "tablut"]',
            11,
            "'['",
            ': a record\'s tags start on a line of their own, so [Game "tablut"] begins none',
        ),
        # h72c: a file's text of two records parsed as one (api.check), its second's tag on a line of its own
        (
            '1. e3-c3 *\n\n[Game "tablut"]',
            1,
            "'['",
            ': [Game "tablut"] begins the next record, and a text of several is read record by record',
        ),
    ],
)
def test_what_follows_the_result_marker_is_said_to(movetext, column, found, why):
    with pytest.raises(SyntaxProblem) as caught:
        parse_record(f'[Game "tablut"]\n{movetext}')
    problem = caught.value
    assert (problem.rule, problem.line, problem.column) == ("syntax", 2 + movetext.count("\n"), column)
    assert problem.message == f"found {found} after the result marker, which ends the record{why}"


def test_a_die_alone_is_said_to_belong_to_a_group_only_in_a_game_that_has_them(monkeypatch):
    """A game of dice without > groups (a plug-in's): `6:` gets the parser's words, not a group's hint; and a roll
    of a face no die shows, parted by a comma (`7,3:`), or a die alone of one (`7:`), none of a roll's mending."""
    from lusoria.validator.laquet import Laquet

    for movetext, found in (
        ("1. 7,3: 5/11 *", "7,3:"),
        ("1. 6,7: 5/11 *", "6,7:"),
        ("1. 7: 5/11 *", "7:"),
        ("1. 6: 5/11 *", "6:"),
    ):
        with pytest.raises(SyntaxProblem) as caught:
            parse_record(f'[Game "laquet"]\n{movetext}')
        said = caught.value.message
        assert said.startswith(f"found '{found}', expected a ply") == (found != "6:"), said
    monkeypatch.setattr(Laquet, "leftover_roll", None)
    with pytest.raises(SyntaxProblem) as caught:
        parse_record('[Game "laquet"]\n1. 6: 5/11 *')
    assert caught.value.message.startswith("found '6:', expected a ply")


@pytest.mark.parametrize(
    ("movetext", "column", "found", "why"),
    [
        ("1. 71: 1/8 *", 4, "71:", "a die shows 1 to 6"),
        ("1. 63: 5/11 1/4 2. 0-3: 2/5 *", 20, "0-3:", "a die shows 1 to 6"),
        (
            "1. 63: *",
            4,
            "63:",
            "a roll is followed by its plays, or -- when none can be played",
        ),
        ("1. 63: 5-11 1/4 *", 4, "63:", "a roll is followed by its plays, or -- when none can be played"),
        *(  # (h73b: a first play written otherwise was said as its roll's fault alone)
            (
                f"1. 21: {play} 17/18 *",
                4,
                "21:",
                f"a roll is followed by its plays, or -- when none can be played, and {play} is none: a play is "
                "written FROM/TO, a point to a point or off (5/11, 19/off)",
            )
            for play in ("18/o", "6//8", "5/1l")
        ),
        *(  # (review73: a result marker, a play the slips join to the next, are no play written otherwise)
            (f"1. 46: {word} 5/9 *", 4, "46:", "a roll is followed by its plays, or -- when none can be played\n")
            for word in ("1/2-1/2", "5/11/")
        ),
        *(  # (h73b: a > group with no play after it was found where a ply was expected, no more)
            (
                f"1. 63: 15/18 >6:{after}",
                14,
                ">6:",
                "the dice of a > group are followed by their plays: the opponent's play of each die left (63: 10/16 >3: 6/9), "
                "or -- when none can be played\n",
            )
            for after in (" *", " { the book is torn } *", "", " 1/2-1/2")
        ),
        ("1. 63: 15/18 >6: 6/o *", 14, ">6:", "the dice of a > group are followed by their plays, and 6/o is none"),
        *(  # (h76b: a bear-off written otherwise, which the slips mend, was said as a roll with no play)
            (
                f"1. 65: {play} 17/off *",
                4,
                "65:",
                f"a roll is followed by its plays, or -- when none can be played, and {play} is none: it is written "
                "16/off\n",
            )
            for play in ("16/0", "16/Off")
        ),
        *(  # (h76b: dice parted otherwise than by a hyphen, and one die alone, got the parser's words alone)
            (f"1. {roll} 5/11 5/8 *", 4, roll, "a roll is written as its two dice and a colon, as 63: or 6-3:\n")
            for roll in ("6,3:", "6–3:")  # (not `6/3:`, a play and a colon as like: test_grammars' snapshot)
        ),
        (
            "1. 6: 5/11 *",
            4,
            "6:",
            "a roll is written as its two dice and a colon (63:, 6-3:); a die left over, in a > group: >6:\n",
        ),
    ],
)
def test_a_roll_no_dice_make_or_with_no_play_says_so(movetext, column, found, why):
    """Laquet's rolls, as a transcriber slips on them (found by review)."""
    with pytest.raises(SyntaxProblem) as caught:
        parse_record(f'[Game "laquet"]\n{movetext}')
    problem = caught.value
    assert (problem.rule, problem.line, problem.column, problem.text) == ("syntax", 2, column, found)
    assert (problem.message + "\n").startswith(f"found '{found}': {why}")


@pytest.mark.parametrize(
    ("movetext", "cut", "said"),
    [
        ("1. 63: 15/18 >6:", True, "found '>6:': the dice of a > group are followed by their plays:"),
        ("1. 31:", True, "found '31:': a roll is followed by its plays"),
        ("1. 63: 15/18 >6: *", False, "found '>6:': the dice of a > group are followed by their plays:"),
        ("1. >6: 6/9 *", False, "found '>6:', expected a ply, a move number"),  # a group where none may stand
    ],
)
def test_a_record_that_ends_at_dice_without_plays_is_cut_short(movetext, cut, said):
    """A roll's or a > group's dice at the record's end (the rest of the source lost), not where its result marker
    follows them; a group where none may stand, its plays after it, is found where a ply was expected."""
    with pytest.raises(SyntaxProblem) as caught:
        parse_record(f'[Game "laquet"]\n{movetext}')
    assert isinstance(caught.value, CutShort) == cut and caught.value.message.startswith(said)


@pytest.mark.parametrize(
    ("movetext", "column", "found", "why"),
    [
        ("1. 31: 4/7 25/off *", 12, "25/off", "25 is not a point of the board (1–24)"),
        (
            "1. 31: 0/3 1/2 *",
            4,
            "31:",
            "a roll is followed by its plays, or -- when none can be played, and 0/3 is none: "
            "0 is not a point of the board (1–24)",
        ),
        (
            "1. 31: 4/7 4/5 31: 6/26(2) *",
            16,
            "31:",
            "a roll is followed by its plays, or -- when none can be played, and 6/26 is none: "
            "26 is not a point of the board (1–24)",
        ),
        (
            "1. 63: 10/16 >3: 6/25 *",
            14,
            ">3:",
            "the dice of a > group are followed by their plays, and 6/25 is none: "
            "25 is not a point of the board (1–24)",
        ),
        (
            "1. 63: 10/16 > 3: 25/off *",
            14,
            ">",
            "the dice of a > group are followed by their plays, and 25/off is none: "
            "25 is not a point of the board (1–24)",
        ),
    ],
)
def test_a_play_off_the_points_names_the_point(movetext, column, found, why):
    """A Laquet point the board lacks, as a transcriber counting the book's way writes it (`25/off`
    was said to be no ply, or no play after its roll, without the point; found by new-user-8), in a
    `>` group too (said to be found where a ply was expected; found by the historian)."""
    with pytest.raises(SyntaxProblem) as caught:
        parse_record(f'[Game "laquet"]\n{movetext}')
    problem = caught.value
    assert (problem.rule, problem.line, problem.column, problem.text) == ("syntax", 2, column, found)
    assert problem.message == f"found '{found}': {why}"


@pytest.mark.parametrize("name", ["Événement", "Source-MS", "White:", "1White", "[Event", "White Elo", "Time Control"])
def test_a_tag_whose_name_is_no_tag_name_stays_in_its_record(name):
    """h80a: `[Événement "Ludi"]` was no tag line to the reader, so movetext began there, and the next tag line
    began a second record, of no Game tag (two records, both stored unparsable): a line that begins `[` and holds a
    quote is a tag line, written well or not, and the parser says what is wrong with it."""
    text = f'[Game "latrunculi"]\n[Variant "petteia"]\n[{name} "Ludi"]\n[Result "*"]\n\n1. a2-a4 a7-a5 *\n'
    [record] = split_records(io.StringIO(text))
    assert record.text == text


@pytest.mark.parametrize(
    "line",
    ["[the king's move]", '[see the "book"]', '[ "as the folio says"]', "[" + " " * 4000, "[Bj\udcf8rn plays on]"],
)
def test_a_movetext_line_that_begins_with_a_bracket_begins_no_record(line):
    """review80: a line that begins `[` and holds a quote after a blank (`[the king's move]`) began a record, and
    `[` then 4,000 blanks took two minutes to split: a tag line's name holds no blank."""
    text = f'[Game "tablut"]\n\n1. e3-c3\n{line}\nd1-d3 *\n'
    [record] = split_records(io.StringIO(text))
    assert record.text == text


@pytest.mark.parametrize(
    ("tag", "hint"),
    [
        ('[White "Sean O"Brien"]', ' (a " inside a value is written \\")'),
        ('[Event "The "Big" Open"]', ' (a " inside a value is written \\")'),
        ('[White "Sean O"Brien"', ' (a " inside a value is written \\")'),  # its ] left out too (it said nothing)
        ('[White "x" [Black "y"]', ""),  # a ] left out before another tag: no " inside
        ('[White: "Sean"]', " (a tag's name is ASCII letters, digits and _, and begins with a letter: not 'White:')"),
        (
            '[Événement "Ludi"]',
            " (a tag's name is ASCII letters, digits and _, and begins with a letter: not 'Événement')",
        ),
        (
            '[Source-MS  "x"]',
            " (a tag's name is ASCII letters, digits and _, and begins with a letter: not 'Source-MS')",
        ),
        ('[White "Sean]', ""),
    ],
)
def test_a_malformed_tag_is_shown_whole_and_a_quote_inside_its_value_gets_its_escape(tag, hint):
    with pytest.raises(SyntaxProblem) as caught:
        parse_record(f'[Game "tablut"]\n{tag}\n1. e3-c3 *')
    problem = caught.value
    assert (problem.rule, problem.line, problem.column) == ("syntax", 2, 1)
    assert problem.message == f'this tag is not written [Name "value"]{hint}: {tag}'


@pytest.mark.parametrize(
    "text, line",
    [
        ('[Event "x"]\n[Game"tablut"]\n1. e3-c3 *', 2),
        ('[Game"tablut"]\n1. e3-c3 *', 1),
        ('[Event "x"]\n[game"tablut"]\n*', 2),
    ],
)
def test_a_game_tag_without_its_blank_is_no_tag_at_its_place(text, line):
    # NOTATION.md writes a tag [Name "value"], as the grammar's TAG does: the header scan reads no game from it
    assert "Game" not in scan_tags(text)
    with pytest.raises(SyntaxProblem) as caught:
        parse_record(text)
    problem, written = caught.value, text.split("\n")[line - 1]
    assert (problem.rule, problem.line, problem.column) == ("syntax", line, 1)
    assert problem.message == f'this tag is not written [Name "value"]: {written}'


def test_an_unknown_game_names_the_known_ones():
    with pytest.raises(SyntaxProblem) as caught:
        parse_record('[Game "go"]\n*')
    assert caught.value.message == f"unknown game 'go' (known: {', '.join(known_games())})"


@pytest.mark.parametrize(
    ("written", "said"),
    [
        ("linnaeus", '[Game "tablut"] [Variant "linnaeus"]'),  # a game's variant
        ("Seed", '[Game "laquet"] [Variant "seed"] or [Game "tablut"] [Variant "seed"]'),  # several games'
        ("saami-tablut-w", '[Game "tablut"] [Variant "aage"] [Rules "first=white"]'),  # a catalogue's entry
        ("Copenhagen Hnefatafl 11x11", '[Game "copenhagen"]'),  # aagenielsen.dk's name
        ("Fetlar", '[Game "copenhagen"] [Variant "fetlar"] or [Game "hnefatafl"] [Variant "opentafl-fetlar-11x11"]'),
    ],
)
def test_a_variant_written_as_the_game_is_said_with_its_tags(written, said):
    # a tafl player writes the variant played in the Game tag: the error says the tags that name it
    with pytest.raises(SyntaxProblem) as caught:
        parse_record(f'[Game "{written}"]\n*')
    problem = caught.value
    assert (problem.rule, problem.line, problem.column) == ("tag", 1, 8)
    assert problem.message.startswith(f"unknown game '{written}' (known: ")
    assert problem.message.endswith(f"); {written} is a variant, not a game: {said}")


@pytest.mark.parametrize(
    ("written", "game"),
    [
        ("Tablut#15", '[Game "hnefatafl"] [Variant "opentafl-tablut-15x15"]'),
        ("saami-tablut", '[Game "tablut"] [Variant "aage"]'),
    ],
)
def test_a_variant_written_as_the_game_is_no_slip_of_a_game_alike(written, game):
    # OpenTafl's Tablut#15 is hnefatafl's 15x15, not tablut: the error does not ask "did you mean tablut?"
    with pytest.raises(SyntaxProblem) as caught:
        parse_record(f'[Game "{written}"]\n*')
    known = ", ".join(known_games())
    assert (
        caught.value.message == f"unknown game '{written}' (known: {known}); {written} is a variant, not a game: {game}"
    )


@pytest.mark.parametrize("written, game", [("tabult", "tablut"), ("tablut ", "tablut"), (" Copenhagen", "copenhagen")])
def test_a_game_written_with_a_slip_is_asked_for_as_before(written, game):
    """Newcomer-53a: `[Game "tablut "]` was said to be a variant (`tablut  is a variant, not a game: [Game
    "hnefatafl"] [Variant "opentafl-tablut-9x9"]…`), `[Game "copenhagen "]` to be written `[Game "copenhagen"]`."""
    with pytest.raises(SyntaxProblem) as caught:
        parse_record(f'[Game "{written}"]\n*')
    assert caught.value.message == f"unknown game '{written}' (known: {', '.join(known_games())}; did you mean {game}?)"
    [said] = replayed(f'[Game "{written}"]\n*').diagnostics
    assert said.suggestions == (game,)


def test_a_variant_written_with_a_blank_about_it_is_asked_for_as_a_slip():
    """It was said to be written otherwise: `linnaeus  is written [Game "tablut"] [Variant "linnaeus"]`."""
    [said] = replayed('[Game "tablut"]\n[Variant "linnaeus "]\n*').diagnostics
    assert said.message.endswith("; did you mean linnaeus?)") and said.suggestions == ("linnaeus",)


def test_header_scan_reads_tags_without_parsing_movetext():
    assert scan_tags('[Game "tablut"]\n[White "A \\"B\\""]\n1. not even movetext') == {
        "Game": "tablut",
        "White": 'A "B"',
    }
    # (h78c) a tag written twice: its first value, as the parser reads it (the second is the one said written twice)
    assert scan_tags('[Game "tablut"]\n[Variant "seed"]\n[Variant "ashton"]\n\n1. e3-c3 *') == {
        "Game": "tablut",
        "Variant": "seed",
    }


def _unescaped(value: str) -> str | None:
    """A tag value's text as NOTATION.md escapes it (a backslash before a quote or a backslash), or
    None where it is no value: a backslash before anything else, a quote or a line end alone."""
    text, rest = [], iter(value)
    for char in rest:
        if char == "\\":
            char = next(rest, "")
            if char not in ('"', "\\"):
                return None
        elif char in '"\r\n':
            return None
        text.append(char)
    return "".join(text)


@given(st.text(alphabet='ab"\\\r\n é', max_size=24))
def test_a_tag_value_is_read_as_its_escapes_say(value):
    """The grammar's TAG_VALUE (unrolled: a run, then each escape with the run after it, three times
    cheaper on 4 MB of escapes than an alternation of the two) read by the header scan, the reader
    and the LALR parser (a comment sends the record there)."""
    text = _unescaped(value)
    for record in (
        f'[Game "tablut"]\n[Event "{value}"]\n1. e3-c3 *',
        f'[Game "tablut"]\n[Event "{value}"]\n{{c}} 1. e3-c3 *',
    ):
        if text is None:
            with pytest.raises(SyntaxProblem):
                parse_record(record)
        else:
            assert parse_record(record).tags["Event"] == text
            assert scan_tags(record)["Event"] == text


@pytest.mark.parametrize("movetext", ["1. e3-c3 *", "{c} 1. e3-c3 *"], ids=["reader", "lalr"])
def test_blanks_inside_a_tag_s_brackets_are_not_its_value_s(movetext):
    """`[ Event "a b"\t ]`: the value read whole by the reader and by the LALR parser (a comment sends
    the record there), the name's place where it is written, and the same of a duplicate."""
    record = parse_record(f'[Game "tablut" ]\n[ \tEvent  "a b"\t ]\n{movetext}')
    assert record.tags == {"Game": "tablut", "Event": "a b"} and record.tag_places["Event"] == (2, 4)
    with pytest.raises(SyntaxProblem) as raised:
        parse_record(f'[Game "tablut"]\n[Event "a"]\n[  Event "b" ]\n{movetext}')
    assert (raised.value.message, raised.value.line, raised.value.column) == (
        'the tag Event appears twice (its first value, "a", is the one read)',
        3,
        4,
    )
    with pytest.raises(SyntaxProblem) as raised:  # the count of them all, at each after the first
        parse_record(f'[Game "tablut"]\n[Event "a"]\n[Event "b"]\n[Event "c"]\n{movetext}')
    said = [(problem.message, problem.line) for problem in (raised.value, *raised.value.later)]
    assert said == [('the tag Event appears 3 times (its first value, "a", is the one read)', line) for line in (3, 4)]


def test_a_record_that_does_not_parse_has_its_tags_scanned_once(monkeypatch):
    """Its game, variant and result are asked of it in turn (`Report`): `validate` scanned a tag value
    of 4 MB of escapes four times. Each caller gets its own copy of the tags."""
    from lusoria.notation import reader
    from lusoria.validator.replay import check

    pattern, scans = reader._tag_pattern(), []
    monkeypatch.setattr(reader, "_tag_pattern", lambda: scans.append(1) or pattern)
    report = check('[Game "tablut"]\n[Variant "seed"]\n[Result "1-0"]\n1. e3-c3 ) *\n')
    assert report.record is None and report.diagnostics[0].rule == "syntax"
    assert (report.game, report.variant, report.result) == ("tablut", "seed", "1-0")
    assert len(scans) == 1
    report.tags["Game"] = "changed"
    assert report.game == "tablut"


def test_decoding_reports_the_byte_offset_and_handles_line_ends():
    assert "".join(decoded_text(io.BytesIO(b"\xef\xbb\xbfa\r\nb\rc\n"), "f")) == "a\nb\nc\n"
    with pytest.raises(InputError, match=r"f: byte 6 \(line 2\)"):
        list(decoded_text(io.BytesIO(b"abcd\nx\xff\n"), "f"))
    assert "".join(decoded_text(io.BytesIO(b"caf\xe9\n"), "f", "latin-1")) == "café\n"


def test_escaped_bytes_are_kept_in_utf8_and_an_undecodable_wide_unit_is_one_escape():
    """A byte UTF-8 does not decode is kept as its lone surrogate (fmt writes it back); a UTF-16 or
    UTF-32 unit that does not decode is one character of its own (it was an error that stopped the
    file), and a file cut inside a unit an error still."""
    assert "".join(decoded_text(io.BytesIO(b"ok\n\xff"), "f", escaped=True)) == "ok\n\udcff"
    wide = "ok\n".encode("utf-16-le") + b"\x80\xdc" + "x".encode("utf-16-le")
    assert "".join(decoded_text(io.BytesIO(wide), "f", "utf-16-le", escaped=True)) == "ok\n\udc10x"
    wide = "ok\n".encode("utf-32-le") + b"\x00\x00\x11\x00"
    assert "".join(decoded_text(io.BytesIO(wide), "f", "utf-32-le", escaped=True)) == "ok\n\udc20"
    with pytest.raises(InputError, match=r"^f: byte 6 \(line 2\): the file ends inside a utf-16-le character$"):
        list(decoded_text(io.BytesIO("ok\n".encode("utf-16-le") + b"\x80"), "f", "utf-16-le", escaped=True))


@pytest.mark.parametrize("chunk", [1 << 20, 8, 3])
def test_a_line_of_max_line_characters_is_read_and_a_longer_one_refused(monkeypatch, chunk):
    """Decoded a piece of `chunk` characters at a time: a line over two pieces or more is measured whole
    (review72: from the start of its last piece, lines up to MAX_LINE + CHUNK got through)."""
    monkeypatch.setattr(sources, "MAX_LINE", 10)
    monkeypatch.setattr(sources, "CHUNK", chunk)
    for text in (b"ok\n" + b"x" * 10, b"x" * 10 + b"\nok\n", b"ok\n" + b"x" * 10 + b"\n" + b"y" * 10):
        assert "".join(decoded_text(io.BytesIO(text), "f")) == text.decode()
    for text, line in (
        (b"ok\n" + b"x" * 11, 2),
        (b"x" * 13 + b"\nok", 1),
        (b"ok\n" + b"x" * 10 + b"\n" + b"y" * 11, 3),
    ):
        read = []
        with pytest.raises(InputError, match=f"^f: line {line} is longer than 10 characters, the most lusoria reads"):
            read.extend(decoded_text(io.BytesIO(text), "f"))
        assert "".join(read).count("\n") == line - 1  # (the lines before it, whole)


@pytest.mark.parametrize("long_line", ["% ", "{ ", ""], ids=["percent-line", "comment", "text"])
def test_the_records_that_end_before_a_line_too_long_are_read_then_it_is_said(monkeypatch, tmp_path, long_line):
    """h72b: a file's last record before a line longer than MAX_LINE, whole and followed by a blank
    line, was neither read nor said (the splitter held it until the next record began), and a CSV
    file's rows above such a line were all lost, with a message that said the rest is not read."""
    from lusoria.formats.sources import read_sources

    monkeypatch.setattr(sources, "MAX_LINE", 1000)
    monkeypatch.setattr(sources, "CHUNK", 256)  # (the line held back over several pieces)
    records = [f'[Game "tablut"]\n[Round "{number}"]\n\n1. e3-c3 *\n' for number in range(5)]
    (tmp_path / "big.lgn").write_text("\n".join(records) + f"\n{long_line}{'x' * 5000}\n\n{records[0]}")
    (tmp_path / "big.csv").write_text("d2-b2 c4-c5,0,0,Ongoing\n" * 4 + "x" * 5000 + "\nd2-b2,0,0,Ongoing\n")
    (tmp_path / "first.lgn").write_text(f"{long_line}{'x' * 5000}\n\n{records[0]}")  # (no record before it)
    cut = '[Game "tablut"]\n[Round "9"]\n\n1. e3-c3 d1-d3\n'  # (review72: a record the line cuts is not read)
    (tmp_path / "cut.lgn").write_text(f"{records[0]}\n{cut}{long_line}{'x' * 5000}\n2. e4-f4 *\n")
    otn = (ROOT / "tests/fixtures/formats/otn/brandubh.otg").read_text().split("\n2. ")  # (a game of one file)
    (tmp_path / "cut.otg").write_text(f"{otn[0]}\n[{'x' * 5000}]\n2. {otn[1]}")
    files = [("big.lgn", 26, 5), ("big.csv", 5, 4), ("first.lgn", 1, 0), ("cut.lgn", 10, 1), ("cut.otg", 8, 0)]
    for name, line, count in files:
        read = []
        with pytest.raises(InputError, match=f"^{tmp_path / name}: line {line} is longer than 1,000 characters"):
            read.extend(read_sources(str(tmp_path / name), tags={"Game": "brandubh"}))
        assert len(read) == count and all(replayed(record).valid for record in read), read
        assert "x" not in "".join(record.text for record in read)
    assert read_sources_last(tmp_path / "big.lgn") == records[4] + "\n"  # (its lines whole, the blank one too)
    wide = f'[Game "tablut"]\n\n1. e3-c3 {{{"a remark " * 70}}} *\n'  # (a line over three pieces, read whole)
    (tmp_path / "wide.lgn").write_text(f"{wide}\n%{'x' * 5000}\n")
    with pytest.raises(InputError, match=" line 5 is longer than 1,000 characters"):
        read = []
        read.extend(read_sources(str(tmp_path / "wide.lgn")))
    assert [record.text for record in read] == [wide + "\n"]
    (tmp_path / "byte.lgn").write_bytes(f"{records[0]}\n%".encode() + b" \xff" + b"x" * 5000 + b"\n")
    with pytest.raises(InputError, match=" line 6 is longer than 1,000 characters"):  # (review72: not said as a
        list(read_sources(str(tmp_path / "byte.lgn")))  # byte after the last record, the rest of the file read)
    from click.testing import CliRunner

    from lusoria.cli import main

    validated = CliRunner().invoke(main, ["validate", "--jobs", "1", str(tmp_path / "big.lgn")])  # (summed up: it
    # was not, the file being one not read whole)
    assert (validated.exit_code, validated.stdout) == (
        2,
        "5 records: 5 valid, 0 invalid (0 errors, 0 warnings); could not read 1 source (each said with why)\n",
    )
    (tmp_path / "dup.lgn").write_text(f"{records[0]}\n{records[0]}\n%{'x' * 5000}\n")
    found = CliRunner().invoke(main, ["duplicates", "--jobs", "1", str(tmp_path / "dup.lgn")])  # (review72: not
    assert (found.exit_code, found.stdout.replace(f"{tmp_path}/", "")) == (  # summed up)
        2,
        "dup.lgn:6: the same game as dup.lgn:1\n1 duplicate, 0 prefixes; could not read 1 source (each said with why)\n",
    )
    for jobs in (["--jobs", "1"], []):  # (review73: records all different, before the line too long, not summed up)
        found = CliRunner().invoke(main, ["duplicates", *jobs, str(tmp_path / "big.lgn")])
        assert (found.exit_code, found.stdout) == (
            2,
            "0 duplicates, 0 prefixes; could not read 1 source (each said with why)\n",
        )
        nothing = CliRunner().invoke(main, ["duplicates", *jobs, str(tmp_path / "first.lgn")])  # (too long at once)
        assert (nothing.exit_code, nothing.stdout) == (2, "")
    searched = CliRunner().invoke(main, ["rules", "--jobs", "1", str(tmp_path / "big.lgn")])
    assert searched.stdout.splitlines()[-1] == "5 records searched; could not read 1 source (each said with why)"
    imported = CliRunner().invoke(
        main, ["import", "--jobs", "1", "--db", str(tmp_path / "a.db"), str(tmp_path / "big.lgn")]
    )
    assert imported.stdout == (
        f"{tmp_path / 'a.db'}: added 5 records (0 invalid, 0 of them unparsable), skipped 0 duplicates; "
        "could not read 1 source (each said with why)\n"
    )


def read_sources_last(path) -> str:
    """The text of the last record read from `path` before its reading stopped."""
    from lusoria.formats.sources import read_sources

    read = []
    with pytest.raises(InputError):
        read.extend(read_sources(str(path)))
    return read[-1].text


@pytest.mark.parametrize("encoding", ["utf-16", "utf-32"])
def test_utf16_and_utf32_without_a_byte_order_mark_name_the_encodings_of_one_byte_order(encoding):
    with pytest.raises(InputError) as raised:
        list(decoded_text(io.BytesIO('[Game "tablut"]\n'.encode(f"{encoding}-le")), "f", encoding))
    said = f"f: byte 0 (line 1): a {encoding} file starts with a byte-order mark, and this one has none"
    assert str(raised.value) == f'{said}; try encoding="{encoding}-le" or encoding="{encoding}-be"'  # a library call's
    assert (raised.value.args[0], raised.value.parameter, raised.value.tries) == (
        said,
        "encoding",
        (f"{encoding}-le", f"{encoding}-be"),
    )


def test_another_codec_that_cannot_decode_is_said_so_not_to_want_a_byte_order_mark():
    with pytest.raises(InputError, match="^f: not valid punycode: "):
        list(decoded_text(io.BytesIO(b'[Game "tablut"]\n'), "f", "punycode"))


def test_a_note_names_its_settings_as_its_caller_does_and_keeps_its_braces():
    """`{Game}` is the setting, by its tag or as the caller (the CLI: `--game`) names it; a note of
    no setting is its message as written, braces and all."""
    note = Note("a.lgn", "{Game} x is not applied to {{braces}}", ("Game",))
    assert (note.said({"Game": "--game"}), str(note)) == (
        "note: --game x is not applied to {braces}",
        "note: Game x is not applied to {braces}",
    )
    assert str(Note("a.lgn", "{Game} as written")) == "note: {Game} as written"


def test_the_writer_puts_tags_in_export_order_and_wraps_lines():
    record = Record(
        {"Result": "1-0", "Annotator": "X", "Game": "Tablut", "White": "W", "Variant": "seed"},
        Line([Ply("e3-c3", nags=[1], comments=["a } brace"]), Ply("d1-d3")] * 20),
        "1-0",
    )
    text = write_record(record)
    tags = [line.split()[0][1:] for line in text.split("\n\n")[0].splitlines()]
    assert tags == ["Game", "Variant", "Event", "Site", "Date", "Round", "White", "Black", "Result", "Annotator"]
    assert '[Game "tablut"]' in text and '[Date "????.??.??"]' in text
    assert all(len(line) < 80 for line in text.splitlines())
    assert "; a } brace\n" in text  # a comment holding } is written as a ; comment


_WRITTEN = 'ab "\\\r\n\t\x0b{};%()[]é\u2028'  # blanks, line breaks, escapes and what lgn's tokens begin with


@given(
    st.lists(st.text(alphabet=_WRITTEN, max_size=12), min_size=8, max_size=8),
    st.lists(st.text(alphabet=_WRITTEN, max_size=12), min_size=4, max_size=4),
)
def test_a_written_record_reads_back_whatever_its_tag_values_and_comments_hold(values, comments):
    """No tag value or comment breaks the text the writer writes: a tag is written on one line (each
    run of line breaks a space), a comment as the reader reads it (its blanks one space, none at its
    ends); the record read back is the one written."""
    names = ["Event", "Site", "Date", "Round", "White", "Black", "Annotator", "Source"]

    def record(tags: list[str], said: list[str]) -> Record:
        variation = Line([Ply("e3-d3", comments=[said[2]])])
        plies = [Ply("e3-c3", comments=[said[1]], variations=[variation]), Ply("d1-d3", comments=[said[3]])]
        return Record({"Game": "tablut", **dict(zip(names, tags)), "Result": "*"}, Line(plies, [said[0]]), "*")

    written = record(values, comments)
    read = record(
        [re.sub(r"[\r\n]+", " ", value) for value in values], [" ".join(comment.split()) for comment in comments]
    )
    assert parse_record(write_record(written)) == read


def test_an_empty_variation_is_not_written():
    """A variation holds a ply (the reader refuses `()`): one with none would be written `e3-c3) (*`."""
    record = Record({"Game": "tablut"}, Line([Ply("e3-c3", variations=[Line([])]), Ply("d1-d3")]), "*")
    assert write_record(record).split("\n\n")[1] == "1. e3-c3 d1-d3 *\n"


@pytest.mark.parametrize(
    "length, movetext",
    [
        (75, f"{{{'x' * 75} y}}\n1. e3-c3 *\n"),  # 79 characters: the line is full
        (76, f"{{{'x' * 76}\ny}} 1. e3-c3 *\n"),  # 80: the last word goes on the next line
    ],
)
def test_the_writer_fills_a_line_up_to_79_characters(length, movetext):
    record = Record({"Game": "tablut"}, Line([Ply("e3-c3")], comments=["x" * length + " y"]), "*")
    assert write_record(record).split("\n\n")[1] == movetext


def test_the_writer_numbers_black_first_and_after_breaks(snapshot):
    record = parse_record('[Game "tablut"]\n1... d1-d3 {c} 2. e3-c3 (2. e3-d3) d9-d8 *')
    assert write_record(record, second=True) == snapshot  # as a game whose first mover is White numbers it


def test_the_writer_numbers_a_ply_that_continues_its_sides_turn_with_the_ply_before():
    """A berserk move (`=`) continues its side's turn: the move number counts on without it."""
    plies = ["a1-a2", "b1-b2", "a2-a3", "a3=a4", "b2-b3", "a4-a5"]
    record = Record({"Game": "hnefatafl"}, Line([Ply(text) for text in plies]), "*")
    movetext = write_record(record, continued=re.compile(r"[a-s]\d+=")).split("\n\n")[1]
    assert movetext == "1. a1-a2 b1-b2 2. a2-a3 a3=a4 b2-b3 3. a4-a5 *\n"
    assert write_record(record).split("\n\n")[1] == "1. a1-a2 b1-b2 2. a2-a3 a3=a4 3. b2-b3 a4-a5 *\n"


def test_the_plies_that_continue_a_turn_in_a_variation_leave_the_main_lines_numbers_as_they_were():
    """h78c: a variation's berserk move counts in its own line; when the variation ends, the main line counts on
    as before it (`Continued.end_line`): kept on, `2... b2-b3` was numbered as the variation's count left it."""
    variation = Line([Ply("a2-a4"), Ply("a4=a5"), Ply("b2-b4")])
    plies = [Ply("a1-a2"), Ply("b1-b2"), Ply("a2-a3", variations=[variation]), Ply("b2-b3"), Ply("a3-a4")]
    record = Record({"Game": "hnefatafl"}, Line(plies), "*")
    movetext = write_record(record, continued=re.compile(r"[a-s]\d+=")).split("\n\n")[1]
    assert movetext == "1. a1-a2 b1-b2 2. a2-a3 (2. a2-a4 a4=a5 b2-b4) 2... b2-b3 3. a3-a4 *\n"


@pytest.mark.parametrize("pad", [0, 1, 8191, 8192, 8193, 100000])
@pytest.mark.parametrize("head", [0, 1, 5])
def test_the_byte_offset_is_exact_deep_in_a_file_among_multibyte_characters(pad, head):
    """Also with `head` bytes read before (standard input's sniffed head; a compression's mark):
    they are not a chunk of their own, which ended inside a character and moved the place."""
    data = ("é" * pad + "\n" + "ok line\n" * 3).encode() + b"x\xff\n"
    with pytest.raises(InputError, match=rf"f: byte {len(data) - 2} \(line 5\)"):
        list(decoded_text(io.BytesIO(data[head:]), "f", read=data[:head]))


@pytest.mark.parametrize("pad", [0, 8189, 8190, 8191, 100000])
@pytest.mark.parametrize("encoding", ["utf-8", "utf-16-le"])
def test_a_file_cut_inside_a_character_is_placed_at_that_character(pad, encoding):
    """The decoder holds the character's first bytes until the end: it was placed at the end."""
    data = ("é" * pad + "\nok\n€").encode(encoding)[:-1]
    place = rf"f: byte {len(data) - (2 if encoding == 'utf-8' else 1)} \(line 3\)"
    with pytest.raises(
        InputError, match=rf"^{place}: the file ends inside a {encoding} character(; try encoding=.*)?$"
    ):
        list(decoded_text(io.BytesIO(data), "f", encoding))


UNDECODABLE = {"utf-8": b"\xff", "utf-16-le": b"\x00\xdc", "utf-16": b"\x00\xdc", "utf-32-be": b"\x00\x11\x00\x00"}


@pytest.mark.parametrize("end", ["\n", "\r\n", "\r"], ids=["LF", "CRLF", "CR"])
@pytest.mark.parametrize("encoding", list(UNDECODABLE))
@pytest.mark.parametrize("pad", [0, 8190, 8191])
def test_the_line_of_an_undecodable_byte_counts_every_line_end(end, encoding, pad):
    """CR line ends were not counted (a file of CRs: line 1), nor UTF-16's and UTF-32's, in which a
    character with a byte 0x0A (Њ, 上) was counted as one; a CRLF split between two chunks is one."""
    data = ("x" * pad + end + "Њ上" + end + "ok" + end).encode(encoding)  # ("utf-16": a mark, little-endian)
    with pytest.raises(InputError, match=rf"^f: byte {len(data)} \(line 4\)"):
        list(decoded_text(io.BytesIO(data + UNDECODABLE[encoding]), "f", encoding))


@pytest.mark.parametrize("encoding, width", [("utf-8", 1), ("utf-16-le", 2)])
def test_a_crlf_split_between_two_chunks_is_one_line_end(encoding, width):
    """Its CR the last character of a chunk read (CHUNK bytes), its LF the first of the next: the
    pads above never reach a chunk's end, so counting it twice went unseen."""
    data = ("x" * (CHUNK // width - 1) + "\r\n" + "ok\r\n").encode(encoding)
    with pytest.raises(InputError, match=rf"^f: byte {len(data)} \(line 3\)"):
        list(decoded_text(io.BytesIO(data + UNDECODABLE[encoding]), "f", encoding))


def test_a_character_begun_in_one_chunk_and_broken_in_the_next_is_placed_where_it_begins():
    """Its first byte the last of a chunk read: the line counts none of the next chunk's line ends."""
    data = b"x\n" + b"x" * (CHUNK - 3) + b"\xe0" + b"x\n" * 3
    tries = 'try encoding="latin-1" or encoding="cp1252"'
    with pytest.raises(InputError, match=rf"^f: byte {CHUNK - 1} \(line 2\) is not valid utf-8; {tries}$"):
        list(decoded_text(io.BytesIO(data), "f"))


def reference_split(text: str) -> list[tuple[str, int]]:
    """The splitting rule, line by line: a record starts at a tag line (a name of no blank, then a quote) after
    movetext, but one in a `{` comment open above it that a `}` closes before any `{`; among the tags, a line that
    begins `[` is no movetext (review80b: `[White Elo "1900"]`)."""
    import re

    tag = re.compile(r'[ \t]*\[[ \t]*[^\s\]"“”„‟«»‘’‚\']+[ \t]*["“”„‟«»‘’‚\']')
    bracket = re.compile(r"[ \t]*\[")
    records, buffer, start, movetext = [], [], 0, False
    lines = text.splitlines(keepends=True)

    def quoted(number: int) -> bool:
        above, below = "".join(buffer), "".join(lines[number - 1 :])
        return above.rfind("{") > above.rfind("}") and "}" in below and "{" not in below[: below.index("}")]

    for number, line in enumerate(lines, 1):
        if tag.match(line) and not (movetext and quoted(number)):
            if movetext:
                records.append(("".join(buffer), start))
                buffer, movetext = [], False
        elif line.strip() and not line.startswith("%"):
            movetext = movetext or not bracket.match(line)
        elif not buffer:
            continue
        if not buffer:
            start = number
        buffer.append(line)
    if buffer:
        records.append(("".join(buffer), start))
    return records


pieces_text = st.lists(
    st.sampled_from(
        [
            '[Game "tablut"]\n',
            '[Event "x"]\n',
            "1. e3-c3 *\n",
            "\n",
            "% note\n",
            "  [not a tag\n",
            '[White Elo "1900"]\n',
            '{ [Event "in a comment"] }\n',
            "{ the folio reads:\n",
            "[White “Ann”]\n",
            '[Black"Bo"]\n',
            '[Event "quoted"] at its top }\n',
            "e3",
            "-c3 ",
            "*",
        ]
    ),
    max_size=30,
).map("".join)


@given(pieces_text, st.lists(st.integers(1, 40), max_size=20))
def test_splitting_does_not_depend_on_how_the_text_arrives(text, cuts):
    expected = reference_split(text)
    chunks, position = [], 0
    for size in cuts:
        chunks.append(text[position : position + size])
        position += size
    chunks.append(text[position:])
    for pieces in ([text], text.splitlines(keepends=True), chunks):
        assert [(r.text, r.line) for r in split_records(pieces)] == expected


@pytest.mark.parametrize("own_folder", [True, False])
def test_the_parser_is_kept_in_the_users_cache_folder_and_nowhere_else(tmp_path, monkeypatch, own_folder):
    """Lark's parser is a pickle: kept in the user's own cache folder, and, when that cannot be made,
    not at all (Lark's `cache=True` keeps it in the system's temporary folder, which anyone writes)."""
    cache = tmp_path / "cache"
    if not own_folder:
        cache.write_text("")  # a file: no folder can be made in it
    shared = tmp_path / "shared"
    shared.mkdir()
    monkeypatch.setenv("XDG_CACHE_HOME", str(cache))
    monkeypatch.setattr(tempfile, "tempdir", str(shared))
    builder_parser.cache_clear()
    try:
        builder_parser("tablut")
    finally:
        builder_parser.cache_clear()
    assert list(shared.iterdir()) == []
    assert (cache / "lusoria" / "tablut.lark").exists() == own_folder


GIVEN = (("Game", "tablut"), ("Variant", "seed"))  # --game tablut --variant seed


def test_tags_given_stand_in_for_those_a_record_with_no_game_tag_lacks_and_never_for_a_records_own():
    """A record with no Game tag reads as the game given, taking the tags given it lacks, its own kept; one
    with a Game tag takes none of them (a Variant given is not its variant)."""
    lacking = parse_record(RecordText('[Variant "Fetlar"]\n\n1. e3-c3 *\n', given=GIVEN))
    assert (lacking.tags["Game"], lacking.tags["Variant"], list(lacking.tags)[0]) == ("tablut", "Fetlar", "Game")
    own = parse_record(RecordText('[Game "tablut"]\n\n1. e3-c3 *\n', given=GIVEN))
    assert own.tags == {"Game": "tablut"}


@pytest.mark.parametrize(
    "tag, said, column",
    [
        ('[game "tablut"]', "tag names are case-sensitive, and 'game' is not Game", 2),
        ('[Gmae "tablut"]', "'Gmae' is not Game", 2),
    ],
)
def test_tags_given_do_not_stand_in_for_a_game_tag_written_with_a_slip(tag, said, column):
    """h78c: a record whose Game tag is a slip (`[game "…"]`) is told so at the slip, the game given or not: read
    as the game given (`--game tablut`), the slip went unsaid, and the words on the case of tag names were lost too."""
    for tags_given in (GIVEN, ()):
        with pytest.raises(SyntaxProblem) as refused:
            parse_record(RecordText(f"{tag}\n\n1. e3-c3 *\n", line=3, given=tags_given))
        problem = refused.value
        assert (problem.message, problem.line, problem.column, problem.rule) == (
            f"the record has no Game tag: {said}",
            3,
            column,
            "tag",
        )


def test_the_tags_that_stood_in_are_written_above_a_record_as_given_and_no_other():
    """`stood_in`: the tags given a record lacked, Game first, with a blank line above movetext alone; a tag
    not given (here Rules, Variant) is not written, nor one the record writes (its Variant), nor any above a record
    with its own Game tag."""
    assert stood_in(RecordText("1. e3-c3 *\n", given=GIVEN)) == '[Game "tablut"]\n[Variant "seed"]\n\n'
    assert stood_in(RecordText('[Variant "Fetlar"]\n\n1. e3-c3 *\n', given=GIVEN)) == '[Game "tablut"]\n'
    assert stood_in(RecordText('[White "Bo"]\n\n1. e3-c3 *\n', given=GIVEN[:1])) == '[Game "tablut"]\n'
    assert stood_in(RecordText('[Game "tablut"]\n\n1. e3-c3 *\n', given=GIVEN)) == ""


@pytest.mark.parametrize(
    ("text", "written"),
    [
        ('[Game "tablut"]\n\n1. e3-c3 x9 0-1  \n', "0-1"),  # (a record that does not parse: blanks after it)
        ("1. e3-c3 {a comment} 1-0\n", "1-0"),
        ("1. e3-c3 1/2-1/2 {after it}\n", "1/2-1/2"),
        ("1. e3-c3 {never closed 1-0\n", None),
        ("1. e3-c3 ; 1-0\n", None),
        ("1. e3-c3\n% 1-0\n", None),
        ("1. e3-c3 x1-0\n", None),
    ],
)
def test_the_result_a_record_wrote_is_its_last_marker_outside_comments_and_escape_lines(text, written):
    """`result_written` (what the page of a record that does not parse shows as its result; session 49's run:
    its `partition("{")[0]` made `[1]`, no result ever, survived the notation's tests)."""
    from lusoria.notation.reader import result_written

    assert result_written(text) == written


@pytest.mark.parametrize(
    "text, hinted", [("games/round-1.lgn", True), ("C:\\club\\SCRAPE.JSON", True), ("hello", False)]
)
def test_a_file_s_name_given_as_a_record_s_text_is_told_how_to_read_the_file(text, hinted):
    """Newcomer-55b: `api.check("mine/piso.lgn")` said only that the text has no tag and no movetext."""
    from lusoria.validator.replay import check

    message = check(text).diagnostics[0].message
    assert message.startswith("not a game record in lgn, which a record's text is read as")
    assert (
        message.endswith("; it is a file's name: lusoria.api.reports or record_at read a file, check its text")
        == hinted
    )
