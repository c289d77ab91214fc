"""The generic tafl game (G1–G16): rules from small positions under settings of its OTN rules
record (each diagnostic with its rule, its ply and the setting it names), the records read and
written back (every catalogue variant), the catalogue's loader and its errors, and a game added
by one entry of data alone."""

import difflib
import importlib.util
import pickle
import random
import re
import sys
from contextlib import contextmanager
from types import SimpleNamespace

import pytest
from click.testing import CliRunner
from conftest import ROOT

from lusoria import accelerator, api
from lusoria.api import random_record
from lusoria.archive.positions import boards_and_materials
from lusoria.cli import main
from lusoria.formats import FORMATS, read_text
from lusoria.formats.otn_writer import write_report
from lusoria.notation import parse_record
from lusoria.notation.writer import write_record
from lusoria.validator import hnefatafl, tafl_rules, tafl_settings, tafl_unwritten
from lusoria.validator.base import WHITE, OptionError
from lusoria.validator.diagram import Piece
from lusoria.validator.hnefatafl import CatalogueError, Hnefatafl, catalogue, load
from lusoria.validator.replay import Report, canonical_text, check, replay
from lusoria.validator.tafl_board import KING, LETTERS, read_board
from lusoria.validator.tafl_captures import move_captures, moved_board
from lusoria.validator.tafl_moves import jumped_over
from lusoria.validator.tafl_rules import (
    RegionRefused,
    _speed,
    _speed_record,
    described_record,
    described_settings,
    read_record,
)
from lusoria.variants import tags_of_name, variants

FETLAR = "fetlar-hnefatafl-11x11"  # attackers first, corner escape, strong armed king, no shieldwall


def board(pieces: str, size: int = 11, turn: str = "b") -> str:
    """A position string of `pieces` (`Kf6 Pe5 pd4`: the king, a defender, an attacker) on an empty board."""
    rows = [["."] * size for _ in range(size)]
    for item in pieces.split():
        letter, square = item[0], item[1:]
        rows[int(square[1:]) - 1][ord(square[0]) - ord("a")] = letter
    ranks = []
    for row in reversed(rows):
        text, empty = "", 0
        for cell in row:
            if cell == ".":
                empty += 1
                continue
            text += (str(empty) if empty else "") + cell
            empty = 0
        ranks.append(text + (str(empty) if empty else ""))
    return "/".join(ranks) + " " + turn


def started(record: str) -> Report:
    """`check` of a record under its variant with its Position as the start: a Position gives no
    side more soldiers than its variant's start (G1), and a test may set out more."""
    read = parse_record(record)
    rules = Hnefatafl.from_tags(read.tags)
    ranks = reversed(read.tags["Position"].split()[0].split("/"))  # an OTN start: rank 1 first
    start = "/" + "/".join(ranks).translate(str.maketrans("Pp", "Tt")) + "/"
    return replay(read, rules=Hnefatafl({**rules.option, "start": start}, variant=rules.variant))


def errors(record: str | Report) -> list[tuple[str, int | None, str]]:
    """(rule, ply, message) of each error a record (or its report) gets, but its result's (the
    records here end `*`; `outcome` says how a game ended)."""
    report = check(record) if isinstance(record, str) else record
    return [(d.rule, d.ply, d.message) for d in report.diagnostics if d.severity == "error" and d.rule != "result"]


@pytest.mark.parametrize(
    ("tags", "moves", "rule", "rules"),
    [
        ('[Game "tablut"]', "1. d1-d2 e3-c3 2. a4-b4 c5-c4", "T1", "first=black"),
        ('[Game "copenhagen"]', "1. f4-f3 a4-a3", "C2", "first=white"),
        ('[Game "brandubh"]', "1. c4-c6 d7-b7", "B2", "first=white"),
        ('[Game "hnefatafl"] [Variant "tyr-9x9"]', "1. f4-h4 f9-e9", "G2", "atkf=n"),
    ],
)
def test_the_other_sides_ply_at_the_start_names_the_rules_where_it_moves_first(tags, moves, rule, rules):
    """A Muscovites-first Tablut record under the seed rules was offered a Swedes' ply alone (h79a): at the
    start, the error names the Rules that make the other side move first, under which the record is legal."""
    [(cited, ply, message)] = errors(f"{tags} {moves} *")
    assert (cited, ply) == (rule, 1) and f"is to move{' (atkf: y)' if 'atkf' in rules else ''}; if " in message
    assert message.endswith(f" moved first, its Rules tag says so: {rules}; the rest of this line is not checked")
    assert errors(f'{tags} [Rules "{rules}"] {moves} *') == []
    [(_, _, later)] = errors(f'{tags} [Rules "{rules}"] {moves} {moves.split()[1]} *')  # (not at the start)
    assert "its Rules tag" not in later


def test_the_attackers_ply_at_the_start_of_a_defenders_first_game_names_atkf_y():
    """The other way round: under atkf:n White is to move, and Black's first ply is told the setting that makes
    the attackers move first (h80b: `"y" if side == WHITE` made `"n"` passed the tests, which tried atkf:y alone)."""
    assert errors('[Game "hnefatafl"] [Variant "tyr-9x9"] [Rules "atkf=n"] 1. d1-d3 *') == [
        (
            "G2",
            1,
            "the piece on d1 is Black's, and White is to move (atkf: n); if Black moved first, its Rules tag says so: "
            "atkf=y; the rest of this line is not checked",
        )
    ]


def record(pieces: str, moves: str, rules: str = "", variant: str = FETLAR, turn: str = "b") -> str:
    rules_tag = f' [Rules "{rules}"]' if rules else ""
    number = "1... " if turn == "b" else "1. "
    return (
        f'[Game "hnefatafl"] [Variant "{variant}"]{rules_tag} [Position "{board(pieces, turn=turn)}"] {number}{moves} *'
    )


def outcome(pieces: str, moves: str, rules: str = "", turn: str = "b") -> tuple[str, str]:
    """(rule, reason) of how the game the record's moves play ended: at its last move, not before."""
    rules_obj = Hnefatafl.from_tags({"Variant": FETLAR, **({"Rules": rules} if rules else {})})
    position = rules_obj.parse_position(board(pieces, turn=turn))
    *before, last = moves.split()
    for ply in before:
        played = rules_obj.play(position, ply)
        assert played.outcome is None, f"the game ended at {ply}, before {last}"
        position = played.position
    played = rules_obj.play(position, last)
    assert played.outcome is not None
    return played.outcome.rule, played.outcome.reason


# -- rules from small positions ------------------------------------------------------------------


def test_a_square_off_the_variants_board_is_a_move_of_g3():
    assert errors(f'[Game "hnefatafl"] [Variant "{FETLAR}"] 1... l1-l3 *') == [
        ("G3", 1, "l1 is not a square of the 11×11 board (a1–k11); the rest of this line is not checked")
    ]


def test_the_turn_names_who_moves_first():
    assert errors(f'[Game "hnefatafl"] [Variant "{FETLAR}"] 1... f4-c4 *')[0][:2] == ("G2", 1)
    assert "(atkf: y)" in errors(f'[Game "hnefatafl"] [Variant "{FETLAR}"] 1... f4-c4 *')[0][2]
    assert errors(f'[Game "hnefatafl"] [Variant "{FETLAR}"] [Rules "atkf=n"] 1. f4-c4 *') == []


def test_speed_limits():
    assert errors(record("Kc3 pa6", "a6-a8", "spd=1")) == [
        ("G3", 1, "a soldier moves at most 1 square (spd: 1); the rest of this line is not checked")
    ]
    assert errors(
        record(
            "Kc3 pa6",
            "a6-a7 2. Kc3-c5",
            "spd=2,1",
        )
    ) == [("G3", 2, "the king moves at most 1 square (spd: 2,1); the rest of this line is not checked")]


KING_ONE_SQUARE = "-1,-1,-1,-1,-1,-1,-1,-1,1,-1"  # spd: the king moves one square, the others as far as they like


@pytest.mark.parametrize(
    ("variant", "speed"),
    [
        ("ard-ri-1-7x7", KING_ONE_SQUARE),
        ("ard-ri-1-throneless-7x7", KING_ONE_SQUARE),
        ("ard-ri-1-friendly-throne-7x7", KING_ONE_SQUARE),
        ("ard-ri-1-nopass-7x7", KING_ONE_SQUARE),
        ("ard-ri-1-whitefriendlypass-7x7", KING_ONE_SQUARE),
        ("sea-battle-7x7", KING_ONE_SQUARE),
        ("sea-battle-circle-7x7", KING_ONE_SQUARE),
        ("sea-battle-1-7x7", "1"),
    ],
)
def test_the_aagenielsen_types_whose_king_moves_one_square_refuse_a_longer_move(variant, speed):
    def played(moves: str) -> list[tuple[str, int | None, str]]:
        return errors(f'[Game "hnefatafl"] [Variant "{variant}"] [Position "{board("Kc3 pa6", 7)}"] 1... {moves} *')

    assert played("a6-a7 2. Kc3-c4") == []
    assert played("a6-a7 2. Kc3-c5") == [
        ("G3", 2, f"the king moves at most 1 square (spd: {speed}); the rest of this line is not checked")
    ]


def test_restricted_squares_name_their_lists():
    assert errors(record("Kc3 pf9", "f9-f3", "cenp=k")) == [
        ("G4", 1, "only the king may pass over the throne (f6) (cenp: k); the rest of this line is not checked")
    ]
    assert errors(record("Kf6 pa9", "a9-b9 2. Kf6-f8 b9-b8 3. Kf8-f6", "cenre=ad")) == [
        (
            "G4",
            4,
            "no piece, once the king has left it, may stop on the throne (f6) (cenre: ad); the "
            "rest of this line is not checked",
        )
    ]
    assert errors(record("Kf6 pa9", "a9-b9 2. Kf6-f8 b9-b8 3. Kf8-f6")) == []  # OTN's default: he goes back
    assert errors(record("Kc3 pb2", "b2-a2 2. Kc3-c2 a2-a1", "cors=ak")) == []  # a corner an attacker may hold
    # each list named where it refuses a piece: every piece may stop on a corner, the king alone enter one
    assert errors(record("Kc3 pb2", "b2-a2 2. Kc3-c2 a2-a1", "cors=adk corre=k")) == [
        ("G4", 3, "only the king may stop on a corner (a1) (corre: k); the rest of this line is not checked")
    ]
    assert errors(record("Kc3 pb2", "b2-a2 2. Kc3-c2 a2-a1")) == [  # (corre: adk, which refuses none, is not named)
        ("G4", 3, "only the king may stop on a corner (a1) (cors: k); the rest of this line is not checked")
    ]
    # the list that refuses the piece moving: an attacker's by corre, which cors lets stop there (review77)
    assert errors(record("Kc3 pb2", "b2-a2 2. Kc3-c2 a2-a1", "cors=ak corre=k")) == [
        ("G4", 3, "only the king may stop on a corner (a1) (corre: k); the rest of this line is not checked")
    ]
    assert errors(record("Kc3 pb2 Pd1", "b2-b3 2. d1-a1", "cors=ak corre=dk")) == [
        (
            "G4",
            2,
            "only the king may stop on a corner (a1) (cors: ak); the rest of this line is not checked",
        )
    ]


def test_forts_are_regions_of_their_own():
    fort = "afor=c1,d1 aforp=a afors=a"
    assert errors(record("Kh8 Pe1 pc2", "c2-c1 2. e1-d1", fort)) == [
        (
            "G4",
            2,
            "only the attackers may stop on an attackers' fort (d1) (afors: a); the rest of this line is not checked",
        )
    ]
    # the attackers' fort is hostile to defenders (aforh's default): a defender between it and an attacker
    assert errors(record("Kh8 Pd2 pd4", "d4-d3xd2", fort)) == []
    assert errors(record("Kh8 Pd2 pd4", "d4-d3xd2"))[0][:2] == ("G5", 1)


def test_a_square_hostile_as_written_captures_only_what_the_list_names():
    # aforw (lusoria's own): the empty fort captures a defender where the move's list names it, and only there
    fort = "afor=d1 aforh=k aforw=d"
    assert errors(record("Kh8 Pd2 pd4", "d4-d3xd2", fort)) == []
    assert errors(record("Kh8 Pd2 pd4", "d4-d3", fort)) == []  # no list: no capture
    assert errors(record("Kh8 Pd2 Pc3 pb3 pd4", "d4-d3xc3 2. d2-e2", fort)) == []  # not listed: d2 stays and moves
    assert errors(record("Kh8 Pd2 Pc3 pb3 pd4", "d4-d3xc3 2. c3-c4", fort))[0][:2] == ("G3", 2)  # c3 was taken
    assert errors(record("Kh8 Pd2 pd4", "d4-d3xd2", "afor=d1 aforh=k"))[0][:2] == ("G5", 1)
    # an attacker, which aforw does not list, is not captured so even where the list names it
    assert errors(record("Kh8 Pd4 pd2 pa9", "a9-a8 2. d4-d3xd2", fort))[0][:2] == ("G5", 2)
    # cenw: the empty throne likewise; the record written back keeps the key
    assert errors(record("Kc3 Pf5 pf3", "f3-f4xf5", "cenhe=a cenw=d")) == []
    assert errors(record("Kc3 Pf5 pf3 pa9", "f3-f4 2. f5-e5", "cenhe=a cenw=d")) == []
    rules = read_record("dim:9 cen:e5 cenhe:t cenw:T start:/9/9/9/9/4K4/9/9/9/9/")
    said = described_record(described_settings(rules, hnefatafl.IDS, "Hnefatafl"))
    assert "cenw:T" in said and read_record(said)["cenw"] == "d"


@pytest.mark.parametrize(
    "rules, said",
    [
        ("cor=a1,a1", "cor: a1 is listed twice"),
        ("cor=a1,a1,b1", "cor: a1 is listed twice"),  # (at the repeat, not at the entry's last square)
        ("cen=a1", "cen: a1 is a corner already (cor)"),  # (the default corners: said by the key the tag writes)
        ("afor=d1 dfor=d1", "dfor: d1 is an attackers' fort already (afor)"),
        ("afor=f6", "afor: f6 is the throne already (cen)"),
        ("afor=d11,d1 dfor=d1", "dfor: d1 is an attackers' fort already (afor)"),  # (review76: at d11's d1)
        ("ks=w cor=a1,a12", "cor: a12 is not a square of a 11×11 board (a1–k11)"),
    ],
)
def test_a_square_of_two_regions_is_said_with_both_at_the_rules_tag(rules, said):
    """h75a: each was "a1 is already a square of another kind", a square listed twice in one key too; and said at
    the Variant tag, though the Rules tag lists the square: now at the square in the Rules tag, by its key."""
    with pytest.raises(OptionError) as caught:
        Hnefatafl.from_tags({"Variant": FETLAR, "Rules": rules})
    assert str(caught.value) == said
    square = said.split()[1]
    text = f'[Game "hnefatafl"]\n[Variant "{FETLAR}"]\n[Rules "{rules}"]\n\n*\n'
    [diagnostic] = check(text).diagnostics
    assert (diagnostic.rule, diagnostic.message, diagnostic.line, diagnostic.text) == ("tag", said, 3, square)
    assert diagnostic.column == len('[Rules "') + 1 + rules.rindex(square)  # (in its key's entry; the repeat)


def test_a_square_of_two_regions_that_no_rules_tag_lists_is_the_variants():
    """A variant's own regions (a user's catalogue entry) that clash: said at the Variant tag, where no Rules tag
    writes a key that lists the square."""
    refused = RegionRefused("cor: a1 is listed twice", "a1", "cor")
    assert refused.at_rules("ks=w cor=b1") is refused and (refused.tag, refused.written) == ("Variant", None)
    moved = refused.at_rules("ks=w COR=b1,a1,A1")  # (a key and a square in any case; the repeat)
    assert (moved.tag, moved.written, moved.at, str(moved)) == ("Rules", "a1", 15, "cor: a1 is listed twice")
    both = RegionRefused("cor: a1 is the throne already (cen)", "a1", "cor", "cen", "cen: a1 is a corner already (cor)")
    restored = pickle.loads(pickle.dumps(both))  # (as a worker hands it over: with the other key's words)
    assert str(restored.at_rules("cen=a1")) == "cen: a1 is a corner already (cor)"


def test_the_throne_hostile_or_not_and_throneless_boards():
    assert errors(record("Kc3 Pf5 pf3", "f3-f4xf5")) == []  # the empty throne is hostile (cenhe: tTK)
    assert errors(record("Kc3 Pf5 pf3", "f3-f4xf5", "cenhe=k"))[0][:2] == ("G5", 1)
    assert errors(record("Kc3 Pf5 pf3", "f3-f4xf5", "cen="))[0][:2] == ("G5", 1)  # no throne: a plain square
    assert errors(record("Kc3 pf3", "f3-f9", "cen=")) == []  # which any piece crosses and stops on
    assert errors(record("Kc3 pf3", "f3-f6", "cen=")) == []


def test_the_king_armed_as_hammer_or_anvil():
    assert errors(record("Ke4 Pc4 pd4 pa9", "a9-a8 2. Ke4-e5", "ka=a")) == []
    assert errors(record("Kc5 Pb4 pd4 pa9", "a9-a8 2. Kc5-c4xd4", "ka=a")) == [
        ("G5", 2, "the move captures nothing, not d4 (ka: a); the rest of this line is not checked")
    ]
    assert errors(record("Kc5 Pe4 pd4 pa9", "a9-a8 2. Kc5-c4xd4", "ka=h")) == []
    assert errors(record("Kc4 Pe5 pd4 pa9", "a9-a8 2. Pe5-e4xd4", "ka=h")) == [
        (
            "G5",
            2,
            "the move captures nothing, not d4 (the king does not capture by standing against it, ka: h); the rest "
            "of this line is not checked",
        )
    ]
    assert errors(record("Kc4 Pe5 pd4 pa9", "a9-a8 2. Pe5-e4xd4", "ka=y")) == []
    # the king's arming named where he stands beyond the square listed (h75a: named of every soldier's move)
    assert errors(record("Kc4 Pe5 pa9", "a9-a8 2. Pe5-e4xd4", "ka=y")) == [
        ("G5", 2, "the move captures nothing, not d4 (ka: y); the rest of this line is not checked")
    ]
    assert errors(record("Kg4 Pe5 pa9", "a9-a8 2. Pe5-e4xd4", "ka=y")) == [  # (beyond f4, not the list's d4)
        ("G5", 2, "the move captures nothing, not d4; the rest of this line is not checked")
    ]


def test_the_kings_strength():
    assert outcome("Kc3 pb3 pd3 pc4 pc1", "c1-c2") == ("G7", "the king was captured (ks: s)")
    assert errors(record("Kc3 pc4 pc1", "c1-c2xc3", "ks=w")) == []  # two attackers suffice
    assert errors(record("Kc3 pc4 pc1", "c1-c2xc3"))[0][:2] == ("G7", 1)
    assert errors(record("Kc1 pb1 pc2 pe1", "e1-d1xc1", "ks=m")) == []  # three, the edge the fourth side
    assert errors(record("Kc1 pb1 pc2 pe1", "e1-d1xc1"))[0][:3] == (
        "G7",
        1,
        "the move captures nothing, not c1 (ks: s); the rest of this line is not checked",
    )
    assert errors(record("Kf5 pg5 pf3", "f3-f4xf5", "ks=c"))[0][:2] == ("G7", 1)  # beside the throne: strong
    assert errors(record("Kf5 pg5 pf3", "f3-f4xf5", "ks=w")) == []  # weak: against the empty throne
    assert errors(record("Kf5 pe5 pg5 pf3", "f3-f4xf5", "ks=c")) == []  # strong: three and the throne
    assert errors(record("Kc5 pc6 pc3", "c3-c4xc5", "ks=c")) == []  # away from it: weak


def test_shieldwall_exit_fort_encirclement_and_no_move():
    wall = "Kf6 Pd1 Pe1 Pf1 pc1 pd2 pe2 pf2 ph1"
    assert errors(record(wall, "h1-g1xd1/e1/f1", "sw=w")) == []
    assert errors(record(wall, "h1-g1xd1", "sw=w")) == [
        ("G6", 1, "the move captures d1/e1/f1, not d1 (sw: w); the rest of this line is not checked")
    ]
    assert errors(record(wall, "h1-g1xd1/e1/f1"))[0][:2] == ("G5", 1)  # sw:n, OTN's default
    assert outcome("Kd1 Pc1 Pd2 Pe2 Pf2 pk6", "f2-f1", "efe=y", "w") == (
        "G9",
        "the king is in an exit fort on the edge (efe: y)",
    )
    assert outcome("Kc9 pc10 pb9 pd9 pb8 pd8 pc6", "c6-c7", "surf=y") == (
        "G10",
        "the attackers encircle every defender (surf: y)",
    )
    assert outcome("Ka5 pa6 pa4 pb7", "b7-b5") == ("G11", "White has no legal move")


@pytest.mark.parametrize(
    "variant, size",
    [
        ("fetlar-13x13-parlett", 13),  # aagenielsen.dk fetlar_rules_en.php, 7b
        ("fetlar-sparse-13x13", 13),
        ("fetlar-sparse-cross-13x13", 13),
        ("copenhagen-hnefatafl-minus-11x11", 11),  # Copenhagen's C11
        ("copenhagen-hnefatafl-unsafe-edge-11x11", 11),
    ],
)
def test_encirclement_wins_where_the_types_rule_page_says_so_and_no_game_tells(variant, size):
    rules = Hnefatafl.from_tags({"Variant": variant})
    played = rules.play(rules.parse_position(board("Kc9 pc10 pb9 pd9 pb8 pd8 pc6", size)), "c6-c7")
    assert played.outcome is not None
    assert (played.outcome.rule, played.outcome.reason) == ("G10", "the attackers encircle every defender (surf: y)")


ESCAPED = ("G8", "the king reached the edge (esc: e)")
TAKEN_BY_TWO = ("G7", "the king was captured (ks: c)")
ENCIRCLED = ("G10", "the attackers encircle every defender (surf: y)")
RING, RING_CLOSED = "Kc9 pc10 pb9 pd9 pb8 pd8 pc6", "Kc9 pc10 pb9 pd9 pb8 pd8 pc7"


@pytest.mark.parametrize(
    "variant, size, before, ply, after, ending",
    [
        # the king escapes to any edge square: every Ard Ri and Tablut type whose games decide it
        ("ard-ri-1-throneless-7x7", 7, "Kc2 pf6", "Kc2-c1", "Kc1 pf6", ESCAPED),  # its king moves one square
        ("ard-ri-32-7x7", 7, "Kc3 pf6", "Kc3-c1", "Kc1 pf6", ESCAPED),
        ("tablut-sparse-13x13", 13, "Kc3 pf6", "Kc3-c1", "Kc1 pf6", ESCAPED),
        # ... and the corners are squares like any other (cor:)
        ("ard-ri-1-throneless-7x7", 7, "Kc3 pa3", "a3-a1", "Kc3 pa1", None),
        ("ard-ri-32-7x7", 7, "Kc3 pa3", "a3-a1", "Kc3 pa1", None),
        ("tablut-sparse-13x13", 13, "Kc3 pa3", "a3-a1", "Kc3 pa1", None),
        # away from the throne two attackers take the king (ks: c): Tablut 19x19, 13x13 (Parlett), Tablut2
        ("tablut-sparse-13x13", 13, "Kc3 pc2 pa4", "a4-c4", "pc2 pc4", TAKEN_BY_TWO),
        ("tablut-sparse-15x15", 15, "Kc3 pc2 pa4", "a4-c4", "pc2 pc4", TAKEN_BY_TWO),
        # encirclement wins: Hnefatafl edge 19x19, Tablut 19x19 and 13x13 (Parlett)
        ("hnefatafl-edge-11x11", 11, RING, "c6-c7", RING_CLOSED, ENCIRCLED),
        ("hnefatafl-edge-13x13", 13, RING, "c6-c7", RING_CLOSED, ENCIRCLED),
        ("tablut-sparse-13x13", 13, RING, "c6-c7", RING_CLOSED, ENCIRCLED),
        ("tablut-sparse-15x15", 15, RING, "c6-c7", RING_CLOSED, ENCIRCLED),
        # the empty throne f6 is hostile to no attacker (cenhe:): Foteviken tablut 11x11, the same board
        ("foteviken-cross-11x11", 11, "Kb2 pe6 Pd8 ph3", "d8-d6", "Kb2 pe6 Pd6 ph3", None),
    ],
)
def test_a_setting_no_game_of_the_type_decides_is_the_one_its_familys_games_decide(
    variant, size, before, ply, after, ending
):
    """Hand-written positions, each on a type whose games leave the setting open (tafl_variants.toml's notes)."""
    rules = Hnefatafl.from_tags({"Variant": variant})
    origin = ply.removeprefix("K").partition("-")[0]
    turn = "b" if f"p{origin}" in before.split() else "w"  # the side of the piece that moves
    played = rules.play(rules.parse_position(board(before, size, turn)), ply)
    assert rules.format_position(played.position) == board(after, size, "b" if turn == "w" else "w")
    assert (played.outcome and (played.outcome.rule, played.outcome.reason)) == ending


def test_a_relaxed_shieldwall_is_captured_by_a_move_to_its_front():
    wall = "Kf6 Pd1 Pe1 Pf1 pc1 pg1 pd2 pe2 pf4"  # closed at both flanks; f1's front is open
    assert errors(record(wall, "f4-f2xd1/e1/f1", "sw=w swf=n")) == []
    assert errors(record(wall, "f4-f2xd1", "sw=w swf=n")) == [
        ("G6", 1, "the move captures d1/e1/f1, not d1 (sw: w); the rest of this line is not checked")
    ]
    assert errors(record(wall, "f4-f2xd1/e1/f1", "sw=w"))[0][:2] == ("G5", 1)  # swf:y (the default): not a flank
    assert errors(record(wall + " pk5", "k5-k4xf1", "sw=w swf=n"))[0][:2] == ("G5", 1)  # no wall closed
    cornered = "Kb1 Pc1 pb2 pc2 pd1 pe5"  # the corner a1 closes it (sw:s); the king in the line is not taken
    assert errors(record(cornered, "e5-e4xc1", "sw=s swf=n")) == []
    assert errors(record(cornered, "e5-e4xc1", "sw=w swf=n"))[0][:2] == ("G5", 1)  # sw:w: a corner closes no wall


def test_a_relaxed_shieldwall_from_corner_to_corner_is_closed_by_the_empty_corners():
    """A wall that fills the first rank has no piece of the mover's at either end: the empty
    corners a1 and k1 close it, whichever piece moved (swf:n)."""
    edge = "Kf6 " + " ".join(f"P{file}1 p{file}2" for file in "bcdefghi") + " Pj1 pj3"
    assert errors(record(edge, "j3-j2xb1/c1/d1/e1/f1/g1/h1/i1/j1", "sw=s swf=n")) == []
    assert errors(record(edge, "j3-j2xb1", "sw=s swf=n")) == [
        ("G6", 1, "the move captures b1/c1/d1/e1/f1/g1/h1/i1/j1, not b1 (sw: s); the rest of this line is not checked")
    ]


def test_a_relaxed_shieldwall_along_a_file_from_corner_to_corner_is_closed_by_the_empty_corners():
    """The same along the a-file: from a corner, the wall's front is the next file, not the next square of the
    line (h80b: `_inward` read a corner by its rank alone, `step in (1, -1) and` dropped, and the wall stood)."""
    edge = "Kf6 " + " ".join(f"Pa{rank} pb{rank}" for rank in range(2, 10)) + " Pa10 pc10"
    captured = "/".join(f"a{rank}" for rank in range(2, 11))
    assert errors(record(edge, f"c10-b10x{captured}", "sw=s swf=n")) == []
    assert errors(record(edge, "c10-b10xa2", "sw=s swf=n")) == [
        ("G6", 1, f"the move captures {captured}, not a2 (sw: s); the rest of this line is not checked")
    ]


def test_repetition_ends_as_tfr_says():
    moves = "Kc3-c4 h8-h7 Kc4-c3 h7-h8 Kc3-c4 h8-h7 Kc4-c3 h7-h8 Kc3-c4"
    assert outcome("Kc3 ph8", moves, "tfr=d", "w") == ("G12", "the position arose twice before (repetition) (tfr: d)")
    rules = Hnefatafl.from_tags({"Variant": FETLAR, "Rules": "tfr=w"})
    position = rules.parse_position(board("Kc3 ph8", turn="w"))
    for ply in moves.split():
        played = rules.play(position, ply)
        position = played.position
    assert played.outcome.result == "1-0"  # White's move made it: under w, that side wins
    with pytest.raises(AssertionError):
        outcome("Kc3 ph8", moves, "tfr=i", "w")


def test_hnefatafl_edges_corners_are_hostile_to_attackers_only_and_open_to_all():
    edge = "hnefatafl-edge-11x11"  # as the site's games of the type play them (tafl_variants.toml)
    assert errors(record("Kf6 pb11 Pc5", "c5-c11xb11", variant=edge, turn="w")) == []
    assert errors(record("Kf6 Pk10 pk8", "k8-k9xk10", variant=edge)) == [
        ("G5", 1, "the move captures nothing, not k10; the rest of this line is not checked")
    ]
    assert errors(record("Kf6 pi11", "i11-k11", variant=edge)) == []


def test_linnaean_capture():
    pieces = "Kf6 Pe6 pf7 pg6 pf5 pd4"
    assert errors(record(pieces, "d4-d6xe6", "linc=y")) == []
    assert errors(record(pieces, "d4-d6xe6"))[0][:2] == ("G5", 1)
    empty_throne = "Kb3 Pe6 pf7 pg6 pf5 pd4"  # the throne f6 empty, hostile to attackers only (cenhe: a)
    assert errors(record(empty_throne, "d4-d6xe6", "linc=y cenhe=a")) == [
        (
            "G5",
            1,
            "the move captures nothing, not e6 (the throne (f6) does not capture it when empty, cenhe: a); the rest "
            "of this line is not checked",
        )
    ]


@pytest.mark.skipif(accelerator.compiled(), reason="a compiled module's calls do not go through its patched names")
def test_a_described_games_start_is_read_once(monkeypatch):
    """The settings of a rules record read its start position once (`start_of`): the board's check
    read it, then the settings read it again."""
    read = []

    def reading(text, *rest):
        read.append(text)
        return read_board(text, *rest)

    monkeypatch.setattr(tafl_settings, "read_board", reading)
    monkeypatch.setattr(tafl_rules, "read_board", reading, raising=False)
    settings = described_settings(read_record("dim:5 start:/1ttt1/t1T1t/tTKTt/t1T1t/1ttt1/"), hnefatafl.IDS, "H")
    assert read == ["1ppp1/p1P1p/pPKPp/p1P1p/1ppp1"]  # (as lusoria writes its pieces: p P K)
    assert settings.start == bytes(read_board(read[0], 5, "H", "".join(LETTERS.values())))


def test_mechanics_lusoria_does_not_play_are_refused_by_name():
    with pytest.raises(OptionError, match="guards are not supported"):
        described_settings(read_record("dim:5 start:/5/5/2K2/5/1g3/"), hnefatafl.IDS, "Hnefatafl")
    start = "/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3tgt3/"
    [source] = read_text(f"[rules:dim:9 start:{start}]\n\n1. e2-b2\n", "otn", "x.otg")
    [said] = check(source).diagnostics
    assert said.rule == "tag" and "'g' is not a piece lusoria plays" in said.message


def test_commanders_knights_and_the_king_jump_over_an_enemy_soldier():
    assert errors(record("Kf6 ca4 Pa5", "a4-a6")) == []  # a commander jumps (cj:j, OTN's default)
    assert errors(record("Kf6 ca4 Pa5", "a4-a6", "cj=n"))[0][:2] == ("G3", 1)
    assert errors(record("Kc3 ca4 Ca5", "a4-a6"))[0][:2] == ("G14", 1)  # never over a commander
    assert errors(record("Kf6 ca4 Pa5 pa7", "a4-a7"))[0][:2] == ("G3", 1)  # two squares at most
    assert errors(record("Kf6 ca4 Pa5 pa6", "a4-a6")) == [  # onto an occupied square: no jump, a move blocked
        ("G3", 1, "the way is blocked at a5; the rest of this line is not checked")
    ]
    assert errors(record("Kf6 Na5 pa6 pb5", "a5-a7xa6", turn="w")) == []  # a knight's jump captures (nj:c)
    assert errors(record("Kf6 Na5 pa6 pb5", "a5-a7xa6", "nj=j", turn="w"))[0][:2] == ("G5", 1)
    assert errors(record("Kf6 pf7 pa2", "Kf6-f8", "kj=r", turn="w")) == []  # from the throne
    restricted = errors(record("Kc3 pc4 pa2", "Kc3-c5", "kj=r", turn="w"))
    assert restricted[0][:2] == ("G14", 1) and "(kj: r)" in restricted[0][2]
    assert errors(record("Kc3 pc4 pa2", "Kc3-c5", "kj=j", turn="w")) == []
    assert errors(record("Kf4 pf5 pa2", "Kf4-f6", "kj=j", turn="w")) == []  # onto the throne, where he may stop
    assert errors(record("Kk6 cf4 Pf5", "f4-f6")) == [  # where a commander may not
        (
            "G14",
            1,
            "a commander jumps only over an enemy soldier, to a square it may stop on (cj: j); the rest of this "
            "line is not checked",
        )
    ]
    rules = Hnefatafl.from_tags({"Variant": FETLAR, "Rules": "kj=j"})
    position = rules.parse_position(board("Kc3 pc4 pa2", turn="w"))
    assert "Kc3-c5" in rules.legal_plies(position)


def test_one_function_says_what_a_move_captures_the_jumped_soldier_first_the_walls_last():
    """`move_captures`, which a ply, a berserk piece's next move and a left-out continuation all ask:
    a knight jumps a5-a7 over a6 (nj:c, G14), takes b7 against c7 (G5) and flanks the shieldwall
    a8-a9 closed by a10 (sw:w, G6); the walls' soldiers are also said apart (the rule a wrong list
    breaks)."""
    pieces = "Kf6 Na5 pa6 pb7 Pc7 pa8 pa9 Pb8 Pb9 Pa10 pk2"
    rules = Hnefatafl.from_tags({"Variant": FETLAR, "Rules": "sw=w"})
    settings, position = rules.settings, rules.parse_position(board(pieces, turn="w"))
    origin, target = settings.geo.index["a5"], settings.geo.index["a7"]
    jumped = jumped_over(position.board, origin, target, settings)
    captured, walled = move_captures(moved_board(position.board, origin, target), WHITE, target, jumped, settings)
    names = settings.geo.names
    assert ([names[s] for s in captured], [names[s] for s in walled]) == (["a6", "b7", "a8", "a9"], ["a8", "a9"])
    assert rules.play(position, "a5-a7").text == "a5-a7xa6/a8/a9/b7"
    assert errors(record(pieces, "a5-a7xa6/b7", "sw=w", turn="w"))[0][:2] == ("G6", 1)


def test_a_captured_mercenary_changes_sides():
    pieces = "Kk6 pd1 Me4 pf4 Pe5 Pc3 pa10"  # d1-d4 takes e4 (against f4); c3-e3 takes it back (against e5)
    assert errors(record(pieces, "d1-d4xe4 c3-c2 e4-e2")) == []  # the attackers' now
    assert errors(record(pieces, "d1-d4xe4 e4-e2"))[0][:2] == ("G2", 2)  # no longer White's
    assert errors(record(pieces, "d1-d4xe4 c3-c2 f4-a4"))[0][:2] == ("G3", 3)  # it stays, in the way
    assert errors(record(pieces, "d1-d4xf4"))[0][:2] == ("G5", 1)
    assert errors(record(pieces, "d1-d4xe4 c3-e3xe4 a10-a9 e3-e1 a9-a8 e4-e2")) == []  # captured again: White's again
    assert errors(record(pieces, "d1-d4xe4 c3-e3xe4 e4-e2"))[0][:2] == ("G2", 3)
    rules = Hnefatafl(variant=FETLAR)
    after = rules.play(rules.parse_position(board(pieces)), "d1-d4xe4").position
    assert rules.format_position(after).split("/")[6:8] == ["4P6", "3pmp5"]
    assert rules.diagram(after).pieces[3 * 11 + 4] == Piece(1, "mercenary")
    assert rules.material(after) == (3, 4) and rules.material_follows_empty_squares()  # (Fetlar's start has none)
    bartley = Hnefatafl(variant="alea-berserk-19x19-bartley")  # f6, n6, f14, n14: White's mercenaries
    start = bartley.initial()
    flipped = start
    for ply in ("c6-e6", "j13-j15", "g5-g6xf6"):  # the last turns f6 Black's: no square empties
        flipped = bartley.play(flipped, ply).position
    white, black = bartley.material(start)
    assert not bartley.material_follows_empty_squares()
    assert [m[:2] for m in boards_and_materials(bartley, [start, flipped])[1]] == [
        (white, black),
        (white - 1, black + 1),
    ]
    assert bartley.tally(start, flipped) == "pieces lost: White 1, Black 0 (1 gained)"
    assert "M m mercenaries; uppercase: White" in bartley.render(flipped)


def test_a_strong_king_is_captured_between_two_commanders_as_opentafl_captures_him():
    assert outcome("Kh10 cg10 ci9 Pd4", "i9-i10") == ("G7", "the king was captured (ks: s)")
    assert outcome("Kh11 cg11 ci9 Pd4", "i9-i11") == ("G7", "the king was captured (ks: s)")  # on the edge too
    assert errors(record("Kh10 pg10 ci9 Pd4", "i9-i10")) == []  # a soldier and a commander: not
    assert errors(record("Kh10 cg10 pi9 Pd4", "i9-i10")) == []  # the mover a soldier: not
    assert errors(record("Kf6 ce6 ch6 Pd4", "h6-g6")) == []  # never on the throne
    assert outcome("Kb11 cc9 Pd4", "c9-c11") == ("G7", "the king was captured (ks: s)")  # against a corner
    assert errors(record("Kb11 pc9 Pd4", "c9-c11")) == []
    unhostile = Hnefatafl.from_tags({"Variant": FETLAR, "Rules": "corh=ad"})  # corners hostile to no king
    played = unhostile.play(unhostile.parse_position(board("Kb11 cc9 Pd4")), "c9-c11")
    assert (played.outcome, played.position.board[unhostile.geo.index["b11"]]) == (None, KING)


def test_a_commander_is_captured_on_three_or_four_sides_under_cc():
    pieces = "Kk6 Ce5 pd5 pe4 pf7"  # f7-f5: e5 between two attackers, and e4 a third
    assert errors(record(pieces, "f7-f5xe5")) == []  # cc:2, as a soldier
    assert errors(record(pieces, "f7-f5xe5", "cc=3")) == []
    assert errors(record(pieces, "f7-f5xe5", "cc=4"))[0][:2] == ("G5", 1)
    assert errors(record("Kk6 Ce5 pd5 pf7", "f7-f5xe5", "cc=3"))[0][:2] == ("G5", 1)  # two sides only
    assert errors(record("Kk6 Ca5 pa6 pb4 pc5", "c5-b5xa5", "cc=3"))[0][:2] == ("G5", 1)  # the edge does not count
    assert errors(record("Kk6 Pe5 pd5 pf7", "f7-f5xe5", "cc=3")) == []  # a soldier: between two


def test_a_piece_that_captured_moves_again_under_berserk_rules():
    pieces = "Kk6 pd5 Pd4 pd1 Pg3 ph3 pb10"  # d1-d3 captures d4, then d3-f3 captures g3
    assert errors(record(pieces, "d1-d3xd4 d3-f3xg3", "ber=c")) == []
    assert errors(record(pieces, "d1-d3xd4 b10-b9", "ber=c"))[0][:2] == ("G15", 2)  # it must (OpenTafl)
    assert errors(record(pieces, "d1-d3xd4 d3-d2", "ber=c"))[0][:2] == ("G15", 2)  # and capture
    assert errors(record(pieces, "d1-d3xd4 d3-d2", "ber=m")) == []
    assert errors(record(pieces, "d1-d3xd4 Kk6-k7", "ber=o")) == []  # under lusoria's o it may
    assert errors(record(pieces, "d1-d3xd4 d3-f3xg3 Kk6-k7", "ber=o")) == []
    assert errors(record(pieces, "d1-d3xd4 d3-d2", "ber=o"))[0][:2] == ("G15", 2)
    assert errors(record(pieces, "d1-d3xd4 d3-f3xg3"))[0][:2] == ("G2", 2)  # ber:n
    assert errors(record("Kk6 pd5 Pd4 pd1 pb10", "d1-d3xd4 Kk6-k7", "ber=c")) == []  # nothing to capture: White
    assert errors(record(pieces, "d1-d3xd4 d3=f3xg3", "ber=c")) == []  # written as OTN writes it
    assert errors(record(pieces, "d1-d3xd4 d3-f3xg3 Kk6=k7", "ber=o"))[0][:2] == ("G15", 3)
    rules = Hnefatafl.from_tags({"Variant": FETLAR, "Rules": "ber=c"})
    after = rules.play(rules.parse_position(board(pieces)), "d1-d3xd4").position
    assert rules.legal_plies(after) == ["d3=f3xg3"] and rules.turn(after) == 1
    moving = Hnefatafl.from_tags({"Variant": FETLAR, "Rules": "ber=m"})  # a continuation written without its =
    after = moving.play(moving.parse_position(board(pieces)), "d1-d3xd4").position
    assert moving.play(after, "d3-d2").text == "d3=d2" and moving.play(after, "d3=d2").text == "d3=d2"


def test_a_first_ply_written_as_a_berserk_move_is_said_as_the_first_move():
    """h75a: `a4=a3`, the first ply, was said "move 0, White": a ply written with `=` was numbered with the
    ply before it, where there is none."""
    shown = CliRunner().invoke(
        main, ["validate", "-"], input='[Game "hnefatafl"]\n[Variant "tyr-11x11"]\n[Rules "berw=y"]\n\na4=a3 *\n'
    )
    assert "<stdin>:5:1: error[G15]: move 1, Black: a4=a3 is written as a berserk move (=)" in shown.output


def test_a_ply_written_as_a_berserk_move_when_no_turn_goes_on_is_said_as_a_turn_of_its_own():
    """h75a: `a4-a3 f8=f10`, White's first ply written with `=` after a Black ply that captured nothing, was said
    "move 1, Black": numbered with the ply before it, as a continuation the replay found none of (a continuation
    due, written so, is numbered with the ply it continues still: test_numbering)."""
    tyr = '[Game "hnefatafl"]\n[Variant "tyr-11x11"]\n[Rules "berw=y"]\n\n'
    report = check(f"{tyr}1. a4-a3 f8=f10 *\n")
    [refused] = report.diagnostics
    assert (refused.rule, refused.ply, refused.move) == ("G15", 2, "move 1, White")
    assert report.uncontinued == {(0, 1)} and report.move(2, (0, 1)) == "move 1, White"
    shown = CliRunner().invoke(main, ["validate", "-"], input=f"{tyr}1. a4-a3 f8=f10 *\n")
    assert "<stdin>:5:10: error[G15]: move 1, White: f8=f10 is written as a berserk move (=)" in shown.output
    numbered = check(f"{tyr}1. a4-a3 f8=f10 2. a3-a2 *\n")  # (review76: `2.` warned "should be 1...")
    assert [(d.rule, d.ply) for d in numbered.diagnostics] == [("G15", 2)]


def test_a_region_square_an_otn_rules_entry_refuses_is_said_at_the_entry(tmp_path):
    """review76: `cor:e5` onto the throne was said `rules entry e5: cor: …` under the `:d` of `[rules:dim`."""
    text = (
        "[rules:dim:9 name:Tablut atkf:y start:3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3 cor:e5]\n\n1. e1-f1\n"
    )
    (tmp_path / "clash.otg").write_text(text)
    shown = CliRunner().invoke(main, ["validate", str(tmp_path / "clash.otg")])
    column = text.index("cor:e5") + 1
    assert f"clash.otg:1:{column}: error[tag]: rules entry cor: e5 is the throne already (cen)\n" in shown.output


def test_a_berserk_continuation_may_capture_by_a_shieldwall_alone():
    """After d2-d4xe4 the soldier's one capturing move closes the wall a5-a7 against a8; its other
    moves capture nothing, so it has no other (ber:c)."""
    rules = Hnefatafl.from_tags({"Variant": FETLAR, "Rules": "ber=c sw=s"})
    start = rules.parse_position(board("Kk6 pd2 Pe4 pf4 Pa5 Pa6 Pa7 pb5 pb6 pb7 pa8"))
    after = rules.play(start, "d2-d4xe4").position
    assert rules.legal_plies(after) == ["d4=a4xa5/a6/a7"] and rules.turn(after) == 1


@pytest.mark.parametrize(
    "pieces, rules, capture, continued, other, square",
    [
        # under swf:n a move that fills the front of a wall captures it: after h4-f4xe4 the soldier's
        # f4-f2 closes d1-f1 against c1 and g1, a continuation that captures (ber:c) though f2 is off the edge
        (
            "Kk6 Pd1 Pe1 Pf1 pc1 pg1 pd2 pe2 Pe4 pd4 ph4 pa10",
            "sw=w swf=n ber=c",
            "h4-f4xe4",
            "f4-f2xd1/e1/f1",
            "Kk6-k7",
            "f4",
        ),
        # a1 is square 0 of the board: a soldier that captured there (a corner it may stop on) goes on
        ("Kf6 pa5 Pb1 pc1 Pb2 pc2 pk10", "esc=e ber=c cors=akd", "a5-a1xb1", "a1-a2xb2", "k10-k9", "a1"),
    ],
    ids=["a relaxed shieldwall closed from its front", "a berserker on a1"],
)
def test_a_berserker_moves_again_and_only_it(pieces, rules, capture, continued, other, square):
    """The soldier that captured on `square` moves again with a capturing move; another move is G15, at ply 2."""
    assert errors(record(pieces, f"{capture} {continued}", rules)) == []
    assert errors(record(pieces, f"{capture} {other}", rules)) == [
        (
            "G15",
            2,
            f"the soldier that captured on {square} moves again (berserk) (ber: c); the rest of this line is not checked",
        )
    ]


def test_a_left_out_continuation_may_capture_by_a_shieldwall_alone():
    """After h4-g4xg5 the soldier's g4-g1 flanks the wall d1-f1 against c1: a continuation that
    captures (G6) though nothing custodially. Left out (berw:n), it was never assumed, and a4-h4,
    through the g4 it left, was blocked (G3)."""
    pieces = "Kk6 Pd1 Pe1 Pf1 pc1 pd2 pe2 pf2 Pg5 pg6 ph4 Pa4 pb10"
    assert said(record(pieces, "h4-g4xg5 a4-h4", "sw=w ber=c berw=n")) == [
        (
            "warning",
            "G16",
            2,
            "the record leaves out a berserk continuation after h4-g4xg5: g4-g1xd1/e1/f1 (berw: n)",
        )
    ]
    assert said(record(pieces, "h4-g4xg5 g4-g1xd1/e1/f1 a4-h4", "sw=w ber=c")) == []  # written out


def test_a_left_out_chain_that_reaches_a_board_again_sooner_searches_on_from_it():
    """After d8-d4xc4, d4-e4xe3, e4-f4xf3/f5, f4-f3xg3 and d4-f4xf3/f5, f4-f3xe3/g3 make the same
    board: the second, one continuation shorter, has one more left for the six captures from f3
    to j6 (8 in all). Searching on from f3 only with the longer chain's count (a mutant of
    `_continue`) never took j6, and j11-j6 was refused (G3, "j6 is occupied")."""
    pieces = "pd8 Pc4 pb4 pd3 Pe3 Pf3 Pg3 ph3 pe2 pf2 pg2 Pf5 Pg4 pg5 Ph4 pi4 Ph5 ph6 Pi5 pj5 Pi6 pi7 Pj6 pk6 Kb10 Pj11"
    chain = "d4-f4xf3/f5, f4-f3xe3/g3, f3-g3xg4, g3-g4xh4, g4-h4xh5, h4-h5xi5, h5-i5xi6, i5-i6xj6"
    assert said(record(pieces, "d8-d4xc4 j11-j6", "ber=c berw=n")) == [
        ("warning", "G16", 2, f"the record leaves out a berserk continuation after d8-d4xc4: {chain} (berw: n)")
    ]
    assert said(record(pieces, f"d8-d4xc4 {chain.replace(',', '')} j11-j6", "ber=c")) == []  # written out


def test_a_left_out_capturing_jump_lists_its_capture_once():
    """The king's jump from the empty throne, hostile to the attackers, takes f7 twice over: by the
    jump (kj:c) and against the throne."""
    found = said(record("Kf4 Pd6 pe6 pf7 pk7 pa2", "Kf4-f6xe6 k7-e7", "ber=c berw=n kj=c", turn="w"))
    assert found == [
        ("warning", "G16", 2, "the record leaves out a berserk continuation after Kf4-f6xe6: f6-f8xf7 (berw: n)")
    ]


TYR = "tyr-9x9"  # aagenielsen.dk's Tyr: berserk moves (ber:c), whose continuations its records leave out (berw:n)


def tyr(pieces: str, moves: str) -> str:
    return f'[Game "hnefatafl"] [Variant "{TYR}"] [Position "{board(pieces, 9)}"] 1... {moves} *'


def free(pieces: str, moves: str, rules: str = "berw=a") -> str:
    """A Tyr record (berw:n) read under `rules`."""
    return tyr(pieces, moves).replace("[Position", f'[Rules "{rules}"] [Position')


def left_out(ply: int, continuation: str, berw: str = "n") -> tuple[str, str, int, str]:
    """The warning (G16) at `ply` that a record leaves out `continuation`, as `said` gives it."""
    return ("warning", "G16", ply, f"the record leaves out a berserk continuation {continuation} (berw: {berw})")


def said(record: str | Report) -> list[tuple[str, str, int | None, str]]:
    """(severity, rule, ply, message) of each diagnostic a record (or its report) gets."""
    report = check(record) if isinstance(record, str) else record
    return [(d.severity, d.rule, d.ply, d.message) for d in report.diagnostics]


def test_a_berserk_continuation_the_record_leaves_out_is_found_by_the_ply_that_needs_it():
    start = "pc2 Pd4 pe4 Pc7 pc8 Kg8"  # c2-c4 takes d4; then c4-c6 would take c7
    assert said(tyr(start, "c2-c4xd4 2. Kg8-g7 c6-c5")) == [
        ("warning", "G16", 3, "the record leaves out a berserk continuation after c2-c4xd4: c4-c6xc7 (berw: n)")
    ]
    assert said(tyr(start, "c2-c4xd4 2. Kg8-g7 c4-c5")) == []  # the written position goes on: no continuation
    assert said(tyr(start + " Pe7 pe8", "c2-c4xd4 2. Kg8-g7 e6-e5")) == [  # two continuations, each capturing
        (
            "warning",
            "G16",
            3,
            "the record leaves out a berserk continuation after c2-c4xd4: c4-c6xc7, c6-e6xe7 (berw: n)",
        )
    ]
    # a ply legal on no position is refused as on the written one
    assert errors(tyr(start, "c2-c4xd4 2. Kg8-g7 d4-d5")) == [
        ("G3", 3, "there is no piece on d4 (captured by move 1, Black: c2-c4xd4); the rest of this line is not checked")
    ]
    # a continuation that would end the game (c4-c5 takes the king on d5) is not assumed
    assert errors(tyr("pc2 Pd4 pe4 Kd5 pe5 Ph8", "c2-c4xd4 2. h8-h7 c5-c6"))[0][:2] == ("G3", 3)
    # nor a line that a later ply ended: a2-a6 takes the king on b6 against c6 where c4-c6xc7 went on,
    # and a7-d7, which needs c7 taken, is refused on the written line
    assert errors(tyr("pc2 Pd4 pe4 Pc7 pc8 Kb6 pa2 Pa7 Pi9", "c2-c4xd4 2. i9-i8 a2-a6 3. a7-d7")) == [
        ("G3", 4, "the way is blocked at c7; the rest of this line is not checked")
    ]
    repeated = tyr("pa2 Kg8", "a2-a3 2. Kg8-g7 a3-a2 3. Kg7-g8 a2-a3 4. Kg8-g7 a3-a2 5. Kg7-g8 a2-a3")
    assert check(repeated.replace("[Position", '[Rules "tfr=d"] [Position')).outcome.rule == "G12"  # with history
    assert check(repeated).outcome is None  # tfr:i
    assert "ber:c berw:n" in described_record(Hnefatafl(variant=TYR).settings)


def test_a_left_out_continuation_is_warned_of_once():
    """c6-c5xb5 (ply 3) is played where c2-c4xd4's c4-c6xc7 went on, and itself leaves out
    c5-c3xb3, which c3-c2 (ply 5) needs: ply 5 warns of that one alone, not of c4-c6xc7 again (as
    aagenielsen.dk's Berserk and Tyr games were read: 64 warnings said again)."""
    start = "pc2 Pd4 pe4 Pc7 pc8 Kg8 Pb5 pa5 Pb3 pa3"
    assert said(tyr(start, "c2-c4xd4 2. Kg8-g7 c6-c5xb5 3. Kg7-g8 c3-c2")) == [
        left_out(3, "after c2-c4xd4: c4-c6xc7"),
        left_out(5, "after c6-c5xb5: c5-c3xb3"),
    ]
    # the same capture played again (ply 9), leaving out the same continuation, is warned of again (review77)
    again_later = "c2-c4xd4 2. Kg8-g7 c6-c5 3. d1-d4 c5-c2 4. a7-c7 i1-i2 5. Kg7-g8 c2-c4xd4 6. Kg8-g7 c6-c5"
    twice_said = [left_out(3, "after c2-c4xd4: c4-c6xc7"), left_out(11, "after c2-c4xd4: c4-c6xc7")]
    assert said(tyr("pc2 Pd4 pe4 Pc7 pc8 Kg8 Pa7 Pd1 pi1", again_later)) == twice_said
    free_later = again_later.replace("4. a7-c7 i1-i2 5. Kg7-g8", "4. Kg7-g8 i1-i2 5. Kg8-g7").replace(
        "6. Kg8-g7", "6. Kg7-g8"
    )  # (berw:a: each found by a look back)
    assert said(free("pc2 Pd4 pe4 Kg8 Pd1 pi1", free_later)) == [
        left_out(3, "after c2-c4xd4: c4-c6", "a"),
        left_out(11, "after c2-c4xd4: c4-c6", "a"),
    ]
    # berw:a: c6-c5 (ply 5) looks back to c2-c4xd4 and plays i1-i4xi5 and f5-h5 again, f5-h5 where
    # i4-g4xg5 went on, as ply 3 was played and warned: it is not warned of again
    looked_back = free("pc2 Pd4 pe4 Kg8 Pi1 pi5 Pi6 pg5 Pg6 pf5", "c2-c4xd4 2. i1-i4xi5 f5-h5 3. Kg8-g7 c6-c5")
    assert said(looked_back) == [
        left_out(3, "after i1-i4xi5: i4-g4xg5", "a"),
        left_out(5, "after c2-c4xd4: c4-c6", "a"),
    ]
    # berw:a: c3-c2 (ply 5) looks back to c6-c5xb5, played (ply 3) where c4-c6xc7 went on: that one is
    # not warned of again
    again = free("pc2 Pd4 pe4 Pc7 pc8 Kg8 Pb5 pa5", "c2-c4xd4 2. Kg8-g7 c6-c5xb5 3. Kg7-g8 c3-c2")
    assert said(again) == [left_out(3, "after c2-c4xd4: c4-c6xc7", "a"), left_out(5, "after c6-c5xb5: c5-c3", "a")]
    # d9-d7xe7 (ply 3) fits where c4-c6xc7 went on too, which a7-e7 (ply 4) shows, looking back to it
    # (d7-d8); d6-d5 (ply 5) looks back to it again (d7-d6): c4-c6xc7, said at ply 4 though no ply
    # chose its line, is not said again
    twice = free("pc2 Pd4 pe4 Pc7 pc8 Kg8 pd9 Pe7 pf7 Pa7", "c2-c4xd4 2. Kg8-h8 d9-d7xe7 3. a7-e7 d6-d5")
    assert said(twice) == [
        left_out(4, "after c2-c4xd4: c4-c6xc7", "a"),
        left_out(4, "after d9-d7xe7: d7-d8", "a"),
        left_out(5, "after d9-d7xe7: d7-d6", "a"),
    ]


def test_a_left_out_turn_of_eight_continuations_is_found():
    """Alea Berserk 19x19's records leave out turns of up to eight continuations (UNWRITTEN_DEPTH)."""

    def column(last: int) -> str:  # c2-c4 takes d4, then c4-c5 takes d5, ...: each against e; White's d-file piece
        pieces = f"pc2 Kp15 Pd{last + 1} " + " ".join(f"Pd{rank} pe{rank}" for rank in range(4, last + 1))
        start = f'[Game "hnefatafl"] [Variant "alea-berserk-19x19-bartley"] [Position "{board(pieces, 19)}"] '
        return start + f"1... c2-c4xd4 2. d{last + 1}-d4 *"  # passes every d square: each must have been taken

    chain = ", ".join(f"c{rank - 1}-c{rank}xd{rank}" for rank in range(5, 13))
    assert said(column(12)) == [
        ("warning", "G16", 2, f"the record leaves out a berserk continuation after c2-c4xd4: {chain} (berw: n)")
    ]
    assert [error[:2] for error in errors(column(13))] == [("G3", 2)]  # nine are not searched


def test_a_left_out_continuation_follows_the_capture_of_a_mercenary():
    start = "pc2 Md4 pe4 Pc7 pc8 Kg8"  # c2-c4 takes the mercenary d4 (it turns Black's); then c4-c6 would take c7
    assert said(tyr(start, "c2-c4xd4 2. Kg8-g7 c6-c5")) == [
        ("warning", "G16", 3, "the record leaves out a berserk continuation after c2-c4xd4: c4-c6xc7 (berw: n)")
    ]
    assert said(tyr(start, "c2-c4xd4 2. Kg8-g7 d4-d5")) == []


def test_a_left_out_continuation_may_be_a_capturing_jump():
    start = board("Nc2 pd4 Pe4 pc5 Kg8 ph1", 9, "w")  # c2-c4 takes d4; then the knight jumps c5 to c6, taking it
    knight = f'[Game "hnefatafl"] [Variant "{TYR}"] [Position "{start}"] 1. c2-c4xd4 h1-h2 2. c6-c7 *'
    assert said(knight) == [
        ("warning", "G16", 3, "the record leaves out a berserk continuation after c2-c4xd4: c4-c6xc5 (berw: n)")
    ]
    plain_jump = knight.replace("[Position", '[Rules "nj=j"] [Position')  # a jump that does not capture
    assert errors(plain_jump) == [("G3", 3, "there is no piece on c6; the rest of this line is not checked")]


def test_a_ply_of_such_a_record_captures_what_its_list_names():
    start = "pd1 Pd4 pd5 Pb4 pb5 Pe3 Pc1 Kg8"  # d1-d3 takes d4; then d3-b3 would take b4; c1-c3 takes d3 if on d3
    assert said(tyr(start, "d1-d3xd4 2. c1-c3")) == [  # no list: nothing captured, so the piece went on to b3
        ("warning", "G16", 2, "the record leaves out a berserk continuation after d1-d3xd4: d3-b3xb4 (berw: n)")
    ]
    assert said(tyr(start, "d1-d3xd4 2. c1-c3xd3")) == []
    assert errors(tyr(start, "d1-d3xd4 2. c1-c3xb3")) == [
        ("G5", 2, "the move captures d3, not b3; the rest of this line is not checked")
    ]
    # a list that names the king takes it, ending the game (G7); where the king stays, the list is refused
    assert check(tyr("pc2 Kd4 pe4 Pa8", "c2-c4xd4")).outcome.rule == "G7"
    assert errors(tyr("pc2 Kd4 Pa8", "c2-c4xd4 2. a8-a7")) == [
        ("G7", 1, "the move captures nothing, not d4 (ks: w); the rest of this line is not checked")
    ]


def test_under_berw_u_a_ply_without_a_list_fits_whatever_it_captures():
    # d1-d3 takes d4, then d3-b3 would take b4; i2-i3 takes i4 on every line; d5-d2 passes d3
    old_style = tyr("pd1 Pd4 pd5 pb5 Pb4 Pi2 pi4 Pi5 Kg8", "d1-d3 2. i2-i3 d5-d2")
    assert said(old_style.replace("[Position", '[Rules "berw=u"] [Position')) == [
        ("warning", "G16", 3, "the record leaves out a berserk continuation after d1-d3xd4: d3-b3xb4 (berw: u)")
    ]
    # berw:n reads i2-i3 as capturing nothing: it fits no line, and only the first goes on
    assert errors(old_style) == [("G3", 3, "the way is blocked at d3; the rest of this line is not checked")]


def shuffled(last: int, then: str) -> str:
    """Moves 2 to `last` of the king on g8 and an attacker on a1 going to and fro, then `then`
    as Black's ply of move `last` (ply 2 × last − 1)."""
    moves = [f"{n}. Kg{8 - n % 2}-g{7 + n % 2} a{1 + n % 2}-a{2 - n % 2}" for n in range(2, last)]
    return " ".join([*moves, f"{last}. Kg{8 - last % 2}-g{7 + last % 2} {then}"])


def test_a_suggestion_in_a_record_that_leaves_out_continuations_lists_its_captures():
    """a1-a4 takes b4 against c4; bare, it would read as played after c4-c6xc7, left out (G16)."""
    start = "pc2 Pd4 pe4 Pc7 pc8 Kg8 Pb4 pa1"
    (wrong,) = check(tyr(start, "c2-c4xd4 2. Kg8-g7 a1-a4xc7")).diagnostics
    assert (wrong.rule, wrong.suggestions[0]) == ("G5", "a1-a4xb4")
    assert said(tyr(start, "c2-c4xd4 2. Kg8-g7 a1-a4")) == [
        ("warning", "G16", 3, "the record leaves out a berserk continuation after c2-c4xd4: c4-c6xc7 (berw: n)")
    ]


def test_under_berw_a_the_last_left_out_continuation_may_be_any_move_of_the_piece():
    start = "pc2 Pd4 pe4 pa1 Kg8"  # c2-c4 takes d4; c4-c6 then captures nothing
    free = tyr(start, "c2-c4xd4 2. Kg8-g7 c6-c5").replace("[Position", '[Rules "berw=a"] [Position')
    assert said(free) == [
        ("warning", "G16", 3, "the record leaves out a berserk continuation after c2-c4xd4: c4-c6 (berw: a)")
    ]
    assert errors(free.replace('[Rules "berw=a"] ', "")) == [  # berw:n: each left-out continuation captures
        ("G3", 3, "there is no piece on c6; the rest of this line is not checked")
    ]
    late = free.replace("2. Kg8-g7 c6-c5", shuffled(21, "c6-c5"))  # 40 plies after the capture
    assert said(late) == [
        ("warning", "G16", 41, "the record leaves out a berserk continuation after c2-c4xd4: c4-c6 (berw: a)")
    ]
    too_late = free.replace("2. Kg8-g7 c6-c5", shuffled(22, "c6-c5"))  # 42 plies after: not reached
    assert errors(too_late) == [("G3", 43, "there is no piece on c6; the rest of this line is not checked")]
    # the 8 latest captures are reached: seven after c2-c4xd4, not eight
    files = " Ph1 Pi3 Pi5 Pi7 Pi9 ph2 ph4 ph6 ph8 pb1 pa3 pa5 pa7 pa9 Pb2 Pb4 Pb6 Pb8"  # soldiers to take on b and h
    taking = "2. i3-h3xh2 a3-b3xb2 3. i5-h5xh4 a5-b5xb4 4. i7-h7xh6 a7-b7xb6 5. i9-h9xh8 a9-a8 6. Kf7-f6 c6-c5"
    seven = tyr(start.replace("Kg8", "Kf7") + files, f"c2-c4xd4 {taking}").replace(
        "[Position", '[Rules "berw=a"] [Position'
    )
    assert [d[:3] for d in said(started(seven))] == [("warning", "G16", 11)]  # (13 defenders: Tyr's 8 and more)
    assert errors(started(seven.replace("a9-a8", "a9-b9xb8"))) == [
        ("G3", 11, "there is no piece on c6; the rest of this line is not checked")
    ]
    # each ply since the capture must fit: a6-e6 passes c6, so c4 went on to c7, not c6
    crossed = tyr(start + " Pa6", "c2-c4xd4 2. a6-e6 c7-c8").replace("[Position", '[Rules "berw=a"] [Position')
    assert said(crossed) == [
        ("warning", "G16", 3, "the record leaves out a berserk continuation after c2-c4xd4: c4-c7 (berw: a)")
    ]
    assert errors(crossed.replace("c7-c8", "c6-c8")) == [
        ("G3", 3, "there is no piece on c6; the rest of this line is not checked")
    ]
    # a continuation that would end the game (c4-c8 next to the king on d8, taken against e8) is not assumed
    ends = tyr("pc2 Pd4 pe4 Kd8 pe8 Ph1", "c2-c4xd4 2. h1-h2 c8-c7").replace("[Position", '[Rules "berw=a"] [Position')
    assert errors(ends)[0][:2] == ("G3", 3)
    assert "ber:c berw:a" in described_record(Hnefatafl.from_tags({"Variant": TYR, "Rules": "berw=a"}).settings)


def test_the_positions_searched_for_left_out_continuations_are_counted():
    """`Game.searched`: the positions a ply played beyond its own, found or not (what the search
    for fitting rule sets counts as work)."""
    start = "pc2 Pd4 pe4 pa1 Kg8"

    def searched(moves: str, rules: str = "berw=a") -> int:
        record = parse_record(tyr(start, moves).replace("[Position", f'[Rules "{rules}"] [Position'))
        game = Hnefatafl.from_tags(record.tags)
        replay(record, keep=False, rules=game)
        return game.searched

    assert searched("c2-c4xd4 2. Kg8-g7 c4-c5") == 0  # every ply fits the written position
    assert searched("c2-c4xd4 2. Kg8-g7 c6-c5") == 4  # a look back found c4-c6
    tafl_unwritten._NOT_FOUND.clear()  # (a look back another test made already found nothing: kept, it plays nothing)
    assert searched("c2-c4xd4 2. Kg8-g7 c6-c5xb5") == 22  # one that found nothing, the ply illegal
    assert searched("c2-c4xd4 2. Kg8-g7 c6-c5xb5") == 0  # the same again: what it found is kept
    assert searched("c2-c4xd4 2. Kg8-g7 c6-c5", "berw=n") == 0  # no look back
    # after the end (a2-a4 takes the king on b4 against c4): a look back from the ply that follows it
    start = "pc2 Pd4 pe4 Kb4 pa2 Ph1"
    assert searched("c2-c4xd4 2. h1-h2 a2-a4") == 0
    assert searched("c2-c4xd4 2. h1-h2 a2-a4 3. Kb4-b5") == 3  # c4-c5 saved him
    tafl_unwritten._NOT_FOUND.clear()
    assert searched("c2-c4xd4 2. h1-h2 a2-a4 3. d4-d5") == 27  # nothing did: G13


def test_a_ply_written_after_the_king_is_taken_may_show_that_a_left_out_continuation_saved_him():
    # c2-c4 takes d4; a2-a4 then takes the king on b4 against c4, unless c4 went on (c4-c5: the first move of it)
    start = "pc2 Pd4 pe4 Kb4 pa2 Ph1"
    saved = tyr(start, "c2-c4xd4 2. h1-h2 a2-a4 3. Kb4-b5").replace("[Position", '[Rules "berw=a"] [Position')
    assert said(saved) == [
        ("warning", "G16", 4, "the record leaves out a berserk continuation after c2-c4xd4: c4-c5 (berw: a)")
    ]
    report = check(saved)  # a2-a4 written as the game that went on played it, and the king stays on the board
    assert report.outcome is None and report.canonical[0, 2] == "a2-a4"
    assert report.rules.format_position(report.positions[3]) == board("pc5 pe4 Kb4 pa4 Ph2", 9, "w")
    # a ply far from c4 shows it as well (the king's sides count as near the ply that took him)
    assert [d[:3] for d in said(saved.replace("Kb4-b5", "h2-h3"))] == [("warning", "G16", 4)]
    # the game goes on, and ends where the king is taken on the line kept: b5 between a5 and c5
    ends = saved.replace("Kb4-b5", "Kb4-b5 a4-a5")
    assert errors(ends) == [] and check(ends).outcome.rule == "G7"
    assert said(ends.replace("a4-a5", "a4-a5 4. h2-h3")) == [  # unless c4 went on to c6: no king is taken
        ("warning", "G16", 4, "the record leaves out a berserk continuation after c2-c4xd4: c4-c5 (berw: a)"),
        ("warning", "G16", 6, "the record leaves out a berserk continuation after c2-c4xd4: c4-c6 (berw: a)"),
    ]
    over = "the game is already over (the king was captured (ks: w), G7); no ply may follow"
    assert errors(ends.replace("a4-a5", "a4-a5 4. d4-d5")) == [("G13", 6, over)]
    assert errors(saved.replace("Kb4-b5", "d4-d5")) == [("G13", 4, over)]  # no line has a piece on d4
    uncaptured = tyr(start.replace("Pd4 ", ""), "c2-c4 2. h1-h2 a2-a4 3. Kb4-b5").replace(
        "[Position", '[Rules "berw=a"] [Position'
    )
    assert errors(uncaptured) == [("G13", 4, over)]  # no capture: no left-out continuation
    # under berw:n each left-out continuation captures: c4-c5 takes c6 where a soldier stands
    assert errors(saved.replace('[Rules "berw=a"] ', "")) == [("G13", 4, over)]
    assert said(tyr(start + " Pc6 pc7", "c2-c4xd4 2. h1-h2 a2-a4 3. Kb4-b5")) == [
        ("warning", "G16", 4, "the record leaves out a berserk continuation after c2-c4xd4: c4-c5xc6 (berw: n)")
    ]


def test_a_sites_list_gets_no_king_that_a_left_out_continuation_saved():
    tags = {"Game": "hnefatafl", "Variant": TYR, "Position": board("pc2 Pd4 pe4 Kb4 pa2 Ph1 Pa5 pa6", 9)}

    def read(rules: str) -> tuple[list, list]:  # a2-a4 takes a5, and the king on b4 unless c4 went on
        [source] = read_text("c2-c4xd4 h1-h2 a2-a4xa5 b4-b5\n", "tafl", "x", {**tags, "Rules": rules})
        report = check(source)
        return [d[:3] for d in said(canonical_text(report))], [(p.text, p.comments) for p in report.record.main.plies]

    diagnostics, plies = read("berw=a")
    assert diagnostics == [("warning", "G16", 4)] and plies[2] == ("a2-a4xa5", [])
    diagnostics, plies = read("berw=n")  # no capturing continuation: the king is taken, as the list leaves out
    assert diagnostics == [("error", "G13", 4)]
    assert plies[2] == ("a2-a4xa5/b4", ["tafl reader: the source does not list the captured king; added b4"])


def test_under_leap_a_piece_leaps_over_a_soldier_next_to_it():
    start = "pc2 Pc3 pd5 Pe5 Kd7 Ph8"
    leap = "ber=n berw=y tfr=i leap=y"
    assert errors(record(start, "c2-c4", rules=leap)) == []  # over its enemy
    assert errors(record(start, "c2-c4 2. e5-b5", rules=leap)) == [  # two squares beyond: no leap
        ("G3", 2, "the way is blocked at d5 (leap: y); the rest of this line is not checked")
    ]
    assert errors(record(start, "c2-c4 2. d7-d5", rules=leap))[0][:2] == ("G3", 2)  # onto a piece
    assert errors(record(start, "c2-c4 2. e5-e7", rules=leap)) == []  # nothing to leap over: a move
    assert errors(record("pd5 Pd6 Kd7 Ph8", "d5-d7", rules=leap))[0][:2] == ("G3", 1)  # over the king: no
    assert errors(record(start, "c2-c4")) == [
        ("G3", 1, "the way is blocked at c3; the rest of this line is not checked")
    ]  # without leap
    rules = Hnefatafl.from_tags({"Variant": FETLAR, "Rules": leap})
    position = rules.parse_position(board("pc2 Pc3 Kf6"))
    assert "c2-c4" in rules.legal_plies(position) and "c2-c5" not in rules.legal_plies(position)
    throne = leap + " cens=adk cenp=k"  # a soldier stands on the throne, which only the king passes over
    on_throne = Hnefatafl.from_tags({"Variant": FETLAR, "Rules": throne}).parse_position(board("Kk6 pf5 Pf6"))
    assert "f5-f7" not in Hnefatafl.from_tags({"Variant": FETLAR, "Rules": throne}).legal_plies(on_throne)
    assert errors(record("Kk6 pf5 Pf6", "f5-f7", throne)) == [
        ("G4", 1, "only the king may pass over the throne (f6) (cenp: k); the rest of this line is not checked")
    ]
    slow = Hnefatafl.from_tags({"Variant": FETLAR, "Rules": leap + " spd=1"})  # a leap goes two squares
    assert sorted(p for p in slow.legal_plies(position) if p.startswith("c2")) == ["c2-b2", "c2-c1", "c2-d2"]
    assert errors(record("pc2 Pc3 Kf6", "c2-c4", leap + " spd=1")) == [
        ("G3", 1, "a soldier moves at most 1 square (spd: 1); the rest of this line is not checked")
    ]
    old = next(entry.name for entry in catalogue() if "leap:y" in entry.rules and entry.name in Hnefatafl.presets)
    assert "leap:y" in described_record(Hnefatafl(variant=old).settings)


def test_piece_lists_are_read_in_any_case_in_rules_and_as_otn_writes_them():
    assert Hnefatafl.from_tags({"Variant": FETLAR, "Rules": "cenp=DA cors=k"}).option["cenp"] == "ad"
    assert read_record("dim:5 cenp:Tt start:/5/5/2K2/5/5/")["cenp"] == "ad"  # OTN's letters, case and all
    with pytest.raises(OptionError, match=r"^cenp:Tx is not a list of pieces \(a: attackers"):
        read_record("dim:5 cenp:Tx start:/5/5/2K2/5/5/")  # no letter of OTN's: not read as one
    with pytest.raises(OptionError, match="the board and the start are the variant's"):
        Hnefatafl.from_tags({"Variant": FETLAR, "Rules": "dim=13"})
    with pytest.raises(OptionError, match="unknown rules key 'frob'"):
        Hnefatafl.from_tags({"Variant": FETLAR, "Rules": "frob=1"})
    with pytest.raises(OptionError, match="is not a list of pieces"):
        Hnefatafl.from_tags({"Variant": FETLAR, "Rules": "cenp=x"})


def test_a_rules_entry_without_a_colon_is_said_so_at_its_place():
    """Not read as a key without a value (`esc`: an unknown value of esc)."""
    with pytest.raises(OptionError) as bare:
        read_record("dim:5 esc start:/5/5/2K2/5/5/")
    assert (str(bare.value), bare.value.written, bare.value.at) == ("rules entry 'esc' is not key:value", "esc", 6)


def test_a_value_refused_is_said_as_the_rules_tag_writes_it():
    """The value is read in any case, and was said lowercased: `cens:ttk`, where OTN's letters
    `t` and `T` are apart (h75a)."""
    report = check(f'[Game "hnefatafl"]\n[Variant "{FETLAR}"]\n[Rules "cens=tTK esc=Edgy"]\n\n1... a4-a3 *\n')
    assert [(d.rule, d.column, d.message.split(" (")[0]) for d in report.diagnostics] == [
        ("tag", 14, "cens:tTK is not a list of pieces"),
        ("tag", 22, "unknown value esc:Edgy"),
    ]


def test_a_misspelt_piece_list_suggests_the_lists_nearest_it():
    report = check(f'[Game "hnefatafl"]\n[Variant "{FETLAR}"]\n[Rules "cenp=dkx"]\n\n1... a4-a3 *\n')
    assert [(d.rule, d.line, d.column, d.message, d.suggestions) for d in report.diagnostics] == [
        (
            "tag",
            3,
            14,
            "cenp:dkx is not a list of pieces (a: attackers, d: defenders' soldiers, k: the king; an OTN record's "
            "t c n k m g T C N K M G)",
            ("dk", "adk"),
        )
    ]


def test_a_rules_key_the_variant_holds_is_refused_without_suggesting_itself():
    """(was: "unknown rules key 'dim' … did you mean dim?")"""
    report = check(f'[Game "hnefatafl"]\n[Variant "{FETLAR}"]\n[Rules "dim=5 start=/5/5/2K2/5/5/"]\n\n1. a4-a3 *\n')
    assert [(d.text, d.message, tuple(d.suggestions)) for d in report.diagnostics] == [
        ("dim", "unknown rules key 'dim' for hnefatafl (the board and the start are the variant's)", ()),
        ("start", "unknown rules key 'start' for hnefatafl (the board and the start are the variant's)", ()),
    ]


@pytest.mark.parametrize("key", ["ks", "berw"])
def test_a_rules_key_without_a_value_is_said_to_need_one(key):
    """(was, for ks: "unknown value ks: (known: s, w, c, m, t)", in OTN's colon form)"""
    report = check(f'[Game "hnefatafl"]\n[Variant "tyr-9x9"]\n[Rules "{key}"]\n\n*\n')
    assert [(d.line, d.column, d.text, d.message) for d in report.diagnostics] == [
        (3, 9, key, f"rules key {key} needs a value ({key}=…)")
    ]


# -- every variant: playable, written back, random games ----------------------------------------

PLAYABLE = list(Hnefatafl.presets)  # the catalogue's variants lusoria plays
OPENTAFL = [entry.name for entry in catalogue() if entry.opentafl and entry.name in Hnefatafl.presets]


def test_every_catalogue_variant_plays_or_is_refused_by_name():
    assert [entry.name for entry in catalogue() if entry.opentafl and entry.rules and entry.name not in OPENTAFL] == []
    for name in Hnefatafl.presets:
        rules = Hnefatafl(variant=name)
        assert rules.legal_plies(rules.initial()), name
    described = {entry.name for entry in catalogue() if entry.rules}
    assert set(hnefatafl.refusals()) == described - set(Hnefatafl.presets)
    assert all(
        entry.title + ": " in hnefatafl.refusals()[entry.name]
        for entry in catalogue()
        if entry.name in hnefatafl.refusals()
    )


def test_opentafls_berserk_reads_and_writes_with_its_berserk_moves():
    rules = Hnefatafl(variant="opentafl-berserk-11x11")
    game = random_record(rules, random.Random(1), max_plies=120)  # a game with a knight's berserk jump
    game.tags["Variant"] = "opentafl-berserk-11x11"
    report = check(write_record(game))
    assert report.valid, report.diagnostics
    assert ["e1-c1xb1", "c1=c3xc2"] == [ply.text for ply in report.record.main.plies][82:84]
    otn = write_report(report)
    assert "ber:c" in otn and "kj:r" in otn and "/5c5/" in otn
    assert "\n42. Ne1-c1xb1 Nc1^=c3xc2 i1-j1\n" in otn  # berserk moves in their side's turn, as OpenTafl writes them
    [back] = read_text(otn, "otn", "back.otg")
    assert check(back).record.main == report.record.main and check(back).valid
    [plain] = read_text(otn.replace("Nc1^=c3xc2", "c1=c3xc2"), "otn", "plain.otg")  # lusoria's = too
    assert check(plain).record.main == report.record.main


def test_opentafls_berserk_is_opened_by_the_defenders():
    rules = Hnefatafl(variant="opentafl-berserk-11x11")  # Berserk.getStartingSide(): the defenders (OpenTafl)
    assert rules.turn(rules.initial()) == WHITE and "atkf:n" in described_record(rules.settings)
    opened = '[Game "hnefatafl"] [Variant "opentafl-berserk-11x11"] 1. f4-b4 a8-a9 *'
    assert errors(opened) == []
    assert errors(opened.replace("1. f4-b4 a8-a9", "1. a8-a9"))[0][:2] == ("G2", 1)  # an attacker's move first


@pytest.mark.parametrize("name", sorted(set(PLAYABLE[::7] + OPENTAFL)))
def test_a_variants_rules_record_reads_back_as_the_same_settings(name):
    rules = Hnefatafl(variant=name)
    again = described_settings(read_record(described_record(rules.settings)), hnefatafl.IDS, "Hnefatafl")
    assert again._replace(said={}) == rules.settings._replace(said={})


@pytest.mark.parametrize("name", sorted(set(PLAYABLE[::23] + OPENTAFL)))
def test_otn_of_a_variant_reads_back_to_the_same_record(name):
    rules = Hnefatafl(variant=name)
    game = random_record(rules, random.Random(3), max_plies=30)
    game.tags["Variant"] = name
    report = check(write_record(game))
    assert report.valid, report.diagnostics
    [back] = read_text(write_report(report), "otn", "back.otg")
    unknown = {"?", "????.??.??"}  # the roster's unknowns, which OTN does not write
    assert check(back).record.tags == {tag: value for tag, value in report.record.tags.items() if value not in unknown}
    assert check(back).record.main == report.record.main and check(back).record.result == report.record.result
    plain = "\n".join(
        line
        for line in write_report(report).split("\n")
        if not line.startswith(("[lusoria-variant:", "[lusoria-rules:"))
    )
    [alone] = read_text(plain, "otn", "alone.otg")  # the rules record alone: the same rules
    again = check(alone)
    assert again.valid and again.rules.settings._replace(said={}) == rules.settings._replace(said={})


def test_a_rules_record_no_built_in_game_plays_is_a_variant():
    start = "/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/"
    [source] = read_text(f"[rules:dim:9 esc:c ks:w start:{start}]\n\n1. e2-b2 e3-d3\n", "otn", "x.otg")
    report = check(source)
    assert report.record.tags["Game"] == "hnefatafl" and report.valid
    assert report.rules.option["ks"] == "w" and report.rules.option["esc"] == "c"
    [source] = read_text(f"[rules:dim:9 ber:c kj:r start:{start}]\n\n1. e2-b2\n", "otn", "x.otg")
    report = check(source)
    assert report.valid and (report.rules.option["ber"], report.rules.option["kj"]) == ("c", "r")


# -- the catalogue --------------------------------------------------------------------------------

ENTRY = (
    '[[variant]]\nname = "toy-7x7"\ntitle = "Toy 7×7"\nrules = "dim:7 esc:c start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/"\n'
)

LAYOUT = (
    '[[variant]]\nname = "toy-7x7-b"\ntitle = "Toy 7×7, second layout"\nlayout_of = "toy-7x7"\n'
    'rules = "dim:7 esc:c start:/3t3/3t3/3T3/t1TKTtt/3T3/3t3/3t3/"\n'
)


@pytest.mark.parametrize(
    "text, message",
    [
        ("[[variant]]\nname = 'x'\n", ":1: variant 1 (x): an entry needs a title"),
        (ENTRY + ENTRY, ":5: variant 2 (toy-7x7): the name toy-7x7 is given to an earlier entry"),
        (ENTRY.replace("toy-7x7", "Toy 7"), "a name is lower-case letters and digits joined by hyphens"),
        (ENTRY + 'game = "copenhagen"\n', "either rules (an OTN rules record) or game"),
        (ENTRY.replace("dim:7", "dim:21"), "rules, at 'dim:21': dim:21: a board is 5×5 to 19×19"),
        (ENTRY.replace("esc:c", "esc:q"), "rules, at 'esc:q': unknown value esc:q (known: c, e)"),
        (
            ENTRY.replace("ttTKTtt", "ttTTTtt"),
            "variant 1 (toy-7x7): rules: start: holds 0 kings: a Hnefatafl game has one",
        ),
        (ENTRY.replace("/3t3/3t3/3T3/", "/3t3/3T3/"), "rules: start: has 6 ranks, where the board (dim:7) has 7"),
        (ENTRY.replace("ttTKTtt", "ttTKTt"), "rules: the rank 'ppPKPp' covers 6 squares, not 7"),
        (ENTRY.replace("esc:c", "esc:c cen:h8"), "rules: h8 is not a square of a 7×7 board (a1–g7)"),
        (ENTRY + "colour = 'red'\n", "unknown field colour"),
        (ENTRY + "notes = 3\n", "variant 1 (toy-7x7): notes is a string"),  # (h77a: a field of the wrong type)
        ("variant = 3\n", "a catalogue holds [[variant]] entries only"),  # (h77a: `variant` not a list of tables)
        (ENTRY + "aagenielsen_ids = ['4']\n", "aagenielsen_ids is a list of int"),
        (ENTRY + 'variant = "fetlar"\n', "variant and options are a built-in game's"),
        (LAYOUT.replace("toy-7x7-b", "toy-7x7"), "layout_of names no earlier entry with rules"),
        (
            ENTRY + LAYOUT.replace("esc:c", "esc:e"),
            "variant 2 (toy-7x7-b): a layout of toy-7x7 has its rules but start (differs in esc, start)",
        ),
        (
            ENTRY + LAYOUT.replace("t1TKTtt", "ttTKTtt"),
            "a layout of toy-7x7 has its rules but start (differs in nothing)",
        ),
        (
            ENTRY + LAYOUT + "aagenielsen_ids = [9]\n",
            "a layout of toy-7x7 is read for toy-7x7's aagenielsen types only",
        ),
        (
            ENTRY + LAYOUT + 'aagenielsen = ["Toy tafl 7x7 b"]\n',
            "a layout of toy-7x7 is read for toy-7x7's aagenielsen types only",
        ),
        ("[[variant]\n", "not TOML"),
        ("title = 'x'\n", "a catalogue holds [[variant]] entries only"),
    ],
)
def test_the_catalogues_errors_name_the_file_the_entry_and_the_field(tmp_path, text, message):
    path = tmp_path / "variants.toml"
    path.write_text(text)
    with pytest.raises(CatalogueError) as error:
        load(path)
    assert str(error.value).startswith(str(path)) and message in str(error.value)


def test_a_wrong_entry_is_said_as_the_catalogues_to_mend_not_as_a_bug(tmp_path, monkeypatch):
    """A club that adds its variant and miscounts a rank of its start is told which entry to mend
    (the command said "This is a bug in lusoria, not in the records": found by new-user-9)."""
    path = tmp_path / "tafl_variants.toml"
    path.write_text(hnefatafl.CATALOGUE.read_text("utf-8") + "\n" + ENTRY.replace("ttTKTtt", "ttTKTt"))
    number = len(catalogue()) + 1
    monkeypatch.setattr(hnefatafl, "CATALOGUE", path)
    hnefatafl.catalogues.cache_clear()
    try:
        result = CliRunner().invoke(main, ["explain", FETLAR])
    finally:
        hnefatafl.catalogues.cache_clear()
    assert result.exit_code == 3 and "a bug in lusoria" not in result.output
    assert result.output.startswith(
        f"lusoria: {path}:{path.read_text().count(chr(10)) - 3}: variant {number} (toy-7x7): rules: the rank 'ppPKPp' covers 6 squares, not 7. "
        "The file is lusoria's own data, not a record: mend the entry if you added or changed it; if not, please report it"
    )


def test_the_catalogue_loads_and_names_each_aagenielsen_type():
    entries = load(hnefatafl.CATALOGUE)
    assert len(entries) > 150 and entries == catalogue()
    games = FORMATS["aage"].games
    assert games["Copenhagen Hnefatafl 11x11"] == {"Game": "copenhagen"}
    assert games["Fetlar Hnefatafl 11x11"] == {"Game": "hnefatafl", "Variant": FETLAR}
    second = {"Game": "hnefatafl", "Variant": "sea-battle-tafl-13x13-b"}  # a type's other layout, by either name
    assert games["Sea battle tafl 13x13/2"] == games["Sea battle tafl 13x13#34/2"] == second
    assert "Sea battle tafl 13x13#34/3" not in games and "Fetlar Hnefatafl 11x11/2" not in games
    assert all(
        f"{kind}#{key}" in games for entry in entries for kind in entry.aagenielsen for key in entry.aagenielsen_ids
    )


TOY = '`Game "hnefatafl"`, `Variant "toy-7x7"`'


@pytest.mark.parametrize(
    "names, listed",
    [
        ('aagenielsen = ["Toy tafl 7x7"]\n', [f"+ | `Toy tafl 7x7` | {TOY} |"]),
        ("", None),  # a club's house variant, known to neither site (found by new-user-9)
    ],
    ids=["aagenielsen-type", "club"],
)
def test_adding_a_tafl_game_is_one_entry_of_data(tmp_path, monkeypatch, names, listed):
    """A catalogue with one more entry: its records validate and show, an aagenielsen.dk file of its
    type reads, `lusoria explain hnefatafl` and docs/formats.md's lists (as cog writes them) name
    it, and nothing else reads differently: random games of every fifth variant (each with an
    illegal ply added at its end), aagenielsen.dk files of other types, the same verdicts,
    diagnostics and plies, and the docs' lists the same rows."""
    rng = random.Random(40)
    others = [f'[Game "hnefatafl"] [Variant "{name}"] *' for name in PLAYABLE[:20]] + [
        f'[Game "hnefatafl"] [Variant "{FETLAR}"] 1... d1-d3 f4-d4 2. a4-c4 *'
    ]
    for name in PLAYABLE[::5]:
        played = write_record(random_record(Hnefatafl(variant=name), rng, 30))
        others += [played, re.sub(r"\s(\S+)\n$", r" a1-a1 \1\n", played)]  # (a move that does not move)
    scrapes = sorted((ROOT / "tests" / "fixtures" / "formats" / "aage").glob("*.json"))
    others += [source for path in scrapes for source in read_text(path.read_text(), "aage", str(path))]
    before = [check(text).verdict() for text in others]
    assert len(others) > 90 and sum(not verdict.valid for verdict in before) > 30
    lists = formats_page_lists(monkeypatch)
    listed = listed or house_variant_listed(lists, f"| Toy 7×7 | 7×7 | {TOY} |")
    with catalogue_with(tmp_path, monkeypatch, ENTRY + names):
        report = check('[Game "hnefatafl"] [Variant "toy-7x7"] 1... d7-f7 d5-e5 2. d1-b1 *')
        assert report.valid, report.diagnostics
        shown = Hnefatafl(variant="toy-7x7")
        assert shown.render(shown.initial()).splitlines()[0] == "7 # . . p . . #"
        if names:
            scrape = (
                '[{"AageGameTypeName": "Toy tafl 7x7", "WhoMovedFirst": "black", "Moves": "d7-f7 d5-e5", '
                '"WhoWon": "Ongoing"}]'
            )
            [source] = read_text(scrape, "aage", "toy.json")
            assert source.parsed.tags["Variant"] == "toy-7x7" and check(source).valid
        explained = CliRunner().invoke(main, ["explain", "hnefatafl"]).output
        assert re.search(r"\n  toy-7x7 +Toy 7×7\n", explained)
        changed = difflib.ndiff(lists, formats_page_lists(monkeypatch))
        assert [line for line in changed if line[:2] in ("+ ", "- ")] == listed
        assert [check(text).verdict() for text in others] == before


NO_HOUSE_VARIANTS = "None today: every entry is an aagenielsen.dk type, another layout of one, or an OpenTafl variant."


def house_variant_listed(lists: list[str], row: str) -> list[str]:
    """The lines a house variant's entry changes in docs/formats.md's `lists`: its row, and the
    table's head in place of the sentence when it is the first (found by new-user-18)."""
    if NO_HOUSE_VARIANTS not in lists:
        return [f"+ {row}"]
    return [f"- {NO_HOUSE_VARIANTS}", "+ | title | board | lusoria |", "+ | --- | --- | --- |", f"+ {row}"]


def formats_page_lists(monkeypatch) -> list[str]:
    """The lines of docs/formats.md's lists of the catalogue's entries, as cog would write them now:
    its blocks that call a function of docs/cogs.py without arguments (each a list)."""
    page = (ROOT / "docs" / "formats.md").read_text(encoding="utf-8")
    written: list[str] = []
    monkeypatch.setitem(sys.modules, "cog", SimpleNamespace(out=written.append))
    spec = importlib.util.spec_from_file_location("cogs", ROOT / "docs" / "cogs.py")
    cogs = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(cogs)
    for name in re.findall(r"\[\[\[cog from cogs import (\w+); \1\(\) \]\]\]", page):
        getattr(cogs, name)()
    return "".join(written).splitlines()


@contextmanager
def catalogue_with(tmp_path, monkeypatch, entries):
    """The catalogue with more `entries` while the block runs."""
    path = tmp_path / "tafl_variants.toml"
    path.write_text(hnefatafl.CATALOGUE.read_text("utf-8") + "\n" + entries)
    monkeypatch.setattr(hnefatafl, "CATALOGUE", path)
    hnefatafl.catalogues.cache_clear()  # (Hnefatafl.presets with it)
    monkeypatch.setattr(FORMATS["aage"].games, "_games", None)
    try:
        yield
    finally:
        hnefatafl.catalogues.cache_clear()
        FORMATS["aage"].games._games = None


def test_the_variants_explain_knows_are_made_once_and_again_for_a_catalogue_read_again(tmp_path, monkeypatch):
    """`variants()` is one table while the catalogue stays (`--game NAME` looks up each variant an
    archive holds), and a catalogue read again, an entry added, is seen at once."""
    before = variants()
    assert variants() is before and "toy-7x7" not in before["hnefatafl"]
    assert tags_of_name("hnefatafl/toy-7x7") is None
    with catalogue_with(tmp_path, monkeypatch, ENTRY.replace("Toy", "Toy once")):  # (no catalogue other tests read)
        assert variants()["hnefatafl"]["toy-7x7"].title == "Toy once 7×7"
        assert "toy-7x7" in Hnefatafl.presets  # was fixed when the class was made: the test set it
        assert tags_of_name("hnefatafl/toy-7x7") == {"Game": "hnefatafl", "Variant": "toy-7x7"}
    retitled = tmp_path / "retitled.toml"  # the presets as they were: only the catalogue's text changed
    retitled.write_text(hnefatafl.CATALOGUE.read_text("utf-8").replace("(Saami Tablut)", "(Saami)", 1))
    monkeypatch.setattr(hnefatafl, "CATALOGUE", retitled)
    hnefatafl.catalogues.cache_clear()
    try:
        assert variants()["tablut"]["saami-tablut"].title == "Historical Hnefatafl 9×9 (Saami)"
    finally:
        hnefatafl.catalogues.cache_clear()


def test_an_entry_refused_by_its_reason_is_no_preset_though_the_engine_plays_its_rules(tmp_path, monkeypatch):
    """`refused` refuses an entry whose rules the engine would play (known too little to check them)."""
    refused = ENTRY + 'refused = "its rules are not known well enough"\n'
    with catalogue_with(tmp_path, monkeypatch, refused):
        assert "toy-7x7" not in hnefatafl.presets()
        assert hnefatafl.refusals()["toy-7x7"] == "Toy 7×7: its rules are not known well enough"


def test_an_entry_of_a_built_in_game_that_is_no_tafl_game_leaves_opentafls_names_as_they_were(tmp_path, monkeypatch):
    """A user's entry played by Latrunculi, which has no tafl board to size OpenTafl's names by."""
    before = hnefatafl.opentafl_variants()
    seneca = '[[variant]]\nname = "club-seneca"\ntitle = "Club"\ngame = "latrunculi"\n'
    with catalogue_with(tmp_path, monkeypatch, seneca):
        assert catalogue()[-1].game == "latrunculi"
        assert hnefatafl.opentafl_variants() == before


def test_a_game_whose_moves_fit_two_other_layouts_alike_is_read_from_the_first(tmp_path, monkeypatch):
    layouts = "".join(
        LAYOUT.replace("toy-7x7-b", f"toy-7x7-{letter}").replace("/3t3/3t3/3T3/t1TKTtt/3T3/3t3/3t3/", start)
        for letter, start in (("b", "/3t3/3t3/3T3/ttTKTtt/3T3/3t3/2t4/"), ("c", "/2t4/3t3/3T3/ttTKTtt/3T3/3t3/2t4/"))
    )  # c7 for d7, and in the third layout c1 for d1 too
    with catalogue_with(tmp_path, monkeypatch, ENTRY + 'aagenielsen = ["Toy tafl 7x7"]\n' + layouts):
        for moves, variant, plies in (("c7-b7 d3-a3", "toy-7x7", [1]), ("c7-b7 d3-a3 c1-b1", "toy-7x7-c", [])):
            scrape = f'{{"AageGameTypeName": "Toy tafl 7x7", "Moves": "{moves}"}}'
            [source] = read_text(scrape, "aage", "toy.json")
            report = check(source)
            assert (report.tags["Variant"], [d.ply for d in report.diagnostics]) == (variant, plies)


def test_a_king_strong_on_the_throne_only():
    """ks:t, lusoria's own value (aagenielsen.dk's Brandubh weak-throne): four sides on the throne,
    two anywhere else, beside it too."""
    assert errors(record("Kf5 pg5 pf3", "f3-f4xf5", "ks=t")) == []
    assert errors(record("Kf6 pe6 pf8", "f8-f7xf6", "ks=t"))[0][:3] == (
        "G7",
        1,
        "the move captures nothing, not f6 (ks: t); the rest of this line is not checked",
    )


def test_the_options_an_otn_rules_record_writes_freely_list_no_values():
    """What a message and the editor's table of options say a value may be: a board's squares and
    sizes as OTN writes them, the closed options' values each."""
    assert (
        Hnefatafl.known_values("cor") == "a value as an OTN rules record writes it" and Hnefatafl.choices("cor") == ()
    )
    assert Hnefatafl.known_values("ks") == ", ".join(Hnefatafl.options["ks"]) and Hnefatafl.choices("ks")


@pytest.mark.parametrize(
    "value, limits",
    [
        ("-1", (0, 0, 0)),  # 0: no limit
        ("1000", (1000, 1000, 1000)),
        ("1", (1, 1, 1)),  # (the least)
        ("2,-1", (2, 0, 0)),  # the attackers', the defenders' (the king's too)
        ("2,-1,-1,-1,3,-1,-1,4", (2, 3, 4)),  # tcnk TCNK: a soldier's of each side, the king's
        ("2,-1,-1,-1,-1,3,-1,-1,4,-1", (2, 3, 4)),  # tcnkm TCNKM
        ("2,-1,-1,-1,-1,-1,3,-1,-1,4,-1,-1", (2, 3, 4)),  # tcnkmg TCNKMG
        ("-1,-1,-1,-1,-1,-1,-1,-1,-1,1,-1,-1,", (0, 0, 1)),  # ended by a comma, as OpenTafl writes it (h77b: Magpie)
    ],
)
def test_an_otn_speed_limit_reads_as_its_soldiers_and_kings_limits(value, limits):
    assert _speed(value) == limits


@pytest.mark.parametrize("value", ["1001", "0", "1,2,3", "two", "2,,", ","])
def test_an_otn_speed_limit_out_of_its_forms_is_an_option_error(value):
    message = f"spd:{value} is not a speed limit (-1, N, attackers,defenders, or 8, 10 or 12 numbers)"
    with pytest.raises(OptionError, match=f"^{re.escape(message)}$"):
        _speed(value)


@pytest.mark.parametrize(
    "limits, written",
    [((0, 0, 0), "-1"), ((3, 3, 3), "3"), ((2, 0, 0), "2,-1"), ((2, 3, 4), "2,-1,-1,-1,-1,3,-1,-1,4,-1")],
)
def test_speed_limits_are_written_as_short_as_otn_writes_them(limits, written):
    assert _speed_record(*limits) == written and _speed(written) == limits


def test_a_description_with_a_piece_lusoria_does_not_play_is_refused_at_its_start_entry():
    start = "/5ttt5/6t6/13/t12/t12/tt3TgT3tt/t4TKTT3t/tt3TTT3tt/t12/t12/13/6t6/5ttt5/"  # g: a guard
    with pytest.raises(OptionError) as refused:
        described_settings(read_record(f"dim:13 esc:c start:{start}"), hnefatafl.IDS, "Hnefatafl")
    assert (refused.value.tag, refused.value.written, str(refused.value)) == (
        "Variant",
        "start",
        "start: 'g' is not a piece lusoria plays (t, T, K, commanders c C, knights n N, mercenaries m M): "
        "guards are not supported",
    )


def test_an_unknown_variant_reads_the_games_names_and_notes_once_for_every_record(tmp_path, monkeypatch):
    """Every record of a Variant its game has not (a folder of `[Game "tablut"] [Variant "Tyr 13x13"]`)
    read every name other programs give a variant and made the catalogue's notes anew (8 ms a record,
    1 ms once made): made once for the games registered and the catalogues read, said alike; made
    again when catalogues of other entries are read (of this test's own: made for the same ones by an
    earlier test, they were kept, and `pytest tests/validator/test_hnefatafl.py` failed here)."""
    record = '[Game "tablut"]\n[Variant "{}"]\n1. e3-c3 *\n'
    said = [check(record.format(variant)).diagnostics[0].message for variant in ("Tyr 13x13", "saami-tablut")]
    made: list[object] = []
    monkeypatch.setattr(hnefatafl, "_names_elsewhere", lambda: made.append("names") or {})
    monkeypatch.setattr(hnefatafl, "_names_elsewhere_of", lambda entry: made.append(entry) or ())
    assert [check(record.format(variant)).diagnostics[0].message for variant in ("Tyr 13x13", "saami-tablut")] == said
    assert said[0].endswith("; hnefatafl has it") and said[1].endswith('is written [Game "tablut"] [Variant "aage"]')
    assert made == []
    with catalogue_with(tmp_path, monkeypatch, ENTRY + 'notes = "read again"\n'):  # another entry, this test's
        assert Hnefatafl.variant_notes()["toy-7x7"].notes == "read again" and len(made) > 1


@pytest.mark.parametrize(
    "pieces, move, said",
    [
        ("Kf9 pc5 Nd5 pf5", "f5-e5xKd5", "a knight"),
        ("Kf9 pc5 Cd5 pf5", "f5-e5xKd5", "a commander"),
        ("Kf9 pc5 Md5 pf5", "f5-e5xKd5", "a mercenary"),
        ("Kf9 pc5 Nd5 pf5", "f5-e5xPd5", "a knight"),  # P, a soldier's letter, is not a knight's (review-45h)
        ("Kf9 pc5 Cd5 pf5", "f5-e5xPd5", "a commander"),
    ],
)
def test_a_captured_piece_the_notation_names_no_letter_for_is_offered_its_square_alone(pieces, move, said):
    """Not xPd5, P being a soldier's letter (historian-45): a knight's N or a commander's C is no letter of
    a ply (NOTATION.md §4), so its square alone."""
    assert errors(record(pieces, move)) == [
        (
            "G5",
            1,
            f"the piece captured on d5 is {said}, which a list names by its square alone: write xd5;"
            " the rest of this line is not checked",
        )
    ]


def test_a_captured_knight_named_by_its_square_alone_beside_a_soldiers_letter():
    """The list to write gives each piece its own letter, the knight none (review-45h)."""
    assert errors(record("Kf9 pc5 Nd5 pf5 Pe6 pe7", "f5-e5xKd5/Pe6")) == [
        (
            "G5",
            1,
            "the piece captured on d5 is a knight, which a list names by its square alone: write xd5/e6, or"
            " xd5/Pe6; the rest of this line is not checked",
        )
    ]


@pytest.mark.parametrize(
    "pieces, move, rule, said",
    [
        (
            "Kf9 pc5 Pd5 pf5",
            "f5-e5xKd5",
            "G5",
            "the piece captured on d5 is a soldier, not the king: write xd5, or xPd5",
        ),
        (
            "Kf6 pe6 pg6 pf7 pf3",
            "f3-f5xPf6",
            "G7",
            "the piece captured on f6 is the king, not a soldier: write xf6, or xKf6",
        ),
    ],
)
def test_a_capture_written_with_another_pieces_letter_breaks_the_rule_the_explanation_names(pieces, move, rule, said):
    """G5's and G7's texts said nothing of a capture's letter, which they check (historian-44): `explain` says it."""
    assert errors(record(pieces, move)) == [(rule, 1, f"{said}; the rest of this line is not checked")]
    explained = CliRunner().invoke(main, ["explain", rule]).output
    assert (
        "so is a captured piece written with another's letter (xKd5 on a soldier: G5; xPf6 on\n  the king: G7)"
        in explained
    )


def test_the_names_elsewhere_a_caller_changes_are_its_own():
    """`names_elsewhere()` handed out the table made once: a caller that changed it changed every
    later reading of aagenielsen.dk's files."""
    names = Hnefatafl.names_elsewhere()
    name, tags = next(iter(names.items()))
    tags["Game"] = "changed"
    del names[name]
    assert Hnefatafl.names_elsewhere()[name]["Game"] != "changed"


def test_the_presets_are_read_only_a_caller_changing_them_is_refused_and_the_next_caller_sees_them_whole():
    first = next(iter(Hnefatafl.presets))
    with pytest.raises(TypeError, match="^cannot set 'mine' in a Presets: it is read-only"):
        Hnefatafl.presets["mine"] = {"dim": "9"}
    with pytest.raises(TypeError, match="^cannot set 'dim' in a ReadOnly: it is read-only"):
        Hnefatafl.presets[first]["dim"] = "99"
    assert "mine" not in Hnefatafl.presets
    assert Hnefatafl(variant=first).preset_options(first)["dim"] != "99"


def test_a_board_described_is_kept_by_the_options_that_make_it_and_no_other():
    """`described_board` keeps each board it made (`lusoria rules` tries some 2,000 sets of options on a
    record, sharing a few boards): of every catalogue variant, and of each with one of the options a board
    is made of changed, it gives what the board's own functions give, whatever was asked before."""
    described = []
    for name in Hnefatafl.presets:
        option = Hnefatafl.preset_options(name)
        board = tafl_rules.board_of(option, "Hnefatafl")
        made = (board, tafl_settings.start_of(board, "Hnefatafl"), tafl_rules._region(option, board))
        assert tafl_rules.described_board(option, "Hnefatafl") == made, name
        described.append(made)
    rachunek = Hnefatafl.preset_options("rachunek-tablut-9x9")
    _, _, region = tafl_rules.described_board(rachunek, "Hnefatafl")
    for key, value, square in (("afor", "a5", 36), ("cor", "a1", 0), ("cen", "d4", 30)):
        board, start, changed = tafl_rules.described_board({**rachunek, key: value}, "Hnefatafl")
        assert changed != region and changed[square] != 0, key
    own = tafl_rules.described_board(rachunek, "Hnefatafl")[0]  # (the defenders first, escaping to any edge)
    assert (own.start[-1], own.corner_escape) == ("w", False)
    assert tafl_rules.described_board({**rachunek, "atkf": "y"}, "Hnefatafl")[0].start[-1] == "b"
    assert tafl_rules.described_board({**rachunek, "esc": "c"}, "Hnefatafl")[0].corner_escape is True


def test_the_rules_written_alike_differ_only_in_how_records_write_berserk_moves():
    """`written_alike` (a query by a type's name finds its records under each): the rules, then the rules with each
    other value of berw that says only how records write berserk moves (not `a`, under which a left-out
    continuation need not capture: review71), every other option kept as given (ks=w here), the variant too; a
    game without such options: itself."""
    rules = hnefatafl.Hnefatafl({"ks": "w", "berw": "u"}, "berserk-hnefatafl-11x11")
    alike = rules.written_alike()
    assert [game.option["berw"] for game in alike] == ["u", "y", "n"]
    assert {(game.variant, game.option["ks"]) for game in alike} == {("berserk-hnefatafl-11x11", "w")}
    assert [other for game in alike for other in game.option if game.option[other] != rules.option[other]] == [
        "berw"
    ] * 2
    old_tyr = hnefatafl.Hnefatafl(variant="old-tyr-15x15")  # (berw:a, another game: review71b)
    assert [game.option["berw"] for game in old_tyr.written_alike()] == ["a"]
    tablut = api.GAMES["tablut"]({"first": "white"}, "aage")
    assert [game.option for game in tablut.written_alike()] == [tablut.option]


# -- h77a: mutation-testing gaps -------------------------------------------------------------------


def test_a_lone_edge_soldier_is_no_shieldwall_under_swf_n():
    """A line of one piece is an ordinary custodial capture (C7), never a wall: under swf:n a soldier on the
    edge between two attackers, which a move fills the front of, stays (the filler is no flank, behind it is
    the board's edge); two soldiers so shut in are a wall and go."""
    assert errors(record("Kf6 Pc1 pb1 pd1 pc5", "c5-c2", "sw=w swf=n")) == []
    assert errors(record("Kf6 Pc1 pb1 pd1 pc5", "c5-c2xc1", "sw=w swf=n")) == [
        ("G5", 1, "the move captures nothing, not c1; the rest of this line is not checked")
    ]
    assert errors(record("Kf6 Pc1 Pd1 pb1 pe1 pd2 pc5", "c5-c2xc1/d1", "sw=w swf=n")) == []


def test_linnaean_capture_needs_the_three_other_sides_of_the_throne():
    """linc:y: a defender beside the king on the throne is captured against him only when attackers hold
    the throne's three other sides; two are not enough."""
    assert errors(record("Kf6 Pe6 pf7 pf5 pd4", "d4-d6xe6", "linc=y")) == [
        ("G5", 1, "the move captures nothing, not e6 (ka: y); the rest of this line is not checked")
    ]
    assert errors(record("Kf6 Pe6 pf7 pf5 pd4", "d4-d6", "linc=y")) == []


def test_a_piece_moves_within_a_region_that_it_may_not_re_enter():
    """aforre lists the pieces that may stop on an attackers' fort coming from another square: an attacker
    left out of it moves from one of the fort's squares to another (the same region), not onto it from
    outside."""
    fort = "afor=c1,d1 afors=a aforre=dk"
    assert errors(record("Kf6 pc1 pa9", "c1-d1", fort)) == []
    assert errors(record("Kf6 pe1 pa9", "e1-d1", fort)) == [
        (
            "G4",
            1,
            "no piece may stop on an attackers' fort (d1) (aforre: dk); the rest of this line is not checked",
        )
    ]


def test_a_wrong_side_after_the_start_does_not_name_who_moves_first():
    """G2's message names atkf only at the start, where who moves first is why; later it is the turn."""
    assert errors(record("Kc3 pa9", "a9-a8 2. a8-a7")) == [
        ("G2", 2, "the piece on a8 is Black's, and White is to move; the rest of this line is not checked")
    ]


def test_threefold_repetition_ends_on_the_third_occurrence_not_the_second():
    """tfr:d (repeats twice before): the position's second occurrence (ply 5) plays on; the third (ply 9)
    ends the game."""
    rules = Hnefatafl.from_tags({"Variant": FETLAR, "Rules": "tfr=d"})
    position = rules.parse_position(board("Kc3 ph8", turn="w"))
    ended = []
    for number, ply in enumerate("Kc3-c4 h8-h7 Kc4-c3 h7-h8 Kc3-c4 h8-h7 Kc4-c3 h7-h8 Kc3-c4".split(), 1):
        played = rules.play(position, ply)
        position = played.position
        if played.outcome is not None:
            ended.append((number, played.outcome.rule))
    assert ended == [(9, "G12")]


def test_commanders_take_no_king_against_the_throne_even_a_commander_on_it():
    """G7's commander sandwich is never against the throne: under cens=adk a commander may stand on it,
    and a commander closing the king beside the throne against that one does not capture him (ks: s)."""
    assert errors(record("Kf7 cf6 cf9 Pd4", "f9-f8 2. d4-d3", "cens=adk")) == []


def test_an_attackers_commander_touching_the_space_spoils_an_exit_fort():
    """G9: no attacker, of any kind, may touch the fort's space: a commander beside its empty square keeps
    the game going (the same space with a defender there is a fort)."""
    assert errors(record("Kd1 Pc1 Pd2 Pe2 cf1 Ph6", "h6-h5 f1-g1", "efe=y", turn="w")) == []
    assert outcome("Kd1 Pc1 Pd2 Pe2 Pf1 Ph6 pk6", "h6-h5", "efe=y", "w") == (
        "G9",
        "the king is in an exit fort on the edge (efe: y)",
    )


def test_a_capture_that_ends_the_game_leaves_no_piece_to_move_again():
    """G15: berserk moves follow a capture only while the game goes on; after the king's capture the position
    is the plain one, the other side to move, though the capturer could capture again."""
    rules = Hnefatafl.from_tags({"Variant": FETLAR, "Rules": "ber=c ks=w"})
    played = rules.play(rules.parse_position(board("Kc3 pc2 pc6 Pf4 pg4")), "c6-c4")
    assert played.outcome is not None and played.outcome.rule == "G7"
    assert played.position.turn == WHITE and getattr(played.position, "berserker", -1) == -1


def test_an_attackers_commander_is_captured_on_three_or_four_sides_under_cc_too():
    """cc sets how many sides close a commander of either side: an attackers' commander between two
    defenders stands under cc:3, a third side takes it."""
    assert errors(record("Kk6 ce5 Pd5 Pf7 pa9", "f7-f5xe5", "cc=3", turn="w")) == [
        ("G5", 1, "the move captures nothing, not e5; the rest of this line is not checked")
    ]
    assert errors(record("Kk6 ce5 Pd5 Pe4 Pf7 pa9", "f7-f5xe5", "cc=3", turn="w")) == []
    assert errors(record("Kk6 ce5 Pd5 Pf7 pa9", "f7-f5xe5", turn="w")) == []  # cc:2, as a soldier


def test_a_held_throne_is_no_side_of_a_commanders_capture():
    """cc:3 counts the mover's pieces and empty hostile squares: the throne holding a king who does not
    capture (ka: n) is neither, though it is hostile to attackers when held (cenh: a)."""
    assert errors(record("Kf6 cf7 Pe8 Pg8 pa9", "e8-e7 a9-a8 2. g8-g7xf7", "cc=3 ka=n", turn="w")) == [
        (
            "G5",
            3,
            "the move captures nothing, not f7 (the king does not capture by standing against it, ka: n); the rest "
            "of this line is not checked",
        )
    ]


def test_linnaean_capture_is_against_the_king_on_the_throne_only():
    """linc:y: the king off the throne, shut in on three sides, is no anvil for his own soldier."""
    assert errors(record("Kc6 Pd6 pc7 pc5 pb6 pe9", "e9-e6xd6", "linc=y")) == [
        ("G5", 1, "the move captures nothing, not d6 (ka: y); the rest of this line is not checked")
    ]


def test_a_king_strong_on_the_throne_only_is_not_taken_between_two_there():
    """ks:t: on the throne two attackers on opposite sides do not capture him."""
    assert errors(record("Kf6 pf5 pf8 Pa2", "f8-f7xf6", "ks=t")) == [
        ("G7", 1, "the move captures nothing, not f6 (ks: t); the rest of this line is not checked")
    ]
    assert errors(record("Kf6 pf5 pf8 Pa2", "f8-f7 2. a2-a3", "ks=t")) == []


def test_commanders_take_the_king_against_a_corner_only_not_a_fort():
    """G7's commander sandwich closes against a hostile corner, not against an empty attackers' fort
    hostile to the king (aforh: dk)."""
    assert errors(record("Kd2 cd4 Pk5", "d4-d3 2. k5-k4", "afor=d1")) == []


def test_an_exit_fort_wall_beside_a_corner_is_not_safe_against_it():
    """G9: the empty corner a1 is hostile, no shelter: the soldier on a2 could be captured from a3, so no
    fort; with a defender on a3 it is one."""
    assert errors(record("Kc1 Pb1 Pd1 Pa2 Pd2 Pb3 Pc3 Ph6 pk6", "h6-h5 k6-k7", "efe=y", turn="w")) == []
    assert outcome("Kc1 Pb1 Pd1 Pa2 Pa3 Pd2 Pb3 Pc3 Ph6 pk6", "h6-h5", "efe=y", "w") == (
        "G9",
        "the king is in an exit fort on the edge (efe: y)",
    )


def test_an_exit_fort_on_the_top_edge_and_a_wall_open_along_its_file():
    """G9 on the top edge (the wall sheltered from above, inside), and a wall soldier beside the space
    whose file is open on both sides (c4, c6): no fort; sheltered there, a fort."""
    assert outcome("Kd11 Pc11 Pd10 Pe10 Pf10 pk6", "f10-f11", "efe=y", "w") == (
        "G9",
        "the king is in an exit fort on the edge (efe: y)",
    )
    assert errors(record("Ka5 Pa4 Pa6 Pb4 Pb6 Pc7 pk6", "c7-c5 k6-k7", "efe=y", turn="w")) == []
    assert outcome("Ka5 Pa4 Pa6 Pb4 Pb6 Pc4 Pc6 Pd5 pk6", "d5-c5", "efe=y", "w") == (
        "G9",
        "the king is in an exit fort on the edge (efe: y)",
    )


def test_a_defender_on_a1_keeps_the_defenders_from_being_encircled():
    """G10 on a board without corners: a soldier on a1, the first square, reaches the edge."""
    assert errors(record("Kc9 pc10 pb9 pd9 pb8 pd8 pc6 Pa1", "c6-c7 2. a1-a2", "surf=y cor=")) == []


def test_encirclement_is_judged_after_the_attackers_move_not_the_defenders():
    """G10 is checked after an attacker's move: a defender leaping into the ring (leap: y) does not end the
    game; the attackers' next move does."""
    assert errors(record("Kc9 pc10 pb9 pd9 pb8 pd8 pc7 Pc6 pk5", "c6-c8 k5-k4", "surf=y leap=y", turn="w")) == []
    assert outcome("Kc9 pc10 pb9 pd9 pb8 pd8 pc7 Pc6 pk5", "c6-c8 k5-k4", "surf=y leap=y", "w") == (
        "G10",
        "the attackers encircle every defender (surf: y)",
    )


def test_encirclement_searches_on_past_a_pocket_of_several_defenders():
    """G10: every defender must be shut in: after a pocket of two soldiers (c8, c9) the search goes on to
    the king and the soldier outside it, who reach the edge."""
    assert errors(record("Kf3 Pc8 Pc9 Pg10 pc10 pb9 pd9 pb8 pd8 pc6", "c6-c7 2. Kf3-f4", "surf=y")) == []


def test_a_commander_jumps_two_squares_only_never_a_longer_move_over_a_soldier():
    """G14: a jump lands on the square just beyond the soldier: a3 further is a move, blocked at a5."""
    assert errors(record("Kf6 ca4 Pa5 Pk5", "a4-a7")) == [
        ("G3", 1, "the way is blocked at a5; the rest of this line is not checked")
    ]


def test_a_restricted_jump_may_land_on_a_square_of_a_region():
    """kj:r: the king's jump from or to a square of a region: onto the empty throne from a plain square."""
    assert errors(record("Kf8 pf7 pa2", "Kf8-f6", "kj=r", turn="w")) == []


def test_under_leap_no_piece_leaps_over_the_king():
    """leap:y: a piece leaps over a soldier of either side, never over the king."""
    leap = "ber=n berw=y tfr=i leap=y"
    assert errors(record("pd5 Kd6 Ph8", "d5-d7", rules=leap)) == [
        ("G3", 1, "the way is blocked at d6 (leap: y); the rest of this line is not checked")
    ]


def test_the_legal_plies_under_leap_over_and_onto_the_squares_of_regions():
    """leap:y's legal plies (suggestions, the side without a move): over a soldier on the throne where all
    pass over it (cenp: adk), the king onto the empty throne, no soldier onto it (cens: k), and a leap of a
    piece whose speed limit is two squares (spd: 2)."""
    leap = "ber=n berw=y tfr=i leap=y"
    over = Hnefatafl.from_tags({"Variant": FETLAR, "Rules": leap + " cens=adk"})
    assert "f5-f7" in over.legal_plies(over.parse_position(board("Kk6 pf5 Pf6")))
    rules = Hnefatafl.from_tags({"Variant": FETLAR, "Rules": leap})
    assert "Kf4-f6" in rules.legal_plies(rules.parse_position(board("Kf4 Pf5 pk6", turn="w")))
    assert "f4-f6" not in rules.legal_plies(rules.parse_position(board("Kk6 pf4 Pf5")))
    two = Hnefatafl.from_tags({"Variant": FETLAR, "Rules": leap + " spd=2"})
    assert "c2-c4" in two.legal_plies(two.parse_position(board("pc2 Pc3 Kf6")))


def test_a_throne_no_piece_may_stop_on_is_said_so_without_the_king_having_left_it():
    """cens empty: no piece, the king neither, may stop on the throne, which G4 says plainly (", once the king
    has left it," is for cenre keeping him from going back)."""
    assert errors(record("Kc3 pf9", "f9-f6", "cens=")) == [
        ("G4", 1, "no piece may stop on the throne (f6) (cens: ); the rest of this line is not checked")
    ]


@pytest.mark.parametrize(
    "text, said",
    [
        ("dim:9 ks:w ks:s start:/9/9/9/9/4K4/9/9/9/9/", "the rules key ks appears twice"),
        ("dim:9 start:/9/9/9/9/4K4/9/9/9/9/ starti:/9/9/9/9/4K4/9/9/9/9/", "the rules key start appears twice"),
        ("dim:9 ks: start:/9/9/9/9/4K4/9/9/9/9/", "unknown value ks: (known: s, w, c, m, t)"),
        (
            "dim:9 start:/9/9/9/9/4K4/9/9/9/x9/",
            "start:/9/9/9/9/4K4/9/9/9/x9/ is not an OTN position record (ranks of t c n k m g T C N K M G and "
            "counts of empty squares, between slashes)",
        ),
    ],
)
def test_an_otn_rules_record_refuses_a_key_given_twice_an_empty_value_and_a_malformed_start(text, said):
    with pytest.raises(OptionError) as caught:
        read_record(text)
    assert str(caught.value) == said


def test_a_pattern_fits_the_generic_games_boards_from_the_smallest_to_the_largest():
    """A position pattern of a square board of any size the rules records allow (dim 5 to 19), both ends in."""
    assert Hnefatafl.fits_pattern(5, 5) and Hnefatafl.fits_pattern(19, 19)
    assert not Hnefatafl.fits_pattern(4, 4) and not Hnefatafl.fits_pattern(20, 20) and not Hnefatafl.fits_pattern(7, 9)
