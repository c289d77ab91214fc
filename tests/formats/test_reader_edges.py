"""Edges of the readers and writers of other formats that a hand mutation audit found unpinned
(docs/testing.md): which of aagenielsen.dk's records read with berw=u and what their record keeps,
the site's captures read on past a mercenary taken, a CSV file's board told by its ranks as much as
by its files, and OTN written past a refused ply and for a berserk jump."""

import json

from lusoria.formats import read_text
from lusoria.formats.otn_writer import write_report
from lusoria.validator.replay import check

OLD_STYLE = "aage reader: no move lists its captures (the site's old style): read with berw=u, a ply fitting whatever it captures"


def read_aage(moves: list[str], options: dict[str, str]):
    """The report of a game of a type lusoria does not know, read with the rules `options` give."""
    game = {"AageGameTypeName": "Nothing lusoria knows 9x9", "WhoMovedFirst": "black", "Moves": moves}
    [source] = read_text(json.dumps(game), "aage", "x.json", options)
    return check(source)


def test_an_old_style_record_keeps_the_rules_it_is_read_with_and_adds_berw_u():
    report = read_aage(["e1e3", "e5e4"], {"Game": "hnefatafl", "Variant": "tyr-9x9", "Rules": "tfr=d"})
    assert report.record.tags["Rules"] == "tfr=d berw=u" and report.record.main.comments == [OLD_STYLE]


def test_a_record_without_moves_or_of_rules_that_look_back_is_not_read_with_berw_u():
    for moves, rules in (([], "tfr=d"), (["e1e3", "e5e4"], "berw=a")):  # berw:a keeps its look back
        report = read_aage(moves, {"Game": "hnefatafl", "Variant": "tyr-9x9", "Rules": rules})
        assert (report.record.tags["Rules"], report.record.main.comments) == (rules, []), (moves, rules)


def test_the_site_captures_of_an_old_style_record_are_read_under_berw_u():
    # d1-d3 takes d4 and went on to b3 (taking b4): only under berw:u does d5-d2 (ply 3) play, and the
    # king taken by h2-h8 against f8 (ply 5) gives the result the file does not
    position = "P8/5pK2/9/9/1p1p4P/1P1P4p/9/7pP/3p5 b"  # pd1 Pd4 pd5 pb5 Pb4 Pi2 pi4 Pi5 Kg8 pf8 ph2 Pa9
    report = read_aage(
        ["d1d3", "i2i3", "d5d2", "a9a8", "h2h8"], {"Game": "hnefatafl", "Variant": "tyr-9x9", "Position": position}
    )
    assert report.record.result == "0-1" and (report.outcome.rule, report.outcome.result) == ("G7", "0-1")
    assert [(d.rule, d.ply, d.message) for d in report.diagnostics] == [
        ("G16", 3, "the record leaves out a berserk continuation after d1-d3xd4: d3-b3xb4 (berw: u)")
    ]


def test_a_csv_files_board_is_told_by_its_ranks_as_by_its_files():
    # moves on the files a–g up to rank 11 need the board that k11 needs: Copenhagen's, 11×11
    for moves in ("a11-a9 g2-g3", "k11-k9"):
        [source] = read_text(f"{moves},1,0,Ongoing\n", "csv", "club.csv")
        assert check(source).record.tags["Game"] == "copenhagen"


def test_a_csv_rows_delimiter_is_counted_on_the_row_as_it_is_read_blanks_about_it_aside():
    """h74b: a row with a blank before its quoted moves, a `;` inside them, counted 5 fields where it reads 4: no row
    set the delimiter, and the row was said to separate its fields by ';', "the file by ',' (as its line 0 does)"."""
    [source] = read_text(' "d2-b2;c4-c6";0;0;Ongoing\n', "csv", "x.csv", {"Game": "brandubh"})
    assert [(d.rule, d.column, d.message) for d in check(source).diagnostics] == [
        ("syntax", 3, "found 'd2-b2;c4-c6', expected a move such as e2-c2 or f9-f5xg5, 'resigned' or 'timeout'")
    ]


def test_a_csv_row_whose_moves_are_longer_than_the_csv_module_reads_sets_its_delimiter():
    """h74b: a field over 128 Ki characters, which `csv` refuses, is counted by its delimiters: a `;` file's game of
    22,000 plies is read whole, not said to separate its fields by ';' where the file would by ','."""
    moves = " ".join(["e3-h3", "a4-a3", "h3-e3", "a3-a4"] * 5500)
    [source] = read_text(f'"{moves}";0;0;Ongoing\n', "csv", "x.csv", {"Game": "tablut", "Rules": "repetition=none"})
    report = check(source)
    assert (report.valid, len(report.record.main.plies)) == (True, 22_000)


def test_otn_writes_the_plies_after_a_refused_one_as_they_are_written():
    # past a1-a2 (no piece there) no position is known: c6-c4, the knight's capturing jump where the
    # record starts, is written as the record writes it, without the knight's letter, `^` or captures
    start = "11/11/11/5K5/11/2n8/2P6P1/pP2Pp1P3/8P2/8c2/11 b"
    report = check(
        f'[Game "hnefatafl"] [Variant "fetlar-hnefatafl-11x11"] [Rules "ber=c"] [Position "{start}"] '
        "1. a1-a2 Kf8-g8 2. c6-c4 *"
    )
    assert [(d.rule, d.ply) for d in report.diagnostics] == [("G3", 1)]
    assert write_report(report).partition("\n\n")[2] == "1. a1-a2 Kf8-g8\n2. c6-c4\n"


def test_otn_writes_a_berserk_jump_with_both_marks():
    # the knight jumps c5 to c4 (taking c5, b4), then jumps d4 to e4 as a berserk move: `^=`
    start = "11/11/11/5K5/11/2n8/2P6P1/pP1P7/8P2/8c2/11 b"
    report = check(
        f'[Game "hnefatafl"] [Variant "fetlar-hnefatafl-11x11"] [Rules "ber=c"] [Position "{start}"] 1. c6-c4 c4=e4 *'
    )
    assert report.diagnostics == []
    assert write_report(report).partition("\n\n")[2] == "1. nc6^c4xc5/b4 nc4^=e4xd4\n"


def test_the_site_captures_read_on_past_a_mercenary_taken():
    # d1-d4 takes the mercenary e4 against f4 (it changes sides: the list is right), then h2-h8 takes the
    # king g8 against f8 (ply 3): the file gives no result, the reader the one the game ended with
    position = "P8/5pK2/9/9/9/4Mp3/9/7p1/3p5 b"  # pd1 Me4 pf4 Kg8 pf8 ph2 Pa9
    report = read_aage(
        ["d1-d4xe4", "a9-a8", "h2-h8"], {"Game": "hnefatafl", "Variant": "tyr-9x9", "Position": position}
    )
    assert report.record.result == "0-1" and report.diagnostics == []
    assert report.record.main.plies[-1].comments == [
        "aage reader: the list gives no result; the game ended 0-1 (the king was captured (ks: w), G7)"
    ]


def test_the_result_a_check_gives_a_list_without_one_is_its_reports_the_callers_record_left_as_read():
    """The result the replay gives a file that states none is the report's record's (its marker and its
    Result tag), made on a copy of the tags (`Record.mendable`): with the tags shared, the caller's
    record's Result tag said 0-1, which the file does not write, beside its marker * (review-48lb)."""
    game = {
        "AageGameTypeName": "Nothing lusoria knows 9x9",
        "WhoMovedFirst": "black",
        "Moves": ["d1-d4xe4", "a9-a8", "h2-h8"],
    }
    options = {"Game": "hnefatafl", "Variant": "tyr-9x9", "Position": "P8/5pK2/9/9/9/4Mp3/9/7p1/3p5 b"}
    [source] = read_text(json.dumps(game), "aage", "x.json", options)
    for report in (check(source), check(source)):
        assert (report.record.result, report.record.tags["Result"], report.diagnostics) == ("0-1", "0-1", [])
    assert (source.parsed.result, source.parsed.tags["Result"], source.parsed.main.plies[-1].comments) == (
        "*",
        "*",
        [],
    )


def test_a_result_given_with_the_tags_is_not_replaced_by_the_one_the_game_ended_with():
    # the game above, its Result given as `*` (session 48: `or "Result" in draft.tags` dropped from
    # site_claims went unseen): the result stated stands, and the replay says the game ended otherwise
    position = "P8/5pK2/9/9/9/4Mp3/9/7p1/3p5 b"
    report = read_aage(
        ["d1-d4xe4", "a9-a8", "h2-h8"],
        {"Game": "hnefatafl", "Variant": "tyr-9x9", "Position": position, "Result": "*"},
    )
    assert report.record.result == report.record.tags["Result"] == "*"
    assert report.record.main.plies[-1].comments == []
    assert [(d.rule, d.ply, d.message) for d in report.diagnostics] == [
        ("result", None, "the game ended 0-1 (the king was captured (ks: w), G7), but the record says *")
    ]


def test_the_sites_player_names_are_read_as_it_shows_them():
    """The aagenielsen.dk scrape writes a name HTML-escaped (`Plantagen&ecirc;t`): the record's tag
    holds the name as the site shows it."""
    game = {
        "WhiteSidePlayerName": "Plantagen&ecirc;t",
        "BlackSidePlayerName": "A&amp;B & C",
        "AageGameTypeName": "Historical Hnefatafl 9x9 (Saami Tablut)",
        "WhoMovedFirst": "black",
        "Moves": ["e3-c3"],
    }
    [source] = read_text(json.dumps(game), "aage", "game-7-1-1.json")
    tags = check(source).tags
    assert (tags["White"], tags["Black"]) == ("Plantagenêt", "A&B & C")
