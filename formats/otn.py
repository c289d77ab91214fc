"""OpenTafl Notation (`.otg`, spec: opentafl-notation-spec.txt of jslater89/OpenTafl): the
reader, which maps OTN's tags onto lusoria's tags and its rules record onto a tafl game and
its options (formats/otn_rules.py: the one whose board has the record's `dim` and whose king
escapes as its `esc` says), and reads its turns and variations. The writer is
formats/otn_writer.py (`lusoria convert --to otn`).

Sides: OTN's attackers are the Muscovites (Black), its defenders the Swedes (White).
A file lusoria wrote carries `[lusoria-variant:…]` and `[lusoria-rules:…]` tags, which are
the record's own Variant and Rules and win over the mapping of the rules record (some
options, such as `tuichi-ends` and `camps`, have no OTN entry)."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Collection, Iterator, Mapping
from dataclasses import dataclass
from urllib.parse import unquote

from lusoria.formats.common import (
    Draft,
    Locator,
    main_line_played,
    note_the_end,
    one_game,
    rule_tags,
    shown,
    tafl_rules,
)
from lusoria.formats.contract import TYPE_TAG
from lusoria.formats.otn_rules import chosen_preset, named_variant, position_board, rules_of, written_name
from lusoria.notation.model import Line, Ply
from lusoria.notation.numbers import whole_number
from lusoria.notation.reader import RecordText
from lusoria.notation.syntax import SyntaxProblem
from lusoria.notation.visitor import PlyKey, Visitor, walk
from lusoria.validator.base import BLACK, OptionError
from lusoria.validator.tafl import TaflGame
from lusoria.validator.tafl_rules import opentafl_differences
from lusoria.words import quoted, times

_KEY = re.compile(r"[A-Za-z][A-Za-z0-9-]*")  # an OTN tag's name
_TAG = re.compile(
    rf"^[ \t]*\[(?P<key>{_KEY.pattern}):(?P<value>[^\]\n]*(?:\n(?![ \t]*\[{_KEY.pattern}:)[^\]\n]*)*)\][ \t]*$", re.M
)  # its value runs on over lines that hold no `]` and start no tag, `[key:` (OpenTafl's start-comment holds paragraphs)
_MOVETEXT = re.compile(r"^[ \t]*\d+[.a-z]", re.M)  # the first turn, of the main line or a variation
_HEADER_LINE = re.compile(r"^[ \t]*(?P<text>\S[^\n]*?)[ \t]*$", re.M)  # a line of the header that is not blank
_TAG_OPENED = re.compile(rf"\[(?P<key>{_KEY.pattern}):")  # a tag's start
_TURN = re.compile(r"(?P<number>\d+)\.(?=\s)")
_TURN_NUMBER = re.compile(r"\d+\.")  # a word that starts a turn: `2.`
_NEXT_TURN = re.compile(  # the next turn of the main line, after blanks, comments and variations' turns (each the rest
    r"(?:\s|\[[^\]]*\]|\d+[a-z]\.[^\n]*)*+\d+\.\s+(\S+)"  # of its line, taken once: review77b), its first move
)
_VARIATION = re.compile(r"(?P<address>\d+[a-z]\.[\w.]*)(?=\s|$)")
_PLY_ADDRESS = re.compile(r"(?P<number>[0-9]+)(?P<move>[a-z])")  # 12b: the second move of turn 12
TURN_LETTERS = "abcdefghijklmnopqrstuvwxyz"  # a move's letter in its turn (berserk moves make turns longer)
_COMMENT = re.compile(r"\[(?P<text>[^\]]*)\]")
_WORD = re.compile(r"\S+")
_TOKENS = re.compile(r"\[[^\]]*\]?|[^\s\[]+")  # tags and comments, words (MAX_TOKEN)
MAX_NUMBER = 10**9  # a turn or variation number: more than any game has
_MOVE = re.compile(
    r"(?P<piece>[tcnkmgTCNKMG])?(?P<origin>[a-z]\d+)(?P<kind>\^=|[-^=])(?P<target>[a-z]\d+)"
    r"(?:x(?P<captures>[A-Za-z]?[a-z]\d+(?:/[A-Za-z]?[a-z]\d+)*))?(?P<info>\+\+|--|\+|-)?"
)
SQUARE = re.compile(r"[a-s](?:1[0-9]|[1-9])(?![0-9])")  # a square's name: on the game's board, _check_squares
BERSERK = re.compile(r"^[A-Za-z]?[a-z]\d+\^?=")  # a berserk move record (e8=e4, Ne6^=e8)
RESULTS = {"1": "0-1", "-1": "1-0", "0": "1/2-1/2", "?": "*"}
TAGS = {
    "event": "Event",
    "site": "Site",
    "date": "Date",
    "round": "Round",
    "attackers": "Black",
    "defenders": "White",
    "annotator": "Annotator",
    "termination": "Termination",
}
OWN = {"lusoria-variant": "Variant", "lusoria-rules": "Rules", "lusoria-position": "Position"}
CARRIED = "lusoria-tags"  # the tags OTN's own cannot hold as they are: NAME=VALUE, percent-encoded
DESCRIBED = "lusoria-game"  # written for a game whose options are the rules record's keys: no built-in game reads it
WRITER_NOTE = "otn writer: "  # a start-comment's paragraph that says what OpenTafl reads otherwise than lusoria
NOT_COPIED = {"rules", "result", "start-comment", "position", "variant", CARRIED, DESCRIBED, *OWN}
RULES_NAME = "OtnRulesName"  # the tag of the rules record's `name:` entry (OpenTafl's name of its rules)
RULES_NAME_ENTRY = re.compile(r"(?:^|(?<=\s))name:(?P<name>[^\s\]]+)")  # as read; as written when it is one word
REPETITION = "OtnRepetition"  # the tag of the rules record's `tfr:` entry where a built-in game does not check it
REPETITION_ENTRY = re.compile(r"(?:^|(?<=\s))tfr:(?P<value>[dwl])(?=\s|$)")  # (one lusoria reads: `_note_repetition`)
_NO_REPETITION_ENTRY = re.compile(r"(?!(?:.*\s)?tfr:).*", re.S)  # a rules record without `tfr:`: a draw, OTN's default
_LGN_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_]*")  # a tag's name in lusoria's notation (TAG_NAME)


def read_otn(text: str, path: str, tags: dict[str, str] | None = None) -> Iterator[RecordText]:
    """An OTN file holds one game, its rules record picking the game (`tags` are not read)."""
    draft = Draft("otn", Locator(text), 0, len(text))
    return one_game(draft, _read, text, path)


def looks_like_otn(head: str) -> bool:
    """Whether a text's first line that is not blank opens an OTN tag (`[rules:`, `[event:`)."""
    first = next((line for line in head.splitlines() if line.strip()), "")
    return _TAG_OPENED.match(first.strip()) is not None


def _check_header(draft: Draft, text: str, header_end: int) -> None:
    """Every line before the first turn is a tag (or a line of a tag's value) or blank: a line that
    is neither (a tag not closed, stray text) is an error there."""
    tagged = [found.span() for found in _TAG.finditer(text, 0, header_end)]
    for line in _HEADER_LINE.finditer(text, 0, header_end):
        if not any(start <= line.start() < end for start, end in tagged):
            opened = _TAG_OPENED.match(line["text"])
            raise draft.problem(
                f"the [{opened['key']}:…] tag is not closed with ']' on its line"
                if opened and "]" not in line["text"]
                else "found a line that is not a tag before the first turn: an OTN header is [key:value] tags, "
                "one a line",
                line.start("text"),
                line["text"],
            )


def _read(draft: Draft, text: str) -> None:
    draft.refuse_long_tokens(_TOKENS)
    header_end = _first_turn(text)
    _check_header(draft, text, header_end)
    tags = _header_tags(draft, text, header_end)
    if "rules" not in tags:
        raise draft.problem("an OTN game needs a [rules:…] tag", 0, rule="tag")
    _one_game(draft, text, header_end, tags["rules"])
    rules = _game_rules(draft, tags)
    if rules is None:
        return
    _copy_tags(draft, tags, writer_notes(rules))
    _movetext(draft, text, header_end, _black_first(draft, rules))
    if draft.result_at is None and draft.result != "*":  # no resignation: the header's result, at its value
        draft.result_at = tags["result"].start("value")
    _check_squares(draft, rules)
    _result_of_the_end(draft, rules)


def _game_rules(draft: Draft, tags: Mapping[str, re.Match[str]]) -> TaflGame | None:
    """The rules of the header's [rules:…] tag, tagged (Game, Variant, Rules and the entries
    `_rules_entries` keeps); None for rules lusoria cannot read: the record is refused (`_refused`)."""
    named = named_variant(tags)
    try:
        game, options, start = rules_of(draft, tags["rules"], "lusoria-rules" in tags, DESCRIBED in tags, named)
    except SyntaxProblem as problem:
        if problem.rule != "tag":
            raise
        _refused(draft, tags, problem)
        return None
    draft.tag("Game", game.name, tags["rules"].start("value"))
    _tag_rules(draft, tags, game, options, start, named)
    try:
        rules = tafl_rules(draft.tags)
    except OptionError as problem:
        _refused(draft, tags, draft.problem(str(problem), tags["rules"].start("value"), rule="tag"))
        return None
    _rules_entries(draft, tags["rules"], rules)
    return rules


def _rules_entries(draft: Draft, rules_tag: re.Match[str], rules: TaflGame) -> None:
    """The entries of the [rules:…] tag that its rules do not say, kept as tags to be written back:
    its name, when it is not the one written anyway, and its repetition rule (`d`, OTN's default,
    when it has none), when the rules are not `described`."""
    value, at = rules_tag["value"], rules_tag.start("value")
    rules_name = RULES_NAME_ENTRY.search(value)
    if rules_name is not None and rules_name["name"] != written_name(rules):  # (that one is written back anyway)
        draft.tag(RULES_NAME, rules_name["name"], at + rules_name.start("name"))
    repetition = REPETITION_ENTRY.search(value)
    if repetition is not None and not rules.described:  # (written back: its meaning kept, C12 or not)
        draft.tag(REPETITION, repetition["value"], at + repetition.start("value"))
    elif _NO_REPETITION_ENTRY.fullmatch(value) and not rules.described:  # OTN's default, as OpenTafl leaves it out
        draft.tag(REPETITION, "d", at)


def _black_first(draft: Draft, rules: TaflGame) -> bool:
    """Whether Black plays the first ply: as the Position tag says, else as the rules start."""
    position = draft.tags.get("Position")
    return position.endswith("b") if position is not None else rules.initial().turn == BLACK


def _one_game(draft: Draft, text: str, header_end: int, rules: re.Match[str]) -> None:
    """A SyntaxProblem at a rules record after the moves: a second game pasted after the first
    (whose header would read as comments, and its turn 1 as a numbering slip)."""
    again = next((tag for tag in _TAG.finditer(text, header_end) if tag["key"].lower() == "rules"), None)
    if again is not None:
        first = draft.locator.where(rules.start())[0]
        raise draft.problem(
            f"a [rules:…] tag after the moves (the game's is on line {first}): an OTN file holds one game",
            again.start("key") - 1,
            f"[{again['key']}:",
        )


def _first_turn(text: str) -> int:
    """Where the movetext starts: the first line that starts a turn and is not a line of a tag's
    value (a start-comment's paragraph may start `1.`); the end when there is none."""
    position = 0
    for tag in _TAG.finditer(text):
        if turn := _MOVETEXT.search(text, position, tag.start()):
            return turn.start()
        position = tag.end()
    turn = _MOVETEXT.search(text, position)
    return turn.start() if turn else len(text)


def _header_tags(draft: Draft, text: str, header_end: int) -> dict[str, re.Match[str]]:
    """The tags of a game's header (up to `header_end`), by key in lower case; a key given twice is
    a problem of the record, which is read with its first value (as a tag written twice in lgn)."""
    tags: dict[str, re.Match[str]] = {}
    found_tags = list(_TAG.finditer(text, 0, header_end))
    counted = Counter(found["key"].lower() for found in found_tags)
    for found in found_tags:
        key = found["key"].lower()
        if key in tags:
            draft.problems.append(
                draft.problem(
                    f"the tag [{found['key']}:…] appears {times(counted[key])} (the first, on line "
                    f"{draft.locator.where(tags[key].start())[0]}, is the one read): an OTN game has one of each",
                    found.start("key"),
                    found["key"],
                    "tag",
                )
            )
        tags.setdefault(key, found)
    return tags


def _tag_rules(
    draft: Draft,
    tags: Mapping[str, re.Match[str]],
    game: type[TaflGame],
    options: dict[str, str],
    start: tuple[str, int] | None,
    named: Mapping[str, str] | None,
) -> None:
    """The Variant, Rules and Position tags of a game of `game` whose rules record reads as `options`
    (`start`: the start it writes, and where; `named`: the variant it names, `named_variant`):
    lusoria's own rule tags where lusoria wrote the file for this game, else those its rules make."""
    # written by lusoria for this game: the record's own rule tags (a file written for another game,
    # a plug-in's, that reads as the generic game lacks its [lusoria-game:…]: its rules record decides)
    if "lusoria-rules" in tags and game.described == (DESCRIBED in tags):
        for key, tag in OWN.items():
            if key in tags and tags[key]["value"].strip():
                draft.tag(tag, tags[key]["value"].strip(), tags[key].start("value"))
        return
    preferred = chosen_preset(game, named)
    for name, value in rule_tags(game, options, ("dim", "start") if game.described else (), preferred).items():
        draft.tag(name, value, tags["rules"].start("value"))
    described = game(options)
    side = "b" if described.settings.first == BLACK else "w"
    if start is not None and start[0] != described.board.start.split()[0]:
        draft.tag("Position", f"{start[0]} {side}", start[1])
    if "position" in tags:
        written = tags["position"]["value"].strip()
        draft.tag(
            "Position",
            f"{position_board(draft, written, tags['position'].start('value'), described)} {side}",
            tags["position"].start("value"),
        )


def _refused(draft: Draft, tags: Mapping[str, re.Match[str]], problem: SyntaxProblem) -> None:
    """A game whose rules lusoria does not play (`problem`, a `tag` problem, says why): the record
    keeps what the file says of the game (players, result…) and, as `GameType`, the name of its rules
    (its `[variant:…]`, else its rules record's `name:`, else the record), for the archive; no Game
    tag and no plies (formats/contract.py)."""
    for name in ("Game", "Variant", "Rules", "Position"):
        draft.tags.pop(name, None)
    _copy_tags(draft, tags)
    rules = tags["rules"]
    named = RULES_NAME_ENTRY.search(rules["value"])
    kind = (
        (tags["variant"]["value"].strip() if "variant" in tags else "")
        or (named["name"] if named else "")
        or shown(rules["value"].strip())
    )
    draft.tag(TYPE_TAG, kind, rules.start("value"))
    draft.problems.append(problem)


def _copy_tags(draft: Draft, tags: Mapping[str, re.Match[str]], said: Collection[str] = ()) -> None:
    """The tags of an OTN game that lusoria keeps: the players, event, result… (`tag_name`), the
    tags it carries, the start comment (but the paragraphs `said`, lusoria's own notes on its rules)
    and the variant's name."""
    for key, match in tags.items():
        value = " ".join(part.strip() for part in match["value"].split("\n") if part.strip())  # its lines, one
        if (copied := tag_name(match["key"])) is not None:
            draft.tag(copied, value, match.start("value"))
        elif key == CARRIED:
            _carried_tags(draft, match)
        elif key == "result":
            if value not in RESULTS:
                raise draft.problem(
                    f"[result:{shown(value)}] is not an OTN result: 1 (the attackers won), -1 (the "
                    "defenders won), 0 (a draw) or ? (not known)",
                    match.start("value"),
                    value[:20],
                    "tag",
                )
            draft.result = RESULTS[value]
            draft.tag("Result", draft.result, match.start("value"))
        elif key == "start-comment":
            draft.line.comments.extend(_paragraphs(match["value"], said))
        elif key == "variant" and value:
            draft.tag("OtnVariant", value, match.start("value"))


def _paragraphs(value: str, said: Collection[str]) -> list[str]:
    """The comments of a start-comment: its paragraphs (a blank line between them, as OpenTafl's
    annotation dialog keeps them), each with its lines as one, but those `said` (written again
    with the file)."""
    paragraphs = (" ".join(paragraph.split()) for paragraph in re.split(r"\n[ \t]*\n", value))
    return [paragraph for paragraph in paragraphs if paragraph and paragraph not in said]


def writer_notes(rules: TaflGame) -> list[str]:
    """The paragraphs of the start-comment that say what OpenTafl plays otherwise than lusoria
    under the rules record written for `rules` (`WRITER_NOTE` and `opentafl_differences`)."""
    return [WRITER_NOTE + note for note in opentafl_differences(rules.settings, by_side=not rules.described)]


def _check_squares(draft: Draft, rules: TaflGame) -> None:
    """A SyntaxProblem at the first square off the game's board that a ply names, where it is written."""

    class Squares(Visitor):
        def visit_ply(self, ply: Ply, number: int, key: PlyKey) -> None:
            wrong = next((square for square in SQUARE.findall(ply.text) if square not in rules.geo.index), None)
            if wrong is not None:
                start = draft.locator.starts[ply.line - 1] + ply.column - 1  # (the ply's place in the file)
                at = next(square.start() for square in SQUARE.finditer(draft.locator.text, start) if square[0] == wrong)
                names = rules.geo.names
                raise draft.problem(
                    f"{wrong} is not a square of the {rules.title} board ({names[0]}–{names[-1]})", at, wrong
                )

    walk(draft.record(), Squares())


def _result_of_the_end(draft: Draft, rules: TaflGame) -> None:
    """A game whose header does not know its result (`result:?`, or no result tag: OpenTafl's
    puzzles) and whose main line ends it gets the result it ends with, with a note."""
    if draft.result != "*" or draft.result_at is not None:
        return
    for index, _, played in main_line_played(draft, rules):
        note_the_end(draft, index, played, "header")
    if draft.result != "*":
        draft.tags["Result"] = draft.result


def tag_name(key: str) -> str | None:
    """The lusoria tag an OTN tag `key` is read as (OTN's own names mapped, any other in CamelCase:
    `time-control` → `TimeControl`); None for the tags read otherwise (rules, result, …)."""
    if not _KEY.fullmatch(key) or key.lower() in NOT_COPIED:
        return None
    return TAGS.get(key.lower()) or "".join(part[:1].upper() + part[1:] for part in key.split("-"))


def _carried_tags(draft: Draft, tag: re.Match[str]) -> None:
    """The tags of `[lusoria-tags:NAME=VALUE …]` (percent-encoded; `_tag_lines` writes it)."""
    for entry in re.finditer(r"\S+", tag["value"]):
        name, equals, value = entry[0].partition("=")
        try:
            name, value = unquote(name, errors="strict"), unquote(value, errors="strict")
        except UnicodeDecodeError:
            equals = ""
        if not equals or not _LGN_NAME.fullmatch(name) or "\n" in value or "\r" in value:
            raise draft.problem(
                f"{CARRIED} entry {quoted(entry[0])} is not NAME=VALUE (percent-encoded UTF-8, "
                "a name of letters, digits and _, a value of one line)",
                tag.start("value") + entry.start(),
                shown(entry[0]),
                "tag",
            )
        draft.tag(name, value, tag.start("value") + entry.start())


def _movetext(draft: Draft, text: str, start: int, black_first: bool) -> None:
    """Turns `N. move move` of the main line and variation turns (`12b.1.1a. ..... d2-c2`),
    each followed by an optional `[a|b]` comment on its plies. Variations are attached once
    the whole main line is read, shallowest first, as OpenTafl does (`Variations`)."""
    position, plies_in_turn = start, list[Ply]()
    variations = Variations(draft)
    turns, moves_in_turn = 0, 2  # the main line's turns so far, and the moves written in the last
    while position < len(text):
        blank = re.compile(r"\s+").match(text, position)
        if blank:
            position = blank.end()
            continue
        comment = _COMMENT.match(text, position)
        if comment:
            for ply, words in zip(plies_in_turn, comment["text"].split("|")):
                if words.strip():
                    ply.comments.append(" ".join(words.split()))
            position = comment.end()
            continue
        turn = _TURN.match(text, position) or _VARIATION.match(text, position)
        if turn is None:
            found = _WORD.match(text, position)[0]  # type: ignore[index]  # a blank was skipped above
            raise draft.problem(
                f"found {quoted(found)}, expected a turn ('1. e3-c3 d1-d3'), a variation turn "
                f"('3b.1.1a. ..... e3-d3') or a comment ('[…|…]')",
                position,
                found[:40],
            )
        end = text.find("\n", turn.end())
        end = len(text) if end < 0 else end
        bracket = text.find("[", turn.end(), end)  # a comment on the turn's line ends its moves (h79a: it was read
        closed = _COMMENT.match(text, bracket) if bracket >= 0 else None  # as a third move); one closed on the line
        end = bracket if closed and closed.end() <= end else end  # (review79: a stray `[` took the turns below)
        words = [(word[0], turn.end() + word.start()) for word in re.finditer(r"\S+", text[turn.end() : end])]
        if turn.re is _TURN:
            turns += 1
            following = _NEXT_TURN.match(text, end)  # (its first move: a berserk one after a capture, OpenTafl's)
            _check_turn(draft, turn, turns, moves_in_turn, words, bool(following and BERSERK.search(following[1])))
            plies_in_turn = [move for word, at in words if (move := _main_ply(draft, word, at, black_first))]
            moves_in_turn = len(words)
            variations.main_turn(turns, plies_in_turn)
        else:
            plies_in_turn = variations.turn(turn["address"], turn.start("address"), words)
        position = end
    variations.attach()


def _check_turn(
    draft: Draft,
    turn: re.Match[str],
    expected: int,
    moves_before: int,
    words: list[tuple[str, int]],
    continued: bool,
) -> None:
    """A SyntaxProblem for a turn of the main line numbered out of order, for one after a turn of
    one move (only the last turn may have one), for a turn's number on another turn's line, and for a
    third move in a turn, but for a capture whose berserk moves open the next turn (`continued`): OpenTafl's
    writer numbers a turn that opens with a capture and its berserk moves so (`17. j7-k7 e11-e9 k7-k6xj6`,
    `18. k6=k9xk10 h7-g7`), and its reader, which reads the moves one after another, reads it back."""
    if whole_number(turn["number"], 1, expected) != expected:
        raise draft.problem(
            f"found turn {shown(turn['number'])}, expected turn {expected} (turns are numbered "
            "from 1, one after another)",
            turn.start(),
            turn["number"][:20],
        )
    if moves_before < 2:
        raise draft.problem(
            f"turn {expected} follows a turn of one move: a turn holds the two sides' moves, "
            "only the last may hold one",
            turn.start(),
            turn["number"][:20],
        )
    for word, at in words:
        if _TURN_NUMBER.fullmatch(word):
            raise draft.problem(
                f"found {quoted(word)} on the line of turn {expected}: each turn is on a line of its own",
                at,
                word[:20],
            )
    moves = [(word, at) for word, at in words if not BERSERK.search(word)]  # a berserk move continues a move
    allowed = 3 if continued and len(moves) > 2 and "x" in moves[2][0] else 2
    if len(moves) > allowed:
        word, at = moves[allowed]
        raise draft.problem(
            f"found a {('third', 'fourth')[allowed - 2]} move {quoted(word)} in turn {expected}: a turn holds the two "
            "sides' moves",
            at,
            word[:20],
        )


def _main_ply(draft: Draft, word: str, at: int, black_first: bool) -> Ply | None:
    """A move of the main line; `---` (resignation) sets the result and Termination."""
    if word == "---":
        moves = sum(not BERSERK.search(ply.text) for ply in draft.line.plies)  # a berserk move: its side's again
        white_to_move = (moves % 2 == 0) != black_first
        draft.tags.setdefault("Termination", "resignation")
        draft.places.setdefault("Termination", draft.locator.where(at))
        if "Result" not in draft.tags or draft.result == "*":  # an unknown result (`?`): the resignation decides it
            draft.result = "0-1" if white_to_move else "1-0"
            if "Result" in draft.tags:
                draft.tag("Result", draft.result, at)
        draft.result_at = at
        return None
    if draft.result_at is not None:
        raise draft.problem(f"found {quoted(word)} after the resignation", at, word)
    return draft.ply(_ply_text(draft, word, at), at, at + len(word))  # (over its piece's letter too: `Cf14-f19`)


def _ply_text(draft: Draft, word: str, at: int) -> str:
    """One OTN move record as the text of a lusoria ply."""
    move = _MOVE.fullmatch(word)
    if move is None:
        raise draft.problem(f"found {quoted(word)}, expected an OTN move record such as e3-c3xc4 or Ke5-e2", at, word)
    squares = [move["origin"], move["target"]] + re.findall(r"[a-z]\d+", move["captures"] or "")
    wrong = next((s for s in squares if not SQUARE.fullmatch(s)), None)
    if wrong:
        raise draft.problem(f"{wrong} is not a square of a tafl board", at + word.index(wrong), wrong)
    kind = "=" if "=" in move["kind"] else "-"  # a jump (^) is a move the rules tell (G14); = a berserk move (G15)
    text = f"{'K' if move['piece'] == 'K' else ''}{move['origin']}{kind}{move['target']}"
    if move["captures"]:
        text += "x" + "/".join(squares[2:])
    return text


@dataclass
class _Turn:
    """One variation turn as written: its address, where it is, its padding and its plies."""

    parts: tuple[str, ...]  # "12b", "1", "1a", numbers without leading zeros
    numbers: tuple[int, ...]  # 12, 1, 1
    at: int
    padding: int
    plies: list[Ply]

    @property
    def name(self) -> str:
        return ".".join(self.parts) + "."


class Variations:
    """OTN variations, read into lusoria's line tree. A variation turn's address is the
    address of a ply, the variation's number, and the turn in the variation (`12b.1.2a.`);
    `.....` stands for the moves before the variation's first one in its first turn. OpenTafl
    writes the address of the replaced ply on the main line (`12b.1.1a. ..... d2-c2` replaces
    12b) but, inside a variation, the address of the ply before it (`3a.2.1a.1.1a. ..... b1-b2`
    replaces 3a.2.1b): the padding says which (the ply addressed if its place in its turn is the
    padding, else the next one, whose place it must be). A turn holds a move of each side and
    the berserk moves that follow them: its plies are lettered a, b, c…"""

    def __init__(self, draft: Draft):
        self.draft = draft
        self.plies: dict[tuple[str, ...], tuple[list[Ply], int]] = {}  # a ply's address -> its line, index
        self.slots: dict[tuple[int, int], int] = {}  # (id of a line's plies, a ply's index) -> its place in its turn
        self.lines: dict[tuple[str, ...], tuple[Line, int]] = {}  # a variation -> it, its last turn
        self.turns: list[_Turn] = []

    def main_turn(self, number: int, plies: list[Ply]) -> None:
        first = len(self.draft.line.plies) - len(plies)
        for index in range(len(plies)):
            self._place((), number, index, self.draft.line.plies, first + index)

    def _place(self, key: tuple[str, ...], number: int, slot: int, plies: list[Ply], index: int) -> None:
        """Ply `index` of `plies`, move `slot` (0: a) of turn `number` of line `key`."""
        self.slots[id(plies), index] = slot
        if slot < len(TURN_LETTERS):  # (more moves in a turn than letters: no variation can name them)
            self.plies[(*key, f"{number}{TURN_LETTERS[slot]}")] = (plies, index)

    def turn(self, address: str, at: int, words: list[tuple[str, int]]) -> list[Ply]:
        """The plies of a variation turn; they join the tree in `attach`."""
        written = address.rstrip(".").split(".")
        parts, numbers = [], []
        for index, part in enumerate(written):
            ply = None if index % 2 else _PLY_ADDRESS.fullmatch(part)
            number = whole_number(ply["number"] if ply else part, 1, MAX_NUMBER)
            if number is None or len(written) % 2 == 0 or not index % 2 and ply is None:
                raise self.draft.problem(
                    f"{quoted(address)} is not a variation address such as 3b.1.1a. (a move "
                    f"of a turn, the variation's number, its turn; numbers from 1 to "
                    f"{MAX_NUMBER:,})",
                    at,
                    address[:40],
                )
            parts.append(f"{number}{ply['move']}" if ply else str(number))
            numbers.append(number)
        padding = 0
        while padding < len(words) and re.fullmatch(r"\.+", words[padding][0]):
            padding += 1
        plies = []
        for word, where in words[padding:]:
            if word == "---":
                self.draft.note(f"a resignation (---) ends variation {address}; lusoria's variations cannot hold it")
                break
            plies.append(Ply(_ply_text(self.draft, word, where), *self.draft.locator.where(where), width=len(word)))
        if not plies:
            raise self.draft.problem(f"variation turn {shown(address)} has no move", at, address[:40])
        self.turns.append(_Turn(tuple(parts), tuple(numbers), at, padding, plies))
        return plies

    def attach(self) -> None:
        for turn in sorted(self.turns, key=lambda turn: len(turn.parts)):
            number, letter = turn.numbers[-1], turn.parts[-1][-1]  # checked by `turn`
            if letter != "a":
                raise self.problem(
                    turn,
                    f"a variation turn is addressed by its first move: "
                    f"write {'.'.join(turn.parts[:-1])}.{number}a. and '.....' for the "
                    f"moves before the variation's first",
                )
            key = turn.parts[:-1]
            if key in self.lines:
                line, last = self.lines[key]
                if number != last + 1:
                    raise self.problem(turn, f"variation {'.'.join(key)}. continues with turn {last + 1}a")
                if turn.padding:
                    raise self.problem(turn, "only a variation's first turn has '.....'")
                first = len(line.plies)
            else:
                line, first = self._branch(turn), 0
                if number != 1:
                    raise self.problem(turn, f"variation {'.'.join(key)}. starts with turn 1a")
            line.plies += turn.plies
            self.lines[key] = (line, number)
            for index in range(len(turn.plies)):
                self._place(key, number, turn.padding + index, line.plies, first + index)

    def _branch(self, turn: _Turn) -> Line:
        """A new variation, attached to the ply it replaces."""
        parent, number = turn.parts[:-2], turn.numbers[-2]
        if parent not in self.plies:
            raise self.problem(
                turn, f"variation {turn.name} branches from {'.'.join(parent)}., which is not a ply of this game"
            )
        plies, index = self.plies[parent]
        if TURN_LETTERS.index(parent[-1][-1]) != turn.padding:
            index += 1
            if index == len(plies):
                raise self.problem(
                    turn, f"variation {turn.name} replaces the ply after {'.'.join(parent)}., and there is none"
                )
            if (before := self.slots[id(plies), index]) != turn.padding:
                raise self.problem(
                    turn,
                    f"variation {turn.name} replaces a move with {before} move{'s' * (before != 1)} before it in "
                    f"its turn: write {before} '.....' before the variation's first",
                )
        replaced = plies[index]
        if number != len(replaced.variations) + 1:
            raise self.problem(
                turn,
                f"variation {turn.name} is number {number} of its ply, which has {len(replaced.variations)} before it",
            )
        line = Line()
        replaced.variations.append(line)
        return line

    def problem(self, turn: _Turn, message: str) -> SyntaxProblem:
        return self.draft.problem(message, turn.at, turn.name)
