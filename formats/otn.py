"""OpenTafl Notation (`.otg`, spec: opentafl-notation-spec.txt of jslater89/OpenTafl): the
reader, which maps OTN's tags and rules record onto lusoria's tags and Tablut options, and
the writer (`lusoria convert --to otn`).

Sides: OTN's attackers are the Muscovites (Black), its defenders the Swedes (White).
A file lusoria wrote carries `[lusoria-variant:…]` and `[lusoria-rules:…]` tags, which are
the record's own Variant and Rules and win over the mapping of the rules record (some
options, such as `tuichi-ends` and `camps`, have no OTN entry)."""

from __future__ import annotations

import re
from typing import Iterator, Mapping

from lusoria.formats.common import CANNOT_EXPRESS, Draft, Locator, one_game, rule_tags
from lusoria.notation.model import Record
from lusoria.notation.visitor import PlyKey
from lusoria.notation.reader import RecordText, SyntaxProblem
from lusoria.validator.base import BLACK, OptionError
from lusoria.validator.tablut import INITIAL, Tablut, parse_move

_TAG = re.compile(r"^[ \t]*\[(?P<key>[A-Za-z][A-Za-z0-9-]*):(?P<value>[^\]\n]*)\][ \t]*$", re.M)
_TURN = re.compile(r"^[ \t]*(?P<number>\d+)\.(?=\s)", re.M)
_VARIATION = re.compile(r"^[ \t]*\d+[a-z](?:\.\d+\.\d+[a-z])*\.", re.M)
_COMMENT = re.compile(r"\[(?P<text>[^\]]*)\]")
_MOVE = re.compile(r"(?P<piece>[tTK])?(?P<origin>[a-z]\d+)(?P<kind>\^=|[-^=])(?P<target>[a-z]\d+)"
                   r"(?:x(?P<captures>[A-Za-z]?[a-z]\d+(?:/[A-Za-z]?[a-z]\d+)*))?(?P<info>\+\+|--|\+|-)?")
_SQUARE = re.compile(r"[a-i][1-9]")
RESULTS = {"1": "0-1", "-1": "1-0", "0": "1/2-1/2", "?": "*"}
TAGS = {"event": "Event", "site": "Site", "date": "Date", "round": "Round", "attackers": "Black",
        "defenders": "White", "annotator": "Annotator", "termination": "Termination"}
OWN = {"lusoria-variant": "Variant", "lusoria-rules": "Rules", "lusoria-position": "Position"}
NOT_COPIED = {"rules", "result", "start-comment", "position", "variant", *OWN}
ALL = "tcnkmgTCNKMG"


# -- reading -------------------------------------------------------------------------------------

def read_otn(text: str, path: str) -> Iterator[RecordText]:
    """An OTN file holds one game."""
    draft = Draft("otn", Locator(text), 0, len(text))
    return one_game(draft, _read, text, path)


def _read(draft: Draft, text: str) -> None:
    first_turn = _TURN.search(text)
    header_end = first_turn.start() if first_turn else len(text)
    tags = {m["key"].lower(): m for m in _TAG.finditer(text, 0, header_end)}
    if "rules" not in tags:
        raise draft.problem("an OTN game needs a [rules:…] tag", 0, rule="tag")
    options, start = _rules(draft, tags["rules"])
    if "lusoria-rules" in tags:  # written by lusoria: the record's own rule tags
        for key, tag in OWN.items():
            if key in tags and tags[key]["value"].strip():
                draft.tag(tag, tags[key]["value"].strip(), tags[key].start("value"))
    else:
        for name, value in rule_tags(options).items():
            draft.tag(name, value, tags["rules"].start("value"))
        side = "w" if options["first"] == "white" else "b"
        if start is not None and start[0] != INITIAL.split()[0]:
            draft.tag("Position", f"{start[0]} {side}", start[1])
        if "position" in tags:
            draft.tag("Position", f"{_board(draft, tags['position']['value'].strip(), tags['position'].start('value'))}"
                                  f" {side}", tags["position"].start("value"))
    try:
        rules = Tablut.from_tags(draft.tags)
    except OptionError as problem:
        raise draft.problem(str(problem), tags["rules"].start("value"), rule="tag") from None
    for key, match in tags.items():
        value = match["value"].strip()
        if key in TAGS:
            draft.tag(TAGS[key], value, match.start("value"))
        elif key not in NOT_COPIED:
            draft.tag("".join(part[:1].upper() + part[1:] for part in match["key"].split("-")), value,
                      match.start("value"))
        elif key == "result":
            draft.result = RESULTS.get(value, "*")
            draft.tag("Result", draft.result, match.start("value"))
        elif key == "start-comment" and value:
            draft.line.comments.append(value)
        elif key == "variant" and value:
            draft.tag("OtnVariant", value, match.start("value"))
    black_first = ("Position" in draft.tags and draft.tags["Position"].endswith("b")) or \
        ("Position" not in draft.tags and rules.initial().turn == BLACK)
    _movetext(draft, text, header_end, black_first)


def _rules(draft: Draft, tag: re.Match) -> tuple[dict[str, str], tuple[str, int] | None]:
    """The Tablut options an OTN rules record stands for, and its start position (lusoria's
    position string without the side to move, and where it is); a SyntaxProblem naming the
    first entry lusoria cannot express."""
    options = dict(Tablut().option, first="black", **{"tuichi-ends": "no"})  # OTN: attackers first, no Tuichi
    entries = {}
    for entry in re.finditer(r"\S+", tag["value"]):
        key, _, value = entry[0].partition(":")
        entries[key] = (value, tag.start("value") + entry.start())

    def cannot(key: str, why: str):
        value, at = entries.get(key, ("", tag.start("value")))
        return draft.problem(f"rules entry {key}:{value}: {CANNOT_EXPRESS} {why}", at, f"{key}:{value}", "tag")

    def value(key: str, default: str) -> str:
        return entries.get(key, (default,))[0]

    if value("dim", "") != "9":
        raise cannot("dim", "a board other than 9×9 in Tablut")
    if value("esc", "c") != "e":
        raise cannot("esc", "escape to the corners (lusoria's Tablut king escapes to any edge square; write esc:e)")
    if "cor" not in entries or value("cor", "") != "":
        raise cannot("cor", "corner squares (Tablut has none; write cor: with no squares)")
    if value("cen", "e5") not in ("", "e5"):
        raise cannot("cen", "a centre other than e5")
    options["first"] = {"y": "black", "n": "white"}.get(value("atkf", "y")) or _raise(cannot("atkf", "this value"))
    options["king-armed"] = {"y": "yes", "n": "no"}.get(value("ka", "y")) or \
        _raise(cannot("ka", "a king armed only as hammer or anvil"))
    options["king-capture"] = {"s": "4", "y": "4", "c": "2"}.get(value("ks", "s")) or \
        _raise(cannot("ks", "a king weak everywhere, or captured against the edge"))
    tfr = value("tfr", "d")
    if tfr not in ("i", "d"):
        raise cannot("tfr", "a repetition that wins or loses")
    if tfr == "d":
        draft.note("threefold repetition (tfr:d) is not checked: lusoria's repetition=draw ends the game at "
                   "the first repetition")
    passers = set(value("cenp", ALL)) & set("tTK")
    options["throne-pass"] = {frozenset("tTK"): "all", frozenset("K"): "king", frozenset(): "none"}.get(
        frozenset(passers)) or _raise(cannot("cenp", "this set of pieces"))
    if set(value("cens", "K")) & set("tT") or "K" not in value("cens", "K"):
        raise cannot("cens", "soldiers on the throne, or a king that may not stop there")
    options["throne-stop"] = "king" if "K" in value("cenre", ALL) else "none"
    hostile_empty, hostile_held = set(value("cenhe", ALL)) & set("tT"), set(value("cenh", "tcnkm")) & set("tT")
    if hostile_empty == set() and "T" not in hostile_held:
        options["throne-hostile"] = "no"
    elif hostile_empty == set("tT") and "T" not in hostile_held:
        options["throne-hostile"] = "empty"
    elif hostile_empty == set("tT") and hostile_held == set("tT"):
        options["throne-hostile"] = "always"
    else:
        raise cannot("cenhe" if hostile_empty not in (set(), set("tT")) else "cenh", "this throne hostility")
    for key, harmless in (("surf", "y"), ("sw", "n"), ("efe", "n"), ("linc", "n"), ("ber", "n"), ("kj", "n"),
                          ("spd", "-1"), ("afor", ""), ("dfor", "")):
        if value(key, harmless) != harmless:
            raise cannot(key, "this rule")
    known = {"dim", "esc", "cor", "cen", "atkf", "ka", "ks", "tfr", "cenp", "cens", "cenre", "cenhe", "cenh", "surf",
             "sw", "swf", "efe", "linc", "ber", "kj", "nj", "cj", "mj", "gj", "spd", "afor", "dfor", "corh", "corp",
             "cors", "corre", "aforh", "dforh", "aforp", "dforp", "afors", "dfors", "aforre", "dforre", "name",
             "start", "starti"}
    for key in entries:
        if key not in known:
            raise cannot(key, "this unknown rules entry")
    start = None
    if "start" in entries or "starti" in entries:
        key = "start" if "start" in entries else "starti"
        text, at = entries[key]
        start = _board(draft, text, at, inverted=key == "starti"), at
    return options, start


def _raise(problem: SyntaxProblem):
    raise problem


def _board(draft: Draft, text: str, at: int, inverted: bool = False) -> str:
    """An OTN position record (rank 1 first, unless inverted) as lusoria's board part."""
    rows = text.strip("/").split("/")
    pieces = {"t": "p", "T": "P", "K": "K"}
    if len(rows) != 9 or not all(re.fullmatch(r"(?:\d+|[tTK])*", row) for row in rows):
        raise draft.problem(f"'{text}' is not a 9×9 Tablut position record (pieces t, T, K)", at, text, "tag")
    converted = [re.sub(r"[tTK]", lambda m: pieces[m[0]], row) for row in rows]
    return "/".join(converted if inverted else reversed(converted))


def _movetext(draft: Draft, text: str, start: int, black_first: bool) -> None:
    """Turns `N. move move` of the main line, each followed by an optional `[a|b]` comment;
    variations (addresses such as `1a.1.1a.`) are skipped with a note."""
    position, plies_in_turn = start, []
    while position < len(text):
        blank = re.compile(r"\s+").match(text, position)
        if blank:
            position = blank.end()
            continue
        variation = _VARIATION.match(text, position)
        if variation:
            end = text.find("\n", position)
            end = len(text) if end < 0 else end
            draft.note(f"a variation is not read: {text[position:end].strip()}")
            position = end
            continue
        turn = _TURN.match(text, position)
        if turn:
            end = text.find("\n", turn.end())
            end = len(text) if end < 0 else end
            plies_in_turn = []
            for token in re.finditer(r"\S+", text[turn.end():end]):
                at = turn.end() + token.start()
                ply = _move(draft, token[0], at, black_first)
                if ply is not None:
                    plies_in_turn.append(ply)
            position = end
            continue
        comment = _COMMENT.match(text, position)
        if comment:
            for ply, words in zip(plies_in_turn, comment["text"].split("|")):
                if words.strip():
                    ply.comments.append(" ".join(words.split()))
            position = comment.end()
            continue
        found = re.compile(r"\S+").match(text, position)[0]
        raise draft.problem(f"found '{found}', expected a turn ('1. e3-c3 d1-d3') or a comment ('[…|…]')",
                            position, found)


def _move(draft: Draft, word: str, at: int, black_first: bool):
    """One OTN move record as a lusoria ply; `---` (resignation) sets the result and Termination."""
    if word == "---":
        white_to_move = (len(draft.line.plies) % 2 == 0) != black_first
        draft.tags.setdefault("Termination", "resignation")
        draft.places.setdefault("Termination", draft.locator.where(at))
        if "Result" not in draft.tags or draft.result == "*":
            draft.result = "0-1" if white_to_move else "1-0"
        draft.result_at = at
        return None
    move = _MOVE.fullmatch(word)
    if move is None:
        raise draft.problem(f"found '{word}', expected an OTN move record such as e3-c3xc4 or Ke5-e2", at, word)
    if move["kind"] != "-":
        raise draft.problem(f"'{word}' is a berserk move or jump: {CANNOT_EXPRESS} it in Tablut", at, word)
    squares = [move["origin"], move["target"]] + re.findall(r"[a-z]\d+", move["captures"] or "")
    wrong = next((s for s in squares if not _SQUARE.fullmatch(s)), None)
    if wrong:
        raise draft.problem(f"{wrong} is not a square of the 9×9 board", at + word.index(wrong), wrong)
    text = f"{'K' if move['piece'] == 'K' else ''}{move['origin']}-{move['target']}"
    if move["captures"]:
        text += "x" + "/".join(squares[2:])
    if draft.result_at is not None:
        raise draft.problem(f"found '{word}' after the resignation", at, word)
    return draft.ply(text, at)


# -- writing -------------------------------------------------------------------------------------

def write_otn(record: Record, rules: Tablut, canonical: Mapping[PlyKey, str] | None = None) -> str:
    """A record as an OTN game: its tags, a rules record for its options (with lusoria's own
    Variant and Rules alongside, for what OTN cannot say), and its main line with comments.
    Variations are not written."""
    tags = record.tags
    back = {tag: key for key, tag in TAGS.items()}
    lines = [f"[{back.get(name, name)}:{value}]" for name, value in tags.items()
             if name not in ("Game", "Result", *OWN.values())]
    lines.append(f"[result:{ {v: k for k, v in RESULTS.items()}[record.result] }]")
    for key, name in OWN.items():
        if name in tags or name == "Rules":
            lines.append(f"[{key}:{tags.get(name, '')}]")
    start = tags.get("Position") or rules.format_position(rules.initial())
    lines.append(f"[rules:{_rules_record(rules, start.split()[0])}]")
    if record.main.comments:
        lines.append(f"[start-comment:{' '.join(record.main.comments)}]")
    lines.append("")
    plies, turn = record.main.plies, len(lines)
    for number in range(0, len(plies), 2):
        pair = plies[number:number + 2]
        turn = len(lines)
        written = [(canonical or {}).get((0, number + k), ply.text) for k, ply in enumerate(pair)]
        lines.append(f"{number // 2 + 1}. " + " ".join(_otn_move(text) for text in written))
        comments = [" ".join(ply.comments).replace("|", "/").replace("]", ")") for ply in pair]
        if any(comments):
            lines.append("[" + "|".join(comments) + "]")
    if tags.get("Termination") == "resignation":  # the side to move resigns: `---` takes its place
        if len(plies) % 2:
            lines[turn] += " ---"
        else:
            lines.append(f"{len(plies) // 2 + 1}. ---")
    return "\n".join(lines) + "\n"


def _otn_move(text: str) -> str:
    """lusoria's announcements (+, ++) are not OTN's info symbols: they are left out."""
    if parse_move(text) is None:
        raise ValueError("a pass (--) has no OTN move record")
    return text.rstrip("+")


def _otn_board(board: str) -> str:
    rows = board.split("/")
    return "/" + "/".join(row.replace("p", "t").replace("P", "T") for row in reversed(rows)) + "/"


def _rules_record(rules: Tablut, board: str) -> str:
    o = rules.option
    empty, held = {"no": ("", ""), "empty": ("tT", ""), "always": ("tT", "tT")}[o["throne-hostile"]]
    passers = {"all": "tTK", "king": "K", "none": ""}[o["throne-pass"]]
    return (f"dim:9 esc:e cor: atkf:{'y' if o['first'] == 'black' else 'n'} "
            f"ka:{'y' if o['king-armed'] == 'yes' else 'n'} ks:{'s' if o['king-capture'] == '4' else 'c'} tfr:i "
            f"cenp:{passers} cens:K cenre:{'K' if o['throne-stop'] == 'king' else ''} cenhe:{empty} cenh:{held} "
            f"start:{_otn_board(board)}")
