"""Names in any case (games, variants, rules keys and values, rule IDs), exported in lower
case; nonsense options and tags are clear errors."""

import unicodedata

import pytest
from click.testing import CliRunner

from lusoria.api import format_record, random_records
from lusoria.archive import Archive, Filters
from lusoria.cli import main
from lusoria.validator.base import OptionError
from lusoria.validator.games import GAMES
from lusoria.validator.replay import check


@pytest.mark.parametrize("game, movetext", [("tablut", "1. e3-c3 *"), ("laquet", "1. 63: 5/11 1/4 *")])
def test_a_board_tag_on_a_game_with_one_board_is_an_error_on_the_tag(game, movetext):
    (diagnostic,) = check(f'[Game "{game}"]\n[Board "10x10"]\n{movetext}\n').diagnostics
    assert (diagnostic.rule, diagnostic.text, diagnostic.line) == ("tag", "Board", 2)
    assert diagnostic.message == f"a Board tag is for games played on boards of several sizes: {game} has one board"


def test_a_board_tag_on_a_game_whose_variants_are_its_boards_says_the_variant_names_it():
    (diagnostic,) = check('[Game "hnefatafl"]\n[Variant "tyr-9x9"]\n[Board "9x9"]\n1. e3-e4 *\n').diagnostics
    assert (diagnostic.rule, diagnostic.text, diagnostic.line) == ("tag", "Board", 3)
    assert diagnostic.message == (
        "a Board tag is for games played on boards of several sizes: hnefatafl names its board by its Variant"
    )


def test_names_and_values_are_read_in_any_case():
    report = check('[Game "Tablut"]\n[Variant "Linnaeus"]\n[Rules "Throne-Pass=ALL"]\n1... d1-d3 *\n')
    assert report.valid and (report.game, report.variant) == ("tablut", "linnaeus")
    assert report.rules.option["throne-pass"] == "all" and report.rules.option["first"] == "black"
    latrunculi = check('[Game "LATRUNCULI"]\n[Variant "PISO"]\n[Board "10X10"]\n1. @a1 *\n')
    assert latrunculi.valid and latrunculi.variant == "piso" and latrunculi.rules.geo.width == 10


def test_an_unknown_variant_is_still_an_error_that_names_the_known_ones():
    (diagnostic,) = check('[Game "tablut"]\n[Variant "Linneaus"]\n1. e3-c3 *\n').diagnostics
    assert diagnostic.rule == "tag" and diagnostic.message.startswith("unknown variant 'Linneaus' for tablut")
    (elsewhere,) = check('[Game "tablut"]\n[Variant "Fetlar"]\n1. e3-c3 *\n').diagnostics
    assert (elsewhere.rule, elsewhere.line, elsewhere.column) == ("tag", 2, 11)
    assert elsewhere.message.endswith("(known: seed, linnaeus, unarmed, aage, ashton); copenhagen has it")
    assert elsewhere.suggestions == ()  # (none of tablut's is like it)


def test_a_catalogue_entry_that_another_game_plays_is_said_with_the_tags_that_write_it():
    """`lusoria explain saami-tablut` names the variant, but a record's `[Variant "saami-tablut"]` was
    an unknown variant of its game and no more (of tablut: "known: seed, …"; of hnefatafl: 181 known):
    a researcher who read the name in explain could not tell what to write."""
    (tablut,) = check('[Game "tablut"]\n[Variant "saami-tablut-w"]\n1. e3-c3 *\n').diagnostics
    assert (tablut.rule, tablut.line, tablut.column, tablut.message) == (
        "tag",
        2,
        11,
        "unknown variant 'saami-tablut-w' for tablut (known: seed, linnaeus, unarmed, aage, ashton); "
        'saami-tablut-w is written [Game "tablut"] [Variant "aage"] [Rules "first=white"]',
    )
    (hnefatafl,) = check('[Game "hnefatafl"]\n[Variant "Copenhagen-11x11"]\n1. d1-d2 *\n').diagnostics
    assert (hnefatafl.message, hnefatafl.suggestions) == (  # no slip of a catalogue's name alike: no "did you mean"
        "unknown variant 'Copenhagen-11x11' for hnefatafl (181 known: lusoria explain hnefatafl lists them); "
        'Copenhagen-11x11 is written [Game "copenhagen"]',
        (),
    )
    (unknown,) = check('[Game "tablut"]\n[Variant "saami-tablut-x"]\n1. e3-c3 *\n').diagnostics
    assert (
        unknown.message == "unknown variant 'saami-tablut-x' for tablut (known: seed, linnaeus, unarmed, aage, ashton)"
    )


def test_rules_made_for_an_unknown_variant_say_the_known_ones():
    """`GAMES["latrunculi"](variant="senca")`, as a library user makes rules, raised a bare KeyError: 'senca'."""
    with pytest.raises(OptionError) as unknown:
        GAMES["latrunculi"](variant="senca")
    assert (
        str(unknown.value)
        == "unknown variant 'senca' for latrunculi (known: seneca, piso, petteia, dux; did you mean seneca?)"
    )
    assert GAMES["tablut"](variant="Linnaeus").option["first"] == "black"  # in any case


GAME_KEYS = {"tablut": "first", "copenhagen": "first", "brandubh": "first", "hnefatafl": "esc"}
GAME_KEYS |= {"latrunculi": "jump-over", "laquet": "both-dice"}


@pytest.mark.parametrize("game, key", GAME_KEYS.items())
def test_rules_made_with_unknown_options_raise_the_rules_tag_s_error_when_made(game, key):
    """`GAMES["tablut"](options={"first": "purple"})` made the rules, which failed later (a KeyError
    at extra_tags for an unknown key): the constructor raises what a Rules tag (`--rules`) writing
    them raises, each problem said."""
    rules = GAMES[game]
    variant = next(iter(rules.presets))
    with pytest.raises(OptionError) as made:
        rules(options={key: "purple", "nonsense": "x"}, variant=variant)
    with pytest.raises(OptionError) as tagged:
        rules.options_from_tags({"Variant": variant, "Rules": f"{key}=purple nonsense=x"})
    assert [str(problem) for problem in made.value.each()] == [str(problem) for problem in tagged.value.each()]
    written = f"{key}:purple" if game == "hnefatafl" else f"'purple' for {key}"  # (as it reads OTN records)
    assert str(made.value).startswith(f"unknown value {written} (known: ")
    assert str(made.value.also[0]).startswith(f"unknown rules key 'nonsense' for {game} (")


def test_a_value_of_an_option_read_by_hnefatafl_s_rules_says_why_it_is_none():
    with pytest.raises(OptionError) as made:
        GAMES["hnefatafl"](options={"spd": "q"}, variant="fetlar-hnefatafl-11x11")
    assert str(made.value) == "spd:q is not a speed limit (-1, N, attackers,defenders, or 8, 10 or 12 numbers)"
    with pytest.raises(OptionError) as first:
        GAMES["tablut"](options={"first": "whit"})
    assert str(first.value) == "unknown value 'whit' for first (known: white, black; did you mean white?)"
    assert GAMES["hnefatafl"](options={"cenp": "dk"}, variant="fetlar-hnefatafl-11x11").option["cenp"] == "dk"


@pytest.mark.parametrize("written", ["KD", "kd", "dk"])
def test_the_constructor_keeps_a_value_as_a_rules_tag_does(written):
    """`Game(options={"cenp": "KD"})` was refused ("unknown value 'KD' for cenp"), where a Rules tag
    writing `cenp=KD` reads it as `dk`: both paths write a value one way."""
    hnefatafl, variant = GAMES["hnefatafl"], "fetlar-hnefatafl-11x11"
    tagged = hnefatafl.options_from_tags({"Variant": variant, "Rules": f"cenp={written}"})
    assert tagged == {"cenp": "dk"}
    assert hnefatafl(options={"cenp": written}, variant=variant).option["cenp"] == "dk"


@pytest.mark.parametrize("game, key", GAME_KEYS.items())
def test_the_constructor_keeps_options_in_any_case_as_a_rules_tag_does(game, key):
    """`Game(options={"First": "White"})` was refused (an unknown key, then an unknown value) where a
    Rules tag writing `First=White` chose white: both go through one normalisation."""
    rules = GAMES[game]
    variant = next(iter(rules.presets))
    value = rules(variant=variant).option[key]
    tagged = rules.options_from_tags({"Variant": variant, "Rules": f"{key.title()}={value.upper()}"})
    assert tagged == {key: value}
    assert rules(options={key.title(): value.upper()}, variant=variant).option == rules(variant=variant).option
    with pytest.raises(OptionError) as made:
        rules(options={"NONSENSE": "x"}, variant=variant)
    assert str(made.value).startswith(f"unknown rules key 'nonsense' for {game} (")


@pytest.mark.parametrize("game, key", GAME_KEYS.items())
def test_a_rules_key_given_twice_is_a_tag_error_at_the_second(game, key):
    """`[Rules "king-capture=2 king-capture=4"]` was read silently, the last value winning: a key
    given twice is an error of the kind a tag given twice is, at the second (in any case)."""
    rules = GAMES[game]
    variant = next(iter(rules.presets))
    first, second = rules.choices(key)[:2]
    tag = f"{key}={first} {key.upper()}={second}"
    report = check(f'[Game "{game}"]\n[Variant "{variant}"]\n[Rules "{tag}"]\n*\n')
    (diagnostic,) = report.diagnostics
    where = (diagnostic.rule, diagnostic.severity, diagnostic.line, diagnostic.column, diagnostic.text)
    assert where == ("tag", "error", 3, len('[Rules "') + tag.index(" ") + 2, key.upper())
    assert diagnostic.message == f"the rules key {key} appears twice"
    thrice = check(f'[Game "{game}"]\n[Variant "{variant}"]\n[Rules "{tag} {key.title()}={first}"]\n*\n')
    assert [d.message for d in thrice.diagnostics] == [f"the rules key {key} appears 3 times"] * 2


@pytest.mark.parametrize("game, key", GAME_KEYS.items())
def test_rules_made_with_a_key_given_twice_in_two_cases_say_so(game, key):
    """`Game(options={"first": "white", "FIRST": "black"})` played black: the key is given twice, as
    a Rules tag writing it twice gives it."""
    rules = GAMES[game]
    first, second = rules.choices(key)[:2]
    with pytest.raises(OptionError) as made:
        rules(options={key: first, key.upper(): second}, variant=next(iter(rules.presets)))
    assert (str(made.value), made.value.tag, made.value.written) == (
        f"the rules key {key} appears twice",
        "Rules",
        key.upper(),
    )


def test_rules_option_giving_a_key_twice_is_a_usage_error():
    text = '[Game "tablut"]\n1. e3-c3 *\n'
    result = CliRunner().invoke(
        main, ["validate", "--game", "tablut", "--rules", "first=black First=white", "-"], input=text
    )
    assert result.exit_code == 2
    assert "Invalid value for --rules: the rules key first appears twice" in result.output


def test_an_empty_start_or_board_is_the_variant_s_in_any_case_of_its_name():
    """`Hnefatafl(options={"START": ""})` was refused (a start of one rank) where `{"start": ""}` is
    the variant's start: an option's name is read in any case there too."""
    hnefatafl, variant = GAMES["hnefatafl"], "fetlar-hnefatafl-11x11"
    assert hnefatafl(options={"START": "", "Dim": ""}, variant=variant).option == hnefatafl(variant=variant).option


def test_another_game_s_variant_is_said_as_that_game_s_not_as_a_slip():
    """`[Variant "seneca"]` under tablut is latrunculi's variant, no slip of tablut's `seed` (as alike
    as 0.6): the message said "did you mean seed?; latrunculi has it", and so did the caret."""
    (diagnostic,) = check('[Game "tablut"]\n[Variant "seneca"]\n1. e3-c3 *\n').diagnostics
    assert (
        diagnostic.message
        == "unknown variant 'seneca' for tablut (known: seed, linnaeus, unarmed, aage, ashton); latrunculi has it"
    )
    assert diagnostic.suggestions == ()
    (slip,) = check('[Game "tablut"]\n[Variant "sed"]\n1. e3-c3 *\n').diagnostics
    assert slip.message.endswith("did you mean seed?)") and slip.suggestions == ("seed",)


def test_a_problem_of_the_game_s_own_variant_names_no_game_that_has_it():
    """The games that have a variant are named when the record's game lacks it: a problem of its own
    variant under its Rules said 'cen:a1,b2: a board has one throne; hnefatafl has it'."""
    record = '[Game "hnefatafl"]\n[Variant "tyr-9x9"]\n[Rules "cen=a1,b2"]\n*\n'
    assert [diagnostic.message for diagnostic in check(record).diagnostics] == ["cen:a1,b2: a board has one throne"]


def test_a_known_tag_in_another_case_is_a_warning_at_its_name():
    """`[event "Club"]` is a tag of its own, not the Event (tag names are case-sensitive): a warning
    that says so, with the name meant; a name two letters off any (`Wht`) is a tag like any."""
    report = check('[Game "tablut"]\n[event "Club"]\n[Wht "A"]\n[white "B"]\n1. e3-c3 *')
    assert report.valid
    assert [(d.severity, d.rule, d.line, d.column, d.text, d.suggestions) for d in report.diagnostics] == [
        ("warning", "tag", 2, 2, "event", ("Event",)),
        ("warning", "tag", 4, 2, "white", ("White",)),
    ]
    assert (
        report.diagnostics[0].message == "tag names are case-sensitive: 'event' is not Event (kept as a tag of its own)"
    )
    both = check('[Game "tablut"]\n[Event "Club"]\n[event "Evening"]\n1. e3-c3 *')
    assert both.diagnostics == []  # both written: a tag of its own, as meant


def test_a_name_the_archive_would_count_apart_is_a_warning_at_its_value():
    """`[White "Anna Lind "]` and `"Erik  Sand"` look like `Anna Lind` and `Erik Sand`, but the archive
    counts them as other players (its score table showed two rows `Anna Lind`): a warning at the value,
    with the name meant. A name whose accents are combining marks (NFD), or written with a sign NFC
    writes otherwise, is not warned of: the archive stores and compares it composed (NFC), as typed."""
    nfd = unicodedata.normalize("NFD", "Björn Dahl")
    report = check(f'[Game "tablut"]\n[White "Anna Lind "]\n[Black "Erik  Sand"]\n[Event "{nfd}"]\n1. e3-c3 *')
    assert report.valid
    assert [(d.severity, d.rule, d.line, d.column, d.text, d.suggestions) for d in report.diagnostics] == [
        ("warning", "tag", 2, 9, "Anna Lind ", ("Anna Lind",)),
        ("warning", "tag", 3, 9, "Erik  Sand", ("Erik Sand",)),
    ]
    assert [d.message for d in report.diagnostics] == [
        "White 'Anna Lind ' has white space at its end: the archive counts it apart from 'Anna Lind'",
        "Black 'Erik  Sand' has more than one space between words: the archive counts it apart from 'Erik Sand'",
    ]
    odd = check('[Game "tablut"]\n[White "Anna\u00a0Lind"]\n[Black "Erik\tSand"]\n[Event "Cup\u2003A"]\n1. e3-c3 *')
    # (new-user 68: a no-break space was said as "white space other than one space", its name, as typed, looking alike)
    assert [d.message.split(":")[0] for d in odd.diagnostics] == [
        "White 'Anna\u00a0Lind' has a no-break space (U+00A0) between words",
        "Black 'Erik\tSand' has a white space character (U+0009) between words",
        "Event 'Cup\u2003A' has an em space (U+2003) between words",
    ]
    composed = check(f'[Game "tablut"]\n[White "\u212bsa Berg"]\n[Black " {nfd}"]\n1. e3-c3 *')  # (a sign: Å)
    assert [(d.message, d.suggestions) for d in composed.diagnostics] == [
        (f"Black ' {nfd}' has white space at its start: the archive counts it apart from '{nfd}'", (nfd,))
    ]
    plain = check('[Game "tablut"]\n[White "Björn Dahl"]\n[Black "?"]\n[Site ""]\n[Round " 1"]\n1. e3-c3 *')
    assert plain.diagnostics == []  # (Round is no name: the archive matches it as a tag)


def test_a_name_with_white_space_at_its_start_is_said_so():
    """White space before a name is said as such, not as white space between its words."""
    report = check('[Game "tablut"]\n[Site " Uppsala"]\n1. e3-c3 *')
    assert [(d.message, d.column, d.suggestions) for d in report.diagnostics] == [
        ("Site ' Uppsala' has white space at its start: the archive counts it apart from 'Uppsala'", 8, ("Uppsala",))
    ]


def test_a_tag_name_one_letter_off_a_known_one_is_a_warning_at_its_name():
    """`[Varient "piso"]` is no Variant: the record is read as seneca, and a warning says which tag
    was meant (a letter changed, added, left out, two swapped); names further off are tags like any."""
    report = check(
        '[Game "latrunculi"]\n[Varient "piso"]\n[Reslt "*"]\n[Evnet "Club"]\n[Sites "Rome"]\n'
        '[EventDate "2026.11.21"]\n[WhiteElo "1500"]\n[Variation "a"]\n[Name "x"]\n[Evnxt "x"]\n*'
    )  # (h78c: `Evnxt`, two letters next to each other changed, not swapped: no slip)
    assert report.valid and report.rules.variant == "seneca"
    assert [(d.severity, d.rule, d.line, d.column, d.text, d.suggestions) for d in report.diagnostics] == [
        ("warning", "tag", 2, 2, "Varient", ("Variant",)),
        ("warning", "tag", 3, 2, "Reslt", ("Result",)),
        ("warning", "tag", 4, 2, "Evnet", ("Event",)),
        ("warning", "tag", 5, 2, "Sites", ("Site",)),
    ]
    assert (
        report.diagnostics[0].message
        == "'Varient' is not Variant (kept as a tag of its own: the record is read as seneca)"
    )
    assert report.diagnostics[1].message == "'Reslt' is not Result (kept as a tag of its own)"


def test_a_malformed_result_tag_is_said_beside_rules_that_cannot_be_read():
    """A hand-typed header with two slips gets both in one run, in the order written: the Result tag
    is checked whether or not the rules can be built."""
    report = check('[Game "latrunculi"]\n[Result "1 - 0"]\n[Rules "removl=free"]\n*\n')
    assert [(d.rule, d.line, d.column, d.suggestions) for d in report.diagnostics] == [
        ("tag", 2, 10, ("1-0",)),
        ("tag", 3, 9, ("removal",)),
    ]
    assert report.diagnostics[0].message == "a Result is 1-0, 0-1, 1/2-1/2 or *; not '1 - 0'"


def test_an_unreadable_record_reports_its_variant_in_lower_case():
    report = check('[Game "tablut"]\n[Variant "Linnaeus"]\n1. e3c3 *\n')
    assert not report.valid and report.variant == "linnaeus"


def test_fmt_exports_the_names_in_lower_case():
    text, _ = format_record('[Game "Tablut"]\n[Variant "Linnaeus"]\n[Rules "Throne-Pass=ALL"]\n1... d1-d3 *\n')
    assert '[Game "tablut"]\n[Variant "linnaeus"]\n' in text and '[Rules "throne-pass=all"]' in text


def test_random_reads_names_in_any_case_and_writes_them_in_lower_case():
    result = CliRunner().invoke(
        main,
        [
            "random",
            "--game",
            "Latrunculi",
            "--variant",
            "PISO",
            "--rules",
            "PIECES=20",
            "--board",
            "10X10",
            "--max-plies",
            "2",
        ],
    )
    assert result.exit_code == 0, result.output
    assert result.output.startswith('[Game "latrunculi"]\n[Variant "piso"]\n')
    assert '[Board "10x10"]\n[Rules "pieces=20"]' in result.output


@pytest.mark.parametrize(
    "arguments, message",
    [
        (
            ["--game", "tablut", "--board", "10x10"],
            "Error: Invalid value for --board: only games played on boards of several sizes take it: tablut has one board (9x9), "
            "leave --board out",
        ),
        (
            ["--game", "laquet", "--board", "8x8"],
            "Error: Invalid value for --board: only games played on boards of several sizes take it: laquet has one board, "
            "leave --board out",
        ),
        (
            ["--game", "tablut", "-n", "-1"],
            "Error: Invalid value for '-n' / '--count': '-1' is not a whole number from 1 to 1000000000",
        ),
        (
            ["--game", "tablut", "--max-plies", "-5"],
            "Error: Invalid value for '--max-plies': '-5' is not a whole number from 0 to 1000000000",
        ),
    ],
)
def test_random_refuses_nonsense(arguments, message):
    result = CliRunner().invoke(main, ["random", *arguments])
    assert result.exit_code == 2 and result.output.splitlines()[-1] == message


def test_random_records_refuses_negative_numbers():
    with pytest.raises(ValueError, match="cannot be negative"):
        list(random_records("tablut", -1))
    with pytest.raises(ValueError, match="cannot be negative"):
        list(random_records("tablut", 1, max_plies=-5))


def test_random_records_refuses_a_tag_that_chooses_no_rules():
    """A Position, a White and a Game of another game were left out without a word (h69a): the games start
    from the rules' start and name no players. A Game tag of the game asked for is taken, as a record's."""
    with pytest.raises(ValueError) as refused:
        list(random_records("tablut", tags={"Position": "4K4/9/9/9/9/9/9/9/p8 b", "White": "Me", "Game": "brandubh"}))
    assert str(refused.value) == (
        "random_records takes the tags that choose the rules (Variant, Rules, Board; a Game tag of tablut), "
        "not Position, White and Game"
    )
    [game] = random_records("tablut", tags={"Game": "Tablut", "Variant": "linnaeus"}, max_plies=2)
    assert '[Variant "linnaeus"]' in game


def test_random_records_of_an_unknown_game_names_the_known_ones():
    with pytest.raises(KeyError) as raised:
        list(random_records("chess"))
    [message] = raised.value.args  # (a plug-in's game, registered by another test, sorts after them)
    assert message.startswith(
        "unknown game 'chess' (known: brandubh, copenhagen, hnefatafl, laquet, latrunculi, tablut"
    )


@pytest.fixture(scope="module")
def archive(tmp_path_factory):
    folder = tmp_path_factory.mktemp("names")
    (folder / "games.lgn").write_text(
        '[Game "Tablut"]\n[Variant "Linnaeus"]\n1... d1-d3 *\n\n'
        '[Game "latrunculi"]\n[Variant "Piso"]\n1. @a1 *\n\n'
        '[Game "tablut"]\n1. e3-d2 *\n'
    )
    archive = Archive(str(folder / "names.db"))
    archive.import_paths([str(folder / "games.lgn")])
    return archive


@pytest.mark.parametrize(
    "filters, found",
    [
        (Filters(variant="PISO"), ["latrunculi"]),
        (Filters(variant="linnaeus", game="TABLUT"), ["tablut"]),
        (Filters(rule="t2"), ["tablut"]),
        (Filters(rule="T2"), ["tablut"]),
    ],
)
def test_query_filters_match_names_and_rule_ids_in_any_case(archive, filters, found):
    assert [row["game"] for row in archive.query(filters)] == found


def test_the_archive_stores_names_in_lower_case(archive):
    assert [(row["game"], row["variant"]) for row in archive.query(Filters())] == [
        ("tablut", "linnaeus"),
        ("latrunculi", "piso"),
        ("tablut", "seed"),
    ]


@pytest.mark.parametrize(
    "text, written",
    [
        ('[Game "tablut"]\n\n1. e3-c3 *', True),  # on the text's last line, which no line break ends
        ('[Game "tablut"]\n\n1. e3-c3 1-0\n', True),
        ('[Game "tablut"]\n\n1. e3-c3 a4-a2', False),  # the `*` assumed, on a line after the text's last
        ('[Game "tablut"]\n\n1. e3-c3 a4-a2\n', False),
        ('[Game "tablut"]\n\n1. e3-c3 {unclosed\n', False),  # no record read
    ],
)
def test_a_result_is_written_where_its_marker_is_in_the_text(text, written):
    """`Report.result_written` (the HTML page's move list ends with the marker only then): not the `*`
    that `check(assume_result=True)` puts after a movetext that ends without one."""
    report = check(text, assume_result=True)
    assert report.result_written is written


SIDE = "the side to move is w or b, not "  # (newcomer-54b: Laquet's `W` was asked for as `w`, where Tablut's and
# Latrunculi's got the shape of a whole position, at the tag's name: said at it, with what it may mean)


@pytest.mark.parametrize(
    ("tags", "position", "part", "said"),
    [
        ('[Game "tablut"]', "3ppp3/4p4/4P4/p3P3p/ppPPKPPpp/p3P3p/4P4/4p4/3ppp3 W", "W", SIDE + "'W'"),
        ('[Game "brandubh"]', "3p3/3p3/3P3/ppPKPpp/3P3/3p3/3p3 B", "B", SIDE + "'B'"),
        ('[Game "latrunculi"]\n[Variant "dux"]', "3dp3/8/8/8/8/8/4D3/PP6 W", "W", SIDE + "'W'"),
        ('[Game "latrunculi"]', "8/8/8/8/8/8/8/8 W 16 16", "W", SIDE + "'W'"),  # placing: the pieces in hand after
        ('[Game "laquet"]', "13:1,17:14 6:14,7:1 W", "W", SIDE + "'W'"),
        (
            '[Game "tablut"]',
            "3ppp3/4p4/4s4/p3P3p/ppPPKPPpp/p3P3p/4P4/4p4/3ppp3 b",
            "s",
            "'s' is not a Tablut piece (K, P, p) or a count of empty squares",
        ),
        ('[Game "brandubh"]', "3p3/3p3/3P3/ppPKPpp/3P3/3p3/3p2 b", "3p2", "the rank '3p2' covers 6 squares, not 7"),
        ('[Game "brandubh"]', "3p3/3p3/3P3/ppPKPpp/3P3/3p3/3p4 b", "3p4", "the rank '3p4' covers 8 squares, not 7"),
        ('[Game "brandubh"]', "3p3/3p3/3P3/ppPKPpp/3P3/3p3/12p b", "12p", "the rank '12p' covers more than 7 squares"),
        (
            '[Game "latrunculi"]\n[Variant "dux"]',
            "3dp3/8/8/8/8/8/4D3/PP6x w",
            "x",
            "'x' is not a Latrunculi piece (P, D, I, p, d, i) or a count of empty squares",
        ),
        ('[Game "latrunculi"]', "8/8/8/8/8/7/8/8 w 16 16", "7", "the rank '7' covers 7 squares, not 8"),
        (
            '[Game "laquet"]',
            "13:1,17:14 6:14,7:1,X w",
            "X",
            "'X' is not POINT:COUNT with a point from 1 to 24 and a count from 1 to 15",
        ),
        (
            '[Game "laquet"]',
            "13:1,17:14 6:14,21:1 w",
            "21:1",
            "no checker stands on point 21: points 19-24 are never used",
        ),
        (
            '[Game "laquet"]',
            "13:1,17:14 6:14,13:1 w",
            "13:1",
            "point 13 is given to White and to Black: a point holds the checkers of one colour (Q3)",
        ),
    ],
)
def test_a_malformed_position_is_said_at_the_part_at_fault(tags, position, part, said):
    """Newcomer-56a: a Position error pointed at the tag's name, however long the position; now at the
    letter, rank, point or side to move it names (the last of them, where the same text comes earlier)."""
    (error,) = check(f'{tags}\n[Position "{position}"]\n\n*\n').diagnostics
    column = len('[Position "') + position.rindex(part) + 1
    assert (error.rule, error.message, error.line, error.column, error.text, error.suggestions) == (
        "tag",
        f"malformed Position: {said}",
        tags.count("\n") + 2,
        column,
        part,
        (part.lower(),) if said.startswith(SIDE) else (),
    )


def test_a_value_an_option_does_not_take_is_said_as_the_rules_tag_writes_it():
    """Read in any case, a value was said lowercased (`'ashtonx'` for `Ashtonx`: review77); what it may have
    meant is found in any case too."""
    [said] = check('[Game "tablut"] [Rules "camps=Ashtonx"] 1. e3-c3 *\n').diagnostics
    assert (said.rule, said.column, said.message, said.suggestions) == (
        "tag",
        31,
        "unknown value 'Ashtonx' for camps (known: none, ashton; did you mean ashton?)",
        ("ashton",),
    )
