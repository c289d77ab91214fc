"""The replay page's compact boards, NAG symbols and size."""

import json
import re
import shutil
import subprocess
from html import escape

import pytest
from click.testing import CliRunner
from conftest import ROOT
from test_numbering import BERSERK

from lusoria.api import random_records, replay_page
from lusoria.cli import main
from lusoria.formats import read_text
from lusoria.formats.sources import read_sources
from lusoria.html import ADDRESS, stored_boards
from lusoria.svg import position_svg
from lusoria.validator.replay import check, resaid


def errors_noted(page: str) -> list[str]:
    """The errors a page notes, as their text reads (a ply's words kept whole, `<span class="whole">`, left out)."""
    notes = re.findall(r'<div class="diagnostic error">(.*?)</div>', page)
    return [re.sub(r'<span class="whole">(.*?)</span>', r"\1", note) for note in notes]


def boards_of(text):
    report = check(text)
    return [
        position_svg(report.rules, position, report.canonical.get((0, index - 1)) if index else None)
        for index, position in enumerate(report.positions)
    ]


def joined(stored, number):
    """What the page's script does: the runs of piece numbers, joined."""
    out = []
    for run in stored["boards"][number].split(","):
        first, _, last = run.partition("-")
        out += stored["pieces"][int(first) : int(last or first) + 1]
    return "".join(out)


def test_the_stored_boards_give_back_every_board_exactly():
    svgs = boards_of(next(read_sources(str(ROOT / "samples/laquet/whole-game.lgn"))))
    stored = stored_boards(svgs)
    assert [joined(stored, n) for n in range(len(svgs))] == svgs
    assert len(set(stored["pieces"])) == len(stored["pieces"])  # each piece once
    assert re.fullmatch(r"0-\d+", stored["boards"][0])  # the first board: all its pieces new, in order
    assert all(board.count(",") < 60 for board in stored["boards"])  # a ply changes a few pieces


def test_a_run_of_one_piece_is_its_number_alone():
    stored = stored_boards(["<svg><a/><b/></svg>", "<svg><a/><c/></svg>"])
    assert stored == {"pieces": ["", "<svg>", "<a/>", "<b/></svg>", "<c/></svg>"], "boards": ["0-3", "0-2,4"]}


def test_a_thousand_plies_make_a_page_under_a_megabyte():
    text = next(random_records("latrunculi", 1, seed=1, max_plies=1000))
    assert check(text).plies == 1000
    page = replay_page(text)
    assert len(page.encode()) < 1_000_000
    short = replay_page(next(random_records("latrunculi", 1, seed=1, max_plies=100)))
    assert (len(page.encode()) - len(short.encode())) / 900 < 600  # bytes per ply, not kilobytes


def test_nags_are_shown_as_symbols_glued_to_their_ply_with_the_number_in_a_tooltip():
    page = replay_page('[Game "tablut"]\n1. e3-c3 $5 d1-d3? 2. e4-e3 $146 $201 *\n')
    assert re.search(r'>e3-c3</span><span class="nag" title="\$5">!\?</span> ', page)
    assert re.search(r'>d1-d3</span><span class="nag" title="\$2">\?</span> ', page)
    assert re.search(
        r'>e4-e3</span><span class="nag" title="\$146">N</span><span class="nag" title="\$201">\$201</span>', page
    )


def test_each_nag_of_the_usual_symbols_has_its_own():
    """Both NAGs of each side's pair (`$22`/`$23` zugzwang, `$32`/`$33` development…) have the symbol,
    and `$17`, `$18` and `$19` are told apart."""
    shown = "□ = ∞ += =+ ± ∓ +− −+ ⨀ ⨀ ⟳ ⟳ → → ↑ ↑ ⇆ ⇆ ⊕ ⊕ ∆ N".split()
    nags = [7, 10, 13, 14, 15, 16, 17, 18, 19, 22, 23, 32, 33, 36, 37, 40, 41, 132, 133, 138, 139, 140, 146]
    page = replay_page('[Game "tablut"]\n1. e3-c3 ' + " ".join(f"${nag}" for nag in nags) + " *\n")
    found = re.findall(r'<span class="nag" title="\$(\d+)">([^<]*)</span>', page)
    assert found == [(str(nag), symbol) for nag, symbol in zip(nags, shown, strict=True)]


def test_a_record_whose_start_cannot_be_set_up_has_its_page_with_the_error_and_no_board():
    page = replay_page('[Game "tablut"]\n[Position "9/9 w"]\n\n1. e3-c3 *\n')
    assert (
        '<div class="diagnostic error">error[tag]: malformed Position: a Tablut position has 9 ranks, not 2</div>'
        in page
    )
    assert '<span class="ply" data-ply="1" data-diagnostics="" title="">e3-c3</span>' in page
    assert '{"pieces": [], "boards": [], "main": 0}' in page


def test_each_ply_of_the_main_line_carries_its_move_for_the_status_line():
    """The page's status line says the ply's move as validate does, its side as the game and the explorer
    name it ("move 1, Muscovites: d1-d3 (ply 2 of 3)"; it said Black where the explorer says Muscovites):
    each main-line ply carries them, a variation's with its board (test_a_variations_plies_carry_their_boards)."""
    page = replay_page('[Game "tablut"]\n1. e3-c3 (1. e3-d3) d1-d3 2. e4-e3 *\n')
    moves = re.findall(r'data-ply="(\d+)" data-move="([^"]*)"[^>]*>([^<]*)<', page)
    assert moves == [
        ("1", "move 1, Swedes", "e3-c3"),
        ("2", "move 1, Muscovites", "d1-d3"),
        ("3", "move 2, Swedes", "e4-e3"),
    ]
    assert re.findall(r'data-key="1-0" data-board="4" data-back="0" data-move="([^"]*)"', page) == ["move 1, Swedes"]
    assert "here.dataset.move + ': ' + here.textContent + ' (' + counted + ')'" in page


def test_a_variations_plies_carry_their_boards():
    """Each variation's ply as replayed, after the main line's boards: its board's number, its key
    (line and index), and, for a variation's first ply, the stop before it (`data-back`: the main
    line's ply number, or a variation's ply key when it is nested); a ply past an illegal one has
    no board, and is not stepped to (h75b: no variation's ply was)."""
    nested = "(1. e3-d3 d1-d2 (1... i4-h4 2. d3-d2) 2. e4-e3 (2. e4-e1))"
    text = f'[Game "tablut"]\n1. e3-c3 {nested} d1-d3 (1... a4-b4) 2. e4-e3 *\n'
    report = check(text)
    page = replay_page(text)
    plies = re.findall(r'<span class="ply[^"]*"((?: data-[a-z]+="[^"]*")*)[^>]*>([^<]*)<', page)
    steps = [(dict(re.findall(r'data-([a-z]+)="([^"]*)"', attributes)), ply) for attributes, ply in plies]
    assert [({k: v for k, v in step.items() if k in ("ply", "key", "board", "back")}, ply) for step, ply in steps] == [
        ({"ply": "1"}, "e3-c3"),
        ({"key": "1-0", "board": "4", "back": "0"}, "e3-d3"),
        ({"key": "1-1", "board": "5"}, "d1-d2"),
        ({"key": "2-0", "board": "7", "back": "1-0"}, "i4-h4"),  # (it replaces d1-d2: back to e3-d3)
        ({"key": "2-1", "board": "8"}, "d3-d2"),
        ({"key": "1-2", "board": "6"}, "e4-e3"),
        ({}, "e4-e1"),  # (illegal, T2: blocked at e2)
        ({"ply": "2"}, "d1-d3"),
        ({"key": "4-0", "board": "9", "back": "1"}, "a4-b4"),  # (after the nested lines ended: back to e3-c3)
        ({"ply": "3"}, "e4-e3"),
    ]
    stored = json.loads(re.search(r'<script type="application/json" id="boards">(.*?)</script>', page)[1])
    assert stored["main"] == 4 and len(stored["boards"]) == 10
    for board, (line, ply) in ((4, (1, 0)), (5, (1, 1)), (6, (1, 2)), (7, (2, 0)), (8, (2, 1))):
        position = report.variation_positions[line][ply + 1]
        assert joined(stored, board) == position_svg(report.rules, position, report.canonical[line, ply])


def test_a_diagnostic_names_its_side_as_the_status_line_beside_it_does():
    """A diagnostic on the page said `move 2, Black` where the status line said `move 2, Muscovites`: on the page
    (its ply's tooltip and status line, and under the ply) it names the side as the game does, a variation's too,
    then as the notation does, as the rules' messages do (`Black is to move`); validate still says Black (the
    notation's White and Black, NOTATION.md §2)."""
    text = '[Game "tablut"]\n1. e3-c3 (1. e3-d3 i5-e5) d1-d3 2. e4-e3 i5-e5 *\n'
    page = replay_page(text)
    blocked = "error[T2]: move {}, Muscovites (Black){}: the way is blocked at h5; the rest of this line is not checked"
    said = [blocked.format(1, ", in a variation"), blocked.format(2, "") + "; did you mean i4-e4xe3?"]
    assert re.findall(r'data-diagnostics="([^"]+)"', page) == said
    assert errors_noted(page) == said
    assert [d.move for d in check(text).diagnostics] == ["move 1, Black, in a variation", "move 2, Black"]
    berserk = replay_page(BERSERK + "1. c6-c4xb4/c5 c4=d4xe4 (1... Kf8-g8) Kf8-g8 *\n")  # (the knight had to go on)
    error = "error[G15]: move 1, defenders (White), in a variation: the knight that captured on c4 moves again (berserk) (ber: c)"
    assert [note.partition(";")[0] for note in errors_noted(berserk)] == [error]  # its ply 2, White's: not Black's
    latrunculi = replay_page('[Game "latrunculi"]\n1. @d4 @d4 *\n')  # its sides are White and Black: said once
    assert "error[S1]: move 1, Black: d4 is occupied (by move 1, White: @d4)" in latrunculi


def test_the_moves_a_message_names_name_their_sides_as_the_page_does():
    """A message on the page named the move that put a piece in the way by the notation's side, `(by move 1,
    Black: a4-c4)`, beside its own `move 2, Swedes (White)`: it names it as the page does, a variation's too;
    validate still says Black; a tag's value a message quotes is quoted as written."""
    texts = (
        '[Game "tablut"]\n[Date "move 1, White"]\n1. e3-c3 a4-c4 2. c3-c4 *\n',
        '[Game "tablut"]\n1. e3-c3 a4-b4 2. g5-g3 (2. c5-c3) *\n',
    )
    said = [[note.partition(";")[0] for note in errors_noted(replay_page(text)) if ";" in note] for text in texts]
    assert said == [
        [
            "error[tag]: a Date is YYYY.MM.DD, with ?? for unknown parts",  # then not 'move 1, White', as written
            "error[T2]: move 2, Swedes (White): c4 is occupied (by move 1, Muscovites (Black): a4-c4)",
        ],
        ["error[T2]: move 2, Swedes (White), in a variation: c3 is occupied (by move 1, Swedes (White): e3-c3)"],
    ]
    assert "not &#x27;move 1, White&#x27;</div>" in replay_page(texts[0])
    assert [check(text).diagnostics[-1].message.split(" (")[1].split(")")[0] for text in texts] == [
        "by move 1, Black: a4-c4",
        "by move 1, White: e3-c3",
    ]


def test_resaid_names_the_sides_of_the_moves_said_and_of_no_other_words():
    """The moves a message names are named by the page's sides from move 10 on too; words that merely hold
    `move 3, White` inside others are left as written."""
    sides = ("Swedes (White)", "Muscovites (Black)")
    said = "c4 is occupied (by move 12, Black: a4-c4); captured by move 3, White: d1-d5xc5"
    assert resaid(said, sides) == (
        "c4 is occupied (by move 12, Muscovites (Black): a4-c4); captured by move 3, Swedes (White): d1-d5xc5"
    )
    assert resaid("a countermove 3, White; move 3, Whites", sides) == "a countermove 3, White; move 3, Whites"


def test_the_ply_after_a_variation_is_numbered_again():
    page = replay_page('[Game "tablut"]\n1. e3-c3 (1. e3-d3 d1-d2) d1-d3 2. e4-e3 *\n')
    numbered = re.findall(r"(?:(\d+\.(?:\.\.)?)\u00a0)?<span class=\"ply[^>]*>([^<]*)</span>", page)
    assert numbered == [("1.", "e3-c3"), ("1.", "e3-d3"), ("", "d1-d2"), ("1...", "d1-d3"), ("2.", "e4-e3")]


def test_the_ply_after_a_comment_is_numbered_again():
    page = replay_page('[Game "tablut"]\n1. e3-c3 {the usual} d1-d3 2. e4-e3 *\n')
    numbered = re.findall(r"(?:(\d+\.(?:\.\.)?)\u00a0)?<span class=\"ply[^>]*>([^<]*)</span>", page)
    assert numbered == [("1.", "e3-c3"), ("1...", "d1-d3"), ("2.", "e4-e3")]


def test_a_move_number_is_held_to_its_ply_by_a_no_break_space():
    """A line of the move list ended with `8.` and the next began with its ply (found by new-user-11
    on a 19×19 record)."""
    page = replay_page('[Game "tablut"]\n1. e3-c3 d1-d3 2. e4-e3 *\n')
    assert re.findall(r"(\d+\.)(.)<span", page) == [("1.", "\N{NO-BREAK SPACE}"), ("2.", "\N{NO-BREAK SPACE}")]


def test_the_tags_are_listed_in_the_export_order_whatever_order_the_reader_made():
    """An OTN game's reader makes Game, then its rules' tags, then the header's: the page lists
    Game, the Seven Tag Roster, then the rest, as `fmt` and `convert` write them."""
    otn = (
        "[event:Club]\n[defenders:Anna]\n[attackers:Bo]\n[time-control:600 30/3 0i]\n"
        "[rules:dim:11 name:Copenhagen atkf:y tfr:w sw:s efe:y]\n\n1. a8-d8 g5-g3\n"
    )
    page = replay_page(next(read_text(otn, "otn", "game.otg")))
    names = re.findall(r"<tr><td>([^<]*)</td>", page)
    assert names == ["Game", "Event", "White", "Black", "Result", "OtnRepetition", "TimeControl"]


def title_of(page):
    [title] = re.findall(r"<title>([^<]*)</title>", page)
    assert f"<h1>{title}</h1>" in page
    return title


def test_a_record_without_players_is_titled_by_its_place_game_and_event():
    """A CSV game has no players: its page said only "lusoria replay"."""
    csv = list(read_sources(str(ROOT / "tests/fixtures/formats/csv/brandubh.csv")))
    assert title_of(replay_page(csv[1])) == "brandubh.csv:2 – brandubh"
    assert title_of(replay_page('[Game "tablut"]\n[Event "Club evening"]\n\n1. e3-c3 *')) == "tablut – Club evening"
    assert title_of(replay_page('[Game "tablut"]\n[Event "?"]\n\n1. e3-c3 *')) == "tablut"  # an unknown event
    lgn = next(read_sources(str(ROOT / "samples/tablut/escape.lgn")))
    assert title_of(replay_page(lgn)) == "Karin Nilsson – Olof Berg"  # the players, as before


def test_a_readers_note_is_shown_apart_from_the_annotators_comments():
    """h75b: a note the aage reader adds (how it read its source) was shown as an annotator's comment, on a
    page a historian publishes; it is shown apart, in a record read from another format or converted from one."""
    page = replay_page('[Game "tablut"]\n\n1. e3-c3 {aage reader: read as c3} {a fine move} d1-d3 {my reader: x} *\n')
    title = "a note of lusoria's reader, not of the record"
    assert f'<span class="comment note" title="{title}">{{aage reader: read as c3}}</span>' in page
    assert (
        '<span class="comment">{a fine move}</span>' in page and '<span class="comment">{my reader: x}</span>' in page
    )
    assert ".comment.note{color:#7a6a55;font-style:normal;font-size:.85em}" in page


@pytest.mark.parametrize(
    "text, error",
    [
        ('[Event "Ladder"]\n[White "Per <Nyström>"]\n\n1. e3-c3 d1-d3 0-1\n', "the record has no Game tag"),
        ('[Game "tablut"]\n\n1. e3-c3 d1-d3 2. zz *\n', "found 'zz'"),
    ],
)
def test_the_page_of_a_record_that_does_not_parse_shows_its_text_as_written(text, error):
    """Its page showed its tags and its error, and none of its moves (found by club-47): a club's
    published round lost the moves of a record that names no game."""
    page = replay_page(text)
    assert escape(error) in page
    assert f'<div class="moves"><pre class="written">{escape(text.strip())}</pre></div>' in page  # (`<` escaped)
    assert ".written{white-space:pre-wrap;overflow-wrap:anywhere;line-height:1.4}" in page  # (a line of all its
    # moves wraps; its lines as close as text's, not the move list's: h75b)


def test_the_page_of_a_file_its_encoding_does_not_decode_shows_no_text(tmp_path):
    """A binary file, or one of another encoding, is mended by reading it in another encoding, not by
    editing its text: its page says why it is not read, and does not show its bytes misread (review-47g:
    a 2 MB file made a page of 4.6 MB)."""
    path = tmp_path / "binary.lgn"
    path.write_bytes(b'[Game "tablut"]\n\n1. e3-c3 \xff\x00\x1b *\n')
    written = CliRunner().invoke(main, ["html", str(path), "-o", str(tmp_path / "binary.html")])
    page = (tmp_path / "binary.html").read_text()
    assert written.exit_code == 1  # (invalid: its error said)
    assert "latin-1" in page and '<pre class="written">' not in page and "\x1b" not in page


def test_a_record_without_its_result_marker_is_replayed_on_its_page_and_said_as_validate_says_it(tmp_path):
    """As show does: the page replays the plies of a record that lacks only its result marker, with
    the error in the page and on stderr (it said "cannot be replayed" and exited 1)."""
    path = tmp_path / "open.lgn"
    path.write_text('[Game "laquet"]\n\n1. 64: 5/11 5/9 52: 6/8 7/12\n')
    missing = "error[syntax]: the record ends without a result marker (1-0, 0-1, 1/2-1/2, *)"
    page = replay_page(path.read_text())
    assert missing in errors_noted(page)
    stored = json.loads(re.search(r'id="boards">(.*?)</script>', page).group(1))
    assert len(stored["boards"]) == 3  # the start and both plies
    written = CliRunner().invoke(main, ["html", str(path), "-o", str(tmp_path / "open.html")])
    validated = CliRunner().invoke(main, ["validate", str(path)])
    assert (written.exit_code, written.stderr) == (0, validated.stdout.split("1 record")[0])
    assert missing in errors_noted((tmp_path / "open.html").read_text())


def test_lusoria_html_replays_its_record_once_for_the_page_and_what_it_says_after(tmp_path, monkeypatch):
    """It replayed the record twice: for the page, then again (`api.board`) for its exit status
    and what the record lacks."""
    import lusoria.api

    path = tmp_path / "open.lgn"
    path.write_text('[Game "laquet"]\n\n1. 64: 5/11 5/9 52: 6/8 7/12\n')
    replayed = []
    monkeypatch.setattr(
        lusoria.api, "check_text", lambda *args, **kwargs: replayed.append(args) or check(*args, **kwargs)
    )
    written = CliRunner().invoke(main, ["html", str(path), "-o", str(tmp_path / "open.html")])
    assert (written.exit_code, len(replayed)) == (0, 1)
    assert "the record ends without a result marker" in written.stderr


def test_an_illegal_ply_says_what_it_meant_in_its_note_and_its_title():
    """The ply's title and data-diagnostics said its error without the note's "did you mean"."""
    page = CliRunner().invoke(main, ["html", str(ROOT / "samples/errors/tablut-moves.lgn")]).stdout
    said = "error[T1]: move 1, Muscovites (Black): the piece on e4 is White&#x27;s, and Black is to move; the rest of this line is not checked"
    meant = f"{said}; did you mean a4-b4?"
    assert meant in errors_noted(page)
    assert f'data-diagnostics="{meant}" title="{meant}">e4-b4</span>' in page


def moves_of(page: str) -> str:
    return re.search(r'<div class="moves">(.*?)</div>', page).group(1)


def test_the_move_list_ends_with_the_result_as_written_and_no_result_where_none_is():
    """The result stood only in the tag table (session 28's closing note): the move list ends with the
    record's marker after the last ply and its variations, `*` too; a record without one has none (not
    the `*` its replay assumed)."""
    ended = moves_of(replay_page('[Game "tablut"]\n\n1. e3-c3 (1. e3-d3) a4-a2 1/2-1/2\n'))
    assert ended.endswith('a4-a2</span> <span class="result">1/2-1/2</span>')
    assert moves_of(replay_page('[Game "tablut"]\n\n1. e3-c3 *\n')).endswith('<span class="result">*</span>')
    unended = moves_of(replay_page('[Game "tablut"]\n\n1. e3-c3 a4-a2\n'))
    assert unended.endswith("a4-a2</span> ") and "result" not in unended


ADDRESSES = [  # (the address's query, its fragment; the ply opened of 9 and what the status line says first)
    ("", "", 0, ""),
    ("", "#ply=4", 4, ""),
    ("?ply=4", "", 4, ""),
    ("?ply=7", "#ply=3", 3, ""),  # the fragment, which stepping rewrites, wins
    ("?ply=", "", 0, ""),  # named, no value: the start, unsaid
    ("?ply=7", "#ply=", 7, ""),
    ("?ply=%33", "", 3, ""),  # a digit escaped: 3, where it opened the start
    ("?ply=+3", "", 3, ""),  # a blank (`+`) around it, none: 3, where it said "no ply  3" (until session 48)
    ("?ply=3%20", "", 3, ""),
    ("?ply=5", "#ply=+", 5, ""),  # a fragment of a blank alone names none
    ("", "#ply=%33", 3, ""),
    ("", "#x&ply=4", 4, ""),
    ("?reply=4", "#reply=4", 0, ""),
    ("?ply=007", "", 7, ""),
    ("?ply=9", "", 9, ""),
    ("?ply=99999", "", 9, "no ply 99999: it has 9"),  # past the end: the last ply, said
    ("?ply=1e3", "", 0, "no ply 1e3: the plies are numbered 0 to 9"),  # opened ply 1, unsaid
    ("", "#ply=-1", 0, "no ply -1: the plies are numbered 0 to 9"),  # opened the start, unsaid
    ("?ply=2.5", "", 0, "no ply 2.5: the plies are numbered 0 to 9"),  # opened ply 2
]


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed (the page's script runs in it)")
def test_the_address_opens_the_ply_it_names_and_says_what_names_none():
    """The replay page's `addressed` (its script's, run in node, no browser needed) over the addresses a club's
    readers share and type: `?ply=1e3` opened ply 1 and `?ply=2.5` ply 2, each unsaid, `#ply=-1` the start
    unsaid, `?ply=%33` the start; each opens the ply it names (an escaped digit is one), else the start saying
    it names none, past the end the last ply saying how many there are (system/test_browser.py: in Chromium)."""
    cases = json.dumps([[search, fragment] for search, fragment, *_ in ADDRESSES])
    script = f"{ADDRESS}\nconsole.log(JSON.stringify({cases}.map(([s, h]) => addressed(s, h, 9))));"
    ran = subprocess.run(["node", "-e", script], capture_output=True, text=True, check=True)
    opened = [(answer["ply"], answer["note"]) for answer in json.loads(ran.stdout)]
    assert opened == [(ply, note) for *_, ply, note in ADDRESSES]


def test_a_warning_at_a_move_number_is_shown_at_the_ply_it_numbers():
    """Newcomer-57a: `1. h1-h3 g5-g4 3. d1-d3` (a number warning, at `3.`) had no trace on its page, whose move list
    numbers the move 2.: every diagnostic at its ply, docs/pictures.md says; one at a move number is its ply's
    (the ply after it as written, after a variation too)."""
    page = replay_page('[Game "copenhagen"]\n\n1. h1-h3 g5-g4 (1... g5-g3) 3. d1-d3 e5-e3 *\n')
    notes = re.findall(r'class="([^"]*)"[^>]*data-diagnostics="([^"]*)"[^>]*>([^<]*)<', page)
    assert [(ply, kind, note.split(" (")[0]) for kind, note, ply in notes if note] == [
        ("d1-d3", "ply warned", "warning[number]: the move number should be 2., not 3.")  # (and a gap asked for)
    ]


def test_a_notes_short_words_that_hold_a_hyphen_are_kept_whole_and_long_ones_may_break():
    """A ply (`a4-b4`, `Ke5-e4xd4/f4/d6`) is kept whole where a page notes it; a long word (a file's name, 25
    characters and more) may break, lest it stick out of the page (h75b)."""
    from lusoria.html import _unbroken

    said = _unbroken("did you mean Ke5-e4xd4/f4/d6? see the-club-evenings-of-winter.lgn & a4-b4")
    assert said == (
        'did you mean <span class="whole">Ke5-e4xd4/f4/d6?</span> see the-club-evenings-of-winter.lgn &amp; '
        '<span class="whole">a4-b4</span>'
    )
