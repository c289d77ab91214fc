"""Whole numbers read from input text (records, tags, position strings, options, other
formats, JSON, the language server's messages): ASCII digits only, and bounded before they
are converted, so that no number written in the input can cost memory, time or a traceback
(docs/robustness.md, "Bounds"). This is the one place that calls `int()` on text
(tests/system/test_limits.py checks). Also the move numbers a manuscript writes in Roman numerals."""
# lusoria: compiled with mypyc

from __future__ import annotations

import re

from lusoria.errors import Refused
from lusoria.words import out_of_bounds

_ROMAN_NUMBER = re.compile(  # a move number in Roman numerals, as a manuscript writes it (IV or IIII, XC or LXXXX)
    r"((?=[IVXLC])C{0,4}(?:XC|XL|L?X{0,4})(?:IX|IV|V?I{0,4}))(\.(?:\.\.)?)"
)
_ROMAN_DIGITS = {"I": 1, "V": 5, "X": 10, "L": 50, "C": 100}


def whole_number(text: str, low: int, high: int) -> int | None:
    """`text` as a whole number when it is written in ASCII digits and lies from `low` to
    `high`; None otherwise. A number with more digits than `high` is never converted."""
    if not (text.isascii() and text.isdigit()):
        return None
    digits = text.lstrip("0") or "0"
    if len(digits) > len(str(high)):
        return None
    value = int(digits)
    return value if low <= value <= high else None


def checked_number(text: str, low: int, high: int) -> int:
    """`whole_number` of text that a pattern has already found to be such a number (a
    square's rank, a die, a date's year): ValueError if it is not one."""
    value = whole_number(text, low, high)
    if value is None:
        raise Refused(out_of_bounds(text, low, high))
    return value


def arabic_number(word: str) -> str | None:
    """A move number written in Roman numerals (`IV.`, `IIII.`, `XIV...`), in digits (`4.`, `14...`);
    None for any other word."""
    roman = _ROMAN_NUMBER.fullmatch(word)
    return f"{_roman_value(roman[1])}{roman[2]}" if roman else None


def _roman_value(numeral: str) -> int:
    """The number a Roman numeral writes, subtractive (`IV`) or not (`IIII`, as manuscripts have it)."""
    values = [_ROMAN_DIGITS[digit] for digit in numeral]
    return sum(-value if value < after else value for value, after in zip(values, values[1:] + [0]))
