"""`lusoria show` on a record whose replay stops, or that lacks its result marker: where, and why."""

import pytest
from click.testing import CliRunner

from lusoria.api import Board, NoSuchRecord, PastTheEnd, Replay, ReplayStopped, Unreplayable, board, replay_stop
from lusoria.cli import main
from lusoria.validator.replay import check

KONAKIS = '[Game "tablut"]\n1. e6-h6 a6-a7 2. Ke5-e6 a7-a6 3. e4-e5 d1-d2 *\n'


def test_the_board_says_which_ply_stopped_the_replay_and_its_rule():
    shown = board(KONAKIS).text().splitlines()
    assert shown[:2] == [
        "tablut (seed) after ply 4 of 6 (move 2, Black: a7-a6)",
        "the replay stops after ply 4: move 3, White: e4-e5 breaks T3: only the king may stop on the konakis (e5)",
    ]
    assert board(KONAKIS, 2).text().splitlines()[1].startswith("the replay stops after ply 4: move 3, White: e4-e5")


def test_the_start_is_said_as_the_start():
    # it said "after ply 0 of 6"
    assert board(KONAKIS, 0).text().splitlines()[0] == "tablut (seed) at the start (ply 0 of 6)"
    shown = CliRunner().invoke(main, ["show", "--ply", "0", "-"], input=KONAKIS)
    assert shown.exit_code == 0 and shown.stdout.startswith("tablut (seed) at the start (ply 0 of 6)\n")


def test_a_board_printed_is_drawn_as_show_draws_it():
    """`print(board)`, as python-chess's board prints, printed the dataclass: the record's whole report."""
    shown = board(KONAKIS, 2)
    assert str(shown) == shown.text() and f"{shown}".startswith(
        "tablut (seed) after ply 2 of 6 (move 1, Black: a6-a7)\n"
    )


def test_a_ply_past_the_stop_is_refused_with_the_reason():
    with pytest.raises(
        ReplayStopped,
        match=r"^no ply 6: its replay stops after ply 4, as move 3, White: e4-e5 breaks T3: "
        r"only the king may stop on the konakis \(e5\)$",
    ):
        board(KONAKIS, 6)
    with pytest.raises(ValueError, match=r"^no ply -1: plies count from 0 \(the start\) to 4$"):
        board(KONAKIS, -1)  # (not "its replay stops after ply 4")
    with pytest.raises(PastTheEnd, match=r"^no ply 7: it has 6 \(the last, move 3, Black: a2-a1\)$"):
        board('[Game "tablut"]\n1. e3-c3 d1-d2 2. e4-e3 a4-a2 3. c5-c4 a2-a1 *\n', 7)
    with pytest.raises(PastTheEnd, match=r"^no ply 1: it has 0$"):  # no last ply to name
        board('[Game "tablut"]\n*\n', 1)


def test_the_board_of_a_report_that_keeps_no_positions_says_so():
    """Newcomer-59: `Replay` of a report checked with keep=False (the start its only position kept) said "no ply 3: it
    has 0", and its board by default, the last, was the start. Either says the report keeps no positions; ply 0 is
    the start all the same."""
    kept = Replay(check(KONAKIS, keep=False))
    for ply, said in ((None, "no board"), (3, "no board after ply 3")):  # (not "after ply 6": it stops after 4)
        with pytest.raises(ValueError, match=rf"^{said}: this report keeps no position after a ply "):
            kept.board(ply)
    assert kept.board(0).text().startswith("tablut (seed) at the start (ply 0 of 6)")
    assert Replay(check(KONAKIS)).board().ply == 4  # (kept: where its replay stops)


@pytest.mark.parametrize(
    "text, stop",
    [
        ('[Game "tablut"]\n1. e3-c3 d1-d3 *\n', None),  # the whole line replays
        ('[Game "tablut"]\n1. e3-c3 (1. e3-d2) d1-d3 *\n', None),  # an illegal ply in a variation
        ('[Game "tablut"]\n1. e3-c3 d1-d3 0-1\n', None),  # a wrong result stops nothing
        ('[Game "tablut"]\n[Variant "nosuch"]\n*\n', None),  # not replayed at all (it raised IndexError)
        (
            '[Game "laquet"]\n1. 61: 5/6 *\n',
            "move 1, White: 61: 5/6 breaks Q3: 5/6 lands on point 6, held by Black: no checker may stop on an enemy point",
        ),
        (
            '[Game "latrunculi"]\n[Variant "petteia"]\n1. b2-b4 h7-h5 2. a1-a3 *\n',
            "move 2, White: a1-a3 breaks E2: the way is blocked at a2",
        ),
    ],
)
def test_replay_stop(text, stop):
    assert replay_stop(check(text)) == stop


def test_show_on_the_command_line(tmp_path):
    path = tmp_path / "konakis.lgn"
    path.write_text(KONAKIS)
    result = CliRunner().invoke(main, ["show", str(path), "--ply", "5"])
    assert result.exit_code == 1
    assert result.output == (
        f"lusoria: {path}:2:35: record 0: no ply 5: its replay stops after ply 4, as move 3, White: e4-e5 "
        "breaks T3: only the king may stop on the konakis (e5)\n"
    )
    piped = CliRunner().invoke(main, ["show", "-", "--ply", "5"], input=KONAKIS)  # (reviewer-56: it said -:2:35)
    assert piped.output == result.output.replace(str(path), "<stdin>")


def test_no_such_record_has_its_own_error():
    with pytest.raises(NoSuchRecord, match=r"^the text has no record 2: it has 1 record$"):
        board(KONAKIS, index=2)


@pytest.mark.parametrize("failing", ["lusoria.api.record_at", "lusoria.api.Board"])
def test_a_bug_in_show_is_an_internal_error_not_an_invalid_record_or_a_usage_error(monkeypatch, failing):
    """A ValueError of a bug in reading the record or making its board was said as `--record`'s usage
    error (exit 2) or as an invalid record (exit 1)."""

    def bug(*args, **kwargs):
        raise ValueError("a bug")

    monkeypatch.setattr(failing, bug)
    result = CliRunner().invoke(main, ["show", "-"], input=KONAKIS)
    assert result.exit_code == 3 and "internal error: ValueError: a bug" in result.output, result.output


def test_show_replays_a_record_without_its_result_marker_as_validate_does(tmp_path):
    """A transcriber's record that lacks its result marker: validate replays its plies, and so does
    show (it said "cannot be replayed"), with the diagnostic on stderr as validate prints it."""
    path = tmp_path / "open.lgn"
    path.write_text('[Game "laquet"]\n\n1. 64: 5/11 5/9 52: 6/8 7/12\n')
    missing = (
        f"{path}:3:29: error[syntax]: the record ends without a result marker (1-0, 0-1, 1/2-1/2, *)\n"
        " 3 | 1. 64: 5/11 5/9 52: 6/8 7/12\n"
        "   |                             ^\n"
    )
    assert CliRunner().invoke(main, ["validate", str(path)]).output.startswith(missing)
    shown = CliRunner().invoke(main, ["show", str(path)])
    assert (shown.exit_code, shown.stderr) == (0, missing)
    assert shown.stdout.startswith("laquet (seed) after ply 2 of 2 (move 1, Black: 52: 6/8 7/12)\n")
    assert "position: 1:2,2:3,3:3,4:3,5:1,9:1,11:1,18:1 6:13,8:1,12:1 w\nWhite to move\n" in shown.stdout
    assert (
        CliRunner()
        .invoke(main, ["show", str(path), "--ply", "1"])
        .stdout.startswith("laquet (seed) after ply 1 of 2 (move 1, White: 64: 5/11 5/9)\n")
    )


def test_show_replays_the_plies_of_a_record_without_its_result_marker_up_to_where_they_stop():
    """With its result marker left out, a record whose replay stops gives both: the syntax error and
    where the replay stops."""
    shown = board(KONAKIS.removesuffix("*\n"))
    assert [(d.rule, d.line, d.column) for d in shown.unread] == [("syntax", 2, 46)]
    assert shown.text().splitlines()[:2] == [
        "tablut (seed) after ply 4 of 6 (move 2, Black: a7-a6)",
        "the replay stops after ply 4: move 3, White: e4-e5 breaks T3: only the king may stop on the konakis (e5)",
    ]
    assert board(KONAKIS).unread == []


def test_a_game_that_ended_off_the_board_says_how_as_its_record_does(tmp_path):
    """A move list ending `resigned` (or a result with a Termination) showed "Black to move" at its last
    ply, where a game won on the board says "game over": now its result marker and Termination are said
    there; a record that ends `*`, and any earlier ply, still say who is to move."""
    path = tmp_path / "brandubh.txt"
    path.write_text("d1-b1 d3-g3 b1-f1 resigned\n")
    result = CliRunner().invoke(main, ["show", str(path)])
    assert (
        result.exit_code == 0 and result.output.splitlines()[-1] == "game over: 0-1 (resignation, as the record says)"
    )
    assert CliRunner().invoke(main, ["show", str(path), "--ply", "2"]).output.splitlines()[-1] == "Black to move"
    decided = '[Game "tablut"]\n[Result "1-0"]\n1. e3-c3 d1-d3 1-0\n'
    assert board(decided).text().splitlines()[-1] == "game over: 1-0 (as the record says)"
    assert board(decided.replace("1-0", "*")).text().splitlines()[-1] == "White to move"
    assert board(KONAKIS.replace("*", "1-0")).text().splitlines()[-1] == "White to move"  # (its replay stops)


@pytest.mark.parametrize(
    "text, ply",
    [
        ('[Game "tablut"]\n1. e3-c3 *\n', 2),  # past the last ply
        ('[Game "tablut"]\n1. e3-c3 *\n', -1),
        ('[Game "nosuchgame"]\n1. e3-c3 *\n', 0),  # no rules replayed it
        ("1. e3-c3 *\n", 0),
    ],
)
def test_a_board_made_by_hand_of_what_no_rules_replayed_is_refused_as_it_is_made(text, ply):
    """Board is public (lusoria.api): made by hand of a report its rules did not replay, its rules
    and last ply were an assert's AssertionError (nothing under python -O) when first read."""
    with pytest.raises(ValueError, match=f"no board at ply {ply}: a Board is of a record its rules replayed"):
        Board(check(text), ply)
    made = check('[Game "tablut"]\n1. e3-c3 *\n')
    assert (Board(made, 0).last, Board(made, 1).last) == (None, "e3-c3")  # no ply led to the start


def test_a_record_that_does_not_parse_is_said_with_what_its_slip_meant_as_validate_says_it(tmp_path):
    """A Laquet roll without its colon: show, rules, html, convert and `api.board` said "cannot be
    replayed: found '31'" (convert: "not converted: error[syntax]: found '31'") without validate's
    "did you mean 31:?"."""
    path = tmp_path / "roll.lgn"
    path.write_text('[Game "laquet"]\n\n1. 46: 5/11 4/8 31 6/12 6/7 *\n')
    found = (
        "found '31', expected a ply, a move number, a comment, a NAG, a variation or a result marker "
        "(1-0, 0-1, 1/2-1/2, *); read as 31:, it breaks Q3 there (6/12 moves 6 points, and the dice left are 3 and 1 "
        "(the plays written fit the roll 61: a die misread?)); did you mean 31:?"
    )
    why = f"{path}:3:17: record 0: cannot be replayed: error[syntax]: {found}\n"
    assert "^^ did you mean 31:?" in CliRunner().invoke(main, ["validate", str(path)]).output
    for command in ("show", "html"):
        result = CliRunner().invoke(main, [command, str(path)])
        assert (result.exit_code, result.stderr) == (1, f"lusoria: {why}")
    assert CliRunner().invoke(main, ["rules", str(path)]).output == why
    page = CliRunner().invoke(main, ["html", str(path)]).stdout
    assert "a die misread?)); did you mean 31:?</div>" in page
    converted = CliRunner().invoke(main, ["convert", "--to", "lgn", str(path)])
    not_converted = f"lusoria: {path}:3:17: record 0 not converted: error[syntax]: {found}\n"
    assert (converted.exit_code, converted.stderr) == (1, not_converted)
    with pytest.raises(Unreplayable) as raised:
        board(path)
    assert str(raised.value) == f"{path}:3:17: the record cannot be replayed: error[syntax]: {found}"  # (no place)


def test_a_tag_whose_message_says_what_its_slip_meant_is_said_so_once(tmp_path):
    """A game's name mistyped: its message says "did you mean tablut?" already; show and convert
    said it twice."""
    path = tmp_path / "tablot.lgn"
    path.write_text('[Game "tablot"]\n\n1. e3-b3 *\n')
    found = "unknown game 'tablot' (known: brandubh, copenhagen, hnefatafl, laquet, latrunculi, tablut; did you mean tablut?)"
    shown = CliRunner().invoke(main, ["show", str(path)])
    assert shown.stderr == f"lusoria: {path}:1:8: record 0: cannot be replayed: error[tag]: {found}\n"
    converted = CliRunner().invoke(main, ["convert", "--to", "lgn", str(path)])
    assert converted.stderr == f"lusoria: {path}:1:8: record 0 not converted: error[tag]: {found}\n"


@pytest.fixture
def round_(tmp_path):
    """A round: two valid games of 9 plies, a record whose replay stops after ply 4, and a file
    of five records, three of which cannot be replayed at all and two of 2 plies."""
    from conftest import ROOT

    round_ = tmp_path / "round"
    (round_ / "late").mkdir(parents=True)
    for name in ("escape", "tuichi"):
        (round_ / f"{name}.lgn").write_bytes((ROOT / f"samples/tablut/{name}.lgn").read_bytes())
    (round_ / "konakis.lgn").write_text(KONAKIS)
    (round_ / "late/syntax.lgn").write_bytes((ROOT / "samples/errors/syntax.lgn").read_bytes())
    return round_


def run(*args, input=None):
    return CliRunner().invoke(main, [str(arg) for arg in args], input=input)


def test_the_boards_of_a_folder_are_written_as_svg_and_those_not_replayed_that_far_said(round_, tmp_path):
    """The webmaster's final positions of a round (here after ply 5), made by the workers (--jobs by
    default), named as html names its pages; the others said at their place, and exit status 2."""
    out = tmp_path / "out"
    drawn = run("show", round_, "--format", "svg", "--output-dir", out, "--ply", "5")
    assert drawn.exit_code == 2
    assert drawn.stdout.splitlines() == [
        f"wrote {out / 'round/escape-000000.svg'}",
        f"wrote {out / 'round/tuichi-000000.svg'}",
    ]
    syntax = round_ / "late/syntax.lgn"
    assert drawn.stderr.splitlines() == [
        f"lusoria: {round_ / 'konakis.lgn'}:2:35: record 0 not drawn: no ply 5: its replay stops after ply 4, as move 3, "
        "White: e4-e5 breaks T3: only the king may stop on the konakis (e5)",
        f"lusoria: {syntax}:6:19: record 0 not drawn: cannot be replayed: error[syntax]: found 'e4-j4': j4 is not a square of any "
        "tablut board (a1–i9); did you mean e4-h4 or e4-b4 or e4-c4?",
        f"lusoria: {syntax}:11:10: record 1 not drawn: cannot be replayed: error[syntax]: this comment is never closed with '}}'",
        f"lusoria: {syntax}:13: record 2 not drawn: no ply 5: it has 2 (the last, move 1, Black: d1-d3)",
        f"lusoria: {syntax}:21:12: record 3 not drawn: cannot be replayed: error[syntax]: found ')', expected a ply, a move number, "
        "a comment, a NAG or a variation",
        f"lusoria: {syntax}:23: record 4 not drawn: no ply 5: it has 2 (the last, move 1, Black: d1-d3)",
    ]
    for name in ("escape", "tuichi"):
        alone = run("show", round_ / f"{name}.lgn", "--format", "svg", "--ply", "5")
        assert (out / f"round/{name}-000000.svg").read_text() == alone.stdout
        assert board(str(round_ / f"{name}.lgn"), 5).svg() + "\n" == alone.stdout
    last = run("show", round_, "--format", "svg", "--output-dir", tmp_path / "last")  # each record's last ply
    assert [line.rpartition("/")[2] for line in last.stdout.splitlines()] == [
        "escape-000000.svg",
        "konakis-000000.svg",  # after ply 4, where its replay stops
        "syntax-000002.svg",
        "syntax-000004.svg",
        "tuichi-000000.svg",
    ]
    assert (tmp_path / "last/round/konakis-000000.svg").read_text() == board(KONAKIS).svg() + "\n"
    assert (tmp_path / "last/round/late/syntax-000002.svg").exists()


def test_boards_already_in_the_folder_are_kept_unless_asked_as_html_keeps_its_pages(round_, tmp_path):
    out = tmp_path / "out"
    run("show", round_ / "escape.lgn", round_ / "tuichi.lgn", "--format", "svg", "--output-dir", out)
    (out / "round/escape-000000.svg").write_text("drawn by hand")
    again = run("show", round_ / "escape.lgn", round_ / "tuichi.lgn", "--format", "svg", "--output-dir", out)
    assert (again.exit_code, again.stdout) == (2, "")  # tuichi's board, as it would be drawn, is kept: said nothing
    assert again.stderr == (
        f"lusoria: {round_ / 'escape.lgn'}, record 0 not written: {out / 'round/escape-000000.svg'} is already there "
        "(--overwrite writes over it)\n"
    )
    later = run("show", round_ / "tuichi.lgn", "--format", "svg", "--output-dir", out, "--ply", "4")
    assert later.exit_code == 2 and later.stderr.endswith(
        f"{out / 'round/tuichi-000000.svg'} is already there (--overwrite writes over it)\n"
    )
    assert (out / "round/escape-000000.svg").read_text() == "drawn by hand"
    asked = run("show", round_ / "escape.lgn", "--format", "svg", "--output-dir", out, "--overwrite")
    assert (asked.exit_code, asked.stderr) == (0, "")
    assert (out / "round/escape-000000.svg").read_text() == board(str(round_ / "escape.lgn")).svg() + "\n"


@pytest.mark.parametrize(
    "given, said",
    [
        (["--output-dir", "out"], "--output-dir writes SVG diagrams: give --format svg"),
        (
            ["--format", "svg", "--output-dir", "out", "-o", "a.svg"],
            "--output-dir draws the board of every record: not with -o or --record",
        ),
        (
            ["--format", "svg", "--output-dir", "out", "--record", "1"],
            "--output-dir draws the board of every record: not with -o or --record",
        ),
        (
            ["--format", "svg"],
            "one board is of one record: give --format svg --output-dir DIR for the records of a folder or several PATHs",
        ),
    ],
)
def test_boards_of_several_records_need_output_dir_and_svg(round_, given, said):
    refused = run("show", round_, *given)
    assert refused.exit_code == 2 and refused.stderr.endswith(f"Error: {said}\n")


def test_a_board_drawn_of_a_record_without_its_result_marker_is_said_as_one_record_show_says_it(tmp_path, monkeypatch):
    """`show PATH` says on stderr what a record lacks (its result marker); `show --output-dir` drew it
    and said nothing: the same line in both, the board written, exit status 0."""
    monkeypatch.chdir(tmp_path)
    path = tmp_path / "unfinished.lgn"
    path.write_text('[Game "tablut"]\n\n1. e3-c3 e1-e2\n')
    said = (
        f"{path}:3:15: error[syntax]: the record ends without a result marker (1-0, 0-1, 1/2-1/2, *)\n"
        " 3 | 1. e3-c3 e1-e2\n"
        "   |               ^\n"
    )
    alone = run("show", path, "--format", "svg")
    assert (alone.exit_code, alone.stderr) == (0, said)
    drawn = run("show", path, "--format", "svg", "--output-dir", tmp_path / "out")
    assert (drawn.exit_code, drawn.stderr) == (0, said)
    assert drawn.stdout == f"wrote {tmp_path / 'out/unfinished-000000.svg'}\n"
    assert (tmp_path / "out/unfinished-000000.svg").read_text() == alone.stdout


@pytest.mark.parametrize("command", [["show"], ["html"]])
@pytest.mark.parametrize("jobs", [["--jobs", "2"], ["-j", "1"], ["--force-jobs"]])
def test_jobs_without_output_dir_is_a_usage_error_as_overwrite_is(round_, command, jobs):
    """--jobs, the worker processes of --output-dir's files, given for one record: said, not ignored."""
    refused = run(*command, round_ / "escape.lgn", *jobs)
    assert (refused.exit_code, refused.stdout) == (2, "")
    given = "--force-jobs" if jobs == ["--force-jobs"] else "--jobs"  # (the option given, -j by its long name)
    assert refused.stderr.endswith(
        f"Error: {given} is of the worker processes that share the files of DIR: give --output-dir DIR\n"
    )


@pytest.mark.parametrize(
    ("command", "needs", "work"),
    [
        ("show", "With --output-dir: ", "draw the boards"),
        ("html", "With --output-dir: ", "make the pages"),
        ("validate", "", "check the records"),
        ("export", "", "replay the records"),
    ],
)
def test_the_help_of_jobs_says_the_option_they_need(command, needs, work):
    """show's and html's --jobs and --force-jobs are of --output-dir alone (a usage error without it):
    their help says so; validate's, always used, do not. Each says what its workers do (show's and
    html's said they check the records)."""
    shown = " ".join(run(command, "--help").stdout.split())
    worker = "worker" if needs else "Worker"
    assert f"--jobs INTEGER {needs}{worker} processes that {work} (taken" in shown
    assert f"--force-jobs {needs}{'allow' if needs else 'Allow'} more worker processes than cores." in shown


def test_the_library_draws_the_boards_that_show_writes_each_with_its_problem_or_its_name(round_):
    """api.diagrams, what `show --format svg --output-dir` writes: in the order of the records, by
    one process or two alike; a record not replayed that far has the problem show says at its place."""
    from lusoria.api import diagrams

    drawn = [(d.file_name, d.svg, d.problem, d.diagnostic and d.diagnostic.line) for d in diagrams([round_], 5)]
    assert [(name, svg is not None, line) for name, svg, _, line in drawn] == [
        ("round/escape-000000.svg", True, None),
        ("round/konakis-000000.svg", False, None),
        ("round/late/syntax-000000.svg", False, 6),
        ("round/late/syntax-000001.svg", False, 11),
        ("round/late/syntax-000002.svg", False, None),
        ("round/late/syntax-000003.svg", False, 21),
        ("round/late/syntax-000004.svg", False, None),
        ("round/tuichi-000000.svg", True, None),
    ]
    assert drawn[0][1] == board(str(round_ / "escape.lgn"), 5).svg()
    assert (
        drawn[1][2]
        == "no ply 5: its replay stops after ply 4, as move 3, White: e4-e5 breaks T3: only the king may stop on the konakis (e5)"
    )
    assert drawn[2][2] == (
        "cannot be replayed: error[syntax]: found 'e4-j4': j4 is not a square of any tablut board (a1–i9); "
        "did you mean e4-h4 or e4-b4 or e4-c4?"
    )
    assert drawn[4][2] == "no ply 5: it has 2 (the last, move 1, Black: d1-d3)"
    assert [(d.file_name, d.svg, d.problem) for d in diagrams([round_], 5, jobs=2)] == [row[:3] for row in drawn]


def test_the_board_names_the_ply_it_is_after_who_played_it_and_how_in_canonical_form():
    """A historian's `show` said "after ply 1 of 2" and no more: which ply that was had to be counted
    in the record. It names the ply's move and side as validate does (`Report.move`: from the position,
    so a record that starts with Black to move gives Black's first, `1...`, and White's next, `2.`) and
    the ply as export writes it (its captures, the dux's D)."""
    record = '[Game "latrunculi"]\n[Variant "dux"]\n[Position "7d/8/8/4D3/8/8/pP1p4/7P b"]\n1... d2-c2 2. e5-e6 *\n'
    assert board(record, 1).text().splitlines()[0] == "latrunculi (dux) after ply 1 of 2 (move 1, Black: d2-c2xb2)"
    assert board(record, 2).text().splitlines()[0] == "latrunculi (dux) after ply 2 of 2 (move 2, White: De5-e6)"


def test_a_notebook_shows_a_board_as_its_diagram_the_rules_by_name_and_a_line_as_its_plies():
    """Newcomer-55b, as python-chess does: a Board's `_repr_svg_` is its diagram (Jupyter draws it), a game's
    repr names its variant and the options that differ from it, and a Line iterates over its plies."""
    from lusoria.api import GAMES

    report = check(KONAKIS)
    shown = Board(report, 2)
    assert shown._repr_svg_() == shown.svg() and shown.svg().startswith("<svg")
    assert [ply.text for ply in report.record.main] == ["e6-h6", "a6-a7", "Ke5-e6", "a7-a6", "e4-e5", "d1-d2"]
    assert repr(GAMES["tablut"]()) == "<Tablut tablut/seed>"
    assert repr(GAMES["tablut"]({"king-armed": "no"})) == "<Tablut tablut/seed {'king-armed': 'no'}>"
    assert repr(GAMES["latrunculi"](variant="dux")) == "<Latrunculi latrunculi/dux>"
