"""Common transcription slips behind a syntax error, and what was meant (docs/slips.md): `e3c3` (no
hyphen), `e3 - c3` or `e3 c3` (blanks about it or for it), `e3xc3` (a chess-style capture), `d5xc5xd4` (each capture
after its x), `e3–c3` (a word processor's dash), `e4-e3×d3` (a capture's x written ×, X or :), `ke5-e4` (a lowercase piece letter), `e3-c3 !?`,
`c1-c5 xb5` or `b2-b3 ~d6` (a detached suffix, capture list or removal), `~a1 g1-g2` (a removal
before its move), `64: 5/11 {…} 5/9`, `64: 5/11! 5/9`, `54: -- 5. >54: 1/5 4/9` or `64: {…} 5/11 5/9` (a
comment, a NAG, a suffix or a move number that parts a ply), `1..` or
`1…` (a move number's dots), `IV.` or `iv.` (a move number in Roman numerals), `5/11 5/9` (a Laquet ply's roll left out), `1 / 4` (a play's slash
with blanks about it), `½-½` or `1:0` (a result in another convention), `---` or `-- --` (a
pass), `[White "Jens Holm"` (a tag without its `]`). Every fix is checked against the game's grammar before it is offered. And the tag a tag of
another name may be a slip for (`tag_meant`: `[Evnet "…"]`)."""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from typing import NamedTuple

from lusoria.grammar import ply_letters
from lusoria.notation.annotations import DELIMITERS, SUFFIX, WITHIN_WORD, refused_after_annotations, undoubted
from lusoria.notation.numbers import arabic_number
from lusoria.notation.numerals import lowercase_numeral
from lusoria.notation.syntax import (
    BLANK,
    DASHES,
    MISNAMED_TAG,
    TAG_NAME,
    TAG_VALUE,
    WRAPPED_TAG,
    SyntaxProblem,
    dots_apart,
    hyphened,
    offset_of,
    unquote,
)
from lusoria.notation.writer import TAG_NAMES, quote
from lusoria.validator.games import GAMES

RESULTS = ("1-0", "0-1", "1/2-1/2", "*")  # the result markers (grammar/common.lark, RESULT)
_RESULTS = {
    "½-½": "1/2-1/2",
    "1/2": "1/2-1/2",
    "½": "1/2-1/2",
    "=": "1/2-1/2",
    "0.5-0.5": "1/2-1/2",
    "1:0": "1-0",
    "0:1": "0-1",
    "½:½": "1/2-1/2",
    "0-0": "1/2-1/2 *",
}  # 0-0: a draw, or unfinished
_RESULT = re.compile(r"1-0|0-1|1/2-1/2|\*")  # a result, once its long dash is a hyphen
_NUMBER = re.compile(r"(\d+)(\.\.|\.{4,}|…|\.…|)(.*)", re.S)
_LONGEST = 64  # a slip is a word as a hand writes it: a longer one is not mended
_WORD = re.compile(WITHIN_WORD + "+")  # a word between DELIMITERS
_MARKED_PLY = re.compile(rf"(?<!{WITHIN_WORD})({WITHIN_WORD}+)\*[ \t\r\n]*\Z")  # a word with a `*` on it,
# and blanks after it: `5/11* `
_STOP = re.compile(r"[0-9]+\.+|1-0|0-1|1/2-1/2|\*|>.*")  # what ends a ply's words: a move number, a result, a > group
_AFTER_NUMBER = re.compile(r"(?:\A|[ \t\r\n])[0-9]+\.+[ \t\r\n]*\Z")  # what ends in a move number: `1. `, `1... `
_PLAY = re.compile(r"[0-9]{1,2}(?:/(?:[0-9]{1,2}|off))+(?:\([2-9]\))?")  # a play of a game of dice: 5/11, 14/off
_REPEAT = re.compile(r"\([2-9]\)")  # a play's repeat, after it: 3/6(2)
# what may part a ply, and the blanks after it, ending a text: a comment as the grammar reads it (up
# to its first }), a ; comment, NAGs, a suffix written straight after the ply's first part, or a
# move number (before a Laquet > group, whose plies are the opponent's)
_PARTING = re.compile(
    r"(?:\{(?P<comment>[^}]*)\}|;(?P<line>[^}\n]*)\n|(?P<nags>\$\d+(?:[ \t\r\n]+\$\d+)*)"
    rf"|(?<={WITHIN_WORD})(?P<suffix>{SUFFIX.pattern})|(?<!{WITHIN_WORD})[0-9]+\.+)[ \t\r\n]*\Z"
)
# blanks, a comment (a `;` one to its line's end) and the blanks after it
_COMMENT_AFTER = re.compile(r"[ \t\r\n]*(?:\{[^}]*\}|;[^}\n]*\n)[ \t\r\n]*")
_PASS_REPEATED = re.compile(r"--(?:[ \t]*-+)+\Z")  # a pass written `---`, or once per die (`-- --`)
_FOLLOWING_WORD = re.compile(rf"[ \t]+({_WORD.pattern})")  # blanks, then a word
# a ply of squares written with blanks about its hyphens or carets, or a line break after one: `e3 - c3`,
# `c3 ^ c5 ^ e5`, `e4 -e3xd3`, `e4-`⏎`e3`
_SPACED_PLY = re.compile(
    rf"[A-Za-z]?[a-z][0-9]{{1,2}}(?:[ \t]*[-^{DASHES}][ \t]*\n?[ \t]*[a-z][0-9]{{1,2}})+(?:{_WORD.pattern})?"
)
_UNCLOSED_TAG = re.compile(
    rf"\[{BLANK}*({TAG_NAME}){BLANK}+({TAG_VALUE})(?={BLANK}*(?:\{{[^}}\n]*\}}{BLANK}*)*(?:;.*)?$|{BLANK}*\[)", re.M
)  # its line ends after its value, or after comments, or another tag follows it on its line
OTHER_QUOTES = "“”„‟«»‘’‚'"  # what a word processor or a hand quotes with, for a tag's `"`
_MISQUOTED_TAG = re.compile(
    rf'\[{BLANK}*({TAG_NAME}){BLANK}*[{OTHER_QUOTES}"]?([^\]\n"\\{OTHER_QUOTES}]*?)[{OTHER_QUOTES}"]?{BLANK}*\]'
)  # `[White “Alfonso”]`, `[Game laquet]`, `[Game"laquet"]`: its value, quoted otherwise or not at all
_BLANK_PLY = re.compile(rf"[A-Za-z]?[a-z][0-9]{{1,2}}[ \t]+[a-z][0-9]{{1,2}}(?:{_WORD.pattern})?")  # `e3 c3`: no hyphen


class Fix(NamedTuple):
    """Replace text[start:end] of a record's text by `text`."""

    start: int
    end: int
    text: str


class Fallback(Fix):
    """A reading offered only where the rules refuse the one before it and accept this one (`Game.other_reading`;
    validator/replay.py, `_reading_refused`)."""

    __slots__ = ()


def slip_fixes(text: str, line: int, column: int, game: str) -> list[Fix]:
    """The fixes for the slip at a syntax error (`line`, `column`: 1-based, within `text`)."""
    lines = text.split("\n")
    if not 0 < line <= len(lines) or not 0 < column <= len(lines[line - 1]) + 1:
        return []  # (a place outside the text)
    position = offset_of(lines, line, column)
    if mended := mended_tag(text, position, game):
        return mended
    if game not in GAMES:
        return []
    if (apart := dots_apart(text, position)) and _reads_past(text, fix := Fix(*apart.span(), f"{apart[1]}..."), game):
        return [fix]  # (`1. ...`, `1 ...`: 1...)
    start = position
    while start > 0 and text[start - 1] not in DELIMITERS and position - start <= _LONGEST:
        start -= 1
    end = position
    while end < len(text) and text[end] not in DELIMITERS and end - start <= _LONGEST:
        end += 1
    word = text[start:end]
    if not word or len(word) > _LONGEST:
        return []
    marked = _marked_result(text, start, game)
    if marked:
        return marked
    tail = GAMES[game].ply_tail
    if SUFFIX.fullmatch(word) or tail and tail.fullmatch(word):
        parting = _parting(text, start) if start == position else None  # (`e4-e3 {…} xd3`: e4-e3xd3 {…})
        fixes = _attached(text, parting[0], end, word + parting[1]) if parting else []
        fixes += _attached(text, start, end, word)
        fixes = [fix for fix in fixes if _reads_past(text, fix, game)]
        return fixes or [fix for fix in _removal_first(text, start, end, word) if _reads_past(text, fix, game)]
    elif word in _RESULTS:
        fixes = [Fix(start, end, meant) for meant in results_meant(word)]
    elif word.isdecimal():  # a move number without its dot, or a ply (a Laquet roll without its colon, or
        # with blanks in it): what reads furthest
        fixes = [Fix(start, end, meant) for meant in [*_plies(word, game)[:-1], f"{word}."]]
        fixes += _spaced(text, start, game) + _spaced_turn(text, start, game)
        # (how far each reads in the text as written: `1 / 4, 2/3` read as 1/4 reads past `1.`, each cut at a comma)
        reached = {fix: _read_to(text, fix, game) - len(fix.text) + fix.end - fix.start for fix in fixes}
        furthest = max(reached.values())
        return [fix for fix in fixes if reached[fix] == furthest >= fix.end]  # (`_reads_past`)
    elif numeral := lowercase_numeral(word, text, game):
        fixes = [Fix(start, end, numeral)]  # (`iv.`: 4.)
    else:  # the first that reads on: a pass with its dashes repeated, or the most mended reading (in a game of
        # dice, of the roll and its plays)
        repeated = _PASS_REPEATED.search(text, 0, end)
        passes = [Fix(repeated.start(), end, "--")] if repeated else []
        rules = GAMES[game]
        dice = any(
            written and written.fullmatch(word) for written in (rules.roll, rules.leftover_roll, rules.unread_roll)
        )
        unrolled = rules.roll is not None and (  # a play where a ply begins (`5/11`, `5-11`): its roll left out
            _PLAY.fullmatch(word) or _PLAY.fullmatch(word.replace("-", "/")) and not rules.roll.fullmatch(word + ":")
        )
        end = _ply_end(text, end, game) if dice or unrolled else end
        word = re.sub(r"[ \t\r]*\n\s*", " ", text[start:end])  # (a ply over two lines: `31:`⏎`4-7 4-5`, joined)
        fixes = [  # (`66: >6: 3/9 9/15`; `66: 7/13 10/26`)
            Fix(*turn) for turn in rules.reordered_plies(text, position) + rules.misread_plies(text, position)
        ]
        fixes += [*_spaced(text, start, game), *passes]
        fixes += [Fix(start, end, meant) for meant in _meant(word, game) if meant != word]
        fixes += _ply_joined(_BLANK_PLY, text, start, game)  # after them: `a1 b2` in a game of placements is `@a1`
        if start == position and not refused_after_annotations(text[:start], next(iter(word.split()), ""), game):
            # (not at a record's end, after its last word: what parts it is no slip there; nor after a whole ply)
            fixes += _comment_moved(text, start, _ply_end(text, end, game) if rules.roll else end)
        fixes += _comment_after_dice(text, start, end, game) if dice else []
        fixes += [Fix(start, end, meant)] if (meant := undoubted(word)) else []  # after them: `??:` is a roll unread
        found = next((fix for fix in fixes if _reads_past(text, fix, game)), None)
        digits = _ocr_reading(text, start, end, word, game)  # (after the word as written: `l7l11` is l7-l11 on 13×13)
        found, digits = (found, digits) if found else (digits, None)
        other = rules.other_reading(word) if found else None
        fallbacks = [Fallback(start, end, each) for each in (digits and digits.text, other) if each]
        return [*([found] if found else []), *fallbacks]
    return [fix for fix in fixes if _reads_past(text, fix, game)]


def mended_tag(text: str, position: int, game: str) -> list[Fix]:
    """A tag at `position` written otherwise than `[Name "value"]`, that reads as one mended, when the record then
    reads past it (in the game the tag names, a Game tag): one whose line ends without its `]` (`[White "Jens
    Holm"`, `[White "Jens Holm" {…}`, `[White "Jens Holm" [Black…`), closed after its value; one whose value runs
    onto the next line (WRAPPED_TAG: `[White "Jens⏎Holm"]`), on one line; one whose value is
    quoted otherwise, or not at all (`[White “Alfonso”]`, `[Game laquet]`, `[Game"laquet"]`), quoted with `"`."""
    if tag := WRAPPED_TAG.match(text, position):
        value = _unwrapped(tag[2], tag[3])
        fix, name = Fix(position, tag.end(), f"[{tag[1]} {quote(value)}]"), tag[1]
    elif tag := _UNCLOSED_TAG.match(text, position):
        fix, name, value = Fix(position, tag.end(), tag[0] + "]"), tag[1], unquote(tag[2])
    elif tag := _MISQUOTED_TAG.match(text, position):
        fix, name, value = Fix(position, tag.end(), f"[{tag[1]} {quote(tag[2])}]"), tag[1], tag[2]
    elif (tag := MISNAMED_TAG.match(text, position)) and (name := _tag_name(tag[1])):
        fix, value = Fix(position, tag.end(), f"[{name} {tag[2]}]"), unquote(tag[2])
    else:
        return []
    if _UNDECODED.search(value):  # (a byte its encoding did not decode is no letter to offer: review80b)
        return []
    game = value.lower() if name == "Game" else game
    return [fix] if fix.text != tag[0] and game in GAMES and _reads_past(text, fix, game) else []


_WITHIN_ADDRESS = tuple("/?&=#-_.")  # what ends a part of a web address or a path where it goes on
_ADDRESS_GOES_ON = tuple("/?&=#")  # what begins a part of one


def _unwrapped(first: str, rest: str) -> str:
    """A tag's value an e-mail wrapped (WRAPPED_TAG), on one line: its parts joined by the blank the wrap took, or
    none where the line broke inside a web address or a path, which holds no blank (review81: `https://…/games?` ⏎
    `round=3`, `example.org` ⏎ `/tafl`: an address's word ends, or the next line begins, where one goes on), but for a
    blank the first part ends with (the break fell after it)."""
    first = first.removesuffix("\r")  # (a file of CRLF line ends)
    word = first.split()[-1] if first.strip() else ""  # (the word the line broke in, or after)
    address = word.startswith("www.") or "/" in word  # (`https://`'s too)
    inside = address and word.endswith(_WITHIN_ADDRESS) or rest.startswith(_ADDRESS_GOES_ON)  # (review82: a line broken
    cut = inside and not first.endswith((" ", "\t"))  # after a whole address, `https://example.org`⏎`for the rules`)
    return (first.rstrip() + ("" if cut else " ") + rest.strip()).strip()


def _marked_result(text: str, start: int, game: str) -> list[Fix]:
    """A `*` written on the ply before `start` (`5/11*`, as backgammon marks a hit), which reads as
    the result marker of an unfinished game and ends the record there: the ply without it, when the
    record then reads past the word at `start`."""
    marked = _MARKED_PLY.search(text, max(0, start - 2 * _LONGEST), start)
    if marked is None:
        return []
    fix = Fix(marked.start(), marked.start() + len(marked[1]) + 1, marked[1])
    return [fix] if _read_to(text, fix, game) > start else []


def _ply_end(text: str, end: int, game: str) -> int:
    """Where the ply of a game of dice that begins with the roll ending at `end` ends: its words
    (`63: 5-11 1-4`, `??: 3/6(2)`; on the next line too, `31:`⏎`4-7 4-5`) up to a move number, the
    next roll, a result marker, a comment or a variation."""
    roll = GAMES[game].roll
    for word in _WORD.finditer(text, end):
        if word.start() < end:  # (the count of a play's repeat, read with it)
            continue
        if text[end : word.start()].strip(" \t\r\n") or _STOP.fullmatch(word[0]) or (roll and roll.fullmatch(word[0])):
            break
        end = repeated.end() if (repeated := _REPEAT.match(text, word.end())) else word.end()
    return end


def _spaced(text: str, start: int, game: str) -> list[Fix]:
    """A ply whose squares stand apart from its hyphens or carets (`e3 - c3`), joined, then mended
    as any ply; a roll or a play with blanks in it, in a game of dice (Laquet's `63 :`, `6 3:`, `1 / 4`), joined;
    none where no blank parts them."""
    fixes = _ply_joined(_SPACED_PLY, text, start, game)
    rules = GAMES[game]
    for spaced in (rules.spaced_roll, rules.spaced_play):
        if spaced and (joined := _joined(spaced, text, start)):
            end, ply = joined  # as written, then mended as the game's plies are (`14 / OFF`: 14/off), still one
            # play (`1 / 4 / 10` is no turn of its own, `63: 1/4/10`, inside one)
            meant = dict.fromkeys(mended for mended in (ply, rules.mended_ply(ply)) if spaced.fullmatch(mended))
            fixes += [Fix(start, end, each) for each in meant]
            if spaced is rules.spaced_roll and meant:  # (and its plays, where they are mended too: `63 - 5-11 5-8`,
                turn_end = _ply_end(text, end, game)  # review83)
                written = next(iter(meant)) + re.sub(r"[ \t\r]*\n\s*", " ", text[end:turn_end])
                fixes += [Fix(start, turn_end, turn)] if (turn := rules.mended_ply(written)) != written else []
    return fixes


def _spaced_turn(text: str, start: int, game: str) -> list[Fix]:
    """A turn of a game of dice whose roll is left out, its first play, just after its move number, with
    blanks about its slash (`1. 5 /11 5/9`): the turn mended as the game's plies are (its slashes joined,
    its roll read from its plays: `64: 5/11 5/9`)."""
    spaced = GAMES[game].spaced_play
    joined = _joined(spaced, text, start) if spaced else None
    if joined is None or not _AFTER_NUMBER.search(text, 0, start):
        return []
    end = _ply_end(text, joined[0], game)
    meant = GAMES[game].mended_ply(re.sub(r"[ \t\r]*\n\s*", " ", text[start:end]))
    return [Fix(start, end, meant)]


def _ply_joined(pattern: re.Pattern[str], text: str, start: int, game: str) -> list[Fix]:
    """The ply `pattern` matches at `start` with blanks in it, joined and mended as any ply."""
    ply = _joined(pattern, text, start)
    return [Fix(start, ply[0], meant) for meant in _meant(ply[1], game)] if ply else []


def _joined(pattern: re.Pattern[str], text: str, start: int) -> tuple[int, str] | None:
    """Where what `pattern` matches at `start` ends, and it without its blanks; None without a blank."""
    spaced = pattern.match(text, start)
    if spaced is None or not re.search(r"[ \t\n]", spaced[0]):
        return None
    return spaced.end(), re.sub(r"[ \t\n]+", "", spaced[0])


_UNDECODED = re.compile("[\udc80-\udcff\ufffd]")  # a byte not decoded, escaped or replaced


def _tag_name(written: str) -> str:
    """The tag name a name written otherwise means (`[Événement "…"]`, `[Source-MS "…"]`, `[White: "…"]`: h80a):
    its letters without their marks, each run of other characters an `_`, from its first letter; a slip of a
    tag NOTATION.md names read as that tag (`Wh ite`: White). "" for one with no letter."""
    plain = unicodedata.normalize("NFKD", written).encode("ascii", "ignore").decode()
    name = re.sub(r"^[^A-Za-z]+", "", re.sub(r"\W+", "_", plain)).rstrip("_")
    return tag_meant(name) or name


@lru_cache(maxsize=256)  # asked of every tag of every record, which repeat in a file (a site's SiteGameId…)
def tag_meant(name: str) -> str | None:
    """The tag NOTATION.md names that a tag of another name may be a slip for (docs/slips.md): the
    same name in another case (`event`), or one of four letters or more with one letter added, left
    out or changed, or two swapped (`Varient`, `Reslt`, `Evnet`); None for any other name."""
    if name in TAG_NAMES:
        return None
    written = name.lower()
    slips = [known for known in TAG_NAMES if len(known) >= 4 and _one_slip(written, known.lower())]
    return next((known for known in slips if known.lower() == written), slips[0] if slips else None)


def _one_slip(written: str, known: str) -> bool:
    """Whether `written` is `known`, or `known` with one letter added, left out or changed, or two
    next to each other swapped."""
    if abs(len(written) - len(known)) > 1:
        return False
    start = next((i for i, (a, b) in enumerate(zip(written, known)) if a != b), min(len(written), len(known)))
    left, right = written[start:], known[start:]
    return (
        left[1:] == right[1:]  # changed (or the same)
        or left[1:] == right  # added
        or left == right[1:]  # left out
        or left[2:] == right[2:]
        and left[:2] == right[1::-1]  # swapped
    )


def results_meant(word: str) -> list[str]:
    """The result markers that a result written in another convention means (`1:0`: 1-0;
    `0-0`: a draw, or an unfinished game); none for any other word."""
    return _RESULTS[word].split() if word in _RESULTS else []


_CAPTURE_SIGN = re.compile(
    r"(?:(?<=[a-z][0-9])|(?<=[a-z][0-9]{2}))[×X:](?=[a-z][0-9])"
)  # a square captured after another's ×, X or :


_DIGIT_LIKE = re.compile(r"(?<=[0-9a-s])[lI](?![a-z])|(?<=[0-9])[oO]")  # an OCR's 1 and 0 after a file or a digit


def _ocr_reading(text: str, start: int, end: int, word: str, game: str) -> Fix | None:
    """The word's first reading that reads on with an OCR's letters for digits read as them, where a digit stands
    (`dl-d3`, `5/1l`, `6l:`, `1O/14`); None where it holds none. A reading of the word as written comes first, and
    this one is offered after it only where the rules accept it (a Fallback: `cl4-b14`, read `l4-b14` on 19×19, is
    c14-b14: review78b)."""
    digits = _DIGIT_LIKE.sub(lambda found: "1" if found[0] in "lI" else "0", word)
    if digits == word:
        return None
    return next(
        (fix for fix in (Fix(start, end, meant) for meant in _meant(digits, game)) if _reads_past(text, fix, game)),
        None,
    )


def _meant(word: str, game: str) -> list[str]:
    """What a word that broke the syntax may have meant, the most mended first."""
    word = _CAPTURE_SIGN.sub("x", hyphened(word))
    if numeral := arabic_number(word):
        return [numeral]
    if _RESULT.fullmatch(word):  # (a result with a long dash, not a Laquet play: `1–0` is no `1/off`, h82b)
        return [word]
    number = _NUMBER.fullmatch(word)
    if number and number[2]:  # (a bare number: slip_fixes; a result is said above)
        return [f"{number[1]}... {ply}".rstrip() for ply in _plies(number[3], game)]
    return _plies(word, game)


def _plies(word: str, game: str) -> list[str]:
    """A word mended step by step as a ply: the last step first."""
    candidates = [word]
    if len(word) > 1 and word[0] in ply_letters(game).lower() and word[1].isalpha():  # a lowercase piece letter
        word = word[0].upper() + word[1:]
        candidates.append(word)
    if (mended := GAMES[game].mended_ply(word)) != word:  # as the game's plies go: `e3c3`, `e3xc3`
        word = mended
        candidates.append(word)
    if (word and not word.strip("-")) or word.lower() == "pass":
        candidates.append("--")  # a pass written with long dashes, or in words
    return candidates[::-1]


def _reads_past(text: str, fix: Fix, game: str) -> bool:
    """Whether the record, mended, parses at least past the fix."""
    return _read_to(text, fix, game) >= fix.start + len(fix.text)


def _read_to(text: str, fix: Fix, game: str) -> float:
    """Where the record, mended, stops parsing: infinity when it parses to its end (or lacks only
    its result marker: validator.replay reads on past that, or meets a problem of structure other than the
    record's own, such as a move number with no ply after it, which the fix did not mend)."""
    from lark.exceptions import UnexpectedInput  # Lark loads only for records that need it

    from lusoria.notation.lalr import at_the_end

    mended = mend(text, fix)
    problem = _problem(mended, game)
    if isinstance(problem, UnexpectedInput):
        return float("inf") if at_the_end(problem) else problem.pos_in_stream or 0
    if isinstance(problem, SyntaxProblem) and problem.message == _structure_problem(text, game):  # (`{c} 2.`
        # as `2. {c}`, a move number still with no ply after it: h71a)
        return offset_of(mended.split("\n"), problem.line, problem.column)
    return float("inf")


def _problem(text: str, game: str) -> Exception | None:
    """What stops the record parsing: Lark's UnexpectedInput where its tokens do not read, a SyntaxProblem
    where their structure is wrong; None when it parses."""
    from lark.exceptions import UnexpectedInput

    from lusoria.notation.lalr import builder_parser

    try:
        builder_parser(game).parse(text, "record")
    except (UnexpectedInput, SyntaxProblem) as problem:
        return problem
    return None


@lru_cache(maxsize=1)
def _structure_problem(text: str, game: str) -> str | None:
    """What the record's problem of structure says (`SyntaxProblem`), if its tokens read; else None."""
    problem = _problem(text, game)
    return problem.message if isinstance(problem, SyntaxProblem) else None


def _attached(text: str, start: int, end: int, tail: str) -> list[Fix]:
    """A suffix (`!?`, `+`), a capture list (`xb5`) or a removal (`~d6`) written apart from its
    ply: `tail`, which replaces text[start:end], joined to the ply before `start`."""
    before = start
    while before > 0 and text[before - 1] in " \t":
        before -= 1
    first = before
    while first > 0 and text[first - 1] not in DELIMITERS:
        first -= 1
    return [Fix(first, end, text[first:before] + tail)] if first < before else []


def _removal_first(text: str, start: int, end: int, removal: str) -> list[Fix]:
    """A Latrunculi removal written before its move (`~a1 g1-g2`, as removal=before-move plays it),
    with no ply before it to join: written after the move that follows."""
    move = _FOLLOWING_WORD.match(text, end)
    return [Fix(start, move.end(), move[1] + removal)] if removal.startswith("~") and move else []


def _parting(text: str, start: int) -> tuple[int, str] | None:
    """What parts a ply from the rest of it, which begins at `start` (a `{…}` or `;` comment, NAGs, a
    suffix, a move number): where it begins, and it as written after that rest (` {…}`, ` $1`, `!`;
    a move number, nothing); None when nothing parts them, or a `;` comment holds a `}` (no `{…}`
    comment can say it)."""
    parting = _PARTING.search(text, 0, start)
    if parting is None:
        return None
    if parting.lastgroup is None:  # a move number
        return parting.start(), ""
    if parting["suffix"]:
        return parting.start(), parting["suffix"]
    if parting["nags"]:
        return parting.start(), " " + " ".join(parting["nags"].split())
    said = parting["comment"] if parting["line"] is None else parting["line"].strip()
    return parting.start(), f" {{{said}}}"


def _comment_moved(text: str, start: int, end: int) -> list[Fix]:
    """A comment, NAGs or a suffix that part a ply from the rest of it (`64: 5/11 {…} 5/9`,
    `64: 5/11! 5/9`), moved after that rest (text[start:end]), or a move number there left out
    (`54: -- 5. >54: 1/5 4/9`); none where nothing parts them."""
    parting = _parting(text, start)
    if parting is None:
        return []
    begin, moved = parting
    first = begin  # (a suffix comes off the play it was written on, which the fix begins with)
    while first > 0 and text[first - 1] not in DELIMITERS and text[begin] in "!?":
        first -= 1
    kept = f"{text[first:begin]} " if first < begin else ""
    return [Fix(first, end, f"{kept}{text[start:end]}{moved}")]


def _comment_after_dice(text: str, start: int, end: int, game: str) -> list[Fix]:
    """A `{…}` comment that parts a ply's dice (text[start:end]: a roll, a > group's) from their
    plays (`64: {…} 5/11 5/9`, a `;` comment's line ending after the dice), moved after the plays (`_comment_moved`), the dice kept before them."""
    comment = _COMMENT_AFTER.match(text, end)
    plays = comment.end() if comment else end
    moved = _comment_moved(text, plays, _ply_end(text, plays, game)) if comment else []
    return [Fix(start, fix.end, text[start : fix.start] + fix.text) for fix in moved if fix.end > plays]


def mend(text: str, fix: Fix) -> str:
    """The text with the fix made."""
    return text[: fix.start] + fix.text + text[fix.end :]
