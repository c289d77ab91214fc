"""Edges of the generic tafl game's newest rules that a hand mutation audit found unpinned
(docs/testing.md): berw:a's look back (how far back it reaches, how many plies it plays, which
capture it tries first, a second look back to the same capture or past it, the captures it keeps
after one, the squares near a ply, a last ply that ends the game, the searches it keeps), berw:u and berw:a told apart (and
berw:n without berserk moves), squares hostile as written (corw, cenw, aforw, dforw) and
mercenaries (their jumps, speed, regions and material), and a position that remembers left-out
continuations pickled and copied (a sampled run). Each rule's test asserts the rule and the ply."""

import copy
import pickle

import pytest
from test_hnefatafl import FETLAR, TYR, board, errors, free, record, said, started, tyr

from lusoria import accelerator
from lusoria.validator import tafl_unwritten
from lusoria.validator.base import Illegal
from lusoria.validator.hnefatafl import Hnefatafl
from lusoria.validator.replay import check
from lusoria.validator.tafl_continuations import LeftOut
from lusoria.validator.tafl_unwritten import _near


def to_and_fro(first: int, last: int) -> list[str]:
    """Plies `first` to `last` that change nothing near the c-file: the king g8–g7 on White's
    (even) plies, the attacker a1–a2 on Black's (odd) ones."""
    return [
        ("Kg8-g7", "Kg7-g8")[(n - first) // 2 % 2] if n % 2 == 0 else ("a1-a2", "a2-a1")[(n - first) // 2 % 2]
        for n in range(first, last + 1)
    ]


def test_a_look_back_reaches_the_captures_of_the_last_40_plies_and_no_further():
    # c2-c4xd4 (ply 1) leaves c4 to a left-out move: White's c1-c5 passes c4 (an even ply, so
    # that both sides of the bound are reached: the 40th ply after the capture and the 41st)
    start = "pc2 Pd4 pe4 pa1 Kg8 Pc1"

    def passing(at: int) -> str:
        return free(start, " ".join(["c2-c4xd4", *to_and_fro(2, at - 1), "c1-c5"]))

    assert said(passing(40)) == [
        ("warning", "G16", 40, "the record leaves out a berserk continuation after c2-c4xd4: c4-c6 (berw: a)")
    ]
    assert errors(passing(42)) == [("G3", 42, "the way is blocked at c4; the rest of this line is not checked")]


@pytest.mark.skipif(accelerator.compiled(), reason="a compiled module reads its constants as compiled")
def test_a_look_back_plays_at_most_lookback_plays_plies(monkeypatch):
    # c6-c5 (ply 3) is found after c2-c4xd4's c4-c6 by playing 4 plies on the way: 4 are enough, 3 are not
    passing = free("pc2 Pd4 pe4 pa1 Kg8", "c2-c4xd4 2. Kg8-g7 c6-c5")
    monkeypatch.setattr(tafl_unwritten, "_NOT_FOUND", set())  # (a look back that found nothing is kept)
    monkeypatch.setattr(tafl_unwritten, "LOOKBACK_PLAYS", 4)
    assert said(passing) == [
        ("warning", "G16", 3, "the record leaves out a berserk continuation after c2-c4xd4: c4-c6 (berw: a)")
    ]
    monkeypatch.setattr(tafl_unwritten, "LOOKBACK_PLAYS", 3)
    assert errors(passing) == [("G3", 3, "there is no piece on c6; the rest of this line is not checked")]


def test_a_look_back_tries_the_latest_capture_first():
    # c4-c6 after c2-c4xd4 and e6-c6 after e8-e6xf6 both put an attacker on c6: the later one is named
    both = free("pc2 Pd4 pe4 pe8 Pf6 pg6 pa1 Kg8", "c2-c4xd4 2. Kg8-g7 e8-e6xf6 3. Kg7-g8 c6-c5")
    assert said(both) == [
        ("warning", "G16", 5, "the record leaves out a berserk continuation after e8-e6xf6: e6-c6 (berw: a)")
    ]


def test_a_second_look_back_may_go_back_to_the_same_capture():
    # a4-d4 (ply 3) needs c4 left: the first move that leaves it is c4-c5; c7-c8 (ply 5) shows it was c4-c7
    again = free("pc2 Pd4 pe4 pa4 pa1 Kg8", "c2-c4xd4 2. Kg8-g7 a4-d4 3. Kg7-g8 c7-c8")
    assert said(again) == [
        ("warning", "G16", 3, "the record leaves out a berserk continuation after c2-c4xd4: c4-c5 (berw: a)"),
        ("warning", "G16", 5, "the record leaves out a berserk continuation after c2-c4xd4: c4-c7 (berw: a)"),
    ]


def test_a_second_look_back_may_go_back_past_the_capture_the_first_went_back_to():
    # c6-c5 (ply 5) needs a piece on c6: the latest capture's e6-c6 gives one; e6-e7 (ply 7) shows that
    # e6 stayed, and c2-c4xd4's c4-c6 gave it: the plies since ply 1 are replayed as written, once each
    both = free("pc2 Pd4 pe4 pe8 Pf6 pg6 pa1 Kg8", "c2-c4xd4 2. Kg8-g7 e8-e6xf6 3. Kg7-g8 c6-c5 4. Kg8-g7 e6-e7")
    assert said(both) == [
        ("warning", "G16", 5, "the record leaves out a berserk continuation after e8-e6xf6: e6-c6 (berw: a)"),
        ("warning", "G16", 7, "the record leaves out a berserk continuation after c2-c4xd4: c4-c6 (berw: a)"),
    ]


def test_a_look_back_keeps_the_capture_it_went_back_to_among_the_latest_8():
    # i1-i2xi3 (ply 1) and c2-c4xd4 (ply 3); a4-d4 (ply 5) finds c4-c5; seven captures follow (plies 6-12),
    # nine in all: the 8 latest still hold c2-c4xd4 (the oldest, i1-i2xi3, goes), so c7-c8 finds c4-c7
    # (game-137-110-12965: a look back lost the capture it had gone back to, 20 plies later)
    start = (
        "pc2 Pd4 pe4 pa4 pi1 Pi3 pi4 pg1 Pg3 pg4 pe1 Pe3 Ph5 pg5 Pf9 pf7 Pf6 Ph9 ph7 Ph6 Pe9 pe7 Pe6 Pg9 pg7 Pg6 Kb6"
    )
    moves = (
        "i1-i2xi3 2. Kb6-b5 c2-c4xd4 3. Kb5-b6 a4-d4 4. f9-f8xf7 g1-g2xg3 5. h9-h8xh7 e1-e2xe3"
        " 6. e9-e8xe7 i4-i5xh5 7. g9-g8xg7 c7-c8"
    )
    assert said(started(free(start, moves))) == [  # (12 defenders: Tyr's 8 and more)
        ("warning", "G16", 5, "the record leaves out a berserk continuation after c2-c4xd4: c4-c5 (berw: a)"),
        ("warning", "G16", 13, "the record leaves out a berserk continuation after c2-c4xd4: c4-c7 (berw: a)"),
    ]


def test_a_look_back_tries_a_move_to_the_anvil_of_the_capture_the_ply_lists():
    # e9-e7 takes d7 against c7, two squares from its target, where only c4-c7 can have put an attacker
    anvil = free("pc2 Pd4 pe4 pe9 Pd7 pa1 Kg8", "c2-c4xd4 2. Kg8-g7 e9-e7xd7")
    assert said(anvil) == [
        ("warning", "G16", 3, "the record leaves out a berserk continuation after c2-c4xd4: c4-c7 (berw: a)")
    ]


def test_the_ply_a_look_back_finds_may_end_the_game():
    # the king runs down the c-file to the edge (esc: e) through c4, which a left-out move emptied
    report = check(free("pc2 Pd4 pe4 Kc6 pa1", "c2-c4xd4 2. Kc6-c1"))
    assert [(d.rule, d.ply, d.message) for d in report.diagnostics if d.rule == "G16"] == [
        ("G16", 2, "the record leaves out a berserk continuation after c2-c4xd4: c4-d4 (berw: a)")
    ]
    assert (report.outcome.rule, report.outcome.result) == ("G8", "1-0")


def test_a_look_back_that_found_nothing_is_kept_for_its_rules_only():
    moves = "c2-c4xd4 2. Kg8-g7 c6-c5"
    # a throne on c5 that only the king crosses: c4-c6 cannot have been played, and the search finds nothing
    assert errors(free("pc2 Pd4 pe4 pa1 Kg8", moves, "berw=a cen=c5 cenp=k")) == [
        ("G3", 3, "there is no piece on c6; the rest of this line is not checked")
    ]
    # the same plies on the same boards without that throne: searched again, not taken from what was kept
    assert said(free("pc2 Pd4 pe4 pa1 Kg8", moves)) == [
        ("warning", "G16", 3, "the record leaves out a berserk continuation after c2-c4xd4: c4-c6 (berw: a)")
    ]


def test_berw_a_and_berw_u_read_a_ply_without_a_list_each_its_own_way():
    # berw:a's records list captures: c1-c3 without a list captures nothing, so d3 went on to b3
    listed = free("pd1 Pd4 pd5 Pb4 pb5 Pe3 Pc1 Kg8", "d1-d3xd4 2. c1-c3")
    assert said(listed) == [
        ("warning", "G16", 2, "the record leaves out a berserk continuation after d1-d3xd4: d3-b3xb4 (berw: a)")
    ]
    # berw:u's list nothing, and it does not look back: c6-c5 fits no kept position
    assert errors(free("pc2 Pd4 pe4 pa1 Kg8", "c2-c4 2. Kg8-g7 c6-c5", "berw=u")) == [
        ("G3", 3, "there is no piece on c6; the rest of this line is not checked")
    ]


def test_a_mercenary_a_left_out_continuation_captures_changes_sides():
    # c4-c6 takes the mercenary c7 against c8: it is the attackers', and moves on their ply
    assert said(tyr("pc2 Pd4 pe4 Mc7 pc8 Kg8", "c2-c4xd4 2. Kg8-g7 c7-b7")) == [
        ("warning", "G16", 3, "the record leaves out a berserk continuation after c2-c4xd4: c4-c6xc7 (berw: n)")
    ]


def test_a_jump_goes_over_an_enemy_mercenary_as_over_a_soldier():
    assert errors(record("Kc3 mc4 pa2", "Kc3-c5", "kj=j", turn="w")) == []
    assert errors(record("Kc3 Mc4 pa2", "Kc3-c5", "kj=j", turn="w")) == [
        (
            "G14",
            1,
            "a king jumps only over an enemy soldier, to a square it may stop on (kj: j); the rest of this line is "
            "not checked",
        )
    ]


def test_a_mercenary_follows_the_regions_rules_of_its_sides_soldiers():
    fort = "afor=c1,d1 aforp=a afors=a"  # only the attackers stop on their fort
    assert errors(record("Kh8 Md3 pa9", "a9-a8 2. d3-d1", fort)) == [
        (
            "G4",
            2,
            "only the attackers may stop on an attackers' fort (d1) (afors: a); the rest of this line is not checked",
        )
    ]
    assert errors(record("Kh8 md3 Pa9", "d3-d1", fort)) == []


def test_a_start_with_a_mercenary_of_either_side_changes_material_in_place():
    for mercenary in "mM":
        rules = Hnefatafl({"start": f"/11/11/11/11/11/5K4{mercenary}/11/11/11/11/11/"}, variant=FETLAR)
        assert not rules.material_follows_empty_squares(), mercenary
    assert Hnefatafl({"start": "/11/11/11/11/11/5K4t/11/11/11/11/11/"}, variant=FETLAR).material_follows_empty_squares()


def test_a_ply_without_a_list_that_would_take_a_mercenary_fits_the_line_where_it_takes_nothing():
    # a1-a4 would take the mercenary b4 against c4; where c4 went on to c6 (taking c7) it takes nothing
    assert said(tyr("pc2 Pd4 pe4 Pc7 pc8 Kg8 Mb4 pa1", "c2-c4xd4 2. Kg8-g7 a1-a4")) == [
        ("warning", "G16", 3, "the record leaves out a berserk continuation after c2-c4xd4: c4-c6xc7 (berw: n)")
    ]


def test_a_ply_that_takes_the_king_fits_the_written_line_though_its_list_leaves_him_out():
    # a1-a4 takes the king b4 against c4 (such records do not list the king): the game ends there, on the
    # written line, not on the line where c4 went on to c6 and a1-a4 takes nothing
    report = check(tyr("pc2 Pd4 pe4 Pc7 pc8 Kb4 Ph8 pa1", "c2-c4xd4 2. h8-h7 a1-a4"))
    assert [d.rule for d in report.diagnostics] == ["result"]
    assert (report.outcome.rule, report.outcome.result, report.plies) == ("G7", "0-1", 3)


def test_a_look_back_tries_a_move_from_next_to_the_target_of_a_ply_since():
    # d7-d4 (ply 2) takes e4 next to c4; once c4 went on (c4-c6), d4 could go on over it to b4, taking
    # b5: a5-e5 (ply 3) passes b5. c4 is one square from d4 and three from every square a5-e5 touches
    chained = free("pc2 Pd4 pe4 Pf4 Pd7 pb5 Pb6 pa5 Kh8", "c2-c4xd4 2. d7-d4xe4 a5-e5")
    assert said(chained) == [
        ("warning", "G16", 3, "the record leaves out a berserk continuation after c2-c4xd4: c4-c6 (berw: a)"),
        ("warning", "G16", 3, "the record leaves out a berserk continuation after d7-d4xe4: d4-b4xb5 (berw: a)"),
    ]


def test_berw_n_means_nothing_without_berserk_moves():
    # Fetlar (ber:n): after c2-c4xd4 the piece does not go on, whatever berw says
    assert errors(record("pc2 Pd4 pe4 Pc7 pc8 Kg8 Pa10", "c2-c4xd4 a10-a9 c6-c5", "berw=n")) == [
        ("G3", 3, "there is no piece on c6; the rest of this line is not checked")
    ]


def left_out(move: int) -> str:
    """The ply that changed a square, past c2-c4xd4's left-out continuation after `move`."""
    return f"a ply the record leaves out after move {move}, Black: c2-c4xd4"


@pytest.mark.parametrize("keep", [True, False], ids=["kept", "validate"])
@pytest.mark.parametrize(
    "moves, ply, said",
    [
        ("c2-c4xd4 2. c1-c3 c6-d6 3. Kg8-g6 a1-a2 4. Kg6-d6", 6, "d6 is occupied (by move 2, Black: c6-d6)"),
        ("c2-c4xd4 2. c1-c5 a1-a2 3. Kg8-g6 a2-a1 4. Kg6-c6", 6, f"c6 is occupied (by {left_out(1)})"),
        ("c2-c4xd4 2. c1-c5 ( 2. Kg8-g6 a1-a2 3. Kg6-c6 )", 4, f"c6 is occupied (by {left_out(1)})"),
        ("c2-c4xd4 2. c1-c5 ( 2. a6-c6 )", 2, f"c6 is occupied (by {left_out(1)})"),
        ("c2-c4xd4 2. c1-c5 c4-c3", 3, f"there is no piece on c4 (taken by {left_out(1)})"),
        (
            "a1-a2 2. c7-b7 a2-a1 3. b7-c7 c2-c4xd4 4. c1-c5 a1-a2 5. c7-d7",
            8,
            f"there is no piece on c7 (taken by {left_out(3)})",
        ),
        ("c2-c4xd4 2. c1-c5 ( 2. c7-d7 )", 2, f"there is no piece on c7 (taken by {left_out(1)})"),
    ],
    ids=[
        "a ply after a left-out continuation",
        "the continuation",
        "in a variation",
        "a variation's first ply",
        "the piece that went on",
        "the piece it captured",
        "the piece it captured, in a variation's first ply",
    ],
)
def test_a_square_a_left_out_continuation_changed_names_the_ply_it_went_on_from(moves, ply, said, keep):
    """c2-c4xd4's continuation c4-c6xc7 is left out (berw:n), and c1-c5 (ply 2) shows it: a piece
    on c6 came there after move 1 (it was said to stand there "from the start position"), in a
    variation of ply 2 too, which starts after it (validate, which keeps no position, started it
    before it, and found the king's move legal; and set its first ply's before it as written); the
    pieces on c4 and c7 went after move 1 (c7, which came back at move 3, was said to have "moved
    away by move 2", and was said nothing in the variation)."""
    found = check(tyr("pc2 Pd4 pe4 Pc7 pc8 Kg8 Pc1 pa1 Pa6", moves), keep=keep).diagnostics
    assert [(d.rule, d.ply, d.message.split(";")[0]) for d in found if d.severity == "error"] == [("G3", ply, said)]


@pytest.mark.parametrize("keep", [True, False], ids=["kept", "validate"])
def test_an_occupied_square_of_a_mercenary_turned_in_place_names_the_ply_that_captured_it(keep):
    """a2-a4xb4 takes the mercenary b4, which stays there, turned (Fetlar leaves out no ply): b9-b4
    finds it where that capture left it, as a latrunculi incitus (it was said to be put there by a
    ply left out after a2-a4xb4)."""
    found = check(record("Kf6 Mb4 pc4 pa2 Ph10", "a2-a4xb4 2. h10-h9 a4-a5 3. h9-b9 c4-c5 4. b9-b4"), keep=keep)
    assert [(d.rule, d.ply, d.message.split(";")[0]) for d in found.diagnostics] == [
        ("G3", 6, "b4 is occupied (captured by move 1, Black: a2-a4xb4)")
    ]


LEFT_OUT = "the record leaves out a berserk continuation after c2-c4xd4: c4-c6xc7 (berw: n)"


@pytest.mark.parametrize("keep", [True, False], ids=["kept", "validate"])
@pytest.mark.parametrize(
    "moves, found",
    [
        (
            "c2-c4xd4 2. Kg8-g7 ( 2. Kg8-g6 a1-a2 3. Kg6-c6 ) a1-a2 3. c1-c5",
            [
                ("error", "G3", 4, "c6 is occupied (by a ply the record leaves out after move 1, Black: c2-c4xd4)"),
                ("warning", "G16", 4, LEFT_OUT),
            ],
        ),
        ("c2-c4xd4 2. Kg8-h8 ( 2. Kg8-g6 a1-a2 3. c1-c5 ) ( 2. Kg8-g7 )", [("warning", "G16", 4, LEFT_OUT)]),
        ("c2-c4xd4 2. Kg8-g7 ( 2. c1-c5 ( 2. Kg8-g6 a1-a2 3. Kg6-c6 ) )", [("warning", "G16", 2, LEFT_OUT)]),
    ],
    ids=["of a ply before the one that shows it", "beside a variation that shows it", "of the ply that shows it"],
)
def test_a_variation_starts_where_the_ply_before_it_went_as_a_later_ply_of_its_own_line_shows(moves, found, keep):
    """c1-c5 shows that c2-c4xd4 went on to c6 (berw:n): a variation of a ply after c2-c4xd4 on
    c1-c5's line starts there, however many plies back (Kg6-c6 is refused); one of another line
    (a variation beside c1-c5's, or of c1-c5 itself) starts where c2-c4xd4 stood as written."""
    report = check(tyr("pc2 Pd4 pe4 Pc7 pc8 Kg8 Pc1 pa1", moves), keep=keep)
    assert [(d.severity, d.rule, d.ply, d.message.split(";")[0]) for d in report.diagnostics] == found


def test_a_square_hostile_as_written_closes_a_side_of_a_commander_with_one_hostile_anyway():
    # cc:3: the commander b1 between b2 (the mover), the corner a1 (hostile, empty) and the fort c1
    # (hostile to it only as written, aforw): taken where the list names it, else not
    rules = Hnefatafl.from_tags({"Variant": FETLAR, "Rules": "cc=3 afor=c1 aforh=k aforw=d"})
    start = rules.parse_position(board("Kf6 Cb1 pb4 pa9"))
    assert rules.format_position(rules.play(start, "b4-b2xb1").position).endswith("/1p9/11 w")
    assert rules.format_position(rules.play(start, "b4-b2").position).endswith("/1p9/1C9 w")


def test_a_plain_empty_square_is_never_hostile_as_written():
    assert errors(record("Kh8 Pd5 pd3 pa9", "d3-d4xd5")) == [
        ("G5", 1, "the move captures nothing, not d5; the rest of this line is not checked")
    ]


def test_a_mercenary_moves_as_far_as_its_sides_soldiers_and_does_not_jump_as_a_knight():
    speeds = "spd=2,5"  # attackers 2 squares, defenders 5
    assert errors(record("Kh8 Md5 pa9", "a9-a8 2. d5-d1", speeds)) == []
    assert errors(record("Kh8 md5 Pa9", "d5-d1", speeds)) == [
        ("G3", 1, "a soldier moves at most 2 squares (spd: 2,5); the rest of this line is not checked")
    ]
    assert errors(record("Kh8 Nd4 pd5 pa9", "a9-a8 2. d4-d6", "nj=j")) == []
    assert errors(record("Kh8 Md4 pd5 pa9", "a9-a8 2. d4-d6", "nj=j")) == [
        ("G3", 2, "the way is blocked at d5; the rest of this line is not checked")
    ]


def test_a_look_back_searches_the_captures_of_the_lines_left_out_continuations_made():
    # c4-c6xc7 (left out after c2-c4xd4) empties c7; i8-i6xi5 is played on both lines; a7-f7xf6
    # (ply 4) needs c7 empty and i6 gone on to f6: a free move from i6 on the line where c7 was taken
    report = check(free("pc2 Pd4 pe4 Pc7 pc8 pd6 Kg2 pi8 Pi5 pi4 Pa7 Pf5", "c2-c4xd4 2. Kg2-g3 i8-i6xi5 3. a7-f7xf6"))
    assert [d.rule for d in report.diagnostics if d.severity == "error"] == []
    assert ("G16", 4, "the record leaves out a berserk continuation after i8-i6xi5: i6-f6 (berw: a)") in [
        (d.rule, d.ply, d.message) for d in report.diagnostics
    ]


def test_a_ply_whose_list_fits_no_line_is_refused_on_the_first_line_where_its_move_is_legal():
    # c6-c5 is legal only where c4 went on to c6 (taking c7): refused there for its list, not for c6 being empty
    assert errors(tyr("pc2 Pd4 pe4 Pc7 pc8 Kg8", "c2-c4xd4 2. Kg8-g7 c6-c5xb5")) == [
        ("G5", 3, "the move captures nothing, not b5; the rest of this line is not checked")
    ]


def test_the_squares_near_a_ply_stop_at_the_boards_edges():
    """`_near` bounds a look back's search: a ply's origin, the squares it passes and those up to
    `reach` steps from its target, none past an edge (nor wrapped round to the next rank)."""
    geo = Hnefatafl(variant=FETLAR).geo
    assert {geo.names[square] for square in _near(geo, ("k4-k6",), 1)} == {"k4", "k5", "k6", "k7", "j6"}
    assert {geo.names[square] for square in _near(geo, ("a9-a11",), 1)} == {"a9", "a10", "a11", "b11"}


def test_a_position_that_remembers_left_out_continuations_survives_pickle_and_copy():
    """A Report's positions (what `check` gives a library's user, who may send it to another
    process) keep, pickled or copied, the lines a later ply may choose and what a look back reads."""
    rules = Hnefatafl.from_tags({"Variant": TYR, "Rules": "berw=a tfr=d"})
    after = rules.play(rules.parse_position(board("pc2 Pd4 pe4 Pc7 pc8 Kg8", 9)), "c2-c4xd4").position
    assert [other.continuations for other in after.others] == [(LeftOut(1, "after c2-c4xd4: c4-c6xc7"),)]
    for again in (pickle.loads(pickle.dumps(after)), copy.copy(after)):
        assert type(again) is type(after) and again == after
        assert [(other.position, other.continuations) for other in again.others] == [
            (other.position, other.continuations) for other in after.others
        ]
        assert (again.before, again.captures, again.written, again.plies, again.earlier) == (
            after.before,
            after.captures,
            after.written,
            after.plies,
            after.earlier,
        )


def test_the_continuations_of_a_piece_that_captured_on_a1_are_that_pieces_alone():
    """G16: d1-a1 takes a2 and the piece on a1 (the first square) has no capturing move, so no continuation
    is left out; h2-h5xh6 was another piece's, and a ply from h5 fits no position."""
    assert errors(tyr("pd1 Pa2 pa3 ph2 Ph6 ph7 Kd6", "d1-a1xa2 2. Kd6-d7 h5-h4")) == [
        ("G3", 3, "there is no piece on h5; the rest of this line is not checked")
    ]


def test_a_continuation_that_would_end_the_game_does_not_hide_the_pieces_others():
    """G16: after c2-c4xd4 the piece's first capturing continuation, c4-c6, would take the king (ks:w) and is
    never assumed; its later one, c4-b4xb5, is still searched, and the ply from b4 finds it."""
    assert said(tyr("pc2 Pd4 pe4 Kc7 pc8 Pb5 pb6", "c2-c4xd4 2. Kc7-d7 b4-b3")) == [
        ("warning", "G16", 3, "the record leaves out a berserk continuation after c2-c4xd4: c4-b4xb5 (berw: n)")
    ]


def test_a_left_out_continuation_that_would_encircle_the_defenders_is_never_assumed():
    """G16 with encirclement (surf: y): c4-b4xb5 would take the last free defender, ending the game, so no
    record leaves it out; the defenders' next ply would not end it (encirclement is judged after the
    attackers' moves), and the ply from b4 still fits no position."""
    pieces = "pc2 Pd4 pe4 pd5 pf5 pd6 pf6 pe7 Ke5 Pb5 pb6"
    assert errors(free(pieces, "c2-c4xd4 2. Ke5-e6 b4-b3", "surf=y")) == [
        ("G3", 3, "there is no piece on b4; the rest of this line is not checked")
    ]


def test_a_capture_on_a1_is_one_a_left_out_continuation_may_follow():
    """G16: h1-a1 takes a2 on the first square (a1), and its piece's continuation a1-c1xc2, left out, is
    found by the ply from c1."""
    assert said(tyr("ph1 Pa2 pa3 Pc2 pc3 Kd6", "h1-a1xa2 2. Kd6-d7 c1-d1")) == [
        ("warning", "G16", 3, "the record leaves out a berserk continuation after h1-a1xa2: a1-c1xc2 (berw: n)")
    ]


def test_a_pass_after_a_capture_under_berw_a_is_refused_as_a_pass_not_looked_back():
    """G11 through the library (a record's grammar has no `--` here): a pass after c2-c4xd4 under berw:a is
    refused as a pass; the look back does not take it for a move of the other side's piece."""
    rules = Hnefatafl.from_tags({"Variant": TYR, "Rules": "berw=a"})
    position = rules.play(rules.parse_position(board("pc2 Pd4 pe4 Kg8", 9)), "c2-c4xd4").position
    with pytest.raises(Illegal) as refused:
        rules.play(position, "--")
    assert (refused.value.rule, refused.value.message) == (
        "G11",
        "a pass (--) is allowed only under no-move=passes, to a side that has no move",
    )
