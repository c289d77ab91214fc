"""`lusoria html PATH... --output-dir DIR`: a round's games published at once, a page each and
index.html (a tournament director published 11 games with a shell loop, `--record N` per file)."""

import json
import os
import re
import shutil
import signal
import threading
from html import escape
from pathlib import PureWindowsPath
from urllib.parse import quote

import pytest
from click.testing import CliRunner
from conftest import ROOT

from lusoria import api as api_module
from lusoria.api import InputsOfOneName, OutputAmongInputs, Problem, convert, folder_index, replay_page, replay_pages
from lusoria.cli import main
from lusoria.formats.convert import _named_apart, folders_below


def run(*args):
    return CliRunner().invoke(main, [str(arg) for arg in args])


@pytest.fixture(autouse=True)
def in_the_clubs_folder(tmp_path, monkeypatch):
    """Run where the rounds are, as a club publishes them: a page is named by its file's path from there."""
    monkeypatch.chdir(tmp_path)


@pytest.fixture
def round_(tmp_path):
    """A round: two valid games, and a file of 13 invalid ones, in a folder."""
    (tmp_path / "round").mkdir()
    for name in ("escape.lgn", "tuichi.lgn"):
        shutil.copy(ROOT / "samples/tablut" / name, tmp_path / "round" / name)
    shutil.copy(ROOT / "samples/errors/tablut-moves.lgn", tmp_path / "round/moves.lgn")
    return tmp_path / "round"


def rows(index, columns=("file", "record", "players", "result", "verdict")):
    """The index's rows: the cells of `columns` (by its header: a column no row fills is left out), then the
    link (a path without its break opportunities)."""
    text = index.read_text()
    shown = re.findall(r"<th>([^<]*)</th>", text)
    return [
        (*(cells[shown.index(column)] for column in columns), link)
        for cells, link in (
            (re.findall(r"<td[^>]*>(.*?)</td>", row.replace("<wbr>", "")), re.search(r'href="([^"]*)"', row)[1])
            for row in re.findall(r"<tr><td.*?</tr>", text)
        )
    ]


def alone(page, index="../index.html"):
    """A published page as `html` writes it alone: without its one link to the index of the pages (`index`)."""
    link = f'<p class="index"><a href="{index}">all games</a></p>'
    assert page.count(link) == 1
    return page.replace(link, "")


def test_every_record_of_a_folder_gets_its_page_named_as_convert_names_its_files(round_, tmp_path):
    published = run("html", round_, "--output-dir", tmp_path / "out")
    assert (published.exit_code, published.stderr) == (0, "")
    names = ["escape-000000", *(f"moves-{n:06d}" for n in range(13)), "tuichi-000000"]
    assert published.stdout.splitlines() == [
        *(f"wrote {tmp_path / 'out/round' / name}.html" for name in names),
        f"wrote {tmp_path / 'out/index.html'}",
    ]
    converted = run("convert", "--to", "lgn", "--output-dir", tmp_path / "lgn", round_)  # the valid games alone
    assert [line.replace("/lgn/", "/out/").replace(".lgn", ".html") for line in converted.stdout.splitlines()] == [
        published.stdout.splitlines()[n] for n in (0, 14)
    ]


def test_the_index_lists_each_game_with_its_verdict_and_link(round_, tmp_path):
    run("html", round_, "--output-dir", tmp_path / "out")
    listed = rows(tmp_path / "out/index.html")
    assert listed[:3] == [
        (f"{round_ / 'escape.lgn'}", "0", "Karin Nilsson – Olof Berg", "1-0", "valid", "round/escape-000000.html"),
        (
            f"{round_ / 'moves.lgn'}",
            "0",
            "? – ?",
            "*",
            "invalid: move 1, Muscovites (Black): e4-b4 breaks T1: the piece on e4 is White&#x27;s, and Black is to move",
            "round/moves-000000.html",
        ),
        (
            f"{round_ / 'moves.lgn'}",
            "1",
            "? – ?",
            "*",
            "invalid: move 1, Swedes (White): c3-c1 breaks T2: there is no piece on c3",
            "round/moves-000001.html",
        ),
    ]
    assert listed[7] == (
        f"{round_ / 'moves.lgn'}",
        "6",
        "? – ?",
        "*",
        "invalid: move 3, Swedes (White): e4-e5 breaks T3: only the king may stop on the konakis (e5)",
        "round/moves-000006.html",
    )
    assert listed[14][4:] == ("valid", "round/tuichi-000000.html") and len(listed) == 15
    assert "<title>15 games</title>" in (tmp_path / "out/index.html").read_text()


def test_the_index_names_a_side_as_the_page_it_links_to_does(tmp_path):
    """The index said `move 1, Black` where the page it links to says `move 1, Muscovites (Black)`: of the
    ply where the replay stops (above), and of a variation's illegal ply, its first error."""
    (tmp_path / "var.lgn").write_text('[Game "tablut"]\n1. e3-c3 d1-d3 (1... e4-b4) *\n')
    run("html", tmp_path / "var.lgn", "--output-dir", tmp_path / "out")
    said = (
        "error[T1]: move 1, Muscovites (Black), in a variation: the piece on e4 is White&#x27;s, and Black is to move; "
        "the rest of this line is not checked; did you mean a4-b4?"
    )
    assert rows(tmp_path / "out/index.html")[0][4] == f"invalid: 2:22: {said}"
    assert f'data-diagnostics="{said}"' in (tmp_path / "out/var-000000.html").read_text()


def test_the_index_names_the_sides_of_the_moves_a_message_names_as_the_page_does(tmp_path):
    """Where the replay stops, the index said the move that put a piece in the way by the notation's side,
    `(by move 1, Black: a4-c4)`, where the page it links to says `(by move 1, Muscovites (Black): a4-c4)`."""
    (tmp_path / "occupied.lgn").write_text('[Game "tablut"]\n1. e3-c3 a4-c4 2. c3-c4 *\n')
    run("html", tmp_path / "occupied.lgn", "--output-dir", tmp_path / "out")
    by = "c4 is occupied (by move 1, Muscovites (Black): a4-c4)"
    assert rows(tmp_path / "out/index.html")[0][4] == f"invalid: move 2, Swedes (White): c3-c4 breaks T2: {by}"
    assert f"move 2, Swedes (White): {by}; the rest" in (tmp_path / "out/occupied-000000.html").read_text()


def test_an_invalid_game_is_published_as_html_shows_it_alone_with_its_illegal_ply(round_, tmp_path):
    run("html", round_, "--output-dir", tmp_path / "out")
    page = (tmp_path / "out/round/moves-000006.html").read_text()
    assert alone(page) == replay_page(str(round_ / "moves.lgn"), 6)
    assert '<span class="ply illegal" data-ply="5"' in page


def test_a_game_that_cannot_be_replayed_is_listed_with_its_error_and_place(tmp_path):
    (tmp_path / "tags.lgn").write_text('[Game "chess"]\n1. e3-c3 *\n')
    published = run("html", tmp_path / "tags.lgn", "--output-dir", tmp_path / "out")
    assert published.exit_code == 1  # its page written, as `html tags.lgn` ends
    assert rows(tmp_path / "out/index.html") == [
        (
            f"{tmp_path / 'tags.lgn'}",
            "0",
            "? – ?",
            "*",  # the marker it wrote (until session 48 "?": it is not read, its game unknown)
            "invalid: 1:8: error[tag]: unknown game &#x27;chess&#x27; (known: brandubh, copenhagen, hnefatafl, "
            "laquet, latrunculi, tablut)",
            "tags-000000.html",
        )
    ]
    index = (tmp_path / "out/index.html").read_text()
    assert "<title>1 game</title>" in index and '<td class="verdict invalid">invalid: 1:8: ' in index


def test_the_result_of_a_record_that_does_not_parse_is_the_marker_it_wrote(tmp_path):
    """A record with a syntax error was listed with `?` for its result, or its Result tag's, where it ended in
    `*` or `1/2-1/2`, as its page shows it: the marker it wrote, else its tag, else `?`."""
    records = [
        ("", "1. e3-c3 d1-d3 2. e4-e3 ) *"),
        ('[Result "1-0"]\n', "1. e3-c3 ) 1/2-1/2"),
        ('[Result "0-1"]\n', "1. e3-c3 )"),
        ("", "1. e3-c3 ) {won 1-0}"),
    ]
    text = "\n".join(f'[Game "tablut"]\n{tag}\n{moves}\n' for tag, moves in records)
    (tmp_path / "bad.lgn").write_text(text)
    published = run("html", tmp_path / "bad.lgn", "--output-dir", tmp_path / "out")
    assert published.exit_code == 1
    listed = rows(tmp_path / "out/index.html")
    assert [row[3] for row in listed] == ["*", "1/2-1/2", "0-1", "?"]
    assert all(row[4].startswith("invalid: ") and "error[syntax]" in row[4] for row in listed)
    log = ROOT / "tests/fixtures/formats/tablut-challenge/Conti_vs_Gallo_1607609421000_gameLog.txt"
    run("html", log, "--output-dir", tmp_path / "log")  # a record read from another format: its result as read
    assert [row[3] for row in rows(tmp_path / "log/index.html")] == ["0-1"]


def test_a_marker_in_a_comment_or_an_escape_line_is_no_result_written(tmp_path):
    """The index listed the marker that a `;` comment, a `{` comment never closed or a `%` line ends in as the
    result of a record that does not parse (`) ; I'd call it 1/2-1/2`), where validate says the marker there is
    part of the comment (until session 48): its Result tag, else `?`; a marker before or after a comment is
    written; a record that ends without one is replayed as if it ended in `*`, which is listed without a tag."""
    records = [
        ("", "1. e3-c3 ) ; I'd call it 1/2-1/2"),
        ("", "1. e3-c3 ) { 0-1"),
        ('[Result "0-1"]\n', "1. e3-c3 )\n% 1-0"),
        ("", "1. e3-c3 ) ; a note\n1-0"),
        ("", "1. e3-c3 ) {a; b} {c} 1/2-1/2"),
        ("", "1. e3-c3 d1-d3 1-0 { resigned }"),  # (a comment after the marker: a syntax error)
        ("", "1. e3-c3 d1-d3"),  # no marker, no tag: the `*` assumed, as its page replays it
        ('[Result "1-0"]\n', "1. e3-c3 d1-d3"),
    ]
    text = "\n".join(f'[Game "tablut"]\n{tag}\n{moves}\n' for tag, moves in records)
    (tmp_path / "bad.lgn").write_text(text)
    assert run("html", tmp_path / "bad.lgn", "--output-dir", tmp_path / "out").exit_code == 1
    assert [row[3] for row in rows(tmp_path / "out/index.html")] == [
        "?",
        "?",
        "0-1",
        "1-0",
        "1/2-1/2",
        "1-0",
        "*",
        "1-0",
    ]


def test_the_players_are_those_validate_names_and_a_side_not_named_is_a_question_mark(tmp_path):
    """A CSV game and a move list name no player (their cell was empty), a Tablut Challenge log and the
    site's JSON both, an OTN game and an lgn record one of them: as validate --json's white and black."""
    fixtures = ROOT / "tests/fixtures/formats"
    (tmp_path / "white.lgn").write_text('[Game "tablut"]\n[White "Karin Nilsson"]\n\n1. e3-c3 *\n')
    inputs = [
        fixtures / "csv/brandubh.csv",
        fixtures / "tafl/saami.txt",
        fixtures / "tablut-challenge/Conti_vs_Gallo_1607609421000_gameLog.txt",
        fixtures / "aage/copenhagen.json",
        fixtures / "otn/brandubh.otg",
        tmp_path / "white.lgn",
    ]
    names = [path.name for path in inputs]
    run("html", *inputs, "--output-dir", tmp_path / "out")
    cells = {(row[0].rsplit("/", 1)[1], row[1]): row[2] for row in rows(tmp_path / "out/index.html")}
    assert [cells[name, "0"] for name in names] == [
        "? – ?",
        "? – ?",
        "Conti – Gallo",
        "Ingrid Vik – Tore Lund",
        "Ingrid Vik – Tore Lund",
        "Karin Nilsson – ?",
    ]
    validated = run("validate", "--json", *inputs)
    said = [json.loads(line) for line in validated.stdout.splitlines() if json.loads(line)["record"] == 0]
    assert [" – ".join(record[side] or "?" for side in ("white", "black")) for record in said] == [
        cells[name, "0"] for name in names
    ]


def test_a_game_with_a_warning_alone_is_valid(tmp_path):
    """A wrong move number is a warning: the game is listed valid, in the colour of valid ones."""
    (tmp_path / "number.lgn").write_text('[Game "tablut"]\n1. e3-c3 d1-d3 3. e4-e3 *\n')
    run("html", tmp_path / "number.lgn", "--output-dir", tmp_path / "out")
    assert [row[4] for row in rows(tmp_path / "out/index.html")] == ["valid"]
    assert '<td class="verdict valid">valid</td>' in (tmp_path / "out/index.html").read_text()


def test_a_second_round_published_into_the_folder_is_added_to_its_index(tmp_path):
    """A club's webmaster publishes round 1, then round 2 into the season's folder, each round's files
    named game1.lgn, game2.lgn…: round 2's pages are written beside round 1's, never over them (both
    `game1-000000.html`: round 2's was refused, or replaced round 1's with --overwrite), and the index
    lists both rounds' games, each once when the rounds are published again together (round 1's were
    listed twice, once as `game1-000000.html`, once as `round1/game1-000000.html`); round 1's pages are
    kept, and a page the webmaster removed leaves the index."""
    games = {"round1": ("escape", "tuichi"), "round2": ("king-captured", "linnaeus")}
    for round_, names in games.items():
        (tmp_path / round_).mkdir()
        for number, name in enumerate(names, 1):
            shutil.copy(ROOT / f"samples/tablut/{name}.lgn", tmp_path / round_ / f"game{number}.lgn")
    season = tmp_path / "season"
    first = run("html", tmp_path / "round1", "--output-dir", season)  # the pages made by the workers (--jobs)
    (season / "round1/game2-000000.html").write_text("edited by hand")
    second = run("html", tmp_path / "round2", "--output-dir", season)
    assert (first.exit_code, second.exit_code, second.stderr) == (0, 0, "")
    assert second.stdout.splitlines() == [
        f"wrote {season / 'round2/game1-000000.html'}",
        f"wrote {season / 'round2/game2-000000.html'}",
        f"wrote {season / 'index.html'}",
    ]
    assert alone((season / "round1/game1-000000.html").read_text()) == replay_page(str(tmp_path / "round1/game1.lgn"))
    players = {"escape": "Karin Nilsson – Olof Berg", "tuichi": "Olof Berg – Karin Nilsson"}
    players |= {"king-captured": "Karin Nilsson – Olof Berg", "linnaeus": "Study – Study"}
    results = {"escape": "1-0", "tuichi": "1-0", "king-captured": "0-1", "linnaeus": "0-1"}
    listed = [
        (
            f"{tmp_path / round_}/game{n}.lgn",
            "0",
            players[name],
            results[name],
            "valid",
            f"{round_}/game{n}-000000.html",
        )
        for round_, names in games.items()
        for n, name in enumerate(names, 1)
    ]
    assert rows(season / "index.html") == listed
    together = run("html", tmp_path / "round1", tmp_path / "round2", "--output-dir", season)
    assert (together.exit_code, together.stdout) == (2, "")  # round 1's game 2, edited, said; the rest kept as it is
    assert rows(season / "index.html") == listed
    assert "<title>4 games</title>" in (season / "index.html").read_text()
    assert (season / "round1/game2-000000.html").read_text() == "edited by hand"  # a page is still not written over
    (season / "round1/game1-000000.html").unlink()
    again = run("html", tmp_path / "round2" / "game2.lgn", "--output-dir", season, "--overwrite")
    assert (again.exit_code, again.stderr) == (0, "")
    assert [row[5] for row in rows(season / "index.html")] == [
        "round1/game2-000000.html",
        "round2/game1-000000.html",
        "round2/game2-000000.html",
    ]


def test_a_season_published_again_each_week_writes_the_new_rounds_pages_alone(tmp_path):
    """The season's folder of rounds published again when a round is added: the pages already there,
    as they would be written, are kept, said nothing and listed, with no error (exit status 0); a
    round published alone is named as it is among the season's."""
    season = tmp_path / "season"
    (season / "round1").mkdir(parents=True)
    shutil.copy(ROOT / "samples/tablut/escape.lgn", season / "round1/escape.lgn")
    (season / "round2").mkdir()  # empty yet
    site = tmp_path / "site"
    run("html", season, "--output-dir", site)
    shutil.copy(ROOT / "samples/tablut/tuichi.lgn", season / "round2/tuichi.lgn")
    week = run("html", season, "--output-dir", site)
    assert (week.exit_code, week.stderr) == (0, "")
    assert week.stdout.splitlines() == [
        f"wrote {site / 'season/round2/tuichi-000000.html'}",
        f"wrote {site / 'index.html'}",
    ]
    alone = run("html", season / "round2", "--output-dir", site)
    assert (alone.exit_code, alone.stdout, alone.stderr) == (0, "", "")
    assert [row[5] for row in rows(site / "index.html")] == [
        "season/round1/escape-000000.html",
        "season/round2/tuichi-000000.html",
    ]


def test_a_round_outside_the_current_directory_keeps_its_folders_name(tmp_path, monkeypatch):
    """Rounds given by their path from elsewhere (`/data/round1`, then `/data/round2`): each page is
    named from the folder above the round's, so the second round's `game1` is not the first's."""
    for round_ in ("round1", "round2"):
        (tmp_path / "data" / round_).mkdir(parents=True)
        shutil.copy(ROOT / "samples/tablut/escape.lgn", tmp_path / "data" / round_ / "game1.lgn")
    (tmp_path / "elsewhere").mkdir()
    monkeypatch.chdir(tmp_path / "elsewhere")
    for round_ in ("round1", "round2"):
        published = run("html", tmp_path / "data" / round_, "--output-dir", tmp_path / "site")
        assert (published.exit_code, published.stderr) == (0, "")
    assert [row[5] for row in rows(tmp_path / "site/index.html")] == [
        "round1/game1-000000.html",
        "round2/game1-000000.html",
    ]
    both = run("html", tmp_path / "data/round1", tmp_path / "data/round2", "--output-dir", tmp_path / "site")
    assert (both.exit_code, both.output) == (0, "")  # the same names given together (they were data/round1/…)
    assert len(rows(tmp_path / "site/index.html")) == 2


def test_an_input_outside_is_named_from_the_folder_above_its_own_whatever_comes_with_it(tmp_path, monkeypatch):
    """Where the command runs names an input in it by its path from there, and one outside it from
    the folder above its own alone: round 1 given from round 2's folder, with a game of round 2."""
    for round_ in ("round1", "round2"):
        (tmp_path / "club" / round_).mkdir(parents=True)
        shutil.copy(ROOT / "samples/tablut/escape.lgn", tmp_path / "club" / round_ / "game1.lgn")
    named = {
        ("club", ("round1", "round2")): ["round1/game1-000000.html", "round2/game1-000000.html"],
        ("club/round2", ("../round1", "game1.lgn")): ["round1/game1-000000.html", "game1-000000.html"],
        ("club/round2", ("../round1",)): ["round1/game1-000000.html"],
        (".", ("club/round1",)): ["club/round1/game1-000000.html"],
    }
    for (here, given), names in named.items():
        monkeypatch.chdir(tmp_path / here)
        assert [page.file_name for page in replay_pages(given)] == names


def test_inputs_of_one_folder_name_from_two_places_are_named_from_further_up(tmp_path, monkeypatch):
    """Round 1 of two seasons (`../2025/round1 ../2026/round1`), or of another season beside this one's
    (`round1/late` too): named from further up until their names differ (both were `round1/…`, the second
    not written); a folder given with one it holds is named as it is alone (`../2025/round1` with `../2025`)."""
    for round_ in ("2025/round1", "2025/round2", "2026/round1", "2026/round1/late", "club/round1", "club/round1/late"):
        (tmp_path / round_).mkdir(parents=True)
        shutil.copy(ROOT / "samples/tablut/escape.lgn", tmp_path / round_ / "game1.lgn")
    monkeypatch.chdir(tmp_path / "club")
    named = {
        ("../2025/round1", "../2026/round1"): ["2025/round1", "2026/round1", "2026/round1/late"],
        ("round1", "../2025/round1"): ["round1", "round1/late", "2025/round1"],
        ("../2026/round1", "round1/late"): ["2026/round1", "2026/round1/late", "round1/late"],
        ("../2025/round1", "round1/game1.lgn"): ["2025/round1", "round1"],
        ("../2025/round2", "../2026/round1"): ["round2", "round1", "round1/late"],
        ("../2025", "../2025/round1"): ["2025/round1", "2025/round2"],
        ("../2026", "../2026/round1/late", "../2026/round1"): ["2026/round1", "2026/round1/late"],
        (".", "../2025/round2"): ["round1", "round1/late", "round2"],  # the current directory holds no round2
        (".", "../2025/round1"): ["round1", "round1/late", "2025/round1"],  # it holds a round1: both were round1/…
        ("round1/late", "../2026/round1/late"): ["round1/late", "late"],  # begun alike by their first folders alone
    }
    for given, folders in named.items():
        pages = [page.file_name for page in replay_pages(given) if not isinstance(page, Problem)]
        assert pages == [f"{folder}/game1-000000.html" for folder in folders], given
    both = run("html", tmp_path / "2025/round1", tmp_path / "2026/round1", "--output-dir", tmp_path / "site")
    assert (both.exit_code, both.stderr) == (0, "")
    assert [row[5] for row in rows(tmp_path / "site/index.html")] == [
        "2025/round1/game1-000000.html",
        "2026/round1/game1-000000.html",
        "2026/round1/late/game1-000000.html",
    ]


def test_a_file_given_here_leaves_the_folders_here_out_of_the_names_of_others(tmp_path, monkeypatch):
    """A file given from the current directory is named by its name alone: the folders here are not read,
    so one from elsewhere of one of their names keeps its name (`../2025/round1` with `game0.lgn` here, which
    holds a `round1`: `round1/…`; it went in `2025/round1`, and `/round1` was refused); `.` given reads
    them, and names that one apart (not a file here: a folder `game0.lgn` keeps its name)."""
    for folder in ("club/round1", "2025/round1", "2025/game0.lgn"):
        (tmp_path / folder).mkdir(parents=True)
        shutil.copy(ROOT / "samples/tablut/escape.lgn", tmp_path / folder / "game1.lgn")
    shutil.copy(ROOT / "samples/tablut/escape.lgn", tmp_path / "club/game0.lgn")
    monkeypatch.chdir(tmp_path / "club")
    named = {
        ("game0.lgn", "../2025/round1"): ["game0", "round1/game1"],
        (".", "../2025/round1"): ["game0", "round1/game1", "2025/round1/game1"],
        (".", "../2025/game0.lgn"): ["game0", "round1/game1", "game0.lgn/game1"],
    }
    for given, names in named.items():
        pages = [page.file_name for page in replay_pages(given) if not isinstance(page, Problem)]
        assert pages == [f"{name}-000000.html" for name in names], given


def test_an_index_already_in_the_folder_is_kept_unless_asked(round_, tmp_path):
    """A folder that holds an index.html of its own (the club's, or another round's): the pages are
    written beside it, the index is not written over without --overwrite (exit status 2)."""
    out = tmp_path / "out"
    out.mkdir()
    (out / "index.html").write_text("the club's own index")
    kept = run("html", round_ / "escape.lgn", "--output-dir", out)
    assert kept.exit_code == 2
    assert kept.stdout == f"wrote {out / 'round/escape-000000.html'}\n"
    assert kept.stderr == (
        f"lusoria: the index not written: {out / 'index.html'} is not an index lusoria wrote, or its list of games "
        "cannot be read (--overwrite writes over it, listing this run's pages alone)\n"
    )
    assert (out / "index.html").read_text() == "the club's own index"


def listed(index):
    """The rows an index keeps as JSON, which a later run reads."""
    return json.loads(re.search(r'<script type="application/json" id="games">(.*)</script>', index.read_text())[1])


OLDER_COLUMNS = ("file", "record", "players", "result", "verdict", "link")


def older_index(rows, with_list):
    """index.html as a lusoria before session 76 wrote `rows` (its six columns, `OLDER_COLUMNS`): with its list
    of games as JSON (sessions 40 to 75), or its table alone (before: a file's path without break opportunities)."""
    rows = [{column: row[column] for column in OLDER_COLUMNS} for row in rows]
    cells = "".join(
        f"<tr><td>{escape(row['file'])}</td><td>{escape(row['record'])}</td><td>{escape(row['players'])}</td>"
        f"<td>{escape(row['result'])}</td>"
        f'<td class="{"valid" if row["verdict"] == "valid" else "invalid"}">{escape(row["verdict"])}</td>'
        f'<td><a href="{escape(quote(row["link"]))}">replay</a></td></tr>'
        for row in rows
    )
    listed = f'\n<script type="application/json" id="games">{json.dumps(rows)}</script>' if with_list else ""
    return (
        f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>{len(rows)} games</title></head>\n'
        f'<body><h1>{len(rows)} games</h1>\n<table class="games"><thead><tr><th>file</th><th>record</th>'
        f"<th>players</th><th>result</th><th>verdict</th><th></th></tr></thead>\n<tbody>{cells}</tbody></table>"
        f"{listed}</body></html>\n"
    )


@pytest.mark.parametrize("with_list", [False, True], ids=["before session 40", "sessions 40 to 75"])
def test_an_index_of_an_older_lusoria_is_read_and_a_round_added(round_, tmp_path, with_list):
    """An index.html that an older lusoria wrote, of six columns, with no game, event nor date: before session 40
    its table alone (no list of its games as JSON; it was kept, and every round had to be published again at once
    with --overwrite), its rows read from its table, cells unescaped and links unquoted; or with its list. Round 2
    is added to its rows, which are kept with no game, event nor date."""
    text = (round_ / "escape.lgn").read_text().replace("Karin Nilsson", 'Karin <&> "Nils"')
    (round_ / "a game & more.lgn").write_text(text)
    out = tmp_path / "out"
    run("html", round_ / "a game & more.lgn", round_ / "escape.lgn", "--output-dir", out)
    (out / "index.html").write_text(older_index(listed(out / "index.html"), with_list))
    added = run("html", round_ / "tuichi.lgn", "--output-dir", out)
    assert (added.exit_code, added.stderr) == (0, "")
    assert added.stdout == f"wrote {out / 'round/tuichi-000000.html'}\nwrote {out / 'index.html'}\n"
    run(
        "html",
        round_ / "a game & more.lgn",
        round_ / "escape.lgn",
        round_ / "tuichi.lgn",
        "--output-dir",
        tmp_path / "all",
    )
    every = listed(tmp_path / "all/index.html")
    assert [row["game"] for row in every] == ["tablut", "Tablut (seed)", "Tablut (seed)"]  # (the first's tags
    # do not read: a quote in a name)
    assert every[1]["date"] == "2026.11.21"
    assert listed(out / "index.html") == [
        *({**row, "game": "", "event": "", "date": ""} for row in every[:2]),
        every[2],
    ]
    assert listed(out / "index.html")[0]["link"] == "round/a game & more-000000.html"
    assert rows(out / "index.html", ("players", "game"))[1:] == [
        ("Karin Nilsson – Olof Berg", "", "round/escape-000000.html"),
        ("Olof Berg – Karin Nilsson", "Tablut (seed)", "round/tuichi-000000.html"),
    ]


def test_an_older_index_whose_table_was_edited_is_kept_unless_asked(round_, tmp_path):
    """An older lusoria's index.html (its table alone) with a row edited by hand (a cell in bold): its
    rows are not guessed at; kept and said, as an index.html lusoria did not write."""
    out = tmp_path / "out"
    run("html", round_ / "escape.lgn", round_ / "tuichi.lgn", "--output-dir", out)
    older = older_index(listed(out / "index.html"), with_list=False)
    edited = older.replace("<td>1-0</td>", "<td><b>1-0</b></td>", 1)
    assert edited != older
    (out / "index.html").write_text(edited)
    kept = run("html", round_ / "tuichi.lgn", "--output-dir", out)
    assert (kept.exit_code, kept.stdout) == (2, "")
    assert kept.stderr == (
        f"lusoria: the index not written: {out / 'index.html'} is not an index lusoria wrote, or its list of games "
        "cannot be read (--overwrite writes over it, listing this run's pages alone)\n"
    )
    assert (out / "index.html").read_text() == edited


@pytest.mark.parametrize(
    "edited",
    [
        lambda listed: listed.replace('"record": "0"', '"record": 0'),  # a row not as lusoria writes it
        lambda listed: listed.replace('"link"', '"href"'),
        lambda listed: listed.replace('"}]</script>', '"</script>'),  # its list cut short
        lambda listed: listed.replace('id="games"', 'id="rounds"'),
    ],
)
def test_an_index_whose_list_of_games_was_edited_is_kept_unless_asked(round_, tmp_path, edited):
    """lusoria's index.html edited by hand so that its list (JSON) is no longer lusoria's: not
    written over, and said why; --overwrite writes it again with this run's pages alone."""
    out = tmp_path / "out"
    run("html", round_ / "escape.lgn", "--output-dir", out)
    (out / "index.html").write_text(edited((out / "index.html").read_text()))
    before = (out / "index.html").read_text()
    kept = run("html", round_ / "tuichi.lgn", "--output-dir", out)
    assert (kept.exit_code, kept.stdout) == (2, f"wrote {out / 'round/tuichi-000000.html'}\n")
    assert kept.stderr == (
        f"lusoria: the index not written: {out / 'index.html'} is not an index lusoria wrote, or its list of games "
        "cannot be read (--overwrite writes over it, listing this run's pages alone)\n"
    )
    assert (out / "index.html").read_text() == before
    asked = run("html", round_ / "tuichi.lgn", "--output-dir", out, "--overwrite")
    assert (asked.exit_code, asked.stderr) == (0, "")
    assert [row[5] for row in rows(out / "index.html")] == ["round/tuichi-000000.html"]


def test_a_row_whose_link_leads_out_of_the_folder_is_not_kept(round_, tmp_path):
    """api.folder_index keeps an earlier row whose page is still in the folder, not one edited to
    link a file out of it (absolute, or up with `..`), though that file is there; None for an
    index.html lusoria did not write."""
    out = tmp_path / "season/out"
    run("html", round_ / "escape.lgn", round_ / "tuichi.lgn", "--output-dir", out)
    (tmp_path / "season/secret.html").write_text("not a page of the folder")
    page = next(replay_pages([str(round_ / "moves.lgn")]))

    def links(index):
        (out / "index.html").write_text(index)
        (tmp_path / "listed.html").write_text(folder_index(str(out), [page]))
        return [row[5] for row in rows(tmp_path / "listed.html")]

    written = (out / "index.html").read_text()
    assert links(written) == ["round/escape-000000.html", "round/tuichi-000000.html", "round/moves-000000.html"]
    edited = written.replace('"link": "round/escape-000000.html"', f'"link": "{tmp_path / "season/secret.html"}"')
    assert links(edited.replace('"link": "round/tuichi-000000.html"', '"link": "../secret.html"')) == [
        "round/moves-000000.html"
    ]
    (out / "index.html").write_text("the club's own index")
    assert folder_index(str(out), [page]) is None


def test_the_index_escapes_what_a_record_says_and_links_a_file_of_any_name(tmp_path):
    """A player named `<script>` is shown, not run; a file named with spaces, `&`, `#`, `?`, `%` and
    non-ASCII letters is linked relative to index.html, its name quoted as a URL."""
    folder = tmp_path / "round ü & co"
    folder.mkdir()
    text = (ROOT / "samples/tablut/escape.lgn").read_text().replace("Karin Nilsson", "<script>alert('x')</script>")
    (folder / "g #1 ?%.lgn").write_text(text)
    shutil.copy(ROOT / "samples/tablut/tuichi.lgn", tmp_path / "tuichi.lgn")
    run("html", folder, tmp_path / "tuichi.lgn", "--output-dir", tmp_path / "out")
    index = (tmp_path / "out/index.html").read_text()
    assert "<script>" not in index
    assert rows(tmp_path / "out/index.html")[0] == (
        f"{folder / 'g #1 ?%.lgn'}".replace("&", "&amp;"),
        "0",
        "&lt;script&gt;alert(&#x27;x&#x27;)&lt;/script&gt; – Olof Berg",
        "1-0",
        "valid",
        "round%20%C3%BC%20%26%20co/g%20%231%20%3F%25-000000.html",
    )
    assert (tmp_path / "out/round ü & co/g #1 ?%-000000.html").is_file()


def test_a_record_that_cannot_be_replayed_at_all_is_published(tmp_path):
    """A record of no ply whose variant is unknown: its replay stops before the start (it raised IndexError)."""
    (tmp_path / "v.lgn").write_text('[Game "tablut"]\n[Variant "nosuch"]\n*\n')
    published = run("html", tmp_path / "v.lgn", "--output-dir", tmp_path / "out")
    assert published.exit_code == 1  # as for its page alone
    assert [row[3:5] for row in rows(tmp_path / "out/index.html")] == [
        (
            "*",
            "invalid: 2:11: error[tag]: unknown variant &#x27;nosuch&#x27; for tablut "
            "(known: seed, linnaeus, unarmed, aage, ashton)",
        )
    ]


def test_an_unreadable_input_is_said_and_the_others_are_still_published(round_, tmp_path):
    published = run("html", round_ / "escape.lgn", tmp_path / "missing.lgn", "--output-dir", tmp_path / "out")
    assert published.exit_code == 2
    assert published.stderr == f"lusoria: {tmp_path / 'missing.lgn'}: no such file or directory\n"
    assert published.stdout.splitlines() == [
        f"wrote {tmp_path / 'out/round/escape-000000.html'}",
        f"wrote {tmp_path / 'out/index.html'}",
    ]
    assert [row[0] for row in rows(tmp_path / "out/index.html")] == [f"{round_ / 'escape.lgn'}"]


def test_a_file_already_in_the_folder_is_not_written_over_unless_asked(round_, tmp_path):
    out = tmp_path / "out"
    (out / "round").mkdir(parents=True)
    (out / "round/escape-000000.html").write_text("the club's own page")
    kept = run("html", round_ / "escape.lgn", round_ / "tuichi.lgn", "--output-dir", out)
    assert kept.exit_code == 2
    assert kept.stderr == (
        f"lusoria: {round_ / 'escape.lgn'}, record 0 not written: {out / 'round/escape-000000.html'} is already there "
        "(--overwrite writes over it)\n"
    )
    assert kept.stdout.splitlines() == [f"wrote {out / 'round/tuichi-000000.html'}", f"wrote {out / 'index.html'}"]
    assert (out / "round/escape-000000.html").read_text() == "the club's own page"
    assert [row[5] for row in rows(out / "index.html")] == ["round/tuichi-000000.html"]  # no link to a page not its own
    again = run("html", round_ / "escape.lgn", round_ / "tuichi.lgn", "--output-dir", out)
    assert again.stderr.count("is already there") == 1  # tuichi's page, as it would be written, is kept: said nothing
    assert again.stdout == ""  # nor is the index, which lists the same pages
    assert [row[5] for row in rows(out / "index.html")] == ["round/tuichi-000000.html"]
    asked = run("html", round_ / "escape.lgn", round_ / "tuichi.lgn", "--output-dir", out, "--overwrite")
    assert (asked.exit_code, asked.stderr) == (0, "")
    assert asked.stdout.splitlines() == [f"wrote {out / 'round/escape-000000.html'}", f"wrote {out / 'index.html'}"]
    assert alone((out / "round/escape-000000.html").read_text()) == replay_page(str(round_ / "escape.lgn"))
    assert len(rows(out / "index.html")) == 2


def test_pages_made_by_two_workers_are_the_pages_of_one(round_, tmp_path):
    one = run("html", round_, "--output-dir", tmp_path / "one", "--jobs", "1")
    two = run("html", round_, "--output-dir", tmp_path / "two", "--jobs", "2", "--force-jobs")
    assert one.stdout.replace("/one/", "/two/") == two.stdout
    for page in (tmp_path / "one").rglob("*.html"):
        assert (tmp_path / "two" / page.relative_to(tmp_path / "one")).read_text() == page.read_text()


def test_a_rounds_few_records_are_made_into_pages_by_the_workers(round_, monkeypatch):
    """`--jobs 2` on a round of 15 records (far less than a chunk of `validate`'s size): each page
    but the first is made by a worker, in order (one process made them all; a page costs far more
    than its record's text)."""
    import os

    from lusoria import api

    monkeypatch.setattr("lusoria.html.report_page", lambda report, index: str(os.getpid()))
    pages = list(api.replay_pages([round_], jobs=2))
    assert [page.file_name for page in pages][:2] == ["round/escape-000000.html", "round/moves-000000.html"] and len(
        pages
    ) == 15
    assert pages[0].page == str(os.getpid()) and str(os.getpid()) not in {page.page for page in pages[1:]}


@pytest.mark.parametrize(
    "given, said",
    [
        (
            ["a.lgn", "b.lgn"],
            "one page replays one record: give --output-dir DIR for the records of a folder or several PATHs",
        ),
        (["."], "one page replays one record: give --output-dir DIR for the records of a folder or several PATHs"),
        (
            ["a.lgn", "--output-dir", "out", "--record", "1"],
            "--output-dir writes a page for every record: not with -o or --record",
        ),
        (
            ["a.lgn", "--output-dir", "out", "-o", "a.html"],
            "--output-dir writes a page for every record: not with -o or --record",
        ),
    ],
)
def test_one_page_or_a_folder_of_pages(tmp_path, monkeypatch, given, said):
    monkeypatch.chdir(tmp_path)
    for name in ("a.lgn", "b.lgn"):
        shutil.copy(ROOT / "samples/tablut/escape.lgn", tmp_path / name)
    refused = run("html", *given)
    assert refused.exit_code == 2 and refused.stderr.endswith(f"Error: {said}\n")
    assert sorted(path.name for path in tmp_path.iterdir()) == ["a.lgn", "b.lgn"]


@pytest.mark.parametrize(
    ("command", "written"),
    [
        (("html",), ["escape-000000.html", "index.html"]),
        (("show", "--format", "svg"), ["escape-000000.svg"]),
        (("convert", "--to", "lgn"), ["escape-000000.lgn"]),
    ],
)
def test_an_output_folder_inside_the_folder_given_is_not_read_as_an_input(tmp_path, command, written):
    """`lusoria html . --output-dir site`, run again: DIR is not read as the input folder's own (its
    files were skipped one by one, and `convert` read its own records back into `out/out/…`, one folder
    deeper each run); the second run finds every file as it would write it, and says nothing."""
    shutil.copy(ROOT / "samples/tablut/escape.lgn", tmp_path / "escape.lgn")
    first = run(*command, ".", "--output-dir", "out")
    assert (first.exit_code, first.stdout) == (0, "".join(f"wrote out/{name}\n" for name in written))
    again = run(*command, ".", "--output-dir", "out")
    assert (again.exit_code, again.stdout, again.stderr) == (0, "", first.stderr)
    assert sorted(str(path.relative_to(tmp_path / "out")) for path in (tmp_path / "out").rglob("*")) == written


@pytest.mark.parametrize(
    ("command", "given", "output_dir", "relation"),
    [
        (["html"], ".", ".", "is"),
        (["html"], "round", ".", "holds"),
        (["show", "--format", "svg"], "round", "round", "is"),
        (["convert", "--to", "lgn"], "round", "round", "is"),
    ],
)
def test_an_output_dir_that_is_or_holds_a_folder_read_is_refused_before_anything_is_read(
    round_, command, given, output_dir, relation
):
    """The pages (boards, records) of a folder written into it would be read back at the next run,
    one folder deeper each time (`convert round --output-dir round`: round/round/…-000000-000000.lgn):
    a usage error that says why and what to do, nothing written."""
    before = sorted(round_.parent.rglob("*"))
    refused = run(*command, given, "--output-dir", output_dir)
    assert (refused.exit_code, refused.stdout) == (2, "")
    assert refused.stderr.endswith(
        f"Error: Invalid value for --output-dir: the output folder {output_dir} {relation} the folder {given} read "
        "as input: what is written there would be read back at the next run; give another folder (one inside a "
        f"folder read, such as {given}/site, is left out of its reading)\n"
    )
    assert sorted(round_.parent.rglob("*")) == before


@pytest.mark.parametrize(("given", "output_dir"), [("round", "site"), ("linked", "round")])
def test_a_folder_read_and_the_output_dir_one_through_a_symbolic_link_are_refused(round_, given, output_dir):
    """`site`, a symbolic link to the round read, is the round (its pages would be read back at the next
    run), and so is the round that `linked`, given, leads to: refused as the folder itself is."""
    (round_.parent / ("linked" if given == "linked" else "site")).symlink_to(round_, target_is_directory=True)
    refused = run("html", given, "--output-dir", output_dir)
    assert (refused.exit_code, refused.stdout) == (2, "")
    assert f"the output folder {output_dir} is the folder {given} read as input" in refused.stderr


def test_the_library_refuses_an_output_dir_among_the_inputs_as_the_command_does(round_):
    """`replay_pages` and `convert` raise OutputAmongInputs (a ValueError) before reading a record;
    a folder below the one read is left out of its reading, and a file given from DIR is read alone."""
    with pytest.raises(OutputAmongInputs, match="the output folder round is the folder round read as input"):
        replay_pages(["round"], output_dir="round")
    with pytest.raises(ValueError, match="the output folder . holds the folder round read as input"):
        next(convert(["round"], "lgn", output_dir="."))
    assert len(list(replay_pages(["round"], output_dir="round/site"))) == 15
    assert [page.file_name for page in replay_pages(["round/escape.lgn"], output_dir="round")] == [
        "round/escape-000000.html"
    ]


def test_names_of_inputs_on_two_windows_drives_are_found_without_a_common_folder():
    """On Windows, inputs on two drives share no folder (`os.path.commonpath` raised ValueError, a
    traceback): each is named from the base of the deepest folder of the inputs that holds it, in any case."""
    inputs = {
        PureWindowsPath(folder): PureWindowsPath(base)
        for folder, base in [
            ("C:/Users/club/round1", "C:/Users/club"),
            ("D:/archive/round2", "D:/archive"),
            ("D:/", "D:/"),
        ]
    }
    assert folders_below(PureWindowsPath("d:/Archive/round2"), inputs) == PureWindowsPath("round2")
    assert folders_below(PureWindowsPath("C:/Users/club/round1/late"), inputs) == PureWindowsPath("round1/late")
    assert folders_below(PureWindowsPath("D:/other"), inputs) == PureWindowsPath("other")
    assert folders_below(PureWindowsPath("E:/round3"), inputs) == PureWindowsPath()


def test_inputs_of_one_path_on_two_windows_drives_are_refused_as_they_cannot_be_named_apart():
    """`C:\\2025\\round1` and `D:\\2025\\round1`: named from further up, both stop at their drive's root
    as `2025/round1` (the second's files were not written); with an output folder they are refused,
    before anything is read. Two of one name on two drives but from other folders are named apart."""
    alike = {PureWindowsPath(f"{drive}:/2025/round1"): PureWindowsPath(f"{drive}:/2025") for drive in "DC"}
    with pytest.raises(InputsOfOneName) as refused:
        _named_apart(alike, set(alike), "out")
    assert str(refused.value) == (
        "the files of C:\\2025\\round1 and of D:\\2025\\round1 would be written in one folder of the output, 2025, "
        "whose names cannot be told apart from further up (they differ by their drive, or one is in the current "
        "directory and one below the root): write them in two runs, each to its own output folder"
    )
    assert _named_apart(alike, set(alike), None) == {folder: folder.parents[1] for folder in alike}  # not written
    by_case = {
        PureWindowsPath(f"{drive}:/{season}/round1"): PureWindowsPath(f"{drive}:/{season}")
        for drive, season in [("C", "Season"), ("D", "season")]
    }
    with pytest.raises(InputsOfOneName) as refused:  # one folder on Windows: named as the first writes it
        _named_apart(by_case, set(by_case), "out")
    assert "C:\\Season\\round1 and of D:\\season\\round1 would be written in one folder of the output, Season, " in str(
        refused.value
    )
    apart = {
        PureWindowsPath(f"{drive}:/{year}/round1"): PureWindowsPath(f"{drive}:/{year}")
        for drive, year in [("C", "2025"), ("D", "2026")]
    }
    assert _named_apart(apart, set(apart), "out") == {folder: folder.parents[1] for folder in apart}


def test_a_refusal_of_inputs_of_one_name_is_a_usage_error_of_path(tmp_path, monkeypatch):
    """The command says InputsOfOneName as an invalid PATH, exit status 2, nothing written."""
    from lusoria.formats import convert as converting

    def refused(*args):
        raise InputsOfOneName("the files of A and of B would be written in one folder")

    (tmp_path / "round1").mkdir()
    shutil.copy(ROOT / "samples/tablut/escape.lgn", tmp_path / "round1/game1.lgn")
    monkeypatch.setattr(converting, "_named_apart", refused)
    for command in (["html"], ["convert", "--to", "lgn"], ["show", "--format", "svg"]):
        said = run(*command, "round1", "--output-dir", "out")
        assert (said.exit_code, said.stdout) == (2, ""), command
        assert "Invalid value for PATH...: the files of A and of B would be written in one folder" in said.stderr
    assert not (tmp_path / "out").exists()


def test_the_current_directory_and_a_folder_named_alike_up_to_the_root_are_refused(tmp_path, monkeypatch):
    """`.` given that holds a folder of each name on the way from `round1` elsewhere up to the root: named
    from the root, `round1`'s files still begin as those of one here: refused before anything is written."""
    club = tmp_path / "club"
    for name in tmp_path.joinpath("round1").parts[1:]:
        (club / name).mkdir(parents=True, exist_ok=True)
    (tmp_path / "round1").mkdir()
    shutil.copy(ROOT / "samples/tablut/escape.lgn", tmp_path / "round1/game1.lgn")
    monkeypatch.chdir(club)
    refused = run("html", ".", tmp_path / "round1", "--output-dir", tmp_path / "out")
    top = tmp_path.parts[1]
    assert (refused.exit_code, refused.stdout) == (2, "")
    assert (
        f"Invalid value for PATH...: the files of {club / top} and of {tmp_path / 'round1'} would be written in "
        f"one folder of the output, {top}, whose names cannot be told apart from further up"
    ) in refused.stderr
    assert not (tmp_path / "out").exists()


def test_folder_html_says_on_stderr_what_one_record_html_says(tmp_path):
    """A record that lacks its result marker, or cannot be replayed at all: `html PATH` says it on
    stderr, and `html --output-dir` says the same lines (it said nothing), its page published; it ends
    as `html PATH` does for it (exit status 1 for the one that cannot be replayed at all; it was 0)."""
    (tmp_path / "unfinished.lgn").write_text('[Game "tablut"]\n\n1. e3-c3 e1-e2\n')
    (tmp_path / "unknown.lgn").write_text('[Game "tablut"]\n[Variant "nonesuch"]\n\n1. e3-c3 *\n')
    unfinished = run("html", "unfinished.lgn")
    assert (unfinished.exit_code, unfinished.stderr) == (
        0,
        "unfinished.lgn:3:15: error[syntax]: the record ends without a result marker (1-0, 0-1, 1/2-1/2, *)\n"
        " 3 | 1. e3-c3 e1-e2\n"
        "   |               ^\n",
    )
    unknown = run("html", "unknown.lgn")
    assert (unknown.exit_code, unknown.stderr) == (
        1,
        "lusoria: unknown.lgn:2:11: record 0: cannot be replayed: error[tag]: unknown variant 'nonesuch' for "
        "tablut (known: seed, linnaeus, unarmed, aage, ashton)\n",
    )
    published = run("html", "unfinished.lgn", "unknown.lgn", "--output-dir", "out")
    assert (published.exit_code, published.stderr) == (1, unfinished.stderr + unknown.stderr)  # as `html unknown.lgn`
    assert run("html", "unfinished.lgn", "--output-dir", "out2").exit_code == 0
    assert alone((tmp_path / "out/unknown-000000.html").read_text(), "index.html") == unknown.stdout
    (tmp_path / "out/unfinished-000000.html").write_text("another page")
    kept = run("html", "unfinished.lgn", "unknown.lgn", "--output-dir", "out")  # a page not written comes first
    assert kept.exit_code == 2, kept.stderr


def test_a_round_renamed_since_its_pages_were_published_is_said_while_the_index_lists_it(tmp_path):
    """A secretary renames `round2` to `round2-brandubh` and publishes the season again: the index keeps
    the old pages' rows (they are still in DIR), every game of the round listed twice: a note says which
    files are gone and what to do (nothing was said); once those pages are deleted, their rows go."""
    for round_ in ("round1", "round2"):
        (tmp_path / round_).mkdir()
        shutil.copy(ROOT / "samples/tablut/escape.lgn", tmp_path / round_ / "game1.lgn")
    shutil.copy(ROOT / "samples/tablut/tuichi.lgn", tmp_path / "round2/game2.lgn")
    shutil.copy(ROOT / "samples/tablut/tuichi.lgn", tmp_path / "round1" / os.fsdecode(b"g\xffme.lgn"))  # shown escaped
    assert run("html", "round1", "round2", "--output-dir", "season").exit_code == 0
    piped = CliRunner().invoke(
        main, ["html", "-", "--output-dir", "season"], input=(ROOT / "samples/tablut/escape.lgn").read_text()
    )
    assert piped.exit_code == 0  # a game piped in, whose page is kept and listed too: no file to find
    (tmp_path / "round2").rename(tmp_path / "round2-brandubh")
    again = run("html", "round1", "round2-brandubh", "--output-dir", "season")
    assert (again.exit_code, again.stderr) == (
        0,
        "lusoria: note: season/index.html still lists the games of round2/game1.lgn, round2/game2.lgn, not found "
        "here, as an earlier run's pages of them are still in season: if they were renamed or removed, delete "
        "those pages to take them off the index (their paths are from the folder the earlier run ran from)\n",
    )
    assert [row[0] for row in rows(tmp_path / "season/index.html")] == [
        "round1/game1.lgn",
        "round1/g\\xffme.lgn",  # this run's, not found as shown: not said (it was g\\\\xffme, escaped twice)
        "round2/game1.lgn",
        "round2/game2.lgn",
        "&lt;stdin&gt;",
        "round2-brandubh/game1.lgn",
        "round2-brandubh/game2.lgn",
    ]
    alone = run("html", "round2-brandubh", "--output-dir", "season")  # round1's files are here, g\\xffme.lgn too
    assert (alone.exit_code, alone.stderr) == (0, again.stderr)  # (it was named as gone, not found as shown)
    shutil.rmtree(tmp_path / "season/round2")
    cleaned = run("html", "round1", "round2-brandubh", "--output-dir", "season")
    assert (cleaned.exit_code, cleaned.stderr) == (0, "")
    assert len(rows(tmp_path / "season/index.html")) == 5


def test_a_game_taken_out_of_a_file_published_again_is_said_while_the_index_lists_it(tmp_path):
    """h81b: games taken out of a file (entered by mistake), the file published again: the index listed their pages
    still, and nothing was said (a file gone is said); once their pages are deleted, their rows go."""
    (tmp_path / "round1").mkdir()
    games = [(ROOT / f"samples/tablut/{name}.lgn").read_text() for name in ("escape", "tuichi", "linnaeus")]
    (tmp_path / "round1/games.lgn").write_text("\n".join(games + games[1:]))
    assert run("html", "round1", "--output-dir", "season").exit_code == 0
    edited = games[0].replace("[Game", '[Annotator "K. N."]\n[Game', 1)  # (its first game edited: a page refused)
    (tmp_path / "round1/games.lgn").write_text("\n".join([edited] + games[1:] + games[1:]))
    refused = run("html", "round1", "--output-dir", "season")
    assert (refused.exit_code, "still lists" in refused.stderr) == (2, False)  # (review81: said taken out)
    (tmp_path / "round1/games.lgn").write_text(games[0])  # (four games taken out)
    again = run("html", "round1", "--output-dir", "season")
    assert (again.exit_code, again.stderr) == (
        0,
        "lusoria: note: season/index.html still lists 4 records past the end of the files read now (round1/games.lgn, "
        "record 1; round1/games.lgn, record 2; round1/games.lgn, record 3; …), as an earlier run's pages of them are "
        "still in season: if records were taken out of those files (the records after them are numbered anew), delete "
        "these pages to take them off the index\n",
    )
    for number in range(1, 5):
        (tmp_path / f"season/round1/games-00000{number}.html").unlink()
    cleaned = run("html", "round1", "--output-dir", "season")
    assert (cleaned.exit_code, cleaned.stderr, len(rows(tmp_path / "season/index.html"))) == (0, "", 1)


def test_a_game_taken_out_of_the_middle_of_a_file_is_said_as_the_record_past_its_end_now(tmp_path):
    """note81: the note named the file's last record as the game taken out, where the middle one was: the records
    after it are numbered anew, and the page left over is the last one's, past the file's end."""
    (tmp_path / "round1").mkdir()
    games = [(ROOT / f"samples/tablut/{name}.lgn").read_text() for name in ("escape", "tuichi", "linnaeus")]
    (tmp_path / "round1/games.lgn").write_text("\n".join(games))
    assert run("html", "round1", "--output-dir", "season").exit_code == 0
    first = [(file, record, players) for file, record, players, *_ in rows(tmp_path / "season/index.html")]
    (tmp_path / "round1/games.lgn").write_text("\n".join([games[0], games[2]]))  # (the middle game taken out)
    again = run("html", "round1", "--output-dir", "season", "--overwrite")
    assert (again.exit_code, again.stderr) == (
        0,
        "lusoria: note: season/index.html still lists 1 record past the end of the files read now (round1/games.lgn, "
        "record 2), as an earlier run's page of it is still in season: if records were taken out of those files (the "
        "records after them are numbered anew), delete these pages to take them off the index\n",
    )
    (tmp_path / "season/round1/games-000002.html").unlink()
    cleaned = run("html", "round1", "--output-dir", "season")
    assert (cleaned.exit_code, cleaned.stderr) == (0, "")
    assert [row[1:3] for row in rows(tmp_path / "season/index.html")] == [("0", first[0][2]), ("1", first[2][2])]


def test_a_run_stopped_before_its_last_record_says_no_game_taken_out(tmp_path, monkeypatch):
    """review81: a run stopped by ^C or SIGTERM named every game of its files it had not reached yet as taken out of
    them (a stopped run listed 5,478), and told to delete their pages: that note waits for every record read."""
    (tmp_path / "round1").mkdir()
    games = [(ROOT / f"samples/tablut/{name}.lgn").read_text() for name in ("escape", "tuichi", "linnaeus")]
    (tmp_path / "round1/games.lgn").write_text("\n".join(games))
    assert run("html", "round1", "--output-dir", "season").exit_code == 0
    whole = api_module.replay_pages

    def stopped(*args, **kwargs):
        pages = whole(*args, **kwargs)
        yield next(pages)
        raise KeyboardInterrupt

    monkeypatch.setattr(api_module, "replay_pages", stopped)
    cut = run("html", "round1", "--output-dir", "season")
    assert cut.exit_code == 1 and "still lists" not in cut.stderr and len(rows(tmp_path / "season/index.html")) == 3


def test_a_file_read_in_part_says_no_game_taken_out(tmp_path, monkeypatch):
    """review81b: a file whose reading stopped at a line too long said the games past it taken out of it."""
    from lusoria.notation import sources

    (tmp_path / "round1").mkdir()
    games = [(ROOT / f"samples/tablut/{name}.lgn").read_text() for name in ("escape", "tuichi", "linnaeus")]
    (tmp_path / "round1/games.lgn").write_text("\n".join(games))
    assert run("html", "round1", "--output-dir", "season").exit_code == 0
    monkeypatch.setattr(sources, "MAX_LINE", 2000)
    long = games[1].replace("\n\n", "\n\n{" + "x" * 3000 + "}\n", 1)
    (tmp_path / "round1/games.lgn").write_text("\n".join([games[0], long, games[2]]))
    cut = run("html", "round1", "--output-dir", "season")
    assert cut.exit_code == 2 and "is longer than 2,000 characters" in cut.stderr and "still lists" not in cut.stderr


def test_the_note_of_files_gone_names_three_and_counts_the_others(tmp_path):
    """A renamed round of four games: the note names three of its files and counts the fourth; of three, it
    names them all."""
    (tmp_path / "round2").mkdir()
    for game in range(1, 5):
        shutil.copy(ROOT / "samples/tablut/escape.lgn", tmp_path / f"round2/game{game}.lgn")
    assert run("html", "round2", "--output-dir", "season").exit_code == 0
    (tmp_path / "round2").rename(tmp_path / "round3")
    four = run("html", "round3", "--output-dir", "season")
    assert four.stderr.startswith(
        "lusoria: note: season/index.html still lists the games of round2/game1.lgn, round2/game2.lgn, "
        "round2/game3.lgn and 1 more, not found here, as"
    )
    (tmp_path / "season/round2/game1-000000.html").unlink()
    three = run("html", "round3", "--output-dir", "season")
    assert three.stderr.startswith(
        "lusoria: note: season/index.html still lists the games of round2/game2.lgn, round2/game3.lgn, "
        "round2/game4.lgn, not found here, as"
    )


@pytest.mark.parametrize("cut", [BrokenPipeError, KeyboardInterrupt])
def test_a_run_cut_short_leaves_an_index_that_lists_the_pages_it_wrote(round_, tmp_path, monkeypatch, cut):
    """A run piped to `head`, whose standard output closes after its first line, or stopped with ^C while
    saying its second page: the pages written were in DIR, but the index was not written (or listed an
    earlier run's pages alone) until the next run. It lists them, and the run still ends as cut."""
    said = []

    def echo(message="", nl=True, err=False):
        if not err:
            if said and (cut is BrokenPipeError or len(said) == 1):
                said.append(None)
                raise cut
            said.append(message)

    monkeypatch.setattr("lusoria.cli.echo", echo)
    stopped = run("html", round_, "--output-dir", tmp_path / "out")
    assert stopped.exit_code != 0 and isinstance(stopped.exception, (SystemExit, cut))
    pages = sorted(path.relative_to(tmp_path / "out").as_posix() for path in (tmp_path / "out").rglob("*-*.html"))
    assert pages == ["round/escape-000000.html", "round/moves-000000.html"]
    assert [row[5] for row in rows(tmp_path / "out/index.html")] == pages
    index_said = f"wrote {tmp_path / 'out/index.html'}" if cut is KeyboardInterrupt else None  # (the pipe closed)
    assert said == [f"wrote {tmp_path / 'out/round/escape-000000.html'}", None, index_said]


@pytest.fixture
def sigterm_handled_as(request):
    """SIGTERM's handler set to the test's parameter (`signal.SIG_DFL`: as in a shell, it ends the process) while
    the test runs, the one before restored after it."""
    before = signal.signal(signal.SIGTERM, request.param)
    yield request.param
    signal.signal(signal.SIGTERM, before)


def sigterm(signum: int = signal.SIGTERM) -> None:
    """SIGTERM (or ^C, SIGINT) as it comes to the run: its handler called, not the signal raised (a run without one
    would end the tests)."""
    terminated = signal.getsignal(signum)
    assert callable(terminated), "SIGTERM would end the run before its index is written"
    terminated(signum, None)


STOPS = [  # (the signal, the run's exit status, what it says last on stderr through lusoria: ^C's Aborted! is click's)
    pytest.param(signal.SIGTERM, 143, ["err lusoria: stopped by SIGTERM"], id="SIGTERM"),
    pytest.param(signal.SIGINT, 1, [], id="SIGINT"),
]


@pytest.mark.parametrize("sigterm_handled_as", [signal.SIG_DFL], indirect=True)
def test_a_run_stopped_by_sigterm_leaves_an_index_that_lists_the_pages_it_wrote(
    round_, tmp_path, monkeypatch, sigterm_handled_as
):
    """A run that a service manager or `kill` stops (SIGTERM) while it says its second page: the pages written were
    in DIR, but the process ended at once, before the index was written. SIGTERM is taken as ^C is: the index
    lists the pages written, SIGTERMs after the first taken as said; then the run ends as SIGTERM ends a process,
    143 (128 + 15), where it ended as ^C, Aborted! and 1, which a service manager takes for a failure."""
    said = []

    def echo(message="", nl=True, err=False):
        said.append(("err " if err else "") + message)
        if len(said) >= 2:  # and again at each message after it, the service manager insisting
            sigterm()

    monkeypatch.setattr("lusoria.cli.echo", echo)
    stopped = run("html", round_, "--output-dir", tmp_path / "out")
    assert stopped.exit_code == 143 and stopped.output == ""
    assert signal.getsignal(signal.SIGTERM) == signal.SIG_DFL
    pages = sorted(path.relative_to(tmp_path / "out").as_posix() for path in (tmp_path / "out").rglob("*-*.html"))
    assert pages == ["round/escape-000000.html", "round/moves-000000.html"]
    assert [row[5] for row in rows(tmp_path / "out/index.html")] == pages
    assert said[2:] == [f"wrote {tmp_path / 'out/index.html'}", "err lusoria: stopped by SIGTERM"]


@pytest.mark.parametrize("sigterm_handled_as", [signal.SIG_DFL], indirect=True)
@pytest.mark.parametrize("stopped_before", [True, False])
@pytest.mark.parametrize("signum, status, last_said", STOPS)
def test_sigterm_while_the_index_is_written_lets_it_be_written_whole(
    round_, tmp_path, monkeypatch, sigterm_handled_as, stopped_before, signum, status, last_said
):
    """SIGTERM while the index is made: a second one, the service manager insisting, after a first that stopped
    the run at its first page, cut the index's writing short and left the earlier run's index, which does not
    list the page written; so did the first, come as the index of all the pages was made. The index is written
    whole, then the run ends, 143. ^C did the same until session 48; it now waits too, then the run ends, 1."""
    from lusoria import api

    (tmp_path / "out").mkdir()
    (tmp_path / "out/index.html").write_text(api.index_page([]))  # an earlier run's, of no page
    making = api.folder_index
    monkeypatch.setattr("lusoria.api.folder_index", lambda *args: (sigterm(signum), making(*args))[1])
    said = []

    def echo(message="", nl=True, err=False):
        said.append(("err " if err else "") + message)
        if stopped_before and not said[1:]:  # at the first page
            sigterm(signum)

    monkeypatch.setattr("lusoria.cli.echo", echo)
    stopped = run("html", round_, "--output-dir", tmp_path / "out")
    assert stopped.exit_code == status and stopped.stderr.endswith("Aborted!\n") == (signum == signal.SIGINT)
    assert said[-1 - len(last_said) :] == [f"wrote {tmp_path / 'out/index.html'}", *last_said]
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    listed = [row[5] for row in rows(tmp_path / "out/index.html")]
    assert listed == ["round/escape-000000.html"] if stopped_before else len(listed) == 15


@pytest.mark.parametrize("sigterm_handled_as", [signal.SIG_DFL], indirect=True)
@pytest.mark.parametrize(
    "first, then, status", [(signal.SIGTERM, signal.SIGINT, 143), (signal.SIGINT, signal.SIGTERM, 1)]
)
def test_the_first_of_sigterm_and_ctrl_c_says_how_the_run_ends(
    round_, tmp_path, monkeypatch, sigterm_handled_as, first, then, status
):
    """SIGTERM, then ^C, while the index is written (a user at the terminal of a service being stopped), or the
    other way round: the index is written whole, then the run ends as the first asked, 143 (a clean stop) or
    ^C's 1, whatever came after it."""
    from lusoria import api

    making = api.folder_index
    monkeypatch.setattr("lusoria.api.folder_index", lambda *args: (sigterm(first), sigterm(then), making(*args))[2])
    stopped = run("html", round_, "--output-dir", tmp_path / "out")
    assert stopped.exit_code == status
    assert len(rows(tmp_path / "out/index.html")) == 15


@pytest.mark.parametrize("sigterm_handled_as", [signal.SIG_DFL], indirect=True)
@pytest.mark.parametrize("signum, status, last_said", STOPS)
def test_sigterm_while_a_page_is_written_lets_it_be_listed(
    round_, tmp_path, monkeypatch, sigterm_handled_as, signum, status, last_said
):
    """SIGTERM as a page's file took its place (the folder synced after it: a service manager stopping the run
    and its workers at once): the page was in DIR, neither said nor listed in the index. It is both. So for ^C,
    until session 48 held for SIGTERM alone."""
    from lusoria import files

    writing = files.write_file

    def write_file(path, text, follow=True):
        writing(path, text, follow)
        if path.endswith("moves-000000.html"):
            sigterm(signum)

    monkeypatch.setattr(files, "write_file", write_file)
    stopped = run("html", round_, "--output-dir", tmp_path / "out")
    assert stopped.exit_code == status
    pages = ["round/escape-000000.html", "round/moves-000000.html"]
    assert [row[5] for row in rows(tmp_path / "out/index.html")] == pages
    assert stopped.stdout.splitlines() == [f"wrote {tmp_path / 'out' / page}" for page in [*pages, "index.html"]]


@pytest.mark.parametrize("sigterm_handled_as", [signal.SIG_DFL], indirect=True)
def test_sigterm_while_a_page_is_made_after_one_written_stops_the_run_there(
    round_, tmp_path, monkeypatch, sigterm_handled_as
):
    """SIGTERM while the second page is made (its unread parts said), after the first page's write held and let
    go of it: the run stops there, the first page alone written and listed (session 48's run: SIGTERM held for
    good after the first page, `holding` left True, waited for the second page's write)."""
    from lusoria import cli

    saying, made = cli.say_unread, []

    def say_unread(page, unread):
        made.append(page)
        if len(made) == 2:
            sigterm()
        saying(page, unread)

    monkeypatch.setattr(cli, "say_unread", say_unread)
    stopped = run("html", round_, "--output-dir", tmp_path / "out")
    assert stopped.exit_code == 143 and len(made) == 2
    assert [row[5] for row in rows(tmp_path / "out/index.html")] == ["round/escape-000000.html"]
    written = ["round/escape-000000.html", "index.html"]
    assert stopped.stdout.splitlines() == [f"wrote {tmp_path / 'out' / page}" for page in written]


def test_a_process_stopped_by_sigterm_ends_by_sigterm_once_its_index_is_written(tmp_path):
    """`lusoria html --output-dir` run as a process (a service's) and stopped by SIGTERM, its workers too: it
    ended with status 143, which systemd takes for a failure unless told otherwise (SuccessExitStatus=143),
    where it takes a process that SIGTERM ends for a clean stop. Once its index lists the pages written and
    it has said so, it ends by SIGTERM (a shell still says 143)."""
    import subprocess
    import sys

    (tmp_path / "round").mkdir()
    for n in range(200):  # (far more than it writes before SIGTERM comes)
        shutil.copy(ROOT / "samples/tablut/escape.lgn", tmp_path / f"round/g{n}.lgn")
    command = [sys.executable, "-m", "lusoria", "html", "round", "--output-dir", "out", "-j", "2"]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    first = process.stdout.readline()
    process.send_signal(signal.SIGTERM)
    stdout, stderr = process.communicate(timeout=60)
    assert process.returncode == -signal.SIGTERM and stderr == "lusoria: stopped by SIGTERM\n"
    said = [first.rstrip("\n"), *stdout.splitlines()]
    assert said[-1] == f"wrote {os.path.join('out', 'index.html')}" and 2 <= len(said) < 200
    pages = sorted(path.relative_to(tmp_path / "out").as_posix() for path in (tmp_path / "out").rglob("g*.html"))
    assert sorted(row[5] for row in rows(tmp_path / "out/index.html")) == pages and len(pages) == len(said) - 1


def _own_handler(signum, frame):
    """A library caller's own SIGTERM handler (its own way to stop)."""


@pytest.mark.parametrize("sigterm_handled_as", [_own_handler, signal.SIG_IGN], indirect=True)
def test_a_callers_own_sigterm_handler_or_sigterm_ignored_is_kept_while_pages_are_written(
    round_, tmp_path, monkeypatch, sigterm_handled_as
):
    """A program that runs lusoria's command with its own SIGTERM handler, or SIGTERM ignored (`nohup`, a
    service that stops otherwise): the command set its own while it ran, and a SIGTERM raised ^C's Aborted!
    in place of the caller's stop, or stopped a run told to ignore it. The caller's is kept."""
    handlers = []
    monkeypatch.setattr(
        "lusoria.cli.echo", lambda message="", nl=True, err=False: handlers.append(signal.getsignal(signal.SIGTERM))
    )
    assert run("html", round_, "--output-dir", tmp_path / "out").exit_code == 0
    assert handlers and set(handlers) == {sigterm_handled_as}


@pytest.mark.parametrize("handler", [_own_handler, signal.SIG_IGN])
def test_a_callers_own_sigint_handler_or_sigint_ignored_is_kept_while_pages_are_written(
    round_, tmp_path, monkeypatch, handler
):
    """As SIGTERM's (above): ^C's handler is set while pages are written only where it is Python's own, which
    raises KeyboardInterrupt; a caller's, or SIGINT ignored (`nohup`, a job run in the background), is kept."""
    handlers = []
    monkeypatch.setattr(
        "lusoria.cli.echo", lambda message="", nl=True, err=False: handlers.append(signal.getsignal(signal.SIGINT))
    )
    before = signal.signal(signal.SIGINT, handler)
    try:
        assert run("html", round_, "--output-dir", tmp_path / "out").exit_code == 0
    finally:
        signal.signal(signal.SIGINT, before)
    assert handlers and set(handlers) == {handler}


@pytest.mark.parametrize("sigterm_handled_as", [signal.SIG_DFL], indirect=True)
def test_a_process_that_its_own_sigterm_does_not_end_ends_with_status_143_once_its_index_is_written(
    round_, tmp_path, monkeypatch, sigterm_handled_as
):
    """The command run as a process (`main` called, as `python -m lusoria` does) that the SIGTERM it sends itself
    does not end (PID 1 of a container, to which the kernel delivers no signal it has no handler for; SIGTERM
    blocked): it ends with status 143 all the same, its index written (until session 48 untested). The test's
    process stands for it, its own SIGTERM not sent (`os.kill` left as it is for any other signal or process)."""
    said, sent, kill = [], [], os.kill

    def echo(message="", nl=True, err=False):
        said.append(("err " if err else "") + message)
        if len(said) == 2:
            sigterm()

    def os_kill(pid, signum):
        sent.append((pid, signum)) if (pid, signum) == (os.getpid(), signal.SIGTERM) else kill(pid, signum)

    monkeypatch.setattr("lusoria.cli.echo", echo)
    monkeypatch.setattr(os, "kill", os_kill)
    with pytest.raises(SystemExit) as ended:
        main(["html", str(round_), "--output-dir", str(tmp_path / "out")])
    assert ended.value.code == 143 and sent == [(os.getpid(), signal.SIGTERM)]
    assert said[2:] == [f"wrote {tmp_path / 'out/index.html'}", "err lusoria: stopped by SIGTERM"]
    pages = ["round/escape-000000.html", "round/moves-000000.html"]
    assert [row[5] for row in rows(tmp_path / "out/index.html")] == pages


def test_pages_are_written_by_a_thread_not_the_main_one(round_, tmp_path):
    """A program that runs the command in a thread (a GUI's, a web service's worker): SIGTERM's handler, which
    the main thread alone can set, was set anyway, and the run ended in an internal error (ValueError: signal
    only works in main thread), nothing written. It runs as it does in the main thread, SIGTERM left as it is."""
    ran = []
    thread = threading.Thread(target=lambda: ran.append(run("html", round_, "--output-dir", tmp_path / "out")))
    thread.start()
    thread.join()
    assert ran[0].exit_code == 0 and "internal error" not in ran[0].stderr
    assert [row[5] for row in rows(tmp_path / "out/index.html")][:2] == [
        "round/escape-000000.html",
        "round/moves-000000.html",
    ]


def _pages_of_two_seasons(tmp_path, monkeypatch, first, second):
    """The pages of `../2025/FIRST` and `../2026/SECOND` from `club`, which holds a FIRST and a SECOND too
    (each folder a `game1.lgn`)."""
    for round_ in (f"2025/{first}", f"2026/{second}", f"club/{first}", f"club/{second}"):
        (tmp_path / round_).mkdir(parents=True)
        shutil.copy(ROOT / "samples/tablut/escape.lgn", tmp_path / round_ / "game1.lgn")
    monkeypatch.chdir(tmp_path / "club")
    return [page.file_name for page in replay_pages([f"../2025/{first}", f"../2026/{second}"])]


def test_folders_whose_names_differ_by_case_alone_are_named_apart_or_not_written_twice(tmp_path, monkeypatch):
    """`Round1` and `round1`, one folder on Windows and macOS: from two places they are named from further
    up, as two `round1` are (both were `Round1/…` and `round1/…`); both here, a page of the second is not
    written over the first's page there (said, as for two inputs of one name), and the index lists the first."""
    pages = _pages_of_two_seasons(tmp_path, monkeypatch, "Round1", "round1")
    assert pages == ["2025/Round1/game1-000000.html", "2026/round1/game1-000000.html"]
    both = run("html", "Round1", "round1", "--output-dir", "site")
    assert (both.exit_code, both.stdout) == (2, "wrote site/Round1/game1-000000.html\nwrote site/index.html\n")
    assert both.stderr == (
        "lusoria: round1/game1.lgn, record 0 not written: site/round1/game1-000000.html holds Round1/game1.lgn, "
        "record 0, written by this command (two inputs of one name, or of names that Windows or macOS hold as one, "
        "differing in case or in an accent written composed or combining: write them into different folders)\n"
    )
    assert [row[0] for row in rows(tmp_path / "club/site/index.html")] == ["Round1/game1.lgn"]


def test_folders_whose_names_differ_by_more_than_case_are_written_apart(tmp_path, monkeypatch):
    """`Straße` and `Strasse`, two folders on every file system, were taken for names that differ by case
    alone (casefolded, `ß` is `ss`): from two places named from further up, and both here one refused."""
    pages = _pages_of_two_seasons(tmp_path, monkeypatch, "Straße", "Strasse")
    assert pages == ["Straße/game1-000000.html", "Strasse/game1-000000.html"]
    both = run("html", "Straße", "Strasse", "--output-dir", "site")
    assert (both.exit_code, both.stderr) == (0, "")
    assert [row[0] for row in rows(tmp_path / "club/site/index.html")] == ["Straße/game1.lgn", "Strasse/game1.lgn"]


def _pages_of_files_named(tmp_path, monkeypatch, *names: bytes):
    """`lusoria html in --output-dir site` run in `tmp_path`, `in` holding a game in a file of each of `names` (bytes:
    a name need not be UTF-8)."""
    folder = os.path.join(os.fsencode(tmp_path), b"in")
    os.mkdir(folder)
    for name in names:
        with open(os.path.join(folder, name), "wb") as file:
            file.write((ROOT / "samples/tablut/escape.lgn").read_bytes())
    monkeypatch.chdir(tmp_path)
    return run("html", "in", "--output-dir", "site")


def test_a_page_of_a_file_whose_name_is_not_utf8_is_named_with_its_byte_and_linked(tmp_path, monkeypatch):
    """A Latin-1 `café.lgn` (byte E9) gave `caf\\xe9-000000.html`, a backslash in the name (a folder's end on
    Windows), beside a file truly named `caf\\xe9.lgn`, whose page was `caf\\\\xe9-000000.html`: the byte is `%E9`,
    the other name kept as it is, and the index's links lead to both."""
    from urllib.parse import unquote

    written = _pages_of_files_named(tmp_path, monkeypatch, b"caf\xe9.lgn", b"caf\\xe9.lgn")
    assert written.exit_code == 0
    assert sorted(os.listdir(tmp_path / "site/in")) == ["caf%E9-000000.html", "caf\\xe9-000000.html"]
    links = re.findall(r'<a href="([^"]*)">replay</a>', (tmp_path / "site/index.html").read_text())
    assert sorted(links) == ["in/caf%25E9-000000.html", "in/caf%5Cxe9-000000.html"]
    assert all((tmp_path / "site" / unquote(link)).is_file() for link in links)


def test_a_name_not_in_utf8_and_a_name_written_as_its_page_names_it_are_refused_naming_both(tmp_path, monkeypatch):
    """A Latin-1 `café.lgn`, its page `caf%E9-000000.html`, and a `caf%E9.lgn`, whose page is named so too: the
    second is refused, never written over the first, naming both files, why their pages' names are one (the
    message spoke of case and accents alone) and what to do."""
    both = _pages_of_files_named(tmp_path, monkeypatch, b"caf%E9.lgn", b"caf\xe9.lgn")
    first, second = "in/caf%E9.lgn", "in/caf\\xe9.lgn"  # (read in name order: `%` before the byte E9)
    refused = (
        f"lusoria: {second}, record 0 not written: site/in/caf%E9-000000.html holds {first}, record 0, written by "
        "this command (two inputs of one name, or of names that Windows or macOS hold as one, differing in case or "
        "in an accent written composed or combining, or a name not in UTF-8, each byte of it written %NN in an "
        "output's name (a Latin-1 café: caf%E9), and a name that holds it so (caf%E9): write them into different "
        "folders, or rename the one not in UTF-8)\n"
    )
    assert (both.exit_code, both.stderr) == (2, refused)
    assert os.listdir(tmp_path / "site/in") == ["caf%E9-000000.html"]


def test_two_names_of_a_percent_sign_alike_but_in_case_are_not_said_to_be_names_not_in_utf8(tmp_path, monkeypatch):
    """`50%.lgn` and `50%.LGN`, names in UTF-8 differing in case: the refusal spoke of a name not in UTF-8 written
    %NN, as for any name that held a `%`; it says case and accents alone."""
    for folder, names in (("a", (b"50%.LGN", b"50%.lgn")), ("b", (b"50%25.LGN", b"50%25.lgn"))):  # (%25: no byte 80-FF)
        (tmp_path / folder).mkdir()
        both = _pages_of_files_named(tmp_path / folder, monkeypatch, *names)
        assert both.exit_code == 2
        assert both.stderr.endswith(
            "differing in case or in an accent written composed or combining: write them into different folders)\n"
        )


@pytest.mark.parametrize(
    "first, second, one",
    [
        ("café", "cafe\u0301", True),  # composed and decomposed (NFC, NFD): one name on macOS
        ("Οδός", "ΟΔΌΣ", True),
        ("οδός", "οδόσ", True),  # a final sigma and a sigma: both Σ in upper case, one name on Windows
        ("Straße", "STRASSE", False),  # `ß` has no upper case of one letter: two names everywhere
        ("ﬁle", "FILE", False),  # a ligature, as Windows keeps it
    ],
)
def test_names_one_file_system_takes_for_one_are_written_once(tmp_path, monkeypatch, first, second, one):
    """`case_blind` lowered names letter by letter: `café` written composed and decomposed, or `οδός` with a
    final sigma and with a sigma, two names to it, are one on macOS or Windows, and the second page went over
    the first's there; it is said, naming the accent too (the two names look alike when shown)."""
    from lusoria.files import case_blind

    assert (case_blind(first) == case_blind(second)) is one
    for folder in (first, second):
        (tmp_path / folder).mkdir()
        shutil.copy(ROOT / "samples/tablut/escape.lgn", tmp_path / folder / "game1.lgn")
    monkeypatch.chdir(tmp_path)
    both = run("html", first, second, "--output-dir", "site")
    refused = (
        f"lusoria: {second}/game1.lgn, record 0 not written: site/{second}/game1-000000.html holds {first}/game1.lgn, "
        "record 0, written by this command (two inputs of one name, or of names that Windows or macOS hold as one, "
        "differing in case or in an accent written composed or combining: write them into different folders)\n"
    )
    assert (both.exit_code, both.stderr) == ((2, refused) if one else (0, ""))


def test_the_hidden_folders_of_the_current_directory_given_do_not_rename_a_folder_from_elsewhere(tmp_path, monkeypatch):
    """`.` given is read without its hidden folders (`.drafts`, `.git`): one of their names from elsewhere
    keeps its name (it went in `2025/.drafts`, as if `.` held a `.drafts` read)."""
    for folder in ("club/.drafts", "2025/.drafts"):
        (tmp_path / folder).mkdir(parents=True)
        shutil.copy(ROOT / "samples/tablut/escape.lgn", tmp_path / folder / "game1.lgn")
    shutil.copy(ROOT / "samples/tablut/escape.lgn", tmp_path / "club/game0.lgn")
    monkeypatch.chdir(tmp_path / "club")
    pages = [page.file_name for page in replay_pages([".", "../2025/.drafts"])]
    assert pages == ["game0-000000.html", ".drafts/game1-000000.html"]


def test_a_current_directory_given_that_cannot_be_read_is_said_without_a_traceback(tmp_path, monkeypatch):
    """`.` that cannot be listed (no permission): naming the pages asked for its folders, and a
    PermissionError came out of the command as lusoria's internal error; its reading says why instead (it
    said the folder held no file)."""

    def refused(path="."):
        raise PermissionError(13, "Permission denied", os.fspath(path))

    monkeypatch.setattr("os.scandir", refused)
    published = run("html", ".", "--output-dir", tmp_path / "out")
    assert (published.exit_code, published.stdout) == (2, "")
    assert (
        published.stderr == "lusoria: .: skipped, it cannot be read: permission denied\nlusoria: no record found in .\n"
    )


def test_a_file_an_older_index_named_escaped_twice_is_not_said_gone(tmp_path):
    """An index.html of session 43's lusoria showed `g\\xffme.lgn` escaped twice (`g\\\\xffme.lgn`): a run
    that publishes another round named it among the files gone, though it is here; it is found as it is."""
    (tmp_path / "round1").mkdir()
    (tmp_path / "round2").mkdir()
    shutil.copy(ROOT / "samples/tablut/tuichi.lgn", tmp_path / "round1" / os.fsdecode(b"g\xffme.lgn"))
    shutil.copy(ROOT / "samples/tablut/escape.lgn", tmp_path / "round2/game1.lgn")
    assert run("html", "round1", "--output-dir", "season").exit_code == 0
    index = tmp_path / "season/index.html"
    index.write_text(index.read_text().replace('"file": "round1/g\\\\xffme', '"file": "round1/g\\\\\\\\xffme'))
    assert listed(index)[0]["file"] == "round1/g\\\\xffme.lgn"
    added = run("html", "round2", "--output-dir", "season")
    assert (added.exit_code, added.stderr) == (0, "")
    (tmp_path / "round1" / os.fsdecode(b"g\xffme.lgn")).unlink()
    gone = run("html", "round2", "--output-dir", "season")
    assert "still lists the games of round1/g\\\\xffme.lgn, not found here" in gone.stderr


def test_a_run_that_writes_no_page_writes_no_index(tmp_path, monkeypatch):
    """No record read (an empty folder), or every page refused (already there): an empty index.html, or one
    rewritten for nothing, is not written in DIR."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "empty").mkdir()
    nothing = run("html", "empty", "--output-dir", "site")
    assert (nothing.exit_code, nothing.stdout, os.path.exists("site/index.html")) == (2, "", False)
    (tmp_path / "round").mkdir()
    shutil.copy(ROOT / "samples/tablut/escape.lgn", tmp_path / "round/game1.lgn")
    (tmp_path / "site/round").mkdir(parents=True)
    (tmp_path / "site/round/game1-000000.html").write_text("the club's own page")
    refused = run("html", "round", "--output-dir", "site")
    assert (refused.exit_code, refused.stdout, os.path.exists("site/index.html")) == (2, "", False)


def test_the_index_says_each_games_rules_event_and_date_as_explain_names_them(tmp_path):
    """h75b: the index had no game, event nor date, so that a 19×19 Alea game and a Brandubh game looked alike,
    and its title was `106 games` alone. Each game's rules are named as `lusoria explain` names them (a catalogue's
    entry by its title, a variant's Rules by their tags), a column no game fills is left out, and an event every
    game shares is said in the title."""
    games = [
        '[Game "tablut"]\n[Event "Club evening"]\n[Date "2026.11.21"]\n\n1. e3-c3 *\n',
        '[Game "tablut"]\n[Event "??"]\n[Date "????.??.??"]\n[Variant "aage"]\n[Rules "first=white"]\n\n*\n',
        '[Game "tablut"]\n[Event "Who won?"]\n[Variant "linnaeus"]\n[Rules "throne-pass=king"]\n\n*\n',
        '[Game "hnefatafl"]\n[Variant "alea-berserk-19x19-bartley"]\n\n*\n',
        '[Game "chess"]\n\n*\n',
    ]
    (tmp_path / "games.lgn").write_text("\n".join(games))
    run("html", tmp_path / "games.lgn", "--output-dir", tmp_path / "out")
    assert rows(tmp_path / "out/index.html", ("game", "event", "date")) == [
        ("Tablut (seed)", "Club evening", "2026.11.21", "games-000000.html"),
        ("Historical Hnefatafl 9×9 (Saami Tablut-w)", "", "", "games-000001.html"),
        ("Tablut (linnaeus) [Rules &quot;throne-pass=king&quot;]", "Who won?", "", "games-000002.html"),  # (its ?)
        ("Alea Berserk 19×19 (Bartley)", "", "", "games-000003.html"),
        ("chess", "", "", "games-000004.html"),
    ]
    index = (tmp_path / "out/index.html").read_text()
    assert "<title>5 games</title>" in index
    assert f'<td class="file">{str(tmp_path / "games.lgn").replace("/", "/<wbr>")}</td>' in index  # (breaks after a /)
    undated = games[0].replace('[Date "2026.11.21"]\n', "")
    (tmp_path / "round.lgn").write_text(undated + "\n" + undated.replace("e3-c3", "e3-d3"))
    run("html", tmp_path / "round.lgn", "--output-dir", tmp_path / "round")
    index = (tmp_path / "round/index.html").read_text()
    assert "<title>Club evening: 2 games</title>" in index and "<h1>Club evening: 2 games</h1>" in index
    assert re.findall(r"<th>([^<]*)</th>", index) == [
        *("file", "record", "game", "players", "result", "verdict"),  # (no date: none known)
        "",  # (the links')
    ]


def test_a_game_whose_variant_explain_does_not_know_is_listed_by_its_game_and_variant(monkeypatch):
    """A plug-in's game may name its variants otherwise than its presets: its rules are listed as GAME/VARIANT."""
    from lusoria.api import check_text
    from lusoria.html import listed_as

    report = check_text('[Game "tablut"]\n[Variant "linnaeus"]\n[Date "2026.??.??"]\n\n1. e3-c3 *\n')
    monkeypatch.setattr("lusoria.variants.variants", lambda: {"tablut": {}})
    assert listed_as(report) == {"game": "tablut/linnaeus", "event": "", "date": "2026.??.??"}


def test_a_library_caller_publishes_the_pages_and_index_the_command_does(round_, tmp_path):
    """h81a: `output_dir=` wrote nothing, and the safe writing (never over a file of the run nor, unless told, over
    one there before; the index with an earlier run's pages) was the command's alone: an OutputDir and
    `write_index` are the command's, and write the same files."""
    assert run("html", round_, "--output-dir", tmp_path / "cli").exit_code == 0
    folder = api_module.OutputDir(str(tmp_path / "lib"))
    pages = [page for page in replay_pages([round_], output_dir=folder.directory) if not isinstance(page, Problem)]
    written = [folder.write(page.file_name, page.page, api_module.record_named(page.source)) for page in pages]
    assert [(each.wrote, each.said()) for each in written] == [(True, None)] * 15
    assert written[1].what == f"{round_}/moves.lgn, record 0" and folder.holds(pages[1].file_name, written[1].what)
    index = api_module.write_index(folder, pages, made=pages[:1])  # (the games of moves.lgn read now: none)
    assert (index.gone, index.withdrawn, index.written) == (
        [],
        [],
        api_module.Written(f"{folder.directory}/index.html", "the index", wrote=True),
    )
    made = {path.relative_to(tmp_path / "cli"): path.read_bytes() for path in (tmp_path / "cli").rglob("*.html")}
    assert {
        path.relative_to(tmp_path / "lib"): path.read_bytes() for path in (tmp_path / "lib").rglob("*.html")
    } == made

    twice = folder.write(pages[0].file_name, "<p>another</p>", "another page")
    assert (twice.wrote, twice.said(to="command").split(" (")[0], twice.said().split(" (")[0]) == (
        False,
        f"another page not written: {twice.path} holds {written[0].what}, written by this command",
        f"another page not written: {twice.path} holds {written[0].what}, written by this OutputDir",
    )
    later = api_module.OutputDir(folder.directory)  # a later run's
    held = later.write(pages[0].file_name, pages[0].page, written[0].what)
    assert held == api_module.Written(written[0].path, written[0].what)  # (there as it is: not written, no error)
    assert later.holds(pages[0].file_name, written[0].what)
    assert later.write(pages[1].file_name, "<p>another</p>", "a page").said(to="command") == (
        f"a page not written: {written[1].path} is already there (--overwrite writes over it)"
    )
    assert (
        not later.holds(pages[1].file_name, "a page")
        and (tmp_path / "lib").joinpath(pages[1].file_name).read_text() == pages[1].page
    )
    (tmp_path / "lib/index.html").write_text("<p>the club's own page</p>")
    foreign = api_module.write_index(later, pages[:1])
    assert foreign.written is not None and foreign.written.said() == (
        f"the index not written: {folder.directory}/index.html is not an index lusoria wrote, or its list of games "
        "cannot be read (overwrite=True writes over it, listing this run's pages alone)"
    )
    assert (tmp_path / "lib/index.html").read_text() == "<p>the club's own page</p>"
    overwriting = api_module.OutputDir(folder.directory, overwrite=True)
    assert overwriting.write(pages[0].file_name, pages[0].page + "<!-- mended -->", written[0].what).wrote
    assert api_module.write_index(overwriting, pages[:1]).written == api_module.Written(
        f"{folder.directory}/index.html", "the index", wrote=True
    )
    assert api_module.write_index(api_module.OutputDir(folder.directory), pages[1:]).written is None  # (none written)
    with pytest.raises(ValueError, match="names no reader"):
        twice.said(to="reader")


def test_a_folder_named_with_a_percent_sign_is_no_name_not_in_utf8_of_its_files(tmp_path):
    """review82: `--output-dir 'x%E9'` told two names alike but in case of a name not in UTF-8 (its `%E9`): of the
    file's name alone, as the command's was."""
    folder = api_module.OutputDir(str(tmp_path / "x%E9"))
    assert folder.write("Game.html", "<p>one</p>", "a").wrote
    twice = folder.write("game.html", "<p>two</p>", "b")
    assert twice.said().endswith(
        "differing in case or in an accent written composed or combining: write them into different folders)"
    )
    assert folder.write("caf%E9.html", "<p>one</p>", "c").wrote
    named = folder.write("CAF%E9.html", "<p>two</p>", "d")
    assert "a name not in UTF-8, each byte of it written %NN" in named.said()
