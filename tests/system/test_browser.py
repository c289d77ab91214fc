"""The replay pages in a real browser (Debian's chromium, driven by Playwright)."""

import os
import shutil
import signal
import subprocess
import sys
from collections.abc import Callable
from contextlib import contextmanager

import pytest
from click.testing import CliRunner
from conftest import ROOT

from lusoria.api import random_records, replay_page
from lusoria.cli import main
from lusoria.svg import position_svg
from lusoria.validator.replay import check

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SHOTS = os.environ.get("LUSORIA_SCREENSHOTS")  # a folder to keep the screenshots in, to look at them

pytestmark = pytest.mark.skipif(
    not os.path.exists(CHROMIUM),
    reason=(
        f"no Chromium at {CHROMIUM}: the browser tests need Debian's chromium package "
        "(apt-get install chromium; .ci/run installs it)"
    ),
)


@pytest.fixture(scope="module")
def chromium():
    sync_api = pytest.importorskip(
        "playwright.sync_api", reason="playwright is not installed (pip install -e '.[test]')"
    )
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        yield browser
        browser.close()


@pytest.fixture
def browser(chromium):
    """The module's Chromium, the pages a test opened closed after it: left open, they slowed every
    later test (the module took half as long again)."""
    yield chromium
    for context in chromium.contexts:
        context.close()


def page_for(browser, tmp_path, sample: str, *options: str, ply: int | None = None, address: str = "#ply={}"):
    """The page of `sample` opened at `ply` as `address` asks for it (`#ply=N`, or a shared `?ply=N`)."""
    path = tmp_path / (sample.replace("/", "-") + "".join(options) + ".html")
    result = CliRunner().invoke(main, ["html", str(ROOT / "samples" / sample), *options, "-o", str(path)])
    assert result.exit_code == 0, result.output
    page = browser.new_page(viewport={"width": 1100, "height": 700})
    page.goto(path.as_uri() + (address.format(ply) if ply is not None else ""))
    return page


def shot(page, tmp_path, name: str) -> None:
    folder = SHOTS or str(tmp_path)
    page.screenshot(path=os.path.join(folder, name + ".png"))
    assert os.path.getsize(os.path.join(folder, name + ".png")) > 5000


def test_stepping_through_a_tablut_game_with_the_keys(browser, tmp_path):
    page = page_for(browser, tmp_path, "tablut/escape.lgn")
    assert page.locator('#board .piece.king[data-square="e5"]').count() == 1
    assert page.locator("#status").inner_text() == "start"
    for _ in range(7):
        page.keyboard.press("ArrowRight")
    assert page.locator(".moves .ply.current").inner_text() == "Ke5-c5+"
    assert page.locator('#board .piece.king[data-square="c5"]').count() == 1
    assert page.locator('#board .square.from[data-square="e5"]').count() == 1
    assert page.locator('#board .square.to[data-square="c5"]').count() == 1
    assert page.evaluate("location.hash") == "#ply=7"
    assert (
        page.locator("#status").inner_text() == "move 4, Swedes: Ke5-c5+ (ply 7 of 9)"
    )  # the side as the explorer names it
    shot(page, tmp_path, "tablut-ply-7")
    page.keyboard.press("End")
    assert page.locator(".moves .ply.current").inner_text() == "Kc5-c1++"
    page.keyboard.press("ArrowLeft")
    assert page.locator(".moves .ply.current").get_attribute("data-ply") == "8"
    page.click("#first")
    assert page.locator(".moves .ply.current").count() == 0
    assert page.locator(".variation .ply").all_inner_texts() == ["d1-c1", "c7-c8"]  # the variation, listed


def test_a_variations_plies_are_stepped_through_and_back_to_the_ply_before_it(browser, tmp_path):
    """h75b: a variation's plies were listed, never shown. Clicked, a variation's ply shows its
    board; the arrows step along its line, and back from its first ply to the ply before it."""
    page = page_for(browser, tmp_path, "tablut/escape.lgn", ply=3)
    failed: list[str] = []
    page.on("pageerror", lambda error: failed.append(str(error)))
    page.click(".variation .ply >> text=d1-c1")
    assert page.locator(".moves .ply.current").inner_text() == "d1-c1"
    assert page.locator('#board .square.to[data-square="c1"]').count() == 1
    assert page.locator("#status").inner_text() == "variation, move 4, Muscovites: d1-c1"
    assert page.evaluate("location.hash") == "#ply=3"  # (an address names a main-line ply)
    page.keyboard.press("ArrowRight")
    assert page.locator(".moves .ply.current").inner_text() == "c7-c8"
    assert page.locator('#board .square.to[data-square="c8"]').count() == 1
    assert page.locator("#status").inner_text() == "variation, move 5, Swedes: c7-c8"
    page.keyboard.press("ArrowRight")  # its last ply: it stays
    assert page.locator(".moves .ply.current").inner_text() == "c7-c8"
    page.keyboard.press("ArrowLeft")
    page.click("#back")
    assert page.locator(".moves .ply.current").get_attribute("data-ply") == "7"  # the ply before the one it replaces
    assert page.locator("#status").inner_text() == "move 4, Swedes: Ke5-c5+ (ply 7 of 9)"
    assert page.locator('#board .square.to[data-square="c5"]').count() == 1
    page.keyboard.press("ArrowRight")
    assert page.locator(".moves .ply.current").inner_text() == "b5-b9"  # the main line again
    page.click(".variation .ply >> text=c7-c8")
    page.keyboard.press("Home")
    assert page.locator("#status").inner_text() == "start"
    shot(page, tmp_path, "tablut-variation")
    assert failed == []
    # a main line that stops at an illegal ply (3: blocked at e2) shows its last board past it, not a variation's
    stopped = page_for_text(browser, tmp_path, "stopped", '[Game "tablut"]\n1. e3-c3 d1-d3 (1... d1-d2) 2. e4-e1 *\n')
    stopped.keyboard.press("End")
    assert stopped.locator("#status").inner_text().startswith("move 2, Swedes: e4-e1 (ply 3 of 3) (not replayed")
    assert stopped.locator('#board .square.to[data-square="d3"]').count() == 1


def test_the_address_opens_a_ply(browser, tmp_path):
    page = page_for(browser, tmp_path, "tablut/king-captured.lgn", ply=60)
    assert page.locator(".moves .ply.current").inner_text() == "e8-e7xKe6"
    assert page.locator('#board g.captured[data-square="e6"]').count() == 1
    assert page.locator("#board .piece.king").count() == 0


def test_an_address_opens_a_ply_named_ply_alone(browser, tmp_path):
    """`#reply=4` opened ply 4 where `?reply=4` opens the start: neither names a ply; `#x&ply=4` does."""
    for address, status in (("#reply={}", "start"), ("#x&ply={}", "move 2, Muscovites: i4-h4 (ply 4 of 9)")):
        page = page_for(browser, tmp_path, "tablut/escape.lgn", ply=4, address=address)
        assert page.locator("#status").inner_text() == status


def test_a_shared_query_opens_a_ply_as_the_fragment_does(browser, tmp_path):
    """`?ply=12` in a shared link was ignored (the page opened at the start): it opens ply 12 as `#ply=12`
    does, past the end saying so the same way; the fragment, which stepping rewrites, wins over it."""
    page = page_for(browser, tmp_path, "tablut/king-captured.lgn", ply=60, address="?ply={}")
    assert page.locator(".moves .ply.current").inner_text() == "e8-e7xKe6"
    assert page.evaluate("location.search + location.hash") == "?ply=60#ply=60"
    past = page_for(browser, tmp_path, "tablut/escape.lgn", ply=999, address="?game=x&ply={}&from=mail")
    assert past.locator("#status").inner_text() == "no ply 999: it has 9; move 5, Swedes: Kc5-c1++ (ply 9 of 9)"
    stepped = page_for(browser, tmp_path, "tablut/escape.lgn", ply=3, address="?ply=7#ply={}")
    assert stepped.locator(".moves .ply.current").get_attribute("data-ply") == "3"
    assert (
        page_for(browser, tmp_path, "tablut/escape.lgn", ply=7, address="?reply={}").locator("#status").inner_text()
        == "start"
    )


def test_an_address_past_the_end_opens_the_last_ply_and_says_how_many_there_are(browser, tmp_path):
    """`#ply=999` on a record of 9 plies opened its last ply, saying nothing of the ply asked for (a stale
    link, a typed address): it says there is no such ply and how many there are, as `show --ply` does, then
    the last ply as the status line says it (docs/pictures.md quotes it)."""
    page = page_for(browser, tmp_path, "tablut/escape.lgn", ply=999)
    last = page.locator(".moves .ply[data-ply]").count()
    assert page.locator(".moves .ply.current").get_attribute("data-ply") == str(last)
    assert page.locator("#status").inner_text() == "no ply 999: it has 9; move 5, Swedes: Kc5-c1++ (ply 9 of 9)"
    assert page.url.endswith(f"#ply={last}")
    page.keyboard.press("ArrowLeft")
    assert not page.locator("#status").inner_text().startswith("no ply")
    at_the_end = page_for(browser, tmp_path, "tablut/escape.lgn", ply=last)  # the last ply itself: no note
    assert at_the_end.locator("#status").inner_text().startswith("move ")


def test_an_illegal_ply_is_shown_in_red_with_its_rule(browser, tmp_path):
    page = page_for(browser, tmp_path, "errors/tablut-moves.lgn", "--record", "4")
    illegal = page.locator(".moves .ply.illegal")
    assert illegal.inner_text() == "d9-d2" and "error[T2]" in illegal.get_attribute("title")
    assert (
        "error[T2]: move 1, Muscovites (Black): the way is blocked at d5"
        in page.locator(".moves .diagnostic").inner_text()
    )
    page.keyboard.press("End")
    status = page.locator("#status").inner_text()
    assert status.startswith("move 1, Muscovites: d9-d2 (ply 2 of 2) (not replayed") and "T2" in status
    shot(page, tmp_path, "tablut-illegal")


def test_latrunculi_and_laquet_pages(browser, tmp_path):
    page = page_for(browser, tmp_path, "latrunculi/seneca.lgn", ply=757)
    assert page.locator('#board .piece.incitus[data-square="d3"]').count() == 1
    assert page.locator('#board g.captured[data-square="d3"]').count() == 1
    shot(page, tmp_path, "seneca-incitus")
    height = page.locator("#board").evaluate("board => board.offsetHeight")
    page.keyboard.press("Home")  # (the pieces in hand said under the board: review69, it grew 20 px there)
    assert page.locator("#board .caption").count() == 1
    assert page.locator("#board").evaluate("board => board.offsetHeight") == height
    page = page_for(browser, tmp_path, "laquet/whole-game.lgn", ply=12)
    assert page.locator("#board .die").count() == 2
    assert page.locator('#board .point.to[data-point="14"]').count() == 1  # 41: 13/14 >4: 9/13
    assert page.locator('#board .point.from[data-point="9"]').count() == 1
    page.keyboard.press("End")
    assert page.locator("#board .off-count").all_text_contents() == ["1", "15"]  # Black, White
    shot(page, tmp_path, "laquet-end")


def page_for_text(browser, tmp_path, name: str, text: str, viewport=(1100, 700)):
    path = tmp_path / f"{name}.html"
    path.write_text(replay_page(text), "utf-8")
    page = browser.new_page(viewport={"width": viewport[0], "height": viewport[1]})
    page.goto(path.as_uri())
    return page


def test_the_script_draws_each_board_exactly_as_show_does(browser, tmp_path):
    text = (ROOT / "samples/laquet/whole-game.lgn").read_text()
    report = check(text)
    plies = report.record.main.plies
    page = page_for(browser, tmp_path, "laquet/whole-game.lgn")
    for number in (0, 1, 12, len(plies)):
        last = report.canonical.get((0, number - 1)) if number else None
        assert page.evaluate(f"drawn({number})") == position_svg(report.rules, report.positions[number], last)


def test_the_board_stays_in_view_while_the_move_list_scrolls(browser, tmp_path):
    page = page_for(browser, tmp_path, "latrunculi/seneca.lgn", ply=700)
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    assert page.evaluate("window.scrollY") > 1000  # the move list is long
    box = page.locator("#board svg").bounding_box()
    assert box["y"] >= 0 and box["y"] + box["height"] <= 700
    assert page.locator("#forward").is_visible()
    shot(page, tmp_path, "seneca-scrolled")


def test_a_ply_is_never_wrapped_at_its_hyphen(browser, tmp_path):
    page = page_for(browser, tmp_path, "latrunculi/seneca.lgn")
    page.set_viewport_size({"width": 520, "height": 700})
    lines = page.evaluate("Array.from(document.querySelectorAll('.moves .ply')).map(p => p.getClientRects().length)")
    assert len(lines) > 700 and set(lines) == {1}


def test_a_diagnostics_ply_is_never_wrapped_at_its_hyphen(browser, tmp_path):
    """h75b: a suggestion wrapped as `did you mean a4-` / `b4?`, in the status line and in the page's notes."""
    text = '[Game "tablut"]\n[Event "A club evening of the winter league"]\n\n1. e3-c3 e4-b4 *\n'
    page = page_for_text(browser, tmp_path, "suggested", text, viewport=(300, 700))
    page.keyboard.press("End")
    assert "did you mean a4-b4?" in page.locator("#status").inner_text()
    for width in range(240, 480, 4):  # (somewhere among them a line would end inside a ply)
        page.set_viewport_size({"width": width, "height": 700})
        for where in ("#status", ".record .diagnostic"):
            kept = page.locator(f"{where} .whole").evaluate_all("words => words.map(w => w.getClientRects().length)")
            assert kept and set(kept) == {1}, (where, width)
    shot(page, tmp_path, "suggested")


def test_nags_show_as_symbols_with_their_number_in_a_tooltip(browser, tmp_path):
    page = page_for(browser, tmp_path, "tablut/escape.lgn")
    nag = page.locator(".moves .nag").first
    assert (nag.inner_text(), nag.get_attribute("title")) == ("?", "$2")
    assert nag.evaluate("n => n.previousElementSibling.textContent") == "b5-b9"


def test_a_long_diagnostic_leaves_the_move_list_beside_the_board(browser, tmp_path):
    text = f'[Game "tablut"]\n[Date "2026.11.21.{"x" * 400}"]\n1. e3-c3 d1-d3 2. e4-e3 {{ {"y" * 400} }} *\n'
    page = page_for_text(browser, tmp_path, "long-diagnostic", text)
    assert "error[tag]: a Date is YYYY.MM.DD" in page.locator(".record .diagnostic").inner_text()
    board, moves = page.locator("#board svg").bounding_box(), page.locator(".moves").bounding_box()
    assert moves["x"] >= board["x"] + board["width"] and moves["y"] < board["y"] + board["height"]
    assert page.evaluate("document.documentElement.scrollWidth") <= 1100  # nothing sticks out sideways
    shot(page, tmp_path, "long-diagnostic")


def test_a_plys_diagnostic_leaves_the_move_list_where_it_was(browser, tmp_path):
    """h75b: the status line of a ply with a diagnostic widened the board's column, and the move list jumped
    below the board, and back at the next ply."""
    page = page_for(browser, tmp_path, "errors/tablut-moves.lgn", ply=1)
    beside = page.locator(".record").bounding_box()
    page.keyboard.press("ArrowRight")
    assert "error[T1]" in page.locator("#status").inner_text()
    assert page.locator(".record").bounding_box() == beside


ALEA = next(random_records("hnefatafl", seed=3, tags={"Variant": "alea-berserk-19x19-bartley"}))


@pytest.mark.parametrize("width, height", [(390, 844), (1024, 700)], ids=["phone", "laptop"])
def test_a_19x19_board_fits_the_screen_and_leaves_room_for_the_moves(browser, tmp_path, width, height):
    """h75b: the board kept its drawn size (600 pixels): a phone showed it cut after file l, a laptop's
    moves went under it, with 30 pixels of them left beside it as it stood in view."""
    page = page_for_text(browser, tmp_path, "alea", ALEA, viewport=(width, height))
    board, moves = page.locator("#board svg").bounding_box(), page.locator(".moves").bounding_box()
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    assert board["width"] == board["height"] <= min(width - 48, height - 128)
    beside = moves["x"] >= board["x"] + board["width"]
    assert beside is (width > 1000)
    shot(page, tmp_path, f"alea-{width}")


@pytest.mark.parametrize("width", [1100, 390])
def test_a_ply_stepped_to_is_scrolled_into_view_clear_of_the_board(browser, tmp_path, width):
    """h75b: End on a 432-ply game lit a move two screens down; the list is scrolled to it, below the
    board where the board stands above the moves (a phone)."""
    page = page_for(browser, tmp_path, "latrunculi/dux.lgn")
    page.set_viewport_size({"width": width, "height": 700})
    for keys in (["End"], ["Home"], ["End"], ["ArrowLeft"] * 60):  # (60 plies back: above the moves in view)
        for key in keys:
            page.keyboard.press(key)
        current = page.locator(".moves .ply.current").bounding_box() if keys != ["Home"] else None
        if current is not None:
            board = page.locator(".board").bounding_box()
            top = board["y"] + board["height"] if width < 600 else 0
            assert top <= current["y"] and current["y"] + current["height"] <= 700, keys[0]


def test_an_address_changed_or_gone_back_to_shows_its_ply(browser, tmp_path):
    """h75b: the page read its address once: a `#ply=` link followed in the open page, or Back, left the
    board where it was and the address saying another ply."""
    page = page_for(browser, tmp_path, "tablut/escape.lgn", ply=2)
    page.evaluate("location.hash = '#ply=5'")
    page.wait_for_function("document.querySelector('.moves .ply.current').dataset.ply === '5'")
    page.keyboard.press("ArrowRight")
    page.go_back()
    page.wait_for_function("document.querySelector('.moves .ply.current').dataset.ply === '2'")
    assert page.locator("#status").inner_text() == "move 1, Muscovites: i6-f6 (ply 2 of 9)"


def test_a_page_of_a_record_not_replayed_has_no_buttons_and_says_why(browser, tmp_path):
    """h75b: a record with a syntax slip showed four buttons that did nothing, and blamed an illegal ply."""
    page = page_for_text(browser, tmp_path, "slip", '[Game "tablut"]\n\n1. e3-c3 d1-d3 2. e4-j4 *\n')
    assert page.locator(".controls").is_hidden()
    assert page.locator("#status").inner_text() == "not replayed: its diagnostics say why"
    assert page.locator("#status").evaluate(LINES) == 1  # (review75: a letter a line, in a column of no board)
    pressed = "document.dispatchEvent(new KeyboardEvent('keydown', {key: 'End', cancelable: true}))"
    assert page.evaluate(pressed)  # (not taken from the page's scrolling: there is nothing to step through)
    assert "j4 is not a square" in page.locator(".record").inner_text()


LINE_TEXTS = (  # the text of each line a cell's contents stand on
    "cell => { const lines = []; let last = null; const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT); "
    "for (let node; (node = walker.nextNode()); ) for (let i = 0; i < node.length; i++) { "
    "const range = document.createRange(); range.setStart(node, i); range.setEnd(node, i + 1); "
    "const box = range.getClientRects()[0]; if (!box) continue; "
    "if (Math.round(box.bottom) !== last) { lines.push(''); last = Math.round(box.bottom) } "
    "lines[lines.length - 1] += node.data[i] } return lines }"
)
LINES = (  # the lines a cell's contents stand on
    "cell => { const range = document.createRange(); range.selectNodeContents(cell); "
    "return new Set(Array.from(range.getClientRects(), box => Math.round(box.bottom))).size }"
)


def test_a_long_tag_value_wraps_and_its_name_does_not(browser, tmp_path):
    """With a long player's name or event, "Variant", "Round" and "Result" broke mid-word over two lines:
    every cell of the tags' table wrapped anywhere, so the names' column shrank to a letter (h69b)."""
    long = " ".join(["Hrafnhildur Guðmundsdóttir-Þorvaldsson von Achternbusch-Wolkenstein"] * 4)
    text = f'[Game "tablut"]\n[Event "{long}"]\n[White "{long}"]\n[Round "3"]\n[Result "*"]\n\n1. e3-c3 *\n'
    page = page_for_text(browser, tmp_path, "long-tags", text)
    names = page.locator(".tags td:first-child")
    assert [names.nth(i).evaluate(LINES) for i in range(names.count())] == [1] * names.count()
    assert page.locator(".tags td:nth-child(2)").nth(1).evaluate(LINES) > 1  # the value wraps


def test_an_index_keeps_its_file_names_and_links_whole(browser, tmp_path, monkeypatch):
    """The index of `html --output-dir` broke file names and "replay" mid-word ("s1.lg / n", "repl / ay")
    beside a long verdict: every cell wrapped anywhere (h69c)."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "records").mkdir()
    (tmp_path / "records" / "s1.lgn").write_text(
        f'[Game "tablut"]\n[White "Themightyglider"]\n[Date "2026.11.21.{"x" * 300}"]\n\n1. e3-c3 *\n'
    )
    result = CliRunner().invoke(main, ["html", "records", "--output-dir", "site"])
    assert result.exit_code == 0, result.output
    page = browser.new_page(viewport={"width": 700, "height": 700})
    page.goto((tmp_path / "site" / "index.html").as_uri())

    def cell(column, script):
        return page.locator(f".games td.{column}").first.evaluate(script)

    assert [cell("file", LINE_TEXTS), page.locator(".games td:last-child").first.evaluate(LINES)] in (
        [["records/s1.lgn"], 1],
        [["records/", "s1.lgn"], 1],
    )
    assert cell("verdict", LINES) > 1  # the verdict wraps
    assert "Themightyglider" in cell("players", LINE_TEXTS)[0]  # (h75b: a name broke mid-word, "…gl / ider")
    deep = tmp_path / "records" / "club_evenings_of_the_winter_of_2026" / "round_twelve_of_the_winter_league"
    deep.mkdir(parents=True)
    (deep / "the_final_between_the_two_leaders.lgn").write_text(
        f'[Game "tablut"]\n[White "{"Ab" * 40}"]\n[Variant "{"v" * 80}"]\n\n1. e3-c3 *\n'
    )
    result = CliRunner().invoke(main, ["html", "records", "--output-dir", "site"])
    assert result.exit_code == 1, result.output  # (its variant unknown: not replayed)
    page.goto((tmp_path / "site" / "index.html").as_uri())  # (review69: a long path widened the page; review75: a
    # long name)
    assert page.evaluate("document.documentElement.scrollWidth") <= 700
    assert page.evaluate("document.querySelector('.wide').scrollWidth") > 700  # (the table scrolls, its names whole)
    # but no wider than they need: a long name, a long word of a verdict and a long date break anywhere
    for column, word in (("players", "Ab" * 40), ("verdict", "v" * 40), ("date", "x" * 300)):
        lines = page.locator(f".games td.{column}").evaluate_all(f"cells => cells.map({LINE_TEXTS})")
        assert not any(word in line for cell in lines for line in cell) and word[:4] in str(lines), column
    files = page.locator(".games td:first-child").evaluate_all(f"cells => cells.map({LINE_TEXTS})")
    assert len(files[1]) > 1  # (the long path wraps)
    assert all(line.endswith("/") for lines in files for line in lines[:-1]), files  # (after a / alone)


# -- the opening explorer (archive/explorer.py), served by lusoria serve and by datasette ------------

DOCS = ROOT / "docs" / "archive.md"
PAGE_START, PAGE_END = (
    "<!-- explorer page: written by tests/system/test_browser.py -->",
    "<!-- end of explorer page -->",
)
AFTER_C5_C3 = "3ppp3/4p4/4P4/p3P3p/pp1PKPPpp/p3P3p/2P1P4/4p4/3ppp3 b"
AFTER_I6_F6 = "3ppp3/4p4/4P4/p3Pp3/pp1PKPPpp/p3P3p/2P1P4/4p4/3ppp3 w"
SCREENSHOT = ROOT / "docs" / "images" / "explorer.png"  # the page as docs/archive.md shows it


@pytest.fixture(scope="module")
def club(tmp_path_factory):
    from lusoria.archive import Archive

    path = tmp_path_factory.mktemp("explorer") / "club.db"
    Archive(str(path)).import_paths([str(ROOT / "samples")])
    return path


def started(command: list[str], address_in: Callable[[str], str | None]) -> tuple[subprocess.Popen, str]:
    """A server process, and the address it says it listens at (in a line of its output)."""
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    for line in process.stdout:
        if (address := address_in(line)) is not None:
            return process, address
    raise AssertionError(f"{command[0]} said no address")


@contextmanager
def serving(command: list[str], address_in: Callable[[str], str | None]):
    process, address = started(command, address_in)
    try:
        yield address
    finally:
        os.kill(process.pid, signal.SIGINT)
        process.wait(timeout=30)


VIEWPORT = {"width": 1100, "height": 760}


def png_size(image: bytes) -> tuple[int, int]:
    """The width and height of a PNG image (its header's first chunk, IHDR)."""
    assert image.startswith(b"\x89PNG\r\n\x1a\n") and image[12:16] == b"IHDR"
    return int.from_bytes(image[16:20], "big"), int.from_bytes(image[20:24], "big")


def explorer_page(browser, address: str):
    page = browser.new_page(viewport=VIEWPORT)
    errors: list[str] = []
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(address)
    return page, errors


def view(page) -> tuple[str, list[str], list[str]]:
    """The position on the board, the line in the breadcrumbs, the plies in the table."""
    return (
        page.locator("#board").get_attribute("data-position"),
        page.locator(".crumbs a").all_inner_texts(),
        page.locator("table.plies tbody tr").evaluate_all("rows => rows.map(r => r.dataset.ply)"),
    )


def page_text(page) -> str:
    """The plies table as the page shows it, as Markdown (the bar: its parts' titles)."""
    heads = page.locator("table.plies thead th").all_inner_texts()
    rows = page.locator("table.plies tbody tr, table.plies tfoot tr").evaluate_all(
        "rows => rows.map(r => [...r.cells].map(c => c.querySelector('.bar') ? "
        "[...c.querySelectorAll('span')].map(s => s.title).join(' · ') : c.innerText.trim()))"
    )
    lines = ["| " + " | ".join(heads) + " |", "|" + " --- |" * len(heads)] + [
        "| " + " | ".join(row) + " |" for row in rows
    ]
    return "\n".join(lines) + "\n"


def test_the_explorer_clicked_through(browser, club, tmp_path):
    command = [sys.executable, "-m", "lusoria.cli", "serve", "--db", str(club), "--port", "0"]
    with serving(command, lambda line: line.split(": ", 1)[1].split(" ")[0] if "http://" in line else None) as address:
        page, errors = explorer_page(browser, address + "?game=tablut&variant=seed")
        start, crumbs, plies = view(page)
        assert (start, crumbs) == ("3ppp3/4p4/4P4/p3P3p/ppPPKPPpp/p3P3p/4P4/4p4/3ppp3 w", ["start"])
        assert (
            plies[:2] == ["e3-c3", "c5-c3"] and page.locator("tr.totals td").first.inner_text() == f"all {len(plies)}"
        )
        page.click("table.plies a:text-is('c5-c3')")
        assert view(page) == (AFTER_C5_C3, ["start", "c5-c3"], ["i6-f6"])
        assert page.locator("#board .square.to[data-square='c3']").count() == 1  # the last ply marked
        text = page_text(page)
        shot(page, tmp_path, "explorer-c5-c3")
        if os.environ.get("LUSORIA_WRITE_DOCS"):
            page.screenshot(path=SCREENSHOT)
        page.click("table.plies a:text-is('i6-f6')")
        position, crumbs, plies = view(page)
        assert (position, crumbs, plies) == (AFTER_I6_F6, ["start", "c5-c3", "i6-f6"], ["d5-d3"])
        assert page.locator("#board .square.to[data-square='f6']").count() == 1
        page.fill("input[name=player]", "Karin Nilsson")
        page.click("button[type=submit]")
        assert "player=Karin+Nilsson" in page.url and view(page)[1:] == (["start", "c5-c3", "i6-f6"], ["d5-d3"])
        assert "won / drawn / lost" in page.locator("table.plies thead").inner_text()
        filtered = page.url
        replay = page.locator("a.replay").first
        ply = int(replay.get_attribute("href").split("#ply=")[1])
        replay.click()
        assert page.locator(".moves .ply.current").get_attribute("data-ply") == str(ply) == "2"
        page.go_back()
        assert page.url == filtered and view(page)[1] == ["start", "c5-c3", "i6-f6"]
        page.reload()
        assert page.url == filtered and view(page) == (position, ["start", "c5-c3", "i6-f6"], ["d5-d3"])
        page.keyboard.press("ArrowLeft")
        assert view(page)[:2] == (AFTER_C5_C3, ["start", "c5-c3"])
        page.keyboard.press("ArrowRight")
        assert view(page)[1] == ["start", "c5-c3", "i6-f6"]
        page.locator("table.plies th", has_text="games").click()  # sorted by games, fewest first
        assert errors == []
    written = DOCS.read_text()
    shown = written.split(PAGE_START + "\n", 1)[1].split(PAGE_END, 1)[0]
    if os.environ.get("LUSORIA_WRITE_DOCS"):  # the docs' copy of the page, made anew
        DOCS.write_text(written.replace(PAGE_START + "\n" + shown, PAGE_START + "\n" + text))
    else:
        assert shown == text, "docs/archive.md shows another page: LUSORIA_WRITE_DOCS=1 pytest -k clicked_through"
    assert f"]({SCREENSHOT.relative_to(DOCS.parent)})" in written  # the picture of the page, made here
    assert png_size(SCREENSHOT.read_bytes()) == tuple(VIEWPORT.values()) and SCREENSHOT.stat().st_size < 200_000


def test_the_explorer_served_by_datasette_itself(browser, club):
    datasette = shutil.which("datasette", path=os.path.dirname(sys.executable)) or "datasette"
    command = [datasette, "serve", str(club), "--port", "0"]
    with serving(
        command, lambda line: line.split("running on ")[1].split(" ")[0] if "running on http" in line else None
    ) as address:
        page, errors = explorer_page(browser, address + "/-/explorer/club?game=tablut&variant=seed&ply=c5-c3")
        assert view(page) == (AFTER_C5_C3, ["start", "c5-c3"], ["i6-f6"])
        page.goto(address + "/club/records?game=tablut")  # Datasette's own pages, with lusoria's plugin
        assert "Karin Nilsson" in page.content()
        assert errors == []
