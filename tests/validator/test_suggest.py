"""Suggestions for illegal plies, and --keep-going."""

from itertools import permutations

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from lusoria.output import diagnostic_dict
from lusoria.validator.laquet import Laquet
from lusoria.validator.latrunculi import Latrunculi
from lusoria.validator.replay import check
from lusoria.validator.suggest import alike, did_you_mean, meant, meant_among, nearest_plies, suggestions
from lusoria.validator.tablut import Tablut
from lusoria.words import listed

TABLUT, SENECA, PETTEIA, LAQUET = Tablut(), Latrunculi(), Latrunculi(variant="petteia"), Laquet()


@pytest.mark.parametrize(
    "rules, written, first",
    [
        (TABLUT, "e3-d2", "e3-d3"),  # a rank off by one
        (TABLUT, "c3-e3", "e3-c3"),  # from and to swapped
        (TABLUT, "e4-c3", "e3-c3"),  # digits swapped
        (TABLUT, "Ke3-c3", "e3-c3"),  # a wrong piece letter
        (TABLUT, "e3-c3xd3", "e3-c3"),  # a wrong capture list
        (PETTEIA, "a2-b4", "a2-a4"),  # a file off by one
        (LAQUET, "63: 5/11", "63: 5/11 1/4"),  # a die left out
        (LAQUET, "63: 1/7/10", "63: 1/4 4/10"),  # the other order of the dice
        (LAQUET, "64: 5/11 5/8", "64: 5/11 4/8"),  # a play that fits no die: the roll kept, never misread
        (LAQUET, "64: 5/11 9/5", "64: 5/11 5/9"),  # a play written the wrong way round
        (LAQUET, "64: 11/5 9/5", "64: 5/11 5/9"),  # both
    ],
)
def test_the_nearest_legal_ply_comes_first(rules, written, first):
    assert suggestions(rules, rules.initial(), written)[0] == first


def test_a_laquet_turn_written_the_wrong_way_round_is_told_forward_first():
    """A historian wrote the plays from the point reached back to the point left (as a book writing
    Black's points from its own side may), and was offered 5/11 5/9 third, or not at all."""
    [backwards] = check('[Game "laquet"]\n1. 64: 11/5 9/5 *\n').diagnostics
    assert (backwards.rule, backwards.ply, backwards.message, backwards.suggestions) == (
        "Q3",
        1,
        "11/5: checkers move forward, from lower to higher points; the rest of this line is not checked",
        ("64: 5/11 5/9", "64: 1/5 5/11"),
    )


def test_a_jump_written_as_a_step():
    rules = Latrunculi()
    position = rules.parse_position("6pp/8/8/8/8/8/P7/P6P w")
    assert suggestions(rules, position, "a1-a3")[0] == "a1^a3"


def test_laquet_missing_leftover_group():
    position = LAQUET.parse_position("1:2,2:3,3:3,4:1,7:1,10:1,11:1,16:1,17:1,18:1 6:12,12:1,13:1,14:1 b")
    assert suggestions(LAQUET, position, "54: --")[0].startswith("54: -- >54: ")


def test_nothing_close_means_no_suggestion():
    assert suggestions(TABLUT, TABLUT.initial(), "a9-i9") == []
    assert nearest_plies(TABLUT, TABLUT.initial(), "a9-i9") == []


def test_at_most_three_and_a_best_only_when_unique():
    assert len(suggestions(TABLUT, TABLUT.initial(), "Ke3-c3")) == 3
    assert nearest_plies(TABLUT, TABLUT.initial(), "e3-d2") == ["e3-d3"]
    assert nearest_plies(TABLUT, TABLUT.initial(), "e3-d4") == ["e3-d3", "e4-d4"]  # both one step away: a tie


RECORD = '[Game "tablut"]\n1. e3-d2 d1-d2 2. e4-e3 d2-d9 3. c5-c3 *\n'


def test_without_keep_going_the_line_stops():
    report = check(RECORD)
    assert [(d.rule, d.ply, d.suggestions) for d in report.diagnostics] == [("T2", 1, ("e3-d3", "e3-c3"))]


def test_keep_going_assumes_the_unique_nearest_and_says_so():
    report = check(RECORD, keep_going=True)
    assert [(d.ply, d.assumed) for d in report.diagnostics] == [(1, ()), (4, ("move 1, White: e3-d3",))]
    assert diagnostic_dict(report.diagnostics[1])["assumed"] == ["move 1, White: e3-d3"]
    result = diagnostic_dict(check('[Game "tablut"]\n[Result "1-0"]\n1. e3-c3 *').diagnostics[0])
    assert result["rule"] == "result" and "suggestions" not in result and "assumed" not in result


@pytest.mark.parametrize(
    "text, said",
    [
        (
            '[Game "latrunculi"]\n[Variant "piso"]\n[Position "7p/8/8/8/4P3/2Pp4/8/P7 w"]\n1. e4-e2xd3 h8-h7 *',
            ("L5", 2, ("move 1, White: e4-e3xd3",)),
        ),
        (
            '[Game "laquet"]\n[Position "18:2 6:15 w"]\n1. 31: 18/off 1... 21: 6/8 6/7 *',
            ("Q9", 2, ("move 1, White: 31: 18/off 18/off",)),
        ),
    ],
)
def test_a_game_over_only_by_a_ply_keep_going_assumed_says_it_rests_on_it(text, said):
    """With --keep-going, "the game is already over" stated as fact an end the record never reached: only the ply
    assumed for the illegal one ended it (h78a). It says what it rests on, as every later diagnostic does."""
    over = check(text + "\n", keep_going=True).diagnostics[-1]
    assert (over.rule, over.ply, over.assumed) == said and "already over" in over.message


def test_keep_going_past_a_misread_die_assumes_the_roll_the_plays_fit():
    """A die copied wrong (the source's 63 as 64) was said "a die misread?", 63: 5/11 5/8 offered first, but
    --keep-going went on with 64: 5/11 4/8 and said the later plies, which are right, broke Q3 (h78a: 16 of
    26 games with one die changed got such errors)."""
    text = '[Game "laquet"]\n[Position "1:2,2:3,3:3,4:3,5:3,18:1 6:13,7:1,9:1 w"]\n'
    plies = "1. {} 61: 9/15 6/7 2. 11: 4/5 4/5 31: 6/9 6/7 3. 21: 4/5 3/5 *\n"
    assert check(text + plies.format("63: 5/11 5/8")).diagnostics == []
    [misread] = check(text + plies.format("64: 5/11 5/8"), keep_going=True).diagnostics
    assert (misread.rule, misread.ply, misread.suggestions[0]) == ("Q3", 1, "63: 5/11 5/8")
    assert "a die misread?" in misread.message and "not checked" not in misread.message


def test_keep_going_says_why_it_stops_at_a_ply_of_several_nearest_suggestions():
    """A historian ran --keep-going and read "the rest of this line is not checked" with no reason:
    e3-d3 and e4-d4 are both one step from e3-d4, so there is no one ply to go on with."""
    from lusoria.api import replay_stop

    text = '[Game "tablut"]\n1. e3-d4 d1-d2 *\n'
    [stop] = check(text, keep_going=True).diagnostics
    assert (stop.rule, stop.ply) == ("T2", 1) and stop.message.endswith(  # the tie named (it said no more than "only")
        "; the rest of this line is not checked (--keep-going goes on past a ply with one nearest suggestion only: "
        "e3-d3 and e4-d4 are as near as each other)"
    )
    [none] = check('[Game "tablut"]\n1. a9-i9 *\n', keep_going=True).diagnostics  # nothing near: no tie to name
    assert none.message.endswith("(--keep-going goes on past a ply with one nearest suggestion only)")
    assert check(text).diagnostics[0].message.endswith("; the rest of this line is not checked")
    assert (
        replay_stop(check(text, keep_going=True))
        == replay_stop(check(text))
        == ("move 1, White: e3-d4 breaks T2: a piece moves along its rank or file, and d4 is on neither")
    )


def test_keep_going_says_why_it_stops_at_a_syntax_slip_of_several_suggestions():
    """`0-0` may be a draw or an unfinished game: --keep-going stopped there and said nothing of why."""
    text = '[Game "tablut"]\n1. e3-c3 d1-d3 0-0\n'
    [stop] = check(text, keep_going=True).diagnostics
    assert (stop.rule, stop.suggestions) == ("syntax", ("1/2-1/2", "*"))
    assert stop.message.endswith(
        "(--keep-going reads past a slip with one suggestion only: 1/2-1/2 and * may each be meant)"
    )
    assert check(text).diagnostics[0].message == stop.message.partition(" (--keep-going")[0]


def test_a_list_names_three_words_at_most():
    assert [listed(words) for words in ([], ["a"], ["a", "b"], ["a", "b", "c"], list("abcde"))] == [
        "",
        "a",
        "a and b",
        "a, b and c",
        "a, b, c and 2 more",
    ]


_PLAY = st.tuples(st.integers(1, 18), st.integers(1, 18)).filter(lambda play: play[0] != play[1])
_LEGAL_PLAY = st.tuples(st.integers(1, 9), st.integers(10, 18))  # (none ends where another starts: none merged)


@given(written=st.lists(_PLAY, min_size=1, max_size=9), legal=st.lists(_LEGAL_PLAY, min_size=1, max_size=4))
def test_the_distance_of_a_laquet_turn_pairs_its_plays_as_cheaply_as_every_pairing_does(written, legal):
    """review82: every pairing of a turn's plays was tried, minutes for 4,000 plays written; those of each legal
    play's nearest alone are: the distance is the cheapest of every pairing (each segment 0 alike, 1 sharing a point
    or turned round, 2 else; one left over 1), the dice alike."""

    def cost(x, y):
        return 0 if x == y else 1 if x[0] == y[0] or x[1] == y[1] or x == y[::-1] else 2

    few, many = sorted((written, legal), key=len)
    cheapest = min(sum(map(cost, few, chosen)) for chosen in permutations(many, len(few))) + len(many) - len(few)
    turns = [f"63: {' '.join(f'{start}/{end}' for start, end in plays)}" for plays in (written, legal)]
    assert Laquet().distance(*turns) == cheapest


def test_a_laquet_play_written_as_one_jump_is_as_near_as_its_two_steps():
    from lusoria.validator.laquet import Laquet

    rules = Laquet()
    assert rules.distance("63: 1/10", "63: 1/7 7/10") == 0
    assert rules.distance("63: 1/10 2/5", "63: 1/7 7/10 2/5") == 0
    assert rules.distance("63: 1/10", "63: 1/7 2/5") == 2
    assert (
        rules.distance("63: 10/16 >3: 6/9", "63: 10/16 >53: 6/9 6/11") == 3
    )  # dice left over: one against two costs 2; the play more, 1


# -- tag values: what a value typed by hand may have meant ---------------------------------------------------


def tag_problem(tags: str, movetext: str = "*") -> tuple:
    (diagnostic,) = check(f"{tags}\n{movetext}\n").diagnostics
    return diagnostic.rule, diagnostic.line, diagnostic.column, diagnostic.text, diagnostic.suggestions


@pytest.mark.parametrize(
    "tags, movetext, place, meant",
    [
        ('[Game "tabult"]', "1. e3-c3 *", (1, 8, "tabult"), ("tablut",)),
        ('[Game "Latruncoli"]', "*", (1, 8, "Latruncoli"), ("latrunculi",)),
        ('[Game "latrunculi"]\n[Variant "senica"]', "*", (2, 11, "senica"), ("seneca",)),
        ('[Game "tablut"]\n[Variant "Linaeus"]', "*", (2, 11, "Linaeus"), ("linnaeus",)),
        ('[Game "ta"]', "*", (1, 8, "ta"), ("tablut",)),  # a start: 2 letters of 2 written
        ('[Game "cop"]', "*", (1, 8, "cop"), ("copenhagen",)),
        # found by their start alone: as the game lists them
        ('[Game "hnefatafl"]\n[Variant "tyrs"]', "*", (2, 11, "tyrs"), ("tyr-15x15", "tyr-13x13", "tyr-11x11")),
        ('[Game "tablut"]\n[Rules "repetition=none camps=non"]', "*", (2, 31, "non"), ("none",)),  # not the none before
        ('[Game "tablut"]\n[Rules "King-Captur=2"]', "*", (2, 9, "King-Captur"), ("king-capture", "king-armed")),
        ('[Game "laquet"]\n[Rules "leftover=oponent"]', "*", (2, 18, "oponent"), ("opponent",)),
        ('[Game "tablut"]\n[Result "1:0"]', "1. e3-c3 1-0", (2, 10, "1:0"), ("1-0",)),
        ('[Game "tablut"]\n[Result "½-½"]', "1. e3-c3 1/2-1/2", (2, 10, "½-½"), ("1/2-1/2",)),
        ('[Game "tablut"]\n[Result "0-0"]', "1. e3-c3 *", (2, 10, "0-0"), ("1/2-1/2", "*")),
        ('[Game "tablut"]\n[Date "21/11/2026"]', "*", (2, 8, "21/11/2026"), ("2026.11.21",)),
        ('[Game "tablut"]\n[Date "05/06/2026"]', "*", (2, 8, "05/06/2026"), ("2026.06.05", "2026.05.06")),
    ],
)
def test_a_tag_value_that_is_none_of_its_values_gets_those_most_like_it_at_the_value(tags, movetext, place, meant):
    assert tag_problem(tags, movetext) == ("tag", *place, meant)


@pytest.mark.parametrize(
    "tags, place",
    [
        ('[Game "chess"]', (1, 8, "chess")),  # nothing alike
        ('[Game "latrunculi"]\n[Variant "d"]', (2, 11, "d")),  # a start of one letter
        # a short value that starts a longer word written: its start is too little of what was written
        ('[Game "tax"]', (1, 8, "tax")),
        ('[Game "tablut"]\n[Rules "king-armed=yesterday"]', (2, 20, "yesterday")),
        ('[Game "laquet"]\n[Rules "both-dice=maximum"]', (2, 19, "maximum")),
        ('[Game "tablut"]\n[Rules "king-armed=nobody"]', (2, 20, "nobody")),
        # a declined form of a short name its game does not list (`ducibus`, `dux`): 2 letters of 7
        ('[Game "latrunculi"]\n[Variant "ducibus"]', (2, 11, "ducibus")),
        ('[Game "latrunculi"]\n[Rules "pieces=166"]', (2, 16, "166")),  # a number, not a closed set
        ('[Game "tablut"]\n[Date "2026.02.30"]', (2, 8, "2026.02.30")),  # no real day in any order
        # a variant's name as the game, no slip of a game alike: OpenTafl's hnefatafl 15x15, tablut's aage
        ('[Game "Tablut#15"]', (1, 8, "Tablut#15")),
        ('[Game "saami-tablut"]', (1, 8, "saami-tablut")),
    ],
)
def test_a_tag_value_like_none_of_its_values_gets_no_suggestion(tags, place):
    assert tag_problem(tags) == ("tag", *place, ())


def test_a_value_with_escapes_keeps_the_error_at_the_tag_name():
    assert tag_problem('[Game "tablut"]\n[Variant "lin\\"naeus"]') == ("tag", 2, 2, "Variant", ())


def test_a_record_of_another_format_gets_no_tag_value_suggestion():
    """Its tags were not written as tags: the value stands elsewhere, or came from an option."""
    from lusoria.formats import read_text

    [source] = read_text("e3-c3 d1-d3\n", "tafl", "x.txt", {"Variant": "linaeus"})
    assert [(d.rule, d.line, d.column, d.suggestions) for d in check(source).diagnostics] == [("tag", 1, 1, ())]


def test_the_cli_and_the_editor_offer_a_tag_suggestion_as_they_offer_a_ply_s():
    from click.testing import CliRunner

    from lusoria.cli import main
    from lusoria.document import Document, fixes

    text = '[Game "latrunculi"]\n[Variant "senica"]\n*\n'
    output = CliRunner().invoke(main, ["validate", "-"], input=text).output
    assert ' 2 | [Variant "senica"]\n   |           ^^^^^^ did you mean seneca?\n' in output
    document = Document()
    document.update(document.split(text))
    entry = document.entries[0]
    [fix] = fixes(entry, entry.report.diagnostics[0])
    assert fix.title == "Replace with seneca" and [(e.line, e.column, e.end_column, e.text) for e in fix.edits] == [
        (1, 10, 16, "seneca")
    ]


def test_a_form_of_a_variant_s_name_its_game_lists_finds_it():
    """`[Variant "duces"]`, Latin's plural of dux, was said with no suggestion (2 letters of 5 are
    no slip of `dux`): Latrunculi lists it as a form of that name, so the message, the caret, the
    editor's fix and every option and command that names variants suggest dux."""
    from click.testing import CliRunner

    from lusoria.cli import main
    from lusoria.document import Document, fixes

    text = '[Game "latrunculi"]\n[Variant "Duces"]\n*\n'
    [said] = check(text).diagnostics
    assert (said.rule, said.message, said.suggestions) == (
        "tag",
        "unknown variant 'Duces' for latrunculi (known: seneca, piso, petteia, dux; did you mean dux?)",
        ("dux",),
    )
    document = Document()
    document.update(document.split(text))
    [fix] = fixes(document.entries[0], document.entries[0].report.diagnostics[0])
    assert fix.title == "Replace with dux"
    for args in (["validate", "--variant", "duces", "-"], ["explain", "duces"], ["explain", "latrunculi/duces"]):
        result = CliRunner().invoke(main, args, input="*\n")
        assert result.exit_code == 2 and "did you mean dux?)" in result.output, args
    assert alike("duces", ["seneca", "dux"]) == []  # a form only a Name lists


@pytest.mark.parametrize(
    "args, said",
    [
        (
            ["validate", "--game", "latrunculi", "--variant", "duxs", "-"],
            "Invalid value for --variant: unknown variant 'duxs' for latrunculi (known: seneca, piso, petteia, dux; "
            "did you mean dux?)",
        ),
        (
            ["random", "--game", "latrunculi", "--variant", "pisso"],
            "Invalid value for --variant: unknown variant 'pisso' for latrunculi (known: seneca, piso, petteia, dux; "
            "did you mean piso?)",
        ),
        (
            ["rules", "--game", "tablut", "--rules", "king-armd=yes", "-"],
            "Invalid value for --rules: unknown rules key 'king-armd' for tablut (known: first, throne-pass, "
            "throne-stop, throne-hostile, king-capture, king-armed, tuichi-ends, no-move, camps, camp-hostile, "
            "repetition; did you mean king-armed or king-capture?)",
        ),
        (
            ["validate", "--game", "hnefatafl", "--variant", "tyr-9x9", "--rules", "kss=w", "-"],
            "Invalid value for --rules: unknown rules key 'kss' for hnefatafl (45 known; did you mean ks?)",
        ),
        (
            ["html", "--game", "tablut", "--rules", "king-armed=noo", "-"],
            "Invalid value for --rules: unknown value 'noo' for king-armed (known: yes, no; did you mean no?)",
        ),
        (
            ["tree", "--db", "none.db", "--game", "tabult"],
            "Invalid value for --game: unknown game 'tabult' (known: brandubh, copenhagen, hnefatafl, laquet, "
            "latrunculi, tablut; did you mean tablut?)",
        ),
        (
            ["explain", "latrunculi/duxs"],
            "Invalid value for NAME: latrunculi has no variant 'duxs' (known: seneca, piso, petteia, dux; "
            "did you mean dux?)",
        ),
    ],
)
def test_a_name_an_option_gets_wrong_is_said_with_those_most_like_it(args, said):
    """An option or explain has no caret to suggest at: the message says the names like it, as it does
    of a catalogue's variants (more than it lists)."""
    from click.testing import CliRunner

    from lusoria.cli import main

    result = CliRunner().invoke(main, args, input="*\n")
    assert result.exit_code == 2
    assert f"Error: {said}" in " ".join(result.output.split())


def test_a_record_s_unknown_game_is_said_with_the_games_most_like_it():
    """As its unknown variant or rules are: the message and the caret agree."""
    [said] = check('[Game "tabult"]\n*\n').diagnostics
    assert (said.rule, said.message, said.suggestions) == (
        "tag",
        "unknown game 'tabult' (known: brandubh, copenhagen, hnefatafl, laquet, latrunculi, tablut; did you mean tablut?)",
        ("tablut",),
    )


def test_the_registry_says_the_games_like_an_unknown_name():
    from lusoria.validator.games import GAMES

    with pytest.raises(KeyError, match=r"unknown game 'latrunculus' \(known: .*; did you mean latrunculi\?\)"):
        GAMES["latrunculus"]


def test_what_a_value_may_have_meant_is_said_in_one_phrase():
    """Every message that suggests values says it so: after the message in parentheses, or inside
    the parentheses that list the known values (was five hand-written copies: `; did you mean 'A'?`
    after an aage type, `(did you mean records? docs/…)` of the archive's tables)."""
    assert did_you_mean(["White", "Black"]) == "did you mean White or Black?"
    assert meant(["White", "Black"]) == " (did you mean White or Black?)"
    assert meant(iter(["White"]), inside=True) == "; did you mean White?"
    assert meant([]) == meant([], inside=True) == did_you_mean([]) == ""
    assert meant_among("Whte", ["White", "Black", "Draw"]) == " (did you mean White?)"
    assert meant_among("purple", ["White", "Black"]) == ""


def test_alike_measures_only_the_names_that_share_enough_letters_and_finds_what_measuring_all_finds(monkeypatch):
    from difflib import SequenceMatcher

    from lusoria.validator import suggest

    names = ["copenhagen-11x11", "copenhagen-hnefatafl-13x13", "tyr-13x13", "brandubh", "zzz", "ard-ri-7x7"]
    measured = []
    monkeypatch.setattr(suggest, "similarity", lambda a, b: measured.append(b) or SequenceMatcher(None, a, b).ratio())
    assert alike("copenhagn", names) == ["copenhagen-11x11", "copenhagen-hnefatafl-13x13"]  # the second starts alike
    assert measured == ["copenhagen-11x11"]  # no other shares 0.6 of the letters of both


@given(st.text("aabø-1İ", max_size=12), st.text("aabø-1İ", max_size=12))
@example("aaab", "baaa")  # (4 letters shared: a count of distinct letters, 2, would skip it)
@example("aab-", "aab11")  # (as alike as the bound: 2/3, neither more nor less)
def test_alike_measures_every_name_as_alike_as_ALIKE_repeated_letters_and_unicode_too(written, value):
    """The letters shared, each as often as both hold it, bound difflib's ratio from above: a name
    skipped by the bound is never one as alike as ALIKE (`aaab` and `baaa` share 4 letters, not 2)."""
    from difflib import SequenceMatcher

    from lusoria.validator.suggest import ALIKE, _similarity_of_alike

    ratio = SequenceMatcher(None, written, value).ratio()
    assert _similarity_of_alike(written, value) == (ratio if ratio >= ALIKE else 0.0)
