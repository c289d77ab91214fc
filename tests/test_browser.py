"""The replay pages in a real browser (Debian's chromium, driven by Playwright)."""

import os
import shutil

import pytest
from click.testing import CliRunner

from lusoria.cli import main

from conftest import ROOT

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync"]
SHOTS = os.environ.get("LUSORIA_SCREENSHOTS")  # a folder to keep the screenshots in, to look at them

pytestmark = pytest.mark.skipif(not os.path.exists(CHROMIUM), reason=(
    f"no Chromium at {CHROMIUM}: the browser tests need Debian's chromium package "
    "(apt-get install chromium; .ci/run installs it)"))


@pytest.fixture(scope="module")
def browser():
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed (pip install -e '.[test]')")
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        yield browser
        browser.close()


def page_for(browser, tmp_path, sample: str, *options: str, ply: int | None = None):
    path = tmp_path / (sample.replace("/", "-") + "".join(options) + ".html")
    result = CliRunner().invoke(main, ["html", str(ROOT / "samples" / sample), *options, "-o", str(path)])
    assert result.exit_code == 0, result.output
    page = browser.new_page(viewport={"width": 1100, "height": 700})
    page.goto(path.as_uri() + (f"#ply={ply}" if ply is not None else ""))
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
    shot(page, tmp_path, "tablut-ply-7")
    page.keyboard.press("End")
    assert page.locator(".moves .ply.current").inner_text() == "Kc5-c1++"
    page.keyboard.press("ArrowLeft")
    assert page.locator(".moves .ply.current").get_attribute("data-ply") == "8"
    page.click("#first")
    assert page.locator(".moves .ply.current").count() == 0
    assert page.locator(".variation .ply").all_inner_texts() == ["d1-c1", "c7-c8"]  # the variation, listed


def test_the_address_opens_a_ply(browser, tmp_path):
    page = page_for(browser, tmp_path, "tablut/king-captured.lgn", ply=60)
    assert page.locator(".moves .ply.current").inner_text() == "e8-e7xKe6"
    assert page.locator('#board g.captured[data-square="e6"]').count() == 1
    assert page.locator("#board .piece.king").count() == 0


def test_an_illegal_ply_is_shown_in_red_with_its_rule(browser, tmp_path):
    page = page_for(browser, tmp_path, "errors/tablut-moves.lgn", "--record", "4")
    illegal = page.locator(".moves .ply.illegal")
    assert illegal.inner_text() == "d9-d2" and "error[T2]" in illegal.get_attribute("title")
    assert "error[T2]: the way is blocked at d5" in page.locator(".moves .diagnostic").inner_text()
    page.keyboard.press("End")
    status = page.locator("#status").inner_text()
    assert "ply 2 of 2" in status and "not replayed" in status and "T2" in status
    shot(page, tmp_path, "tablut-illegal")


def test_latrunculi_and_laquet_pages(browser, tmp_path):
    page = page_for(browser, tmp_path, "latrunculi/seneca.lgn", ply=757)
    assert page.locator('#board .piece.incitus[data-square="d3"]').count() == 1
    assert page.locator('#board g.captured[data-square="d3"]').count() == 1
    shot(page, tmp_path, "seneca-incitus")
    page = page_for(browser, tmp_path, "laquet/whole-game.lgn", ply=12)
    assert page.locator("#board .die").count() == 2
    assert page.locator('#board .point.to[data-point="14"]').count() == 1  # 41: 13/14 >4: 9/13
    assert page.locator('#board .point.from[data-point="9"]').count() == 1
    page.keyboard.press("End")
    assert page.locator("#board .off-count").all_text_contents() == ["1", "15"]  # Black, White
    shot(page, tmp_path, "laquet-end")
