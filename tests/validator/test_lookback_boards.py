"""The boards of a record that leaves out berserk continuations (G16): once a ply shows that the
piece that captured went on, every ply from that capture on stands on the line found, in the
report that show, html, svg, the language server, fmt and the archive read (`Played.earlier`,
the driver's `_replayed`), not only the ply that showed it."""

from test_hnefatafl import board, free, said, shuffled, tyr

from lusoria import api
from lusoria.archive import Archive, Filters
from lusoria.validator.replay import check


def boards(text: str) -> list[str]:
    """The main line's positions after each ply (the start first), as position strings."""
    report = check(text)
    return [report.rules.format_position(position) for position in report.positions]


def test_after_a_look_back_each_ply_since_the_capture_shows_the_piece_where_it_went_on():
    # c2-c4 takes d4 (ply 1); ply 41 (c6-c5) shows that c4 went on to c6: plies 1 to 40 stand so
    late = free("pc2 Pd4 pe4 pa1 Kg8", f"c2-c4xd4 {shuffled(21, 'c6-c5')}")
    assert [d[:3] for d in said(late)] == [("warning", "G16", 41)]
    found = boards(late)
    assert found[0] == board("pc2 Pd4 pe4 pa1 Kg8", 9)
    assert found[1] == board("pc6 pe4 pa1 Kg8", 9, "w")  # the capture, on the board its continuation made
    # the plies since, as the same moves play from there: the line found
    since = f'[Game "hnefatafl"] [Variant "tyr-9x9"] [Position "{found[1]}"] {shuffled(21, "c6-c5")} *'
    assert found[1:] == boards(since)
    assert found[41] == board("pc5 pe4 pa2 Kg8", 9, "w")


def test_a_line_of_left_out_continuations_chosen_without_a_look_back_replaces_the_written_boards():
    # berw:n: c4-c6xc7 is kept as a line after c2-c4xd4; c6-c5 (ply 3) is played on it
    text = tyr("pc2 Pd4 pe4 Pc7 pc8 Kg8", "c2-c4xd4 2. Kg8-g7 c6-c5")
    assert boards(text)[1:] == [
        board("pc6 pe4 pc8 Kg8", 9, "w"),
        board("pc6 pe4 pc8 Kg7", 9),
        board("pc5 pe4 pc8 Kg7", 9, "w"),
    ]


def test_a_capture_on_a_line_of_left_out_continuations_brings_that_line_and_both_warnings():
    # c4-c6xc7 is left out after c2-c4xd4; i8-i6xi5 is played on both lines; a7-f7xf6 (ply 4) needs
    # c7 empty and i6 gone on to f6: a look back to i8-i6xi5 on the line where c7 was taken
    pieces = "pc2 Pd4 pe4 Pc7 pc8 pd6 Kg2 pi8 Pi5 pi4 Pa7 Pf5"
    text = free(pieces, "c2-c4xd4 2. Kg2-g3 i8-i6xi5 3. a7-f7xf6")
    assert [(d.rule, d.ply, d.message) for d in check(text).diagnostics] == [
        ("G16", 4, "the record leaves out a berserk continuation after c2-c4xd4: c4-c6xc7 (berw: a)"),
        ("G16", 4, "the record leaves out a berserk continuation after i8-i6xi5: i6-f6 (berw: a)"),
    ]
    kept = "pc6 pc8 pd6 pe4 pi4 Pf5"  # d4 and c7 taken: the capture at ply 3 was played on that line
    assert boards(text)[1:] == [
        board(f"{kept} pi8 Pi5 Pa7 Kg2", 9, "w"),
        board(f"{kept} pi8 Pi5 Pa7 Kg3", 9),
        board(f"{kept} pf6 Pa7 Kg3", 9, "w"),
        board(f"{kept} Pf7 Kg3", 9),
    ]


def test_a_look_back_keeps_the_line_of_continuations_a_ply_since_the_capture_chose():
    # c2-c4xd4 (ply 1), then h1-h3xh4, which went on to f3 (h3-f3xf4), as f3-f2 (ply 4) shows; c6-c5
    # (ply 5) shows that c4 went on to c6: a look back to ply 1 that plays ply 4 on h3's line again
    text = free("pc2 Pd4 pe4 pa1 ph4 Ph5 pf4 Pf5 Ph1 Kg8", "c2-c4xd4 2. h1-h3xh4 a1-a2 3. f3-f2 c6-c5")
    assert [d[:3] for d in said(text)] == [("warning", "G16", 4), ("warning", "G16", 5)]  # (h3-f3xf4's once)
    assert boards(text)[1:] == [
        board("pc6 pe4 pa1 ph4 Ph5 pf4 Pf5 Ph1 Kg8", 9, "w"),
        board("pc6 pe4 pa1 Ph5 Pf5 Pf3 Kg8", 9),  # h4 and f4 taken
        board("pc6 pe4 pa2 Ph5 Pf5 Pf3 Kg8", 9, "w"),
        board("pc6 pe4 pa2 Ph5 Pf5 Pf2 Kg8", 9),
        board("pc5 pe4 pa2 Ph5 Pf5 Pf2 Kg8", 9, "w"),
    ]


def test_after_the_end_the_plies_since_the_capture_stand_where_the_game_went_on():
    # a2-a4 (ply 3) takes the king on b4 against c4, unless c4 went on: Kb4-b5 (ply 4) shows it went to c5
    saved = free("pc2 Pd4 pe4 Kb4 pa2 Ph1", "c2-c4xd4 2. h1-h2 a2-a4 3. Kb4-b5")
    assert [d[:3] for d in said(saved)] == [("warning", "G16", 4)]
    assert boards(saved)[1:] == [
        board("pc5 pe4 Kb4 pa2 Ph1", 9, "w"),
        board("pc5 pe4 Kb4 pa2 Ph2", 9),
        board("pc5 pe4 Kb4 pa4 Ph2", 9, "w"),
        board("pc5 pe4 Kb5 pa4 Ph2", 9),
    ]
    assert check(saved).canonical[0, 2] == "a2-a4"  # written as the game that went on played it


def test_a_variation_of_the_main_line_starts_from_the_board_a_later_ply_showed():
    # ply 3 shows that c4 went on to c6 after c2-c4xd4; the variation of ply 2 plays c6-c5 there
    # without a look back of its own
    text = free("pc2 Pd4 pe4 pa1 Kg8", "c2-c4xd4 2. Kg8-g7 (2. Kg8-h8 c6-c5) c6-c5")
    assert [d[:3] for d in said(text)] == [("warning", "G16", 3)]
    # after the end: the variation of the ply that showed the game went on starts where it went on
    saved = free("pc2 Pd4 pe4 Kb4 pa2 Ph1", "c2-c4xd4 2. h1-h2 a2-a4 3. Kb4-b5 (3. Kb4-b3)")
    assert [d[:3] for d in said(saved)] == [("warning", "G16", 4)]


def test_a_variation_of_a_variation_starts_from_the_board_a_later_ply_of_its_line_showed():
    # in the variation of ply 1, ply 3 shows that c4 went on to c6; the variation of its ply 2 plays
    # c6-c5 there: one G16, the line's (before, the inner variation found it again, from c4)
    text = tyr("pc2 Pd4 pe4 Pc7 pc8 Kg8", "c2-c3 (1... c2-c4xd4 2. Kg8-g7 (2. Kg8-h8 c6-c5) c6-c5) 2. Kg8-g7")
    report = check(text)
    assert [d[:3] for d in said(text)] == [("warning", "G16", 3)]
    assert [report.rules.format_position(p) for p in report.variation_positions[2]] == [
        board("pc6 pe4 pc8 Kg8", 9, "w"),
        board("pc6 pe4 pc8 Kh8", 9),
        board("pc5 pe4 pc8 Kh8", 9, "w"),
    ]


def test_a_variation_after_a_look_back_remembers_the_captures_its_line_made():
    # ply 3 shows that c4 went on to c6 (c4-c6xc7): the boards of plies 1 and 2 are the line found's,
    # and the variation of ply 3 may look back to the capture of ply 1 as the main line may (berw:a:
    # c6 went on to a6); before, it started from a position without the line's captures: G3 at a6
    text = free("pc2 Pd4 pe4 Pc7 pc8 Kg8", "c2-c4xd4 2. Kg8-g7 c6-c5 (2... a6-a5) 3. Kg7-g8")
    assert [d[:4] for d in said(text)] == [
        ("warning", "G16", 3, "the record leaves out a berserk continuation after c2-c4xd4: c4-c6xc7 (berw: a)"),
        ("warning", "G16", 3, "the record leaves out a berserk continuation after c2-c4xd4: c4-c6xc7, c6-a6 (berw: a)"),
    ]
    report = check(text)
    assert report.rules.format_position(report.variation_positions[1][-1]) == board("pa5 pe4 pc8 Kg7", 9, "w")


def test_the_position_that_left_out_continuations_made_counts_for_a_repetition():
    # c4 went on to c6 after c2-c4xd4 (ply 1), as ply 3 shows: that position arises again after plies
    # 5 and 9, which ends the game under tfr:d (before, it counted from ply 2 on: the end came at ply 10)
    moves = "c2-c4xd4 2. Kg8-g7 c6-c5 3. Kg7-g8 c5-c6 4. Kg8-g7 c6-c5 5. Kg7-g8 c5-c6 6. Kg8-g7"
    text = tyr("pc2 Pd4 pe4 Pc7 pc8 Kg8", moves).replace("[Position", '[Rules "tfr=d"] [Position')
    assert [d[:3] for d in said(text)] == [("warning", "G16", 3), ("error", "G13", 10)]


def test_show_and_its_svg_read_the_boards_of_the_line_found():
    late = free("pc2 Pd4 pe4 pa1 Kg8", f"c2-c4xd4 {shuffled(3, 'c6-c5')}")
    shown = api.board(late, 2)
    assert shown.text().splitlines()[-2] == f"position: {board('pc6 pe4 pa1 Kg7', 9)}"
    assert shown.last == "Kg8-g7"


def test_the_archive_finds_the_positions_of_the_line_found(tmp_path):
    late = free("pc2 Pd4 pe4 pa1 Kg8", f"c2-c4xd4 {shuffled(3, 'c6-c5')}")
    archive = Archive(str(tmp_path / "lusoria.db"))
    archive.import_reports([check(late)])
    assert len(archive.query(Filters(position=board("pc6 pe4 pa1 Kg7", 9)))) == 1  # after ply 2
    assert archive.query(Filters(position=board("pc4 pe4 pa1 Kg7", 9))) == []  # as written
