"""`show`, `html` and SVG on every tafl board up to 19×19: files to s, ranks to 19, a large board
drawn at most SHOWN pixels wide, OpenTafl's knights and commanders each with its own mark."""

import re
import xml.etree.ElementTree as ElementTree

from click.testing import CliRunner

from lusoria.api import random_records, replay_page
from lusoria.cli import main
from lusoria.notation.reader import RecordText
from lusoria.svg import SHOWN, position_svg
from lusoria.validator.base import OptionError
from lusoria.validator.games import GAMES
from lusoria.validator.replay import check
from lusoria.validator.tafl_board import ATTACKER, DEFENDER, LETTERS

CODES = {letter: code for code, letter in LETTERS.items()}
SVG = "{http://www.w3.org/2000/svg}"

FILES = "abcdefghijklmnopqrs"


def game(variant, plies=6):
    return next(random_records("hnefatafl", 1, seed=3, tags={"Variant": variant}, max_plies=plies))


def test_show_draws_a_19x19_board_with_its_files_and_ranks(tmp_path):
    (tmp_path / "big.lgn").write_text(game("tablut-19x19"))
    shown = CliRunner().invoke(main, ["show", str(tmp_path / "big.lgn")])
    assert shown.exit_code == 0
    lines = shown.stdout.splitlines()
    assert lines[2].startswith("19 ") and lines[20].startswith(" 1 ") and len(lines[2].split()) == 20
    assert lines[21] == "   " + " ".join(FILES)
    svg = CliRunner().invoke(main, ["show", "--format", "svg", str(tmp_path / "big.lgn")]).stdout
    labels = re.findall(r'text-anchor="middle" fill="#3b3228">([a-z0-9]+)</text>', svg)
    assert labels == [letter for letter in FILES for _ in "..."[:2]] + [str(n) for n in range(1, 20) for _ in "ab"]
    assert 'viewBox="0 0 804 804" width="600" height="600"' in svg
    squares = re.findall(r'class="square[^"]*" data-square="([a-s][0-9]+)"', svg)
    assert len(squares) == 361 and squares[0] == "a1" and squares[-1] == "s19"


def one_variant_a_board():
    """A variant of the generic tafl game for each board size its variants' names say (7x7 … 19x19),
    one that lusoria plays (not one refused by name, such as berserk's)."""
    found = {}
    for variant in GAMES["hnefatafl"].presets:
        if (named := re.search(r"([0-9]+)x\1", variant)) and int(named[1]) not in found:
            try:
                GAMES["hnefatafl"](variant=variant)
            except OptionError:
                continue
            found[int(named[1])] = variant
    return found


def test_every_board_size_is_drawn_within_its_bounds():
    variants = one_variant_a_board()
    assert {7, 9, 11, 13, 19} <= set(variants)  # (the catalogue decides which sizes lusoria plays)
    for size, variant in variants.items():
        report = check(game(variant, 2))
        assert report.rules.board.size == size
        svg = position_svg(report.rules, report.positions[-1], report.canonical[0, 1])
        assert f'viewBox="0 0 {size * 40 + 44} {size * 40 + 44}"' in svg
        width = float(re.search(r'width="([0-9.]+)"', svg)[1])
        assert width == min(SHOWN, size * 40 + 44)


def test_the_replay_page_of_a_19x19_game_holds_every_board():
    report_page = replay_page(RecordText(game("tablut-19x19")))
    assert len(re.findall(r'<span class="ply[^"]*" data-ply="', report_page)) == 6
    assert "s19" in report_page and ">1.<" not in report_page
    assert re.findall(r"(\d+\.(?:\.\.)?)\u00a0<span class=\"ply", report_page) == ["1.", "2.", "3."]


def with_knights_and_commanders(rules):
    """The start of `rules` with soldiers made knights and commanders: each side's first soldier
    a knight, its last a commander (a1 b1 … by rank); the squares of each."""
    board, names = bytearray(rules.square_board(rules.initial())), rules.geo.names
    made = {}
    for soldier, knight, commander in ((DEFENDER, "N", "C"), (ATTACKER, "n", "c")):
        squares = [square for square, piece in enumerate(board) if piece == soldier]
        for square, letter in ((squares[0], knight), (squares[-1], commander)):
            board[square] = CODES[letter]
            made[letter] = names[square]
    return rules.with_board(rules.initial(), bytes(board)), made


def test_knights_and_commanders_are_marked_on_every_board_size():
    for size, variant in one_variant_a_board().items():
        rules = GAMES["hnefatafl"](variant=variant)
        position, made = with_knights_and_commanders(rules)
        root = ElementTree.fromstring(position_svg(rules, position))
        pieces = {g.get("data-square"): g for g in root.iter(f"{SVG}g") if "piece" in g.get("class", "").split()}
        for letter, square in made.items():
            side, kind = "white" if letter.isupper() else "black", "knight" if letter in "Nn" else "commander"
            assert pieces[square].get("class") == f"piece {side} {kind}", (size, letter)
            emblem = [child.get("d") for child in pieces[square] if child.tag == f"{SVG}path"]
            assert len(emblem) == (1 if kind == "knight" else 2), (size, letter)  # chevrons; a lozenge and its bar
        soldiers = [g for g in pieces.values() if g.get("class").endswith("soldier")]
        assert soldiers and all([child.tag for child in g] == [f"{SVG}circle"] for g in soldiers)
        rows = rules.render(position).splitlines()
        for letter, square in made.items():  # the text diagram: the letter on its square
            rank, file = int(square[1:]), FILES.index(square[0])
            assert rows[size - rank].split()[1 + file] == letter, (size, letter)
        mercenaries = [g for g in pieces.values() if g.get("class").endswith("mercenary")]  # in the variant's start
        assert all([child.tag for child in g] == [f"{SVG}circle"] * 2 for g in mercenaries)  # the other side's disc
        pieces_named = f"N n knights, C c commanders{', M m mercenaries' if mercenaries else ''}"
        assert rows[-1].startswith(f"K king, P p soldiers, {pieces_named}; uppercase: White"), (size, rows[-1])
        assert "knights" not in rules.render(rules.initial())  # none on the board, none in the variant


def test_the_show_and_html_of_a_game_with_knights_and_commanders_mark_them(tmp_path):
    record = game("opentafl-berserk-11x11", 4)
    (tmp_path / "berserk.lgn").write_text(record)
    shown = CliRunner().invoke(main, ["show", str(tmp_path / "berserk.lgn"), "--ply", "0"])
    assert shown.exit_code == 0
    assert shown.stdout.splitlines()[7:9] == [
        " 6 p c . P P K P P . c p",  # the start: attackers' commanders on b6 and j6
        " 5 p . . . N P P . . . p",  # the defenders' knight on e5
    ]
    assert "N n knights, C c commanders; uppercase: White" in shown.stdout
    page = replay_page(RecordText(record))  # its boards kept as the distinct tags of their SVG
    assert "piece white knight" in page and "piece black commander" in page


def test_a_ply_without_its_hyphen_on_the_files_past_p_is_mended():
    """`s3s4` and `a3xq3` on a 19×19 board said no "did you mean": the mending knew the files a to p
    alone, Latrunculi's widest board (found by new-user-11)."""
    variant = '[Game "hnefatafl"]\n[Variant "opentafl-alea-evangelii-19x19"]\n'
    for written, meant in [("s3s4", "s3-s4"), ("s3xs4", "s3-s4"), ("a3q3", "a3-q3"), ("q1q3", "q1-q3")]:
        [diagnostic] = check(f"{variant}1. {written} *\n").diagnostics
        assert diagnostic.rule == "syntax" and meant in diagnostic.suggestions, (written, diagnostic)


def test_the_symmetric_tree_of_19x19_records_turns_back_plies_past_p16(tmp_path):
    """`tree --symmetric` failed on 19×19 records with an internal error (IndexError), or turned
    `i15-i17` back as `i5-i197`: a ply played in an image was turned back by the names of a 16×16
    board's squares (found by new-user-11). Two games, one the mirror of the other, are one line."""
    tags = '[Game "hnefatafl"]\n[Variant "tablut-19x19"]\n'
    (tmp_path / "games.lgn").write_text(f"{tags}\n1. n17-k17 i5-i3 *\n\n{tags}\n1. n3-k3 i15-i17 *\n")
    db = str(tmp_path / "big.db")
    assert CliRunner().invoke(main, ["import", "--db", db, str(tmp_path / "games.lgn")]).exit_code == 0
    rules = GAMES["hnefatafl"](variant="tablut-19x19")
    tree = CliRunner().invoke(
        main, ["tree", "--db", db, rules.format_position(rules.initial()), "--depth", "2", "--symmetric"]
    )
    assert tree.exit_code == 0, tree.output
    rows = [line.split() for line in tree.output.splitlines()[2:]]  # ply, games, unfinished, average ply
    assert rows == [["n17-k17", "2", "2", "1.0"], ["n17-k17", "i5-i3", "2", "2", "2.0"]]


def test_a_pattern_of_a_19x19_board_finds_its_records(tmp_path):
    """`query --pattern` of a 19×19 board said "a hnefatafl pattern cannot be 19x19": patterns knew
    boards to 16 squares a side, Latrunculi's widest (found by new-user-11)."""
    from lusoria.archive import Archive, Filters

    archive = Archive(str(tmp_path / "big.db"))
    archive.import_reports(check(text) for text in [game("tablut-19x19"), game("alea-berserk-17x17-martens")])
    king_in_the_middle = "/".join(["*" * 19] * 9 + ["*" * 9 + "K" + "*" * 9] + ["*" * 19] * 9)
    assert [row["variant"] for row in archive.query(Filters(pattern=king_in_the_middle))] == ["tablut-19x19"]
