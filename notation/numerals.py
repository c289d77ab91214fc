"""Move numbers a transcriber wrote in lowercase Roman numerals (`iv.`, `ii.`): read where no square of
the record's board could be meant (capitals, `IV.`: notation/numbers.py `arabic_number`)."""

from __future__ import annotations

import re

from lusoria.grammar import ply_letters
from lusoria.notation.numbers import arabic_number, whole_number
from lusoria.notation.syntax import TAG_BEFORE_NAME, TAG_NAME, TAG_VALUE, unquote
from lusoria.validator.base import OptionError
from lusoria.validator.games import GAMES

_TAG = re.compile(rf"{TAG_BEFORE_NAME}({TAG_NAME})[ \t]*({TAG_VALUE})")  # a tag, several on a line too


def lowercase_numeral(word: str, text: str, game: str) -> str | None:
    """A move number in lowercase Roman numerals (`iv.`) in a record's `text`: the number in digits
    (`4.`), where it can be no square of the record's board cut short (`_no_square`); else None."""
    numeral = arabic_number(word.upper()) if word.islower() else None
    return numeral if numeral and _no_square(text, game, word.rstrip(".")) else None


def _no_square(text: str, game: str, numeral: str) -> bool:
    """Whether a lowercase Roman numeral (`iv`) can be no square of the board the record's tags give its
    game with its rank left out: a letter of it is no file (`v` on any, `i` on one of 8 files; any in a game
    of points), or before its last letter it holds more than the letter a ply of the game names a piece with
    (`ii` on 9x9 and on a Latrunculi board of 10 files, whose plies write no incitus; not `pi` on 9x9, a
    soldier's ply cut short); False where the tags give no rules, and on a board wider than the alphabet,
    whose files include every letter."""
    tags = {name: unquote(value) for name, value in reversed(_TAG.findall(text))}  # (a tag written twice: its first)
    try:
        rules = GAMES[game].from_tags(tags)
        size = rules.board_size()
    except OptionError:
        return False
    files = whole_number(size.split("x")[0], 0, 26) if size else 0
    if files is None:
        return False
    before_a_file = {"", *ply_letters(game).lower()}  # nothing, or a ply's piece letter (`pi`: a soldier's ply)
    return any(ord(letter) - ord("a") >= files for letter in numeral) or numeral[:-1] not in before_a_file
