"""The bounded JSON reader (notation/json_input.py) of the aagenielsen.dk files and the language
server's messages: integers kept whole and signed, up to MAX_INTEGER either side of 0."""

import json

import pytest

from lusoria.notation.json_input import MAX_INTEGER, loads, starts_as_json, too_deep


def test_integers_read_whole_and_signed_up_to_the_bound():
    assert loads(f'[0, 7, -7, {MAX_INTEGER}, -{MAX_INTEGER}, 2.5, {{"id": -1}}]') == [
        0,
        7,
        -7,
        MAX_INTEGER,
        -MAX_INTEGER,
        2.5,
        {"id": -1},
    ]


@pytest.mark.parametrize("written", [str(MAX_INTEGER + 1), f"-{MAX_INTEGER + 1}"])
def test_an_integer_past_the_bound_is_refused(written):
    with pytest.raises(ValueError, match=f"^a number of {len(written)} characters; the largest allowed is 9,223,"):
        loads(f"[{written}]")


def test_nesting_past_the_bound_is_a_json_error_at_its_place():
    with pytest.raises(json.JSONDecodeError, match=r"nested deeper than 64: line 1 column 65 \(char 64\)"):
        loads("[" * 65 + "]" * 65)


def test_nesting_is_measured_past_the_arrays_that_closed_before():
    """`[[], [[…` counts the brackets that closed: the second array is as deep as the first was."""
    text = "[[], " + "[" * 64 + "]" * 65
    with pytest.raises(json.JSONDecodeError, match=r"nested deeper than 64: line 1 column 69 \(char 68\)"):
        loads(text)
    assert loads("[[], " + "[" * 63 + "]" * 64)[0] == []  # 64 deep: within the bound


def test_the_bound_is_sqlites_largest_integer_read_whole_and_the_next_refused_naming_it():
    """h78c: MAX_INTEGER one less (2**63 - 2) passed the tests above, which write the bound as it is: a
    JSON-RPC id or a stored rowid of 2**63 - 1, the largest SQLite keeps, would have been refused."""
    assert loads("[9223372036854775807, -9223372036854775807]") == [2**63 - 1, -(2**63 - 1)]
    with pytest.raises(ValueError) as refused:
        loads("[9223372036854775808]")
    assert str(refused.value) == "a number of 19 characters; the largest allowed is 9,223,372,036,854,775,807"


def test_brackets_after_the_value_has_ended_are_not_counted_into_its_depth():
    """h78c: the depth was measured on past the end of the value (`depth < 0`): a file of aagenielsen.dk games
    on one line (`[{…}, {…}]`), whose window for a game holds the games after it, said a game nested too deep
    where a later one was, and its own valid game was lost with it."""
    assert too_deep('{"Moves": []}, {"Moves": ' + "[" * 70 + "]" * 70 + "}") is None
    assert too_deep('{"Moves": []} ' + "[" * 70) is None
    with pytest.raises(json.JSONDecodeError, match=r"^Extra data: line 1 column 4 \(char 3\)"):
        loads("[1]" + "[" * 70)  # (not said to be nested deeper than 64: the value ended at its `]`)


def test_a_string_ending_in_an_escaped_backslash_hides_no_bracket_after_it():
    """h83a: a string is skipped whole, its escapes with it: `"\\"` ends at its second quote, and the arrays after
    it are counted (a string read as ending at its backslash took the closing quote for an opening one, and
    the brackets after it for its text)."""
    text = '["\\\\", ' + "[" * 64 + "]" * 65
    with pytest.raises(json.JSONDecodeError, match=r"nested deeper than 64: line 1 column 71 \(char 70\)"):
        loads(text)
    assert loads('["\\\\", "[\\"[", ' + "[" * 63 + "]" * 64)[:2] == ["\\", '["[']  # 64 deep, brackets in strings


def test_a_string_never_closed_is_said_as_the_decoder_says_it_not_as_nested_too_deep():
    """h83a: a string never closed runs to the end of the text, brackets and all: the decoder says it is
    unterminated (its brackets were counted as arrays opened, said nested deeper than 64)."""
    with pytest.raises(json.JSONDecodeError, match=r"^Unterminated string starting at: line 1 column 2 \(char 1\)"):
        loads('["' + "[" * 70)


@pytest.mark.parametrize(
    "text, json_",
    [
        ("{}", True),  # an empty object
        (" { }\n", True),
        ("2.5", True),  # a number alone, with a fraction
        ("-0.5e3", True),
        ("12. e3-c3", False),  # a move number, its ply
        ("{a comment}", False),
        ('[true "x"]', False),  # a tag named true
    ],
)
def test_a_text_starts_as_json_by_its_first_characters_as_no_lgn_record_does(text, json_):
    """h83a: `starts_as_json` of an empty object and of a number with a fraction, which nothing tested."""
    assert starts_as_json(text) is json_
