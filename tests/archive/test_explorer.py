"""The opening explorer served by Datasette (archive/explorer.py, archive/datasette_plugin.py), in
process: its JSON is the CLI's, its page escapes what records hold, reads only, and answers any
URL with a page or a line (no traceback); `lusoria serve` starts it."""

import asyncio
import hashlib
import html
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import urllib.request
import warnings
from urllib.parse import quote, unquote, urlencode

import pytest
from click.testing import CliRunner
from conftest import ROOT
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from toy_game import Slide

from lusoria.api import random_records
from lusoria.archive import Archive, explorer
from lusoria.archive.datasette import explorer_path
from lusoria.archive.explorer import GAMES_SHOWN, MAX_GAMES, MAX_LINE, Answer, answer, tree_json
from lusoria.cli import main
from lusoria.validator import tablut
from lusoria.validator.games import GAMES, register
from lusoria.validator.hnefatafl import catalogue

datasette_app = pytest.importorskip("datasette.app", reason="Datasette is a test extra: pip install -e '.[test]'")

HOSTILE = (
    '[Game "tablut"]\n[White "<script>alert(1)</script>"]\n[Black "\\"><img src=x onerror=alert(2)>"]\n'
    '[Event "</table><h1>evil</h1>"]\n[Date "2024.01.02"]\n\n1. e3-c3 d1-d3 2. e4-e3xd3 { <b>bold</b> } 1-0\n'
)
LAQUET_START = "1:2,2:3,3:3,4:3,5:3,18:1 6:14,7:1 w"
FILTERS = [
    {},
    {"valid": "1"},
    {"player": "Karin Nilsson"},
    {"white": "olof berg"},
    {"date_from": "2026.11", "date_to": "2026-12-01"},
    {"result": "1-0"},
    {"event": "Club evening"},
    {"game": "tablut", "variant": "seed"},
    {"board": "9x9"},
    {"board": "8"},
    {"symmetric": "1"},
    {"symmetric": "1", "valid": "0"},
    {"order": "longest"},  # the games' (the tree's counts are the same in any order: `tree` has no --order)
]
OPTIONS = {"valid": {"1": ["--valid"], "0": ["--invalid"]}, "symmetric": {"1": ["--symmetric"]}}


@pytest.fixture(scope="module")
def path(tmp_path_factory):
    path = str(tmp_path_factory.mktemp("explorer") / "club.db")
    Archive(path).import_paths(
        [str(ROOT / "samples"), HOSTILE, "\n".join(random_records("laquet", 5, seed=2, max_plies=6))]
    )
    return path


@pytest.fixture(scope="module")
def site(path):
    return datasette_app.Datasette([path])


def get(site, url: str):
    return asyncio.run(site.client.get(url))


def said(response) -> str:
    """What an answer that cannot be given says: a JSON endpoint's line, or the message of a page's error page."""
    if response.headers["content-type"].startswith("text/plain"):
        return response.text
    error = re.search(r'<p class="error">(.*)</p>\n<nav class="back">Back to ', response.text)
    assert error is not None, response.text
    return html.unescape(error[1])


def cli(path: str, *args: str) -> str:
    result = CliRunner().invoke(main, [*args, "--db", path])
    assert result.exit_code == 0, result.output
    return result.output


def options(filters: dict[str, str]) -> list[str]:
    found = []
    for name, value in filters.items():
        found += OPTIONS[name][value] if name in OPTIONS else [f"--{name.replace('_', '-')}", value]
    return found


@pytest.mark.parametrize("filters", FILTERS, ids=lambda f: urlencode(f) or "none")
@pytest.mark.parametrize(
    "position",
    [
        tablut.INITIAL,
        tablut.INITIAL.replace("4P4/4p4/3ppp3 w", "2P6/4p4/3ppp3 b"),
        LAQUET_START,
    ],
    ids=["start", "after e3-c3", "laquet"],
)
def test_the_json_is_what_the_cli_writes(site, path, filters, position):
    query = urlencode({"position": position, **filters})
    tree = get(site, f"/-/explorer/club/tree.json?{query}&depth=2")
    if filters.get("game") == "tablut" and position == LAQUET_START:  # a position of another game than the one asked
        said = f"'{position}' is a position of laquet, not of tablut"
        assert (
            tree.status_code == 400
            and said in tree.text
            and said in get(site, f"/-/explorer/club/games.json?{query}").text
        )
        refused = CliRunner().invoke(main, ["tree", position, "--db", path, *options(filters)])
        assert refused.exit_code == 2 and said in refused.output
        return
    assert tree.status_code == 200 and tree.headers["content-type"].startswith("application/json")
    unordered = {name: value for name, value in filters.items() if name != "order"}
    assert tree.text == cli(path, "tree", position, "--format", "json", "--depth", "2", *options(unordered))
    games = get(site, f"/-/explorer/club/games.json?{query}")
    assert games.text == cli(
        path, "query", "--position", position, "--limit", "50", "--format", "json", *options(filters)
    )
    if filters == {} and position == tablut.INITIAL:
        assert len(json.loads(tree.text)) >= 4 and len(json.loads(games.text)) >= 10


@pytest.mark.parametrize(
    "filters",
    [
        {"game": "tablut", "variant": "seed"},
        {"game": "tablut"},
        {"variant": "seneca"},
        {"game": "tablut", "valid": "1"},
        {},  # no game: the game and variant of most records (Tablut's seed), as the page opens (it was a 400)
    ],
    ids=urlencode,
)
def test_the_tree_json_without_a_position_starts_from_the_start_of_the_game_as_the_cli_does(site, path, filters):
    tree = get(site, f"/-/explorer/club/tree.json?{urlencode(filters)}&depth=2")
    written = CliRunner().invoke(main, ["tree", "--db", path, "--format", "json", "--depth", "2", *options(filters)])
    assert tree.status_code == 200 and written.exit_code == 0
    assert tree.text == written.stdout  # (the CLI's note of the variant it chose is on stderr)
    first = json.loads(tree.text)[0]
    assert (first["ply"], first["game"]) == {"tablut": ("e3-c3", "tablut"), "seneca": ("@d4", "latrunculi")}[
        filters.get("game", filters.get("variant", "tablut"))
    ]


@pytest.mark.parametrize("params", [{"game": "tablut"}, {}])
def test_the_variant_the_explorer_chooses_is_warned_to_no_log(path, params):
    """The page shows the game and variant it opens on: its Archive does not warn them (ChosenWarning,
    a library call's) into the server's log for every request."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert json.loads(tree_json(path, params))[0]["ply"] == "e3-c3"


def test_the_explorers_requests_check_the_archive_once_while_its_file_stands_as_it_was(tmp_path, monkeypatch):
    """Each request made an Archive of its own, which opened the file to check its version before opening it
    to answer: the explorer keeps one an archive (`_archive`), whose check holds from request to request."""
    from lusoria.archive import commands

    path = str(tmp_path / "club.db")
    Archive(path).import_paths([str(ROOT / "samples/tablut")])
    checks: list[str] = []
    opening = commands.connect
    monkeypatch.setattr(commands, "connect", lambda *args, **kwargs: checks.append(args[0]) or opening(*args, **kwargs))
    first = tree_json(path, {"game": "tablut"})
    opened = len(checks)  # to check the file, and to answer
    assert tree_json(path, {"game": "tablut"}) == first
    assert len(checks) - opened == opened - 1  # to answer only


@pytest.mark.parametrize(
    ("params", "position"),
    [
        ({"game": "tablut", "variant": "seed"}, tablut.INITIAL),
        ({"game": "tablut", "variant": "seed", "ply": "e3-c3"}, "3ppp3/4p4/4P4/p3P3p/ppPPKPPpp/p3P3p/2P6/4p4/3ppp3 b"),
        ({}, tablut.INITIAL),  # no game: the game and variant of most records, as the page opens
    ],
    ids=["start", "after e3-c3", "no game"],
)
def test_the_json_without_a_position_is_that_of_the_pages_view(site, path, params, position):
    """`games.json?game=tablut` was a 400 (`the parameter position … is missing`) where `tree.json`
    starts from the game's start: it lists the games the page lists, as `query --position` does;
    `tree.json` goes on along the page's line of plies as `games.json` does (it started from the
    game's start whatever the line)."""
    games = get(site, f"/-/explorer/club/games.json?{urlencode(params)}")
    assert games.status_code == 200
    filters = ["--game", "tablut", "--variant", "seed"] if params else []
    assert games.text == cli(path, "query", "--position", position, "--limit", "50", "--format", "json", *filters)
    assert len(json.loads(games.text)) >= 2
    tree = get(site, f"/-/explorer/club/tree.json?{urlencode(params, doseq=True)}&depth=2")
    assert tree.status_code == 200
    assert tree.text == cli(path, "tree", position, "--format", "json", "--depth", "2", *filters)
    assert json.loads(tree.text)[0]["ply"] == ("d1-d3" if "ply" in params else "e3-c3")


def test_the_tree_json_without_a_depth_is_one_ply_deep_as_lusoria_tree_is(site, path):
    """`depth` left out of `tree.json` is the CLI's default, 1: the next plies alone, no child under any (h81c: a
    default of 2 went unseen, every test giving its depth)."""
    tree = get(site, "/-/explorer/club/tree.json?game=tablut&variant=seed")
    assert tree.status_code == 200
    assert tree.text == cli(path, "tree", "--game", "tablut", "--variant", "seed", "--format", "json")
    nodes = json.loads(tree.text)
    assert nodes[0]["ply"] == "e3-c3" and not any(node.get("children") for node in nodes)


def test_the_page_opened_on_the_variant_of_most_records_counts_that_variants_alone(tmp_path):
    """h75b: the page `serve` opens (no game named) showed tablut/aage but counted a linnaeus record that
    starts from the same position (3 games of d1-d3, 2 after `apply`), and listed it; `tree.json` along a
    line and `games.json` likewise. Each counts the records of the game and variant it shows."""
    both = str(tmp_path / "both.db")
    records = [
        f'[Game "tablut"]\n[Variant "{variant}"]\n[White "{white}"]\n\n1. d1-d3 {reply} *\n'
        for variant, white, reply in (
            ("aage", "Anna", "e3-f3"),
            ("aage", "Berit", "e4-c4"),
            ("linnaeus", "Study", "e3-f3"),
        )
    ]
    Archive(both).import_paths(["\n".join(records)])
    site = datasette_app.Datasette([both])
    for url in ("/-/explorer/both", "/-/explorer/both?game=tablut&variant=aage"):
        text = html.unescape(get(site, url).text)
        assert '>d1-d3</a></td><td data-value="2">2</td>' in text, url
        assert "Anna" in text and "Study" not in text
    assert [game["white"] for game in json.loads(get(site, "/-/explorer/both/games.json").text)] == ["Anna", "Berit"]
    after = json.loads(get(site, "/-/explorer/both/tree.json?ply=d1-d3").text)
    assert {node["ply"]: node["games"] for node in after} == {"e3-f3": 1, "e4-c4": 1}
    for url in ("games.json?variant=ashton", "tree.json?variant=ashton&ply=d1-d3"):  # (a variant named, none held:
        answered = get(site, f"/-/explorer/both/{url}")  # its records, not the page's (review75): none, a 404 (h83b)
        assert (answered.status_code, said(answered)) == (
            404,
            "the archive holds no record of the variant 'ashton' (known: aage, linnaeus)",
        )


@pytest.mark.parametrize(
    "query", ["game=brandubh", "game=tablut&variant=ashton", "game=tablut&variant=ashton&ply=e3-c3"]
)
def test_the_json_of_a_game_or_variant_the_archive_holds_no_record_of_is_a_404_as_the_page(site, query):
    """h83b: tree.json and games.json answered `[]` and 200 for a game or variant the archive holds no record of,
    where the page answers 404: a client could not tell a link's typo from no ply played yet. Each answers the
    page's 404, in its words; a game held whose line no game played is still `[]`."""
    page = get(site, f"/-/explorer/club?{query}")
    assert page.status_code == 404
    for endpoint in ("tree.json", "games.json"):
        answered = get(site, f"/-/explorer/club/{endpoint}?{query}")
        assert (answered.status_code, said(answered)) == (404, said(page))
    for endpoint in ("tree.json", "games.json"):
        assert (
            get(site, f"/-/explorer/club/{endpoint}?game=tablut&variant=seed&ply=e3-c3&ply=d1-d2").text.strip() == "[]"
        )


def test_the_page_and_tree_json_of_an_archive_of_no_record_with_a_legal_ply_say_so_alike(tmp_path):
    """`tree.json` naming no game opens where `lusoria tree` does, the page too; with no game to open on
    (a record of no plies, one whose first ply is illegal), the same line and 404 from both (the page
    said 404 and tree.json 400, in other words): the archive lacks what they show, as it lacks a game named."""
    empty = str(tmp_path / "empty.db")
    Archive(empty).import_paths(['[Game "tablut"]\n\n*\n[Game "tablut"]\n\n1. a1-a9 *\n'])
    expected = "the archive holds no record with a legal ply, whose game the tree would start from"
    assert answer(lambda: tree_json(empty, {})) == Answer(expected, 404)
    site = datasette_app.Datasette([empty])
    for url in ("/-/explorer/empty", "/-/explorer/empty/tree.json"):
        response = get(site, url)
        assert (response.status_code, said(response)) == (404, expected)


def test_the_page_shows_the_board_the_next_plies_and_the_games(site):
    page = get(site, "/-/explorer/club?game=tablut&variant=seed&ply=e3-c3")
    assert page.status_code == 200
    text = html.unescape(page.text)
    assert 'data-position="3ppp3/4p4/4P4/p3P3p/ppPPKPPpp/p3P3p/2P6/4p4/3ppp3 b"' in text
    assert '<tr data-ply="d1-d3">' in text and "<svg" in text
    assert 'href="?game=tablut&variant=seed&ply=e3-c3&ply=d1-d3"' in text  # a ply goes on
    assert 'href="?game=tablut&variant=seed" data-ply="0">start</a> › ' in text  # back to the start
    assert '<tr class="totals"><td>all ' in text
    assert "#ply=1" in text and "/-/explorer/club/record/" in text  # each game opens at the ply


def test_the_games_are_listed_in_the_order_asked_as_query_lists_them(site, path):
    """`query --order longest` lists the longest games first; the explorer's games, oldest first
    only, took no `order` (`?order=longest` was ignored)."""
    page = get(site, "/-/explorer/club?game=tablut&order=longest").text
    listed = [int(found) for found in re.findall(r"/record/(\d+)#ply=", page)]
    query = cli(
        path, "query", "--game", "tablut", "--position", tablut.INITIAL, "--order", "longest", "--format", "json"
    )
    assert listed == [row["id"] for row in json.loads(query)][:GAMES_SHOWN]
    assert '<option value="longest" selected>longest first</option>' in page
    assert "order=longest" in page.split('<nav class="crumbs">')[1]  # (the links keep it)


@pytest.mark.parametrize("side", ["white", "black"])
def test_a_player_on_one_side_is_what_the_cli_reads_with_that_sides_option(site, path, side):
    query = urlencode({"position": tablut.INITIAL, "player": "Karin Nilsson", "side": side})
    tree = get(site, f"/-/explorer/club/tree.json?{query}&depth=2")
    assert tree.status_code == 200
    assert tree.text == cli(
        path, "tree", tablut.INITIAL, "--format", "json", "--depth", "2", f"--{side}", "Karin Nilsson"
    )
    assert tree.text != cli(
        path, "tree", tablut.INITIAL, "--format", "json", "--depth", "2", "--player", "Karin Nilsson"
    )


def test_with_a_player_a_plys_bar_shows_the_games_they_won_and_lost(site):
    page = get(site, "/-/explorer/club?game=tablut&variant=seed&player=Karin+Nilsson")
    row = page.text[page.text.index('<tr data-ply="e4-g4">') :]
    bar = row[row.index('<div class="bar') : row.index("</div>")]
    assert bar == '<div class="bar"><span class="black" style="width:100.00%" title="lost 100.0%"></span>'  # lost


def test_a_position_no_game_went_on_from_says_so(site):
    page = get(site, "/-/explorer/club?game=tablut&variant=seed&ply=e3-c3&player=Nobody")
    assert page.status_code == 200 and "No ply was played from this position in these games." in page.text


def test_what_records_hold_is_escaped(site):
    page = get(site, "/-/explorer/club?game=tablut&variant=seed&ply=e3-c3&ply=d1-d3")
    assert page.status_code == 200
    assert "<script>alert" not in page.text and "<img" not in page.text and "<h1>evil" not in page.text
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page.text and "&lt;/table&gt;&lt;h1&gt;evil" in page.text
    record = get(site, "/-/explorer/club/record/" + page.text.split("/-/explorer/club/record/")[1].split("#")[0])
    assert record.status_code == 200 and "<img src=x" not in record.text and "<b>bold" not in record.text


AAGE = {
    "WhiteSidePlayerName": "Karin",
    "BlackSidePlayerName": "Olof",
    "AageGameTypeName": "Historical Hnefatafl 9x9 (Saami Tablut)",
    "WhoMovedFirst": "black",
    "Moves": ["d1-d3", "zz9-q"],
}


def test_the_page_of_a_record_kept_as_written_reads_it_in_its_format(tmp_path):
    """A record its reader refused or could not parse is kept as its file wrote it (JSON, a CSV
    row): its page said 'not a game record in lgn … no tag and no movetext', read as lusoria's
    notation; it shows what its import found, or says why it cannot be replayed alone."""
    (tmp_path / "moves.json").write_text(json.dumps(AAGE))
    (tmp_path / "type.json").write_text(json.dumps({**AAGE, "AageGameTypeName": "Martian Hnefatafl 23x23"}))
    (tmp_path / "copenhagen.csv").write_text('moves,defenders lost,attackers lost,status\n"d1-d3 zz9-q",0,0,x\n')
    path = str(tmp_path / "kept.db")
    Archive(path).import_paths([str(tmp_path / name) for name in ("moves.json", "type.json", "copenhagen.csv")])
    site = datasette_app.Datasette([path])
    pages = [get(site, f"/-/explorer/kept/record/{record}") for record in (1, 2, 3)]
    assert [page.status_code for page in pages] == [200, 200, 422]
    assert "not a game record in lgn" not in pages[0].text + pages[1].text
    assert '<span class="whole">&#x27;zz9-q&#x27;,</span> expected a move such as' in pages[0].text  # (kept whole)
    assert "game type &#x27;Martian Hnefatafl 23x23&#x27; is none that lusoria knows" in pages[1].text
    assert said(pages[2]) == (
        "record 3 is kept as written in csv, which cannot be replayed without its file: "
        f"{tmp_path / 'copenhagen.csv'}:2:8: error[syntax]: "
        "found 'zz9-q', expected a move such as e2-c2 or f9-f5xg5, 'resigned' or 'timeout'"
    )


@pytest.mark.parametrize(
    "text",
    [  # under a header of names separated by tabs; under `#` lines, a blank line and column names
        "moves\tdefenders lost\tattackers lost\tstatus\nd1-d3\t0\t0\tWhite\nd1-d3 d9-d8 zz9-q\t0\t0\tx\n",
        '# copenhagen\n# a note\n\nmoves,defenders lost,attackers lost,status\n"d1-d3 d9-d8 zz9-q",0,0,x\n',
    ],
)
def test_the_page_of_an_unparsable_csv_row_says_its_problem_where_validate_does(tmp_path, text):
    """Its 422 line cites the row's problem at the place validate gives it (the file's line, not the row's)."""
    csv = tmp_path / "copenhagen.csv"
    csv.write_text(text)
    expected = CliRunner().invoke(main, ["validate", str(csv)]).stdout.splitlines()[0]
    Archive(str(tmp_path / "rows.db")).import_paths([str(csv)])
    [record] = [row["id"] for row in Archive(str(tmp_path / "rows.db")).iter_sql("SELECT max(id) AS id FROM records")]
    page = get(datasette_app.Datasette([str(tmp_path / "rows.db")]), f"/-/explorer/rows/record/{record}")
    assert (page.status_code, said(page).split("without its file: ")[1]) == (422, expected)
    assert re.match(rf"{re.escape(str(csv))}:{text.count(chr(10))}:1[34]: error\[syntax\]: found 'zz9-q'", expected)


def test_the_page_of_a_csv_row_kept_as_written_replays_it(tmp_path):
    """A CSV row with a count its moves do not list (kept as written: lgn has no place for the
    count) is read with the game the archive holds for it: its page answered 422, as the row does not
    name its game."""
    from test_kept_as_written import counted

    site = datasette_app.Datasette([counted(tmp_path).path])
    page = get(site, "/-/explorer/counts/record/2")
    plies = re.findall(r'<span class="ply" data-ply="(\d+)"[^>]*>([^<]*)</span>', page.text)
    assert (page.status_code, plies) == (200, [("1", "e3-c3"), ("2", "d1-d2")])
    assert (
        '<div class="diagnostic error">error[T4]: the defenders lost are counted 5, and the moves list 0' in page.text
    )


def test_the_page_of_a_record_kept_as_written_shows_what_its_import_found(tmp_path):
    """An aagenielsen.dk move that captures a piece its list leaves out (G5): its page replayed the
    lgn the archive held, valid, without the error its import found."""
    from test_kept_as_written import imported

    site = datasette_app.Datasette([imported(tmp_path)])
    page = get(site, "/-/explorer/a/record/1")
    assert page.status_code == 200
    assert "the move captures b4, which the record does not list" in page.text


def test_the_explorer_reads_only(site, path):
    before = hashlib.sha256(open(path, "rb").read()).hexdigest()
    for url in ("/-/explorer/club", "/-/explorer/club?symmetric=1&valid=1", "/-/explorer/club/record/1"):
        assert get(site, url).status_code == 200
    assert hashlib.sha256(open(path, "rb").read()).hexdigest() == before


@pytest.mark.parametrize(
    "url, status, expected",
    [
        ("/-/explorer/nowhere", 404, "no archive named nowhere"),
        ("/-/explorer/club?game=chess", 400, "unknown game 'chess' (known: brandubh, copenhagen, hnefatafl, "),
        (  # said with the page's parameter, not the CLI's --variant
            "/-/explorer/club?game=hnefatafl",
            400,
            "the parameter variant is needed: the archive holds no record of hnefatafl, whose boards are its "
            "variants (lusoria explain hnefatafl lists them)",
        ),
        ("/-/explorer/club?game=tablut&ply=zz", 400, "the line's move 1, Swedes (White): zz is not a ply of tablut"),
        ("/-/explorer/club?game=tablut&ply=e3-e2", 400, "the line's move 1, Swedes (White): e3-e2 cannot be played"),
        (
            "/-/explorer/club?game=tablut&ply=e3-c3&ply=zz",
            400,
            "the line's move 1, Muscovites (Black): zz is not a ply",
        ),
        (
            "/-/explorer/club/games.json?game=tablut&ply=zz",
            400,
            "the line's move 1, Swedes (White): zz is not a ply of tablut",
        ),
        (
            "/-/explorer/club/tree.json?game=tablut&ply=e3-e2",
            400,
            "the line's move 1, Swedes (White): e3-e2 cannot be played",
        ),
        ("/-/explorer/club?date_from=May", 400, "a date filter is YYYY"),
        ("/-/explorer/club?valid=yes", 400, "the parameter valid is 1 or 0"),
        ("/-/explorer/club?order=long", 400, "the parameter order is one of oldest, newest, longest, shortest"),
        (
            f"/-/explorer/club/games.json?position=x&limit={MAX_GAMES + 1}",
            400,
            f"the parameter limit: '{MAX_GAMES + 1}' is not a whole number from 0 to {MAX_GAMES}",
        ),
        ("/-/explorer/club?" + "&".join(["ply=e3-c3"] * (MAX_LINE + 1)), 400, f"a line is at most {MAX_LINE} plies"),
        ("/-/explorer/club?event=" + "x" * 201, 400, "the parameter event is longer than 200 characters"),
        ("/-/explorer/club/tree.json?game=hnefatafl", 400, "the parameter variant is needed: the archive holds no"),
        ("/-/explorer/club/tree.json?position=nonsense", 400, "'nonsense' is not a position string of any game"),
        (
            "/-/explorer/club/tree.json?position=x&depth=3",
            400,
            "the parameter depth: '3' is not a whole number from 1 to 2",
        ),
        ("/-/explorer/club/record/99999", 404, "no record of the archive has the id 99999 (its ids run from 1 to "),
    ],
)
def test_a_url_that_cannot_be_answered_gets_a_line(site, url, status, expected):
    """A line for JSON; for a page, an error page that says it (`said`)."""
    response = get(site, url)
    kind = "text/plain" if url.split("?")[0].endswith(".json") else "text/html"  # (JSON's error: a line)
    assert (response.status_code, response.headers["content-type"].split(";")[0]) == (status, kind)
    assert said(response).startswith(expected)


@pytest.mark.parametrize(
    "url, back",
    [
        (
            "/-/explorer/club/record/99999",
            '<a href="/-/explorer/club">the explorer</a> · <a href="/club">the archive</a>',
        ),
        (
            "/-/explorer/club?game=tablut&ply=zz",
            '<a href="/-/explorer/club?game=tablut">the line as far as it plays (0 plies)</a> · '
            '<a href="/-/explorer/club">the explorer</a> · <a href="/club">the archive</a>',
        ),
        (  # an illegal ply (a move must leave its square), after one that plays
            "/-/explorer/club?game=tablut&ply=e3-c3&ply=d1-d1",
            '<a href="/-/explorer/club?game=tablut&amp;ply=e3-c3">the line as far as it plays (1 ply)</a> · '
            '<a href="/-/explorer/club">the explorer</a> · <a href="/club">the archive</a>',
        ),
        (  # the line as far as it plays, its filters kept: a ply mistyped in a long line is not all the line lost
            "/-/explorer/club?game=tablut&player=Anna&ply=e3-c3&ply=d1-d3&ply=zz",
            '<a href="/-/explorer/club?game=tablut&amp;player=Anna&amp;ply=e3-c3&amp;ply=d1-d3">'
            'the line as far as it plays (2 plies)</a> · <a href="/-/explorer/club">the explorer</a> · '
            '<a href="/club">the archive</a>',
        ),
        (
            "/-/explorer/club?game=tablut&variant=nine",
            '<a href="/-/explorer/club">the explorer</a> · <a href="/club">the archive</a>',
        ),
        ("/-/explorer/nowhere", '<a href="/">the archives</a>'),
    ],
)
def test_an_error_page_links_back_to_the_explorer_and_the_archive(site, url, back):
    """A record id no record has, a line that cannot be played, a variant lusoria does not know: the page
    said a line of plain text, and a reader who followed an old link had nowhere to go but the back button. A
    line that cannot be played links first to the line as far as it plays (until session 46, to the start alone)."""
    response = get(site, url)
    assert response.status_code in (400, 404)
    assert f'<nav class="back">Back to {back}</nav></body></html>' in response.text


@pytest.mark.parametrize(
    "url",
    [
        "/-/explorer/club?" + urlencode({"game": "tablut", "ply": "<img src=x onerror=alert(1)>"}),
        "/-/explorer/club?" + urlencode({"game": "tablut", "variant": "<img src=x onerror=alert(1)>"}),
        "/-/explorer/%3Cimg%20src=x%20onerror=alert(1)%3E",
    ],
)
def test_an_error_page_escapes_what_its_url_wrote(site, url):
    """The error page says what the URL wrote (a ply, a variant, an archive's name): escaped, never markup a
    link could plant in the reader's page."""
    response = get(site, url)
    assert response.status_code in (400, 404) and response.headers["content-type"].startswith("text/html")
    assert "<img" not in response.text and "&lt;img src=x onerror=alert(1)&gt;" in response.text


@pytest.mark.parametrize("game", ["chess", "Tablet"])
def test_an_unknown_game_is_said_in_one_wording_by_the_page_games_json_and_tree_json(site, game):
    """The page and games.json said `lusoria knows no game 'chess'`, tree.json `unknown game 'chess'
    (known: …)`: the registry's words in all three, as `lusoria tree --game` says them."""
    expected = f"unknown game '{game.lower()}' (known: brandubh, copenhagen, hnefatafl, laquet, latrunculi, tablut"
    answered = (get(site, f"/-/explorer/club{at}?game={game}") for at in ("", "/games.json", "/tree.json"))
    [(status, text)] = {(answer.status_code, said(answer)) for answer in answered}  # one answer of the three
    assert status == 400 and text.startswith(expected)


@pytest.mark.parametrize(
    ("game", "parameters"),
    [
        ("linnaeus", "?game=tablut&variant=linnaeus"),
        ("tablut/linnaeus", "?game=tablut&variant=linnaeus"),  # as `lusoria explain` takes it
        ("saami-tablut-w", "?variant=saami-tablut-w"),  # a catalogue's entry, which sets rules too, by its name
    ],
)
def test_a_variant_given_as_the_game_is_said_with_the_parameters_that_name_it(site, game, parameters):
    """`?game=linnaeus` said the registry's words alone, where `lusoria tree --game linnaeus` says the
    options that name it (session 49): the page and tree.json say the URL's parameters, not --game; the
    error page links there (it linked to the explorer's start alone, session 50)."""
    page, tree = (get(site, f"/-/explorer/club{at}?game={game}") for at in ("", "/tree.json"))
    [(status, text)] = {(answer.status_code, said(answer)) for answer in (page, tree)}  # one answer of the two
    assert status == 400 and text.endswith(f"); {game} is a variant, not a game: {parameters}")
    back = f'Back to <a href="/-/explorer/club{html.escape(parameters)}">the explorer of {game}</a> · '
    assert back in page.text


@pytest.mark.parametrize("endpoint", ["tree.json", "games.json"])
def test_a_variant_given_as_the_game_beside_a_position_is_said_with_the_parameters_that_name_it(site, endpoint):
    """`tree.json?position=…&game=linnaeus` said the archive's filter's words, `--game tablut --variant
    linnaeus`, on a web page (review-49h): the URL's parameters, as without a position."""
    position = quote("3ppp3/4p4/4P4/p3P3p/ppPPKPPpp/p3P3p/4P4/4p4/3ppp3 b")  # (Tablut's start)
    answered = get(site, f"/-/explorer/club/{endpoint}?position={position}&game=tablut/linnaeus")
    assert answered.status_code == 400 and said(answered).startswith("unknown game 'tablut/linnaeus' (known: ")
    assert said(answered).endswith("); tablut/linnaeus is a variant, not a game: ?game=tablut&variant=linnaeus")
    other = get(site, f"/-/explorer/club/{endpoint}?position={position}&game=chess")  # (no variant: as before)
    assert said(other).startswith(f"'{unquote(position)}' is a position of hnefatafl, tablut, not of chess: ")


@pytest.mark.parametrize("endpoint", ["", "/tree.json", "/games.json"])
def test_a_games_name_given_as_the_variant_says_the_games_parameter(site, endpoint):
    """`tree.json?variant=tablut` (no game) said `--game tablut`, a command-line word, on a web page (session 49);
    the page (and games.json) said `the parameter variant is ambiguous: other programs call several variants
    'tablut'`, reading it as a filter of the game of most records: all three say it as tree.json (review-49h)."""
    answered = get(site, f"/-/explorer/club{endpoint}?variant=tablut")
    assert answered.status_code == 400 and said(answered).startswith("unknown variant 'tablut': no game has it (")
    assert said(answered).endswith("); tablut is a game, not a variant: name it as the game (?game=tablut)")
    if not endpoint:  # (the error page links to that game's explorer)
        assert 'Back to <a href="/-/explorer/club?game=tablut">the explorer of tablut</a>' in answered.text


@pytest.mark.parametrize("endpoint", ["tree.json", "games.json"])
@pytest.mark.parametrize("position", ["", "3ppp3/4p4/4P4/p3P3p/ppPPKPPpp/p3P3p/2P6/4p4/3ppp3 b"])
def test_a_game_named_as_a_filters_variant_is_said_in_the_urls_words(site, endpoint, position):
    """From a position (and from a game's start), a game's name given as the variant, the archive holding
    no record of it, was said in a command's words on a web page: `--game brandubh`, and of the game's own
    name `lusoria explain tablut lists them`: the URL's parameters now (`Archive.naming`)."""
    at = f"position={quote(position)}&" if position else ""
    other = get(site, f"/-/explorer/club/{endpoint}?{at}game=tablut&variant=brandubh")
    held = "the archive holds no record of the variant 'brandubh' of tablut (known: copenhagen, linnaeus, seed; "
    assert other.status_code == 400 and said(other).startswith(
        f"the parameter variant names no variant that lusoria knows, and {held}"
        if position  # (without, the tree starts from the variant's start: its rules refuse it, in the URL's words)
        else "unknown variant 'brandubh' for tablut (known: seed, linnaeus, unarmed, aage, ashton)"
    )
    assert said(other).endswith("); brandubh is a game, not a variant: name it as the game (?game=brandubh)")
    own = get(site, f"/-/explorer/club/{endpoint}?{at}game=tablut&variant=Tablut")
    assert own.status_code == 400 and said(own).endswith(
        "); tablut is the game itself, not one of its variants: leave the variant out (?game=tablut)"
    )


@pytest.mark.parametrize(
    ("filters", "expected"),
    [
        (
            "game=nosuch",
            "the parameter game names no game that lusoria knows, and the archive holds no record of the game "
            "'nosuch' (known: chess, laquet, latrunculi, tablut)",
        ),
        (
            "game=tablut&variant=nosuch",
            "the parameter variant names no variant that lusoria knows, and the archive holds no record of the "
            "variant 'nosuch' of tablut (known: copenhagen, linnaeus, seed)",
        ),
        (
            "variant=tablut",
            "the parameter variant is ambiguous: other programs call several variants 'tablut': name one "
            "(opentafl-tablut-9x9 or opentafl-tablut-15x15)",
        ),
    ],
)
def test_the_tree_from_a_position_says_the_filters_the_archives_records_do_not_match(site, filters, expected):
    """From a position, the game and variant filter the archive's records, as `lusoria tree POSITION --game`
    does: what is said names those the archive holds, not the registry's (session 49's run: the `position is
    None` of the three checks of `tree_json` without a position, dropped, survived)."""
    position = "3ppp3/4p4/4P4/p3P3p/ppPPKPPpp/p3P3p/2P6/4p4/3ppp3 b".replace("/", "%2F").replace(" ", "+")
    answered = get(site, f"/-/explorer/club/tree.json?position={position}&{filters}")
    assert (answered.status_code, said(answered)) == (400, expected)


def test_an_answer_that_outlasts_its_time_is_a_line_with_503(site, monkeypatch):
    """The page's work is still under way (held until the answer is given) when its time is up."""
    released = threading.Event()
    monkeypatch.setattr(explorer, "TIMEOUT", 0.001)
    monkeypatch.setattr(explorer, "page", lambda *_: released.wait() and "a page")
    loop = asyncio.new_event_loop()
    try:
        response = loop.run_until_complete(site.client.get("/-/explorer/club"))
    finally:
        released.set()
        loop.close()  # (does not wait for the page's thread)
    assert (response.status_code, response.headers["content-type"].split(";")[0]) == (503, "text/html")
    assert said(response) == "the answer took too long"


NAMES = st.sampled_from(
    [
        "game",
        "variant",
        "board",
        "player",
        "side",
        "white",
        "black",
        "event",
        "date_from",
        "date_to",
        "result",
        "valid",
        "symmetric",
        "ply",
        "position",
        "depth",
        "sort",
        "min_games",
        "limit",
        "game_variant",
        "other",
    ]
)
VALUES = st.one_of(
    st.text(max_size=30),
    st.sampled_from(
        [
            "1",
            "0",
            "tablut",
            "seed",
            "9x9",
            "e3-c3",
            "white",
            "1-0",
            "",
            "2026",
            "9" * 30,
            tablut.INITIAL,
            "tablut/seed",
        ]
    ),
)


@settings(max_examples=60, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    endpoint=st.sampled_from(["", "/tree.json", "/games.json"]), pairs=st.lists(st.tuples(NAMES, VALUES), max_size=6)
)
def test_any_query_string_gets_an_answer_not_a_traceback(site, endpoint, pairs):
    response = get(site, f"/-/explorer/club{endpoint}?{urlencode(pairs)}")
    assert response.status_code in (200, 400, 404), response.text
    assert "Traceback" not in response.text and len(response.content) < 2_000_000


def test_serve_starts_the_explorer_and_prints_its_address(path):
    process = subprocess.Popen(
        [sys.executable, "-m", "lusoria.cli", "serve", "--db", path, "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        line = process.stdout.readline()
        address = line.split(": ", 1)[1].split(" ")[0]
        assert line == f"The explorer of {path}: {address} (Ctrl-C stops)\n"
        assert address.startswith("http://127.0.0.1:") and address.endswith("/-/explorer/club")
        local = urllib.request.build_opener(urllib.request.ProxyHandler({}))  # no proxy for this machine
        with local.open(address + "?game=tablut&variant=seed", timeout=30) as response:
            assert response.status == 200 and b'id="board"' in response.read()
    finally:
        os.kill(process.pid, signal.SIGINT)
        process.wait(timeout=30)
    assert process.returncode == 0 and "Traceback" not in process.stderr.read()


def test_an_archive_whose_name_has_a_space_is_explored_at_the_address_serve_prints(path, tmp_path):
    """`lusoria serve --db "autumn open.db"` printed /-/explorer/autumn open, and the explorer
    answered 404 to every spelling of it: Datasette's routes are tilde-encoded (autumn+open)."""
    spaced = str(tmp_path / "autumn open.db")
    shutil.copy(path, spaced)
    site = datasette_app.Datasette([spaced])
    address = explorer_path(spaced)
    assert address == "/-/explorer/autumn+open"
    for typed in (address, "/-/explorer/autumn%20open"):  # (a browser sends a space typed as %20)
        page = get(site, typed + "?game=tablut&variant=seed")
        assert page.status_code == 200 and 'id="board"' in page.text
    assert f'href="{address}"' in get(site, "/").text  # the menu's link


def test_serve_without_datasette_says_how_to_install_it(path, monkeypatch):
    monkeypatch.setitem(sys.modules, "datasette.app", None)  # import datasette.app fails
    result = CliRunner().invoke(main, ["serve", "--db", path])
    assert result.exit_code == 2
    assert result.output == "lusoria: lusoria serve needs Datasette: pip install 'lusoria[web]'\n"


@pytest.mark.parametrize(
    "game, variant", [("laquet", "seed"), ("latrunculi", "seneca"), ("latrunculi", "dux"), ("tablut", "linnaeus")]
)
def test_the_page_of_every_game_goes_two_plies_on(site, game, variant):
    line = []
    for _ in range(2):
        page = get(
            site, f"/-/explorer/club?{urlencode([('game_variant', f'{game}/{variant}'), *(('ply', p) for p in line)])}"
        )
        assert page.status_code == 200, page.text
        plies = [html.unescape(ply) for ply in page.text.split('<tr data-ply="')[1:]]
        if not plies:
            break
        line.append(plies[0].split('"')[0])
    assert line  # a game of the samples: some ply was played from its start


def test_a_game_whose_boards_are_its_variants_opens_on_the_variant_of_most_records(tmp_path):
    """`?game=hnefatafl` (a link typed by hand): its variant of most records, not a 400 that asks
    for a Variant tag."""
    path = str(tmp_path / "club.db")
    ard_ri, brandub = {"Variant": "ard-ri-1-7x7"}, {"Variant": "opentafl-brandub-7x7"}
    records = [  # the other variant comes first: imported, in the catalogue and by its name
        *random_records("hnefatafl", 1, seed=1, tags=ard_ri, max_plies=6),
        *random_records("hnefatafl", 2, seed=1, tags=brandub, max_plies=6),
    ]
    Archive(path).import_paths(["\n".join(records)])
    page = get(datasette_app.Datasette([path]), "/-/explorer/club?game=hnefatafl")
    assert page.status_code == 200, page.text
    assert '<option value="hnefatafl/opentafl-brandub-7x7" selected>' in page.text


def test_a_game_whose_boards_are_its_variants_opens_on_the_board_asked_as_lusoria_tree_starts(tmp_path):
    """`board`, as `lusoria tree --board`: the variant of most records on that board, and its games
    only; a board the archive holds none of leaves the variant of most records."""
    path = str(tmp_path / "club.db")
    skalk, brandub = {"Variant": "skalk-hnefatafl-11x11"}, {"Variant": "opentafl-brandub-7x7"}
    records = [
        *random_records("hnefatafl", 1, seed=1, tags=skalk, max_plies=6),
        *random_records("hnefatafl", 2, seed=1, tags=brandub, max_plies=6),
    ]
    Archive(path).import_paths(["\n".join(records)])
    site = datasette_app.Datasette([path])
    on_11x11 = get(site, "/-/explorer/club?game=hnefatafl&board=11x11")
    assert on_11x11.status_code == 200, on_11x11.text
    assert '<option value="hnefatafl/skalk-hnefatafl-11x11" selected>' in on_11x11.text
    assert "Games reaching this position (1 shown)" in on_11x11.text
    assert (
        '<option value="hnefatafl/opentafl-brandub-7x7" selected>'
        in get(site, "/-/explorer/club?game=hnefatafl&board=9").text
    )
    no_game = get(site, "/-/explorer/club?board=11").text  # the game of most records there, not of the archive
    assert '<option value="hnefatafl/skalk-hnefatafl-11x11" selected>' in no_game
    assert "Games reaching this position (1 shown)" in no_game
    wrong = get(site, "/-/explorer/club?game=hnefatafl&board=big")
    assert (wrong.status_code, said(wrong)) == (
        400,
        "the parameter board is a board's size, as 11x11 (or 11: a square board); not 'big'",
    )


def test_the_game_list_offers_every_game_of_the_archive_and_the_one_shown(tmp_path):
    """More than 100 variants of hnefatafl (an aagenielsen.dk scrape has 163) left Tablut, after
    them in the alphabet, out of the list; a game shown without a variant (`?game=tablut`) was no
    option, so the form showed, and sent with the next filter, the first one of the list."""
    path = str(tmp_path / "club.db")
    variants = [variant.name for variant in catalogue() if not variant.game][:101]
    records = [
        record for name in variants for record in random_records("hnefatafl", 1, tags={"Variant": name}, max_plies=2)
    ]
    Archive(path).import_paths(["\n".join([*records, *random_records("tablut", 1, max_plies=2)])])
    site = datasette_app.Datasette([path])
    listed = get(site, "/-/explorer/club?game=tablut").text.split('name="game_variant">')[1].split("</select>")[0]
    assert '<option value="tablut/" selected>tablut (all variants)</option>' in listed
    assert '<option value="tablut/seed">tablut/seed</option>' in listed
    assert listed.count("<option") == 103


def test_the_game_list_offers_no_game_alone_for_records_of_no_variant(tmp_path):
    """Records whose rules could not be read (no variant) are in no tree, yet offered `laquet/`,
    shown as "laquet" beside "laquet/seed", which read as a duplicate: it led to every record of
    laquet, not to them. A URL that names the game alone still shows it, as the one shown."""
    path = str(tmp_path / "club.db")
    unparsable = '[Game "laquet"]\n\n1. 46: 5/11 4/8 31 *\n'
    Archive(path).import_paths(["\n".join([*random_records("laquet", 1, max_plies=2), unparsable])])
    site = datasette_app.Datasette([path])
    listed = get(site, "/-/explorer/club").text.split('name="game_variant">')[1].split("</select>")[0]
    assert listed == '<option value="laquet/seed" selected>laquet/seed</option>'
    alone = get(site, "/-/explorer/club?game=laquet").text.split('name="game_variant">')[1].split("</select>")[0]
    assert alone.startswith(
        '<option value="laquet/" selected>laquet (all variants)</option><option value="laquet/seed">'
    )


def test_the_game_alone_is_listed_as_every_variant_and_a_variant_lusoria_does_not_know_is_not(tmp_path):
    """`?game=tablut` was listed as "tablut", though its tree and games are those of every variant from
    the game's start (an Ashton record's too); records of `tablut/copenhagen` (samples/errors/tags.lgn:
    Copenhagen is a game, not a Tablut variant) are in no tree, so not listed, and a URL naming them says why."""
    path = str(tmp_path / "club.db")
    ashton = next(random_records("tablut", 1, seed=5, tags={"Variant": "ashton"}, max_plies=4))
    Archive(path).import_paths([str(ROOT / "samples/tablut"), str(ROOT / "samples/errors/tags.lgn"), ashton])
    site = datasette_app.Datasette([path])
    page = get(site, "/-/explorer/club?game=tablut").text
    listed = page.split('name="game_variant">')[1].split("</select>")[0]
    assert listed == (
        '<option value="tablut/" selected>tablut (all variants)</option>'
        '<option value="tablut/ashton">tablut/ashton</option>'
        '<option value="tablut/linnaeus">tablut/linnaeus</option><option value="tablut/seed">tablut/seed</option>'
    )
    assert "(6 shown)" in page and "(5 shown)" in get(site, "/-/explorer/club?game=tablut&variant=seed").text
    unknown = get(site, "/-/explorer/club?game=tablut&variant=copenhagen")
    assert (unknown.status_code, said(unknown)) == (
        400,
        "unknown variant 'copenhagen' for tablut (known: seed, linnaeus, unarmed, aage, ashton); copenhagen is a "
        "game, not a variant: name it as the game (?game=copenhagen)",  # (until session 48 `--game copenhagen`)
    )
    assert '<nav class="back">Back to <a href="/-/explorer/club?game=copenhagen">the explorer of copenhagen</a>' in (
        unknown.text
    )
    for endpoint in ("tree.json", "games.json"):  # (tree.json said `--game copenhagen` until session 48)
        answered = get(site, f"/-/explorer/club/{endpoint}?game=tablut&variant=copenhagen")
        assert (answered.status_code, said(answered)) == (400, said(unknown))


def test_a_game_or_variant_the_archive_holds_none_of_is_said_as_lusoria_tree_says_it(tmp_path):
    """`?game=laquet` on an archive of Tablut alone answered an empty "laquet explorer" page, status 200,
    where `lusoria tree --game laquet` says the archive holds no Laquet. Filters that find nothing
    still show the game's page, empty."""
    path = str(tmp_path / "club.db")
    Archive(path).import_paths([str(ROOT / "samples/tablut")])
    site = datasette_app.Datasette([path])
    tree = CliRunner().invoke(main, ["tree", "--db", path, "--game", "laquet"])
    expected = "the archive holds no record of the game 'laquet' (known: tablut)"
    assert tree.stderr == f"lusoria: {expected}\n"
    game = get(site, "/-/explorer/club?game=laquet")
    assert (game.status_code, game.headers["content-type"].split(";")[0], said(game)) == (404, "text/html", expected)
    variant = get(site, "/-/explorer/club?game=tablut&variant=unarmed")
    assert (variant.status_code, said(variant)) == (
        404,
        "the archive holds no record of the variant 'unarmed' of tablut (known: linnaeus, seed)",
    )
    nobody = get(site, "/-/explorer/club?game=tablut&player=nobody")
    assert nobody.status_code == 200 and "(0 shown)" in nobody.text


SAAMI_W = (  # aagenielsen.dk's "Saami Tablut-w" (the Swedes first) as the aage reader archives it, and aage as it is
    '[Game "tablut"]\n[Variant "aage"]\n[Rules "first=white"]\n[White "Swedes first"]\n[Result "1-0"]\n\n'
    "1. e3-c3 d1-d3 2. e4-e3 1-0\n\n"
    '[Game "tablut"]\n[Variant "aage"]\n[White "Muscovites first"]\n[Result "0-1"]\n\n1... d1-d3 0-1\n'
)


def test_a_variant_named_as_explain_names_it_is_explored_as_lusoria_tree_explores_it(tmp_path):
    """`?game=tablut&variant=saami-tablut-w` was a 400 (`unknown variant 'saami-tablut-w' for
    tablut`) while `lusoria tree --variant saami-tablut-w` starts from its rules (White first); the
    form offered its records only as tablut/aage, whose start is Black's."""
    path = str(tmp_path / "saami.db")
    Archive(path).import_paths([SAAMI_W])
    site = datasette_app.Datasette([path])
    page = get(site, "/-/explorer/saami?game=tablut&variant=saami-tablut-w&ply=e3-c3")
    assert page.status_code == 200, page.text
    assert '<tr data-ply="d1-d3">' in page.text and "(1 shown)" in page.text
    assert '<option value="tablut/saami-tablut-w" selected>' in page.text
    start = json.loads(cli(path, "tree", "--game", "tablut", "--variant", "saami-tablut-w", "--format", "json"))
    assert [node["ply"] for node in start] == ["e3-c3"]
    for parameters in ("game=tablut&variant=saami-tablut-w", "variant=saami-tablut-w"):  # (h69b: the game left
        # out, the page opened on aage's start, Black's, and it and games.json listed no game, tree.json one)
        shown = get(site, f"/-/explorer/saami?{parameters}").text
        assert [html.unescape(row.split('"')[0]) for row in shown.split('<tr data-ply="')[1:]] == ["e3-c3"]
        assert "(1 shown)" in shown and '<option value="tablut/saami-tablut-w" selected>' in shown
        games = json.loads(get(site, f"/-/explorer/saami/games.json?{parameters}").text)
        assert [game["white"] for game in games] == ["Swedes first"]
    nobody = get(site, "/-/explorer/saami?variant=seneca&player=Nobody")  # (no record selected: the page
    assert nobody.status_code == 200, nobody.text  # opens on the game of most records, not the URL's variant of it)
    listed = get(site, "/-/explorer/saami?game=tablut&variant=aage").text.split('name="game_variant">')[1]
    assert '<option value="tablut/saami-tablut-w">' in listed  # the form offers it, by its name
    other = get(site, "/-/explorer/saami?game=laquet&variant=saami-tablut-w")
    assert (other.status_code, said(other)) == (
        400,
        "the parameter variant names saami-tablut-w, a variant of tablut, not of laquet",
    )


class Broken(Slide):
    """Slide, whose board fails to render (a plug-in's bug)."""

    def diagram(self, *position):
        raise KeyError("diagram")


def test_a_plug_in_games_failure_is_answered_naming_the_game():
    # it was "the explorer failed (KeyError)", as if the explorer's
    register(Broken)
    try:
        said, status, _ = answer(Broken().diagram)
    finally:
        GAMES.unregister("slide")
    line = Broken.diagram.__code__.co_firstlineno + 1
    assert status == 500
    assert said == f"the slide game failed: {__name__}.Broken.diagram raised KeyError: 'diagram' ({__file__}:{line})"


def test_the_explorers_own_failure_is_answered_by_its_kind_in_a_line():
    """No plug-in's game raised: the line names the kind of failure, never a traceback (nor no body)."""

    def failing():
        raise KeyError("diagram")

    assert answer(failing) == Answer("the explorer failed (KeyError)", 500)


def test_the_page_names_the_sides_as_the_game_names_them(site):
    """Tablut's plies are shared between the Swedes and the Muscovites, in the table's heading, each
    bar's titles, the games' players and the side to choose; Laquet's between White and Black."""
    page = get(site, "/-/explorer/club?game=tablut&variant=seed").text
    assert "<th>Swedes / draws / Muscovites</th>" in page
    assert "<th>Swedes</th><th>Muscovites</th><th>date</th>" in page
    assert re.search(r'title="Swedes [0-9.]+%"', page) and re.search(r'title="Muscovites [0-9.]+%"', page)
    assert '<option value="white">Swedes</option><option value="black">Muscovites</option>' in page
    assert "<th>White / draws / Black</th>" in get(site, "/-/explorer/club?game=laquet").text


def test_the_games_listed_and_the_line_name_moves_as_the_games_players_do(tmp_path):
    """The games listed said `replay at ply 2` and a line that cannot be played `ply 3 of the line`: counts
    a reader redid by hand. Each names the move and the side as the replay page does (its status line; the
    line's error, as its diagnostics: `attackers (Black)`), numbered as the game's players number it:
    Brandubh's attackers move first, so ply 2 is move 1's second ply."""
    path = str(tmp_path / "b.db")
    Archive(path).import_paths(["\n".join(random_records("brandubh", 6, seed=3, max_plies=4))])
    site = datasette_app.Datasette([path])
    first = json.loads(get(site, "/-/explorer/b/tree.json?game=brandubh").text)[0]["ply"]
    second = json.loads(get(site, f"/-/explorer/b/tree.json?game=brandubh&ply={first}").text)[0]["ply"]
    page = get(site, f"/-/explorer/b?game=brandubh&ply={first}&ply={second}").text
    labels = set(re.findall(r'#ply=(\d+)">replay at ([^<]*)</a>', page))
    assert labels == {("2", "move 1, defenders")}
    start = get(site, "/-/explorer/b?game=brandubh").text
    assert set(re.findall(r'#ply=(\d+)">replay at ([^<]*)</a>', start)) == {("0", "the start")}
    wrong = get(site, f"/-/explorer/b?game=brandubh&ply={first}&ply={second}&ply=zz")
    assert said(wrong) == "the line's move 2, attackers (Black): zz is not a ply of brandubh"


def test_a_line_that_cannot_be_played_names_its_side_as_the_replay_page_does(site):
    """The error named the side twice over: `move 1, Muscovites: … the piece on e4 is White's, and Black is
    to move`. It names it as the replay page names a diagnostic's side (until session 46, the game's name alone)."""
    wrong = get(site, "/-/explorer/club?game=tablut&ply=e3-c3&ply=e4-b4")
    assert said(wrong) == (
        "the line's move 1, Muscovites (Black): e4-b4 cannot be played: the piece on e4 is White's, and Black is to move"
    )
