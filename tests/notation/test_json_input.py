"""The bounded JSON reader (notation/json_input.py) of the aagenielsen.dk files and the language
server's messages: integers kept whole and signed, up to MAX_INTEGER either side of 0."""

import json

import pytest

from lusoria.notation.json_input import MAX_INTEGER, loads


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
