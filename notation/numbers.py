"""Whole numbers read from input text (records, tags, position strings, options, other
formats, JSON, the language server's messages): ASCII digits only, and bounded before they
are converted, so that no number written in the input can cost memory, time or a traceback
(docs/robustness.md, "Bounds"). This is the one place that calls `int()` on text
(tests/system/test_limits.py checks)."""
# lusoria: compiled with mypyc

from __future__ import annotations

from lusoria.words import out_of_bounds


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
        raise ValueError(out_of_bounds(text, low, high))
    return value
