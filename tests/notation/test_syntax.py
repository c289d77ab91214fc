"""notation/syntax.py: a quoted tag value's escapes undone (`unquote`), by str.replace or, where the
text holds a NUL (which stands for an escaped backslash there), by a substitution; a pattern of line
starts (`LineStart`) found as re.M finds it."""

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from lusoria.grammar import grammar_text
from lusoria.notation import reader
from lusoria.notation.lalr import builder_parser, terminal_patterns
from lusoria.notation.syntax import TAG_NAME, TAG_VALUE, LineStart, offset_of, row_column, tag_parts, unquote
from lusoria.validator.games import any_game


@pytest.mark.parametrize(
    "quoted, text",
    [
        ('"plain"', "plain"),
        ('""', ""),
        (r'"say \"hi\""', 'say "hi"'),
        (r'"a\\b"', "a\\b"),
        (r'"\\\""', '\\"'),  # an escaped backslash, then an escaped quote
        (r'"\\\\"', "\\\\"),
        ('"nul\0 \\\\ and \\""', 'nul\0 \\ and "'),  # a NUL in the value: the substitution
    ],
)
def test_unquote_undoes_each_escape_once(quoted, text):
    assert unquote(quoted) == text


def test_unquote_reads_megabytes_of_escapes():
    # 2 Mi escaped quotes: one substitution per escape took seconds (tests/system/test_limits.py)
    assert unquote('"' + '\\"' * (2 << 20) + '"') == '"' * (2 << 20)


def test_the_tag_syntax_without_a_grammar_is_the_grammars():
    # splitting a stream and the editor read tags with TAG_NAME and TAG_VALUE, not with the grammar
    grammar = grammar_text(any_game())
    assert f"\nTAG_NAME: /{TAG_NAME}/\n" in grammar and f"\nTAG_VALUE: /{TAG_VALUE}/\n" in grammar


@pytest.mark.parametrize(
    "tag", ['[Game "x"]', '[ Game\t"x" ]', '[Game"x"]', '[Game "x"', '[Ga me "x"]', '[Game "a\\"b"]', '[1Game "x"]']
)
def test_a_tag_read_without_the_parser_is_one_the_grammar_reads(tag):
    grammar = builder_parser(any_game())
    read = re.fullmatch(grammar.get_terminal("TAG").pattern.to_regexp(), tag)
    parts = re.fullmatch(tag_parts(terminal_patterns(any_game(), grammar)), tag)
    assert (parts is None) == (read is None)


@pytest.mark.parametrize("at, place", [(0, (1, 1)), (2, (1, 3)), (3, (2, 1)), (4, (3, 1)), (6, (3, 3))])
def test_a_place_and_an_offset_are_one_another(at, place):
    text = "ab\n\ncd"
    assert row_column(text, at) == place and row_column(text, at, offset=4) == (place[0] + 4, place[1])
    assert offset_of(text.split("\n"), *place) == at


LINE_STARTS = [
    reader._LINE_START,
    reader._NEXT_TAG,
    reader._TAG_START,
    reader._MOVETEXT,
    reader._MOVETEXT_BEGINS,
    reader._QUOTED,
    reader._GAME_TAG,
]
PIECES = ["\n", "\n", " ", "\t", "[", "]", '"', "Game", "Event", "x", "%", ">", "1.", "e3-c3", "{c}", "*", "\r"]


def spans(found: re.Match[str] | None) -> tuple | None:
    return None if found is None else (found.span(), found.groups())


@given(
    st.sampled_from(LINE_STARTS),
    st.lists(st.sampled_from(PIECES), max_size=30).map("".join),
    st.integers(0, 40),
    st.integers(0, 40),
)
def test_a_pattern_of_line_starts_is_found_where_re_m_finds_it(line_start, text, pos, end):
    """The reader's line-start patterns (`^` under re.M), from any position, up to any end."""
    plain = re.compile(line_start.pattern, re.M)
    assert spans(line_start.search(text, pos, end)) == spans(plain.search(text, pos, end))
    assert spans(line_start.match(text, pos, end)) == spans(plain.match(text, pos, end))
    assert [spans(found) for found in line_start.finditer(text)] == [spans(found) for found in plain.finditer(text)]


def test_a_line_start_past_a_line_of_two_megabytes_is_found():
    text = "[Event " + "x" * (2 << 20) + '\n[Game "tablut"]\n'
    found = LineStart(r"^\[Game")
    first = text.index("\n[Game") + 1
    assert found.search(text).start() == first == 2_097_160
    assert [match.start() for match in found.finditer(text * 2)] == [first, len(text) + first]


def test_a_line_start_ends_its_match_by_the_end_given():
    more = LineStart("^x+")  # (greedy: it would run on past `end`)
    assert more.match("xxxx", 0, 2).span() == (0, 2)
    assert more.search("a\nxxxx", 0, 4).span() == (2, 4)
    assert more.search("a\nxxxx", 0, 2) is None
