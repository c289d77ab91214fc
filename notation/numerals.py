"""Move numbers a transcriber wrote in lowercase Roman numerals (`iv.`): read where no square of the
record's board could be meant (capitals, `IV.`: notation/numbers.py `arabic_number`)."""

from __future__ import annotations

import re

from lusoria.notation.numbers import arabic_number, whole_number
from lusoria.notation.syntax import TAG_BEFORE_NAME, TAG_NAME, TAG_VALUE, unquote
from lusoria.validator.base import OptionError
from lusoria.validator.games import GAMES

_TAG = re.compile(rf"{TAG_BEFORE_NAME}({TAG_NAME})[ \t]*({TAG_VALUE})")  # a tag, several on a line too


def lowercase_numeral(word: str, text: str, game: str) -> str | None:
    """A move number in lowercase Roman numerals (`iv.`) in a record's `text`: the number in digits
    (`4.`), where a letter of it is no file of the record's board (`_off_the_files`); else None."""
    numeral = arabic_number(word.upper()) if word.islower() else None
    return numeral if numeral and _off_the_files(text, game, word) else None


def _off_the_files(text: str, game: str, numeral: str) -> bool:
    """Whether a lowercase Roman numeral (`iv.`) holds a letter that is no file of the board the
    record's tags give its game (`v` on any, `i` on one of 8 files; any in a game of points), so that
    it is no square's file with its rank left out; False where the tags give no rules, and on a board
    wider than the alphabet, whose files include every letter."""
    tags = {name: unquote(value) for name, value in reversed(_TAG.findall(text))}  # (a tag written twice: its first)
    try:
        size = GAMES[game].from_tags(tags).board_size()
    except OptionError:
        return False
    files = whole_number(size.split("x")[0], 0, 26) if size else 0
    return files is not None and any(ord(letter) - ord("a") >= files for letter in numeral.rstrip("."))
