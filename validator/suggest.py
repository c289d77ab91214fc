"""Suggestions for an illegal ply: the legal plies closest to what was written; and for a tag
value that is none of the values it may take (a game, a variant, a rules key…): those most
like it.

The distance (`Game.distance`; games on squares: validator/grid.py) adds up what differs
between the written ply and a legal one (docs/slips.md, "Did you mean …?"); a legal ply is
*close* when the distance is at most CLOSE, and at most three are suggested, nearest first.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from difflib import SequenceMatcher
from functools import lru_cache
from os.path import commonprefix
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # (base reads `alike` for its messages)
    from lusoria.validator.base import Game, Position

CLOSE = 2
LIMIT = 3
ALIKE = 0.6  # how alike (`similarity`) a known value must be to what was written to be suggested
STARTS_ALIKE = 0.75  # how much of what was written a known value's start must be to be suggested too


class Name(str):
    """A known value (a variant's name) with the other forms of it that people write, which are no
    slip of it to `alike` (a Latin plural: `Name("dux", "duces")`): `alike` suggests it for them."""

    forms: tuple[str, ...]

    def __new__(cls, name: str, *forms: str) -> Name:
        made = super().__new__(cls, name)
        made.forms = tuple(form.lower() for form in forms)
        return made


def similarity(written: str, legal: str) -> float:
    """How alike two texts are (0 to 1): breaks ties between equally near plies."""
    return SequenceMatcher(None, written, legal).ratio()


@lru_cache(maxsize=64)  # a line of variations repeats one illegal ply in one position: found once
def _close(rules: Game, position: Position, written: str) -> tuple[tuple[int, str], ...]:
    near = [
        (cost, legal)
        for legal in rules.candidates(position, written)
        if (cost := rules.distance(written, legal)) <= CLOSE
    ]
    return tuple(sorted(near, key=lambda pair: (pair[0], -rules.likeness(written, pair[1]), pair[1])))


def suggestions(rules: Game, position: Position, written: str) -> list[str]:
    """Up to three close legal plies, nearest first (ties: the most alike text first)."""
    return [legal for _, legal in _close(rules, position, written)[:LIMIT]]


def nearest_plies(rules: Game, position: Position, written: str) -> list[str]:
    """The close legal plies nearest `written`, all as near (in the order of `suggestions`): none, one, or a tie."""
    close = _close(rules, position, written)
    return [legal for cost, legal in close if cost == close[0][0]]


def alike(written: str, known: Iterable[str]) -> list[str]:
    """Up to three of the `known` values like `written` (case aside): what a value typed by hand may
    have meant. First those with at least ALIKE in common (`similarity`), the most alike first; then,
    in the order `known` gives them (a catalogue's main variant before its others), those that start
    with two letters or more that make at least STARTS_ALIKE of what was written: the start of a long
    name (`cop`, `copenhagen`; `tyrs`, `tyr-9x9`: 3 of 4). Measured against what was written, not
    the shorter text, so that a short value that starts a longer word is not alike (`yesterday`,
    `yes`; `tax`, `tablut`: 2 of 3). Before them all, a `Name` that what was written is a form of
    (`duces`: `dux`)."""
    written = written.lower()
    values = list(known)
    formed = [value for value in values if isinstance(value, Name) and written in value.forms]
    scored = sorted((-score, value) for value in values if (score := _similarity_of_alike(written, value.lower())))
    similar = [value for score, value in scored if value not in formed]
    starting = [value for value in values if value not in formed + similar and _starts_alike(written, value.lower())]
    return (formed + similar + starting)[:LIMIT]


def _similarity_of_alike(written: str, value: str) -> float:
    """`similarity` where it is at least ALIKE, else 0 (the letters the two share, found first, bound it
    from above as difflib's `quick_ratio` does: a catalogue's hundreds of names cost a few)."""
    shared = sum((Counter(written) & Counter(value)).values())
    if 2.0 * shared < ALIKE * (len(written) + len(value)):
        return 0.0
    score = similarity(written, value)
    return score if score >= ALIKE else 0.0


def did_you_mean(like: Iterable[str]) -> str:
    """The one phrase of what a value written by hand may have meant: `did you mean White or Black?`;
    "" of no value."""
    like = list(like)
    return f"did you mean {' or '.join(like)}?" if like else ""


def meant(like: Iterable[str], inside: bool = False) -> str:
    """What a message adds of the values `like` what was written (`did_you_mean`): ` (did you mean
    White?)` after it, or `; did you mean White?` inside its parentheses (`known: …`); "" of none."""
    said = did_you_mean(like)
    return "" if not said else f"; {said}" if inside else f" ({said})"


def meant_among(written: str, known: Iterable[str]) -> str:
    """`meant` of the `known` values like `written` (`alike`): ` (did you mean White?)`, or nothing
    when none is."""
    return meant(alike(written, known))


def _starts_alike(written: str, value: str) -> bool:
    start = len(commonprefix([written, value]))
    return start >= 2 and start >= STARTS_ALIKE * len(written)
