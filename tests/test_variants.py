"""`lusoria explain GAME` and `lusoria explain VARIANT`: what a game's variants are, and what a
variant's rules are, asked of the games (lusoria/variants.py)."""

import dataclasses
import random
import re

import pytest
from click.testing import CliRunner

from lusoria import api, rulebook
from lusoria.cli import main
from lusoria.formats import FORMATS
from lusoria.validator.base import VariantNotes
from lusoria.validator.games import GAMES, names_elsewhere, variant_named
from lusoria.validator.replay import check
from lusoria.variants import tags_of_name, unknown_variant, variant_names, variant_text, variants

EVERY_VARIANT = [f"{game}/{name}" for game, named in variants().items() for name in named]
ONE_OF_EACH_GAME = [
    "tablut/linnaeus",
    "latrunculi/dux",
    "laquet/seed",
    "copenhagen/fetlar",
    "brandubh/standard",
    "fetlar-hnefatafl-11x11",
]


@pytest.mark.parametrize("name", ONE_OF_EACH_GAME)
def test_a_variant_of_each_game_is_explained(name, snapshot):
    result = CliRunner().invoke(main, ["explain", name])
    assert result.exit_code == 0, result.output
    assert result.output == api.explain(name) + "\n"  # the command prints the library call's text
    assert result.output == snapshot


def test_a_game_lists_its_variants_and_the_catalogues_types_it_plays(snapshot):
    assert api.explain("tablut") == snapshot


def test_every_variant_of_every_game_and_of_the_catalogue_is_explained():
    assert len(EVERY_VARIANT) > 190 and "tablut/saami-tablut-w" in EVERY_VARIANT
    for name in EVERY_VARIANT:  # (one test: the catalogue's ~190 entries take a second)
        game, _, variant = name.partition("/")
        text = api.explain(name)
        assert text.startswith(f"{variant}: ") and f'game: {game}; its tags: [Game "{game}"]' in text, name
        assert "\nSettings (" in text and "\nrules: " in text, name
        heading = text.split("\n\n")[0].split("\n")
        after_game = heading[next(i for i, line in enumerate(heading) if line.startswith("game: ")) + 1]
        assert after_game.startswith("board: "), name  # laquet/seed's said none (a table of points)


def test_every_settings_line_of_every_variant_is_laid_out_alike():
    """A setting's first line is indented two spaces, its continuation four, even where a long value
    (foteviken-tablut-11x11's afor=) is wider than the page."""
    for name in EVERY_VARIANT:
        settings = api.explain(name).split("\nSettings (")[1].split("\n\n")[0].split("\n")[1:]
        for line in settings:
            assert re.match(r"(  [a-z-]+=|  none: |    \S)", line), (name, line)
    forts = "\n  afor=d1,e1,f1,g1,h1,f2,a4,k4,a5,k5,a6,b6,j6,k6,a7,k7,a8,k8,f10,d11,e11,f11,g11,h11;\n    afor: "
    assert forts in api.explain("foteviken-tablut-11x11")


def test_a_variant_says_a_board_tag_may_choose_another_board_when_its_records_may():
    """`explain piso` said "board: 8x8" alone, though a Board tag plays it on 4x4 to 16x16 (found by
    new-user-8): each variant says so exactly when a record of it may name another board."""
    said = {}
    for name in EVERY_VARIANT:
        game, _, variant = name.partition("/")
        line = api.explain(name).splitlines()[2]
        said[name] = "(a Board tag sets another, WxH with each side from 4 to 16)" in line
        record = f'[Game "{game}"]\n[Variant "{variant}"]\n[Board "10x12"]\n*\n'
        board_refused = any(d.rule == "tag" and d.line == 3 for d in check(record).diagnostics)
        assert said[name] != board_refused, name
    assert sorted(name for name, says in said.items() if says) == ["latrunculi/piso", "latrunculi/seneca"]


def test_a_variant_is_found_in_any_case_and_by_its_game():
    text = api.explain("fetlar-hnefatafl-11x11")
    assert api.explain(" Fetlar-Hnefatafl-11X11 ") == api.explain("HNEFATAFL/fetlar-hnefatafl-11x11") == text
    assert "\n  esc=c; esc: where the king escapes: c a corner, e any edge square (G8)\n" in text
    assert "\naagenielsen.dk: Fetlar Hnefatafl 11x11 (AageGameTypeKey 4)\n" in text
    assert "board: 11x11; Black moves first\n" in text


def test_a_built_in_variant_shows_the_names_of_the_catalogue_entries_with_its_rules():
    standard = api.explain("copenhagen/standard")
    assert standard.endswith(
        "\n\nthe same rules as copenhagen-11x11 (aagenielsen.dk: Copenhagen Hnefatafl 11x11\n"
        "  (AageGameTypeKey 16); OpenTafl: Copenhagen)"
    )
    assert "OpenTafl: Copenhagen\nthe same rules as standard\n" in api.explain("copenhagen-11x11")
    saami = api.explain("saami-tablut-w")
    assert 'its tags: [Game "tablut"] [Variant "aage"] [Rules "first=white"]\n' in saami
    assert "White moves first" in saami and "Black moves first" in api.explain("tablut/aage")
    assert "the same rules" not in saami  # aage has Black move first
    assert "\nthe same rules as brandubh-7x7-walker (aagenielsen.dk: Brandubh 7x7 (Walker)\n" in api.explain(
        "brandubh-2-tablut-7x7"
    )


def test_a_latrunculi_variant_lists_the_common_rules_and_its_own():
    assert "\nrules: L0, L1, L2, L3, L4, L5, X1, X2, X3, X4 (lusoria explain L0" in api.explain("dux")


def test_piso_lists_the_seneca_rules_it_plays_by():
    """Piso is seneca without inciti: its records break S1 and S2, which `explain piso` listed not
    (found by new-user-8); of seneca's own it lists those alone, not S3-S5 (the inciti)."""
    assert "\nrules: L0, L1, L2, L3, L4, L5, S1, S2, P1 (lusoria explain L0" in api.explain("piso")
    assert [d.rule for d in check('[Game "latrunculi"]\n[Variant "piso"]\n1. @d4 @d4 *\n').diagnostics] == ["S1"]


def test_an_unknown_name_is_a_usage_error_that_suggests_the_names_like_it():
    result = CliRunner().invoke(main, ["explain", "fetlar-11x11"])
    assert result.exit_code == 2
    assert (
        "Error: Invalid value for NAME: no rule, game or variant is named 'fetlar-11x11' "
        "(did you mean tyr-11x11 or opentafl-fetlar-11x11 or fetlar-hnefatafl-11x11?)"
    ) in " ".join(result.output.split())
    with pytest.raises(KeyError, match=r"no rule, game or variant is named 'tablot' \(did you mean tablut\?\)"):
        api.explain("tablot")
    with pytest.raises(KeyError, match=r"lusoria explain lists the rules, lusoria explain GAME a game's variants"):
        api.explain("Z9")


def test_a_name_written_as_a_title_suggests_the_variants_it_names():
    """A tafl player writes a variant as the sites title it, with spaces (found by new-user-11: `ard
    ri` suggested nothing)."""
    with pytest.raises(KeyError, match=r"'ard ri' \(did you mean ard-ri-1-7x7 or ard-ri-26-7x7 or ard-ri-32-7x7\?\)"):
        api.explain("ard ri")
    with pytest.raises(KeyError, match=r"'Fetlar Hnefatafl 13×11' \(did you mean fetlar-hnefatafl-11x11 or "):
        api.explain("Fetlar Hnefatafl 13×11")


def test_a_name_another_program_gives_a_variant_explains_that_variant():
    """`explain` showed the names aagenielsen.dk and OpenTafl give a variant but took them not
    (session 28's closing note): they are the names the formats' files give (`Format.games`)."""
    result = CliRunner().invoke(main, ["explain", "Copenhagen Hnefatafl 11x11"])
    assert (result.exit_code, result.output) == (0, api.explain("copenhagen-11x11") + "\n")
    assert api.explain("copenhagen hnefatafl 11X11#16") == api.explain("copenhagen-11x11")
    assert api.explain("Tablut#15") == api.explain("opentafl-tablut-15x15")  # OpenTafl's Tablut on 15×15
    assert api.explain("Historical Hnefatafl 9x9 (Saami Tablut)") == api.explain("saami-tablut")  # not aage
    assert api.explain("Tablut").startswith("tablut: Tablut\n")  # a game's own name first


def test_a_title_as_explain_prints_it_is_a_name_with_its_times_sign():
    """`explain tyr-15x15` prints its title `Tyr 15×15`, but `explain 'Tyr 15×15'` found no variant
    (only `Tyr 15x15`): a name is looked up with × read as x, by `explain` and every `--variant`."""
    assert api.explain("Tyr 15×15") == api.explain("Tyr 15x15") == api.explain("tyr-15x15")
    assert api.explain("tyr-15×15") == api.explain("tyr-15x15")
    assert api.explain("Fetlar Hnefatafl 11×11") == api.explain("fetlar-hnefatafl-11x11")
    assert api.variant_tags("Copenhagen Hnefatafl 11×11") == {"Game": "copenhagen"}
    assert api.reading_tags({"Variant": "Tyr 15×15"}) == {"Game": "hnefatafl", "Variant": "tyr-15x15"}
    with pytest.raises(KeyError, match=r"other programs call several variants 'Tyr 13×13': name one "):
        api.explain("Tyr 13×13")
    played = CliRunner().invoke(main, ["random", "--game", "hnefatafl", "--variant", "Tyr 15×15", "--max-plies", "0"])
    assert played.exit_code == 0 and '[Variant "tyr-15x15"]' in played.output


def test_every_name_other_programs_give_reads_as_one_variant_alike_for_explain_and_the_variant_tag():
    """`explain` looked other programs' names up in the formats' `games`, the Variant tag (--variant,
    fmt, the editor) in the games' (`Game.names_elsewhere`): one function serves both now
    (`named_elsewhere`). The formats read the games' names (the catalogue's 360 aagenielsen.dk and
    OpenTafl names), and each chooses its variant's tags both ways; Tyr 13x13, two types' name, none."""
    read = {name: dict(tags) for entry in FORMATS.values() for name, tags in entry.games.items() if name}
    assert read == dict(names_elsewhere()) and len(read) == 360
    for name, tags in read.items():
        chosen = None if name == "Tyr 13x13" else tags
        assert tags_of_name(name) == variant_named(GAMES[tags["Game"]], name) == chosen, name


def test_a_name_other_programs_give_reads_as_its_variant_with_its_game_given_too():
    """h82a: `--game hnefatafl --variant 'Tyr 15×15'` chooses the tags `--variant 'Tyr 15×15'` alone does, and
    `--game tablut --variant saami-tablut-w` the Rules of the name as well; only another game's variant is
    handed on as written (the game then refuses it, naming its own)."""
    assert api.reading_tags({"Game": "hnefatafl", "Variant": "Tyr 15×15"}) == {
        "Game": "hnefatafl",
        "Variant": "tyr-15x15",
    }
    assert api.reading_tags({"Game": "tablut", "Variant": "saami-tablut-w", "Rules": "king-capture=4"}) == {
        "Game": "tablut",
        "Variant": "aage",
        "Rules": "first=white king-capture=4",
    }
    assert api.reading_tags({"Game": "tablut", "Variant": "Tyr 15×15"}) == {"Game": "tablut", "Variant": "Tyr 15×15"}


def test_a_name_another_program_gives_with_a_slash_explains_that_variant():
    """aagenielsen.dk's name of another layout of a type (`Sea battle tafl 13x13/2`) was read as
    game/variant: 'no game is named …'. Every such name of the formats' files is its variant's."""
    slashed = {name: tags for entry in FORMATS.values() for name, tags in entry.games.items() if "/" in name}
    assert slashed  # (the catalogue's second layouts)
    for name, tags in slashed.items():
        assert api.explain(name) == api.explain(f"{tags['Game']}/{tags['Variant']}"), name
    result = CliRunner().invoke(main, ["explain", "Sea battle tafl 13x13/2"])
    assert (result.exit_code, result.output) == (0, api.explain("sea-battle-tafl-13x13-b") + "\n")
    with pytest.raises(KeyError, match=r"^no game is named 'sea battle' "):  # no such name: game/variant, as before
        api.explain("Sea battle/2")


def test_a_name_another_program_gives_several_variants_or_none_is_an_error_that_says_which():
    with pytest.raises(
        KeyError, match=r"^other programs call several variants 'tyr 13x13': name one \(tyr-13x13 or tyr-13x13-172\)"
    ):
        api.explain("tyr 13x13")
    with pytest.raises(
        KeyError, match=r"'Copenhagen Hnefatafl 11x12' \(did you mean .* or 'Copenhagen Hnefatafl 11x11'\?\)"
    ):
        api.explain("Copenhagen Hnefatafl 11x12")


def test_a_variant_named_alone_names_the_others_whose_names_hold_it():
    """`explain fetlar` showed Copenhagen's preset alone, and a tafl player who meant the
    generic game's Fetlar did not learn of it; `copenhagen/fetlar` names the variant it means."""
    text = api.explain("fetlar")
    assert text.startswith("fetlar: Copenhagen (fetlar)")
    assert " ".join(text.split("\n\n")[-1].split()) == (
        "other variants named fetlar: hnefatafl's fetlar-hnefatafl-11x11, fetlar-13x13-parlett, "
        "fetlar-sparse-13x13, fetlar-sparse-cross-13x13, fetlar-13x13-viking-siege, opentafl-fetlar-11x11, "
        "opentafl-computer-fetlar-11x11 (lusoria explain VARIANT says more)"
    )
    assert api.explain("copenhagen/fetlar") == text.split("\n\nother variants")[0]
    assert "other variants" not in api.explain("linnaeus")


def test_a_game_and_variant_named_apart_choose_their_tags_in_one_place():
    """`tree --game G --variant V` and the explorer's `?game=G&variant=V` read the pair by one
    function (`api.game_tags`): a variant by any name `explain` knows, another game's refused."""
    assert api.game_tags("tablut", "saami-tablut-w") == {"Game": "tablut", "Variant": "aage", "Rules": "first=white"}
    assert api.game_tags("Tablut", "AAGE") == {"Game": "Tablut", "Variant": "AAGE"}
    assert api.game_tags("tablut", None) == {"Game": "tablut"}
    assert api.game_tags("hnefatafl", "Tyr 15x15") == {"Game": "hnefatafl", "Variant": "tyr-15x15"}  # the site's name
    assert api.game_tags("tablut", "Copenhagen") == {"Game": "tablut", "Variant": "Copenhagen"}  # a game: as written
    with pytest.raises(api.OptionError) as refused:
        api.game_tags("laquet", "saami-tablut-w")
    assert (refused.value.tag, str(refused.value)) == (
        "Variant",
        "saami-tablut-w is a variant of tablut, not of laquet",
    )


def test_the_games_of_a_variant_are_those_of_any_name_the_reading_commands_take():
    """New user 24: api.variant_owners knew a game's Variant alone: other programs' name of a variant,
    which `--variant` takes, was 'no game has it (…; did you mean … or 'Copenhagen Hnefatafl 11x11'?)',
    itself suggested; a name of two variants was said to be of none."""
    assert api.variant_owners("seed") == api.variant_owners(" Seed ") == ["laquet", "tablut"]  # (' seed ': 'name one')
    assert api.variant_owners("Copenhagen Hnefatafl 11x11") == ["copenhagen"]
    assert api.variant_owners("saami-tablut-w") == ["tablut"]
    with pytest.raises(api.OptionError) as several:
        api.variant_owners("Tyr 13x13")
    said = "other programs call several variants 'Tyr 13x13': name one (tyr-13x13 or tyr-13x13-172)"
    assert (several.value.tag, str(several.value)) == ("Variant", said)
    assert said == api.variant_refused("Tyr 13x13")  # as --variant refuses it
    with pytest.raises(
        api.OptionError, match=r"^unknown variant 'sead': no game has it \(\d+ known; did you mean seed"
    ):
        api.variant_owners("sead")


def test_a_games_name_given_as_another_games_variant_is_refused_as_the_command_refuses_it(tmp_path):
    """`variant_refused("Tablut", "hnefatafl")` was None, a game's name being taken as written, while `--game
    hnefatafl --variant Tablut` is a usage error and every record read with it invalid (h69a): refused alike. Of its
    own game, or of none, a game's name is taken as written."""
    said = "other programs call several variants 'Tablut': name one (opentafl-tablut-9x9 or opentafl-tablut-15x15)"
    assert api.variant_refused("Tablut", "hnefatafl") == said
    (tmp_path / "m.txt").write_text("e3-c3 d1-d3\n")
    refused = CliRunner().invoke(
        main, ["validate", "--game", "hnefatafl", "--variant", "Tablut", str(tmp_path / "m.txt")]
    )
    assert refused.exit_code == 2 and refused.output.endswith(f"Error: Invalid value for --variant: {said}\n")
    assert api.variant_refused("Tablut", "tablut") is None and api.variant_refused("Tablut") is None


def test_a_variant_several_games_have_is_named_with_its_game():
    """Its games in alphabetical order, as tree and the reading commands say them (explain said
    'tablut and laquet', in the registry's order, and tree 'laquet and tablut')."""
    with pytest.raises(
        KeyError, match=r"^laquet and tablut have a variant 'seed': name one \(laquet/seed or tablut/seed\)"
    ):
        api.explain("seed")
    with pytest.raises(KeyError, match=r"tablut has no variant 'sead' \(known: seed, linnaeus, .*saami-tablut"):
        api.explain("tablut/sead")
    with pytest.raises(KeyError, match=r"no game is named 'tablot' \(known: tablut, latrunculi, laquet, "):
        api.explain("tablot/seed")
    assert api.explain("tablut/seed").startswith("seed: Tablut (seed)\n")
    with pytest.raises(KeyError, match=r"^latrunculi has no variant 'tablut' \(known: "):
        api.explain("latrunculi/tablut")  # a game's name after a slash is a variant's


def test_a_rule_is_explained_as_before_and_no_game_or_variant_hides_one():
    for rule in rulebook.rules():
        assert api.explain(rule.id.lower()) == rulebook.explain(rule.id)
    names = {*GAMES, *(name for named in variants().values() for name in named)}
    assert not {rule.id.lower() for rule in rulebook.rules()} & names


def test_a_variants_other_names_or_notes_alone_stand_after_a_blank_line():
    """A game's variant_notes may give other names, or notes, without sources or a variant of the same rules."""
    linnaeus = variants()["tablut"]["linnaeus"]
    rules_said = variant_text("linnaeus", linnaeus)
    known = variant_text("linnaeus", dataclasses.replace(linnaeus, known_as=("Another program: Linné",)))
    noted = variant_text("linnaeus", dataclasses.replace(linnaeus, notes="Played at Uppsala."))
    assert known == rules_said + "\n\nAnother program: Linné"
    assert noted == rules_said + "\n\nnotes: Played at Uppsala."


@pytest.mark.parametrize(
    "name, in_play",
    [
        ("latrunculi/seneca", "placement-captures jump-over removal pieces corner-capture min-pieces"),
        ("latrunculi/piso", "placement-captures jump-over pieces corner-capture min-pieces"),
        ("latrunculi/petteia", "pieces corner-capture min-pieces"),
        ("latrunculi/dux", "corner-capture"),
        (
            "tablut/seed",
            "first throne-pass throne-stop throne-hostile king-capture king-armed tuichi-ends no-move camps repetition",
        ),
        (
            "tablut/ashton",
            "first throne-pass throne-stop throne-hostile king-capture king-armed tuichi-ends no-move camps "
            "camp-hostile repetition",
        ),
        (  # no throne (cen empty): no Linnaean capture, no piece lists of the throne; no shieldwall: no swf;
            # no berserk moves: no berw; no corners, no forts: none of their piece lists
            "hnefatafl/ard-ri-throneless-circle-7x7",
            "esc atkf surf tfr ka ks kj spd cor cen afor dfor sw efe ber leap",
        ),
    ],
)
def test_a_variant_lists_the_settings_its_rules_play_by(name, in_play):
    """Not those its rules never consult: dux has no placements, jumps, inciti, nor a piece count of
    its own (X1, X4); camp-hostile is the camps'."""
    settings = api.explain(name).split("\nSettings (")[1].split("\n\n")[0]
    assert re.findall(r"^  ([a-z-]+)=", settings, re.MULTILINE) == in_play.split()


@pytest.mark.parametrize(
    "name",
    ["tablut/ashton", "latrunculi/seneca", "laquet/seed", "copenhagen/fetlar", "hnefatafl/fetlar-hnefatafl-11x11"],
)
def test_each_setting_a_variant_lists_is_one_its_rules_tag_takes(name):
    """`explain` heads them "a Rules tag's key=value": written in one, as listed, they read without an
    error (it listed a tafl variant's dim and start, which a Rules tag cannot set: the variant's)."""
    settings = api.explain(name).split("\nSettings (")[1].split("\n\n")[0]
    written = re.findall(r"^  ([a-z-]+=[^;]*);", settings, re.MULTILINE)
    game, _, variant = name.partition("/")
    report = check(f'[Game "{game}"]\n[Variant "{variant}"]\n[Rules "{" ".join(written)}"]\n*\n')
    assert len(written) >= 2 and report.diagnostics == []


@pytest.mark.parametrize(
    "game, said",
    [("hnefatafl", "required"), ("tablut", "the default first"), ("copenhagen", "the default first")],
)
def test_explain_of_a_game_says_whether_a_record_needs_a_variant_or_has_a_default(game, said):
    """hnefatafl's first variant is no default (a record that names none is refused): its list said
    "the default first" until session 47."""
    assert api.explain(game).splitlines()[2] == f"Variants (the Variant tag, {said}; explain {game}/VARIANT says more):"
    no_variant = check(f'[Game "{game}"]\n\n*\n').diagnostics
    assert [d.rule for d in no_variant] == (["tag"] if said == "required" else [])


def test_a_tafl_variants_board_and_start_are_no_options_of_the_rules_tag():
    """explain lists the options a Rules tag takes, which a Rules tag refuses dim and start of."""
    assert "dim" not in api.explain("hnefatafl").split("options (the Rules tag): ")[1]
    assert "Options (Rules tag" in api.explain("G1") and "  dim:" not in api.explain("G1")
    assert api.explain("dim").startswith("'dim' names no rule, game or variant; the texts of 2 rules use it:")
    assert api.explain("cor").startswith("cor: an option of the Rules tag")
    report = check('[Game "hnefatafl"]\n[Variant "fetlar-hnefatafl-11x11"]\n[Rules "dim=9"]\n*\n')
    assert [d.message for d in report.diagnostics] == [
        "unknown rules key 'dim' for hnefatafl (the board and the start are the variant's)"
    ]


def _plays(rules, position):
    """Each legal ply at `position`, with the position and outcome it leads to."""
    return {
        text: (played.position, played.outcome)
        for text in rules.legal_plies(position)
        for played in [rules.play(position, text)]
    }


def _positions(rules, seed, plies, every):
    """Every `every`th position of a random game of `plies` plies under `rules`, its start first."""
    position, found = rules.initial(), []
    rng = random.Random(seed)
    for ply in range(plies + 1):
        if ply % every == 0:
            found.append(position)
        text = rules.random_ply(position, rng)
        if text is None:
            break
        played = rules.play(position, text)
        if played.outcome is not None:
            break
        position = played.position
    return found


def test_a_setting_a_variant_does_not_list_changes_nothing_in_its_games():
    """Each option `explain` leaves out of a variant, set to another of its values, has the same legal
    plies, leading to the same positions and outcomes, at every 10th position of a random game (30
    plies): of every variant of every game, the first of those that leave out the same options."""
    tried = set()
    for name in EVERY_VARIANT:
        game, _, variant = name.partition("/")
        notes = variants()[game][variant]
        rules = api.rules_from_tags(GAMES[notes.tags["Game"]], notes.tags)
        left_out = set(rules.options) - set(rules.options_in_play())
        if (type(rules), frozenset(left_out)) in tried:
            continue
        tried.add((type(rules), frozenset(left_out)))
        positions = _positions(rules, name, 30, 10)
        plays = [_plays(rules, position) for position in positions]
        for key in sorted(left_out):
            for value in [value for value in rules.choices(key) if value != rules.option[key]][
                :1
            ]:  # (not dux's pieces)
                other = type(rules)({**rules.option, key: value}, rules.variant)
                assert [_plays(other, position) for position in positions] == plays, f"{name}: {key}={value}"
    assert len(tried) > 20


@pytest.mark.parametrize(
    "game, written, variant, key, value",
    [
        ("hnefatafl", "Fetlar", "opentafl-fetlar-11x11", "dim", "11"),  # OpenTafl's
        ("hnefatafl", "fetlar hnefatafl 11×11", "fetlar-hnefatafl-11x11", "dim", "11"),  # aagenielsen.dk's, titled
        ("hnefatafl", "Tyr 13x13#172", "tyr-13x13-172", "dim", "13"),  # one of two types of a name, by its key
        ("copenhagen", "Copenhagen Hnefatafl 11x11", "standard", "first", "black"),
        ("tablut", "Historical Hnefatafl 9x9 (Saami Tablut-w)", "aage", "first", "white"),  # aage, Rules first=white
    ],
)
def test_a_records_variant_tag_takes_the_names_other_programs_give_its_games_variants(
    game, written, variant, key, value
):
    """A record's Variant tag refused what --variant took (new in session 37): the name other
    programs' files give one of its game's variants reads as that variant, its Rules with it."""
    report = check(f'[Game "{game}"]\n[Variant "{written}"]\n\n*\n')
    assert report.valid, report.diagnostics
    assert report.rules is not None and (report.variant, report.rules.option[key]) == (variant, value)


@pytest.mark.parametrize(
    "game, written, said",
    [
        (
            "hnefatafl",
            "Copenhagen Hnefatafl 11x11",
            "unknown variant 'Copenhagen Hnefatafl 11x11' for hnefatafl (181 known: lusoria explain hnefatafl "
            "lists them); copenhagen has it",
        ),
        (
            "tablut",
            "Brandub",
            "unknown variant 'Brandub' for tablut (known: seed, linnaeus, unarmed, aage, ashton); hnefatafl has it",
        ),
        (
            "tablut",
            "Fetlar",  # OpenTafl's name of one of hnefatafl's, and copenhagen's own variant's
            "unknown variant 'Fetlar' for tablut (known: seed, linnaeus, unarmed, aage, ashton); copenhagen has it",
        ),
        (
            "hnefatafl",
            "Tyr 13x13",
            "other programs call several variants 'Tyr 13x13': name one (tyr-13x13 or tyr-13x13-172)",
        ),
        (
            "hnefatafl",
            "Tablut",  # a game's name, and OpenTafl's of two of hnefatafl's boards
            "other programs call several variants 'Tablut': name one (opentafl-tablut-9x9 or opentafl-tablut-15x15)",
        ),
        (
            "hnefatafl",
            "Copenhagen",  # a game's name, and aagenielsen.dk's of that game's: no other game's variant
            "unknown variant 'Copenhagen' for hnefatafl (181 known; did you mean copenhagen-hnefatafl-13x13 or "
            "copenhagen-hnefatafl-minus-11x11 or copenhagen-hnefatafl-bell-11x11?); copenhagen is a game, not a "
            'variant: name it as the game ([Game "copenhagen"], --game copenhagen)',
        ),
        (
            "tablut",
            "Brandubh",  # a game's name and nothing else (new in session 47: it was said unknown alone)
            "unknown variant 'Brandubh' for tablut (known: seed, linnaeus, unarmed, aage, ashton); brandubh is a "
            'game, not a variant: name it as the game ([Game "brandubh"], --game brandubh)',
        ),
        (
            "hnefatafl",
            "Hnefatafl",  # its own game's name, of a game that has no default variant (session 48)
            "unknown variant 'Hnefatafl' for hnefatafl (181 known; did you mean old-hnefatafl-9x9 or "
            "old-hnefatafl-11x11 or hnefatafl-edge-11x11?); hnefatafl is the game itself, not one of its "
            "variants: lusoria explain hnefatafl lists them",
        ),
    ],
)
def test_a_variant_tag_with_another_games_or_several_variants_name_is_refused_naming_them(game, written, said):
    """As --variant refuses them with --game: another game's variant names that game; several, them."""
    (error,) = check(f'[Game "{game}"]\n[Variant "{written}"]\n\n*\n').diagnostics
    assert (error.rule, error.line, error.column, error.message) == ("tag", 2, 11, said)


@pytest.mark.parametrize(
    ("game", "written", "default"),
    [
        ("brandubh", "Brandubh", "standard"),
        ("copenhagen", "Copenhagen", "standard"),  # OpenTafl's name, which read so before session 48
        ("tablut", "TABLUT", "seed"),
        ("latrunculi", "latrunculi", "seneca"),
        ("laquet", "Laquet", "seed"),
    ],
)
def test_a_variant_tag_that_names_its_own_game_reads_as_its_default_variant(game, written, default):
    """Session 48: `[Game "brandubh"] [Variant "Brandubh"]` was refused where `[Game "copenhagen"]
    [Variant "Copenhagen"]` was read (OpenTafl's name of its default): a Variant naming the record's own
    game, in any case, chooses that game's default variant, in every game that has one, and fmt writes it."""
    written_tags = f'[Game "{game}"]\n[Variant "{written}"]\n\n*\n'
    assert variant_named(GAMES[game], written) == {"Game": game, "Variant": default}
    assert check(written_tags).diagnostics == []
    assert api.format_record(written_tags)[0].splitlines()[:2] == [f'[Game "{game}"]', f'[Variant "{default}"]']
    assert variant_named(GAMES["hnefatafl"], "hnefatafl") is None  # no default: refused, as the test above says


def test_fmt_writes_a_variant_named_as_other_programs_name_it_by_its_own_name_and_rules():
    """The canonical form says the variant the tag reads as: its own name, and the Rules it sets
    before the record's."""
    written = '[Game "tablut"]\n[Variant "Historical Hnefatafl 9x9 (Saami Tablut-w)"]\n[Rules "king-capture=4"]\n\n*\n'
    canonical = api.format_record(written)[0]
    assert canonical.splitlines()[:2] == ['[Game "tablut"]', '[Variant "aage"]']
    assert '[Rules "first=white king-capture=4"]' in canonical.splitlines()
    opentafl = api.format_record('[Game "hnefatafl"]\n[Variant "Fetlar"]\n\n1. d1-d3 *\n')[0]
    assert opentafl.splitlines()[1] == '[Variant "opentafl-fetlar-11x11"]'


@pytest.mark.parametrize("game", ["tablut", "hnefatafl"])
def test_a_variants_notes_are_read_only_for_every_caller(game):
    """A caller that edits the tags of the notes it was given (a notebook's) gets a TypeError, and the
    next caller the tags as they were: the notes are made once and handed to everyone."""
    name, notes = next(iter(GAMES[game].variant_notes().items()))
    tags = dict(notes.tags)
    with pytest.raises(TypeError, match="does not support item assignment"):
        notes.tags["Variant"] = "mine"  # type: ignore[index]
    assert GAMES[game].variant_notes()[name].tags == tags and "mine" not in tags.values()


def test_a_variants_notes_keep_a_copy_of_the_tags_they_were_given():
    """A game (a plug-in's) that makes its notes of a dict it keeps and changes later changes no note."""
    tags = {"Game": "hnefatafl", "Variant": "club-7x7"}
    notes = VariantNotes("Club tafl", tags)
    tags["Variant"] = "club-9x9"
    assert notes.tags == {"Game": "hnefatafl", "Variant": "club-7x7"}


def test_a_name_given_is_echoed_with_its_quotes_and_backslashes_escaped():
    """`explain "tablut/it's"` said `tablut has no variant 'it's'`, a quote that ended the echo in
    the middle; each place that echoes a name now quotes it as `quoted` does."""
    with pytest.raises(KeyError) as raised:
        api.explain("tablut/it's")
    assert raised.value.args[0].startswith("tablut has no variant 'it\\'s' (known: ")
    with pytest.raises(KeyError) as raised:
        api.explain("o'\\")
    assert raised.value.args[0].startswith("no rule, game or variant is named 'o\\'\\\\'")
    (said,) = [d.message for d in check('[Game "tablut"]\n[Variant "x\'y"]\n*\n').diagnostics]
    assert said.startswith("unknown variant 'x\\'y' for tablut (")


def raised_by(call) -> str:
    """What `call` raises, said."""
    with pytest.raises((KeyError, ValueError)) as raised:
        call()
    return raised.value.args[0]


def test_every_value_a_caller_gives_is_echoed_with_its_quotes_escaped():
    """A rule ID, a position's field or a piece, a ply, a format and a rules key were echoed in
    hand-written quotes that a quote in them ended: each is `quoted` now."""
    laquet, tablut, latrunculi = GAMES["laquet"](), GAMES["tablut"](), GAMES["latrunculi"]()
    assert raised_by(lambda: rulebook.rule("T'9")).startswith("unknown rule 'T\\'9' (known: T0, ")
    assert raised_by(lambda: laquet.parse_position("1:2 6:14 w'")) == "the side to move is w or b, not 'w\\''"
    assert raised_by(lambda: laquet.parse_position("1'2 6:14 w")).startswith("'1\\'2' is not POINT:COUNT with")
    assert raised_by(lambda: tablut.play(tablut.initial(), "e3'")).startswith("'e3\\'' is not a ply of tablut: ")
    assert raised_by(lambda: latrunculi.parse_position("8'/8/8/8/8/8/8/8 w")).startswith(
        "'\\'' is not a Latrunculi piece (P, "
    )
    assert raised_by(lambda: tablut.parse_position("9/9/9/9/9/9/9/9/8' w")).startswith("'\\'' is not a Tablut piece")
    pattern = ["9/9/9/9/9/9/9/9/9", "w'"]
    assert (
        raised_by(lambda: GAMES["tablut"].pattern_globs(pattern, False)) == "the side to move is w, b or *, not 'w\\''"
    )
    assert raised_by(lambda: GAMES["tablut"].pattern_globs(["'8", "w"], False)).startswith(
        "'\\'' is not a tablut piece"
    )
    assert raised_by(lambda: GAMES["laquet"].pattern_globs(["1'2", "*", "w"], False)).startswith("'1\\'2' is not POINT")
    assert raised_by(lambda: next(api.convert(["x"], "o'tn"))).startswith("cannot write 'o\\'tn' (known: lgn, otn")
    assert raised_by(lambda: list(api.validate(["x"], format="l'gn"))).startswith(
        "unknown format 'l\\'gn' (known: lgn, "
    )
    (said,) = [d.message for d in api.check('[Game "tablut"]\n[Rules "k\'y:1"]\n*\n').diagnostics]
    assert said.startswith("unknown rules key 'k\\'y:1' for tablut (known: ")
    (said,) = [d.message for d in api.check('[Game "latrunculi"]\n[Board "8\'8"]\n*\n').diagnostics]
    assert said == "a Board is WxH with each side from 4 to 16, as in 8x8; not '8\\'8'"


def test_a_variant_whose_name_two_rules_use_says_them_in_the_plural_and_one_in_the_singular():
    """h82a: Ashton's name is used by T11 and T12, tablut/seed's by T4 alone: each is said as it is."""
    assert "\n\nthe texts of these rules use the word ashton: T11, T12 (lusoria explain ID says more)\n\n" in (
        api.explain("ashton")
    )
    assert api.explain("tablut/seed").endswith(
        "\n\nthe text of this rule uses the word seed: T4 (lusoria explain ID says more)"
    )


def test_a_games_rules_line_lists_the_rules_of_each_of_its_variants():
    """h82a: `explain latrunculi` lists the rules of every variant (Seneca's S, Piso's P, Petteia's E, the dux's X)
    after the common ones, where `explain latrunculi/seneca` lists the common ones and Seneca's alone."""
    assert "\nrules: L0, L1, L2, L3, L4, L5, S1, S2, S3, S4, S5, P1, E1, E2, E3, X1, X2, X3, X4\n" in (
        api.explain("latrunculi")
    )
    assert "\nrules: L0, L1, L2, L3, L4, L5, S1, S2, S3, S4, S5 (" in api.explain("latrunculi/seneca")


def test_a_name_like_no_variant_is_told_where_the_variants_are_listed():
    """h82a: a name like none that `explain` suggests says how many variants there are and which
    command lists them (the generic tafl game's catalogue), not nothing."""
    assert unknown_variant("qqqqqqqq") == (
        f"unknown variant 'qqqqqqqq': no game has it ({len(variant_names())} known: lusoria explain hnefatafl lists them)"
    )


def test_a_variant_of_other_games_is_said_only_of_a_game_lusoria_knows():
    """h82a: `api.variant_of_other_games` says whose a variant is where the game named has it not, and
    None where lusoria knows the game not (`chess`): that game is refused for itself, not for its variant."""
    assert api.variant_of_other_games("Tyr 15×15", "Tablut") == "a variant of hnefatafl, not of Tablut"
    assert api.variant_of_other_games("tyr-15x15", "hnefatafl") is None
    assert api.variant_of_other_games("tyr-15x15", "chess") is None
    assert api.variant_of_other_games("qqqqqqqq", "tablut") is None
