"""What annotates a ply at the end of a text (a suffix, comments, NAGs) and, in a game of dice, why a
word after them is no part of the ply they end; and a `?` that marks a transcriber's doubt, which
annotates nothing: the parser's messages (notation.lalr) and the slips' fixes (notation.slips) both ask."""

from __future__ import annotations

import re

from lusoria.validator.games import GAMES

DELIMITERS = " \t\r\n(){}[];"
WITHIN_WORD = f"[^{re.escape(DELIMITERS)}]"  # a character that is none of DELIMITERS
SUFFIX = re.compile(r"!!|\?\?|!\?|\?!|!|\?")  # the notation's (grammar/common.lark); a game's own: its ply_tail
# what annotates a ply, ending a text: a suffix on its last word, then comments, NAGs and blanks (`5/9! {c} $1 `)
# (from no blank after a blank: the first of a run of them is the leftmost to match, and the others are not tried again
# each, review82: 50,000 blank lines before a Laquet syntax error, 27 s)
_ANNOTATIONS_ENDING = re.compile(
    rf"(?<![ \t\r\n])(?:(?<={WITHIN_WORD})(?:{SUFFIX.pattern}))?"
    rf"(?:[ \t\r\n]*(?:\{{[^}}]*\}}|;[^\n]*\n|\$[0-9]+))*[ \t\r\n]*\Z"
)


def refused_after_annotations(before: str, found: str, game: str) -> str | None:
    """In a game of dice, why the word `found`, after the text `before` (a ply, and the comments, NAGs or
    suffix that may end it), is no part of that ply, from its roll (`Game.refused_after`: `64: 5/11 5/9 {…} 5/9`,
    `64: 5/11 5/9! $1 5/9`); else None."""
    rules = GAMES.get(game)
    if rules is None or rules.roll is None:  # (before its pattern, which a long run of blanks slows: review82)
        return None
    plies = _ANNOTATIONS_ENDING.sub("", before)
    rolls = list(rules.roll.finditer(plies))
    return rules.refused_after(" ".join(plies[rolls[-1].start() :].split()), found) if rolls else None


_MARKS_AFTER = re.compile(r"[^!?][!?]{2,}\Z")  # two or more marks after a word: an annotation, not a doubt


def doubted(word: str) -> bool:
    """Whether `word` holds a `?` that marks a transcriber's doubt (`128?`, `?e4-e3`, `63?:`, `???`), not
    one of two or more marks after a word, which annotate it mistyped (`e3-c3?!?`, `e3-c3???`)."""
    return "?" in word and not _MARKS_AFTER.search(word)


def undoubted(word: str) -> str | None:
    """A word with a `?` written as a transcriber's mark of doubt (`doubted`) where the notation takes
    none (`128?`, `2.?`, `e2-f2?x`), without it, a bare number with its dot (`128.`); None for a word
    without one, or of nothing else."""
    if not doubted(word) or not (kept := word.replace("?", "")):
        return None
    return f"{kept}." if kept.isdecimal() else kept
