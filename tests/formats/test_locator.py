"""The readers' line index (`Locator`, formats/common.py): the offsets the lines start at, found by
the regular-expression engine, not a Python loop over every character (about 0.2 s of CPU a 10 MB
file), place every offset as counting the line ends before it does."""

from hypothesis import given, settings
from hypothesis import strategies as st

from lusoria.formats.common import Locator


class Unwalkable(str):
    """A text that fails when Python code walks over its characters."""

    def __iter__(self):
        raise AssertionError("the line index walked over the characters")


def test_the_line_starts_are_found_without_walking_over_the_characters():
    assert Locator(Unwalkable("e2-c2\n\r\nc2-e2\n")).starts == [0, 6, 8, 14]  # a CR is of the line it is in


@settings(max_examples=200, deadline=None, derandomize=True)
@given(st.text(alphabet="a\n\r\u2028é", max_size=40))
def test_every_offset_is_at_the_line_and_column_its_line_ends_before_it_say(text):
    locator = Locator(text)
    for offset in range(len(text) + 1):
        line_start = text.rfind("\n", 0, offset) + 1
        assert locator.where(offset) == (text.count("\n", 0, offset) + 1, offset - line_start + 1), offset
    lines = text.split("\n")
    for first in range(1, len(lines) + 1):
        for last in range(first, len(lines) + 1):
            assert locator.lines(first, last) == "\n".join(lines[first - 1 : last]) + (
                "\n" if last < len(lines) else ""
            )
