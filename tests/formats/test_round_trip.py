"""Round trips between lusoria's notation and OTN are stable: lgn → otn → lgn → otn writes the
same tags and moves after the first pass, for any tags (lusoria's and OpenTafl's own), adds no
tag the record did not hold and no king's letter it did not write; and a game read from an OTN
file of any rules record lusoria reads (the catalogue's, OpenTafl's own files': entries in any
order, OpenTafl's `name:` and the jumps of pieces lusoria has not) is written byte for byte the
same after the first pass, its rules record included, keeping OpenTafl's name of its rules. Jumps,
berserk moves and the letters of knights and commanders are written as OpenTafl writes them
(`ce6^e8`, `Ne8=e4xe3`, `ne6^=e8xe7`) and read back so."""

import random
import re

from conftest import ROOT
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from lusoria.api import random_record, random_records
from lusoria.formats import read_text
from lusoria.formats.otn_writer import write_report
from lusoria.notation.model import Ply
from lusoria.notation.reader import parse_record
from lusoria.notation.writer import write_record
from lusoria.validator.hnefatafl import Hnefatafl, catalogue
from lusoria.validator.replay import canonical_text, check
from lusoria.validator.tafl_board import LETTERS

OPENTAFL_FILES = ROOT / "tests" / "fixtures" / "formats" / "otn"
OPENTAFL = (OPENTAFL_FILES / "brandubh.otg").read_text()
RULES = next(line for line in OPENTAFL.splitlines() if line.startswith("[rules:"))
READ_OTHERWISE = {"Game", "Result", "Variant", "Rules", "Position", "Termination", "Board"}  # rules, result, `---`
VALUES = st.text(st.characters(codec="utf-8", exclude_categories=("Cs", "Cc")), max_size=12)


OPENTAFLS_OWN = sorted(
    {line[len("[rules:") : -1] for path in OPENTAFL_FILES.glob("*.otg") for line in path.read_text().splitlines()}
    - {""}
)  # the rules records of the OTN fixtures, OpenTafl's own (name:, nj:, cj:) and lusoria's
CATALOGUE = [variant.rules for variant in catalogue() if variant.rules and variant.name in Hnefatafl.presets]
JUMPS = ["nj:n", "cj:n", "mj:n", "gj:n"]  # OpenTafl writes them; lusoria has no such pieces
JUMPING = [  # the catalogue's variants with knights, commanders, jumps, leaps or berserk moves
    variant.name
    for variant in catalogue()
    if variant.rules
    and variant.name in Hnefatafl.presets
    and (re.search(r"\b(?:ber:c|leap:y|[kcn]j:[rjc])\b", variant.rules) or re.search(r"start:\S*[nNcC]", variant.rules))
]
_PIECE = r"[tcnkTCNK]?[a-s][0-9]{1,2}"  # a piece's letter (not a soldier's) and its square
OPENTAFL_MOVE = re.compile(rf"{_PIECE}(?:-|\^|=|\^=)[a-s][0-9]{{1,2}}(?:x{_PIECE}(?:/{_PIECE}){{0,3}})?")
# an OTN move record as OpenTafl reads it (MoveSerializer.getMoveRegex, jslater89/OpenTafl), but its info symbols:
# no mercenary's letter m, which OpenTafl writes (DetailedMoveRecord.getTaflmanCharForFlag) but does not read (h71b)


def otn_of(lgn: str) -> str:
    return write_report(check(lgn))


def lgn_of(otn: str) -> str:
    report = check(*read_text(otn, "otn", "game.otg"))
    assert report.rules is not None, report.diagnostics
    return canonical_text(report)


def tags_and_moves(otn: str) -> list[str]:
    """An OTN game's tag and move lines: not its rules record, nor its comments (lusoria's several
    comments before the first ply are one `[start-comment:…]`, read back as one)."""
    header, _, moves = otn.partition("\n\n")
    return [line for line in header.split("\n") if not line.startswith(("[rules:", "[start-comment:"))] + [
        line for line in moves.split("\n") if not line.startswith("[")
    ]


def lgn_tags_and_moves(lgn: str) -> tuple[dict[str, str], list[str]]:
    record = parse_record(lgn)
    return record.tags, [ply.text for ply in record.main.plies]


def assert_stable(otn: str) -> str:
    """`otn` read and written again twice: the second pass writes the tags and moves of the first."""
    lgn = lgn_of(otn)
    again = otn_of(lgn)
    assert lgn_tags_and_moves(lgn_of(again)) == lgn_tags_and_moves(lgn)
    assert tags_and_moves(otn_of(lgn_of(again))) == tags_and_moves(again)
    return again


@settings(max_examples=25)  # each example reads and writes five times
@given(
    st.dictionaries(st.from_regex(r"[A-Za-z][A-Za-z0-9_]{0,10}", fullmatch=True), VALUES, max_size=6), st.integers(0, 3)
)
def test_lusorias_tags_come_back_as_they_were(tags, seed):
    [text] = random_records("brandubh", seed=seed, max_plies=8)
    record = parse_record(text)
    record.tags.update({name: value for name, value in tags.items() if name not in READ_OTHERWISE})
    lgn = write_record(record)
    otn = otn_of(lgn)
    assert lgn_of(otn) == lgn  # a record that OTN holds whole comes back as it was
    assert tags_and_moves(assert_stable(otn)) == tags_and_moves(otn)


@settings(max_examples=25)
@given(
    st.dictionaries(
        st.from_regex(r"[a-z]{2,7}(?:-[a-z]{2,6}){0,2}", fullmatch=True),  # words, as OpenTafl's
        st.from_regex(r"[^\]\r\n\x00]{0,12}", fullmatch=True).map(str.strip),
        max_size=6,
    )
)
def test_opentafls_own_tags_keep_their_names(tags):
    kept = {
        key: value
        for key, value in tags.items()
        if key not in ("rules", "result", "start-comment", "position", "variant", "termination")
        and not key.startswith("lusoria-")
    }
    otn = "".join(f"[{key}:{value}]\n" for key, value in kept.items()) + RULES + "\n\n1. d7-b7 c4-c7xb7\n"
    written = assert_stable(otn)
    for key, value in kept.items():
        assert f"[{key}:{value}]" in written.split("\n") or "[lusoria-tags:" in written


def test_no_tag_is_added_and_no_kings_letter():
    lgn = '[Game "tablut"]\n[White "A"]\n\n1. e4-h4 a4-a1 2. e5-e4 *\n'
    otn = otn_of(lgn)
    assert otn.splitlines()[:2] == ["[defenders:A]", "[result:?]"]  # no [event:?], [date:????.??.??], [round:?]
    assert otn.splitlines()[-1] == "2. e5-e4"  # the king's move as written, its letter not added
    assert otn_of(lgn_of(otn)).splitlines()[0] == "[defenders:A]"


def test_opentafls_compiler_keeps_its_case():
    otn = f"[compiler:OpenTafl v0.4.8]\n[time-control:300 30/3 0i]\n{RULES}\n\n1. d7-b7 c4-c7xb7\n"
    lgn = lgn_of(otn)
    assert '[Compiler "OpenTafl v0.4.8"]' in lgn and '[TimeControl "300 30/3 0i"]' in lgn
    assert otn_of(lgn).splitlines()[:2] == ["[compiler:OpenTafl v0.4.8]", "[time-control:300 30/3 0i]"]


def with_moves(lgn: str, seed: int) -> str:
    """A record read from OTN with a few random legal plies from its start (none that ends the game)."""
    report = check(lgn, keep=True)
    assert report.rules is not None and report.record is not None, report.diagnostics
    rules, position, rng = report.rules, report.positions[0], random.Random(seed)
    for _ in range(6):
        text = rules.random_ply(position, rng)
        if text is None or (played := rules.play(position, text)).outcome is not None:
            break
        report.record.main.plies.append(Ply(played.text))
        position = played.position
    return write_record(report.record)


def otn_file(entries: list[str], starti: bool) -> str:
    """An OTN game of nothing but a rules record of `entries` (its start written inverted, `starti`)."""
    if starti:
        entries = [
            f"starti:/{'/'.join(reversed(entry[len('start:/') : -1].split('/')))}/"
            if entry.startswith("start:")
            else entry
            for entry in entries
        ]
    return f"[rules:{' '.join(entries)}]\n\n"


def readable(otn: str) -> str | None:
    """The game of an OTN file in lusoria's notation; None when lusoria refuses its rules."""
    report = check(*read_text(otn, "otn", "game.otg"))
    return canonical_text(report) if report.rules is not None and report.valid else None


@settings(max_examples=30)  # each example reads and writes six times
@given(
    st.sampled_from(OPENTAFLS_OWN + CATALOGUE),
    st.randoms(use_true_random=False),
    st.sets(st.sampled_from(JUMPS)),
    st.one_of(st.none(), st.from_regex(r"[A-Za-z][A-Za-z0-9_]{0,15}", fullmatch=True)),
    st.booleans(),
    st.integers(0, 3),
)
def test_an_otn_game_of_any_rules_record_is_written_alike_after_the_first_pass(rules, order, jumps, name, starti, seed):
    entries = [entry for entry in rules.split() if not entry.startswith("name:") or name is None]
    keys = {entry.partition(":")[0] for entry in entries}
    entries += [entry for entry in sorted(jumps) if entry.partition(":")[0] not in keys]
    entries += [f"name:{name}"] if name is not None else []
    order.shuffle(entries)  # OpenTafl's order is not lusoria's
    first = readable(otn_file(entries, starti))
    assume(first is not None)  # a record lusoria refuses (a mechanic it does not play) makes no round trip
    otn = otn_of(with_moves(first, seed))
    lgn = lgn_of(otn)
    assert otn_of(lgn) == otn  # byte for byte: tags, rules record, comments and moves
    assert lgn_of(otn_of(lgn)) == lgn
    written = next(line for line in otn.splitlines() if line.startswith("[rules:"))
    said = name or next((entry[len("name:") :] for entry in entries if entry.startswith("name:")), None)
    assert said is None or re.search(rf"\[rules:dim:\d+ name:{said} ", written), written  # OpenTafl's name kept


def test_every_rules_record_of_the_catalogue_and_of_opentafls_files_is_written_alike_after_the_first_pass():
    read = 0
    for rules in OPENTAFLS_OWN + CATALOGUE:
        first = readable(f"[rules:{rules}]\n\n")
        if first is None:
            continue  # refused: its mechanic is not played (tests/validator/test_hnefatafl.py)
        otn = otn_of(first)
        assert otn_of(lgn_of(otn)) == otn, rules
        read += 1
    assert read >= len(OPENTAFLS_OWN) + len(CATALOGUE) // 2


def test_jumps_berserk_moves_knights_and_commanders_are_written_as_opentafl_writes_them():
    start = "11/11/11/5K5/11/2n8/2P6P1/pP2Pp1P3/8P2/8c2/11 b"  # a knight on c6, a commander on i2
    lgn = (
        '[Game "hnefatafl"] [Variant "fetlar-hnefatafl-11x11"] [Rules "ber=c"] '
        f'[Position "{start}"] 1... c6-c4 c4=d4 2. Kf8-g8 i2-i4 3. j5-j4 *'
    )
    otn = otn_of(lgn)
    assert otn.split("\n\n")[1] == (
        "1. nc6^c4xc5/b4 nc4=d4xe4 Kf8-g8\n"  # a capturing jump (its soldier first), a berserk move
        "2. ci2^i4 j5-j4xci4\n"  # a commander's jump, and the commander captured
    )
    assert lgn_tags_and_moves(lgn_of(otn))[1] == ["c6-c4xb4/c5", "c4=d4xe4", "Kf8-g8", "i2-i4", "j5-j4xi4"]
    assert otn_of(lgn_of(otn)) == otn
    [jump] = read_text(otn.replace("nc4=d4xe4", "nc4^=d4xe4"), "otn", "game.otg")  # `^=` read as `=`
    assert [ply.text for ply in check(jump).record.main.plies][1] == "c4=d4xe4"


def moves_of(otn: str) -> list[str]:
    return [word for line in otn.partition("\n\n")[2].splitlines() for word in line.split()[1:]]


@settings(max_examples=20)  # each example plays up to 200 plies and reads and writes four times
@given(st.sampled_from(JUMPING), st.booleans(), st.integers(0, 2**16))
def test_a_game_of_jumps_and_berserk_moves_is_written_as_opentafl_writes_it_and_back(name, written, seed):
    tags = {"Variant": name, **({"Rules": "berw=y"} if written else {})}  # berw=y: its berserk moves written
    rules = Hnefatafl.from_tags(tags)
    game = random_record(rules, random.Random(seed), max_plies=200)
    game.tags.update(tags)
    report = check(write_record(game))
    assert report.valid, report.diagnostics
    lgn = canonical_text(report)
    otn = otn_of(lgn)
    assert lgn_of(otn) == lgn and otn_of(lgn_of(otn)) == otn  # byte for byte
    moves, plies = moves_of(otn), report.record.main.plies
    assert [move for move in moves if not OPENTAFL_MOVE.fullmatch(move)] == []
    assert len(moves) == len(plies)
    for move, ply, before in zip(moves, plies, report.positions):
        origin, target = (rules.geo.index[square] for square in re.findall(r"[a-s]\d+", ply.text)[:2])
        over = (origin + target) // 2  # a jump or a leap goes over the square next to it, two squares on
        jumps = abs(target - origin) in (2, 2 * rules.geo.size) and rules.square_board(before)[over] != 0
        assert ("^" in move) == jumps, (move, ply.text)
        assert ("=" in move) == ("=" in ply.text), (move, ply.text)
        mover = LETTERS[rules.square_board(before)[origin]]
        letter = mover if mover in "nNcC" else "K" if ply.text.startswith("K") else ""  # the king's as written
        assert move.startswith(letter + rules.geo.names[origin]), (move, ply.text)
